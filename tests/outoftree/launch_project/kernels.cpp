// Kernels and the host wrappers that launch them with <<<>>>, in one
// AscendC source (compiled through ascendc_library).
#include "kernel_operator.h"

// Every block writes one float through a scalar GM pointer and prints a
// line; scale and base arrive by value.
extern "C" __global__ __aicore__ void hello(GM_ADDR out, float scale, uint32_t base)
{
    __gm__ float *o = (__gm__ float *)out;
    uint32_t b = static_cast<uint32_t>(block_idx);
    o[b] = scale * static_cast<float>(base + b);
    AscendC::printf("hello from block %u of %u: base=%u scale=%.2f\n", b, static_cast<uint32_t>(block_num), base,
                    scale);
}

// Block 1 hits a trap instruction; the other blocks set their flag.
extern "C" __global__ __aicore__ void trap_kernel(GM_ADDR flags)
{
    if (block_idx == 1) {
        asm("trap");
    }
    ((__gm__ uint32_t *)flags)[block_idx] = 1;
}

int32_t LaunchHello(uint32_t blockDim, void *stream, uint8_t *out, float scale, uint32_t base)
{
    return static_cast<int32_t>(hello<<<blockDim, nullptr, stream>>>(out, scale, base));
}

void LaunchTrap(uint32_t blockDim, void *stream, uint8_t *flags)
{
    trap_kernel<<<blockDim, nullptr, stream>>>(flags);
}
