/*
 * Stream memory operations: aclrtValueWrite stores a 64-bit value in
 * device memory in stream order; aclrtValueWait holds a stream until the
 * 64-bit value at a device address satisfies a condition. The address must
 * be 8-byte aligned device memory of the stream's device: memory from
 * aclrtMalloc, or the device address of mapped host memory (so the host
 * program can release a waiting stream by storing to the host address).
 */
#include "common/addr_registry.h"
#include "runtime/runtime.h"

static aclError check_word(void *devAddr, const struct oacl_stream *s, const char *fn)
{
    uintptr_t a = (uintptr_t)devAddr;
    if (a % 8)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "devAddr %p is not 8-byte aligned", devAddr);
    struct oacl_mem_record r;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r) ||
        (r.kind != OACL_MEM_DEVICE && r.kind != OACL_MEM_DEVICE_ALIAS))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "devAddr %p is not device memory (aclrtMalloc, or the device address of mapped host memory)",
                         devAddr);
    if (8 > r.base + r.size - a)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the 8 bytes at devAddr %p run past the end of its allocation",
                         devAddr);
    if (r.device != s->ctx->dev->id)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "devAddr %p belongs to device %d, the stream to device %d",
                         devAddr, r.device, s->ctx->dev->id);
    return ACL_SUCCESS;
}

/* Checks the arguments and queues the write (is_wait false) or wait. */
static aclError memop(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream, bool is_wait, const char *fn)
{
    if (!devAddr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "devAddr is NULL");
    if (is_wait && flag > ACL_STREAM_WAIT_VALUE_NOR)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flag %u is not an ACL_STREAM_WAIT_VALUE_* condition", flag);
    if (!is_wait && flag != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flag %u is reserved and must be 0", flag);
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    rc = check_word(devAddr, s, fn);
    if (rc == ACL_SUCCESS) {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = is_wait ? oacl_backend()->queue_value_wait(s->queue, devAddr, value, flag, err)
                          : oacl_backend()->queue_value_write(s->queue, devAddr, value, err);
        if (brc)
            rc = oacl_fail(brc, fn, "%s", err);
        else if (__builtin_expect(s->ri_capture != NULL, 0))
            oacl_ri_note(s, &(struct oacl_ri_note){.addr = devAddr, .value = value, .flag = flag});
    }
    oacl_obj_put(&s->obj);
    return rc;
}

OACL_API aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    OACL_PROF_API(NULL);
    return memop(devAddr, value, flag, stream, false, __func__);
}

OACL_API aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    OACL_PROF_API(NULL);
    return memop(devAddr, value, flag, stream, true, __func__);
}
