// AscendC kernels that break one rule each, checked by AscendC's CPU-debug
// mode and by oacl. Only block `bad` misbehaves; the others write 1 to
// out[block], so the test can check that the fault names the right block.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

__aicore__ inline bool Good(GM_ADDR out, uint32_t bad)
{
    const uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
    if (idx != bad) {
        ((__gm__ uint32_t *)out)[idx] = 1;
        return true;
    }
    return false;
}

} // namespace

#define FAULT_KERNEL(name) extern "C" __global__ __aicore__ void name(GM_ADDR out, uint32_t bad)
#define ONLY_BAD                                                                                                     \
    if (Good(out, bad))                                                                                              \
    return

// A third AllocTensor from a two-buffer queue without a FreeTensor.
FAULT_KERNEL(alloc_no_free)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<half> a = q.AllocTensor<half>();
    LocalTensor<half> b = q.AllocTensor<half>();
    LocalTensor<half> c = q.AllocTensor<half>();
    (void)a;
    (void)b;
    (void)c;
}

// Two EnQue into a depth-1 queue.
FAULT_KERNEL(enque_over_depth)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> a = q.AllocTensor<float>();
    LocalTensor<float> b = q.AllocTensor<float>();
    q.EnQue(a);
    q.EnQue(b);
}

// DeQue from a queue nothing was enqueued into.
FAULT_KERNEL(deque_empty)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<half> a = q.DeQue<half>();
    (void)a;
}

// FreeTensor twice.
FAULT_KERNEL(double_free)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<half> a = q.AllocTensor<half>();
    q.FreeTensor(a);
    q.FreeTensor(a);
}

// FreeTensor of another queue's tensor.
FAULT_KERNEL(foreign_free)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q1, q2;
    pipe.InitBuffer(q1, 1, 256);
    pipe.InitBuffer(q2, 1, 256);
    LocalTensor<half> a = q1.AllocTensor<half>();
    q2.FreeTensor(a);
}

// EnQue of a TBuf tensor (it belongs to no queue).
FAULT_KERNEL(enque_tbuf_tensor)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(q, 1, 256);
    pipe.InitBuffer(b, 256);
    LocalTensor<half> t = b.Get<half>();
    q.EnQue(t);
}

// More UB than the SoC has (192 KiB on Ascend910B3).
FAULT_KERNEL(initbuffer_over_ub)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q1, q2;
    TBuf<> tmp;
    pipe.InitBuffer(q1, 2, 64 * 1024);
    pipe.InitBuffer(tmp, 32 * 1024);
    pipe.InitBuffer(q2, 1, 64 * 1024);
}

// A second TPipe while the first is alive.
FAULT_KERNEL(second_pipe)
{
    ONLY_BAD;
    TPipe one;
    TPipe two;
}

// A queue of a cube position (L1) on the vector core.
FAULT_KERNEL(non_ub_queue)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::A1, 1> q;
    pipe.InitBuffer(q, 1, 256);
}

// A queue used after its pipe was reset.
FAULT_KERNEL(que_after_reset)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    pipe.Reset();
    LocalTensor<half> a = q.AllocTensor<half>();
    (void)a;
}

// Nine VECIN buffers allocated at once (8 is the limit per position).
FAULT_KERNEL(too_many_live)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q1, q2;
    pipe.InitBuffer(q1, 5, 64);
    pipe.InitBuffer(q2, 5, 64);
    for (int i = 0; i < 5; i++)
        (void)q1.AllocTensor<half>();
    for (int i = 0; i < 5; i++)
        (void)q2.AllocTensor<half>();
}

// DataCopy of 17 halves (34 bytes, not a multiple of 32).
FAULT_KERNEL(copy_not_32)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)out, 64);
    LocalTensor<half> a = q.AllocTensor<half>();
    DataCopy(a, g, 17);
}

// DataCopy of more elements than the local tensor holds.
FAULT_KERNEL(copy_too_long)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 64);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)out, 64);
    LocalTensor<float> a = q.AllocTensor<float>();
    DataCopy(g, a, 32);
}

// DataCopy into a sub-tensor that starts 6 bytes into a buffer.
FAULT_KERNEL(copy_misaligned)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)out, 64);
    LocalTensor<half> a = q.AllocTensor<half>();
    DataCopy(a[3], g, 16);
}

// Add on a sub-tensor operand that is not 32-byte aligned.
FAULT_KERNEL(add_misaligned)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<half> t = b.Get<half>();
    Add(t, t, t[3], 16);
}

// Add with a count larger than an operand.
FAULT_KERNEL(count_too_large)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b1, b2;
    pipe.InitBuffer(b1, 1024);
    pipe.InitBuffer(b2, 256);
    LocalTensor<float> big = b1.Get<float>();
    LocalTensor<float> small = b2.Get<float>();
    Mul(big, big, small, 65);
}

// Destination partially overlapping a source.
FAULT_KERNEL(partial_overlap)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    Sub(t[8], t, t, 64);
}

// Div on int32_t (half and float only).
FAULT_KERNEL(div_int)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<int32_t> t = b.Get<int32_t>();
    Div(t, t, t, 8);
}

// Exp on int16_t.
FAULT_KERNEL(exp_int)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<int16_t> t = b.Get<int16_t>();
    Exp(t, t, 16);
}

// Cast float -> int32 needs a rounding mode (CAST_NONE is not allowed).
FAULT_KERNEL(cast_bad_mode)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b1, b2;
    pipe.InitBuffer(b1, 256);
    pipe.InitBuffer(b2, 256);
    LocalTensor<float> f = b1.Get<float>();
    LocalTensor<int32_t> i = b2.Get<int32_t>();
    Cast(i, f, RoundMode::CAST_NONE, 8);
}

// Cast between a pair the vector unit has no conversion for.
FAULT_KERNEL(cast_bad_pair)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b1, b2;
    pipe.InitBuffer(b1, 256);
    pipe.InitBuffer(b2, 256);
    LocalTensor<uint8_t> u = b1.Get<uint8_t>();
    LocalTensor<float> f = b2.Get<float>();
    Cast(f, u, RoundMode::CAST_NONE, 32);
}

// A negative count.
FAULT_KERNEL(negative_count)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 256);
    LocalTensor<half> t = b.Get<half>();
    Relu(t, t, -1);
}

// A default-constructed LocalTensor as an operand.
FAULT_KERNEL(unbound_operand)
{
    ONLY_BAD;
    LocalTensor<float> none;
    Duplicate(none, 1.0f, 8);
}

// GetValue past the end of a tensor.
FAULT_KERNEL(get_value_oob)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<float> t = b.Get<float>();
    ((__gm__ uint32_t *)out)[bad] = static_cast<uint32_t>(t.GetValue(16));
}

// A sub-tensor starting past the buffer.
FAULT_KERNEL(slice_oob)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<half> t = b.Get<half>();
    LocalTensor<half> s = t[32];
    (void)s;
}

// SetSize beyond the buffer.
FAULT_KERNEL(set_size_oob)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<half> t = b.Get<half>();
    t.SetSize(33);
}

// TBuf::Get(len) with len * sizeof(T) not a multiple of 32.
FAULT_KERNEL(tbuf_get_len)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 256);
    LocalTensor<half> t = b.Get<half>(15);
    (void)t;
}

// TBuf::GetWithOffset at an offset that is not 32-byte aligned.
FAULT_KERNEL(tbuf_offset_misaligned)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 256);
    LocalTensor<half> t = b.GetWithOffset<half>(16, 16);
    (void)t;
}

// Strided copy whose blocks overrun the local tensor.
FAULT_KERNEL(strided_too_long)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)out, 1024);
    LocalTensor<half> a = q.AllocTensor<half>();
    DataCopy(a, g, DataCopyParams(4, 2, 0, 1)); // (3 * 3 + 2) * 32 = 352 > 256
}

// DataCopyPad with a row length that is not a multiple of the element.
FAULT_KERNEL(pad_bad_len)
{
    ONLY_BAD;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)out, 64);
    LocalTensor<float> a = q.AllocTensor<float>();
    DataCopyPad(a, g, DataCopyExtParams(1, 10, 0, 0, 0), DataCopyPadExtParams<float>());
}

// WaitFlag for an event that was never set (a device would hang).
FAULT_KERNEL(wait_without_set)
{
    ONLY_BAD;
    TPipe pipe;
    WaitFlag<HardEvent::MTE2_V>(0);
}

// SetFlag left un-waited at the end of the kernel.
FAULT_KERNEL(set_never_waited)
{
    ONLY_BAD;
    TPipe pipe;
    SetFlag<HardEvent::V_MTE3>(2);
}

// Event ID 8 (0..7 exist).
FAULT_KERNEL(event_id_range)
{
    ONLY_BAD;
    SetFlag<HardEvent::S_V>(8);
}

// Nine AllocEventID for one event.
FAULT_KERNEL(event_ids_exhausted)
{
    ONLY_BAD;
    TPipe pipe;
    for (int i = 0; i < 9; i++)
        (void)pipe.AllocEventID<HardEvent::MTE2_V>();
}

// PipeBarrier<PIPE_S> is not valid.
FAULT_KERNEL(barrier_pipe_s)
{
    ONLY_BAD;
    PipeBarrier<PIPE_S>();
}

// AscendC::Trap().
FAULT_KERNEL(trap_kernel)
{
    ONLY_BAD;
    Trap();
}

// ReduceMax with the index needs room for two results.
FAULT_KERNEL(reduce_dst_small)
{
    ONLY_BAD;
    TPipe pipe;
    TBuf<> b, w;
    pipe.InitBuffer(b, 256);
    pipe.InitBuffer(w, 256);
    LocalTensor<float> t = b.Get<float>();
    LocalTensor<float> dst = t[56];
    dst.SetSize(1);
    ReduceMax(dst, t, w.Get<float>(), 32, true);
}
