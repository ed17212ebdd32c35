/*
 * AscendC layer of oacl (part of kernel_operator.h, which includes these
 * parts in order): DataCopy, DataCopyPad and their parameter structures.
 */
#ifndef OACL_ASC_DATA_COPY_H
#define OACL_ASC_DATA_COPY_H

#include "oacl/asc/pipe.h"

namespace AscendC {

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

} // namespace AscendC

#endif /* OACL_ASC_DATA_COPY_H */
