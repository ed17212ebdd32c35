/*
 * Loading a kernel binary's shared object without risking the process.
 *
 * The dynamic loader trusts what it maps: a corrupt image (relocations that
 * point outside the object, a constructor whose code or address is
 * damaged) faults inside dlopen, where nothing can be unwound. So the
 * object is first loaded (and unloaded) in a child process: if that child dies of a
 * signal (or its sanitizer reports an error), the load is refused with a
 * message and the object is never loaded here. Only when the child
 * survived is the object loaded in this process.
 *
 * Costs a fork per load (cheap: the child shares all pages). The child
 * runs the object's constructors once more; kernel binaries only register
 * their device variables there. A test load that computes for longer than
 * OACL_LOAD_PROBE_CPU_MS of CPU time (default 10 s) is refused: a constructor
 * or destructor that never returns would hang this process the same way.
 * One that waits (a lock held by another thread at the fork) is given up
 * after a longer wall-clock limit without a verdict, as when the child
 * cannot be made: the object is then loaded as usual.
 * OACL_LOAD_PROBE_SERVER=1 has the test loads done one after another by a
 * server child (below).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "device/cpu/cpu_device.h"

#define PROBE_CPU_MS_DEFAULT 10000u

/* Milliseconds of CPU time a test load may compute. */
static unsigned probe_cpu_ms(void)
{
    static unsigned ms;
    if (!ms) {
        const char *e = getenv("OACL_LOAD_PROBE_CPU_MS");
        char *end = NULL;
        const unsigned long v = e ? strtoul(e, &end, 10) : 0;
        ms = (e && *e && end && !*end && v >= 1 && v <= 3600000) ? (unsigned)v : PROBE_CPU_MS_DEFAULT;
    }
    return ms;
}

/* Wall-clock seconds before a test load counts as hung (waiting, not
 * computing): room for a loaded machine to give it its CPU time. */
static unsigned probe_wall_seconds(void)
{
    return 3u * ((probe_cpu_ms() + 999u) / 1000u) + 10u;
}

/* Set by a sanitizer runtime, when one is linked in (weak: absent otherwise). */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/* Fatal signals to their default action, none blocked: a fault of a test
 * load must end the process it runs in. A sanitizer's report there ends it
 * too, without the program's death callback (a fuzzer's would save its
 * input as a crash of its own). */
static void test_load_signals(void)
{
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(NULL);
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT, SIGALRM, SIGXCPU};
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
        sigaction(fatal[i], &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
}

/* Loads, reads (touch) and unloads the object; returns only if that
 * survived. Unloaded too: destructors run at aclrtBinaryUnLoad. A refusal
 * by the loader is reported by the real load. */
static void test_load(const char *path, void (*touch)(void *dl))
{
    /* SIGXCPU once this load has computed its limit: a timer on the
       process's CPU clock (the child has one thread), armed for this load
       alone (a server has done earlier loads). */
    struct sigevent ev;
    memset(&ev, 0, sizeof(ev));
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGXCPU;
    timer_t cpu_timer;
    const bool timed = timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &cpu_timer) == 0;
    if (timed) {
        const unsigned ms = probe_cpu_ms();
        struct itimerspec its = {.it_value = {.tv_sec = ms / 1000u, .tv_nsec = (long)(ms % 1000u) * 1000000L}};
        timer_settime(cpu_timer, 0, &its, NULL);
    }
    alarm(probe_wall_seconds());
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (dl) {
        if (touch)
            touch(dl);
        dlclose(dl);
    }
    alarm(0);
    if (timed)
        timer_delete(cpu_timer);
}

/* The wait status of a test load in a child forked here; -1: no verdict. */
static int fork_test_load(const char *path, void (*touch)(void *dl))
{
    const pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        test_load_signals();
        test_load(path, touch);
        _exit(0);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return -1; /* reaped by someone else (a SIGCHLD handler): no verdict */
    }
    return st;
}

/* ---- the test-load server (OACL_LOAD_PROBE_SERVER=1) -------------------------------
 * Forking the process is what a load costs most, the more so the larger the
 * process: its page tables are copied, and every page it writes afterwards
 * is copied once more. With the server on, one child is forked and does
 * the test loads one after another in itself: a load that crashes it is
 * refused (its wait status is the verdict, as a forked test load's) and the
 * next load forks a new server. It retires after SERVER_LOADS loads, and
 * after a load that left an object loaded. The price: a test load runs in
 * a process earlier test loads ran in (a damaged constructor that wrote
 * somewhere without faulting can make a later, sound image fail there: a
 * false refusal), and its picture of the program is that of the moment it
 * was forked. So it is an option for programs that load many binaries, such
 * as the fuzz targets, not the default. */

#define SERVER_LOADS 1024u

struct probe_request {
    void (*touch)(void *dl); /* the same address in the server: a fork of this process */
    char path[PATH_MAX];     /* empty: the object is the descriptor passed along */
};

struct probe_reply {
    int retiring; /* the server exits after this reply */
};

static int g_server_fd = -1;
static pid_t g_server_pid = -1;
static bool g_server_failed;

static int count_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)info;
    (void)size;
    (*(unsigned *)arg)++;
    return 0;
}

static unsigned loaded_objects(void)
{
    unsigned n = 0;
    dl_iterate_phdr(count_object, &n);
    return n;
}

static void server_loop(int sock)
{
    test_load_signals();
    const unsigned base = loaded_objects();
    for (unsigned served = 1;; served++) {
        struct probe_request req;
        char ctl[CMSG_SPACE(sizeof(int))];
        struct iovec iov = {.iov_base = &req, .iov_len = sizeof(req)};
        struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl)};
        ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != (ssize_t)sizeof(req))
            _exit(0); /* the process closed its end (or is gone) */
        req.path[sizeof(req.path) - 1] = '\0';
        int fd = -1;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
            memcpy(&fd, CMSG_DATA(c), sizeof(fd));
        if (!req.path[0] && fd >= 0)
            snprintf(req.path, sizeof(req.path), "/proc/self/fd/%d", fd);
        if (req.path[0])
            test_load(req.path, req.touch); /* a crash ends the server: the parent reads the verdict */
        if (fd >= 0)
            close(fd);
        struct probe_reply rep = {.retiring = served >= SERVER_LOADS || loaded_objects() != base};
        if (send(sock, &rep, sizeof(rep), MSG_NOSIGNAL) != (ssize_t)sizeof(rep) || rep.retiring)
            _exit(0);
    }
}

/* Ends the server; its wait status, or -1. */
static int server_stop(bool kill_it)
{
    if (g_server_fd >= 0)
        close(g_server_fd);
    g_server_fd = -1;
    int st = -1;
    if (g_server_pid > 0) {
        if (kill_it)
            kill(g_server_pid, SIGKILL);
        while (waitpid(g_server_pid, &st, 0) < 0) {
            if (errno != EINTR) {
                st = -1;
                break;
            }
        }
    }
    g_server_pid = -1;
    return st;
}

static bool server_start(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
        return false;
    const pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return false;
    }
    if (pid == 0) {
        close(sv[0]);
        server_loop(sv[1]);
    }
    close(sv[1]);
    /* A server that stops answering (a lock held by another thread at the
       fork) is given up after the test load's own limit. */
    struct timeval tv = {.tv_sec = (time_t)probe_wall_seconds() + 5, .tv_usec = 0};
    setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    g_server_fd = sv[0];
    g_server_pid = pid;
    OACL_DEBUG("test loads of kernel binaries run in server process %d", (int)pid);
    return true;
}

static bool server_wanted(void)
{
    static int wanted = -1;
    if (wanted < 0) {
        const char *e = getenv("OACL_LOAD_PROBE_SERVER");
        wanted = e && strcmp(e, "1") == 0;
    }
    return wanted == 1;
}

/* The wait status of a test load done by the server (0 when it survived);
 * -1: no server (the caller forks the test load itself). Callers hold the
 * load lock. */
static int server_test_load(const char *path, void (*touch)(void *dl))
{
    if (!server_wanted() || g_server_failed)
        return -1;
    if (g_server_fd < 0 && !server_start()) {
        g_server_failed = true;
        return -1;
    }
    struct probe_request req = {.touch = touch};
    int fd = -1, n = 0;
    if (sscanf(path, "/proc/self/fd/%d%n", &fd, &n) == 1 && path[n] == '\0') {
        /* a copy in memory: the descriptor goes along */
    } else if (path[0] == '/') {
        fd = -1;
        if (strlen(path) >= sizeof(req.path))
            return -1;
        memcpy(req.path, path, strlen(path) + 1);
    } else {
        fd = -1;
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof(cwd)) || strlen(cwd) + 1 + strlen(path) >= sizeof(req.path))
            return -1;
        const size_t cl = strlen(cwd);
        memcpy(req.path, cwd, cl);
        req.path[cl] = '/';
        memcpy(req.path + cl + 1, path, strlen(path) + 1);
    }
    char ctl[CMSG_SPACE(sizeof(int))];
    memset(ctl, 0, sizeof(ctl));
    struct iovec iov = {.iov_base = &req, .iov_len = sizeof(req)};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        msg.msg_control = ctl;
        msg.msg_controllen = sizeof(ctl);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(fd));
    }
    ssize_t r;
    while ((r = sendmsg(g_server_fd, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    if (r != (ssize_t)sizeof(req)) {
        server_stop(true); /* gone before it read: no verdict, the caller forks */
        return -1;
    }
    struct probe_reply rep;
    while ((r = recv(g_server_fd, &rep, sizeof(rep), 0)) < 0 && errno == EINTR) {
    }
    if (r == (ssize_t)sizeof(rep)) {
        if (rep.retiring)
            server_stop(false);
        return 0;
    }
    /* The test load ended the server (its status is the verdict), or the
       server hangs (killed: SIGKILL, no verdict). */
    return server_stop(r < 0);
}

/* 0: the child survived (or could not tell); -1: loading crashes it (why
 * set); -2: it exited with the loader's inconsistency status or computed
 * past its limit (why set), which a second test load tells from the image. */
static int probe(const char *path, void (*touch)(void *dl), char *why, size_t cap)
{
    int st = server_test_load(path, touch);
    if (st == -1)
        st = fork_test_load(path, touch);
    if (st == -1)
        return 0;
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGXCPU) {
        snprintf(why, cap,
                 "loading it does not finish: a test load was still computing after %u ms of CPU time (a "
                 "constructor or destructor that never returns; the image is corrupt)",
                 probe_cpu_ms());
        return -2;
    }
    if (WIFSIGNALED(st) && WTERMSIG(st) != SIGALRM && WTERMSIG(st) != SIGKILL) {
        snprintf(why, cap, "loading it crashes the loader (%s; the image is corrupt)", strsignal(WTERMSIG(st)));
        return -1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) != 0) { /* a sanitizer's report in the child */
        snprintf(why, cap, "loading it fails in a test load (exit status %d; the image is corrupt)",
                 WEXITSTATUS(st));
        return WEXITSTATUS(st) == 127 ? -2 : -1;
    }
    return 0;
}

void *oacl_cpu_safe_dlopen(const char *path, bool probe_first, void (*touch)(void *dl), char *why, size_t cap,
                           bool *condemned)
{
    *condemned = false;
    /* Status 127 is also the loader's own exit on an inconsistency, which
       a child made while another thread of the program (not the runtime)
       was inside dlopen sees; and a child made while another thread held
       one of a sanitizer runtime's spin locks can spin on it until its CPU
       limit (seen under TSan in about 1 of 20 runs of test_multi_device,
       eight threads loading at once): one more try tells either from the
       image. */
    int verdict = probe_first ? probe(path, touch, why, cap) : 0;
    if (verdict == -2)
        verdict = probe(path, touch, why, cap);
    if (verdict != 0) {
        *condemned = true;
        return NULL;
    }
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl)
        snprintf(why, cap, "%s", dlerror());
    return dl;
}
