/*
 * Minimal futex wrappers: wait while a 32-bit word holds a value, and wake
 * waiters. Used where a condition variable would cost a mutex round trip on
 * every hand-off; the words themselves are accessed with atomics.
 */
#ifndef OACL_COMMON_FUTEX_H
#define OACL_COMMON_FUTEX_H

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleeps while *word == expected, at most timeout_ns (< 0: no limit).
 * Returns 0 when woken or the value differed, ETIMEDOUT on timeout. */
static inline int oacl_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns)
{
    struct timespec ts, *tsp = NULL;
    if (timeout_ns >= 0) {
        ts.tv_sec = (time_t)(timeout_ns / 1000000000);
        ts.tv_nsec = (long)(timeout_ns % 1000000000);
        tsp = &ts;
    }
    long r = syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, tsp, NULL, 0);
    return (r == -1 && errno == ETIMEDOUT) ? ETIMEDOUT : 0;
}

static inline void oacl_futex_wake(uint32_t *word, int count)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

static inline void oacl_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif /* OACL_COMMON_FUTEX_H */
