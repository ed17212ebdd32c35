/*
 * Stream memory operations: aclrtValueWrite and aclrtValueWait with every
 * wait condition, waits released by another stream, by a kernel and by the
 * host program, forced destroys of waiting streams, and bad inputs.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_support.h"

static aclrtBinHandle g_misc;
static aclrtFuncHandle g_store, g_copy, g_fill;
static struct test_buf g_buf;
static uint64_t *g_word;   /* device memory: the awaited word */
static uint64_t *g_marker; /* device memory: written after a wait passes */

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_misc) ||
        aclrtBinaryGetFunction(g_misc, "sleep_store_u64", &g_store) ||
        aclrtBinaryGetFunction(g_misc, "copy_plus", &g_copy) || aclrtBinaryGetFunction(g_misc, "fill_u32", &g_fill))
        return -1;
    if (aclrtMalloc((void **)&g_word, 64, ACL_MEM_MALLOC_NORMAL_ONLY) ||
        aclrtMalloc((void **)&g_marker, 64, ACL_MEM_MALLOC_NORMAL_ONLY))
        return -1;
    test_buf_alloc(&g_buf, 1 << 16);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_buf);
    aclrtFree(g_word);
    aclrtFree(g_marker);
    aclrtBinaryUnLoad(g_misc);
    return aclrtResetDeviceForce(0);
}

static void set_u64(uint64_t *dev, uint64_t v) { ACL_OK(aclrtMemcpy(dev, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE)); }

static uint64_t get_u64(const uint64_t *dev)
{
    uint64_t v = 0;
    ACL_OK(aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
}

static aclrtStreamStatus query(aclrtStream s)
{
    aclrtStreamStatus st = (aclrtStreamStatus)99;
    ACL_OK(aclrtStreamQuery(s, &st));
    return st;
}

static void test_write(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    set_u64(g_word, 0);
    ACL_OK(aclrtValueWrite(g_word, 0x1122334455667788ull, 0, s));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(get_u64(g_word), 0x1122334455667788ull);
    /* In stream order: the last write wins, and on the default stream too. */
    for (uint64_t v = 1; v <= 100; v++)
        ACL_OK(aclrtValueWrite(g_word + 1, v, 0, s));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(get_u64(g_word + 1), 100);
    ACL_OK(aclrtValueWrite(g_word, 42, 0, NULL));
    assert_int_equal(get_u64(g_word), 42); /* a synchronous copy follows the default stream */
    ACL_OK(aclrtDestroyStream(s));
}

struct cond_case {
    uint32_t mode;
    uint64_t current;
    uint64_t value;
    bool ready;
};

/* Each condition against values that satisfy it and values that do not: a
 * satisfied wait passes at once; an unsatisfied one holds the stream until
 * the word changes. */
static void test_conditions(void **state)
{
    (void)state;
    static const struct cond_case cases[] = {
        {ACL_STREAM_WAIT_VALUE_GEQ, 5, 5, true},
        {ACL_STREAM_WAIT_VALUE_GEQ, 6, 5, true},
        {ACL_STREAM_WAIT_VALUE_GEQ, 4, 5, false},
        {ACL_STREAM_WAIT_VALUE_GEQ, UINT64_MAX, 1, true}, /* unsigned compare */
        {ACL_STREAM_WAIT_VALUE_GEQ, 1, UINT64_MAX, false},
        {ACL_STREAM_WAIT_VALUE_EQ, 5, 5, true},
        {ACL_STREAM_WAIT_VALUE_EQ, 4, 5, false},
        {ACL_STREAM_WAIT_VALUE_EQ, 1ull << 40, 0, false}, /* all 64 bits compared */
        {ACL_STREAM_WAIT_VALUE_AND, 0xA, 0x2, true},
        {ACL_STREAM_WAIT_VALUE_AND, 0xA, 0x5, false},
        {ACL_STREAM_WAIT_VALUE_AND, 1ull << 63, 1ull << 63, true},
        {ACL_STREAM_WAIT_VALUE_NOR, 0, 0, true},
        {ACL_STREAM_WAIT_VALUE_NOR, UINT64_MAX, 0, false},
        {ACL_STREAM_WAIT_VALUE_NOR, 0xFFFFFFFF00000000ull, 0x00000000FFFFFFFFull, false},
        {ACL_STREAM_WAIT_VALUE_NOR, 0xFFFFFFFF00000000ull, 0x000000007FFFFFFFull, true},
    };
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct cond_case *c = &cases[i];
        set_u64(g_word, c->current);
        set_u64(g_marker, 0);
        ACL_OK(aclrtValueWait(g_word, c->value, c->mode, s));
        ACL_OK(aclrtValueWrite(g_marker, i + 1, 0, s));
        if (c->ready) {
            ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
        } else {
            ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, NULL);
            if (get_u64(g_marker) != 0)
                fail_msg("case %zu: the wait passed though its condition does not hold", i);
            /* Release it with a value that satisfies the condition. */
            uint64_t release = c->mode == ACL_STREAM_WAIT_VALUE_GEQ ? c->value
                               : c->mode == ACL_STREAM_WAIT_VALUE_EQ ? c->value
                               : c->mode == ACL_STREAM_WAIT_VALUE_AND ? c->value
                                                                      : 0;
            if (c->mode == ACL_STREAM_WAIT_VALUE_NOR)
                assert_int_not_equal(c->value, UINT64_MAX);
            set_u64(g_word, release);
            ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
        }
        if (get_u64(g_marker) != i + 1)
            fail_msg("case %zu: the write after the wait did not run", i);
    }
    ACL_OK(aclrtDestroyStream(s));
}

/* One stream releases another with value writes: data produced before the
 * write is visible after the wait, round after round. */
static void test_orders_two_streams(void **state)
{
    (void)state;
    aclrtStream prod, cons;
    ACL_OK(aclrtCreateStream(&prod));
    ACL_OK(aclrtCreateStream(&cons));
    set_u64(g_word, 0);
    enum { COUNT = 256, ROUNDS = 300 };
    uint32_t *host = g_buf.host;
    void *src = g_buf.dev;
    void *dst = (char *)g_buf.dev + COUNT * 4;
    for (uint32_t r = 1; r <= ROUNDS; r++) {
        uint32_t value = r * 1000, count = COUNT, add = 2;
        const void *fv[] = {&src, &value, &count};
        size_t fs[] = {8, 4, 4};
        /* The consumer's wait is queued first. */
        ACL_OK(aclrtValueWait(g_word, r, ACL_STREAM_WAIT_VALUE_GEQ, cons));
        const void *cv[] = {&src, &dst, &add, &count};
        size_t cs[] = {8, 8, 4, 4};
        ACL_OK(test_launch(g_copy, 1, cons, 4, cv, cs));
        ACL_OK(test_launch(g_fill, 1, prod, 3, fv, fs));
        ACL_OK(aclrtValueWrite(g_word, r, 0, prod));
        ACL_OK(aclrtSynchronizeStream(cons));
        for (uint32_t i = 0; i < COUNT; i++)
            if (host[COUNT + i] != value + 2)
                fail_msg("round %u: element %u is %u, want %u", r, i, host[COUNT + i], value + 2);
    }
    ACL_OK(aclrtSynchronizeStream(prod));
    ACL_OK(aclrtDestroyStream(prod));
    ACL_OK(aclrtDestroyStream(cons));
}

/* A kernel's store releases a wait on another stream. */
static void test_kernel_releases_wait(void **state)
{
    (void)state;
    aclrtStream k, w;
    ACL_OK(aclrtCreateStream(&k));
    ACL_OK(aclrtCreateStream(&w));
    set_u64(g_word, 0);
    set_u64(g_marker, 0);
    ACL_OK(aclrtValueWait(g_word, 77, ACL_STREAM_WAIT_VALUE_EQ, w));
    ACL_OK(aclrtValueWrite(g_marker, 1, 0, w));
    uint64_t value = 77;
    uint32_t ms = 20;
    const void *v[] = {&g_word, &value, &ms};
    size_t sz[] = {8, 8, 4};
    uint64_t t0 = test_now_ms();
    ACL_OK(test_launch(g_store, 2, k, 3, v, sz));
    ACL_OK(aclrtSynchronizeStream(w));
    assert_true(test_now_ms() - t0 >= 20);
    assert_int_equal(get_u64(g_marker), 1);
    ACL_OK(aclrtSynchronizeStream(k));
    ACL_OK(aclrtDestroyStream(k));
    ACL_OK(aclrtDestroyStream(w));
}

/* The device address of mapped host memory can be awaited; the host
 * program releases the stream by storing through the host address. */
static void test_host_releases_wait(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint64_t *host_word = (uint64_t *)((char *)g_buf.host + 4096);
    uint64_t *dev_word = (uint64_t *)((char *)g_buf.dev + 4096);
    __atomic_store_n(host_word, 0, __ATOMIC_RELEASE);
    ACL_OK(aclrtValueWait(dev_word, 0x100, ACL_STREAM_WAIT_VALUE_AND, s));
    ACL_OK(aclrtValueWrite(dev_word + 1, 9, 0, s));
    test_sleep_ms(20);
    assert_int_equal(query(s), ACL_STREAM_STATUS_NOT_READY);
    __atomic_store_n(host_word, 0x300, __ATOMIC_RELEASE);
    ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
    assert_int_equal(__atomic_load_n(host_word + 1, __ATOMIC_ACQUIRE), 9);
    ACL_OK(aclrtDestroyStream(s));
}

/* Forced destroys of streams parked on value waits return at once, the
 * work behind the waits runs once they pass, and later waits still work. */
static void test_force_destroy_parked_waits(void **state)
{
    (void)state;
    set_u64(g_word, 0);
    for (int i = 0; i < 20; i++) {
        aclrtStream s;
        ACL_OK(aclrtCreateStream(&s));
        ACL_OK(aclrtValueWait(g_word, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
        ACL_OK(aclrtValueWrite(g_marker, 5, 0, s));
        if (i % 2)
            test_sleep_ms(1);
        ACL_OK(aclrtDestroyStreamForce(s));
    }
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtValueWait(g_word, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    set_u64(g_marker, 0);
    set_u64(g_word, 1);
    ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtSynchronizeDevice()); /* the destroyed streams drain too */
    assert_int_equal(get_u64(g_marker), 5);
}

/* Many streams each wait for their own value of one word. */
static void test_many_waiters(void **state)
{
    (void)state;
    enum { N = 16 };
    aclrtStream s[N];
    set_u64(g_word, 0);
    for (int i = 0; i < N; i++) {
        ACL_OK(aclrtCreateStream(&s[i]));
        ACL_OK(aclrtValueWait(g_word, (uint64_t)i + 1, ACL_STREAM_WAIT_VALUE_GEQ, s[i]));
    }
    aclrtStream w;
    ACL_OK(aclrtCreateStream(&w));
    for (int i = 0; i < N; i++) {
        ACL_OK(aclrtValueWrite(g_word, (uint64_t)i + 1, 0, w));
        ACL_OK(aclrtSynchronizeStreamWithTimeout(s[i], 5000));
        /* Streams waiting for larger values are still held. */
        if (i + 1 < N)
            assert_int_equal(query(s[N - 1]), ACL_STREAM_STATUS_NOT_READY);
    }
    for (int i = 0; i < N; i++)
        ACL_OK(aclrtDestroyStream(s[i]));
    ACL_OK(aclrtDestroyStream(w));
}

static void test_bad_inputs(void **state)
{
    (void)state;
    ACL_ERR(aclrtValueWrite(NULL, 1, 0, NULL), ACL_ERROR_INVALID_PARAM, "devAddr is NULL");
    ACL_ERR(aclrtValueWait(NULL, 1, 0, NULL), ACL_ERROR_INVALID_PARAM, "devAddr is NULL");
    ACL_ERR(aclrtValueWrite(g_word, 1, 1, NULL), ACL_ERROR_INVALID_PARAM, "reserved");
    ACL_ERR(aclrtValueWait(g_word, 1, 4, NULL), ACL_ERROR_INVALID_PARAM, "ACL_STREAM_WAIT_VALUE");
    ACL_ERR(aclrtValueWrite((char *)g_word + 4, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "not 8-byte aligned");
    ACL_ERR(aclrtValueWait((char *)g_word + 1, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "not 8-byte aligned");
    /* Host memory of any kind is no device memory. */
    uint64_t *heap = malloc(64);
    assert_non_null(heap);
    uint64_t stack_word = 0;
    void *pinned = NULL;
    ACL_OK(aclrtMallocHost(&pinned, 64));
    void *hosts[] = {heap, &stack_word, pinned, g_buf.host};
    for (size_t i = 0; i < 4; i++) {
        ACL_ERR(aclrtValueWrite(hosts[i], 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "not device memory");
        ACL_ERR(aclrtValueWait(hosts[i], 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "not device memory");
    }
    ACL_OK(aclrtFreeHost(pinned));
    free(heap);
    /* Freed device memory is no device memory either. */
    void *gone = NULL;
    ACL_OK(aclrtMalloc(&gone, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtFree(gone));
    ACL_ERR(aclrtValueWrite(gone, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "not device memory");
    /* Memory of another device. */
    ACL_OK(aclrtSetDevice(1));
    void *other = NULL;
    ACL_OK(aclrtMalloc(&other, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    aclrtStream foreign;
    ACL_OK(aclrtCreateStream(&foreign));
    ACL_ERR(aclrtValueWrite(g_word, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "belongs to device 0");
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtValueWait(other, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "belongs to device 1");
    /* Streams: another context's, a destroyed one. */
    ACL_ERR(aclrtValueWrite(g_word, 1, 0, foreign), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_ERR(aclrtValueWait(g_word, 1, 0, foreign), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    aclrtStream dead;
    ACL_OK(aclrtCreateStream(&dead));
    ACL_OK(aclrtDestroyStream(dead));
    ACL_ERR(aclrtValueWrite(g_word, 1, 0, dead), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    /* Nothing was written by the refused calls. */
    set_u64(g_word, 3);
    ACL_ERR(aclrtValueWrite(g_word, 1, 1, NULL), ACL_ERROR_INVALID_PARAM, NULL);
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(get_u64(g_word), 3);
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtDestroyStream(foreign));
    ACL_OK(aclrtFree(other));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_conditions),
        cmocka_unit_test(test_orders_two_streams),
        cmocka_unit_test(test_kernel_releases_wait),
        cmocka_unit_test(test_host_releases_wait),
        cmocka_unit_test(test_force_destroy_parked_waits),
        cmocka_unit_test(test_many_waiters),
        cmocka_unit_test(test_bad_inputs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
