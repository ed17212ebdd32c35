/*
 * Memory pools across streams and threads: a block freed on one stream is
 * never handed to another stream while work queued before the free may
 * still use it (with and without an event between the streams, made
 * deterministic with gates), and eight threads churning allocations and
 * frees on their own streams of one pool (also run under TSan).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt_memory_soma.h"
#include "test_support.h"

#define MB ((size_t)1 << 20)
#define NWORDS 64u

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_fill;
static aclrtContext g_ctx;
static uint64_t *g_gate;
static uint32_t *g_host;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtGetCurrentContext(&g_ctx) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "fill_u32", &g_fill))
        return -1;
    if (aclrtMalloc((void **)&g_gate, 64, ACL_MEM_MALLOC_NORMAL_ONLY) || aclrtMallocHost((void **)&g_host, 1 << 20))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtFree(g_gate);
    aclrtFreeHost(g_host);
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

static aclrtMemPool make_pool(void)
{
    aclrtMemPoolProps p;
    memset(&p, 0, sizeof(p));
    p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    aclrtMemPool pool = NULL;
    ACL_OK(aclrtMemPoolCreate(&pool, &p));
    return pool;
}

static uint64_t attr64(aclrtMemPool pool, aclrtMemPoolAttr a)
{
    uint64_t v = 0;
    ACL_OK(aclrtMemPoolGetAttr(pool, a, &v));
    return v;
}

static aclError fill(void *dev, uint32_t value, uint32_t count, aclrtStream s)
{
    const void *v[] = {&dev, &value, &count};
    const size_t sz[] = {sizeof(dev), sizeof(value), sizeof(count)};
    return test_launch(g_fill, 1, s, 3, v, sz);
}

static void gate_close(aclrtStream s)
{
    uint64_t zero = 0;
    ACL_OK(aclrtMemcpy(g_gate, 8, &zero, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtValueWait(g_gate, 1, ACL_STREAM_WAIT_VALUE_GEQ, s));
}

static void gate_open(void)
{
    uint64_t one = 1;
    ACL_OK(aclrtMemcpy(g_gate, 8, &one, 8, ACL_MEMCPY_HOST_TO_DEVICE));
}

static void expect_u32(const uint32_t *p, uint32_t value, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (p[i] != value)
            fail_msg("element %u is %u, expected %u", i, p[i], value);
}

static aclrtStreamStatus query(aclrtStream s)
{
    aclrtStreamStatus st = (aclrtStreamStatus)99;
    ACL_OK(aclrtStreamQuery(s, &st));
    return st;
}

/*
 * Stream A (held by a gate) has a kernel that writes block X, then frees X.
 * Stream B, not ordered after A, allocates while A is held: it must get
 * other memory, and what B writes there must survive A's kernel, which
 * only runs after B has finished.
 */
static void test_other_stream_without_event(void **state)
{
    (void)state;
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    aclrtMemPool pool = make_pool();
    uint64_t keep = 64 * MB;
    ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
    void *x = NULL, *y = NULL;
    gate_close(a);
    ACL_OK(aclrtMemPoolMallocAsync(&x, 4096, pool, a));
    ACL_OK(fill(x, 0xA, NWORDS, a));
    ACL_OK(aclrtMemPoolFreeAsync(x, a));
    ACL_OK(aclrtMemPoolMallocAsync(&y, 4096, pool, b));
    assert_ptr_not_equal(x, y);
    ACL_OK(fill(y, 0xB, NWORDS, b));
    ACL_OK(aclrtMemcpyAsync(g_host, NWORDS * 4, y, NWORDS * 4, ACL_MEMCPY_DEVICE_TO_HOST, b));
    ACL_OK(aclrtSynchronizeStream(b));
    assert_int_equal(query(a), ACL_STREAM_STATUS_NOT_READY); /* A's kernel has not run */
    expect_u32(g_host, 0xB, NWORDS);
    gate_open();
    ACL_OK(aclrtSynchronizeStream(a));
    /* A's kernel ran after B's copy: y still holds B's data. */
    ACL_OK(aclrtMemcpyAsync(g_host + NWORDS, NWORDS * 4, y, NWORDS * 4, ACL_MEMCPY_DEVICE_TO_HOST, b));
    ACL_OK(aclrtSynchronizeStream(b));
    expect_u32(g_host + NWORDS, 0xB, NWORDS);
    /* Now that A's free has run, B may take X. */
    void *z = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&z, 4096, pool, b));
    assert_ptr_equal(z, x);
    ACL_OK(aclrtMemPoolFreeAsync(z, b));
    ACL_OK(aclrtMemPoolFreeAsync(y, b));
    ACL_OK(aclrtSynchronizeStream(b));
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
}

/*
 * The same with B waiting for an event recorded on A after the free: B's
 * work is ordered after A's kernel and free, whatever memory B gets. A
 * kernel on A writes X, A frees X, B allocates after the wait and writes
 * its block; B's result must be B's data, never A's.
 */
static void test_other_stream_after_event(void **state)
{
    (void)state;
    aclrtStream a, b;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    aclrtMemPool pool = make_pool();
    uint64_t keep = 64 * MB;
    ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
    for (int round = 0; round < 2; round++) {
        /* Round 0: A held by a gate while B is set up; round 1: A's work
           has finished before B allocates (the block moves over). */
        void *x = NULL, *y = NULL;
        if (round == 0)
            gate_close(a);
        ACL_OK(aclrtMemPoolMallocAsync(&x, 4096, pool, a));
        ACL_OK(fill(x, 0xA0 + (uint32_t)round, NWORDS, a));
        ACL_OK(aclrtMemPoolFreeAsync(x, a));
        ACL_OK(aclrtRecordEvent(e, a));
        ACL_OK(aclrtStreamWaitEvent(b, e));
        if (round == 1)
            ACL_OK(aclrtSynchronizeEvent(e));
        ACL_OK(aclrtMemPoolMallocAsync(&y, 4096, pool, b));
        if (round == 0)
            assert_ptr_not_equal(y, x); /* A's free has not run */
        else
            assert_ptr_equal(y, x); /* it has: the block is settled */
        ACL_OK(fill(y, 0xB0 + (uint32_t)round, NWORDS, b));
        ACL_OK(aclrtMemcpyAsync(g_host, NWORDS * 4, y, NWORDS * 4, ACL_MEMCPY_DEVICE_TO_HOST, b));
        if (round == 0) {
            assert_int_equal(query(b), ACL_STREAM_STATUS_NOT_READY); /* held by the event */
            gate_open();
        }
        ACL_OK(aclrtSynchronizeStream(b));
        expect_u32(g_host, 0xB0 + (uint32_t)round, NWORDS);
        ACL_OK(aclrtMemPoolFreeAsync(y, b));
        ACL_OK(aclrtSynchronizeStream(b));
        ACL_OK(aclrtSynchronizeStream(a));
        ACL_OK(aclrtMemPoolTrimTo(pool, 0)); /* round 1 starts with no cached block */
    }
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
}

/* A block freed on A and again (after reuse on A) on B is settled only when
 * both frees have run. */
static void test_frees_on_two_streams(void **state)
{
    (void)state;
    aclrtStream a, b, c;
    ACL_OK(aclrtCreateStream(&a));
    ACL_OK(aclrtCreateStream(&b));
    ACL_OK(aclrtCreateStream(&c));
    aclrtMemPool pool = make_pool();
    uint64_t keep = 64 * MB;
    ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
    void *x = NULL, *y = NULL, *z = NULL;
    gate_close(a);
    ACL_OK(aclrtMemPoolMallocAsync(&x, 1, pool, a));
    ACL_OK(aclrtMemPoolFreeAsync(x, a));
    ACL_OK(aclrtMemPoolMallocAsync(&y, 1, pool, a));
    assert_ptr_equal(x, y);
    ACL_OK(aclrtMemPoolFreeAsync(y, b)); /* b has nothing queued: its free runs at once */
    ACL_OK(aclrtSynchronizeStream(b));
    /* A's free is still held: neither b nor c may have the block. */
    ACL_OK(aclrtMemPoolMallocAsync(&z, 1, pool, c));
    assert_ptr_not_equal(z, x);
    ACL_OK(aclrtMemPoolFreeAsync(z, c));
    void *w = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&w, 1, pool, b));
    assert_ptr_not_equal(w, x);
    ACL_OK(aclrtMemPoolFreeAsync(w, b));
    gate_open();
    ACL_OK(aclrtSynchronizeStream(a));
    ACL_OK(aclrtSynchronizeStream(b));
    ACL_OK(aclrtSynchronizeStream(c));
    ACL_OK(aclrtMemPoolTrimTo(pool, 0));
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
    ACL_OK(aclrtDestroyStream(c));
}

/* ---- eight threads ---------------------------------------------------------------------- */

#define THREADS 8
#define ITERS 150

struct churn {
    aclrtMemPool pool;
    unsigned idx;
    uint32_t *host;      /* ITERS * 4 words of pinned memory: what each iteration read back */
    int failures;
    char what[160];
};

static void *churn_main(void *arg)
{
    struct churn *c = arg;
    aclrtStream s = NULL;
    aclError rc = aclrtSetCurrentContext(g_ctx);
    if (rc == ACL_SUCCESS)
        rc = aclrtCreateStream(&s);
    for (unsigned i = 0; rc == ACL_SUCCESS && i < ITERS; i++) {
        void *p = NULL;
        size_t size = (size_t)((i + c->idx) % 3 + 1) * MB + 12345; /* 2 or 4 MiB blocks */
        uint32_t value = (c->idx << 16) | i;
        rc = aclrtMemPoolMallocAsync(&p, size, c->pool, s);
        if (rc == ACL_SUCCESS)
            rc = fill(p, value, 4, s);
        if (rc == ACL_SUCCESS)
            rc = aclrtMemcpyAsync(c->host + i * 4, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST, s);
        if (rc == ACL_SUCCESS)
            rc = aclrtMemPoolFreeAsync(p, s);
        if (rc == ACL_SUCCESS && i % 50 == 49)
            rc = aclrtSynchronizeStream(s);
        if (rc)
            snprintf(c->what, sizeof(c->what), "iteration %u: %d (%s)", i, rc, aclGetRecentErrMsg());
    }
    if (rc == ACL_SUCCESS)
        rc = aclrtSynchronizeStream(s);
    for (unsigned i = 0; rc == ACL_SUCCESS && i < ITERS; i++)
        for (unsigned k = 0; k < 4; k++)
            if (c->host[i * 4 + k] != ((c->idx << 16) | i)) {
                snprintf(c->what, sizeof(c->what), "iteration %u read %#x", i, c->host[i * 4 + k]);
                c->failures++;
                break;
            }
    if (s && aclrtDestroyStream(s) != ACL_SUCCESS)
        c->failures++;
    if (rc)
        c->failures++;
    return NULL;
}

static void test_threads_churn(void **state)
{
    (void)state;
    aclrtMemPool pool = make_pool();
    uint64_t keep = 32 * MB;
    ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
    struct churn c[THREADS];
    pthread_t t[THREADS];
    memset(g_host, 0, THREADS * ITERS * 16);
    for (unsigned i = 0; i < THREADS; i++) {
        c[i] = (struct churn){.pool = pool, .idx = i, .host = g_host + i * ITERS * 4};
        assert_int_equal(pthread_create(&t[i], NULL, churn_main, &c[i]), 0);
    }
    for (unsigned i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (unsigned i = 0; i < THREADS; i++)
        if (c[i].failures)
            fail_msg("thread %u: %s", i, c[i].what);
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
    uint64_t high = attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH);
    assert_true(high >= 2 * MB && high <= THREADS * 4 * MB);
    ACL_OK(aclrtSynchronizeDevice());
    assert_true(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) <= keep);
    ACL_OK(aclrtMemPoolTrimTo(pool, 0));
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
    ACL_OK(aclrtMemPoolDestroy(pool));
}

/* Threads allocating while another destroys the pool: every call either
 * works or reports the pool as gone; nothing leaks or crashes. */
struct racer {
    aclrtMemPool pool;
    int bad;
};

static void *racer_main(void *arg)
{
    struct racer *r = arg;
    aclrtStream s = NULL;
    if (aclrtSetCurrentContext(g_ctx) || aclrtCreateStream(&s)) {
        r->bad++;
        return NULL;
    }
    for (int i = 0; i < 200; i++) {
        void *p = NULL;
        aclError rc = aclrtMemPoolMallocAsync(&p, 1, r->pool, s);
        if (rc == ACL_ERROR_RT_INTERNAL_ERROR)
            break; /* destroyed */
        if (rc) {
            r->bad++;
            break;
        }
        rc = aclrtMemPoolFreeAsync(p, s);
        /* Destroy may have released the block between the two calls. */
        if (rc && rc != ACL_ERROR_RT_PARAM_INVALID && rc != ACL_ERROR_RT_INTERNAL_ERROR)
            r->bad++;
    }
    if (aclrtSynchronizeStream(s) || aclrtDestroyStream(s))
        r->bad++;
    return NULL;
}

static void test_destroy_while_in_use(void **state)
{
    (void)state;
    size_t before = 0, total = 0, after = 0;
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &before, &total));
    aclrtMemPool pool = make_pool();
    struct racer r[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        r[i] = (struct racer){.pool = pool};
        assert_int_equal(pthread_create(&t[i], NULL, racer_main, &r[i]), 0);
    }
    ACL_OK(aclrtMemPoolDestroy(pool));
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(r[i].bad, 0);
    }
    ACL_OK(aclrtSynchronizeDevice());
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &after, &total));
    assert_int_equal(after, before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_stream_without_event),
        cmocka_unit_test(test_other_stream_after_event),
        cmocka_unit_test(test_frees_on_two_streams),
        cmocka_unit_test(test_threads_churn),
        cmocka_unit_test(test_destroy_while_in_use),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
