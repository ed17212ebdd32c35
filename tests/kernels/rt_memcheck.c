/* Kernels for the memory checker's tests (tests/unit/test_memcheck.c):
 * global-memory accesses through the kernel-side API, whose range checks
 * must catch them, and raw accesses, which only guard pages catch. */
#include "oacl/kernel.h"

/* Writes n u32 values `v` to dst + off bytes with DataCopy (n * 4 is a
 * multiple of 32, n <= 1024). */
__global__ __aicore__ void mc_copy_out(GM_ADDR dst, uint32_t off, uint32_t n, uint32_t v)
{
    oacl_pipe_t pipe;
    oacl_que_t q;
    oacl_pipe_init(&pipe);
    oacl_que_init(&q, OACL_POS_VECOUT, 1);
    oacl_pipe_init_buffer(&pipe, &q, 1, 4096);
    oacl_local_t t = oacl_que_alloc(&q, OACL_DT_U32);
    oacl_duplicate(t, &v, (int32_t)n);
    oacl_data_copy_out(oacl_gm_bind(dst + off, n, OACL_DT_U32), t, n);
    oacl_que_free(&q, t);
    oacl_pipe_destroy(&pipe);
}

/* Copies n u32 values from src + off bytes to out (DataCopy in, then out). */
__global__ __aicore__ void mc_copy_in(GM_ADDR src, uint32_t off, uint32_t n, GM_ADDR out)
{
    oacl_pipe_t pipe;
    oacl_que_t q;
    oacl_pipe_init(&pipe);
    oacl_que_init(&q, OACL_POS_VECIN, 1);
    oacl_pipe_init_buffer(&pipe, &q, 1, 4096);
    oacl_local_t t = oacl_que_alloc(&q, OACL_DT_U32);
    oacl_data_copy_in(t, oacl_gm_bind(src + off, n, OACL_DT_U32), n);
    oacl_data_copy_out(oacl_gm_bind(out, n, OACL_DT_U32), t, n);
    oacl_que_free(&q, t);
    oacl_pipe_destroy(&pipe);
}

/* A plain store of one byte at p + off: nothing but the MMU checks it. */
__global__ __aicore__ void mc_raw_write(GM_ADDR p, uint64_t off)
{
    ((volatile __gm__ uint8_t *)p)[off] = 0x5A;
}
