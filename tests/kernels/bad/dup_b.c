/* Second definition of dup_kernel (see dup_a.c), as a static function so
 * only oacl-cc, not the linker, can notice the clash. */
#include <oacl/kernel_qualifiers.h>

static __global__ __aicore__ void dup_kernel(GM_ADDR x) { x[0] = 2; }
