/*
 * aclrtRandomNumAsync (acl-rt-memory-extras.md §3.10, Decisions 13 and 14).
 *
 *  - §3.10's reference values (seed 42, counters {0, 0} and {0, 4}), which
 *    were checked with Random123's r123::Philox4x32 before being written
 *    here;
 *  - every distribution and data type against a reference generator
 *    written in this file from the spec's description (itself checked
 *    against the Random123 known-answer vectors first);
 *  - statistics with a fixed seed: mean and variance within 5 standard
 *    errors (a two-sided p-value of 5.7e-7 for a correct generator), and a
 *    Kolmogorov-Smirnov statistic below its asymptotic critical value for
 *    alpha = 0.001 (1.9495 / sqrt(n); conservative for the discrete
 *    outputs, which are compared with their exact step CDF);
 *  - determinism and counters (the counter is read, never advanced), inline
 *    values taken at the call, addressed values read when the task runs
 *    (made deterministic with aclrtValueWait gates), the parameter block,
 *    execution-time faults, bad inputs with untouched memory, and the SoC
 *    profiles (child processes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

#define DROPOUT ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK
#define UNIFORM ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS
#define NORMAL ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS
#define TRUNCATED ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS

/* ---- reference generator -------------------------------------------------- */

static void ref_philox(const uint32_t ctr_in[4], const uint32_t key_in[2], uint32_t out[4])
{
    uint32_t c[4] = {ctr_in[0], ctr_in[1], ctr_in[2], ctr_in[3]}, k0 = key_in[0], k1 = key_in[1];
    for (int r = 0; r < 10; r++) {
        const uint64_t a = (uint64_t)c[0] * 0xD2511F53u, b = (uint64_t)c[2] * 0xCD9E8D57u;
        const uint32_t n[4] = {(uint32_t)(b >> 32) ^ c[1] ^ k0, (uint32_t)b, (uint32_t)(a >> 32) ^ c[3] ^ k1,
                               (uint32_t)a};
        memcpy(c, n, sizeof(c));
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    memcpy(out, c, sizeof(c));
}

/* Block b of the stream (seed, c0, c1): counter + b as 128-bit numbers. */
static void ref_block(uint64_t seed, uint64_t c0, uint64_t c1, uint64_t b, uint32_t out[4])
{
    const uint64_t lo = c0 + b, hi = c1 + (lo < b);
    const uint32_t ctr[4] = {(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32)};
    const uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    ref_philox(ctr, key, out);
}

static uint32_t ref_word(uint64_t seed, uint64_t c0, uint64_t c1, uint64_t i)
{
    uint32_t w[4];
    ref_block(seed, c0, c1, i / 4, w);
    return w[i % 4];
}

static float ref_unit(uint32_t w) { return (float)(w & 0x7FFFFF) / 8388608.0f; }

/* Round to nearest even into a binary format (p-bit significand): scaling
 * by powers of two is exact, nearbyint rounds to nearest even. */
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
    int e = ex - 1 < emin ? emin : ex - 1;
    double q = nearbyint(ldexp(a, mbits - e));
    if (q >= ldexp(1, p)) {
        q /= 2;
        e++;
    }
    if (e > emax)
        return sign | (((1u << ebits) - 1) << mbits);
    if (q < ldexp(1, mbits))
        return sign | (uint32_t)q;
    return sign | (uint32_t)(e + (1 << (ebits - 1)) - 1) << mbits | ((uint32_t)q - (1u << mbits));
}

static uint16_t to_f16(double v) { return (uint16_t)rne_pattern(v, 11, -14, 15, 5); }
static uint16_t to_bf16(double v) { return (uint16_t)rne_pattern(v, 8, -126, 127, 8); }

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

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The spec's Box-Muller, in float. */
static void ref_box_muller(uint32_t x0, uint32_t x1, float *f0, float *f1)
{
    float u1 = ref_unit(x0);
    if (u1 < 1.0e-7f)
        u1 = 1.0e-7f;
    const float v1 = (float)(2.0 * M_PI * (double)ref_unit(x1));
    const float u2 = sqrtf(-2.0f * logf(u1));
    *f0 = sinf(v1) * u2;
    *f1 = cosf(v1) * u2;
}

/* Standard normal sample for element i (before scaling). */
static float ref_normal(uint64_t seed, uint64_t c0, uint64_t c1, uint64_t i)
{
    uint32_t w[4];
    ref_block(seed, c0, c1, i / 4, w);
    float f[4];
    ref_box_muller(w[0], w[1], &f[0], &f[1]);
    ref_box_muller(w[2], w[3], &f[2], &f[3]);
    return f[i % 4];
}

/* Truncated normal element i: group i / 4 walks blocks 256 * group, ... */
static float ref_truncated(uint64_t seed, uint64_t c0, uint64_t c1, uint64_t i)
{
    const uint64_t g = i / 4;
    unsigned got = 0;
    for (uint64_t b = g * 256;; b++) {
        uint32_t w[4];
        ref_block(seed, c0, c1, b, w);
        for (int k = 0; k < 4; k += 2) {
            float f[2];
            ref_box_muller(w[k], w[k + 1], &f[0], &f[1]);
            for (int m = 0; m < 2; m++)
                if (fabsf(f[m]) < 2.0f && got++ == i % 4)
                    return f[m];
        }
    }
}

/* ---- task construction --------------------------------------------------------- */

static aclrtRandomParaInfo inl(uint64_t v, uint8_t size)
{
    aclrtRandomParaInfo p;
    memset(&p, 0, sizeof(p));
    p.size = size;
    for (int i = 0; i < 8; i++)
        p.valueOrAddr[i] = (uint8_t)(v >> (8 * i));
    return p;
}

static aclrtRandomParaInfo adr(const void *dev, uint8_t size)
{
    aclrtRandomParaInfo p = inl((uint64_t)(uintptr_t)dev, size);
    p.isAddr = 1;
    return p;
}

static aclrtRandomNumTaskInfo make_task(aclrtRandomNumFuncType func, aclDataType type, aclrtRandomParaInfo p0,
                                        aclrtRandomParaInfo p1, aclrtRandomParaInfo seed, aclrtRandomParaInfo num,
                                        void *counter, void *result)
{
    aclrtRandomNumTaskInfo t;
    memset(&t, 0, sizeof(t));
    t.dataType = type;
    t.randomNumFuncParaInfo.funcType = func;
    if (func == DROPOUT) {
        t.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation = p0;
    } else if (func == UNIFORM) {
        t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = p0;
        t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = p1;
    } else {
        t.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean = p0;
        t.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev = p1;
    }
    t.randomCounterAddr = counter;
    t.randomResultAddr = result;
    t.randomSeed = seed;
    t.randomNum = num;
    return t;
}

static void *g_counter; /* 16 bytes of device memory */
static void *g_out;     /* 8 MiB of device memory */
#define OUT_BYTES ((size_t)8 << 20)
/* aclrtMalloc adds 32 bytes of slack that the device may use: the end of
   the allocation the checks see */
#define OUT_END (OUT_BYTES + 32)

static void h2d(void *dev, const void *host, size_t n) { ACL_OK(aclrtMemcpy(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE)); }
static void d2h(void *host, const void *dev, size_t n) { ACL_OK(aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST)); }

static void set_counter(uint64_t c0, uint64_t c1)
{
    const uint64_t c[2] = {c0, c1};
    h2d(g_counter, c, 16);
}

/* Fills the output with a sentinel byte. */
static void clear_out(size_t n)
{
    ACL_OK(aclrtMemset(g_out, OUT_BYTES, 0xA5, n));
}

/* Runs a task with inline parameters on the default stream; `out` receives
 * `bytes` bytes of the result. */
static void run_task(const aclrtRandomNumTaskInfo *t, void *out, size_t bytes)
{
    ACL_OK(aclrtRandomNumAsync(t, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    d2h(out, g_out, bytes);
}

static int setup(void **state)
{
    (void)state;
    oacl_test_reset_devices();
    if (aclrtSetDevice(0) || aclrtMalloc(&g_counter, 64, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc(&g_out, OUT_BYTES, ACL_MEM_MALLOC_HUGE_FIRST))
        return -1;
    set_counter(0, 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    oacl_test_reset_devices();
    return 0;
}

/* ---- reference values ------------------------------------------------------------- */

/* The test's generator reproduces the Random123 known answers. */
static void test_reference_generator(void **state)
{
    (void)state;
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d, 0x41c83b0e, 0xa20bc7c6,
         0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09, 0x94fdcceb, 0x5001e420,
         0x24126ea1},
    };
    for (int i = 0; i < 3; i++) {
        uint32_t out[4];
        ref_philox(kat[i], kat[i] + 4, out);
        assert_memory_equal(out, kat[i] + 6, sizeof(out));
    }
}

static void test_spec_reference_values(void **state)
{
    (void)state;
    /* uniform FLOAT on [0, 1), seed 42, counter {0, 0} */
    aclrtRandomNumTaskInfo t = make_task(UNIFORM, ACL_FLOAT, inl(fbits(0.0f), 4), inl(fbits(1.0f), 4), inl(42, 8),
                                         inl(8, 8), g_counter, g_out);
    aclrtRandomNumTaskInfo copy = t;
    float f[8];
    run_task(&t, f, sizeof(f));
    static const double want[8] = {0.83545911, 0.91629732, 0.49464953, 0.52111328,
                                   0.71194923, 0.45645106, 0.11994720, 0.60958803};
    static const uint32_t words[8] = {0x9ceaf053, 0x77f5493b, 0x12bf50ad, 0x5742b3d7,
                                      0xfcdb2127, 0x53ba6cfd, 0x838f5a6e, 0x744e06fb};
    for (int i = 0; i < 8; i++) {
        if (fabs(f[i] - want[i]) > 5e-9 || f[i] != (float)(words[i] & 0x7FFFFF) / 8388608.0f)
            fail_msg("element %d: %.8f, expected %.8f", i, f[i], want[i]);
    }
    assert_memory_equal(&t, &copy, sizeof(t)); /* the structure is never written (Decision 14) */
    uint64_t c[2] = {1, 1};
    d2h(c, g_counter, 16);
    assert_true(c[0] == 0 && c[1] == 0); /* nor the counter */

    /* FLOAT16 */
    t = make_task(UNIFORM, ACL_FLOAT16, inl(0x0000, 2), inl(0x3C00, 2), inl(42, 1), inl(4, 1), g_counter, g_out);
    uint16_t h[4];
    run_task(&t, h, sizeof(h));
    static const double want16[4] = {0.08105469, 0.30761719, 0.16894531, 0.95996094};
    for (int i = 0; i < 4; i++)
        if (fabs(f16_val(h[i]) - want16[i]) > 5e-9)
            fail_msg("half element %d: %.8f, expected %.8f", i, f16_val(h[i]), want16[i]);

    /* dropout mask, ratio 0.5, 8 elements -> 0x9B */
    t = make_task(DROPOUT, ACL_FLOAT, inl(fbits(0.5f), 4), inl(0, 1), inl(42, 8), inl(8, 8), g_counter, g_out);
    clear_out(4);
    uint8_t m[2];
    run_task(&t, m, 2);
    assert_int_equal(m[0], 0x9B);
    assert_int_equal(m[1], 0xA5); /* one byte written */

    /* counter {0, 4} */
    set_counter(0, 4);
    t = make_task(UNIFORM, ACL_FLOAT, inl(fbits(0.0f), 4), inl(fbits(1.0f), 4), inl(42, 8), inl(4, 8), g_counter,
                  g_out);
    run_task(&t, f, 4 * sizeof(float));
    static const double want4[4] = {0.00857747, 0.97071302, 0.19590986, 0.09468186};
    for (int i = 0; i < 4; i++)
        if (fabs(f[i] - want4[i]) > 5e-9)
            fail_msg("counter {0,4} element %d: %.8f, expected %.8f", i, f[i], want4[i]);
}

/* ---- every data type against the reference ----------------------------------------- */

static uint64_t ref_uniform_int(uint32_t w, int64_t lo_s, uint64_t lo_u, int64_t hi_s, uint64_t hi_u, bool sign)
{
    float range;
    if (sign)
        range = hi_s >= lo_s ? (float)((uint64_t)hi_s - (uint64_t)lo_s) : -(float)((uint64_t)lo_s - (uint64_t)hi_s);
    else
        range = hi_u >= lo_u ? (float)(hi_u - lo_u) : -(float)(lo_u - hi_u);
    const float fmin = sign ? (float)lo_s : (float)lo_u;
    const float t = ref_unit(w) * range + fmin;
    const double d = trunc((double)t);
    if (fabs(d) < 0x1p63)
        return (uint64_t)(int64_t)d;
    double m = fmod(d, 0x1p64);
    return (uint64_t)(m < 0 ? m + 0x1p64 : m);
}

static void test_uniform_types(void **state)
{
    (void)state;
    const uint64_t seed = 0x0123456789ABCDEFull, c0 = 77, c1 = 3;
    set_counter(c0, c1);
    enum { N = 1001 };
    static uint8_t buf[N * 8];

    /* FLOAT on [-3, 5) */
    aclrtRandomNumTaskInfo t = make_task(UNIFORM, ACL_FLOAT, inl(fbits(-3.0f), 4), inl(fbits(5.0f), 4),
                                         inl(seed, 8), inl(N, 2), g_counter, g_out);
    run_task(&t, buf, N * 4);
    for (uint64_t i = 0; i < N; i++) {
        const float want = ref_unit(ref_word(seed, c0, c1, i)) * 8.0f + -3.0f;
        float got;
        memcpy(&got, buf + i * 4, 4);
        if (fbits(got) != fbits(want))
            fail_msg("FLOAT element %llu: %.9g, expected %.9g", (unsigned long long)i, got, want);
    }
    /* FLOAT16 on [-2, 6) and BF16 on [-1.5, 3): Eigen arithmetic, each
       step rounded to the type */
    const uint16_t hmin = to_f16(-2), hmax = to_f16(6), bmin = to_bf16(-1.5), bmax = to_bf16(3);
    for (int half = 1; half >= 0; half--) {
        const aclDataType type = half ? ACL_FLOAT16 : ACL_BF16;
        const uint16_t lo = half ? hmin : bmin, hi = half ? hmax : bmax;
        t = make_task(UNIFORM, type, inl(lo, 2), inl(hi, 2), inl(seed, 8), inl(N, 8), g_counter, g_out);
        run_task(&t, buf, N * 2);
        double (*val)(uint16_t) = half ? f16_val : bf16_val;
        uint16_t (*rnd)(double) = half ? to_f16 : to_bf16;
        for (uint64_t i = 0; i < N; i++) {
            const uint32_t w = ref_word(seed, c0, c1, i);
            const double u = half ? (w & 0x3FF) / 1024.0 : (w & 0x7F) / 128.0;
            const uint16_t d = rnd((float)(val(hi) - val(lo)));
            const uint16_t tt = rnd((float)(u * val(d)));
            const uint16_t want = rnd((float)(val(tt) + val(lo)));
            uint16_t got;
            memcpy(&got, buf + i * 2, 2);
            if (got != want)
                fail_msg("%s element %llu: 0x%04x, expected 0x%04x", half ? "FLOAT16" : "BF16",
                         (unsigned long long)i, got, want);
        }
    }
    /* integers */
    struct {
        aclDataType type;
        int64_t lo_s, hi_s;
        uint64_t lo_u, hi_u;
        bool sign;
        unsigned size;
    } ints[] = {
        {ACL_INT32, -100, 100, 0, 0, true, 4},
        {ACL_INT64, -(1ll << 40), 1ll << 40, 0, 0, true, 8},
        {ACL_UINT32, 0, 0, 10, 4000000000u, false, 4},
        {ACL_UINT64, 0, 0, 0, (1ull << 63) + 12345, false, 8},
        {ACL_INT64, INT64_MIN, INT64_MAX, 0, 0, true, 8},
    };
    for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++) {
        const uint64_t lo = ints[k].sign ? (uint64_t)ints[k].lo_s : ints[k].lo_u;
        const uint64_t hi = ints[k].sign ? (uint64_t)ints[k].hi_s : ints[k].hi_u;
        t = make_task(UNIFORM, ints[k].type, inl(lo, (uint8_t)ints[k].size), inl(hi, (uint8_t)ints[k].size),
                      inl(seed, 8), inl(N, 8), g_counter, g_out);
        run_task(&t, buf, N * ints[k].size);
        for (uint64_t i = 0; i < N; i++) {
            uint64_t want = ref_uniform_int(ref_word(seed, c0, c1, i), ints[k].lo_s, ints[k].lo_u, ints[k].hi_s,
                                            ints[k].hi_u, ints[k].sign);
            uint64_t got = 0;
            memcpy(&got, buf + i * ints[k].size, ints[k].size);
            if (ints[k].size == 4)
                want = (uint32_t)want;
            if (got != want)
                fail_msg("integer case %zu element %llu: %llu, expected %llu", k, (unsigned long long)i,
                         (unsigned long long)got, (unsigned long long)want);
            if (ints[k].type == ACL_INT32 && ((int32_t)got < -100 || (int32_t)got >= 100))
                fail_msg("INT32 element %llu = %d is outside [-100, 100)", (unsigned long long)i, (int32_t)got);
        }
    }
}

/* Normal and truncated normal in every float type, mean 1.5, stddev 2:
 * against the spec's float formula (which uses the C library's logf, sinf
 * and cosf, hence a tolerance). */
static void test_normal_types(void **state)
{
    (void)state;
    const uint64_t seed = 1234567, c0 = 0, c1 = 9;
    set_counter(c0, c1);
    enum { N = 2003 };
    static uint8_t buf[N * 4];
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (int fn = NORMAL; fn <= TRUNCATED; fn++) {
        for (int k = 0; k < 3; k++) {
            const aclDataType type = types[k];
            const unsigned size = type == ACL_FLOAT ? 4 : 2;
            const uint64_t mean = type == ACL_FLOAT ? fbits(1.5f) : type == ACL_FLOAT16 ? to_f16(1.5) : to_bf16(1.5);
            const uint64_t sd = type == ACL_FLOAT ? fbits(2.0f) : type == ACL_FLOAT16 ? to_f16(2) : to_bf16(2);
            aclrtRandomNumTaskInfo t = make_task((aclrtRandomNumFuncType)fn, type, inl(mean, (uint8_t)size),
                                                 inl(sd, (uint8_t)size), inl(seed, 8), inl(N, 8), g_counter, g_out);
            run_task(&t, buf, N * size);
            for (uint64_t i = 0; i < N; i++) {
                const float f = fn == NORMAL ? ref_normal(seed, c0, c1, i) : ref_truncated(seed, c0, c1, i);
                const double want = (double)(f * 2.0f + 1.5f);
                double got;
                if (type == ACL_FLOAT) {
                    float g;
                    memcpy(&g, buf + i * 4, 4);
                    got = g;
                } else {
                    uint16_t g;
                    memcpy(&g, buf + i * 2, 2);
                    got = type == ACL_FLOAT16 ? f16_val(g) : bf16_val(g);
                }
                /* one unit in the last place of the type, plus the
                   library functions' error */
                const double ulp = type == ACL_FLOAT ? 0x1p-23 : type == ACL_FLOAT16 ? 0x1p-10 : 0x1p-7;
                if (fabs(got - want) > ulp * fabs(want) + 1e-5)
                    fail_msg("func %d type %d element %llu: %.9g, expected %.9g", fn, (int)type,
                             (unsigned long long)i, got, want);
                if (fn == TRUNCATED && !(got > 1.5 - 4 - 4 * ulp && got < 1.5 + 4 + 4 * ulp))
                    fail_msg("truncated element %llu = %.9g is outside mean +- 2 stddev", (unsigned long long)i, got);
            }
        }
    }
}

/* Dropout in every ratio type, with a partial last byte. */
static void test_dropout_types(void **state)
{
    (void)state;
    const uint64_t seed = 99, c0 = 5, c1 = 0;
    set_counter(c0, c1);
    enum { N = 1003 }; /* 125 bytes + 3 bits */
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    const uint64_t ratio[3] = {fbits(0.3f), to_f16(0.3), to_bf16(0.3)};
    const double rv[3] = {0.3f, f16_val(to_f16(0.3)), bf16_val(to_bf16(0.3))};
    for (int k = 0; k < 3; k++) {
        aclrtRandomNumTaskInfo t = make_task(DROPOUT, types[k], inl(ratio[k], k ? 2 : 4), inl(0, 1), inl(seed, 8),
                                             inl(N, 8), g_counter, g_out);
        clear_out(256);
        uint8_t m[130];
        run_task(&t, m, sizeof(m));
        for (uint64_t i = 0; i < N; i++) {
            const bool keep = ref_unit(ref_word(seed, c0, c1, i)) >= (float)rv[k];
            if (((m[i / 8] >> (i % 8)) & 1) != keep)
                fail_msg("type %d bit %llu", (int)types[k], (unsigned long long)i);
        }
        assert_int_equal(m[125] >> 3, 0);     /* unused high bits of the last byte */
        assert_int_equal(m[126], 0xA5);       /* nothing past ceil(N / 8) bytes */
    }
    /* ratio 0 keeps everything, ratio 1 (and more) drops everything */
    const float r01[3] = {0.0f, 1.0f, 2.5f};
    for (int k = 0; k < 3; k++) {
        aclrtRandomNumTaskInfo t = make_task(DROPOUT, ACL_FLOAT, inl(fbits(r01[k]), 4), inl(0, 1), inl(seed, 8),
                                             inl(64, 8), g_counter, g_out);
        uint8_t m[8];
        run_task(&t, m, 8);
        for (int i = 0; i < 8; i++)
            assert_int_equal(m[i], k == 0 ? 0xFF : 0x00);
    }
}

/* ---- statistics ------------------------------------------------------------------------ */

#define STAT_N 100000
#define KS_CRIT(n) (1.9495 / sqrt((double)(n))) /* alpha = 0.001 */

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Kolmogorov-Smirnov distance of the sample from a distribution given by
 * P(X <= x) and P(X < x) (equal for continuous ones): over groups of equal
 * values, the empirical CDF just below and at each value. */
static double ks_distance(double *x, size_t n, double (*cdf_le)(double), double (*cdf_lt)(double))
{
    qsort(x, n, sizeof(double), cmp_double);
    double d = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && x[j] == x[i])
            j++;
        const double lo = fabs((double)i / n - cdf_lt(x[i])), hi = fabs((double)j / n - cdf_le(x[i]));
        d = fmax(d, fmax(lo, hi));
        i = j;
    }
    return d;
}

/* Mean and variance within 5 standard errors of the expected ones (the
 * variance's standard error from the sample's fourth central moment). */
static void check_moments(const double *x, size_t n, double mean, double var, const char *what)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m += x[i];
    m /= n;
    double m2 = 0, m4 = 0;
    for (size_t i = 0; i < n; i++) {
        const double d = x[i] - m;
        m2 += d * d;
        m4 += d * d * d * d;
    }
    m2 /= n;
    m4 /= n;
    const double se_mean = sqrt(var / n), se_var = sqrt((m4 - m2 * m2) / n);
    if (fabs(m - mean) > 5 * se_mean)
        fail_msg("%s: mean %.6f, expected %.6f (5 standard errors: %.6f)", what, m, mean, 5 * se_mean);
    if (fabs(m2 - var) > 5 * se_var)
        fail_msg("%s: variance %.6f, expected %.6f (5 standard errors: %.6f)", what, m2, var, 5 * se_var);
}

static void check_ks(double *x, size_t n, double (*le)(double), double (*lt)(double), const char *what)
{
    const double d = ks_distance(x, n, le, lt);
    if (d > KS_CRIT(n))
        fail_msg("%s: Kolmogorov-Smirnov distance %.5f exceeds %.5f (alpha 0.001)", what, d, KS_CRIT(n));
}

/* Exact CDFs of the discrete uniform outputs: k / 2^23, k / 1024, integers
 * 0..2^20-1, 16-bit words. */
static double u23_le(double x) { return x < 0 ? 0 : x >= 1 ? 1 : (floor(x * 8388608.0) + 1) / 8388608.0; }
static double u23_lt(double x) { return x <= 0 ? 0 : x > 1 ? 1 : ceil(x * 8388608.0) / 8388608.0; }
static double u10_le(double x) { return x < 0 ? 0 : x >= 1 ? 1 : (floor(x * 1024.0) + 1) / 1024.0; }
static double u10_lt(double x) { return x <= 0 ? 0 : x > 1 ? 1 : ceil(x * 1024.0) / 1024.0; }
static double i20_le(double x) { return x < 0 ? 0 : x >= 1048575 ? 1 : (floor(x) + 1) / 1048576.0; }
static double i20_lt(double x) { return x <= 0 ? 0 : x > 1048575 ? 1 : ceil(x) / 1048576.0; }
static double w16_le(double x) { return x < 0 ? 0 : x >= 65535 ? 1 : (floor(x) + 1) / 65536.0; }
static double w16_lt(double x) { return x <= 0 ? 0 : x > 65535 ? 1 : ceil(x) / 65536.0; }
/* N(1.5, 2^2) and the standard normal truncated to (-2, 2) */
static double normal_cdf(double x) { return 0.5 * erfc(-(x - 1.5) / (2.0 * M_SQRT2)); }
static double phi(double x) { return 0.5 * erfc(-x / M_SQRT2); }
static double trunc_cdf(double x) { return x <= -2 ? 0 : x >= 2 ? 1 : (phi(x) - phi(-2)) / (phi(2) - phi(-2)); }

static double *read_samples(aclDataType type, size_t n)
{
    double *x = malloc(n * sizeof(double));
    uint8_t *raw = malloc(n * 4);
    assert_non_null(x);
    assert_non_null(raw);
    d2h(raw, g_out, n * (type == ACL_FLOAT16 ? 2 : 4));
    for (size_t i = 0; i < n; i++) {
        if (type == ACL_FLOAT) {
            float f;
            memcpy(&f, raw + 4 * i, 4);
            x[i] = f;
        } else if (type == ACL_FLOAT16) {
            uint16_t h;
            memcpy(&h, raw + 2 * i, 2);
            x[i] = f16_val(h);
        } else {
            int32_t v;
            memcpy(&v, raw + 4 * i, 4);
            x[i] = v;
        }
    }
    free(raw);
    return x;
}

static void test_statistics(void **state)
{
    (void)state;
    set_counter(0, 2024);
    const uint64_t seed = 20240601;
    aclrtRandomNumTaskInfo t;

    /* uniform FLOAT [0, 1): mean 1/2, variance 1/12 (of the 2^23-point grid:
       (1 - 2^-46) / 12) */
    t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(seed, 8), inl(STAT_N, 8), g_counter, g_out);
    ACL_OK(aclrtRandomNumAsync(&t, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    double *x = read_samples(ACL_FLOAT, STAT_N);
    check_moments(x, STAT_N, 0.5 - 0x1p-24, (1 - 0x1p-46) / 12, "uniform FLOAT");
    check_ks(x, STAT_N, u23_le, u23_lt, "uniform FLOAT");
    free(x);

    /* uniform FLOAT16 [0, 1): k / 1024 */
    t = make_task(UNIFORM, ACL_FLOAT16, inl(0, 2), inl(0x3C00, 2), inl(seed, 8), inl(STAT_N, 8), g_counter, g_out);
    ACL_OK(aclrtRandomNumAsync(&t, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    x = read_samples(ACL_FLOAT16, STAT_N);
    check_moments(x, STAT_N, 1023.0 / 2048, (1024.0 * 1024 - 1) / 12 / (1024.0 * 1024), "uniform FLOAT16");
    check_ks(x, STAT_N, u10_le, u10_lt, "uniform FLOAT16");
    free(x);

    /* uniform INT32 [0, 2^20) */
    t = make_task(UNIFORM, ACL_INT32, inl(0, 4), inl(1u << 20, 4), inl(seed, 8), inl(STAT_N, 8), g_counter, g_out);
    ACL_OK(aclrtRandomNumAsync(&t, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    x = read_samples(ACL_INT32, STAT_N);
    check_moments(x, STAT_N, (1048576.0 - 1) / 2, (1048576.0 * 1048576.0 - 1) / 12, "uniform INT32");
    check_ks(x, STAT_N, i20_le, i20_lt, "uniform INT32");
    free(x);

    /* normal FLOAT, mean 1.5, stddev 2 */
    t = make_task(NORMAL, ACL_FLOAT, inl(fbits(1.5f), 4), inl(fbits(2.0f), 4), inl(seed, 8), inl(STAT_N, 8),
                  g_counter, g_out);
    ACL_OK(aclrtRandomNumAsync(&t, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    x = read_samples(ACL_FLOAT, STAT_N);
    check_moments(x, STAT_N, 1.5, 4.0, "normal FLOAT");
    check_ks(x, STAT_N, normal_cdf, normal_cdf, "normal FLOAT");
    free(x);

    /* truncated normal FLOAT, mean 0, stddev 1: variance 1 - 4 phi(2) / Z */
    t = make_task(TRUNCATED, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(seed, 8), inl(STAT_N, 8), g_counter,
                  g_out);
    ACL_OK(aclrtRandomNumAsync(&t, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    x = read_samples(ACL_FLOAT, STAT_N);
    const double z = phi(2) - phi(-2), dens2 = exp(-2.0) / sqrt(2 * M_PI);
    check_moments(x, STAT_N, 0.0, 1 - 4 * dens2 / z, "truncated normal FLOAT");
    check_ks(x, STAT_N, trunc_cdf, trunc_cdf, "truncated normal FLOAT");
    for (size_t i = 0; i < STAT_N; i++)
        if (!(fabs(x[i]) < 2))
            fail_msg("truncated normal sample %zu = %g", i, x[i]);
    free(x);

    /* dropout, ratio 0.3: bits per byte ~ Binomial(8, 0.7) (mean 5.6,
       variance 1.68) when the bits are independent */
    t = make_task(DROPOUT, ACL_FLOAT, inl(fbits(0.3f), 4), inl(0, 1), inl(seed, 8), inl(8 * STAT_N, 8), g_counter,
                  g_out);
    ACL_OK(aclrtRandomNumAsync(&t, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    uint8_t *mask = malloc(STAT_N);
    d2h(mask, g_out, STAT_N);
    x = malloc(STAT_N * sizeof(double));
    for (size_t i = 0; i < STAT_N; i++)
        x[i] = __builtin_popcount(mask[i]);
    check_moments(x, STAT_N, 8 * 0.7, 8 * 0.7 * 0.3, "dropout 0.3 bits per byte");
    /* ratio 0.5: 16-bit words of the mask are uniform on 0..65535 */
    t = make_task(DROPOUT, ACL_FLOAT, inl(fbits(0.5f), 4), inl(0, 1), inl(seed, 8), inl(16 * STAT_N, 8), g_counter,
                  g_out);
    ACL_OK(aclrtRandomNumAsync(&t, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    uint16_t *words = malloc(STAT_N * 2);
    d2h(words, g_out, STAT_N * 2);
    for (size_t i = 0; i < STAT_N; i++)
        x[i] = words[i];
    check_moments(x, STAT_N, 65535 / 2.0, (65536.0 * 65536.0 - 1) / 12, "dropout 0.5 words");
    check_ks(x, STAT_N, w16_le, w16_lt, "dropout 0.5 words");
    free(x);
    free(mask);
    free(words);
}

/* ---- determinism and counters ----------------------------------------------------------- */

static void test_determinism_and_offsets(void **state)
{
    (void)state;
    enum { N = 4096 };
    static float a[N], b[N];
    const uint64_t seed = 31337;
    aclrtRandomNumTaskInfo t = make_task(NORMAL, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(seed, 8), inl(N, 8),
                                         g_counter, g_out);
    /* same seed and counter: the same numbers */
    set_counter(0, 7);
    run_task(&t, a, sizeof(a));
    clear_out(sizeof(b));
    run_task(&t, b, sizeof(b));
    assert_memory_equal(a, b, sizeof(a));
    /* another c1 (CANN's offset): other numbers */
    set_counter(0, 8);
    run_task(&t, b, sizeof(b));
    size_t same = 0;
    for (size_t i = 0; i < N; i++)
        same += a[i] == b[i];
    assert_true(same < 8);
    /* another seed: other numbers */
    set_counter(0, 7);
    t.randomSeed = inl(seed + 1, 8);
    run_task(&t, b, sizeof(b));
    same = 0;
    for (size_t i = 0; i < N; i++)
        same += a[i] == b[i];
    assert_true(same < 8);

    /* c0 counts blocks of 4 elements: c0 = 2 is the stream shifted by 8 */
    t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(seed, 8), inl(N, 8), g_counter, g_out);
    set_counter(0, 0);
    run_task(&t, a, sizeof(a));
    set_counter(2, 0);
    run_task(&t, b, sizeof(b));
    assert_memory_equal(b, a + 8, (N - 8) * sizeof(float));
    /* the 128-bit carry: {2^64 - 1, 0} + 1 = {0, 1} */
    set_counter(UINT64_MAX, 0);
    run_task(&t, a, 8 * sizeof(float));
    set_counter(0, 1);
    run_task(&t, b, 4 * sizeof(float));
    assert_memory_equal(a + 4, b, 4 * sizeof(float));
    /* truncated normal groups own 256 blocks: c0 = 256 shifts by one group */
    t = make_task(TRUNCATED, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(seed, 8), inl(64, 8), g_counter, g_out);
    set_counter(0, 0);
    run_task(&t, a, 64 * sizeof(float));
    set_counter(256, 0);
    run_task(&t, b, 64 * sizeof(float));
    assert_memory_equal(b, a + 4, 60 * sizeof(float));
    /* large outputs are split over the device's threads the same way */
    enum { BIG = 1 << 20 };
    float *big = malloc(BIG * sizeof(float));
    t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(seed, 8), inl(BIG, 8), g_counter, g_out);
    set_counter(3, 4);
    run_task(&t, big, BIG * sizeof(float));
    for (uint64_t i = 0; i < BIG; i += 997)
        assert_true(big[i] == ref_unit(ref_word(seed, 3, 4, i)));
    assert_true(big[BIG - 1] == ref_unit(ref_word(seed, 3, 4, BIG - 1)));
    free(big);
}

/* ---- inline and addressed values ------------------------------------------------------------ */

/* Values given by address are read when the task runs; inline ones are
 * copied by the call. A gate (aclrtValueWait on a word this test writes)
 * holds the stream so that the changes land in between. */
static void test_value_timing(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint8_t *mem = NULL;
    ACL_OK(aclrtMalloc((void **)&mem, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    uint64_t *gate = (uint64_t *)mem, *seed_mem = (uint64_t *)(mem + 64), *num_mem = (uint64_t *)(mem + 128);
    float *range_mem = (float *)(mem + 192);
    const uint64_t zero = 0, one = 1, old_seed = 5, new_seed = 6, old_num = 4, new_num = 12;
    const float range[2] = {10.0f, 20.0f}, new_range[2] = {-1.0f, 1.0f};
    h2d(gate, &zero, 8);
    h2d(seed_mem, &old_seed, 8);
    h2d(num_mem, &old_num, 8);
    h2d(range_mem, range, 8);
    set_counter(0, 0);
    clear_out(64 * 4);

    aclrtRandomNumTaskInfo t = make_task(UNIFORM, ACL_FLOAT, adr(range_mem, 4), adr(range_mem + 1, 4),
                                         adr(seed_mem, 8), adr(num_mem, 8), g_counter, g_out);
    ACL_OK(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    ACL_OK(aclrtRandomNumAsync(&t, s, NULL));
    /* an inline seed changed in the caller's structure after the call */
    aclrtRandomNumTaskInfo t2 = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(old_seed, 8),
                                          inl(4, 8), g_counter, (float *)g_out + 32);
    ACL_OK(aclrtRandomNumAsync(&t2, s, NULL));
    t2.randomSeed = inl(new_seed, 8);
    t2.randomNum = inl(16, 8);
    /* the stream is held: nothing written yet */
    uint8_t before[64 * 4];
    d2h(before, g_out, sizeof(before));
    for (size_t i = 0; i < sizeof(before); i++)
        assert_int_equal(before[i], 0xA5);
    /* change the addressed values, then open the gate */
    h2d(seed_mem, &new_seed, 8);
    h2d(num_mem, &new_num, 8);
    h2d(range_mem, new_range, 8);
    h2d(gate, &one, 8);
    ACL_OK(aclrtSynchronizeStream(s));
    float got[64];
    d2h(got, g_out, sizeof(got));
    for (uint64_t i = 0; i < new_num; i++) { /* new seed, count and range */
        const float want = ref_unit(ref_word(new_seed, 0, 0, i)) * 2.0f + -1.0f;
        if (got[i] != want)
            fail_msg("addressed element %llu: %.9g, expected %.9g", (unsigned long long)i, got[i], want);
    }
    assert_int_equal(fbits(got[new_num]), 0xA5A5A5A5u); /* exactly new_num written */
    for (uint64_t i = 0; i < 4; i++) /* the inline task: the values of the call */
        assert_true(got[32 + i] == ref_unit(ref_word(old_seed, 0, 0, i)));
    assert_int_equal(fbits(got[36]), 0xA5A5A5A5u);

    /* the counter too is read when the task runs */
    clear_out(64);
    h2d(gate, &zero, 8);
    set_counter(0, 0);
    t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(42, 8), inl(4, 8), g_counter, g_out);
    ACL_OK(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    ACL_OK(aclrtRandomNumAsync(&t, s, NULL));
    set_counter(0, 4);
    h2d(gate, &one, 8);
    ACL_OK(aclrtSynchronizeStream(s));
    d2h(got, g_out, 16);
    assert_true(fabs(got[0] - 0.00857747) < 5e-9); /* §3.10's counter {0, 4} value */

    ACL_OK(aclrtFree(mem));
    ACL_OK(aclrtDestroyStream(s));
}

/* Sizes below 8 bytes: little-endian, zero-extended; addressed values too. */
static void test_value_sizes(void **state)
{
    (void)state;
    uint8_t *mem = NULL;
    ACL_OK(aclrtMalloc((void **)&mem, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    const uint8_t bytes[8] = {0x39, 0x30, 0, 0, 0, 0, 0xFF, 0xFF}; /* 12345 in 2 bytes, junk above */
    h2d(mem, bytes, 8);
    set_counter(0, 0);
    float a[6], b[6];
    aclrtRandomNumTaskInfo t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(12345, 2),
                                         inl(6, 1), g_counter, g_out);
    run_task(&t, a, sizeof(a));
    t.randomSeed = adr(mem, 2); /* reads 2 bytes: 12345 */
    run_task(&t, b, sizeof(b));
    assert_memory_equal(a, b, sizeof(a));
    t.randomSeed = inl(0xFFFF000000003039ull, 2); /* inline: only `size` bytes count */
    run_task(&t, b, sizeof(b));
    assert_memory_equal(a, b, sizeof(a));
    for (int i = 0; i < 6; i++)
        assert_true(a[i] == ref_unit(ref_word(12345, 0, 0, (uint64_t)i)));
    ACL_OK(aclrtFree(mem));
}

/* The parameter block is written to randomParaAddr by the call: the two
 * distribution fields (values, or addresses), the second 0 for the mask. */
static void test_param_block(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint8_t *mem = NULL;
    ACL_OK(aclrtMalloc((void **)&mem, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    uint64_t *gate = (uint64_t *)mem, *para = (uint64_t *)(mem + 64);
    const uint64_t zero = 0, one = 1, junk[2] = {~0ull, ~0ull};
    h2d(gate, &zero, 8);
    h2d(para, junk, 16);
    ACL_OK(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    aclrtRandomNumTaskInfo t = make_task(UNIFORM, ACL_FLOAT, inl(fbits(-2.0f), 4), adr(mem + 96, 4), inl(1, 8),
                                         inl(4, 8), g_counter, g_out);
    t.randomParaAddr = para;
    ACL_OK(aclrtRandomNumAsync(&t, s, NULL));
    uint64_t block[2];
    d2h(block, para, 16); /* written though the stream is held */
    assert_int_equal(block[0], fbits(-2.0f));
    assert_int_equal(block[1], (uint64_t)(uintptr_t)(mem + 96));
    h2d(para, junk, 16);
    t = make_task(DROPOUT, ACL_FLOAT16, inl(0x3800, 2), inl(0x1234, 2), inl(1, 8), inl(8, 8), g_counter, g_out);
    t.randomParaAddr = para;
    ACL_OK(aclrtRandomNumAsync(&t, s, NULL));
    d2h(block, para, 16);
    assert_int_equal(block[0], 0x3800);
    assert_int_equal(block[1], 0);
    const float hi = 3.0f;
    h2d(mem + 96, &hi, 4);
    h2d(gate, &one, 8);
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtFree(mem));
    ACL_OK(aclrtDestroyStream(s));
}

/* Addressed values the device cannot read fail the task when it runs
 * (507001), as does a count whose output does not fit. */
static void test_execution_faults(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    static uint64_t host_seed = 1;
    uint64_t *num_mem = NULL;
    ACL_OK(aclrtMalloc((void **)&num_mem, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    clear_out(64);
    aclrtRandomNumTaskInfo t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), adr(&host_seed, 8),
                                         inl(4, 8), g_counter, g_out);
    ACL_OK(aclrtRandomNumAsync(&t, s, NULL));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TS_ERROR, "the seed");
    const uint64_t too_many = OUT_END / 4 + 1;
    h2d(num_mem, &too_many, 8);
    t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(1, 8), adr(num_mem, 8), g_counter, g_out);
    ACL_OK(aclrtRandomNumAsync(&t, s, NULL));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TS_ERROR, "numbers need 8388644 bytes at the result address, its memory holds 8388640");
    t = make_task(NORMAL, ACL_FLOAT, adr(g_out, 4), adr((uint8_t *)g_out + OUT_END - 2, 4), inl(1, 8), inl(4, 8),
                  g_counter, g_out);
    ACL_OK(aclrtRandomNumAsync(&t, s, NULL));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TS_ERROR, "stddev");
    uint8_t out[64];
    d2h(out, g_out, 64);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], 0xA5);
    /* the stream works afterwards */
    t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(42, 8), inl(1, 8), g_counter, g_out);
    set_counter(0, 0);
    ACL_OK(aclrtRandomNumAsync(&t, s, NULL));
    ACL_OK(aclrtSynchronizeStream(s));
    float f;
    d2h(&f, g_out, 4);
    assert_true(fabs(f - 0.83545911) < 5e-9);
    ACL_OK(aclrtFree(num_mem));
    ACL_OK(aclrtDestroyStream(s));
}

/* ---- bad inputs ------------------------------------------------------------------------------- */

static aclrtRandomNumTaskInfo g_ok_task;

static void *no_context_call(void *arg)
{
    (void)arg;
    ACL_ERR(aclrtRandomNumAsync(&g_ok_task, NULL, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtRandomNumAsync");
    return NULL;
}

static void test_bad_inputs(void **state)
{
    (void)state;
    uint8_t *para = NULL;
    ACL_OK(aclrtMalloc((void **)&para, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    const uint64_t junk[2] = {0x1111111111111111ull, 0x2222222222222222ull};
    h2d(para, junk, 16);
    clear_out(64);
    const aclrtRandomNumTaskInfo ok = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(1, 8),
                                                inl(16, 8), g_counter, g_out);
    aclrtRandomNumTaskInfo t;
#define BAD(mutation, code, needle)                                                                                  \
    do {                                                                                                             \
        t = ok;                                                                                                      \
        t.randomParaAddr = para;                                                                                     \
        mutation;                                                                                                    \
        aclrtRandomNumTaskInfo before_ = t;                                                                          \
        ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), code, needle);                                                  \
        assert_memory_equal(&t, &before_, sizeof(t));                                                                \
    } while (0)

    ACL_ERR(aclrtRandomNumAsync(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
    BAD(t.dataType = ACL_INT8, ACL_ERROR_INVALID_PARAM, "dataType 2");
    BAD(t.dataType = ACL_DOUBLE, ACL_ERROR_INVALID_PARAM, "dataType 11");
    ACL_ERR(aclrtRandomNumAsync(&ok, NULL, (void *)1), ACL_ERROR_RT_PARAM_INVALID, "reserve");
    BAD(t.randomNumFuncParaInfo.funcType = (aclrtRandomNumFuncType)4, ACL_ERROR_RT_PARAM_INVALID, "funcType 4");
    BAD((t.randomNumFuncParaInfo.funcType = NORMAL, t.dataType = ACL_INT32), ACL_ERROR_RT_PARAM_INVALID,
        "dataType ACL_INT32 is not allowed for NORMAL_DIS");
    BAD((t.randomNumFuncParaInfo.funcType = DROPOUT, t.dataType = ACL_UINT64), ACL_ERROR_RT_PARAM_INVALID,
        "not allowed for DROPOUT_BITMASK");
    BAD((t.randomNumFuncParaInfo.funcType = TRUNCATED, t.dataType = ACL_INT64), ACL_ERROR_RT_PARAM_INVALID,
        "TRUNCATED_NORMAL_DIS");
    BAD(t.randomCounterAddr = NULL, ACL_ERROR_RT_PARAM_INVALID, "randomCounterAddr is NULL");
    BAD(t.randomResultAddr = NULL, ACL_ERROR_RT_PARAM_INVALID, "randomResultAddr is NULL");
    BAD(t.randomSeed.size = 9, ACL_ERROR_RT_PARAM_INVALID, "randomSeed: size 9 is outside 1..8");
    BAD(t.randomSeed.size = 0, ACL_ERROR_RT_PARAM_INVALID, "randomSeed: size 0");
    BAD(t.randomSeed.isAddr = 2, ACL_ERROR_RT_PARAM_INVALID, "randomSeed: isAddr 2");
    BAD(t.randomNum.size = 9, ACL_ERROR_RT_PARAM_INVALID, "randomNum: size 9");
    BAD(t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.size = 8, ACL_ERROR_RT_PARAM_INVALID,
        "max: size 8 is outside 1..4 for an inline value");
    BAD((t.dataType = ACL_FLOAT16, t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = inl(0x3C00, 4)),
        ACL_ERROR_RT_PARAM_INVALID, "min: size 4 is outside 1..2");
    BAD(t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.isAddr = 3, ACL_ERROR_RT_PARAM_INVALID, "min: isAddr 3");
    BAD(t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = adr(para, 9), ACL_ERROR_RT_PARAM_INVALID,
        "max: size 9 is outside 1..8");
    /* oacl's memory checks */
    static uint8_t host[64];
    BAD(t.randomCounterAddr = host, ACL_ERROR_RT_PARAM_INVALID, "randomCounterAddr");
    BAD(t.randomCounterAddr = (uint8_t *)g_out + OUT_END - 8, ACL_ERROR_RT_PARAM_INVALID, "run past the end");
    BAD(t.randomResultAddr = host, ACL_ERROR_RT_PARAM_INVALID, "randomResultAddr");
    BAD(t.randomNum = inl(OUT_END / 4 + 1, 8), ACL_ERROR_RT_PARAM_INVALID, "run past the end");
    BAD((t.randomNumFuncParaInfo.funcType = DROPOUT, t.randomNum = inl(OUT_END * 8 + 1, 8)),
        ACL_ERROR_RT_PARAM_INVALID, "run past the end");
    BAD(t.randomNum = inl(UINT64_MAX, 8), ACL_ERROR_RT_PARAM_INVALID, "exceed any memory");
    BAD(t.randomParaAddr = host, ACL_ERROR_RT_PARAM_INVALID, "randomParaAddr");
    /* streams */
    aclrtStream dead;
    ACL_OK(aclrtCreateStream(&dead));
    ACL_OK(aclrtDestroyStream(dead));
    t = ok;
    ACL_ERR(aclrtRandomNumAsync(&t, dead, NULL), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    aclrtContext mine, other;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream foreign;
    ACL_OK(aclrtCreateStream(&foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtRandomNumAsync(&t, foreign, NULL), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    g_ok_task = ok;
    oacl_test_run_thread(no_context_call, NULL);
#undef BAD
    /* nothing was written: neither the output nor the parameter block */
    ACL_OK(aclrtSynchronizeDevice());
    uint8_t out[64];
    d2h(out, g_out, 64);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], 0xA5);
    uint64_t block[2];
    d2h(block, para, 16);
    assert_memory_equal(block, junk, 16);
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtDestroyStream(foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtFree(para));
}

/* ---- SoC profiles (child processes) -------------------------------------------------------- */

static void child_unsupported(void)
{
    const char *soc = getenv("OACL_SOC");
    CHILD_OK(aclrtSetDevice(0));
    void *counter = NULL, *out = NULL;
    CHILD_OK(aclrtMalloc(&counter, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    const uint8_t sentinel[64] = {0};
    CHILD_OK(aclrtMemcpy(counter, 64, sentinel, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    CHILD_OK(aclrtMemcpy(out, 64, sentinel, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtRandomNumTaskInfo t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(42, 8), inl(8, 8),
                                         counter, out);
    char needle[96];
    snprintf(needle, sizeof(needle), "aclrtRandomNumAsync is not supported on %s", soc);
    CHILD_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    /* the API-layer checks and reserve come first */
    CHILD_ERR(aclrtRandomNumAsync(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
    CHILD_ERR(aclrtRandomNumAsync(&t, NULL, (void *)1), ACL_ERROR_RT_PARAM_INVALID, "reserve");
    t.randomNumFuncParaInfo.funcType = (aclrtRandomNumFuncType)7; /* checked after the profile */
    CHILD_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    CHILD_OK(aclrtSynchronizeDevice());
    uint8_t back[64];
    CHILD_OK(aclrtMemcpy(back, 64, out, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    CHILD_CHECK(memcmp(back, sentinel, 64) == 0);
    CHILD_OK(aclrtResetDevice(0));
}

static void child_supported(void)
{
    CHILD_OK(aclrtSetDevice(0));
    void *counter = NULL, *out = NULL;
    CHILD_OK(aclrtMalloc(&counter, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    const uint64_t c[2] = {0, 0};
    CHILD_OK(aclrtMemcpy(counter, 16, c, 16, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtRandomNumTaskInfo t = make_task(UNIFORM, ACL_FLOAT, inl(0, 4), inl(fbits(1.0f), 4), inl(42, 8), inl(1, 8),
                                         counter, out);
    CHILD_OK(aclrtRandomNumAsync(&t, NULL, NULL));
    CHILD_OK(aclrtSynchronizeStream(NULL));
    float f = 0;
    CHILD_OK(aclrtMemcpy(&f, 4, out, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    CHILD_CHECK(fabs(f - 0.83545911) < 5e-9);
    CHILD_OK(aclrtResetDevice(0));
}

static const struct oacl_child_mode g_modes[] = {{"unsupported", child_unsupported}, {"supported", child_supported}};

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("supported", "OACL_SOC=Ascend910B4");
    ASSERT_CHILD_OK("supported", "OACL_SOC=Ascend910_9382");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend950PR_9579");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend310B1");
    ASSERT_CHILD_OK("unsupported", "OACL_SOC=Ascend910A");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof(g_modes) / sizeof(g_modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_generator),
        cmocka_unit_test_setup_teardown(test_spec_reference_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uniform_types, setup, teardown),
        cmocka_unit_test_setup_teardown(test_normal_types, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dropout_types, setup, teardown),
        cmocka_unit_test_setup_teardown(test_statistics, setup, teardown),
        cmocka_unit_test_setup_teardown(test_determinism_and_offsets, setup, teardown),
        cmocka_unit_test_setup_teardown(test_value_timing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_value_sizes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_param_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_execution_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_inputs, setup, teardown),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
