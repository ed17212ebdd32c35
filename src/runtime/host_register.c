/*
 * Host memory registration: aclrtHostRegister, aclrtHostRegisterV2,
 * aclrtHostGetDevicePointer, aclrtHostUnregister.
 *
 * A registration covers whole pages (the size is rounded up) and may not
 * overlap another one. A mapped registration gets a device address range of
 * its own (see src/device/cpu/host_mem.c for how the CPU device aliases the
 * pages); both the registration and its device range are recorded in the
 * address registry, and every step below holds the registry's write lock so
 * concurrent registrations of the same memory are serialised.
 *
 * ACL_HOST_REG_READONLY (with ACL_HOST_REG_MAPPED): the device mapping is
 * made read-only, so kernels read the host's pages through it and a kernel
 * store faults (a kernel-side API write fails its range check first); the
 * host keeps writing through its own address. It needs a mapping of its
 * own: a range that would get its host address as device address cannot be
 * registered read-only.
 */
#include <stdlib.h>
#include <unistd.h>

#include "common/addr_registry.h"
#include "common/memcheck.h"
#include "runtime/runtime.h"

#define REG_V2_KNOWN (ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED)

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* Registers [ptr, ptr+size) with V2-style flags (MAPPED and/or PINNED). */
static aclError do_register(void *ptr, uint64_t size, uint32_t flags, void **dev_out, const char *fn)
{
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    const size_t ps = page_size();
    uintptr_t base = (uintptr_t)ptr;
    size_t len = (size_t)((size + ps - 1) & ~(uint64_t)(ps - 1));
    if (base % 4096 != 0) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "ptr %p is not 4 KiB aligned", ptr);
        goto out_ctx;
    }
    if (size > SIZE_MAX - ps || len == 0 || base + len < base) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "size %llu at %p runs past the end of the address space",
                       (unsigned long long)size, ptr);
        goto out_ctx;
    }

    struct oacl_mem_record *reg = calloc(1, sizeof(*reg));
    struct oacl_mem_record *alias = calloc(1, sizeof(*alias));
    if (!reg || !alias) {
        free(reg);
        free(alias);
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
        goto out_ctx;
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    const struct oacl_backend_ops *be = oacl_backend();
    oacl_registry_wrlock();
    struct oacl_mem_record *other = oacl_registry_overlap_locked(OACL_SPACE_HOSTREG, base, len);
    if (other) {
        rc = oacl_fail(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, fn,
                       "[%p, +%zu) overlaps the registered range [%p, +%zu)", ptr, len, (void *)other->base,
                       other->size);
        goto out_unlock;
    }
    /* Memory the runtime allocated must contain the whole range; other
       runtime ranges (device addresses) cannot be registered at all. */
    struct oacl_mem_record *owner = oacl_registry_overlap_locked(OACL_SPACE_ALLOC, base, len);
    bool runtime_memory = false, identity = false;
    if (owner) {
        if (owner->kind != OACL_MEM_HOST_PINNED) {
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "[%p, +%zu) is a device address range, not host memory",
                           ptr, len);
            goto out_unlock;
        }
        if (base < owner->base || base + len > owner->base + owner->size) {
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                           "[%p, +%zu) is not inside the aclrtMallocHost allocation [%p, +%zu)", ptr, len,
                           (void *)owner->base, owner->size);
            goto out_unlock;
        }
        if (flags & ACL_HOST_REG_PINNED) {
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                           "%p is already pinned (aclrtMallocHost memory); ACL_HOST_REG_PINNED is for pageable "
                           "memory",
                           ptr);
            goto out_unlock;
        }
        runtime_memory = true;
        /* aclrtMallocHostWithCfg with ACL_RT_MEM_ATTR_VA_FLAG: the device
           uses the host address itself. */
        identity = (owner->flags & OACL_REC_VA_IDENTITY) != 0;
    }
    struct oacl_host_map map = {.dev_ptr = NULL, .kind = OACL_MAP_NONE, .relock = false};
    if ((flags & ACL_HOST_REG_READONLY) && identity) {
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                       "%p is host memory whose device address is its host address (ACL_RT_MEM_ATTR_VA_FLAG): it "
                       "cannot get a read-only device mapping",
                       ptr);
        goto out_unlock;
    }
    if ((flags & ACL_HOST_REG_MAPPED) && identity) {
        map.dev_ptr = ptr;
        map.kind = OACL_MAP_IDENTITY;
    } else if (flags & ACL_HOST_REG_MAPPED) {
        rc = be->host_map(ctx->dev->bdev, ptr, size, runtime_memory, &map, err);
        if (rc) {
            rc = oacl_fail(rc, fn, "%s", err);
            goto out_unlock;
        }
        if ((flags & ACL_HOST_REG_READONLY) && map.kind == OACL_MAP_IDENTITY) {
            be->host_unmap(ptr, size, &map);
            rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                           "[%p, +%llu) cannot get a read-only device mapping: its device address would be its host "
                           "address (register whole pages of anonymous or shared memory)",
                           ptr, (unsigned long long)size);
            goto out_unlock;
        }
        if ((flags & ACL_HOST_REG_READONLY) &&
            (rc = be->va_protect(map.dev_ptr, len, OACL_VA_READ, err)) != ACL_SUCCESS) {
            be->host_unmap(ptr, size, &map);
            rc = oacl_fail(rc, fn, "%s", err);
            goto out_unlock;
        }
        alias->readonly = (flags & ACL_HOST_REG_READONLY) != 0;
        alias->base = (uintptr_t)map.dev_ptr;
        alias->size = len;
        alias->user_size = size;
        alias->kind = OACL_MEM_DEVICE_ALIAS;
        alias->device = ctx->dev->id;
        alias->peer = reg;
        reg->peer = alias;
    }
    /* Lock after mapping: mapping may move private pages into new shared
       ones, which are the pages that must stay resident. */
    bool locked = false;
    if (flags & ACL_HOST_REG_PINNED) {
        rc = be->host_lock(ptr, size, &locked, err);
        if (rc) {
            if (map.kind != OACL_MAP_NONE)
                be->host_unmap(ptr, size, &map);
            rc = oacl_fail(rc, fn, "%s", err);
            goto out_unlock;
        }
    }
    reg->base = base;
    reg->size = len;
    reg->user_size = size;
    reg->kind = OACL_MEM_HOST_REGISTERED;
    reg->device = ctx->dev->id;
    reg->flags = flags;
    reg->locked = locked;
    reg->dev_ptr = map.dev_ptr;
    reg->map_kind = map.kind;
    reg->map_relock = map.relock;
    int ins = oacl_registry_insert_locked(OACL_SPACE_HOSTREG, reg);
    /* An identity mapping's device range is the host range itself: it is
       recorded as the registration only. */
    if (ins == 0 && reg->peer && map.kind != OACL_MAP_IDENTITY) {
        ins = oacl_registry_insert_locked(OACL_SPACE_ALLOC, alias);
        if (ins)
            oacl_registry_remove_locked(OACL_SPACE_HOSTREG, base);
    }
    if (ins) {
        if (map.kind != OACL_MAP_NONE)
            be->host_unmap(ptr, size, &map);
        if (locked)
            be->host_unlock(ptr, size);
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "cannot record the registration (%d)", ins);
        goto out_unlock;
    }
    if (map.kind == OACL_MAP_IDENTITY || !reg->peer) {
        reg->peer = NULL;
        free(alias);
    }
    reg->site = oacl_site_capture(); /* memcheck: for the leak report */
    oacl_registry_unlock();
    if (dev_out)
        *dev_out = map.dev_ptr;
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;

out_unlock:
    oacl_registry_unlock();
    free(reg);
    free(alias);
out_ctx:
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr)
{
    if (!ptr || !devPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", ptr ? "devPtr" : "ptr");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "size is 0");
    if ((uint32_t)type != (uint32_t)ACL_HOST_REGISTER_MAPPED)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                         "type 0x%x is not supported (only ACL_HOST_REGISTER_MAPPED)", (unsigned)type);
    return do_register(ptr, size, ACL_HOST_REG_MAPPED, devPtr, __func__);
}

OACL_API aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    if (!ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "ptr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "size is 0");
    if (flag == 0 || (flag & ~(uint32_t)REG_V2_KNOWN))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "flag 0x%x is invalid (use ACL_HOST_REG_MAPPED and/or ACL_HOST_REG_PINNED)", flag);
    if (flag & ACL_HOST_REG_IOMEMORY)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                         "flag 0x%x: ACL_HOST_REG_IOMEMORY is not supported (the simulated device has no I/O memory)",
                         flag);
    if ((flag & ACL_HOST_REG_READONLY) && !(flag & ACL_HOST_REG_MAPPED))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "flag 0x%x: ACL_HOST_REG_READONLY makes the device mapping read-only; combine it with "
                         "ACL_HOST_REG_MAPPED",
                         flag);
    return do_register(ptr, size, flag, NULL, __func__);
}

OACL_API aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    if (!pHost || !pDevice)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", pHost ? "pDevice" : "pHost");
    if (flag != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "flag is %u; it must be 0", flag);
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    uintptr_t p = (uintptr_t)pHost;
    oacl_registry_rdlock();
    uintptr_t d;
    if (oacl_registry_translate_locked(p, &d)) {
        oacl_registry_unlock();
        *pDevice = (void *)d;
        return ACL_SUCCESS;
    }
    struct oacl_mem_record *reg = oacl_registry_find_locked(OACL_SPACE_HOSTREG, p);
    if (reg && (reg->flags & ACL_HOST_REG_MAPPED)) {
        *pDevice = (char *)reg->dev_ptr + (p - reg->base);
        oacl_registry_unlock();
        return ACL_SUCCESS;
    }
    oacl_registry_unlock();
    if (reg)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "%p is registered without ACL_HOST_REG_MAPPED, so it has no device address", pHost);
    return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%p is not inside any registered host range", pHost);
}

OACL_API aclError aclrtHostUnregister(void *ptr)
{
    if (!ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "ptr is NULL");
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    uintptr_t p = (uintptr_t)ptr;
    oacl_registry_wrlock();
    struct oacl_mem_record *reg = oacl_registry_find_locked(OACL_SPACE_HOSTREG, p);
    if (!reg || reg->base != p) {
        oacl_registry_unlock();
        if (reg)
            return oacl_fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, __func__,
                             "%p is inside the registration at %p; pass its base address", ptr, (void *)reg->base);
        return oacl_fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, __func__, "%p is not registered", ptr);
    }
    oacl_registry_remove_locked(OACL_SPACE_HOSTREG, p);
    if (reg->peer)
        oacl_registry_remove_locked(OACL_SPACE_ALLOC, reg->peer->base);
    /* Unmap under the lock: a new registration of these pages must see
       them in their final state. */
    const struct oacl_backend_ops *be = oacl_backend();
    if (reg->locked)
        be->host_unlock(ptr, reg->user_size);
    if (reg->map_kind != OACL_MAP_NONE) {
        struct oacl_host_map map = {
            .dev_ptr = reg->dev_ptr, .kind = (enum oacl_map_kind)reg->map_kind, .relock = reg->map_relock};
        be->host_unmap(ptr, reg->user_size, &map);
    }
    oacl_registry_unlock();
    free(reg->peer);
    oacl_site_free(reg->site);
    free(reg);
    return ACL_SUCCESS;
}
