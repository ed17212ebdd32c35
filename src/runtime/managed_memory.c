/*
 * Managed (unified) memory: aclrtMemAllocManaged, aclrtMemManagedAdvise,
 * aclrtMemManagedGetAttr(s), aclrtMemManagedPrefetchAsync and
 * aclrtMemManagedPrefetchBatchAsync; aclrtFree releases it through
 * oacl_managed_free.
 *
 * The backend gives one mapping valid for the host and every device
 * (Decision 4), so no data ever moves. What CANN's driver tracks per 2 MiB
 * page — read-mostly, preferred location, accessed-by set, last prefetch
 * location — is kept here per page, for the queries to answer as CANN
 * does. Each allocation is one registry record (kind OACL_MEM_MANAGED)
 * followed by its page states; page states are read and written with the
 * registry lock held (so the allocation cannot go away) plus g_lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/addr_registry.h"
#include "runtime/runtime.h"

#define MPAGE ((uint64_t)2 << 20)
#define MANAGED_LIMIT ((uint64_t)3 << 40) /* per process, as CANN */
#define MANAGED_FAMILIES (OACL_SOC_MASK(OACL_SOC_FAMILY_A2) | OACL_SOC_MASK(OACL_SOC_FAMILY_A3))

/* A location as stored: type INVALID = none; HOST_NUMA_CURRENT is stored
 * as HOST_NUMA 0 (the only node); id -1 for the host. */
struct loc {
    uint8_t type;
    int32_t id;
};

struct mpage {
    bool read_mostly;
    bool acc_host, acc_numa; /* accessed-by: the host, NUMA node 0 */
    struct loc pref;         /* preferred location */
    struct loc prefetch;     /* last prefetch requested */
    uint64_t acc_devs;       /* accessed-by: bit d = device d */
};

struct managed_alloc {
    struct oacl_mem_record rec; /* first: the registry stores &rec */
    size_t npages;
    struct mpage pages[];
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t g_total; /* bytes of live managed memory (g_lock) */

static bool same_loc(struct loc a, struct loc b) { return a.type == b.type && a.id == b.id; }

/* ---- arguments ---------------------------------------------------------------- */

/* The checks CANN's API layer makes on a location: a known type and, for a
 * device, an existing device id. */
static aclError check_loc_kind(aclrtMemManagedLocation l, const char *what, const char *fn)
{
    if ((uint32_t)l.type > ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s.type %u is not an aclrtMemManagedLocationType", what,
                         (unsigned)l.type);
    if (l.type == ACL_MEM_LOCATIONTYPE_DEVICE && (l.id < 0 || (uint32_t)l.id >= oacl_config()->device_count))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s: device id %d is out of range 0..%u", what, l.id,
                         oacl_config()->device_count - 1);
    return ACL_SUCCESS;
}

/* The stored form of a location that must name a place (not INVALID). */
static aclError norm_loc(aclrtMemManagedLocation l, const char *what, struct loc *out, const char *fn)
{
    switch (l.type) {
    case ACL_MEM_LOCATIONTYPE_DEVICE:
        *out = (struct loc){ACL_MEM_LOCATIONTYPE_DEVICE, l.id};
        return ACL_SUCCESS;
    case ACL_MEM_LOCATIONTYPE_HOST:
        *out = (struct loc){ACL_MEM_LOCATIONTYPE_HOST, -1};
        return ACL_SUCCESS;
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
        if (l.id != 0)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s: host NUMA node %d does not exist (only node 0)",
                             what, l.id);
        *out = (struct loc){ACL_MEM_LOCATIONTYPE_HOST_NUMA, 0};
        return ACL_SUCCESS;
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT:
        *out = (struct loc){ACL_MEM_LOCATIONTYPE_HOST_NUMA, 0};
        return ACL_SUCCESS;
    default:
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s is ACL_MEM_LOCATIONTYPE_INVALID; name a place", what);
    }
}

/* Where a backend should move pages for a location: a device, or the host. */
static int32_t target_of(struct loc l) { return l.type == ACL_MEM_LOCATIONTYPE_DEVICE ? l.id : -1; }

/* ---- page walks (registry lock held) -------------------------------------------- */

typedef void (*page_fn)(struct mpage *p, void *arg);

/*
 * Calls fn (if any) on the state of every 2 MiB page intersecting
 * [ptr, ptr+size). False, with nothing visited, when one of those pages is
 * not part of a live managed allocation.
 */
static bool walk_locked(uintptr_t ptr, size_t size, page_fn fn, void *arg)
{
    if (size == 0 || ptr + size < ptr)
        return false;
    uintptr_t end = ptr + size;
    /* Pass 0 checks, so that a failing walk changes nothing; pass 1 visits. */
    for (int pass = 0; pass < (fn ? 2 : 1); pass++) {
        uintptr_t a = ptr & ~(uintptr_t)(MPAGE - 1);
        while (a < end) {
            struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, a);
            if (!r || r->kind != OACL_MEM_MANAGED)
                return false;
            struct managed_alloc *m = (struct managed_alloc *)r;
            uintptr_t stop = r->base + r->size < end ? r->base + r->size : end;
            if (pass == 1 && fn) {
                size_t first = (a - r->base) / MPAGE;
                size_t last = (stop - r->base + MPAGE - 1) / MPAGE;
                for (size_t i = first; i < last; i++)
                    fn(&m->pages[i], arg);
            }
            a = r->base + r->size;
        }
    }
    return true;
}

/* The checks of a range to advise or prefetch: whole 2 MiB pages in size,
 * at most 3 TiB, all of it managed memory (registry lock held). */
static aclError check_range_locked(const void *ptr, uint64_t size, const char *what, const char *fn)
{
    if (size % MPAGE != 0 || size > MANAGED_LIMIT)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s: size %llu is not a multiple of 2 MiB up to 3 TiB", what,
                         (unsigned long long)size);
    if (!walk_locked((uintptr_t)ptr, (size_t)size, NULL, NULL))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%s: [%p, +%llu) is not inside managed memory (aclrtMemAllocManaged)", what, ptr,
                         (unsigned long long)size);
    return ACL_SUCCESS;
}

/* ---- allocation ------------------------------------------------------------------- */

OACL_API aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag)
{
    const char *fn = __func__;
    if (!ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "ptr is NULL");
    if (flag != ACL_RT_MEM_ATTACH_GLOBAL)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flag is %u; it must be ACL_RT_MEM_ATTACH_GLOBAL", flag);
    if (size == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "size is 0");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    int32_t dev_id = ctx->dev->id;
    oacl_obj_put(&ctx->obj);
    rc = oacl_soc_require(MANAGED_FAMILIES, fn);
    if (rc)
        return rc;
    if (size > MANAGED_LIMIT)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "%llu bytes exceed the 3 TiB of managed memory",
                         (unsigned long long)size);
    size_t len = (size_t)((size + MPAGE - 1) & ~(MPAGE - 1));
    pthread_mutex_lock(&g_lock);
    bool over = g_total + len > MANAGED_LIMIT;
    uint64_t held = g_total;
    if (!over)
        g_total += len; /* reserved now, returned on failure */
    pthread_mutex_unlock(&g_lock);
    if (over)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn,
                         "%zu more bytes would exceed the 3 TiB of managed memory (%llu in use)", len,
                         (unsigned long long)held);
    size_t npages = len / MPAGE;
    struct managed_alloc *m = calloc(1, sizeof(*m) + npages * sizeof(struct mpage));
    char err[OACL_BACKEND_ERRLEN] = "out of memory";
    void *p = NULL;
    rc = m ? oacl_backend()->managed_alloc(len, &p, err) : ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (rc == ACL_SUCCESS) {
        m->npages = npages; /* calloc: every page starts with no advice */
        m->rec.base = (uintptr_t)p;
        m->rec.size = len;
        m->rec.user_size = (size_t)size;
        m->rec.kind = OACL_MEM_MANAGED;
        m->rec.device = dev_id;
        m->rec.module_id = OACL_MODULE_APP;
        oacl_registry_wrlock();
        int ins = oacl_registry_insert_locked(OACL_SPACE_ALLOC, &m->rec);
        oacl_registry_unlock();
        if (ins) {
            oacl_backend()->managed_free(p, len);
            snprintf(err, sizeof(err), "cannot record the allocation (%d)", ins);
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        }
    }
    if (rc) {
        free(m);
        pthread_mutex_lock(&g_lock);
        g_total -= len;
        pthread_mutex_unlock(&g_lock);
        return oacl_fail(rc, fn, "%s", err);
    }
    *ptr = p;
    return ACL_SUCCESS;
}

aclError oacl_managed_free(void *ptr, const char *fn)
{
    uintptr_t p = (uintptr_t)ptr;
    oacl_registry_wrlock();
    struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, p);
    aclError rc = ACL_SUCCESS;
    if (!r || r->kind != OACL_MEM_MANAGED)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is not managed memory (or is freed)", ptr);
    else if (r->base != p)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p points inside the managed allocation at %p; pass the address aclrtMemAllocManaged "
                       "returned",
                       ptr, (void *)r->base);
    else
        oacl_registry_remove_locked(OACL_SPACE_ALLOC, p);
    oacl_registry_unlock();
    if (rc)
        return rc;
    /* Nobody finds it any more; the backend lets queued work that may use
       it (on any device) finish first. */
    oacl_backend()->managed_free(ptr, r->size);
    pthread_mutex_lock(&g_lock);
    g_total -= r->size;
    pthread_mutex_unlock(&g_lock);
    free(r); /* the managed_alloc that starts with it */
    return ACL_SUCCESS;
}

/* ---- advice ------------------------------------------------------------------------ */

struct advice {
    aclrtMemManagedAdviseType advise;
    struct loc loc;
};

static void apply_advice(struct mpage *p, void *arg)
{
    const struct advice *a = arg;
    bool set = a->advise == ACL_MEM_ADVISE_SET_ACCESSED_BY;
    switch (a->advise) {
    case ACL_MEM_ADVISE_SET_READ_MOSTLY:
        p->read_mostly = true;
        break;
    case ACL_MEM_ADVISE_UNSET_READ_MOSTLY:
        p->read_mostly = false;
        break;
    case ACL_MEM_ADVISE_SET_PREFERRED_LOCATION:
        p->pref = a->loc;
        break;
    case ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
        p->pref = (struct loc){ACL_MEM_LOCATIONTYPE_INVALID, 0};
        break;
    case ACL_MEM_ADVISE_SET_ACCESSED_BY:
    case ACL_MEM_ADVISE_UNSET_ACCESSED_BY:
        if (a->loc.type == ACL_MEM_LOCATIONTYPE_DEVICE) {
            uint64_t bit = (uint64_t)1 << a->loc.id;
            p->acc_devs = set ? p->acc_devs | bit : p->acc_devs & ~bit;
        } else if (a->loc.type == ACL_MEM_LOCATIONTYPE_HOST) {
            p->acc_host = set;
        } else {
            p->acc_numa = set;
        }
        break;
    }
}

OACL_API aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                                        aclrtMemManagedLocation location)
{
    const char *fn = __func__;
    if (!ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "ptr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if ((uint32_t)advise > ACL_MEM_ADVISE_UNSET_ACCESSED_BY)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "advise %u is not an aclrtMemManagedAdviseType",
                         (unsigned)advise);
    aclError rc = check_loc_kind(location, "location", fn);
    if (rc)
        return rc;
    rc = oacl_ctx_require(fn);
    if (rc)
        return rc;
    rc = oacl_soc_require(MANAGED_FAMILIES, fn);
    if (rc)
        return rc;
    struct advice a = {.advise = advise, .loc = {ACL_MEM_LOCATIONTYPE_INVALID, 0}};
    /* Only a preferred location and accessed-by name a place; the others
       ignore the location. */
    if (advise == ACL_MEM_ADVISE_SET_PREFERRED_LOCATION || advise == ACL_MEM_ADVISE_SET_ACCESSED_BY ||
        advise == ACL_MEM_ADVISE_UNSET_ACCESSED_BY) {
        rc = norm_loc(location, "location", &a.loc, fn);
        if (rc)
            return rc;
    }
    oacl_registry_rdlock();
    rc = check_range_locked(ptr, size, "range", fn);
    if (rc == ACL_SUCCESS) {
        /* One copy everywhere: no mapping conflict is ever reported. */
        pthread_mutex_lock(&g_lock);
        walk_locked((uintptr_t)ptr, (size_t)size, apply_advice, &a);
        pthread_mutex_unlock(&g_lock);
    }
    oacl_registry_unlock();
    return rc;
}

/* ---- queries ------------------------------------------------------------------------- */

/* What every page of a range has in common. */
struct common {
    bool first;
    bool read_mostly;
    struct loc pref, prefetch; /* type INVALID when the pages differ */
    uint64_t acc_devs;
    bool acc_host, acc_numa;
};

static void gather(struct mpage *p, void *arg)
{
    struct common *c = arg;
    if (c->first) {
        c->first = false;
        c->read_mostly = p->read_mostly;
        c->pref = p->pref;
        c->prefetch = p->prefetch;
        c->acc_devs = p->acc_devs;
        c->acc_host = p->acc_host;
        c->acc_numa = p->acc_numa;
        return;
    }
    c->read_mostly = c->read_mostly && p->read_mostly;
    if (!same_loc(c->pref, p->pref))
        c->pref = (struct loc){ACL_MEM_LOCATIONTYPE_INVALID, 0};
    if (!same_loc(c->prefetch, p->prefetch))
        c->prefetch = (struct loc){ACL_MEM_LOCATIONTYPE_INVALID, 0};
    c->acc_devs &= p->acc_devs;
    c->acc_host = c->acc_host && p->acc_host;
    c->acc_numa = c->acc_numa && p->acc_numa;
}

/* CANN's encoding: a device or NUMA node is its id, the host -1,
 * "none or not the same over the range" -2. */
static int32_t loc_value(struct loc l)
{
    switch (l.type) {
    case ACL_MEM_LOCATIONTYPE_DEVICE:
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
        return l.id;
    case ACL_MEM_LOCATIONTYPE_HOST:
        return -1;
    default:
        return -2;
    }
}

static int32_t loc_id(struct loc l)
{
    return l.type == ACL_MEM_LOCATIONTYPE_DEVICE || l.type == ACL_MEM_LOCATIONTYPE_HOST_NUMA ? l.id : -2;
}

static bool valid_attr(aclrtMemManagedRangeAttribute a)
{
    return (uint32_t)a >= ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY &&
           (uint32_t)a <= ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID;
}

/* One attribute of a range into data (profile and attribute checked). */
static aclError get_attr(aclrtMemManagedRangeAttribute attribute, const void *ptr, size_t size, void *data,
                         size_t dataSize, const char *what, const char *fn)
{
    if (attribute == ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY) {
        if (dataSize == 0 || dataSize % 4 != 0)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "%sdataSize %zu for ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: it must be a non-zero "
                             "multiple of 4",
                             what, dataSize);
    } else if (dataSize != 4) {
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%sdataSize %zu for attribute %u; it must be 4", what,
                         dataSize, (unsigned)attribute);
    }
    struct common c = {.first = true};
    oacl_registry_rdlock();
    pthread_mutex_lock(&g_lock);
    bool ok = walk_locked((uintptr_t)ptr, size, gather, &c);
    pthread_mutex_unlock(&g_lock);
    oacl_registry_unlock();
    if (!ok)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%s[%p, +%zu) is not inside managed memory (aclrtMemAllocManaged)", what, ptr, size);
    int32_t v[1];
    switch (attribute) {
    case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
        v[0] = c.read_mostly ? 1 : 0;
        break;
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
        v[0] = loc_value(c.pref);
        break;
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
        v[0] = (int32_t)c.pref.type;
        break;
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
        v[0] = loc_id(c.pref);
        break;
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
        v[0] = loc_value(c.prefetch);
        break;
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
        v[0] = (int32_t)c.prefetch.type;
        break;
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
        v[0] = loc_id(c.prefetch);
        break;
    default: {
        /* Accessed-by: devices in ascending order, then NUMA nodes, then
           the host; unused slots -2. */
        size_t n = dataSize / 4, k = 0;
        int32_t *out = data;
        for (int32_t d = 0; d < 64 && k < n; d++)
            if (c.acc_devs & ((uint64_t)1 << d))
                out[k++] = d;
        if (c.acc_numa && k < n)
            out[k++] = 0;
        if (c.acc_host && k < n)
            out[k++] = -1;
        while (k < n)
            out[k++] = -2;
        return ACL_SUCCESS;
    }
    }
    memcpy(data, v, 4);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr, size_t size,
                                         void *data, size_t dataSize)
{
    const char *fn = __func__;
    if (!ptr || !data)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", ptr ? "data" : "ptr");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if (!valid_attr(attribute))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "attribute %u is not an aclrtMemManagedRangeAttribute",
                         (unsigned)attribute);
    aclError rc = oacl_soc_require(MANAGED_FAMILIES, fn);
    if (rc)
        return rc;
    return get_attr(attribute, ptr, size, data, dataSize, "", fn);
}

OACL_API aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes, size_t numAttributes,
                                          const void *ptr, size_t size, void **data, size_t *dataSizes)
{
    const char *fn = __func__;
    if (!attributes || !ptr || !data || !dataSizes)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL",
                         !attributes ? "attributes" : !ptr ? "ptr" : !data ? "data" : "dataSizes");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    for (size_t i = 0; i < numAttributes; i++)
        if (!valid_attr(attributes[i]))
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "attributes[%zu] = %u is not an aclrtMemManagedRangeAttribute", i,
                             (unsigned)attributes[i]);
    aclError rc = oacl_soc_require(MANAGED_FAMILIES, fn);
    if (rc)
        return rc;
    for (size_t i = 0; i < numAttributes; i++) {
        char what[48];
        snprintf(what, sizeof(what), "attributes[%zu]: ", i);
        if (!data[i])
            return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "data[%zu] is NULL", i);
        rc = get_attr(attributes[i], ptr, size, data[i], dataSizes[i], what, fn);
        if (rc)
            return rc;
    }
    return ACL_SUCCESS;
}

/* ---- prefetch ------------------------------------------------------------------------ */

static void note_prefetch(struct mpage *p, void *arg) { p->prefetch = *(const struct loc *)arg; }

OACL_API aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size, aclrtMemManagedLocation location,
                                               uint32_t flags, aclrtStream stream)
{
    const char *fn = __func__;
    if (!ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "ptr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    if (flags != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flags is %u; it must be 0", flags);
    aclError rc = check_loc_kind(location, "location", fn);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    struct loc to;
    rc = oacl_soc_require(MANAGED_FAMILIES, fn);
    if (rc == ACL_SUCCESS)
        rc = norm_loc(location, "location", &to, fn);
    if (rc == ACL_SUCCESS) {
        oacl_registry_rdlock();
        rc = check_range_locked(ptr, size, "range", fn);
        if (rc == ACL_SUCCESS) {
            char err[OACL_BACKEND_ERRLEN] = "";
            int32_t target = target_of(to);
            int brc = oacl_backend()->queue_prefetch(s->queue, &ptr, &size, &target, 1, err);
            if (brc) {
                rc = oacl_fail(brc, fn, "%s", err);
            } else {
                /* The request is what the attribute reports (Decision 5). */
                pthread_mutex_lock(&g_lock);
                walk_locked((uintptr_t)ptr, size, note_prefetch, &to);
                pthread_mutex_unlock(&g_lock);
            }
        }
        oacl_registry_unlock();
    }
    oacl_obj_put(&s->obj);
    return rc;
}

OACL_API aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
                                                    aclrtMemManagedLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                    size_t numPrefetchLocs, uint64_t flags, aclrtStream stream)
{
    const char *fn = __func__;
    if (!ptrs || !sizes || !prefetchLocs || !prefetchLocIdxs)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL",
                         !ptrs ? "ptrs" : !sizes ? "sizes" : !prefetchLocs ? "prefetchLocs" : "prefetchLocIdxs");
    if (count == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "count is 0");
    if (numPrefetchLocs == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "numPrefetchLocs is 0");
    if (flags != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flags is %llu; it must be 0", (unsigned long long)flags);
    if (numPrefetchLocs > count)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "numPrefetchLocs %zu is more than count %zu", numPrefetchLocs,
                         count);
    if (prefetchLocIdxs[0] != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "prefetchLocIdxs[0] is %zu; it must be 0",
                         prefetchLocIdxs[0]);
    for (size_t i = 0; i < count; i++)
        if (!ptrs[i])
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "ptrs[%zu] is NULL", i);
    for (size_t k = 1; k < numPrefetchLocs; k++)
        if (prefetchLocIdxs[k] >= count || prefetchLocIdxs[k] <= prefetchLocIdxs[k - 1])
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "prefetchLocIdxs[%zu] = %zu: indices must increase strictly and stay below count %zu", k,
                             prefetchLocIdxs[k], count);
    for (size_t k = 0; k < numPrefetchLocs; k++) {
        char what[40];
        snprintf(what, sizeof(what), "prefetchLocs[%zu]", k);
        aclError rc = check_loc_kind(prefetchLocs[k], what, fn);
        if (rc)
            return rc;
    }
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    rc = oacl_soc_require(MANAGED_FAMILIES, fn);
    struct loc *locs = NULL;
    int32_t *targets = NULL;
    if (rc == ACL_SUCCESS) {
        locs = malloc(count * sizeof(*locs));
        targets = malloc(count * sizeof(*targets));
        if (!locs || !targets)
            rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for %zu ranges", count);
    }
    /* Every range's location, then every range, before anything is recorded. */
    for (size_t k = 0; rc == ACL_SUCCESS && k < numPrefetchLocs; k++) {
        char what[40];
        snprintf(what, sizeof(what), "prefetchLocs[%zu]", k);
        struct loc l;
        rc = norm_loc(prefetchLocs[k], what, &l, fn);
        size_t stop = k + 1 < numPrefetchLocs ? prefetchLocIdxs[k + 1] : count;
        for (size_t i = prefetchLocIdxs[k]; rc == ACL_SUCCESS && i < stop; i++) {
            locs[i] = l;
            targets[i] = target_of(l);
        }
    }
    if (rc == ACL_SUCCESS) {
        oacl_registry_rdlock();
        for (size_t i = 0; rc == ACL_SUCCESS && i < count; i++) {
            char what[40];
            snprintf(what, sizeof(what), "range %zu", i);
            rc = sizes[i] == 0 ? oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "sizes[%zu] is 0", i)
                               : check_range_locked(ptrs[i], sizes[i], what, fn);
        }
        if (rc == ACL_SUCCESS) {
            char err[OACL_BACKEND_ERRLEN] = "";
            int brc = oacl_backend()->queue_prefetch(s->queue, (const void *const *)ptrs, sizes, targets, count, err);
            if (brc) {
                rc = oacl_fail(brc, fn, "%s", err);
            } else {
                pthread_mutex_lock(&g_lock);
                for (size_t i = 0; i < count; i++)
                    walk_locked((uintptr_t)ptrs[i], sizes[i], note_prefetch, &locs[i]);
                pthread_mutex_unlock(&g_lock);
            }
        }
        oacl_registry_unlock();
    }
    free(locs);
    free(targets);
    oacl_obj_put(&s->obj);
    return rc;
}
