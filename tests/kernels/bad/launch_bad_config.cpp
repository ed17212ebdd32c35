// A stream that is not a pointer, and a launch with two parameters.
#include "oacl/kernel.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }

int RunA(int stream, uint8_t *x) { return k<<<1, nullptr, stream>>>(x); }
int RunB(void *stream, uint8_t *x) { return k<<<1, stream>>>(x); }
