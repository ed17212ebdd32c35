/*
 * The poller: one thread that finishes stream waits whose condition nobody
 * announces — a value in memory that a kernel, a copy or the host program
 * may change (aclrtValueWait), a notify (aclrtWaitAndResetNotify) — and
 * fails waits whose deadline passes.
 *
 * Writers the runtime knows about (value writes, notify records, every task
 * that completes while waits are parked) kick the poller, so those waits end
 * within a few microseconds. Writes nobody announces (the host program
 * storing into mapped memory) are seen by polling, with an interval that
 * starts at a few microseconds and backs off to OACL_POLL_MAX_NS while
 * nothing changes. With nothing parked the thread sleeps without a timeout.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>

#include "acl/acl.h"
#include "common/futex.h"
#include "common/log.h"
#include "device/cpu/cpu_device.h"

#define OACL_POLL_MIN_NS 2000ull
#define OACL_POLL_MAX_NS 500000ull

static struct {
    pthread_mutex_t lock;
    struct oacl_poll *head;      /* parked waits (lock) */
    uint32_t word;               /* atomic futex word: bumped by every kick */
    uint32_t parked;             /* atomic: number of parked waits */
    bool started;                /* lock */
} g_poll = {.lock = PTHREAD_MUTEX_INITIALIZER};

void oacl_poller_kick(void)
{
    __atomic_add_fetch(&g_poll.word, 1, __ATOMIC_SEQ_CST);
    oacl_futex_wake(&g_poll.word, 1);
}

bool oacl_poller_busy(void) { return __atomic_load_n(&g_poll.parked, __ATOMIC_RELAXED) != 0; }

static void unlink_locked(struct oacl_poll *p)
{
    if (p->prev)
        p->prev->next = p->next;
    else
        g_poll.head = p->next;
    if (p->next)
        p->next->prev = p->prev;
    p->prev = p->next = NULL;
    p->parked = false;
    __atomic_sub_fetch(&g_poll.parked, 1, __ATOMIC_RELAXED);
}

/* Finishes waits taken off the list (linked through ->next). */
static void finish(struct oacl_poll *done)
{
    while (done) {
        struct oacl_poll *p = done;
        done = p->next;
        p->next = NULL;
        if (p->error) { /* the wait itself failed (e.g. its peer process died) */
            oacl_exec_task_fail(p->task, p->error, p->error_msg ? p->error_msg : p->what);
        } else if (p->timed_out) {
            if (p->expired)
                p->expired(p);
            char msg[160];
            snprintf(msg, sizeof(msg), "%s did not happen within %llu ms", p->what,
                     (unsigned long long)(p->timeout_ns / 1000000));
            oacl_exec_task_fail(p->task, ACL_ERROR_RT_TASK_TIMEOUT, msg);
        }
        oacl_exec_task_done(p->task);
    }
}

/* One pass over the parked waits; returns how many finished and the
 * nearest deadline of the rest. */
static unsigned scan(uint64_t *nearest)
{
    struct oacl_poll *done = NULL;
    unsigned n = 0;
    *nearest = UINT64_MAX;
    uint64_t now = oacl_now_ns();
    pthread_mutex_lock(&g_poll.lock);
    for (struct oacl_poll *p = g_poll.head, *next; p; p = next) {
        next = p->next;
        /* A stopped context drops the wait (its failure is reported). */
        bool ready = oacl_exec_stopped(p->task->queue) || p->ready(p);
        if (!ready && p->deadline_ns > now) {
            if (p->deadline_ns < *nearest)
                *nearest = p->deadline_ns;
            continue;
        }
        p->timed_out = !ready;
        unlink_locked(p);
        p->next = done;
        done = p;
        n++;
    }
    pthread_mutex_unlock(&g_poll.lock);
    finish(done);
    return n;
}

static void *poller_main(void *arg)
{
    (void)arg;
    /* Short sleeps must stay short. */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    uint64_t interval = OACL_POLL_MIN_NS;
    for (;;) {
        uint32_t seen = __atomic_load_n(&g_poll.word, __ATOMIC_SEQ_CST);
        uint64_t nearest;
        unsigned finished = scan(&nearest);
        if (!oacl_poller_busy()) {
            oacl_futex_wait(&g_poll.word, seen, -1);
            interval = OACL_POLL_MIN_NS;
            continue;
        }
        interval = finished ? OACL_POLL_MIN_NS : (interval * 2 > OACL_POLL_MAX_NS ? OACL_POLL_MAX_NS : interval * 2);
        uint64_t now = oacl_now_ns();
        uint64_t sleep = interval;
        if (nearest != UINT64_MAX)
            sleep = nearest <= now ? 0 : (nearest - now < sleep ? nearest - now : sleep);
        if (sleep && oacl_futex_wait(&g_poll.word, seen, (int64_t)sleep) == 0)
            interval = OACL_POLL_MIN_NS; /* kicked: something changed */
    }
    return NULL;
}

int oacl_poller_park(struct oacl_poll *p, char *err)
{
    p->deadline_ns = p->timeout_ns ? oacl_now_ns() + p->timeout_ns : UINT64_MAX;
    pthread_mutex_lock(&g_poll.lock);
    if (!g_poll.started) {
        pthread_t tid;
        if (pthread_create(&tid, NULL, poller_main, NULL) != 0) {
            pthread_mutex_unlock(&g_poll.lock);
            if (err)
                snprintf(err, OACL_BACKEND_ERRLEN, "cannot start the poller thread");
            return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
        }
        pthread_detach(tid);
        g_poll.started = true;
    }
    p->prev = NULL;
    p->next = g_poll.head;
    if (g_poll.head)
        g_poll.head->prev = p;
    g_poll.head = p;
    p->parked = true;
    __atomic_add_fetch(&g_poll.parked, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&g_poll.lock);
    oacl_poller_kick();
    return 0;
}

bool oacl_poller_cancel(struct oacl_poll *p)
{
    pthread_mutex_lock(&g_poll.lock);
    bool was = p->parked;
    if (was)
        unlink_locked(p);
    pthread_mutex_unlock(&g_poll.lock);
    return was;
}
