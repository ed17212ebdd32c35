/*
 * aclrtReduceAsync (acl-rt-memory-extras.md §3.10, Decision 15): every kind
 * and data type against a plain reference computed here (float16/bfloat16
 * from the exact sum in double, rounded with an explicit round-to-nearest-
 * even written for this test), edge values (NaN, inf, overflow, ties,
 * signed zeros, integer wrap), aliasing, stream order, bad inputs with
 * untouched destinations, and the capability table of every SoC profile
 * family (child processes with OACL_SOC set).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

#define SUM ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM
#define MAX ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX
#define MIN ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN
#define EQUAL ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL

/* ---- reference arithmetic (independent of the library) ------------------ */

/* |v| rounded to nearest even into a binary format with a p-bit significand
 * (hidden bit included), normal exponents emin..emax and `ebits` exponent
 * bits: scaling by a power of two is exact, nearbyint rounds to nearest
 * even in the default mode. Returns the IEEE bit pattern. */
static uint32_t rne_pattern(double v, int p, int emin, int emax, int ebits)
{
    const int mbits = p - 1;
    const uint32_t sign = signbit(v) ? 1u << (ebits + mbits) : 0;
    const double a = fabs(v);
    if (a == 0)
        return sign;
    if (isinf(a))
        return sign | (((1u << ebits) - 1) << mbits);
    int ex;
    (void)frexp(a, &ex);
    int e = ex - 1; /* a in [2^e, 2^(e+1)) */
    if (e < emin)
        e = emin; /* subnormal: the quantum stays 2^(emin - mbits) */
    double q = nearbyint(ldexp(a, mbits - e));
    if (q >= ldexp(1, p)) { /* rounded up to the next binade */
        q /= 2;
        e++;
    }
    if (e > emax)
        return sign | (((1u << ebits) - 1) << mbits); /* inf */
    if (q < ldexp(1, mbits))
        return sign | (uint32_t)q; /* subnormal */
    return sign | (uint32_t)(e + (1 << (ebits - 1)) - 1) << mbits | ((uint32_t)q - (1u << mbits));
}

static uint16_t ref_f16(double v) { return (uint16_t)rne_pattern(v, 11, -14, 15, 5); }
static uint16_t ref_bf16(double v) { return (uint16_t)rne_pattern(v, 8, -126, 127, 8); }

static double f16_val(uint16_t h)
{
    const int e = (h >> 10) & 31, m = h & 1023;
    const double s = (h & 0x8000) ? -1 : 1;
    if (e == 31)
        return m ? NAN : s * INFINITY;
    return s * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}

static double bf16_val(uint16_t b)
{
    const uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static bool f16_nan(uint16_t h) { return (h & 0x7FFF) > 0x7C00; }
static bool bf16_nan(uint16_t b) { return (b & 0x7FFF) > 0x7F80; }

static size_t tsize(aclDataType t)
{
    switch (t) {
    case ACL_INT8: case ACL_UINT8: return 1;
    case ACL_INT16: case ACL_UINT16: case ACL_FLOAT16: case ACL_BF16: return 2;
    default: return 4;
    }
}

/* One element of the reference: *d = *d OP *s. Returns true when the result
 * is a NaN (then only NaN-ness is compared). */
static bool ref_elem(aclDataType t, aclrtReduceKind k, void *dp, const void *sp)
{
    if (k == EQUAL) {
        memmove(dp, sp, tsize(t));
        switch (t) {
        case ACL_FLOAT16: { uint16_t v; memcpy(&v, dp, 2); return f16_nan(v); }
        case ACL_BF16: { uint16_t v; memcpy(&v, dp, 2); return bf16_nan(v); }
        case ACL_FLOAT: { float v; memcpy(&v, dp, 4); return isnan(v); }
        default: return false;
        }
    }
    switch (t) {
    case ACL_INT8: {
        int8_t a, b;
        memcpy(&a, dp, 1);
        memcpy(&b, sp, 1);
        int8_t r = k == SUM ? (int8_t)(uint8_t)((unsigned)a + (unsigned)b) : k == MAX ? (b > a ? b : a) : (b < a ? b : a);
        memcpy(dp, &r, 1);
        return false;
    }
    case ACL_INT16: {
        int16_t a, b;
        memcpy(&a, dp, 2);
        memcpy(&b, sp, 2);
        int16_t r = k == SUM ? (int16_t)(uint16_t)((unsigned)a + (unsigned)b) : k == MAX ? (b > a ? b : a) : (b < a ? b : a);
        memcpy(dp, &r, 2);
        return false;
    }
    case ACL_INT32: {
        int32_t a, b;
        memcpy(&a, dp, 4);
        memcpy(&b, sp, 4);
        int32_t r = k == SUM ? (int32_t)((uint32_t)a + (uint32_t)b) : k == MAX ? (b > a ? b : a) : (b < a ? b : a);
        memcpy(dp, &r, 4);
        return false;
    }
    case ACL_UINT32: {
        uint32_t a, b;
        memcpy(&a, dp, 4);
        memcpy(&b, sp, 4);
        uint32_t r = k == SUM ? a + b : k == MAX ? (b > a ? b : a) : (b < a ? b : a);
        memcpy(dp, &r, 4);
        return false;
    }
    case ACL_FLOAT: {
        float a, b;
        memcpy(&a, dp, 4);
        memcpy(&b, sp, 4);
        if (isnan(a) || isnan(b))
            return true;
        float r = k == SUM ? a + b : k == MAX ? (b > a ? b : a) : (b < a ? b : a);
        memcpy(dp, &r, 4);
        return isnan(r);
    }
    case ACL_FLOAT16:
    case ACL_BF16: {
        const bool h = t == ACL_FLOAT16;
        uint16_t a, b;
        memcpy(&a, dp, 2);
        memcpy(&b, sp, 2);
        if (h ? (f16_nan(a) || f16_nan(b)) : (bf16_nan(a) || bf16_nan(b)))
            return true;
        const double x = h ? f16_val(a) : bf16_val(a), y = h ? f16_val(b) : bf16_val(b);
        uint16_t r;
        if (k == SUM) {
            const double sum = x + y; /* exact for halves */
            if (isnan(sum))
                return true; /* inf - inf */
            r = h ? ref_f16(sum) : ref_bf16(sum);
        } else {
            r = k == MAX ? (y > x ? b : a) : (y < x ? b : a);
        }
        memcpy(dp, &r, 2);
        return false;
    }
    default:
        return false;
    }
}

static char g_ctx[64];
/* Element i of the device result against the reference. */
static void check_elem(aclDataType t, const void *got, const void *want, bool want_nan, size_t i, const char *what)
{
    const size_t sz = tsize(t);
    if (want_nan) {
        bool is_nan;
        if (t == ACL_FLOAT) {
            float f;
            memcpy(&f, got, 4);
            is_nan = isnan(f);
        } else {
            uint16_t v;
            memcpy(&v, got, 2);
            is_nan = t == ACL_FLOAT16 ? f16_nan(v) : bf16_nan(v);
        }
        if (!is_nan)
            fail_msg("%s: element %zu is not NaN", what, i);
        return;
    }
    if (memcmp(got, want, sz) != 0) {
        uint32_t g = 0, w = 0;
        memcpy(&g, got, sz);
        memcpy(&w, want, sz);
        fail_msg("%s: element %zu is 0x%x, expected 0x%x (%s)", what, i, g, w, g_ctx);
    }
}

/* ---- helpers -------------------------------------------------------------- */

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}

static void fill_random(void *p, size_t bytes)
{
    uint8_t *b = p;
    for (size_t i = 0; i < bytes; i++)
        b[i] = (uint8_t)rnd();
}

static void *dev_alloc(size_t n)
{
    void *p = NULL;
    ACL_OK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    return p;
}

static void h2d(void *dev, const void *host, size_t n) { ACL_OK(aclrtMemcpy(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE)); }
static void d2h(void *host, const void *dev, size_t n) { ACL_OK(aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST)); }

static const char *kind_str(aclrtReduceKind k)
{
    static const char *const n[] = {"SUM", "MAX", "MIN", "EQUAL"};
    return k >= SUM && k <= EQUAL ? n[k - SUM] : "?";
}

/* Runs dst OP= src on the device for n elements given on the host, and
 * compares with the reference. */
static void run_and_check(aclDataType t, aclrtReduceKind k, const void *hd, const void *hs, size_t n, aclrtStream s)
{
    const size_t bytes = n * tsize(t);
    uint8_t *want = malloc(bytes), *got = malloc(bytes);
    bool *nan = calloc(n, sizeof(bool));
    assert_non_null(want);
    assert_non_null(got);
    assert_non_null(nan);
    memcpy(want, hd, bytes);
    for (size_t i = 0; i < n; i++)
        nan[i] = ref_elem(t, k, want + i * tsize(t), (const uint8_t *)hs + i * tsize(t));
    void *dd = dev_alloc(bytes), *ds = dev_alloc(bytes);
    h2d(dd, hd, bytes);
    h2d(ds, hs, bytes);
    ACL_OK(aclrtReduceAsync(dd, ds, bytes, k, t, s, NULL));
    ACL_OK(aclrtSynchronizeStream(s));
    d2h(got, dd, bytes);
    char what[64];
    snprintf(what, sizeof(what), "type %d %s", (int)t, kind_str(k));
    for (size_t i = 0; i < n; i++) {
        uint32_t a = 0, b = 0;
        memcpy(&a, (const uint8_t *)hd + i * tsize(t), tsize(t));
        memcpy(&b, (const uint8_t *)hs + i * tsize(t), tsize(t));
        snprintf(g_ctx, sizeof(g_ctx), "dst 0x%x, src 0x%x", a, b);
        check_elem(t, got + i * tsize(t), want + i * tsize(t), nan[i], i, what);
    }
    d2h(got, ds, bytes);
    assert_memory_equal(got, hs, bytes); /* src only read */
    ACL_OK(aclrtFree(dd));
    ACL_OK(aclrtFree(ds));
    free(want);
    free(got);
    free(nan);
}

static int setup(void **state)
{
    (void)state;
    oacl_test_reset_devices();
    return aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    oacl_test_reset_devices();
    return 0;
}

static const aclDataType g_a2_types[] = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_BF16};

/* ---- good paths ------------------------------------------------------------ */

/* Every kind x type of the default profile on random bit patterns (NaN,
 * inf, subnormals and signed zeros included at their natural rates). */
static void test_every_kind_and_type(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    const size_t n = 4099;
    uint8_t *hd = malloc(n * 4), *hs = malloc(n * 4);
    for (size_t ti = 0; ti < sizeof(g_a2_types) / sizeof(g_a2_types[0]); ti++) {
        for (aclrtReduceKind k = SUM; k <= EQUAL; k++) {
            fill_random(hd, n * 4);
            fill_random(hs, n * 4);
            run_and_check(g_a2_types[ti], k, hd, hs, n, s);
        }
    }
    free(hd);
    free(hs);
    ACL_OK(aclrtDestroyStream(s));
}

/* Reductions larger than one unit of work (2 MiB) are split over the
 * device's threads; the result is the same. */
static void test_large(void **state)
{
    (void)state;
    const size_t n = (5u << 20) / 4 + 3; /* 5 MiB + 12 bytes of floats */
    float *hd = malloc(n * 4), *hs = malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        hd[i] = (float)(rnd() % 100000) / 7.0f;
        hs[i] = (float)(rnd() % 100000) / 3.0f;
    }
    run_and_check(ACL_FLOAT, SUM, hd, hs, n, NULL);
    fill_random(hd, n * 4);
    fill_random(hs, n * 4);
    run_and_check(ACL_FLOAT16, MAX, hd, hs, n * 2, NULL);
    run_and_check(ACL_BF16, SUM, hd, hs, n * 2, NULL);
    free(hd);
    free(hs);
}

struct edge {
    aclDataType type;
    aclrtReduceKind kind;
    uint32_t dst, src;   /* bit patterns */
    uint32_t want;       /* bit pattern, or NAN_WANTED */
};
#define NAN_WANTED 0xFFFFFFFFu

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void test_edge_values(void **state)
{
    (void)state;
    const struct edge cases[] = {
        /* the spec's examples */
        {ACL_FLOAT, SUM, fbits(1), fbits(10), fbits(11)},
        {ACL_INT8, SUM, 127, 1, 0x80},                  /* 127 + 1 wraps to -128 */
        {ACL_FLOAT16, SUM, 0x7BFF, 0x7BFF, 0x7C00},     /* 65504 + 65504 = +inf */
        /* integer wrap and signed compares */
        {ACL_INT16, SUM, 0x8000, 0xFFFF, 0x7FFF},       /* -32768 - 1 */
        {ACL_INT32, SUM, 0x7FFFFFFF, 1, 0x80000000},
        {ACL_INT32, MAX, 0xFFFFFFFF, 1, 1},             /* -1 < 1 */
        {ACL_INT8, MIN, 0x80, 0x7F, 0x80},
        /* float16 rounding: ties to even, overflow threshold */
        {ACL_FLOAT16, SUM, 0x6800, 0x3C00, 0x6800},     /* 2048 + 1 = 2049 -> 2048 */
        {ACL_FLOAT16, SUM, 0x6801, 0x3C00, 0x6802},     /* 2050 + 1 = 2051 -> 2052 */
        {ACL_FLOAT16, SUM, 0x7BFF, 0x4B80, 0x7BFF},     /* 65504 + 15 = 65519 -> 65504 */
        {ACL_FLOAT16, SUM, 0x7BFF, 0x4C00, 0x7C00},     /* 65504 + 16 = 65520 -> inf (tie to even) */
        {ACL_FLOAT16, SUM, 0x0001, 0x8002, 0x8001},     /* subnormals are exact */
        {ACL_FLOAT16, SUM, 0x8000, 0x8000, 0x8000},     /* -0 + -0 = -0 */
        {ACL_FLOAT16, SUM, 0x8000, 0x0000, 0x0000},     /* -0 + +0 = +0 */
        {ACL_FLOAT16, SUM, 0x7C00, 0xFC00, NAN_WANTED}, /* inf - inf */
        {ACL_FLOAT16, SUM, 0x7E01, 0x3C00, NAN_WANTED},
        {ACL_FLOAT16, SUM, 0x3C00, 0xFE00, NAN_WANTED},
        {ACL_FLOAT16, MAX, 0x7E00, 0x3C00, NAN_WANTED}, /* NaN in dst */
        {ACL_FLOAT16, MAX, 0x3C00, 0x7E00, NAN_WANTED}, /* NaN in src */
        {ACL_FLOAT16, MIN, 0x3C00, 0x7D00, NAN_WANTED}, /* signalling NaN in src */
        {ACL_FLOAT16, MAX, 0x0000, 0x8000, 0x0000},     /* equal: dst kept */
        {ACL_FLOAT16, MAX, 0x8000, 0x0000, 0x8000},
        {ACL_FLOAT16, MIN, 0x0000, 0x8000, 0x0000},
        {ACL_FLOAT16, MAX, 0xFC00, 0xFBFF, 0xFBFF},     /* -inf < -65504 */
        /* bfloat16 */
        {ACL_BF16, SUM, 0x7F7F, 0x7F7F, 0x7F80},        /* overflow to inf */
        {ACL_BF16, SUM, 0x4380, 0x3F80, 0x4380},        /* 256 + 1 = 257 -> tie -> 256 */
        {ACL_BF16, SUM, 0x4381, 0x3F80, 0x4382},        /* 258 + 1 = 259 -> tie -> 260 */
        {ACL_BF16, SUM, 0x3F80, 0x0001, 0x3F80},        /* 1 + tiny subnormal */
        {ACL_BF16, SUM, 0x7FC0, 0x3F80, NAN_WANTED},
        {ACL_BF16, MIN, 0x3F80, 0xFF81, NAN_WANTED},
        {ACL_BF16, MIN, 0x8000, 0x0000, 0x8000},        /* equal: dst kept */
        /* float */
        {ACL_FLOAT, SUM, fbits(INFINITY), fbits(-INFINITY), NAN_WANTED},
        {ACL_FLOAT, SUM, fbits(3.4028235e38f), fbits(3.4028235e38f), fbits(INFINITY)},
        {ACL_FLOAT, SUM, fbits(1.0f), fbits(0x1p-24f), fbits(1.0f)}, /* tie to even */
        {ACL_FLOAT, MAX, fbits(NAN), fbits(1.0f), NAN_WANTED},
        {ACL_FLOAT, MIN, fbits(1.0f), fbits(NAN), NAN_WANTED},
        {ACL_FLOAT, MAX, fbits(0.0f), fbits(-0.0f), fbits(0.0f)},
        {ACL_FLOAT, MIN, fbits(-0.0f), fbits(0.0f), fbits(-0.0f)},
        {ACL_FLOAT, EQUAL, fbits(1.0f), fbits(-2.5f), fbits(-2.5f)},
    };
    const size_t nc = sizeof(cases) / sizeof(cases[0]);
    uint8_t *buf = dev_alloc(64 * nc);
    for (size_t i = 0; i < nc; i++) {
        const struct edge *c = &cases[i];
        uint8_t *d = buf + 64 * i, *s = d + 32;
        const size_t sz = tsize(c->type);
        h2d(d, &c->dst, sz); /* little-endian: the low bytes */
        h2d(s, &c->src, sz);
        ACL_OK(aclrtReduceAsync(d, s, sz, c->kind, c->type, NULL, NULL));
    }
    ACL_OK(aclrtSynchronizeStream(NULL));
    for (size_t i = 0; i < nc; i++) {
        const struct edge *c = &cases[i];
        const size_t sz = tsize(c->type);
        uint32_t got = 0;
        d2h(&got, buf + 64 * i, sz);
        /* The reference agrees with the table (so the table is right). */
        uint32_t ref = c->dst;
        const bool ref_nan = ref_elem(c->type, c->kind, &ref, &c->src);
        if (ref_nan != (c->want == NAN_WANTED) || (!ref_nan && (ref & (sz == 4 ? ~0u : (1u << 8 * sz) - 1)) != c->want))
            fail_msg("case %zu: the reference gives 0x%x, the table 0x%x", i, ref, c->want);
        char what[32];
        snprintf(what, sizeof(what), "edge case %zu", i);
        snprintf(g_ctx, sizeof(g_ctx), "dst 0x%x, src 0x%x", c->dst, c->src);
        check_elem(c->type, &got, &c->want, c->want == NAN_WANTED, 0, what);
    }
    ACL_OK(aclrtFree(buf));
}

/* dst == src, and partially overlapping operands: element-wise in index
 * order, as a sequential loop does it. */
static void test_aliasing(void **state)
{
    (void)state;
    enum { N = 64 };
    int32_t init[N + 8], want[N + 8], got[N + 8];
    for (int i = 0; i < N + 8; i++)
        init[i] = i * 3 + 1;
    int32_t *dev = dev_alloc(sizeof(init));
    /* dst == src: doubles */
    h2d(dev, init, sizeof(init));
    ACL_OK(aclrtReduceAsync(dev, dev, N * 4, SUM, ACL_INT32, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    d2h(got, dev, sizeof(got));
    for (int i = 0; i < N; i++)
        assert_int_equal(got[i], init[i] * 2);
    assert_int_equal(got[N], init[N]);
    /* partial overlaps in both directions, for SUM and EQUAL */
    const int shifts[] = {1, -1, 3, -5};
    for (aclrtReduceKind k = SUM; k <= EQUAL; k += EQUAL - SUM) {
        for (size_t si = 0; si < 4; si++) {
            const int sh = shifts[si];
            const int d0 = sh < 0 ? -sh : 0, s0 = sh < 0 ? 0 : sh; /* dst = base + d0, src = base + s0 */
            memcpy(want, init, sizeof(init));
            for (int i = 0; i < N; i++)
                want[d0 + i] = k == SUM ? want[d0 + i] + want[s0 + i] : want[s0 + i];
            h2d(dev, init, sizeof(init));
            ACL_OK(aclrtReduceAsync(dev + d0, dev + s0, N * 4, k, ACL_INT32, NULL, NULL));
            ACL_OK(aclrtSynchronizeStream(NULL));
            d2h(got, dev, sizeof(got));
            assert_memory_equal(got, want, sizeof(got));
        }
    }
    ACL_OK(aclrtFree(dev));
}

/* count in bytes: a trailing partial element is left untouched, and a
 * count below one element changes nothing. */
static void test_trailing_bytes(void **state)
{
    (void)state;
    const float d0[3] = {1, 2, 3}, s0[3] = {10, 20, 30};
    float *d = dev_alloc(16), *s = dev_alloc(16);
    h2d(d, d0, 12);
    h2d(s, s0, 12);
    ACL_OK(aclrtReduceAsync(d, s, 10, SUM, ACL_FLOAT, NULL, NULL)); /* 2 floats + 2 bytes */
    ACL_OK(aclrtSynchronizeStream(NULL));
    float got[3];
    d2h(got, d, 12);
    assert_true(got[0] == 11 && got[1] == 22 && got[2] == 3);
    ACL_OK(aclrtReduceAsync(d, s, 3, SUM, ACL_FLOAT, NULL, NULL)); /* no whole element */
    ACL_OK(aclrtSynchronizeStream(NULL));
    d2h(got, d, 12);
    assert_true(got[0] == 11 && got[1] == 22 && got[2] == 3);
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtFree(s));
}

/* In stream order: a reduce behind a wait does not run before the wait
 * passes, and sees a copy queued before it on its stream. */
static void test_stream_order(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint64_t *gate = dev_alloc(64);
    int32_t *d = dev_alloc(64), *src = dev_alloc(64), *src2 = dev_alloc(64);
    const uint64_t zero = 0, one = 1;
    const int32_t dv[4] = {1, 2, 3, 4}, sv[4] = {10, 20, 30, 40}, sv2[4] = {100, 200, 300, 400};
    h2d(gate, &zero, 8);
    h2d(d, dv, 16);
    h2d(src, sv, 16);
    h2d(src2, sv2, 16);
    ACL_OK(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    ACL_OK(aclrtMemcpyAsync(src, 16, src2, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    ACL_OK(aclrtReduceAsync(d, src, 16, SUM, ACL_INT32, s, NULL));
    int32_t got[4];
    d2h(got, d, 16); /* the stream is held by the wait: nothing ran */
    assert_memory_equal(got, dv, 16);
    h2d(gate, &one, 8);
    ACL_OK(aclrtSynchronizeStream(s));
    d2h(got, d, 16);
    for (int i = 0; i < 4; i++)
        assert_int_equal(got[i], dv[i] + sv2[i]);
    ACL_OK(aclrtFree(gate));
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtFree(src));
    ACL_OK(aclrtFree(src2));
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- bad inputs -------------------------------------------------------------- */

static void *no_context_call(void *arg)
{
    void **p = arg;
    ACL_ERR(aclrtReduceAsync(p[0], p[1], 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_CONTEXT_NULL,
            "aclrtReduceAsync");
    return NULL;
}

/* Every refusal leaves dst untouched (checked after a device synchronize). */
static void test_bad_inputs(void **state)
{
    (void)state;
    uint8_t *d = dev_alloc(256), *s = dev_alloc(256);
    uint8_t pattern[256], got[256];
    for (int i = 0; i < 256; i++)
        pattern[i] = (uint8_t)(i * 7 + 3);
    h2d(d, pattern, 256);
    h2d(s, pattern, 256);
    void *reserve = &got;
    uint8_t host[64];
    void *pinned = NULL;
    ACL_OK(aclrtMallocHost(&pinned, 64));

    /* API layer (100000), in CANN's order */
    ACL_ERR(aclrtReduceAsync(NULL, s, 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_INVALID_PARAM, "dst is NULL");
    ACL_ERR(aclrtReduceAsync(d, NULL, 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_INVALID_PARAM, "src is NULL");
    ACL_ERR(aclrtReduceAsync(d, s, 16, SUM, ACL_FLOAT, NULL, reserve), ACL_ERROR_INVALID_PARAM, "reserve");
    ACL_ERR(aclrtReduceAsync(d, s, 16, SUM, ACL_INT64, NULL, NULL), ACL_ERROR_INVALID_PARAM, "type 9");
    ACL_ERR(aclrtReduceAsync(d, s, 16, SUM, ACL_DOUBLE, NULL, NULL), ACL_ERROR_INVALID_PARAM, "type 11");
    ACL_ERR(aclrtReduceAsync(d, s, 0, (aclrtReduceKind)99, ACL_INT64, NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "type 9"); /* the type is checked before count and kind */
    /* runtime layer (107000) */
    ACL_ERR(aclrtReduceAsync(d, s, 0, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, "count is 0");
    ACL_ERR(aclrtReduceAsync(d, s, 16, (aclrtReduceKind)14, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "kind 14");
    ACL_ERR(aclrtReduceAsync(d, s, 16, (aclrtReduceKind)9, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "kind 9");
    ACL_ERR(aclrtReduceAsync(d, s, ((uint64_t)4 << 30) + 4, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "4 GiB");
    /* MAX has no 4 GiB limit: the same count fails on the memory check */
    ACL_ERR(aclrtReduceAsync(d, s, ((uint64_t)4 << 30) + 4, MAX, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "run past the end");
    /* capabilities of Ascend910B3 (207000) */
    ACL_ERR(aclrtReduceAsync(d, s, 16, SUM, ACL_UINT8, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM with ACL_UINT8 is not supported on Ascend910B3");
    ACL_ERR(aclrtReduceAsync(d, s, 16, MAX, ACL_UINT32, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "not supported on Ascend910B3");
    ACL_ERR(aclrtReduceAsync(d, s, 16, SUM, ACL_INT4, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "not supported on Ascend910B3");
    ACL_ERR(aclrtReduceAsync(d + 1, s, 16, SUM, ACL_UINT16, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "not supported"); /* before the alignment check */
    /* alignment (107008) */
    ACL_ERR(aclrtReduceAsync(d + 1, s, 16, SUM, ACL_FLOAT16, NULL, NULL), ACL_ERROR_RT_ADDR_UNALIGNED,
            "dst 0x");
    ACL_ERR(aclrtReduceAsync(d, s + 1, 16, MIN, ACL_BF16, NULL, NULL), ACL_ERROR_RT_ADDR_UNALIGNED,
            "not aligned to the 2-byte elements of ACL_BF16");
    ACL_ERR(aclrtReduceAsync(d + 2, s, 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_ADDR_UNALIGNED,
            "4-byte elements of ACL_FLOAT");
    ACL_ERR(aclrtReduceAsync(d, s + 2, 16, EQUAL, ACL_INT32, NULL, NULL), ACL_ERROR_RT_ADDR_UNALIGNED, "src");
    ACL_OK(aclrtReduceAsync(d + 1, s + 3, 16, SUM, ACL_INT8, NULL, NULL)); /* bytes need no alignment */
    ACL_OK(aclrtSynchronizeStream(NULL));
    d2h(got, d, 256);
    for (int i = 0; i < 256; i++) {
        const int8_t want = i >= 1 && i < 17 ? (int8_t)(uint8_t)(pattern[i] + pattern[i + 2]) : (int8_t)pattern[i];
        assert_int_equal((int8_t)got[i], want);
    }
    h2d(d, pattern, 256);
    /* memory the device cannot use (107000) */
    ACL_ERR(aclrtReduceAsync(host, s, 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "dst 0x");
    ACL_ERR(aclrtReduceAsync(d, pinned, 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "is not device memory");
    ACL_ERR(aclrtReduceAsync(d + 128, s, 1024, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "run past the end");
    /* streams: destroyed (107017), of another context (107003), no context (107002) */
    aclrtStream dead;
    ACL_OK(aclrtCreateStream(&dead));
    ACL_OK(aclrtDestroyStream(dead));
    ACL_ERR(aclrtReduceAsync(d, s, 16, SUM, ACL_FLOAT, dead, NULL), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    aclrtContext mine, other;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream foreign;
    ACL_OK(aclrtCreateStream(&foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtReduceAsync(d, s, 16, SUM, ACL_FLOAT, foreign, NULL), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    void *ptrs[2] = {d, s};
    oacl_test_run_thread(no_context_call, ptrs);

    ACL_OK(aclrtSynchronizeDevice());
    d2h(got, d, 256);
    assert_memory_equal(got, pattern, 256);
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtDestroyStream(foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtFreeHost(pinned));
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtFree(s));
}

/* Memory of another device is reachable once peer access is enabled. */
static void test_peer_memory(void **state)
{
    (void)state;
    uint32_t ndev = 0;
    ACL_OK(aclrtGetDeviceCount(&ndev));
    if (ndev < 2)
        skip();
    ACL_OK(aclrtSetDevice(1));
    float *remote = dev_alloc(64);
    const float rv[2] = {5, 6};
    h2d(remote, rv, 8);
    ACL_OK(aclrtSetDevice(0));
    float *local = dev_alloc(64);
    const float lv[2] = {1, 2};
    h2d(local, lv, 8);
    ACL_ERR(aclrtReduceAsync(local, remote, 8, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtDeviceEnablePeerAccess(1, 0)");
    ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ACL_OK(aclrtReduceAsync(local, remote, 8, SUM, ACL_FLOAT, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    float got[2];
    d2h(got, local, 8);
    assert_true(got[0] == 6 && got[1] == 8);
    ACL_OK(aclrtFree(local));
    ACL_OK(aclrtFree(remote));
}

/* ---- SoC profiles (child processes) --------------------------------------------- */

/* §3.10's table, written out independently of the library's. */
static bool table_supports(const char *family, aclrtReduceKind k, aclDataType t)
{
    const bool a2 = t == ACL_INT8 || t == ACL_INT16 || t == ACL_INT32 || t == ACL_FLOAT16 || t == ACL_FLOAT ||
                    t == ACL_BF16;
    if (!strcmp(family, "A2") || !strcmp(family, "A3"))
        return a2;
    if (!strcmp(family, "950"))
        return a2 || t == ACL_UINT32;
    if (!strcmp(family, "310B"))
        return k != EQUAL && a2 && t != ACL_BF16;
    if (!strcmp(family, "310P"))
        return k == SUM && (t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_INT16);
    return k == SUM && t == ACL_FLOAT; /* 910 */
}

/* 1 OP 2 for every type the capability table names: SUM 3, MAX 2, MIN 1,
 * EQUAL 2 (bit patterns, little-endian). */
struct typed_values {
    aclDataType type;
    uint32_t one, two, three;
};

static void child_profile(void)
{
    const char *family = getenv("OACL_TEST_FAMILY");
    const char *soc = getenv("OACL_SOC");
    CHILD_CHECK(family && soc);
    CHILD_OK(aclrtSetDevice(0));
    const struct typed_values vals[] = {
        {ACL_INT8, 1, 2, 3},          {ACL_INT16, 1, 2, 3},       {ACL_INT32, 1, 2, 3},
        {ACL_UINT32, 1, 2, 3},        {ACL_FLOAT16, 0x3C00, 0x4000, 0x4200},
        {ACL_BF16, 0x3F80, 0x4000, 0x4040},
        {ACL_FLOAT, 0x3F800000, 0x40000000, 0x40400000},
        {ACL_UINT8, 1, 2, 3},         {ACL_UINT16, 1, 2, 3},      {ACL_INT4, 0x21, 0x21, 0x42},
    };
    uint8_t *d = NULL, *s = NULL;
    CHILD_OK(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMalloc((void **)&s, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    unsigned supported = 0;
    for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
        for (aclrtReduceKind k = SUM; k <= EQUAL; k++) {
            const struct typed_values *v = &vals[i];
            CHILD_OK(aclrtMemcpy(d, 4, &v->one, 4, ACL_MEMCPY_HOST_TO_DEVICE));
            CHILD_OK(aclrtMemcpy(s, 4, &v->two, 4, ACL_MEMCPY_HOST_TO_DEVICE));
            const uint64_t count = v->type == ACL_INT8 || v->type == ACL_UINT8 || v->type == ACL_INT4 ? 1
                                   : v->type == ACL_INT16 || v->type == ACL_UINT16 || v->type == ACL_FLOAT16 ||
                                           v->type == ACL_BF16
                                       ? 2
                                       : 4;
            if (!table_supports(family, k, v->type)) {
                char needle[96];
                snprintf(needle, sizeof(needle), "is not supported on %s", soc);
                CHILD_ERR(aclrtReduceAsync(d, s, count, k, v->type, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                          needle);
                uint32_t back = 0;
                CHILD_OK(aclrtMemcpy(&back, 4, d, 4, ACL_MEMCPY_DEVICE_TO_HOST));
                CHILD_CHECK_INT(back, v->one);
                continue;
            }
            supported++;
            CHILD_OK(aclrtReduceAsync(d, s, count, k, v->type, NULL, NULL));
            CHILD_OK(aclrtSynchronizeStream(NULL));
            uint32_t back = 0;
            CHILD_OK(aclrtMemcpy(&back, count, d, count, ACL_MEMCPY_DEVICE_TO_HOST));
            const uint32_t want = k == SUM ? v->three : k == MIN ? v->one : v->two;
            CHILD_CHECK_INT(back, want);
        }
    }
    const char *expect = getenv("OACL_TEST_SUPPORTED");
    CHILD_CHECK(expect != NULL);
    CHILD_CHECK_INT(supported, atoi(expect));
    CHILD_OK(aclrtFree(d));
    CHILD_OK(aclrtFree(s));
    CHILD_OK(aclrtResetDevice(0));
}

static const struct oacl_child_mode g_modes[] = {{"profile", child_profile}};

static void test_profiles(void **state)
{
    (void)state;
    /* Supported kind x type pairs per family: A2/A3 4 x 6, 950 4 x 7,
       310B 3 x 5, 310P 1 x 3, 910 1 x 1. */
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend910B1", "OACL_TEST_FAMILY=A2", "OACL_TEST_SUPPORTED=24");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend910_9391", "OACL_TEST_FAMILY=A3", "OACL_TEST_SUPPORTED=24");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend950PR_9579", "OACL_TEST_FAMILY=950", "OACL_TEST_SUPPORTED=28");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend310B1", "OACL_TEST_FAMILY=310B", "OACL_TEST_SUPPORTED=15");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend310P3", "OACL_TEST_FAMILY=310P", "OACL_TEST_SUPPORTED=3");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend910A", "OACL_TEST_FAMILY=910", "OACL_TEST_SUPPORTED=1");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend910PremiumA", "OACL_TEST_FAMILY=910", "OACL_TEST_SUPPORTED=1");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof(g_modes) / sizeof(g_modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_kind_and_type, setup, teardown),
        cmocka_unit_test_setup_teardown(test_large, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edge_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_aliasing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trailing_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stream_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_inputs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_peer_memory, setup, teardown),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
