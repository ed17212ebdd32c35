// Launch syntax oacl-cc cannot rewrite.
#include "oacl/kernel.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }

typedef void (*kfn)(GM_ADDR);
int Run(void *stream, uint8_t *x, kfn f)
{
    return (*f)<<<1, nullptr, stream>>>(x);
}
