/*
 * Batch copies: aclrtMemcpyBatch, aclrtMemcpyBatchV2, aclrtMemcpyBatchAsync,
 * aclrtMemcpyBatchAsyncV2. Groups of declared locations, random batches
 * against a reference (pinned, registered and pageable host memory, device
 * memory of two devices with peer access, copies larger than a chunk),
 * stream order with kernels, the pageable rule per copy, every error in
 * CANN's order with failIndex and untouched memory, and the per-SoC
 * availability in child processes.
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

static aclrtMemLocation host_loc(void) { return (aclrtMemLocation){0, ACL_MEM_LOCATION_TYPE_HOST}; }
static aclrtMemLocation dev_loc(uint32_t id) { return (aclrtMemLocation){id, ACL_MEM_LOCATION_TYPE_DEVICE}; }

static aclrtMemcpyBatchAttr attr(aclrtMemLocation dst, aclrtMemLocation src)
{
    aclrtMemcpyBatchAttr a;
    memset(&a, 0, sizeof a);
    a.dstLoc = dst;
    a.srcLoc = src;
    return a;
}

/* Which of the four functions a check goes through. */
enum variant { V_SYNC, V_SYNC2, V_ASYNC, V_ASYNC2 };

static aclError run_batch(enum variant v, void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t n,
                          aclrtMemcpyBatchAttr *attrs, size_t *idx, size_t na, size_t *fail, aclrtStream s)
{
    switch (v) {
    case V_SYNC: return aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, n, attrs, idx, na, fail);
    case V_SYNC2: return aclrtMemcpyBatchV2(dsts, destMaxs, srcs, sizes, n, attrs, idx, na);
    case V_ASYNC: return aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, n, attrs, idx, na, fail, s);
    default: return aclrtMemcpyBatchAsyncV2(dsts, destMaxs, srcs, sizes, n, attrs, idx, na, s);
    }
}

/* Two H2D copies with one attribute, through all four functions. */
static void test_basic(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    unsigned char *d;
    ACL_OK(aclrtMalloc((void **)&d, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    unsigned char h0[100], h1[300];
    for (int v = V_SYNC; v <= V_ASYNC2; v++) {
        memset(d, 0, 1024);
        pattern_fill(h0, sizeof h0, 10u + (unsigned)v);
        pattern_fill(h1, sizeof h1, 20u + (unsigned)v);
        void *dsts[2] = {d, d + 512}, *srcs[2] = {h0, h1};
        size_t destMaxs[2] = {512, 512}, sizes[2] = {100, 300}, idx[1] = {0}, fail = 12345;
        aclrtMemcpyBatchAttr at[1] = {attr(dev_loc(0), host_loc())};
        ACL_OK(run_batch((enum variant)v, dsts, destMaxs, srcs, sizes, 2, at, idx, 1, &fail, s));
        if (v == V_SYNC || v == V_ASYNC)
            assert_int_equal(fail, SIZE_MAX);
        ACL_OK(aclrtSynchronizeStream(s));
        assert_memory_equal(d, h0, 100);
        assert_int_equal(d[100], 0);
        assert_memory_equal(d + 512, h1, 300);
        assert_int_equal(d[812], 0);
    }
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtDestroyStream(s));
}

/* Groups: copies 0-1 H2D (host declared as HOST_NUMA), 2-4 D2H, 5 H2D. */
static void test_groups(void **state)
{
    (void)state;
    unsigned char *d, *pin, page[600];
    ACL_OK(aclrtMalloc((void **)&d, 6 * 100, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&pin, 600));
    pattern_fill(d, 600, 1);
    pattern_fill(pin, 600, 2);
    pattern_fill(page, 600, 3);
    unsigned char d0[600], pin0[600], page0[600];
    memcpy(d0, d, 600);
    memcpy(pin0, pin, 600);
    memcpy(page0, page, 600);
    void *dsts[6] = {d, d + 100, pin + 200, page + 300, pin + 400, d + 500};
    void *srcs[6] = {page, pin + 100, d + 200, d + 300, d + 400, page + 500};
    size_t sizes[6] = {100, 100, 100, 100, 100, 100}, destMaxs[6] = {100, 100, 100, 100, 100, 100};
    aclrtMemLocation numa = {0, ACL_MEM_LOCATION_TYPE_HOST_NUMA};
    aclrtMemcpyBatchAttr at[3] = {attr(dev_loc(0), numa), attr(host_loc(), dev_loc(0)),
                                  attr(dev_loc(0), host_loc())};
    size_t idx[3] = {0, 2, 5}, fail = 0;
    ACL_OK(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 6, at, idx, 3, &fail));
    assert_int_equal(fail, SIZE_MAX);
    assert_memory_equal(d, page0, 100);
    assert_memory_equal(d + 100, pin0 + 100, 100);
    assert_memory_equal(pin + 200, d0 + 200, 100);
    assert_memory_equal(page + 300, d0 + 300, 100);
    assert_memory_equal(pin + 400, d0 + 400, 100);
    assert_memory_equal(d + 500, page0 + 500, 100);
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtFree(d));
}

/* ---- random batches against the reference --------------------------------- */

enum where { W_DEV0, W_DEV1, W_PINNED, W_REGISTERED, W_PAGEABLE, W_COUNT };
#define AREA ((size_t)12 << 20) /* per kind: room for a few copies past a 2 MiB chunk */

struct areas {
    unsigned char *buf[W_COUNT];
    unsigned char *expect[W_COUNT];
    size_t used[W_COUNT];
};

static void areas_init(struct areas *a)
{
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtMalloc((void **)&a->buf[W_DEV1], AREA, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ACL_OK(aclrtMalloc((void **)&a->buf[W_DEV0], AREA, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&a->buf[W_PINNED], AREA));
    a->buf[W_REGISTERED] = aligned_alloc(4096, AREA);
    assert_non_null(a->buf[W_REGISTERED]);
    ACL_OK(aclrtHostRegisterV2(a->buf[W_REGISTERED], AREA, ACL_HOST_REG_PINNED));
    a->buf[W_PAGEABLE] = malloc(AREA);
    assert_non_null(a->buf[W_PAGEABLE]);
    for (int w = 0; w < W_COUNT; w++) {
        a->expect[w] = malloc(AREA);
        assert_non_null(a->expect[w]);
    }
}

static void areas_fini(struct areas *a)
{
    ACL_OK(aclrtFree(a->buf[W_DEV0]));
    ACL_OK(aclrtFree(a->buf[W_DEV1]));
    ACL_OK(aclrtFreeHost(a->buf[W_PINNED]));
    ACL_OK(aclrtHostUnregister(a->buf[W_REGISTERED]));
    free(a->buf[W_REGISTERED]);
    free(a->buf[W_PAGEABLE]);
    for (int w = 0; w < W_COUNT; w++)
        free(a->expect[w]);
    ACL_OK(aclrtDeviceDisablePeerAccess(1));
}

static aclrtMemLocation loc_of(enum where w)
{
    return w == W_DEV0 ? dev_loc(0) : w == W_DEV1 ? dev_loc(1) : host_loc();
}

/* Takes n fresh bytes of kind w: no two copies share bytes. */
static unsigned char *carve(struct areas *a, enum where w, size_t n, size_t *off)
{
    assert_true(a->used[w] + n <= AREA);
    *off = a->used[w];
    a->used[w] += n;
    return a->buf[w] + *off;
}

#define MAXB 64

/* One batch of up to 64 copies in random groups: sources random bytes,
 * everything else a background value; at most two copies larger than a
 * 2 MiB chunk (so every kind has room: 2 * 5 MiB + 64 * 3000 bytes). */
static void random_batch(struct test_rng *rng, struct areas *a, enum variant v, aclrtStream s, int round)
{
    void *dsts[MAXB], *srcs[MAXB];
    size_t destMaxs[MAXB], sizes[MAXB], idx[MAXB];
    aclrtMemcpyBatchAttr at[MAXB];
    memset(a->used, 0, sizeof a->used);
    for (int w = 0; w < W_COUNT; w++)
        memset(a->buf[w], round * 16 + w, AREA);
    size_t n = rng_range(rng, 1, MAXB), na = 0;
    int large = 0;
    enum where gd = W_DEV0, gs = W_PAGEABLE;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || rng_range(rng, 0, 3) == 0) { /* a new group */
            bool h2d = rng_range(rng, 0, 1);
            enum where dev = rng_range(rng, 0, 1) ? W_DEV1 : W_DEV0;
            enum where host = (enum where)rng_range(rng, W_PINNED, W_PAGEABLE);
            gd = h2d ? dev : host;
            gs = h2d ? host : dev;
            at[na] = attr(loc_of(gd), loc_of(gs));
            idx[na++] = i;
        }
        size_t size = rng_range(rng, 1, 3000);
        if (large < 2 && rng_range(rng, 0, 15) == 0) {
            size = rng_range(rng, 2 << 20, 5 << 20);
            large++;
        }
        size_t doff, soff;
        dsts[i] = carve(a, gd, size, &doff);
        srcs[i] = carve(a, gs, size, &soff);
        rng_fill(rng, srcs[i], size);
        sizes[i] = size;
        destMaxs[i] = size + rng_range(rng, 0, 8);
    }
    for (int w = 0; w < W_COUNT; w++)
        memcpy(a->expect[w], a->buf[w], AREA);
    for (size_t i = 0; i < n; i++) {
        int dw = -1;
        for (int w = 0; w < W_COUNT; w++)
            if ((unsigned char *)dsts[i] >= a->buf[w] && (unsigned char *)dsts[i] < a->buf[w] + AREA)
                dw = w;
        memcpy(a->expect[dw] + ((unsigned char *)dsts[i] - a->buf[dw]), srcs[i], sizes[i]);
    }
    size_t fail = 777;
    ACL_OK(run_batch(v, dsts, destMaxs, srcs, sizes, n, at, idx, na, &fail, s));
    if (v == V_SYNC || v == V_ASYNC)
        assert_int_equal(fail, SIZE_MAX);
    ACL_OK(aclrtSynchronizeStream(s));
    for (int w = 0; w < W_COUNT; w++)
        if (memcmp(a->buf[w], a->expect[w], AREA) != 0)
            fail_msg("variant %d, %zu copies in %zu groups: wrong bytes in memory kind %d", (int)v, n, na, w);
}

static void test_random(void **state)
{
    (void)state;
    struct areas a;
    memset(&a, 0, sizeof a);
    areas_init(&a);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct test_rng rng = {0xBA7C4};
    for (int round = 0; round < 24; round++)
        random_batch(&rng, &a, (enum variant)(round % 4), s, round);
    ACL_OK(aclrtDestroyStream(s));
    areas_fini(&a);
}

/* ---- errors -------------------------------------------------------------------- */

struct fixture {
    unsigned char *d, *d2, *pin;
    unsigned char host[512];
    unsigned char snap_d[512], snap_host[512];
    void *dsts[2], *srcs[2];
    size_t destMaxs[2], sizes[2], idx[2];
    aclrtMemcpyBatchAttr at[2];
};

/* Copy 0: host -> d, copy 1: host+256 -> d+256, one H2D group. */
static void fixture_init(struct fixture *f)
{
    memset(f, 0, sizeof *f);
    ACL_OK(aclrtMalloc((void **)&f->d, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&f->d2, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&f->pin, 512));
    pattern_fill(f->d, 512, 1);
    pattern_fill(f->host, 512, 2);
    memcpy(f->snap_d, f->d, 512);
    memcpy(f->snap_host, f->host, 512);
    f->dsts[0] = f->d;
    f->dsts[1] = f->d + 256;
    f->srcs[0] = f->host;
    f->srcs[1] = f->host + 256;
    f->destMaxs[0] = f->destMaxs[1] = 256;
    f->sizes[0] = f->sizes[1] = 200;
    f->at[0] = f->at[1] = attr(dev_loc(0), host_loc());
}

static void fixture_check_fini(struct fixture *f)
{
    assert_memory_equal(f->d, f->snap_d, 512);
    assert_memory_equal(f->host, f->snap_host, 512);
    ACL_OK(aclrtFreeHost(f->pin));
    ACL_OK(aclrtFree(f->d2));
    ACL_OK(aclrtFree(f->d));
}

#define SYNC(f, n, na, fail) aclrtMemcpyBatch((f).dsts, (f).destMaxs, (f).srcs, (f).sizes, n, (f).at, (f).idx, na, fail)

static void test_sync_errors(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    size_t fail = 777;
    /* Step 1. */
    ACL_ERR(SYNC(f, 2, 1, NULL), ACL_ERROR_INVALID_PARAM, "failIndex is NULL");
    ACL_ERR(aclrtMemcpyBatch(f.dsts, f.destMaxs, f.srcs, NULL, 2, f.at, f.idx, 1, &fail), ACL_ERROR_INVALID_PARAM,
            "sizes is NULL");
    assert_int_equal(fail, 777); /* not written before step 2 */
    ACL_ERR(aclrtMemcpyBatch(f.dsts, f.destMaxs, f.srcs, NULL, 0, f.at, f.idx, 1, NULL), ACL_ERROR_INVALID_PARAM,
            "failIndex is NULL");
    ACL_ERR(aclrtMemcpyBatch(f.dsts, f.destMaxs, f.srcs, NULL, 0, f.at, f.idx, 1, &fail), ACL_ERROR_INVALID_PARAM,
            "sizes is NULL");
    ACL_ERR(SYNC(f, 0, 1, &fail), ACL_ERROR_INVALID_PARAM, "numBatches is 0");
    /* Step 2: all sizes 0 -> success before anything else is looked at. */
    size_t zeros[3] = {0, 0, 0};
    fail = 777;
    ACL_OK(aclrtMemcpyBatch(NULL, NULL, NULL, zeros, 3, NULL, NULL, 99, &fail));
    assert_int_equal(fail, SIZE_MAX);
    ACL_OK(aclrtMemcpyBatchV2(NULL, NULL, NULL, zeros, 3, NULL, NULL, 0));
    /* Step 3. */
    fail = 777;
    ACL_ERR(aclrtMemcpyBatch(NULL, f.destMaxs, f.srcs, f.sizes, 2, f.at, f.idx, 1, &fail), ACL_ERROR_INVALID_PARAM,
            "dsts is NULL");
    assert_int_equal(fail, SIZE_MAX);
    ACL_ERR(aclrtMemcpyBatch(f.dsts, NULL, f.srcs, f.sizes, 2, f.at, f.idx, 1, &fail), ACL_ERROR_INVALID_PARAM,
            "destMaxs is NULL");
    ACL_ERR(aclrtMemcpyBatch(f.dsts, f.destMaxs, NULL, f.sizes, 2, f.at, f.idx, 1, &fail), ACL_ERROR_INVALID_PARAM,
            "srcs is NULL");
    ACL_ERR(aclrtMemcpyBatch(f.dsts, f.destMaxs, f.srcs, f.sizes, 2, NULL, f.idx, 1, &fail), ACL_ERROR_INVALID_PARAM,
            "attrs is NULL");
    ACL_ERR(aclrtMemcpyBatch(f.dsts, f.destMaxs, f.srcs, f.sizes, 2, f.at, NULL, 1, &fail), ACL_ERROR_INVALID_PARAM,
            "attrsIndexes is NULL");
    f.destMaxs[1] = 199;
    ACL_ERR(SYNC(f, 2, 1, &fail), ACL_ERROR_INVALID_PARAM, "exceeds destMaxs[1]");
    f.destMaxs[1] = 256;
    f.at[0].rsv[3] = 1;
    ACL_ERR(SYNC(f, 2, 1, &fail), ACL_ERROR_INVALID_PARAM, "attrs[0].rsv[3]");
    f.at[0].rsv[3] = 0;
    f.dsts[1] = NULL;
    ACL_ERR(SYNC(f, 2, 1, &fail), ACL_ERROR_INVALID_PARAM, "dsts[1] is NULL");
    f.dsts[1] = f.d + 256;
    /* Step 4. */
    ACL_ERR(SYNC(f, 2, 0, &fail), ACL_ERROR_RT_PARAM_INVALID, "numAttrs 0");
    ACL_ERR(SYNC(f, 2, 3, &fail), ACL_ERROR_RT_PARAM_INVALID, "numAttrs 3");
    f.idx[0] = 1;
    ACL_ERR(SYNC(f, 2, 1, &fail), ACL_ERROR_RT_PARAM_INVALID, "attrsIndexes[0] is 1");
    f.idx[0] = 0;
    f.idx[1] = 0;
    ACL_ERR(SYNC(f, 2, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "attrsIndexes[1] = 0");
    f.idx[1] = 2;
    ACL_ERR(SYNC(f, 2, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "attrsIndexes[1] = 2");
    f.idx[1] = 1;
    assert_int_equal(fail, SIZE_MAX);
    /* Step 5: per copy, failIndex names it; copy 0 is not done either. */
    f.at[1] = attr(dev_loc(1), host_loc());
    ACL_ERR(SYNC(f, 2, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "dsts[1] is memory of device 0");
    assert_int_equal(fail, 1);
    f.at[1] = attr(host_loc(), host_loc());
    ACL_ERR(SYNC(f, 2, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "attrs[1].dstLoc declares host memory");
    assert_int_equal(fail, 1);
    f.at[1] = attr(dev_loc(0), dev_loc(0));
    ACL_ERR(SYNC(f, 2, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "srcs[1] is host memory");
    f.at[1] = attr(dev_loc(0), (aclrtMemLocation){0, ACL_MEM_LOCATION_TYPE_UNREGISTERED});
    ACL_ERR(SYNC(f, 2, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "declares unregistered memory");
    f.at[1] = f.at[0];
    /* Host to host, device to device (declared as they are). */
    unsigned char other[256];
    f.srcs[1] = other;
    f.dsts[1] = f.host + 256;
    f.at[1] = attr(host_loc(), host_loc());
    ACL_ERR(SYNC(f, 2, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "both host memory");
    assert_int_equal(fail, 1);
    f.srcs[0] = f.d2;
    f.at[0] = attr(dev_loc(0), dev_loc(0));
    ACL_ERR(SYNC(f, 2, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "both device memory");
    assert_int_equal(fail, 0);
    f.srcs[0] = f.host;
    f.at[0] = attr(dev_loc(0), host_loc());
    f.srcs[1] = f.host + 256;
    f.dsts[1] = f.d + 256;
    f.at[1] = f.at[0];
    /* Past the end of the allocation (512 bytes asked, 544 taken). */
    f.dsts[1] = f.d + 400;
    f.destMaxs[1] = 200;
    ACL_ERR(SYNC(f, 2, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "run past the end");
    assert_int_equal(fail, 1);
    f.dsts[1] = f.d + 256;
    f.destMaxs[1] = 256;
    /* The limit of the synchronous form. */
    enum { BIG = 4097 };
    void **dsts = calloc(BIG, sizeof(void *)), **srcs = calloc(BIG, sizeof(void *));
    size_t *sz = calloc(BIG, sizeof(size_t)), *dm = calloc(BIG, sizeof(size_t));
    for (int i = 0; i < BIG; i++) {
        dsts[i] = f.d + i % 512;
        srcs[i] = f.host;
        sz[i] = dm[i] = 0;
    }
    sz[5] = dm[5] = 1;
    size_t zero = 0;
    ACL_ERR(aclrtMemcpyBatch(dsts, dm, srcs, sz, BIG, f.at, &zero, 1, &fail), ACL_ERROR_RT_PARAM_INVALID, "4096");
    assert_int_equal(fail, SIZE_MAX);
    free(dsts);
    free(srcs);
    free(sz);
    free(dm);
    fixture_check_fini(&f);
}

static void test_async_errors(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    f.srcs[0] = f.pin;
    f.srcs[1] = f.pin + 256;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    size_t fail = 777;
    ACL_ERR(aclrtMemcpyBatchAsync(f.dsts, f.destMaxs, f.srcs, f.sizes, 2, f.at, f.idx, 1, NULL, s),
            ACL_ERROR_INVALID_PARAM, "failIndex is NULL");
    ACL_ERR(aclrtMemcpyBatchAsyncV2(f.dsts, f.destMaxs, f.srcs, NULL, 2, f.at, f.idx, 1, s), ACL_ERROR_INVALID_PARAM,
            "sizes is NULL");
    ACL_ERR(aclrtMemcpyBatchAsync(f.dsts, f.destMaxs, f.srcs, f.sizes, 2, f.at, f.idx, 5, &fail, s),
            ACL_ERROR_RT_PARAM_INVALID, "numAttrs 5");
    assert_int_equal(fail, SIZE_MAX);
    /* A copy of size 0 among others: refused, and nothing before it was
       issued (copy 0 would have been queued). */
    size_t three_sizes[3] = {200, 0, 10}, three_max[3] = {256, 256, 256};
    void *three_dsts[3] = {f.d, f.d + 256, f.d + 300}, *three_srcs[3] = {f.pin, f.pin, f.pin};
    ACL_ERR(aclrtMemcpyBatchAsync(three_dsts, three_max, three_srcs, three_sizes, 3, f.at, f.idx, 1, &fail, s),
            ACL_ERROR_RT_PARAM_INVALID, "copy 1 has size 0");
    assert_int_equal(fail, 1);
    /* A bad copy after good ones: nothing issued either. */
    f.at[1] = attr(host_loc(), host_loc());
    f.idx[1] = 1;
    ACL_ERR(aclrtMemcpyBatchAsync(f.dsts, f.destMaxs, f.srcs, f.sizes, 2, f.at, f.idx, 2, &fail, s),
            ACL_ERROR_RT_PARAM_INVALID, "dsts[1] is memory of device 0");
    assert_int_equal(fail, 1);
    f.at[1] = f.at[0];
    /* Streams. */
    int local;
    ACL_ERR(aclrtMemcpyBatchAsync(f.dsts, f.destMaxs, f.srcs, f.sizes, 2, f.at, f.idx, 1, &fail, &local),
            ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    assert_int_equal(fail, SIZE_MAX);
    aclrtContext mine, other;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream foreign;
    ACL_OK(aclrtCreateStream(&foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtMemcpyBatchAsyncV2(f.dsts, f.destMaxs, f.srcs, f.sizes, 2, f.at, f.idx, 1, foreign),
            ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtDestroyStream(foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtSynchronizeStream(s));
    /* The asynchronous form has no 4096 limit. */
    enum { BIG = 5000 };
    void **dsts = calloc(BIG, sizeof(void *)), **srcs = calloc(BIG, sizeof(void *));
    size_t *sz = calloc(BIG, sizeof(size_t)), *dm = calloc(BIG, sizeof(size_t));
    unsigned char *big;
    ACL_OK(aclrtMalloc((void **)&big, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(big, 0, BIG);
    for (int i = 0; i < BIG; i++) {
        f.pin[i % 256] = (unsigned char)i;
        dsts[i] = big + i;
        srcs[i] = f.pin + i % 256;
        sz[i] = dm[i] = 1;
    }
    size_t zero = 0;
    ACL_OK(aclrtMemcpyBatchAsync(dsts, dm, srcs, sz, BIG, f.at, &zero, 1, &fail, s));
    ACL_OK(aclrtSynchronizeStream(s));
    for (int i = 0; i < BIG; i++)
        assert_int_equal(big[i], f.pin[i % 256]);
    ACL_OK(aclrtFree(big));
    free(dsts);
    free(srcs);
    free(sz);
    free(dm);
    ACL_OK(aclrtDestroyStream(s));
    fixture_check_fini(&f);
}

static void *no_context_thread(void *arg)
{
    struct fixture *f = arg;
    size_t fail = 777;
    ACL_ERR(SYNC(*f, 2, 1, &fail), ACL_ERROR_RT_CONTEXT_NULL, "context");
    assert_int_equal(fail, SIZE_MAX);
    ACL_ERR(aclrtMemcpyBatchAsyncV2(f->dsts, f->destMaxs, f->srcs, f->sizes, 2, f->at, f->idx, 1, NULL),
            ACL_ERROR_RT_CONTEXT_NULL, "context");
    return NULL;
}

static void test_no_context(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    oacl_test_run_thread(no_context_thread, &f);
    fixture_check_fini(&f);
}

/* Device 1's memory from device 0 without peer access: the copy is named. */
static void test_peer(void **state)
{
    (void)state;
    unsigned char *d1, h[64];
    pattern_fill(h, sizeof h, 8);
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtMalloc((void **)&d1, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(d1, 0, 128);
    ACL_OK(aclrtSetDevice(0));
    void *dsts[2] = {d1, d1 + 64}, *srcs[2] = {h, h};
    size_t sizes[2] = {64, 64}, idx[1] = {0}, fail = 0;
    aclrtMemcpyBatchAttr at[1] = {attr(dev_loc(1), host_loc())};
    ACL_ERR(aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 2, at, idx, 1, &fail), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtDeviceEnablePeerAccess");
    assert_int_equal(fail, 0);
    assert_int_equal(d1[0], 0);
    ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ACL_OK(aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 2, at, idx, 1, &fail));
    assert_memory_equal(d1 + 64, h, 64);
    ACL_OK(aclrtDeviceDisablePeerAccess(1));
    ACL_OK(aclrtFree(d1));
}

/* ---- stream order, pageable rule -------------------------------------------------- */

/* Behind a closed gate: a kernel fills device memory, a batch brings it to
 * pinned host memory; nothing runs until the gate opens. */
static void test_async_order(void **state)
{
    (void)state;
    struct test_gate g;
    gate_init(&g);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t *d, *pin;
    ACL_OK(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&pin, 4096));
    memset(d, 0, 4096);
    memset(pin, 0, 4096);
    gate_close(&g, s);
    launch_fill(d, 31, 1024, s);
    void *dsts[3] = {pin, pin + 100, pin + 500}, *srcs[3] = {d, d + 100, d + 500};
    size_t sizes[3] = {40, 400, 4}, idx[1] = {0}, fail = 0;
    aclrtMemcpyBatchAttr at[1] = {attr(host_loc(), dev_loc(0))};
    ACL_OK(aclrtMemcpyBatchAsync(dsts, sizes, srcs, sizes, 3, at, idx, 1, &fail, s));
    bool held = pin[0] == 0; /* queued behind the gate */
    gate_open(&g);
    assert_true(held);
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(pin[0], 31);
    assert_int_equal(pin[9], 31);
    assert_int_equal(pin[10], 0);
    assert_int_equal(pin[199], 31);
    assert_int_equal(pin[200], 0);
    assert_int_equal(pin[500], 31);
    assert_int_equal(pin[501], 0);
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtDestroyStream(s));
    gate_fini(&g);
}

/* Pageable copies are done when the call returns, after everything queued
 * before them (the kernel, and the pinned copy earlier in the batch); a
 * later pinned copy is queued behind them. */
static void test_async_pageable(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t *d, *pin, page[64];
    ACL_OK(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&pin, 4096));
    memset(d, 0, 4096);
    memset(pin, 0, 4096);
    memset(page, 0, sizeof page);
    launch_fill(d, 55, 64, s);
    for (int i = 0; i < 16; i++)
        pin[512 + i] = 900u + (uint32_t)i;
    /* 0: d[0..16) -> pin (pinned, queued); 1: d[16..32) -> page (pageable:
       done now); 2: pin[512..528) -> d[100..116) (pinned, queued). */
    void *dsts[3] = {pin, page, d + 100}, *srcs[3] = {d, d + 16, pin + 512};
    size_t sizes[3] = {64, 64, 64}, idx[2] = {0, 2}, fail = 0;
    aclrtMemcpyBatchAttr at[2] = {attr(host_loc(), dev_loc(0)), attr(dev_loc(0), host_loc())};
    ACL_OK(aclrtMemcpyBatchAsync(dsts, sizes, srcs, sizes, 3, at, idx, 2, &fail, s));
    for (int i = 0; i < 16; i++)
        assert_int_equal(page[i], 55);
    assert_int_equal(pin[0], 55); /* copy 0 ran before the pageable copy 1 */
    assert_int_equal(page[16], 0);
    ACL_OK(aclrtSynchronizeStream(s));
    for (int i = 0; i < 16; i++)
        assert_int_equal(d[100 + i], 900u + (uint32_t)i);
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtDestroyStream(s));
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
    void *dsts[2] = {&back, konst}, *srcs[2] = {konst, &v};
    size_t sizes[2] = {4, 4}, idx[2] = {0, 1}, fail = 0;
    aclrtMemcpyBatchAttr at[2] = {attr(host_loc(), dev_loc(0)), attr(dev_loc(0), host_loc())};
    ACL_ERR(aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID,
            "dsts[1] 0x");
    assert_int_equal(fail, 1);
    assert_int_equal(back, 0); /* copy 0 was not done either */
    ACL_OK(aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 1, at, idx, 1, &fail));
    assert_int_equal(back, 7);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* ---- SoC profiles ---------------------------------------------------------------- */

static void child_unsupported(void)
{
    CHILD_OK(aclrtSetDevice(0));
    unsigned char *d, h[64];
    pattern_fill(h, sizeof h, 4);
    CHILD_OK(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(d, 0, 64);
    void *dsts[1] = {d}, *srcs[1] = {h};
    size_t sizes[1] = {64}, zero[1] = {0}, idx[1] = {0}, fail = 3;
    aclrtMemcpyBatchAttr at[1] = {attr(dev_loc(0), host_loc())};
    /* API-layer checks come first; all sizes 0 is still a success. */
    CHILD_ERR(aclrtMemcpyBatch(dsts, sizes, srcs, NULL, 1, at, idx, 1, &fail), ACL_ERROR_INVALID_PARAM, "sizes");
    CHILD_OK(aclrtMemcpyBatch(dsts, sizes, srcs, zero, 1, at, idx, 1, &fail));
    CHILD_ERR(aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 1, at, idx, 1, &fail), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtMemcpyBatch is not supported on");
    CHILD_CHECK_INT(fail, (long long)SIZE_MAX);
    CHILD_ERR(aclrtMemcpyBatchV2(dsts, sizes, srcs, sizes, 1, at, idx, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "not supported");
    CHILD_ERR(aclrtMemcpyBatchAsync(dsts, sizes, srcs, sizes, 1, at, idx, 1, &fail, NULL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    CHILD_ERR(aclrtMemcpyBatchAsyncV2(dsts, sizes, srcs, sizes, 1, at, idx, 1, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "not supported");
    CHILD_OK(aclrtSynchronizeStream(NULL));
    CHILD_CHECK_INT(d[0], 0);
    CHILD_OK(aclrtFree(d));
    CHILD_OK(aclrtResetDevice(0));
}

static void child_supported(void)
{
    CHILD_OK(aclrtSetDevice(0));
    unsigned char *d, h[64];
    pattern_fill(h, sizeof h, 4);
    CHILD_OK(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    void *dsts[1] = {d}, *srcs[1] = {h};
    size_t sizes[1] = {64}, idx[1] = {0}, fail = 3;
    aclrtMemcpyBatchAttr at[1] = {attr(dev_loc(0), host_loc())};
    CHILD_OK(aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 1, at, idx, 1, &fail));
    CHILD_CHECK(memcmp(d, h, 64) == 0);
    CHILD_OK(aclrtFree(d));
    CHILD_OK(aclrtResetDevice(0));
}

static const struct oacl_child_mode g_modes[] = {
    {"unsupported", child_unsupported},
    {"supported", child_supported},
};

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("supported", "OACL_SOC=Ascend910_9382");
    ASSERT_CHILD_OK("supported", "OACL_SOC=Ascend950DT_9591");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend310P1");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend310B4");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend910PremiumA");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof g_modes / sizeof g_modes[0], argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_sync_errors),
        cmocka_unit_test(test_async_errors),
        cmocka_unit_test(test_no_context),
        cmocka_unit_test(test_peer),
        cmocka_unit_test(test_binary_globals),
        cmocka_unit_test(test_async_order),
        cmocka_unit_test(test_async_pageable),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
