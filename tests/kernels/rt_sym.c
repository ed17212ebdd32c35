/* Kernels with device variables (__gm__ globals) for tests/unit/test_symbols.c:
 * oacl-cc registers every one of them when the binary is loaded. */
#include "oacl/kernel.h"

__gm__ uint32_t g_scale = 3;       /* read and replaced by sym_swap */
__gm__ uint32_t g_hits[8];         /* sym_count: one slot per block */
__gm__ const uint32_t g_const = 7; /* read-only: in the binary's constants */
static uint32_t g_private = 1;     /* not exported: not a global of the binary */

/* Block 0: out[0] = g_scale (what the host put there), then g_scale =
 * value; out[1] = g_const + g_private. */
__global__ __aicore__ void sym_swap(GM_ADDR out, uint32_t value)
{
    if (oacl_get_block_idx() != 0)
        return;
    __gm__ uint32_t *o = (__gm__ uint32_t *)out;
    o[0] = g_scale;
    g_scale = value;
    o[1] = g_const + g_private;
}

/* Every block adds g_scale to its slot of g_hits. */
__global__ __aicore__ void sym_count(void)
{
    uint32_t idx = (uint32_t)oacl_get_block_idx();
    if (idx < 8)
        g_hits[idx] += g_scale;
}
