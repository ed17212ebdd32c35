// A __global__ member function cannot be a kernel.
#include <oacl/kernel_qualifiers.h>

struct holder {
    static __global__ __aicore__ void member_kernel(GM_ADDR x) { x[0] = 1; }
};

extern "C" void use_holder(GM_ADDR x);
extern "C" void use_holder(GM_ADDR x) { holder::member_kernel(x); }
