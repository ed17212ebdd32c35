// The second kernel binary's kernel.
#include "kernel_operator.h"
#include "other_config.h"

extern "C" __global__ __aicore__ void other(GM_ADDR out, uint32_t add)
{
    ((__gm__ int32_t *)out)[block_idx] = OTHER_VALUE + static_cast<int32_t>(add + block_idx);
}
