/*
 * Device-code qualifiers for kernels compiled by oacl-cc for the CPU device.
 * On the CPU every address space is ordinary host memory, so the address
 * qualifiers expand to nothing. __global__ marks a kernel entry: the driver
 * preprocesses each source once with OACL_KERNEL_SCAN defined, where the
 * marker survives preprocessing and tells it which functions are kernels.
 */
#ifndef OACL_KERNEL_QUALIFIERS_H
#define OACL_KERNEL_QUALIFIERS_H

#include <stdint.h>

#if defined(OACL_KERNEL_SCAN)
#define __global__ __oacl_kernel_entry__
#else
#define __global__
#endif
#define __aicore__
#define __vector__
#define __cube__
#define __mix__(c, v)
#define __host__
#define __schedmode__(m)

#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __ssbuf__

#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t *
#endif
#ifndef UB_ADDR
#define UB_ADDR __ubuf__ uint8_t *
#endif

/* Architecture of the simulated SoC; oacl-cc defines it from --soc. */
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

#endif /* OACL_KERNEL_QUALIFIERS_H */
