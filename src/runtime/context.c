/*
 * Contexts: each device has a default context, created by the first
 * aclrtSetDevice, and every host thread has at most one current context
 * (thread-local, held as a handle so a destroyed context is noticed).
 */
#include <stdlib.h>

#include "runtime/runtime.h"

static __thread void *tls_ctx_handle;

static void context_destroy(struct oacl_obj *o)
{
    struct oacl_context *ctx = (struct oacl_context *)o;
    if (ctx->default_stream)
        oacl_obj_put(&ctx->default_stream->obj);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

aclError oacl_context_create_locked(struct oacl_device *dev, bool is_default, struct oacl_context **out,
                                    const char *fn)
{
    struct oacl_context *ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for a context");
    ctx->dev = dev;
    ctx->is_default = is_default;
    pthread_mutex_init(&ctx->lock, NULL);
    if (!oacl_handle_create(&ctx->obj, OACL_H_CONTEXT, context_destroy)) {
        pthread_mutex_destroy(&ctx->lock);
        free(ctx);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "handle table exhausted");
    }
    aclError rc = oacl_stream_create(ctx, true, 0, 0, &ctx->default_stream, NULL, fn);
    if (rc == ACL_SUCCESS)
        oacl_obj_ref(&ctx->default_stream->obj); /* the context's own reference */
    if (rc) {
        oacl_obj_retire(&ctx->obj);
        return rc;
    }
    *out = ctx;
    return ACL_SUCCESS;
}

void oacl_context_teardown(struct oacl_context *ctx)
{
    /* Retire first so that threads stop finding it, and mark it dead so that
       calls already holding it cannot add streams. */
    oacl_obj_ref(&ctx->obj);
    oacl_obj_retire(&ctx->obj);
    pthread_mutex_lock(&ctx->lock);
    ctx->dead = true;
    pthread_mutex_unlock(&ctx->lock);
    for (;;) {
        pthread_mutex_lock(&ctx->lock);
        struct oacl_stream *s = ctx->streams;
        if (s)
            oacl_obj_ref(&s->obj);
        pthread_mutex_unlock(&ctx->lock);
        if (!s)
            break;
        oacl_stream_teardown(s, false);
        oacl_obj_put(&s->obj);
    }
    /* The default stream object lives until the context does; in-flight
       calls that still hold the context may reach it safely. */
    oacl_stream_teardown(ctx->default_stream, false);
    oacl_obj_put(&ctx->obj);
}

void oacl_ctx_bind(struct oacl_context *ctx) { tls_ctx_handle = ctx ? ctx->obj.handle : NULL; }

aclError oacl_ctx_current(struct oacl_context **out, const char *fn)
{
    void *h = tls_ctx_handle;
    if (h) {
        struct oacl_obj *o = oacl_handle_get(h, OACL_H_CONTEXT);
        if (o) {
            *out = (struct oacl_context *)o;
            return ACL_SUCCESS;
        }
    }
    int32_t dd = __atomic_load_n(&oacl_config()->default_device, __ATOMIC_ACQUIRE);
    if (dd >= 0 && aclrtSetDevice(dd) == ACL_SUCCESS && tls_ctx_handle) {
        struct oacl_obj *o = oacl_handle_get(tls_ctx_handle, OACL_H_CONTEXT);
        if (o) {
            *out = (struct oacl_context *)o;
            return ACL_SUCCESS;
        }
    }
    if (h)
        return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, fn,
                         "the thread's current context was destroyed or its device reset; call aclrtSetDevice");
    return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, fn, "no current context on this thread; call aclrtSetDevice first");
}
