/*
 * Peer processes for the inter-process tests: this test executable started
 * again (posix_spawn, so the peer shares nothing with the parent but what
 * the test passes) in a child mode of oacl_child_dispatch (child_process.h),
 * talking to the parent over its stdin/stdout one line at a time.
 *
 * Every wait is bounded: peer_recv and peer_wait take a timeout and a
 * peer that does not answer in time is killed; a peer also arms alarm() so
 * that it can never outlive a broken parent.
 *
 * Header-only (static inline functions).
 */
#ifndef OACL_TEST_IPC_PEER_H
#define OACL_TEST_IPC_PEER_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child_process.h"

#define PEER_TIMEOUT_MS 20000 /* any single wait in a test */

struct peer {
    pid_t pid;
    int to;            /* the peer's stdin */
    int from;          /* the peer's stdout */
    char buf[8192];    /* received, not yet returned */
    size_t len;
    int status;        /* once reaped */
    bool reaped;
};

static inline long long peer_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Starts this executable in child mode `mode` with extra environment
 * entries (NULL-terminated list, may be NULL). */
static inline bool peer_start(struct peer *p, const char *mode, const char *const *env)
{
    memset(p, 0, sizeof(*p));
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return false;
    self[n] = '\0';
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return false;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return false;
    }
    size_t nenv = 0, nextra = 0;
    while (environ[nenv])
        nenv++;
    while (env && env[nextra])
        nextra++;
    char **envp = calloc(nenv + nextra + 2, sizeof(char *));
    size_t k = 0;
    static char tsan[1024];
    const char *old = getenv("TSAN_OPTIONS");
    snprintf(tsan, sizeof(tsan), "TSAN_OPTIONS=%s%satexit_sleep_ms=0", old ? old : "", old && *old ? ":" : "");
    for (size_t i = 0; i < nenv; i++) {
        bool skip = oacl_env_same_name(environ[i], "TSAN_OPTIONS");
        for (size_t j = 0; j < nextra; j++)
            skip |= oacl_env_same_name(environ[i], env[j]);
        if (!skip)
            envp[k++] = environ[i];
    }
    for (size_t j = 0; j < nextra; j++)
        envp[k++] = (char *)env[j];
    envp[k++] = tsan;
    envp[k] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    char *argv[] = {self, (char *)OACL_CHILD_FLAG, (char *)mode, NULL};
    fflush(stdout);
    fflush(stderr);
    int e = posix_spawn(&p->pid, self, &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    close(in[0]);
    close(out[1]);
    if (e != 0) {
        close(in[1]);
        close(out[0]);
        return false;
    }
    p->to = in[1];
    p->from = out[0];
    return true;
}

/* Sends one line (a newline is added). */
static inline bool peer_send(struct peer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline bool peer_send(struct peer *p, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof(line) - 1)
        return false;
    line[n++] = '\n';
    signal(SIGPIPE, SIG_IGN);
    return write(p->to, line, (size_t)n) == n;
}

/* Receives one line (without its newline) within timeout_ms. */
static inline bool peer_recv(struct peer *p, char *line, size_t size, int timeout_ms)
{
    long long deadline = peer_now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl) {
            size_t n = (size_t)(nl - p->buf);
            size_t take = n < size - 1 ? n : size - 1;
            memcpy(line, p->buf, take);
            line[take] = '\0';
            memmove(p->buf, nl + 1, p->len - n - 1);
            p->len -= n + 1;
            return true;
        }
        long long left = deadline - peer_now_ms();
        if (left <= 0 || p->len == sizeof(p->buf))
            return false;
        struct pollfd pf = {.fd = p->from, .events = POLLIN};
        int r = poll(&pf, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        ssize_t got = read(p->from, p->buf + p->len, sizeof(p->buf) - p->len);
        if (got <= 0)
            return false; /* the peer exited */
        p->len += (size_t)got;
    }
}

/* Waits for the peer's exit within timeout_ms (killing it past that).
 * Returns the exit status, 128 + signal, or -1 on timeout. */
static inline int peer_wait(struct peer *p, int timeout_ms)
{
    if (!p->reaped) {
        long long deadline = peer_now_ms() + timeout_ms;
        int st = 0;
        pid_t r;
        while ((r = waitpid(p->pid, &st, WNOHANG)) == 0 && peer_now_ms() < deadline)
            usleep(2000);
        if (r == 0) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &st, 0);
            p->status = -1;
        } else {
            p->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
        }
        p->reaped = true;
        close(p->to);
        close(p->from);
    }
    return p->status;
}

/* ---- the peer's side -------------------------------------------------------------------- */

/* Reads one line from the parent (stdin); exits when the parent is gone. */
static inline void child_recv(char *line, size_t size)
{
    if (!fgets(line, (int)size, stdin)) {
        fprintf(stderr, "peer %d: the parent closed the pipe\n", (int)getpid());
        exit(3);
    }
    line[strcspn(line, "\n")] = '\0';
}

static inline void child_send(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void child_send(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* In the peer: never outlive a test that went wrong. */
static inline void child_arm_alarm(void) { alarm(60); }

#endif /* OACL_TEST_IPC_PEER_H */
