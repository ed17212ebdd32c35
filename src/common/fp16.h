/*
 * IEEE 754 binary16 ("half") <-> binary32 conversion, scalar and portable.
 *
 * Pure integer bit manipulation on the IEEE encodings: no compiler float16
 * type, no dependence on the FPU rounding mode or on flush-to-zero /
 * denormals-are-zero settings, the same result on every host.
 *
 * Rules (shared with the SIMD code in src/device/cpu/vec_ops*.c, which the
 * tests hold to exactly the same bits):
 *   - Finite values round to nearest, ties to even. Half subnormals are
 *     produced and consumed exactly; floats of magnitude <= 2^-25 (half the
 *     smallest half subnormal; 2^-25 itself is a tie that goes to the even
 *     0) become ±0.
 *   - Values of magnitude >= 65520 (the midpoint between the largest half,
 *     65504, and the next power 65536, which rounds to "even" 2^16) become
 *     ±inf; ±inf stays ±inf.
 *   - The sign of zero is kept.
 *   - NaN stays NaN: the sign is kept, the quiet bit is set (so a signalling
 *     NaN comes out quiet, as x86 F16C and IEEE "convertFormat" do), and the
 *     payload keeps its most significant bits: half -> float puts all 9
 *     half payload bits at the top of the float payload (lossless);
 *     float -> half keeps the top 9 of the 22 float payload bits (bits 21..13)
 *     and drops the rest. A float NaN whose payload lives only in the low
 *     13 bits therefore becomes the plain quiet NaN 0x7E00 (or 0xFE00).
 *
 * Layouts: half = s:1 e:5 (bias 15) m:10; float = s:1 e:8 (bias 127) m:23.
 */
#ifndef OACL_COMMON_FP16_H
#define OACL_COMMON_FP16_H

#include <stdint.h>
#include <string.h>

/* Bit patterns of float, moved with memcpy (no type-punning UB). */
static inline uint32_t oacl_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float oacl_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* True for a binary16 NaN pattern (exponent all ones, fraction non-zero). */
static inline int oacl_f16_is_nan(uint16_t h)
{
    return (h & 0x7FFFu) > 0x7C00u;
}

/* Every half value is exactly representable as a float: no rounding here. */
static inline float oacl_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    uint32_t bits;

    if (exp == 0x1F) {
        /* inf (mant == 0) or NaN. Shifting the fraction to the top of the
           float fraction keeps the whole payload; OR-ing bit 22 (float quiet
           bit) quiets a signalling NaN and leaves inf untouched. */
        bits = sign | 0x7F800000u | (mant << 13) | (mant ? 0x00400000u : 0u);
    } else if (exp != 0) {
        /* Normal: rebias the exponent (127 - 15 = 112), widen the fraction. */
        bits = sign | ((exp + 112u) << 23) | (mant << 13);
    } else if (mant == 0) {
        bits = sign; /* ±0 */
    } else {
        /* Subnormal: value = mant * 2^-24 with 1 <= mant < 2^10. Shift the
           leading one up to bit 10 (the hidden-bit position); after s
           shifts the value is 1.f * 2^(-14 - s), always a normal float
           (float normals reach down to 2^-126), so the float exponent
           field is 127 - 14 - s = 113 - s, fraction = the bits below. */
        uint32_t e = 113;
        while ((mant & 0x400u) == 0) {
            mant <<= 1;
            e--;
        }
        bits = sign | (e << 23) | ((mant & 0x3FFu) << 13);
    }
    return oacl_f32_from_bits(bits);
}

static inline uint16_t oacl_f32_to_f16(float f)
{
    const uint32_t x = oacl_f32_bits(f);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7FFFFFFFu; /* |f| as bits; ordered like |f| */

    if (ax >= 0x7F800000u) {
        if (ax == 0x7F800000u)
            return (uint16_t)(sign | 0x7C00u); /* ±inf */
        /* NaN: top 9 payload bits (21..13) plus the quiet bit 0x200; the
           quiet bit also guarantees the result is not mistaken for inf. */
        return (uint16_t)(sign | 0x7E00u | ((ax >> 13) & 0x1FFu));
    }
    if (ax >= 0x477FF000u) {
        /* |f| >= 65520 = 0x477FF000: at or above the midpoint between
           65504 (max half, odd fraction 0x3FF) and 2^16, so round to
           nearest even gives 2^16, which does not fit: ±inf. */
        return (uint16_t)(sign | 0x7C00u);
    }
    if (ax >= 0x38800000u) {
        /* Normal half range [2^-14, 65520). Subtracting 112 << 23 rebiases
           the exponent in place: the 32-bit word now reads e_half:5 (with
           1 <= e_half <= 30 here) followed by the 23-bit fraction, so the
           half is this word >> 13 once rounded at bit 13. Round to
           nearest even: add 0xFFF plus the lowest kept bit. If the
           discarded 13 bits exceed half (0x1000) this carries; if exactly
           half it carries only when the kept lsb is 1 (odd -> even); below
           half it never carries. A carry out of the fraction correctly
           bumps the exponent (1.111..1 -> 10.0), and 65504 + under-half
           can't reach exponent 31 because of the check above. */
        uint32_t m = ax - 0x38000000u;
        m += 0xFFFu + ((m >> 13) & 1u);
        return (uint16_t)(sign | (m >> 13));
    }
    if (ax <= 0x33000000u) {
        /* |f| <= 2^-25 = half of the smallest subnormal 2^-24: below it
           rounds to 0, exactly 2^-25 is a tie that goes to the even 0.
           This also covers float zeros and subnormals. */
        return sign;
    }
    /* Half subnormal range (2^-25, 2^-14): float exponent field e is in
       102..112 and the value is sig * 2^(e - 150) with the 24-bit
       significand sig (hidden bit restored). In units of the half
       subnormal step 2^-24 that is sig * 2^(e - 126), i.e. sig shifted
       right by 126 - e (14..24 bits). Round the shifted-out part to
       nearest even. A result of 0x400 (rounded up out of the subnormal
       range) is the correct encoding of 2^-14, the smallest normal. */
    {
        const uint32_t e = ax >> 23;
        const uint32_t sig = (ax & 0x7FFFFFu) | 0x800000u;
        const uint32_t shift = 126u - e;
        const uint32_t halfway = 1u << (shift - 1);
        const uint32_t rem = sig & ((1u << shift) - 1u);
        uint32_t q = sig >> shift;
        if (rem > halfway || (rem == halfway && (q & 1u)))
            q++;
        return (uint16_t)(sign | q);
    }
}

/*
 * double -> float rounded to odd: truncate toward zero, then set the last
 * fraction bit if anything was lost. Rounding that result once more to a
 * format at least two bits narrower (half: 11 <= 24 - 2) gives the same
 * bits as rounding the double directly, so oacl_f64_to_f16 below is
 * correctly rounded. Assumes the default round-to-nearest FPU mode for
 * the first (double -> float) step, whose error it then repairs.
 */
static inline float oacl_f64_to_f32_odd(double d)
{
    float f = (float)d;
    if ((double)f == d || d != d)
        return f;
    uint32_t u = oacl_f32_bits(f);
    /* Inexact: step the magnitude down if the cast rounded away from
       zero (f cannot be 0 then), which leaves the truncated value. */
    if ((f < 0 ? -(double)f : (double)f) > (d < 0 ? -d : d))
        u -= 1u;
    return oacl_f32_from_bits(u | 1u);
}

/* double -> half, round to nearest even (rules as oacl_f32_to_f16). */
static inline uint16_t oacl_f64_to_f16(double d)
{
    return oacl_f32_to_f16(oacl_f64_to_f32_odd(d));
}

#endif /* OACL_COMMON_FP16_H */
