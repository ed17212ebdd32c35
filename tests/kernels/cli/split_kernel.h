/* Declares split_k for both split_a.c and split_b.c. */
#include <oacl/kernel_qualifiers.h>

__global__ __aicore__ void split_k(GM_ADDR out, uint32_t v);
