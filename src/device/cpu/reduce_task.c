/*
 * The CPU device's reduce task (aclrtReduceAsync): dst[i] = dst[i] OP src[i]
 * element by element, in stream order, cut into units that every worker
 * thread may claim (like copies), so a large reduction uses the whole
 * device.
 *
 * Numerics (acl-rt-memory-extras.md §3.10, Decision 15):
 *  - integers: SUM wraps modulo 2^bits, MAX/MIN compare with the type's
 *    signedness;
 *  - float: IEEE single arithmetic (round to nearest even);
 *  - float16/bfloat16: the exact sum computed in double (exact for float16;
 *    for bfloat16 double's 53 >= 2 * 8 + 2 bits make its rounding harmless)
 *    and rounded once to the type, overflow to ±inf;
 *  - MAX/MIN: NaN if either operand is NaN (dst's NaN first, quieted), and
 *    dst kept when the operands compare equal (±0);
 *  - NaN in a narrow SUM: dst's NaN first, then src's, quieted; inf - inf
 *    gives the default quiet NaN (as the narrow vector primitives do).
 * The loops are plain C without restrict: where dst and src overlap, the
 * compiler's alias checks keep index order, and a partial overlap runs as a
 * single unit so that the chunks cannot reorder it either.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bf16.h"
#include "common/fp16.h"
#include "device/cpu/cpu_device.h"

/* Bytes per unit: large enough to amortise the claim, small enough that
   16 MiB keeps 8 threads busy. */
#define REDUCE_CHUNK ((size_t)2 << 20)

struct reduce_job {
    uint8_t *dst;
    const uint8_t *src;
    uint64_t n;          /* elements */
    uint64_t per_unit;   /* elements per unit */
    uint32_t esize;
    bool overlap;        /* dst and src overlap partially: one unit, index order */
    enum oacl_reduce_op op;
    aclDataType type;
};

/* ---- element rules ---- */

static inline float f32_nan(float a, float b)
{
    return oacl_f32_from_bits((a != a ? oacl_f32_bits(a) : oacl_f32_bits(b)) | 0x00400000u);
}
static inline float f32_max(float a, float b) { return (a != a || b != b) ? f32_nan(a, b) : b > a ? b : a; }
static inline float f32_min(float a, float b) { return (a != a || b != b) ? f32_nan(a, b) : b < a ? b : a; }

static inline uint16_t f16_nan(uint16_t a, uint16_t b)
{
    return (uint16_t)((oacl_f16_is_nan(a) ? a : b) | 0x0200u);
}
static inline uint16_t f16_sum(uint16_t a, uint16_t b)
{
    if (oacl_f16_is_nan(a) || oacl_f16_is_nan(b))
        return f16_nan(a, b);
    const double r = (double)oacl_f16_to_f32(a) + (double)oacl_f16_to_f32(b);
    return r != r ? 0x7E00u : oacl_f64_to_f16(r);
}
static inline uint16_t f16_max(uint16_t a, uint16_t b)
{
    if (oacl_f16_is_nan(a) || oacl_f16_is_nan(b))
        return f16_nan(a, b);
    return oacl_f16_to_f32(b) > oacl_f16_to_f32(a) ? b : a;
}
static inline uint16_t f16_min(uint16_t a, uint16_t b)
{
    if (oacl_f16_is_nan(a) || oacl_f16_is_nan(b))
        return f16_nan(a, b);
    return oacl_f16_to_f32(b) < oacl_f16_to_f32(a) ? b : a;
}

static inline uint16_t bf16_nan(uint16_t a, uint16_t b)
{
    return (uint16_t)((oacl_bf16_is_nan(a) ? a : b) | 0x0040u);
}
static inline uint16_t bf16_sum(uint16_t a, uint16_t b)
{
    if (oacl_bf16_is_nan(a) || oacl_bf16_is_nan(b))
        return bf16_nan(a, b);
    const double r = (double)oacl_bf16_to_f32(a) + (double)oacl_bf16_to_f32(b);
    return r != r ? 0x7FC0u : oacl_f64_to_bf16(r);
}
static inline uint16_t bf16_max(uint16_t a, uint16_t b)
{
    if (oacl_bf16_is_nan(a) || oacl_bf16_is_nan(b))
        return bf16_nan(a, b);
    return oacl_bf16_to_f32(b) > oacl_bf16_to_f32(a) ? b : a;
}
static inline uint16_t bf16_min(uint16_t a, uint16_t b)
{
    if (oacl_bf16_is_nan(a) || oacl_bf16_is_nan(b))
        return bf16_nan(a, b);
    return oacl_bf16_to_f32(b) < oacl_bf16_to_f32(a) ? b : a;
}

/* Integer SUM in the unsigned type of the same width (defined wrap); the
   conversion back is modulo 2^bits with GCC and Clang. */
#define INT_SUM(T, U) static inline T sum_##T(T a, T b) { return (T)(U)((U)a + (U)b); }
INT_SUM(int8_t, uint8_t)
INT_SUM(int16_t, uint16_t)
INT_SUM(int32_t, uint32_t)
INT_SUM(uint32_t, uint32_t)
#define INT_MAXMIN(T)                                                                                                \
    static inline T max_##T(T a, T b) { return b > a ? b : a; }                                                      \
    static inline T min_##T(T a, T b) { return b < a ? b : a; }
INT_MAXMIN(int8_t)
INT_MAXMIN(int16_t)
INT_MAXMIN(int32_t)
INT_MAXMIN(uint32_t)

static inline float sum_f32(float a, float b) { return a + b; }

/* ---- loops ---- */

#define LOOP(name, T, fn)                                                                                            \
    static void name(void *dst, const void *src, size_t n)                                                           \
    {                                                                                                                \
        T *d = dst;                                                                                                  \
        const T *s = src;                                                                                            \
        for (size_t i = 0; i < n; i++)                                                                               \
            d[i] = fn(d[i], s[i]);                                                                                   \
    }

LOOP(loop_sum_i8, int8_t, sum_int8_t)
LOOP(loop_max_i8, int8_t, max_int8_t)
LOOP(loop_min_i8, int8_t, min_int8_t)
LOOP(loop_sum_i16, int16_t, sum_int16_t)
LOOP(loop_max_i16, int16_t, max_int16_t)
LOOP(loop_min_i16, int16_t, min_int16_t)
LOOP(loop_sum_i32, int32_t, sum_int32_t)
LOOP(loop_max_i32, int32_t, max_int32_t)
LOOP(loop_min_i32, int32_t, min_int32_t)
LOOP(loop_sum_u32, uint32_t, sum_uint32_t)
LOOP(loop_max_u32, uint32_t, max_uint32_t)
LOOP(loop_min_u32, uint32_t, min_uint32_t)
LOOP(loop_sum_f32, float, sum_f32)
LOOP(loop_max_f32, float, f32_max)
LOOP(loop_min_f32, float, f32_min)
LOOP(loop_sum_f16, uint16_t, f16_sum)
LOOP(loop_max_f16, uint16_t, f16_max)
LOOP(loop_min_f16, uint16_t, f16_min)
LOOP(loop_sum_bf16, uint16_t, bf16_sum)
LOOP(loop_max_bf16, uint16_t, bf16_max)
LOOP(loop_min_bf16, uint16_t, bf16_min)

/* dst[i] = src[i] in index order (a partial overlap with src below dst
   repeats the pattern, as element-wise assignment does). */
static void assign_in_order(void *dst, const void *src, size_t n, uint32_t esize)
{
    switch (esize) {
    case 1: { int8_t *d = dst; const int8_t *s = src; for (size_t i = 0; i < n; i++) d[i] = s[i]; break; }
    case 2: { int16_t *d = dst; const int16_t *s = src; for (size_t i = 0; i < n; i++) d[i] = s[i]; break; }
    default: { int32_t *d = dst; const int32_t *s = src; for (size_t i = 0; i < n; i++) d[i] = s[i]; break; }
    }
}

typedef void (*reduce_loop)(void *dst, const void *src, size_t n);

/* The loop for (type, op); NULL for ASSIGN (a move) and for types the
   device has no reducer for (the API layer never sends those). */
static reduce_loop loop_for(aclDataType type, enum oacl_reduce_op op)
{
    static const struct {
        aclDataType type;
        reduce_loop fn[3]; /* SUM, MAX, MIN */
    } table[] = {
        {ACL_INT8, {loop_sum_i8, loop_max_i8, loop_min_i8}},
        {ACL_INT16, {loop_sum_i16, loop_max_i16, loop_min_i16}},
        {ACL_INT32, {loop_sum_i32, loop_max_i32, loop_min_i32}},
        {ACL_UINT32, {loop_sum_u32, loop_max_u32, loop_min_u32}},
        {ACL_FLOAT, {loop_sum_f32, loop_max_f32, loop_min_f32}},
        {ACL_FLOAT16, {loop_sum_f16, loop_max_f16, loop_min_f16}},
        {ACL_BF16, {loop_sum_bf16, loop_max_bf16, loop_min_bf16}},
    };
    if (op > OACL_REDUCE_MIN)
        return NULL;
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (table[i].type == type)
            return table[i].fn[op];
    return NULL;
}

static uint32_t elem_size(aclDataType type)
{
    switch (type) {
    case ACL_INT8: case ACL_UINT8: return 1;
    case ACL_INT16: case ACL_UINT16: case ACL_FLOAT16: case ACL_BF16: return 2;
    case ACL_INT32: case ACL_UINT32: case ACL_FLOAT: return 4;
    default: return 0;
    }
}

static void reduce_unit(struct oacl_task *t, uint32_t unit)
{
    if (oacl_exec_stopped(t->queue))
        return; /* the context stopped after a failure: drop the work */
    const struct reduce_job *j = t->data;
    const uint64_t first = (uint64_t)unit * j->per_unit;
    const uint64_t count = j->n - first < j->per_unit ? j->n - first : j->per_unit;
    uint8_t *d = j->dst + first * j->esize;
    const uint8_t *s = j->src + first * j->esize;
    if (j->op != OACL_REDUCE_ASSIGN)
        loop_for(j->type, j->op)(d, s, count);
    else if (j->overlap)
        assign_in_order(d, s, count, j->esize);
    else if (d != s)
        memcpy(d, s, count * j->esize);
}

static void reduce_release(struct oacl_task *t) { free(t); }

int oacl_cpu_queue_reduce(struct oacl_queue *q, void *dst, const void *src, uint64_t n, enum oacl_reduce_op op,
                          aclDataType type, char *err)
{
    const uint32_t esize = elem_size(type);
    if (!esize || (op != OACL_REDUCE_ASSIGN && !loop_for(type, op))) {
        snprintf(err, OACL_BACKEND_ERRLEN, "the device has no reducer %d for data type %d", (int)op, (int)type);
        return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    }
    struct oacl_task *t = oacl_task_new(sizeof(struct reduce_job));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a reduce task");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct reduce_job *j = t->data;
    j->dst = dst;
    j->src = src;
    j->n = n;
    j->esize = esize;
    j->op = op;
    j->type = type;
    const uint64_t bytes = n * esize;
    const uint8_t *d8 = dst, *s8 = src;
    /* Chunks would reorder a partially overlapping reduction (an element
       written by one chunk is read by another): keep it whole. */
    j->overlap = d8 != s8 && d8 < s8 + bytes && s8 < d8 + bytes;
    j->per_unit = j->overlap ? n : REDUCE_CHUNK / esize;
    uint64_t units = (n + j->per_unit - 1) / j->per_unit;
    if (units > UINT32_MAX) { /* cannot happen below 2^32 chunks; keep units exact anyway */
        j->per_unit = (n + UINT32_MAX - 1) / UINT32_MAX;
        units = (n + j->per_unit - 1) / j->per_unit;
    }
    if (!units)
        units = 1; /* no whole element: an empty task still takes its place in the stream */
    t->kind = OACL_TASK_UNITS;
    t->units = (uint32_t)units;
    t->run = reduce_unit;
    t->release = reduce_release;
    t->dev = q->dev;
    t->trace_type = OACL_TT_REDUCE;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}
