/*
 * Every queue, UB, alignment and argument rule kernel_operator.h checks
 * (kernels in tests/ascendc/kernels/asc_faults.cpp): the launch fails on
 * its stream with ACL_ERROR_RT_AICORE_EXCEPTION and a message naming the
 * kernel, the faulting block and the rule; the stream keeps working.
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
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("asc_faults"), NULL, &g_bin))
        return -1;
    test_buf_alloc(&g_out, 8192);
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

static const struct {
    const char *kernel;
    uint32_t bad;
    const char *what;
} g_cases[] = {
    {"alloc_no_free", 0, "all 2 buffers of the VECIN queue are in use"},
    {"enque_over_depth", 7, "queue already holds 1 tensors (its depth)"},
    {"deque_empty", 1, "DeQue: the VECIN queue is empty"},
    {"double_free", 2, "FreeTensor: buffer 0 of the VECIN queue is already free"},
    {"foreign_free", 3, "FreeTensor: the tensor does not belong to this VECIN queue"},
    {"enque_tbuf_tensor", 4, "EnQue: the tensor does not belong"},
    {"initbuffer_over_ub", 5, "exceed the unified buffer"},
    {"second_pipe", 6, "a pipe is already initialised in this block"},
    {"non_ub_queue", 0, "position 1 is not a UB position"},
    {"que_after_reset", 1, "pipe was reset or destroyed"},
    {"too_many_live", 2, "more than 8 VECIN buffers allocated at the same time"},
    {"copy_not_32", 3, "17 elements = 34 bytes is not a multiple of 32 bytes"},
    {"copy_too_long", 4, "32 elements do not fit a 16-element local tensor"},
    {"copy_misaligned", 5, "DataCopy(GM->UB): the local tensor address is not 32-byte aligned"},
    {"add_misaligned", 6, "Add: src1 is not 32-byte aligned"},
    {"count_too_large", 7, "Mul: count 65 exceeds src1's 64 elements"},
    {"partial_overlap", 0, "Sub: destination partially overlaps a source"},
    {"div_int", 1, "Div: element type i32 is not supported (f16, f32)"},
    {"exp_int", 2, "Exp: element type i16 is not supported (f16, f32)"},
    {"cast_bad_mode", 3, "Cast: f32 -> i32 with round mode NONE (0) is not supported"},
    {"cast_bad_pair", 4, "Cast: u8 -> f32 with round mode NONE (0) is not supported"},
    {"negative_count", 5, "Relu: count -1 is negative"},
    {"unbound_operand", 6, "Duplicate: dst is not a UB tensor"},
    {"get_value_oob", 7, "element 16 is outside a 16-element tensor"},
    {"slice_oob", 0, "LocalTensor[32] is outside a 32-element buffer"},
    {"set_size_oob", 1, "LocalTensor::SetSize(33) exceeds its 32-element buffer"},
    {"tbuf_get_len", 2, "TBuf::Get(15): 30 bytes must be a non-zero multiple of 32"},
    {"tbuf_offset_misaligned", 3, "GetWithOffset: offset 16 is not a multiple of 32 bytes"},
    {"strided_too_long", 4, "need 352 bytes, the local tensor has 256"},
    {"pad_bad_len", 5, "blockLen 10 bytes must be in 1..2097151 and a multiple of 4"},
    {"wait_without_set", 6, "WaitFlag<HardEvent::MTE2_V>(0) without a SetFlag"},
    {"set_never_waited", 7, "SetFlag<HardEvent::V_MTE3>(2) was never waited for"},
    {"event_id_range", 0, "SetFlag<HardEvent::S_V>(8): event IDs are 0..7"},
    {"event_ids_exhausted", 1, "AllocEventID<HardEvent::MTE2_V>: all 8 event IDs are in use"},
    {"barrier_pipe_s", 2, "PipeBarrier<PIPE_S> is not allowed"},
    {"trap_kernel", 3, "trap error: trap instruction executed"},
    {"reduce_dst_small", 4, "ReduceMax: count 2 exceeds dst's 1 elements"},
};

/* Launches case k on 8 blocks; its block `bad` breaks the rule. */
static void expect_fault(size_t k)
{
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(g_bin, g_cases[k].kernel, &f));
    memset(g_out.host, 0, 64);
    uint32_t bad = g_cases[k].bad;
    const void *vals[] = {&g_out.dev, &bad};
    size_t sizes[] = {8, 4};
    ACL_OK(test_launch(f, 8, g_stream, 2, vals, sizes));
    char where[128];
    snprintf(where, sizeof(where), "kernel '%s' block %u/8:", g_cases[k].kernel, bad);
    oacl_test_clear_msgs();
    aclError rc = aclrtSynchronizeStream(g_stream);
    const char *msg = aclGetRecentErrMsg();
    if (rc != ACL_ERROR_RT_AICORE_EXCEPTION)
        fail_msg("%s: synchronise returned %d (%s)", g_cases[k].kernel, rc, msg ? msg : "no message");
    assert_non_null(msg);
    if (!strstr(msg, where) || !strstr(msg, g_cases[k].what))
        fail_msg("message \"%s\" should name \"%s\" and \"%s\"", msg, where, g_cases[k].what);
    /* reported once; the stream is usable again */
    ACL_OK(aclrtSynchronizeStream(g_stream));
}

static void test_each_rule(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof(g_cases) / sizeof(g_cases[0]); k++)
        expect_fault(k);
}

/* No block is bad: every kernel above runs its good path to the end. */
static void test_good_blocks_pass(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof(g_cases) / sizeof(g_cases[0]); k++) {
        aclrtFuncHandle f;
        ACL_OK(aclrtBinaryGetFunction(g_bin, g_cases[k].kernel, &f));
        memset(g_out.host, 0, 64);
        uint32_t none = 99;
        const void *vals[] = {&g_out.dev, &none};
        size_t sizes[] = {8, 4};
        ACL_OK(test_launch(f, 8, g_stream, 2, vals, sizes));
        ACL_OK(aclrtSynchronizeStream(g_stream));
        for (int b = 0; b < 8; b++)
            assert_int_equal(((uint32_t *)g_out.host)[b], 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_rule),
        cmocka_unit_test(test_good_blocks_pass),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
