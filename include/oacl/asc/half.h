/*
 * AscendC layer of oacl (part of kernel_operator.h, which includes these
 * parts in order): the scalar types half and bfloat16_t and their exact conversions.
 */
#ifndef OACL_ASC_HALF_H
#define OACL_ASC_HALF_H

#include "oacl/asc/prelude.h"

/* ======================================================================
 * half and bfloat16_t
 * ====================================================================== */

namespace oacl {
namespace kop {

inline uint32_t f32_bits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

inline float f32_from_bits(uint32_t u)
{
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

/* binary16 -> binary32: exact; NaNs are quieted, payload kept. */
inline float f16_to_f32(uint16_t h)
{
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1Fu)
        return f32_from_bits(sign | 0x7F800000u | (m << 13) | (m ? 0x00400000u : 0u));
    if (e == 0) {
        if (m == 0)
            return f32_from_bits(sign);
        /* subnormal m * 2^-24: normalise into a float */
        e = 113;
        while (!(m & 0x400u)) {
            m <<= 1;
            --e;
        }
        return f32_from_bits(sign | (e << 23) | ((m & 0x3FFu) << 13));
    }
    return f32_from_bits(sign | ((e + 112u) << 23) | (m << 13));
}

/* binary32 -> binary16, round to nearest even: overflow to inf, subnormals
   produced exactly, sign of zero kept, NaN quieted (top payload kept). */
inline uint16_t f32_to_f16(float f)
{
    const uint32_t x = f32_bits(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t a = x & 0x7FFFFFFFu;
    uint32_t r;
    if (a > 0x7F800000u) {
        r = 0x7E00u | ((a >> 13) & 0x1FFu);
    } else if (a >= 0x477FF000u) { /* >= 65520 rounds past the largest half */
        r = 0x7C00u;
    } else if (a >= 0x38800000u) { /* normal halves */
        const uint32_t t = a - 0x38000000u;
        r = (t + 0xFFFu + ((t >> 13) & 1u)) >> 13;
    } else if (a > 0x33000000u) { /* subnormal halves; 2^-25 itself ties to 0 */
        const uint32_t sh = 126u - (a >> 23);
        const uint32_t sig = (a & 0x7FFFFFu) | 0x800000u;
        const uint32_t rest = sig & ((1u << sh) - 1u), half = 1u << (sh - 1u);
        r = sig >> sh;
        if (rest > half || (rest == half && (r & 1u)))
            ++r;
    } else {
        r = 0;
    }
    return static_cast<uint16_t>(sign | r);
}

/* double -> float rounded to odd; rounding that once more to a format of
   at most 22 significand bits is the correct rounding of the double. */
inline float f64_to_f32_odd(double d)
{
    const float f = static_cast<float>(d);
    if (static_cast<double>(f) == d || d != d)
        return f;
    uint32_t u = f32_bits(f);
    const double af = f < 0 ? -static_cast<double>(f) : static_cast<double>(f);
    if (af > (d < 0 ? -d : d))
        --u; /* the cast rounded away from zero: step back */
    return f32_from_bits(u | 1u);
}

inline uint16_t f64_to_f16(double d) { return f32_to_f16(f64_to_f32_odd(d)); }

/* binary32 -> bfloat16, round to nearest even, NaN quieted. */
inline uint16_t f32_to_bf16(float f)
{
    const uint32_t u = f32_bits(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return static_cast<uint16_t>((u >> 16) | 0x40u);
    return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

inline float bf16_to_f32(uint16_t b) { return f32_from_bits(static_cast<uint32_t>(b) << 16); }

template <typename T>
inline uint16_t to_f16(T v)
{
    if constexpr (std::is_same<T, float>::value)
        return f32_to_f16(v);
    else
        return f64_to_f16(static_cast<double>(v)); /* exact for every integer up to 2^53 */
}

} // namespace kop
} // namespace oacl

/*
 * IEEE binary16, the device compiler's `half`: a 2-byte trivially copyable
 * class holding the bit pattern. Conversions from any arithmetic type are
 * implicit and correctly rounded (half h = 1.0;), the conversion to float
 * is implicit and exact, so comparisons and mixed arithmetic with other
 * types happen in float. half op half yields half, computed in float and
 * rounded once: exact for + - * /.
 */
class half {
public:
    half() = default;
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
    half(T v) : bits_(oacl::kop::to_f16(v))
    {
    }
    operator float() const { return oacl::kop::f16_to_f32(bits_); }

    static half FromBits(uint16_t b)
    {
        half h;
        h.bits_ = b;
        return h;
    }
    uint16_t Bits() const { return bits_; }

    half operator-() const { return FromBits(static_cast<uint16_t>(bits_ ^ 0x8000u)); }
    half operator+() const { return *this; }
    template <typename T>
    half &operator+=(const T &v)
    {
        return *this = half(static_cast<float>(*this) + static_cast<float>(v));
    }
    template <typename T>
    half &operator-=(const T &v)
    {
        return *this = half(static_cast<float>(*this) - static_cast<float>(v));
    }
    template <typename T>
    half &operator*=(const T &v)
    {
        return *this = half(static_cast<float>(*this) * static_cast<float>(v));
    }
    template <typename T>
    half &operator/=(const T &v)
    {
        return *this = half(static_cast<float>(*this) / static_cast<float>(v));
    }
    half &operator++() { return *this += 1.0f; }
    half &operator--() { return *this -= 1.0f; }
    half operator++(int)
    {
        half old = *this;
        *this += 1.0f;
        return old;
    }
    half operator--(int)
    {
        half old = *this;
        *this -= 1.0f;
        return old;
    }

private:
    uint16_t bits_;
};

static_assert(sizeof(half) == 2 && alignof(half) == 2, "half must be a 2-byte type");
static_assert(std::is_trivially_copyable<half>::value, "half must be trivially copyable");

/* half op half only (deduction rejects mixed operands, which fall back to
   the built-in float operators through the conversion). */
#define OACL_HALF_BINOP(op)                                                                                          \
    template <typename H, typename std::enable_if<std::is_same<H, half>::value, int>::type = 0>                     \
    inline H operator op(H a, H b)                                                                                   \
    {                                                                                                                \
        return H(static_cast<float>(a) op static_cast<float>(b));                                                    \
    }
OACL_HALF_BINOP(+)
OACL_HALF_BINOP(-)
OACL_HALF_BINOP(*)
OACL_HALF_BINOP(/)
#undef OACL_HALF_BINOP

/* bfloat16 (8 exponent, 7 fraction bits): a storage type with explicit
   conversions (like the device's, it has no literal initialisation). */
class bfloat16_t {
public:
    bfloat16_t() = default;
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
    explicit bfloat16_t(T v)
        : bits_(oacl::kop::f32_to_bf16(std::is_same<T, float>::value
                                           ? static_cast<float>(v)
                                           : oacl::kop::f64_to_f32_odd(static_cast<double>(v))))
    {
    }
    explicit bfloat16_t(half h) : bits_(oacl::kop::f32_to_bf16(static_cast<float>(h))) {}
    operator float() const { return oacl::kop::bf16_to_f32(bits_); }

    static bfloat16_t FromBits(uint16_t b)
    {
        bfloat16_t v;
        v.bits_ = b;
        return v;
    }
    uint16_t Bits() const { return bits_; }

private:
    uint16_t bits_;
};

static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable<bfloat16_t>::value, "bfloat16_t layout");

#endif /* OACL_ASC_HALF_H */
