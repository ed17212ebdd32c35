/*
 * Counting notifies (device-kernel chapter 3.5, 4.5): aclrtCntNotifyCreate,
 * Destroy, Record, WaitWithTimeout, Reset and GetId.
 *
 * They exist on arch 3510 profiles only; elsewhere each function answers
 * 207000 without looking at its arguments, except that Record and Wait
 * reject a NULL info first (CANN). A notify belongs to the device of the
 * context current at creation: records and resets come from streams of
 * that device, waits from streams of any device (Decision 10). Its id is
 * the lowest free one of the device; the per-device limit (65536,
 * OACL_CNT_NOTIFY_LIMIT) gives 207009 beyond it. Destroying it retires the
 * handle; queued records and waits keep the object (Decision 11).
 */
#include <stdlib.h>

#include "common/id_pool.h"
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

#define MAX_DEVICES 64
#define DEFAULT_LIMIT 65536u
#define LIMIT_MAX (1u << 20)

struct cnt_notify {
    struct oacl_obj obj;
    struct oacl_device *dev;
    struct oacl_bcntnotify *bn;
    uint32_t id;
};

static struct oacl_id_pool g_ids[MAX_DEVICES];
static pthread_once_t g_ids_once = PTHREAD_ONCE_INIT;

static void ids_init(void)
{
    uint32_t limit = DEFAULT_LIMIT;
    const char *v = getenv("OACL_CNT_NOTIFY_LIMIT");
    if (v && *v) {
        char *end;
        unsigned long n = strtoul(v, &end, 10);
        if (*end == '\0' && n > 0 && n <= LIMIT_MAX)
            limit = (uint32_t)n;
    }
    for (int i = 0; i < MAX_DEVICES; i++)
        oacl_id_pool_init(&g_ids[i], limit);
}

static struct oacl_id_pool *pool_of(const struct oacl_device *dev)
{
    pthread_once(&g_ids_once, ids_init);
    return &g_ids[dev->id];
}

/* Counting notifies exist on arch 3510 only (spec 3.6). */
static aclError supported(const char *fn)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    if (!p)
        return oacl_fail(ACL_ERROR_RT_SOC_VERSION, fn, "OACL_SOC='%s' names no known SoC profile",
                         oacl_config()->soc_request);
    if (p->npu_arch != 3510)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn, p->name);
    return ACL_SUCCESS;
}

static void cnt_destroy(struct oacl_obj *o)
{
    struct cnt_notify *n = (struct cnt_notify *)o;
    oacl_id_pool_put(pool_of(n->dev), n->id);
    oacl_backend()->cnt_notify_destroy(n->bn);
    free(n);
}

/* The live notify behind h (+1 reference); a NULL handle is 107000, after
 * the staleness checks the caller made. */
static aclError cnt_get(aclrtCntNotify h, struct cnt_notify **out, const char *fn)
{
    if (!h)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "cntNotify is NULL");
    struct oacl_obj *o = oacl_handle_get(h, OACL_H_CNT_NOTIFY);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "cntNotify %p is not a live counting notify", h);
    *out = (struct cnt_notify *)o;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag)
{
    aclError rc = supported(__func__);
    if (rc)
        return rc;
    if (flag != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "flag 0x%llx is reserved and must be 0",
                         (unsigned long long)flag);
    struct oacl_context *ctx = NULL;
    if ((rc = oacl_ctx_current(&ctx, __func__)))
        return rc;
    struct oacl_device *dev = ctx->dev;
    oacl_obj_put(&ctx->obj);
    if (!cntNotify)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cntNotify is NULL");
    struct cnt_notify *n = calloc(1, sizeof(*n));
    if (!n)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory for a counting notify");
    int r = oacl_id_pool_take(pool_of(dev), &n->id);
    if (r) {
        free(n);
        return r < 0 ? oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory for the id table")
                     : oacl_fail(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, __func__,
                                 "device %d already has %u counting notifies (its limit)", dev->id,
                                 pool_of(dev)->limit);
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->cnt_notify_create(dev->bdev, &n->bn, err);
    if (brc) {
        oacl_id_pool_put(pool_of(dev), n->id);
        free(n);
        return oacl_fail(brc, __func__, "%s", err);
    }
    n->dev = dev;
    void *h = oacl_handle_create(&n->obj, OACL_H_CNT_NOTIFY, cnt_destroy);
    if (!h) {
        oacl_backend()->cnt_notify_destroy(n->bn);
        oacl_id_pool_put(pool_of(dev), n->id);
        free(n);
        return oacl_fail(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, __func__, "handle table exhausted");
    }
    *cntNotify = h;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify)
{
    aclError rc = supported(__func__);
    if (rc)
        return rc;
    if (!cntNotify)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cntNotify is NULL");
    if (!oacl_handle_retire(cntNotify, OACL_H_CNT_NOTIFY))
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "cntNotify %p is not a live counting notify",
                         cntNotify);
    return ACL_SUCCESS;
}

/* Stream handles are checked for staleness before anything else (CANN). */
static aclError stream_live(aclrtStream stream, const char *fn)
{
    if (!stream)
        return ACL_SUCCESS;
    enum oacl_htype type;
    struct oacl_obj *o = oacl_handle_get_any(stream, &type);
    if (o)
        oacl_obj_put(o);
    if (!o || type != OACL_H_STREAM)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "stream %p is not a live stream handle", stream);
    return ACL_SUCCESS;
}

/* A non-NULL notify handle that is stale, then a stale stream: 107017. */
static aclError handles_live(aclrtCntNotify h, aclrtStream stream, const char *fn)
{
    struct oacl_obj *o = h ? oacl_handle_get(h, OACL_H_CNT_NOTIFY) : NULL;
    if (o)
        oacl_obj_put(o);
    if (h && !o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "cntNotify %p is not a live counting notify", h);
    return stream_live(stream, fn);
}

/* A record (or a reset: a SET record of 0) on a stream of the notify's device. */
static aclError record(aclrtCntNotify cntNotify, aclrtStream stream, uint32_t mode, uint32_t value, const char *fn)
{
    struct cnt_notify *n = NULL;
    aclError rc = cnt_get(cntNotify, &n, fn);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc == ACL_SUCCESS) {
        if (s->ctx->dev != n->dev) {
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                           "the counting notify belongs to device %d; records come from streams of that device "
                           "(this stream is on device %d)",
                           n->dev->id, s->ctx->dev->id);
        } else {
            char err[OACL_BACKEND_ERRLEN] = "";
            int brc = oacl_backend()->cnt_notify_record(s->queue, n->bn, mode, value, err);
            if (brc)
                rc = oacl_fail(brc, fn, "%s", err);
        }
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&n->obj);
    return rc;
}

OACL_API aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyRecordInfo *info)
{
    if (!info)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "info is NULL");
    aclError rc = supported(__func__);
    if (rc == ACL_SUCCESS)
        rc = handles_live(cntNotify, stream, __func__);
    if (rc)
        return rc;
    if (!cntNotify)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cntNotify is NULL");
    aclrtCntNotifyRecordInfo in = *info; /* read during the call */
    if ((unsigned)in.mode > ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE || (unsigned)in.mode == 3)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "info->mode %d is not an aclrtCntNotifyRecordMode",
                         (int)in.mode);
    return record(cntNotify, stream, (uint32_t)in.mode, in.value, __func__);
}

OACL_API aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream)
{
    aclError rc = supported(__func__);
    if (rc == ACL_SUCCESS)
        rc = handles_live(cntNotify, stream, __func__);
    if (rc)
        return rc;
    /* CANN resets with a SET record of 0. */
    return record(cntNotify, stream, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0, __func__);
}

OACL_API aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                                aclrtCntNotifyWaitInfo *info)
{
    if (!info)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "info is NULL");
    aclError rc = supported(__func__);
    if (rc == ACL_SUCCESS)
        rc = handles_live(cntNotify, stream, __func__);
    if (rc)
        return rc;
    if (!cntNotify)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cntNotify is NULL");
    aclrtCntNotifyWaitInfo in = *info;
    if ((unsigned)in.mode > ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "info->mode %d is not an aclrtCntNotifyWaitMode",
                         (int)in.mode);
    struct cnt_notify *n = NULL;
    if ((rc = cnt_get(cntNotify, &n, __func__)))
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, __func__); /* any device may wait */
    if (rc == ACL_SUCCESS) {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->cnt_notify_wait(s->queue, n->bn, (uint32_t)in.mode, in.value, in.isClear != 0,
                                                  (uint64_t)in.timeout * 1000000000ull, err);
        if (brc)
            rc = oacl_fail(brc, __func__, "%s", err);
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&n->obj);
    return rc;
}

OACL_API aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId)
{
    aclError rc = supported(__func__);
    if (rc == ACL_SUCCESS)
        rc = handles_live(cntNotify, NULL, __func__);
    if (rc)
        return rc;
    if (!cntNotify || !notifyId)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s is NULL", cntNotify ? "notifyId" : "cntNotify");
    struct cnt_notify *n = NULL;
    if ((rc = cnt_get(cntNotify, &n, __func__)))
        return rc;
    *notifyId = n->id;
    oacl_obj_put(&n->obj);
    return ACL_SUCCESS;
}
