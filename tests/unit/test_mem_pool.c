/*
 * Stream-ordered memory pools on one stream: aclrtMemPoolCreate, Destroy,
 * SetAttr, GetAttr, MallocAsync, FreeAsync and TrimTo with their bad
 * inputs, reuse in stream order, the accounting attributes, the release
 * threshold at synchronisations, pool blocks as device allocations, and the
 * profiles without pools (child processes). Several streams and threads:
 * test_mem_pool_streams.c.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt_memory_soma.h"
#include "child_process.h"
#include "test_support.h"

#define MB ((size_t)1 << 20)

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_fill;
static uint64_t *g_gate; /* device word that gated streams wait for */
static uint32_t *g_host; /* pinned host memory for results */

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "fill_u32", &g_fill))
        return -1;
    if (aclrtMalloc((void **)&g_gate, 64, ACL_MEM_MALLOC_NORMAL_ONLY) || aclrtMallocHost((void **)&g_host, 1 << 16))
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

/* ---- helpers ------------------------------------------------------------------------ */

static aclrtMemPoolProps props(uint32_t dev, size_t max)
{
    aclrtMemPoolProps p;
    memset(&p, 0, sizeof(p));
    p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = dev;
    p.maxSize = max;
    return p;
}

static aclrtMemPool make_pool(size_t max)
{
    aclrtMemPoolProps p = props(0, max);
    aclrtMemPool pool = NULL;
    ACL_OK(aclrtMemPoolCreate(&pool, &p));
    assert_non_null(pool);
    return pool;
}

static uint64_t attr64(aclrtMemPool pool, aclrtMemPoolAttr a)
{
    uint64_t v = 0xdeadbeefu;
    ACL_OK(aclrtMemPoolGetAttr(pool, a, &v));
    return v;
}

static uint64_t used(aclrtMemPool pool) { return attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT); }
static uint64_t reserved(aclrtMemPool pool) { return attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT); }

static void set_threshold(aclrtMemPool pool, uint64_t v)
{
    ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v));
}

static size_t free_mem(void)
{
    size_t f = 0, t = 0;
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t));
    return f;
}

static void fill(void *dev, uint32_t value, uint32_t count, aclrtStream s)
{
    const void *v[] = {&dev, &value, &count};
    const size_t sz[] = {sizeof(dev), sizeof(value), sizeof(count)};
    ACL_OK(test_launch(g_fill, 1, s, 3, v, sz));
}

/* Holds s's later work until gate_open(). */
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

/* ---- create / destroy ---------------------------------------------------------------- */

static void test_create_defaults(void **state)
{
    (void)state;
    aclrtMemPool pool = make_pool(0);
    for (aclrtMemPoolAttr a = ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES;
         a <= ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES; a++) {
        uint32_t v = 7;
        ACL_OK(aclrtMemPoolGetAttr(pool, a, &v));
        assert_int_equal(v, 0);
    }
    for (aclrtMemPoolAttr a = ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD; a <= ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH; a++)
        assert_int_equal(attr64(pool, a), 0);
    /* maxSize 0: the whole device; the threshold may be set that high. */
    size_t f = 0, total = 0;
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &total));
    uint64_t cap = total & ~(uint64_t)(2 * MB - 1);
    set_threshold(pool, cap);
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), cap);
    uint64_t over = cap + 1;
    ACL_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &over), ACL_ERROR_RT_INTERNAL_ERROR,
            "capacity");
    /* Nothing is taken at creation. */
    assert_int_equal(free_mem(), f);
    ACL_OK(aclrtMemPoolDestroy(pool));
}

/* maxSize is rounded up to 2 MiB and limits what the pool reserves. */
static void test_create_capacity(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtMemPool pool = make_pool(3 * MB); /* 4 MiB */
    set_threshold(pool, 4 * MB);
    uint64_t over = 4 * MB + 1;
    ACL_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &over), ACL_ERROR_RT_INTERNAL_ERROR,
            "capacity of 4194304");
    void *a = NULL, *b = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&a, 3 * MB, pool, s));
    ACL_ERR(aclrtMemPoolMallocAsync(&b, 1, pool, s), ACL_ERROR_RT_INTERNAL_ERROR, "exhausted");
    assert_null(b);
    ACL_OK(aclrtMemPoolFreeAsync(a, s));
    ACL_OK(aclrtMemPoolMallocAsync(&b, 4 * MB, pool, s)); /* the cached block again */
    assert_ptr_equal(a, b);
    ACL_ERR(aclrtMemPoolMallocAsync(&a, 4 * MB + 1, pool, s), ACL_ERROR_RT_INTERNAL_ERROR, "capacity");
    assert_ptr_equal(a, b);
    ACL_OK(aclrtMemPoolFreeAsync(b, s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(s));
}

static void *create_without_context(void *arg)
{
    aclrtMemPoolProps *p = arg;
    aclrtMemPool pool = (aclrtMemPool)0x1234;
    aclError rc = aclrtMemPoolCreate(&pool, p);
    const char *msg = aclGetRecentErrMsg();
    bool ok = rc == ACL_ERROR_RT_CONTEXT_NULL && pool == (aclrtMemPool)0x1234 && msg && strstr(msg, "context");
    return ok ? p : NULL;
}

static void test_create_errors(void **state)
{
    (void)state;
    aclrtMemPool pool = (aclrtMemPool)0x1234;
    aclrtMemPoolProps p = props(0, 0);
    ACL_ERR(aclrtMemPoolCreate(NULL, &p), ACL_ERROR_INVALID_PARAM, "memPool is NULL");
    ACL_ERR(aclrtMemPoolCreate(&pool, NULL), ACL_ERROR_INVALID_PARAM, "poolProps is NULL");
    p.allocType = (aclrtMemAllocationType)1;
    ACL_ERR(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_INVALID_PARAM, "allocType");
    p = props(0, 0);
    p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    ACL_ERR(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_INVALID_PARAM, "location.type");
    p = props(0, 0);
    p.reserved[31] = 1;
    ACL_ERR(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_INVALID_PARAM, "reserved[31]");
    p = props(99, 0);
    ACL_ERR(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_RT_INVALID_DEVICEID, "99");
    size_t f = 0, total = 0;
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &total));
    p = props(0, total + 1);
    ACL_ERR(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_RT_PARAM_INVALID, "maxSize");
    p = props(0, SIZE_MAX);
    ACL_ERR(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_RT_PARAM_INVALID, "maxSize");
    /* handleType is not checked. */
    p = props(0, 2 * MB);
    p.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
    aclrtMemPool ok = NULL;
    ACL_OK(aclrtMemPoolCreate(&ok, &p));
    ACL_OK(aclrtMemPoolDestroy(ok));
    /* A thread without a context. */
    p = props(0, 0);
    void *res = NULL;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, create_without_context, &p), 0);
    assert_int_equal(pthread_join(t, &res), 0);
    assert_ptr_equal(res, &p);
    assert_ptr_equal(pool, (aclrtMemPool)0x1234);
}

/* A pool of another device than the current one. */
static void test_create_other_device(void **state)
{
    (void)state;
    aclrtMemPoolProps p = props(1, 2 * MB);
    aclrtMemPool pool = NULL;
    ACL_OK(aclrtMemPoolCreate(&pool, &p));
    aclrtStream s; /* a stream of device 0 cannot take its blocks */
    ACL_OK(aclrtCreateStream(&s));
    void *ptr = (void *)0x99;
    ACL_ERR(aclrtMemPoolMallocAsync(&ptr, 1, pool, s), ACL_ERROR_RT_PARAM_INVALID, "device 1");
    assert_ptr_equal(ptr, (void *)0x99);
    /* On device 1 it works, and the block is device 1's memory. */
    ACL_OK(aclrtSetDevice(1));
    aclrtStream s1;
    ACL_OK(aclrtCreateStream(&s1));
    ACL_OK(aclrtMemPoolMallocAsync(&ptr, 1, pool, s1));
    aclrtPtrAttributes a;
    ACL_OK(aclrtPointerGetAttributes(ptr, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(a.location.id, 1);
    ACL_OK(aclrtMemPoolFreeAsync(ptr, s1));
    ACL_OK(aclrtSynchronizeStream(s1));
    ACL_OK(aclrtDestroyStream(s1));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_destroy_errors(void **state)
{
    (void)state;
    aclrtMemPool pool = make_pool(0);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_ERR(aclrtMemPoolDestroy(NULL), ACL_ERROR_INVALID_PARAM, "memPool is NULL");
    ACL_ERR(aclrtMemPoolDestroy(s), ACL_ERROR_RT_INTERNAL_ERROR, "not a live memory pool");
    int local;
    ACL_ERR(aclrtMemPoolDestroy(&local), ACL_ERROR_RT_INTERNAL_ERROR, "not a live memory pool");
    /* The failed calls left the pool working. */
    void *p = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&p, 1, pool, s));
    ACL_OK(aclrtMemPoolFreeAsync(p, s));
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_ERR(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR, "not a live memory pool");
    ACL_ERR(aclrtMemPoolMallocAsync(&p, 1, pool, s), ACL_ERROR_RT_INTERNAL_ERROR, "not a live memory pool");
    ACL_OK(aclrtDestroyStream(s));
}

/* Destroy releases everything, blocks still allocated included; a block
 * whose free is still queued goes when the stream reaches the free. */
static void test_destroy_releases(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    size_t base = free_mem();
    aclrtMemPool pool = make_pool(0);
    void *a = NULL, *b = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&a, 1, pool, s));
    ACL_OK(aclrtMemPoolMallocAsync(&b, 5 * MB, pool, s));
    fill(a, 7, 16, s);
    assert_int_equal(base - free_mem(), 8 * MB);
    ACL_OK(aclrtMemPoolDestroy(pool));
    assert_int_equal(free_mem(), base);
    aclrtPtrAttributes at;
    ACL_OK(aclrtPointerGetAttributes(a, &at));
    assert_int_equal(at.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    ACL_ERR(aclrtMemPoolFreeAsync(b, s), ACL_ERROR_RT_PARAM_INVALID, "neither a pool block");

    pool = make_pool(0);
    ACL_OK(aclrtMemPoolMallocAsync(&a, 1, pool, s));
    gate_close(s);
    ACL_OK(aclrtMemPoolFreeAsync(a, s));
    ACL_OK(aclrtMemPoolDestroy(pool)); /* does not wait for the gated free */
    assert_int_equal(base - free_mem(), 2 * MB);
    gate_open();
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(free_mem(), base);
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- attributes ---------------------------------------------------------------------- */

static void test_attr_reuse_flags(void **state)
{
    (void)state;
    aclrtMemPool pool = make_pool(0);
    for (aclrtMemPoolAttr a = ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES;
         a <= ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES; a++) {
        uint32_t v = 5, got = 9;
        ACL_OK(aclrtMemPoolSetAttr(pool, a, &v)); /* non-zero stores 1 */
        ACL_OK(aclrtMemPoolGetAttr(pool, a, &got));
        assert_int_equal(got, 1);
        v = 0;
        ACL_OK(aclrtMemPoolSetAttr(pool, a, &v));
        ACL_OK(aclrtMemPoolGetAttr(pool, a, &got));
        assert_int_equal(got, 0);
    }
    ACL_OK(aclrtMemPoolDestroy(pool));
}

static void test_attr_errors(void **state)
{
    (void)state;
    aclrtMemPool pool = make_pool(8 * MB);
    set_threshold(pool, 2 * MB);
    uint64_t v = 0;
    ACL_ERR(aclrtMemPoolSetAttr(NULL, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v), ACL_ERROR_INVALID_PARAM,
            "memPool is NULL");
    ACL_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "value is NULL");
    int local;
    ACL_ERR(aclrtMemPoolSetAttr(&local, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v), ACL_ERROR_RT_PARAM_INVALID,
            "not a live memory pool");
    ACL_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, &v), ACL_ERROR_RT_PARAM_INVALID,
            "read-only");
    ACL_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v), ACL_ERROR_RT_PARAM_INVALID,
            "read-only");
    v = 8 * MB + 1;
    ACL_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v), ACL_ERROR_RT_INTERNAL_ERROR,
            "exceeds");
    v = 5;
    ACL_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v), ACL_ERROR_RT_INTERNAL_ERROR,
            "only accepts 0");
    ACL_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, &v), ACL_ERROR_RT_INTERNAL_ERROR,
            "only accepts 0");
    ACL_ERR(aclrtMemPoolSetAttr(pool, (aclrtMemPoolAttr)9, &v), ACL_ERROR_RT_INTERNAL_ERROR, "attr 9");
    ACL_ERR(aclrtMemPoolSetAttr(pool, (aclrtMemPoolAttr)0, &v), ACL_ERROR_RT_INTERNAL_ERROR, "attr 0");
    /* Nothing changed. */
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), 2 * MB);

    v = 77;
    ACL_ERR(aclrtMemPoolGetAttr(NULL, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v), ACL_ERROR_INVALID_PARAM,
            "memPool is NULL");
    ACL_ERR(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "value is NULL");
    ACL_ERR(aclrtMemPoolGetAttr(&local, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v), ACL_ERROR_RT_PARAM_INVALID,
            "not a live memory pool");
    ACL_ERR(aclrtMemPoolGetAttr(pool, (aclrtMemPoolAttr)9, &v), ACL_ERROR_RT_INTERNAL_ERROR, "attr 9");
    ACL_ERR(aclrtMemPoolGetAttr(pool, (aclrtMemPoolAttr)-1, &v), ACL_ERROR_RT_INTERNAL_ERROR, "attr -1");
    assert_int_equal(v, 77);
    ACL_OK(aclrtMemPoolDestroy(pool));
    /* A destroyed pool is unknown. */
    ACL_ERR(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v), ACL_ERROR_RT_PARAM_INVALID,
            "not a live memory pool");
    ACL_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v), ACL_ERROR_RT_PARAM_INVALID,
            "not a live memory pool");
    assert_int_equal(v, 77);
}

/* Current values and peaks: used falls at the free call, reserved when
 * the memory goes back; a peak reset takes the current value. */
static void test_attr_accounting(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtMemPool pool = make_pool(0);
    set_threshold(pool, 64 * MB); /* keep freed blocks across syncs */
    void *a, *b, *c;
    ACL_OK(aclrtMemPoolMallocAsync(&a, 1, pool, s));
    ACL_OK(aclrtMemPoolMallocAsync(&b, 3 * MB, pool, s));
    ACL_OK(aclrtMemPoolMallocAsync(&c, 2 * MB, pool, s));
    assert_int_equal(used(pool), 8 * MB);
    assert_int_equal(reserved(pool), 8 * MB);
    gate_close(s);
    ACL_OK(aclrtMemPoolFreeAsync(b, s));
    assert_int_equal(used(pool), 4 * MB); /* at the call, the stream is still held */
    assert_int_equal(reserved(pool), 8 * MB);
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 8 * MB);
    uint64_t zero = 0;
    ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &zero));
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 4 * MB);
    gate_open();
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtMemPoolTrimTo(pool, used(pool)));
    assert_int_equal(reserved(pool), 4 * MB);
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), 8 * MB);
    ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, &zero));
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), 4 * MB);
    /* A new block raises both peaks again. */
    ACL_OK(aclrtMemPoolMallocAsync(&b, 6 * MB, pool, s));
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 10 * MB);
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), 10 * MB);
    ACL_OK(aclrtMemPoolFreeAsync(a, s));
    ACL_OK(aclrtMemPoolFreeAsync(b, s));
    ACL_OK(aclrtMemPoolFreeAsync(c, s));
    assert_int_equal(used(pool), 0);
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- allocation ---------------------------------------------------------------------- */

/* A block is device memory of the pool's device for every API: kernels,
 * copies, memsets, pointer attributes and the memory information. */
static void test_malloc_block_is_device_memory(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtMemPool pool = make_pool(0);
    size_t before = free_mem();
    void *p = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&p, 1000, pool, s));
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % (2 * MB), 0);
    assert_int_equal(used(pool), 2 * MB);
    assert_int_equal(before - free_mem(), 2 * MB); /* aclrtGetMemInfo counts the reservation */
    aclrtPtrAttributes a;
    ACL_OK(aclrtPointerGetAttributes((char *)p + 100, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(a.location.id, 0);
    assert_int_equal(a.pageSize, 2 * MB);
    /* Kernel, async copy and memset in stream order; the whole block is usable. */
    fill(p, 40, 256, s);
    ACL_OK(aclrtMemsetAsync((char *)p + 1024, 1024, 0xAB, 1024, s));
    ACL_OK(aclrtMemcpyAsync(g_host, 2048, p, 2048, ACL_MEMCPY_DEVICE_TO_HOST, s));
    ACL_OK(aclrtSynchronizeStream(s));
    expect_u32(g_host, 40, 256);
    expect_u32(g_host + 256, 0xABABABABu, 256);
    ACL_OK(aclrtMemcpy((char *)p + 2 * MB - 4, 4, g_host, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_ERR(aclrtMemcpy((char *)p + 2 * MB - 4, 8, g_host, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "past the end");
    /* Never through aclrtFree, before or after its free. */
    ACL_ERR(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "memory pool");
    ACL_ERR(aclrtFree((char *)p + 64), ACL_ERROR_RT_PARAM_INVALID, "memory pool");
    assert_int_equal(used(pool), 2 * MB);
    fill(p, 41, 4, s); /* still allocated */
    ACL_OK(aclrtMemcpyAsync(g_host, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST, s));
    ACL_OK(aclrtSynchronizeStream(s));
    expect_u32(g_host, 41, 4);
    ACL_OK(aclrtMemPoolFreeAsync(p, s));
    ACL_ERR(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "not allocated");
    /* A freed block is no device memory any more. */
    ACL_ERR(aclrtMemcpy(p, 4, g_host, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "host memory");
    ACL_OK(aclrtPointerGetAttributes(p, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    ACL_OK(aclrtSynchronizeStream(s)); /* threshold 0: the cached block goes back */
    assert_int_equal(free_mem(), before);
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_malloc_errors(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtMemPool pool = make_pool(4 * MB);
    void *held = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&held, 2 * MB, pool, s));
    void *p = (void *)0x77;
    ACL_ERR(aclrtMemPoolMallocAsync(NULL, 1, pool, s), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    ACL_ERR(aclrtMemPoolMallocAsync(&p, 1, NULL, s), ACL_ERROR_INVALID_PARAM, "memPool is NULL");
    ACL_ERR(aclrtMemPoolMallocAsync(&p, 1, pool, NULL), ACL_ERROR_INVALID_PARAM, "default stream is not accepted");
    int local;
    ACL_ERR(aclrtMemPoolMallocAsync(&p, 1, &local, s), ACL_ERROR_RT_INTERNAL_ERROR, "not a live memory pool");
    ACL_ERR(aclrtMemPoolMallocAsync(&p, 1, pool, (aclrtStream)&local), ACL_ERROR_RT_INVALID_HANDLE, "stream");
    ACL_ERR(aclrtMemPoolMallocAsync(&p, 4 * MB + 1, pool, s), ACL_ERROR_RT_INTERNAL_ERROR, "capacity");
    ACL_ERR(aclrtMemPoolMallocAsync(&p, 3 * MB, pool, s), ACL_ERROR_RT_INTERNAL_ERROR, "exhausted");
    ACL_ERR(aclrtMemPoolMallocAsync(&p, SIZE_MAX, pool, s), ACL_ERROR_RT_INTERNAL_ERROR, "capacity");
    /* A stream of another context. */
    aclrtContext mine, other;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream os;
    ACL_OK(aclrtCreateStream(&os));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtMemPoolMallocAsync(&p, 1, pool, os), ACL_ERROR_RT_STREAM_CONTEXT, "another context");
    /* Size 0: success, nothing allocated, pointer untouched. */
    ACL_OK(aclrtMemPoolMallocAsync(&p, 0, pool, s));
    assert_ptr_equal(p, (void *)0x77);
    assert_int_equal(used(pool), 2 * MB);
    assert_int_equal(reserved(pool), 2 * MB);
    ACL_OK(aclrtMemPoolFreeAsync(held, s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtDestroyStream(os));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- free ---------------------------------------------------------------------------- */

static void test_free_errors(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtMemPool pool = make_pool(0);
    void *p = NULL, *q = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&p, 1, pool, s));
    ACL_OK(aclrtMemPoolMallocAsync(&q, 1, pool, s));
    ACL_ERR(aclrtMemPoolFreeAsync(NULL, s), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    ACL_ERR(aclrtMemPoolFreeAsync(p, NULL), ACL_ERROR_RT_INTERNAL_ERROR, "stream is NULL");
    ACL_ERR(aclrtMemPoolFreeAsync((char *)p + 64, s), ACL_ERROR_RT_INTERNAL_ERROR, "not a block base");
    int local;
    ACL_ERR(aclrtMemPoolFreeAsync(&local, s), ACL_ERROR_RT_PARAM_INVALID, "neither a pool block");
    ACL_ERR(aclrtMemPoolFreeAsync(g_host, s), ACL_ERROR_RT_PARAM_INVALID, "pinned host memory");
    ACL_ERR(aclrtMemPoolFreeAsync(p, (aclrtStream)&local), ACL_ERROR_RT_INVALID_HANDLE, "stream");
    aclrtContext mine, other;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream os;
    ACL_OK(aclrtCreateStream(&os));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtMemPoolFreeAsync(p, os), ACL_ERROR_RT_STREAM_CONTEXT, "another context");
    /* None of that freed anything. */
    assert_int_equal(used(pool), 4 * MB);
    fill(p, 3, 4, s);
    ACL_OK(aclrtMemPoolFreeAsync(p, s));
    ACL_ERR(aclrtMemPoolFreeAsync(p, s), ACL_ERROR_RT_INTERNAL_ERROR, "already freed");
    ACL_ERR(aclrtMemPoolFreeAsync((char *)p + 4096, s), ACL_ERROR_RT_INTERNAL_ERROR, "not a block base");
    assert_int_equal(used(pool), 2 * MB);
    ACL_OK(aclrtMemPoolFreeAsync(q, s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtDestroyStream(os));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(s));
}

/* aclrtMalloc memory freed in stream order: refused at once when it is not
 * a live allocation base, released when the stream reaches the free. */
static void test_free_plain_memory(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    size_t before = free_mem();
    void *d = NULL;
    ACL_OK(aclrtMalloc(&d, MB, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t taken = before - free_mem();
    assert_true(taken >= MB);
    ACL_ERR(aclrtMemPoolFreeAsync((char *)d + 32, s), ACL_ERROR_RT_PARAM_INVALID, "inside the allocation");
    gate_close(s);
    fill(d, 9, 4, s);
    ACL_OK(aclrtMemPoolFreeAsync(d, s));
    /* Gone for the API at once, still taken until the stream gets there. */
    ACL_ERR(aclrtFree(d), ACL_ERROR_RT_PARAM_INVALID, "not allocated");
    ACL_ERR(aclrtMemPoolFreeAsync(d, s), ACL_ERROR_RT_PARAM_INVALID, "neither a pool block");
    assert_int_equal(before - free_mem(), taken);
    gate_open();
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(free_mem(), before);
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- reuse in stream order ------------------------------------------------------------ */

/* A block freed on a stream goes to the next allocation on that stream at
 * once, with no synchronisation: the stream's order protects it. Another
 * stream gets other memory until the free has run. */
static void test_reuse_same_stream(void **state)
{
    (void)state;
    aclrtStream s, t;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtCreateStream(&t));
    aclrtMemPool pool = make_pool(0);
    set_threshold(pool, 64 * MB);
    gate_close(s);
    void *x = NULL, *y = NULL, *z = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&x, 64 * 1024, pool, s));
    fill(x, 100, 64, s);
    ACL_OK(aclrtMemcpyAsync(g_host, 256, x, 256, ACL_MEMCPY_DEVICE_TO_HOST, s));
    ACL_OK(aclrtMemPoolFreeAsync(x, s));
    ACL_OK(aclrtMemPoolMallocAsync(&z, 2 * MB, pool, t));
    assert_ptr_not_equal(z, x); /* t is not ordered after the free */
    ACL_OK(aclrtMemPoolMallocAsync(&y, 2 * MB, pool, s));
    assert_ptr_equal(x, y); /* nothing of s has run yet */
    assert_int_equal(reserved(pool), 4 * MB);
    fill(y, 200, 64, s);
    ACL_OK(aclrtMemcpyAsync(g_host + 64, 256, y, 256, ACL_MEMCPY_DEVICE_TO_HOST, s));
    /* A smaller request on s takes the same block again after its second free. */
    ACL_OK(aclrtMemPoolFreeAsync(y, s));
    void *w = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&w, 1, pool, s));
    assert_ptr_equal(w, x);
    fill(w, 300, 64, s);
    ACL_OK(aclrtMemcpyAsync(g_host + 128, 256, w, 256, ACL_MEMCPY_DEVICE_TO_HOST, s));
    gate_open();
    ACL_OK(aclrtSynchronizeStream(s));
    expect_u32(g_host, 100, 64);
    expect_u32(g_host + 64, 200, 64);
    expect_u32(g_host + 128, 300, 64);
    /* Once the frees have run, any stream may take the block. */
    ACL_OK(aclrtMemPoolFreeAsync(w, s));
    ACL_OK(aclrtSynchronizeStream(s));
    void *u = NULL;
    ACL_OK(aclrtMemPoolMallocAsync(&u, 2 * MB, pool, t));
    assert_ptr_equal(u, x);
    assert_int_equal(reserved(pool), 4 * MB); /* no new block in all this */
    ACL_OK(aclrtMemPoolFreeAsync(u, t));
    ACL_OK(aclrtMemPoolFreeAsync(z, t));
    ACL_OK(aclrtSynchronizeStream(t));
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtDestroyStream(t));
}

/* A loop of allocations and frees on one stream keeps using one block. */
static void test_reuse_loop_bounded(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtMemPool pool = make_pool(0);
    gate_close(s);
    void *first = NULL;
    for (int i = 0; i < 1000; i++) {
        void *p = NULL;
        ACL_OK(aclrtMemPoolMallocAsync(&p, 4096, pool, s));
        if (i == 0)
            first = p;
        assert_ptr_equal(p, first);
        ACL_OK(aclrtMemPoolFreeAsync(p, s));
    }
    assert_int_equal(reserved(pool), 2 * MB);
    assert_int_equal(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), 2 * MB);
    gate_open();
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(reserved(pool), 0);
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- trimming and the release threshold ---------------------------------------------------- */

static void test_trim(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtMemPool pool = make_pool(32 * MB);
    set_threshold(pool, 32 * MB);
    size_t before = free_mem();
    void *a, *b, *c;
    ACL_OK(aclrtMemPoolMallocAsync(&a, 2 * MB, pool, s));
    ACL_OK(aclrtMemPoolMallocAsync(&b, 4 * MB, pool, s));
    ACL_OK(aclrtMemPoolMallocAsync(&c, 6 * MB, pool, s));
    gate_close(s);
    ACL_OK(aclrtMemPoolFreeAsync(b, s));
    ACL_OK(aclrtMemPoolFreeAsync(c, s));
    /* The frees have not run: nothing can go back yet. */
    ACL_OK(aclrtMemPoolTrimTo(pool, 2 * MB));
    assert_int_equal(reserved(pool), 12 * MB);
    /* Bad inputs change nothing. */
    ACL_ERR(aclrtMemPoolTrimTo(NULL, 0), ACL_ERROR_INVALID_PARAM, "memPool is NULL");
    ACL_ERR(aclrtMemPoolTrimTo(pool, 32 * MB + 1), ACL_ERROR_RT_INTERNAL_ERROR, "capacity");
    ACL_ERR(aclrtMemPoolTrimTo(pool, 2 * MB - 1), ACL_ERROR_RT_INTERNAL_ERROR, "below");
    int local;
    ACL_ERR(aclrtMemPoolTrimTo(&local, 0), ACL_ERROR_RT_INTERNAL_ERROR, "not a live memory pool");
    gate_open();
    ACL_OK(aclrtSynchronizeStream(s)); /* below the threshold: kept */
    assert_int_equal(reserved(pool), 12 * MB);
    assert_int_equal(before - free_mem(), 12 * MB);
    /* Keeping 9 MiB releases blocks until at most that much is reserved;
       memory goes back to the device. */
    ACL_OK(aclrtMemPoolTrimTo(pool, 9 * MB));
    assert_true(reserved(pool) <= 9 * MB && reserved(pool) >= 2 * MB);
    assert_int_equal(before - free_mem(), reserved(pool));
    ACL_OK(aclrtMemPoolTrimTo(pool, 32 * MB)); /* above: nothing happens */
    ACL_OK(aclrtMemPoolTrimTo(pool, 2 * MB));
    assert_int_equal(reserved(pool), 2 * MB);
    assert_int_equal(before - free_mem(), 2 * MB);
    ACL_OK(aclrtMemPoolFreeAsync(a, s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtMemPoolTrimTo(pool, 0));
    assert_int_equal(reserved(pool), 0);
    assert_int_equal(free_mem(), before);
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_ERR(aclrtMemPoolTrimTo(pool, 0), ACL_ERROR_RT_INTERNAL_ERROR, "not a live memory pool");
    ACL_OK(aclrtDestroyStream(s));
}

enum sync_kind { SYNC_STREAM, SYNC_EVENT, SYNC_DEVICE };

/* Every kind of synchronisation applies the release threshold to the
 * cached memory whose frees have run. */
static void check_threshold(enum sync_kind kind)
{
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtEvent e;
    ACL_OK(aclrtCreateEvent(&e));
    aclrtMemPool pool = make_pool(0);
    set_threshold(pool, 4 * MB);
    void *p[4];
    for (int i = 0; i < 4; i++)
        ACL_OK(aclrtMemPoolMallocAsync(&p[i], 2 * MB, pool, s));
    for (int i = 0; i < 3; i++)
        ACL_OK(aclrtMemPoolFreeAsync(p[i], s));
    ACL_OK(aclrtRecordEvent(e, s));
    switch (kind) {
    case SYNC_STREAM: ACL_OK(aclrtSynchronizeStream(s)); break;
    case SYNC_EVENT: ACL_OK(aclrtSynchronizeEvent(e)); break;
    case SYNC_DEVICE: ACL_OK(aclrtSynchronizeDevice()); break;
    }
    assert_int_equal(reserved(pool), 2 * MB + 4 * MB); /* used + threshold */
    set_threshold(pool, 0);
    ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 1000));
    assert_int_equal(reserved(pool), 2 * MB);
    ACL_OK(aclrtMemPoolFreeAsync(p[3], s));
    ACL_OK(aclrtSynchronizeDeviceWithTimeout(1000));
    assert_int_equal(reserved(pool), 0);
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_threshold_stream(void **state) { (void)state, check_threshold(SYNC_STREAM); }
static void test_threshold_event(void **state) { (void)state, check_threshold(SYNC_EVENT); }
static void test_threshold_device(void **state) { (void)state, check_threshold(SYNC_DEVICE); }

/* A free still held by its stream survives a synchronisation of another
 * stream. */
static void test_threshold_skips_pending(void **state)
{
    (void)state;
    aclrtStream s, t;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtCreateStream(&t));
    aclrtMemPool pool = make_pool(0);
    void *p;
    ACL_OK(aclrtMemPoolMallocAsync(&p, 1, pool, s));
    gate_close(s);
    ACL_OK(aclrtMemPoolFreeAsync(p, s));
    ACL_OK(aclrtSynchronizeStream(t));
    assert_int_equal(reserved(pool), 2 * MB);
    gate_open();
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(reserved(pool), 0);
    ACL_OK(aclrtMemPoolDestroy(pool));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtDestroyStream(t));
}

/* ---- profiles (child processes) -------------------------------------------------------- */

static void child_unsupported(void)
{
    CHILD_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    aclrtMemPoolProps p = props(0, 0);
    aclrtMemPool pool = (aclrtMemPool)0x55;
    CHILD_ERR(aclrtMemPoolCreate(&pool, NULL), ACL_ERROR_INVALID_PARAM, "poolProps is NULL"); /* API layer first */
    CHILD_ERR(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, soc);
    CHILD_ERR(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtMemPoolCreate is not supported on");
    CHILD_CHECK(pool == (aclrtMemPool)0x55);
    uint64_t v = 0;
    void *ptr = (void *)0x66;
    CHILD_ERR(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMemPoolDestroy is not supported");
    CHILD_ERR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtMemPoolSetAttr is not supported");
    CHILD_ERR(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtMemPoolGetAttr is not supported");
    CHILD_ERR(aclrtMemPoolMallocAsync(NULL, 1, pool, s), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    CHILD_ERR(aclrtMemPoolMallocAsync(&ptr, 1, pool, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtMemPoolMallocAsync is not supported");
    CHILD_ERR(aclrtMemPoolMallocAsync(&ptr, 0, pool, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, soc);
    CHILD_CHECK(ptr == (void *)0x66);
    CHILD_ERR(aclrtMemPoolFreeAsync(ptr, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtMemPoolFreeAsync is not supported");
    CHILD_ERR(aclrtMemPoolTrimTo(pool, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMemPoolTrimTo is not supported");
    CHILD_ERR(aclrtMemPoolTrimTo(NULL, 0), ACL_ERROR_INVALID_PARAM, "memPool is NULL");
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_OK(aclrtResetDevice(0));
}

/* The A3 family has pools too (Decision 8). */
static void child_supported(void)
{
    CHILD_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    aclrtMemPoolProps p = props(0, 0);
    aclrtMemPool pool = NULL;
    CHILD_OK(aclrtMemPoolCreate(&pool, &p));
    void *ptr = NULL;
    CHILD_OK(aclrtMemPoolMallocAsync(&ptr, 1, pool, s));
    CHILD_CHECK(ptr != NULL);
    CHILD_OK(aclrtMemPoolFreeAsync(ptr, s));
    CHILD_OK(aclrtSynchronizeStream(s));
    CHILD_OK(aclrtMemPoolTrimTo(pool, 0));
    CHILD_OK(aclrtMemPoolDestroy(pool));
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_OK(aclrtResetDevice(0));
}

static const struct oacl_child_mode g_modes[] = {
    {"unsupported", child_unsupported},
    {"supported", child_supported},
};

static void run_child(const char *mode, const char *soc)
{
    char soc_env[64];
    snprintf(soc_env, sizeof(soc_env), "OACL_SOC=%s", soc);
    const char *env[] = {soc_env, NULL};
    if (oacl_run_child(mode, env, NULL, 0) != 0)
        fail_msg("child '%s' on %s failed", mode, soc);
}

static void test_profiles_without_pools(void **state)
{
    (void)state;
    static const char *const socs[] = {"Ascend950PR_9599", "Ascend310P3", "Ascend310B1", "Ascend910A"};
    for (size_t i = 0; i < sizeof(socs) / sizeof(socs[0]); i++)
        run_child("unsupported", socs[i]);
}

static void test_profiles_with_pools(void **state)
{
    (void)state;
    run_child("supported", "Ascend910_9391");
    run_child("supported", "Ascend910B1");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof(g_modes) / sizeof(g_modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_defaults),
        cmocka_unit_test(test_create_capacity),
        cmocka_unit_test(test_create_errors),
        cmocka_unit_test(test_create_other_device),
        cmocka_unit_test(test_destroy_errors),
        cmocka_unit_test(test_destroy_releases),
        cmocka_unit_test(test_attr_reuse_flags),
        cmocka_unit_test(test_attr_errors),
        cmocka_unit_test(test_attr_accounting),
        cmocka_unit_test(test_malloc_block_is_device_memory),
        cmocka_unit_test(test_malloc_errors),
        cmocka_unit_test(test_free_errors),
        cmocka_unit_test(test_free_plain_memory),
        cmocka_unit_test(test_reuse_same_stream),
        cmocka_unit_test(test_reuse_loop_bounded),
        cmocka_unit_test(test_trim),
        cmocka_unit_test(test_threshold_stream),
        cmocka_unit_test(test_threshold_event),
        cmocka_unit_test(test_threshold_device),
        cmocka_unit_test(test_threshold_skips_pending),
        cmocka_unit_test(test_profiles_without_pools),
        cmocka_unit_test(test_profiles_with_pools),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
