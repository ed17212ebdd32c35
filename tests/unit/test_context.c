/*
 * Contexts (spec 1.6, 1.7, 4.3, 5.32, 5.38): aclrtCreateContext /
 * DestroyContext / SetCurrentContext / GetCurrentContext /
 * CtxGetCurrentDefaultStream / GetPrimaryCtxState; the per-thread current
 * context, explicit contexts next to a device's default context, contexts
 * destroyed while other threads still have them current, and the default
 * stream's handle.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NDEV 8
#define POISON ((aclrtContext)0x5a5a)

/* The calling thread's device, or -1000 - error code. */
static int32_t current_device(void)
{
    int32_t d = -1;
    aclError rc = aclrtGetDevice(&d);
    (void)aclGetRecentErrMsg();
    return rc == ACL_SUCCESS ? d : -1000 - rc;
}

#define NO_CONTEXT (-1000 - ACL_ERROR_RT_CONTEXT_NULL)

/* The calling thread's current context, or NULL without one. */
static aclrtContext current_context(void)
{
    aclrtContext c = NULL;
    if (aclrtGetCurrentContext(&c) != ACL_SUCCESS)
        c = NULL;
    (void)aclGetRecentErrMsg();
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    return c;
}

static int32_t primary_active(int32_t dev)
{
    int32_t active = -1;
    ACL_OK(aclrtGetPrimaryCtxState(dev, NULL, &active));
    return active;
}

/* The current context can create, use and destroy a stream. */
static void assert_context_works(void)
{
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtDestroyStream(s));
}

/* A host function that waits until the test opens its gate. */
struct gate {
    sem_t go;
    int ran;
};

static void gate_init(struct gate *g)
{
    assert_int_equal(sem_init(&g->go, 0, 0), 0);
    g->ran = 0;
}

static void gate_fn(void *p)
{
    struct gate *g = p;
    while (sem_wait(&g->go) != 0) {
    }
    __atomic_store_n(&g->ran, 1, __ATOMIC_RELEASE);
}

static int gate_ran(struct gate *g) { return __atomic_load_n(&g->ran, __ATOMIC_ACQUIRE); }

/* ---- aclrtCreateContext ------------------------------------------------------------------------- */

static void test_create_destroy(void **state)
{
    (void)state;
    aclrtContext c = NULL;
    ACL_OK(aclrtCreateContext(&c, 1));
    assert_non_null(c);
    /* It is current and on device 1, but device 1 is not "set". */
    assert_ptr_equal(current_context(), c);
    assert_int_equal(current_device(), 1);
    assert_int_equal(primary_active(1), 0);
    ACL_ERR(aclrtResetDevice(1), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "device 1 is not set");
    assert_context_works();
    ACL_OK(aclrtDestroyContext(c));
    /* The calling thread has no context any more. */
    assert_int_equal(current_device(), NO_CONTEXT);
    aclrtContext got = POISON;
    ACL_ERR(aclrtGetCurrentContext(&got), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext");
    assert_ptr_equal(got, POISON);
    aclrtStream s = NULL;
    ACL_ERR(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream");
    assert_null(s);
}

/* Several contexts per device, each with its own default stream; creating
 * one replaces the thread's current context, which stays alive. */
static void test_several_contexts(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(2));
    aclrtContext dflt = current_context();
    assert_non_null(dflt);
    aclrtStream dflt_stream = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&dflt_stream));

    aclrtContext a = NULL, b = NULL;
    ACL_OK(aclrtCreateContext(&a, 2));
    aclrtStream a_stream = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&a_stream));
    ACL_OK(aclrtCreateContext(&b, 2));
    aclrtStream b_stream = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&b_stream));
    assert_ptr_equal(current_context(), b);
    assert_true(a != b && a != dflt && b != dflt);
    assert_true(a_stream != b_stream && a_stream != dflt_stream && b_stream != dflt_stream);

    /* Still set once: the explicit contexts do not count. */
    assert_int_equal(primary_active(2), 1);
    ACL_OK(aclrtSetCurrentContext(a));
    assert_int_equal(current_device(), 2);
    assert_context_works();
    ACL_OK(aclrtDestroyContext(b)); /* not current: a stays current */
    assert_ptr_equal(current_context(), a);
    ACL_OK(aclrtDestroyContext(a));
    assert_int_equal(current_device(), NO_CONTEXT);
    /* The default context was not touched. */
    ACL_OK(aclrtSetCurrentContext(dflt));
    assert_context_works();
    ACL_OK(aclrtResetDevice(2));
    assert_int_equal(primary_active(2), 0);
}

static void test_create_context_bad_args(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(3));
    aclrtContext before = current_context();
    ACL_ERR(aclrtCreateContext(NULL, 3), ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is NULL");
    /* API-layer errors leave the last error alone (spec 1.10). */
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    static const int32_t bad[] = {-1, NDEV, NDEV + 1, 64, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        aclrtContext c = POISON;
        char want[96];
        snprintf(want, sizeof(want), "aclrtCreateContext: device id %d is out of range 0..7", bad[i]);
        ACL_ERR(aclrtCreateContext(&c, bad[i]), ACL_ERROR_RT_INVALID_DEVICEID, want);
        assert_ptr_equal(c, POISON);
        assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    }
    /* Nothing changed: same current context, still usable. */
    assert_ptr_equal(current_context(), before);
    assert_int_equal(current_device(), 3);
    assert_context_works();
}

/* A context needs a stream of its own: with the device's streams used up,
 * creating one fails with 207008 and leaves everything as it was. */
static void test_create_context_out_of_streams(void **state)
{
    (void)state;
    enum { MAX = 4096 };
    static aclrtStream s[MAX];
    ACL_OK(aclrtSetDevice(7));
    aclrtContext before = current_context();
    int n = 0;
    aclError rc = ACL_SUCCESS;
    while (n < MAX && (rc = aclrtCreateStream(&s[n])) == ACL_SUCCESS)
        n++;
    assert_int_equal(rc, ACL_ERROR_RT_NO_STREAM_RESOURCE);
    (void)aclGetRecentErrMsg();
    aclrtContext c = POISON;
    ACL_ERR(aclrtCreateContext(&c, 7), ACL_ERROR_RT_NO_STREAM_RESOURCE, "aclrtCreateContext: device 7 already has");
    assert_ptr_equal(c, POISON);
    assert_ptr_equal(current_context(), before);
    /* With one stream back, a context fits again. */
    ACL_OK(aclrtDestroyStream(s[--n]));
    ACL_OK(aclrtCreateContext(&c, 7));
    ACL_OK(aclrtDestroyContext(c));
    ACL_OK(aclrtSetCurrentContext(before));
    while (n > 0)
        ACL_OK(aclrtDestroyStream(s[--n]));
}

/* ---- aclrtDestroyContext ------------------------------------------------------------------------- */

static void test_destroy_context_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtContext dflt = current_context();
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));

    ACL_ERR(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: context is NULL");
    /* A device's default context: 107002, not 100000 (spec 5.32). */
    ACL_ERR(aclrtDestroyContext(dflt), ACL_ERROR_RT_CONTEXT_NULL, "is the default context of device 0");
    ACL_ERR(aclrtDestroyContext((aclrtContext)s), ACL_ERROR_RT_CONTEXT_NULL, "is a handle of another kind");
    int local = 0;
    ACL_ERR(aclrtDestroyContext((aclrtContext)&local), ACL_ERROR_RT_CONTEXT_NULL, "is not a live context");
    aclrtContext c = NULL;
    ACL_OK(aclrtCreateContext(&c, 0));
    ACL_OK(aclrtDestroyContext(c));
    ACL_ERR(aclrtDestroyContext(c), ACL_ERROR_RT_CONTEXT_NULL, "is not a live context");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_CONTEXT_NULL);

    /* The default context and its stream are untouched. */
    ACL_OK(aclrtSetCurrentContext(dflt));
    assert_int_equal(primary_active(0), 1);
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
    assert_context_works();
}

/* Destroying a context waits for its streams and destroys them. */
static void test_destroy_context_streams(void **state)
{
    (void)state;
    aclrtContext c = NULL;
    ACL_OK(aclrtCreateContext(&c, 4));
    aclrtStream s1 = NULL, s2 = NULL;
    ACL_OK(aclrtCreateStream(&s1));
    ACL_OK(aclrtCreateStream(&s2));
    struct gate g1, g2, g0;
    gate_init(&g1);
    gate_init(&g2);
    gate_init(&g0);
    ACL_OK(aclrtLaunchHostFunc(s1, gate_fn, &g1));
    ACL_OK(aclrtLaunchHostFunc(s2, gate_fn, &g2));
    ACL_OK(aclrtLaunchHostFunc(NULL, gate_fn, &g0));
    /* The work cannot have run yet: its gates are shut. */
    assert_int_equal(gate_ran(&g1) + gate_ran(&g2) + gate_ran(&g0), 0);
    sem_post(&g1.go);
    sem_post(&g2.go);
    sem_post(&g0.go);
    ACL_OK(aclrtDestroyContext(c));
    /* Everything queued in the context ran before it went. */
    assert_int_equal(gate_ran(&g1), 1);
    assert_int_equal(gate_ran(&g2), 1);
    assert_int_equal(gate_ran(&g0), 1);
    /* Its streams went with it. */
    ACL_OK(aclrtSetDevice(4));
    ACL_ERR(aclrtSynchronizeStream(s1), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    ACL_ERR(aclrtDestroyStream(s2), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    sem_destroy(&g1.go);
    sem_destroy(&g2.go);
    sem_destroy(&g0.go);
}

struct other_thread {
    aclrtContext ctx;
    pthread_barrier_t *bar;
    aclError after_get_device;
    aclError after_create_stream;
    aclError after_get_context;
    char msg[256];
};

static void *other_thread_main(void *p)
{
    struct other_thread *o = p;
    o->after_get_device = aclrtSetCurrentContext(o->ctx);
    (void)aclGetRecentErrMsg();
    pthread_barrier_wait(o->bar); /* bound */
    pthread_barrier_wait(o->bar); /* destroyed by the main thread */
    int32_t dev = -1;
    o->after_get_device = aclrtGetDevice(&dev);
    const char *m = aclGetRecentErrMsg();
    snprintf(o->msg, sizeof(o->msg), "%s", m ? m : "");
    aclrtStream s = NULL;
    o->after_create_stream = aclrtCreateStream(&s);
    aclrtContext c = NULL;
    o->after_get_context = aclrtGetCurrentContext(&c);
    (void)aclGetRecentErrMsg();
    return NULL;
}

/* A thread that still has a destroyed context current gets 107002. */
static void test_destroy_current_of_other_thread(void **state)
{
    (void)state;
    aclrtContext c = NULL;
    ACL_OK(aclrtCreateContext(&c, 5));
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, 2);
    struct other_thread o = {.ctx = c, .bar = &bar};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, other_thread_main, &o), 0);
    pthread_barrier_wait(&bar);
    assert_int_equal(o.after_get_device, ACL_SUCCESS);
    ACL_OK(aclrtDestroyContext(c));
    pthread_barrier_wait(&bar);
    pthread_join(t, NULL);
    pthread_barrier_destroy(&bar);
    assert_int_equal(o.after_get_device, ACL_ERROR_RT_CONTEXT_NULL);
    assert_non_null(strstr(o.msg, "context was destroyed"));
    assert_int_equal(o.after_create_stream, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(o.after_get_context, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(current_device(), NO_CONTEXT);
}

/* ---- aclrtSetCurrentContext / aclrtGetCurrentContext ------------------------------------------- */

static void test_set_current_context(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(6));
    aclrtContext d6 = current_context();
    aclrtContext a = NULL;
    ACL_OK(aclrtCreateContext(&a, 7));
    assert_int_equal(current_device(), 7);
    /* Switching contexts switches devices. */
    ACL_OK(aclrtSetCurrentContext(d6));
    assert_int_equal(current_device(), 6);
    assert_ptr_equal(current_context(), d6);
    ACL_OK(aclrtSetCurrentContext(a));
    assert_int_equal(current_device(), 7);
    ACL_OK(aclrtSetCurrentContext(a)); /* again: no change, no error */
    assert_ptr_equal(current_context(), a);
    assert_context_works();
    /* aclrtSetDevice replaces an explicit current context. */
    ACL_OK(aclrtSetDevice(6));
    assert_ptr_equal(current_context(), d6);
    ACL_OK(aclrtResetDevice(6)); /* set twice */
    ACL_OK(aclrtDestroyContext(a));
}

static void test_set_current_context_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(1));
    aclrtContext d1 = current_context();
    ACL_OK(aclrtSetDevice(2));
    aclrtContext d2 = current_context();
    aclrtContext gone = NULL;
    ACL_OK(aclrtCreateContext(&gone, 1));
    ACL_OK(aclrtDestroyContext(gone));
    aclrtStream s = NULL;
    ACL_OK(aclrtSetCurrentContext(d2));
    ACL_OK(aclrtCreateStream(&s));

    ACL_ERR(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: context is NULL");
    /* Destroyed or foreign handles are argument errors here: 107000 (5.38). */
    ACL_ERR(aclrtSetCurrentContext(gone), ACL_ERROR_RT_PARAM_INVALID, "is not a live context");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    ACL_ERR(aclrtSetCurrentContext((aclrtContext)s), ACL_ERROR_RT_PARAM_INVALID, "is a handle of another kind");
    ACL_ERR(aclrtSetCurrentContext(POISON), ACL_ERROR_RT_PARAM_INVALID, "is not a live context");
    /* The default context of a fully reset device. */
    ACL_OK(aclrtResetDevice(1));
    ACL_ERR(aclrtSetCurrentContext(d1), ACL_ERROR_RT_PARAM_INVALID, "is not a live context");
    /* Still on d2, which still works. */
    assert_ptr_equal(current_context(), d2);
    assert_int_equal(current_device(), 2);
    ACL_OK(aclrtDestroyStream(s));
    assert_context_works();
}

static void *no_context_thread(void *p)
{
    aclError *rc = p;
    aclrtContext c = POISON;
    rc[0] = aclrtGetCurrentContext(&c);
    const char *m = aclGetRecentErrMsg();
    rc[1] = c == POISON && m && strstr(m, "aclrtGetCurrentContext: no current context on this thread");
    aclrtStream s = NULL;
    rc[2] = aclrtCtxGetCurrentDefaultStream(&s);
    (void)aclGetRecentErrMsg();
    rc[3] = s == NULL;
    return NULL;
}

static void test_get_current_context_errors(void **state)
{
    (void)state;
    ACL_ERR(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is NULL");
    /* A new thread has no context. */
    aclError rc[4] = {0, 0, 0, 0};
    oacl_test_run_thread(no_context_thread, rc);
    assert_int_equal(rc[0], ACL_ERROR_RT_CONTEXT_NULL);
    assert_true(rc[1]);
    assert_int_equal(rc[2], ACL_ERROR_RT_CONTEXT_NULL);
    assert_true(rc[3]);
    /* After the final reset of its device. */
    ACL_OK(aclrtSetDevice(3));
    ACL_OK(aclrtResetDevice(3));
    aclrtContext c = POISON;
    ACL_ERR(aclrtGetCurrentContext(&c), ACL_ERROR_RT_CONTEXT_NULL, "destroyed or its device reset");
    assert_ptr_equal(c, POISON);
}

struct ctx_thread {
    int32_t dev;
    aclrtContext shared;
    aclrtContext own;
    aclrtContext seen_own, seen_shared;
    int32_t dev_own, dev_shared;
    aclError rc;
    pthread_barrier_t *bar;
};

static void *ctx_thread_main(void *p)
{
    struct ctx_thread *t = p;
    t->rc = aclrtCreateContext(&t->own, t->dev);
    pthread_barrier_wait(t->bar); /* every thread has its own context */
    t->seen_own = current_context();
    t->dev_own = current_device();
    if (t->rc == ACL_SUCCESS)
        t->rc = aclrtSetCurrentContext(t->shared);
    aclrtStream s = NULL;
    if (t->rc == ACL_SUCCESS)
        t->rc = aclrtCreateStream(&s);
    if (t->rc == ACL_SUCCESS)
        t->rc = aclrtDestroyStream(s);
    t->seen_shared = current_context();
    t->dev_shared = current_device();
    pthread_barrier_wait(t->bar);
    if (t->rc == ACL_SUCCESS)
        t->rc = aclrtDestroyContext(t->own);
    (void)aclGetRecentErrMsg();
    return NULL;
}

/* The current context is per thread; a context may be shared by threads. */
static void test_contexts_per_thread(void **state)
{
    (void)state;
    enum { N = 4 };
    aclrtContext shared = NULL;
    ACL_OK(aclrtCreateContext(&shared, 0));
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, N);
    struct ctx_thread t[N];
    pthread_t tid[N];
    for (int i = 0; i < N; i++) {
        t[i] = (struct ctx_thread){.dev = i + 1, .shared = shared, .bar = &bar};
        assert_int_equal(pthread_create(&tid[i], NULL, ctx_thread_main, &t[i]), 0);
    }
    for (int i = 0; i < N; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&bar);
    for (int i = 0; i < N; i++) {
        assert_int_equal(t[i].rc, ACL_SUCCESS);
        assert_ptr_equal(t[i].seen_own, t[i].own);
        assert_int_equal(t[i].dev_own, i + 1);
        assert_ptr_equal(t[i].seen_shared, shared);
        assert_int_equal(t[i].dev_shared, 0);
    }
    /* The main thread's context never changed. */
    assert_ptr_equal(current_context(), shared);
    ACL_OK(aclrtDestroyContext(shared));
}

/* A device reset leaves explicit contexts on it alone. */
static void test_reset_keeps_explicit_context(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(5));
    aclrtContext c = NULL;
    ACL_OK(aclrtCreateContext(&c, 5));
    ACL_OK(aclrtResetDevice(5));
    assert_int_equal(primary_active(5), 0);
    assert_ptr_equal(current_context(), c);
    assert_int_equal(current_device(), 5);
    assert_context_works();
    ACL_OK(aclrtDestroyContext(c));
}

/* ---- aclrtCtxGetCurrentDefaultStream --------------------------------------------------------------- */

static void test_ctx_default_stream(void **state)
{
    (void)state;
    ACL_ERR(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtCtxGetCurrentDefaultStream: stream is NULL");
    ACL_OK(aclrtSetDevice(0));
    aclrtContext d0 = current_context();
    aclrtStream ds = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&ds));
    assert_non_null(ds);
    aclrtStream again = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&again));
    assert_ptr_equal(ds, again);

    /* It names the same stream as NULL: work queued through the handle is
       what a synchronisation of NULL waits for. */
    struct gate g;
    gate_init(&g);
    ACL_OK(aclrtLaunchHostFunc(ds, gate_fn, &g));
    ACL_ERR(aclrtSynchronizeDeviceWithTimeout(20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "still has work");
    sem_post(&g.go);
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(gate_ran(&g), 1);
    sem_destroy(&g.go);
    ACL_OK(aclrtSynchronizeStream(ds));

    /* Like NULL, it cannot be destroyed. */
    ACL_ERR(aclrtDestroyStream(ds), ACL_ERROR_INVALID_PARAM, "is a default stream, which cannot be destroyed");
    ACL_ERR(aclrtDestroyStreamForce(ds), ACL_ERROR_INVALID_PARAM, "is a default stream");
    ACL_OK(aclrtSynchronizeStream(ds)); /* still alive */

    /* It is the default stream of this context: another context's work
       cannot be queued on it. */
    aclrtContext c = NULL;
    ACL_OK(aclrtCreateContext(&c, 0));
    struct gate g2;
    gate_init(&g2);
    ACL_ERR(aclrtLaunchHostFunc(ds, gate_fn, &g2), ACL_ERROR_RT_STREAM_CONTEXT, "belongs to another context");
    ACL_OK(aclrtDestroyContext(c));
    sem_destroy(&g2.go);
    ACL_OK(aclrtSetCurrentContext(d0));

    /* After the final reset the handle is gone, and the thread has no
       context to ask. */
    ACL_OK(aclrtResetDevice(0));
    aclrtStream none = (aclrtStream)0x77;
    ACL_ERR(aclrtCtxGetCurrentDefaultStream(&none), ACL_ERROR_RT_CONTEXT_NULL,
            "aclrtCtxGetCurrentDefaultStream: the thread's current context was destroyed");
    assert_ptr_equal(none, (aclrtStream)0x77);
    ACL_OK(aclrtSetDevice(1));
    ACL_ERR(aclrtSynchronizeStream(ds), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
}

/* ---- aclrtGetPrimaryCtxState ------------------------------------------------------------------------ */

static void test_primary_ctx_state(void **state)
{
    (void)state;
    assert_int_equal(primary_active(6), 0);
    ACL_OK(aclrtSetDevice(6));
    assert_int_equal(primary_active(6), 1);
    ACL_OK(aclrtSetDevice(6));
    ACL_OK(aclrtResetDevice(6));
    assert_int_equal(primary_active(6), 1);
    ACL_OK(aclrtResetDevice(6));
    assert_int_equal(primary_active(6), 0);
    ACL_OK(aclrtSetDevice(6));
    ACL_OK(aclrtResetDeviceForce(6));
    assert_int_equal(primary_active(6), 0);
    /* Explicit contexts are not the primary context. */
    aclrtContext c = NULL;
    ACL_OK(aclrtCreateContext(&c, 6));
    assert_int_equal(primary_active(6), 0);
    ACL_OK(aclrtDestroyContext(c));
}

static void test_primary_ctx_state_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(2));
    int32_t active = 77;
    uint32_t flags = 0;
    ACL_ERR(aclrtGetPrimaryCtxState(2, &flags, &active), ACL_ERROR_INVALID_PARAM,
            "aclrtGetPrimaryCtxState: flags is reserved and must be NULL");
    ACL_ERR(aclrtGetPrimaryCtxState(2, NULL, NULL), ACL_ERROR_INVALID_PARAM, "active is NULL");
    static const int32_t bad[] = {-1, NDEV, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++)
        ACL_ERR(aclrtGetPrimaryCtxState(bad[i], NULL, &active), ACL_ERROR_RT_INVALID_DEVICEID, "is out of range");
    assert_int_equal(active, 77);
    assert_int_equal(flags, 0);
    /* Nothing changed. */
    assert_int_equal(primary_active(2), 1);
    assert_int_equal(current_device(), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_create_destroy, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_several_contexts, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_create_context_bad_args, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_create_context_out_of_streams, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_destroy_context_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_destroy_context_streams, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_destroy_current_of_other_thread, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_set_current_context, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_set_current_context_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_get_current_context_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_contexts_per_thread, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_reset_keeps_explicit_context, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_ctx_default_stream, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_primary_ctx_state, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_primary_ctx_state_errors, oacl_test_reset_fixture),
    };
    return cmocka_run_group_tests(tests, oacl_test_reset_fixture, NULL);
}
