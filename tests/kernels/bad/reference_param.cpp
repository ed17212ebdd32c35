// A reference parameter cannot come from an argument blob.
#include <oacl/kernel_qualifiers.h>

extern "C" __global__ __aicore__ void ref_kernel(GM_ADDR x, const int &v) { x[0] = (uint8_t)v; }
