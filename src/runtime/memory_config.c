/*
 * Configured and cached allocation: aclrtMallocCached, aclrtMallocWithCfg,
 * aclrtMallocForTaskScheduler, aclrtMallocHostWithCfg, and the frees that
 * synchronise the device first (aclrtFreeWithDevSync,
 * aclrtFreeHostWithDevSync). The allocations themselves are memory.c's.
 */
#include "common/log.h"
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

/* Policies aclrtMallocCached knows; anything else is the default. */
static aclrtMemMallocPolicy cached_policy(aclrtMemMallocPolicy policy)
{
    switch (policy) {
    case ACL_MEM_MALLOC_HUGE_FIRST:
    case ACL_MEM_MALLOC_HUGE_ONLY:
    case ACL_MEM_MALLOC_NORMAL_ONLY:
    case ACL_MEM_MALLOC_HUGE1G_ONLY:
        return policy;
    default:
        return ACL_MEM_MALLOC_HUGE_FIRST;
    }
}

OACL_API aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    /* The CPU device is cache coherent: ordinary device memory. */
    return oacl_device_malloc(devPtr, size, cached_policy(policy), true, OACL_MODULE_APP, __func__);
}

/* The low byte selects the page policy, higher bits are modifiers (band
 * width, read-only: recorded, no effect here); a low byte outside the
 * policies makes the whole value the default. */
static aclrtMemMallocPolicy cfg_policy(aclrtMemMallocPolicy policy)
{
    uint32_t p = (uint32_t)policy;
    return (p & 0xFFu) <= ACL_MEM_MALLOC_HUGE1G_ONLY_P2P ? policy : ACL_MEM_MALLOC_HUGE_FIRST;
}

static aclError device_malloc_cfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg,
                                  const char *fn)
{
    if (!devPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "devPtr is NULL");
    if (cfg && cfg->numAttrs > 0 && !cfg->attrs)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "cfg->numAttrs is %zu but cfg->attrs is NULL", cfg->numAttrs);
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    int32_t here = ctx->dev->id;
    oacl_obj_put(&ctx->obj);
    /* Applied in order: a later attribute of a kind overrides an earlier one. */
    uint16_t module_id = OACL_MODULE_APP;
    bool have_dev = false;
    uint32_t want_dev = 0;
    size_t dev_index = 0;
    for (size_t i = 0; cfg && i < cfg->numAttrs; i++) {
        const aclrtMallocAttribute *a = &cfg->attrs[i];
        switch ((uint32_t)a->attr) {
        case ACL_RT_MEM_ATTR_RSV:
            break;
        case ACL_RT_MEM_ATTR_MODULE_ID:
            module_id = a->value.moduleId;
            break;
        case ACL_RT_MEM_ATTR_DEVICE_ID:
            have_dev = true;
            want_dev = a->value.deviceId;
            dev_index = i;
            break;
        case ACL_RT_MEM_ATTR_VA_FLAG:
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "cfg->attrs[%zu]: ACL_RT_MEM_ATTR_VA_FLAG is for host allocations "
                             "(aclrtMallocHostWithCfg)",
                             i);
        default:
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "cfg->attrs[%zu]: attribute kind %u is unknown", i,
                             (unsigned)a->attr);
        }
    }
    if (have_dev && want_dev != (uint32_t)here)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "cfg->attrs[%zu]: ACL_RT_MEM_ATTR_DEVICE_ID %u is not the current device %d", dev_index,
                         want_dev, here);
    /* No 32-byte padding here, unlike aclrtMalloc (correction C1). */
    return oacl_device_malloc(devPtr, size, cfg_policy(policy), false, module_id, fn);
}

OACL_API aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg)
{
    return device_malloc_cfg(devPtr, size, policy, cfg, __func__);
}

OACL_API aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                              aclrtMallocConfig *cfg)
{
    /* The CPU scheduler reaches all memory: no address window (Decision 3). */
    return device_malloc_cfg(devPtr, size, policy, cfg, __func__);
}

OACL_API aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
    static const char fn[] = "aclrtMallocHostWithCfg";
    if (!ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "ptr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if (cfg && !cfg->attrs)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "cfg->attrs is NULL");
    uint16_t module_id = OACL_MODULE_APP;
    bool va_flag = false;
    for (size_t i = 0; cfg && i < cfg->numAttrs; i++) {
        const aclrtMallocAttribute *a = &cfg->attrs[i];
        if (a->attr == ACL_RT_MEM_ATTR_MODULE_ID)
            module_id = a->value.moduleId;
        else if (a->attr == ACL_RT_MEM_ATTR_VA_FLAG)
            va_flag = a->value.vaFlag == 1;
        else
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "cfg->attrs[%zu]: attribute kind %u is not accepted for host memory (only "
                             "ACL_RT_MEM_ATTR_MODULE_ID and ACL_RT_MEM_ATTR_VA_FLAG)",
                             i, (unsigned)a->attr);
    }
    aclError rc = oacl_ctx_require(fn);
    if (rc)
        return rc;
    /* Identity mappings are an A2/A3 feature (Decision 18). */
    enum oacl_soc_family fam = oacl_soc_family();
    if (va_flag && fam != OACL_SOC_FAMILY_A2 && fam != OACL_SOC_FAMILY_A3) {
        OACL_WARN("%s: ACL_RT_MEM_ATTR_VA_FLAG is ignored on %s (an Atlas A2/A3 feature)", fn,
                  oacl_config()->soc->name);
        va_flag = false;
    }
    return oacl_host_malloc(ptr, (size_t)size, va_flag, module_id, fn);
}

OACL_API aclError aclrtFreeWithDevSync(void *devPtr)
{
    if (!devPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "devPtr is NULL");
    /* A task failure found by the synchronisation is the result, and the
       memory stays allocated (correction C3). */
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    rc = oacl_device_sync(-1, __func__);
    if (rc)
        return oacl_fail(rc, __func__, "the device synchronisation failed; %p was not freed", devPtr);
    return oacl_device_free(devPtr, __func__);
}

OACL_API aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
    if (!hostPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "hostPtr is NULL");
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    rc = oacl_device_sync(-1, __func__);
    if (rc)
        return oacl_fail(rc, __func__, "the device synchronisation failed; %p was not freed", hostPtr);
    return oacl_host_free(hostPtr, __func__);
}
