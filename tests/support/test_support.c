#include "test_support.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void oacl_test_clear_msgs(void) { (void)aclGetRecentErrMsg(); }

void oacl_test_check_ok(aclError got, const char *expr, const char *file, int line)
{
    if (got != ACL_SUCCESS) {
        const char *msg = aclGetRecentErrMsg();
        print_error("%s:%d: %s returned %d (%s)\n", file, line, expr, got, msg ? msg : "no message");
        _fail(file, line);
    }
}

void oacl_test_check_err(aclError got, aclError want, const char *needle, const char *expr, const char *file,
                         int line)
{
    const char *msg = aclGetRecentErrMsg();
    if (got != want) {
        print_error("%s:%d: %s returned %d, expected %d (%s)\n", file, line, expr, got, want,
                       msg ? msg : "no message");
        _fail(file, line);
    }
    if (!msg || !*msg) {
        print_error("%s:%d: %s returned %d but left no aclGetRecentErrMsg text\n", file, line, expr, got);
        _fail(file, line);
    }
    if (needle && !strstr(msg, needle)) {
        print_error("%s:%d: %s: message \"%s\" does not mention \"%s\"\n", file, line, expr, msg, needle);
        _fail(file, line);
    }
}

const char *oacl_test_kernel_path(const char *name)
{
    static __thread char path[4096];
    snprintf(path, sizeof(path), "%s/%s.o", OACL_TEST_KERNEL_DIR, name);
    return path;
}

void test_buf_alloc(struct test_buf *b, size_t size)
{
    b->size = size;
    ACL_OK(aclrtMallocHost(&b->host, size));
    ACL_OK(aclrtHostRegisterV2(b->host, size, ACL_HOST_REG_MAPPED));
    ACL_OK(aclrtHostGetDevicePointer(b->host, &b->dev, 0));
    memset(b->host, 0, size);
}

void test_buf_free(struct test_buf *b)
{
    ACL_OK(aclrtHostUnregister(b->host));
    ACL_OK(aclrtFreeHost(b->host));
    b->host = b->dev = NULL;
}

aclError test_launch(aclrtFuncHandle f, uint32_t blocks, aclrtStream stream, int n, const void *const *values,
                     const size_t *sizes)
{
    aclrtArgsHandle args;
    aclrtParamHandle p;
    aclError rc = aclrtKernelArgsInit(f, &args);
    for (int i = 0; rc == ACL_SUCCESS && i < n; i++)
        rc = aclrtKernelArgsAppend(args, (void *)values[i], sizes[i], &p);
    if (rc == ACL_SUCCESS)
        rc = aclrtKernelArgsFinalize(args);
    if (rc == ACL_SUCCESS)
        rc = aclrtLaunchKernelWithConfig(f, blocks, stream, NULL, args, NULL);
    return rc;
}

void test_load(const char *name, const char *kernel, aclrtBinHandle *bin, aclrtFuncHandle *f)
{
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path(name), NULL, bin));
    ACL_OK(aclrtBinaryGetFunction(*bin, kernel, f));
}

void oacl_test_reset_devices(void)
{
    uint32_t n = 0;
    if (aclrtGetDeviceCount(&n) != ACL_SUCCESS)
        n = 0;
    for (int32_t d = 0; d < (int32_t)n; d++)
        (void)aclrtResetDeviceForce(d);
    (void)aclGetRecentErrMsg();
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
}

int oacl_test_reset_fixture(void **state)
{
    (void)state;
    oacl_test_reset_devices();
    return 0;
}

int oacl_test_streams_setup(void **state)
{
    for (aclrtStream **s = *state; *s; s++)
        if (aclrtCreateStream(*s) != ACL_SUCCESS)
            return -1;
    (void)aclGetRecentErrMsg();
    return 0;
}

int oacl_test_streams_teardown(void **state)
{
    for (aclrtStream **s = *state; *s; s++)
        aclrtDestroyStream(**s);
    return 0;
}

void oacl_test_run_thread(void *(*fn)(void *), void *arg)
{
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, fn, arg), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
}

uint64_t test_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void test_sleep_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}
