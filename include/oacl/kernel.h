/*
 * oacl kernel-side C API: what a kernel compiled by oacl-cc uses to find
 * its block, view global memory, carve its unified buffer (UB) into queues
 * and move and compute data, with the state rules of AscendC's queues.
 *
 *   __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
 *   {
 *       oacl_pipe_t pipe;
 *       oacl_que_t in_x;
 *       oacl_pipe_init(&pipe);
 *       oacl_que_init(&in_x, OACL_POS_VECIN, 2);
 *       oacl_pipe_init_buffer(&pipe, &in_x, 2, 128 * sizeof(uint16_t));
 *       oacl_local_t t = oacl_que_alloc(&in_x, OACL_DT_F16);
 *       oacl_data_copy_in(t, oacl_gm_bind(x, 2048, OACL_DT_F16), 128);
 *       ...
 *       oacl_pipe_destroy(&pipe);
 *   }
 *
 * Every API call runs synchronously, in program order, inside its block, so
 * the hardware's pipeline dependencies hold trivially; the queue and buffer
 * bookkeeping still enforces the rules a real core relies on. Breaking one
 * (UB overflow, a queue used out of order, a misaligned or oversized copy)
 * fails the launch with a message naming the kernel and the block; the
 * stream reports ACL_ERROR_RT_AICORE_EXCEPTION at its next synchronise.
 *
 * Globals and static locals of a kernel are shared by all its blocks here
 * (on a device they are per core).
 */
#ifndef OACL_KERNEL_H
#define OACL_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "oacl/kernel_abi.h"
#include "oacl/kernel_qualifiers.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- blocks -------------------------------------------------------------- */

static inline int64_t oacl_get_block_idx(void) { return (int64_t)oacl_block()->block_idx; }
static inline int64_t oacl_get_block_num(void) { return (int64_t)oacl_block()->block_num; }

/* ---- element types ------------------------------------------------------- */

/* oacl_dtype_t (OACL_DT_*) is declared in oacl/kernel_abi.h. */

static inline uint32_t oacl_dtype_size(oacl_dtype_t t)
{
    switch (t) {
    case OACL_DT_I8: case OACL_DT_U8: return 1;
    case OACL_DT_F16: case OACL_DT_I16: case OACL_DT_U16: case OACL_DT_BF16: return 2;
    case OACL_DT_F32: case OACL_DT_I32: case OACL_DT_U32: return 4;
    case OACL_DT_I64: case OACL_DT_U64: return 8;
    }
    return 0;
}

static inline const char *oacl_dtype_name(oacl_dtype_t t)
{
    static const char *const names[] = {"?", "f16", "f32", "i32", "i16", "u16", "u32", "i8", "u8", "i64", "u64", "bf16"};
    return (unsigned)t <= OACL_DT_BF16 ? names[t] : "?";
}

/* Logical positions, numbered as AscendC's TPosition. */
typedef enum oacl_position {
    OACL_POS_GM = 0,
    OACL_POS_VECIN = 9,
    OACL_POS_VECOUT = 10,
    OACL_POS_VECCALC = 11,
} oacl_position_t;

#define OACL_DATA_BLOCK 32u          /* bytes: unit of copies and UB addresses */
#define OACL_PIPE_MAX_BUFFERS 64u    /* buffers one pipe may hand out in total */
#define OACL_QUE_MAX_BUFFERS 64u     /* buffers per InitBuffer call */
#define OACL_MAX_LIVE_PER_POSITION 8u /* buffers of one position in use at once */

/* ---- global memory --------------------------------------------------------- */

/* A typed view of global memory: start address and element count. */
typedef struct oacl_gm {
    __gm__ uint8_t *addr;
    uint64_t size;        /* elements given at bind time; 0 = unknown */
    oacl_dtype_t dtype;
} oacl_gm_t;

static inline oacl_gm_t oacl_gm_bind(void *ptr, uint64_t count, oacl_dtype_t dtype)
{
    oacl_gm_t g;
    g.addr = (__gm__ uint8_t *)ptr;
    g.size = count;
    g.dtype = dtype;
    return g;
}

/* The view advanced by `elems` elements (its recorded size stays). */
static inline oacl_gm_t oacl_gm_offset(oacl_gm_t g, uint64_t elems)
{
    g.addr += elems * oacl_dtype_size(g.dtype);
    return g;
}

/* ---- pipe, queues, buffers ---------------------------------------------------- */

enum oacl_buf_state { OACL_BUF_FREE = 0, OACL_BUF_OCCUPIED = 1, OACL_BUF_ENQUE = 2, OACL_BUF_DEQUE = 3 };

/* Hands out this block's UB to queues and buffers, front to back. */
typedef struct oacl_pipe {
    uint8_t *ub;
    uint32_t ub_size;
    uint32_t used;        /* bytes handed out */
    uint32_t buffers;     /* buffers handed out */
    uint32_t live[16];    /* buffers in use, per position */
    bool active;
    uint32_t gen;         /* never 0 nor UINT32_MAX; bumped by reset/destroy: older buffers are stale */
} oacl_pipe_t;

/*
 * A queue of `num` equal buffers between a producer and a consumer.
 * Buffer states are two bit sets, one bit per buffer: FREE (in neither),
 * OCCUPIED or DEQUE (allocated, not enqueued), ENQUE (in both). A state
 * test is then a shift and a mask, and updating it stores no byte that
 * could alias the queue's other fields (so they stay in registers between
 * the calls of a tile).
 */
typedef struct oacl_que {
    oacl_pipe_t *pipe;
    uint8_t *buf0;        /* address of buffer 0 */
    uint32_t gen;         /* the pipe's gen when the buffers were carved; 0 before InitBuffer */
    uint32_t position;
    int32_t depth;        /* tensors that may be enqueued at once */
    uint32_t num;         /* buffers */
    uint32_t len;         /* bytes per buffer (multiple of 32) */
    uint32_t base;        /* UB offset of buffer 0 */
    uint32_t next_alloc;  /* round-robin cursor */
    uint32_t fifo_head;
    uint32_t fifo_count;
    uint64_t allocated;   /* bit b: buffer b is not FREE */
    uint64_t enqueued;    /* bit b: buffer b is enqueued */
    uint8_t fifo[OACL_QUE_MAX_BUFFERS];
} oacl_que_t;

/* A single untyped UB buffer for temporaries (no queue semantics). */
typedef struct oacl_tbuf {
    oacl_pipe_t *pipe;
    uint32_t position;
    uint32_t base;
    uint32_t len;
    uint32_t gen;
} oacl_tbuf_t;

/* A typed view of UB memory. */
typedef struct oacl_local {
    uint8_t *addr;
    uint32_t size;        /* elements */
    oacl_dtype_t dtype;
    uint32_t position;
    oacl_que_t *que;      /* owning queue, NULL for TBuf tensors */
    int32_t buf;          /* buffer index in the queue, -1 for TBuf tensors */
} oacl_local_t;

#define OACL_FAIL(kind, ...) oacl_kernel_fail(kind, __VA_ARGS__)

/*
 * Hot calls (queue operations, DataCopy, binary vector ops) have a header
 * fast path: every check of the full version folded into one predicate,
 * then the work. When the predicate fails, the full version (kept out of
 * line, cold) checks again one by one and fails with the precise message,
 * so the rules and messages are those of the full version; the fast path
 * only spares the formatting code from the kernel's instruction stream.
 */
#if defined(__GNUC__)
#define OACL_LIKELY_(x) __builtin_expect(!!(x), 1)
#define OACL_SLOW_ __attribute__((noinline, cold, unused))
#else
#define OACL_LIKELY_(x) (x)
#define OACL_SLOW_
#endif

static inline const char *oacl_position_name(uint32_t p)
{
    return p == OACL_POS_VECIN ? "VECIN" : p == OACL_POS_VECOUT ? "VECOUT" : p == OACL_POS_VECCALC ? "VECCALC" : "?";
}

/* VECIN, VECOUT and VECCALC are consecutive: one compare. */
static inline bool oacl_position_is_ub(uint32_t p) { return p - (uint32_t)OACL_POS_VECIN <= 2u; }

/* Starts the block's pipe over its whole UB. One live pipe per block. */
static inline void oacl_pipe_init(oacl_pipe_t *p)
{
    struct oacl_block_ctx *b = oacl_block();
    if (b->pipe_live)
        OACL_FAIL(OACL_FAULT_QUEUE, "a pipe is already initialised in this block (destroy it first)");
    memset(p, 0, sizeof(*p));
    p->gen = 1; /* queues start at 0: stale until their InitBuffer */
    p->ub = b->ub;
    p->ub_size = b->ub_size;
    p->active = true;
    b->pipe_live = 1;
    b->reserved = 0;
}

/*
 * The object that owns the block's live pipe (a C++ TPipe), kept in the
 * block context's kernel-side bookkeeping words so that no thread-local
 * storage is needed in kernel binaries: pipe_live holds the low 32 bits
 * with bit 0 set (objects are aligned, and it stays non-zero), reserved
 * the high 32 bits. The executor clears pipe_live before every block, so
 * an owner left behind by a failed block is never returned.
 */
static inline void oacl_pipe_set_owner(void *owner)
{
    struct oacl_block_ctx *b = oacl_block();
    uint64_t v = (uint64_t)(uintptr_t)owner;
    b->pipe_live = (uint32_t)v | 1u;
    b->reserved = (uint32_t)(v >> 32);
}

static inline void *oacl_pipe_owner(void)
{
    const struct oacl_block_ctx *b = oacl_block();
    if (!b || !b->pipe_live || (b->pipe_live == 1u && !b->reserved))
        return NULL;
    return (void *)(uintptr_t)(((uint64_t)b->reserved << 32) | (b->pipe_live & ~1u));
}

/* The pipe's next generation: never 0 (a queue before InitBuffer) nor
   UINT32_MAX (oacl_no_pipe_). */
static inline uint32_t oacl_pipe_next_gen_(uint32_t g) { return g >= UINT32_MAX - 1u ? 1u : g + 1u; }

/* Returns all UB memory: queues must be initialised again before use. */
static inline void oacl_pipe_reset(oacl_pipe_t *p)
{
    p->used = 0;
    p->buffers = 0;
    p->gen = oacl_pipe_next_gen_(p->gen);
    memset(p->live, 0, sizeof(p->live));
}

static inline void oacl_pipe_destroy(oacl_pipe_t *p)
{
    if (p->active) {
        struct oacl_block_ctx *b = oacl_block();
        p->active = false;
        p->gen = oacl_pipe_next_gen_(p->gen);
        b->pipe_live = 0;
        b->reserved = 0;
    }
}

/* What a queue points to before its InitBuffer: a pipe whose gen no queue
   ever holds (real pipes skip it), so the fast paths' one comparison of
   gens also finds a queue without buffers. Never written. */
static oacl_pipe_t oacl_no_pipe_ __attribute__((unused)) = {NULL, 0, 0, 0, {0}, false, UINT32_MAX};

/* Only the scalar fields: fifo[] is read below fifo_count, which
   InitBuffer sets (a block clears three queues per launch, so the array's
   64 bytes are worth skipping). */
static inline void oacl_que_init(oacl_que_t *q, oacl_position_t position, int32_t depth)
{
    q->pipe = &oacl_no_pipe_;
    q->buf0 = NULL;
    q->position = (uint32_t)position;
    q->depth = depth;
    q->num = q->len = q->base = q->next_alloc = q->fifo_head = q->fifo_count = q->gen = 0;
    q->allocated = q->enqueued = 0;
}

/* Carves `num` buffers of `len` bytes (rounded up to 32) for q. */
static inline uint32_t oacl_pipe_carve_(oacl_pipe_t *p, uint32_t position, uint32_t num, uint32_t len,
                                        uint32_t *rounded)
{
    if (!p->active)
        OACL_FAIL(OACL_FAULT_QUEUE, "InitBuffer on a pipe that is not initialised");
    if (!oacl_position_is_ub(position))
        OACL_FAIL(OACL_FAULT_ARG, "InitBuffer: position %u is not a UB position (VECIN/VECOUT/VECCALC)", position);
    if (len == 0)
        OACL_FAIL(OACL_FAULT_UB, "InitBuffer: buffer length is 0");
    if (num == 0 || num > OACL_QUE_MAX_BUFFERS)
        OACL_FAIL(OACL_FAULT_QUEUE, "InitBuffer: %u buffers requested (1..%u per call)", num, OACL_QUE_MAX_BUFFERS);
    if (p->buffers + num > OACL_PIPE_MAX_BUFFERS)
        OACL_FAIL(OACL_FAULT_QUEUE, "InitBuffer: %u buffers would exceed the pipe's limit of %u", p->buffers + num,
                  OACL_PIPE_MAX_BUFFERS);
    uint64_t r = ((uint64_t)len + OACL_DATA_BLOCK - 1) / OACL_DATA_BLOCK * OACL_DATA_BLOCK;
    uint64_t need = r * num;
    if (need > (uint64_t)(p->ub_size - p->used))
        OACL_FAIL(OACL_FAULT_UB,
                  "InitBuffer: %u x %llu bytes for %s exceed the unified buffer (%u of %u bytes already used)", num,
                  (unsigned long long)r, oacl_position_name(position), p->used, p->ub_size);
    uint32_t base = p->used;
    p->used += (uint32_t)need;
    p->buffers += num;
    *rounded = (uint32_t)r;
    return base;
}

static inline bool oacl_pipe_init_buffer(oacl_pipe_t *p, oacl_que_t *q, uint32_t num, uint32_t len)
{
    if (q->depth < 1)
        OACL_FAIL(OACL_FAULT_QUEUE, "InitBuffer: queue depth %d (must be at least 1)", (int)q->depth);
    q->base = oacl_pipe_carve_(p, q->position, num, len, &q->len);
    q->pipe = p;
    q->buf0 = p->ub + q->base;
    q->gen = p->gen;
    q->num = num;
    q->next_alloc = 0;
    q->fifo_head = q->fifo_count = 0;
    q->allocated = q->enqueued = 0;
    return true;
}

static inline bool oacl_pipe_init_tbuf(oacl_pipe_t *p, oacl_tbuf_t *b, oacl_position_t position, uint32_t len)
{
    b->base = oacl_pipe_carve_(p, (uint32_t)position, 1, len, &b->len);
    b->pipe = p;
    b->gen = p->gen;
    b->position = (uint32_t)position;
    return true;
}

static inline oacl_local_t oacl_local_make_(oacl_pipe_t *p, uint32_t off, uint32_t bytes, oacl_dtype_t dt,
                                             uint32_t position, oacl_que_t *q, int32_t buf)
{
    oacl_local_t t;
    uint32_t es = oacl_dtype_size(dt);
    if (!es)
        OACL_FAIL(OACL_FAULT_ARG, "unknown element type %d", (int)dt);
    t.addr = p->ub + off;
    t.size = bytes / es;
    t.dtype = dt;
    t.position = position;
    t.que = q;
    t.buf = buf;
    return t;
}

/* Buffer b's state from the two bit sets (b < 64). */
static inline enum oacl_buf_state oacl_que_state_(uint64_t allocated, uint64_t enqueued, uint32_t b)
{
    uint64_t bit = (uint64_t)1 << b;
    if (!(allocated & bit))
        return OACL_BUF_FREE;
    return (enqueued & bit) ? OACL_BUF_ENQUE : OACL_BUF_OCCUPIED;
}

/*
 * A failing queue call's facts, by value. The failure paths get these
 * instead of the queue's address: no pointer into the kernel's own objects
 * leaves the fast paths, so the compiler may keep those objects' fields in
 * registers across the runtime calls of a tile (copies, vector ops)
 * instead of reloading them after each.
 */
typedef struct oacl_que_view {
    bool init;            /* InitBuffer was called */
    bool stale;           /* ... on an earlier incarnation of the pipe */
    uint32_t position;
    uint32_t num;
    int32_t depth;
    uint32_t live;        /* the pipe's buffers in use at this position */
    uint32_t fifo_count;
    uint32_t fifo_first;  /* oldest enqueued buffer (fifo_count > 0) */
    uint64_t allocated;
    uint64_t enqueued;
} oacl_que_view_t;

static inline oacl_que_view_t oacl_que_snapshot_(const oacl_que_t *q)
{
    oacl_que_view_t v;
    v.init = q->pipe && q->pipe != &oacl_no_pipe_ && q->num;
    v.stale = v.init && q->gen != q->pipe->gen;
    v.position = q->position;
    v.num = q->num;
    v.depth = q->depth;
    v.live = v.init && q->position < 16 ? q->pipe->live[q->position] : 0;
    v.fifo_count = q->fifo_count;
    v.fifo_first = q->fifo_count ? q->fifo[q->fifo_head % OACL_QUE_MAX_BUFFERS] : 0;
    v.allocated = q->allocated;
    v.enqueued = q->enqueued;
    return v;
}

enum oacl_que_op_ { OACL_QOP_ALLOC, OACL_QOP_ENQUE, OACL_QOP_DEQUE, OACL_QOP_FREE };

/* Fails the block with the first rule that `op` breaks, in the order the
   rules are documented: queue initialised and current, tensor ownership,
   buffer state, capacity, element type. Only called when the fast path's
   predicate (the same rules folded together) was false. */
OACL_NORETURN static OACL_SLOW_ void oacl_que_fail_(int op, oacl_que_view_t v, bool owned, int32_t buf,
                                                    oacl_dtype_t dt)
{
    static const char *const names[] = {"AllocTensor", "EnQue", "DeQue", "FreeTensor"};
    const char *name = names[op];
    const char *pos = oacl_position_name(v.position);
    if (!v.init)
        OACL_FAIL(OACL_FAULT_QUEUE, "%s on a queue without buffers (call InitBuffer first)", name);
    if (v.stale)
        OACL_FAIL(OACL_FAULT_QUEUE, "%s on a %s queue whose pipe was reset or destroyed since its InitBuffer", name,
                  pos);
    if ((op == OACL_QOP_ENQUE || op == OACL_QOP_FREE) && (!owned || buf < 0 || (uint32_t)buf >= v.num))
        OACL_FAIL(OACL_FAULT_QUEUE, "%s: the tensor does not belong to this %s queue", name, pos);
    if (op == OACL_QOP_ALLOC) {
        if (v.num < 64 ? (v.allocated & (((uint64_t)1 << v.num) - 1)) == (((uint64_t)1 << v.num) - 1)
                       : v.allocated == ~(uint64_t)0)
            OACL_FAIL(OACL_FAULT_QUEUE, "AllocTensor: all %u buffers of the %s queue are in use (free one first)",
                      v.num, pos);
        if (v.live >= OACL_MAX_LIVE_PER_POSITION)
            OACL_FAIL(OACL_FAULT_QUEUE, "AllocTensor: more than %u %s buffers allocated at the same time",
                      OACL_MAX_LIVE_PER_POSITION, pos);
    } else if (op == OACL_QOP_ENQUE) {
        enum oacl_buf_state s = oacl_que_state_(v.allocated, v.enqueued, (uint32_t)buf);
        if (s != OACL_BUF_OCCUPIED)
            OACL_FAIL(OACL_FAULT_QUEUE, "EnQue: buffer %d of the %s queue is %s", (int)buf, pos,
                      s == OACL_BUF_FREE ? "free (not allocated)" : "already enqueued");
        if ((int32_t)v.fifo_count >= v.depth)
            OACL_FAIL(OACL_FAULT_QUEUE, "EnQue: the %s queue already holds %d tensors (its depth)", pos,
                      (int)v.depth);
    } else if (op == OACL_QOP_DEQUE) {
        if (v.fifo_count == 0)
            OACL_FAIL(OACL_FAULT_QUEUE, "DeQue: the %s queue is empty", pos);
        if (v.fifo_first >= v.num || oacl_que_state_(v.allocated, v.enqueued, v.fifo_first) != OACL_BUF_ENQUE)
            OACL_FAIL(OACL_FAULT_QUEUE, "DeQue: buffer %u of the %s queue is not enqueued", v.fifo_first, pos);
    } else {
        enum oacl_buf_state s = oacl_que_state_(v.allocated, v.enqueued, (uint32_t)buf);
        if (s == OACL_BUF_FREE)
            OACL_FAIL(OACL_FAULT_QUEUE, "FreeTensor: buffer %d of the %s queue is already free", (int)buf, pos);
        if (s == OACL_BUF_ENQUE)
            OACL_FAIL(OACL_FAULT_QUEUE, "FreeTensor: buffer %d of the %s queue is still enqueued (DeQue it first)",
                      (int)buf, pos);
    }
    OACL_FAIL(OACL_FAULT_ARG, "unknown element type %d", (int)dt);
}

/* The queue has its buffers from the live incarnation of its pipe (before
   InitBuffer: oacl_no_pipe_, whose gen never matches); InitBuffer checked
   the position and num at that time. */
static inline bool oacl_que_live_(const oacl_que_t *q) { return q->gen == q->pipe->gen; }

/* Allocated and not enqueued (OCCUPIED or DEQUE), for a tensor that
   claims to be buffer t_buf of q. */
static inline bool oacl_que_holds_(const oacl_que_t *q, const oacl_que_t *t_que, int32_t t_buf)
{
    /* bits at num and above are never set: "< 64" keeps the shift defined */
    return t_que == q && (uint32_t)t_buf < 64u && ((q->allocated & ~q->enqueued) >> (uint32_t)t_buf & 1u);
}

static inline oacl_local_t oacl_que_tensor_(oacl_que_t *q, uint32_t i, oacl_dtype_t dt, uint32_t es)
{
    oacl_local_t t;
    t.addr = q->buf0 + (size_t)i * q->len;
    t.size = q->len / es;
    t.dtype = dt;
    t.position = q->position;
    t.que = q;
    t.buf = (int32_t)i;
    return t;
}

/* The first free buffer from `from` on, round robin; num if none. Round
   robin normally finds the cursor's buffer free (the oldest one). */
static inline uint32_t oacl_que_find_free_(const oacl_que_t *q, uint32_t from)
{
    uint64_t all = q->num >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << q->num) - 1;
    uint64_t free_set = ~q->allocated & all;
    if (!free_set)
        return q->num;
    uint64_t after = free_set & (~(uint64_t)0 << from);
    return (uint32_t)__builtin_ctzll(after ? after : free_set);
}

/* Takes the next free buffer (round robin) as a tensor of type dt. */
static inline oacl_local_t oacl_que_alloc(oacl_que_t *q, oacl_dtype_t dt)
{
    uint32_t i = q->next_alloc, es = oacl_dtype_size(dt);
    if (OACL_LIKELY_(oacl_que_live_(q))) {
        if (!OACL_LIKELY_(!(q->allocated >> i & 1u)))
            i = oacl_que_find_free_(q, i);
        if (OACL_LIKELY_(i < q->num && q->pipe->live[q->position] < OACL_MAX_LIVE_PER_POSITION && es)) {
            q->allocated |= (uint64_t)1 << i;
            q->pipe->live[q->position]++;
            q->next_alloc = i + 1 == q->num ? 0 : i + 1;
            return oacl_que_tensor_(q, i, dt, es);
        }
    }
    oacl_que_fail_(OACL_QOP_ALLOC, oacl_que_snapshot_(q), false, -1, dt);
}

/* Hands a produced tensor to the consumer side. */
static inline bool oacl_que_enque(oacl_que_t *q, oacl_local_t t)
{
    if (OACL_LIKELY_(oacl_que_live_(q) && oacl_que_holds_(q, t.que, t.buf) && (int32_t)q->fifo_count < q->depth)) {
        q->fifo[(q->fifo_head + q->fifo_count) % OACL_QUE_MAX_BUFFERS] = (uint8_t)t.buf;
        q->fifo_count++;
        q->enqueued |= (uint64_t)1 << t.buf;
        return true;
    }
    oacl_que_fail_(OACL_QOP_ENQUE, oacl_que_snapshot_(q), t.que == q, t.buf, t.dtype);
}

/* Takes the oldest enqueued tensor, as type dt. */
static inline oacl_local_t oacl_que_deque(oacl_que_t *q, oacl_dtype_t dt)
{
    uint32_t es = oacl_dtype_size(dt);
    if (OACL_LIKELY_(oacl_que_live_(q) && q->fifo_count && es)) {
        /* fifo entries are buffer indexes below num, written by EnQue */
        uint32_t i = q->fifo[q->fifo_head];
        if (OACL_LIKELY_(q->enqueued >> i & 1u)) {
            q->fifo_head = (q->fifo_head + 1) % OACL_QUE_MAX_BUFFERS;
            q->fifo_count--;
            q->enqueued &= ~((uint64_t)1 << i);
            return oacl_que_tensor_(q, i, dt, es);
        }
    }
    oacl_que_fail_(OACL_QOP_DEQUE, oacl_que_snapshot_(q), false, -1, dt);
}

/* Returns a tensor's buffer to the queue. */
static inline void oacl_que_free(oacl_que_t *q, oacl_local_t t)
{
    if (OACL_LIKELY_(oacl_que_live_(q) && oacl_que_holds_(q, t.que, t.buf))) {
        q->allocated &= ~((uint64_t)1 << t.buf);
        q->pipe->live[q->position]--;
        return;
    }
    oacl_que_fail_(OACL_QOP_FREE, oacl_que_snapshot_(q), t.que == q, t.buf, t.dtype);
}

static inline bool oacl_que_vacant(const oacl_que_t *q) { return (int32_t)q->fifo_count < q->depth; }
static inline bool oacl_que_has_tensor(const oacl_que_t *q) { return q->fifo_count > 0; }
static inline int32_t oacl_que_count(const oacl_que_t *q) { return (int32_t)q->fifo_count; }
static inline bool oacl_que_has_idle(const oacl_que_t *q)
{
    uint64_t all = q->num >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << q->num) - 1;
    return (q->allocated & all) != all;
}

/* The whole TBuf, or its first `count` elements, as type dt. */
static inline oacl_local_t oacl_tbuf_get(oacl_tbuf_t *b, oacl_dtype_t dt)
{
    if (!b->pipe)
        OACL_FAIL(OACL_FAULT_QUEUE, "TBuf::Get on a buffer without InitBuffer");
    if (b->gen != b->pipe->gen)
        OACL_FAIL(OACL_FAULT_QUEUE, "TBuf::Get on a buffer whose pipe was reset or destroyed since its InitBuffer");
    return oacl_local_make_(b->pipe, b->base, b->len, dt, b->position, NULL, -1);
}

static inline oacl_local_t oacl_tbuf_get_n(oacl_tbuf_t *b, oacl_dtype_t dt, uint32_t count)
{
    oacl_local_t t = oacl_tbuf_get(b, dt);
    uint64_t bytes = (uint64_t)count * oacl_dtype_size(dt);
    if (count == 0 || bytes % OACL_DATA_BLOCK || bytes > b->len)
        OACL_FAIL(OACL_FAULT_UB, "TBuf::Get(%u): %llu bytes must be a non-zero multiple of 32 within %u", count,
                  (unsigned long long)bytes, b->len);
    t.size = count;
    return t;
}

/* Sub-tensor from element `offset` to the end. */
static inline oacl_local_t oacl_local_slice(oacl_local_t t, uint32_t offset)
{
    if (offset >= t.size)
        OACL_FAIL(OACL_FAULT_UB, "tensor[%u] is outside a %u-element tensor", offset, t.size);
    t.addr += (size_t)offset * oacl_dtype_size(t.dtype);
    t.size -= offset;
    return t;
}

/* Raw address of element i after a bounds check (scalar access). */
static inline void *oacl_local_at(oacl_local_t t, uint32_t i)
{
    if (!oacl_position_is_ub(t.position))
        OACL_FAIL(OACL_FAULT_ARG, "scalar access to a tensor that is not in UB");
    if (i >= t.size)
        OACL_FAIL(OACL_FAULT_UB, "element %u is outside a %u-element tensor", i, t.size);
    return t.addr + (size_t)i * oacl_dtype_size(t.dtype);
}

/* ---- data movement ------------------------------------------------------------ */

static inline void oacl_copy_check_(const char *op, oacl_local_t l, oacl_dtype_t gm_type, const void *gm,
                                    uint32_t count)
{
    uint32_t es = oacl_dtype_size(l.dtype);
    if (gm_type != l.dtype)
        OACL_FAIL(OACL_FAULT_ARG, "%s: global tensor is %s but the local tensor is %s", op, oacl_dtype_name(gm_type),
                  oacl_dtype_name(l.dtype));
    if (!oacl_position_is_ub(l.position))
        OACL_FAIL(OACL_FAULT_ARG, "%s: the local tensor is not in UB", op);
    if (((uint64_t)count * es) % OACL_DATA_BLOCK)
        OACL_FAIL(OACL_FAULT_ALIGN, "%s: %u elements = %llu bytes is not a multiple of 32 bytes (a device would copy "
                  "only %llu bytes)", op, count, (unsigned long long)count * es,
                  (unsigned long long)((uint64_t)count * es / OACL_DATA_BLOCK * OACL_DATA_BLOCK));
    if ((uintptr_t)l.addr % OACL_DATA_BLOCK)
        OACL_FAIL(OACL_FAULT_ALIGN, "%s: the local tensor address is not 32-byte aligned", op);
    if ((uintptr_t)gm % es)
        OACL_FAIL(OACL_FAULT_ALIGN, "%s: global address %p is not aligned to its %u-byte elements", op, gm, es);
    if (count > l.size)
        OACL_FAIL(OACL_FAULT_UB, "%s: %u elements do not fit a %u-element local tensor", op, count, l.size);
}

/* Every rule of oacl_copy_check_ as one predicate (the fast path). */
static inline bool oacl_copy_ok_(oacl_local_t l, oacl_dtype_t gm_type, const void *gm, uint32_t count)
{
    uint32_t es = oacl_dtype_size(l.dtype);
    /* element sizes are powers of two: masks, not divisions */
    return gm_type == l.dtype && oacl_position_is_ub(l.position) && es &&
           (((uint64_t)count * es) & (OACL_DATA_BLOCK - 1)) == 0 && ((uintptr_t)l.addr & (OACL_DATA_BLOCK - 1)) == 0 &&
           ((uintptr_t)gm & (es - 1)) == 0 && count <= l.size;
}

static OACL_SLOW_ void oacl_copy_check_full_(const char *op, oacl_local_t l, oacl_dtype_t gm_type,
                                                    const void *gm, uint32_t count)
{
    oacl_copy_check_(op, l, gm_type, gm, count);
}

/* t without its queue: what failure paths get (see oacl_que_view_t). */
static inline oacl_local_t oacl_local_detached_(oacl_local_t t)
{
    t.que = NULL;
    return t;
}

/* Global memory -> UB, `count` elements. */
static inline void oacl_data_copy_in(oacl_local_t dst, oacl_gm_t src, uint32_t count)
{
    if (!OACL_LIKELY_(oacl_copy_ok_(dst, src.dtype, src.addr, count)))
        oacl_copy_check_full_("DataCopy(GM->UB)", oacl_local_detached_(dst), src.dtype, src.addr, count);
    oacl_gm_copy(dst.addr, src.addr, (size_t)count * oacl_dtype_size(dst.dtype), 0, "DataCopy(GM->UB)");
}

/* UB -> global memory, `count` elements. */
static inline void oacl_data_copy_out(oacl_gm_t dst, oacl_local_t src, uint32_t count)
{
    if (!OACL_LIKELY_(oacl_copy_ok_(src, dst.dtype, dst.addr, count)))
        oacl_copy_check_full_("DataCopy(UB->GM)", oacl_local_detached_(src), dst.dtype, dst.addr, count);
    oacl_gm_copy(dst.addr, src.addr, (size_t)count * oacl_dtype_size(src.dtype), 1, "DataCopy(UB->GM)");
}

/* UB -> UB, `count` elements. */
static inline void oacl_data_copy_local(oacl_local_t dst, oacl_local_t src, uint32_t count)
{
    oacl_copy_check_("DataCopy(UB->UB)", dst, src.dtype, src.addr, count);
    if (count > src.size)
        OACL_FAIL(OACL_FAULT_UB, "DataCopy(UB->UB): %u elements exceed the %u-element source", count, src.size);
    oacl_memmove(dst.addr, src.addr, (size_t)count * oacl_dtype_size(src.dtype));
}

/* ---- vector computation ------------------------------------------------------------ */

static inline void oacl_vec_check_(const char *op, const char *name, oacl_local_t t, oacl_dtype_t dt, int32_t count)
{
    if (t.dtype != dt)
        OACL_FAIL(OACL_FAULT_ARG, "%s: %s is %s, expected %s", op, name, oacl_dtype_name(t.dtype), oacl_dtype_name(dt));
    if (!oacl_position_is_ub(t.position))
        OACL_FAIL(OACL_FAULT_ARG, "%s: %s is not a UB tensor", op, name);
    if ((uintptr_t)t.addr % OACL_DATA_BLOCK)
        OACL_FAIL(OACL_FAULT_ALIGN, "%s: %s is not 32-byte aligned", op, name);
    if ((uint32_t)count > t.size)
        OACL_FAIL(OACL_FAULT_UB, "%s: count %d exceeds %s's %u elements", op, (int)count, name, t.size);
}

static inline void oacl_overlap_check_(const char *op, oacl_local_t d, oacl_local_t s, int32_t count)
{
    size_t n = (size_t)count * oacl_dtype_size(d.dtype);
    if (d.addr != s.addr && d.addr < s.addr + n && s.addr < d.addr + n)
        OACL_FAIL(OACL_FAULT_ARG, "%s: destination partially overlaps a source", op);
}

/* Element types an operation accepts, as a mask of (1 << oacl_dtype_t). */
#define OACL_DT_BIT(t) (1u << (t))
#define OACL_DTS_FLOAT (OACL_DT_BIT(OACL_DT_F16) | OACL_DT_BIT(OACL_DT_F32))
#define OACL_DTS_ARITH (OACL_DTS_FLOAT | OACL_DT_BIT(OACL_DT_I32) | OACL_DT_BIT(OACL_DT_I16))
#define OACL_DTS_DUP                                                                                                 \
    (OACL_DTS_ARITH | OACL_DT_BIT(OACL_DT_U16) | OACL_DT_BIT(OACL_DT_U32) | OACL_DT_BIT(OACL_DT_BF16))

static inline void oacl_types_check_(const char *op, oacl_dtype_t dt, uint32_t allowed)
{
    if (allowed & OACL_DT_BIT(dt))
        return;
    char list[96] = "";
    size_t n = 0;
    for (int t = OACL_DT_F16; t <= OACL_DT_BF16; t++) {
        if (!(allowed & OACL_DT_BIT(t)))
            continue;
        const char *name = oacl_dtype_name((oacl_dtype_t)t);
        size_t k = strlen(name);
        if (n + k + 3 >= sizeof(list))
            break;
        if (n) {
            memcpy(list + n, ", ", 2);
            n += 2;
        }
        memcpy(list + n, name, k + 1);
        n += k;
    }
    OACL_FAIL(OACL_FAULT_ARG, "%s: element type %s is not supported (%s)", op, oacl_dtype_name(dt), list);
}

static inline void oacl_count_check_(const char *op, int32_t count)
{
    if (count < 0)
        OACL_FAIL(OACL_FAULT_ARG, "%s: count %d is negative", op, (int)count);
}

/* dst = a op b element-wise; vop is an OACL_VOP_ binary code. */
static OACL_SLOW_ void oacl_binary_full_(int vop, const char *op, uint32_t types, oacl_local_t dst,
                                                oacl_local_t a, oacl_local_t b, int32_t count)
{
    oacl_count_check_(op, count);
    oacl_vec_check_(op, "dst", dst, dst.dtype, count);
    oacl_vec_check_(op, "src0", a, dst.dtype, count);
    oacl_vec_check_(op, "src1", b, dst.dtype, count);
    oacl_types_check_(op, dst.dtype, types);
    oacl_overlap_check_(op, dst, a, count);
    oacl_overlap_check_(op, dst, b, count);
    if (oacl_vbinary(vop, (int)dst.dtype, dst.addr, a.addr, b.addr, (size_t)count))
        OACL_FAIL(OACL_FAULT_ARG, "%s: not available for %s", op, oacl_dtype_name(dst.dtype));
}

/* The checks of oacl_vec_check_ and oacl_overlap_check_ as predicates. */
static inline bool oacl_vec_ok_(oacl_local_t t, oacl_dtype_t dt, int32_t count)
{
    return t.dtype == dt && oacl_position_is_ub(t.position) && (uintptr_t)t.addr % OACL_DATA_BLOCK == 0 &&
           (uint32_t)count <= t.size;
}

static inline bool oacl_no_overlap_(oacl_local_t d, oacl_local_t s, int32_t count)
{
    size_t n = (size_t)count * oacl_dtype_size(d.dtype);
    return d.addr == s.addr || d.addr >= s.addr + n || s.addr >= d.addr + n;
}

static inline void oacl_binary_(int vop, const char *op, uint32_t types, oacl_local_t dst, oacl_local_t a,
                                oacl_local_t b, int32_t count)
{
    if (OACL_LIKELY_(count >= 0 && oacl_vec_ok_(dst, dst.dtype, count) && oacl_vec_ok_(a, dst.dtype, count) &&
                     oacl_vec_ok_(b, dst.dtype, count) && (types & OACL_DT_BIT(dst.dtype)) &&
                     oacl_no_overlap_(dst, a, count) && oacl_no_overlap_(dst, b, count))) {
        /* the commonest case skips the run-time (op, type) dispatch */
        if (vop == OACL_VOP_ADD && dst.dtype == OACL_DT_F16) {
            oacl_vadd_f16((uint16_t *)(void *)dst.addr, (const uint16_t *)(const void *)a.addr,
                          (const uint16_t *)(const void *)b.addr, (size_t)count);
            return;
        }
        if (!oacl_vbinary(vop, (int)dst.dtype, dst.addr, a.addr, b.addr, (size_t)count))
            return;
    }
    oacl_binary_full_(vop, op, types, oacl_local_detached_(dst), oacl_local_detached_(a), oacl_local_detached_(b),
                      count);
}

/* dst[i] = a[i] + b[i] for i < count (f16, f32, i32, i16). f16 results
   are exact (round to nearest even); integers wrap. */
static inline void oacl_add(oacl_local_t dst, oacl_local_t a, oacl_local_t b, int32_t count)
{
    oacl_binary_(OACL_VOP_ADD, "Add", OACL_DTS_ARITH, dst, a, b, count);
}
/* a[i] - b[i] (f16, f32, i32, i16) */
static inline void oacl_sub(oacl_local_t dst, oacl_local_t a, oacl_local_t b, int32_t count)
{
    oacl_binary_(OACL_VOP_SUB, "Sub", OACL_DTS_ARITH, dst, a, b, count);
}
/* a[i] * b[i] (f16, f32, i32, i16) */
static inline void oacl_mul(oacl_local_t dst, oacl_local_t a, oacl_local_t b, int32_t count)
{
    oacl_binary_(OACL_VOP_MUL, "Mul", OACL_DTS_ARITH, dst, a, b, count);
}
/* a[i] / b[i] (f16, f32) */
static inline void oacl_div(oacl_local_t dst, oacl_local_t a, oacl_local_t b, int32_t count)
{
    oacl_binary_(OACL_VOP_DIV, "Div", OACL_DTS_FLOAT, dst, a, b, count);
}
/* max(a[i], b[i]) (f16, f32, i32, i16); NaN if either is NaN */
static inline void oacl_max(oacl_local_t dst, oacl_local_t a, oacl_local_t b, int32_t count)
{
    oacl_binary_(OACL_VOP_MAX, "Max", OACL_DTS_ARITH, dst, a, b, count);
}
/* min(a[i], b[i]) (f16, f32, i32, i16); NaN if either is NaN */
static inline void oacl_min(oacl_local_t dst, oacl_local_t a, oacl_local_t b, int32_t count)
{
    oacl_binary_(OACL_VOP_MIN, "Min", OACL_DTS_ARITH, dst, a, b, count);
}

/* dst = op(src) element-wise; vop is an OACL_VOP_ unary code. */
static inline void oacl_unary_(int vop, const char *op, uint32_t types, oacl_local_t dst, oacl_local_t src,
                               int32_t count)
{
    oacl_count_check_(op, count);
    oacl_vec_check_(op, "dst", dst, dst.dtype, count);
    oacl_vec_check_(op, "src", src, dst.dtype, count);
    oacl_types_check_(op, dst.dtype, types);
    oacl_overlap_check_(op, dst, src, count);
    if (oacl_vunary(vop, (int)dst.dtype, dst.addr, src.addr, (size_t)count))
        OACL_FAIL(OACL_FAULT_ARG, "%s: not available for %s", op, oacl_dtype_name(dst.dtype));
}

/* e^x, ln x, 1/sqrt x: computed in double, rounded once (f16, f32). */
static inline void oacl_exp(oacl_local_t dst, oacl_local_t src, int32_t count)
{
    oacl_unary_(OACL_VOP_EXP, "Exp", OACL_DTS_FLOAT, dst, src, count);
}
static inline void oacl_ln(oacl_local_t dst, oacl_local_t src, int32_t count)
{
    oacl_unary_(OACL_VOP_LN, "Ln", OACL_DTS_FLOAT, dst, src, count);
}
static inline void oacl_rsqrt(oacl_local_t dst, oacl_local_t src, int32_t count)
{
    oacl_unary_(OACL_VOP_RSQRT, "Rsqrt", OACL_DTS_FLOAT, dst, src, count);
}
/* |x|, sqrt x, 1/x: exact (f16, f32). */
static inline void oacl_abs(oacl_local_t dst, oacl_local_t src, int32_t count)
{
    oacl_unary_(OACL_VOP_ABS, "Abs", OACL_DTS_FLOAT, dst, src, count);
}
static inline void oacl_sqrt(oacl_local_t dst, oacl_local_t src, int32_t count)
{
    oacl_unary_(OACL_VOP_SQRT, "Sqrt", OACL_DTS_FLOAT, dst, src, count);
}
static inline void oacl_reciprocal(oacl_local_t dst, oacl_local_t src, int32_t count)
{
    oacl_unary_(OACL_VOP_RECIP, "Reciprocal", OACL_DTS_FLOAT, dst, src, count);
}
/* max(x, 0) (f16, f32, i32) */
static inline void oacl_relu(oacl_local_t dst, oacl_local_t src, int32_t count)
{
    oacl_unary_(OACL_VOP_RELU, "Relu", OACL_DTS_FLOAT | OACL_DT_BIT(OACL_DT_I32), dst, src, count);
}

/* dst[i] = src[i] op s; `scalar` points to one element of dst's type. */
static inline void oacl_scalar_(int vop, const char *op, uint32_t types, oacl_local_t dst, oacl_local_t src,
                                const void *scalar, int32_t count)
{
    oacl_count_check_(op, count);
    oacl_vec_check_(op, "dst", dst, dst.dtype, count);
    oacl_vec_check_(op, "src", src, dst.dtype, count);
    oacl_types_check_(op, dst.dtype, types);
    oacl_overlap_check_(op, dst, src, count);
    if (oacl_vscalar(vop, (int)dst.dtype, dst.addr, src.addr, scalar, (size_t)count))
        OACL_FAIL(OACL_FAULT_ARG, "%s: not available for %s", op, oacl_dtype_name(dst.dtype));
}

/* src[i] + s, src[i] * s, max(src[i], s), min(src[i], s) (f16, f32, i32, i16) */
static inline void oacl_adds(oacl_local_t dst, oacl_local_t src, const void *scalar, int32_t count)
{
    oacl_scalar_(OACL_VOP_ADDS, "Adds", OACL_DTS_ARITH, dst, src, scalar, count);
}
static inline void oacl_muls(oacl_local_t dst, oacl_local_t src, const void *scalar, int32_t count)
{
    oacl_scalar_(OACL_VOP_MULS, "Muls", OACL_DTS_ARITH, dst, src, scalar, count);
}
static inline void oacl_maxs(oacl_local_t dst, oacl_local_t src, const void *scalar, int32_t count)
{
    oacl_scalar_(OACL_VOP_MAXS, "Maxs", OACL_DTS_ARITH, dst, src, scalar, count);
}
static inline void oacl_mins(oacl_local_t dst, oacl_local_t src, const void *scalar, int32_t count)
{
    oacl_scalar_(OACL_VOP_MINS, "Mins", OACL_DTS_ARITH, dst, src, scalar, count);
}
/* x >= 0 ? x : x * s (f16, f32) */
static inline void oacl_leaky_relu(oacl_local_t dst, oacl_local_t src, const void *scalar, int32_t count)
{
    oacl_scalar_(OACL_VOP_LEAKY_RELU, "LeakyRelu", OACL_DTS_FLOAT, dst, src, scalar, count);
}

/* Fills dst[0..count-1] with *scalar (i16, u16, f16, bf16, i32, u32, f32). */
static inline void oacl_duplicate(oacl_local_t dst, const void *scalar, int32_t count)
{
    oacl_count_check_("Duplicate", count);
    oacl_vec_check_("Duplicate", "dst", dst, dst.dtype, count);
    oacl_types_check_("Duplicate", dst.dtype, OACL_DTS_DUP);
    (void)oacl_vscalar(OACL_VOP_DUP, (int)dst.dtype, dst.addr, NULL, scalar, (size_t)count);
}

static inline const char *oacl_round_name(int mode)
{
    static const char *const names[] = {"NONE", "RINT", "FLOOR", "CEIL", "ROUND", "TRUNC", "ODD"};
    return mode >= 0 && mode <= OACL_ROUND_ODD ? names[mode] : "?";
}

/* dst[i] = src[i] converted with `round` (an oacl_round); the element
   types may differ in size, each tensor holds count of its own. */
static inline void oacl_cast(oacl_local_t dst, oacl_local_t src, int round, uint32_t count)
{
    if (count > (uint32_t)INT32_MAX)
        OACL_FAIL(OACL_FAULT_ARG, "Cast: count %u is too large", count);
    oacl_vec_check_("Cast", "dst", dst, dst.dtype, (int32_t)count);
    oacl_vec_check_("Cast", "src", src, src.dtype, (int32_t)count);
    size_t dn = (size_t)count * oacl_dtype_size(dst.dtype), sn = (size_t)count * oacl_dtype_size(src.dtype);
    bool same = dst.addr == src.addr && dn == sn;
    if (count && !same && dst.addr < src.addr + sn && src.addr < dst.addr + dn)
        OACL_FAIL(OACL_FAULT_ARG, "Cast: destination overlaps the source");
    if (oacl_vcast((int)dst.dtype, (int)src.dtype, round, dst.addr, src.addr, count))
        OACL_FAIL(OACL_FAULT_ARG, "Cast: %s -> %s with round mode %s (%d) is not supported",
                  oacl_dtype_name(src.dtype), oacl_dtype_name(dst.dtype), oacl_round_name(round), round);
}

/* Reductions of src[0..count-1] into dst[0] (f16, f32). `work` is the
   AscendC shared temporary buffer: checked to be a usable UB tensor of
   the element type, its contents unused. */
static inline void oacl_reduce_(int vop, const char *op, oacl_local_t dst, oacl_local_t src, oacl_local_t work,
                                int32_t count, bool index)
{
    oacl_count_check_(op, count);
    oacl_vec_check_(op, "src", src, src.dtype, count);
    oacl_vec_check_(op, "dst", dst, src.dtype, index ? 2 : 1);
    oacl_vec_check_(op, "sharedTmpBuffer", work, src.dtype, 0);
    oacl_types_check_(op, src.dtype, OACL_DTS_FLOAT);
    (void)oacl_vreduce(vop, (int)src.dtype, dst.addr, src.addr, (size_t)count, index);
}

/* Sum, added in order in double and rounded once. */
static inline void oacl_reduce_sum(oacl_local_t dst, oacl_local_t src, oacl_local_t work, int32_t count)
{
    oacl_reduce_(OACL_VOP_REDUCE_SUM, "ReduceSum", dst, src, work, count, false);
}
/* Maximum / minimum; with cal_index, dst[1] holds the index of its first
   occurrence as an unsigned integer of the element's width. */
static inline void oacl_reduce_max(oacl_local_t dst, oacl_local_t src, oacl_local_t work, int32_t count,
                                   bool cal_index)
{
    oacl_reduce_(OACL_VOP_REDUCE_MAX, "ReduceMax", dst, src, work, count, cal_index);
}
static inline void oacl_reduce_min(oacl_local_t dst, oacl_local_t src, oacl_local_t work, int32_t count,
                                   bool cal_index)
{
    oacl_reduce_(OACL_VOP_REDUCE_MIN, "ReduceMin", dst, src, work, count, cal_index);
}

/* ---- strided and padded copies ------------------------------------------------ */

/* AscendC DataCopyParams: block_count blocks of block_len 32-byte units;
   gaps (end of one block to start of the next) in 32-byte units. */
typedef struct oacl_copy_params {
    uint16_t block_count;  /* 0..4095; 0 copies nothing */
    uint16_t block_len;    /* 32-byte units; 0 copies nothing */
    uint16_t src_gap;
    uint16_t dst_gap;
} oacl_copy_params_t;

/* The local side of a strided copy: UB, aligned, and large enough. */
static inline void oacl_strided_local_check_(const char *op, oacl_local_t l, oacl_copy_params_t p, uint16_t gap)
{
    if (!oacl_position_is_ub(l.position))
        OACL_FAIL(OACL_FAULT_ARG, "%s: the local tensor is not in UB", op);
    if ((uintptr_t)l.addr % OACL_DATA_BLOCK)
        OACL_FAIL(OACL_FAULT_ALIGN, "%s: the local tensor address is not 32-byte aligned", op);
    if (!p.block_count || !p.block_len)
        return;
    uint64_t need = ((uint64_t)(p.block_count - 1u) * (p.block_len + (uint64_t)gap) + p.block_len) * OACL_DATA_BLOCK;
    uint64_t have = (uint64_t)l.size * oacl_dtype_size(l.dtype);
    if (need > have)
        OACL_FAIL(OACL_FAULT_UB, "%s: %u blocks of %u x 32 bytes (gap %u) need %llu bytes, the local tensor has %llu",
                  op, p.block_count, p.block_len, gap, (unsigned long long)need, (unsigned long long)have);
}

static inline void oacl_strided_check_(const char *op, oacl_dtype_t a, oacl_dtype_t b, oacl_copy_params_t p)
{
    if (a != b)
        OACL_FAIL(OACL_FAULT_ARG, "%s: source is %s but the destination is %s", op, oacl_dtype_name(b),
                  oacl_dtype_name(a));
    if (p.block_count > 4095)
        OACL_FAIL(OACL_FAULT_ARG, "%s: blockCount %u is out of range (0..4095)", op, p.block_count);
}

static inline void oacl_gm_align_check_(const char *op, const void *gm, oacl_dtype_t dt)
{
    uint32_t es = oacl_dtype_size(dt);
    if ((uintptr_t)gm % es)
        OACL_FAIL(OACL_FAULT_ALIGN, "%s: global address %p is not aligned to its %u-byte elements", op, gm, es);
}

/* Bytes of global memory a strided copy spans (first block to last). */
static inline size_t oacl_strided_span_(oacl_copy_params_t p, uint16_t gap)
{
    if (!p.block_count || !p.block_len)
        return 0;
    return ((size_t)(p.block_count - 1u) * ((size_t)p.block_len + gap) + p.block_len) * OACL_DATA_BLOCK;
}

static inline void oacl_copy_blocks_(uint8_t *d, const uint8_t *s, oacl_copy_params_t p)
{
    size_t len = (size_t)p.block_len * OACL_DATA_BLOCK;
    size_t ds = len + (size_t)p.dst_gap * OACL_DATA_BLOCK, ss = len + (size_t)p.src_gap * OACL_DATA_BLOCK;
    for (uint32_t i = 0; p.block_len && i < p.block_count; i++)
        oacl_memmove(d + i * ds, s + i * ss, len);
}

/* Global memory -> UB, block by block. */
static inline void oacl_data_copy_in_strided(oacl_local_t dst, oacl_gm_t src, oacl_copy_params_t p)
{
    static const char op[] = "DataCopy(GM->UB, DataCopyParams)";
    oacl_strided_check_(op, dst.dtype, src.dtype, p);
    oacl_strided_local_check_(op, dst, p, p.dst_gap);
    oacl_gm_align_check_(op, src.addr, src.dtype);
    oacl_gm_check(src.addr, oacl_strided_span_(p, p.src_gap), 0, op);
    oacl_copy_blocks_(dst.addr, src.addr, p);
}

/* UB -> global memory, block by block. */
static inline void oacl_data_copy_out_strided(oacl_gm_t dst, oacl_local_t src, oacl_copy_params_t p)
{
    static const char op[] = "DataCopy(UB->GM, DataCopyParams)";
    oacl_strided_check_(op, dst.dtype, src.dtype, p);
    oacl_strided_local_check_(op, src, p, p.src_gap);
    oacl_gm_align_check_(op, dst.addr, dst.dtype);
    oacl_gm_check(dst.addr, oacl_strided_span_(p, p.dst_gap), 1, op);
    oacl_copy_blocks_(dst.addr, src.addr, p);
}

/* UB -> UB, block by block. */
static inline void oacl_data_copy_local_strided(oacl_local_t dst, oacl_local_t src, oacl_copy_params_t p)
{
    static const char op[] = "DataCopy(UB->UB, DataCopyParams)";
    oacl_strided_check_(op, dst.dtype, src.dtype, p);
    oacl_strided_local_check_(op, dst, p, p.dst_gap);
    oacl_strided_local_check_(op, src, p, p.src_gap);
    oacl_copy_blocks_(dst.addr, src.addr, p);
}

/* AscendC DataCopyExtParams: block_count rows of block_len bytes. Strides
   are end-of-row to start-of-next-row: in bytes on the GM side, in 32-byte
   units on the UB side, where every row starts 32-byte aligned. */
typedef struct oacl_pad_params {
    uint16_t block_count;  /* 1..4095 */
    uint32_t block_len;    /* 1..2097151 bytes, a multiple of the element size */
    uint32_t src_stride;
    uint32_t dst_stride;
} oacl_pad_params_t;

/* Checks a padded copy; returns the UB blocks one row occupies. */
static inline uint64_t oacl_pad_check_(const char *op, oacl_local_t l, oacl_dtype_t gm_type, const void *gm,
                                       oacl_pad_params_t p, uint32_t left, uint32_t right, uint32_t ub_stride)
{
    uint32_t es = oacl_dtype_size(l.dtype);
    if (gm_type != l.dtype)
        OACL_FAIL(OACL_FAULT_ARG, "%s: global tensor is %s but the local tensor is %s", op, oacl_dtype_name(gm_type),
                  oacl_dtype_name(l.dtype));
    if (!oacl_position_is_ub(l.position))
        OACL_FAIL(OACL_FAULT_ARG, "%s: the local tensor is not in UB", op);
    if ((uintptr_t)l.addr % OACL_DATA_BLOCK)
        OACL_FAIL(OACL_FAULT_ALIGN, "%s: the local tensor address is not 32-byte aligned", op);
    oacl_gm_align_check_(op, gm, l.dtype);
    if (p.block_count < 1 || p.block_count > 4095)
        OACL_FAIL(OACL_FAULT_ARG, "%s: blockCount %u is out of range (1..4095)", op, p.block_count);
    if (p.block_len < 1 || p.block_len > 2097151 || p.block_len % es)
        OACL_FAIL(OACL_FAULT_ARG, "%s: blockLen %u bytes must be in 1..2097151 and a multiple of %u", op,
                  p.block_len, es);
    if (left * es > OACL_DATA_BLOCK || right * es > OACL_DATA_BLOCK)
        OACL_FAIL(OACL_FAULT_ARG, "%s: padding of %u + %u elements exceeds 32 bytes on a side", op, left, right);
    uint64_t row = ((uint64_t)(left + right) * es + p.block_len + OACL_DATA_BLOCK - 1) / OACL_DATA_BLOCK;
    uint64_t need = ((uint64_t)(p.block_count - 1u) * (row + ub_stride) + row) * OACL_DATA_BLOCK;
    uint64_t have = (uint64_t)l.size * es;
    if (need > have)
        OACL_FAIL(OACL_FAULT_UB, "%s: %u rows need %llu bytes of UB, the local tensor has %llu", op, p.block_count,
                  (unsigned long long)need, (unsigned long long)have);
    return row;
}

/* GM -> UB for rows that are not 32-byte multiples: row r lands at UB
   block r * (row blocks + dst_stride), after `left` elements; with
   is_pad, the left and right padding and the row's last-block filler are
   set to *pad_value (one element; 0 for 8-byte types). */
static inline void oacl_data_copy_pad_in(oacl_local_t dst, oacl_gm_t src, oacl_pad_params_t p, bool is_pad,
                                         uint8_t left, uint8_t right, const void *pad_value)
{
    static const char op[] = "DataCopyPad(GM->UB)";
    uint32_t es = oacl_dtype_size(dst.dtype);
    uint64_t row = oacl_pad_check_(op, dst, src.dtype, src.addr, p, left, right, p.dst_stride);
    oacl_gm_check(src.addr, (size_t)(p.block_count - 1u) * ((size_t)p.block_len + p.src_stride) + p.block_len, 0, op);
    if (is_pad && es == 8) {
        const uint8_t *v = (const uint8_t *)pad_value;
        for (uint32_t k = 0; k < es; k++)
            if (v[k])
                OACL_FAIL(OACL_FAULT_ARG, "%s: the padding value of an 8-byte type must be 0", op);
    }
    for (uint32_t r = 0; r < p.block_count; r++) {
        uint8_t *u = dst.addr + (size_t)r * (size_t)(row + p.dst_stride) * OACL_DATA_BLOCK;
        const uint8_t *g = src.addr + (size_t)r * ((size_t)p.block_len + p.src_stride);
        if (is_pad)
            for (size_t off = 0; off < row * OACL_DATA_BLOCK; off += es)
                memcpy(u + off, pad_value, es);
        oacl_memmove(u + (size_t)left * es, g, p.block_len);
    }
}

/* UB -> GM: only the block_len real bytes of every row reach GM. */
static inline void oacl_data_copy_pad_out(oacl_gm_t dst, oacl_local_t src, oacl_pad_params_t p)
{
    static const char op[] = "DataCopyPad(UB->GM)";
    uint64_t row = oacl_pad_check_(op, src, dst.dtype, dst.addr, p, 0, 0, p.src_stride);
    oacl_gm_check(dst.addr, (size_t)(p.block_count - 1u) * ((size_t)p.block_len + p.dst_stride) + p.block_len, 1, op);
    for (uint32_t r = 0; r < p.block_count; r++)
        oacl_memmove(dst.addr + (size_t)r * ((size_t)p.block_len + p.dst_stride),
                src.addr + (size_t)r * (size_t)(row + p.src_stride) * OACL_DATA_BLOCK, p.block_len);
}

#ifdef __cplusplus
}
#endif

#endif /* OACL_KERNEL_H */
