/*
 * Running a test binary again as a child process, for behaviour that is
 * fixed once per process (configuration read from the environment on first
 * use, the very first aclFinalize, ...).
 *
 * A test file defines its child modes in a table and starts main() with
 *
 *     if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
 *         return oacl_child_dispatch(modes, n, argv[2]);
 *
 * The parent starts a mode with oacl_run_child(): the child is this very
 * executable (exec'd afresh, so it shares no state with the parent), with
 * the parent's environment modified by a list of "NAME=value" (set) and
 * "NAME" (remove) entries. The child reports through its exit status
 * (0 = every check passed) and, optionally, what it prints on stdout.
 * Inside a child, CHILD_CHECK* print the failed condition on stderr and
 * exit(1); stderr is inherited, so ctest shows the reason.
 *
 * Header-only (static inline functions).
 */
#ifndef OACL_TEST_CHILD_PROCESS_H
#define OACL_TEST_CHILD_PROCESS_H

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"

extern char **environ;

#define OACL_CHILD_FLAG "--oacl-child"

struct oacl_child_mode {
    const char *name;
    void (*run)(void); /* returns normally when every check passed */
};

static inline int oacl_child_dispatch(const struct oacl_child_mode *modes, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(modes[i].name, name) == 0) {
            modes[i].run();
            fflush(stdout);
            return 0;
        }
    }
    fprintf(stderr, "unknown child mode '%s'\n", name);
    return 2;
}

/* Checks inside a child process (no cmocka there). */
#define CHILD_CHECK(cond)                                                                                            \
    do {                                                                                                             \
        if (!(cond)) {                                                                                               \
            fprintf(stderr, "%s:%d: child check failed: %s\n", __FILE__, __LINE__, #cond);                           \
            exit(1);                                                                                                 \
        }                                                                                                            \
    } while (0)

#define CHILD_CHECK_INT(got, want)                                                                                   \
    do {                                                                                                             \
        long long got_ = (long long)(got), want_ = (long long)(want);                                                \
        if (got_ != want_) {                                                                                         \
            fprintf(stderr, "%s:%d: child check failed: %s is %lld, expected %lld\n", __FILE__, __LINE__, #got,     \
                    got_, want_);                                                                                    \
            exit(1);                                                                                                 \
        }                                                                                                            \
    } while (0)

static inline void oacl_child_check_err(aclError got, aclError want, const char *needle, const char *expr,
                                        const char *file, int line)
{
    const char *msg = aclGetRecentErrMsg();
    if (got != want) {
        fprintf(stderr, "%s:%d: %s returned %d, expected %d (%s)\n", file, line, expr, got, want,
                msg ? msg : "no message");
        exit(1);
    }
    if (!msg || !*msg || (needle && !strstr(msg, needle))) {
        fprintf(stderr, "%s:%d: %s: message \"%s\" does not mention \"%s\"\n", file, line, expr,
                msg ? msg : "(null)", needle ? needle : "");
        exit(1);
    }
}

/* The child-side ACL_OK / ACL_ERR. */
#define CHILD_OK(call)                                                                                               \
    do {                                                                                                             \
        (void)aclGetRecentErrMsg();                                                                                  \
        aclError rc_ = (call);                                                                                       \
        if (rc_ != ACL_SUCCESS) {                                                                                    \
            const char *m_ = aclGetRecentErrMsg();                                                                   \
            fprintf(stderr, "%s:%d: %s returned %d (%s)\n", __FILE__, __LINE__, #call, rc_, m_ ? m_ : "no message"); \
            exit(1);                                                                                                 \
        }                                                                                                            \
    } while (0)

#define CHILD_ERR(call, code, needle)                                                                                \
    do {                                                                                                             \
        (void)aclGetRecentErrMsg();                                                                                  \
        oacl_child_check_err((call), (code), (needle), #call, __FILE__, __LINE__);                                   \
    } while (0)

/* Is `entry` ("NAME=value") about the variable named in `spec` ("NAME" or
 * "NAME=value")? */
static inline int oacl_env_same_name(const char *entry, const char *spec)
{
    size_t n = strcspn(spec, "=");
    return strncmp(entry, spec, n) == 0 && entry[n] == '=';
}

/*
 * Runs this executable with OACL_CHILD_FLAG mode and the modified
 * environment (env: NULL-terminated list, may be NULL). When out is not
 * NULL, the child's stdout is captured into it (NUL-terminated, truncated to
 * outlen - 1 bytes). Returns the exit status, 128 + signal number if the
 * child was killed, or -1 if it could not be started.
 */
static inline int oacl_run_child(const char *mode, const char *const *env, char *out, size_t outlen)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (len <= 0)
        return -1;
    self[len] = '\0';

    size_t nenv = 0, nover = 0;
    while (environ[nenv])
        nenv++;
    while (env && env[nover])
        nover++;
    char **envp = calloc(nenv + nover + 2, sizeof(char *));
    if (!envp)
        return -1;
    /* ThreadSanitizer waits a second at exit for late reports; the children
       report at detection time, so skip that (keeping any other options). */
    static char tsan_opts[1024];
    const char *old_tsan = getenv("TSAN_OPTIONS");
    snprintf(tsan_opts, sizeof(tsan_opts), "TSAN_OPTIONS=%s%satexit_sleep_ms=0", old_tsan ? old_tsan : "",
             old_tsan && *old_tsan ? ":" : "");
    size_t k = 0;
    for (size_t i = 0; i < nenv; i++) {
        int overridden = 0;
        for (size_t j = 0; j < nover; j++)
            overridden |= oacl_env_same_name(environ[i], env[j]);
        if (!overridden)
            envp[k++] = environ[i];
    }
    int tsan_overridden = 0;
    for (size_t j = 0; j < nover; j++) {
        tsan_overridden |= oacl_env_same_name(tsan_opts, env[j]);
        if (strchr(env[j], '='))
            envp[k++] = (char *)env[j];
    }
    if (!tsan_overridden) {
        for (size_t i = 0; i < k;) {
            if (oacl_env_same_name(envp[i], "TSAN_OPTIONS"))
                envp[i] = envp[--k]; /* replaced below */
            else
                i++;
        }
        envp[k++] = tsan_opts;
    }
    envp[k] = NULL;

    int pipefd[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (out) {
        if (pipe(pipefd) != 0) {
            free(envp);
            posix_spawn_file_actions_destroy(&fa);
            return -1;
        }
        posix_spawn_file_actions_addclose(&fa, pipefd[0]);
        posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&fa, pipefd[1]);
    }
    char *argv[] = {self, (char *)OACL_CHILD_FLAG, (char *)mode, NULL};
    pid_t pid;
    /* Keep the parent's and the child's output in order. */
    fflush(stdout);
    fflush(stderr);
    int e = posix_spawn(&pid, self, &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    if (out) {
        close(pipefd[1]);
        size_t used = 0;
        for (;;) {
            char buf[512];
            ssize_t r = read(pipefd[0], buf, sizeof(buf));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            size_t take = (size_t)r, room = outlen ? outlen - 1 - used : 0;
            if (take > room)
                take = room;
            memcpy(out + used, buf, take);
            used += take;
        }
        close(pipefd[0]);
        if (outlen)
            out[used] = '\0';
    }
    if (e != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}

/* In a cmocka test: run a child mode with environment changes (one or more
 * "NAME=value" / "NAME" strings) and require exit status 0. */
#define ASSERT_CHILD_OK(mode, ...)                                                                                   \
    do {                                                                                                             \
        const char *const env_[] = {__VA_ARGS__, NULL};                                                               \
        int st_ = oacl_run_child((mode), env_, NULL, 0);                                                             \
        if (st_ != 0)                                                                                                \
            fail_msg("child mode '%s' exited with status %d (see its stderr above)", (mode), st_);                  \
    } while (0)

#endif /* OACL_TEST_CHILD_PROCESS_H */
