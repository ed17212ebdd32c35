/*
 * The CPU device's executor: a process-wide pool of worker threads playing
 * the AI cores, and the in-order queues (one per stream) they serve.
 *
 * Hand-off design. Waking a sleeping thread costs ~20 us on a small VM while
 * a thread that is already spinning picks work up in well under 1 us, so:
 *  - workers spin for a short window after their last task before sleeping
 *    on a futex (idle CPU returns to ~0 after the window);
 *  - a submit only issues a wake-up syscall when some worker sleeps;
 *  - a thread that synchronises a queue does not just wait: it claims and
 *    runs unclaimed blocks of that queue's current task itself, so a launch
 *    followed by a synchronise completes even before a sleeping worker
 *    has woken up;
 *  - while launches are tiny, at most CPUs - 1 idle workers spin (worker_idle):
 *    spinning workers would otherwise take the CPUs the launching thread
 *    needs.
 * Tasks are split into units (kernel blocks) claimed with one atomic
 * increment each; whoever finishes the last unit completes the task.
 *
 * One mutex guards every queue's task list and the ready list (queues whose
 * head task has unclaimed units); block execution never holds it.
 */
#include "device/cpu/cpu_device.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/futex.h"
#include "common/log.h"
#include "device/cpu/fault.h"
#include "device/cpu/fp_overflow.h"
#include "device/cpu/soc_profile.h"

#define DEFAULT_WORKER_SPIN_US 200
#define DEFAULT_SYNC_SPIN_US 100
/* Spinning threads poll with `pause` this long before yielding the CPU. */
#define PAUSE_PHASE_NS 5000
/* A launch whose blocks all ran (first claim to last completion) within
   TINY_TASK_NS, or within TINY_UNIT_NS per block, is tiny: its hand-offs
   cost more than its work. */
#define TINY_TASK_NS 2000u
#define TINY_UNIT_NS 500u
#define TINY_EXIT_RUN 3u /* launches in a row that are not end tiny mode */
/* How long a parked worker sleeps before it looks for work itself: from
   1 ms, doubling while it finds none, up to 1 s. */
#define PARK_MIN_NS 1000000ull
#define PARK_MAX_NS 1000000000ull

struct executor {
    pthread_mutex_t lock;
    struct oacl_queue *ready_head, *ready_tail;
    uint32_t work_word;     /* atomic futex word: bumped when work is published */
    uint32_t sleepers;      /* atomic: workers sleeping on work_word */
    /* Parking (see worker_idle): while launches are tiny, at most
       spin_places idle workers spin and the others sleep on park_word,
       off the submit path. */
    uint32_t tiny;          /* atomic: tiny mode (note_launch_time) */
    uint32_t spinners;      /* atomic: idle workers holding a spinning place */
    uint32_t spin_places;   /* spinning places while tiny: host CPUs - 1, at least 1 */
    uint32_t big_run;       /* atomic: launches in a row that were not tiny */
    uint32_t park_word;     /* atomic futex word: bumped to release parked workers */
    uint32_t parked;        /* atomic: workers waiting on park_word */
    uint32_t nworkers;
    pthread_t *threads;
    uint64_t worker_spin_ns;
    uint64_t sync_spin_ns;
    int start_error;
};

static struct executor g_exec = {.lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t g_exec_once = PTHREAD_ONCE_INIT;
static const struct oacl_soc_profile *g_exec_soc;

uint64_t oacl_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- tasks -------------------------------------------------------------- */

struct oacl_task *oacl_task_new(size_t payload)
{
    size_t head = (sizeof(struct oacl_task) + 15) & ~(size_t)15;
    struct oacl_task *t = calloc(1, head + payload);
    if (t) {
        t->data = payload ? (char *)t + head : NULL;
        t->refs = 1;
    }
    return t;
}

void oacl_task_put(struct oacl_task *t)
{
    if (__atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL) == 0)
        t->release(t);
}

void oacl_exec_task_fail(struct oacl_task *t, int code, const char *msg)
{
    int expected = 0;
    if (__atomic_compare_exchange_n(&t->failed, &expected, code, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        size_t n = strlen(msg);
        if (n >= sizeof(t->fail_msg))
            n = sizeof(t->fail_msg) - 1;
        memcpy(t->fail_msg, msg, n);
        t->fail_msg[n] = '\0';
    }
}

/* ---- ready list (executor lock held) ------------------------------------- */

static void ready_push(struct oacl_queue *q)
{
    if (q->in_ready)
        return;
    q->in_ready = true;
    q->ready_next = NULL;
    q->ready_prev = g_exec.ready_tail;
    if (g_exec.ready_tail)
        g_exec.ready_tail->ready_next = q;
    else
        g_exec.ready_head = q;
    g_exec.ready_tail = q;
}

static void ready_remove(struct oacl_queue *q)
{
    if (!q->in_ready)
        return;
    if (q->ready_prev)
        q->ready_prev->ready_next = q->ready_next;
    else
        g_exec.ready_head = q->ready_next;
    if (q->ready_next)
        q->ready_next->ready_prev = q->ready_prev;
    else
        g_exec.ready_tail = q->ready_prev;
    q->in_ready = false;
    q->ready_prev = q->ready_next = NULL;
}

static inline bool has_unclaimed(struct oacl_task *t)
{
    return __atomic_load_n(&t->next_unit, __ATOMIC_RELAXED) < t->units;
}

/* Publishes new work and wakes sleeping workers (lock released by caller
 * before the wake: see wake_workers). */
static inline void publish_work_locked(void)
{
    __atomic_add_fetch(&g_exec.work_word, 1, __ATOMIC_SEQ_CST);
}

/* Sleeping workers are woken; parked ones are not (worker_idle). */
static inline void wake_workers(void)
{
    if (__atomic_load_n(&g_exec.sleepers, __ATOMIC_SEQ_CST) > 0)
        oacl_futex_wake(&g_exec.work_word, INT_MAX);
}

/* ---- running units ---------------------------------------------------- */

/*
 * After q's head changed (lock held): a UNITS head with unclaimed units
 * goes (back) on the ready list; an INLINE or EXTERNAL head that has not
 * run yet is marked started and returned, for the caller to drive once the
 * lock is released.
 */
static struct oacl_task *head_changed_locked(struct oacl_queue *q, bool *publish)
{
    struct oacl_task *h = q->head;
    ready_remove(q);
    if (!h || __builtin_expect(__atomic_load_n(&q->held, __ATOMIC_RELAXED) != 0, 0))
        return NULL; /* a stopped queue starts nothing */
    if (h->kind == OACL_TASK_UNITS) {
        if (has_unclaimed(h)) {
            /* At the tail of the ready list: streams take turns. */
            ready_push(q);
            publish_work_locked();
            *publish = true;
        }
        return NULL;
    }
    if (h->started)
        return NULL;
    h->started = true;
    return h;
}

/* Takes a finished task off its queue; returns the next task to drive. */
static struct oacl_task *finish_task(struct oacl_task *t)
{
    struct oacl_queue *q = t->queue;
    int failed = __atomic_load_n(&t->failed, __ATOMIC_ACQUIRE);
    if (!failed && t->timeout_ns && !__atomic_load_n(&t->killed, __ATOMIC_RELAXED)) {
        uint64_t start = __atomic_load_n(&t->start_ns, __ATOMIC_RELAXED);
        uint64_t elapsed = oacl_now_ns() - start;
        if (elapsed > t->timeout_ns) {
            char msg[160];
            snprintf(msg, sizeof(msg), "kernel '%s' ran %llu us, over its %llu us timeout",
                     t->kernel ? t->kernel->name : "?", (unsigned long long)(elapsed / 1000),
                     (unsigned long long)(t->timeout_ns / 1000));
            failed = oacl_fault_code(OACL_FAULT_CLASS_TIMEOUT, t->aiv, false);
            oacl_exec_task_fail(t, failed, msg);
        }
    }
    if (__builtin_expect((t->trace_on | (failed != 0)) != 0, 0))
        oacl_cpu_task_finishing(t, failed); /* profiler record, exception dump */
    if (failed) {
        OACL_ERROR("device %u: %s", q->dev->index, t->fail_msg);
        if (q->group && __atomic_load_n(&q->group->stop_on_failure, __ATOMIC_ACQUIRE)) {
            int none = 0; /* the first failure stops the whole context */
            __atomic_compare_exchange_n(&q->group->error, &none, failed, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
        }
    }

    /* Saturation-mode overflow: "success with overflow", reported like a
       failure but below any real one, with no callbacks or STOP effect. */
    const int overflow = !failed && __builtin_expect(t->fp_ctl != 0, 0) ? oacl_fp_task_code(t) : 0;

    bool publish = false;
    pthread_mutex_lock(&g_exec.lock);
    q->head = t->next;
    if (!q->head)
        q->tail = NULL;
    if (failed && (!q->fault || oacl_fp_is_overflow_code(q->fault))) {
        q->fault = failed;
        snprintf(q->fault_msg, sizeof(q->fault_msg), "%s", t->fail_msg);
    }
    if (overflow && !q->fault) {
        q->fault = overflow;
        snprintf(q->fault_msg, sizeof(q->fault_msg), "kernel '%s' overflowed (saturation mode, results clamped)",
                 t->kernel ? t->kernel->name : "?");
    }
    __atomic_store_n(&q->completed, q->head ? q->head->seq - 1 : q->submitted, __ATOMIC_RELEASE);
    struct oacl_task *next = head_changed_locked(q, &publish);
    __atomic_add_fetch(&q->done_word, 1, __ATOMIC_SEQ_CST);
    /* Whoever saw the queue drain may destroy it as soon as the lock is
       released: oacl_exec_queue_fini waits for this thread's last touch. */
    __atomic_add_fetch(&q->finishers, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&g_exec.lock);

    if (__atomic_load_n(&q->waiters, __ATOMIC_SEQ_CST) > 0)
        oacl_futex_wake(&q->done_word, INT_MAX);
    __atomic_sub_fetch(&q->finishers, 1, __ATOMIC_RELEASE); /* q is not touched after this */
    if (publish)
        wake_workers();
    if (oacl_poller_busy()) /* the task may have written what a wait polls for */
        oacl_poller_kick();
    oacl_task_put(t); /* the queue's reference */
    return next;
}

/* Runs started INLINE/EXTERNAL heads for as long as they finish at once. A
 * loop, not recursion: a queue may hold long runs of such tasks. */
static void drive(struct oacl_task *t)
{
    while (t) {
        if (__builtin_expect(t->trace_on, 0))
            __atomic_store_n(&t->start_ns, oacl_now_ns(), __ATOMIC_RELAXED);
        if (t->kind == OACL_TASK_INLINE) {
            /* Inline tasks may store into device memory (value writes). */
            oacl_cpu_gate_enter();
            t->run(t, 0); /* records still complete (with the error) */
            oacl_cpu_gate_leave();
        } else if (oacl_exec_stopped(t->queue)) {
            t->started = false; /* dropped unrun: its release drops the payload */
        } else if (!t->start(t)) {
            return; /* someone calls oacl_exec_task_done later */
        }
        t = finish_task(t);
    }
}

void oacl_exec_task_done(struct oacl_task *t) { drive(finish_task(t)); }

/* Wakes the parked workers (if any). */
static void unpark_workers(void)
{
    if (__atomic_load_n(&g_exec.parked, __ATOMIC_SEQ_CST) > 0) {
        __atomic_add_fetch(&g_exec.park_word, 1, __ATOMIC_SEQ_CST);
        oacl_futex_wake(&g_exec.park_word, INT_MAX);
    }
}

/* A launch of `units` blocks took `ns` from first claim to last
   completion: tiny mode starts at a tiny launch and ends (unparking) after
   TINY_EXIT_RUN launches in a row that are not. */
static void note_launch_time(uint64_t ns, uint32_t units)
{
    if (ns < TINY_TASK_NS || ns < (uint64_t)units * TINY_UNIT_NS) {
        __atomic_store_n(&g_exec.big_run, 0, __ATOMIC_RELAXED);
        if (!__atomic_load_n(&g_exec.tiny, __ATOMIC_RELAXED))
            __atomic_store_n(&g_exec.tiny, 1, __ATOMIC_SEQ_CST);
        return;
    }
    /* One slow launch among tiny ones (the thread was preempted) keeps tiny mode. */
    if (__atomic_add_fetch(&g_exec.big_run, 1, __ATOMIC_RELAXED) < TINY_EXIT_RUN ||
        !__atomic_load_n(&g_exec.tiny, __ATOMIC_RELAXED))
        return;
    __atomic_store_n(&g_exec.tiny, 0, __ATOMIC_SEQ_CST);
    unpark_workers();
}

/* Claims and runs units of t until none are left. */
static void run_units(struct oacl_task *t)
{
    for (;;) {
        uint32_t u = __atomic_fetch_add(&t->next_unit, 1, __ATOMIC_RELAXED);
        if (u >= t->units)
            return;
        if (u == 0)
            __atomic_store_n(&t->start_ns, oacl_now_ns(), __ATOMIC_RELAXED);
        oacl_cpu_gate_enter(); /* a unit may store into device memory */
        t->run(t, u);
        oacl_cpu_gate_leave();
        if (__atomic_add_fetch(&t->units_done, 1, __ATOMIC_ACQ_REL) == t->units) {
            note_launch_time(oacl_now_ns() - __atomic_load_n(&t->start_ns, __ATOMIC_RELAXED), t->units);
            drive(finish_task(t));
        }
    }
}

/* A thread stops working on t: one more place under its core limit. */
static void leave(struct oacl_task *t)
{
    /* Only a task with units left can have threads waiting for a place. */
    if (t->max_workers && has_unclaimed(t)) {
        pthread_mutex_lock(&g_exec.lock);
        __atomic_sub_fetch(&t->workers, 1, __ATOMIC_RELAXED);
        bool more = has_unclaimed(t);
        if (more)
            publish_work_locked();
        pthread_mutex_unlock(&g_exec.lock);
        if (more)
            wake_workers();
    } else {
        __atomic_sub_fetch(&t->workers, 1, __ATOMIC_RELAXED);
    }
    oacl_task_put(t);
}

/* Takes a reference to the first task with unclaimed units (lock held).
 * Queues whose head is fully claimed leave the ready list on the way. */
static struct oacl_task *adopt_locked(void)
{
    struct oacl_queue *q = g_exec.ready_head;
    while (q) {
        struct oacl_queue *next = q->ready_next;
        struct oacl_task *t = q->head;
        if (t && has_unclaimed(t)) {
            if (t->max_workers && __atomic_load_n(&t->workers, __ATOMIC_RELAXED) >= t->max_workers) {
                q = next; /* at its core limit: leave it to the threads on it */
                continue;
            }
            __atomic_add_fetch(&t->workers, 1, __ATOMIC_RELAXED);
            __atomic_add_fetch(&t->refs, 1, __ATOMIC_RELAXED);
            return t;
        }
        ready_remove(q);
        q = next;
    }
    return NULL;
}

/* ---- workers ------------------------------------------------------------- */

/* Sleeps on park_word until unparked, or for *backoff_ns (then doubled, up
   to PARK_MAX_NS): a parked worker still looks for work now and then, so
   that work nobody else runs (a block waiting for another) is run late,
   never left. */
static void park(uint64_t *backoff_ns)
{
    uint32_t w = __atomic_load_n(&g_exec.park_word, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&g_exec.parked, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&g_exec.tiny, __ATOMIC_SEQ_CST) && __atomic_load_n(&g_exec.park_word, __ATOMIC_SEQ_CST) == w)
        oacl_futex_wait(&g_exec.park_word, w, (int64_t)*backoff_ns);
    __atomic_sub_fetch(&g_exec.parked, 1, __ATOMIC_SEQ_CST);
    bool unparked = __atomic_load_n(&g_exec.park_word, __ATOMIC_SEQ_CST) != w;
    *backoff_ns = unparked ? PARK_MIN_NS : (*backoff_ns * 2 > PARK_MAX_NS ? PARK_MAX_NS : *backoff_ns * 2);
}

/* Spins on the work word for a while; true if work was published. */
static bool spin_for_work(uint32_t seen)
{
    uint64_t start = oacl_now_ns();
    for (unsigned i = 0;; i++) {
        if (__atomic_load_n(&g_exec.work_word, __ATOMIC_ACQUIRE) != seen)
            return true;
        if ((i & 63) == 63) {
            uint64_t spent = oacl_now_ns() - start;
            if (spent >= g_exec.worker_spin_ns)
                return false;
            if (spent >= PAUSE_PHASE_NS)
                sched_yield();
        } else {
            oacl_cpu_relax();
        }
    }
}

/*
 * An idle worker spins on the work word for a while, then sleeps on it.
 * While launches are tiny, at most CPUs - 1 idle workers spin: the others park
 * (sleep where submits do not wake them), so that spinning workers do not
 * take the CPUs the launching thread needs (on 2 CPUs, W = 2 spinning
 * workers doubled the latency of an empty launch). Parked workers return
 * when launches stop being tiny, when a worker adopts a task while other
 * queues have work ready (worker_main), and on their own after a backoff
 * (park): a parked worker is never the only way a task can run.
 */
static void worker_idle(uint32_t seen, uint64_t *backoff_ns)
{
    bool spinner = __atomic_add_fetch(&g_exec.spinners, 1, __ATOMIC_SEQ_CST) <= g_exec.spin_places;
    if (!spinner) {
        __atomic_sub_fetch(&g_exec.spinners, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&g_exec.tiny, __ATOMIC_SEQ_CST)) {
            park(backoff_ns);
            return;
        }
    }
    bool woke = spin_for_work(seen);
    if (spinner)
        __atomic_sub_fetch(&g_exec.spinners, 1, __ATOMIC_SEQ_CST);
    if (woke)
        return;
    __atomic_add_fetch(&g_exec.sleepers, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&g_exec.work_word, __ATOMIC_SEQ_CST) == seen)
        oacl_futex_wait(&g_exec.work_word, seen, -1);
    __atomic_sub_fetch(&g_exec.sleepers, 1, __ATOMIC_SEQ_CST);
}

static void *worker_main(void *arg)
{
    (void)arg;
    uint64_t backoff_ns = PARK_MIN_NS;
    for (;;) {
        pthread_mutex_lock(&g_exec.lock);
        struct oacl_task *t = adopt_locked();
        uint32_t seen = __atomic_load_n(&g_exec.work_word, __ATOMIC_RELAXED);
        /* More ready than this worker takes: parked workers are needed
           (a block may wait for work no other thread would run). */
        bool more = t && (g_exec.ready_head != t->queue || t->queue->ready_next);
        pthread_mutex_unlock(&g_exec.lock);
        if (t) {
            if (more)
                unpark_workers();
            backoff_ns = PARK_MIN_NS;
            run_units(t);
            leave(t);
            continue;
        }
        worker_idle(seen, &backoff_ns);
    }
    return NULL;
}

static uint64_t env_us(const char *name, uint64_t def)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return def;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    return *end ? def : (uint64_t)x;
}

static uint32_t host_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return (uint32_t)n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)n : 1;
}

static void exec_start_once(void)
{
    /* Never more workers than host CPUs, nor than the SoC has cores for a
       vector kernel; OACL_WORKERS can only lower the count. */
    uint32_t n = host_cpus();
    uint32_t cores = oacl_soc_block_cores(__atomic_load_n(&g_exec_soc, __ATOMIC_ACQUIRE));
    if (cores && n > cores)
        n = cores;
    uint64_t req = env_us("OACL_WORKERS", 0);
    if (req >= 1 && req < n)
        n = (uint32_t)req;
    g_exec.worker_spin_ns = env_us("OACL_SPIN_US", DEFAULT_WORKER_SPIN_US) * 1000;
    g_exec.spin_places = host_cpus() > 1 ? host_cpus() - 1 : 1; /* one CPU for the launching thread */
    g_exec.sync_spin_ns = env_us("OACL_SYNC_SPIN_US", DEFAULT_SYNC_SPIN_US) * 1000;
    g_exec.threads = calloc(n, sizeof(pthread_t));
    if (!g_exec.threads) {
        g_exec.start_error = ENOMEM;
        return;
    }
    sigset_t all, old;
    sigfillset(&all);
    /* Workers block every signal: they belong to the application's threads. */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (uint32_t i = 0; i < n; i++) {
        int e = pthread_create(&g_exec.threads[i], NULL, worker_main, NULL);
        if (e) {
            if (i == 0)
                g_exec.start_error = e;
            break;
        }
        pthread_detach(g_exec.threads[i]);
        g_exec.nworkers++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    OACL_DEBUG("executor: %u worker threads (host CPUs %u, SoC cores %u)", g_exec.nworkers, host_cpus(), cores);
}

int oacl_exec_start(const struct oacl_soc_profile *soc)
{
    const struct oacl_soc_profile *unset = NULL;
    __atomic_compare_exchange_n(&g_exec_soc, &unset, soc, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    pthread_once(&g_exec_once, exec_start_once);
    return g_exec.start_error;
}

uint32_t oacl_exec_worker_count(void) { return g_exec.nworkers; }

/* ---- queues ---------------------------------------------------------------- */

void oacl_exec_queue_init(struct oacl_queue *q, struct oacl_bdev *dev, struct oacl_fail_group *group)
{
    memset(q, 0, sizeof(*q));
    q->dev = dev;
    q->group = group;
}

void oacl_exec_queue_fini(struct oacl_queue *q)
{
    while (__atomic_load_n(&q->finishers, __ATOMIC_ACQUIRE) != 0)
        sched_yield();
}

bool oacl_exec_stopped(const struct oacl_queue *q)
{
    return q->group && __atomic_load_n(&q->group->error, __ATOMIC_ACQUIRE) != 0;
}

void oacl_exec_submit(struct oacl_queue *q, struct oacl_task *t)
{
    if (__builtin_expect(q->rec != NULL, 0)) { /* a graph stream keeps it for replays */
        oacl_graph_record(q, t);
        return;
    }
    t->queue = q;
    t->next = NULL;
    /* The synchronising thread may join a launch whose W workers all run
       blocks (W + 1 threads): a block that waits for another block still
       in the queue then does not hold the launch forever (the limit to W
       measured no faster: 4.27 vs 4.28 us seed). */
    oacl_cpu_trace_submit_hook(t);
    if (t->kind != OACL_TASK_UNITS) {
        t->units = 1;
        t->next_unit = 1; /* nothing for workers to claim */
    }
    bool publish = false;
    struct oacl_task *start = NULL;
    t->submit_tid = oacl_cpu_thread_tid(); /* exception reports (fault_report.c) */
    pthread_mutex_lock(&g_exec.lock);
    uint64_t seq = t->seq = ++q->submitted;
    if (q->tail)
        q->tail->next = t;
    else
        q->head = t;
    q->tail = t;
    if (q->head == t)
        start = head_changed_locked(q, &publish);
    pthread_mutex_unlock(&g_exec.lock);
    oacl_cpu_note_last_task(seq); /* aclrtGetThreadLastTaskId */
    if (publish)
        wake_workers();
    drive(start);
}

/* Graph replays: the tasks are prepared (queue, units) by the caller; one
 * lock round for the whole list. */
void oacl_exec_submit_list(struct oacl_queue *q, struct oacl_task *first, struct oacl_task *last)
{
    for (struct oacl_task *t = first;; t = t->next) {
        oacl_cpu_trace_submit_hook(t);
        if (t == last)
            break;
    }
    last->next = NULL;
    bool publish = false;
    struct oacl_task *start = NULL;
    pthread_mutex_lock(&g_exec.lock);
    for (struct oacl_task *t = first; t; t = t->next)
        t->seq = ++q->submitted;
    if (q->tail)
        q->tail->next = first;
    else
        q->head = first;
    q->tail = last;
    if (q->head == first)
        start = head_changed_locked(q, &publish);
    pthread_mutex_unlock(&g_exec.lock);
    if (publish)
        wake_workers();
    drive(start);
}

uint64_t oacl_exec_submitted(struct oacl_queue *q)
{
    pthread_mutex_lock(&g_exec.lock);
    uint64_t s = q->submitted;
    pthread_mutex_unlock(&g_exec.lock);
    return s;
}

/* Runs unclaimed units of q's head task if it is within target. */
static bool help(struct oacl_queue *q, uint64_t target)
{
    pthread_mutex_lock(&g_exec.lock);
    struct oacl_task *t = q->head;
    if (!t || t->seq > target || !has_unclaimed(t) || q->held ||
        (t->max_workers && __atomic_load_n(&t->workers, __ATOMIC_RELAXED) >= t->max_workers)) {
        pthread_mutex_unlock(&g_exec.lock);
        return false;
    }
    __atomic_add_fetch(&t->workers, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&t->refs, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&g_exec.lock);
    run_units(t);
    leave(t);
    return true;
}

int oacl_exec_wait(struct oacl_queue *q, uint64_t target, int64_t timeout_ns)
{
    uint64_t start = oacl_now_ns();
    uint64_t deadline = timeout_ns >= 0 ? start + (uint64_t)timeout_ns : UINT64_MAX;
    uint32_t helped_at = __atomic_load_n(&q->done_word, __ATOMIC_ACQUIRE) - 1;
    uint64_t spin_start = start;
    unsigned i = 0;
    while (__atomic_load_n(&q->completed, __ATOMIC_ACQUIRE) < target) {
        if (__builtin_expect(__atomic_load_n(&q->held, __ATOMIC_ACQUIRE) != 0, 0))
            return ECANCELED; /* stopped: what is left would never run */
        /* Help once per change of the queue's head; not under a deadline,
           since a unit taken on may run past it. */
        uint32_t word = __atomic_load_n(&q->done_word, __ATOMIC_ACQUIRE);
        if (word != helped_at && deadline == UINT64_MAX) {
            helped_at = word;
            if (help(q, target)) {
                helped_at = word - 1; /* the head may still have units left */
                spin_start = oacl_now_ns();
                continue;
            }
        }
        uint64_t now = (++i & 63) == 0 ? oacl_now_ns() : 0;
        if (now && now >= deadline)
            return ETIMEDOUT;
        if (!now || now - spin_start < g_exec.sync_spin_ns) {
            if (now && now - spin_start >= PAUSE_PHASE_NS)
                sched_yield();
            else
                oacl_cpu_relax();
            continue;
        }
        /* Sleep until a task leaves the queue (or the deadline). */
        __atomic_add_fetch(&q->waiters, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&q->completed, __ATOMIC_SEQ_CST) < target &&
            __atomic_load_n(&q->done_word, __ATOMIC_SEQ_CST) == word && !__atomic_load_n(&q->held, __ATOMIC_SEQ_CST)) {
            int64_t left = deadline == UINT64_MAX ? -1 : (int64_t)(deadline > now ? deadline - now : 0);
            oacl_futex_wait(&q->done_word, word, left);
        }
        __atomic_sub_fetch(&q->waiters, 1, __ATOMIC_SEQ_CST);
        spin_start = oacl_now_ns();
        if (spin_start >= deadline && __atomic_load_n(&q->completed, __ATOMIC_ACQUIRE) < target)
            return ETIMEDOUT;
    }
    return 0;
}

void oacl_exec_discard_pending(struct oacl_queue *q)
{
    struct oacl_task *dropped = NULL, *cancel = NULL;
    pthread_mutex_lock(&g_exec.lock);
    struct oacl_task **link = &q->head;
    struct oacl_task *keep_tail = NULL;
    while (*link) {
        struct oacl_task *t = *link;
        bool drop;
        if (t->kind == OACL_TASK_UNITS) {
            uint32_t unclaimed = 0;
            /* Claiming every unit at once makes sure no thread that adopted
               the task earlier can still start one of its blocks. */
            drop = __atomic_compare_exchange_n(&t->next_unit, &unclaimed, t->units, false, __ATOMIC_ACQ_REL,
                                               __ATOMIC_RELAXED);
        } else {
            drop = !t->started;
            if (t->started && t->kind == OACL_TASK_EXTERNAL && t->cancel)
                cancel = t; /* only the head can be started */
        }
        if (drop) {
            *link = t->next;
            t->next = dropped;
            dropped = t;
        } else {
            keep_tail = t;
            link = &t->next;
        }
    }
    q->tail = keep_tail;
    bool publish = false;
    struct oacl_task *start = head_changed_locked(q, &publish);
    __atomic_store_n(&q->completed, q->head ? q->head->seq - 1 : q->submitted, __ATOMIC_RELEASE);
    __atomic_add_fetch(&q->done_word, 1, __ATOMIC_SEQ_CST);
    if (cancel)
        __atomic_add_fetch(&cancel->refs, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&g_exec.lock);
    if (__atomic_load_n(&q->waiters, __ATOMIC_SEQ_CST) > 0)
        oacl_futex_wake(&q->done_word, INT_MAX);
    while (dropped) {
        struct oacl_task *t = dropped;
        dropped = t->next;
        oacl_task_put(t); /* never started: its release hook frees it */
    }
    if (cancel) {
        cancel->cancel(cancel);
        oacl_task_put(cancel);
    }
    drive(start);
}

int oacl_exec_peek_fault(struct oacl_queue *q)
{
    pthread_mutex_lock(&g_exec.lock);
    int f = q->fault;
    pthread_mutex_unlock(&g_exec.lock);
    return f;
}

int oacl_exec_take_fault(struct oacl_queue *q, char *msg, size_t len)
{
    pthread_mutex_lock(&g_exec.lock);
    int f = q->fault;
    if (f && msg && len)
        snprintf(msg, len, "%s", q->fault_msg);
    q->fault = 0;
    q->fault_msg[0] = '\0';
    pthread_mutex_unlock(&g_exec.lock);
    return f;
}

/* ---- execution control: stop and abort (acl-rt-reliability.md §3.3) ------- */

void oacl_exec_hold(struct oacl_queue *q, bool held)
{
    bool publish = false;
    struct oacl_task *start = NULL;
    pthread_mutex_lock(&g_exec.lock);
    __atomic_store_n(&q->held, held ? 1u : 0u, __ATOMIC_SEQ_CST);
    if (held)
        ready_remove(q); /* threads that adopted the head already may finish their blocks */
    else
        start = head_changed_locked(q, &publish);
    /* Waiters see the change: a stopped queue releases them. */
    __atomic_add_fetch(&q->done_word, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&g_exec.lock);
    if (__atomic_load_n(&q->waiters, __ATOMIC_SEQ_CST) > 0)
        oacl_futex_wake(&q->done_word, INT_MAX);
    if (publish)
        wake_workers();
    drive(start);
}

bool oacl_exec_held(const struct oacl_queue *q) { return __atomic_load_n(&q->held, __ATOMIC_ACQUIRE) != 0; }

/* Waits until every task up to seq has left q, whatever its hold. */
static int wait_left(struct oacl_queue *q, uint64_t seq, int64_t timeout_ns)
{
    uint64_t deadline = timeout_ns >= 0 ? oacl_now_ns() + (uint64_t)timeout_ns : UINT64_MAX;
    while (__atomic_load_n(&q->completed, __ATOMIC_ACQUIRE) < seq) {
        uint32_t word = __atomic_load_n(&q->done_word, __ATOMIC_ACQUIRE);
        uint64_t now = oacl_now_ns();
        if (now >= deadline)
            return ETIMEDOUT;
        __atomic_add_fetch(&q->waiters, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&q->completed, __ATOMIC_SEQ_CST) < seq)
            oacl_futex_wait(&q->done_word, word, deadline == UINT64_MAX ? 10000000 : (int64_t)(deadline - now));
        __atomic_sub_fetch(&q->waiters, 1, __ATOMIC_SEQ_CST);
    }
    return 0;
}

int oacl_exec_kill_running(struct oacl_queue *q, int64_t timeout_ns)
{
    struct oacl_task *units = NULL, *cancel = NULL;
    uint64_t seq = 0;
    pthread_mutex_lock(&g_exec.lock);
    struct oacl_task *h = q->head;
    if (h && h->kind == OACL_TASK_UNITS && __atomic_load_n(&h->next_unit, __ATOMIC_ACQUIRE) > 0) {
        units = h; /* some block started: the task runs */
    } else if (h && h->kind == OACL_TASK_EXTERNAL && h->started) {
        cancel = h->cancel ? h : NULL; /* a wait or host step in progress */
        seq = h->seq;
    }
    if (units) {
        seq = h->seq;
        __atomic_store_n(&units->killed, 1u, __ATOMIC_RELEASE);
        __atomic_add_fetch(&units->refs, 1, __ATOMIC_RELAXED);
    }
    if (cancel)
        __atomic_add_fetch(&cancel->refs, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&g_exec.lock);
    if (units) {
        /* Blocks not claimed yet never run: claim them all at once and
           count them done; whoever completes the count finishes the task. */
        uint32_t cur = __atomic_load_n(&units->next_unit, __ATOMIC_ACQUIRE);
        while (cur < units->units &&
               !__atomic_compare_exchange_n(&units->next_unit, &cur, units->units, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
            ;
        oacl_kernel_interrupt(units); /* blocks running now stop early */
        if (cur < units->units &&
            __atomic_add_fetch(&units->units_done, units->units - cur, __ATOMIC_ACQ_REL) == units->units)
            drive(finish_task(units));
        oacl_task_put(units);
    }
    if (cancel) {
        cancel->cancel(cancel);
        oacl_task_put(cancel);
    }
    return seq ? wait_left(q, seq, timeout_ns) : 0;
}
