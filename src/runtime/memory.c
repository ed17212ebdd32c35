/*
 * Memory: pinned host memory (aclrtMallocHost / aclrtFreeHost), device
 * memory (aclrtMalloc / aclrtFree / aclrtGetMemInfo) and copies
 * (aclrtMemcpy). Every allocation is recorded in the address registry,
 * which is what later calls check pointers against. The allocation paths
 * are shared with the configured allocators (memory_config.c); aclrtFree
 * also releases managed memory (managed_memory.c), which copies and fills
 * accept on either side.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/addr_registry.h"
#include "common/memcheck.h"
#include "runtime/copy_check.h"
#include "common/smi_page.h"
#include "runtime/runtime.h"

static size_t page_round(size_t n)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    return (n + ps - 1) & ~(ps - 1);
}

aclError oacl_host_malloc(void **hostPtr, size_t size, bool va_identity, uint16_t module_id, const char *fn)
{
    if (!hostPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "hostPtr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    if (page_round(size) < size) {
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "size %zu is too large", size);
    }
    struct oacl_mem_record *r = calloc(1, sizeof(*r));
    if (!r) {
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    void *p = NULL;
    bool locked = false;
    rc = oacl_backend()->host_alloc(ctx->dev->bdev, size, &p, &locked, err);
    if (rc) {
        free(r);
        oacl_obj_put(&ctx->obj);
        return oacl_fail(rc, fn, "%s", err);
    }
    r->base = (uintptr_t)p;
    r->size = page_round(size);
    r->user_size = size;
    r->kind = OACL_MEM_HOST_PINNED;
    r->device = ctx->dev->id;
    r->locked = locked;
    r->flags = va_identity ? OACL_REC_VA_IDENTITY : 0;
    r->module_id = module_id;
    r->site = oacl_site_capture(); /* memcheck: where (leak report) */
    oacl_registry_wrlock();
    int ins = oacl_registry_insert_locked(OACL_SPACE_ALLOC, r);
    oacl_registry_unlock();
    oacl_obj_put(&ctx->obj);
    if (ins) {
        /* Fresh pages always have a free address range: a failure here is
           the registry's own allocation failing. */
        oacl_backend()->host_free(p, size);
        oacl_site_free(r->site);
        free(r);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "cannot record the allocation (%d)", ins);
    }
    *hostPtr = p;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    OACL_PROF_API("HostMalloc");
    return oacl_host_malloc(hostPtr, size, false, OACL_MODULE_APP, __func__);
}

OACL_API aclError aclrtFreeHost(void *hostPtr)
{
    OACL_PROF_API("HostFree");
    return oacl_host_free(hostPtr, __func__);
}

aclError oacl_host_free(void *hostPtr, const char *fn)
{
    if (!hostPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "hostPtr is NULL");
    uintptr_t p = (uintptr_t)hostPtr;
    oacl_registry_wrlock();
    struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, p);
    aclError rc = ACL_SUCCESS;
    if (!r)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p was not allocated by aclrtMallocHost (or is freed)",
                       hostPtr);
    else if (r->kind == OACL_MEM_DEVICE)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p is device memory, not memory from aclrtMallocHost; free it with aclrtFree", hostPtr);
    else if (r->kind == OACL_MEM_MANAGED)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p is managed memory, not memory from aclrtMallocHost; free it with aclrtFree", hostPtr);
    else if (r->kind != OACL_MEM_HOST_PINNED)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p is a device address of mapped host memory, not host memory", hostPtr);
    else if (r->origin != OACL_MEM_ORIGIN_ALLOC)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p is a virtual-memory mapping, not memory from aclrtMallocHost; use aclrtUnmapMem", hostPtr);
    else if (r->base != p)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p points inside the allocation at %p; pass the address aclrtMallocHost returned", hostPtr,
                       (void *)r->base);
    else {
        struct oacl_mem_record *reg = oacl_registry_overlap_locked(OACL_SPACE_HOSTREG, r->base, r->size);
        if (reg)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                           "%p is still registered (range at %p); call aclrtHostUnregister first", hostPtr,
                           (void *)reg->base);
        else {
            oacl_registry_remove_locked(OACL_SPACE_ALLOC, p);
            /* Unmap under the lock: a registration of these addresses must
               never see memory that is half gone. */
            oacl_backend()->host_free(hostPtr, r->user_size);
        }
    }
    oacl_registry_unlock();
    if (rc)
        return rc;
    oacl_site_free(r->site);
    free(r);
    return ACL_SUCCESS;
}

/* ---- device memory ------------------------------------------------------ */

/* Bytes a device allocation really takes: CANN rounds to 32 bytes and adds
 * 32 bytes of slack (so kernels may over-read a little), except for the
 * 1 GiB-page policies. The memory checker drops the slack: the allocation
 * ends at its guard page, 32-byte exact. */
static bool alloc_len(size_t size, aclrtMemMallocPolicy policy, bool pad, size_t *len)
{
    bool huge1g = policy == ACL_MEM_MALLOC_HUGE1G_ONLY || policy == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
    if (size > SIZE_MAX - 64)
        return false;
    *len = ((size + 31) & ~(size_t)31) + (pad && !huge1g ? 32 : 0);
    return true;
}

static aclError device_malloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy, bool pad, uint16_t module_id,
                              const char *fn)
{
    if (!devPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "devPtr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    struct oacl_device *dev = ctx->dev;
    oacl_obj_put(&ctx->obj);
    size_t len;
    uint64_t cap = oacl_config()->device_memory;
    bool memcheck = oacl_memcheck_on();
    if (memcheck)
        pad = false;
    if (!alloc_len(size, policy, pad, &len) || len > cap)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "%zu bytes exceed device %d's %llu bytes", size,
                         dev->id, (unsigned long long)cap);
    pthread_mutex_lock(&dev->mem_lock);
    if (dev->mem_used + len > cap) {
        uint64_t used = dev->mem_used;
        pthread_mutex_unlock(&dev->mem_lock);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "device %d is out of memory: %zu bytes asked, %llu of %llu free",
                         dev->id, len, (unsigned long long)(cap - used), (unsigned long long)cap);
    }
    dev->mem_used += len;
    oacl_smi_mem_used((uint32_t)dev->id, dev->mem_used); /* oacl-smi */
    pthread_mutex_unlock(&dev->mem_lock);

    struct oacl_mem_record *r = calloc(1, sizeof(*r));
    char err[OACL_BACKEND_ERRLEN] = "";
    void *p = NULL;
    rc = r ? oacl_backend()->dev_alloc(dev->bdev, len, memcheck ? 64 | OACL_DEV_ALLOC_TAIL : 64, &p, err)
           : ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (rc == ACL_SUCCESS) {
        r->base = (uintptr_t)p;
        r->size = len;
        r->user_size = size;
        r->kind = OACL_MEM_DEVICE;
        r->device = dev->id;
        r->flags = (uint32_t)policy;
        r->module_id = module_id;
        r->site = oacl_site_capture();
        oacl_registry_wrlock();
        if (oacl_registry_insert_locked(OACL_SPACE_ALLOC, r) != 0) {
            snprintf(err, sizeof(err), "cannot record the allocation");
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        }
        oacl_registry_unlock();
        if (rc)
            oacl_backend()->dev_free(dev->bdev, p, len);
    } else if (!r) {
        snprintf(err, sizeof(err), "out of memory");
    }
    if (rc) {
        if (r)
            oacl_site_free(r->site);
        free(r);
        pthread_mutex_lock(&dev->mem_lock);
        dev->mem_used -= len;
        oacl_smi_mem_used((uint32_t)dev->id, dev->mem_used); /* oacl-smi */
        pthread_mutex_unlock(&dev->mem_lock);
        return oacl_fail(rc, fn, "%s", err);
    }
    oacl_mem_usage_add(dev->id, module_id, len);
    *devPtr = p;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    OACL_PROF_API("DevMalloc");
    return oacl_device_malloc(devPtr, size, policy, true, OACL_MODULE_APP, __func__);
}

OACL_API aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    OACL_PROF_API("DevMalloc");
    return oacl_device_malloc(devPtr, size, policy, false, OACL_MODULE_APP, __func__);
}

OACL_API aclError aclrtFree(void *devPtr)
{
    OACL_PROF_API("DevFree");
    return oacl_device_free(devPtr, __func__);
}

/* Snapshot gate around allocation and free: a locked process changes no
 * allocation, and the lock waits for those in progress. */
aclError oacl_device_malloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy, bool pad, uint16_t module_id,
                            const char *fn)
{
    oacl_snapshot_enter();
    aclError rc = device_malloc(devPtr, size, policy, pad, module_id, fn);
    oacl_snapshot_leave();
    return rc;
}

static aclError device_free(void *devPtr, const char *fn);

aclError oacl_device_free(void *devPtr, const char *fn)
{
    oacl_snapshot_enter();
    aclError rc = device_free(devPtr, fn);
    oacl_snapshot_leave();
    return rc;
}

static aclError device_free(void *devPtr, const char *fn)
{
    if (!devPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "devPtr is NULL");
    uintptr_t p = (uintptr_t)devPtr;
    oacl_registry_wrlock();
    struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, p);
    aclError rc = ACL_SUCCESS;
    if (r && r->kind == OACL_MEM_MANAGED) {
        /* managed_memory.c owns its records (and looks again). */
        oacl_registry_unlock();
        return oacl_managed_free(devPtr, fn);
    }
    if (!r)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p was not allocated by aclrtMalloc (or is freed)",
                       devPtr);
    else if (r->kind == OACL_MEM_HOST_PINNED)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is pinned host memory; free it with aclrtFreeHost",
                       devPtr);
    else if (r->kind != OACL_MEM_DEVICE)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p is the device address of mapped host memory; unregister the host memory instead",
                       devPtr);
    else if (r->origin == OACL_MEM_ORIGIN_SYMBOL || r->origin == OACL_MEM_ORIGIN_MODULE)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p is a device variable (of a kernel binary or linked into the program), not memory from "
                       "aclrtMalloc",
                       devPtr);
    else if (r->origin == OACL_MEM_ORIGIN_RUNTIME)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%p is memory the runtime owns, not memory from aclrtMalloc",
                       devPtr);
    else if (r->origin != OACL_MEM_ORIGIN_ALLOC)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is %s, not memory from aclrtMalloc; release it with %s",
                       devPtr, r->origin == OACL_MEM_ORIGIN_IPC_IMPORT ? "imported IPC memory" : "a virtual-memory mapping",
                       r->origin == OACL_MEM_ORIGIN_IPC_IMPORT ? "aclrtIpcMemClose" : "aclrtUnmapMem");
    else if (r->pool_block) /* its pool owns the record and the memory */
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p is memory of a memory pool; return it with aclrtMemPoolFreeAsync", devPtr);
    else if (r->base != p)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p points inside the allocation at %p; pass the address aclrtMalloc returned", devPtr,
                       (void *)r->base);
    else
        oacl_registry_remove_locked(OACL_SPACE_ALLOC, p);
    oacl_registry_unlock();
    if (rc)
        return rc;
    /* Nobody can find the range any more; the backend lets queued work that
       may use it finish before the memory can be handed out again. */
    struct oacl_device *dev = oacl_device_at(r->device);
    oacl_backend()->dev_free(dev->bdev, devPtr, r->size);
    pthread_mutex_lock(&dev->mem_lock);
    dev->mem_used -= r->size;
    oacl_smi_mem_used((uint32_t)dev->id, dev->mem_used); /* oacl-smi */
    pthread_mutex_unlock(&dev->mem_lock);
    oacl_mem_usage_sub(r->device, r->module_id, r->size);
    if (oacl_memcheck_on())
        oacl_memcheck_note_free(r->base, r->size, r->user_size, r->site); /* describes a later use */
    else
        oacl_site_free(r->site);
    free(r);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free_bytes, size_t *total)
{
    if (!free_bytes || !total)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", free_bytes ? "total" : "free");
    if ((int)attr < 0 || attr > ACL_MEM_P2P_HUGE1G)
        return oacl_fail(ACL_ERROR_RT_INVALID_MEMORY_TYPE, __func__, "attr %d is not an aclrtMemAttr", (int)attr);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_device *dev = ctx->dev;
    oacl_obj_put(&ctx->obj);
    uint64_t cap = oacl_config()->device_memory;
    pthread_mutex_lock(&dev->mem_lock);
    uint64_t used = dev->mem_used;
    pthread_mutex_unlock(&dev->mem_lock);
    /* Every kind is the same memory on this device. */
    *total = (size_t)cap;
    *free_bytes = (size_t)(cap - used);
    return ACL_SUCCESS;
}

/* ---- copies --------------------------------------------------------------- */

/* Classifies [p, p+count) for a copy; runtime memory must contain it.
 * *pinned tells whether host memory is page-locked by the runtime
 * (aclrtMallocHost, or registered with ACL_HOST_REG_PINNED). */
aclError oacl_copy_classify(const void *p, size_t count, const char *name, enum oacl_mem_class *out, bool *pinned,
                            int32_t *device, const char *fn)
{
    struct oacl_mem_record r;
    uintptr_t a = (uintptr_t)p;
    *pinned = false;
    *device = -1;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r)) {
        *out = OACL_CLASS_HOST; /* pageable host memory: nothing to check */
        struct oacl_mem_record reg;
        *pinned = oacl_registry_lookup(OACL_SPACE_HOSTREG, a, &reg) && (reg.flags & ACL_HOST_REG_PINNED) &&
                  count <= reg.base + reg.size - a;
        return ACL_SUCCESS;
    }
    if (r.kind == OACL_MEM_DEVICE_ALIAS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%s %p is the device address of mapped host memory; copy through its host address", name, p);
    if (count > r.base + r.size - a)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s: %zu bytes at %p run past the end of its %s allocation",
                         name, count, p,
                         r.kind == OACL_MEM_DEVICE ? "device" : r.kind == OACL_MEM_MANAGED ? "managed" : "host");
    /* Device variables: constants and code of a kernel binary are read-only
       (every side but a copy's source is written; sources are named "src",
       "srcs[i]", ...). */
    if (r.readonly && strncmp(name, "src", 3) != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%s %p is read-only device memory (a constant or the code of a kernel binary)", name, p);
    if (r.kind == OACL_MEM_MANAGED) {
        *out = OACL_CLASS_MANAGED;
        *pinned = true; /* stays valid until aclrtFree, which waits for queued work */
        return ACL_SUCCESS;
    }
    *out = r.kind == OACL_MEM_DEVICE ? OACL_CLASS_DEVICE : OACL_CLASS_HOST;
    *pinned = r.kind == OACL_MEM_HOST_PINNED || r.kind == OACL_MEM_MBUF; /* runtime memory, page-locked */
    if (r.kind == OACL_MEM_DEVICE)
        *device = r.device;
    return ACL_SUCCESS;
}

const char *oacl_memcpy_kind_name(aclrtMemcpyKind k)
{
    switch (k) {
    case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
    default: return "ACL_MEMCPY_DEFAULT";
    }
}

/* The argument checks aclrtMemcpy and aclrtMemcpyAsync share (count > 0). */
aclError oacl_copy_check(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind, bool async,
                         struct oacl_copy_sides *sides, const char *fn)
{
    if (!dst || !src)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", dst ? "src" : "dst");
    if ((int)kind < 0 || kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE || kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE ||
        kind == ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "kind %d is not a copy direction of this function", (int)kind);
    if (destMax == 0 || count > destMax)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "count %zu exceeds destMax %zu", count, destMax);
    if (async && kind == ACL_MEMCPY_HOST_TO_HOST)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "asynchronous ACL_MEMCPY_HOST_TO_HOST copies are not supported (use ACL_MEMCPY_DEFAULT)");
    enum oacl_mem_class dc = OACL_CLASS_HOST, sc = OACL_CLASS_HOST;
    bool dpin = false, spin = false;
    aclError rc = oacl_copy_classify(dst, count, "dst", &dc, &dpin, &sides->dst_dev, fn);
    if (rc == ACL_SUCCESS)
        rc = oacl_copy_classify(src, count, "src", &sc, &spin, &sides->src_dev, fn);
    if (rc == ACL_SUCCESS && kind != ACL_MEMCPY_DEFAULT) {
        bool want_src_dev = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
        bool want_dst_dev = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                            kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE;
        if ((sc != OACL_CLASS_MANAGED && (sc == OACL_CLASS_DEVICE) != want_src_dev) ||
            (dc != OACL_CLASS_MANAGED && (dc == OACL_CLASS_DEVICE) != want_dst_dev))
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s, but src is %s memory and dst is %s memory",
                           oacl_memcpy_kind_name(kind), sc == OACL_CLASS_DEVICE ? "device" : "host",
                           dc == OACL_CLASS_DEVICE ? "device" : "host");
    }
    sides->pageable = (sc == OACL_CLASS_HOST && !spin) || (dc == OACL_CLASS_HOST && !dpin);
    return rc;
}

/* Device memory of a device other than the current one is reachable only
 * once the current device has enabled peer access to it. */
aclError oacl_copy_check_reach(const struct oacl_context *ctx, const struct oacl_copy_sides *c, const char *fn)
{
    int32_t here = ctx->dev->id;
    const int32_t devs[2] = {c->dst_dev, c->src_dev};
    for (int i = 0; i < 2; i++)
        if (devs[i] >= 0 && devs[i] != here && !oacl_device_peer_enabled(here, devs[i]))
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "%s is memory of device %d, which device %d cannot reach: call "
                             "aclrtDeviceEnablePeerAccess(%d, 0) on device %d first",
                             i == 0 ? "dst" : "src", devs[i], here, devs[i], here);
    return ACL_SUCCESS;
}

static aclError memcpy_sync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind);

OACL_API aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind)
{
    OACL_PROF_API("MemCopySync");
    if (count == 0)
        return ACL_SUCCESS;
    oacl_snapshot_enter(); /* a copy into device memory changes what a backup saves */
    aclError rc = memcpy_sync(dst, destMax, src, count, kind);
    oacl_snapshot_leave();
    return rc;
}

static aclError memcpy_sync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind)
{
    const char *fn = "aclrtMemcpy";
    struct oacl_copy_sides sides;
    aclError rc = oacl_copy_check(dst, destMax, src, count, kind, false, &sides, fn);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    rc = oacl_copy_check_reach(ctx, &sides, fn);
    if (rc == ACL_SUCCESS)
        rc = oacl_ctl_device_check(ctx->dev, fn); /* refused during a device task abort */
    if (rc == ACL_SUCCESS)
        rc = oacl_ri_unsafe_check(ctx, fn); /* capture modes (107030) */
    if (rc == ACL_SUCCESS && dst != src) {
        /* A synchronous copy sees the effects of the work queued earlier on
           the device's default stream (without consuming its errors). */
        oacl_backend()->queue_wait(ctx->default_stream->queue, -1);
        oacl_backend()->copy(dst, src, count);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

aclError oacl_memcpy_async(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                           aclrtStream stream, const char *fn)
{
    if (count == 0)
        return ACL_SUCCESS;
    struct oacl_copy_sides sides;
    aclError rc = oacl_copy_check(dst, destMax, src, count, kind, true, &sides, fn);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    rc = oacl_copy_check_reach(ctx, &sides, fn);
    struct oacl_stream *s = NULL;
    if (rc == ACL_SUCCESS)
        rc = oacl_stream_resolve(ctx, stream, OACL_STREAM_ENQUEUE, &s, fn);
    oacl_obj_put(&ctx->obj);
    if (rc)
        return rc;
    if (sides.pageable) {
        /* Pageable host memory may be reused as soon as the call returns:
           wait for the stream to reach the copy, then copy here. */
        oacl_backend()->queue_wait(s->queue, -1);
        if (dst != src)
            oacl_backend()->copy(dst, src, count);
    } else if (dst != src) {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->queue_copy(s->queue, dst, src, count, err);
        if (brc)
            rc = oacl_fail(brc, fn, "%s", err);
    }
    oacl_obj_put(&s->obj);
    return rc;
}

OACL_API aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                                   aclrtStream stream)
{
    OACL_PROF_API("MemcpyAsync");
    return oacl_memcpy_async(dst, destMax, src, count, kind, stream, __func__);
}

/* Checks a fill of [devPtr, devPtr+count): runtime memory must contain it;
 * device aliases of mapped host memory are refused like for copies. */
static aclError check_fill(void *devPtr, size_t maxCount, size_t count, const char *fn)
{
    if (!devPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "devPtr is NULL");
    if (count > maxCount)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "count %zu exceeds maxCount %zu", count, maxCount);
    enum oacl_mem_class c;
    bool pinned;
    int32_t device;
    return oacl_copy_classify(devPtr, count, "devPtr", &c, &pinned, &device, fn);
}

OACL_API aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    OACL_PROF_API("Memset");
    if (count == 0)
        return ACL_SUCCESS;
    aclError rc = check_fill(devPtr, maxCount, count, __func__);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    rc = oacl_ri_unsafe_check(ctx, __func__); /* capture modes (107030) */
    if (rc) {
        oacl_obj_put(&ctx->obj);
        return rc;
    }
    oacl_backend()->queue_wait(ctx->default_stream->queue, -1);
    oacl_backend()->host_write_begin(); /* never while the memory moves (IPC export) */
    memset(devPtr, (uint8_t)value, count); /* only the low byte counts */
    oacl_backend()->host_write_end();
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream)
{
    OACL_PROF_API("MemsetAsync");
    if (count == 0)
        return ACL_SUCCESS;
    aclError rc = check_fill(devPtr, maxCount, count, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, __func__);
    if (rc)
        return rc;
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->queue_memset(s->queue, devPtr, (uint8_t)value, count, err);
    if (brc)
        rc = oacl_fail(brc, __func__, "%s", err);
    oacl_obj_put(&s->obj);
    return rc;
}

/* ---- pointer classification --------------------------------------------- */

static uint32_t policy_page_size(uint32_t policy, size_t size)
{
    switch (policy & 0xFFu) { /* the low byte is the page policy; higher bits are modifiers */
    case ACL_MEM_MALLOC_NORMAL_ONLY:
    case ACL_MEM_MALLOC_NORMAL_ONLY_P2P:
        return 4096;
    case ACL_MEM_MALLOC_HUGE1G_ONLY:
    case ACL_MEM_MALLOC_HUGE1G_ONLY_P2P:
        return 1u << 30;
    case ACL_MEM_MALLOC_HUGE_ONLY:
    case ACL_MEM_MALLOC_HUGE_ONLY_P2P:
        return 2u << 20;
    default: /* huge first, or no recognised policy: huge pages from 2 MiB up */
        return size >= (2u << 20) ? 2u << 20 : 4096;
    }
}

OACL_API aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes)
{
    if (!ptr || !attributes)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", ptr ? "attributes" : "ptr");
    aclrtPtrAttributes a;
    memset(&a, 0, sizeof(a));
    a.location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    a.pageSize = (uint32_t)page_round(1);
    uintptr_t p = (uintptr_t)ptr;
    oacl_registry_rdlock();
    const struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, p);
    if (r && r->kind == OACL_MEM_DEVICE) {
        a.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
        a.location.id = (uint32_t)r->device;
        if (r->device == OACL_MEM_ANY_DEVICE) { /* a linked device variable: every device's */
            int32_t here = oacl_ctx_device_quiet();
            a.location.id = here >= 0 ? (uint32_t)here : 0;
        }
        a.pageSize = policy_page_size(r->flags, r->user_size);
    } else if (r && r->kind == OACL_MEM_MANAGED) {
        a.location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
        a.location.id = (uint32_t)r->device; /* the device current at allocation */
        a.pageSize = 2u << 20;
    } else if (r && r->kind == OACL_MEM_DEVICE_ALIAS) {
        /* The device side of mapped host memory: device addresses. */
        a.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
        a.location.id = (uint32_t)r->device;
    } else if (r) {
        a.location.type = ACL_MEM_LOCATION_TYPE_HOST;
        if (r->origin == OACL_MEM_ORIGIN_VMM_MAP)
            a.pageSize = r->flags; /* the physical memory's granularity */
    } else {
        /* User memory counts as runtime host memory once it is pinned. */
        const struct oacl_mem_record *reg = oacl_registry_find_locked(OACL_SPACE_HOSTREG, p);
        if (reg && (reg->flags & ACL_HOST_REG_PINNED))
            a.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    }
    oacl_registry_unlock();
    *attributes = a;
    return ACL_SUCCESS;
}
