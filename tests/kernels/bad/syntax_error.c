/* A kernel with a syntax error in its body: the compiler's message must
 * reach the user and no output may be left behind. */
#include <oacl/kernel_qualifiers.h>

__global__ __aicore__ void broken(GM_ADDR x)
{
    x[0] = 1 /* missing semicolon */
}
