/*
 * Task graphs of the CPU device (acl-rt-model-ri.md §1.4).
 *
 * A graph stream is a queue whose submissions are kept instead of run
 * (oacl_exec_submit hands them to oacl_graph_record): the very task objects
 * the eager path builds — kernel with its argument blob copied once,
 * copies, fills, value and notify operations — are recorded, together with
 * graph-private event records/waits. An execution is one one-unit task on
 * the execution queue; its unit resets every graph stream's recorded tasks
 * and queues them, in one lock round per stream, on that stream's lane (an
 * ordinary queue of the device), then waits for the lanes while helping
 * with their blocks. Nothing is validated, allocated per task or copied at
 * replay: that is what makes replays cheap. When the thread that
 * synchronises the execution stream claims the unit, a whole replay runs
 * without a single thread hand-off, as eager launches followed by a
 * synchronise do.
 *
 * A recorded task may only be reset once no thread touches it any more
 * (its reference count is back to the graph's own one); a worker leaving a
 * finished block may hold it for a moment longer.
 *
 * Executions of one graph never overlap: a later one waits for the running
 * one (the `idle` condition).
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
#include "common/log.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/fault.h"

#define GRAPH_EVENT_SLOTS 4096u

struct oacl_graph_rec {
    struct oacl_queue q;           /* the recording queue (first: q is the handle) */
    struct oacl_bgraph *g;
    struct oacl_task **tasks;
    uint32_t *units;               /* unit count of each task at recording */
    uint8_t *disabled;
    uint32_t *order;               /* each task's place in its graph's recording order */
    uint32_t n, cap;
    int error;                     /* first task that could not be recorded */
    struct oacl_queue *lane;       /* where replays queue the tasks they do not run themselves */
    struct oacl_queue *driver;     /* where a lane started by another runs its walk */
    struct oacl_bdev *dev;
    bool head;                     /* starts at every execution (else when activated) */
    uint32_t running;              /* atomic: a lane walks it in the current execution */
    int32_t pending_slot;          /* >= 0: the next recorded task replaces task pending_slot */
    struct oacl_task **pending;    /* replacements waiting for graph_task_commit */
    struct oacl_task *retired;     /* replaced tasks (->next), kept until the stream goes */
    bool grp_open;                 /* a task group is open: kernels only */
    struct lane_thread *lt;        /* walks the stream when another starts it (made at the first start) */
    struct oacl_graph_rec *next;
};

/* A graph stream's own thread. A lane waits (for events of other lanes) in
 * the middle of its walk; were lanes tasks of the worker pool, lanes that
 * wait could hold every worker while the lane they wait for is still
 * queued: a chain of waits longer than the pool would never end. */
struct lane_thread {
    pthread_t th;
    pthread_mutex_t m;
    pthread_cond_t cv;
    bool go, quit;
    uint32_t pc;
    struct oacl_bgraph *g;
};

/* Where a label points: a graph stream and the position of its marker. */
struct oacl_graph_targets {
    uint32_t refs;                 /* atomic: the label list + recorded switches */
    uint32_t dead;                 /* atomic: the list was destroyed */
    uint32_t n;
    struct {
        struct oacl_queue *gq;
        uint32_t pos;
        uint32_t set;
    } t[];
};

/* A control task, evaluated by the lane walking its stream. */
struct ctl_task {
    struct oacl_graph_ctl c;
};

struct oacl_bgraph {
    struct oacl_bdev *dev;
    struct oacl_fail_group *group;
    pthread_mutex_t lock;
    struct oacl_graph_rec *streams;
    pthread_cond_t idle;           /* running became NULL */
    struct oacl_task *running;     /* execution in progress */
    uint32_t busy;                 /* atomic: executions queued or running */
    bool aborting;
    bool end_reached;              /* the end task ran in this execution */
    uint32_t abort_gen;            /* atomic: aborts so far (queued executions older than one are dropped) */
    pthread_cond_t lanes_cv;       /* lanes_active became 0 */
    uint32_t lanes_active;         /* lanes walking in the running execution (lock) */
    int fail;                      /* first failure of the running execution (lock) */
    char fail_msg[OACL_BACKEND_ERRLEN];
    uint32_t *ev;                  /* private event slots (atomic words) */
    uint32_t ev_used;              /* slots below this one may have been used */
    uint32_t open_groups;          /* streams with a task group open (recording) */
    struct init_word {
        uint64_t *addr;
        uint64_t value;
    } *inits;                      /* words set at the start of every execution */
    uint32_t ninits;
    uint32_t recorded;             /* atomic: tasks recorded on all its streams so far */
};

struct exec_data {
    struct oacl_bgraph *g;
    uint32_t abort_gen;            /* g's abort count when it was queued */
    bool ran;
};

/* A private event task: a poll first (waits), then the slot. */
struct ev_task {
    struct oacl_poll poll;
    struct oacl_bgraph *g;
    uint32_t slot;
};


/* ---- recording ---------------------------------------------------------------- */

static void ev_task_release(struct oacl_task *t) { free(t); }

static void targets_put(struct oacl_graph_targets *tg)
{
    if (tg && __atomic_sub_fetch(&tg->refs, 1, __ATOMIC_ACQ_REL) == 0)
        free(tg);
}

static void ctl_release(struct oacl_task *t)
{
    struct ctl_task *c = t->data;
    targets_put((struct oacl_graph_targets *)c->c.targets);
    free(t);
}

static bool recordable(const struct oacl_task *t)
{
    if (t->release == ev_task_release || t->release == ctl_release)
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
    case OACL_TT_CMO:
    case OACL_TT_PREFETCH:
    case OACL_TT_HOSTFUNC: /* the API layer keeps the host item for replays */
        return true;
    default: /* host steps, marks and eager events hold one-shot state */
        return false;
    }
}

void oacl_graph_record(struct oacl_queue *q, struct oacl_task *t)
{
    struct oacl_graph_rec *r = q->rec;
    if (r->pending_slot >= 0) { /* a replacement (aclmdlRITaskSetParams) */
        uint32_t i = (uint32_t)r->pending_slot;
        if (!r->pending)
            r->pending = calloc(r->cap ? r->cap : 1, sizeof(*r->pending));
        if (!r->pending || i >= r->n) {
            oacl_task_put(t);
            return;
        }
        if (r->pending[i])
            oacl_task_put(r->pending[i]);
        r->pending[i] = t;
        return;
    }
    bool kernel = t->trace_type == OACL_TT_KERNEL_AIVEC || t->trace_type == OACL_TT_KERNEL_AICORE;
    /* while a task group is open in the graph, streams without one take nothing */
    bool outside = !r->grp_open && r->g && r->g->open_groups;
    if (!recordable(t) || r->error || (r->grp_open && !kernel) || outside) {
        if (!r->error) /* a non-kernel task inside a task group breaks the capture */
            r->error = outside                 ? ACL_ERROR_STREAM_TASK_GROUP_INTR
                       : r->grp_open && !kernel ? ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
                                                : ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
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
        if (dis)
            r->disabled = dis;
        uint32_t *order = dis ? realloc(r->order, cap * sizeof(*order)) : NULL;
        if (!order) {
            r->error = ACL_ERROR_RT_MEMORY_ALLOCATION;
            oacl_task_put(t);
            return;
        }
        r->order = order;
        if (r->pending) { /* replacement slots as long as the list */
            struct oacl_task **pend = realloc(r->pending, cap * sizeof(*pend));
            if (!pend) {
                r->error = ACL_ERROR_RT_MEMORY_ALLOCATION;
                oacl_task_put(t);
                return;
            }
            memset(pend + r->cap, 0, (cap - r->cap) * sizeof(*pend));
            r->pending = pend;
        }
        r->cap = cap;
    }
    r->units[r->n] = t->kind == OACL_TASK_UNITS ? t->units : 1;
    r->disabled[r->n] = 0;
    /* streams of one graph may record on several threads at once */
    r->order[r->n] = r->g ? __atomic_fetch_add(&r->g->recorded, 1, __ATOMIC_RELAXED) : r->n;
    r->tasks[r->n++] = t; /* the graph keeps the creator's reference */
    oacl_cpu_note_last_task(r->n); /* aclrtGetThreadLastTaskId: the position in its RI stream */
}

void oacl_cpu_graph_task_pending(struct oacl_queue *gq, int32_t slot) { gq->rec->pending_slot = slot; }

void oacl_cpu_graph_group(struct oacl_queue *gq, bool open)
{
    struct oacl_graph_rec *r = gq->rec;
    if (r->grp_open != open && r->g)
        r->g->open_groups += open ? 1 : -1;
    r->grp_open = open;
}

int oacl_cpu_graph_init_word(struct oacl_bgraph *g, void *addr, uint64_t value, char *err)
{
    struct init_word *v = realloc(g->inits, (g->ninits + 1) * sizeof(*v));
    if (!v) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    v[g->ninits].addr = addr;
    v[g->ninits].value = value;
    g->inits = v;
    g->ninits++;
    return ACL_SUCCESS;
}

/* A stream-ordered patch: installs the staged replacement of one task. */
struct patch_data {
    struct oacl_graph_rec *r;
    uint32_t index;
    struct oacl_task *t;           /* the replacement (owned until installed) */
};

static void patch_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct patch_data *d = t->data;
    struct oacl_graph_rec *r = d->r;
    struct oacl_task *old = r->tasks[d->index];
    old->next = r->retired; /* a walker of a racing execution may still run it */
    r->retired = old;
    r->units[d->index] = d->t->kind == OACL_TASK_UNITS ? d->t->units : 1;
    __atomic_store_n(&r->tasks[d->index], d->t, __ATOMIC_RELEASE);
    d->t = NULL;
}

static void patch_release(struct oacl_task *t)
{
    struct patch_data *d = t->data;
    if (d->t)
        oacl_task_put(d->t);
    free(t);
}

int oacl_cpu_queue_graph_patch(struct oacl_queue *q, struct oacl_queue *gq, uint32_t index, char *err)
{
    struct oacl_graph_rec *r = gq->rec;
    if (!r->pending || index >= r->n || !r->pending[index]) {
        snprintf(err, OACL_BACKEND_ERRLEN, "no replacement staged for task %u", index);
        return ACL_ERROR_RT_INTERNAL_ERROR;
    }
    struct oacl_task *t = oacl_task_new(sizeof(struct patch_data));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a task update");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct patch_data *d = t->data;
    d->r = r;
    d->index = index;
    d->t = r->pending[index];
    r->pending[index] = NULL;
    t->kind = OACL_TASK_INLINE;
    t->run = patch_run;
    t->release = patch_release;
    t->dev = q->dev;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

/* aclrtTaskUpdateAsync kind 1: a stream-ordered rebuild of a recorded
 * random-number task from parameters in device memory. It counts as busy
 * on the graph so that the graph outlives it. */
struct random_update {
    struct oacl_bgraph *g;
    struct oacl_graph_rec *r;
    uint32_t index;
    const void *src;
    size_t size;
    oacl_random_convert_fn convert;
    int32_t dev_id;
    bool ran;
};

static void random_update_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct random_update *d = t->data;
    d->ran = true;
    char err[OACL_BACKEND_ERRLEN] = "";
    int rc = 0;
    struct oacl_random_task rt;
    uint8_t info[512];
    if (d->size > sizeof(info)) {
        rc = ACL_ERROR_RT_PARAM_INVALID;
        snprintf(err, sizeof(err), "task update: %zu bytes of parameters are too many", d->size);
    } else {
        memcpy(info, d->src, d->size); /* checked device memory at the call; read now, in stream order */
        rc = d->convert(info, d->dev_id, &rt, err);
    }
    struct oacl_task *nt = NULL;
    if (rc == 0)
        nt = oacl_cpu_random_task_new(t->dev, &rt, &rc, err);
    if (rc == 0) {
        struct oacl_bgraph *g = d->g;
        pthread_mutex_lock(&g->lock);
        struct oacl_graph_rec *r = g->streams;
        while (r && r != d->r)
            r = r->next;
        if (!r || d->index >= r->n || r->tasks[d->index]->trace_type != OACL_TT_RANDOM) {
            rc = ACL_ERROR_RT_PARAM_INVALID;
            snprintf(err, sizeof(err), "task update: task %u is no longer a random-number task of its stream",
                     d->index);
        } else {
            struct oacl_task *old = r->tasks[d->index];
            old->next = r->retired; /* a walker of a racing execution may still run it */
            r->retired = old;
            r->units[d->index] = nt->units;
            __atomic_store_n(&r->tasks[d->index], nt, __ATOMIC_RELEASE);
            nt = NULL;
        }
        pthread_mutex_unlock(&g->lock);
    }
    if (nt)
        oacl_task_put(nt);
    if (rc)
        oacl_exec_task_fail(t, rc, err);
    __atomic_sub_fetch(&d->g->busy, 1, __ATOMIC_ACQ_REL);
}

static void random_update_release(struct oacl_task *t)
{
    struct random_update *d = t->data;
    if (!d->ran) /* dropped before it ran (stream stopped or destroyed) */
        __atomic_sub_fetch(&d->g->busy, 1, __ATOMIC_ACQ_REL);
    free(t);
}

int oacl_cpu_queue_graph_random_update(struct oacl_queue *q, struct oacl_bgraph *g, struct oacl_queue *gq,
                                       uint32_t index, const void *src, size_t size, oacl_random_convert_fn convert,
                                       int32_t dev_id, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct random_update));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a task update");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct random_update *d = t->data;
    d->g = g;
    d->r = gq->rec;
    d->index = index;
    d->src = src;
    d->size = size;
    d->convert = convert;
    d->dev_id = dev_id;
    t->kind = OACL_TASK_INLINE;
    t->run = random_update_run;
    t->release = random_update_release;
    t->dev = q->dev;
    __atomic_add_fetch(&g->busy, 1, __ATOMIC_ACQ_REL);
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

bool oacl_cpu_graph_task_staged(struct oacl_queue *gq, uint32_t i)
{
    struct oacl_graph_rec *r = gq->rec;
    return r->pending && i < r->n && r->pending[i];
}

void oacl_cpu_graph_task_commit(struct oacl_queue *gq, bool install)
{
    struct oacl_graph_rec *r = gq->rec;
    for (uint32_t i = 0; r->pending && i < r->n; i++) {
        struct oacl_task *t = r->pending[i];
        if (!t)
            continue;
        r->pending[i] = NULL;
        if (!install) {
            oacl_task_put(t);
            continue;
        }
        struct oacl_task *old = r->tasks[i];
        old->next = r->retired; /* a read-back args pointer may still refer to it */
        r->retired = old;
        r->tasks[i] = t;
        r->units[i] = t->kind == OACL_TASK_UNITS ? t->units : 1;
        r->disabled[i] = 0;
    }
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
    const int before = r->error;
    oacl_graph_record(gq, t);
    if (before || !r->error)
        return ACL_SUCCESS; /* a stream broken earlier takes tasks silently (the capture is dead) */
    snprintf(err, OACL_BACKEND_ERRLEN, "%s",
             r->error == ACL_ERROR_STREAM_TASK_GROUP_INTR     ? "a task group is open on another stream of the graph"
             : r->error == ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT ? "a task group is open on the stream: kernels only"
                                                              : "the event task could not be recorded");
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
    pthread_cond_init(&g->idle, NULL);
    pthread_cond_init(&g->lanes_cv, NULL);
    g->dev = dev;
    g->group = group;
    g->ev = ev;
    *out = g;
    return ACL_SUCCESS;
}

int oacl_cpu_graph_stream_new(struct oacl_bdev *dev, struct oacl_fail_group *group, struct oacl_queue **out,
                               char *err)
{
    struct oacl_graph_rec *r = calloc(1, sizeof(*r));
    if (!r) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a graph stream");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    int rc = oacl_cpu_backend_ops.queue_create(dev, group, &r->lane, err);
    if (rc == ACL_SUCCESS) {
        rc = oacl_cpu_backend_ops.queue_create(dev, group, &r->driver, err);
        if (rc)
            oacl_cpu_backend_ops.queue_destroy(r->lane);
    }
    if (rc) {
        free(r);
        return rc;
    }
    oacl_exec_queue_init(&r->q, dev, group);
    r->q.rec = r;
    r->dev = dev;
    r->pending_slot = -1;
    *out = &r->q;
    return ACL_SUCCESS;
}

void oacl_cpu_graph_stream_bind(struct oacl_queue *gq, struct oacl_bgraph *g, bool head)
{
    struct oacl_graph_rec *r = gq->rec;
    struct oacl_bgraph *old = r->g;
    if (old) {
        pthread_mutex_lock(&old->lock);
        for (struct oacl_graph_rec **l = &old->streams; *l; l = &(*l)->next) {
            if (*l == r) {
                *l = r->next;
                break;
            }
        }
        pthread_mutex_unlock(&old->lock);
    }
    r->next = NULL;
    r->g = g;
    r->head = head;
    if (g) {
        pthread_mutex_lock(&g->lock);
        /* newest first, the order aclmdlRIGetStreams reports */
        r->next = g->streams;
        g->streams = r;
        pthread_mutex_unlock(&g->lock);
    }
}

void oacl_cpu_graph_stream_clear(struct oacl_queue *gq)
{
    struct oacl_graph_rec *r = gq->rec;
    for (uint32_t i = 0; i < r->n; i++) {
        /* a worker may still be leaving a task of the last replay */
        while (__atomic_load_n(&r->tasks[i]->refs, __ATOMIC_ACQUIRE) > 1)
            sched_yield();
        r->tasks[i]->started = false; /* host steps hand their payload back through drop */
        oacl_task_put(r->tasks[i]);
    }
    oacl_cpu_graph_task_commit(gq, false);
    while (r->retired) {
        struct oacl_task *t = r->retired;
        r->retired = t->next;
        while (__atomic_load_n(&t->refs, __ATOMIC_ACQUIRE) > 1)
            sched_yield();
        t->started = false;
        oacl_task_put(t);
    }
    r->n = 0;
    r->error = 0;
}

static void lane_thread_end(struct oacl_graph_rec *r);

void oacl_cpu_graph_stream_free(struct oacl_queue *gq)
{
    struct oacl_graph_rec *r = gq->rec;
    lane_thread_end(r);
    oacl_cpu_graph_stream_bind(gq, NULL, false);
    oacl_cpu_backend_ops.queue_destroy(r->driver);
    oacl_cpu_backend_ops.queue_destroy(r->lane);
    oacl_cpu_graph_stream_clear(gq);
    free(r->tasks);
    free(r->units);
    free(r->disabled);
    free(r->order);
    free(r->pending);
    free(r);
}

int oacl_cpu_graph_stream(struct oacl_bgraph *g, struct oacl_queue **out, char *err)
{
    int rc = oacl_cpu_graph_stream_new(g->dev, g->group, out, err);
    if (rc == ACL_SUCCESS)
        oacl_cpu_graph_stream_bind(*out, g, true);
    return rc;
}

/* ---- control tasks (built graphs) ------------------------------------------------ */

struct oacl_graph_targets *oacl_cpu_graph_targets_new(uint32_t n)
{
    struct oacl_graph_targets *tg = calloc(1, sizeof(*tg) + (size_t)n * sizeof(tg->t[0]));
    if (tg) {
        tg->refs = 1;
        tg->n = n;
    }
    return tg;
}

void oacl_cpu_graph_targets_set(struct oacl_graph_targets *tg, uint32_t i, struct oacl_queue *gq, uint32_t pos)
{
    if (i >= tg->n)
        return;
    tg->t[i].gq = gq;
    tg->t[i].pos = pos;
    __atomic_store_n(&tg->t[i].set, 1, __ATOMIC_RELEASE);
}

void oacl_cpu_graph_targets_drop(struct oacl_graph_targets *tg)
{
    __atomic_store_n(&tg->dead, 1, __ATOMIC_RELEASE);
    targets_put(tg);
}

int oacl_cpu_graph_ctl(struct oacl_queue *gq, const struct oacl_graph_ctl *c, char *err)
{
    struct oacl_graph_rec *r = gq->rec;
    struct oacl_task *t = oacl_task_new(sizeof(struct ctl_task));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a control task");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct ctl_task *ct = t->data;
    ct->c = *c;
    if (c->targets)
        __atomic_add_fetch(&((struct oacl_graph_targets *)c->targets)->refs, 1, __ATOMIC_ACQ_REL);
    t->kind = OACL_TASK_INLINE; /* never queued: the lane evaluates it */
    t->release = ctl_release;
    t->dev = gq->dev;
    t->trace_type = c->kind == OACL_GCTL_EXT_RECORD ? OACL_TT_EVENT_RECORD
                    : c->kind == OACL_GCTL_EXT_WAIT ? OACL_TT_EVENT_WAIT
                                                    : OACL_TT_OTHER;
    oacl_graph_record(gq, t);
    return r->error;
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
    out->order = r->order[i];
    if (t->trace_type == OACL_TT_KERNEL_AIVEC || t->trace_type == OACL_TT_KERNEL_AICORE) {
        out->kernel_name = t->kernel ? t->kernel->name : NULL;
        out->num_blocks = r->units[i];
        out->args = t->args;
    }
    if (t->release == ev_task_release)
        out->slot = ((struct ev_task *)t->data)->slot;
    if (t->release == ctl_release) {
        const struct oacl_graph_ctl *c = &((struct ctl_task *)t->data)->c;
        out->ctl = c->kind;
        if (c->kind == OACL_GCTL_EXT_RECORD || c->kind == OACL_GCTL_EXT_WAIT)
            out->slot = c->max;
    }
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
    while (g->streams)
        oacl_cpu_graph_stream_free(&g->streams->q);
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->idle);
    pthread_cond_destroy(&g->lanes_cv);
    free(g->inits);
    free(g->ev);
    free(g);
    return ACL_SUCCESS;
}

/* ---- executions ----------------------------------------------------------------- */

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

/* A task the replaying thread may run itself: one block, or an inline step,
 * with nothing observing it. */
static inline bool runs_inline(const struct oacl_task *t, uint32_t units)
{
    return (t->kind == OACL_TASK_INLINE || (t->kind == OACL_TASK_UNITS && units == 1)) && !t->dump;
}

static void set_fail(struct oacl_bgraph *g, int code, const char *text)
{
    pthread_mutex_lock(&g->lock);
    if (!g->fail) {
        snprintf(g->fail_msg, sizeof(g->fail_msg), "%s", text);
        __atomic_store_n(&g->fail, code, __ATOMIC_RELEASE); /* lanes poll it without the lock */
    }
    pthread_mutex_unlock(&g->lock);
}

static void note_fail(struct oacl_bgraph *g, struct oacl_task *t, int code)
{
    OACL_ERROR("device %u: %s", g->dev->index, t->fail_msg);
    if (g->group && __atomic_load_n(&g->group->stop_on_failure, __ATOMIC_ACQUIRE)) {
        int none = 0; /* the first failure stops the whole context, as in finish_task */
        __atomic_compare_exchange_n(&g->group->error, &none, code, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    }
    set_fail(g, code, t->fail_msg);
}

/* Runs t (reset) on this thread, as the executor would have. */
static void run_here(struct oacl_bgraph *g, struct oacl_task *t)
{
    t->next_unit = 1; /* claimed */
    uint64_t t0 = t->timeout_ns ? oacl_now_ns() : 0;
    oacl_cpu_gate_enter(); /* it may store into device memory */
    t->run(t, 0);
    oacl_cpu_gate_leave();
    if (t->timeout_ns && !t->failed) {
        uint64_t elapsed = oacl_now_ns() - t0;
        if (elapsed > t->timeout_ns) {
            char m[160];
            snprintf(m, sizeof(m), "kernel '%s' ran %llu us, over its %llu us timeout", t->kernel ? t->kernel->name : "?",
                     (unsigned long long)(elapsed / 1000), (unsigned long long)(t->timeout_ns / 1000));
            oacl_exec_task_fail(t, ACL_ERROR_RT_AICORE_TIMEOUT, m);
        }
    }
    int f = __atomic_load_n(&t->failed, __ATOMIC_ACQUIRE);
    if (__builtin_expect(f != 0, 0))
        note_fail(g, t, f);
    t->refs = 1;
    if (oacl_poller_busy()) /* it may have written what a wait polls for */
        oacl_poller_kick();
}

/* Resets task i of r for a run (waiting for a worker still leaving it). */
static inline struct oacl_task *prepare(struct oacl_graph_rec *r, uint32_t i)
{
    struct oacl_task *x = r->tasks[i];
    while (__builtin_expect(__atomic_load_n(&x->refs, __ATOMIC_ACQUIRE) > 1, 0))
        sched_yield();
    reset_task(x, r->units[i], r->lane);
    return x;
}

static void start_lane(struct oacl_bgraph *g, struct oacl_graph_rec *r, uint32_t pc);
static void run_graph(struct oacl_bgraph *g);

static bool is_ctl(const struct oacl_task *t) { return t->release == ctl_release; }

static bool compare(const struct oacl_graph_ctl *c)
{
    int64_t a, b;
    if (c->is64) {
        a = *(const volatile int64_t *)c->left;
        b = *(const volatile int64_t *)c->right;
    } else {
        a = *(const volatile int32_t *)c->left;
        b = *(const volatile int32_t *)c->right;
    }
    switch (c->cond) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a > b;
    case 3: return a >= b;
    case 4: return a < b;
    default: return a <= b;
    }
}

static struct oacl_graph_rec *rec_of(struct oacl_bgraph *g, struct oacl_queue *gq)
{
    struct oacl_graph_rec *r = gq ? gq->rec : NULL;
    return r && r->g == g ? r : NULL;
}

/* Evaluates a control task; returns the next pc of this lane, or UINT32_MAX
 * when the lane stops here. */
static uint32_t run_ctl(struct oacl_bgraph *g, struct oacl_graph_rec *r, uint32_t pc, const struct oacl_graph_ctl *c)
{
    switch (c->kind) {
    case OACL_GCTL_END:
        __atomic_store_n(&g->end_reached, true, __ATOMIC_RELEASE);
        return pc + 1;
    case OACL_GCTL_ACTIVE: {
        struct oacl_graph_rec *t = rec_of(g, c->stream);
        if (t && t != r) /* already running in this execution: nothing (Decision 20) */
            start_lane(g, t, 0);
        return pc + 1;
    }
    case OACL_GCTL_SWITCH_STREAM: {
        if (!compare(c))
            return pc + 1;
        struct oacl_graph_rec *t = rec_of(g, c->stream);
        if (!t || (t != r && __atomic_load_n(&t->running, __ATOMIC_ACQUIRE))) {
            set_fail(g, ACL_ERROR_RT_MODEL_EXECUTE, "aclrtSwitchStream: the true stream is running already");
            return UINT32_MAX;
        }
        if (t == r)
            return 0;
        start_lane(g, t, 0);
        return UINT32_MAX;
    }
    case OACL_GCTL_SWITCH_INDEX: {
        const struct oacl_graph_targets *tg = c->targets;
        uint32_t idx = *(const volatile uint32_t *)c->left;
        if (c->max == 0 || __atomic_load_n(&tg->dead, __ATOMIC_ACQUIRE)) {
            set_fail(g, ACL_ERROR_RT_MODEL_EXECUTE, "aclrtSwitchLabelByIndex: no label to jump to (maxValue 0 or "
                                                    "the label list was destroyed)");
            return UINT32_MAX;
        }
        if (idx >= c->max)
            idx = c->max - 1;
        if (idx >= tg->n || !__atomic_load_n(&tg->t[idx].set, __ATOMIC_ACQUIRE)) {
            set_fail(g, ACL_ERROR_RT_MODEL_EXECUTE, "aclrtSwitchLabelByIndex: the target label was never set");
            return UINT32_MAX;
        }
        struct oacl_graph_rec *t = rec_of(g, tg->t[idx].gq);
        uint32_t to = tg->t[idx].pos + 1;
        if (t == r)
            return to;
        if (!t || __atomic_load_n(&t->running, __ATOMIC_ACQUIRE)) {
            set_fail(g, ACL_ERROR_RT_MODEL_EXECUTE,
                     "aclrtSwitchLabelByIndex: the label's stream is running already or not part of this instance");
            return UINT32_MAX;
        }
        start_lane(g, t, to);
        return UINT32_MAX;
    }
    case OACL_GCTL_EXT_RECORD:
    case OACL_GCTL_EXT_WAIT: {
        /* an eager record/wait on the user's event, queued on the lane now */
        char err[OACL_BACKEND_ERRLEN] = "";
        bool queued = false;
        int brc = c->kind == OACL_GCTL_EXT_RECORD ? oacl_cpu_event_record(r->lane, c->event, err)
                                                  : oacl_cpu_event_wait(r->lane, c->event, 0, &queued, err);
        if (brc) {
            set_fail(g, brc, err);
            return UINT32_MAX;
        }
        oacl_exec_wait(r->lane, oacl_exec_submitted(r->lane), -1);
        int f = oacl_exec_take_fault(r->lane, err, sizeof(err));
        if (f)
            set_fail(g, f, err);
        return pc + 1;
    }
    case OACL_GCTL_COND: {
        const volatile uint64_t *word = c->left;
        struct oacl_bgraph *sub = NULL;
        if (c->cond == 1) { /* WHILE: the body changes the value to end the loop */
            while (*word != 0 && !__atomic_load_n(&g->aborting, __ATOMIC_ACQUIRE)) {
                run_graph(c->graphs[0]);
                if (c->graphs[0]->fail) {
                    set_fail(g, c->graphs[0]->fail, c->graphs[0]->fail_msg);
                    break;
                }
            }
            return pc + 1;
        }
        uint64_t v = *word;
        if (c->cond == 0)
            sub = v != 0 ? c->graphs[0] : c->max == 2 ? c->graphs[1] : NULL;
        else if (v < c->max)
            sub = c->graphs[v];
        if (sub) {
            run_graph(sub);
            if (sub->fail)
                set_fail(g, sub->fail, sub->fail_msg);
        }
        return pc + 1;
    }
    default: /* labels mark positions only */
        return pc + 1;
    }
}

/* Walks r from pc on this thread: one-block tasks and inline steps run
 * here, multi-block kernels and waits are queued on the lane (and helped
 * with), control tasks are evaluated. */
static void walk(struct oacl_bgraph *g, struct oacl_graph_rec *r, uint32_t pc)
{
    uint32_t i = pc;
    while (i < r->n) {
        /* a failure stops the whole execution at task boundaries (Decision 14) */
        if (__atomic_load_n(&g->aborting, __ATOMIC_ACQUIRE) || __atomic_load_n(&g->fail, __ATOMIC_ACQUIRE) ||
            oacl_exec_stopped(r->lane))
            return;
        struct oacl_task *x = r->tasks[i];
        if (r->disabled[i]) {
            i++;
        } else if (is_ctl(x)) {
            i = run_ctl(g, r, i, &((struct ctl_task *)x->data)->c);
        } else if (runs_inline(x, r->units[i])) {
            run_here(g, prepare(r, i));
            i++;
        } else {
            struct oacl_task *first = NULL, *last = NULL;
            for (; i < r->n && (r->disabled[i] || !(is_ctl(r->tasks[i]) || runs_inline(r->tasks[i], r->units[i])));
                 i++) {
                if (r->disabled[i])
                    continue;
                x = prepare(r, i);
                if (last)
                    last->next = x;
                else
                    first = x;
                last = x;
            }
            oacl_exec_submit_list(r->lane, first, last);
            oacl_exec_wait(r->lane, oacl_exec_submitted(r->lane), -1);
            char msg[OACL_BACKEND_ERRLEN] = "";
            int f = oacl_exec_take_fault(r->lane, msg, sizeof(msg));
            if (f)
                set_fail(g, f, msg);
        }
    }
}

static void lane_done(struct oacl_bgraph *g, struct oacl_graph_rec *r)
{
    __atomic_store_n(&r->running, 0, __ATOMIC_RELEASE);
    pthread_mutex_lock(&g->lock);
    if (--g->lanes_active == 0)
        pthread_cond_broadcast(&g->lanes_cv);
    pthread_mutex_unlock(&g->lock);
}

struct lane_data {
    struct oacl_bgraph *g;
    struct oacl_graph_rec *r;
    uint32_t pc;
};

static void lane_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct lane_data *d = t->data;
    walk(d->g, d->r, d->pc);
    lane_done(d->g, d->r);
}

static void lane_release(struct oacl_task *t) { free(t); }

static void *lane_main(void *arg)
{
    struct oacl_graph_rec *r = arg;
    struct lane_thread *lt = r->lt;
    pthread_mutex_lock(&lt->m);
    for (;;) {
        while (!lt->go && !lt->quit)
            pthread_cond_wait(&lt->cv, &lt->m);
        if (lt->quit)
            break;
        lt->go = false;
        const uint32_t pc = lt->pc;
        struct oacl_bgraph *g = lt->g;
        pthread_mutex_unlock(&lt->m);
        walk(g, r, pc);
        lane_done(g, r);
        pthread_mutex_lock(&lt->m);
    }
    pthread_mutex_unlock(&lt->m);
    return NULL;
}

/* r's thread, made at its first start; NULL if none can be made. */
static struct lane_thread *lane_thread_of(struct oacl_graph_rec *r)
{
    struct lane_thread *lt = __atomic_load_n(&r->lt, __ATOMIC_ACQUIRE);
    if (lt)
        return lt;
    lt = calloc(1, sizeof(*lt));
    if (!lt)
        return NULL;
    pthread_mutex_init(&lt->m, NULL);
    pthread_cond_init(&lt->cv, NULL);
    __atomic_store_n(&r->lt, lt, __ATOMIC_RELEASE); /* before the thread reads it */
    sigset_t all, old;
    sigfillset(&all);
    /* as workers: the program's signals are not for this thread */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    const int e = pthread_create(&lt->th, NULL, lane_main, r);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (e) {
        __atomic_store_n(&r->lt, NULL, __ATOMIC_RELEASE);
        pthread_mutex_destroy(&lt->m);
        pthread_cond_destroy(&lt->cv);
        free(lt);
        return NULL;
    }
    return lt;
}

static void lane_thread_end(struct oacl_graph_rec *r)
{
    struct lane_thread *lt = r->lt;
    if (!lt)
        return;
    pthread_mutex_lock(&lt->m);
    lt->quit = true;
    pthread_cond_signal(&lt->cv);
    pthread_mutex_unlock(&lt->m);
    pthread_join(lt->th, NULL);
    pthread_mutex_destroy(&lt->m);
    pthread_cond_destroy(&lt->cv);
    free(lt);
    r->lt = NULL;
}

/* Starts a lane on r at pc (on its driver queue) unless one is running. */
static void start_lane(struct oacl_bgraph *g, struct oacl_graph_rec *r, uint32_t pc)
{
    uint32_t idle = 0;
    if (!__atomic_compare_exchange_n(&r->running, &idle, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return;
    struct lane_thread *lt = lane_thread_of(r);
    if (lt) {
        pthread_mutex_lock(&g->lock);
        g->lanes_active++;
        pthread_mutex_unlock(&g->lock);
        pthread_mutex_lock(&lt->m);
        lt->pc = pc;
        lt->g = g;
        lt->go = true;
        pthread_cond_signal(&lt->cv);
        pthread_mutex_unlock(&lt->m);
        return;
    }
    /* no thread to be had: a task of the pool (a chain of waits longer
       than the pool can then stall) */
    struct oacl_task *t = oacl_task_new(sizeof(struct lane_data));
    if (!t) {
        __atomic_store_n(&r->running, 0, __ATOMIC_RELEASE);
        set_fail(g, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory starting a graph stream");
        return;
    }
    struct lane_data *d = t->data;
    d->g = g;
    d->r = r;
    d->pc = pc;
    t->kind = OACL_TASK_UNITS;
    t->units = 1;
    t->run = lane_run;
    t->release = lane_release;
    t->dev = g->dev;
    pthread_mutex_lock(&g->lock);
    g->lanes_active++;
    pthread_mutex_unlock(&g->lock);
    oacl_exec_submit(r->driver, t);
}

/* One pass over g on this thread: the first head stream walked here, the
 * other head streams as lanes; returns when every lane started has ended
 * (g->fail holds the first failure). Sub-graphs of conditional tasks run
 * the same way, nested in the walk of their parent. */
static void run_graph(struct oacl_bgraph *g)
{
    pthread_mutex_lock(&g->lock);
    __atomic_store_n(&g->fail, 0, __ATOMIC_RELAXED);
    g->fail_msg[0] = '\0';
    g->end_reached = false;
    struct oacl_graph_rec *first = NULL;
    for (struct oacl_graph_rec *r = g->streams; r; r = r->next) {
        if (r->head && !first) {
            first = r;
            r->running = 1;
            g->lanes_active++;
        }
    }
    pthread_mutex_unlock(&g->lock);
    uint32_t used = __atomic_load_n(&g->ev_used, __ATOMIC_RELAXED);
    if (used)
        memset(g->ev, 0, used * sizeof(uint32_t));
    if (g->ninits) {
        oacl_cpu_gate_enter();
        for (uint32_t i = 0; i < g->ninits; i++)
            __atomic_store_n(g->inits[i].addr, g->inits[i].value, __ATOMIC_RELEASE);
        oacl_cpu_gate_leave();
    }
    for (struct oacl_graph_rec *r = g->streams; r; r = r->next)
        if (r->head && r != first)
            start_lane(g, r, 0);
    if (first) {
        walk(g, first, 0);
        lane_done(g, first);
    }
    pthread_mutex_lock(&g->lock);
    while (g->lanes_active)
        pthread_cond_wait(&g->lanes_cv, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

/*
 * The execution task is a one-unit task: whichever thread claims the unit —
 * a worker, or the thread synchronising the execution stream, which then
 * needs no hand-off — walks the first head stream itself and starts a lane
 * for every other head stream, then waits until every lane started in
 * this execution has finished.
 */
static void exec_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct exec_data *d = t->data;
    struct oacl_bgraph *g = d->g;
    d->ran = true;
    pthread_mutex_lock(&g->lock);
    while (g->running && d->abort_gen == __atomic_load_n(&g->abort_gen, __ATOMIC_ACQUIRE))
        pthread_cond_wait(&g->idle, &g->lock); /* executions of one graph never overlap */
    if (d->abort_gen != __atomic_load_n(&g->abort_gen, __ATOMIC_ACQUIRE)) {
        pthread_mutex_unlock(&g->lock); /* queued before an abort: dropped */
        oacl_exec_task_fail(t, ACL_ERROR_RT_MODEL_ABORT_NORMAL, "the model running instance was aborted");
        __atomic_sub_fetch(&g->busy, 1, __ATOMIC_ACQ_REL);
        return;
    }
    g->running = t;
    __atomic_store_n(&g->aborting, false, __ATOMIC_RELEASE); /* lanes read it without the lock */
    pthread_mutex_unlock(&g->lock);
    run_graph(g);
    pthread_mutex_lock(&g->lock);
    int fail = g->fail;
    char msg[OACL_BACKEND_ERRLEN];
    snprintf(msg, sizeof(msg), "%s", g->fail_msg);
    if (__atomic_load_n(&g->aborting, __ATOMIC_ACQUIRE) && !fail) {
        fail = ACL_ERROR_RT_MODEL_ABORT_NORMAL;
        snprintf(msg, sizeof(msg), "the model running instance was aborted");
    }
    g->running = NULL;
    pthread_cond_broadcast(&g->idle);
    pthread_mutex_unlock(&g->lock);
    if (fail)
        oacl_exec_task_fail(t, fail, msg);
    __atomic_sub_fetch(&g->busy, 1, __ATOMIC_ACQ_REL);
}

static void exec_release(struct oacl_task *t)
{
    struct exec_data *d = t->data;
    if (!d->ran) /* dropped before it ran (stream stopped or destroyed) */
        __atomic_sub_fetch(&d->g->busy, 1, __ATOMIC_ACQ_REL);
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
    t->kind = OACL_TASK_UNITS;
    t->units = 1;
    t->run = exec_run;
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
    bool running = g->running != NULL;
    if (running)
        __atomic_store_n(&g->aborting, true, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&g->idle); /* executions waiting for their turn give up */
    pthread_mutex_unlock(&g->lock);
    if (!running)
        return;
    for (struct oacl_graph_rec *r = g->streams; r; r = r->next)
        oacl_exec_discard_pending(r->lane); /* lanes see `aborting` at their next task */
    /* synchronous: the running execution ends once its started tasks have */
    pthread_mutex_lock(&g->lock);
    while (g->running)
        pthread_cond_wait(&g->idle, &g->lock);
    pthread_mutex_unlock(&g->lock);
}
