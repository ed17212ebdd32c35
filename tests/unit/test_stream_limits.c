/*
 * Stream resource limits (acl-rt-misc.md 3.6): aclrtSetStreamResLimit,
 * aclrtGetStreamResLimit, aclrtResetStreamResLimit,
 * aclrtUseStreamResInCurrentThread, aclrtUnuseStreamResInCurrentThread,
 * their effect on aclrtGetResInCurrentThread, and on launches: the
 * launching thread's vector-core limit bounds how many blocks run at once.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"

#define VEC ACL_RT_DEV_RES_VECTOR_CORE
#define CUBE ACL_RT_DEV_RES_CUBE_CORE

static uint32_t cores(int32_t dev, aclrtDevAttr attr)
{
    int64_t v = 0;
    ACL_OK(aclrtGetDeviceInfo((uint32_t)dev, attr, &v));
    return (uint32_t)v;
}

static uint32_t stream_limit(aclrtStream s, aclrtDevResLimitType t)
{
    uint32_t v = 9999;
    ACL_OK(aclrtGetStreamResLimit(s, t, &v));
    return v;
}

static uint32_t thread_limit(aclrtDevResLimitType t)
{
    uint32_t v = 9999;
    ACL_OK(aclrtGetResInCurrentThread(t, &v));
    return v;
}

/* ---- set / get / reset ---- */

static void test_set_get_reset(void **state)
{
    (void)state;
    uint32_t vectors = cores(0, ACL_DEV_ATTR_VECTOR_CORE_NUM), cubes = cores(0, ACL_DEV_ATTR_CUBE_CORE_NUM);
    assert_int_equal(vectors, 40); /* Ascend910B3 */
    assert_int_equal(cubes, 20);
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    /* Nothing set: the device limit in force, here every core. */
    assert_int_equal(stream_limit(s, VEC), vectors);
    assert_int_equal(stream_limit(s, CUBE), cubes);
    ACL_OK(aclrtSetDeviceResLimit(0, VEC, 10));
    assert_int_equal(stream_limit(s, VEC), 10);
    ACL_OK(aclrtSetStreamResLimit(s, VEC, 8));
    assert_int_equal(stream_limit(s, VEC), 8);
    assert_int_equal(stream_limit(s, CUBE), cubes); /* per type */
    /* Up to the hardware count, above the device limit, and 0. */
    ACL_OK(aclrtSetStreamResLimit(s, VEC, vectors));
    assert_int_equal(stream_limit(s, VEC), vectors);
    ACL_OK(aclrtSetStreamResLimit(s, VEC, 0));
    assert_int_equal(stream_limit(s, VEC), 0);
    ACL_OK(aclrtSetStreamResLimit(s, CUBE, 3));
    assert_int_equal(stream_limit(s, CUBE), 3);
    /* Per stream: another stream and the default stream follow the device. */
    aclrtStream t = NULL;
    ACL_OK(aclrtCreateStream(&t));
    assert_int_equal(stream_limit(t, VEC), 10);
    assert_int_equal(stream_limit(NULL, VEC), 10);
    /* Reset clears both types; twice is fine. */
    ACL_OK(aclrtResetStreamResLimit(s));
    assert_int_equal(stream_limit(s, VEC), 10);
    assert_int_equal(stream_limit(s, CUBE), cubes);
    ACL_OK(aclrtResetStreamResLimit(s));
    /* NULL is the default stream of the current context. */
    ACL_OK(aclrtSetStreamResLimit(NULL, VEC, 5));
    assert_int_equal(stream_limit(NULL, VEC), 5);
    aclrtStream ds = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&ds));
    assert_int_equal(stream_limit(ds, VEC), 5);
    ACL_OK(aclrtResetStreamResLimit(NULL));
    assert_int_equal(stream_limit(ds, VEC), 10);
    ACL_OK(aclrtDestroyStream(t));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_errors(void **state)
{
    (void)state;
    uint32_t vectors = cores(0, ACL_DEV_ATTR_VECTOR_CORE_NUM), cubes = cores(0, ACL_DEV_ATTR_CUBE_CORE_NUM);
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetStreamResLimit(s, VEC, 6));
    char want[128];
    snprintf(want, sizeof(want), "aclrtSetStreamResLimit: vector core limit %u is outside 0..%u", vectors + 1, vectors);
    ACL_ERR(aclrtSetStreamResLimit(s, VEC, vectors + 1), ACL_ERROR_RT_PARAM_INVALID, want);
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    snprintf(want, sizeof(want), "cube core limit %u is outside 0..%u", cubes + 1, cubes);
    ACL_ERR(aclrtSetStreamResLimit(s, CUBE, cubes + 1), ACL_ERROR_RT_PARAM_INVALID, want);
    ACL_ERR(aclrtSetStreamResLimit(s, VEC, UINT32_MAX), ACL_ERROR_RT_PARAM_INVALID, "is outside 0..");
    ACL_ERR(aclrtSetStreamResLimit(s, (aclrtDevResLimitType)2, 1), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtSetStreamResLimit: type 2 is not CUBE_CORE (0) or VECTOR_CORE (1)");
    ACL_ERR(aclrtSetStreamResLimit(s, (aclrtDevResLimitType)-1, 1), ACL_ERROR_RT_PARAM_INVALID, "type -1");
    uint32_t v = 4242;
    ACL_ERR(aclrtGetStreamResLimit(s, (aclrtDevResLimitType)2, &v), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtGetStreamResLimit: type 2");
    /* value NULL: API layer, checked first. */
    ACL_ERR(aclrtGetStreamResLimit(s, VEC, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetStreamResLimit: value is NULL");
    ACL_ERR(aclrtGetStreamResLimit((aclrtStream)&v, (aclrtDevResLimitType)7, NULL), ACL_ERROR_INVALID_PARAM,
            "value is NULL");
    assert_int_equal(v, 4242);
    assert_int_equal(stream_limit(s, VEC), 6); /* unchanged */
    /* Handles: not a stream, another kind of handle, a destroyed stream
       (checked before the type). */
    aclrtEvent ev = NULL;
    ACL_OK(aclrtCreateEvent(&ev));
    ACL_ERR(aclrtSetStreamResLimit(ev, VEC, 1), ACL_ERROR_RT_INVALID_HANDLE, "(it is a handle of another kind)");
    ACL_ERR(aclrtGetStreamResLimit((aclrtStream)&v, VEC, &v), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtGetStreamResLimit: stream");
    ACL_OK(aclrtDestroyEvent(ev));
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtSetStreamResLimit(s, (aclrtDevResLimitType)5, 1), ACL_ERROR_RT_INVALID_HANDLE,
            "is not a live stream handle");
    ACL_ERR(aclrtGetStreamResLimit(s, VEC, &v), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    ACL_ERR(aclrtResetStreamResLimit(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtResetStreamResLimit: stream");
    ACL_ERR(aclrtUseStreamResInCurrentThread(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtUseStreamResInCurrentThread");
    ACL_ERR(aclrtUnuseStreamResInCurrentThread(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtUnuseStreamResInCurrentThread");
    assert_int_equal(v, 4242);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
}

struct noctx {
    aclrtStream s;
    aclError set_null, get_null, reset_null, use_null, unuse_null, get_s, set_s, use_s;
    uint32_t v;
};

/* A thread without a current context: NULL is 107002, a real stream
 * handle works (of any context or device). */
static void *noctx_main(void *p)
{
    struct noctx *r = p;
    uint32_t v = 0;
    r->set_null = aclrtSetStreamResLimit(NULL, VEC, 1);
    r->get_null = aclrtGetStreamResLimit(NULL, VEC, &v);
    r->reset_null = aclrtResetStreamResLimit(NULL);
    r->use_null = aclrtUseStreamResInCurrentThread(NULL);
    r->unuse_null = aclrtUnuseStreamResInCurrentThread(NULL);
    r->set_s = aclrtSetStreamResLimit(r->s, VEC, 7);
    r->get_s = aclrtGetStreamResLimit(r->s, VEC, &r->v);
    r->use_s = aclrtUseStreamResInCurrentThread(r->s);
    (void)aclGetRecentErrMsg();
    return NULL;
}

static void test_without_context(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(3));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    struct noctx r = {.s = s, .v = 0};
    oacl_test_run_thread(noctx_main, &r);
    assert_int_equal(r.set_null, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(r.get_null, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(r.reset_null, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(r.use_null, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(r.unuse_null, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(r.set_s, ACL_SUCCESS);
    assert_int_equal(r.get_s, ACL_SUCCESS);
    assert_int_equal(r.v, 7);
    assert_int_equal(r.use_s, ACL_SUCCESS);
    /* A stream of device 3 configured from a thread on device 0. */
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtSetDeviceResLimit(3, VEC, 9));
    ACL_OK(aclrtSetStreamResLimit(s, CUBE, 2));
    assert_int_equal(stream_limit(s, CUBE), 2);
    ACL_OK(aclrtResetStreamResLimit(s));
    assert_int_equal(stream_limit(s, VEC), 9); /* device 3's limit, not device 0's */
    ACL_OK(aclrtSetDevice(3));
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtGetStreamResLimit(NULL, (aclrtDevResLimitType)3, &r.v), ACL_ERROR_RT_PARAM_INVALID, "type 3");
}

/* ---- binding to the current thread ---- */

static void test_thread_binding(void **state)
{
    (void)state;
    uint32_t cubes = cores(0, ACL_DEV_ATTR_CUBE_CORE_NUM);
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s = NULL, other = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtCreateStream(&other));
    ACL_OK(aclrtSetStreamResLimit(s, VEC, 4));
    ACL_OK(aclrtSetDeviceResLimit(0, VEC, 10));
    assert_int_equal(thread_limit(VEC), 10);
    ACL_OK(aclrtUseStreamResInCurrentThread(s));
    assert_int_equal(thread_limit(VEC), 4);
    assert_int_equal(thread_limit(CUBE), cubes); /* not set on the stream: the device's */
    /* Later changes of the stream apply through the binding. */
    ACL_OK(aclrtSetStreamResLimit(s, VEC, 5));
    ACL_OK(aclrtSetStreamResLimit(s, CUBE, 1));
    assert_int_equal(thread_limit(VEC), 5);
    assert_int_equal(thread_limit(CUBE), 1);
    /* Unuse of another stream: success, binding stays. */
    ACL_OK(aclrtUnuseStreamResInCurrentThread(other));
    ACL_OK(aclrtUnuseStreamResInCurrentThread(NULL));
    assert_int_equal(thread_limit(VEC), 5);
    ACL_OK(aclrtUnuseStreamResInCurrentThread(s));
    assert_int_equal(thread_limit(VEC), 10);
    ACL_OK(aclrtUnuseStreamResInCurrentThread(s)); /* nothing bound: still fine */
    /* A new binding replaces the old one; NULL binds the default stream. */
    ACL_OK(aclrtUseStreamResInCurrentThread(s));
    ACL_OK(aclrtSetStreamResLimit(NULL, VEC, 3));
    ACL_OK(aclrtUseStreamResInCurrentThread(NULL));
    assert_int_equal(thread_limit(VEC), 3);
    aclrtStream ds = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&ds));
    ACL_OK(aclrtUnuseStreamResInCurrentThread(ds)); /* the same stream */
    assert_int_equal(thread_limit(VEC), 10);
    ACL_OK(aclrtResetStreamResLimit(NULL));
    /* Failed calls leave the binding as it was. */
    ACL_OK(aclrtUseStreamResInCurrentThread(s));
    ACL_OK(aclrtDestroyStream(other));
    ACL_ERR(aclrtUseStreamResInCurrentThread(other), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    ACL_ERR(aclrtUnuseStreamResInCurrentThread(other), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    assert_int_equal(thread_limit(VEC), 5);
    /* A destroyed bound stream counts as unbound. */
    ACL_OK(aclrtDestroyStream(s));
    assert_int_equal(thread_limit(VEC), 10);
    aclrtStream fresh = NULL;
    ACL_OK(aclrtCreateStream(&fresh)); /* may reuse the slot: a new handle all the same */
    ACL_OK(aclrtSetStreamResLimit(fresh, VEC, 2));
    assert_int_equal(thread_limit(VEC), 10);
    ACL_OK(aclrtDestroyStream(fresh));
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
}

struct bound_thread {
    aclrtStream bind; /* NULL: no binding */
    uint32_t got;
    aclError rc;
};

static void *bound_main(void *p)
{
    struct bound_thread *t = p;
    t->rc = aclrtSetDevice(0);
    if (t->rc == ACL_SUCCESS && t->bind)
        t->rc = aclrtUseStreamResInCurrentThread(t->bind);
    if (t->rc == ACL_SUCCESS)
        t->rc = aclrtGetResInCurrentThread(VEC, &t->got);
    if (t->rc == ACL_SUCCESS)
        t->rc = aclrtResetDevice(0);
    return NULL;
}

/* Bindings are per thread. */
static void test_binding_per_thread(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream a = NULL, b = NULL;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    ACL_OK(aclrtSetStreamResLimit(a, VEC, 4));
    ACL_OK(aclrtSetStreamResLimit(b, VEC, 2));
    ACL_OK(aclrtSetDeviceResLimit(0, VEC, 10));
    ACL_OK(aclrtUseStreamResInCurrentThread(a));
    struct bound_thread plain = {.bind = NULL}, other = {.bind = b};
    oacl_test_run_thread(bound_main, &plain);
    oacl_test_run_thread(bound_main, &other);
    assert_int_equal(plain.rc, ACL_SUCCESS);
    assert_int_equal(plain.got, 10); /* this thread's binding is not its */
    assert_int_equal(other.rc, ACL_SUCCESS);
    assert_int_equal(other.got, 2);
    assert_int_equal(thread_limit(VEC), 4); /* and theirs is not mine */
    ACL_OK(aclrtUnuseStreamResInCurrentThread(a));
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
}

/* ---- effect on launches ---- */

struct probe {
    aclrtFuncHandle f;
    aclrtStream stream; /* where the launch goes */
    aclrtStream bind;   /* the launching thread's binding, NULL: none */
    uint32_t blocks, limit;
    uint32_t max;
    aclError rc;
};

/* Launches `concurrency` (tests/kernels/rt_devq.c) and records the most
 * blocks seen at once. limit: the bound the kernel checks (blocks stop
 * waiting as soon as more than limit run). */
static void *probe_main(void *p)
{
    struct probe *pr = p;
    pr->rc = aclrtSetDevice(0);
    if (pr->rc)
        return NULL;
    if (pr->bind)
        pr->rc = aclrtUseStreamResInCurrentThread(pr->bind);
    struct test_buf b;
    test_buf_alloc(&b, 64);
    uint32_t polls = 1u << 18;
    const void *vals[] = {&b.dev, &pr->limit, &polls};
    const size_t sizes[] = {sizeof(void *), sizeof(uint32_t), sizeof(uint32_t)};
    if (pr->rc == ACL_SUCCESS)
        pr->rc = test_launch(pr->f, pr->blocks, pr->stream, 3, vals, sizes);
    if (pr->rc == ACL_SUCCESS)
        pr->rc = aclrtSynchronizeStream(pr->stream);
    volatile uint32_t *s = b.host;
    pr->max = s[1];
    if (pr->rc == ACL_SUCCESS && (s[0] != 0 || s[2] != pr->blocks))
        pr->rc = -1;
    test_buf_free(&b);
    (void)aclGetRecentErrMsg();
    return NULL;
}

static void test_launch_limits(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_devq", "concurrency", &bin, &f);
    aclrtStream one = NULL, two = NULL, zero = NULL, work = NULL;
    ACL_OK(aclrtCreateStream(&one));
    ACL_OK(aclrtCreateStream(&two));
    ACL_OK(aclrtCreateStream(&zero));
    ACL_OK(aclrtCreateStream(&work));
    ACL_OK(aclrtSetStreamResLimit(one, VEC, 1));
    ACL_OK(aclrtSetStreamResLimit(two, VEC, 2));
    ACL_OK(aclrtSetStreamResLimit(zero, VEC, 0));

    /* The launching thread's binding counts, whatever stream the kernel
       goes to (here an unlimited one). */
    struct probe p1 = {.f = f, .stream = work, .bind = one, .blocks = 12, .limit = 1};
    oacl_test_run_thread(probe_main, &p1);
    assert_int_equal(p1.rc, ACL_SUCCESS);
    assert_int_equal(p1.max, 1);
    struct probe p2 = {.f = f, .stream = NULL, .bind = two, .blocks = 16, .limit = 2};
    oacl_test_run_thread(probe_main, &p2);
    assert_int_equal(p2.rc, ACL_SUCCESS);
    assert_true(p2.max >= 1 && p2.max <= 2);
    /* A 0 limit runs one block at a time. */
    struct probe p0 = {.f = f, .stream = zero, .bind = zero, .blocks = 8, .limit = 1};
    oacl_test_run_thread(probe_main, &p0);
    assert_int_equal(p0.rc, ACL_SUCCESS);
    assert_int_equal(p0.max, 1);
    /* The stream's own limit above the device limit wins. */
    ACL_OK(aclrtSetDeviceResLimit(0, VEC, 1));
    struct probe pd = {.f = f, .stream = work, .bind = NULL, .blocks = 8, .limit = 1};
    oacl_test_run_thread(probe_main, &pd);
    assert_int_equal(pd.rc, ACL_SUCCESS);
    assert_int_equal(pd.max, 1); /* unbound: the device limit */
    struct probe pb = {.f = f, .stream = work, .bind = two, .blocks = 16, .limit = 2};
    oacl_test_run_thread(probe_main, &pb);
    assert_int_equal(pb.rc, ACL_SUCCESS);
    assert_true(pb.max <= 2);
    ACL_OK(aclrtResetDeviceResLimit(0));

    /* Two threads at once, each with its own binding, on the same stream. */
    struct probe a = {.f = f, .stream = work, .bind = one, .blocks = 12, .limit = 1};
    struct probe b = {.f = f, .stream = NULL, .bind = two, .blocks = 12, .limit = 2};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, probe_main, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, probe_main, &b), 0);
    assert_int_equal(pthread_join(ta, NULL), 0);
    assert_int_equal(pthread_join(tb, NULL), 0);
    assert_int_equal(a.rc, ACL_SUCCESS);
    assert_int_equal(b.rc, ACL_SUCCESS);
    assert_int_equal(a.max, 1);
    assert_true(b.max >= 1 && b.max <= 2);

    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtDestroyStream(one));
    ACL_OK(aclrtDestroyStream(two));
    ACL_OK(aclrtDestroyStream(zero));
    ACL_OK(aclrtDestroyStream(work));
}

static int reset_all(void **state)
{
    (void)state;
    (void)aclrtUnuseStreamResInCurrentThread(NULL);
    oacl_test_reset_devices();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_set_get_reset, reset_all),
        cmocka_unit_test_teardown(test_errors, reset_all),
        cmocka_unit_test_teardown(test_without_context, reset_all),
        cmocka_unit_test_teardown(test_thread_binding, reset_all),
        cmocka_unit_test_teardown(test_binding_per_thread, reset_all),
        cmocka_unit_test_teardown(test_launch_limits, reset_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
