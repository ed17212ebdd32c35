/*
 * IPC memory (spec acl-rt-ipc-vmm.md 4.1): a device allocation exported
 * under a key, whitelisted pids, import by key in another process, close.
 *
 * Exporting moves the allocation into its own memory file (the backend's
 * mem_share) and records a key: object id, 96-bit secret, shared length,
 * flags and whitelist. An importer asks the exporter's IPC service for the
 * key; the service checks the secret and the requester's kernel-reported
 * pid against the whitelist and sends the file, which the importer maps and
 * registers as device memory of its current device. Importers keep the
 * memory and its data whatever the exporter does afterwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/addr_registry.h"
#include "runtime/ipc.h"

struct mem_key {
    struct mem_key *next;
    struct oacl_ipc_key key;
    char text[64];
    struct oacl_bshare *share;
    uintptr_t base;
    size_t len;                 /* shared length: from the allocation's page, rounded up to pages */
    size_t off;                 /* the allocation's offset in its first page (memcheck placement) */
    int32_t device;             /* the allocation's device */
    bool no_validation;         /* ..._DISABLE_PID_VALIDATION */
    struct oacl_pidset whitelist;
};

struct mem_import {
    struct mem_import *next;
    char key[OACL_KEY_BUF_MIN];
    void *ptr;                  /* the mapping */
    size_t len;
    size_t off;                 /* the imported allocation starts at ptr + off */
    struct oacl_device *dev;    /* the importing device */
};

struct mem_attr {
    struct mem_attr *next;
    char key[OACL_KEY_BUF_MIN];
    uint64_t attr;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mem_key *g_keys;          /* exports of this process */
static struct mem_import *g_imports;    /* oldest first */
static struct mem_attr *g_attrs;        /* aclrtIpcMemSetAttr values (A3) */

static size_t page_round(size_t n)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    return (n + ps - 1) & ~(ps - 1);
}

static void key_free(struct mem_key *k)
{
    oacl_backend()->share_put(k->share);
    oacl_pidset_free(&k->whitelist);
    free(k);
}

/* The live export with this id (lock held). Keys of freed allocations are
 * destroyed on the way: the allocation's free destroys its keys. */
static struct mem_key *find_key_locked(uint64_t id, const char *text)
{
    for (struct mem_key **link = &g_keys; *link;) {
        struct mem_key *k = *link;
        if (!oacl_backend()->share_live(k->share)) {
            *link = k->next;
            key_free(k);
            continue;
        }
        if (text ? strcmp(k->text, text) == 0 : k->key.id == id)
            return k;
        link = &k->next;
    }
    return NULL;
}

/* The key text of at most 64 characters, or "" when longer. */
static void copy_key(char out[OACL_KEY_BUF_MIN], const char *key)
{
    size_t n = strnlen(key, OACL_KEY_BUF_MIN);
    if (n >= OACL_KEY_BUF_MIN)
        n = 0;
    memcpy(out, key, n);
    out[n] = '\0';
}

/* ---- export ------------------------------------------------------------------------- */

OACL_API aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags)
{
    const char *fn = __func__;
    if (!devPtr || !key)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", devPtr ? "key" : "devPtr");
    if (size == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "size is 0");
    if (len == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "len is 0");
    if (flags > ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "flags 0x%llx is not ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT or ..._DISABLE_PID_VALIDATION",
                         (unsigned long long)flags);
    aclError rc = oacl_ctx_require(fn);
    if (rc)
        return rc;
    rc = oacl_ipc_feature_check(OACL_FEAT_IPC_MEM, fn);
    if (rc)
        return rc;
    struct oacl_mem_record r;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, (uintptr_t)devPtr, &r) || r.kind != OACL_MEM_DEVICE)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is not device memory allocated by this process", devPtr);
    if (r.origin != OACL_MEM_ORIGIN_ALLOC)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p is %s; only memory from aclrtMalloc can be exported",
                         devPtr,
                         r.origin == OACL_MEM_ORIGIN_IPC_IMPORT ? "imported IPC memory"
                         : r.origin == OACL_MEM_ORIGIN_VMM_MAP  ? "a virtual-memory address"
                                                                : "a device variable");
    /* A pool hands its blocks out again after a free: an importer must
       never see the exporter's later allocations. */
    if (r.pool_block)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%p is memory of a memory pool, which cannot be exported; export memory from aclrtMalloc",
                         devPtr);
    if (r.base != (uintptr_t)devPtr)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%p points inside the allocation at %p; pass the address the allocation returned", devPtr,
                         (void *)r.base);
    if (size > r.user_size)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "size %zu exceeds the allocation's %zu bytes", size,
                         r.user_size);
    if (len < OACL_KEY_BUF_MIN)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "len %zu is too small: a key buffer holds %u bytes", len,
                         OACL_KEY_BUF_MIN);
    rc = oacl_ipc_start(fn);
    if (rc)
        return rc;
    struct mem_key *k = calloc(1, sizeof(*k));
    if (!k)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    char err[OACL_BACKEND_ERRLEN] = "";
    struct oacl_device *dev = oacl_device_at(r.device);
    int brc = oacl_backend()->mem_share(dev->bdev, devPtr, r.size, &k->share, err);
    if (brc) {
        free(k);
        return oacl_fail(brc, fn, "%s", err);
    }
    oacl_ipc_key_new('m', &k->key);
    oacl_ipc_key_format(&k->key, k->text);
    k->base = r.base;
    /* The memory checker places allocations at the end of their pages: the
       share starts at the page, the importer adds the offset. */
    k->off = r.base & ((size_t)sysconf(_SC_PAGESIZE) - 1);
    k->len = page_round(k->off + size);
    k->device = r.device;
    k->no_validation = flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION;
    pthread_mutex_lock(&g_lock);
    k->next = g_keys;
    g_keys = k;
    pthread_mutex_unlock(&g_lock);
    memcpy(key, k->text, strlen(k->text) + 1); /* the rest of the buffer is not touched */
    return ACL_SUCCESS;
}

/* Whitelist update of a key this process exported (lock not held). */
static aclError add_pids(const char *key, const int32_t *pid, size_t num, const char *fn)
{
    char shown[72];
    struct oacl_ipc_key k;
    if (!oacl_ipc_key_parse(key, 'm', &k))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "'%s' is not an IPC memory key",
                         oacl_ipc_key_show(key, shown));
    if (k.pid != getpid())
        return oacl_fail(ACL_ERROR_RT_NO_PERMISSION, fn,
                         "key %s was exported by pid %d; only the exporting process may change its whitelist",
                         oacl_ipc_key_show(key, shown), (int)k.pid);
    char text[OACL_KEY_BUF_MIN];
    copy_key(text, key);
    pthread_mutex_lock(&g_lock);
    struct mem_key *e = find_key_locked(0, text);
    aclError rc = ACL_SUCCESS;
    if (!e)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "key %s is not exported (closed, freed or never exported)",
                       text);
    else if (e->no_validation)
        rc = oacl_fail(ACL_ERROR_RT_NO_PERMISSION, fn,
                       "key %s was exported with ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION: it has no whitelist",
                       text);
    else {
        rc = oacl_pidset_add(&e->whitelist, pid, num, oacl_ipc_whitelist_limit());
        if (rc == ACL_ERROR_RT_OVER_LIMIT)
            rc = oacl_fail(rc, fn, "the whitelist of key %s would exceed %zu pids", text, oacl_ipc_whitelist_limit());
        else if (rc)
            rc = oacl_fail(rc, fn, "out of memory");
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

OACL_API aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num)
{
    const char *fn = __func__;
    if (!key || !pid)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", key ? "pid" : "key");
    if ((int32_t)num <= 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "num %zu is not a positive count", num);
    aclError rc = oacl_ctx_require(fn);
    if (rc == ACL_SUCCESS)
        rc = oacl_ipc_feature_check(OACL_FEAT_IPC_MEM, fn);
    if (rc == ACL_SUCCESS)
        rc = add_pids(key, pid, num, fn);
    return rc;
}

OACL_API aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids, size_t num)
{
    const char *fn = __func__;
    if (!key || !serverPids)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s is NULL", key ? "serverPids" : "key");
    if (num == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "num is 0");
    for (size_t i = 0; i < num; i++)
        if (!serverPids[i].pid)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "serverPids[%zu].pid is NULL", i);
    if (oacl_ipc_family() != OACL_FAM_A3)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "%s is not supported on %s: cross-server whitelists need an Atlas A3 SuperPOD; this "
                         "simulated %s is a single host",
                         fn, oacl_soc_name(), oacl_soc_name());
    aclError rc = oacl_ctx_require(fn);
    for (size_t i = 0; rc == ACL_SUCCESS && i < num; i++) {
        /* Entries for other servers name processes of other machines:
           whitelisting them here would admit unrelated local processes. */
        if (!oacl_ipc_sdid_is_local(serverPids[i].sdid))
            continue;
        if ((int32_t)serverPids[i].num <= 0)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "serverPids[%zu].num %zu is not a positive count", i,
                           serverPids[i].num);
        else
            rc = add_pids(key, serverPids[i].pid, serverPids[i].num, fn);
    }
    return rc;
}

/* ---- the service side --------------------------------------------------------------- */

void oacl_ipc_mem_serve(const struct oacl_ipc_request *req, pid_t peer, struct oacl_ipc_reply *rep, int *fd)
{
    pthread_mutex_lock(&g_lock);
    struct mem_key *k = find_key_locked(req->id, NULL);
    if (!k || !oacl_ipc_secret_equal(k->key.secret, req->secret, OACL_KEY_SECRET)) {
        /* Which part was wrong stays the exporter's secret. */
        oacl_ipc_reply_fail(rep, ACL_ERROR_RT_PARAM_INVALID,
                            "pid %d exports no such key (wrong, closed, or its memory was freed)", (int)getpid());
    } else if (!k->no_validation && !oacl_pidset_has(&k->whitelist, peer)) {
        oacl_ipc_reply_fail(rep, ACL_ERROR_RT_NO_PERMISSION, "pid %d is not on the whitelist of key %s", (int)peer,
                            k->text);
    } else {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->share_fd(k->share, fd, err);
        if (brc) {
            oacl_ipc_reply_fail(rep, brc, "%s", err);
        } else {
            rep->status = 0;
            rep->size = k->len;
            rep->aux[0] = k->off;
            rep->device = k->device;
        }
    }
    pthread_mutex_unlock(&g_lock);
}

/* ---- import ------------------------------------------------------------------------- */

OACL_API aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags)
{
    const char *fn = __func__;
    if (!devPtr || !key)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", devPtr ? "key" : "devPtr");
    if (flags > ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "flags 0x%llx is not ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT or ..._ENABLE_PEER_ACCESS",
                         (unsigned long long)flags);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    struct oacl_device *dev = ctx->dev;
    oacl_obj_put(&ctx->obj);
    rc = oacl_ipc_feature_check(OACL_FEAT_IPC_MEM, fn);
    if (rc)
        return rc;
    char shown[72];
    struct oacl_ipc_key k;
    if (!oacl_ipc_key_parse(key, 'm', &k))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "'%s' is not an IPC memory key", oacl_ipc_key_show(key, shown));
    int fd = -1;
    size_t len = 0, off = 0;
    int32_t exporter_dev = -1;
    if (k.pid == getpid()) {
        /* The exporter itself: served here, no whitelist (decision D9). */
        pthread_mutex_lock(&g_lock);
        struct mem_key *e = find_key_locked(k.id, NULL);
        char err[OACL_BACKEND_ERRLEN] = "";
        if (!e || !oacl_ipc_secret_equal(e->key.secret, k.secret, OACL_KEY_SECRET))
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "key %s is not exported (closed, freed or never exported)",
                           oacl_ipc_key_show(key, shown));
        else if ((rc = oacl_backend()->share_fd(e->share, &fd, err)) != 0)
            rc = oacl_fail(rc, fn, "%s", err);
        else {
            len = e->len;
            off = e->off;
            exporter_dev = e->device;
        }
        pthread_mutex_unlock(&g_lock);
    } else {
        struct oacl_ipc_reply rep;
        rc = oacl_ipc_call(k.pid, OACL_IPC_KIND_MEM, k.id, k.secret, OACL_KEY_SECRET, &rep, &fd, fn);
        len = (size_t)rep.size;
        off = (size_t)rep.aux[0];
        exporter_dev = rep.device;
        if (rc == ACL_SUCCESS && (len == 0 || off >= len)) {
            close(fd);
            rc = oacl_fail(ACL_ERROR_RT_IPC_ERROR, fn, "pid %d announced an empty allocation", (int)k.pid);
        }
    }
    if (rc)
        return rc;
    struct mem_import *imp = calloc(1, sizeof(*imp));
    struct oacl_mem_record *r = calloc(1, sizeof(*r));
    char err[OACL_BACKEND_ERRLEN] = "out of memory";
    void *p = NULL;
    int brc = imp && r ? oacl_backend()->mem_attach(fd, len, &p, err) : ACL_ERROR_RT_MEMORY_ALLOCATION;
    close(fd); /* the mapping keeps the memory */
    if (brc == ACL_SUCCESS) {
        r->base = (uintptr_t)p + off;
        r->size = len - off;
        r->user_size = len - off;
        r->kind = OACL_MEM_DEVICE;
        r->origin = OACL_MEM_ORIGIN_IPC_IMPORT;
        r->device = dev->id;
        r->flags = ACL_MEM_MALLOC_NORMAL_ONLY; /* host-page granular */
        oacl_registry_wrlock();
        if (oacl_registry_insert_locked(OACL_SPACE_ALLOC, r) != 0) {
            brc = ACL_ERROR_RT_MEMORY_ALLOCATION;
            snprintf(err, sizeof(err), "cannot record the imported memory");
        }
        oacl_registry_unlock();
        if (brc)
            oacl_backend()->mem_detach(NULL, p, len);
    }
    if (brc) {
        free(imp);
        free(r);
        return oacl_fail(brc, fn, "%s", err);
    }
    if (flags & ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
        oacl_ipc_peer_enable(dev->id, exporter_dev);
    copy_key(imp->key, key);
    imp->ptr = p;
    imp->len = len;
    imp->off = off;
    imp->dev = dev;
    pthread_mutex_lock(&g_lock);
    struct mem_import **tail = &g_imports;
    while (*tail)
        tail = &(*tail)->next;
    *tail = imp;
    pthread_mutex_unlock(&g_lock);
    *devPtr = (char *)p + off;
    return ACL_SUCCESS;
}

/* ---- close ------------------------------------------------------------------------- */

OACL_API aclError aclrtIpcMemClose(const char *key)
{
    const char *fn = __func__;
    if (!key)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "key is NULL");
    aclError rc = oacl_ipc_feature_check(OACL_FEAT_IPC_MEM, fn);
    if (rc == ACL_SUCCESS)
        rc = oacl_ctx_require(fn);
    if (rc)
        return rc;
    char text[OACL_KEY_BUF_MIN], shown[72];
    copy_key(text, key);
    struct mem_import *imp = NULL;
    struct mem_key *exp = NULL;
    bool attr = false;
    pthread_mutex_lock(&g_lock);
    /* CANN's order: imports first, the oldest one; then the export; then a
       value only set with aclrtIpcMemSetAttr. */
    for (struct mem_import **l = &g_imports; text[0] && *l; l = &(*l)->next) {
        if (strcmp((*l)->key, text) == 0) {
            imp = *l;
            *l = imp->next;
            break;
        }
    }
    if (!imp && text[0]) {
        exp = find_key_locked(0, text);
        if (exp) {
            struct mem_key **l = &g_keys;
            while (*l != exp)
                l = &(*l)->next;
            *l = exp->next;
        }
    }
    if (!imp && !exp && text[0]) {
        for (struct mem_attr **l = &g_attrs; *l; l = &(*l)->next) {
            if (strcmp((*l)->key, text) == 0) {
                struct mem_attr *a = *l;
                *l = a->next;
                free(a);
                attr = true;
                break;
            }
        }
    }
    pthread_mutex_unlock(&g_lock);
    if (imp) {
        oacl_registry_wrlock();
        struct oacl_mem_record *r = oacl_registry_remove_locked(OACL_SPACE_ALLOC, (uintptr_t)imp->ptr + imp->off);
        oacl_registry_unlock();
        /* Work already queued may still use it (as for aclrtFree). */
        oacl_backend()->mem_detach(imp->dev->bdev, imp->ptr, imp->len);
        free(r);
        free(imp);
        return ACL_SUCCESS;
    }
    if (exp) {
        key_free(exp); /* importers keep their mappings; the allocation stays */
        return ACL_SUCCESS;
    }
    if (attr)
        return ACL_SUCCESS;
    return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "key '%s' is neither imported nor exported by this process",
                     oacl_ipc_key_show(key, shown));
}

/* ---- attributes and the process id ----------------------------------------------------- */

OACL_API aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr)
{
    const char *fn = __func__;
    if (!key)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "key is NULL");
    if ((uint32_t)type >= 1)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "type %d is not ACL_RT_IPC_MEM_ATTR_ACCESS_LINK", (int)type);
    if (attr >= 4)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "attr %llu is not an ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_* value",
                         (unsigned long long)attr);
    aclError rc = oacl_ctx_require(fn);
    if (rc)
        return rc;
    if (oacl_ipc_family() != OACL_FAM_A3)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn, oacl_soc_name());
    if (attr >= ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH)
        return oacl_fail(ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, fn,
                         "attr %llu is a UB link of the 950 family; %s has SIO (0) and HCCS (1)",
                         (unsigned long long)attr, oacl_soc_name());
    char text[OACL_KEY_BUF_MIN], shown[72];
    copy_key(text, key);
    if (!text[0])
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "key '%s' is longer than 64 characters",
                         oacl_ipc_key_show(key, shown));
    pthread_mutex_lock(&g_lock);
    struct mem_attr *a = g_attrs;
    while (a && strcmp(a->key, text) != 0)
        a = a->next;
    if (!a && (a = calloc(1, sizeof(*a))) != NULL) {
        memcpy(a->key, text, sizeof(text));
        a->next = g_attrs;
        g_attrs = a;
    }
    if (a)
        a->attr = attr; /* the link choice: no effect on a CPU */
    pthread_mutex_unlock(&g_lock);
    return a ? ACL_SUCCESS : oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
}

OACL_API aclError aclrtDeviceGetBareTgid(int32_t *pid)
{
    if (!pid)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "pid is NULL");
    *pid = (int32_t)getpid();
    return ACL_SUCCESS;
}
