/*
 * IPC events (spec acl-rt-ipc-vmm.md 4.3): events created with
 * ACL_EVENT_IPC, their 64-byte handles, and opening a handle in another
 * process.
 *
 * The event's state lives in a shared memory file from its creation (the
 * backend's event_create_shared). The handle is plain data naming the
 * creator's pid, the event's id and 128 random bits; an opener asks the
 * creator's IPC service for the state file (no whitelist: whoever holds the
 * handle may open it) and gets an event of its own on the same state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/event.h"
#include "runtime/ipc.h"

#define HANDLE_MAGIC "OACLEVT" /* and its NUL: 8 bytes */
#define HANDLE_VERSION 1u
#define HANDLE_SECRET 16u

/* Layout of the 64 bytes (spec 3.2), host byte order. */
struct handle_fields {
    char magic[8];
    uint32_t version;
    int32_t pid;
    uint64_t id;
    uint8_t secret[HANDLE_SECRET];
    uint32_t device;
    uint8_t zero[20];
};
_Static_assert(sizeof(struct handle_fields) == ACL_IPC_EVENT_HANDLE_SIZE, "IPC event handle layout");

struct created {
    struct created *next;
    struct handle_fields h;
    struct oacl_event *e;   /* not a reference: removed when the event is destroyed */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct created *g_created;

static struct created *find_locked(uint64_t id)
{
    for (struct created *c = g_created; c; c = c->next)
        if (c->h.id == id)
            return c;
    return NULL;
}

void oacl_ipc_event_forget(struct oacl_event *e)
{
    pthread_mutex_lock(&g_lock);
    for (struct created **l = &g_created; *l; l = &(*l)->next) {
        if ((*l)->e == e) {
            struct created *c = *l;
            *l = c->next;
            free(c);
            break;
        }
    }
    pthread_mutex_unlock(&g_lock);
}

aclError oacl_ipc_event_create(aclrtEvent *event, const char *fn)
{
    aclError rc = oacl_ipc_feature_check(OACL_FEAT_IPC_EVENT, fn);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    struct oacl_device *dev = ctx->dev;
    oacl_obj_put(&ctx->obj);
    struct created *c = calloc(1, sizeof(*c));
    struct oacl_ipc_event_info *info = calloc(1, sizeof(*info));
    if (!c || !info) {
        free(c);
        free(info);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for an event");
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    struct oacl_bevent *be = NULL;
    int brc = oacl_backend()->event_create_shared(dev->bdev, &be, err);
    if (brc) {
        free(c);
        free(info);
        return oacl_fail(brc, fn, "%s", err);
    }
    memcpy(c->h.magic, HANDLE_MAGIC, 8);
    c->h.version = HANDLE_VERSION;
    c->h.pid = (int32_t)getpid();
    c->h.id = oacl_ipc_next_id();
    oacl_ipc_random(c->h.secret, sizeof(c->h.secret));
    c->h.device = (uint32_t)dev->id;
    memcpy(&info->handle, &c->h, sizeof(info->handle));
    info->creator = true;
    struct oacl_event *e = NULL;
    rc = oacl_event_wrap(dev, be, EVENT_EX, ACL_EVENT_IPC, info, event, &e, fn);
    if (rc) {
        free(c);
        return rc;
    }
    c->e = e;
    pthread_mutex_lock(&g_lock);
    c->next = g_created;
    g_created = c;
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle)
{
    const char *fn = __func__;
    if (!handle || !event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", handle ? "event" : "handle");
    aclError rc = oacl_ipc_feature_check(OACL_FEAT_IPC_EVENT, fn);
    if (rc)
        return rc;
    struct oacl_event *e = NULL;
    rc = oacl_event_get(event, &e, fn);
    if (rc)
        return rc;
    if (!e->ipc)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "event %p was not created with ACL_EVENT_IPC (aclrtCreateEventExWithFlag)", event);
    else if (e->ipc->creator)
        rc = oacl_ipc_start(fn); /* others will ask this process for it */
    if (rc == ACL_SUCCESS)
        memcpy(handle, &e->ipc->handle, sizeof(*handle)); /* all 64 bytes, always the same (D19) */
    oacl_obj_put(&e->obj);
    return rc;
}

void oacl_ipc_event_serve(const struct oacl_ipc_request *req, pid_t peer, struct oacl_ipc_reply *rep, int *fd)
{
    (void)peer; /* IPC events have no whitelist */
    pthread_mutex_lock(&g_lock);
    struct created *c = find_locked(req->id);
    if (!c || !oacl_ipc_secret_equal(c->h.secret, req->secret, HANDLE_SECRET)) {
        oacl_ipc_reply_fail(rep, ACL_ERROR_RT_PARAM_INVALID,
                            "pid %d has no such IPC event (wrong handle, or the event was destroyed)", (int)getpid());
    } else {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->event_share_fd(c->e->be, fd, err);
        if (brc) {
            oacl_ipc_reply_fail(rep, brc, "%s", err);
        } else {
            rep->status = 0;
            rep->device = c->e->dev->id;
        }
    }
    pthread_mutex_unlock(&g_lock);
}

OACL_API aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event)
{
    const char *fn = __func__;
    if (!event)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "event is NULL");
    aclError rc = oacl_ipc_feature_check(OACL_FEAT_IPC_EVENT, fn);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    struct oacl_device *dev = ctx->dev;
    oacl_obj_put(&ctx->obj);
    struct handle_fields h;
    memcpy(&h, &handle, sizeof(h));
    if (memcmp(h.magic, HANDLE_MAGIC, 8) != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the handle is not an IPC event handle (bad magic)");
    if (h.version != HANDLE_VERSION)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the handle has version %u; this oacl reads version %u",
                         h.version, HANDLE_VERSION);
    if (h.pid <= 0 || h.id == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the handle names no event (pid %d, id %llu)", (int)h.pid,
                         (unsigned long long)h.id);
    int fd = -1;
    int32_t creator_dev = (int32_t)h.device;
    if (h.pid == (int32_t)getpid()) {
        /* Opened by its creator: no socket (decision D9). */
        pthread_mutex_lock(&g_lock);
        struct created *c = find_locked(h.id);
        char err[OACL_BACKEND_ERRLEN] = "";
        if (!c || !oacl_ipc_secret_equal(c->h.secret, h.secret, HANDLE_SECRET))
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the handle names no live IPC event of this process");
        else if ((rc = oacl_backend()->event_share_fd(c->e->be, &fd, err)) != 0)
            rc = oacl_fail(rc, fn, "%s", err);
        pthread_mutex_unlock(&g_lock);
    } else {
        struct oacl_ipc_reply rep;
        rc = oacl_ipc_call(h.pid, OACL_IPC_KIND_EVENT, h.id, h.secret, HANDLE_SECRET, &rep, &fd, fn);
        creator_dev = rep.device;
    }
    if (rc)
        return rc;
    struct oacl_ipc_event_info *info = calloc(1, sizeof(*info));
    if (!info) {
        close(fd);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    }
    memcpy(&info->handle, &handle, sizeof(handle)); /* keeps naming the creator */
    char err[OACL_BACKEND_ERRLEN] = "";
    struct oacl_bevent *be = NULL;
    int brc = oacl_backend()->event_import(dev->bdev, fd, &be, err);
    close(fd);
    if (brc) {
        free(info);
        return oacl_fail(brc, fn, "%s", err);
    }
    rc = oacl_event_wrap(dev, be, EVENT_EX, ACL_EVENT_IPC, info, event, NULL, fn);
    if (rc == ACL_SUCCESS)
        oacl_ipc_peer_enable(dev->id, creator_dev); /* granted implicitly (3.8) */
    return rc;
}
