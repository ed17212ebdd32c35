/*
 * Memory queries (memory-extras spec §3.2): aclrtGetMemUsageInfo,
 * aclrtCheckMemType, aclrtHostMemMapCapabilities.
 */
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "mem_extras_util.h"

static int setup(void **state)
{
    (void)state;
    return aclrtSetDevice(0) ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    return aclrtResetDeviceForce(0);
}

/* ---- aclrtGetMemUsageInfo ------------------------------------------------------------ */

/* The entry named name among n entries (fails if absent). */
static const aclrtMemUsageInfo *entry(const aclrtMemUsageInfo *e, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(e[i].name, name) == 0)
            return &e[i];
    fail_msg("no entry \"%s\"", name);
    return NULL;
}

static void usage(int32_t dev, aclrtMemUsageInfo e[2])
{
    size_t n = 99;
    memset(e, 0x5a, 2 * sizeof(*e));
    ACL_OK(aclrtGetMemUsageInfo(dev, e, 2, &n));
    assert_int_equal(n, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_non_null(memchr(e[i].name, '\0', sizeof(e[i].name)));
        for (size_t k = 0; k < 8; k++)
            assert_int_equal(e[i].reserved[k], 0);
        assert_true(e[i].memPeakSize >= e[i].curMemSize);
    }
    /* Largest first. */
    assert_true(e[0].curMemSize >= e[1].curMemSize);
}

static void test_usage_info(void **state)
{
    (void)state;
    aclrtMemUsageInfo e[2];
    usage(0, e);
    uint64_t app0 = entry(e, 2, "APP")->curMemSize;
    uint64_t rt0 = entry(e, 2, "RUNTIME")->curMemSize;
    void *p = NULL;
    ACL_OK(aclrtMalloc(&p, 4u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    usage(0, e);
    /* Rounded sizes: 4 MiB + 32 bytes of padding. */
    assert_int_equal(entry(e, 2, "APP")->curMemSize, app0 + (4u << 20) + 32);
    assert_int_equal(entry(e, 2, "RUNTIME")->curMemSize, rt0);
    assert_string_equal(e[0].name, "APP");
    uint64_t peak = entry(e, 2, "APP")->memPeakSize;
    assert_true(peak >= app0 + (4u << 20) + 32);
    /* One entry asked for: the largest only. */
    size_t n = 99;
    aclrtMemUsageInfo one[2];
    memset(one, 0x5a, sizeof(one));
    ACL_OK(aclrtGetMemUsageInfo(0, one, 1, &n));
    assert_int_equal(n, 1);
    assert_string_equal(one[0].name, "APP");
    assert_int_equal(((unsigned char *)&one[1])[0], 0x5a); /* beyond inputNum: untouched */
    ACL_OK(aclrtFree(p));
    usage(0, e);
    /* The peak stays. */
    assert_int_equal(entry(e, 2, "APP")->curMemSize, app0);
    assert_int_equal(entry(e, 2, "APP")->memPeakSize, peak);
}

/* Allocations tagged with the runtime's module id count as RUNTIME, per
 * device; both entries are listed even when one is zero. */
static void test_usage_components(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(2));
    aclrtMemUsageInfo e[2];
    usage(2, e);
    uint64_t app0 = entry(e, 2, "APP")->curMemSize, rt0 = entry(e, 2, "RUNTIME")->curMemSize;
    aclrtMallocAttribute a;
    memset(&a, 0, sizeof(a));
    a.attr = ACL_RT_MEM_ATTR_MODULE_ID;
    a.value.moduleId = 7; /* RUNTIME */
    aclrtMallocConfig cfg = {&a, 1};
    void *p = NULL, *q = NULL;
    ACL_OK(aclrtMallocWithCfg(&p, (8u << 20) + 100, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
    a.value.moduleId = 3; /* another library: counted as the application's */
    ACL_OK(aclrtMallocWithCfg(&q, 1000, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
    usage(2, e);
    assert_int_equal(entry(e, 2, "RUNTIME")->curMemSize, rt0 + (8u << 20) + 128);
    assert_int_equal(entry(e, 2, "APP")->curMemSize, app0 + 1024);
    if (rt0 + (8u << 20) + 128 > app0 + 1024)
        assert_string_equal(e[0].name, "RUNTIME");
    /* Device 0 is not affected. */
    aclrtMemUsageInfo e0[2];
    ACL_OK(aclrtSetDevice(0));
    usage(0, e0);
    uint64_t rt_dev0 = entry(e0, 2, "RUNTIME")->curMemSize;
    ACL_OK(aclrtSetDevice(2));
    ACL_OK(aclrtFree(p));
    ACL_OK(aclrtFree(q));
    usage(2, e);
    assert_int_equal(entry(e, 2, "RUNTIME")->curMemSize, rt0);
    assert_true(entry(e, 2, "RUNTIME")->memPeakSize >= rt0 + (8u << 20) + 128);
    assert_int_equal(rt_dev0, 0);
    ACL_OK(aclrtResetDevice(2));
    ACL_OK(aclrtSetDevice(0));
}

static aclError usage_call(void)
{
    aclrtMemUsageInfo e[2];
    size_t n = 0;
    return aclrtGetMemUsageInfo(0, e, 2, &n);
}

static void test_usage_info_bad(void **state)
{
    (void)state;
    aclrtMemUsageInfo e[2];
    memset(e, 0x5a, sizeof(e));
    size_t n = 99;
    ACL_ERR(aclrtGetMemUsageInfo(0, NULL, 2, &n), ACL_ERROR_INVALID_PARAM, "memUsageInfo is NULL");
    assert_int_equal(n, 99); /* API-layer failure: untouched */
    ACL_ERR(aclrtGetMemUsageInfo(0, e, 2, NULL), ACL_ERROR_INVALID_PARAM, "outputNum is NULL");
    ACL_ERR(aclrtGetMemUsageInfo(0, e, 0, &n), ACL_ERROR_RT_PARAM_INVALID, "inputNum is 0");
    assert_int_equal(n, 0); /* zeroed before the runtime-layer checks */
    n = 99;
    ACL_ERR(aclrtGetMemUsageInfo(99, e, 2, &n), ACL_ERROR_RT_INVALID_DEVICEID, "device id 99");
    assert_int_equal(n, 0);
    n = 99;
    ACL_ERR(aclrtGetMemUsageInfo(-1, e, 2, &n), ACL_ERROR_RT_INVALID_DEVICEID, "device id -1");
    assert_int_equal(n, 0);
    assert_int_equal(((unsigned char *)e)[0], 0x5a);
    assert_int_equal(((unsigned char *)e)[sizeof(e) - 1], 0x5a);
    /* No context needed: the device is explicit. */
    expect_on_bare_thread(usage_call, ACL_SUCCESS, NULL);
}

/* ---- aclrtCheckMemType ------------------------------------------------------------- */

static uint32_t check(void **list, uint32_t n, uint32_t type)
{
    uint32_t r = SENTINEL_U32;
    ACL_OK(aclrtCheckMemType(list, n, type, &r, 0));
    assert_true(r == 0 || r == 1);
    return r;
}

static aclError check_call(void)
{
    void *list[1] = {SENTINEL_PTR};
    uint32_t r = 0;
    return aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &r, 0);
}

static void test_check_mem_type(void **state)
{
    (void)state;
    void *dev = NULL, *dev1 = NULL, *host = NULL;
    ACL_OK(aclrtMalloc(&dev, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocWithCfg(&dev1, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
    ACL_OK(aclrtMallocHost(&host, 64));
    int stack_var = 0;
    void *list[4] = {dev, (char *)dev + 999, dev1, NULL};
    assert_int_equal(check(list, 3, ACL_RT_MEM_TYPE_DEV), 1);
    assert_int_equal(check(list, 3, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP), 1);
    assert_int_equal(check(list, 1, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_RSVD | 0x20u), 1);
    /* aclrtMalloc memory is neither DVPP nor reserved-VA memory. */
    assert_int_equal(check(list, 1, ACL_RT_MEM_TYPE_DVPP), 0);
    assert_int_equal(check(list, 1, ACL_RT_MEM_TYPE_RSVD), 0);
    assert_int_equal(check(list, 1, 0x20u), 0);
    assert_int_equal(check(list, 1, 0), 0);
    /* Every address must match: host memory and unknown memory do not. */
    list[3] = host;
    assert_int_equal(check(list, 4, ACL_RT_MEM_TYPE_DEV), 0);
    list[3] = &stack_var;
    assert_int_equal(check(list, 4, ACL_RT_MEM_TYPE_DEV), 0);
    list[3] = (char *)dev1 + 4096 * 1024;
    assert_int_equal(check(list, 4, ACL_RT_MEM_TYPE_DEV), 0);
    /* Device memory of another device counts. */
    ACL_OK(aclrtSetDevice(1));
    void *other = NULL;
    ACL_OK(aclrtMalloc(&other, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtSetDevice(0));
    list[3] = other;
    assert_int_equal(check(list, 4, ACL_RT_MEM_TYPE_DEV), 1);
    /* A freed address no longer does. */
    ACL_OK(aclrtFree(dev1));
    assert_int_equal(check(list, 4, ACL_RT_MEM_TYPE_DEV), 0);

    /* A reserved address range is reserved-VA memory (0x10 or 0x20), also
       where device memory is mapped into it, and never DEV. */
    void *va = NULL;
    ACL_OK(aclrtReserveMemAddress(&va, 4u << 20, 0, NULL, 0));
    void *rsv[2] = {va, (char *)va + (3u << 20)};
    assert_int_equal(check(rsv, 2, ACL_RT_MEM_TYPE_RSVD), 1);
    assert_int_equal(check(rsv, 2, 0x20u), 1);
    assert_int_equal(check(rsv, 2, ACL_RT_MEM_TYPE_DEV), 0);
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    aclrtDrvMemHandle h = NULL;
    ACL_OK(aclrtMallocPhysical(&h, 2u << 20, &prop, 0));
    ACL_OK(aclrtMapMem(va, 2u << 20, 0, h, 0));
    assert_int_equal(check(rsv, 1, ACL_RT_MEM_TYPE_RSVD), 1);
    assert_int_equal(check(rsv, 1, ACL_RT_MEM_TYPE_DEV), 0);
    void *mixed[2] = {va, dev};
    assert_int_equal(check(mixed, 2, ACL_RT_MEM_TYPE_RSVD), 0);
    assert_int_equal(check(mixed, 2, ACL_RT_MEM_TYPE_RSVD | ACL_RT_MEM_TYPE_DEV), 1);
    ACL_OK(aclrtUnmapMem(va));
    ACL_OK(aclrtFreePhysical(h));
    ACL_OK(aclrtReleaseMemAddress(va));
    assert_int_equal(check(rsv, 1, ACL_RT_MEM_TYPE_RSVD), 0);

    /* Bad inputs: the result is zeroed before runtime-layer checks only. */
    uint32_t r = SENTINEL_U32;
    ACL_ERR(aclrtCheckMemType(NULL, 1, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_ERROR_INVALID_PARAM, "addrList is NULL");
    assert_int_equal(r, SENTINEL_U32);
    ACL_ERR(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, NULL, 0), ACL_ERROR_INVALID_PARAM, "checkResult is NULL");
    ACL_ERR(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &r, 1), ACL_ERROR_RT_PARAM_INVALID, "reserve is 1");
    assert_int_equal(r, 0);
    r = SENTINEL_U32;
    ACL_ERR(aclrtCheckMemType(list, 0, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_ERROR_RT_PARAM_INVALID, "size is 0");
    assert_int_equal(r, 0);
    r = SENTINEL_U32;
    ACL_ERR(aclrtCheckMemType(list, 1, 0x40, &r, 0), ACL_ERROR_RT_PARAM_INVALID, "memType 0x40");
    ACL_ERR(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV | 0x1u, &r, 0), ACL_ERROR_RT_PARAM_INVALID, "memType 0x3");
    assert_int_equal(r, 0);
    expect_on_bare_thread(check_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtCheckMemType");
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtFree(other));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtFreeHost(host));
    ACL_OK(aclrtFree(dev));
}

/* ---- aclrtHostMemMapCapabilities --------------------------------------------------- */

static aclError caps_call(void)
{
    aclrtHostMemMapCapability c;
    return aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIV, &c);
}

static void test_host_mem_map_capabilities(void **state)
{
    (void)state;
    static const aclrtHostMemMapCapability want[10] = {
        ACL_RT_HOST_MEM_MAP_SUPPORTED,     ACL_RT_HOST_MEM_MAP_SUPPORTED,     ACL_RT_HOST_MEM_MAP_SUPPORTED,
        ACL_RT_HOST_MEM_MAP_SUPPORTED,     ACL_RT_HOST_MEM_MAP_SUPPORTED,     ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED,
        ACL_RT_HOST_MEM_MAP_SUPPORTED,     ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED, ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED,
        ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED};
    for (uint32_t dev = 0; dev < 8; dev += 7)
        for (int h = 0; h < 10; h++) {
            aclrtHostMemMapCapability c = (aclrtHostMemMapCapability)SENTINEL_U32;
            ACL_OK(aclrtHostMemMapCapabilities(dev, (aclrtHacType)h, &c));
            assert_int_equal(c, want[h]);
        }
    aclrtHostMemMapCapability c = (aclrtHostMemMapCapability)SENTINEL_U32;
    ACL_ERR(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIV, NULL), ACL_ERROR_INVALID_PARAM, "capabilities is NULL");
    ACL_ERR(aclrtHostMemMapCapabilities(0, (aclrtHacType)10, &c), ACL_ERROR_RT_PARAM_INVALID, "hacType 10");
    ACL_ERR(aclrtHostMemMapCapabilities(99, ACL_RT_HAC_TYPE_AIV, &c), ACL_ERROR_RT_INVALID_DEVICEID, "device id 99");
    ACL_ERR(aclrtHostMemMapCapabilities(8, (aclrtHacType)10, &c), ACL_ERROR_RT_INVALID_DEVICEID, "device id 8");
    assert_int_equal(c, SENTINEL_U32);
    expect_on_bare_thread(caps_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtHostMemMapCapabilities");
}

/* ---- profiles ---------------------------------------------------------------------------- */

/* aclrtGetMemUsageInfo does not exist on the 950 (207000 after the
 * API-layer checks); the other two exist everywhere. */
static void child_profile(void)
{
    CHILD_OK(aclrtSetDevice(0));
    bool is950 = strncmp(getenv("OACL_SOC"), "Ascend950", 9) == 0;
    aclrtMemUsageInfo e[2];
    size_t n = 99;
    CHILD_ERR(aclrtGetMemUsageInfo(0, NULL, 2, &n), ACL_ERROR_INVALID_PARAM, "memUsageInfo is NULL");
    if (is950) {
        char needle[128];
        snprintf(needle, sizeof(needle), "aclrtGetMemUsageInfo is not supported on %s", getenv("OACL_SOC"));
        CHILD_ERR(aclrtGetMemUsageInfo(0, e, 2, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
        CHILD_CHECK_INT(n, 0);
    } else {
        CHILD_OK(aclrtGetMemUsageInfo(0, e, 2, &n));
        CHILD_CHECK_INT(n, 2);
    }
    void *p = NULL;
    CHILD_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    uint32_t r = 0;
    CHILD_OK(aclrtCheckMemType(&p, 1, ACL_RT_MEM_TYPE_DEV, &r, 0));
    CHILD_CHECK_INT(r, 1);
    aclrtHostMemMapCapability c;
    CHILD_OK(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, &c));
    CHILD_CHECK_INT(c, ACL_RT_HOST_MEM_MAP_SUPPORTED);
    CHILD_OK(aclrtFree(p));
    CHILD_OK(aclrtResetDevice(0));
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend950PR_9599");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend950DT_9591");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend910_9391");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend310B1");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend910A");
}

int main(int argc, char **argv)
{
    static const struct oacl_child_mode modes[] = {{"profile", child_profile}};
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(modes, sizeof(modes) / sizeof(modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usage_info),
        cmocka_unit_test(test_usage_components),
        cmocka_unit_test(test_usage_info_bad),
        cmocka_unit_test(test_check_mem_type),
        cmocka_unit_test(test_host_mem_map_capabilities),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
