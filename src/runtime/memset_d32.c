/*
 * 32-bit fills (spec memory extras §3.8): aclrtMemsetD32 and
 * aclrtMemsetD32Async write `value` to N consecutive uint32_t elements of
 * device memory (aclrtMalloc family) or runtime host memory. The
 * asynchronous form queues device fills and does host fills during the
 * call (Decision 16). Profiles without the feature (310P, 310B, 910)
 * succeed without writing, as CANN does.
 */
#include "common/addr_registry.h"
#include "common/log.h"
#include "runtime/copy_check.h"

#define D32_FAMILIES (OACL_FAM_A2 | OACL_FAM_A3 | OACL_FAM_950)

/* The checks before a context is needed (N > 0); *device: ptr is device
 * memory rather than runtime host memory. */
static aclError check_fill(void *ptr, size_t memSize, size_t N, bool *device, const char *fn)
{
    if (!ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "ptr is NULL");
    uintptr_t a = (uintptr_t)ptr;
    if (a % 4)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "ptr %p is not 4-byte aligned", ptr);
    if (N > memSize / 4)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%zu elements need %s bytes, memSize is %zu", N,
                         N > SIZE_MAX / 4 ? "more than SIZE_MAX" : "4*N", memSize);
    struct oacl_mem_record r;
    bool found = oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r);
    if (found && r.kind == OACL_MEM_DEVICE_ALIAS)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                         "ptr %p is the device address of mapped host memory; fill it through its host address", ptr);
    if (!found) {
        /* Host memory the program pinned with aclrtHostRegister counts as
           runtime host memory (aclrtPointerGetAttributes says HOST). */
        found = oacl_registry_lookup(OACL_SPACE_HOSTREG, a, &r) && (r.flags & ACL_HOST_REG_PINNED);
        if (!found)
            return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                             "ptr %p is neither device memory nor runtime host memory (aclrtMallocHost, or pinned "
                             "with aclrtHostRegister)",
                             ptr);
    }
    if (r.readonly)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "ptr %p is read-only device memory (a constant or the code of a kernel binary)", ptr);
    if (N * 4 > r.base + r.size - a)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%zu bytes at %p run past the end of its %s allocation",
                         N * 4, ptr,
                         r.kind == OACL_MEM_DEVICE ? "device" : r.kind == OACL_MEM_MANAGED ? "managed" : "host");
    *device = r.kind == OACL_MEM_DEVICE || r.kind == OACL_MEM_MANAGED; /* managed: filled in stream order */
    return ACL_SUCCESS;
}

/* True when the profile has the feature; otherwise CANN swallows the
 * runtime's 207000 and the call succeeds without writing. */
static bool has_d32(const char *fn)
{
    if (oacl_copy_family() & D32_FAMILIES)
        return true;
    OACL_DEBUG("%s: not supported on %s; nothing written", fn, oacl_copy_soc_name());
    return false;
}

OACL_API aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N)
{
    if (N == 0)
        return ACL_SUCCESS;
    bool device = false;
    aclError rc = check_fill(ptr, memSize, N, &device, __func__);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    if (has_d32(__func__)) {
        /* As aclrtMemset: after the work queued earlier on the default
           stream (without consuming its errors). */
        oacl_backend()->queue_wait(ctx->default_stream->queue, -1);
        oacl_backend()->fill32(ptr, value, N);
    }
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream)
{
    if (N == 0)
        return ACL_SUCCESS;
    bool device = false;
    aclError rc = check_fill(ptr, memSize, N, &device, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, __func__);
    if (rc)
        return rc;
    if (!has_d32(__func__)) {
        /* nothing */
    } else if (device) {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->queue_fill32(s->queue, ptr, value, N, err);
        if (brc)
            rc = oacl_fail(brc, __func__, "%s", err);
    } else {
        oacl_backend()->fill32(ptr, value, N); /* host memory: now, not in stream order */
    }
    oacl_obj_put(&s->obj);
    return rc;
}
