/*
 * Notifies: one-bit signals between streams. aclrtRecordNotify sets the
 * notify in stream order; aclrtWaitAndResetNotify holds a stream until the
 * notify is set and clears it as it passes, so each record releases one
 * wait. Waits may come from streams of any device (as event waits);
 * records come from the notify's own device. IPC notifies (ipc_notify.c)
 * relax and tighten this: records of an imported notify come from any
 * device, waits of an IPC notify only from the device it was created on.
 */
#include <stdlib.h>

#include "runtime/notify.h"
#include "runtime/runtime.h"

static uint32_t g_next_notify_id; /* atomic */

static void notify_destroy(struct oacl_obj *o)
{
    struct oacl_notify *n = (struct oacl_notify *)o;
    if (__atomic_load_n(&n->ipc, __ATOMIC_ACQUIRE) != OACL_NOTIFY_LOCAL)
        oacl_ipc_notify_forget(n); /* no new imports of its key */
    oacl_backend()->notify_destroy(n->bn);
    free(n);
}

aclError oacl_notify_wrap(struct oacl_device *dev, struct oacl_bnotify *bn, uint32_t id, aclrtNotify *out,
                          struct oacl_notify **obj, const char *fn)
{
    struct oacl_notify *n = calloc(1, sizeof(*n));
    if (!n) {
        oacl_backend()->notify_destroy(bn);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for a notify");
    }
    n->dev = dev;
    n->bn = bn;
    n->id = id;
    n->home_dev = dev->id;
    void *h = oacl_handle_create(&n->obj, OACL_H_NOTIFY, notify_destroy);
    if (!h) {
        oacl_backend()->notify_destroy(bn);
        free(n);
        return oacl_fail(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, fn, "no notify handles left");
    }
    if (obj)
        *obj = n;
    *out = h;
    return ACL_SUCCESS;
}

aclError oacl_notify_get(aclrtNotify notify, struct oacl_notify **out, const char *fn)
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
    char err[OACL_BACKEND_ERRLEN] = "";
    struct oacl_bnotify *bn = NULL;
    struct oacl_device *dev = ctx->dev;
    rc = oacl_backend()->notify_create(dev->bdev, &bn, err);
    oacl_obj_put(&ctx->obj);
    if (rc)
        return oacl_fail(rc, __func__, "%s", err);
    return oacl_notify_wrap(dev, bn, __atomic_fetch_add(&g_next_notify_id, 1, __ATOMIC_RELAXED), notify, NULL,
                            __func__);
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
    aclError rc = oacl_notify_get(notify, &n, __func__);
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
    aclError rc = oacl_notify_get(notify, n, fn);
    if (rc)
        return rc;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, s, fn);
    if (rc)
        oacl_obj_put(&(*n)->obj);
    return rc;
}

OACL_API aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
    OACL_PROF_API(NULL);
    struct oacl_notify *n = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = notify_and_stream(notify, stream, &n, &s, __func__);
    if (rc)
        return rc;
    if (__atomic_load_n(&n->ipc, __ATOMIC_ACQUIRE) != OACL_NOTIFY_IMPORTED && s->ctx->dev != n->dev) {
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
    OACL_PROF_API(NULL);
    struct oacl_notify *n = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = notify_and_stream(notify, stream, &n, &s, __func__);
    if (rc)
        return rc;
    if (__atomic_load_n(&n->ipc, __ATOMIC_ACQUIRE) != OACL_NOTIFY_LOCAL && s->ctx->dev->id != n->home_dev) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "the wait of an IPC notify must be queued on device %d, where it was created", n->home_dev);
    } else {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->notify_wait(s->queue, n->bn, (uint64_t)timeout * 1000000ull, err);
        if (brc)
            rc = oacl_fail(brc, __func__, "%s", err);
    }
    oacl_obj_put(&s->obj);
    oacl_obj_put(&n->obj);
    return rc;
}
