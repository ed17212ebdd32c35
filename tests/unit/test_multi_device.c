/*
 * Several devices at once: 8 threads each driving its own device (device
 * memory, copies both ways, kernels, events, memsets), the devices' memory
 * accounting staying separate, and copies between two devices with and
 * without peer access.
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
    char first_failure[1024];
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

static void fill_pattern(uint32_t *p, size_t n, uint32_t base)
{
    for (size_t i = 0; i < n; i++)
        p[i] = base + (uint32_t)i;
}

static void expect_pattern(const uint32_t *p, size_t n, uint32_t base, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != base + (uint32_t)i)
            fail_msg("%s: element %zu is %u, want %u", what, i, p[i], base + (uint32_t)i);
}

/* Reads device memory of `dev` through a copy made on that device. */
static void read_on(int32_t dev, int32_t back, void *dst, const void *src, size_t n)
{
    ACL_OK(aclrtSetDevice(dev));
    ACL_OK(aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_DEVICE_TO_HOST));
    ACL_OK(aclrtSetDevice(back));
}

/* Copies in every direction between the memory of two devices: refused
 * (nothing changed) until the current device enabled peer access to the
 * other, per direction; working afterwards, synchronously and in streams. */
static void test_two_device_copies(void **state)
{
    (void)state;
    enum { N = 1024, BYTES = N * 4 };
    static uint32_t pageable[N], check[N];
    uint32_t *pinned = NULL;
    void *d0 = NULL, *d1 = NULL, *d0b = NULL;
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtMalloc(&d1, BYTES, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    fill_pattern(pageable, N, 100000);
    ACL_OK(aclrtMemcpy(d1, BYTES, pageable, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtMalloc(&d0, BYTES, ACL_MEM_MALLOC_NORMAL_ONLY_P2P));
    ACL_OK(aclrtMalloc(&d0b, BYTES, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtMallocHost((void **)&pinned, BYTES));
    fill_pattern(pageable, N, 200000);
    ACL_OK(aclrtMemcpy(d0, BYTES, pageable, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));

    int32_t status = -1;
    ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
    assert_int_equal(status, 0);
    /* No peer access yet: every copy touching device 1's memory from device
       0 is refused, whatever its direction or form. */
    ACL_ERR(aclrtMemcpy(d1, BYTES, d0, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "dst is memory of device 1");
    ACL_ERR(aclrtMemcpy(d0, BYTES, d1, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "src is memory of device 1");
    ACL_ERR(aclrtMemcpy(d1, BYTES, d0, BYTES, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtDeviceEnablePeerAccess");
    ACL_ERR(aclrtMemcpy(d1, BYTES, pageable, BYTES, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "device 1");
    ACL_ERR(aclrtMemcpy(pinned, BYTES, d1, BYTES, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
            "device 1");
    ACL_ERR(aclrtMemcpyAsync(d1, BYTES, d0, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID,
            "device 1");
    ACL_ERR(aclrtMemcpyAsync(pinned, BYTES, d1, BYTES, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_ERROR_RT_PARAM_INVALID,
            "device 1");
    ACL_OK(aclrtSynchronizeStream(s));
    read_on(1, 0, check, d1, BYTES);
    expect_pattern(check, N, 100000, "device 1 after refused copies");

    /* Device 0 enables access to device 1: copies from device 0 work in all
       directions. */
    ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
    assert_int_equal(status, 1);
    ACL_OK(aclrtMemcpy(d1, BYTES, d0, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE)); /* d1 = 200000.. */
    read_on(1, 0, check, d1, BYTES);
    expect_pattern(check, N, 200000, "D2D 0->1");
    fill_pattern(pageable, N, 300000);
    ACL_OK(aclrtMemcpy(d1, BYTES, pageable, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(check, BYTES, d1, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    expect_pattern(check, N, 300000, "H2D and D2H with device 1 from device 0");
    ACL_OK(aclrtMemcpyAsync(d0b, BYTES, d1, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, s)); /* d0b = 300000.. */
    fill_pattern(pinned, N, 400000);
    ACL_OK(aclrtMemcpyAsync(d1, BYTES, pinned, BYTES, ACL_MEMCPY_HOST_TO_DEVICE, s)); /* d1 = 400000.. */
    ACL_OK(aclrtMemcpyAsync(d0, BYTES, d1, BYTES, ACL_MEMCPY_DEFAULT, s));            /* d0 = 400000.. */
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtMemcpy(check, BYTES, d0b, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    expect_pattern(check, N, 300000, "async D2D 1->0");
    ACL_OK(aclrtMemcpy(check, BYTES, d0, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    expect_pattern(check, N, 400000, "async H2D then D2D (DEFAULT)");

    /* Peer access has a direction: device 1 has not enabled access to 0. */
    ACL_OK(aclrtSetDevice(1));
    ACL_ERR(aclrtMemcpy(d1, BYTES, d0, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "src is memory of device 0");
    ACL_OK(aclrtDeviceEnablePeerAccess(0, 0));
    fill_pattern(pageable, N, 500000);
    ACL_OK(aclrtMemcpy(d0, BYTES, pageable, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(d1, BYTES, d0, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ACL_OK(aclrtMemcpy(check, BYTES, d1, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    expect_pattern(check, N, 500000, "D2D 0->1 from device 1");
    ACL_OK(aclrtDeviceDisablePeerAccess(0));

    /* Disabled again on device 0: refused again. */
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtDeviceDisablePeerAccess(1));
    ACL_ERR(aclrtMemcpy(d0, BYTES, d1, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "cannot reach");

    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtFreeHost(pinned));
    ACL_OK(aclrtFree(d0));
    ACL_OK(aclrtFree(d0b));
    ACL_OK(aclrtFree(d1)); /* any device may free it */
    ACL_OK(aclrtResetDevice(0));
    ACL_OK(aclrtResetDevice(1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eight_threads_eight_devices),
        cmocka_unit_test(test_memory_per_device),
        cmocka_unit_test(test_two_device_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
