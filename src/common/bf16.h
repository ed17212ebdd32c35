/*
 * bfloat16 <-> binary32/binary64 conversions, scalar and portable: pure bit
 * manipulation on the IEEE encodings, like fp16.h (whose rules they share).
 *
 * bfloat16 = the upper half of a float (s:1 e:8 m:7): widening is exact.
 * Narrowing rounds to nearest, ties to even; values past the largest
 * bfloat16 (0x7F7F) by half an ulp or more become ±inf; NaN stays NaN with
 * its sign and top payload bits, quieted (bit 0x0040), so a NaN whose
 * payload lives only in the dropped bits cannot turn into inf.
 */
#ifndef OACL_COMMON_BF16_H
#define OACL_COMMON_BF16_H

#include <stdint.h>

#include "common/fp16.h"

static inline float oacl_bf16_to_f32(uint16_t b) { return oacl_f32_from_bits((uint32_t)b << 16); }

static inline int oacl_bf16_is_nan(uint16_t b) { return (b & 0x7FFFu) > 0x7F80u; }

static inline uint16_t oacl_f32_to_bf16(float f)
{
    const uint32_t u = oacl_f32_bits(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return (uint16_t)((u >> 16) | 0x0040u);
    /* Round at bit 16: add just under half plus the lowest kept bit (a tie
       carries only from an odd value). A carry out of the fraction bumps
       the exponent, which is right, and turns 0x7F7F + over half into inf. */
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* double -> bfloat16 correctly rounded: via a float rounded to odd
 * (bfloat16 has 8 <= 24 - 2 significand bits, see oacl_f64_to_f32_odd). */
static inline uint16_t oacl_f64_to_bf16(double d) { return oacl_f32_to_bf16(oacl_f64_to_f32_odd(d)); }

#endif /* OACL_COMMON_BF16_H */
