// The C++ entry rejects over-aligned parameters as well.
#include <oacl/kernel_qualifiers.h>

struct alignas(16) wide {
    uint32_t v;
};

extern "C" __global__ __aicore__ void align_cpp_kernel(GM_ADDR x, wide w) { x[0] = (uint8_t)w.v; }
