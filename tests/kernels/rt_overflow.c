/* Kernels of the float-overflow tests (test_overflow.c): one vector
 * primitive per launch on global memory, and plain C float arithmetic
 * (covered through the FPU's sticky flags). Block 0 does the work. */
#include "oacl/kernel.h"

__global__ __aicore__ void ovf_binary(GM_ADDR dst, GM_ADDR a, GM_ADDR b, uint32_t n, uint32_t op, uint32_t dtype)
{
    if (oacl_get_block_idx() == 0 && oacl_vbinary((int)op, (int)dtype, dst, a, b, n))
        oacl_kernel_fail(OACL_FAULT_ARG, "oacl_vbinary refused op %u on dtype %u", op, dtype);
}

__global__ __aicore__ void ovf_unary(GM_ADDR dst, GM_ADDR src, uint32_t n, uint32_t op, uint32_t dtype)
{
    if (oacl_get_block_idx() == 0 && oacl_vunary((int)op, (int)dtype, dst, src, n))
        oacl_kernel_fail(OACL_FAULT_ARG, "oacl_vunary refused op %u on dtype %u", op, dtype);
}

__global__ __aicore__ void ovf_scalar(GM_ADDR dst, GM_ADDR src, GM_ADDR scalar, uint32_t n, uint32_t op,
                                      uint32_t dtype)
{
    if (oacl_get_block_idx() == 0 && oacl_vscalar((int)op, (int)dtype, dst, src, scalar, n))
        oacl_kernel_fail(OACL_FAULT_ARG, "oacl_vscalar refused op %u on dtype %u", op, dtype);
}

__global__ __aicore__ void ovf_cast(GM_ADDR dst, GM_ADDR src, uint32_t n, uint32_t dt, uint32_t st)
{
    if (oacl_get_block_idx() == 0 && oacl_vcast((int)dt, (int)st, OACL_ROUND_NONE, dst, src, n))
        oacl_kernel_fail(OACL_FAULT_ARG, "oacl_vcast refused %u -> %u", st, dt);
}

__global__ __aicore__ void ovf_reduce_sum(GM_ADDR dst, GM_ADDR src, uint32_t n, uint32_t dtype)
{
    if (oacl_get_block_idx() == 0 && oacl_vreduce(OACL_VOP_REDUCE_SUM, (int)dtype, dst, src, n, 0))
        oacl_kernel_fail(OACL_FAULT_ARG, "oacl_vreduce refused dtype %u", dtype);
}

/* dst[0] = x * x in plain C (no primitive involved). */
__global__ __aicore__ void ovf_plain_square(GM_ADDR dst, float x)
{
    if (oacl_get_block_idx() == 0) {
        volatile float v = x;
        float r = v * v;
        __builtin_memcpy(dst, &r, sizeof(r));
    }
}
