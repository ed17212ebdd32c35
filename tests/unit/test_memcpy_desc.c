/*
 * Copies whose addresses live in device memory: aclrtGetMemcpyDescSize,
 * aclrtSetMemcpyDesc, aclrtMemcpyAsyncWithDesc, aclrtMemcpyAsyncWithOffset,
 * and the deprecated aclrtMemcpyAsyncWithCondition. The descriptor and the
 * address slots are read when the task runs (a kernel, a stream write or a
 * later aclrtSetMemcpyDesc still change the copy); a bad range then fails
 * the task with ACL_ERROR_RT_SYS_DMA at the next synchronise. Errors in
 * CANN's order, state unchanged, per-SoC availability in child processes.
 */
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "copy_test_util.h"

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_fill;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "fill_u32", &g_fill))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_bin);
    aclrtResetDeviceForce(1);
    return aclrtResetDeviceForce(0);
}

static void launch_fill(void *out, uint32_t value, uint32_t count, aclrtStream s)
{
    const void *v[] = {&out, &value, &count};
    const size_t sz[] = {sizeof out, sizeof value, sizeof count};
    ACL_OK(test_launch(g_fill, 1, s, 3, v, sz));
}

static const aclrtMemcpyKind INNER = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;

struct desc_fields {
    uint32_t resv[3];
    uint32_t len;
    uint64_t src, dst;
};

static struct desc_fields read_desc(const void *desc)
{
    struct desc_fields f;
    memcpy(&f, desc, sizeof f);
    return f;
}

/* ---- descriptor size ------------------------------------------------------------ */

static void test_desc_size(void **state)
{
    (void)state;
    size_t size = 99;
    ACL_OK(aclrtGetMemcpyDescSize(INNER, &size));
    assert_int_equal(size, 32);
    size = 99;
    ACL_ERR(aclrtGetMemcpyDescSize(INNER, NULL), ACL_ERROR_INVALID_PARAM, "descSize is NULL");
    ACL_ERR(aclrtGetMemcpyDescSize((aclrtMemcpyKind)8, &size), ACL_ERROR_INVALID_PARAM, "kind 8");
    ACL_ERR(aclrtGetMemcpyDescSize((aclrtMemcpyKind)-1, &size), ACL_ERROR_INVALID_PARAM, "kind -1");
    ACL_ERR(aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "ACL_MEMCPY_DEVICE_TO_DEVICE");
    ACL_ERR(aclrtGetMemcpyDescSize(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE");
    assert_int_equal(size, 99);
}

/* ---- setting a descriptor -------------------------------------------------------- */

static void test_set_desc(void **state)
{
    (void)state;
    unsigned char *desc, *a, *b;
    ACL_OK(aclrtMalloc((void **)&desc, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(desc, 0xAA, 256);
    ACL_OK(aclrtSetMemcpyDesc(desc, INNER, a + 16, b + 32, 1000, NULL));
    struct desc_fields f = read_desc(desc);
    assert_int_equal(f.resv[0], 0);
    assert_int_equal(f.resv[1], 0);
    assert_int_equal(f.resv[2], 0);
    assert_int_equal(f.len, 1000);
    assert_int_equal(f.src, (uint64_t)(uintptr_t)(a + 16));
    assert_int_equal(f.dst, (uint64_t)(uintptr_t)(b + 32));
    assert_int_equal(desc[32], 0xAA); /* 32 bytes on this profile */
    /* Exactly 4 GiB passes the check and is stored in the 32-bit field. */
    ACL_OK(aclrtSetMemcpyDesc(desc + 64, INNER, a, b, (size_t)1 << 32, NULL));
    assert_int_equal(read_desc(desc + 64).len, 0);
    unsigned char snap[256];
    memcpy(snap, desc, 256);

    ACL_ERR(aclrtSetMemcpyDesc(NULL, INNER, a, b, 8, NULL), ACL_ERROR_INVALID_PARAM, "desc is NULL");
    ACL_ERR(aclrtSetMemcpyDesc(desc, (aclrtMemcpyKind)8, a, b, 8, NULL), ACL_ERROR_INVALID_PARAM, "kind 8");
    ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, NULL, b, 8, NULL), ACL_ERROR_INVALID_PARAM, "srcAddr is NULL");
    ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, NULL, 8, NULL), ACL_ERROR_INVALID_PARAM, "dstAddr is NULL");
    ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, b, 0, NULL), ACL_ERROR_INVALID_PARAM, "count is 0");
    ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, b, 8, a), ACL_ERROR_INVALID_PARAM, "config");
    ACL_ERR(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, a, b, 8, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "INNER_DEVICE_TO_DEVICE");
    ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, b, ((size_t)1 << 32) + 1, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "4 GiB");
    ACL_ERR(aclrtSetMemcpyDesc(desc + 32, INNER, a, b, 8, NULL), ACL_ERROR_RT_PARAM_INVALID, "64-byte aligned");
    void *pin;
    ACL_OK(aclrtMallocHost(&pin, 4096));
    ACL_ERR(aclrtSetMemcpyDesc(pin, INNER, a, b, 8, NULL), ACL_ERROR_RT_PARAM_INVALID, "device memory");
    ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, pin, b, 8, NULL), ACL_ERROR_RT_PARAM_INVALID, "srcAddr");
    unsigned char local[8];
    ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, local, 8, NULL), ACL_ERROR_RT_PARAM_INVALID, "dstAddr");
    unsigned char *d1;
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtMalloc((void **)&d1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, d1, 8, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "device 0 and dstAddr of device 1");
    /* Order of the checks. */
    ACL_ERR(aclrtSetMemcpyDesc(NULL, (aclrtMemcpyKind)9, NULL, NULL, 0, a), ACL_ERROR_INVALID_PARAM, "desc is NULL");
    ACL_ERR(aclrtSetMemcpyDesc(desc, (aclrtMemcpyKind)9, NULL, NULL, 0, a), ACL_ERROR_INVALID_PARAM, "kind 9");
    ACL_ERR(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_HOST_TO_DEVICE, a, b, 8, a), ACL_ERROR_INVALID_PARAM, "config");
    ACL_ERR(aclrtSetMemcpyDesc(desc + 1, ACL_MEMCPY_HOST_TO_DEVICE, a, b, (size_t)1 << 40, NULL),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "INNER_DEVICE_TO_DEVICE");
    ACL_ERR(aclrtSetMemcpyDesc(desc + 1, INNER, pin, b, (size_t)1 << 40, NULL), ACL_ERROR_RT_PARAM_INVALID, "4 GiB");
    ACL_ERR(aclrtSetMemcpyDesc(desc + 1, INNER, pin, b, 8, NULL), ACL_ERROR_RT_PARAM_INVALID, "aligned");
    assert_memory_equal(desc, snap, 256);
    ACL_OK(aclrtFree(d1));
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtFree(b));
    ACL_OK(aclrtFree(a));
    ACL_OK(aclrtFree(desc));
}

static void *set_desc_no_context(void *arg)
{
    unsigned char **p = arg;
    ACL_ERR(aclrtSetMemcpyDesc(p[0], INNER, p[1], p[1] + 64, 8, NULL), ACL_ERROR_RT_CONTEXT_NULL, "context");
    ACL_ERR(aclrtMemcpyAsyncWithOffset((void **)p[1], 64, 0, (const void **)p[1], 8, 0, INNER, NULL),
            ACL_ERROR_RT_CONTEXT_NULL, "context");
    /* Needs no context. */
    size_t size = 0;
    ACL_OK(aclrtGetMemcpyDescSize(INNER, &size));
    assert_int_equal(size, 32);
    return NULL;
}

static void test_no_context(void **state)
{
    (void)state;
    unsigned char *p[2];
    ACL_OK(aclrtMalloc((void **)&p[0], 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&p[1], 256, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(p[0], 0x5A, 64);
    oacl_test_run_thread(set_desc_no_context, p);
    assert_int_equal(p[0][12], 0x5A);
    ACL_OK(aclrtFree(p[0]));
    ACL_OK(aclrtFree(p[1]));
}

/* ---- copies with a descriptor ------------------------------------------------------ */

struct bufs {
    unsigned char *desc, *src, *dst;
};

static void bufs_init(struct bufs *b)
{
    ACL_OK(aclrtMalloc((void **)&b->desc, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&b->src, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&b->dst, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    pattern_fill(b->src, 4096, 1);
    memset(b->dst, 0, 4096);
}

static void bufs_fini(struct bufs *b)
{
    ACL_OK(aclrtFree(b->desc));
    ACL_OK(aclrtFree(b->src));
    ACL_OK(aclrtFree(b->dst));
}

/* Bytes [from, to) of dst are src[soff + ...]; the rest is still 0. */
static void expect_copied(const struct bufs *b, size_t from, size_t to, size_t soff)
{
    for (size_t i = 0; i < 4096; i++) {
        unsigned char want = i >= from && i < to ? b->src[soff + i - from] : 0;
        if (b->dst[i] != want)
            fail_msg("dst[%zu] = %u, expected %u (copy of [%zu, %zu))", i, b->dst[i], want, from, to);
    }
}

static void test_with_desc(void **state)
{
    (void)state;
    struct bufs b;
    bufs_init(&b);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src + 10, b.dst + 100, 300, NULL));
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_OK(aclrtSynchronizeStream(s));
    expect_copied(&b, 100, 400, 10);
    /* A length of 0 written by a kernel: nothing happens. */
    memset(b.dst, 0, 4096);
    launch_fill(b.desc + 12, 0, 1, s);
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_OK(aclrtSynchronizeStream(s));
    expect_copied(&b, 0, 0, 0);
    /* Overlapping source and destination: memmove. */
    pattern_fill(b.dst, 4096, 9);
    unsigned char expect[4096];
    memcpy(expect, b.dst, 4096);
    memmove(expect + 10, expect, 1000);
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.dst, b.dst + 10, 1000, NULL));
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_memory_equal(b.dst, expect, 4096);
    ACL_OK(aclrtDestroyStream(s));
    bufs_fini(&b);
}

/* The descriptor is read when the task runs: a kernel rewriting the length,
 * or a later aclrtSetMemcpyDesc, changes what is copied. */
static void test_desc_read_at_execution(void **state)
{
    (void)state;
    struct bufs b;
    bufs_init(&b);
    struct test_gate g;
    gate_init(&g);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));

    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src, b.dst, 16, NULL));
    gate_close(&g, s);
    launch_fill(b.desc + 12, 64, 1, s); /* len = 64 */
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    bool held = read_desc(b.desc).len == 16; /* nothing ran yet */
    gate_open(&g);
    assert_true(held);
    ACL_OK(aclrtSynchronizeStream(s));
    expect_copied(&b, 0, 64, 0);

    memset(b.dst, 0, 4096);
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src, b.dst, 16, NULL));
    gate_close(&g, s);
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src + 1000, b.dst + 2000, 500, NULL));
    gate_open(&g);
    ACL_OK(aclrtSynchronizeStream(s));
    expect_copied(&b, 2000, 2500, 1000);

    ACL_OK(aclrtDestroyStream(s));
    gate_fini(&g);
    bufs_fini(&b);
}

/* A range that is not device memory when the task runs fails it with
 * ACL_ERROR_RT_SYS_DMA, reported by the next synchronise; nothing is
 * written, and the stream keeps working. */
static void test_desc_bad_range(void **state)
{
    (void)state;
    struct bufs b;
    bufs_init(&b);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    /* Past the end of the source allocation. */
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src + 4000, b.dst, 1000, NULL));
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, "source range");
    expect_copied(&b, 0, 0, 0);
    ACL_OK(aclrtSynchronizeStream(s)); /* reported once */
    /* A source address rewritten by a kernel to something that is no
       memory at all. */
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src, b.dst, 100, NULL));
    launch_fill(b.desc + 16, 0x10, 2, s);
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, "not valid device memory");
    /* Destination past the end. */
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src, b.dst + 4090, 100, NULL));
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, "destination range");
    expect_copied(&b, 0, 0, 0);
    /* Still usable. */
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src, b.dst, 8, NULL));
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_OK(aclrtSynchronizeStream(s));
    expect_copied(&b, 0, 8, 0);
    ACL_OK(aclrtDestroyStream(s));
    bufs_fini(&b);
}

static void test_with_desc_errors(void **state)
{
    (void)state;
    struct bufs b;
    bufs_init(&b);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src, b.dst, 100, NULL));
    ACL_ERR(aclrtMemcpyAsyncWithDesc(NULL, INNER, s), ACL_ERROR_INVALID_PARAM, "desc is NULL");
    ACL_ERR(aclrtMemcpyAsyncWithDesc(b.desc, (aclrtMemcpyKind)8, s), ACL_ERROR_INVALID_PARAM, "kind 8");
    ACL_ERR(aclrtMemcpyAsyncWithDesc(b.desc, INNER, NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    ACL_ERR(aclrtMemcpyAsyncWithDesc(b.desc, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "INNER_DEVICE_TO_DEVICE");
    void *pin;
    ACL_OK(aclrtMallocHost(&pin, 4096));
    memcpy(pin, b.desc, 32);
    ACL_ERR(aclrtMemcpyAsyncWithDesc(pin, INNER, s), ACL_ERROR_RT_PARAM_INVALID, "device memory");
    int local;
    ACL_ERR(aclrtMemcpyAsyncWithDesc(b.desc, INNER, &local), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    aclrtContext mine, other;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream foreign;
    ACL_OK(aclrtCreateStream(&foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtMemcpyAsyncWithDesc(b.desc, INNER, foreign), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtDestroyStream(foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyContext(other));
    /* Order. */
    ACL_ERR(aclrtMemcpyAsyncWithDesc(NULL, (aclrtMemcpyKind)8, NULL), ACL_ERROR_INVALID_PARAM, "desc is NULL");
    ACL_ERR(aclrtMemcpyAsyncWithDesc(pin, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM,
            "stream is NULL");
    ACL_ERR(aclrtMemcpyAsyncWithDesc(pin, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, NULL);
    ACL_OK(aclrtSynchronizeStream(s));
    expect_copied(&b, 0, 0, 0); /* nothing was queued */
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtDestroyStream(s));
    bufs_fini(&b);
}

/* ---- pointer-to-pointer copies ------------------------------------------------------- */

static void test_with_offset(void **state)
{
    (void)state;
    struct bufs b;
    bufs_init(&b);
    uint64_t *slots;
    ACL_OK(aclrtMalloc((void **)&slots, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    slots[0] = (uint64_t)(uintptr_t)b.dst;
    slots[1] = (uint64_t)(uintptr_t)b.src;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtMemcpyAsyncWithOffset((void **)&slots[0], 4096, 300, (const void **)&slots[1], 200, 50, INNER, s));
    ACL_OK(aclrtSynchronizeStream(s));
    expect_copied(&b, 300, 500, 50);
    /* The default stream, and the last byte of destMax. */
    memset(b.dst, 0, 4096);
    ACL_OK(aclrtMemcpyAsyncWithOffset((void **)&slots[0], 1000, 999, (const void **)&slots[1], 1, 7, INNER, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    expect_copied(&b, 999, 1000, 7);

    /* The slots are read when the task runs: a stream write changes the
       destination base behind the gate. */
    struct test_gate g;
    gate_init(&g);
    memset(b.dst, 0, 4096);
    gate_close(&g, s);
    ACL_OK(aclrtValueWrite(&slots[0], (uint64_t)(uintptr_t)(b.dst + 1024), 0, s));
    ACL_OK(aclrtMemcpyAsyncWithOffset((void **)&slots[0], 2048, 16, (const void **)&slots[1], 100, 0, INNER, s));
    bool held = slots[0] == (uint64_t)(uintptr_t)b.dst;
    gate_open(&g);
    assert_true(held);
    ACL_OK(aclrtSynchronizeStream(s));
    expect_copied(&b, 1040, 1140, 0);
    gate_fini(&g);

    /* A base that is no device memory when the task runs: 507013. */
    memset(b.dst, 0, 4096);
    ACL_OK(aclrtValueWrite(&slots[1], 0x1000, 0, s));
    ACL_OK(aclrtMemcpyAsyncWithOffset((void **)&slots[0], 4096, 0, (const void **)&slots[1], 100, 0, INNER, s));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, "source range");
    expect_copied(&b, 0, 0, 0);
    /* A destination offset past its allocation at execution. */
    slots[1] = (uint64_t)(uintptr_t)b.src;
    ACL_OK(aclrtMemcpyAsyncWithOffset((void **)&slots[0], 1 << 20, 4095, (const void **)&slots[1], 1000, 0, INNER,
                                      s));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, "destination range");
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtFree(slots));
    bufs_fini(&b);
}

static void test_with_offset_errors(void **state)
{
    (void)state;
    struct bufs b;
    bufs_init(&b);
    uint64_t *slots;
    ACL_OK(aclrtMalloc((void **)&slots, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    slots[0] = (uint64_t)(uintptr_t)b.dst;
    slots[1] = (uint64_t)(uintptr_t)b.src;
    void **dslot = (void **)&slots[0];
    const void **sslot = (const void **)&slots[1];
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    const size_t G48 = (size_t)0xFFFFFFFFFFFFull;
    ACL_OK(aclrtMemcpyAsyncWithOffset(NULL, 0, 0, NULL, 0, 0, (aclrtMemcpyKind)99, NULL)); /* count 0 */
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, 4096, 0, sslot, 8, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
            ACL_ERROR_RT_PARAM_INVALID, "kind 3");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(NULL, 4096, 0, sslot, 8, 0, INNER, s), ACL_ERROR_RT_PARAM_INVALID,
            "dst is NULL");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, 4096, 0, NULL, 8, 0, INNER, s), ACL_ERROR_RT_PARAM_INVALID,
            "src is NULL");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, 8, 0, sslot, 9, 0, INNER, s), ACL_ERROR_RT_PARAM_INVALID,
            "count 9 exceeds destMax 8");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, SIZE_MAX, 0, sslot, ((size_t)1 << 32) + 1, 0, INNER, s),
            ACL_ERROR_RT_PARAM_INVALID, "4 GiB");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, SIZE_MAX, G48 + 1, sslot, 8, 0, INNER, s), ACL_ERROR_RT_PARAM_INVALID,
            "dstDataOffset");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, SIZE_MAX, 0, sslot, 8, G48 + 1, INNER, s), ACL_ERROR_RT_PARAM_INVALID,
            "srcDataOffset");
    ACL_OK(aclrtMemcpyAsyncWithOffset(dslot, 4096, 0, sslot, 8, G48, INNER, s)); /* 48 bits pass; fails running */
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, NULL);
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, 100, 100, sslot, 1, 0, INNER, s), ACL_ERROR_RT_PARAM_INVALID,
            "dstDataOffset 100 is not below destMax 100");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, 100, 50, sslot, 51, 0, INNER, s), ACL_ERROR_RT_PARAM_INVALID,
            "runs past destMax");
    uint64_t host_slots[2] = {slots[0], slots[1]};
    ACL_ERR(aclrtMemcpyAsyncWithOffset((void **)&host_slots[0], 4096, 0, sslot, 8, 0, INNER, s),
            ACL_ERROR_RT_PARAM_INVALID, "dst");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, 4096, 0, (const void **)&host_slots[1], 8, 0, INNER, s),
            ACL_ERROR_RT_PARAM_INVALID, "src");
    /* A slot whose 8 bytes run past the allocation (64 asked, 96 taken). */
    ACL_ERR(aclrtMemcpyAsyncWithOffset((void **)((char *)slots + 92), 4096, 0, sslot, 8, 0, INNER, s),
            ACL_ERROR_RT_PARAM_INVALID, "8-byte address slot");
    int local;
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, 4096, 0, sslot, 8, 0, INNER, &local), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live stream");
    aclrtContext mine, other;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream foreign;
    ACL_OK(aclrtCreateStream(&foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, 4096, 0, sslot, 8, 0, INNER, foreign), ACL_ERROR_RT_STREAM_CONTEXT,
            NULL);
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtDestroyStream(foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyContext(other));
    /* Order. */
    ACL_ERR(aclrtMemcpyAsyncWithOffset(NULL, 0, 0, NULL, 8, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
            ACL_ERROR_RT_PARAM_INVALID, "kind 3");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(NULL, 0, 0, NULL, 8, 0, INNER, s), ACL_ERROR_RT_PARAM_INVALID, "dst is NULL");
    ACL_ERR(aclrtMemcpyAsyncWithOffset(dslot, 0, G48 + 1, sslot, 8, 0, INNER, s), ACL_ERROR_RT_PARAM_INVALID,
            "count 8 exceeds destMax 0");
    ACL_OK(aclrtSynchronizeStream(s));
    expect_copied(&b, 0, 0, 0);
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtFree(slots));
    bufs_fini(&b);
}

/* ---- the deprecated aclrtMemcpyAsyncWithCondition ---------------------------------------- */

/* Tests may call the deprecated function; oacl's own sources never do. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static aclError with_condition(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                               aclrtStream stream)
{
    return aclrtMemcpyAsyncWithCondition(dst, destMax, src, count, kind, stream);
}
#pragma GCC diagnostic pop

static void test_with_condition(void **state)
{
    (void)state;
    struct test_gate g;
    gate_init(&g);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    unsigned char *d, *pin, page[256];
    ACL_OK(aclrtMalloc((void **)&d, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&pin, 256));
    memset(d, 0, 256);
    pattern_fill(pin, 256, 3);
    /* Pinned memory: queued (behind the gate). */
    gate_close(&g, s);
    ACL_OK(with_condition(d, 256, pin, 256, ACL_MEMCPY_HOST_TO_DEVICE, s));
    bool held = d[0] == 0;
    gate_open(&g);
    assert_true(held);
    ACL_OK(aclrtSynchronizeStream(s));
    assert_memory_equal(d, pin, 256);
    /* Pageable memory: done when the call returns, after the kernel. */
    launch_fill(d, 0x01010101u, 64, s);
    memset(page, 0, sizeof page);
    ACL_OK(with_condition(page, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST, s));
    assert_int_equal(page[0], 1);
    assert_int_equal(page[255], 1);
    /* aclrtMemcpyAsync's checks, named after this function. */
    ACL_OK(with_condition(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    ACL_ERR(with_condition(NULL, 256, pin, 8, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM,
            "aclrtMemcpyAsyncWithCondition: dst is NULL");
    ACL_ERR(with_condition(d, 4, pin, 8, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID, "destMax");
    ACL_ERR(with_condition(page, 256, pin, 8, ACL_MEMCPY_HOST_TO_HOST, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtMemcpyAsyncWithCondition: asynchronous ACL_MEMCPY_HOST_TO_HOST");
    int local;
    ACL_ERR(with_condition(d, 256, pin, 8, ACL_MEMCPY_HOST_TO_DEVICE, &local), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(d[0], 1); /* the rejected copies changed nothing */
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtDestroyStream(s));
    gate_fini(&g);
}

/* Globals of a kernel binary (tests/kernels/rt_sym.c): g_const (7) is
 * read-only device memory, g_scale writable. */
static void load_globals(aclrtBinHandle *bin, uint32_t **konst, uint32_t **scale)
{
    size_t size = 0;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_sym"), NULL, bin));
    ACL_OK(aclrtBinaryGetGlobal(*bin, "g_const", (void **)konst, &size));
    assert_int_equal(size, 4);
    ACL_OK(aclrtBinaryGetGlobal(*bin, "g_scale", (void **)scale, &size));
    assert_int_equal(size, 4);
}

/* A constant of a kernel binary: never a destination, at the call or when
 * the copy runs; a fine source. */
static void test_binary_globals(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    uint32_t *konst, *scale;
    load_globals(&bin, &konst, &scale);
    struct bufs b;
    bufs_init(&b);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_ERR(aclrtSetMemcpyDesc(b.desc, INNER, b.src, konst, 4, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "not writable device memory");
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, konst, b.dst, 4, NULL));
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_OK(aclrtSynchronizeStream(s));
    uint32_t got;
    memcpy(&got, b.dst, 4);
    assert_int_equal(got, 7);
    /* The destination rewritten in stream order to the constant. */
    ACL_OK(aclrtSetMemcpyDesc(b.desc, INNER, b.src, scale, 4, NULL));
    ACL_OK(aclrtValueWrite(b.desc + 24, (uint64_t)(uintptr_t)konst, 0, s));
    ACL_OK(aclrtMemcpyAsyncWithDesc(b.desc, INNER, s));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, "not valid writable device memory");
    /* Offsets: a slot holding the constant's address as the destination. */
    uint64_t *slots;
    ACL_OK(aclrtMalloc((void **)&slots, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    slots[0] = (uint64_t)(uintptr_t)konst;
    slots[1] = (uint64_t)(uintptr_t)b.src;
    ACL_OK(aclrtMemcpyAsyncWithOffset((void **)&slots[0], 4, 0, (const void **)&slots[1], 4, 0, INNER, s));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, "destination range");
    ACL_OK(aclrtMemcpy(&got, 4, konst, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(got, 7);
    ACL_OK(aclrtFree(slots));
    ACL_OK(aclrtDestroyStream(s));
    bufs_fini(&b);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* ---- SoC profiles --------------------------------------------------------------------------- */

/* Descriptors: size `desc` (0: unsupported); offsets supported or not. */
static void child_check(size_t desc_size, bool offsets)
{
    CHILD_OK(aclrtSetDevice(0));
    unsigned char *desc, *a, *b;
    uint64_t *slots;
    CHILD_OK(aclrtMalloc((void **)&desc, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMalloc((void **)&a, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMalloc((void **)&b, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMalloc((void **)&slots, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    pattern_fill(a, 256, 5);
    memset(b, 0, 256);
    memset(desc, 0xCC, 128);
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    size_t size = 0;
    CHILD_ERR(aclrtGetMemcpyDescSize(INNER, NULL), ACL_ERROR_INVALID_PARAM, "descSize");
    CHILD_ERR(aclrtSetMemcpyDesc(desc, INNER, a, b, 0, NULL), ACL_ERROR_INVALID_PARAM, "count is 0");
    CHILD_ERR(aclrtMemcpyAsyncWithDesc(desc, INNER, NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    if (desc_size) {
        CHILD_OK(aclrtGetMemcpyDescSize(INNER, &size));
        CHILD_CHECK_INT(size, desc_size);
        CHILD_OK(aclrtSetMemcpyDesc(desc, INNER, a, b, 100, NULL));
        for (size_t i = 32; i < 128; i++)
            CHILD_CHECK_INT(desc[i], i < desc_size ? 0 : 0xCC);
        CHILD_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, s));
        CHILD_OK(aclrtSynchronizeStream(s));
        CHILD_CHECK(memcmp(a, b, 100) == 0 && b[100] == 0);
    } else {
        CHILD_ERR(aclrtGetMemcpyDescSize(INNER, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "aclrtGetMemcpyDescSize is not supported on");
        CHILD_ERR(aclrtSetMemcpyDesc(desc, INNER, a, b, 100, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "aclrtSetMemcpyDesc is not supported on");
        CHILD_ERR(aclrtMemcpyAsyncWithDesc(desc, INNER, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "aclrtMemcpyAsyncWithDesc is not supported on");
        CHILD_CHECK_INT(desc[0], 0xCC);
    }
    memset(b, 0, 256);
    slots[0] = (uint64_t)(uintptr_t)b;
    slots[1] = (uint64_t)(uintptr_t)a;
    CHILD_ERR(aclrtMemcpyAsyncWithOffset((void **)&slots[0], 256, 0, (const void **)&slots[1], 8, 0,
                                         ACL_MEMCPY_DEVICE_TO_DEVICE, s),
              ACL_ERROR_RT_PARAM_INVALID, "kind 3");
    if (offsets) {
        CHILD_OK(aclrtMemcpyAsyncWithOffset((void **)&slots[0], 256, 0, (const void **)&slots[1], 8, 0, INNER, s));
        CHILD_OK(aclrtSynchronizeStream(s));
        CHILD_CHECK(memcmp(a, b, 8) == 0);
    } else {
        CHILD_ERR(aclrtMemcpyAsyncWithOffset((void **)&slots[0], 256, 0, (const void **)&slots[1], 8, 0, INNER, s),
                  ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMemcpyAsyncWithOffset is not supported on");
    }
    /* The deprecated copy is everywhere. */
    unsigned char page[16];
    CHILD_CHECK(with_condition(page, 16, a, 16, ACL_MEMCPY_DEVICE_TO_HOST, s) == ACL_SUCCESS);
    CHILD_CHECK(memcmp(page, a, 16) == 0);
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_OK(aclrtResetDevice(0));
}

static void child_a3(void) { child_check(32, true); }
static void child_950(void) { child_check(64, true); }
static void child_310b(void) { child_check(32, false); }
static void child_310p(void) { child_check(0, false); }
static void child_910(void) { child_check(0, true); }

static const struct oacl_child_mode g_modes[] = {
    {"a3", child_a3}, {"950", child_950}, {"310b", child_310b}, {"310p", child_310p}, {"910", child_910},
};

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("a3", "OACL_SOC=Ascend910_9362");
    ASSERT_CHILD_OK("950", "OACL_SOC=Ascend950PR_9579");
    ASSERT_CHILD_OK("310b", "OACL_SOC=Ascend310B1");
    ASSERT_CHILD_OK("310p", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("910", "OACL_SOC=Ascend910ProB");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof g_modes / sizeof g_modes[0], argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_desc_size),
        cmocka_unit_test(test_set_desc),
        cmocka_unit_test(test_no_context),
        cmocka_unit_test(test_with_desc),
        cmocka_unit_test(test_desc_read_at_execution),
        cmocka_unit_test(test_desc_bad_range),
        cmocka_unit_test(test_with_desc_errors),
        cmocka_unit_test(test_with_offset),
        cmocka_unit_test(test_with_offset_errors),
        cmocka_unit_test(test_binary_globals),
        cmocka_unit_test(test_with_condition),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
