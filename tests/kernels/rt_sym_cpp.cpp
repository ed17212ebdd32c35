// A C++ kernel binary for tests/unit/test_symbols.c: a __gm__ variable in a
// namespace (found by its mangled name) and a static local of an inline
// function, which must also be per loaded instance (GCC would make it a
// process-wide STB_GNU_UNIQUE object; oacl-cc compiles with -fno-gnu-unique).
#include <cstdint>

#include "oacl/kernel.h"

namespace cfg {
__gm__ uint32_t g_step = 1;
}

inline uint32_t &Counter()
{
    static uint32_t c = 0;
    return c;
}

// Block 0: Counter() += cfg::g_step; out[0] = Counter().
extern "C" __global__ __aicore__ void cpp_bump(GM_ADDR out)
{
    if (oacl_get_block_idx() != 0)
        return;
    Counter() += cfg::g_step;
    reinterpret_cast<__gm__ uint32_t *>(out)[0] = Counter();
}
