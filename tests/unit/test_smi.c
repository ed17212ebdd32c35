/*
 * oacl-smi and the status pages (profiling-and-tools.md §6): the npu-smi
 * layout, a helper process holding a known amount of device memory listed
 * while it lives and not after it exits or is killed with SIGKILL, the
 * key/value views, refresh, and bad options. Pages are memory files a
 * process keeps open (no file-system name); this test's processes use a
 * scope of their own (OACL_SMI_SCOPE) so that parallel tests do not show up.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "child_process.h"
#include "test_support.h"

static char g_scope[64];
static char g_out[1 << 17];

/* The helper: holds HOLD_MB on device 2 (and a little on 0) until told. */
#define HOLD_MB 1024

static void child_holder(void)
{
    CHILD_CHECK(aclrtSetDevice(2) == ACL_SUCCESS);
    void *p;
    /* Align32: no 32-byte pad, so the page shows exactly HOLD_MB */
    CHILD_CHECK(aclrtMallocAlign32(&p, (size_t)HOLD_MB << 20, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    printf("ready\n");
    fflush(stdout);
    char buf[16];
    while (read(0, buf, sizeof(buf)) > 0)
        ; /* until the parent closes the pipe */
    CHILD_CHECK(aclrtFree(p) == ACL_SUCCESS);
}

static const struct oacl_child_mode g_modes[] = {{"holder", child_holder}};

struct helper {
    pid_t pid;
    int to, from;
};

static void helper_start(struct helper *h)
{
    int in[2], out[2];
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(out), 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    assert_true(n > 0);
    self[n] = '\0';
    char *argv[] = {self, (char *)OACL_CHILD_FLAG, (char *)"holder", NULL};
    setenv("OACL_SMI_SCOPE", g_scope, 1);
    assert_int_equal(posix_spawn(&h->pid, self, &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    h->to = in[1];
    h->from = out[0];
    char buf[16] = "";
    ssize_t r = read(h->from, buf, sizeof(buf) - 1);
    assert_true(r > 0);
    assert_memory_equal(buf, "ready", 5);
}

static int helper_stop(struct helper *h, bool kill9)
{
    if (kill9)
        kill(h->pid, SIGKILL);
    close(h->to);
    int status;
    assert_int_equal(waitpid(h->pid, &status, 0), h->pid);
    close(h->from);
    return status;
}

/* Runs oacl-smi with args; its stdout in g_out; returns the exit status. */
static int smi(const char *const *args, char *err, size_t errlen)
{
    int out[2], e[2];
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(e), 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, e[1], 2);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    posix_spawn_file_actions_addclose(&fa, e[0]);
    char *argv[16] = {(char *)"oacl-smi"};
    int n = 1;
    for (; args && args[n - 1] && n < 15; n++)
        argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    setenv("OACL_SMI_SCOPE", g_scope, 1);
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, OACL_TEST_SMI, &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    close(e[1]);
    size_t used = 0;
    ssize_t r;
    while ((r = read(out[0], g_out + used, sizeof(g_out) - 1 - used)) > 0)
        used += (size_t)r;
    g_out[used] = '\0';
    used = 0;
    while (err && (r = read(e[0], err + used, errlen - 1 - used)) > 0)
        used += (size_t)r;
    if (err)
        err[used] = '\0';
    close(out[0]);
    close(e[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_scope, sizeof(g_scope), "test-%d-%ld", (int)getpid(), (long)time(NULL));
    return 0;
}

/* The page of pid: how many of its descriptors are this scope's page. */
static int pages_of(pid_t pid)
{
    char dir[64], want[256];
    snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
    snprintf(want, sizeof(want), "/memfd:oacl-smi:%s (deleted)", g_scope);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[320], link[512];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        ssize_t len = readlink(path, link, sizeof(link) - 1);
        if (len > 0) {
            link[len] = '\0';
            n += strcmp(link, want) == 0;
        }
    }
    closedir(d);
    return n;
}

/* Entries of /dev/shm and the temporary directory whose name holds s. */
static int named_files(const char *s)
{
    int n = 0;
    const char *dirs[] = {"/dev/shm", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp"};
    for (int i = 0; i < 2; i++) {
        DIR *d = opendir(dirs[i]);
        struct dirent *e;
        while (d && (e = readdir(d)))
            n += strstr(e->d_name, s) != NULL;
        if (d)
            closedir(d);
    }
    return n;
}

static void test_idle_layout(void **state)
{
    (void)state;
    assert_int_equal(smi(NULL, NULL, 0), 0);
    int lines = 0;
    for (char *l = strtok(g_out, "\n"); l; l = strtok(NULL, "\n")) {
        assert_int_equal(strlen(l), 98);
        assert_true(l[0] == '|' || l[0] == '+');
        lines++;
    }
    /* header 7, 3 per device, process header 3, 2 per device */
    assert_int_equal(lines, 6 + 3 * 8 + 3 + 2 * 8);
    assert_int_equal(smi((const char *[]){"info", NULL}, NULL, 0), 0);
    assert_int_equal(count(g_out, "| No running processes found in NPU "), 8);
    assert_non_null(strstr(g_out, "| oacl-smi 0."));
    assert_non_null(strstr(g_out, "| 0     910B3               | OK            | NA          NA                0    / 0 "));
}

static void test_process_listed(void **state)
{
    (void)state;
    struct helper h;
    helper_start(&h);
    assert_int_equal(smi(NULL, NULL, 0), 0);
    char row[128];
    snprintf(row, sizeof(row), "| 2       0                 | %-14d| test_smi                 | %-24d|", (int)h.pid,
             HOLD_MB);
    assert_non_null(strstr(g_out, row));
    assert_int_equal(count(g_out, "| No running processes found in NPU "), 7);
    /* device 2's HBM usage holds the helper's memory */
    const char *dev2 = strstr(g_out, "| 2     910B3");
    assert_non_null(dev2);
    const char *row2 = strchr(dev2, '\n') + 1;
    unsigned chip, util, mu, mt, hu, ht;
    assert_int_equal(sscanf(row2, "| %u | NA | %u %u / %u %u / %u", &chip, &util, &mu, &mt, &hu, &ht), 6);
    assert_true(hu >= HOLD_MB);
    assert_int_equal(ht, 65536);
    assert_true(util <= 100);
    assert_int_equal(smi((const char *[]){"info", "-t", "usages", "-i", "2", NULL}, NULL, 0), 0);
    assert_non_null(strstr(g_out, "        HBM Capacity(MB)               : 65536\n"));
    assert_non_null(strstr(g_out, "        HBM Usage Rate(%)              : 1\n"));
    assert_int_equal(pages_of(h.pid), 1);
    assert_int_equal(WEXITSTATUS(helper_stop(&h, false)), 0);
    assert_int_equal(smi(NULL, NULL, 0), 0);
    assert_int_equal(count(g_out, "| No running processes found in NPU "), 8);
}

static void test_killed_process(void **state)
{
    (void)state;
    struct helper h;
    helper_start(&h);
    assert_int_equal(pages_of(h.pid), 1);
    char pidname[32];
    snprintf(pidname, sizeof(pidname), "%d", (int)h.pid);
    int status = helper_stop(&h, true);
    assert_true(WIFSIGNALED(status));
    /* The page never had a file-system name: SIGKILL leaves nothing. */
    assert_int_equal(named_files(pidname), 0);
    assert_int_equal(smi(NULL, NULL, 0), 0);
    assert_int_equal(count(g_out, "| No running processes found in NPU "), 8);
    char pid[32];
    snprintf(pid, sizeof(pid), "| %-14d|", (int)h.pid);
    assert_null(strstr(g_out, pid));
}

static void test_views_and_options(void **state)
{
    (void)state;
    char err[4096];
    assert_int_equal(smi((const char *[]){"info", "-l", NULL}, NULL, 0), 0);
    assert_non_null(strstr(g_out, "        Total Count                    : 8\n"));
    assert_int_equal(count(g_out, "        NPU ID                         : "), 8);
    assert_int_equal(smi((const char *[]){"info", "-m", NULL}, NULL, 0), 0);
    assert_non_null(strstr(g_out, "Ascend 910B3"));
    assert_int_equal(smi((const char *[]){"info", "-t", "common", "-i", "0", "-c", "0", NULL}, NULL, 0), 0);
    assert_non_null(strstr(g_out, "        Aicore Count                   : 40\n"));
    assert_non_null(strstr(g_out, "        Aicore Freq(MHZ)               : 1800\n"));
    assert_int_equal(smi((const char *[]){"info", "-t", "board", "-i", "7", NULL}, NULL, 0), 0);
    assert_non_null(strstr(g_out, "        Chip Name                      : 910B3\n"));
    /* refresh: -l N, here twice */
    assert_int_equal(smi((const char *[]){"-l", "1", "-n", "2", NULL}, NULL, 0), 0);
    assert_int_equal(count(g_out, "| NPU   Name "), 2);
    /* bad options: usage on stderr, nothing on stdout, status 1 */
    const char *bad[][5] = {{"--frobnicate", NULL}, {"info", "-t", "board", "-i", NULL}, {"-l", "0", NULL}};
    assert_int_equal(smi(bad[0], err, sizeof(err)), 1);
    assert_string_equal(g_out, "");
    assert_non_null(strstr(err, "usage: oacl-smi"));
    assert_int_equal(smi(bad[1], err, sizeof(err)), 1);
    assert_int_equal(smi(bad[2], err, sizeof(err)), 1);
    assert_int_equal(smi((const char *[]){"info", "-t", "board", "-i", "99", NULL}, err, sizeof(err)), 1);
    assert_non_null(strstr(err, "out of range"));
    assert_int_equal(smi((const char *[]){"info", "-t", "nonsense", "-i", "0", NULL}, err, sizeof(err)), 1);
    assert_int_equal(smi((const char *[]){"info", "-c", "1", NULL}, err, sizeof(err)), 1);
    /* OACL_DEVICE_COUNT and OACL_SOC shape the table */
    setenv("OACL_DEVICE_COUNT", "2", 1);
    setenv("OACL_SOC", "Ascend910_9382", 1);
    assert_int_equal(smi(NULL, NULL, 0), 0);
    unsetenv("OACL_DEVICE_COUNT");
    unsetenv("OACL_SOC");
    assert_int_equal(count(g_out, "| No running processes found in NPU "), 2);
    assert_non_null(strstr(g_out, "| 1     910_9382 "));
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof(g_modes) / sizeof(g_modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_idle_layout, setup),
        cmocka_unit_test_setup(test_process_listed, setup),
        cmocka_unit_test_setup(test_killed_process, setup),
        cmocka_unit_test_setup(test_views_and_options, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
