/*
 * IPC notifies (spec acl-rt-ipc-vmm.md 4.2): export a notify under a key,
 * whitelist importers, import by key, and aclrtNotifyBatchReset.
 *
 * Exporting moves the notify's bit into a shared state file (the backend's
 * notify_share); an importer receives that file from the exporter's IPC
 * service and gets a notify of its own whose record and wait act on the
 * same bit. Waits of an IPC notify run on the device it was created on;
 * records of an imported notify may come from any device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/ipc.h"
#include "runtime/notify.h"

struct notify_key {
    struct notify_key *next;
    struct oacl_ipc_key key;
    char text[64];
    struct oacl_notify *n;      /* not a reference: removed when the notify is destroyed */
    bool no_validation;
    struct oacl_pidset whitelist;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct notify_key *g_keys;

static struct notify_key *find_locked(const struct oacl_notify *n, uint64_t id)
{
    for (struct notify_key *k = g_keys; k; k = k->next)
        if (n ? k->n == n : k->key.id == id)
            return k;
    return NULL;
}

void oacl_ipc_notify_forget(struct oacl_notify *n)
{
    pthread_mutex_lock(&g_lock);
    for (struct notify_key **l = &g_keys; *l; l = &(*l)->next) {
        if ((*l)->n == n) {
            struct notify_key *k = *l;
            *l = k->next;
            oacl_pidset_free(&k->whitelist);
            free(k);
            break;
        }
    }
    pthread_mutex_unlock(&g_lock);
}

OACL_API aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags)
{
    const char *fn = __func__;
    if (!notify || !key)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", notify ? "key" : "notify");
    struct oacl_notify *n = NULL;
    aclError rc = oacl_notify_get(notify, &n, fn);
    if (rc)
        return rc;
    if (len == 0)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "len is 0");
    if (rc == ACL_SUCCESS)
        rc = oacl_ipc_feature_check(OACL_FEAT_IPC_NOTIFY, fn);
    if (rc) {
        /* reported */
    } else if (flags != ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT && flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "flags 0x%llx is not ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT or ..._DISABLE_PID_VALIDATION",
                       (unsigned long long)flags);
    else if (__atomic_load_n(&n->ipc, __ATOMIC_ACQUIRE) != OACL_NOTIFY_LOCAL)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "notify %p was %s; a notify can be exported once", notify,
                       n->ipc == OACL_NOTIFY_EXPORTED ? "exported already" : "imported from another process");
    else if (len < OACL_KEY_BUF_MIN)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "len %zu is too small: a key buffer holds %u bytes", len,
                       OACL_KEY_BUF_MIN);
    else
        rc = oacl_ipc_start(fn);
    struct notify_key *k = NULL;
    if (rc == ACL_SUCCESS && !(k = calloc(1, sizeof(*k))))
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    if (rc == ACL_SUCCESS) {
        pthread_mutex_lock(&g_lock);
        if (__atomic_load_n(&n->ipc, __ATOMIC_ACQUIRE) != OACL_NOTIFY_LOCAL) { /* a concurrent export won */
            rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "notify %p was exported already", notify);
        } else {
            char err[OACL_BACKEND_ERRLEN] = "";
            int fd = -1;
            int brc = oacl_backend()->notify_share(n->bn, &fd, err); /* moves the bit into shared memory */
            if (brc) {
                rc = oacl_fail(brc, fn, "%s", err);
            } else {
                close(fd);
                oacl_ipc_key_new('n', &k->key);
                oacl_ipc_key_format(&k->key, k->text);
                k->n = n;
                k->no_validation = flags == ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION;
                k->next = g_keys;
                g_keys = k;
                __atomic_store_n(&n->ipc, OACL_NOTIFY_EXPORTED, __ATOMIC_RELEASE);
                memcpy(key, k->text, strlen(k->text) + 1);
                k = NULL;
            }
        }
        pthread_mutex_unlock(&g_lock);
    }
    free(k);
    oacl_obj_put(&n->obj);
    return rc;
}

/* Adds pids to the whitelist of notify n (exported here). */
static aclError add_pids(aclrtNotify notify, struct oacl_notify *n, const int32_t *pid, size_t num, const char *fn)
{
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(&g_lock);
    struct notify_key *k = find_locked(n, 0);
    uint32_t state = __atomic_load_n(&n->ipc, __ATOMIC_ACQUIRE);
    if (state == OACL_NOTIFY_IMPORTED)
        rc = oacl_fail(ACL_ERROR_RT_NO_PERMISSION, fn,
                       "notify %p was imported; only the exporting process may change its whitelist", notify);
    else if (!k)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "notify %p has not been exported (aclrtNotifyGetExportKey)",
                       notify);
    else if (k->no_validation)
        rc = oacl_fail(ACL_ERROR_RT_NO_PERMISSION, fn,
                       "notify %p was exported with ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION: it has no "
                       "whitelist",
                       notify);
    else {
        rc = oacl_pidset_add(&k->whitelist, pid, num, oacl_ipc_whitelist_limit());
        if (rc == ACL_ERROR_RT_OVER_LIMIT)
            rc = oacl_fail(rc, fn, "the whitelist of notify %p would exceed %zu pids", notify,
                           oacl_ipc_whitelist_limit());
        else if (rc)
            rc = oacl_fail(rc, fn, "out of memory");
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

OACL_API aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num)
{
    const char *fn = __func__;
    if (!notify || !pid)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", notify ? "pid" : "notify");
    aclError rc = oacl_ipc_feature_check(OACL_FEAT_IPC_NOTIFY, fn);
    if (rc)
        return rc;
    struct oacl_notify *n = NULL;
    rc = oacl_notify_get(notify, &n, fn);
    if (rc)
        return rc;
    if ((int32_t)num <= 0)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "num %zu is not a positive count", num);
    else
        rc = oacl_ctx_require(fn);
    if (rc == ACL_SUCCESS)
        rc = add_pids(notify, n, pid, num, fn);
    oacl_obj_put(&n->obj);
    return rc;
}

OACL_API aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid *serverPids, size_t num)
{
    const char *fn = __func__;
    if (!notify || !serverPids)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s is NULL", notify ? "serverPids" : "notify");
    if (num == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "num is 0");
    struct oacl_notify *n = NULL;
    aclError rc = oacl_notify_get(notify, &n, fn);
    if (rc)
        return rc;
    for (size_t i = 0; rc == ACL_SUCCESS && i < num; i++) {
        if (!serverPids[i].pid)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "serverPids[%zu].pid is NULL", i);
        else if (serverPids[i].num != 1)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "serverPids[%zu].num is %zu; each entry carries one pid",
                           i, serverPids[i].num);
        else if (oacl_ipc_family() != OACL_FAM_A3)
            rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                           "%s is not supported on %s: cross-server whitelists need an Atlas A3 SuperPOD; this "
                           "simulated %s is a single host",
                           fn, oacl_soc_name(), oacl_soc_name());
        else if (oacl_ipc_sdid_is_local(serverPids[i].sdid)) /* other servers' pids are not local pids */
            rc = add_pids(notify, n, serverPids[i].pid, 1, fn);
    }
    oacl_obj_put(&n->obj);
    return rc;
}

void oacl_ipc_notify_serve(const struct oacl_ipc_request *req, pid_t peer, struct oacl_ipc_reply *rep, int *fd)
{
    pthread_mutex_lock(&g_lock);
    struct notify_key *k = find_locked(NULL, req->id);
    if (!k || !oacl_ipc_secret_equal(k->key.secret, req->secret, OACL_KEY_SECRET)) {
        oacl_ipc_reply_fail(rep, ACL_ERROR_RT_PARAM_INVALID,
                            "pid %d exports no such notify (wrong key, or the notify was destroyed)", (int)getpid());
    } else if (!k->no_validation && !oacl_pidset_has(&k->whitelist, peer)) {
        oacl_ipc_reply_fail(rep, ACL_ERROR_RT_NO_PERMISSION, "pid %d is not on the whitelist of key %s", (int)peer,
                            k->text);
    } else {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->notify_share(k->n->bn, fd, err);
        if (brc) {
            oacl_ipc_reply_fail(rep, brc, "%s", err);
        } else {
            rep->status = 0;
            rep->device = k->n->home_dev;
            rep->aux[0] = k->n->id;
        }
    }
    pthread_mutex_unlock(&g_lock);
}

OACL_API aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags)
{
    const char *fn = __func__;
    if (!notify || !key)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", notify ? "key" : "notify");
    aclError rc = oacl_ipc_feature_check(OACL_FEAT_IPC_NOTIFY, fn);
    if (rc)
        return rc;
    uint32_t f = (uint32_t)flags; /* CANN keeps the low 32 bits */
    if (f > 3)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "flags 0x%x is not ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT or ..._ENABLE_PEER_ACCESS", f);
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    struct oacl_device *dev = ctx->dev;
    oacl_obj_put(&ctx->obj);
    if (f & 0x1)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "flag 0x1 (device-side download of collective-communication notifies) is not supported");
    char shown[72];
    struct oacl_ipc_key k;
    if (!oacl_ipc_key_parse(key, 'n', &k))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "'%s' is not an IPC notify key", oacl_ipc_key_show(key, shown));
    int fd = -1;
    int32_t home = -1;
    uint32_t id = 0;
    if (k.pid == getpid()) {
        /* The exporter itself: served here, no whitelist (decision D9). */
        pthread_mutex_lock(&g_lock);
        struct notify_key *e = find_locked(NULL, k.id);
        char err[OACL_BACKEND_ERRLEN] = "";
        if (!e || !oacl_ipc_secret_equal(e->key.secret, k.secret, OACL_KEY_SECRET))
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "key %s names no live notify of this process",
                           oacl_ipc_key_show(key, shown));
        else if ((rc = oacl_backend()->notify_share(e->n->bn, &fd, err)) != 0)
            rc = oacl_fail(rc, fn, "%s", err);
        else {
            home = e->n->home_dev;
            id = e->n->id;
        }
        pthread_mutex_unlock(&g_lock);
    } else {
        struct oacl_ipc_reply rep;
        rc = oacl_ipc_call(k.pid, OACL_IPC_KIND_NOTIFY, k.id, k.secret, OACL_KEY_SECRET, &rep, &fd, fn);
        home = rep.device;
        id = (uint32_t)rep.aux[0];
    }
    if (rc)
        return rc;
    char err[OACL_BACKEND_ERRLEN] = "";
    struct oacl_bnotify *bn = NULL;
    int brc = oacl_backend()->notify_import(dev->bdev, fd, &bn, err);
    close(fd);
    if (brc)
        return oacl_fail(brc, fn, "%s", err);
    struct oacl_notify *n = NULL;
    aclrtNotify h = NULL;
    rc = oacl_notify_wrap(dev, bn, id, &h, &n, fn);
    if (rc)
        return rc;
    n->home_dev = home;
    __atomic_store_n(&n->ipc, OACL_NOTIFY_IMPORTED, __ATOMIC_RELEASE);
    if (f & ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS)
        oacl_ipc_peer_enable(dev->id, home);
    *notify = h;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num)
{
    const char *fn = __func__;
    if (!notifies)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "notifies is NULL");
    if ((uint32_t)num == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "num %zu is 0 (as a 32-bit count)", num);
    uint32_t count = (uint32_t)num;
    for (uint32_t i = 0; i < count; i++) {
        aclError rc = oacl_ipc_feature_check(OACL_FEAT_BATCH_RESET, fn);
        if (rc)
            return rc;
        if (!notifies[i])
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "notifies[%u] is NULL", i);
        struct oacl_notify *n = NULL;
        rc = oacl_notify_get(notifies[i], &n, fn);
        if (rc)
            return rc;
        struct oacl_context *ctx = NULL;
        rc = oacl_ctx_current(&ctx, fn);
        if (rc == ACL_SUCCESS) {
            /* In the default stream's order, and done when the call returns. */
            struct oacl_stream *s = ctx->default_stream;
            char err[OACL_BACKEND_ERRLEN] = "";
            int brc = oacl_backend()->notify_reset(s->queue, n->bn, err);
            if (brc)
                rc = oacl_fail(brc, fn, "%s", err);
            else
                rc = oacl_stream_sync(s, -1, fn);
            oacl_obj_put(&ctx->obj);
        }
        oacl_obj_put(&n->obj);
        if (rc)
            return rc;
    }
    return ACL_SUCCESS;
}
