/*
 * Model running instances captured from streams (acl-rt-model-ri.md):
 * capture and replay with results checked after every replay, ordering
 * with other work, calls refused while capturing, multi-stream capture,
 * queries, task disabling, the JSON dump, destroy callbacks, abort, and
 * bad arguments.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl_rt_memory_soma.h"
#include "test_support.h"

#define N 256u

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_plus; /* copy_plus(in, out, add, count) */
static aclrtStream g_s, g_x;
/* Made before each test and destroyed after it (OACL_TEST_WITH_STREAMS). */
static aclrtStream *g_streams[] = {&g_s, &g_x, NULL};

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "copy_plus", &g_plus))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

/* out[i] = in[i] + add over N elements, one block. */
static aclError plus(void *in, void *out, uint32_t add, aclrtStream s)
{
    uint32_t count = N;
    const void *v[] = {&in, &out, &add, &count};
    const size_t sz[] = {sizeof(in), sizeof(out), sizeof(add), sizeof(count)};
    return test_launch(g_plus, 1, s, 4, v, sz);
}

static aclError plus_one(void *word, uint32_t add, aclrtStream s)
{
    uint32_t count = 1;
    const void *v[] = {&word, &word, &add, &count};
    const size_t sz[] = {sizeof(word), sizeof(word), sizeof(add), sizeof(count)};
    return test_launch(g_plus, 1, s, 4, v, sz);
}

static void *dev_zeroed(size_t n)
{
    void *p = NULL;
    ACL_OK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(p, n, 0, n));
    return p;
}

/* Every one of the N words of dev equals want. */
static void expect_all(void *dev, uint32_t want)
{
    uint32_t h[N];
    ACL_OK(aclrtMemcpy(h, sizeof(h), dev, sizeof(h), ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(h[i], want);
}

static void set_all(void *dev, uint32_t v)
{
    uint32_t h[N];
    for (uint32_t i = 0; i < N; i++)
        h[i] = v;
    ACL_OK(aclrtMemcpy(dev, sizeof(h), h, sizeof(h), ACL_MEMCPY_HOST_TO_DEVICE));
}

/* The tasks of ri's only RI stream: *n in, the room in tasks; out, the count. */
static void ri_tasks(aclmdlRI ri, aclmdlRITask *tasks, uint32_t *n)
{
    aclrtStream rs = NULL;
    uint32_t ns = 1;
    ACL_OK(aclmdlRIGetStreams(ri, &rs, &ns));
    assert_int_equal(ns, 1);
    ACL_OK(aclmdlRIGetTasksByStream(rs, tasks, n));
}

/* ---- capture and replay --------------------------------------------------------------- */

static void test_capture_replay_mixed(void **state)
{
    (void)state;
    void *src = dev_zeroed(N * 4), *buf = dev_zeroed(N * 4), *out = dev_zeroed(N * 4);
    uint64_t *word = dev_zeroed(64);
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclrtMemcpyAsync(buf, N * 4, src, N * 4, ACL_MEMCPY_DEVICE_TO_DEVICE, g_s));
    for (int i = 0; i < 3; i++)
        ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclrtMemsetAsync(out, N * 4, 0, N * 4, g_s));
    ACL_OK(plus(buf, out, 100, g_s));
    ACL_OK(aclrtValueWrite(word, 7, 0, g_s));
    ACL_OK(aclrtValueWait(word, 7, ACL_STREAM_WAIT_VALUE_EQ, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    assert_non_null(ri);
    /* nothing ran at capture */
    expect_all(buf, 0);
    expect_all(out, 0);
    uint64_t w = 1;
    ACL_OK(aclrtMemcpy(&w, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(w, 0);
    for (uint32_t r = 1; r <= 20; r++) {
        set_all(src, r * 1000);
        ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
        ACL_OK(aclrtSynchronizeStream(g_x));
        expect_all(buf, r * 1000 + 3);
        expect_all(out, r * 1000 + 103);
        ACL_OK(aclrtMemcpy(&w, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
        assert_int_equal(w, 7);
        ACL_OK(aclrtMemset(word, 8, 0, 8));
    }
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_ERR(aclmdlRIExecuteAsync(ri, g_x), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    aclrtFree(src);
    aclrtFree(buf);
    aclrtFree(out);
    aclrtFree(word);
}

static void test_work_before_capture_runs_once(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4);
    ACL_OK(plus(buf, buf, 5, g_s));
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    ACL_OK(aclrtSynchronizeStream(g_s));
    expect_all(buf, 5);
    /* an empty capture is a valid RI that does nothing */
    aclmdlRI empty = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclmdlRICaptureEnd(g_s, &empty));
    ACL_OK(aclmdlRIExecuteAsync(empty, g_s));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_s));
    ACL_OK(aclmdlRIExecuteAsync(empty, g_s));
    ACL_OK(aclrtSynchronizeStream(g_s));
    expect_all(buf, 6);
    ACL_OK(aclmdlRIDestroy(empty));
    ACL_OK(aclmdlRIDestroy(ri));
    aclrtFree(buf);
}

/* An execution is one task of its stream: ordered between the eager work
 * before and after it, and visible to other streams through events. */
static void test_ordering_with_stream_work(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4), *out = dev_zeroed(N * 4), *out2 = dev_zeroed(N * 4);
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclrtMemcpyAsync(out, N * 4, buf, N * 4, ACL_MEMCPY_DEVICE_TO_DEVICE, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    aclrtStream y;
    aclrtEvent ev;
    ACL_OK(aclrtCreateStream(&y));
    ACL_OK(aclrtCreateEvent(&ev));
    for (int round = 0; round < 10; round++) {
        ACL_OK(aclrtMemsetAsync(buf, N * 4, 0, N * 4, g_x));
        ACL_OK(aclmdlRIExecuteAsync(ri, g_x));      /* buf = out = 1 */
        ACL_OK(plus(buf, buf, 5, g_x));             /* buf = 6 */
        ACL_OK(aclmdlRIExecuteAsync(ri, g_x));      /* buf = out = 7 */
        ACL_OK(aclrtRecordEvent(ev, g_x));
        ACL_OK(aclrtStreamWaitEvent(y, ev));
        ACL_OK(plus(out, out2, 10, y));             /* out2 = 17 */
        ACL_OK(aclrtSynchronizeStream(y));
        expect_all(out2, 17);
        ACL_OK(aclrtSynchronizeStream(g_x));
        expect_all(buf, 7);
        expect_all(out, 7);
    }
    ACL_OK(aclrtDestroyEvent(ev));
    ACL_OK(aclrtDestroyStream(y));
    ACL_OK(aclmdlRIDestroy(ri));
    aclrtFree(buf);
    aclrtFree(out);
    aclrtFree(out2);
}

struct exec_arg {
    aclmdlRI ri;
    aclrtStream s;
    int times;
};

static void *exec_thread(void *p)
{
    struct exec_arg *a = p;
    for (int i = 0; i < a->times; i++)
        if (aclmdlRIExecuteAsync(a->ri, a->s) != ACL_SUCCESS)
            return (void *)1;
    return NULL;
}

/* One RI executed from two streams: executions never overlap, so the
 * non-atomic read-modify-write adds every time. */
static void test_same_ri_two_streams(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4);
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    for (int i = 0; i < 5; i++)
        ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    struct exec_arg a = {ri, g_x, 20};
    for (int i = 0; i < 20; i++)
        ACL_OK(aclmdlRIExecuteAsync(ri, g_s));
    assert_null(exec_thread(&a)); /* 20 more on the other stream, at once */
    ACL_OK(aclrtSynchronizeStream(g_s));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 200);
    ACL_OK(aclmdlRIDestroy(ri));
    aclrtFree(buf);
}

/* ---- what capturing forbids ------------------------------------------------------------- */

struct memcpy_arg {
    aclrtContext ctx;
    void *dev;
    aclError rc;
    aclmdlRICaptureMode xmode;
};

static void *memcpy_thread(void *p)
{
    struct memcpy_arg *a = p;
    aclrtSetCurrentContext(a->ctx);
    aclmdlRICaptureMode m = a->xmode;
    aclmdlRICaptureThreadExchangeMode(&m);
    uint32_t h = 0;
    a->rc = aclrtMemcpy(a->dev, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclmdlRICaptureThreadExchangeMode(&m);
    return NULL;
}

static void test_illegal_during_capture(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4);
    aclmdlRI ri = NULL, probe = NULL, other = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_x, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclmdlRICaptureEnd(g_x, &other));
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(plus(buf, buf, 1, g_s));
    aclrtStreamStatus st;
    ACL_ERR(aclrtSynchronizeStream(g_s), ACL_ERROR_RT_STREAM_CAPTURED, "capturing");
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(g_s, 100), ACL_ERROR_RT_STREAM_CAPTURED, "capturing");
    ACL_ERR(aclrtStreamQuery(g_s, &st), ACL_ERROR_RT_STREAM_CAPTURED, "capturing");
    ACL_ERR(aclrtDestroyStream(g_s), ACL_ERROR_RT_STREAM_CAPTURED, "capturing");
    ACL_ERR(aclrtSynchronizeDevice(), ACL_ERROR_RT_STREAM_CAPTURED, "capturing");
    ACL_ERR(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED, "already");
    /* synchronous copies: forbidden by the GLOBAL mode until relaxed */
    uint32_t h = 0;
    ACL_ERR(aclrtMemcpy(buf, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, "mode");
    ACL_ERR(aclrtMemset(buf, 4, 0, 4), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, "mode");
    aclrtContext ctx;
    ACL_OK(aclrtGetCurrentContext(&ctx));
    struct memcpy_arg a = {ctx, buf, 0, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL};
    oacl_test_run_thread(memcpy_thread, &a);
    assert_int_equal(a.rc, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    a.xmode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL; /* another thread may then */
    oacl_test_run_thread(memcpy_thread, &a);
    assert_int_equal(a.rc, ACL_SUCCESS);
    aclmdlRICaptureMode m = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    ACL_OK(aclmdlRICaptureThreadExchangeMode(&m));
    assert_int_equal(m, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    ACL_OK(aclrtMemcpy(buf, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclmdlRICaptureThreadExchangeMode(&m));
    assert_int_equal(m, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    /* graphs: not inside a capture, not while being captured */
    ACL_ERR(aclmdlRIExecuteAsync(other, g_s), ACL_ERROR_RT_STREAM_CAPTURED, "capturing");
    aclmdlRICaptureStatus cs;
    ACL_OK(aclmdlRICaptureGetInfo(g_s, &cs, &probe));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    assert_non_null(probe);
    ACL_ERR(aclmdlRIExecuteAsync(probe, g_x), ACL_ERROR_RT_MODEL_CAPTURED, "captured");
    ACL_ERR(aclmdlRIDestroy(probe), ACL_ERROR_RT_MODEL_CAPTURED, "captured");
    ACL_OK(aclmdlRISetName(probe, "probe"));
    /* events: only "Ex" events are captured */
    aclrtEvent plain, ex;
    ACL_OK(aclrtCreateEvent(&plain));
    ACL_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ACL_ERR(aclrtRecordEvent(plain, g_s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCreateEventExWithFlag");
    ACL_ERR(aclrtResetEvent(plain, g_s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "reset");
    ACL_OK(aclrtRecordEvent(ex, g_s));
    ACL_ERR(aclrtSynchronizeEvent(ex), ACL_ERROR_RT_EVENT_CAPTURED, "capture");
    aclrtEventRecordedStatus es;
    ACL_ERR(aclrtQueryEventStatus(ex, &es), ACL_ERROR_RT_EVENT_CAPTURED, "capture");
    ACL_ERR(aclrtStreamWaitEvent(NULL, ex), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, "default stream");
    ACL_OK(aclrtStreamWaitEvent(g_s, ex));
    /* none of this invalidated the capture */
    ACL_OK(aclmdlRICaptureGetInfo(g_s, &cs, NULL));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    assert_ptr_equal(ri, probe);
    char name[16];
    ACL_OK(aclmdlRIGetName(ri, sizeof(name), name));
    assert_string_equal(name, "probe");
    ACL_OK(aclrtSynchronizeEvent(ex)); /* detached from the capture: never recorded */
    ACL_OK(aclrtMemset(buf, N * 4, 0, N * 4));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_s));
    ACL_OK(aclrtSynchronizeStream(g_s));
    expect_all(buf, 1);
    ACL_OK(aclrtDestroyEvent(plain));
    ACL_OK(aclrtDestroyEvent(ex));
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclmdlRIDestroy(other));
    aclrtFree(buf);
}

struct end_arg {
    aclrtContext ctx;
    aclrtStream s;
    aclError rc;
};

static void *end_thread(void *p)
{
    struct end_arg *a = p;
    aclrtSetCurrentContext(a->ctx);
    aclmdlRI ri = (aclmdlRI)0x1;
    a->rc = aclmdlRICaptureEnd(a->s, &ri);
    if (a->rc == ACL_SUCCESS)
        aclmdlRIDestroy(ri);
    else if (ri != NULL)
        a->rc = -1;
    return NULL;
}

static void test_capture_end_rules(void **state)
{
    (void)state;
    aclmdlRI ri = (aclmdlRI)0x1;
    ACL_ERR(aclmdlRICaptureEnd(g_s, &ri), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "not capturing");
    assert_null(ri);
    ACL_ERR(aclmdlRICaptureEnd(NULL, &ri), ACL_ERROR_INVALID_PARAM, "stream");
    ACL_ERR(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM, "stream");
    ACL_ERR(aclmdlRICaptureBegin(g_s, (aclmdlRICaptureMode)3), ACL_ERROR_RT_PARAM_INVALID, "mode");
    aclrtStream def = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
    ACL_ERR(aclmdlRICaptureBegin(def, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "default");
    ACL_ERR(aclmdlRICaptureBegin((aclrtStream)0x1234, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_INVALID_HANDLE,
            "stream");
    /* the result pointer is checked first; the capture goes on */
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_ERR(aclmdlRICaptureEnd(g_s, NULL), ACL_ERROR_RT_PARAM_INVALID, "modelRI");
    /* another thread may not end a GLOBAL capture: it is abandoned */
    aclrtContext ctx;
    ACL_OK(aclrtGetCurrentContext(&ctx));
    struct end_arg a = {ctx, g_s, 0};
    oacl_test_run_thread(end_thread, &a);
    assert_int_equal(a.rc, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
    aclmdlRICaptureStatus cs = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    ACL_OK(aclmdlRICaptureGetInfo(g_s, &cs, &ri));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    assert_null(ri);
    ACL_OK(aclrtSynchronizeStream(g_s));
    /* ... a RELAXED one may */
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    oacl_test_run_thread(end_thread, &a);
    assert_int_equal(a.rc, ACL_SUCCESS);
    ACL_ERR(aclmdlRICaptureGetInfo(NULL, &cs, NULL), ACL_ERROR_INVALID_PARAM, "stream");
    ACL_ERR(aclmdlRICaptureGetInfo(g_s, NULL, NULL), ACL_ERROR_INVALID_PARAM, "both");
    ACL_ERR(aclmdlRICaptureGetInfo((aclrtStream)0x99, &cs, NULL), ACL_ERROR_RT_INVALID_HANDLE, "stream");
    aclmdlRICaptureMode m = (aclmdlRICaptureMode)7;
    ACL_ERR(aclmdlRICaptureThreadExchangeMode(&m), ACL_ERROR_RT_PARAM_INVALID, "mode");
    ACL_ERR(aclmdlRICaptureThreadExchangeMode(NULL), ACL_ERROR_INVALID_PARAM, "mode");
}

/* A task that cannot be recorded (a stream-ordered free here) invalidates
 * the capture: the end reports 507903 and the stream is ordinary again. */
static void host_fn(void *arg) { __atomic_add_fetch((int *)arg, 1, __ATOMIC_RELAXED); }

static void test_invalidated_capture(void **state)
{
    (void)state;
    void *p = dev_zeroed(4096);
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    (void)aclrtMemPoolFreeAsync(p, g_s);
    aclmdlRICaptureStatus cs;
    aclmdlRI ri = (aclmdlRI)0x1;
    ACL_ERR(aclmdlRICaptureEnd(g_s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "invalidated");
    assert_null(ri);
    ACL_OK(aclmdlRICaptureGetInfo(g_s, &cs, NULL));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ACL_OK(aclrtSynchronizeStream(g_s));
}

/* Host functions and callbacks are called at every replay, in order with
 * the device work around them. */
static int g_host_calls;
static void *g_host_buf;

static void check_then_count(void *arg)
{
    /* the kernel before the host function has run (mapped host memory) */
    if (__atomic_load_n((uint32_t *)g_host_buf, __ATOMIC_ACQUIRE) == (uint32_t)(intptr_t)arg)
        __atomic_add_fetch(&g_host_calls, 1, __ATOMIC_RELAXED);
}

static void test_host_functions_replayed(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4);
    g_host_buf = buf;
    g_host_calls = 0;
    int plain = 0;
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclrtLaunchHostFunc(g_s, host_fn, &plain));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    assert_int_equal(plain, 0);
    for (int r = 1; r <= 10; r++) {
        ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
        ACL_OK(aclrtSynchronizeStream(g_x));
        assert_int_equal(__atomic_load_n(&plain, __ATOMIC_RELAXED), r);
    }
    ACL_OK(aclmdlRIDestroy(ri));
    /* ordered: the function sees the kernel's result of its own replay */
    struct test_buf mb;
    test_buf_alloc(&mb, N * 4);
    memset(mb.host, 0, N * 4);
    g_host_buf = mb.host;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(plus(mb.dev, mb.dev, 1, g_s));
    ACL_OK(aclrtLaunchHostFunc(g_s, check_then_count, (void *)(intptr_t)1));
    ACL_OK(plus(mb.dev, mb.dev, 1, g_s));
    ACL_OK(aclrtLaunchHostFunc(g_s, check_then_count, (void *)(intptr_t)2));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    for (int r = 0; r < 5; r++) {
        ACL_OK(aclrtMemsetAsync(mb.host, N * 4, 0, N * 4, g_x));
        ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    }
    ACL_OK(aclrtSynchronizeStream(g_x));
    assert_int_equal(g_host_calls, 10);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(((uint32_t *)mb.host)[i], 2);
    ACL_OK(aclmdlRIDestroy(ri));
    test_buf_free(&mb);
    /* the capturing stream may go before the RI: the RI keeps what it needs */
    aclrtStream t;
    ACL_OK(aclrtCreateStream(&t));
    ACL_OK(aclmdlRICaptureBegin(t, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtLaunchHostFunc(t, host_fn, &plain));
    ACL_OK(aclmdlRICaptureEnd(t, &ri));
    ACL_OK(aclrtDestroyStream(t));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    assert_int_equal(plain, 11);
    ACL_OK(aclmdlRIDestroy(ri));
    aclrtFree(buf);
}

/* ---- several streams ----------------------------------------------------------------- */

static void test_fork_join(void **state)
{
    (void)state;
    void *a = dev_zeroed(N * 4), *b = dev_zeroed(N * 4), *out = dev_zeroed(N * 4);
    aclrtEvent e1, e2;
    ACL_OK(aclrtCreateEventExWithFlag(&e1, ACL_EVENT_SYNC));
    ACL_OK(aclrtCreateEventExWithFlag(&e2, ACL_EVENT_SYNC));
    aclmdlRI ri = NULL, probe = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(plus(a, a, 1, g_s));
    ACL_OK(aclrtRecordEvent(e1, g_s));
    ACL_OK(aclrtStreamWaitEvent(g_x, e1)); /* g_x joins */
    aclmdlRICaptureStatus cs;
    ACL_OK(aclmdlRICaptureGetInfo(g_x, &cs, &probe));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ACL_OK(plus(a, b, 10, g_x));           /* b = a + 10, after a += 1 */
    ACL_OK(aclrtRecordEvent(e2, g_x));
    ACL_ERR(aclmdlRICaptureEnd(g_x, &ri), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "joined");
    ACL_OK(aclrtStreamWaitEvent(g_s, e2)); /* joined back */
    ACL_OK(plus(b, out, 100, g_s));        /* out = b + 100 */
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    assert_ptr_equal(ri, probe);
    ACL_OK(aclmdlRICaptureGetInfo(g_x, &cs, NULL));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    uint32_t n = 0;
    ACL_OK(aclmdlRIGetStreams(ri, NULL, &n));
    assert_int_equal(n, 2);
    aclrtStream y;
    ACL_OK(aclrtCreateStream(&y));
    for (uint32_t r = 1; r <= 10; r++) {
        ACL_OK(aclmdlRIExecuteAsync(ri, y));
        ACL_OK(aclrtSynchronizeStream(y));
        expect_all(a, r);
        expect_all(b, r + 10);
        expect_all(out, r + 110);
    }
    ACL_OK(aclmdlRIDestroy(ri));
    /* not joined back: 107025, and the RI is gone */
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclrtRecordEvent(e1, g_s));
    ACL_OK(aclrtStreamWaitEvent(g_x, e1));
    ACL_OK(plus(a, b, 10, g_x));
    ACL_ERR(aclmdlRICaptureEnd(g_s, &ri), ACL_ERROR_RT_STREAM_UNJOINED, "joined back");
    assert_null(ri);
    ACL_OK(aclmdlRICaptureGetInfo(g_x, &cs, NULL));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ACL_OK(aclrtSynchronizeStream(g_x));
    /* a dependency on work outside the capture: 107024, capture goes on */
    ACL_OK(aclrtRecordEvent(e1, y));
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_ERR(aclrtStreamWaitEvent(g_s, e1), ACL_ERROR_RT_CAPTURE_DEPENDENCY, "outside");
    ACL_OK(aclmdlRICaptureGetInfo(g_s, &cs, NULL));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyStream(y));
    ACL_OK(aclrtDestroyEvent(e1));
    ACL_OK(aclrtDestroyEvent(e2));
    aclrtFree(a);
    aclrtFree(b);
    aclrtFree(out);
}

/* ---- inspection and editing ------------------------------------------------------------- */

static aclmdlRI capture_three(void *buf, uint64_t *word)
{
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclrtValueWrite(word, 42, 0, g_s));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclrtMemsetAsync(word + 1, 8, 0, 8, g_s));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    return ri;
}

static void test_queries(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4);
    uint64_t *word = dev_zeroed(64);
    aclmdlRI ri = capture_three(buf, word);
    aclrtStream streams[3] = {(aclrtStream)1, (aclrtStream)1, (aclrtStream)1};
    uint32_t n = 3;
    ACL_OK(aclmdlRIGetStreams(ri, streams, &n));
    assert_int_equal(n, 1);
    assert_non_null(streams[0]);
    assert_null(streams[1]);
    assert_ptr_not_equal(streams[0], g_s); /* an RI-internal stream */
    ACL_ERR(aclrtDestroyStream(streams[0]), ACL_ERROR_RT_STREAM_MODEL, "model");
    ACL_ERR(plus(buf, buf, 1, streams[0]), ACL_ERROR_RT_STREAM_MODEL, "model"); /* RI streams take no work */
    ACL_ERR(aclrtMemsetAsync(buf, 4, 0, 4, streams[0]), ACL_ERROR_RT_STREAM_MODEL, "model");
    ACL_OK(aclrtSynchronizeStream(streams[0]));
    int32_t sid = -1;
    ACL_OK(aclrtStreamGetId(streams[0], &sid));
    aclmdlRITask tasks[8];
    n = 0;
    ACL_OK(aclmdlRIGetTasksByStream(streams[0], NULL, &n));
    assert_int_equal(n, 5);
    n = 1;
    ACL_ERR(aclmdlRIGetTasksByStream(streams[0], tasks, &n), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "array");
    assert_int_equal(n, 1);
    assert_non_null(tasks[0]);
    n = 8;
    ACL_OK(aclmdlRIGetTasksByStream(streams[0], tasks, &n));
    assert_int_equal(n, 5);
    assert_null(tasks[5]);
    ACL_ERR(aclmdlRIGetTasksByStream(g_s, tasks, &n), ACL_ERROR_RT_PARAM_INVALID, "stream");
    const aclmdlRITaskType want[5] = {ACL_MODEL_RI_TASK_KERNEL, ACL_MODEL_RI_TASK_VALUE_WRITE, ACL_MODEL_RI_TASK_KERNEL,
                                      ACL_MODEL_RI_TASK_DEFAULT, ACL_MODEL_RI_TASK_KERNEL};
    for (uint32_t i = 0; i < 5; i++) {
        aclmdlRITaskType t;
        uint32_t seq;
        ACL_OK(aclmdlRITaskGetType(tasks[i], &t));
        assert_int_equal(t, want[i]);
        ACL_OK(aclmdlRITaskGetSeqId(tasks[i], &seq));
        assert_int_equal(seq, i);
    }
    aclmdlRITaskParams p;
    memset(&p, 0xAB, sizeof(p));
    ACL_OK(aclmdlRITaskGetParams(tasks[0], &p));
    assert_int_equal(p.type, ACL_MODEL_RI_TASK_KERNEL);
    assert_int_equal(p.kernelTaskParams.numBlocks, 1);
    assert_int_equal(p.kernelTaskParams.argsSize, 28); /* the blob the launch built */
    assert_null(p.kernelTaskParams.cfg);
    assert_null(p.taskGrp);
    uint32_t add = 0;
    memcpy(&add, (char *)p.kernelTaskParams.args + 16, 4);
    assert_int_equal(add, 1);
    ACL_OK(aclmdlRITaskGetParams(tasks[1], &p));
    assert_int_equal(p.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
    assert_ptr_equal(p.valueWriteTaskParams.devAddr, word);
    assert_int_equal(p.valueWriteTaskParams.value, 42);
    ACL_ERR(aclmdlRITaskGetParams(tasks[3], &p), ACL_ERROR_RT_PARAM_INVALID, "DEFAULT");
    aclrtLaunchKernelAttrValue v;
    ACL_OK(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &v));
    assert_int_equal(v.isDataDump, 0);
    ACL_ERR(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &v),
            ACL_ERROR_RT_PARAM_INVALID, "attrId");
    ACL_ERR(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &v),
            ACL_ERROR_RT_PARAM_INVALID, "kernel");
    ACL_ERR(aclmdlRIKernelTaskGetAttribute(NULL, ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &v), ACL_ERROR_INVALID_PARAM,
            "task");
    /* names and ids */
    char name[8];
    ACL_OK(aclmdlRIGetName(ri, sizeof(name), name));
    assert_string_equal(name, "");
    ACL_OK(aclmdlRISetName(ri, "graph-1"));
    ACL_ERR(aclmdlRIGetName(ri, 7, name), ACL_ERROR_RT_INTERNAL_ERROR, "bytes");
    ACL_OK(aclmdlRIGetName(ri, 8, name));
    assert_string_equal(name, "graph-1");
    ACL_ERR(aclmdlRIGetName(ri, 0, name), ACL_ERROR_RT_PARAM_INVALID, "maxLen");
    aclmdlRI ri2 = capture_three(buf, word);
    uint32_t id1 = 0, id2 = 0;
    ACL_OK(aclmdlRIGetId(ri, &id1));
    ACL_OK(aclmdlRIGetId(ri2, &id2));
    assert_true(id2 > id1);
    ACL_OK(aclmdlRIDestroy(ri2));
    ACL_OK(aclmdlRIDestroy(ri));
    /* task and stream handles die with their RI */
    aclmdlRITaskType t;
    ACL_ERR(aclmdlRITaskGetType(tasks[0], &t), ACL_ERROR_RT_INVALID_HANDLE, "task");
    ACL_ERR(aclmdlRIGetTasksByStream(streams[0], NULL, &n), ACL_ERROR_RT_INVALID_HANDLE, "stream");
    aclrtFree(buf);
    aclrtFree(word);
}

static void test_disable_and_update(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4);
    uint64_t *word = dev_zeroed(64);
    aclmdlRI ri = capture_three(buf, word);
    aclmdlRITask tasks[5];
    uint32_t n = 5;
    ri_tasks(ri, tasks, &n);
    ACL_OK(aclmdlRIUpdate(ri)); /* nothing pending: no effect */
    ACL_OK(aclmdlRITaskDisable(tasks[2]));
    ACL_ERR(aclmdlRIExecuteAsync(ri, g_x), ACL_ERROR_RT_MODEL_EXECUTE, "aclmdlRIUpdate");
    ACL_OK(aclmdlRIUpdate(ri));
    for (uint32_t r = 1; r <= 5; r++) {
        ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
        ACL_OK(aclrtSynchronizeStream(g_x));
        expect_all(buf, 2 * r);
    }
    /* new kernel parameters: host blob (copied), then a device blob read at every execution */
    aclmdlRITaskParams p;
    ACL_OK(aclmdlRITaskGetParams(tasks[0], &p));
    uint8_t blob[64];
    size_t bs = p.kernelTaskParams.argsSize;
    assert_true(bs <= sizeof(blob));
    memcpy(blob, p.kernelTaskParams.args, bs);
    uint32_t add = 5;
    memcpy(blob + 16, &add, 4);
    aclmdlRITaskParams np;
    memset(&np, 0, sizeof(np));
    np.type = ACL_MODEL_RI_TASK_KERNEL;
    np.kernelTaskParams.funcHandle = g_plus;
    np.kernelTaskParams.args = blob;
    np.kernelTaskParams.argsSize = bs;
    np.kernelTaskParams.isHostArgs = 1;
    np.kernelTaskParams.numBlocks = 1;
    ACL_OK(aclmdlRITaskSetParams(tasks[0], &np));
    add = 999; /* copied by the call: later changes do not count */
    memcpy(blob + 16, &add, 4);
    ACL_ERR(aclmdlRIExecuteAsync(ri, g_x), ACL_ERROR_RT_MODEL_EXECUTE, "aclmdlRIUpdate");
    ACL_OK(aclmdlRIUpdate(ri));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 10 + 5 + 1); /* task 2 still disabled */
    void *dblob = dev_zeroed(64);
    add = 100;
    memcpy(blob + 16, &add, 4);
    ACL_OK(aclrtMemcpy(dblob, 64, blob, bs, ACL_MEMCPY_HOST_TO_DEVICE));
    np.kernelTaskParams.args = dblob;
    np.kernelTaskParams.isHostArgs = 0;
    ACL_OK(aclmdlRITaskSetParams(tasks[2], &np)); /* re-enables it */
    ACL_OK(aclmdlRIUpdate(ri));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 16 + 5 + 100 + 1);
    add = 1000; /* device arguments are read at every execution */
    ACL_OK(aclrtMemcpy((char *)dblob + 16, 4, &add, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 122 + 5 + 1000 + 1);
    ACL_OK(aclmdlRITaskGetParams(tasks[2], &p));
    assert_ptr_equal(p.kernelTaskParams.args, dblob);
    /* a value write gets a new word and value */
    memset(&np, 0, sizeof(np));
    np.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
    np.valueWriteTaskParams.devAddr = word + 2;
    np.valueWriteTaskParams.value = 77;
    ACL_OK(aclmdlRITaskSetParams(tasks[1], &np));
    ACL_OK(aclmdlRIUpdate(ri));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    uint64_t w = 0;
    ACL_OK(aclrtMemcpy(&w, 8, word + 2, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(w, 77);
    ACL_OK(aclmdlRITaskGetParams(tasks[1], &p));
    assert_ptr_equal(p.valueWriteTaskParams.devAddr, word + 2);
    /* a DEFAULT task cannot be disabled; the RI is faulty for good */
    ACL_ERR(aclmdlRITaskDisable(tasks[3]), ACL_ERROR_RT_PARAM_INVALID, "DEFAULT");
    ACL_ERR(aclmdlRIExecuteAsync(ri, g_x), ACL_ERROR_RT_MODEL_EXECUTE, "edit");
    ACL_ERR(aclmdlRIUpdate(ri), ACL_ERROR_RT_MODEL_UPDATE_FAILED, "faulty");
    ACL_ERR(aclmdlRITaskDisable(tasks[0]), ACL_ERROR_RT_MODEL_UPDATE_FAILED, "faulty");
    ACL_ERR(aclmdlRITaskSetParams(tasks[0], &np), ACL_ERROR_RT_MODEL_UPDATE_FAILED, "faulty");
    ACL_OK(aclmdlRIDestroy(ri));
    /* a failed edit makes the instance faulty: taskGrp must be NULL */
    ri = capture_three(buf, word);
    n = 5;
    ri_tasks(ri, tasks, &n);
    ACL_OK(aclmdlRITaskGetParams(tasks[0], &p));
    p.taskGrp = (aclrtTaskGrp)0x10;
    ACL_ERR(aclmdlRITaskSetParams(tasks[0], &p), ACL_ERROR_RT_PARAM_INVALID, "taskGrp");
    ACL_ERR(aclmdlRIExecuteAsync(ri, g_x), ACL_ERROR_RT_MODEL_EXECUTE, "edit");
    ACL_ERR(aclmdlRIUpdate(ri), ACL_ERROR_RT_MODEL_UPDATE_FAILED, "faulty");
    ACL_OK(aclmdlRIDestroy(ri));
    ri = capture_three(buf, word);
    n = 5;
    ri_tasks(ri, tasks, &n);
    memset(&np, 0, sizeof(np));
    np.type = ACL_MODEL_RI_TASK_EVENT_RECORD;
    ACL_ERR(aclmdlRITaskSetParams(tasks[0], &np), ACL_ERROR_RT_PARAM_INVALID, "type");
    ACL_OK(aclmdlRIDestroy(ri));
    aclrtFree(dblob);
    ACL_ERR(aclmdlRITaskDisable(NULL), ACL_ERROR_RT_PARAM_INVALID, "task");
    ACL_ERR(aclmdlRITaskDisable((aclmdlRITask)0x77), ACL_ERROR_RT_INVALID_HANDLE, "task");
    ACL_ERR(aclmdlRIUpdate(NULL), ACL_ERROR_RT_PARAM_INVALID, "modelRI");
    aclrtFree(buf);
    aclrtFree(word);
}

/* ---- debug output --------------------------------------------------------------------- */

static void test_debug_json(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4);
    uint64_t *word = dev_zeroed(64);
    aclmdlRI ri = capture_three(buf, word);
    char path[] = "/tmp/oacl_ri_json_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ACL_OK(aclmdlRIDebugJsonPrint(ri, path, ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "python3 -m json.tool %s >/dev/null", path);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[8192];
    size_t len = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[len] = '\0';
    assert_true(text[0] == '[' && text[1] == '\n' && text[len - 1] == ']');
    assert_non_null(strstr(text, "\"name\":\"copy_plus\""));
    assert_non_null(strstr(text, "\"Task Type\":\"KERNEL_AIVEC\""));
    assert_non_null(strstr(text, "\"Numblocks\":1"));
    assert_non_null(strstr(text, "\"Kernel Args Size\":28"));
    assert_non_null(strstr(text, "\"Task Type\":\"MEM_WRITE_VALUE\""));
    assert_non_null(strstr(text, "\"ts\":10,\"dur\":9.5"));
    ACL_OK(aclmdlRIDebugJsonPrint(ri, path, ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
    assert_int_equal(system(cmd), 0);
    unlink(path);
    ACL_ERR(aclmdlRIDebugJsonPrint(ri, "/nonexistent-dir/x.json", 0), ACL_ERROR_RT_PARAM_INVALID, "cannot create");
    ACL_ERR(aclmdlRIDebugJsonPrint(ri, NULL, 0), ACL_ERROR_INVALID_PARAM, "path");
    ACL_ERR(aclmdlRIDebugJsonPrint(NULL, path, 0), ACL_ERROR_INVALID_PARAM, "modelRI");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ACL_OK(aclmdlRIDebugPrint(ri));
    ACL_ERR(aclmdlRIDebugPrint(NULL), ACL_ERROR_INVALID_PARAM, "modelRI");
#pragma GCC diagnostic pop
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_ERR(aclmdlRIDebugJsonPrint(ri, path, 0), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    aclrtFree(buf);
    aclrtFree(word);
}

/* ---- lifetime ------------------------------------------------------------------------- */

static int g_order[4], g_calls;
static void cb_a(void *ud) { g_order[g_calls++] = (int)(intptr_t)ud; }
static void cb_b(void *ud) { g_order[g_calls++] = (int)(intptr_t)ud; }

static void test_destroy_callbacks(void **state)
{
    (void)state;
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    g_calls = 0;
    ACL_OK(aclmdlRIDestroyRegisterCallback(ri, cb_b, (void *)2));
    ACL_OK(aclmdlRIDestroyRegisterCallback(ri, cb_a, (void *)1));
    ACL_ERR(aclmdlRIDestroyRegisterCallback(ri, cb_a, (void *)9), ACL_ERROR_RT_PARAM_INVALID, "already");
    ACL_ERR(aclmdlRIDestroyRegisterCallback(ri, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, "func");
    ACL_ERR(aclmdlRIDestroyRegisterCallback(NULL, cb_a, NULL), ACL_ERROR_RT_PARAM_INVALID, "modelRI");
    ACL_ERR(aclmdlRIDestroyUnregisterCallback(ri, host_fn), ACL_ERROR_RT_PARAM_INVALID, "not registered");
    ACL_ERR(aclmdlRIDestroyUnregisterCallback(ri, NULL), ACL_ERROR_RT_PARAM_INVALID, "func");
    ACL_OK(aclmdlRIDestroy(ri));
    assert_int_equal(g_calls, 2);
    int first = (uintptr_t)cb_a < (uintptr_t)cb_b ? 1 : 2;
    assert_int_equal(g_order[0], first);
    assert_int_equal(g_order[1], 3 - first);
    ACL_ERR(aclmdlRIDestroy(ri), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    ACL_ERR(aclmdlRIDestroy(NULL), ACL_ERROR_INVALID_PARAM, "modelRI");
    ACL_ERR(aclmdlRIDestroyRegisterCallback(ri, cb_a, NULL), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
}

struct gate_arg {
    struct test_buf *gate;
    aclrtStream s;
};

static void *open_gate(void *p)
{
    struct gate_arg *g = p;
    /* opens once the execution is blocked on it, whenever that is */
    __atomic_store_n((uint64_t *)g->gate->host, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* Destroy while an execution is queued: the destroy waits for it. */
static void test_destroy_waits_for_execution(void **state)
{
    (void)state;
    struct test_buf gate;
    test_buf_alloc(&gate, 4096);
    memset(gate.host, 0, 8);
    void *buf = dev_zeroed(N * 4);
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclrtValueWait(gate.dev, 1, ACL_STREAM_WAIT_VALUE_EQ, g_s));
    ACL_OK(plus(buf, buf, 3, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    pthread_t th;
    struct gate_arg ga = {&gate, g_x};
    assert_int_equal(pthread_create(&th, NULL, open_gate, &ga), 0);
    ACL_OK(aclmdlRIDestroy(ri)); /* returns once the execution finished */
    pthread_join(th, NULL);
    expect_all(buf, 3);
    ACL_OK(aclrtSynchronizeStream(g_x));
    aclrtFree(buf);
    test_buf_free(&gate);
}

static void test_abort(void **state)
{
    (void)state;
    struct test_buf gate;
    test_buf_alloc(&gate, 4096);
    memset(gate.host, 0, 8);
    void *buf = dev_zeroed(N * 4);
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclrtValueWait(gate.dev, 1, ACL_STREAM_WAIT_VALUE_EQ, g_s));
    ACL_OK(plus(buf, buf, 3, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    ACL_OK(aclmdlRIAbort(ri)); /* nothing running: no effect */
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclmdlRIAbort(ri));
    ACL_ERR(aclrtSynchronizeStream(g_x), ACL_ERROR_RT_MODEL_ABORT_NORMAL, "aborted");
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 0);
    /* runs normally afterwards */
    *(volatile uint64_t *)gate.host = 1;
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 3);
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_ERR(aclmdlRIAbort(NULL), ACL_ERROR_RT_PARAM_INVALID, "modelRI");
    ACL_ERR(aclmdlRIAbort(ri), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    aclrtFree(buf);
    test_buf_free(&gate);
}

/* ---- bad arguments --------------------------------------------------------------------- */

static void test_bad_arguments(void **state)
{
    (void)state;
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    aclmdlRI bogus = (aclmdlRI)0x4242;
    ACL_ERR(aclmdlRIExecuteAsync(NULL, g_s), ACL_ERROR_INVALID_PARAM, "modelRI");
    ACL_ERR(aclmdlRIExecuteAsync(bogus, g_s), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    ACL_ERR(aclmdlRIExecuteAsync(ri, (aclrtStream)0x4242), ACL_ERROR_RT_INVALID_HANDLE, "stream");
    ACL_ERR(aclmdlRIExecute(NULL, -1), ACL_ERROR_INVALID_PARAM, "modelRI");
    ACL_ERR(aclmdlRIExecute(ri, 0), ACL_ERROR_RT_PARAM_INVALID, "timeout");
    ACL_ERR(aclmdlRIExecute(ri, -2), ACL_ERROR_RT_PARAM_INVALID, "timeout");
    ACL_ERR(aclmdlRIExecute(ri, -1), ACL_ERROR_RT_PARAM_INVALID, "captured");
    ACL_ERR(aclmdlRISetName(NULL, "x"), ACL_ERROR_INVALID_PARAM, "modelRI");
    ACL_ERR(aclmdlRISetName(ri, NULL), ACL_ERROR_INVALID_PARAM, "name");
    ACL_ERR(aclmdlRISetName(bogus, "x"), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    char name[4];
    ACL_ERR(aclmdlRIGetName(NULL, 4, name), ACL_ERROR_INVALID_PARAM, "modelRI");
    ACL_ERR(aclmdlRIGetName(ri, 4, NULL), ACL_ERROR_INVALID_PARAM, "name");
    ACL_ERR(aclmdlRIGetName(bogus, 4, name), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    uint32_t id;
    ACL_ERR(aclmdlRIGetId(NULL, &id), ACL_ERROR_INVALID_PARAM, "modelRI");
    ACL_ERR(aclmdlRIGetId(ri, NULL), ACL_ERROR_INVALID_PARAM, "modelRIId");
    ACL_ERR(aclmdlRIGetId(bogus, &id), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    aclrtStream st[1];
    uint32_t n = 1;
    ACL_ERR(aclmdlRIGetStreams(ri, st, NULL), ACL_ERROR_RT_PARAM_INVALID, "numStreams");
    ACL_ERR(aclmdlRIGetStreams(NULL, st, &n), ACL_ERROR_RT_PARAM_INVALID, "modelRI");
    ACL_ERR(aclmdlRIGetStreams(bogus, st, &n), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    n = 0; /* an empty capture still has its origin RI stream */
    ACL_ERR(aclmdlRIGetStreams(ri, st, &n), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "array");
    aclmdlRITask t[1];
    ACL_ERR(aclmdlRIGetTasksByStream(NULL, t, &n), ACL_ERROR_RT_PARAM_INVALID, "stream");
    ACL_ERR(aclmdlRIGetTasksByStream(g_s, t, NULL), ACL_ERROR_RT_PARAM_INVALID, "numTasks");
    ACL_ERR(aclmdlRIGetTasksByStream((aclrtStream)0x4242, t, &n), ACL_ERROR_RT_INVALID_HANDLE, "stream");
    aclmdlRITaskType ty;
    uint32_t seq;
    aclmdlRITaskParams p;
    ACL_ERR(aclmdlRITaskGetType(NULL, &ty), ACL_ERROR_RT_PARAM_INVALID, "task");
    ACL_ERR(aclmdlRITaskGetType((aclmdlRITask)0x4242, &ty), ACL_ERROR_RT_INVALID_HANDLE, "task");
    ACL_ERR(aclmdlRITaskGetType((aclmdlRITask)0x4242, NULL), ACL_ERROR_RT_PARAM_INVALID, "type");
    ACL_ERR(aclmdlRITaskGetSeqId(NULL, &seq), ACL_ERROR_RT_PARAM_INVALID, "task");
    ACL_ERR(aclmdlRITaskGetSeqId((aclmdlRITask)0x4242, &seq), ACL_ERROR_RT_INVALID_HANDLE, "task");
    ACL_ERR(aclmdlRITaskGetSeqId((aclmdlRITask)0x4242, NULL), ACL_ERROR_RT_PARAM_INVALID, "id");
    ACL_ERR(aclmdlRITaskGetParams(NULL, &p), ACL_ERROR_RT_PARAM_INVALID, "task");
    ACL_ERR(aclmdlRITaskGetParams((aclmdlRITask)0x4242, &p), ACL_ERROR_RT_INVALID_HANDLE, "task");
    ACL_ERR(aclmdlRITaskGetParams((aclmdlRITask)0x4242, NULL), ACL_ERROR_RT_PARAM_INVALID, "params");
    ACL_ERR(aclmdlRITaskSetParams(NULL, &p), ACL_ERROR_RT_PARAM_INVALID, "task");
    ACL_ERR(aclmdlRITaskSetParams((aclmdlRITask)0x4242, &p), ACL_ERROR_RT_INVALID_HANDLE, "task");
    ACL_ERR(aclmdlRITaskSetParams((aclmdlRITask)0x4242, NULL), ACL_ERROR_RT_PARAM_INVALID, "params");
    ACL_OK(aclmdlRIDestroy(ri));
}

/* Task groups: a run of kernels replaced as a unit by re-capture on an
 * ordinary stream, in that stream's order. */
static void test_task_groups(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4);
    aclmdlRI ri = NULL;
    aclrtTaskGrp grp = NULL;
    ACL_ERR(aclmdlRICaptureTaskGrpBegin(g_s), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "not capturing");
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_ERR(aclmdlRICaptureTaskGrpEnd(g_s, &grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "no task group");
    ACL_OK(aclmdlRICaptureTaskGrpBegin(g_s));
    ACL_ERR(aclmdlRICaptureTaskGrpBegin(g_s), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "already");
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_ERR(aclmdlRICaptureEnd(g_s, &ri), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "still open");
    /* that end failed and dropped the capture: capture again */
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(plus(buf, buf, 100, g_s));
    ACL_OK(aclmdlRICaptureTaskGrpBegin(g_s));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclmdlRICaptureTaskGrpEnd(g_s, &grp));
    assert_non_null(grp);
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    aclmdlRITask tasks[3];
    uint32_t n = 3;
    ri_tasks(ri, tasks, &n);
    aclmdlRITaskParams p;
    ACL_OK(aclmdlRITaskGetParams(tasks[0], &p));
    assert_null(p.taskGrp);
    ACL_OK(aclmdlRITaskGetParams(tasks[2], &p));
    assert_ptr_equal(p.taskGrp, grp);
    aclrtStream u;
    ACL_OK(aclrtCreateStream(&u));
    ACL_OK(aclmdlRIExecuteAsync(ri, u));
    ACL_OK(aclrtSynchronizeStream(u));
    expect_all(buf, 102);
    /* an execution queued before the update still adds 2; one after adds 20 */
    ACL_OK(aclmdlRIExecuteAsync(ri, u));
    ACL_OK(aclmdlRICaptureTaskUpdateBegin(u, grp));
    ACL_ERR(aclmdlRICaptureTaskUpdateBegin(u, grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "update mode");
    ACL_ERR(aclmdlRICaptureTaskUpdateBegin(g_x, grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "another stream");
    ACL_OK(plus(buf, buf, 10, u));
    ACL_OK(plus(buf, buf, 10, u));
    ACL_ERR(plus(buf, buf, 10, u), ACL_ERROR_RT_INTERNAL_ERROR, "only 2");
    ACL_ERR(aclrtMemsetAsync(buf, 4, 0, 4, u), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "update mode");
    ACL_OK(aclmdlRICaptureTaskUpdateEnd(u));
    ACL_OK(aclmdlRIExecuteAsync(ri, u));
    ACL_OK(aclrtSynchronizeStream(u));
    expect_all(buf, 102 + 102 + 120);
    /* too few launches: 507000, update mode left anyway */
    ACL_OK(aclmdlRICaptureTaskUpdateBegin(u, grp));
    ACL_OK(plus(buf, buf, 1000, u));
    ACL_ERR(aclmdlRICaptureTaskUpdateEnd(u), ACL_ERROR_RT_INTERNAL_ERROR, "1 launches");
    ACL_ERR(aclmdlRICaptureTaskUpdateEnd(u), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "not in update mode");
    ACL_OK(aclmdlRIExecuteAsync(ri, u));
    ACL_OK(aclrtSynchronizeStream(u));
    expect_all(buf, 324 + 100 + 1000 + 10);
    ACL_ERR(aclmdlRICaptureTaskUpdateBegin(u, (aclrtTaskGrp)0x77), ACL_ERROR_RT_INVALID_HANDLE, "task group");
    ACL_ERR(aclmdlRICaptureTaskUpdateBegin(NULL, grp), ACL_ERROR_INVALID_PARAM, "stream");
    ACL_ERR(aclmdlRICaptureTaskUpdateEnd(NULL), ACL_ERROR_INVALID_PARAM, "stream");
    ACL_ERR(aclmdlRICaptureTaskGrpEnd(g_s, NULL), ACL_ERROR_INVALID_PARAM, "handle");
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_ERR(aclmdlRICaptureTaskUpdateBegin(u, grp), ACL_ERROR_RT_INVALID_HANDLE, "task group");
    /* a non-kernel task inside a group breaks the capture */
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclmdlRICaptureTaskGrpBegin(g_s));
    ACL_ERR(aclrtMemsetAsync(buf, N * 4, 0, N * 4, g_s), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "task group");
    aclmdlRICaptureStatus cs;
    ACL_OK(aclmdlRICaptureGetInfo(g_s, &cs, NULL));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    ACL_ERR(aclmdlRICaptureTaskGrpEnd(g_s, &grp), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "kernel");
    assert_null(grp);
    ACL_ERR(aclmdlRICaptureEnd(g_s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "invalidated");
    ACL_OK(aclmdlRICaptureGetInfo(g_s, &cs, NULL));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    /* while a group is open, another stream of the capture may record nothing (107034) */
    aclrtEvent e;
    ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclrtRecordEvent(e, g_s));
    ACL_OK(aclrtStreamWaitEvent(g_x, e)); /* g_x joins */
    ACL_OK(aclmdlRICaptureTaskGrpBegin(g_s));
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_ERR(plus(buf, buf, 1, g_x), ACL_ERROR_STREAM_TASK_GROUP_INTR, "task group is open");
    ACL_OK(aclmdlRICaptureGetInfo(g_s, &cs, NULL));
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    ACL_ERR(aclmdlRICaptureTaskGrpEnd(g_s, &grp), ACL_ERROR_STREAM_TASK_GROUP_INTR, "another stream");
    ACL_ERR(aclmdlRICaptureEnd(g_s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "invalidated");
    ACL_OK(aclrtSynchronizeStream(g_x));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyStream(u));
    aclrtFree(buf);
}

/* Conditional tasks: IF, WHILE and SWITCH on a device word, branches
 * captured into sub-RIs. */
static void set_word(uint64_t *w, uint64_t v) { ACL_OK(aclrtMemcpy(w, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE)); }

static void test_conditional_tasks(void **state)
{
    (void)state;
    void *buf = dev_zeroed(N * 4);
    aclrtStream y;
    ACL_OK(aclrtCreateStream(&y));
    /* IF with two branches */
    aclmdlRI ri = NULL, probe = NULL, subs[3] = {NULL, NULL, NULL};
    aclmdlRICondHandle h;
    uint64_t *cond = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclmdlRICaptureGetInfo(g_s, NULL, &probe));
    ACL_OK(aclmdlRICondHandleCreate(probe, 0, 0, &h));
    ACL_OK(aclmdlRICondHandleGetCondPtr(h, &cond));
    aclmdlRICondTaskParams cp = {h, ACL_MODEL_RI_COND_TYPE_IF, 3, subs};
    ACL_ERR(aclmdlRIAddCondTask(cp, g_s, 0), ACL_ERROR_RT_PARAM_INVALID, "size");
    cp.size = 2;
    ACL_ERR(aclmdlRIAddCondTask(cp, g_s, 1), ACL_ERROR_RT_PARAM_INVALID, "flags");
    ACL_ERR(aclmdlRIAddCondTask(cp, g_x, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "not capturing");
    ACL_OK(aclmdlRIAddCondTask(cp, g_s, 0));
    assert_non_null(subs[0]);
    assert_non_null(subs[1]);
    aclmdlRI dup[2] = {(aclmdlRI)1, (aclmdlRI)1};
    aclmdlRICondTaskParams again = {h, ACL_MODEL_RI_COND_TYPE_IF, 2, dup};
    ACL_ERR(aclmdlRIAddCondTask(again, g_s, 0), ACL_ERROR_RT_PARAM_INVALID, "another conditional task");
    assert_null(dup[0]); /* zero-filled on failure */
    ACL_OK(plus(buf, buf, 100, g_s)); /* after the branch */
    ACL_OK(aclmdlRICaptureToModelRIBegin(g_x, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(plus(buf, buf, 1, g_x));
    ACL_OK(aclmdlRICaptureEnd(g_x, NULL));
    ACL_ERR(aclmdlRICaptureToModelRIBegin(y, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_MODEL_CAPTURED,
            "already");
    ACL_ERR(aclmdlRICaptureToModelRIBegin(y, probe, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_PARAM_INVALID,
            "branch");
    ACL_ERR(aclmdlRICaptureEnd(g_s, &ri), ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING, "branch");
    assert_null(ri);
    /* that end dropped the whole capture: do it again, all branches captured */
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclmdlRICaptureGetInfo(g_s, NULL, &probe));
    ACL_OK(aclmdlRICondHandleCreate(probe, 0, 0, &h));
    ACL_OK(aclmdlRICondHandleGetCondPtr(h, &cond));
    cp.handle = h;
    ACL_OK(aclmdlRIAddCondTask(cp, g_s, 0));
    ACL_OK(plus(buf, buf, 100, g_s));
    ACL_OK(aclmdlRICaptureToModelRIBegin(g_x, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(plus(buf, buf, 1, g_x));
    ACL_OK(aclmdlRICaptureEnd(g_x, NULL));
    ACL_OK(aclmdlRICaptureToModelRIBegin(y, subs[1], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(plus(buf, buf, 10, y));
    ACL_OK(aclmdlRICaptureEnd(y, NULL));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    ACL_ERR(aclmdlRIExecuteAsync(subs[0], g_x), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "branch");
    ACL_ERR(aclmdlRIDestroy(subs[0]), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "branch");
    uint32_t n = 0;
    ACL_ERR(aclmdlRIGetStreams(subs[1], NULL, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "branch");
    set_word(cond, 1);
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 101);
    set_word(cond, 0);
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 211);
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_ERR(aclmdlRICondHandleGetCondPtr(h, &cond), ACL_ERROR_RT_INVALID_HANDLE, "condition handle");
    ACL_ERR(aclmdlRIExecuteAsync(subs[0], g_x), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    /* WHILE: the body counts the value down; ASSIGN_DEFAULT sets it to 3 at every execution */
    ACL_OK(aclrtMemset(buf, N * 4, 0, N * 4));
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclmdlRICaptureGetInfo(g_s, NULL, &probe));
    ACL_OK(aclmdlRICondHandleCreate(probe, 3, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
    ACL_OK(aclmdlRICondHandleGetCondPtr(h, &cond));
    aclmdlRICondTaskParams wp = {h, ACL_MODEL_RI_COND_TYPE_WHILE, 1, subs};
    ACL_OK(aclmdlRIAddCondTask(wp, g_s, 0));
    ACL_OK(aclmdlRICaptureToModelRIBegin(g_x, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(plus(buf, buf, 1, g_x));
    ACL_OK(plus_one(cond, 0xFFFFFFFFu, g_x)); /* value - 1 (low word) */
    ACL_OK(aclmdlRICaptureEnd(g_x, NULL));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    for (uint32_t r = 1; r <= 3; r++) {
        ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
        ACL_OK(aclrtSynchronizeStream(g_x));
        expect_all(buf, 3 * r);
    }
    ACL_OK(aclmdlRIDestroy(ri));
    /* SWITCH: value >= size runs nothing */
    ACL_OK(aclrtMemset(buf, N * 4, 0, N * 4));
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclmdlRICaptureGetInfo(g_s, NULL, &probe));
    ACL_OK(aclmdlRICondHandleCreate(probe, 0, 0, &h));
    ACL_OK(aclmdlRICondHandleGetCondPtr(h, &cond));
    aclmdlRICondTaskParams sp = {h, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, subs};
    ACL_OK(aclmdlRIAddCondTask(sp, g_s, 0));
    for (uint32_t b = 0; b < 3; b++) {
        ACL_OK(aclmdlRICaptureToModelRIBegin(g_x, subs[b], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
        ACL_OK(plus(buf, buf, 1u << (4 * b), g_x));
        ACL_OK(aclmdlRICaptureEnd(g_x, NULL));
    }
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    set_word(cond, 2);
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 0x100);
    set_word(cond, 5);
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 0x100);
    set_word(cond, 0);
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 0x101);
    ACL_OK(aclmdlRIDestroy(ri));
    /* bad arguments */
    ACL_ERR(aclmdlRICondHandleCreate(NULL, 0, 0, &h), ACL_ERROR_INVALID_PARAM, "modelRI");
    ACL_ERR(aclmdlRICondHandleCreate(ri, 0, 0, &h), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    ACL_ERR(aclmdlRICondHandleGetCondPtr(NULL, &cond), ACL_ERROR_INVALID_PARAM, "handle");
    ACL_ERR(aclmdlRICondHandleGetCondPtr((aclmdlRICondHandle)0x99, &cond), ACL_ERROR_RT_INVALID_HANDLE, "condition");
    sp.type = (aclmdlRICondTaskType)3;
    ACL_ERR(aclmdlRIAddCondTask(sp, g_s, 0), ACL_ERROR_RT_PARAM_INVALID, "type");
    sp.type = ACL_MODEL_RI_COND_TYPE_IF;
    sp.handle = NULL;
    ACL_ERR(aclmdlRIAddCondTask(sp, g_s, 0), ACL_ERROR_RT_PARAM_INVALID, "handle");
    ACL_ERR(aclmdlRIAddCondTask(sp, NULL, 0), ACL_ERROR_INVALID_PARAM, "stream");
    ACL_ERR(aclmdlRICaptureToModelRIBegin(NULL, ri, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_INVALID_PARAM,
            "stream");
    ACL_OK(aclrtDestroyStream(y));
    aclrtFree(buf);
}

/* A failing task stops its execution at the next task boundary; the stream
 * reports it once; the RI runs again once its input is fixed. */
static void test_execution_failure(void **state)
{
    (void)state;
    aclrtBinHandle faults;
    aclrtFuncHandle trap;
    test_load("rt_faults", "trap_kernel", &faults, &trap);
    void *buf = dev_zeroed(N * 4), *out = dev_zeroed(64);
    uint32_t bad = 0;
    const void *v[] = {&out, &bad};
    const size_t sz[] = {8, 4};
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(test_launch(trap, 1, g_s, 2, v, sz)); /* block 0 traps */
    ACL_OK(plus(buf, buf, 1, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_ERR(aclrtSynchronizeStream(g_x), ACL_ERROR_RT_AICORE_EXCEPTION, "trap");
    ACL_OK(aclrtSynchronizeStream(g_x)); /* reported once */
    expect_all(buf, 0);                  /* the task after the failure did not run */
    /* fixed input: no block is bad any more */
    aclmdlRITask tasks[2];
    uint32_t n = 2;
    ri_tasks(ri, tasks, &n);
    aclmdlRITaskParams p;
    ACL_OK(aclmdlRITaskGetParams(tasks[0], &p));
    uint8_t blob[64];
    memcpy(blob, p.kernelTaskParams.args, p.kernelTaskParams.argsSize);
    bad = 7;
    memcpy(blob + 8, &bad, 4);
    p.kernelTaskParams.args = blob;
    p.kernelTaskParams.isHostArgs = 1;
    p.kernelTaskParams.funcHandle = trap;
    ACL_OK(aclmdlRITaskSetParams(tasks[0], &p));
    ACL_OK(aclmdlRIUpdate(ri));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_all(buf, 1);
    uint32_t mark = 0;
    ACL_OK(aclrtMemcpy(&mark, 4, out, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(mark, 1);
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtBinaryUnLoad(faults));
    aclrtFree(buf);
    aclrtFree(out);
}

/* EXTERNAL records and waits act on the user's event at every execution. */
static void test_external_events(void **state)
{
    (void)state;
    void *a = dev_zeroed(N * 4), *out = dev_zeroed(N * 4), *c = dev_zeroed(N * 4), *out2 = dev_zeroed(N * 4);
    aclrtEvent e, e2;
    ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ACL_OK(aclrtCreateEventExWithFlag(&e2, ACL_EVENT_SYNC));
    ACL_ERR(aclrtRecordEventWithFlag(e, g_s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "capture");
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclrtStreamWaitEventWithFlag(g_s, e2, 0, ACL_EVENT_WAIT_EXTERNAL));
    ACL_OK(plus(c, out2, 0, g_s)); /* out2 = c, after e2's newest record */
    ACL_OK(plus(a, a, 1, g_s));
    ACL_OK(aclrtRecordEventWithFlag(e, g_s, ACL_EVENT_RECORD_EXTERNAL));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    aclmdlRITask tasks[4];
    uint32_t n = 4;
    ri_tasks(ri, tasks, &n);
    aclmdlRITaskParams p;
    ACL_OK(aclmdlRITaskGetParams(tasks[3], &p));
    assert_int_equal(p.type, ACL_MODEL_RI_TASK_EVENT_RECORD);
    assert_ptr_equal(p.eventRecordTaskParams.event, e);
    assert_int_equal(p.eventRecordTaskParams.recordFlag, 1);
    ACL_OK(aclmdlRITaskGetParams(tasks[0], &p));
    assert_int_equal(p.type, ACL_MODEL_RI_TASK_EVENT_WAIT);
    assert_int_equal(p.eventWaitTaskParams.waitFlag, 1);
    struct test_buf gate;
    test_buf_alloc(&gate, 4096);
    memset(gate.host, 0, 8);
    aclrtStream y, z;
    ACL_OK(aclrtCreateStream(&y));
    ACL_OK(aclrtCreateStream(&z));
    for (uint32_t r = 1; r <= 3; r++) {
        /* outside work the graph waits for: held by a gate, then c = r */
        ACL_OK(aclrtValueWait(gate.dev, r, ACL_STREAM_WAIT_VALUE_GEQ, z));
        ACL_OK(plus(c, c, 1, z));
        ACL_OK(aclrtRecordEvent(e2, z));
        ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
        __atomic_store_n((uint64_t *)gate.host, r, __ATOMIC_RELEASE);
        ACL_OK(aclrtSynchronizeStream(g_x));
        expect_all(out2, r); /* the graph waited for z's work */
        /* the graph recorded the user's event: outside streams can wait for it */
        aclrtEventRecordedStatus st;
        ACL_OK(aclrtQueryEventStatus(e, &st));
        assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
        ACL_OK(aclrtStreamWaitEvent(y, e));
        ACL_OK(plus(a, out, 0, y));
        ACL_OK(aclrtSynchronizeStream(y));
        expect_all(out, r);
    }
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyEvent(e)); /* the graph held it until now */
    ACL_OK(aclrtDestroyEvent(e2));
    ACL_OK(aclrtDestroyStream(y));
    ACL_OK(aclrtDestroyStream(z));
    test_buf_free(&gate);
    aclrtFree(a);
    aclrtFree(out);
    aclrtFree(c);
    aclrtFree(out2);
}

/* aclrtTaskUpdateAsync: argument checks (its refusals: test_model_ri_build.c). */
static void test_task_update_async_args(void **state)
{
    (void)state;
    aclrtTaskUpdateInfo info = {.id = ACL_RT_UPDATE_AIC_AIV_TASK};
    ACL_ERR(aclrtTaskUpdateAsync(g_s, 0, &info, g_x), ACL_ERROR_RT_PARAM_INVALID, "funcEntryAddr");
    info.id = ACL_RT_UPDATE_RANDOM_TASK;
    ACL_ERR(aclrtTaskUpdateAsync(g_s, 0, &info, g_x), ACL_ERROR_RT_PARAM_INVALID, "srcAddr");
    ACL_ERR(aclrtTaskUpdateAsync(NULL, 0, &info, g_x), ACL_ERROR_RT_PARAM_INVALID, "taskStream");
    info.id = (aclrtUpdateTaskAttrId)9;
    ACL_ERR(aclrtTaskUpdateAsync(g_s, 0, &info, g_x), ACL_ERROR_RT_PARAM_INVALID, "info->id");
    ACL_ERR(aclrtTaskUpdateAsync(g_s, 0, NULL, g_x), ACL_ERROR_INVALID_PARAM, "info");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        OACL_TEST_WITH_STREAMS(test_capture_replay_mixed, g_streams),
        OACL_TEST_WITH_STREAMS(test_work_before_capture_runs_once, g_streams),
        OACL_TEST_WITH_STREAMS(test_ordering_with_stream_work, g_streams),
        OACL_TEST_WITH_STREAMS(test_same_ri_two_streams, g_streams),
        OACL_TEST_WITH_STREAMS(test_illegal_during_capture, g_streams),
        OACL_TEST_WITH_STREAMS(test_capture_end_rules, g_streams),
        OACL_TEST_WITH_STREAMS(test_invalidated_capture, g_streams),
        OACL_TEST_WITH_STREAMS(test_host_functions_replayed, g_streams),
        OACL_TEST_WITH_STREAMS(test_fork_join, g_streams),
        OACL_TEST_WITH_STREAMS(test_queries, g_streams),
        OACL_TEST_WITH_STREAMS(test_disable_and_update, g_streams),
        OACL_TEST_WITH_STREAMS(test_debug_json, g_streams),
        OACL_TEST_WITH_STREAMS(test_destroy_callbacks, g_streams),
        OACL_TEST_WITH_STREAMS(test_destroy_waits_for_execution, g_streams),
        OACL_TEST_WITH_STREAMS(test_abort, g_streams),
        OACL_TEST_WITH_STREAMS(test_bad_arguments, g_streams),
        OACL_TEST_WITH_STREAMS(test_task_groups, g_streams),
        OACL_TEST_WITH_STREAMS(test_conditional_tasks, g_streams),
        OACL_TEST_WITH_STREAMS(test_external_events, g_streams),
        OACL_TEST_WITH_STREAMS(test_execution_failure, g_streams),
        OACL_TEST_WITH_STREAMS(test_task_update_async_args, g_streams),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
