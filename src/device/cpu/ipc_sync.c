#include "device/cpu/ipc_sync.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "common/proc_info.h"
#include "device/cpu/cpu_device.h"

_Static_assert(sizeof(struct oacl_ipc_state) <= OACL_IPC_STATE_SIZE, "IPC state exceeds its file");

/* Futexes on memory shared between processes: no FUTEX_PRIVATE_FLAG. */
void oacl_ipc_sync_bump(struct oacl_ipc_state *st)
{
    __atomic_add_fetch(&st->word, 1, __ATOMIC_SEQ_CST);
    syscall(SYS_futex, &st->word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void oacl_ipc_sync_sleep(struct oacl_ipc_state *st, uint32_t seen, int64_t timeout_ns)
{
    struct timespec ts = {(time_t)(timeout_ns / 1000000000), (long)(timeout_ns % 1000000000)};
    syscall(SYS_futex, &st->word, FUTEX_WAIT, seen, &ts, NULL, 0);
}

static void st_lock(struct oacl_ipc_state *st)
{
    /* A holder killed inside: the table entries are single fields written
       in an order that leaves them usable; carry on. */
    if (pthread_mutex_lock(&st->lock) == EOWNERDEAD)
        pthread_mutex_consistent(&st->lock);
}

static void st_unlock(struct oacl_ipc_state *st) { pthread_mutex_unlock(&st->lock); }

/* Marks the pending records of holder idx abandoned (its process died). */
static void abandon_slots(struct oacl_ipc_state *st, uint32_t idx)
{
    if (st->kind != OACL_IPC_STATE_EVENT)
        return;
    for (uint32_t i = 0; i < OACL_IPC_SLOTS; i++) {
        uint64_t w = __atomic_load_n(&st->slots[i], __ATOMIC_ACQUIRE);
        while (OACL_SLOT_STATE(w) == OACL_SLOT_PENDING && OACL_SLOT_HOLDER(w) == idx) {
            uint64_t dead = OACL_SLOT_PACK(OACL_SLOT_REC(w), idx, OACL_SLOT_ABANDONED);
            if (__atomic_compare_exchange_n(&st->slots[i], &w, dead, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
                break;
        }
    }
}

/* Enters the holder table (lock held); returns the entry index. */
static uint32_t holder_add_locked(struct oacl_ipc_state *st)
{
    int32_t me = (int32_t)getpid();
    uint64_t start = oacl_proc_self_start();
    if (me != st->creator_pid)
        __atomic_store_n(&st->others, 1, __ATOMIC_RELEASE);
    uint32_t free_idx = OACL_IPC_NO_HOLDER;
    for (uint32_t i = 0; i < OACL_IPC_HOLDERS; i++) {
        struct oacl_ipc_holder *h = &st->holders[i];
        if (h->pid == me && h->start == start) {
            h->refs++;
            return i;
        }
        if (h->pid == 0 && free_idx == OACL_IPC_NO_HOLDER)
            free_idx = i;
    }
    if (free_idx == OACL_IPC_NO_HOLDER) {
        /* Full: reuse the entry of a process that died without leaving. */
        for (uint32_t i = 0; i < OACL_IPC_HOLDERS; i++) {
            struct oacl_ipc_holder *h = &st->holders[i];
            if (!oacl_proc_alive(h->pid, h->start)) {
                abandon_slots(st, i);
                free_idx = i;
                break;
            }
        }
    }
    if (free_idx == OACL_IPC_NO_HOLDER) {
        st->overflow++;
        return OACL_IPC_NO_HOLDER;
    }
    struct oacl_ipc_holder *h = &st->holders[free_idx];
    h->start = start;
    h->refs = 1;
    __atomic_store_n(&h->pid, me, __ATOMIC_RELEASE);
    return free_idx;
}

static void holder_remove(struct oacl_ipc_sync *s)
{
    struct oacl_ipc_state *st = s->st;
    st_lock(st);
    if (s->holder == OACL_IPC_NO_HOLDER) {
        if (st->overflow)
            st->overflow--;
    } else {
        struct oacl_ipc_holder *h = &st->holders[s->holder];
        if (h->pid == (int32_t)getpid() && h->refs && --h->refs == 0) {
            __atomic_store_n(&h->pid, 0, __ATOMIC_RELEASE);
            h->start = 0;
        }
    }
    st_unlock(st);
    oacl_ipc_sync_bump(st); /* waits elsewhere may have lost their last peer */
}

int oacl_ipc_sync_create(enum oacl_ipc_state_kind kind, struct oacl_ipc_sync **out, char *err)
{
    struct oacl_ipc_sync *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    int fd = -1;
    int rc = oacl_cpu_memfd(kind == OACL_IPC_STATE_EVENT ? "oacl-ipc-event" : "oacl-ipc-notify",
                            OACL_IPC_STATE_SIZE, &fd, err);
    if (rc) {
        free(s);
        return rc;
    }
    struct oacl_ipc_state *st = mmap(NULL, OACL_IPC_STATE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (st == MAP_FAILED) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot map shared state: %s", strerror(errno));
        close(fd);
        free(s);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&st->lock, &a);
    pthread_mutexattr_destroy(&a);
    st->kind = kind;
    st->size = OACL_IPC_STATE_SIZE;
    st->creator_pid = (int32_t)getpid();
    st->version = OACL_IPC_STATE_VERSION;
    __atomic_store_n(&st->magic, OACL_IPC_STATE_MAGIC, __ATOMIC_RELEASE);
    st_lock(st);
    s->holder = holder_add_locked(st);
    st_unlock(st);
    s->st = st;
    s->fd = fd;
    *out = s;
    return ACL_SUCCESS;
}

int oacl_ipc_sync_attach(int fd, enum oacl_ipc_state_kind kind, struct oacl_ipc_sync **out, char *err)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0 || (uint64_t)sb.st_size < OACL_IPC_STATE_SIZE) {
        snprintf(err, OACL_BACKEND_ERRLEN, "the shared state received is too small");
        return ACL_ERROR_RT_IPC_ERROR;
    }
    struct oacl_ipc_sync *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct oacl_ipc_state *st = mmap(NULL, OACL_IPC_STATE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (st == MAP_FAILED) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot map shared state: %s", strerror(errno));
        free(s);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    if (__atomic_load_n(&st->magic, __ATOMIC_ACQUIRE) != OACL_IPC_STATE_MAGIC ||
        st->version != OACL_IPC_STATE_VERSION || st->kind != (uint32_t)kind || st->size != OACL_IPC_STATE_SIZE) {
        munmap(st, OACL_IPC_STATE_SIZE);
        free(s);
        snprintf(err, OACL_BACKEND_ERRLEN, "the shared state received has an unknown layout (version mismatch)");
        return ACL_ERROR_RT_IPC_ERROR;
    }
    st_lock(st);
    s->holder = holder_add_locked(st);
    st_unlock(st);
    s->st = st;
    s->fd = -1;
    *out = s;
    return ACL_SUCCESS;
}

void oacl_ipc_sync_detach(struct oacl_ipc_sync *s)
{
    holder_remove(s);
    munmap(s->st, OACL_IPC_STATE_SIZE);
    if (s->fd >= 0)
        close(s->fd);
    free(s);
}

int oacl_ipc_sync_fd(struct oacl_ipc_sync *s, int *fd, char *err)
{
    if (s->fd < 0) {
        snprintf(err, OACL_BACKEND_ERRLEN, "this process did not create the object");
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    *fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0);
    if (*fd < 0) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot duplicate a descriptor: %s", strerror(errno));
        return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    return ACL_SUCCESS;
}

bool oacl_ipc_sync_holder_alive(struct oacl_ipc_sync *s, uint32_t idx)
{
    if (idx >= OACL_IPC_HOLDERS)
        return true; /* not tracked: cannot tell */
    struct oacl_ipc_state *st = s->st;
    st_lock(st);
    struct oacl_ipc_holder h = st->holders[idx];
    st_unlock(st);
    if (h.pid == (int32_t)getpid())
        return true;
    return h.pid != 0 && oacl_proc_alive(h.pid, h.start);
}

bool oacl_ipc_sync_peers_gone(struct oacl_ipc_sync *s)
{
    struct oacl_ipc_state *st = s->st;
    if (!__atomic_load_n(&st->others, __ATOMIC_ACQUIRE))
        return false; /* nobody else has come yet */
    struct oacl_ipc_holder hs[OACL_IPC_HOLDERS];
    st_lock(st);
    uint32_t overflow = st->overflow;
    memcpy(hs, st->holders, sizeof(hs));
    st_unlock(st);
    if (overflow > (s->holder == OACL_IPC_NO_HOLDER ? 1u : 0u))
        return false; /* untracked holders: cannot tell */
    int32_t me = (int32_t)getpid();
    for (uint32_t i = 0; i < OACL_IPC_HOLDERS; i++)
        if (hs[i].pid != 0 && hs[i].pid != me && oacl_proc_alive(hs[i].pid, hs[i].start))
            return false;
    return true;
}
