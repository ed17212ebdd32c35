/*
 * Kernels of the benchmark suite (oacl-bench).
 *
 *   empty_kernel             does nothing: launch + synchronise overhead.
 *   add_f16_gm(x,y,z,n)      z = x + y over n FP16 elements per block, one
 *                            call of the vector primitive straight on the
 *                            global-memory (zero-copy) addresses.
 *   add_f16_ub(x,y,z,n)      the same through the unified buffer: 16 KiB
 *                            tiles, double-buffered VECIN/VECOUT queues,
 *                            DataCopy in, Add, DataCopy out (AscendC style).
 *   seed_unchecked(x,y,z)    the seed workload's work (8 blocks x 2048 FP16,
 *                            128-element tiles through UB: copy in, tile add,
 *                            copy out) with no queue bookkeeping and no range
 *                            checks. Not how a kernel should be written: it
 *                            measures what the checked AscendC layer of the
 *                            sample's add_custom costs on top of the work.
 *
 * Block b works on elements [b*n, (b+1)*n). add_f16_gm is what the
 * add_bandwidth metrics use: on the CPU device global memory is ordinary
 * host memory, so the direct call moves every byte once and lets the vector
 * primitive pick streaming stores for large blocks, while the UB path
 * copies every tile twice more (GM->UB, UB->GM). add_f16_ub is measured as
 * its own metric so the cost of the AscendC-style path stays visible.
 */
#include "oacl/kernel.h"

#define UB_TILE_BYTES (16u * 1024u)
#define UB_TILE_ELEMS (UB_TILE_BYTES / 2u)
#define UB_DEPTH 2
#define SEED_BLOCK_ELEMS 2048u
#define SEED_TILE_ELEMS 128u

__global__ __aicore__ void empty_kernel(void) {}

__global__ __aicore__ void add_f16_gm(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    uint64_t off = (uint64_t)n * (uint64_t)oacl_get_block_idx();
    oacl_vadd_f16((__gm__ uint16_t *)z + off, (__gm__ const uint16_t *)x + off, (__gm__ const uint16_t *)y + off,
                  n);
}

__global__ __aicore__ void add_f16_ub(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    uint64_t off = (uint64_t)n * (uint64_t)oacl_get_block_idx();
    oacl_gm_t xg = oacl_gm_bind((__gm__ uint16_t *)x + off, n, OACL_DT_F16);
    oacl_gm_t yg = oacl_gm_bind((__gm__ uint16_t *)y + off, n, OACL_DT_F16);
    oacl_gm_t zg = oacl_gm_bind((__gm__ uint16_t *)z + off, n, OACL_DT_F16);
    oacl_pipe_t pipe;
    oacl_que_t qx, qy, qz;
    oacl_pipe_init(&pipe);
    oacl_que_init(&qx, OACL_POS_VECIN, UB_DEPTH);
    oacl_que_init(&qy, OACL_POS_VECIN, UB_DEPTH);
    oacl_que_init(&qz, OACL_POS_VECOUT, UB_DEPTH);
    oacl_pipe_init_buffer(&pipe, &qx, UB_DEPTH, UB_TILE_BYTES);
    oacl_pipe_init_buffer(&pipe, &qy, UB_DEPTH, UB_TILE_BYTES);
    oacl_pipe_init_buffer(&pipe, &qz, UB_DEPTH, UB_TILE_BYTES);
    for (uint32_t done = 0; done < n; done += UB_TILE_ELEMS) {
        uint32_t cnt = n - done < UB_TILE_ELEMS ? n - done : UB_TILE_ELEMS;
        oacl_local_t a = oacl_que_alloc(&qx, OACL_DT_F16);
        oacl_local_t b = oacl_que_alloc(&qy, OACL_DT_F16);
        oacl_data_copy_in(a, oacl_gm_offset(xg, done), cnt);
        oacl_data_copy_in(b, oacl_gm_offset(yg, done), cnt);
        oacl_que_enque(&qx, a);
        oacl_que_enque(&qy, b);
        a = oacl_que_deque(&qx, OACL_DT_F16);
        b = oacl_que_deque(&qy, OACL_DT_F16);
        oacl_local_t c = oacl_que_alloc(&qz, OACL_DT_F16);
        oacl_add(c, a, b, (int32_t)cnt);
        oacl_que_enque(&qz, c);
        oacl_que_free(&qx, a);
        oacl_que_free(&qy, b);
        c = oacl_que_deque(&qz, OACL_DT_F16);
        oacl_data_copy_out(oacl_gm_offset(zg, done), c, cnt);
        oacl_que_free(&qz, c);
    }
    oacl_pipe_destroy(&pipe);
}

__global__ __aicore__ void seed_unchecked(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    uint64_t off = (uint64_t)SEED_BLOCK_ELEMS * (uint64_t)oacl_get_block_idx();
    const uint16_t *xg = (__gm__ const uint16_t *)x + off, *yg = (__gm__ const uint16_t *)y + off;
    uint16_t *zg = (__gm__ uint16_t *)z + off;
    uint16_t *ux = (uint16_t *)(void *)oacl_block()->ub, *uy = ux + SEED_TILE_ELEMS, *uz = uy + SEED_TILE_ELEMS;
    for (uint32_t i = 0; i < SEED_BLOCK_ELEMS; i += SEED_TILE_ELEMS) {
        __builtin_memcpy(ux, xg + i, SEED_TILE_ELEMS * 2u);
        __builtin_memcpy(uy, yg + i, SEED_TILE_ELEMS * 2u);
        oacl_vadd_f16(uz, ux, uy, SEED_TILE_ELEMS);
        __builtin_memcpy(zg + i, uz, SEED_TILE_ELEMS * 2u);
    }
}
