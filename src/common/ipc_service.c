#include "common/ipc_service.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl_base.h"
#include "common/log.h"

#define MAX_CONNS 64
#define REQUEST_WINDOW_MS 1000

/* ---- small helpers ---------------------------------------------------------- */

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void oacl_ipc_random(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n) {
        ssize_t r = getrandom(p, n, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            /* getrandom exists since Linux 3.17; nothing else is as good.
               Refuse to hand out guessable secrets. */
            OACL_ERROR("getrandom failed: %s", strerror(errno));
            abort();
        }
        p += r;
        n -= (size_t)r;
    }
}

bool oacl_ipc_secret_equal(const void *a, const void *b, size_t n)
{
    const volatile unsigned char *x = a, *y = b;
    unsigned char d = 0;
    for (size_t i = 0; i < n; i++)
        d |= (unsigned char)(x[i] ^ y[i]);
    return d == 0;
}

uint64_t oacl_ipc_timeout_ms(void)
{
    const char *v = getenv("OACL_IPC_TIMEOUT_MS");
    if (v && *v) {
        char *end;
        unsigned long long x = strtoull(v, &end, 10);
        if (!*end && x > 0 && x < 86400000ull)
            return x;
    }
    return 5000;
}

void oacl_ipc_reply_fail(struct oacl_ipc_reply *rep, int status, const char *fmt, ...)
{
    rep->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rep->msg, sizeof(rep->msg), fmt, ap);
    va_end(ap);
}

/* The abstract address "\0oacl-ipc.<pid>" (no trailing zeros). */
static socklen_t service_addr(pid_t pid, struct sockaddr_un *a)
{
    memset(a, 0, sizeof(*a));
    a->sun_family = AF_UNIX;
    int n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "oacl-ipc.%d", (int)pid);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

/* ---- the service ------------------------------------------------------------------ */

static struct {
    pthread_mutex_t lock;
    bool started;      /* lock */
    int listen_fd;     /* lock; -1 when not started */
    oacl_ipc_handler handlers[OACL_IPC_KIND_COUNT]; /* atomic */
} g_svc = {.lock = PTHREAD_MUTEX_INITIALIZER, .listen_fd = -1};

static pthread_once_t g_fork_once = PTHREAD_ONCE_INIT;

void oacl_ipc_set_handler(enum oacl_ipc_kind kind, oacl_ipc_handler h)
{
    if (kind > 0 && kind < OACL_IPC_KIND_COUNT)
        __atomic_store_n(&g_svc.handlers[kind], h, __ATOMIC_RELEASE);
}

struct conn {
    int fd;
    uint64_t deadline;
    struct ucred cred;
};

static void send_reply(int fd, struct oacl_ipc_reply *rep, int obj_fd)
{
    rep->magic = OACL_IPC_MAGIC;
    rep->version = OACL_IPC_VERSION;
    struct iovec iov = {.iov_base = rep, .iov_len = sizeof(*rep)};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } ctl;
    memset(&ctl, 0, sizeof(ctl));
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    if (rep->status == 0 && obj_fd >= 0) {
        m.msg_control = ctl.buf;
        m.msg_controllen = sizeof(ctl.buf);
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &obj_fd, sizeof(int));
    }
    /* Never block on a client: a reply fits the socket buffer of a fresh
       connection, and a client that cannot take it loses its answer. */
    if (sendmsg(fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
        OACL_DEBUG("ipc service: reply not sent: %s", strerror(errno));
}

static void serve(struct conn *c)
{
    struct oacl_ipc_request req;
    ssize_t n = recv(c->fd, &req, sizeof(req), MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return; /* spurious wake-up: keep waiting */
    struct oacl_ipc_reply rep;
    memset(&rep, 0, sizeof(rep));
    rep.device = -1;
    int obj_fd = -1;
    if (n != (ssize_t)sizeof(req) || req.magic != OACL_IPC_MAGIC) {
        oacl_ipc_reply_fail(&rep, ACL_ERROR_RT_IPC_ERROR, "malformed request (%zd bytes)", n);
    } else if (req.version != OACL_IPC_VERSION) {
        oacl_ipc_reply_fail(&rep, ACL_ERROR_RT_IPC_ERROR, "protocol version %u, this process speaks %u", req.version,
                            OACL_IPC_VERSION);
    } else if (c->cred.uid != geteuid() && c->cred.uid != 0) {
        /* Refused before any object is looked up (decision D8). */
        oacl_ipc_reply_fail(&rep, ACL_ERROR_RT_NO_PERMISSION,
                            "process %d runs as user %u; only user %u (the exporter's) may import", (int)c->cred.pid,
                            (unsigned)c->cred.uid, (unsigned)geteuid());
    } else {
        oacl_ipc_handler h = req.kind > 0 && req.kind < OACL_IPC_KIND_COUNT
                                 ? __atomic_load_n(&g_svc.handlers[req.kind], __ATOMIC_ACQUIRE)
                                 : NULL;
        if (!h)
            oacl_ipc_reply_fail(&rep, ACL_ERROR_RT_PARAM_INVALID, "process %d exports no object of this kind",
                                (int)getpid());
        else
            h(&req, c->cred.pid, &rep, &obj_fd);
    }
    send_reply(c->fd, &rep, obj_fd);
    if (obj_fd >= 0)
        close(obj_fd);
    close(c->fd);
    c->fd = -1;
}

static void *service_main(void *arg)
{
    int lfd = (int)(intptr_t)arg;
    prctl(PR_SET_NAME, "oacl-ipc", 0, 0, 0);
    struct conn conns[MAX_CONNS];
    int nconns = 0;
    for (;;) {
        struct pollfd pfd[MAX_CONNS + 1];
        uint64_t now = now_ms(), nearest = UINT64_MAX;
        /* Drop connections that sent nothing in time. */
        for (int i = 0; i < nconns;) {
            if (conns[i].deadline <= now) {
                close(conns[i].fd);
                conns[i] = conns[--nconns];
            } else {
                if (conns[i].deadline < nearest)
                    nearest = conns[i].deadline;
                i++;
            }
        }
        for (int i = 0; i < nconns; i++) {
            pfd[i].fd = conns[i].fd;
            pfd[i].events = POLLIN;
            pfd[i].revents = 0;
        }
        int np = nconns, lidx = -1;
        if (nconns < MAX_CONNS) { /* full: new clients wait in the backlog */
            lidx = np;
            pfd[np].fd = lfd;
            pfd[np].events = POLLIN;
            pfd[np].revents = 0;
            np++;
        }
        int timeout = nearest == UINT64_MAX ? -1 : (int)(nearest - now);
        int r = poll(pfd, (nfds_t)np, timeout);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            OACL_ERROR("ipc service: poll failed: %s; the service stops", strerror(errno));
            break;
        }
        for (int i = 0; i < nconns; i++)
            if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
                serve(&conns[i]);
        for (int i = 0; i < nconns;) {
            if (conns[i].fd < 0)
                conns[i] = conns[--nconns];
            else
                i++;
        }
        if (lidx >= 0 && (pfd[lidx].revents & POLLIN)) {
            while (nconns < MAX_CONNS) {
                int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
                if (fd < 0)
                    break;
                struct ucred cred;
                socklen_t len = sizeof(cred);
                if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || len != sizeof(cred)) {
                    close(fd);
                    continue;
                }
                conns[nconns].fd = fd;
                conns[nconns].cred = cred;
                conns[nconns].deadline = now_ms() + REQUEST_WINDOW_MS;
                nconns++;
            }
        }
    }
    for (int i = 0; i < nconns; i++)
        close(conns[i].fd);
    return NULL;
}

/* A forked child must not answer for its parent: it drops the parent's
 * socket and gets its own service (under its own pid) if it exports. The
 * service thread does not exist in the child. */
static void atfork_child(void)
{
    if (g_svc.listen_fd >= 0)
        close(g_svc.listen_fd);
    g_svc.listen_fd = -1;
    g_svc.started = false;
    pthread_mutex_init(&g_svc.lock, NULL);
}

static void register_fork_handler(void) { pthread_atfork(NULL, NULL, atfork_child); }

int oacl_ipc_service_start(char *err, size_t errlen)
{
    pthread_once(&g_fork_once, register_fork_handler);
    pthread_mutex_lock(&g_svc.lock);
    if (g_svc.started) {
        pthread_mutex_unlock(&g_svc.lock);
        return 0;
    }
    int rc = ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un a;
    socklen_t alen = service_addr(getpid(), &a);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create the IPC service socket: %s", strerror(errno));
    } else if (bind(fd, (struct sockaddr *)&a, alen) != 0) {
        snprintf(err, errlen, "cannot bind the IPC service name @%s: %s%s", a.sun_path + 1, strerror(errno),
                 errno == EADDRINUSE ? " (another process holds this process's name)" : "");
    } else if (listen(fd, MAX_CONNS) != 0) {
        snprintf(err, errlen, "cannot listen on the IPC service socket: %s", strerror(errno));
    } else {
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread takes no signals */
        pthread_t tid;
        int e = pthread_create(&tid, NULL, service_main, (void *)(intptr_t)fd);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (e) {
            snprintf(err, errlen, "cannot start the IPC service thread: %s", strerror(e));
        } else {
            pthread_detach(tid);
            rc = 0;
        }
    }
    if (rc) {
        if (fd >= 0)
            close(fd);
    } else {
        g_svc.listen_fd = fd;
        g_svc.started = true;
        const char *priv = getenv("OACL_IPC_PRIVATE");
        if (priv && strcmp(priv, "1") == 0)
            prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); /* hardening, decision D25 */
    }
    pthread_mutex_unlock(&g_svc.lock);
    return rc;
}

/* ---- the client ------------------------------------------------------------------- */

/* Waits for fd to become ready for events until deadline (ms). */
static bool wait_ready(int fd, short events, uint64_t deadline)
{
    for (;;) {
        uint64_t now = now_ms();
        if (now >= deadline)
            return false;
        struct pollfd p = {.fd = fd, .events = events};
        int r = poll(&p, 1, (int)(deadline - now));
        if (r > 0)
            return true;
        if (r < 0 && errno != EINTR)
            return false;
    }
}

static int client_fail(int code, char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int client_fail(int code, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return code;
}

static void close_rights(struct msghdr *m)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            close(fd);
        }
    }
}

static int exchange(int s, pid_t pid, const struct oacl_ipc_request *req, struct oacl_ipc_reply *rep, int *fd_out,
                    uint64_t deadline, uint64_t timeout, char *err, size_t errlen)
{
    struct ucred cred;
    socklen_t clen = sizeof(cred);
    if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 || clen != sizeof(cred))
        return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen, "cannot read the credentials of pid %d's service: %s",
                           (int)pid, strerror(errno));
    if (cred.pid != pid || (cred.uid != geteuid() && cred.uid != 0))
        return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen,
                           "the service name of pid %d is held by pid %d of user %u: not the exporter, refused",
                           (int)pid, (int)cred.pid, (unsigned)cred.uid);
    for (;;) {
        ssize_t n = send(s, req, sizeof(*req), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n == (ssize_t)sizeof(*req))
            break;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN && wait_ready(s, POLLOUT, deadline))
            continue;
        return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen, "cannot send the request to pid %d: %s", (int)pid,
                           n < 0 && errno != EAGAIN ? strerror(errno) : "timed out");
    }
    if (!wait_ready(s, POLLIN, deadline))
        return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen, "pid %d did not answer within %llu ms", (int)pid,
                           (unsigned long long)timeout);
    union {
        char buf[CMSG_SPACE(sizeof(int) * 4)];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = {.iov_base = rep, .iov_len = sizeof(*rep)};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf)};
    ssize_t n;
    do
        n = recvmsg(s, &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen, "cannot receive pid %d's answer: %s", (int)pid,
                           strerror(errno));
    int fd = -1, nfds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            nfds += (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            if (fd < 0 && c->cmsg_len >= CMSG_LEN(sizeof(int)))
                memcpy(&fd, CMSG_DATA(c), sizeof(int));
        }
    }
    bool ok_shape = n == (ssize_t)sizeof(*rep) && !(m.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) &&
                    rep->magic == OACL_IPC_MAGIC && rep->version == OACL_IPC_VERSION;
    if (!ok_shape || rep->status != 0 || nfds != 1) {
        close_rights(&m);
        if (!ok_shape)
            return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen,
                               n == 0 ? "pid %d closed the connection without answering"
                                      : "pid %d answered in an unknown format (protocol mismatch)",
                               (int)pid);
        if (rep->status != 0) {
            rep->msg[sizeof(rep->msg) - 1] = '\0';
            return client_fail(rep->status, err, errlen, "%s", rep->msg);
        }
        return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen, "pid %d sent %d descriptors instead of one", (int)pid,
                           nfds);
    }
    /* Check the object before anybody maps it: a regular file of at least
       the announced size that cannot shrink (no SIGBUS under a mapping). */
    struct stat st;
    int seals = fcntl(fd, F_GET_SEALS);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < rep->size || seals < 0 ||
        !(seals & F_SEAL_SHRINK)) {
        close(fd);
        return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen,
                           "pid %d sent a descriptor that is not a sealed memory file of %llu bytes", (int)pid,
                           (unsigned long long)rep->size);
    }
    *fd_out = fd;
    return 0;
}

int oacl_ipc_request(pid_t pid, const struct oacl_ipc_request *req, struct oacl_ipc_reply *rep, int *fd_out, char *err,
                     size_t errlen)
{
    uint64_t timeout = oacl_ipc_timeout_ms();
    uint64_t deadline = now_ms() + timeout;
    struct sockaddr_un a;
    socklen_t alen = service_addr(pid, &a);
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s < 0)
        return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen, "cannot create a socket: %s", strerror(errno));
    for (;;) {
        if (connect(s, (struct sockaddr *)&a, alen) == 0)
            break;
        int e = errno;
        if (e == EINTR)
            continue;
        if (e == ECONNREFUSED || e == ENOENT) {
            close(s);
            return client_fail(ACL_ERROR_RT_PARAM_INVALID, err, errlen,
                               "nothing listens for pid %d: the exporter has exited or never exported anything",
                               (int)pid);
        }
        if (e == EAGAIN && now_ms() < deadline) {
            /* The service's backlog is full: it is busy, try again shortly. */
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
            continue;
        }
        close(s);
        return client_fail(ACL_ERROR_RT_IPC_ERROR, err, errlen, "cannot connect to pid %d's service: %s", (int)pid,
                           e == EAGAIN ? "busy until the timeout" : strerror(e));
    }
    int rc = exchange(s, pid, req, rep, fd_out, deadline, timeout, err, errlen);
    close(s);
    return rc;
}
