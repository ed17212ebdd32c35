/*
 * AscendC layer of oacl (part of kernel_operator.h, which includes these
 * parts in order): namespace AscendC: enumerations, memory sizes, block queries,
 * element-type mapping.
 */
#ifndef OACL_ASC_TYPES_H
#define OACL_ASC_TYPES_H

#include "oacl/asc/half.h"

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

} // namespace AscendC

#endif /* OACL_ASC_TYPES_H */
