/*
 * Product gating of the task-graph chapter (acl-rt-model-ri.md §1.2,
 * Decision 1): which SoC families have each group of functions. Checked
 * after the API-layer NULL checks, before everything else; 207000 naming
 * the function and the product elsewhere.
 */
#include "runtime/model_ri.h"

#define FAMILIES_ADVANCED                                                                                             \
    (OACL_SOC_MASK(OACL_SOC_FAMILY_950) | OACL_SOC_MASK(OACL_SOC_FAMILY_A3) | OACL_SOC_MASK(OACL_SOC_FAMILY_A2))
#define FAMILIES_CAPTURE (FAMILIES_ADVANCED | OACL_SOC_MASK(OACL_SOC_FAMILY_310P))
#define FAMILIES_ALL                                                                                                  \
    (FAMILIES_CAPTURE | OACL_SOC_MASK(OACL_SOC_FAMILY_310B) | OACL_SOC_MASK(OACL_SOC_FAMILY_910))

aclError oacl_ri_gate_capture(const char *fn) { return oacl_soc_require(FAMILIES_CAPTURE, fn); }

aclError oacl_ri_gate_advanced(const char *fn) { return oacl_soc_require(FAMILIES_ADVANCED, fn); }

aclError oacl_ri_gate_task_update(const char *fn) { return oacl_soc_require(FAMILIES_CAPTURE, fn); }

aclError oacl_ri_gate_persistent_clean(const char *fn) { return oacl_soc_require(FAMILIES_ADVANCED, fn); }

aclError oacl_ri_gate_stream_ctl(const char *fn)
{
    return oacl_soc_require(FAMILIES_ALL & ~OACL_SOC_MASK(OACL_SOC_FAMILY_A3), fn);
}
