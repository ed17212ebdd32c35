/* Declares odd_unnamed with unnamed parameters; odd_def.c defines it
 * without __global__, so the entry must be generated from this
 * declaration (oacl-cc names the parameters itself). */
#include <oacl/kernel_qualifiers.h>

__global__ __aicore__ void odd_unnamed(GM_ADDR, uint32_t, const double);
