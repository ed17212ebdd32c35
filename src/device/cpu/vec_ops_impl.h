/*
 * Internal interface of the vector primitives (kernel_abi.h exports the
 * oacl_vadd_* / oacl_cvt_* entry points): the per-ISA implementation
 * tables, the scalar element rules both implementations share, and hooks
 * the white-box tests use. Nothing here is exported from libacl_rt.so.
 */
#ifndef OACL_DEVICE_CPU_VEC_OPS_IMPL_H
#define OACL_DEVICE_CPU_VEC_OPS_IMPL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fp16.h"
#include "oacl/kernel_abi.h"

/* Binary operations with per-ISA implementations: OACL_VOP_ADD..MIN
   (row op - OACL_VOP_ADD) on f16, f32, i32, i16 (column oacl_vtype_index). */
#define OACL_VBIN_OPS 6
#define OACL_VTYPES 4
typedef void (*oacl_vbin_fn)(void *dst, const void *a, const void *b, size_t n);

static inline int oacl_vtype_index(int dtype)
{
    switch (dtype) {
    case OACL_DT_F16: return 0;
    case OACL_DT_F32: return 1;
    case OACL_DT_I32: return 2;
    case OACL_DT_I16: return 3;
    default: return -1;
    }
}

/* One implementation of every primitive (same contracts as kernel_abi.h). */
struct oacl_vec_ops {
    void (*vadd_f16)(uint16_t *dst, const uint16_t *a, const uint16_t *b, size_t n);
    void (*vadd_f32)(float *dst, const float *a, const float *b, size_t n);
    void (*vadd_i32)(int32_t *dst, const int32_t *a, const int32_t *b, size_t n);
    void (*vadd_i16)(int16_t *dst, const int16_t *a, const int16_t *b, size_t n);
    void (*cvt_f16_to_f32)(float *dst, const uint16_t *src, size_t n);
    void (*cvt_f32_to_f16)(uint16_t *dst, const float *src, size_t n);
    /* NULL where this ISA has no version: the scalar one is used. */
    oacl_vbin_fn bin[OACL_VBIN_OPS][OACL_VTYPES];
};

/* Portable C loops; always available. */
extern const struct oacl_vec_ops oacl_vec_ops_scalar;

/*
 * The AVX2/F16C table, or NULL when vec_ops_avx2.c was built without those
 * instruction sets (non-x86 hosts). Only call after the CPU check: the
 * function lives in code compiled with -mavx2.
 */
const struct oacl_vec_ops *oacl_vec_ops_avx2(void);

/*
 * Streaming (non-temporal) stores pay off once the destination is far
 * larger than the caches a core can use: they skip the read-for-ownership
 * of every destination line and don't evict the working set of other
 * blocks. Below that the output is likely to be read again soon (the
 * next kernel step, a copy-out), so ordinary cached stores are better.
 * 2 MiB is at least the per-core L2 of current x86 server parts; when
 * several blocks each write that much the launch's output outgrows a
 * shared L3 slice. (oacl-bench: the 16 MiB-per-array add, 2 MiB per
 * block, went from 0.78 to 0.93-0.95 of the reference loop when this
 * dropped from 4 MiB; 1-8 MiB arrays did not change.)
 */
#define OACL_VEC_NT_MIN_BYTES_DEFAULT ((size_t)2 << 20)

/* Destination size (bytes) from which SIMD code streams; tests lower it. */
extern _Atomic size_t oacl_vec_nt_min_bytes;
/* Number of calls that took the streaming-store path (for tests). */
extern _Atomic unsigned long oacl_vec_nt_calls;

enum oacl_vec_isa {
    OACL_VEC_ISA_AUTO = 0,   /* best the CPU supports (the default) */
    OACL_VEC_ISA_SCALAR = 1, /* portable C */
    OACL_VEC_ISA_AVX2 = 2,   /* x86 AVX2 + F16C */
};

/*
 * Forces the implementation the exported functions use (AUTO restores the
 * automatic choice). Returns 1 when that implementation is available on
 * this build and CPU and is now selected, 0 otherwise (selection unchanged).
 * Thread-safe; meant for tests and benchmarks.
 */
int oacl_vec_select_isa(enum oacl_vec_isa isa);

/* The implementation currently in use (never AUTO). */
enum oacl_vec_isa oacl_vec_active_isa(void);

/*
 * NaN result of a half operation (add, and every other f16 primitive),
 * used when the float result is NaN or, for max/min, an operand is. Made
 * explicit rather than left to the FPU because hardware differs (x86
 * returns the first NaN operand and a negative default NaN, Arm prefers a
 * signalling operand and a positive default NaN) and compilers may swap
 * the operands of a commutative add:
 *   a NaN          -> a, quieted (sign and payload kept)
 *   else b NaN     -> b, quieted
 *   else (inf + -inf, invalid) -> 0x7E00, the positive default quiet NaN.
 */
static inline uint16_t oacl_f16_add_nan(uint16_t a, uint16_t b)
{
    if (oacl_f16_is_nan(a))
        return (uint16_t)(a | 0x0200u);
    if (oacl_f16_is_nan(b))
        return (uint16_t)(b | 0x0200u);
    return 0x7E00u;
}

/*
 * Correctly rounded half addition: both halves are exact floats, float has
 * 24 >= 2 * 11 + 2 significand bits, so rounding the float sum once more to
 * half gives the same bits as rounding the exact sum directly (no harmful
 * double rounding). The float sum never lands in the float subnormal range
 * (it is 0 or at least 2^-24 in magnitude), so FTZ/DAZ modes don't matter.
 * The float add itself assumes the default round-to-nearest mode; the
 * float -> half step rounds to nearest even regardless of the FPU mode.
 */
static inline uint16_t oacl_f16_add(uint16_t a, uint16_t b)
{
    const float s = oacl_f16_to_f32(a) + oacl_f16_to_f32(b);
    if (s != s)
        return oacl_f16_add_nan(a, b);
    return oacl_f32_to_f16(s);
}

/* The same rule for f32 results (quiet bit 0x00400000). */
static inline float oacl_f32_nan(float a, float b)
{
    if (a != a)
        return oacl_f32_from_bits(oacl_f32_bits(a) | 0x00400000u);
    if (b != b)
        return oacl_f32_from_bits(oacl_f32_bits(b) | 0x00400000u);
    return oacl_f32_from_bits(0x7FC00000u);
}

#endif /* OACL_DEVICE_CPU_VEC_OPS_IMPL_H */
