/* Variadic kernels cannot be called from an argument blob. */
#include <oacl/kernel_qualifiers.h>

__global__ __aicore__ void var_kernel(GM_ADDR x, ...) { x[0] = 1; }
