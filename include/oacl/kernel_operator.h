/*
 * kernel_operator.h for oacl: the AscendC vector-kernel API, C++17 and
 * header-only, over the C kernel API of oacl/kernel.h.
 *
 * Unmodified AscendC vector kernels compile against it with any host C++17
 * compiler and run on oacl's simulated CPU device: every API call executes
 * synchronously, in program order, inside its block, which satisfies the
 * pipeline dependencies queues and flags express; the queue, buffer and
 * operand rules are still checked, and breaking one fails the launch with
 * a message naming the kernel, the block and the rule (the stream reports
 * ACL_ERROR_RT_AICORE_EXCEPTION), as AscendC's CPU-debug mode stops on them.
 *
 * Differences from a device worth knowing:
 *   - globals and static locals of a kernel are shared by all its blocks;
 *   - printf text goes straight to stdout without the "[AIV Block i/n]"
 *     prefix (as in AscendC's CPU-debug mode);
 *   - Exp/Ln/Rsqrt are libm-accurate, not the NPU's approximations;
 *   - block_idx / block_num are macros (a variable of that name cannot be
 *     declared after including this header).
 * The supported API and what is knowingly missing is listed in
 * docs/ascendc.md.
 */
#ifndef OACL_KERNEL_OPERATOR_H
#define OACL_KERNEL_OPERATOR_H

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "kernel_operator.h needs C++17 (AscendC kernels are C++17 sources)"
#endif

/* The layers, as AscendC stacks them; each part includes the one before. */
#include "oacl/asc/prelude.h"   /* predefined macros, device builtins */
#include "oacl/asc/half.h"      /* half, bfloat16_t */
#include "oacl/asc/types.h"     /* AscendC enumerations, sizes, blocks, element types */
#include "oacl/asc/tensor.h"    /* GlobalTensor, LocalTensor */
#include "oacl/asc/pipe.h"      /* TPipe, TQue, TBuf, pipe synchronisation */
#include "oacl/asc/data_copy.h" /* DataCopy, DataCopyPad */
#include "oacl/asc/vec_ops.h"   /* vector computation */
#include "oacl/asc/printf.h"    /* printf, Trap, assert (last: it replaces <cassert>'s assert) */

#endif /* OACL_KERNEL_OPERATOR_H */
