/*
 * Streams: aclrtCreateStream / DestroyStream(Force) / SynchronizeStream.
 * A stream is a handle over one backend queue; NULL means the default
 * stream of the calling thread's current context.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

static void stream_destroy(struct oacl_obj *o)
{
    struct oacl_stream *s = (struct oacl_stream *)o;
    /* Last reference: nothing can queue work on it any more. */
    oacl_ri_persistent_release(s); /* a persistent stream's own queue comes back */
    oacl_backend()->queue_destroy(s->queue);
    oacl_stream_host_release(s);
    __atomic_sub_fetch(&s->ctx->dev->streams, 1, __ATOMIC_RELAXED);
    if (!s->is_default)
        oacl_obj_put(&s->ctx->obj);
    free(s);
}

aclError oacl_stream_create(struct oacl_context *ctx, bool is_default, uint32_t priority, uint32_t flags,
                            struct oacl_stream **out, void **handle_out, const char *fn)
{
    struct oacl_device *dev = ctx->dev;
    if (!is_default)
        oacl_snapshot_gate();
    aclError grc = oacl_group_stream_check(dev, is_default, fn); /* 107013: several groups, none chosen */
    if (grc)
        return grc;
    if (!is_default)
        oacl_stream_reap(ctx, false); /* finished force-destroyed streams count no more */
    if (__atomic_add_fetch(&dev->streams, 1, __ATOMIC_RELAXED) > OACL_MAX_STREAMS_PER_DEVICE) {
        __atomic_sub_fetch(&dev->streams, 1, __ATOMIC_RELAXED);
        return oacl_fail(ACL_ERROR_RT_NO_STREAM_RESOURCE, fn, "device %d already has %u streams", dev->id,
                         OACL_MAX_STREAMS_PER_DEVICE);
    }
    struct oacl_stream *s = calloc(1, sizeof(*s));
    if (!s) {
        __atomic_sub_fetch(&dev->streams, 1, __ATOMIC_RELAXED);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for a stream");
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    int rc = oacl_backend()->queue_create(dev->bdev, &ctx->fail, &s->queue, err);
    if (rc) {
        free(s);
        __atomic_sub_fetch(&dev->streams, 1, __ATOMIC_RELAXED);
        return oacl_fail(rc, fn, "%s", err);
    }
    /* A created stream keeps its context alive; the default stream is owned
       by its context instead (no reference cycle). */
    if (!is_default)
        oacl_obj_ref(&ctx->obj);
    s->ctx = ctx;
    s->is_default = is_default;
    s->priority = priority;
    s->flags = flags;
    s->sat_mode = oacl_overflow_sat_mode();
    s->id = (int32_t)__atomic_fetch_add(&dev->next_stream_id, 1, __ATOMIC_RELAXED);
    oacl_backend()->queue_set_id(s->queue, s->id); /* traces and dumps name the stream */
    /* The handle value is kept here: once the stream is linked into its
       context, a concurrent teardown may retire and free it at any time. */
    void *handle = oacl_handle_create(&s->obj, OACL_H_STREAM, stream_destroy);
    if (!handle) {
        oacl_backend()->queue_destroy(s->queue);
        if (!is_default)
            oacl_obj_put(&ctx->obj);
        free(s);
        __atomic_sub_fetch(&dev->streams, 1, __ATOMIC_RELAXED);
        return oacl_fail(ACL_ERROR_RT_NO_STREAM_RESOURCE, fn, "handle table exhausted");
    }
    s->handle = handle;
    if (!is_default) {
        pthread_mutex_lock(&ctx->lock);
        bool dead = __atomic_load_n(&ctx->dead, __ATOMIC_ACQUIRE);
        if (!dead) {
            s->next = ctx->streams;
            if (ctx->streams)
                ctx->streams->prev = s;
            ctx->streams = s;
        }
        pthread_mutex_unlock(&ctx->lock);
        if (dead) {
            /* The context is being destroyed (device reset on another
               thread): the stream must not outlive it. */
            oacl_obj_retire(&s->obj);
            return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, fn, "the current context was destroyed meanwhile");
        }
    }
    if (out)
        *out = s;
    if (handle_out)
        *handle_out = handle;
    if (!is_default) /* default streams: told by their context's creator, outside its locks */
        oacl_ctl_stream_created(handle);
    return ACL_SUCCESS;
}

/* In ACL_STOP_ON_FAILURE mode, a context that saw a failure takes no more
 * work (the reference on s is dropped when refusing). */
static aclError stopped_check(struct oacl_stream *s, const char *fn)
{
    oacl_snapshot_gate(); /* every submission: a locked process queues nothing */
    aclError ctl = oacl_ctl_stream_check(s, fn); /* device task abort, stream abort */
    if (ctl) {
        oacl_obj_put(&s->obj);
        return ctl;
    }
    int err = __atomic_load_n(&s->ctx->fail.error, __ATOMIC_ACQUIRE);
    if (!err)
        return ACL_SUCCESS;
    oacl_obj_put(&s->obj);
    return oacl_fail(err, fn, "the stream's context stopped after a task failed (ACL_STOP_ON_FAILURE)");
}

aclError oacl_stream_arg(aclrtStream stream, enum oacl_stream_use use, struct oacl_stream **out, const char *fn)
{
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    rc = oacl_stream_resolve(ctx, stream, use, out, fn);
    oacl_obj_put(&ctx->obj);
    return rc;
}

aclError oacl_stream_resolve(struct oacl_context *ctx, aclrtStream stream, enum oacl_stream_use use,
                             struct oacl_stream **out, const char *fn)
{
    if (!stream) {
        struct oacl_stream *ds = ctx->default_stream;
        oacl_obj_ref(&ds->obj);
        *out = ds;
        if (use != OACL_STREAM_ENQUEUE && use != OACL_STREAM_LAUNCH)
            return ACL_SUCCESS;
        oacl_ri_forget_enqueue(); /* default streams never capture */
        return stopped_check(ds, fn);
    }
    enum oacl_htype type;
    struct oacl_obj *o = oacl_handle_get_any(stream, &type);
    if (!o || type != OACL_H_STREAM) {
        if (o)
            oacl_obj_put(o);
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "stream %p is not a live stream handle%s", stream,
                         o ? " (it is a handle of another kind)" : "");
    }
    struct oacl_stream *s = (struct oacl_stream *)o;
    if (use != OACL_STREAM_QUERY && s->ctx != ctx) {
        oacl_obj_put(o);
        return oacl_fail(ACL_ERROR_RT_STREAM_CONTEXT, fn,
                         "stream %p belongs to another context (device %d); make its context current", stream,
                         s->ctx->dev->id);
    }
    bool enqueue = use == OACL_STREAM_ENQUEUE || use == OACL_STREAM_LAUNCH;
    if (__builtin_expect(enqueue && s->ri_internal, 0)) {
        oacl_obj_put(o); /* model_ri.c: an RI's own streams only replay */
        return oacl_fail(ACL_ERROR_RT_STREAM_MODEL, fn, "stream %p belongs to a model running instance", stream);
    }
    if (__builtin_expect((use == OACL_STREAM_ENQUEUE && s->ri_update) || (enqueue && s->ri_capture), 0)) {
        /* task groups, task update */
        aclError rc = oacl_ri_enqueue_check(s, use == OACL_STREAM_LAUNCH, fn);
        if (rc) {
            oacl_obj_put(o);
            return rc;
        }
    }
    *out = s;
    if (!enqueue)
        return ACL_SUCCESS;
    if (__builtin_expect(s->ri_capture != NULL, 0))
        oacl_ri_note_enqueue(s); /* aclrtCacheLastTaskOpInfo */
    else
        oacl_ri_forget_enqueue();
    return stopped_check(s, fn);
}

/* Takes s out of its context's list of live streams (ctx lock held). */
static void unlink_locked(struct oacl_stream **list, struct oacl_stream *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else if (*list == s)
        *list = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->next = s->prev = NULL;
}

bool oacl_stream_teardown(struct oacl_stream *s)
{
    oacl_ctl_stream_destroying(s); /* DESTROY_PRE observers, while the handle works */
    /* Retiring first makes this the only teardown and stops new work:
       launches on the handle fail from here on. */
    if (!oacl_obj_retire(&s->obj))
        return false;
    if (oacl_backend()->queue_stopped(s->queue)) /* aclrtStreamStop: its queued work never runs */
        oacl_backend()->queue_abort(s->queue, -1);
    oacl_allocator_forget_stream(s->handle);
    if (!s->is_default) {
        struct oacl_context *ctx = s->ctx;
        pthread_mutex_lock(&ctx->lock);
        unlink_locked(&ctx->streams, s);
        pthread_mutex_unlock(&ctx->lock);
    }
    /* Wait for the work already queued; a failure it had goes with the
       stream. */
    char err[OACL_BACKEND_ERRLEN];
    oacl_backend()->queue_sync(s->queue, -1, err);
    return true;
}

bool oacl_stream_release_async(struct oacl_stream *s)
{
    oacl_ctl_stream_destroying(s);
    if (!oacl_obj_retire(&s->obj))
        return false;
    if (oacl_backend()->queue_stopped(s->queue)) /* Correction C1: a stopped stream's queue is dropped */
        oacl_backend()->queue_abort(s->queue, -1);
    oacl_allocator_forget_stream(s->handle);
    /* As on a device, the tasks already submitted run on: the draining
       list keeps the stream (queue, host thread) until they are done, and
       frees of memory they use, resets, finalize and exit wait for them. */
    struct oacl_context *ctx = s->ctx;
    oacl_obj_ref(&s->obj);
    pthread_mutex_lock(&ctx->lock);
    unlink_locked(&ctx->streams, s);
    s->next = ctx->draining;
    if (ctx->draining)
        ctx->draining->prev = s;
    ctx->draining = s;
    pthread_mutex_unlock(&ctx->lock);
    oacl_stream_reap(ctx, false);
    return true;
}

void oacl_stream_reap(struct oacl_context *ctx, bool wait)
{
    const struct oacl_backend_ops *be = oacl_backend();
    for (;;) {
        struct oacl_stream *s;
        pthread_mutex_lock(&ctx->lock);
        for (s = ctx->draining; s && !wait && !be->queue_idle(s->queue); s = s->next)
            ;
        if (s)
            unlink_locked(&ctx->draining, s);
        pthread_mutex_unlock(&ctx->lock);
        if (!s)
            return;
        char err[OACL_BACKEND_ERRLEN];
        be->queue_sync(s->queue, -1, err); /* a failure goes with the stream; kernel output is flushed */
        /* Drained: stop its host thread before the queue can be freed (the
           thread that finished the last host function may still be leaving
           the queue's bookkeeping). */
        oacl_stream_host_release(s);
        oacl_obj_put(&s->obj);
    }
}

aclError oacl_stream_sync(struct oacl_stream *s, int64_t timeout_ns, const char *fn)
{
    aclError ctl = oacl_ctl_stream_check(s, fn);
    if (ctl)
        return ctl;
    if (__builtin_expect(s->ri_capture != NULL, 0)) /* model_ri.c: 107027 */
        return oacl_ri_stream_check(s, fn);
    char err[OACL_BACKEND_ERRLEN] = "";
    int rc = oacl_backend()->queue_sync(s->queue, timeout_ns, err);
    oacl_mem_pool_on_sync(s->ctx->dev); /* pools' release threshold */
    if (rc == 0 || rc == ACL_ERROR_RT_STREAM_ABORT) {
        /* A wait that a device task abort or a stream abort ended (its
           queue emptied under it) reports the abort: 107022 / 107023. */
        aclError ctl = oacl_ctl_stream_check(s, fn);
        if (ctl)
            return ctl;
    }
    if (rc) {
        if (rc != ACL_ERROR_RT_STREAM_ABORT) /* a stopped stream is no device fault */
            oacl_device_note_fault(s->ctx->dev, rc); /* for aclrtGetErrorVerbose */
        return oacl_fail(rc, fn, "%s", err);
    }
    int stopped = __atomic_load_n(&s->ctx->fail.error, __ATOMIC_ACQUIRE);
    if (stopped) /* sticky for the whole context */
        return oacl_fail(stopped, fn, "the stream's context stopped after a task failed (ACL_STOP_ON_FAILURE)");
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCreateStream(aclrtStream *stream)
{
    OACL_PROF_API("StreamCreate");
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    void *handle = NULL;
    rc = oacl_stream_create(ctx, false, 0, 0, NULL, &handle, __func__);
    oacl_obj_put(&ctx->obj);
    if (rc == ACL_SUCCESS)
        *stream = handle;
    return rc;
}

static aclError destroy_stream(aclrtStream stream, bool force, const char *fn)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "stream is NULL (the default stream cannot be destroyed)");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_OWN, &s, fn);
    if (rc == ACL_SUCCESS) {
        if (s->is_default)
            rc = oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "stream %p is a default stream, which cannot be destroyed",
                           stream);
        else if ((rc = oacl_ri_stream_check(s, fn)) != ACL_SUCCESS) /* capturing, or an RI's own stream */
            ;
        else if (!(force ? oacl_stream_release_async(s) : oacl_stream_teardown(s)))
            rc = oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "stream %p was destroyed concurrently", stream);
        oacl_obj_put(&s->obj);
    }
    return rc;
}

OACL_API aclError aclrtDestroyStream(aclrtStream stream) {
    OACL_PROF_API("StreamDestroy");
    return destroy_stream(stream, false, __func__);
}

OACL_API aclError aclrtDestroyStreamForce(aclrtStream stream) {
    OACL_PROF_API("StreamDestroy");
    return destroy_stream(stream, true, __func__);
}

OACL_API aclError aclrtSynchronizeStream(aclrtStream stream)
{
    OACL_PROF_API("StreamSynchronize");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_QUERY, &s, __func__);
    if (rc == ACL_SUCCESS) {
        rc = oacl_stream_sync(s, -1, __func__);
        oacl_obj_put(&s->obj);
    }
    return rc;
}

/* ---- stream configuration and queries ------------------------------------- */

#define STREAM_FLAGS_STORED (ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_HUGE)
#define STREAM_FLAGS_REFUSED (ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY)

static aclError create_configured(aclrtStream *stream, uint32_t priority, uint64_t flag, const char *fn)
{
    if (flag & STREAM_FLAGS_REFUSED)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "flag 0x%llx: CPU-scheduled and device-only streams are not supported",
                         (unsigned long long)flag);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    void *handle = NULL;
    /* Priorities are stored (0 highest .. 7); undefined flag bits are dropped. */
    rc = oacl_stream_create(ctx, false, priority > 7 ? 7 : priority, (uint32_t)(flag & STREAM_FLAGS_STORED), NULL,
                            &handle, fn);
    if (rc == ACL_SUCCESS && (flag & ACL_STREAM_PERSISTENT)) {
        rc = oacl_ri_persistent_init(handle, fn); /* model_ri_built.c: records, never runs */
        if (rc) {
            struct oacl_obj *o = oacl_handle_get(handle, OACL_H_STREAM);
            if (o) {
                oacl_stream_teardown((struct oacl_stream *)o);
                oacl_obj_put(o);
            }
        }
    }
    oacl_obj_put(&ctx->obj);
    if (rc == ACL_SUCCESS)
        *stream = handle;
    return rc;
}

OACL_API aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    OACL_PROF_API("StreamCreate");
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    return create_configured(stream, priority, flag, __func__);
}

/* Live configuration handles: they are plain structures the caller can
 * read, so only this list tells a live one from a freed one. */
static pthread_mutex_t g_cfg_lock = PTHREAD_MUTEX_INITIALIZER;
struct cfg_node {
    aclrtStreamConfigHandle cfg;
    struct cfg_node *next;
};
static struct cfg_node *g_cfgs;

static bool cfg_live_locked(const aclrtStreamConfigHandle *h)
{
    for (struct cfg_node *n = g_cfgs; n; n = n->next)
        if (&n->cfg == h)
            return true;
    return false;
}

OACL_API aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void)
{
    struct cfg_node *n = calloc(1, sizeof(*n));
    if (!n) {
        oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "out of memory");
        return NULL;
    }
    pthread_mutex_lock(&g_cfg_lock);
    n->next = g_cfgs;
    g_cfgs = n;
    pthread_mutex_unlock(&g_cfg_lock);
    return &n->cfg;
}

OACL_API aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
    if (!handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "handle is NULL");
    pthread_mutex_lock(&g_cfg_lock);
    struct cfg_node **link = &g_cfgs;
    while (*link && &(*link)->cfg != handle)
        link = &(*link)->next;
    struct cfg_node *n = *link;
    if (n)
        *link = n->next;
    pthread_mutex_unlock(&g_cfg_lock);
    if (!n)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%p is not a live stream configuration handle",
                         (void *)handle);
    free(n);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                          const void *attrValue, size_t valueSize)
{
    if (!handle || !attrValue)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", handle ? "attrValue" : "handle");
    static const size_t sizes[] = {sizeof(void *), sizeof(size_t), sizeof(size_t), sizeof(uint32_t)};
    if ((unsigned)attr > ACL_RT_STREAM_PRIORITY)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "attr %d is not an aclrtStreamConfigAttr", (int)attr);
    /* The flag word is taken as uint32_t or size_t: programs pass either. */
    bool flag_u32 = attr == ACL_RT_STREAM_FLAG && valueSize == sizeof(uint32_t);
    if (valueSize != sizes[attr] && !flag_u32)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "valueSize %zu for attr %d; it must be %zu", valueSize,
                         (int)attr, sizes[attr]);
    pthread_mutex_lock(&g_cfg_lock);
    bool live = cfg_live_locked(handle);
    pthread_mutex_unlock(&g_cfg_lock);
    if (!live)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%p is not a live stream configuration handle",
                         (void *)handle);
    switch (attr) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
        memcpy(&handle->workptr, attrValue, sizeof(void *));
        break;
    case ACL_RT_STREAM_WORK_SIZE:
        memcpy(&handle->workSize, attrValue, sizeof(size_t));
        break;
    case ACL_RT_STREAM_FLAG:
        if (flag_u32) {
            uint32_t f;
            memcpy(&f, attrValue, sizeof(f));
            handle->flag = f;
        } else {
            memcpy(&handle->flag, attrValue, sizeof(size_t));
        }
        break;
    case ACL_RT_STREAM_PRIORITY: {
        uint32_t p;
        memcpy(&p, attrValue, sizeof(p));
        if (p > 7)
            return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "priority %u is above 7", p);
        handle->priority = p;
        break;
    }
    }
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle)
{
    OACL_PROF_API("StreamCreate");
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    aclrtStreamConfigHandle cfg = {0};
    if (handle) {
        pthread_mutex_lock(&g_cfg_lock);
        bool live = cfg_live_locked(handle);
        if (live)
            cfg = *handle;
        pthread_mutex_unlock(&g_cfg_lock);
        if (!live)
            return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%p is not a live stream configuration handle",
                             (const void *)handle);
    }
    return create_configured(stream, cfg.priority, cfg.flag, __func__);
}


OACL_API aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority)
{
    if (!priority)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "priority is NULL");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_QUERY, &s, __func__);
    if (rc == ACL_SUCCESS) {
        *priority = __atomic_load_n(&s->priority, __ATOMIC_ACQUIRE); /* aclrtSetStreamAttribute may change it */
        oacl_obj_put(&s->obj);
    }
    return rc;
}

OACL_API aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags)
{
    if (!flags)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "flags is NULL");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_QUERY, &s, __func__);
    if (rc == ACL_SUCCESS) {
        *flags = s->flags;
        oacl_obj_put(&s->obj);
    }
    return rc;
}

OACL_API aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)
{
    if (!streamId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "streamId is NULL");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_QUERY, &s, __func__);
    if (rc == ACL_SUCCESS) {
        *streamId = s->id;
        oacl_obj_put(&s->obj);
    }
    return rc;
}

OACL_API aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
    if (!status)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "status is NULL");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_QUERY, &s, __func__);
    if (rc == ACL_SUCCESS) {
        /* A stopped stream never completes until it is aborted. */
        const struct oacl_backend_ops *be = oacl_backend();
        if (s->ri_capture) /* 107027 */
            rc = oacl_ri_stream_check(s, __func__);
        else
            *status = be->queue_idle(s->queue) && !be->queue_stopped(s->queue) ? ACL_STREAM_STATUS_COMPLETE
                                                                               : ACL_STREAM_STATUS_NOT_READY;
        oacl_obj_put(&s->obj);
    }
    return rc;
}

OACL_API aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
    OACL_PROF_API("StreamSynchronize");
    if (timeout == 0 || timeout < -1)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "timeout %d: use -1 (no limit) or a positive number of ms", timeout);
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_QUERY, &s, __func__);
    if (rc == ACL_SUCCESS) {
        rc = oacl_stream_sync(s, timeout < 0 ? -1 : (int64_t)timeout * 1000000, __func__);
        oacl_obj_put(&s->obj);
    }
    return rc;
}

OACL_API aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_QUERY, &s, __func__);
    if (rc)
        return rc;
    /* Only bit 0 counts. The mode holds for every stream of the context. */
    uint32_t stop = (uint32_t)(mode & ACL_STOP_ON_FAILURE);
    uint32_t cur = __atomic_load_n(&s->ctx->fail.stop_on_failure, __ATOMIC_ACQUIRE);
    if (cur && !stop)
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                       "the context is in ACL_STOP_ON_FAILURE mode, which cannot be switched back");
    else
        __atomic_store_n(&s->ctx->fail.stop_on_failure, stop, __ATOMIC_RELEASE);
    oacl_obj_put(&s->obj);
    return rc;
}
