/*
 * Counting notifies of the CPU device (device-kernel chapter 3.5): a
 * 32-bit count that records change in stream order (set, add, or, and;
 * modulo 2^32) and that waits hold their stream on until a predicate of
 * the count holds. The predicate is level-triggered: every wait whose
 * predicate holds passes, and a wait with `clear` sets the count to 0 in
 * the same atomic step that releases it. Waits are parked on the poller,
 * which every completing task kicks (records are tasks) and which fails a
 * wait whose timeout passes with ACL_ERROR_RT_TASK_TIMEOUT.
 */
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "device/cpu/cpu_device.h"

struct oacl_bcntnotify {
    uint32_t refs;  /* atomic: API handle + queued tasks */
    uint32_t count; /* atomic */
};

struct cnt_task {
    struct oacl_poll poll; /* first: the poller hands it back (waits only) */
    struct oacl_bcntnotify *n;
    uint32_t mode;
    uint32_t value;
    bool clear;
};

static void cnt_put(struct oacl_bcntnotify *n)
{
    if (__atomic_sub_fetch(&n->refs, 1, __ATOMIC_ACQ_REL) == 0)
        free(n);
}

int oacl_cpu_cnt_notify_create(struct oacl_bdev *dev, struct oacl_bcntnotify **out, char *err)
{
    (void)dev;
    struct oacl_bcntnotify *n = calloc(1, sizeof(*n));
    if (!n) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a counting notify");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    n->refs = 1;
    *out = n;
    return ACL_SUCCESS;
}

/* Queued records and waits keep the object (Decision 11). */
void oacl_cpu_cnt_notify_destroy(struct oacl_bcntnotify *n) { cnt_put(n); }

static void cnt_task_release(struct oacl_task *t)
{
    struct cnt_task *c = t->data;
    cnt_put(c->n);
    free(t);
}

static struct oacl_task *cnt_task(struct oacl_queue *q, struct oacl_bcntnotify *n, uint32_t mode, uint32_t value,
                                  char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct cnt_task));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a counting-notify task");
        return NULL;
    }
    struct cnt_task *c = t->data;
    __atomic_add_fetch(&n->refs, 1, __ATOMIC_RELAXED);
    c->n = n;
    c->mode = mode;
    c->value = value;
    c->poll.task = t;
    t->release = cnt_task_release;
    t->dev = q->dev;
    return t;
}

/* ---- records ---------------------------------------------------------------- */

static void record_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct cnt_task *c = t->data;
    uint32_t *cnt = &c->n->count;
    switch (c->mode) {
    case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE:
        __atomic_add_fetch(cnt, c->value, __ATOMIC_SEQ_CST);
        break;
    case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE:
        __atomic_or_fetch(cnt, c->value, __ATOMIC_SEQ_CST);
        break;
    case ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE: /* the documented count & value (Decision 9) */
        __atomic_and_fetch(cnt, c->value, __ATOMIC_SEQ_CST);
        break;
    default: /* SET_VALUE (and resets) */
        __atomic_store_n(cnt, c->value, __ATOMIC_SEQ_CST);
        break;
    }
    oacl_poller_kick();
}

int oacl_cpu_cnt_notify_record(struct oacl_queue *q, struct oacl_bcntnotify *n, uint32_t mode, uint32_t value,
                               char *err)
{
    struct oacl_task *t = cnt_task(q, n, mode, value, err);
    if (!t)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    t->kind = OACL_TASK_INLINE;
    t->run = record_run;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

/* ---- waits -------------------------------------------------------------------- */

static bool holds(uint32_t mode, uint32_t count, uint32_t value)
{
    switch (mode) {
    case ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE:
        return count < value;
    case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE:
        return count == value;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE:
        return count > value;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE:
        return count >= value;
    default: /* EQUAL_WITH_BITMASK */
        return (count & value) == value;
    }
}

/* Releases the wait when the predicate holds, clearing atomically with it. */
static bool wait_ready(struct oacl_poll *p)
{
    struct cnt_task *c = (struct cnt_task *)p;
    uint32_t *cnt = &c->n->count;
    uint32_t cur = __atomic_load_n(cnt, __ATOMIC_SEQ_CST);
    for (;;) {
        if (!holds(c->mode, cur, c->value))
            return false;
        if (!c->clear)
            return true;
        if (__atomic_compare_exchange_n(cnt, &cur, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            return true;
    }
}

static bool wait_start(struct oacl_task *t)
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

static void wait_cancel(struct oacl_task *t)
{
    if (oacl_poller_cancel(t->data))
        oacl_exec_task_done(t);
}

int oacl_cpu_cnt_notify_wait(struct oacl_queue *q, struct oacl_bcntnotify *n, uint32_t mode, uint32_t value,
                             bool clear, uint64_t timeout_ns, char *err)
{
    struct oacl_task *t = cnt_task(q, n, mode, value, err);
    if (!t)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    struct cnt_task *c = t->data;
    c->clear = clear;
    c->poll.ready = wait_ready;
    c->poll.timeout_ns = timeout_ns;
    c->poll.what = "the counting notify's condition";
    t->kind = OACL_TASK_EXTERNAL;
    t->start = wait_start;
    t->cancel = wait_cancel;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}
