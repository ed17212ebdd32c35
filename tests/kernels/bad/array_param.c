/* An array-typed parameter hides a pointer; the driver asks for one. */
#include <oacl/kernel_qualifiers.h>

__global__ __aicore__ void array_kernel(GM_ADDR x, uint32_t dims[4]) { x[0] = (uint8_t)dims[0]; }
