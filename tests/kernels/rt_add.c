/* Element-wise adds over n elements per block, tiled through the UB with
 * double-buffered queues, for each supported element type. */
#include "oacl/kernel.h"

#define TILE 256u

static void add_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n, oacl_dtype_t dt)
{
    uint32_t es = oacl_dtype_size(dt);
    uint64_t off = (uint64_t)n * (uint64_t)oacl_get_block_idx();
    oacl_gm_t xg = oacl_gm_bind(x + off * es, n, dt);
    oacl_gm_t yg = oacl_gm_bind(y + off * es, n, dt);
    oacl_gm_t zg = oacl_gm_bind(z + off * es, n, dt);
    oacl_pipe_t pipe;
    oacl_que_t qx, qy, qz;
    oacl_pipe_init(&pipe);
    oacl_que_init(&qx, OACL_POS_VECIN, 2);
    oacl_que_init(&qy, OACL_POS_VECIN, 2);
    oacl_que_init(&qz, OACL_POS_VECOUT, 2);
    oacl_pipe_init_buffer(&pipe, &qx, 2, TILE * es);
    oacl_pipe_init_buffer(&pipe, &qy, 2, TILE * es);
    oacl_pipe_init_buffer(&pipe, &qz, 2, TILE * es);
    for (uint32_t done = 0; done < n; done += TILE) {
        uint32_t cnt = n - done < TILE ? n - done : TILE;
        oacl_local_t a = oacl_que_alloc(&qx, dt);
        oacl_local_t b = oacl_que_alloc(&qy, dt);
        oacl_data_copy_in(a, oacl_gm_offset(xg, done), cnt);
        oacl_data_copy_in(b, oacl_gm_offset(yg, done), cnt);
        oacl_que_enque(&qx, a);
        oacl_que_enque(&qy, b);
        a = oacl_que_deque(&qx, dt);
        b = oacl_que_deque(&qy, dt);
        oacl_local_t c = oacl_que_alloc(&qz, dt);
        oacl_add(c, a, b, (int32_t)cnt);
        oacl_que_enque(&qz, c);
        oacl_que_free(&qx, a);
        oacl_que_free(&qy, b);
        c = oacl_que_deque(&qz, dt);
        oacl_data_copy_out(oacl_gm_offset(zg, done), c, cnt);
        oacl_que_free(&qz, c);
    }
    oacl_pipe_destroy(&pipe);
}

__global__ __aicore__ void add_f16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) { add_tiles(x, y, z, n, OACL_DT_F16); }
__global__ __aicore__ void add_f32(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) { add_tiles(x, y, z, n, OACL_DT_F32); }
__global__ __aicore__ void add_i32(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) { add_tiles(x, y, z, n, OACL_DT_I32); }
__global__ __aicore__ void add_i16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) { add_tiles(x, y, z, n, OACL_DT_I16); }
