// A syntax error after a launch: reported at the original file and line.
#include "oacl/kernel.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }
int Run(void *stream, uint8_t *x) { return k<<<1, nullptr, stream>>>(x); }
int broken( { return 0; }
