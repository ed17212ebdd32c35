/*
 * The memory checker (spec acl-rt-reliability.md, Decisions 1 and 10):
 * guard pages after device allocations, memcheck mode (allocations end at
 * their guard page, freed memory in quarantine, allocation sites), the
 * range checks of kernel-side global-memory APIs, read-only host
 * registrations and the leak report.
 *
 * Hardware faults (a store into a guard page, freed or read-only memory)
 * are provoked in a fresh copy of this program (re-executed with
 * MC_CHILD=<case>): until kernel faults are isolated, such a store kills
 * the process; afterwards it fails the launch. Either counts as caught.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

extern char **environ;

static size_t page_sz(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* ---- children ----------------------------------------------------------------- */

static aclrtFuncHandle child_func(const char *kernel)
{
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    if (aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_memcheck"), NULL, &bin) ||
        aclrtBinaryGetFunction(bin, kernel, &f))
        _exit(20);
    return f;
}

/* Launches mc_raw_write(p, off) and synchronises: exits 3 with the code on
 * stderr when the launch fails, 4 when the store went through. */
static void child_raw_write(aclrtStream s, void *p, uint64_t off)
{
    aclrtFuncHandle f = child_func("mc_raw_write");
    const void *vals[] = {&p, &off};
    size_t sizes[] = {8, 8};
    if (test_launch(f, 1, s, 2, vals, sizes))
        _exit(21);
    aclError rc = aclrtSynchronizeStream(s);
    if (rc) {
        fprintf(stderr, "launch failed: %d: %s\n", (int)rc, aclGetRecentErrMsg());
        _exit(3);
    }
    _exit(4);
}

static int child_main(const char *mode)
{
    size_t ps = page_sz();
    aclrtStream s;
    if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&s))
        return 10;
    volatile unsigned char *p = NULL;
    if (!strcmp(mode, "guard_host") || !strcmp(mode, "guard_kernel")) {
        /* A page-sized allocation without slack: its guard follows it. */
        if (aclrtMallocAlign32((void **)&p, ps, ACL_MEM_MALLOC_HUGE_FIRST))
            return 11;
        p[ps - 1] = 1;
        fprintf(stderr, "in bounds ok\n");
        if (!strcmp(mode, "guard_kernel"))
            child_raw_write(s, (void *)p, ps);
        p[ps] = 1;
        return 4;
    }
    if (!strcmp(mode, "quarantine")) { /* OACL_MEMCHECK=1: exit 0 when a freed range comes back at once */
        void *a, *b;
        if (aclrtMalloc(&a, 1000, ACL_MEM_MALLOC_HUGE_FIRST) || aclrtFree(a) ||
            aclrtMalloc(&b, 1000, ACL_MEM_MALLOC_HUGE_FIRST))
            return 11;
        return a == b ? 0 : 5;
    }
    if (!strcmp(mode, "noguard")) { /* OACL_DEVICE_GUARD_PAGES=0: nothing stops the store */
        if (aclrtMallocAlign32((void **)&p, ps, ACL_MEM_MALLOC_HUGE_FIRST))
            return 11;
        p[ps] = 1;
        return 0;
    }
    if (!strcmp(mode, "tail")) { /* OACL_MEMCHECK=1 */
        if (aclrtMalloc((void **)&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST))
            return 11;
        if (((uintptr_t)p + 1024) % ps != 0)
            return 12;
        p[1023] = 1;
        fprintf(stderr, "in bounds ok\n");
        p[1024] = 1;
        return 4;
    }
    if (!strcmp(mode, "uaf") || !strcmp(mode, "uaf_kernel")) { /* OACL_MEMCHECK=1 */
        if (aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST))
            return 11;
        p[0] = 1;
        if (aclrtFree((void *)p))
            return 12;
        fprintf(stderr, "freed\n");
        if (!strcmp(mode, "uaf_kernel"))
            child_raw_write(s, (void *)p, 0);
        p[0] = 2;
        return 4;
    }
    if (!strcmp(mode, "ro_kernel")) {
        unsigned char *h = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        void *d;
        if (h == MAP_FAILED || aclrtHostRegisterV2(h, 2 * ps, ACL_HOST_REG_MAPPED | ACL_HOST_REG_READONLY) ||
            aclrtHostGetDevicePointer(h, &d, 0))
            return 11;
        fprintf(stderr, "registered\n");
        child_raw_write(s, d, 8);
    }
    if (!strcmp(mode, "leak_none")) {
        if (aclrtDestroyStream(s) || aclFinalize())
            return 11;
        return 0;
    }
    if (!strncmp(mode, "leak", 4)) {
        /* leak_final: aclFinalize reports; leak_exit: exit does. */
        void *dev, *host;
        aclrtEvent ev;
        void *reg = aligned_alloc(ps, 3 * ps);
        if (aclrtMalloc(&dev, 12345, ACL_MEM_MALLOC_HUGE_FIRST) || aclrtMallocHost(&host, 8192) ||
            aclrtCreateEvent(&ev) || !reg || aclrtHostRegisterV2(reg, 3 * ps, ACL_HOST_REG_MAPPED))
            return 12;
        if (!strcmp(mode, "leak_final"))
            return aclFinalize() ? 13 : 0;
        return 0;
    }
    return 99;
}

/* Runs this program as child `mode` with `extra` environment entries;
 * fills *status and the child's stderr. */
static void run_child(const char *mode, const char *extra1, const char *extra2, int *status, char *err, size_t len)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    assert_true(n > 0);
    self[n] = 0;
    size_t envc = 0;
    while (environ[envc])
        envc++;
    char **envp = calloc(envc + 4, sizeof(char *));
    assert_non_null(envp);
    size_t k = 0;
    for (size_t i = 0; i < envc; i++)
        if (strncmp(environ[i], "OACL_MEMCHECK", 13) && strncmp(environ[i], "OACL_LEAK_REPORT", 16) &&
            strncmp(environ[i], "OACL_DEVICE_GUARD_PAGES", 23))
            envp[k++] = environ[i];
    char child_var[64];
    snprintf(child_var, sizeof(child_var), "MC_CHILD=%s", mode);
    envp[k++] = child_var;
    if (extra1)
        envp[k++] = (char *)extra1;
    if (extra2)
        envp[k++] = (char *)extra2;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        char *argv[] = {self, NULL};
        execve(self, argv, envp);
        _exit(127);
    }
    close(fds[1]);
    size_t used = 0;
    for (;;) {
        ssize_t r = read(fds[0], err + used, len - 1 - used);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        used += (size_t)r;
        if (used == len - 1) { /* drain the rest */
            char sink[512];
            while (read(fds[0], sink, sizeof(sink)) > 0) {
            }
            break;
        }
    }
    err[used] = 0;
    close(fds[0]);
    assert_int_equal(waitpid(pid, status, 0), pid);
    free(envp);
}

/* The child's store was caught: it died of SIGSEGV (a sanitizer reports
 * the SEGV and exits instead), or its launch failed with an exception code. */
static void expect_caught(const char *mode, const char *e1, const char *reached)
{
    int status;
    char err[8192];
    run_child(mode, e1, NULL, &status, err, sizeof(err));
    if (reached && !strstr(err, reached))
        fail_msg("child %s stopped early (status 0x%x): %s", mode, status, err);
    bool segv = (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) || strstr(err, "SEGV");
    bool failed_launch = WIFEXITED(status) && WEXITSTATUS(status) == 3 &&
                         (strstr(err, "launch failed: 507015") || strstr(err, "launch failed: 507035"));
    if (!segv && !failed_launch)
        fail_msg("child %s: the store was not caught (status 0x%x): %s", mode, status, err);
}

static void test_guard_page_host_store(void **state)
{
    (void)state;
    expect_caught("guard_host", NULL, "in bounds ok");
}

static void test_guard_page_kernel_store(void **state)
{
    (void)state;
    expect_caught("guard_kernel", NULL, "in bounds ok");
}

static void test_guard_pages_switched_off(void **state)
{
    (void)state;
    int status;
    char err[4096];
    run_child("noguard", "OACL_DEVICE_GUARD_PAGES=0", NULL, &status, err, sizeof(err));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("child noguard: status 0x%x: %s", status, err);
}

/* The quarantine is bounded: with 0 MiB a freed range is reused at once. */
static void test_quarantine_bound(void **state)
{
    (void)state;
    int status;
    char err[4096];
    run_child("quarantine", "OACL_MEMCHECK=1", "OACL_MEMCHECK_QUARANTINE_MB=0", &status, err, sizeof(err));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("quarantine 0: status 0x%x: %s", status, err);
    run_child("quarantine", "OACL_MEMCHECK=1", NULL, &status, err, sizeof(err));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 5)
        fail_msg("default quarantine: status 0x%x: %s", status, err);
}

static void test_memcheck_tail_placement_faults(void **state)
{
    (void)state;
    expect_caught("tail", "OACL_MEMCHECK=1", "in bounds ok");
}

static void test_memcheck_use_after_free_faults(void **state)
{
    (void)state;
    expect_caught("uaf", "OACL_MEMCHECK=1", "freed");
    expect_caught("uaf_kernel", "OACL_MEMCHECK=1", "freed");
}

static void test_readonly_kernel_store_faults(void **state)
{
    (void)state;
    expect_caught("ro_kernel", NULL, "registered");
}

/* ---- in-process: placement, quarantine, range checks ----------------------- */

static aclrtStream g_stream;
static aclrtBinHandle g_bin;
static aclrtFuncHandle g_out_fn, g_in_fn;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_stream) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_memcheck"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "mc_copy_out", &g_out_fn) ||
        aclrtBinaryGetFunction(g_bin, "mc_copy_in", &g_in_fn))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 0);
    aclrtBinaryUnLoad(g_bin);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0);
}

static char g_msg[1024]; /* the last synchronise's error message */

static aclError sync_keep_msg(void)
{
    oacl_test_clear_msgs();
    aclError rc = aclrtSynchronizeStream(g_stream);
    const char *m = rc ? aclGetRecentErrMsg() : NULL;
    snprintf(g_msg, sizeof(g_msg), "%s", m ? m : "");
    return rc;
}

static aclError copy_out(void *dst, uint32_t off, uint32_t n, uint32_t v)
{
    const void *vals[] = {&dst, &off, &n, &v};
    size_t sizes[] = {8, 4, 4, 4};
    ACL_OK(test_launch(g_out_fn, 1, g_stream, 4, vals, sizes));
    return sync_keep_msg();
}

static aclError copy_in(void *src, uint32_t off, uint32_t n, void *out)
{
    const void *vals[] = {&src, &off, &n, &out};
    size_t sizes[] = {8, 4, 4, 8};
    ACL_OK(test_launch(g_in_fn, 1, g_stream, 4, vals, sizes));
    return sync_keep_msg();
}

/* The last synchronise's message contains every needle. */
static void msg_has(const char *a, const char *b, const char *c)
{
    const char *msg = g_msg;
    const char *needles[] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (needles[i] && !strstr(msg, needles[i]))
            fail_msg("message \"%s\" lacks \"%s\"", msg, needles[i]);
}

static void test_placement(void **state)
{
    (void)state;
    size_t ps = page_sz();
    void *a, *b, *c;
    ACL_OK(aclrtMalloc(&a, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    assert_int_equal((uintptr_t)a % ps, 0); /* normal mode: page aligned */
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
    ACL_OK(aclrtMalloc(&b, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&c, 3 * ps, ACL_MEM_MALLOC_HUGE_FIRST));
    /* Memcheck: the end (32-byte rounded, no slack) touches the guard. */
    assert_int_equal(((uintptr_t)b + 1024) % ps, 0);
    assert_int_equal((uintptr_t)b % 32, 0);
    assert_int_equal((uintptr_t)c % ps, 0);
    /* The whole rounded size is usable. */
    ACL_OK(aclrtMemset(b, 1024, 0x11, 1024));
    ACL_ERR(aclrtMemset(b, 1056, 0x11, 1056), ACL_ERROR_RT_PARAM_INVALID, "past the end");
    /* Quarantine: a freed range is not handed out again at once. */
    ACL_OK(aclrtFree(b));
    void *b2;
    ACL_OK(aclrtMalloc(&b2, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    assert_true(b2 != b);
    ACL_OK(aclrtFree(b2));
    ACL_OK(aclrtFree(c));
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 0));
    ACL_OK(aclrtFree(a));
}

/* Without memcheck: CANN's 32 bytes of slack are usable; beyond them an
 * access fails the launch with the exception code, naming the allocation. */
static void test_range_check_plain(void **state)
{
    (void)state;
    void *p, *out;
    ACL_OK(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&out, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(copy_out(p, 992, 16, 7)); /* [992, 1056): inside the slack */
    uint32_t got[16];
    ACL_OK(aclrtMemcpy(got, sizeof(got), (char *)p + 992, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 16; i++)
        assert_int_equal(got[i], 7);
    char where[64];
    snprintf(where, sizeof(where), "allocation at %p", p);
    assert_int_equal(copy_out(p, 1024, 16, 9), ACL_ERROR_RT_AICORE_EXCEPTION);
    msg_has("kernel 'mc_copy_out' block 0/1", "write of 64 bytes", "24 bytes past the end of a 1000-byte device");
    msg_has(where, "DataCopy(UB->GM)", NULL);
    assert_int_equal(copy_in(p, 1024, 16, out), ACL_ERROR_RT_AICORE_EXCEPTION);
    msg_has("kernel 'mc_copy_in' block 0/1", "read of 64 bytes", "past the end of a 1000-byte device allocation");
    /* Before the start, and far from everything. */
    assert_int_equal(copy_out((char *)p - 64, 0, 16, 9), ACL_ERROR_RT_AICORE_EXCEPTION);
    msg_has("bytes before a 1000-byte device allocation", NULL, NULL);
    assert_int_equal(copy_in((void *)(uintptr_t)0x1000, 0, 8, out), ACL_ERROR_RT_AICORE_EXCEPTION);
    msg_has("read of 32 bytes: 0x1000 is not in or near any allocation", NULL, NULL);
    /* An access whose end wraps past the top of the address space, right
       after in-range copies filled the per-thread range caches: refused by
       the check, not taken for an access inside a cached range. */
    for (int round = 0; round < 4; round++) {
        ACL_OK(copy_in(p, 0, 16, out));
        assert_int_equal(copy_in((void *)(UINTPTR_MAX - 31), 0, 16, out), ACL_ERROR_RT_AICORE_EXCEPTION);
        msg_has("kernel 'mc_copy_in' block 0/1", "read of 64 bytes", "not in or near any allocation");
    }
    /* The stream goes on. */
    ACL_OK(copy_out(p, 0, 16, 5));
    ACL_OK(aclrtFree(p));
    ACL_OK(aclrtFree(out));
}

/* More allocations in turn than the range check caches per thread (four):
 * in-range copies keep working as entries are replaced, and a copy past
 * the end of each still fails, cached neighbour or not. */
static void test_range_check_many_ranges(void **state)
{
    (void)state;
    enum { N = 6 };
    void *b[N];
    for (int i = 0; i < N; i++)
        ACL_OK(aclrtMalloc(&b[i], 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < N; i++)
            ACL_OK(copy_out(b[i], 0, 16, (uint32_t)(round * N + i)));
    for (int i = 0; i < N; i++) {
        uint32_t got[16];
        ACL_OK(aclrtMemcpy(got, sizeof(got), b[i], 64, ACL_MEMCPY_DEVICE_TO_HOST));
        assert_int_equal(got[15], (uint32_t)(2 * N + i));
    }
    for (int i = 0; i < N; i++) {
        ACL_OK(copy_out(b[(i + 1) % N], 0, 16, 1)); /* a neighbour cached just before */
        assert_int_equal(copy_out(b[i], 1024, 16, 9), ACL_ERROR_RT_AICORE_EXCEPTION);
        msg_has("write of 64 bytes", "past the end of a 1000-byte device", NULL);
    }
    for (int i = 0; i < N; i++)
        ACL_OK(aclrtFree(b[i]));
}

/* Memcheck: 32-byte exact limits, CANN's bounds-check codes, the site. */
static void test_range_check_memcheck(void **state)
{
    (void)state;
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
    void *p, *out;
    ACL_OK(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&out, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(copy_out(p, 960, 16, 7)); /* [960, 1024) */
    assert_int_equal(copy_out(p, 992, 16, 7), ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW);
    msg_has("64 bytes at", "run 56 bytes past the end of a 1000-byte device allocation", "allocated at");
    msg_has("test_memcheck", NULL, NULL); /* the site is in this program */
    assert_int_equal(copy_in(p, 992, 16, out), ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW);
    msg_has("read of 64 bytes", "past the end of a 1000-byte", NULL);
    /* Use after free, described as such. */
    ACL_OK(aclrtFree(p));
    assert_int_equal(copy_out(p, 0, 8, 1), ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW);
    msg_has("1000-byte device allocation", "that was freed", "freed at");
    ACL_OK(aclrtFree(out));
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 0));
}

/* ACL_HOST_REG_READONLY: kernels read through the mapping; a kernel-side
 * write fails the launch and the host memory keeps its contents. */
static void test_readonly_registration(void **state)
{
    (void)state;
    size_t ps = page_sz();
    uint32_t *h = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(h != MAP_FAILED);
    for (uint32_t i = 0; i < 2 * ps / 4; i++)
        h[i] = i * 3u + 1u;
    ACL_OK(aclrtHostRegisterV2(h, 2 * ps, ACL_HOST_REG_MAPPED | ACL_HOST_REG_READONLY));
    void *d, *out;
    ACL_OK(aclrtHostGetDevicePointer(h, &d, 0));
    assert_ptr_not_equal(d, h);
    ACL_OK(aclrtMalloc(&out, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(copy_in(d, 4096, 16, out));
    uint32_t got[16];
    ACL_OK(aclrtMemcpy(got, sizeof(got), out, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < 16; i++)
        assert_int_equal(got[i], (1024u + i) * 3u + 1u);
    assert_int_equal(copy_out(d, 64, 16, 0xDEAD), ACL_ERROR_RT_AICORE_EXCEPTION);
    msg_has("read-only", "write of 64 bytes", NULL);
    for (uint32_t i = 0; i < 2 * ps / 4; i++)
        if (h[i] != i * 3u + 1u)
            fail_msg("host word %u changed to 0x%x", i, h[i]);
    /* The host still writes through its own address, and the device sees it. */
    h[1024] = 77;
    ACL_OK(copy_in(d, 4096, 8, out));
    ACL_OK(aclrtMemcpy(got, 4, out, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(got[0], 77);
    ACL_OK(aclrtHostUnregister(h));
    /* A range that cannot get its own mapping (not whole pages of private
       memory) cannot be read-only; nothing stays registered. */
    ACL_ERR(aclrtHostRegisterV2(h, ps + 100, ACL_HOST_REG_MAPPED | ACL_HOST_REG_READONLY),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "read-only");
    ACL_OK(aclrtHostRegisterV2(h, ps + 100, ACL_HOST_REG_MAPPED));
    ACL_OK(aclrtHostUnregister(h));
    ACL_OK(aclrtFree(out));
    munmap(h, 2 * ps);
}

/* AscendC: GlobalTensor element access and DataCopy are checked too. */
static void test_range_check_ascendc(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle set_get, cin;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("asc_memcheck"), NULL, &bin));
    ACL_OK(aclrtBinaryGetFunction(bin, "asc_mc_set_get", &set_get));
    ACL_OK(aclrtBinaryGetFunction(bin, "asc_mc_copy_in", &cin));
    void *p, *out;
    ACL_OK(aclrtMallocAlign32(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    uint32_t idx = 63, v = 0xC0FFEE;
    const void *vals[] = {&p, &idx, &v, &out};
    size_t sizes[] = {8, 4, 4, 8};
    ACL_OK(test_launch(set_get, 1, g_stream, 4, vals, sizes));
    ACL_OK(sync_keep_msg());
    uint32_t got = 0;
    ACL_OK(aclrtMemcpy(&got, 4, out, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(got, 0xC0FFEE);
    idx = 64; /* one element past the 256 bytes */
    ACL_OK(test_launch(set_get, 1, g_stream, 4, vals, sizes));
    assert_int_equal(sync_keep_msg(), ACL_ERROR_RT_AICORE_EXCEPTION);
    msg_has("kernel 'asc_mc_set_get' block 0/1", "GlobalTensor::SetValue: write of 4 bytes",
            "0 bytes past the end of a 256-byte device allocation");
    uint32_t off = 56, n = 16; /* elements [56, 72) of 64 */
    const void *cvals[] = {&p, &off, &n};
    size_t csizes[] = {8, 4, 4};
    ACL_OK(test_launch(cin, 1, g_stream, 3, cvals, csizes));
    assert_int_equal(sync_keep_msg(), ACL_ERROR_RT_AICORE_EXCEPTION);
    msg_has("DataCopy(GM->UB): read of 64 bytes", "run 32 bytes past the end of a 256-byte device allocation", NULL);
    ACL_OK(aclrtFree(p));
    ACL_OK(aclrtFree(out));
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* IPC export and import of an allocation the memory checker placed off a
 * page boundary: the importer's address points at the same bytes. */
static void test_ipc_memcheck_placement(void **state)
{
    (void)state;
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
    void *p, *q = NULL;
    ACL_OK(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    assert_int_not_equal((uintptr_t)p % page_sz(), 0);
    unsigned char pattern[1000];
    for (int i = 0; i < 1000; i++)
        pattern[i] = (unsigned char)(i * 7 + 3);
    ACL_OK(aclrtMemcpy(p, 1000, pattern, 1000, ACL_MEMCPY_HOST_TO_DEVICE));
    char key[128];
    ACL_OK(aclrtIpcMemGetExportKey(p, 1000, key, sizeof(key), 0));
    ACL_OK(aclrtIpcMemImportByKey(&q, key, 0));
    assert_ptr_not_equal(q, p);
    assert_int_equal((uintptr_t)q % page_sz(), (uintptr_t)p % page_sz());
    unsigned char got[1000];
    ACL_OK(aclrtMemcpy(got, 1000, q, 1000, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_memory_equal(got, pattern, 1000);
    /* The exporter's later stores show through the import (one memory). */
    ACL_OK(aclrtMemset(p, 1000, 0x5C, 16));
    ACL_OK(aclrtMemcpy(got, 16, q, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(got[0], 0x5C);
    assert_int_equal(got[15], 0x5C);
    ACL_OK(aclrtIpcMemClose(key)); /* the import */
    ACL_OK(aclrtIpcMemClose(key)); /* the export */
    ACL_OK(aclrtFree(p));
    ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 0));
}

/* ---- the leak report --------------------------------------------------------- */

static void test_leak_report(void **state)
{
    (void)state;
    int status;
    char err[16384];
    const char *modes[] = {"leak_final", "leak_exit"};
    for (int i = 0; i < 2; i++) {
        run_child(modes[i], "OACL_LEAK_REPORT=1", NULL, &status, err, sizeof(err));
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("child %s: status 0x%x: %s", modes[i], status, err);
        const char *needles[] = {"leak report", "1 device allocation", "12345 bytes", "1 pinned host allocation",
                                 "8192 bytes", "1 host registration", "1 stream", "1 event"};
        for (size_t k = 0; k < sizeof(needles) / sizeof(needles[0]); k++)
            if (!strstr(err, needles[k]))
                fail_msg("child %s: report lacks \"%s\":\n%s", modes[i], needles[k], err);
    }
    /* Memcheck mode reports too, with the allocation sites. */
    run_child("leak_final", "OACL_MEMCHECK=1", NULL, &status, err, sizeof(err));
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (!strstr(err, "12345 bytes") || !strstr(err, "allocated at") || !strstr(err, "test_memcheck"))
        fail_msg("memcheck report lacks the site:\n%s", err);
    /* Nothing left: nothing reported. Switched off: silence. */
    run_child("leak_none", "OACL_LEAK_REPORT=1", NULL, &status, err, sizeof(err));
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (strstr(err, "device allocation") || strstr(err, "stream"))
        fail_msg("a clean program got a report:\n%s", err);
    run_child("leak_final", NULL, NULL, &status, err, sizeof(err));
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (strstr(err, "leak report"))
        fail_msg("a report without the switch:\n%s", err);
}

int main(int argc, char **argv)
{
    (void)argc;
    const char *mode = getenv("MC_CHILD");
    if (mode)
        return child_main(mode);
    /* The in-process tests switch memcheck mode themselves: the runtime
       read its environment when it was loaded, so start afresh without. */
    if (getenv("OACL_MEMCHECK") || getenv("OACL_LEAK_REPORT") || getenv("OACL_DEVICE_GUARD_PAGES")) {
        unsetenv("OACL_MEMCHECK");
        unsetenv("OACL_LEAK_REPORT");
        unsetenv("OACL_DEVICE_GUARD_PAGES");
        execv("/proc/self/exe", argv);
        return 98;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guard_page_host_store),
        cmocka_unit_test(test_guard_page_kernel_store),
        cmocka_unit_test(test_guard_pages_switched_off),
        cmocka_unit_test(test_quarantine_bound),
        cmocka_unit_test(test_memcheck_tail_placement_faults),
        cmocka_unit_test(test_memcheck_use_after_free_faults),
        cmocka_unit_test(test_readonly_kernel_store_faults),
        cmocka_unit_test(test_leak_report),
        cmocka_unit_test_setup_teardown(test_placement, setup, teardown),
        cmocka_unit_test_setup_teardown(test_range_check_plain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_range_check_memcheck, setup, teardown),
        cmocka_unit_test_setup_teardown(test_readonly_registration, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ipc_memcheck_placement, setup, teardown),
        cmocka_unit_test_setup_teardown(test_range_check_ascendc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_range_check_many_ranges, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
