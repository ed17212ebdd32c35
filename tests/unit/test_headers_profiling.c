/*
 * Declarations of the profiling-and-tools chapter (spec
 * profiling-and-tools.md §2): acl/acl_prof.h, acl/acl_dump.h, the mstx
 * headers and the CANN log headers — structure layouts (LP64), enumerator
 * and macro values, prototypes. acl/acl.h includes none of them. Nothing
 * is called; it is also built as strict ISO C11 with -Wpedantic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <acl/acl.h>

#if defined(INC_EXTERNAL_ACL_PROF_H_) || defined(INC_EXTERNAL_ACL_DUMP_H_)
#error "acl/acl.h must not include acl/acl_prof.h or acl/acl_dump.h"
#endif
#include <acl/acl_dump.h>
#include <acl/acl_prof.h>
#include <acl/acl_prof.h> /* guarded */
#include <base/acl_log.h>
#include <base/alog_pub.h>
#include <mstx/ms_tools_ext.h>

#define HAS_TYPE(expr, type) _Generic((expr), type: 1, default: 0)
#define CHECK_PROTO(fn, type) _Static_assert(HAS_TYPE(&fn, type), "prototype of " #fn)
#define CHECK_VALUE(name, value) _Static_assert((name) == (value), #name " must be " #value)

#if defined(__LP64__) || defined(_LP64)
#define CHECK_SIZE(type, size) _Static_assert(sizeof(type) == (size), "sizeof(" #type ") must be " #size)
#define CHECK_OFFSET(type, member, off) \
    _Static_assert(offsetof(type, member) == (off), "offsetof(" #type ", " #member ") must be " #off)
CHECK_SIZE(aclprofTensor, 48);
CHECK_OFFSET(aclprofTensor, shape, 16);
CHECK_SIZE(aclprofTensorInfo, 48);
CHECK_OFFSET(aclprofTensorInfo, tensorNum, 20);
CHECK_OFFSET(aclprofTensorInfo, stream, 32);
CHECK_OFFSET(aclprofTensorInfo, tensors, 40);
CHECK_SIZE(aclprofEventAttributes, 16);
CHECK_OFFSET(aclprofEventAttributes, messageType, 4);
CHECK_OFFSET(aclprofEventAttributes, message, 8);
CHECK_SIZE(acldumpChunk, 4120);
CHECK_OFFSET(acldumpChunk, bufLen, 4096);
CHECK_OFFSET(acldumpChunk, isLastChunk, 4100);
CHECK_OFFSET(acldumpChunk, offset, 4104);
CHECK_OFFSET(acldumpChunk, flag, 4112);
CHECK_OFFSET(acldumpChunk, dataBuf, 4116);
CHECK_SIZE(acldumpTensorInfo, 456);
CHECK_OFFSET(acldumpTensorInfo, tensorAddr, 24);
CHECK_OFFSET(acldumpTensorInfo, argsOffset, 40);
CHECK_OFFSET(acldumpTensorInfo, shape, 56);
CHECK_OFFSET(acldumpTensorInfo, originShape, 256);
CHECK_SIZE(LogAttr, 64);
CHECK_SIZE(mstxMemVirtualRangeDesc_t, 24);
CHECK_SIZE(mstxMemRegionRef_t, 16);
#endif

/* acl_prof.h values */
CHECK_VALUE(ACL_PROF_ACL_API, 0x0001ULL);
CHECK_VALUE(ACL_PROF_TASK_TIME_L0, 0x0800ULL);
CHECK_VALUE(ACL_PROF_GE_API_L1, 0x01000000ULL);
CHECK_VALUE(ACL_PROF_TASK_TIME_L3, 0x8000ULL);
CHECK_VALUE(ACL_PROF_API_STATS, 0x400000000ULL);
CHECK_VALUE(ACL_PROF_AICORE_SHAPE, 0x800000000ULL);
CHECK_VALUE(ACL_PROF_MAX_OP_NAME_LEN, 257);
CHECK_VALUE(ACL_PROF_MAX_OP_TYPE_LEN, 65);
CHECK_VALUE(ACL_PROF_TENSOR_DATA_SHAPE_LEN, 8);
CHECK_VALUE(ACL_AICORE_MEMORY_ACCESS, 8);
CHECK_VALUE(ACL_AICORE_NONE, 0xFF);
CHECK_VALUE(ACL_SUBSCRIBE_OP_THREAD, 2);
CHECK_VALUE(ACL_SUBSCRIBE_NONE, 0xFF);
CHECK_VALUE(ACL_SUBSCRIBE_ATTRI_NONE, 1);
CHECK_VALUE(ACL_PROF_STORAGE_LIMIT, 1);
CHECK_VALUE(ACL_PROF_SYS_HARDWARE_MEM_FREQ, 3);
CHECK_VALUE(ACL_PROF_PATH, 16);
CHECK_VALUE(ACL_PROF_ARGS_MAX, 17);
CHECK_VALUE(ACL_PROF_EVENT_ATTR_VERSION, 1);
/* acl_dump.h values */
CHECK_VALUE(ACL_DUMP_MAX_FILE_PATH_LENGTH, 4096);
CHECK_VALUE(ACL_OP_DUMP_OP_AICORE_ARGS, 1U);
CHECK_VALUE(OVERFLOW_DUMP, 5);
CHECK_VALUE(ACL_DUMP_MAX_SHAPE_NUM, 25);
CHECK_VALUE(ACL_DUMP_TENSOR_WORKSPACE, 2);
CHECK_VALUE(ACL_DUMP_ADDR_RAW, 2);
CHECK_VALUE(ACL_DUMP_PLACEMENT_END, 2);
/* log headers */
CHECK_VALUE(DLOG_NULL, 4);
CHECK_VALUE(STDOUT_LOG_MASK, 0x10000000U);
CHECK_VALUE(MSG_LENGTH, 1024);
CHECK_VALUE(APP, 33);
CHECK_VALUE(ASCENDCL, 48);
CHECK_VALUE(ADETECT, 75);
CHECK_VALUE(INVLID_MOUDLE_ID, 76);
CHECK_VALUE(OUTPUT_TYPE_MAX, 3);
CHECK_VALUE(DLOG_ATTR_INIT_VALUE, 0xFF);
/* mstx */
CHECK_VALUE(MSTX_TOOL_MSPROF_ID, 0x1000);
CHECK_VALUE(MSTX_TOOL_MSLEAKS_ID, 0x1003);
CHECK_VALUE(MSTX_INVALID_ID, 0);
CHECK_VALUE(MSTX_API_CORE_SIZE, 5);
CHECK_VALUE(MSTX_API_CORE2_SIZE, 6);
CHECK_VALUE(MSTX_API_CORE_MEM_SIZE, 5);

CHECK_PROTO(aclprofInit, aclError (*)(const char *, size_t));
CHECK_PROTO(aclprofCreateConfig,
            aclprofConfig *(*)(uint32_t *, uint32_t, aclprofAicoreMetrics, const aclprofAicoreEvents *, uint64_t));
CHECK_PROTO(aclprofSetConfig, aclError (*)(aclprofConfigType, const char *, size_t));
CHECK_PROTO(aclprofCreateSubscribeConfig, aclprofSubscribeConfig *(*)(int8_t, aclprofAicoreMetrics, void *));
CHECK_PROTO(aclprofGetOpTypeLen, aclError (*)(const void *, size_t, uint32_t, size_t *));
CHECK_PROTO(aclprofGetModelId, size_t (*)(const void *, size_t, uint32_t));
CHECK_PROTO(aclprofGetOpFlag, aclprofSubscribeOpFlag (*)(const void *, size_t, uint32_t));
CHECK_PROTO(aclprofGetOpAttriValue, const char *(*)(const void *, size_t, uint32_t, aclprofSubscribeOpAttri));
CHECK_PROTO(aclprofGetStepTimestamp, aclError (*)(aclprofStepInfo *, aclprofStepTag, aclrtStream));
CHECK_PROTO(aclprofSetStampTraceMessage, aclError (*)(void *, const char *, uint32_t));
CHECK_PROTO(aclprofMarkEx, aclError (*)(const char *, size_t, aclrtStream));
CHECK_PROTO(aclprofRangeStart, aclError (*)(void *, uint32_t *));
CHECK_PROTO(aclprofStr2Id, uint64_t (*)(const char *));
CHECK_PROTO(aclprofRangePushEx, aclError (*)(aclprofEventAttributes *));
CHECK_PROTO(acldumpRegCallback, aclError (*)(int32_t (*const)(const acldumpChunk *, int32_t), int32_t));
CHECK_PROTO(acldumpGetPath, const char *(*)(acldumpType));
CHECK_PROTO(acldumpSaveExceptionInfo, aclError (*)(const char *, const char *, const acldumpTensorInfo *, size_t));
CHECK_PROTO(acldumpGetExceptionInfoPath, aclError (*)(char *, size_t));
CHECK_PROTO(aclopStartDumpArgs, aclError (*)(uint32_t, const char *));
CHECK_PROTO(aclmdlSetDump, aclError (*)(const char *));
CHECK_PROTO(aclAppLog, void (*)(aclLogLevel, const char *, const char *, uint32_t, const char *, ...));
CHECK_PROTO(acllogRegisterCallback,
            int32_t (*)(acllogRecordCallback, void *, uint32_t, acllogCallbackHandle *));
CHECK_PROTO(acllogVaList, void (*)(int32_t, int32_t, const char *, va_list));
CHECK_PROTO(AlogRecord, int32_t (*)(uint32_t, uint32_t, int32_t, const char *, ...));
CHECK_PROTO(mstxDomainRangeStartA, mstxRangeId (*)(mstxDomainHandle_t, const char *, aclrtStream));
CHECK_PROTO(mstxMemRegionsRegister, void (*)(mstxDomainHandle_t, mstxMemRegionsRegisterBatch_t const *));

/* The header-only mstx compiles into functions of this file; a program
 * without the tool gets no-ops (this test links the runtime, so the tool
 * is there; it only checks that they are callable). */
static void test_declarations(void **state)
{
    (void)state;
    mstxRangeId (*start)(const char *, aclrtStream) = mstxRangeStartA;
    assert_non_null(start);
    assert_null(globalDomain);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_declarations)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
