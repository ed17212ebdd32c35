/*
 * Concurrency: several host threads driving several streams at once, every
 * result verified; and many launches queued before one synchronise.
 */
#include <pthread.h>
#include <string.h>

#include "test_support.h"

#define THREADS 2
#define STREAMS_PER_THREAD 2
#define LAUNCHES 200
#define BLOCKS 4
#define COUNT 64 /* elements per block */

static aclrtBinHandle g_bin;

struct worker {
    int id;
    int failures;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    if (aclrtSetDevice(0) != ACL_SUCCESS) {
        w->failures++;
        return NULL;
    }
    aclrtFuncHandle f;
    aclrtStream streams[STREAMS_PER_THREAD];
    struct test_buf bufs[STREAMS_PER_THREAD];
    size_t per_launch = (size_t)BLOCKS * COUNT * sizeof(uint32_t);
    if (aclrtBinaryGetFunction(g_bin, "fill_u32", &f) != ACL_SUCCESS)
        w->failures++;
    for (int s = 0; s < STREAMS_PER_THREAD; s++) {
        if (aclrtCreateStream(&streams[s]) != ACL_SUCCESS)
            w->failures++;
        bufs[s].size = per_launch * LAUNCHES;
        if (aclrtMallocHost(&bufs[s].host, bufs[s].size) ||
            aclrtHostRegisterV2(bufs[s].host, bufs[s].size, ACL_HOST_REG_MAPPED) ||
            aclrtHostGetDevicePointer(bufs[s].host, &bufs[s].dev, 0))
            w->failures++;
        memset(bufs[s].host, 0xFF, bufs[s].size);
    }
    /* Launch everything first, interleaving the streams, then wait. */
    for (uint32_t i = 0; i < LAUNCHES; i++) {
        for (int s = 0; s < STREAMS_PER_THREAD; s++) {
            void *dst = (char *)bufs[s].dev + i * per_launch;
            uint32_t value = (uint32_t)(w->id * 1000000 + s * 100000) + i * 10;
            uint32_t count = COUNT;
            const void *vals[] = {&dst, &value, &count};
            size_t sizes[] = {8, 4, 4};
            if (test_launch(f, BLOCKS, streams[s], 3, vals, sizes) != ACL_SUCCESS)
                w->failures++;
        }
    }
    for (int s = 0; s < STREAMS_PER_THREAD; s++) {
        if (aclrtSynchronizeStream(streams[s]) != ACL_SUCCESS)
            w->failures++;
        const uint32_t *h = bufs[s].host;
        for (uint32_t i = 0; i < LAUNCHES; i++)
            for (uint32_t b = 0; b < BLOCKS; b++)
                for (uint32_t e = 0; e < COUNT; e++) {
                    uint32_t want = (uint32_t)(w->id * 1000000 + s * 100000) + i * 10 + b;
                    if (h[(i * BLOCKS + b) * COUNT + e] != want)
                        w->failures++;
                }
        if (aclrtHostUnregister(bufs[s].host) || aclrtFreeHost(bufs[s].host) || aclrtDestroyStream(streams[s]))
            w->failures++;
    }
    return NULL;
}

static void test_threads_and_streams(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin));
    pthread_t t[THREADS];
    struct worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i].id = i;
        w[i].failures = 0;
        assert_int_equal(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(w[i].failures, 0);
    }
    ACL_OK(aclrtBinaryUnLoad(g_bin));
    ACL_OK(aclrtResetDeviceForce(0));
}

/* Launches are asynchronous: many queue up, in order, before one wait. */
static void test_fifo_order(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "fill_u32", &bin, &f);
    struct test_buf b;
    test_buf_alloc(&b, 4096);
    /* Every launch overwrites the same elements: the last one must win. */
    for (uint32_t i = 1; i <= 500; i++) {
        uint32_t count = 16;
        const void *vals[] = {&b.dev, &i, &count};
        size_t sizes[] = {8, 4, 4};
        ACL_OK(test_launch(f, 2, s, 3, vals, sizes));
    }
    ACL_OK(aclrtSynchronizeStream(s));
    const uint32_t *h = b.host;
    for (int e = 0; e < 16; e++) {
        assert_int_equal(h[e], 500);
        assert_int_equal(h[16 + e], 501);
    }
    test_buf_free(&b);
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtResetDeviceForce(0));
}

/* Destroying a stream waits for its queued work; the force variant drops
   what has not started. Neither hangs. */
static void test_destroy_with_pending_work(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "sleep_kernel", &bin, &f);
    struct test_buf counter;
    test_buf_alloc(&counter, 4096);
    uint32_t ms = 2;
    const void *vals[] = {&counter.dev, &ms};
    size_t sizes[] = {8, 4};
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    for (int i = 0; i < 10; i++)
        ACL_OK(test_launch(f, 1, s, 2, vals, sizes));
    ACL_OK(aclrtDestroyStream(s));
    assert_int_equal(*(volatile uint32_t *)counter.host, 10);

    ACL_OK(aclrtCreateStream(&s));
    for (int i = 0; i < 50; i++)
        ACL_OK(test_launch(f, 1, s, 2, vals, sizes));
    ACL_OK(aclrtDestroyStreamForce(s));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    /* Nothing submitted before the forced destroy is dropped (spec 4.4). */
    ACL_OK(aclrtSynchronizeDevice());
    assert_int_equal(*(volatile uint32_t *)counter.host, 60);
    test_buf_free(&counter);
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtResetDeviceForce(0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_and_streams),
        cmocka_unit_test(test_fifo_order),
        cmocka_unit_test(test_destroy_with_pending_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
