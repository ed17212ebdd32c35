/*
 * Kernel-side rule violations and traps: the launch fails on its stream
 * with ACL_ERROR_RT_AICORE_EXCEPTION and a message naming the kernel and
 * the block, the process survives, and the stream keeps working.
 */
#include <stdio.h>
#include <string.h>

#include "test_support.h"

static aclrtStream g_stream;
static aclrtBinHandle g_bin;
static struct test_buf g_out;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_stream) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_faults"), NULL, &g_bin))
        return -1;
    test_buf_alloc(&g_out, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_out);
    aclrtBinaryUnLoad(g_bin);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0);
}

/* Launches `kernel` on 8 blocks where block `bad` breaks a rule, and checks
 * the synchronise reports it with text naming the kernel and block. */
static void expect_fault(const char *kernel, uint32_t bad, const char *what)
{
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(g_bin, kernel, &f));
    memset(g_out.host, 0, 128);
    const void *vals[] = {&g_out.dev, &bad};
    size_t sizes[] = {8, 4};
    ACL_OK(test_launch(f, 8, g_stream, 2, vals, sizes));
    char where[128];
    snprintf(where, sizeof(where), "kernel '%s' block %u/8", kernel, bad);
    oacl_test_clear_msgs();
    aclError rc = aclrtSynchronizeStream(g_stream);
    const char *msg = aclGetRecentErrMsg();
    assert_int_equal(rc, ACL_ERROR_RT_AICORE_EXCEPTION);
    assert_non_null(msg);
    if (!strstr(msg, where) || !strstr(msg, what))
        fail_msg("message \"%s\" should name \"%s\" and \"%s\"", msg, where, what);
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_EXCEPTION);
    /* Reported once: the next synchronise is clean. */
    ACL_OK(aclrtSynchronizeStream(g_stream));
}

static void test_ub_overflow(void **s) { (void)s; expect_fault("ub_overflow", 3, "exceed the unified buffer"); }
static void test_alloc_exhausted(void **s) { (void)s; expect_fault("alloc_exhausted", 0, "are in use"); }
static void test_enque_over_depth(void **s) { (void)s; expect_fault("enque_over_depth", 7, "its depth"); }
static void test_deque_empty(void **s) { (void)s; expect_fault("deque_empty", 1, "queue is empty"); }
static void test_double_free(void **s) { (void)s; expect_fault("double_free", 2, "already free"); }
static void test_foreign_free(void **s) { (void)s; expect_fault("foreign_free", 4, "does not belong"); }
static void test_alloc_no_buffers(void **s) { (void)s; expect_fault("alloc_no_buffers", 5, "without buffers"); }
static void test_enque_twice(void **s) { (void)s; expect_fault("enque_twice", 2, "already enqueued"); }
static void test_enque_freed(void **s) { (void)s; expect_fault("enque_freed", 6, "is free (not allocated)"); }
static void test_free_enqueued(void **s) { (void)s; expect_fault("free_enqueued", 1, "still enqueued (DeQue it first)"); }

/* AllocTensor finds the free buffer past a busy one; with none left it
 * fails, and only in the block that asked (blocks not started when it
 * failed do not run: only those that did are checked). */
static void test_alloc_skips_busy(void **s)
{
    (void)s;
    expect_fault("alloc_skips_busy", 4, "all 3 buffers of the VECIN queue are in use");
    const uint32_t *o = (const uint32_t *)g_out.host;
    assert_int_equal(o[4], 0);
    for (uint32_t b = 0; b < 8; b++) {
        if (b != 4 && o[b] != 1)
            continue;
        assert_int_equal(o[8 + 2 * b], 2); /* buffer 1 (64 bytes in) */
        assert_int_equal(o[9 + 2 * b], 4); /* buffer 2 */
    }
}
static void test_copy_unaligned(void **s) { (void)s; expect_fault("copy_unaligned", 5, "not a multiple of 32"); }
static void test_copy_too_big(void **s) { (void)s; expect_fault("copy_too_big", 6, "do not fit"); }
static void test_second_pipe(void **s) { (void)s; expect_fault("second_pipe", 0, "already initialised"); }
static void test_trap(void **s) { (void)s; expect_fault("trap_kernel", 3, "trap"); }
static void test_mixed_types(void **s) { (void)s; expect_fault("add_mixed_types", 1, "expected f16"); }

/* The stream and other kernels keep working after a fault. */
static void test_stream_survives(void **state)
{
    (void)state;
    expect_fault("trap_kernel", 0, "trap");
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(g_bin, "pipe_left_alive", &f));
    memset(g_out.host, 0, 64);
    uint32_t none = 99;
    const void *vals[] = {&g_out.dev, &none};
    size_t sizes[] = {8, 4};
    /* More blocks than workers: threads run several blocks each, and a pipe
       left alive by one block must not fail the next. */
    ACL_OK(test_launch(f, 16, g_stream, 2, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    for (int i = 0; i < 16; i++)
        assert_int_equal(((uint32_t *)g_out.host)[i], 1);
}

/* Faults in a burst of launches are reported once, by the synchronise. */
static void test_fault_among_good_launches(void **state)
{
    (void)state;
    aclrtFuncHandle good, bad;
    ACL_OK(aclrtBinaryGetFunction(g_bin, "pipe_left_alive", &good));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "trap_kernel", &bad));
    uint32_t block = 1;
    const void *vals[] = {&g_out.dev, &block};
    size_t sizes[] = {8, 4};
    ACL_OK(test_launch(good, 8, g_stream, 2, vals, sizes));
    ACL_OK(test_launch(bad, 8, g_stream, 2, vals, sizes));
    ACL_OK(test_launch(good, 8, g_stream, 2, vals, sizes));
    ACL_OK(test_launch(bad, 8, g_stream, 2, vals, sizes));
    ACL_ERR(aclrtSynchronizeStream(g_stream), ACL_ERROR_RT_AICORE_EXCEPTION, "trap");
    ACL_OK(aclrtSynchronizeStream(g_stream));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ub_overflow),       cmocka_unit_test(test_alloc_exhausted),
        cmocka_unit_test(test_enque_over_depth),  cmocka_unit_test(test_deque_empty),
        cmocka_unit_test(test_double_free),       cmocka_unit_test(test_foreign_free),
        cmocka_unit_test(test_alloc_no_buffers),  cmocka_unit_test(test_enque_twice),
        cmocka_unit_test(test_enque_freed),       cmocka_unit_test(test_free_enqueued),
        cmocka_unit_test(test_alloc_skips_busy),
        cmocka_unit_test(test_copy_unaligned),    cmocka_unit_test(test_copy_too_big),
        cmocka_unit_test(test_second_pipe),       cmocka_unit_test(test_trap),
        cmocka_unit_test(test_mixed_types),       cmocka_unit_test(test_stream_survives),
        cmocka_unit_test(test_fault_among_good_launches),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
