/*
 * The memory-writer gate (spec acl-rt-ipc-vmm.md 3.1.1): moving a device
 * allocation into its own memory file at its first export copies its
 * pages, and no store may land in the old pages after they were copied.
 * Every path that stores into device memory (kernel blocks, copies and
 * fills in stream order, value writes, synchronous copies and fills) is
 * inside the gate while it stores; closing the gate waits for the writers
 * inside and holds new ones at the entrance until it reopens.
 *
 * Writers enter per kernel block (not per launch): a block always finishes
 * without help from the host program, so closing never waits for anything
 * that itself waits for the gate. The cost on the launch path is one
 * atomic increment and decrement per block. Entering is reentrant per
 * thread (an inline task may complete waits that drive further inline
 * tasks on the same thread): only the outermost entry counts.
 */
#include <limits.h>
#include <pthread.h>

#include "common/futex.h"
#include "device/cpu/cpu_device.h"

static struct {
    uint32_t writers;           /* atomic: writers inside (and ones stepping back out) */
    uint32_t closed;            /* atomic futex word: 1 while an export copies */
    pthread_mutex_t close_lock; /* one closer at a time */
} g_gate = {.close_lock = PTHREAD_MUTEX_INITIALIZER};

static __thread unsigned t_depth; /* this thread's nesting inside the gate */

void oacl_cpu_gate_enter(void)
{
    if (t_depth++)
        return;
    for (;;) {
        __atomic_add_fetch(&g_gate.writers, 1, __ATOMIC_SEQ_CST);
        if (!__atomic_load_n(&g_gate.closed, __ATOMIC_SEQ_CST))
            return;
        /* A closer is waiting for the writers inside: step back out. */
        if (__atomic_sub_fetch(&g_gate.writers, 1, __ATOMIC_SEQ_CST) == 0)
            oacl_futex_wake(&g_gate.writers, INT_MAX);
        while (__atomic_load_n(&g_gate.closed, __ATOMIC_SEQ_CST))
            oacl_futex_wait(&g_gate.closed, 1, -1);
    }
}

void oacl_cpu_gate_leave(void)
{
    if (--t_depth)
        return;
    if (__atomic_sub_fetch(&g_gate.writers, 1, __ATOMIC_SEQ_CST) == 0 &&
        __atomic_load_n(&g_gate.closed, __ATOMIC_SEQ_CST))
        oacl_futex_wake(&g_gate.writers, INT_MAX);
}

void oacl_cpu_gate_close(void)
{
    pthread_mutex_lock(&g_gate.close_lock);
    __atomic_store_n(&g_gate.closed, 1, __ATOMIC_SEQ_CST);
    uint32_t self = t_depth ? 1 : 0; /* a closer inside the gate waits for the others */
    for (;;) {
        uint32_t w = __atomic_load_n(&g_gate.writers, __ATOMIC_SEQ_CST);
        if (w == self)
            break;
        oacl_futex_wait(&g_gate.writers, w, 1000000); /* re-check every ms as well */
    }
}

void oacl_cpu_gate_open(void)
{
    __atomic_store_n(&g_gate.closed, 0, __ATOMIC_SEQ_CST);
    oacl_futex_wake(&g_gate.closed, INT_MAX);
    pthread_mutex_unlock(&g_gate.close_lock);
}
