// A kernel binary source that also holds a <<<>>> host wrapper and a trap:
// both rewritten, the kernel found by its extern "C" name.
#include "oacl/kernel.h"
#include "launch_probe_config.h" // next to this file: needs the quote path after rewriting

extern "C" __global__ __aicore__ void launch_probe(GM_ADDR out, uint32_t v)
{
    if (v == 0)
        asm volatile("trap");
    *reinterpret_cast<uint32_t *>(out) = v + LAUNCH_PROBE_EXTRA;
}

int RunLaunchProbe(void *stream, uint8_t *out) { return launch_probe<<<1, nullptr, stream>>>(out, 1u); }
