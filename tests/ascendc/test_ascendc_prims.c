/*
 * White-box tests of the generic vector primitives (oacl_vbinary,
 * oacl_vunary, oacl_vscalar, oacl_vreduce, oacl_vcast in
 * src/device/cpu/vec_ops*.c) and of oacl_f64_to_f16 (src/common/fp16.h):
 * every implementation the build and CPU offer (scalar, AVX2/F16C) gives
 * the same bits as the independent references of asc_test.h, for every
 * length, alignment and aliasing the kernels can produce; the supported
 * combinations are exactly the documented ones; rounding modes are exact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "asc_test.h"
#include "common/fp16.h"
#include "device/cpu/vec_ops_impl.h"

static const enum oacl_vec_isa g_isas[] = {OACL_VEC_ISA_SCALAR, OACL_VEC_ISA_AVX2};

static void *xalloc(size_t n)
{
    void *p = aligned_alloc(64, (n + 63) / 64 * 64);
    assert_non_null(p);
    return p;
}

static size_t es_of(int dt) { return dt == OACL_DT_F16 || dt == OACL_DT_I16 ? 2 : 4; }

static void fill(void *p, size_t n, int dt)
{
    for (size_t i = 0; i < n; i++) {
        switch (dt) {
        case OACL_DT_F16: ((uint16_t *)p)[i] = asc_rand_f16(); break;
        case OACL_DT_F32: ((float *)p)[i] = asc_rand_f32(); break;
        case OACL_DT_I32: ((uint32_t *)p)[i] = asc_rand32(); break;
        default: ((uint16_t *)p)[i] = (uint16_t)asc_rand32(); break;
        }
    }
}

/* Expected element i of op(a, b) (f32 arithmetic NaN: any NaN, flagged). */
static uint32_t ref_bin(int op, int dt, const void *a, const void *b, size_t i, bool *any_nan)
{
    *any_nan = false;
    switch (dt) {
    case OACL_DT_F16:
        return asc_ref_f16_binary(op, ((const uint16_t *)a)[i], ((const uint16_t *)b)[i]);
    case OACL_DT_F32: {
        float x = ((const float *)a)[i], y = ((const float *)b)[i];
        if (op == OACL_VOP_MAX || op == OACL_VOP_MIN) {
            if (isnan(x) || isnan(y))
                return asc_f32_nan_rule(asc_bits(x), asc_bits(y));
            return asc_bits((op == OACL_VOP_MAX ? x > y : x < y) ? x : y);
        }
        double r = op == OACL_VOP_ADD ? (double)x + y : op == OACL_VOP_SUB ? (double)x - y
                 : op == OACL_VOP_MUL ? (double)x * y : (double)x / y;
        *any_nan = isnan(r);
        return asc_bits((float)r);
    }
    case OACL_DT_I32: {
        uint32_t x = ((const uint32_t *)a)[i], y = ((const uint32_t *)b)[i];
        int32_t sx = (int32_t)x, sy = (int32_t)y;
        switch (op) {
        case OACL_VOP_ADD: return x + y;
        case OACL_VOP_SUB: return x - y;
        case OACL_VOP_MUL: return x * y;
        case OACL_VOP_MAX: return sx > sy ? x : y;
        default: return sx < sy ? x : y;
        }
    }
    default: {
        uint32_t x = ((const uint16_t *)a)[i], y = ((const uint16_t *)b)[i];
        int16_t sx = (int16_t)x, sy = (int16_t)y;
        switch (op) {
        case OACL_VOP_ADD: return (uint16_t)(x + y);
        case OACL_VOP_SUB: return (uint16_t)(x - y);
        case OACL_VOP_MUL: return (uint16_t)(x * y);
        case OACL_VOP_MAX: return sx > sy ? x : y;
        default: return sx < sy ? x : y;
        }
    }
    }
}

static uint32_t load(const void *p, size_t i, int dt)
{
    return es_of(dt) == 2 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i];
}

static void check_bin(int op, int dt, const void *a, const void *b, const void *d, size_t n, const char *isa)
{
    for (size_t i = 0; i < n; i++) {
        bool any_nan;
        uint32_t want = ref_bin(op, dt, a, b, i, &any_nan), got = load(d, i, dt);
        bool ok = any_nan ? isnan(((const float *)d)[i]) : got == want;
        if (!ok)
            fail_msg("%s: op %d type %d n %zu element %zu: 0x%x op 0x%x = 0x%x, expected 0x%x", isa, op, dt, n, i,
                     load(a, i, dt), load(b, i, dt), got, want);
    }
}

/* All binary ops, types, lengths 0..80 and some large ones, operands at
   every element offset within 32 bytes, and in place. */
static void test_binary(void **state)
{
    (void)state;
    static const int ops[] = {OACL_VOP_ADD, OACL_VOP_SUB, OACL_VOP_MUL, OACL_VOP_DIV, OACL_VOP_MAX, OACL_VOP_MIN};
    static const int dts[] = {OACL_DT_F16, OACL_DT_F32, OACL_DT_I32, OACL_DT_I16};
    const size_t cap = 5000;
    unsigned char *a = xalloc(cap * 4 + 64), *b = xalloc(cap * 4 + 64), *d = xalloc(cap * 4 + 64),
                  *keep = xalloc(cap * 4 + 64);
    asc_rng_seed(201);
    for (size_t k = 0; k < 2; k++) {
        if (!oacl_vec_select_isa(g_isas[k]))
            continue;
        const char *isa = k ? "avx2" : "scalar";
        for (size_t o = 0; o < 6; o++) {
            for (size_t t = 0; t < 4; t++) {
                int op = ops[o], dt = dts[t];
                size_t es = es_of(dt);
                if (op == OACL_VOP_DIV && t >= 2) {
                    assert_int_equal(oacl_vbinary(op, dt, d, a, b, 4), -1);
                    continue;
                }
                for (size_t n = 0; n <= 4600; n = n < 80 ? n + 1 : n * 3 + 7) {
                    size_t off = (n * 7) % (32 / es); /* misaligned starts too */
                    unsigned char *pa = a + off * es, *pb = b + ((off + 1) % (32 / es)) * es, *pd = d + off * es;
                    fill(pa, n, dt);
                    fill(pb, n, dt);
                    memset(d, 0xCD, cap * 4 + 64);
                    assert_int_equal(oacl_vbinary(op, dt, pd, pa, pb, n), 0);
                    check_bin(op, dt, pa, pb, pd, n, isa);
                    for (size_t i = (off + n) * es; i < cap * 4 + 64; i++) /* nothing past the end */
                        if (d[i] != 0xCD)
                            fail_msg("%s: op %d type %d n %zu wrote byte %zu", isa, op, dt, n, i);
                    /* in place: dst == a */
                    memcpy(keep, pa, n * es);
                    assert_int_equal(oacl_vbinary(op, dt, pa, pa, pb, n), 0);
                    check_bin(op, dt, keep, pb, pa, n, isa);
                }
            }
        }
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
    free(a);
    free(b);
    free(d);
    free(keep);
}

/* Every pair of f16 specials through every binary op, on every ISA. */
static void test_binary_f16_specials(void **state)
{
    (void)state;
    static const uint16_t sp[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF,
                                  0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x7D55, 0xFF00, 0x1000, 0x3555, 0x4200};
    enum { K = sizeof(sp) / sizeof(sp[0]) };
    uint16_t a[K * K], b[K * K], d[K * K];
    for (size_t i = 0; i < K; i++)
        for (size_t j = 0; j < K; j++) {
            a[i * K + j] = sp[i];
            b[i * K + j] = sp[j];
        }
    for (size_t k = 0; k < 2; k++) {
        if (!oacl_vec_select_isa(g_isas[k]))
            continue;
        for (int op = OACL_VOP_ADD; op <= OACL_VOP_MIN; op++) {
            assert_int_equal(oacl_vbinary(op, OACL_DT_F16, d, a, b, K * K), 0);
            check_bin(op, OACL_DT_F16, a, b, d, K * K, k ? "avx2" : "scalar");
        }
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
}

/* Large outputs take the streaming-store path on AVX2; same results. */
static void test_binary_streaming(void **state)
{
    (void)state;
    if (!oacl_vec_select_isa(OACL_VEC_ISA_AVX2))
        skip();
    const size_t n = 20000;
    uint16_t *a = xalloc(n * 2), *b = xalloc(n * 2), *d = xalloc(n * 2 + 64);
    asc_rng_seed(202);
    fill(a, n, OACL_DT_F16);
    fill(b, n, OACL_DT_F16);
    size_t saved = atomic_load(&oacl_vec_nt_min_bytes);
    atomic_store(&oacl_vec_nt_min_bytes, 4096);
    unsigned long calls = atomic_load(&oacl_vec_nt_calls);
    for (int op = OACL_VOP_ADD; op <= OACL_VOP_MIN; op++) {
        assert_int_equal(oacl_vbinary(op, OACL_DT_F16, d + 3, a, b, n - 3), 0);
        check_bin(op, OACL_DT_F16, a, b, d + 3, n - 3, "avx2-nt");
    }
    assert_true(atomic_load(&oacl_vec_nt_calls) >= calls + 6);
    atomic_store(&oacl_vec_nt_min_bytes, saved);
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
    free(a);
    free(b);
    free(d);
}

/* Tensor-scalar forms equal the binary form against a broadcast scalar,
   also across the primitive's internal 1 KiB chunks; Duplicate fills. */
static void test_scalar_ops(void **state)
{
    (void)state;
    static const int dts[] = {OACL_DT_F16, OACL_DT_F32, OACL_DT_I32, OACL_DT_I16};
    const size_t n = 1500;
    unsigned char *x = xalloc(n * 4), *s = xalloc(n * 4), *d = xalloc(n * 4);
    asc_rng_seed(203);
    for (size_t k = 0; k < 2; k++) {
        if (!oacl_vec_select_isa(g_isas[k]))
            continue;
        for (int op = OACL_VOP_ADDS; op <= OACL_VOP_MINS; op++)
            for (size_t t = 0; t < 4; t++) {
                int dt = dts[t];
                size_t es = es_of(dt);
                fill(x, n, dt);
                fill(s, 1, dt);
                for (size_t i = 1; i < n; i++)
                    memcpy(s + i * es, s, es);
                static const int as_binary[] = {OACL_VOP_ADD, OACL_VOP_MUL, OACL_VOP_MAX, OACL_VOP_MIN};
                assert_int_equal(oacl_vscalar(op, dt, d, x, s, n), 0);
                check_bin(as_binary[op - OACL_VOP_ADDS], dt, x, s, d, n, k ? "avx2" : "scalar");
            }
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
    /* LeakyRelu */
    uint16_t hx[4] = {0x4000, 0xC000, 0x8000, 0xFE01}, hs = 0x3400, hd[4]; /* s = 0.25 */
    assert_int_equal(oacl_vscalar(OACL_VOP_LEAKY_RELU, OACL_DT_F16, hd, hx, &hs, 4), 0);
    assert_int_equal(hd[0], 0x4000);
    assert_int_equal(hd[1], 0xB800); /* -0.5 */
    assert_int_equal(hd[2], 0x8000); /* -0 >= 0: kept */
    assert_int_equal(hd[3], 0xFE01);
    float fx[3] = {3.0f, -8.0f, -0.0f}, fs = 0.5f, fd[3];
    assert_int_equal(oacl_vscalar(OACL_VOP_LEAKY_RELU, OACL_DT_F32, fd, fx, &fs, 3), 0);
    assert_true(fd[0] == 3.0f && fd[1] == -4.0f && asc_bits(fd[2]) == 0x80000000u);
    int32_t ix[2] = {1, 2};
    assert_int_equal(oacl_vscalar(OACL_VOP_LEAKY_RELU, OACL_DT_I32, ix, ix, ix, 2), -1);
    /* Duplicate of every element size */
    static const int all[] = {OACL_DT_F16, OACL_DT_F32, OACL_DT_I32, OACL_DT_I16, OACL_DT_U16, OACL_DT_U32,
                              OACL_DT_I8, OACL_DT_U8, OACL_DT_I64, OACL_DT_U64, OACL_DT_BF16};
    uint64_t v = 0x0123456789ABCDEFull, buf[40];
    for (size_t t = 0; t < 11; t++) {
        size_t es = all[t] == OACL_DT_I8 || all[t] == OACL_DT_U8 ? 1 : all[t] >= OACL_DT_I64 && all[t] <= OACL_DT_U64 ? 8
                  : es_of(all[t]) == 2 || all[t] == OACL_DT_U16 || all[t] == OACL_DT_BF16 ? 2 : 4;
        memset(buf, 0, sizeof buf);
        assert_int_equal(oacl_vscalar(OACL_VOP_DUP, all[t], buf, NULL, &v, 33), 0);
        for (size_t i = 0; i < 33; i++)
            assert_memory_equal((unsigned char *)buf + i * es, &v, es);
        assert_int_equal(((unsigned char *)buf)[33 * es], 0);
    }
    assert_int_equal(oacl_vscalar(OACL_VOP_DUP, 99, buf, NULL, &v, 1), -1);
    assert_int_equal(oacl_vscalar(OACL_VOP_ADDS, OACL_DT_U16, buf, buf, &v, 1), -1);
    assert_int_equal(oacl_vscalar(OACL_VOP_DIV, OACL_DT_F32, buf, buf, &v, 1), -1);
    free(x);
    free(s);
    free(d);
}

/* Unary specials, exact where documented. */
static void test_unary(void **state)
{
    (void)state;
    static const struct {
        int op;
        uint16_t in, out;
    } h[] = {
        {OACL_VOP_EXP, 0x0000, 0x3C00}, {OACL_VOP_EXP, 0xFC00, 0x0000}, {OACL_VOP_EXP, 0x4A00, 0x7C00}, /* e^12 */
        {OACL_VOP_EXP, 0x7E00, 0x7E00}, {OACL_VOP_LN, 0x3C00, 0x0000},  {OACL_VOP_LN, 0x0000, 0xFC00},
        {OACL_VOP_LN, 0x8000, 0xFC00},  {OACL_VOP_LN, 0xBC00, 0x7E00},  {OACL_VOP_LN, 0x7C00, 0x7C00},
        {OACL_VOP_ABS, 0xFE01, 0x7E01}, {OACL_VOP_ABS, 0x8000, 0x0000}, {OACL_VOP_RELU, 0x8000, 0x0000},
        {OACL_VOP_RELU, 0xC000, 0x0000}, {OACL_VOP_RELU, 0x7C01, 0x7E01}, {OACL_VOP_RELU, 0x0001, 0x0001},
        {OACL_VOP_SQRT, 0x8000, 0x8000}, {OACL_VOP_SQRT, 0x4400, 0x4000}, {OACL_VOP_SQRT, 0xBC00, 0x7E00},
        {OACL_VOP_SQRT, 0x0001, 0x0C00}, /* sqrt(2^-24) = 2^-12 */
        {OACL_VOP_RSQRT, 0x0000, 0x7C00}, {OACL_VOP_RSQRT, 0x8000, 0xFC00}, {OACL_VOP_RSQRT, 0x4400, 0x3800},
        {OACL_VOP_RECIP, 0x8000, 0xFC00}, {OACL_VOP_RECIP, 0x4000, 0x3800}, {OACL_VOP_RECIP, 0x0001, 0x7C00},
        {OACL_VOP_RECIP, 0x4200, 0x3555},
    };
    for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
        uint16_t out;
        assert_int_equal(oacl_vunary(h[i].op, OACL_DT_F16, &out, &h[i].in, 1), 0);
        if (out != h[i].out)
            fail_msg("unary %d of 0x%04x = 0x%04x, expected 0x%04x", h[i].op, h[i].in, out, h[i].out);
    }
    float f[4] = {-0.0f, 4.0f, -1.0f, 0.0f}, r[4];
    assert_int_equal(oacl_vunary(OACL_VOP_SQRT, OACL_DT_F32, r, f, 4), 0);
    assert_int_equal(asc_bits(r[0]), 0x80000000u);
    assert_true(r[1] == 2.0f);
    assert_int_equal(asc_bits(r[2]), 0x7FC00000u); /* the positive default NaN */
    assert_int_equal(oacl_vunary(OACL_VOP_LN, OACL_DT_F32, r, f, 4), 0);
    assert_true(r[0] == -INFINITY && asc_bits(r[2]) == 0x7FC00000u && r[3] == -INFINITY);
    assert_int_equal(oacl_vunary(OACL_VOP_RELU, OACL_DT_F32, r, f, 4), 0);
    assert_int_equal(asc_bits(r[0]), 0); /* max(-0, +0) = +0 */
    assert_int_equal(oacl_vunary(OACL_VOP_RECIP, OACL_DT_F32, r, f, 4), 0);
    assert_true(r[0] == -INFINITY && r[1] == 0.25f && r[2] == -1.0f && r[3] == INFINITY);
    int32_t ix[3] = {-5, 0, 7}, ir[3];
    assert_int_equal(oacl_vunary(OACL_VOP_RELU, OACL_DT_I32, ir, ix, 3), 0);
    assert_true(ir[0] == 0 && ir[1] == 0 && ir[2] == 7);
    assert_int_equal(oacl_vunary(OACL_VOP_EXP, OACL_DT_I32, ir, ix, 3), -1);
    assert_int_equal(oacl_vunary(OACL_VOP_ABS, OACL_DT_I16, ir, ix, 1), -1);
    assert_int_equal(oacl_vunary(OACL_VOP_ADD, OACL_DT_F32, r, f, 1), -1);
    /* every f16 through exp/ln: within one ulp of the exact value */
    for (uint32_t v = 0; v < 65536; v++) {
        uint16_t in = (uint16_t)v, out;
        double x = asc_f16_value(in);
        for (int op = OACL_VOP_EXP; op <= OACL_VOP_LN; op++) {
            assert_int_equal(oacl_vunary(op, OACL_DT_F16, &out, &in, 1), 0);
            double w = op == OACL_VOP_EXP ? exp(x) : log(x);
            if (isnan(w)) {
                assert_int_equal(out, asc_f16_is_nan(in) ? (uint16_t)(in | 0x200u) : 0x7E00u);
            } else if (asc_f16_ulps(out, asc_f16_round(w)) > 1) {
                fail_msg("op %d of 0x%04x = 0x%04x, reference 0x%04x", op, in, out, asc_f16_round(w));
            }
        }
    }
}

static void test_reduce(void **state)
{
    (void)state;
    uint16_t h[5] = {0x3C00, 0x4000, 0xC200, 0x4400, 0x4400}, hd[2]; /* 1 2 -3 4 4 */
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_SUM, OACL_DT_F16, hd, h, 5, 0), 0);
    assert_int_equal(hd[0], 0x4800); /* 8 */
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_MAX, OACL_DT_F16, hd, h, 5, 1), 0);
    assert_int_equal(hd[0], 0x4400);
    assert_int_equal(hd[1], 3);
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_MIN, OACL_DT_F16, hd, h, 5, 1), 0);
    assert_int_equal(hd[0], 0xC200);
    assert_int_equal(hd[1], 2);
    float f[4] = {1e30f, -1e30f, 1.0f, INFINITY}, fd[2];
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_SUM, OACL_DT_F32, fd, f, 3, 0), 0);
    assert_true(fd[0] == 1.0f); /* in order, in double: 1e30 - 1e30 + 1 */
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_SUM, OACL_DT_F32, fd, f, 4, 0), 0);
    assert_true(fd[0] == INFINITY);
    float g[3] = {-INFINITY, INFINITY, 2.0f};
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_SUM, OACL_DT_F32, fd, g, 3, 0), 0);
    assert_int_equal(asc_bits(fd[0]), 0x7FC00000u);
    float z[2] = {-0.0f, -0.0f};
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_SUM, OACL_DT_F32, fd, z, 2, 0), 0);
    assert_int_equal(asc_bits(fd[0]), 0x80000000u); /* -0 + -0 */
    float m[3] = {2.0f, NAN, 5.0f};
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_MAX, OACL_DT_F32, fd, m, 3, 1), 0);
    assert_true(isnan(fd[0]));
    uint32_t idx;
    memcpy(&idx, &fd[1], 4);
    assert_int_equal(idx, 1);
    fd[0] = 7.0f;
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_MAX, OACL_DT_F32, fd, m, 0, 1), 0);
    assert_true(fd[0] == 7.0f); /* n == 0 writes nothing */
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_SUM, OACL_DT_F32, fd, m, 3, 1), -1);
    assert_int_equal(oacl_vreduce(OACL_VOP_REDUCE_MAX, OACL_DT_I32, fd, m, 3, 0), -1);
    assert_int_equal(oacl_vreduce(OACL_VOP_ADD, OACL_DT_F32, fd, m, 3, 0), -1);
}

/* The supported cast combinations are exactly the documented table. */
static void test_cast_table(void **state)
{
    (void)state;
    /* src -> dst: modes, written out from docs/kernel-abi.md */
    static const struct {
        int st, dt;
        unsigned modes;
    } table[] = {
        {OACL_DT_F16, OACL_DT_F32, 0x01},  {OACL_DT_F16, OACL_DT_I32, 0x3E}, {OACL_DT_F16, OACL_DT_I16, 0x3E},
        {OACL_DT_F16, OACL_DT_I8, 0x3F},   {OACL_DT_F16, OACL_DT_U8, 0x3F},  {OACL_DT_F32, OACL_DT_F16, 0x7F},
        {OACL_DT_F32, OACL_DT_F32, 0x3E},  {OACL_DT_F32, OACL_DT_I32, 0x3E}, {OACL_DT_F32, OACL_DT_I16, 0x3E},
        {OACL_DT_F32, OACL_DT_I64, 0x3E},  {OACL_DT_F32, OACL_DT_BF16, 0x3E}, {OACL_DT_I32, OACL_DT_F32, 0x3F},
        {OACL_DT_I32, OACL_DT_I16, 0x01},  {OACL_DT_I32, OACL_DT_I64, 0x01}, {OACL_DT_I16, OACL_DT_F16, 0x01},
        {OACL_DT_I16, OACL_DT_F32, 0x01},  {OACL_DT_I8, OACL_DT_F16, 0x01},  {OACL_DT_U8, OACL_DT_F16, 0x01},
        {OACL_DT_BF16, OACL_DT_F32, 0x01}, {OACL_DT_BF16, OACL_DT_I32, 0x3E}, {OACL_DT_I64, OACL_DT_F32, 0x3F},
        {OACL_DT_I64, OACL_DT_I32, 0x01},
    };
    uint64_t src[4] = {0}, dst[4];
    for (int st = 0; st <= 12; st++)
        for (int dt = 0; dt <= 12; dt++)
            for (int mode = -1; mode <= 9; mode++) {
                unsigned want = 0;
                for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); k++)
                    if (table[k].st == st && table[k].dt == dt)
                        want = table[k].modes;
                bool ok = mode >= 0 && mode < 32 && (want & (1u << mode));
                int rc = oacl_vcast(dt, st, mode, dst, src, 2);
                if (rc != (ok ? 0 : -1))
                    fail_msg("cast %d -> %d mode %d returned %d", st, dt, mode, rc);
            }
}

static uint32_t cast1(int dt, int st, int mode, const void *v)
{
    uint64_t out = 0;
    if (oacl_vcast(dt, st, mode, &out, v, 1))
        fail_msg("cast %d -> %d with mode %d is not supported", st, dt, mode);
    return (uint32_t)out;
}

/* Rounding modes on chosen values, int64 sources rounded once. */
static void test_cast_rounding(void **state)
{
    (void)state;
    int64_t big = (INT64_C(1) << 60) + 1; /* float ulp there: 2^37 */
    const uint32_t lo = asc_bits(0x1p60f), hi = lo + 1;
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_RINT, &big), lo);
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_CEIL, &big), hi);
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_TRUNC, &big), lo);
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_ROUND, &big), lo);
    int64_t tie = (INT64_C(1) << 60) + (INT64_C(1) << 36);
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_RINT, &tie), lo);   /* to even */
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_ROUND, &tie), hi);  /* away */
    int64_t above = tie + 1;
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_NONE, &above), hi); /* double would tie */
    int64_t neg = -big;
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_FLOOR, &neg), hi | 0x80000000u);
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_CEIL, &neg), lo | 0x80000000u);
    int64_t min = INT64_MIN, max = INT64_MAX;
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_TRUNC, &min), 0xDF000000u);
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_TRUNC, &max), 0x5EFFFFFFu);
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I64, OACL_ROUND_RINT, &max), 0x5F000000u);
    assert_int_equal(cast1(OACL_DT_I32, OACL_DT_I64, OACL_ROUND_NONE, &max), INT32_MAX);
    assert_int_equal(cast1(OACL_DT_I32, OACL_DT_I64, OACL_ROUND_NONE, &min), (uint32_t)INT32_MIN);
    int32_t i = 16777217;
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I32, OACL_ROUND_NONE, &i), asc_bits(16777216.0f));
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I32, OACL_ROUND_CEIL, &i), asc_bits(16777218.0f));
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_I32, OACL_ROUND_FLOOR, &i), asc_bits(16777216.0f));
    i = 40000;
    assert_int_equal((uint16_t)cast1(OACL_DT_I16, OACL_DT_I32, OACL_ROUND_NONE, &i), 0x7FFF);
    i = -40000;
    assert_int_equal((uint16_t)cast1(OACL_DT_I16, OACL_DT_I32, OACL_ROUND_NONE, &i), 0x8000);
    float third = 1.0f / 3.0f, mthird = -third;
    assert_int_equal(cast1(OACL_DT_BF16, OACL_DT_F32, OACL_ROUND_RINT, &third), 0x3EAB);
    assert_int_equal(cast1(OACL_DT_BF16, OACL_DT_F32, OACL_ROUND_TRUNC, &third), 0x3EAA);
    assert_int_equal(cast1(OACL_DT_BF16, OACL_DT_F32, OACL_ROUND_FLOOR, &mthird), 0xBEAB);
    assert_int_equal(cast1(OACL_DT_BF16, OACL_DT_F32, OACL_ROUND_CEIL, &mthird), 0xBEAA);
    float f = 2.5f, mf = -2.5f, small = -0.3f;
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_F32, OACL_ROUND_RINT, &f), asc_bits(2.0f));
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_F32, OACL_ROUND_ROUND, &f), asc_bits(3.0f));
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_F32, OACL_ROUND_FLOOR, &mf), asc_bits(-3.0f));
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_F32, OACL_ROUND_TRUNC, &mf), asc_bits(-2.0f));
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_F32, OACL_ROUND_CEIL, &small), 0x80000000u);
    uint8_t u8 = 255;
    int8_t i8 = -128;
    int16_t i16 = 32767;
    assert_int_equal(cast1(OACL_DT_F16, OACL_DT_U8, OACL_ROUND_NONE, &u8), 0x5BF8);
    assert_int_equal(cast1(OACL_DT_F16, OACL_DT_I8, OACL_ROUND_NONE, &i8), 0xD800);
    assert_int_equal(cast1(OACL_DT_F16, OACL_DT_I16, OACL_ROUND_NONE, &i16), 0x7800); /* 32768 */
    uint16_t h300 = 0x5CB0, hneg = 0xC500, hnan = 0x7E00, h25 = 0x4100;
    assert_int_equal(cast1(OACL_DT_U8, OACL_DT_F16, OACL_ROUND_NONE, &h300), 255);
    assert_int_equal(cast1(OACL_DT_U8, OACL_DT_F16, OACL_ROUND_NONE, &hneg), 0);
    assert_int_equal(cast1(OACL_DT_I32, OACL_DT_F16, OACL_ROUND_RINT, &hnan), 0);
    assert_int_equal(cast1(OACL_DT_I8, OACL_DT_F16, OACL_ROUND_NONE, &h25), 2);
    assert_int_equal(cast1(OACL_DT_I8, OACL_DT_F16, OACL_ROUND_ROUND, &h25), 3);
    uint16_t bnan = 0x7F81;
    assert_int_equal(cast1(OACL_DT_F32, OACL_DT_BF16, OACL_ROUND_NONE, &bnan), 0x7FC10000u);
    float fnan = asc_f32(0xFF800001u);
    assert_int_equal(cast1(OACL_DT_BF16, OACL_DT_F32, OACL_ROUND_TRUNC, &fnan), 0xFFC0);
    assert_int_equal(cast1(OACL_DT_F16, OACL_DT_F32, OACL_ROUND_FLOOR, &fnan), 0xFE00);
}

/* double -> half (fp16.h) against the reference. */
static void test_f64_to_f16(void **state)
{
    (void)state;
    asc_rng_seed(204);
    for (int i = 0; i < (1 << 21); i++) {
        uint64_t r = asc_rand64();
        double d = ldexp((double)(r >> 11) / 9007199254740992.0, (int)(r % 52) - 30);
        if (r & 1)
            d = -d;
        if (oacl_f64_to_f16(d) != asc_f16_round(d))
            fail_msg("%a -> 0x%04x, expected 0x%04x", d, oacl_f64_to_f16(d), asc_f16_round(d));
    }
    assert_int_equal(oacl_f64_to_f16(1.0 + 0x1p-11 + 0x1p-50), 0x3C01);
    assert_int_equal(oacl_f64_to_f16(-0.0), 0x8000);
    assert_int_equal(oacl_f64_to_f16(1e300), 0x7C00);
    assert_int_equal(oacl_f64_to_f16(0x1p-25), 0x0000);
    assert_int_equal(oacl_f64_to_f16(0x1p-25 + 0x1p-70), 0x0001);
    assert_true(asc_f16_is_nan(oacl_f64_to_f16(NAN)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary),      cmocka_unit_test(test_binary_f16_specials),
        cmocka_unit_test(test_binary_streaming), cmocka_unit_test(test_scalar_ops),
        cmocka_unit_test(test_unary),       cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_cast_table),  cmocka_unit_test(test_cast_rounding),
        cmocka_unit_test(test_f64_to_f16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
