// A launch with the wrong number of arguments.
#include "oacl/kernel.h"

extern "C" __global__ __aicore__ void two_args(GM_ADDR x, uint32_t n) { (void)x; (void)n; }

int Run(void *stream, uint8_t *x) { return two_args<<<1, nullptr, stream>>>(x); }
