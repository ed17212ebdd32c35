/*
 * Configured and cached allocation (memory-extras spec §3.1):
 * aclrtMallocCached, aclrtMallocWithCfg, aclrtMallocForTaskScheduler,
 * aclrtMallocHostWithCfg (with the identity mapping of VA_FLAG),
 * aclrtFreeWithDevSync, aclrtFreeHostWithDevSync.
 */
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "mem_extras_util.h"

static aclrtBinHandle g_misc, g_faults;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_misc) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_faults"), NULL, &g_faults))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_faults);
    aclrtBinaryUnLoad(g_misc);
    return aclrtResetDeviceForce(0);
}

static uint32_t page_size_of(const void *p)
{
    aclrtPtrAttributes a;
    ACL_OK(aclrtPointerGetAttributes(p, &a));
    return a.pageSize;
}

static aclrtMemLocationType location_of(const void *p)
{
    aclrtPtrAttributes a;
    ACL_OK(aclrtPointerGetAttributes(p, &a));
    return a.location.type;
}

/* ---- aclrtMallocCached -------------------------------------------------------------- */

static void test_malloc_cached(void **state)
{
    (void)state;
    size_t before = dev_free_bytes();
    void *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    /* Like aclrtMalloc: rounded to 32 and padded by 32. */
    ACL_OK(aclrtMallocCached(&a, 100, ACL_MEM_MALLOC_HUGE_FIRST));
    assert_int_equal(before - dev_free_bytes(), 160);
    assert_int_equal((uintptr_t)a % 64, 0);
    assert_int_equal(location_of(a), ACL_MEM_LOCATION_TYPE_DEVICE);
    memset(a, 7, 160);
    /* Known policies are kept (NORMAL_ONLY: 4 KiB pages even for 4 MiB). */
    ACL_OK(aclrtMallocCached(&b, 4u << 20, ACL_MEM_MALLOC_NORMAL_ONLY));
    assert_int_equal(page_size_of(b), 4096);
    /* Others are the default policy: a P2P policy gives huge pages here,
       where aclrtMalloc keeps NORMAL_ONLY_P2P (4 KiB). */
    ACL_OK(aclrtMallocCached(&c, 4u << 20, ACL_MEM_MALLOC_NORMAL_ONLY_P2P));
    assert_int_equal(page_size_of(c), 2u << 20);
    ACL_OK(aclrtMalloc(&d, 4u << 20, ACL_MEM_MALLOC_NORMAL_ONLY_P2P));
    assert_int_equal(page_size_of(d), 4096);
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtFree(c));
    ACL_OK(aclrtFree(b));
    /* HUGE1G_ONLY is not padded. */
    size_t mid = dev_free_bytes();
    ACL_OK(aclrtMallocCached(&b, 100, ACL_MEM_MALLOC_HUGE1G_ONLY));
    assert_int_equal(mid - dev_free_bytes(), 128);
    assert_int_equal(page_size_of(b), 1u << 30);
    ACL_OK(aclrtFreeWithDevSync(b));
    ACL_OK(aclrtFree(a));
    assert_int_equal(dev_free_bytes(), before);
}

static aclError cached_call(void)
{
    void *p = NULL;
    return aclrtMallocCached(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
}

static void test_malloc_cached_bad(void **state)
{
    (void)state;
    size_t before = dev_free_bytes();
    void *p = SENTINEL_PTR;
    ACL_ERR(aclrtMallocCached(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    ACL_ERR(aclrtMallocCached(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtMallocCached(&p, (size_t)1 << 50, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
            "aclrtMallocCached");
    expect_on_bare_thread(cached_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtMallocCached");
    assert_ptr_equal(p, SENTINEL_PTR);
    assert_int_equal(dev_free_bytes(), before);
}

/* ---- aclrtMallocWithCfg / aclrtMallocForTaskScheduler ------------------------------------ */

typedef aclError (*cfg_alloc_fn)(void **, size_t, aclrtMemMallocPolicy, aclrtMallocConfig *);

static void check_cfg_alloc(cfg_alloc_fn alloc)
{
    size_t before = dev_free_bytes();
    void *p = NULL;
    /* No 32-byte padding, unlike aclrtMalloc (correction C1). */
    ACL_OK(alloc(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
    assert_int_equal(before - dev_free_bytes(), 128);
    assert_int_equal(location_of(p), ACL_MEM_LOCATION_TYPE_DEVICE);
    ACL_OK(aclrtFree(p));
    /* Attributes: RSV ignored, MODULE_ID tags, DEVICE_ID = current device. */
    aclrtMallocAttribute attrs[3];
    memset(attrs, 0, sizeof(attrs));
    attrs[0].attr = ACL_RT_MEM_ATTR_RSV;
    attrs[1].attr = ACL_RT_MEM_ATTR_MODULE_ID;
    attrs[1].value.moduleId = 33;
    attrs[2].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    attrs[2].value.deviceId = 0;
    aclrtMallocConfig cfg = {attrs, 3};
    ACL_OK(alloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
    ACL_OK(aclrtFree(p));
    /* numAttrs 0 with attrs NULL is no configuration. */
    aclrtMallocConfig empty = {NULL, 0};
    ACL_OK(alloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &empty));
    ACL_OK(aclrtFree(p));
    /* The low byte is the page policy, modifiers are kept... */
    ACL_OK(alloc(&p, 4u << 20, (aclrtMemMallocPolicy)(ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_HIGH_BAND_WIDTH),
                 NULL));
    assert_int_equal(page_size_of(p), 4096);
    ACL_OK(aclrtFree(p));
    /* ...and a low byte outside the policies is the default (huge pages). */
    ACL_OK(alloc(&p, 4u << 20, (aclrtMemMallocPolicy)(0x09 | ACL_MEM_TYPE_LOW_BAND_WIDTH), NULL));
    assert_int_equal(page_size_of(p), 2u << 20);
    ACL_OK(aclrtFree(p));
    assert_int_equal(dev_free_bytes(), before);
}

static void check_cfg_alloc_bad(cfg_alloc_fn alloc, const char *name)
{
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    size_t before = dev_free_bytes();
    void *p = SENTINEL_PTR;
    aclrtMallocAttribute a;
    memset(&a, 0, sizeof(a));
    aclrtMallocConfig cfg = {&a, 1};
    ACL_ERR(alloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    aclrtMallocConfig no_attrs = {NULL, 1};
    ACL_ERR(alloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &no_attrs), ACL_ERROR_INVALID_PARAM, "cfg->attrs is NULL");
    /* attrs NULL comes before size 0 */
    ACL_ERR(alloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, &no_attrs), ACL_ERROR_INVALID_PARAM, "cfg->attrs is NULL");
    ACL_ERR(alloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_INVALID_PARAM, "size is 0");
    a.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    a.value.deviceId = 1;
    ACL_ERR(alloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_PARAM_INVALID,
            "ACL_RT_MEM_ATTR_DEVICE_ID 1 is not the current device 0");
    a.attr = ACL_RT_MEM_ATTR_VA_FLAG;
    a.value.vaFlag = 1;
    ACL_ERR(alloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_PARAM_INVALID, "ACL_RT_MEM_ATTR_VA_FLAG");
    a.attr = (aclrtMallocAttrType)4;
    ACL_ERR(alloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_PARAM_INVALID, "kind 4 is unknown");
    /* A later attribute of a kind overrides an earlier one. */
    aclrtMallocAttribute two[2];
    memset(two, 0, sizeof(two));
    two[0].attr = two[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    two[0].value.deviceId = 0;
    two[1].value.deviceId = 1;
    aclrtMallocConfig cfg2 = {two, 2};
    ACL_ERR(alloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg2), ACL_ERROR_RT_PARAM_INVALID, "not the current device");
    ACL_ERR(alloc(&p, (size_t)1 << 50, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_RT_MEMORY_ALLOCATION, name);
    assert_ptr_equal(p, SENTINEL_PTR);
    assert_int_equal(dev_free_bytes(), before);
    two[0].value.deviceId = 1;
    two[1].value.deviceId = 0;
    ACL_OK(alloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg2));
    ACL_OK(aclrtFree(p));
    ACL_OK(aclrtResetDevice(1));
}

static aclError with_cfg_call(void)
{
    void *p = NULL;
    return aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL);
}

static aclError task_sched_call(void)
{
    void *p = NULL;
    return aclrtMallocForTaskScheduler(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL);
}

static void test_malloc_with_cfg(void **state)
{
    (void)state;
    check_cfg_alloc(aclrtMallocWithCfg);
    check_cfg_alloc_bad(aclrtMallocWithCfg, "aclrtMallocWithCfg");
    expect_on_bare_thread(with_cfg_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtMallocWithCfg");
}

static void test_malloc_for_task_scheduler(void **state)
{
    (void)state;
    check_cfg_alloc(aclrtMallocForTaskScheduler);
    check_cfg_alloc_bad(aclrtMallocForTaskScheduler, "aclrtMallocForTaskScheduler");
    expect_on_bare_thread(task_sched_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtMallocForTaskScheduler");
}

/* Memory from the configured allocators is usable by kernels and copies. */
static void test_cfg_memory_in_use(void **state)
{
    (void)state;
    aclrtFuncHandle fill;
    ACL_OK(aclrtBinaryGetFunction(g_misc, "fill_u32", &fill));
    void *p = NULL, *q = NULL;
    ACL_OK(aclrtMallocWithCfg(&p, 4 * 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
    ACL_OK(aclrtMallocForTaskScheduler(&q, 4 * 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
    uint32_t value = 100, count = 16;
    const void *vals[] = {&p, &value, &count};
    size_t sizes[] = {8, 4, 4};
    ACL_OK(test_launch(fill, 4, NULL, 3, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtMemcpy(q, 256, p, 256, ACL_MEMCPY_DEVICE_TO_DEVICE));
    uint32_t out[64];
    ACL_OK(aclrtMemcpy(out, sizeof(out), q, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < 64; i++)
        assert_int_equal(out[i], 100 + i / 16);
    ACL_OK(aclrtFree(q));
    ACL_OK(aclrtFree(p));
}

/* ---- aclrtMallocHostWithCfg ------------------------------------------------------------ */

static void test_malloc_host_with_cfg(void **state)
{
    (void)state;
    void *h = NULL;
    ACL_OK(aclrtMallocHostWithCfg(&h, 100, NULL));
    assert_int_equal(location_of(h), ACL_MEM_LOCATION_TYPE_HOST);
    memset(h, 1, 100);
    /* Without VA_FLAG a mapping has its own device address. */
    void *d = NULL;
    ACL_OK(aclrtHostRegister(h, 4096, ACL_HOST_REGISTER_MAPPED, &d));
    assert_ptr_not_equal(d, h);
    ACL_OK(aclrtHostUnregister(h));
    ACL_OK(aclrtFreeHost(h));

    aclrtMallocAttribute attrs[2];
    memset(attrs, 0, sizeof(attrs));
    attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
    attrs[0].value.moduleId = 33;
    attrs[1].attr = ACL_RT_MEM_ATTR_VA_FLAG;
    attrs[1].value.vaFlag = 1;
    aclrtMallocConfig cfg = {attrs, 2};
    ACL_OK(aclrtMallocHostWithCfg(&h, 2 * 4096, &cfg));
    assert_int_equal(location_of(h), ACL_MEM_LOCATION_TYPE_HOST);
    /* VA_FLAG: the device address of the mapping is the host address. */
    ACL_OK(aclrtHostRegister(h, 2 * 4096, ACL_HOST_REGISTER_MAPPED, &d));
    assert_ptr_equal(d, h);
    ACL_OK(aclrtHostGetDevicePointer((char *)h + 4100, &d, 0));
    assert_ptr_equal(d, (char *)h + 4100);
    /* A kernel writes through it; the host sees the result in place. */
    aclrtFuncHandle fill;
    ACL_OK(aclrtBinaryGetFunction(g_misc, "fill_u32", &fill));
    memset(h, 0, 2 * 4096);
    uint32_t value = 5, count = 8;
    const void *vals[] = {&d, &value, &count};
    size_t sizes[] = {8, 4, 4};
    ACL_OK(test_launch(fill, 2, NULL, 3, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(NULL));
    const uint32_t *w = (const uint32_t *)((char *)h + 4100);
    assert_int_equal(w[0], 5);
    assert_int_equal(w[15], 6);
    assert_int_equal(w[16], 0);
    /* Async copies treat it as pinned memory. */
    void *dev = NULL;
    ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpyAsync(dev, 64, (char *)h + 4100, 64, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(((uint32_t *)dev)[8], 6);
    ACL_OK(aclrtFree(dev));
    ACL_OK(aclrtHostUnregister(h));
    /* The registration is gone; the memory is still there. */
    ACL_ERR(aclrtHostGetDevicePointer(h, &d, 0), ACL_ERROR_RT_PARAM_INVALID, "not inside");
    assert_int_equal(w[0], 5);
    ACL_OK(aclrtFreeHostWithDevSync(h));
    assert_int_equal(location_of(h), ACL_MEM_LOCATION_TYPE_UNREGISTERED);
}

static aclError host_cfg_call(void)
{
    void *p = NULL;
    return aclrtMallocHostWithCfg(&p, 64, NULL);
}

static void test_malloc_host_with_cfg_bad(void **state)
{
    (void)state;
    void *h = SENTINEL_PTR;
    aclrtMallocAttribute a;
    memset(&a, 0, sizeof(a));
    aclrtMallocConfig cfg = {&a, 1};
    ACL_ERR(aclrtMallocHostWithCfg(NULL, 64, NULL), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    ACL_ERR(aclrtMallocHostWithCfg(&h, 0, NULL), ACL_ERROR_INVALID_PARAM, "size is 0");
    /* attrs NULL is a runtime-layer error even with no attributes (C2). */
    aclrtMallocConfig no_attrs = {NULL, 0};
    ACL_ERR(aclrtMallocHostWithCfg(&h, 64, &no_attrs), ACL_ERROR_RT_PARAM_INVALID, "cfg->attrs is NULL");
    a.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    ACL_ERR(aclrtMallocHostWithCfg(&h, 64, &cfg), ACL_ERROR_RT_PARAM_INVALID, "not accepted for host memory");
    a.attr = ACL_RT_MEM_ATTR_RSV;
    ACL_ERR(aclrtMallocHostWithCfg(&h, 64, &cfg), ACL_ERROR_RT_PARAM_INVALID, "kind 0 is not accepted");
    a.attr = (aclrtMallocAttrType)7;
    ACL_ERR(aclrtMallocHostWithCfg(&h, 64, &cfg), ACL_ERROR_RT_PARAM_INVALID, "kind 7");
    expect_on_bare_thread(host_cfg_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtMallocHostWithCfg");
    assert_ptr_equal(h, SENTINEL_PTR);
}

/* ---- the frees that synchronise the device --------------------------------------------- */

static aclError free_dev_sync_call(void) { return aclrtFreeWithDevSync(SENTINEL_PTR); }
static aclError free_host_sync_call(void) { return aclrtFreeHostWithDevSync(SENTINEL_PTR); }

/* Queues a kernel that traps on stream s. */
static void queue_trap(aclrtStream s, void *out)
{
    aclrtFuncHandle trap;
    ACL_OK(aclrtBinaryGetFunction(g_faults, "trap_kernel", &trap));
    uint32_t bad = 0;
    const void *vals[] = {&out, &bad};
    size_t sizes[] = {8, 4};
    ACL_OK(test_launch(trap, 1, s, 2, vals, sizes));
}

static void test_free_with_dev_sync(void **state)
{
    (void)state;
    size_t before = dev_free_bytes();
    void *p = NULL, *h = NULL, *out = NULL;
    ACL_OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost(&h, 256));
    ACL_OK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    /* Work queued on another stream of the device is waited for. */
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtFuncHandle fill;
    ACL_OK(aclrtBinaryGetFunction(g_misc, "fill_u32", &fill));
    uint32_t value = 9, count = 4;
    const void *vals[] = {&out, &value, &count};
    size_t sizes[] = {8, 4, 4};
    ACL_OK(test_launch(fill, 4, s, 3, vals, sizes));

    /* A failed task: its error is the result and nothing is freed (C3). */
    queue_trap(s, out);
    ACL_ERR(aclrtFreeWithDevSync(p), ACL_ERROR_RT_AICORE_EXCEPTION, "was not freed");
    assert_int_equal(((uint32_t *)out)[15], 12); /* the earlier kernel ran */
    assert_int_equal(location_of(p), ACL_MEM_LOCATION_TYPE_DEVICE);
    memset(p, 3, 256);
    queue_trap(s, out);
    ACL_ERR(aclrtFreeHostWithDevSync(h), ACL_ERROR_RT_AICORE_EXCEPTION, "was not freed");
    assert_int_equal(location_of(h), ACL_MEM_LOCATION_TYPE_HOST);
    memset(h, 3, 256);

    /* Reported once: now they free. */
    ACL_OK(aclrtFreeWithDevSync(p));
    ACL_OK(aclrtFreeHostWithDevSync(h));
    assert_int_equal(location_of(p), ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    assert_int_equal(location_of(h), ACL_MEM_LOCATION_TYPE_UNREGISTERED);

    /* Bad inputs change nothing. */
    ACL_ERR(aclrtFreeWithDevSync(NULL), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    ACL_ERR(aclrtFreeWithDevSync(p), ACL_ERROR_RT_PARAM_INVALID, "was not allocated by aclrtMalloc");
    void *h2 = NULL;
    ACL_OK(aclrtMallocHost(&h2, 64));
    ACL_ERR(aclrtFreeWithDevSync(h2), ACL_ERROR_RT_PARAM_INVALID, "pinned host memory");
    ACL_ERR(aclrtFreeWithDevSync((char *)out + 32), ACL_ERROR_RT_PARAM_INVALID, "points inside");
    ACL_ERR(aclrtFreeHostWithDevSync(NULL), ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
    ACL_ERR(aclrtFreeHostWithDevSync(out), ACL_ERROR_RT_PARAM_INVALID, "device memory");
    ACL_ERR(aclrtFreeHostWithDevSync((char *)h2 + 8), ACL_ERROR_RT_PARAM_INVALID, "points inside");
    expect_on_bare_thread(free_dev_sync_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtFreeWithDevSync");
    expect_on_bare_thread(free_host_sync_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtFreeHostWithDevSync");
    assert_int_equal(location_of(out), ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(location_of(h2), ACL_MEM_LOCATION_TYPE_HOST);
    ACL_OK(aclrtFreeHostWithDevSync(h2));
    ACL_OK(aclrtFreeWithDevSync(out));
    ACL_OK(aclrtDestroyStream(s));
    assert_int_equal(dev_free_bytes(), before);
}

/* ---- profiles ------------------------------------------------------------------------------ */

/* Every function of this group exists on every profile; VA_FLAG is an
 * A2/A3 feature, accepted and ignored elsewhere (Decision 18). */
static void child_profile(void)
{
    CHILD_OK(aclrtSetDevice(0));
    const char *soc = getenv("OACL_SOC");
    bool a2a3 = strncmp(soc, "Ascend910B", 10) == 0 || strncmp(soc, "Ascend910_93", 12) == 0;
    void *p = NULL, *h = NULL, *d = NULL;
    CHILD_OK(aclrtMallocCached(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtFreeWithDevSync(p));
    CHILD_OK(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
    CHILD_OK(aclrtFree(p));
    CHILD_OK(aclrtMallocForTaskScheduler(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
    CHILD_OK(aclrtFree(p));
    aclrtMallocAttribute a;
    memset(&a, 0, sizeof(a));
    a.attr = ACL_RT_MEM_ATTR_VA_FLAG;
    a.value.vaFlag = 1;
    aclrtMallocConfig cfg = {&a, 1};
    CHILD_OK(aclrtMallocHostWithCfg(&h, 4096, &cfg));
    CHILD_OK(aclrtHostRegister(h, 4096, ACL_HOST_REGISTER_MAPPED, &d));
    CHILD_CHECK((d == h) == a2a3);
    CHILD_OK(aclrtHostUnregister(h));
    CHILD_OK(aclrtFreeHostWithDevSync(h));
    CHILD_OK(aclrtResetDevice(0));
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend910_9391");
    ASSERT_CHILD_OK("profile", "OACL_SOC=Ascend950PR_9599");
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
        cmocka_unit_test(test_malloc_cached),
        cmocka_unit_test(test_malloc_cached_bad),
        cmocka_unit_test(test_malloc_with_cfg),
        cmocka_unit_test(test_malloc_for_task_scheduler),
        cmocka_unit_test(test_cfg_memory_in_use),
        cmocka_unit_test(test_malloc_host_with_cfg),
        cmocka_unit_test(test_malloc_host_with_cfg_bad),
        cmocka_unit_test(test_free_with_dev_sync),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
