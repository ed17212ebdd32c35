/*
 * Cooperative interruption points of running kernel blocks (stream stop and
 * abort, device task abort: acl-rt-reliability.md §3.3). A kernel API call
 * that a block's loop keeps making checks whether the block's launch was
 * killed and, if so, unwinds the block to its jump point (kernel_exec.c).
 * Outside a block the check is a no-op.
 */
#ifndef OACL_DEVICE_CPU_KILL_POINT_H
#define OACL_DEVICE_CPU_KILL_POINT_H

#include <stdint.h>

/* The running block's task's kill flag, NULL outside blocks. */
/* initial-exec: read on every kernel API call, no __tls_get_addr */
extern __thread const uint32_t *oacl_tls_kill __attribute__((tls_model("initial-exec")));
/* Unwinds the calling thread's killed block (does not return). */
__attribute__((noreturn)) void oacl_kernel_killed(void);

static inline void oacl_kernel_kill_point(void)
{
    const uint32_t *kill = oacl_tls_kill;
    if (__builtin_expect(kill != NULL && __atomic_load_n(kill, __ATOMIC_RELAXED) != 0, 0))
        oacl_kernel_killed();
}

#endif /* OACL_DEVICE_CPU_KILL_POINT_H */
