/* Kernels for the runtime tests: block indices, scalar parameters, timing. */
#include <time.h>

#include "oacl/kernel.h"

/* out[block] = block index + 1; out[block_num + block] = block count. */
__global__ __aicore__ void write_block_ids(GM_ADDR out)
{
    __gm__ uint32_t *o = (__gm__ uint32_t *)out;
    uint32_t idx = (uint32_t)oacl_get_block_idx();
    uint32_t num = (uint32_t)oacl_get_block_num();
    o[idx] = idx + 1;
    o[num + idx] = num;
}

/* Each block fills its own `count` elements with value + block index. */
__global__ __aicore__ void fill_u32(GM_ADDR out, uint32_t value, uint32_t count)
{
    uint32_t idx = (uint32_t)oacl_get_block_idx();
    __gm__ uint32_t *o = (__gm__ uint32_t *)out + (size_t)idx * count;
    for (uint32_t i = 0; i < count; i++)
        o[i] = value + idx;
}

__global__ __aicore__ void empty_kernel(void) {}

struct pair {
    uint32_t first;
    float second;
    uint16_t third;
};

/* Writes every parameter it received, in order, packed into out. */
__global__ __aicore__ void scalars(GM_ADDR out, uint8_t a, uint16_t b, uint32_t c, uint64_t d, float f, double g,
                                   struct pair p)
{
    if (oacl_get_block_idx() != 0)
        return;
    __gm__ uint8_t *o = out;
    memcpy(o + 0, &a, 1);
    memcpy(o + 8, &b, 2);
    memcpy(o + 16, &c, 4);
    memcpy(o + 24, &d, 8);
    memcpy(o + 32, &f, 4);
    memcpy(o + 40, &g, 8);
    memcpy(o + 48, &p, sizeof(p));
}

/* Sleeps `ms` milliseconds in every block, then bumps a counter. */
__global__ __aicore__ void sleep_kernel(GM_ADDR counter, uint32_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
    __atomic_add_fetch((__gm__ uint32_t *)counter, 1, __ATOMIC_RELAXED);
}

/* Adds 1 to a counter once per block. */
__global__ __aicore__ void count_blocks(GM_ADDR counter)
{
    __atomic_add_fetch((__gm__ uint32_t *)counter, 1, __ATOMIC_RELAXED);
}

/* out[i] = in[i] + add for this block's `count` elements. */
__global__ __aicore__ void copy_plus(GM_ADDR in, GM_ADDR out, uint32_t add, uint32_t count)
{
    size_t base = (size_t)oacl_get_block_idx() * count;
    const __gm__ uint32_t *i32 = (const __gm__ uint32_t *)in + base;
    __gm__ uint32_t *o32 = (__gm__ uint32_t *)out + base;
    for (uint32_t i = 0; i < count; i++)
        o32[i] = i32[i] + add;
}
