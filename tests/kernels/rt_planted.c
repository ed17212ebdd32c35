/*
 * Planted faults for the fault-isolation matrix (tests/unit/test_fault_matrix.c).
 * Every kernel takes (flag, out, where, host_tid). `where` picks the
 * thread that misbehaves: 0 = any worker thread (the host synchronises with
 * a deadline, so it never runs blocks), 1 = the host thread that runs blocks
 * while it synchronises: blocks that land on workers wait until a block
 * has reached the host thread (they hold the workers, so the host thread
 * is sure to get blocks), and that block misbehaves.
 */
#include <oacl/kernel.h>
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* True when this block is the one that misbehaves. */
static int chosen(GM_ADDR flag, uint32_t where, uint32_t host_tid)
{
    int host = (uint32_t)syscall(SYS_gettid) == host_tid;
    volatile uint32_t *f = (volatile uint32_t *)flag;
    if (where == 0)
        return !host;
    if (host) {
        __atomic_store_n(f, 1u, __ATOMIC_RELEASE);
        return 1;
    }
    while (!__atomic_load_n(f, __ATOMIC_ACQUIRE))
        sched_yield();
    return 0;
}

#define PLANTED(name) __global__ __aicore__ void name(GM_ADDR flag, GM_ADDR out, uint32_t where, uint32_t host_tid)

PLANTED(null_deref)
{
    (void)out;
    if (!chosen(flag, where, host_tid))
        return;
    volatile uintptr_t zero = 0;
    *(volatile uint32_t *)(zero + 8) = 1; /* a write 8 bytes above NULL */
}

PLANTED(write_far)
{
    if (!chosen(flag, where, host_tid))
        return;
    volatile uintptr_t far = (uintptr_t)1 << 46; /* far outside every allocation */
    *(volatile uint32_t *)((uintptr_t)out ^ far) = 1;
}

PLANTED(div_zero)
{
    if (!chosen(flag, where, host_tid))
        return;
    volatile int32_t zero = 0;
    volatile int32_t x = 7;
    ((__gm__ int32_t *)out)[0] = x / zero;
}

PLANTED(illegal)
{
    (void)out;
    if (!chosen(flag, where, host_tid))
        return;
    __builtin_trap(); /* ud2 on x86-64, udf on AArch64: SIGILL */
}

PLANTED(breakpoint)
{
    (void)out;
    if (!chosen(flag, where, host_tid))
        return;
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("int3"); /* SIGTRAP */
#elif defined(__aarch64__)
    __asm__ volatile("brk #0"); /* SIGTRAP */
#else
    __builtin_trap();
#endif
}

static volatile uint32_t g_depth_limit = UINT32_MAX; /* never reached: the stack ends first */

static uint32_t recurse(volatile uint8_t *prev, uint32_t depth)
{
    if (depth >= g_depth_limit)
        return 0;
    volatile uint8_t frame[512];
    frame[0] = (uint8_t)depth;
    frame[511] = prev ? prev[0] : 0;
    return recurse(frame, depth + 1) + frame[511]; /* not a tail call */
}

PLANTED(deep_recursion)
{
    if (!chosen(flag, where, host_tid))
        return;
    ((__gm__ uint32_t *)out)[0] = recurse(NULL, 0);
}

PLANTED(endless)
{
    if (!chosen(flag, where, host_tid))
        return;
    volatile uint32_t *never = (volatile uint32_t *)out;
    /* Spins; now and then it sleeps a microsecond, where a thread sanitizer
       (which delivers signals at intercepted calls) lets the kill in. */
    for (uint32_t i = 1; never[1] != 0xdeadbeefu; i++) {
        if ((i & 1023) == 0) {
            struct timespec ts = {0, 1000};
            nanosleep(&ts, NULL);
        }
    }
}

/* Every block writes its index + 1: the launch after a fault. */
PLANTED(good)
{
    (void)flag;
    (void)where;
    (void)host_tid;
    uint32_t idx = (uint32_t)oacl_get_block_idx();
    ((__gm__ uint32_t *)out)[idx] = idx + 1;
}
