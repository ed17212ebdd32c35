/*
 * AscendC vector operations through kernel_operator.h (kernels in
 * tests/ascendc/kernels/asc_ops.cpp): every operation on every supported
 * type against an independent host reference (asc_test.h); exact for
 * + - * / max min abs relu sqrt reciprocal duplicate cast and the
 * tensor-scalar forms, within one ulp for exp ln rsqrt. Each launch runs 2
 * blocks; every block checks that only `count` elements change (the rest
 * keep the kernel's 0x5A sentinel).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc_test.h"
#include "test_support.h"

#define BLOCKS 2u

static aclrtStream g_stream;
static aclrtBinHandle g_bin;
static aclrtFuncHandle g_binary, g_unary, g_scalar, g_reduce, g_cast;
static struct test_buf g_x, g_y, g_z, g_s;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_stream))
        return -1;
    test_load("asc_ops", "binary_op", &g_bin, &g_binary);
    ACL_OK(aclrtBinaryGetFunction(g_bin, "unary_op", &g_unary));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "scalar_op", &g_scalar));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "reduce_op", &g_reduce));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "cast_op", &g_cast));
    test_buf_alloc(&g_x, 1 << 18);
    test_buf_alloc(&g_y, 1 << 18);
    test_buf_alloc(&g_z, 1 << 18);
    test_buf_alloc(&g_s, 64);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_s);
    test_buf_free(&g_z);
    test_buf_free(&g_y);
    test_buf_free(&g_x);
    aclrtBinaryUnLoad(g_bin);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0);
}

static size_t dt_size(int dt)
{
    switch (dt) {
    case OACL_DT_I8: case OACL_DT_U8: return 1;
    case OACL_DT_F16: case OACL_DT_I16: case OACL_DT_U16: case OACL_DT_BF16: return 2;
    case OACL_DT_I64: return 8;
    default: return 4;
    }
}

/* n rounded up to whole 32-byte blocks of elements of dt (at least one),
   as the kernels lay out each block's share. */
static uint32_t padded(uint32_t n, int dt)
{
    uint32_t per = 32 / (uint32_t)dt_size(dt);
    return n ? (n + per - 1) / per * per : per;
}

static void launch(aclrtFuncHandle f, int nargs, const void *const *vals, const size_t *sizes)
{
    ACL_OK(test_launch(f, BLOCKS, g_stream, nargs, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(g_stream));
}

/* Elements n..padded-1 of every block's output still hold the sentinel. */
static void check_untouched(const void *z, uint32_t n, int dt)
{
    size_t es = dt_size(dt);
    uint32_t np = padded(n, dt);
    const unsigned char *p = z;
    for (uint32_t b = 0; b < BLOCKS; b++)
        for (size_t i = (size_t)b * np * es + n * es; i < (size_t)(b + 1) * np * es; i++)
            if (p[i] != 0x5A)
                fail_msg("block %u: byte %zu past count %u was written (0x%02x)", b, i, n, p[i]);
}

static void fill_random(void *buf, uint32_t count, int dt)
{
    for (uint32_t i = 0; i < count; i++) {
        switch (dt) {
        case OACL_DT_F16: ((uint16_t *)buf)[i] = asc_rand_f16(); break;
        case OACL_DT_F32: ((float *)buf)[i] = asc_rand_f32(); break;
        case OACL_DT_I32: ((uint32_t *)buf)[i] = asc_rand32() >> (asc_rand32() % 32); break;
        default: ((uint16_t *)buf)[i] = (uint16_t)(asc_rand32() >> (asc_rand32() % 32)); break;
        }
    }
}

/* ---- binary operations ---------------------------------------------------- */

static const char *op_name(int op)
{
    switch (op) {
    case OACL_VOP_ADD: return "Add";
    case OACL_VOP_SUB: return "Sub";
    case OACL_VOP_MUL: return "Mul";
    case OACL_VOP_DIV: return "Div";
    case OACL_VOP_MAX: return "Max";
    case OACL_VOP_MIN: return "Min";
    default: return "?";
    }
}

static bool check_binary_elem(int op, int dt, const void *x, const void *y, const void *z, uint32_t i)
{
    switch (dt) {
    case OACL_DT_F16: {
        uint16_t a = ((const uint16_t *)x)[i], b = ((const uint16_t *)y)[i], r = ((const uint16_t *)z)[i];
        uint16_t want = asc_ref_f16_binary(op, a, b);
        if (r != want)
            print_error("%s(0x%04x, 0x%04x) = 0x%04x, expected 0x%04x\n", op_name(op), a, b, r, want);
        return r == want;
    }
    case OACL_DT_F32: {
        float a = ((const float *)x)[i], b = ((const float *)y)[i], r = ((const float *)z)[i];
        float want;
        if (op == OACL_VOP_MAX || op == OACL_VOP_MIN) {
            if (isnan(a) || isnan(b))
                want = asc_f32(asc_f32_nan_rule(asc_bits(a), asc_bits(b)));
            else
                want = (op == OACL_VOP_MAX ? a > b : a < b) ? a : b;
        } else {
            double d = op == OACL_VOP_ADD ? (double)a + b : op == OACL_VOP_SUB ? (double)a - b
                     : op == OACL_VOP_MUL ? (double)a * b : (double)a / b;
            want = (float)d;
            if (isnan(want)) /* f32 arithmetic NaNs are the FPU's */
                return isnan(r);
        }
        if (asc_bits(r) != asc_bits(want))
            print_error("%s(%a, %a) = %a, expected %a\n", op_name(op), a, b, r, want);
        return asc_bits(r) == asc_bits(want);
    }
    case OACL_DT_I32: {
        int64_t a = ((const int32_t *)x)[i], b = ((const int32_t *)y)[i], r = ((const int32_t *)z)[i];
        int64_t w = op == OACL_VOP_ADD ? a + b : op == OACL_VOP_SUB ? a - b : op == OACL_VOP_MUL ? a * b
                  : op == OACL_VOP_MAX ? (a > b ? a : b) : (a < b ? a : b);
        int32_t want = (int32_t)(uint32_t)(uint64_t)w; /* wraps */
        return r == want;
    }
    default: {
        int32_t a = ((const int16_t *)x)[i], b = ((const int16_t *)y)[i], r = ((const int16_t *)z)[i];
        int32_t w = op == OACL_VOP_ADD ? a + b : op == OACL_VOP_SUB ? a - b : op == OACL_VOP_MUL ? a * b
                  : op == OACL_VOP_MAX ? (a > b ? a : b) : (a < b ? a : b);
        return r == (int16_t)(uint16_t)(uint32_t)w;
    }
    }
}

static void run_binary(int op, int dt, uint32_t n)
{
    uint32_t np = padded(n, dt);
    size_t es = dt_size(dt);
    fill_random(g_x.host, np * BLOCKS, dt);
    fill_random(g_y.host, np * BLOCKS, dt);
    memset(g_z.host, 0, np * BLOCKS * es);
    uint32_t uop = (uint32_t)op, udt = (uint32_t)dt;
    const void *vals[] = {&g_x.dev, &g_y.dev, &g_z.dev, &uop, &udt, &n};
    size_t sizes[] = {8, 8, 8, 4, 4, 4};
    launch(g_binary, 6, vals, sizes);
    for (uint32_t b = 0; b < BLOCKS; b++)
        for (uint32_t i = b * np; i < b * np + n; i++)
            if (!check_binary_elem(op, dt, g_x.host, g_y.host, g_z.host, i))
                fail_msg("%s on type %d: element %u wrong", op_name(op), dt, i);
    check_untouched(g_z.host, n, dt);
}

static void test_binary_all(void **state)
{
    (void)state;
    static const int ops[] = {OACL_VOP_ADD, OACL_VOP_SUB, OACL_VOP_MUL, OACL_VOP_DIV, OACL_VOP_MAX, OACL_VOP_MIN};
    static const int dts[] = {OACL_DT_F16, OACL_DT_F32, OACL_DT_I32, OACL_DT_I16};
    static const uint32_t counts[] = {1001, 128, 7, 0};
    asc_rng_seed(11);
    for (size_t o = 0; o < 6; o++)
        for (size_t t = 0; t < 4; t++)
            for (size_t c = 0; c < 4; c++)
                if (ops[o] != OACL_VOP_DIV || t < 2)
                    run_binary(ops[o], dts[t], counts[c]);
}

/* Binary16 rounding edge cases, element-wise through Add/Sub/Mul/Div. */
static void test_f16_edges(void **state)
{
    (void)state;
    static const struct {
        int op;
        uint16_t a, b, want;
    } cases[] = {
        {OACL_VOP_ADD, 0x3C00, 0x1000, 0x3C00}, /* 1 + 2^-11: a tie, to even (1.0) */
        {OACL_VOP_ADD, 0x3C01, 0x1000, 0x3C02}, /* 1+2^-10 + 2^-11: a tie, to even (up) */
        {OACL_VOP_ADD, 0x3C00, 0x1001, 0x3C01}, /* just above the tie: up */
        {OACL_VOP_ADD, 0x7BFF, 0x4C00, 0x7C00}, /* 65504 + 16 = 65520: tie to even -> inf */
        {OACL_VOP_ADD, 0x7BFF, 0x4800, 0x7BFF}, /* 65504 + 8: back to 65504 */
        {OACL_VOP_MUL, 0x7BFF, 0x4000, 0x7C00}, /* overflow -> +inf */
        {OACL_VOP_MUL, 0xFBFF, 0x4000, 0xFC00}, /* -> -inf */
        {OACL_VOP_ADD, 0x0001, 0x0001, 0x0002}, /* subnormals add exactly */
        {OACL_VOP_SUB, 0x0400, 0x0001, 0x03FF}, /* 2^-14 - 2^-24: largest subnormal */
        {OACL_VOP_MUL, 0x0200, 0x3800, 0x0100}, /* subnormal * 0.5 */
        {OACL_VOP_MUL, 0x0001, 0x3800, 0x0000}, /* 2^-25: tie -> even 0 */
        {OACL_VOP_MUL, 0x0003, 0x3800, 0x0002}, /* 1.5 * 2^-24: tie -> even 2^-23 */
        {OACL_VOP_MUL, 0x8001, 0x3400, 0x8000}, /* underflow keeps the sign: -0 */
        {OACL_VOP_ADD, 0x8000, 0x8000, 0x8000}, /* -0 + -0 = -0 */
        {OACL_VOP_ADD, 0x8000, 0x0000, 0x0000}, /* -0 + 0 = +0 */
        {OACL_VOP_SUB, 0x3C00, 0x3C00, 0x0000}, /* x - x = +0 */
        {OACL_VOP_MUL, 0xBC00, 0x0000, 0x8000}, /* -1 * 0 = -0 */
        {OACL_VOP_DIV, 0x3C00, 0x0000, 0x7C00}, /* 1 / 0 = inf */
        {OACL_VOP_DIV, 0x3C00, 0x8000, 0xFC00}, /* 1 / -0 = -inf */
        {OACL_VOP_DIV, 0x0000, 0x0000, 0x7E00}, /* 0 / 0: default NaN */
        {OACL_VOP_ADD, 0x7C00, 0xFC00, 0x7E00}, /* inf - inf */
        {OACL_VOP_ADD, 0x7C01, 0x3C00, 0x7E01}, /* signalling NaN operand, quieted */
        {OACL_VOP_ADD, 0x3C00, 0xFD00, 0xFF00}, /* NaN in the second operand */
        {OACL_VOP_DIV, 0x3C00, 0x4200, 0x3555}, /* 1/3 */
        {OACL_VOP_MAX, 0x8000, 0x0000, 0x0000}, /* equal: the second operand */
        {OACL_VOP_MAX, 0x0000, 0x8000, 0x8000},
        {OACL_VOP_MIN, 0x3C00, 0x7E00, 0x7E00}, /* NaN wins */
        {OACL_VOP_MAX, 0x7D00, 0x3C00, 0x7F00},
    };
    const size_t n = sizeof(cases) / sizeof(cases[0]);
    for (size_t k = 0; k < n; k++) {
        uint16_t *x = g_x.host, *y = g_y.host, *z = g_z.host;
        uint32_t cnt = 16, uop = (uint32_t)cases[k].op, udt = OACL_DT_F16;
        for (uint32_t i = 0; i < BLOCKS * cnt; i++) {
            x[i] = cases[k].a;
            y[i] = cases[k].b;
        }
        const void *vals[] = {&g_x.dev, &g_y.dev, &g_z.dev, &uop, &udt, &cnt};
        size_t sizes[] = {8, 8, 8, 4, 4, 4};
        launch(g_binary, 6, vals, sizes);
        if (z[0] != cases[k].want || z[cnt + 5] != cases[k].want)
            fail_msg("case %zu: %s(0x%04x, 0x%04x) = 0x%04x, expected 0x%04x", k, op_name(cases[k].op), cases[k].a,
                     cases[k].b, z[0], cases[k].want);
        /* the reference agrees with the table (it checks the random runs) */
        assert_int_equal(asc_ref_f16_binary(cases[k].op, cases[k].a, cases[k].b), cases[k].want);
    }
}

/* ---- unary operations --------------------------------------------------------- */

static void run_unary(int op, int dt, uint32_t n)
{
    uint32_t np = padded(n, dt);
    fill_random(g_x.host, np * BLOCKS, dt);
    uint32_t uop = (uint32_t)op, udt = (uint32_t)dt;
    const void *vals[] = {&g_x.dev, &g_z.dev, &uop, &udt, &n};
    size_t sizes[] = {8, 8, 4, 4, 4};
    launch(g_unary, 5, vals, sizes);
    const bool approx = op == OACL_VOP_EXP || op == OACL_VOP_LN || op == OACL_VOP_RSQRT;
    for (uint32_t b = 0; b < BLOCKS; b++) {
        for (uint32_t i = b * np; i < b * np + n; i++) {
            if (dt == OACL_DT_F16) {
                uint16_t a = ((uint16_t *)g_x.host)[i], r = ((uint16_t *)g_z.host)[i];
                double v = asc_f16_value(a), w;
                switch (op) {
                case OACL_VOP_EXP: w = exp(v); break;
                case OACL_VOP_LN: w = log(v); break;
                case OACL_VOP_ABS: w = fabs(v); break;
                case OACL_VOP_RELU: w = isnan(v) ? v : v > 0 ? v : 0.0; break;
                case OACL_VOP_SQRT: w = sqrt(v); break;
                case OACL_VOP_RSQRT: w = 1.0 / sqrt(v); break;
                default: w = 1.0 / v; break;
                }
                uint16_t want = isnan(w) ? (asc_f16_is_nan(a) ? (uint16_t)(a | 0x200u) : 0x7E00u) : asc_f16_round(w);
                if (op == OACL_VOP_ABS)
                    want = a & 0x7FFFu; /* a NaN keeps its payload */
                bool ok = approx && !asc_f16_is_nan(want) ? asc_f16_ulps(r, want) <= 1 : r == want;
                if (!ok)
                    fail_msg("unary %d of 0x%04x = 0x%04x, expected 0x%04x", op, a, r, want);
            } else if (dt == OACL_DT_F32) {
                float a = ((float *)g_x.host)[i], r = ((float *)g_z.host)[i];
                double v = a, w;
                switch (op) {
                case OACL_VOP_EXP: w = exp(v); break;
                case OACL_VOP_LN: w = log(v); break;
                case OACL_VOP_ABS: w = fabs(v); break;
                case OACL_VOP_RELU: w = isnan(v) ? v : v > 0 ? v : 0.0; break;
                case OACL_VOP_SQRT: w = sqrt(v); break;
                case OACL_VOP_RSQRT: w = 1.0 / sqrt(v); break;
                default: w = 1.0 / v; break;
                }
                uint32_t want = asc_bits((float)w);
                if (isnan(w))
                    want = isnan(a) ? asc_bits(a) | 0x00400000u : 0x7FC00000u;
                if (op == OACL_VOP_ABS)
                    want = asc_bits(a) & 0x7FFFFFFFu;
                bool ok = approx && !isnan(w) ? asc_f32_ulps(asc_bits(r), want) <= 1 : asc_bits(r) == want;
                if (!ok)
                    fail_msg("unary %d of %a = %a, expected %a", op, a, r, asc_f32(want));
            } else { /* Relu on int32 */
                int32_t a = ((int32_t *)g_x.host)[i], r = ((int32_t *)g_z.host)[i];
                assert_int_equal(r, a > 0 ? a : 0);
            }
        }
    }
    check_untouched(g_z.host, n, dt);
}

static void test_unary_all(void **state)
{
    (void)state;
    static const int ops[] = {OACL_VOP_EXP, OACL_VOP_LN, OACL_VOP_ABS, OACL_VOP_RELU,
                              OACL_VOP_SQRT, OACL_VOP_RSQRT, OACL_VOP_RECIP};
    asc_rng_seed(22);
    for (size_t o = 0; o < 7; o++) {
        run_unary(ops[o], OACL_DT_F16, 1001);
        run_unary(ops[o], OACL_DT_F32, 1001);
        run_unary(ops[o], OACL_DT_F32, 3);
    }
    run_unary(OACL_VOP_RELU, OACL_DT_I32, 1001);
}

/* Every half value through Exp, Ln, Sqrt and Relu (one launch each). */
static void test_unary_f16_exhaustive(void **state)
{
    (void)state;
    static const int ops[] = {OACL_VOP_EXP, OACL_VOP_LN, OACL_VOP_SQRT, OACL_VOP_RECIP, OACL_VOP_RELU};
    uint16_t *x = g_x.host, *z = g_z.host;
    for (size_t o = 0; o < 5; o++) {
        for (uint32_t i = 0; i < 65536; i++) /* block b: b * 16384 .. */
            x[i] = (uint16_t)i;
        uint32_t n = 16384, uop = (uint32_t)ops[o], udt = OACL_DT_F16;
        const void *vals[] = {&g_x.dev, &g_z.dev, &uop, &udt, &n};
        size_t sizes[] = {8, 8, 4, 4, 4};
        ACL_OK(test_launch(g_unary, 4, g_stream, 5, vals, sizes));
        ACL_OK(aclrtSynchronizeStream(g_stream));
        for (uint32_t i = 0; i < 65536; i++) {
            double v = asc_f16_value((uint16_t)i), w;
            switch (ops[o]) {
            case OACL_VOP_EXP: w = exp(v); break;
            case OACL_VOP_LN: w = log(v); break;
            case OACL_VOP_SQRT: w = sqrt(v); break;
            case OACL_VOP_RECIP: w = 1.0 / v; break;
            default: w = isnan(v) ? v : v > 0 ? v : 0.0; break;
            }
            uint16_t want = isnan(w) ? (asc_f16_is_nan((uint16_t)i) ? (uint16_t)(i | 0x200u) : 0x7E00u)
                                     : asc_f16_round(w);
            long tol = ops[o] == OACL_VOP_EXP || ops[o] == OACL_VOP_LN ? 1 : 0;
            if (asc_f16_is_nan(want) ? z[i] != want : asc_f16_ulps(z[i], want) > tol)
                fail_msg("op %d of 0x%04x = 0x%04x, expected 0x%04x", ops[o], i, z[i], want);
        }
    }
}

/* ---- tensor-scalar operations and Duplicate ------------------------------------------- */

static void run_scalar(int op, int dt, uint32_t n, const void *scalar)
{
    uint32_t np = padded(n, dt);
    size_t es = dt_size(dt);
    fill_random(g_x.host, np * BLOCKS, dt);
    memcpy(g_s.host, scalar, es);
    uint32_t uop = (uint32_t)op, udt = (uint32_t)dt;
    const void *vals[] = {&g_x.dev, &g_s.dev, &g_z.dev, &uop, &udt, &n};
    size_t sizes[] = {8, 8, 8, 4, 4, 4};
    launch(g_scalar, 6, vals, sizes);
    static const int as_binary[] = {OACL_VOP_ADD, OACL_VOP_MUL, OACL_VOP_MAX, OACL_VOP_MIN};
    unsigned char *ys = g_y.host;
    for (uint32_t i = 0; i < np * BLOCKS; i++)
        memcpy(ys + i * es, scalar, es);
    for (uint32_t b = 0; b < BLOCKS; b++) {
        for (uint32_t i = b * np; i < b * np + n; i++) {
            const unsigned char *got = (const unsigned char *)g_z.host + i * es;
            if (op == OACL_VOP_DUP) {
                if (memcmp(got, scalar, es))
                    fail_msg("Duplicate type %d: element %u differs", dt, i);
            } else if (op == OACL_VOP_LEAKY_RELU) {
                if (dt == OACL_DT_F16) {
                    uint16_t a = ((uint16_t *)g_x.host)[i], s = *(const uint16_t *)scalar;
                    uint16_t want = asc_f16_value(a) >= 0 ? a : asc_ref_f16_binary(OACL_VOP_MUL, a, s);
                    if (*(const uint16_t *)got != want)
                        fail_msg("LeakyRelu(0x%04x, 0x%04x) = 0x%04x, expected 0x%04x", a, s, *(const uint16_t *)got,
                                 want);
                } else {
                    float a = ((float *)g_x.host)[i], s = *(const float *)scalar, r = *(const float *)got;
                    float want = a >= 0 ? a : a * s;
                    if (isnan(want) ? !isnan(r) : asc_bits(r) != asc_bits(want))
                        fail_msg("LeakyRelu(%a, %a) = %a, expected %a", a, s, r, want);
                }
            } else if (!check_binary_elem(as_binary[op - OACL_VOP_ADDS], dt, g_x.host, ys, g_z.host, i)) {
                fail_msg("tensor-scalar op %d, type %d: element %u wrong", op, dt, i);
            }
        }
    }
    check_untouched(g_z.host, n, dt);
}

static void test_scalar_all(void **state)
{
    (void)state;
    asc_rng_seed(33);
    static const uint16_t h[] = {0x3E00 /* 1.5 */, 0x8000, 0x7E00, 0xFC00, 0x0001, 0xC500};
    static const float f[] = {2.5f, -0.0f, NAN, -INFINITY, 1e-40f, -3.0f};
    static const int32_t i32[] = {7, -1, INT32_MAX, INT32_MIN};
    static const int16_t i16[] = {3, -2, INT16_MAX, INT16_MIN};
    for (int op = OACL_VOP_ADDS; op <= OACL_VOP_MINS; op++) {
        for (size_t k = 0; k < 6; k++) {
            run_scalar(op, OACL_DT_F16, 1001, &h[k]);
            run_scalar(op, OACL_DT_F32, 601, &f[k]);
        }
        for (size_t k = 0; k < 4; k++) {
            run_scalar(op, OACL_DT_I32, 999, &i32[k]);
            run_scalar(op, OACL_DT_I16, 1001, &i16[k]);
        }
    }
    for (size_t k = 0; k < 6; k++) {
        run_scalar(OACL_VOP_LEAKY_RELU, OACL_DT_F16, 1001, &h[k]);
        run_scalar(OACL_VOP_LEAKY_RELU, OACL_DT_F32, 1001, &f[k]);
    }
}

/* Duplicate on every type it supports. */
static void test_duplicate(void **state)
{
    (void)state;
    uint16_t h = 0xC248, u16 = 0xFFFE, bf = 0x3F80;
    float f = -1.25f;
    int32_t i32 = -123456;
    uint32_t u32 = 0xDEADBEEFu;
    int16_t i16 = -300;
    run_scalar(OACL_VOP_DUP, OACL_DT_F16, 1001, &h);
    run_scalar(OACL_VOP_DUP, OACL_DT_U16, 17, &u16);
    run_scalar(OACL_VOP_DUP, OACL_DT_BF16, 64, &bf);
    run_scalar(OACL_VOP_DUP, OACL_DT_F32, 1001, &f);
    run_scalar(OACL_VOP_DUP, OACL_DT_I32, 5, &i32);
    run_scalar(OACL_VOP_DUP, OACL_DT_U32, 1001, &u32);
    run_scalar(OACL_VOP_DUP, OACL_DT_I16, 1000, &i16);
    run_scalar(OACL_VOP_DUP, OACL_DT_F16, 0, &h);
}

/* ---- reductions ---------------------------------------------------------------------- */

static void run_reduce(int op, int dt, uint32_t n, bool index)
{
    uint32_t np = padded(n, dt);
    fill_random(g_x.host, np * BLOCKS, dt);
    if (dt == OACL_DT_F16) /* keep NaN out of most runs (one run adds it below) */
        for (uint32_t i = 0; i < np * BLOCKS; i++)
            if ((((uint16_t *)g_x.host)[i] & 0x7C00u) == 0x7C00u)
                ((uint16_t *)g_x.host)[i] = 0x3C00;
    if (dt == OACL_DT_F32)
        for (uint32_t i = 0; i < np * BLOCKS; i++)
            if (!isfinite(((float *)g_x.host)[i]))
                ((float *)g_x.host)[i] = 1.0f;
    uint32_t uop = (uint32_t)op, udt = (uint32_t)dt, uidx = index;
    const void *vals[] = {&g_x.dev, &g_z.dev, &uop, &udt, &n, &uidx};
    size_t sizes[] = {8, 8, 4, 4, 4, 4};
    launch(g_reduce, 6, vals, sizes);
    size_t es = dt_size(dt);
    uint32_t zp = padded(n, dt);
    for (uint32_t b = 0; b < BLOCKS; b++) {
        const unsigned char *src = (const unsigned char *)g_x.host + (size_t)b * np * es;
        const unsigned char *dst = (const unsigned char *)g_z.host + (size_t)b * zp * es;
        double sum = 0, best = 0;
        uint32_t at = 0;
        for (uint32_t i = 0; i < n; i++) {
            double v = dt == OACL_DT_F16 ? asc_f16_value(((const uint16_t *)src)[i]) : ((const float *)src)[i];
            sum = i ? sum + v : v;
            if (i == 0 || (op == OACL_VOP_REDUCE_MAX ? v > best : v < best)) {
                best = v;
                at = i;
            }
        }
        if (n == 0) {
            assert_int_equal(dst[0], 0x5A); /* nothing written */
            continue;
        }
        if (op == OACL_VOP_REDUCE_SUM) {
            if (dt == OACL_DT_F16) {
                uint16_t got = ((const uint16_t *)dst)[0], want = asc_f16_round(sum);
                if (got != want)
                    fail_msg("ReduceSum f16 n=%u = 0x%04x, expected 0x%04x", n, got, want);
            } else {
                float got = ((const float *)dst)[0];
                if (got != (float)sum)
                    fail_msg("ReduceSum f32 n=%u = %a, expected %a", n, got, (float)sum);
            }
            assert_int_equal(dst[es], 0x5A);
        } else {
            if (dt == OACL_DT_F16)
                assert_int_equal(((const uint16_t *)dst)[0], ((const uint16_t *)src)[at]);
            else
                assert_int_equal(((const uint32_t *)dst)[0], ((const uint32_t *)src)[at]);
            if (index) {
                if (dt == OACL_DT_F16)
                    assert_int_equal(((const uint16_t *)dst)[1], at);
                else
                    assert_int_equal(((const uint32_t *)dst)[1], at);
            } else {
                assert_int_equal(dst[es], 0x5A);
            }
        }
    }
}

static void test_reduce_all(void **state)
{
    (void)state;
    static const uint32_t counts[] = {1, 16, 1001, 4096, 0};
    asc_rng_seed(44);
    for (int op = OACL_VOP_REDUCE_SUM; op <= OACL_VOP_REDUCE_MIN; op++)
        for (size_t c = 0; c < 5; c++) {
            run_reduce(op, OACL_DT_F16, counts[c], false);
            run_reduce(op, OACL_DT_F32, counts[c], false);
            if (op != OACL_VOP_REDUCE_SUM) {
                run_reduce(op, OACL_DT_F16, counts[c], true);
                run_reduce(op, OACL_DT_F32, counts[c], true);
            }
        }
}

/* Exact sums, the first of equal maxima, and NaN. */
static void test_reduce_cases(void **state)
{
    (void)state;
    uint16_t *x = g_x.host, *z = g_z.host;
    uint32_t n = 64, udt = OACL_DT_F16, uidx = 1, uop = OACL_VOP_REDUCE_SUM;
    const void *vals[] = {&g_x.dev, &g_z.dev, &uop, &udt, &n, &uidx};
    size_t sizes[] = {8, 8, 4, 4, 4, 4};
    for (uint32_t i = 0; i < 128; i++)
        x[i] = 0x3C00; /* 1.0 */
    x[70] = 0x4400;     /* block 1: a 4 */
    uidx = 0;
    launch(g_reduce, 6, vals, sizes);
    assert_int_equal(z[0], 0x5400);  /* 64 */
    assert_int_equal(z[64], 0x5430); /* 67 */
    uop = OACL_VOP_REDUCE_MAX;
    uidx = 1;
    x[3] = x[9] = 0x4500; /* two equal maxima: the first counts */
    x[100] = 0x7E00;      /* NaN in block 1 */
    launch(g_reduce, 6, vals, sizes);
    assert_int_equal(z[0], 0x4500);
    assert_int_equal(z[1], 3);
    assert_int_equal(z[64], 0x7E00);
    assert_int_equal(z[65], 100 - 64);
    uop = OACL_VOP_REDUCE_MIN;
    x[20] = 0x8000; /* -0 before +0? all others are positive: -0 is the minimum */
    launch(g_reduce, 6, vals, sizes);
    assert_int_equal(z[0], 0x8000);
    assert_int_equal(z[1], 20);
}

/* ---- casts ------------------------------------------------------------------------------- */

/* Exact value of element i of a buffer of type dt (int64 as long double). */
static long double elem_value(int dt, const void *p, uint32_t i)
{
    switch (dt) {
    case OACL_DT_F16: return asc_f16_value(((const uint16_t *)p)[i]);
    case OACL_DT_BF16: return asc_f32((uint32_t)((const uint16_t *)p)[i] << 16);
    case OACL_DT_F32: return ((const float *)p)[i];
    case OACL_DT_I32: return ((const int32_t *)p)[i];
    case OACL_DT_I16: return ((const int16_t *)p)[i];
    case OACL_DT_I8: return ((const int8_t *)p)[i];
    case OACL_DT_U8: return ((const uint8_t *)p)[i];
    default: return (long double)((const int64_t *)p)[i];
    }
}

/* Rounds |v| between neighbours lo < v < hi of some format (given as
   values) with a mode; returns true for hi. odd_lo: lo's last bit. */
static bool pick_hi(long double v, long double lo, long double hi, bool neg, int mode, bool odd_lo)
{
    switch (mode) {
    case OACL_ROUND_FLOOR: return neg;
    case OACL_ROUND_CEIL: return !neg;
    case OACL_ROUND_TRUNC: return false;
    case OACL_ROUND_ODD: return !odd_lo;
    case OACL_ROUND_ROUND: return hi - v <= v - lo;
    default: return hi - v < v - lo || (hi - v == v - lo && odd_lo);
    }
}

/* The half nearest below |v| and its successor, by search over all
   finite magnitudes (independent of any rounding code). */
static uint16_t f16_round_mode(long double v, int mode)
{
    bool neg = signbit(v) != 0;
    long double a = fabsl(v);
    uint16_t sign = neg ? 0x8000u : 0;
    uint16_t lo = 0, hi = 0x7C00; /* magnitudes; value(0x7C00) treated as 65536 for rounding */
    while (hi - lo > 1) {
        uint16_t mid = (uint16_t)((lo + hi) / 2);
        if (asc_f16_value(mid) <= a)
            lo = mid;
        else
            hi = mid;
    }
    if (a >= 65536.0L)
        return mode == OACL_ROUND_TRUNC || mode == OACL_ROUND_ODD || mode == (neg ? OACL_ROUND_CEIL : OACL_ROUND_FLOOR)
                   ? sign | 0x7BFF : sign | 0x7C00;
    if (asc_f16_value(lo) == a)
        return sign | lo;
    long double lv = asc_f16_value(lo), hv = hi == 0x7C00 ? 65536.0L : asc_f16_value(hi);
    return sign | (pick_hi(a, lv, hv, neg, mode, lo & 1) ? hi : lo);
}

static uint32_t f32_round_mode(long double v, int mode)
{
    bool neg = signbit(v) != 0;
    long double a = fabsl(v);
    float f = (float)a; /* some neighbour */
    float lo = (long double)f <= a ? f : nextafterf(f, 0.0f);
    if ((long double)lo == a)
        return asc_bits(lo) | (neg ? 0x80000000u : 0);
    float hi = nextafterf(lo, INFINITY);
    long double hv = isinf(hi) ? 0x1p128L : (long double)hi;
    float r = pick_hi(a, lo, hv, neg, mode, asc_bits(lo) & 1) ? hi : lo;
    return asc_bits(r) | (neg ? 0x80000000u : 0);
}

static uint16_t bf16_round_mode(long double v, int mode)
{
    uint32_t t = asc_bits((float)v) & 0xFFFF0000u; /* exact for float sources */
    bool neg = signbit(v) != 0;
    long double a = fabsl(v);
    uint16_t lo = (uint16_t)((t >> 16) & 0x7FFF);
    if (asc_f32((uint32_t)lo << 16) == a)
        return (uint16_t)(lo | (neg ? 0x8000u : 0));
    uint16_t hi = (uint16_t)(lo + 1);
    long double hv = hi == 0x7F80 ? 0x1p128L : (long double)asc_f32((uint32_t)hi << 16);
    uint16_t r = pick_hi(a, asc_f32((uint32_t)lo << 16), hv, neg, mode, lo & 1) ? hi : lo;
    return (uint16_t)(r | (neg ? 0x8000u : 0));
}

static long double to_integral(long double v, int mode)
{
    switch (mode) {
    case OACL_ROUND_FLOOR: return floorl(v);
    case OACL_ROUND_CEIL: return ceill(v);
    case OACL_ROUND_ROUND: return roundl(v);
    case OACL_ROUND_TRUNC: return truncl(v);
    default: return nearbyintl(v);
    }
}

/* Expected bytes of dst element i. */
static void ref_cast(int dt, int st, int mode, const void *src, uint32_t i, void *out)
{
    long double v = elem_value(st, src, i);
    bool nan = isnan(v);
    switch (dt) {
    case OACL_DT_F16: {
        uint16_t r;
        if (nan) {
            uint32_t b = st == OACL_DT_F32 ? asc_bits(((const float *)src)[i]) : 0x7FC00000u;
            r = (uint16_t)(((b >> 16) & 0x8000u) | 0x7E00u | ((b >> 13) & 0x1FFu));
        } else {
            r = f16_round_mode(v, mode);
        }
        memcpy(out, &r, 2);
        break;
    }
    case OACL_DT_BF16: {
        uint16_t r = nan ? (uint16_t)((asc_bits(((const float *)src)[i]) >> 16) | 0x40u) : bf16_round_mode(v, mode);
        memcpy(out, &r, 2);
        break;
    }
    case OACL_DT_F32: {
        uint32_t r;
        if (nan) {
            if (st == OACL_DT_F32)
                r = asc_bits(((const float *)src)[i]) | 0x00400000u;
            else if (st == OACL_DT_BF16)
                r = ((uint32_t)((const uint16_t *)src)[i] << 16) | 0x00400000u;
            else { /* f16: payload moves to the top */
                uint16_t h = ((const uint16_t *)src)[i];
                r = ((uint32_t)(h & 0x8000u) << 16) | 0x7FC00000u | ((uint32_t)(h & 0x3FFu) << 13);
            }
        } else if (st == OACL_DT_F32) {
            r = asc_bits((float)to_integral(v, mode));
        } else {
            r = f32_round_mode(v, mode);
        }
        memcpy(out, &r, 4);
        break;
    }
    default: {
        long double lo, hi;
        switch (dt) {
        case OACL_DT_I32: lo = INT32_MIN; hi = INT32_MAX; break;
        case OACL_DT_I16: lo = INT16_MIN; hi = INT16_MAX; break;
        case OACL_DT_I8: lo = INT8_MIN; hi = INT8_MAX; break;
        case OACL_DT_U8: lo = 0; hi = UINT8_MAX; break;
        default: lo = (long double)INT64_MIN; hi = (long double)INT64_MAX; break;
        }
        long double r = nan ? 0 : to_integral(v, mode);
        r = r < lo ? lo : r > hi ? hi : r;
        int64_t k = (int64_t)r;
        size_t es = dt_size(dt);
        memcpy(out, &k, es); /* little-endian low bytes */
        break;
    }
    }
}

static void fill_cast_inputs(int st, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        uint64_t r = asc_rand64();
        switch (st) {
        case OACL_DT_F16: ((uint16_t *)g_x.host)[i] = asc_rand_f16(); break;
        case OACL_DT_BF16: ((uint16_t *)g_x.host)[i] = (uint16_t)(asc_bits(asc_rand_f32()) >> 16); break;
        case OACL_DT_F32: {
            float f = asc_rand_f32();
            if (i % 5 == 1) /* values near integers and ties */
                f = (float)((int32_t)(r >> 40) % 4000 - 2000) * 0.5f;
            else if (i % 5 == 2) /* in and beyond the integer ranges */
                f = (float)ldexp((double)(int32_t)(r >> 32), (int)(r % 40));
            ((float *)g_x.host)[i] = f;
            break;
        }
        case OACL_DT_I32: ((int32_t *)g_x.host)[i] = (int32_t)(r >> (r % 32)); break;
        case OACL_DT_I16: ((int16_t *)g_x.host)[i] = (int16_t)(r >> 48); break;
        case OACL_DT_I8: ((int8_t *)g_x.host)[i] = (int8_t)r; break;
        case OACL_DT_U8: ((uint8_t *)g_x.host)[i] = (uint8_t)r; break;
        default: {
            int64_t v = (int64_t)(r >> (r % 63 + 1)); /* below 2^63 */
            ((int64_t *)g_x.host)[i] = (r & 1) ? -v : v;
            break;
        }
        }
    }
}

static void run_cast(int dt, int st, int mode, uint32_t n)
{
    uint32_t sp = padded(n, st), dp = padded(n, dt);
    fill_cast_inputs(st, sp * BLOCKS);
    uint32_t udt = (uint32_t)dt, ust = (uint32_t)st, umode = (uint32_t)mode;
    const void *vals[] = {&g_x.dev, &g_z.dev, &udt, &ust, &umode, &n};
    size_t sizes[] = {8, 8, 4, 4, 4, 4};
    launch(g_cast, 6, vals, sizes);
    size_t ds = dt_size(dt);
    for (uint32_t b = 0; b < BLOCKS; b++) {
        const unsigned char *src = (const unsigned char *)g_x.host + (size_t)b * sp * dt_size(st);
        const unsigned char *dst = (const unsigned char *)g_z.host + (size_t)b * dp * ds;
        for (uint32_t i = 0; i < n; i++) {
            unsigned char want[8];
            ref_cast(dt, st, mode, src, i, want);
            if (memcmp(dst + i * ds, want, ds)) {
                uint64_t g = 0, w = 0;
                memcpy(&g, dst + i * ds, ds);
                memcpy(&w, want, ds);
                fail_msg("Cast %d -> %d mode %d: element %u (value %Lg) = 0x%llx, expected 0x%llx", st, dt, mode, i,
                         elem_value(st, src, i), (unsigned long long)g, (unsigned long long)w);
            }
        }
    }
}

static void test_cast_all(void **state)
{
    (void)state;
    static const struct {
        int dt, st;
        unsigned modes; /* bit per RoundMode */
    } pairs[] = {
        {OACL_DT_F32, OACL_DT_F16, 0x01},  {OACL_DT_F16, OACL_DT_F32, 0x7F}, {OACL_DT_F32, OACL_DT_F32, 0x3E},
        {OACL_DT_I32, OACL_DT_F32, 0x3E},  {OACL_DT_I16, OACL_DT_F32, 0x3E}, {OACL_DT_I64, OACL_DT_F32, 0x3E},
        {OACL_DT_BF16, OACL_DT_F32, 0x3E}, {OACL_DT_I32, OACL_DT_F16, 0x3E}, {OACL_DT_I16, OACL_DT_F16, 0x3E},
        {OACL_DT_I8, OACL_DT_F16, 0x3F},   {OACL_DT_U8, OACL_DT_F16, 0x3F},  {OACL_DT_F32, OACL_DT_I32, 0x3F},
        {OACL_DT_I16, OACL_DT_I32, 0x01},  {OACL_DT_I64, OACL_DT_I32, 0x01}, {OACL_DT_F16, OACL_DT_I16, 0x01},
        {OACL_DT_F32, OACL_DT_I16, 0x01},  {OACL_DT_F16, OACL_DT_I8, 0x01},  {OACL_DT_F16, OACL_DT_U8, 0x01},
        {OACL_DT_F32, OACL_DT_BF16, 0x01}, {OACL_DT_I32, OACL_DT_BF16, 0x3E}, {OACL_DT_I32, OACL_DT_I64, 0x01},
        {OACL_DT_F32, OACL_DT_I64, 0x3F},
    };
    asc_rng_seed(55);
    for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++)
        for (int mode = 0; mode <= OACL_ROUND_ODD; mode++)
            if (pairs[p].modes & (1u << mode))
                run_cast(pairs[p].dt, pairs[p].st, mode, 1001);
}

/* Named cases: ties, overflow, saturation, NaN, -0. */
static void test_cast_cases(void **state)
{
    (void)state;
    float *x = g_x.host;
    const float in[8] = {2.5f, -2.5f, 65520.0f, 70000.0f, -1e30f, NAN, -0.0f, 3.0e9f};
    uint32_t n = 8, udt, ust = OACL_DT_F32, umode;
    const void *vals[] = {&g_x.dev, &g_z.dev, &udt, &ust, &umode, &n};
    size_t sizes[] = {8, 8, 4, 4, 4, 4};
    memcpy(x, in, sizeof in);
    memcpy(x + 8, in, sizeof in);
    udt = OACL_DT_I32;
    umode = OACL_ROUND_RINT;
    launch(g_cast, 6, vals, sizes);
    const int32_t rint_want[8] = {2, -2, 65520, 70000, INT32_MIN, 0, 0, INT32_MAX};
    assert_memory_equal(g_z.host, rint_want, sizeof rint_want);
    umode = OACL_ROUND_ROUND;
    launch(g_cast, 6, vals, sizes);
    assert_int_equal(((int32_t *)g_z.host)[0], 3);
    assert_int_equal(((int32_t *)g_z.host)[1], -3);
    udt = OACL_DT_F16;
    const struct {
        int mode;
        uint16_t want[8];
    } half_cases[] = {
        {OACL_ROUND_NONE, {0x4100, 0xC100, 0x7C00, 0x7C00, 0xFC00, 0x7E00, 0x8000, 0x7C00}},
        {OACL_ROUND_FLOOR, {0x4100, 0xC100, 0x7BFF, 0x7BFF, 0xFC00, 0x7E00, 0x8000, 0x7BFF}},
        {OACL_ROUND_CEIL, {0x4100, 0xC100, 0x7C00, 0x7C00, 0xFBFF, 0x7E00, 0x8000, 0x7C00}},
        {OACL_ROUND_TRUNC, {0x4100, 0xC100, 0x7BFF, 0x7BFF, 0xFBFF, 0x7E00, 0x8000, 0x7BFF}},
        {OACL_ROUND_ODD, {0x4100, 0xC100, 0x7BFF, 0x7BFF, 0xFBFF, 0x7E00, 0x8000, 0x7BFF}},
    };
    for (size_t k = 0; k < 5; k++) {
        umode = (uint32_t)half_cases[k].mode;
        launch(g_cast, 6, vals, sizes);
        uint16_t *z = g_z.host;
        for (int i = 0; i < 8; i++)
            if (z[i] != half_cases[k].want[i])
                fail_msg("float %g -> half mode %d = 0x%04x, expected 0x%04x", (double)in[i], half_cases[k].mode, z[i],
                         half_cases[k].want[i]);
    }
    /* 1 + 2^-11 + 2^-20 lies above the tie: RINT up, TRUNC down, ODD to the odd one */
    x[0] = x[16] = 1.0f + 0x1p-11f + 0x1p-20f;
    x[1] = x[17] = 1.0f + 0x1p-11f; /* a tie: RINT to even 1.0, ROUND away */
    umode = OACL_ROUND_RINT;
    launch(g_cast, 6, vals, sizes);
    assert_int_equal(((uint16_t *)g_z.host)[0], 0x3C01);
    assert_int_equal(((uint16_t *)g_z.host)[1], 0x3C00);
    umode = OACL_ROUND_ROUND;
    launch(g_cast, 6, vals, sizes);
    assert_int_equal(((uint16_t *)g_z.host)[1], 0x3C01);
    umode = OACL_ROUND_ODD;
    launch(g_cast, 6, vals, sizes);
    assert_int_equal(((uint16_t *)g_z.host)[0], 0x3C01);
    assert_int_equal(((uint16_t *)g_z.host)[1], 0x3C01);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_all),  cmocka_unit_test(test_f16_edges),
        cmocka_unit_test(test_unary_all),   cmocka_unit_test(test_unary_f16_exhaustive),
        cmocka_unit_test(test_scalar_all),  cmocka_unit_test(test_duplicate),
        cmocka_unit_test(test_reduce_all),  cmocka_unit_test(test_reduce_cases),
        cmocka_unit_test(test_cast_all),    cmocka_unit_test(test_cast_cases),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
