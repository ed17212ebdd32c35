/*
 * The profiling collector: fixed-size records appended to per-thread
 * buffers while a session runs (src/runtime/prof_session.c starts and ends
 * sessions; prof_export.c turns the records into the CANN result files).
 *
 * Cost when no session runs: every hook is one relaxed load of
 * oacl_trace_mask and a predictable branch. While a session runs a record
 * is a copy into the calling thread's own 64 KiB chunk; full chunks go to a
 * session list and, past OACL_PROFILE_BUFFER_MB (default 64), to a spill
 * file in the session directory, so a long run never grows memory without
 * bound.
 */
#ifndef OACL_COMMON_TRACE_H
#define OACL_COMMON_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a session records (bits of oacl_trace_mask). */
enum oacl_trace_cat {
    OACL_TR_ACL = 1u << 0,     /* AscendCL@ API events */
    OACL_TR_RUNTIME = 1u << 1, /* Runtime@ events */
    OACL_TR_NODE = 1u << 2,    /* Node@ event per kernel launch */
    OACL_TR_TASK = 1u << 3,    /* device tasks (stream tracks) */
    OACL_TR_BLOCK = 1u << 4,   /* kernel blocks (core tracks) */
    OACL_TR_TX = 1u << 5,      /* msproftx / mstx */
    OACL_TR_STEP = 1u << 6,    /* step markers */
    OACL_TR_MEM = 1u << 7,     /* device memory counters */
    OACL_TR_STATS = 1u << 8,   /* ACL_PROF_API_STATS: API statistics only */
};

extern uint32_t oacl_trace_mask;    /* atomic; 0 = no session */
extern uint64_t oacl_trace_devices; /* atomic; bit d: device d is profiled */

static inline uint32_t oacl_trace_on(uint32_t cats)
{
    return __atomic_load_n(&oacl_trace_mask, __ATOMIC_RELAXED) & cats;
}

static inline bool oacl_trace_device_on(uint32_t cats, uint32_t device)
{
    return oacl_trace_on(cats) && device < 64 &&
           ((__atomic_load_n(&oacl_trace_devices, __ATOMIC_RELAXED) >> device) & 1u);
}

enum oacl_rec_kind {
    OACL_REC_API = 1,     /* level: enum oacl_api_level */
    OACL_REC_TASK = 2,    /* level: enum oacl_task_type */
    OACL_REC_BLOCK = 3,
    OACL_REC_TX = 4,      /* level: enum oacl_tx_event */
    OACL_REC_TX_DEV = 5,  /* device side of a tx marker (stream track) */
    OACL_REC_STEP = 6,    /* a step marker reached its stream: level 0 start, 1 end */
    OACL_REC_COUNTER = 7, /* name = series, a = value */
};

enum oacl_api_level { OACL_LVL_ACL = 0, OACL_LVL_RUNTIME = 1, OACL_LVL_NODE = 2, OACL_LVL_MODEL = 3 };

enum oacl_task_type {
    OACL_TT_OTHER = 0,
    OACL_TT_KERNEL_AIVEC,
    OACL_TT_KERNEL_AICORE,
    OACL_TT_MEMCPY,
    OACL_TT_MEMSET,
    OACL_TT_EVENT_RECORD,
    OACL_TT_EVENT_WAIT,
    OACL_TT_EVENT_RESET,
    OACL_TT_NOTIFY_RECORD,
    OACL_TT_NOTIFY_WAIT,
    OACL_TT_HOSTFUNC,
    OACL_TT_PROFILER_TRACE_EX,
    OACL_TT_VALUE_WRITE,
    OACL_TT_VALUE_WAIT,
    OACL_TT_REDUCE,
    OACL_TT_RANDOM,
    OACL_TT_CMO,      /* cache maintenance */
    OACL_TT_PREFETCH, /* managed-memory prefetch */
    OACL_TT_COUNT
};

enum oacl_tx_event { OACL_TX_MARKER = 0, OACL_TX_PUSHPOP = 1, OACL_TX_STARTEND = 2, OACL_TX_MARKER_EX = 3 };

/* Record flags. */
#define OACL_RECF_FAILED 0x01u  /* TASK: the task failed; API: a = return code */
#define OACL_RECF_MSTX 0x02u    /* TX: an mstx record (args: domain) */
#define OACL_RECF_FLOW 0x04u    /* TX / API: a flow starts here (id in c / a) */

/*
 * One record, 88 bytes. Times are CLOCK_MONOTONIC nanoseconds. Strings are
 * interned (oacl_trace_intern) or static, so they outlive the call.
 *   API:    tid = OS thread, name = API / kernel name, name2 = runtime op or item,
 *           a = connection id (0: none), b = return code, c = flow (1: starts here)
 *   TASK:   device, stream, task = task id, name = kernel name (or NULL), tid = blocks,
 *           extra = failure code, a = connection id, b = bytes (copies), c = busy ns (sum of
 *           block times), d = end of the previous traced task of the stream (0: none)
 *   BLOCK:  device, stream, task, tid = core index, extra = block index, name = kernel
 *   TX:     tid = OS thread, name = message, name2 = domain (mstx), a = flow id,
 *           b = category, c = payload value, extra = payload type
 *   TX_DEV: device, stream, name = message, a = flow id (start = end for marks)
 */
struct oacl_trace_rec {
    uint8_t kind;
    uint8_t level;
    uint8_t flags;
    uint8_t reserved;
    uint16_t device;
    uint16_t reserved2;
    int32_t stream;
    uint32_t tid;
    uint32_t task;
    uint32_t extra;
    uint64_t start;
    uint64_t end;
    const char *name;
    const char *name2;
    uint64_t a, b, c, d;
};

/* Appends a copy of r to the calling thread's buffer if the session still
 * runs (records racing with the end of a session are dropped). */
void oacl_trace_emit(const struct oacl_trace_rec *r);

/* A stable copy of s (process lifetime; the same pointer for equal text). */
const char *oacl_trace_intern(const char *s);

uint64_t oacl_trace_now(void);
/* The OS thread id of the caller (cached). */
uint32_t oacl_trace_tid(void);
/* A new id for flows, ranges and marks (from 1). */
uint64_t oacl_trace_next_id(void);

/* ---- session control (prof_session.c) ---- */

/* Starts recording `cats` for the devices in dev_mask; records beyond
 * mem_cap bytes spill to spill_path (NULL: never). storage_limit (0: none)
 * caps the bytes of task/block records kept. */
void oacl_trace_begin(uint32_t cats, uint64_t dev_mask, uint64_t mem_cap, const char *spill_path,
                      uint64_t storage_limit);
/* Stops recording and waits for records in flight. */
void oacl_trace_end(void);
/* Walks every record of the session that ended (call after
 * oacl_trace_end); returns false if fn asked to stop. */
bool oacl_trace_walk(bool (*fn)(const struct oacl_trace_rec *r, void *arg), void *arg);
/* Frees the records of the ended session. */
void oacl_trace_release(void);
/* CLOCK_REALTIME - CLOCK_MONOTONIC at the session start, ns. */
int64_t oacl_trace_epoch_offset(void);
/* Records dropped by the storage limit. */
uint64_t oacl_trace_dropped(void);

/* ---- the API-call scope (hooks in the API layer) ---- */

struct oacl_trace_scope {
    uint32_t on;          /* categories live at entry; 0: nothing to do */
    uint8_t level;        /* enum oacl_api_level of the outer event */
    uint8_t owns_flow;    /* work was queued in this very scope */
    const char *name;     /* API (or kernel) name */
    const char *rt;       /* runtime op name, NULL if none */
    uint64_t t0, t1;      /* outer start, runtime start */
    uint64_t conn;        /* connection id given to tasks queued inside */
    struct oacl_trace_scope *outer;
};

void oacl_trace_scope_begin(struct oacl_trace_scope *s, const char *name, const char *rt, uint8_t level);
void oacl_trace_scope_end(struct oacl_trace_scope *s);
/* The connection id of the innermost scope of the calling thread (given
 * one if it has none yet); 0 outside any scope. */
uint64_t oacl_trace_conn(void);
/* Called by oacl_fail: the current scope's return code. */
void oacl_trace_note_fail(int code);

static inline void oacl_trace_scope_leave(struct oacl_trace_scope *s)
{
    if (__builtin_expect(s->on != 0, 0))
        oacl_trace_scope_end(s);
}

#define OACL_TRACE_SCOPE_(var, nm, rtop, lvl, cats)                                                                \
    __attribute__((cleanup(oacl_trace_scope_leave))) struct oacl_trace_scope var;                                   \
    var.on = oacl_trace_on(cats);                                                                                    \
    if (__builtin_expect(var.on != 0, 0))                                                                            \
    oacl_trace_scope_begin(&var, nm, rtop, lvl)

/* First statement of an instrumented API function: records an AscendCL@
 * event for it (and a nested Runtime@<rt> event when rt is not NULL). */
#define OACL_PROF_API(rt) OACL_TRACE_SCOPE_(oacl_trace_api_scope_, __func__, rt, OACL_LVL_ACL, \
                                             OACL_TR_ACL | OACL_TR_RUNTIME | OACL_TR_STATS)
/* A Node@<kernel> event around a kernel launch. */
#define OACL_PROF_NODE(kernel) OACL_TRACE_SCOPE_(oacl_trace_node_scope_, kernel, NULL, OACL_LVL_NODE, OACL_TR_NODE)

#endif /* OACL_COMMON_TRACE_H */
