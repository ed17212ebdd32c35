/*
 * Compute groups (acl-rt-misc.md 3.5): 207000 on every profile but
 * Ascend310P*, as in CANN; on Ascend310P* profiles the groups of
 * OACL_GROUPS, their details, aclrtSetGroup's device-wide selection, the
 * stream-creation rule (107013) and the bound on launch concurrency.
 * Profiles and group tables are fixed per process: child processes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the default profile (Ascend910B3): unsupported ---- */

static void test_unsupported(void **state)
{
    (void)state;
    uint32_t count = 77;
    /* Without a context: the feature check comes first. */
    ACL_ERR(aclrtGetGroupCount(&count), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtGetGroupCount: aclrtGetGroupCount is not supported on Ascend910B3");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ACL_ERR(aclrtSetGroup(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSetGroup is not supported on Ascend910B3");
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtGetGroupCount(&count), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "is not supported on Ascend910B3");
    ACL_ERR(aclrtSetGroup(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSetGroup is not supported");
    ACL_ERR(aclrtSetGroup(9), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSetGroup is not supported");
    oacl_test_clear_msgs();
    assert_null(aclrtCreateGroupInfo());
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_non_null(strstr(msg, "aclrtCreateGroupInfo is not supported on Ascend910B3"));
    char buf[256];
    memset(buf, 0x3c, sizeof(buf));
    aclrtGroupInfo *fake = (aclrtGroupInfo *)(void *)buf;
    ACL_ERR(aclrtGetAllGroupInfo(fake), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetAllGroupInfo is not supported");
    uint32_t v = 5;
    size_t ret = 6;
    ACL_ERR(aclrtGetGroupInfoDetail(fake, 0, ACL_GROUP_AICORE_INT, &v, sizeof(v), &ret),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetGroupInfoDetail is not supported");
    /* API-layer checks come first. */
    ACL_ERR(aclrtGetGroupCount(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetGroupCount: count is NULL");
    ACL_ERR(aclrtGetAllGroupInfo(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetAllGroupInfo: groupInfo is NULL");
    ACL_ERR(aclrtGetGroupInfoDetail(NULL, 0, ACL_GROUP_AICORE_INT, &v, sizeof(v), &ret), ACL_ERROR_INVALID_PARAM,
            "groupInfo is NULL");
    ACL_ERR(aclrtGetGroupInfoDetail(fake, 0, ACL_GROUP_AICORE_INT, NULL, sizeof(v), &ret), ACL_ERROR_INVALID_PARAM,
            "attrValue is NULL");
    ACL_ERR(aclrtGetGroupInfoDetail(fake, 0, ACL_GROUP_AICORE_INT, &v, sizeof(v), NULL), ACL_ERROR_INVALID_PARAM,
            "paramRetSize is NULL");
    /* Destroy works on every SoC: NULL and unknown pointers are 100000. */
    ACL_ERR(aclrtDestroyGroupInfo(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyGroupInfo: groupInfo is NULL");
    ACL_ERR(aclrtDestroyGroupInfo(fake), ACL_ERROR_INVALID_PARAM, "was not made by aclrtCreateGroupInfo");
    /* Nothing was written. */
    assert_int_equal(count, 77);
    assert_int_equal(v, 5);
    assert_int_equal(ret, 6);
    for (size_t i = 0; i < sizeof(buf); i++)
        assert_int_equal((unsigned char)buf[i], 0x3c);
    /* Streams are not concerned. */
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtDestroyStream(s));
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
}

/* ---- Ascend310P profiles (children) ---- */

static uint32_t child_count(void)
{
    uint32_t n = 99;
    CHILD_OK(aclrtGetGroupCount(&n));
    return n;
}

/* 310P without OACL_GROUPS (or with an invalid one): no groups. */
static void child_no_groups(void)
{
    uint32_t n = 99;
    CHILD_ERR(aclrtGetGroupCount(&n), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetGroupCount");
    CHILD_ERR(aclrtSetGroup(0), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSetGroup");
    CHILD_CHECK(aclrtCreateGroupInfo() == NULL);
    CHILD_CHECK_INT(n, 99);
    CHILD_OK(aclrtSetDevice(0));
    CHILD_CHECK_INT(child_count(), 0);
    CHILD_CHECK(aclrtCreateGroupInfo() == NULL);
    char buf[64];
    CHILD_ERR(aclrtGetAllGroupInfo((aclrtGroupInfo *)(void *)buf), ACL_ERROR_RT_GROUP_NOT_CREATE,
              "aclrtGetAllGroupInfo: no compute groups exist");
    CHILD_ERR(aclrtSetGroup(0), ACL_ERROR_RT_GROUP_NOT_CREATE, "aclrtSetGroup: no compute group 0 exists");
    CHILD_ERR(aclrtSetGroup(4), ACL_ERROR_RT_PARAM_INVALID, "aclrtSetGroup: groupId 4 is outside 0..3");
    CHILD_ERR(aclrtSetGroup(-1), ACL_ERROR_RT_PARAM_INVALID, "groupId -1");
    uint32_t v = 1;
    size_t ret = 2;
    CHILD_ERR(aclrtGetGroupInfoDetail((aclrtGroupInfo *)(void *)buf, 0, ACL_GROUP_AICORE_INT, &v, 4, &ret),
              ACL_ERROR_INVALID_PARAM, "groupIndex 0 is outside");
    CHILD_CHECK_INT(v, 1);
    aclrtStream s = NULL;
    CHILD_OK(aclrtCreateStream(&s));
    CHILD_OK(aclrtDestroyStream(s));
}

static uint32_t child_detail(const aclrtGroupInfo *g, int32_t index, aclrtGroupAttr attr)
{
    uint32_t v = 0xdeadbeef;
    size_t ret = 0;
    CHILD_OK(aclrtGetGroupInfoDetail(g, index, attr, &v, sizeof(v), &ret));
    CHILD_CHECK_INT(ret, 4);
    return v;
}

/* OACL_GROUPS="0:4;2:4": two groups, no default. */
static void child_two_groups(void)
{
    CHILD_OK(aclrtSetDevice(0));
    CHILD_CHECK_INT(child_count(), 2);
    aclrtGroupInfo *g = aclrtCreateGroupInfo();
    CHILD_CHECK(g != NULL);
    CHILD_OK(aclrtGetAllGroupInfo(g));
    CHILD_CHECK_INT(child_detail(g, 0, ACL_GROUP_GROUPID_INT), 0);
    CHILD_CHECK_INT(child_detail(g, 1, ACL_GROUP_GROUPID_INT), 2);
    for (int32_t i = 0; i < 2; i++) {
        CHILD_CHECK_INT(child_detail(g, i, ACL_GROUP_AICORE_INT), 4);
        CHILD_CHECK_INT(child_detail(g, i, ACL_GROUP_AIV_INT), 0); /* defaults */
        CHILD_CHECK_INT(child_detail(g, i, ACL_GROUP_AIC_INT), 1);
        CHILD_CHECK_INT(child_detail(g, i, ACL_GROUP_SDMANUM_INT), 1);
        CHILD_CHECK_INT(child_detail(g, i, ACL_GROUP_ASQNUM_INT), 32);
    }
    /* A value buffer larger than 4 bytes: still 4 written. */
    uint64_t wide = UINT64_MAX;
    size_t ret = 0;
    CHILD_OK(aclrtGetGroupInfoDetail(g, 1, ACL_GROUP_GROUPID_INT, &wide, sizeof(wide), &ret));
    CHILD_CHECK_INT(ret, 4);
    CHILD_CHECK(wide == 0xFFFFFFFF00000002ull);
    /* Bad index, attribute, length: 100000, nothing written. */
    uint32_t v = 7;
    ret = 9;
    CHILD_ERR(aclrtGetGroupInfoDetail(g, 2, ACL_GROUP_AICORE_INT, &v, 4, &ret), ACL_ERROR_INVALID_PARAM,
              "aclrtGetGroupInfoDetail: groupIndex 2 is outside 0..1");
    CHILD_ERR(aclrtGetGroupInfoDetail(g, -1, ACL_GROUP_AICORE_INT, &v, 4, &ret), ACL_ERROR_INVALID_PARAM,
              "groupIndex -1");
    CHILD_ERR(aclrtGetGroupInfoDetail(g, 0, (aclrtGroupAttr)6, &v, 4, &ret), ACL_ERROR_INVALID_PARAM,
              "attr 6 is not an aclrtGroupAttr");
    CHILD_ERR(aclrtGetGroupInfoDetail(g, 0, (aclrtGroupAttr)-1, &v, 4, &ret), ACL_ERROR_INVALID_PARAM, "attr -1");
    CHILD_ERR(aclrtGetGroupInfoDetail(g, 0, ACL_GROUP_AICORE_INT, &v, 2, &ret), ACL_ERROR_INVALID_PARAM,
              "valueLen 2 is smaller than 4");
    CHILD_CHECK_INT(v, 7);
    CHILD_CHECK_INT(ret, 9);
    /* Two groups, none default, none selected: only the default stream. */
    aclrtStream s = NULL;
    CHILD_ERR(aclrtCreateStream(&s), ACL_ERROR_RT_GROUP_NOT_SET, "aclrtCreateStream: device 0 has 2 compute groups");
    CHILD_ERR(aclrtCreateStreamWithConfig(&s, 0, 0), ACL_ERROR_RT_GROUP_NOT_SET, "select one with aclrtSetGroup");
    CHILD_CHECK(s == NULL);
    CHILD_OK(aclrtSynchronizeStream(NULL));
    CHILD_ERR(aclrtSetGroup(1), ACL_ERROR_RT_GROUP_NOT_CREATE, "no compute group 1 exists");
    CHILD_OK(aclrtSetGroup(2));
    CHILD_OK(aclrtCreateStream(&s));
    CHILD_OK(aclrtDestroyStream(s));
    /* Device-wide: another device still has no selection. */
    CHILD_OK(aclrtSetDevice(1));
    CHILD_ERR(aclrtCreateStream(&s), ACL_ERROR_RT_GROUP_NOT_SET, "device 1 has 2 compute groups");
    /* The final reset of device 0 forgets its selection. */
    CHILD_OK(aclrtResetDevice(0));
    CHILD_OK(aclrtSetDevice(0));
    CHILD_ERR(aclrtCreateStream(&s), ACL_ERROR_RT_GROUP_NOT_SET, "device 0 has 2 compute groups");
    /* The array: destroyed once. */
    CHILD_OK(aclrtDestroyGroupInfo(g));
    CHILD_ERR(aclrtDestroyGroupInfo(g), ACL_ERROR_INVALID_PARAM, "was not made by aclrtCreateGroupInfo");
    /* Without a context (fresh thread state after the resets). */
    CHILD_OK(aclrtResetDeviceForce(0));
    CHILD_OK(aclrtResetDeviceForce(1));
    uint32_t n = 5;
    CHILD_ERR(aclrtGetGroupCount(&n), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetGroupCount");
    char buf[256];
    CHILD_ERR(aclrtGetAllGroupInfo((aclrtGroupInfo *)(void *)buf), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetAllGroupInfo");
    CHILD_ERR(aclrtGetGroupInfoDetail((aclrtGroupInfo *)(void *)buf, 0, ACL_GROUP_AICORE_INT, &v, 4, &ret),
              ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetGroupInfoDetail");
    CHILD_CHECK(aclrtCreateGroupInfo() == NULL);
    CHILD_CHECK_INT(n, 5);
}

/* The most blocks of `concurrency` seen at once (launched on stream). */
static uint32_t child_max_blocks(aclrtFuncHandle f, uint32_t blocks, uint32_t limit)
{
    struct test_buf b;
    test_buf_alloc(&b, 64);
    uint32_t polls = 1u << 18;
    const void *vals[] = {&b.dev, &limit, &polls};
    const size_t sizes[] = {sizeof(void *), sizeof(uint32_t), sizeof(uint32_t)};
    CHILD_OK(test_launch(f, blocks, NULL, 3, vals, sizes));
    CHILD_OK(aclrtSynchronizeStream(NULL));
    volatile uint32_t *s = b.host;
    uint32_t max = s[1];
    CHILD_CHECK_INT(s[2], blocks);
    test_buf_free(&b);
    return max;
}

/* OACL_GROUPS="0:1;2:4:2:3:2:16": the selected group bounds launches. */
static void child_group_launch(void)
{
    CHILD_OK(aclrtSetDevice(0));
    CHILD_CHECK_INT(child_count(), 2);
    aclrtGroupInfo *g = aclrtCreateGroupInfo();
    CHILD_CHECK(g != NULL);
    CHILD_OK(aclrtGetAllGroupInfo(g));
    CHILD_CHECK_INT(child_detail(g, 1, ACL_GROUP_AICORE_INT), 4);
    CHILD_CHECK_INT(child_detail(g, 1, ACL_GROUP_AIV_INT), 2);
    CHILD_CHECK_INT(child_detail(g, 1, ACL_GROUP_AIC_INT), 3);
    CHILD_CHECK_INT(child_detail(g, 1, ACL_GROUP_SDMANUM_INT), 2);
    CHILD_CHECK_INT(child_detail(g, 1, ACL_GROUP_ASQNUM_INT), 16);
    CHILD_OK(aclrtDestroyGroupInfo(g));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_devq_310p", "concurrency", &bin, &f);
    CHILD_OK(aclrtSetGroup(0));
    CHILD_CHECK_INT(child_max_blocks(f, 10, 1), 1);
    CHILD_OK(aclrtSetGroup(2));
    uint32_t m = child_max_blocks(f, 12, 4);
    CHILD_CHECK(m >= 1 && m <= 4);
    /* Combined with a thread's stream limit: the minimum. */
    aclrtStream s = NULL;
    CHILD_OK(aclrtCreateStream(&s));
    CHILD_OK(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, 1));
    CHILD_OK(aclrtUseStreamResInCurrentThread(s));
    CHILD_CHECK_INT(child_max_blocks(f, 10, 1), 1);
    CHILD_OK(aclrtUnuseStreamResInCurrentThread(s));
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_OK(aclrtBinaryUnLoad(bin));
}

/* OACL_GROUPS="1*:2;3:5": the default group is used without aclrtSetGroup. */
static void child_default_group(void)
{
    CHILD_OK(aclrtSetDevice(0));
    CHILD_CHECK_INT(child_count(), 2);
    aclrtStream s = NULL;
    CHILD_OK(aclrtCreateStream(&s)); /* a default group exists */
    CHILD_OK(aclrtDestroyStream(s));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_devq_310p", "concurrency", &bin, &f);
    uint32_t m = child_max_blocks(f, 12, 2);
    CHILD_CHECK(m >= 1 && m <= 2);
    CHILD_OK(aclrtBinaryUnLoad(bin));
}

/* One group: used without aclrtSetGroup; streams are fine. */
static void child_single_group(void)
{
    CHILD_OK(aclrtSetDevice(0));
    CHILD_CHECK_INT(child_count(), 1);
    aclrtStream s = NULL;
    CHILD_OK(aclrtCreateStream(&s));
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_OK(aclrtSetGroup(3));
}

/* Other profiles ignore OACL_GROUPS: unsupported. */
static void child_other_profile(void)
{
    CHILD_OK(aclrtSetDevice(0));
    uint32_t n = 3;
    CHILD_ERR(aclrtGetGroupCount(&n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "is not supported on Ascend310B1");
    CHILD_ERR(aclrtSetGroup(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "is not supported on Ascend310B1");
    CHILD_CHECK(aclrtCreateGroupInfo() == NULL);
    CHILD_CHECK_INT(n, 3);
}

static void test_310p_no_groups(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("no_groups", "OACL_SOC=Ascend310P3", "OACL_GROUPS", "OACL_DEVICE_COUNT");
    ASSERT_CHILD_OK("no_groups", "OACL_SOC=Ascend310P3", "OACL_GROUPS=", "OACL_DEVICE_COUNT");
}

static void test_310p_two_groups(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("two_groups", "OACL_SOC=Ascend310P3", "OACL_GROUPS=0:4;2:4", "OACL_DEVICE_COUNT");
    /* The order of the items does not matter (ascending ids). */
    ASSERT_CHILD_OK("two_groups", "OACL_SOC=Ascend310P3", "OACL_GROUPS=2:4;0:4;", "OACL_DEVICE_COUNT");
}

static void test_310p_launch_bound(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("group_launch", "OACL_SOC=Ascend310P3", "OACL_GROUPS=0:1;2:4:2:3:2:16", "OACL_DEVICE_COUNT");
    ASSERT_CHILD_OK("default_group", "OACL_SOC=Ascend310P3", "OACL_GROUPS=1*:2;3:5", "OACL_DEVICE_COUNT");
}

static void test_310p_single_group(void **state)
{
    (void)state;
    /* Ascend310P1 has 10 AI Cores. */
    ASSERT_CHILD_OK("single_group", "OACL_SOC=Ascend310P1", "OACL_GROUPS=3:10", "OACL_DEVICE_COUNT");
}

/* Invalid tables are ignored (a warning): no groups. */
static void test_310p_invalid_groups(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "OACL_GROUPS=0:9",           /* more AI Cores than the SoC's 8 */
        "OACL_GROUPS=0:4;1:5",       /* together too */
        "OACL_GROUPS=4:1",           /* id */
        "OACL_GROUPS=0:1;0:1",       /* duplicate id */
        "OACL_GROUPS=0*:1;1*:1",     /* two defaults */
        "OACL_GROUPS=0:0",           /* no AI Core */
        "OACL_GROUPS=0:1:0:1:1:33",  /* asq above 32 */
        "OACL_GROUPS=0:1:2:3:4:5:6", /* too many fields */
        "OACL_GROUPS=0",             /* no AI Core field */
        "OACL_GROUPS=x:1",
        "OACL_GROUPS=0:1x",
        "OACL_GROUPS=0:1;1:1;2:1;3:1;0:1",
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        const char *const env[] = {"OACL_SOC=Ascend310P3", bad[i], "OACL_DEVICE_COUNT", "OACL_LOG_LEVEL=error",
                                   NULL};
        int st = oacl_run_child("no_groups", env, NULL, 0);
        if (st != 0)
            fail_msg("%s: child exited with %d", bad[i], st);
    }
}

static void test_other_profile(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("other_profile", "OACL_SOC=Ascend310B1", "OACL_GROUPS=0:1", "OACL_DEVICE_COUNT");
}

static const struct oacl_child_mode g_modes[] = {
    {"no_groups", child_no_groups},         {"two_groups", child_two_groups},
    {"group_launch", child_group_launch},   {"default_group", child_default_group},
    {"single_group", child_single_group},   {"other_profile", child_other_profile},
};

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    unsetenv("OACL_SOC");
    unsetenv("OACL_GROUPS");
    unsetenv("OACL_DEVICE_COUNT");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_unsupported, oacl_test_reset_fixture),
        cmocka_unit_test(test_310p_no_groups),
        cmocka_unit_test(test_310p_two_groups),
        cmocka_unit_test(test_310p_launch_bound),
        cmocka_unit_test(test_310p_single_group),
        cmocka_unit_test(test_310p_invalid_groups),
        cmocka_unit_test(test_other_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
