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
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fp16.h"
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

const struct oacl_vec_ops oacl_vec_ops_scalar = {
    .vadd_f16 = scalar_vadd_f16,
    .vadd_f32 = scalar_vadd_f32,
    .vadd_i32 = scalar_vadd_i32,
    .vadd_i16 = scalar_vadd_i16,
    .cvt_f16_to_f32 = scalar_cvt_f16_to_f32,
    .cvt_f32_to_f16 = scalar_cvt_f32_to_f16,
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

static const struct oacl_vec_ops *vec_ops_slow(void)
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

OACL_KAPI void oacl_vadd_f16(uint16_t *dst, const uint16_t *a, const uint16_t *b, size_t n)
{
    vec_ops()->vadd_f16(dst, a, b, n);
}

OACL_KAPI void oacl_vadd_f32(float *dst, const float *a, const float *b, size_t n)
{
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

OACL_KAPI void oacl_cvt_f32_to_f16(uint16_t *dst, const float *src, size_t n)
{
    vec_ops()->cvt_f32_to_f16(dst, src, n);
}
