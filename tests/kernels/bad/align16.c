/* long double needs 16-byte alignment; the blob only guarantees 8. */
#include <oacl/kernel_qualifiers.h>

__global__ __aicore__ void align_kernel(GM_ADDR x, long double wide) { x[0] = (uint8_t)wide; }
