/*
 * Launches with argument arrays and the SIMT launches (device-kernel
 * chapter 3.3, 3.4, 4.9): aclrtLaunchKernelWithArgsArray,
 * aclrtLaunchSIMTKernelWithArgsArray, aclrtLaunchSIMTKernelWithHostArgs.
 *
 * `func` is the host address of a kernel linked into the program or a
 * function handle (kernel_symbol.c). The array form builds the argument
 * blob from one pointer per parameter (read during the call) in the
 * kernel's layout, zero-filling the padding, and launches it like a host
 * blob. SIMT kernels do not exist until oacl-cc emits them (Decision 7), so
 * every kernel fails the SIMT check with 107000, which is also CANN's
 * answer on products without SIMT.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

#define MAX_BLOCKS 65535u

/* Resolves the stream for the checks that precede building a blob:
 * context (107002), owner (107003), the kernel's device (107017). */
static aclError stream_check(const struct oacl_function *f, aclrtStream stream, const char *fn)
{
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_LAUNCH, &s, fn); /* a launch follows */
    if (rc)
        return rc;
    if (f->bin->dev && f->bin->dev != s->ctx->dev)
        rc = oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "kernel '%s' was loaded for device %d, not device %d",
                       f->info->name, f->bin->dev->id, s->ctx->dev->id);
    oacl_obj_put(&s->obj);
    return rc;
}

/* A stale (non-NULL) stream handle: 107017 before the kernel lookup. */
static aclError stream_live(aclrtStream stream, const char *fn)
{
    if (!stream)
        return ACL_SUCCESS;
    enum oacl_htype type;
    struct oacl_obj *o = oacl_handle_get_any(stream, &type);
    if (o)
        oacl_obj_put(o);
    if (!o || type != OACL_H_STREAM)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "stream %p is not a live stream handle", stream);
    return ACL_SUCCESS;
}

/* Kernels with parameter metadata only: CPU kernels 207000, none 107000. */
static aclError params_known(const struct oacl_function *f, const char *fn)
{
    if (f->cpu)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "'%s' is a CPU kernel: launch it with aclrtLaunchKernelWithConfig or a host blob",
                         f->info->name);
    if (f->info->num_params > 0 && !f->info->param_sizes)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "kernel '%s' carries no parameter information", f->info->name);
    return ACL_SUCCESS;
}

/* The blob of spec 3.3 (malloc'd; NULL *blob for a kernel without
 * parameters). Every args[i] must be non-NULL. */
static aclError build_blob(const struct oacl_kernel_info *k, void **args, unsigned char **blob, size_t *size,
                           const char *fn)
{
    *blob = NULL;
    *size = 0;
    size_t end = 0;
    for (uint32_t i = 0; i < k->num_params; i++) {
        if (!args[i])
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "args[%u] is NULL (kernel '%s' takes %u parameters)", i,
                             k->name, k->num_params);
        end = ((end + 7) & ~(size_t)7) + k->param_sizes[i];
    }
    if (k->num_params == 0)
        return ACL_SUCCESS;
    size_t total = (end + 7) & ~(size_t)7;
    unsigned char *b = calloc(1, total); /* padding is zero */
    if (!b)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for a %zu-byte argument blob", total);
    size_t off = 0;
    for (uint32_t i = 0; i < k->num_params; i++) {
        off = (off + 7) & ~(size_t)7;
        memcpy(b + off, args[i], k->param_sizes[i]);
        off += k->param_sizes[i];
    }
    *blob = b;
    *size = total;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtLaunchKernelWithArgsArray(void *func, uint32_t numBlocks, aclrtStream stream,
                                                 aclrtLaunchKernelCfg *cfg, void **args)
{
    const char *fn = __func__;
    if (!func)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "func is NULL");
    if (numBlocks == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "numBlocks is 0");
    aclError rc = stream_live(stream, fn);
    if (rc)
        return rc;
    struct oacl_function *f = NULL;
    if ((rc = oacl_func_resolve(func, true, &f, fn)))
        return rc;
    struct oacl_launch_cfg c;
    rc = params_known(f, fn);
    if (rc == ACL_SUCCESS && !args && f->info->num_params > 0)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "args is NULL but kernel '%s' takes %u parameters",
                       f->info->name, f->info->num_params);
    if (rc == ACL_SUCCESS)
        rc = oacl_launch_cfg_parse(cfg, &c, fn);
    if (rc == ACL_SUCCESS && numBlocks > MAX_BLOCKS)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "numBlocks %u exceeds %u", numBlocks, MAX_BLOCKS);
    if (rc == ACL_SUCCESS)
        rc = stream_check(f, stream, fn);
    unsigned char *blob = NULL;
    size_t size = 0;
    if (rc == ACL_SUCCESS)
        rc = build_blob(f->info, args, &blob, &size, fn);
    c.func = f; /* exception reports, fault codes */
    if (rc == ACL_SUCCESS)
        rc = oacl_launch_enqueue(f->bin->module, f->info, f->bin->dev, numBlocks, stream, &c, blob, size, true, fn);
    free(blob);
    oacl_obj_put(&f->obj);
    return rc;
}

/* The checks both SIMT launches share up to the SIMT property, which no
 * kernel has yet: kernel lookup, stale stream, then 107000. */
static aclError simt_launch(void *func, aclrtStream stream, const char *fn)
{
    struct oacl_function *f = NULL;
    aclError rc = oacl_func_resolve(func, true, &f, fn);
    if (rc)
        return rc;
    rc = stream_live(stream, fn);
    if (rc == ACL_SUCCESS)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "'%s' is not a SIMT kernel (oacl-cc does not produce SIMT kernels yet)", f->info->name);
    oacl_obj_put(&f->obj);
    return rc;
}

OACL_API aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
                                                     aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args)
{
    (void)gridDim;
    (void)blockDim;
    (void)dynUbufSize;
    (void)cfg;
    (void)args;
    if (!func)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "func is NULL");
    return simt_launch(func, stream, __func__);
}

OACL_API aclError aclrtLaunchSIMTKernelWithHostArgs(void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
                                                    aclrtStream stream, aclrtLaunchKernelCfg *cfg, void *hostArgs,
                                                    size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray,
                                                    size_t placeHolderNum)
{
    (void)gridDim;
    (void)blockDim;
    (void)dynUbufSize;
    (void)cfg;
    (void)placeHolderArray;
    (void)placeHolderNum;
    if (!func || !hostArgs)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", func ? "hostArgs" : "func");
    if (argsSize == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "argsSize is 0");
    return simt_launch(func, stream, __func__);
}
