/*
 * Process snapshot (acl-rt-reliability.md §3.7, Decision 16):
 * aclrtSnapShotProcessLock / Unlock / Backup / Restore and the stage
 * callbacks. RUNNING -> LOCKED -> BACKED_UP -> LOCKED -> RUNNING.
 *
 * While the process is locked, calls that change device state wait in
 * oacl_snapshot_gate() (the thread that locked passes). Backup synchronises
 * every context and copies every live device allocation into host memory;
 * restore copies the bytes back to the same addresses.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/addr_registry.h"
#include "runtime/runtime.h"

enum snap_state { SNAP_RUNNING = 0, SNAP_LOCKED = 1, SNAP_BACKED_UP = 2 };

#define SNAP_STAGES 6
/* How long a lock waits for calls in progress (CANN: 60 s). */
#define LOCK_WAIT_S 60

struct snap_cb {
    aclrtSnapShotCallBack fn;
    void *args;
    struct snap_cb *next; /* registration order */
};

struct saved_range {
    uintptr_t base;
    size_t size;
    void *copy;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_unlocked = PTHREAD_COND_INITIALIZER;
static uint32_t g_state;           /* enum snap_state; atomic for the gate's fast path */
static pthread_t g_locker;         /* the thread that locked (valid while not RUNNING) */
static struct snap_cb *g_cbs[SNAP_STAGES];
static struct saved_range *g_saved;
static size_t g_nsaved;

void oacl_snapshot_gate(void)
{
    if (__builtin_expect(__atomic_load_n(&g_state, __ATOMIC_ACQUIRE) == SNAP_RUNNING, 1))
        return;
    pthread_mutex_lock(&g_lock);
    while (g_state != SNAP_RUNNING && !pthread_equal(g_locker, pthread_self()))
        pthread_cond_wait(&g_unlocked, &g_lock);
    pthread_mutex_unlock(&g_lock);
}

/* Calls between enter and leave, process-wide; a lock waits for 0. The
 * count and the state are checked in opposite orders on both sides
 * (sequentially consistent), so either the call sees the lock or the lock
 * sees the call. Nested calls on one thread count once. */
static uint32_t g_inflight;
static pthread_cond_t g_drained = PTHREAD_COND_INITIALIZER;
static __thread unsigned tls_depth;

static void leave_count(void)
{
    __atomic_sub_fetch(&g_inflight, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&g_state, __ATOMIC_SEQ_CST) != SNAP_RUNNING) {
        pthread_mutex_lock(&g_lock); /* a lock may wait for the count */
        pthread_cond_broadcast(&g_drained);
        pthread_mutex_unlock(&g_lock);
    }
}

void oacl_snapshot_leave(void)
{
    if (--tls_depth == 0)
        leave_count();
}

void oacl_snapshot_enter(void)
{
    if (tls_depth++ > 0)
        return;
    for (;;) {
        __atomic_add_fetch(&g_inflight, 1, __ATOMIC_SEQ_CST);
        if (__builtin_expect(__atomic_load_n(&g_state, __ATOMIC_SEQ_CST) == SNAP_RUNNING, 1))
            return;
        pthread_mutex_lock(&g_lock);
        bool mine = g_state != SNAP_RUNNING && pthread_equal(g_locker, pthread_self());
        pthread_mutex_unlock(&g_lock);
        if (mine)
            return; /* the thread driving the snapshot */
        leave_count();
        oacl_snapshot_gate();
    }
}

static aclError check_pid(int pid, const void *extra, const char *what, const char *fn)
{
    if (pid != (int)getpid())
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "pid %d is not this process (%d)", pid, (int)getpid());
    if (extra)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is reserved and must be NULL", what);
    return ACL_SUCCESS;
}

/* Runs the callbacks of stage for every device with a context, in
 * ascending device id; 507912 at the first non-zero result. */
static aclError run_stage(aclrtSnapShotStage stage, const char *fn)
{
    pthread_mutex_lock(&g_lock);
    size_t n = 0;
    for (struct snap_cb *c = g_cbs[stage]; c; c = c->next)
        n++;
    struct snap_cb *v = n ? calloc(n, sizeof(*v)) : NULL;
    n = 0;
    if (v)
        for (struct snap_cb *c = g_cbs[stage]; c; c = c->next)
            v[n++] = *c;
    pthread_mutex_unlock(&g_lock);
    uint64_t devices = oacl_ctl_active_devices();
    aclError rc = ACL_SUCCESS;
    for (size_t i = 0; i < n && rc == ACL_SUCCESS; i++)
        for (int32_t d = 0; d < 64 && rc == ACL_SUCCESS; d++) {
            if (!(devices >> d & 1u))
                continue;
            uint32_t r = v[i].fn(d, v[i].args);
            if (r != 0)
                rc = oacl_fail(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, fn,
                               "the stage %d callback returned %u for device %d", (int)stage, r, d);
        }
    free(v);
    return rc;
}

static void set_state(enum snap_state s)
{
    pthread_mutex_lock(&g_lock);
    __atomic_store_n(&g_state, (uint32_t)s, __ATOMIC_RELEASE);
    if (s == SNAP_LOCKED)
        g_locker = pthread_self();
    if (s == SNAP_RUNNING)
        pthread_cond_broadcast(&g_unlocked);
    pthread_mutex_unlock(&g_lock);
}

static enum snap_state get_state(void) { return (enum snap_state)__atomic_load_n(&g_state, __ATOMIC_ACQUIRE); }

OACL_API aclError aclrtSnapShotProcessLock(int pid, void *reserve)
{
    aclError rc = check_pid(pid, reserve, "reserve", __func__);
    if (rc)
        return rc;
    if (get_state() != SNAP_RUNNING)
        return oacl_fail(ACL_ERROR_SNAPSHOT_LOCK_FAILED, __func__, "the process is already locked");
    rc = run_stage(ACL_RT_SNAPSHOT_LOCK_PRE, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&g_lock);
    if (g_state != SNAP_RUNNING) {
        pthread_mutex_unlock(&g_lock);
        return oacl_fail(ACL_ERROR_SNAPSHOT_LOCK_FAILED, __func__, "another thread locked the process meanwhile");
    }
    g_locker = pthread_self();
    __atomic_store_n(&g_state, SNAP_LOCKED, __ATOMIC_SEQ_CST);
    /* Calls already changing device memory on other threads finish first. */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += LOCK_WAIT_S;
    int wrc = 0;
    while (__atomic_load_n(&g_inflight, __ATOMIC_SEQ_CST) > tls_depth && wrc == 0)
        wrc = pthread_cond_timedwait(&g_drained, &g_lock, &until);
    bool drained = __atomic_load_n(&g_inflight, __ATOMIC_SEQ_CST) <= tls_depth;
    if (!drained) {
        __atomic_store_n(&g_state, SNAP_RUNNING, __ATOMIC_SEQ_CST);
        pthread_cond_broadcast(&g_unlocked);
    }
    pthread_mutex_unlock(&g_lock);
    if (!drained)
        return oacl_fail(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT, __func__,
                         "runtime calls on other threads did not finish within %d s", LOCK_WAIT_S);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSnapShotProcessUnlock(int pid, void *reserve)
{
    aclError rc = check_pid(pid, reserve, "reserve", __func__);
    if (rc)
        return rc;
    if (get_state() == SNAP_RUNNING)
        return oacl_fail(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, __func__, "the process is not locked");
    set_state(SNAP_RUNNING);
    return run_stage(ACL_RT_SNAPSHOT_UNLOCK_POST, __func__); /* unlocked even if a callback fails */
}

static void saved_free(void)
{
    for (size_t i = 0; i < g_nsaved; i++)
        free(g_saved[i].copy);
    free(g_saved);
    g_saved = NULL;
    g_nsaved = 0;
}

/* Copies every live device allocation (of every device) to host memory. */
static aclError save_memory(const char *fn)
{
    saved_free();
    size_t cap = 0;
    aclError rc = ACL_SUCCESS;
    oacl_registry_rdlock();
    for (uintptr_t cursor = 1;;) {
        struct oacl_mem_record *r = oacl_registry_overlap_locked(OACL_SPACE_ALLOC, cursor, UINTPTR_MAX - cursor);
        if (!r)
            break;
        cursor = r->base + (r->size ? r->size : 1);
        if (r->kind != OACL_MEM_DEVICE || r->origin != OACL_MEM_ORIGIN_ALLOC || !r->size)
            continue;
        if (g_nsaved == cap) {
            size_t ncap = cap ? 2 * cap : 16;
            struct saved_range *w = realloc(g_saved, ncap * sizeof(*w));
            if (!w) {
                rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
                break;
            }
            g_saved = w;
            cap = ncap;
        }
        void *copy = malloc(r->size);
        if (!copy) {
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
            break;
        }
        oacl_backend()->copy(copy, (const void *)r->base, r->size);
        g_saved[g_nsaved++] = (struct saved_range){.base = r->base, .size = r->size, .copy = copy};
    }
    oacl_registry_unlock();
    if (rc) {
        saved_free();
        return oacl_fail(rc, fn, "out of host memory for the device memory backup");
    }
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs *args)
{
    aclError rc = check_pid(pid, args, "args", __func__);
    if (rc)
        return rc;
    if (get_state() != SNAP_LOCKED)
        return oacl_fail(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, __func__, "the process is not in the locked state");
    if (oacl_ctl_active_devices() == 0)
        return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, __func__, "the process has no active context");
    rc = run_stage(ACL_RT_SNAPSHOT_BACKUP_PRE, __func__);
    if (rc == ACL_SUCCESS)
        rc = oacl_ctl_sync_all(__func__); /* every queued task completes first */
    if (rc == ACL_SUCCESS)
        rc = save_memory(__func__);
    if (rc == ACL_SUCCESS) {
        set_state(SNAP_BACKED_UP);
        rc = run_stage(ACL_RT_SNAPSHOT_BACKUP_POST, __func__);
    }
    return rc;
}

OACL_API aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs *args)
{
    aclError rc = check_pid(pid, args, "args", __func__);
    if (rc)
        return rc;
    if (get_state() != SNAP_BACKED_UP)
        return oacl_fail(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, __func__, "the process has not been backed up");
    rc = run_stage(ACL_RT_SNAPSHOT_RESTORE_PRE, __func__);
    if (rc)
        return rc;
    /* Allocations cannot change while locked: each saved range is still there. */
    for (size_t i = 0; i < g_nsaved; i++)
        oacl_backend()->copy((void *)g_saved[i].base, g_saved[i].copy, g_saved[i].size);
    set_state(SNAP_LOCKED);
    return run_stage(ACL_RT_SNAPSHOT_RESTORE_POST, __func__);
}

OACL_API aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback, void *args)
{
    if ((unsigned)stage >= SNAP_STAGES || !callback)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s",
                         callback ? "stage is not an aclrtSnapShotStage" : "callback is NULL");
    pthread_mutex_lock(&g_lock);
    struct snap_cb **link = &g_cbs[stage];
    for (; *link; link = &(*link)->next)
        if ((*link)->fn == callback) {
            pthread_mutex_unlock(&g_lock);
            return oacl_fail(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED, __func__,
                             "the callback is already registered for stage %d", (int)stage);
        }
    struct snap_cb *c = calloc(1, sizeof(*c));
    if (c) {
        c->fn = callback;
        c->args = args;
        *link = c;
    }
    pthread_mutex_unlock(&g_lock);
    return c ? ACL_SUCCESS : oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
}

OACL_API aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback)
{
    if ((unsigned)stage >= SNAP_STAGES || !callback)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s",
                         callback ? "stage is not an aclrtSnapShotStage" : "callback is NULL");
    pthread_mutex_lock(&g_lock);
    struct snap_cb **link = &g_cbs[stage];
    while (*link && (*link)->fn != callback)
        link = &(*link)->next;
    struct snap_cb *c = *link;
    if (c)
        *link = c->next;
    pthread_mutex_unlock(&g_lock);
    if (!c)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "the callback is not registered for stage %d",
                         (int)stage);
    free(c);
    return ACL_SUCCESS;
}
