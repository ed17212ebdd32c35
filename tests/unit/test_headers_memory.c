/*
 * Declarations of the memory-extras chapter (spec acl-rt-memory-extras.md
 * section 2): structure layouts (LP64), prototypes of its 61 functions,
 * enumerator and macro values, and the new header acl/acl_rt_memory_soma.h,
 * which acl/acl.h does not include. Like test_headers, nothing is called;
 * it is also built as strict ISO C11 with -Wpedantic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <acl/acl.h>

#ifdef INC_EXTERNAL_ACL_RT_MEMORY_H_
#error "acl/acl.h must not include acl/acl_rt_memory_soma.h"
#endif
#include <acl/acl_rt_memory_soma.h>
#include <acl/acl_rt_memory_soma.h> /* guarded: twice is fine */

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define HAS_TYPE(expr, type) _Generic((expr), type: 1, default: 0)
#define CHECK_PROTO(fn, type) _Static_assert(HAS_TYPE(&fn, type), "prototype of " #fn)

#if defined(__LP64__) || defined(_LP64)
#define CHECK_SIZE(type, size) _Static_assert(sizeof(type) == (size), "sizeof(" #type ") must be " #size)
#define CHECK_ALIGN(type, al) _Static_assert(_Alignof(type) == (al), "_Alignof(" #type ") must be " #al)
#define CHECK_OFFSET(type, member, off) \
    _Static_assert(offsetof(type, member) == (off), "offsetof(" #type ", " #member ") must be " #off)

CHECK_SIZE(aclrtMemPoolProps, 56);
CHECK_ALIGN(aclrtMemPoolProps, 8);
CHECK_OFFSET(aclrtMemPoolProps, allocType, 0);
CHECK_OFFSET(aclrtMemPoolProps, handleType, 4);
CHECK_OFFSET(aclrtMemPoolProps, location, 8);
CHECK_OFFSET(aclrtMemPoolProps, maxSize, 16);
CHECK_OFFSET(aclrtMemPoolProps, reserved, 24);

CHECK_SIZE(aclrtMemManagedLocation, 8);
CHECK_OFFSET(aclrtMemManagedLocation, type, 0);
CHECK_OFFSET(aclrtMemManagedLocation, id, 4);

CHECK_SIZE(aclrtMemUsageInfo, 112);
CHECK_OFFSET(aclrtMemUsageInfo, curMemSize, 32);
CHECK_OFFSET(aclrtMemUsageInfo, memPeakSize, 40);
CHECK_OFFSET(aclrtMemUsageInfo, reserved, 48);

CHECK_SIZE(aclrtBarrierCmoInfo, 8);
CHECK_OFFSET(aclrtBarrierCmoInfo, barrierId, 4);
CHECK_SIZE(aclrtBarrierTaskInfo, 56);
CHECK_OFFSET(aclrtBarrierTaskInfo, cmoInfo, 8);

CHECK_SIZE(aclrtMemcpyBatchAttr, 32);
CHECK_ALIGN(aclrtMemcpyBatchAttr, 4);
CHECK_OFFSET(aclrtMemcpyBatchAttr, srcLoc, 8);
CHECK_OFFSET(aclrtMemcpyBatchAttr, rsv, 16);

CHECK_SIZE(aclrtRandomParaInfo, 16);
CHECK_ALIGN(aclrtRandomParaInfo, 1);
CHECK_OFFSET(aclrtRandomParaInfo, valueOrAddr, 1);
CHECK_OFFSET(aclrtRandomParaInfo, size, 9);
CHECK_OFFSET(aclrtRandomParaInfo, rsv, 10);
CHECK_SIZE(aclrtDropoutBitmaskInfo, 16);
CHECK_SIZE(aclrtUniformDisInfo, 32);
CHECK_OFFSET(aclrtUniformDisInfo, max, 16);
CHECK_SIZE(aclrtNormalDisInfo, 32);
CHECK_OFFSET(aclrtNormalDisInfo, stddev, 16);
CHECK_SIZE(aclrtRandomNumFuncParaInfo, 36);
CHECK_ALIGN(aclrtRandomNumFuncParaInfo, 4);
CHECK_OFFSET(aclrtRandomNumFuncParaInfo, paramInfo, 4);
CHECK_SIZE(aclrtRandomNumTaskInfo, 104);
CHECK_ALIGN(aclrtRandomNumTaskInfo, 8);
CHECK_OFFSET(aclrtRandomNumTaskInfo, randomNumFuncParaInfo, 4);
CHECK_OFFSET(aclrtRandomNumTaskInfo, randomParaAddr, 40);
CHECK_OFFSET(aclrtRandomNumTaskInfo, randomResultAddr, 48);
CHECK_OFFSET(aclrtRandomNumTaskInfo, randomCounterAddr, 56);
CHECK_OFFSET(aclrtRandomNumTaskInfo, randomSeed, 64);
CHECK_OFFSET(aclrtRandomNumTaskInfo, randomNum, 80);
CHECK_OFFSET(aclrtRandomNumTaskInfo, rsv, 96);
#endif /* LP64 */

/* ---- callback and handle types ---- */
_Static_assert(HAS_TYPE((aclrtAllocatorAllocFunc)0, void *(*)(aclrtAllocator, size_t)), "aclrtAllocatorAllocFunc");
_Static_assert(HAS_TYPE((aclrtAllocatorFreeFunc)0, void (*)(aclrtAllocator, aclrtAllocatorBlock)),
               "aclrtAllocatorFreeFunc");
_Static_assert(HAS_TYPE((aclrtAllocatorAllocAdviseFunc)0, void *(*)(aclrtAllocator, size_t, aclrtAllocatorAddr)),
               "aclrtAllocatorAllocAdviseFunc");
_Static_assert(HAS_TYPE((aclrtAllocatorGetAddrFromBlockFunc)0, void *(*)(aclrtAllocatorBlock)),
               "aclrtAllocatorGetAddrFromBlockFunc");
_Static_assert(HAS_TYPE((aclrtMemPool)0, void *), "aclrtMemPool");

/* ---- prototypes ---- */
CHECK_PROTO(aclrtMallocCached, aclError (*)(void * *, size_t, aclrtMemMallocPolicy));
CHECK_PROTO(aclrtMallocWithCfg, aclError (*)(void * *, size_t, aclrtMemMallocPolicy, aclrtMallocConfig *));
CHECK_PROTO(aclrtMallocForTaskScheduler, aclError (*)(void * *, size_t, aclrtMemMallocPolicy, aclrtMallocConfig *));
CHECK_PROTO(aclrtMallocHostWithCfg, aclError (*)(void * *, uint64_t, aclrtMallocConfig *));
CHECK_PROTO(aclrtFreeWithDevSync, aclError (*)(void *));
CHECK_PROTO(aclrtFreeHostWithDevSync, aclError (*)(void *));
CHECK_PROTO(aclrtGetMemUsageInfo, aclError (*)(int32_t, aclrtMemUsageInfo *, size_t, size_t *));
CHECK_PROTO(aclrtCheckMemType, aclError (*)(void * *, uint32_t, uint32_t, uint32_t *, uint32_t));
CHECK_PROTO(aclrtHostMemMapCapabilities, aclError (*)(uint32_t, aclrtHacType, aclrtHostMemMapCapability *));
CHECK_PROTO(aclrtMemFlush, aclError (*)(void *, size_t));
CHECK_PROTO(aclrtMemInvalidate, aclError (*)(void *, size_t));
CHECK_PROTO(aclrtCmoAsync, aclError (*)(void *, size_t, aclrtCmoType, aclrtStream));
CHECK_PROTO(aclrtCmoAsyncWithBarrier, aclError (*)(void *, size_t, aclrtCmoType, uint32_t, aclrtStream));
CHECK_PROTO(aclrtCmoWaitBarrier, aclError (*)(aclrtBarrierTaskInfo *, aclrtStream, uint32_t));
CHECK_PROTO(aclrtCmoGetDescSize, aclError (*)(size_t *));
CHECK_PROTO(aclrtCmoSetDesc, aclError (*)(void *, void *, size_t));
CHECK_PROTO(aclrtCmoAsyncWithDesc, aclError (*)(void *, aclrtCmoType, aclrtStream, const void *));
CHECK_PROTO(aclrtMemAllocManaged, aclError (*)(void * *, uint64_t, uint32_t));
CHECK_PROTO(aclrtMemManagedAdvise, aclError (*)(const void *const, uint64_t, aclrtMemManagedAdviseType, aclrtMemManagedLocation));
CHECK_PROTO(aclrtMemManagedGetAttr, aclError (*)(aclrtMemManagedRangeAttribute, const void *, size_t, void *, size_t));
CHECK_PROTO(aclrtMemManagedGetAttrs, aclError (*)(aclrtMemManagedRangeAttribute *, size_t, const void *, size_t, void * *, size_t *));
CHECK_PROTO(aclrtMemManagedPrefetchAsync, aclError (*)(const void *, size_t, aclrtMemManagedLocation, uint32_t, aclrtStream));
CHECK_PROTO(aclrtMemManagedPrefetchBatchAsync, aclError (*)(const void * *, size_t *, size_t, aclrtMemManagedLocation *, size_t *, size_t, uint64_t, aclrtStream));
CHECK_PROTO(aclrtAllocatorCreateDesc, aclrtAllocatorDesc (*)(void));
CHECK_PROTO(aclrtAllocatorDestroyDesc, aclError (*)(aclrtAllocatorDesc));
CHECK_PROTO(aclrtAllocatorSetObjToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocator));
CHECK_PROTO(aclrtAllocatorSetAllocFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorAllocFunc));
CHECK_PROTO(aclrtAllocatorSetFreeFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorFreeFunc));
CHECK_PROTO(aclrtAllocatorSetAllocAdviseFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorAllocAdviseFunc));
CHECK_PROTO(aclrtAllocatorSetGetAddrFromBlockFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorGetAddrFromBlockFunc));
CHECK_PROTO(aclrtAllocatorRegister, aclError (*)(aclrtStream, aclrtAllocatorDesc));
CHECK_PROTO(aclrtAllocatorGetByStream, aclError (*)(aclrtStream, aclrtAllocatorDesc *, aclrtAllocator *, aclrtAllocatorAllocFunc *, aclrtAllocatorFreeFunc *, aclrtAllocatorAllocAdviseFunc *, aclrtAllocatorGetAddrFromBlockFunc *));
CHECK_PROTO(aclrtAllocatorUnregister, aclError (*)(aclrtStream));
CHECK_PROTO(aclrtMemPoolCreate, aclError (*)(aclrtMemPool *, const aclrtMemPoolProps *));
CHECK_PROTO(aclrtMemPoolDestroy, aclError (*)(const aclrtMemPool));
CHECK_PROTO(aclrtMemPoolSetAttr, aclError (*)(aclrtMemPool, aclrtMemPoolAttr, void *));
CHECK_PROTO(aclrtMemPoolGetAttr, aclError (*)(aclrtMemPool, aclrtMemPoolAttr, void *));
CHECK_PROTO(aclrtMemPoolMallocAsync, aclError (*)(void * *, size_t, aclrtMemPool, aclrtStream));
CHECK_PROTO(aclrtMemPoolFreeAsync, aclError (*)(void *, aclrtStream));
CHECK_PROTO(aclrtMemPoolTrimTo, aclError (*)(aclrtMemPool, size_t));
CHECK_PROTO(aclrtMemcpy2d, aclError (*)(void *, size_t, const void *, size_t, size_t, size_t, aclrtMemcpyKind));
CHECK_PROTO(aclrtMemcpy2dAsync, aclError (*)(void *, size_t, const void *, size_t, size_t, size_t, aclrtMemcpyKind, aclrtStream));
CHECK_PROTO(aclrtMemcpyBatch, aclError (*)(void * *, size_t *, void * *, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t, size_t *));
CHECK_PROTO(aclrtMemcpyBatchV2, aclError (*)(void * *, size_t *, void * *, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t));
CHECK_PROTO(aclrtMemcpyBatchAsync, aclError (*)(void * *, size_t *, void * *, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t, size_t *, aclrtStream));
CHECK_PROTO(aclrtMemcpyBatchAsyncV2, aclError (*)(void * *, size_t *, void * *, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t, aclrtStream));
CHECK_PROTO(aclrtGetMemcpyDescSize, aclError (*)(aclrtMemcpyKind, size_t *));
CHECK_PROTO(aclrtSetMemcpyDesc, aclError (*)(void *, aclrtMemcpyKind, void *, void *, size_t, void *));
CHECK_PROTO(aclrtMemcpyAsyncWithDesc, aclError (*)(void *, aclrtMemcpyKind, aclrtStream));
CHECK_PROTO(aclrtMemcpyAsyncWithOffset, aclError (*)(void * *, size_t, size_t, const void * *, size_t, size_t, aclrtMemcpyKind, aclrtStream));
CHECK_PROTO(aclrtMemsetD32, aclError (*)(void *, size_t, uint32_t, size_t));
CHECK_PROTO(aclrtMemsetD32Async, aclError (*)(void *, size_t, uint32_t, size_t, aclrtStream));
CHECK_PROTO(aclrtGetSymbolAddress, aclError (*)(const void *, void * *));
CHECK_PROTO(aclrtGetSymbolSize, aclError (*)(const void *, size_t *));
CHECK_PROTO(aclrtMemcpyFromSymbol, aclError (*)(void *, size_t, const void *, size_t, size_t, aclrtMemcpyKind));
CHECK_PROTO(aclrtMemcpyFromSymbolAsync, aclError (*)(void *, size_t, const void *, size_t, size_t, aclrtMemcpyKind, aclrtStream));
CHECK_PROTO(aclrtMemcpyToSymbol, aclError (*)(const void *, const void *, size_t, size_t, aclrtMemcpyKind));
CHECK_PROTO(aclrtMemcpyToSymbolAsync, aclError (*)(const void *, const void *, size_t, size_t, aclrtMemcpyKind, aclrtStream));
CHECK_PROTO(aclrtReduceAsync, aclError (*)(void *, const void *, uint64_t, aclrtReduceKind, aclDataType, aclrtStream, void *));
CHECK_PROTO(aclrtRandomNumAsync, aclError (*)(const aclrtRandomNumTaskInfo *, const aclrtStream, void *));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CHECK_PROTO(aclrtMemcpyAsyncWithCondition, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream));
#pragma GCC diagnostic pop

/* ---- values ---- */
struct value {
    const char *name;
    long long got;
    long long want;
};
#define V(name, want) {#name, (long long)(name), (long long)(want)}

static const struct value g_values[] = {
    V(ACL_RT_MEM_ATTACH_GLOBAL, 0x01),
    V(ACL_RT_MEM_TYPE_DEV, 0x2), V(ACL_RT_MEM_TYPE_DVPP, 0x8), V(ACL_RT_MEM_TYPE_RSVD, 0x10),
    V(ACL_RT_CMO_MAX_BARRIER_NUM, 6),
    V(ACL_MEM_ADVISE_SET_READ_MOSTLY, 0), V(ACL_MEM_ADVISE_UNSET_READ_MOSTLY, 1),
    V(ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, 2), V(ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, 3),
    V(ACL_MEM_ADVISE_SET_ACCESSED_BY, 4), V(ACL_MEM_ADVISE_UNSET_ACCESSED_BY, 5),
    V(ACL_MEM_LOCATIONTYPE_INVALID, 0), V(ACL_MEM_LOCATIONTYPE_DEVICE, 1), V(ACL_MEM_LOCATIONTYPE_HOST, 2),
    V(ACL_MEM_LOCATIONTYPE_HOST_NUMA, 3), V(ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT, 4),
    V(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, 1), V(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, 2),
    V(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, 3), V(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, 4),
    V(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, 5), V(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, 6),
    V(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, 7),
    V(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, 8),
    V(ACL_RT_HAC_TYPE_STARS, 0), V(ACL_RT_HAC_TYPE_AICPU, 1), V(ACL_RT_HAC_TYPE_AIC, 2), V(ACL_RT_HAC_TYPE_AIV, 3),
    V(ACL_RT_HAC_TYPE_PCIEDMA, 4), V(ACL_RT_HAC_TYPE_RDMA, 5), V(ACL_RT_HAC_TYPE_SDMA, 6),
    V(ACL_RT_HAC_TYPE_DVPP, 7), V(ACL_RT_HAC_TYPE_UDMA, 8), V(ACL_RT_HAC_TYPE_CCU, 9),
    V(ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED, 0), V(ACL_RT_HOST_MEM_MAP_SUPPORTED, 1),
    V(ACL_RT_CMO_TYPE_PREFETCH, 0), V(ACL_RT_CMO_TYPE_WRITEBACK, 1), V(ACL_RT_CMO_TYPE_INVALID, 2),
    V(ACL_RT_CMO_TYPE_FLUSH, 3),
    V(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 10), V(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, 11),
    V(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, 12), V(ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, 13),
    V(ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 0), V(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1),
    V(ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 2), V(ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, 3),
    V(ACL_MEM_ALLOCATION_TYPE_PINNED, 0), V(ACL_MEM_HANDLE_TYPE_NONE, 0), V(ACL_MEM_HANDLE_TYPE_POSIX, 2),
    V(ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, 1), V(ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 2),
    V(ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 3), V(ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 4),
    V(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, 5), V(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, 6),
    V(ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, 7), V(ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, 8),
};

static void test_values(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < ARRAY_LEN(g_values); i++) {
        if (g_values[i].got != g_values[i].want) {
            print_error("%s is %lld, must be %lld\n", g_values[i].name, g_values[i].got, g_values[i].want);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* The union of random-number parameters overlays its members. */
static void test_random_union(void **state)
{
    (void)state;
    aclrtRandomNumTaskInfo t;
    memset(&t, 0, sizeof(t));
    t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.size = 4;
    assert_int_equal(t.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev.size, 4);
    t.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation.isAddr = 1;
    assert_int_equal(t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.isAddr, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_random_union),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
