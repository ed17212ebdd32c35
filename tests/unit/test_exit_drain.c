/*
 * Kernels launched and never synchronised still run to completion before
 * the process exits. A child process launches work and exits at once; the
 * parent checks the work's effect in memory shared with the child.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

static void child(volatile uint32_t *shared)
{
    if (aclInit(NULL) || aclrtSetDevice(0))
        _exit(10);
    aclrtStream s;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    void *dev;
    if (aclrtCreateStream(&s) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &bin) ||
        aclrtBinaryGetFunction(bin, "sleep_kernel", &f) ||
        aclrtHostRegisterV2((void *)shared, 4096, ACL_HOST_REG_MAPPED) ||
        aclrtHostGetDevicePointer((void *)shared, &dev, 0))
        _exit(11);
    uint32_t ms = 20;
    const void *vals[] = {&dev, &ms};
    size_t sizes[] = {8, 4};
    for (int i = 0; i < 5; i++)
        if (test_launch(f, 4, s, 2, vals, sizes))
            _exit(12);
    exit(0); /* no synchronise */
}

/* The same, then the stream is destroyed by force, device memory freed,
 * the device reset and the runtime finalized, still without a synchronise:
 * the work submitted before the destroy runs anyway. */
static void child_force(volatile uint32_t *shared)
{
    if (aclInit(NULL) || aclrtSetDevice(0))
        _exit(10);
    aclrtStream s;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    void *dev, *scratch;
    if (aclrtCreateStream(&s) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &bin) ||
        aclrtBinaryGetFunction(bin, "sleep_kernel", &f) ||
        aclrtHostRegisterV2((void *)shared, 4096, ACL_HOST_REG_MAPPED) ||
        aclrtHostGetDevicePointer((void *)shared, &dev, 0) ||
        aclrtMalloc(&scratch, 4096, ACL_MEM_MALLOC_NORMAL_ONLY))
        _exit(11);
    uint32_t ms = 20;
    const void *vals[] = {&dev, &ms};
    size_t sizes[] = {8, 4};
    for (int i = 0; i < 5; i++)
        if (test_launch(f, 4, s, 2, vals, sizes))
            _exit(12);
    if (aclrtDestroyStreamForce(s) || aclrtFree(scratch) || aclrtResetDevice(0) || aclFinalize())
        _exit(13);
    exit(0);
}

static void run_child(void (*fn)(volatile uint32_t *))
{
    volatile uint32_t *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    assert_true(shared != MAP_FAILED);
    *shared = 0;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        fn(shared);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(*shared, 20); /* 5 launches x 4 blocks */
    munmap((void *)shared, 4096);
}

static void test_force_destroyed_work_runs(void **state)
{
    (void)state;
    run_child(child_force);
}

static void test_exit_runs_queued_kernels(void **state)
{
    (void)state;
    run_child(child);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_exit_runs_queued_kernels),
                                       cmocka_unit_test(test_force_destroyed_work_runs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
