// A second source of the same object: launches a kernel defined in the
// other translation unit (declared here as in a header).
#include "launch_kernels.h"

#include "oacl/kernel_qualifiers.h"

extern "C" __global__ __aicore__ void shared_kernel(GM_ADDR out, uint32_t v);

int RunFromOtherTu(void *stream, uint32_t *out) { return shared_kernel<<<1, nullptr, stream>>>(out, 100u); }
