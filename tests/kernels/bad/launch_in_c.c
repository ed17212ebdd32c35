/* <<<>>> in a C source. */
#include "oacl/kernel.h"

__global__ __aicore__ void k(GM_ADDR x) { (void)x; }

int run(void *stream, uint8_t *x) { return k<<<1, 0, stream>>>(x); }
