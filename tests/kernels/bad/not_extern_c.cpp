// A C++ kernel with C++ linkage: not findable by its plain name.
#include <oacl/kernel_qualifiers.h>

__global__ __aicore__ void mangled_kernel(GM_ADDR x) { x[0] = 1; }
