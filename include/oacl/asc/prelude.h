/*
 * AscendC layer of oacl (part of kernel_operator.h, which includes these
 * parts in order): the device compiler's predefined macros and builtins (block_idx,
 * pipe_t, event_t, barriers, dcci).
 */
#ifndef OACL_ASC_PRELUDE_H
#define OACL_ASC_PRELUDE_H

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

#endif /* OACL_ASC_PRELUDE_H */
