/*
 * Model running instances built on persistent streams (acl-rt-model-ri.md
 * §3.4, §3.9, §3.10): build, bind, end task, execute, labels, stream
 * activation and switching evaluated at execution, persistent task clean,
 * unbind, and their errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

#define N 64u
#define HEAD 0x00000000u
#define ACTIVATED 0x7FFFFFFFu

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_plus; /* copy_plus(in, out, add, count) */

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "copy_plus", &g_plus))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

static aclError plus_n(void *buf, uint32_t add, uint32_t count, aclrtStream s)
{
    const void *v[] = {&buf, &buf, &add, &count};
    const size_t sz[] = {sizeof(buf), sizeof(buf), sizeof(add), sizeof(count)};
    return test_launch(g_plus, 1, s, 4, v, sz);
}

static aclError plus(void *buf, uint32_t add, aclrtStream s) { return plus_n(buf, add, N, s); }

static void *dev_zeroed(size_t n)
{
    void *p = NULL;
    ACL_OK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(p, n, 0, n));
    return p;
}

static void expect_all(void *dev, uint32_t want)
{
    uint32_t h[N];
    ACL_OK(aclrtMemcpy(h, sizeof(h), dev, sizeof(h), ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(h[i], want);
}

static aclrtStream persistent(void)
{
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    return s;
}

static void test_build_and_execute(void **state)
{
    (void)state;
    void *a = dev_zeroed(N * 4), *b = dev_zeroed(N * 4);
    aclrtStream s1 = persistent(), s2 = persistent();
    /* a persistent stream records and never runs; synchronising returns at once */
    ACL_OK(plus(a, 1, s1));
    ACL_OK(aclrtSynchronizeStream(s1));
    aclrtStreamStatus st;
    ACL_OK(aclrtStreamQuery(s1, &st));
    assert_int_equal(st, ACL_STREAM_STATUS_COMPLETE);
    expect_all(a, 0);
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRIBuildBegin(&ri, 0));
    ACL_ERR(aclmdlRIBuildEnd(ri, NULL), ACL_ERROR_RT_STREAM_MODEL, "no stream");
    ACL_OK(aclmdlRIBindStream(ri, s1, HEAD)); /* what s1 recorded before is part of the RI */
    ACL_OK(aclmdlRIBindStream(ri, s2, HEAD));
    ACL_OK(plus(a, 1, s1));
    ACL_OK(plus(a, 1, s1));
    ACL_OK(plus(b, 10, s2));
    ACL_ERR(aclmdlRIBuildEnd(ri, NULL), ACL_ERROR_RT_MODEL_EXECUTE, "end task");
    ACL_ERR(aclmdlRIExecuteAsync(ri, NULL), ACL_ERROR_RT_MODEL_EXECUTE, "end task");
    ACL_OK(aclmdlRIEndTask(ri, s1));
    ACL_ERR(aclmdlRIEndTask(ri, s2), ACL_ERROR_RT_INTERNAL_ERROR, "already");
    ACL_ERR(aclmdlRIExecuteAsync(ri, NULL), ACL_ERROR_RT_MODEL_EXECUTE, "aclmdlRIBuildEnd");
    ACL_OK(aclmdlRIBuildEnd(ri, NULL));
    ACL_OK(aclmdlRIBuildEnd(ri, NULL)); /* a second call changes nothing */
    for (uint32_t r = 1; r <= 5; r++) {
        ACL_OK(aclmdlRIExecute(ri, -1));
        expect_all(a, 3 * r);
        expect_all(b, 10 * r);
    }
    aclrtStream x;
    ACL_OK(aclrtCreateStream(&x));
    ACL_OK(aclmdlRIExecuteAsync(ri, x));
    ACL_OK(aclmdlRIExecuteAsync(ri, x));
    ACL_OK(aclrtSynchronizeStream(x));
    expect_all(a, 21);
    /* queries on a built RI */
    aclrtStream streams[2];
    uint32_t n = 2;
    ACL_OK(aclmdlRIGetStreams(ri, streams, &n));
    assert_int_equal(n, 2);
    assert_ptr_equal(streams[0], s2); /* most recently bound first */
    assert_ptr_equal(streams[1], s1);
    aclmdlRITask tasks[8];
    n = 8;
    ACL_OK(aclmdlRIGetTasksByStream(s1, tasks, &n));
    assert_int_equal(n, 4);
    aclmdlRITaskType type;
    ACL_OK(aclmdlRITaskGetType(tasks[0], &type));
    assert_int_equal(type, ACL_MODEL_RI_TASK_KERNEL);
    ACL_OK(aclmdlRITaskGetType(tasks[3], &type));
    assert_int_equal(type, ACL_MODEL_RI_TASK_DEFAULT);
    uint32_t seq;
    ACL_ERR(aclmdlRITaskGetSeqId(tasks[0], &seq), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "built");
    char path[] = "/tmp/oacl_ri_build_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ACL_OK(aclmdlRIDebugJsonPrint(ri, path, 0));
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "python3 -m json.tool %s >/dev/null && grep -q MODEL_END_GRAPH %s", path, path);
    assert_int_equal(system(cmd), 0);
    unlink(path);
    /* device-side task update: checked, then refused (no function-entry keys in kernel ABI 1) */
    uint64_t *words = dev_zeroed(64);
    aclrtTaskUpdateInfo up = {.id = ACL_RT_UPDATE_AIC_AIV_TASK};
    up.val.aicAivTaskAttr.binHandle = g_bin;
    up.val.aicAivTaskAttr.funcEntryAddr = words;
    up.val.aicAivTaskAttr.blockDimAddr = words + 1;
    ACL_ERR(aclrtTaskUpdateAsync(s1, 0, &up, s1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "function-entry");
    ACL_ERR(aclrtTaskUpdateAsync(s1, 3, &up, s1), ACL_ERROR_RT_PARAM_INVALID, "not a kernel task");
    ACL_ERR(aclrtTaskUpdateAsync(s1, 9, &up, s1), ACL_ERROR_RT_PARAM_INVALID, "no task 9");
    ACL_ERR(aclrtTaskUpdateAsync(s1, 0, &up, x), ACL_ERROR_RT_STREAM_MODEL, "execStream");
    up.val.aicAivTaskAttr.binHandle = NULL;
    ACL_ERR(aclrtTaskUpdateAsync(s1, 0, &up, s1), ACL_ERROR_RT_PARAM_INVALID, "binHandle");
    aclrtTaskUpdateInfo rnd = {.id = ACL_RT_UPDATE_RANDOM_TASK};
    rnd.val.randomTaskAttr.srcAddr = words;
    rnd.val.randomTaskAttr.size = sizeof(aclrtRandomNumTaskInfo);
    ACL_ERR(aclrtTaskUpdateAsync(s1, 0, &rnd, x), ACL_ERROR_RT_PARAM_INVALID, "random-number");
    ACL_ERR(aclrtTaskUpdateAsync(x, 0, &rnd, x), ACL_ERROR_RT_PARAM_INVALID, "not bound");
    ACL_ERR(aclrtTaskUpdateAsync(s1, 0, &rnd, s2), ACL_ERROR_RT_PARAM_INVALID, "execStream");
    aclrtFree(words);
    /* errors */
    ACL_ERR(aclmdlRIExecute(ri, 0), ACL_ERROR_RT_PARAM_INVALID, "timeout");
    ACL_ERR(aclmdlRIExecuteAsync(ri, s1), ACL_ERROR_RT_PARAM_INVALID, "persistent");
    ACL_ERR(aclmdlRIBindStream(ri, x, HEAD), ACL_ERROR_RT_PARAM_INVALID, "ACL_STREAM_PERSISTENT");
    ACL_ERR(aclmdlRIBindStream(ri, NULL, HEAD), ACL_ERROR_RT_PARAM_INVALID, "ACL_STREAM_PERSISTENT");
    ACL_ERR(aclmdlRIBindStream(ri, s1, HEAD), ACL_ERROR_RT_STREAM_MODEL, "already bound");
    ACL_ERR(aclmdlRIBindStream(ri, s1, 5), ACL_ERROR_RT_PARAM_INVALID, "flag");
    ACL_ERR(aclmdlRIBindStream(NULL, s1, HEAD), ACL_ERROR_INVALID_PARAM, "modelRI");
    ACL_ERR(aclrtDestroyStream(s1), ACL_ERROR_RT_STREAM_MODEL, "model");
    ACL_ERR(aclmdlRIEndTask(ri, x), ACL_ERROR_RT_INTERNAL_ERROR, "not bound");
    ACL_ERR(aclmdlRIUnbindStream(ri, x), ACL_ERROR_RT_STREAM_MODEL, "not bound");
    ACL_ERR(aclmdlRIBuildEnd(ri, (void *)1), ACL_ERROR_INVALID_PARAM, "reserve");
    ACL_ERR(aclmdlRIBuildBegin(NULL, 0), ACL_ERROR_INVALID_PARAM, "modelRI");
    ACL_ERR(aclmdlRIBuildBegin(&ri, 3), ACL_ERROR_RT_PARAM_INVALID, "flag");
    /* a captured RI is not built */
    aclmdlRI cap = NULL;
    ACL_OK(aclmdlRICaptureBegin(x, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(aclmdlRICaptureEnd(x, &cap));
    ACL_ERR(aclmdlRIBindStream(cap, s1, HEAD), ACL_ERROR_RT_PARAM_INVALID, "captured");
    ACL_ERR(aclmdlRIExecute(cap, -1), ACL_ERROR_RT_PARAM_INVALID, "captured");
    ACL_OK(aclmdlRIDestroy(cap));
    /* clean re-issues a stream's tasks, end task included */
    ACL_OK(aclrtPersistentTaskClean(s1));
    ACL_ERR(aclmdlRIExecuteAsync(ri, x), ACL_ERROR_RT_MODEL_EXECUTE, "end task");
    ACL_OK(plus(a, 100, s1));
    ACL_OK(aclmdlRIEndTask(ri, s1));
    ACL_OK(aclmdlRIExecute(ri, -1));
    expect_all(a, 121);
    expect_all(b, 80);
    ACL_ERR(aclrtPersistentTaskClean(x), ACL_ERROR_RT_INTERNAL_ERROR, "persistent");
    ACL_ERR(aclrtPersistentTaskClean(NULL), ACL_ERROR_RT_PARAM_INVALID, "stream");
    /* unbinding drops the stream's tasks */
    ACL_OK(aclmdlRIUnbindStream(ri, s2));
    ACL_OK(aclmdlRIExecute(ri, -1));
    expect_all(a, 221);
    expect_all(b, 80);
    ACL_ERR(aclrtPersistentTaskClean(s2), ACL_ERROR_RT_INTERNAL_ERROR, "not bound");
    ACL_OK(aclmdlRIDestroy(ri));
    /* streams outlive the RI, unbound and empty */
    ACL_OK(aclrtSynchronizeStream(s1));
    ACL_OK(aclrtDestroyStream(s1));
    ACL_OK(aclrtDestroyStream(s2));
    ACL_OK(aclrtDestroyStream(x));
    aclrtFree(a);
    aclrtFree(b);
}

/* A loop made of labels: the body runs until a device counter selects the
 * exit label. */
static void test_label_loop(void **state)
{
    (void)state;
    void *a = dev_zeroed(N * 4);
    uint64_t *cnt = dev_zeroed(64);
    aclrtStream s = persistent();
    aclrtLabel l[4];
    for (int i = 0; i < 4; i++)
        ACL_OK(aclrtCreateLabel(&l[i]));
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRIBuildBegin(&ri, 0));
    ACL_OK(aclmdlRIBindStream(ri, s, HEAD));
    ACL_ERR(aclrtSetLabel(l[0], s), ACL_ERROR_RT_INTERNAL_ERROR, "label list");
    aclrtLabelList list = NULL;
    ACL_OK(aclrtCreateLabelList(l, 4, &list));
    ACL_ERR(aclrtCreateLabelList(l, 1, &list), ACL_ERROR_RT_INTERNAL_ERROR, "already");
    ACL_OK(aclrtValueWrite(cnt, 0, 0, s));       /* counter = 0 at every execution */
    ACL_OK(aclrtSetLabel(l[0], s));
    ACL_OK(aclrtSetLabel(l[1], s));
    ACL_OK(aclrtSetLabel(l[2], s));
    ACL_ERR(aclrtSetLabel(l[2], s), ACL_ERROR_RT_INTERNAL_ERROR, "already");
    ACL_OK(plus(a, 1, s));                       /* body */
    ACL_OK(plus_n(cnt, 1, 1, s));                /* counter += 1 */
    ACL_OK(aclrtSwitchLabelByIndex(cnt, 4, list, s)); /* 1, 2 -> loop; 3 -> exit */
    ACL_OK(plus(a, 1000, s));                    /* never reached */
    ACL_OK(aclrtSetLabel(l[3], s));
    ACL_OK(aclmdlRIEndTask(ri, s));
    ACL_OK(aclmdlRIBuildEnd(ri, NULL));
    for (uint32_t r = 1; r <= 4; r++) {
        ACL_OK(aclmdlRIExecute(ri, -1));
        expect_all(a, 3 * r);
    }
    /* errors */
    aclrtStream x;
    ACL_OK(aclrtCreateStream(&x));
    ACL_ERR(aclrtSetLabel(l[3], x), ACL_ERROR_RT_STREAM_MODEL, "bound");
    ACL_ERR(aclrtSwitchLabelByIndex(cnt, 4, list, x), ACL_ERROR_RT_STREAM_MODEL, "bound");
    ACL_ERR(aclrtSwitchLabelByIndex(NULL, 4, list, s), ACL_ERROR_INVALID_PARAM, "ptr");
    ACL_ERR(aclrtSwitchLabelByIndex(cnt, 4, (aclrtLabelList)0x1000, s), ACL_ERROR_RT_INVALID_HANDLE, "labelList");
    ACL_ERR(aclrtCreateLabelList(l, 0, &list), ACL_ERROR_RT_PARAM_INVALID, "num");
    ACL_ERR(aclrtCreateLabelList(NULL, 1, &list), ACL_ERROR_INVALID_PARAM, "labels");
    ACL_ERR(aclrtSetLabel((aclrtLabel)0x1234, s), ACL_ERROR_RT_INVALID_HANDLE, "label");
    ACL_ERR(aclrtSetLabel(NULL, s), ACL_ERROR_INVALID_PARAM, "label");
    ACL_ERR(aclrtCreateLabel(NULL), ACL_ERROR_INVALID_PARAM, "label");
    ACL_ERR(aclrtDestroyLabelList((aclrtLabelList)0x1000), ACL_ERROR_RT_INVALID_HANDLE, "labelList");
    ACL_ERR(aclrtDestroyLabelList(NULL), ACL_ERROR_INVALID_PARAM, "labelList");
    /* destroyed labels keep their slots; a destroyed list fails the jump */
    for (int i = 0; i < 4; i++)
        ACL_OK(aclrtDestroyLabel(l[i]));
    ACL_ERR(aclrtDestroyLabel(l[0]), ACL_ERROR_RT_INVALID_HANDLE, "label");
    ACL_OK(aclmdlRIExecute(ri, -1));
    expect_all(a, 15);
    ACL_OK(aclrtDestroyLabelList(list));
    ACL_ERR(aclmdlRIExecute(ri, -1), ACL_ERROR_RT_MODEL_EXECUTE, "label");
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtDestroyStream(x));
    aclrtFree(a);
    aclrtFree(cnt);
}

static void test_stream_control(void **state)
{
    (void)state;
    void *a = dev_zeroed(N * 4), *b = dev_zeroed(N * 4), *c = dev_zeroed(N * 4);
    int64_t *ops = dev_zeroed(64);
    aclrtStream s1 = persistent(), s2 = persistent(), s3 = persistent();
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRIBuildBegin(&ri, 0));
    ACL_OK(aclmdlRIBindStream(ri, s1, HEAD));
    ACL_OK(aclmdlRIBindStream(ri, s2, ACTIVATED));
    ACL_OK(aclmdlRIBindStream(ri, s3, ACTIVATED));
    ACL_OK(plus(c, 5, s3));                                /* runs only when activated */
    ACL_OK(aclmdlRIEndTask(ri, s1));
    ACL_OK(aclrtActiveStream(s3, s1));
    /* ops[0] > ops[1] (int64): switch to s2, s1 stops */
    ACL_OK(aclrtSwitchStream(&ops[0], ACL_RT_GREATER, &ops[1], ACL_RT_SWITCH_INT64, s2, NULL, s1));
    ACL_OK(plus(a, 1, s1));
    ACL_OK(plus(b, 7, s2));
    ACL_OK(aclmdlRIBuildEnd(ri, NULL));
    int64_t h[2] = {1, 3};
    ACL_OK(aclrtMemcpy(ops, 16, h, 16, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclmdlRIExecute(ri, -1)); /* false: s1 goes on */
    expect_all(a, 1);
    expect_all(b, 0);
    expect_all(c, 5);
    h[0] = 5;
    ACL_OK(aclrtMemcpy(ops, 16, h, 16, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclmdlRIExecute(ri, -1)); /* true: s2 instead */
    expect_all(a, 1);
    expect_all(b, 7);
    expect_all(c, 10);
    /* errors */
    aclrtStream x;
    ACL_OK(aclrtCreateStream(&x));
    ACL_ERR(aclrtSwitchStream(&ops[0], ACL_RT_EQUAL, &ops[1], ACL_RT_SWITCH_INT32, s2, s3, s1), ACL_ERROR_INVALID_PARAM,
            "falseStream");
    ACL_ERR(aclrtSwitchStream(&ops[0], (aclrtCondition)6, &ops[1], ACL_RT_SWITCH_INT32, s2, NULL, s1),
            ACL_ERROR_RT_PARAM_INVALID, "cond");
    ACL_ERR(aclrtSwitchStream(&ops[0], ACL_RT_EQUAL, &ops[1], (aclrtCompareDataType)2, s2, NULL, s1),
            ACL_ERROR_RT_PARAM_INVALID, "dataType");
    ACL_ERR(aclrtSwitchStream(&ops[0], ACL_RT_EQUAL, &ops[1], ACL_RT_SWITCH_INT32, x, NULL, s1),
            ACL_ERROR_RT_STREAM_MODEL, "same model");
    ACL_ERR(aclrtSwitchStream(NULL, ACL_RT_EQUAL, &ops[1], ACL_RT_SWITCH_INT32, s2, NULL, s1), ACL_ERROR_INVALID_PARAM,
            "leftValue");
    ACL_ERR(aclrtActiveStream(s2, x), ACL_ERROR_RT_STREAM_MODEL, "bound");
    ACL_ERR(aclrtActiveStream(x, s1), ACL_ERROR_RT_STREAM_MODEL, "same model");
    ACL_ERR(aclrtActiveStream(NULL, s1), ACL_ERROR_INVALID_PARAM, "activeStream");
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyStream(s1));
    ACL_OK(aclrtDestroyStream(s2));
    ACL_OK(aclrtDestroyStream(s3));
    ACL_OK(aclrtDestroyStream(x));
    aclrtFree(a);
    aclrtFree(b);
    aclrtFree(c);
    aclrtFree(ops);
}

/* Resetting the device destroys its RIs: executions finish, callbacks run. */
static int g_cb;
static void cb_one(void *ud) { g_cb += (int)(intptr_t)ud; }
static void cb_ten(void *ud) { g_cb += 10 * (int)(intptr_t)ud; }

static void test_reset_destroys(void **state)
{
    (void)state;
    void *a = dev_zeroed(N * 4);
    aclrtStream s, p = persistent();
    ACL_OK(aclrtCreateStream(&s));
    aclmdlRI cap = NULL, built = NULL;
    ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(plus(a, 1, s));
    ACL_OK(aclmdlRICaptureEnd(s, &cap));
    ACL_OK(aclmdlRIDestroyRegisterCallback(cap, cb_one, (void *)1));
    ACL_OK(aclmdlRIBuildBegin(&built, 0));
    ACL_OK(aclmdlRIBindStream(built, p, HEAD));
    ACL_OK(aclmdlRIEndTask(built, p));
    ACL_OK(aclmdlRIBuildEnd(built, NULL));
    ACL_OK(aclmdlRIDestroyRegisterCallback(built, cb_ten, (void *)1));
    /* an abandoned capture goes too */
    aclrtStream t;
    ACL_OK(aclrtCreateStream(&t));
    ACL_OK(aclmdlRICaptureBegin(t, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ACL_OK(plus(a, 1, t));
    g_cb = 0;
    ACL_OK(aclmdlRIExecuteAsync(cap, s));
    ACL_OK(aclrtResetDeviceForce(0));
    assert_int_equal(g_cb, 11);
    ACL_OK(aclrtSetDevice(0));
    ACL_ERR(aclmdlRIDestroy(cap), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
    ACL_ERR(aclmdlRIDestroy(built), ACL_ERROR_RT_INVALID_HANDLE, "modelRI");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_and_execute),
        cmocka_unit_test(test_label_loop),
        cmocka_unit_test(test_stream_control),
        cmocka_unit_test(test_reset_destroys), /* last: resets the device */
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
