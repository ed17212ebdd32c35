// Reports how it was compiled: optimisation, __NPU_ARCH__, a value from the
// header next to it (found through the quote-include path even though the
// source is compiled from a rewritten copy) and a definition from the CMake
// project. The host wrapper launches it with <<<>>>.
#include "kernel_operator.h"
#include "probe_config.h"

#ifndef PROBE_EXTRA
#define PROBE_EXTRA 0
#endif

extern "C" __global__ __aicore__ void probe(GM_ADDR out)
{
    __gm__ int32_t *o = (__gm__ int32_t *)out;
#ifdef __OPTIMIZE__
    o[0] = 1;
#else
    o[0] = 0;
#endif
    o[1] = __NPU_ARCH__;
    o[2] = PROBE_CONFIG_VALUE;
    o[3] = PROBE_EXTRA;
}

int32_t LaunchProbe(void *stream, uint8_t *out)
{
    return static_cast<int32_t>(probe<<<1, nullptr, stream>>>(out));
}
