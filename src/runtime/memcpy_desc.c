/*
 * Copies whose addresses live in device memory (spec memory extras §3.7):
 * memcpy descriptors (aclrtGetMemcpyDescSize, aclrtSetMemcpyDesc,
 * aclrtMemcpyAsyncWithDesc), pointer-to-pointer copies
 * (aclrtMemcpyAsyncWithOffset), and the deprecated
 * aclrtMemcpyAsyncWithCondition. The descriptor and the address slots are
 * read when the task runs (Decision 12): a kernel or a later
 * aclrtSetMemcpyDesc may still change them, and a bad range then fails the
 * task with ACL_ERROR_RT_SYS_DMA.
 */
#include <string.h>

#include "common/addr_registry.h"
#include "runtime/copy_check.h"

#define DESC_FAMILIES (OACL_FAM_A2 | OACL_FAM_A3 | OACL_FAM_950 | OACL_FAM_310B)
#define OFFSET_FAMILIES (OACL_FAM_A2 | OACL_FAM_A3 | OACL_FAM_950 | OACL_FAM_910)

#define MAX_DESC_COUNT ((size_t)1 << 32) /* 4 GiB */
#define MAX_DATA_OFFSET ((size_t)0xFFFFFFFFFFFFull)
#define DESC_ALIGN 64u

/* CANN's layout (Ascend910B/910_93), 32 bytes; Ascend950 reports 64 bytes
 * with the rest zero. */
struct memcpy_desc {
    uint32_t resv0, resv1, resv2;
    uint32_t len;
    uint64_t src;
    uint64_t dst;
};
_Static_assert(sizeof(struct memcpy_desc) == 32, "memcpy descriptor layout");

static size_t desc_size(void) { return oacl_copy_family() == OACL_FAM_950 ? 64 : 32; }

static bool bad_kind(aclrtMemcpyKind kind) { return (int)kind < 0 || kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE; }

/* The kind check of the descriptor functions, then the profile's. */
static aclError inner_d2d_only(aclrtMemcpyKind kind, const char *fn)
{
    if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "kind %s: descriptors describe only ACL_MEMCPY_INNER_DEVICE_TO_DEVICE copies",
                         kind == ACL_MEMCPY_INTER_DEVICE_TO_DEVICE ? "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE"
                                                                   : oacl_memcpy_kind_name(kind));
    return oacl_copy_supported(DESC_FAMILIES, fn);
}

/* [p, p+len) inside one device (or managed) allocation (a writable one when `written`:
 * not the read-only memory of a kernel binary); *device (optional) its
 * device, OACL_MEM_ANY_DEVICE for a variable linked into the program. */
static bool device_memory(const void *p, size_t len, bool written, int32_t *device)
{
    struct oacl_mem_record r;
    uintptr_t a = (uintptr_t)p;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r) || (r.kind != OACL_MEM_DEVICE && r.kind != OACL_MEM_MANAGED) ||
        len > r.base + r.size - a || (written && r.readonly))
        return false;
    if (device) /* managed memory is every device's */
        *device = r.kind == OACL_MEM_MANAGED ? OACL_MEM_ANY_DEVICE : r.device;
    return true;
}

OACL_API aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize)
{
    if (!descSize)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "descSize is NULL");
    if (bad_kind(kind))
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "kind %d is not an aclrtMemcpyKind", (int)kind);
    aclError rc = inner_d2d_only(kind, __func__);
    if (rc)
        return rc;
    *descSize = desc_size();
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr, size_t count,
                                     void *config)
{
    const char *fn = __func__;
    if (!desc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "desc is NULL");
    if (bad_kind(kind))
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "kind %d is not an aclrtMemcpyKind", (int)kind);
    if (!srcAddr || !dstAddr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", srcAddr ? "dstAddr" : "srcAddr");
    if (count == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "count is 0");
    if (config)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "config is reserved and must be NULL");
    aclError rc = inner_d2d_only(kind, fn);
    if (rc)
        return rc;
    if (count > MAX_DESC_COUNT)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "count %zu exceeds 4 GiB", count);
    if ((uintptr_t)desc % DESC_ALIGN)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "desc %p is not %u-byte aligned", desc, DESC_ALIGN);
    size_t size = desc_size();
    if (!device_memory(desc, size, true, NULL))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "desc %p is not %zu bytes of writable device memory", desc,
                         size);
    int32_t sdev = -1, ddev = -1;
    bool src_ok = device_memory(srcAddr, 1, false, &sdev);
    if (!src_ok || !device_memory(dstAddr, 1, true, &ddev))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s %p is not %sdevice memory", src_ok ? "dstAddr" : "srcAddr",
                         src_ok ? dstAddr : srcAddr, src_ok ? "writable " : "");
    if (sdev != ddev && sdev != OACL_MEM_ANY_DEVICE && ddev != OACL_MEM_ANY_DEVICE)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "srcAddr is memory of device %d and dstAddr of device %d; a descriptor copies within one "
                         "device",
                         sdev, ddev);
    rc = oacl_ctx_require(fn);
    if (rc)
        return rc;
    struct memcpy_desc d = {0};
    d.len = (uint32_t)count; /* CANN's 32-bit field: exactly 4 GiB is stored as 0 */
    d.src = (uint64_t)(uintptr_t)srcAddr;
    d.dst = (uint64_t)(uintptr_t)dstAddr;
    memset(desc, 0, size);
    memcpy(desc, &d, sizeof d);
    return ACL_SUCCESS;
}

/* Queues c on stream (resolved here: context 107002, 107003, 107017). */
static aclError queue_indirect(const struct oacl_indirect_copy *c, aclrtStream stream, const char *fn)
{
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->queue_copy_indirect(s->queue, c, err);
    if (brc)
        rc = oacl_fail(brc, fn, "%s", err);
    oacl_obj_put(&s->obj);
    return rc;
}

OACL_API aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream)
{
    const char *fn = __func__;
    if (!desc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "desc is NULL");
    if (bad_kind(kind))
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "kind %d is not an aclrtMemcpyKind", (int)kind);
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "stream is NULL (this function needs an explicit stream)");
    aclError rc = inner_d2d_only(kind, fn);
    if (rc)
        return rc;
    if (!device_memory(desc, sizeof(struct memcpy_desc), false, NULL))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "desc %p is not %zu bytes of device memory", desc,
                         sizeof(struct memcpy_desc));
    const unsigned char *d = desc;
    const struct oacl_indirect_copy c = {
        .dst_slot = d + offsetof(struct memcpy_desc, dst),
        .src_slot = d + offsetof(struct memcpy_desc, src),
        .len_slot = d + offsetof(struct memcpy_desc, len),
    };
    return queue_indirect(&c, stream, fn);
}

OACL_API aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset, const void **src,
                                             size_t count, size_t srcDataOffset, aclrtMemcpyKind kind,
                                             aclrtStream stream)
{
    const char *fn = __func__;
    if (count == 0)
        return ACL_SUCCESS;
    if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "kind %d is not ACL_MEMCPY_INNER_DEVICE_TO_DEVICE",
                         (int)kind);
    aclError rc = oacl_copy_supported(OFFSET_FAMILIES, fn);
    if (rc)
        return rc;
    if (!dst || !src)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s is NULL", dst ? "src" : "dst");
    if (count > destMax)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "count %zu exceeds destMax %zu", count, destMax);
    if (count > MAX_DESC_COUNT)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "count %zu exceeds 4 GiB", count);
    if (dstDataOffset > MAX_DATA_OFFSET || srcDataOffset > MAX_DATA_OFFSET)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s %zu exceeds 48 bits",
                         dstDataOffset > MAX_DATA_OFFSET ? "dstDataOffset" : "srcDataOffset",
                         dstDataOffset > MAX_DATA_OFFSET ? dstDataOffset : srcDataOffset);
    if (dstDataOffset >= destMax)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "dstDataOffset %zu is not below destMax %zu", dstDataOffset,
                         destMax);
    if (count > destMax - dstDataOffset)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "count %zu at dstDataOffset %zu runs past destMax %zu", count, dstDataOffset, destMax);
    bool dst_ok = device_memory(dst, 8, false, NULL);
    if (!dst_ok || !device_memory(src, 8, false, NULL))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s %p is not an 8-byte address slot in device memory",
                         dst_ok ? "src" : "dst", dst_ok ? (const void *)src : (const void *)dst);
    const struct oacl_indirect_copy c = {
        .dst_slot = dst,
        .dst_offset = dstDataOffset,
        .src_slot = src,
        .src_offset = srcDataOffset,
        .len = count,
    };
    return queue_indirect(&c, stream, fn);
}

/* Deprecated: exactly aclrtMemcpyAsync, which now makes copies from pageable
 * memory complete before returning by itself. Defining the function does
 * not trigger the deprecation warning; nothing in oacl calls it. */
OACL_API aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src, size_t count,
                                                aclrtMemcpyKind kind, aclrtStream stream)
{
    return oacl_memcpy_async(dst, destMax, src, count, kind, stream, __func__);
}
