// AscendC classes and helpers: each kernel records what it observes as
// 32-bit words in `out` (layouts in tests/ascendc/test_ascendc_api.c).
// Written with fully qualified names (asc_ops.cpp uses the directive).
#include "kernel_operator.h"

namespace {

// Writes v as word i of out (scalar GM write through a __gm__ pointer).
__aicore__ inline void Put(GM_ADDR out, uint32_t i, uint32_t v) { ((__gm__ uint32_t *)out)[i] = v; }

__aicore__ inline uint32_t Bits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

} // namespace

// GlobalTensor: binding, sizes, offsets, scalar access, reinterpretation.
extern "C" __global__ __aicore__ void gm_accessors(GM_ADDR in, GM_ADDR out)
{
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)in, 64);
    Put(out, 0, static_cast<uint32_t>(g.GetSize()));
    AscendC::GlobalTensor<float> g8 = g[8];
    Put(out, 1, static_cast<uint32_t>(g8.GetSize()));             // not reduced by []
    Put(out, 2, Bits(g8.GetValue(0)));                             // in[8]
    Put(out, 3, Bits(g.GetValue(63)));                             // in[63]
    g8.SetValue(1, 42.5f);                                         // in[9]
    g(10) = -3.0f;                                                 // in[10]
    g8(3) += 1.0f;                                                 // in[11] + 1
    Put(out, 4, static_cast<uint32_t>(g.GetPhyAddr(5) - (__gm__ float *)in));
    Put(out, 5, g8.GetPhyAddr() == (__gm__ float *)in + 8);
    AscendC::GlobalTensor<uint16_t> h = g.ReinterpretCast<uint16_t>();
    Put(out, 6, static_cast<uint32_t>(h.GetSize()));              // 128
    Put(out, 7, h.GetValue(1));                                    // high half of in[0]
    AscendC::GlobalTensor<float> unsized;
    unsized.SetGlobalBuffer((__gm__ float *)in + 2);
    Put(out, 8, static_cast<uint32_t>(unsized.GetSize()));        // 0
    Put(out, 9, Bits(unsized.GetValue(0)));                        // in[2]
    AscendC::GlobalTensor<half> hv;
    hv.SetGlobalBuffer((__gm__ half *)out + 40, 4);                // words 20, 21
    hv.SetValue(0, half(1.5f));
    hv.SetValue(1, static_cast<half>(-2));
    hv.SetValue(2, half(65520.0));
    hv.SetValue(3, hv.GetValue(0) + hv.GetValue(0));
    // tiling data read through a __gm__ struct pointer
    struct Tiling {
        uint32_t a;
        uint32_t b;
    };
    const __gm__ Tiling *t = (const __gm__ Tiling *)in;
    Put(out, 10, t->a ^ t->b);
}

// LocalTensor accessors and the queue queries along the buffer states.
extern "C" __global__ __aicore__ void local_accessors(GM_ADDR out)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> qin;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> qout;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> bind;
    pipe.InitBuffer(qin, 2, 256);
    pipe.InitBuffer(qout, 1, 100);                                 // rounded up to 128
    pipe.InitBuffer(bind, 1, 64);
    Put(out, 0, qin.HasIdleBuffer());                              // 1
    Put(out, 1, qin.VacantInQue());                                // 1
    AscendC::LocalTensor<half> a = qin.AllocTensor<half>();
    AscendC::LocalTensor<half> b;
    qin.AllocTensor(b);
    Put(out, 2, qin.HasIdleBuffer());                              // 0
    Put(out, 3, a.GetSize());                                      // 128
    Put(out, 4, a.GetLength());                                    // 256
    Put(out, 5, static_cast<uint32_t>(a.GetPosition()));           // 9
    Put(out, 6, static_cast<uint32_t>(a.GetPhyAddr() % 32));       // 0
    Put(out, 7, static_cast<uint32_t>(b.GetPhyAddr() - a.GetPhyAddr())); // 256
    for (uint32_t i = 0; i < 128; i++)
        a.SetValue(i, half(static_cast<float>(i)));
    a(5) = half(-7.25f);
    AscendC::LocalTensor<half> s = a[16];
    Put(out, 8, s.GetSize());                                      // 112
    Put(out, 9, static_cast<uint32_t>(s.GetPhyAddr() - a.GetPhyAddr())); // 32
    Put(out, 10, Bits(s.GetValue(0)));                             // 16.0f
    Put(out, 11, Bits(a.GetValue(5)));                             // -7.25f
    Put(out, 12, static_cast<uint32_t>(a.GetPhyAddr(3) - a.GetPhyAddr())); // 6
    AscendC::LocalTensor<uint32_t> w = a.ReinterpretCast<uint32_t>();
    Put(out, 13, w.GetSize());                                     // 64
    Put(out, 14, w.GetValue(1));                                   // halves 2 and 3
    a.SetSize(40);
    Put(out, 15, a.GetSize());                                     // 40
    a.SetSize(128);
    a.SetUserTag(77);
    Put(out, 16, static_cast<uint32_t>(a.GetUserTag()));
    qin.EnQue(a);
    Put(out, 17, static_cast<uint32_t>(qin.GetTensorCountInQue())); // 1
    qin.EnQue<half>(b);
    Put(out, 18, qin.VacantInQue());                               // 0 (depth 2)
    Put(out, 19, qin.HasTensorInQue());                            // 1
    AscendC::LocalTensor<half> d1 = qin.DeQue<half>();
    AscendC::LocalTensor<half> d2;
    qin.DeQue(d2);
    Put(out, 20, d1.GetPhyAddr() == a.GetPhyAddr() && d2.GetPhyAddr() == b.GetPhyAddr()); // FIFO
    Put(out, 21, qin.HasTensorInQue());                            // 0
    qin.FreeTensor(d1);
    qin.FreeTensor(d2);
    Put(out, 22, qin.HasIdleBuffer());                             // 1
    AscendC::LocalTensor<float> o = qout.AllocTensor<float>();
    Put(out, 23, o.GetSize());                                     // 32 (128 bytes)
    Put(out, 24, static_cast<uint32_t>(o.GetPosition()));          // 10
    qout.EnQue(o);
    o = qout.DeQue<float>();
    qout.FreeTensor(o);
    AscendC::LocalTensor<int32_t> bt = bind.AllocTensor<int32_t>();
    Put(out, 25, static_cast<uint32_t>(bt.GetPosition()));         // 9
    bind.EnQue<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, int32_t>(bt);
    bt = bind.DeQue<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, int32_t>();
    bind.FreeTensor(bt);
    qin.FreeAllEvent();
    Put(out, 26, AscendC::GetTPipePtr() == &pipe);
    // A whole-tensor round trip through GM: AllocTensor + DataCopy both ways.
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)out + 64, 128);               // words 32..95
    AscendC::LocalTensor<half> t = qin.AllocTensor<half>();
    for (uint32_t i = 0; i < 128; i++)
        t.SetValue(i, half(static_cast<int>(i) - 64));
    AscendC::DataCopy(g, t, 128);
    qin.FreeTensor(t);
}

// TBuf: Get, Get(len), GetWithOffset over the same memory; a UB -> UB copy.
extern "C" __global__ __aicore__ void tbuf_ops(GM_ADDR out)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::TBuf<> deflt;
    pipe.InitBuffer(buf, 1000);                                    // 1024
    pipe.InitBuffer(deflt, 64);
    AscendC::LocalTensor<float> all = buf.Get<float>();
    Put(out, 0, all.GetSize());                                    // 256
    Put(out, 1, static_cast<uint32_t>(all.GetPosition()));         // 11
    AscendC::LocalTensor<float> first = buf.Get<float>(16);
    Put(out, 2, first.GetSize());                                  // 16
    AscendC::LocalTensor<float> mid = buf.GetWithOffset<float>(8, 64);
    Put(out, 3, mid.GetSize());                                    // 8
    Put(out, 4, static_cast<uint32_t>(mid.GetPhyAddr() - all.GetPhyAddr())); // 64
    AscendC::Duplicate(all, 1.0f, 256);
    AscendC::Duplicate(mid, 3.0f, 8);                              // elements 16..23
    AscendC::PipeBarrier<PIPE_V>();
    Put(out, 5, Bits(all.GetValue(16)));                           // 3.0f
    Put(out, 6, Bits(first.GetValue(15)));                         // 1.0f
    AscendC::LocalTensor<float> d = deflt.Get<float>();
    Put(out, 7, static_cast<uint32_t>(d.GetPosition()));           // 11 (LCM = VECCALC)
    AscendC::DataCopy(d, all[8], 16);                              // UB -> UB: 8..23
    Put(out, 8, Bits(d.GetValue(7)));                              // all[15] = 1
    Put(out, 9, Bits(d.GetValue(8)));                              // all[16] = 3
    Put(out, 10, d.GetSize());                                     // 16
}

// DataCopyParams: strided GM -> UB, UB -> UB and UB -> GM.
// in: 256 int32 = 32 blocks of 8; the kernel gathers blocks 0, 3, 6, 9
// (2 blocks each... see the test), then scatters them with a gap.
extern "C" __global__ __aicore__ void strided_copy(GM_ADDR in, GM_ADDR out)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> qi;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, 1024);
    pipe.InitBuffer(qo, 1, 1024);
    AscendC::GlobalTensor<int32_t> gi, go;
    gi.SetGlobalBuffer((__gm__ int32_t *)in, 256);
    go.SetGlobalBuffer((__gm__ int32_t *)out, 256);
    AscendC::LocalTensor<int32_t> a = qi.AllocTensor<int32_t>();
    AscendC::Duplicate(a, -1, 256);
    // 4 blocks of 2 x 32 bytes, source gap 1 block, destination gap 0.
    AscendC::DataCopyParams p(4, 2, 1, 0);
    AscendC::DataCopy(a, gi, p);
    qi.EnQue(a);
    a = qi.DeQue<int32_t>();
    AscendC::LocalTensor<int32_t> b = qo.AllocTensor<int32_t>();
    AscendC::Duplicate(b, -2, 256);
    // UB -> UB: 2 blocks of 4 x 32 bytes, destination gap 2 blocks.
    AscendC::DataCopyParams q;
    q.blockCount = 2;
    q.blockLen = 4;
    q.dstStride = 2;                                               // the older name of dstGap
    AscendC::DataCopy(b, a, q);
    // UB -> GM: 3 blocks of 1 x 32 bytes, source gap 1, destination gap 3.
    AscendC::DataCopyParams r(3, 1, 1, 3);
    AscendC::DataCopy(go, b, r);
    // A no-op: blockLen 0.
    AscendC::DataCopy(go, b, AscendC::DataCopyParams(5, 0, 0, 0));
    qo.FreeTensor(b);
    qi.FreeTensor(a);
}

// DataCopyPad: rows of 10 halves (20 bytes) from GM with padding to UB,
// then back to GM without the filler.
extern "C" __global__ __aicore__ void pad_copy(GM_ADDR in, GM_ADDR out, GM_ADDR back)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> qi;
    pipe.InitBuffer(qi, 1, 512);
    AscendC::GlobalTensor<half> gi, go, gb;
    gi.SetGlobalBuffer((__gm__ half *)in, 64);
    go.SetGlobalBuffer((__gm__ half *)out, 256);
    gb.SetGlobalBuffer((__gm__ half *)back, 64);
    AscendC::LocalTensor<half> t = qi.AllocTensor<half>();
    AscendC::Duplicate(t, half(9.0f), 256);
    // 3 rows of 20 bytes, GM rows 4 bytes apart (2 halves skipped), one
    // block gap in UB; 2 elements of left padding, 1 of right, value -1.
    AscendC::DataCopyExtParams p(3, 20, 4, 1, 0);
    AscendC::DataCopyPadExtParams<half> pad(true, 2, 1, half(-1.0f));
    AscendC::DataCopyPad(t, gi, p, pad);
    AscendC::DataCopy(go, t, 256);                                  // the whole UB image
    // Back to GM: rows of 26 bytes (left pad + data + right pad), UB gap 1
    // block, GM rows 2 bytes apart.
    AscendC::DataCopyExtParams q(3, 26, 1, 2, 0);
    AscendC::DataCopyPad(gb, t, q);
    // The older parameter structs: one row of 6 bytes, no padding.
    AscendC::DataCopyParams old(1, 6, 0, 0);
    AscendC::DataCopyPadParams oldPad(false, 0, 0, 0);
    AscendC::LocalTensor<half> u = t[128];
    AscendC::DataCopyPad(u, gi, old, oldPad);
    AscendC::DataCopyPad(gb[60], u, old);
    qi.FreeTensor(t);
}

// Blocks, core queries, events, barriers, cache maintenance.
extern "C" __global__ __aicore__ void core_info(GM_ADDR out)
{
    const uint32_t base = static_cast<uint32_t>(AscendC::GetBlockIdx()) * 16;
    Put(out, base + 0, static_cast<uint32_t>(AscendC::GetBlockIdx()));
    Put(out, base + 1, static_cast<uint32_t>(AscendC::GetBlockNum()));
    Put(out, base + 2, static_cast<uint32_t>(block_idx));
    Put(out, base + 3, static_cast<uint32_t>(block_num));
    Put(out, base + 4, static_cast<uint32_t>(AscendC::GetSubBlockIdx() + 10 * AscendC::GetSubBlockNum() +
                                             100 * AscendC::GetTaskRatio())); // 110
    uint32_t core = 0;
    if ASCEND_IS_AIV {
        core |= 1;
    }
    if ASCEND_IS_AIC {
        core |= 2;
    }
    if ASCEND_IS_NOT_AIC {
        core |= 4;
    }
    Put(out, base + 5, core);                                      // 5
    Put(out, base + 6, AscendC::GetUBSizeInBytes());
    Put(out, base + 7, AscendC::GetDataBlockSizeInBytes() + static_cast<uint32_t>(AscendC::ASC_UB_SIZE));
    Put(out, base + 8, AscendC::GetTPipePtr() == nullptr);         // no pipe yet
    AscendC::TPipe pipe;
    AscendC::TEventID id = pipe.AllocEventID<AscendC::HardEvent::V_MTE3>();
    AscendC::TEventID id2 = pipe.AllocEventID<AscendC::HardEvent::V_MTE3>();
    AscendC::TEventID fetched = AscendC::GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_MTE3);
    Put(out, base + 9, static_cast<uint32_t>(id + 10 * id2 + 100 * fetched)); // 210
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(id);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(id);
    AscendC::SetFlag<AscendC::HardEvent::S_V>(3);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(3);
    pipe.ReleaseEventID<AscendC::HardEvent::V_MTE3>(id);
    Put(out, base + 10, static_cast<uint32_t>(pipe.FetchEventID<AscendC::HardEvent::V_MTE3>())); // 0
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::PipeBarrier<PIPE_MTE2>();
    pipe_barrier(PIPE_V);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    AscendC::GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer((__gm__ uint32_t *)out + base, 16);
    g.SetValue(11, 0xABCD0000u | static_cast<uint32_t>(block_idx));
    AscendC::DataCacheCleanAndInvalid<uint32_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(g);
    dcci((__gm__ int64_t *)out, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
    Put(out, base + 12, static_cast<uint32_t>(__NPU_ARCH__));
}

// Scalar GM access through __gm__ pointers (read-modify-write, no API).
extern "C" __global__ __aicore__ void scalar_gm(GM_ADDR data, GM_ADDR tiling)
{
    const uint32_t n = *(const __gm__ uint32_t *)tiling;
    __gm__ int32_t *p = (__gm__ int32_t *)data + n * static_cast<uint32_t>(AscendC::GetBlockIdx());
    for (uint32_t i = 0; i < n; i++)
        p[i] = p[i] * 2 + static_cast<int32_t>(block_idx);
}

// Pipe Reset: buffers are handed out again from the start.
extern "C" __global__ __aicore__ void pipe_reset(GM_ADDR out)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> q1, q2;
    pipe.InitBuffer(q1, 1, 4096);
    AscendC::LocalTensor<float> a = q1.AllocTensor<float>();
    const uint64_t first = a.GetPhyAddr();
    q1.FreeTensor(a);
    pipe.Reset();
    pipe.InitBuffer(q2, 1, 4096);
    AscendC::LocalTensor<float> b = q2.AllocTensor<float>();
    Put(out, 0, b.GetPhyAddr() == first);
    q2.FreeTensor(b);
    pipe.Destroy();
    Put(out, 1, AscendC::GetTPipePtr() == nullptr);
    AscendC::TPipe again;                                          // allowed after Destroy
    Put(out, 2, AscendC::GetTPipePtr() == &again);
}

// half arithmetic and conversions inside a kernel; results as bit patterns.
extern "C" __global__ __aicore__ void half_math(GM_ADDR out, half a, half b, float f)
{
    __gm__ uint16_t *o = (__gm__ uint16_t *)out;
    half s = a + b, d = a - b, m = a * b, q = a / b;
    o[0] = s.Bits();
    o[1] = d.Bits();
    o[2] = m.Bits();
    o[3] = q.Bits();
    half c = f;                                                    // float -> half, rounded once
    o[4] = c.Bits();
    c += a;
    o[5] = c.Bits();
    o[6] = (-a).Bits();
    o[7] = static_cast<uint16_t>((a < b) | (a == a) << 1 | (a > 1.0f) << 2);
    half lit = 1.0;
    o[8] = lit.Bits();
    half i = 3;
    o[9] = (i++).Bits();
    o[10] = i.Bits();
    float back = a;
    std::memcpy(&o[12], &back, sizeof back);                      // o[12..13]
    bfloat16_t bf(f);
    o[14] = bf.Bits();
}

// printf: exact text, whole lines, no prefix (block 0 and block 1 print).
extern "C" __global__ __aicore__ void print_lines(GM_ADDR unused, uint32_t u, int64_t big, half h)
{
    (void)unused;
    AscendC::printf("block %d of %d: u=%u big=%lld h=%.3f\n", block_idx, AscendC::GetBlockNum(), u, big, h);
    AscendC::PRINTF("[%5d|%-4d|%04x|%X|%o|%c|%s|%.2s|%e|%g|%%]\n", 42, 7, 255u, 0xBEEFu, 8, 'z', "str", "abcdef",
                    1.5, 0.25f);
    AscendC::printf("no args\n");
    AscendC::printf("%ld %lu %hd %zu %f %d\n", -5L, 6UL, static_cast<short>(-3), static_cast<size_t>(9), 2.5f,
                    static_cast<int8_t>(-1));
    AscendC::printf("missing %d %s\n", 1);
}

// Kernel assert with a message: fails the launch on block `bad`.
extern "C" __global__ __aicore__ void assert_kernel(GM_ADDR out, uint32_t bad)
{
    const uint32_t idx = static_cast<uint32_t>(AscendC::GetBlockIdx());
    assert(idx < 100);
    assert(idx != bad, "block %u asserts with value %d\n", idx, 17);
    Put(out, idx, 1);
}
