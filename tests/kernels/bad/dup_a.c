/* Defines dup_kernel; dup_b.c defines it too. */
#include <oacl/kernel_qualifiers.h>

__global__ __aicore__ void dup_kernel(GM_ADDR x) { x[0] = 1; }
