// A __global__ function template has no single C symbol.
#include <oacl/kernel_qualifiers.h>

template <typename T>
__global__ __aicore__ void templ_kernel(GM_ADDR x, T v)
{
    x[0] = (uint8_t)v;
}

template void templ_kernel<int>(GM_ADDR, int);

// An explicit specialisation marked __global__ is rejected too.
template <>
__global__ __aicore__ void templ_kernel<char>(GM_ADDR x, char v)
{
    x[0] = (uint8_t)(v + 1);
}
