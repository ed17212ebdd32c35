/*
 * Cache maintenance (memory-extras spec §3.3): aclrtMemFlush,
 * aclrtMemInvalidate, aclrtCmoAsync, aclrtCmoAsyncWithBarrier,
 * aclrtCmoWaitBarrier, aclrtCmoGetDescSize, aclrtCmoSetDesc,
 * aclrtCmoAsyncWithDesc. The CPU device is coherent, so what is observable
 * is the validation and, for the asynchronous ones, their place in the
 * stream: work queued after them (an event record) completes after them.
 */
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "mem_extras_util.h"

static struct test_buf g_gate; /* a device word the host opens */
static void *g_dev;            /* 4 KiB of device memory */

/* check_ordered runs in cmocka tests and in child processes. */
static bool g_child;
#define XCHECK(cond)                                                                                                 \
    do {                                                                                                             \
        if (g_child)                                                                                                 \
            CHILD_CHECK(cond);                                                                                       \
        else                                                                                                         \
            assert_true(cond);                                                                                       \
    } while (0)
#define XOK(call)                                                                                                    \
    do {                                                                                                             \
        if (g_child)                                                                                                 \
            CHILD_OK(call);                                                                                          \
        else                                                                                                         \
            ACL_OK(call);                                                                                            \
    } while (0)

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0))
        return -1;
    test_buf_alloc(&g_gate, 4096);
    return aclrtMalloc(&g_dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST) ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtFree(g_dev);
    test_buf_free(&g_gate);
    return aclrtResetDeviceForce(0);
}

/*
 * Holds stream s at a gate, lets enqueue() add its operation, records an
 * event after it, and checks that the event completes only once the gate
 * opens and the stream got past the operation.
 */
static void check_ordered(aclrtStream s, void (*enqueue)(aclrtStream s))
{
    uint64_t *word = g_gate.host;
    __atomic_store_n(word, 0, __ATOMIC_RELEASE);
    XOK(aclrtValueWait(g_gate.dev, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    enqueue(s);
    aclrtEvent ev;
    XOK(aclrtCreateEvent(&ev));
    XOK(aclrtRecordEvent(ev, s));
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    XOK(aclrtQueryEventStatus(ev, &st));
    XCHECK(st == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    aclrtStreamStatus ss = ACL_STREAM_STATUS_COMPLETE;
    XOK(aclrtStreamQuery(s, &ss));
    XCHECK(ss == ACL_STREAM_STATUS_NOT_READY);
    __atomic_store_n(word, 1, __ATOMIC_RELEASE);
    XOK(aclrtSynchronizeEvent(ev));
    XOK(aclrtQueryEventStatus(ev, &st));
    XCHECK(st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    XOK(aclrtSynchronizeStream(s));
    XOK(aclrtDestroyEvent(ev));
}

/* ---- aclrtMemFlush / aclrtMemInvalidate ------------------------------------------------- */

static aclError flush_call(void) { return aclrtMemFlush(SENTINEL_PTR, 64); }
static aclError invalidate_call(void) { return aclrtMemInvalidate(SENTINEL_PTR, 64); }

static void test_flush_invalidate(void **state)
{
    (void)state;
    memset(g_dev, 0x11, 4096);
    ACL_OK(aclrtMemFlush(g_dev, 4096));
    ACL_OK(aclrtMemInvalidate((char *)g_dev + 64, 100));
    /* The range is not checked against the allocations (as CANN). */
    int local = 5;
    ACL_OK(aclrtMemFlush(&local, sizeof(local)));
    ACL_OK(aclrtMemInvalidate(&local, sizeof(local)));
    /* Coherent memory: contents unchanged. */
    assert_int_equal(((unsigned char *)g_dev)[4095], 0x11);
    assert_int_equal(local, 5);
    ACL_ERR(aclrtMemFlush(NULL, 64), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    ACL_ERR(aclrtMemFlush(g_dev, 0), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtMemInvalidate(NULL, 64), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    ACL_ERR(aclrtMemInvalidate(g_dev, 0), ACL_ERROR_INVALID_PARAM, "size is 0");
    expect_on_bare_thread(flush_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemFlush");
    expect_on_bare_thread(invalidate_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemInvalidate");
    assert_int_equal(((unsigned char *)g_dev)[0], 0x11);
}

/* ---- aclrtCmoAsync ---------------------------------------------------------------------- */

static void enqueue_cmo(aclrtStream s) { ACL_OK(aclrtCmoAsync(g_dev, 4096, ACL_RT_CMO_TYPE_WRITEBACK, s)); }

static aclError cmo_call(void) { return aclrtCmoAsync(SENTINEL_PTR, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL); }

static void test_cmo_async(void **state)
{
    (void)state;
    for (int t = ACL_RT_CMO_TYPE_PREFETCH; t <= ACL_RT_CMO_TYPE_FLUSH; t++)
        ACL_OK(aclrtCmoAsync(g_dev, 4096, (aclrtCmoType)t, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    check_ordered(s, enqueue_cmo);

    ACL_ERR(aclrtCmoAsync(NULL, 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM, "src is NULL");
    ACL_ERR(aclrtCmoAsync(g_dev, 0, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtCmoAsync(g_dev, 64, (aclrtCmoType)4, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "cmoType 4");
    /* A stream of another context, and a destroyed stream. */
    ACL_OK(aclrtSetDevice(1));
    aclrtStream other;
    ACL_OK(aclrtCreateStream(&other));
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtCmoAsync(g_dev, 64, ACL_RT_CMO_TYPE_PREFETCH, other), ACL_ERROR_RT_STREAM_CONTEXT,
            "belongs to another context");
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtCmoAsync(g_dev, 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live stream handle");
    expect_on_bare_thread(cmo_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtCmoAsync");
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtDestroyStream(other));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
}

/* ---- the barrier pair (Ascend310B only) -------------------------------------------------- */

static void test_barrier_pair_not_here(void **state)
{
    (void)state;
    /* The API-layer checks come first, then the profile. */
    ACL_ERR(aclrtCmoAsyncWithBarrier(NULL, 64, ACL_RT_CMO_TYPE_INVALID, 1, NULL), ACL_ERROR_INVALID_PARAM,
            "src is NULL");
    ACL_ERR(aclrtCmoAsyncWithBarrier(g_dev, 64, ACL_RT_CMO_TYPE_INVALID, 1, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtCmoAsyncWithBarrier is not supported on Ascend910B3");
    aclrtBarrierTaskInfo info;
    memset(&info, 0, sizeof(info));
    ACL_ERR(aclrtCmoWaitBarrier(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
    info.barrierNum = 7;
    ACL_ERR(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_INVALID_PARAM, "barrierNum 7");
    info.barrierNum = 0;
    ACL_ERR(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_INVALID_PARAM, "barrierNum 0");
    info.barrierNum = 1;
    info.cmoInfo[0].cmoType = ACL_RT_CMO_TYPE_INVALID;
    info.cmoInfo[0].barrierId = 1;
    ACL_ERR(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtCmoWaitBarrier is not supported on Ascend910B3");
}

static void enqueue_barrier_pair(aclrtStream s)
{
    CHILD_OK(aclrtCmoAsyncWithBarrier(g_dev, 4096, ACL_RT_CMO_TYPE_INVALID, 3, s));
    aclrtBarrierTaskInfo info;
    memset(&info, 0, sizeof(info));
    info.barrierNum = 1;
    info.cmoInfo[0].cmoType = ACL_RT_CMO_TYPE_INVALID;
    info.cmoInfo[0].barrierId = 3;
    CHILD_OK(aclrtCmoWaitBarrier(&info, s, 0));
}

/* On Ascend310B: the pair works and validates; the other CMO functions do
 * not exist there. Runs without cmocka: CHILD_* checks. */
static void child_310b(void)
{
    g_child = true;
    CHILD_OK(aclrtSetDevice(0));
    CHILD_OK(aclrtMallocHost(&g_gate.host, 4096));
    CHILD_OK(aclrtHostRegisterV2(g_gate.host, 4096, ACL_HOST_REG_MAPPED));
    CHILD_OK(aclrtHostGetDevicePointer(g_gate.host, &g_gate.dev, 0));
    CHILD_OK(aclrtMalloc(&g_dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int t = ACL_RT_CMO_TYPE_PREFETCH; t <= ACL_RT_CMO_TYPE_FLUSH; t++)
        CHILD_OK(aclrtCmoAsyncWithBarrier(g_dev, 64, (aclrtCmoType)t, t == ACL_RT_CMO_TYPE_INVALID ? 5 : 0, NULL));
    aclrtBarrierTaskInfo info;
    memset(&info, 0, sizeof(info));
    info.barrierNum = ACL_RT_CMO_MAX_BARRIER_NUM;
    for (uint32_t i = 0; i < ACL_RT_CMO_MAX_BARRIER_NUM; i++) {
        info.cmoInfo[i].cmoType = ACL_RT_CMO_TYPE_INVALID;
        info.cmoInfo[i].barrierId = 5 + i; /* ids never used are fine */
    }
    CHILD_OK(aclrtCmoWaitBarrier(&info, NULL, 12345)); /* flag: not checked */
    CHILD_OK(aclrtSynchronizeStream(NULL));
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    check_ordered(s, enqueue_barrier_pair);

    CHILD_ERR(aclrtCmoAsyncWithBarrier(g_dev, 0, ACL_RT_CMO_TYPE_INVALID, 1, s), ACL_ERROR_RT_PARAM_INVALID,
              "size is 0");
    CHILD_ERR(aclrtCmoAsyncWithBarrier(g_dev, 64, ACL_RT_CMO_TYPE_INVALID, 0, s), ACL_ERROR_RT_PARAM_INVALID,
              "non-zero barrierId");
    CHILD_ERR(aclrtCmoAsyncWithBarrier(g_dev, 64, ACL_RT_CMO_TYPE_WRITEBACK, 2, s), ACL_ERROR_RT_PARAM_INVALID,
              "only ACL_RT_CMO_TYPE_INVALID operations take a barrier");
    CHILD_ERR(aclrtCmoAsyncWithBarrier(g_dev, 64, (aclrtCmoType)4, 0, s), ACL_ERROR_RT_PARAM_INVALID, "cmoType 4");
    info.barrierNum = 2;
    info.cmoInfo[1].cmoType = ACL_RT_CMO_TYPE_FLUSH;
    CHILD_ERR(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_RT_PARAM_INVALID, "cmoInfo[1]");
    info.cmoInfo[1].cmoType = ACL_RT_CMO_TYPE_INVALID;
    info.cmoInfo[1].barrierId = 0;
    CHILD_ERR(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_RT_PARAM_INVALID, "cmoInfo[1]");
    CHILD_OK(aclrtDestroyStream(s));
    CHILD_ERR(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_RT_PARAM_INVALID, "cmoInfo[1]");
    info.cmoInfo[1].barrierId = 1;
    CHILD_ERR(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream handle");
    CHILD_ERR(aclrtCmoAsyncWithBarrier(g_dev, 64, ACL_RT_CMO_TYPE_INVALID, 1, s), ACL_ERROR_RT_INVALID_HANDLE,
              "not a live stream handle");

    CHILD_ERR(aclrtCmoAsync(g_dev, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtCmoAsync is not supported on Ascend310B1");
    size_t sz = 0;
    CHILD_ERR(aclrtCmoGetDescSize(&sz), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on Ascend310B1");
    CHILD_ERR(aclrtCmoSetDesc(g_dev, g_dev, 64), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on Ascend310B1");
    CHILD_ERR(aclrtCmoAsyncWithDesc(g_dev, ACL_RT_CMO_TYPE_PREFETCH, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "not supported on Ascend310B1");
    CHILD_OK(aclrtMemFlush(g_dev, 64));
    CHILD_OK(aclrtMemInvalidate(g_dev, 64));
    CHILD_OK(aclrtFree(g_dev));
    CHILD_OK(aclrtHostUnregister(g_gate.host));
    CHILD_OK(aclrtFreeHost(g_gate.host));
    CHILD_OK(aclrtResetDevice(0));
}

/* ---- descriptors --------------------------------------------------------------------------- */

static aclError set_desc_call(void) { return aclrtCmoSetDesc(SENTINEL_PTR, SENTINEL_PTR, 64); }

/* The §2.5 layout: zeros, len_inner at 12, src at 16, zeros to the end. */
static void check_desc(const unsigned char *d, size_t n, const void *src, uint32_t len)
{
    uint32_t l;
    uint64_t a;
    memcpy(&l, d + 12, 4);
    memcpy(&a, d + 16, 8);
    assert_int_equal(l, len);
    assert_int_equal(a, (uint64_t)(uintptr_t)src);
    for (size_t i = 0; i < n; i++)
        if (i < 12 || i >= 24)
            assert_int_equal(d[i], 0);
}

static void test_cmo_desc(void **state)
{
    (void)state;
    size_t sz = 0;
    ACL_OK(aclrtCmoGetDescSize(&sz));
    assert_int_equal(sz, 32);
    ACL_ERR(aclrtCmoGetDescSize(NULL), ACL_ERROR_RT_PARAM_INVALID, "size is NULL");

    void *desc = NULL;
    ACL_OK(aclrtMalloc(&desc, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(desc, 0xee, 64);
    ACL_OK(aclrtCmoSetDesc(desc, (char *)g_dev + 128, 1000));
    check_desc(desc, 32, (char *)g_dev + 128, 1000);
    assert_int_equal(((unsigned char *)desc)[32], 0xee); /* only the descriptor's bytes */

    /* Bad inputs leave the descriptor as it was. */
    unsigned char before[64];
    memcpy(before, desc, 64);
    ACL_ERR(aclrtCmoSetDesc(NULL, g_dev, 64), ACL_ERROR_RT_PARAM_INVALID, "cmoDesc is NULL");
    ACL_ERR(aclrtCmoSetDesc(desc, NULL, 64), ACL_ERROR_RT_PARAM_INVALID, "src is NULL");
    ACL_ERR(aclrtCmoSetDesc(desc, g_dev, 0), ACL_ERROR_RT_PARAM_INVALID, "size is 0");
    unsigned char host_desc[64];
    ACL_ERR(aclrtCmoSetDesc(host_desc, g_dev, 64), ACL_ERROR_RT_PARAM_INVALID, "is not device memory");
    void *pinned = NULL;
    ACL_OK(aclrtMallocHost(&pinned, 64));
    ACL_ERR(aclrtCmoSetDesc(pinned, g_dev, 64), ACL_ERROR_RT_PARAM_INVALID, "is not device memory");
    ACL_ERR(aclrtCmoSetDesc((char *)desc + 80, g_dev, 64), ACL_ERROR_RT_PARAM_INVALID, "runs past the end");
    expect_on_bare_thread(set_desc_call, ACL_ERROR_RT_CONTEXT_NULL, "aclrtCmoSetDesc");
    assert_memory_equal(desc, before, 64);
    ACL_OK(aclrtFreeHost(pinned));
    ACL_OK(aclrtFree(desc));
}

static void *g_desc;

static void enqueue_cmo_desc(aclrtStream s) { ACL_OK(aclrtCmoAsyncWithDesc(g_desc, ACL_RT_CMO_TYPE_PREFETCH, s, NULL)); }

static void test_cmo_async_with_desc(void **state)
{
    (void)state;
    ACL_OK(aclrtMalloc(&g_desc, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtCmoSetDesc(g_desc, g_dev, 4096));
    /* All four types are accepted (CANN documents only PREFETCH). */
    for (int t = ACL_RT_CMO_TYPE_PREFETCH; t <= ACL_RT_CMO_TYPE_FLUSH; t++)
        ACL_OK(aclrtCmoAsyncWithDesc(g_desc, (aclrtCmoType)t, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    check_ordered(s, enqueue_cmo_desc);

    int reserved = 0;
    ACL_ERR(aclrtCmoAsyncWithDesc(g_desc, ACL_RT_CMO_TYPE_PREFETCH, s, &reserved), ACL_ERROR_RT_PARAM_INVALID,
            "reserve is");
    ACL_ERR(aclrtCmoAsyncWithDesc(NULL, ACL_RT_CMO_TYPE_PREFETCH, s, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "cmoDesc is NULL");
    ACL_ERR(aclrtCmoAsyncWithDesc(g_desc, (aclrtCmoType)4, s, NULL), ACL_ERROR_RT_PARAM_INVALID, "cmoType 4");
    ACL_OK(aclrtSetDevice(1));
    aclrtStream other;
    ACL_OK(aclrtCreateStream(&other));
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclrtCmoAsyncWithDesc(g_desc, ACL_RT_CMO_TYPE_PREFETCH, other, NULL), ACL_ERROR_RT_STREAM_CONTEXT,
            "belongs to another context");
    ACL_OK(aclrtDestroyStream(s));
    /* The stream is checked before the descriptor (CANN's order). */
    ACL_ERR(aclrtCmoAsyncWithDesc(NULL, ACL_RT_CMO_TYPE_PREFETCH, s, NULL), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live stream handle");
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtDestroyStream(other));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtFree(g_desc));
}

/* ---- profiles -------------------------------------------------------------------------------- */

/* 950: descriptors of 64 bytes (the 32 of §2.5, then zeros). */
static void child_950(void)
{
    CHILD_OK(aclrtSetDevice(0));
    size_t sz = 0;
    CHILD_OK(aclrtCmoGetDescSize(&sz));
    CHILD_CHECK_INT(sz, 64);
    void *desc = NULL, *dev = NULL;
    CHILD_OK(aclrtMalloc(&desc, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(desc, 0xee, 64);
    CHILD_OK(aclrtCmoSetDesc(desc, dev, 48));
    const unsigned char *d = desc;
    uint32_t len;
    memcpy(&len, d + 12, 4);
    CHILD_CHECK_INT(len, 48);
    for (int i = 24; i < 64; i++)
        CHILD_CHECK_INT(d[i], 0);
    CHILD_OK(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_FLUSH, NULL, NULL));
    CHILD_OK(aclrtCmoAsync(dev, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL));
    CHILD_OK(aclrtSynchronizeStream(NULL));
    /* A 32-byte allocation cannot hold a 64-byte descriptor. */
    void *small = NULL;
    CHILD_OK(aclrtMallocAlign32(&small, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_ERR(aclrtCmoSetDesc(small, dev, 48), ACL_ERROR_RT_PARAM_INVALID, "runs past the end");
    CHILD_ERR(aclrtCmoWaitBarrier(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
    CHILD_ERR(aclrtCmoAsyncWithBarrier(dev, 64, ACL_RT_CMO_TYPE_INVALID, 1, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtCmoAsyncWithBarrier is not supported on Ascend950PR_9599");
    CHILD_OK(aclrtFree(small));
    CHILD_OK(aclrtFree(desc));
    CHILD_OK(aclrtFree(dev));
    CHILD_OK(aclrtResetDevice(0));
}

/* 310P and 910: no CMO tasks or descriptors; flush/invalidate exist. */
static void child_no_cmo(void)
{
    CHILD_OK(aclrtSetDevice(0));
    const char *soc = getenv("OACL_SOC");
    char needle[128];
    void *dev = NULL;
    CHILD_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_ERR(aclrtCmoAsync(NULL, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_INVALID_PARAM, "src is NULL");
    snprintf(needle, sizeof(needle), "aclrtCmoAsync is not supported on %s", soc);
    CHILD_ERR(aclrtCmoAsync(dev, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    size_t sz = 0;
    CHILD_ERR(aclrtCmoGetDescSize(NULL), ACL_ERROR_RT_PARAM_INVALID, "size is NULL");
    snprintf(needle, sizeof(needle), "aclrtCmoGetDescSize is not supported on %s", soc);
    CHILD_ERR(aclrtCmoGetDescSize(&sz), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    snprintf(needle, sizeof(needle), "aclrtCmoSetDesc is not supported on %s", soc);
    CHILD_ERR(aclrtCmoSetDesc(dev, dev, 64), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, needle);
    snprintf(needle, sizeof(needle), "aclrtCmoAsyncWithDesc is not supported on %s", soc);
    CHILD_ERR(aclrtCmoAsyncWithDesc(dev, ACL_RT_CMO_TYPE_PREFETCH, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              needle);
    snprintf(needle, sizeof(needle), "aclrtCmoAsyncWithBarrier is not supported on %s", soc);
    CHILD_ERR(aclrtCmoAsyncWithBarrier(dev, 64, ACL_RT_CMO_TYPE_INVALID, 1, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              needle);
    CHILD_OK(aclrtMemFlush(dev, 64));
    CHILD_OK(aclrtMemInvalidate(dev, 64));
    CHILD_OK(aclrtFree(dev));
    CHILD_OK(aclrtResetDevice(0));
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("310b", "OACL_SOC=Ascend310B1");
    ASSERT_CHILD_OK("950", "OACL_SOC=Ascend950PR_9599");
    ASSERT_CHILD_OK("no_cmo", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("no_cmo", "OACL_SOC=Ascend910A");
}

int main(int argc, char **argv)
{
    static const struct oacl_child_mode modes[] = {
        {"310b", child_310b}, {"950", child_950}, {"no_cmo", child_no_cmo}};
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(modes, sizeof(modes) / sizeof(modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flush_invalidate),
        cmocka_unit_test(test_cmo_async),
        cmocka_unit_test(test_barrier_pair_not_here),
        cmocka_unit_test(test_cmo_desc),
        cmocka_unit_test(test_cmo_async_with_desc),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
