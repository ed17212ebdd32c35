/*
 * Host-side references for the AscendC tests, written independently of
 * the implementation: binary16 values are decoded with ldexp() and
 * rounded from exact doubles with nearbyint() (ties to even in the default
 * rounding mode), never through src/common/fp16.h.
 */
#ifndef OACL_TEST_ASC_TEST_H
#define OACL_TEST_ASC_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "oacl/kernel_abi.h"

/* ---- deterministic random numbers (splitmix64) ------------------------------ */

static uint64_t asc_rng_state = 1;
static inline void asc_rng_seed(uint64_t s) { asc_rng_state = s; }
static inline uint64_t asc_rand64(void)
{
    uint64_t z = (asc_rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint32_t asc_rand32(void) { return (uint32_t)(asc_rand64() >> 32); }

/* ---- binary16 reference --------------------------------------------------------- */

static inline bool asc_f16_is_nan(uint16_t h) { return (h & 0x7FFFu) > 0x7C00u; }

static inline double asc_f16_value(uint16_t h)
{
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, -24);
    else
        v = ldexp((double)(m | 0x400), e - 25);
    return (h & 0x8000u) ? -v : v;
}

/* v rounded to binary16, to nearest even (NaN -> 0x7E00). */
static inline uint16_t asc_f16_round(double v)
{
    if (isnan(v))
        return 0x7E00u;
    uint16_t sign = signbit(v) ? 0x8000u : 0;
    double a = fabs(v);
    if (a >= 65520.0)
        return sign | 0x7C00u;
    if (a < 0x1p-14) /* subnormal step 2^-24; 1024 steps is the smallest normal */
        return (uint16_t)(sign | (uint16_t)nearbyint(a * 0x1p24));
    int e;
    (void)frexp(a, &e); /* a in [2^(e-1), 2^e) */
    double q = nearbyint(ldexp(a, 11 - e)); /* 1024..2048 */
    if (q == 2048.0) {
        q = 1024.0;
        e++;
    }
    return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | (uint16_t)(q - 1024.0));
}

/* Random halves: a third from all bit patterns (NaN, inf, subnormals
   included), the rest normal values of moderate size with both signs. */
static inline uint16_t asc_rand_f16(void)
{
    uint32_t r = asc_rand32();
    if (r % 3 == 0)
        return (uint16_t)(r >> 8);
    uint16_t e = (uint16_t)(8 + (r >> 4) % 14); /* 2^-7 .. 2^6 */
    return (uint16_t)(((r >> 20) & 1 ? 0x8000u : 0) | (e << 10) | ((r >> 21) & 0x3FF));
}

static inline float asc_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint32_t asc_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Random floats: a quarter arbitrary bit patterns, the rest moderate. */
static inline float asc_rand_f32(void)
{
    uint64_t r = asc_rand64();
    if (r % 4 == 0)
        return asc_f32((uint32_t)(r >> 32));
    return (float)ldexp((double)(int32_t)(r >> 32) / 2147483648.0, (int)((r >> 8) % 40) - 20);
}

/* The documented NaN rule: the first NaN operand quieted, else 0x7E00. */
static inline uint16_t asc_f16_nan_rule(uint16_t a, uint16_t b)
{
    if (asc_f16_is_nan(a))
        return a | 0x0200u;
    if (asc_f16_is_nan(b))
        return b | 0x0200u;
    return 0x7E00u;
}
static inline uint32_t asc_f32_nan_rule(uint32_t a, uint32_t b)
{
    if ((a & 0x7FFFFFFFu) > 0x7F800000u)
        return a | 0x00400000u;
    if ((b & 0x7FFFFFFFu) > 0x7F800000u)
        return b | 0x00400000u;
    return 0x7FC00000u;
}

enum { ASC_REF_ADD = OACL_VOP_ADD, ASC_REF_SUB = OACL_VOP_SUB, ASC_REF_MUL = OACL_VOP_MUL,
       ASC_REF_DIV = OACL_VOP_DIV, ASC_REF_MAX = OACL_VOP_MAX, ASC_REF_MIN = OACL_VOP_MIN };

/* Half binary operations: exact double result (sums, differences and
   products of halves are exact in double; a double quotient rounded to
   half is still correctly rounded) rounded once. */
static inline uint16_t asc_ref_f16_binary(int op, uint16_t a, uint16_t b)
{
    double x = asc_f16_value(a), y = asc_f16_value(b), r;
    if (op == OACL_VOP_MAX || op == OACL_VOP_MIN) {
        if (isnan(x) || isnan(y))
            return asc_f16_nan_rule(a, b);
        return (op == OACL_VOP_MAX ? x > y : x < y) ? a : b;
    }
    switch (op) {
    case OACL_VOP_ADD: r = x + y; break;
    case OACL_VOP_SUB: r = x - y; break;
    case OACL_VOP_MUL: r = x * y; break;
    default: r = x / y; break;
    }
    return isnan(r) ? asc_f16_nan_rule(a, b) : asc_f16_round(r);
}

/* Distance in representable values between two halves or floats of the
   same sign class (for tolerances). */
static inline long asc_f16_ulps(uint16_t a, uint16_t b)
{
    long x = (a & 0x8000u) ? -(long)(a & 0x7FFFu) : (long)a;
    long y = (b & 0x8000u) ? -(long)(b & 0x7FFFu) : (long)b;
    return x > y ? x - y : y - x;
}
static inline long long asc_f32_ulps(uint32_t a, uint32_t b)
{
    long long x = (a & 0x80000000u) ? -(long long)(a & 0x7FFFFFFFu) : (long long)a;
    long long y = (b & 0x80000000u) ? -(long long)(b & 0x7FFFFFFFu) : (long long)b;
    return x > y ? x - y : y - x;
}

#endif
