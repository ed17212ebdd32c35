/*
 * Device queries, limits and peer access (spec 4.2, 4.9; soc-table 1-4):
 * aclrtGetDeviceInfo, aclGetDeviceCapability, aclrtGetDeviceCapability,
 * aclrtDeviceGetStreamPriorityRange, the peer-access functions, the core
 * limits (which really limit how many blocks of a launch run at once),
 * aclrtGetDeviceUtilizationRate, aclrtQueryDeviceStatus,
 * aclrtCheckArchCompatibility, aclrtSynchronizeDevice(WithTimeout) and
 * aclrtGetErrorVerbose. Figures of particular SoC profiles are checked in
 * child processes, since OACL_SOC is read once per process.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NDEV 8
#define MiB(x) ((int64_t)(x) * 1024 * 1024)
#define GiB(x) ((int64_t)(x) * 1024 * 1024 * 1024)

static int64_t info(int32_t dev, aclrtDevAttr attr)
{
    int64_t v = -12345;
    ACL_OK(aclrtGetDeviceInfo((uint32_t)dev, attr, &v));
    return v;
}

static int32_t primary_active(int32_t dev)
{
    int32_t active = -1;
    ACL_OK(aclrtGetPrimaryCtxState(dev, NULL, &active));
    return active;
}

static int32_t peer_status(int32_t dev, int32_t peer)
{
    int32_t s = -1;
    ACL_OK(aclrtDevicePeerAccessStatus(dev, peer, &s));
    return s;
}

static uint32_t res_limit(int32_t dev, aclrtDevResLimitType type)
{
    uint32_t v = 0;
    ACL_OK(aclrtGetDeviceResLimit(dev, type, &v));
    return v;
}

/* A host function that waits until the test opens its gate. */
struct gate {
    sem_t go;
    int ran;
};

static void gate_init(struct gate *g)
{
    assert_int_equal(sem_init(&g->go, 0, 0), 0);
    g->ran = 0;
}

static void gate_fn(void *p)
{
    struct gate *g = p;
    while (sem_wait(&g->go) != 0) {
    }
    __atomic_store_n(&g->ran, 1, __ATOMIC_RELEASE);
}

static int gate_ran(struct gate *g) { return __atomic_load_n(&g->ran, __ATOMIC_ACQUIRE); }

/* ---- figures of particular profiles (child processes) ----------------------------------------- */

/* Every attribute the spec lists, with what a device of the profile reports. */
struct attr_want {
    aclrtDevAttr attr;
    int64_t value;
};

static void child_check_attrs(int32_t dev, const struct attr_want *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t v = -12345;
        CHILD_OK(aclrtGetDeviceInfo((uint32_t)dev, w[i].attr, &v));
        if (v != w[i].value) {
            fprintf(stderr, "device %d attr %d: got %lld, expected %lld\n", dev, (int)w[i].attr, (long long)v,
                    (long long)w[i].value);
            exit(1);
        }
    }
}

/* The memory total aclrtGetMemInfo reports for dev (sets and resets it). */
static int64_t child_mem_total(int32_t dev)
{
    size_t free_b = 0, total = 0;
    CHILD_OK(aclrtSetDevice(dev));
    CHILD_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
    CHILD_OK(aclrtResetDevice(dev));
    return (int64_t)total;
}

static void child_910b3(void)
{
    CHILD_CHECK(strcmp(aclrtGetSocName(), "Ascend910B3") == 0);
    const struct attr_want w[] = {
        {ACL_DEV_ATTR_AICPU_CORE_NUM, 6},
        {ACL_DEV_ATTR_AICORE_CORE_NUM, 20},
        {ACL_DEV_ATTR_CUBE_CORE_NUM, 20},
        {ACL_DEV_ATTR_VECTOR_CORE_NUM, 40},
        {ACL_DEV_ATTR_WARP_SIZE, 0},
        {ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE, 0},
        {ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, 0}, /* soc-table 4: 0 on 2201 */
        {ACL_DEV_ATTR_MAX_GRID_DIM_X, 0},
        {ACL_DEV_ATTR_MAX_GRID_DIM_Y, 0},
        {ACL_DEV_ATTR_MAX_GRID_DIM_Z, 0},
        {ACL_DEV_ATTR_MAX_BLOCK_PER_GRID, 0},
        {ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK, 0},
        {ACL_DEV_ATTR_MAX_BLOCK_DIM_X, 0},
        {ACL_DEV_ATTR_MAX_BLOCK_DIM_Y, 0},
        {ACL_DEV_ATTR_MAX_BLOCK_DIM_Z, 0},
        {ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, GiB(64)},
        {ACL_DEV_ATTR_L2_CACHE_SIZE, MiB(192)},
        {ACL_DEV_ATTR_SMP_ID, 0},
        {ACL_DEV_ATTR_PHY_CHIP_ID, 3},
        {ACL_DEV_ATTR_SUPER_POD_DEVICE_ID, 3},
        {ACL_DEV_ATTR_SUPER_POD_SERVER_ID, 0},
        {ACL_DEV_ATTR_SUPER_POD_ID, 0},
        {ACL_DEV_ATTR_CUST_OP_PRIVILEGE, 1},
        {ACL_DEV_ATTR_MAINBOARD_ID, 0},
        {ACL_DEV_ATTR_HD_CONNECT_TYPE, ACL_HOST_DEVICE_CONNECT_TYPE_PCIE},
        {ACL_DEV_ATTR_DEVICE_FORM_FACTOR, 3},
        {ACL_DEV_ATTR_IS_VIRTUAL, 0},
        {ACL_DEV_ATTR_NPU_ARCH, 2201},
    };
    /* Before any device is set. */
    child_check_attrs(3, w, ARRAY_LEN(w));
    int32_t active = -1;
    CHILD_OK(aclrtGetPrimaryCtxState(3, NULL, &active));
    CHILD_CHECK_INT(active, 0);
    /* The same total as aclrtGetMemInfo. */
    CHILD_CHECK_INT(child_mem_total(3), GiB(64));
    int64_t v = 0;
    CHILD_OK(aclGetDeviceCapability(3, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
    CHILD_CHECK_INT(v, 20);
    CHILD_OK(aclGetDeviceCapability(3, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v));
    CHILD_CHECK_INT(v, 40);
    CHILD_OK(aclGetDeviceCapability(3, ACL_DEVICE_INFO_L2_SIZE, &v));
    CHILD_CHECK_INT(v, MiB(192));
    uint32_t lim = 0;
    CHILD_OK(aclrtGetDeviceResLimit(3, ACL_RT_DEV_RES_CUBE_CORE, &lim));
    CHILD_CHECK_INT(lim, 20);
    CHILD_OK(aclrtGetDeviceResLimit(3, ACL_RT_DEV_RES_VECTOR_CORE, &lim));
    CHILD_CHECK_INT(lim, 40);
    CHILD_ERR(aclrtSetDeviceResLimit(3, ACL_RT_DEV_RES_VECTOR_CORE, 41), ACL_ERROR_RT_PARAM_INVALID,
              "vector core limit 41 is outside 1..40");
    CHILD_ERR(aclrtSetDeviceResLimit(3, ACL_RT_DEV_RES_CUBE_CORE, 21), ACL_ERROR_RT_PARAM_INVALID,
              "cube core limit 21 is outside 1..20");
    CHILD_OK(aclrtSetDeviceResLimit(3, ACL_RT_DEV_RES_CUBE_CORE, 20));
    int32_t c = -1;
    CHILD_OK(aclrtCheckArchCompatibility("Ascend910B1", &c));
    CHILD_CHECK_INT(c, 1);
    CHILD_OK(aclrtCheckArchCompatibility("Ascend910_9392", &c));
    CHILD_CHECK_INT(c, 1);
    CHILD_OK(aclrtCheckArchCompatibility("Ascend910B", &c)); /* the arch-1001 part */
    CHILD_CHECK_INT(c, 0);
    CHILD_OK(aclrtCheckArchCompatibility("Ascend950PR_9599", &c));
    CHILD_CHECK_INT(c, 0);
    int32_t a = -1;
    CHILD_OK(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &a));
    CHILD_CHECK_INT(a, 1);
}

static void child_950(void)
{
    CHILD_CHECK(strcmp(aclrtGetSocName(), "Ascend950PR_9599") == 0);
    const struct attr_want w[] = {
        {ACL_DEV_ATTR_AICPU_CORE_NUM, 6},
        {ACL_DEV_ATTR_AICORE_CORE_NUM, 36},
        {ACL_DEV_ATTR_CUBE_CORE_NUM, 36},
        {ACL_DEV_ATTR_VECTOR_CORE_NUM, 72},
        {ACL_DEV_ATTR_WARP_SIZE, 32},
        {ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE, 2048},
        {ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, 221184},
        {ACL_DEV_ATTR_MAX_GRID_DIM_X, 65535},
        {ACL_DEV_ATTR_MAX_GRID_DIM_Y, 65535},
        {ACL_DEV_ATTR_MAX_GRID_DIM_Z, 65535},
        {ACL_DEV_ATTR_MAX_BLOCK_PER_GRID, 65535},
        {ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK, 2048},
        {ACL_DEV_ATTR_MAX_BLOCK_DIM_X, 2048},
        {ACL_DEV_ATTR_MAX_BLOCK_DIM_Y, 2048},
        {ACL_DEV_ATTR_MAX_BLOCK_DIM_Z, 2048},
        {ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, GiB(128)},
        {ACL_DEV_ATTR_L2_CACHE_SIZE, MiB(128)},
        {ACL_DEV_ATTR_IS_VIRTUAL, 0},
        {ACL_DEV_ATTR_NPU_ARCH, 3510},
    };
    child_check_attrs(0, w, ARRAY_LEN(w));
    CHILD_CHECK_INT(child_mem_total(0), GiB(128));
    int32_t c = -1;
    CHILD_OK(aclrtCheckArchCompatibility("Ascend950DT_95A2", &c));
    CHILD_CHECK_INT(c, 1);
    CHILD_OK(aclrtCheckArchCompatibility("Ascend350_354f", &c));
    CHILD_CHECK_INT(c, 1);
    CHILD_OK(aclrtCheckArchCompatibility("Ascend910B3", &c));
    CHILD_CHECK_INT(c, 0);
}

static void child_310p(void)
{
    CHILD_CHECK(strcmp(aclrtGetSocName(), "Ascend310P3") == 0);
    const struct attr_want w[] = {
        {ACL_DEV_ATTR_AICPU_CORE_NUM, 7},
        {ACL_DEV_ATTR_AICORE_CORE_NUM, 8},
        {ACL_DEV_ATTR_CUBE_CORE_NUM, 0}, /* coupled cores */
        {ACL_DEV_ATTR_VECTOR_CORE_NUM, 7},
        {ACL_DEV_ATTR_WARP_SIZE, 0},
        {ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, 0},
        {ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, 24000000000ll},
        {ACL_DEV_ATTR_L2_CACHE_SIZE, MiB(16)},
        {ACL_DEV_ATTR_NPU_ARCH, 2002},
    };
    child_check_attrs(1, w, ARRAY_LEN(w));
    /* No cube cores to limit; vector cores 1..7. */
    CHILD_ERR(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_ERROR_RT_PARAM_INVALID,
              "cube core limit 1 is outside 1..0");
    CHILD_OK(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, 7));
    CHILD_ERR(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, 8), ACL_ERROR_RT_PARAM_INVALID, "1..7");
    /* No bfloat16 on arch 2002: the list holds INF_NAN only. */
    int32_t a = -1;
    CHILD_OK(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &a));
    CHILD_CHECK_INT(a, 0);
    const aclCannAttr *list = NULL;
    size_t n = 99;
    CHILD_OK(aclGetCannAttributeList(&list, &n));
    CHILD_CHECK_INT(n, 1);
    CHILD_CHECK_INT(list[0], ACL_CANN_ATTR_INF_NAN);
}

/* OACL_DEVICE_MEMORY sets the capacity that both queries report, and the
 * memory utilisation follows real use of it. */
static void child_memory(void)
{
    int64_t cap = 0;
    CHILD_OK(aclrtGetDeviceInfo(2, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &cap));
    CHILD_CHECK_INT(cap, MiB(64));
    CHILD_CHECK_INT(child_mem_total(2), MiB(64));
    CHILD_OK(aclrtSetDevice(2));
    aclrtUtilizationInfo u;
    memset(&u, 0x7f, sizeof(u));
    u.utilizationExtend = NULL;
    CHILD_OK(aclrtGetDeviceUtilizationRate(2, &u));
    CHILD_CHECK_INT(u.memoryUtilization, 0);
    void *p = NULL;
    CHILD_OK(aclrtMalloc(&p, (size_t)MiB(16), ACL_MEM_MALLOC_HUGE_FIRST));
    size_t free_b = 0, total = 0;
    CHILD_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
    uint64_t used = total - free_b;
    CHILD_CHECK(used >= (uint64_t)MiB(16));
    CHILD_OK(aclrtGetDeviceUtilizationRate(2, &u));
    CHILD_CHECK_INT(u.memoryUtilization, (used * 100 + total - 1) / total);
    CHILD_CHECK(u.memoryUtilization >= 25 && u.memoryUtilization <= 26);
    CHILD_CHECK_INT(u.cubeUtilization, 0);
    CHILD_CHECK_INT(u.vectorUtilization, 0);
    CHILD_CHECK_INT(u.aicpuUtilization, 0);
    /* Other devices are not affected. */
    CHILD_OK(aclrtGetDeviceUtilizationRate(3, &u));
    CHILD_CHECK_INT(u.memoryUtilization, 0);
    CHILD_OK(aclrtFree(p));
    CHILD_OK(aclrtGetDeviceUtilizationRate(2, &u));
    CHILD_CHECK_INT(u.memoryUtilization, 0);
    CHILD_OK(aclrtResetDevice(2));
}

/* Without a SoC profile nothing can be answered. */
static void child_bad_soc(void)
{
    int64_t v = 5;
    CHILD_ERR(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &v), ACL_ERROR_RT_SOC_VERSION, "NoSuchSoc");
    CHILD_CHECK_INT(v, 5);
    int32_t c = 5;
    CHILD_ERR(aclrtCheckArchCompatibility("Ascend910B3", &c), ACL_ERROR_RT_SOC_VERSION, "NoSuchSoc");
    CHILD_ERR(aclGetCannAttribute(ACL_CANN_ATTR_INF_NAN, &c), ACL_ERROR_RT_SOC_VERSION, "NoSuchSoc");
    const aclCannAttr *list = NULL;
    size_t n = 5;
    CHILD_ERR(aclGetCannAttributeList(&list, &n), ACL_ERROR_RT_SOC_VERSION, "NoSuchSoc");
    CHILD_CHECK_INT(c, 5);
    CHILD_CHECK_INT(n, 5);
}

static const struct oacl_child_mode g_modes[] = {
    {"910b3", child_910b3}, {"950", child_950},       {"310p", child_310p},
    {"memory", child_memory}, {"bad_soc", child_bad_soc},
};

static void run_child(const char *mode, const char *soc, const char *mem)
{
    char soc_env[64], mem_env[64];
    snprintf(soc_env, sizeof(soc_env), "OACL_SOC=%s", soc);
    snprintf(mem_env, sizeof(mem_env), mem ? "OACL_DEVICE_MEMORY=%s" : "OACL_DEVICE_MEMORY", mem);
    const char *env[] = {soc_env, mem_env, "OACL_DEVICE_COUNT", NULL};
    assert_int_equal(oacl_run_child(mode, env, NULL, 0), 0);
}

static void test_profile_910b3(void **state) { (void)state, run_child("910b3", "Ascend910B3", NULL); }
static void test_profile_950(void **state) { (void)state, run_child("950", "Ascend950PR_9599", NULL); }
static void test_profile_310p(void **state) { (void)state, run_child("310p", "Ascend310P3", NULL); }
static void test_configured_memory(void **state) { (void)state, run_child("memory", "Ascend910B3", "64M"); }
static void test_no_profile(void **state) { (void)state, run_child("bad_soc", "NoSuchSoc", NULL); }

/* ---- aclrtGetDeviceInfo / aclGetDeviceCapability --------------------------------------------- */

/* Queries need no set device and change nothing. */
static void test_device_info_without_set(void **state)
{
    (void)state;
    for (int32_t d = 0; d < NDEV; d++) {
        assert_true(info(d, ACL_DEV_ATTR_AICORE_CORE_NUM) > 0);
        assert_int_equal(info(d, ACL_DEV_ATTR_PHY_CHIP_ID), d);
        assert_int_equal(info(d, ACL_DEV_ATTR_IS_VIRTUAL), 0);
        /* The deprecated spellings are the same attributes. */
        assert_int_equal(info(d, ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE), info(d, ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE));
        assert_int_equal(info(d, ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID), d);
        assert_int_equal(primary_active(d), 0);
    }
    int32_t dev = -1;
    ACL_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice");
}

static void test_device_info_errors(void **state)
{
    (void)state;
    int64_t v = 99;
    ACL_ERR(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtGetDeviceInfo: value is NULL");
    static const uint32_t bad_dev[] = {NDEV, NDEV + 1, 64, INT32_MAX, (uint32_t)INT32_MAX + 1u, UINT32_MAX};
    for (size_t i = 0; i < ARRAY_LEN(bad_dev); i++) {
        char want[96];
        snprintf(want, sizeof(want), "aclrtGetDeviceInfo: device id %u is out of range 0..7", bad_dev[i]);
        ACL_ERR(aclrtGetDeviceInfo(bad_dev[i], ACL_DEV_ATTR_NPU_ARCH, &v), ACL_ERROR_RT_PARAM_INVALID, want);
    }
    static const int bad_attr[] = {0, 2, 100, 103, 200, 213, 300, 303, 400, 410, 500, 502, 600, 602, -1, 1 << 30};
    for (size_t i = 0; i < ARRAY_LEN(bad_attr); i++) {
        char want[96];
        snprintf(want, sizeof(want), "attr %d is not a device attribute", bad_attr[i]);
        ACL_ERR(aclrtGetDeviceInfo(0, (aclrtDevAttr)bad_attr[i], &v), ACL_ERROR_RT_PARAM_INVALID, want);
    }
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(v, 99);
    assert_int_equal(primary_active(0), 0);
}

static void test_acl_get_device_capability(void **state)
{
    (void)state;
    int64_t v = -1;
    ACL_OK(aclGetDeviceCapability(4, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
    assert_int_equal(v, info(4, ACL_DEV_ATTR_AICORE_CORE_NUM));
    ACL_OK(aclGetDeviceCapability(4, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v));
    assert_int_equal(v, info(4, ACL_DEV_ATTR_VECTOR_CORE_NUM));
    ACL_OK(aclGetDeviceCapability(4, ACL_DEVICE_INFO_L2_SIZE, &v));
    assert_int_equal(v, info(4, ACL_DEV_ATTR_L2_CACHE_SIZE));

    v = 42;
    ACL_ERR(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, NULL), ACL_ERROR_INVALID_PARAM, "value is NULL");
    ACL_ERR(aclGetDeviceCapability(NDEV, ACL_DEVICE_INFO_L2_SIZE, &v), ACL_ERROR_RT_PARAM_INVALID,
            "aclGetDeviceCapability: device id 8 is out of range");
    ACL_ERR(aclGetDeviceCapability(UINT32_MAX, ACL_DEVICE_INFO_L2_SIZE, &v), ACL_ERROR_RT_PARAM_INVALID,
            "out of range");
    ACL_ERR(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &v), ACL_ERROR_RT_PARAM_INVALID,
            "deviceInfo -1 is not AI_CORE_NUM");
    ACL_ERR(aclGetDeviceCapability(0, (aclDeviceInfo)3, &v), ACL_ERROR_RT_PARAM_INVALID, "deviceInfo 3");
    assert_int_equal(v, 42);
}

static void test_rt_get_device_capability(void **state)
{
    (void)state;
    int32_t v = -1;
    ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMORY_ACCESS_HOST_MEMORY, &v));
    assert_int_equal(v, ACL_DEV_FEATURE_SUPPORT);
    ACL_OK(aclrtGetDeviceCapability(7, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
    assert_int_equal(v, ACL_DEV_FEATURE_NOT_SUPPORT);

    v = 42;
    ACL_ERR(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMORY_ACCESS_HOST_MEMORY, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtGetDeviceCapability: value is NULL");
    ACL_ERR(aclrtGetDeviceCapability(-1, ACL_FEATURE_SYSTEM_MEMORY_ACCESS_HOST_MEMORY, &v),
            ACL_ERROR_RT_PARAM_INVALID, "device id -1 is out of range");
    ACL_ERR(aclrtGetDeviceCapability(NDEV, ACL_FEATURE_SYSTEM_MEMORY_ACCESS_HOST_MEMORY, &v),
            ACL_ERROR_RT_PARAM_INVALID, "device id 8 is out of range");
    static const int bad[] = {0, 2, 20, 22, -1};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++)
        ACL_ERR(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)bad[i], &v), ACL_ERROR_RT_PARAM_INVALID,
                "is not a known feature");
    assert_int_equal(v, 42);
}

static void test_stream_priority_range(void **state)
{
    (void)state;
    int32_t least = -1, greatest = -1;
    ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    assert_int_equal(least, 7);
    assert_int_equal(greatest, 0);
    least = greatest = -1;
    ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, NULL));
    assert_int_equal(least, 7);
    ACL_OK(aclrtDeviceGetStreamPriorityRange(NULL, &greatest));
    assert_int_equal(greatest, 0);
    ACL_OK(aclrtDeviceGetStreamPriorityRange(NULL, NULL));
}

static void test_query_device_status(void **state)
{
    (void)state;
    for (int32_t d = 0; d < NDEV; d++) {
        aclrtDeviceStatus s = ACL_RT_DEVICE_STATUS_END;
        ACL_OK(aclrtQueryDeviceStatus(d, &s));
        assert_int_equal(s, ACL_RT_DEVICE_STATUS_NORMAL);
    }
    aclrtDeviceStatus s = ACL_RT_DEVICE_STATUS_END;
    ACL_ERR(aclrtQueryDeviceStatus(0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtQueryDeviceStatus: deviceStatus is NULL");
    ACL_ERR(aclrtQueryDeviceStatus(-1, &s), ACL_ERROR_RT_PARAM_INVALID, "device id -1 is out of range");
    ACL_ERR(aclrtQueryDeviceStatus(NDEV, &s), ACL_ERROR_RT_PARAM_INVALID, "device id 8 is out of range");
    ACL_ERR(aclrtQueryDeviceStatus(INT32_MIN, &s), ACL_ERROR_RT_PARAM_INVALID, "out of range");
    assert_int_equal(s, ACL_RT_DEVICE_STATUS_END);
}

static void test_check_arch_compatibility(void **state)
{
    (void)state;
    const char *own = aclrtGetSocName();
    assert_non_null(own);
    int32_t c = -1;
    ACL_OK(aclrtCheckArchCompatibility(own, &c));
    assert_int_equal(c, 1);
    c = 7;
    ACL_ERR(aclrtCheckArchCompatibility(NULL, &c), ACL_ERROR_INVALID_PARAM,
            "aclrtCheckArchCompatibility: socVersion is NULL");
    ACL_ERR(aclrtCheckArchCompatibility(own, NULL), ACL_ERROR_INVALID_PARAM, "canCompatible is NULL");
    ACL_ERR(aclrtCheckArchCompatibility("Ascend999", &c), ACL_ERROR_RT_PARAM_INVALID,
            "socVersion 'Ascend999' names no SoC oacl knows");
    ACL_ERR(aclrtCheckArchCompatibility("", &c), ACL_ERROR_RT_PARAM_INVALID, "names no SoC");
    /* Exact names only (Ascend910B1 is known, ascend910b1 is not). */
    ACL_ERR(aclrtCheckArchCompatibility("ascend910b1", &c), ACL_ERROR_RT_PARAM_INVALID, "names no SoC");
    assert_int_equal(c, 7);
}

/* ---- peer access ---------------------------------------------------------------------------------- */

static void test_can_access_peer(void **state)
{
    (void)state;
    int32_t can = -1;
    ACL_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
    assert_int_equal(can, 1);
    can = -1;
    ACL_OK(aclrtDeviceCanAccessPeer(&can, 7, 2));
    assert_int_equal(can, 1);

    can = 9;
    /* Same device: 100000, checked before anything else. */
    ACL_ERR(aclrtDeviceCanAccessPeer(&can, 1, 1), ACL_ERROR_INVALID_PARAM,
            "aclrtDeviceCanAccessPeer: deviceId and peerDeviceId are both 1");
    ACL_ERR(aclrtDeviceCanAccessPeer(NULL, 1, 1), ACL_ERROR_INVALID_PARAM, "are both 1");
    ACL_ERR(aclrtDeviceCanAccessPeer(NULL, NDEV, NDEV), ACL_ERROR_INVALID_PARAM, "are both 8");
    /* A NULL output is a runtime-layer error here: 107000. */
    ACL_ERR(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_RT_PARAM_INVALID, "canAccessPeer is NULL");
    ACL_ERR(aclrtDeviceCanAccessPeer(NULL, 0, NDEV), ACL_ERROR_RT_PARAM_INVALID, "canAccessPeer is NULL");
    ACL_ERR(aclrtDeviceCanAccessPeer(&can, NDEV, 0), ACL_ERROR_RT_PARAM_INVALID, "device id 8 is out of range");
    ACL_ERR(aclrtDeviceCanAccessPeer(&can, 0, -1), ACL_ERROR_RT_PARAM_INVALID, "device id -1 is out of range");
    assert_int_equal(can, 9);
}

static void test_peer_access(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    assert_int_equal(peer_status(0, 1), 0);
    ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    assert_int_equal(peer_status(0, 1), 1);
    assert_int_equal(peer_status(1, 0), 0); /* one direction only */
    ACL_OK(aclrtDeviceEnablePeerAccess(1, 0)); /* again: fine */
    ACL_OK(aclrtDeviceEnablePeerAccess(7, 0));
    assert_int_equal(peer_status(0, 7), 1);

    /* Device-wide: an explicit context of device 0 sees and changes it. */
    aclrtContext c = NULL;
    ACL_OK(aclrtCreateContext(&c, 0));
    ACL_OK(aclrtDeviceDisablePeerAccess(7));
    assert_int_equal(peer_status(0, 7), 0);
    assert_int_equal(peer_status(0, 1), 1);
    ACL_OK(aclrtDeviceDisablePeerAccess(7)); /* not enabled: fine */
    ACL_OK(aclrtDestroyContext(c));

    /* The reverse direction, from a thread on device 1. */
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtDeviceEnablePeerAccess(0, 0));
    assert_int_equal(peer_status(1, 0), 1);
    assert_int_equal(peer_status(0, 1), 1);
    ACL_OK(aclrtDeviceDisablePeerAccess(0));
    assert_int_equal(peer_status(1, 0), 0);
    assert_int_equal(peer_status(0, 1), 1);
    ACL_OK(aclrtDeviceEnablePeerAccess(0, 0));

    /* The final reset of a device forgets access from and to it. */
    ACL_OK(aclrtSetDevice(2));
    ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ACL_OK(aclrtResetDevice(0));
    assert_int_equal(peer_status(0, 1), 0);
    assert_int_equal(peer_status(1, 0), 0);
    assert_int_equal(peer_status(2, 1), 1); /* unrelated pair kept */
}

static void test_peer_access_errors(void **state)
{
    (void)state;
    /* Check order of enable: flags, context, same device, range. */
    ACL_ERR(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_FEATURE_UNSUPPORTED,
            "aclrtDeviceEnablePeerAccess: flags 0x1 is reserved and must be 0");
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    ACL_ERR(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_CONTEXT_NULL, "current context");
    ACL_ERR(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_CONTEXT_NULL, "current context");
    ACL_OK(aclrtSetDevice(3));
    ACL_ERR(aclrtDeviceEnablePeerAccess(NDEV, 0x80000000u), ACL_ERROR_FEATURE_UNSUPPORTED, "flags 0x80000000");
    ACL_ERR(aclrtDeviceEnablePeerAccess(3, 0), ACL_ERROR_INVALID_PARAM, "peerDeviceId 3 is the current device");
    ACL_ERR(aclrtDeviceEnablePeerAccess(NDEV, 0), ACL_ERROR_RT_PARAM_INVALID, "device id 8 is out of range");
    ACL_ERR(aclrtDeviceEnablePeerAccess(-1, 0), ACL_ERROR_RT_PARAM_INVALID, "device id -1 is out of range");
    ACL_ERR(aclrtDeviceDisablePeerAccess(3), ACL_ERROR_INVALID_PARAM, "peerDeviceId 3 is the current device");
    ACL_ERR(aclrtDeviceDisablePeerAccess(NDEV), ACL_ERROR_RT_PARAM_INVALID, "device id 8 is out of range");
    ACL_ERR(aclrtDeviceDisablePeerAccess(INT32_MIN), ACL_ERROR_RT_PARAM_INVALID, "out of range");

    int32_t st = 5;
    ACL_ERR(aclrtDevicePeerAccessStatus(0, 1, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtDevicePeerAccessStatus: status is NULL");
    ACL_ERR(aclrtDevicePeerAccessStatus(NDEV, 1, &st), ACL_ERROR_RT_PARAM_INVALID, "device id 8 is out of range");
    ACL_ERR(aclrtDevicePeerAccessStatus(0, -1, &st), ACL_ERROR_RT_PARAM_INVALID, "device id -1 is out of range");
    ACL_ERR(aclrtDevicePeerAccessStatus(2, 2, &st), ACL_ERROR_INVALID_PARAM, "are both 2");
    assert_int_equal(st, 5);
    /* Nothing was recorded by the failures. */
    for (int32_t d = 0; d < NDEV; d++)
        if (d != 3)
            assert_int_equal(peer_status(3, d), 0);
}

/* ---- core limits ------------------------------------------------------------------------------------ */

static void test_res_limits(void **state)
{
    (void)state;
    uint32_t cubes = (uint32_t)info(2, ACL_DEV_ATTR_CUBE_CORE_NUM);
    uint32_t vectors = (uint32_t)info(2, ACL_DEV_ATTR_VECTOR_CORE_NUM);
    assert_true(cubes >= 2 && vectors >= 2);
    /* Unlimited: every core of the kind. */
    assert_int_equal(res_limit(2, ACL_RT_DEV_RES_CUBE_CORE), cubes);
    assert_int_equal(res_limit(2, ACL_RT_DEV_RES_VECTOR_CORE), vectors);
    ACL_OK(aclrtSetDeviceResLimit(2, ACL_RT_DEV_RES_VECTOR_CORE, 3));
    ACL_OK(aclrtSetDeviceResLimit(2, ACL_RT_DEV_RES_CUBE_CORE, 1));
    assert_int_equal(res_limit(2, ACL_RT_DEV_RES_VECTOR_CORE), 3);
    assert_int_equal(res_limit(2, ACL_RT_DEV_RES_CUBE_CORE), 1);
    assert_int_equal(res_limit(3, ACL_RT_DEV_RES_VECTOR_CORE), vectors); /* per device */
    ACL_OK(aclrtSetDeviceResLimit(2, ACL_RT_DEV_RES_VECTOR_CORE, vectors)); /* the whole range */
    assert_int_equal(res_limit(2, ACL_RT_DEV_RES_VECTOR_CORE), vectors);
    ACL_OK(aclrtSetDeviceResLimit(2, ACL_RT_DEV_RES_VECTOR_CORE, 1));
    /* The device figure is not the limit. */
    assert_int_equal(info(2, ACL_DEV_ATTR_VECTOR_CORE_NUM), vectors);
    ACL_OK(aclrtResetDeviceResLimit(2));
    assert_int_equal(res_limit(2, ACL_RT_DEV_RES_CUBE_CORE), cubes);
    assert_int_equal(res_limit(2, ACL_RT_DEV_RES_VECTOR_CORE), vectors);
    ACL_OK(aclrtResetDeviceResLimit(2)); /* nothing set: fine */

    /* The final reset of the device drops its limits; a non-final one not. */
    ACL_OK(aclrtSetDevice(2));
    ACL_OK(aclrtSetDevice(2));
    ACL_OK(aclrtSetDeviceResLimit(2, ACL_RT_DEV_RES_VECTOR_CORE, 2));
    ACL_OK(aclrtResetDevice(2));
    assert_int_equal(res_limit(2, ACL_RT_DEV_RES_VECTOR_CORE), 2);
    ACL_OK(aclrtResetDevice(2));
    assert_int_equal(res_limit(2, ACL_RT_DEV_RES_VECTOR_CORE), vectors);
}

static void test_res_limit_errors(void **state)
{
    (void)state;
    uint32_t vectors = (uint32_t)info(1, ACL_DEV_ATTR_VECTOR_CORE_NUM);
    ACL_OK(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, 4));
    char want[96];
    ACL_ERR(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, 0), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtSetDeviceResLimit: vector core limit 0 is outside 1..");
    snprintf(want, sizeof(want), "vector core limit %u is outside 1..%u", vectors + 1, vectors);
    ACL_ERR(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, vectors + 1), ACL_ERROR_RT_PARAM_INVALID, want);
    ACL_ERR(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, UINT32_MAX), ACL_ERROR_RT_PARAM_INVALID,
            "is outside 1..");
    ACL_ERR(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, 0), ACL_ERROR_RT_PARAM_INVALID,
            "cube core limit 0 is outside");
    ACL_ERR(aclrtSetDeviceResLimit(1, (aclrtDevResLimitType)2, 1), ACL_ERROR_RT_PARAM_INVALID,
            "type 2 is not CUBE_CORE or VECTOR_CORE");
    ACL_ERR(aclrtSetDeviceResLimit(1, (aclrtDevResLimitType)-1, 1), ACL_ERROR_RT_PARAM_INVALID, "type -1");
    /* Set-style: a bad device is 107001; query-style: 107000. */
    ACL_ERR(aclrtSetDeviceResLimit(NDEV, ACL_RT_DEV_RES_VECTOR_CORE, 1), ACL_ERROR_RT_INVALID_DEVICEID,
            "aclrtSetDeviceResLimit: device id 8 is out of range");
    ACL_ERR(aclrtResetDeviceResLimit(-1), ACL_ERROR_RT_INVALID_DEVICEID,
            "aclrtResetDeviceResLimit: device id -1 is out of range");
    ACL_ERR(aclrtResetDeviceResLimit(NDEV), ACL_ERROR_RT_INVALID_DEVICEID, "device id 8 is out of range");
    ACL_ERR(aclrtResetDeviceResLimit(INT32_MAX), ACL_ERROR_RT_INVALID_DEVICEID, "is out of range");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    uint32_t v = 77;
    ACL_ERR(aclrtGetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtGetDeviceResLimit: value is NULL");
    ACL_ERR(aclrtGetDeviceResLimit(NDEV, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_ERROR_RT_PARAM_INVALID,
            "device id 8 is out of range");
    ACL_ERR(aclrtGetDeviceResLimit(1, (aclrtDevResLimitType)5, &v), ACL_ERROR_RT_PARAM_INVALID, "type 5");
    assert_int_equal(v, 77);
    /* The limit set before the failures is still there. */
    assert_int_equal(res_limit(1, ACL_RT_DEV_RES_VECTOR_CORE), 4);
    ACL_OK(aclrtResetDeviceResLimit(1));
}

struct res_thread {
    int32_t dev;
    uint32_t got;
    aclError rc;
};

static void *res_thread_main(void *p)
{
    struct res_thread *t = p;
    t->rc = aclrtSetDevice(t->dev);
    if (t->rc == ACL_SUCCESS)
        t->rc = aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &t->got);
    if (t->rc == ACL_SUCCESS)
        t->rc = aclrtResetDevice(t->dev);
    return NULL;
}

static void test_res_in_current_thread(void **state)
{
    (void)state;
    uint32_t vectors = (uint32_t)info(0, ACL_DEV_ATTR_VECTOR_CORE_NUM);
    uint32_t cubes = (uint32_t)info(0, ACL_DEV_ATTR_CUBE_CORE_NUM);
    uint32_t v = 77;
    ACL_ERR(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_ERROR_RT_CONTEXT_NULL,
            "current context");
    ACL_OK(aclrtSetDevice(4));
    ACL_OK(aclrtSetDevice(5));
    ACL_OK(aclrtSetDeviceResLimit(4, ACL_RT_DEV_RES_VECTOR_CORE, 3));
    ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v));
    assert_int_equal(v, vectors); /* the thread is on device 5 */
    ACL_OK(aclrtSetDevice(4));
    ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v));
    assert_int_equal(v, 3);
    ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
    assert_int_equal(v, cubes);
    /* Another thread on device 4 sees the same device-wide limit. */
    struct res_thread t = {.dev = 4};
    oacl_test_run_thread(res_thread_main, &t);
    assert_int_equal(t.rc, ACL_SUCCESS);
    assert_int_equal(t.got, 3);

    v = 77;
    ACL_ERR(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, NULL), ACL_ERROR_INVALID_PARAM, "value is NULL");
    ACL_ERR(aclrtGetResInCurrentThread((aclrtDevResLimitType)2, &v), ACL_ERROR_RT_PARAM_INVALID, "type 2");
    assert_int_equal(v, 77);
    ACL_OK(aclrtResetDeviceForce(4));
    ACL_ERR(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_ERROR_RT_CONTEXT_NULL,
            "context was destroyed");
    assert_int_equal(v, 77);
}

/* Launches `concurrency` with `blocks` blocks on the current device and
 * returns the most blocks seen running at once. */
static uint32_t max_concurrency(uint32_t blocks, uint32_t limit)
{
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_devq", "concurrency", &bin, &f);
    struct test_buf b;
    test_buf_alloc(&b, 64);
    uint32_t polls = 1u << 20;
    const void *vals[] = {&b.dev, &limit, &polls};
    const size_t sizes[] = {sizeof(void *), sizeof(uint32_t), sizeof(uint32_t)};
    ACL_OK(test_launch(f, blocks, NULL, 3, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(NULL));
    volatile uint32_t *s = b.host;
    uint32_t max = s[1];
    assert_int_equal(s[0], 0);
    assert_int_equal(s[2], blocks);
    test_buf_free(&b);
    ACL_OK(aclrtBinaryUnLoad(bin));
    return max;
}

/* A vector-core limit bounds how many blocks of a launch run at once. */
static void test_res_limit_applies_to_launches(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1));
    assert_int_equal(max_concurrency(12, 1), 1);
    ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 2));
    assert_true(max_concurrency(12, 2) <= 2);
    /* A limit on another device does not concern device 0's launches, and
       the limit in force is the one at launch time. */
    ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1));
    ACL_OK(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, 3));
    assert_int_equal(max_concurrency(8, 1), 1);
    ACL_OK(aclrtResetDeviceResLimit(0));
    uint32_t unlimited = max_concurrency(8, 1);
    assert_true(unlimited >= 1 && unlimited <= 8);
    print_message("blocks at once without a limit: %u\n", unlimited);
}

/* ---- utilisation --------------------------------------------------------------------------------------- */

static void test_utilization(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(6));
    void *p = NULL;
    ACL_OK(aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t free_b = 0, total = 0;
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
    uint64_t used = total - free_b;
    aclrtUtilizationInfo u;
    memset(&u, 0x55, sizeof(u));
    aclrtUtilizationExtendInfo *ext = (aclrtUtilizationExtendInfo *)&u; /* any caller value */
    u.utilizationExtend = ext;
    ACL_OK(aclrtGetDeviceUtilizationRate(6, &u));
    assert_int_equal(u.memoryUtilization, (int32_t)((used * 100 + total - 1) / total));
    assert_true(u.memoryUtilization >= 1); /* any use shows */
    assert_int_equal(u.cubeUtilization, 0);
    assert_int_equal(u.vectorUtilization, 0);
    assert_int_equal(u.aicpuUtilization, 0);
    assert_ptr_equal(u.utilizationExtend, ext); /* left as the caller set it */
    ACL_OK(aclrtFree(p));

    memset(&u, 0x55, sizeof(u));
    aclrtUtilizationInfo before = u;
    ACL_ERR(aclrtGetDeviceUtilizationRate(6, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtGetDeviceUtilizationRate: utilizationInfo is NULL");
    ACL_ERR(aclrtGetDeviceUtilizationRate(NDEV, &u), ACL_ERROR_RT_PARAM_INVALID, "device id 8 is out of range");
    ACL_ERR(aclrtGetDeviceUtilizationRate(-1, &u), ACL_ERROR_RT_PARAM_INVALID, "device id -1 is out of range");
    assert_memory_equal(&u, &before, sizeof(u));
}

/* ---- aclrtSynchronizeDevice ---------------------------------------------------------------------------- */

/* It waits for the default stream and every created stream of the current
 * context, and only those. */
static void test_sync_device_covers_streams(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(1));
    aclrtStream s1 = NULL, s2 = NULL;
    ACL_OK(aclrtCreateStream(&s1));
    ACL_OK(aclrtCreateStream(&s2));
    ACL_OK(aclrtSynchronizeDevice()); /* nothing queued */
    struct gate g0, g1, g2;
    gate_init(&g0);
    gate_init(&g1);
    gate_init(&g2);
    ACL_OK(aclrtLaunchHostFunc(NULL, gate_fn, &g0));
    ACL_OK(aclrtLaunchHostFunc(s1, gate_fn, &g1));
    ACL_OK(aclrtLaunchHostFunc(s2, gate_fn, &g2));
    /* Work on another context of the device is not waited for. */
    aclrtContext dflt = NULL, other = NULL;
    ACL_OK(aclrtGetCurrentContext(&dflt));
    ACL_OK(aclrtCreateContext(&other, 1));
    struct gate go;
    gate_init(&go);
    ACL_OK(aclrtLaunchHostFunc(NULL, gate_fn, &go));
    ACL_OK(aclrtSetCurrentContext(dflt));

    /* Each stream holds the device up until its work is done. */
    ACL_ERR(aclrtSynchronizeDeviceWithTimeout(10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
            "aclrtSynchronizeDeviceWithTimeout: stream");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    sem_post(&g0.go);
    ACL_ERR(aclrtSynchronizeDeviceWithTimeout(10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "still has work after 10 ms");
    sem_post(&g2.go);
    ACL_ERR(aclrtSynchronizeDeviceWithTimeout(10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "still has work");
    assert_int_equal(gate_ran(&g1), 0);
    sem_post(&g1.go);
    ACL_OK(aclrtSynchronizeDevice());
    assert_int_equal(gate_ran(&g0) + gate_ran(&g1) + gate_ran(&g2), 3);
    /* The other context's work is still held by its gate. */
    assert_int_equal(gate_ran(&go), 0);
    ACL_OK(aclrtSynchronizeDeviceWithTimeout(1000));
    ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));

    ACL_OK(aclrtSetCurrentContext(other));
    ACL_ERR(aclrtSynchronizeDeviceWithTimeout(10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "still has work");
    sem_post(&go.go);
    ACL_OK(aclrtSynchronizeDevice());
    assert_int_equal(gate_ran(&go), 1);
    ACL_OK(aclrtDestroyContext(other));
    /* s1 and s2 go with the device's reset. */
    sem_destroy(&g0.go);
    sem_destroy(&g1.go);
    sem_destroy(&g2.go);
    sem_destroy(&go.go);
}

static void test_sync_device_errors(void **state)
{
    (void)state;
    ACL_ERR(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL, "current context");
    ACL_ERR(aclrtSynchronizeDeviceWithTimeout(100), ACL_ERROR_RT_CONTEXT_NULL, "current context");
    ACL_OK(aclrtSetDevice(2));
    struct gate g;
    gate_init(&g);
    ACL_OK(aclrtLaunchHostFunc(NULL, gate_fn, &g));
    static const int32_t bad[] = {0, -2, -1000, INT32_MIN};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char want[96];
        snprintf(want, sizeof(want), "timeout %d is neither -1 (no limit) nor > 0 ms", bad[i]);
        ACL_ERR(aclrtSynchronizeDeviceWithTimeout(bad[i]), ACL_ERROR_RT_PARAM_INVALID, want);
        assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    }
    /* Rejected without waiting: the work is still held. */
    assert_int_equal(gate_ran(&g), 0);
    sem_post(&g.go);
    ACL_OK(aclrtSynchronizeDevice());
    assert_int_equal(gate_ran(&g), 1);
    sem_destroy(&g.go);
    ACL_OK(aclrtResetDevice(2));
    ACL_ERR(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL, "context was destroyed");
}

static void launch_trap(aclrtFuncHandle trap, aclrtStream s, struct test_buf *b)
{
    uint32_t bad = 1;
    const void *vals[] = {&b->dev, &bad};
    const size_t sizes[] = {sizeof(void *), sizeof(uint32_t)};
    ACL_OK(test_launch(trap, 4, s, 2, vals, sizes));
}

static aclrtErrorInfo error_verbose(int32_t dev)
{
    aclrtErrorInfo e;
    memset(&e, 0xa5, sizeof(e));
    ACL_OK(aclrtGetErrorVerbose(dev, &e));
    return e;
}

static void assert_no_fault(int32_t dev)
{
    aclrtErrorInfo e = error_verbose(dev);
    aclrtErrorInfo zero;
    memset(&zero, 0, sizeof(zero));
    assert_int_equal(e.errorType, ACL_RT_NO_ERROR);
    assert_memory_equal(&e, &zero, sizeof(e));
}

/* A kernel failure on any stream of the context is the result, once. */
static void test_sync_device_reports_failures(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(3));
    aclrtBinHandle bin;
    aclrtFuncHandle trap;
    test_load("rt_faults", "trap_kernel", &bin, &trap);
    struct test_buf b;
    test_buf_alloc(&b, 64);
    aclrtStream s1 = NULL, s2 = NULL;
    ACL_OK(aclrtCreateStream(&s1));
    ACL_OK(aclrtCreateStream(&s2));
    assert_no_fault(3);

    launch_trap(trap, s1, &b);
    ACL_ERR(aclrtSynchronizeDevice(), ACL_ERROR_RT_AICORE_EXCEPTION, "aclrtSynchronizeDevice: stream");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_EXCEPTION);
    ACL_OK(aclrtSynchronizeDevice()); /* reported once */

    /* Two failing streams: the first is the result, both are described,
       and neither is left for later. */
    launch_trap(trap, NULL, &b);
    launch_trap(trap, s2, &b);
    oacl_test_clear_msgs();
    assert_int_equal(aclrtSynchronizeDeviceWithTimeout(60000), ACL_ERROR_RT_AICORE_EXCEPTION);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_non_null(strstr(m, "also failed"));
    ACL_OK(aclrtSynchronizeDevice());
    ACL_OK(aclrtSynchronizeStream(s2));

    ACL_OK(aclrtDestroyStream(s1));
    ACL_OK(aclrtDestroyStream(s2));
    test_buf_free(&b);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* ---- aclrtGetErrorVerbose ------------------------------------------------------------------------------- */

static void test_error_verbose(void **state)
{
    (void)state;
    for (int32_t d = 0; d < NDEV; d++)
        assert_no_fault(d);
    ACL_OK(aclrtSetDevice(4));
    ACL_OK(aclrtSetDevice(5));
    aclrtBinHandle bin;
    aclrtFuncHandle trap;
    test_load("rt_faults", "trap_kernel", &bin, &trap);
    struct test_buf b;
    test_buf_alloc(&b, 64);
    launch_trap(trap, NULL, &b);
    ACL_ERR(aclrtSynchronizeDevice(), ACL_ERROR_RT_AICORE_EXCEPTION, "trap");

    aclrtErrorInfo e = error_verbose(5);
    assert_int_equal(e.errorType, ACL_RT_ERROR_AICORE);
    assert_int_equal(e.hasDetail, 1);
    assert_int_equal(e.tryRepair, 0);
    assert_int_equal(e.reserved[0] + e.reserved[1], 0);
    assert_int_equal(e.detail.aicoreErrType, ACL_RT_AICORE_ERROR_SW);
    /* It stays described; other devices are not concerned. */
    e = error_verbose(5);
    assert_int_equal(e.errorType, ACL_RT_ERROR_AICORE);
    assert_no_fault(4);

    aclrtErrorInfo before;
    memset(&before, 0x3c, sizeof(before));
    e = before;
    ACL_ERR(aclrtGetErrorVerbose(5, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetErrorVerbose: errorInfo is NULL");
    ACL_ERR(aclrtGetErrorVerbose(NDEV, &e), ACL_ERROR_RT_INVALID_DEVICEID, "device id 8 is out of range");
    ACL_ERR(aclrtGetErrorVerbose(-1, &e), ACL_ERROR_RT_INVALID_DEVICEID, "device id -1 is out of range");
    ACL_ERR(aclrtGetErrorVerbose(INT32_MAX, &e), ACL_ERROR_RT_INVALID_DEVICEID, "out of range");
    assert_memory_equal(&e, &before, sizeof(e));

    test_buf_free(&b);
    ACL_OK(aclrtBinaryUnLoad(bin));
    /* The device's final reset forgets the fault. */
    ACL_OK(aclrtResetDevice(5));
    assert_no_fault(5);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_910b3),
        cmocka_unit_test(test_profile_950),
        cmocka_unit_test(test_profile_310p),
        cmocka_unit_test(test_configured_memory),
        cmocka_unit_test(test_no_profile),
        cmocka_unit_test_teardown(test_device_info_without_set, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_device_info_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_acl_get_device_capability, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_rt_get_device_capability, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_stream_priority_range, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_query_device_status, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_check_arch_compatibility, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_can_access_peer, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_peer_access, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_peer_access_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_res_limits, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_res_limit_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_res_in_current_thread, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_res_limit_applies_to_launches, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_utilization, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_sync_device_covers_streams, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_sync_device_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_sync_device_reports_failures, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_error_verbose, oacl_test_reset_fixture),
    };
    return cmocka_run_group_tests(tests, oacl_test_reset_fixture, NULL);
}
