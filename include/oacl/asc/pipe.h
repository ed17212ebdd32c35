/*
 * AscendC layer of oacl (part of kernel_operator.h, which includes these
 * parts in order): TPipe, TQue/TQueBind, TBuf and the synchronisation calls between
 * pipes.
 */
#ifndef OACL_ASC_PIPE_H
#define OACL_ASC_PIPE_H

#include "oacl/asc/tensor.h"

namespace AscendC {

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

} // namespace AscendC

#endif /* OACL_ASC_PIPE_H */
