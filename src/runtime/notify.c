/*
 * Notifies: one-bit signals between streams. aclrtRecordNotify sets the
 * notify in stream order; aclrtWaitAndResetNotify holds a stream until the
 * notify is set and clears it as it passes, so each record releases one
 * wait. Waits may come from streams of any device (as event waits);
 * records come from the notify's own device.
 */
#include <stdlib.h>

#include "runtime/runtime.h"

struct oacl_notify {
    struct oacl_obj obj;
    struct oacl_device *dev;
    uint32_t id;
    struct oacl_bnotify *bn;
};

static uint32_t g_next_notify_id; /* atomic */

static void notify_destroy(struct oacl_obj *o)
{
    struct oacl_notify *n = (struct oacl_notify *)o;
    oacl_backend()->notify_destroy(n->bn);
    free(n);
}

static aclError notify_get(aclrtNotify notify, struct oacl_notify **out, const char *fn)
{
    if (!notify)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "notify is NULL");
    struct oacl_obj *o = oacl_handle_get(notify, OACL_H_NOTIFY);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "notify %p is not a live notify handle", notify);
    *out = (struct oacl_notify *)o;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)
{
    if (!notify)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "notify is NULL");
    if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__,
                         "flag 0x%llx is not ACL_NOTIFY_DEFAULT or ACL_NOTIFY_DEVICE_USE_ONLY", (unsigned long long)flag);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_notify *n = calloc(1, sizeof(*n));
    if (!n) {
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory for a notify");
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    rc = oacl_backend()->notify_create(ctx->dev->bdev, &n->bn, err);
    n->dev = ctx->dev;
    oacl_obj_put(&ctx->obj);
    if (rc) {
        free(n);
        return oacl_fail(rc, __func__, "%s", err);
    }
    n->id = __atomic_fetch_add(&g_next_notify_id, 1, __ATOMIC_RELAXED);
    void *h = oacl_handle_create(&n->obj, OACL_H_NOTIFY, notify_destroy);
    if (!h) {
        oacl_backend()->notify_destroy(n->bn);
        free(n);
        return oacl_fail(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, __func__, "no notify handles left");
    }
    *notify = h;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtDestroyNotify(aclrtNotify notify)
{
    if (!notify)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "notify is NULL");
    /* Work still queued keeps what it needs; the handle goes now. */
    if (!oacl_handle_retire(notify, OACL_H_NOTIFY))
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "notify %p is not a live notify handle", notify);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)
{
    if (!notifyId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "notifyId is NULL");
    struct oacl_notify *n = NULL;
    aclError rc = notify_get(notify, &n, __func__);
    if (rc)
        return rc;
    *notifyId = n->id;
    oacl_obj_put(&n->obj);
    return ACL_SUCCESS;
}

/* Resolves the notify and an enqueue stream of the current context. */
static aclError notify_and_stream(aclrtNotify notify, aclrtStream stream, struct oacl_notify **n,
                                  struct oacl_stream **s, const char *fn)
{
    aclError rc = notify_get(notify, n, fn);
    if (rc)
        return rc;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, s, fn);
    if (rc)
        oacl_obj_put(&(*n)->obj);
    return rc;
}

OACL_API aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
    struct oacl_notify *n = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = notify_and_stream(notify, stream, &n, &s, __func__);
    if (rc)
        return rc;
    if (s->ctx->dev != n->dev) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "notify %p belongs to device %d; it cannot be recorded on a stream of device %d", notify,
                       n->dev->id, s->ctx->dev->id);
    } else {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->notify_record(s->queue, n->bn, err);
        if (brc)
            rc = oacl_fail(brc, __func__, "%s", err);
    }
    oacl_obj_put(&s->obj);
    oacl_obj_put(&n->obj);
    return rc;
}

OACL_API aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout)
{
    struct oacl_notify *n = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = notify_and_stream(notify, stream, &n, &s, __func__);
    if (rc)
        return rc;
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->notify_wait(s->queue, n->bn, (uint64_t)timeout * 1000000ull, err);
    if (brc)
        rc = oacl_fail(brc, __func__, "%s", err);
    oacl_obj_put(&s->obj);
    oacl_obj_put(&n->obj);
    return rc;
}
