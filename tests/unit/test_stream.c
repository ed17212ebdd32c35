/*
 * Streams (spec 1.7, 1.9, 4.4, 5.18, 5.36): aclrtCreateStream /
 * DestroyStream / DestroyStreamForce / SynchronizeStream, stale and foreign
 * handles, streams of other contexts, the streams of a default context
 * after a device reset, many streams and concurrent use. No kernels are
 * available here, so the streams stay empty.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NDEV 8

/* The stream is alive and usable from the current context. */
static void assert_stream_alive(aclrtStream s)
{
    ACL_OK(aclrtSynchronizeStream(s));
}

/* Every stream entry point rejects s as not being a live stream. */
static void assert_stream_dead(aclrtStream s)
{
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSynchronizeStream: stream");
    ACL_ERR(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    ACL_ERR(aclrtDestroyStreamForce(s), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
}

/* ---- basics ----------------------------------------------------------------------------- */

static void test_create_sync_destroy(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream a = NULL, b = NULL;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    assert_non_null(a);
    assert_non_null(b);
    assert_ptr_not_equal(a, b);
    ACL_OK(aclrtSynchronizeStream(a));
    ACL_OK(aclrtSynchronizeStream(b));
    ACL_OK(aclrtSynchronizeStream(a)); /* repeatable */
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtDestroyStream(a));
    assert_stream_alive(b); /* independent of a */
    ACL_OK(aclrtDestroyStream(b));
    assert_null(aclGetRecentErrMsg());
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

/* Destroying in creation order, reverse order, or interleaved. */
static void test_destroy_orders(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(1));
    aclrtStream s[6];
    for (int order = 0; order < 3; order++) {
        int gone[6] = {0};
        for (int i = 0; i < 6; i++)
            ACL_OK(aclrtCreateStream(&s[i]));
        for (int i = 0; i < 6; i++) {
            int k = order == 0 ? i : order == 1 ? 5 - i : (i % 2 ? 5 - i / 2 : i / 2);
            ACL_OK(aclrtDestroyStream(s[k]));
            gone[k] = 1;
            for (int j = 0; j < 6; j++) {
                if (gone[j])
                    ACL_ERR(aclrtSynchronizeStream(s[j]), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
                else
                    assert_stream_alive(s[j]);
            }
        }
        for (int i = 0; i < 6; i++)
            assert_stream_dead(s[i]);
    }
}

static void test_create_stream_errors(void **state)
{
    (void)state;
    /* NULL is checked first, with or without a context. */
    ACL_ERR(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is NULL");
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    /* No context on this thread (after the teardown's reset). */
    aclrtStream s = (aclrtStream)0x5a5a;
    ACL_ERR(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream");
    assert_ptr_equal(s, (aclrtStream)0x5a5a);
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_CONTEXT_NULL);
    ACL_OK(aclrtSetDevice(2));
    ACL_ERR(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtResetDevice(2)); /* takes s with it */
    aclrtStream t = (aclrtStream)0x6b6b;
    ACL_ERR(aclrtCreateStream(&t), ACL_ERROR_RT_CONTEXT_NULL, "destroyed or its device reset");
    assert_ptr_equal(t, (aclrtStream)0x6b6b);
    /* Set again: creation works. */
    ACL_OK(aclrtSetDevice(2));
    ACL_OK(aclrtCreateStream(&t));
    assert_stream_alive(t);
    ACL_OK(aclrtDestroyStream(t));
}

static void *create_without_context(void *p)
{
    aclrtStream *s = p;
    aclError rc = aclrtCreateStream(s);
    const char *msg = aclGetRecentErrMsg();
    if (rc != ACL_ERROR_RT_CONTEXT_NULL || !msg || !strstr(msg, "no current context on this thread"))
        *s = NULL;
    return NULL;
}

/* A thread that never set a device cannot create a stream, even while
 * other threads have contexts. */
static void test_create_stream_fresh_thread(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s = (aclrtStream)0x77;
    oacl_test_run_thread(create_without_context, &s);
    assert_ptr_equal(s, (aclrtStream)0x77);
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- destroy / synchronize: invalid arguments ------------------------------------------------ */

static void test_destroy_null(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtDestroyStream: stream is NULL (the default stream cannot be destroyed)");
    ACL_ERR(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamForce: stream is NULL");
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    /* The default stream is still there. */
    ACL_OK(aclrtSynchronizeStream(NULL));
    /* Without a context, too (checked before the context). */
    ACL_OK(aclrtResetDevice(0));
    ACL_ERR(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL");
}

static void test_destroy_twice(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream keep, s;
    ACL_OK(aclrtCreateStream(&keep));
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStream: stream");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_HANDLE);
    ACL_ERR(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    ACL_ERR(aclrtDestroyStreamForce(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStreamForce: stream");
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSynchronizeStream: stream");
    /* Other streams and the context are unaffected. */
    assert_stream_alive(keep);
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtDestroyStream(keep));
}

/* Values that are no handle at all are recognised without being
 * dereferenced (1.4: stale/foreign handles). */
static void test_not_a_handle(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream real;
    ACL_OK(aclrtCreateStream(&real));
    int local = 0;
    void *heap = malloc(64);
    assert_non_null(heap);
    memset(heap, 0xAC, 64);
    aclrtStream bad[] = {
        &local,
        heap,
        (aclrtStream)(uintptr_t)1,
        (aclrtStream)(uintptr_t)0x1000,
        (aclrtStream)UINTPTR_MAX,
        (aclrtStream)(uintptr_t)test_not_a_handle,
        (aclrtStream)((uintptr_t)real ^ ((uintptr_t)1 << 63)),
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        assert_ptr_not_equal(bad[i], real);
        assert_stream_dead(bad[i]);
    }
    free(heap);
    assert_int_equal(local, 0);
    assert_stream_alive(real);
    ACL_OK(aclrtDestroyStream(real));
}

/* A destroyed handle stays invalid after its slot is reused. */
static void test_stale_handle_after_reuse(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream old[16], fresh[16];
    for (int i = 0; i < 16; i++)
        ACL_OK(aclrtCreateStream(&old[i]));
    for (int i = 0; i < 16; i++)
        ACL_OK(aclrtDestroyStream(old[i]));
    for (int i = 0; i < 16; i++)
        ACL_OK(aclrtCreateStream(&fresh[i]));
    for (int i = 0; i < 16; i++) {
        for (int j = 0; j < 16; j++)
            assert_ptr_not_equal(old[i], fresh[j]);
        ACL_ERR(aclrtDestroyStream(old[i]), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
        ACL_ERR(aclrtSynchronizeStream(old[i]), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    }
    /* The new streams were not hit by the stale calls. */
    for (int i = 0; i < 16; i++) {
        assert_stream_alive(fresh[i]);
        ACL_OK(aclrtDestroyStream(fresh[i]));
    }
}

static void test_sync_default_stream(void **state)
{
    (void)state;
    ACL_ERR(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeStream");
    for (int32_t d = 0; d < NDEV; d++) {
        ACL_OK(aclrtSetDevice(d));
        ACL_OK(aclrtSynchronizeStream(NULL));
        ACL_OK(aclrtSynchronizeStream(NULL));
    }
    for (int32_t d = 0; d < NDEV; d++)
        ACL_OK(aclrtResetDevice(d));
    ACL_ERR(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL, "destroyed or its device reset");
}

struct no_ctx_ops {
    aclrtStream s;
    aclError destroy, force, sync;
};

static void *ops_without_context(void *p)
{
    struct no_ctx_ops *o = p;
    o->destroy = aclrtDestroyStream(o->s);
    o->force = aclrtDestroyStreamForce(o->s);
    o->sync = aclrtSynchronizeStream(o->s);
    (void)aclGetRecentErrMsg();
    return NULL;
}

/* A thread without a context gets 107002 from every stream function,
 * synchronisation included (4.4: "no context -> 107002"); the stream is
 * not affected. */
static void test_ops_from_thread_without_context(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct no_ctx_ops o = {0};
    ACL_OK(aclrtCreateStream(&o.s));
    oacl_test_run_thread(ops_without_context, &o);
    assert_int_equal(o.destroy, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(o.force, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(o.sync, ACL_ERROR_RT_CONTEXT_NULL);
    assert_stream_alive(o.s);
    ACL_OK(aclrtDestroyStream(o.s));
}

/* ---- streams of another context ------------------------------------------------------------ */

static void test_destroy_from_other_device(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetDevice(1));
    ACL_ERR(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CONTEXT,
            "aclrtDestroyStream: stream");
    ACL_ERR(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CONTEXT, "belongs to another context (device 0)");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_STREAM_CONTEXT);
    ACL_ERR(aclrtDestroyStreamForce(s), ACL_ERROR_RT_STREAM_CONTEXT, "belongs to another context (device 0)");
    /* Synchronising a stream of another context is allowed (5.36). */
    ACL_OK(aclrtSynchronizeStream(s));
    /* The failed destroys left the stream alive. */
    ACL_OK(aclrtSetDevice(0));
    assert_stream_alive(s);
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtSetDevice(1));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
}

struct other_device_thread {
    aclrtStream s;
    aclError set, destroy, force, sync;
};

static void *thread_on_device_1(void *p)
{
    struct other_device_thread *t = p;
    t->set = aclrtSetDevice(1);
    t->destroy = aclrtDestroyStream(t->s);
    t->force = aclrtDestroyStreamForce(t->s);
    t->sync = aclrtSynchronizeStream(t->s);
    (void)aclGetRecentErrMsg();
    (void)aclrtResetDevice(1);
    return NULL;
}

/* The same from another thread whose current device is 1. */
static void test_destroy_from_other_thread_device(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct other_device_thread t = {0};
    ACL_OK(aclrtCreateStream(&t.s));
    oacl_test_run_thread(thread_on_device_1, &t);
    assert_int_equal(t.set, ACL_SUCCESS);
    assert_int_equal(t.destroy, ACL_ERROR_RT_STREAM_CONTEXT);
    assert_int_equal(t.force, ACL_ERROR_RT_STREAM_CONTEXT);
    assert_int_equal(t.sync, ACL_SUCCESS);
    assert_stream_alive(t.s);
    ACL_OK(aclrtDestroyStream(t.s));
}

/* ---- aclrtDestroyStreamForce ------------------------------------------------------------------ */

static void test_destroy_force(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(3));
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    ACL_OK(aclrtDestroyStreamForce(a));
    assert_stream_dead(a);
    assert_stream_alive(b);
    ACL_OK(aclrtSynchronizeStream(NULL));
    /* Mixed: force after a normal destroy, normal after force. */
    ACL_OK(aclrtDestroyStream(b));
    ACL_ERR(aclrtDestroyStreamForce(b), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStreamForce");
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtDestroyStreamForce(a));
    ACL_ERR(aclrtDestroyStream(a), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStream");
}

/* ---- many streams ---------------------------------------------------------------------------- */

static void test_thousand_streams(void **state)
{
    (void)state;
    enum { N = 1000 };
    ACL_OK(aclrtSetDevice(0));
    aclrtStream *s = calloc(N, sizeof(*s));
    assert_non_null(s);
    for (int i = 0; i < N; i++)
        ACL_OK(aclrtCreateStream(&s[i]));
    /* All distinct. */
    aclrtStream *sorted = malloc(N * sizeof(*sorted));
    assert_non_null(sorted);
    memcpy(sorted, s, N * sizeof(*s));
    for (int i = 1; i < N; i++) {
        aclrtStream x = sorted[i];
        int j = i - 1;
        while (j >= 0 && (uintptr_t)sorted[j] > (uintptr_t)x) {
            sorted[j + 1] = sorted[j];
            j--;
        }
        sorted[j + 1] = x;
    }
    for (int i = 1; i < N; i++)
        assert_ptr_not_equal(sorted[i - 1], sorted[i]);
    free(sorted);
    for (int i = 0; i < N; i++)
        ACL_OK(aclrtSynchronizeStream(s[i]));
    /* Destroy the even ones, then the odd ones from the end. */
    for (int i = 0; i < N; i += 2)
        ACL_OK(aclrtDestroyStream(s[i]));
    for (int i = N - 1; i > 0; i -= 2)
        assert_stream_alive(s[i]);
    for (int i = N - 1; i > 0; i -= 2)
        ACL_OK(i % 4 == 1 ? aclrtDestroyStreamForce(s[i]) : aclrtDestroyStream(s[i]));
    for (int i = 0; i < N; i += 97)
        ACL_ERR(aclrtSynchronizeStream(s[i]), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    free(s);
    ACL_OK(aclrtSynchronizeStream(NULL));
}

/*
 * Streams per device are limited (spec 4.4: 2048, default streams
 * included); past the limit creation fails with 207008.
 */
static void test_stream_limit_per_device(void **state)
{
    (void)state;
    enum { LIMIT = 2048, TRY = 2 * LIMIT };
    ACL_OK(aclrtSetDevice(0));
    aclrtStream *s = calloc(TRY, sizeof(*s));
    assert_non_null(s);
    int n = 0;
    aclError rc = ACL_SUCCESS;
    const char *msg = NULL;
    while (n < TRY) {
        rc = aclrtCreateStream(&s[n]);
        if (rc != ACL_SUCCESS) {
            msg = aclGetRecentErrMsg();
            break;
        }
        n++;
    }
    char copy[512];
    snprintf(copy, sizeof(copy), "%s", msg ? msg : "(null)");
    /* Free what was created before asserting, so later tests run normally. */
    for (int i = 0; i < n; i++)
        (void)aclrtDestroyStream(s[i]);
    free(s);
    if (rc != ACL_ERROR_RT_NO_STREAM_RESOURCE || (n != LIMIT && n != LIMIT - 1))
        fail_msg("created %d streams on one device before rc %d (\"%s\"); expected 207008 after 2047 or 2048", n,
                 rc, copy);
    /* After the limit: the device works, and streams can be created again. */
    ACL_OK(aclrtSynchronizeStream(NULL));
    aclrtStream t;
    ACL_OK(aclrtCreateStream(&t));
    ACL_OK(aclrtDestroyStream(t));
}

/* ---- device reset ------------------------------------------------------------------------------ */

/* The final reset takes the streams of the default context with it. */
static void test_reset_destroys_streams(void **state)
{
    (void)state;
    for (int force = 0; force < 2; force++) {
        ACL_OK(aclrtSetDevice(0));
        ACL_OK(aclrtSetDevice(0));
        aclrtStream s[3];
        for (int i = 0; i < 3; i++)
            ACL_OK(aclrtCreateStream(&s[i]));
        ACL_OK(aclrtDestroyStream(s[1]));
        if (force) {
            ACL_OK(aclrtResetDeviceForce(0));
        } else {
            ACL_OK(aclrtResetDevice(0));
            for (int i = 0; i < 3; i += 2)
                assert_stream_alive(s[i]); /* not the final reset yet */
            ACL_OK(aclrtResetDevice(0));
        }
        /* No context now. */
        ACL_ERR(aclrtDestroyStream(s[0]), ACL_ERROR_RT_CONTEXT_NULL, "aclrtDestroyStream");
        /* With a new context on the same device: the handles are gone. */
        ACL_OK(aclrtSetDevice(0));
        for (int i = 0; i < 3; i++)
            assert_stream_dead(s[i]);
        aclrtStream t;
        ACL_OK(aclrtCreateStream(&t));
        for (int i = 0; i < 3; i++)
            assert_ptr_not_equal(t, s[i]);
        ACL_OK(aclrtDestroyStream(t));
        ACL_OK(aclrtResetDevice(0));
    }
}

/* Resetting one device leaves the streams of the others alone. */
static void test_reset_other_device_keeps_streams(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(1));
    aclrtStream s1;
    ACL_OK(aclrtCreateStream(&s1));
    ACL_OK(aclrtSetDevice(2));
    aclrtStream s2;
    ACL_OK(aclrtCreateStream(&s2));
    ACL_OK(aclrtResetDevice(2));
    ACL_OK(aclrtSetDevice(1));
    assert_stream_alive(s1);
    assert_stream_dead(s2);
    ACL_OK(aclrtDestroyStream(s1));
}

/* ---- concurrency ------------------------------------------------------------------------------- */

struct churn {
    pthread_barrier_t *barrier;
    int32_t dev;
    int rounds;
    int ok;
};

static void *churn_thread(void *p)
{
    struct churn *c = p;
    int ok = aclrtSetDevice(c->dev) == ACL_SUCCESS;
    pthread_barrier_wait(c->barrier);
    aclrtStream keep[4];
    for (int i = 0; i < 4; i++)
        ok &= aclrtCreateStream(&keep[i]) == ACL_SUCCESS;
    for (int r = 0; r < c->rounds; r++) {
        aclrtStream s;
        aclError rc = aclrtCreateStream(&s);
        ok &= rc == ACL_SUCCESS;
        if (rc != ACL_SUCCESS)
            break;
        ok &= aclrtSynchronizeStream(s) == ACL_SUCCESS;
        ok &= aclrtSynchronizeStream(keep[r % 4]) == ACL_SUCCESS;
        ok &= (r % 3 ? aclrtDestroyStream(s) : aclrtDestroyStreamForce(s)) == ACL_SUCCESS;
        ok &= aclrtDestroyStream(s) == ACL_ERROR_RT_INVALID_HANDLE;
    }
    for (int i = 0; i < 4; i++)
        ok &= aclrtDestroyStream(keep[i]) == ACL_SUCCESS;
    ok &= aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_HANDLE;
    (void)aclGetRecentErrMsg();
    c->ok = ok;
    return NULL;
}

/* Several threads create and destroy streams at once, on a shared device
 * (one default context) and on separate ones. */
static void test_concurrent_create_destroy(void **state)
{
    (void)state;
    enum { N = 6 };
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, N);
    struct churn c[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        c[i] = (struct churn){.barrier = &barrier, .dev = i < 4 ? 0 : i - 3, .rounds = 200, .ok = 0};
        assert_int_equal(pthread_create(&th[i], NULL, churn_thread, &c[i]), 0);
    }
    for (int i = 0; i < N; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        if (!c[i].ok)
            fail_msg("thread %d (device %d) saw an unexpected result", i, c[i].dev);
    }
    pthread_barrier_destroy(&barrier);
    /* Device 0 was set by four threads and is still usable. */
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtSynchronizeStream(NULL));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtDestroyStream(s));
}

struct racer {
    pthread_barrier_t *barrier;
    aclrtStream *target;
    int force;
    aclError rc;
};

static void *racer_thread(void *p)
{
    struct racer *r = p;
    (void)aclrtSetDevice(0);
    for (;;) {
        pthread_barrier_wait(r->barrier); /* a new target is ready (or NULL: stop) */
        aclrtStream s = *r->target;
        if (!s)
            break;
        r->rc = r->force ? aclrtDestroyStreamForce(s) : aclrtDestroyStream(s);
        (void)aclGetRecentErrMsg();
        pthread_barrier_wait(r->barrier); /* done */
    }
    (void)aclrtResetDevice(0);
    return NULL;
}

/* Racing destroys of one stream: exactly one succeeds. Under TSan this also
 * checks the handle is read under the handle table's lock (regression). */
static void test_concurrent_destroy_same_stream(void **state)
{
    (void)state;
    enum { N = 4, ROUNDS = 50 };
    ACL_OK(aclrtSetDevice(0));
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, N + 1);
    aclrtStream target = NULL;
    struct racer r[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        r[i] = (struct racer){.barrier = &barrier, .target = &target, .force = i % 2};
        assert_int_equal(pthread_create(&th[i], NULL, racer_thread, &r[i]), 0);
    }
    int bad_round = -1;
    for (int round = 0; round < ROUNDS; round++) {
        ACL_OK(aclrtCreateStream(&target));
        pthread_barrier_wait(&barrier);
        pthread_barrier_wait(&barrier);
        int wins = 0;
        for (int i = 0; i < N; i++) {
            if (r[i].rc == ACL_SUCCESS)
                wins++;
            else if (r[i].rc != ACL_ERROR_RT_INVALID_HANDLE)
                wins = -100;
        }
        if (wins != 1 && bad_round < 0)
            bad_round = round;
        ACL_ERR(aclrtSynchronizeStream(target), ACL_ERROR_RT_INVALID_HANDLE, "is not a live stream handle");
    }
    target = NULL;
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < N; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    pthread_barrier_destroy(&barrier);
    if (bad_round >= 0)
        fail_msg("round %d: not exactly one destroy succeeded", bad_round);
    ACL_OK(aclrtSynchronizeStream(NULL));
}

struct creator {
    pthread_barrier_t *barrier;
    aclrtStream *made;
    int cap, n;
    aclError last;
};

/* Creates streams on device 2 until that fails (the device gets reset). */
static void *creator_thread(void *p)
{
    struct creator *c = p;
    c->n = 0;
    c->last = aclrtSetDevice(2);
    pthread_barrier_wait(c->barrier);
    while (c->last == ACL_SUCCESS && c->n < c->cap) {
        aclrtStream s;
        c->last = aclrtCreateStream(&s);
        if (c->last == ACL_SUCCESS)
            c->made[c->n++] = s;
    }
    (void)aclGetRecentErrMsg();
    return NULL;
}

/*
 * A stream creation racing with the final reset of its device either fails
 * (107002) or yields a stream that the reset destroys: after the reset no
 * stream of the old default context may be alive.
 *
 * (Regression: a stream linked into a context being torn down used to
 * outlive it, and its handle was read after the teardown could free it.)
 */
static void test_reset_while_creating(void **state)
{
    (void)state;
    enum { ROUNDS = 1000, CAP = 1024 }; /* below the per-device stream limit */
    aclrtStream *made = calloc(CAP, sizeof(*made));
    assert_non_null(made);
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, 2);
    int bad_round = -1, bad_index = -1, bad_total = 0;
    for (int round = 0; round < ROUNDS && bad_round < 0; round++) {
        struct creator c = {.barrier = &barrier, .made = made, .cap = CAP};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, creator_thread, &c), 0);
        pthread_barrier_wait(&barrier);
        ACL_OK(aclrtResetDeviceForce(2));
        assert_int_equal(pthread_join(th, NULL), 0);
        if (c.n < CAP)
            assert_int_equal(c.last, ACL_ERROR_RT_CONTEXT_NULL);
        /* From a new context on the device: every old handle must be dead. */
        ACL_OK(aclrtSetDevice(2));
        for (int i = 0; i < c.n; i++) {
            aclError rc = aclrtSynchronizeStream(made[i]);
            (void)aclGetRecentErrMsg();
            if (rc != ACL_ERROR_RT_INVALID_HANDLE && bad_round < 0) {
                bad_round = round;
                bad_index = i;
                bad_total = c.n;
            }
        }
        ACL_OK(aclrtResetDeviceForce(2));
    }
    pthread_barrier_destroy(&barrier);
    free(made);
    if (bad_round >= 0)
        fail_msg("round %d: stream %d of %d created during the reset is still alive after it", bad_round, bad_index,
                 bad_total);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, oacl_test_reset_fixture, oacl_test_reset_fixture)

int main(void)
{
    unsetenv("OACL_DEVICE_COUNT");
    unsetenv("OACL_SOC");
    const struct CMUnitTest tests[] = {
        T(test_create_sync_destroy),
        T(test_destroy_orders),
        T(test_create_stream_errors),
        T(test_create_stream_fresh_thread),
        T(test_destroy_null),
        T(test_destroy_twice),
        T(test_not_a_handle),
        T(test_stale_handle_after_reuse),
        T(test_sync_default_stream),
        T(test_ops_from_thread_without_context),
        T(test_destroy_from_other_device),
        T(test_destroy_from_other_thread_device),
        T(test_destroy_force),
        T(test_thousand_streams),
        T(test_stream_limit_per_device),
        T(test_reset_destroys_streams),
        T(test_reset_other_device_keeps_streams),
        T(test_concurrent_create_destroy),
        T(test_concurrent_destroy_same_stream),
        T(test_reset_while_creating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
