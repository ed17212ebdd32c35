// An argument that does not convert to the parameter type.
#include "oacl/kernel.h"

struct NotAFloat {
    int v;
};

extern "C" __global__ __aicore__ void takes_float(float f) { (void)f; }

int Run(void *stream) { return takes_float<<<1, nullptr, stream>>>(NotAFloat{1}); }
