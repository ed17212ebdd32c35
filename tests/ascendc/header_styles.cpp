// kernel_operator.h in the company of the standard headers kernels include,
// used with a using-directive and fully qualified, compiled (not run) with
// strict warnings at several optimisation levels: every class template and
// function template of the header is instantiated here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>

#include "kernel_operator.h"

#include <cstdio> // again after the header: nothing of it breaks

namespace styles {

// A kernel class written with `using namespace AscendC;` in a namespace.
using namespace AscendC;

template <typename T>
class Ops {
public:
    __aicore__ inline void Init(GM_ADDR x, TPipe *pipe)
    {
        g_.SetGlobalBuffer((__gm__ T *)x + 64 * GetBlockIdx(), 64);
        pipe_ = pipe;
        pipe_->InitBuffer(in_, 2, 64 * sizeof(T));
        pipe_->InitBuffer(out_, 1, 64 * sizeof(T));
        pipe_->InitBuffer(tmp_, 256);
        pipe_->InitBuffer(bind_, 1, 64 * sizeof(T));
    }
    __aicore__ inline void Run(T s)
    {
        LocalTensor<T> a = in_.template AllocTensor<T>();
        DataCopy(a, g_, 64);
        DataCopy(a, g_, DataCopyParams(1, 2, 0, 0));
        in_.EnQue(a);
        a = in_.template DeQue<T>();
        LocalTensor<T> z = out_.template AllocTensor<T>();
        LocalTensor<T> t = tmp_.template Get<T>();
        LocalTensor<T> t2 = tmp_.template Get<T>(32 / sizeof(T));
        LocalTensor<T> t3 = tmp_.template GetWithOffset<T>(8, 32);
        Add(z, a, t, 64);
        Sub(z, a, t2, 8);
        Mul(z, z, t3, 8);
        Div(z, z, a, 64);
        Max(z, z, a, 64);
        Min(z, z, a, 64);
        Adds(z, z, s, 64);
        Muls(z, z, s, 64);
        Maxs(z, z, s, 64);
        Mins(z, z, s, 64);
        LeakyRelu(z, z, s, 64);
        Exp(z, z, 64);
        Ln(z, z, 64);
        Abs(z, z, 64);
        Relu(z, z, 64);
        Sqrt(z, z, 64);
        Rsqrt(z, z, 64);
        Reciprocal(z, z, 64);
        Duplicate(z, s, 64);
        ReduceSum(z, a, t, 64);
        ReduceSum<T, false>(z, a, t, 64);
        ReduceMax(z, a, t, 64);
        ReduceMax(z, a, t, 64, true);
        ReduceMin(z, a, t, 64, false);
        LocalTensor<float> f = tmp_.template Get<float>();
        Cast(f, a, RoundMode::CAST_NONE, 8);
        Cast(z, f, RoundMode::CAST_RINT, 8);
        DataCopy(z, a, 64);
        DataCopy(z, a, DataCopyParams(1, 1, 0, 0));
        PipeBarrier<PIPE_V>();
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        T v = z.GetValue(0);
        z.SetValue(1, v);
        z(2) = v;
        (void)z[16].GetSize();
        (void)z.GetLength();
        z.SetSize(z.GetSize());
        (void)z.GetPosition();
        (void)z.GetPhyAddr(1);
        z.SetUserTag(z.GetUserTag());
        (void)z.template ReinterpretCast<uint8_t>();
        out_.EnQue(z);
        z = out_.template DeQue<T>();
        DataCopy(g_, z, 64);
        DataCopy(g_[8], z, DataCopyParams(1, 1, 0, 0));
        DataCopyPad(z, g_, DataCopyExtParams(1, 6, 0, 0, 0), DataCopyPadExtParams<T>(true, 0, 1, s));
        DataCopyPad(z, g_, DataCopyParams(1, 6, 0, 0), DataCopyPadParams());
        DataCopyPad(g_, z, DataCopyExtParams(1, 6, 0, 0, 0));
        DataCopyPad(g_, z, DataCopyParams(1, 6, 0, 0));
        out_.FreeTensor(z);
        in_.FreeTensor(a);
        LocalTensor<T> b;
        bind_.AllocTensor(b);
        bind_.template EnQue<TPosition::VECIN, TPosition::VECOUT, T>(b);
        bind_.DeQue(b);
        bind_.FreeTensor(b);
        (void)(in_.VacantInQue() && in_.HasTensorInQue() && in_.HasIdleBuffer());
        (void)in_.GetTensorCountInQue();
        in_.FreeAllEvent();
        g_.SetValue(0, g_.GetValue(1));
        g_(2) = g_[3].GetValue(0);
        (void)g_.GetSize();
        (void)g_.GetPhyAddr(4);
        (void)g_.template ReinterpretCast<uint16_t>();
        DataCacheCleanAndInvalid<T, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(g_);
    }

private:
    TPipe *pipe_ = nullptr;
    TQue<QuePosition::VECIN, 2> in_;
    TQue<QuePosition::VECOUT, 1> out_;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<T> g_;
};

} // namespace styles

// The same kind of code fully qualified, in the global namespace.
extern "C" __global__ __aicore__ void qualified(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    styles::Ops<half> h;
    h.Init(x, &pipe);
    h.Run(static_cast<half>(1.5f));
    pipe.Reset();
    styles::Ops<float> f;
    f.Init(y, &pipe);
    f.Run(2.0f);
    styles::Ops<int32_t> i;
    i.Init(y, AscendC::GetTPipePtr());
    i.Run(3);
    styles::Ops<int16_t> s;
    s.Init(y, &pipe);
    s.Run(static_cast<int16_t>(4));
    AscendC::TEventID e = pipe.AllocEventID<AscendC::HardEvent::MTE2_V>();
    pipe.ReleaseEventID<AscendC::HardEvent::MTE2_V>(e);
    (void)pipe.FetchEventID<AscendC::HardEvent::S_V>();
    (void)(AscendC::GetBlockNum() + AscendC::GetSubBlockIdx() + AscendC::GetSubBlockNum() + AscendC::GetTaskRatio() +
           block_idx + block_num + sub_block_idx);
    (void)(AscendC::GetUBSizeInBytes() + AscendC::GetDataBlockSizeInBytes() + AscendC::ASC_L1_SIZE);
    AscendC::printf("%d %f %s %p\n", block_idx, static_cast<half>(2.0f), "x", x);
    AscendC::PRINTF("%u\n", 1u);
    assert(x != y);
    assert(x != y, "%d\n", 1);
    if ASCEND_IS_AIV {
        pipe.Destroy();
    }
    if ASCEND_IS_AIC {
        AscendC::Trap();
    }
    dcci(reinterpret_cast<__gm__ int64_t *>(x), cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);
}

// half and bfloat16_t as namespace-scope objects and in plain C++.
half g_half = 1.0;
const half g_table[3] = {0.5, 1, 2.5f};
bfloat16_t g_bf(1.0f);

float plain_math(half a, half b)
{
    using std::sqrt;
    half c = a * b + g_half;
    c -= 1;
    ++c;
    float f = std::max(static_cast<float>(a), static_cast<float>(b));
    bool cmp = a < b || a == b || a >= 1.0f;
    std::printf("%g %d\n", static_cast<double>(c), cmp ? 1 : 0);
    AscendC::bfloat16_t bf(f);
    return sqrt(f) + c + g_table[1] + static_cast<float>(bf) + static_cast<float>(g_bf);
}
