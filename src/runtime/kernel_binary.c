/*
 * Kernel binaries: aclrtBinaryLoadFromFile, aclrtBinaryGetFunction,
 * aclrtBinaryUnLoad. The backend parses and loads the file; this layer
 * owns the handles. Launches keep the backend module alive, so unloading
 * while kernels of the binary still run is safe: the module goes when the
 * last of them completes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

static void binary_destroy(struct oacl_obj *o)
{
    struct oacl_binary *b = (struct oacl_binary *)o;
    oacl_binary_unload_module(b); /* its variables, registry ranges, module */
    free(b->funcs);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

static void function_destroy(struct oacl_obj *o)
{
    struct oacl_function *f = (struct oacl_function *)o;
    oacl_obj_put(&f->bin->obj);
    free(f);
}

static aclError check_load_options(const aclrtBinaryLoadOptions *options, const char *fn)
{
    if (!options)
        return ACL_SUCCESS;
    if (!options->options) /* CANN: even with numOpt 0 (device-kernel chapter, 7 C5) */
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "options is not NULL but options->options is NULL");
    int cpu_mode = -1;
    for (size_t i = 0; i < options->numOpt; i++) {
        const aclrtBinaryLoadOption *o = &options->options[i];
        switch (o->type) {
        case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
            if (o->value.isLazyLoad > 1)
                return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "option %zu: isLazyLoad must be 0 or 1, not %u", i,
                                 o->value.isLazyLoad);
            break; /* loading is cheap on this device: always done at once */
        case ACL_RT_BINARY_LOAD_OPT_MAGIC:
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "option %zu: ACL_RT_BINARY_LOAD_OPT_MAGIC applies to loading from memory only", i);
        case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
            if (o->value.cpuKernelMode != 0 && o->value.cpuKernelMode != 1)
                return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "option %zu: cpuKernelMode must be 0 or 1, not %d",
                                 i, o->value.cpuKernelMode);
            cpu_mode = o->value.cpuKernelMode; /* later options win */
            break;
        default:
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "option %zu: unknown option type %d", i, (int)o->type);
        }
    }
    /* binPath then names an AI CPU operator description (JSON), not a kernel
       image (device-kernel chapter, Decision 16). */
    if (cpu_mode == 0)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "CPU_KERNEL_MODE 0 (CANN built-in AI CPU operators) is not supported by the CPU device");
    if (cpu_mode == 1)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "CPU_KERNEL_MODE 1 (AI CPU operator JSON files) is not supported yet; load the CPU-kernel "
                         "library with aclrtBinaryLoadFromData and CPU_KERNEL_MODE 2");
    return ACL_SUCCESS;
}

aclError oacl_binary_create(struct oacl_context *ctx, const struct oacl_binary_source *src, int32_t default_type,
                            aclrtBinHandle *out, const char *fn)
{
    struct oacl_binary *b = calloc(1, sizeof(*b));
    if (!b)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    aclError rc = oacl_binary_load_module(b, ctx->dev, src, fn); /* a new instance: its own globals */
    if (rc) {
        free(b);
        return rc;
    }
    b->cpu_library = src->cpu_library;
    b->default_type = default_type;
    b->funcs = calloc(b->num_kernels ? b->num_kernels : 1, sizeof(*b->funcs));
    pthread_mutex_init(&b->lock, NULL);
    if (!b->funcs || !oacl_handle_create(&b->obj, OACL_H_BINARY, binary_destroy)) {
        oacl_binary_unload_module(b);
        free(b->funcs);
        pthread_mutex_destroy(&b->lock);
        free(b);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for the binary's handles");
    }
    *out = b->obj.handle;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                          aclrtBinHandle *binHandle)
{
    OACL_PROF_API("BinaryLoad");
    if (!binPath || !binHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", binPath ? "binHandle" : "binPath");
    aclError rc = check_load_options(options, __func__);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_binary_source src = {.path = binPath};
    rc = oacl_binary_create(ctx, &src, -1, binHandle, __func__);
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                         aclrtFuncHandle *funcHandle)
{
    OACL_PROF_API("BinaryGetFunction");
    if (!binHandle || !kernelName || !funcHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !binHandle ? "binHandle" : !kernelName ? "kernelName" : "funcHandle");
    struct oacl_binary *b = (struct oacl_binary *)oacl_handle_get(binHandle, OACL_H_BINARY);
    if (!b)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "binHandle %p is not a loaded binary", binHandle);
    uint32_t i;
    for (i = 0; i < b->num_kernels; i++)
        if (strcmp(b->kernels[i].name, kernelName) == 0)
            break;
    if (i == b->num_kernels) {
        char names[256] = "";
        size_t used = 0;
        for (uint32_t k = 0; k < b->num_kernels && used + 2 < sizeof(names); k++)
            used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", k ? ", " : "", b->kernels[k].name);
        oacl_obj_put(&b->obj);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "the binary has no kernel named '%s' (it has: %s)",
                         kernelName, names);
    }
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(&b->lock);
    struct oacl_function *f = b->funcs[i];
    if (!f) {
        f = calloc(1, sizeof(*f));
        if (f) {
            oacl_obj_ref(&b->obj); /* a function keeps its binary's memory */
            f->bin = b;
            f->info = &b->kernels[i];
            if (oacl_handle_create(&f->obj, OACL_H_FUNC, function_destroy)) {
                b->funcs[i] = f;
            } else {
                oacl_obj_put(&b->obj);
                free(f);
                f = NULL;
            }
        }
        if (!f)
            rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    }
    if (f)
        *funcHandle = f->obj.handle;
    pthread_mutex_unlock(&b->lock);
    oacl_obj_put(&b->obj);
    return rc;
}

OACL_API aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle)
{
    OACL_PROF_API("BinaryUnLoad");
    if (!binHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "binHandle is NULL");
    struct oacl_binary *b = (struct oacl_binary *)oacl_handle_get(binHandle, OACL_H_BINARY);
    if (!b)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "binHandle %p is not a loaded binary", binHandle);
    if (b->implicit) {
        oacl_obj_put(&b->obj);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "binHandle %p holds the kernels linked into the program; it cannot be unloaded", binHandle);
    }
    if (!oacl_handle_retire(binHandle, OACL_H_BINARY)) {
        oacl_obj_put(&b->obj);
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "binHandle %p was unloaded concurrently", binHandle);
    }
    /* Its variables and memory go now, even if an argument list still
       holds one of its functions. */
    oacl_binary_forget_memory(b);
    /* Function handles of the binary become invalid with it. */
    pthread_mutex_lock(&b->lock);
    for (uint32_t i = 0; i < b->num_kernels; i++) {
        if (b->funcs[i]) {
            oacl_obj_retire(&b->funcs[i]->obj);
            b->funcs[i] = NULL;
        }
    }
    pthread_mutex_unlock(&b->lock);
    oacl_binary_retire_cpu_funcs(b);
    oacl_obj_put(&b->obj);
    return ACL_SUCCESS;
}
