/*
 * IPC events across real processes (spec acl-rt-ipc-vmm.md 4.3, 3.5): the
 * 64-byte handle written to a file and read back by another process, a
 * record in one process ordering work in the other (also across devices,
 * and in both directions), never-recorded events, the operations IPC
 * events refuse, the dead-peer rule, the outstanding-record limit and bad
 * inputs.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipc_peer.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_sleep_store;

static void load_kernels(void)
{
    if (aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(g_bin, "sleep_store_u64", &g_sleep_store) != ACL_SUCCESS) {
        fprintf(stderr, "cannot load rt_misc\n");
        exit(1);
    }
}

/* Block 0 sleeps ms, then stores value at word. */
static aclError launch_sleep_store(void *word, uint64_t value, uint32_t ms, aclrtStream s)
{
    const void *v[] = {&word, &value, &ms};
    size_t sz[] = {8, 8, 4};
    return test_launch(g_sleep_store, 1, s, 3, v, sz);
}

static bool write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static bool read_file(const char *path, void *data, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool ok = fread(data, 1, n, f) == n;
    fclose(f);
    return ok;
}

/* ---- peer modes ---------------------------------------------------------------------- */

/* Opens the event whose handle is in a file, waits for it on its stream,
 * then copies the shared word (IPC memory) into a word of its own: the copy
 * must see what the creator's kernel stored before its record. */
static void peer_waiter(void)
{
    child_arm_alarm();
    int dev = getenv("PEER_DEVICE") ? atoi(getenv("PEER_DEVICE")) : 0;
    CHILD_OK(aclrtSetDevice(dev));
    load_kernels();
    char line[512], path[256], key[128];
    int home = 0;
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "handle %255s %127s %d", path, key, &home) == 3);
    aclrtIpcEventHandle h;
    CHILD_CHECK(read_file(path, &h, sizeof(h)));
    aclrtEvent e = NULL;
    CHILD_OK(aclrtIpcOpenEventHandle(h, &e));
    if (dev != home) {
        int32_t st = 0;
        CHILD_OK(aclrtDevicePeerAccessStatus(dev, home, &st));
        CHILD_CHECK_INT(st, 1); /* granted implicitly by the open */
    }
    aclrtIpcEventHandle again;
    CHILD_OK(aclrtIpcGetEventHandle(e, &again));
    CHILD_CHECK(memcmp(&again, &h, sizeof(h)) == 0); /* keeps naming the creator */
    void *shared = NULL, *mine = NULL;
    CHILD_OK(aclrtIpcMemImportByKey(&shared, key, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS));
    CHILD_OK(aclrtMalloc(&mine, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMemset(mine, 64, 0, 64));
    aclrtStream s = NULL;
    CHILD_OK(aclrtCreateStream(&s));
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    CHILD_OK(aclrtQueryEventStatus(e, &st));
    CHILD_CHECK_INT(st, ACL_EVENT_RECORDED_STATUS_NOT_READY); /* the creator's record is pending */
    CHILD_OK(aclrtStreamWaitEvent(s, e)); /* waitable without ACL_EVENT_SYNC */
    CHILD_OK(aclrtMemcpyAsync(mine, 8, shared, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    child_send("queued"); /* the creator lets its stream go now */
    CHILD_OK(aclrtSynchronizeStream(s));
    uint64_t v = 0;
    CHILD_OK(aclrtMemcpy(&v, 8, mine, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHILD_OK(aclrtSynchronizeEvent(e));
    CHILD_OK(aclrtQueryEventStatus(e, &st));
    CHILD_CHECK_INT(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    /* Now the other way: this process records, the creator waits. */
    CHILD_OK(aclrtValueWrite(shared, 0, 0, s)); /* cleared... */
    CHILD_OK(aclrtSynchronizeStream(s));
    CHILD_OK(launch_sleep_store(shared, 31337, 100, s)); /* ...then set after a while */
    CHILD_OK(aclrtRecordEvent(e, s));
    child_send("copied %llu", (unsigned long long)v);
    child_recv(line, sizeof(line)); /* "bye" */
    CHILD_OK(aclrtSynchronizeStream(s));
    CHILD_OK(aclrtDestroyEvent(e));
    CHILD_OK(aclrtIpcMemClose(key));
    CHILD_OK(aclrtFree(mine));
    CHILD_OK(aclrtDestroyStream(s));
}

/* Opens a never-recorded event: waits are no-ops, it reads complete. */
static void peer_never_recorded(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    char line[512], path[256];
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "handle %255s", path) == 1);
    aclrtIpcEventHandle h;
    CHILD_CHECK(read_file(path, &h, sizeof(h)));
    aclrtEvent e = NULL, e2 = NULL;
    CHILD_OK(aclrtIpcOpenEventHandle(h, &e));
    CHILD_OK(aclrtIpcOpenEventHandle(h, &e2)); /* two handles, one state */
    CHILD_CHECK(e != e2);
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHILD_OK(aclrtQueryEventStatus(e, &st));
    CHILD_CHECK_INT(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHILD_OK(aclrtStreamWaitEvent(NULL, e));
    CHILD_OK(aclrtSynchronizeStream(NULL));
    CHILD_OK(aclrtSynchronizeEvent(e));
    CHILD_ERR(aclrtResetEvent(e, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, NULL);
    child_send("ok");
    CHILD_OK(aclrtDestroyEvent(e));
    CHILD_OK(aclrtDestroyEvent(e2));
}

/* Creates an event, records it behind a notify wait that never ends,
 * hands out the handle and waits to be killed. */
static void peer_dying_recorder(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    char line[512], path[256];
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "path %255s", path) == 1);
    aclrtEvent e = NULL;
    CHILD_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    aclrtNotify never = NULL;
    CHILD_OK(aclrtCreateNotify(&never, 0));
    aclrtStream s = NULL;
    CHILD_OK(aclrtCreateStream(&s));
    CHILD_OK(aclrtWaitAndResetNotify(never, s, 0));
    CHILD_OK(aclrtRecordEvent(e, s));
    aclrtIpcEventHandle h;
    CHILD_OK(aclrtIpcGetEventHandle(e, &h));
    CHILD_CHECK(write_file(path, &h, sizeof(h)));
    child_send("recorded");
    pause();
}

static void peer_profiles(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    aclrtEvent e = NULL;
    CHILD_ERR(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on");
    CHILD_CHECK(e == NULL);
    aclrtIpcEventHandle h;
    memset(&h, 0, sizeof(h));
    CHILD_ERR(aclrtIpcOpenEventHandle(h, &e), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on");
    CHILD_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    CHILD_ERR(aclrtIpcGetEventHandle(e, &h), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on");
    CHILD_OK(aclrtDestroyEvent(e));
}

static const struct oacl_child_mode g_modes[] = {
    {"waiter", peer_waiter},
    {"never_recorded", peer_never_recorded},
    {"dying_recorder", peer_dying_recorder},
    {"profiles", peer_profiles},
};

/* ---- parent side ------------------------------------------------------------------------ */

static char g_dir[64];

static int setup(void **state)
{
    (void)state;
    strcpy(g_dir, "/tmp/oacl-ipc-event-XXXXXX");
    if (!mkdtemp(g_dir) || aclrtSetDevice(0))
        return -1;
    load_kernels();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof(path), "%s/handle", g_dir);
    unlink(path);
    rmdir(g_dir);
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

static void recv_line(struct peer *p, char *line, size_t n)
{
    if (!peer_recv(p, line, n, PEER_TIMEOUT_MS)) {
        int st = peer_wait(p, 1000);
        fail_msg("peer %d sent nothing in time (exit status %d)", (int)p->pid, st);
    }
}

static void check_exit(struct peer *p)
{
    int st = peer_wait(p, PEER_TIMEOUT_MS);
    if (st != 0)
        fail_msg("peer exited with status %d (see its stderr above)", st);
}

static void run_across(int peer_device)
{
    ACL_OK(aclrtSetDevice(0));
    aclrtEvent e = NULL;
    ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    aclrtIpcEventHandle h1, h2;
    memset(&h1, 0x11, sizeof(h1));
    memset(&h2, 0x22, sizeof(h2));
    ACL_OK(aclrtIpcGetEventHandle(e, &h1));
    ACL_OK(aclrtIpcGetEventHandle(e, &h2));
    assert_memory_equal(&h1, &h2, sizeof(h1)); /* all 64 bytes, the same every time */
    assert_memory_equal(h1.reserved, "OACLEVT", 8);
    int32_t pid;
    uint32_t version, device;
    memcpy(&version, h1.reserved + 8, 4);
    memcpy(&pid, h1.reserved + 12, 4);
    memcpy(&device, h1.reserved + 40, 4);
    assert_int_equal(version, 1);
    assert_int_equal(pid, getpid());
    assert_int_equal(device, 0);
    static const char zero[20];
    assert_memory_equal(h1.reserved + 44, zero, 20);

    /* Shared memory the kernel writes before the record. */
    void *shared = NULL;
    ACL_OK(aclrtMalloc(&shared, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(shared, 4096, 0, 4096));
    char key[65];
    ACL_OK(aclrtIpcMemGetExportKey(shared, 4096, key, sizeof(key), ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    aclrtNotify gate = NULL; /* holds the stream until the peer waits */
    ACL_OK(aclrtCreateNotify(&gate, 0));
    ACL_OK(aclrtWaitAndResetNotify(gate, s, 0));
    ACL_OK(launch_sleep_store(shared, 4242, 20, s));
    ACL_OK(aclrtRecordEvent(e, s));

    char path[128];
    snprintf(path, sizeof(path), "%s/handle", g_dir);
    assert_true(write_file(path, &h1, sizeof(h1)));
    char env_dev[32];
    snprintf(env_dev, sizeof(env_dev), "PEER_DEVICE=%d", peer_device);
    const char *env[] = {env_dev, NULL};
    struct peer p;
    assert_true(peer_start(&p, "waiter", env));
    assert_true(peer_send(&p, "handle %s %s 0", path, key));
    char line[256];
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "queued");
    ACL_OK(aclrtRecordNotify(gate, NULL));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "copied 4242"); /* the peer's copy ran after this process's kernel */
    /* The peer recorded behind a slow kernel: wait for its record here. */
    void *mine = NULL;
    ACL_OK(aclrtMalloc(&mine, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtStreamWaitEvent(s, e));
    ACL_OK(aclrtMemcpyAsync(mine, 8, shared, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    ACL_OK(aclrtSynchronizeStream(s));
    uint64_t v = 0;
    ACL_OK(aclrtMemcpy(&v, 8, mine, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(v, 31337);
    assert_true(peer_send(&p, "bye"));
    check_exit(&p);
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtDestroyNotify(gate));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtIpcMemClose(key));
    ACL_OK(aclrtFree(shared));
    ACL_OK(aclrtFree(mine));
}

static void test_record_across_processes(void **state)
{
    (void)state;
    run_across(0);
}

static void test_record_across_devices(void **state)
{
    (void)state;
    run_across(1);
}

static void test_never_recorded(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtEvent e = NULL;
    ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    aclrtIpcEventHandle h;
    ACL_OK(aclrtIpcGetEventHandle(e, &h));
    char path[128];
    snprintf(path, sizeof(path), "%s/handle", g_dir);
    assert_true(write_file(path, &h, sizeof(h)));
    struct peer p;
    assert_true(peer_start(&p, "never_recorded", NULL));
    assert_true(peer_send(&p, "handle %s", path));
    char line[64];
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "ok");
    check_exit(&p);
    ACL_OK(aclrtDestroyEvent(e));
}

/* The peer recorded behind work that never ends and was killed: waits on
 * the record fail with 507022 instead of hanging. */
static void test_dead_recorder(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    char path[128];
    snprintf(path, sizeof(path), "%s/handle", g_dir);
    struct peer p;
    assert_true(peer_start(&p, "dying_recorder", NULL));
    assert_true(peer_send(&p, "path %s", path));
    char line[64];
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "recorded");
    aclrtIpcEventHandle h;
    assert_true(read_file(path, &h, sizeof(h)));
    aclrtEvent e = NULL;
    ACL_OK(aclrtIpcOpenEventHandle(h, &e));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtStreamWaitEvent(s, e)); /* the peer's record is pending */
    ACL_ERR(aclrtSynchronizeEventWithTimeout(e, 50), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, NULL);
    kill(p.pid, SIGKILL);
    assert_int_equal(peer_wait(&p, PEER_TIMEOUT_MS), 128 + SIGKILL);
    ACL_ERR(aclrtSynchronizeEvent(e), ACL_ERROR_RT_IPC_ERROR, "exited before its record ran");
    aclrtEventRecordedStatus st;
    ACL_ERR(aclrtQueryEventStatus(e, &st), ACL_ERROR_RT_IPC_ERROR, "exited before its record ran");
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, PEER_TIMEOUT_MS), ACL_ERROR_RT_IPC_ERROR, "can never end");
    /* The creator is gone: its handle cannot be opened any more. */
    aclrtEvent e2 = NULL;
    ACL_ERR(aclrtIpcOpenEventHandle(h, &e2), ACL_ERROR_RT_PARAM_INVALID, "has exited");
    assert_null(e2);
    /* Recording again here makes the event usable again. */
    ACL_OK(aclrtRecordEvent(e, s));
    ACL_OK(aclrtSynchronizeEvent(e));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_OK(aclrtDestroyStream(s));
}

/* At most 1024 records of one event may be outstanding per holder (D24). */
static void test_outstanding_limit(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtEvent e = NULL;
    ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    aclrtNotify gate = NULL;
    ACL_OK(aclrtCreateNotify(&gate, 0));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtWaitAndResetNotify(gate, s, 0));
    for (int i = 0; i < 1024; i++)
        ACL_OK(aclrtRecordEvent(e, s));
    ACL_ERR(aclrtRecordEvent(e, s), ACL_ERROR_RT_NO_EVENT_RESOURCE, "1024 records");
    ACL_ERR(aclrtSynchronizeEventWithTimeout(e, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, NULL);
    ACL_OK(aclrtRecordNotify(gate, NULL));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtSynchronizeEvent(e));
    ACL_OK(aclrtRecordEvent(e, s)); /* slots are free again */
    ACL_OK(aclrtSynchronizeEvent(e));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtDestroyNotify(gate));
    ACL_OK(aclrtDestroyEvent(e));
}

static void *no_context(void *arg)
{
    aclrtIpcEventHandle *h = arg;
    aclrtEvent e = NULL;
    ACL_ERR(aclrtIpcOpenEventHandle(*h, &e), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    assert_null(e);
    return NULL;
}

static void test_refusals_and_bad_inputs(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtEvent e = NULL, plain = NULL, dead = NULL;
    ACL_ERR(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID, "invalid");
    ACL_ERR(aclrtCreateEventWithFlag(&e, ACL_EVENT_IPC), ACL_ERROR_RT_PARAM_INVALID, "invalid");
    assert_null(e);
    ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    ACL_OK(aclrtCreateEvent(&plain));
    ACL_OK(aclrtCreateEvent(&dead));
    ACL_OK(aclrtDestroyEvent(dead));
    ACL_OK(aclrtRecordEvent(e, NULL));
    ACL_OK(aclrtSynchronizeEvent(e));

    /* Operations IPC events do not have. */
    ACL_ERR(aclrtResetEvent(e, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, NULL);
    float ms = -1.0f;
    ACL_OK(aclrtRecordEvent(plain, NULL));
    ACL_OK(aclrtSynchronizeEvent(plain));
    ACL_ERR(aclrtEventElapsedTime(&ms, e, plain), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "IPC event");
    ACL_ERR(aclrtEventElapsedTime(&ms, plain, e), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "IPC event");
    assert_true(ms == -1.0f);
    uint64_t ts = 7;
    ACL_ERR(aclrtEventGetTimestamp(e, &ts), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "IPC event");
    assert_int_equal(ts, 7);

    /* aclrtIpcGetEventHandle */
    aclrtIpcEventHandle h;
    memset(&h, 0x5C, sizeof(h));
    aclrtIpcEventHandle keep = h;
    ACL_ERR(aclrtIpcGetEventHandle(e, NULL), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtIpcGetEventHandle(NULL, &h), ACL_ERROR_INVALID_PARAM, "event is NULL");
    ACL_ERR(aclrtIpcGetEventHandle(dead, &h), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    ACL_ERR(aclrtIpcGetEventHandle(plain, &h), ACL_ERROR_RT_PARAM_INVALID, "ACL_EVENT_IPC");
    assert_memory_equal(&h, &keep, sizeof(h));

    /* aclrtIpcOpenEventHandle */
    aclrtIpcEventHandle zero;
    memset(&zero, 0, sizeof(zero));
    aclrtEvent o = NULL;
    ACL_ERR(aclrtIpcOpenEventHandle(zero, NULL), ACL_ERROR_INVALID_PARAM, "event is NULL");
    ACL_ERR(aclrtIpcOpenEventHandle(zero, &o), ACL_ERROR_RT_PARAM_INVALID, "bad magic");
    ACL_OK(aclrtIpcGetEventHandle(e, &h));
    aclrtIpcEventHandle v2 = h;
    v2.reserved[8] = 2;
    ACL_ERR(aclrtIpcOpenEventHandle(v2, &o), ACL_ERROR_RT_PARAM_INVALID, "version 2");
    aclrtIpcEventHandle wrong = h;
    wrong.reserved[30] ^= 1; /* one bit of the secret */
    ACL_ERR(aclrtIpcOpenEventHandle(wrong, &o), ACL_ERROR_RT_PARAM_INVALID, "no live IPC event");
    assert_null(o);
    oacl_test_run_thread(no_context, &h);
    /* Opened by its creator (D9): a second event on the same state. */
    ACL_OK(aclrtIpcOpenEventHandle(h, &o));
    aclrtNotify gate = NULL;
    aclrtStream s2 = NULL;
    ACL_OK(aclrtCreateNotify(&gate, 0));
    ACL_OK(aclrtCreateStream(&s2));
    ACL_OK(aclrtWaitAndResetNotify(gate, s2, 0));
    ACL_OK(aclrtRecordEvent(o, s2));
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    ACL_OK(aclrtQueryEventStatus(e, &st)); /* the record through o is e's newest too */
    assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ACL_OK(aclrtRecordNotify(gate, NULL));
    ACL_OK(aclrtSynchronizeEvent(e));
    ACL_OK(aclrtQueryEventStatus(e, &st));
    assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ACL_OK(aclrtDestroyStream(s2));
    ACL_OK(aclrtDestroyNotify(gate));
    ACL_OK(aclrtDestroyEvent(o));
    ACL_OK(aclrtDestroyEvent(e));
    ACL_ERR(aclrtIpcOpenEventHandle(h, &o), ACL_ERROR_RT_PARAM_INVALID, "no live IPC event"); /* destroyed */
    ACL_OK(aclrtDestroyEvent(plain));
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("profiles", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("profiles", "OACL_SOC=Ascend950DT_9571");
}

#define T(fn) cmocka_unit_test(fn)

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    unsetenv("OACL_SOC");
    unsetenv("OACL_DEVICE_COUNT");
    const struct CMUnitTest tests[] = {
        T(test_record_across_processes),
        T(test_record_across_devices),
        T(test_never_recorded),
        T(test_dead_recorder),
        T(test_outstanding_limit),
        T(test_refusals_and_bad_inputs),
        T(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
