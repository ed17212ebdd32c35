/*
 * The CPU device's random-number task (aclrtRandomNumAsync), playing the
 * engine's Philox4x32-10 "DSA" task in stream order.
 *
 * Every output element depends only on (seed, counter, its index), so the
 * output is cut into units that all worker threads may claim. Values given
 * by address (seed, count, distribution parameters) and the counter are
 * read when the task runs: every unit reads them itself (a few loads and
 * registry lookups), which keeps the units independent. A value at an
 * address the device cannot reach fails the task with
 * ACL_ERROR_RT_TS_ERROR, as the engine's fault would. The counter is only
 * read, never advanced (Decision 14): callers supply it for every task.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/addr_registry.h"
#include "common/bf16.h"
#include "common/fp16.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/random_dist.h"

/* Elements per unit when the count is known at enqueue: ~1 ms of work for
   the normal distribution, a multiple of 32 (whole mask bytes, whole
   4-element blocks and groups). */
#define RANDOM_CHUNK ((uint64_t)1 << 16)

struct random_job {
    struct oacl_random_task task;
    uint64_t per_unit;   /* elements per unit; 0: split the count read at run time */
    uint32_t esize;      /* output element size; 0 for the bit mask */
};

/* What every unit reads before generating. */
struct random_state {
    struct oacl_philox gen;
    uint64_t num;
    uint64_t param[2];
};

/* Memory the simulated device can read or write: device memory, or the
 * device address of mapped host memory. */
static bool device_range(uintptr_t addr, uint64_t len)
{
    struct oacl_mem_record r;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, addr, &r))
        return false;
    if (r.kind != OACL_MEM_DEVICE && r.kind != OACL_MEM_DEVICE_ALIAS)
        return false;
    return len <= r.base + r.size - addr;
}

static uint64_t load_le(const void *p, unsigned size)
{
    const uint8_t *b = p;
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static bool read_value(struct oacl_task *t, const struct oacl_random_value *v, const char *what, uint64_t *out)
{
    if (!v->addressed) {
        *out = v->value;
        return true;
    }
    if (!device_range((uintptr_t)v->value, v->size)) {
        char msg[160];
        snprintf(msg, sizeof(msg), "random-number task: %s: %u bytes at address 0x%llx are not inside device memory", what,
                 v->size, (unsigned long long)v->value);
        oacl_exec_task_fail(t, ACL_ERROR_RT_TS_ERROR, msg);
        return false;
    }
    *out = load_le((const void *)(uintptr_t)v->value, v->size);
    return true;
}

static uint64_t output_bytes(const struct random_job *j, uint64_t num, bool *overflow)
{
    *overflow = false;
    if (!j->esize)
        return num / 8 + (num % 8 != 0);
    if (num > UINT64_MAX / j->esize) {
        *overflow = true;
        return UINT64_MAX;
    }
    return num * j->esize;
}

static bool prepare(struct oacl_task *t, const struct random_job *j, struct random_state *st)
{
    const struct oacl_random_task *k = &j->task;
    uint64_t seed;
    if (!read_value(t, &k->seed, "the seed", &seed) || !read_value(t, &k->num, "the count", &st->num))
        return false;
    static const char *const names[4][2] = {
        {"the dropout ratio", ""}, {"min", "max"}, {"mean", "stddev"}, {"mean", "stddev"}};
    const unsigned nparams = k->dist == OACL_RANDOM_DROPOUT_MASK ? 1 : 2;
    st->param[1] = 0;
    for (unsigned i = 0; i < nparams; i++)
        if (!read_value(t, &k->param[i], names[k->dist][i], &st->param[i]))
            return false;
    bool overflow;
    const uint64_t need = output_bytes(j, st->num, &overflow);
    if (overflow || need > k->result_room) {
        char msg[200];
        if (overflow)
            snprintf(msg, sizeof(msg), "random-number task: %llu numbers need more than 2^64 bytes",
                     (unsigned long long)st->num);
        else
            snprintf(msg, sizeof(msg),
                     "random-number task: %llu numbers need %llu bytes at the result address, its memory holds %llu",
                     (unsigned long long)st->num, (unsigned long long)need, (unsigned long long)k->result_room);
        oacl_exec_task_fail(t, ACL_ERROR_RT_TS_ERROR, msg);
        return false;
    }
    const uint8_t *c = k->counter;
    oacl_philox_init(&st->gen, seed, load_le(c, 8), load_le(c + 8, 8));
    return true;
}

/* ---- generators over the element range [first, end) ---- */

static void store(uint8_t *out, uint64_t i, uint32_t esize, uint64_t bits)
{
    switch (esize) {
    case 2: { uint16_t v = (uint16_t)bits; memcpy(out + i * 2, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(out + i * 4, &v, 4); break; }
    default: memcpy(out + i * 8, &bits, 8); break;
    }
}

static uint64_t uniform_bits(uint32_t w, const struct random_state *st, aclDataType type)
{
    switch (type) {
    case ACL_FLOAT:
        return oacl_f32_bits(oacl_rand_uniform_f32(w, oacl_f32_from_bits((uint32_t)st->param[0]),
                                                   oacl_f32_from_bits((uint32_t)st->param[1])));
    case ACL_FLOAT16: return oacl_rand_uniform_f16(w, (uint16_t)st->param[0], (uint16_t)st->param[1]);
    case ACL_BF16: return oacl_rand_uniform_bf16(w, (uint16_t)st->param[0], (uint16_t)st->param[1]);
    default: return oacl_rand_uniform_int(w, st->param[0], st->param[1], type);
    }
}

static void gen_uniform(const struct random_job *j, const struct random_state *st, uint64_t first, uint64_t end)
{
    uint8_t *out = j->task.result;
    for (uint64_t b = first / 4; b * 4 < end; b++) {
        uint32_t w[4];
        oacl_philox_block(&st->gen, b, w);
        for (unsigned k = 0; k < 4 && b * 4 + k < end; k++)
            store(out, b * 4 + k, j->esize, uniform_bits(w[k], st, j->task.type));
    }
}

/* A float parameter of `type` (raw bits) as float; narrow ones are exact. */
static float param_f32(uint64_t bits, aclDataType type)
{
    switch (type) {
    case ACL_FLOAT16: return oacl_f16_to_f32((uint16_t)bits);
    case ACL_BF16: return oacl_bf16_to_f32((uint16_t)bits);
    default: return oacl_f32_from_bits((uint32_t)bits);
    }
}

static uint64_t narrow_bits(float f, aclDataType type)
{
    switch (type) {
    case ACL_FLOAT16: return oacl_f32_to_f16(f);
    case ACL_BF16: return oacl_f32_to_bf16(f);
    default: return oacl_f32_bits(f);
    }
}

static void gen_normal(const struct random_job *j, const struct random_state *st, uint64_t first, uint64_t end)
{
    const aclDataType type = j->task.type;
    const float mean = param_f32(st->param[0], type), stddev = param_f32(st->param[1], type);
    uint8_t *out = j->task.result;
    for (uint64_t b = first / 4; b * 4 < end; b++) {
        uint32_t w[4];
        float f[4];
        if (j->task.dist == OACL_RANDOM_TRUNCATED_NORMAL) {
            const uint64_t left = end - b * 4;
            oacl_rand_truncated_group(&st->gen, b, left < 4 ? (unsigned)left : 4u, f);
        } else {
            oacl_philox_block(&st->gen, b, w);
            oacl_rand_box_muller(w[0], w[1], &f[0], &f[1]);
            oacl_rand_box_muller(w[2], w[3], &f[2], &f[3]);
        }
        for (unsigned k = 0; k < 4 && b * 4 + k < end; k++)
            store(out, b * 4 + k, j->esize, narrow_bits(oacl_rand_scale(f[k], mean, stddev), type));
    }
}

/* first is a multiple of 8: whole bytes; bits past the end are 0. */
static void gen_dropout(const struct random_job *j, const struct random_state *st, uint64_t first, uint64_t end)
{
    const float ratio = oacl_rand_dropout_ratio(st->param[0], j->task.type);
    uint8_t *out = j->task.result;
    for (uint64_t byte = first / 8; byte * 8 < end; byte++) {
        uint32_t w[8];
        oacl_philox_block(&st->gen, byte * 2, w);
        oacl_philox_block(&st->gen, byte * 2 + 1, w + 4);
        uint8_t v = 0;
        for (unsigned k = 0; k < 8 && byte * 8 + k < end; k++)
            v |= (uint8_t)(oacl_rand_dropout_keep(w[k], ratio) << k);
        out[byte] = v;
    }
}

static void random_unit(struct oacl_task *t, uint32_t unit)
{
    if (__atomic_load_n(&t->failed, __ATOMIC_ACQUIRE) || oacl_exec_stopped(t->queue))
        return;
    const struct random_job *j = t->data;
    struct random_state st;
    if (!prepare(t, j, &st))
        return;
    uint64_t per = j->per_unit;
    if (!per) { /* count read now: split it over the units, whole 32s */
        per = st.num / t->units + (st.num % t->units != 0);
        per = (per + 31) & ~(uint64_t)31;
        if (!per)
            return;
    }
    const uint64_t first = (uint64_t)unit * per;
    if (first >= st.num)
        return;
    const uint64_t end = st.num - first < per ? st.num : first + per;
    switch (j->task.dist) {
    case OACL_RANDOM_DROPOUT_MASK: gen_dropout(j, &st, first, end); break;
    case OACL_RANDOM_UNIFORM: gen_uniform(j, &st, first, end); break;
    default: gen_normal(j, &st, first, end); break;
    }
}

static void random_release(struct oacl_task *t) { free(t); }

static uint32_t out_size(aclDataType type)
{
    switch (type) {
    case ACL_FLOAT16: case ACL_BF16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_INT64: case ACL_UINT64: return 8;
    default: return 0;
    }
}

struct oacl_task *oacl_cpu_random_task_new(struct oacl_bdev *dev, const struct oacl_random_task *task, int *rc,
                                           char *err)
{
    const uint32_t esize = task->dist == OACL_RANDOM_DROPOUT_MASK ? 0 : out_size(task->type);
    if (task->dist != OACL_RANDOM_DROPOUT_MASK && !esize) {
        snprintf(err, OACL_BACKEND_ERRLEN, "the random-number engine has no output type %d", (int)task->type);
        *rc = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
        return NULL;
    }
    struct oacl_task *t = oacl_task_new(sizeof(struct random_job));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a random-number task");
        *rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        return NULL;
    }
    struct random_job *j = t->data;
    j->task = *task;
    j->esize = esize;
    uint64_t units;
    if (task->num.addressed) {
        j->per_unit = 0;
        units = oacl_exec_worker_count();
        if (!units)
            units = 1;
    } else {
        j->per_unit = RANDOM_CHUNK;
        units = task->num.value / RANDOM_CHUNK + (task->num.value % RANDOM_CHUNK != 0);
        if (units > UINT32_MAX) { /* beyond any device memory; stays correct all the same */
            units = UINT32_MAX;
            j->per_unit = 0;
        }
        if (!units)
            units = 1; /* an empty task still takes its place in the stream */
    }
    t->kind = OACL_TASK_UNITS;
    t->units = (uint32_t)units;
    t->run = random_unit;
    t->release = random_release;
    t->dev = dev;
    t->trace_type = OACL_TT_RANDOM;
    *rc = ACL_SUCCESS;
    return t;
}

int oacl_cpu_queue_random(struct oacl_queue *q, const struct oacl_random_task *task, char *err)
{
    int rc;
    struct oacl_task *t = oacl_cpu_random_task_new(q->dev, task, &rc, err);
    if (t)
        oacl_exec_submit(q, t);
    return rc;
}
