/*
 * Float overflow detection and saturation of the kernel-side vector
 * primitives (reliability chapter 3.5, Decisions 12-14): the running
 * block's control word, the slow path the primitives take when it is
 * non-zero, and the per-block hooks of the kernel runner.
 *
 * Cost when a launch asks for neither detection nor saturation (the
 * default): each primitive reads one thread-local word and branches; the
 * kernel runner tests one task field per block.
 */
#ifndef OACL_DEVICE_CPU_FP_OVERFLOW_H
#define OACL_DEVICE_CPU_FP_OVERFLOW_H

#include <fenv.h>
#include <stddef.h>
#include <stdint.h>

#include "device/backend.h"
#include "oacl/kernel_abi.h"

struct oacl_task;

/* Bits of oacl_fp_ctl; the first two are the launch's OACL_LAUNCH_FP_* bits. */
#define OACL_FP_DETECT OACL_LAUNCH_FP_DETECT     /* report overflow (switch on at launch) */
#define OACL_FP_SATURATE OACL_LAUNCH_FP_SATURATE /* clamp results (saturation-mode stream) */
#define OACL_FP_HIT 4u                           /* a primitive overflowed in this block */

/* The running block's control word; 0 outside kernels. Initial-exec: a
   plain load, no __tls_get_addr call, on the primitives' fast path. */
extern __thread uint32_t oacl_fp_ctl __attribute__((tls_model("initial-exec")));

static inline int oacl_fp_active(void) { return __builtin_expect(oacl_fp_ctl != 0, 0); }

/* Element types the checks look at: the float ones. */
static inline int oacl_fp_is_float(int dtype)
{
    return dtype == OACL_DT_F16 || dtype == OACL_DT_F32 || dtype == OACL_DT_BF16;
}

/*
 * Computes n results of type out_dt into dst in chunks: compute(job, tmp,
 * off, m) writes results off..off+m-1 to tmp; each is then checked against
 * its operands (in_dt elements; a_step/b_step are 1 for arrays, 0 for a
 * single scalar; b may be NULL) and, in saturation mode, clamped, before it
 * is stored to dst. dst may be one of the operands (in place). The host
 * FPU's sticky flags are left as they were (the primitives' own rounding
 * steps must not look like kernel overflow).
 */
typedef void (*oacl_fp_compute_fn)(const void *job, void *tmp, size_t off, size_t m);
void oacl_fp_map(int out_dt, void *dst, size_t n, int in_dt, const void *a, size_t a_step, const void *b,
                 size_t b_step, oacl_fp_compute_fn compute, const void *job);

/* A reduction's result (res[0], of dtype) over src[0..n-1]: checked and
   clamped in place. */
void oacl_fp_reduce_check(int dtype, void *res, const void *src, size_t n);

/* Around one block of a launch whose fp_ctl is non-zero. */
void oacl_fp_block_begin(uint32_t ctl, fexcept_t *saved);
void oacl_fp_block_end(struct oacl_task *t, const fexcept_t *saved);

/* The completion code of a kernel task that overflowed with detection and
   saturation on (207003 / 207016), else 0. */
int oacl_fp_task_code(const struct oacl_task *t);
/* True for the 2070xx "success with overflow" codes. */
static inline int oacl_fp_is_overflow_code(int code)
{
    return code == 207003 || code == 207016 || code == 207017;
}

#endif /* OACL_DEVICE_CPU_FP_OVERFLOW_H */
