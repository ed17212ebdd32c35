/*
 * Profile families of the availability tables: the memory-extras chapter
 * (and others) say per product family whether a function exists; a
 * function a family lacks answers 207000 after its argument checks, as the
 * corresponding hardware does.
 */
#include <string.h>

#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

enum oacl_soc_family oacl_soc_family(void)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    if (!p)
        return OACL_SOC_FAMILY_NONE;
    /* The family name tells A2 from A3 (same architecture); "Ascend910B"
       is also the name of a first-generation profile, whose family is
       "Ascend910". */
    if (strcmp(p->short_name, "Ascend910B") == 0)
        return OACL_SOC_FAMILY_A2;
    if (strcmp(p->short_name, "Ascend910_93") == 0)
        return OACL_SOC_FAMILY_A3;
    switch (p->npu_arch) {
    case 3510:
        return OACL_SOC_FAMILY_950; /* Ascend950*, and Ascend350 of the same architecture */
    case 2002:
        return OACL_SOC_FAMILY_310P;
    case 3002:
        return OACL_SOC_FAMILY_310B;
    case 1001:
        return OACL_SOC_FAMILY_910;
    default:
        return OACL_SOC_FAMILY_A2; /* 2201 profiles outside both families: none exist */
    }
}

aclError oacl_soc_require(uint32_t families, const char *fn)
{
    enum oacl_soc_family f = oacl_soc_family();
    if (f == OACL_SOC_FAMILY_NONE)
        return oacl_devices_check(fn);
    if (families & OACL_SOC_MASK(f))
        return ACL_SUCCESS;
    return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn,
                     oacl_config()->soc->name);
}
