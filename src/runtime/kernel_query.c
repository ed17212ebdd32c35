/*
 * Function queries (device-kernel chapter 3.2, 4.7): aclrtFunctionGetBinary,
 * aclrtGetFunctionName, aclrtGetFunctionAttribute, aclrtGetFunctionAddr,
 * aclrtGetFunctionSize, aclrtFunctionGetParamCount,
 * aclrtFunctionGetParamInfo, aclrtFunctionGetAvailDynUbufPerBlock.
 *
 * Everything comes from oacl's kernel metadata. Kernel ABI v1 carries no
 * kernel type, schedule mode or SIMT flag, so (Decision 6): the type is the
 * MAGIC option of the load if it gave one, else VECTOR on separated
 * architectures (2201, 3510) and AICORE on coupled ones; schedule mode 0;
 * no kernel is SIMT. CPU kernels are AICPU. The parameter layout is the
 * blob layout: parameter i at the next multiple of 8 after parameter i-1.
 */
#include <string.h>

#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

static uint32_t arch(void) { return oacl_config()->soc ? oacl_config()->soc->npu_arch : 0; }

static int64_t kernel_type(const struct oacl_function *f)
{
    if (f->cpu)
        return ACL_KERNEL_TYPE_AICPU;
    if (f->bin->default_type >= 0)
        return f->bin->default_type;
    return arch() == 2201 || arch() == 3510 ? ACL_KERNEL_TYPE_VECTOR : ACL_KERNEL_TYPE_AICORE;
}

/* The function behind a handle argument (+1 reference); 107017 when stale. */
static aclError func_get(const void *h, struct oacl_function **out, const char *fn)
{
    *out = (struct oacl_function *)oacl_handle_get(h, OACL_H_FUNC);
    if (!*out)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "%p is not a live function handle (was its binary unloaded?)",
                         h);
    return ACL_SUCCESS;
}

/* A non-NULL handle that is stale: 107017 (checked before NULL arguments). */
static aclError func_live(const void *h, const char *fn)
{
    if (!h)
        return ACL_SUCCESS;
    struct oacl_function *f = NULL;
    aclError rc = func_get(h, &f, fn);
    if (rc == ACL_SUCCESS)
        oacl_obj_put(&f->obj);
    return rc;
}

OACL_API aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle)
{
    aclError rc = func_live(funcHandle, __func__);
    if (rc)
        return rc;
    if (!funcHandle || !binHandle)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s is NULL", funcHandle ? "binHandle" : "funcHandle");
    struct oacl_function *f = NULL;
    if ((rc = func_get(funcHandle, &f, __func__)))
        return rc;
    void *h = f->bin->obj.handle; /* NULL once unloaded: its functions are retired first */
    oacl_obj_put(&f->obj);
    if (!h)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "the binary of %p was unloaded", funcHandle);
    *binHandle = h;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char *name)
{
    if (!name)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "name is NULL");
    aclError rc = func_live(funcHandle, __func__);
    if (rc)
        return rc;
    if (!funcHandle)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "funcHandle is NULL");
    struct oacl_function *f = NULL;
    if ((rc = func_get(funcHandle, &f, __func__)))
        return rc;
    size_t len = strlen(f->info->name);
    if ((size_t)maxLen < len + 1)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "maxLen %u cannot hold the name '%s' and its NUL (%zu bytes)",
                       maxLen, f->info->name, len + 1);
    else
        memcpy(name, f->info->name, len + 1);
    oacl_obj_put(&f->obj);
    return rc;
}

/* The cube:vector ratio needs task metadata some products lack (spec 3.6). */
static aclError task_info_supported(const char *fn, const char *what)
{
    if (arch() != 3002 && arch() != 1001)
        return ACL_SUCCESS;
    return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s%s", fn,
                     oacl_config()->soc->name, what);
}

OACL_API aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                            int64_t *attrValue)
{
    if (!funcHandle || !attrValue)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", funcHandle ? "attrValue" : "funcHandle");
    struct oacl_function *f = NULL;
    aclError rc = func_get(funcHandle, &f, __func__);
    if (rc)
        return rc;
    switch ((int)attrType) {
    case ACL_FUNC_ATTR_KERNEL_TYPE:
        *attrValue = kernel_type(f);
        break;
    case ACL_FUNC_ATTR_KERNEL_RATIO:
        rc = task_info_supported(__func__, " (ACL_FUNC_ATTR_KERNEL_RATIO)");
        if (rc == ACL_SUCCESS && f->cpu)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "CPU kernel '%s' has no core ratio", f->info->name);
        if (rc == ACL_SUCCESS)
            *attrValue = 0; /* aic:aiv 0:0, all 64 bits (Decision 18): no kernel is a described mix yet */
        break;
    case ACL_FUNC_ATTR_KERNEL_SCHED_MODE:
        *attrValue = 0; /* normal: blocks start as cores become free */
        break;
    default:
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "attrType %d is not an aclrtFuncAttribute (1..3)",
                       (int)attrType);
    }
    oacl_obj_put(&f->obj);
    return rc;
}

/* Code address and size of f, assigned to the cube and vector parts by type. */
static void code_parts(const struct oacl_function *f, void **aic, void **aiv, size_t *aic_size, size_t *aiv_size)
{
    void *addr = NULL;
    size_t size = 0;
    oacl_backend()->kernel_code(f->bin->module, f->info, f->symbol, &addr, &size);
    int64_t t = kernel_type(f);
    bool cube = t == ACL_KERNEL_TYPE_AICORE || t == ACL_KERNEL_TYPE_CUBE || t == ACL_KERNEL_TYPE_MIX;
    bool vec = t == ACL_KERNEL_TYPE_VECTOR || t == ACL_KERNEL_TYPE_MIX; /* MIX: one body for both */
    *aic = cube ? addr : NULL;
    *aiv = vec ? addr : NULL;
    *aic_size = cube ? size : 0;
    *aiv_size = vec ? size : 0;
}

OACL_API aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void **aicAddr, void **aivAddr)
{
    if (!funcHandle || !aicAddr || !aivAddr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !funcHandle ? "funcHandle" : !aicAddr ? "aicAddr" : "aivAddr");
    struct oacl_function *f = NULL;
    aclError rc = func_get(funcHandle, &f, __func__);
    if (rc)
        return rc;
    if (f->cpu) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "'%s' is a CPU kernel: it has no device code address",
                       f->info->name);
    } else {
        size_t s1, s2;
        code_parts(f, aicAddr, aivAddr, &s1, &s2);
    }
    oacl_obj_put(&f->obj);
    return rc;
}

OACL_API aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t *aicSize, size_t *aivSize)
{
    aclError rc = task_info_supported(__func__, ""); /* before any other check */
    if (rc == ACL_SUCCESS)
        rc = func_live(funcHandle, __func__);
    if (rc)
        return rc;
    if (!funcHandle || !aicSize || !aivSize)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s is NULL",
                         !funcHandle ? "funcHandle" : !aicSize ? "aicSize" : "aivSize");
    struct oacl_function *f = NULL;
    if ((rc = func_get(funcHandle, &f, __func__)))
        return rc;
    if (f->cpu) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "'%s' is a CPU kernel: it has no device code",
                       f->info->name);
    } else {
        void *a1, *a2;
        code_parts(f, &a1, &a2, aicSize, aivSize);
    }
    oacl_obj_put(&f->obj);
    return rc;
}

/* ---- parameters ---------------------------------------------------------------------- */

/* The function of a `const void *func` argument that must have parameter
 * metadata (+1 reference): CPU kernel 207000, none 107000. */
static aclError func_with_params(const void *func, struct oacl_function **out, const char *fn)
{
    struct oacl_function *f = NULL;
    aclError rc = func_get(func, &f, fn);
    if (rc)
        return rc;
    if (f->cpu)
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "'%s' is a CPU kernel: it declares no parameters",
                       f->info->name);
    else if (f->info->num_params > 0 && !f->info->param_sizes)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "kernel '%s' carries no parameter information", f->info->name);
    if (rc) {
        oacl_obj_put(&f->obj);
        return rc;
    }
    *out = f;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtFunctionGetParamCount(const void *func, size_t *paramCount)
{
    if (!func || !paramCount)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", func ? "paramCount" : "func");
    struct oacl_function *f = NULL;
    aclError rc = func_with_params(func, &f, __func__);
    if (rc)
        return rc;
    *paramCount = f->info->num_params;
    oacl_obj_put(&f->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtFunctionGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                            size_t *paramSize)
{
    if (!func)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "func is NULL");
    if (!paramOffset && !paramSize)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "paramOffset and paramSize are both NULL");
    struct oacl_function *f = NULL;
    aclError rc = func_with_params(func, &f, __func__);
    if (rc)
        return rc;
    const struct oacl_kernel_info *k = f->info;
    if (paramIndex >= k->num_params) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "paramIndex %zu: kernel '%s' has %u parameter%s",
                       paramIndex, k->name, k->num_params, k->num_params == 1 ? "" : "s");
    } else {
        size_t off = 0;
        for (size_t i = 0; i < paramIndex; i++)
            off = (off + k->param_sizes[i] + 7) & ~(size_t)7;
        if (paramOffset)
            *paramOffset = off;
        if (paramSize)
            *paramSize = k->param_sizes[paramIndex];
    }
    oacl_obj_put(&f->obj);
    return rc;
}

OACL_API aclError aclrtFunctionGetAvailDynUbufPerBlock(void *func, uint32_t flags, size_t *dynamicUbufSize)
{
    if (!func || !dynamicUbufSize)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", func ? "dynamicUbufSize" : "func");
    if (flags != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "flags 0x%x is reserved and must be 0", flags);
    struct oacl_function *f = NULL;
    aclError rc = func_get(func, &f, __func__);
    if (rc)
        return rc;
    *dynamicUbufSize = 0; /* only SIMT kernels use dynamic UB, and none exists yet (Decision 7) */
    oacl_obj_put(&f->obj);
    return ACL_SUCCESS;
}
