/*
 * Internals of the CPU device: devices, queues and tasks shared by the
 * executor, the kernel runner and the ops table.
 */
#ifndef OACL_DEVICE_CPU_CPU_DEVICE_H
#define OACL_DEVICE_CPU_CPU_DEVICE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/smi_page.h"
#include "common/trace.h"
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
    uint32_t workers;                /* atomic: threads working on it now */
    uint32_t max_workers;            /* 0: any number (a core limit otherwise) */
    int failed;                      /* atomic: first failure code, 0 = none */
    uint32_t killed;                 /* atomic: stopped by stop/abort (not a failure) */
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
    /* Observation (trace_hooks.c): profiling, dumps, the status page. */
    uint8_t trace_type;              /* enum oacl_task_type, set by the task's creator */
    uint8_t trace_on;                /* recorded by the profiler (decided at submit) */
    uint32_t dump_state;             /* atomic: input snapshot 0 todo, 1 taking, 2 done */
    uint32_t dump_left;              /* atomic: blocks still to finish (output snapshot) */
    uint64_t trace_conn;             /* connection id of the API call that queued it */
    uint64_t trace_bytes;            /* copies and fills: bytes */
    uint64_t trace_busy_ns;          /* atomic: sum of block execution times */
    struct oacl_dump_plan *dump;     /* kernel launches selected for a data dump */
    char fail_msg[512];              /* written by the thread that set failed */

    /* kernel launch payload */
    struct oacl_module *module;
    const struct oacl_kernel_desc *kernel;
    const void *args;
    uint32_t block_offset;
    uint64_t timeout_ns;
    struct oacl_bdev *dev;
    /* fault isolation and exception reports (fault.h) */
    bool aiv;                        /* vector-only kernel: AIV fault codes */
    size_t args_size;                /* bytes of the argument blob */
    void *fault_user;                /* struct oacl_launch.fault_user */
    void *fault_func;                /* struct oacl_launch.fault_func */
    uint32_t submit_tid;             /* gettid() of the submitting thread */
    /* float overflow (fp_overflow.c) */
    uint32_t fp_ctl;                 /* OACL_LAUNCH_FP_* of the launch */
    uint32_t fp_hit;                 /* atomic: a block overflowed with detection on */
    void (*fp_overflow)(void *arg);
    void *fp_overflow_arg;
};

struct oacl_queue {
    struct oacl_bdev *dev;
    struct oacl_fail_group *group;   /* the context's failure policy */
    /* Fields below are guarded by the executor lock unless marked atomic. */
    struct oacl_task *head, *tail;
    uint64_t submitted;              /* seq of the newest task */
    uint64_t completed;              /* atomic: every task with seq <= completed is gone */
    uint32_t done_word;              /* atomic futex word, bumped when tasks leave */
    uint32_t waiters;                /* atomic: threads sleeping on done_word */
    uint32_t finishers;              /* atomic: threads still touching q after a task left */
    struct oacl_queue *ready_prev, *ready_next;
    bool in_ready;
    int fault;                       /* first task failure since the last sync */
    char fault_msg[OACL_BACKEND_ERRLEN];
    int32_t stream_id;               /* aclrtStreamGetId of its stream (queue_set_id) */
    uint64_t trace_last_end;         /* end of the newest traced task (finishing thread) */
    uint32_t held;                   /* atomic: stopped (aclrtStreamStop): no task starts */
    struct oacl_graph_rec *rec;      /* task graphs: a graph stream records its tasks (graph_exec.c) */
};

/* An exported data object of a module (aclrtBinaryGetGlobal). */
struct oacl_module_object {
    const char *name;                /* into the module's copy of its string table */
    uintptr_t addr;
    size_t size;
};

/*
 * One loaded instance of a kernel binary. Every load is its own instance
 * (own globals): the first from the file itself, later ones, while the
 * file is loaded, from a private copy (memfd, else a temporary file) that
 * stays open until the instance is unloaded, so that the dynamic loader
 * never mistakes one instance for another.
 */
struct oacl_module {
    uint32_t refs;                   /* atomic */
    void *dl;
    char *path;
    const struct oacl_kernel_binary_desc *desc;
    struct oacl_kernel_info *infos;
    uint32_t num_kernels;
    int copy_fd;                     /* private copy's descriptor, -1: none */
    char *copy_path;                 /* private temporary file, removed at unload */
    uintptr_t base;                  /* image: lowest PT_LOAD page ... */
    size_t extent;                   /* ... to the end of the highest, page rounded */
    struct oacl_module_range *ranges;
    uint32_t num_ranges;
    struct oacl_module_object *objects;
    uint32_t num_objects;
    char *strtab;
    /* device-kernel chapter */
    bool linked;                     /* part of the program (module_linked): nothing to unload */
    bool from_memory;                /* loaded from an image in memory (messages) */
    bool cpu_library;                /* a CPU-kernel library (no kernel table) */
    pthread_mutex_t cpu_lock;        /* guards cpu_kernels */
    struct oacl_cpu_kernel *cpu_kernels;
    struct oacl_module_object *funcs;/* exported functions (kernel_code) */
    uint32_t num_funcs;
};

/* ---- executor (executor.c) ---- */

/* Starts the worker pool on first use; later calls return its status. */
int oacl_exec_start(const struct oacl_soc_profile *soc);
uint32_t oacl_exec_worker_count(void);
void oacl_exec_queue_init(struct oacl_queue *q, struct oacl_bdev *dev, struct oacl_fail_group *group);
/* Call before freeing a drained q: waits until no thread touches it. */
void oacl_exec_queue_fini(struct oacl_queue *q);
/* True once q's context stopped after a failure (ACL_STOP_ON_FAILURE). */
bool oacl_exec_stopped(const struct oacl_queue *q);
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
/* A zeroed task (one reference) with `payload` bytes at t->data. */
struct oacl_task *oacl_task_new(size_t payload);

/* ---- execution control: stop and abort (executor.c, end) ---- */

/* held: no task of q starts any more, and waits for q (oacl_exec_wait)
 * return ECANCELED at once; !held: q runs again. */
void oacl_exec_hold(struct oacl_queue *q, bool held);
bool oacl_exec_held(const struct oacl_queue *q);
/* Interrupts q's running task without failing it (unclaimed blocks are
 * skipped, running ones are interrupted by oacl_kernel_interrupt, a
 * started wait is cancelled) and waits until it has left q: 0, or
 * ETIMEDOUT after timeout_ns (< 0: no limit). */
int oacl_exec_kill_running(struct oacl_queue *q, int64_t timeout_ns);

/* ---- kernel runner (kernel_exec.c) ---- */

/* Asks the blocks of t that are running to stop (t->killed is set): they
 * unwind at their next kernel API call. */
void oacl_kernel_interrupt(struct oacl_task *t);

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

/* ---- managed memory (managed_mem.c) and memory hints (mem_hints.c) ---- */

int oacl_cpu_managed_alloc(size_t size, void **out, char *err);
/* Returns an extent at once; the caller made sure no queued work uses it. */
void oacl_cpu_managed_release(void *ptr, size_t size);
int oacl_cpu_queue_prefetch(struct oacl_queue *q, const void *const *ptrs, const size_t *sizes,
                            const int32_t *targets, size_t count, char *err);
int oacl_cpu_queue_cmo(struct oacl_queue *q, const void *ptr, size_t size, const void *desc, int op, char *err);

/* ---- events (event.c) ---- */

int oacl_cpu_event_create(struct oacl_bdev *dev, struct oacl_bevent **out, char *err);
void oacl_cpu_event_destroy(struct oacl_bevent *e);
int oacl_cpu_event_record(struct oacl_queue *q, struct oacl_bevent *e, char *err);
int oacl_cpu_event_wait(struct oacl_queue *q, struct oacl_bevent *e, uint64_t timeout_ns, bool *queued, char *err);
int oacl_cpu_event_reset(struct oacl_queue *q, struct oacl_bevent *e, char *err);
void oacl_cpu_event_query(struct oacl_bevent *e, struct oacl_event_state *st);
/* 0, or ETIMEDOUT. */
int oacl_cpu_event_sync(struct oacl_bevent *e, int64_t timeout_ns);

/* ---- the poller (poller.c) ---- */

/* A stream wait (an EXTERNAL task) that the poller re-checks until ready()
 * holds or its timeout passes; then it fails the task on timeout
 * (ACL_ERROR_RT_TASK_TIMEOUT) and completes it. */
struct oacl_poll {
    struct oacl_task *task;
    bool (*ready)(struct oacl_poll *p);  /* may consume what it waits for */
    uint64_t timeout_ns;                 /* 0: none; counted from parking */
    const char *what;                    /* for the timeout message */
    int error;                           /* set by ready() (returning true) to fail the wait */
    const char *error_msg;               /* static text for error */
    void (*expired)(struct oacl_poll *p); /* optional: told before a timed-out wait is failed and completed */
    /* poller's own */
    uint64_t deadline_ns;
    struct oacl_poll *prev, *next;
    bool parked;
    bool timed_out;
};

/* Parks p (its task has started); 0 or an error code with err filled. */
int oacl_poller_park(struct oacl_poll *p, char *err);
/* Takes p back (forced stream destroy): true if it was still parked, so the
 * caller completes the task; false if the poller already did. */
bool oacl_poller_cancel(struct oacl_poll *p);
/* Something parked waits may be waiting for has changed. */
void oacl_poller_kick(void);
/* True while any wait is parked. */
bool oacl_poller_busy(void);

/* ---- notifies and stream memory operations (notify.c) ---- */

int oacl_cpu_notify_create(struct oacl_bdev *dev, struct oacl_bnotify **out, char *err);
void oacl_cpu_notify_destroy(struct oacl_bnotify *n);
int oacl_cpu_notify_record(struct oacl_queue *q, struct oacl_bnotify *n, char *err);
int oacl_cpu_notify_wait(struct oacl_queue *q, struct oacl_bnotify *n, uint64_t timeout_ns, char *err);
int oacl_cpu_value_write(struct oacl_queue *q, uint64_t *addr, uint64_t value, char *err);
int oacl_cpu_value_wait(struct oacl_queue *q, const uint64_t *addr, uint64_t value, uint32_t mode, char *err);

/* ---- kernel binaries (kernel_module.c) ---- */

int oacl_cpu_module_load(struct oacl_bdev *dev, const char *path, struct oacl_module **out,
                         const struct oacl_kernel_info **kernels, uint32_t *num_kernels, char *err);
void oacl_cpu_module_ref(struct oacl_module *m);
void oacl_cpu_module_put(struct oacl_module *m);
void oacl_cpu_module_extent(struct oacl_module *m, void **base, size_t *size);
/* The checks a kernel image passes before it is handed to the dynamic
 * loader (ELF headers, segments, exported symbols), alone: for the fuzz
 * target fuzz_binary_check. */
int oacl_cpu_module_check_image(const void *data, size_t len, char *err);
/* The dynamic section and every relocation of an ELF image lie inside its
 * segments (elf_check.c): 0, or -1 with the reason in why. */
int oacl_cpu_elf_check_dynamic(const unsigned char *img, size_t len, char *why, size_t cap);
/* dlopen(path, RTLD_NOW | RTLD_LOCAL) of a kernel binary; with probe_first
 * the object is test-loaded (touch(dl) reads what the real load will read,
 * then it is unloaded) in a child process first and refused if that
 * crashes (load_probe.c). NULL with the reason in why on failure;
 * *condemned tells that the test load refused the image. */
void *oacl_cpu_safe_dlopen(const char *path, bool probe_first, void (*touch)(void *dl), char *why, size_t cap,
                           bool *condemned);
uint32_t oacl_cpu_module_ranges(struct oacl_module *m, struct oacl_module_range *out, uint32_t max);
int oacl_cpu_module_global(struct oacl_module *m, const char *name, void **addr, size_t *size);

/* ---- built-in device tasks (reduce_task.c, random_task.c) ---- */

int oacl_cpu_queue_reduce(struct oacl_queue *q, void *dst, const void *src, uint64_t n, enum oacl_reduce_op op,
                          aclDataType type, char *err);
int oacl_cpu_queue_random(struct oacl_queue *q, const struct oacl_random_task *task, char *err);
/* A random-number task not yet queued (graph_exec.c's task update builds one). */
struct oacl_task *oacl_cpu_random_task_new(struct oacl_bdev *dev, const struct oacl_random_task *task, int *rc,
                                           char *err);

/* ---- inter-process sharing and virtual memory (mem_gate.c, ipc_mem.c, vmm_mem.c) ---- */

/* The memory-writer gate: stores into device memory happen inside it;
 * closing waits for the writers inside and holds new ones off. */
void oacl_cpu_gate_enter(void);
void oacl_cpu_gate_leave(void);
void oacl_cpu_gate_close(void);
void oacl_cpu_gate_open(void);
/* The arena's file and the offset of [p, p+len) when the range lies
 * inside live allocations of dev (device_mem.c). */
bool oacl_cpu_arena_extent(struct oacl_bdev *dev, uintptr_t p, size_t len, int *fd, off_t *off);
/* Waits for the work queued on dev's queues (every queue when dev is NULL). */
void oacl_cpu_wait_queues(struct oacl_bdev *dev);
/* A sealed, owner-only memory file of size bytes. */
int oacl_cpu_memfd(const char *name, size_t size, int *out, char *err);
int oacl_cpu_mem_share(struct oacl_bdev *dev, void *ptr, size_t size, struct oacl_bshare **out, char *err);
int oacl_cpu_share_fd(struct oacl_bshare *s, int *fd, char *err);
bool oacl_cpu_share_live(struct oacl_bshare *s);
void oacl_cpu_share_put(struct oacl_bshare *s);
/* The allocation at ptr is being freed: back into the arena. */
void oacl_cpu_share_forget(struct oacl_bdev *dev, void *ptr);
int oacl_cpu_mem_attach(int fd, size_t size, void **out, char *err);
void oacl_cpu_mem_detach(struct oacl_bdev *dev, void *ptr, size_t size);
int oacl_cpu_phys_create(size_t size, int *fd, char *err);
int oacl_cpu_va_reserve(size_t size, size_t align, void *fixed, void **out, char *err);
void oacl_cpu_va_release(void *ptr, size_t size);
int oacl_cpu_va_map(void *va, size_t size, int fd, int access, char *err);
int oacl_cpu_va_protect(void *va, size_t size, int access, char *err);
void oacl_cpu_va_unmap(void *va, size_t size);
int oacl_cpu_notify_share(struct oacl_bnotify *n, int *fd, char *err);
int oacl_cpu_notify_import(struct oacl_bdev *dev, int fd, struct oacl_bnotify **out, char *err);
int oacl_cpu_notify_reset(struct oacl_queue *q, struct oacl_bnotify *n, char *err);
int oacl_cpu_event_create_shared(struct oacl_bdev *dev, struct oacl_bevent **out, char *err);
int oacl_cpu_event_share_fd(struct oacl_bevent *e, int *fd, char *err);
int oacl_cpu_event_import(struct oacl_bdev *dev, int fd, struct oacl_bevent **out, char *err);

/* ---- 2-D, batched and indirect copies, 32-bit fills (copy_ops.c) ---- */

void oacl_cpu_copy_2d(const struct oacl_copy_2d *c);
int oacl_cpu_queue_copy_2d(struct oacl_queue *q, const struct oacl_copy_2d *c, char *err);
int oacl_cpu_queue_copy_batch(struct oacl_queue *q, const struct oacl_copy_item *items, size_t n, char *err);
int oacl_cpu_queue_copy_indirect(struct oacl_queue *q, const struct oacl_indirect_copy *c, char *err);
void oacl_cpu_fill32(void *dst, uint32_t value, size_t n);
int oacl_cpu_queue_fill32(struct oacl_queue *q, void *dst, uint32_t value, size_t n, char *err);
/* ---- observation: profiler, dumps, status page (trace_hooks.c) ---- */

/* Called with a task being queued while a session records tasks. */
void oacl_cpu_trace_submit(struct oacl_task *t);
/* A traced or failed task leaves its queue (before the failure is posted). */
void oacl_cpu_task_finishing(struct oacl_task *t, int failed);
/* Around each kernel block: begin returns 0 when nothing observes the
 * block, else a start time to hand to end. */
uint64_t oacl_cpu_block_begin_slow(struct oacl_task *t);
void oacl_cpu_block_end(struct oacl_task *t, uint32_t unit, uint64_t t0, bool ran);
int oacl_cpu_queue_marker(struct oacl_queue *q, void (*reached)(void *arg, uint64_t ns), void (*release)(void *arg),
                          void *arg, char *err);
void oacl_cpu_queue_set_id(struct oacl_queue *q, int32_t stream_id);

static inline void oacl_cpu_trace_submit_hook(struct oacl_task *t)
{
    if (__builtin_expect(oacl_trace_on(OACL_TR_TASK | OACL_TR_BLOCK) != 0, 0))
        oacl_cpu_trace_submit(t);
}

static inline uint64_t oacl_cpu_block_begin(struct oacl_task *t)
{
    if (__builtin_expect((t->trace_on | (t->dump != NULL) | oacl_smi_sampling()) != 0, 0))
        return oacl_cpu_block_begin_slow(t);
    return 0;
}
/* ---- device-kernel chapter (cnt_notify.c, kernel_module.c, cpu_kernel.c) ---- */

int oacl_cpu_cnt_notify_create(struct oacl_bdev *dev, struct oacl_bcntnotify **out, char *err);
void oacl_cpu_cnt_notify_destroy(struct oacl_bcntnotify *n);
int oacl_cpu_cnt_notify_record(struct oacl_queue *q, struct oacl_bcntnotify *n, uint32_t mode, uint32_t value,
                               char *err);
int oacl_cpu_cnt_notify_wait(struct oacl_queue *q, struct oacl_bcntnotify *n, uint32_t mode, uint32_t value,
                             bool clear, uint64_t timeout_ns, char *err);
int oacl_cpu_module_load_data(struct oacl_bdev *dev, const void *data, size_t len, const char *name, bool cpu_library,
                              struct oacl_module **out, const struct oacl_kernel_info **kernels,
                              uint32_t *num_kernels, char *err);
int oacl_cpu_module_linked(const void *addr, struct oacl_module **out, char *err);
int oacl_cpu_module_cpu_kernel(struct oacl_module *m, const char *func_name, const char *kernel_name,
                               const struct oacl_kernel_info **out, char *err);
void oacl_cpu_kernel_code(struct oacl_module *m, const struct oacl_kernel_info *k, const void *symbol, void **addr,
                          size_t *size);

/* CPU kernels (cpu_kernel.c): the descriptor the executor runs for one, and
 * how a block of it runs (kernel_exec.c calls it under its fault capture). */
struct oacl_cpu_kernel {
    struct oacl_kernel_desc desc;    /* first: tasks point at it; entry is oacl_cpu_kernel_entry */
    struct oacl_kernel_info info;
    uint32_t (*fn)(void *args);
    char *func_name;
    char *kernel_name;
    struct oacl_cpu_kernel *next;    /* the module's list */
};
void oacl_cpu_kernel_entry(const void *args);
/* Frees a module's CPU kernels. */
void oacl_cpu_kernels_free(struct oacl_cpu_kernel *list);

/* ---- task graphs (graph_exec.c) ---- */

/* oacl_exec_submit on a graph stream: keeps t for replays. */
void oacl_graph_record(struct oacl_queue *q, struct oacl_task *t);
/* Queues n tasks linked through ->next (first..last) on q in one step. */
void oacl_exec_submit_list(struct oacl_queue *q, struct oacl_task *first, struct oacl_task *last);
int oacl_cpu_graph_create(struct oacl_bdev *dev, struct oacl_fail_group *group, struct oacl_bgraph **out, char *err);
int oacl_cpu_graph_destroy(struct oacl_bgraph *g, int64_t timeout_ns);
int oacl_cpu_graph_stream(struct oacl_bgraph *g, struct oacl_queue **out, char *err);
int oacl_cpu_graph_stream_state(struct oacl_queue *gq, uint32_t *count);
void oacl_cpu_graph_task_info(struct oacl_queue *gq, uint32_t i, struct oacl_graph_task_info *out);
void oacl_cpu_graph_task_disable(struct oacl_queue *gq, uint32_t i, bool disabled);
int oacl_cpu_graph_event_op(struct oacl_queue *gq, uint32_t slot, bool wait, char *err);
int oacl_cpu_graph_exec(struct oacl_queue *q, struct oacl_bgraph *g, char *err);
void oacl_cpu_graph_abort(struct oacl_bgraph *g);
bool oacl_cpu_graph_busy(struct oacl_bgraph *g);
int oacl_cpu_graph_stream_new(struct oacl_bdev *dev, struct oacl_fail_group *group, struct oacl_queue **out,
                              char *err);
void oacl_cpu_graph_stream_bind(struct oacl_queue *gq, struct oacl_bgraph *g, bool head);
void oacl_cpu_graph_stream_clear(struct oacl_queue *gq);
void oacl_cpu_graph_stream_free(struct oacl_queue *gq);
int oacl_cpu_graph_ctl(struct oacl_queue *gq, const struct oacl_graph_ctl *c, char *err);
struct oacl_graph_targets *oacl_cpu_graph_targets_new(uint32_t n);
void oacl_cpu_graph_targets_set(struct oacl_graph_targets *tg, uint32_t i, struct oacl_queue *gq, uint32_t pos);
void oacl_cpu_graph_targets_drop(struct oacl_graph_targets *tg);
void oacl_cpu_graph_task_pending(struct oacl_queue *gq, int32_t slot);
bool oacl_cpu_graph_task_staged(struct oacl_queue *gq, uint32_t i);
void oacl_cpu_graph_task_commit(struct oacl_queue *gq, bool install);
void oacl_cpu_graph_group(struct oacl_queue *gq, bool open);
int oacl_cpu_graph_init_word(struct oacl_bgraph *g, void *addr, uint64_t value, char *err);
int oacl_cpu_queue_graph_patch(struct oacl_queue *q, struct oacl_queue *gq, uint32_t index, char *err);
int oacl_cpu_queue_graph_random_update(struct oacl_queue *q, struct oacl_bgraph *g, struct oacl_queue *gq,
                                       uint32_t index, const void *src, size_t size, oacl_random_convert_fn convert,
                                       int32_t dev_id, char *err);

/* ---- small helpers ---- */

uint64_t oacl_now_ns(void);

#endif /* OACL_DEVICE_CPU_CPU_DEVICE_H */
