/*
 * aclrtDestroyStreamForce (spec 4.4, corrected 2026-12-03): the call does
 * not wait, the handle is dead at once, and every task submitted before it
 * still runs, in order: kernels, copies and host functions. Frees of memory
 * those tasks use, device synchronisation and resets wait for them; streams
 * destroyed this way are reclaimed once idle.
 *
 * Each stream here is held at its head by a value wait on a word only the
 * test writes, so that the tasks behind it cannot have started when the
 * stream is destroyed: a runtime that dropped them would fail every check.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static aclrtBinHandle g_misc;
static aclrtFuncHandle g_count;
static uint64_t *g_gate;     /* device word the streams wait on */
static uint32_t *g_counter;  /* device memory bumped by count_blocks */
static uint32_t *g_copy;     /* device memory: a copy of the counter */
static aclrtContext g_ctx;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_misc) ||
        aclrtBinaryGetFunction(g_misc, "count_blocks", &g_count) || aclrtGetCurrentContext(&g_ctx))
        return -1;
    if (aclrtMalloc((void **)&g_gate, 64, ACL_MEM_MALLOC_NORMAL_ONLY) ||
        aclrtMalloc((void **)&g_counter, 64, ACL_MEM_MALLOC_NORMAL_ONLY) ||
        aclrtMalloc((void **)&g_copy, 64, ACL_MEM_MALLOC_NORMAL_ONLY))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtFree(g_gate);
    aclrtFree(g_counter);
    aclrtFree(g_copy);
    aclrtBinaryUnLoad(g_misc);
    return aclrtResetDeviceForce(0);
}

static void put_u64(uint64_t *dev, uint64_t v) { ACL_OK(aclrtMemcpy(dev, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE)); }

static uint32_t get_u32(const uint32_t *dev)
{
    uint32_t v = 0;
    ACL_OK(aclrtMemcpy(&v, 4, dev, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
}

static void reset_state(void)
{
    put_u64(g_gate, 0);
    ACL_OK(aclrtMemset(g_counter, 64, 0, 64));
    ACL_OK(aclrtMemset(g_copy, 64, 0, 64));
}

static void count(aclrtStream s, uint32_t blocks)
{
    const void *v[] = {&g_counter};
    size_t sz[] = {8};
    ACL_OK(test_launch(g_count, blocks, s, 1, v, sz));
}

static void bump(void *arg) { __atomic_add_fetch((int *)arg, 1, __ATOMIC_ACQ_REL); }

/* Runs aclrtDestroyStreamForce on another thread and fails the test if it
 * has not returned within 10 s (it must not wait for the gated work). */
struct destroy_call {
    aclrtContext ctx;
    aclrtStream s;
    aclError rc;
    int done; /* atomic */
};

static void *destroy_main(void *p)
{
    struct destroy_call *c = p;
    c->rc = aclrtSetCurrentContext(c->ctx);
    if (c->rc == ACL_SUCCESS)
        c->rc = aclrtDestroyStreamForce(c->s);
    __atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void destroy_without_waiting(aclrtStream s)
{
    struct destroy_call c = {.s = s};
    ACL_OK(aclrtGetCurrentContext(&c.ctx));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, destroy_main, &c), 0);
    uint64_t start = test_now_ms();
    while (!__atomic_load_n(&c.done, __ATOMIC_ACQUIRE) && test_now_ms() - start < 10000)
        test_sleep_ms(1);
    if (!__atomic_load_n(&c.done, __ATOMIC_ACQUIRE)) {
        put_u64(g_gate, 1); /* let it finish so the test can report */
        pthread_join(t, NULL);
        fail_msg("aclrtDestroyStreamForce waited for the stream's work");
    }
    pthread_join(t, NULL);
    assert_int_equal(c.rc, ACL_SUCCESS);
}

/* Kernels, a copy and a host function queued behind the gate all run after
 * the forced destroy; aclrtFree of other memory waits for them. */
static void test_submitted_work_runs(void **state)
{
    (void)state;
    reset_state();
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    int ran = 0;
    ACL_OK(aclrtValueWait(g_gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    for (int i = 0; i < 3; i++)
        count(s, 4);
    ACL_OK(aclrtMemcpyAsync(g_copy, 4, g_counter, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    ACL_OK(aclrtLaunchHostFunc(s, bump, &ran));
    destroy_without_waiting(s);
    /* The handle is dead at once. */
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream handle");
    ACL_ERR(aclrtLaunchHostFunc(s, bump, &ran), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream handle");
    ACL_ERR(aclrtDestroyStreamForce(s), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream handle");
    assert_int_equal(get_u32(g_counter), 0); /* still held by the gate */
    assert_int_equal(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), 0);
    put_u64(g_gate, 1);
    /* Freeing device memory waits for the device's queued work, the
       destroyed stream's included. */
    void *other = NULL;
    ACL_OK(aclrtMalloc(&other, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtFree(other));
    assert_int_equal(get_u32(g_counter), 12);
    assert_int_equal(get_u32(g_copy), 12);
    assert_int_equal(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), 1);
}

/* aclrtSynchronizeDevice covers the work of streams destroyed by force. */
static void test_synchronize_device_waits(void **state)
{
    (void)state;
    reset_state();
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    int ran = 0;
    ACL_OK(aclrtValueWait(g_gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    count(s, 8);
    ACL_OK(aclrtLaunchHostFunc(s, bump, &ran));
    destroy_without_waiting(s);
    put_u64(g_gate, 1);
    ACL_OK(aclrtSynchronizeDevice());
    assert_int_equal(get_u32(g_counter), 8);
    assert_int_equal(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), 1);
}

/* A device reset drains the work of streams destroyed by force. */
static void *open_gate_later(void *p)
{
    test_sleep_ms(50);
    ACL_OK(aclrtSetCurrentContext(g_ctx));
    put_u64(p, 1);
    return NULL;
}

static void test_reset_drains(void **state)
{
    (void)state;
    reset_state();
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    int ran = 0;
    ACL_OK(aclrtValueWait(g_gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    count(s, 2);
    ACL_OK(aclrtLaunchHostFunc(s, bump, &ran));
    ACL_OK(aclrtLaunchHostFunc(s, bump, &ran));
    destroy_without_waiting(s);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, open_gate_later, g_gate), 0);
    ACL_OK(aclrtSynchronizeDevice()); /* only returns once the gate opened */
    pthread_join(t, NULL);
    assert_int_equal(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), 2);
    /* Now through a reset: nothing synchronises before it. */
    put_u64(g_gate, 0);
    ran = 0;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t *x = NULL;
    ACL_OK(aclrtMalloc((void **)&x, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtValueWait(g_gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    const void *v[] = {&x};
    size_t sz[] = {8};
    ACL_OK(test_launch(g_count, 2, s, 1, v, sz));
    ACL_OK(aclrtLaunchHostFunc(s, bump, &ran));
    destroy_without_waiting(s);
    assert_int_equal(pthread_create(&t, NULL, open_gate_later, g_gate), 0);
    ACL_OK(aclrtFree(x)); /* x is in use by the stream: waits for it */
    assert_int_equal(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), 1);
    pthread_join(t, NULL);
    put_u64(g_gate, 0);
    ran = 0;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtValueWait(g_gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    ACL_OK(aclrtLaunchHostFunc(s, bump, &ran));
    destroy_without_waiting(s);
    put_u64(g_gate, 1);
    ACL_OK(aclrtResetDevice(0));
    assert_int_equal(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), 1);
    /* setup state again for the next tests */
    assert_int_equal(setup(NULL), 0);
}

/* Streams destroyed by force are reclaimed once idle: far more of them
 * than a device may hold at once can be created in turn. */
static void test_reclaimed_when_idle(void **state)
{
    (void)state;
    reset_state();
    enum { N = 3000 };
    for (int i = 0; i < N; i++) {
        aclrtStream s;
        ACL_OK(aclrtCreateStream(&s));
        count(s, 1);
        ACL_OK(aclrtDestroyStreamForce(s));
        if (i % 256 == 255)
            ACL_OK(aclrtSynchronizeDevice());
    }
    ACL_OK(aclrtSynchronizeDevice());
    assert_int_equal(get_u32(g_counter), N);
}

/* Under ACL_STOP_ON_FAILURE, a stream that failed is not run on. */
static void test_stop_on_failure_still_drops(void **state)
{
    (void)state;
    reset_state();
    aclrtBinHandle faults;
    aclrtFuncHandle trap;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_faults"), NULL, &faults));
    ACL_OK(aclrtBinaryGetFunction(faults, "trap_kernel", &trap));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    int ran = 0;
    ACL_OK(aclrtValueWait(g_gate, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
    uint32_t zero = 0;
    const void *v[] = {&g_counter, &zero};
    size_t sz[] = {8, 4};
    ACL_OK(test_launch(trap, 1, s, 2, v, sz));
    ACL_OK(aclrtLaunchHostFunc(s, bump, &ran));
    destroy_without_waiting(s);
    put_u64(g_gate, 1);
    aclError rc = aclrtSynchronizeDevice();
    assert_int_not_equal(rc, ACL_SUCCESS);
    assert_int_equal(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), 0);
    ACL_OK(aclrtBinaryUnLoad(faults));
    /* The context stays stopped: start again from a fresh one. */
    ACL_OK(aclrtResetDeviceForce(0));
    assert_int_equal(setup(NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_submitted_work_runs),
        cmocka_unit_test(test_synchronize_device_waits),
        cmocka_unit_test(test_reset_drains),
        cmocka_unit_test(test_reclaimed_when_idle),
        cmocka_unit_test(test_stop_on_failure_still_drops),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
