/*
 * Declarations of the device-kernel chapter (spec acl-rt-device-kernel-
 * extras.md section 2): structure layouts (LP64), the prototypes of its
 * functions, enumerator and macro values. Like test_headers, nothing is
 * called; it is also built as strict ISO C11 with -Wpedantic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <acl/acl.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define HAS_TYPE(expr, type) _Generic((expr), type: 1, default: 0)
#define CHECK_PROTO(fn, type) _Static_assert(HAS_TYPE(&fn, type), "prototype of " #fn)
#define CHECK_SIZE(type, size) _Static_assert(sizeof(type) == (size), "sizeof(" #type ") must be " #size)
#define CHECK_ALIGN(type, al) _Static_assert(_Alignof(type) == (al), "_Alignof(" #type ") must be " #al)
#define CHECK_OFFSET(type, member, off) \
    _Static_assert(offsetof(type, member) == (off), "offsetof(" #type ", " #member ") must be " #off)

/* ---- layouts (the same on every ABI with 4-byte enums) ---- */
CHECK_SIZE(aclrtUuid, 16);
CHECK_SIZE(aclrtStreamAttrValue, 16);
CHECK_ALIGN(aclrtStreamAttrValue, 8);
CHECK_SIZE(aclrtBinaryLoadOptionValue, 16);
CHECK_ALIGN(aclrtBinaryLoadOptionValue, 4);
CHECK_SIZE(aclrtBinaryLoadOption, 20);
CHECK_ALIGN(aclrtBinaryLoadOption, 4);
CHECK_OFFSET(aclrtBinaryLoadOption, value, 4);
CHECK_SIZE(aclrtCntNotifyRecordInfo, 8);
CHECK_OFFSET(aclrtCntNotifyRecordInfo, value, 4);
CHECK_SIZE(aclrtCntNotifyWaitInfo, 16);
CHECK_OFFSET(aclrtCntNotifyWaitInfo, value, 4);
CHECK_OFFSET(aclrtCntNotifyWaitInfo, timeout, 8);
CHECK_OFFSET(aclrtCntNotifyWaitInfo, isClear, 12);
CHECK_OFFSET(aclrtCntNotifyWaitInfo, rsv, 13);
CHECK_SIZE(dim3, 12);
CHECK_OFFSET(dim3, y, 4);
CHECK_OFFSET(dim3, z, 8);
CHECK_SIZE(aclrtPlaceHolderInfo, 8);
CHECK_OFFSET(aclrtPlaceHolderInfo, dataOffset, 4);
#if defined(__LP64__) || defined(_LP64)
CHECK_SIZE(aclrtBinaryLoadOptions, 16);
CHECK_OFFSET(aclrtBinaryLoadOptions, numOpt, 8);
#endif
_Static_assert(sizeof(((aclrtStreamAttrValue *)0)->failureMode) == 8, "failureMode is 64-bit");
_Static_assert(sizeof(((aclrtStreamAttrValue *)0)->streamPriority) == 4, "streamPriority is 32-bit");
_Static_assert(sizeof(((aclrtBinaryLoadOptionValue *)0)->cpuKernelMode) == 4, "cpuKernelMode is 32-bit");
_Static_assert(HAS_TYPE((aclrtCntNotify)0, void *), "aclrtCntNotify");
_Static_assert(HAS_TYPE((aclrtBinary)0, void *), "aclrtBinary");

/* ---- prototypes ---- */
CHECK_PROTO(aclrtSetTsDevice, aclError (*)(aclrtTsId));
CHECK_PROTO(aclrtGetLogicDevIdByUserDevId, aclError (*)(const int32_t, int32_t *const));
CHECK_PROTO(aclrtGetUserDevIdByLogicDevId, aclError (*)(const int32_t, int32_t *const));
CHECK_PROTO(aclrtGetLogicDevIdByPhyDevId, aclError (*)(const int32_t, int32_t *const));
CHECK_PROTO(aclrtGetPhyDevIdByLogicDevId, aclError (*)(const int32_t, int32_t *const));
CHECK_PROTO(aclrtGetUserDevIdByPhyDevId, aclError (*)(const int32_t, int32_t *const));
CHECK_PROTO(aclrtGetPhyDevIdByUserDevId, aclError (*)(const int32_t, int32_t *const));
CHECK_PROTO(aclrtDeviceGetUuid, aclError (*)(int32_t, aclrtUuid *));
CHECK_PROTO(aclrtDeviceGetPCIBusId, aclError (*)(int32_t, char *, int32_t));
CHECK_PROTO(aclrtDeviceGetByPCIBusId, aclError (*)(const char *, int32_t *));
CHECK_PROTO(aclrtGetDevicesTopo, aclError (*)(uint32_t, uint32_t, uint64_t *));
CHECK_PROTO(aclrtDeviceGetHostAtomicCapabilities,
            aclError (*)(uint32_t *, const aclrtAtomicOperation *, const uint32_t, int32_t));
CHECK_PROTO(aclrtDeviceGetP2PAtomicCapabilities,
            aclError (*)(uint32_t *, const aclrtAtomicOperation *, const uint32_t, int32_t, int32_t));
CHECK_PROTO(aclrtDeviceSetLimit, aclError (*)(aclrtDeviceLimit, size_t));
CHECK_PROTO(aclrtDeviceGetLimit, aclError (*)(aclrtDeviceLimit, size_t *));
CHECK_PROTO(aclrtCtxSetSysParamOpt, aclError (*)(aclSysParamOpt, int64_t));
CHECK_PROTO(aclrtCtxGetSysParamOpt, aclError (*)(aclSysParamOpt, int64_t *));
CHECK_PROTO(aclrtSetStreamAttribute, aclError (*)(aclrtStream, aclrtStreamAttr, aclrtStreamAttrValue *));
CHECK_PROTO(aclrtGetStreamAttribute, aclError (*)(aclrtStream, aclrtStreamAttr, aclrtStreamAttrValue *));
CHECK_PROTO(aclrtGetStreamAvailableNum, aclError (*)(uint32_t *));
CHECK_PROTO(aclrtRecordEventWithFlag, aclError (*)(aclrtEvent, aclrtStream, uint32_t));
CHECK_PROTO(aclrtStreamWaitEventWithFlag, aclError (*)(aclrtStream, aclrtEvent, uint32_t, uint32_t));
CHECK_PROTO(aclrtStreamWaitEventWithTimeout, aclError (*)(aclrtStream, aclrtEvent, int32_t));
CHECK_PROTO(aclrtQueryEventWaitStatus, aclError (*)(aclrtEvent, aclrtEventWaitStatus *));
CHECK_PROTO(aclrtGetEventId, aclError (*)(aclrtEvent, uint32_t *));
CHECK_PROTO(aclrtGetEventAvailNum, aclError (*)(uint32_t *));
CHECK_PROTO(aclrtSetOpWaitTimeout, aclError (*)(uint32_t));
CHECK_PROTO(aclrtCntNotifyCreate, aclError (*)(aclrtCntNotify *, uint64_t));
CHECK_PROTO(aclrtCntNotifyDestroy, aclError (*)(aclrtCntNotify));
CHECK_PROTO(aclrtCntNotifyRecord, aclError (*)(aclrtCntNotify, aclrtStream, aclrtCntNotifyRecordInfo *));
CHECK_PROTO(aclrtCntNotifyWaitWithTimeout, aclError (*)(aclrtCntNotify, aclrtStream, aclrtCntNotifyWaitInfo *));
CHECK_PROTO(aclrtCntNotifyReset, aclError (*)(aclrtCntNotify, aclrtStream));
CHECK_PROTO(aclrtCntNotifyGetId, aclError (*)(aclrtCntNotify, uint32_t *));
CHECK_PROTO(aclrtCreateBinary, aclrtBinary (*)(const void *, size_t));
CHECK_PROTO(aclrtDestroyBinary, aclError (*)(aclrtBinary));
CHECK_PROTO(aclrtBinaryLoad, aclError (*)(const aclrtBinary, aclrtBinHandle *));
CHECK_PROTO(aclrtBinaryLoadFromData,
            aclError (*)(const void *, size_t, const aclrtBinaryLoadOptions *, aclrtBinHandle *));
CHECK_PROTO(aclrtBinaryGetFunctionByEntry, aclError (*)(aclrtBinHandle, uint64_t, aclrtFuncHandle *));
CHECK_PROTO(aclrtBinaryGetDevAddress, aclError (*)(const aclrtBinHandle, void **, size_t *));
CHECK_PROTO(aclrtBinaryGetGlobal, aclError (*)(aclrtBinHandle, const char *, void **, size_t *));
CHECK_PROTO(aclrtRegisterCpuFunc, aclError (*)(const aclrtBinHandle, const char *, const char *, aclrtFuncHandle *));
CHECK_PROTO(aclrtGetFuncBySymbol, aclError (*)(const void *, aclrtFuncHandle *));
CHECK_PROTO(aclrtFunctionGetBinary, aclError (*)(const aclrtFuncHandle, aclrtBinHandle *));
CHECK_PROTO(aclrtGetFunctionName, aclError (*)(aclrtFuncHandle, uint32_t, char *));
CHECK_PROTO(aclrtGetFunctionAttribute, aclError (*)(aclrtFuncHandle, aclrtFuncAttribute, int64_t *));
CHECK_PROTO(aclrtGetFunctionAddr, aclError (*)(aclrtFuncHandle, void **, void **));
CHECK_PROTO(aclrtGetFunctionSize, aclError (*)(aclrtFuncHandle, size_t *, size_t *));
CHECK_PROTO(aclrtFunctionGetParamCount, aclError (*)(const void *, size_t *));
CHECK_PROTO(aclrtFunctionGetParamInfo, aclError (*)(const void *, size_t, size_t *, size_t *));
CHECK_PROTO(aclrtFunctionGetAvailDynUbufPerBlock, aclError (*)(void *, uint32_t, size_t *));
CHECK_PROTO(aclrtGetHardwareSyncAddr, aclError (*)(void **));
CHECK_PROTO(aclrtKernelArgsGetMemSize, aclError (*)(aclrtFuncHandle, size_t, size_t *));
CHECK_PROTO(aclrtKernelArgsGetHandleMemSize, aclError (*)(aclrtFuncHandle, size_t *));
CHECK_PROTO(aclrtKernelArgsInitByUserMem, aclError (*)(aclrtFuncHandle, aclrtArgsHandle, void *, size_t));
CHECK_PROTO(aclrtLaunchKernelWithArgsArray,
            aclError (*)(void *, uint32_t, aclrtStream, aclrtLaunchKernelCfg *, void **));
CHECK_PROTO(aclrtLaunchSIMTKernelWithArgsArray,
            aclError (*)(void *, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg *, void **));
CHECK_PROTO(aclrtLaunchSIMTKernelWithHostArgs,
            aclError (*)(void *, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg *, void *, size_t,
                         aclrtPlaceHolderInfo *, size_t));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CHECK_PROTO(aclrtQueryEvent, aclError (*)(aclrtEvent, aclrtEventStatus *));
#pragma GCC diagnostic pop

/* ---- values ---- */
struct value {
    const char *name;
    long long got;
    long long want;
};
#define V(name, want) {#name, (long long)(name), (long long)(want)}

static const struct value g_values[] = {
    V(ACL_EVENT_RECORD_DEFAULT, 0), V(ACL_EVENT_RECORD_EXTERNAL, 1), V(ACL_EVENT_WAIT_DEFAULT, 0),
    V(ACL_EVENT_WAIT_EXTERNAL, 1),
    V(ACL_RT_DEVS_TOPOLOGY_HCCS, 0x01), V(ACL_RT_DEVS_TOPOLOGY_PIX, 0x02), V(ACL_RT_DEVS_TOPOLOGY_PIB, 0x04),
    V(ACL_RT_DEVS_TOPOLOGY_PHB, 0x08), V(ACL_RT_DEVS_TOPOLOGY_SYS, 0x10), V(ACL_RT_DEVS_TOPOLOGY_SIO, 0x20),
    V(ACL_RT_DEVS_TOPOLOGY_HCCS_SW, 0x40),
    V(ACL_RT_BINARY_MAGIC_ELF_AICORE, 0x43554245), V(ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE, 0x41415246),
    V(ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE, 0x41494343),
    V(ACL_HOST_DEVICE_CONNECT_TYPE_PCIE, 0), V(ACL_HOST_DEVICE_CONNECT_TYPE_HCCS, 1),
    V(ACL_HOST_DEVICE_CONNECT_TYPE_UB, 2),
    V(ACL_TS_ID_AICORE, 0), V(ACL_TS_ID_AIVECTOR, 1), V(ACL_TS_ID_RESERVED, 2),
    V(ACL_EVENT_STATUS_COMPLETE, 0), V(ACL_EVENT_STATUS_NOT_READY, 1), V(ACL_EVENT_STATUS_RESERVED, 2),
    V(ACL_EVENT_WAIT_STATUS_COMPLETE, 0), V(ACL_EVENT_WAIT_STATUS_NOT_READY, 1),
    V(ACL_EVENT_WAIT_STATUS_RESERVED, 0xFFFF),
    V(ACL_STREAM_ATTR_FAILURE_MODE, 1), V(ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, 2),
    V(ACL_STREAM_ATTR_USER_CUSTOM_TAG, 3), V(ACL_STREAM_ATTR_CACHE_OP_INFO, 4), V(ACL_STREAM_ATTR_PRIORITY, 5),
    V(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 0), V(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, 1),
    V(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 2), V(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 3),
    V(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 4),
    V(ACL_FUNC_ATTR_KERNEL_TYPE, 1), V(ACL_FUNC_ATTR_KERNEL_RATIO, 2), V(ACL_FUNC_ATTR_KERNEL_SCHED_MODE, 3),
    V(ACL_KERNEL_TYPE_AICORE, 0), V(ACL_KERNEL_TYPE_CUBE, 1), V(ACL_KERNEL_TYPE_VECTOR, 2),
    V(ACL_KERNEL_TYPE_MIX, 3), V(ACL_KERNEL_TYPE_AICPU, 100),
    V(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0), V(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1),
    V(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 2), V(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 4),
    V(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 0), V(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1),
    V(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 2), V(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3),
    V(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 4),
    V(ACL_RT_ATOMIC_CAPABILITY_SIGNED, 0x1), V(ACL_RT_ATOMIC_CAPABILITY_UNSIGNED, 0x2),
    V(ACL_RT_ATOMIC_CAPABILITY_REDUCATION, 0x4), V(ACL_RT_ATOMIC_CAPABILITY_REDUCTION, 0x4),
    V(ACL_RT_ATOMIC_CAPABILITY_SCALAR8, 0x8), V(ACL_RT_ATOMIC_CAPABILITY_SCALAR16, 0x10),
    V(ACL_RT_ATOMIC_CAPABILITY_SCALAR32, 0x20), V(ACL_RT_ATOMIC_CAPABILITY_SCALAR64, 0x40),
    V(ACL_RT_ATOMIC_CAPABILITY_SCALAR128, 0x80), V(ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4, 0x100),
    V(ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, 0), V(ACL_RT_ATOMIC_OPERATION_INTEGER_MIN, 1),
    V(ACL_RT_ATOMIC_OPERATION_INTEGER_MAX, 2), V(ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT, 3),
    V(ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT, 4), V(ACL_RT_ATOMIC_OPERATION_AND, 5),
    V(ACL_RT_ATOMIC_OPERATION_OR, 6), V(ACL_RT_ATOMIC_OPERATION_XOR, 7), V(ACL_RT_ATOMIC_OPERATION_EXCHANGE, 8),
    V(ACL_RT_ATOMIC_OPERATION_CAS, 9), V(ACL_RT_ATOMIC_OPERATION_FLOAT_ADD, 10),
    V(ACL_RT_ATOMIC_OPERATION_FLOAT_MIN, 11), V(ACL_RT_ATOMIC_OPERATION_FLOAT_MAX, 12),
    V(ACL_RT_ATOMIC_OPERATION_DMA_ADD, 30), V(ACL_RT_ATOMIC_OPERATION_DMA_MIN, 31),
    V(ACL_RT_ATOMIC_OPERATION_DMA_MAX, 32), V(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD, 40),
    V(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN, 41), V(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX, 42),
    V(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS, 43), V(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH, 44),
    V(ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, 1), V(ACL_RT_BINARY_LOAD_OPT_MAGIC, 2),
    V(ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE, 3),
    V(ACL_OPT_DETERMINISTIC, 0), V(ACL_OPT_ENABLE_DEBUG_KERNEL, 1), V(ACL_OPT_ENABLE_KERNEL_EARLY_START, 3),
    V(ACL_ERROR_RT_TASK_TIMEOUT, 107020), V(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, 107021),
    V(ACL_ERROR_RT_STREAM_CAPTURED, 107027), V(ACL_ERROR_RT_EVENT_CAPTURED, 107028),
    V(ACL_ERROR_RT_STREAM_NOT_CAPTURED, 107029), V(ACL_ERROR_RT_SYMBOL_NOT_FOUND, 107042),
    V(ACL_ERROR_RT_INVALID_DEVICE_FUNCTION, 107044), V(ACL_ERROR_RT_NO_EVENT_RESOURCE, 207007),
    V(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, 207009), V(ACL_ERROR_RT_AICPU_EXCEPTION, 507018),
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

/* The stream attribute union overlays its members at offset 0. */
static void test_attr_union(void **state)
{
    (void)state;
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    v.streamPriority = 7;
    assert_int_equal(v.reserve[0], 7);
    assert_int_equal(v.userCustomTag, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_attr_union),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
