/*
 * aclrtReduceAsync (acl-rt-memory-extras.md §3.10): dst[i] = dst[i] OP src[i]
 * on device memory, in stream order, through the device's reduce task.
 * What each SoC profile's reduce engine supports is CANN's capability table;
 * the numerics are Decision 15 (see src/device/cpu/reduce_task.c).
 */
#include "common/log.h"
#include "device/cpu/soc_profile.h"
#include "runtime/builtin_task.h"

/* A data type the API layer accepts, with its element size (INT4: half a
   byte; no profile reduces it). */
struct reduce_type {
    aclDataType type;
    const char *name;
    uint32_t size;
};

static const struct reduce_type g_types[] = {
    {ACL_FLOAT, "ACL_FLOAT", 4},   {ACL_FLOAT16, "ACL_FLOAT16", 2}, {ACL_INT16, "ACL_INT16", 2},
    {ACL_INT4, "ACL_INT4", 1},     {ACL_INT8, "ACL_INT8", 1},       {ACL_INT32, "ACL_INT32", 4},
    {ACL_BF16, "ACL_BF16", 2},     {ACL_UINT8, "ACL_UINT8", 1},     {ACL_UINT16, "ACL_UINT16", 2},
    {ACL_UINT32, "ACL_UINT32", 4},
};

static const struct reduce_type *reduce_type(aclDataType t)
{
    for (size_t i = 0; i < sizeof(g_types) / sizeof(g_types[0]); i++)
        if (g_types[i].type == t)
            return &g_types[i];
    return NULL;
}

static const char *const g_kind_names[] = {"ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM", "ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX",
                                           "ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN", "ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL"};

/*
 * CANN's capability table by profile family (§3.10):
 *   A2, A3 (2201)   SUM MAX MIN EQUAL  INT8 INT16 INT32 FLOAT16 FLOAT BF16
 *   950 (3510)      SUM MAX MIN EQUAL  as A2 plus UINT32
 *   310B (3002)     SUM MAX MIN        INT8 INT16 INT32 FLOAT16 FLOAT
 *   310P (2002)     SUM                FLOAT FLOAT16 INT16
 *   910 (1001)      SUM                FLOAT
 * Families are told apart by architecture (the Ascend350 profiles share
 * 3510 with the 950 and get its table).
 */
static bool profile_supports(const struct oacl_soc_profile *p, aclrtReduceKind kind, aclDataType t)
{
    const bool sum = kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
    const bool a2_type = t == ACL_INT8 || t == ACL_INT16 || t == ACL_INT32 || t == ACL_FLOAT16 || t == ACL_FLOAT ||
                         t == ACL_BF16;
    switch (p->npu_arch) {
    case 2201: return a2_type;
    case 3510: return a2_type || t == ACL_UINT32;
    case 3002: return kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL && a2_type && t != ACL_BF16;
    case 2002: return sum && (t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_INT16);
    case 1001: return sum && t == ACL_FLOAT;
    default: return false;
    }
}

OACL_API aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind, aclDataType type,
                                   aclrtStream stream, void *reserve)
{
    const char *fn = __func__;
    if (!dst || !src)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", dst ? "src" : "dst");
    if (reserve)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "reserve must be NULL");
    const struct reduce_type *rt = reduce_type(type);
    if (!rt)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                         "type %d is not a data type of the reduce engine (ACL_FLOAT, ACL_FLOAT16, ACL_INT16, "
                         "ACL_INT4, ACL_INT8, ACL_INT32, ACL_BF16, ACL_UINT8, ACL_UINT16, ACL_UINT32)",
                         (int)type);
    if (count == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "count is 0");
    if ((int)kind < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || (int)kind > ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "kind %d is not an aclrtReduceKind (10..13)", (int)kind);
    if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM && count > ((uint64_t)4 << 30))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "count %llu exceeds the 4 GiB (4294967296 bytes) of a ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM",
                         (unsigned long long)count);
    const char *kind_name = g_kind_names[kind - ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM];
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    const struct oacl_soc_profile *soc = oacl_config()->soc;
    uint64_t room;
    if (!profile_supports(soc, kind, type)) {
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s with %s is not supported on %s", kind_name, rt->name,
                       soc->name);
    } else if (rt->size > 1 && ((uintptr_t)dst % rt->size || (uintptr_t)src % rt->size)) {
        const bool d = (uintptr_t)dst % rt->size != 0;
        rc = oacl_fail(ACL_ERROR_RT_ADDR_UNALIGNED, fn, "%s %p is not aligned to the %u-byte elements of %s",
                       d ? "dst" : "src", d ? dst : (void *)src, rt->size, rt->name);
    } else if ((rc = oacl_builtin_range(dst, count, "dst", true, s, &room, fn)) == ACL_SUCCESS &&
               (rc = oacl_builtin_range(src, count, "src", false, s, &room, fn)) == ACL_SUCCESS) {
        static const enum oacl_reduce_op ops[] = {OACL_REDUCE_SUM, OACL_REDUCE_MAX, OACL_REDUCE_MIN,
                                                  OACL_REDUCE_ASSIGN};
        const uint64_t n = count / rt->size;
        if (count % rt->size)
            OACL_WARN("%s: count %llu is not a multiple of the %u-byte %s elements: the last %llu bytes are left "
                      "untouched",
                      fn, (unsigned long long)count, rt->size, rt->name, (unsigned long long)(count % rt->size));
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->queue_reduce(s->queue, dst, src, n,
                                               ops[kind - ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM], type, err);
        if (brc)
            rc = oacl_fail(brc, fn, "%s", err);
    }
    oacl_obj_put(&s->obj);
    return rc;
}
