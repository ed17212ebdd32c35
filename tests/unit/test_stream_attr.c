/*
 * Context system parameters, stream attributes and counts, and the
 * hardware synchronisation area (device-kernel chapter 4.2, 4.3, 4.7):
 * aclrtCtxSetSysParamOpt / GetSysParamOpt, aclrtSetStreamAttribute /
 * GetStreamAttribute, aclrtGetStreamAvailableNum, aclrtGetHardwareSyncAddr.
 * Other SoC profiles run in child processes.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

/* ---- context system parameters ---------------------------------------------------------------- */

static void test_ctx_sysparam(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    int64_t v = -5;
    ACL_ERR(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "never set");
    assert_int_equal(v, -5);
    ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3));
    ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
    assert_int_equal(v, 3);
    /* The process-level value follows (aclrtGetSysParamOpt, misc chapter) when that function exists. */
    aclError (*get_process)(aclSysParamOpt, int64_t *) =
        (aclError(*)(aclSysParamOpt, int64_t *))dlsym(RTLD_DEFAULT, "aclrtGetSysParamOpt");
    if (get_process) {
        int64_t p = -1;
        ACL_OK(get_process(ACL_OPT_DETERMINISTIC, &p));
        assert_int_equal(p, 3);
    }
    ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
    ACL_ERR(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID, "outside 0..3");
    ACL_ERR(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID, "outside 0..1");
    ACL_ERR(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, -1), ACL_ERROR_RT_PARAM_INVALID, "outside");
    ACL_ERR(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_ERROR_INVALID_PARAM, "opt 3");
    ACL_ERR(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_ERROR_INVALID_PARAM, "opt 3");
    ACL_ERR(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL), ACL_ERROR_INVALID_PARAM, "value");
    ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
    assert_int_equal(v, 3); /* the failures changed nothing */

    /* A second context has its own values. */
    aclrtContext ctx2;
    ACL_OK(aclrtCreateContext(&ctx2, 0));
    v = -5;
    ACL_ERR(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, NULL);
    ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
    ACL_OK(aclrtDestroyContext(ctx2));
    ACL_OK(aclrtSetDevice(0)); /* the default context again */
    ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
    assert_int_equal(v, 3);
    ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v));
    assert_int_equal(v, 1);
    ACL_OK(aclrtResetDeviceForce(0));

    /* Values go with the context: a new default context starts unset. */
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, NULL);
    ACL_OK(aclrtResetDeviceForce(0));
    /* No context. */
    ACL_ERR(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_ERR(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_CONTEXT_NULL, NULL);
}

/* ---- stream attributes ------------------------------------------------------------------------------ */

static void test_priority(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    v.streamPriority = 9;
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    memset(&v, 0xff, sizeof(v));
    ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    assert_int_equal(v.streamPriority, 7);
    assert_int_equal(v.reserve[1], 0xffffffffu); /* only the member is written */
    uint32_t p = 0;
    ACL_OK(aclrtStreamGetPriority(s, &p));
    assert_int_equal(p, 7);
    v.streamPriority = (uint32_t)-3; /* negative as int32_t: 0 */
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    ACL_OK(aclrtStreamGetPriority(s, &p));
    assert_int_equal(p, 0);
    v.streamPriority = 4;
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    ACL_OK(aclrtStreamGetPriority(s, &p));
    assert_int_equal(p, 4);
    /* NULL stream is refused for the priority, on every product. */
    v.streamPriority = 1;
    ACL_ERR(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_PARAM_INVALID, "PRIORITY");
    ACL_ERR(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_PARAM_INVALID, "PRIORITY");
    ACL_ERR(aclrtSetStreamAttribute(s, (aclrtStreamAttr)6, &v), ACL_ERROR_RT_PARAM_INVALID, "stmAttrType 6");
    ACL_ERR(aclrtSetStreamAttribute(s, (aclrtStreamAttr)0, &v), ACL_ERROR_RT_PARAM_INVALID, "stmAttrType 0");
    ACL_ERR(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM, "value");
    ACL_OK(aclrtStreamGetPriority(s, &p));
    assert_int_equal(p, 4);
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    ACL_ERR(aclrtGetStreamAttribute(s, (aclrtStreamAttr)6, &v), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    ACL_OK(aclrtResetDeviceForce(0));
}

static void test_failure_mode_attr(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStreamAttrValue v;
    memset(&v, 0x77, sizeof(v));
    /* NULL is the default stream on A2. */
    ACL_OK(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    assert_int_equal(v.failureMode, 0);
    assert_int_equal(v.reserve[2], 0x77777777u);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    v.failureMode = ACL_STOP_ON_FAILURE;
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v)); /* same value again */
    v.failureMode = 0;
    ACL_OK(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v)); /* the context's mode */
    assert_int_equal(v.failureMode, 1);
    v.failureMode = ACL_CONTINUE_ON_FAILURE;
    ACL_ERR(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "cannot be switched back");
    /* A stream of another context. */
    aclrtContext other;
    ACL_OK(aclrtCreateContext(&other, 0));
    v.failureMode = ACL_STOP_ON_FAILURE;
    ACL_ERR(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_STREAM_CONTEXT,
            "another context");
    v.overflowSwitch = 1;
    ACL_ERR(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_ERROR_RT_STREAM_CONTEXT,
            "another context");
    ACL_ERR(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_ERROR_RT_STREAM_CONTEXT,
            "another context");
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtResetDeviceForce(0));
    ACL_ERR(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_CONTEXT_NULL, NULL);
}

static void test_overflow_tag_cache(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    assert_int_equal(v.overflowSwitch, 0);
    v.overflowSwitch = 1;
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    v.overflowSwitch = 0;
    ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    assert_int_equal(v.overflowSwitch, 1);
    v.overflowSwitch = 2;
    ACL_ERR(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_ERROR_RT_PARAM_INVALID,
            "overflowSwitch 2");
    ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    assert_int_equal(v.overflowSwitch, 1);

    v.userCustomTag = 0xdeadbeef;
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    v.userCustomTag = 0;
    ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    assert_int_equal(v.userCustomTag, 0xdeadbeef);
    ACL_OK(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v)); /* default stream: untagged */
    assert_int_equal(v.userCustomTag, 0);

    ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
    assert_int_equal(v.cacheOpInfoSwitch, 0);
    v.cacheOpInfoSwitch = 1;
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
    v.cacheOpInfoSwitch = 0;
    ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
    assert_int_equal(v.cacheOpInfoSwitch, 1);
    v.cacheOpInfoSwitch = 2;
    ACL_ERR(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v), ACL_ERROR_RT_PARAM_INVALID,
            "cacheOpInfoSwitch 2");
    ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
    assert_int_equal(v.cacheOpInfoSwitch, 1);
    ACL_ERR(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, NULL), ACL_ERROR_INVALID_PARAM, "value");
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtResetDeviceForce(0));
}

/* 310P: NULL is not the default stream; no priorities; tags and overflow
 * switches are accepted without effect. */
static void child_attr_310p(void)
{
    CHILD_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    CHILD_ERR(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_PARAM_INVALID,
              "stream is NULL");
    CHILD_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    v.streamPriority = 3;
    CHILD_ERR(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "not supported on Ascend310P3");
    CHILD_ERR(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, NULL);
    v.userCustomTag = 5;
    CHILD_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    v.userCustomTag = 99;
    CHILD_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    CHILD_CHECK_INT(v.userCustomTag, 99); /* success, nothing written */
    v.overflowSwitch = 0;
    CHILD_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    CHILD_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    CHILD_CHECK_INT(v.overflowSwitch, 1); /* always 1 on this product */
    /* aclrtSetOpWaitTimeout is not available on 310P either. */
    CHILD_ERR(aclrtSetOpWaitTimeout(1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on Ascend310P3");
    void *addr = NULL;
    CHILD_ERR(aclrtGetHardwareSyncAddr(&addr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on Ascend310P3");
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_OK(aclrtResetDevice(0));
}

static void child_attr_950(void)
{
    CHILD_OK(aclrtSetDevice(0));
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    CHILD_OK(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    v.streamPriority = 2;
    CHILD_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    uint32_t p = 0;
    CHILD_OK(aclrtStreamGetPriority(s, &p));
    CHILD_CHECK_INT(p, 2);
    void *addr = NULL;
    CHILD_ERR(aclrtGetHardwareSyncAddr(&addr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on Ascend950");
    CHILD_CHECK(addr == NULL);
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_OK(aclrtResetDevice(0));
}

static void test_attr_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("attr_310p", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("attr_950", "OACL_SOC=Ascend950PR_9599");
}

/* ---- available streams ----------------------------------------------------------------------------------- */

static void test_stream_available(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    uint32_t before = 0, n = 0;
    ACL_OK(aclrtGetStreamAvailableNum(&before));
    assert_true(before > 0 && before < 2048); /* the default stream counts */
    aclrtStream s[3];
    for (int i = 0; i < 3; i++) {
        ACL_OK(aclrtCreateStream(&s[i]));
        ACL_OK(aclrtGetStreamAvailableNum(&n));
        assert_int_equal(n, before - 1 - (uint32_t)i);
    }
    ACL_OK(aclrtDestroyStream(s[0]));
    ACL_OK(aclrtGetStreamAvailableNum(&n));
    assert_int_equal(n, before - 2);
    ACL_OK(aclrtDestroyStreamForce(s[1]));
    ACL_OK(aclrtDestroyStream(s[2]));
    ACL_OK(aclrtGetStreamAvailableNum(&n));
    assert_int_equal(n, before);
    /* Another context's default stream counts on the same device. */
    aclrtContext c;
    ACL_OK(aclrtCreateContext(&c, 0));
    ACL_OK(aclrtGetStreamAvailableNum(&n));
    assert_int_equal(n, before - 1);
    ACL_OK(aclrtDestroyContext(c));
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM, "streamCount");
    ACL_OK(aclrtResetDeviceForce(0));
    n = 42;
    ACL_ERR(aclrtGetStreamAvailableNum(&n), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    assert_int_equal(n, 42);
}

/* ---- hardware synchronisation area ---------------------------------------------------------------------- */

static void test_hw_sync_addr(void **state)
{
    (void)state;
    void *a = (void *)0x1;
    ACL_ERR(aclrtGetHardwareSyncAddr(&a), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    assert_ptr_equal(a, (void *)0x1);
    ACL_ERR(aclrtGetHardwareSyncAddr(NULL), ACL_ERROR_RT_PARAM_INVALID, "addr is NULL");
    ACL_OK(aclrtSetDevice(0));
    void *b = NULL;
    ACL_OK(aclrtGetHardwareSyncAddr(&a));
    ACL_OK(aclrtGetHardwareSyncAddr(&b));
    assert_non_null(a);
    assert_ptr_equal(a, b);
    /* Device memory of the device, zero-filled, readable by copies; not for aclrtFree. */
    aclrtPtrAttributes attr;
    ACL_OK(aclrtPointerGetAttributes(a, &attr));
    assert_int_equal(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(attr.location.id, 0);
    unsigned char host[4096];
    memset(host, 0xee, sizeof(host));
    ACL_OK(aclrtMemcpy(host, sizeof(host), a, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < sizeof(host); i++)
        assert_int_equal(host[i], 0);
    ACL_ERR(aclrtFree(a), ACL_ERROR_RT_PARAM_INVALID, "runtime owns");
    /* Another device has its own area. */
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtGetHardwareSyncAddr(&b));
    assert_ptr_not_equal(a, b);
    ACL_OK(aclrtResetDeviceForce(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtGetHardwareSyncAddr(&b));
    assert_ptr_equal(a, b);
    ACL_OK(aclrtResetDeviceForce(0));
    /* After the final reset the area is gone. */
    ACL_OK(aclrtPointerGetAttributes(a, &attr));
    assert_int_equal(attr.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
}

int main(int argc, char **argv)
{
    static const struct oacl_child_mode modes[] = {
        {"attr_310p", child_attr_310p},
        {"attr_950", child_attr_950},
    };
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(modes, sizeof(modes) / sizeof(modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctx_sysparam),       cmocka_unit_test(test_priority),
        cmocka_unit_test(test_failure_mode_attr),  cmocka_unit_test(test_overflow_tag_cache),
        cmocka_unit_test(test_attr_profiles),      cmocka_unit_test(test_stream_available),
        cmocka_unit_test(test_hw_sync_addr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
