/*
 * Shareable handles (spec acl-rt-ipc-vmm.md 4.5): physical memory of one
 * process imported by another.
 *
 * A shareable handle is a uint64_t: the exporter's pid in bits 63..42 and a
 * random non-zero 42-bit tag in bits 41..0 (the FABRIC form wraps it in 128
 * bytes). An importer asks the exporter's IPC service for the tag; the
 * service applies the whitelist to the kernel-reported pid and sends the
 * physical memory's file, which the importer keeps open in a new handle
 * (it may be mapped several times).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/vmm.h"

#define TAG_BITS 42
#define TAG_MASK ((1ull << TAG_BITS) - 1)
#define FABRIC_MAGIC "OACLFAB" /* and its NUL */
#define SHARE_PID_LIMIT 65535u /* D17 */

struct vmm_export {
    struct vmm_export *next;
    uint64_t value;
    struct oacl_phys *p;         /* not a reference: removed when its count reaches 0 */
    bool no_validation;
    struct oacl_pidset whitelist;
};

static struct vmm_export *g_exports; /* oacl_vmm_lock */

static struct vmm_export *find_locked(uint64_t value)
{
    for (struct vmm_export *x = g_exports; x; x = x->next)
        if (x->value == value)
            return x;
    return NULL;
}

void oacl_vmm_share_forget_locked(struct oacl_phys *p)
{
    for (struct vmm_export **l = &g_exports; *l; l = &(*l)->next) {
        if ((*l)->p == p) {
            struct vmm_export *x = *l;
            *l = x->next;
            oacl_pidset_free(&x->whitelist);
            free(x);
            return;
        }
    }
}

/* Imported handles of this process, to refuse a second import of one
 * shareable handle while the first is live. */
struct import_link {
    struct import_link *next;
    struct oacl_phys *p;  /* not a reference: unlinked when the handle is destroyed */
};
static struct import_link *g_imports; /* oacl_vmm_lock */

bool oacl_vmm_imported_locked(uint64_t value)
{
    for (struct import_link *il = g_imports; il; il = il->next)
        if (il->p->import_value == value && il->p->refs > 0)
            return true;
    return false;
}

void oacl_vmm_unlink_import_locked(struct oacl_phys *p)
{
    for (struct import_link **l = &g_imports; *l; l = &(*l)->next) {
        if ((*l)->p == p) {
            struct import_link *il = *l;
            *l = il->next;
            free(il);
            return;
        }
    }
}

/* ---- the forms of a handle ----------------------------------------------------------- */

static aclError check_type(aclrtMemSharedHandleType t, const char *fn)
{
    if (t != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT && t != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "shareType %d is not DEFAULT (1) or FABRIC (2)", (int)t);
    return ACL_SUCCESS;
}

static aclError check_fabric(aclrtMemSharedHandleType t, const char *fn)
{
    if (t == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC && oacl_ipc_family() != OACL_FAM_A3)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "ACL_MEM_SHARE_HANDLE_TYPE_FABRIC is not supported on %s: cross-host handles need an Atlas "
                         "A3 SuperPOD; this simulated device is a single host",
                         oacl_soc_name());
    return ACL_SUCCESS;
}

/* The uint64_t value inside either form (0 for a malformed FABRIC form). */
static uint64_t read_value(const void *h, aclrtMemSharedHandleType t)
{
    uint64_t v;
    memcpy(&v, h, sizeof(v));
    if (t == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
        const aclrtMemFabricHandle *f = h;
        static const uint8_t zero[112];
        if (memcmp(f->data + 8, FABRIC_MAGIC, 8) != 0 || memcmp(f->data + 16, zero, sizeof(zero)) != 0)
            return 0;
    }
    return v;
}

/* ---- export ---------------------------------------------------------------------------- */

static aclError export_handle(aclrtDrvMemHandle handle, uint64_t flags, uint64_t *value, const char *fn)
{
    if (flags > ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "flags 0x%llx is not ACL_RT_VMM_EXPORT_FLAG_DEFAULT or ..._DISABLE_PID_VALIDATION",
                         (unsigned long long)flags);
    struct oacl_phys *p = NULL;
    aclError rc = oacl_phys_get(handle, &p, fn);
    if (rc)
        return rc;
    struct vmm_export *x = NULL;
    if (p->imported)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p was imported; only allocated memory can be exported", handle);
    else if (__atomic_load_n(&p->share_value, __ATOMIC_ACQUIRE))
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p was exported already (one shareable handle per handle)",
                       handle);
    else if ((rc = oacl_ipc_start(fn)) == ACL_SUCCESS && !(x = calloc(1, sizeof(*x))))
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    if (rc == ACL_SUCCESS) {
        pthread_mutex_lock(&oacl_vmm_lock);
        if (p->share_value) {
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%p was exported already", handle);
        } else if (p->refs == 0) {
            rc = oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "%p is not a live physical-memory handle", handle);
        } else {
            uint64_t tag;
            do { /* random, non-zero, unique in this process */
                oacl_ipc_random(&tag, sizeof(tag));
                tag &= TAG_MASK;
            } while (tag == 0 || find_locked(((uint64_t)getpid() << TAG_BITS) | tag));
            x->value = ((uint64_t)getpid() << TAG_BITS) | tag;
            x->p = p;
            x->no_validation = flags == ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION;
            x->next = g_exports;
            g_exports = x;
            __atomic_store_n(&p->share_value, x->value, __ATOMIC_RELEASE);
            *value = x->value;
            x = NULL;
        }
        pthread_mutex_unlock(&oacl_vmm_lock);
    }
    free(x);
    oacl_obj_put(&p->obj);
    return rc;
}

OACL_API aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                                  uint64_t flags, uint64_t *shareableHandle)
{
    const char *fn = __func__;
    if (!handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "handle is NULL");
    if (handleType != ACL_MEM_HANDLE_TYPE_NONE)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "handleType %d is not ACL_MEM_HANDLE_TYPE_NONE", (int)handleType);
    if (!shareableHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "shareableHandle is NULL");
    uint64_t v = 0;
    aclError rc = export_handle(handle, flags, &v, fn);
    if (rc == ACL_SUCCESS)
        *shareableHandle = v;
    return rc;
}

OACL_API aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
                                                    aclrtMemSharedHandleType shareType, void *shareableHandle)
{
    const char *fn = __func__;
    if (!handle || !shareableHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", handle ? "shareableHandle" : "handle");
    aclError rc = check_type(shareType, fn);
    if (rc == ACL_SUCCESS && flags > ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                       "flags 0x%llx is not ACL_RT_VMM_EXPORT_FLAG_DEFAULT or ..._DISABLE_PID_VALIDATION",
                       (unsigned long long)flags);
    if (rc == ACL_SUCCESS)
        rc = check_fabric(shareType, fn);
    uint64_t v = 0;
    if (rc == ACL_SUCCESS)
        rc = export_handle(handle, flags, &v, fn);
    if (rc)
        return rc;
    if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
        aclrtMemFabricHandle f;
        memset(&f, 0, sizeof(f));
        memcpy(f.data, &v, sizeof(v));
        memcpy(f.data + 8, FABRIC_MAGIC, 8);
        memcpy(shareableHandle, &f, sizeof(f));
    } else {
        memcpy(shareableHandle, &v, sizeof(v));
    }
    return ACL_SUCCESS;
}

/* ---- whitelist ---------------------------------------------------------------------------- */

static aclError set_pids(uint64_t value, const int32_t *pid, size_t num, const char *fn)
{
    if ((pid_t)(value >> TAG_BITS) != getpid())
        return oacl_fail(ACL_ERROR_RT_NO_PERMISSION, fn,
                         "shareable handle 0x%llx belongs to pid %llu; only the exporting process may whitelist",
                         (unsigned long long)value, (unsigned long long)(value >> TAG_BITS));
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(&oacl_vmm_lock);
    struct vmm_export *x = value ? find_locked(value) : NULL;
    if (!x)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "0x%llx is not a live shareable handle of this process",
                       (unsigned long long)value);
    else if (x->no_validation)
        rc = oacl_fail(ACL_ERROR_RT_NO_PERMISSION, fn,
                       "0x%llx was exported with ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION: it has no whitelist",
                       (unsigned long long)value);
    else {
        rc = oacl_pidset_add(&x->whitelist, pid, num, SHARE_PID_LIMIT);
        if (rc == ACL_ERROR_RT_OVER_LIMIT)
            rc = oacl_fail(rc, fn, "the whitelist of 0x%llx would exceed %u pids", (unsigned long long)value,
                           SHARE_PID_LIMIT);
        else if (rc)
            rc = oacl_fail(rc, fn, "out of memory");
    }
    pthread_mutex_unlock(&oacl_vmm_lock);
    return rc;
}

OACL_API aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum)
{
    const char *fn = __func__;
    if (!pid)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "pid is NULL");
    if (pidNum == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "pidNum is 0");
    return set_pids(shareableHandle, pid, pidNum, fn);
}

OACL_API aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle, aclrtMemSharedHandleType shareType,
                                                    int32_t *pid, size_t pidNum)
{
    const char *fn = __func__;
    if (!shareableHandle || !pid)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", shareableHandle ? "pid" : "shareableHandle");
    if (pidNum == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "pidNum is 0");
    aclError rc = check_type(shareType, fn);
    if (rc == ACL_SUCCESS)
        rc = check_fabric(shareType, fn);
    if (rc == ACL_SUCCESS)
        rc = set_pids(read_value(shareableHandle, shareType), pid, pidNum, fn);
    return rc;
}

/* ---- the service side ------------------------------------------------------------------------ */

void oacl_vmm_serve(const struct oacl_ipc_request *req, pid_t peer, struct oacl_ipc_reply *rep, int *fd)
{
    uint64_t want = ((uint64_t)getpid() << TAG_BITS) | (req->id & TAG_MASK);
    pthread_mutex_lock(&oacl_vmm_lock);
    struct vmm_export *found = NULL;
    for (struct vmm_export *x = g_exports; x; x = x->next) /* every entry: no early exit on a match */
        if (oacl_ipc_secret_equal(&x->value, &want, sizeof(want)) && req->id <= TAG_MASK)
            found = x;
    if (!found) {
        oacl_ipc_reply_fail(rep, ACL_ERROR_RT_PARAM_INVALID,
                            "pid %d exports no such shareable handle (wrong, or its memory was freed)", (int)getpid());
    } else if (!found->no_validation && !oacl_pidset_has(&found->whitelist, peer)) {
        oacl_ipc_reply_fail(rep, ACL_ERROR_RT_NO_PERMISSION, "pid %d is not on the whitelist of shareable handle 0x%llx",
                            (int)peer, (unsigned long long)found->value);
    } else if ((*fd = fcntl(found->p->fd, F_DUPFD_CLOEXEC, 0)) < 0) {
        oacl_ipc_reply_fail(rep, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "cannot duplicate a descriptor");
    } else {
        struct oacl_phys *p = found->p;
        rep->status = 0;
        rep->size = p->size;
        rep->device = p->host ? -1 : p->device;
        rep->aux[0] = p->gran;
        rep->aux[1] = (uint64_t)p->prop.memAttr;
        rep->aux[2] = p->host ? 1 : 0;
    }
    pthread_mutex_unlock(&oacl_vmm_lock);
}

/* ---- import ------------------------------------------------------------------------------------ */

static aclError import_value(uint64_t value, int32_t device, aclrtDrvMemHandle *handle, const char *fn)
{
    pid_t pid = (pid_t)(value >> TAG_BITS);
    if (value == 0 || pid <= 0 || (value & TAG_MASK) == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "0x%llx is not a shareable handle", (unsigned long long)value);
    if (pid == getpid())
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "0x%llx was exported by this process; export and import in one process are not supported",
                         (unsigned long long)value);
    pthread_mutex_lock(&oacl_vmm_lock);
    bool dup = oacl_vmm_imported_locked(value);
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (dup)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "0x%llx is imported already in this process; free that handle first",
                         (unsigned long long)value);
    struct oacl_ipc_reply rep;
    int fd = -1;
    uint64_t tag = value & TAG_MASK;
    aclError rc = oacl_ipc_call(pid, OACL_IPC_KIND_VMM, tag, NULL, 0, &rep, &fd, fn);
    if (rc)
        return rc;
    bool host = rep.aux[2] != 0;
    size_t gran = (size_t)rep.aux[0];
    if (rep.size == 0 || gran == 0 || rep.size % gran) {
        close(fd);
        return oacl_fail(ACL_ERROR_RT_IPC_ERROR, fn, "pid %d described the memory inconsistently", (int)pid);
    }
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = (aclrtMemAttr)rep.aux[1];
    prop.location.type = host ? ACL_MEM_LOCATION_TYPE_HOST : ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = host ? 0 : (uint32_t)device;
    struct oacl_phys *p = NULL;
    rc = oacl_phys_create(fd, (size_t)rep.size, gran, &prop, host, host ? -1 : device, &p, fn);
    if (rc)
        return rc;
    struct import_link *il = calloc(1, sizeof(*il));
    pthread_mutex_lock(&oacl_vmm_lock);
    p->imported = true;
    p->import_value = value;
    p->exporter_device = rep.device;
    if (il) {
        il->p = p;
        il->next = g_imports;
        g_imports = il;
    }
    pthread_mutex_unlock(&oacl_vmm_lock);
    if (!host)
        oacl_ipc_peer_enable(device, rep.device); /* granted implicitly (3.8) */
    *handle = p->handle;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                    aclrtDrvMemHandle *handle)
{
    const char *fn = __func__;
    if (!handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "handle is NULL");
    struct oacl_device *d = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &d, fn);
    if (rc == ACL_SUCCESS)
        rc = oacl_ctx_require(fn);
    if (rc == ACL_SUCCESS)
        rc = import_value(shareableHandle, deviceId, handle, fn);
    return rc;
}

OACL_API aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle, aclrtMemSharedHandleType shareType,
                                                      uint64_t flags, aclrtDrvMemHandle *handle)
{
    const char *fn = __func__;
    if (!shareableHandle || !handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", shareableHandle ? "handle" : "shareableHandle");
    if (flags != 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "flags 0x%llx is reserved and must be 0", (unsigned long long)flags);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    int32_t dev = ctx->dev->id;
    oacl_obj_put(&ctx->obj);
    rc = check_type(shareType, fn);
    if (rc == ACL_SUCCESS)
        rc = check_fabric(shareType, fn);
    if (rc == ACL_SUCCESS)
        rc = import_value(read_value(shareableHandle, shareType), dev, handle, fn);
    return rc;
}
