/*
 * IPC events of the CPU device (spec acl-rt-ipc-vmm.md 4.3, 3.5): the
 * event's state lives in a shared memory file (ipc_sync.h) so that a record
 * queued in one process releases waits in another.
 *
 * A record takes a free slot and a new record number, stamps the slot
 * (number, recording holder, PENDING) and becomes the newest record; when
 * its queue reaches it, the slot turns DONE. A wait or synchronise looks at
 * the newest record as of the call and is over once that slot no longer
 * holds that record PENDING. If the process that queued the record dies
 * before running it, waits fail with ACL_ERROR_RT_IPC_ERROR (checked at
 * most every 100 ms per wait). Record errors are not carried across.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/ipc_event.h"
#include "device/cpu/ipc_sync.h"

#define MAX_OUTSTANDING 1024u       /* records per holder and event (decision D24) */
#define PEER_CHECK_NS 100000000ull  /* liveness checks per wait */
#define SLEEP_SLICE_NS 100000000ll  /* host-side sleeps are re-checked this often */

struct oacl_ipc_event {
    uint32_t refs;            /* atomic: the event + queued tasks */
    struct oacl_ipc_sync *sync;
    uint32_t outstanding;     /* atomic: records queued here, not run yet */
};

static void ipc_event_put(struct oacl_ipc_event *ie)
{
    if (__atomic_sub_fetch(&ie->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        oacl_ipc_sync_detach(ie->sync);
        free(ie);
    }
}

static int wrap(struct oacl_ipc_sync *s, struct oacl_ipc_event **out, char *err)
{
    struct oacl_ipc_event *ie = calloc(1, sizeof(*ie));
    if (!ie) {
        oacl_ipc_sync_detach(s);
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for an IPC event");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    ie->refs = 1;
    ie->sync = s;
    *out = ie;
    return ACL_SUCCESS;
}

int oacl_cpu_ipc_event_create(struct oacl_ipc_event **out, char *err)
{
    struct oacl_ipc_sync *s = NULL;
    int rc = oacl_ipc_sync_create(OACL_IPC_STATE_EVENT, &s, err);
    return rc ? rc : wrap(s, out, err);
}

int oacl_cpu_ipc_event_import(int fd, struct oacl_ipc_event **out, char *err)
{
    struct oacl_ipc_sync *s = NULL;
    int rc = oacl_ipc_sync_attach(fd, OACL_IPC_STATE_EVENT, &s, err);
    return rc ? rc : wrap(s, out, err);
}

void oacl_cpu_ipc_event_destroy(struct oacl_ipc_event *ie) { ipc_event_put(ie); }

int oacl_cpu_ipc_event_fd(struct oacl_ipc_event *ie, int *fd, char *err) { return oacl_ipc_sync_fd(ie->sync, fd, err); }

/* ---- records ---------------------------------------------------------------- */

struct ipc_task {
    struct oacl_poll poll;          /* waits only */
    struct oacl_ipc_event *ie;
    uint32_t slot;
    uint64_t rec;
    bool is_record;
    bool done;                      /* record: its slot was completed */
    uint64_t next_check_ns;
};

static void complete_record(struct ipc_task *it)
{
    struct oacl_ipc_state *st = it->ie->sync->st;
    uint64_t w = __atomic_load_n(&st->slots[it->slot], __ATOMIC_ACQUIRE);
    while (OACL_SLOT_REC(w) == it->rec && OACL_SLOT_STATE(w) == OACL_SLOT_PENDING) {
        uint64_t done = OACL_SLOT_PACK(it->rec, OACL_SLOT_HOLDER(w), OACL_SLOT_DONE);
        if (__atomic_compare_exchange_n(&st->slots[it->slot], &w, done, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            break;
    }
    it->done = true;
    __atomic_sub_fetch(&it->ie->outstanding, 1, __ATOMIC_ACQ_REL);
    oacl_ipc_sync_bump(st);
    oacl_poller_kick();
}

static void record_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    complete_record(t->data);
}

static void ipc_task_release(struct oacl_task *t)
{
    struct ipc_task *it = t->data;
    if (it->is_record && !it->done)
        complete_record(it); /* dropped unrun (forced destroy): waits must not hang */
    ipc_event_put(it->ie);
    free(t);
}

static struct oacl_task *ipc_task(struct oacl_queue *q, struct oacl_ipc_event *ie, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct ipc_task));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for an IPC event task");
        return NULL;
    }
    struct ipc_task *it = t->data;
    it->ie = ie;
    it->poll.task = t;
    __atomic_add_fetch(&ie->refs, 1, __ATOMIC_RELAXED);
    t->release = ipc_task_release;
    t->dev = q->dev;
    return t;
}

int oacl_cpu_ipc_event_record(struct oacl_queue *q, struct oacl_ipc_event *ie, char *err)
{
    struct oacl_ipc_state *st = ie->sync->st;
    if (__atomic_add_fetch(&ie->outstanding, 1, __ATOMIC_ACQ_REL) > MAX_OUTSTANDING) {
        __atomic_sub_fetch(&ie->outstanding, 1, __ATOMIC_ACQ_REL);
        snprintf(err, OACL_BACKEND_ERRLEN, "%u records of this IPC event are outstanding already", MAX_OUTSTANDING);
        return ACL_ERROR_RT_NO_EVENT_RESOURCE;
    }
    struct oacl_task *t = ipc_task(q, ie, err);
    if (!t) {
        __atomic_sub_fetch(&ie->outstanding, 1, __ATOMIC_ACQ_REL);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct ipc_task *it = t->data;
    uint64_t rec = (__atomic_add_fetch(&st->next_rec, 1, __ATOMIC_ACQ_REL)) & OACL_REC_MASK;
    if (rec == 0) /* wrapped (after 2^46 records): 0 means "none" */
        rec = (__atomic_add_fetch(&st->next_rec, 1, __ATOMIC_ACQ_REL)) & OACL_REC_MASK;
    uint32_t holder = ie->sync->holder;
    uint64_t stamp = OACL_SLOT_PACK(rec, holder, OACL_SLOT_PENDING);
    uint32_t found = OACL_IPC_SLOTS;
    for (uint32_t i = 0; i < OACL_IPC_SLOTS && found == OACL_IPC_SLOTS; i++) {
        uint32_t slot = (uint32_t)((rec + i) % OACL_IPC_SLOTS);
        uint64_t w = __atomic_load_n(&st->slots[slot], __ATOMIC_ACQUIRE);
        if (OACL_SLOT_STATE(w) != OACL_SLOT_PENDING &&
            __atomic_compare_exchange_n(&st->slots[slot], &w, stamp, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            found = slot;
    }
    if (found == OACL_IPC_SLOTS) {
        it->done = true; /* nothing to complete */
        __atomic_sub_fetch(&ie->outstanding, 1, __ATOMIC_ACQ_REL);
        oacl_task_put(t);
        snprintf(err, OACL_BACKEND_ERRLEN, "all %u record slots of this IPC event are in use", OACL_IPC_SLOTS);
        return ACL_ERROR_RT_NO_EVENT_RESOURCE;
    }
    it->slot = found;
    it->rec = rec;
    it->is_record = true;
    /* This record is the newest unless a later-numbered one got there. */
    uint64_t cur = __atomic_load_n(&st->newest, __ATOMIC_ACQUIRE);
    uint64_t mine = (rec << 16) | it->slot;
    while ((cur >> 16) < rec &&
           !__atomic_compare_exchange_n(&st->newest, &cur, mine, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
    oacl_ipc_sync_bump(st);
    t->kind = OACL_TASK_INLINE;
    t->run = record_run;
    t->trace_type = OACL_TT_EVENT_RECORD;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

/* ---- the newest record ------------------------------------------------------------- */

enum rec_state { REC_NONE, REC_PENDING, REC_DONE, REC_DEAD };

/* State of record rec in slot; a pending record whose process is gone is
 * dead (the check costs a /proc read: callers rate-limit it). */
static enum rec_state rec_state(struct oacl_ipc_event *ie, uint32_t slot, uint64_t rec, bool check_peer)
{
    uint64_t w = __atomic_load_n(&ie->sync->st->slots[slot], __ATOMIC_ACQUIRE);
    if (OACL_SLOT_REC(w) != rec || OACL_SLOT_STATE(w) == OACL_SLOT_DONE)
        return REC_DONE; /* run, and the slot perhaps reused since */
    if (OACL_SLOT_STATE(w) == OACL_SLOT_ABANDONED)
        return REC_DEAD;
    if (check_peer && !oacl_ipc_sync_holder_alive(ie->sync, OACL_SLOT_HOLDER(w)))
        return REC_DEAD;
    return REC_PENDING;
}

/* The newest record as of now: false when there is none. */
static bool newest(struct oacl_ipc_event *ie, uint32_t *slot, uint64_t *rec)
{
    uint64_t n = __atomic_load_n(&ie->sync->st->newest, __ATOMIC_ACQUIRE);
    *rec = n >> 16;
    *slot = (uint32_t)(n & 0xFFFFu);
    return *rec != 0 && *slot < OACL_IPC_SLOTS;
}

static const char *const g_dead_msg =
    "the process that recorded the IPC event exited before its record ran; the wait can never end";

static bool wait_ready(struct oacl_poll *p)
{
    struct ipc_task *it = (struct ipc_task *)p;
    uint64_t now = oacl_now_ns();
    bool check = now >= it->next_check_ns;
    if (check)
        it->next_check_ns = now + PEER_CHECK_NS;
    enum rec_state s = rec_state(it->ie, it->slot, it->rec, check);
    if (s == REC_DEAD) {
        p->error = ACL_ERROR_RT_IPC_ERROR;
        p->error_msg = g_dead_msg;
    }
    return s != REC_PENDING;
}

static bool wait_start(struct oacl_task *t)
{
    struct oacl_poll *p = t->data;
    if (p->ready(p)) {
        if (p->error)
            oacl_exec_task_fail(t, p->error, p->error_msg);
        return true;
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    if (oacl_poller_park(p, err) != 0) {
        oacl_exec_task_fail(t, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, err);
        return true;
    }
    return false;
}

static void wait_cancel(struct oacl_task *t)
{
    struct oacl_poll *p = t->data;
    if (oacl_poller_cancel(p))
        oacl_exec_task_done(t);
}

int oacl_cpu_ipc_event_wait(struct oacl_queue *q, struct oacl_ipc_event *ie, uint64_t timeout_ns, bool *queued,
                            char *err)
{
    uint32_t slot;
    uint64_t rec;
    *queued = false;
    if (!newest(ie, &slot, &rec) || rec_state(ie, slot, rec, false) == REC_DONE)
        return ACL_SUCCESS; /* never recorded, or run already: nothing to wait for */
    struct oacl_task *t = ipc_task(q, ie, err);
    if (!t)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    struct ipc_task *it = t->data;
    it->slot = slot;
    it->rec = rec;
    it->poll.ready = wait_ready;
    it->poll.timeout_ns = timeout_ns;
    it->poll.what = "the IPC event's record";
    t->kind = OACL_TASK_EXTERNAL;
    t->start = wait_start;
    t->cancel = wait_cancel;
    *queued = true;
    t->trace_type = OACL_TT_EVENT_WAIT;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

void oacl_cpu_ipc_event_query(struct oacl_ipc_event *ie, struct oacl_event_state *st)
{
    memset(st, 0, sizeof(*st));
    uint32_t slot;
    uint64_t rec;
    if (!newest(ie, &slot, &rec))
        return;
    enum rec_state s = rec_state(ie, slot, rec, true);
    st->recorded = true;
    st->complete = s == REC_DONE;
    if (s == REC_DEAD)
        st->ipc_error = ACL_ERROR_RT_IPC_ERROR;
}

int oacl_cpu_ipc_event_sync(struct oacl_ipc_event *ie, int64_t timeout_ns)
{
    uint32_t slot;
    uint64_t rec;
    if (!newest(ie, &slot, &rec))
        return 0;
    struct oacl_ipc_state *st = ie->sync->st;
    uint64_t start = oacl_now_ns();
    uint64_t deadline = timeout_ns >= 0 ? start + (uint64_t)timeout_ns : UINT64_MAX;
    uint64_t next_check = start;
    for (;;) {
        uint32_t seen = __atomic_load_n(&st->word, __ATOMIC_SEQ_CST);
        uint64_t now = oacl_now_ns();
        bool check = now >= next_check;
        if (check)
            next_check = now + PEER_CHECK_NS;
        enum rec_state s = rec_state(ie, slot, rec, check);
        if (s == REC_DONE)
            return 0;
        if (s == REC_DEAD)
            return ACL_ERROR_RT_IPC_ERROR;
        if (now >= deadline)
            return ETIMEDOUT;
        /* Records in this process wake the word too; other processes' too,
           and the sleep is short enough for the liveness checks. */
        int64_t sleep = SLEEP_SLICE_NS;
        if (deadline != UINT64_MAX && (int64_t)(deadline - now) < sleep)
            sleep = (int64_t)(deadline - now);
        oacl_ipc_sync_sleep(st, seen, sleep);
    }
}
