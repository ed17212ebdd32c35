/*
 * System parameters (acl-rt-misc.md 3.7): aclrtSetSysParamOpt /
 * aclrtGetSysParamOpt. Process-wide, 0 by default, no aclInit or context;
 * option 2 (the deprecated strong-consistency switch) is its own slot.
 * The first test runs first on purpose: it sees the defaults.
 */
#include <pthread.h>
#include <string.h>

#include "test_support.h"

#define OPT_STRONG ((aclSysParamOpt)2) /* ACL_OPT_STRONG_CONSISTENCY (deprecated name) */

static int64_t get(aclSysParamOpt opt)
{
    int64_t v = -99;
    ACL_OK(aclrtGetSysParamOpt(opt, &v));
    return v;
}

static void reset_all(void)
{
    for (int o = 0; o < 4; o++)
        assert_int_equal(aclrtSetSysParamOpt((aclSysParamOpt)o, 0), ACL_SUCCESS);
}

static void test_defaults(void **state)
{
    (void)state;
    assert_int_equal(get(ACL_OPT_DETERMINISTIC), 0);
    assert_int_equal(get(ACL_OPT_ENABLE_DEBUG_KERNEL), 0);
    assert_int_equal(get(OPT_STRONG), 0);
    assert_int_equal(get(ACL_OPT_ENABLE_KERNEL_EARLY_START), 0);
}

static void test_set_get(void **state)
{
    (void)state;
    for (int64_t v = 0; v <= 3; v++) {
        ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, v));
        assert_int_equal(get(ACL_OPT_DETERMINISTIC), v);
    }
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
    assert_int_equal(get(ACL_OPT_ENABLE_DEBUG_KERNEL), 1);
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1));
    assert_int_equal(get(ACL_OPT_ENABLE_KERNEL_EARLY_START), 1);
    /* Option 2 and option 0 are independent slots. */
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3));
    ACL_OK(aclrtSetSysParamOpt(OPT_STRONG, 1));
    assert_int_equal(get(ACL_OPT_DETERMINISTIC), 3);
    assert_int_equal(get(OPT_STRONG), 1);
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0));
    assert_int_equal(get(OPT_STRONG), 1);
    /* Last call wins; neither needs aclInit nor a context (none exists here). */
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 0));
    assert_int_equal(get(ACL_OPT_ENABLE_DEBUG_KERNEL), 0);
    reset_all();
}

static void test_bad_values(void **state)
{
    (void)state;
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 2));
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
    ACL_ERR(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtSetSysParamOpt: value 4 of ACL_OPT_DETERMINISTIC is outside 0..3");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID); /* runtime layer */
    ACL_ERR(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, -1), ACL_ERROR_RT_PARAM_INVALID, "value -1");
    ACL_ERR(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID,
            "value 2 of ACL_OPT_ENABLE_DEBUG_KERNEL is outside 0..1");
    ACL_ERR(aclrtSetSysParamOpt(OPT_STRONG, 2), ACL_ERROR_RT_PARAM_INVALID, "ACL_OPT_STRONG_CONSISTENCY");
    ACL_ERR(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, INT64_MAX), ACL_ERROR_RT_PARAM_INVALID,
            "ACL_OPT_ENABLE_KERNEL_EARLY_START is outside 0..1");
    ACL_ERR(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, INT64_MIN), ACL_ERROR_RT_PARAM_INVALID,
            "is outside 0..1");
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    /* Unknown options: API layer (no last error). */
    ACL_ERR(aclrtSetSysParamOpt((aclSysParamOpt)4, 0), ACL_ERROR_INVALID_PARAM,
            "aclrtSetSysParamOpt: opt 4 is not a system option");
    ACL_ERR(aclrtSetSysParamOpt((aclSysParamOpt)-1, 0), ACL_ERROR_INVALID_PARAM, "opt -1");
    int64_t v = 77;
    ACL_ERR(aclrtGetSysParamOpt((aclSysParamOpt)4, &v), ACL_ERROR_INVALID_PARAM,
            "aclrtGetSysParamOpt: opt 4 is not a system option");
    ACL_ERR(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtGetSysParamOpt: value is NULL");
    /* NULL is checked before the option. */
    ACL_ERR(aclrtGetSysParamOpt((aclSysParamOpt)9, NULL), ACL_ERROR_INVALID_PARAM, "value is NULL");
    assert_int_equal(v, 77);
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    /* Nothing changed. */
    assert_int_equal(get(ACL_OPT_DETERMINISTIC), 2);
    assert_int_equal(get(ACL_OPT_ENABLE_DEBUG_KERNEL), 1);
    assert_int_equal(get(OPT_STRONG), 0);
    assert_int_equal(get(ACL_OPT_ENABLE_KERNEL_EARLY_START), 0);
    reset_all();
}

/* Process-wide: a value set on one thread is read on another. */
static void *set_on_thread(void *arg)
{
    (void)arg;
    aclError rc = aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1);
    return (void *)(intptr_t)rc;
}

static void test_process_wide(void **state)
{
    (void)state;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, set_on_thread, NULL), 0);
    void *r = (void *)1;
    assert_int_equal(pthread_join(t, &r), 0);
    assert_null(r);
    assert_int_equal(get(ACL_OPT_ENABLE_KERNEL_EARLY_START), 1);
    reset_all();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_set_get),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_process_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
