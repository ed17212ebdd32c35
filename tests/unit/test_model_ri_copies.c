/*
 * Capture of the memory tasks beyond plain copies and memsets: 32-bit
 * fills (aclrtMemsetD32Async), 2-D copies and batch copies are recorded and
 * replayed like any copy (they once broke the capture: 507903 at
 * aclmdlRICaptureEnd). Every replay is checked against the expected bytes
 * after the memory was scrambled in between.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define ROWS 32u
#define COLS 48u       /* bytes per row copied */
#define PITCH 64u      /* bytes per row in memory */
#define WORDS 1000u

static aclrtStream g_s;
static uint32_t *g_fill;  /* WORDS words */
static uint8_t *g_src2d;  /* ROWS x PITCH */
static uint8_t *g_dst2d;  /* ROWS x PITCH */
static uint8_t *g_batch;  /* device, 4 KiB: the batch's destinations at 2048 and 3072 */
static uint8_t *g_hsrc;   /* pinned host, 1 KiB: the batch's sources */

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_s) ||
        aclrtMalloc((void **)&g_fill, WORDS * 4, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc((void **)&g_src2d, ROWS * PITCH, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc((void **)&g_dst2d, ROWS * PITCH, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc((void **)&g_batch, 4096, ACL_MEM_MALLOC_HUGE_FIRST) || aclrtMallocHost((void **)&g_hsrc, 1024))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtDestroyStream(g_s);
    aclrtFree(g_fill);
    aclrtFree(g_src2d);
    aclrtFree(g_dst2d);
    aclrtFree(g_batch);
    aclrtFreeHost(g_hsrc);
    return aclrtResetDeviceForce(0);
}

static aclrtMemcpyBatchAttr h2d_attr(void)
{
    aclrtMemcpyBatchAttr a;
    memset(&a, 0, sizeof(a));
    a.dstLoc = (aclrtMemLocation){0, ACL_MEM_LOCATION_TYPE_DEVICE};
    a.srcLoc = (aclrtMemLocation){0, ACL_MEM_LOCATION_TYPE_HOST};
    return a;
}

/* Sources get fresh contents (seed r), destinations garbage. */
static void scramble(uint32_t r, uint8_t *src_host)
{
    for (uint32_t i = 0; i < ROWS * PITCH; i++)
        src_host[i] = (uint8_t)(i * 7u + r * 13u + 1u);
    ACL_OK(aclrtMemcpy(g_src2d, ROWS * PITCH, src_host, ROWS * PITCH, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemset(g_dst2d, ROWS * PITCH, 0xEE, ROWS * PITCH));
    ACL_OK(aclrtMemset(g_fill, WORDS * 4, 0xEE, WORDS * 4));
    memcpy(g_hsrc, src_host, 1024); /* the batch reads its host sources when it runs */
    ACL_OK(aclrtMemset(g_batch + 2048, 2048, 0xEE, 2048));                                /* destinations */
}

static void check(uint32_t r, const uint8_t *src_host)
{
    uint32_t fill[WORDS];
    ACL_OK(aclrtMemcpy(fill, sizeof(fill), g_fill, sizeof(fill), ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < WORDS; i++)
        if (fill[i] != 0x12345678u)
            fail_msg("replay %u: fill word %u is 0x%x", r, i, fill[i]);
    uint8_t dst[ROWS * PITCH];
    ACL_OK(aclrtMemcpy(dst, sizeof(dst), g_dst2d, sizeof(dst), ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t row = 0; row < ROWS; row++)
        for (uint32_t c = 0; c < PITCH; c++) {
            uint8_t want = c < COLS ? src_host[row * PITCH + c] : 0xEE; /* the pitch gap untouched */
            if (dst[row * PITCH + c] != want)
                fail_msg("replay %u: 2-D byte (%u,%u) is %u, want %u", r, row, c, dst[row * PITCH + c], want);
        }
    uint8_t b[2048];
    ACL_OK(aclrtMemcpy(b, sizeof(b), g_batch + 2048, sizeof(b), ACL_MEMCPY_DEVICE_TO_HOST));
    if (memcmp(b, src_host, 300) != 0 || memcmp(b + 1024, src_host + 512, 200) != 0)
        fail_msg("replay %u: a batch copy did not land", r);
    if (b[300] != 0xEE || b[1024 + 200] != 0xEE)
        fail_msg("replay %u: a batch copy wrote past its size", r);
}

static void test_fill_2d_batch_replay(void **state)
{
    (void)state;
    aclmdlRI ri = NULL;
    ACL_OK(aclrtMemset(g_fill, WORDS * 4, 0, WORDS * 4));
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtMemsetD32Async(g_fill, WORDS * 4, 0x12345678u, WORDS, g_s));
    ACL_OK(aclrtMemcpy2dAsync(g_dst2d, PITCH, g_src2d, PITCH, COLS, ROWS, ACL_MEMCPY_DEVICE_TO_DEVICE, g_s));
    void *dsts[2] = {g_batch + 2048, g_batch + 3072};
    void *srcs[2] = {g_hsrc, g_hsrc + 512};
    size_t maxs[2] = {1024, 1024}, sizes[2] = {300, 200}, idx[1] = {0}, fail = 0;
    aclrtMemcpyBatchAttr at[1] = {h2d_attr()};
    ACL_OK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 2, at, idx, 1, &fail, g_s));
    aclError end = aclmdlRICaptureEnd(g_s, &ri);
    if (end != ACL_SUCCESS)
        fail_msg("aclmdlRICaptureEnd returned %d: %s", end, aclGetRecentErrMsg());
    assert_non_null(ri);

    /* nothing ran at capture */
    uint32_t w = 0;
    ACL_OK(aclrtMemcpy(&w, 4, g_fill, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(w, 0);
    uint8_t src_host[ROWS * PITCH];
    for (uint32_t r = 0; r < 8; r++) {
        scramble(r, src_host);
        ACL_OK(aclmdlRIExecuteAsync(ri, g_s));
        ACL_OK(aclrtSynchronizeStreamWithTimeout(g_s, 20000));
        check(r, src_host);
    }
    ACL_OK(aclmdlRIDestroy(ri));
}

/* A fill captured on a second stream forked from the origin and joined
 * back: the RI holds it on that stream. */
static void test_fill_on_forked_stream(void **state)
{
    (void)state;
    aclrtStream y;
    aclrtEvent fork, join;
    ACL_OK(aclrtCreateStream(&y));
    ACL_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ACL_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtRecordEvent(fork, g_s));
    ACL_OK(aclrtStreamWaitEvent(y, fork));
    ACL_OK(aclrtMemsetD32Async(g_fill, WORDS * 4, 0x12345678u, WORDS, y));
    ACL_OK(aclrtRecordEvent(join, y));
    ACL_OK(aclrtStreamWaitEvent(g_s, join));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    for (uint32_t r = 0; r < 4; r++) {
        ACL_OK(aclrtMemset(g_fill, WORDS * 4, 0, WORDS * 4));
        ACL_OK(aclmdlRIExecuteAsync(ri, g_s));
        ACL_OK(aclrtSynchronizeStreamWithTimeout(g_s, 20000));
        uint32_t last = 0;
        ACL_OK(aclrtMemcpy(&last, 4, g_fill + WORDS - 1, 4, ACL_MEMCPY_DEVICE_TO_HOST));
        assert_int_equal(last, 0x12345678u);
    }
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyEvent(fork));
    ACL_OK(aclrtDestroyEvent(join));
    ACL_OK(aclrtDestroyStream(y));
}

/* Cache maintenance between a fill and a copy: recorded (listed as CMO in
 * the RI's debug output) and replayed in order. */
static void test_cmo_recorded(void **state)
{
    (void)state;
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtMemsetD32Async(g_fill, WORDS * 4, 0xCAFEF00Du, WORDS, g_s));
    ACL_OK(aclrtCmoAsync(g_fill, WORDS * 4, ACL_RT_CMO_TYPE_WRITEBACK, g_s));
    ACL_OK(aclrtMemcpyAsync(g_dst2d, 64, g_fill, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, g_s));
    aclError end = aclmdlRICaptureEnd(g_s, &ri);
    if (end != ACL_SUCCESS)
        fail_msg("aclmdlRICaptureEnd returned %d: %s", end, aclGetRecentErrMsg());
    aclrtStream streams[2];
    uint32_t n = 2;
    ACL_OK(aclmdlRIGetStreams(ri, streams, &n));
    assert_int_equal(n, 1);
    aclmdlRITask tasks[4];
    uint32_t m = 4;
    ACL_OK(aclmdlRIGetTasksByStream(streams[0], tasks, &m));
    assert_int_equal(m, 3);
    for (uint32_t r = 0; r < 3; r++) {
        ACL_OK(aclrtMemset(g_dst2d, 64, 0, 64));
        ACL_OK(aclmdlRIExecuteAsync(ri, g_s));
        ACL_OK(aclrtSynchronizeStreamWithTimeout(g_s, 20000));
        uint32_t got[16];
        ACL_OK(aclrtMemcpy(got, 64, g_dst2d, 64, ACL_MEMCPY_DEVICE_TO_HOST));
        for (uint32_t i = 0; i < 16; i++)
            assert_int_equal(got[i], 0xCAFEF00Du);
    }
    ACL_OK(aclmdlRIDestroy(ri));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_2d_batch_replay),
        cmocka_unit_test(test_fill_on_forked_stream),
        cmocka_unit_test(test_cmo_recorded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
