// AscendC vector operations, one kernel per operation shape, dispatching on
// the operation code (OACL_VOP_*) and element type (OACL_DT_*) passed by
// the host test. Every block handles its own n elements at n_padded * block
// (n_padded: n rounded up to whole 32-byte blocks, the DataCopy unit). The
// destination is first filled with a sentinel so that the host can check
// that an operation touches exactly `count` elements. Written with
// `using namespace AscendC;` (asc_api.cpp uses qualified names).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

// n rounded up to whole 32-byte blocks, at least one.
template <typename T>
__aicore__ inline uint32_t Padded(uint32_t n)
{
    constexpr uint32_t per = 32 / sizeof(T);
    return n ? (n + per - 1) / per * per : per;
}

template <typename T>
__aicore__ inline T Sentinel()
{
    T s;
    std::memset(static_cast<void *>(&s), 0x5A, sizeof(T));
    return s;
}

// The operands of one block, loaded through VECIN queues; the output
// tensor comes from a VECOUT queue and goes back through it.
template <typename T, typename D = T>
class Stage {
public:
    __aicore__ inline Stage(uint32_t n) : n_(n), np_(Padded<T>(n)), dp_(Padded<D>(n)) {}
    __aicore__ inline void Init(GM_ADDR out)
    {
        pipe_.InitBuffer(qa_, 1, np_ * sizeof(T));
        pipe_.InitBuffer(qb_, 1, np_ * sizeof(T));
        pipe_.InitBuffer(qz_, 1, dp_ * sizeof(D));
        pipe_.InitBuffer(work_, 1024);
        zg_.SetGlobalBuffer((__gm__ D *)out + dp_ * GetBlockIdx(), dp_);
    }
    __aicore__ inline LocalTensor<T> Load(TQue<QuePosition::VECIN, 1> &q, GM_ADDR src)
    {
        GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T *)src + np_ * GetBlockIdx(), np_);
        LocalTensor<T> t = q.AllocTensor<T>();
        DataCopy(t, g, np_);
        q.EnQue(t);
        return q.template DeQue<T>();
    }
    __aicore__ inline LocalTensor<D> Out()
    {
        LocalTensor<D> z = qz_.AllocTensor<D>();
        return z;
    }
    __aicore__ inline void Store(LocalTensor<D> &z)
    {
        qz_.EnQue<D>(z);
        LocalTensor<D> r = qz_.DeQue<D>();
        DataCopy(zg_, r, dp_);
        qz_.FreeTensor(r);
    }
    __aicore__ inline LocalTensor<T> Work() { return work_.Get<T>(); }

    uint32_t n_, np_, dp_;
    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> qa_, qb_;
    TQue<QuePosition::VECOUT, 1> qz_;
    TBuf<TPosition::VECCALC> work_;
    GlobalTensor<D> zg_;
};

template <typename T>
__aicore__ inline void Binary(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op, uint32_t n)
{
    Stage<T> s(n);
    s.Init(z);
    LocalTensor<T> a = s.Load(s.qa_, x);
    LocalTensor<T> b = s.Load(s.qb_, y);
    LocalTensor<T> c = s.Out();
    Duplicate(c, Sentinel<T>(), static_cast<int32_t>(s.np_));
    const int32_t count = static_cast<int32_t>(n);
    switch (op) {
    case OACL_VOP_ADD: Add(c, a, b, count); break;
    case OACL_VOP_SUB: Sub(c, a, b, count); break;
    case OACL_VOP_MUL: Mul(c, a, b, count); break;
    case OACL_VOP_DIV: Div(c, a, b, count); break;
    case OACL_VOP_MAX: Max(c, a, b, count); break;
    case OACL_VOP_MIN: Min(c, a, b, count); break;
    default: Trap();
    }
    s.Store(c);
    s.qa_.FreeTensor(a);
    s.qb_.FreeTensor(b);
}

template <typename T>
__aicore__ inline void Unary(GM_ADDR x, GM_ADDR z, uint32_t op, uint32_t n)
{
    Stage<T> s(n);
    s.Init(z);
    LocalTensor<T> a = s.Load(s.qa_, x);
    LocalTensor<T> c = s.Out();
    Duplicate(c, Sentinel<T>(), static_cast<int32_t>(s.np_));
    const int32_t count = static_cast<int32_t>(n);
    switch (op) {
    case OACL_VOP_EXP: Exp(c, a, count); break;
    case OACL_VOP_LN: Ln(c, a, count); break;
    case OACL_VOP_ABS: Abs(c, a, count); break;
    case OACL_VOP_RELU: Relu(c, a, count); break;
    case OACL_VOP_SQRT: Sqrt(c, a, count); break;
    case OACL_VOP_RSQRT: Rsqrt(c, a, count); break;
    case OACL_VOP_RECIP: Reciprocal(c, a, count); break;
    default: Trap();
    }
    s.Store(c);
    s.qa_.FreeTensor(a);
}

// The scalar comes from GM (GlobalTensor::GetValue).
template <typename T>
__aicore__ inline void Scalar(GM_ADDR x, GM_ADDR sv, GM_ADDR z, uint32_t op, uint32_t n)
{
    Stage<T> s(n);
    s.Init(z);
    GlobalTensor<T> sg;
    sg.SetGlobalBuffer((__gm__ T *)sv, 1);
    const T v = sg.GetValue(0);
    LocalTensor<T> a = s.Load(s.qa_, x);
    LocalTensor<T> c = s.Out();
    Duplicate(c, Sentinel<T>(), static_cast<int32_t>(s.np_));
    const int32_t count = static_cast<int32_t>(n);
    switch (op) {
    case OACL_VOP_ADDS: Adds(c, a, v, count); break;
    case OACL_VOP_MULS: Muls(c, a, v, count); break;
    case OACL_VOP_MAXS: Maxs(c, a, v, count); break;
    case OACL_VOP_MINS: Mins(c, a, v, count); break;
    case OACL_VOP_LEAKY_RELU: LeakyRelu(c, a, v, count); break;
    case OACL_VOP_DUP: Duplicate(c, v, count); break;
    default: Trap();
    }
    s.Store(c);
    s.qa_.FreeTensor(a);
}

template <typename T>
__aicore__ inline void Reduce(GM_ADDR x, GM_ADDR z, uint32_t op, uint32_t n, uint32_t index)
{
    Stage<T> s(n);
    s.Init(z);
    LocalTensor<T> a = s.Load(s.qa_, x);
    LocalTensor<T> c = s.Out();
    Duplicate(c, Sentinel<T>(), static_cast<int32_t>(s.dp_));
    const int32_t count = static_cast<int32_t>(n);
    switch (op) {
    case OACL_VOP_REDUCE_SUM: ReduceSum<T>(c, a, s.Work(), count); break;
    case OACL_VOP_REDUCE_MAX: ReduceMax<T>(c, a, s.Work(), count, index != 0); break;
    case OACL_VOP_REDUCE_MIN: ReduceMin<T>(c, a, s.Work(), count, index != 0); break;
    default: Trap();
    }
    s.Store(c);
    s.qa_.FreeTensor(a);
}

template <typename D, typename S>
__aicore__ inline void CastOne(GM_ADDR x, GM_ADDR z, uint32_t mode, uint32_t n)
{
    Stage<S, D> s(n);
    s.Init(z);
    LocalTensor<S> a = s.Load(s.qa_, x);
    LocalTensor<D> c = s.Out();
    Cast(c, a, static_cast<RoundMode>(mode), n);
    s.Store(c);
    s.qa_.FreeTensor(a);
}

template <typename D>
__aicore__ inline void CastFrom(GM_ADDR x, GM_ADDR z, uint32_t st, uint32_t mode, uint32_t n)
{
    switch (st) {
    case OACL_DT_F16: CastOne<D, half>(x, z, mode, n); break;
    case OACL_DT_F32: CastOne<D, float>(x, z, mode, n); break;
    case OACL_DT_I32: CastOne<D, int32_t>(x, z, mode, n); break;
    case OACL_DT_I16: CastOne<D, int16_t>(x, z, mode, n); break;
    case OACL_DT_I8: CastOne<D, int8_t>(x, z, mode, n); break;
    case OACL_DT_U8: CastOne<D, uint8_t>(x, z, mode, n); break;
    case OACL_DT_I64: CastOne<D, int64_t>(x, z, mode, n); break;
    case OACL_DT_BF16: CastOne<D, bfloat16_t>(x, z, mode, n); break;
    default: Trap();
    }
}

} // namespace

#define DISPATCH_ARITH(dt, call)                                                                                     \
    switch (dt) {                                                                                                    \
    case OACL_DT_F16: call(half); break;                                                                             \
    case OACL_DT_F32: call(float); break;                                                                            \
    case OACL_DT_I32: call(int32_t); break;                                                                          \
    case OACL_DT_I16: call(int16_t); break;                                                                          \
    default: Trap();                                                                                                 \
    }

extern "C" __global__ __aicore__ void binary_op(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op, uint32_t dt,
                                               uint32_t n)
{
#define CALL(T) Binary<T>(x, y, z, op, n)
    DISPATCH_ARITH(dt, CALL)
#undef CALL
}

extern "C" __global__ __aicore__ void unary_op(GM_ADDR x, GM_ADDR z, uint32_t op, uint32_t dt, uint32_t n)
{
#define CALL(T) Unary<T>(x, z, op, n)
    DISPATCH_ARITH(dt, CALL)
#undef CALL
}

extern "C" __global__ __aicore__ void scalar_op(GM_ADDR x, GM_ADDR s, GM_ADDR z, uint32_t op, uint32_t dt,
                                               uint32_t n)
{
    switch (dt) {
    case OACL_DT_F16: Scalar<half>(x, s, z, op, n); break;
    case OACL_DT_F32: Scalar<float>(x, s, z, op, n); break;
    case OACL_DT_I32: Scalar<int32_t>(x, s, z, op, n); break;
    case OACL_DT_I16: Scalar<int16_t>(x, s, z, op, n); break;
    case OACL_DT_U16: Scalar<uint16_t>(x, s, z, op, n); break;
    case OACL_DT_U32: Scalar<uint32_t>(x, s, z, op, n); break;
    case OACL_DT_BF16: Scalar<bfloat16_t>(x, s, z, op, n); break;
    default: Trap();
    }
}

extern "C" __global__ __aicore__ void reduce_op(GM_ADDR x, GM_ADDR z, uint32_t op, uint32_t dt, uint32_t n,
                                               uint32_t index)
{
    if (dt == OACL_DT_F16)
        Reduce<half>(x, z, op, n, index);
    else
        Reduce<float>(x, z, op, n, index);
}

extern "C" __global__ __aicore__ void cast_op(GM_ADDR x, GM_ADDR z, uint32_t dst_dt, uint32_t src_dt, uint32_t mode,
                                             uint32_t n)
{
    switch (dst_dt) {
    case OACL_DT_F16: CastFrom<half>(x, z, src_dt, mode, n); break;
    case OACL_DT_F32: CastFrom<float>(x, z, src_dt, mode, n); break;
    case OACL_DT_I32: CastFrom<int32_t>(x, z, src_dt, mode, n); break;
    case OACL_DT_I16: CastFrom<int16_t>(x, z, src_dt, mode, n); break;
    case OACL_DT_I8: CastFrom<int8_t>(x, z, src_dt, mode, n); break;
    case OACL_DT_U8: CastFrom<uint8_t>(x, z, src_dt, mode, n); break;
    case OACL_DT_I64: CastFrom<int64_t>(x, z, src_dt, mode, n); break;
    case OACL_DT_BF16: CastFrom<bfloat16_t>(x, z, src_dt, mode, n); break;
    default: Trap();
    }
}
