/*
 * The memory of loaded kernel binaries (device-kernel chapter §3.2):
 * aclrtBinaryGetDevAddress and aclrtBinaryGetGlobal, and what every load
 * and unload does with the binary's memory.
 *
 * Every load is a new module instance with its own globals (the backend
 * guarantees it), so a binary loaded on two devices — or twice on one —
 * has separate copies of its variables; a kernel launched from a binary
 * uses that binary's copy. The instance's memory ranges enter the address
 * registry as device memory of the binary's device (read-only segments
 * read-only) for as long as the binary is loaded, so that aclrtMemcpy*,
 * aclrtMemset* and aclrtPointerGetAttributes accept the addresses that
 * aclrtBinaryGetGlobal returns. `__gm__` variables that oacl-cc registered
 * in the binary become device symbols of that load (symbol.c).
 */
#include <stdlib.h>
#include <string.h>

#include "common/addr_registry.h"
#include "runtime/runtime.h"

/* Removes the binary's ranges from the registry and frees their records. */
static void drop_ranges(struct oacl_binary *b, uint32_t n)
{
    oacl_registry_wrlock();
    for (uint32_t i = 0; i < n; i++)
        if (oacl_registry_find_locked(OACL_SPACE_ALLOC, b->ranges[i].base) == &b->ranges[i])
            oacl_registry_remove_locked(OACL_SPACE_ALLOC, b->ranges[i].base);
    oacl_registry_unlock();
    free(b->ranges);
    b->ranges = NULL;
    b->num_ranges = 0;
}

/* Enters the module's ranges in the registry; all or nothing. */
static aclError add_ranges(struct oacl_binary *b, const char *fn)
{
    const struct oacl_backend_ops *ops = oacl_backend();
    uint32_t n = ops->module_ranges(b->module, NULL, 0);
    struct oacl_module_range *mr = calloc(n ? n : 1, sizeof(*mr));
    b->ranges = calloc(n ? n : 1, sizeof(*b->ranges));
    if (!mr || !b->ranges) {
        free(mr);
        free(b->ranges);
        b->ranges = NULL;
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    }
    ops->module_ranges(b->module, mr, n);
    aclError rc = ACL_SUCCESS;
    uint32_t done = 0;
    oacl_registry_wrlock();
    for (; done < n; done++) {
        struct oacl_mem_record *r = &b->ranges[done];
        r->base = (uintptr_t)mr[done].base;
        r->size = mr[done].size;
        r->user_size = mr[done].size;
        r->kind = OACL_MEM_DEVICE;
        r->device = b->dev->id;
        r->origin = OACL_MEM_ORIGIN_MODULE;
        r->readonly = !mr[done].writable;
        /* A fresh mapping cannot overlap anything the runtime knows. */
        if (oacl_registry_insert_locked(OACL_SPACE_ALLOC, r) != 0) {
            rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn,
                           "cannot record the kernel binary's memory at %p (%zu bytes) as device memory",
                           mr[done].base, mr[done].size);
            break;
        }
    }
    oacl_registry_unlock();
    free(mr);
    if (rc)
        drop_ranges(b, done);
    else
        b->num_ranges = n;
    return rc;
}

aclError oacl_binary_load_module(struct oacl_binary *b, struct oacl_device *dev, const struct oacl_binary_source *src,
                                 const char *fn)
{
    char err[OACL_BACKEND_ERRLEN] = "";
    b->dev = dev;
    oacl_symbols_load_begin();
    const struct oacl_backend_ops *ops = oacl_backend();
    int brc = src->path ? ops->module_load(dev->bdev, src->path, &b->module, &b->kernels, &b->num_kernels, err)
                        : ops->module_load_data(dev->bdev, src->data, src->len, "kernel image in memory",
                                                src->cpu_library, &b->module, &b->kernels, &b->num_kernels, err);
    if (brc) {
        oacl_symbols_load_end(NULL, -1, false);
        return oacl_fail(brc, fn, "%s", err);
    }
    aclError rc = add_ranges(b, fn);
    oacl_symbols_load_end(b, dev->id, rc == ACL_SUCCESS);
    if (rc) {
        oacl_backend()->module_put(b->module);
        b->module = NULL;
    }
    return rc;
}

void oacl_binary_forget_memory(struct oacl_binary *b)
{
    /* Nothing finds the variables or the memory any more; launches still
       queued (and function handles held by argument lists) keep the module
       itself until they are done. */
    oacl_symbols_drop_owner(b);
    drop_ranges(b, b->num_ranges);
}

void oacl_binary_unload_module(struct oacl_binary *b)
{
    oacl_binary_forget_memory(b);
    oacl_backend()->module_put(b->module);
}

OACL_API aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void **binAddr, size_t *binSize)
{
    if (!binHandle || !binSize)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", binHandle ? "binSize" : "binHandle");
    if (!binAddr)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "binAddr is NULL");
    struct oacl_binary *b = (struct oacl_binary *)oacl_handle_get(binHandle, OACL_H_BINARY);
    if (!b)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "binHandle %p is not a loaded binary", binHandle);
    aclError rc = oacl_ctx_require(__func__);
    if (rc == ACL_SUCCESS) {
        void *base = NULL;
        size_t size = 0;
        oacl_backend()->module_extent(b->module, &base, &size);
        *binAddr = base;
        *binSize = size;
    }
    oacl_obj_put(&b->obj);
    return rc;
}

OACL_API aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char *name, void **dptr, size_t *size)
{
    if (!binHandle || !name)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", binHandle ? "name" : "binHandle");
    if (!dptr && !size)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "dptr and size are both NULL");
    struct oacl_binary *b = (struct oacl_binary *)oacl_handle_get(binHandle, OACL_H_BINARY);
    if (!b)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "binHandle %p is not a loaded binary", binHandle);
    aclError rc = oacl_ctx_require(__func__);
    void *addr = NULL;
    size_t sz = 0;
    if (rc == ACL_SUCCESS && oacl_backend()->module_global(b->module, name, &addr, &sz) != ACL_SUCCESS)
        rc = oacl_fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND, __func__,
                       "the binary has no global variable named '%s' (exported data objects only: static "
                       "variables are not visible, C++ names are mangled)",
                       name);
    if (rc == ACL_SUCCESS) {
        if (dptr)
            *dptr = addr;
        if (size)
            *size = sz;
    }
    oacl_obj_put(&b->obj);
    return rc;
}
