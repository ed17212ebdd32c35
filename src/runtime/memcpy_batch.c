/*
 * Batch copies (spec memory extras §3.7): aclrtMemcpyBatch(V2), synchronous,
 * and aclrtMemcpyBatchAsync(V2). numBatches independent host<->device
 * copies; attrs[k] declares the operand locations of the copies from
 * attrsIndexes[k] up to the next group. Every copy is validated before any
 * byte moves (Decision 17). The asynchronous variants apply the pageable
 * rule per copy in index order; consecutive copies without pageable memory
 * become one task.
 */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/copy_check.h"

#define MAX_SYNC_BATCH 4096u
#define BATCH_FAMILIES (OACL_FAM_A2 | OACL_FAM_A3 | OACL_FAM_950)

struct batch {
    void **dsts;
    size_t *destMaxs;
    void **srcs;
    size_t *sizes;
    size_t n;
    aclrtMemcpyBatchAttr *attrs;
    size_t *attrsIndexes;
    size_t numAttrs;
    size_t *failIndex; /* NULL for the V2 functions */
};

/* One validated copy: what the issuing loop needs. */
struct planned {
    struct oacl_copy_item item;
    bool pageable;
};

static aclError fail_at(const struct batch *b, size_t i, aclError code)
{
    if (b->failIndex)
        *b->failIndex = i;
    return code;
}

/* Steps 2 and 3: all sizes 0 (*done), NULL arrays, capacities, reserved
 * bytes. API-layer codes (100000). */
static aclError check_arrays(const struct batch *b, bool *done, const char *fn)
{
    *done = true;
    for (size_t i = 0; i < b->n && *done; i++)
        *done = b->sizes[i] == 0;
    if (*done)
        return ACL_SUCCESS;
    const char *null = !b->dsts ? "dsts" : !b->destMaxs ? "destMaxs" : !b->srcs ? "srcs" : !b->attrs ? "attrs"
                                      : !b->attrsIndexes ? "attrsIndexes" : NULL;
    if (null)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", null);
    for (size_t i = 0; i < b->n; i++) {
        if (b->destMaxs[i] < b->sizes[i])
            return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "sizes[%zu] = %zu exceeds destMaxs[%zu] = %zu", i,
                             b->sizes[i], i, b->destMaxs[i]);
    }
    /* Only entries that can describe a copy are read (numAttrs is checked
       against numBatches later). */
    size_t na = b->numAttrs < b->n ? b->numAttrs : b->n;
    for (size_t k = 0; k < na; k++)
        for (size_t j = 0; j < sizeof(b->attrs[k].rsv); j++)
            if (b->attrs[k].rsv[j])
                return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "attrs[%zu].rsv[%zu] is %u; reserved bytes must be 0", k,
                                 j, b->attrs[k].rsv[j]);
    /* oacl: a copy with bytes to move needs both addresses. */
    for (size_t i = 0; i < b->n; i++)
        if (b->sizes[i] && (!b->dsts[i] || !b->srcs[i]))
            return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s[%zu] is NULL (sizes[%zu] = %zu)",
                             b->dsts[i] ? "srcs" : "dsts", i, i, b->sizes[i]);
    return ACL_SUCCESS;
}

/* Step 4 after the profile and context: the attribute groups. */
static aclError check_groups(const struct batch *b, bool async, const char *fn)
{
    if (b->numAttrs == 0 || b->numAttrs > b->n)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "numAttrs %zu is not in 1..numBatches (%zu)", b->numAttrs,
                         b->n);
    if (!async && b->n > MAX_SYNC_BATCH)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "numBatches %zu exceeds the limit of %u copies", b->n,
                         MAX_SYNC_BATCH);
    if (b->attrsIndexes[0] != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "attrsIndexes[0] is %zu; the first group starts at copy 0",
                         b->attrsIndexes[0]);
    for (size_t k = 1; k < b->numAttrs; k++) {
        if (b->attrsIndexes[k] >= b->n || b->attrsIndexes[k] <= b->attrsIndexes[k - 1])
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "attrsIndexes[%zu] = %zu: indexes must increase and stay below numBatches (%zu)", k,
                             b->attrsIndexes[k], b->n);
    }
    return ACL_SUCCESS;
}

static const char *loc_name(aclrtMemLocationType t)
{
    switch (t) {
    case ACL_MEM_LOCATION_TYPE_HOST: return "host";
    case ACL_MEM_LOCATION_TYPE_DEVICE: return "device";
    case ACL_MEM_LOCATION_TYPE_UNREGISTERED: return "unregistered";
    case ACL_MEM_LOCATION_TYPE_MANAGED: return "managed";
    case ACL_MEM_LOCATION_TYPE_HOST_NUMA: return "host NUMA";
    default: return "unknown";
    }
}

/* Does the declared location describe memory of class c (device dev)?
 * Pageable memory counts as HOST; a declared HOST_NUMA counts as HOST. */
static bool loc_matches(const aclrtMemLocation *loc, enum oacl_mem_class c, int32_t dev)
{
    if (c == OACL_CLASS_MANAGED) /* valid on the host and every device */
        return true;
    switch (loc->type) {
    case ACL_MEM_LOCATION_TYPE_HOST:
    case ACL_MEM_LOCATION_TYPE_HOST_NUMA: return c == OACL_CLASS_HOST;
    /* dev < 0: a device variable linked into the program, every device's */
    case ACL_MEM_LOCATION_TYPE_DEVICE: return c == OACL_CLASS_DEVICE && (dev < 0 || (uint32_t)dev == loc->id);
    default: return false;
    }
}

static aclError check_side(const struct batch *b, size_t i, size_t k, bool is_dst, enum oacl_mem_class *c, bool *pinned,
                           int32_t *dev, const char *fn)
{
    char name[48];
    snprintf(name, sizeof name, "%s[%zu]", is_dst ? "dsts" : "srcs", i);
    const void *p = is_dst ? b->dsts[i] : b->srcs[i];
    aclError rc = oacl_copy_classify(p, b->sizes[i], name, c, pinned, dev, fn);
    if (rc)
        return rc;
    const aclrtMemLocation *loc = is_dst ? &b->attrs[k].dstLoc : &b->attrs[k].srcLoc;
    if (!loc_matches(loc, *c, *dev)) {
        if (*c == OACL_CLASS_DEVICE)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "copy %zu: %s is memory of device %d, but attrs[%zu].%s declares %s memory (id %u)", i,
                             name, *dev, k, is_dst ? "dstLoc" : "srcLoc", loc_name(loc->type), loc->id);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "copy %zu: %s is host memory, but attrs[%zu].%s declares %s memory (id %u)", i, name, k,
                         is_dst ? "dstLoc" : "srcLoc", loc_name(loc->type), loc->id);
    }
    return ACL_SUCCESS;
}

/* Step 5: every copy against its group's declaration. Fills plan[i]. */
static aclError check_copies(const struct batch *b, bool async, const struct oacl_context *ctx, struct planned *plan,
                             const char *fn)
{
    size_t k = 0;
    for (size_t i = 0; i < b->n; i++) {
        while (k + 1 < b->numAttrs && b->attrsIndexes[k + 1] <= i)
            k++;
        plan[i].item = (struct oacl_copy_item){b->dsts[i], b->srcs[i], b->sizes[i]};
        plan[i].pageable = false;
        if (b->sizes[i] == 0) {
            if (!async)
                continue; /* skipped */
            return fail_at(b, i, oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                                           "copy %zu has size 0 (only a batch whose sizes are all 0 may)", i));
        }
        enum oacl_mem_class dc, sc;
        bool dpin, spin;
        struct oacl_copy_sides sides;
        aclError rc = check_side(b, i, k, true, &dc, &dpin, &sides.dst_dev, fn);
        if (rc == ACL_SUCCESS)
            rc = check_side(b, i, k, false, &sc, &spin, &sides.src_dev, fn);
        if (rc == ACL_SUCCESS && dc == sc && dc != OACL_CLASS_MANAGED)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                           "copy %zu: dsts[%zu] and srcs[%zu] are both %s memory; a batch copies between host and device",
                           i, i, i, dc == OACL_CLASS_DEVICE ? "device" : "host");
        if (rc == ACL_SUCCESS)
            rc = oacl_copy_check_reach(ctx, &sides, fn);
        if (rc)
            return fail_at(b, i, rc);
        plan[i].pageable = (sc == OACL_CLASS_HOST && !spin) || (dc == OACL_CLASS_HOST && !dpin);
    }
    return ACL_SUCCESS;
}

/* Queues plan[from, to) (copies without pageable memory) as one task. */
static aclError flush(struct oacl_stream *s, const struct planned *plan, size_t from, size_t to,
                      struct oacl_copy_item *scratch, const char *fn)
{
    if (from == to)
        return ACL_SUCCESS;
    for (size_t i = from; i < to; i++)
        scratch[i - from] = plan[i].item;
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->queue_copy_batch(s->queue, scratch, to - from, err);
    return brc ? oacl_fail(brc, fn, "%s", err) : ACL_SUCCESS;
}

static aclError issue_async(struct oacl_stream *s, const struct planned *plan, size_t n, const char *fn)
{
    struct oacl_copy_item *scratch = malloc(n * sizeof(*scratch));
    if (!scratch)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for %zu copies", n);
    const struct oacl_backend_ops *be = oacl_backend();
    aclError rc = ACL_SUCCESS;
    size_t from = 0;
    for (size_t i = 0; i < n && rc == ACL_SUCCESS; i++) {
        if (!plan[i].pageable)
            continue;
        /* The pageable rule, in index order: what came before is queued,
           then the stream is waited for and this copy done here. */
        rc = flush(s, plan, from, i, scratch, fn);
        if (rc == ACL_SUCCESS) {
            be->queue_wait(s->queue, -1);
            be->copy(plan[i].item.dst, plan[i].item.src, plan[i].item.n);
        }
        from = i + 1;
    }
    if (rc == ACL_SUCCESS)
        rc = flush(s, plan, from, n, scratch, fn);
    free(scratch);
    return rc;
}

static aclError batch_copy(const struct batch *b, bool async, aclrtStream stream, const char *fn)
{
    if (!b->sizes)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "sizes is NULL");
    if (b->n == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "numBatches is 0");
    if (b->failIndex)
        *b->failIndex = SIZE_MAX;
    bool done;
    aclError rc = check_arrays(b, &done, fn);
    if (rc || done)
        return rc;
    rc = oacl_copy_supported(BATCH_FAMILIES, fn);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    rc = check_groups(b, async, fn);
    struct oacl_stream *s = NULL;
    if (rc == ACL_SUCCESS && async)
        rc = oacl_stream_resolve(ctx, stream, OACL_STREAM_ENQUEUE, &s, fn);
    struct planned *plan = NULL;
    if (rc == ACL_SUCCESS) {
        plan = malloc(b->n * sizeof(*plan));
        if (!plan)
            rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for %zu copies", b->n);
    }
    if (rc == ACL_SUCCESS)
        rc = check_copies(b, async, ctx, plan, fn);
    if (rc == ACL_SUCCESS && async) {
        rc = issue_async(s, plan, b->n, fn);
    } else if (rc == ACL_SUCCESS) {
        /* As aclrtMemcpy: sees the work queued earlier on the default
           stream (without consuming its errors), then copies here. */
        oacl_backend()->queue_wait(ctx->default_stream->queue, -1);
        for (size_t i = 0; i < b->n; i++)
            if (plan[i].item.n)
                oacl_backend()->copy(plan[i].item.dst, plan[i].item.src, plan[i].item.n);
    }
    free(plan);
    if (s)
        oacl_obj_put(&s->obj);
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                                   aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs,
                                   size_t *failIndex)
{
    if (!failIndex)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "failIndex is NULL");
    const struct batch b = {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex};
    return batch_copy(&b, false, NULL, __func__);
}

OACL_API aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                                     aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs)
{
    const struct batch b = {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, NULL};
    return batch_copy(&b, false, NULL, __func__);
}

OACL_API aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                                        aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs,
                                        size_t *failIndex, aclrtStream stream)
{
    if (!failIndex)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "failIndex is NULL");
    const struct batch b = {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex};
    return batch_copy(&b, true, stream, __func__);
}

OACL_API aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                          size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                          size_t numAttrs, aclrtStream stream)
{
    const struct batch b = {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, NULL};
    return batch_copy(&b, true, stream, __func__);
}
