/*
 * Vector primitives of the kernel-support ABI: portable scalar loops and
 * run-time dispatch to the AVX2/F16C versions in vec_ops_avx2.c.
 *
 * Dispatch: the exported functions call through one pointer to a const
 * table of implementations. The pointer starts NULL and the first call
 * resolves it from the CPU features; concurrent first calls compute the
 * same answer and a compare-and-swap keeps whichever landed first, so no
 * lock is needed. Each later call costs one load and an indirect call.
 */
#include <fenv.h>
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/fp16.h"
#include "device/cpu/kill_point.h"
#include "device/cpu/fp_overflow.h"
#include "device/cpu/vec_ops_impl.h"
#include "oacl/kernel_abi.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define OACL_VEC_X86 1
#include <cpuid.h>
#else
#define OACL_VEC_X86 0
#endif

_Atomic size_t oacl_vec_nt_min_bytes = OACL_VEC_NT_MIN_BYTES_DEFAULT;
_Atomic unsigned long oacl_vec_nt_calls = 0;

/* ---- portable implementation ----------------------------------------- */

static void scalar_vadd_f16(uint16_t *dst, const uint16_t *a, const uint16_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = oacl_f16_add(a[i], b[i]);
}

static void scalar_vadd_f32(float *dst, const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = a[i] + b[i];
}

/* Integer adds wrap: add in unsigned arithmetic (defined modulo 2^N), then
   convert back (GCC and Clang define that conversion as modulo too). */
static void scalar_vadd_i32(int32_t *dst, const int32_t *a, const int32_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (int32_t)((uint32_t)a[i] + (uint32_t)b[i]);
}

static void scalar_vadd_i16(int16_t *dst, const int16_t *a, const int16_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (int16_t)(uint16_t)((uint32_t)(uint16_t)a[i] + (uint16_t)b[i]);
}

static void scalar_cvt_f16_to_f32(float *dst, const uint16_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = oacl_f16_to_f32(src[i]);
}

static void scalar_cvt_f32_to_f16(uint16_t *dst, const float *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = oacl_f32_to_f16(src[i]);
}

/* ---- binary operations: the reference element rules ----------------- */

/* f16: exact inputs, one float operation, one rounding (see oacl_f16_add);
   products of two 11-bit significands are exact in float, and float
   division keeps 24 >= 2 * 11 + 2 bits, so the double rounding is
   harmless. max/min select an operand's bits. */
static inline uint16_t f16_bin(int op, uint16_t a, uint16_t b)
{
    const float x = oacl_f16_to_f32(a), y = oacl_f16_to_f32(b);
    float r;
    switch (op) {
    case OACL_VOP_ADD: r = x + y; break;
    case OACL_VOP_SUB: r = x - y; break;
    case OACL_VOP_MUL: r = x * y; break;
    case OACL_VOP_DIV: r = x / y; break;
    case OACL_VOP_MAX:
        if (x != x || y != y)
            return oacl_f16_add_nan(a, b);
        return x > y ? a : b;
    default: /* OACL_VOP_MIN */
        if (x != x || y != y)
            return oacl_f16_add_nan(a, b);
        return x < y ? a : b;
    }
    if (r != r)
        return oacl_f16_add_nan(a, b);
    return oacl_f32_to_f16(r);
}

/* f32: IEEE arithmetic as the FPU does it; max/min with the NaN rule. */
static inline float f32_bin(int op, float x, float y)
{
    switch (op) {
    case OACL_VOP_ADD: return x + y;
    case OACL_VOP_SUB: return x - y;
    case OACL_VOP_MUL: return x * y;
    case OACL_VOP_DIV: return x / y;
    case OACL_VOP_MAX: return (x != x || y != y) ? oacl_f32_nan(x, y) : x > y ? x : y;
    default: return (x != x || y != y) ? oacl_f32_nan(x, y) : x < y ? x : y;
    }
}

/* Integers wrap: compute in unsigned arithmetic (defined modulo 2^N), then
   convert back (GCC and Clang define that conversion as modulo too). */
static inline int32_t i32_bin(int op, int32_t x, int32_t y)
{
    switch (op) {
    case OACL_VOP_ADD: return (int32_t)((uint32_t)x + (uint32_t)y);
    case OACL_VOP_SUB: return (int32_t)((uint32_t)x - (uint32_t)y);
    case OACL_VOP_MUL: return (int32_t)((uint32_t)x * (uint32_t)y);
    case OACL_VOP_MAX: return x > y ? x : y;
    default: return x < y ? x : y;
    }
}

static inline int16_t i16_bin(int op, int16_t x, int16_t y)
{
    const uint32_t ux = (uint16_t)x, uy = (uint16_t)y;
    switch (op) {
    case OACL_VOP_ADD: return (int16_t)(uint16_t)(ux + uy);
    case OACL_VOP_SUB: return (int16_t)(uint16_t)(ux - uy);
    case OACL_VOP_MUL: return (int16_t)(uint16_t)(ux * uy);
    case OACL_VOP_MAX: return x > y ? x : y;
    default: return x < y ? x : y;
    }
}

#define SCALAR_BIN(fn, T, elem, OP)                                                                                \
    static void fn(void *dst, const void *a, const void *b, size_t n)                                              \
    {                                                                                                              \
        T *d = dst;                                                                                                \
        const T *x = a, *y = b;                                                                                    \
        for (size_t i = 0; i < n; i++)                                                                             \
            d[i] = elem(OP, x[i], y[i]);                                                                           \
    }
#define SCALAR_BIN_TYPES(op, OP)                                                                                   \
    SCALAR_BIN(scalar_##op##_f16, uint16_t, f16_bin, OP)                                                           \
    SCALAR_BIN(scalar_##op##_f32, float, f32_bin, OP)                                                              \
    SCALAR_BIN(scalar_##op##_i32, int32_t, i32_bin, OP)                                                            \
    SCALAR_BIN(scalar_##op##_i16, int16_t, i16_bin, OP)

SCALAR_BIN_TYPES(add, OACL_VOP_ADD)
SCALAR_BIN_TYPES(sub, OACL_VOP_SUB)
SCALAR_BIN_TYPES(mul, OACL_VOP_MUL)
SCALAR_BIN_TYPES(max, OACL_VOP_MAX)
SCALAR_BIN_TYPES(min, OACL_VOP_MIN)
SCALAR_BIN(scalar_div_f16, uint16_t, f16_bin, OACL_VOP_DIV)
SCALAR_BIN(scalar_div_f32, float, f32_bin, OACL_VOP_DIV)

#define ROW(op) {scalar_##op##_f16, scalar_##op##_f32, scalar_##op##_i32, scalar_##op##_i16}

const struct oacl_vec_ops oacl_vec_ops_scalar = {
    .vadd_f16 = scalar_vadd_f16,
    .vadd_f32 = scalar_vadd_f32,
    .vadd_i32 = scalar_vadd_i32,
    .vadd_i16 = scalar_vadd_i16,
    .cvt_f16_to_f32 = scalar_cvt_f16_to_f32,
    .cvt_f32_to_f16 = scalar_cvt_f32_to_f16,
    .bin = {ROW(add), ROW(sub), ROW(mul), {scalar_div_f16, scalar_div_f32, NULL, NULL}, ROW(max), ROW(min)},
};

/* ---- dispatch ------------------------------------------------------------ */

static _Atomic(const struct oacl_vec_ops *) g_vec_ops;

#if OACL_VEC_X86
/* F16C straight from CPUID leaf 1, ECX bit 29: older Clang's
   __builtin_cpu_supports does not know "f16c". */
static int cpu_has_f16c(void)
{
    unsigned eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 29)) != 0;
}
#endif

/* The AVX2 table if the build has it and the CPU and OS can run it.
   __builtin_cpu_supports("avx2") also checks (XGETBV) that the OS saves
   the YMM state, which the VEX-encoded F16C instructions need as well. */
static const struct oacl_vec_ops *avx2_table_if_usable(void)
{
#if OACL_VEC_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && cpu_has_f16c())
        return oacl_vec_ops_avx2();
#endif
    return NULL;
}

static const struct oacl_vec_ops *best_table(void)
{
    const struct oacl_vec_ops *t = avx2_table_if_usable();
    return t ? t : &oacl_vec_ops_scalar;
}

/* Once per process; out of line so that each exported vector call is a
   load and a tail call with no stack frame. */
static __attribute__((noinline, cold)) const struct oacl_vec_ops *vec_ops_slow(void)
{
    const struct oacl_vec_ops *expected = NULL;
    const struct oacl_vec_ops *t = best_table();
    /* Keep a table another thread (or oacl_vec_select_isa) stored first. */
    if (!atomic_compare_exchange_strong_explicit(&g_vec_ops, &expected, t, memory_order_acq_rel,
                                                 memory_order_acquire))
        t = expected;
    return t;
}

static inline const struct oacl_vec_ops *vec_ops(void)
{
    const struct oacl_vec_ops *t = atomic_load_explicit(&g_vec_ops, memory_order_acquire);
    return t ? t : vec_ops_slow();
}

int oacl_vec_select_isa(enum oacl_vec_isa isa)
{
    const struct oacl_vec_ops *t;
    switch (isa) {
    case OACL_VEC_ISA_AUTO:
        t = best_table();
        break;
    case OACL_VEC_ISA_SCALAR:
        t = &oacl_vec_ops_scalar;
        break;
    case OACL_VEC_ISA_AVX2:
        t = avx2_table_if_usable();
        break;
    default:
        t = NULL;
        break;
    }
    if (t == NULL)
        return 0;
    atomic_store_explicit(&g_vec_ops, t, memory_order_release);
    return 1;
}

enum oacl_vec_isa oacl_vec_active_isa(void)
{
    return vec_ops() == &oacl_vec_ops_scalar ? OACL_VEC_ISA_SCALAR : OACL_VEC_ISA_AVX2;
}

/* ---- exported entry points ------------------------------------------------ */

OACL_KAPI void oacl_memmove(void *dst, const void *src, size_t n)
{
    oacl_kernel_kill_point(); /* DataCopy: where a killed block's loop stops */
    memmove(dst, src, n);
}

/* ---- float overflow slow path (fp_overflow.c): jobs for oacl_fp_map -------- */

/* Binary operations and the typed adds: results off..off+m-1. */
struct bin_job {
    oacl_vbin_fn f;
    const unsigned char *a, *b;
    size_t es;
};
static void bin_compute(const void *job, void *tmp, size_t off, size_t m)
{
    const struct bin_job *j = job;
    j->f(tmp, j->a + off * j->es, j->b + off * j->es, m);
}
static void vadd_f16_fn(void *d, const void *a, const void *b, size_t n) { vec_ops()->vadd_f16(d, a, b, n); }
static void vadd_f32_fn(void *d, const void *a, const void *b, size_t n) { vec_ops()->vadd_f32(d, a, b, n); }

#define FP_SLOW __attribute__((noinline, cold))

FP_SLOW static void fp_binary(oacl_vbin_fn f, int dtype, void *dst, const void *a, const void *b, size_t n)
{
    const struct bin_job j = {f, a, b, dtype == OACL_DT_F32 ? 4u : 2u};
    oacl_fp_map(dtype, dst, n, dtype, a, 1, b, 1, bin_compute, &j);
}

OACL_KAPI void oacl_vadd_f16(uint16_t *dst, const uint16_t *a, const uint16_t *b, size_t n)
{
    if (oacl_fp_active())
        fp_binary(vadd_f16_fn, OACL_DT_F16, dst, a, b, n);
    else
        vec_ops()->vadd_f16(dst, a, b, n);
}

OACL_KAPI void oacl_vadd_f32(float *dst, const float *a, const float *b, size_t n)
{
    if (oacl_fp_active())
        fp_binary(vadd_f32_fn, OACL_DT_F32, dst, a, b, n);
    else
        vec_ops()->vadd_f32(dst, a, b, n);
}

OACL_KAPI void oacl_vadd_i32(int32_t *dst, const int32_t *a, const int32_t *b, size_t n)
{
    vec_ops()->vadd_i32(dst, a, b, n);
}

OACL_KAPI void oacl_vadd_i16(int16_t *dst, const int16_t *a, const int16_t *b, size_t n)
{
    vec_ops()->vadd_i16(dst, a, b, n);
}

OACL_KAPI void oacl_cvt_f16_to_f32(float *dst, const uint16_t *src, size_t n)
{
    vec_ops()->cvt_f16_to_f32(dst, src, n);
}

static void cvt_compute(const void *job, void *tmp, size_t off, size_t m)
{
    vec_ops()->cvt_f32_to_f16(tmp, (const float *)job + off, m);
}

FP_SLOW static void fp_cvt_f32_to_f16(uint16_t *dst, const float *src, size_t n)
{
    oacl_fp_map(OACL_DT_F16, dst, n, OACL_DT_F32, src, 1, NULL, 0, cvt_compute, src);
}

OACL_KAPI void oacl_cvt_f32_to_f16(uint16_t *dst, const float *src, size_t n)
{
    if (oacl_fp_active())
        fp_cvt_f32_to_f16(dst, src, n);
    else
        vec_ops()->cvt_f32_to_f16(dst, src, n);
}

/* ---- generic primitives ------------------------------------------------------ */

static size_t dtype_size(int dt)
{
    switch (dt) {
    case OACL_DT_I8: case OACL_DT_U8: return 1;
    case OACL_DT_F16: case OACL_DT_I16: case OACL_DT_U16: case OACL_DT_BF16: return 2;
    case OACL_DT_F32: case OACL_DT_I32: case OACL_DT_U32: return 4;
    case OACL_DT_I64: case OACL_DT_U64: return 8;
    default: return 0;
    }
}

/* The binary implementation for (op, dtype): this ISA's, else the scalar
   one; NULL if the combination does not exist. */
static oacl_vbin_fn bin_fn(int op, int dtype)
{
    const int t = oacl_vtype_index(dtype);
    if (op < OACL_VOP_ADD || op > OACL_VOP_MIN || t < 0)
        return NULL;
    oacl_vbin_fn f = vec_ops()->bin[op - OACL_VOP_ADD][t];
    return f ? f : oacl_vec_ops_scalar.bin[op - OACL_VOP_ADD][t];
}

OACL_KAPI int oacl_vbinary(int op, int dtype, void *dst, const void *a, const void *b, size_t n)
{
    oacl_kernel_kill_point();
    oacl_vbin_fn f = bin_fn(op, dtype);
    if (!f)
        return -1;
    if (oacl_fp_active() && oacl_fp_is_float(dtype))
        fp_binary(f, dtype, dst, a, b, n);
    else
        f(dst, a, b, n);
    return 0;
}

/* f16 NaN results of unary operations: the operand quieted, else the
   default NaN (libm's NaN sign differs between hosts). */
static inline uint16_t f16_un_nan(uint16_t h) { return oacl_f16_is_nan(h) ? (uint16_t)(h | 0x0200u) : 0x7E00u; }

static inline uint16_t f16_un(int op, uint16_t h)
{
    const float x = oacl_f16_to_f32(h);
    uint16_t r;
    switch (op) {
    case OACL_VOP_EXP: r = oacl_f64_to_f16(exp((double)x)); break;
    case OACL_VOP_LN: r = oacl_f64_to_f16(log((double)x)); break;
    case OACL_VOP_ABS: return (uint16_t)(h & 0x7FFFu);
    case OACL_VOP_RELU: return f16_bin(OACL_VOP_MAX, h, 0);
    case OACL_VOP_SQRT: r = oacl_f32_to_f16(sqrtf(x)); break;        /* exact, as division */
    case OACL_VOP_RSQRT: r = oacl_f64_to_f16(1.0 / sqrt((double)x)); break;
    default: r = oacl_f32_to_f16(1.0f / x); break;                    /* RECIP, exact */
    }
    return oacl_f16_is_nan(r) ? f16_un_nan(h) : r;
}

static inline float f32_un(int op, float x)
{
    float r;
    switch (op) {
    case OACL_VOP_EXP: r = (float)exp((double)x); break;
    case OACL_VOP_LN: r = (float)log((double)x); break;
    case OACL_VOP_ABS: return oacl_f32_from_bits(oacl_f32_bits(x) & 0x7FFFFFFFu);
    case OACL_VOP_RELU: return f32_bin(OACL_VOP_MAX, x, 0.0f);
    case OACL_VOP_SQRT: r = sqrtf(x); break;
    case OACL_VOP_RSQRT: r = (float)(1.0 / sqrt((double)x)); break;
    default: r = 1.0f / x; break;
    }
    return r != r ? oacl_f32_nan(x, 0.0f) : r;
}

static int vunary_impl(int op, int dtype, void *dst, const void *src, size_t n)
{
    oacl_kernel_kill_point();
    if (op < OACL_VOP_EXP || op > OACL_VOP_RECIP)
        return -1;
    switch (dtype) {
    case OACL_DT_F16: {
        uint16_t *d = dst;
        const uint16_t *s = src;
        for (size_t i = 0; i < n; i++)
            d[i] = f16_un(op, s[i]);
        return 0;
    }
    case OACL_DT_F32: {
        float *d = dst;
        const float *s = src;
        for (size_t i = 0; i < n; i++)
            d[i] = f32_un(op, s[i]);
        return 0;
    }
    case OACL_DT_I32:
        if (op != OACL_VOP_RELU)
            return -1;
        {
            int32_t *d = dst;
            const int32_t *s = src;
            for (size_t i = 0; i < n; i++)
                d[i] = s[i] > 0 ? s[i] : 0;
        }
        return 0;
    default:
        return -1;
    }
}

static int vscalar_impl(int op, int dtype, void *dst, const void *src, const void *scalar, size_t n)
{
    oacl_kernel_kill_point();
    const size_t es = dtype_size(dtype);
    if (!es)
        return -1;
    if (op == OACL_VOP_DUP) {
        unsigned char *d = dst;
        for (size_t i = 0; i < n; i++)
            memcpy(d + i * es, scalar, es);
        return 0;
    }
    if (op == OACL_VOP_LEAKY_RELU) {
        if (dtype == OACL_DT_F16) {
            uint16_t s, *d = dst;
            const uint16_t *x = src;
            memcpy(&s, scalar, sizeof s);
            for (size_t i = 0; i < n; i++)
                d[i] = oacl_f16_to_f32(x[i]) >= 0.0f ? x[i] : f16_bin(OACL_VOP_MUL, x[i], s);
            return 0;
        }
        if (dtype == OACL_DT_F32) {
            float s, *d = dst;
            const float *x = src;
            memcpy(&s, scalar, sizeof s);
            for (size_t i = 0; i < n; i++)
                d[i] = x[i] >= 0.0f ? x[i] : x[i] * s;
            return 0;
        }
        return -1;
    }
    static const int as_binary[] = {OACL_VOP_ADD, OACL_VOP_MUL, OACL_VOP_MAX, OACL_VOP_MIN};
    if (op < OACL_VOP_ADDS || op > OACL_VOP_MINS)
        return -1;
    oacl_vbin_fn f = bin_fn(as_binary[op - OACL_VOP_ADDS], dtype);
    if (!f)
        return -1;
    /* The binary implementation against a block of copies of the scalar:
       the same results, and the SIMD versions for free. */
    _Alignas(32) unsigned char block[1024];
    const size_t per = sizeof(block) / es, fill = n < per ? n : per;
    for (size_t i = 0; i < fill; i++)
        memcpy(block + i * es, scalar, es);
    unsigned char *d = dst;
    const unsigned char *x = src;
    for (size_t i = 0; i < n; i += per) {
        const size_t m = n - i < per ? n - i : per;
        f(d + i * es, x + i * es, block, m);
    }
    return 0;
}

static int vreduce_impl(int op, int dtype, void *dst, const void *src, size_t n, int with_index)
{
    if ((dtype != OACL_DT_F16 && dtype != OACL_DT_F32) || op < OACL_VOP_REDUCE_SUM || op > OACL_VOP_REDUCE_MIN ||
        (with_index && op == OACL_VOP_REDUCE_SUM))
        return -1;
    if (n == 0)
        return 0;
    const bool f16 = dtype == OACL_DT_F16;
    const uint16_t *h = src;
    const float *f = src;
#define ELEM(i) (f16 ? (double)oacl_f16_to_f32(h[i]) : (double)f[i])
    size_t best = 0, nan_at = SIZE_MAX;
    double acc = ELEM(0);
    if (acc != acc)
        nan_at = 0;
    for (size_t i = 1; i < n && nan_at == SIZE_MAX; i++) {
        const double v = ELEM(i);
        if (v != v)
            nan_at = i;
        else if (op == OACL_VOP_REDUCE_SUM)
            acc += v; /* in order, in double; rounded once at the end */
        else if (op == OACL_VOP_REDUCE_MAX ? v > acc : v < acc) {
            acc = v;
            best = i;
        }
    }
#undef ELEM
    uint16_t *dh = dst;
    float *df = dst;
    if (nan_at != SIZE_MAX) {
        best = nan_at;
        if (f16)
            dh[0] = (uint16_t)(h[nan_at] | 0x0200u);
        else
            df[0] = oacl_f32_nan(f[nan_at], 0.0f);
    } else if (acc != acc) { /* inf + -inf */
        if (f16)
            dh[0] = 0x7E00u;
        else
            df[0] = oacl_f32_from_bits(0x7FC00000u);
    } else if (op != OACL_VOP_REDUCE_SUM) {
        if (f16)
            dh[0] = h[best]; /* the element itself (keeps the sign of zero) */
        else
            df[0] = f[best];
    } else if (f16) {
        dh[0] = oacl_f64_to_f16(acc);
    } else {
        df[0] = (float)acc;
    }
    if (with_index) {
        if (f16)
            dh[1] = (uint16_t)best;
        else {
            const uint32_t idx = (uint32_t)best;
            memcpy(&df[1], &idx, sizeof idx);
        }
    }
    return 0;
}

/* Unary and scalar operations, chunked for the overflow slow path. */
struct op_job {
    int op, dtype;
    const unsigned char *src;
    const void *scalar;
    size_t es;
};
static void unary_compute(const void *job, void *tmp, size_t off, size_t m)
{
    const struct op_job *j = job;
    (void)vunary_impl(j->op, j->dtype, tmp, j->src + off * j->es, m);
}
static void scalar_compute(const void *job, void *tmp, size_t off, size_t m)
{
    const struct op_job *j = job;
    (void)vscalar_impl(j->op, j->dtype, tmp, j->src + off * j->es, j->scalar, m);
}

/* Each public entry: the unchanged implementation, unless the running block
   detects or saturates float overflow. A call with n = 0 validates the
   combination without writing anything. */
FP_SLOW static int fp_vunary(int op, int dtype, void *dst, const void *src, size_t n)
{
    if (vunary_impl(op, dtype, dst, src, 0))
        return -1;
    const struct op_job j = {op, dtype, src, NULL, dtype == OACL_DT_F32 ? 4u : 2u};
    oacl_fp_map(dtype, dst, n, dtype, src, 1, NULL, 0, unary_compute, &j);
    return 0;
}

OACL_KAPI int oacl_vunary(int op, int dtype, void *dst, const void *src, size_t n)
{
    if (!oacl_fp_active() || !oacl_fp_is_float(dtype))
        return vunary_impl(op, dtype, dst, src, n);
    return fp_vunary(op, dtype, dst, src, n);
}

FP_SLOW static int fp_vscalar(int op, int dtype, void *dst, const void *src, const void *scalar, size_t n)
{
    if (vscalar_impl(op, dtype, dst, src, scalar, 0))
        return -1;
    const struct op_job j = {op, dtype, src, scalar, dtype == OACL_DT_F32 ? 4u : 2u};
    oacl_fp_map(dtype, dst, n, dtype, src, 1, scalar, 0, scalar_compute, &j);
    return 0;
}

OACL_KAPI int oacl_vscalar(int op, int dtype, void *dst, const void *src, const void *scalar, size_t n)
{
    if (!oacl_fp_active() || !oacl_fp_is_float(dtype) || op == OACL_VOP_DUP)
        return vscalar_impl(op, dtype, dst, src, scalar, n);
    return fp_vscalar(op, dtype, dst, src, scalar, n);
}

FP_SLOW static int fp_vreduce(int op, int dtype, void *dst, const void *src, size_t n, int with_index)
{
    if (vreduce_impl(op, dtype, dst, src, 0, with_index))
        return -1;
    fexcept_t saved;
    fegetexceptflag(&saved, FE_ALL_EXCEPT);
    _Alignas(8) unsigned char res[8];
    (void)vreduce_impl(op, dtype, res, src, n, with_index);
    oacl_fp_reduce_check(dtype, res, src, n);
    memcpy(dst, res, (with_index ? 2u : 1u) * (dtype == OACL_DT_F32 ? 4u : 2u));
    fesetexceptflag(&saved, FE_ALL_EXCEPT);
    return 0;
}

OACL_KAPI int oacl_vreduce(int op, int dtype, void *dst, const void *src, size_t n, int with_index)
{
    if (!oacl_fp_active() || n == 0)
        return vreduce_impl(op, dtype, dst, src, n, with_index);
    return fp_vreduce(op, dtype, dst, src, n, with_index);
}

/* ---- casts -------------------------------------------------------------------- */

#define CAST_M(mode) (1u << (mode))
#define M_ROUNDING                                                                                                   \
    (CAST_M(OACL_ROUND_RINT) | CAST_M(OACL_ROUND_FLOOR) | CAST_M(OACL_ROUND_CEIL) | CAST_M(OACL_ROUND_ROUND) |        \
     CAST_M(OACL_ROUND_TRUNC))

/* The modes AscendC's Cast accepts for src -> dst on arch 2201 (0: none). */
static unsigned cast_modes(int dt, int st)
{
    switch (st) {
    case OACL_DT_F16:
        if (dt == OACL_DT_F32)
            return CAST_M(OACL_ROUND_NONE);
        if (dt == OACL_DT_I32 || dt == OACL_DT_I16)
            return M_ROUNDING;
        if (dt == OACL_DT_I8 || dt == OACL_DT_U8)
            return M_ROUNDING | CAST_M(OACL_ROUND_NONE);
        return 0;
    case OACL_DT_F32:
        if (dt == OACL_DT_F16)
            return M_ROUNDING | CAST_M(OACL_ROUND_NONE) | CAST_M(OACL_ROUND_ODD);
        if (dt == OACL_DT_F32 || dt == OACL_DT_I32 || dt == OACL_DT_I16 || dt == OACL_DT_I64 || dt == OACL_DT_BF16)
            return M_ROUNDING;
        return 0;
    case OACL_DT_I32:
        if (dt == OACL_DT_F32)
            return M_ROUNDING | CAST_M(OACL_ROUND_NONE);
        return dt == OACL_DT_I16 || dt == OACL_DT_I64 ? CAST_M(OACL_ROUND_NONE) : 0;
    case OACL_DT_I16:
        return dt == OACL_DT_F16 || dt == OACL_DT_F32 ? CAST_M(OACL_ROUND_NONE) : 0;
    case OACL_DT_I8:
    case OACL_DT_U8:
        return dt == OACL_DT_F16 ? CAST_M(OACL_ROUND_NONE) : 0;
    case OACL_DT_BF16:
        if (dt == OACL_DT_F32)
            return CAST_M(OACL_ROUND_NONE);
        return dt == OACL_DT_I32 ? M_ROUNDING : 0;
    case OACL_DT_I64:
        if (dt == OACL_DT_F32)
            return M_ROUNDING | CAST_M(OACL_ROUND_NONE);
        return dt == OACL_DT_I32 ? CAST_M(OACL_ROUND_NONE) : 0;
    default:
        return 0;
    }
}

/* A floating-point format narrower than double, by its magnitude bit
   patterns (which order like the magnitudes): `inf` is the pattern of
   infinity, `past_max` the power of two the largest finite rounds toward. */
struct ffmt {
    uint32_t inf;
    double past_max;
    uint32_t (*rne)(double ax); /* |x| rounded to nearest even */
    double (*value)(uint32_t m);
};

static uint32_t f16_rne(double ax) { return oacl_f64_to_f16(ax); }
static double f16_value(uint32_t m) { return oacl_f16_to_f32((uint16_t)m); }

/* float -> bfloat16 (round to nearest even); NaN handled by callers. */
static uint16_t f32_to_bf16(float f)
{
    const uint32_t u = oacl_f32_bits(f);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
static float bf16_to_f32(uint16_t b) { return oacl_f32_from_bits((uint32_t)b << 16); }
/* Via a float rounded to odd: bfloat16 has 8 <= 24 - 2 significand bits. */
static uint32_t bf16_rne(double ax) { return f32_to_bf16(oacl_f64_to_f32_odd(ax)); }
static double bf16_value(uint32_t m) { return bf16_to_f32((uint16_t)m); }

static uint32_t f32_rne(double ax) { return oacl_f32_bits((float)ax); }
static double f32_value(uint32_t m) { return oacl_f32_from_bits(m); }

static const struct ffmt FMT_F16 = {0x7C00u, 65536.0, f16_rne, f16_value};
static const struct ffmt FMT_BF16 = {0x7F80u, 0x1p128, bf16_rne, bf16_value};
static const struct ffmt FMT_F32 = {0x7F800000u, 0x1p128, f32_rne, f32_value};

/*
 * x (not NaN) rounded into format f with `mode`; returns the magnitude
 * pattern and sets *neg. x is either exact or already rounded to odd at
 * double precision (int64 sources), which keeps every mode correct: the
 * odd value lies strictly between the same two neighbours as the exact
 * one and is never a midpoint.
 */
static uint32_t round_fmt(const struct ffmt *f, double x, int mode, bool *neg)
{
    *neg = signbit(x) != 0;
    const double ax = fabs(x);
    const uint32_t m0 = f->rne(ax);
    if (f->value(m0) == ax || mode == OACL_ROUND_NONE || mode == OACL_ROUND_RINT)
        return m0;
    /* ax lies strictly between the neighbours lo < hi (hi may be inf). */
    const uint32_t lo = f->value(m0) < ax ? m0 : m0 - 1u, hi = lo + 1u;
    switch (mode) {
    case OACL_ROUND_FLOOR: return *neg ? hi : lo;
    case OACL_ROUND_CEIL: return *neg ? lo : hi;
    case OACL_ROUND_TRUNC: return lo;
    case OACL_ROUND_ODD: return (lo & 1u) ? lo : hi;
    default: { /* ROUND: nearest, ties away from zero; both gaps are exact */
        const double up = (hi == f->inf ? f->past_max : f->value(hi)) - ax, down = ax - f->value(lo);
        return down < up ? lo : hi;
    }
    }
}

/* int64 -> double rounded to odd (exact below 2^53). */
static double i64_to_f64_odd(int64_t v)
{
    uint64_t u = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    int shift = 0;
    bool sticky = false;
    while (u >= (UINT64_C(1) << 53)) {
        sticky |= (u & 1u) != 0;
        u >>= 1;
        shift++;
    }
    const double d = ldexp((double)(u | (sticky ? 1u : 0u)), shift);
    return v < 0 ? -d : d;
}

static double round_integral(double x, int mode)
{
    switch (mode) {
    case OACL_ROUND_FLOOR: return floor(x);
    case OACL_ROUND_CEIL: return ceil(x);
    case OACL_ROUND_ROUND: return round(x);
    case OACL_ROUND_TRUNC: return trunc(x);
    default: return nearbyint(x); /* NONE, RINT: ties to even in the default mode */
    }
}

/* x rounded to an integer with `mode`, saturated to [lo, hi]; NaN -> 0. */
static int64_t to_int(double x, int mode, int64_t lo, int64_t hi)
{
    if (x != x)
        return 0;
    const double r = round_integral(x, mode);
    if (r <= (double)lo)
        return lo;
    if (r >= (double)hi) /* (double)INT64_MAX is 2^63, so >= catches it */
        return hi;
    return (int64_t)r;
}

static int vcast_impl(int dt, int st, int mode, void *dst, const void *src, size_t n)
{
    if (mode < 0 || mode > OACL_ROUND_ODD || !(cast_modes(dt, st) & CAST_M(mode)))
        return -1;
    if (st == OACL_DT_F16 && dt == OACL_DT_F32) {
        vec_ops()->cvt_f16_to_f32(dst, src, n);
        return 0;
    }
    if (st == OACL_DT_F32 && dt == OACL_DT_F16 && (mode == OACL_ROUND_NONE || mode == OACL_ROUND_RINT)) {
        vec_ops()->cvt_f32_to_f16(dst, src, n);
        return 0;
    }
    const size_t ss = dtype_size(st), ds = dtype_size(dt);
    const unsigned char *s = src;
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = s + i * ss;
        unsigned char *q = d + i * ds;
        double x;
        uint32_t nan_bits = 0; /* float->float: the source NaN as an f32 pattern */
        switch (st) {
        case OACL_DT_F16: { uint16_t v; memcpy(&v, p, 2); x = oacl_f16_to_f32(v); break; }
        case OACL_DT_BF16: { uint16_t v; memcpy(&v, p, 2); x = bf16_to_f32(v); break; }
        case OACL_DT_F32: { float v; memcpy(&v, p, 4); x = v; nan_bits = oacl_f32_bits(v) | 0x00400000u; break; }
        case OACL_DT_I32: { int32_t v; memcpy(&v, p, 4); x = v; break; }
        case OACL_DT_I16: { int16_t v; memcpy(&v, p, 2); x = v; break; }
        case OACL_DT_I8: { int8_t v; memcpy(&v, p, 1); x = v; break; }
        case OACL_DT_U8: x = *p; break;
        default: { /* I64 */
            int64_t v;
            memcpy(&v, p, 8);
            if (dt == OACL_DT_I32) {
                const int32_t r = v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int32_t)v;
                memcpy(q, &r, 4);
                continue;
            }
            x = i64_to_f64_odd(v);
            break;
        }
        }
        switch (dt) {
        case OACL_DT_F16:
        case OACL_DT_BF16: {
            uint16_t r;
            if (x != x) {
                r = dt == OACL_DT_F16 ? oacl_f32_to_f16(oacl_f32_from_bits(nan_bits))
                                      : (uint16_t)((nan_bits >> 16) | 0x0040u);
            } else {
                bool neg;
                r = (uint16_t)round_fmt(dt == OACL_DT_F16 ? &FMT_F16 : &FMT_BF16, x, mode, &neg);
                r = (uint16_t)(r | (neg ? 0x8000u : 0u));
            }
            memcpy(q, &r, 2);
            break;
        }
        case OACL_DT_F32: {
            uint32_t r;
            if (x != x) {
                /* bf16 sources: widen the pattern, quieted */
                if (st == OACL_DT_BF16) {
                    uint16_t v;
                    memcpy(&v, p, 2);
                    r = ((uint32_t)v << 16) | 0x00400000u;
                } else {
                    r = nan_bits;
                }
            } else if (st == OACL_DT_F32) {
                r = oacl_f32_bits((float)round_integral(x, mode)); /* to an integral value */
            } else {
                bool neg;
                r = round_fmt(&FMT_F32, x, mode, &neg) | (neg ? 0x80000000u : 0u);
            }
            memcpy(q, &r, 4);
            break;
        }
        case OACL_DT_I32: { const int32_t r = (int32_t)to_int(x, mode, INT32_MIN, INT32_MAX); memcpy(q, &r, 4); break; }
        case OACL_DT_I16: { const int16_t r = (int16_t)to_int(x, mode, INT16_MIN, INT16_MAX); memcpy(q, &r, 2); break; }
        case OACL_DT_I8: { const int8_t r = (int8_t)to_int(x, mode, INT8_MIN, INT8_MAX); memcpy(q, &r, 1); break; }
        case OACL_DT_U8: { const uint8_t r = (uint8_t)to_int(x, mode, 0, UINT8_MAX); memcpy(q, &r, 1); break; }
        default: { const int64_t r = to_int(x, mode, INT64_MIN, INT64_MAX); memcpy(q, &r, 8); break; }
        }
    }
    return 0;
}

struct cast_job {
    int dt, st, mode;
    const unsigned char *src;
    size_t ss;
};
static void cast_compute(const void *job, void *tmp, size_t off, size_t m)
{
    const struct cast_job *j = job;
    (void)vcast_impl(j->dt, j->st, j->mode, tmp, j->src + off * j->ss, m);
}

FP_SLOW static int fp_vcast(int dt, int st, int mode, void *dst, const void *src, size_t n)
{
    if (vcast_impl(dt, st, mode, dst, src, 0))
        return -1;
    const struct cast_job j = {dt, st, mode, src, dtype_size(st)};
    oacl_fp_map(dt, dst, n, st, src, 1, NULL, 0, cast_compute, &j);
    return 0;
}

OACL_KAPI int oacl_vcast(int dt, int st, int mode, void *dst, const void *src, size_t n)
{
    if (!oacl_fp_active() || !oacl_fp_is_float(dt))
        return vcast_impl(dt, st, mode, dst, src, n);
    return fp_vcast(dt, st, mode, dst, src, n);
}
