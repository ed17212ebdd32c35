/*
 * Contexts: each device has a default context, created by the first
 * aclrtSetDevice, and every host thread has at most one current context
 * (thread-local, held as a handle so a destroyed context is noticed).
 * aclrtCreateContext / DestroyContext / SetCurrentContext / GetCurrentContext /
 * CtxGetCurrentDefaultStream / GetPrimaryCtxState (spec 1.6, 4.3).
 */
#include <sched.h>
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
    ctx->handle = oacl_handle_create(&ctx->obj, OACL_H_CONTEXT, context_destroy);
    if (!ctx->handle) {
        pthread_mutex_destroy(&ctx->lock);
        free(ctx);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "handle table exhausted");
    }
    aclError rc = oacl_stream_create(ctx, true, 0, 0, &ctx->default_stream, &ctx->default_stream_handle, fn);
    if (rc == ACL_SUCCESS)
        oacl_obj_ref(&ctx->default_stream->obj); /* the context's own reference */
    if (rc) {
        oacl_obj_retire(&ctx->obj);
        return rc;
    }
    oacl_ctl_ctx_add(ctx); /* aclrtDeviceTaskAbort reaches it */
    *out = ctx;
    return ACL_SUCCESS;
}

void oacl_context_teardown(struct oacl_context *ctx)
{
    /* Dead first: threads bound to it stop using it, and calls already
       holding it cannot add streams; then the handle goes. */
    oacl_obj_ref(&ctx->obj);
    oacl_ctl_ctx_remove(ctx);
    pthread_mutex_lock(&ctx->lock);
    __atomic_store_n(&ctx->dead, true, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&ctx->lock);
    oacl_obj_retire(&ctx->obj);
    oacl_ri_context_teardown(ctx); /* model running instances go first: they own streams */
    for (;;) {
        pthread_mutex_lock(&ctx->lock);
        struct oacl_stream *s = ctx->streams;
        if (s)
            oacl_obj_ref(&s->obj);
        pthread_mutex_unlock(&ctx->lock);
        if (!s)
            break;
        if (oacl_stream_teardown(s)) {
            /* Drained: stop its host thread now. The thread that finished
               the last host function may still be leaving the queue's
               bookkeeping; joining it first means the queue is not freed
               under it. */
            oacl_stream_host_release(s);
        } else {
            sched_yield(); /* a concurrent destroy is unlinking it */
        }
        oacl_obj_put(&s->obj);
    }
    /* Work of streams destroyed by force still completes. */
    oacl_stream_reap(ctx, true);
    /* The default stream object lives until the context does; in-flight
       calls that still hold the context may reach it safely. */
    oacl_stream_teardown(ctx->default_stream);
    oacl_stream_host_release(ctx->default_stream);
    oacl_overflow_ctx_release(ctx); /* its work is done: nothing mirrors into the area any more */
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

struct oacl_context *oacl_ctx_peek(void) { return tls_ctx; }

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

int32_t oacl_ctx_device_quiet(void)
{
    const struct oacl_context *c = tls_ctx;
    return c && !__atomic_load_n(&c->dead, __ATOMIC_ACQUIRE) ? c->dev->id : -1;
}

aclError oacl_ctx_require(const char *fn)
{
    const struct oacl_context *c = tls_ctx;
    if (c && !__atomic_load_n(&c->dead, __ATOMIC_ACQUIRE))
        return ACL_SUCCESS;
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn); /* the implicit default device, or the error */
    if (rc == ACL_SUCCESS)
        oacl_obj_put(&ctx->obj);
    return rc;
}

/* ---- the context API (spec 4.3) --------------------------------------------------- */

OACL_API aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
    OACL_PROF_API("ContextCreate");
    if (!context)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "context is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    /* Opens the device if needed but leaves its set count (and default
       context) alone: only aclrtSetDevice counts. */
    pthread_mutex_lock(&dev->lock);
    rc = oacl_device_open_locked(dev, __func__);
    if (rc == ACL_SUCCESS)
        rc = oacl_context_create_locked(dev, false, &ctx, __func__);
    pthread_mutex_unlock(&dev->lock);
    if (rc)
        return rc;
    oacl_ctl_stream_created(ctx->default_stream_handle); /* outside the device lock */
    oacl_ctx_bind(ctx);
    *context = ctx->handle;
    return ACL_SUCCESS;
}

/* The live context behind a handle argument (+1 reference), or NULL with
 * *why saying what else it is. */
static struct oacl_context *context_arg(aclrtContext h, const char **why)
{
    enum oacl_htype type;
    struct oacl_obj *o = oacl_handle_get_any(h, &type);
    if (o && type != OACL_H_CONTEXT) {
        oacl_obj_put(o);
        *why = "is a handle of another kind, not a context";
        return NULL;
    }
    if (!o) {
        *why = "is not a live context (destroyed, its device reset, or never a context)";
        return NULL;
    }
    struct oacl_context *ctx = (struct oacl_context *)o;
    if (__atomic_load_n(&ctx->dead, __ATOMIC_ACQUIRE)) {
        /* A default context whose device is being reset right now. */
        oacl_obj_put(o);
        *why = "is being destroyed";
        return NULL;
    }
    return ctx;
}

OACL_API aclError aclrtDestroyContext(aclrtContext context)
{
    OACL_PROF_API("ContextDestroy");
    if (!context)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "context is NULL");
    const char *why = NULL;
    struct oacl_context *ctx = context_arg(context, &why);
    if (!ctx)
        return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, __func__, "context %p %s", context, why);
    if (ctx->is_default) {
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, __func__,
                         "context %p is the default context of device %d; release it with aclrtResetDevice",
                         context, ctx->dev->id);
    }
    /* Retiring the handle first makes this the only destroy of ctx: a
       concurrent one finds the handle gone. */
    if (!oacl_obj_retire(&ctx->obj)) {
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, __func__, "context %p was destroyed concurrently", context);
    }
    oacl_context_teardown(ctx);
    /* Other threads that have it current keep a dead binding (107002). */
    if (tls_ctx == ctx)
        oacl_ctx_bind(NULL);
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSetCurrentContext(aclrtContext context)
{
    OACL_PROF_API("ContextSetCurrent");
    if (!context)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "context is NULL");
    const char *why = NULL;
    struct oacl_context *ctx = context_arg(context, &why);
    /* An argument check, hence 107000 rather than the 107002 of a missing
       current context (spec 5.38). */
    if (!ctx)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "context %p %s", context, why);
    oacl_ctx_bind(ctx);
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetCurrentContext(aclrtContext *context)
{
    if (!context)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "context is NULL");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    *context = ctx->handle;
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    /* The default stream's own handle: oacl_stream_resolve maps it to the
       same stream as NULL while this context is current, and stream
       destruction refuses it like NULL. */
    *stream = ctx->default_stream_handle;
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active)
{
    if (flags)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "flags is reserved and must be NULL");
    if (!active)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "active is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&dev->lock);
    *active = dev->default_ctx != NULL;
    pthread_mutex_unlock(&dev->lock);
    return ACL_SUCCESS;
}

/* The failure that stopped the calling thread's current context
 * (ACL_STOP_ON_FAILURE), 0 if none or no context; nothing recorded. */
int oacl_ctx_stopped_error(void)
{
    const struct oacl_context *c = tls_ctx;
    if (!c || __atomic_load_n(&c->dead, __ATOMIC_ACQUIRE))
        return 0;
    return __atomic_load_n(&c->fail.error, __ATOMIC_ACQUIRE);
}
