/*
 * Reference loops of oacl-bench: plain C that does the same work as the
 * benchmarked kernels, on the host pointers of the same buffers.
 */
#ifndef OACL_BENCH_REF_H
#define OACL_BENCH_REF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* FP16 bit patterns of the add workloads: 1 + 2 = 3. */
#define H_ONE 0x3C00u
#define H_TWO 0x4000u
#define H_THREE 0x4200u
/* The seed workload: 8 blocks of 2048 FP16 adds (oacl-bench, oacl-bench-instr). */
#define SEED_N (8u * 2048u)

/* binary16 -> binary32, exact. */
static inline float bench_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    uint32_t bits;
    if (exp == 0x1Fu) {
        bits = sign | 0x7F800000u | (man << 13) | (man ? 0x400000u : 0u); /* inf, quiet NaN */
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;
    } else { /* subnormal: normalise */
        exp = 113u;
        while (!(man & 0x400u)) {
            man <<= 1;
            exp--;
        }
        bits = sign | (exp << 23) | ((man & 0x3FFu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* binary32 -> binary16, round to nearest even. */
static inline uint16_t bench_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t ax = x & 0x7FFFFFFFu;
    if (ax >= 0x7F800000u) /* inf or NaN */
        return (uint16_t)(sign | 0x7C00u | (ax > 0x7F800000u ? 0x200u | ((ax >> 13) & 0x3FFu) : 0u));
    if (ax >= 0x477FF000u) /* rounds to >= 65520: overflow */
        return (uint16_t)(sign | 0x7C00u);
    if (ax < 0x38800000u) { /* below 2^-14: subnormal half or zero */
        if (ax < 0x33000000u) /* below 2^-25: rounds to zero */
            return (uint16_t)sign;
        uint32_t e = ax >> 23;
        uint32_t m = (ax & 0x7FFFFFu) | 0x800000u;
        uint32_t shift = 126u - e; /* 14..24 */
        uint32_t h = m >> shift;
        uint32_t rem = m & ((1u << shift) - 1u);
        uint32_t half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((ax >> 13) - (112u << 10));
    uint32_t rem = ax & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;
    return (uint16_t)(sign | h);
}

/* Serial scalar loop: convert, add, convert back. */
static inline void bench_ref_add_f16_scalar(uint16_t *z, const uint16_t *x, const uint16_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        z[i] = bench_f32_to_f16(bench_f16_to_f32(x[i]) + bench_f16_to_f32(y[i]));
}

/* Vectorised loop (ref_simd.c); usable only when bench_ref_simd_usable(). */
int bench_ref_simd_usable(void);
const char *bench_ref_simd_name(void);
void bench_ref_add_f16_simd(uint16_t *z, const uint16_t *x, const uint16_t *y, size_t n);

#endif
