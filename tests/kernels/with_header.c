/* Quote-includes a header that sits next to this file and takes a typedef'd
 * tiling struct by value; reports the SoC macros it was compiled with. */
#include <string.h>

#include <oacl/kernel_qualifiers.h>
#include "with_header_tiling.h"

#ifndef OACL_SOC_VERSION
#error "oacl-cc must define OACL_SOC_VERSION"
#endif

/* out: tiling (12 bytes), magic byte at 12, __NPU_ARCH__ at 16, SoC name at 20 (32 bytes). */
__global__ __aicore__ void tiled(GM_ADDR out, tiling_t tiling)
{
    uint32_t arch = __NPU_ARCH__;
    memcpy(out, &tiling, sizeof(tiling));
    out[12] = TILING_MAGIC;
    memcpy(out + 16, &arch, sizeof(arch));
    strncpy((char *)out + 20, OACL_SOC_VERSION, 31);
}
