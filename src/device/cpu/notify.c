/*
 * Notifies and stream memory operations of the CPU device.
 *
 * A notify is one bit: a record (in stream order) sets it, a wait (in
 * stream order) holds its stream until the bit is set and clears it as it
 * passes, so each record lets exactly one wait through. Value writes store
 * a 64-bit word in stream order; value waits hold their stream until the
 * word satisfies a condition. Both kinds of wait are parked on the poller,
 * which also enforces notify wait timeouts.
 *
 * A notify reaches its bit through a pointer: exporting it to other
 * processes (ipc_sync.h) moves the bit into shared memory while records and
 * waits may run. A record sets the bit it finds, then looks again; if the
 * bit moved meanwhile it moves what it set (if nobody consumed it yet), so
 * one record never lets two waits through.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "common/addr_registry.h"
#include "common/tsan.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/ipc_sync.h"

/* Liveness of the peers of a shared notify is checked this often per
 * blocked wait (reading /proc costs a few microseconds). */
#define PEER_CHECK_NS 100000000ull

struct oacl_bnotify {
    uint32_t refs;                 /* atomic: API handle + queued tasks */
    uint32_t set;                  /* atomic: recorded and not yet consumed (until shared) */
    uint32_t *bit;                 /* atomic: where the bit lives (&set, or the shared state) */
    struct oacl_ipc_sync *shared;  /* atomic: the shared state, once exported or imported */
    uint32_t records_queued;       /* atomic: records queued here that have not gone yet */
};

static pthread_mutex_t g_share_lock = PTHREAD_MUTEX_INITIALIZER;

static void notify_put(struct oacl_bnotify *n)
{
    if (__atomic_sub_fetch(&n->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        struct oacl_ipc_sync *s = __atomic_load_n(&n->shared, __ATOMIC_ACQUIRE);
        if (s)
            oacl_ipc_sync_detach(s);
        free(n);
    }
}

static inline uint32_t *notify_bit(struct oacl_bnotify *n) { return __atomic_load_n(&n->bit, __ATOMIC_ACQUIRE); }

int oacl_cpu_notify_create(struct oacl_bdev *dev, struct oacl_bnotify **out, char *err)
{
    (void)dev;
    struct oacl_bnotify *n = calloc(1, sizeof(*n));
    if (!n) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a notify");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    n->refs = 1;
    n->bit = &n->set;
    *out = n;
    return ACL_SUCCESS;
}

void oacl_cpu_notify_destroy(struct oacl_bnotify *n) { notify_put(n); }

int oacl_cpu_notify_share(struct oacl_bnotify *n, int *fd, char *err)
{
    pthread_mutex_lock(&g_share_lock);
    int rc = ACL_SUCCESS;
    struct oacl_ipc_sync *s = __atomic_load_n(&n->shared, __ATOMIC_ACQUIRE);
    if (!s) {
        rc = oacl_ipc_sync_create(OACL_IPC_STATE_NOTIFY, &s, err);
        if (rc == ACL_SUCCESS) {
            __atomic_store_n(&n->shared, s, __ATOMIC_RELEASE);
            __atomic_store_n(&n->bit, &s->st->notify_bit, __ATOMIC_SEQ_CST);
            /* A record that set the old bit before the switch moves it now. */
            if (__atomic_exchange_n(&n->set, 0, __ATOMIC_SEQ_CST))
                __atomic_store_n(&s->st->notify_bit, 1, __ATOMIC_SEQ_CST);
        }
    }
    if (rc == ACL_SUCCESS)
        rc = oacl_ipc_sync_fd(s, fd, err);
    pthread_mutex_unlock(&g_share_lock);
    return rc;
}

int oacl_cpu_notify_import(struct oacl_bdev *dev, int fd, struct oacl_bnotify **out, char *err)
{
    struct oacl_bnotify *n = NULL;
    int rc = oacl_cpu_notify_create(dev, &n, err);
    if (rc)
        return rc;
    struct oacl_ipc_sync *s = NULL;
    rc = oacl_ipc_sync_attach(fd, OACL_IPC_STATE_NOTIFY, &s, err);
    if (rc) {
        free(n);
        return rc;
    }
    n->shared = s;
    n->bit = &s->st->notify_bit;
    *out = n;
    return ACL_SUCCESS;
}

/* ---- record ---------------------------------------------------------------- */

struct notify_task {
    struct oacl_poll poll;           /* waits only */
    struct oacl_bnotify *notify;
    bool is_record;
    uint64_t next_check_ns;          /* waits on shared notifies: next liveness check */
};

static void notify_task_release(struct oacl_task *t)
{
    struct notify_task *nt = t->data;
    if (nt->is_record)
        __atomic_sub_fetch(&nt->notify->records_queued, 1, __ATOMIC_RELEASE);
    notify_put(nt->notify);
    free(t);
}

static void record_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct notify_task *nt = t->data;
    struct oacl_bnotify *n = nt->notify;
    uint32_t *p = notify_bit(n);
    __atomic_store_n(p, 1, __ATOMIC_SEQ_CST);
    uint32_t *now = notify_bit(n);
    if (now != p && __atomic_exchange_n(p, 0, __ATOMIC_SEQ_CST))
        __atomic_store_n(now, 1, __ATOMIC_SEQ_CST); /* exported meanwhile: follow the bit */
    struct oacl_ipc_sync *s = __atomic_load_n(&n->shared, __ATOMIC_ACQUIRE);
    if (s)
        oacl_ipc_sync_bump(s->st);
    oacl_poller_kick();
}

static struct oacl_task *notify_task(struct oacl_queue *q, struct oacl_bnotify *n, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct notify_task));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a notify task");
        return NULL;
    }
    struct notify_task *nt = t->data;
    __atomic_add_fetch(&n->refs, 1, __ATOMIC_RELAXED);
    nt->notify = n;
    nt->poll.task = t;
    t->release = notify_task_release;
    t->dev = q->dev;
    return t;
}

int oacl_cpu_notify_record(struct oacl_queue *q, struct oacl_bnotify *n, char *err)
{
    struct oacl_task *t = notify_task(q, n, err);
    if (!t)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    struct notify_task *nt = t->data;
    nt->is_record = true;
    __atomic_add_fetch(&n->records_queued, 1, __ATOMIC_ACQ_REL);
    t->kind = OACL_TASK_INLINE;
    t->run = record_run;
    t->trace_type = OACL_TT_NOTIFY_RECORD;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

static void reset_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct notify_task *nt = t->data;
    __atomic_store_n(notify_bit(nt->notify), 0, __ATOMIC_SEQ_CST);
}

int oacl_cpu_notify_reset(struct oacl_queue *q, struct oacl_bnotify *n, char *err)
{
    struct oacl_task *t = notify_task(q, n, err);
    if (!t)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    t->kind = OACL_TASK_INLINE;
    t->run = reset_run;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

/* ---- waits ------------------------------------------------------------------ */

/* Consumes the record that lets this wait through. */
static bool notify_ready(struct oacl_poll *p)
{
    struct notify_task *nt = (struct notify_task *)p;
    struct oacl_bnotify *n = nt->notify;
    uint32_t one = 1;
    if (__atomic_compare_exchange_n(notify_bit(n), &one, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
        return true;
    struct oacl_ipc_sync *s = __atomic_load_n(&n->shared, __ATOMIC_ACQUIRE);
    if (!s)
        return false;
    /* Dead-peer rule (spec 3.5): the wait cannot be satisfied any more when
       every other process that held the notify is gone and this process
       has no record of it queued. */
    uint64_t now = oacl_now_ns();
    if (now < nt->next_check_ns)
        return false;
    nt->next_check_ns = now + PEER_CHECK_NS;
    if (__atomic_load_n(&n->records_queued, __ATOMIC_ACQUIRE) == 0 && oacl_ipc_sync_peers_gone(s)) {
        p->error = ACL_ERROR_RT_IPC_ERROR;
        p->error_msg = "every other process holding the IPC notify has exited; its record cannot come";
        return true;
    }
    return false;
}

/* Start of a polled wait: done at once if ready, else parked. */
static bool polled_start(struct oacl_task *t)
{
    struct oacl_poll *p = t->data;
    if (p->ready(p)) {
        if (p->error)
            oacl_exec_task_fail(t, p->error, p->error_msg ? p->error_msg : p->what);
        return true;
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    if (oacl_poller_park(p, err) != 0) {
        oacl_exec_task_fail(t, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, err);
        return true;
    }
    return false;
}

static void polled_cancel(struct oacl_task *t)
{
    struct oacl_poll *p = t->data;
    if (oacl_poller_cancel(p))
        oacl_exec_task_done(t);
}

int oacl_cpu_notify_wait(struct oacl_queue *q, struct oacl_bnotify *n, uint64_t timeout_ns, char *err)
{
    struct oacl_task *t = notify_task(q, n, err);
    if (!t)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    struct notify_task *nt = t->data;
    nt->poll.ready = notify_ready;
    nt->poll.timeout_ns = timeout_ns;
    nt->poll.what = "the notify's record";
    t->kind = OACL_TASK_EXTERNAL;
    t->start = polled_start;
    t->cancel = polled_cancel;
    t->trace_type = OACL_TT_NOTIFY_WAIT;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

/* ---- stream memory operations ---------------------------------------------------- */

struct value_task {
    struct oacl_poll poll;           /* waits only */
    uint64_t *addr;
    uint64_t value;
    uint32_t mode;
};

static void value_task_release(struct oacl_task *t) { free(t); }

static void value_write_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct value_task *v = t->data;
    oacl_tsan_release(v->addr);
    __atomic_store_n(v->addr, v->value, __ATOMIC_RELEASE);
    oacl_poller_kick();
}

/* A read of device memory as the device does it: the word may be written
 * at any time by copies, kernels or the host program, none of which
 * synchronise with the reader (so ThreadSanitizer is not told about it,
 * just as it is not told about kernels' accesses). */
__attribute__((no_sanitize_thread)) static uint64_t device_read64(const uint64_t *addr)
{
    uint64_t v = *(const volatile uint64_t *)addr;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return v;
}

/* A satisfied wait acquires what the writer of the word released: the
 * word's address and, for the device alias of mapped host memory, the host
 * address the program stored to. Only ThreadSanitizer needs to be told. */
static void value_acquired(const uint64_t *addr)
{
    oacl_tsan_acquire(addr);
#ifdef OACL_UNDER_TSAN
    oacl_registry_rdlock();
    struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, (uintptr_t)addr);
    if (r && r->kind == OACL_MEM_DEVICE_ALIAS && r->peer)
        oacl_tsan_acquire(r->peer->base + ((uintptr_t)addr - r->base));
    oacl_registry_unlock();
#endif
}

/* Conditions of ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR (unsigned compares). */
static bool value_ready(struct oacl_poll *p)
{
    struct value_task *v = (struct value_task *)p;
    uint64_t cur = device_read64(v->addr);
    bool ready;
    switch (v->mode) {
    case 0:
        ready = cur >= v->value;
        break;
    case 1:
        ready = cur == v->value;
        break;
    case 2:
        ready = (cur & v->value) != 0;
        break;
    default:
        ready = ~(cur | v->value) != 0;
        break;
    }
    if (ready)
        value_acquired(v->addr);
    return ready;
}

static struct oacl_task *value_task(struct oacl_queue *q, uint64_t *addr, uint64_t value, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct value_task));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a stream memory operation");
        return NULL;
    }
    struct value_task *v = t->data;
    v->addr = addr;
    v->value = value;
    v->poll.task = t;
    t->release = value_task_release;
    t->dev = q->dev;
    return t;
}

int oacl_cpu_value_write(struct oacl_queue *q, uint64_t *addr, uint64_t value, char *err)
{
    struct oacl_task *t = value_task(q, addr, value, err);
    if (!t)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    t->kind = OACL_TASK_INLINE;
    t->run = value_write_run;
    t->trace_type = OACL_TT_VALUE_WRITE;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

int oacl_cpu_value_wait(struct oacl_queue *q, const uint64_t *addr, uint64_t value, uint32_t mode, char *err)
{
    struct oacl_task *t = value_task(q, (uint64_t *)addr, value, err);
    if (!t)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    struct value_task *v = t->data;
    v->mode = mode;
    v->poll.ready = value_ready;
    v->poll.what = "the awaited value";
    t->kind = OACL_TASK_EXTERNAL;
    t->start = polled_start;
    t->cancel = polled_cancel;
    t->trace_type = OACL_TT_VALUE_WAIT;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}
