/*
 * Contexts: each device has a default context, created by the first
 * aclrtSetDevice, and every host thread has at most one current context
 * (thread-local, held as a handle so a destroyed context is noticed).
 */
#include <stdlib.h>

#include "runtime/runtime.h"

/* The calling thread's current context. The binding holds a reference, so
 * the object stays readable even after another thread destroys the
 * context; `dead` then tells that it is gone. Checking costs no lock. */
static __thread struct oacl_context *tls_ctx;
static pthread_key_t g_ctx_key;
static pthread_once_t g_ctx_once = PTHREAD_ONCE_INIT;

static void binding_release(void *p) { oacl_obj_put(&((struct oacl_context *)p)->obj); }
static void ctx_key_init(void) { pthread_key_create(&g_ctx_key, binding_release); }

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
    /* Dead first: threads bound to it stop using it, and calls already
       holding it cannot add streams; then the handle goes. */
    oacl_obj_ref(&ctx->obj);
    pthread_mutex_lock(&ctx->lock);
    __atomic_store_n(&ctx->dead, true, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&ctx->lock);
    oacl_obj_retire(&ctx->obj);
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

void oacl_ctx_bind(struct oacl_context *ctx)
{
    struct oacl_context *old = tls_ctx;
    if (ctx == old)
        return;
    pthread_once(&g_ctx_once, ctx_key_init);
    if (ctx)
        oacl_obj_ref(&ctx->obj);
    tls_ctx = ctx;
    pthread_setspecific(g_ctx_key, ctx); /* released when the thread exits */
    if (old)
        oacl_obj_put(&old->obj);
}

aclError oacl_ctx_current(struct oacl_context **out, const char *fn)
{
    struct oacl_context *c = tls_ctx;
    if (c && !__atomic_load_n(&c->dead, __ATOMIC_ACQUIRE)) {
        oacl_obj_ref(&c->obj);
        *out = c;
        return ACL_SUCCESS;
    }
    int32_t dd = __atomic_load_n(&oacl_config()->default_device, __ATOMIC_ACQUIRE);
    if (dd >= 0 && aclrtSetDevice(dd) == ACL_SUCCESS) {
        struct oacl_context *n = tls_ctx;
        if (n && !__atomic_load_n(&n->dead, __ATOMIC_ACQUIRE)) {
            oacl_obj_ref(&n->obj);
            *out = n;
            return ACL_SUCCESS;
        }
    }
    if (c)
        return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, fn,
                         "the thread's current context was destroyed or its device reset; call aclrtSetDevice");
    return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, fn, "no current context on this thread; call aclrtSetDevice first");
}
