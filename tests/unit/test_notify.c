/*
 * Notifies: creation and ids, record/wait ordering between streams, one
 * record per passing wait, wait timeouts, destroys with work pending,
 * forced stream destroys and stopped contexts with parked waits, and bad
 * inputs.
 */
#include <string.h>
#include <time.h>

#include "test_support.h"

static aclrtBinHandle g_misc, g_faults;
static aclrtFuncHandle g_sleep, g_copy, g_fill, g_trap;
static struct test_buf g_buf;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_misc) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_faults"), NULL, &g_faults) ||
        aclrtBinaryGetFunction(g_misc, "sleep_kernel", &g_sleep) ||
        aclrtBinaryGetFunction(g_misc, "copy_plus", &g_copy) || aclrtBinaryGetFunction(g_misc, "fill_u32", &g_fill) ||
        aclrtBinaryGetFunction(g_faults, "trap_kernel", &g_trap))
        return -1;
    test_buf_alloc(&g_buf, 1 << 16);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_buf);
    aclrtBinaryUnLoad(g_faults);
    aclrtBinaryUnLoad(g_misc);
    return aclrtResetDeviceForce(0);
}

static void sleep_on(aclrtStream s, uint32_t ms)
{
    void *counter = (char *)g_buf.dev + 60000;
    const void *v[] = {&counter, &ms};
    size_t sz[] = {8, 4};
    ACL_OK(test_launch(g_sleep, 1, s, 2, v, sz));
}

static aclrtStreamStatus query(aclrtStream s)
{
    aclrtStreamStatus st = (aclrtStreamStatus)99;
    ACL_OK(aclrtStreamQuery(s, &st));
    return st;
}

/* Polls until the stream completes or ms pass; true when it completed. */
static bool completes_within(aclrtStream s, unsigned ms)
{
    uint64_t end = test_now_ms() + ms;
    do {
        if (query(s) == ACL_STREAM_STATUS_COMPLETE)
            return true;
        test_sleep_ms(1);
    } while (test_now_ms() < end);
    return false;
}

static void test_create_destroy_and_ids(void **state)
{
    (void)state;
    aclrtNotify a = NULL, b = NULL;
    ACL_OK(aclrtCreateNotify(&a, ACL_NOTIFY_DEFAULT));
    ACL_OK(aclrtCreateNotify(&b, ACL_NOTIFY_DEVICE_USE_ONLY));
    assert_non_null(a);
    assert_ptr_not_equal(a, b);
    uint32_t ida = 0xFFFFFFFFu, idb = 0xFFFFFFFFu;
    ACL_OK(aclrtGetNotifyId(a, &ida));
    ACL_OK(aclrtGetNotifyId(b, &idb));
    assert_int_not_equal(ida, idb);

    ACL_ERR(aclrtCreateNotify(NULL, 0), ACL_ERROR_INVALID_PARAM, "notify is NULL");
    aclrtNotify untouched = (aclrtNotify)0x1234;
    ACL_ERR(aclrtCreateNotify(&untouched, 2), ACL_ERROR_INVALID_PARAM, "flag 0x2");
    ACL_ERR(aclrtCreateNotify(&untouched, 1ull << 40), ACL_ERROR_INVALID_PARAM, "flag");
    assert_ptr_equal(untouched, (aclrtNotify)0x1234);
    ACL_ERR(aclrtGetNotifyId(a, NULL), ACL_ERROR_INVALID_PARAM, "notifyId is NULL");
    ACL_ERR(aclrtGetNotifyId(NULL, &ida), ACL_ERROR_INVALID_PARAM, "notify is NULL");

    ACL_OK(aclrtDestroyNotify(a));
    ACL_ERR(aclrtDestroyNotify(a), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_ERR(aclrtDestroyNotify(NULL), ACL_ERROR_INVALID_PARAM, "notify is NULL");
    ACL_ERR(aclrtGetNotifyId(a, &ida), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_ERR(aclrtRecordNotify(a, NULL), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_ERR(aclrtWaitAndResetNotify(a, NULL, 0), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_ERR(aclrtRecordNotify(NULL, NULL), ACL_ERROR_INVALID_PARAM, "notify is NULL");
    ACL_ERR(aclrtWaitAndResetNotify(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM, "notify is NULL");
    /* A handle of another kind is no notify. */
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_ERR(aclrtDestroyNotify((aclrtNotify)s), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_OK(aclrtDestroyStream(s));
    /* b still works. */
    ACL_OK(aclrtRecordNotify(b, NULL));
    ACL_OK(aclrtWaitAndResetNotify(b, NULL, 0));
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtDestroyNotify(b));
}

/* Data written on one stream before a record is visible to the work that
 * follows the wait on another stream, many times over. */
static void test_orders_two_streams(void **state)
{
    (void)state;
    aclrtStream prod, cons;
    ACL_OK(aclrtCreateStream(&prod));
    ACL_OK(aclrtCreateStream(&cons));
    aclrtNotify n;
    ACL_OK(aclrtCreateNotify(&n, 0));
    enum { COUNT = 256, ROUNDS = 300 };
    uint32_t *host = g_buf.host;
    void *src = g_buf.dev;
    void *dst = (char *)g_buf.dev + COUNT * 4;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        uint32_t value = r * 1000, count = COUNT, add = 1;
        const void *fv[] = {&src, &value, &count};
        size_t fs[] = {8, 4, 4};
        if (r % 50 == 0)
            sleep_on(prod, 5); /* now and then the consumer really has to wait */
        ACL_OK(test_launch(g_fill, 1, prod, 3, fv, fs));
        ACL_OK(aclrtRecordNotify(n, prod));
        ACL_OK(aclrtWaitAndResetNotify(n, cons, 0));
        const void *cv[] = {&src, &dst, &add, &count};
        size_t cs[] = {8, 8, 4, 4};
        ACL_OK(test_launch(g_copy, 1, cons, 4, cv, cs));
        ACL_OK(aclrtSynchronizeStream(cons));
        for (uint32_t i = 0; i < COUNT; i++)
            if (host[COUNT + i] != value + 1)
                fail_msg("round %u: element %u is %u, want %u", r, i, host[COUNT + i], value + 1);
    }
    ACL_OK(aclrtSynchronizeStream(prod));
    ACL_OK(aclrtDestroyNotify(n));
    ACL_OK(aclrtDestroyStream(prod));
    ACL_OK(aclrtDestroyStream(cons));
}

/* A wait queued before the record holds its stream; each record lets one
 * wait through and is consumed by it. */
static void test_one_record_one_wait(void **state)
{
    (void)state;
    aclrtStream s1, s2, rec;
    ACL_OK(aclrtCreateStream(&s1));
    ACL_OK(aclrtCreateStream(&s2));
    ACL_OK(aclrtCreateStream(&rec));
    aclrtNotify n;
    ACL_OK(aclrtCreateNotify(&n, 0));
    ACL_OK(aclrtWaitAndResetNotify(n, s1, 0));
    ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
    test_sleep_ms(20);
    assert_int_equal(query(s1), ACL_STREAM_STATUS_NOT_READY);
    assert_int_equal(query(s2), ACL_STREAM_STATUS_NOT_READY);
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(s1, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, NULL);

    ACL_OK(aclrtRecordNotify(n, rec));
    /* Exactly one of the two waits passes. */
    uint64_t end = test_now_ms() + 5000;
    bool d1 = false, d2 = false;
    while (!d1 && !d2 && test_now_ms() < end) {
        d1 = query(s1) == ACL_STREAM_STATUS_COMPLETE;
        d2 = query(s2) == ACL_STREAM_STATUS_COMPLETE;
        test_sleep_ms(1);
    }
    assert_true(d1 || d2);
    aclrtStream other = d1 ? s2 : s1;
    assert_false(completes_within(other, 50));
    /* A second record releases the other one. */
    ACL_OK(aclrtRecordNotify(n, rec));
    ACL_OK(aclrtSynchronizeStream(s1));
    ACL_OK(aclrtSynchronizeStream(s2));

    /* A record before the wait is kept until a wait consumes it; records
       do not add up. */
    ACL_OK(aclrtRecordNotify(n, rec));
    ACL_OK(aclrtRecordNotify(n, rec));
    ACL_OK(aclrtSynchronizeStream(rec));
    ACL_OK(aclrtWaitAndResetNotify(n, s1, 0));
    ACL_OK(aclrtSynchronizeStream(s1));
    ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
    assert_false(completes_within(s2, 30));
    ACL_OK(aclrtRecordNotify(n, rec));
    ACL_OK(aclrtSynchronizeStream(s2));

    ACL_OK(aclrtDestroyNotify(n));
    ACL_OK(aclrtDestroyStream(s1));
    ACL_OK(aclrtDestroyStream(s2));
    ACL_OK(aclrtDestroyStream(rec));
}

/* A wait with a timeout fails its stream's work once it passes; the stream
 * then goes on. */
static void test_wait_timeout(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtNotify n;
    ACL_OK(aclrtCreateNotify(&n, 0));
    uint32_t *host = g_buf.host;
    host[0] = 0;
    uint32_t value = 7, count = 1;
    const void *fv[] = {&g_buf.dev, &value, &count};
    size_t fs[] = {8, 4, 4};
    uint64_t t0 = test_now_ms();
    ACL_OK(aclrtWaitAndResetNotify(n, s, 40));
    ACL_OK(test_launch(g_fill, 1, s, 3, fv, fs));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT, "did not happen within 40 ms");
    uint64_t waited = test_now_ms() - t0;
    assert_true(waited >= 40);
    assert_true(waited < 5000);
    /* Work queued after the failed wait still ran (continue on failure). */
    assert_int_equal(host[0], 7);
    /* A timeout that does not pass changes nothing. */
    ACL_OK(aclrtRecordNotify(n, NULL));
    ACL_OK(aclrtWaitAndResetNotify(n, s, 5000));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyNotify(n));
    ACL_OK(aclrtDestroyStream(s));
}

/* Destroying the notify handle leaves queued records and waits working. */
static void test_destroy_with_work_pending(void **state)
{
    (void)state;
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    aclrtNotify n;
    ACL_OK(aclrtCreateNotify(&n, 0));
    sleep_on(a, 20);
    ACL_OK(aclrtRecordNotify(n, a));
    ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
    ACL_OK(aclrtDestroyNotify(n));
    ACL_ERR(aclrtRecordNotify(n, a), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_OK(aclrtSynchronizeStream(b));
    ACL_OK(aclrtSynchronizeStream(a));
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
}

/* A forced destroy of a stream parked on a notify returns at once; the
 * wait stays (work submitted before a forced destroy is not dropped) and a
 * record releases it; the notify and other streams keep working. */
static void test_force_destroy_parked_wait(void **state)
{
    (void)state;
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    aclrtNotify n;
    ACL_OK(aclrtCreateNotify(&n, 0));
    ACL_OK(aclrtWaitAndResetNotify(n, a, 0));
    sleep_on(a, 1); /* queued behind the wait: runs once it passes */
    test_sleep_ms(10);
    ACL_OK(aclrtDestroyStreamForce(a));
    ACL_OK(aclrtRecordNotify(n, NULL));
    ACL_OK(aclrtSynchronizeDevice()); /* covers the destroyed stream */
    /* The destroyed stream's wait took that record: the next one is b's. */
    ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
    ACL_OK(aclrtRecordNotify(n, NULL));
    ACL_OK(aclrtSynchronizeStream(b));
    ACL_OK(aclrtDestroyNotify(n));
    ACL_OK(aclrtDestroyStream(b));
}

/* In ACL_STOP_ON_FAILURE mode a failure drops a wait parked on a notify
 * nobody records: synchronising the waiting stream does not hang. (The
 * default context stops; the device is reset afterwards.) */
static void test_stop_on_failure_drops_parked_wait(void **state)
{
    (void)state;
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    ACL_OK(aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE));
    aclrtNotify n;
    ACL_OK(aclrtCreateNotify(&n, 0));
    ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
    test_sleep_ms(5);
    uint32_t bad = 0;
    const void *tv[] = {&g_buf.dev, &bad};
    size_t ts[] = {8, 4};
    ACL_OK(test_launch(g_trap, 1, a, 2, tv, ts));
    ACL_ERR(aclrtSynchronizeStream(a), ACL_ERROR_RT_AICORE_EXCEPTION, NULL);
    ACL_ERR(aclrtSynchronizeStream(b), ACL_ERROR_RT_AICORE_EXCEPTION, "STOP_ON_FAILURE");
    ACL_OK(aclrtDestroyNotify(n));
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
    test_buf_free(&g_buf);
    ACL_OK(aclrtResetDeviceForce(0));
    ACL_OK(aclrtSetDevice(0));
    test_buf_alloc(&g_buf, 1 << 16);
}

static void test_bad_streams_and_devices(void **state)
{
    (void)state;
    aclrtNotify n;
    ACL_OK(aclrtCreateNotify(&n, 0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtRecordNotify(n, s), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_ERR(aclrtWaitAndResetNotify(n, s, 0), ACL_ERROR_RT_INVALID_HANDLE, NULL);

    /* Records come from the notify's device; waits may come from any. */
    ACL_OK(aclrtSetDevice(1));
    aclrtStream foreign;
    ACL_OK(aclrtCreateStream(&foreign));
    ACL_ERR(aclrtRecordNotify(n, NULL), ACL_ERROR_RT_PARAM_INVALID, "belongs to device 0");
    ACL_ERR(aclrtRecordNotify(n, foreign), ACL_ERROR_RT_PARAM_INVALID, "belongs to device 0");
    ACL_OK(aclrtWaitAndResetNotify(n, foreign, 0));
    ACL_OK(aclrtSetDevice(0));
    /* A stream of another context is refused. */
    ACL_ERR(aclrtRecordNotify(n, foreign), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_ERR(aclrtWaitAndResetNotify(n, foreign, 0), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_OK(aclrtRecordNotify(n, NULL));
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtSynchronizeStream(foreign));
    ACL_OK(aclrtDestroyStream(foreign));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtDestroyNotify(n));
}

/* Without a context nothing is created. */
static void test_no_context(void **state)
{
    (void)state;
    ACL_OK(aclrtResetDeviceForce(0));
    aclrtNotify n = (aclrtNotify)0x1234;
    ACL_ERR(aclrtCreateNotify(&n, 0), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    assert_ptr_equal(n, (aclrtNotify)0x1234);
    ACL_OK(aclrtSetDevice(0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_destroy_and_ids),
        cmocka_unit_test(test_orders_two_streams),
        cmocka_unit_test(test_one_record_one_wait),
        cmocka_unit_test(test_wait_timeout),
        cmocka_unit_test(test_destroy_with_work_pending),
        cmocka_unit_test(test_force_destroy_parked_wait),
        cmocka_unit_test(test_stop_on_failure_drops_parked_wait),
        cmocka_unit_test(test_bad_streams_and_devices),
        cmocka_unit_test(test_no_context),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
