/*
 * Device memory and synchronous copies: aclrtMalloc, aclrtMallocAlign32,
 * aclrtFree, aclrtGetMemInfo, aclrtMemcpy.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

static aclrtBinHandle g_bin;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

static size_t free_bytes(void)
{
    size_t f = 0, t = 0;
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t));
    return f;
}

static void test_malloc_basics(void **state)
{
    (void)state;
    size_t total = 0, before = 0;
    ACL_OK(aclrtGetMemInfo(ACL_DDR_MEM, &before, &total));
    assert_true(total >= (size_t)16 << 30); /* the profile's 64 GiB, or a configured size */
    void *a, *b, *c;
    ACL_OK(aclrtMalloc(&a, 1, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&b, 1000, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtMallocAlign32(&c, 100, ACL_MEM_MALLOC_HUGE_ONLY));
    assert_int_equal((uintptr_t)a % 64, 0);
    assert_int_equal((uintptr_t)b % 64, 0);
    assert_int_equal((uintptr_t)c % 64, 0);
    /* Sizes: round up to 32 and add 32 (Align32: no extra 32). */
    assert_int_equal(before - free_bytes(), 64 + 1056 + 128);
    /* Distinct, usable, and not overlapping. */
    memset(a, 1, 64);
    memset(b, 2, 1056);
    memset(c, 3, 128);
    assert_int_equal(((unsigned char *)a)[63], 1);
    assert_int_equal(((unsigned char *)b)[0], 2);
    assert_int_equal(((unsigned char *)c)[127], 3);
    /* Device memory is not host memory: aclrtFreeHost refuses it. */
    ACL_ERR(aclrtFreeHost(a), ACL_ERROR_RT_PARAM_INVALID, "not memory from aclrtMallocHost");
    ACL_OK(aclrtFree(a));
    ACL_OK(aclrtFree(b));
    ACL_OK(aclrtFree(c));
    assert_int_equal(free_bytes(), before);
}

static void test_malloc_errors(void **state)
{
    (void)state;
    void *p = (void *)0x1;
    ACL_ERR(aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "devPtr");
    ACL_ERR(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtMallocAlign32(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "size is 0");
    void *held;
    ACL_OK(aclrtMalloc(&held, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t before = free_bytes();
    ACL_ERR(aclrtMalloc(&p, before + 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
            "out of memory");
    ACL_ERR(aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION, "exceed");
    assert_ptr_equal(p, (void *)0x1);
    assert_int_equal(free_bytes(), before);
    ACL_OK(aclrtFree(held));
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_MEMORY_ALLOCATION);
    size_t f, t;
    ACL_ERR(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &t), ACL_ERROR_INVALID_PARAM, "free");
    ACL_ERR(aclrtGetMemInfo(ACL_HBM_MEM, &f, NULL), ACL_ERROR_INVALID_PARAM, "total");
    ACL_ERR(aclrtGetMemInfo((aclrtMemAttr)18, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE, "attr 18");
}

static void *no_context_thread(void *arg)
{
    (void)arg;
    void *p;
    size_t f, t;
    ACL_ERR(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL, "no current context");
    ACL_ERR(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_ERROR_RT_CONTEXT_NULL, "no current context");
    char a[8], b[8] = "1234567";
    ACL_ERR(aclrtMemcpy(a, 8, b, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_CONTEXT_NULL, "no current context");
    return NULL;
}

static void test_no_context(void **state)
{
    (void)state;
    oacl_test_run_thread(no_context_thread, NULL);
}

static void test_free_errors(void **state)
{
    (void)state;
    void *d, *h;
    ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost(&h, 4096));
    int local;
    ACL_ERR(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM, "devPtr");
    ACL_ERR(aclrtFree(&local), ACL_ERROR_RT_PARAM_INVALID, "not allocated by aclrtMalloc");
    ACL_ERR(aclrtFree(h), ACL_ERROR_RT_PARAM_INVALID, "pinned host memory");
    ACL_ERR(aclrtFree((char *)d + 64), ACL_ERROR_RT_PARAM_INVALID, "points inside");
    ACL_OK(aclrtHostRegisterV2(h, 4096, ACL_HOST_REG_MAPPED));
    void *alias;
    ACL_OK(aclrtHostGetDevicePointer(h, &alias, 0));
    ACL_ERR(aclrtFree(alias), ACL_ERROR_RT_PARAM_INVALID, "mapped host memory");
    ACL_OK(aclrtHostUnregister(h));
    ACL_OK(aclrtFreeHost(h));
    ACL_OK(aclrtFree(d));
    ACL_ERR(aclrtFree(d), ACL_ERROR_RT_PARAM_INVALID, "not allocated by aclrtMalloc");
}

/* Freed memory is reused, never handed to two live allocations. */
static void test_reuse_without_overlap(void **state)
{
    (void)state;
    enum { N = 64 };
    void *p[N];
    size_t sizes[N];
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < N; i++) {
            sizes[i] = (size_t)(37 * i + 1) * (round + 1) * 97;
            ACL_OK(aclrtMalloc(&p[i], sizes[i], ACL_MEM_MALLOC_HUGE_FIRST));
            memset(p[i], i, sizes[i]);
        }
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (i != j)
                    assert_true((char *)p[i] + sizes[i] <= (char *)p[j] || (char *)p[j] + sizes[j] <= (char *)p[i]);
        for (int i = 0; i < N; i++) {
            assert_int_equal(((unsigned char *)p[i])[sizes[i] - 1], (unsigned char)i);
            if ((i + round) % 2)
                ACL_OK(aclrtFree(p[i]));
        }
        for (int i = 0; i < N; i++)
            if (!((i + round) % 2))
                ACL_OK(aclrtFree(p[i]));
    }
}

static void test_memcpy_directions(void **state)
{
    (void)state;
    enum { SZ = 8192 };
    void *d1, *d2, *pinned;
    ACL_OK(aclrtMalloc(&d1, SZ, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&d2, SZ, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost(&pinned, SZ));
    unsigned char *host = malloc(SZ), *back = malloc(SZ);
    for (int i = 0; i < SZ; i++)
        host[i] = (unsigned char)(i * 7);
    ACL_OK(aclrtMemcpy(d1, SZ, host, SZ, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(d2, SZ, d1, SZ, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ACL_OK(aclrtMemcpy(pinned, SZ, d2, SZ, ACL_MEMCPY_DEVICE_TO_HOST));
    ACL_OK(aclrtMemcpy(back, SZ, pinned, SZ, ACL_MEMCPY_HOST_TO_HOST));
    assert_memory_equal(back, host, SZ);
    memset(back, 0, SZ);
    ACL_OK(aclrtMemcpy(d1, SZ, host + 100, 1000, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
    ACL_OK(aclrtMemcpy(back, SZ, d1, 1000, ACL_MEMCPY_DEFAULT));
    assert_memory_equal(back, host + 100, 1000);
    /* DEFAULT infers every direction; dst == src is a no-op. */
    ACL_OK(aclrtMemcpy(d2, SZ, d1, SZ, ACL_MEMCPY_DEFAULT));
    ACL_OK(aclrtMemcpy(d2, SZ, d2, SZ, ACL_MEMCPY_DEVICE_TO_DEVICE));
    /* count 0 succeeds even with NULL pointers. */
    ACL_OK(aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    free(host);
    free(back);
    ACL_OK(aclrtFreeHost(pinned));
    ACL_OK(aclrtFree(d2));
    ACL_OK(aclrtFree(d1));
}

static void test_memcpy_errors(void **state)
{
    (void)state;
    void *d, *h;
    ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost(&h, 4096));
    char buf[8192];
    memset(buf, 0x5C, 64);
    ACL_OK(aclrtMemcpy(d, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE)); /* known contents */
    ACL_ERR(aclrtMemcpy(NULL, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "dst is NULL");
    ACL_ERR(aclrtMemcpy(d, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "src is NULL");
    ACL_ERR(aclrtMemcpy(d, 64, buf, 64, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "kind 6");
    ACL_ERR(aclrtMemcpy(d, 64, buf, 64, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "kind 7");
    ACL_ERR(aclrtMemcpy(d, 64, buf, 64, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM, "kind 9");
    ACL_ERR(aclrtMemcpy(d, 0, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "destMax");
    ACL_ERR(aclrtMemcpy(d, 32, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "destMax");
    /* Out of range of the allocation (4096 + 32 bytes of slack). */
    ACL_ERR(aclrtMemcpy(d, 8192, buf, 8192, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "run past the end");
    ACL_ERR(aclrtMemcpy(buf, 8192, h, 8192, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
            "run past the end");
    /* Kinds that contradict the pointers. */
    ACL_ERR(aclrtMemcpy(buf, 64, d, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "src is device memory and dst is host memory");
    ACL_ERR(aclrtMemcpy(d, 64, buf, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "ACL_MEMCPY_DEVICE_TO_DEVICE");
    ACL_ERR(aclrtMemcpy(h, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "dst is host memory");
    /* The device address of mapped host memory is not for copies. */
    void *alias;
    ACL_OK(aclrtHostRegisterV2(h, 4096, ACL_HOST_REG_MAPPED));
    ACL_OK(aclrtHostGetDevicePointer(h, &alias, 0));
    ACL_ERR(aclrtMemcpy(alias, 64, buf, 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID,
            "device address of mapped host memory");
    ACL_OK(aclrtHostUnregister(h));
    /* Nothing was written. */
    memset(buf, 0x11, sizeof(buf));
    ACL_OK(aclrtMemcpy(buf, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal((unsigned char)buf[0], 0x5C);
    assert_int_equal((unsigned char)buf[63], 0x5C);
    ACL_OK(aclrtFreeHost(h));
    ACL_OK(aclrtFree(d));
}

/* A synchronous copy sees the results of work queued earlier on the
 * default stream, without an explicit synchronise. */
static void test_memcpy_orders_after_default_stream(void **state)
{
    (void)state;
    aclrtFuncHandle fill, sleepk;
    ACL_OK(aclrtBinaryGetFunction(g_bin, "fill_u32", &fill));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "sleep_kernel", &sleepk));
    void *d;
    ACL_OK(aclrtMalloc(&d, 4 * 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    struct test_buf counter;
    test_buf_alloc(&counter, 4096);
    uint32_t ms = 20, value = 77, count = 256;
    const void *sv[] = {&counter.dev, &ms};
    size_t ss[] = {8, 4};
    ACL_OK(test_launch(sleepk, 1, NULL, 2, sv, ss));
    const void *fv[] = {&d, &value, &count};
    size_t fs[] = {8, 4, 4};
    ACL_OK(test_launch(fill, 4, NULL, 3, fv, fs));
    uint32_t out[1024];
    ACL_OK(aclrtMemcpy(out, sizeof(out), d, sizeof(out), ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 1024; i++)
        assert_int_equal(out[i], 77 + i / 256);
    test_buf_free(&counter);
    ACL_OK(aclrtFree(d));
}

/* Freeing memory that queued work still uses waits for that work. */
static void test_free_waits_for_queued_work(void **state)
{
    (void)state;
    aclrtFuncHandle sleepk, count;
    ACL_OK(aclrtBinaryGetFunction(g_bin, "sleep_kernel", &sleepk));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "count_blocks", &count));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct test_buf done;
    test_buf_alloc(&done, 4096);
    void *d;
    ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    uint32_t ms = 30;
    const void *v1[] = {&done.dev, &ms};
    size_t s1[] = {8, 4};
    ACL_OK(test_launch(sleepk, 1, s, 2, v1, s1)); /* 30 ms, then done = 1 */
    const void *v2[] = {&d};
    size_t s2[] = {8};
    ACL_OK(test_launch(count, 4, s, 1, v2, s2)); /* then writes into d */
    ACL_OK(aclrtFree(d));
    /* Free returned only after the queued work had run. */
    assert_int_equal(*(volatile uint32_t *)done.host, 1);
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
    test_buf_free(&done);
}

static void test_pointer_attributes(void **state)
{
    (void)state;
    void *dn, *dh, *pinned;
    ACL_OK(aclrtMalloc(&dn, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtMalloc(&dh, 3 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost(&pinned, 8192));
    aclrtPtrAttributes a;
    memset(&a, 0xFF, sizeof(a));
    ACL_OK(aclrtPointerGetAttributes((char *)dn + 100, &a)); /* interior */
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(a.location.id, 0);
    assert_int_equal(a.pageSize, 4096);
    for (int i = 0; i < 4; i++)
        assert_int_equal(a.rsv[i], 0);
    ACL_OK(aclrtPointerGetAttributes(dh, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(a.pageSize, 2 << 20);
    ACL_OK(aclrtPointerGetAttributes((char *)pinned + 8191, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    assert_int_equal(a.pageSize, (uint32_t)sysconf(_SC_PAGESIZE));
    int local;
    ACL_OK(aclrtPointerGetAttributes(&local, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    /* Pageable memory registered PINNED counts as runtime host memory. */
    char *pg = aligned_alloc(4096, 8192);
    ACL_OK(aclrtHostRegisterV2(pg, 8192, ACL_HOST_REG_PINNED));
    ACL_OK(aclrtPointerGetAttributes(pg + 10, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    ACL_OK(aclrtHostUnregister(pg));
    ACL_OK(aclrtPointerGetAttributes(pg + 10, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    free(pg);
    ACL_ERR(aclrtPointerGetAttributes(NULL, &a), ACL_ERROR_INVALID_PARAM, "ptr");
    ACL_ERR(aclrtPointerGetAttributes(dn, NULL), ACL_ERROR_INVALID_PARAM, "attributes");
    ACL_OK(aclrtFree(dn));
    ACL_OK(aclrtPointerGetAttributes(dn, &a)); /* freed: unknown again */
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    ACL_OK(aclrtFree(dh));
    ACL_OK(aclrtFreeHost(pinned));
}

static void test_memcpy_async(void **state)
{
    (void)state;
    enum { SZ = 24 << 20 }; /* several chunks */
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    void *d1, *d2;
    unsigned char *pin, *back;
    ACL_OK(aclrtMalloc(&d1, SZ, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&d2, SZ, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&pin, SZ));
    ACL_OK(aclrtMallocHost((void **)&back, SZ));
    for (size_t i = 0; i < SZ; i++)
        pin[i] = (unsigned char)(i * 31 + 7);
    ACL_OK(aclrtMemcpyAsync(d1, SZ, pin, SZ, ACL_MEMCPY_HOST_TO_DEVICE, s));
    ACL_OK(aclrtMemcpyAsync(d2, SZ, d1, SZ, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    ACL_OK(aclrtMemsetAsync(d2, SZ, 0x1FF /* low byte 0xFF */, 100, s));
    ACL_OK(aclrtMemcpyAsync(back, SZ, d2, SZ, ACL_MEMCPY_DEFAULT, s));
    ACL_OK(aclrtSynchronizeStream(s));
    for (size_t i = 0; i < 100; i++)
        assert_int_equal(back[i], 0xFF);
    assert_memory_equal(back + 100, pin + 100, SZ - 100);
    /* Pageable memory: the copy has completed when the call returns, so the
       source may be reused at once. */
    unsigned char *pageable = malloc(4096);
    memset(pageable, 0xAB, 4096);
    ACL_OK(aclrtMemcpyAsync(d1, SZ, pageable, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s));
    memset(pageable, 0, 4096);
    ACL_OK(aclrtMemcpyAsync(back, SZ, d1, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(back[0], 0xAB);
    assert_int_equal(back[4095], 0xAB);
    /* Host to host: explicit kind refused, DEFAULT copies in stream order. */
    ACL_ERR(aclrtMemcpyAsync(back, SZ, pin, 64, ACL_MEMCPY_HOST_TO_HOST, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "HOST_TO_HOST");
    ACL_OK(aclrtMemcpyAsync(back, SZ, pin, 64, ACL_MEMCPY_DEFAULT, s));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_memory_equal(back, pin, 64);
    /* Bad inputs. */
    int local;
    ACL_OK(aclrtMemcpyAsync(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE, s)); /* count 0 */
    ACL_ERR(aclrtMemcpyAsync(NULL, 64, pin, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM, "dst");
    ACL_ERR(aclrtMemcpyAsync(d1, 32, pin, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID, "destMax");
    ACL_ERR(aclrtMemcpyAsync(d1, SZ, pin, 64, (aclrtMemcpyKind)6, s), ACL_ERROR_INVALID_PARAM, "kind 6");
    ACL_ERR(aclrtMemcpyAsync(d1, SZ, pin, 64, ACL_MEMCPY_HOST_TO_DEVICE, &local), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live stream");
    ACL_ERR(aclrtMemcpyAsync(pin, SZ, d1, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID,
            "ACL_MEMCPY_HOST_TO_DEVICE");
    free(pageable);
    ACL_OK(aclrtFreeHost(back));
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtFree(d2));
    ACL_OK(aclrtFree(d1));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_memset(void **state)
{
    (void)state;
    void *d;
    ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(d, 4096, 0x42, 4096));
    ACL_OK(aclrtMemset(d, 4096, 0x7, 10));
    unsigned char out[4096];
    ACL_OK(aclrtMemcpy(out, sizeof(out), d, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(out[9], 7);
    assert_int_equal(out[10], 0x42);
    assert_int_equal(out[4095], 0x42);
    ACL_OK(aclrtMemset(NULL, 0, 0, 0)); /* count 0: nothing */
    ACL_ERR(aclrtMemset(NULL, 16, 0, 16), ACL_ERROR_INVALID_PARAM, "devPtr");
    ACL_ERR(aclrtMemset(d, 16, 0, 17), ACL_ERROR_RT_PARAM_INVALID, "maxCount");
    ACL_ERR(aclrtMemset(d, 8192, 0, 8192), ACL_ERROR_RT_PARAM_INVALID, "run past the end");
    ACL_ERR(aclrtMemsetAsync(d, 16, 0, 17, NULL), ACL_ERROR_RT_PARAM_INVALID, "maxCount");
    ACL_ERR(aclrtMemsetAsync(NULL, 16, 0, 16, NULL), ACL_ERROR_INVALID_PARAM, "devPtr");
    int local;
    ACL_ERR(aclrtMemsetAsync(d, 16, 0, 16, &local), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_OK(aclrtMemcpy(out, sizeof(out), d, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(out[0], 7); /* unchanged by the failed calls */
    ACL_OK(aclrtFree(d));
}

/* A configured capacity is what GetMemInfo reports and what allocation
 * stops at (child process: the configuration is read once). */
static void test_configured_capacity(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("OACL_DEVICE_MEMORY", "1M", 1);
        /* A fresh process image would be cleaner, but the configuration is
           read on first use, which has already happened here: re-exec. */
        execl("/proc/self/exe", "test_device_memory", "--capacity-child", (char *)NULL);
        _exit(99);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

static int capacity_child(void)
{
    size_t f = 0, t = 0;
    void *a, *b;
    if (aclrtSetDevice(0) || aclrtGetMemInfo(ACL_HBM_MEM, &f, &t) || t != 1u << 20 || f != t)
        return 1;
    if (aclrtMalloc(&a, 600 * 1024, ACL_MEM_MALLOC_HUGE_FIRST))
        return 2;
    if (aclrtMalloc(&b, 600 * 1024, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_ERROR_RT_MEMORY_ALLOCATION)
        return 3;
    if (aclrtFree(a) || aclrtMalloc(&b, 600 * 1024, ACL_MEM_MALLOC_HUGE_FIRST) || aclrtFree(b))
        return 4;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--capacity-child") == 0)
        return capacity_child();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malloc_basics),
        cmocka_unit_test(test_malloc_errors),
        cmocka_unit_test(test_no_context),
        cmocka_unit_test(test_free_errors),
        cmocka_unit_test(test_reuse_without_overlap),
        cmocka_unit_test(test_memcpy_directions),
        cmocka_unit_test(test_memcpy_errors),
        cmocka_unit_test(test_memcpy_orders_after_default_stream),
        cmocka_unit_test(test_free_waits_for_queued_work),
        cmocka_unit_test(test_pointer_attributes),
        cmocka_unit_test(test_memcpy_async),
        cmocka_unit_test(test_memset),
        cmocka_unit_test(test_configured_capacity),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
