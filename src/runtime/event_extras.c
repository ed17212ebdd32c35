/*
 * Event extras (device-kernel chapter 4.4): records and stream waits with
 * flags and timeouts, wait status, the deprecated aclrtQueryEvent, event
 * ids, the per-device event limit and the process op-wait timeout.
 *
 * Flag consistency: an event's first record fixes its record flag and its
 * first stream wait its wait flag (plain records and waits count as
 * DEFAULT); the other flag is refused later with 107000. EXTERNAL records
 * and waits synchronise a captured graph with outside work: oacl has no
 * stream capture yet, so a valid EXTERNAL call ends with CANN's answer
 * outside capture, ACL_ERROR_RT_STREAM_NOT_CAPTURED (Decision 19).
 *
 * Event ids (Decision 8): every event takes the lowest free id of its
 * device at creation and keeps it until it is released; the same table
 * enforces the device's event limit (207007 beyond it).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/id_pool.h"
#include "device/cpu/soc_profile.h"
#include "runtime/event.h"
#include "runtime/runtime.h"

#define MAX_DEVICES 64
#define LIMIT_MAX (1u << 20)

/* ---- ids and the event limit ------------------------------------------------ */

static struct oacl_id_pool g_ids[MAX_DEVICES];
static pthread_once_t g_ids_once = PTHREAD_ONCE_INIT;

/* CANN's event pool sizes per architecture; OACL_EVENT_LIMIT overrides. */
static void ids_init(void)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    uint32_t arch = p ? p->npu_arch : 2201;
    uint32_t limit = arch == 3510 ? 131072u : arch == 2002 ? 1024u : 65536u;
    const char *v = getenv("OACL_EVENT_LIMIT");
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

aclError oacl_event_slot_take(struct oacl_device *dev, uint32_t *id, const char *fn)
{
    struct oacl_id_pool *p = pool_of(dev);
    int r = oacl_id_pool_take(p, id);
    if (r < 0)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for the event id table");
    if (r > 0)
        return oacl_fail(ACL_ERROR_RT_NO_EVENT_RESOURCE, fn, "device %d already has %u events (its limit)", dev->id,
                         p->limit);
    return ACL_SUCCESS;
}

void oacl_event_slot_put(struct oacl_device *dev, uint32_t id) { oacl_id_pool_put(pool_of(dev), id); }

OACL_API aclError aclrtGetEventAvailNum(uint32_t *eventCount)
{
    if (!eventCount)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "eventCount is NULL");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    *eventCount = oacl_id_pool_available(pool_of(ctx->dev));
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId)
{
    if (!event || !eventId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", event ? "eventId" : "event");
    struct oacl_event *e = NULL;
    aclError rc = oacl_event_get(event, &e, __func__);
    if (rc)
        return rc;
    if (e->ipc)
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "event %p is an IPC event: it has no event id",
                       event);
    else
        *eventId = e->id;
    oacl_obj_put(&e->obj);
    return rc;
}

/* ---- flags ---------------------------------------------------------------------- */

aclError oacl_event_fix_flag(uint8_t *slot, enum oacl_event_flag flag, const char *which, const char *fn)
{
    uint8_t expected = OACL_EVENT_FLAG_UNSET;
    if (__atomic_compare_exchange_n(slot, &expected, (uint8_t)flag, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
        expected == (uint8_t)flag)
        return ACL_SUCCESS;
    return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                     "the event's %s flag is already %s (fixed by its first %s); it cannot be used with %s", which,
                     expected == OACL_EVENT_FLAG_EXTERNAL ? "EXTERNAL" : "DEFAULT", which,
                     flag == OACL_EVENT_FLAG_EXTERNAL ? "EXTERNAL" : "DEFAULT");
}

/* Events that may take part in EXTERNAL records and waits. */
static bool external_capable(const struct oacl_event *e)
{
    return e->kind == EVENT_EX && e->flags == ACL_EVENT_SYNC && !e->ipc;
}

/* A stream argument checked for staleness only (no context needed yet):
 * NULL stays NULL. */
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

OACL_API aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__,
                         "flag 0x%x is not ACL_EVENT_RECORD_DEFAULT or ACL_EVENT_RECORD_EXTERNAL", flag);
    if (flag == ACL_EVENT_RECORD_DEFAULT)
        return oacl_event_record(event, stream, __func__);
    struct oacl_event *e = NULL;
    aclError rc = oacl_event_get(event, &e, __func__);
    if (rc)
        return rc;
    rc = stream_live(stream, __func__);
    if (rc == ACL_SUCCESS && !external_capable(e))
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                       "EXTERNAL records need an event from aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)");
    if (rc == ACL_SUCCESS)
        rc = oacl_event_fix_flag(&e->record_flag, OACL_EVENT_FLAG_EXTERNAL, "record", __func__);
    if (rc == ACL_SUCCESS)
        rc = oacl_ri_event_external(stream, e, false, __func__); /* model_ri.c: capture only */
    oacl_obj_put(&e->obj);
    return rc;
}

/* A DEFAULT stream wait with a timeout (ns, 0 = none), in CANN's check
 * order: handles, the event (IPC events refused), then the context and the
 * stream's owner. */
static aclError wait_with_timeout(aclrtStream stream, aclrtEvent event, uint64_t timeout_ns, const char *fn)
{
    aclError rc = stream_live(stream, fn);
    if (rc)
        return rc;
    if (!event)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "event is NULL");
    struct oacl_event *e = NULL;
    if ((rc = oacl_event_get(event, &e, fn)))
        return rc;
    if (e->ipc)
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                       "event %p is an IPC event: waits with a timeout are not supported on it", event);
    if (rc == ACL_SUCCESS)
        rc = oacl_event_wait_check(e, fn);
    struct oacl_stream *s = NULL;
    if (rc == ACL_SUCCESS)
        rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc == ACL_SUCCESS) {
        rc = oacl_event_wait_enqueue(s, e, timeout_ns, fn);
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&e->obj);
    return rc;
}

OACL_API aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout)
{
    if (timeout < 0) {
        /* An API-layer check in CANN: the thread's last error stays as it is. */
        oacl_note_error("%s: timeout %d is negative (seconds, 0 = no limit) (error %d)", __func__, timeout,
                        ACL_ERROR_RT_PARAM_INVALID);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return wait_with_timeout(stream, event, (uint64_t)timeout * 1000000000ull, __func__);
}

OACL_API aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag)
{
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "event is NULL");
    if (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__,
                         "flag 0x%x is not ACL_EVENT_WAIT_DEFAULT or ACL_EVENT_WAIT_EXTERNAL", flag);
    if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "timeout must be 0 with ACL_EVENT_WAIT_EXTERNAL, not %u",
                         timeout);
    if (flag == ACL_EVENT_WAIT_DEFAULT)
        return wait_with_timeout(stream, event,
                                 timeout == UINT32_MAX ? oacl_op_wait_timeout_ns()
                                                       : (uint64_t)timeout * 1000000000ull,
                                 __func__);
    struct oacl_event *e = NULL;
    aclError rc = oacl_event_get(event, &e, __func__);
    if (rc)
        return rc;
    rc = stream_live(stream, __func__);
    if (rc == ACL_SUCCESS && !(e->flags & ACL_EVENT_SYNC) && !e->ipc)
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                       "event %p was created without ACL_EVENT_SYNC and cannot be waited for", event);
    if (rc == ACL_SUCCESS && !external_capable(e))
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                       "EXTERNAL waits need an event from aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)");
    if (rc == ACL_SUCCESS)
        rc = oacl_event_fix_flag(&e->wait_flag, OACL_EVENT_FLAG_EXTERNAL, "wait", __func__);
    if (rc == ACL_SUCCESS)
        rc = oacl_ri_event_external(stream, e, true, __func__); /* model_ri.c: capture only */
    oacl_obj_put(&e->obj);
    return rc;
}

/* ---- queries ------------------------------------------------------------------------- */

/* Checks of both status queries: live plain event, no capture (none
 * exists), the current context not stopped. +1 reference on success. */
static aclError query_event(aclrtEvent event, const void *status, struct oacl_event **out, const char *fn)
{
    if (!event || !status)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", event ? "status" : "event");
    struct oacl_event *e = NULL;
    aclError rc = oacl_event_get(event, &e, fn);
    if (rc)
        return rc;
    int stopped = oacl_ctx_stopped_error();
    if (e->kind == EVENT_EX || (e->flags & ACL_EVENT_EXTERNAL))
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "event %p is %s event: %s does not apply to it", event,
                       e->ipc ? "an IPC" : (e->flags & ACL_EVENT_EXTERNAL) ? "an EXTERNAL" : "an Ex", fn);
    else if (stopped)
        rc = oacl_fail(stopped, fn, "the current context stopped after a task failed (ACL_STOP_ON_FAILURE)");
    if (rc) {
        oacl_obj_put(&e->obj);
        return rc;
    }
    *out = e;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
    struct oacl_event *e = NULL;
    aclError rc = query_event(event, status, &e, __func__);
    if (rc)
        return rc;
    struct oacl_event_state st;
    oacl_backend()->event_query(e->be, &st);
    *status = st.waits_pending ? ACL_EVENT_WAIT_STATUS_NOT_READY : ACL_EVENT_WAIT_STATUS_COMPLETE;
    oacl_obj_put(&e->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
    struct oacl_event *e = NULL;
    aclError rc = query_event(event, status, &e, __func__);
    if (rc)
        return rc;
    struct oacl_event_state st;
    oacl_backend()->event_query(e->be, &st);
    /* Never recorded, or reset: complete (unlike aclrtQueryEventStatus). */
    *status = st.recorded && !st.complete ? ACL_EVENT_STATUS_NOT_READY : ACL_EVENT_STATUS_COMPLETE;
    oacl_obj_put(&e->obj);
    return ACL_SUCCESS;
}

/* ---- the process op-wait timeout ------------------------------------------------------ */

static uint32_t g_op_wait_s; /* atomic */

uint64_t oacl_op_wait_timeout_ns(void)
{
    return (uint64_t)__atomic_load_n(&g_op_wait_s, __ATOMIC_ACQUIRE) * 1000000000ull;
}

OACL_API aclError aclrtSetOpWaitTimeout(uint32_t timeout)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    if (p && p->npu_arch == 2002)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "%s is not supported on %s", __func__, p->name);
    __atomic_store_n(&g_op_wait_s, timeout, __ATOMIC_RELEASE);
    return ACL_SUCCESS;
}
