/*
 * Stream resource limits (aclrtSetStreamResLimit and friends): a stream may
 * carry its own cube-core and vector-core limits, and a thread *uses* a
 * stream's limits after aclrtUseStreamResInCurrentThread. The limit in
 * force for a thread is, per type: its bound stream's limit if set, else
 * the device limit (aclrtSetDeviceResLimit), else every core of the kind.
 *
 * Effect on the simulator: when a kernel launch is enqueued, the launching
 * thread's vector-core limit (0 counts as 1) bounds how many of its blocks
 * run at once, further bounded by the device's compute group (groups.c).
 * The limits act through the launching thread, not through the stream the
 * kernel goes to, because CANN binds them to threads ("in the current
 * thread"). The cube limit is stored and reported only (no kernel here
 * occupies a cube core), as for the device limit.
 *
 * A binding is the stream's handle, validated at each use: a destroyed
 * stream's handle never resolves again, so its binding simply stops
 * counting. A non-NULL stream argument needs no current context and may
 * belong to any context or device.
 */
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

static __thread void *t_bound; /* stream handle of aclrtUseStreamResInCurrentThread */

/* The stream an argument names (+1 reference) and its handle (optional):
 * NULL is the default stream of the current context (none: 107002);
 * anything but a live stream handle is 107017. */
static aclError limit_stream_h(aclrtStream stream, struct oacl_stream **out, void **handle, const char *fn)
{
    if (!stream) {
        struct oacl_context *ctx = NULL;
        aclError rc = oacl_ctx_current(&ctx, fn);
        if (rc)
            return rc;
        struct oacl_stream *s = ctx->default_stream;
        oacl_obj_ref(&s->obj);
        if (handle)
            *handle = ctx->default_stream_handle;
        oacl_obj_put(&ctx->obj);
        *out = s;
        return ACL_SUCCESS;
    }
    enum oacl_htype type;
    struct oacl_obj *o = oacl_handle_get_any(stream, &type);
    if (!o || type != OACL_H_STREAM) {
        if (o)
            oacl_obj_put(o);
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "stream %p is not a live stream handle%s", stream,
                         o ? " (it is a handle of another kind)" : "");
    }
    *out = (struct oacl_stream *)o;
    if (handle)
        *handle = stream;
    return ACL_SUCCESS;
}

static aclError limit_stream(aclrtStream stream, struct oacl_stream **out, const char *fn)
{
    return limit_stream_h(stream, out, NULL, fn);
}

/* Resolves stream, then checks type (after the handle, as CANN does). */
static aclError limit_args(aclrtStream stream, int type, uint32_t *cores, struct oacl_stream **out, const char *fn)
{
    aclError rc = limit_stream(stream, out, fn);
    if (rc)
        return rc;
    if (!oacl_res_cores(type, cores)) {
        oacl_obj_put(&(*out)->obj);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "type %d is not CUBE_CORE (0) or VECTOR_CORE (1)", type);
    }
    return ACL_SUCCESS;
}

static const char *type_name(int type) { return type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector"; }

/* s's own limit of type, if set. */
static bool stream_limit(const struct oacl_stream *s, int type, uint32_t *value)
{
    if (!(__atomic_load_n(&s->res_set, __ATOMIC_ACQUIRE) & (1u << type)))
        return false;
    *value = __atomic_load_n(&s->res_limit[type], __ATOMIC_ACQUIRE);
    return true;
}

/* The calling thread's bound stream (+1 reference), or NULL. */
static struct oacl_stream *bound_stream(void)
{
    void *h = t_bound;
    if (!h)
        return NULL;
    struct oacl_obj *o = oacl_handle_get(h, OACL_H_STREAM);
    if (!o)
        t_bound = NULL; /* destroyed: unbound from now on */
    return (struct oacl_stream *)o;
}

uint32_t oacl_thread_res_limit(const struct oacl_device *dev, int type)
{
    uint32_t v = 0;
    struct oacl_stream *s = bound_stream();
    bool own = s && stream_limit(s, type, &v);
    if (s)
        oacl_obj_put(&s->obj);
    return own ? v : oacl_device_res_effective(dev, type);
}

uint32_t oacl_launch_core_limit(const struct oacl_device *dev)
{
    uint32_t cap = oacl_device_core_limit(dev); /* 0: no device limit */
    struct oacl_stream *s = bound_stream();
    if (s) {
        uint32_t v;
        if (stream_limit(s, ACL_RT_DEV_RES_VECTOR_CORE, &v))
            cap = v ? v : 1; /* a 0 limit (accepted, as in CANN) runs one block at a time */
        oacl_obj_put(&s->obj);
    }
    uint32_t g = oacl_group_core_limit(dev);
    if (g && (!cap || g < cap))
        cap = g;
    return cap;
}

OACL_API aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value)
{
    struct oacl_stream *s = NULL;
    uint32_t cores = 0;
    aclError rc = limit_args(stream, (int)type, &cores, &s, __func__);
    if (rc)
        return rc;
    /* Up to the hardware count, not the current device limit. */
    if (value > cores) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s core limit %u is outside 0..%u (the %s's %s cores)",
                       type_name((int)type), value, cores, oacl_config()->soc->name, type_name((int)type));
    } else {
        __atomic_store_n(&s->res_limit[type], value, __ATOMIC_RELEASE);
        __atomic_or_fetch(&s->res_set, 1u << type, __ATOMIC_ACQ_REL);
    }
    oacl_obj_put(&s->obj);
    return rc;
}

OACL_API aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    struct oacl_stream *s = NULL;
    uint32_t cores = 0;
    aclError rc = limit_args(stream, (int)type, &cores, &s, __func__);
    if (rc)
        return rc;
    uint32_t v;
    if (!stream_limit(s, (int)type, &v))
        v = oacl_device_res_effective(s->ctx->dev, (int)type);
    *value = v;
    oacl_obj_put(&s->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtResetStreamResLimit(aclrtStream stream)
{
    struct oacl_stream *s = NULL;
    aclError rc = limit_stream(stream, &s, __func__);
    if (rc)
        return rc;
    __atomic_store_n(&s->res_set, 0, __ATOMIC_RELEASE);
    oacl_obj_put(&s->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtUseStreamResInCurrentThread(aclrtStream stream)
{
    struct oacl_stream *s = NULL;
    void *h = NULL;
    aclError rc = limit_stream_h(stream, &s, &h, __func__);
    if (rc)
        return rc;
    t_bound = h;
    oacl_obj_put(&s->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream)
{
    struct oacl_stream *s = NULL;
    void *h = NULL;
    aclError rc = limit_stream_h(stream, &s, &h, __func__);
    if (rc)
        return rc;
    /* Bound to another stream or to none: nothing to do, still success. */
    if (t_bound == h)
        t_bound = NULL;
    oacl_obj_put(&s->obj);
    return ACL_SUCCESS;
}
