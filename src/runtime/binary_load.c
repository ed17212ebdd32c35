/*
 * Kernel images in memory and CPU kernels (device-kernel chapter 4.6):
 * aclrtCreateBinary / aclrtDestroyBinary, aclrtBinaryLoad,
 * aclrtBinaryLoadFromData, aclrtBinaryGetFunctionByEntry,
 * aclrtRegisterCpuFunc.
 *
 * A load from memory reads the bytes during the call and hands them to the
 * backend, which checks them exactly as a file (ELF shared object for this
 * host, kernel table, architecture) and loads a private copy: every load is
 * its own module instance with its own globals. CPU_KERNEL_MODE 2 loads a
 * CPU-kernel library instead (a plain host shared object; Decision 16),
 * whose functions aclrtRegisterCpuFunc turns into function handles.
 */
#include <stdlib.h>
#include <string.h>

#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

/* ---- descriptors (aclrtCreateBinary) ----------------------------------------------- */

struct bin_desc {
    struct oacl_obj obj;
    const void *data;
    size_t len;
};

static void desc_destroy(struct oacl_obj *o) { free(o); }

OACL_API aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen)
{
    if (!data) {
        oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "data is NULL");
        return NULL;
    }
    struct bin_desc *d = calloc(1, sizeof(*d));
    if (!d) {
        oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "out of memory");
        return NULL;
    }
    d->data = data; /* not copied: valid until aclrtBinaryLoad returns */
    d->len = dataLen;
    void *h = oacl_handle_create(&d->obj, OACL_H_BIN_DESC, desc_destroy);
    if (!h) {
        free(d);
        oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "handle table exhausted");
    }
    return h;
}

OACL_API aclError aclrtDestroyBinary(aclrtBinary binary)
{
    if (!binary)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "binary is NULL");
    if (!oacl_handle_retire(binary, OACL_H_BIN_DESC))
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__,
                         "binary %p is not a live descriptor from aclrtCreateBinary", binary);
    return ACL_SUCCESS;
}

/* ---- loading from memory ------------------------------------------------------------ */

/* Loads src on the current context's device. */
static aclError load(const struct oacl_binary_source *src, int32_t default_type, aclrtBinHandle *binHandle,
                     const char *fn)
{
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    rc = oacl_binary_create(ctx, src, default_type, binHandle, fn);
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle *binHandle)
{
    if (!binary || !binHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", binary ? "binHandle" : "binary");
    struct bin_desc *d = (struct bin_desc *)oacl_handle_get(binary, OACL_H_BIN_DESC);
    if (!d)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__,
                         "binary %p is not a live descriptor from aclrtCreateBinary", binary);
    struct oacl_binary_source src = {.data = d->data, .len = d->len};
    oacl_obj_put(&d->obj);
    if (src.len == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "the descriptor's image is empty (dataLen 0)");
    return load(&src, -1, binHandle, __func__);
}

/* The kernel type a MAGIC option selects (spec 4.6, C6). */
static int32_t magic_type(uint32_t magic)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    bool separated = p && (p->npu_arch == 2201 || p->npu_arch == 3510);
    switch (magic) {
    case ACL_RT_BINARY_MAGIC_ELF_AICORE:
        return separated ? ACL_KERNEL_TYPE_MIX : ACL_KERNEL_TYPE_AICORE;
    case ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE:
        return ACL_KERNEL_TYPE_VECTOR;
    case ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE:
        return ACL_KERNEL_TYPE_CUBE;
    default:
        return -1;
    }
}

OACL_API aclError aclrtBinaryLoadFromData(const void *data, size_t length, const aclrtBinaryLoadOptions *options,
                                          aclrtBinHandle *binHandle)
{
    if (!data || !binHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", data ? "binHandle" : "data");
    if (length == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "length is 0");
    struct oacl_binary_source src = {.data = data, .len = length};
    int32_t type = -1;
    if (options) {
        if (!options->options)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "options is not NULL but options->options is NULL");
        for (size_t i = 0; i < options->numOpt; i++) { /* later options of a type win */
            const aclrtBinaryLoadOption *o = &options->options[i];
            switch (o->type) {
            case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
                if (o->value.isLazyLoad > 1)
                    return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                                     "option %zu: isLazyLoad must be 0 or 1, not %u", i, o->value.isLazyLoad);
                break; /* loading is always immediate on this device */
            case ACL_RT_BINARY_LOAD_OPT_MAGIC:
                type = magic_type(o->value.magic);
                if (type < 0)
                    return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                                     "option %zu: magic 0x%x is not an ACL_RT_BINARY_MAGIC_ELF_* value", i,
                                     o->value.magic);
                break;
            case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
                if (o->value.cpuKernelMode != 2)
                    return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                                     "option %zu: cpuKernelMode must be 2 for an image in memory, not %d", i,
                                     o->value.cpuKernelMode);
                src.cpu_library = true;
                break;
            default:
                return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "option %zu: unknown option type %d", i,
                                 (int)o->type);
            }
        }
    }
    return load(&src, type, binHandle, __func__);
}

/* ---- lookups ---------------------------------------------------------------------- */

static aclError binary_get(aclrtBinHandle h, struct oacl_binary **out, const char *fn)
{
    *out = (struct oacl_binary *)oacl_handle_get(h, OACL_H_BINARY);
    if (!*out)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "binHandle %p is not a loaded binary", h);
    return ACL_SUCCESS;
}

/* oacl-api: refused: kernel binaries of ABI v1 carry no function-entry keys (Decision 23) */
OACL_API aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                                aclrtFuncHandle *funcHandle)
{
    if (!binHandle || !funcHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", binHandle ? "funcHandle" : "binHandle");
    struct oacl_binary *b = NULL;
    aclError rc = binary_get(binHandle, &b, __func__);
    if (rc)
        return rc;
    if (b->cpu_library)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "binHandle %p is a CPU-kernel library", binHandle);
    else /* Decision 23 */
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                       "kernel binaries of kernel ABI %u carry no function-entry keys (entry 0x%llx); look kernels "
                       "up by name with aclrtBinaryGetFunction",
                       1u, (unsigned long long)funcEntry);
    oacl_obj_put(&b->obj);
    return rc;
}

/* ---- CPU kernels ---------------------------------------------------------------------- */

static void cpu_function_destroy(struct oacl_obj *o)
{
    struct oacl_function *f = (struct oacl_function *)o;
    oacl_obj_put(&f->bin->obj);
    free(f);
}

OACL_API aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char *funcName, const char *kernelName,
                                       aclrtFuncHandle *funcHandle)
{
    if (!handle || !funcName || !kernelName || !funcHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !handle ? "handle" : !funcName ? "funcName" : !kernelName ? "kernelName" : "funcHandle");
    struct oacl_binary *b = NULL;
    aclError rc = binary_get(handle, &b, __func__);
    if (rc)
        return rc;
    if (!b->cpu_library)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "handle %p is not a CPU-kernel library (aclrtBinaryLoadFromData with CPU_KERNEL_MODE 2)",
                       handle);
    if (rc == ACL_SUCCESS)
        rc = oacl_ctx_require(__func__);
    const struct oacl_kernel_info *info = NULL;
    if (rc == ACL_SUCCESS) {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->module_cpu_kernel(b->module, funcName, kernelName, &info, err);
        if (brc)
            rc = oacl_fail(brc, __func__, "%s", err);
    }
    if (rc) {
        oacl_obj_put(&b->obj);
        return rc;
    }
    pthread_mutex_lock(&b->lock);
    struct oacl_function *f = b->cpu_funcs;
    while (f && f->info != info) /* the same pair: the same handle */
        f = f->next_cpu;
    if (!f && (f = calloc(1, sizeof(*f)))) {
        oacl_obj_ref(&b->obj);
        f->bin = b;
        f->info = info;
        f->cpu = true;
        if (oacl_handle_create(&f->obj, OACL_H_FUNC, cpu_function_destroy)) {
            f->next_cpu = b->cpu_funcs;
            b->cpu_funcs = f;
        } else {
            oacl_obj_put(&b->obj);
            free(f);
            f = NULL;
        }
    }
    if (f)
        *funcHandle = f->obj.handle;
    else
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    pthread_mutex_unlock(&b->lock);
    oacl_obj_put(&b->obj);
    return rc;
}

void oacl_binary_retire_cpu_funcs(struct oacl_binary *b)
{
    pthread_mutex_lock(&b->lock);
    struct oacl_function *f = b->cpu_funcs;
    b->cpu_funcs = NULL;
    pthread_mutex_unlock(&b->lock);
    while (f) {
        struct oacl_function *next = f->next_cpu;
        oacl_obj_retire(&f->obj);
        f = next;
    }
}
