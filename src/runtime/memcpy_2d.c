/*
 * 2-D copies (spec memory extras §3.7): aclrtMemcpy2d (synchronous,
 * host<->device only) and aclrtMemcpy2dAsync (also device<->device on
 * A2/A3/950). height rows of width bytes; the pitches are the distances
 * between row starts, and the bytes between width and a pitch are never
 * touched.
 */
#include "runtime/copy_check.h"

#define MAX_2D_HEIGHT ((size_t)5 << 20) /* 5242880 rows */
#define MAX_2D_WIDTH ((size_t)5000000)

/* Profiles whose asynchronous 2-D copies may go device to device. */
#define ASYNC_D2D_FAMILIES (OACL_FAM_A2 | OACL_FAM_A3 | OACL_FAM_950)

/* The checks made before a context is needed, in CANN's order. */
static aclError check_args(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                           aclrtMemcpyKind kind, bool async, const char *fn)
{
    if (!dst || !src)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", dst ? "src" : "dst");
    if (width > spitch)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "width %zu exceeds spitch %zu", width, spitch);
    if (width > dpitch)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "width %zu exceeds dpitch %zu", width, dpitch);
    if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEVICE_TO_DEVICE &&
        kind != ACL_MEMCPY_DEFAULT)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                         "kind %d is not ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST, "
                         "ACL_MEMCPY_DEVICE_TO_DEVICE or ACL_MEMCPY_DEFAULT",
                         (int)kind);
    if (height > MAX_2D_HEIGHT)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "height %zu exceeds the limit of %zu rows", height,
                         MAX_2D_HEIGHT);
    if (width > MAX_2D_WIDTH)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "width %zu exceeds the limit of %zu bytes", width,
                         MAX_2D_WIDTH);
    if (!async && kind == ACL_MEMCPY_DEVICE_TO_DEVICE)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "synchronous 2-D ACL_MEMCPY_DEVICE_TO_DEVICE copies are not supported (use "
                         "aclrtMemcpy2dAsync)");
    return ACL_SUCCESS;
}

/* Bytes from the first row's start to the last row's end; false when that
 * does not fit the address space. */
static bool extent(size_t pitch, size_t width, size_t height, size_t *out)
{
    if (height - 1 > (SIZE_MAX - width) / pitch)
        return false;
    *out = (height - 1) * pitch + width;
    return true;
}

static const char *class_name(enum oacl_mem_class c)
{
    return c == OACL_CLASS_DEVICE ? "device" : c == OACL_CLASS_MANAGED ? "managed" : "host";
}

/* Classifies both matrices and checks the direction they give against kind
 * (after the context check). */
static aclError check_operands(const struct oacl_copy_2d *c, aclrtMemcpyKind kind, bool async,
                               const struct oacl_context *ctx, struct oacl_copy_sides *sides, const char *fn)
{
    size_t dlen, slen;
    if (!extent(c->dpitch, c->width, c->height, &dlen) || (uintptr_t)c->dst > UINTPTR_MAX - dlen)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%zu rows of dpitch %zu at dst %p overflow the address space",
                         c->height, c->dpitch, c->dst);
    if (!extent(c->spitch, c->width, c->height, &slen) || (uintptr_t)c->src > UINTPTR_MAX - slen)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%zu rows of spitch %zu at src %p overflow the address space",
                         c->height, c->spitch, c->src);
    enum oacl_mem_class dc, sc;
    bool dpin, spin;
    aclError rc = oacl_copy_classify(c->dst, dlen, "dst", &dc, &dpin, &sides->dst_dev, fn);
    if (rc)
        return rc;
    rc = oacl_copy_classify(c->src, slen, "src", &sc, &spin, &sides->src_dev, fn);
    if (rc)
        return rc;
    sides->pageable = (sc == OACL_CLASS_HOST && !spin) || (dc == OACL_CLASS_HOST && !dpin);
    if (kind != ACL_MEMCPY_DEFAULT) {
        bool want_src_dev = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
        bool want_dst_dev = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
        /* Managed memory fits either side of every direction. */
        if ((sc != OACL_CLASS_MANAGED && (sc == OACL_CLASS_DEVICE) != want_src_dev) ||
            (dc != OACL_CLASS_MANAGED && (dc == OACL_CLASS_DEVICE) != want_dst_dev))
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s, but src is %s memory and dst is %s memory",
                             oacl_memcpy_kind_name(kind), class_name(sc), class_name(dc));
    }
    if (sc == OACL_CLASS_HOST && dc == OACL_CLASS_HOST)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "src and dst are both host memory: a 2-D copy goes between host and device");
    if (sc == OACL_CLASS_DEVICE && dc == OACL_CLASS_DEVICE) {
        if (!async)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "src and dst are both device memory: aclrtMemcpy2d copies only between host and device "
                             "(use aclrtMemcpy2dAsync)");
        if (!(oacl_copy_family() & ASYNC_D2D_FAMILIES))
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "src and dst are both device memory: 2-D device-to-device copies are not supported on %s",
                             oacl_copy_soc_name());
    }
    return oacl_copy_check_reach(ctx, sides, fn);
}

OACL_API aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                aclrtMemcpyKind kind)
{
    if (width == 0 || height == 0)
        return ACL_SUCCESS;
    aclError rc = check_args(dst, dpitch, src, spitch, width, height, kind, false, __func__);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    const struct oacl_copy_2d c = {dst, dpitch, src, spitch, width, height};
    struct oacl_copy_sides sides;
    rc = check_operands(&c, kind, false, ctx, &sides, __func__);
    if (rc == ACL_SUCCESS)
        rc = oacl_ri_unsafe_check(ctx, __func__); /* capture modes (107030) */
    if (rc == ACL_SUCCESS) {
        /* As aclrtMemcpy: sees the work queued earlier on the default
           stream (without consuming its errors), then copies here. */
        oacl_backend()->queue_wait(ctx->default_stream->queue, -1);
        oacl_backend()->copy_2d(&c);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                     size_t height, aclrtMemcpyKind kind, aclrtStream stream)
{
    if (width == 0 || height == 0)
        return ACL_SUCCESS;
    aclError rc = check_args(dst, dpitch, src, spitch, width, height, kind, true, __func__);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    const struct oacl_copy_2d c = {dst, dpitch, src, spitch, width, height};
    struct oacl_copy_sides sides;
    rc = check_operands(&c, kind, true, ctx, &sides, __func__);
    struct oacl_stream *s = NULL;
    if (rc == ACL_SUCCESS)
        rc = oacl_stream_resolve(ctx, stream, OACL_STREAM_ENQUEUE, &s, __func__);
    oacl_obj_put(&ctx->obj);
    if (rc)
        return rc;
    if (sides.pageable) {
        /* The pageable rule of aclrtMemcpyAsync: the host memory may be
           reused once the call returns, so copy when the stream gets here. */
        oacl_backend()->queue_wait(s->queue, -1);
        oacl_backend()->copy_2d(&c);
    } else {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->queue_copy_2d(s->queue, &c, err);
        if (brc)
            rc = oacl_fail(brc, __func__, "%s", err);
    }
    oacl_obj_put(&s->obj);
    return rc;
}
