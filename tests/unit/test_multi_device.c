/*
 * Several devices at once: 8 threads each driving its own device (device
 * memory, copies both ways, kernels, events, memsets), and the devices'
 * memory accounting staying separate.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

enum { DEVICES = 8, ROUNDS = 40, COUNT = 4096 };

struct worker {
    int32_t device;
    int failures;
    char first_failure[256];
};

static void note(struct worker *w, const char *what, aclError rc)
{
    if (w->failures++ == 0)
        snprintf(w->first_failure, sizeof(w->first_failure), "device %d: %s (%d): %s", w->device, what, rc,
                 aclGetRecentErrMsg());
}

#define TRY(w, call)                                                                                                 \
    do {                                                                                                             \
        aclError rc_ = (call);                                                                                       \
        if (rc_ != ACL_SUCCESS) {                                                                                    \
            note((w), #call, rc_);                                                                                   \
            goto out;                                                                                                \
        }                                                                                                            \
    } while (0)

/* One device's whole life on one thread: memory, copies, kernels that read
 * what the previous round wrote, an event between two streams. */
static void *drive_device(void *arg)
{
    struct worker *w = arg;
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent ev = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle copy_plus;
    uint32_t *a = NULL, *b = NULL, *host = NULL;
    TRY(w, aclrtSetDevice(w->device));
    int32_t current = -1;
    TRY(w, aclrtGetDevice(&current));
    if (current != w->device) {
        note(w, "aclrtGetDevice returned another device", 0);
        goto out;
    }
    TRY(w, aclrtCreateStream(&s1));
    TRY(w, aclrtCreateStream(&s2));
    TRY(w, aclrtCreateEvent(&ev));
    TRY(w, aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &bin));
    TRY(w, aclrtBinaryGetFunction(bin, "copy_plus", &copy_plus));
    TRY(w, aclrtMalloc((void **)&a, COUNT * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    TRY(w, aclrtMalloc((void **)&b, COUNT * 4, ACL_MEM_MALLOC_NORMAL_ONLY));
    TRY(w, aclrtMallocHost((void **)&host, COUNT * 4));
    for (uint32_t i = 0; i < COUNT; i++)
        host[i] = (uint32_t)w->device * 1000000u + i;
    TRY(w, aclrtMemcpy(a, COUNT * 4, host, COUNT * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    for (int r = 0; r < ROUNDS; r++) {
        /* s1: b = a + 1; s2 (after the event): a = b + 1. */
        uint32_t add = 1, count = COUNT / 4;
        aclrtArgsHandle args;
        aclrtParamHandle p;
        TRY(w, aclrtKernelArgsInit(copy_plus, &args));
        TRY(w, aclrtKernelArgsAppend(args, &a, 8, &p));
        TRY(w, aclrtKernelArgsAppend(args, &b, 8, &p));
        TRY(w, aclrtKernelArgsAppend(args, &add, 4, &p));
        TRY(w, aclrtKernelArgsAppend(args, &count, 4, &p));
        TRY(w, aclrtKernelArgsFinalize(args));
        TRY(w, aclrtLaunchKernelWithConfig(copy_plus, 4, s1, NULL, args, NULL));
        TRY(w, aclrtRecordEvent(ev, s1));
        TRY(w, aclrtStreamWaitEvent(s2, ev));
        TRY(w, aclrtKernelArgsInit(copy_plus, &args));
        TRY(w, aclrtKernelArgsAppend(args, &b, 8, &p));
        TRY(w, aclrtKernelArgsAppend(args, &a, 8, &p));
        TRY(w, aclrtKernelArgsAppend(args, &add, 4, &p));
        TRY(w, aclrtKernelArgsAppend(args, &count, 4, &p));
        TRY(w, aclrtKernelArgsFinalize(args));
        TRY(w, aclrtLaunchKernelWithConfig(copy_plus, 4, s2, NULL, args, NULL));
        TRY(w, aclrtRecordEvent(ev, s2));
        TRY(w, aclrtStreamWaitEvent(s1, ev));
    }
    TRY(w, aclrtMemcpyAsync(host, COUNT * 4, a, COUNT * 4, ACL_MEMCPY_DEVICE_TO_HOST, s1));
    TRY(w, aclrtSynchronizeStream(s1));
    for (uint32_t i = 0; i < COUNT; i++) {
        uint32_t want = (uint32_t)w->device * 1000000u + i + 2 * ROUNDS;
        if (host[i] != want) {
            char msg[96];
            snprintf(msg, sizeof(msg), "element %u is %u, want %u", i, host[i], want);
            note(w, msg, 0);
            goto out;
        }
    }
    /* A memset of this device's memory does not reach another device's. */
    TRY(w, aclrtMemset(b, COUNT * 4, 0x5A, COUNT * 4));
    TRY(w, aclrtMemcpy(host, COUNT * 4, b, COUNT * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    if (host[0] != 0x5A5A5A5Au || host[COUNT - 1] != 0x5A5A5A5Au)
        note(w, "memset result", 0);
out:
    if (host)
        aclrtFreeHost(host);
    if (a)
        aclrtFree(a);
    if (b)
        aclrtFree(b);
    if (bin)
        aclrtBinaryUnLoad(bin);
    if (ev)
        aclrtDestroyEvent(ev);
    if (s1)
        aclrtDestroyStream(s1);
    if (s2)
        aclrtDestroyStream(s2);
    aclError rc = aclrtResetDevice(w->device);
    if (rc != ACL_SUCCESS)
        note(w, "aclrtResetDevice", rc);
    return NULL;
}

static void test_eight_threads_eight_devices(void **state)
{
    (void)state;
    uint32_t n = 0;
    ACL_OK(aclrtGetDeviceCount(&n));
    assert_true(n >= DEVICES);
    for (int rep = 0; rep < 3; rep++) {
        struct worker w[DEVICES];
        pthread_t t[DEVICES];
        memset(w, 0, sizeof(w));
        for (int i = 0; i < DEVICES; i++) {
            w[i].device = i;
            assert_int_equal(pthread_create(&t[i], NULL, drive_device, &w[i]), 0);
        }
        for (int i = 0; i < DEVICES; i++)
            assert_int_equal(pthread_join(t[i], NULL), 0);
        for (int i = 0; i < DEVICES; i++)
            if (w[i].failures)
                fail_msg("rep %d: %d failure(s); first: %s", rep, w[i].failures, w[i].first_failure);
    }
}

/* Device memory is accounted per device: what one device allocates leaves
 * the others' free memory alone. */
static void test_memory_per_device(void **state)
{
    (void)state;
    size_t free0, total0, free1, total1, free0b, total0b, free1b, total1b;
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total0));
    void *p = NULL;
    ACL_OK(aclrtMalloc(&p, 64u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0b, &total0b));
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1b, &total1b));
    assert_true(free0 - free0b >= (64u << 20));
    assert_int_equal(free1b, free1);
    assert_int_equal(total0b, total0);
    /* The pointer belongs to device 0 whatever the current device. */
    aclrtPtrAttributes attr;
    ACL_OK(aclrtPointerGetAttributes(p, &attr));
    assert_int_equal(attr.location.id, 0);
    ACL_OK(aclrtFree(p));
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0b, &total0b));
    assert_int_equal(free0b, free0);
    ACL_OK(aclrtResetDevice(0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eight_threads_eight_devices),
        cmocka_unit_test(test_memory_per_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
