/*
 * AscendC layer of oacl (part of kernel_operator.h, which includes these
 * parts in order): vector computation (count form): arithmetic, scalar, unary,
 * Duplicate, Cast, reductions.
 */
#ifndef OACL_ASC_VEC_OPS_H
#define OACL_ASC_VEC_OPS_H

#include "oacl/asc/data_copy.h"

namespace AscendC {

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

} // namespace AscendC

#endif /* OACL_ASC_VEC_OPS_H */
