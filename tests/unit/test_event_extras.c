/*
 * Event extras (device-kernel chapter 4.4): records and waits with flags,
 * waits with timeouts (the process op-wait timeout too), wait status, the
 * deprecated aclrtQueryEvent, event ids and the per-device event limit.
 *
 * Work is held back with notify gates (a stream waits on a notify that the
 * test records when it wants the stream to go on), never with sleeps.
 * Timeouts are checked for their result and for not firing early; the
 * upper bound of the wait is generous (no performance is asserted).
 */
#include <stdio.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

static aclrtStream g_a, g_b, g_opener;
static aclrtNotify g_gate;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_a) || aclrtCreateStream(&g_b) || aclrtCreateStream(&g_opener) ||
        aclrtCreateNotify(&g_gate, ACL_NOTIFY_DEFAULT))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtSetOpWaitTimeout(0);
    return aclrtResetDeviceForce(0) == ACL_SUCCESS ? 0 : -1;
}

/* Holds s until gate_open(). */
static void gate_close(aclrtStream s) { ACL_OK(aclrtWaitAndResetNotify(g_gate, s, 0)); }
static void gate_open(void) { ACL_OK(aclrtRecordNotify(g_gate, g_opener)); }

/* An event recorded on g_a behind a closed gate: its record has not run. */
static aclrtEvent blocked_event(void)
{
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    gate_close(g_a);
    ACL_OK(aclrtRecordEvent(e, g_a));
    return e;
}

static aclrtEvent ex_sync_event(void)
{
    aclrtEvent e;
    ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    return e;
}

/* ---- records and waits with flags ---------------------------------------------------------------- */

static void test_record_with_flag(void **state)
{
    (void)state;
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    ACL_OK(aclrtRecordEventWithFlag(e, g_a, ACL_EVENT_RECORD_DEFAULT));
    ACL_OK(aclrtSynchronizeEvent(e));
    aclrtEventRecordedStatus st;
    ACL_OK(aclrtQueryEventStatus(e, &st));
    assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ACL_ERR(aclrtRecordEventWithFlag(e, g_a, 2), ACL_ERROR_INVALID_PARAM, "flag 0x2");
    ACL_ERR(aclrtRecordEventWithFlag(NULL, g_a, 0), ACL_ERROR_INVALID_PARAM, "event");
    /* EXTERNAL with a plain event: 207000; with a suitable one outside capture: 107029. */
    ACL_ERR(aclrtRecordEventWithFlag(e, g_a, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)");
    aclrtEvent x = ex_sync_event();
    ACL_ERR(aclrtRecordEventWithFlag(x, g_a, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED,
            "not being captured");
    /* That fixed x's record flag: a plain record is refused now. */
    ACL_ERR(aclrtRecordEvent(x, g_a), ACL_ERROR_RT_PARAM_INVALID, "already EXTERNAL");
    ACL_ERR(aclrtRecordEventWithFlag(x, g_a, ACL_EVENT_RECORD_DEFAULT), ACL_ERROR_RT_PARAM_INVALID,
            "already EXTERNAL");
    /* The other way round: after aclrtRecordEvent, EXTERNAL is refused. */
    aclrtEvent y = ex_sync_event();
    ACL_OK(aclrtRecordEvent(y, g_a));
    ACL_ERR(aclrtRecordEventWithFlag(y, g_a, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID,
            "already DEFAULT");
    /* An Ex event with more than ACL_EVENT_SYNC does not qualify. */
    aclrtEvent z;
    ACL_OK(aclrtCreateEventExWithFlag(&z, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
    ACL_ERR(aclrtRecordEventWithFlag(z, g_a, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, NULL);
    ACL_OK(aclrtRecordEvent(z, g_a)); /* nothing was fixed by the refusal */
    /* Stale handles. */
    ACL_OK(aclrtDestroyEvent(z));
    ACL_ERR(aclrtRecordEventWithFlag(z, g_a, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    aclrtStream dead;
    ACL_OK(aclrtCreateStream(&dead));
    ACL_OK(aclrtDestroyStream(dead));
    aclrtEvent w = ex_sync_event();
    ACL_ERR(aclrtRecordEventWithFlag(w, dead, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    ACL_OK(aclrtRecordEventWithFlag(w, g_a, ACL_EVENT_RECORD_DEFAULT)); /* still unfixed */
    /* IPC events take no EXTERNAL records. */
    aclrtEvent ipc;
    ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
    ACL_ERR(aclrtRecordEventWithFlag(ipc, g_a, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, NULL);
    ACL_OK(aclrtSynchronizeStream(g_a));
    ACL_OK(aclrtDestroyEvent(ipc));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyEvent(x));
    ACL_OK(aclrtDestroyEvent(y));
    ACL_OK(aclrtDestroyEvent(w));
}

static void test_wait_with_flag(void **state)
{
    (void)state;
    aclrtEvent x = ex_sync_event();
    ACL_ERR(aclrtStreamWaitEventWithFlag(g_b, x, 5, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM,
            "timeout must be 0");
    ACL_ERR(aclrtStreamWaitEventWithFlag(g_b, x, 0, 3), ACL_ERROR_INVALID_PARAM, "flag 0x3");
    ACL_ERR(aclrtStreamWaitEventWithFlag(g_b, NULL, 0, 0), ACL_ERROR_INVALID_PARAM, "event");
    ACL_ERR(aclrtStreamWaitEventWithFlag(g_b, x, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED,
            "not being captured");
    ACL_ERR(aclrtStreamWaitEvent(g_b, x), ACL_ERROR_RT_PARAM_INVALID, "already EXTERNAL");
    aclrtEvent plain;
    ACL_OK(aclrtCreateEvent(&plain));
    ACL_ERR(aclrtStreamWaitEventWithFlag(g_b, plain, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)");
    aclrtEvent tl;
    ACL_OK(aclrtCreateEventWithFlag(&tl, ACL_EVENT_TIME_LINE));
    ACL_ERR(aclrtStreamWaitEventWithFlag(g_b, tl, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "without ACL_EVENT_SYNC");
    aclrtEvent ipc;
    ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
    ACL_ERR(aclrtStreamWaitEventWithFlag(g_b, ipc, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)");
    ACL_ERR(aclrtStreamWaitEventWithFlag(g_b, ipc, 1, ACL_EVENT_WAIT_DEFAULT), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "IPC event");
    ACL_OK(aclrtDestroyEvent(ipc));
    /* DEFAULT: a plain wait; after it EXTERNAL is refused. */
    ACL_OK(aclrtRecordEvent(plain, g_a));
    ACL_OK(aclrtStreamWaitEventWithFlag(g_b, plain, 0, ACL_EVENT_WAIT_DEFAULT));
    aclrtEvent y = ex_sync_event();
    ACL_OK(aclrtStreamWaitEventWithFlag(g_b, y, 0, ACL_EVENT_WAIT_DEFAULT)); /* never recorded Ex: a no-op */
    ACL_ERR(aclrtStreamWaitEventWithFlag(g_b, y, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID,
            "already DEFAULT");
    ACL_OK(aclrtSynchronizeStream(g_b));
    ACL_OK(aclrtDestroyEvent(x));
    ACL_OK(aclrtDestroyEvent(y));
    ACL_OK(aclrtDestroyEvent(plain));
    ACL_OK(aclrtDestroyEvent(tl));
}

/* ---- waits with timeouts -------------------------------------------------------------------------------- */

static void test_wait_timeout_args(void **state)
{
    (void)state;
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    /* A negative timeout is refused by the API layer: no last error. */
    ACL_ERR(aclrtStreamWaitEventWithTimeout(g_b, e, -1), ACL_ERROR_RT_PARAM_INVALID, "negative");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    ACL_ERR(aclrtStreamWaitEventWithTimeout(g_b, NULL, 1), ACL_ERROR_RT_PARAM_INVALID, "event is NULL");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    ACL_ERR(aclrtStreamWaitEventWithTimeout(g_b, e, 1), ACL_ERROR_RT_PARAM_INVALID, "has not been recorded");
    aclrtEvent tl;
    ACL_OK(aclrtCreateEventWithFlag(&tl, ACL_EVENT_TIME_LINE));
    ACL_ERR(aclrtStreamWaitEventWithTimeout(g_b, tl, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "ACL_EVENT_SYNC");
    aclrtEvent ipc;
    ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
    ACL_ERR(aclrtStreamWaitEventWithTimeout(g_b, ipc, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "IPC event");
    ACL_OK(aclrtStreamWaitEvent(g_b, ipc)); /* a plain wait on it is fine */
    aclrtStream dead;
    ACL_OK(aclrtCreateStream(&dead));
    ACL_OK(aclrtDestroyStream(dead));
    ACL_ERR(aclrtStreamWaitEventWithTimeout(dead, NULL, 1), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_OK(aclrtDestroyEvent(tl));
    ACL_ERR(aclrtStreamWaitEventWithTimeout(g_b, tl, 1), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    /* A stream of another context; and no context at all. */
    ACL_OK(aclrtRecordEvent(e, g_a));
    aclrtContext other;
    ACL_OK(aclrtCreateContext(&other, 1));
    ACL_ERR(aclrtStreamWaitEventWithTimeout(g_b, e, 1), ACL_ERROR_RT_STREAM_CONTEXT, "another context");
    ACL_OK(aclrtDestroyContext(other));
    ACL_ERR(aclrtStreamWaitEventWithTimeout(NULL, e, 1), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtStreamWaitEventWithTimeout(g_b, e, 1));
    ACL_OK(aclrtSynchronizeStream(g_b));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyEvent(ipc));
}

/* A wait whose record never runs within the timeout fails its stream with
 * 107020, not earlier than the timeout and without hanging. */
static void test_wait_timeout_expires(void **state)
{
    (void)state;
    aclrtEvent e = blocked_event();
    ACL_OK(aclrtStreamWaitEventWithTimeout(g_b, e, 1));
    uint64_t t0 = test_now_ms();
    ACL_ERR(aclrtSynchronizeStream(g_b), ACL_ERROR_RT_TASK_TIMEOUT, "did not happen within 1000 ms");
    uint64_t dt = test_now_ms() - t0;
    assert_true(dt >= 900);    /* never early (clock granularity aside) */
    assert_true(dt < 60000);   /* generous: it must end, not hang */
    /* The stream goes on (ACL_CONTINUE_ON_FAILURE). */
    ACL_OK(aclrtSynchronizeStream(g_b));
    /* A wait that is released in time passes. */
    ACL_OK(aclrtStreamWaitEventWithTimeout(g_b, e, 600));
    aclrtStreamStatus st;
    ACL_OK(aclrtStreamQuery(g_b, &st));
    assert_int_equal(st, ACL_STREAM_STATUS_NOT_READY);
    gate_open();
    ACL_OK(aclrtSynchronizeStream(g_b));
    ACL_OK(aclrtSynchronizeStream(g_a));
    ACL_OK(aclrtDestroyEvent(e));
}

/* DEFAULT with 0xFFFFFFFF and plain waits use the op-wait timeout in
 * force when they are enqueued. */
static void test_op_wait_timeout(void **state)
{
    (void)state;
    aclrtEvent e = blocked_event();
    aclrtStream c, d, f;
    ACL_OK(aclrtCreateStream(&c));
    ACL_OK(aclrtCreateStream(&d));
    ACL_OK(aclrtCreateStream(&f));
    ACL_OK(aclrtStreamWaitEvent(c, e)); /* before the setting: no timeout */
    ACL_OK(aclrtSetOpWaitTimeout(1));
    ACL_OK(aclrtStreamWaitEvent(d, e));
    ACL_OK(aclrtStreamWaitEventWithFlag(f, e, UINT32_MAX, ACL_EVENT_WAIT_DEFAULT));
    ACL_ERR(aclrtSynchronizeStream(d), ACL_ERROR_RT_TASK_TIMEOUT, NULL);
    ACL_ERR(aclrtSynchronizeStream(f), ACL_ERROR_RT_TASK_TIMEOUT, NULL);
    aclrtStreamStatus st;
    ACL_OK(aclrtStreamQuery(c, &st));
    assert_int_equal(st, ACL_STREAM_STATUS_NOT_READY); /* still waiting, unaffected */
    ACL_OK(aclrtSetOpWaitTimeout(0));
    gate_open();
    ACL_OK(aclrtSynchronizeStream(c));
    ACL_OK(aclrtSynchronizeStream(g_a));
    ACL_OK(aclrtDestroyStream(c));
    ACL_OK(aclrtDestroyStream(d));
    ACL_OK(aclrtDestroyStream(f));
    ACL_OK(aclrtDestroyEvent(e));
}

/* ---- status queries ----------------------------------------------------------------------------------------- */

static void test_wait_status(void **state)
{
    (void)state;
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
    assert_int_equal(ws, ACL_EVENT_WAIT_STATUS_COMPLETE); /* no wait ever */
    ACL_OK(aclrtRecordEvent(e, g_a));
    ACL_OK(aclrtSynchronizeStream(g_a));
    gate_close(g_b); /* the wait sits behind the gate */
    ACL_OK(aclrtStreamWaitEvent(g_b, e));
    ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
    assert_int_equal(ws, ACL_EVENT_WAIT_STATUS_NOT_READY);
    gate_open();
    ACL_OK(aclrtSynchronizeStream(g_b));
    ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
    assert_int_equal(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
    /* A wait that timed out is no longer pending either. */
    aclrtEvent blocked = blocked_event();
    ACL_OK(aclrtStreamWaitEventWithTimeout(g_b, blocked, 1));
    ACL_OK(aclrtQueryEventWaitStatus(blocked, &ws));
    assert_int_equal(ws, ACL_EVENT_WAIT_STATUS_NOT_READY);
    ACL_ERR(aclrtSynchronizeStream(g_b), ACL_ERROR_RT_TASK_TIMEOUT, NULL);
    ACL_OK(aclrtQueryEventWaitStatus(blocked, &ws));
    assert_int_equal(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
    gate_open();
    ACL_OK(aclrtSynchronizeStream(g_a));
    /* Bad inputs. */
    ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    aclrtEvent x = ex_sync_event();
    ACL_ERR(aclrtQueryEventWaitStatus(x, &ws), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "an Ex event");
    aclrtEvent ipc;
    ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
    ACL_ERR(aclrtQueryEventWaitStatus(ipc, &ws), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "an IPC event");
    ACL_ERR(aclrtQueryEventWaitStatus(NULL, &ws), ACL_ERROR_INVALID_PARAM, "event");
    ACL_ERR(aclrtQueryEventWaitStatus(e, NULL), ACL_ERROR_INVALID_PARAM, "status");
    ACL_OK(aclrtDestroyEvent(e));
    ACL_ERR(aclrtQueryEventWaitStatus(e, &ws), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    assert_int_equal(ws, ACL_EVENT_WAIT_STATUS_RESERVED);
    ACL_OK(aclrtDestroyEvent(x));
    ACL_OK(aclrtDestroyEvent(ipc));
    ACL_OK(aclrtDestroyEvent(blocked));
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void test_query_event(void **state)
{
    (void)state;
    aclrtEvent e;
    ACL_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    ACL_OK(aclrtQueryEvent(e, &st));
    assert_int_equal(st, ACL_EVENT_STATUS_COMPLETE); /* never recorded: complete (unlike QueryEventStatus) */
    aclrtEventRecordedStatus rs;
    ACL_OK(aclrtQueryEventStatus(e, &rs));
    assert_int_equal(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    gate_close(g_a);
    ACL_OK(aclrtRecordEvent(e, g_a));
    ACL_OK(aclrtQueryEvent(e, &st));
    assert_int_equal(st, ACL_EVENT_STATUS_NOT_READY);
    gate_open();
    ACL_OK(aclrtSynchronizeEvent(e));
    ACL_OK(aclrtQueryEvent(e, &st));
    assert_int_equal(st, ACL_EVENT_STATUS_COMPLETE);
    ACL_OK(aclrtResetEvent(e, g_a));
    ACL_OK(aclrtSynchronizeStream(g_a));
    st = ACL_EVENT_STATUS_RESERVED;
    ACL_OK(aclrtQueryEvent(e, &st));
    assert_int_equal(st, ACL_EVENT_STATUS_COMPLETE); /* reset: complete */
    st = ACL_EVENT_STATUS_RESERVED;
    aclrtEvent x = ex_sync_event();
    ACL_ERR(aclrtQueryEvent(x, &st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "an Ex event");
    ACL_ERR(aclrtQueryEvent(NULL, &st), ACL_ERROR_INVALID_PARAM, "event");
    ACL_ERR(aclrtQueryEvent(e, NULL), ACL_ERROR_INVALID_PARAM, "status");
    aclrtEvent ipc;
    ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
    ACL_ERR(aclrtQueryEvent(ipc, &st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "an IPC event");
    ACL_OK(aclrtDestroyEvent(e));
    ACL_ERR(aclrtQueryEvent(e, &st), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    assert_int_equal(st, ACL_EVENT_STATUS_RESERVED);
    ACL_OK(aclrtDestroyEvent(x));
    ACL_OK(aclrtDestroyEvent(ipc));
}

/* A context stopped by a failure reports it from both queries. */
static void test_query_stopped_context(void **state)
{
    (void)state;
    aclrtEvent blocked = blocked_event(); /* recorded in the default context, behind the gate */
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    aclrtContext ctx;
    ACL_OK(aclrtCreateContext(&ctx, 0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ACL_OK(aclrtStreamWaitEventWithTimeout(s, blocked, 1)); /* times out: the context stops */
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT, NULL);
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    ACL_ERR(aclrtQueryEvent(e, &st), ACL_ERROR_RT_TASK_TIMEOUT, "stopped");
    ACL_ERR(aclrtQueryEventWaitStatus(e, &ws), ACL_ERROR_RT_TASK_TIMEOUT, "stopped");
    assert_int_equal(st, ACL_EVENT_STATUS_RESERVED);
    assert_int_equal(ws, ACL_EVENT_WAIT_STATUS_RESERVED);
    ACL_OK(aclrtDestroyContext(ctx));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtQueryEvent(e, &st));
    gate_open();
    ACL_OK(aclrtSynchronizeStream(g_a));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyEvent(blocked));
}
#pragma GCC diagnostic pop

/* ---- ids and counts ------------------------------------------------------------------------------------------ */

static void test_event_ids(void **state)
{
    (void)state;
    aclrtEvent e[6];
    uint32_t id[6];
    for (int i = 0; i < 6; i++) {
        if (i % 2)
            ACL_OK(aclrtCreateEventExWithFlag(&e[i], ACL_EVENT_SYNC));
        else
            ACL_OK(aclrtCreateEvent(&e[i]));
        ACL_OK(aclrtGetEventId(e[i], &id[i]));
        for (int j = 0; j < i; j++)
            assert_int_not_equal(id[i], id[j]);
    }
    /* Ids are taken lowest first, so every id below the six is in use:
       the one freed is the lowest free one and is given out next. */
    uint32_t freed = id[2];
    ACL_OK(aclrtDestroyEvent(e[2]));
    ACL_OK(aclrtCreateEvent(&e[2]));
    ACL_OK(aclrtGetEventId(e[2], &id[2]));
    assert_int_equal(id[2], freed);
    uint32_t keep = 77;
    aclrtEvent ipc;
    ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
    ACL_ERR(aclrtGetEventId(ipc, &keep), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "IPC event");
    ACL_ERR(aclrtGetEventId(NULL, &keep), ACL_ERROR_INVALID_PARAM, "event");
    ACL_ERR(aclrtGetEventId(e[0], NULL), ACL_ERROR_INVALID_PARAM, "eventId");
    ACL_OK(aclrtDestroyEvent(e[0]));
    ACL_ERR(aclrtGetEventId(e[0], &keep), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    assert_int_equal(keep, 77);
    for (int i = 1; i < 6; i++)
        ACL_OK(aclrtDestroyEvent(e[i]));
    ACL_OK(aclrtDestroyEvent(ipc));
}

static void test_event_avail(void **state)
{
    (void)state;
    uint32_t before = 0, n = 0;
    ACL_OK(aclrtGetEventAvailNum(&before));
    assert_true(before <= 65536);
    aclrtEvent e[3];
    for (int i = 0; i < 3; i++) {
        ACL_OK(aclrtCreateEvent(&e[i]));
        ACL_OK(aclrtGetEventAvailNum(&n));
        assert_int_equal(n, before - 1 - (uint32_t)i);
    }
    for (int i = 0; i < 3; i++)
        ACL_OK(aclrtDestroyEvent(e[i]));
    ACL_OK(aclrtGetEventAvailNum(&n));
    assert_int_equal(n, before);
    /* Device 1 counts its own. */
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtGetEventAvailNum(&n));
    assert_int_equal(n, 65536);
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtGetEventAvailNum(NULL), ACL_ERROR_INVALID_PARAM, "eventCount");
}

/* OACL_EVENT_LIMIT=4: the fifth event is refused until one goes. */
static void child_event_limit(void)
{
    CHILD_OK(aclrtSetDevice(0));
    aclrtEvent e[5] = {0};
    for (int i = 0; i < 4; i++)
        CHILD_OK(aclrtCreateEvent(&e[i]));
    uint32_t n = 9;
    CHILD_OK(aclrtGetEventAvailNum(&n));
    CHILD_CHECK_INT(n, 0);
    CHILD_ERR(aclrtCreateEvent(&e[4]), ACL_ERROR_RT_NO_EVENT_RESOURCE, "limit");
    CHILD_ERR(aclrtCreateEventExWithFlag(&e[4], ACL_EVENT_SYNC), ACL_ERROR_RT_NO_EVENT_RESOURCE, "limit");
    CHILD_CHECK(e[4] == NULL);
    CHILD_OK(aclrtDestroyEvent(e[1]));
    CHILD_OK(aclrtCreateEvent(&e[4]));
    uint32_t id = 99;
    CHILD_OK(aclrtGetEventId(e[4], &id));
    CHILD_CHECK_INT(id, 1); /* the lowest free id */
    for (int i = 0; i < 5; i++)
        if (i != 1)
            CHILD_OK(aclrtDestroyEvent(e[i]));
    CHILD_OK(aclrtResetDevice(0));
}

static void child_event_limit_310p(void)
{
    CHILD_OK(aclrtSetDevice(0));
    uint32_t n = 0;
    CHILD_OK(aclrtGetEventAvailNum(&n));
    CHILD_CHECK_INT(n, 1024);
    CHILD_OK(aclrtResetDevice(0));
}

static void child_event_limit_950(void)
{
    CHILD_OK(aclrtSetDevice(0));
    uint32_t n = 0;
    CHILD_OK(aclrtGetEventAvailNum(&n));
    CHILD_CHECK_INT(n, 131072);
    CHILD_OK(aclrtResetDevice(0));
}

static void test_event_limits(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("event_limit", "OACL_EVENT_LIMIT=4");
    ASSERT_CHILD_OK("event_limit_310p", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("event_limit_950", "OACL_SOC=Ascend950PR_9599");
}

int main(int argc, char **argv)
{
    static const struct oacl_child_mode modes[] = {
        {"event_limit", child_event_limit},
        {"event_limit_310p", child_event_limit_310p},
        {"event_limit_950", child_event_limit_950},
    };
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(modes, sizeof(modes) / sizeof(modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_with_flag),
        cmocka_unit_test(test_wait_with_flag),
        cmocka_unit_test(test_wait_timeout_args),
        cmocka_unit_test(test_wait_timeout_expires),
        cmocka_unit_test(test_op_wait_timeout),
        cmocka_unit_test(test_wait_status),
        cmocka_unit_test(test_query_event),
        cmocka_unit_test(test_query_stopped_context),
        cmocka_unit_test(test_event_ids),
        cmocka_unit_test(test_event_avail),
        cmocka_unit_test(test_event_limits),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
