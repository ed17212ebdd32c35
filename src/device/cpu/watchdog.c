/*
 * The kernel timeout watchdog (reliability chapter §3.4, Decisions 9 and
 * 11): one thread, started by the first block that has a deadline, that
 * signals every thread whose block has run past its launch's timeout with
 * the kill signal; the handler unwinds the block and the launch fails with
 * the timeout code. It checks at least every 10 ms while blocks with a
 * deadline run, and sleeps on a futex when none does.
 */
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "common/futex.h"
#include "common/log.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/fault.h"

#define PERIOD_NS 10000000ull

static uint32_t g_word;     /* atomic futex word: bumped when a block is armed */
static uint32_t g_sleeping; /* atomic: the watchdog sleeps on g_word */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void *watchdog_main(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t seen = __atomic_load_n(&g_word, __ATOMIC_SEQ_CST);
        uint64_t now = oacl_now_ns();
        uint64_t next = oacl_kernel_kill_overdue(now);
        if (!next) {
            /* Nothing to watch: sleep until a block is armed. Arming stores
               the deadline before it reads g_sleeping, and this looks at the
               deadlines again after setting it: no arm is missed. */
            __atomic_store_n(&g_sleeping, 1, __ATOMIC_SEQ_CST);
            if (!oacl_kernel_kill_overdue(oacl_now_ns()))
                oacl_futex_wait(&g_word, seen, -1);
            __atomic_store_n(&g_sleeping, 0, __ATOMIC_SEQ_CST);
            continue;
        }
        uint64_t wait = next > now ? next - now : 0;
        if (wait > PERIOD_NS)
            wait = PERIOD_NS;
        struct timespec ts = {.tv_sec = (time_t)(wait / 1000000000ull), .tv_nsec = (long)(wait % 1000000000ull)};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void start_once(void)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the program's signals are not for this thread */
    pthread_t th;
    int e = pthread_create(&th, NULL, watchdog_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (e)
        OACL_WARN("cannot start the kernel timeout watchdog (error %d): kernels are not stopped at their timeout", e);
    else
        pthread_detach(th);
}

void oacl_watchdog_arm(void)
{
    pthread_once(&g_once, start_once);
    if (__atomic_load_n(&g_sleeping, __ATOMIC_SEQ_CST)) {
        __atomic_add_fetch(&g_word, 1, __ATOMIC_SEQ_CST);
        oacl_futex_wake(&g_word, 1);
    }
}
