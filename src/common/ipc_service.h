/*
 * The per-process IPC service (spec acl-rt-ipc-vmm.md 3.2-3.4): how one
 * process hands another the descriptor of a shared object.
 *
 * A process that exports anything runs one service thread listening on a
 * SOCK_SEQPACKET Unix socket bound to the abstract name "oacl-ipc.<pid>"
 * (nothing in the file system, gone with the process). An importer derives
 * the name from the pid inside the key or handle, connects, sends one
 * request and receives one reply carrying one descriptor (SCM_RIGHTS).
 *
 * Identity is what the kernel vouches for: the service reads the
 * requester's pid and uid with SO_PEERCRED (other users are refused before
 * any object is looked up) and hands the pid to the object's handler, which
 * applies the whitelist; the client checks with SO_PEERCRED that the
 * listener is the process the key names and runs as its own user (or
 * root), and checks the received descriptor (a regular file, large enough,
 * sealed against shrinking) before anyone maps it. Every blocking step of
 * a request is bounded by OACL_IPC_TIMEOUT_MS (default 5000).
 */
#ifndef OACL_COMMON_IPC_SERVICE_H
#define OACL_COMMON_IPC_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define OACL_IPC_MAGIC 0x4f41434cu /* "OACL" */
#define OACL_IPC_VERSION 1u
#define OACL_IPC_ERRLEN 256

/* What a request names. */
enum oacl_ipc_kind {
    OACL_IPC_KIND_MEM = 1,    /* IPC memory key */
    OACL_IPC_KIND_NOTIFY = 2, /* IPC notify key */
    OACL_IPC_KIND_EVENT = 3,  /* IPC event handle */
    OACL_IPC_KIND_VMM = 4,    /* shareable handle of physical memory */
    OACL_IPC_KIND_COUNT
};

struct oacl_ipc_request {
    uint32_t magic;
    uint32_t version;
    uint32_t kind;            /* enum oacl_ipc_kind */
    uint32_t reserved;
    uint64_t id;              /* object id (VMM: the handle's tag) */
    uint8_t secret[16];       /* unused bytes zero */
};

struct oacl_ipc_reply {
    uint32_t magic;
    uint32_t version;
    int32_t status;           /* aclError; 0: exactly one descriptor attached */
    int32_t device;           /* the exporter's device id of the object, -1 for host memory */
    uint64_t size;            /* bytes the descriptor's file backs at least */
    uint64_t aux[4];          /* kind-specific data */
    char msg[160];            /* why, when status != 0 */
};

/*
 * Serves one request on the service thread; must not block. Fills rep
 * (status, msg, object data) and on success stores a descriptor in *fd,
 * which the service sends and then closes. peer_pid is the requester's
 * pid as the kernel reported it at connect.
 */
typedef void (*oacl_ipc_handler)(const struct oacl_ipc_request *req, pid_t peer_pid, struct oacl_ipc_reply *rep,
                                 int *fd);
void oacl_ipc_set_handler(enum oacl_ipc_kind kind, oacl_ipc_handler h);

/* Starts this process's service if it is not running: 0, or
 * ACL_ERROR_RT_RESOURCE_ALLOC_FAIL with the reason in err. */
int oacl_ipc_service_start(char *err, size_t errlen);

/*
 * One request to the service of process pid. Returns 0 with *fd (close-on-
 * exec) and rep filled, or an aclError with a message in err:
 * ACL_ERROR_RT_PARAM_INVALID when nothing listens for pid, the handler's
 * status (107000, 207006, ...), ACL_ERROR_RT_NO_PERMISSION for a requester
 * of another user, ACL_ERROR_RT_IPC_ERROR for a timeout, a protocol
 * mismatch, an impostor service or a bad descriptor.
 */
int oacl_ipc_request(pid_t pid, const struct oacl_ipc_request *req, struct oacl_ipc_reply *rep, int *fd, char *err,
                     size_t errlen);

/* Random bytes from getrandom() (blocking until the pool is ready). */
void oacl_ipc_random(void *buf, size_t n);
/* Comparison whose time does not depend on where the inputs differ. */
bool oacl_ipc_secret_equal(const void *a, const void *b, size_t n);
/* OACL_IPC_TIMEOUT_MS, default 5000. */
uint64_t oacl_ipc_timeout_ms(void);
/* A reply with status and a message (for handlers). */
void oacl_ipc_reply_fail(struct oacl_ipc_reply *rep, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* OACL_COMMON_IPC_SERVICE_H */
