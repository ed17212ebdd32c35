/*
 * The CPU device's 2-D copies, batched copies, indirect copies and 32-bit
 * fills (memory-extras chapter). Large work is cut into units of about
 * COPY_CHUNK bytes that any executing thread may claim, as for plain
 * copies, so a big matrix uses the device's worker threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "common/addr_registry.h"
#include "device/cpu/cpu_device.h"

#define COPY_CHUNK ((size_t)2 << 20)

static void plain_release(struct oacl_task *t) { free(t); }

static void nothing_unit(struct oacl_task *t, uint32_t unit)
{
    (void)t;
    (void)unit;
}

static int no_memory(char *err, const char *what)
{
    snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for %s", what);
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
}

/* trace: what the task is to traces, and to task graphs (which record only
 * the kinds they know how to replay). */
static void submit_units(struct oacl_queue *q, struct oacl_task *t, uint32_t units, oacl_task_unit_fn run,
                         uint32_t trace)
{
    t->trace_type = trace;
    t->kind = OACL_TASK_UNITS;
    t->units = units;
    t->run = run;
    t->release = plain_release;
    t->dev = q->dev;
    oacl_exec_submit(q, t);
}

/* ---- 2-D copies ---------------------------------------------------------- */

struct copy2d_job {
    struct oacl_copy_2d c;
    size_t rows_per_unit; /* 0: overlapping matrices, one unit */
    bool backward;        /* overlapping: copy the last row first */
};

static bool ranges_overlap(uintptr_t a, size_t alen, uintptr_t b, size_t blen)
{
    return a < b + blen && b < a + alen;
}

static size_t extent_2d(size_t pitch, const struct oacl_copy_2d *c) { return (c->height - 1) * pitch + c->width; }

static bool overlap_2d(const struct oacl_copy_2d *c)
{
    return ranges_overlap((uintptr_t)c->dst, extent_2d(c->dpitch, c), (uintptr_t)c->src, extent_2d(c->spitch, c));
}

/*
 * Copying forward is exact when dst <= src and dpitch <= spitch: row r of
 * dst ends at or before row r+1 of src starts (width <= spitch), so no
 * source row is overwritten before it is read; the mirror case runs
 * backward. Other overlaps have no exact order: forward, row by row.
 */
static bool backward_2d(const struct oacl_copy_2d *c)
{
    return (uintptr_t)c->dst > (uintptr_t)c->src && c->dpitch >= c->spitch;
}

static void rows_2d(const struct oacl_copy_2d *c, size_t first, size_t end)
{
    uint8_t *d = (uint8_t *)c->dst + first * c->dpitch;
    const uint8_t *s = (const uint8_t *)c->src + first * c->spitch;
    if (c->dpitch == c->width && c->spitch == c->width) {
        memcpy(d, s, (end - first) * c->width); /* contiguous rows: one copy */
        return;
    }
    for (size_t r = first; r < end; r++, d += c->dpitch, s += c->spitch)
        memcpy(d, s, c->width);
}

static void move_rows_2d(const struct oacl_copy_2d *c, bool backward)
{
    uint8_t *d = c->dst;
    const uint8_t *s = c->src;
    for (size_t i = 0; i < c->height; i++) {
        size_t r = backward ? c->height - 1 - i : i;
        memmove(d + r * c->dpitch, s + r * c->spitch, c->width);
    }
}

static void copy2d_unit(struct oacl_task *t, uint32_t unit)
{
    struct copy2d_job *j = t->data;
    if (!j->rows_per_unit) {
        move_rows_2d(&j->c, j->backward);
        return;
    }
    size_t first = (size_t)unit * j->rows_per_unit;
    size_t end = first + j->rows_per_unit < j->c.height ? first + j->rows_per_unit : j->c.height;
    rows_2d(&j->c, first, end);
}

void oacl_cpu_copy_2d(const struct oacl_copy_2d *c)
{
    if (c->width == 0 || c->height == 0)
        return;
    oacl_cpu_gate_enter(); /* the destination may be device memory being exported */
    if (overlap_2d(c))
        move_rows_2d(c, backward_2d(c));
    else
        rows_2d(c, 0, c->height);
    oacl_cpu_gate_leave();
}

int oacl_cpu_queue_copy_2d(struct oacl_queue *q, const struct oacl_copy_2d *c, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct copy2d_job));
    if (!t)
        return no_memory(err, "a 2-D copy");
    struct copy2d_job *j = t->data;
    j->c = *c;
    uint32_t units = 1;
    if (c->width && c->height && !overlap_2d(c)) {
        j->rows_per_unit = c->width >= COPY_CHUNK ? 1 : COPY_CHUNK / c->width;
        size_t n = (c->height + j->rows_per_unit - 1) / j->rows_per_unit;
        if (n > UINT32_MAX) { /* never with the API's limits; keep units countable */
            j->rows_per_unit = (c->height + UINT32_MAX - 1) / UINT32_MAX;
            n = (c->height + j->rows_per_unit - 1) / j->rows_per_unit;
        }
        units = (uint32_t)n;
    } else {
        j->backward = c->width && c->height && backward_2d(c);
        if (!c->width || !c->height)
            j->c.height = 0; /* nothing to do */
    }
    submit_units(q, t, units, copy2d_unit, OACL_TT_MEMCPY);
    return ACL_SUCCESS;
}

/* ---- batches of independent copies ---------------------------------------- */

struct batch_job {
    size_t n;
    struct oacl_copy_item *items;
    uint32_t *first_unit; /* n + 1 entries: units of item i are [first_unit[i], first_unit[i+1]) */
};

static bool item_self_overlap(const struct oacl_copy_item *it)
{
    return ranges_overlap((uintptr_t)it->dst, it->n, (uintptr_t)it->src, it->n);
}

static void batch_unit(struct oacl_task *t, uint32_t unit)
{
    struct batch_job *j = t->data;
    size_t lo = 0, hi = j->n; /* the item whose unit range holds `unit` */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (j->first_unit[mid] <= unit)
            lo = mid;
        else
            hi = mid;
    }
    const struct oacl_copy_item *it = &j->items[lo];
    if (item_self_overlap(it)) {
        memmove(it->dst, it->src, it->n); /* one unit: keeps memmove's meaning */
        return;
    }
    size_t off = (size_t)(unit - j->first_unit[lo]) * COPY_CHUNK;
    size_t len = it->n - off < COPY_CHUNK ? it->n - off : COPY_CHUNK;
    memcpy((uint8_t *)it->dst + off, (const uint8_t *)it->src + off, len);
}

int oacl_cpu_queue_copy_batch(struct oacl_queue *q, const struct oacl_copy_item *items, size_t n, char *err)
{
    if (n > (SIZE_MAX - sizeof(struct batch_job)) / (sizeof(*items) + sizeof(uint32_t)) - 1)
        return no_memory(err, "a batch of copies");
    size_t items_bytes = n * sizeof(*items);
    struct oacl_task *t = oacl_task_new(sizeof(struct batch_job) + items_bytes + (n + 1) * sizeof(uint32_t));
    if (!t)
        return no_memory(err, "a batch of copies");
    struct batch_job *j = t->data;
    j->n = n;
    j->items = (struct oacl_copy_item *)(j + 1);
    j->first_unit = (uint32_t *)((char *)j->items + items_bytes);
    uint64_t units = 0;
    for (size_t i = 0; i < n; i++) {
        j->items[i] = items[i];
        j->first_unit[i] = (uint32_t)units;
        units += item_self_overlap(&items[i]) || items[i].n == 0 ? 1 : (items[i].n + COPY_CHUNK - 1) / COPY_CHUNK;
        if (units > UINT32_MAX) {
            free(t);
            snprintf(err, OACL_BACKEND_ERRLEN, "a batch of copies of more than %llu bytes",
                     (unsigned long long)UINT32_MAX * COPY_CHUNK);
            return ACL_ERROR_RT_PARAM_INVALID;
        }
    }
    j->first_unit[n] = (uint32_t)units;
    if (units == 0) /* an empty batch still takes its place in the queue */
        units = 1;
    submit_units(q, t, (uint32_t)units, n ? batch_unit : nothing_unit, OACL_TT_MEMCPY);
    return ACL_SUCCESS;
}

/* ---- copies resolved at execution ------------------------------------------ */

/* True when [a, a+n) lies inside one live device (or managed) allocation that the
 * device's DMA engine may touch (and write, when `written`: not the
 * read-only memory of a kernel binary). */
static bool device_range_ok(uint64_t a, uint64_t n, bool written)
{
    struct oacl_mem_record r;
    if (a > UINTPTR_MAX || !oacl_registry_lookup(OACL_SPACE_ALLOC, (uintptr_t)a, &r) ||
        (r.kind != OACL_MEM_DEVICE && r.kind != OACL_MEM_MANAGED))
        return false;
    return n <= r.base + r.size - (uintptr_t)a && !(written && r.readonly);
}

static uint64_t load_le(const void *p, size_t n)
{
    uint64_t v = 0;
    memcpy(&v, p, n); /* little-endian host: the device's byte order */
    return v;
}

static void indirect_unit(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    const struct oacl_indirect_copy *c = t->data;
    char msg[192];
    const void *slots[3] = {c->dst_slot, c->src_slot, c->len_slot};
    static const char *const slot_names[3] = {"destination address", "source address", "length"};
    static const size_t slot_sizes[3] = {8, 8, 4};
    for (int i = 0; i < 3; i++) {
        if (slots[i] && !device_range_ok((uintptr_t)slots[i], slot_sizes[i], false)) {
            snprintf(msg, sizeof msg, "copy task: its %s at %p is no longer valid device memory", slot_names[i],
                     slots[i]);
            oacl_exec_task_fail(t, ACL_ERROR_RT_SYS_DMA, msg);
            return;
        }
    }
    uint64_t base_dst = load_le(c->dst_slot, 8), base_src = load_le(c->src_slot, 8);
    uint64_t n = c->len_slot ? load_le(c->len_slot, 4) : c->len;
    if (n == 0)
        return;
    uint64_t dst = base_dst + c->dst_offset, src = base_src + c->src_offset;
    const char *bad = NULL;
    uint64_t at = 0;
    if (dst < base_dst || !device_range_ok(dst, n, true))
        bad = "destination", at = dst;
    else if (src < base_src || !device_range_ok(src, n, false))
        bad = "source", at = src;
    if (bad) {
        snprintf(msg, sizeof msg, "copy task: %s range [0x%llx, +%llu) is not valid %sdevice memory", bad,
                 (unsigned long long)at, (unsigned long long)n, bad[0] == 'd' ? "writable " : "");
        oacl_exec_task_fail(t, ACL_ERROR_RT_SYS_DMA, msg);
        return;
    }
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, (size_t)n);
}

int oacl_cpu_queue_copy_indirect(struct oacl_queue *q, const struct oacl_indirect_copy *c, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(*c));
    if (!t)
        return no_memory(err, "a copy");
    memcpy(t->data, c, sizeof(*c));
    /* The length is unknown until it runs: one unit. */
    submit_units(q, t, 1, indirect_unit, OACL_TT_MEMCPY);
    return ACL_SUCCESS;
}

/* ---- 32-bit fills ------------------------------------------------------------ */

#define FILL_WORDS (COPY_CHUNK / 4)

struct fill32_job {
    uint32_t *dst;
    uint32_t value;
    size_t n;
};

static void fill_words(void *dst, uint32_t value, size_t n)
{
    uint8_t b = (uint8_t)value;
    if (value == b * 0x01010101u) {
        memset(dst, b, n * 4); /* every byte the same */
        return;
    }
    uint32_t *p = dst;
    for (size_t i = 0; i < n; i++)
        p[i] = value;
}

void oacl_cpu_fill32(void *dst, uint32_t value, size_t n)
{
    oacl_cpu_gate_enter(); /* the memory may be device memory being exported */
    fill_words(dst, value, n);
    oacl_cpu_gate_leave();
}

static void fill32_unit(struct oacl_task *t, uint32_t unit)
{
    struct fill32_job *j = t->data;
    size_t off = (size_t)unit * FILL_WORDS;
    fill_words(j->dst + off, j->value, j->n - off < FILL_WORDS ? j->n - off : FILL_WORDS);
}

int oacl_cpu_queue_fill32(struct oacl_queue *q, void *dst, uint32_t value, size_t n, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct fill32_job));
    if (!t)
        return no_memory(err, "a fill");
    struct fill32_job *j = t->data;
    j->dst = dst;
    j->value = value;
    j->n = n;
    size_t units = n ? (n + FILL_WORDS - 1) / FILL_WORDS : 1;
    submit_units(q, t, (uint32_t)units, fill32_unit, OACL_TT_MEMSET);
    return ACL_SUCCESS;
}
