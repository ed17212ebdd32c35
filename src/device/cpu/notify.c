/*
 * Notifies and stream memory operations of the CPU device.
 *
 * A notify is one bit: a record (in stream order) sets it, a wait (in
 * stream order) holds its stream until the bit is set and clears it as it
 * passes, so each record lets exactly one wait through. Value writes store
 * a 64-bit word in stream order; value waits hold their stream until the
 * word satisfies a condition. Both kinds of wait are parked on the poller,
 * which also enforces notify wait timeouts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "device/cpu/cpu_device.h"

struct oacl_bnotify {
    uint32_t refs;   /* atomic: API handle + queued tasks */
    uint32_t set;    /* atomic: recorded and not yet consumed */
};

static void notify_put(struct oacl_bnotify *n)
{
    if (__atomic_sub_fetch(&n->refs, 1, __ATOMIC_ACQ_REL) == 0)
        free(n);
}

int oacl_cpu_notify_create(struct oacl_bdev *dev, struct oacl_bnotify **out, char *err)
{
    (void)dev;
    struct oacl_bnotify *n = calloc(1, sizeof(*n));
    if (!n) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a notify");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    n->refs = 1;
    *out = n;
    return ACL_SUCCESS;
}

void oacl_cpu_notify_destroy(struct oacl_bnotify *n) { notify_put(n); }

/* ---- record ---------------------------------------------------------------- */

struct notify_task {
    struct oacl_poll poll;           /* waits only */
    struct oacl_bnotify *notify;
};

static void notify_task_release(struct oacl_task *t)
{
    struct notify_task *nt = t->data;
    notify_put(nt->notify);
    free(t);
}

static void record_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct notify_task *nt = t->data;
    __atomic_store_n(&nt->notify->set, 1, __ATOMIC_RELEASE);
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
    t->kind = OACL_TASK_INLINE;
    t->run = record_run;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

/* ---- waits ------------------------------------------------------------------ */

/* Consumes the record that lets this wait through. */
static bool notify_ready(struct oacl_poll *p)
{
    struct notify_task *nt = (struct notify_task *)p;
    uint32_t one = 1;
    return __atomic_compare_exchange_n(&nt->notify->set, &one, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* Start of a polled wait: done at once if ready, else parked. */
static bool polled_start(struct oacl_task *t)
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

/* Conditions of ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR (unsigned compares). */
static bool value_ready(struct oacl_poll *p)
{
    struct value_task *v = (struct value_task *)p;
    uint64_t cur = device_read64(v->addr);
    switch (v->mode) {
    case 0:
        return cur >= v->value;
    case 1:
        return cur == v->value;
    case 2:
        return (cur & v->value) != 0;
    default:
        return ~(cur | v->value) != 0;
    }
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
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}
