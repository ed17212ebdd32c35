/*
 * Managed (unified) memory (memory-extras spec §3.4): aclrtMemAllocManaged,
 * aclrtMemManagedAdvise, aclrtMemManagedGetAttr(s),
 * aclrtMemManagedPrefetchAsync, aclrtMemManagedPrefetchBatchAsync, and how
 * the rest of the runtime treats managed memory (aclrtFree,
 * aclrtPointerGetAttributes, copies, fills, kernels on any device).
 */
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "mem_extras_util.h"

#define MIB ((size_t)1 << 20)
#define PAGE (2 * MIB)

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_copy_plus;
static struct test_buf g_gate;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "copy_plus", &g_copy_plus))
        return -1;
    test_buf_alloc(&g_gate, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_gate);
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

static aclrtMemManagedLocation loc(aclrtMemManagedLocationType type, int32_t id)
{
    aclrtMemManagedLocation l = {type, id};
    return l;
}

static int32_t attr(aclrtMemManagedRangeAttribute a, const void *p, size_t size)
{
    int32_t v = (int32_t)SENTINEL_U32;
    ACL_OK(aclrtMemManagedGetAttr(a, p, size, &v, sizeof(v)));
    return v;
}

static aclrtMemLocationType location_of(const void *p, uint32_t *id, uint32_t *page)
{
    aclrtPtrAttributes a;
    ACL_OK(aclrtPointerGetAttributes(p, &a));
    if (id)
        *id = a.location.id;
    if (page)
        *page = a.pageSize;
    return a.location.type;
}

/* Launches copy_plus: out[i] = in[i] + add over blocks * count elements. */
static void launch_copy_plus(aclrtFuncHandle f, aclrtStream s, void *in, void *out, uint32_t add, uint32_t blocks,
                             uint32_t count)
{
    const void *vals[] = {&in, &out, &add, &count};
    size_t sizes[] = {8, 8, 4, 4};
    ACL_OK(test_launch(f, blocks, s, 4, vals, sizes));
}

/* ---- allocation ----------------------------------------------------------------------------- */

static void test_alloc_and_free(void **state)
{
    (void)state;
    size_t before = dev_free_bytes();
    void *p = NULL, *q = NULL;
    ACL_OK(aclrtMemAllocManaged(&p, 1, ACL_RT_MEM_ATTACH_GLOBAL));
    ACL_OK(aclrtMemAllocManaged(&q, 3 * MIB, ACL_RT_MEM_ATTACH_GLOBAL));
    assert_int_equal((uintptr_t)p % PAGE, 0);
    assert_int_equal((uintptr_t)q % PAGE, 0);
    /* Rounded to 2 MiB: both are usable whole, and read as zero. */
    unsigned char *b = p, *c = q;
    assert_int_equal(b[0], 0);
    assert_int_equal(b[PAGE - 1], 0);
    assert_int_equal(c[4 * MIB - 1], 0);
    memset(b, 1, PAGE);
    memset(c, 2, 4 * MIB);
    assert_int_equal(b[PAGE - 1], 1);
    assert_int_equal(c[0], 2);
    /* Classified as managed, on the current device, with 2 MiB pages. */
    uint32_t id = 99, page = 0;
    assert_int_equal(location_of(b + 12345, &id, &page), ACL_MEM_LOCATION_TYPE_MANAGED);
    assert_int_equal(id, 0);
    assert_int_equal(page, PAGE);
    ACL_OK(aclrtSetDevice(1));
    void *r = NULL;
    ACL_OK(aclrtMemAllocManaged(&r, PAGE, ACL_RT_MEM_ATTACH_GLOBAL));
    assert_int_equal(location_of(r, &id, NULL), ACL_MEM_LOCATION_TYPE_MANAGED);
    assert_int_equal(id, 1);
    ACL_OK(aclrtSetDevice(0));
    /* Not device memory: the device's figures are unchanged. */
    assert_int_equal(dev_free_bytes(), before);

    /* Frees: only aclrtFree, only the base address, only once. */
    ACL_ERR(aclrtFreeHost(p), ACL_ERROR_RT_PARAM_INVALID, "is managed memory");
    ACL_ERR(aclrtFree(b + 64), ACL_ERROR_RT_PARAM_INVALID, "points inside the managed allocation");
    ACL_ERR(aclrtFreeHostWithDevSync(q), ACL_ERROR_RT_PARAM_INVALID, "is managed memory");
    assert_int_equal(b[100], 1);
    ACL_OK(aclrtFree(p));
    assert_int_equal(location_of(p, NULL, NULL), ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    ACL_ERR(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "was not allocated");
    ACL_OK(aclrtFreeWithDevSync(q));
    ACL_OK(aclrtFree(r)); /* from another device's context: any device frees it */
    ACL_OK(aclrtResetDevice(1));
    /* The space is reused, and reads as zero again. */
    void *again = NULL;
    ACL_OK(aclrtMemAllocManaged(&again, PAGE, ACL_RT_MEM_ATTACH_GLOBAL));
    assert_int_equal(((unsigned char *)again)[100], 0);
    ACL_OK(aclrtFree(again));
}

static aclError alloc_call(void)
{
    void *p = NULL;
    return aclrtMemAllocManaged(&p, 64, ACL_RT_MEM_ATTACH_GLOBAL);
}

static void test_alloc_bad(void **state)
{
    (void)state;
    void *p = SENTINEL_PTR;
    ACL_ERR(aclrtMemAllocManaged(NULL, 64, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    ACL_ERR(aclrtMemAllocManaged(&p, 64, 0), ACL_ERROR_INVALID_PARAM, "ACL_RT_MEM_ATTACH_GLOBAL");
    ACL_ERR(aclrtMemAllocManaged(&p, 64, 2), ACL_ERROR_INVALID_PARAM, "flag is 2");
    /* flag before size */
    ACL_ERR(aclrtMemAllocManaged(&p, 0, 0), ACL_ERROR_INVALID_PARAM, "flag is 0");
    ACL_ERR(aclrtMemAllocManaged(&p, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_PARAM_INVALID, "size is 0");
    /* More than the 3 TiB a process may have. */
    ACL_ERR(aclrtMemAllocManaged(&p, (uint64_t)4 << 40, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_MEMORY_ALLOCATION,
            "3 TiB");
    ACL_ERR(aclrtMemAllocManaged(&p, UINT64_MAX, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_MEMORY_ALLOCATION, "3 TiB");
    expect_on_bare_thread(alloc_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemAllocManaged");
    assert_ptr_equal(p, SENTINEL_PTR);
}

/* ---- truly unified ----------------------------------------------------------------------------- */

/* The host writes, a kernel reads and writes, the host reads: no copies,
 * one address everywhere, also for a kernel on another device. */
static void test_unified_with_kernels(void **state)
{
    (void)state;
    const uint32_t blocks = 4, count = 1024, n = blocks * count;
    uint32_t *m = NULL;
    ACL_OK(aclrtMemAllocManaged((void **)&m, 3 * n * sizeof(uint32_t), ACL_RT_MEM_ATTACH_GLOBAL));
    for (uint32_t i = 0; i < n; i++)
        m[i] = i * 3;
    launch_copy_plus(g_copy_plus, NULL, m, m + n, 7, blocks, count);
    ACL_OK(aclrtSynchronizeStream(NULL));
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(m[n + i], i * 3 + 7);

    /* Device 1 runs a kernel on the same address. */
    ACL_OK(aclrtSetDevice(1));
    aclrtBinHandle bin1;
    aclrtFuncHandle copy1;
    test_load("rt_misc", "copy_plus", &bin1, &copy1);
    aclrtStream s1;
    ACL_OK(aclrtCreateStream(&s1));
    launch_copy_plus(copy1, s1, m + n, m + 2 * n, 100, blocks, count);
    ACL_OK(aclrtSynchronizeStream(s1));
    for (uint32_t i = 0; i < n; i += 97)
        assert_int_equal(m[2 * n + i], i * 3 + 107);
    ACL_OK(aclrtDestroyStream(s1));
    ACL_OK(aclrtBinaryUnLoad(bin1));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));

    /* An argument blob in managed memory launches too. */
    uint32_t *blob = m + 2 * n; /* 8-byte aligned: n is a multiple of 2 */
    void *in = m, *out = m + n;
    uint32_t add = 1, cnt = count;
    memcpy(blob, &in, 8);
    memcpy(blob + 2, &out, 8);
    memcpy(blob + 4, &add, 4); /* every parameter starts 8-byte aligned */
    memcpy(blob + 6, &cnt, 4);
    ACL_OK(aclrtLaunchKernel(g_copy_plus, blocks, blob, 28, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(m[n + 5], 5 * 3 + 1);
    ACL_OK(aclrtFree(m));
}

/* Copies and fills take managed memory on either side, asynchronously
 * (it is not pageable memory). */
static void test_copies_and_fills(void **state)
{
    (void)state;
    unsigned char *m = NULL, *dev = NULL;
    ACL_OK(aclrtMemAllocManaged((void **)&m, PAGE, ACL_RT_MEM_ATTACH_GLOBAL));
    ACL_OK(aclrtMalloc((void **)&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    unsigned char host[4096];
    memset(host, 9, sizeof(host));
    /* Any declared direction fits managed memory. */
    ACL_OK(aclrtMemcpy(m, PAGE, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(m + 4096, PAGE - 4096, host, 4096, ACL_MEMCPY_HOST_TO_HOST));
    ACL_OK(aclrtMemcpy(dev, 4096, m, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE));
    assert_int_equal(dev[4095], 9);
    ACL_OK(aclrtMemset(m, 4096, 0x33, 100));
    ACL_OK(aclrtMemcpy(host, sizeof(host), m, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(host[99], 0x33);
    assert_int_equal(host[100], 9);
    ACL_OK(aclrtMemcpy(m + 8192, 4096, dev, 4096, ACL_MEMCPY_DEFAULT));
    assert_int_equal(m[8192 + 4095], 9);

    /* Asynchronous: queued behind a gate, so the call only enqueues. */
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint64_t *word = g_gate.host;
    __atomic_store_n(word, 0, __ATOMIC_RELEASE);
    ACL_OK(aclrtValueWait(g_gate.dev, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    ACL_OK(aclrtMemsetAsync(m + 16384, 4096, 0x44, 4096, s));
    ACL_OK(aclrtMemcpyAsync(dev, 4096, m + 16384, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    ACL_OK(aclrtMemcpyAsync(m + 20480, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
    assert_int_equal(m[16384], 0); /* not yet: the stream is held */
    assert_int_equal(dev[0], 9);
    __atomic_store_n(word, 1, __ATOMIC_RELEASE);
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(m[16384], 0x44);
    assert_int_equal(dev[4095], 0x44);
    assert_int_equal(m[20480 + 4095], 0x44);
    ACL_OK(aclrtDestroyStream(s));

    /* Past the end of the allocation is refused as for other memory. */
    ACL_ERR(aclrtMemcpy(m + PAGE - 16, 4096, host, 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "managed allocation");
    ACL_ERR(aclrtMemset(m + PAGE - 16, 32, 0, 32), ACL_ERROR_RT_PARAM_INVALID, "managed allocation");
    ACL_OK(aclrtFree(dev));
    ACL_OK(aclrtFree(m));
}

/* The copy variants of the memory chapter take managed memory like
 * aclrtMemcpy does: 2-D, batch, 32-bit fills and descriptor copies. */
static void test_copy_variants(void **state)
{
    (void)state;
    unsigned char *m = NULL, *dev = NULL;
    ACL_OK(aclrtMemAllocManaged((void **)&m, PAGE, ACL_RT_MEM_ATTACH_GLOBAL));
    ACL_OK(aclrtMalloc((void **)&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
    unsigned char host[64];
    for (int i = 0; i < 64; i++)
        host[i] = (unsigned char)(i + 1);
    /* 2-D: 4 rows of 8 bytes from a 16-byte pitch into managed rows of 32. */
    memset(m, 0, 256);
    ACL_OK(aclrtMemcpy2d(m, 32, host, 16, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 32; c++)
            assert_int_equal(m[r * 32 + c], c < 8 ? host[r * 16 + c] : 0);
    ACL_OK(aclrtMemcpy2dAsync(dev, 8, m, 32, 8, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(dev[8 * 3 + 7], host[3 * 16 + 7]);
    /* Batch: managed memory fits any declared location. */
    void *dsts[1] = {m + 1024}, *srcs[1] = {host};
    size_t dmax[1] = {64}, sizes[1] = {64}, idx[1] = {0}, fail = 0;
    aclrtMemcpyBatchAttr attr;
    memset(&attr, 0, sizeof(attr));
    attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    ACL_OK(aclrtMemcpyBatch(dsts, dmax, srcs, sizes, 1, &attr, idx, 1, &fail));
    assert_memory_equal(m + 1024, host, 64);
    /* 32-bit fills, synchronous and in stream order. */
    ACL_OK(aclrtMemsetD32(m + 2048, 64, 0x01020304u, 16));
    assert_int_equal(m[2048], 0x04);
    assert_int_equal(m[2048 + 63], 0x01);
    ACL_OK(aclrtMemsetD32Async(m + 4096, 16, 0xA0B0C0D0u, 4, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(m[4096 + 15], 0xA0);
    /* A descriptor copy from managed memory into device memory. */
    size_t dsize = 0;
    ACL_OK(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &dsize));
    void *desc = NULL;
    ACL_OK(aclrtMalloc(&desc, dsize, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, m + 1024, dev + 4096, 64, NULL));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
    assert_memory_equal(dev + 4096, host, 64);
    ACL_OK(aclrtFree(desc));
    ACL_OK(aclrtFree(dev));
    ACL_OK(aclrtFree(m));
}

/* ---- advice and attributes ------------------------------------------------------------------- */

static void test_advise_and_attributes(void **state)
{
    (void)state;
    char *m = NULL;
    ACL_OK(aclrtMemAllocManaged((void **)&m, 6 * MIB, ACL_RT_MEM_ATTACH_GLOBAL));
    aclrtMemManagedLocation none = loc(ACL_MEM_LOCATIONTYPE_INVALID, 0);
    /* Everything starts cleared. */
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 6 * MIB), 0);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 6 * MIB), -2);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 1), ACL_MEM_LOCATIONTYPE_INVALID);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 1), -2);

    /* Read-mostly on the first 4 MiB. */
    ACL_OK(aclrtMemManagedAdvise(m, 4 * MIB, ACL_MEM_ADVISE_SET_READ_MOSTLY, none));
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4 * MIB), 1);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + 100, 10), 1);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 6 * MIB), 0);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + 4 * MIB, 1), 0);
    ACL_OK(aclrtMemManagedAdvise(m + 2 * MIB, 2 * MIB, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, none));
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * MIB), 1);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4 * MIB), 0);

    /* Preferred location: a device, the host, unset; mixed is -2 / INVALID. */
    ACL_OK(aclrtMemManagedAdvise(m, 6 * MIB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                 loc(ACL_MEM_LOCATIONTYPE_DEVICE, 1)));
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 6 * MIB), 1);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 6 * MIB), ACL_MEM_LOCATIONTYPE_DEVICE);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, 6 * MIB), 1);
    ACL_OK(aclrtMemManagedAdvise(m + 4 * MIB, 2 * MIB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                 loc(ACL_MEM_LOCATIONTYPE_HOST, 77)));
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m + 4 * MIB, 2 * MIB), -1);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m + 4 * MIB, 1), ACL_MEM_LOCATIONTYPE_HOST);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m + 4 * MIB, 1), -2);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 6 * MIB), -2);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 6 * MIB), ACL_MEM_LOCATIONTYPE_INVALID);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, 6 * MIB), -2);
    /* HOST_NUMA_CURRENT is stored as node 0. */
    ACL_OK(aclrtMemManagedAdvise(m + 2 * MIB, 2 * MIB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                 loc(ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT, 5)));
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m + 2 * MIB, 1), 0);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m + 2 * MIB, 1),
                     ACL_MEM_LOCATIONTYPE_HOST_NUMA);
    ACL_OK(aclrtMemManagedAdvise(m, 6 * MIB, ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, none));
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 6 * MIB), -2);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 1), ACL_MEM_LOCATIONTYPE_INVALID);

    /* Accessed-by: devices ascending, then NUMA nodes, then the host; -2 fills. */
    ACL_OK(aclrtMemManagedAdvise(m, 2 * MIB, ACL_MEM_ADVISE_SET_ACCESSED_BY, loc(ACL_MEM_LOCATIONTYPE_DEVICE, 2)));
    ACL_OK(aclrtMemManagedAdvise(m, 2 * MIB, ACL_MEM_ADVISE_SET_ACCESSED_BY, loc(ACL_MEM_LOCATIONTYPE_DEVICE, 0)));
    int32_t ids[6];
    ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 2 * MIB, ids, 4 * sizeof(int32_t)));
    assert_int_equal(ids[0], 0);
    assert_int_equal(ids[1], 2);
    assert_int_equal(ids[2], -2);
    assert_int_equal(ids[3], -2);
    ACL_OK(aclrtMemManagedAdvise(m, 4 * MIB, ACL_MEM_ADVISE_SET_ACCESSED_BY, loc(ACL_MEM_LOCATIONTYPE_HOST, 0)));
    ACL_OK(aclrtMemManagedAdvise(m, 2 * MIB, ACL_MEM_ADVISE_SET_ACCESSED_BY, loc(ACL_MEM_LOCATIONTYPE_HOST_NUMA, 0)));
    ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 2 * MIB, ids, sizeof(ids)));
    int32_t want[6] = {0, 2, 0, -1, -2, -2};
    assert_memory_equal(ids, want, sizeof(want));
    /* Only what every page of the range has. */
    ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 4 * MIB, ids, 2 * sizeof(int32_t)));
    assert_int_equal(ids[0], -1);
    assert_int_equal(ids[1], -2);
    /* A short array gets as many ids as fit. */
    ids[1] = 77;
    ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 2 * MIB, ids, sizeof(int32_t)));
    assert_int_equal(ids[0], 0);
    assert_int_equal(ids[1], 77);
    ACL_OK(aclrtMemManagedAdvise(m, 2 * MIB, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, loc(ACL_MEM_LOCATIONTYPE_DEVICE, 0)));
    ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 2 * MIB, ids, sizeof(int32_t)));
    assert_int_equal(ids[0], 2);

    /* Several attributes at once. */
    aclrtMemManagedRangeAttribute as[3] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                           ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION};
    int32_t rm = 5, acc[2] = {5, 5}, pref = 5;
    void *data[3] = {&rm, acc, &pref};
    size_t sizes[3] = {4, 8, 4};
    ACL_OK(aclrtMemManagedGetAttrs(as, 3, m, 2 * MIB, data, sizes));
    assert_int_equal(rm, 1);
    assert_int_equal(acc[0], 2);
    assert_int_equal(acc[1], 0);
    assert_int_equal(pref, -2);
    ACL_OK(aclrtMemManagedGetAttrs(as, 0, m, 2 * MIB, data, sizes)); /* nothing asked, nothing written */

    /* A freed allocation has no attributes. */
    ACL_OK(aclrtFree(m));
    ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 1, &rm, 4), ACL_ERROR_RT_PARAM_INVALID,
            "not inside managed memory");
}

static aclError advise_call(void)
{
    return aclrtMemManagedAdvise(SENTINEL_PTR, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY,
                                 loc(ACL_MEM_LOCATIONTYPE_INVALID, 0));
}

static void test_advise_bad(void **state)
{
    (void)state;
    char *m = NULL;
    void *dev = NULL;
    ACL_OK(aclrtMemAllocManaged((void **)&m, 4 * MIB, ACL_RT_MEM_ATTACH_GLOBAL));
    ACL_OK(aclrtMalloc(&dev, PAGE, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtMemManagedLocation dev1 = loc(ACL_MEM_LOCATIONTYPE_DEVICE, 1);
    ACL_OK(aclrtMemManagedAdvise(m, 4 * MIB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev1));
    ACL_ERR(aclrtMemManagedAdvise(NULL, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev1), ACL_ERROR_INVALID_PARAM,
            "ptr is NULL");
    ACL_ERR(aclrtMemManagedAdvise(m, 0, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev1), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtMemManagedAdvise(m, PAGE, (aclrtMemManagedAdviseType)6, dev1), ACL_ERROR_RT_PARAM_INVALID,
            "advise 6");
    ACL_ERR(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(ACL_MEM_LOCATIONTYPE_DEVICE, 8)),
            ACL_ERROR_RT_PARAM_INVALID, "device id 8");
    ACL_ERR(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, loc(ACL_MEM_LOCATIONTYPE_DEVICE, -1)),
            ACL_ERROR_RT_PARAM_INVALID, "device id -1");
    ACL_ERR(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_SET_ACCESSED_BY, loc((aclrtMemManagedLocationType)5, 0)),
            ACL_ERROR_RT_PARAM_INVALID, "type 5");
    ACL_ERR(aclrtMemManagedAdvise(m, MIB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev1), ACL_ERROR_RT_PARAM_INVALID,
            "not a multiple of 2 MiB");
    ACL_ERR(aclrtMemManagedAdvise(m, 3 * MIB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev1), ACL_ERROR_RT_PARAM_INVALID,
            "not a multiple of 2 MiB");
    /* Pages outside managed memory: past its end, or device memory. */
    ACL_ERR(aclrtMemManagedAdvise(m + 2 * MIB, 4 * MIB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev1),
            ACL_ERROR_RT_PARAM_INVALID, "not inside managed memory");
    ACL_ERR(aclrtMemManagedAdvise(dev, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev1), ACL_ERROR_RT_PARAM_INVALID,
            "not inside managed memory");
    ACL_ERR(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(ACL_MEM_LOCATIONTYPE_INVALID, 0)),
            ACL_ERROR_RT_PARAM_INVALID, "ACL_MEM_LOCATIONTYPE_INVALID");
    ACL_ERR(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_SET_ACCESSED_BY, loc(ACL_MEM_LOCATIONTYPE_INVALID, 0)),
            ACL_ERROR_RT_PARAM_INVALID, "ACL_MEM_LOCATIONTYPE_INVALID");
    ACL_ERR(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, loc(ACL_MEM_LOCATIONTYPE_HOST_NUMA, 1)),
            ACL_ERROR_RT_PARAM_INVALID, "NUMA node 1");
    expect_on_bare_thread(advise_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemManagedAdvise");
    /* Nothing changed. */
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4 * MIB), 0);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 4 * MIB), 1);
    int32_t ids[2];
    ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 4 * MIB, ids, sizeof(ids)));
    assert_int_equal(ids[0], -2);
    assert_int_equal(ids[1], -2);
    ACL_OK(aclrtFree(dev));
    ACL_OK(aclrtFree(m));
}

static char *g_attr_ptr;

/* Queries need no context. */
static aclError get_attr_call(void)
{
    int32_t v = 0;
    aclError rc = aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, g_attr_ptr, PAGE, &v, 4);
    return rc == ACL_SUCCESS && v != 0 ? ACL_ERROR_INTERNAL_ERROR : rc;
}

static void test_get_attr_bad(void **state)
{
    (void)state;
    char *m = NULL;
    ACL_OK(aclrtMemAllocManaged((void **)&m, PAGE, ACL_RT_MEM_ATTACH_GLOBAL));
    int32_t v = (int32_t)SENTINEL_U32;
    ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, NULL, 1, &v, 4), ACL_ERROR_INVALID_PARAM,
            "ptr is NULL");
    ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 1, NULL, 4), ACL_ERROR_INVALID_PARAM,
            "data is NULL");
    ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 0, &v, 4), ACL_ERROR_INVALID_PARAM,
            "size is 0");
    ACL_ERR(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)9, m, 1, &v, 4), ACL_ERROR_RT_PARAM_INVALID,
            "attribute 9");
    ACL_ERR(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)0, m, 1, &v, 4), ACL_ERROR_RT_PARAM_INVALID,
            "attribute 0");
    ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 1, &v, 8), ACL_ERROR_RT_PARAM_INVALID,
            "dataSize 8");
    ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 1, &v, 6), ACL_ERROR_RT_PARAM_INVALID,
            "dataSize 6");
    ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 1, &v, 0), ACL_ERROR_RT_PARAM_INVALID,
            "dataSize 0");
    ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, PAGE + 1, &v, 4), ACL_ERROR_RT_PARAM_INVALID,
            "not inside managed memory");
    ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, &v, 4, &v, 4), ACL_ERROR_RT_PARAM_INVALID,
            "not inside managed memory");
    assert_int_equal(v, (int32_t)SENTINEL_U32);

    /* GetAttrs checks every attribute before writing anything. */
    aclrtMemManagedRangeAttribute as[2] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, (aclrtMemManagedRangeAttribute)9};
    int32_t a = 5, b = 5;
    void *data[2] = {&a, &b};
    size_t sizes[2] = {4, 4};
    ACL_ERR(aclrtMemManagedGetAttrs(as, 2, m, 1, data, sizes), ACL_ERROR_RT_PARAM_INVALID, "attributes[1] = 9");
    assert_int_equal(a, 5);
    ACL_ERR(aclrtMemManagedGetAttrs(NULL, 2, m, 1, data, sizes), ACL_ERROR_INVALID_PARAM, "attributes is NULL");
    ACL_ERR(aclrtMemManagedGetAttrs(as, 2, NULL, 1, data, sizes), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    ACL_ERR(aclrtMemManagedGetAttrs(as, 2, m, 1, NULL, sizes), ACL_ERROR_INVALID_PARAM, "data is NULL");
    ACL_ERR(aclrtMemManagedGetAttrs(as, 2, m, 1, data, NULL), ACL_ERROR_INVALID_PARAM, "dataSizes is NULL");
    ACL_ERR(aclrtMemManagedGetAttrs(as, 2, m, 0, data, sizes), ACL_ERROR_INVALID_PARAM, "size is 0");
    /* Per-entry errors: the first failing entry's code; earlier ones may be written. */
    as[1] = ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION;
    sizes[1] = 2;
    ACL_ERR(aclrtMemManagedGetAttrs(as, 2, m, 1, data, sizes), ACL_ERROR_RT_PARAM_INVALID, "attributes[1]: dataSize 2");
    assert_int_equal(b, 5);
    sizes[1] = 4;
    data[1] = NULL;
    ACL_ERR(aclrtMemManagedGetAttrs(as, 2, m, 1, data, sizes), ACL_ERROR_INVALID_PARAM, "data[1] is NULL");
    g_attr_ptr = m;
    expect_on_bare_thread(get_attr_call, ACL_SUCCESS, NULL);
    ACL_OK(aclrtFree(m));
}

/* ---- prefetch ------------------------------------------------------------------------------------ */

static void test_prefetch(void **state)
{
    (void)state;
    char *m = NULL;
    ACL_OK(aclrtMemAllocManaged((void **)&m, 6 * MIB, ACL_RT_MEM_ATTACH_GLOBAL));
    memset(m, 1, 6 * MIB);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    /* Behind a gate: the attribute shows the request at once (Decision 5),
       and the prefetch holds its place in the stream. */
    uint64_t *word = g_gate.host;
    __atomic_store_n(word, 0, __ATOMIC_RELEASE);
    ACL_OK(aclrtValueWait(g_gate.dev, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    ACL_OK(aclrtMemManagedPrefetchAsync(m, 4 * MIB, loc(ACL_MEM_LOCATIONTYPE_DEVICE, 1), 0, s));
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 4 * MIB), 1);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, 1), ACL_MEM_LOCATIONTYPE_DEVICE);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m, 1), 1);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 6 * MIB), -2);
    aclrtEvent ev;
    ACL_OK(aclrtCreateEvent(&ev));
    ACL_OK(aclrtRecordEvent(ev, s));
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    ACL_OK(aclrtQueryEventStatus(ev, &st));
    assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    __atomic_store_n(word, 1, __ATOMIC_RELEASE);
    ACL_OK(aclrtSynchronizeEvent(ev));
    ACL_OK(aclrtQueryEventStatus(ev, &st));
    assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ACL_OK(aclrtDestroyEvent(ev));
    /* Nothing moved: the data is where it was, for everyone. */
    assert_int_equal(m[4 * MIB - 1], 1);

    ACL_OK(aclrtMemManagedPrefetchAsync(m + 4 * MIB, 2 * MIB, loc(ACL_MEM_LOCATIONTYPE_HOST, 0), 0, NULL));
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m + 4 * MIB, 1), -1);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m + 4 * MIB, 1),
                     ACL_MEM_LOCATIONTYPE_HOST);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m + 4 * MIB, 1), -2);
    ACL_OK(aclrtSynchronizeStream(NULL));

    /* Bad inputs record nothing. */
    aclrtMemManagedLocation host = loc(ACL_MEM_LOCATIONTYPE_HOST, 0);
    ACL_ERR(aclrtMemManagedPrefetchAsync(NULL, PAGE, host, 0, s), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    ACL_ERR(aclrtMemManagedPrefetchAsync(m, 0, host, 0, s), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtMemManagedPrefetchAsync(m, PAGE, host, 1, s), ACL_ERROR_INVALID_PARAM, "flags is 1");
    ACL_ERR(aclrtMemManagedPrefetchAsync(m, PAGE, loc(ACL_MEM_LOCATIONTYPE_DEVICE, 8), 0, s),
            ACL_ERROR_RT_PARAM_INVALID, "device id 8");
    ACL_ERR(aclrtMemManagedPrefetchAsync(m, PAGE, loc(ACL_MEM_LOCATIONTYPE_INVALID, 0), 0, s),
            ACL_ERROR_RT_PARAM_INVALID, "ACL_MEM_LOCATIONTYPE_INVALID");
    ACL_ERR(aclrtMemManagedPrefetchAsync(m, MIB, host, 0, s), ACL_ERROR_RT_PARAM_INVALID, "not a multiple of 2 MiB");
    ACL_ERR(aclrtMemManagedPrefetchAsync(m, 8 * MIB, host, 0, s), ACL_ERROR_RT_PARAM_INVALID,
            "not inside managed memory");
    ACL_OK(aclrtSetDevice(1));
    aclrtStream other;
    ACL_OK(aclrtCreateStream(&other));
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtMemManagedPrefetchAsync(m, PAGE, host, 0, other), ACL_ERROR_RT_STREAM_CONTEXT,
            "belongs to another context");
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtMemManagedPrefetchAsync(m, PAGE, host, 0, s), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 4 * MIB), 1);
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtDestroyStream(other));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtFree(m));
}

static void test_prefetch_batch(void **state)
{
    (void)state;
    char *m = NULL, *n = NULL;
    ACL_OK(aclrtMemAllocManaged((void **)&m, 6 * MIB, ACL_RT_MEM_ATTACH_GLOBAL));
    ACL_OK(aclrtMemAllocManaged((void **)&n, 2 * MIB, ACL_RT_MEM_ATTACH_GLOBAL));
    const void *ptrs[3] = {m, m + 2 * MIB, n};
    size_t sizes[3] = {2 * MIB, 4 * MIB, 2 * MIB};
    aclrtMemManagedLocation locs[2] = {loc(ACL_MEM_LOCATIONTYPE_DEVICE, 3), loc(ACL_MEM_LOCATIONTYPE_HOST_NUMA, 0)};
    size_t idx[2] = {0, 2}; /* ranges 0-1 to device 3, range 2 to NUMA node 0 */
    ACL_OK(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, idx, 2, 0, NULL));
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 6 * MIB), 3);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, n, 2 * MIB), 0);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, n, 1), ACL_MEM_LOCATIONTYPE_HOST_NUMA);
    ACL_OK(aclrtSynchronizeStream(NULL));

    /* Bad inputs: checked in CANN's order, nothing recorded. */
    aclrtMemManagedLocation host = loc(ACL_MEM_LOCATIONTYPE_HOST, 0);
    size_t one[1] = {1}, zz[2] = {0, 0};
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(NULL, sizes, 3, locs, idx, 2, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "ptrs is NULL");
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, NULL, 3, locs, idx, 2, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "sizes is NULL");
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, NULL, idx, 2, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "prefetchLocs is NULL");
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, NULL, 2, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "prefetchLocIdxs is NULL");
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 0, locs, idx, 2, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "count is 0");
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, idx, 0, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "numPrefetchLocs is 0");
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, idx, 2, 1, NULL), ACL_ERROR_INVALID_PARAM,
            "flags is 1");
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 1, locs, idx, 2, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "numPrefetchLocs 2 is more than count 1");
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, &host, one, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "prefetchLocIdxs[0] is 1");
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, zz, 2, 0, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "prefetchLocIdxs[1] = 0");
    size_t past[2] = {0, 3};
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, past, 2, 0, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "prefetchLocIdxs[1] = 3");
    const void *with_null[3] = {m, NULL, n};
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(with_null, sizes, 3, locs, idx, 2, 0, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "ptrs[1] is NULL");
    aclrtMemManagedLocation bad_dev[2] = {host, loc(ACL_MEM_LOCATIONTYPE_DEVICE, 9)};
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, bad_dev, idx, 2, 0, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "prefetchLocs[1]: device id 9");
    /* Every range is checked before anything is recorded: the last one is
       not managed memory, so the first two keep their record. */
    int local[4];
    const void *with_host[3] = {m, m + 2 * MIB, local};
    aclrtMemManagedLocation to_host[2] = {host, host};
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(with_host, sizes, 3, to_host, idx, 2, 0, NULL),
            ACL_ERROR_RT_PARAM_INVALID, "range 2");
    size_t odd[3] = {2 * MIB, MIB, 2 * MIB};
    ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, odd, 3, to_host, idx, 2, 0, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "range 1");
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 6 * MIB), 3);
    assert_int_equal(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, n, 2 * MIB), 0);
    ACL_OK(aclrtFree(n));
    ACL_OK(aclrtFree(m));
}

/* ---- profiles ---------------------------------------------------------------------------------------- */

/* A3: everything works. */
static void child_a3(void)
{
    CHILD_OK(aclrtSetDevice(0));
    char *m = NULL;
    CHILD_OK(aclrtMemAllocManaged((void **)&m, PAGE, ACL_RT_MEM_ATTACH_GLOBAL));
    m[5] = 1;
    CHILD_OK(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, loc(ACL_MEM_LOCATIONTYPE_INVALID, 0)));
    int32_t v = 0;
    CHILD_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, PAGE, &v, 4));
    CHILD_CHECK_INT(v, 1);
    CHILD_OK(aclrtMemManagedPrefetchAsync(m, PAGE, loc(ACL_MEM_LOCATIONTYPE_DEVICE, 0), 0, NULL));
    CHILD_OK(aclrtSynchronizeStream(NULL));
    CHILD_OK(aclrtFree(m));
    CHILD_OK(aclrtResetDevice(0));
}

/* 950, 310P, 310B, 910: 207000 for all six, after the API-layer checks. */
static void child_unsupported(void)
{
    CHILD_OK(aclrtSetDevice(0));
    const char *soc = getenv("OACL_SOC");
    char needle[160];
    void *p = SENTINEL_PTR;
    static int dummy[4];
    aclrtMemManagedLocation host = {ACL_MEM_LOCATIONTYPE_HOST, 0};
    CHILD_ERR(aclrtMemAllocManaged(NULL, 64, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    CHILD_ERR(aclrtMemAllocManaged(&p, 64, 0), ACL_ERROR_INVALID_PARAM, "flag is 0");
    snprintf(needle, sizeof(needle), "aclrtMemAllocManaged is not supported on %s", soc);
    CHILD_ERR(aclrtMemAllocManaged(&p, 64, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    CHILD_CHECK(p == SENTINEL_PTR);
    snprintf(needle, sizeof(needle), "aclrtMemManagedAdvise is not supported on %s", soc);
    CHILD_ERR(aclrtMemManagedAdvise(dummy, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, host),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    int32_t v = 0;
    CHILD_ERR(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)9, dummy, 4, &v, 4), ACL_ERROR_RT_PARAM_INVALID,
              "attribute 9");
    snprintf(needle, sizeof(needle), "aclrtMemManagedGetAttr is not supported on %s", soc);
    CHILD_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, dummy, 4, &v, 4),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    aclrtMemManagedRangeAttribute a = ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY;
    void *data[1] = {&v};
    size_t ds[1] = {4};
    snprintf(needle, sizeof(needle), "aclrtMemManagedGetAttrs is not supported on %s", soc);
    CHILD_ERR(aclrtMemManagedGetAttrs(&a, 1, dummy, 4, data, ds), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    CHILD_ERR(aclrtMemManagedPrefetchAsync(dummy, PAGE, host, 1, NULL), ACL_ERROR_INVALID_PARAM, "flags is 1");
    snprintf(needle, sizeof(needle), "aclrtMemManagedPrefetchAsync is not supported on %s", soc);
    CHILD_ERR(aclrtMemManagedPrefetchAsync(dummy, PAGE, host, 0, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    const void *ptrs[1] = {dummy};
    size_t sizes[1] = {PAGE}, idx[1] = {0};
    snprintf(needle, sizeof(needle), "aclrtMemManagedPrefetchBatchAsync is not supported on %s", soc);
    CHILD_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 1, &host, idx, 1, 0, NULL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    CHILD_OK(aclrtResetDevice(0));
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("a3", "OACL_SOC=Ascend910_9391");
    ASSERT_CHILD_OK("a3", "OACL_SOC=Ascend910B4");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend950PR_9599");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend310B1");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend910A");
}

int main(int argc, char **argv)
{
    static const struct oacl_child_mode modes[] = {{"a3", child_a3}, {"unsupported", child_unsupported}};
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(modes, sizeof(modes) / sizeof(modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_and_free),
        cmocka_unit_test(test_alloc_bad),
        cmocka_unit_test(test_unified_with_kernels),
        cmocka_unit_test(test_copies_and_fills),
        cmocka_unit_test(test_copy_variants),
        cmocka_unit_test(test_advise_and_attributes),
        cmocka_unit_test(test_advise_bad),
        cmocka_unit_test(test_get_attr_bad),
        cmocka_unit_test(test_prefetch),
        cmocka_unit_test(test_prefetch_batch),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
