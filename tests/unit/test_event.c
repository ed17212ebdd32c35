/*
 * Events: creation, record, query, synchronise, reset, timing, stream
 * waits (also across devices), and their bad inputs.
 */
#include <string.h>

#include "test_support.h"

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_sleep, g_fill, g_copy;
static struct test_buf g_counter;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "sleep_kernel", &g_sleep) || aclrtBinaryGetFunction(g_bin, "fill_u32", &g_fill) ||
        aclrtBinaryGetFunction(g_bin, "copy_plus", &g_copy))
        return -1;
    test_buf_alloc(&g_counter, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_counter);
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

static void launch_sleep(aclrtStream s, uint32_t ms)
{
    const void *v[] = {&g_counter.dev, &ms};
    size_t sz[] = {8, 4};
    ACL_OK(test_launch(g_sleep, 1, s, 2, v, sz));
}

static aclrtEventRecordedStatus status_of(aclrtEvent e)
{
    aclrtEventRecordedStatus st = (aclrtEventRecordedStatus)99;
    ACL_OK(aclrtQueryEventStatus(e, &st));
    return st;
}

static void test_create_and_destroy(void **state)
{
    (void)state;
    aclrtEvent e = NULL;
    ACL_OK(aclrtCreateEvent(&e));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_ERR(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    ACL_ERR(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM, "event is NULL");
    ACL_ERR(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM, "event is NULL");
    for (uint32_t f = 1; f <= 0xF; f++) {
        if (f & 0x4)
            continue; /* 0x4 is no event flag */
        ACL_OK(aclrtCreateEventWithFlag(&e, f));
        ACL_OK(aclrtDestroyEvent(e));
        ACL_OK(aclrtCreateEventExWithFlag(&e, f));
        ACL_OK(aclrtDestroyEvent(e));
    }
    ACL_ERR(aclrtCreateEventWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM, "event is NULL");
    ACL_ERR(aclrtCreateEventWithFlag(&e, 0), ACL_ERROR_RT_PARAM_INVALID, "flag 0x0");
    ACL_ERR(aclrtCreateEventWithFlag(&e, 0x4), ACL_ERROR_RT_PARAM_INVALID, "flag 0x4");
    ACL_ERR(aclrtCreateEventWithFlag(&e, 0x80), ACL_ERROR_RT_PARAM_INVALID, "flag 0x80");
    ACL_ERR(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID, "alone");
    ACL_ERR(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    ACL_ERR(aclrtCreateEventWithFlag(&e, ACL_EVENT_DEVICE_USE_ONLY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    ACL_ERR(aclrtCreateEventExWithFlag(&e, 0), ACL_ERROR_RT_PARAM_INVALID, "flag 0x0");
    ACL_ERR(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID, "invalid");
    /* IPC events are real (acl-rt-ipc-vmm.md C1); tests/unit/test_ipc_event.c covers them. */
    ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_ERR(aclrtCreateEventExWithFlag(&e, ACL_EVENT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID, "invalid");
}

static void *no_context_thread(void *arg)
{
    aclrtEvent e;
    ACL_ERR(aclrtCreateEvent(&e), ACL_ERROR_RT_CONTEXT_NULL, "no current context");
    ACL_ERR(aclrtRecordEvent((aclrtEvent)arg, NULL), ACL_ERROR_RT_CONTEXT_NULL, "no current context");
    return NULL;
}

static void test_record_query_sync(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    /* Never recorded: not ready; synchronising returns at once. */
    assert_int_equal(status_of(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ACL_OK(aclrtSynchronizeEvent(e));
    launch_sleep(s, 40);
    ACL_OK(aclrtRecordEvent(e, s));
    assert_int_equal(status_of(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ACL_OK(aclrtSynchronizeEvent(e));
    assert_int_equal(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    /* Re-recording replaces the capture. */
    launch_sleep(s, 40);
    ACL_OK(aclrtRecordEvent(e, s));
    assert_int_equal(status_of(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ACL_ERR(aclrtSynchronizeEventWithTimeout(e, 1), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "still running");
    ACL_OK(aclrtSynchronizeEventWithTimeout(e, 60000));
    assert_int_equal(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    /* Bad inputs. */
    aclrtEventRecordedStatus st;
    int local;
    ACL_ERR(aclrtQueryEventStatus(NULL, &st), ACL_ERROR_INVALID_PARAM, "event is NULL");
    ACL_ERR(aclrtQueryEventStatus(e, NULL), ACL_ERROR_INVALID_PARAM, "status is NULL");
    ACL_ERR(aclrtQueryEventStatus(s, &st), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    ACL_ERR(aclrtRecordEvent(NULL, s), ACL_ERROR_INVALID_PARAM, "event is NULL");
    ACL_ERR(aclrtRecordEvent(e, &local), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_ERR(aclrtRecordEvent(s, s), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    ACL_ERR(aclrtSynchronizeEvent(NULL), ACL_ERROR_INVALID_PARAM, "event is NULL");
    ACL_ERR(aclrtSynchronizeEventWithTimeout(e, 0), ACL_ERROR_RT_PARAM_INVALID, "timeout 0");
    ACL_ERR(aclrtSynchronizeEventWithTimeout(e, -2), ACL_ERROR_RT_PARAM_INVALID, "timeout -2");
    oacl_test_run_thread(no_context_thread, e);
    ACL_OK(aclrtDestroyEvent(e));
    ACL_ERR(aclrtSynchronizeEvent(e), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    ACL_ERR(aclrtQueryEventStatus(e, &st), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    ACL_OK(aclrtDestroyStream(s));
}

/* Never-recorded Ex events are complete and waiting for them is a no-op;
 * other events cannot be waited for before a record. */
static void test_never_recorded(void **state)
{
    (void)state;
    aclrtEvent plain, ex, nosync;
    ACL_OK(aclrtCreateEvent(&plain));
    ACL_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ACL_OK(aclrtCreateEventWithFlag(&nosync, ACL_EVENT_TIME_LINE));
    assert_int_equal(status_of(ex), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ACL_OK(aclrtStreamWaitEvent(NULL, ex));
    ACL_ERR(aclrtStreamWaitEvent(NULL, plain), ACL_ERROR_RT_PARAM_INVALID, "has not been recorded");
    ACL_OK(aclrtRecordEvent(nosync, NULL));
    ACL_ERR(aclrtStreamWaitEvent(NULL, nosync), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "ACL_EVENT_SYNC");
    ACL_ERR(aclrtStreamWaitEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM, "event is NULL");
    int local;
    ACL_ERR(aclrtStreamWaitEvent(&local, ex), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtDestroyEvent(plain));
    ACL_OK(aclrtDestroyEvent(ex));
    ACL_OK(aclrtDestroyEvent(nosync));
}

/* Two streams joined by an event produce the right data, 1000 times: the
 * consumer's copy waits for the producer's fill. */
static void test_cross_stream_ordering(void **state)
{
    (void)state;
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    struct test_buf x, y;
    test_buf_alloc(&x, 4096);
    test_buf_alloc(&y, 4096);
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    uint32_t count = 64, one = 1;
    for (uint32_t k = 1; k <= 1000; k++) {
        if (k % 50 == 0)
            launch_sleep(a, 2); /* make the producer visibly late now and then */
        const void *fv[] = {&x.dev, &k, &count};
        size_t fs[] = {8, 4, 4};
        ACL_OK(test_launch(g_fill, 4, a, 3, fv, fs));
        ACL_OK(aclrtRecordEvent(e, a));
        ACL_OK(aclrtStreamWaitEvent(b, e));
        const void *cv[] = {&x.dev, &y.dev, &one, &count};
        size_t cs[] = {8, 8, 4, 4};
        ACL_OK(test_launch(g_copy, 4, b, 4, cv, cs));
        ACL_OK(aclrtSynchronizeStream(b));
        const uint32_t *h = y.host;
        for (uint32_t i = 0; i < 4 * count; i++)
            if (h[i] != k + i / count + 1)
                fail_msg("iteration %u: y[%u] = %u, expected %u", k, i, h[i], k + i / count + 1);
    }
    ACL_OK(aclrtDestroyEvent(e));
    test_buf_free(&y);
    test_buf_free(&x);
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
}

/* A wait keeps the capture it was enqueued against: re-recording the event
 * on an idle stream afterwards does not release it early. */
static void test_wait_keeps_its_capture(void **state)
{
    (void)state;
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    struct test_buf flag;
    test_buf_alloc(&flag, 4096);
    launch_sleep(a, 30);
    ACL_OK(aclrtRecordEvent(e, a));
    ACL_OK(aclrtStreamWaitEvent(b, e));
    ACL_OK(aclrtRecordEvent(e, NULL)); /* a new capture on the idle default stream */
    uint32_t before = *(volatile uint32_t *)g_counter.host;
    const void *v[] = {&flag.dev, &before, &(uint32_t){1}};
    size_t sz[] = {8, 4, 4};
    ACL_OK(test_launch(g_fill, 1, b, 3, v, sz)); /* writes the counter value seen at launch time */
    ACL_OK(aclrtSynchronizeStream(b));
    /* By the time b ran its fill, a's sleep had finished. */
    assert_true(*(volatile uint32_t *)g_counter.host >= before + 1);
    ACL_OK(aclrtSynchronizeStream(a));
    test_buf_free(&flag);
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
}

static void test_elapsed_time(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtEvent start, end;
    ACL_OK(aclrtCreateEvent(&start));
    ACL_OK(aclrtCreateEvent(&end));
    ACL_OK(aclrtRecordEvent(start, s));
    launch_sleep(s, 10);
    ACL_OK(aclrtRecordEvent(end, s));
    ACL_OK(aclrtSynchronizeStream(s));
    float ms = -1;
    ACL_OK(aclrtEventElapsedTime(&ms, start, end));
    /* The kernel slept 10 ms between the two records. */
    if (ms < 9.9f || ms > 1000.0f)
        fail_msg("elapsed %.3f ms for a 10 ms kernel", (double)ms);
    float back;
    ACL_OK(aclrtEventElapsedTime(&back, end, start));
    assert_true(back < 0 && back == -ms);
    uint64_t t0 = 0, t1 = 0;
    ACL_OK(aclrtEventGetTimestamp(start, &t0));
    ACL_OK(aclrtEventGetTimestamp(end, &t1));
    assert_true(t1 >= t0 + 9900);
    /* Bad inputs. */
    aclrtEvent fresh, notime;
    ACL_OK(aclrtCreateEvent(&fresh));
    ACL_OK(aclrtCreateEventWithFlag(&notime, ACL_EVENT_SYNC));
    ACL_OK(aclrtRecordEvent(notime, s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_ERR(aclrtEventElapsedTime(NULL, start, end), ACL_ERROR_INVALID_PARAM, "ms is NULL");
    ACL_ERR(aclrtEventElapsedTime(&ms, NULL, end), ACL_ERROR_INVALID_PARAM, "startEvent");
    ACL_ERR(aclrtEventElapsedTime(&ms, start, NULL), ACL_ERROR_INVALID_PARAM, "endEvent");
    ACL_ERR(aclrtEventElapsedTime(&ms, start, fresh), ACL_ERROR_RT_INTERNAL_ERROR, "has not been recorded");
    ACL_ERR(aclrtEventElapsedTime(&ms, notime, end), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "no timestamps");
    ACL_ERR(aclrtEventGetTimestamp(fresh, &t0), ACL_ERROR_RT_INTERNAL_ERROR, "has not been recorded");
    ACL_ERR(aclrtEventGetTimestamp(start, NULL), ACL_ERROR_INVALID_PARAM, "timestamp is NULL");
    launch_sleep(s, 30);
    ACL_OK(aclrtRecordEvent(fresh, s));
    ACL_ERR(aclrtEventGetTimestamp(fresh, &t0), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "has not run yet");
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtEventGetTimestamp(fresh, &t0));
    for (aclrtEvent *ev = (aclrtEvent[]){start, end, fresh, notime}, *stop = ev + 4; ev < stop; ev++)
        ACL_OK(aclrtDestroyEvent(*ev));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_reset(void **state)
{
    (void)state;
    aclrtEvent sync, plain, ex;
    ACL_OK(aclrtCreateEventWithFlag(&sync, ACL_EVENT_SYNC));
    ACL_OK(aclrtCreateEvent(&plain));
    ACL_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ACL_OK(aclrtRecordEvent(sync, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(status_of(sync), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ACL_OK(aclrtResetEvent(sync, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(status_of(sync), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ACL_ERR(aclrtStreamWaitEvent(NULL, sync), ACL_ERROR_RT_PARAM_INVALID, "has not been recorded");
    ACL_OK(aclrtRecordEvent(sync, NULL)); /* reusable after a reset */
    ACL_OK(aclrtSynchronizeEvent(sync));
    assert_int_equal(status_of(sync), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ACL_ERR(aclrtResetEvent(plain, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "can be reset");
    ACL_ERR(aclrtResetEvent(ex, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "can be reset");
    ACL_ERR(aclrtResetEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM, "event is NULL");
    ACL_OK(aclrtDestroyEvent(sync));
    ACL_OK(aclrtDestroyEvent(plain));
    ACL_OK(aclrtDestroyEvent(ex));
}

/* Destroying an event (or a stream) with work pending never hangs or
 * crashes; waits already queued still complete. */
static void test_destroy_with_pending_work(void **state)
{
    (void)state;
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    launch_sleep(a, 20);
    ACL_OK(aclrtRecordEvent(e, a));
    ACL_OK(aclrtStreamWaitEvent(b, e));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtSynchronizeStream(b));
    ACL_OK(aclrtSynchronizeStream(a));
    /* A stream blocked on an event that another stream records only after a
       long kernel: forcing its destruction returns at once; its wait and the
       kernel behind it still run. */
    ACL_OK(aclrtCreateEvent(&e));
    launch_sleep(a, 200);
    ACL_OK(aclrtRecordEvent(e, a));
    ACL_OK(aclrtStreamWaitEvent(b, e));
    launch_sleep(b, 1);
    ACL_OK(aclrtDestroyStreamForce(b));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyStream(a));
}

/* A stream of device 0 waits for an event recorded on device 1. */
static void test_cross_device_wait(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(1));
    aclrtStream s1;
    ACL_OK(aclrtCreateStream(&s1));
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    aclrtBinHandle bin1;
    aclrtFuncHandle sleep1;
    test_load("rt_misc", "sleep_kernel", &bin1, &sleep1);
    uint32_t ms = 30;
    const void *v[] = {&g_counter.dev, &ms};
    size_t sz[] = {8, 4};
    ACL_OK(test_launch(sleep1, 1, s1, 2, v, sz));
    ACL_OK(aclrtRecordEvent(e, s1));
    ACL_OK(aclrtSetDevice(0));
    uint32_t before = *(volatile uint32_t *)g_counter.host;
    ACL_OK(aclrtStreamWaitEvent(NULL, e));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_true(*(volatile uint32_t *)g_counter.host >= before + 1);
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtBinaryUnLoad(bin1));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyStream(s1));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
}

/* The first failure before a record is reported by synchronising the event. */
static void test_event_reports_failure(void **state)
{
    (void)state;
    aclrtBinHandle faults;
    aclrtFuncHandle trap;
    test_load("rt_faults", "trap_kernel", &faults, &trap);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    uint32_t bad = 0;
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    const void *v[] = {&out.dev, &bad};
    size_t sz[] = {8, 4};
    ACL_OK(test_launch(trap, 1, s, 2, v, sz));
    ACL_OK(aclrtRecordEvent(e, s));
    ACL_ERR(aclrtSynchronizeEvent(e), ACL_ERROR_RT_AICORE_EXCEPTION, "failed");
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, "trap");
    test_buf_free(&out);
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtBinaryUnLoad(faults));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_and_destroy), cmocka_unit_test(test_record_query_sync),
        cmocka_unit_test(test_never_recorded),     cmocka_unit_test(test_cross_stream_ordering),
        cmocka_unit_test(test_wait_keeps_its_capture), cmocka_unit_test(test_elapsed_time),
        cmocka_unit_test(test_reset),              cmocka_unit_test(test_destroy_with_pending_work),
        cmocka_unit_test(test_cross_device_wait),  cmocka_unit_test(test_event_reports_failure),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
