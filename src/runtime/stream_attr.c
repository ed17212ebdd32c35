/*
 * Stream attributes and counts (device-kernel chapter 4.3):
 * aclrtSetStreamAttribute, aclrtGetStreamAttribute,
 * aclrtGetStreamAvailableNum.
 *
 * The failure mode is the context's (aclrtSetStreamFailureMode); the
 * priority is the stream's own (aclrtStreamGetPriority reports it; no
 * scheduling effect); the overflow switch, the custom tag and the
 * operator-info cache switch are stored per stream for the overflow
 * machinery (reliability chapter) and the task-graph chapter. Gating per
 * product follows spec 3.6: a NULL stream means the default stream only on
 * arch 2201/3510, and never for ACL_STREAM_ATTR_PRIORITY.
 */
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

static uint32_t arch(void) { return oacl_config()->soc ? oacl_config()->soc->npu_arch : 0; }

/* Products with stream priorities, overflow switches and tags per stream. */
static bool modern(void) { return arch() == 2201 || arch() == 3510; }

/*
 * Common part of both functions, in CANN's order: the value, the handle
 * (stale: 107017, before anything else), the attribute id, the context,
 * NULL-stream rules. On success *ctx and *s hold references.
 */
static aclError attr_args(aclrtStream stream, aclrtStreamAttr attr, const aclrtStreamAttrValue *value,
                          struct oacl_context **ctx, struct oacl_stream **s, const char *fn)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "value is NULL");
    struct oacl_stream *named = NULL;
    if (stream) {
        enum oacl_htype type;
        struct oacl_obj *o = oacl_handle_get_any(stream, &type);
        if (!o || type != OACL_H_STREAM) {
            if (o)
                oacl_obj_put(o);
            return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "stream %p is not a live stream handle", stream);
        }
        named = (struct oacl_stream *)o;
    }
    aclError rc = ACL_SUCCESS;
    if ((int)attr < ACL_STREAM_ATTR_FAILURE_MODE || (int)attr > ACL_STREAM_ATTR_PRIORITY)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "stmAttrType %d is not an aclrtStreamAttr (1..5)", (int)attr);
    if (rc == ACL_SUCCESS)
        rc = oacl_ctx_current(ctx, fn);
    if (rc == ACL_SUCCESS && !named) {
        if (attr == ACL_STREAM_ATTR_PRIORITY)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "stream is NULL: ACL_STREAM_ATTR_PRIORITY needs a stream");
        else if (!modern())
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "stream is NULL (on %s it does not mean the default stream)",
                           oacl_config()->soc->name);
        if (rc)
            oacl_obj_put(&(*ctx)->obj);
    }
    if (rc) {
        if (named)
            oacl_obj_put(&named->obj);
        return rc;
    }
    if (!named) {
        named = (*ctx)->default_stream;
        oacl_obj_ref(&named->obj);
    }
    *s = named;
    return ACL_SUCCESS;
}

static aclError same_context(struct oacl_context *ctx, struct oacl_stream *s, const char *fn)
{
    if (s->ctx == ctx)
        return ACL_SUCCESS;
    return oacl_fail(ACL_ERROR_RT_STREAM_CONTEXT, fn, "the stream belongs to another context (device %d)",
                     s->ctx->dev->id);
}

static aclError priority_supported(const char *fn)
{
    if (modern())
        return ACL_SUCCESS;
    return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s (ACL_STREAM_ATTR_PRIORITY)", fn,
                     oacl_config()->soc->name);
}

static aclError set_attr(struct oacl_context *ctx, struct oacl_stream *s, aclrtStreamAttr attr,
                         const aclrtStreamAttrValue *value, const char *fn)
{
    aclError rc;
    switch (attr) {
    case ACL_STREAM_ATTR_FAILURE_MODE: {
        if ((rc = same_context(ctx, s, fn)))
            return rc;
        /* As aclrtSetStreamFailureMode: bit 0, for every stream of the context. */
        uint32_t stop = (uint32_t)(value->failureMode & ACL_STOP_ON_FAILURE);
        uint32_t cur = __atomic_load_n(&s->ctx->fail.stop_on_failure, __ATOMIC_ACQUIRE);
        if (cur && !stop)
            return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                             "the context is in ACL_STOP_ON_FAILURE mode, which cannot be switched back");
        __atomic_store_n(&s->ctx->fail.stop_on_failure, stop, __ATOMIC_RELEASE);
        return ACL_SUCCESS;
    }
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        if (value->overflowSwitch > 1)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "overflowSwitch %u is not 0 or 1", value->overflowSwitch);
        if (!modern())
            return ACL_SUCCESS; /* no effect on this product */
        if ((rc = same_context(ctx, s, fn)))
            return rc;
        __atomic_store_n(&s->overflow_switch, value->overflowSwitch, __ATOMIC_RELEASE);
        return ACL_SUCCESS;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        if (!modern())
            return ACL_SUCCESS;
        if ((rc = same_context(ctx, s, fn)))
            return rc;
        __atomic_store_n(&s->user_tag, value->userCustomTag, __ATOMIC_RELEASE);
        return ACL_SUCCESS;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
        if (value->cacheOpInfoSwitch > 1)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "cacheOpInfoSwitch %u is not 0 or 1",
                             value->cacheOpInfoSwitch);
        __atomic_store_n(&s->cache_op_info, value->cacheOpInfoSwitch, __ATOMIC_RELEASE);
        return ACL_SUCCESS;
    case ACL_STREAM_ATTR_PRIORITY: {
        if ((rc = priority_supported(fn)))
            return rc;
        int32_t p = (int32_t)value->streamPriority; /* negative as int32_t: 0 */
        __atomic_store_n(&s->priority, (uint32_t)(p < 0 ? 0 : p > 7 ? 7 : p), __ATOMIC_RELEASE);
        return ACL_SUCCESS;
    }
    }
    return ACL_ERROR_RT_PARAM_INVALID; /* not reached: checked by attr_args */
}

OACL_API aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value)
{
    struct oacl_context *ctx = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = attr_args(stream, stmAttrType, value, &ctx, &s, __func__);
    if (rc)
        return rc;
    rc = set_attr(ctx, s, stmAttrType, value, __func__);
    oacl_obj_put(&s->obj);
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value)
{
    struct oacl_context *ctx = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = attr_args(stream, stmAttrType, value, &ctx, &s, __func__);
    if (rc)
        return rc;
    switch (stmAttrType) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
        value->failureMode = __atomic_load_n(&s->ctx->fail.stop_on_failure, __ATOMIC_ACQUIRE);
        break;
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        if (!(rc = same_context(ctx, s, __func__)))
            value->overflowSwitch = modern() ? __atomic_load_n(&s->overflow_switch, __ATOMIC_ACQUIRE) : 1u;
        break;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        if (modern() && !(rc = same_context(ctx, s, __func__)))
            value->userCustomTag = __atomic_load_n(&s->user_tag, __ATOMIC_ACQUIRE);
        break; /* without the feature: success, nothing written */
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
        value->cacheOpInfoSwitch = __atomic_load_n(&s->cache_op_info, __ATOMIC_ACQUIRE);
        break;
    case ACL_STREAM_ATTR_PRIORITY:
        if (!(rc = priority_supported(__func__)))
            value->streamPriority = __atomic_load_n(&s->priority, __ATOMIC_ACQUIRE);
        break;
    }
    oacl_obj_put(&s->obj);
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtGetStreamAvailableNum(uint32_t *streamCount)
{
    if (!streamCount)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "streamCount is NULL");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_device *dev = ctx->dev;
    oacl_stream_reap(ctx, false); /* finished force-destroyed streams count no more */
    oacl_obj_put(&ctx->obj);
    uint32_t used = __atomic_load_n(&dev->streams, __ATOMIC_RELAXED);
    *streamCount = used >= OACL_MAX_STREAMS_PER_DEVICE ? 0 : OACL_MAX_STREAMS_PER_DEVICE - used;
    return ACL_SUCCESS;
}
