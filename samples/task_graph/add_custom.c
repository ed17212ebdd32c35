/*
 * The task graph sample's kernel: z = x + y over 8 x 2048 FP16 values
 * (called with x = y = z to double a buffer in place).
 *
 * Each of the 8 blocks takes 2048 consecutive elements. Inside a block the
 * data is cut into TILE_NUM tiles, each processed in BUFFER_NUM halves
 * (double buffering), so a tile step moves TILE_LENGTH = 128 elements:
 * copy-in (GM -> UB) through two VECIN queues, the vector add, copy-out
 * (UB -> GM) through a VECOUT queue. Each tile is read completely before
 * it is written, so x, y and z may be the same buffer.
 */
#include "oacl/kernel.h"

#define TOTAL_LENGTH (8 * 2048)
#define USE_CORE_NUM 8
#define BLOCK_LENGTH (TOTAL_LENGTH / USE_CORE_NUM)
#define TILE_NUM 8
#define BUFFER_NUM 2
#define TILE_LENGTH (BLOCK_LENGTH / TILE_NUM / BUFFER_NUM)

typedef struct {
    oacl_pipe_t pipe;
    oacl_que_t in_x, in_y, out_z;
    oacl_gm_t x_gm, y_gm, z_gm;
} KernelAdd;

static void kernel_add_init(KernelAdd *k, GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    uint64_t offset = (uint64_t)BLOCK_LENGTH * (uint64_t)oacl_get_block_idx();
    k->x_gm = oacl_gm_bind((__gm__ uint16_t *)x + offset, BLOCK_LENGTH, OACL_DT_F16);
    k->y_gm = oacl_gm_bind((__gm__ uint16_t *)y + offset, BLOCK_LENGTH, OACL_DT_F16);
    k->z_gm = oacl_gm_bind((__gm__ uint16_t *)z + offset, BLOCK_LENGTH, OACL_DT_F16);
    oacl_pipe_init(&k->pipe);
    oacl_que_init(&k->in_x, OACL_POS_VECIN, BUFFER_NUM);
    oacl_que_init(&k->in_y, OACL_POS_VECIN, BUFFER_NUM);
    oacl_que_init(&k->out_z, OACL_POS_VECOUT, BUFFER_NUM);
    oacl_pipe_init_buffer(&k->pipe, &k->in_x, BUFFER_NUM, TILE_LENGTH * sizeof(uint16_t));
    oacl_pipe_init_buffer(&k->pipe, &k->in_y, BUFFER_NUM, TILE_LENGTH * sizeof(uint16_t));
    oacl_pipe_init_buffer(&k->pipe, &k->out_z, BUFFER_NUM, TILE_LENGTH * sizeof(uint16_t));
}

static void copy_in(KernelAdd *k, int32_t progress)
{
    oacl_local_t x = oacl_que_alloc(&k->in_x, OACL_DT_F16);
    oacl_local_t y = oacl_que_alloc(&k->in_y, OACL_DT_F16);
    oacl_data_copy_in(x, oacl_gm_offset(k->x_gm, (uint64_t)progress * TILE_LENGTH), TILE_LENGTH);
    oacl_data_copy_in(y, oacl_gm_offset(k->y_gm, (uint64_t)progress * TILE_LENGTH), TILE_LENGTH);
    oacl_que_enque(&k->in_x, x);
    oacl_que_enque(&k->in_y, y);
}

static void compute(KernelAdd *k)
{
    oacl_local_t x = oacl_que_deque(&k->in_x, OACL_DT_F16);
    oacl_local_t y = oacl_que_deque(&k->in_y, OACL_DT_F16);
    oacl_local_t z = oacl_que_alloc(&k->out_z, OACL_DT_F16);
    oacl_add(z, x, y, TILE_LENGTH);
    oacl_que_enque(&k->out_z, z);
    oacl_que_free(&k->in_x, x);
    oacl_que_free(&k->in_y, y);
}

static void copy_out(KernelAdd *k, int32_t progress)
{
    oacl_local_t z = oacl_que_deque(&k->out_z, OACL_DT_F16);
    oacl_data_copy_out(oacl_gm_offset(k->z_gm, (uint64_t)progress * TILE_LENGTH), z, TILE_LENGTH);
    oacl_que_free(&k->out_z, z);
}

__global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KernelAdd k;
    kernel_add_init(&k, x, y, z);
    for (int32_t i = 0; i < TILE_NUM * BUFFER_NUM; i++) {
        copy_in(&k, i);
        compute(&k);
        copy_out(&k, i);
    }
    oacl_pipe_destroy(&k.pipe);
}
