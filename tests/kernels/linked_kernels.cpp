// Kernels linked into the program (oacl-cc -c) for tests/unit/test_kernel_query.c:
// oacl-cc registers each definition, so aclrtGetFuncBySymbol and the `func`
// argument of aclrtLaunchKernelWithArgsArray accept their host addresses.
#include <cstdint>

#include "oacl/kernel.h"

// out[i] = a[i] + add for `count` elements, split over the blocks.
extern "C" __global__ __aicore__ void linked_add(GM_ADDR a, GM_ADDR out, uint32_t add, uint32_t count)
{
    uint32_t blocks = static_cast<uint32_t>(oacl_get_block_num());
    uint32_t idx = static_cast<uint32_t>(oacl_get_block_idx());
    const __gm__ uint32_t *src = reinterpret_cast<const __gm__ uint32_t *>(a);
    __gm__ uint32_t *dst = reinterpret_cast<__gm__ uint32_t *>(out);
    for (uint32_t i = idx; i < count; i += blocks)
        dst[i] = src[i] + add;
}

// No parameters: counts its blocks into a global.
extern "C" {
__gm__ uint32_t g_linked_runs = 0;
}
extern "C" __global__ __aicore__ void linked_tick(void) { __atomic_add_fetch(&g_linked_runs, 1u, __ATOMIC_RELAXED); }

namespace ns {
// In a namespace: registered under its own name.
extern "C" __global__ __aicore__ void linked_in_ns(GM_ADDR out) { *reinterpret_cast<__gm__ uint32_t *>(out) = 11; }
} // namespace ns

// The <<<>>> launch of the same kernel, for comparing with the array form.
extern "C" int linked_add_launch(void *stream, uint32_t blocks, void *a, void *out, uint32_t add, uint32_t count)
{
    return linked_add<<<blocks, nullptr, stream>>>(a, out, add, count);
}
