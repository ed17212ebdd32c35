/*
 * Streams: aclrtCreateStream / DestroyStream(Force) / SynchronizeStream.
 * A stream is a handle over one backend queue; NULL means the default
 * stream of the calling thread's current context.
 */
#include <stdlib.h>

#include "runtime/runtime.h"

static void stream_destroy(struct oacl_obj *o)
{
    struct oacl_stream *s = (struct oacl_stream *)o;
    /* Last reference: nothing can queue work on it any more. */
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
    int rc = oacl_backend()->queue_create(dev->bdev, &s->queue, err);
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
    s->id = (int32_t)__atomic_fetch_add(&dev->next_stream_id, 1, __ATOMIC_RELAXED);
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
    return ACL_SUCCESS;
}

aclError oacl_stream_resolve(struct oacl_context *ctx, aclrtStream stream, bool for_enqueue,
                             struct oacl_stream **out, const char *fn)
{
    if (!stream) {
        struct oacl_stream *ds = ctx->default_stream;
        oacl_obj_ref(&ds->obj);
        *out = ds;
        return ACL_SUCCESS;
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
    if (for_enqueue && s->ctx != ctx) {
        oacl_obj_put(o);
        return oacl_fail(ACL_ERROR_RT_STREAM_CONTEXT, fn,
                         "stream %p belongs to another context (device %d); make its context current", stream,
                         s->ctx->dev->id);
    }
    *out = s;
    return ACL_SUCCESS;
}

bool oacl_stream_teardown(struct oacl_stream *s, bool force)
{
    /* Retiring first makes this the only teardown and stops new work:
       launches on the handle fail from here on. */
    if (!oacl_obj_retire(&s->obj))
        return false;
    if (!s->is_default) {
        struct oacl_context *ctx = s->ctx;
        pthread_mutex_lock(&ctx->lock);
        if (s->prev)
            s->prev->next = s->next;
        else if (ctx->streams == s)
            ctx->streams = s->next;
        if (s->next)
            s->next->prev = s->prev;
        s->next = s->prev = NULL;
        pthread_mutex_unlock(&ctx->lock);
    }
    if (force)
        oacl_backend()->queue_discard(s->queue);
    /* Wait for the work already queued; a failure it had goes with the
       stream. */
    char err[OACL_BACKEND_ERRLEN];
    oacl_backend()->queue_sync(s->queue, -1, err);
    return true;
}

aclError oacl_stream_sync(struct oacl_stream *s, int64_t timeout_ns, const char *fn)
{
    char err[OACL_BACKEND_ERRLEN] = "";
    int rc = oacl_backend()->queue_sync(s->queue, timeout_ns, err);
    if (rc)
        return oacl_fail(rc, fn, "%s", err);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCreateStream(aclrtStream *stream)
{
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
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_resolve(ctx, stream, true, &s, fn);
    if (rc == ACL_SUCCESS) {
        if (s->is_default)
            rc = oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "stream %p is a default stream, which cannot be destroyed",
                           stream);
        else if (!oacl_stream_teardown(s, force))
            rc = oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "stream %p was destroyed concurrently", stream);
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtDestroyStream(aclrtStream stream) { return destroy_stream(stream, false, __func__); }

OACL_API aclError aclrtDestroyStreamForce(aclrtStream stream) { return destroy_stream(stream, true, __func__); }

OACL_API aclError aclrtSynchronizeStream(aclrtStream stream)
{
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_resolve(ctx, stream, false, &s, __func__);
    if (rc == ACL_SUCCESS) {
        rc = oacl_stream_sync(s, -1, __func__);
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}
