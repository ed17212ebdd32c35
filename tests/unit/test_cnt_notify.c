/*
 * Counting notifies (device-kernel chapter 3.5, 4.5). They exist on arch
 * 3510 profiles only: the real behaviour runs in child processes with
 * OACL_SOC=Ascend950PR_9599 (every record and wait mode, two streams and
 * two devices, clearing, timeouts, ids, limit, destroy with queued work);
 * the default A2 profile checks the refusals.
 *
 * Streams are held back with notify gates, never with sleeps; a wait whose
 * condition does not hold is seen pending (it cannot pass), then released
 * by a record.
 */
#include <stdio.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

#define SOC_950 "OACL_SOC=Ascend950PR_9599"

/* ---- A2: not supported ---------------------------------------------------------------------------- */

static void test_refused_on_a2(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtCntNotify n = (aclrtCntNotify)0x1;
    ACL_ERR(aclrtCntNotifyCreate(&n, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on Ascend910B3");
    ACL_ERR(aclrtCntNotifyCreate(NULL, 5), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported"); /* no arg checks */
    assert_ptr_equal(n, (aclrtCntNotify)0x1);
    aclrtCntNotifyRecordInfo ri = {ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1};
    aclrtCntNotifyWaitInfo wi = {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1, 0, 0, {0}};
    ACL_ERR(aclrtCntNotifyRecord(n, NULL, NULL), ACL_ERROR_INVALID_PARAM, "info");
    ACL_ERR(aclrtCntNotifyRecord(n, NULL, &ri), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    ACL_ERR(aclrtCntNotifyWaitWithTimeout(n, NULL, NULL), ACL_ERROR_INVALID_PARAM, "info");
    ACL_ERR(aclrtCntNotifyWaitWithTimeout(NULL, NULL, &wi), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    ACL_ERR(aclrtCntNotifyReset(NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    ACL_ERR(aclrtCntNotifyGetId(NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    ACL_ERR(aclrtCntNotifyDestroy(NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    ACL_OK(aclrtResetDeviceForce(0));
}

/* ---- 950: children ------------------------------------------------------------------------------------ */

static aclrtNotify g_gate;
static aclrtStream g_opener;

static void child_setup(void)
{
    CHILD_OK(aclrtSetDevice(0));
    CHILD_OK(aclrtCreateNotify(&g_gate, ACL_NOTIFY_DEFAULT));
    CHILD_OK(aclrtCreateStream(&g_opener));
}

static bool stream_pending(aclrtStream s)
{
    aclrtStreamStatus st;
    CHILD_OK(aclrtStreamQuery(s, &st));
    return st == ACL_STREAM_STATUS_NOT_READY;
}

static void record(aclrtCntNotify n, aclrtStream s, aclrtCntNotifyRecordMode mode, uint32_t value)
{
    aclrtCntNotifyRecordInfo ri = {mode, value};
    CHILD_OK(aclrtCntNotifyRecord(n, s, &ri));
}

static void wait_on(aclrtCntNotify n, aclrtStream s, aclrtCntNotifyWaitMode mode, uint32_t value, uint8_t clear,
                    uint32_t timeout)
{
    aclrtCntNotifyWaitInfo wi = {mode, value, timeout, clear, {0}};
    CHILD_OK(aclrtCntNotifyWaitWithTimeout(n, s, &wi));
}

/* Two producer streams ADD 1 each; a third stream waits for >= 2 and
 * clears the count: it goes on only after both records. */
static void child_producers(void)
{
    child_setup();
    aclrtCntNotify n;
    CHILD_OK(aclrtCntNotifyCreate(&n, 0));
    aclrtStream p1, p2, c;
    CHILD_OK(aclrtCreateStream(&p1));
    CHILD_OK(aclrtCreateStream(&p2));
    CHILD_OK(aclrtCreateStream(&c));
    CHILD_OK(aclrtWaitAndResetNotify(g_gate, p2, 0)); /* p2's record waits for the gate */
    record(n, p1, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    record(n, p2, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    wait_on(n, c, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 2, 1, 0);
    CHILD_OK(aclrtSynchronizeStream(p1));
    CHILD_CHECK(stream_pending(c)); /* one record is not enough */
    CHILD_OK(aclrtRecordNotify(g_gate, g_opener));
    CHILD_OK(aclrtSynchronizeStream(c));
    CHILD_OK(aclrtSynchronizeStream(p2));
    /* isClear set the count to 0: an EQUAL 0 wait passes at once, a BIGGER 0 one does not. */
    wait_on(n, c, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0, 0);
    CHILD_OK(aclrtSynchronizeStream(c));
    wait_on(n, c, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 0, 0, 0);
    CHILD_CHECK(stream_pending(c));
    record(n, p1, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 1);
    CHILD_OK(aclrtSynchronizeStream(c));
    CHILD_OK(aclrtCntNotifyDestroy(n));
    CHILD_OK(aclrtResetDevice(0));
}

/* Every wait mode: pending while its predicate is false, released by the
 * record that makes it true (level-triggered); every record mode. */
static void child_modes(void)
{
    child_setup();
    aclrtCntNotify n;
    CHILD_OK(aclrtCntNotifyCreate(&n, 0));
    aclrtStream r, w;
    CHILD_OK(aclrtCreateStream(&r));
    CHILD_OK(aclrtCreateStream(&w));
    static const struct {
        uint32_t start;
        aclrtCntNotifyWaitMode mode;
        uint32_t value;
        aclrtCntNotifyRecordMode rmode;
        uint32_t rvalue;
    } cases[] = {
        {7, ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 5, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 3},
        {3, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 4, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1},
        {4, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 4, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1},
        {3, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 4, ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 4},
        {2, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 6, ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 4},
        {15, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 3, ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 3},
        {UINT32_MAX, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 2}, /* mod 2^32 */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        record(n, r, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, cases[i].start);
        CHILD_OK(aclrtSynchronizeStream(r));
        wait_on(n, w, cases[i].mode, cases[i].value, 0, 0);
        if (!stream_pending(w)) {
            fprintf(stderr, "case %zu: the wait passed with its predicate false\n", i);
            exit(1);
        }
        record(n, r, cases[i].rmode, cases[i].rvalue);
        CHILD_OK(aclrtSynchronizeStream(w));
        /* Level-triggered: the same predicate passes again at once. */
        wait_on(n, w, cases[i].mode, cases[i].value, 0, 0);
        CHILD_OK(aclrtSynchronizeStream(w));
    }
    /* A predicate that already holds passes at once; reset then EQUAL 0. */
    CHILD_OK(aclrtCntNotifyReset(n, r));
    CHILD_OK(aclrtSynchronizeStream(r));
    wait_on(n, w, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0, 0);
    CHILD_OK(aclrtSynchronizeStream(w));
    CHILD_OK(aclrtCntNotifyDestroy(n));
    CHILD_OK(aclrtResetDevice(0));
}

/* Waits from a stream of another device; records only from the notify's device. */
static void child_two_devices(void)
{
    child_setup();
    aclrtCntNotify n;
    CHILD_OK(aclrtCntNotifyCreate(&n, 0)); /* device 0's */
    aclrtStream s0;
    CHILD_OK(aclrtCreateStream(&s0));
    CHILD_OK(aclrtSetDevice(1));
    aclrtStream s1;
    CHILD_OK(aclrtCreateStream(&s1));
    wait_on(n, s1, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3, 0, 0);
    CHILD_CHECK(stream_pending(s1));
    aclrtCntNotifyRecordInfo ri = {ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3};
    CHILD_ERR(aclrtCntNotifyRecord(n, s1, &ri), ACL_ERROR_RT_PARAM_INVALID, "belongs to device 0");
    CHILD_ERR(aclrtCntNotifyReset(n, s1), ACL_ERROR_RT_PARAM_INVALID, "belongs to device 0");
    /* A stream of device 0 from device 1's context: another context. */
    CHILD_ERR(aclrtCntNotifyRecord(n, s0, &ri), ACL_ERROR_RT_STREAM_CONTEXT, "another context");
    CHILD_CHECK(stream_pending(s1));
    CHILD_OK(aclrtSetDevice(0));
    record(n, s0, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3);
    CHILD_OK(aclrtSetDevice(1));
    CHILD_OK(aclrtSynchronizeStream(s1));
    CHILD_OK(aclrtDestroyStream(s1));
    CHILD_OK(aclrtSetDevice(0));
    CHILD_OK(aclrtCntNotifyDestroy(n));
    CHILD_OK(aclrtResetDevice(1));
    CHILD_OK(aclrtResetDevice(0));
}

/* A wait never satisfied fails its stream with 107020 after its timeout. */
static void child_timeout(void)
{
    child_setup();
    aclrtCntNotify n;
    CHILD_OK(aclrtCntNotifyCreate(&n, 0));
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    wait_on(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 5, 0, 1);
    uint64_t t0 = test_now_ms();
    CHILD_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT, "condition");
    uint64_t dt = test_now_ms() - t0;
    CHILD_CHECK(dt >= 900 && dt < 60000); /* not early; generous upper bound */
    CHILD_OK(aclrtSynchronizeStream(s)); /* the failure was reported once */
    CHILD_OK(aclrtCntNotifyDestroy(n));
    CHILD_OK(aclrtResetDevice(0));
}

/* Destroying the handle with work queued: the work completes (Decision 11). */
static void child_destroy_queued(void)
{
    child_setup();
    aclrtCntNotify n;
    CHILD_OK(aclrtCntNotifyCreate(&n, 0));
    aclrtStream r, w;
    CHILD_OK(aclrtCreateStream(&r));
    CHILD_OK(aclrtCreateStream(&w));
    CHILD_OK(aclrtWaitAndResetNotify(g_gate, r, 0));
    record(n, r, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 9);
    wait_on(n, w, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 9, 0, 0);
    CHILD_OK(aclrtCntNotifyDestroy(n));
    CHILD_ERR(aclrtCntNotifyDestroy(n), ACL_ERROR_RT_INVALID_HANDLE, "not a live counting notify");
    CHILD_CHECK(stream_pending(w));
    CHILD_OK(aclrtRecordNotify(g_gate, g_opener));
    CHILD_OK(aclrtSynchronizeStream(w));
    CHILD_OK(aclrtSynchronizeStream(r));
    CHILD_OK(aclrtResetDevice(0));
}

static void child_bad_inputs(void)
{
    child_setup();
    aclrtCntNotify n = NULL, m = NULL;
    CHILD_ERR(aclrtCntNotifyCreate(&n, 1), ACL_ERROR_RT_PARAM_INVALID, "flag");
    CHILD_ERR(aclrtCntNotifyCreate(NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "cntNotify is NULL");
    CHILD_CHECK(n == NULL);
    CHILD_OK(aclrtCntNotifyCreate(&n, 0));
    CHILD_OK(aclrtCntNotifyCreate(&m, 0));
    uint32_t id1 = 99, id2 = 99;
    CHILD_OK(aclrtCntNotifyGetId(n, &id1));
    CHILD_OK(aclrtCntNotifyGetId(m, &id2));
    CHILD_CHECK(id1 != id2);
    aclrtStream s;
    CHILD_OK(aclrtCreateStream(&s));
    aclrtCntNotifyRecordInfo ri = {(aclrtCntNotifyRecordMode)3, 1};
    CHILD_ERR(aclrtCntNotifyRecord(n, s, &ri), ACL_ERROR_RT_PARAM_INVALID, "info->mode 3");
    ri.mode = (aclrtCntNotifyRecordMode)5;
    CHILD_ERR(aclrtCntNotifyRecord(n, s, &ri), ACL_ERROR_RT_PARAM_INVALID, "info->mode 5");
    ri.mode = ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE;
    CHILD_ERR(aclrtCntNotifyRecord(NULL, s, &ri), ACL_ERROR_RT_PARAM_INVALID, "cntNotify is NULL");
    aclrtCntNotifyWaitInfo wi = {(aclrtCntNotifyWaitMode)5, 0, 0, 0, {0}};
    CHILD_ERR(aclrtCntNotifyWaitWithTimeout(n, s, &wi), ACL_ERROR_RT_PARAM_INVALID, "info->mode 5");
    wi.mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE;
    CHILD_ERR(aclrtCntNotifyWaitWithTimeout(NULL, s, &wi), ACL_ERROR_RT_PARAM_INVALID, "cntNotify is NULL");
    CHILD_ERR(aclrtCntNotifyGetId(n, NULL), ACL_ERROR_RT_PARAM_INVALID, "notifyId");
    CHILD_ERR(aclrtCntNotifyGetId(NULL, &id1), ACL_ERROR_RT_PARAM_INVALID, "cntNotify");
    CHILD_ERR(aclrtCntNotifyReset(NULL, s), ACL_ERROR_RT_PARAM_INVALID, "cntNotify is NULL");
    CHILD_ERR(aclrtCntNotifyDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID, "cntNotify is NULL");
    /* Nothing was queued by those: the count is still 0. */
    wi.value = 0;
    CHILD_OK(aclrtCntNotifyWaitWithTimeout(n, s, &wi));
    CHILD_OK(aclrtSynchronizeStream(s));
    /* Stale handles: the notify, the stream. */
    aclrtStream dead;
    CHILD_OK(aclrtCreateStream(&dead));
    CHILD_OK(aclrtDestroyStream(dead));
    CHILD_ERR(aclrtCntNotifyRecord(n, dead, &ri), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    CHILD_OK(aclrtCntNotifyDestroy(m));
    CHILD_ERR(aclrtCntNotifyRecord(m, s, &ri), ACL_ERROR_RT_INVALID_HANDLE, "not a live counting notify");
    CHILD_ERR(aclrtCntNotifyWaitWithTimeout(m, s, &wi), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    CHILD_ERR(aclrtCntNotifyReset(m, s), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    CHILD_ERR(aclrtCntNotifyGetId(m, &id1), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    CHILD_ERR(aclrtCntNotifyRecord(s, s, &ri), ACL_ERROR_RT_INVALID_HANDLE, "not a live counting notify");
    /* The lowest free id is given out again. */
    CHILD_OK(aclrtCntNotifyCreate(&m, 0));
    uint32_t id3 = 99;
    CHILD_OK(aclrtCntNotifyGetId(m, &id3));
    CHILD_CHECK_INT(id3, id2);
    CHILD_OK(aclrtCntNotifyDestroy(m));
    CHILD_OK(aclrtCntNotifyDestroy(n));
    CHILD_OK(aclrtResetDevice(0));
    /* No context. */
    CHILD_ERR(aclrtCntNotifyCreate(&n, 0), ACL_ERROR_RT_CONTEXT_NULL, NULL);
}

static void child_limit(void)
{
    child_setup();
    aclrtCntNotify n[3] = {0};
    CHILD_OK(aclrtCntNotifyCreate(&n[0], 0));
    CHILD_OK(aclrtCntNotifyCreate(&n[1], 0));
    CHILD_ERR(aclrtCntNotifyCreate(&n[2], 0), ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "limit");
    CHILD_CHECK(n[2] == NULL);
    CHILD_OK(aclrtCntNotifyDestroy(n[0]));
    CHILD_OK(aclrtCntNotifyCreate(&n[2], 0));
    /* Another device has its own ids and limit. */
    CHILD_OK(aclrtSetDevice(1));
    CHILD_OK(aclrtCntNotifyCreate(&n[0], 0));
    uint32_t id = 9;
    CHILD_OK(aclrtCntNotifyGetId(n[0], &id));
    CHILD_CHECK_INT(id, 0);
    CHILD_OK(aclrtCntNotifyDestroy(n[0]));
    CHILD_OK(aclrtCntNotifyDestroy(n[1]));
    CHILD_OK(aclrtCntNotifyDestroy(n[2]));
    CHILD_OK(aclrtResetDevice(1));
    CHILD_OK(aclrtResetDevice(0));
}

static void test_950(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("producers", SOC_950);
    ASSERT_CHILD_OK("modes", SOC_950);
    ASSERT_CHILD_OK("two_devices", SOC_950);
    ASSERT_CHILD_OK("timeout", SOC_950);
    ASSERT_CHILD_OK("destroy_queued", SOC_950);
    ASSERT_CHILD_OK("bad_inputs", SOC_950);
    ASSERT_CHILD_OK("limit", SOC_950, "OACL_CNT_NOTIFY_LIMIT=2");
    /* The other arch-3510 family. */
    ASSERT_CHILD_OK("producers", "OACL_SOC=Ascend350_355e");
    ASSERT_CHILD_OK("two_devices", "OACL_SOC=Ascend350_355e");
}

int main(int argc, char **argv)
{
    static const struct oacl_child_mode modes[] = {
        {"producers", child_producers},     {"modes", child_modes},
        {"two_devices", child_two_devices}, {"timeout", child_timeout},
        {"destroy_queued", child_destroy_queued}, {"bad_inputs", child_bad_inputs},
        {"limit", child_limit},
    };
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(modes, sizeof(modes) / sizeof(modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_on_a2),
        cmocka_unit_test(test_950),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
