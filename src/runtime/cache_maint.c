/*
 * Cache maintenance: aclrtMemFlush, aclrtMemInvalidate, aclrtCmoAsync,
 * aclrtCmoAsyncWithBarrier, aclrtCmoWaitBarrier, aclrtCmoGetDescSize,
 * aclrtCmoSetDesc, aclrtCmoAsyncWithDesc.
 *
 * Arguments are validated exactly as CANN does (whose order mixes API-layer
 * and runtime-layer checks per function). The work goes to the backend:
 * the CPU device is cache coherent, so the synchronous functions have
 * nothing to do and the asynchronous ones are empty tasks that still take
 * their place in the stream (Decision 11).
 */
#include <string.h>

#include "common/addr_registry.h"
#include "runtime/runtime.h"

/* Families with CMO tasks and descriptors (spec §1.1). */
#define CMO_FAMILIES                                                                                                 \
    (OACL_SOC_MASK(OACL_SOC_FAMILY_A2) | OACL_SOC_MASK(OACL_SOC_FAMILY_A3) | OACL_SOC_MASK(OACL_SOC_FAMILY_950))
/* The barrier pair exists on Ascend310B only. */
#define BARRIER_FAMILIES OACL_SOC_MASK(OACL_SOC_FAMILY_310B)

/* CMO descriptor (spec §2.5): CANN's A2/A3 layout, also the first half of
 * the 64 bytes the 950 reports. */
struct __attribute__((packed)) cmo_desc {
    uint32_t resv0, resv1;
    uint16_t num_outer, num_inner;
    uint32_t len_inner;
    uint64_t src;
    uint32_t stride_outer;
    uint32_t stride_inner;
};
_Static_assert(sizeof(struct cmo_desc) == 32, "CMO descriptor layout");

static size_t desc_size(void) { return oacl_soc_family() == OACL_SOC_FAMILY_950 ? 64 : 32; }

static aclError check_sync_range(void *devPtr, size_t size, const char *fn)
{
    if (!devPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "devPtr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "size is 0");
    /* Coherent memory: nothing to write back or drop. The range is not
       checked against the allocations (CANN does not either). */
    return oacl_ctx_require(fn);
}

OACL_API aclError aclrtMemFlush(void *devPtr, size_t size) { return check_sync_range(devPtr, size, __func__); }

OACL_API aclError aclrtMemInvalidate(void *devPtr, size_t size) { return check_sync_range(devPtr, size, __func__); }

/* Queues the operation on the resolved stream and drops its reference. */
static aclError enqueue_cmo(struct oacl_stream *s, const void *ptr, size_t size, const void *desc, int op,
                            const char *fn)
{
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->queue_cmo(s->queue, ptr, size, desc, op, err);
    oacl_obj_put(&s->obj);
    return brc ? oacl_fail(brc, fn, "%s", err) : ACL_SUCCESS;
}

OACL_API aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream)
{
    if (!src)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "src is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "size is 0");
    aclError rc = oacl_soc_require(CMO_FAMILIES, __func__);
    if (rc)
        return rc;
    if ((uint32_t)cmoType > ACL_RT_CMO_TYPE_FLUSH)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "cmoType %u is not an aclrtCmoType",
                         (unsigned)cmoType);
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, __func__);
    if (rc)
        return rc;
    return enqueue_cmo(s, src, size, NULL, (int)cmoType, __func__);
}

OACL_API aclError aclrtCmoAsyncWithBarrier(void *src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                           aclrtStream stream)
{
    if (!src)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "src is NULL");
    aclError rc = oacl_soc_require(BARRIER_FAMILIES, __func__);
    if (rc)
        return rc;
    if (size == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "size is 0");
    if (cmoType == ACL_RT_CMO_TYPE_INVALID && barrierId == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "an ACL_RT_CMO_TYPE_INVALID operation needs a non-zero barrierId");
    if (cmoType != ACL_RT_CMO_TYPE_INVALID && barrierId != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "barrierId %u: only ACL_RT_CMO_TYPE_INVALID operations take a barrier (cmoType %u)",
                         barrierId, (unsigned)cmoType);
    if ((uint32_t)cmoType > ACL_RT_CMO_TYPE_FLUSH)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cmoType %u is not an aclrtCmoType",
                         (unsigned)cmoType);
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, __func__);
    if (rc)
        return rc;
    /* The operation is over once the stream is past it, which is what a
       later barrier wait on the same stream needs: no barrier state. */
    return enqueue_cmo(s, src, size, NULL, (int)cmoType, __func__);
}

OACL_API aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo, aclrtStream stream, uint32_t flag)
{
    (void)flag; /* reserved, not checked (as CANN) */
    if (!taskInfo)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "taskInfo is NULL");
    if (taskInfo->barrierNum == 0 || taskInfo->barrierNum > ACL_RT_CMO_MAX_BARRIER_NUM)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "taskInfo->barrierNum %zu is outside 1..%u",
                         taskInfo->barrierNum, ACL_RT_CMO_MAX_BARRIER_NUM);
    aclError rc = oacl_soc_require(BARRIER_FAMILIES, __func__);
    if (rc)
        return rc;
    for (size_t i = 0; i < taskInfo->barrierNum; i++) {
        const aclrtBarrierCmoInfo *b = &taskInfo->cmoInfo[i];
        if (b->cmoType != ACL_RT_CMO_TYPE_INVALID || b->barrierId == 0)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                             "taskInfo->cmoInfo[%zu]: barriers wait for ACL_RT_CMO_TYPE_INVALID operations with a "
                             "non-zero barrierId (got cmoType %u, barrierId %u)",
                             i, (unsigned)b->cmoType, b->barrierId);
    }
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, __func__);
    if (rc)
        return rc;
    /* Earlier operations of the stream are complete when it gets here;
       barrier ids never used are not an error. */
    return enqueue_cmo(s, NULL, 0, NULL, (int)ACL_RT_CMO_TYPE_INVALID, __func__);
}

OACL_API aclError aclrtCmoGetDescSize(size_t *size)
{
    if (!size) /* checked by the runtime layer, hence 107000 */
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "size is NULL");
    aclError rc = oacl_soc_require(CMO_FAMILIES, __func__);
    if (rc)
        return rc;
    *size = desc_size();
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCmoSetDesc(void *cmoDesc, void *src, size_t size)
{
    if (!cmoDesc || !src)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s is NULL", cmoDesc ? "src" : "cmoDesc");
    if (size == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "size is 0");
    aclError rc = oacl_soc_require(CMO_FAMILIES, __func__);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    size_t n = desc_size();
    struct oacl_mem_record r;
    uintptr_t d = (uintptr_t)cmoDesc;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, d, &r) || r.kind != OACL_MEM_DEVICE)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cmoDesc %p is not device memory (aclrtMalloc)", cmoDesc);
    else if (n > r.base + r.size - d)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "the %zu-byte descriptor at cmoDesc %p runs past the end of its allocation", n, cmoDesc);
    if (rc == ACL_SUCCESS) {
        /* Built on the host, then written like a synchronous copy: after
           the work queued before on the default stream. */
        unsigned char buf[64];
        memset(buf, 0, sizeof(buf));
        struct cmo_desc *c = (struct cmo_desc *)buf;
        c->len_inner = (uint32_t)size;
        c->src = (uint64_t)(uintptr_t)src;
        oacl_backend()->queue_wait(ctx->default_stream->queue, -1);
        oacl_backend()->copy(cmoDesc, buf, n);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtCmoAsyncWithDesc(void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream, const void *reserve)
{
    if (reserve)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "reserve is %p; it must be NULL", reserve);
    aclError rc = oacl_soc_require(CMO_FAMILIES, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, __func__);
    if (rc)
        return rc;
    if (!cmoDesc || (uint32_t)cmoType > ACL_RT_CMO_TYPE_FLUSH) {
        oacl_obj_put(&s->obj);
        if (!cmoDesc)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cmoDesc is NULL");
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cmoType %u is not an aclrtCmoType",
                         (unsigned)cmoType);
    }
    /* The range is the descriptor's when the task runs; nothing reads it
       at enqueue time. */
    return enqueue_cmo(s, NULL, 0, cmoDesc, (int)cmoType, __func__);
}
