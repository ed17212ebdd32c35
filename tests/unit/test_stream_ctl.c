/*
 * Execution control (acl-rt-reliability.md §3.3): aclrtStreamStop,
 * aclrtStreamAbort, aclrtDeviceTaskAbort and its callbacks, the stream and
 * device state observers. Streams are held with gates (a kernel spinning on
 * a mapped word, aclrtValueWait), never with sleeps.
 */
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "test_support.h"

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_spin, g_spin_copy, g_spin_plain, g_mark, g_trap;
/* Mapped host words: gate (64-bit), started[8], done[8], out[8]. */
static struct test_buf g_mem;

#define GATE_OFF 0
#define STARTED_OFF 64
#define DONE_OFF 128
#define OUT_OFF 192
#define OUT2_OFF 256

static volatile uint64_t *gate_host(void) { return (volatile uint64_t *)((char *)g_mem.host + GATE_OFF); }
static volatile uint32_t *host_u32(size_t off) { return (volatile uint32_t *)((char *)g_mem.host + off); }
static void *dev_at(size_t off) { return (char *)g_mem.dev + off; }

static void reset_words(void) { memset(g_mem.host, 0, 512); }

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0))
        return -1;
    test_load("rt_ctl", "spin_until", &g_bin, &g_spin);
    ACL_OK(aclrtBinaryGetFunction(g_bin, "mark", &g_mark));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "trap_now", &g_trap));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "spin_copy", &g_spin_copy));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "spin_plain", &g_spin_plain));
    test_buf_alloc(&g_mem, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_mem);
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

/* A spinning kernel f on s (one block) that never ends on its own; returns
 * once it runs. */
static void launch_spin_fn(aclrtFuncHandle f, aclrtStream s)
{
    void *gate = dev_at(GATE_OFF), *started = dev_at(STARTED_OFF), *done = dev_at(DONE_OFF);
    const void *vals[] = {&gate, &started, &done};
    const size_t sizes[] = {sizeof(void *), sizeof(void *), sizeof(void *)};
    ACL_OK(test_launch(f, 1, s, 3, vals, sizes));
    while (__atomic_load_n(host_u32(STARTED_OFF), __ATOMIC_ACQUIRE) == 0)
        sched_yield(); /* a gate: the block reached its loop */
}

static void launch_spin(aclrtStream s) { launch_spin_fn(g_spin, s); }

static aclError launch_mark(aclrtStream s, size_t off, uint32_t value)
{
    void *out = dev_at(off);
    const void *vals[] = {&out, &value};
    const size_t sizes[] = {sizeof(void *), sizeof(value)};
    return test_launch(g_mark, 1, s, 2, vals, sizes);
}

/* ---- aclrtStreamStop ------------------------------------------------------------ */

static void test_stop_bad(void **state)
{
    (void)state;
    ACL_ERR(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID, "default stream");
    aclrtStream def = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
    ACL_ERR(aclrtStreamStop(def), ACL_ERROR_RT_PARAM_INVALID, "default stream");
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtStreamStop(s), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_ERR(aclrtStreamAbort(s), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    /* A stream of another context: 107003. */
    aclrtContext other = NULL, mine = NULL;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtStreamStop(s), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_ERR(aclrtStreamAbort(s), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_OK(aclrtDestroyContext(other));
}

static void test_stop_running_and_queued(void **state)
{
    (void)state;
    reset_words();
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtStreamStop(s)); /* idle: fine, but stopped all the same */
    aclrtStreamStatus idle = ACL_STREAM_STATUS_COMPLETE;
    ACL_OK(aclrtStreamQuery(s, &idle));
    assert_int_equal(idle, ACL_STREAM_STATUS_NOT_READY);
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, NULL);
    ACL_OK(aclrtStreamAbort(s));
    ACL_OK(aclrtStreamQuery(s, &idle));
    assert_int_equal(idle, ACL_STREAM_STATUS_COMPLETE);
    launch_spin(s);
    ACL_OK(launch_mark(s, OUT_OFF, 7));
    ACL_OK(aclrtStreamStop(s));
    /* The spinning kernel was interrupted (it never marked done), the
       queued one did not run, and waiting would never end: 107023. */
    assert_int_equal(*host_u32(DONE_OFF), 0);
    assert_int_equal(*host_u32(OUT_OFF), 0);
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, "stopped");
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, 1000), ACL_ERROR_RT_STREAM_ABORT, NULL);
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    ACL_OK(aclrtStreamQuery(s, &st));
    assert_int_equal(st, ACL_STREAM_STATUS_NOT_READY);
    ACL_OK(launch_mark(s, OUT_OFF, 8)); /* accepted and queued */
    ACL_OK(aclrtStreamStop(s));         /* stopping again: fine */
    /* Device-wide waits do not hang on it either. */
    ACL_ERR(aclrtSynchronizeDevice(), ACL_ERROR_RT_STREAM_ABORT, NULL);
    assert_int_equal(*host_u32(OUT_OFF), 0);
    /* Memory can be freed while a stream is stopped. */
    void *p = NULL;
    ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtFree(p));
    /* Abort ends the stop: the queue is gone, the stream works again. */
    ACL_OK(aclrtStreamAbort(s));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 0);
    ACL_OK(launch_mark(s, OUT_OFF, 9));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 9);
    assert_int_equal(*host_u32(DONE_OFF), 0);
    ACL_OK(aclrtDestroyStream(s));
}

static void test_stop_releases_value_wait(void **state)
{
    (void)state;
    reset_words();
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtValueWait(dev_at(GATE_OFF), 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    ACL_OK(launch_mark(s, OUT_OFF, 5));
    ACL_OK(aclrtStreamStop(s)); /* the wait in progress is released */
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, NULL);
    *gate_host() = 1; /* opening the gate now changes nothing: the stream is stopped */
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, NULL);
    assert_int_equal(*host_u32(OUT_OFF), 0);
    /* Destroying a stopped stream drops its queue (Correction C1). */
    ACL_OK(aclrtDestroyStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 0);
    *gate_host() = 0;
}

/* ---- aclrtStreamAbort ----------------------------------------------------------- */

static void test_abort_queued(void **state)
{
    (void)state;
    reset_words();
    aclrtStream s = NULL, s2 = NULL;
    aclrtEvent ev = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtCreateStream(&s2));
    ACL_OK(aclrtCreateEvent(&ev));
    ACL_OK(aclrtValueWait(dev_at(GATE_OFF), 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    ACL_OK(launch_mark(s, OUT_OFF, 1));
    ACL_OK(aclrtRecordEvent(ev, s));
    ACL_OK(launch_mark(s, OUT_OFF, 2));
    /* Another stream waits for the record that is going to be dropped. */
    ACL_OK(aclrtStreamWaitEvent(s2, ev));
    ACL_OK(launch_mark(s2, OUT2_OFF, 3));
    ACL_OK(aclrtStreamAbort(s));
    /* Nothing of the queue ran; the dropped record completed, releasing
       host and device waits (Decision 8). */
    assert_int_equal(*host_u32(OUT_OFF), 0);
    ACL_OK(aclrtSynchronizeEvent(ev));
    ACL_OK(aclrtSynchronizeStream(s2));
    assert_int_equal(*host_u32(OUT2_OFF), 3);
    ACL_OK(aclrtSynchronizeStream(s));
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    ACL_OK(aclrtStreamQuery(s, &st));
    assert_int_equal(st, ACL_STREAM_STATUS_COMPLETE);
    *gate_host() = 1; /* the wait is gone too: nothing runs now */
    ACL_OK(launch_mark(s, OUT_OFF, 4));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 4);
    ACL_OK(aclrtDestroyEvent(ev));
    ACL_OK(aclrtDestroyStream(s2));
    ACL_OK(aclrtDestroyStream(s));
    *gate_host() = 0;
}

/* Streams blocked in an event wait and a notify wait are released by an
 * abort (no error); the producers are untouched. */
static void test_abort_releases_waits(void **state)
{
    (void)state;
    reset_words();
    aclrtStream prod = NULL, s = NULL, sn = NULL;
    aclrtEvent ev = NULL;
    aclrtNotify n = NULL;
    ACL_OK(aclrtCreateStream(&prod));
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtCreateStream(&sn));
    ACL_OK(aclrtCreateEvent(&ev));
    ACL_OK(aclrtCreateNotify(&n, 0));
    ACL_OK(aclrtValueWait(dev_at(GATE_OFF), 1, ACL_STREAM_WAIT_VALUE_EQ, prod));
    ACL_OK(aclrtRecordEvent(ev, prod));
    ACL_OK(aclrtStreamWaitEvent(s, ev));
    ACL_OK(launch_mark(s, OUT_OFF, 1));
    ACL_OK(aclrtWaitAndResetNotify(n, sn, 0));
    ACL_OK(launch_mark(sn, OUT2_OFF, 2));
    ACL_OK(aclrtStreamAbort(s));
    ACL_OK(aclrtStreamAbort(sn));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtSynchronizeStream(sn));
    assert_int_equal(*host_u32(OUT_OFF), 0);
    assert_int_equal(*host_u32(OUT2_OFF), 0);
    /* The producer still waits for its gate; both waiting streams work. */
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    ACL_OK(aclrtStreamQuery(prod, &st));
    assert_int_equal(st, ACL_STREAM_STATUS_NOT_READY);
    __atomic_store_n(gate_host(), 1, __ATOMIC_RELEASE);
    ACL_OK(aclrtSynchronizeStream(prod));
    ACL_OK(aclrtRecordNotify(n, prod));
    ACL_OK(aclrtWaitAndResetNotify(n, sn, 0));
    ACL_OK(launch_mark(sn, OUT2_OFF, 3));
    ACL_OK(aclrtSynchronizeStream(sn));
    assert_int_equal(*host_u32(OUT2_OFF), 3);
    ACL_OK(aclrtDestroyNotify(n));
    ACL_OK(aclrtDestroyEvent(ev));
    ACL_OK(aclrtDestroyStream(sn));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtDestroyStream(prod));
    __atomic_store_n(gate_host(), 0, __ATOMIC_RELEASE);
}

static void test_abort_running_kernel(void **state)
{
    (void)state;
    reset_words();
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    launch_spin(s);
    ACL_OK(launch_mark(s, OUT_OFF, 6));
    ACL_OK(aclrtStreamAbort(s)); /* returns once the kernel has stopped */
    assert_int_equal(*host_u32(DONE_OFF), 0);
    assert_int_equal(*host_u32(OUT_OFF), 0);
    ACL_OK(aclrtSynchronizeStream(s)); /* an interrupted kernel is no failure */
    ACL_OK(launch_mark(s, OUT_OFF, 6));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 6);
    ACL_OK(aclrtDestroyStream(s));
}

/* A loop that only moves data is interrupted too (the copy is the
 * interruption point). */
static void test_abort_copy_loop(void **state)
{
    (void)state;
    reset_words();
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    launch_spin_fn(g_spin_copy, s);
    ACL_OK(aclrtStreamAbort(s));
    assert_int_equal(*host_u32(DONE_OFF), 0);
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
}

/* A loop that calls nothing is stopped by the kill signal. ThreadSanitizer
 * delivers signals only at calls it intercepts, so there the test is
 * skipped (the loop would never see the signal). */
static void test_abort_plain_loop(void **state)
{
    (void)state;
#if defined(__SANITIZE_THREAD__)
    skip();
#endif
    reset_words();
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    launch_spin_fn(g_spin_plain, s);
    ACL_OK(launch_mark(s, OUT_OFF, 7));
    ACL_OK(aclrtStreamAbort(s)); /* returns once the kernel has stopped */
    assert_int_equal(*host_u32(DONE_OFF), 0);
    assert_int_equal(*host_u32(OUT_OFF), 0);
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(launch_mark(s, OUT_OFF, 7));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 7);
    ACL_OK(aclrtDestroyStream(s));
}

static void test_abort_default_and_pending_error(void **state)
{
    (void)state;
    reset_words();
    /* NULL is the default stream. A failure not yet reported goes with
       the aborted queue. */
    ACL_OK(test_launch(g_trap, 1, NULL, 0, NULL, NULL));
    ACL_OK(aclrtValueWait(dev_at(GATE_OFF), 1, ACL_STREAM_WAIT_VALUE_EQ, NULL));
    ACL_OK(launch_mark(NULL, OUT_OFF, 1));
    ACL_OK(aclrtStreamAbort(NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(*host_u32(OUT_OFF), 0);
}

/* ---- state observers ------------------------------------------------------------------- */

#define LOG_MAX 32
struct obs_log {
    int n;
    char who[LOG_MAX];
    int state[LOG_MAX];
    void *stream[LOG_MAX];
    int32_t device[LOG_MAX];
    int32_t id_seen[LOG_MAX];
};
static struct obs_log g_log;

static void on_stream(aclrtStream stm, aclrtStreamState st, void *args)
{
    if (g_log.n >= LOG_MAX)
        return;
    int i = g_log.n++;
    g_log.who[i] = *(const char *)args;
    g_log.state[i] = (int)st;
    g_log.stream[i] = stm;
    int32_t id = -1;
    g_log.id_seen[i] = aclrtStreamGetId(stm, &id) == ACL_SUCCESS ? id : -1; /* queries work inside */
}

static void on_device(int32_t dev, aclrtDeviceState st, void *args)
{
    if (g_log.n >= LOG_MAX)
        return;
    int i = g_log.n++;
    g_log.who[i] = *(const char *)args;
    g_log.state[i] = 100 + (int)st;
    g_log.device[i] = dev;
}

static void test_stream_state_callbacks(void **state)
{
    (void)state;
    static const char a = 'a', b = 'b';
    ACL_ERR(aclrtRegStreamStateCallback(NULL, on_stream, NULL), ACL_ERROR_INVALID_PARAM, "regName");
    ACL_OK(aclrtRegStreamStateCallback("zeta", on_stream, (void *)&b));
    ACL_OK(aclrtRegStreamStateCallback("alpha", on_stream, (void *)&a));
    ACL_ERR(aclrtRegStreamStateCallback("alpha", on_stream, (void *)&a), ACL_ERROR_RT_PARAM_INVALID, "already");
    memset(&g_log, 0, sizeof(g_log));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    int32_t id = -1;
    ACL_OK(aclrtStreamGetId(s, &id));
    ACL_OK(aclrtDestroyStream(s));
    /* Name order: alpha, then zeta; the real handle; usable inside. */
    assert_int_equal(g_log.n, 4);
    assert_int_equal(g_log.who[0], 'a');
    assert_int_equal(g_log.who[1], 'b');
    for (int i = 0; i < 4; i++) {
        assert_ptr_equal(g_log.stream[i], s);
        assert_int_equal(g_log.state[i], i < 2 ? ACL_RT_STREAM_STATE_CREATE_POST : ACL_RT_STREAM_STATE_DESTROY_PRE);
        assert_int_equal(g_log.id_seen[i], id);
    }
    /* Forced destroy and the other create variants are observed too. */
    memset(&g_log, 0, sizeof(g_log));
    ACL_OK(aclrtRegStreamStateCallback("zeta", NULL, NULL));
    ACL_OK(aclrtRegStreamStateCallback("never-registered", NULL, NULL));
    ACL_OK(aclrtCreateStreamWithConfig(&s, 0, 0));
    ACL_OK(aclrtDestroyStreamForce(s));
    assert_int_equal(g_log.n, 2);
    assert_int_equal(g_log.state[0], ACL_RT_STREAM_STATE_CREATE_POST);
    assert_int_equal(g_log.state[1], ACL_RT_STREAM_STATE_DESTROY_PRE);
    ACL_OK(aclrtRegStreamStateCallback("alpha", NULL, NULL));
    memset(&g_log, 0, sizeof(g_log));
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtDestroyStream(s));
    assert_int_equal(g_log.n, 0);
}

static void test_device_state_callbacks(void **state)
{
    (void)state;
    static const char d = 'd', s = 's';
    ACL_ERR(aclrtRegDeviceStateCallback(NULL, on_device, NULL), ACL_ERROR_INVALID_PARAM, "regName");
    ACL_OK(aclrtRegDeviceStateCallback("dev", on_device, (void *)&d));
    ACL_ERR(aclrtRegDeviceStateCallback("dev", on_device, NULL), ACL_ERROR_RT_PARAM_INVALID, "already");
    ACL_OK(aclrtRegStreamStateCallback("str", on_stream, (void *)&s));
    memset(&g_log, 0, sizeof(g_log));
    aclrtContext mine = NULL;
    ACL_OK(aclrtGetCurrentContext(&mine));
    /* Device 1 is not set: first set = SET_PRE, default stream created,
       SET_POST; second set = SET_POST only. */
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtSetDevice(1));
    aclrtStream def1 = NULL;
    ACL_OK(aclrtCtxGetCurrentDefaultStream(&def1));
    ACL_OK(aclrtResetDevice(1)); /* still set once: nothing happens */
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetCurrentContext(mine));
    static const int want[] = {100 + ACL_RT_DEVICE_STATE_SET_PRE, ACL_RT_STREAM_STATE_CREATE_POST,
                               100 + ACL_RT_DEVICE_STATE_SET_POST, 100 + ACL_RT_DEVICE_STATE_SET_POST,
                               ACL_RT_STREAM_STATE_DESTROY_PRE, 100 + ACL_RT_DEVICE_STATE_RESET_PRE,
                               100 + ACL_RT_DEVICE_STATE_RESET_POST};
    assert_int_equal(g_log.n, 7);
    for (int i = 0; i < 7; i++) {
        assert_int_equal(g_log.state[i], want[i]);
        if (want[i] >= 100)
            assert_int_equal(g_log.device[i], 1);
        else
            assert_ptr_equal(g_log.stream[i], def1); /* the real handle of the default stream */
    }
    ACL_OK(aclrtRegDeviceStateCallback("dev", NULL, NULL));
    ACL_OK(aclrtRegStreamStateCallback("str", NULL, NULL));
}

/* ---- aclrtDeviceTaskAbort ---------------------------------------------------------------- */

struct abort_log {
    int n;
    char who[8];
    int stage[8];
    int32_t device[8];
    uint32_t remaining[8];
    aclError launch_inside[8];
};
static struct abort_log g_abort;
static int32_t g_pre_result;

static int32_t on_abort(int32_t dev, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void *args)
{
    int i = g_abort.n++;
    g_abort.who[i] = *(const char *)args;
    g_abort.stage[i] = (int)stage;
    g_abort.device[i] = dev;
    g_abort.remaining[i] = timeout;
    /* The device refuses work while the abort runs. */
    g_abort.launch_inside[i] = launch_mark(NULL, OUT2_OFF, 1);
    return 0;
}

static int32_t on_abort_failing(int32_t dev, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void *args)
{
    (void)dev;
    (void)timeout;
    (void)args;
    return stage == ACL_RT_DEVICE_TASK_ABORT_PRE ? g_pre_result : 0;
}

static void test_task_abort_bad(void **state)
{
    (void)state;
    ACL_ERR(aclrtDeviceTaskAbort(0, 2160001), ACL_ERROR_RT_PARAM_INVALID, "timeout");
    ACL_ERR(aclrtDeviceTaskAbort(-1, 0), ACL_ERROR_RT_INVALID_DEVICEID, NULL);
    ACL_ERR(aclrtDeviceTaskAbort(1000, 0), ACL_ERROR_RT_INVALID_DEVICEID, NULL);
    ACL_ERR(aclrtDeviceTaskAbort(2, 0), ACL_ERROR_RT_CONTEXT_NULL, "no context"); /* never set */
    ACL_ERR(aclrtSetDeviceTaskAbortCallback(NULL, on_abort, NULL), ACL_ERROR_INVALID_PARAM, "regName");
    static const char x = 'x';
    ACL_OK(aclrtSetDeviceTaskAbortCallback("x", on_abort, (void *)&x));
    ACL_ERR(aclrtSetDeviceTaskAbortCallback("x", on_abort, (void *)&x), ACL_ERROR_RT_PARAM_INVALID, "already");
    ACL_OK(aclrtSetDeviceTaskAbortCallback("x", NULL, NULL));
    ACL_OK(aclrtSetDeviceTaskAbortCallback("unknown", NULL, NULL));
}

static void test_task_abort_flow(void **state)
{
    (void)state;
    reset_words();
    static const char a = 'a', b = 'b';
    ACL_OK(aclrtSetDeviceTaskAbortCallback("b-second", on_abort, (void *)&b));
    ACL_OK(aclrtSetDeviceTaskAbortCallback("a-first", on_abort, (void *)&a));
    memset(&g_abort, 0, sizeof(g_abort));
    /* Work everywhere on the device: a running kernel, queued work, a
       stream of a second context. */
    aclrtContext mine = NULL, other = NULL;
    ACL_OK(aclrtGetCurrentContext(&mine));
    aclrtStream s = NULL, so = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtCreateContext(&other, 0));
    ACL_OK(aclrtCreateStream(&so));
    ACL_OK(aclrtValueWait(dev_at(GATE_OFF), 1, ACL_STREAM_WAIT_VALUE_EQ, so));
    ACL_OK(launch_mark(so, OUT2_OFF, 2));
    ACL_OK(aclrtSetCurrentContext(mine));
    launch_spin(s);
    ACL_OK(launch_mark(s, OUT_OFF, 1));
    ACL_OK(aclrtDeviceTaskAbort(0, 60000));
    assert_int_equal(*host_u32(DONE_OFF), 0);
    assert_int_equal(*host_u32(OUT_OFF), 0);
    assert_int_equal(*host_u32(OUT2_OFF), 0);
    /* PRE then POST, each in name order, with the device and time left. */
    assert_int_equal(g_abort.n, 4);
    static const char who[] = {'a', 'b', 'a', 'b'};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(g_abort.who[i], who[i]);
        assert_int_equal(g_abort.stage[i], i < 2 ? ACL_RT_DEVICE_TASK_ABORT_PRE : ACL_RT_DEVICE_TASK_ABORT_POST);
        assert_int_equal(g_abort.device[i], 0);
        assert_true(g_abort.remaining[i] <= 60000);
        assert_int_equal(g_abort.launch_inside[i], ACL_ERROR_RT_DEVICE_TASK_ABORT);
    }
    /* Back to normal everywhere. */
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(launch_mark(s, OUT_OFF, 3));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 3);
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtSynchronizeStream(so));
    assert_int_equal(*host_u32(OUT2_OFF), 0);
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyStream(s));
    /* No bound: the callbacks see 0. */
    memset(&g_abort, 0, sizeof(g_abort));
    ACL_OK(aclrtDeviceTaskAbort(0, 0));
    assert_int_equal(g_abort.n, 4);
    assert_int_equal(g_abort.remaining[0], 0);
    ACL_OK(aclrtSetDeviceTaskAbortCallback("a-first", NULL, NULL));
    ACL_OK(aclrtSetDeviceTaskAbortCallback("b-second", NULL, NULL));
}

static void test_task_abort_callback_fails(void **state)
{
    (void)state;
    reset_words();
    g_pre_result = 7;
    ACL_OK(aclrtSetDeviceTaskAbortCallback("failing", on_abort_failing, NULL));
    ACL_ERR(aclrtDeviceTaskAbort(0, 0), 7, "returned 7");
    /* The device stays in the abort state. */
    ACL_ERR(launch_mark(NULL, OUT_OFF, 1), ACL_ERROR_RT_DEVICE_TASK_ABORT, "task abort");
    ACL_ERR(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_DEVICE_TASK_ABORT, NULL);
    ACL_ERR(aclrtSynchronizeDevice(), ACL_ERROR_RT_DEVICE_TASK_ABORT, NULL);
    uint32_t w = 0;
    void *buf = NULL;
    ACL_OK(aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_ERR(aclrtMemcpy(buf, 4, &w, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_DEVICE_TASK_ABORT, NULL);
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtStreamAbort(s)); /* covered by the device abort: success */
    ACL_OK(aclrtDestroyStream(s));
    /* Calling again after fixing the cause ends it. */
    g_pre_result = 0;
    ACL_OK(aclrtDeviceTaskAbort(0, 0));
    ACL_OK(aclrtMemcpy(buf, 4, &w, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(launch_mark(NULL, OUT_OFF, 2));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(*host_u32(OUT_OFF), 2);
    ACL_OK(aclrtFree(buf));
    ACL_OK(aclrtSetDeviceTaskAbortCallback("failing", NULL, NULL));
}

static void test_task_abort_clears_stop_mode(void **state)
{
    (void)state;
    reset_words();
    aclrtContext mine = NULL, ctx = NULL;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&ctx, 0));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ACL_OK(test_launch(g_trap, 1, s, 0, NULL, NULL));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, NULL);
    ACL_ERR(launch_mark(s, OUT_OFF, 1), ACL_ERROR_RT_AICORE_EXCEPTION, NULL);
    /* A stream abort does not clear the context's failed state ... */
    ACL_OK(aclrtStreamAbort(s));
    ACL_ERR(launch_mark(s, OUT_OFF, 1), ACL_ERROR_RT_AICORE_EXCEPTION, NULL);
    /* ... a device task abort does. */
    ACL_OK(aclrtDeviceTaskAbort(0, 0));
    ACL_OK(launch_mark(s, OUT_OFF, 4));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 4);
    ACL_OK(aclrtDestroyContext(ctx));
    ACL_OK(aclrtSetCurrentContext(mine));
}

/* Aborts from another thread while this one waits: the waiter is
 * released with 107023 or 0, never hangs. */
struct abort_arg {
    aclrtContext ctx;
    aclrtStream s;
    aclError rc;
};

static void *abort_thread(void *p)
{
    struct abort_arg *a = p;
    aclrtSetCurrentContext(a->ctx);
    a->rc = aclrtStreamStop(a->s);
    return NULL;
}

static void test_stop_from_other_thread(void **state)
{
    (void)state;
    reset_words();
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    launch_spin(s);
    struct abort_arg a = {NULL, s, -1};
    ACL_OK(aclrtGetCurrentContext(&a.ctx));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, abort_thread, &a), 0);
    /* Either the stop lands while this sync waits (released with 107023)
       or before it (107023 at once): never a hang, never success. */
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, NULL);
    pthread_join(t, NULL);
    assert_int_equal(a.rc, ACL_SUCCESS);
    ACL_OK(aclrtStreamAbort(s));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_stop_releases_event_sync(void **state)
{
    (void)state;
    reset_words();
    aclrtStream s = NULL;
    aclrtEvent ev = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtCreateEvent(&ev));
    launch_spin(s);
    ACL_OK(aclrtRecordEvent(ev, s));
    struct abort_arg a = {NULL, s, -1};
    ACL_OK(aclrtGetCurrentContext(&a.ctx));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, abort_thread, &a), 0);
    /* The record sits behind the spinning kernel: this waits until the
       stop, then reports that it would wait forever. */
    ACL_ERR(aclrtSynchronizeEvent(ev), ACL_ERROR_RT_STREAM_ABORT, "stopped");
    pthread_join(t, NULL);
    assert_int_equal(a.rc, ACL_SUCCESS);
    ACL_ERR(aclrtSynchronizeEventWithTimeout(ev, 10000), ACL_ERROR_RT_STREAM_ABORT, NULL);
    /* The abort drops the record, which completes: the event is usable. */
    ACL_OK(aclrtStreamAbort(s));
    ACL_OK(aclrtSynchronizeEvent(ev));
    ACL_OK(aclrtRecordEvent(ev, s));
    ACL_OK(aclrtSynchronizeEvent(ev));
    ACL_OK(aclrtDestroyEvent(ev));
    ACL_OK(aclrtDestroyStream(s));
}

static uint32_t g_hf_started, g_hf_release;

/* A host function that runs until the test lets it go. */
static void blocking_host_fn(void *args)
{
    (void)args;
    __atomic_store_n(&g_hf_started, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&g_hf_release, __ATOMIC_ACQUIRE))
        sched_yield();
}

static void *stream_abort_thread(void *p)
{
    struct abort_arg *a = p;
    aclrtSetCurrentContext(a->ctx);
    a->rc = aclrtStreamAbort(a->s);
    return NULL;
}

/* While an abort is in progress (it waits for a running host function,
 * which cannot be interrupted), other threads' submissions and
 * synchronisations on the stream return 107023. */
static void test_abort_in_progress_refuses(void **state)
{
    (void)state;
    reset_words();
    g_hf_started = g_hf_release = 0;
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtLaunchHostFunc(s, blocking_host_fn, NULL));
    while (!__atomic_load_n(&g_hf_started, __ATOMIC_ACQUIRE))
        sched_yield();
    ACL_OK(launch_mark(s, OUT_OFF, 1));
    struct abort_arg a = {NULL, s, -1};
    ACL_OK(aclrtGetCurrentContext(&a.ctx));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, stream_abort_thread, &a), 0);
    aclError rc;
    while ((rc = launch_mark(s, OUT_OFF, 2)) == ACL_SUCCESS)
        sched_yield(); /* until the abort has begun */
    assert_int_equal(rc, ACL_ERROR_RT_STREAM_ABORT);
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, "being aborted");
    ACL_ERR(aclrtStreamStop(s), ACL_ERROR_RT_STREAM_ABORT, NULL);
    __atomic_store_n(&g_hf_release, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    assert_int_equal(a.rc, ACL_SUCCESS);
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 0); /* every queued mark was dropped */
    ACL_OK(launch_mark(s, OUT_OFF, 3));
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(*host_u32(OUT_OFF), 3);
    ACL_OK(aclrtDestroyStream(s));
}

struct sync_arg {
    aclrtContext ctx;
    aclrtStream s;
    aclError rc;
    uint32_t done;
};
static struct sync_arg g_sync_arg;

static void *sync_thread(void *p)
{
    struct sync_arg *a = p;
    aclrtSetCurrentContext(a->ctx);
    a->rc = aclrtSynchronizeStream(a->s);
    __atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* POST: the device stays in its abort until the other thread's
 * synchronisation has come back. */
static int32_t wait_for_sync(int32_t dev, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void *args)
{
    (void)dev;
    (void)timeout;
    (void)args;
    if (stage == ACL_RT_DEVICE_TASK_ABORT_POST)
        while (!__atomic_load_n(&g_sync_arg.done, __ATOMIC_ACQUIRE))
            sched_yield();
    return 0;
}

/* A synchronisation waiting for a running kernel when a device task abort
 * comes (or made during it) returns 107022. */
static void test_task_abort_releases_sync(void **state)
{
    (void)state;
    reset_words();
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    launch_spin(s);
    memset(&g_sync_arg, 0, sizeof(g_sync_arg));
    g_sync_arg.s = s;
    ACL_OK(aclrtGetCurrentContext(&g_sync_arg.ctx));
    ACL_OK(aclrtSetDeviceTaskAbortCallback("wait-for-sync", wait_for_sync, NULL));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, sync_thread, &g_sync_arg), 0);
    ACL_OK(aclrtDeviceTaskAbort(0, 0));
    pthread_join(t, NULL);
    assert_int_equal(g_sync_arg.rc, ACL_ERROR_RT_DEVICE_TASK_ABORT);
    assert_int_equal(*host_u32(DONE_OFF), 0);
    ACL_OK(aclrtSetDeviceTaskAbortCallback("wait-for-sync", NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_bad),
        cmocka_unit_test(test_stop_running_and_queued),
        cmocka_unit_test(test_stop_releases_value_wait),
        cmocka_unit_test(test_abort_queued),
        cmocka_unit_test(test_abort_releases_waits),
        cmocka_unit_test(test_abort_running_kernel),
        cmocka_unit_test(test_abort_copy_loop),
        cmocka_unit_test(test_abort_plain_loop),
        cmocka_unit_test(test_abort_default_and_pending_error),
        cmocka_unit_test(test_stream_state_callbacks),
        cmocka_unit_test(test_device_state_callbacks),
        cmocka_unit_test(test_task_abort_bad),
        cmocka_unit_test(test_task_abort_flow),
        cmocka_unit_test(test_task_abort_callback_fails),
        cmocka_unit_test(test_task_abort_clears_stop_mode),
        cmocka_unit_test(test_stop_from_other_thread),
        cmocka_unit_test(test_stop_releases_event_sync),
        cmocka_unit_test(test_abort_in_progress_refuses),
        cmocka_unit_test(test_task_abort_releases_sync),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
