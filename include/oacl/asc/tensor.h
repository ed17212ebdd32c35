/*
 * AscendC layer of oacl (part of kernel_operator.h, which includes these
 * parts in order): GlobalTensor and LocalTensor.
 */
#ifndef OACL_ASC_TENSOR_H
#define OACL_ASC_TENSOR_H

#include "oacl/asc/types.h"

namespace AscendC {

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
        r.g_.addr += offset * sizeof(T); /* g_.dtype is T's: no run-time size lookup */
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

} // namespace AscendC

#endif /* OACL_ASC_TENSOR_H */
