/*
 * oacl-bench metrics: process start of the installed sample, and idle CPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl/acl_prof.h"
#include "bench.h"

extern char **environ;

void m_sample_process(void);
void m_idle_cpu(void);

/* ======================================================================
 * 8. sample_process
 * ====================================================================== */

/* Runs path (argv = {path}) in dir with output discarded; returns the wall
   time in ns, or -1 if it could not run or did not exit with 0. */
static double spawn_wait(const char *path, const char *dir)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
    if (dir)
        posix_spawn_file_actions_addchdir_np(&fa, dir);
#else
    char old[PATH_MAX];
    if (dir && (!getcwd(old, sizeof old) || chdir(dir) != 0))
        return -1;
#endif
    char *argv[] = {(char *)path, NULL};
    pid_t pid;
    uint64_t t0 = now_ns();
    int e = posix_spawn(&pid, path, &fa, NULL, argv, environ);
    int status = 0;
    if (e == 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    uint64_t t1 = now_ns();
#if !(defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29)))
    if (dir && chdir(old) != 0)
        return -1;
#endif
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return (double)(t1 - t0);
}

void m_sample_process(void)
{
    if (!want_group("sample_process") || !want("sample_process"))
        return;
    section("sample_process");
    if (!g_opt.sample) {
        note("skipped: pass --sample PATH (bench/run.sh passes the sample built against the install)");
        return;
    }
    char dirbuf[PATH_MAX];
    const char *dir = g_opt.sample_dir;
    if (!dir) {
        snprintf(dirbuf, sizeof dirbuf, "%s", g_opt.sample);
        for (int up = 0; up < 2; up++) {
            char *slash = strrchr(dirbuf, '/');
            if (slash)
                *slash = '\0';
            else
                snprintf(dirbuf, sizeof dirbuf, up ? ".." : ".");
        }
        dir = dirbuf;
    }
    char abs[PATH_MAX];
    if (!realpath(g_opt.sample, abs)) {
        note("skipped: %s: %s", g_opt.sample, strerror(errno));
        return;
    }
    const char *floor_prog = access("/bin/true", X_OK) == 0 ? "/bin/true" : "/usr/bin/true";
    int runs = g_opt.quick ? 5 : (g_opt.reps > 20 ? g_opt.reps : 20);
    note("value: wall time of the installed zero-copy sample (%s, working directory %s),", abs, dir);
    note("posix_spawn to waitpid, output discarded; %d runs after 2 warm-up runs", runs);
    note("reference: the same for %s (process start and exit floor), interleaved", floor_prog);
    note("ratio = sample / floor (lower is better)");
    for (int i = 0; i < 2; i++) {
        if (spawn_wait(abs, dir) < 0) {
            note("skipped: the sample did not run successfully from %s", dir);
            return;
        }
        spawn_wait(floor_prog, NULL);
    }
    samples_t a = {0}, b = {0};
    for (int r = 0; r < runs; r++) {
        double ta = spawn_wait(abs, dir), tb = spawn_wait(floor_prog, NULL);
        if (ta < 0 || tb < 0) {
            note("a run failed; figure skipped");
            s_free(&a);
            s_free(&b);
            return;
        }
        s_add(&a, ta / 1e6);
        s_add(&b, tb / 1e6);
    }
    double bm = s_median(&b);
    emit("sample_process", "ms", &a, bm, s_median(&a) / bm);
    s_free(&a);
    s_free(&b);
}

/* ======================================================================
 * idle_cpu
 * ====================================================================== */

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
}

void m_idle_cpu(void)
{
    if (!want_group("idle_cpu") || !want("idle_cpu"))
        return;
    const int tries = g_opt.quick ? 1 : 3;
    const uint64_t settle_ns = g_opt.quick ? 300000000ull : 1000000000ull;
    const uint64_t window_ns = g_opt.quick ? 500000000ull : 1000000000ull;
    section("idle_cpu");
    note("value: CPU time of the whole process (getrusage) / wall time over %.1f s of idleness, in %%,",
         (double)window_ns / 1e9);
    note("measured %.1f s after 10 launches + synchronise of the empty kernel (past every spin window);", (double)settle_ns / 1e9);
    note("%d measurement%s; no reference (target < 1%%)", tries, tries > 1 ? "s" : "");
    aclrtArgsHandle args = empty_args();
    samples_t v = {0};
    for (int t = 0; t < tries; t++) {
        for (int i = 0; i < 10; i++)
            launch_sync(g_f_empty, 8, args);
        sleep_ns(settle_ns);
        double c0 = cpu_seconds();
        uint64_t t0 = now_ns();
        sleep_ns(window_ns);
        double c1 = cpu_seconds();
        uint64_t t1 = now_ns();
        s_add(&v, 100.0 * (c1 - c0) / ((double)(t1 - t0) / 1e9));
    }
    emit("idle_cpu", "%", &v, NAN, NAN);
    s_free(&v);
}
