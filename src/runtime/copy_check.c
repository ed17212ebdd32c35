/*
 * Availability of the memory-extras copy functions per SoC profile family
 * (spec memory extras §1.1): the same program then answers as on the
 * corresponding hardware.
 */
#include <string.h>

#include "device/cpu/soc_profile.h"
#include "runtime/copy_check.h"

unsigned oacl_copy_family(void)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    if (!p)
        return 0;
    switch (p->npu_arch) {
    case 2201: return strcmp(p->short_name, "Ascend910_93") == 0 ? OACL_FAM_A3 : OACL_FAM_A2;
    case 3510: return OACL_FAM_950; /* Ascend950 and its arch-3510 siblings */
    case 2002: return OACL_FAM_310P;
    case 3002: return OACL_FAM_310B;
    case 1001: return OACL_FAM_910;
    default: return OACL_FAM_A2;
    }
}

const char *oacl_copy_soc_name(void)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    return p ? p->name : "?";
}

aclError oacl_copy_supported(unsigned families, const char *fn)
{
    unsigned fam = oacl_copy_family();
    if (!fam)
        return oacl_devices_check(fn);
    if (fam & families)
        return ACL_SUCCESS;
    return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn, oacl_copy_soc_name());
}
