// Device variables in a kernel source linked into the program (oacl-cc -c):
// the host reaches them by their own address. One copy serves every device.
#include <cstdint>

#include "oacl/kernel.h"

extern "C" {
__gm__ uint32_t g_linked = 42;
__gm__ uint64_t g_linked_arr[4] = {1, 2, 3, 4};
extern __gm__ const uint32_t g_linked_const = 9; // extern: a C++ const has internal linkage otherwise
}

namespace {
__gm__ uint32_t g_hidden = 5; // internal linkage: registered all the same
}

extern "C" const void *sym_hidden_address() { return &g_hidden; }

// Block 0: out[0] = g_linked, then g_linked = value; out[1] = g_hidden.
extern "C" __global__ __aicore__ void linked_swap(GM_ADDR out, uint32_t value)
{
    if (oacl_get_block_idx() != 0)
        return;
    __gm__ uint32_t *o = reinterpret_cast<__gm__ uint32_t *>(out);
    o[0] = g_linked;
    g_linked = value;
    o[1] = g_hidden + static_cast<uint32_t>(g_linked_arr[3]) + g_linked_const;
}

extern "C" int sym_linked_launch(void *stream, uint32_t *out, uint32_t value)
{
    return linked_swap<<<1, nullptr, stream>>>(out, value);
}
