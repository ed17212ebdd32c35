// AscendC kernels for the memory checker's tests (tests/unit/test_memcheck.c):
// GlobalTensor element access and DataCopy, whose global ranges are checked.
#include "kernel_operator.h"

using namespace AscendC;

// p[idx] = v through GlobalTensor::SetValue, then out[0] = p[idx] through GetValue.
extern "C" __global__ __aicore__ void asc_mc_set_get(GM_ADDR p, uint32_t idx, uint32_t v, GM_ADDR out)
{
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer((__gm__ uint32_t *)p);
    g.SetValue(idx, v);
    GlobalTensor<uint32_t> o;
    o.SetGlobalBuffer((__gm__ uint32_t *)out);
    o.SetValue(0, g.GetValue(idx));
}

// Reads n u32 from p + off elements (DataCopy GM->UB); block 0 only.
extern "C" __global__ __aicore__ void asc_mc_copy_in(GM_ADDR p, uint32_t off, uint32_t n)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 4096);
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer((__gm__ uint32_t *)p);
    LocalTensor<uint32_t> t = q.AllocTensor<uint32_t>();
    DataCopy(t, g[off], n);
    q.FreeTensor(t);
}
