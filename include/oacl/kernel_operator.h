/*
 * kernel_operator.h for oacl: the AscendC vector-kernel API, C++17 and
 * header-only, over the C kernel API of oacl/kernel.h.
 *
 * Unmodified AscendC vector kernels compile against it with any host C++17
 * compiler and run on oacl's simulated CPU device: every API call executes
 * synchronously, in program order, inside its block, which satisfies the
 * pipeline dependencies queues and flags express; the queue, buffer and
 * operand rules are still checked, and breaking one fails the launch with
 * a message naming the kernel, the block and the rule (the stream reports
 * ACL_ERROR_RT_AICORE_EXCEPTION), as AscendC's CPU-debug mode stops on them.
 *
 * Differences from a device worth knowing:
 *   - globals and static locals of a kernel are shared by all its blocks;
 *   - printf text goes straight to stdout without the "[AIV Block i/n]"
 *     prefix (as in AscendC's CPU-debug mode);
 *   - Exp/Ln/Rsqrt are libm-accurate, not the NPU's approximations;
 *   - block_idx / block_num are macros (a variable of that name cannot be
 *     declared after including this header).
 * The supported API and what is knowingly missing is listed in
 * docs/ascendc.md.
 */
#ifndef OACL_KERNEL_OPERATOR_H
#define OACL_KERNEL_OPERATOR_H

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "kernel_operator.h needs C++17 (AscendC kernels are C++17 sources)"
#endif

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "oacl/kernel.h"

/* ======================================================================
 * Predefined macros and device builtins
 * ====================================================================== */

/* Coarse architecture number older kernels test (__NPU_ARCH__ / 10 rounded
   to the family); left undefined for architectures without one. */
#ifndef __CCE_AICORE__
#if __NPU_ARCH__ == 2201
#define __CCE_AICORE__ 220
#elif __NPU_ARCH__ == 2002
#define __CCE_AICORE__ 200
#elif __NPU_ARCH__ == 3002
#define __CCE_AICORE__ 300
#elif __NPU_ARCH__ == 1001
#define __CCE_AICORE__ 100
#endif
#endif

/* Kernels run as vector-core (AIV) code: the vector pass of 2201. */
#if __NPU_ARCH__ == 2201 && !defined(__DAV_C220_VEC__)
#define __DAV_C220_VEC__ 1
#endif

/* Builtins of the device compiler: the running block's index and count. */
#ifndef block_idx
#define block_idx (static_cast<int64_t>(::oacl_block()->block_idx))
#endif
#ifndef block_num
#define block_num (static_cast<int64_t>(::oacl_block()->block_num))
#endif
#ifndef sub_block_idx
#define sub_block_idx (static_cast<int64_t>(0))
#endif

/* Pipes (compiler builtin enum) and event IDs of the raw intrinsics. */
enum pipe_t : uint8_t {
    PIPE_S = 0,
    PIPE_V = 1,
    PIPE_M = 2,
    PIPE_MTE1 = 3,
    PIPE_MTE2 = 4,
    PIPE_MTE3 = 5,
    PIPE_ALL = 6,
    PIPE_MTE4 = 7,
    PIPE_MTE5 = 8,
    PIPE_V2 = 9,
    PIPE_FIX = 10,
};

enum event_t : uint8_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
};

/* Every API call completes before the next starts: barriers and flags
   between pipes have nothing left to order. */
inline void pipe_barrier(pipe_t) {}
inline void set_flag(pipe_t, pipe_t, event_t) {}
inline void wait_flag(pipe_t, pipe_t, event_t) {}

/* Scalar GM writes are coherent on a CPU: cache maintenance is a no-op.
   Whoever defines dcci first (a toolchain prelude, say) defines dcci or
   OACL_HAVE_DCCI so that this one steps aside. */
#if !defined(dcci) && !defined(OACL_HAVE_DCCI)
#define OACL_HAVE_DCCI 1
enum class cache_line_t : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };
enum class dcci_dst_t : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB = 1, CACHELINE_OUT = 2, CACHELINE_ATOMIC = 3 };
template <typename T>
inline void dcci(T *, cache_line_t, dcci_dst_t = dcci_dst_t::CACHELINE_OUT)
{
}
#endif

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

/* ======================================================================
 * namespace AscendC
 * ====================================================================== */

namespace AscendC {

using ::bfloat16_t;
using ::half;

/* ---- enumerations -------------------------------------------------------- */

enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};

enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,
    CAST_TRUNC,
    CAST_ODD,
    CAST_HYBRID,
    CAST_EVEN,
    CAST_ZERO,
    UNKNOWN = 0xFF,
};

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX,
};

using TEventID = int8_t;
using TTagType = int32_t;

/* Core types; kernels here always run as vector cores. */
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
constexpr int32_t g_coreType = AIV;

/* ---- sizes --------------------------------------------------------------- */

#if __NPU_ARCH__ == 3510
constexpr uint64_t ASC_UB_SIZE = 253952, ASC_L1_SIZE = 524288, ASC_L0A_SIZE = 65536, ASC_L0B_SIZE = 65536,
                   ASC_L0C_SIZE = 262144, ASC_BT_SIZE = 4096;
#elif __NPU_ARCH__ == 2002 || __NPU_ARCH__ == 1001
constexpr uint64_t ASC_UB_SIZE = 262144, ASC_L1_SIZE = 1048576, ASC_L0A_SIZE = 65536, ASC_L0B_SIZE = 65536,
                   ASC_L0C_SIZE = 262144, ASC_BT_SIZE = 0;
#elif __NPU_ARCH__ == 3002
constexpr uint64_t ASC_UB_SIZE = 253952, ASC_L1_SIZE = 1048576, ASC_L0A_SIZE = 65536, ASC_L0B_SIZE = 65536,
                   ASC_L0C_SIZE = 131072, ASC_BT_SIZE = 1024;
#else /* 2201 */
constexpr uint64_t ASC_UB_SIZE = 196352, ASC_L1_SIZE = 524032, ASC_L0A_SIZE = 65536, ASC_L0B_SIZE = 65536,
                   ASC_L0C_SIZE = 131072, ASC_BT_SIZE = 1024;
#endif

inline constexpr uint32_t GetDataBlockSizeInBytes() { return OACL_DATA_BLOCK; }
/* The unified buffer this block really has (the SoC profile's). */
inline uint32_t GetUBSizeInBytes() { return ::oacl_block()->ub_size; }

/* ---- blocks -------------------------------------------------------------- */

inline int64_t GetBlockIdx() { return ::oacl_get_block_idx(); }
inline int64_t GetBlockNum() { return ::oacl_get_block_num(); }
/* Pure vector kernels: one AIV per logical block. */
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetSubBlockNum() { return 1; }
inline int64_t GetTaskRatio() { return 1; }

/* ---- element types ------------------------------------------------------- */

namespace oacl_detail {

template <typename T>
struct always_false : std::false_type {};

/* The oacl element type of T (8-byte floats travel as u64: copies only). */
template <typename T>
constexpr oacl_dtype_t dtype_of()
{
    if constexpr (std::is_same<T, half>::value)
        return OACL_DT_F16;
    else if constexpr (std::is_same<T, bfloat16_t>::value)
        return OACL_DT_BF16;
    else if constexpr (std::is_same<T, float>::value)
        return OACL_DT_F32;
    else if constexpr (std::is_same<T, double>::value)
        return OACL_DT_U64;
    else if constexpr (std::is_integral<T>::value && sizeof(T) == 1)
        return std::is_signed<T>::value ? OACL_DT_I8 : OACL_DT_U8;
    else if constexpr (std::is_integral<T>::value && sizeof(T) == 2)
        return std::is_signed<T>::value ? OACL_DT_I16 : OACL_DT_U16;
    else if constexpr (std::is_integral<T>::value && sizeof(T) == 4)
        return std::is_signed<T>::value ? OACL_DT_I32 : OACL_DT_U32;
    else if constexpr (std::is_integral<T>::value && sizeof(T) == 8)
        return std::is_signed<T>::value ? OACL_DT_I64 : OACL_DT_U64;
    else {
        static_assert(always_false<T>::value, "kernel_operator.h: unsupported tensor element type");
        return OACL_DT_U8;
    }
}

inline const char *event_name(unsigned e)
{
    static const char *const names[] = {
        "MTE2_MTE1", "MTE1_MTE2", "MTE1_M",    "M_MTE1",    "MTE2_V",    "V_MTE2",    "MTE3_V",
        "V_MTE3",    "M_V",       "V_M",       "V_V",       "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",
        "MTE2_M",    "M_MTE2",    "V_MTE1",    "M_FIX",     "FIX_M",     "MTE3_MTE2", "MTE2_MTE3",
        "S_V",       "V_S",       "S_MTE2",    "MTE2_S",    "S_MTE3",    "MTE3_S",    "MTE2_FIX",
        "FIX_MTE2",  "FIX_S",     "M_S",       "FIX_MTE3",  "MTE1_FIX",  "FIX_MTE1",  "FIX_FIX"};
    return e < sizeof(names) / sizeof(names[0]) ? names[e] : "?";
}

constexpr unsigned kEvents = static_cast<unsigned>(HardEvent::MAX);
constexpr int32_t kEventIds = 8; /* per pipe pair */

} // namespace oacl_detail

template <typename T>
class LocalTensor;
template <typename T>
class GlobalTensor;
template <TPosition pos>
class TBuf;
class TPipe;

/* ---- GlobalTensor -------------------------------------------------------- */

/* A typed view of global memory: address and element count. */
template <typename T>
class GlobalTensor {
public:
    using PrimType = T;

    GlobalTensor() : g_(::oacl_gm_bind(nullptr, 0, oacl_detail::dtype_of<T>())) {}

    void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize)
    {
        g_ = ::oacl_gm_bind(static_cast<void *>(buffer), bufferSize, oacl_detail::dtype_of<T>());
    }
    void SetGlobalBuffer(__gm__ T *buffer) { SetGlobalBuffer(buffer, 0); }

    /* Advanced by `offset` elements; the recorded size stays. */
    GlobalTensor operator[](uint64_t offset) const
    {
        GlobalTensor r(*this);
        r.g_ = ::oacl_gm_offset(g_, offset);
        return r;
    }

    T GetValue(uint64_t offset) const
    {
        T v;
        ::oacl_gm_check(g_.addr + offset * sizeof(T), sizeof(T), 0, "GlobalTensor::GetValue");
        std::memcpy(static_cast<void *>(&v), g_.addr + offset * sizeof(T), sizeof(T));
        return v;
    }
    void SetValue(uint64_t offset, T value) const
    {
        ::oacl_gm_check(g_.addr + offset * sizeof(T), sizeof(T), 1, "GlobalTensor::SetValue");
        std::memcpy(g_.addr + offset * sizeof(T), static_cast<const void *>(&value), sizeof(T));
    }
    T &operator()(uint64_t offset) const { return GetPhyAddr()[offset]; }

    uint64_t GetSize() const { return g_.size; }
    __gm__ T *GetPhyAddr() const { return reinterpret_cast<__gm__ T *>(g_.addr); }
    __gm__ T *GetPhyAddr(uint64_t offset) const { return GetPhyAddr() + offset; }

    template <typename U>
    GlobalTensor<U> ReinterpretCast() const
    {
        GlobalTensor<U> r;
        r.SetGlobalBuffer(reinterpret_cast<__gm__ U *>(g_.addr), g_.size * sizeof(T) / sizeof(U));
        return r;
    }

    /* The C view, for the free functions (not an AscendC member). */
    const oacl_gm_t &oacl_raw() const { return g_; }

private:
    oacl_gm_t g_;
};

/* ---- LocalTensor --------------------------------------------------------- */

/* A typed view of UB memory: address, element count, position; `cap` is
   what remains of the underlying buffer from the start (SetSize's and
   slicing's limit). */
template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() : t_(), cap_(0), tag_(0) { t_.dtype = oacl_detail::dtype_of<T>(); }

    /* Sub-tensor from element `offset` (within the buffer) on. */
    LocalTensor operator[](uint32_t offset) const
    {
        if (offset >= cap_)
            oacl_kernel_fail(OACL_FAULT_UB, "LocalTensor[%u] is outside a %u-element buffer", offset, cap_);
        LocalTensor r(*this);
        r.t_.addr += static_cast<size_t>(offset) * sizeof(T);
        r.t_.size = offset < t_.size ? t_.size - offset : cap_ - offset;
        r.cap_ = cap_ - offset;
        return r;
    }

    T GetValue(uint32_t index) const
    {
        T v;
        std::memcpy(static_cast<void *>(&v), ::oacl_local_at(t_, index), sizeof(T));
        return v;
    }
    void SetValue(uint32_t index, T value) const
    {
        std::memcpy(::oacl_local_at(t_, index), static_cast<const void *>(&value), sizeof(T));
    }
    T &operator()(uint32_t index) const { return *static_cast<T *>(::oacl_local_at(t_, index)); }

    uint32_t GetSize() const { return t_.size; }
    uint32_t GetLength() const { return t_.size * static_cast<uint32_t>(sizeof(T)); }
    void SetSize(uint32_t size)
    {
        if (size > cap_)
            oacl_kernel_fail(OACL_FAULT_UB, "LocalTensor::SetSize(%u) exceeds its %u-element buffer", size, cap_);
        t_.size = size;
    }

    template <typename U>
    LocalTensor<U> ReinterpretCast() const
    {
        oacl_local_t r = t_;
        r.dtype = oacl_detail::dtype_of<U>();
        r.size = static_cast<uint32_t>(t_.size * sizeof(T) / sizeof(U));
        LocalTensor<U> u = LocalTensor<U>::oacl_wrap(r, static_cast<uint32_t>(cap_ * sizeof(T) / sizeof(U)));
        u.SetUserTag(tag_);
        return u;
    }

    int32_t GetPosition() const { return static_cast<int32_t>(t_.position); }
    /* Local-memory address (here: the host address of the UB bytes). */
    uint64_t GetPhyAddr() const { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(t_.addr)); }
    uint64_t GetPhyAddr(uint32_t offset) const { return GetPhyAddr() + static_cast<uint64_t>(offset) * sizeof(T); }

    void SetUserTag(TTagType tag) { tag_ = tag; }
    TTagType GetUserTag() const { return tag_; }

    /* Not AscendC members: the C view and its construction. */
    const oacl_local_t &oacl_raw() const { return t_; }
    static LocalTensor oacl_wrap(const oacl_local_t &t, uint32_t cap)
    {
        LocalTensor r;
        r.t_ = t;
        r.cap_ = cap;
        return r;
    }

private:
    oacl_local_t t_;
    uint32_t cap_;
    TTagType tag_;
};

/* ---- TQue / TQueBind ----------------------------------------------------- */

/*
 * Queues hand out the buffers a TPipe gave them and enforce AscendC's
 * buffer states (FREE -> AllocTensor -> EnQue -> DeQue -> FreeTensor). The
 * buffers' position: the non-GM end of the binding.
 */
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
public:
    static constexpr TPosition kPosition = src == TPosition::GM ? dst : src;

    TQueBind() { ::oacl_que_init(&q_, static_cast<oacl_position_t>(kPosition), depth); }
    TQueBind(const TQueBind &) = delete;
    TQueBind &operator=(const TQueBind &) = delete;

    template <typename T>
    LocalTensor<T> AllocTensor()
    {
        return LocalTensor<T>::oacl_wrap(::oacl_que_alloc(&q_, oacl_detail::dtype_of<T>()),
                                         static_cast<uint32_t>(q_.len / sizeof(T)));
    }
    template <typename T>
    void AllocTensor(LocalTensor<T> &t)
    {
        t = AllocTensor<T>();
    }

    template <typename T>
    bool EnQue(const LocalTensor<T> &t)
    {
        return ::oacl_que_enque(&q_, t.oacl_raw());
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    bool EnQue(const LocalTensor<T> &t)
    {
        return ::oacl_que_enque(&q_, t.oacl_raw());
    }

    template <typename T>
    LocalTensor<T> DeQue()
    {
        return LocalTensor<T>::oacl_wrap(::oacl_que_deque(&q_, oacl_detail::dtype_of<T>()),
                                         static_cast<uint32_t>(q_.len / sizeof(T)));
    }
    template <typename T>
    void DeQue(LocalTensor<T> &t)
    {
        t = DeQue<T>();
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    LocalTensor<T> DeQue()
    {
        return DeQue<T>();
    }

    template <typename T>
    void FreeTensor(LocalTensor<T> &t)
    {
        ::oacl_que_free(&q_, t.oacl_raw());
    }

    bool VacantInQue() const { return ::oacl_que_vacant(&q_); }
    bool HasTensorInQue() const { return ::oacl_que_has_tensor(&q_); }
    int32_t GetTensorCountInQue() const { return ::oacl_que_count(&q_); }
    bool HasIdleBuffer() const { return ::oacl_que_has_idle(&q_); }
    /* Queues here hold no hardware events. */
    void FreeAllEvent() {}

    /* Not an AscendC member: TPipe::InitBuffer's work. */
    bool oacl_init_buffer(oacl_pipe_t *p, uint8_t num, uint32_t len)
    {
        return ::oacl_pipe_init_buffer(p, &q_, num, len);
    }

private:
    oacl_que_t q_;
};

/* TQue<VECIN> binds GM -> VECIN, TQue<VECOUT> VECOUT -> GM. */
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos == TPosition::VECIN ? TPosition::GM : pos,
                             pos == TPosition::VECOUT ? TPosition::GM : pos, depth, mask> {};

/* ---- TBuf ---------------------------------------------------------------- */

/* One untyped buffer for temporaries: no queue semantics, nothing to free. */
template <TPosition pos = TPosition::LCM>
class TBuf {
public:
    TBuf() : b_() {}
    TBuf(const TBuf &) = delete;
    TBuf &operator=(const TBuf &) = delete;

    template <typename T>
    LocalTensor<T> Get()
    {
        return LocalTensor<T>::oacl_wrap(::oacl_tbuf_get(&b_, oacl_detail::dtype_of<T>()), cap<T>(0));
    }
    /* The first len elements (len * sizeof(T) a non-zero multiple of 32). */
    template <typename T>
    LocalTensor<T> Get(uint32_t len)
    {
        return LocalTensor<T>::oacl_wrap(::oacl_tbuf_get_n(&b_, oacl_detail::dtype_of<T>(), len), cap<T>(0));
    }
    /* size elements from byte offset bufOffset (32-byte aligned). */
    template <typename T>
    LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset)
    {
        oacl_local_t t = ::oacl_tbuf_get(&b_, oacl_detail::dtype_of<T>());
        if (bufOffset % OACL_DATA_BLOCK)
            oacl_kernel_fail(OACL_FAULT_ALIGN, "TBuf::GetWithOffset: offset %u is not a multiple of 32 bytes",
                             bufOffset);
        if (bufOffset > b_.len || size > (b_.len - bufOffset) / sizeof(T))
            oacl_kernel_fail(OACL_FAULT_UB, "TBuf::GetWithOffset(%u, %u): %zu bytes exceed the %u-byte buffer", size,
                             bufOffset, static_cast<size_t>(bufOffset) + size * sizeof(T), b_.len);
        t.addr += bufOffset;
        t.size = size;
        return LocalTensor<T>::oacl_wrap(t, cap<T>(bufOffset));
    }

    /* Not an AscendC member: TPipe::InitBuffer's work. */
    bool oacl_init_buffer(oacl_pipe_t *p, uint32_t len)
    {
        return ::oacl_pipe_init_tbuf(p, &b_, static_cast<oacl_position_t>(pos), len);
    }

private:
    template <typename T>
    uint32_t cap(uint32_t offset) const
    {
        return static_cast<uint32_t>((b_.len - offset) / sizeof(T));
    }
    oacl_tbuf_t b_;
};

/* ---- TPipe --------------------------------------------------------------- */

/*
 * The core's local-memory manager: carves the block's UB for queues and
 * TBufs and owns the event IDs. One live TPipe per block.
 */
class TPipe {
public:
    TPipe() : p_(), alloc_(), set_()
    {
        /* Outside a kernel (a namespace-scope TPipe at load time) there is
           no block: the pipe stays inert and InitBuffer reports it. */
        if (!::oacl_block())
            return;
        ::oacl_pipe_init(&p_);
        ::oacl_pipe_set_owner(this); /* for GetTPipePtr(), without TLS in the kernel binary */
    }
    ~TPipe() { Destroy(); }
    TPipe(const TPipe &) = delete;
    TPipe &operator=(const TPipe &) = delete;

    template <class Q>
    bool InitBuffer(Q &que, uint8_t num, uint32_t len)
    {
        return que.oacl_init_buffer(&p_, num, len);
    }
    template <TPosition pos>
    bool InitBuffer(TBuf<pos> &buf, uint32_t len)
    {
        return buf.oacl_init_buffer(&p_, len);
    }

    /* All memory and events back: queues need InitBuffer again. */
    void Reset()
    {
        ::oacl_pipe_reset(&p_);
        std::memset(alloc_, 0, sizeof(alloc_));
        std::memset(set_, 0, sizeof(set_));
    }

    /* Ends the pipe (the destructor calls it); a flag set and never waited
       for is reported here, at the end of the kernel. */
    void Destroy()
    {
        if (!p_.active)
            return;
        for (unsigned e = 0; e < oacl_detail::kEvents; e++)
            if (set_[e]) {
                unsigned id = 0;
                while (!(set_[e] & (1u << id)))
                    id++;
                std::memset(set_, 0, sizeof(set_));
                oacl_kernel_fail(OACL_FAULT_QUEUE, "SetFlag<HardEvent::%s>(%u) was never waited for",
                                 oacl_detail::event_name(e), id);
            }
        ::oacl_pipe_destroy(&p_);
    }

    template <HardEvent evt>
    TEventID AllocEventID()
    {
        const unsigned e = static_cast<unsigned>(evt);
        for (int32_t id = 0; id < oacl_detail::kEventIds; id++)
            if (!(alloc_[e] & (1u << id))) {
                alloc_[e] = static_cast<uint8_t>(alloc_[e] | (1u << id));
                return static_cast<TEventID>(id);
            }
        oacl_kernel_fail(OACL_FAULT_QUEUE, "AllocEventID<HardEvent::%s>: all %d event IDs are in use",
                         oacl_detail::event_name(e), oacl_detail::kEventIds);
    }
    template <HardEvent evt>
    void ReleaseEventID(TEventID id)
    {
        const unsigned e = static_cast<unsigned>(evt);
        if (id < 0 || id >= oacl_detail::kEventIds || !(alloc_[e] & (1u << id)))
            oacl_kernel_fail(OACL_FAULT_QUEUE, "ReleaseEventID<HardEvent::%s>(%d): the ID is not allocated",
                             oacl_detail::event_name(e), id);
        alloc_[e] = static_cast<uint8_t>(alloc_[e] & ~(1u << id));
    }
    /* A free ID to borrow (not reserved). */
    template <HardEvent evt>
    TEventID FetchEventID()
    {
        return FetchEventID(evt);
    }
    TEventID FetchEventID(HardEvent evt)
    {
        const unsigned e = static_cast<unsigned>(evt);
        for (int32_t id = 0; id < oacl_detail::kEventIds; id++)
            if (!(alloc_[e] & (1u << id)))
                return static_cast<TEventID>(id);
        oacl_kernel_fail(OACL_FAULT_QUEUE, "FetchEventID(HardEvent::%s): all %d event IDs are in use",
                         oacl_detail::event_name(e), oacl_detail::kEventIds);
    }

    /* Not AscendC members: SetFlag/WaitFlag bookkeeping. */
    void oacl_set_flag(unsigned e, int32_t id)
    {
        set_[e] = static_cast<uint8_t>(set_[e] | (1u << id));
    }
    void oacl_wait_flag(unsigned e, int32_t id)
    {
        if (!(set_[e] & (1u << id)))
            oacl_kernel_fail(OACL_FAULT_QUEUE, "WaitFlag<HardEvent::%s>(%d) without a SetFlag (a device would hang)",
                             oacl_detail::event_name(e), static_cast<int>(id));
        set_[e] = static_cast<uint8_t>(set_[e] & ~(1u << id));
    }

private:
    oacl_pipe_t p_;
    uint8_t alloc_[oacl_detail::kEvents]; /* allocated IDs, per event */
    uint8_t set_[oacl_detail::kEvents];   /* set and not yet waited for */
};

/* The running block's live TPipe, or nullptr. */
inline TPipe *GetTPipePtr() { return static_cast<TPipe *>(::oacl_pipe_owner()); }

/* ---- synchronisation ------------------------------------------------------ */

template <pipe_t pipe>
inline void PipeBarrier()
{
    if constexpr (pipe == PIPE_S)
        oacl_kernel_fail(OACL_FAULT_ARG, "PipeBarrier<PIPE_S> is not allowed (scalar code needs no barrier)");
}

namespace oacl_detail {
inline void check_event_id(const char *what, unsigned e, int32_t id)
{
    if (id < 0 || id >= kEventIds)
        oacl_kernel_fail(OACL_FAULT_ARG, "%s<HardEvent::%s>(%d): event IDs are 0..%d", what, event_name(e),
                         static_cast<int>(id), kEventIds - 1);
}
} // namespace oacl_detail

template <HardEvent evt>
inline void SetFlag(int32_t eventID)
{
    const unsigned e = static_cast<unsigned>(evt);
    oacl_detail::check_event_id("SetFlag", e, eventID);
    if (TPipe *p = GetTPipePtr())
        p->oacl_set_flag(e, eventID);
}

template <HardEvent evt>
inline void WaitFlag(int32_t eventID)
{
    const unsigned e = static_cast<unsigned>(evt);
    oacl_detail::check_event_id("WaitFlag", e, eventID);
    if (TPipe *p = GetTPipePtr())
        p->oacl_wait_flag(e, eventID);
}

/* Scalar GM access is coherent here. */
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &)
{
}

/* ---- data movement --------------------------------------------------------- */

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t count)
{
    ::oacl_data_copy_in(dst.oacl_raw(), src.oacl_raw(), count);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count)
{
    ::oacl_data_copy_out(dst.oacl_raw(), src.oacl_raw(), count);
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count)
{
    ::oacl_data_copy_local(dst.oacl_raw(), src.oacl_raw(), count);
}

/* blockCount blocks of blockLen 32-byte units; gaps (end of a block to the
   start of the next) in 32-byte units. For DataCopyPad, blockLen is in
   bytes and the strides follow DataCopyExtParams. */
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    union {
        uint16_t srcGap = 0;
        uint16_t srcStride;
    };
    union {
        uint16_t dstGap = 0;
        uint16_t dstStride;
    };
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcGap(srcStrideIn), dstGap(dstStrideIn)
    {
    }
};

namespace oacl_detail {
inline oacl_copy_params_t copy_params(const DataCopyParams &p)
{
    oacl_copy_params_t c;
    c.block_count = p.blockCount;
    c.block_len = p.blockLen;
    c.src_gap = p.srcGap;
    c.dst_gap = p.dstGap;
    return c;
}
} // namespace oacl_detail

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &params)
{
    ::oacl_data_copy_in_strided(dst.oacl_raw(), src.oacl_raw(), oacl_detail::copy_params(params));
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &params)
{
    ::oacl_data_copy_out_strided(dst.oacl_raw(), src.oacl_raw(), oacl_detail::copy_params(params));
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &params)
{
    ::oacl_data_copy_local_strided(dst.oacl_raw(), src.oacl_raw(), oacl_detail::copy_params(params));
}

/* Rows of blockLen bytes; GM-side strides in bytes, UB-side in 32-byte
   units (see DataCopyPad). */
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn)
    {
    }
};

template <typename T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T();
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool isPadIn, uint8_t left, uint8_t right, T value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value)
    {
    }
};

/* The older padding parameters (the padding value as raw bits). */
struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() = default;
    DataCopyPadParams(bool isPadIn, uint8_t left, uint8_t right, uint64_t value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value)
    {
    }
};

namespace oacl_detail {
inline oacl_pad_params_t pad_params(uint16_t count, uint32_t len, uint32_t src_stride, uint32_t dst_stride)
{
    oacl_pad_params_t p;
    p.block_count = count;
    p.block_len = len;
    p.src_stride = src_stride;
    p.dst_stride = dst_stride;
    return p;
}
} // namespace oacl_detail

/* GM -> UB rows that are not 32-byte multiples, each landing 32-byte
   aligned; padding elements set when isPad. */
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &params,
                        const DataCopyPadExtParams<T> &padParams)
{
    const T value = padParams.paddingValue;
    ::oacl_data_copy_pad_in(dst.oacl_raw(), src.oacl_raw(),
                            oacl_detail::pad_params(params.blockCount, params.blockLen, params.srcStride,
                                                    params.dstStride),
                            padParams.isPad, padParams.leftPadding, padParams.rightPadding, &value);
}
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &params,
                        const DataCopyPadParams &padParams)
{
    T value;
    std::memcpy(static_cast<void *>(&value), &padParams.paddingValue, sizeof(T)); /* the low bytes */
    ::oacl_data_copy_pad_in(dst.oacl_raw(), src.oacl_raw(),
                            oacl_detail::pad_params(params.blockCount, params.blockLen, params.srcStride,
                                                    params.dstStride),
                            padParams.isPad, padParams.leftPadding, padParams.rightPadding, &value);
}
/* UB -> GM: only the real bytes of every row are written. */
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &params)
{
    ::oacl_data_copy_pad_out(dst.oacl_raw(), src.oacl_raw(),
                             oacl_detail::pad_params(params.blockCount, params.blockLen, params.srcStride,
                                                     params.dstStride));
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &params)
{
    ::oacl_data_copy_pad_out(dst.oacl_raw(), src.oacl_raw(),
                             oacl_detail::pad_params(params.blockCount, params.blockLen, params.srcStride,
                                                     params.dstStride));
}

/* ---- vector computation (count form) ----------------------------------------- */

#define OACL_ASC_BINARY(Name, cfn)                                                                                  \
    template <typename T>                                                                                           \
    inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,             \
                     const int32_t &count)                                                                          \
    {                                                                                                               \
        ::cfn(dst.oacl_raw(), src0.oacl_raw(), src1.oacl_raw(), count);                                             \
    }
OACL_ASC_BINARY(Add, oacl_add)
OACL_ASC_BINARY(Sub, oacl_sub)
OACL_ASC_BINARY(Mul, oacl_mul)
OACL_ASC_BINARY(Div, oacl_div)
OACL_ASC_BINARY(Max, oacl_max)
OACL_ASC_BINARY(Min, oacl_min)
#undef OACL_ASC_BINARY

#define OACL_ASC_SCALAR(Name, cfn)                                                                                  \
    template <typename T>                                                                                           \
    inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,                    \
                     const int32_t &count)                                                                          \
    {                                                                                                               \
        ::cfn(dst.oacl_raw(), src.oacl_raw(), static_cast<const void *>(&scalarValue), count);                      \
    }
OACL_ASC_SCALAR(Adds, oacl_adds)
OACL_ASC_SCALAR(Muls, oacl_muls)
OACL_ASC_SCALAR(Maxs, oacl_maxs)
OACL_ASC_SCALAR(Mins, oacl_mins)
OACL_ASC_SCALAR(LeakyRelu, oacl_leaky_relu)
#undef OACL_ASC_SCALAR

#define OACL_ASC_UNARY(Name, cfn)                                                                                   \
    template <typename T>                                                                                           \
    inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count)                    \
    {                                                                                                               \
        ::cfn(dst.oacl_raw(), src.oacl_raw(), count);                                                               \
    }
OACL_ASC_UNARY(Exp, oacl_exp)
OACL_ASC_UNARY(Ln, oacl_ln)
OACL_ASC_UNARY(Abs, oacl_abs)
OACL_ASC_UNARY(Relu, oacl_relu)
OACL_ASC_UNARY(Sqrt, oacl_sqrt)
OACL_ASC_UNARY(Rsqrt, oacl_rsqrt)
OACL_ASC_UNARY(Reciprocal, oacl_reciprocal)
#undef OACL_ASC_UNARY

template <typename T>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, const int32_t &count)
{
    ::oacl_duplicate(dst.oacl_raw(), static_cast<const void *>(&scalarValue), count);
}

template <typename T, typename U>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                 const uint32_t count)
{
    ::oacl_cast(dst.oacl_raw(), src.oacl_raw(), static_cast<int>(roundMode), count);
}

/* sharedTmpBuffer is checked to be a usable UB tensor; its contents are
   not needed here. */
template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t count)
{
    ::oacl_reduce_sum(dst.oacl_raw(), src.oacl_raw(), sharedTmpBuffer.oacl_raw(), count);
}
template <typename T>
inline void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t count, bool calIndex = 0)
{
    ::oacl_reduce_max(dst.oacl_raw(), src.oacl_raw(), sharedTmpBuffer.oacl_raw(), count, calIndex);
}
template <typename T>
inline void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t count, bool calIndex = 0)
{
    ::oacl_reduce_min(dst.oacl_raw(), src.oacl_raw(), sharedTmpBuffer.oacl_raw(), count, calIndex);
}

/* ---- debug output -------------------------------------------------------------- */

namespace oacl_detail {

/* One printf argument, normalised: conversions pick what they need. */
struct PrintArg {
    enum Kind : uint8_t { SINT, UINT, DBL, STR, PTR } kind;
    long long i;
    unsigned long long u;
    double d;
    const void *p;
};

template <typename A>
inline PrintArg print_arg(const A &v)
{
    using D = typename std::decay<A>::type;
    PrintArg a{PrintArg::SINT, 0, 0, 0.0, nullptr};
    if constexpr (std::is_same<D, half>::value || std::is_same<D, bfloat16_t>::value) {
        a.kind = PrintArg::DBL;
        a.d = static_cast<double>(static_cast<float>(v));
    } else if constexpr (std::is_floating_point<D>::value) {
        a.kind = PrintArg::DBL;
        a.d = static_cast<double>(v);
    } else if constexpr (std::is_enum<D>::value) {
        using U = typename std::underlying_type<D>::type;
        return print_arg(static_cast<U>(v));
    } else if constexpr (std::is_integral<D>::value && std::is_signed<D>::value) {
        a.i = static_cast<long long>(v);
    } else if constexpr (std::is_integral<D>::value) {
        a.kind = PrintArg::UINT;
        a.u = static_cast<unsigned long long>(v);
    } else if constexpr (std::is_same<D, char *>::value || std::is_same<D, const char *>::value) {
        a.kind = PrintArg::STR;
        a.p = static_cast<const void *>(static_cast<const char *>(v));
    } else if constexpr (std::is_pointer<D>::value) {
        a.kind = PrintArg::PTR;
        a.p = reinterpret_cast<const void *>(v);
    } else if constexpr (std::is_null_pointer<D>::value) {
        a.kind = PrintArg::PTR;
    } else {
        static_assert(always_false<D>::value, "AscendC::printf: unsupported argument type");
    }
    if (a.kind == PrintArg::SINT) {
        a.u = static_cast<unsigned long long>(a.i);
        a.d = static_cast<double>(a.i);
    } else if (a.kind == PrintArg::UINT) {
        a.i = static_cast<long long>(a.u);
        a.d = static_cast<double>(a.u);
    } else if (a.kind == PrintArg::DBL) {
        a.i = a.d == a.d && a.d > -9.2e18 && a.d < 9.2e18 ? static_cast<long long>(a.d) : 0;
        a.u = static_cast<unsigned long long>(a.i);
    }
    return a;
}

/* Collects a printf call's text so that it reaches stdout in one piece
   (only text beyond the buffer is written in more than one). */
class PrintOut {
public:
    PrintOut() : n_(0) {}
    void put(const char *s, size_t k)
    {
        while (k) {
            if (n_ == sizeof(buf_))
                flush();
            size_t m = sizeof(buf_) - n_ < k ? sizeof(buf_) - n_ : k;
            std::memcpy(buf_ + n_, s, m);
            n_ += m;
            s += m;
            k -= m;
        }
    }
    void pad(char c, size_t k)
    {
        while (k--)
            put(&c, 1);
    }
    void flush()
    {
        if (n_)
            ::oacl_printf("%.*s", static_cast<int>(n_), buf_);
        n_ = 0;
    }

private:
    char buf_[2048];
    size_t n_;
};

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
/* Formats one conversion with the C library (spec is well formed). */
template <typename V>
inline void put_formatted(PrintOut &o, const char *spec, V v)
{
    char tmp[512];
    int k = __builtin_snprintf(tmp, sizeof(tmp), spec, v);
    if (k > 0)
        o.put(tmp, static_cast<size_t>(k) < sizeof(tmp) ? static_cast<size_t>(k) : sizeof(tmp) - 1);
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/*
 * printf with the conversions AscendC documents (d i u x X o f F e E g G a
 * A c s p, flags, width, precision, length modifiers), each argument
 * converted to what its conversion needs, so %d with an int64_t or %f with
 * a half print what they mean.
 */
inline void vprint(const char *fmt, const PrintArg *args, size_t nargs)
{
    PrintOut o;
    size_t ai = 0;
    const char *p = fmt ? fmt : "(null)";
    while (*p) {
        if (*p != '%') {
            const char *q = p;
            while (*q && *q != '%')
                q++;
            o.put(p, static_cast<size_t>(q - p));
            p = q;
            continue;
        }
        if (p[1] == '%') {
            o.put("%", 1);
            p += 2;
            continue;
        }
        const char *start = p++;
        char spec[48] = "%";
        size_t n = 1;
        bool left = false, bad = false;
        while (*p && std::strchr("-+ #0", *p)) {
            left |= *p == '-';
            if (n < 8)
                spec[n++] = *p;
            p++;
        }
        long width = -1, prec = -1;
        if (*p == '*') {
            width = ai < nargs ? static_cast<long>(args[ai++].i) : 0;
            if (width < 0) {
                left = true;
                spec[n++] = '-';
                width = -width;
            }
            p++;
        } else {
            while (*p >= '0' && *p <= '9')
                width = (width < 0 ? 0 : width * 10) + (*p++ - '0');
        }
        if (*p == '.') {
            p++;
            prec = 0;
            if (*p == '*') {
                prec = ai < nargs ? static_cast<long>(args[ai++].i) : 0;
                p++;
            } else {
                while (*p >= '0' && *p <= '9')
                    prec = prec * 10 + (*p++ - '0');
            }
        }
        if (width > 1000)
            width = 1000;
        if (prec > 400)
            prec = 400;
        while (*p && std::strchr("hlLqjzt", *p))
            p++;
        const char c = *p;
        if (!c || !std::strchr("diuxXofFeEgGaAcsp", c) || ai >= nargs)
            bad = true;
        if (bad) { /* unknown conversion or missing argument: print it as written */
            const char *end = c ? p + 1 : p;
            o.put(start, static_cast<size_t>(end - start));
            p = end;
            continue;
        }
        p++;
        const PrintArg &a = args[ai++];
        if (c == 's') {
            const char *s = a.kind == PrintArg::STR ? static_cast<const char *>(a.p) : nullptr;
            if (!s)
                s = "(null)";
            size_t len = std::strlen(s);
            if (prec >= 0 && static_cast<size_t>(prec) < len)
                len = static_cast<size_t>(prec);
            size_t w = width > 0 ? static_cast<size_t>(width) : 0;
            if (!left && w > len)
                o.pad(' ', w - len);
            o.put(s, len);
            if (left && w > len)
                o.pad(' ', w - len);
            continue;
        }
        char num[24];
        int k = 0;
        if (width >= 0)
            k = __builtin_snprintf(num, sizeof(num), "%ld", width);
        if (k > 0)
            std::memcpy(spec + n, num, static_cast<size_t>(k)), n += static_cast<size_t>(k);
        if (prec >= 0) {
            k = __builtin_snprintf(num, sizeof(num), ".%ld", prec);
            if (k > 0)
                std::memcpy(spec + n, num, static_cast<size_t>(k)), n += static_cast<size_t>(k);
        }
        switch (c) {
        case 'd': case 'i':
            spec[n++] = 'l', spec[n++] = 'l', spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, a.i);
            break;
        case 'u': case 'x': case 'X': case 'o':
            spec[n++] = 'l', spec[n++] = 'l', spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, a.u);
            break;
        case 'c':
            spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, static_cast<int>(a.i));
            break;
        case 'p':
            spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, a.p ? a.p : reinterpret_cast<const void *>(static_cast<uintptr_t>(a.u)));
            break;
        default:
            spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, a.d);
            break;
        }
    }
    o.flush();
}

[[noreturn]] inline void assert_fail(const char *file, int line, const char *func, const char *expr,
                                     const char *fmt, const PrintArg *args, size_t nargs)
{
    ::oacl_printf("[ASSERT] %s:%d: %s: Assertion `%s' failed.\n", file, line, func, expr);
    if (fmt)
        vprint(fmt, args, nargs);
    const char *base = std::strrchr(file, '/');
    oacl_kernel_fail(OACL_FAULT_USER, "assertion `%.120s' failed at %.60s:%d", expr, base ? base + 1 : file, line);
}

template <class... Args>
[[noreturn]] inline void assert_fail_fmt(const char *file, int line, const char *func, const char *expr,
                                         const char *fmt, Args &&...args)
{
    const PrintArg list[sizeof...(Args) + 1] = {print_arg(args)..., PrintArg{PrintArg::SINT, 0, 0, 0.0, nullptr}};
    assert_fail(file, line, func, expr, fmt, list, sizeof...(Args));
}

} // namespace oacl_detail

#if defined(ASCENDC_DUMP)
#define OACL_ASC_DUMP_OFF (ASCENDC_DUMP + 0 == 0)
#else
#define OACL_ASC_DUMP_OFF 0
#endif

/* Kernel printf: the text goes to stdout at once, as one piece, without
   the NPU's "[AIV Block i/n]" prefix; compiled out with ASCENDC_DUMP=0. */
template <class... Args>
inline void printf(const __gm__ char *fmt, Args &&...args)
{
#if OACL_ASC_DUMP_OFF
    (void)fmt;
    (void)sizeof...(args);
#else
    const oacl_detail::PrintArg list[sizeof...(Args) + 1] = {
        oacl_detail::print_arg(args)..., oacl_detail::PrintArg{oacl_detail::PrintArg::SINT, 0, 0, 0.0, nullptr}};
    oacl_detail::vprint(fmt, list, sizeof...(Args));
#endif
}

template <class... Args>
inline void PRINTF(const __gm__ char *fmt, Args &&...args)
{
    AscendC::printf(fmt, static_cast<Args &&>(args)...);
}

/* Stops the kernel with an error: the launch fails on its stream. */
[[noreturn]] inline void Trap() { ::oacl_kernel_trap(); }

} // namespace AscendC

/* Kernel task types only steer core selection on a device. */
#ifndef KERNEL_TASK_TYPE_DEFAULT
#define KERNEL_TASK_TYPE_DEFAULT(type)
#endif
#ifndef KERNEL_TASK_TYPE
#define KERNEL_TASK_TYPE(key, type)
#endif

#define ASCEND_IS_AIV constexpr(::AscendC::g_coreType == ::AscendC::AIV)
#define ASCEND_IS_AIC constexpr(::AscendC::g_coreType == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV constexpr(::AscendC::g_coreType != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC constexpr(::AscendC::g_coreType != ::AscendC::AIC)

/*
 * Kernel assert(expr) and assert(expr, fmt, args...): on failure prints
 * "[ASSERT] file:line: func: Assertion `expr' failed." (and the message)
 * and fails the launch. Replaces <cassert>'s assert from here on (a later
 * #include <cassert> brings the C one back); off with NDEBUG or
 * ASCENDC_DUMP=0.
 */
#undef assert
#if defined(NDEBUG) || OACL_ASC_DUMP_OFF
#define assert(...) (static_cast<void>(0))
#else
#define OACL_ASC_CAT_(a, b) a##b
#define OACL_ASC_CAT(a, b) OACL_ASC_CAT_(a, b)
#define OACL_ASC_PICK_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, name, ...) name
#define OACL_ASC_ASSERT_1(expr)                                                                                      \
    ((expr) ? static_cast<void>(0)                                                                                   \
            : ::AscendC::oacl_detail::assert_fail(__FILE__, __LINE__, __func__, #expr, nullptr, nullptr, 0))
#define OACL_ASC_ASSERT_N(expr, ...)                                                                                 \
    ((expr) ? static_cast<void>(0)                                                                                   \
            : ::AscendC::oacl_detail::assert_fail_fmt(__FILE__, __LINE__, __func__, #expr, __VA_ARGS__))
#define assert(...)                                                                                                  \
    OACL_ASC_CAT(OACL_ASC_ASSERT_, OACL_ASC_PICK_(__VA_ARGS__, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, 1,  \
                                                  0))(__VA_ARGS__)
#endif

#endif /* OACL_KERNEL_OPERATOR_H */
