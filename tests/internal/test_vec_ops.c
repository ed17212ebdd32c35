/*
 * White-box tests of the vector primitives (src/device/cpu/vec_ops*.c) and
 * of the scalar binary16 conversions (src/common/fp16.h).
 *
 * References are written independently of the implementation: half values
 * are decoded with ldexp() arithmetic, rounding to half is done on exact
 * doubles with nearbyint() (ties to even), and where the compiler has
 * _Float16 the libgcc/compiler-rt conversion is a second opinion. Every
 * vector test runs on every implementation the build and CPU offer (scalar,
 * AVX2/F16C), forced through oacl_vec_select_isa().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fp16.h"
#include "device/cpu/vec_ops_impl.h"
#include "oacl/kernel_abi.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <cpuid.h>
#endif

#if defined(__FLT16_MAX__) && (defined(__x86_64__) || defined(__aarch64__))
#define HAVE_FLOAT16 1
#else
#define HAVE_FLOAT16 0
#endif

/* ---- helpers ----------------------------------------------------------------- */

/* splitmix64: small, deterministic, good enough to scatter test inputs. */
static uint64_t g_rng = 0x6F61636C76656331ull;

static uint64_t rnd64(void)
{
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rnd32(void)
{
    return (uint32_t)(rnd64() >> 32);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    assert_non_null(p);
    return p;
}

static void *xaligned(size_t n)
{
    void *p = aligned_alloc(64, (n + 63) & ~(size_t)63);
    assert_non_null(p);
    return p;
}

/* Counts failures and prints the first few; tests assert the count is 0. */
static unsigned g_fail;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
    if (g_fail++ < 12) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
}

#define EXPECT_NO_FAILURES()                                                                        \
    do {                                                                                           \
        if (g_fail)                                                                                \
            fail_msg("%u mismatches (first ones printed above)", g_fail);                          \
    } while (0)

/* ---- implementations under test -------------------------------------------- */

static const enum oacl_vec_isa k_isas[] = {OACL_VEC_ISA_SCALAR, OACL_VEC_ISA_AVX2};
#define NUM_ISAS (sizeof k_isas / sizeof k_isas[0])

static const char *isa_name(enum oacl_vec_isa isa)
{
    return isa == OACL_VEC_ISA_SCALAR ? "scalar" : isa == OACL_VEC_ISA_AVX2 ? "avx2" : "auto";
}

static int cpu_has_avx2_f16c(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    unsigned eax, ebx, ecx, edx;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) &&
           (ecx & bit_F16C) != 0;
#else
    return 0;
#endif
}

/* Selects an implementation; false when this build/CPU lacks it. On x86 a
   capable CPU must get the AVX2 path (else the build lost its SIMD code). */
static bool use_isa(enum oacl_vec_isa isa)
{
    const int ok = oacl_vec_select_isa(isa);
    if (isa == OACL_VEC_ISA_AVX2) {
#if defined(__x86_64__) || defined(__i386__)
        assert_int_equal(ok, cpu_has_avx2_f16c());
#endif
    } else {
        assert_int_equal(ok, 1);
    }
    if (ok)
        assert_int_equal(oacl_vec_active_isa(), isa);
    else
        print_message("    (%s path not available here, skipped)\n", isa_name(isa));
    return ok != 0;
}

/* ---- independent references -------------------------------------------------- */

static bool ref_is_nan16(uint16_t h)
{
    return ((h >> 10) & 0x1F) == 0x1F && (h & 0x3FF) != 0;
}

/* Exact value of a non-NaN half, by arithmetic on its fields. */
static double ref_half_value(uint16_t h)
{
    const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v;
    if (e == 0x1F)
        v = INFINITY;
    else if (e == 0)
        v = ldexp(m, -24);       /* subnormal: m * 2^-24 */
    else
        v = ldexp(1024 + m, e - 25); /* (1 + m/1024) * 2^(e-15) */
    return (h & 0x8000) ? -v : v;
}

/*
 * Half nearest to the exact double x (ties to even), as bits; x not NaN.
 * Scale by the spacing of halves around |x| so that the candidates become
 * consecutive integers, let nearbyint() (default mode: ties to even) pick
 * one, then encode the exact result with frexp().
 */
static uint16_t ref_encode_half(double x)
{
    const uint16_t sign = signbit(x) ? 0x8000 : 0;
    const double ax = fabs(x);
    double q, r;
    int e;

    if (ax >= 65520.0) /* includes inf: at/above the midpoint 65504 | 65536 */
        return sign | 0x7C00;
    if (ax < 0x1p-14) {
        q = 0x1p-24; /* subnormal spacing */
    } else {
        (void)frexp(ax, &e); /* ax in [2^(e-1), 2^e) */
        q = ldexp(1.0, e - 1 - 10);
    }
    r = nearbyint(ax / q) * q;
    if (r < 0x1p-14)
        return sign | (uint16_t)(r * 0x1p24);
    {
        const double f = frexp(r, &e); /* r = f * 2^e, f in [0.5, 1) */
        const unsigned mant = (unsigned)(f * 2048.0) - 1024u;
        return (uint16_t)(sign | (unsigned)(e - 1 + 15) << 10 | mant);
    }
}

/* The documented NaN rule for float -> half: sign, quiet bit, payload
   bits 21..13 of the float. */
static uint16_t ref_nan_f32_to_f16(uint32_t x)
{
    return (uint16_t)(((x >> 16) & 0x8000u) | 0x7E00u | ((x >> 13) & 0x1FFu));
}

static uint16_t ref_f32_to_f16(float x)
{
    if (isnan(x))
        return ref_nan_f32_to_f16(fbits(x));
    return ref_encode_half((double)x);
}

/* Expected float bits of a half: exact value, or the quieted NaN with the
   9 payload bits at the top of the float payload. */
static uint32_t ref_f16_to_f32_bits(uint16_t h)
{
    if (ref_is_nan16(h))
        return ((uint32_t)(h & 0x8000u) << 16) | 0x7FC00000u | ((uint32_t)(h & 0x3FFu) << 13);
    return fbits((float)ref_half_value(h));
}

/* Half addition rounded once from the exact double sum (a double holds any
   sum of two halves exactly: 2^-24 .. 2^17 needs 42 bits). NaN rule as
   documented in vec_ops_impl.h. */
static uint16_t ref_add_f16(uint16_t a, uint16_t b)
{
    double s;
    if (ref_is_nan16(a))
        return a | 0x0200;
    if (ref_is_nan16(b))
        return b | 0x0200;
    s = ref_half_value(a) + ref_half_value(b);
    if (isnan(s))
        return 0x7E00; /* inf + -inf */
    return ref_encode_half(s);
}

#if HAVE_FLOAT16
/* A second, unrelated opinion: the compiler's own float -> _Float16. The
   test is built without -mf16c, so on x86-64 GCC this is libgcc's soft-fp
   __truncsfhf2. */
static uint16_t cast_f32_to_f16(float x)
{
    volatile float vx = x; /* keep it a run-time conversion */
    _Float16 h = (_Float16)vx;
    uint16_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}
#endif

/* ---- the reference itself, on hand-checked values ---------------------------- */

static void test_reference_sanity(void **state)
{
    (void)state;
    assert_true(ref_half_value(0x3C00) == 1.0);
    assert_true(ref_half_value(0x7BFF) == 65504.0);
    assert_true(ref_half_value(0x0001) == 0x1p-24);
    assert_true(ref_half_value(0x0400) == 0x1p-14);
    assert_true(ref_half_value(0xC000) == -2.0);
    assert_true(signbit(ref_half_value(0x8000)));
    assert_int_equal(ref_encode_half(1.0), 0x3C00);
    assert_int_equal(ref_encode_half(-2.0), 0xC000);
    assert_int_equal(ref_encode_half(65504.0), 0x7BFF);
    assert_int_equal(ref_encode_half(65519.99), 0x7BFF);
    assert_int_equal(ref_encode_half(65520.0), 0x7C00);
    assert_int_equal(ref_encode_half(0x1p-25), 0x0000);
    assert_int_equal(ref_encode_half(0x1.0000001p-25), 0x0001);
    assert_int_equal(ref_encode_half(0x3p-25), 0x0002);        /* 1.5 ulp: tie -> even 2 */
    assert_int_equal(ref_encode_half(0x5p-25), 0x0002);        /* 2.5 ulp: tie -> even 2 */
    assert_int_equal(ref_encode_half(0x7FFp-24 / 2), 0x0400);  /* 1023.5 ulp -> 2^-14 */
    assert_int_equal(ref_encode_half(1.0 + 0x1p-11), 0x3C00);   /* tie -> even */
    assert_int_equal(ref_encode_half(1.0 + 0x3p-11), 0x3C02);   /* tie -> even */
    assert_int_equal(ref_encode_half(-0.0), 0x8000);
    assert_int_equal(ref_encode_half(3.14159265), 0x4248);
#if HAVE_FLOAT16
    assert_int_equal(cast_f32_to_f16(3.14159265f), 0x4248);
#endif
}

/* ---- dispatch ------------------------------------------------------------------- */

#define THREAD_N 1000

static void *first_use_thread(void *arg)
{
    int32_t a[THREAD_N], b[THREAD_N], d[THREAD_N];
    const int32_t base = *(const int32_t *)arg;
    for (int i = 0; i < THREAD_N; i++) {
        a[i] = base + i;
        b[i] = 2 * i;
    }
    oacl_vadd_i32(d, a, b, THREAD_N);
    for (int i = 0; i < THREAD_N; i++)
        if (d[i] != base + 3 * i)
            return (void *)1;
    return NULL;
}

/* Must run first: several threads race to resolve the dispatch table. */
static void test_dispatch_first_use_threads(void **state)
{
    static const int32_t bases[4] = {0, 100000, -100000, 123456789};
    pthread_t t[4];
    (void)state;
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, first_use_thread, (void *)&bases[i]), 0);
    for (int i = 0; i < 4; i++) {
        void *ret;
        assert_int_equal(pthread_join(t[i], &ret), 0);
        assert_null(ret);
    }
    /* The automatic choice is the best the CPU supports. */
    assert_int_equal(oacl_vec_active_isa(),
                     cpu_has_avx2_f16c() ? OACL_VEC_ISA_AVX2 : OACL_VEC_ISA_SCALAR);
}

static void test_dispatch_select(void **state)
{
    (void)state;
    assert_int_equal(oacl_vec_select_isa(OACL_VEC_ISA_SCALAR), 1);
    assert_int_equal(oacl_vec_active_isa(), OACL_VEC_ISA_SCALAR);
    /* Unknown ISA: refused, selection unchanged. */
    assert_int_equal(oacl_vec_select_isa((enum oacl_vec_isa)99), 0);
    assert_int_equal(oacl_vec_active_isa(), OACL_VEC_ISA_SCALAR);
    (void)use_isa(OACL_VEC_ISA_AVX2);
    assert_int_equal(oacl_vec_select_isa(OACL_VEC_ISA_AUTO), 1);
    assert_int_equal(oacl_vec_active_isa(),
                     cpu_has_avx2_f16c() ? OACL_VEC_ISA_AVX2 : OACL_VEC_ISA_SCALAR);
}

/* n == 0 touches nothing, not even the pointers. */
static void test_zero_length_null(void **state)
{
    (void)state;
    for (size_t k = 0; k < NUM_ISAS; k++) {
        if (!use_isa(k_isas[k]))
            continue;
        oacl_vadd_f16(NULL, NULL, NULL, 0);
        oacl_vadd_f32(NULL, NULL, NULL, 0);
        oacl_vadd_i32(NULL, NULL, NULL, 0);
        oacl_vadd_i16(NULL, NULL, NULL, 0);
        oacl_cvt_f16_to_f32(NULL, NULL, 0);
        oacl_cvt_f32_to_f16(NULL, NULL, 0);
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
}

/* ---- half -> float --------------------------------------------------------------- */

static void test_f16_to_f32_exhaustive(void **state)
{
    uint16_t *src = xmalloc(65536 * sizeof *src);
    float *dst = xmalloc(65536 * sizeof *dst);
    (void)state;
    g_fail = 0;

    for (uint32_t h = 0; h < 65536; h++) {
        const uint32_t want = ref_f16_to_f32_bits((uint16_t)h);
        const float got = oacl_f16_to_f32((uint16_t)h);
        src[h] = (uint16_t)h;
        if (fbits(got) != want)
            failf("oacl_f16_to_f32(0x%04X) = 0x%08X, want 0x%08X", h, fbits(got), want);
        if (isnan(got) != ref_is_nan16((uint16_t)h))
            failf("oacl_f16_to_f32(0x%04X): NaN-ness wrong", h);
    }
    for (size_t k = 0; k < NUM_ISAS; k++) {
        if (!use_isa(k_isas[k]))
            continue;
        memset(dst, 0xA5, 65536 * sizeof *dst);
        oacl_cvt_f16_to_f32(dst, src, 65536);
        for (uint32_t h = 0; h < 65536; h++)
            if (fbits(dst[h]) != ref_f16_to_f32_bits((uint16_t)h))
                failf("[%s] cvt_f16_to_f32 0x%04X -> 0x%08X, want 0x%08X", isa_name(k_isas[k]), h,
                      fbits(dst[h]), ref_f16_to_f32_bits((uint16_t)h));
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
    free(src);
    free(dst);
    EXPECT_NO_FAILURES();
}

/* ---- float -> half -------------------------------------------------------------- */

/* Checks x[0..n) through the scalar function, every bulk path and (where
   available) the compiler's conversion, all against ref_f32_to_f16. */
static void check_f32_to_f16(const float *x, size_t n, const char *what)
{
    uint16_t *want = xmalloc(n * sizeof *want);
    uint16_t *got = xmalloc(n * sizeof *got);

    for (size_t i = 0; i < n; i++) {
        uint16_t h;
        want[i] = ref_f32_to_f16(x[i]);
        h = oacl_f32_to_f16(x[i]);
        if (h != want[i])
            failf("%s: oacl_f32_to_f16(%a = 0x%08X) = 0x%04X, want 0x%04X", what, (double)x[i],
                  fbits(x[i]), h, want[i]);
#if HAVE_FLOAT16
        /* NaN payload handling is implementation-specific in the compiler
           runtime; compare NaN-ness there, exact bits otherwise. */
        h = cast_f32_to_f16(x[i]);
        if (isnan(x[i]) ? !ref_is_nan16(h) : h != want[i])
            failf("%s: reference disagrees with (_Float16)%a: 0x%04X vs 0x%04X", what,
                  (double)x[i], want[i], h);
#endif
    }
    for (size_t k = 0; k < NUM_ISAS; k++) {
        if (!use_isa(k_isas[k]))
            continue;
        memset(got, 0xA5, n * sizeof *got);
        oacl_cvt_f32_to_f16(got, x, n);
        for (size_t i = 0; i < n; i++)
            if (got[i] != want[i])
                failf("%s [%s]: cvt_f32_to_f16(%a = 0x%08X) = 0x%04X, want 0x%04X", what,
                      isa_name(k_isas[k]), (double)x[i], fbits(x[i]), got[i], want[i]);
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
    free(want);
    free(got);
}

static float step_floats(float x, int k)
{
    for (; k > 0; k--)
        x = nextafterf(x, INFINITY);
    for (; k < 0; k++)
        x = nextafterf(x, -INFINITY);
    return x;
}

/*
 * Every finite half value and every midpoint between neighbours (including
 * 65520, the midpoint to the overflow), each with its float neighbours up
 * to 2 float ulps away on both sides and with both signs: exact values,
 * exact ties, and the floats just either side of each tie, across the
 * subnormal, normal and overflow boundaries (635k floats). Every float
 * within one *half* ulp of these points would be ~10^9 values, nearly all
 * of the half range; the random tests below sample that interior.
 */
static void test_f32_to_f16_boundaries(void **state)
{
    const size_t cap = (size_t)0x7C00 * 2 * 5 * 2;
    float *x = xmalloc(cap * sizeof *x);
    size_t n = 0;
    (void)state;
    g_fail = 0;

    for (uint32_t h = 0; h < 0x7C00; h++) {
        const double lo = ref_half_value((uint16_t)h);
        const double hi = h == 0x7BFF ? 65536.0 : ref_half_value((uint16_t)(h + 1));
        const float pts[2] = {(float)lo, (float)((lo + hi) / 2)}; /* both exact floats */
        assert_true((double)pts[1] == (lo + hi) / 2);
        for (int p = 0; p < 2; p++)
            for (int k = -2; k <= 2; k++) {
                const float v = step_floats(pts[p], k);
                x[n++] = v;
                x[n++] = -v;
            }
    }
    assert_int_equal(n, cap);
    check_f32_to_f16(x, n, "boundaries");
    free(x);
    EXPECT_NO_FAILURES();
}

static void test_f32_to_f16_specials(void **state)
{
    static const uint32_t pats[] = {
        0x00000000, 0x80000000,                         /* ±0 */
        0x00000001, 0x807FFFFF, 0x00800000,             /* float subnormals, FLT_MIN */
        0x7F800000, 0xFF800000,                         /* ±inf */
        0x7F7FFFFF, 0xFF7FFFFF,                         /* ±FLT_MAX */
        0x477FE000, 0x477FEFFF, 0x477FF000, 0x477FF001, /* 65504 .. 65520 .. */
        0x47800000, 0xC77FF000, 0x4F800000,             /* 65536, -65520, 2^32 */
        0x33000000, 0x33000001, 0x32FFFFFF,             /* 2^-25 and neighbours */
        0x387FC000, 0x387FE000, 0x387FFFFF, 0x38800000, /* around 2^-14 */
        0x7FC00000, 0xFFC00000,                         /* default quiet NaNs */
        0x7F800001, 0xFF800001,                         /* signalling, payload in low bits */
        0x7FBFFFFF, 0x7FFFFFFF, 0xFFFFFFFF,             /* all-ones payloads */
        0x7F802000, 0x7FA00000, 0x7FC02000, 0xFFD55555, /* payloads that survive */
        0x7F801FFF,                                     /* signalling, payload all dropped */
    };
    float x[sizeof pats / sizeof pats[0] + 64];
    size_t n = 0;
    (void)state;
    g_fail = 0;

    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++)
        x[n++] = bitsf(pats[i]);
    for (int i = 0; i < 64; i++) /* random NaNs */
        x[n++] = bitsf((rnd32() & 0x807FFFFFu) | 0x7F800001u);
    check_f32_to_f16(x, n, "specials");

    /* Spot values straight from the NaN/overflow rules. */
    assert_int_equal(oacl_f32_to_f16(bitsf(0x7F800001)), 0x7E00);
    assert_int_equal(oacl_f32_to_f16(bitsf(0xFF802000)), 0xFE01);
    assert_int_equal(oacl_f32_to_f16(bitsf(0x7FFFFFFF)), 0x7FFF);
    assert_int_equal(oacl_f32_to_f16(65520.0f), 0x7C00);
    assert_int_equal(oacl_f32_to_f16(-65519.996f), 0xFBFF);
    assert_int_equal(oacl_f32_to_f16(-0.0f), 0x8000);
    EXPECT_NO_FAILURES();
}

/* Random bit patterns: uniform ones (mostly far outside half range) and
   ones with the exponent around the half range. */
static void test_f32_to_f16_random(void **state)
{
    const size_t n = (size_t)1 << 20;
    float *x = xmalloc(n * sizeof *x);
    (void)state;
    g_fail = 0;

    for (size_t i = 0; i < n; i++)
        x[i] = bitsf(rnd32());
    check_f32_to_f16(x, n, "random-uniform");
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < n; i++) {
            const uint32_t e = 98 + (uint32_t)(rnd32() % 48); /* 2^-29 .. 2^18 */
            x[i] = bitsf((rnd32() & 0x807FFFFFu) | (e << 23));
        }
        check_f32_to_f16(x, n, "random-half-range");
    }
    free(x);
    EXPECT_NO_FAILURES();
}

/* ---- half addition ---------------------------------------------------------------- */

struct add_case {
    uint16_t a, b, want;
};

static const struct add_case k_add_cases[] = {
    {0x3C00, 0x4000, 0x4200}, /* 1 + 2 = 3 (the seed kernel) */
    {0x6800, 0x3C00, 0x6800}, /* 2048 + 1: tie, to even (down) */
    {0x6801, 0x3C00, 0x6802}, /* 2050 + 1: tie, to even (up) */
    {0x3C00, 0x1000, 0x3C00}, /* 1 + 2^-11: tie, down */
    {0x3C01, 0x1000, 0x3C02}, /* (1 + 2^-10) + 2^-11: tie, up */
    {0x3C00, 0x1001, 0x3C01}, /* just above the tie */
    {0x3C00, 0x0FFF, 0x3C00}, /* just below the tie */
    {0xBC00, 0x9001, 0xBC01}, /* negative, just above the tie in magnitude */
    {0x7BFF, 0x5000, 0x7C00}, /* 65504 + 32 -> inf */
    {0x7BFF, 0x4B80, 0x7BFF}, /* 65504 + 15 = 65519 -> 65504 */
    {0x7BFF, 0x4C00, 0x7C00}, /* 65504 + 16 = 65520: tie -> inf */
    {0xFBFF, 0xCC00, 0xFC00}, /* -65520 -> -inf */
    {0x7BFF, 0x0001, 0x7BFF}, /* huge + tiny */
    {0x7C00, 0x3C00, 0x7C00}, /* inf + 1 */
    {0x7C00, 0x7C00, 0x7C00}, /* inf + inf */
    {0xFC00, 0xFC00, 0xFC00}, /* -inf + -inf */
    {0x7C00, 0xFC00, 0x7E00}, /* inf + -inf -> default NaN */
    {0xFC00, 0x7C00, 0x7E00},
    {0x0001, 0x0001, 0x0002}, /* subnormals */
    {0x03FF, 0x0001, 0x0400}, /* largest subnormal + min -> smallest normal */
    {0x0200, 0x0200, 0x0400},
    {0x0400, 0x0001, 0x0401},
    {0x8400, 0x0001, 0x83FF}, /* -2^-14 + 2^-24 -> subnormal */
    {0x8001, 0x0001, 0x0000}, /* x + -x = +0 */
    {0x3C00, 0xBC00, 0x0000},
    {0x8000, 0x8000, 0x8000}, /* -0 + -0 = -0 */
    {0x0000, 0x8000, 0x0000}, /* 0 + -0 = +0 */
    {0x8000, 0x0000, 0x0000},
    {0x8000, 0x3C00, 0x3C00},
    {0x7E00, 0x3C00, 0x7E00}, /* NaN operands: first NaN wins, quieted */
    {0x3C00, 0xFE01, 0xFE01},
    {0x7C01, 0x3C00, 0x7E01}, /* signalling NaN comes out quiet */
    {0x3C00, 0x7D55, 0x7F55},
    {0x7D00, 0xFE11, 0x7F00},
    {0xFE11, 0x7D00, 0xFE11},
    {0x7C00, 0xFFFF, 0xFFFF}, /* inf + NaN */
    {0xFC01, 0x7C00, 0xFE01},
};
#define NUM_ADD_CASES (sizeof k_add_cases / sizeof k_add_cases[0])

/* Each case at several positions (vector lanes, tail) of arrays of several
   lengths, and against the reference too. */
static void test_vadd_f16_cases(void **state)
{
    enum { MAXN = NUM_ADD_CASES + 40 };
    uint16_t a[MAXN], b[MAXN], d[MAXN];
    (void)state;
    g_fail = 0;

    for (size_t c = 0; c < NUM_ADD_CASES; c++) {
        const struct add_case *t = &k_add_cases[c];
        if (ref_add_f16(t->a, t->b) != t->want)
            failf("reference: 0x%04X + 0x%04X = 0x%04X, table says 0x%04X", t->a, t->b,
                  ref_add_f16(t->a, t->b), t->want);
        if (oacl_f16_add(t->a, t->b) != t->want)
            failf("oacl_f16_add(0x%04X, 0x%04X) = 0x%04X, want 0x%04X", t->a, t->b,
                  oacl_f16_add(t->a, t->b), t->want);
    }
    for (size_t k = 0; k < NUM_ISAS; k++) {
        if (!use_isa(k_isas[k]))
            continue;
        for (size_t shift = 0; shift < 40; shift += 3) {
            const size_t n = NUM_ADD_CASES + shift;
            for (size_t i = 0; i < n; i++) { /* filler 1 + 1 around the cases */
                a[i] = b[i] = 0x3C00;
            }
            for (size_t c = 0; c < NUM_ADD_CASES; c++) {
                a[shift + c] = k_add_cases[c].a;
                b[shift + c] = k_add_cases[c].b;
            }
            memset(d, 0xA5, sizeof d);
            oacl_vadd_f16(d, a, b, n);
            for (size_t i = 0; i < n; i++) {
                const uint16_t want =
                    i >= shift ? k_add_cases[i - shift].want : (uint16_t)0x4000;
                if (d[i] != want)
                    failf("[%s] n=%zu: 0x%04X + 0x%04X = 0x%04X, want 0x%04X",
                          isa_name(k_isas[k]), n, a[i], b[i], d[i], want);
            }
            for (size_t i = n; i < MAXN; i++)
                if (d[i] != 0xA5A5)
                    failf("[%s] n=%zu: wrote past the end at %zu", isa_name(k_isas[k]), n, i);
        }
        /* n = 1 per case, in place. */
        for (size_t c = 0; c < NUM_ADD_CASES; c++) {
            uint16_t x = k_add_cases[c].a;
            oacl_vadd_f16(&x, &x, &k_add_cases[c].b, 1);
            if (x != k_add_cases[c].want)
                failf("[%s] in place n=1: 0x%04X + 0x%04X = 0x%04X", isa_name(k_isas[k]),
                      k_add_cases[c].a, k_add_cases[c].b, x);
        }
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
    EXPECT_NO_FAILURES();
}

static uint16_t rnd_finite_half_with_exp(int e)
{
    if (e < 0)
        e = 0;
    if (e > 30)
        e = 30;
    return (uint16_t)((rnd32() & 0x83FFu) | ((unsigned)e << 10));
}

static void check_vadd_f16_arrays(const uint16_t *a, const uint16_t *b, size_t n, const char *what)
{
    uint16_t *want = xmalloc(n * sizeof *want), *got = xmalloc(n * sizeof *got);
    for (size_t i = 0; i < n; i++)
        want[i] = ref_add_f16(a[i], b[i]);
    for (size_t k = 0; k < NUM_ISAS; k++) {
        if (!use_isa(k_isas[k]))
            continue;
        memset(got, 0xA5, n * sizeof *got);
        oacl_vadd_f16(got, a, b, n);
        for (size_t i = 0; i < n; i++)
            if (got[i] != want[i])
                failf("%s [%s]: 0x%04X + 0x%04X = 0x%04X, want 0x%04X", what, isa_name(k_isas[k]),
                      a[i], b[i], got[i], want[i]);
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
    free(want);
    free(got);
}

/*
 * Random pairs: uniform bit patterns (all classes, ~3% NaN), and pairs
 * with exponents at most 12 apart so that most sums need rounding (ties
 * included, by chance ~2^-d for an exponent gap d) or cancel.
 */
static void test_vadd_f16_random(void **state)
{
    const size_t n = (size_t)1 << 19;
    uint16_t *a = xmalloc(n * sizeof *a), *b = xmalloc(n * sizeof *b);
    (void)state;
    g_fail = 0;

    for (size_t i = 0; i < n; i++) {
        a[i] = (uint16_t)rnd32();
        b[i] = (uint16_t)rnd32();
    }
    check_vadd_f16_arrays(a, b, n, "uniform");
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < n; i++) {
            const int e = (int)(rnd32() % 31);
            a[i] = rnd_finite_half_with_exp(e);
            b[i] = rnd_finite_half_with_exp(e + (int)(rnd32() % 25) - 12);
        }
        check_vadd_f16_arrays(a, b, n, "close-exponents");
    }
    free(a);
    free(b);
    EXPECT_NO_FAILURES();
}

/*
 * Tile sizes (whole 16-lane steps up to 1024 halves, the kernel-side Add of
 * a UB tile): the AVX2 path's odd first step and its two-step turns, with a
 * NaN result placed in the first step, in the last, or nowhere.
 */
static void test_vadd_f16_tiles(void **state)
{
    static const size_t sizes[] = {16, 32, 48, 64, 80, 128, 496, 1008, 1024};
    uint16_t *a = xmalloc(1024 * sizeof *a), *b = xmalloc(1024 * sizeof *b);
    (void)state;
    g_fail = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const size_t n = sizes[s];
        for (int nan_at = -1; nan_at < 2; nan_at++) {
            for (size_t i = 0; i < n; i++) { /* finite: a NaN lane only where placed */
                a[i] = rnd_finite_half_with_exp((int)(rnd32() % 31));
                b[i] = rnd_finite_half_with_exp((int)(rnd32() % 31));
            }
            /* inf + -inf: the NaN rule's 0x7E00, where the float add gives
               x86's default NaN (0xFE00 as a half) */
            const size_t k = nan_at == 0 ? rnd32() % 16 : n - 1 - rnd32() % 16;
            if (nan_at == 0) { /* the first 32-byte step */
                a[k] = 0x7C00;
                b[k] = 0xFC00;
            } else if (nan_at == 1) { /* the last one */
                a[k] = 0xFC00;
                b[k] = 0x7C00;
            }
            check_vadd_f16_arrays(a, b, n, nan_at < 0 ? "tile" : "tile with a NaN");
        }
    }
    free(a);
    free(b);
    EXPECT_NO_FAILURES();
}

/* Every half plus each of a few interesting addends. */
static void test_vadd_f16_all_a(void **state)
{
    static const uint16_t addends[] = {0x0001, 0x8001, 0x3C00, 0xBC00, 0x7BFF, 0x1000, 0x0400, 0x7E00};
    uint16_t *a = xmalloc(65536 * sizeof *a), *b = xmalloc(65536 * sizeof *b);
    (void)state;
    g_fail = 0;
    for (size_t j = 0; j < sizeof addends / sizeof addends[0]; j++) {
        for (uint32_t h = 0; h < 65536; h++) {
            a[h] = (uint16_t)h;
            b[h] = addends[j];
        }
        check_vadd_f16_arrays(a, b, 65536, "all-a");
    }
    check_vadd_f16_arrays(a, a, 65536, "doubling"); /* x + x, same array */
    free(a);
    free(b);
    EXPECT_NO_FAILURES();
}

/* ---- lengths, alignment, aliasing, streaming stores: every primitive ------- */

struct op_desc {
    const char *name;
    size_t isz, osz; /* element sizes of the inputs and of dst */
    bool binary;
    void (*call)(void *d, const void *a, const void *b, size_t n);
    void (*gen)(void *p, size_t n); /* random inputs */
    bool (*ok)(const void *a, const void *b, const void *d); /* one element */
};

static void call_vadd_f16(void *d, const void *a, const void *b, size_t n)
{
    oacl_vadd_f16(d, a, b, n);
}
static void call_vadd_f32(void *d, const void *a, const void *b, size_t n)
{
    oacl_vadd_f32(d, a, b, n);
}
static void call_vadd_i32(void *d, const void *a, const void *b, size_t n)
{
    oacl_vadd_i32(d, a, b, n);
}
static void call_vadd_i16(void *d, const void *a, const void *b, size_t n)
{
    oacl_vadd_i16(d, a, b, n);
}
static void call_cvt_f16_f32(void *d, const void *a, const void *b, size_t n)
{
    (void)b;
    oacl_cvt_f16_to_f32(d, a, n);
}
static void call_cvt_f32_f16(void *d, const void *a, const void *b, size_t n)
{
    (void)b;
    oacl_cvt_f32_to_f16(d, a, n);
}

static void gen_f16(void *p, size_t n)
{
    static const uint16_t specials[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7BFF, 0x0001,
                                        0x83FF, 0x7E00, 0xFD01, 0x3C00, 0x4C00, 0x1000};
    uint16_t *h = p;
    for (size_t i = 0; i < n; i++) {
        const uint32_t r = rnd32();
        if ((r & 7) == 0)
            h[i] = specials[(r >> 3) % (sizeof specials / sizeof specials[0])];
        else if ((r & 7) == 1)
            h[i] = (uint16_t)(r >> 16);
        else /* exponents 12..20 collide often enough to round */
            h[i] = rnd_finite_half_with_exp(12 + (int)((r >> 3) % 9));
    }
}

static void gen_f32(void *p, size_t n)
{
    static const uint32_t specials[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000,
                                        0x7FC00000, 0x7F800001, 0x7F7FFFFF, 0x00000001,
                                        0x477FF000, 0x33000000, 0x387FFFFF, 0x3F800000};
    float *f = p;
    for (size_t i = 0; i < n; i++) {
        const uint32_t r = rnd32();
        if ((r & 7) == 0)
            f[i] = bitsf(specials[(r >> 3) % (sizeof specials / sizeof specials[0])]);
        else if ((r & 7) == 1)
            f[i] = bitsf(rnd32());
        else /* around the half range */
            f[i] = bitsf((rnd32() & 0x807FFFFFu) | ((100u + (r >> 3) % 46) << 23));
    }
}

static void gen_i32(void *p, size_t n)
{
    static const int32_t specials[] = {0, 1, -1, INT32_MAX, INT32_MIN, INT32_MAX - 1};
    int32_t *v = p;
    for (size_t i = 0; i < n; i++) {
        const uint32_t r = rnd32();
        v[i] = (r & 3) == 0 ? specials[(r >> 2) % 6] : (int32_t)rnd32();
    }
}

static void gen_i16(void *p, size_t n)
{
    static const int16_t specials[] = {0, 1, -1, INT16_MAX, INT16_MIN, INT16_MAX - 1};
    int16_t *v = p;
    for (size_t i = 0; i < n; i++) {
        const uint32_t r = rnd32();
        v[i] = (r & 3) == 0 ? specials[(r >> 2) % 6] : (int16_t)((int32_t)(r >> 16) - 32768);
    }
}

static bool ok_vadd_f16(const void *a, const void *b, const void *d)
{
    uint16_t x, y, z;
    memcpy(&x, a, 2);
    memcpy(&y, b, 2);
    memcpy(&z, d, 2);
    return z == ref_add_f16(x, y);
}

/* float + float rounded once from double: double has >= 2 * 24 + 2 bits,
   so this equals the correctly rounded float sum. */
static bool ok_vadd_f32(const void *a, const void *b, const void *d)
{
    float x, y, z, want;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    memcpy(&z, d, 4);
    want = (float)((double)x + (double)y);
    return isnan(want) ? isnan(z) : fbits(z) == fbits(want);
}

static bool ok_vadd_i32(const void *a, const void *b, const void *d)
{
    int32_t x, y, z;
    int64_t s;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    memcpy(&z, d, 4);
    s = (int64_t)x + y;
    if (s > INT32_MAX)
        s -= (int64_t)1 << 32;
    else if (s < INT32_MIN)
        s += (int64_t)1 << 32;
    return z == s;
}

static bool ok_vadd_i16(const void *a, const void *b, const void *d)
{
    int16_t x, y, z;
    int32_t s;
    memcpy(&x, a, 2);
    memcpy(&y, b, 2);
    memcpy(&z, d, 2);
    s = (int32_t)x + y;
    if (s > INT16_MAX)
        s -= 65536;
    else if (s < INT16_MIN)
        s += 65536;
    return z == s;
}

static bool ok_cvt_f16_f32(const void *a, const void *b, const void *d)
{
    uint16_t x;
    float z;
    (void)b;
    memcpy(&x, a, 2);
    memcpy(&z, d, 4);
    return fbits(z) == fbits(oacl_f16_to_f32(x));
}

static bool ok_cvt_f32_f16(const void *a, const void *b, const void *d)
{
    float x;
    uint16_t z;
    (void)b;
    memcpy(&x, a, 4);
    memcpy(&z, d, 2);
    return z == oacl_f32_to_f16(x);
}

static const struct op_desc k_ops[] = {
    {"vadd_f16", 2, 2, true, call_vadd_f16, gen_f16, ok_vadd_f16},
    {"vadd_f32", 4, 4, true, call_vadd_f32, gen_f32, ok_vadd_f32},
    {"vadd_i32", 4, 4, true, call_vadd_i32, gen_i32, ok_vadd_i32},
    {"vadd_i16", 2, 2, true, call_vadd_i16, gen_i16, ok_vadd_i16},
    {"cvt_f16_to_f32", 2, 4, false, call_cvt_f16_f32, gen_f16, ok_cvt_f16_f32},
    {"cvt_f32_to_f16", 4, 2, false, call_cvt_f32_f16, gen_f32, ok_cvt_f32_f16},
};
#define NUM_OPS (sizeof k_ops / sizeof k_ops[0])

enum alias { ALIAS_NONE, ALIAS_DST_A, ALIAS_DST_B, ALIAS_ALL };
static const char *const k_alias_names[] = {"separate", "dst==a", "dst==b", "dst==a==b"};

#define GUARD 32 /* elements of slack around every operand, checked untouched */

/* Operand buffers reused across cases: multi-MiB cases would otherwise
   spend most of their time faulting in fresh pages. */
static struct {
    unsigned char *p;
    size_t cap;
} g_scratch[6];

static unsigned char *scratch(int slot, size_t bytes)
{
    if (g_scratch[slot].cap < bytes) {
        free(g_scratch[slot].p);
        g_scratch[slot].p = xaligned(bytes);
        g_scratch[slot].cap = bytes;
    }
    return g_scratch[slot].p;
}

static int free_scratch(void **state)
{
    (void)state;
    for (int i = 0; i < 6; i++) {
        free(g_scratch[i].p);
        g_scratch[i].p = NULL;
        g_scratch[i].cap = 0;
    }
    return 0;
}

/*
 * One call of op on n elements at element offsets (doff, aoff, boff) from
 * 64-byte aligned buffers, with the given aliasing. Checks every result
 * element, that no byte outside dst[0..n) changed in any buffer, and that
 * streaming stores were used exactly when the threshold says so.
 */
static void run_case(const struct op_desc *op, enum oacl_vec_isa isa, size_t n, size_t doff,
                     size_t aoff, size_t boff, enum alias al)
{
    const size_t ecap = n + 2 * GUARD + 16;
    const size_t abytes = ecap * op->isz, dbytes = ecap * op->osz;
    unsigned char *A = scratch(0, abytes), *B = scratch(1, abytes), *D = scratch(2, dbytes);
    unsigned char *A0 = scratch(3, abytes), *B0 = scratch(4, abytes), *D0 = scratch(5, dbytes);
    unsigned char *pa = A + (GUARD + aoff) * op->isz;
    unsigned char *pb = B + (GUARD + boff) * op->isz;
    unsigned char *pd = D + (GUARD + doff) * op->osz;
    const unsigned char *oa, *ob;
    unsigned char *out = D;
    unsigned long nt_before;
    size_t nt_min;
    bool want_nt;

    op->gen(A, ecap);
    if (op->binary)
        op->gen(B, ecap);
    else
        memset(B, 0x5A, abytes); /* unused, but still checked untouched */
    memset(D, 0xA5, dbytes);
    switch (al) {
    case ALIAS_NONE:
        break;
    case ALIAS_DST_A:
        pd = pa;
        out = A;
        break;
    case ALIAS_DST_B:
        pd = pb;
        out = B;
        break;
    case ALIAS_ALL:
        pb = pa;
        pd = pa;
        out = A;
        break;
    }
    memcpy(A0, A, abytes);
    memcpy(B0, B, abytes);
    memcpy(D0, D, dbytes);
    oa = A0 + (pa - A);
    ob = al == ALIAS_ALL ? oa : B0 + (pb - B);

    nt_min = atomic_load(&oacl_vec_nt_min_bytes);
    want_nt = isa == OACL_VEC_ISA_AVX2 && n != 0 && n >= nt_min / op->osz;
    nt_before = atomic_load(&oacl_vec_nt_calls);

    op->call(pd, pa, op->binary ? pb : NULL, n);

    if ((atomic_load(&oacl_vec_nt_calls) != nt_before) != want_nt)
        failf("%s [%s] n=%zu: streaming stores %s, expected %s", op->name, isa_name(isa), n,
              want_nt ? "not used" : "used", want_nt ? "them" : "none");
    for (size_t i = 0; i < n; i++) {
        if (!op->ok(oa + i * op->isz, ob + i * op->isz, pd + i * op->osz)) {
            failf("%s [%s] n=%zu offs d%zu a%zu b%zu %s: wrong element %zu", op->name,
                  isa_name(isa), n, doff, aoff, boff, k_alias_names[al], i);
            break;
        }
    }
    {
        unsigned char *bufs[3] = {A, B, D};
        const unsigned char *copies[3] = {A0, B0, D0};
        const size_t sizes[3] = {abytes, abytes, dbytes};
        for (int k = 0; k < 3; k++) {
            size_t lo = sizes[k], hi = sizes[k]; /* output byte range in this buffer */
            if (bufs[k] == out) {
                lo = (size_t)(pd - out);
                hi = lo + n * op->osz;
            }
            if (memcmp(bufs[k], copies[k], lo) != 0 ||
                memcmp(bufs[k] + hi, copies[k] + hi, sizes[k] - hi) != 0)
                failf("%s [%s] n=%zu offs d%zu a%zu b%zu %s: bytes outside dst changed", op->name,
                      isa_name(isa), n, doff, aoff, boff, k_alias_names[al]);
        }
    }
}

static const size_t k_lengths[] = {0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1000};
static const size_t k_offsets[][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 2}, {5, 3, 7}, {15, 14, 13}, {8, 9, 1}};

static void run_matrix(void)
{
    for (size_t o = 0; o < NUM_OPS; o++) {
        const struct op_desc *op = &k_ops[o];
        for (size_t k = 0; k < NUM_ISAS; k++) {
            if (!use_isa(k_isas[k]))
                continue;
            for (size_t l = 0; l < sizeof k_lengths / sizeof k_lengths[0]; l++)
                for (size_t f = 0; f < sizeof k_offsets / sizeof k_offsets[0]; f++)
                    for (int al = 0; al <= (op->isz == op->osz && op->binary ? ALIAS_ALL : 0);
                         al++)
                        run_case(op, k_isas[k], k_lengths[l], k_offsets[f][0], k_offsets[f][1],
                                 k_offsets[f][2], (enum alias)al);
        }
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
}

/* Small lengths with the default threshold: ordinary stores only. */
static void test_ops_lengths_alignment(void **state)
{
    (void)state;
    g_fail = 0;
    assert_int_equal(atomic_load(&oacl_vec_nt_min_bytes), OACL_VEC_NT_MIN_BYTES_DEFAULT);
    run_matrix();
    EXPECT_NO_FAILURES();
}

/* The same matrix with a 64-byte threshold: the streaming path with every
   head-peel length and every tail length. */
static void test_ops_streaming_small_threshold(void **state)
{
    const size_t saved = atomic_load(&oacl_vec_nt_min_bytes);
    (void)state;
    g_fail = 0;
    atomic_store(&oacl_vec_nt_min_bytes, 64);
    run_matrix();
    atomic_store(&oacl_vec_nt_min_bytes, saved);
    EXPECT_NO_FAILURES();
}

/*
 * Real sizes just above the default threshold, with a dst that needs a
 * head peel to reach 32-byte alignment; binary ops in place (dst == a), the
 * case where streaming stores overwrite what was just loaded.
 */
static void test_ops_streaming_large(void **state)
{
    (void)state;
    g_fail = 0;
    assert_int_equal(atomic_load(&oacl_vec_nt_min_bytes), OACL_VEC_NT_MIN_BYTES_DEFAULT);
    for (size_t o = 0; o < NUM_OPS; o++) {
        const struct op_desc *op = &k_ops[o];
        const size_t n = OACL_VEC_NT_MIN_BYTES_DEFAULT / op->osz + 37;
        for (size_t k = 0; k < NUM_ISAS; k++) {
            if (!use_isa(k_isas[k]))
                continue;
            run_case(op, k_isas[k], n, 3, 3, 2, op->binary ? ALIAS_DST_A : ALIAS_NONE);
        }
    }
    /* One element under the threshold: no streaming. */
    if (use_isa(OACL_VEC_ISA_AVX2))
        run_case(&k_ops[2], OACL_VEC_ISA_AVX2, OACL_VEC_NT_MIN_BYTES_DEFAULT / 4 - 1, 0, 0, 0,
                 ALIAS_NONE);
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
    EXPECT_NO_FAILURES();
}

/* ---- integer wraparound ----------------------------------------------------------- */

static void test_integer_wrap(void **state)
{
    enum { N = 19 }; /* two vectors of i32 plus a tail; one i16 vector plus a tail */
    int32_t a32[N], b32[N], d32[N];
    int16_t a16[N], b16[N], d16[N];
    (void)state;

    for (size_t k = 0; k < NUM_ISAS; k++) {
        if (!use_isa(k_isas[k]))
            continue;
        for (size_t pos = 0; pos < N; pos += 3) {
            for (int i = 0; i < N; i++) {
                a32[i] = b32[i] = 0;
                a16[i] = b16[i] = 0;
            }
            a32[pos] = INT32_MAX;
            b32[pos] = 1;
            a32[(pos + 1) % N] = INT32_MIN;
            b32[(pos + 1) % N] = -1;
            a32[(pos + 2) % N] = INT32_MIN;
            b32[(pos + 2) % N] = INT32_MIN;
            a16[pos] = INT16_MAX;
            b16[pos] = 1;
            a16[(pos + 1) % N] = INT16_MIN;
            b16[(pos + 1) % N] = -1;
            a16[(pos + 2) % N] = INT16_MIN;
            b16[(pos + 2) % N] = INT16_MIN;
            oacl_vadd_i32(d32, a32, b32, N);
            oacl_vadd_i16(d16, a16, b16, N);
            assert_int_equal(d32[pos], INT32_MIN);
            assert_int_equal(d32[(pos + 1) % N], INT32_MAX);
            assert_int_equal(d32[(pos + 2) % N], 0);
            assert_int_equal(d16[pos], INT16_MIN);
            assert_int_equal(d16[(pos + 1) % N], INT16_MAX);
            assert_int_equal(d16[(pos + 2) % N], 0);
        }
    }
    oacl_vec_select_isa(OACL_VEC_ISA_AUTO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* first: the dispatch table must still be unresolved */
        cmocka_unit_test(test_dispatch_first_use_threads),
        cmocka_unit_test(test_dispatch_select),
        cmocka_unit_test(test_reference_sanity),
        cmocka_unit_test(test_zero_length_null),
        cmocka_unit_test(test_f16_to_f32_exhaustive),
        cmocka_unit_test(test_f32_to_f16_boundaries),
        cmocka_unit_test(test_f32_to_f16_specials),
        cmocka_unit_test(test_f32_to_f16_random),
        cmocka_unit_test(test_vadd_f16_cases),
        cmocka_unit_test(test_vadd_f16_random),
        cmocka_unit_test(test_vadd_f16_tiles),
        cmocka_unit_test(test_vadd_f16_all_a),
        cmocka_unit_test(test_integer_wrap),
        cmocka_unit_test(test_ops_lengths_alignment),
        cmocka_unit_test(test_ops_streaming_small_threshold),
        cmocka_unit_test(test_ops_streaming_large),
    };
    return cmocka_run_group_tests(tests, NULL, free_scratch);
}
