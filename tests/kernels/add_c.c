/* Plain C kernel with the usual AscendC shape: three GM pointers. */
#include <oacl/kernel_qualifiers.h>

#define ADD_LEN 16

__global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    for (int i = 0; i < ADD_LEN; i++)
        z[i] = (uint8_t)(x[i] + y[i]);
}
