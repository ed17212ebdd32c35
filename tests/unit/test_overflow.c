/*
 * Float overflow detection (reliability chapter 3.5): saturation mode, the
 * stream overflow switch, the device status record and its reset, the
 * context overflow area, the float-overflow variants, and what kernels of
 * FP16 and FP32 do in each mode (switch on/off x saturation on/off).
 */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "oacl/kernel_abi.h"
#include "test_support.h"

#define F16_MAX 0x7BFFu
#define F16_INF 0x7C00u

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_binary, g_unary, g_scalar, g_cast, g_reduce, g_plain;
static struct test_buf g_a, g_b, g_out;
static void *g_status; /* 64 bytes of device memory (+ slack) */

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_overflow"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "ovf_binary", &g_binary) ||
        aclrtBinaryGetFunction(g_bin, "ovf_unary", &g_unary) ||
        aclrtBinaryGetFunction(g_bin, "ovf_scalar", &g_scalar) ||
        aclrtBinaryGetFunction(g_bin, "ovf_cast", &g_cast) ||
        aclrtBinaryGetFunction(g_bin, "ovf_reduce_sum", &g_reduce) ||
        aclrtBinaryGetFunction(g_bin, "ovf_plain_square", &g_plain) ||
        aclrtMalloc(&g_status, 128, ACL_MEM_MALLOC_HUGE_FIRST))
        return -1;
    test_buf_alloc(&g_a, 4096);
    test_buf_alloc(&g_b, 4096);
    test_buf_alloc(&g_out, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_a);
    test_buf_free(&g_b);
    test_buf_free(&g_out);
    aclrtFree(g_status);
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

/* Every test starts from INF_NAN mode and a clear status. */
static int each_setup(void **state)
{
    (void)state;
    if (aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN) || aclrtResetOverflowStatus(NULL) ||
        aclrtSynchronizeStream(NULL))
        return -1;
    return 0;
}

/* The device's status word, read through a status task on `stream`. */
static uint64_t status_on(aclrtStream stream)
{
    unsigned char rec[64];
    memset(rec, 0xAA, sizeof(rec));
    ACL_OK(aclrtMemcpy(g_status, 64, rec, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtGetOverflowStatus(g_status, 64, stream));
    ACL_OK(aclrtSynchronizeStream(stream));
    ACL_OK(aclrtMemcpy(rec, 64, g_status, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 8; i < 64; i++)
        if (rec[i] != 0)
            fail_msg("byte %zu of the status record is 0x%02x, not 0", i, rec[i]);
    uint64_t w;
    memcpy(&w, rec, sizeof(w));
    if (w > 1)
        fail_msg("status word is %llu, not 0 or 1", (unsigned long long)w);
    return w;
}

/* Launches dst = a op b on n elements of dtype; returns the synchronise's code. */
static aclError run_binary(aclrtStream s, int op, int dtype, uint32_t n)
{
    uint32_t o = (uint32_t)op, d = (uint32_t)dtype;
    const void *vals[] = {&g_out.dev, &g_a.dev, &g_b.dev, &n, &o, &d};
    size_t sizes[] = {8, 8, 8, 4, 4, 4};
    ACL_OK(test_launch(g_binary, 1, s, 6, vals, sizes));
    oacl_test_clear_msgs();
    return aclrtSynchronizeStream(s);
}

static void fill16(struct test_buf *b, uint16_t v, uint32_t n)
{
    uint16_t *p = b->host;
    for (uint32_t i = 0; i < n; i++)
        p[i] = v;
}

static void fill32(struct test_buf *b, float v, uint32_t n)
{
    float *p = b->host;
    for (uint32_t i = 0; i < n; i++)
        p[i] = v;
}

static uint16_t out16(uint32_t i) { return ((uint16_t *)g_out.host)[i]; }
static float out32(uint32_t i) { return ((float *)g_out.host)[i]; }

static aclrtStream new_stream(uint32_t overflow_switch)
{
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetStreamOverflowSwitch(s, overflow_switch));
    return s;
}

/* ---- defaults and bad arguments ------------------------------------------------ */

static void test_defaults(void **state)
{
    (void)state;
    aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
    ACL_OK(aclrtGetDeviceSatMode(&m));
    assert_int_equal(m, ACL_RT_OVERFLOW_MODE_INFNAN);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t f = 7;
    ACL_OK(aclrtGetStreamOverflowSwitch(s, &f));
    assert_int_equal(f, 0);
    ACL_OK(aclrtGetStreamOverflowSwitch(NULL, &f));
    assert_int_equal(f, 0);
    ACL_OK(aclrtSetStreamOverflowSwitch(s, 1));
    ACL_OK(aclrtGetStreamOverflowSwitch(s, &f));
    assert_int_equal(f, 1);
    /* The stream attribute is the same switch. */
    aclrtStreamAttrValue v = {0};
    ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    assert_int_equal(v.overflowSwitch, 1);
    v.overflowSwitch = 0;
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    ACL_OK(aclrtGetStreamOverflowSwitch(s, &f));
    assert_int_equal(f, 0);
    ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    ACL_OK(aclrtGetDeviceSatMode(&m));
    assert_int_equal(m, ACL_RT_OVERFLOW_MODE_SATURATION);
    assert_int_equal(status_on(s), 0);
    ACL_OK(aclrtDestroyStream(s));
}

static void *no_context_calls(void *arg)
{
    (void)arg;
    uint32_t f;
    void *p;
    /* Mode calls need no context. */
    aclrtFloatOverflowMode m;
    ACL_OK(aclrtGetDeviceSatMode(&m));
    ACL_ERR(aclrtSetStreamOverflowSwitch(NULL, 1), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_ERR(aclrtGetStreamOverflowSwitch(NULL, &f), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_ERR(aclrtGetOverflowStatus(g_status, 64, NULL), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_ERR(aclrtResetOverflowStatus(NULL), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_ERR(aclrtCtxGetFloatOverflowAddr(&p), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    return NULL;
}

static void test_bad_arguments(void **state)
{
    (void)state;
    ACL_ERR(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID, "mode 2");
    ACL_ERR(aclrtSetDeviceSatMode((aclrtFloatOverflowMode)-1), ACL_ERROR_RT_PARAM_INVALID, "mode -1");
    aclrtFloatOverflowMode m;
    ACL_OK(aclrtGetDeviceSatMode(&m));
    assert_int_equal(m, ACL_RT_OVERFLOW_MODE_INFNAN); /* unchanged */
    ACL_ERR(aclrtGetDeviceSatMode(NULL), ACL_ERROR_INVALID_PARAM, "mode is NULL");

    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t f;
    ACL_ERR(aclrtSetStreamOverflowSwitch(s, 2), ACL_ERROR_INVALID_PARAM, "flag 2");
    ACL_OK(aclrtGetStreamOverflowSwitch(s, &f));
    assert_int_equal(f, 0); /* unchanged */
    ACL_ERR(aclrtGetStreamOverflowSwitch(s, NULL), ACL_ERROR_INVALID_PARAM, "flag is NULL");

    unsigned char host[64];
    ACL_ERR(aclrtGetOverflowStatus(NULL, 64, s), ACL_ERROR_INVALID_PARAM, "outputAddr is NULL");
    ACL_ERR(aclrtGetFloatOverflowStatus(NULL, 64, s), ACL_ERROR_RT_PARAM_INVALID, "outputAddr is NULL");
    ACL_ERR(aclrtNpuGetFloatOverFlowStatus(NULL, 64, 0, s), ACL_ERROR_RT_PARAM_INVALID, "outputAddr is NULL");
    ACL_ERR(aclrtGetOverflowStatus(g_status, 63, s), ACL_ERROR_RT_PARAM_INVALID, "64 bytes");
    ACL_ERR(aclrtGetOverflowStatus(g_status, 65, s), ACL_ERROR_RT_PARAM_INVALID, "64 bytes");
    ACL_ERR(aclrtGetFloatOverflowStatus(g_status, 0, s), ACL_ERROR_RT_PARAM_INVALID, "64 bytes");
    ACL_ERR(aclrtNpuGetFloatOverFlowStatus(g_status, 128, 0, s), ACL_ERROR_RT_PARAM_INVALID, "64 bytes");
    ACL_ERR(aclrtGetOverflowStatus(host, 64, s), ACL_ERROR_RT_PARAM_INVALID, "not device memory");
    ACL_ERR(aclrtGetOverflowStatus((char *)g_status + 100, 64, s), ACL_ERROR_RT_PARAM_INVALID, "past the end");
    ACL_ERR(aclrtCtxGetFloatOverflowAddr(NULL), ACL_ERROR_RT_PARAM_INVALID, "overflowAddr is NULL");
    ACL_OK(aclrtSynchronizeStream(s)); /* nothing was queued by the refused calls */

    /* A stream of another context, and a destroyed one. */
    aclrtContext ctx, other;
    ACL_OK(aclrtGetCurrentContext(&ctx));
    ACL_OK(aclrtCreateContext(&other, 0));
    ACL_OK(aclrtSetCurrentContext(ctx));
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_ERR(aclrtSetStreamOverflowSwitch(s, 1), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_ERR(aclrtGetStreamOverflowSwitch(s, &f), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_ERR(aclrtGetOverflowStatus(g_status, 64, s), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_ERR(aclrtResetOverflowStatus(s), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_OK(aclrtSetCurrentContext(ctx));
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtSetStreamOverflowSwitch(s, 1), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_ERR(aclrtGetStreamOverflowSwitch(s, &f), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_ERR(aclrtGetOverflowStatus(g_status, 64, s), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_ERR(aclrtResetFloatOverflowStatus(s), ACL_ERROR_RT_INVALID_HANDLE, NULL);

    oacl_test_run_thread(no_context_calls, NULL);
}

/* ---- FP16 and FP32 in the four modes ---------------------------------------------- */

/* 65504 + 65504 (f16) and 3e38 + 3e38 (f32) on 1000 elements, element 7
   the only one that overflows; checks results, code and status. */
static void check_add(int dtype, bool on, bool saturate)
{
    ACL_OK(aclrtSetDeviceSatMode(saturate ? ACL_RT_OVERFLOW_MODE_SATURATION : ACL_RT_OVERFLOW_MODE_INFNAN));
    aclrtStream s = new_stream(on);
    ACL_OK(aclrtResetOverflowStatus(s));
    const uint32_t n = 1000;
    if (dtype == OACL_DT_F16) {
        fill16(&g_a, F16_ONE, n);
        fill16(&g_b, F16_TWO, n);
        ((uint16_t *)g_a.host)[7] = F16_MAX;
        ((uint16_t *)g_b.host)[7] = F16_MAX;
    } else {
        fill32(&g_a, 1.0f, n);
        fill32(&g_b, 2.0f, n);
        ((float *)g_a.host)[7] = 3e38f;
        ((float *)g_b.host)[7] = 3e38f;
    }
    aclError rc = run_binary(s, OACL_VOP_ADD, dtype, n);
    /* Saturation with the switch on: "success with overflow" (a vector kernel). */
    assert_int_equal(rc, on && saturate ? ACL_ERROR_RT_AIVEC_OVER_FLOW : ACL_SUCCESS);
    if (rc)
        assert_non_null(strstr(aclGetRecentErrMsg(), "overflowed"));
    ACL_OK(aclrtSynchronizeStream(s)); /* reported once; the stream goes on */
    for (uint32_t i = 0; i < n; i++) {
        if (i == 7)
            continue;
        if (dtype == OACL_DT_F16)
            assert_int_equal(out16(i), F16_THREE);
        else
            assert_true(out32(i) == 3.0f);
    }
    if (dtype == OACL_DT_F16)
        assert_int_equal(out16(7), saturate ? F16_MAX : F16_INF);
    else
        assert_true(saturate ? out32(7) == FLT_MAX : isinf(out32(7)) && out32(7) > 0);
    assert_int_equal(status_on(s), on ? 1 : 0);
    ACL_OK(aclrtDestroyStream(s));
}

static void test_f16_switch_on_infnan(void **st) { (void)st; check_add(OACL_DT_F16, true, false); }
static void test_f16_switch_off_infnan(void **st) { (void)st; check_add(OACL_DT_F16, false, false); }
static void test_f16_switch_on_saturation(void **st) { (void)st; check_add(OACL_DT_F16, true, true); }
static void test_f16_switch_off_saturation(void **st) { (void)st; check_add(OACL_DT_F16, false, true); }
static void test_f32_switch_on_infnan(void **st) { (void)st; check_add(OACL_DT_F32, true, false); }
static void test_f32_switch_off_infnan(void **st) { (void)st; check_add(OACL_DT_F32, false, false); }
static void test_f32_switch_on_saturation(void **st) { (void)st; check_add(OACL_DT_F32, true, true); }
static void test_f32_switch_off_saturation(void **st) { (void)st; check_add(OACL_DT_F32, false, true); }

/* Negative overflow saturates to -max; inf - inf (NaN from non-NaN) counts
   and saturates to 0; inf + 1 and NaN + 1 do not count. */
static void test_signs_nan_and_non_finite_inputs(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    aclrtStream s = new_stream(1);
    fill32(&g_a, -3e38f, 4);
    fill32(&g_b, -3e38f, 4);
    assert_int_equal(run_binary(s, OACL_VOP_ADD, OACL_DT_F32, 4), ACL_ERROR_RT_AIVEC_OVER_FLOW);
    assert_true(out32(0) == -FLT_MAX);
    assert_int_equal(status_on(s), 1);

    ACL_OK(aclrtResetOverflowStatus(s));
    fill32(&g_a, INFINITY, 4);
    fill32(&g_b, INFINITY, 4);
    assert_int_equal(run_binary(s, OACL_VOP_SUB, OACL_DT_F32, 4), ACL_ERROR_RT_AIVEC_OVER_FLOW);
    assert_true(out32(0) == 0.0f && !signbit(out32(0)));
    assert_int_equal(status_on(s), 1);

    ACL_OK(aclrtResetOverflowStatus(s));
    fill16(&g_a, F16_INF, 4);
    fill16(&g_b, F16_ONE, 4);
    ((uint16_t *)g_a.host)[1] = 0x7E00u; /* NaN */
    assert_int_equal(run_binary(s, OACL_VOP_ADD, OACL_DT_F16, 4), ACL_SUCCESS);
    assert_int_equal(out16(0), F16_MAX); /* clamped all the same */
    assert_int_equal(out16(1), 0);
    assert_int_equal(status_on(s), 0);
    ACL_OK(aclrtDestroyStream(s));
}

/* In place (dst is an operand) the operands are still judged before the write. */
static void test_in_place(void **state)
{
    (void)state;
    aclrtStream s = new_stream(1);
    fill16(&g_out, F16_MAX, 600);
    fill16(&g_b, F16_ONE, 600);
    ((uint16_t *)g_b.host)[599] = F16_MAX;
    uint32_t n = 600, o = OACL_VOP_ADD, d = OACL_DT_F16;
    const void *vals[] = {&g_out.dev, &g_out.dev, &g_b.dev, &n, &o, &d};
    size_t sizes[] = {8, 8, 8, 4, 4, 4};
    ACL_OK(test_launch(g_binary, 1, s, 6, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(out16(599), F16_INF);
    assert_int_equal(out16(0), F16_MAX); /* 65504 + 1 rounds back to 65504 */
    assert_int_equal(status_on(s), 1);
    ACL_OK(aclrtDestroyStream(s));
}

/* Other primitives: division by zero, exp, casts, reductions, scalars,
   and plain C float code. */
static void expect_status(aclrtStream s, aclrtFuncHandle f, int n, const void *const *vals, const size_t *sizes,
                          uint64_t want)
{
    ACL_OK(aclrtResetOverflowStatus(s));
    ACL_OK(test_launch(f, 2, s, n, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(status_on(s), want);
}

static void test_other_primitives(void **state)
{
    (void)state;
    aclrtStream s = new_stream(1);
    uint32_t n = 16, d32 = OACL_DT_F32, d16 = OACL_DT_F16, op;

    fill32(&g_a, 1.0f, n);
    fill32(&g_b, 0.0f, n);
    op = OACL_VOP_DIV;
    const void *bin[] = {&g_out.dev, &g_a.dev, &g_b.dev, &n, &op, &d32};
    size_t bin_sz[] = {8, 8, 8, 4, 4, 4};
    expect_status(s, g_binary, 6, bin, bin_sz, 1); /* 1 / 0 */

    fill32(&g_a, 100.0f, n);
    op = OACL_VOP_EXP;
    const void *un[] = {&g_out.dev, &g_a.dev, &n, &op, &d32};
    size_t un_sz[] = {8, 8, 4, 4, 4};
    expect_status(s, g_unary, 5, un, un_sz, 1); /* e^100 */
    fill32(&g_a, -1.0f, n);
    op = OACL_VOP_SQRT;
    expect_status(s, g_unary, 5, un, un_sz, 1); /* sqrt(-1): invalid */
    fill32(&g_a, 4.0f, n);
    expect_status(s, g_unary, 5, un, un_sz, 0);
    assert_true(out32(3) == 2.0f);

    fill32(&g_a, 1e6f, n);
    uint32_t st = OACL_DT_F32;
    const void *cast[] = {&g_out.dev, &g_a.dev, &n, &d16, &st};
    size_t cast_sz[] = {8, 8, 4, 4, 4};
    expect_status(s, g_cast, 5, cast, cast_sz, 1); /* 1e6 does not fit in f16 */
    assert_int_equal(out16(0), F16_INF);
    fill32(&g_a, 1000.0f, n);
    expect_status(s, g_cast, 5, cast, cast_sz, 0);

    fill16(&g_a, 0x7A00u /* 49152 */, n);
    const void *red[] = {&g_out.dev, &g_a.dev, &n, &d16};
    size_t red_sz[] = {8, 8, 4, 4};
    expect_status(s, g_reduce, 4, red, red_sz, 1);
    assert_int_equal(out16(0), F16_INF);

    fill32(&g_a, 2e38f, n);
    float two = 2.0f;
    ACL_OK(aclrtMemcpy(g_b.host, 4, &two, 4, ACL_MEMCPY_HOST_TO_HOST));
    op = OACL_VOP_MULS;
    const void *sc[] = {&g_out.dev, &g_a.dev, &g_b.dev, &n, &op, &d32};
    size_t sc_sz[] = {8, 8, 8, 4, 4, 4};
    expect_status(s, g_scalar, 6, sc, sc_sz, 1);

    float x = 1e30f;
    const void *pl[] = {&g_out.dev, &x};
    size_t pl_sz[] = {8, 4};
    expect_status(s, g_plain, 2, pl, pl_sz, 1); /* plain C: the FPU's flags */
    assert_true(isinf(out32(0)));
    x = 1e10f;
    expect_status(s, g_plain, 2, pl, pl_sz, 0);

    /* Integers never overflow in this sense. */
    uint32_t di = OACL_DT_I32;
    op = OACL_VOP_ADD;
    memset(g_a.host, 0x7F, 64);
    const void *ib[] = {&g_out.dev, &g_a.dev, &g_a.dev, &n, &op, &di};
    expect_status(s, g_binary, 6, ib, bin_sz, 0);
    ACL_OK(aclrtDestroyStream(s));
}

/* Plain C float code is not clamped in saturation mode. */
static void test_plain_code_not_clamped(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    aclrtStream s = new_stream(1);
    float x = 1e30f;
    const void *pl[] = {&g_out.dev, &x};
    size_t pl_sz[] = {8, 4};
    ACL_OK(test_launch(g_plain, 1, s, 2, pl, pl_sz));
    assert_int_equal(aclrtSynchronizeStream(s), ACL_ERROR_RT_AIVEC_OVER_FLOW);
    assert_true(isinf(out32(0)));
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- the status: device-wide, reset, queued tasks, the variants -------------------- */

static void test_status_is_per_device(void **state)
{
    (void)state;
    aclrtStream a = new_stream(1), b = new_stream(0);
    fill16(&g_a, F16_MAX, 8);
    fill16(&g_b, F16_MAX, 8);
    ACL_OK(run_binary(a, OACL_VOP_ADD, OACL_DT_F16, 8));
    assert_int_equal(status_on(b), 1);    /* read on another stream */
    assert_int_equal(status_on(NULL), 1); /* and on the default one */
    /* A kernel with its switch off does not clear it; a reset on any stream does. */
    fill16(&g_a, F16_ONE, 8);
    ACL_OK(run_binary(b, OACL_VOP_ADD, OACL_DT_F16, 8));
    assert_int_equal(status_on(a), 1);
    ACL_OK(aclrtResetFloatOverflowStatus(b));
    ACL_OK(aclrtSynchronizeStream(b));
    assert_int_equal(status_on(a), 0);
    /* Every variant reads and clears the same status. */
    fill16(&g_a, F16_MAX, 8);
    ACL_OK(run_binary(a, OACL_VOP_ADD, OACL_DT_F16, 8));
    uint64_t w[8];
    ACL_OK(aclrtGetFloatOverflowStatus(g_status, 64, a));
    ACL_OK(aclrtSynchronizeStream(a));
    ACL_OK(aclrtMemcpy(w, 64, g_status, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(w[0], 1);
    ACL_OK(aclrtNpuGetFloatOverFlowStatus(g_status, 64, 12345, a));
    ACL_OK(aclrtSynchronizeStream(a));
    ACL_OK(aclrtMemcpy(w, 64, g_status, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(w[0], 1);
    ACL_OK(aclrtNpuClearFloatOverFlowStatus(99, a));
    assert_int_equal(status_on(a), 0);
    fill16(&g_a, F16_MAX, 8);
    ACL_OK(run_binary(a, OACL_VOP_ADD, OACL_DT_F16, 8));
    ACL_OK(aclrtResetOverflowStatus(a));
    assert_int_equal(status_on(a), 0);
    ACL_OK(aclrtDestroyStream(a));
    ACL_OK(aclrtDestroyStream(b));
}

/* Queued work keeps the switch it was launched with; status and reset
   tasks run in stream order. */
static void test_switch_taken_at_launch(void **state)
{
    (void)state;
    aclrtStream s = new_stream(1);
    fill16(&g_a, F16_MAX, 8);
    fill16(&g_b, F16_MAX, 8);
    uint32_t n = 8, o = OACL_VOP_ADD, d = OACL_DT_F16;
    const void *vals[] = {&g_out.dev, &g_a.dev, &g_b.dev, &n, &o, &d};
    size_t sizes[] = {8, 8, 8, 4, 4, 4};
    uint64_t w[8];
    ACL_OK(aclrtGetOverflowStatus(g_status, 64, s));             /* before: 0 */
    ACL_OK(test_launch(g_binary, 1, s, 6, vals, sizes));         /* switch on */
    ACL_OK(aclrtSetStreamOverflowSwitch(s, 0));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtMemcpy(w, 64, g_status, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(w[0], 0);
    assert_int_equal(status_on(s), 1);
    ACL_OK(aclrtResetOverflowStatus(s));
    ACL_OK(test_launch(g_binary, 1, s, 6, vals, sizes));         /* switch off now */
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(status_on(s), 0);
    ACL_OK(aclrtDestroyStream(s));
}

/* A stream keeps the mode it was created with. */
static void test_mode_taken_at_creation(void **state)
{
    (void)state;
    aclrtStream infnan = new_stream(1);
    ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    aclrtStream sat = new_stream(1);
    ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    fill16(&g_a, F16_MAX, 8);
    fill16(&g_b, F16_MAX, 8);
    ACL_OK(run_binary(infnan, OACL_VOP_ADD, OACL_DT_F16, 8));
    assert_int_equal(out16(0), F16_INF);
    assert_int_equal(run_binary(sat, OACL_VOP_ADD, OACL_DT_F16, 8), ACL_ERROR_RT_AIVEC_OVER_FLOW);
    assert_int_equal(out16(0), F16_MAX);
    ACL_OK(aclrtDestroyStream(infnan));
    ACL_OK(aclrtDestroyStream(sat));
}

/* An overflow code never hides a real failure, and is no failure for STOP mode. */
static void test_overflow_code_below_real_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    /* STOP mode is the context's for good: a context of its own. */
    aclrtContext ctx, stop_ctx;
    ACL_OK(aclrtGetCurrentContext(&ctx));
    ACL_OK(aclrtCreateContext(&stop_ctx, 0));
    aclrtStream s = new_stream(1);
    ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    fill16(&g_a, F16_MAX, 8);
    fill16(&g_b, F16_MAX, 8);
    assert_int_equal(run_binary(s, OACL_VOP_ADD, OACL_DT_F16, 8), ACL_ERROR_RT_AIVEC_OVER_FLOW);
    /* The context did not stop: new work is accepted and runs. */
    fill16(&g_a, F16_ONE, 8);
    fill16(&g_b, F16_TWO, 8);
    assert_int_equal(run_binary(s, OACL_VOP_ADD, OACL_DT_F16, 8), ACL_SUCCESS);
    assert_int_equal(out16(0), F16_THREE);
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtDestroyContext(stop_ctx));
    ACL_OK(aclrtSetCurrentContext(ctx));

    /* CONTINUE mode: overflow, then a failing launch: the failure is reported. */
    aclrtStream c = new_stream(1);
    fill16(&g_a, F16_MAX, 8);
    fill16(&g_b, F16_MAX, 8);
    uint32_t n = 8, o = OACL_VOP_ADD, d = OACL_DT_F16, bad = 77;
    const void *vals[] = {&g_out.dev, &g_a.dev, &g_b.dev, &n, &o, &d};
    const void *badv[] = {&g_out.dev, &g_a.dev, &g_b.dev, &n, &bad, &d};
    size_t sizes[] = {8, 8, 8, 4, 4, 4};
    ACL_OK(test_launch(g_binary, 1, c, 6, vals, sizes));
    ACL_OK(test_launch(g_binary, 1, c, 6, badv, sizes));
    ACL_OK(test_launch(g_binary, 1, c, 6, vals, sizes));
    aclError rc = aclrtSynchronizeStream(c);
    assert_int_not_equal(rc, ACL_SUCCESS);
    assert_int_not_equal(rc, ACL_ERROR_RT_AIVEC_OVER_FLOW);
    ACL_OK(aclrtSynchronizeStream(c));
    ACL_OK(aclrtDestroyStream(c));
}

/* The host FPU flags of a thread that helps run blocks in a synchronise
   are its own: the kernel's overflow neither shows up nor clears them. */
static void test_host_fpu_flags_kept(void **state)
{
    (void)state;
    aclrtStream s = new_stream(1);
    fill32(&g_a, 1e30f, 64);
    float x = 1e30f;
    const void *pl[] = {&g_out.dev, &x};
    size_t pl_sz[] = {8, 4};
    feclearexcept(FE_ALL_EXCEPT);
    ACL_OK(test_launch(g_plain, 64, s, 2, pl, pl_sz));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(fetestexcept(FE_OVERFLOW | FE_INVALID), 0);
    feraiseexcept(FE_INVALID);
    ACL_OK(test_launch(g_plain, 64, s, 2, pl, pl_sz));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(fetestexcept(FE_OVERFLOW | FE_INVALID), FE_INVALID);
    feclearexcept(FE_ALL_EXCEPT);
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- the context overflow area -------------------------------------------------- */

static uint64_t area_word(void *area)
{
    uint64_t w[64];
    ACL_OK(aclrtMemcpy(w, 512, area, 512, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 1; i < 64; i++)
        assert_int_equal(w[i], 0);
    return w[0];
}

static void test_context_area(void **state)
{
    (void)state;
    void *area = NULL, *again = NULL;
    ACL_OK(aclrtCtxGetFloatOverflowAddr(&area));
    assert_non_null(area);
    ACL_OK(aclrtCtxGetFloatOverflowAddr(&again));
    assert_ptr_equal(area, again);
    assert_int_equal(area_word(area), 0);
    aclrtStream s = new_stream(1);
    fill16(&g_a, F16_MAX, 8);
    fill16(&g_b, F16_MAX, 8);
    ACL_OK(run_binary(s, OACL_VOP_ADD, OACL_DT_F16, 8));
    assert_int_equal(area_word(area), 1); /* mirrored */
    /* Another context gets its own area, which starts from the current flag. */
    aclrtContext ctx, other;
    ACL_OK(aclrtGetCurrentContext(&ctx));
    ACL_OK(aclrtCreateContext(&other, 0));
    void *area2 = NULL;
    ACL_OK(aclrtCtxGetFloatOverflowAddr(&area2));
    assert_ptr_not_equal(area, area2);
    assert_int_equal(area_word(area2), 1);
    ACL_OK(aclrtSetCurrentContext(ctx));
    ACL_OK(aclrtResetOverflowStatus(s));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(area_word(area), 0);
    assert_int_equal(area_word(area2), 0);
    /* The runtime owns it. */
    ACL_ERR(aclrtFree(area), ACL_ERROR_RT_PARAM_INVALID, "runtime owns");
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtSetCurrentContext(ctx));
    ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_defaults, each_setup),
        cmocka_unit_test_setup(test_bad_arguments, each_setup),
        cmocka_unit_test_setup(test_f16_switch_on_infnan, each_setup),
        cmocka_unit_test_setup(test_f16_switch_off_infnan, each_setup),
        cmocka_unit_test_setup(test_f16_switch_on_saturation, each_setup),
        cmocka_unit_test_setup(test_f16_switch_off_saturation, each_setup),
        cmocka_unit_test_setup(test_f32_switch_on_infnan, each_setup),
        cmocka_unit_test_setup(test_f32_switch_off_infnan, each_setup),
        cmocka_unit_test_setup(test_f32_switch_on_saturation, each_setup),
        cmocka_unit_test_setup(test_f32_switch_off_saturation, each_setup),
        cmocka_unit_test_setup(test_signs_nan_and_non_finite_inputs, each_setup),
        cmocka_unit_test_setup(test_in_place, each_setup),
        cmocka_unit_test_setup(test_other_primitives, each_setup),
        cmocka_unit_test_setup(test_plain_code_not_clamped, each_setup),
        cmocka_unit_test_setup(test_status_is_per_device, each_setup),
        cmocka_unit_test_setup(test_switch_taken_at_launch, each_setup),
        cmocka_unit_test_setup(test_mode_taken_at_creation, each_setup),
        cmocka_unit_test_setup(test_overflow_code_below_real_errors, each_setup),
        cmocka_unit_test_setup(test_host_fpu_flags_kept, each_setup),
        cmocka_unit_test_setup(test_context_area, each_setup),
    };
    int rc = cmocka_run_group_tests(tests, setup, teardown);
    (void)aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN);
    return rc;
}
