/*
 * CANN's exception surface (reliability chapter 3.1, 3.2): exception
 * callbacks and their information after a real kernel fault, the binary's
 * callback, task ids, bad inputs, and what keeps working after a fault in
 * ACL_CONTINUE_ON_FAILURE and ACL_STOP_ON_FAILURE mode.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "stream_gate.h"
#include "test_support.h"

static aclrtStream g_stream;
static aclrtBinHandle g_bin;
static aclrtFuncHandle g_null, g_good;
static struct test_buf g_flag, g_out;

/* cmocka wraps each test in its own handlers for the fault signals; put
 * back the runtime's (captured in main after a first launch), as a program
 * that runs kernels has them. */
static const int g_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
static struct sigaction g_runtime_sa[5];

static void runtime_handlers(void)
{
    for (int i = 0; i < 5; i++)
        sigaction(g_sigs[i], &g_runtime_sa[i], NULL);
}

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_stream) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_planted"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "null_deref", &g_null) || aclrtBinaryGetFunction(g_bin, "good", &g_good))
        return -1;
    test_buf_alloc(&g_flag, 64);
    test_buf_alloc(&g_out, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_flag);
    test_buf_free(&g_out);
    aclrtBinaryUnLoad(g_bin);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0);
}

/* Launches f on 4 blocks, all on workers (where = 0, no host tid matches). */
static aclError launch(aclrtFuncHandle f, aclrtStream s)
{
    uint32_t where = 0, tid = 0; /* tid 0: no thread is "the host" */
    const void *vals[] = {&g_flag.dev, &g_out.dev, &where, &tid};
    size_t sizes[] = {8, 8, 4, 4};
    return test_launch(f, 4, s, 4, vals, sizes);
}

/* What the callbacks saw. */
static struct {
    int calls, slot_calls, bin_calls;
    void *bin_user;
    uint32_t task, stream, tid, device, code;
    void *args;
    uint32_t args_len;
    unsigned char args_copy[32];
    aclError args_rc, func_rc, sync_rc, memcpy_rc;
    aclrtFuncHandle func;
    int32_t current_device;
    aclrtStream sync_stream;
} g_seen;

static void on_exception(aclrtExceptionInfo *info)
{
    g_seen.calls++;
    g_seen.task = aclrtGetTaskIdFromExceptionInfo(info);
    g_seen.stream = aclrtGetStreamIdFromExceptionInfo(info);
    g_seen.tid = aclrtGetThreadIdFromExceptionInfo(info);
    g_seen.device = aclrtGetDeviceIdFromExceptionInfo(info);
    g_seen.code = aclrtGetErrorCodeFromExceptionInfo(info);
    g_seen.args_rc = aclrtGetArgsFromExceptionInfo(info, &g_seen.args, &g_seen.args_len);
    if (g_seen.args_rc == ACL_SUCCESS && g_seen.args_len <= sizeof(g_seen.args_copy)) /* valid during the callback only */
        g_seen.memcpy_rc = aclrtMemcpy(g_seen.args_copy, sizeof(g_seen.args_copy), g_seen.args, g_seen.args_len,
                                       ACL_MEMCPY_DEVICE_TO_HOST);
    g_seen.func_rc = aclrtGetFuncHandleFromExceptionInfo(info, &g_seen.func);
    g_seen.current_device = -1;
    aclrtGetDevice(&g_seen.current_device); /* the failing task's context is current */
    if (g_seen.sync_stream)
        g_seen.sync_rc = aclrtSynchronizeStream(g_seen.sync_stream); /* would wait for itself */
}

static void on_slot(aclrtExceptionInfo *info)
{
    (void)info;
    g_seen.slot_calls++;
}

static void on_binary(aclrtExceptionInfo *info, void *user)
{
    (void)info;
    g_seen.bin_calls++;
    g_seen.bin_user = user;
}

static void *fresh_thread(void *arg)
{
    uint32_t *id = arg;
    ACL_OK(aclrtGetThreadLastTaskId(id));
    return NULL;
}

static void test_bad_inputs(void **state)
{
    (void)state;
    ACL_ERR(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_RT_PARAM_INVALID, "callback");
    ACL_ERR(aclrtExceptionInfoCallbackUnregister(NULL), ACL_ERROR_RT_PARAM_INVALID, "callback");
    ACL_OK(aclrtExceptionInfoCallbackUnregister(on_exception)); /* not registered: fine */
    assert_int_equal(aclrtGetTaskIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    assert_int_equal(aclrtGetStreamIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    assert_int_equal(aclrtGetThreadIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    assert_int_equal(aclrtGetDeviceIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    assert_int_equal(aclrtGetErrorCodeFromExceptionInfo(NULL), 0xFFFFFFFFu);
    void *p = NULL;
    uint32_t n = 0;
    assert_int_equal(aclrtGetArgsFromExceptionInfo(NULL, &p, &n), (aclError)0xFFFFFFFF);
    aclrtFuncHandle f = NULL;
    assert_int_equal(aclrtGetFuncHandleFromExceptionInfo(NULL, &f), (aclError)0xFFFFFFFF);
    ACL_ERR(aclrtGetThreadLastTaskId(NULL), ACL_ERROR_INVALID_PARAM, "taskId");
    uint32_t id = 0;
    oacl_test_run_thread(fresh_thread, &id);
    assert_int_equal(id, 0xFFFFFFFFu);
    ACL_ERR(aclrtBinarySetExceptionCallback(NULL, on_binary, NULL), ACL_ERROR_INVALID_PARAM, "binHandle");
    ACL_ERR(aclrtBinarySetExceptionCallback(g_bin, NULL, NULL), ACL_ERROR_INVALID_PARAM, "callback");
    aclrtBinHandle gone;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_planted"), NULL, &gone));
    ACL_OK(aclrtBinaryUnLoad(gone));
    ACL_ERR(aclrtBinarySetExceptionCallback(gone, on_binary, NULL), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded");
}

static void test_task_ids(void **state)
{
    (void)state;
    uint32_t a = 0, b = 0;
    ACL_OK(launch(g_good, g_stream));
    ACL_OK(aclrtGetThreadLastTaskId(&a));
    ACL_OK(launch(g_good, g_stream));
    ACL_OK(aclrtGetThreadLastTaskId(&b));
    assert_int_equal(b, a + 1); /* per-stream numbering */
    ACL_OK(aclrtSynchronizeStream(g_stream));
}

/* A fault on a CONTINUE stream: every callback runs once, before the
 * synchronise returns, with the task's details. */
static void test_fault_reports(void **state)
{
    (void)state;
    runtime_handlers();
    memset(&g_seen, 0, sizeof(g_seen));
    g_seen.sync_stream = g_stream;
    ACL_OK(aclrtExceptionInfoCallbackRegister(on_exception));
    ACL_OK(aclrtExceptionInfoCallbackRegister(on_exception)); /* twice: still one call */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ACL_OK(aclrtSetExceptionInfoCallback(on_slot));
#pragma GCC diagnostic pop
    int user = 0;
    ACL_OK(aclrtBinarySetExceptionCallback(g_bin, on_binary, &user));

    ACL_OK(launch(g_null, g_stream));
    uint32_t task = 0;
    ACL_OK(aclrtGetThreadLastTaskId(&task));
    int32_t sid = -1;
    ACL_OK(aclrtStreamGetId(g_stream, &sid));
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(g_stream, 120000), ACL_ERROR_RT_AICORE_EXCEPTION);
    assert_int_equal(g_seen.calls, 1);
    assert_int_equal(g_seen.slot_calls, 1);
    assert_int_equal(g_seen.bin_calls, 1);
    assert_ptr_equal(g_seen.bin_user, &user);
    assert_int_equal(g_seen.code, ACL_ERROR_RT_AICORE_EXCEPTION);
    assert_int_equal(g_seen.task, task);
    assert_int_equal(g_seen.stream, (uint32_t)sid);
    assert_int_equal(g_seen.tid, (uint32_t)syscall(SYS_gettid));
    assert_int_equal(g_seen.device, 0);
    assert_int_equal(g_seen.current_device, 0);
    ACL_OK(g_seen.args_rc);
    assert_int_equal(g_seen.args_len, 28); /* 8 + 8 + 4 at 16 + 4 at 24 */
    assert_non_null(g_seen.args);
    ACL_OK(g_seen.memcpy_rc); /* the argument block is device memory during the callback */
    assert_memory_equal(g_seen.args_copy, &g_flag.dev, 8); /* the first argument */
    ACL_OK(g_seen.func_rc);
    assert_ptr_equal(g_seen.func, g_null);
    assert_int_equal(g_seen.sync_rc, ACL_ERROR_RT_INTERNAL_ERROR); /* not a deadlock */

    /* Reported once; everything keeps working. */
    ACL_OK(aclrtSynchronizeStream(g_stream));
    void *dev = NULL;
    uint32_t host[4] = {1, 2, 3, 4}, back[4] = {0};
    ACL_OK(aclrtMalloc(&dev, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(dev, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(back, sizeof(back), dev, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    assert_memory_equal(host, back, sizeof(host));
    ACL_OK(aclrtFree(dev));
    ACL_OK(launch(g_good, g_stream));
    ACL_OK(aclrtSynchronizeStream(g_stream));

    /* Unregistered and cleared: no more calls. */
    ACL_OK(aclrtExceptionInfoCallbackUnregister(on_exception));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ACL_OK(aclrtSetExceptionInfoCallback(NULL));
#pragma GCC diagnostic pop
    g_seen.sync_stream = NULL;
    ACL_OK(launch(g_null, g_stream));
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    assert_int_equal(g_seen.calls, 1);
    assert_int_equal(g_seen.slot_calls, 1);
    assert_int_equal(g_seen.bin_calls, 2); /* the binary's callback stays */
}

static void never_runs(void *arg)
{
    (void)arg;
    fail_msg("a host callback queued behind a failed task on a STOP stream ran");
}

/* STOP mode: queued work behind the failure is dropped (a blocking callback
 * never hangs the synchronise), the failure is sticky, and memory calls,
 * failure-mode queries, stream and context destruction still succeed. */
static void test_stop_mode(void **state)
{
    (void)state;
    runtime_handlers();
    aclrtContext ctx;
    ACL_OK(aclrtCreateContext(&ctx, 0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ACL_OK(aclrtSubscribeReport((uint64_t)pthread_self(), s)); /* nobody processes its reports */
    /* A closed gate holds the stream until both tasks are queued: a kernel
     * failing first would have the stop refuse the callback. */
    struct test_gate gate;
    gate_init(&gate);
    gate_close(&gate, s);
    ACL_OK(launch(g_null, s));
    ACL_OK(aclrtLaunchCallback(never_runs, NULL, ACL_CALLBACK_BLOCK, s));
    gate_open(&gate);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(s, 120000), ACL_ERROR_RT_AICORE_EXCEPTION);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION); /* sticky */
    assert_int_equal(launch(g_good, s), ACL_ERROR_RT_AICORE_EXCEPTION);      /* refused */
    void *dev = NULL;
    uint32_t host[4] = {5, 6, 7, 8}, back[4] = {0};
    ACL_OK(aclrtMalloc(&dev, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(dev, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(back, sizeof(back), dev, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    assert_memory_equal(host, back, sizeof(host));
    ACL_OK(aclrtFree(dev));
    ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    assert_int_equal(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ACL_OK(aclrtUnSubscribeReport((uint64_t)pthread_self(), s));
    ACL_OK(aclrtDestroyStream(s));
    gate_fini(&gate);
    ACL_OK(aclrtDestroyContext(ctx));
    ACL_OK(aclrtSetDevice(0));
    /* Other contexts never noticed. */
    ACL_OK(launch(g_good, g_stream));
    ACL_OK(aclrtSynchronizeStream(g_stream));
}

int main(void)
{
    if (setup(NULL) != 0 || launch(g_good, g_stream) != ACL_SUCCESS || aclrtSynchronizeStream(g_stream) != ACL_SUCCESS ||
        teardown(NULL) != 0)
        return 1;
    for (int i = 0; i < 5; i++)
        sigaction(g_sigs[i], NULL, &g_runtime_sa[i]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_task_ids),
        cmocka_unit_test(test_fault_reports),
        cmocka_unit_test(test_stop_mode),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
