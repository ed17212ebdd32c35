/*
 * AscendC classes through kernel_operator.h (kernels in
 * tests/ascendc/kernels/asc_api.cpp): GlobalTensor and LocalTensor
 * accessors, queue queries, TBuf, DataCopyParams strides, DataCopyPad,
 * block/core queries and events, scalar GM access, pipe Reset, half
 * arithmetic in a kernel, printf text and assert.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asc_test.h"
#include "test_support.h"

static aclrtStream g_stream;
static aclrtBinHandle g_bin;
static struct test_buf g_in, g_out, g_aux;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_stream) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("asc_api"), NULL, &g_bin))
        return -1;
    test_buf_alloc(&g_in, 4096);
    test_buf_alloc(&g_out, 4096);
    test_buf_alloc(&g_aux, 16384);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_aux);
    test_buf_free(&g_out);
    test_buf_free(&g_in);
    aclrtBinaryUnLoad(g_bin);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0);
}

static void run(const char *kernel, uint32_t blocks, int n, const void *const *vals, const size_t *sizes)
{
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(g_bin, kernel, &f));
    ACL_OK(test_launch(f, blocks, g_stream, n, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(g_stream));
}

static void test_global_tensor(void **state)
{
    (void)state;
    float *in = g_in.host;
    uint32_t *out = g_out.host;
    for (int i = 0; i < 64; i++)
        in[i] = (float)i * 1.5f + 0.25f;
    float orig11 = in[11];
    memset(out, 0, 256);
    const void *vals[] = {&g_in.dev, &g_out.dev};
    size_t sizes[] = {8, 8};
    run("gm_accessors", 1, 2, vals, sizes);
    assert_int_equal(out[0], 64);
    assert_int_equal(out[1], 64);
    assert_int_equal(out[2], asc_bits(in[8]));
    assert_int_equal(out[3], asc_bits(in[63]));
    assert_true(in[9] == 42.5f);
    assert_true(in[10] == -3.0f);
    assert_true(in[11] == orig11 + 1.0f);
    assert_int_equal(out[4], 5);
    assert_int_equal(out[5], 1);
    assert_int_equal(out[6], 128);
    assert_int_equal(out[7], asc_bits(in[0]) >> 16);
    assert_int_equal(out[8], 0);
    assert_int_equal(out[9], asc_bits(in[2]));
    assert_int_equal(out[10], asc_bits(in[0]) ^ asc_bits(in[1]));
    const uint16_t *h = (const uint16_t *)(out + 20);
    assert_int_equal(h[0], 0x3E00); /* 1.5 */
    assert_int_equal(h[1], 0xC000); /* -2 */
    assert_int_equal(h[2], 0x7C00); /* 65520 rounds to inf */
    assert_int_equal(h[3], 0x4200); /* 1.5 + 1.5 */
}

static void test_local_tensor_and_queues(void **state)
{
    (void)state;
    uint32_t *out = g_out.host;
    memset(out, 0xEE, 512);
    const void *vals[] = {&g_out.dev};
    size_t sizes[] = {8};
    run("local_accessors", 1, 1, vals, sizes);
    static const uint32_t want[27] = {
        1, 1, 0, 128, 256, 9, 0, 256, 112, 32, 0x41800000u, 0xC0E80000u, 6, 64, 0x42004000u, 40, 77,
        1, 0, 1, 1, 0, 1, 32, 10, 9, 1,
    };
    for (int i = 0; i < 27; i++)
        if (out[i] != want[i])
            fail_msg("word %d = 0x%x, expected 0x%x", i, out[i], want[i]);
    const uint16_t *h = (const uint16_t *)(out + 32);
    for (int i = 0; i < 128; i++)
        assert_int_equal(h[i], asc_f16_round((double)(i - 64)));
}

static void test_tbuf(void **state)
{
    (void)state;
    uint32_t *out = g_out.host;
    memset(out, 0xEE, 64);
    const void *vals[] = {&g_out.dev};
    size_t sizes[] = {8};
    run("tbuf_ops", 1, 1, vals, sizes);
    static const uint32_t want[11] = {256, 11, 16, 8, 64, 0x40400000u, 0x3F800000u, 11, 0x3F800000u, 0x40400000u, 16};
    for (int i = 0; i < 11; i++)
        if (out[i] != want[i])
            fail_msg("word %d = 0x%x, expected 0x%x", i, out[i], want[i]);
}

/* Copies blocks of `len` 32-byte units, each side with its own gap. */
static void ref_blocks(int32_t *dst, const int32_t *src, int count, int len, int src_gap, int dst_gap)
{
    for (int b = 0; b < count; b++)
        for (int k = 0; k < len * 8; k++)
            dst[b * (len + dst_gap) * 8 + k] = src[b * (len + src_gap) * 8 + k];
}

static void test_data_copy_params(void **state)
{
    (void)state;
    int32_t *in = g_in.host, *out = g_out.host;
    for (int i = 0; i < 256; i++) {
        in[i] = i * 3 + 1;
        out[i] = 0x77777777;
    }
    const void *vals[] = {&g_in.dev, &g_out.dev};
    size_t sizes[] = {8, 8};
    run("strided_copy", 1, 2, vals, sizes);
    int32_t a[256], b[256], want[256];
    for (int i = 0; i < 256; i++) {
        a[i] = -1;
        b[i] = -2;
        want[i] = 0x77777777;
    }
    ref_blocks(a, in, 4, 2, 1, 0);
    ref_blocks(b, a, 2, 4, 0, 2);
    ref_blocks(want, b, 3, 1, 1, 3);
    assert_memory_equal(out, want, sizeof(want));
    /* the gather skipped a block: GM block 1 came from source block 3 */
    assert_int_equal(out[32], in[24]);
    assert_int_equal(out[8], 0x77777777);
}

static void test_data_copy_pad(void **state)
{
    (void)state;
    uint16_t *in = g_in.host, *img = g_out.host, *back = g_aux.host;
    for (int i = 0; i < 64; i++) {
        in[i] = (uint16_t)(0x3C00 + i);
        back[i] = 0xAAAA;
    }
    const void *vals[] = {&g_in.dev, &g_out.dev, &g_aux.dev};
    size_t sizes[] = {8, 8, 8};
    run("pad_copy", 1, 3, vals, sizes);
    uint16_t t[256];
    for (int i = 0; i < 256; i++)
        t[i] = 0x4880; /* 9.0 */
    for (int r = 0; r < 3; r++) {
        uint16_t *row = t + r * 32; /* one row block plus one gap block */
        for (int k = 0; k < 16; k++)
            row[k] = 0xBC00; /* -1 */
        for (int k = 0; k < 10; k++)
            row[2 + k] = in[12 * r + k]; /* GM rows 24 bytes apart */
    }
    for (int i = 0; i < 256; i++)
        if (img[i] != t[i])
            fail_msg("UB image half %d = 0x%04x, expected 0x%04x", i, img[i], t[i]);
    uint16_t want[64];
    for (int i = 0; i < 64; i++)
        want[i] = 0xAAAA;
    for (int r = 0; r < 3; r++)
        memcpy(want + r * 14, t + r * 32, 26);
    memcpy(want + 60, in, 6);
    for (int i = 0; i < 64; i++)
        if (back[i] != want[i])
            fail_msg("GM half %d = 0x%04x, expected 0x%04x", i, back[i], want[i]);
}

static void test_core_info(void **state)
{
    (void)state;
    uint32_t *out = g_out.host;
    memset(out, 0, 4 * 16 * 4);
    const void *vals[] = {&g_out.dev};
    size_t sizes[] = {8};
    run("core_info", 4, 1, vals, sizes);
    for (uint32_t b = 0; b < 4; b++) {
        const uint32_t *w = out + b * 16;
        const uint32_t want[13] = {b, 4, b, 4, 110, 5, 196608, 32 + 196352, 1, 210, 0, 0xABCD0000u | b, 2201};
        for (int i = 0; i < 13; i++)
            if (w[i] != want[i])
                fail_msg("block %u word %d = %u, expected %u", b, i, w[i], want[i]);
    }
}

static void test_scalar_gm_access(void **state)
{
    (void)state;
    int32_t *d = g_in.host;
    uint32_t *tiling = g_aux.host;
    *tiling = 100;
    for (int i = 0; i < 300; i++)
        d[i] = i;
    const void *vals[] = {&g_in.dev, &g_aux.dev};
    size_t sizes[] = {8, 8};
    run("scalar_gm", 3, 2, vals, sizes);
    for (int i = 0; i < 300; i++)
        assert_int_equal(d[i], i * 2 + i / 100);
}

static void test_pipe_reset(void **state)
{
    (void)state;
    uint32_t *out = g_out.host;
    memset(out, 0, 16);
    const void *vals[] = {&g_out.dev};
    size_t sizes[] = {8};
    run("pipe_reset", 2, 1, vals, sizes);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 1);
    assert_int_equal(out[2], 1);
}

static void test_half_in_kernel(void **state)
{
    (void)state;
    uint16_t *o = g_out.host;
    memset(o, 0, 64);
    uint16_t a = 0x3E00, b = 0x2E66; /* 1.5, ~0.1 */
    float f = 1.0f / 3.0f;
    const void *vals[] = {&g_out.dev, &a, &b, &f};
    size_t sizes[] = {8, 2, 2, 4};
    run("half_math", 1, 4, vals, sizes);
    assert_int_equal(o[0], asc_ref_f16_binary(OACL_VOP_ADD, a, b));
    assert_int_equal(o[1], asc_ref_f16_binary(OACL_VOP_SUB, a, b));
    assert_int_equal(o[2], asc_ref_f16_binary(OACL_VOP_MUL, a, b));
    assert_int_equal(o[3], asc_ref_f16_binary(OACL_VOP_DIV, a, b));
    uint16_t c = asc_f16_round(f);
    assert_int_equal(o[4], c);
    assert_int_equal(o[5], asc_ref_f16_binary(OACL_VOP_ADD, c, a));
    assert_int_equal(o[6], 0xBE00);
    assert_int_equal(o[7], 6);
    assert_int_equal(o[8], 0x3C00);
    assert_int_equal(o[9], 0x4200);
    assert_int_equal(o[10], 0x4400);
    assert_int_equal(o[12], 0x0000);
    assert_int_equal(o[13], 0x3FC0);
    assert_int_equal(o[14], 0x3EAB);
}

/* Runs a kernel with stdout redirected to a file; returns the text. */
static char *capture(const char *kernel, uint32_t blocks, int n, const void *const *vals, const size_t *sizes,
                     aclError *sync)
{
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(g_bin, kernel, &f));
    char path[] = "/tmp/oacl_asc_printf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    assert_true(dup2(fd, 1) >= 0);
    aclError rc = test_launch(f, blocks, g_stream, n, vals, sizes);
    *sync = aclrtSynchronizeStream(g_stream);
    /* flushed by the synchronise: readable through the file now */
    char *text = calloc(1, 8192);
    ssize_t got = pread(fd, text, 8191, 0);
    dup2(saved, 1);
    close(saved);
    close(fd);
    unlink(path);
    assert_int_equal(rc, 0);
    assert_true(got >= 0);
    return text;
}

static int count_lines(const char *text, const char *line)
{
    int n = 0;
    size_t len = strlen(line);
    for (const char *p = text; (p = strstr(p, line)); p += len)
        if (p == text || p[-1] == '\n')
            n++;
    return n;
}

static void test_printf(void **state)
{
    (void)state;
    uint32_t u = 7;
    int64_t big = -9000000000LL;
    uint16_t h = 0x4100; /* 2.5 */
    const void *vals[] = {&g_out.dev, &u, &big, &h};
    size_t sizes[] = {8, 4, 8, 2};
    aclError sync;
    char *text = capture("print_lines", 2, 4, vals, sizes, &sync);
    assert_int_equal(sync, ACL_SUCCESS);
    static const char *const common[] = {
        "[   42|7   |00ff|BEEF|10|z|str|ab|1.500000e+00|0.25|%]\n",
        "no args\n",
        "-5 6 -3 9 2.500000 -1\n",
        "missing 1 %s\n",
    };
    for (int b = 0; b < 2; b++) {
        char line[128];
        snprintf(line, sizeof line, "block %d of 2: u=7 big=-9000000000 h=2.500\n", b);
        if (count_lines(text, line) != 1)
            fail_msg("expected \"%s\" once in:\n%s", line, text);
    }
    for (int i = 0; i < 4; i++)
        if (count_lines(text, common[i]) != 2)
            fail_msg("expected \"%s\" twice in:\n%s", common[i], text);
    int lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 10);
    assert_int_equal(text[strlen(text) - 1], '\n');
    free(text);
}

/* A kernel queued on a stream that is then destroyed by force still runs
 * and prints (spec 4.4, corrected): the stream is held by a value wait
 * until after the destroy, so nothing can have run before it. */
static void test_printf_after_force_destroy(void **state)
{
    (void)state;
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(g_bin, "print_lines", &f));
    uint64_t *gate = NULL;
    ACL_OK(aclrtMalloc((void **)&gate, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    uint64_t v = 0;
    ACL_OK(aclrtMemcpy(gate, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    char path[] = "/tmp/oacl_asc_force_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    assert_true(dup2(fd, 1) >= 0);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    uint32_t u = 3;
    int64_t big = 4;
    uint16_t h = 0x3C00; /* 1.0 */
    const void *vals[] = {&g_out.dev, &u, &big, &h};
    size_t sizes[] = {8, 4, 8, 2};
    aclError launched = test_launch(f, 2, s, 4, vals, sizes);
    aclError destroyed = aclrtDestroyStreamForce(s);
    v = 1;
    ACL_OK(aclrtMemcpy(gate, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    aclError synced = aclrtSynchronizeDevice();
    char text[8192] = "";
    ssize_t got = pread(fd, text, sizeof(text) - 1, 0);
    dup2(saved, 1);
    close(saved);
    close(fd);
    unlink(path);
    ACL_OK(aclrtFree(gate));
    assert_int_equal(launched, ACL_SUCCESS);
    assert_int_equal(destroyed, ACL_SUCCESS);
    assert_int_equal(synced, ACL_SUCCESS);
    assert_true(got > 0);
    for (int b = 0; b < 2; b++) {
        char line[128];
        snprintf(line, sizeof line, "block %d of 2: u=3 big=4 h=1.000\n", b);
        if (count_lines(text, line) != 1)
            fail_msg("expected \"%s\" once in:\n%s", line, text);
    }
}

static void test_assert(void **state)
{
    (void)state;
    uint32_t bad = 2;
    const void *vals[] = {&g_out.dev, &bad};
    size_t sizes[] = {8, 4};
    aclError sync;
    oacl_test_clear_msgs();
    char *text = capture("assert_kernel", 4, 2, vals, sizes, &sync);
    assert_int_equal(sync, ACL_ERROR_RT_AICORE_EXCEPTION);
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    if (!strstr(msg, "kernel 'assert_kernel' block 2/4") || !strstr(msg, "assertion `idx != bad' failed"))
        fail_msg("message: %s", msg);
    const char *line = strstr(text, "[ASSERT] ");
    if (!line || !strstr(line, "asc_api.cpp:") || !strstr(line, ": assert_kernel: Assertion `idx != bad' failed.\n"))
        fail_msg("stdout: %s", text);
    assert_non_null(strstr(text, "block 2 asserts with value 17\n"));
    free(text);
    ACL_OK(aclrtSynchronizeStream(g_stream));
    /* no block asserts: the launch succeeds */
    bad = 99;
    run("assert_kernel", 4, 2, vals, sizes);
    for (int i = 0; i < 4; i++)
        assert_int_equal(((uint32_t *)g_out.host)[i], 1);
}

/* The C kernel API's additions from a C11 kernel (kernels/c_api.c). */
static void test_c_api(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("asc_c_api", "c_ops", &bin, &f);
    float *x = g_in.host, *out = g_aux.host;
    for (int i = 0; i < 64; i++)
        x[i] = (float)(i + 1);
    for (int i = 0; i < 64 * 24; i++)
        out[i] = -7.0f;
    const void *vals[] = {&g_in.dev, &g_aux.dev};
    size_t sizes[] = {8, 8};
    ACL_OK(test_launch(f, 1, g_stream, 2, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    for (int i = 0; i < 64; i++) {
        float a = x[i], m = a - 32.0f;
        const float want[18] = {a - 2, a * 2, a / 2, a > 32 ? a : 32, a < 32 ? a : 32, a + 0.5f, a * 3,
                                a > 10 ? a : 10, a < 10 ? a : 10, m >= 0 ? m : m * 0.5f, (float)exp(a),
                                (float)log(a), fabsf(m), m > 0 ? m : 0, sqrtf(a), (float)(1.0 / sqrt(a)), 1.0f / a, a};
        for (int k = 0; k < 18; k++)
            if (out[64 * k + i] != want[k])
                fail_msg("region %d element %d = %a, expected %a", k, i, out[64 * k + i], want[k]);
    }
    const float *red = out + 64 * 18;
    uint32_t idx_max, idx_min;
    memcpy(&idx_max, &red[2], 4);
    memcpy(&idx_min, &red[4], 4);
    assert_true(red[0] == 2080.0f && red[1] == 64.0f && red[3] == -31.0f);
    assert_int_equal(idx_max, 63);
    assert_int_equal(idx_min, 0);
    assert_true(red[5] == 2.0f && red[63] == 2.0f);
    const float *st = out + 64 * 19, *pad = out + 64 * 20, *back = out + 64 * 21;
    for (int i = 0; i < 64; i++) {
        float want = i < 8 ? x[i] : (i >= 16 && i < 24) ? x[i] : -7.0f;
        assert_true(st[i] == want);
    }
    const float pad_want[24] = {-1, 1, 2, 3, -1, -1, -1, -1, 10, 10, 10, 10, 10, 10, 10, 10,
                                -1, 5, 6, 7, -1, -1, -1, -1};
    for (int i = 0; i < 64; i++)
        if (pad[i] != (i < 24 ? pad_want[i] : 10.0f))
            fail_msg("padded element %d = %g", i, (double)pad[i]);
    const float back_want[12] = {-1, 1, 2, 3, -7, -7, -1, 5, 6, 7, -7, -7};
    for (int i = 0; i < 12; i++)
        assert_true(back[i] == back_want[i]);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_tensor),   cmocka_unit_test(test_local_tensor_and_queues),
        cmocka_unit_test(test_tbuf),            cmocka_unit_test(test_data_copy_params),
        cmocka_unit_test(test_data_copy_pad),   cmocka_unit_test(test_core_info),
        cmocka_unit_test(test_scalar_gm_access), cmocka_unit_test(test_pipe_reset),
        cmocka_unit_test(test_half_in_kernel),  cmocka_unit_test(test_printf),
        cmocka_unit_test(test_assert),          cmocka_unit_test(test_c_api),
        cmocka_unit_test(test_printf_after_force_destroy),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
