/*
 * Events of the CPU device.
 *
 * Every record of an event is a "capture": an inline task on the recording
 * queue that completes once everything queued before it has. The event
 * refers to its newest capture (query, synchronise, new waits); a wait
 * enqueued on another queue keeps the capture that was newest when the
 * wait was enqueued, so a later re-record cannot release or block it.
 * Captures are kept in a list until they complete; a capture that is not
 * in the list is complete.
 *
 * A wait with a timeout is parked on the poller instead, which releases it
 * when its capture completes (every completing task kicks the poller) or
 * fails it with ACL_ERROR_RT_TASK_TIMEOUT when the time is up.
 *
 * IPC events (event_create_shared, event_import) keep their state in
 * shared memory: the ops below hand them over to ipc_event.c.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "common/futex.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/ipc_event.h"

/* How often a blocked event synchronisation checks that the awaited record
 * is not held in a stopped queue (aclrtStreamStop). */
#define STOP_POLL_NS 50000000

struct capture {
    uint64_t gen;
    int error;                    /* first failure of the queue before the record */
    struct oacl_task *waiters;    /* EXTERNAL wait tasks (linked through ->link) */
    struct capture *next;
    struct oacl_queue *queue;     /* where the record waits (alive while the capture is pending) */
};

struct oacl_bevent {
    uint32_t refs;                /* atomic: API handle + queued tasks */
    pthread_mutex_t lock;
    uint64_t last_gen;            /* newest capture (0: never recorded) */
    uint64_t reset_gen;           /* captures up to here are forgotten by a reset */
    struct capture *pending;      /* captures not completed yet */
    uint64_t done_ts_ns;          /* completion time of the newest capture, when complete */
    uint64_t done_gen;            /* which capture done_ts_ns belongs to */
    int done_error;
    uint32_t word;                /* atomic futex word: bumped whenever a capture completes */
    uint32_t sleepers;            /* atomic */
    uint32_t pending_waits;       /* wait tasks not yet satisfied */
    struct oacl_ipc_event *ipc;   /* IPC events: the shared state (ipc_event.c) */
};

static void event_put(struct oacl_bevent *e)
{
    if (__atomic_sub_fetch(&e->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    if (e->ipc)
        oacl_cpu_ipc_event_destroy(e->ipc);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

int oacl_cpu_event_create(struct oacl_bdev *dev, struct oacl_bevent **out, char *err)
{
    (void)dev;
    struct oacl_bevent *e = calloc(1, sizeof(*e));
    if (!e) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for an event");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    pthread_mutex_init(&e->lock, NULL);
    e->refs = 1;
    *out = e;
    return ACL_SUCCESS;
}

void oacl_cpu_event_destroy(struct oacl_bevent *e) { event_put(e); }

/* An IPC event: a plain event object whose ops go to ipc_event.c. */
static int ipc_wrap(struct oacl_bdev *dev, int fd, struct oacl_bevent **out, char *err)
{
    struct oacl_bevent *e = NULL;
    int rc = oacl_cpu_event_create(dev, &e, err);
    if (rc == ACL_SUCCESS)
        rc = fd < 0 ? oacl_cpu_ipc_event_create(&e->ipc, err) : oacl_cpu_ipc_event_import(fd, &e->ipc, err);
    if (rc) {
        if (e)
            event_put(e);
        return rc;
    }
    *out = e;
    return ACL_SUCCESS;
}

int oacl_cpu_event_create_shared(struct oacl_bdev *dev, struct oacl_bevent **out, char *err)
{
    return ipc_wrap(dev, -1, out, err);
}

int oacl_cpu_event_import(struct oacl_bdev *dev, int fd, struct oacl_bevent **out, char *err)
{
    return ipc_wrap(dev, fd, out, err);
}

int oacl_cpu_event_share_fd(struct oacl_bevent *e, int *fd, char *err)
{
    if (!e->ipc) {
        snprintf(err, OACL_BACKEND_ERRLEN, "not an IPC event");
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return oacl_cpu_ipc_event_fd(e->ipc, fd, err);
}

/* ---- record ------------------------------------------------------------ */

struct record_data {
    struct oacl_bevent *event;
    uint64_t gen;
};

/* A stream wait: the capture it waits for, and the poller's record when it
 * has a timeout. */
struct wait_data {
    struct record_data r;            /* first: the record helpers see it */
    uint32_t pending;                /* atomic: counted in the event's pending_waits */
    struct oacl_poll poll;           /* timed waits only */
};

/* The wait no longer counts as pending (passed, failed or dropped); once. */
static void wait_passed(struct wait_data *w)
{
    if (__atomic_exchange_n(&w->pending, 0, __ATOMIC_ACQ_REL))
        __atomic_sub_fetch(&w->r.event->pending_waits, 1, __ATOMIC_RELAXED);
}

/* Runs when the record reaches the head of its queue: the captured work is
 * done. */
static void record_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct record_data *r = t->data;
    struct oacl_bevent *e = r->event;
    uint64_t now = oacl_now_ns();
    /* The first failure of the queue since its last synchronise, if any,
       belongs to the captured work. */
    int error = oacl_exec_peek_fault(t->queue);
    struct oacl_task *release = NULL;
    pthread_mutex_lock(&e->lock);
    for (struct capture **c = &e->pending; *c; c = &(*c)->next) {
        if ((*c)->gen == r->gen) {
            struct capture *done = *c;
            *c = done->next;
            release = done->waiters;
            free(done);
            break;
        }
    }
    if (r->gen == e->last_gen) {
        e->done_ts_ns = now;
        e->done_gen = r->gen;
        e->done_error = error;
    }
    __atomic_add_fetch(&e->word, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&e->lock);
    if (__atomic_load_n(&e->sleepers, __ATOMIC_SEQ_CST))
        oacl_futex_wake(&e->word, INT_MAX);
    /* Waits on other queues may go on now. */
    while (release) {
        struct oacl_task *w = release;
        release = w->link;
        w->link = NULL;
        wait_passed(w->data);
        oacl_exec_task_done(w);
    }
}

static void event_task_release(struct oacl_task *t)
{
    struct record_data *r = t->data;
    /* A record discarded unrun (stream abort, stop then destroy, device
       task abort) still completes its capture: waits on it are released
       instead of hanging (acl-rt-reliability.md Decision 8). */
    if (!t->started && t->run == record_run && t->queue)
        record_run(t, 0);
    event_put(r->event);
    free(t);
}

int oacl_cpu_event_record(struct oacl_queue *q, struct oacl_bevent *e, char *err)
{
    if (e->ipc)
        return oacl_cpu_ipc_event_record(q, e->ipc, err);
    struct oacl_task *t = oacl_task_new(sizeof(struct record_data));
    struct capture *c = calloc(1, sizeof(*c));
    if (!t || !c) {
        free(t);
        free(c);
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for an event record");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct record_data *r = t->data;
    __atomic_add_fetch(&e->refs, 1, __ATOMIC_RELAXED);
    r->event = e;
    pthread_mutex_lock(&e->lock);
    r->gen = ++e->last_gen;
    c->gen = r->gen;
    c->queue = q;
    c->next = e->pending;
    e->pending = c;
    pthread_mutex_unlock(&e->lock);
    t->kind = OACL_TASK_INLINE;
    t->run = record_run;
    t->release = event_task_release;
    t->dev = q->dev;
    t->trace_type = OACL_TT_EVENT_RECORD;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

/* ---- stream waits -------------------------------------------------------- */

/* Starts a wait: done at once when its capture is complete, else parked on
 * the capture until its record runs. */
/* A timed wait is ready once its capture left the pending list. */
static bool wait_ready(struct oacl_poll *p)
{
    struct wait_data *w = p->task->data;
    struct oacl_bevent *e = w->r.event;
    bool pending = false;
    pthread_mutex_lock(&e->lock);
    for (struct capture *c = e->pending; c && !pending; c = c->next)
        pending = c->gen == w->r.gen;
    pthread_mutex_unlock(&e->lock);
    if (!pending)
        wait_passed(w);
    return !pending;
}

/* A timed wait that expired no longer counts as pending, before its
 * stream can see it done. */
static void wait_expired(struct oacl_poll *p) { wait_passed(p->task->data); }

static bool wait_start(struct oacl_task *t)
{
    struct wait_data *w = t->data;
    struct record_data *r = &w->r;
    struct oacl_bevent *e = r->event;
    if (w->poll.timeout_ns) {
        if (wait_ready(&w->poll))
            return true;
        char err[OACL_BACKEND_ERRLEN];
        int rc = oacl_poller_park(&w->poll, err);
        if (rc) {
            oacl_exec_task_fail(t, rc, err);
            wait_passed(w);
            return true;
        }
        return false;
    }
    pthread_mutex_lock(&e->lock);
    for (struct capture *c = e->pending; c; c = c->next) {
        if (c->gen == r->gen) {
            t->link = c->waiters;
            c->waiters = t;
            pthread_mutex_unlock(&e->lock);
            return false;
        }
    }
    pthread_mutex_unlock(&e->lock);
    wait_passed(w);
    return true;
}

/* Forced destroy of the waiting queue: unpark and finish the wait. */
static void wait_cancel(struct oacl_task *t)
{
    struct wait_data *w = t->data;
    struct record_data *r = &w->r;
    struct oacl_bevent *e = r->event;
    if (w->poll.timeout_ns) {
        if (oacl_poller_cancel(&w->poll)) { /* still parked: finish it here */
            wait_passed(w);
            oacl_exec_task_done(t);
        }
        return;
    }
    bool found = false;
    pthread_mutex_lock(&e->lock);
    for (struct capture *c = e->pending; c && !found; c = c->next)
        for (struct oacl_task **w = &c->waiters; *w; w = &(*w)->link)
            if (*w == t) {
                *w = t->link;
                found = true;
                break;
            }
    pthread_mutex_unlock(&e->lock);
    if (found) { /* not released by a record meanwhile */
        t->link = NULL;
        wait_passed(w);
        oacl_exec_task_done(t);
    }
}

static void wait_release(struct oacl_task *t)
{
    struct wait_data *w = t->data;
    wait_passed(w); /* dropped before it ran, or failed by a timeout */
    event_put(w->r.event);
    free(t);
}

int oacl_cpu_event_wait(struct oacl_queue *q, struct oacl_bevent *e, uint64_t timeout_ns, bool *queued, char *err)
{
    if (e->ipc)
        return oacl_cpu_ipc_event_wait(q, e->ipc, timeout_ns, queued, err);
    pthread_mutex_lock(&e->lock);
    uint64_t gen = e->last_gen > e->reset_gen ? e->last_gen : 0;
    pthread_mutex_unlock(&e->lock);
    *queued = gen != 0;
    if (!gen)
        return ACL_SUCCESS; /* nothing recorded: nothing to wait for */
    struct oacl_task *t = oacl_task_new(sizeof(struct wait_data));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for an event wait");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct wait_data *w = t->data;
    struct record_data *r = &w->r;
    __atomic_add_fetch(&e->refs, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&e->pending_waits, 1, __ATOMIC_RELAXED);
    w->pending = 1;
    w->poll.task = t;
    w->poll.ready = wait_ready;
    w->poll.expired = wait_expired;
    w->poll.timeout_ns = timeout_ns;
    w->poll.what = "the awaited event record";
    r->event = e;
    r->gen = gen;
    t->kind = OACL_TASK_EXTERNAL;
    t->start = wait_start;
    t->cancel = wait_cancel;
    t->release = wait_release;
    t->dev = q->dev;
    t->trace_type = OACL_TT_EVENT_WAIT;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

/* ---- reset ------------------------------------------------------------------ */

static void reset_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct record_data *r = t->data;
    struct oacl_bevent *e = r->event;
    pthread_mutex_lock(&e->lock);
    if (r->gen > e->reset_gen)
        e->reset_gen = r->gen;
    pthread_mutex_unlock(&e->lock);
}

int oacl_cpu_event_reset(struct oacl_queue *q, struct oacl_bevent *e, char *err)
{
    if (e->ipc) {
        snprintf(err, OACL_BACKEND_ERRLEN, "IPC events cannot be reset");
        return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    }
    struct oacl_task *t = oacl_task_new(sizeof(struct record_data));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for an event reset");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct record_data *r = t->data;
    __atomic_add_fetch(&e->refs, 1, __ATOMIC_RELAXED);
    r->event = e;
    pthread_mutex_lock(&e->lock);
    r->gen = e->last_gen; /* forgets what was recorded before the reset */
    pthread_mutex_unlock(&e->lock);
    t->kind = OACL_TASK_INLINE;
    t->run = reset_run;
    t->release = event_task_release;
    t->dev = q->dev;
    t->trace_type = OACL_TT_EVENT_RESET;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

/* ---- queries ------------------------------------------------------------------ */

/* State of the newest capture: 0 none (never recorded, or reset), 1 pending,
 * 2 complete. */
static int newest_state(struct oacl_bevent *e, uint64_t *gen)
{
    uint64_t g = e->last_gen;
    *gen = g;
    if (g == 0 || g <= e->reset_gen)
        return 0;
    for (struct capture *c = e->pending; c; c = c->next)
        if (c->gen == g)
            return 1;
    return 2;
}

void oacl_cpu_event_query(struct oacl_bevent *e, struct oacl_event_state *st)
{
    if (e->ipc) {
        oacl_cpu_ipc_event_query(e->ipc, st);
        return;
    }
    st->ipc_error = 0;
    uint64_t gen;
    pthread_mutex_lock(&e->lock);
    int s = newest_state(e, &gen);
    st->recorded = s != 0;
    st->complete = s == 2;
    st->timestamp_ns = s == 2 && e->done_gen == gen ? e->done_ts_ns : 0;
    st->error = s == 2 && e->done_gen == gen ? e->done_error : 0;
    st->waits_pending = __atomic_load_n(&e->pending_waits, __ATOMIC_RELAXED) != 0;
    pthread_mutex_unlock(&e->lock);
}

int oacl_cpu_event_sync(struct oacl_bevent *e, int64_t timeout_ns)
{
    if (e->ipc)
        return oacl_cpu_ipc_event_sync(e->ipc, timeout_ns);
    uint64_t deadline = timeout_ns >= 0 ? oacl_now_ns() + (uint64_t)timeout_ns : UINT64_MAX;
    uint64_t target;
    pthread_mutex_lock(&e->lock);
    int s = newest_state(e, &target);
    pthread_mutex_unlock(&e->lock);
    if (s != 1)
        return 0;
    for (;;) {
        uint32_t word = __atomic_load_n(&e->word, __ATOMIC_SEQ_CST);
        bool pending = false, stopped = false;
        pthread_mutex_lock(&e->lock);
        for (struct capture *c = e->pending; c; c = c->next)
            if (c->gen == target) {
                pending = true;
                stopped = c->queue && oacl_exec_held(c->queue);
            }
        pthread_mutex_unlock(&e->lock);
        if (!pending)
            return 0;
        if (stopped)
            return ECANCELED; /* the record waits in a stopped queue: it would never run */
        uint64_t now = oacl_now_ns();
        if (now >= deadline)
            return ETIMEDOUT;
        /* A stop does not bump the event's word: look again now and then. */
        int64_t nap = deadline == UINT64_MAX || deadline - now > STOP_POLL_NS ? STOP_POLL_NS : (int64_t)(deadline - now);
        __atomic_add_fetch(&e->sleepers, 1, __ATOMIC_SEQ_CST);
        oacl_futex_wait(&e->word, word, nap);
        __atomic_sub_fetch(&e->sleepers, 1, __ATOMIC_SEQ_CST);
    }
}
