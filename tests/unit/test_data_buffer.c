/*
 * Data buffers (acl-rt-misc.md 3.1): aclCreateDataBuffer, aclDestroyDataBuffer,
 * aclGetDataBufferAddr, aclGetDataBufferSize (deprecated: 32 bits),
 * aclGetDataBufferSizeV2, aclUpdateDataBuffer. Pure host objects: no
 * aclInit, device or context, and the last-error slot is never touched.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static uint32_t size32(const aclDataBuffer *b) { return aclGetDataBufferSize(b); }
#pragma GCC diagnostic pop

static void test_create_and_query(void **state)
{
    (void)state;
    char host[64];
    aclDataBuffer *b = aclCreateDataBuffer(host, sizeof(host));
    assert_non_null(b);
    assert_ptr_equal(aclGetDataBufferAddr(b), host);
    assert_int_equal(aclGetDataBufferSizeV2(b), sizeof(host));
    assert_int_equal(size32(b), sizeof(host));
    ACL_OK(aclDestroyDataBuffer(b));

    /* Nothing is checked: NULL with 0, NULL with a size, any address. */
    b = aclCreateDataBuffer(NULL, 0);
    assert_non_null(b);
    assert_null(aclGetDataBufferAddr(b));
    assert_int_equal(aclGetDataBufferSizeV2(b), 0);
    assert_int_equal(size32(b), 0);
    ACL_OK(aclDestroyDataBuffer(b));
    b = aclCreateDataBuffer(NULL, 100);
    assert_non_null(b);
    assert_int_equal(aclGetDataBufferSizeV2(b), 100);
    ACL_OK(aclDestroyDataBuffer(b));
    void *odd = (void *)(uintptr_t)0x1234567;
    b = aclCreateDataBuffer(odd, SIZE_MAX);
    assert_non_null(b);
    assert_ptr_equal(aclGetDataBufferAddr(b), odd);
    assert_true(aclGetDataBufferSizeV2(b) == SIZE_MAX);
    assert_int_equal(size32(b), UINT32_MAX);
    ACL_OK(aclDestroyDataBuffer(b));
    /* Device memory is just an address too; no context is needed. */
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

/* The deprecated query keeps only the low 32 bits; V2 the whole size. */
static void test_size_widths(void **state)
{
    (void)state;
    size_t big = ((size_t)1 << 32) + 16;
    aclDataBuffer *b = aclCreateDataBuffer(NULL, big);
    assert_non_null(b);
    assert_true(aclGetDataBufferSizeV2(b) == big);
    assert_int_equal(size32(b), 16);
    ACL_OK(aclUpdateDataBuffer(b, NULL, (size_t)1 << 32));
    assert_true(aclGetDataBufferSizeV2(b) == (size_t)1 << 32);
    assert_int_equal(size32(b), 0);
    ACL_OK(aclDestroyDataBuffer(b));
}

static void test_update(void **state)
{
    (void)state;
    char first[8], second[32];
    aclDataBuffer *b = aclCreateDataBuffer(first, sizeof(first));
    assert_non_null(b);
    ACL_OK(aclUpdateDataBuffer(b, second, sizeof(second)));
    assert_ptr_equal(aclGetDataBufferAddr(b), second);
    assert_int_equal(aclGetDataBufferSizeV2(b), sizeof(second));
    ACL_OK(aclUpdateDataBuffer(b, NULL, 0));
    assert_null(aclGetDataBufferAddr(b));
    assert_int_equal(aclGetDataBufferSizeV2(b), 0);
    /* The memory described is never the buffer's: destroying leaves it. */
    first[0] = 'x';
    ACL_OK(aclUpdateDataBuffer(b, first, 1));
    ACL_OK(aclDestroyDataBuffer(b));
    assert_int_equal(first[0], 'x');
}

static void test_bad_inputs(void **state)
{
    (void)state;
    char host[4];
    aclDataBuffer *b = aclCreateDataBuffer(host, sizeof(host));
    assert_non_null(b);
    ACL_ERR(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM, "aclDestroyDataBuffer: dataBuffer is NULL");
    ACL_ERR(aclUpdateDataBuffer(NULL, host, 1), ACL_ERROR_INVALID_PARAM, "aclUpdateDataBuffer: dataBuffer is NULL");
    ACL_ERR(aclUpdateDataBuffer(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
    /* Queries of NULL: NULL / 0, no code and no message. */
    oacl_test_clear_msgs();
    assert_null(aclGetDataBufferAddr(NULL));
    assert_int_equal(aclGetDataBufferSizeV2(NULL), 0);
    assert_int_equal(size32(NULL), 0);
    assert_null(aclGetRecentErrMsg());
    /* API-layer codes: no last error; the existing buffer is intact. */
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    assert_ptr_equal(aclGetDataBufferAddr(b), host);
    assert_int_equal(aclGetDataBufferSizeV2(b), sizeof(host));
    ACL_OK(aclDestroyDataBuffer(b));
}

#define THREADS 4
#define PER_THREAD 2000

static void *churn(void *arg)
{
    uintptr_t base = (uintptr_t)arg;
    aclDataBuffer *mine[16];
    int bad = 0;
    for (int i = 0; i < PER_THREAD; i++) {
        int k = i % 16;
        if (i >= 16) {
            bad |= aclGetDataBufferAddr(mine[k]) != (void *)(base + (uintptr_t)(i - 16));
            bad |= aclDestroyDataBuffer(mine[k]) != ACL_SUCCESS;
        }
        mine[k] = aclCreateDataBuffer((void *)(base + (uintptr_t)i), (size_t)i);
        bad |= mine[k] == NULL;
    }
    for (int k = 0; k < 16; k++)
        bad |= aclDestroyDataBuffer(mine[k]) != ACL_SUCCESS;
    return (void *)(uintptr_t)bad;
}

/* Different buffers from different threads. */
static void test_threads(void **state)
{
    (void)state;
    pthread_t t[THREADS];
    for (uintptr_t i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, churn, (void *)((i + 1) << 32)), 0);
    for (int i = 0; i < THREADS; i++) {
        void *r = NULL;
        assert_int_equal(pthread_join(t[i], &r), 0);
        assert_null(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_and_query),
        cmocka_unit_test(test_size_widths),
        cmocka_unit_test(test_update),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
