/*
 * Internal interface of the API layer (src/runtime). Each public ACL
 * function validates its arguments here once, resolves handles through the
 * handle table and calls the device backend through its ops table; it
 * never knows which backend runs.
 */
#ifndef OACL_RUNTIME_RUNTIME_H
#define OACL_RUNTIME_RUNTIME_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "common/handle.h"
#include "common/trace.h" /* OACL_PROF_API: profiler hooks of API functions */
#include "device/backend.h"

#define OACL_API ACL_FUNC_VISIBILITY

/* ---- errors (error.c) ------------------------------------------------------ */

/*
 * Records a failure of the calling API function: appends one line
 * "<fn>: <reason> (<code>)" to the recent-error text and, for runtime-layer
 * codes (1070xx, 2070xx, 5070xx), stores the code in the thread's
 * last-error slot. Returns code, so callers write `return oacl_fail(...)`.
 */
aclError oacl_fail_at(const char *file, int line, aclError code, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The caller's source location goes to CANN's log record of the failure. */
#define oacl_fail(code, fn, ...) oacl_fail_at(__FILE__, __LINE__, code, fn, __VA_ARGS__)
/* Appends a line to the recent-error text without touching the last error. */
void oacl_note_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void oacl_set_last_error(aclError code);
bool oacl_is_runtime_code(aclError code);
/* err_msg_mode from aclInit: false = per thread (default), true = process. */
void oacl_errmsg_set_global(bool global);

/* ---- configuration and process state (init.c) ------------------------------- */

struct oacl_config {
    uint32_t device_count;                  /* OACL_DEVICE_COUNT, default 8 */
    const struct oacl_soc_profile *soc;     /* NULL when OACL_SOC names no profile */
    uint64_t device_memory;                 /* bytes per device (OACL_DEVICE_MEMORY or the profile) */
    char soc_request[64];                   /* the name asked for */
    int32_t default_device;                 /* from aclInit config, -1 = none */
};

/* aclInit's configuration file (init_config.c). read: the whole raw text
 * (NUL-terminated; free it), ACL_ERROR_INVALID_FILE when it cannot be
 * opened or read; a regular file over 10 MiB sets *too_large instead
 * (no text). parse: the JSON checks (100006) and the values of the keys
 * with an effect (invalid value: 100000); nothing is applied. */
struct oacl_init_settings {
    bool global_msgs;       /* err_msg_mode "1" */
    int32_t default_device; /* defaultDevice.default_device, -1 = none */
};
aclError oacl_config_file_read(const char *path, char **text, size_t *len, bool *too_large);
aclError oacl_config_parse(const char *text, size_t len, const char *path, struct oacl_init_settings *out);

/* True between a successful aclInit and the aclFinalize that ends it. */
bool oacl_acl_initialized(void);

/* Process-wide configuration; read once from the environment on first use. */
const struct oacl_config *oacl_config(void);
void oacl_config_set_default_device(int32_t dev);
/* Version of the installation ("0.1.0"), from share/info/runtime/version.info
 * next to the library when present, else the built-in version. */
const char *oacl_version_string(void);

/* ---- devices (device.c) --------------------------------------------------- */

struct oacl_context;

struct oacl_device {
    int32_t id;
    pthread_mutex_t lock;
    uint32_t set_count;                 /* aclrtSetDevice references */
    struct oacl_context *default_ctx;   /* live while set_count > 0 */
    struct oacl_bdev *bdev;             /* backend device, opened on first use */
    uint32_t next_stream_id;            /* atomic */
    uint32_t streams;                   /* atomic: live streams, default ones included */
    uint64_t mem_used;                  /* device memory allocated (mem_lock) */
    pthread_mutex_t mem_lock;
    /* State of the device queries (device_query.c), all atomic; cleared by
       the final reset. */
    uint32_t res_limit[2];              /* cube / vector cores a launch may use, 0 = no limit */
    uint64_t peer_mask;                 /* bit p: access to device p's memory enabled */
    int32_t fault_code;                 /* newest kernel failure synchronised, 0 = none */
    int32_t group_sel;                  /* groups.c: aclrtSetGroup id + 1, 0 = none (atomic) */
    uint32_t task_abort;                /* stream_ctl.c: aclrtDeviceTaskAbort in progress (atomic) */
};

/* Streams per device, default streams included (CANN: 512..2048). */
#define OACL_MAX_STREAMS_PER_DEVICE 2048u

const struct oacl_backend_ops *oacl_backend(void);
/* Checks OACL_SOC and the device count; fn names the caller in messages. */
aclError oacl_devices_check(const char *fn);
struct oacl_device *oacl_device_at(int32_t id);
/* Opens the backend device if needed (device lock held by the caller). */
aclError oacl_device_open_locked(struct oacl_device *dev, const char *fn);
/* Resolves a device id argument; out of range: bad_code (107001 for
 * set-style functions, 107000 for queries) with a message naming fn. */
aclError oacl_device_lookup(int64_t id, aclError bad_code, struct oacl_device **out, const char *fn);

/* Cores of the vector kind a launch on dev may use at once (0: no limit). */
uint32_t oacl_device_core_limit(const struct oacl_device *dev);
/* Records a task failure that a synchronisation reported on dev; kernel
 * failures are what aclrtGetErrorVerbose describes. Call it wherever a
 * queue_sync result reaches the API (idempotent). */
void oacl_device_note_fault(struct oacl_device *dev, aclError code);
/* True when access from device `from` to device `to` has been enabled. */
bool oacl_device_peer_enabled(int32_t from, int32_t to);
/* Forgets limits, peer records and faults of dev (its final reset). */
void oacl_device_query_reset(struct oacl_device *dev);

/* ---- contexts (context.c) ---------------------------------------------------- */

struct oacl_stream;

struct oacl_context {
    struct oacl_obj obj;
    struct oacl_device *dev;
    bool is_default;
    void *handle;                       /* its handle value (obj.handle is cleared on retire) */
    struct oacl_stream *default_stream;
    void *default_stream_handle;        /* what aclrtCtxGetCurrentDefaultStream hands out */
    pthread_mutex_t lock;               /* protects the stream list and dead */
    struct oacl_stream *streams;        /* created streams, newest first */
    struct oacl_stream *draining;       /* destroyed by force, work still running (one
                                           reference each); reaped once idle */
    bool dead;                          /* being torn down: no new streams */
    struct oacl_fail_group fail;        /* ACL_STOP_ON_FAILURE for all its streams */
    /* aclrtCtxSetSysParamOpt (ctx_sysparam.c), under lock: options 0..2 */
    int64_t sysparam[3];
    uint32_t sysparam_set;              /* bit o: option o was set */
};

/* A new context on dev with its default stream (device lock held). */
aclError oacl_context_create_locked(struct oacl_device *dev, bool is_default, struct oacl_context **out,
                                    const char *fn);
/* Waits for and destroys every stream of ctx, then retires its handle. */
void oacl_context_teardown(struct oacl_context *ctx);

/*
 * The calling thread's current context (+1 reference, drop with
 * oacl_obj_put). Without one: the configured default device is set
 * implicitly, else ACL_ERROR_RT_CONTEXT_NULL with a message naming fn.
 */
aclError oacl_ctx_current(struct oacl_context **out, const char *fn);
/* The same check for calls that only need a current context to exist:
 * no reference taken (two atomic operations fewer on hot lookups). */
aclError oacl_ctx_require(const char *fn);
/* Makes ctx (or nothing, if NULL) the calling thread's current context. */
void oacl_ctx_bind(struct oacl_context *ctx);
/* The calling thread's bound context, no reference taken (NULL: none). */
struct oacl_context *oacl_ctx_peek(void);

/* ---- streams (stream.c) ------------------------------------------------------ */

struct oacl_stream {
    struct oacl_obj obj;
    struct oacl_context *ctx;
    struct oacl_queue *queue;           /* backend queue */
    int32_t id;
    uint32_t priority;
    uint32_t flags;
    bool is_default;
    struct oacl_stream *next, *prev;    /* in ctx->streams */
    /* Host work (callback.c, under its lock): the thread subscribed for
       callbacks or host functions, or the stream's own host thread. */
    struct subscriber *report_sub;
    struct subscriber *hostfunc_sub;
    struct oacl_host_thread *host_thread;
    void *handle;                       /* its handle value (obj.handle is cleared on retire) */
    /* stream_limits.c: aclrtSetStreamResLimit per aclrtDevResLimitType,
       valid where bit `type` of res_set is set (atomic). */
    uint32_t res_limit[2];
    uint32_t res_set;
    /* Stream attributes (stream_attr.c), atomic: ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK,
       _USER_CUSTOM_TAG and _CACHE_OP_INFO (the priority is `priority` above). */
    uint32_t overflow_switch;
    uint32_t user_tag;
    uint32_t cache_op_info;
    /* stream_ctl.c, atomic: aclrtStreamAbort in progress; DESTROY_PRE told */
    uint32_t aborting;
    uint32_t destroy_told;
    /* Task graphs (model_ri.c), under the RI lock: the RI this stream
       captures into (its queue is then the RI stream's recording queue,
       own_queue its own), or the RI owning this RI-internal stream. */
    struct oacl_ri *ri_capture;
    struct oacl_ri_stream *ri_stream;
    struct oacl_queue *own_queue;
    struct oacl_ri *ri_owner;
    struct oacl_queue *persist_own;     /* ACL_STREAM_PERSISTENT: its own queue (queue records) */
    struct oacl_ri_grp *ri_update;      /* update mode: the task group its launches replace */
    uint32_t ri_update_n;               /* launches issued in update mode so far */
    bool ri_internal;                   /* an RI's own stream: takes no work (Decision 28) */
    uint32_t sat_mode;                  /* aclrtFloatOverflowMode taken at creation (overflow.c) */
};

/* ---- float overflow (overflow.c) ---- */
/* The aclrtFloatOverflowMode streams take when they are created. */
uint32_t oacl_overflow_sat_mode(void);
/* The stream's effective overflow switch (0 or 1). */
uint32_t oacl_overflow_switch(const struct oacl_stream *s);
/* Fills the float-overflow fields of a launch queued on s. */
void oacl_overflow_launch(const struct oacl_stream *s, struct oacl_launch *l);
/* Frees ctx's overflow area, if it has one (context teardown). */
void oacl_overflow_ctx_release(struct oacl_context *ctx);

/* Stops the stream's host thread and drops its subscriptions (the stream's
 * queue is drained). */
void oacl_stream_host_release(struct oacl_stream *s);

/* Creates a stream in ctx; *out (the object, only safe to use for a
 * default stream, which its context owns) and *handle_out are optional. */
aclError oacl_stream_create(struct oacl_context *ctx, bool is_default, uint32_t priority, uint32_t flags,
                            struct oacl_stream **out, void **handle_out, const char *fn);
/* What a stream argument is resolved for. */
enum oacl_stream_use {
    OACL_STREAM_QUERY = 0,   /* any live stream (synchronise, query) */
    OACL_STREAM_ENQUEUE = 1, /* a stream of ctx that accepts work */
    OACL_STREAM_OWN = 2,     /* a stream of ctx (destroy, configure) */
    OACL_STREAM_LAUNCH = 3,  /* ENQUEUE of a kernel launch (what task groups and task update accept) */
};

/*
 * Resolves an aclrtStream argument (+1 reference): NULL is the default
 * stream of ctx. A stream of another context is ACL_ERROR_RT_STREAM_CONTEXT
 * (ENQUEUE, OWN); a context stopped by a failure refuses work (ENQUEUE); a
 * stale handle is ACL_ERROR_RT_INVALID_HANDLE.
 */
aclError oacl_stream_resolve(struct oacl_context *ctx, aclrtStream stream, enum oacl_stream_use use,
                             struct oacl_stream **out, const char *fn);
/* oacl_stream_resolve against the calling thread's current context: what
 * every API taking an aclrtStream argument starts with. */
aclError oacl_stream_arg(aclrtStream stream, enum oacl_stream_use use, struct oacl_stream **out, const char *fn);
/* Retires the handle and unlinks the stream, then waits for its pending
 * work. False if another teardown got there first. */
bool oacl_stream_teardown(struct oacl_stream *s);
/* Retires the handle at once and leaves the work queued before it running:
 * the stream moves to ctx->draining until its queue is idle. False if
 * another teardown got there first. */
bool oacl_stream_release_async(struct oacl_stream *s);
/* Frees the draining streams of ctx whose work is done; with wait, waits
 * for all of them first (context teardown). */
void oacl_stream_reap(struct oacl_context *ctx, bool wait);
/* Waits for the stream and turns a task failure into the return code. */
aclError oacl_stream_sync(struct oacl_stream *s, int64_t timeout_ns, const char *fn);

/* ---- task graphs (model_ri.c) ------------------------------------------------ */

struct oacl_ri;
struct oacl_ri_stream;
struct oacl_ri_grp;
struct oacl_launch;
/* A launch on a stream in task-update mode (model_ri_group.c): replaces the
 * next task of the group, in the stream's order. */
aclError oacl_ri_update_launch(struct oacl_stream *s, const struct oacl_launch *l, const char *fn);
struct oacl_event;
/* 107027 when s captures, 107005 when it is an RI-internal stream (the
 * calls of acl-rt-model-ri.md §3.1.9 that refuse both). */
aclError oacl_ri_stream_check(struct oacl_stream *s, const char *fn);
/* An unsafe synchronous call (aclrtMemcpy, aclrtMemset, ...) by the calling
 * thread in ctx: 107030 when a capture mode forbids it (§3.1.8). */
aclError oacl_ri_unsafe_check(struct oacl_context *ctx, const char *fn);
/* 107027 while a stream of ctx captures (aclrtSynchronizeDevice). */
aclError oacl_ri_ctx_check(struct oacl_context *ctx, const char *fn);
/* What the API layer knows of the task it just recorded on capturing
 * stream s (kernels: blob size; value write/wait: word, value, flag). */
struct oacl_ri_note {
    size_t args_size;
    uint64_t timeout_ns;
    bool data_dump;
    void *addr;
    uint64_t value;
    uint32_t flag;
};
void oacl_ri_note(struct oacl_stream *s, const struct oacl_ri_note *n);
/* Event record / wait where a capture is involved (s captures, or e was
 * recorded in an active capture): *handled false leaves it to the eager
 * path. */
aclError oacl_ri_event_record(struct oacl_stream *s, struct oacl_event *e, bool *handled, const char *fn);
aclError oacl_ri_event_wait(struct oacl_stream *s, struct oacl_event *e, bool *handled, const char *fn);
/* 107028 when e was recorded in an active capture (event sync/query). */
aclError oacl_ri_event_check(struct oacl_event *e, const char *fn);
/* ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL on a stream (107029
 * unless it captures): recorded as a task acting on the user's event. */
aclError oacl_ri_event_external(aclrtStream stream, struct oacl_event *e, bool wait, const char *fn);
/* Context teardown: destroys the context's RIs (waiting for their
 * executions, running their destroy callbacks; model_ri.c). */
void oacl_ri_context_teardown(struct oacl_context *ctx);
/* A non-kernel enqueue on s while s is in task-update mode or has a task
 * group open in its capture: 507009; any enqueue (launch true: a kernel)
 * on a capturing s while another stream of its capture has a group open:
 * 107034 (both break the capture). */
aclError oacl_ri_enqueue_check(struct oacl_stream *s, bool launch, const char *fn);
/* model_ri_opinfo.c: the calling thread's enqueues, for
 * aclrtCacheLastTaskOpInfo: one on a capturing stream is noted (before the
 * task is recorded), any other forgets the last one. */
extern _Thread_local void *oacl_tls_ri_last;
void oacl_ri_note_enqueue(struct oacl_stream *s);
static inline void oacl_ri_forget_enqueue(void)
{
    if (__builtin_expect(oacl_tls_ri_last != NULL, 0))
        oacl_tls_ri_last = NULL;
}
/* Attaches a copy of info to the thread's last task (507000 where it has no meaning). */
aclError oacl_ri_cache_op_info(const void *info, size_t size, const char *fn);
/* The same for aclrtCacheLastTaskExtendInfo: a string (at most
 * OACL_RI_EXTEND_INFO_MAX bytes kept), shown by aclmdlRIDebugJsonPrint. */
#define OACL_RI_EXTEND_INFO_MAX 4096u
aclError oacl_ri_cache_extend_info(const char *info, size_t size, const char *fn);
/* ACL_STREAM_PERSISTENT (model_ri_built.c): the new stream's queue becomes a
 * recording queue; release gives its own queue back before destruction. */
aclError oacl_ri_persistent_init(void *handle, const char *fn);
void oacl_ri_persistent_release(struct oacl_stream *s);

/* ---- memory pools (mem_pool.c) --------------------------------------------------- */

/* Applies the release threshold of dev's memory pools; called after every
 * stream, event or device synchronisation (cheap when no pool exists). */
void oacl_mem_pool_on_sync(struct oacl_device *dev);

/* ---- kernels (kernel_binary.c, kernel_args.c) ----------------------------------- */

struct oacl_binary;
struct oacl_mem_record;

struct oacl_function {
    struct oacl_obj obj;
    struct oacl_binary *bin;
    const struct oacl_kernel_info *info;
    /* device-kernel chapter */
    const void *symbol;                 /* linked kernels: the host function's address */
    bool cpu;                           /* aclrtRegisterCpuFunc */
    struct oacl_function *next_cpu;     /* the binary's CPU functions (bin->lock) */
};

struct oacl_binary {
    struct oacl_obj obj;
    struct oacl_device *dev;
    struct oacl_module *module;         /* backend module, refcounted there */
    uint32_t num_kernels;
    const struct oacl_kernel_info *kernels;
    struct oacl_function **funcs;       /* created on first lookup */
    pthread_mutex_t lock;
    struct oacl_mem_record *ranges;     /* the module's memory in the address
                                           registry (binary_global.c) */
    uint32_t num_ranges;
    /* device-kernel chapter (binary_load.c, kernel_symbol.c) */
    bool implicit;                      /* the linked kernels of one program module: not unloadable */
    bool cpu_library;                   /* CPU_KERNEL_MODE 2: kernels come from aclrtRegisterCpuFunc */
    int32_t default_type;               /* aclrtKernelType of the MAGIC option, -1: none */
    struct oacl_function *cpu_funcs;    /* registered CPU functions (lock) */
};

#define OACL_ARGS_MAX_PARAMS 128u
#define OACL_ARGS_BUFFER_SIZE (64u * 1024u)

/* One parameter of an argument list. */
struct oacl_param {
    struct oacl_obj obj;                /* runtime lists: its table handle (not refcounted) */
    struct oacl_args *list;
    uint32_t index;
    uint32_t offset, size;              /* in the list's buffer */
    bool is_placeholder;
    bool has_data;                      /* a placeholder whose data area was reserved */
    uint64_t tag;                       /* user lists: OACL_USER_PARAM_TAG while valid */
};

/*
 * An argument list. Runtime lists (aclrtKernelArgsInit) are per thread and
 * reused, with table handles. User lists (aclrtKernelArgsInitByUserMem)
 * live in caller memory: the header and records in the handle memory, the
 * argument bytes in the caller's buffer; their handles are addresses.
 */
struct oacl_args {
    struct oacl_obj obj;                /* runtime lists: a table handle (not refcounted) */
    uint64_t tag;                       /* user lists: OACL_USER_ARGS_TAG while it holds a list */
    bool user;
    uint32_t generation;                /* user lists: of the latest init (in parameter handles) */
    struct oacl_function *func;         /* runtime lists: +1 reference while initialised; user
                                           lists: no reference, func_handle is checked at every use */
    void *func_handle;
    uint32_t align;                     /* parameter alignment: 8 (CPU kernels: 1) */
    uint32_t max_params;
    uint32_t capacity;                  /* bytes of buf */
    uint32_t num_params;
    uint32_t size;                      /* bytes used in buf: parameters, then placeholder data */
    bool finalized;
    bool updating;                      /* ParaUpdate since the last Finalize */
    bool data_started;                  /* a placeholder buffer was reserved: no more parameters */
    uint32_t num_placeholders;
    uint32_t num_patches;               /* placeholders with a data area */
    unsigned char *buf;
    struct oacl_param *params;          /* max_params records */
    struct oacl_arg_patch *patches;     /* max_params records */
};

/* The list behind an argsHandle (runtime or user memory); 107017 when it
 * is stale, not a list, or its kernel was unloaded (kernel_args.c). */
aclError oacl_args_lookup(aclrtArgsHandle h, struct oacl_args **out, const char *fn);
/* Bytes of handle memory a user list for f needs (aclrtKernelArgsGetHandleMemSize). */
size_t oacl_args_user_header_size(const struct oacl_function *f);

/* Launch-time check of an argument list against the kernel's metadata. */
aclError oacl_args_check(const struct oacl_args *a, const struct oacl_function *f, const char *fn);

/* ---- device variables (symbol.c, binary_global.c) ------------------------------- */

/* What a binary is loaded from: a file (path), or len bytes at data (a
 * kernel image, or a CPU-kernel library with cpu_library). */
struct oacl_binary_source {
    const char *path;
    const void *data;
    size_t len;
    bool cpu_library;
};

/*
 * Loads src for dev as a new instance of binary b (its own globals): the
 * module, its memory ranges in the address registry (device memory of dev,
 * read-only parts read-only) and the device variables its constructors
 * register. Fills b->module, kernels, dev, ranges. Fails with a message
 * naming fn.
 */
aclError oacl_binary_load_module(struct oacl_binary *b, struct oacl_device *dev, const struct oacl_binary_source *src,
                                 const char *fn);
/* Takes the binary's variables and memory out of the symbol table and the
 * registry (aclrtBinaryUnLoad; the object may live on a while). Idempotent. */
void oacl_binary_forget_memory(struct oacl_binary *b);
/* Undoes oacl_binary_load_module (the binary's last reference went). */
void oacl_binary_unload_module(struct oacl_binary *b);

/* Between begin and end, device variables registered by the calling thread
 * (constructors of the module being loaded) are held back; end with commit
 * enters them as variables of `owner` on `device`, else drops them. */
void oacl_symbols_load_begin(void);
void oacl_symbols_load_end(const void *owner, int32_t device, bool commit);
/* Forgets every device variable of owner (its binary is unloaded). */
void oacl_symbols_drop_owner(const void *owner);

/* Device of the calling thread's current context, -1 if it has none (no
 * implicit device, no error recorded). */
int32_t oacl_ctx_device_quiet(void);
/* ---- memory extras (memory_config.c, memory_query.c, managed_memory.c,
 *      allocator.c, soc_family.c; shared helpers of memory.c) ------------- */

/* Profile families of the availability tables (spec memory-extras §1.1). */
enum oacl_soc_family {
    OACL_SOC_FAMILY_NONE = 0, /* OACL_SOC names no profile */
    OACL_SOC_FAMILY_A2,       /* Ascend910B* (2201) */
    OACL_SOC_FAMILY_A3,       /* Ascend910_93* (2201) */
    OACL_SOC_FAMILY_950,      /* Ascend950*, and the other 3510 profiles */
    OACL_SOC_FAMILY_310P,     /* Ascend310P* (2002) */
    OACL_SOC_FAMILY_310B,     /* Ascend310B* (3002) */
    OACL_SOC_FAMILY_910,      /* Ascend910, 910A, 910Pro*, 910PremiumA (1001) */
};
#define OACL_SOC_MASK(f) (1u << (f))
enum oacl_soc_family oacl_soc_family(void);
/* ACL_SUCCESS when the current profile is in `families` (OACL_SOC_MASK
 * bits); else 207000 with "<fn> is not supported on <SoC>" (or the
 * OACL_SOC error when no profile is configured). */
aclError oacl_soc_require(uint32_t families, const char *fn);

/* True when addr lies in an address range reserved with the virtual-memory
 * functions (vmm.c; takes the VMM lock, so never call it holding the
 * registry lock). */
bool oacl_vmm_reserved(uintptr_t addr);

/* Module ids of allocations (CANN's log module ids). */
#define OACL_MODULE_RUNTIME 7u
#define OACL_MODULE_APP 33u

/* Device memory (memory.c): the aclrtMalloc path with the padding choice
 * (round to 32, plus 32 bytes when pad) and the owner's module id. */
aclError oacl_device_malloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy, bool pad, uint16_t module_id,
                            const char *fn);
/* aclrtFree (device and managed memory) and aclrtFreeHost, naming fn. */
aclError oacl_device_free(void *devPtr, const char *fn);
aclError oacl_host_free(void *hostPtr, const char *fn);
/* Pinned host memory; va_identity: mapped later, its device address is the
 * host address itself. */
aclError oacl_host_malloc(void **hostPtr, size_t size, bool va_identity, uint16_t module_id, const char *fn);

/* Device memory usage per component (memory_query.c): bytes held now and
 * the peak, per device; module RUNTIME counts as "RUNTIME", others "APP". */
void oacl_mem_usage_add(int32_t device, uint16_t module_id, uint64_t bytes);
void oacl_mem_usage_sub(int32_t device, uint16_t module_id, uint64_t bytes);

/* Waits for every stream of the current context (device_query.c);
 * timeout_ns < 0: no limit. The first task failure is the result. */
aclError oacl_device_sync(int64_t timeout_ns, const char *fn);

/* Frees managed memory at ptr (managed_memory.c), for aclrtFree. */
aclError oacl_managed_free(void *ptr, const char *fn);

/* Drops the allocator registration of a stream being destroyed (allocator.c). */
void oacl_allocator_forget_stream(const void *stream_handle);
/* ---- miscellaneous functions (spec acl-rt-misc.md) ------------------------------- */

/* Init/finalize callbacks (init_callbacks.c): run the callbacks of one
 * aclRegisterCallbackType from a snapshot; the first non-zero result is
 * returned (with a message naming aclInit / fn). */
aclError oacl_notify_init_callbacks(int type, const char *text, size_t len);
aclError oacl_notify_finalize_callbacks(int type, const char *fn);
/* True on a thread running aclInit/aclFinalize callbacks (nested calls
 * would deadlock on the init lock). */
bool oacl_in_lifecycle_callback(void);
/* init.c: true while the process is initialized; then *text / *len are the
 * configuration text of the successful aclInit (NUL-terminated, "" without
 * a file; immutable). */
bool oacl_init_config_text(const char **text, size_t *len);

/* Core limits (device_query.c): cores of an aclrtDevResLimitType the
 * profile has (false: unknown type), and dev's limit in force for it (the
 * aclrtSetDeviceResLimit one, else every core). */
bool oacl_res_cores(int type, uint32_t *n);
uint32_t oacl_device_res_effective(const struct oacl_device *dev, int type);

/* Stream resource limits (stream_limits.c). The limit in force for the
 * calling thread on dev: its bound stream's (aclrtUseStreamResInCurrentThread)
 * if set for type, else oacl_device_res_effective. */
uint32_t oacl_thread_res_limit(const struct oacl_device *dev, int type);
/* The executor's max_cores (0: no limit) for a launch the calling thread
 * enqueues on dev: the thread's vector-core limit (0 counts as 1) bounded
 * by the device's compute group. */
uint32_t oacl_launch_core_limit(const struct oacl_device *dev);

/* Compute groups (groups.c). AI Cores of dev's group in use (0: none);
 * the stream-creation rule (107013 when several groups exist, none is the
 * default and none was selected; a default stream is created anyway, with
 * a warning); forgetting the selection at the final reset. */
uint32_t oacl_group_core_limit(const struct oacl_device *dev);
aclError oacl_group_stream_check(const struct oacl_device *dev, bool is_default, const char *fn);
void oacl_group_device_reset(struct oacl_device *dev);

/* System parameters (sysparam.c); opt is an aclSysParamOpt value. set
 * ignores invalid pairs (aclrtCtxSetSysParamOpt also writes here). */
bool oacl_sysparam_valid(int opt, int64_t value);
int64_t oacl_sysparam_get(int opt);
void oacl_sysparam_set(int opt, int64_t value);
/* ACL_OPT_ENABLE_DEBUG_KERNEL is 1: kernels' global-memory accesses may be checked. */
bool oacl_sysparam_debug_kernel(void);

/* ---- device-kernel chapter (acl-rt-device-kernel-extras.md) ---------------- */

/* Device ids (device_ids.c). Applies ASCEND_RT_VISIBLE_DEVICES to the
 * driver's device count and returns the number of user ids (0 when the
 * variable is malformed); the check fails every device call then. */
uint32_t oacl_visible_devices_init(uint32_t driver_count);
aclError oacl_visible_devices_check(const char *fn);
/* Physical (= logical) id of a valid user id. */
int32_t oacl_device_phys_id(int32_t user);
/* Whether logical device `logical` is visible to the process. */
bool oacl_logical_visible(int32_t logical);

/* Frees the device's aclrtGetHardwareSyncAddr area (final reset; hw_sync.c). */
void oacl_hw_sync_release(struct oacl_device *dev);

/* The error that stopped the calling thread's current context (STOP
 * mode), 0 if none or no context; records nothing (context.c). */
int oacl_ctx_stopped_error(void);

/* Kernel binaries (kernel_binary.c): a new binary handle for src loaded on
 * the device of ctx; default_type as in struct oacl_binary. */
aclError oacl_binary_create(struct oacl_context *ctx, const struct oacl_binary_source *src, int32_t default_type,
                            aclrtBinHandle *out, const char *fn);
/* The binary's CPU functions lose their handles (aclrtBinaryUnLoad). */
void oacl_binary_retire_cpu_funcs(struct oacl_binary *b);

/* Launches (kernel_launch.c): a parsed aclrtLaunchKernelCfg, and the
 * common tail of every launch form. bin_dev is the device the kernel was
 * loaded for (NULL: code linked into the program, runs on any device;
 * another device than the current one: 107017). */
struct oacl_launch_cfg {
    uint32_t block_offset;
    uint64_t timeout_ns;
    const struct oacl_arg_patch *patches; /* placeholders (copied blobs) */
    uint32_t num_patches;
    bool data_dump;                       /* ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP */
    bool timeout_set;                     /* TIMEOUT or TIMEOUT_US given (timeout_ns: the request) */
    struct oacl_function *func;           /* the launched function (NULL: <<<>>>), set by the caller */
};
aclError oacl_launch_cfg_parse(const aclrtLaunchKernelCfg *cfg, struct oacl_launch_cfg *out, const char *fn);
/* The timeout a launch carries (op_timeout.c): its attribute, else the
 * process-wide setting, rounded to credits; 0 = no limit. */
uint64_t oacl_launch_timeout_ns(const struct oacl_launch_cfg *c);
aclError oacl_launch_enqueue(struct oacl_module *module, const struct oacl_kernel_info *info,
                             struct oacl_device *bin_dev, uint32_t num_blocks, aclrtStream stream,
                             const struct oacl_launch_cfg *c, const void *args, size_t args_size, bool copy_args,
                             const char *fn);

/* The kernel behind a `void *func` argument (+1 reference): with symbols,
 * first the host address of a kernel linked into the program (needs a
 * context: 107002), then a live function handle; else 107017
 * (kernel_symbol.c). */
aclError oacl_func_resolve(const void *func, bool symbols, struct oacl_function **out, const char *fn);

/* The leak report (leak_report.c): prints what is still alive to stderr
 * when OACL_LEAK_REPORT=1 or memcheck mode is on; `when` names the moment. */
void oacl_leak_report(const char *when);
/* ---- execution control and state observers (stream_ctl.c, acl-rt-reliability.md §3.3) ---- */

/* 107022 (with a message naming fn) while an aclrtDeviceTaskAbort runs on dev. */
aclError oacl_ctl_device_check(const struct oacl_device *dev, const char *fn);
/* 107022 / 107023 when s's device is in a task abort / s is being aborted. */
aclError oacl_ctl_stream_check(const struct oacl_stream *s, const char *fn);
/* Contexts known to aclrtDeviceTaskAbort: added once created, removed when
 * their teardown starts. */
void oacl_ctl_ctx_add(struct oacl_context *ctx);
void oacl_ctl_ctx_remove(struct oacl_context *ctx);
/* Stream state observers (aclrtRegStreamStateCallback): CREATE_POST with a
 * new stream's handle; DESTROY_PRE once per stream (later calls do nothing).
 * Called without runtime locks held. */
void oacl_ctl_stream_created(void *handle);
void oacl_ctl_stream_destroying(struct oacl_stream *s);
/* Device state observers (aclrtRegDeviceStateCallback), aclrtDeviceState. */
void oacl_ctl_device_state(int32_t device, int state);
/* Devices (bit per id < 64) on which the process has a context. */
uint64_t oacl_ctl_active_devices(void);
/* Synchronises every stream of every context; the first failure found. */
aclError oacl_ctl_sync_all(const char *fn);
/* Process snapshot (snapshot.c): while the process is locked, calls that
 * change device state wait here (the locking thread passes). */
void oacl_snapshot_gate(void);
/* The same around a call that changes device memory: a lock waits until
 * every call between enter and leave has left. */
void oacl_snapshot_enter(void);
void oacl_snapshot_leave(void);

#endif /* OACL_RUNTIME_RUNTIME_H */
