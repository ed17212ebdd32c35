/*
 * Process-wide system parameters (aclrtSetSysParamOpt / aclrtGetSysParamOpt):
 * four integer options, 0 by default, stored and reported. They need
 * neither aclInit nor a context. Option 2 (the deprecated strong
 * consistency switch) is its own slot, independent of option 0.
 *
 * What reads them inside oacl: ACL_OPT_ENABLE_DEBUG_KERNEL through
 * oacl_sysparam_debug_kernel() (a kernel memory checker may use it).
 * Deterministic mode does not serialise blocks: cross-block
 * synchronisation in a kernel would deadlock.
 */
#include "common/memcheck.h"
#include "runtime/runtime.h"

#define SYSPARAM_COUNT 4

static int64_t g_sysparam[SYSPARAM_COUNT]; /* atomic */

/* Largest valid value of each option (ACL_OPT_STRONG_CONSISTENCY is 2;
 * oacl's sources use the value, not the deprecated name). */
static const int64_t g_max[SYSPARAM_COUNT] = {3, 1, 1, 1};

static const char *const g_names[SYSPARAM_COUNT] = {
    "ACL_OPT_DETERMINISTIC", "ACL_OPT_ENABLE_DEBUG_KERNEL", "ACL_OPT_STRONG_CONSISTENCY",
    "ACL_OPT_ENABLE_KERNEL_EARLY_START"};

bool oacl_sysparam_valid(int opt, int64_t value)
{
    return opt >= 0 && opt < SYSPARAM_COUNT && value >= 0 && value <= g_max[opt];
}

int64_t oacl_sysparam_get(int opt)
{
    if (opt < 0 || opt >= SYSPARAM_COUNT)
        return 0;
    return __atomic_load_n(&g_sysparam[opt], __ATOMIC_ACQUIRE);
}

void oacl_sysparam_set(int opt, int64_t value)
{
    if (oacl_sysparam_valid(opt, value))
        __atomic_store_n(&g_sysparam[opt], value, __ATOMIC_RELEASE);
    if (opt == ACL_OPT_ENABLE_DEBUG_KERNEL && oacl_sysparam_valid(opt, value))
        oacl_memcheck_set_debug_kernel(value != 0); /* CANN's switch for the memory checker */
}

bool oacl_sysparam_debug_kernel(void) { return oacl_sysparam_get(ACL_OPT_ENABLE_DEBUG_KERNEL) != 0; }

OACL_API aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    int o = (int)opt;
    if (o < 0 || o >= SYSPARAM_COUNT)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "opt %d is not a system option (0..3)", o);
    if (!oacl_sysparam_valid(o, value))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "value %lld of %s is outside 0..%lld",
                         (long long)value, g_names[o], (long long)g_max[o]);
    oacl_sysparam_set(o, value);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    int o = (int)opt;
    if (o < 0 || o >= SYSPARAM_COUNT)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "opt %d is not a system option (0..3)", o);
    *value = oacl_sysparam_get(o);
    return ACL_SUCCESS;
}
