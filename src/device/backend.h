/*
 * Device backend ops table. The API layer validates every argument once and
 * then calls a backend only through this table; a backend never sees ACL
 * handles. The CPU device (src/device/cpu) is the embedded default; a CUDA
 * driver-API backend, loaded at run time, will provide another table.
 *
 * Every op that can fail returns an aclError code; where a message helps,
 * it is written to `err` (a buffer of OACL_BACKEND_ERRLEN bytes) and the API
 * layer reports it through aclGetRecentErrMsg.
 */
#ifndef OACL_DEVICE_BACKEND_H
#define OACL_DEVICE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#define OACL_BACKEND_ERRLEN 512

struct oacl_soc_profile;
struct oacl_bdev;    /* a backend device */
struct oacl_queue;   /* an in-order task queue (one per stream) */
struct oacl_module;  /* a loaded kernel binary */
struct oacl_bevent;  /* an event */
struct oacl_bnotify; /* a notify */
struct oacl_bshare;  /* device memory made shareable with other processes */
struct oacl_dump_plan; /* a kernel launch selected for a data dump (common/dump.h) */
struct oacl_bcntnotify; /* a counting notify */
struct oacl_bgraph;     /* a task graph: recorded task lists replayed as one task (graph_exec.c) */

/*
 * Failure policy shared by the queues of one context. With stop_on_failure
 * set, the first task failure in any of them is stored in `error` for good:
 * tasks not started yet are dropped (kernels skip their blocks, host steps
 * finish unrun), and the API layer refuses new work and reports the error
 * at every synchronise. Both fields are accessed atomically.
 */
struct oacl_fail_group {
    uint32_t stop_on_failure;
    int error;
};

/* What an event's newest record has reached. */
struct oacl_event_state {
    bool recorded;          /* recorded, and not reset since */
    bool complete;          /* ... and the captured work is done */
    bool waits_pending;     /* stream waits on it not satisfied yet */
    uint64_t timestamp_ns;  /* monotonic time the record ran (complete only) */
    int error;              /* first failure of the captured work, 0 if none */
    int ipc_error;          /* shared events: ACL_ERROR_RT_IPC_ERROR when the process
                               that enqueued the awaited record died before running it */
};

/* What the API layer needs to know about one kernel of a module. */
struct oacl_kernel_info {
    const char *name;
    uint32_t num_params;
    const uint32_t *param_sizes;
    const void *backend_kernel;          /* backend's own descriptor */
};

/* One kernel launch, as captured by the API layer. */
/* A pointer patch in a copied argument blob: the 8-byte slot at
 * addr_offset receives the address of the copy's byte data_offset. */
struct oacl_arg_patch {
    uint32_t addr_offset;
    uint32_t data_offset;
};

struct oacl_launch {
    struct oacl_module *module;          /* the backend takes a module reference;
                                            NULL: code linked into the program */
    const struct oacl_kernel_info *kernel;
    const void *args;                    /* argument blob */
    size_t args_size;
    bool copy_args;                      /* true: copy the blob now (host list);
                                            false: it is device memory that the
                                            caller keeps valid until completion */
    uint32_t num_blocks;
    uint32_t block_offset;
    uint64_t timeout_ns;                 /* 0 = no limit */
    uint32_t max_cores;                  /* cores the launch may use at once (0: all) */
    const struct oacl_arg_patch *patches;/* copy_args only: applied to the copy */
    uint32_t num_patches;
    /* Selected for a data dump (common/dump.h): the backend owns the plan
       once queue_launch succeeded, and dumps the launch's buffers before
       its first block and after its last (NULL: no dump). */
    struct oacl_dump_plan *dump;
    /* Fault isolation (reliability chapter): a vector-only kernel gets the
       vector-core fault codes; fault_user is handed back with a failure
       report (oacl_runtime_task_failed). */
    bool aiv;
    void *fault_user;
    void *fault_func;                    /* the function handle, for exception reports */
    /* Float overflow (reliability chapter 3.5): OACL_LAUNCH_FP_* bits, and
       what the backend calls once, from the first block that overflowed
       with OACL_LAUNCH_FP_DETECT, to set the device's overflow status. */
    uint32_t fp_flags;
    void (*fp_overflow)(void *arg);
    void *fp_overflow_arg;
};

#define OACL_LAUNCH_FP_DETECT 1u   /* the stream's overflow switch was on */
#define OACL_LAUNCH_FP_SATURATE 2u /* the stream is in saturation mode */

/* How a host range was made visible to the device. */
enum oacl_map_kind {
    OACL_MAP_NONE = 0,
    OACL_MAP_ALIAS = 1,      /* a second virtual mapping of the same pages */
    OACL_MAP_MIGRATED = 2,   /* private pages moved into shared memory in place,
                                then aliased; undone at unmap */
    OACL_MAP_IDENTITY = 3,   /* the device uses the host address itself */
};

struct oacl_host_map {
    void *dev_ptr;
    enum oacl_map_kind kind;
    bool relock;             /* MIGRATED: the program had locked the pages */
};

/* A range of a loaded module's memory; read-only ones (code, constants,
 * relocated data made read-only) must not be written by copies. */
struct oacl_module_range {
    void *base;
    size_t size;
    bool writable;
};

/* ---- built-in device tasks (acl-rt-memory-extras.md §3.10) ---- */

/* Element-wise reductions dst[i] = dst[i] OP src[i]. */
enum oacl_reduce_op {
    OACL_REDUCE_SUM = 0,    /* integers wrap; floats rounded once (RNE) */
    OACL_REDUCE_MAX = 1,    /* NaN if either is NaN; equal operands keep dst */
    OACL_REDUCE_MIN = 2,
    OACL_REDUCE_ASSIGN = 3, /* dst[i] = src[i] */
};

/* Distributions of a random-number task (Philox4x32-10, TensorFlow's
   stateless construction). */
enum oacl_random_dist {
    OACL_RANDOM_DROPOUT_MASK = 0,
    OACL_RANDOM_UNIFORM = 1,
    OACL_RANDOM_NORMAL = 2,
    OACL_RANDOM_TRUNCATED_NORMAL = 3,
};

/* A value of a random-number task: given inline (taken when the task was
   queued), or read from device memory when the task runs. */
struct oacl_random_value {
    uint64_t value;      /* inline: the value, zero-extended; else the device address */
    uint8_t size;        /* 1..8 bytes, little-endian */
    bool addressed;
};

struct oacl_random_task;
/* Turns `info` (an aclrtRandomNumTaskInfo) into a task of device dev_id:
   0, or an aclError with its reason in err. */
typedef int (*oacl_random_convert_fn)(const void *info, int32_t dev_id, struct oacl_random_task *out, char *err);

struct oacl_random_task {
    enum oacl_random_dist dist;
    aclDataType type;                    /* output (uniform, normal) and parameter type */
    struct oacl_random_value param[2];   /* ratio | min, max | mean, stddev (raw bits of type) */
    struct oacl_random_value seed;       /* Philox key */
    struct oacl_random_value num;        /* elements (mask bits) to generate */
    const void *counter;                 /* device memory: uint64 c0, c1 (read when run) */
    void *result;                        /* device memory receiving the output */
    uint64_t result_room;                /* bytes writable at result; more needed fails the task */
};

/* ---- memory extras: copy descriptions --------------------------------------- */

/* height rows of width bytes: row r goes from src + r*spitch to
 * dst + r*dpitch (width <= both pitches). Overlapping matrices are copied
 * row by row with memmove, in the row order that reads every source row
 * before it is overwritten whenever such an order exists. */
struct oacl_copy_2d {
    void *dst;
    size_t dpitch;
    const void *src;
    size_t spitch;
    size_t width;
    size_t height;
};

/* One copy of a batch. */
struct oacl_copy_item {
    void *dst;
    const void *src;
    size_t n;
};

/* A copy resolved when it runs: dst = *dst_slot + dst_offset,
 * src = *src_slot + src_offset (8-byte little-endian device addresses),
 * length = *len_slot (4 bytes) when len_slot is set, else len. */
struct oacl_indirect_copy {
    const void *dst_slot;
    uint64_t dst_offset;
    const void *src_slot;
    uint64_t src_offset;
    const void *len_slot;
    uint64_t len;
};

/* dev_alloc flag in `align` (see there). */
#define OACL_DEV_ALLOC_TAIL ((size_t)1 << (sizeof(size_t) * 8 - 1))
/* What a task recorded into a graph stream was (task graphs). */
struct oacl_graph_task_info {
    uint8_t trace_type;                  /* enum oacl_task_type (common/trace.h) */
    const char *kernel_name;             /* kernels, else NULL */
    uint32_t num_blocks;                 /* kernels */
    const void *args;                    /* kernels: the recorded argument blob */
    uint32_t slot;                       /* graph-private events: the event slot */
    uint32_t ctl;                        /* control tasks: enum oacl_graph_ctl_kind, else 0 */
    uint32_t order;                      /* when it was recorded: increasing over all streams of its graph */
};

/* Control tasks of built graphs, evaluated when their stream reaches them. */
enum oacl_graph_ctl_kind {
    OACL_GCTL_END = 1,           /* aclmdlRIEndTask */
    OACL_GCTL_LABEL = 2,         /* aclrtSetLabel: a position marker */
    OACL_GCTL_SWITCH_INDEX = 3,  /* aclrtSwitchLabelByIndex */
    OACL_GCTL_SWITCH_STREAM = 4, /* aclrtSwitchStream */
    OACL_GCTL_ACTIVE = 5,        /* aclrtActiveStream */
    OACL_GCTL_COND = 6,          /* aclmdlRIAddCondTask: runs a sub-graph chosen by a device word */
    OACL_GCTL_EXT_RECORD = 7,    /* ACL_EVENT_RECORD_EXTERNAL: records `event` at each execution */
    OACL_GCTL_EXT_WAIT = 8,      /* ACL_EVENT_WAIT_EXTERNAL: waits for `event`'s newest record */
};
struct oacl_graph_targets; /* label positions (graph_targets_*) */
struct oacl_graph_ctl {
    enum oacl_graph_ctl_kind kind;
    const void *left, *right;    /* SWITCH_STREAM operands; SWITCH_INDEX: left = the uint32 index */
    uint32_t cond;               /* aclrtCondition */
    bool is64;                   /* operands are int64 (else int32) */
    uint32_t max;                /* SWITCH_INDEX: maxValue */
    const struct oacl_graph_targets *targets; /* SWITCH_INDEX (the task holds a reference) */
    struct oacl_queue *stream;   /* SWITCH_STREAM / ACTIVE: the graph stream started */
    struct oacl_bgraph *const *graphs; /* COND: max branch graphs (cond = IF 0, WHILE 1, SWITCH 2;
                                          left = the uint64 condition); owned by the caller */
    struct oacl_bevent *event;   /* EXT_*: the user's event (the caller keeps it alive); max = a tag */
};

struct oacl_backend_ops {
    const char *name;

    /* Opens device `index` with the given profile and memory capacity;
       called once per device. */
    int (*device_open)(uint32_t index, const struct oacl_soc_profile *soc, uint64_t memory_bytes,
                       struct oacl_bdev **out, char *err);
    /* Waits for all of the device's queues and releases it. */
    void (*device_close)(struct oacl_bdev *dev);

    /* Page-locked (or, past the memlock limit, pre-faulted) host memory of
       at least size bytes, page aligned. *locked says which. */
    int (*host_alloc)(struct oacl_bdev *dev, size_t size, void **out, bool *locked, char *err);
    void (*host_free)(void *ptr, size_t size);
    /* Locks/unlocks pageable memory for ACL_HOST_REG_PINNED. */
    int (*host_lock)(void *ptr, size_t size, bool *locked, char *err);
    void (*host_unlock)(void *ptr, size_t size);
    /* Maps [ptr, ptr+size) (page aligned) for device access. runtime_memory:
       the range lies in memory from host_alloc. */
    int (*host_map)(struct oacl_bdev *dev, void *ptr, size_t size, bool runtime_memory,
                    struct oacl_host_map *out, char *err);
    void (*host_unmap)(void *ptr, size_t size, const struct oacl_host_map *map);

    /* Device memory: at least size bytes aligned to `align` (a power of two)
       in the device's own address range. dev_free first waits for the work
       already queued on the device's queues (it may still use the memory).
       `align` may carry OACL_DEV_ALLOC_TAIL (memory checker): the returned
       range then ends where the allocation's guard page begins (size a
       multiple of 32; the pointer is only 32-byte aligned). */
    int (*dev_alloc)(struct oacl_bdev *dev, size_t size, size_t align, void **out, char *err);
    void (*dev_free)(struct oacl_bdev *dev, void *ptr, size_t size);
    /* A synchronous copy between any two addresses the host can reach
       (overlap allowed). */
    void (*copy)(void *dst, const void *src, size_t n);

    /* Loads a kernel binary from a file. Fills the kernel table, which stays
       valid until the module's last reference is dropped. Every load is a
       new instance of the binary with its own globals, also when the same
       file is already loaded (for this or another device). */
    int (*module_load)(struct oacl_bdev *dev, const char *path, struct oacl_module **out,
                       const struct oacl_kernel_info **kernels, uint32_t *num_kernels, char *err);
    void (*module_ref)(struct oacl_module *m);
    void (*module_put)(struct oacl_module *m);

    /* ---- memory of a loaded module (device globals) ---- */
    /* Base and extent of the module's image (aclrtBinaryGetDevAddress). */
    void (*module_extent)(struct oacl_module *m, void **base, size_t *size);
    /* The module's memory ranges (code, constants, data) that host copies
       may address, up to max of them in out; returns how many there are. */
    uint32_t (*module_ranges)(struct oacl_module *m, struct oacl_module_range *out, uint32_t max);
    /* The exported data object `name` of the module: its address and size,
       or ACL_ERROR_RT_SYMBOL_NOT_FOUND. */
    int (*module_global)(struct oacl_module *m, const char *name, void **addr, size_t *size);

    int (*queue_create)(struct oacl_bdev *dev, struct oacl_fail_group *group, struct oacl_queue **out, char *err);
    /* Drops every task of q that has not started (a running one finishes). */
    void (*queue_discard)(struct oacl_queue *q);
    /* Waits for q's remaining work and frees it. */
    void (*queue_destroy)(struct oacl_queue *q);
    /* Enqueues a kernel; returns once it is queued. */
    int (*queue_launch)(struct oacl_queue *q, const struct oacl_launch *l, char *err);
    /*
     * Waits until every task queued before the call has finished, or until
     * timeout_ns (< 0: no limit) has passed (ACL_ERROR_RT_STREAM_SYNC_TIMEOUT).
     * Returns the first task failure since the previous sync, with its text
     * in err, and clears it.
     */
    int (*queue_sync)(struct oacl_queue *q, int64_t timeout_ns, char *err);
    /* True when every queued task has finished. */
    bool (*queue_idle)(struct oacl_queue *q);
    /* Waits like queue_sync (0 or ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) but
       leaves a task failure for the queue's next sync to report. */
    int (*queue_wait)(struct oacl_queue *q, int64_t timeout_ns);

    /*
     * A host step in q: when q reaches it, arrive(arg, token) is called on
     * whichever thread advanced the queue (it must hand the work over and
     * return at once); q's later work waits until host_step_done(token).
     * If the step is dropped before it arrives (forced destroy), drop(arg)
     * is called instead; if it is discarded after arriving, cancel(arg) must
     * make sure host_step_done follows soon (unless already called).
     */
    int (*queue_host_step)(struct oacl_queue *q, void (*arrive)(void *arg, void *token), void (*drop)(void *arg),
                           void (*cancel)(void *arg), void *arg, char *err);
    void (*host_step_done)(void *token);

    /* Copy (memmove semantics) or fill with a byte, in q's order. */
    int (*queue_copy)(struct oacl_queue *q, void *dst, const void *src, size_t n, char *err);
    int (*queue_memset)(struct oacl_queue *q, void *dst, uint8_t value, size_t n, char *err);

    /* Events. A record captures the work queued before it on q; a wait
       makes q's later work wait for the event's newest capture at the time
       of the call (*queued false: nothing recorded, nothing to wait for);
       a wait still blocked timeout_ns (> 0) after it began fails with
       ACL_ERROR_RT_TASK_TIMEOUT (q's failure mode decides what follows);
       a reset forgets the captures when it runs. Destroying an event with
       work still pending is fine: the work keeps what it needs. */
    int (*event_create)(struct oacl_bdev *dev, struct oacl_bevent **out, char *err);
    void (*event_destroy)(struct oacl_bevent *e);
    int (*event_record)(struct oacl_queue *q, struct oacl_bevent *e, char *err);
    int (*event_wait)(struct oacl_queue *q, struct oacl_bevent *e, uint64_t timeout_ns, bool *queued, char *err);
    int (*event_reset)(struct oacl_queue *q, struct oacl_bevent *e, char *err);
    void (*event_query)(struct oacl_bevent *e, struct oacl_event_state *st);
    /* Blocks until the newest capture completes: 0, or ETIMEDOUT; ECANCELED
       when its record waits in a stopped queue (queue_stop). */
    int (*event_sync)(struct oacl_bevent *e, int64_t timeout_ns);

    /* Notifies: a record sets the notify in q's order; a wait holds q's
       later work until it is set and clears it (one record lets one wait
       through). A wait still blocked timeout_ns (> 0) after it began fails
       with ACL_ERROR_RT_TASK_TIMEOUT. Destroying a notify with work pending
       is fine, as for events. */
    int (*notify_create)(struct oacl_bdev *dev, struct oacl_bnotify **out, char *err);
    void (*notify_destroy)(struct oacl_bnotify *n);
    int (*notify_record)(struct oacl_queue *q, struct oacl_bnotify *n, char *err);
    int (*notify_wait)(struct oacl_queue *q, struct oacl_bnotify *n, uint64_t timeout_ns, char *err);

    /* Stream memory operations on an aligned 64-bit device word: a write
       in q's order; a wait holding q's later work until the word satisfies
       mode (ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR) against value. */
    int (*queue_value_write)(struct oacl_queue *q, uint64_t *addr, uint64_t value, char *err);
    int (*queue_value_wait)(struct oacl_queue *q, const uint64_t *addr, uint64_t value, uint32_t mode, char *err);

    /* Built-in device tasks, in q's order. Reduce: n elements of `type`
       (dst == src allowed; the ranges are valid device memory). Random: the
       values marked addressed are read when the task runs; reading from
       memory the device cannot reach fails the task with
       ACL_ERROR_RT_TS_ERROR. Neither writes the counter. */
    int (*queue_reduce)(struct oacl_queue *q, void *dst, const void *src, uint64_t n, enum oacl_reduce_op op,
                        aclDataType type, char *err);
    int (*queue_random)(struct oacl_queue *q, const struct oacl_random_task *task, char *err);
    /* ---- inter-process sharing and virtual memory (acl-rt-ipc-vmm.md) ----
       Objects cross process boundaries as descriptors of memory files; the
       API layer passes them between processes and never maps them itself. */

    /* Makes the allocation at ptr (size bytes, as allocated) shareable on
       its own, without its neighbours; work and data are unaffected. Later
       calls for the same allocation return the same object (+1 reference).
       Once the allocation is freed, share_fd fails and share_live is false;
       memory already handed out keeps its contents. */
    int (*mem_share)(struct oacl_bdev *dev, void *ptr, size_t size, struct oacl_bshare **out, char *err);
    /* A new close-on-exec descriptor of the shared memory. */
    int (*share_fd)(struct oacl_bshare *s, int *fd, char *err);
    bool (*share_live)(struct oacl_bshare *s);
    void (*share_put)(struct oacl_bshare *s);
    /* Maps size bytes of memory received as a descriptor, read-write, at an
       address of the backend's choice (the caller may close fd after). */
    int (*mem_attach)(int fd, size_t size, void **out, char *err);
    /* Waits for the work queued on dev's queues (every queue when dev is
       NULL), then unmaps memory from mem_attach. */
    void (*mem_detach)(struct oacl_bdev *dev, void *ptr, size_t size);
    /* Brackets a store into device memory made by the calling thread
       outside any queue (a synchronous fill): mem_share never moves memory
       while such a store is in progress. */
    void (*host_write_begin)(void);
    void (*host_write_end)(void);

    /* Physical memory: a descriptor of size bytes of new, zero-filled
       memory (sealed against resizing). */
    int (*phys_create)(size_t size, int *fd, char *err);
    /* Reserves size bytes of inaccessible address space aligned to align,
       at `fixed` when it is not NULL (fails when anything is mapped there). */
    int (*va_reserve)(size_t size, size_t align, void *fixed, void **out, char *err);
    void (*va_release)(void *ptr, size_t size);
    /* Maps [va, va+size) inside a reservation onto the first size bytes of
       fd with an access of enum oacl_va_access; va_protect changes it. */
    int (*va_map)(void *va, size_t size, int fd, int access, char *err);
    int (*va_protect)(void *va, size_t size, int access, char *err);
    /* Waits for the work queued on every queue, then makes the range
       reserved and inaccessible again. */
    void (*va_unmap)(void *va, size_t size);

    /* IPC notifies. notify_share moves the notify into memory shared with
       other processes (once per notify; records and waits in flight are
       neither lost nor duplicated) and returns a descriptor of it;
       notify_import makes a notify on dev from such a descriptor. Waits on
       a shared notify fail with ACL_ERROR_RT_IPC_ERROR when every other
       process that held it has exited (spec 3.5). notify_reset clears the
       notify in q's order. */
    int (*notify_share)(struct oacl_bnotify *n, int *fd, char *err);
    int (*notify_import)(struct oacl_bdev *dev, int fd, struct oacl_bnotify **out, char *err);
    int (*notify_reset)(struct oacl_queue *q, struct oacl_bnotify *n, char *err);

    /* IPC events: an event whose state lives in memory shared with other
       processes. The event ops above apply to it; event_record may fail
       with ACL_ERROR_RT_NO_EVENT_RESOURCE (too many records outstanding),
       event_sync returns ACL_ERROR_RT_IPC_ERROR and event_query sets
       ipc_error when the awaited record's process died, and stream waits
       fail with that code. Resets are not supported. */
    int (*event_create_shared)(struct oacl_bdev *dev, struct oacl_bevent **out, char *err);
    int (*event_share_fd)(struct oacl_bevent *e, int *fd, char *err);
    int (*event_import)(struct oacl_bdev *dev, int fd, struct oacl_bevent **out, char *err);
    /* ---- stream-ordered memory (memory pools) ---- */
    /* A bookkeeping point in q: once the work queued before it has
       finished, reached(arg) is called on whichever thread advanced q; it
       must be short, must not block and must not queue work. q's later
       work is not held by it. If the point is dropped before q reaches it
       (queue_discard), dropped(arg) is called instead. */
    int (*queue_host_mark)(struct oacl_queue *q, void (*reached)(void *arg), void (*dropped)(void *arg), void *arg,
                           char *err);
    /* Gives device memory from dev_alloc back at once, without waiting for
       the device's queues (unlike dev_free): the caller knows that no
       queued work uses it any more (its stream-ordered free has run). */
    void (*dev_release)(struct oacl_bdev *dev, void *ptr, size_t size);
    /* ---- memory extras ---- */
    /* Managed (unified) memory: size bytes (a multiple of 2 MiB), 2 MiB
       aligned, at one address valid for the host and for every device,
       reading as zero. managed_free first waits for the work already
       queued on every device (it may still use the memory). */
    int (*managed_alloc)(size_t size, void **out, char *err);
    void (*managed_free)(void *ptr, size_t size);
    /* Moves the managed ranges [ptrs[i], +sizes[i]) towards targets[i] (a
       device index, or -1 for the host) in q's order. A backend whose
       managed memory is a single copy only keeps the place in the order.
       The arrays are read during the call only. */
    int (*queue_prefetch)(struct oacl_queue *q, const void *const *ptrs, const size_t *sizes, const int32_t *targets,
                          size_t count, char *err);
    /* Cache maintenance `op` (aclrtCmoType) of [ptr, ptr+size) in q's
       order, or, with desc non-NULL, of the range that the descriptor in
       device memory names when the task runs. A cache-coherent device only
       keeps the place in the order. */
    int (*queue_cmo)(struct oacl_queue *q, const void *ptr, size_t size, const void *desc, int op, char *err);

    /* ---- memory extras: 2-D, batched, indirect copies and 32-bit fills ---- */

    /* A 2-D copy (see struct oacl_copy_2d): synchronously on the calling
       thread, or in q's order. */
    void (*copy_2d)(const struct oacl_copy_2d *c);
    int (*queue_copy_2d)(struct oacl_queue *q, const struct oacl_copy_2d *c, char *err);
    /* n independent copies (the array is copied) as one task in q's order;
       their relative order is unspecified (operands must not overlap). */
    int (*queue_copy_batch)(struct oacl_queue *q, const struct oacl_copy_item *items, size_t n, char *err);
    /* A copy whose addresses (and length) are read from device memory when
       q reaches it (struct oacl_indirect_copy). Both resulting ranges must
       lie in valid device memory then, else the task fails with
       ACL_ERROR_RT_SYS_DMA; the copy has memmove semantics. */
    int (*queue_copy_indirect)(struct oacl_queue *q, const struct oacl_indirect_copy *c, char *err);
    /* n 32-bit words at dst (4-byte aligned) set to value: synchronously on
       the calling thread, or in q's order. */
    void (*fill32)(void *dst, uint32_t value, size_t n);
    int (*queue_fill32)(struct oacl_queue *q, void *dst, uint32_t value, size_t n, char *err);

    /* ---- observation (profiling-and-tools.md) ---- */
    /* A zero-cost marker in q's order: when q reaches it, reached(arg, ns)
       is called with the device time (CLOCK_MONOTONIC ns); release(arg)
       follows (also when the marker is dropped unrun). */
    int (*queue_marker)(struct oacl_queue *q, void (*reached)(void *arg, uint64_t ns), void (*release)(void *arg),
                        void *arg, char *err);
    /* Names q after its stream (aclrtStreamGetId) in traces and dumps. */
    void (*queue_set_id)(struct oacl_queue *q, int32_t stream_id);
    /* ---- device-kernel chapter (acl-rt-device-kernel-extras.md) ---- */

    /* Counting notifies: a 32-bit count, 0 at creation. A record changes it
       in q's order (mode: an aclrtCntNotifyRecordMode; arithmetic modulo
       2^32); a wait holds q's later work until the aclrtCntNotifyWaitMode
       predicate holds for the count against value (level-triggered; with
       clear the count becomes 0 atomically as the wait is released); a wait
       still blocked timeout_ns (> 0) after it began fails with
       ACL_ERROR_RT_TASK_TIMEOUT. Destroying one with work pending is fine. */
    int (*cnt_notify_create)(struct oacl_bdev *dev, struct oacl_bcntnotify **out, char *err);
    void (*cnt_notify_destroy)(struct oacl_bcntnotify *n);
    int (*cnt_notify_record)(struct oacl_queue *q, struct oacl_bcntnotify *n, uint32_t mode, uint32_t value,
                             char *err);
    int (*cnt_notify_wait)(struct oacl_queue *q, struct oacl_bcntnotify *n, uint32_t mode, uint32_t value,
                           bool clear, uint64_t timeout_ns, char *err);

    /* Loads a kernel image of len bytes at data (read during the call) as
       module_load does a file, with the same checks; `name` stands for it
       in messages. With cpu_library the image is a library of CPU kernels
       (no kernel table needed; no kernels listed) whose functions
       module_cpu_kernel turns into kernels. */
    int (*module_load_data)(struct oacl_bdev *dev, const void *data, size_t len, const char *name, bool cpu_library,
                            struct oacl_module **out, const struct oacl_kernel_info **kernels, uint32_t *num_kernels,
                            char *err);
    /* The module already part of the program that contains address addr
       (kernels linked into the program): extent and globals as for a
       loaded module; it lists no kernels and no memory ranges. */
    int (*module_linked)(const void *addr, struct oacl_module **out, char *err);
    /* A CPU kernel of a CPU-kernel library: func_name, an exported
       function `uint32_t f(void *args)`, called once per block of a launch
       with the launch's copy of the argument blob; a non-zero return fails
       the launch with ACL_ERROR_RT_AICPU_EXCEPTION. The kernel is named
       kernel_name; the same pair gives the same kernel; it lives as long as
       the module. Missing function: ACL_ERROR_RT_PARAM_INVALID. */
    int (*module_cpu_kernel)(struct oacl_module *m, const char *func_name, const char *kernel_name,
                             const struct oacl_kernel_info **out, char *err);
    /* Start and size of a kernel's code: its own function symbol when the
       module exports one under the kernel's name (or, for linked kernels,
       `symbol`, the function's address), else its entry. Size 0 when no
       symbol describes the code. */
    void (*kernel_code)(struct oacl_module *m, const struct oacl_kernel_info *k, const void *symbol, void **addr,
                        size_t *size);
    /* reliability chapter: the task id (per-queue number, from 0) of the
       last task the calling thread queued anywhere; UINT32_MAX if none. */
    uint32_t (*thread_last_task)(void);

    /* ---- execution control (acl-rt-reliability.md §3.3) ---- */
    /* Stops q: its running task is interrupted (not a failure) and later
       tasks stay queued without starting; queue_sync and queue_wait then
       return ACL_ERROR_RT_STREAM_ABORT at once. queue_abort interrupts the
       running task, drops every queued one (event records among them
       complete), clears q's recorded failure and ends a stop; it returns
       once q is idle, or ACL_ERROR_RT_WAIT_TIMEOUT after timeout_ns (< 0:
       no limit). */
    int (*queue_stop)(struct oacl_queue *q, int64_t timeout_ns);
    int (*queue_abort)(struct oacl_queue *q, int64_t timeout_ns);
    bool (*queue_stopped)(struct oacl_queue *q);

    /* ---- task graphs (acl-rt-model-ri.md; cpu: graph_exec.c) ---- */
    /* A graph of dev whose replays fail into `group`. */
    int (*graph_create)(struct oacl_bdev *dev, struct oacl_fail_group *group, struct oacl_bgraph **out, char *err);
    /* Waits for its executions (timeout_ns < 0: no limit; 0 or
       ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) and frees it with its streams. */
    int (*graph_destroy)(struct oacl_bgraph *g, int64_t timeout_ns);
    /* A new graph stream: a queue that records every task enqueued on it
       (in order) instead of running it; all of g's streams start together
       at each execution. */
    int (*graph_stream)(struct oacl_bgraph *g, struct oacl_queue **out, char *err);
    /* Tasks recorded on a graph stream; 0 or the code of the first task
       that could not be recorded (nothing replayable). */
    int (*graph_stream_state)(struct oacl_queue *gq, uint32_t *count);
    void (*graph_task_info)(struct oacl_queue *gq, uint32_t i, struct oacl_graph_task_info *out);
    /* Skips recorded task i at every execution (or runs it again). */
    void (*graph_task_disable)(struct oacl_queue *gq, uint32_t i, bool disabled);
    /* Records a graph-private event record/wait (slots are cleared at the
       start of every execution; a wait passes once its slot was recorded). */
    int (*graph_event_op)(struct oacl_queue *gq, uint32_t slot, bool wait, char *err);
    /* One execution of g as one task of q. */
    int (*graph_exec)(struct oacl_queue *q, struct oacl_bgraph *g, char *err);
    /* Stops g's running execution at task boundaries and drops queued ones;
       each affected execution fails with ACL_ERROR_RT_MODEL_ABORT_NORMAL. */
    void (*graph_abort)(struct oacl_bgraph *g);
    /* True while an execution of g is queued or running. */
    bool (*graph_busy)(struct oacl_bgraph *g);
    /* Graph streams outside any graph (persistent streams): bound to g
       (NULL: unbound) as a head stream or one started by control tasks;
       clear drops its recorded tasks (no execution in flight); free
       releases an unbound one. */
    int (*graph_stream_new)(struct oacl_bdev *dev, struct oacl_fail_group *group, struct oacl_queue **out, char *err);
    void (*graph_stream_bind)(struct oacl_queue *gq, struct oacl_bgraph *g, bool head);
    void (*graph_stream_clear)(struct oacl_queue *gq);
    void (*graph_stream_free)(struct oacl_queue *gq);
    /* Records a control task on gq. */
    int (*graph_ctl)(struct oacl_queue *gq, const struct oacl_graph_ctl *c, char *err);
    /* Label positions: n slots, set one by one; drop marks them dead for
       the switches still holding them (their executions fail). */
    struct oacl_graph_targets *(*graph_targets_new)(uint32_t n);
    void (*graph_targets_set)(struct oacl_graph_targets *tg, uint32_t i, struct oacl_queue *gq, uint32_t pos);
    void (*graph_targets_drop)(struct oacl_graph_targets *tg);
    /* Task replacement (aclmdlRITaskSetParams): with a slot >= 0, the next
       task enqueued on gq is staged as the replacement of task `slot`
       instead of being appended (-1 ends that); staged tells whether one is
       waiting; commit installs every staged replacement (install false:
       drops them). The replaced tasks stay allocated until gq goes. */
    void (*graph_task_pending)(struct oacl_queue *gq, int32_t slot);
    bool (*graph_task_staged)(struct oacl_queue *gq, uint32_t i);
    void (*graph_task_commit)(struct oacl_queue *gq, bool install);
    /* Task groups: while open, only kernels may be recorded on gq (another
       task breaks the recording with ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT).
       A patch task in q's order installs the replacement staged for task
       `index` of gq (update by re-capture). */
    void (*graph_group)(struct oacl_queue *gq, bool open);
    /* At the start of every execution of g, *addr (8 bytes) := value. */
    int (*graph_init_word)(struct oacl_bgraph *g, void *addr, uint64_t value, char *err);
    int (*queue_graph_patch)(struct oacl_queue *q, struct oacl_queue *gq, uint32_t index, char *err);
    /* aclrtTaskUpdateAsync kind 1: a task of q that, when it runs, reads
       `size` bytes at src, has `convert` (no side effects) turn them into
       a random-number task and installs it as task `index` of gq of graph
       g (which must still be a random-number task). g's destroy waits
       for it. A failure fails the task, the recorded task unchanged. */
    int (*queue_graph_random_update)(struct oacl_queue *q, struct oacl_bgraph *g, struct oacl_queue *gq,
                                     uint32_t index, const void *src, size_t size, oacl_random_convert_fn convert,
                                     int32_t dev_id, char *err);
};

/*
 * A task failed (reliability chapter 3.1). The backend calls this on the
 * thread that completes the task, after all its blocks stopped and before
 * its completion is visible, outside any signal handler and any backend
 * lock; the API layer runs the exception callbacks. A synchronise of
 * `queue` from inside must fail (the backend refuses it) instead of waiting
 * for itself.
 */
struct oacl_task_failure {
    int code;
    uint32_t task_id;        /* per-queue number, from 0 */
    int32_t stream_id;       /* queue_set_id's value */
    uint32_t tid;            /* gettid() of the thread that queued it */
    uint32_t device_index;   /* the backend device */
    bool kernel;             /* a kernel launch: args and fault_user below */
    const void *args;        /* the launch's argument blob (valid during the call) */
    size_t args_size;
    void *fault_user;        /* struct oacl_launch.fault_user */
    void *fault_func;        /* struct oacl_launch.fault_func */
};
void oacl_runtime_task_failed(const struct oacl_task_failure *f);

/* Accesses of va_map / va_protect (the values of aclrtMemAccessFlags). */
enum oacl_va_access { OACL_VA_NONE = 0, OACL_VA_READ = 1, OACL_VA_READWRITE = 3 };

/* The CPU device's table (src/device/cpu/cpu_backend.c). */
extern const struct oacl_backend_ops oacl_cpu_backend_ops;

#endif /* OACL_DEVICE_BACKEND_H */
