/*
 * 2-D copies: aclrtMemcpy2d and aclrtMemcpy2dAsync. The spec's example,
 * many random shapes/pitches/kinds against a reference copy (host<->device
 * with pinned, registered and pageable host memory, device<->device on one
 * device and across two devices with peer access), overlapping matrices,
 * large matrices, stream order with kernels, the pageable rule, every
 * error in CANN's order with state left unchanged, and the per-SoC rules
 * in child processes.
 */
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "copy_test_util.h"

#define BUF (64 * 1024)

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_fill, g_copy_plus;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "fill_u32", &g_fill) || aclrtBinaryGetFunction(g_bin, "copy_plus", &g_copy_plus))
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

/* fill_u32 with one block: count words at out set to value. */
static void launch_fill(void *out, uint32_t value, uint32_t count, aclrtStream s)
{
    const void *v[] = {&out, &value, &count};
    const size_t sz[] = {sizeof out, sizeof value, sizeof count};
    ACL_OK(test_launch(g_fill, 1, s, 3, v, sz));
}

/* copy_plus with one block: out[i] = in[i] + add for i < count. */
static void launch_copy_plus(const void *in, void *out, uint32_t add, uint32_t count, aclrtStream s)
{
    const void *v[] = {&in, &out, &add, &count};
    const size_t sz[] = {sizeof in, sizeof out, sizeof add, sizeof count};
    ACL_OK(test_launch(g_copy_plus, 1, s, 4, v, sz));
}

/* The spec's example: 3 rows of 5 bytes, pitches 8 (src) and 16 (dst):
 * only the 5-byte parts of dst change. */
static void test_spec_example(void **state)
{
    (void)state;
    unsigned char src[24], back[48], expect[48];
    pattern_fill(src, sizeof src, 1);
    void *d;
    ACL_OK(aclrtMalloc(&d, 48, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(d, 0xEE, 48);
    ACL_OK(aclrtMemcpy2d(d, 16, src, 8, 5, 3, ACL_MEMCPY_HOST_TO_DEVICE));
    memset(expect, 0xEE, sizeof expect);
    for (int r = 0; r < 3; r++)
        memcpy(expect + 16 * r, src + 8 * r, 5);
    assert_memory_equal(d, expect, 48);
    /* And back, with DEFAULT: rows of 5 at pitch 16 into pitch 6. */
    memset(back, 0x11, sizeof back);
    ACL_OK(aclrtMemcpy2d(back, 6, d, 16, 5, 3, ACL_MEMCPY_DEFAULT));
    for (int r = 0; r < 3; r++) {
        assert_memory_equal(back + 6 * r, src + 8 * r, 5);
        assert_int_equal(back[6 * r + 5], 0x11);
    }
    assert_int_equal(back[18], 0x11);
    ACL_OK(aclrtFree(d));
}

/* Nothing to copy: success even with NULL pointers and bad kinds. */
static void test_empty(void **state)
{
    (void)state;
    ACL_OK(aclrtMemcpy2d(NULL, 0, NULL, 0, 0, 5, (aclrtMemcpyKind)99));
    ACL_OK(aclrtMemcpy2d(NULL, 0, NULL, 0, 5, 0, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ACL_OK(aclrtMemcpy2dAsync(NULL, 0, NULL, 0, 0, 0, ACL_MEMCPY_HOST_TO_HOST, NULL));
    int local;
    ACL_OK(aclrtMemcpy2dAsync(NULL, 0, NULL, 0, 7, 0, ACL_MEMCPY_DEFAULT, &local)); /* not even the stream */
}

struct err_bufs {
    void *d, *d2;
    unsigned char *pin;
    unsigned char host[256];
    unsigned char snap_d[256], snap_host[256];
};

static void err_bufs_init(struct err_bufs *b)
{
    ACL_OK(aclrtMalloc(&b->d, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&b->d2, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&b->pin, 4096));
    pattern_fill(b->d, 256, 3);
    pattern_fill(b->d2, 256, 4);
    pattern_fill(b->host, 256, 5);
    pattern_fill(b->pin, 256, 6);
    memcpy(b->snap_d, b->d, 256);
    memcpy(b->snap_host, b->host, 256);
}

/* Nothing was written by the rejected calls. */
static void err_bufs_check_fini(struct err_bufs *b)
{
    assert_memory_equal(b->d, b->snap_d, 256);
    assert_memory_equal(b->host, b->snap_host, 256);
    ACL_OK(aclrtFree(b->d));
    ACL_OK(aclrtFree(b->d2));
    ACL_OK(aclrtFreeHost(b->pin));
}

static void test_sync_errors(void **state)
{
    (void)state;
    struct err_bufs b;
    err_bufs_init(&b);
    void *d = b.d, *h = b.host;
    const aclrtMemcpyKind H2D = ACL_MEMCPY_HOST_TO_DEVICE, D2H = ACL_MEMCPY_DEVICE_TO_HOST;
    ACL_ERR(aclrtMemcpy2d(NULL, 16, h, 16, 8, 4, H2D), ACL_ERROR_INVALID_PARAM, "dst is NULL");
    ACL_ERR(aclrtMemcpy2d(d, 16, NULL, 16, 8, 4, H2D), ACL_ERROR_INVALID_PARAM, "src is NULL");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 7, 8, 4, H2D), ACL_ERROR_INVALID_PARAM, "width 8 exceeds spitch 7");
    ACL_ERR(aclrtMemcpy2d(d, 7, h, 16, 8, 4, H2D), ACL_ERROR_INVALID_PARAM, "width 8 exceeds dpitch 7");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 16, 8, 4, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM, "kind 0");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 16, 8, 4, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "kind 5");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 16, 8, 4, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "kind 6");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 16, 8, 4, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM, "kind -1");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 16, 8, 5242881, H2D), ACL_ERROR_RT_PARAM_INVALID, "height 5242881");
    ACL_ERR(aclrtMemcpy2d(d, 5000001, h, 5000001, 5000001, 1, H2D), ACL_ERROR_RT_PARAM_INVALID,
            "width 5000001");
    ACL_ERR(aclrtMemcpy2d(d, 16, b.d2, 16, 8, 4, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtMemcpy2dAsync");
    /* Direction derived from the operands. */
    ACL_ERR(aclrtMemcpy2d(d, 16, b.d2, 16, 8, 4, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID,
            "both device memory");
    ACL_ERR(aclrtMemcpy2d(h, 16, b.pin, 16, 8, 4, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID,
            "both host memory");
    ACL_ERR(aclrtMemcpy2d(h, 16, d, 16, 8, 4, H2D), ACL_ERROR_RT_PARAM_INVALID,
            "ACL_MEMCPY_HOST_TO_DEVICE, but src is device memory and dst is host memory");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 16, 8, 4, D2H), ACL_ERROR_RT_PARAM_INVALID, "ACL_MEMCPY_DEVICE_TO_HOST");
    /* The last row ends past the allocation (256 bytes asked, 288 taken):
       16 rows of pitch 16 from byte 40 end at 40 + 15 * 16 + 16 = 296. */
    ACL_ERR(aclrtMemcpy2d((char *)d + 40, 16, h, 16, 16, 16, H2D), ACL_ERROR_RT_PARAM_INVALID, "run past the end");
    ACL_ERR(aclrtMemcpy2d(h, 16, (char *)d + 40, 16, 16, 16, D2H), ACL_ERROR_RT_PARAM_INVALID, "run past the end");
    /* Pitches so large that the rows overflow the address space. */
    ACL_ERR(aclrtMemcpy2d(d, SIZE_MAX / 2, h, 16, 8, 4, H2D), ACL_ERROR_RT_PARAM_INVALID, "overflow");
    /* The device address of mapped host memory is not a copy operand. */
    ACL_OK(aclrtHostRegisterV2(b.pin, 4096, ACL_HOST_REG_MAPPED));
    void *alias;
    ACL_OK(aclrtHostGetDevicePointer(b.pin, &alias, 0));
    ACL_ERR(aclrtMemcpy2d(alias, 16, h, 16, 8, 4, H2D), ACL_ERROR_RT_PARAM_INVALID, "mapped host memory");
    ACL_OK(aclrtHostUnregister(b.pin));
    /* Order: the first failing rule wins. */
    ACL_ERR(aclrtMemcpy2d(NULL, 4, h, 4, 8, 5242881, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM, "dst is NULL");
    ACL_ERR(aclrtMemcpy2d(d, 4, h, 16, 8, 5242881, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM, "dpitch");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 16, 8, 5242881, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM, "kind 9");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 16, 8, 5242881, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "height");
    ACL_ERR(aclrtMemcpy2d(d, 16, h, 16, 8, 4, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "DEVICE_TO_DEVICE");
    err_bufs_check_fini(&b);
}

static void test_async_errors(void **state)
{
    (void)state;
    struct err_bufs b;
    err_bufs_init(&b);
    void *d = b.d, *h = b.host;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    const aclrtMemcpyKind H2D = ACL_MEMCPY_HOST_TO_DEVICE;
    ACL_ERR(aclrtMemcpy2dAsync(NULL, 16, h, 16, 8, 4, H2D, s), ACL_ERROR_INVALID_PARAM, "dst is NULL");
    ACL_ERR(aclrtMemcpy2dAsync(d, 16, h, 4, 8, 4, H2D, s), ACL_ERROR_INVALID_PARAM, "spitch");
    ACL_ERR(aclrtMemcpy2dAsync(d, 16, h, 16, 8, 4, ACL_MEMCPY_HOST_TO_HOST, s), ACL_ERROR_INVALID_PARAM, "kind 0");
    ACL_ERR(aclrtMemcpy2dAsync(d, 16, h, 16, 8, 5242881, H2D, s), ACL_ERROR_RT_PARAM_INVALID, "height");
    ACL_ERR(aclrtMemcpy2dAsync(h, 16, b.pin, 16, 8, 4, ACL_MEMCPY_DEFAULT, s), ACL_ERROR_RT_PARAM_INVALID,
            "both host memory");
    ACL_ERR(aclrtMemcpy2dAsync(d, 16, h, 16, 8, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID,
            "ACL_MEMCPY_DEVICE_TO_DEVICE, but src is host memory");
    ACL_ERR(aclrtMemcpy2dAsync((char *)d + 284, 16, h, 16, 8, 1, H2D, s), ACL_ERROR_RT_PARAM_INVALID,
            "run past the end");
    /* Streams: a stale handle, a destroyed stream, another context's. */
    int local;
    ACL_ERR(aclrtMemcpy2dAsync(d, 16, h, 16, 8, 4, H2D, &local), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    aclrtStream dead;
    ACL_OK(aclrtCreateStream(&dead));
    ACL_OK(aclrtDestroyStream(dead));
    ACL_ERR(aclrtMemcpy2dAsync(d, 16, b.pin, 16, 8, 4, H2D, dead), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    aclrtContext mine, other;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream foreign;
    ACL_OK(aclrtCreateStream(&foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtMemcpy2dAsync(d, 16, b.pin, 16, 8, 4, H2D, foreign), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtDestroyStream(foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
    err_bufs_check_fini(&b);
}

static void *no_context_thread(void *arg)
{
    void **bufs = arg;
    ACL_ERR(aclrtMemcpy2d(bufs[0], 16, bufs[1], 16, 8, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CONTEXT_NULL,
            "context");
    ACL_ERR(aclrtMemcpy2dAsync(bufs[0], 16, bufs[1], 16, 8, 2, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
            ACL_ERROR_RT_CONTEXT_NULL, "context");
    return NULL;
}

static void test_no_context(void **state)
{
    (void)state;
    void *d;
    unsigned char h[32], snap[32];
    ACL_OK(aclrtMalloc(&d, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    pattern_fill(d, 32, 9);
    memcpy(snap, d, 32);
    pattern_fill(h, 32, 10);
    void *bufs[2] = {d, h};
    oacl_test_run_thread(no_context_thread, bufs);
    assert_memory_equal(d, snap, 32);
    ACL_OK(aclrtFree(d));
}

/* ---- random shapes against the reference ----------------------------------- */

enum where { W_DEV0, W_DEV1, W_PINNED, W_REGISTERED, W_PAGEABLE, W_COUNT };

struct arena {
    unsigned char *buf[W_COUNT][2]; /* two buffers of each kind: copies within a kind use both */
};

static void arena_init(struct arena *a)
{
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtMalloc((void **)&a->buf[W_DEV1][0], BUF, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&a->buf[W_DEV1][1], BUF, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    for (int i = 0; i < 2; i++) {
        ACL_OK(aclrtMalloc((void **)&a->buf[W_DEV0][i], BUF, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_OK(aclrtMallocHost((void **)&a->buf[W_PINNED][i], BUF));
        a->buf[W_REGISTERED][i] = aligned_alloc(4096, BUF);
        assert_non_null(a->buf[W_REGISTERED][i]);
        ACL_OK(aclrtHostRegisterV2(a->buf[W_REGISTERED][i], BUF, ACL_HOST_REG_PINNED));
        a->buf[W_PAGEABLE][i] = malloc(BUF);
        assert_non_null(a->buf[W_PAGEABLE][i]);
    }
}

static void arena_fini(struct arena *a)
{
    for (int i = 0; i < 2; i++) {
        ACL_OK(aclrtFree(a->buf[W_DEV0][i]));
        ACL_OK(aclrtFree(a->buf[W_DEV1][i]));
        ACL_OK(aclrtFreeHost(a->buf[W_PINNED][i]));
        ACL_OK(aclrtHostUnregister(a->buf[W_REGISTERED][i]));
        free(a->buf[W_REGISTERED][i]);
        free(a->buf[W_PAGEABLE][i]);
    }
    ACL_OK(aclrtDeviceDisablePeerAccess(1));
}

static bool is_dev(enum where w) { return w == W_DEV0 || w == W_DEV1; }

/* One random case: returns false when the pair is not a valid 2-D copy for
 * this variant (both host; sync device-to-device). */
static bool random_case(struct test_rng *rng, struct arena *a, bool async, aclrtStream s, unsigned char *expect,
                        unsigned char *scratch)
{
    enum where sw = (enum where)rng_range(rng, 0, W_COUNT - 1), dw = (enum where)rng_range(rng, 0, W_COUNT - 1);
    if (!is_dev(sw) && !is_dev(dw))
        return false;
    if (!async && is_dev(sw) && is_dev(dw))
        return false;
    size_t width = rng_range(rng, 1, rng_range(rng, 0, 3) ? 96 : 600);
    size_t height = rng_range(rng, 1, 40);
    size_t spitch = width + (rng_range(rng, 0, 2) ? rng_range(rng, 0, 64) : 0);
    size_t dpitch = width + (rng_range(rng, 0, 2) ? rng_range(rng, 0, 64) : 0);
    size_t sext = (height - 1) * spitch + width, dext = (height - 1) * dpitch + width;
    size_t soff = rng_range(rng, 0, BUF - sext), doff = rng_range(rng, 0, BUF - dext);
    unsigned char *sbuf = a->buf[sw][0], *dbuf = a->buf[dw][sw == dw ? 1 : 0];
    rng_fill(rng, sbuf, BUF);
    rng_fill(rng, dbuf, BUF);
    memcpy(expect, dbuf, BUF);
    ref_copy_2d(expect + doff, dpitch, sbuf + soff, spitch, width, height, scratch);
    aclrtMemcpyKind kind = ACL_MEMCPY_DEFAULT;
    if (rng_range(rng, 0, 1))
        kind = is_dev(sw) ? (is_dev(dw) ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST)
                          : ACL_MEMCPY_HOST_TO_DEVICE;
    if (async) {
        ACL_OK(aclrtMemcpy2dAsync(dbuf + doff, dpitch, sbuf + soff, spitch, width, height, kind, s));
        ACL_OK(aclrtSynchronizeStream(s));
    } else {
        ACL_OK(aclrtMemcpy2d(dbuf + doff, dpitch, sbuf + soff, spitch, width, height, kind));
    }
    if (memcmp(dbuf, expect, BUF) != 0)
        fail_msg("2-D copy %d->%d, %zu x %zu, pitches %zu/%zu, offsets %zu/%zu, kind %d: wrong bytes", (int)sw,
                 (int)dw, width, height, spitch, dpitch, soff, doff, (int)kind);
    return true;
}

static void random_cases(uint64_t seed, bool async)
{
    struct arena a;
    arena_init(&a);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    unsigned char *expect = malloc(BUF), *scratch = malloc(BUF);
    assert_non_null(expect);
    assert_non_null(scratch);
    struct test_rng rng = {seed};
    int done = 0;
    while (done < 300)
        done += random_case(&rng, &a, async, s, expect, scratch);
    free(expect);
    free(scratch);
    ACL_OK(aclrtDestroyStream(s));
    arena_fini(&a);
}

static void test_random_sync(void **state)
{
    (void)state;
    random_cases(0x2D5EED01, false);
}

static void test_random_async(void **state)
{
    (void)state;
    random_cases(0x2D5EED02, true);
}

/* ---- overlap, large matrices ------------------------------------------------- */

/* Overlapping matrices in one allocation, in the cases where a snapshot
 * result exists (dst before src with dpitch <= spitch, or the mirror). */
static void test_overlap(void **state)
{
    (void)state;
    struct {
        size_t doff, soff, dpitch, spitch, width, height;
    } cases[] = {
        {0, 8, 32, 32, 24, 20},    /* shifted down by 8 bytes, same pitch */
        {8, 0, 32, 32, 24, 20},    /* shifted up */
        {0, 0, 32, 32, 32, 20},    /* identical */
        {0, 64, 16, 32, 16, 30},   /* compacting a strided matrix forward */
        {64, 0, 32, 16, 16, 30},   /* expanding one backward */
        {100, 101, 40, 50, 40, 25}, /* one byte apart, dpitch < spitch */
    };
    void *d;
    ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    unsigned char before[4096], expect[4096], scratch[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pattern_fill(d, 4096, (unsigned)i);
        memcpy(before, d, 4096);
        memcpy(expect, before, 4096);
        ref_copy_2d(expect + cases[i].doff, cases[i].dpitch, before + cases[i].soff, cases[i].spitch, cases[i].width,
                    cases[i].height, scratch);
        ACL_OK(aclrtMemcpy2dAsync((char *)d + cases[i].doff, cases[i].dpitch, (char *)d + cases[i].soff,
                                  cases[i].spitch, cases[i].width, cases[i].height, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
        ACL_OK(aclrtSynchronizeStream(s));
        if (memcmp(d, expect, 4096) != 0)
            fail_msg("overlap case %zu: wrong bytes", i);
    }
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtFree(d));
}

/* Large matrices are cut into pieces the device's threads share; rows wider
 * than a piece, contiguous rows, and a 16 MiB matrix with 8 KiB pitches. */
static void test_large(void **state)
{
    (void)state;
    struct {
        size_t width, height, spitch, dpitch;
    } cases[] = {
        {4096, 2048, 8192, 8192},
        {3 << 20, 3, (3 << 20) + 64, 3 << 20},
        {1000, 9000, 1000, 1000},
        {777, 5000, 1024, 800},
    };
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct test_rng rng = {77};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t w = cases[i].width, h = cases[i].height;
        size_t slen = (h - 1) * cases[i].spitch + w, dlen = (h - 1) * cases[i].dpitch + w;
        unsigned char *src, *dst, *hdst, *expect = malloc(dlen), *scratch = malloc(w * h);
        assert_non_null(expect);
        assert_non_null(scratch);
        ACL_OK(aclrtMalloc((void **)&src, slen, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_OK(aclrtMalloc((void **)&dst, dlen, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_OK(aclrtMallocHost((void **)&hdst, dlen));
        rng_fill(&rng, src, slen);
        rng_fill(&rng, dst, dlen);
        memcpy(expect, dst, dlen);
        ref_copy_2d(expect, cases[i].dpitch, src, cases[i].spitch, w, h, scratch);
        ACL_OK(aclrtMemcpy2dAsync(dst, cases[i].dpitch, src, cases[i].spitch, w, h, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
        memcpy(hdst, expect, dlen);
        rng_fill(&rng, hdst, w); /* first row differs until the D2H copy below */
        ACL_OK(aclrtMemcpy2dAsync(hdst, cases[i].dpitch, src, cases[i].spitch, w, h, ACL_MEMCPY_DEVICE_TO_HOST, s));
        ACL_OK(aclrtSynchronizeStream(s));
        if (memcmp(dst, expect, dlen) != 0)
            fail_msg("large case %zu (D2D): wrong bytes", i);
        if (memcmp(hdst, expect, dlen) != 0)
            fail_msg("large case %zu (D2H): wrong bytes", i);
        ACL_OK(aclrtFreeHost(hdst));
        ACL_OK(aclrtFree(dst));
        ACL_OK(aclrtFree(src));
        free(expect);
        free(scratch);
    }
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- stream order and the pageable rule --------------------------------------- */

/* Behind a closed gate: a kernel writes the source, a 2-D copy moves it, a
 * kernel reads the copy, a 2-D copy brings it to pinned host memory. None
 * of it runs before the gate opens; all of it runs in order after. */
static void test_async_stream_order(void **state)
{
    (void)state;
    enum { ROWS = 8, WORDS = 16 }; /* each row: 16 words of data, pitch 32 words */
    struct test_gate g;
    gate_init(&g);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t *src, *mid, *out, *host;
    size_t bytes = ROWS * 32 * 4;
    ACL_OK(aclrtMalloc((void **)&src, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&mid, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&out, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&host, bytes));
    memset(src, 0, bytes);
    memset(mid, 0, bytes);
    memset(out, 0, bytes);
    memset(host, 0xFF, bytes);
    gate_close(&g, s);
    launch_fill(src, 1000, ROWS * 32, s);                  /* src = 1000 everywhere */
    ACL_OK(aclrtMemcpy2dAsync(mid, 128, src, 128, 64, ROWS, ACL_MEMCPY_DEVICE_TO_DEVICE, s)); /* left halves */
    launch_copy_plus(mid, out, 1, ROWS * 32, s);           /* out = mid + 1 */
    ACL_OK(aclrtMemcpy2dAsync(host, 64, out, 128, 64, ROWS, ACL_MEMCPY_DEVICE_TO_HOST, s)); /* packed */
    /* Nothing has run yet (checked after opening, so a failure cannot
       leave the stream held). */
    bool held = src[0] == 0 && host[0] == 0xFFFFFFFFu;
    gate_open(&g);
    assert_true(held);
    ACL_OK(aclrtSynchronizeStream(s));
    for (int r = 0; r < ROWS; r++)
        for (int w = 0; w < 32; w++) {
            assert_int_equal(mid[r * 32 + w], w < WORDS ? 1000u : 0u);
            assert_int_equal(out[r * 32 + w], w < WORDS ? 1001u : 1u);
        }
    for (int i = 0; i < ROWS * WORDS; i++)
        assert_int_equal(host[i], 1001u);
    assert_int_equal(host[ROWS * WORDS], 0xFFFFFFFFu); /* past the packed rows: untouched */
    ACL_OK(aclrtFreeHost(host));
    ACL_OK(aclrtFree(out));
    ACL_OK(aclrtFree(mid));
    ACL_OK(aclrtFree(src));
    ACL_OK(aclrtDestroyStream(s));
    gate_fini(&g);
}

/* Pageable host memory: the copy is complete when the call returns, after
 * the work queued before it (the kernel's result is there at once); the
 * source may be overwritten right away. */
static void test_async_pageable(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t *d;
    ACL_OK(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(d, 0, 4096);
    uint32_t *host = malloc(4096);
    assert_non_null(host);
    memset(host, 0, 4096);
    launch_fill(d, 77, 1024, s);
    ACL_OK(aclrtMemcpy2dAsync(host, 16, d, 32, 8, 16, ACL_MEMCPY_DEVICE_TO_HOST, s));
    for (int r = 0; r < 16; r++) {
        assert_int_equal(host[r * 4], 77);
        assert_int_equal(host[r * 4 + 1], 77);
        assert_int_equal(host[r * 4 + 2], 0);
    }
    /* H2D from pageable memory, overwritten right after the call. */
    for (int i = 0; i < 64; i++)
        host[i] = 5000u + (uint32_t)i;
    ACL_OK(aclrtMemcpy2dAsync(d, 64, host, 16, 16, 4, ACL_MEMCPY_HOST_TO_DEVICE, s));
    memset(host, 0, 256);
    ACL_OK(aclrtSynchronizeStream(s));
    for (int r = 0; r < 4; r++)
        for (int w = 0; w < 4; w++)
            assert_int_equal(d[r * 16 + w], 5000u + (uint32_t)(r * 4 + w));
    assert_int_equal(d[4], 77);
    free(host);
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtDestroyStream(s));
}

/* Device 1's memory from device 0: refused until peer access is enabled. */
static void test_peer_access(void **state)
{
    (void)state;
    void *d1, *d0;
    unsigned char h[64];
    pattern_fill(h, sizeof h, 3);
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtMalloc(&d1, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(d1, 0, 256);
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtMalloc(&d0, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_ERR(aclrtMemcpy2d(d1, 16, h, 8, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtDeviceEnablePeerAccess");
    ACL_ERR(aclrtMemcpy2dAsync(d0, 16, d1, 8, 8, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "src is memory of device 1");
    unsigned char zero[256] = {0};
    assert_memory_equal(d1, zero, 256);
    ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ACL_OK(aclrtMemcpy2d(d1, 16, h, 8, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    assert_memory_equal((char *)d1 + 16 * 7, h + 56, 8);
    ACL_OK(aclrtDeviceDisablePeerAccess(1));
    ACL_OK(aclrtFree(d0));
    ACL_OK(aclrtFree(d1));
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

/* A constant of a kernel binary is a source, never a destination. */
static void test_binary_globals(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    uint32_t *konst, *scale;
    load_globals(&bin, &konst, &scale);
    uint32_t v = 99, back = 0;
    ACL_ERR(aclrtMemcpy2d(konst, 4, &v, 4, 4, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "read-only");
    ACL_ERR(aclrtMemcpy2dAsync(konst, 4, scale, 4, 4, 1, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL),
            ACL_ERROR_RT_PARAM_INVALID, "read-only");
    ACL_OK(aclrtMemcpy2d(&back, 4, konst, 4, 4, 1, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(back, 7);
    ACL_OK(aclrtMemcpy2dAsync(scale, 4, konst, 4, 4, 1, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtMemcpy(&back, 4, scale, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(back, 7);
    ACL_OK(aclrtMemcpy(&back, 4, konst, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(back, 7);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* ---- SoC profiles (child processes) -------------------------------------------- */

/* H2D/D2H everywhere; asynchronous D2D only where the profile has it. */
static void child_profile(bool async_d2d)
{
    CHILD_OK(aclrtSetDevice(0));
    void *a, *b;
    unsigned char h[64], back[64];
    pattern_fill(h, sizeof h, 42);
    CHILD_OK(aclrtMalloc(&a, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMalloc(&b, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(b, 0, 256);
    CHILD_OK(aclrtMemcpy2d(a, 16, h, 8, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    CHILD_OK(aclrtMemcpy2dAsync(back, 8, a, 16, 8, 8, ACL_MEMCPY_DEVICE_TO_HOST, NULL));
    CHILD_CHECK(memcmp(back, h, 64) == 0);
    CHILD_ERR(aclrtMemcpy2d(b, 16, a, 16, 8, 8, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "DEVICE_TO_DEVICE");
    if (async_d2d) {
        CHILD_OK(aclrtMemcpy2dAsync(b, 16, a, 16, 8, 8, ACL_MEMCPY_DEFAULT, NULL));
        CHILD_OK(aclrtSynchronizeStream(NULL));
        CHILD_CHECK(memcmp((char *)b + 16, (char *)a + 16, 8) == 0);
    } else {
        CHILD_ERR(aclrtMemcpy2dAsync(b, 16, a, 16, 8, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL),
                  ACL_ERROR_RT_PARAM_INVALID, "not supported on");
        CHILD_ERR(aclrtMemcpy2dAsync(b, 16, a, 16, 8, 8, ACL_MEMCPY_DEFAULT, NULL), ACL_ERROR_RT_PARAM_INVALID,
                  "both device memory");
        CHILD_OK(aclrtSynchronizeStream(NULL));
        unsigned char zero[256] = {0};
        CHILD_CHECK(memcmp(b, zero, 256) == 0);
    }
    CHILD_OK(aclrtFree(a));
    CHILD_OK(aclrtFree(b));
    CHILD_OK(aclrtResetDevice(0));
}

static void child_with_d2d(void) { child_profile(true); }
static void child_without_d2d(void) { child_profile(false); }

static const struct oacl_child_mode g_modes[] = {
    {"with_d2d", child_with_d2d},
    {"without_d2d", child_without_d2d},
};

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("with_d2d", "OACL_SOC=Ascend950PR_9599");
    ASSERT_CHILD_OK("with_d2d", "OACL_SOC=Ascend910_9391");
    ASSERT_CHILD_OK("without_d2d", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("without_d2d", "OACL_SOC=Ascend310B1");
    ASSERT_CHILD_OK("without_d2d", "OACL_SOC=Ascend910A");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof g_modes / sizeof g_modes[0], argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_example),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_sync_errors),
        cmocka_unit_test(test_async_errors),
        cmocka_unit_test(test_no_context),
        cmocka_unit_test(test_random_sync),
        cmocka_unit_test(test_random_async),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_async_stream_order),
        cmocka_unit_test(test_async_pageable),
        cmocka_unit_test(test_peer_access),
        cmocka_unit_test(test_binary_globals),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
