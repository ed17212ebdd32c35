/* Reports the macros it was compiled with (valid as C and as C++). */
#include <string.h>

#include <oacl/kernel_qualifiers.h>

#ifdef PROBE_INCLUDE
#include <probe_extra.h>
#endif
#ifndef PROBE_VALUE
#define PROBE_VALUE -1
#endif

struct probe_out {
    int32_t arch;
    int32_t optimized;
    int32_t value;
    int32_t cplusplus;
    char soc[32];
};

#ifdef __cplusplus
extern "C"
#endif
__global__ __aicore__ void probe(struct probe_out *out)
{
    out->arch = __NPU_ARCH__;
#ifdef __OPTIMIZE__
    out->optimized = 1;
#else
    out->optimized = 0;
#endif
    out->value = PROBE_VALUE;
#ifdef __cplusplus
    out->cplusplus = 1;
#else
    out->cplusplus = 0;
#endif
    strncpy(out->soc, OACL_SOC_VERSION, sizeof(out->soc) - 1);
}
