/*
 * Device management (spec 1.6, 4.2, 5.27, 5.32): aclrtSetDevice /
 * ResetDevice / ResetDeviceForce / GetDevice / GetDeviceCount / GetRunMode /
 * GetSocName, the simulator configuration (OACL_DEVICE_COUNT, OACL_SOC; read
 * once per process, so checked in child processes) and devices used from
 * several threads.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NDEV 8

/* The calling thread's device, or -1000 - error code. */
static int32_t current_device(void)
{
    int32_t d = -1;
    aclError rc = aclrtGetDevice(&d);
    (void)aclGetRecentErrMsg();
    return rc == ACL_SUCCESS ? d : -1000 - rc;
}

#define NO_CONTEXT (-1000 - ACL_ERROR_RT_CONTEXT_NULL)

/* The current context can create, synchronise and destroy a stream. */
static void assert_stream_works(void)
{
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    assert_non_null(s);
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtDestroyStream(s));
}

/* Device d is set exactly `count` times: it takes that many resets. */
static void assert_set_count(int32_t d, int count)
{
    for (int i = 0; i < count; i++)
        ACL_OK(aclrtResetDevice(d));
    ACL_ERR(aclrtResetDevice(d), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "is not set");
}

static void *thread_current_device(void *p)
{
    *(int32_t *)p = current_device();
    return NULL;
}

/* ---- aclrtSetDevice / aclrtResetDevice / aclrtResetDeviceForce ------------------------- */

static void test_set_device(void **state)
{
    (void)state;
    for (int32_t d = 0; d < NDEV; d++) {
        ACL_OK(aclrtSetDevice(d));
        assert_int_equal(current_device(), d);
        assert_stream_works();
    }
    for (int32_t d = 0; d < NDEV; d++)
        ACL_OK(aclrtResetDevice(d));
}

/* set x3, reset x1, force x1 (4.2 aclrtResetDeviceForce). */
static void test_set_reset_force_counting(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtResetDevice(0));
    assert_int_equal(current_device(), 0); /* still set twice */
    assert_stream_works();
    ACL_OK(aclrtResetDeviceForce(0));
    /* The thread's context went with the device. */
    int32_t dev = 55;
    ACL_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL,
            "aclrtGetDevice: the thread's current context was destroyed or its device reset");
    assert_int_equal(dev, 55);
    aclrtStream s = (aclrtStream)0x1234;
    ACL_ERR(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream");
    assert_ptr_equal(s, (aclrtStream)0x1234);
    ACL_ERR(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeStream");
    /* Fully released: further resets fail until it is set again. */
    ACL_ERR(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "aclrtResetDevice: device 0 is not set");
    ACL_ERR(aclrtResetDeviceForce(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
            "aclrtResetDeviceForce: device 0 is not set");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    ACL_OK(aclrtSetDevice(0));
    assert_int_equal(current_device(), 0);
    assert_stream_works();
    assert_set_count(0, 1);
}

static void test_set_reset_balanced(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(3));
    ACL_OK(aclrtSetDevice(3));
    ACL_OK(aclrtResetDevice(3));
    assert_int_equal(current_device(), 3);
    ACL_OK(aclrtResetDevice(3));
    assert_int_equal(current_device(), NO_CONTEXT);
    ACL_ERR(aclrtResetDevice(3), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device 3 is not set");
    /* Force on a device set once is the same as one reset. */
    ACL_OK(aclrtSetDevice(3));
    ACL_OK(aclrtResetDeviceForce(3));
    ACL_ERR(aclrtResetDeviceForce(3), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device 3 is not set");
}

/* 5.32: resetting a device never set is 507007. */
static void test_reset_never_set(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(1));
    ACL_ERR(aclrtResetDevice(5), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "aclrtResetDevice: device 5 is not set");
    ACL_ERR(aclrtResetDeviceForce(5), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device 5 is not set");
    ACL_ERR(aclrtResetDevice(7), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device 7 is not set");
    /* Nothing changed: this thread is still on device 1, set once, and
       device 5 can be set normally. */
    assert_int_equal(current_device(), 1);
    assert_stream_works();
    ACL_OK(aclrtSetDevice(5));
    assert_int_equal(current_device(), 5);
    assert_set_count(5, 1);
    assert_set_count(1, 1);
}

static void test_set_device_out_of_range(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(2));
    static const int32_t bad[] = {-1, NDEV, NDEV + 1, 64, INT32_MAX, INT32_MIN, -NDEV};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char want[96];
        snprintf(want, sizeof(want), "aclrtSetDevice: device id %d is out of range 0..7", bad[i]);
        ACL_ERR(aclrtSetDevice(bad[i]), ACL_ERROR_RT_INVALID_DEVICEID, want);
        assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    }
    /* The thread is still on device 2, which is still set once. */
    assert_int_equal(current_device(), 2);
    assert_stream_works();
    assert_set_count(2, 1);
}

static void test_reset_device_out_of_range(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    static const int32_t bad[] = {-1, NDEV, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char want[96];
        snprintf(want, sizeof(want), "aclrtResetDevice: device id %d is out of range 0..7", bad[i]);
        ACL_ERR(aclrtResetDevice(bad[i]), ACL_ERROR_RT_INVALID_DEVICEID, want);
        snprintf(want, sizeof(want), "aclrtResetDeviceForce: device id %d is out of range 0..7", bad[i]);
        ACL_ERR(aclrtResetDeviceForce(bad[i]), ACL_ERROR_RT_INVALID_DEVICEID, want);
    }
    assert_int_equal(current_device(), 0);
    assert_stream_works();
    assert_set_count(0, 1);
}

/* 1.6: a thread switches devices by setting another one; each set counts. */
static void test_switch_devices(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s0;
    ACL_OK(aclrtCreateStream(&s0));
    ACL_OK(aclrtSetDevice(1));
    assert_int_equal(current_device(), 1);
    aclrtStream s1;
    ACL_OK(aclrtCreateStream(&s1));
    assert_ptr_not_equal(s0, s1);
    /* A stream of the other device cannot be destroyed from here... */
    ACL_ERR(aclrtDestroyStream(s0), ACL_ERROR_RT_STREAM_CONTEXT, "belongs to another context (device 0)");
    /* ...but synchronised. */
    ACL_OK(aclrtSynchronizeStream(s0));
    ACL_OK(aclrtSetDevice(0));
    assert_int_equal(current_device(), 0);
    ACL_OK(aclrtDestroyStream(s0));
    ACL_ERR(aclrtDestroyStream(s1), ACL_ERROR_RT_STREAM_CONTEXT, "belongs to another context (device 1)");
    /* Resetting device 1 (set once) while on device 0 leaves device 0 alone. */
    ACL_OK(aclrtResetDevice(1));
    assert_int_equal(current_device(), 0);
    assert_stream_works();
    ACL_ERR(aclrtSynchronizeStream(s1), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    assert_set_count(0, 2);
    /* Resetting the device of the current context leaves the thread without
       one, even though it used other devices before. */
    ACL_OK(aclrtSetDevice(4));
    ACL_OK(aclrtSetDevice(6));
    ACL_OK(aclrtResetDevice(6));
    assert_int_equal(current_device(), NO_CONTEXT);
    assert_set_count(4, 1);
}

struct shared_ctx {
    pthread_barrier_t *barrier;
    aclrtStream stream;
    aclError rc[4];
};

static void *other_thread_uses_stream(void *p)
{
    struct shared_ctx *c = p;
    c->rc[0] = aclrtSetDevice(0);
    c->rc[1] = aclrtSynchronizeStream(c->stream);
    c->rc[2] = aclrtDestroyStream(c->stream);
    c->rc[3] = aclrtResetDevice(0);
    (void)aclGetRecentErrMsg();
    return NULL;
}

/* 1.6: threads that set the same device share its default context. */
static void test_threads_share_default_context(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct shared_ctx c = {0};
    ACL_OK(aclrtCreateStream(&c.stream));
    oacl_test_run_thread(other_thread_uses_stream, &c);
    for (int i = 0; i < 4; i++)
        assert_int_equal(c.rc[i], ACL_SUCCESS);
    /* The other thread's reset only dropped its own set: still set once. */
    assert_int_equal(current_device(), 0);
    ACL_ERR(aclrtDestroyStream(c.stream), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    assert_set_count(0, 1);
}

struct reset_victim {
    pthread_barrier_t *barrier;
    int32_t before, after;
    aclError create_after;
};

static void *victim_thread(void *p)
{
    struct reset_victim *v = p;
    if (aclrtSetDevice(2) == ACL_SUCCESS)
        v->before = current_device();
    pthread_barrier_wait(v->barrier); /* main resets now */
    pthread_barrier_wait(v->barrier);
    v->after = current_device();
    aclrtStream s;
    v->create_after = aclrtCreateStream(&s);
    (void)aclGetRecentErrMsg();
    return NULL;
}

/* A reset on one thread leaves every thread on that device's default
 * context without a current context. */
static void test_reset_affects_other_threads(void **state)
{
    (void)state;
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, 2);
    struct reset_victim v = {.barrier = &barrier, .before = -1, .after = -1};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, victim_thread, &v), 0);
    pthread_barrier_wait(&barrier);
    ACL_OK(aclrtResetDeviceForce(2)); /* this thread never set it */
    pthread_barrier_wait(&barrier);
    assert_int_equal(pthread_join(th, NULL), 0);
    pthread_barrier_destroy(&barrier);
    assert_int_equal(v.before, 2);
    assert_int_equal(v.after, NO_CONTEXT);
    assert_int_equal(v.create_after, ACL_ERROR_RT_CONTEXT_NULL);
    ACL_ERR(aclrtResetDevice(2), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device 2 is not set");
}

struct own_device {
    pthread_barrier_t *barrier;
    int32_t id;
    int ok;
};

/* Each thread sets its own device and works with streams there. */
static void *own_device_thread(void *p)
{
    struct own_device *o = p;
    int ok = 1;
    pthread_barrier_wait(o->barrier);
    ok &= aclrtSetDevice(o->id) == ACL_SUCCESS;
    ok &= current_device() == o->id;
    for (int round = 0; round < 10; round++) {
        aclrtStream s[4] = {0};
        for (int i = 0; i < 4; i++)
            ok &= aclrtCreateStream(&s[i]) == ACL_SUCCESS;
        for (int i = 0; i < 4; i++)
            ok &= aclrtSynchronizeStream(s[i]) == ACL_SUCCESS;
        ok &= aclrtSynchronizeStream(NULL) == ACL_SUCCESS;
        for (int i = 0; i < 4; i++)
            ok &= aclrtDestroyStream(s[i]) == ACL_SUCCESS;
        ok &= current_device() == o->id;
    }
    pthread_barrier_wait(o->barrier);
    ok &= aclrtResetDevice(o->id) == ACL_SUCCESS;
    ok &= current_device() == NO_CONTEXT;
    ok &= aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_CONTEXT_NULL;
    ok &= aclGetRecentErrMsg() == NULL;
    o->ok = ok;
    return NULL;
}

static void test_threads_own_devices(void **state)
{
    (void)state;
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, NDEV);
    struct own_device o[NDEV];
    pthread_t th[NDEV];
    for (int i = 0; i < NDEV; i++) {
        o[i] = (struct own_device){.barrier = &barrier, .id = i, .ok = 0};
        assert_int_equal(pthread_create(&th[i], NULL, own_device_thread, &o[i]), 0);
    }
    for (int i = 0; i < NDEV; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        if (!o[i].ok)
            fail_msg("thread of device %d failed", i);
    }
    pthread_barrier_destroy(&barrier);
    /* Every device was fully released by its thread. */
    for (int32_t d = 0; d < NDEV; d++)
        ACL_ERR(aclrtResetDevice(d), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "is not set");
}

struct set_many {
    pthread_barrier_t *barrier;
    int sets, resets;
    int ok;
};

static void *set_many_thread(void *p)
{
    struct set_many *m = p;
    int ok = 1;
    pthread_barrier_wait(m->barrier);
    for (int i = 0; i < m->sets; i++)
        ok &= aclrtSetDevice(3) == ACL_SUCCESS;
    for (int i = 0; i < m->resets; i++)
        ok &= aclrtResetDevice(3) == ACL_SUCCESS;
    m->ok = ok;
    return NULL;
}

/* The set count is process-wide and exact under concurrent use. */
static void test_concurrent_set_reset_count(void **state)
{
    (void)state;
    enum { N = 6, SETS = 50 };
    ACL_OK(aclrtSetDevice(3)); /* keeps the device set throughout */
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, N);
    struct set_many m[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        /* Half of the threads leave 10 sets each behind. */
        m[i] = (struct set_many){.barrier = &barrier, .sets = SETS, .resets = i % 2 ? SETS : SETS - 10};
        assert_int_equal(pthread_create(&th[i], NULL, set_many_thread, &m[i]), 0);
    }
    for (int i = 0; i < N; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        assert_true(m[i].ok);
    }
    pthread_barrier_destroy(&barrier);
    assert_int_equal(current_device(), 3);
    assert_stream_works();
    assert_set_count(3, 1 + (N / 2) * 10);
}

/* ---- aclrtGetDevice ---------------------------------------------------------------------- */

static void test_get_device(void **state)
{
    (void)state;
    int32_t dev = -1;
    ACL_OK(aclrtSetDevice(7));
    ACL_OK(aclrtGetDevice(&dev));
    assert_int_equal(dev, 7);
    ACL_OK(aclrtGetDevice(&dev));
    assert_int_equal(dev, 7);
    /* Other threads have their own current device (none here). */
    int32_t other = 0;
    oacl_test_run_thread(thread_current_device, &other);
    assert_int_equal(other, NO_CONTEXT);
    assert_set_count(7, 1);
}

static void *get_device_errors_thread(void *p)
{
    int *ok = p;
    int32_t dev = 31;
    *ok = aclrtGetDevice(&dev) == ACL_ERROR_RT_CONTEXT_NULL && dev == 31;
    const char *msg = aclGetRecentErrMsg();
    *ok &= msg && strstr(msg, "aclrtGetDevice: no current context on this thread; call aclrtSetDevice first");
    *ok &= aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_CONTEXT_NULL;
    *ok &= aclrtGetDevice(NULL) == ACL_ERROR_INVALID_PARAM;
    msg = aclGetRecentErrMsg();
    *ok &= msg && strstr(msg, "aclrtGetDevice: deviceId is NULL");
    /* and again: still no context, nothing changed */
    *ok &= aclrtGetDevice(&dev) == ACL_ERROR_RT_CONTEXT_NULL && dev == 31;
    (void)aclGetRecentErrMsg();
    return NULL;
}

static void test_get_device_errors(void **state)
{
    (void)state;
    /* A thread that never set a device. */
    int ok = 0;
    oacl_test_run_thread(get_device_errors_thread, &ok);
    assert_true(ok);
    /* NULL with a current context as well. */
    ACL_OK(aclrtSetDevice(4));
    ACL_ERR(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is NULL");
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    assert_int_equal(current_device(), 4);
    /* After the reset: a destroyed context. */
    ACL_OK(aclrtResetDevice(4));
    int32_t dev = 9;
    ACL_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "destroyed or its device reset");
    assert_int_equal(dev, 9);
    ACL_ERR(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM, "deviceId is NULL");
}

/* ---- aclrtGetDeviceCount / aclrtGetRunMode / aclrtGetSocName ------------------------------ */

static void *count_thread(void *p)
{
    uint32_t *n = p;
    if (aclrtGetDeviceCount(n) != ACL_SUCCESS)
        *n = 0;
    return NULL;
}

static void test_get_device_count(void **state)
{
    (void)state;
    uint32_t n = 0;
    ACL_OK(aclrtGetDeviceCount(&n));
    assert_int_equal(n, NDEV);
    /* No context needed. */
    uint32_t m = 0;
    oacl_test_run_thread(count_thread, &m);
    assert_int_equal(m, NDEV);
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtGetDeviceCount(&n));
    assert_int_equal(n, NDEV);
    ACL_ERR(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is NULL");
    ACL_OK(aclrtResetDevice(1));
    ACL_ERR(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "count is NULL");
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    n = 0;
    ACL_OK(aclrtGetDeviceCount(&n));
    assert_int_equal(n, NDEV);
}

static void *run_mode_thread(void *p)
{
    aclrtRunMode *m = p;
    if (aclrtGetRunMode(m) != ACL_SUCCESS)
        *m = (aclrtRunMode)-1;
    return NULL;
}

static void test_get_run_mode(void **state)
{
    (void)state;
    aclrtRunMode mode = (aclrtRunMode)42;
    ACL_OK(aclrtGetRunMode(&mode));
    assert_int_equal(mode, ACL_HOST);
    aclrtRunMode other = ACL_DEVICE;
    oacl_test_run_thread(run_mode_thread, &other);
    assert_int_equal(other, ACL_HOST);
    ACL_ERR(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: runMode is NULL");
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM, "runMode is NULL");
    ACL_OK(aclrtResetDevice(0));
    ACL_ERR(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM, "runMode is NULL");
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    mode = ACL_DEVICE;
    ACL_OK(aclrtGetRunMode(&mode));
    assert_int_equal(mode, ACL_HOST);
}

static void *soc_thread(void *p)
{
    *(const char **)p = aclrtGetSocName();
    return NULL;
}

/* Works without aclInit and without a context (this binary never calls
 * aclInit). */
static void test_get_soc_name(void **state)
{
    (void)state;
    const char *a = aclrtGetSocName();
    assert_non_null(a);
    assert_string_equal(a, "Ascend910B3");
    assert_null(aclGetRecentErrMsg());
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    /* A static string: the same one every time, from every thread. */
    assert_ptr_equal(aclrtGetSocName(), a);
    const char *b = NULL;
    oacl_test_run_thread(soc_thread, &b);
    assert_ptr_equal(b, a);
    ACL_OK(aclrtSetDevice(6));
    assert_ptr_equal(aclrtGetSocName(), a);
    ACL_OK(aclrtResetDevice(6));
    assert_string_equal(a, "Ascend910B3");
}

/* ---- configuration (child processes) --------------------------------------------------------- */

static uint32_t expected_count(void)
{
    const char *v = getenv("OACL_TEST_EXPECT_COUNT");
    CHILD_CHECK(v != NULL);
    return (uint32_t)strtoul(v, NULL, 10);
}

/* OACL_DEVICE_COUNT gives a usable count (expected in OACL_TEST_EXPECT_COUNT). */
static void child_device_count(void)
{
    uint32_t want = expected_count();
    CHILD_CHECK(aclrtGetSocName() != NULL);
    uint32_t n = 0;
    CHILD_OK(aclrtGetDeviceCount(&n));
    CHILD_CHECK_INT(n, want);
    int32_t last = (int32_t)want - 1;
    CHILD_OK(aclrtSetDevice(0));
    CHILD_OK(aclrtSetDevice(last));
    int32_t dev = -1;
    CHILD_OK(aclrtGetDevice(&dev));
    CHILD_CHECK_INT(dev, last);
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    CHILD_OK(aclrtSynchronizeStream(s));
    CHILD_OK(aclrtDestroyStream(s));
    char needle[96];
    snprintf(needle, sizeof(needle), "aclrtSetDevice: device id %u is out of range 0..%d", want, last);
    CHILD_ERR(aclrtSetDevice((int32_t)want), ACL_ERROR_RT_INVALID_DEVICEID, needle);
    snprintf(needle, sizeof(needle), "device id %u is out of range 0..%d", want, last);
    CHILD_ERR(aclrtResetDevice((int32_t)want), ACL_ERROR_RT_INVALID_DEVICEID, needle);
    CHILD_ERR(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "device id -1 is out of range");
    /* unchanged after the failures */
    CHILD_OK(aclrtGetDevice(&dev));
    CHILD_CHECK_INT(dev, last);
    CHILD_OK(aclrtResetDevice(last));
    CHILD_OK(aclrtResetDevice(0));
    CHILD_ERR(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device 0 is not set");
}

static void child_no_devices(void)
{
    uint32_t n = 99;
    CHILD_ERR(aclrtGetDeviceCount(&n), ACL_ERROR_RT_NO_DEVICE, "aclrtGetDeviceCount: no devices (OACL_DEVICE_COUNT=0)");
    CHILD_CHECK_INT(n, 99);
    CHILD_CHECK_INT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_NO_DEVICE);
    CHILD_ERR(aclrtSetDevice(0), ACL_ERROR_RT_NO_DEVICE, "aclrtSetDevice: no devices");
    CHILD_ERR(aclrtSetDevice(-1), ACL_ERROR_RT_NO_DEVICE, "aclrtSetDevice: no devices");
    CHILD_ERR(aclrtResetDevice(0), ACL_ERROR_RT_NO_DEVICE, "aclrtResetDevice: no devices");
    CHILD_ERR(aclrtResetDeviceForce(0), ACL_ERROR_RT_NO_DEVICE, "aclrtResetDeviceForce: no devices");
    int32_t dev = 5;
    CHILD_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "no current context");
    CHILD_CHECK_INT(dev, 5);
    aclrtStream s;
    CHILD_ERR(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "no current context");
    CHILD_ERR(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "count is NULL");
    /* What does not need a device still works. */
    const char *soc = aclrtGetSocName();
    CHILD_CHECK(soc && strcmp(soc, "Ascend910B3") == 0);
    aclrtRunMode mode = ACL_DEVICE;
    CHILD_OK(aclrtGetRunMode(&mode));
    CHILD_CHECK_INT(mode, ACL_HOST);
}

/* OACL_SOC names a known profile (expected name in OACL_TEST_EXPECT_SOC). */
static void child_soc(void)
{
    const char *want = getenv("OACL_TEST_EXPECT_SOC");
    CHILD_CHECK(want != NULL);
    (void)aclGetRecentErrMsg();
    const char *soc = aclrtGetSocName();
    CHILD_CHECK(soc != NULL);
    CHILD_CHECK(strcmp(soc, want) == 0);
    CHILD_CHECK(aclGetRecentErrMsg() == NULL);
    uint32_t n = 0;
    CHILD_OK(aclrtGetDeviceCount(&n));
    CHILD_CHECK_INT(n, 8);
    CHILD_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    CHILD_OK(aclrtSynchronizeStream(s));
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_OK(aclrtResetDevice(0));
    CHILD_CHECK(aclrtGetSocName() == soc);
}

/* OACL_SOC names no profile: no SoC name, no devices. */
static void child_soc_unknown(void)
{
    const char *name = getenv("OACL_SOC");
    CHILD_CHECK(name != NULL);
    char needle[160];
    snprintf(needle, sizeof(needle), "OACL_SOC='%s' names no known SoC profile", name);
    (void)aclGetRecentErrMsg();
    CHILD_CHECK(aclrtGetSocName() == NULL);
    const char *msg = aclGetRecentErrMsg();
    CHILD_CHECK(msg && strstr(msg, "aclrtGetSocName: ") && strstr(msg, needle));
    CHILD_CHECK_INT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_SOC_VERSION);
    CHILD_CHECK(aclrtGetSocName() == NULL);
    CHILD_ERR(aclrtSetDevice(0), ACL_ERROR_RT_SOC_VERSION, needle);
    CHILD_ERR(aclrtSetDevice(1), ACL_ERROR_RT_SOC_VERSION, "aclrtSetDevice: OACL_SOC=");
    uint32_t n = 12;
    CHILD_ERR(aclrtGetDeviceCount(&n), ACL_ERROR_RT_SOC_VERSION, "aclrtGetDeviceCount: OACL_SOC=");
    CHILD_CHECK_INT(n, 12);
    CHILD_ERR(aclrtResetDevice(0), ACL_ERROR_RT_SOC_VERSION, needle);
    CHILD_ERR(aclrtResetDeviceForce(0), ACL_ERROR_RT_SOC_VERSION, needle);
    int32_t dev = 3;
    CHILD_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "no current context");
    CHILD_CHECK_INT(dev, 3);
    aclrtStream s;
    CHILD_ERR(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "no current context");
    aclrtRunMode mode = ACL_DEVICE;
    CHILD_OK(aclrtGetRunMode(&mode));
    CHILD_CHECK_INT(mode, ACL_HOST);
    CHILD_OK(aclInit(NULL));
    CHILD_OK(aclFinalize());
}

/* Nothing the library does goes to stdout, even with every log level on
 * and failures around (SoC-detection scripts read a program's stdout). */
static void child_quiet(void)
{
    (void)aclrtGetSocName();
    (void)aclrtSetDevice(0);
    (void)aclrtSetDevice(-1);
    aclrtStream s;
    if (aclrtCreateStream(&s) == ACL_SUCCESS)
        (void)aclrtDestroyStream(s);
    (void)aclrtResetDevice(0);
    (void)aclrtResetDevice(0);
}

static void test_config_device_count(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("device_count", "OACL_DEVICE_COUNT=3", "OACL_TEST_EXPECT_COUNT=3", "OACL_SOC");
    ASSERT_CHILD_OK("device_count", "OACL_DEVICE_COUNT=1", "OACL_TEST_EXPECT_COUNT=1", "OACL_SOC");
    ASSERT_CHILD_OK("device_count", "OACL_DEVICE_COUNT=64", "OACL_TEST_EXPECT_COUNT=64", "OACL_SOC");
    ASSERT_CHILD_OK("device_count", "OACL_DEVICE_COUNT", "OACL_TEST_EXPECT_COUNT=8", "OACL_SOC");
}

/* A value that is not a number in 0..64 is ignored (with a warning): 8. */
static void test_config_device_count_garbage(void **state)
{
    (void)state;
    static const char *const values[] = {"OACL_DEVICE_COUNT=abc", "OACL_DEVICE_COUNT=3x", "OACL_DEVICE_COUNT=65",
                                         "OACL_DEVICE_COUNT=-1",  "OACL_DEVICE_COUNT=",   "OACL_DEVICE_COUNT=1e1",
                                         "OACL_DEVICE_COUNT=99999999999999999999999"};
    for (size_t i = 0; i < ARRAY_LEN(values); i++) {
        const char *env[] = {values[i], "OACL_TEST_EXPECT_COUNT=8", "OACL_SOC", NULL};
        int st = oacl_run_child("device_count", env, NULL, 0);
        if (st != 0)
            fail_msg("%s: child exited with %d", values[i], st);
    }
}

static void test_config_no_devices(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("no_devices", "OACL_DEVICE_COUNT=0", "OACL_SOC");
}

static void test_config_soc(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("soc", "OACL_SOC=Ascend950PR_9599", "OACL_TEST_EXPECT_SOC=Ascend950PR_9599", "OACL_DEVICE_COUNT");
    ASSERT_CHILD_OK("soc", "OACL_SOC=Ascend310P3", "OACL_TEST_EXPECT_SOC=Ascend310P3", "OACL_DEVICE_COUNT");
    /* Unset or empty: the default profile. */
    ASSERT_CHILD_OK("soc", "OACL_SOC", "OACL_TEST_EXPECT_SOC=Ascend910B3", "OACL_DEVICE_COUNT");
    ASSERT_CHILD_OK("soc", "OACL_SOC=", "OACL_TEST_EXPECT_SOC=Ascend910B3", "OACL_DEVICE_COUNT");
}

static void test_config_soc_unknown(void **state)
{
    (void)state;
    static const char *const values[] = {"OACL_SOC=Ascend999", "OACL_SOC=ascend910b3", "OACL_SOC=Ascend910B3 ",
                                         "OACL_SOC=OaclSim"};
    for (size_t i = 0; i < ARRAY_LEN(values); i++) {
        const char *env[] = {values[i], "OACL_DEVICE_COUNT", NULL};
        int st = oacl_run_child("soc_unknown", env, NULL, 0);
        if (st != 0)
            fail_msg("%s: child exited with %d", values[i], st);
    }
}

static void test_nothing_on_stdout(void **state)
{
    (void)state;
    static const char *const socs[] = {"OACL_SOC", "OACL_SOC=NoSuchSoc"};
    for (size_t i = 0; i < ARRAY_LEN(socs); i++) {
        const char *env[] = {socs[i], "OACL_LOG_LEVEL=debug", "OACL_DEVICE_COUNT=abc", NULL};
        char out[256] = "unset";
        assert_int_equal(oacl_run_child("quiet", env, out, sizeof(out)), 0);
        assert_string_equal(out, "");
    }
}

struct first_use {
    pthread_barrier_t *barrier;
    int32_t id;
    int ok;
};

static void *first_use_thread(void *p)
{
    struct first_use *f = p;
    pthread_barrier_wait(f->barrier);
    int ok = aclrtSetDevice(f->id) == ACL_SUCCESS;
    aclrtStream s;
    ok &= aclrtCreateStream(&s) == ACL_SUCCESS;
    ok &= aclrtSynchronizeStream(s) == ACL_SUCCESS;
    ok &= aclrtDestroyStream(s) == ACL_SUCCESS;
    ok &= aclrtResetDevice(f->id) == ACL_SUCCESS;
    f->ok = ok;
    return NULL;
}

/* In a fresh process, threads open different devices for the first time at
 * once (the in-process tests find the devices already opened). Under
 * ThreadSanitizer this checks the first-open path for data races
 * (regression: the executor's SoC pointer was set without synchronisation). */
static void child_first_use_concurrent(void)
{
    pthread_barrier_t barrier;
    CHILD_CHECK(pthread_barrier_init(&barrier, NULL, NDEV) == 0);
    struct first_use f[NDEV];
    pthread_t th[NDEV];
    for (int i = 0; i < NDEV; i++) {
        f[i] = (struct first_use){.barrier = &barrier, .id = i, .ok = 0};
        CHILD_CHECK(pthread_create(&th[i], NULL, first_use_thread, &f[i]) == 0);
    }
    for (int i = 0; i < NDEV; i++) {
        CHILD_CHECK(pthread_join(th[i], NULL) == 0);
        CHILD_CHECK(f[i].ok);
    }
    pthread_barrier_destroy(&barrier);
}

static void test_first_use_concurrent(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++)
        ASSERT_CHILD_OK("first_use_concurrent", "OACL_DEVICE_COUNT", "OACL_SOC");
}

static const struct oacl_child_mode g_modes[] = {
    {"first_use_concurrent", child_first_use_concurrent},
    {"device_count", child_device_count}, {"no_devices", child_no_devices}, {"soc", child_soc},
    {"soc_unknown", child_soc_unknown},   {"quiet", child_quiet},
};

#define T(fn) cmocka_unit_test_setup_teardown(fn, oacl_test_reset_fixture, oacl_test_reset_fixture)

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    /* In-process expectations assume the default simulator configuration. */
    unsetenv("OACL_DEVICE_COUNT");
    unsetenv("OACL_SOC");
    const struct CMUnitTest tests[] = {
        T(test_set_device),
        T(test_set_reset_force_counting),
        T(test_set_reset_balanced),
        T(test_reset_never_set),
        T(test_set_device_out_of_range),
        T(test_reset_device_out_of_range),
        T(test_switch_devices),
        T(test_threads_share_default_context),
        T(test_reset_affects_other_threads),
        T(test_threads_own_devices),
        T(test_concurrent_set_reset_count),
        T(test_get_device),
        T(test_get_device_errors),
        T(test_get_device_count),
        T(test_get_run_mode),
        T(test_get_soc_name),
        T(test_config_device_count),
        T(test_config_device_count_garbage),
        T(test_config_no_devices),
        T(test_config_soc),
        T(test_config_soc_unknown),
        T(test_nothing_on_stdout),
        T(test_first_use_concurrent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
