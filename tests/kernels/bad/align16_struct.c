/* A struct by value whose member is over-aligned. */
#include <oacl/kernel_qualifiers.h>

struct wide { _Alignas(16) uint32_t v; };

__global__ __aicore__ void align_struct_kernel(GM_ADDR x, struct wide w) { x[0] = (uint8_t)w.v; }
