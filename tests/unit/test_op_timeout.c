/*
 * Kernel execution timeout settings (reliability chapter §3.4, Decision 11)
 * with the classic timeout unit of 2^32 ns: defaults, credit rounding of
 * every setter, the getters and their bad inputs. (Stopping kernels at the
 * limit, and millisecond mode, are covered by test_fault_matrix.)
 */
#include <stdint.h>

#include "test_support.h"

#define DEFAULT_US 1090921693ull /* 254 x 4 294 967.296 us, truncated */

static int setup(void **state)
{
    (void)state;
    return aclrtSetDevice(0);
}

static int teardown(void **state)
{
    (void)state;
    aclrtSetOpExecuteTimeOut(0);
    return aclrtResetDeviceForce(0);
}

static void test_defaults(void **state)
{
    (void)state;
    uint32_t ms = 0;
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, 1090922);
    uint64_t iv = 0;
    ACL_OK(aclrtGetOpTimeOutInterval(&iv));
    assert_int_equal(iv, 4294967);
}

static void test_v2_rounding(void **state)
{
    (void)state;
    static const struct {
        uint64_t in, out;
    } cases[] = {
        {1, 4294967},                  /* one credit */
        {4294967, 4294967},            /* just under one credit (4 294 967.296 us) */
        {4294968, 8589934},            /* just over: two */
        {10000000, 12884901},          /* three credits */
        {0, DEFAULT_US},               /* the maximum */
        {UINT64_MAX, DEFAULT_US},      /* capped at 254 credits */
        {2000000000ull, DEFAULT_US},   /* more than 254 credits */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint64_t a = 0;
        ACL_OK(aclrtSetOpExecuteTimeOutV2(cases[i].in, &a));
        assert_int_equal(a, cases[i].out);
        uint32_t ms = 0;
        ACL_OK(aclrtGetOpExecuteTimeout(&ms));
        assert_int_equal(ms, (a + 999) / 1000);
    }
}

static void test_seconds_and_ms(void **state)
{
    (void)state;
    uint32_t ms = 0;
    ACL_OK(aclrtSetOpExecuteTimeOut(2)); /* 2 s: one credit */
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, 4295);
    ACL_OK(aclrtSetOpExecuteTimeOut(10)); /* three credits */
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, 12885);
    ACL_OK(aclrtSetOpExecuteTimeOut(0));
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, 1090922);
    /* Milliseconds are clamped at 1 000 000 (1000 s): the same as V2 with 10^9 us. */
    uint64_t a = 0;
    ACL_OK(aclrtSetOpExecuteTimeOutV2(1000000000ull, &a));
    uint32_t want = 0;
    ACL_OK(aclrtGetOpExecuteTimeout(&want));
    ACL_OK(aclrtSetOpExecuteTimeOutWithMs(5000000));
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, want);
    ACL_OK(aclrtSetOpExecuteTimeOutWithMs(1)); /* 1 ms: one credit */
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, 4295);
    ACL_OK(aclrtSetOpExecuteTimeOutWithMs(0)); /* classic mode: 0 is the maximum */
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, 1090922);
}

static void *no_context(void *arg)
{
    (void)arg;
    uint64_t a = 7, iv = 7;
    ACL_ERR(aclrtSetOpExecuteTimeOutV2(1, &a), ACL_ERROR_RT_CONTEXT_NULL, "context");
    assert_int_equal(a, 7);
    ACL_ERR(aclrtGetOpTimeOutInterval(&iv), ACL_ERROR_RT_CONTEXT_NULL, "context");
    assert_int_equal(iv, 7);
    /* These need no context. */
    uint32_t ms = 0;
    ACL_OK(aclrtSetOpExecuteTimeOut(0));
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, 1090922);
    return NULL;
}

static void test_bad_inputs(void **state)
{
    (void)state;
    ACL_ERR(aclrtSetOpExecuteTimeOutV2(1, NULL), ACL_ERROR_INVALID_PARAM, "actualTimeout");
    ACL_ERR(aclrtGetOpTimeOutInterval(NULL), ACL_ERROR_INVALID_PARAM, "interval");
    ACL_ERR(aclrtGetOpExecuteTimeout(NULL), ACL_ERROR_INVALID_PARAM, "timeoutMs");
    oacl_test_run_thread(no_context, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_v2_rounding),
        cmocka_unit_test(test_seconds_and_ms),
        cmocka_unit_test(test_bad_inputs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
