/*
 * Events: creation (three kinds with different capabilities), record,
 * reset, query, synchronise, timing, and stream waits.
 *
 *   kind                      capabilities           never recorded:
 *   aclrtCreateEvent          sync + timestamps      query NOT_READY, wait 107000
 *   ...WithFlag(flags)        per flag bits          same
 *   ...ExWithFlag(flags)      per flag bits; no      query COMPLETE, wait is a no-op
 *                             reset or old queries
 *   ...ExWithFlag(IPC)        shared with other      as ExWithFlag (ipc_event.c)
 *                             processes; waitable,
 *                             no timing, no reset
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "runtime/event.h"
#include "runtime/runtime.h"

#define EVENT_FLAGS_KNOWN                                                                                            \
    (ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY |          \
     ACL_EVENT_EXTERNAL | ACL_EVENT_IPC)

/* Timestamps count from the library's load, in the device's terms. */
static uint64_t g_epoch_ns;
__attribute__((constructor)) static void event_epoch(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    g_epoch_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void event_destroy(struct oacl_obj *o)
{
    struct oacl_event *e = (struct oacl_event *)o;
    oacl_event_slot_put(e->dev, e->id); /* its id and its place in the device's limit */
    if (e->ipc)
        oacl_ipc_event_forget(e); /* no new opens of its handle */
    oacl_backend()->event_destroy(e->be);
    free(e->ipc);
    free(e);
}

aclError oacl_event_wrap(struct oacl_device *dev, struct oacl_bevent *be, enum event_kind kind, uint32_t flags,
                         struct oacl_ipc_event_info *ipc, aclrtEvent *out, struct oacl_event **obj, const char *fn)
{
    struct oacl_event *e = calloc(1, sizeof(*e));
    if (!e) {
        oacl_backend()->event_destroy(be);
        free(ipc);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for an event");
    }
    aclError rc = oacl_event_slot_take(dev, &e->id, fn); /* the device's event limit */
    if (rc) {
        oacl_backend()->event_destroy(be);
        free(ipc);
        free(e);
        return rc;
    }
    e->dev = dev;
    e->kind = kind;
    e->flags = flags;
    e->be = be;
    e->ipc = ipc;
    void *h = oacl_handle_create(&e->obj, OACL_H_EVENT, event_destroy);
    if (!h) {
        oacl_event_slot_put(dev, e->id);
        oacl_backend()->event_destroy(be);
        free(ipc);
        free(e);
        return oacl_fail(ACL_ERROR_RT_NO_EVENT_RESOURCE, fn, "handle table exhausted");
    }
    if (obj)
        *obj = e;
    *out = h;
    return ACL_SUCCESS;
}

static aclError create(aclrtEvent *event, enum event_kind kind, uint32_t flags, const char *fn)
{
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    char err[OACL_BACKEND_ERRLEN] = "";
    struct oacl_device *dev = ctx->dev;
    struct oacl_bevent *be = NULL;
    rc = oacl_backend()->event_create(dev->bdev, &be, err);
    oacl_obj_put(&ctx->obj);
    if (rc)
        return oacl_fail(rc, fn, "%s", err);
    return oacl_event_wrap(dev, be, kind, flags, NULL, event, NULL, fn);
}

OACL_API aclError aclrtCreateEvent(aclrtEvent *event)
{
    OACL_PROF_API("EventCreate");
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    return create(event, EVENT_PLAIN, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE, __func__);
}

OACL_API aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
    OACL_PROF_API("EventCreate");
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    const uint32_t usable = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE;
    const uint32_t alone = ACL_EVENT_EXTERNAL | ACL_EVENT_DEVICE_USE_ONLY;
    if (flag == 0 || (flag & ~(usable | alone)))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "flag 0x%x is invalid", flag);
    if ((flag & alone) && flag != ACL_EVENT_EXTERNAL && flag != ACL_EVENT_DEVICE_USE_ONLY)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "flag 0x%x: ACL_EVENT_EXTERNAL and ACL_EVENT_DEVICE_USE_ONLY must be used alone", flag);
    if (flag & alone)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                         "flag 0x%x: graph-capture and device-only events are not supported", flag);
    return create(event, EVENT_FLAGGED, flag, __func__);
}

OACL_API aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
    OACL_PROF_API("EventCreate");
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    const uint32_t usable = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE;
    if (flag == 0 || (flag & ~(usable | ACL_EVENT_IPC)) || ((flag & ACL_EVENT_IPC) && flag != ACL_EVENT_IPC))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "flag 0x%x is invalid", flag);
    if (flag == ACL_EVENT_IPC)
        return oacl_ipc_event_create(event, __func__);
    return create(event, EVENT_EX, flag, __func__);
}

/* The live event behind a handle (+1 reference), or 107017. */
aclError oacl_event_get(aclrtEvent event, struct oacl_event **out, const char *fn)
{
    struct oacl_obj *o = oacl_handle_get(event, OACL_H_EVENT);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "event %p is not a live event handle", event);
    *out = (struct oacl_event *)o;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtDestroyEvent(aclrtEvent event)
{
    OACL_PROF_API("EventDestroy");
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    /* Work still queued keeps what it needs; the handle goes now. */
    if (!oacl_handle_retire(event, OACL_H_EVENT))
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "event %p is not a live event handle", event);
    return ACL_SUCCESS;
}

/* Resolves the event and an enqueue stream in the current context. */
static aclError event_and_stream(aclrtEvent event, aclrtStream stream, struct oacl_event **e,
                                 struct oacl_stream **s, const char *fn)
{
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, s, fn);
    if (rc)
        return rc;
    rc = oacl_event_get(event, e, fn);
    if (rc)
        oacl_obj_put(&(*s)->obj);
    return rc;
}

static void put2(struct oacl_event *e, struct oacl_stream *s)
{
    oacl_obj_put(&e->obj);
    oacl_obj_put(&s->obj);
}

OACL_API aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
    OACL_PROF_API("EventRecord");
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    return oacl_event_record(event, stream, __func__);
}

aclError oacl_event_record(aclrtEvent event, aclrtStream stream, const char *fn)
{
    struct oacl_event *e = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = event_and_stream(event, stream, &e, &s, fn);
    if (rc)
        return rc;
    /* counts as ACL_EVENT_RECORD_DEFAULT (aclrtRecordEventWithFlag) */
    rc = oacl_event_fix_flag(&e->record_flag, OACL_EVENT_FLAG_DEFAULT, "record", fn);
    bool recorded = false; /* by a capture (model_ri.c) */
    if (rc == ACL_SUCCESS)
        rc = oacl_ri_event_record(s, e, &recorded, fn);
    if (rc == ACL_SUCCESS && !recorded) {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->event_record(s->queue, e->be, err);
        if (brc)
            rc = oacl_fail(brc, fn, "%s", err);
    }
    put2(e, s);
    return rc;
}

OACL_API aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
    OACL_PROF_API(NULL);
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    struct oacl_event *e = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = event_and_stream(event, stream, &e, &s, __func__);
    if (rc)
        return rc;
    if (s->ri_capture) {
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                       "events cannot be reset inside a capture (only ACL_EVENT_EXTERNAL events could be)");
    } else if (e->kind != EVENT_FLAGGED || !(e->flags & ACL_EVENT_SYNC)) {
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                       "only events from aclrtCreateEventWithFlag with ACL_EVENT_SYNC can be reset");
    } else {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->event_reset(s->queue, e->be, err);
        if (brc)
            rc = oacl_fail(brc, __func__, "%s", err);
    }
    put2(e, s);
    return rc;
}

OACL_API aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    OACL_PROF_API("StreamWaitEvent");
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    struct oacl_event *e = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = event_and_stream(event, stream, &e, &s, __func__);
    if (rc)
        return rc;
    rc = oacl_event_wait_check(e, __func__);
    if (rc == ACL_SUCCESS) /* with the process op-wait timeout in force now */
        rc = oacl_event_wait_enqueue(s, e, oacl_op_wait_timeout_ns(), __func__);
    put2(e, s);
    return rc;
}

aclError oacl_event_wait_check(struct oacl_event *e, const char *fn)
{
    if (!(e->flags & ACL_EVENT_SYNC) && !e->ipc) /* IPC events are always waitable */
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "event %p was created without ACL_EVENT_SYNC and cannot be waited for", e->obj.handle);
    aclError rc = oacl_event_fix_flag(&e->wait_flag, OACL_EVENT_FLAG_DEFAULT, "wait", fn);
    if (rc)
        return rc;
    struct oacl_event_state st;
    oacl_backend()->event_query(e->be, &st);
    if (!st.recorded && e->kind != EVENT_EX)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "event %p has not been recorded", e->obj.handle);
    return ACL_SUCCESS;
}

aclError oacl_event_wait_enqueue(struct oacl_stream *s, struct oacl_event *e, uint64_t timeout_ns, const char *fn)
{
    bool captured = false; /* recorded by a capture (model_ri.c) */
    aclError rc = oacl_ri_event_wait(s, e, &captured, fn);
    if (rc || captured)
        return rc;
    char err[OACL_BACKEND_ERRLEN] = "";
    bool queued;
    int brc = oacl_backend()->event_wait(s->queue, e->be, timeout_ns, &queued, err);
    if (brc)
        return oacl_fail(brc, fn, "%s", err);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
    if (!event || !status)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", event ? "status" : "event");
    struct oacl_event *e = NULL;
    aclError rc = oacl_event_get(event, &e, __func__);
    if (rc)
        return rc;
    rc = oacl_ri_event_check(e, __func__); /* 107028 */
    if (rc) {
        oacl_obj_put(&e->obj);
        return rc;
    }
    struct oacl_event_state st;
    oacl_backend()->event_query(e->be, &st);
    bool complete = st.recorded ? st.complete : e->kind == EVENT_EX;
    if (st.ipc_error) { /* decision D31 */
        oacl_obj_put(&e->obj);
        return oacl_fail(st.ipc_error, __func__,
                         "the process that recorded IPC event %p exited before its record ran", event);
    }
    *status = complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    oacl_obj_put(&e->obj);
    return ACL_SUCCESS;
}

static aclError sync_event(aclrtEvent event, int64_t timeout_ns, const char *fn)
{
    struct oacl_event *e = NULL;
    aclError rc = oacl_event_get(event, &e, fn);
    if (rc)
        return rc;
    rc = oacl_ctl_device_check(e->dev, fn); /* 107022 during a device task abort */
    if (rc == ACL_SUCCESS)
        rc = oacl_ri_event_check(e, fn); /* 107028: recorded in a capture in progress */
    if (rc) {
        oacl_obj_put(&e->obj);
        return rc;
    }
    int src = oacl_backend()->event_sync(e->be, timeout_ns);
    oacl_mem_pool_on_sync(e->dev); /* pools' release threshold */
    if (src == ACL_ERROR_RT_IPC_ERROR) {
        rc = oacl_fail(src, fn, "the process that recorded IPC event %p exited before its record ran", event);
    } else if (src == ECANCELED) {
        rc = oacl_fail(ACL_ERROR_RT_STREAM_ABORT, fn, "the event's record is queued on a stopped stream");
    } else if (src != 0) {
        rc = oacl_fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, fn, "the event's work is still running after %lld ms",
                       (long long)(timeout_ns / 1000000));
    } else {
        struct oacl_event_state st;
        oacl_backend()->event_query(e->be, &st);
        if (st.error) {
            oacl_device_note_fault(e->dev, st.error); /* for aclrtGetErrorVerbose */
            rc = oacl_fail(st.error, fn, "a task before the event's record failed");
        }
    }
    oacl_obj_put(&e->obj);
    return rc;
}

OACL_API aclError aclrtSynchronizeEvent(aclrtEvent event)
{
    OACL_PROF_API("EventSynchronize");
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    return sync_event(event, -1, __func__);
}

OACL_API aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
    OACL_PROF_API("EventSynchronize");
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    if (timeout == 0 || timeout < -1)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "timeout %d: use -1 (no limit) or a positive number of ms",
                         timeout);
    return sync_event(event, timeout < 0 ? -1 : (int64_t)timeout * 1000000, __func__);
}

/* The time an event's newest record ran, for the timing queries. */
static aclError event_time(aclrtEvent event, uint64_t *ns, const char *fn)
{
    struct oacl_event *e = NULL;
    aclError rc = oacl_event_get(event, &e, fn);
    if (rc)
        return rc;
    rc = oacl_ri_event_check(e, fn); /* 107028 */
    if (rc) {
        oacl_obj_put(&e->obj);
        return rc;
    }
    struct oacl_event_state st;
    oacl_backend()->event_query(e->be, &st);
    if (e->ipc)
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "event %p is an IPC event: it has no timestamps", event);
    else if (!st.recorded)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "event %p has not been recorded", event);
    else if (!(e->flags & ACL_EVENT_TIME_LINE))
        rc = oacl_fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, fn,
                       "event %p has no timestamps (create it with ACL_EVENT_TIME_LINE)", event);
    else if (!st.complete)
        rc = oacl_fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, fn, "event %p's record has not run yet", event);
    else
        *ns = st.timestamp_ns;
    oacl_obj_put(&e->obj);
    return rc;
}

OACL_API aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    if (!ms || !startEvent || !endEvent)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !ms ? "ms" : !startEvent ? "startEvent" : "endEvent");
    uint64_t t0 = 0, t1 = 0;
    aclError rc = event_time(startEvent, &t0, __func__);
    if (rc == ACL_SUCCESS)
        rc = event_time(endEvent, &t1, __func__);
    if (rc == ACL_SUCCESS)
        *ms = (float)((double)((int64_t)(t1 - t0)) / 1e6); /* negative when end ran first */
    return rc;
}

OACL_API aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
    if (!event || !timestamp)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", event ? "timestamp" : "event");
    uint64_t ns = 0;
    aclError rc = event_time(event, &ns, __func__);
    if (rc == ACL_SUCCESS)
        *timestamp = (ns - g_epoch_ns) / 1000;
    return rc;
}
