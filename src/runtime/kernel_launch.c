/*
 * Kernel launches: aclrtLaunchKernelWithConfig (argument list built with
 * aclrtKernelArgs*), aclrtLaunchKernel(V2) (argument blob already in device
 * memory) and aclrtLaunchKernelWithHostArgs (blob in host memory, copied). Both check the arguments against the kernel's metadata from its
 * binary before anything is queued: a mismatch is an error, never a call.
 */
#include <stdlib.h>
#include <string.h>

#include "common/addr_registry.h"
#include "common/dump.h"
#include "oacl/kernel_abi.h"
#include "runtime/dump.h"
#include "runtime/runtime.h"

#define MAX_BLOCKS 65535u

aclError oacl_launch_cfg_parse(const aclrtLaunchKernelCfg *cfg, struct oacl_launch_cfg *out, const char *fn)
{
    memset(out, 0, sizeof(*out));
    if (!cfg)
        return ACL_SUCCESS;
    if (!cfg->attrs)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "cfg->attrs is NULL");
    bool have_timeout = false, have_timeout_us = false;
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        const aclrtLaunchKernelAttr *a = &cfg->attrs[i];
        switch ((int)a->id) {
        case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
            if (a->value.schemMode > 1)
                return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "attr %zu: schemMode must be 0 or 1, not %u", i,
                                 a->value.schemMode);
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
            break; /* no effect on this device */
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
            out->block_offset = a->value.blockDimOffset;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
            if (a->value.isBlockTaskPrefetch > 1)
                return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "attr %zu: isBlockTaskPrefetch must be 0 or 1", i);
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
            if (a->value.isDataDump > 1)
                return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "attr %zu: isDataDump must be 0 or 1", i);
            out->data_dump = a->value.isDataDump == 1;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
            if (a->value.enableProfiling > 1)
                return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "attr %zu: enableProfiling must be 0 or 1", i);
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
            have_timeout = out->timeout_set = true;
            out->timeout_ns = (uint64_t)a->value.timeout * 1000000000ull;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
            have_timeout_us = out->timeout_set = true;
            out->timeout_ns = (((uint64_t)a->value.timeoutUs.timeoutHigh << 32) | a->value.timeoutUs.timeoutLow) * 1000ull;
            break;
        default: /* CANN rejects them (device-kernel chapter, 7 C2) */
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "attr %zu: unknown launch attribute id %d", i,
                             (int)a->id);
        }
    }
    if (have_timeout && have_timeout_us)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "TIMEOUT and TIMEOUT_US cannot be combined");
    return ACL_SUCCESS;
}

/* Everything the launch forms share once arguments are known. bin_dev is
 * the device the kernel was loaded for (NULL: code linked into the
 * program, which runs on any device). */
aclError oacl_launch_enqueue(struct oacl_module *module, const struct oacl_kernel_info *info,
                             struct oacl_device *bin_dev, uint32_t num_blocks, aclrtStream stream,
                             const struct oacl_launch_cfg *c, const void *args, size_t args_size, bool copy_args,
                             const char *fn)
{
    OACL_PROF_NODE(oacl_trace_intern(info->name)); /* Node@<kernel> in the profiler's timeline */
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_resolve(ctx, stream, OACL_STREAM_LAUNCH, &s, fn);
    if (rc == ACL_SUCCESS) {
        if (bin_dev && bin_dev != ctx->dev) { /* the handle is invalid there (7 C3) */
            rc = oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "kernel '%s' was loaded for device %d, not device %d",
                           info->name, bin_dev->id, ctx->dev->id);
        } else {
            struct oacl_launch l = {
                .module = module,
                .kernel = info,
                .args = args,
                .args_size = args_size,
                .copy_args = copy_args,
                .num_blocks = num_blocks,
                .block_offset = c->block_offset,
                .timeout_ns = oacl_launch_timeout_ns(c), /* credit-rounded (op_timeout.c) */
                .patches = c->patches,
                .num_patches = c->num_patches,
                .max_cores = oacl_launch_core_limit(ctx->dev), /* thread, device and group limits */
                /* data dump: decided now, written while the launch runs */
                .dump = oacl_dump_select(info->name, c->data_dump, (uint32_t)ctx->dev->id, args_size),
                /* vector-only (Decision 1): loaded with the vector-core magic */
                .aiv = c->func && !c->func->cpu && c->func->bin->default_type == ACL_KERNEL_TYPE_VECTOR,
                /* exception reports: the context to make current, the function handle */
                .fault_user = ctx,
                .fault_func = c->func ? c->func->obj.handle : NULL,
            };
            oacl_overflow_launch(s, &l); /* switch and saturation mode at launch */
            char err[OACL_BACKEND_ERRLEN] = "";
            int brc = 0;
            if (__builtin_expect(s->ri_update != NULL, 0)) { /* aclmdlRICaptureTaskUpdateBegin */
                oacl_dump_plan_free(l.dump); /* a replacement task is not dumped */
                l.dump = NULL;
                rc = oacl_ri_update_launch(s, &l, fn);
            } else
                brc = oacl_backend()->queue_launch(s->queue, &l, err);
            if (rc) {
                oacl_dump_plan_free(l.dump);
            } else if (brc) {
                oacl_dump_plan_free(l.dump);
                rc = oacl_fail(brc, fn, "%s", err);
            } else if (__builtin_expect(s->ri_capture != NULL, 0)) {
                oacl_ri_note(s, &(struct oacl_ri_note){.args_size = args_size, .timeout_ns = c->timeout_ns,
                                                       .data_dump = c->data_dump});
            }
        }
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                              aclrtLaunchKernelCfg *cfg, aclrtArgsHandle argsHandle, void *reserve)
{
    OACL_PROF_API("KernelLaunch");
    if (!funcHandle || !argsHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", funcHandle ? "argsHandle" : "funcHandle");
    if (numBlocks == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "numBlocks is 0");
    if (reserve)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "reserve must be NULL");
    if (numBlocks > MAX_BLOCKS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "numBlocks %u exceeds %u", numBlocks, MAX_BLOCKS);
    struct oacl_launch_cfg c;
    aclError rc = oacl_launch_cfg_parse(cfg, &c, __func__);
    if (rc)
        return rc;
    struct oacl_function *f = (struct oacl_function *)oacl_handle_get(funcHandle, OACL_H_FUNC);
    if (!f)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__,
                         "funcHandle %p is not a live kernel function (was its binary unloaded?)", funcHandle);
    struct oacl_args *a = NULL; /* a runtime list or one in user memory */
    rc = oacl_args_lookup(argsHandle, &a, __func__);
    if (rc == ACL_SUCCESS && a->func != f)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "the argument list was initialised for kernel '%s', not '%s'", a->func->info->name,
                       f->info->name);
    else if (rc == ACL_SUCCESS)
        rc = oacl_args_check(a, f, __func__);
    if (rc == ACL_SUCCESS) {
        c.patches = a->patches;
        c.num_patches = a->num_patches;
        c.func = f; /* exception reports, fault codes */
        rc = oacl_launch_enqueue(f->bin->module, f->info, f->bin->dev, numBlocks, stream, &c, a->buf, a->size, true,
                                 __func__);
    }
    oacl_obj_put(&f->obj);
    return rc;
}

/* Bytes a kernel's parameters occupy in a blob (8-byte aligned starts). */
static size_t blob_size(const struct oacl_kernel_info *k)
{
    size_t end = 0;
    for (uint32_t i = 0; i < k->num_params; i++)
        end = ((end + 7) & ~(size_t)7) + k->param_sizes[i];
    return end;
}

/* Checks shared by the launches with a ready-made blob. */
static aclError check_blob_launch(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *args, size_t argsSize,
                                  const char *args_name, const char *fn)
{
    if (!funcHandle || !args)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", funcHandle ? args_name : "funcHandle");
    if (numBlocks == 0 || numBlocks > MAX_BLOCKS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "numBlocks %u is outside 1..%u", numBlocks, MAX_BLOCKS);
    if (argsSize == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "argsSize is 0");
    return ACL_SUCCESS;
}

/* The function behind funcHandle, checked to take no more than argsSize
 * bytes of arguments (+1 reference). */
static aclError function_for_blob(aclrtFuncHandle funcHandle, size_t argsSize, struct oacl_function **out,
                                  const char *fn)
{
    struct oacl_function *f = (struct oacl_function *)oacl_handle_get(funcHandle, OACL_H_FUNC);
    if (!f)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn,
                         "funcHandle %p is not a live kernel function (was its binary unloaded?)", funcHandle);
    size_t need = blob_size(f->info);
    if (argsSize < need) {
        aclError rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                                "kernel '%s' needs %zu bytes of arguments; argsSize is %zu", f->info->name, need,
                                argsSize);
        oacl_obj_put(&f->obj);
        return rc;
    }
    *out = f;
    return ACL_SUCCESS;
}

/* aclrtLaunchKernel(V2): the blob is device memory the caller keeps valid. */
static aclError launch_device_blob(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                   size_t argsSize, const aclrtLaunchKernelCfg *cfg, aclrtStream stream,
                                   const char *fn)
{
    aclError rc = check_blob_launch(funcHandle, numBlocks, argsData, argsSize, "argsData", fn);
    if (rc)
        return rc;
    if ((uintptr_t)argsData % 8 != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "argsData %p is not 8-byte aligned", argsData);
    struct oacl_launch_cfg c;
    rc = oacl_launch_cfg_parse(cfg, &c, fn);
    if (rc)
        return rc;
    /* The blob must be device memory that stays valid until the kernel ran. */
    struct oacl_mem_record r;
    uintptr_t p = (uintptr_t)argsData;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, p, &r) ||
        (r.kind != OACL_MEM_DEVICE_ALIAS && r.kind != OACL_MEM_DEVICE && r.kind != OACL_MEM_MANAGED))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "argsData %p is not device memory (aclrtMalloc, managed memory, or the device address of "
                         "mapped host memory)",
                         argsData);
    if (argsSize > r.base + r.size - p)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "argsData + argsSize runs past the end of its device range");
    struct oacl_function *f;
    rc = function_for_blob(funcHandle, argsSize, &f, fn);
    if (rc)
        return rc;
    c.func = f; /* exception reports, fault codes */
    rc = oacl_launch_enqueue(f->bin->module, f->info, f->bin->dev, numBlocks, stream, &c, argsData, argsSize, false,
                             fn);
    oacl_obj_put(&f->obj);
    return rc;
}

OACL_API aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                    size_t argsSize, aclrtStream stream)
{
    OACL_PROF_API("KernelLaunch");
    return launch_device_blob(funcHandle, numBlocks, argsData, argsSize, NULL, stream, __func__);
}

OACL_API aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                      size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream)
{
    OACL_PROF_API("KernelLaunch");
    return launch_device_blob(funcHandle, numBlocks, argsData, argsSize, cfg, stream, __func__);
}

OACL_API aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                                aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize,
                                                aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum)
{
    OACL_PROF_API("KernelLaunch");
    const char *fn = __func__;
    aclError rc = check_blob_launch(funcHandle, numBlocks, hostArgs, argsSize, "hostArgs", fn);
    if (rc)
        return rc;
    if (argsSize > UINT32_MAX)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "argsSize %zu is too large", argsSize);
    if (placeHolderNum > 0 && !placeHolderArray)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "placeHolderNum is %zu but placeHolderArray is NULL",
                         placeHolderNum);
    for (size_t i = 0; i < placeHolderNum; i++) {
        const aclrtPlaceHolderInfo *ph = &placeHolderArray[i];
        if ((size_t)ph->addrOffset + 8 > argsSize || ph->dataOffset >= argsSize)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "placeholder %zu: addrOffset %u or dataOffset %u lies outside the %zu-byte blob", i,
                             ph->addrOffset, ph->dataOffset, argsSize);
    }
    struct oacl_launch_cfg c;
    rc = oacl_launch_cfg_parse(cfg, &c, fn);
    if (rc)
        return rc;
    struct oacl_function *f;
    rc = function_for_blob(funcHandle, argsSize, &f, fn);
    if (rc)
        return rc;
    struct oacl_arg_patch local[16], *patches = local;
    if (placeHolderNum > 16 && !(patches = malloc(placeHolderNum * sizeof(*patches)))) {
        oacl_obj_put(&f->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for %zu placeholders", placeHolderNum);
    }
    for (size_t i = 0; i < placeHolderNum; i++)
        patches[i] = (struct oacl_arg_patch){placeHolderArray[i].addrOffset, placeHolderArray[i].dataOffset};
    c.patches = patches;
    c.num_patches = (uint32_t)placeHolderNum;
    c.func = f; /* exception reports, fault codes */
    rc = oacl_launch_enqueue(f->bin->module, f->info, f->bin->dev, numBlocks, stream, &c, hostArgs, argsSize, true,
                             fn);
    if (patches != local)
        free(patches);
    oacl_obj_put(&f->obj);
    return rc;
}

/* Launches of kernels linked into the program: `k<<<blocks, l2ctrl,
 * stream>>>(args...)` in a source compiled by oacl-cc becomes a call of
 * this function with the kernel's descriptor and the arguments packed by
 * value. */
OACL_KAPI int oacl_launch(const struct oacl_kernel_desc *k, uint32_t num_blocks, void *stream, const void *args,
                          size_t args_size)
{
    static const char fn[] = "kernel<<<>>> launch";
    if (!k || !k->entry || !k->name)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "kernel descriptor is NULL or incomplete");
    if (args_size && !args)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "kernel '%s': args is NULL", k->name);
    if (num_blocks == 0 || num_blocks > MAX_BLOCKS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "kernel '%s': blockDim %u is outside 1..%u", k->name,
                         num_blocks, MAX_BLOCKS);
    struct oacl_kernel_info info = {
        .name = k->name, .num_params = k->num_params, .param_sizes = k->param_sizes, .backend_kernel = k};
    size_t need = blob_size(&info);
    if (args_size < need)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "kernel '%s' needs %zu bytes of arguments; got %zu", k->name,
                         need, args_size);
    struct oacl_launch_cfg c = {.block_offset = 0};
    return oacl_launch_enqueue(NULL, &info, NULL, num_blocks, stream, &c, args, args_size, true, fn);
}
