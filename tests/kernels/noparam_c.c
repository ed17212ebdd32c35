/* Zero-parameter kernels, `(void)` and `()` forms: they count their calls
 * in exported globals that the test reads with dlsym. */
#include <oacl/kernel_qualifiers.h>

int noparam_void_calls;
int noparam_empty_calls;

__global__ __aicore__ void noparam_void(void) { noparam_void_calls++; }

__global__ __aicore__ void noparam_empty() { noparam_empty_calls++; }
