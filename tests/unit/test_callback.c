/*
 * Host work in stream order: callbacks on a subscribed thread
 * (aclrtSubscribeReport / aclrtProcessReport / aclrtLaunchCallback), host
 * functions on a runtime thread or a subscribed one, and their errors.
 */
#include <pthread.h>
#include <string.h>

#include "test_support.h"

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_fill, g_sleep;
static struct test_buf g_buf;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "fill_u32", &g_fill) || aclrtBinaryGetFunction(g_bin, "sleep_kernel", &g_sleep))
        return -1;
    test_buf_alloc(&g_buf, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_buf);
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

static void fill(aclrtStream s, uint32_t value)
{
    uint32_t count = 16;
    const void *v[] = {&g_buf.dev, &value, &count};
    size_t sz[] = {8, 4, 4};
    ACL_OK(test_launch(g_fill, 1, s, 3, v, sz));
}

static void sleep_on(aclrtStream s, uint32_t ms)
{
    const void *v[] = {&g_buf.dev, &ms};
    size_t sz[] = {8, 4};
    ACL_OK(test_launch(g_sleep, 1, s, 2, v, sz));
}

/* A record of what host functions saw. */
struct seen {
    uint32_t value[64];
    pthread_t thread[64];
    int n;
};

static void record_value(void *arg)
{
    struct seen *s = arg;
    s->value[s->n] = ((volatile uint32_t *)g_buf.host)[0];
    s->thread[s->n] = pthread_self();
    s->n++;
}

/* Host functions run in stream order on a runtime thread. */
static void test_host_func_order(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct seen seen = {.n = 0};
    for (uint32_t k = 1; k <= 20; k++) {
        fill(s, k);
        ACL_OK(aclrtLaunchHostFunc(s, record_value, &seen));
    }
    fill(s, 999);
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(seen.n, 20);
    for (int i = 0; i < 20; i++) {
        assert_int_equal(seen.value[i], (uint32_t)i + 1); /* after its kernel, before the next */
        assert_false(pthread_equal(seen.thread[i], pthread_self()));
        assert_true(pthread_equal(seen.thread[i], seen.thread[0])); /* one thread per stream */
    }
    ACL_ERR(aclrtLaunchHostFunc(s, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, "fn is NULL");
    int local;
    ACL_ERR(aclrtLaunchHostFunc(&local, record_value, &seen), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    /* A report subscription next to the runtime's host-function thread:
       host functions stay on the runtime thread. */
    ACL_OK(aclrtSubscribeReport((uint64_t)pthread_self(), s));
    fill(s, 77);
    ACL_OK(aclrtLaunchHostFunc(s, record_value, &seen));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(seen.n, 21);
    assert_int_equal(seen.value[20], 77);
    assert_true(pthread_equal(seen.thread[20], seen.thread[0]));
    ACL_OK(aclrtUnSubscribeReport((uint64_t)pthread_self(), s));
    ACL_OK(aclrtDestroyStream(s));
}

struct processor {
    int stop; /* atomic */
    int processed;
    enum sub_kind_t { REPORT, HOSTFUNC } kind;
    pthread_t tid;
};

static void *processor_main(void *arg)
{
    struct processor *p = arg;
    while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
        aclError rc = p->kind == REPORT ? aclrtProcessReport(20) : aclrtProcessHostFunc(20);
        if (rc == ACL_SUCCESS)
            p->processed++;
        (void)aclGetRecentErrMsg();
    }
    return NULL;
}

static void start_processor(struct processor *p, int kind)
{
    memset(p, 0, sizeof(*p));
    p->kind = kind;
    assert_int_equal(pthread_create(&p->tid, NULL, processor_main, p), 0);
}

static void stop_processor(struct processor *p)
{
    __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
    assert_int_equal(pthread_join(p->tid, NULL), 0);
}

/* Blocking callbacks run on the subscribed thread, between the kernels
 * around them. */
static void test_blocking_callbacks(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct processor p;
    start_processor(&p, REPORT);
    ACL_OK(aclrtSubscribeReport((uint64_t)p.tid, s));
    struct seen seen = {.n = 0};
    for (uint32_t k = 1; k <= 30; k++) {
        fill(s, k);
        ACL_OK(aclrtLaunchCallback(record_value, &seen, ACL_CALLBACK_BLOCK, s));
    }
    fill(s, 555);
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(seen.n, 30);
    for (int i = 0; i < 30; i++) {
        assert_int_equal(seen.value[i], (uint32_t)i + 1);
        assert_true(pthread_equal(seen.thread[i], p.tid));
    }
    /* A second report subscription of the stream and another device's
       stream on the same thread are refused. */
    ACL_ERR(aclrtSubscribeReport((uint64_t)pthread_self(), s), ACL_ERROR_RT_STREAM_SUBSCRIBE,
            "already has a callback (report) thread");
    /* Host functions do not go to the report thread: without a host-function
       subscriber they run on the runtime's thread. */
    fill(s, 31);
    ACL_OK(aclrtLaunchHostFunc(s, record_value, &seen));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(seen.n, 31);
    assert_int_equal(seen.value[30], 31);
    assert_false(pthread_equal(seen.thread[30], p.tid));
    assert_false(pthread_equal(seen.thread[30], pthread_self()));
    ACL_OK(aclrtSetDevice(1));
    aclrtStream s1;
    ACL_OK(aclrtCreateStream(&s1));
    ACL_ERR(aclrtSubscribeReport((uint64_t)p.tid, s1), ACL_ERROR_RT_THREAD_SUBSCRIBE, "device 0");
    ACL_OK(aclrtDestroyStream(s1));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    /* This thread subscribed for reports before (another stream). */
    ACL_ERR(aclrtUnSubscribeReport((uint64_t)pthread_self(), s), ACL_ERROR_RT_STREAM_SUBSCRIBE,
            "not subscribed by thread");
    ACL_ERR(aclrtUnSubscribeReport(0x5eed, s), ACL_ERROR_RT_THREAD_SUBSCRIBE, "is not subscribed");
    ACL_OK(aclrtUnSubscribeReport((uint64_t)p.tid, s));
    ACL_ERR(aclrtUnSubscribeReport((uint64_t)p.tid, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "not subscribed by thread");
    ACL_ERR(aclrtLaunchCallback(record_value, &seen, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG,
            "no thread is subscribed");
    stop_processor(&p);
    ACL_OK(aclrtDestroyStream(s));
}

/* A no-block callback lets the stream go on at once. */
static void test_noblock_callback(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSubscribeReport((uint64_t)pthread_self(), s));
    struct seen seen = {.n = 0};
    fill(s, 7);
    ACL_OK(aclrtLaunchCallback(record_value, &seen, ACL_CALLBACK_NO_BLOCK, s));
    fill(s, 8);
    /* Nobody processes yet, and still the stream completes. */
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(seen.n, 0);
    ACL_OK(aclrtProcessReport(1000));
    assert_int_equal(seen.n, 1);
    assert_int_equal(seen.value[0], 8); /* it ran after the later kernel */
    ACL_ERR(aclrtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT, "nothing arrived");
    ACL_OK(aclrtUnSubscribeReport((uint64_t)pthread_self(), s));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_callback_errors(void **state)
{
    (void)state;
    struct seen seen = {.n = 0};
    ACL_ERR(aclrtLaunchCallback(record_value, &seen, (aclrtCallbackBlockType)2, NULL), ACL_ERROR_INVALID_PARAM,
            "blockType 2");
    ACL_ERR(aclrtLaunchCallback(NULL, &seen, ACL_CALLBACK_BLOCK, NULL), ACL_ERROR_RT_PARAM_INVALID, "fn is NULL");
    ACL_ERR(aclrtLaunchCallback(record_value, &seen, ACL_CALLBACK_BLOCK, NULL), ACL_ERROR_RT_STREAM_NO_CB_REG,
            "no thread is subscribed");
    ACL_ERR(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM, "timeout 0");
    ACL_ERR(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM, "timeout -2");
    ACL_ERR(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE, "not subscribed");
    ACL_ERR(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE, "not subscribed");
    int local;
    ACL_ERR(aclrtSubscribeReport(1, &local), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_ERR(aclrtUnSubscribeReport(1, &local), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    assert_int_equal(seen.n, 0);
}

/* Callbacks still pending when their thread unsubscribes are dropped; a
 * forced destroy does not wait for unprocessed callbacks, and still
 * delivers them (they were submitted before it). */
static void test_unprocessed_callbacks_do_not_hang(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct seen seen = {.n = 0};
    ACL_OK(aclrtSubscribeReport((uint64_t)pthread_self(), s));
    ACL_OK(aclrtLaunchCallback(record_value, &seen, ACL_CALLBACK_BLOCK, s));
    ACL_OK(aclrtLaunchCallback(record_value, &seen, ACL_CALLBACK_BLOCK, s));
    ACL_OK(aclrtUnSubscribeReport((uint64_t)pthread_self(), s));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(seen.n, 0);
    ACL_OK(aclrtSubscribeReport((uint64_t)pthread_self(), s));
    sleep_on(s, 5);
    ACL_OK(aclrtLaunchCallback(record_value, &seen, ACL_CALLBACK_BLOCK, s));
    ACL_OK(aclrtLaunchCallback(record_value, &seen, ACL_CALLBACK_BLOCK, s));
    ACL_OK(aclrtDestroyStreamForce(s));
    assert_int_equal(seen.n, 0);
    ACL_OK(aclrtProcessReport(5000));
    ACL_OK(aclrtProcessReport(5000));
    assert_int_equal(seen.n, 2);
    ACL_ERR(aclrtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT, "nothing arrived");
    ACL_OK(aclrtSynchronizeDevice());
}

/* Host functions on a subscribed thread instead of the runtime's. */
static void test_subscribed_host_funcs(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct processor p;
    start_processor(&p, HOSTFUNC);
    ACL_OK(aclrtSubscribeHostFunc((uint64_t)p.tid, s));
    struct seen seen = {.n = 0};
    for (uint32_t k = 1; k <= 10; k++) {
        fill(s, k);
        ACL_OK(aclrtLaunchHostFunc(s, record_value, &seen));
    }
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(seen.n, 10);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(seen.value[i], (uint32_t)i + 1);
        assert_true(pthread_equal(seen.thread[i], p.tid));
    }
    ACL_ERR(aclrtSubscribeHostFunc((uint64_t)pthread_self(), s), ACL_ERROR_RT_STREAM_SUBSCRIBE,
            "already has a host function thread");
    ACL_OK(aclrtUnSubscribeHostFunc((uint64_t)p.tid, s));
    ACL_ERR(aclrtUnSubscribeHostFunc((uint64_t)p.tid, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "not subscribed by");
    stop_processor(&p);
    ACL_OK(aclrtDestroyStream(s));
}

/* A report thread and a host-function thread subscribed to one stream:
 * callbacks go to the first, host functions to the second, all in stream
 * order. */
static void test_report_and_hostfunc_coexist(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct processor rep, hf;
    start_processor(&rep, REPORT);
    start_processor(&hf, HOSTFUNC);
    ACL_OK(aclrtSubscribeReport((uint64_t)rep.tid, s));
    ACL_OK(aclrtSubscribeHostFunc((uint64_t)hf.tid, s));
    struct seen cb = {.n = 0}, fn = {.n = 0};
    for (uint32_t k = 1; k <= 12; k++) {
        fill(s, 2 * k);
        ACL_OK(aclrtLaunchCallback(record_value, &cb, ACL_CALLBACK_BLOCK, s));
        fill(s, 2 * k + 1);
        ACL_OK(aclrtLaunchHostFunc(s, record_value, &fn));
    }
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(cb.n, 12);
    assert_int_equal(fn.n, 12);
    for (int i = 0; i < 12; i++) {
        assert_int_equal(cb.value[i], 2u * (uint32_t)i + 2);
        assert_int_equal(fn.value[i], 2u * (uint32_t)i + 3);
        assert_true(pthread_equal(cb.thread[i], rep.tid));
        assert_true(pthread_equal(fn.thread[i], hf.tid));
    }
    /* Each kind still refuses a second thread of its own kind. */
    ACL_ERR(aclrtSubscribeReport((uint64_t)hf.tid, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "already has");
    ACL_ERR(aclrtSubscribeHostFunc((uint64_t)rep.tid, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "already has");
    /* Dropping the host-function subscriber sends host functions to the
       runtime's thread; callbacks keep going to the report thread. */
    ACL_OK(aclrtUnSubscribeHostFunc((uint64_t)hf.tid, s));
    fill(s, 100);
    ACL_OK(aclrtLaunchHostFunc(s, record_value, &fn));
    ACL_OK(aclrtLaunchCallback(record_value, &cb, ACL_CALLBACK_BLOCK, s));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(fn.n, 13);
    assert_int_equal(cb.n, 13);
    assert_false(pthread_equal(fn.thread[12], hf.tid));
    assert_false(pthread_equal(fn.thread[12], rep.tid));
    assert_true(pthread_equal(cb.thread[12], rep.tid));
    ACL_OK(aclrtUnSubscribeReport((uint64_t)rep.tid, s));
    stop_processor(&rep);
    stop_processor(&hf);
    ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_func_order),
        cmocka_unit_test(test_blocking_callbacks),
        cmocka_unit_test(test_noblock_callback),
        cmocka_unit_test(test_callback_errors),
        cmocka_unit_test(test_unprocessed_callbacks_do_not_hang),
        cmocka_unit_test(test_subscribed_host_funcs),
        cmocka_unit_test(test_report_and_hostfunc_coexist),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
