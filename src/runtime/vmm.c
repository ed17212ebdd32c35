/*
 * Virtual memory (spec acl-rt-ipc-vmm.md 4.4, 4.6): physical allocations,
 * address reservations, mappings of the one into the other, per-location
 * access, and the queries on them.
 *
 * A physical handle is a memory file (the backend's phys_create) behind a
 * handle-table entry; a reservation is inaccessible address space; a
 * mapping puts (the start of) a handle's file into a reservation and is
 * registered in the address registry as device memory of the handle's
 * device (or host memory), so copies, kernels and attribute queries accept
 * it. All of it belongs to the process, not to a context: no current
 * context is needed (except where the spec says so) and device resets do
 * not touch it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/addr_registry.h"
#include "common/imap.h"
#include "runtime/vmm.h"

#define MiB2 (2ull << 20)
#define GiB1 (1ull << 30)
#define ACCESS_NOT_SET 0x7FFFFFFFu /* CANN's driver value for "never set" (D15) */
#define MAX_LOC 65                 /* host + 64 devices */

pthread_mutex_t oacl_vmm_lock = PTHREAD_MUTEX_INITIALIZER;

struct resv {
    uintptr_t base;
    size_t size;
    uint32_t nmaps;
    int32_t bound_dev;   /* device of the device memory mapped here (-1: none), while nmaps > 0 */
    int bound_kind;      /* 0 none, 1 allocated handles, 2 imported handles */
};

struct mapping {
    uintptr_t va;
    size_t size;
    struct oacl_phys *p;             /* +1 object reference */
    struct resv *r;
    uint32_t access[MAX_LOC];        /* [0] host, [1 + d] device d */
};

static struct oacl_imap g_resv;      /* base -> struct resv (oacl_vmm_lock) */
static struct oacl_imap g_maps;      /* va -> struct mapping (oacl_vmm_lock) */

static size_t round_up(size_t n, size_t g) { return (n + g - 1) / g * g; }

bool oacl_vmm_reserved(uintptr_t addr)
{
    struct oacl_imap_entry e;
    pthread_mutex_lock(&oacl_vmm_lock);
    bool in = oacl_imap_find(&g_resv, addr, &e);
    pthread_mutex_unlock(&oacl_vmm_lock);
    return in;
}
static size_t host_page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* ---- handles ------------------------------------------------------------------------- */

static void phys_destroy(struct oacl_obj *o)
{
    struct oacl_phys *p = (struct oacl_phys *)o;
    if (p->imported) {
        pthread_mutex_lock(&oacl_vmm_lock);
        oacl_vmm_unlink_import_locked(p);
        pthread_mutex_unlock(&oacl_vmm_lock);
    }
    if (p->accounted) {
        struct oacl_device *dev = oacl_device_at(p->device);
        pthread_mutex_lock(&dev->mem_lock);
        dev->mem_used -= p->size;
        pthread_mutex_unlock(&dev->mem_lock);
    }
    close(p->fd);
    free(p);
}

aclError oacl_phys_create(int fd, size_t size, size_t gran, const aclrtPhysicalMemProp *prop, bool host,
                          int32_t device, struct oacl_phys **out, const char *fn)
{
    struct oacl_phys *p = calloc(1, sizeof(*p));
    if (!p) {
        close(fd);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    }
    p->fd = fd;
    p->size = size;
    p->gran = gran;
    p->prop = *prop;
    p->host = host;
    p->device = device;
    p->exporter_device = -1;
    p->refs = 1;
    p->handle = oacl_handle_create(&p->obj, OACL_H_PHYSMEM, phys_destroy);
    if (!p->handle) {
        close(fd);
        free(p);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "handle table exhausted");
    }
    *out = p;
    return ACL_SUCCESS;
}

aclError oacl_phys_get(aclrtDrvMemHandle h, struct oacl_phys **out, const char *fn)
{
    struct oacl_obj *o = oacl_handle_get(h, OACL_H_PHYSMEM);
    if (o) {
        pthread_mutex_lock(&oacl_vmm_lock);
        bool live = ((struct oacl_phys *)o)->refs > 0;
        pthread_mutex_unlock(&oacl_vmm_lock);
        if (live) {
            *out = (struct oacl_phys *)o;
            return ACL_SUCCESS;
        }
        oacl_obj_put(o);
    }
    return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "%p is not a live physical-memory handle", h);
}

/* Drops the handle once nothing counts it and nothing maps it. Called with
 * the lock held; returns true when the caller must retire it (unlocked). */
static bool phys_unused_locked(struct oacl_phys *p) { return p->refs == 0 && p->mappings == 0; }

/* ---- properties and granularity ---------------------------------------------------------- */

static bool attr_known(aclrtMemAttr a)
{
    int v = (int)a;
    return (v >= 2 && v <= 7) || v == 10 || (v >= 12 && v <= 17);
}

static bool attr_host_only(aclrtMemAttr a)
{
    return a == ACL_DDR_MEM_HUGE || a == ACL_DDR_MEM_NORMAL || a == ACL_DDR_MEM_P2P_HUGE || a == ACL_DDR_MEM_P2P_NORMAL;
}

static bool attr_1g(aclrtMemAttr a) { return a == ACL_HBM_MEM_HUGE1G || a == ACL_MEM_HUGE1G || a == ACL_MEM_P2P_HUGE1G; }

static bool attr_huge(aclrtMemAttr a)
{
    return a == ACL_DDR_MEM_HUGE || a == ACL_DDR_MEM_P2P_HUGE || a == ACL_MEM_HUGE || a == ACL_MEM_P2P_HUGE ||
           a == ACL_HBM_MEM_HUGE;
}

/* The API-layer checks of memAttr (100000). */
static aclError check_attr(const aclrtPhysicalMemProp *prop, const char *fn)
{
    if (!attr_known(prop->memAttr))
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "memAttr %d cannot be used for physical memory",
                         (int)prop->memAttr);
    if (prop->location.type == ACL_MEM_LOCATION_TYPE_DEVICE && attr_host_only(prop->memAttr))
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "memAttr %d is host memory; the location is a device",
                         (int)prop->memAttr);
    return ACL_SUCCESS;
}

/* Runtime checks of the location and the granularity (spec table, D12). */
static aclError granularity(const aclrtPhysicalMemProp *prop, size_t *gran, const char *fn)
{
    aclrtMemLocationType t = prop->location.type;
    aclrtMemAttr a = prop->memAttr;
    if (t == ACL_MEM_LOCATION_TYPE_DEVICE) {
        struct oacl_device *d = NULL;
        aclError rc = oacl_device_lookup(prop->location.id, ACL_ERROR_RT_INVALID_DEVICEID, &d, fn);
        if (rc)
            return rc;
    } else if (t != ACL_MEM_LOCATION_TYPE_HOST && t != ACL_MEM_LOCATION_TYPE_HOST_NUMA) {
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "location.type %d is not HOST, DEVICE or HOST_NUMA", (int)t);
    }
    if (attr_1g(a)) {
        enum oacl_ipc_family f = oacl_ipc_family();
        bool ok = t == ACL_MEM_LOCATION_TYPE_DEVICE &&
                  (a == ACL_MEM_P2P_HUGE1G ? f == OACL_FAM_A3 : (f == OACL_FAM_A2 || f == OACL_FAM_A3));
        if (!ok)
            return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "1 GiB pages (memAttr %d) are not available for %s on %s",
                             (int)a, t == ACL_MEM_LOCATION_TYPE_DEVICE ? "device memory" : "host memory",
                             oacl_soc_name());
        *gran = GiB1;
    } else if (t == ACL_MEM_LOCATION_TYPE_DEVICE) {
        *gran = MiB2;
    } else {
        *gran = attr_huge(a) ? MiB2 : host_page();
    }
    return ACL_SUCCESS;
}

/* The attribute CANN reports back (derived from page and memory type). */
static aclrtMemAttr normalised(aclrtMemAttr a, bool host)
{
    if (!host) {
        switch (a) {
        case ACL_MEM_NORMAL:
        case ACL_HBM_MEM_NORMAL: return ACL_HBM_MEM_NORMAL;
        case ACL_MEM_HUGE:
        case ACL_HBM_MEM_HUGE: return ACL_HBM_MEM_HUGE;
        case ACL_MEM_HUGE1G:
        case ACL_HBM_MEM_HUGE1G: return ACL_HBM_MEM_HUGE1G;
        default: return a; /* the P2P attributes */
        }
    }
    switch (a) {
    case ACL_MEM_P2P_NORMAL: return ACL_DDR_MEM_P2P_NORMAL;
    case ACL_DDR_MEM_NORMAL: return ACL_MEM_NORMAL;
    case ACL_DDR_MEM_HUGE: return ACL_MEM_HUGE;
    case ACL_DDR_MEM_P2P_HUGE: return ACL_MEM_P2P_HUGE;
    default: return a;
    }
}

OACL_API aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option,
                                                   size_t *granularity_out)
{
    const char *fn = __func__;
    if (!prop || !granularity_out)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", prop ? "granularity" : "prop");
    aclError rc = check_attr(prop, fn);
    if (rc)
        return rc;
    if (prop->location.type == ACL_MEM_LOCATION_TYPE_DEVICE) {
        struct oacl_device *d = NULL;
        rc = oacl_device_lookup(prop->location.id, ACL_ERROR_RT_INVALID_DEVICEID, &d, fn);
        if (rc)
            return rc;
    } else if (prop->location.type != ACL_MEM_LOCATION_TYPE_HOST &&
               prop->location.type != ACL_MEM_LOCATION_TYPE_HOST_NUMA) {
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "location.type %d is not HOST, DEVICE or HOST_NUMA",
                         (int)prop->location.type);
    }
    if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM && option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "option %d is not MINIMUM or RECOMMENDED", (int)option);
    size_t g;
    rc = granularity(prop, &g, fn);
    if (rc == ACL_SUCCESS)
        *granularity_out = g; /* RECOMMENDED = MINIMUM */
    return rc;
}

/* ---- physical memory ------------------------------------------------------------------ */

OACL_API aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size, const aclrtPhysicalMemProp *prop,
                                      uint64_t flags)
{
    const char *fn = __func__;
    if (!handle || !prop)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", handle ? "prop" : "handle");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if (flags != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flags 0x%llx is reserved and must be 0", (unsigned long long)flags);
    if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "prop->handleType %d is not ACL_MEM_HANDLE_TYPE_NONE",
                         (int)prop->handleType);
    if (prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "prop->allocationType %d is not ACL_MEM_ALLOCATION_TYPE_PINNED",
                         (int)prop->allocationType);
    if (prop->location.type == ACL_MEM_LOCATION_TYPE_UNREGISTERED || prop->location.type == ACL_MEM_LOCATION_TYPE_MANAGED)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "prop->location.type %d cannot hold physical memory",
                         (int)prop->location.type);
    aclError rc = check_attr(prop, fn);
    if (rc)
        return rc;
    bool device = prop->location.type == ACL_MEM_LOCATION_TYPE_DEVICE;
    if (device) {
        struct oacl_device *d = NULL;
        rc = oacl_device_lookup(prop->location.id, ACL_ERROR_RT_INVALID_DEVICEID, &d, fn);
    } else if (prop->location.type == ACL_MEM_LOCATION_TYPE_HOST_NUMA) {
        rc = oacl_ctx_require(fn);
    }
    size_t gran = 0;
    if (rc == ACL_SUCCESS)
        rc = granularity(prop, &gran, fn);
    if (rc)
        return rc;
    size_t len = round_up(size, gran);
    if (len < size)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "size %zu is too large", size);
    struct oacl_device *dev = device ? oacl_device_at((int32_t)prop->location.id) : NULL;
    if (dev) {
        /* Counts against the device's capacity like aclrtMalloc (3.9). */
        uint64_t cap = oacl_config()->device_memory;
        pthread_mutex_lock(&dev->mem_lock);
        bool fits = dev->mem_used <= cap && len <= cap - dev->mem_used;
        if (fits)
            dev->mem_used += len;
        uint64_t used = dev->mem_used;
        pthread_mutex_unlock(&dev->mem_lock);
        if (!fits)
            return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "device %d is out of memory: %zu bytes asked, %llu of %llu free",
                             dev->id, len, (unsigned long long)(cap - used), (unsigned long long)cap);
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    int fd = -1;
    int brc = oacl_backend()->phys_create(len, &fd, err);
    struct oacl_phys *p = NULL;
    if (brc)
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "%s", err);
    else
        rc = oacl_phys_create(fd, len, gran, prop, !device, device ? (int32_t)prop->location.id : -1, &p, fn);
    if (rc) {
        if (dev) {
            pthread_mutex_lock(&dev->mem_lock);
            dev->mem_used -= len;
            pthread_mutex_unlock(&dev->mem_lock);
        }
        return rc;
    }
    p->accounted = dev != NULL;
    p->prop.memAttr = normalised(prop->memAttr, !device);
    *handle = p->handle;
    return ACL_SUCCESS;
}

/* Drops one count; retires the handle when nothing uses it any more. */
static void phys_release(struct oacl_phys *p, bool count)
{
    pthread_mutex_lock(&oacl_vmm_lock);
    if (count && p->refs && --p->refs == 0)
        oacl_vmm_share_forget_locked(p); /* no new imports of its shareable handle */
    bool retire = phys_unused_locked(p);
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (retire)
        oacl_obj_retire(&p->obj);
}

OACL_API aclError aclrtFreePhysical(aclrtDrvMemHandle handle)
{
    const char *fn = __func__;
    if (!handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "handle is NULL");
    struct oacl_phys *p = NULL;
    aclError rc = oacl_phys_get(handle, &p, fn);
    if (rc)
        return rc;
    pthread_mutex_lock(&oacl_vmm_lock);
    bool live = p->refs > 0; /* a concurrent free may have won */
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (live)
        phys_release(p, true);
    oacl_obj_put(&p->obj);
    return live ? ACL_SUCCESS
                : oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "%p is not a live physical-memory handle", handle);
}

OACL_API aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle, aclrtPhysicalMemProp *prop)
{
    const char *fn = __func__;
    if (!handle || !prop)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", handle ? "prop" : "handle");
    struct oacl_phys *p = NULL;
    aclError rc = oacl_phys_get(handle, &p, fn);
    if (rc)
        return rc;
    aclrtPhysicalMemProp out;
    memset(&out, 0, sizeof(out));
    out.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    out.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    out.memAttr = p->prop.memAttr;
    out.location = p->prop.location;
    out.reserve = p->prop.reserve;
    oacl_obj_put(&p->obj);
    *prop = out;
    return ACL_SUCCESS;
}

/* ---- reservations ---------------------------------------------------------------------- */

static bool is_950(void)
{
    enum oacl_ipc_family f = oacl_ipc_family();
    return f == OACL_FAM_950PR || f == OACL_FAM_950DT;
}

static aclError reserve(void **virPtr, size_t len, size_t align, void *at, const char *fn)
{
    struct resv *r = calloc(1, sizeof(*r));
    if (!r)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    char err[OACL_BACKEND_ERRLEN] = "";
    void *p = NULL;
    int brc = oacl_backend()->va_reserve(len, align, at, &p, err);
    if (brc) {
        free(r);
        return oacl_fail(brc, fn, "%s", err);
    }
    r->base = (uintptr_t)p;
    r->size = len;
    r->bound_dev = -1;
    pthread_mutex_lock(&oacl_vmm_lock);
    int e = oacl_imap_insert(&g_resv, r->base, r->size, r);
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (e) {
        oacl_backend()->va_release(p, len);
        free(r);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "cannot record the reservation");
    }
    *virPtr = p;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr, uint64_t flags)
{
    const char *fn = __func__;
    if (!virPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "virPtr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if (flags > 1)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flags 0x%llx is not 0 or 1", (unsigned long long)flags);
    if (alignment != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "alignment %zu is reserved and must be 0", alignment);
    size_t len = round_up(size, MiB2);
    if (len < size)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "size %zu exceeds the address space", size);
    size_t align = len >= GiB1 ? GiB1 : MiB2;
    if (expectPtr) {
        uintptr_t a = (uintptr_t)expectPtr;
        const uintptr_t lo = 0x100000000000ull, hi = 0x180000000000ull;
        size_t want = MiB2;
        if (size > 512ull * 1024 * 1024)
            want = GiB1;
        else
            while (want < size)
                want <<= 1;
        if (is_950())
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "expectPtr must be NULL on %s", oacl_soc_name());
        if (a < lo || a > hi || len > hi - a)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "expectPtr %p + %zu bytes leaves the window [0x100000000000, 0x180000000000)", expectPtr,
                             len);
        if (a % want)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "expectPtr %p is not aligned to %zu bytes", expectPtr,
                             want);
        return reserve(virPtr, len, want, expectPtr, fn);
    }
    return reserve(virPtr, len, align, NULL, fn);
}

OACL_API aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                                   uint64_t flags)
{
    const char *fn = __func__;
    if (!virPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "virPtr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if (flags > 1)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flags 0x%llx is not 0 or 1", (unsigned long long)flags);
    aclError rc = oacl_ipc_feature_check(OACL_FEAT_NO_UC, fn);
    if (rc)
        return rc;
    if (!expectPtr)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "expectPtr NULL is not supported: give the start address");
    if (alignment != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "alignment %zu is reserved and must be 0", alignment);
    if (size % GiB1)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "size %zu is not a multiple of 1 GiB", size);
    if ((uintptr_t)expectPtr % GiB1)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "expectPtr %p is not 1 GiB-aligned", expectPtr);
    return reserve(virPtr, size, GiB1, expectPtr, fn);
}

OACL_API aclError aclrtReleaseMemAddress(void *virPtr)
{
    const char *fn = __func__;
    if (!virPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "virPtr is NULL");
    struct oacl_imap_entry e;
    aclError rc = ACL_SUCCESS;
    struct resv *r = NULL;
    pthread_mutex_lock(&oacl_vmm_lock);
    if (!oacl_imap_find(&g_resv, (uintptr_t)virPtr, &e) || e.start != (uintptr_t)virPtr)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is not the start of a reservation of this process", virPtr);
    else if (((struct resv *)e.value)->nmaps)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the reservation at %p still holds %u mapping(s); unmap them first",
                       virPtr, ((struct resv *)e.value)->nmaps);
    else {
        r = e.value;
        oacl_imap_remove(&g_resv, e.start, NULL);
    }
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (rc)
        return rc;
    oacl_backend()->va_release((void *)r->base, r->size);
    free(r);
    return ACL_SUCCESS;
}

/* ---- registry records ------------------------------------------------------------------------ */

/*
 * Mappings that follow each other in one reservation form one contiguous
 * range, as on a device: a copy may cross from one into the next. The
 * registry therefore holds one record per run of adjacent mappings of the
 * same kind (device and page size); mapping and unmapping merge and split
 * runs. (aclrtMemGetAddressRange still reports the single mapping.)
 */
static bool same_run(const struct oacl_mem_record *a, const struct oacl_mem_record *like)
{
    return a && a->origin == OACL_MEM_ORIGIN_VMM_MAP && a->kind == like->kind && a->device == like->device &&
           a->flags == like->flags;
}

static struct oacl_mem_record *new_rec(uintptr_t base, size_t size, const struct oacl_mem_record *like)
{
    struct oacl_mem_record *r = calloc(1, sizeof(*r));
    if (r) {
        *r = *like;
        r->base = base;
        r->size = size;
        r->user_size = size;
    }
    return r;
}

/* Registers [va, va+size) inside reservation rv (registry lock held). */
static int run_add_locked(const struct resv *rv, uintptr_t va, size_t size, const struct oacl_mem_record *like)
{
    struct oacl_mem_record *left = va > rv->base ? oacl_registry_find_locked(OACL_SPACE_ALLOC, va - 1) : NULL;
    struct oacl_mem_record *right =
        va + size < rv->base + rv->size ? oacl_registry_find_locked(OACL_SPACE_ALLOC, va + size) : NULL;
    if (!same_run(left, like) || left->base + left->size != va)
        left = NULL;
    if (!same_run(right, like) || right->base != va + size)
        right = NULL;
    uintptr_t base = left ? left->base : va;
    uintptr_t end = right ? right->base + right->size : va + size;
    struct oacl_mem_record *merged = new_rec(base, end - base, like);
    if (!merged)
        return -1;
    if (left)
        oacl_registry_remove_locked(OACL_SPACE_ALLOC, left->base);
    if (right)
        oacl_registry_remove_locked(OACL_SPACE_ALLOC, right->base);
    if (oacl_registry_insert_locked(OACL_SPACE_ALLOC, merged) != 0) {
        free(merged); /* put the neighbours back: their ranges are free again */
        if (left)
            oacl_registry_insert_locked(OACL_SPACE_ALLOC, left);
        if (right)
            oacl_registry_insert_locked(OACL_SPACE_ALLOC, right);
        return -1;
    }
    free(left);
    free(right);
    return 0;
}

/* Unregisters [va, va+size), splitting its run (registry lock held). */
static void run_remove_locked(uintptr_t va, size_t size)
{
    struct oacl_mem_record *run = oacl_registry_find_locked(OACL_SPACE_ALLOC, va);
    if (!run || run->origin != OACL_MEM_ORIGIN_VMM_MAP)
        return;
    oacl_registry_remove_locked(OACL_SPACE_ALLOC, run->base);
    struct oacl_mem_record *lo = va > run->base ? new_rec(run->base, va - run->base, run) : NULL;
    uintptr_t end = run->base + run->size;
    struct oacl_mem_record *hi = va + size < end ? new_rec(va + size, end - (va + size), run) : NULL;
    /* Reinserting parts of a range just removed cannot overlap; only a node
       allocation can fail, and then the part is not findable (copies into
       it are refused) until its own unmap. */
    if (lo && oacl_registry_insert_locked(OACL_SPACE_ALLOC, lo) != 0)
        free(lo);
    if (hi && oacl_registry_insert_locked(OACL_SPACE_ALLOC, hi) != 0)
        free(hi);
    free(run);
}

/* ---- mappings -------------------------------------------------------------------------- */

static uint32_t policy_for(size_t gran)
{
    return gran >= GiB1 ? ACL_MEM_MALLOC_HUGE1G_ONLY : gran >= MiB2 ? ACL_MEM_MALLOC_HUGE_ONLY : ACL_MEM_MALLOC_NORMAL_ONLY;
}

static int loc_index(const struct oacl_phys *p) { return p->host ? 0 : 1 + p->device; }

/* Maps [va, va+size) onto p; the checks of aclrtMapMem after the handle's. */
static aclError map_phys(void *virPtr, size_t size, size_t offset, struct oacl_phys *p, bool no_access, const char *fn)
{
    uintptr_t va = (uintptr_t)virPtr;
    if (offset != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "offset %zu: only 0 is supported", offset);
    struct mapping *m = calloc(1, sizeof(*m));
    if (!m)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    aclError rc = ACL_SUCCESS;
    struct oacl_imap_entry e, o;
    pthread_mutex_lock(&oacl_vmm_lock);
    struct resv *r = oacl_imap_find(&g_resv, va, &e) ? e.value : NULL;
    int kind = p->imported ? 2 : 1;
    if (!r)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is not inside a reservation of this process", virPtr);
    else if (va % p->gran || size % p->gran)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "virPtr %p and size %zu must be multiples of the handle's "
                       "granularity %zu", virPtr, size, p->gran);
    else if (size > p->size)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "size %zu exceeds the physical memory's %zu bytes", size, p->size);
    else if (size > r->base + r->size - va)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%zu bytes at %p run past the end of the reservation at %p",
                       size, virPtr, (void *)r->base);
    else if (oacl_imap_first_overlap(&g_maps, va, size, &o))
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the range overlaps the mapping at %p", (void *)o.start);
    else if (r->nmaps && ((!p->host && r->bound_dev >= 0 && r->bound_dev != p->device) || r->bound_kind != kind))
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "the reservation at %p is bound to %s; one reservation cannot mix devices or allocated and "
                       "imported memory (D28)",
                       (void *)r->base, r->bound_kind != kind ? (r->bound_kind == 2 ? "imported memory" : "allocated memory")
                                                              : "another device's memory");
    if (rc == ACL_SUCCESS) {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->va_map(virPtr, size, p->fd, no_access ? OACL_VA_NONE : OACL_VA_READWRITE, err);
        if (brc)
            rc = oacl_fail(brc, fn, "%s", err);
    }
    if (rc == ACL_SUCCESS) {
        struct oacl_mem_record like;
        memset(&like, 0, sizeof(like));
        like.kind = p->host ? OACL_MEM_HOST_PINNED : OACL_MEM_DEVICE;
        like.origin = OACL_MEM_ORIGIN_VMM_MAP;
        like.device = p->host ? -1 : p->device;
        like.flags = p->host ? (uint32_t)(p->gran > UINT32_MAX ? 0 : p->gran) : policy_for(p->gran);
        int ins = oacl_imap_insert(&g_maps, va, size, m);
        if (ins == 0) {
            oacl_registry_wrlock();
            ins = run_add_locked(r, va, size, &like);
            oacl_registry_unlock();
            if (ins)
                oacl_imap_remove(&g_maps, va, NULL);
        }
        if (ins) {
            oacl_backend()->va_unmap(virPtr, size);
            rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "cannot record the mapping");
        }
    }
    if (rc == ACL_SUCCESS) {
        m->va = va;
        m->size = size;
        m->p = p;
        m->r = r;
        for (int i = 0; i < MAX_LOC; i++)
            m->access[i] = ACCESS_NOT_SET;
        if (!no_access) /* the memory's own location gets read-write access */
            m->access[loc_index(p)] = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
        oacl_obj_ref(&p->obj);
        p->mappings++;
        if (r->nmaps++ == 0) {
            r->bound_dev = p->host ? -1 : p->device;
            r->bound_kind = kind;
        } else if (r->bound_dev < 0 && !p->host) {
            r->bound_dev = p->device;
        }
    }
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (rc)
        free(m);
    return rc;
}

static aclError map_api(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags,
                        bool no_access, const char *fn)
{
    if (!virPtr || !handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", virPtr ? "handle" : "virPtr");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if (flags != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flags 0x%llx is reserved and must be 0", (unsigned long long)flags);
    struct oacl_phys *p = NULL;
    aclError rc = oacl_phys_get(handle, &p, fn);
    if (rc)
        return rc;
    rc = map_phys(virPtr, size, offset, p, no_access, fn);
    oacl_obj_put(&p->obj);
    return rc;
}

OACL_API aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags)
{
    return map_api(virPtr, size, offset, handle, flags, false, __func__);
}

OACL_API aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                      uint64_t flags)
{
    return map_api(virPtr, size, offset, handle, flags, true, __func__);
}

OACL_API aclError aclrtUnmapMem(void *virPtr)
{
    const char *fn = __func__;
    if (!virPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "virPtr is NULL");
    struct oacl_imap_entry e;
    struct mapping *m = NULL;
    pthread_mutex_lock(&oacl_vmm_lock);
    if (oacl_imap_find(&g_maps, (uintptr_t)virPtr, &e) && e.start == (uintptr_t)virPtr) {
        m = e.value;
        oacl_imap_remove(&g_maps, e.start, NULL);
        oacl_registry_wrlock();
        run_remove_locked(m->va, m->size);
        oacl_registry_unlock();
    }
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (!m)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is not the start of a mapping of this process", virPtr);
    /* Work queued before may still use the range (as for aclrtFree). */
    oacl_backend()->va_unmap(virPtr, m->size);
    pthread_mutex_lock(&oacl_vmm_lock);
    m->r->nmaps--;
    m->p->mappings--;
    pthread_mutex_unlock(&oacl_vmm_lock);
    phys_release(m->p, false);
    oacl_obj_put(&m->p->obj);
    free(m);
    return ACL_SUCCESS;
}

/* ---- access ------------------------------------------------------------------------------ */

/* Index of a location in mapping->access, or -1 with a message. */
static int location_index(const aclrtMemLocation *loc, const char *what, const char *fn, aclError *rc)
{
    if (loc->type == ACL_MEM_LOCATION_TYPE_HOST)
        return 0;
    if (loc->type == ACL_MEM_LOCATION_TYPE_DEVICE) {
        if (loc->id < oacl_config()->device_count && loc->id < MAX_LOC - 1)
            return 1 + (int)loc->id;
        *rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s: device id %u is out of range 0..%u", what, loc->id,
                        oacl_config()->device_count - 1);
        return -1;
    }
    *rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s: location type %d is not HOST or DEVICE", what, (int)loc->type);
    return -1;
}

OACL_API aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count)
{
    const char *fn = __func__;
    if (!virPtr || !desc)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s is NULL", virPtr ? "desc" : "virPtr");
    if (count == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "count is 0");
    aclError rc = ACL_SUCCESS;
    /* Every descriptor is checked before anything changes. */
    int *idx = calloc(count, sizeof(int));
    if (!idx)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    struct oacl_imap_entry e;
    pthread_mutex_lock(&oacl_vmm_lock);
    struct mapping *m = oacl_imap_find(&g_maps, (uintptr_t)virPtr, &e) ? e.value : NULL;
    if (!m || m->va != (uintptr_t)virPtr || m->size != size)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "(%p, %zu) is not exactly a mapping of this process%s", virPtr,
                       size, m ? " (give its start and its size)" : "");
    for (size_t i = 0; rc == ACL_SUCCESS && i < count; i++) {
        char what[32];
        snprintf(what, sizeof(what), "desc[%zu]", i);
        uint32_t f = (uint32_t)desc[i].flags;
        if (f != ACL_RT_MEM_ACCESS_FLAGS_NONE && f != ACL_RT_MEM_ACCESS_FLAGS_READ &&
            f != ACL_RT_MEM_ACCESS_FLAGS_READWRITE)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s.flags %u is not NONE, READ or READWRITE", what, f);
        else
            idx[i] = location_index(&desc[i].location, what, fn, &rc);
    }
    if (rc == ACL_SUCCESS) {
        uint32_t old[MAX_LOC];
        memcpy(old, m->access, sizeof(old));
        for (size_t i = 0; i < count; i++)
            m->access[idx[i]] = (uint32_t)desc[i].flags; /* later calls overwrite (D14) */
        /* One mapping serves every location: the union of the accesses. */
        int prot = OACL_VA_NONE;
        for (int i = 0; i < MAX_LOC; i++) {
            if (m->access[i] == ACL_RT_MEM_ACCESS_FLAGS_READWRITE)
                prot = OACL_VA_READWRITE;
            else if (m->access[i] == ACL_RT_MEM_ACCESS_FLAGS_READ && prot == OACL_VA_NONE)
                prot = OACL_VA_READ;
        }
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->va_protect(virPtr, size, prot, err);
        if (brc) {
            memcpy(m->access, old, sizeof(old));
            rc = oacl_fail(brc, fn, "%s", err);
        }
    }
    pthread_mutex_unlock(&oacl_vmm_lock);
    free(idx);
    return rc;
}

OACL_API aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag)
{
    const char *fn = __func__;
    if (!virPtr || !location || !flag)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", !virPtr ? "virPtr" : !location ? "location" : "flag");
    aclError rc = ACL_SUCCESS;
    struct oacl_imap_entry e;
    pthread_mutex_lock(&oacl_vmm_lock);
    struct mapping *m = oacl_imap_find(&g_maps, (uintptr_t)virPtr, &e) ? e.value : NULL;
    int i = -1;
    if (!m)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is not inside a mapping of this process", virPtr);
    else
        i = location_index(location, "location", fn, &rc);
    uint64_t v = rc == ACL_SUCCESS ? m->access[i] : 0;
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (rc == ACL_SUCCESS)
        *flag = v;
    return rc;
}

OACL_API aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle)
{
    const char *fn = __func__;
    if (!virPtr || !handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", virPtr ? "handle" : "virPtr");
    struct oacl_imap_entry e;
    pthread_mutex_lock(&oacl_vmm_lock);
    struct mapping *m = oacl_imap_find(&g_maps, (uintptr_t)virPtr, &e) ? e.value : NULL;
    if (m)
        m->p->refs++; /* a handle whose count had dropped to 0 lives again */
    void *h = m ? m->p->handle : NULL;
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (!m)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is not inside a mapping of this process", virPtr);
    *handle = h;
    return ACL_SUCCESS;
}

/* ---- address ranges ------------------------------------------------------------------------ */

OACL_API aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize)
{
    const char *fn = __func__;
    if (!ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "ptr is NULL");
    if (!pbase && !psize)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "pbase and psize are both NULL");
    struct oacl_mem_record r;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, (uintptr_t)ptr, &r) || r.kind == OACL_MEM_DEVICE_ALIAS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%p is not inside memory the runtime allocated, imported or mapped", ptr);
    size_t size = r.size;
    if (r.origin == OACL_MEM_ORIGIN_ALLOC)
        size = round_up(r.size, host_page()); /* device allocations own whole pages (D6) */
    if (r.origin == OACL_MEM_ORIGIN_VMM_MAP) {
        /* The record covers a run of mappings: report the one mapping. */
        struct oacl_imap_entry e;
        pthread_mutex_lock(&oacl_vmm_lock);
        bool found = oacl_imap_find(&g_maps, (uintptr_t)ptr, &e);
        pthread_mutex_unlock(&oacl_vmm_lock);
        if (found) {
            r.base = e.start;
            size = e.len;
        }
    }
    if (pbase)
        *pbase = (void *)r.base;
    if (psize)
        *psize = size;
    return ACL_SUCCESS;
}

/* ---- peer mapping and links ------------------------------------------------------------------ */

OACL_API aclError aclrtMemP2PMap(void *devPtr, size_t size, int32_t dstDevId, uint64_t flags)
{
    const char *fn = __func__;
    if (!devPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "devPtr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if (flags != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flags 0x%llx is reserved and must be 0", (unsigned long long)flags);
    struct oacl_device *d = NULL;
    aclError rc = oacl_device_lookup(dstDevId, ACL_ERROR_RT_INVALID_DEVICEID, &d, fn);
    if (rc == ACL_SUCCESS)
        rc = oacl_ctx_require(fn);
    if (rc == ACL_SUCCESS)
        rc = oacl_ipc_feature_check(OACL_FEAT_P2P_MAP, fn);
    if (rc)
        return rc;
    struct oacl_mem_record r;
    uintptr_t a = (uintptr_t)devPtr;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r) || r.kind != OACL_MEM_DEVICE || r.origin != OACL_MEM_ORIGIN_ALLOC ||
        size > r.base + r.size - a)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "[%p, +%zu) is not inside one device allocation of this process (aclrtMalloc)", devPtr, size);
    /* Simulated devices share the host's page tables: nothing to build. */
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMemMapSelectedLink(void *virPtrDst, size_t size, void *virPtrSrc, uint32_t linkIdx)
{
    const char *fn = __func__;
    if (!virPtrDst || !virPtrSrc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", virPtrDst ? "virPtrSrc" : "virPtrDst");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if (linkIdx > ACL_RT_MEM_LINK_IDX_1)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "linkIdx %u is not ACL_RT_MEM_LINK_IDX_0 or _1", linkIdx);
    aclError rc = oacl_ipc_feature_check(OACL_FEAT_NO_UC, fn);
    if (rc)
        return rc;
    /* Walk the source mapping by mapping; the link choice has no effect. */
    size_t done = 0;
    while (rc == ACL_SUCCESS && done < size) {
        struct oacl_imap_entry e;
        uintptr_t src = (uintptr_t)virPtrSrc + done;
        pthread_mutex_lock(&oacl_vmm_lock);
        struct mapping *m = oacl_imap_find(&g_maps, src, &e) && e.start == src ? e.value : NULL;
        struct oacl_phys *p = m ? m->p : NULL;
        size_t len = m ? m->size : 0;
        if (p)
            oacl_obj_ref(&p->obj);
        pthread_mutex_unlock(&oacl_vmm_lock);
        if (!p) {
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is not the start of a mapping of this process",
                           (void *)src);
            break;
        }
        rc = map_phys((uint8_t *)virPtrDst + done, len, 0, p, false, fn);
        oacl_obj_put(&p->obj);
        done += len;
    }
    return rc;
}

OACL_API aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink)
{
    const char *fn = __func__;
    if (!handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "handle is NULL");
    if ((uint32_t)adviceLink > ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "adviceLink %d is not an aclrtMemLinkType", (int)adviceLink);
    struct oacl_phys *p = NULL;
    aclError rc = oacl_phys_get(handle, &p, fn);
    if (rc)
        return rc;
    enum oacl_ipc_family f = oacl_ipc_family();
    bool ub = adviceLink >= ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH;
    if (f != OACL_FAM_A3 && f != OACL_FAM_950PR && f != OACL_FAM_950DT)
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn, oacl_soc_name());
    else if ((f == OACL_FAM_A3) == ub)
        rc = oacl_fail(ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, fn, "%s has no %s link", oacl_soc_name(),
                       ub ? "UB" : "SIO/HCCS");
    else
        __atomic_store_n(&p->link_advice, (uint32_t)adviceLink, __ATOMIC_RELAXED); /* advice only */
    oacl_obj_put(&p->obj);
    return rc;
}
