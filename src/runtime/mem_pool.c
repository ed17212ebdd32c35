/*
 * Stream-ordered memory pools (acl/acl_rt_memory_soma.h): aclrtMemPoolCreate,
 * Destroy, SetAttr, GetAttr, MallocAsync, FreeAsync and TrimTo.
 *
 * A pool holds blocks of device memory (multiples of 2 MiB, one dev_alloc
 * each). An allocated block is in the address registry as device memory
 * whose record the block owns, so copies, kernels and
 * aclrtPointerGetAttributes see an ordinary allocation; a freed block leaves
 * the registry at once (later use of the pointer is an error) but stays
 * reserved in the pool, cached for reuse.
 *
 * Stream order. FreeAsync queues a host mark on its stream; the mark runs
 * once the work queued before the free is done. A block with marks still
 * pending may only be handed to the same stream again (that stream's later
 * work follows the free anyway); once every mark has run, any stream may
 * get it, and only then may its memory go back to the device (TrimTo, the
 * release threshold at synchronisations). Marks hold a pool reference, so
 * a destroyed pool's metadata lives until the last of them has run.
 *
 * Locks: g_pools_lock, then a pool's lock, then the registry lock and the
 * device's mem_lock. Marks run on executor threads and take only the pool
 * lock; nothing queues work or waits for a queue while holding a pool lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt_memory_soma.h"
#include "common/addr_registry.h"
#include "common/memcheck.h"
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

#define POOL_GRAIN ((size_t)2 << 20) /* block sizes and capacities are multiples of 2 MiB */
#define NO_STREAM INT32_MIN           /* pending_stream when no mark is pending */
#define MIXED_STREAMS (INT32_MIN + 1) /* ... when pending marks are on several streams */

struct mem_pool;

struct pool_block {
    struct pool_block *prev, *next; /* in pool->blocks while the pool holds the memory */
    struct mem_pool *pool;
    struct oacl_mem_record rec;     /* in the registry while allocated */
    size_t size;
    bool in_use;                    /* allocated to the application */
    bool freeing;                   /* a FreeAsync is queueing its mark: not reusable yet */
    bool orphan;                    /* a mark was dropped unrun: only Destroy releases it */
    bool detached;                  /* taken out by Destroy, which releases the memory */
    bool gone;                      /* detached and released: the last mark frees the struct */
    uint32_t pending;               /* marks queued and not run yet */
    int32_t pending_stream;         /* stream id of all pending marks, or NO_/MIXED_STREAMS */
};

struct mem_pool {
    struct oacl_obj obj;
    pthread_mutex_t lock;
    struct oacl_device *dev;
    uint64_t capacity;              /* limit on reserved */
    uint32_t reuse[3];              /* ACL_RT_MEM_POOL_REUSE_*: stored, reported (Decision 8) */
    uint64_t threshold;             /* ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD */
    uint64_t reserved, reserved_high;
    uint64_t used, used_high;
    bool dead;                      /* destroyed; waits for its last marks */
    struct pool_block *blocks;
    struct mem_pool *gprev, *gnext; /* in g_pools while live */
};

static pthread_mutex_t g_pools_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mem_pool *g_pools;
static uint32_t g_pool_count; /* atomic: live pools, so synchronisations skip the hook cheaply */

/* ---- small helpers ------------------------------------------------------------ */

/* Pools exist on the A2 and A3 families (Decision 8); other profiles answer
 * 207000 after the API-layer checks. */
static aclError pool_feature(const char *fn)
{
    const struct oacl_config *c = oacl_config();
    if (!c->soc)
        return oacl_devices_check(fn);
    const char *n = c->soc->name;
    if (strncmp(n, "Ascend910B", 10) != 0 && strncmp(n, "Ascend910_93", 12) != 0)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn, n);
    return ACL_SUCCESS;
}

static bool round_grain(uint64_t n, uint64_t *out)
{
    if (n > UINT64_MAX - (POOL_GRAIN - 1))
        return false;
    *out = (n + POOL_GRAIN - 1) & ~(uint64_t)(POOL_GRAIN - 1);
    return true;
}

static struct mem_pool *pool_get(aclrtMemPool h)
{
    return (struct mem_pool *)oacl_handle_get(h, OACL_H_MEMPOOL);
}

static void pool_destroy_obj(struct oacl_obj *o)
{
    struct mem_pool *pool = (struct mem_pool *)o;
    /* Every block left with Destroy or with its last mark. */
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

static bool dev_reserve(struct oacl_device *dev, size_t len)
{
    uint64_t cap = oacl_config()->device_memory;
    pthread_mutex_lock(&dev->mem_lock);
    bool ok = dev->mem_used + len <= cap;
    if (ok)
        dev->mem_used += len;
    pthread_mutex_unlock(&dev->mem_lock);
    if (ok) /* memory reserved by pools is the application's (aclrtGetMemUsageInfo) */
        oacl_mem_usage_add(dev->id, OACL_MODULE_APP, len);
    return ok;
}

static void dev_unreserve(struct oacl_device *dev, size_t len)
{
    pthread_mutex_lock(&dev->mem_lock);
    dev->mem_used -= len;
    pthread_mutex_unlock(&dev->mem_lock);
    oacl_mem_usage_sub(dev->id, OACL_MODULE_APP, len);
}

static void list_unlink(struct mem_pool *pool, struct pool_block *b)
{
    if (b->prev)
        b->prev->next = b->next;
    else
        pool->blocks = b->next;
    if (b->next)
        b->next->prev = b->prev;
    b->prev = b->next = NULL;
}

static void list_push(struct mem_pool *pool, struct pool_block *b)
{
    b->prev = NULL;
    b->next = pool->blocks;
    if (pool->blocks)
        pool->blocks->prev = b;
    pool->blocks = b;
}

/* Cached, with every free executed: its memory is no longer used by
 * anything queued, so it may go to any stream or back to the device. */
static bool settled(const struct pool_block *b)
{
    return !b->in_use && !b->freeing && !b->orphan && !b->detached && b->pending == 0;
}

static void note_reserved(struct mem_pool *pool, int64_t delta)
{
    pool->reserved += (uint64_t)delta;
    if (pool->reserved > pool->reserved_high)
        pool->reserved_high = pool->reserved;
}

/* Returns a settled block's memory to the device (pool lock held). */
static void release_locked(struct mem_pool *pool, struct pool_block *b)
{
    list_unlink(pool, b);
    note_reserved(pool, -(int64_t)b->size);
    oacl_backend()->dev_release(pool->dev->bdev, (void *)b->rec.base, b->size);
    dev_unreserve(pool->dev, b->size);
    free(b);
}

/* Releases settled blocks until at most `keep` cached bytes remain (of
 * settled ones when only_settled_count, else of all reserved bytes). */
static void release_down_to_locked(struct mem_pool *pool, uint64_t keep, bool count_settled_only)
{
    uint64_t have = pool->reserved;
    if (count_settled_only) {
        have = 0;
        for (struct pool_block *b = pool->blocks; b; b = b->next)
            if (settled(b))
                have += b->size;
    }
    struct pool_block *b = pool->blocks;
    while (b && have > keep) {
        struct pool_block *next = b->next;
        if (settled(b)) {
            have -= b->size;
            release_locked(pool, b);
        }
        b = next;
    }
}

/* Releases the memory of a block taken out of its pool (detached) the way
 * aclrtFree does, waiting for the device's queued work (no pool lock
 * held); the struct goes now or with its last pending mark. */
static void release_detached(struct mem_pool *pool, struct pool_block *b)
{
    oacl_backend()->dev_free(pool->dev->bdev, (void *)b->rec.base, b->size);
    dev_unreserve(pool->dev, b->size);
    pthread_mutex_lock(&pool->lock);
    b->gone = true;
    bool last = b->pending == 0;
    pthread_mutex_unlock(&pool->lock);
    if (last)
        free(b);
}

/* ---- marks: frees reaching their place in the stream --------------------------------- */

/* After the last pending mark (pool lock held): a destroyed pool lets the
 * block go; the struct of a block Destroy released goes too. True when b
 * was freed. */
static bool after_mark_locked(struct mem_pool *pool, struct pool_block *b)
{
    if (b->pending == 0)
        b->pending_stream = NO_STREAM;
    if (b->gone && b->pending == 0) {
        free(b);
        return true;
    }
    if (pool->dead && settled(b)) {
        release_locked(pool, b);
        return true;
    }
    return false;
}

static void pool_mark_reached(void *arg)
{
    struct pool_block *b = arg;
    struct mem_pool *pool = b->pool;
    pthread_mutex_lock(&pool->lock);
    b->pending--;
    after_mark_locked(pool, b);
    pthread_mutex_unlock(&pool->lock);
    oacl_obj_put(&pool->obj);
}

/* The free never ran, and the work queued before it may still be running:
 * the block can never be proven idle and waits for Destroy. */
static void pool_mark_dropped(void *arg)
{
    struct pool_block *b = arg;
    struct mem_pool *pool = b->pool;
    bool dev_free = false;
    pthread_mutex_lock(&pool->lock);
    b->pending--;
    if (!b->detached && !b->in_use) {
        b->orphan = true;
        if (pool->dead && !b->freeing) {
            /* Destroy already ran: release it here, waiting like aclrtFree. */
            list_unlink(pool, b);
            note_reserved(pool, -(int64_t)b->size);
            b->detached = true;
            dev_free = true;
        }
    }
    if (!dev_free)
        after_mark_locked(pool, b);
    pthread_mutex_unlock(&pool->lock);
    if (dev_free) {
        release_detached(pool, b);
    }
    oacl_obj_put(&pool->obj);
}

/* Memory from the aclrtMalloc family freed with aclrtMemPoolFreeAsync: the
 * mark owns the record (already out of the registry). */
static void plain_mark_reached(void *arg)
{
    struct oacl_mem_record *r = arg;
    struct oacl_device *dev = oacl_device_at(r->device);
    oacl_backend()->dev_release(dev->bdev, (void *)r->base, r->size);
    dev_unreserve(dev, r->size);
    oacl_site_free(r->site);
    free(r);
}

static void plain_mark_dropped(void *arg)
{
    struct oacl_mem_record *r = arg;
    struct oacl_device *dev = oacl_device_at(r->device);
    oacl_backend()->dev_free(dev->bdev, (void *)r->base, r->size); /* waits for queued work */
    dev_unreserve(dev, r->size);
    oacl_site_free(r->site);
    free(r);
}

/* ---- create / destroy -------------------------------------------------------- */

OACL_API aclError aclrtMemPoolCreate(aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps)
{
    const char *fn = __func__;
    if (!memPool || !poolProps)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", memPool ? "poolProps" : "memPool");
    if (poolProps->allocType != ACL_MEM_ALLOCATION_TYPE_PINNED)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "poolProps->allocType %d is not ACL_MEM_ALLOCATION_TYPE_PINNED",
                         (int)poolProps->allocType);
    if (poolProps->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                         "poolProps->location.type %d is not ACL_MEM_LOCATION_TYPE_DEVICE (pools hold device memory)",
                         (int)poolProps->location.type);
    for (size_t i = 0; i < sizeof(poolProps->reserved); i++)
        if (poolProps->reserved[i])
            return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "poolProps->reserved[%zu] is %u; reserved bytes must be 0",
                             i, (unsigned)poolProps->reserved[i]);
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(poolProps->location.id, ACL_ERROR_RT_INVALID_DEVICEID, &dev, fn);
    if (rc)
        return rc;
    rc = oacl_ctx_require(fn);
    if (rc)
        return rc;
    uint64_t total = oacl_config()->device_memory;
    uint64_t cap;
    if (poolProps->maxSize == 0)
        cap = total & ~(uint64_t)(POOL_GRAIN - 1);
    else if (!round_grain(poolProps->maxSize, &cap) || cap > total)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "poolProps->maxSize %zu (rounded up to 2 MiB) exceeds device %d's %llu bytes",
                         poolProps->maxSize, dev->id, (unsigned long long)total);
    rc = pool_feature(fn);
    if (rc)
        return rc;
    pthread_mutex_lock(&dev->lock);
    rc = oacl_device_open_locked(dev, fn); /* the pool's device need not be the current one */
    pthread_mutex_unlock(&dev->lock);
    if (rc)
        return rc;
    struct mem_pool *pool = calloc(1, sizeof(*pool));
    if (!pool)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for a pool");
    pthread_mutex_init(&pool->lock, NULL);
    pool->dev = dev;
    pool->capacity = cap;
    void *h = oacl_handle_create(&pool->obj, OACL_H_MEMPOOL, pool_destroy_obj);
    if (!h) {
        pthread_mutex_destroy(&pool->lock);
        free(pool);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "handle table exhausted");
    }
    pthread_mutex_lock(&g_pools_lock);
    pool->gnext = g_pools;
    if (g_pools)
        g_pools->gprev = pool;
    g_pools = pool;
    __atomic_add_fetch(&g_pool_count, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g_pools_lock);
    *memPool = h;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMemPoolDestroy(const aclrtMemPool memPool)
{
    if (!memPool)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "memPool is NULL");
    aclError rc = pool_feature(__func__);
    if (rc)
        return rc;
    struct mem_pool *pool = pool_get(memPool);
    if (!pool || !oacl_obj_retire(&pool->obj)) {
        if (pool)
            oacl_obj_put(&pool->obj);
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "memPool %p is not a live memory pool", memPool);
    }
    pthread_mutex_lock(&g_pools_lock);
    if (pool->gprev)
        pool->gprev->gnext = pool->gnext;
    else
        g_pools = pool->gnext;
    if (pool->gnext)
        pool->gnext->gprev = pool->gprev;
    __atomic_sub_fetch(&g_pool_count, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g_pools_lock);

    /* Allocated blocks (and orphans) may still be used by queued work:
       they are released like aclrtFree does, after the lock. Settled ones
       go now; blocks with frees still queued go with their last mark. */
    struct pool_block *wait_list = NULL;
    pthread_mutex_lock(&pool->lock);
    pool->dead = true;
    oacl_registry_wrlock();
    for (struct pool_block *b = pool->blocks; b; b = b->next)
        if (b->in_use)
            oacl_registry_remove_locked(OACL_SPACE_ALLOC, b->rec.base);
    oacl_registry_unlock();
    struct pool_block *b = pool->blocks;
    while (b) {
        struct pool_block *next = b->next;
        if ((b->in_use || b->orphan) && !b->freeing) {
            list_unlink(pool, b);
            note_reserved(pool, -(int64_t)b->size);
            b->in_use = false;
            b->detached = true;
            b->next = wait_list;
            wait_list = b;
        } else if (settled(b)) {
            release_locked(pool, b);
        }
        b = next;
    }
    pool->used = 0;
    pthread_mutex_unlock(&pool->lock);
    while (wait_list) {
        b = wait_list;
        wait_list = b->next;
        release_detached(pool, b);
    }
    oacl_obj_put(&pool->obj);
    return ACL_SUCCESS;
}

/* ---- attributes ------------------------------------------------------------------ */

static bool attr_known(aclrtMemPoolAttr attr)
{
    return attr >= ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES && attr <= ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH;
}

OACL_API aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value)
{
    const char *fn = __func__;
    if (!memPool)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "memPool is NULL");
    aclError rc = pool_feature(fn);
    if (rc)
        return rc;
    if (!value)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "value is NULL");
    struct mem_pool *pool = pool_get(memPool);
    if (!pool)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "memPool %p is not a live memory pool", memPool);
    pthread_mutex_lock(&pool->lock);
    uint64_t v64 = 0;
    if (attr_known(attr) && attr >= ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD)
        memcpy(&v64, value, sizeof(v64));
    switch (attr) {
    case ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
    case ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES: {
        uint32_t v32;
        memcpy(&v32, value, sizeof(v32));
        pool->reuse[attr - ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES] = v32 != 0;
        break;
    }
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "attribute %d is read-only", (int)attr);
        break;
    case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
        if (v64 > pool->capacity)
            rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn,
                           "release threshold %llu exceeds the pool's capacity of %llu bytes",
                           (unsigned long long)v64, (unsigned long long)pool->capacity);
        else
            pool->threshold = v64;
        break;
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
        if (v64 != 0)
            rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn,
                           "attribute %d only accepts 0 (reset the peak to the current value), not %llu", (int)attr,
                           (unsigned long long)v64);
        else if (attr == ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH)
            pool->reserved_high = pool->reserved;
        else
            pool->used_high = pool->used;
        break;
    default:
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "attr %d is not an aclrtMemPoolAttr (1..8)", (int)attr);
        break;
    }
    pthread_mutex_unlock(&pool->lock);
    oacl_obj_put(&pool->obj);
    return rc;
}

OACL_API aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value)
{
    const char *fn = __func__;
    if (!memPool)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "memPool is NULL");
    aclError rc = pool_feature(fn);
    if (rc)
        return rc;
    if (!value)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "value is NULL");
    struct mem_pool *pool = pool_get(memPool);
    if (!pool)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "memPool %p is not a live memory pool", memPool);
    if (!attr_known(attr)) {
        oacl_obj_put(&pool->obj);
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "attr %d is not an aclrtMemPoolAttr (1..8)", (int)attr);
    }
    pthread_mutex_lock(&pool->lock);
    uint64_t v = 0;
    switch (attr) {
    case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD: v = pool->threshold; break;
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT: v = pool->reserved; break;
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH: v = pool->reserved_high; break;
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT: v = pool->used; break;
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH: v = pool->used_high; break;
    default: {
        uint32_t v32 = pool->reuse[attr - ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES];
        pthread_mutex_unlock(&pool->lock);
        oacl_obj_put(&pool->obj);
        memcpy(value, &v32, sizeof(v32));
        return ACL_SUCCESS;
    }
    }
    pthread_mutex_unlock(&pool->lock);
    oacl_obj_put(&pool->obj);
    memcpy(value, &v, sizeof(v));
    return ACL_SUCCESS;
}

/* ---- allocation -------------------------------------------------------------------- */

/* The smallest cached block of at least `need` bytes that stream `sid` may
 * take: settled, or with every pending free queued on sid itself. */
static struct pool_block *pick_locked(struct mem_pool *pool, size_t need, int32_t sid)
{
    struct pool_block *best = NULL;
    for (struct pool_block *b = pool->blocks; b; b = b->next) {
        if (b->in_use || b->freeing || b->orphan || b->size < need || (best && b->size >= best->size))
            continue;
        if (b->pending == 0 || b->pending_stream == sid)
            best = b;
    }
    return best;
}

/* A new block of `need` bytes (pool lock held); cached settled blocks are
 * given back first when the pool or the device has no room left. */
static aclError grow_locked(struct mem_pool *pool, size_t need, struct pool_block **out, const char *fn)
{
    for (int attempt = 0;; attempt++) {
        bool pool_room = pool->reserved + need <= pool->capacity;
        if (pool_room && dev_reserve(pool->dev, need))
            break;
        if (attempt == 0) {
            release_down_to_locked(pool, 0, true);
            continue;
        }
        if (!pool_room)
            return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn,
                             "the pool is exhausted: %zu bytes asked, %llu of its %llu bytes reserved", need,
                             (unsigned long long)pool->reserved, (unsigned long long)pool->capacity);
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "device %d is out of memory for a %zu-byte pool block",
                         pool->dev->id, need);
    }
    struct pool_block *b = calloc(1, sizeof(*b));
    char err[OACL_BACKEND_ERRLEN] = "";
    void *p = NULL;
    int brc = b ? oacl_backend()->dev_alloc(pool->dev->bdev, need, POOL_GRAIN, &p, err)
                : ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (brc) {
        free(b);
        dev_unreserve(pool->dev, need);
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "cannot reserve %zu bytes on device %d: %s", need,
                         pool->dev->id, b ? err : "out of memory");
    }
    b->pool = pool;
    b->size = need;
    b->rec.base = (uintptr_t)p;
    b->rec.size = need;
    b->rec.kind = OACL_MEM_DEVICE;
    b->rec.device = pool->dev->id;
    b->rec.flags = ACL_MEM_MALLOC_HUGE_ONLY; /* 2 MiB pages, as CANN's pools */
    b->rec.pool_block = b;
    b->pending_stream = NO_STREAM;
    list_push(pool, b);
    note_reserved(pool, (int64_t)need);
    *out = b;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, aclrtMemPool memPool, aclrtStream stream)
{
    const char *fn = __func__;
    if (!ptr || !memPool || !stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL%s", !ptr ? "ptr" : !memPool ? "memPool" : "stream",
                         ptr && memPool ? " (the default stream is not accepted)" : "");
    aclError rc = pool_feature(fn);
    if (rc || size == 0)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    struct mem_pool *pool = pool_get(memPool);
    uint64_t need = 0;
    if (!pool)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "memPool %p is not a live memory pool", memPool);
    else if (pool->dev != s->ctx->dev)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the pool holds memory of device %d, the stream is on device %d",
                       pool->dev->id, s->ctx->dev->id);
    else if (!round_grain(size, &need) || need > pool->capacity)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "%zu bytes exceed the pool's capacity of %llu bytes", size,
                       (unsigned long long)pool->capacity);
    if (rc == ACL_SUCCESS) {
        pthread_mutex_lock(&pool->lock);
        struct pool_block *b = pool->dead ? NULL : pick_locked(pool, (size_t)need, s->id);
        if (pool->dead)
            rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "memPool %p was destroyed meanwhile", memPool);
        else if (!b)
            rc = grow_locked(pool, (size_t)need, &b, fn);
        if (rc == ACL_SUCCESS) {
            b->rec.user_size = size;
            oacl_registry_wrlock();
            int ins = oacl_registry_insert_locked(OACL_SPACE_ALLOC, &b->rec);
            oacl_registry_unlock();
            if (ins) {
                rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "cannot record the allocation (%d)", ins);
            } else {
                b->in_use = true;
                pool->used += b->size;
                if (pool->used > pool->used_high)
                    pool->used_high = pool->used;
                *ptr = (void *)b->rec.base;
            }
        }
        pthread_mutex_unlock(&pool->lock);
    }
    if (pool)
        oacl_obj_put(&pool->obj);
    oacl_obj_put(&s->obj);
    return rc;
}

/* ---- free -------------------------------------------------------------------------- */

/* A pointer in no registry record: a freed pool block (507000) or memory
 * the runtime does not know (107000). */
static aclError unknown_pointer(void *ptr, const char *fn)
{
    uintptr_t p = (uintptr_t)ptr;
    bool in_pool = false, is_base = false;
    pthread_mutex_lock(&g_pools_lock);
    for (struct mem_pool *pool = g_pools; pool && !in_pool; pool = pool->gnext) {
        pthread_mutex_lock(&pool->lock);
        for (struct pool_block *b = pool->blocks; b; b = b->next)
            if (p >= b->rec.base && p - b->rec.base < b->size) {
                in_pool = true;
                is_base = p == b->rec.base;
                break;
            }
        pthread_mutex_unlock(&pool->lock);
    }
    pthread_mutex_unlock(&g_pools_lock);
    if (in_pool)
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, is_base ? "%p is a pool block that is already freed"
                                                                  : "%p is inside a freed pool block, not a block base",
                         ptr);
    return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                     "%p is neither a pool block nor a live allocation of the aclrtMalloc family", ptr);
}

/* aclrtMalloc-family memory: out of the registry now, released when the
 * stream reaches the free. */
static aclError free_plain(void *ptr, struct oacl_stream *s, const char *fn)
{
    uintptr_t p = (uintptr_t)ptr;
    aclError rc = ACL_SUCCESS;
    oacl_registry_wrlock();
    struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, p);
    if (!r)
        rc = ACL_ERROR_RT_PARAM_INVALID; /* freed meanwhile: reported below */
    else if (r->kind != OACL_MEM_DEVICE)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is not device memory of the aclrtMalloc family%s", ptr,
                       r->kind == OACL_MEM_HOST_PINNED ? " (it is pinned host memory)" : "");
    else if (r->origin != OACL_MEM_ORIGIN_ALLOC)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "%p is not an allocation of the aclrtMalloc family (a device variable, imported IPC memory or "
                       "a virtual-memory mapping)",
                       ptr);
    else if (r->base != p)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p points inside the allocation at %p; pass its base", ptr,
                       (void *)r->base);
    else if (r->device != s->ctx->dev->id)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is memory of device %d, the stream is on device %d", ptr,
                       r->device, s->ctx->dev->id);
    else
        oacl_registry_remove_locked(OACL_SPACE_ALLOC, p);
    oacl_registry_unlock();
    if (rc)
        return r ? rc : unknown_pointer(ptr, fn);
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->queue_host_mark(s->queue, plain_mark_reached, plain_mark_dropped, r, err);
    if (brc) {
        oacl_registry_wrlock();
        oacl_registry_insert_locked(OACL_SPACE_ALLOC, r); /* its range is still free */
        oacl_registry_unlock();
        return oacl_fail(brc, fn, "%s", err);
    }
    return ACL_SUCCESS;
}

static aclError free_block(struct mem_pool *pool, struct pool_block *b, void *ptr, struct oacl_stream *s,
                           const char *fn)
{
    uintptr_t p = (uintptr_t)ptr;
    pthread_mutex_lock(&pool->lock);
    /* Still allocated? (A concurrent free or Destroy may have got there.) */
    oacl_registry_wrlock();
    bool live = !pool->dead && oacl_registry_find_locked(OACL_SPACE_ALLOC, p) == &b->rec;
    bool same_dev = pool->dev == s->ctx->dev;
    if (live && same_dev)
        oacl_registry_remove_locked(OACL_SPACE_ALLOC, p);
    oacl_registry_unlock();
    if (!live || !same_dev) {
        pthread_mutex_unlock(&pool->lock);
        if (!live)
            return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "%p is a pool block that is already freed", ptr);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is memory of device %d, the stream is on device %d", ptr,
                         pool->dev->id, s->ctx->dev->id);
    }
    b->in_use = false;
    b->freeing = true;
    pool->used -= b->size;
    int32_t sid = s->id;
    b->pending_stream = b->pending == 0 ? sid : b->pending_stream == sid ? sid : MIXED_STREAMS;
    b->pending++;
    pthread_mutex_unlock(&pool->lock);

    /* The mark may run (and even be the last) before this returns: it must
       be queued without the pool lock, and `freeing` keeps the block out of
       everyone's hands until the outcome is known. */
    oacl_obj_ref(&pool->obj); /* the mark's */
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->queue_host_mark(s->queue, pool_mark_reached, pool_mark_dropped, b, err);
    bool dev_free = false;
    pthread_mutex_lock(&pool->lock);
    b->freeing = false;
    if (brc) {
        b->pending--;
        if (pool->dead) {
            /* Destroyed meanwhile: let the memory go, waiting for the work
               that may use it (nothing stream-ordered will). */
            list_unlink(pool, b);
            note_reserved(pool, -(int64_t)b->size);
            b->detached = true;
            dev_free = true;
        } else {
            oacl_registry_wrlock();
            int ins = oacl_registry_insert_locked(OACL_SPACE_ALLOC, &b->rec);
            oacl_registry_unlock();
            if (ins == 0) {
                b->in_use = true; /* as before the call */
                pool->used += b->size;
            } else {
                b->orphan = true;
            }
        }
    } else if (pool->dead && settled(b)) {
        release_locked(pool, b); /* Destroy ran meanwhile and the mark too */
    }
    pthread_mutex_unlock(&pool->lock);
    if (dev_free) {
        release_detached(pool, b);
    }
    if (brc) {
        oacl_obj_put(&pool->obj); /* the mark's, never queued */
        return oacl_fail(brc, fn, "%s", err);
    }
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream)
{
    const char *fn = __func__;
    if (!ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "ptr is NULL");
    aclError rc = pool_feature(fn);
    if (rc)
        return rc;
    if (!stream)
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "stream is NULL (the default stream is not accepted)");
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    uintptr_t p = (uintptr_t)ptr;
    struct mem_pool *pool = NULL;
    struct pool_block *b = NULL;
    bool known = false;
    uintptr_t base = 0;
    oacl_registry_rdlock();
    const struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, p);
    if (r) {
        known = true;
        base = r->base;
        b = r->pool_block;
        if (b && base == p) {
            /* The record is in the registry, so Destroy has not finished
               with the pool: a reference keeps it for what follows. */
            pool = b->pool;
            oacl_obj_ref(&pool->obj);
        }
    }
    oacl_registry_unlock();
    if (!known)
        rc = unknown_pointer(ptr, fn);
    else if (b && !pool)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "%p is inside the pool block at %p, not a block base", ptr,
                       (void *)base);
    else if (pool)
        rc = free_block(pool, b, ptr, s, fn);
    else
        rc = free_plain(ptr, s, fn);
    if (pool)
        oacl_obj_put(&pool->obj);
    oacl_obj_put(&s->obj);
    return rc;
}

/* ---- trimming ------------------------------------------------------------------------ */

OACL_API aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep)
{
    const char *fn = __func__;
    if (!memPool)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "memPool is NULL");
    aclError rc = pool_feature(fn);
    if (rc)
        return rc;
    struct mem_pool *pool = pool_get(memPool);
    if (!pool)
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "memPool %p is not a live memory pool", memPool);
    pthread_mutex_lock(&pool->lock);
    if (minBytesToKeep > pool->capacity)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "minBytesToKeep %zu exceeds the pool's capacity of %llu bytes",
                       minBytesToKeep, (unsigned long long)pool->capacity);
    else if (minBytesToKeep < pool->used)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn,
                       "minBytesToKeep %zu is below the %llu bytes the application holds", minBytesToKeep,
                       (unsigned long long)pool->used);
    else
        release_down_to_locked(pool, minBytesToKeep, false);
    pthread_mutex_unlock(&pool->lock);
    oacl_obj_put(&pool->obj);
    return rc;
}

void oacl_mem_pool_on_sync(struct oacl_device *dev)
{
    if (__atomic_load_n(&g_pool_count, __ATOMIC_ACQUIRE) == 0)
        return;
    pthread_mutex_lock(&g_pools_lock);
    for (struct mem_pool *pool = g_pools; pool; pool = pool->gnext) {
        if (pool->dev != dev)
            continue;
        pthread_mutex_lock(&pool->lock);
        release_down_to_locked(pool, pool->threshold, true);
        pthread_mutex_unlock(&pool->lock);
    }
    pthread_mutex_unlock(&g_pools_lock);
}
