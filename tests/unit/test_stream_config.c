/*
 * Stream configuration and queries: aclrtCreateStreamWithConfig, the
 * configuration handle functions, priority/flags/id, aclrtStreamQuery,
 * aclrtSynchronizeStreamWithTimeout and aclrtSetStreamFailureMode.
 */
#include <pthread.h>
#include <string.h>

#include "stream_gate.h"
#include "test_support.h"

static aclrtBinHandle g_misc, g_faults;
static aclrtFuncHandle g_sleep, g_trap, g_count;
static struct test_buf g_buf;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_misc) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_faults"), NULL, &g_faults) ||
        aclrtBinaryGetFunction(g_misc, "sleep_kernel", &g_sleep) ||
        aclrtBinaryGetFunction(g_misc, "count_blocks", &g_count) ||
        aclrtBinaryGetFunction(g_faults, "trap_kernel", &g_trap))
        return -1;
    test_buf_alloc(&g_buf, 4096);
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
    const void *v[] = {&g_buf.dev, &ms};
    size_t sz[] = {8, 4};
    ACL_OK(test_launch(g_sleep, 1, s, 2, v, sz));
}

static void test_with_config(void **state)
{
    (void)state;
    aclrtStream s;
    uint32_t prio = 99, flags = 99;
    int32_t id = -1, id2 = -1;
    ACL_OK(aclrtCreateStreamWithConfig(&s, 3, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | 0x100));
    ACL_OK(aclrtStreamGetPriority(s, &prio));
    ACL_OK(aclrtStreamGetFlags(s, &flags));
    ACL_OK(aclrtStreamGetId(s, &id));
    assert_int_equal(prio, 3);
    assert_int_equal(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC); /* undefined bits dropped */
    assert_true(id >= 0);
    aclrtStream t;
    ACL_OK(aclrtCreateStreamWithConfig(&t, 100, 0)); /* priority clamped */
    ACL_OK(aclrtStreamGetPriority(t, &prio));
    assert_int_equal(prio, 7);
    ACL_OK(aclrtStreamGetId(t, &id2));
    assert_int_not_equal(id, id2);
    /* The default stream: priority 0, no flags, an id of its own. */
    ACL_OK(aclrtStreamGetPriority(NULL, &prio));
    ACL_OK(aclrtStreamGetFlags(NULL, &flags));
    ACL_OK(aclrtStreamGetId(NULL, &id2));
    assert_int_equal(prio, 0);
    assert_int_equal(flags, 0);
    assert_int_not_equal(id, id2);
    /* Bad inputs. */
    ACL_ERR(aclrtCreateStreamWithConfig(NULL, 0, 0), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    /* ACL_STREAM_PERSISTENT is accepted (acl-rt-model-ri.md C1; test_model_ri_build.c) */
    ACL_ERR(aclrtCreateStreamWithConfig(&t, 0, ACL_STREAM_CPU_SCHEDULE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "not supported");
    ACL_ERR(aclrtCreateStreamWithConfig(&t, 0, ACL_STREAM_DEVICE_USE_ONLY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "not supported");
    ACL_ERR(aclrtStreamGetPriority(s, NULL), ACL_ERROR_INVALID_PARAM, "priority is NULL");
    ACL_ERR(aclrtStreamGetFlags(s, NULL), ACL_ERROR_INVALID_PARAM, "flags is NULL");
    ACL_ERR(aclrtStreamGetId(s, NULL), ACL_ERROR_INVALID_PARAM, "streamId is NULL");
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtStreamGetPriority(s, &prio), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_ERR(aclrtStreamGetId(s, &id), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_OK(aclrtDestroyStream(t));
}

static void test_config_handle(void **state)
{
    (void)state;
    aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
    assert_non_null(h);
    assert_int_equal(h->priority, 0);
    uint32_t prio = 5;
    size_t flag = ACL_STREAM_FAST_SYNC, size = 4096;
    void *work = &size;
    ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)));
    ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, sizeof(flag)));
    ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &size, sizeof(size)));
    ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &work, sizeof(work)));
    assert_int_equal(h->priority, 5); /* the structure is public */
    assert_int_equal(h->workSize, 4096);
    assert_ptr_equal(h->workptr, work);
    aclrtStream s;
    ACL_OK(aclrtCreateStreamV2(&s, h));
    uint32_t got, flags;
    ACL_OK(aclrtStreamGetPriority(s, &got));
    ACL_OK(aclrtStreamGetFlags(s, &flags));
    assert_int_equal(got, 5);
    assert_int_equal(flags, ACL_STREAM_FAST_SYNC);
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtCreateStreamV2(&s, NULL)); /* defaults */
    ACL_OK(aclrtStreamGetPriority(s, &got));
    assert_int_equal(got, 0);
    ACL_OK(aclrtDestroyStream(s));
    /* Bad inputs. */
    prio = 8;
    ACL_ERR(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)), ACL_ERROR_INVALID_PARAM,
            "above 7");
    ACL_ERR(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, 8), ACL_ERROR_INVALID_PARAM, "valueSize 8");
    ACL_ERR(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)4, &prio, 4), ACL_ERROR_INVALID_PARAM, "attr 4");
    ACL_ERR(aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_PRIORITY, &prio, 4), ACL_ERROR_INVALID_PARAM, "handle");
    ACL_ERR(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, NULL, 4), ACL_ERROR_INVALID_PARAM, "attrValue");
    assert_int_equal(h->priority, 5); /* unchanged */
    ACL_ERR(aclrtCreateStreamV2(NULL, h), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    /* The flag word may be passed as uint32_t (programs pass either); other
       sizes are refused and leave the stored flag alone. */
    uint32_t flag32 = ACL_STREAM_FAST_LAUNCH;
    ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag32, sizeof(flag32)));
    assert_int_equal(h->flag, ACL_STREAM_FAST_LAUNCH);
    ACL_OK(aclrtCreateStreamV2(&s, h));
    ACL_OK(aclrtStreamGetFlags(s, &flags));
    assert_int_equal(flags, ACL_STREAM_FAST_LAUNCH);
    ACL_OK(aclrtDestroyStream(s));
    uint16_t flag16 = 1;
    ACL_ERR(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag16, sizeof(flag16)), ACL_ERROR_INVALID_PARAM,
            "valueSize 2");
    ACL_ERR(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, 1), ACL_ERROR_INVALID_PARAM, "valueSize 1");
    assert_int_equal(h->flag, ACL_STREAM_FAST_LAUNCH);
    ACL_OK(aclrtDestroyStreamConfigHandle(h));
    ACL_ERR(aclrtDestroyStreamConfigHandle(h), ACL_ERROR_INVALID_PARAM, "not a live");
    ACL_ERR(aclrtCreateStreamV2(&s, h), ACL_ERROR_INVALID_PARAM, "not a live");
    ACL_ERR(aclrtDestroyStreamConfigHandle(NULL), ACL_ERROR_INVALID_PARAM, "handle is NULL");
}

static void test_query_and_timeout(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtStreamStatus st = (aclrtStreamStatus)99;
    ACL_OK(aclrtStreamQuery(s, &st));
    assert_int_equal(st, ACL_STREAM_STATUS_COMPLETE);
    sleep_on(s, 60);
    ACL_OK(aclrtStreamQuery(s, &st));
    assert_int_equal(st, ACL_STREAM_STATUS_NOT_READY);
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, 1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "still running");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ACL_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
    ACL_OK(aclrtStreamQuery(s, &st));
    assert_int_equal(st, ACL_STREAM_STATUS_COMPLETE);
    ACL_OK(aclrtSynchronizeStreamWithTimeout(NULL, 1000));
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_PARAM_INVALID, "timeout 0");
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, -5), ACL_ERROR_RT_PARAM_INVALID, "timeout -5");
    ACL_ERR(aclrtStreamQuery(s, NULL), ACL_ERROR_INVALID_PARAM, "status is NULL");
    int local;
    ACL_ERR(aclrtStreamQuery(&local, &st), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, 10), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
}

static int g_callbacks;
static void count_callback(void *arg)
{
    (void)arg;
    __atomic_add_fetch(&g_callbacks, 1, __ATOMIC_RELAXED);
}

/* After a trap in ACL_STOP_ON_FAILURE mode: later tasks of every stream of
 * the context are dropped, a blocking callback queued behind the failure
 * does not hang, new work is refused and every synchronise reports the
 * error. (An explicit context would keep this test from stopping device
 * 0's default context for the other tests: the default context is used and
 * the device reset afterwards.) */
static void test_stop_on_failure(void **state)
{
    (void)state;
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    ACL_OK(aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE));
    ACL_OK(aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE | 0x10)); /* higher bits ignored */
    ACL_ERR(aclrtSetStreamFailureMode(b, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "cannot be switched back");
    ACL_OK(aclrtSubscribeReport((uint64_t)pthread_self(), a));
    uint32_t *counter = g_buf.host;
    counter[0] = 0;
    uint32_t bad = 0;
    const void *tv[] = {&g_buf.dev, &bad};
    size_t ts[] = {8, 4};
    sleep_on(b, 30); /* b has a long kernel queued when a fails */
    const void *cv[] = {&g_buf.dev};
    size_t cs[] = {8};
    ACL_OK(test_launch(g_count, 4, b, 1, cv, cs));
    /* A closed gate holds a until the trap and the callback are both queued
     * (a trap running first would have the stop refuse the callback). */
    struct test_gate gate;
    gate_init(&gate);
    gate_close(&gate, a);
    ACL_OK(test_launch(g_trap, 1, a, 2, tv, ts));
    ACL_OK(aclrtLaunchCallback(count_callback, NULL, ACL_CALLBACK_BLOCK, a)); /* nobody processes it */
    gate_open(&gate);
    ACL_ERR(aclrtSynchronizeStream(a), ACL_ERROR_RT_AICORE_EXCEPTION, NULL);
    ACL_ERR(aclrtSynchronizeStream(a), ACL_ERROR_RT_AICORE_EXCEPTION, "STOP_ON_FAILURE"); /* sticky */
    ACL_ERR(aclrtSynchronizeStream(b), ACL_ERROR_RT_AICORE_EXCEPTION, "STOP_ON_FAILURE");
    assert_int_equal(g_callbacks, 0);
    /* b's kernel queued behind the failure did not run its blocks. */
    assert_int_equal(counter[1], 0);
    ACL_ERR(test_launch(g_count, 1, b, 1, cv, cs), ACL_ERROR_RT_AICORE_EXCEPTION, "STOP_ON_FAILURE");
    ACL_ERR(aclrtLaunchCallback(count_callback, NULL, ACL_CALLBACK_BLOCK, a), ACL_ERROR_RT_AICORE_EXCEPTION,
            "STOP_ON_FAILURE");
    ACL_ERR(aclrtSetStreamFailureMode(&bad, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_OK(aclrtUnSubscribeReport((uint64_t)pthread_self(), a));
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
    gate_fini(&gate);
    /* A fresh default context after a reset works again. */
    ACL_OK(aclrtResetDeviceForce(0));
    ACL_OK(aclrtSetDevice(0));
    sleep_on(NULL, 1);
    ACL_OK(aclrtSynchronizeStream(NULL));
}

/* The default mode goes on after a failure. */
static void test_continue_on_failure(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t bad = 0;
    const void *tv[] = {&g_buf.dev, &bad};
    size_t ts[] = {8, 4};
    ((uint32_t *)g_buf.host)[0] = 0;
    ACL_OK(test_launch(g_trap, 1, s, 2, tv, ts));
    const void *cv[] = {&g_buf.dev};
    size_t cs[] = {8};
    ACL_OK(test_launch(g_count, 3, s, 1, cv, cs));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, "trap");
    assert_int_equal(((uint32_t *)g_buf.host)[0], 3); /* the later kernel ran */
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_with_config),        cmocka_unit_test(test_config_handle),
        cmocka_unit_test(test_query_and_timeout),  cmocka_unit_test(test_continue_on_failure),
        cmocka_unit_test(test_stop_on_failure),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
