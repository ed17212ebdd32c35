/*
 * Task graphs of the CPU device (acl-rt-model-ri.md §1.4).
 *
 * A graph stream is a queue whose submissions are kept instead of run
 * (oacl_exec_submit hands them to oacl_graph_record): the very task objects
 * the eager path builds — kernel with its argument blob copied once,
 * copies, fills, value and notify operations — are recorded, together with
 * graph-private event records/waits. An execution is one EXTERNAL task on
 * the execution queue; when it starts, every graph stream's recorded tasks
 * are reset and queued, in one lock round each, on that stream's lane (an
 * ordinary queue of the device), followed by a lane end; the last lane end
 * completes the execution. Nothing is validated, allocated per task or
 * copied at replay: that is what makes replays cheap.
 *
 * A recorded task may only be reset once no thread touches it any more
 * (its reference count is back to the graph's own one). That holds at
 * once in the common case; when a replay is started by a thread that still
 * holds a finished task of the same graph (a worker finishing the last
 * block drives the next execution), the start is handed to the launcher
 * thread, which waits for the references to drop.
 *
 * Executions of one graph never overlap: a second one waits in `pending`
 * until the running one ends.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "device/cpu/cpu_device.h"

#define GRAPH_EVENT_SLOTS 4096u

struct oacl_graph_rec {
    struct oacl_queue q;           /* the recording queue (first: q is the handle) */
    struct oacl_bgraph *g;
    struct oacl_task **tasks;
    uint32_t *units;               /* unit count of each task at recording */
    uint8_t *disabled;
    uint32_t n, cap;
    int error;                     /* first task that could not be recorded */
    struct oacl_queue *lane;       /* where replays run (created on first use) */
    struct oacl_graph_rec *next;
};

struct oacl_bgraph {
    struct oacl_bdev *dev;
    struct oacl_fail_group *group;
    pthread_mutex_t lock;
    struct oacl_graph_rec *streams;
    struct oacl_task *running;     /* execution in progress */
    struct oacl_task *pending, *pending_tail; /* linked through ->link */
    uint32_t lanes_left;           /* atomic */
    uint32_t busy;                 /* atomic: executions queued or running */
    int fail;                      /* first lane failure of the running execution */
    char fail_msg[OACL_BACKEND_ERRLEN];
    bool aborting;
    uint32_t abort_gen;            /* atomic: aborts so far (queued executions older than one are dropped) */
    uint32_t *ev;                  /* private event slots (atomic words) */
    uint32_t ev_used;              /* slots below this one may have been used */
    struct oacl_bgraph *launch_next; /* launcher list */
};

struct exec_data {
    struct oacl_bgraph *g;
    uint32_t abort_gen;            /* g's abort count when it was queued */
};

struct lane_end {
    struct oacl_bgraph *g;
    struct oacl_queue *lane;
};

/* A private event task: a poll first (waits), then the slot. */
struct ev_task {
    struct oacl_poll poll;
    struct oacl_bgraph *g;
    uint32_t slot;
};

static void finish_exec(struct oacl_bgraph *g);
static bool launch(struct oacl_bgraph *g);

/* ---- recording ---------------------------------------------------------------- */

static void ev_task_release(struct oacl_task *t) { free(t); }

static bool recordable(const struct oacl_task *t)
{
    if (t->release == ev_task_release)
        return true;
    switch (t->trace_type) {
    case OACL_TT_KERNEL_AIVEC:
    case OACL_TT_KERNEL_AICORE:
    case OACL_TT_MEMCPY:
    case OACL_TT_MEMSET:
    case OACL_TT_NOTIFY_RECORD:
    case OACL_TT_NOTIFY_WAIT:
    case OACL_TT_VALUE_WRITE:
    case OACL_TT_VALUE_WAIT:
    case OACL_TT_REDUCE:
    case OACL_TT_RANDOM:
        return true;
    default: /* host steps, marks and eager events hold one-shot state */
        return false;
    }
}

void oacl_graph_record(struct oacl_queue *q, struct oacl_task *t)
{
    struct oacl_graph_rec *r = q->rec;
    if (!recordable(t) || r->error) {
        if (!r->error)
            r->error = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
        oacl_task_put(t); /* never started: its release drops the payload */
        return;
    }
    if (r->n == r->cap) {
        uint32_t cap = r->cap ? r->cap * 2 : 16;
        struct oacl_task **tasks = realloc(r->tasks, cap * sizeof(*tasks));
        if (tasks)
            r->tasks = tasks;
        uint32_t *units = tasks ? realloc(r->units, cap * sizeof(*units)) : NULL;
        if (units)
            r->units = units;
        uint8_t *dis = units ? realloc(r->disabled, cap) : NULL;
        if (!dis) {
            r->error = ACL_ERROR_RT_MEMORY_ALLOCATION;
            oacl_task_put(t);
            return;
        }
        r->disabled = dis;
        r->cap = cap;
    }
    r->units[r->n] = t->kind == OACL_TASK_UNITS ? t->units : 1;
    r->disabled[r->n] = 0;
    r->tasks[r->n++] = t; /* the graph keeps the creator's reference */
}

/* ---- graph-private events --------------------------------------------------------- */

static void ev_record_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct ev_task *e = t->data;
    __atomic_store_n(&e->g->ev[e->slot], 1, __ATOMIC_RELEASE);
    /* the lane end and finish_task kick the poller: parked waits see it */
}

static bool ev_ready(struct oacl_poll *p)
{
    struct ev_task *e = (struct ev_task *)p;
    return __atomic_load_n(&e->g->ev[e->slot], __ATOMIC_ACQUIRE) != 0;
}

static bool ev_wait_start(struct oacl_task *t)
{
    struct oacl_poll *p = t->data;
    if (p->ready(p))
        return true;
    char err[OACL_BACKEND_ERRLEN] = "";
    if (oacl_poller_park(p, err) != 0) {
        oacl_exec_task_fail(t, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, err);
        return true;
    }
    return false;
}

static void ev_wait_cancel(struct oacl_task *t)
{
    if (oacl_poller_cancel(t->data))
        oacl_exec_task_done(t);
}

int oacl_cpu_graph_event_op(struct oacl_queue *gq, uint32_t slot, bool wait, char *err)
{
    struct oacl_graph_rec *r = gq->rec;
    if (slot >= GRAPH_EVENT_SLOTS) {
        snprintf(err, OACL_BACKEND_ERRLEN, "more than %u events used in one graph", GRAPH_EVENT_SLOTS);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    struct oacl_task *t = oacl_task_new(sizeof(struct ev_task));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a graph event task");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct ev_task *e = t->data;
    e->g = r->g;
    if (slot >= r->g->ev_used)
        __atomic_store_n(&r->g->ev_used, slot + 1, __ATOMIC_RELAXED);
    e->slot = slot;
    e->poll.task = t;
    e->poll.ready = ev_ready;
    e->poll.what = "a graph event record";
    t->release = ev_task_release;
    t->dev = gq->dev;
    if (wait) {
        t->kind = OACL_TASK_EXTERNAL;
        t->start = ev_wait_start;
        t->cancel = ev_wait_cancel;
        t->trace_type = OACL_TT_EVENT_WAIT;
    } else {
        t->kind = OACL_TASK_INLINE;
        t->run = ev_record_run;
        t->trace_type = OACL_TT_EVENT_RECORD;
    }
    oacl_graph_record(gq, t);
    return r->error;
}

/* ---- graphs and their streams -------------------------------------------------- */

int oacl_cpu_graph_create(struct oacl_bdev *dev, struct oacl_fail_group *group, struct oacl_bgraph **out, char *err)
{
    struct oacl_bgraph *g = calloc(1, sizeof(*g));
    uint32_t *ev = calloc(GRAPH_EVENT_SLOTS, sizeof(uint32_t));
    if (!g || !ev) {
        free(g);
        free(ev);
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a task graph");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    pthread_mutex_init(&g->lock, NULL);
    g->dev = dev;
    g->group = group;
    g->ev = ev;
    *out = g;
    return ACL_SUCCESS;
}

int oacl_cpu_graph_stream(struct oacl_bgraph *g, struct oacl_queue **out, char *err)
{
    struct oacl_graph_rec *r = calloc(1, sizeof(*r));
    if (!r) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a graph stream");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    int rc = oacl_cpu_backend_ops.queue_create(g->dev, g->group, &r->lane, err);
    if (rc) {
        free(r);
        return rc;
    }
    oacl_exec_queue_init(&r->q, g->dev, g->group);
    r->q.rec = r;
    r->g = g;
    pthread_mutex_lock(&g->lock);
    /* newest first, the order aclmdlRIGetStreams reports */
    r->next = g->streams;
    g->streams = r;
    pthread_mutex_unlock(&g->lock);
    *out = &r->q;
    return ACL_SUCCESS;
}

int oacl_cpu_graph_stream_state(struct oacl_queue *gq, uint32_t *count)
{
    struct oacl_graph_rec *r = gq->rec;
    if (count)
        *count = r->n;
    return r->error;
}

void oacl_cpu_graph_task_info(struct oacl_queue *gq, uint32_t i, struct oacl_graph_task_info *out)
{
    struct oacl_graph_rec *r = gq->rec;
    memset(out, 0, sizeof(*out));
    if (i >= r->n)
        return;
    struct oacl_task *t = r->tasks[i];
    out->trace_type = t->trace_type;
    if (t->trace_type == OACL_TT_KERNEL_AIVEC || t->trace_type == OACL_TT_KERNEL_AICORE) {
        out->kernel_name = t->kernel ? t->kernel->name : NULL;
        out->num_blocks = r->units[i];
        out->args = t->args;
    }
    if (t->release == ev_task_release)
        out->slot = ((struct ev_task *)t->data)->slot;
}

void oacl_cpu_graph_task_disable(struct oacl_queue *gq, uint32_t i, bool disabled)
{
    struct oacl_graph_rec *r = gq->rec;
    if (i < r->n)
        r->disabled[i] = disabled;
}

bool oacl_cpu_graph_busy(struct oacl_bgraph *g) { return __atomic_load_n(&g->busy, __ATOMIC_ACQUIRE) != 0; }

static int wait_idle(struct oacl_bgraph *g, int64_t timeout_ns)
{
    uint64_t deadline = timeout_ns < 0 ? UINT64_MAX : oacl_now_ns() + (uint64_t)timeout_ns;
    while (oacl_cpu_graph_busy(g)) {
        if (oacl_now_ns() >= deadline)
            return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
        struct timespec ts = {0, 50000};
        nanosleep(&ts, NULL);
    }
    return ACL_SUCCESS;
}

int oacl_cpu_graph_destroy(struct oacl_bgraph *g, int64_t timeout_ns)
{
    if (wait_idle(g, timeout_ns) != ACL_SUCCESS)
        return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
    struct oacl_graph_rec *r = g->streams;
    while (r) {
        struct oacl_graph_rec *next = r->next;
        oacl_cpu_backend_ops.queue_destroy(r->lane);
        for (uint32_t i = 0; i < r->n; i++) {
            /* a worker may still be leaving a task of the last replay */
            while (__atomic_load_n(&r->tasks[i]->refs, __ATOMIC_ACQUIRE) > 1)
                sched_yield();
            oacl_task_put(r->tasks[i]);
        }
        free(r->tasks);
        free(r->units);
        free(r->disabled);
        free(r);
        r = next;
    }
    pthread_mutex_destroy(&g->lock);
    free(g->ev);
    free(g);
    return ACL_SUCCESS;
}

/* ---- the launcher thread (replays that cannot start on the calling thread) ------- */

static pthread_mutex_t g_launch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_launch_cond = PTHREAD_COND_INITIALIZER;
static struct oacl_bgraph *g_launch_head;
static bool g_launch_started;

static bool tasks_free(struct oacl_bgraph *g)
{
    for (struct oacl_graph_rec *r = g->streams; r; r = r->next)
        for (uint32_t i = 0; i < r->n; i++)
            if (__atomic_load_n(&r->tasks[i]->refs, __ATOMIC_ACQUIRE) > 1)
                return false;
    return true;
}

static void *launcher_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&g_launch_lock);
    for (;;) {
        while (!g_launch_head)
            pthread_cond_wait(&g_launch_cond, &g_launch_lock);
        struct oacl_bgraph *g = g_launch_head;
        g_launch_head = g->launch_next;
        pthread_mutex_unlock(&g_launch_lock);
        while (!tasks_free(g))
            sched_yield();
        if (launch(g))
            finish_exec(g);
        pthread_mutex_lock(&g_launch_lock);
    }
    return NULL;
}

/* False when the launcher thread cannot be started (the caller then waits). */
static bool defer_launch(struct oacl_bgraph *g)
{
    pthread_mutex_lock(&g_launch_lock);
    if (!g_launch_started) {
        pthread_t tid;
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        int e = pthread_create(&tid, NULL, launcher_main, NULL);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (e) {
            pthread_mutex_unlock(&g_launch_lock);
            return false;
        }
        pthread_detach(tid);
        g_launch_started = true;
    }
    g->launch_next = NULL;
    struct oacl_bgraph **link = &g_launch_head;
    while (*link)
        link = &(*link)->launch_next;
    *link = g;
    pthread_cond_signal(&g_launch_cond);
    pthread_mutex_unlock(&g_launch_lock);
    return true;
}

/* ---- executions ----------------------------------------------------------------- */

static void lane_done(struct oacl_bgraph *g, struct oacl_queue *lane)
{
    char msg[OACL_BACKEND_ERRLEN] = "";
    int f = oacl_exec_take_fault(lane, msg, sizeof(msg));
    if (f) {
        pthread_mutex_lock(&g->lock);
        if (!g->fail) {
            g->fail = f;
            snprintf(g->fail_msg, sizeof(g->fail_msg), "%s", msg);
        }
        pthread_mutex_unlock(&g->lock);
    }
    if (__atomic_sub_fetch(&g->lanes_left, 1, __ATOMIC_ACQ_REL) == 0)
        finish_exec(g);
}

static void lane_end_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct lane_end *d = t->data;
    lane_done(d->g, d->lane);
}

static void lane_end_release(struct oacl_task *t)
{
    struct lane_end *d = t->data;
    if (!t->started) /* dropped by an abort: the lane is over all the same */
        lane_done(d->g, d->lane);
    free(t);
}

/* Back to the state of a task that was just queued. */
static inline void reset_task(struct oacl_task *t, uint32_t units, struct oacl_queue *lane)
{
    t->refs = 2; /* the graph's and the lane's */
    t->queue = lane;
    t->units = units;
    t->next_unit = t->kind == OACL_TASK_UNITS ? 0 : 1;
    t->units_done = 0;
    t->workers = 0;
    t->failed = 0;
    t->start_ns = 0;
    t->started = false;
    t->link = NULL;
    t->dump_state = 0;
    t->trace_busy_ns = 0;
    if (t->kind == OACL_TASK_EXTERNAL &&
        (t->trace_type == OACL_TT_VALUE_WAIT || t->trace_type == OACL_TT_NOTIFY_WAIT ||
         t->trace_type == OACL_TT_EVENT_WAIT)) {
        struct oacl_poll *p = t->data; /* polled waits keep their poll first */
        p->error = 0;
        p->error_msg = NULL;
        p->timed_out = false;
        p->parked = false;
    }
}

/* Starts the running execution: true when it has nothing to run (done). */
static bool launch(struct oacl_bgraph *g)
{
    if (!tasks_free(g)) {
        if (defer_launch(g))
            return false;
        while (!tasks_free(g)) /* no launcher thread: wait here */
            sched_yield();
    }
    uint32_t used = __atomic_load_n(&g->ev_used, __ATOMIC_RELAXED);
    if (used)
        memset(g->ev, 0, used * sizeof(uint32_t));
    uint32_t lanes = 0;
    for (struct oacl_graph_rec *r = g->streams; r; r = r->next)
        lanes++;
    struct oacl_task *ends[lanes ? lanes : 1];
    uint32_t k = 0;
    for (struct oacl_graph_rec *r = g->streams; r; r = r->next) {
        struct oacl_task *e = oacl_task_new(sizeof(struct lane_end));
        if (!e)
            break;
        struct lane_end *d = e->data;
        d->g = g;
        d->lane = r->lane;
        e->kind = OACL_TASK_INLINE;
        e->run = lane_end_run;
        e->release = lane_end_release;
        e->dev = g->dev;
        e->units = 1;
        e->next_unit = 1;
        e->queue = r->lane;
        ends[k++] = e;
    }
    if (k < lanes) {
        for (uint32_t i = 0; i < k; i++)
            free(ends[i]);
        pthread_mutex_lock(&g->lock);
        if (!g->fail) {
            g->fail = ACL_ERROR_RT_MEMORY_ALLOCATION;
            snprintf(g->fail_msg, sizeof(g->fail_msg), "out of memory starting a graph execution");
        }
        pthread_mutex_unlock(&g->lock);
        return true;
    }
    if (lanes == 0)
        return true;
    __atomic_store_n(&g->lanes_left, lanes, __ATOMIC_RELEASE);
    k = 0;
    for (struct oacl_graph_rec *r = g->streams; r; r = r->next) {
        struct oacl_task *first = NULL, *last = NULL;
        for (uint32_t i = 0; i < r->n; i++) {
            if (r->disabled[i])
                continue;
            struct oacl_task *t = r->tasks[i];
            reset_task(t, r->units[i], r->lane);
            if (last)
                last->next = t;
            else
                first = t;
            last = t;
        }
        struct oacl_task *e = ends[k++];
        if (last)
            last->next = e;
        else
            first = e;
        oacl_exec_submit_list(r->lane, first, e);
    }
    return false;
}

/* The running execution has ended: complete it, start the next one. */
static void finish_exec(struct oacl_bgraph *g)
{
    for (;;) {
        pthread_mutex_lock(&g->lock);
        struct oacl_task *cur = g->running;
        int fail = g->fail;
        char msg[OACL_BACKEND_ERRLEN];
        snprintf(msg, sizeof(msg), "%s", g->fail_msg);
        g->fail = 0;
        g->fail_msg[0] = '\0';
        if (g->aborting && !fail) {
            fail = ACL_ERROR_RT_MODEL_ABORT_NORMAL;
            snprintf(msg, sizeof(msg), "the model running instance was aborted");
        }
        struct oacl_task *next = g->pending;
        if (next) {
            g->pending = next->link;
            if (!g->pending)
                g->pending_tail = NULL;
            next->link = NULL;
        }
        g->running = next;
        pthread_mutex_unlock(&g->lock);
        if (fail)
            oacl_exec_task_fail(cur, fail, msg);
        __atomic_sub_fetch(&g->busy, 1, __ATOMIC_ACQ_REL);
        oacl_exec_task_done(cur);
        if (!next || !launch(g))
            return;
    }
}

static bool exec_start(struct oacl_task *t)
{
    struct exec_data *d = t->data;
    struct oacl_bgraph *g = d->g;
    if (d->abort_gen != __atomic_load_n(&g->abort_gen, __ATOMIC_ACQUIRE)) {
        /* queued before an abort: dropped */
        oacl_exec_task_fail(t, ACL_ERROR_RT_MODEL_ABORT_NORMAL, "the model running instance was aborted");
        __atomic_sub_fetch(&g->busy, 1, __ATOMIC_ACQ_REL);
        return true;
    }
    pthread_mutex_lock(&g->lock);
    if (g->running) {
        t->link = NULL;
        if (g->pending_tail)
            g->pending_tail->link = t;
        else
            g->pending = t;
        g->pending_tail = t;
        pthread_mutex_unlock(&g->lock);
        return false;
    }
    g->running = t;
    g->aborting = false;
    pthread_mutex_unlock(&g->lock);
    if (launch(g))
        finish_exec(g); /* nothing to run: completes t (and starts a pending one) */
    return false;
}

static void exec_release(struct oacl_task *t)
{
    struct oacl_bgraph *g = ((struct exec_data *)t->data)->g;
    if (!t->started) /* dropped before it started (stream stopped or destroyed) */
        __atomic_sub_fetch(&g->busy, 1, __ATOMIC_ACQ_REL);
    free(t);
}

int oacl_cpu_graph_exec(struct oacl_queue *q, struct oacl_bgraph *g, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct exec_data));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a graph execution");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct exec_data *d = t->data;
    d->g = g;
    d->abort_gen = __atomic_load_n(&g->abort_gen, __ATOMIC_ACQUIRE);
    t->kind = OACL_TASK_EXTERNAL;
    t->start = exec_start;
    t->release = exec_release;
    t->dev = q->dev;
    __atomic_add_fetch(&g->busy, 1, __ATOMIC_ACQ_REL);
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

void oacl_cpu_graph_abort(struct oacl_bgraph *g)
{
    __atomic_add_fetch(&g->abort_gen, 1, __ATOMIC_ACQ_REL); /* queued executions are dropped */
    pthread_mutex_lock(&g->lock);
    if (!g->running) {
        pthread_mutex_unlock(&g->lock);
        return;
    }
    g->aborting = true;
    struct oacl_task *pend = g->pending;
    g->pending = g->pending_tail = NULL;
    pthread_mutex_unlock(&g->lock);
    /* executions queued behind the running one are dropped */
    while (pend) {
        struct oacl_task *t = pend;
        pend = t->link;
        t->link = NULL;
        oacl_exec_task_fail(t, ACL_ERROR_RT_MODEL_ABORT_NORMAL, "the model running instance was aborted");
        __atomic_sub_fetch(&g->busy, 1, __ATOMIC_ACQ_REL);
        oacl_exec_task_done(t);
    }
    for (struct oacl_graph_rec *r = g->streams; r; r = r->next)
        oacl_exec_discard_pending(r->lane);
    /* the running execution ends once its started tasks have finished */
    for (;;) {
        pthread_mutex_lock(&g->lock);
        bool running = g->running != NULL;
        pthread_mutex_unlock(&g->lock);
        if (!running)
            break;
        struct timespec ts = {0, 50000};
        nanosleep(&ts, NULL);
    }
}
