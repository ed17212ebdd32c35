/*
 * Declarations of the miscellaneous-functions chapter (spec acl-rt-misc.md
 * section 2, without the dump functions of 3.3): types and enumerator
 * values, the callback typedefs, and the prototypes of its data-buffer,
 * init/finalize-callback, mbuf, group, stream-limit, system-parameter and
 * CANN-version functions. Like test_headers, nothing is called; it is also
 * built as strict ISO C11 with -Wpedantic.
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

/* ---- types ---- */
_Static_assert(HAS_TYPE((aclrtMbuf)0, void *), "aclrtMbuf is void *");
_Static_assert(HAS_TYPE((aclDataBuffer *)0, struct aclDataBuffer *), "aclDataBuffer is struct aclDataBuffer");
_Static_assert(HAS_TYPE((aclrtGroupInfo *)0, struct tagRtGroupInfo *), "aclrtGroupInfo is struct tagRtGroupInfo");
_Static_assert(HAS_TYPE((aclInitCallbackFunc)0, aclError (*)(const char *, size_t, void *)), "aclInitCallbackFunc");
_Static_assert(HAS_TYPE((aclFinalizeCallbackFunc)0, aclError (*)(void *)), "aclFinalizeCallbackFunc");
_Static_assert(sizeof(aclRegisterCallbackType) == sizeof(int), "aclRegisterCallbackType is int-sized");
_Static_assert(sizeof(aclrtGroupAttr) == sizeof(int), "aclrtGroupAttr is int-sized");
_Static_assert(sizeof(aclSysParamOpt) == sizeof(int), "aclSysParamOpt is int-sized");
_Static_assert(sizeof(aclrtDevResLimitType) == sizeof(int), "aclrtDevResLimitType is int-sized");
_Static_assert(sizeof(aclCANNPackageName) == sizeof(int), "aclCANNPackageName is int-sized");
/* The tagged enumeration names exist too (enum aclRegisterCallbackType ...). */
_Static_assert(sizeof(enum aclRegisterCallbackType) == sizeof(int), "enum aclRegisterCallbackType");
_Static_assert(sizeof(enum aclrtGroupAttr) == sizeof(int), "enum aclrtGroupAttr");

#define CHECK_SIZE(type, size) _Static_assert(sizeof(type) == (size), "sizeof(" #type ") must be " #size)
#define CHECK_OFFSET(type, member, off) \
    _Static_assert(offsetof(type, member) == (off), "offsetof(" #type ", " #member ") must be " #off)
CHECK_SIZE(aclCANNPackageVersion, 512);
CHECK_OFFSET(aclCANNPackageVersion, version, 0);
CHECK_OFFSET(aclCANNPackageVersion, majorVersion, 128);
CHECK_OFFSET(aclCANNPackageVersion, minorVersion, 192);
CHECK_OFFSET(aclCANNPackageVersion, releaseVersion, 256);
CHECK_OFFSET(aclCANNPackageVersion, patchVersion, 320);
CHECK_OFFSET(aclCANNPackageVersion, reserved, 384);

/* ---- prototypes ---- */
/* 3.1 data buffers (acl_base_rt.h) */
CHECK_PROTO(aclCreateDataBuffer, aclDataBuffer *(*)(void *, size_t));
CHECK_PROTO(aclDestroyDataBuffer, aclError (*)(const aclDataBuffer *));
CHECK_PROTO(aclGetDataBufferAddr, void *(*)(const aclDataBuffer *));
CHECK_PROTO(aclGetDataBufferSizeV2, size_t (*)(const aclDataBuffer *));
CHECK_PROTO(aclUpdateDataBuffer, aclError (*)(aclDataBuffer *, void *, size_t));
/* 3.2 init/finalize callbacks */
CHECK_PROTO(aclInitCallbackRegister, aclError (*)(aclRegisterCallbackType, aclInitCallbackFunc, void *));
CHECK_PROTO(aclInitCallbackUnRegister, aclError (*)(aclRegisterCallbackType, aclInitCallbackFunc));
CHECK_PROTO(aclFinalizeCallbackRegister, aclError (*)(aclRegisterCallbackType, aclFinalizeCallbackFunc, void *));
CHECK_PROTO(aclFinalizeCallbackUnRegister, aclError (*)(aclRegisterCallbackType, aclFinalizeCallbackFunc));
/* 3.4 mbufs */
CHECK_PROTO(aclrtAllocBuf, aclError (*)(aclrtMbuf *, size_t));
CHECK_PROTO(aclrtFreeBuf, aclError (*)(aclrtMbuf));
CHECK_PROTO(aclrtGetBufData, aclError (*)(const aclrtMbuf, void **, size_t *));
CHECK_PROTO(aclrtGetBufDataLen, aclError (*)(aclrtMbuf, size_t *));
CHECK_PROTO(aclrtSetBufDataLen, aclError (*)(aclrtMbuf, size_t));
CHECK_PROTO(aclrtGetBufUserData, aclError (*)(const aclrtMbuf, void *, size_t, size_t));
CHECK_PROTO(aclrtSetBufUserData, aclError (*)(aclrtMbuf, const void *, size_t, size_t));
CHECK_PROTO(aclrtCopyBufRef, aclError (*)(const aclrtMbuf, aclrtMbuf *));
CHECK_PROTO(aclrtAppendBufChain, aclError (*)(aclrtMbuf, aclrtMbuf));
CHECK_PROTO(aclrtGetBufFromChain, aclError (*)(aclrtMbuf, uint32_t, aclrtMbuf *));
CHECK_PROTO(aclrtGetBufChainNum, aclError (*)(aclrtMbuf, uint32_t *));
/* 3.5 groups */
CHECK_PROTO(aclrtSetGroup, aclError (*)(int32_t));
CHECK_PROTO(aclrtGetGroupCount, aclError (*)(uint32_t *));
CHECK_PROTO(aclrtCreateGroupInfo, aclrtGroupInfo *(*)(void));
CHECK_PROTO(aclrtDestroyGroupInfo, aclError (*)(aclrtGroupInfo *));
CHECK_PROTO(aclrtGetAllGroupInfo, aclError (*)(aclrtGroupInfo *));
CHECK_PROTO(aclrtGetGroupInfoDetail,
            aclError (*)(const aclrtGroupInfo *, int32_t, aclrtGroupAttr, void *, size_t, size_t *));
/* 3.6 stream resource limits */
CHECK_PROTO(aclrtSetStreamResLimit, aclError (*)(aclrtStream, aclrtDevResLimitType, uint32_t));
CHECK_PROTO(aclrtGetStreamResLimit, aclError (*)(aclrtStream, aclrtDevResLimitType, uint32_t *));
CHECK_PROTO(aclrtResetStreamResLimit, aclError (*)(aclrtStream));
CHECK_PROTO(aclrtUseStreamResInCurrentThread, aclError (*)(aclrtStream));
CHECK_PROTO(aclrtUnuseStreamResInCurrentThread, aclError (*)(aclrtStream));
/* 3.7 system parameters */
CHECK_PROTO(aclrtSetSysParamOpt, aclError (*)(aclSysParamOpt, int64_t));
CHECK_PROTO(aclrtGetSysParamOpt, aclError (*)(aclSysParamOpt, int64_t *));
/* deprecated ones (3.1 size, 3.8 version) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CHECK_PROTO(aclGetDataBufferSize, uint32_t (*)(const aclDataBuffer *));
CHECK_PROTO(aclsysGetCANNVersion, aclError (*)(aclCANNPackageName, aclCANNPackageVersion *));
#pragma GCC diagnostic pop

/* ---- values ---- */
struct value {
    const char *name;
    long long got;
    long long want;
};
#define V(name, want) {#name, (long long)(name), (long long)(want)}

static const struct value g_values[] = {
    V(ACL_REG_TYPE_ACL_MODEL, 0), V(ACL_REG_TYPE_ACL_OP_EXECUTOR, 1), V(ACL_REG_TYPE_ACL_OP_CBLAS, 2),
    V(ACL_REG_TYPE_ACL_OP_COMPILER, 3), V(ACL_REG_TYPE_ACL_TDT_CHANNEL, 4), V(ACL_REG_TYPE_ACL_TDT_QUEUE, 5),
    V(ACL_REG_TYPE_ACL_DVPP, 6), V(ACL_REG_TYPE_ACL_RETR, 7), V(ACL_REG_TYPE_OTHER, 0xFFFF),
    V(ACL_GROUP_AICORE_INT, 0), V(ACL_GROUP_AIV_INT, 1), V(ACL_GROUP_AIC_INT, 2), V(ACL_GROUP_SDMANUM_INT, 3),
    V(ACL_GROUP_ASQNUM_INT, 4), V(ACL_GROUP_GROUPID_INT, 5),
    V(ACL_RT_DEV_RES_CUBE_CORE, 0), V(ACL_RT_DEV_RES_VECTOR_CORE, 1),
    V(ACL_OPT_DETERMINISTIC, 0), V(ACL_OPT_ENABLE_DEBUG_KERNEL, 1), V(ACL_OPT_ENABLE_KERNEL_EARLY_START, 3),
    V(ACL_PKG_VERSION_MAX_SIZE, 128), V(ACL_PKG_VERSION_PARTS_MAX_SIZE, 64),
    V(ACL_PKG_NAME_CANN, 0), V(ACL_PKG_NAME_RUNTIME, 1), V(ACL_PKG_NAME_COMPILER, 2), V(ACL_PKG_NAME_HCCL, 3),
    V(ACL_PKG_NAME_TOOLKIT, 4), V(ACL_PKG_NAME_OPP, 5), V(ACL_PKG_NAME_OPP_KERNEL, 6), V(ACL_PKG_NAME_DRIVER, 7),
    /* codes this chapter returns */
    V(ACL_ERROR_RT_GROUP_NOT_SET, 107013), V(ACL_ERROR_RT_GROUP_NOT_CREATE, 107014),
    V(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000), V(ACL_ERROR_RT_MEMORY_ALLOCATION, 207001),
    V(ACL_ERROR_INTERNAL_ERROR, 500000), V(ACL_ERROR_FAILURE, 500001),
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

/* The deprecated enumerator keeps its value (its use is flagged: see
 * tests/headers/deprecated_use.c). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void test_deprecated_values(void **state)
{
    (void)state;
    assert_int_equal(ACL_OPT_STRONG_CONSISTENCY, 2);
}
#pragma GCC diagnostic pop

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_deprecated_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
