/*
 * Context system parameters (device-kernel chapter 4.2):
 * aclrtCtxSetSysParamOpt / aclrtCtxGetSysParamOpt. Each context keeps its
 * own value and "set" mark per option (options 0..2); they go with the
 * context. A set also overwrites the process-level value of the option
 * (what aclrtGetSysParamOpt reports, sysparam.c).
 */
#include "runtime/runtime.h"

#define CTX_OPTS 3 /* ACL_OPT_ENABLE_KERNEL_EARLY_START (3) is process-level only */

static const char *const g_names[CTX_OPTS] = {"ACL_OPT_DETERMINISTIC", "ACL_OPT_ENABLE_DEBUG_KERNEL",
                                              "ACL_OPT_STRONG_CONSISTENCY"};
static const int64_t g_max[CTX_OPTS] = {3, 1, 1};

OACL_API aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    int o = (int)opt;
    if (o < 0 || o >= CTX_OPTS)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__,
                         "opt %d is not a context option (0..2; ACL_OPT_ENABLE_KERNEL_EARLY_START is process-wide)", o);
    if (value < 0 || value > g_max[o])
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "value %lld of %s is outside 0..%lld", (long long)value,
                         g_names[o], (long long)g_max[o]);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&ctx->lock);
    ctx->sysparam[o] = value;
    ctx->sysparam_set |= 1u << o;
    pthread_mutex_unlock(&ctx->lock);
    oacl_obj_put(&ctx->obj);
    oacl_sysparam_set(o, value);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    int o = (int)opt;
    if (o < 0 || o >= CTX_OPTS)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "opt %d is not a context option (0..2)", o);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&ctx->lock);
    bool set = (ctx->sysparam_set >> o) & 1u;
    int64_t v = ctx->sysparam[o];
    pthread_mutex_unlock(&ctx->lock);
    oacl_obj_put(&ctx->obj);
    if (!set)
        return oacl_fail(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, __func__, "%s was never set in the current context",
                         g_names[o]);
    *value = v;
    return ACL_SUCCESS;
}
