/*
 * Internals of the CPU device: devices, queues and tasks shared by the
 * executor, the kernel runner and the ops table.
 */
#ifndef OACL_DEVICE_CPU_CPU_DEVICE_H
#define OACL_DEVICE_CPU_CPU_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/backend.h"
#include "oacl/kernel_abi.h"

struct oacl_arena;

struct oacl_bdev {
    uint32_t index;
    const struct oacl_soc_profile *soc;
    uint32_t ub_size;
    uint32_t npu_arch;
    struct oacl_arena *arena;   /* device memory (device_mem.c) */
};

struct oacl_task;
/* Runs one unit (one kernel block) of a task. */
typedef void (*oacl_task_unit_fn)(struct oacl_task *t, uint32_t unit);

/*
 * Kinds of task. UNITS tasks (kernels, copies) are split into units that
 * worker threads and synchronising threads claim. The others run when they
 * reach the head of their queue: an INLINE task's run(t, 0) is called at
 * once by whichever thread advanced the queue (an event record); an
 * EXTERNAL task's start(t) hands it to someone who later calls
 * oacl_exec_task_done(t) (an event wait, a host function) — start returns
 * true when it finished on the spot.
 */
enum oacl_task_kind { OACL_TASK_UNITS = 0, OACL_TASK_INLINE = 1, OACL_TASK_EXTERNAL = 2 };

/*
 * A task is split into `units` that any executing thread may claim with an
 * atomic increment; the thread that finishes the last unit completes the
 * task. References: one held by the queue until completion, one by every
 * thread working on it.
 */
struct oacl_task {
    struct oacl_task *next;          /* queue FIFO (executor lock) */
    struct oacl_queue *queue;
    uint64_t seq;                    /* position in the queue, from 1 */
    uint32_t units;
    uint32_t next_unit;              /* atomic */
    uint32_t units_done;             /* atomic */
    uint32_t refs;                   /* atomic */
    int failed;                      /* atomic: first failure code, 0 = none */
    uint64_t start_ns;               /* atomic: when the first unit started */
    oacl_task_unit_fn run;
    void (*release)(struct oacl_task *t);
    uint8_t kind;                    /* enum oacl_task_kind */
    bool started;                    /* INLINE/EXTERNAL: taken to run (executor lock) */
    bool (*start)(struct oacl_task *t);
    /* EXTERNAL, optional: called when the task is discarded after it was
       started (forced stream destroy); must lead to oacl_exec_task_done
       soon. Tasks dropped before starting are only released. */
    void (*cancel)(struct oacl_task *t);
    void *data;                      /* payload of non-kernel tasks */
    struct oacl_task *link;          /* free for whoever holds a started task */
    char fail_msg[384];              /* written by the thread that set failed */

    /* kernel launch payload */
    struct oacl_module *module;
    const struct oacl_kernel_desc *kernel;
    const void *args;
    uint32_t block_offset;
    uint64_t timeout_ns;
    struct oacl_bdev *dev;
};

struct oacl_queue {
    struct oacl_bdev *dev;
    /* Fields below are guarded by the executor lock unless marked atomic. */
    struct oacl_task *head, *tail;
    uint64_t submitted;              /* seq of the newest task */
    uint64_t completed;              /* atomic: every task with seq <= completed is gone */
    uint32_t done_word;              /* atomic futex word, bumped when tasks leave */
    uint32_t waiters;                /* atomic: threads sleeping on done_word */
    struct oacl_queue *ready_prev, *ready_next;
    bool in_ready;
    int fault;                       /* first task failure since the last sync */
    char fault_msg[OACL_BACKEND_ERRLEN];
};

struct oacl_module {
    uint32_t refs;                   /* atomic */
    void *dl;
    char *path;
    const struct oacl_kernel_binary_desc *desc;
    struct oacl_kernel_info *infos;
    uint32_t num_kernels;
};

/* ---- executor (executor.c) ---- */

/* Starts the worker pool on first use; later calls return its status. */
int oacl_exec_start(const struct oacl_soc_profile *soc);
uint32_t oacl_exec_worker_count(void);
void oacl_exec_queue_init(struct oacl_queue *q, struct oacl_bdev *dev);
/* Queues t on q (takes over the caller's reference). */
void oacl_exec_submit(struct oacl_queue *q, struct oacl_task *t);
/* Completes a started EXTERNAL task (from any thread). */
void oacl_exec_task_done(struct oacl_task *t);
/* seq of the newest task queued on q. */
uint64_t oacl_exec_submitted(struct oacl_queue *q);
/* Waits (helping with q's work) until every task up to target has left q.
 * Returns 0, or ETIMEDOUT when timeout_ns (>= 0) passes first. */
int oacl_exec_wait(struct oacl_queue *q, uint64_t target, int64_t timeout_ns);
/* Drops every task of q that has not started yet. */
void oacl_exec_discard_pending(struct oacl_queue *q);
/* q's recorded failure (0 if none), left in place. */
int oacl_exec_peek_fault(struct oacl_queue *q);
/* Takes q's recorded failure (0 if none) and clears it. */
int oacl_exec_take_fault(struct oacl_queue *q, char *msg, size_t len);
/* Marks t failed (first failure wins) with a message. */
void oacl_exec_task_fail(struct oacl_task *t, int code, const char *msg);
void oacl_task_put(struct oacl_task *t);

/* ---- kernel runner (kernel_exec.c) ---- */

/* Unit function of kernel tasks: runs one block with fault capture. */
void oacl_kernel_run_block(struct oacl_task *t, uint32_t unit);
/* Per-thread state of an executing thread; allocated on first use. */
void oacl_exec_thread_release(void);
/* Flushes what kernels printed (stdout) if they printed since the last flush. */
void oacl_kernel_output_flush(void);

/* ---- host memory (host_mem.c) ---- */

int oacl_cpu_host_alloc(struct oacl_bdev *dev, size_t size, void **out, bool *locked, char *err);
void oacl_cpu_host_free(void *ptr, size_t size);
int oacl_cpu_host_lock(void *ptr, size_t size, bool *locked, char *err);
void oacl_cpu_host_unlock(void *ptr, size_t size);
int oacl_cpu_host_map(struct oacl_bdev *dev, void *ptr, size_t size, bool runtime_memory,
                      struct oacl_host_map *out, char *err);
void oacl_cpu_host_unmap(void *ptr, size_t size, const struct oacl_host_map *map);

/* ---- device memory (device_mem.c) ---- */

int oacl_cpu_arena_init(struct oacl_bdev *dev, uint64_t capacity, char *err);
int oacl_cpu_dev_alloc(struct oacl_bdev *dev, size_t size, size_t align, void **out, char *err);
/* Returns an extent at once; the caller made sure no queued work uses it. */
void oacl_cpu_dev_release(struct oacl_bdev *dev, void *ptr, size_t size);

/* ---- events (event.c) ---- */

int oacl_cpu_event_create(struct oacl_bdev *dev, struct oacl_bevent **out, char *err);
void oacl_cpu_event_destroy(struct oacl_bevent *e);
int oacl_cpu_event_record(struct oacl_queue *q, struct oacl_bevent *e, char *err);
int oacl_cpu_event_wait(struct oacl_queue *q, struct oacl_bevent *e, bool *queued, char *err);
int oacl_cpu_event_reset(struct oacl_queue *q, struct oacl_bevent *e, char *err);
void oacl_cpu_event_query(struct oacl_bevent *e, struct oacl_event_state *st);
/* 0, or ETIMEDOUT. */
int oacl_cpu_event_sync(struct oacl_bevent *e, int64_t timeout_ns);

/* ---- kernel binaries (kernel_module.c) ---- */

int oacl_cpu_module_load(struct oacl_bdev *dev, const char *path, struct oacl_module **out,
                         const struct oacl_kernel_info **kernels, uint32_t *num_kernels, char *err);
void oacl_cpu_module_ref(struct oacl_module *m);
void oacl_cpu_module_put(struct oacl_module *m);

/* ---- small helpers ---- */

uint64_t oacl_now_ns(void);

#endif /* OACL_DEVICE_CPU_CPU_DEVICE_H */
