/*
 * Task groups across the streams of one capture (acl-rt-model-ri.md §3.2,
 * §3.1.10): while a group is open on one stream, any task on another
 * stream of the same capture (kernel launch, memset, event record) fails
 * with 107034 at its call and breaks the capture; the group's end then
 * reports 107034 and the capture end 507903; later enqueues on the dead
 * capture succeed; streams of other captures and ordinary streams are
 * not affected; closing/using a group from a stream that does not hold it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_plus; /* copy_plus(in, out, add, count) */
static aclrtStream g_s, g_y, g_u;
static aclrtEvent g_e;
static uint32_t *g_buf;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "copy_plus", &g_plus) ||
        aclrtMalloc((void **)&g_buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtFree(g_buf);
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

static int each_setup(void **state)
{
    (void)state;
    if (aclrtCreateStream(&g_s) || aclrtCreateStream(&g_y) || aclrtCreateStream(&g_u) ||
        aclrtCreateEventExWithFlag(&g_e, ACL_EVENT_SYNC) || aclrtMemset(g_buf, 4096, 0, 4096))
        return -1;
    (void)aclGetRecentErrMsg();
    return 0;
}

static int each_teardown(void **state)
{
    (void)state;
    aclrtDestroyEvent(g_e);
    aclrtDestroyStream(g_s);
    aclrtDestroyStream(g_y);
    aclrtDestroyStream(g_u);
    return 0;
}

/* word += add (one element). */
static aclError bump(uint32_t *word, uint32_t add, aclrtStream s)
{
    uint32_t count = 1;
    const void *v[] = {&word, &word, &add, &count};
    const size_t sz[] = {sizeof(word), sizeof(word), sizeof(add), sizeof(count)};
    return test_launch(g_plus, 1, s, 4, v, sz);
}

/* Capture on g_s with g_y joined. */
static void begin_two_streams(void)
{
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtRecordEvent(g_e, g_s));
    ACL_OK(aclrtStreamWaitEvent(g_y, g_e));
}

static void end_broken(void)
{
    aclmdlRI ri = NULL;
    ACL_OK(aclrtRecordEvent(g_e, g_y)); /* the dead capture takes tasks again */
    ACL_OK(aclrtStreamWaitEvent(g_s, g_e));
    ACL_ERR(aclmdlRICaptureEnd(g_s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "invalidated");
    assert_null(ri);
}

static void test_group_blocks_other_streams(void **state)
{
    (void)state;
    /* three kinds of task on the other stream, each in its own capture */
    for (int kind = 0; kind < 3; kind++) {
        begin_two_streams();
        aclrtStream grp_stream = kind == 1 ? g_y : g_s, other = kind == 1 ? g_s : g_y;
        ACL_OK(aclmdlRICaptureTaskGrpBegin(grp_stream));
        ACL_OK(bump(g_buf, 1, grp_stream)); /* joins the group */
        if (kind == 0)
            ACL_ERR(bump(g_buf + 1, 1, other), ACL_ERROR_STREAM_TASK_GROUP_INTR, "task group is open");
        else if (kind == 1)
            ACL_ERR(aclrtMemsetAsync(g_buf + 2, 4, 0, 4, other), ACL_ERROR_STREAM_TASK_GROUP_INTR, "may record nothing");
        else
            ACL_ERR(aclrtRecordEvent(g_e, other), ACL_ERROR_STREAM_TASK_GROUP_INTR, "task group is open");
        aclmdlRICaptureStatus cs;
        ACL_OK(aclmdlRICaptureGetInfo(g_s, &cs, NULL));
        assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
        /* the other stream holds no group: closing it there is 107033 */
        aclrtTaskGrp grp = (aclrtTaskGrp)0x1;
        ACL_ERR(aclmdlRICaptureTaskGrpEnd(other, &grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "no task group");
        assert_null(grp);
        ACL_OK(bump(g_buf + 1, 1, other)); /* dead capture: accepted, never run */
        ACL_ERR(aclmdlRICaptureTaskGrpEnd(grp_stream, &grp), ACL_ERROR_STREAM_TASK_GROUP_INTR, "another stream");
        assert_null(grp);
        end_broken();
    }
    /* nothing ran */
    uint32_t h[4];
    ACL_OK(aclrtMemcpy(h, sizeof(h), g_buf, sizeof(h), ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 4; i++)
        assert_int_equal(h[i], 0);
}

static void test_group_does_not_reach_other_captures(void **state)
{
    (void)state;
    aclmdlRI a = NULL, b = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclmdlRICaptureBegin(g_u, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclmdlRICaptureTaskGrpBegin(g_u));
    ACL_OK(bump(g_buf, 1, g_s));  /* another capture: not affected */
    ACL_OK(bump(g_buf, 10, g_y)); /* an ordinary stream: runs now */
    ACL_OK(bump(g_buf, 100, g_u));
    aclrtTaskGrp grp = NULL;
    ACL_ERR(aclmdlRICaptureTaskGrpEnd(g_s, &grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "no task group");
    ACL_ERR(aclmdlRICaptureTaskGrpEnd(g_y, &grp), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "not capturing");
    ACL_ERR(aclmdlRICaptureTaskGrpBegin(g_y), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "not capturing");
    ACL_OK(aclmdlRICaptureTaskGrpEnd(g_u, &grp));
    assert_non_null(grp);
    /* a group may not be updated from a capturing stream, even another capture's */
    ACL_ERR(aclmdlRICaptureTaskUpdateBegin(g_s, grp), ACL_ERROR_RT_STREAM_CAPTURED, "capturing");
    ACL_OK(aclmdlRICaptureEnd(g_u, &b));
    ACL_OK(aclmdlRICaptureEnd(g_s, &a));
    ACL_OK(aclrtSynchronizeStream(g_y));
    ACL_OK(aclmdlRIExecuteAsync(a, g_y));
    ACL_OK(aclmdlRIExecuteAsync(b, g_y));
    ACL_OK(aclrtSynchronizeStream(g_y));
    uint32_t h;
    ACL_OK(aclrtMemcpy(&h, 4, g_buf, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(h, 111);
    /* the group updated from an ordinary stream (its own replacement) */
    ACL_OK(aclmdlRICaptureTaskUpdateBegin(g_y, grp));
    ACL_ERR(aclmdlRICaptureTaskUpdateBegin(g_u, grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "another stream");
    ACL_ERR(aclmdlRICaptureTaskUpdateEnd(g_u), ACL_ERROR_STREAM_TASK_GROUP_STATUS, "not in update mode");
    ACL_OK(bump(g_buf, 1000, g_y));
    ACL_OK(aclmdlRICaptureTaskUpdateEnd(g_y));
    ACL_OK(aclmdlRIExecuteAsync(b, g_y));
    ACL_OK(aclrtSynchronizeStream(g_y));
    ACL_OK(aclrtMemcpy(&h, 4, g_buf, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(h, 1111);
    ACL_OK(aclmdlRIDestroy(a));
    ACL_OK(aclmdlRIDestroy(b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_group_blocks_other_streams, each_setup, each_teardown),
        cmocka_unit_test_setup_teardown(test_group_does_not_reach_other_captures, each_setup, each_teardown),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
