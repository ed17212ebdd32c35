/*
 * Shared buffers (acl-rt-misc.md 3.4): aclrtAllocBuf / FreeBuf, data area
 * and data length, user data, aclrtCopyBufRef, chains. No aclInit or
 * context is needed; the data area is runtime host memory that copies and
 * kernels can use.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static aclrtMbuf alloc(size_t size)
{
    aclrtMbuf b = NULL;
    ACL_OK(aclrtAllocBuf(&b, size));
    assert_non_null(b);
    return b;
}

static size_t data_len(aclrtMbuf b)
{
    size_t n = 12345;
    ACL_OK(aclrtGetBufDataLen(b, &n));
    return n;
}

static uint32_t chain_num(aclrtMbuf b)
{
    uint32_t n = 0;
    ACL_OK(aclrtGetBufChainNum(b, &n));
    return n;
}

static aclrtMbuf chain_at(aclrtMbuf head, uint32_t i)
{
    aclrtMbuf m = NULL;
    ACL_OK(aclrtGetBufFromChain(head, i, &m));
    return m;
}

/* ---- allocation, data area, data length ---- */

static void test_alloc(void **state)
{
    (void)state;
    aclrtMbuf b = alloc(1000);
    void *p = NULL;
    size_t size = 0;
    ACL_OK(aclrtGetBufData(b, &p, &size));
    assert_non_null(p);
    assert_int_equal(size, 1000);
    assert_int_equal((uintptr_t)p % 64, 0);
    unsigned char zero[1000] = {0};
    assert_memory_equal(p, zero, sizeof(zero)); /* zero-filled */
    memset(p, 0xab, size);                      /* usable by the host */
    assert_int_equal(data_len(b), 0);
    ACL_OK(aclrtSetBufDataLen(b, 10));
    assert_int_equal(data_len(b), 10);
    ACL_OK(aclrtSetBufDataLen(b, 1000)); /* the whole capacity is fine */
    assert_int_equal(data_len(b), 1000);
    ACL_OK(aclrtSetBufDataLen(b, 0));
    assert_int_equal(data_len(b), 0);
    /* One byte and a size that is not a page multiple. */
    aclrtMbuf c = alloc(1);
    ACL_OK(aclrtGetBufData(c, &p, &size));
    assert_int_equal(size, 1);
    ACL_OK(aclrtFreeBuf(c));
    ACL_OK(aclrtFreeBuf(b));
    /* No device, context or aclInit was involved; no last error. */
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

static void test_alloc_errors(void **state)
{
    (void)state;
    aclrtMbuf b = (aclrtMbuf)(uintptr_t)0x77;
    ACL_ERR(aclrtAllocBuf(NULL, 8), ACL_ERROR_INVALID_PARAM, "aclrtAllocBuf: buf is NULL");
    ACL_ERR(aclrtAllocBuf(&b, 0), ACL_ERROR_INVALID_PARAM, "aclrtAllocBuf: size is 0");
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    ACL_ERR(aclrtAllocBuf(&b, ((size_t)4 << 30) + 1), ACL_ERROR_RT_PARAM_INVALID, "exceeds the mbuf limit of 4 GiB");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    ACL_ERR(aclrtAllocBuf(&b, SIZE_MAX), ACL_ERROR_RT_PARAM_INVALID, "4 GiB");
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    assert_ptr_equal(b, (aclrtMbuf)(uintptr_t)0x77); /* untouched */
}

static void test_data_len_errors(void **state)
{
    (void)state;
    aclrtMbuf b = alloc(64);
    ACL_OK(aclrtSetBufDataLen(b, 32));
    ACL_ERR(aclrtSetBufDataLen(b, 65), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtSetBufDataLen: len 65 exceeds the data area of 64 bytes");
    ACL_ERR(aclrtSetBufDataLen(b, SIZE_MAX), ACL_ERROR_RT_PARAM_INVALID, "exceeds the data area");
    ACL_ERR(aclrtSetBufDataLen(NULL, 1), ACL_ERROR_INVALID_PARAM, "aclrtSetBufDataLen: buf is NULL");
    size_t n = 99;
    ACL_ERR(aclrtGetBufDataLen(NULL, &n), ACL_ERROR_INVALID_PARAM, "aclrtGetBufDataLen: buf is NULL");
    ACL_ERR(aclrtGetBufDataLen(b, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetBufDataLen: len is NULL");
    void *p = (void *)(uintptr_t)1;
    size_t size = 7;
    ACL_ERR(aclrtGetBufData(NULL, &p, &size), ACL_ERROR_INVALID_PARAM, "aclrtGetBufData: buf is NULL");
    ACL_ERR(aclrtGetBufData(b, NULL, &size), ACL_ERROR_INVALID_PARAM, "dataPtr is NULL");
    ACL_ERR(aclrtGetBufData(b, &p, NULL), ACL_ERROR_INVALID_PARAM, "size is NULL");
    assert_int_equal(n, 99);
    assert_ptr_equal(p, (void *)(uintptr_t)1);
    assert_int_equal(size, 7);
    assert_int_equal(data_len(b), 32); /* unchanged */
    ACL_OK(aclrtFreeBuf(b));
    /* A freed handle and other handles are not mbufs. */
    ACL_ERR(aclrtSetBufDataLen(b, 1), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSetBufDataLen: buf");
    ACL_ERR(aclrtGetBufDataLen(b, &n), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
    ACL_ERR(aclrtGetBufData(b, &p, &size), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
    ACL_ERR(aclrtFreeBuf(b), ACL_ERROR_RT_INVALID_HANDLE, "aclrtFreeBuf: buf");
    ACL_ERR(aclrtFreeBuf((aclrtMbuf)&n), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
    ACL_ERR(aclrtFreeBuf(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFreeBuf: buf is NULL");
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_ERR(aclrtFreeBuf(s), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
    ACL_OK(aclrtDestroyStream(s));
    assert_int_equal(n, 99);
}

/* ---- the data area is runtime host memory ---- */

static void test_data_area_in_copies(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtMbuf a = alloc(4096), b = alloc(4096);
    unsigned char *pa, *pb;
    size_t size;
    ACL_OK(aclrtGetBufData(a, (void **)&pa, &size));
    ACL_OK(aclrtGetBufData(b, (void **)&pb, &size));
    for (size_t i = 0; i < size; i++)
        pa[i] = (unsigned char)(i * 7);
    void *dev = NULL;
    ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(dev, 4096, pa, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(pb, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_memory_equal(pa, pb, 4096);
    /* Host memory for the copy checks: not a device address. */
    ACL_ERR(aclrtMemcpy(pb, 4096, pa, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, NULL);
    /* It is not aclrtMallocHost or aclrtMalloc memory either. */
    ACL_ERR(aclrtFreeHost(pa), ACL_ERROR_RT_PARAM_INVALID, NULL);
    ACL_ERR(aclrtFree(pa), ACL_ERROR_RT_PARAM_INVALID, NULL);
    assert_int_equal(pa[5], 35); /* still there */
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    ACL_OK(aclrtFree(dev));
    ACL_OK(aclrtFreeBuf(a));
    ACL_OK(aclrtFreeBuf(b));
}

/* A kernel reads and writes an mbuf's data area through its address. */
static void test_data_area_in_kernels(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_devq", "concurrency", &bin, &f);
    aclrtMbuf m = alloc(64);
    void *p;
    size_t size;
    ACL_OK(aclrtGetBufData(m, &p, &size));
    uint32_t limit = 1000, polls = 1;
    const void *vals[] = {&p, &limit, &polls};
    const size_t sizes[] = {sizeof(void *), sizeof(uint32_t), sizeof(uint32_t)};
    ACL_OK(test_launch(f, 6, NULL, 3, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(NULL));
    const uint32_t *st = p;
    assert_int_equal(st[0], 0); /* running now */
    assert_int_equal(st[2], 6); /* finished blocks */
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtFreeBuf(m));
}

/* ---- user data ---- */

static void test_user_data(void **state)
{
    (void)state;
    aclrtMbuf b = alloc(16);
    unsigned char in[96], out[96];
    memset(out, 0xee, sizeof(out));
    ACL_OK(aclrtGetBufUserData(b, out, 96, 0));
    unsigned char zero[96] = {0};
    assert_memory_equal(out, zero, 96); /* zero-initialised */
    for (int i = 0; i < 96; i++)
        in[i] = (unsigned char)(i + 1);
    ACL_OK(aclrtSetBufUserData(b, in, 96, 0));
    ACL_OK(aclrtGetBufUserData(b, out, 96, 0));
    assert_memory_equal(in, out, 96);
    /* Partial ranges, up to the last byte. */
    unsigned char six[6] = {9, 8, 7, 6, 5, 4}, got[6];
    ACL_OK(aclrtSetBufUserData(b, six, 6, 90));
    ACL_OK(aclrtGetBufUserData(b, got, 6, 90));
    assert_memory_equal(got, six, 6);
    ACL_OK(aclrtGetBufUserData(b, got, 1, 0));
    assert_int_equal(got[0], 1);
    /* size 0: Set succeeds and copies nothing; Get is CANN's 500001. */
    ACL_OK(aclrtSetBufUserData(b, six, 0, 96));
    ACL_ERR(aclrtGetBufUserData(b, got, 0, 0), ACL_ERROR_FAILURE, "aclrtGetBufUserData: size is 0");
    ACL_ERR(aclrtGetBufUserData(b, got, 0, 96), ACL_ERROR_FAILURE, "size is 0");
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS); /* not a runtime code */
    ACL_OK(aclrtFreeBuf(b));
}

static void test_user_data_errors(void **state)
{
    (void)state;
    aclrtMbuf b = alloc(16);
    unsigned char in[128], out[128];
    memset(in, 1, sizeof(in));
    ACL_OK(aclrtSetBufUserData(b, in, 96, 0));
    memset(in, 2, sizeof(in));
    memset(out, 0xcc, sizeof(out));
    ACL_ERR(aclrtSetBufUserData(b, in, 7, 90), ACL_ERROR_INVALID_PARAM,
            "aclrtSetBufUserData: offset 90 + size 7 runs past the 96 bytes of user data");
    ACL_ERR(aclrtGetBufUserData(b, out, 7, 90), ACL_ERROR_INVALID_PARAM,
            "aclrtGetBufUserData: offset 90 + size 7 runs past");
    ACL_ERR(aclrtSetBufUserData(b, in, 97, 0), ACL_ERROR_INVALID_PARAM, "size 97");
    ACL_ERR(aclrtGetBufUserData(b, out, 0, 97), ACL_ERROR_INVALID_PARAM, "offset 97");
    /* No overflow in the range test. */
    ACL_ERR(aclrtSetBufUserData(b, in, SIZE_MAX, 1), ACL_ERROR_INVALID_PARAM, "runs past");
    ACL_ERR(aclrtGetBufUserData(b, out, 1, SIZE_MAX), ACL_ERROR_INVALID_PARAM, "runs past");
    /* The range comes before the NULL checks. */
    ACL_ERR(aclrtGetBufUserData(NULL, NULL, 7, 90), ACL_ERROR_INVALID_PARAM, "runs past");
    ACL_ERR(aclrtSetBufUserData(NULL, in, 1, 0), ACL_ERROR_INVALID_PARAM, "aclrtSetBufUserData: buf is NULL");
    ACL_ERR(aclrtSetBufUserData(b, NULL, 0, 0), ACL_ERROR_INVALID_PARAM, "dataPtr is NULL");
    ACL_ERR(aclrtGetBufUserData(b, NULL, 4, 0), ACL_ERROR_INVALID_PARAM, "aclrtGetBufUserData: dataPtr is NULL");
    ACL_ERR(aclrtGetBufUserData(NULL, out, 4, 0), ACL_ERROR_INVALID_PARAM, "buf is NULL");
    /* Nothing was written either way. */
    for (size_t i = 0; i < sizeof(out); i++)
        assert_int_equal(out[i], 0xcc);
    ACL_OK(aclrtGetBufUserData(b, out, 96, 0));
    for (int i = 0; i < 96; i++)
        assert_int_equal(out[i], 1);
    ACL_OK(aclrtFreeBuf(b));
    ACL_ERR(aclrtGetBufUserData(b, out, 4, 0), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
    ACL_ERR(aclrtSetBufUserData(b, in, 4, 0), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
    ACL_ERR(aclrtGetBufUserData(b, out, 0, 0), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
}

/* ---- references ---- */

static void test_copy_ref(void **state)
{
    (void)state;
    aclrtMbuf a = alloc(256);
    unsigned char tag[4] = {1, 2, 3, 4};
    ACL_OK(aclrtSetBufUserData(a, tag, 4, 10));
    ACL_OK(aclrtSetBufDataLen(a, 100));
    aclrtMbuf b = NULL;
    ACL_OK(aclrtCopyBufRef(a, &b));
    assert_non_null(b);
    assert_true(a != b);
    void *pa, *pb;
    size_t sa, sb;
    ACL_OK(aclrtGetBufData(a, &pa, &sa));
    ACL_OK(aclrtGetBufData(b, &pb, &sb));
    assert_ptr_equal(pa, pb); /* one data area */
    assert_int_equal(sa, sb);
    memset(pa, 0x5c, 256);
    assert_int_equal(((unsigned char *)pb)[255], 0x5c);
    /* Copies of the length and of the user data, independent afterwards. */
    assert_int_equal(data_len(b), 100);
    unsigned char got[4];
    ACL_OK(aclrtGetBufUserData(b, got, 4, 10));
    assert_memory_equal(got, tag, 4);
    ACL_OK(aclrtSetBufDataLen(b, 7));
    assert_int_equal(data_len(a), 100);
    unsigned char other[4] = {9, 9, 9, 9};
    ACL_OK(aclrtSetBufUserData(b, other, 4, 10));
    ACL_OK(aclrtGetBufUserData(a, got, 4, 10));
    assert_memory_equal(got, tag, 4);
    /* Not part of a chain. */
    assert_int_equal(chain_num(b), 1);
    /* The data area lives until its last mbuf goes. */
    ACL_OK(aclrtFreeBuf(a));
    assert_int_equal(((unsigned char *)pb)[0], 0x5c);
    ACL_OK(aclrtGetBufData(b, &pb, &sb));
    assert_ptr_equal(pb, pa);
    ACL_OK(aclrtFreeBuf(b));
    ACL_ERR(aclrtFreeBuf(b), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");

    /* Errors. */
    aclrtMbuf c = alloc(8), keep = (aclrtMbuf)(uintptr_t)0x99;
    ACL_ERR(aclrtCopyBufRef(NULL, &keep), ACL_ERROR_INVALID_PARAM, "aclrtCopyBufRef: buf is NULL");
    ACL_ERR(aclrtCopyBufRef(c, NULL), ACL_ERROR_INVALID_PARAM, "newBuf is NULL");
    ACL_ERR(aclrtCopyBufRef(a, &keep), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
    assert_ptr_equal(keep, (aclrtMbuf)(uintptr_t)0x99);
    ACL_OK(aclrtFreeBuf(c));
}

/* ---- chains ---- */

static void test_chain(void **state)
{
    (void)state;
    aclrtMbuf head = alloc(8), m[3];
    for (int i = 0; i < 3; i++) {
        m[i] = alloc(16 + (size_t)i);
        ACL_OK(aclrtAppendBufChain(head, m[i]));
    }
    assert_int_equal(chain_num(head), 4);
    assert_ptr_equal(chain_at(head, 0), head);
    for (uint32_t i = 0; i < 3; i++)
        assert_ptr_equal(chain_at(head, i + 1), m[i]);
    /* Queries count from any mbuf. */
    assert_int_equal(chain_num(m[1]), 2);
    assert_ptr_equal(chain_at(m[1], 1), m[2]);
    assert_int_equal(chain_num(m[2]), 1);
    /* Members keep their own data. */
    void *p;
    size_t size;
    ACL_OK(aclrtGetBufData(chain_at(head, 2), &p, &size));
    assert_int_equal(size, 17);

    aclrtMbuf out = (aclrtMbuf)(uintptr_t)0x42;
    uint32_t n = 77;
    ACL_ERR(aclrtGetBufFromChain(head, 4, &out), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtGetBufFromChain: index 4 is outside the chain of 4 mbufs");
    ACL_ERR(aclrtGetBufFromChain(m[2], 1, &out), ACL_ERROR_RT_PARAM_INVALID, "outside the chain of 1 mbufs");
    ACL_ERR(aclrtGetBufFromChain(head, UINT32_MAX, &out), ACL_ERROR_RT_PARAM_INVALID, "index 4294967295");
    ACL_ERR(aclrtGetBufFromChain(NULL, 0, &out), ACL_ERROR_INVALID_PARAM, "aclrtGetBufFromChain: headBuf is NULL");
    ACL_ERR(aclrtGetBufFromChain(head, 0, NULL), ACL_ERROR_INVALID_PARAM, "buf is NULL");
    ACL_ERR(aclrtGetBufChainNum(NULL, &n), ACL_ERROR_INVALID_PARAM, "aclrtGetBufChainNum: headBuf is NULL");
    ACL_ERR(aclrtGetBufChainNum(head, NULL), ACL_ERROR_INVALID_PARAM, "num is NULL");
    assert_ptr_equal(out, (aclrtMbuf)(uintptr_t)0x42);
    assert_int_equal(n, 77);

    /* Appending: members and self are refused (Decision 3). */
    aclrtMbuf lone = alloc(8);
    ACL_ERR(aclrtAppendBufChain(head, m[1]), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtAppendBufChain: buf");
    ACL_ERR(aclrtAppendBufChain(head, m[1]), ACL_ERROR_RT_PARAM_INVALID, "is already a member of a chain");
    ACL_ERR(aclrtAppendBufChain(m[0], lone), ACL_ERROR_RT_PARAM_INVALID, "headBuf");
    ACL_ERR(aclrtAppendBufChain(m[0], lone), ACL_ERROR_RT_PARAM_INVALID, "is a member of a chain, not its first");
    ACL_ERR(aclrtAppendBufChain(head, head), ACL_ERROR_RT_PARAM_INVALID, "are the same mbuf");
    ACL_ERR(aclrtAppendBufChain(NULL, lone), ACL_ERROR_INVALID_PARAM, "headBuf is NULL");
    ACL_ERR(aclrtAppendBufChain(head, NULL), ACL_ERROR_INVALID_PARAM, "buf is NULL");
    assert_int_equal(chain_num(head), 4);
    assert_int_equal(chain_num(lone), 1);

    /* Only the first mbuf frees a chain. */
    ACL_ERR(aclrtFreeBuf(m[1]), ACL_ERROR_RT_PARAM_INVALID, "aclrtFreeBuf: buf");
    ACL_ERR(aclrtFreeBuf(m[1]), ACL_ERROR_RT_PARAM_INVALID, "is a member of a chain");
    assert_int_equal(chain_num(head), 4);
    ACL_OK(aclrtFreeBuf(head));
    /* Every member went with it. */
    for (int i = 0; i < 3; i++) {
        size_t len;
        ACL_ERR(aclrtGetBufDataLen(m[i], &len), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
    }
    ACL_ERR(aclrtGetBufChainNum(head, &n), ACL_ERROR_RT_INVALID_HANDLE, "aclrtGetBufChainNum: headBuf");
    ACL_ERR(aclrtGetBufFromChain(head, 0, &out), ACL_ERROR_RT_INVALID_HANDLE, "is not a live mbuf");
    ACL_ERR(aclrtAppendBufChain(head, lone), ACL_ERROR_RT_INVALID_HANDLE, "headBuf");
    ACL_ERR(aclrtAppendBufChain(lone, m[0]), ACL_ERROR_RT_INVALID_HANDLE, "aclrtAppendBufChain: buf");
    assert_int_equal(chain_num(lone), 1);
    ACL_OK(aclrtFreeBuf(lone));
}

/* Appending a chain brings all of it; at most 128 mbufs. */
static void test_chain_limits(void **state)
{
    (void)state;
    aclrtMbuf a = alloc(8), b = alloc(8);
    ACL_OK(aclrtAppendBufChain(b, alloc(8)));
    ACL_OK(aclrtAppendBufChain(b, alloc(8)));
    assert_int_equal(chain_num(b), 3);
    ACL_OK(aclrtAppendBufChain(a, b));
    assert_int_equal(chain_num(a), 4);
    assert_ptr_equal(chain_at(a, 1), b);
    ACL_ERR(aclrtFreeBuf(b), ACL_ERROR_RT_PARAM_INVALID, "is a member of a chain"); /* b is a member now */

    while (chain_num(a) < 126)
        ACL_OK(aclrtAppendBufChain(a, alloc(8)));
    aclrtMbuf pair = alloc(8), single = alloc(8);
    ACL_OK(aclrtAppendBufChain(pair, alloc(8)));
    ACL_OK(aclrtAppendBufChain(pair, alloc(8)));
    /* 126 + 3 > 128. */
    ACL_ERR(aclrtAppendBufChain(a, pair), ACL_ERROR_RT_PARAM_INVALID,
            "the chain would hold 129 mbufs (126 + 3); at most 128");
    assert_int_equal(chain_num(a), 126);
    assert_int_equal(chain_num(pair), 3);
    ACL_OK(aclrtAppendBufChain(a, single));
    ACL_OK(aclrtAppendBufChain(a, alloc(8)));
    assert_int_equal(chain_num(a), 128);
    aclrtMbuf extra = alloc(8);
    ACL_ERR(aclrtAppendBufChain(a, extra), ACL_ERROR_RT_PARAM_INVALID, "129 mbufs");
    assert_int_equal(chain_num(a), 128);
    aclrtMbuf last = chain_at(a, 127), none = NULL;
    assert_non_null(last);
    assert_int_equal(chain_num(last), 1);
    ACL_ERR(aclrtGetBufFromChain(a, 128, &none), ACL_ERROR_RT_PARAM_INVALID, "outside the chain of 128 mbufs");
    ACL_OK(aclrtFreeBuf(a));
    ACL_OK(aclrtFreeBuf(pair));
    ACL_OK(aclrtFreeBuf(extra));
}

/* ---- threads: different mbufs and chains at once ---- */

#define THREADS 4

static void *chain_worker(void *arg)
{
    int bad = 0;
    (void)arg;
    for (int round = 0; round < 50; round++) {
        aclrtMbuf head = NULL, m = NULL, ref = NULL;
        bad |= aclrtAllocBuf(&head, 128) != ACL_SUCCESS;
        for (int i = 0; i < 5; i++) {
            bad |= aclrtAllocBuf(&m, 64) != ACL_SUCCESS;
            bad |= aclrtAppendBufChain(head, m) != ACL_SUCCESS;
        }
        bad |= aclrtCopyBufRef(m, &ref) != ACL_SUCCESS;
        uint32_t n = 0;
        bad |= aclrtGetBufChainNum(head, &n) != ACL_SUCCESS || n != 6;
        bad |= aclrtFreeBuf(head) != ACL_SUCCESS;
        void *p = NULL;
        size_t size = 0;
        bad |= aclrtGetBufData(ref, &p, &size) != ACL_SUCCESS || size != 64;
        bad |= aclrtFreeBuf(ref) != ACL_SUCCESS;
    }
    return (void *)(uintptr_t)bad;
}

static void test_threads(void **state)
{
    (void)state;
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, chain_worker, NULL), 0);
    for (int i = 0; i < THREADS; i++) {
        void *r = (void *)1;
        assert_int_equal(pthread_join(t[i], &r), 0);
        assert_null(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_alloc, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_alloc_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_data_len_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_data_area_in_copies, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_data_area_in_kernels, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_user_data, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_user_data_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_copy_ref, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_chain, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_chain_limits, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_threads, oacl_test_reset_fixture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
