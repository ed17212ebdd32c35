/*
 * Custom allocator registry (memory-extras spec §3.5, acl_rt_allocator.h):
 * descriptors, registration per stream, lookup, unregistration. Pure
 * bookkeeping: the runtime never calls the callbacks (counted here through
 * launches, copies, fills and synchronisations).
 */
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "mem_extras_util.h"

static unsigned g_calls; /* callbacks invoked, by anyone */

static void *cb_alloc(aclrtAllocator a, size_t size)
{
    (void)a;
    (void)size;
    __atomic_add_fetch(&g_calls, 1, __ATOMIC_RELAXED);
    return NULL;
}
static void cb_free(aclrtAllocator a, aclrtAllocatorBlock b)
{
    (void)a;
    (void)b;
    __atomic_add_fetch(&g_calls, 1, __ATOMIC_RELAXED);
}
static void *cb_advise(aclrtAllocator a, size_t size, aclrtAllocatorAddr addr)
{
    (void)a;
    (void)size;
    (void)addr;
    __atomic_add_fetch(&g_calls, 1, __ATOMIC_RELAXED);
    return NULL;
}
static void *cb_get_addr(aclrtAllocatorBlock b)
{
    __atomic_add_fetch(&g_calls, 1, __ATOMIC_RELAXED);
    return b;
}
static void *cb_alloc2(aclrtAllocator a, size_t size)
{
    (void)a;
    (void)size;
    __atomic_add_fetch(&g_calls, 1, __ATOMIC_RELAXED);
    return NULL;
}

static int g_obj, g_obj2; /* the user's allocator objects */

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

/* A descriptor with the four required values (and optionally advise). */
static aclrtAllocatorDesc full_desc(bool with_advise)
{
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    assert_non_null(d);
    ACL_OK(aclrtAllocatorSetObjToDesc(d, &g_obj));
    ACL_OK(aclrtAllocatorSetAllocFuncToDesc(d, cb_alloc));
    ACL_OK(aclrtAllocatorSetFreeFuncToDesc(d, cb_free));
    ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, cb_get_addr));
    if (with_advise)
        ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, cb_advise));
    return d;
}

struct reg_view {
    aclrtAllocatorDesc desc;
    aclrtAllocator obj;
    aclrtAllocatorAllocFunc alloc;
    aclrtAllocatorFreeFunc free;
    aclrtAllocatorAllocAdviseFunc advise;
    aclrtAllocatorGetAddrFromBlockFunc get_addr;
};

static void get(aclrtStream s, struct reg_view *v)
{
    memset(v, 0x5a, sizeof(*v));
    ACL_OK(aclrtAllocatorGetByStream(s, &v->desc, &v->obj, &v->alloc, &v->free, &v->advise, &v->get_addr));
}

static void test_register_and_get(void **state)
{
    (void)state;
    unsigned calls0 = g_calls;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtAllocatorDesc d = full_desc(false);
    ACL_OK(aclrtAllocatorRegister(s, d));
    struct reg_view v;
    get(s, &v);
    assert_ptr_equal(v.desc, d);
    assert_ptr_equal(v.obj, &g_obj);
    assert_true(v.alloc == cb_alloc);
    assert_true(v.free == cb_free);
    assert_true(v.advise == NULL); /* never set: NULL (descriptors start zeroed) */
    assert_true(v.get_addr == cb_get_addr);
    /* Every output but the descriptor may be NULL. */
    aclrtAllocatorDesc only = NULL;
    ACL_OK(aclrtAllocatorGetByStream(s, &only, NULL, NULL, NULL, NULL, NULL));
    assert_ptr_equal(only, d);

    /* The registration holds a copy: later changes and destroying the
       descriptor do not change it; the (stale) handle is still returned. */
    ACL_OK(aclrtAllocatorSetAllocFuncToDesc(d, cb_alloc2));
    ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, cb_advise));
    ACL_OK(aclrtAllocatorDestroyDesc(d));
    get(s, &v);
    assert_ptr_equal(v.desc, d);
    assert_true(v.alloc == cb_alloc);
    assert_true(v.advise == NULL);

    /* Registering again replaces the registration. */
    aclrtAllocatorDesc d2 = full_desc(true);
    ACL_OK(aclrtAllocatorSetObjToDesc(d2, &g_obj2));
    ACL_OK(aclrtAllocatorRegister(s, d2));
    get(s, &v);
    assert_ptr_equal(v.desc, d2);
    assert_ptr_equal(v.obj, &g_obj2);
    assert_true(v.advise == cb_advise);

    /* One registration per stream. */
    aclrtStream s2;
    ACL_OK(aclrtCreateStream(&s2));
    ACL_ERR(aclrtAllocatorGetByStream(s2, &only, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "has no registered allocator");
    ACL_OK(aclrtAllocatorRegister(s2, d2));

    /* Unregister: twice is fine; afterwards nothing is found. */
    ACL_OK(aclrtAllocatorUnregister(s));
    ACL_OK(aclrtAllocatorUnregister(s));
    only = SENTINEL_PTR;
    ACL_ERR(aclrtAllocatorGetByStream(s, &only, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "has no registered allocator");
    assert_ptr_equal(only, SENTINEL_PTR);
    get(s2, &v);
    assert_ptr_equal(v.desc, d2);

    /* Destroying a stream drops its registration (Decision 2). */
    ACL_OK(aclrtDestroyStream(s2));
    ACL_ERR(aclrtAllocatorGetByStream(s2, &only, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "has no registered allocator");
    ACL_OK(aclrtAllocatorRegister(s, d2));
    ACL_OK(aclrtDestroyStreamForce(s));
    ACL_ERR(aclrtAllocatorGetByStream(s, &only, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "has no registered allocator");
    ACL_OK(aclrtAllocatorDestroyDesc(d2));
    assert_int_equal(g_calls, calls0);
}

/* The stream is not validated: any non-NULL handle value is a key, and no
 * context is needed. */
static aclrtAllocatorDesc g_bare_desc;

static aclError bare_register(void)
{
    aclrtStream fake = (aclrtStream)(uintptr_t)0x1234;
    aclError rc = aclrtAllocatorRegister(fake, g_bare_desc);
    aclrtAllocatorDesc d = NULL;
    if (rc == ACL_SUCCESS)
        rc = aclrtAllocatorGetByStream(fake, &d, NULL, NULL, NULL, NULL, NULL);
    if (rc == ACL_SUCCESS && d != g_bare_desc)
        rc = ACL_ERROR_INTERNAL_ERROR;
    if (rc == ACL_SUCCESS)
        rc = aclrtAllocatorUnregister(fake);
    return rc;
}

static aclError bare_descriptor(void)
{
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    if (!d)
        return ACL_ERROR_INTERNAL_ERROR;
    aclError rc = aclrtAllocatorSetObjToDesc(d, &g_obj);
    if (rc == ACL_SUCCESS)
        rc = aclrtAllocatorSetFreeFuncToDesc(d, cb_free);
    aclError rc2 = aclrtAllocatorDestroyDesc(d);
    return rc ? rc : rc2;
}

static void test_no_context_needed(void **state)
{
    (void)state;
    g_bare_desc = full_desc(false);
    expect_on_bare_thread(bare_register, ACL_SUCCESS, NULL);
    expect_on_bare_thread(bare_descriptor, ACL_SUCCESS, NULL);
    ACL_OK(aclrtAllocatorDestroyDesc(g_bare_desc));
}

static void test_descriptor_bad(void **state)
{
    (void)state;
    aclrtAllocatorDesc d = full_desc(false);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_ERR(aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
    ACL_ERR(aclrtAllocatorSetObjToDesc(NULL, &g_obj), ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
    ACL_ERR(aclrtAllocatorSetObjToDesc(d, NULL), ACL_ERROR_INVALID_PARAM, "allocator is NULL");
    ACL_ERR(aclrtAllocatorSetAllocFuncToDesc(NULL, cb_alloc2), ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
    ACL_ERR(aclrtAllocatorSetAllocFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM, "func is NULL");
    ACL_ERR(aclrtAllocatorSetFreeFuncToDesc(NULL, cb_free), ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
    ACL_ERR(aclrtAllocatorSetFreeFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM, "func is NULL");
    ACL_ERR(aclrtAllocatorSetAllocAdviseFuncToDesc(NULL, cb_advise), ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
    ACL_ERR(aclrtAllocatorSetAllocAdviseFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM, "func is NULL");
    ACL_ERR(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(NULL, cb_get_addr), ACL_ERROR_INVALID_PARAM,
            "allocatorDesc is NULL");
    ACL_ERR(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM, "func is NULL");
    /* A pointer that is no descriptor. */
    int not_desc;
    ACL_ERR(aclrtAllocatorSetObjToDesc(&not_desc, &g_obj2), ACL_ERROR_INVALID_PARAM, "not a live allocator descriptor");
    ACL_ERR(aclrtAllocatorDestroyDesc(&not_desc), ACL_ERROR_INVALID_PARAM, "not a live allocator descriptor");
    /* Nothing changed: the descriptor registers with its old values. */
    ACL_OK(aclrtAllocatorRegister(s, d));
    struct reg_view v;
    get(s, &v);
    assert_ptr_equal(v.obj, &g_obj);
    assert_true(v.alloc == cb_alloc);
    assert_true(v.advise == NULL);
    /* A destroyed descriptor is recognised (no registry of CANN's: oacl). */
    ACL_OK(aclrtAllocatorDestroyDesc(d));
    ACL_ERR(aclrtAllocatorDestroyDesc(d), ACL_ERROR_INVALID_PARAM, "not a live allocator descriptor");
    ACL_ERR(aclrtAllocatorSetObjToDesc(d, &g_obj2), ACL_ERROR_INVALID_PARAM, "not a live allocator descriptor");
    ACL_ERR(aclrtAllocatorSetAllocFuncToDesc(d, cb_alloc2), ACL_ERROR_INVALID_PARAM,
            "not a live allocator descriptor");
    ACL_ERR(aclrtAllocatorSetFreeFuncToDesc(d, cb_free), ACL_ERROR_INVALID_PARAM, "not a live allocator descriptor");
    ACL_ERR(aclrtAllocatorSetAllocAdviseFuncToDesc(d, cb_advise), ACL_ERROR_INVALID_PARAM,
            "not a live allocator descriptor");
    ACL_ERR(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, cb_get_addr), ACL_ERROR_INVALID_PARAM,
            "not a live allocator descriptor");
    ACL_ERR(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM, "not a live allocator descriptor");
    get(s, &v); /* the registration is untouched */
    assert_ptr_equal(v.desc, d);
    ACL_OK(aclrtDestroyStream(s));
}

static void test_register_bad(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtAllocatorDesc good = full_desc(true);
    ACL_OK(aclrtAllocatorRegister(s, good));
    ACL_ERR(aclrtAllocatorRegister(NULL, good), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    ACL_ERR(aclrtAllocatorRegister(s, NULL), ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
    /* Each of the four required values missing in turn. */
    const char *missing[4] = {"allocator object", "alloc function", "free function", "get-address function"};
    for (int skip = 0; skip < 4; skip++) {
        aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
        if (skip != 0)
            ACL_OK(aclrtAllocatorSetObjToDesc(d, &g_obj2));
        if (skip != 1)
            ACL_OK(aclrtAllocatorSetAllocFuncToDesc(d, cb_alloc2));
        if (skip != 2)
            ACL_OK(aclrtAllocatorSetFreeFuncToDesc(d, cb_free));
        if (skip != 3)
            ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, cb_get_addr));
        ACL_ERR(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM, missing[skip]);
        ACL_OK(aclrtAllocatorDestroyDesc(d));
    }
    /* The earlier registration stands. */
    struct reg_view v;
    get(s, &v);
    assert_ptr_equal(v.desc, good);
    assert_ptr_equal(v.obj, &g_obj);
    assert_true(v.advise == cb_advise);

    aclrtAllocatorDesc out = SENTINEL_PTR;
    ACL_ERR(aclrtAllocatorGetByStream(s, NULL, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "allocatorDesc is NULL");
    ACL_ERR(aclrtAllocatorGetByStream(NULL, &out, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "stream is NULL");
    ACL_ERR(aclrtAllocatorGetByStream((aclrtStream)&out, &out, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "has no registered allocator");
    assert_ptr_equal(out, SENTINEL_PTR);
    ACL_ERR(aclrtAllocatorUnregister(NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    get(s, &v);
    assert_ptr_equal(v.desc, good);
    ACL_OK(aclrtAllocatorUnregister(s));
    ACL_OK(aclrtAllocatorDestroyDesc(good));
    ACL_OK(aclrtDestroyStream(s));
}

/* The runtime never calls the callbacks: work on a stream with a
 * registered allocator allocates nothing through it. */
static void test_callbacks_never_called(void **state)
{
    (void)state;
    unsigned calls0 = g_calls;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclrtAllocatorDesc d = full_desc(true);
    ACL_OK(aclrtAllocatorRegister(s, d));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "fill_u32", &bin, &f);
    void *dev = NULL, *host = NULL;
    ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost(&host, 4096));
    uint32_t value = 3, count = 64;
    const void *vals[] = {&dev, &value, &count};
    size_t sizes[] = {8, 4, 4};
    for (int i = 0; i < 4; i++) {
        ACL_OK(test_launch(f, 4, s, 3, vals, sizes));
        ACL_OK(aclrtMemsetAsync(host, 4096, 0, 64, s));
        ACL_OK(aclrtMemcpyAsync(host, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
        ACL_OK(aclrtCmoAsync(dev, 4096, ACL_RT_CMO_TYPE_PREFETCH, s));
    }
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtSynchronizeDevice());
    assert_int_equal(((uint32_t *)host)[64 * 3], 6);
    ACL_OK(aclrtFree(dev));
    ACL_OK(aclrtFreeHost(host));
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtAllocatorDestroyDesc(d));
    assert_int_equal(g_calls, calls0);
    /* The application may call them itself after a lookup. */
    assert_ptr_equal(cb_get_addr(&g_obj), &g_obj);
    assert_int_equal(g_calls, calls0 + 1);
}

/* ---- profiles --------------------------------------------------------------------------------------- */

/* Ascend310B: the descriptor functions exist; register, get and
 * unregister answer 207000 after their API-layer checks. */
static void child_310b(void)
{
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    CHILD_CHECK(d != NULL);
    CHILD_OK(aclrtAllocatorSetObjToDesc(d, &g_obj));
    CHILD_OK(aclrtAllocatorSetAllocFuncToDesc(d, cb_alloc));
    CHILD_OK(aclrtAllocatorSetFreeFuncToDesc(d, cb_free));
    CHILD_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, cb_advise));
    CHILD_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, cb_get_addr));
    aclrtStream fake = (aclrtStream)(uintptr_t)0x4321;
    CHILD_ERR(aclrtAllocatorRegister(NULL, d), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    CHILD_ERR(aclrtAllocatorRegister(fake, d), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtAllocatorRegister is not supported on Ascend310B1");
    aclrtAllocatorDesc out = NULL;
    CHILD_ERR(aclrtAllocatorGetByStream(fake, NULL, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
              "allocatorDesc is NULL");
    CHILD_ERR(aclrtAllocatorGetByStream(fake, &out, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtAllocatorGetByStream is not supported on Ascend310B1");
    CHILD_ERR(aclrtAllocatorUnregister(NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL");
    CHILD_ERR(aclrtAllocatorUnregister(fake), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtAllocatorUnregister is not supported on Ascend310B1");
    CHILD_OK(aclrtAllocatorDestroyDesc(d));
}

/* Elsewhere (950, 310P, 910) all ten work. */
static void child_supported(void)
{
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    CHILD_CHECK(d != NULL);
    CHILD_OK(aclrtAllocatorSetObjToDesc(d, &g_obj));
    CHILD_OK(aclrtAllocatorSetAllocFuncToDesc(d, cb_alloc));
    CHILD_OK(aclrtAllocatorSetFreeFuncToDesc(d, cb_free));
    CHILD_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, cb_advise));
    CHILD_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, cb_get_addr));
    CHILD_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    CHILD_OK(aclrtAllocatorRegister(s, d));
    aclrtAllocatorDesc out = NULL;
    CHILD_OK(aclrtAllocatorGetByStream(s, &out, NULL, NULL, NULL, NULL, NULL));
    CHILD_CHECK(out == d);
    CHILD_OK(aclrtAllocatorUnregister(s));
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_OK(aclrtAllocatorDestroyDesc(d));
    CHILD_OK(aclrtResetDevice(0));
    CHILD_CHECK_INT(g_calls, 0);
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("310b", "OACL_SOC=Ascend310B1");
    ASSERT_CHILD_OK("supported", "OACL_SOC=Ascend950PR_9599");
    ASSERT_CHILD_OK("supported", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("supported", "OACL_SOC=Ascend910A");
    ASSERT_CHILD_OK("supported", "OACL_SOC=Ascend910_9391");
}

int main(int argc, char **argv)
{
    static const struct oacl_child_mode modes[] = {{"310b", child_310b}, {"supported", child_supported}};
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(modes, sizeof(modes) / sizeof(modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_and_get),
        cmocka_unit_test(test_no_context_needed),
        cmocka_unit_test(test_descriptor_bad),
        cmocka_unit_test(test_register_bad),
        cmocka_unit_test(test_callbacks_never_called),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
