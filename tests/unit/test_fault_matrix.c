/*
 * The planted-fault matrix (reliability chapter §3.1, Decisions 1, 9, 10):
 * NULL dereference, a write far outside every allocation, integer division
 * by zero, an illegal instruction, deep recursion (stack overflow) and an
 * endless loop stopped by the launch timeout (and, C only, a breakpoint
 * trap), each as a plain C kernel and
 * as an AscendC kernel, each raised on a worker thread and on the host
 * thread that runs blocks while it synchronises. Every case checks the
 * code, the message (kernel, block, address), that the next launch
 * succeeds and that a second one finishes (no lock left held).
 * Host-code faults still end the process (in a child) or reach the
 * program's own handler.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

#define BLOCKS 256u /* more than there are workers: the host thread gets blocks */
#define WHERE_WORKER 0u
#define WHERE_HOST 1u

static aclrtStream g_stream;
static aclrtBinHandle g_bin_c, g_bin_asc, g_bin_aiv;
static struct test_buf g_flag, g_out;

/* Loads a kernel binary from memory as vector-only (the MAGIC option
 * applies to images in memory). */
static aclError load_vector(const char *name, aclrtBinHandle *bin)
{
    FILE *f = fopen(oacl_test_kernel_path(name), "rb");
    if (!f)
        return ACL_ERROR_INVALID_PARAM;
    static char image[4 << 20];
    size_t len = fread(image, 1, sizeof(image), f);
    fclose(f);
    aclrtBinaryLoadOption o = {.type = ACL_RT_BINARY_LOAD_OPT_MAGIC};
    o.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
    aclrtBinaryLoadOptions vec = {.options = &o, .numOpt = 1};
    return aclrtBinaryLoadFromData(image, len, &vec, bin);
}

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_stream) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_planted"), NULL, &g_bin_c) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("asc_planted"), NULL, &g_bin_asc) ||
        load_vector("rt_planted", &g_bin_aiv))
        return -1;
    test_buf_alloc(&g_flag, 64);
    test_buf_alloc(&g_out, BLOCKS * sizeof(uint32_t));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_flag);
    test_buf_free(&g_out);
    aclrtBinaryUnLoad(g_bin_c);
    aclrtBinaryUnLoad(g_bin_asc);
    aclrtBinaryUnLoad(g_bin_aiv);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0);
}

/* cmocka puts its own handlers for these signals around every test (and
 * restores what it found afterwards); a program that runs kernels does
 * not. Each test puts back the handlers the runtime installed, captured in
 * main() after a first launch. */
static const int g_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
static struct sigaction g_runtime_sa[5];

static void runtime_handlers(void)
{
    for (int i = 0; i < 5; i++)
        sigaction(g_sigs[i], &g_runtime_sa[i], NULL);
}

/* Launches `kernel` of bin on BLOCKS blocks; timeout_us > 0 adds the
 * launch timeout attribute. */
static aclError launch(aclrtBinHandle bin, const char *kernel, uint32_t where, uint64_t timeout_us)
{
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(bin, kernel, &f));
    uint32_t tid = (uint32_t)syscall(SYS_gettid);
    aclrtArgsHandle args;
    aclrtParamHandle p;
    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &g_flag.dev, sizeof(void *), &p));
    ACL_OK(aclrtKernelArgsAppend(args, &g_out.dev, sizeof(void *), &p));
    ACL_OK(aclrtKernelArgsAppend(args, &where, sizeof(where), &p));
    ACL_OK(aclrtKernelArgsAppend(args, &tid, sizeof(tid), &p));
    ACL_OK(aclrtKernelArgsFinalize(args));
    aclrtLaunchKernelAttr attr;
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attr.value.timeoutUs.timeoutLow = (uint32_t)timeout_us;
    attr.value.timeoutUs.timeoutHigh = (uint32_t)(timeout_us >> 32);
    aclrtLaunchKernelCfg cfg = {.attrs = &attr, .numAttrs = 1};
    return aclrtLaunchKernelWithConfig(f, BLOCKS, g_stream, timeout_us ? &cfg : NULL, args, NULL);
}

/* Synchronises so that the blocks run where the case wants them: with a
 * deadline the host thread never runs blocks (workers do); without one it
 * runs unclaimed blocks itself. */
static aclError sync_where(uint32_t where)
{
    return where == WHERE_HOST ? aclrtSynchronizeStream(g_stream) : aclrtSynchronizeStreamWithTimeout(g_stream, 120000);
}

/* After a fault: a launch works and its result is right, and another one
 * finishes within a generous deadline (a lock left held would hang it). */
static void expect_recovered(aclrtBinHandle bin)
{
    for (int round = 0; round < 2; round++) {
        memset(g_out.host, 0, BLOCKS * sizeof(uint32_t));
        ACL_OK(launch(bin, "good", WHERE_WORKER, 0));
        ACL_OK(aclrtSynchronizeStreamWithTimeout(g_stream, 120000));
        const uint32_t *o = g_out.host;
        for (uint32_t i = 0; i < BLOCKS; i++)
            assert_int_equal(o[i], i + 1);
    }
}

/* The exception callback's view of the fault. */
static struct {
    int calls;
    uint32_t code, task;
    aclrtFuncHandle func;
} g_exc;

static void on_exception(aclrtExceptionInfo *info)
{
    g_exc.calls++;
    g_exc.code = aclrtGetErrorCodeFromExceptionInfo(info);
    g_exc.task = aclrtGetTaskIdFromExceptionInfo(info);
    if (aclrtGetFuncHandleFromExceptionInfo(info, &g_exc.func) != ACL_SUCCESS)
        g_exc.func = NULL;
}

struct fault_case {
    const char *kernel;
    aclError code;         /* for AI core kernels */
    const char *needles[3]; /* in the message, besides kernel name and block */
};

static const struct fault_case g_cases[] = {
    {"null_deref", ACL_ERROR_RT_AICORE_EXCEPTION, {"SIGSEGV", "NULL pointer", "address 0x8"}},
    {"write_far", ACL_ERROR_RT_AICORE_EXCEPTION, {"SIGSEGV", "of address 0x", "aicore error"}},
    {"div_zero", ACL_ERROR_RT_AICORE_EXCEPTION, {"SIGFPE", "integer divide by zero", "aicore error"}},
    {"illegal", ACL_ERROR_RT_AICORE_EXCEPTION, {"SIGILL", "illegal instruction", "aicore error"}},
    {"deep_recursion", ACL_ERROR_RT_AICORE_EXCEPTION, {"SIGSEGV", "stack overflow", "aicore error"}},
    {"endless", ACL_ERROR_RT_AICORE_TIMEOUT, {"execution timeout", "aicore timeout", NULL}},
    {"breakpoint", ACL_ERROR_RT_AICORE_EXCEPTION, {"SIGTRAP", "trap instruction", "aicore error"}}, /* C only */
};
#define NUM_CASES (sizeof(g_cases) / sizeof(g_cases[0]))

static void run_case(aclrtBinHandle bin, const struct fault_case *c, uint32_t where, aclError code)
{
    runtime_handlers();
    memset(g_flag.host, 0, 64); /* mapped host memory: the kernels see these stores */
    memset(g_out.host, 0, g_out.size);
    bool endless = strcmp(c->kernel, "endless") == 0;
    memset(&g_exc, 0, sizeof(g_exc));
    ACL_OK(aclrtExceptionInfoCallbackRegister(on_exception));
    ACL_OK(launch(bin, c->kernel, where, endless ? 20000 : 0));
    uint32_t task = 0;
    ACL_OK(aclrtGetThreadLastTaskId(&task));
    oacl_test_clear_msgs();
    aclError rc = sync_where(where);
    char msg[512] = "";
    const char *recent = aclGetRecentErrMsg();
    assert_non_null(recent);
    snprintf(msg, sizeof(msg), "%s", recent);
    ACL_OK(aclrtExceptionInfoCallbackUnregister(on_exception));
    aclrtFuncHandle f = NULL;
    ACL_OK(aclrtBinaryGetFunction(bin, c->kernel, &f));
    assert_int_equal(g_exc.calls, 1); /* once per failed launch, before the synchronise returned */
    assert_int_equal(g_exc.code, (uint32_t)code);
    assert_int_equal(g_exc.task, task);
    assert_ptr_equal(g_exc.func, f);
    if (rc != code)
        fail_msg("%s (%s): code %d, want %d; message \"%s\"", c->kernel, where ? "host" : "worker", rc, code, msg);
    char who[64];
    snprintf(who, sizeof(who), "kernel '%s' block ", c->kernel);
    if (!strstr(msg, who))
        fail_msg("message \"%s\" should name \"%s\"", msg, who);
    for (int i = 0; i < 3 && c->needles[i]; i++) {
        const char *n = c->needles[i];
        if (code == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION || code == ACL_ERROR_RT_VECTOR_CORE_TIMEOUT) {
            if (strncmp(n, "aicore", 6) == 0)
                n = code == ACL_ERROR_RT_VECTOR_CORE_TIMEOUT ? "aivec timeout" : "aivec error";
        }
        if (!strstr(msg, n))
            fail_msg("message \"%s\" should contain \"%s\"", msg, n);
    }
#if defined(__x86_64__)
    if (strcmp(c->kernel, "null_deref") == 0 || strcmp(c->kernel, "write_far") == 0)
        if (!strstr(msg, "on write of address"))
            fail_msg("message \"%s\" should say the access was a write", msg);
#endif
    /* Reported once. */
    ACL_OK(aclrtSynchronizeStream(g_stream));
    expect_recovered(bin);
}

/* One test per (kernel kind, binary, thread). */
struct matrix_param {
    unsigned kind;
    int asc;    /* 0: C kernel, 1: AscendC kernel, 2: C kernel loaded as vector-only */
    uint32_t where;
};

static void test_matrix(void **state)
{
    const struct matrix_param *p = *state;
    const struct fault_case *c = &g_cases[p->kind];
    aclrtBinHandle bin = p->asc == 1 ? g_bin_asc : p->asc == 2 ? g_bin_aiv : g_bin_c;
    aclError code = c->code;
    if (p->asc == 2) /* Decision 1: vector-only kernels get the vector-core codes */
        code = code == ACL_ERROR_RT_AICORE_TIMEOUT ? ACL_ERROR_RT_VECTOR_CORE_TIMEOUT : ACL_ERROR_RT_VECTOR_CORE_EXCEPTION;
    run_case(bin, c, p->where, code);
}

/* A host-code SIGSEGV (outside any kernel) still kills the process with
 * SIGSEGV, after oacl's handlers are installed. */
static void test_host_segv_kills(void **state)
{
    (void)state;
    runtime_handlers();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* An inaccessible page rather than NULL: the same SIGSEGV, and no
           sanitizer report in instrumented builds. */
        volatile int *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        *p = 1;
        _exit(0);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGSEGV);
}

/* Not instrumented: the division must trap, not be reported. */
__attribute__((noinline, no_sanitize_undefined)) static void host_divide_by_zero(void)
{
    volatile int z = 0;
    volatile int x = 1;
    x = x / z;
}

/* A host SIGFPE and a raised SIGILL also take their default actions. */
static void test_host_other_signals(void **state)
{
    (void)state;
    runtime_handlers();
    static const int sigs[] = {SIGFPE, SIGILL, SIGTRAP};
    for (size_t i = 0; i < 3; i++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            if (sigs[i] == SIGFPE) {
                host_divide_by_zero();
            } else {
                raise(sigs[i]);
            }
            _exit(0);
        }
        int st = 0;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFSIGNALED(st));
        assert_int_equal(WTERMSIG(st), sigs[i]);
    }
}

/* The program's own SIGBUS handler, installed before oacl's, still gets a
 * host SIGBUS. */
static volatile sig_atomic_t g_own_handler_calls;
static void own_sigbus(int sig)
{
    (void)sig;
    g_own_handler_calls++;
}

static void test_program_handler_chained(void **state)
{
    (void)state;
    runtime_handlers();
    g_own_handler_calls = 0;
    raise(SIGBUS);
    assert_int_equal(g_own_handler_calls, 1);
}

/* Millisecond mode (OACL_OP_TIMEOUT_INTERVAL_US=10000 in the test's
 * environment): 0 means never; the process-wide setting stops a kernel
 * launched without the attribute. */
static void test_ms_mode_settings(void **state)
{
    (void)state;
    runtime_handlers();
    uint64_t iv = 0, a = 0;
    uint32_t ms = 0;
    ACL_OK(aclrtGetOpTimeOutInterval(&iv));
    assert_int_equal(iv, 10000);
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, UINT32_MAX); /* nothing set: never */
    ACL_OK(aclrtSetOpExecuteTimeOutV2(0, &a));
    assert_int_equal(a, UINT64_MAX);
    ACL_OK(aclrtSetOpExecuteTimeOutV2(15000, &a)); /* two 10 ms credits */
    assert_int_equal(a, 20000);
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, 20);
    ACL_OK(aclrtSetOpExecuteTimeOutV2(100000000ull, &a)); /* capped: 254 credits */
    assert_int_equal(a, 2540000);

    /* The process-wide value, captured at launch, stops an endless kernel. */
    ACL_OK(aclrtSetOpExecuteTimeOutWithMs(30));
    memset(g_flag.host, 0, 64);
    memset(g_out.host, 0, g_out.size);
    ACL_OK(launch(g_bin_c, "endless", WHERE_WORKER, 0));
    ACL_OK(aclrtSetOpExecuteTimeOutWithMs(0)); /* later changes do not reach the queued launch */
    oacl_test_clear_msgs();
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(g_stream, 120000), ACL_ERROR_RT_AICORE_TIMEOUT);
    if (!strstr(aclGetRecentErrMsg(), "execution timeout (30000 us)"))
        fail_msg("message \"%s\" should give the 30 ms limit", aclGetRecentErrMsg());
    ACL_OK(aclrtGetOpExecuteTimeout(&ms));
    assert_int_equal(ms, UINT32_MAX);
    expect_recovered(g_bin_c);
}

#define M(k, a, w) {.kind = k, .asc = a, .where = w}
static struct matrix_param g_params[] = {
    M(0, 0, 0), M(0, 0, 1), M(0, 1, 0), M(0, 1, 1), M(1, 0, 0), M(1, 0, 1), M(1, 1, 0), M(1, 1, 1),
    M(2, 0, 0), M(2, 0, 1), M(2, 1, 0), M(2, 1, 1), M(3, 0, 0), M(3, 0, 1), M(3, 1, 0), M(3, 1, 1),
    M(4, 0, 0), M(4, 0, 1), M(4, 1, 0), M(4, 1, 1), M(5, 0, 0), M(5, 0, 1), M(5, 1, 0), M(5, 1, 1),
    M(0, 2, 0), M(0, 2, 1), M(5, 2, 0), M(5, 2, 1), M(6, 0, 0), M(6, 0, 1),
};
#define NUM_PARAMS (sizeof(g_params) / sizeof(g_params[0]))

int main(void)
{
    /* Installed before the runtime's handlers: must stay reachable. */
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = own_sigbus;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
    /* A first launch installs the runtime's handlers; keep them (see
       runtime_handlers). */
    if (setup(NULL) != 0)
        return 1;
    expect_recovered(g_bin_c);
    if (teardown(NULL) != 0)
        return 1;
    for (int i = 0; i < 5; i++)
        sigaction(g_sigs[i], NULL, &g_runtime_sa[i]);

    static char names[NUM_PARAMS][96];
    struct CMUnitTest tests[NUM_PARAMS + 4];
    static const char *const bins[] = {"C", "AscendC", "C vector-only"};
    for (size_t i = 0; i < NUM_PARAMS; i++) {
        snprintf(names[i], sizeof(names[i]), "%s / %s kernel / %s thread", g_cases[g_params[i].kind].kernel,
                 bins[g_params[i].asc], g_params[i].where ? "host" : "worker");
        tests[i] = (struct CMUnitTest){.name = names[i], .test_func = test_matrix, .initial_state = &g_params[i]};
    }
    tests[NUM_PARAMS] = (struct CMUnitTest){.name = "host SIGSEGV kills", .test_func = test_host_segv_kills};
    tests[NUM_PARAMS + 1] = (struct CMUnitTest){.name = "host signals default", .test_func = test_host_other_signals};
    tests[NUM_PARAMS + 2] = (struct CMUnitTest){.name = "program handler chained",
                                                .test_func = test_program_handler_chained};
    tests[NUM_PARAMS + 3] = (struct CMUnitTest){.name = "ms mode settings", .test_func = test_ms_mode_settings};
    return _cmocka_run_group_tests("test_fault_matrix", tests, NUM_PARAMS + 4, setup, teardown);
}
