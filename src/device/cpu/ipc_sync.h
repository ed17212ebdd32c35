/*
 * Shared state of IPC notifies and IPC events (spec acl-rt-ipc-vmm.md 3.5):
 * one small sealed memory file per object, mapped by every process that
 * holds it. It carries the notify bit or the event's records, a futex word
 * that every change bumps (woken with a shared FUTEX_WAKE), and a holder
 * table of (pid, start time, references) entries from which waits decide
 * that the processes they depend on have died.
 *
 * Record slots of events are single 64-bit words, changed with atomics:
 * (record number << 18) | (holder index << 2) | state. The holder table is
 * changed under a robust process-shared mutex (a holder killed while
 * holding it does not block the others).
 */
#ifndef OACL_DEVICE_CPU_IPC_SYNC_H
#define OACL_DEVICE_CPU_IPC_SYNC_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define OACL_IPC_STATE_MAGIC 0x53435049u /* "IPCS" */
#define OACL_IPC_STATE_VERSION 1u
#define OACL_IPC_STATE_SIZE 65536u
#define OACL_IPC_HOLDERS 64u
#define OACL_IPC_SLOTS 7680u
#define OACL_IPC_NO_HOLDER 0xFFFFu /* a holder that found the table full */

enum oacl_ipc_state_kind { OACL_IPC_STATE_NOTIFY = 1, OACL_IPC_STATE_EVENT = 2 };

/* Slot states. */
#define OACL_SLOT_DONE 0u      /* free, or its record has run */
#define OACL_SLOT_PENDING 1u   /* recorded, not run yet */
#define OACL_SLOT_ABANDONED 2u /* its process died before running it */

#define OACL_SLOT_PACK(rec, holder, state) (((uint64_t)(rec) << 18) | ((uint64_t)(holder) << 2) | (state))
#define OACL_SLOT_REC(w) ((w) >> 18)
#define OACL_SLOT_HOLDER(w) ((uint32_t)(((w) >> 2) & 0xFFFFu))
#define OACL_SLOT_STATE(w) ((uint32_t)((w) & 3u))
#define OACL_REC_MASK ((1ull << 46) - 1)

struct oacl_ipc_holder {
    int32_t pid;       /* 0: free entry */
    uint32_t refs;
    uint64_t start;    /* process start time (proc_info.h) */
};

struct oacl_ipc_state {
    uint32_t magic;
    uint32_t version;
    uint32_t kind;             /* enum oacl_ipc_state_kind */
    uint32_t size;             /* OACL_IPC_STATE_SIZE */
    pthread_mutex_t lock;      /* robust, process-shared: the holder table */
    uint32_t word;             /* futex word, bumped by every change */
    uint32_t overflow;         /* holders not in the table */
    uint32_t others;           /* 1 once a process other than the creator held it */
    uint32_t notify_bit;       /* notify: recorded and not consumed yet */
    int32_t creator_pid;
    uint32_t reserved;
    uint64_t next_rec;         /* event: record numbers handed out */
    uint64_t newest;           /* event: (record << 16) | slot of the newest record, 0: none */
    struct oacl_ipc_holder holders[OACL_IPC_HOLDERS];
    uint64_t slots[OACL_IPC_SLOTS];
};

/* This process's view of one shared state. */
struct oacl_ipc_sync {
    struct oacl_ipc_state *st;
    int fd;               /* kept by the creator (to answer imports), else -1 */
    uint32_t holder;      /* this process's entry, or OACL_IPC_NO_HOLDER */
};

int oacl_ipc_sync_create(enum oacl_ipc_state_kind kind, struct oacl_ipc_sync **out, char *err);
/* Maps a received state file (validated) and enters its holder table; fd
 * stays the caller's. */
int oacl_ipc_sync_attach(int fd, enum oacl_ipc_state_kind kind, struct oacl_ipc_sync **out, char *err);
/* Leaves the holder table and unmaps. */
void oacl_ipc_sync_detach(struct oacl_ipc_sync *s);
/* A new descriptor of the state file (creator only). */
int oacl_ipc_sync_fd(struct oacl_ipc_sync *s, int *fd, char *err);

/* Something changed: bump the word and wake every process sleeping on it. */
void oacl_ipc_sync_bump(struct oacl_ipc_state *st);
/* Sleeps while the word holds `seen`, at most timeout_ns. */
void oacl_ipc_sync_sleep(struct oacl_ipc_state *st, uint32_t seen, int64_t timeout_ns);

/* True while the holder at index idx is a live process (unknown: true). */
bool oacl_ipc_sync_holder_alive(struct oacl_ipc_sync *s, uint32_t idx);
/* Notify rule of 3.5: another process has held it and every other holder
 * has exited (or let go). */
bool oacl_ipc_sync_peers_gone(struct oacl_ipc_sync *s);

#endif /* OACL_DEVICE_CPU_IPC_SYNC_H */
