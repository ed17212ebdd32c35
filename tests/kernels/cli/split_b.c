/* Defines split_k, declared in split_kernel.h. */
#include <string.h>

#include "split_kernel.h"

uint32_t split_a_helper(uint32_t v);

__global__ __aicore__ void split_k(GM_ADDR out, uint32_t v)
{
    uint32_t r = split_a_helper(v);
    memcpy(out, &r, sizeof(r));
}
