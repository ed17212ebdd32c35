/*
 * White-box: the op-subscription records a model executor will write
 * (oacl_prof_opdesc_make) read back through the public getters, with the
 * one-shot name table (profiling-and-tools.md §2.2, §3.2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl_prof.h"

void oacl_prof_opdesc_make(uint8_t rec[80], uint32_t model_id, uint32_t flag, uint32_t thread_id, const char *name,
                           const char *type, uint64_t start_us, uint64_t end_us, uint64_t exec_us, uint32_t device);

static void test_records_and_names(void **state)
{
    (void)state;
    uint8_t recs[160];
    oacl_prof_opdesc_make(recs, 3, ACL_SUBSCRIBE_OP, 99, "add_custom_mix_aiv", "add_custom", 100, 150, 40, 1);
    oacl_prof_opdesc_make(recs + 80, 3, ACL_SUBSCRIBE_OP_THREAD, 77, "mul", "Mul", 200, 260, 50, 1);
    uint32_t n = 0;
    assert_int_equal(aclprofGetOpNum(recs, sizeof(recs), &n), ACL_SUCCESS);
    assert_int_equal(n, 2);
    assert_int_equal(aclprofGetOpDuration(recs, sizeof(recs), 0), 50);
    assert_int_equal(aclprofGetModelId(recs, sizeof(recs), 1), 3);
    assert_string_equal(aclprofGetOpAttriValue(recs, sizeof(recs), 1, ACL_SUBSCRIBE_ATTRI_THREADID), "77");
    /* the reserved bytes are zero and covered by the signature */
    for (int i = 76; i < 80; i++)
        assert_int_equal(recs[i], 0);
    size_t len = 0;
    assert_int_equal(aclprofGetOpNameLen(recs, sizeof(recs), 0, &len), ACL_SUCCESS);
    assert_int_equal(len, strlen("add_custom_mix_aiv") + 1);
    char small[4];
    assert_int_equal(aclprofGetOpName(recs, sizeof(recs), 0, small, sizeof(small)), ACL_ERROR_INVALID_PARAM);
    /* exactly strlen bytes: copied, the last character cut for the NUL (CANN) */
    char exact[18];
    assert_int_equal(aclprofGetOpName(recs, sizeof(recs), 0, exact, sizeof(exact)), ACL_SUCCESS);
    assert_string_equal(exact, "add_custom_mix_ai");
    /* handed out once */
    assert_int_equal(aclprofGetOpNameLen(recs, sizeof(recs), 0, &len), ACL_ERROR_INVALID_PARAM);
    char type[32];
    assert_int_equal(aclprofGetOpTypeLen(recs, sizeof(recs), 0, &len), ACL_SUCCESS);
    assert_int_equal(len, 11);
    assert_int_equal(aclprofGetOpType(recs, sizeof(recs), 0, type, sizeof(type)), ACL_SUCCESS);
    assert_string_equal(type, "add_custom");
    assert_int_equal(aclprofGetOpType(recs, sizeof(recs), 0, type, sizeof(type)), ACL_ERROR_INVALID_PARAM);
    /* the other record is untouched */
    assert_int_equal(aclprofGetOpType(recs, sizeof(recs), 1, type, sizeof(type)), ACL_SUCCESS);
    assert_string_equal(type, "Mul");
    /* a changed field breaks the signature */
    recs[80 + 30] ^= 0x40;
    assert_int_equal(aclprofGetOpNum(recs, sizeof(recs), &n), ACL_ERROR_INVALID_PARAM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_records_and_names)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
