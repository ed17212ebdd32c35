/*
 * Fault messages name the nearest allocation (src/device/cpu/fault_describe.c)
 * and the fault code follows the fault class and the core type
 * (src/device/cpu/fault_code.c, reliability chapter Decision 1).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "common/addr_registry.h"
#include "device/cpu/fault.h"

static struct oacl_mem_record g_a = {.base = 0x10000000, .size = 4096, .user_size = 1000, .kind = OACL_MEM_DEVICE};
static struct oacl_mem_record g_b = {.base = 0x10100000, .size = 8192, .user_size = 8192, .kind = OACL_MEM_HOST_PINNED};

static int setup(void **state)
{
    (void)state;
    oacl_registry_wrlock();
    int rc = oacl_registry_insert_locked(OACL_SPACE_ALLOC, &g_a) || oacl_registry_insert_locked(OACL_SPACE_ALLOC, &g_b);
    oacl_registry_unlock();
    return rc;
}

static int teardown(void **state)
{
    (void)state;
    oacl_registry_wrlock();
    oacl_registry_remove_locked(OACL_SPACE_ALLOC, g_a.base);
    oacl_registry_remove_locked(OACL_SPACE_ALLOC, g_b.base);
    oacl_registry_unlock();
    return 0;
}

static void expect(uintptr_t addr, const char *want)
{
    char buf[200];
    size_t n = oacl_fault_describe_addr(addr, buf, sizeof(buf));
    assert_int_equal(n, strlen(buf));
    assert_string_equal(buf, want);
}

static void test_describe(void **state)
{
    (void)state;
    expect(0, "NULL pointer (address 0x0)");
    expect(0x10, "NULL pointer (address 0x10)");
    expect(0x10000000 + 1012, "12 bytes past the end of a 1000-byte device allocation at 0x10000000");
    expect(0x10000000 + 8, "offset 8 of a 1000-byte device allocation at 0x10000000");
    expect(0x10000000 + 5000, "4000 bytes past the end of a 1000-byte device allocation at 0x10000000");
    expect(0x10100000 - 16, "16 bytes before the start of a 8192-byte pinned host allocation at 0x10100000");
    expect(0x10100000 + 8192 + 1, "1 bytes past the end of a 8192-byte pinned host allocation at 0x10100000");
    expect(0x10000000 - 4, "4 bytes before the start of a 1000-byte device allocation at 0x10000000");
    expect((uintptr_t)1 << 46, "not in any allocation known to the runtime");
}

static void test_codes(void **state)
{
    (void)state;
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_EXCEPTION, false, false), ACL_ERROR_RT_AICORE_EXCEPTION);
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_EXCEPTION, true, false), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_EXCEPTION, true, true), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_TIMEOUT, false, false), ACL_ERROR_RT_AICORE_TIMEOUT);
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_TIMEOUT, true, true), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
    /* Out-of-range accesses: their own codes only in memcheck mode. */
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_OOB_READ, false, false), ACL_ERROR_RT_AICORE_EXCEPTION);
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_OOB_WRITE, true, false), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_OOB_READ, false, true), ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW);
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_OOB_WRITE, false, true), ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW);
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_OOB_READ, true, true), ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW);
    assert_int_equal(oacl_fault_code(OACL_FAULT_CLASS_OOB_WRITE, true, true), ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_codes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
