/*
 * CANN's exception surface (reliability chapter 3.2, Decisions 3-5):
 * aclrtExceptionInfoCallbackRegister/Unregister, the deprecated
 * aclrtSetExceptionInfoCallback slot, aclrtBinarySetExceptionCallback, the
 * aclrt*FromExceptionInfo getters and aclrtGetThreadLastTaskId.
 *
 * The backend reports each failed task (oacl_runtime_task_failed) on the
 * thread that completes it, before the completion is visible; the
 * callbacks run there with the task's context current: process-wide ones
 * in registration order, then the deprecated slot, then the binary's.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/addr_registry.h"
#include "runtime/runtime.h"

#define NO_ID 0xFFFFFFFFu
#define EXPAND_INVALID 0u
#define EXPAND_AICORE 2u

/* oacl's layout: the first 20 bytes as CANN's (spec 2.1). */
struct rtExceptionInfo {
    uint32_t taskid;
    uint32_t streamid;
    uint32_t tid;
    uint32_t deviceid;
    uint32_t retcode;
    uint32_t expand_type;   /* EXPAND_AICORE for kernel launches */
    const void *args;
    uint32_t args_size;
    void *func;             /* function handle (NULL: a <<<>>> launch) */
};

struct bin_cb {
    void *bin;              /* binary handle */
    aclrtOpExceptionCallback cb;
    void *user;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static aclrtExceptionInfoCallback *g_cbs; /* registration order */
static size_t g_ncbs, g_cap;
static aclrtExceptionInfoCallback g_slot; /* aclrtSetExceptionInfoCallback */
static struct bin_cb *g_bins;
static size_t g_nbins, g_bins_cap;

OACL_API aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback)
{
    if (!callback)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "callback is NULL");
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(&g_lock);
    bool known = false;
    for (size_t i = 0; i < g_ncbs && !known; i++)
        known = g_cbs[i] == callback;
    if (!known) {
        if (g_ncbs == g_cap) {
            size_t cap = g_cap ? g_cap * 2 : 8;
            aclrtExceptionInfoCallback *n = realloc(g_cbs, cap * sizeof(*n));
            if (n) {
                g_cbs = n;
                g_cap = cap;
            }
        }
        if (g_ncbs < g_cap)
            g_cbs[g_ncbs++] = callback;
        else
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    pthread_mutex_unlock(&g_lock);
    return rc ? oacl_fail(rc, __func__, "out of memory") : ACL_SUCCESS;
}

OACL_API aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback)
{
    if (!callback)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "callback is NULL");
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_ncbs; i++) {
        if (g_cbs[i] == callback) {
            memmove(&g_cbs[i], &g_cbs[i + 1], (g_ncbs - i - 1) * sizeof(*g_cbs));
            g_ncbs--;
            break;
        }
    }
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback)
{
    pthread_mutex_lock(&g_lock);
    g_slot = callback;
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle, aclrtOpExceptionCallback callback,
                                                  void *userData)
{
    if (!binHandle || !callback)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", binHandle ? "callback" : "binHandle");
    struct oacl_obj *b = oacl_handle_get(binHandle, OACL_H_BINARY);
    if (!b)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "binHandle %p is not a loaded binary", binHandle);
    oacl_obj_put(b);
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(&g_lock);
    /* Entries of unloaded binaries go first: they can never match again. */
    size_t keep = 0;
    for (size_t i = 0; i < g_nbins; i++) {
        struct oacl_obj *o = g_bins[i].bin == binHandle ? NULL : oacl_handle_get(g_bins[i].bin, OACL_H_BINARY);
        if (o) {
            oacl_obj_put(o);
            g_bins[keep++] = g_bins[i];
        }
    }
    g_nbins = keep;
    if (g_nbins == g_bins_cap) {
        size_t cap = g_bins_cap ? g_bins_cap * 2 : 8;
        struct bin_cb *n = realloc(g_bins, cap * sizeof(*n));
        if (n) {
            g_bins = n;
            g_bins_cap = cap;
        }
    }
    if (g_nbins < g_bins_cap)
        g_bins[g_nbins++] = (struct bin_cb){.bin = binHandle, .cb = callback, .user = userData};
    else
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    pthread_mutex_unlock(&g_lock);
    return rc ? oacl_fail(rc, __func__, "out of memory") : ACL_SUCCESS;
}

void oacl_runtime_task_failed(const struct oacl_task_failure *f)
{
    if (f->code >= 207000 && f->code < 208000)
        return; /* overflow completions are not exceptions (spec 2.8) */
    struct oacl_context *ctx = f->kernel ? f->fault_user : NULL;
    struct rtExceptionInfo info = {
        .taskid = f->task_id,
        .streamid = (uint32_t)f->stream_id,
        .tid = f->tid,
        .deviceid = ctx ? (uint32_t)ctx->dev->id : f->device_index,
        .retcode = (uint32_t)f->code,
        .expand_type = f->kernel ? EXPAND_AICORE : EXPAND_INVALID,
        .args = f->kernel ? f->args : NULL,
        .args_size = f->kernel ? (uint32_t)f->args_size : 0,
        .func = f->kernel ? f->fault_func : NULL,
    };
    /* Copies, so that callbacks may register and unregister. */
    pthread_mutex_lock(&g_lock);
    size_t n = g_ncbs;
    aclrtExceptionInfoCallback small[16];
    aclrtExceptionInfoCallback *cbs = n <= 16 ? small : malloc(n * sizeof(*cbs));
    if (!cbs)
        n = 0;
    else if (n)
        memcpy(cbs, g_cbs, n * sizeof(*cbs));
    aclrtExceptionInfoCallback slot = g_slot;
    pthread_mutex_unlock(&g_lock);
    struct bin_cb bin = {0};
    if (info.func) {
        struct oacl_function *fn = (struct oacl_function *)oacl_handle_get(info.func, OACL_H_FUNC);
        if (fn) {
            void *bh = fn->bin->obj.handle;
            pthread_mutex_lock(&g_lock);
            for (size_t i = 0; i < g_nbins; i++)
                if (g_bins[i].bin == bh)
                    bin = g_bins[i];
            pthread_mutex_unlock(&g_lock);
            oacl_obj_put(&fn->obj);
        }
    }
    if (!n && !slot && !bin.cb) {
        if (cbs != small)
            free(cbs);
        return;
    }
    /* The argument block is device memory for the callbacks' aclrtMemcpy:
       a launch's own copy is registered for their duration (a blob the
       caller passed in device memory is registered already). */
    struct oacl_mem_record args_rec = {0};
    bool args_registered = false;
    if (info.args && info.args_size) {
        args_rec.base = (uintptr_t)info.args;
        args_rec.size = args_rec.user_size = info.args_size;
        args_rec.kind = OACL_MEM_DEVICE;
        args_rec.device = (int32_t)info.deviceid;
        args_rec.origin = OACL_MEM_ORIGIN_RUNTIME;
        oacl_registry_wrlock();
        if (!oacl_registry_overlap_locked(OACL_SPACE_ALLOC, args_rec.base, args_rec.size))
            args_registered = oacl_registry_insert_locked(OACL_SPACE_ALLOC, &args_rec) == 0;
        oacl_registry_unlock();
    }
    /* The failing task's context is current during the callbacks. */
    struct oacl_context *old = oacl_ctx_peek();
    if (old)
        oacl_obj_ref(&old->obj); /* binding ctx drops the thread's reference to old */
    if (ctx && !__atomic_load_n(&ctx->dead, __ATOMIC_ACQUIRE))
        oacl_ctx_bind(ctx);
    for (size_t i = 0; i < n; i++)
        cbs[i](&info);
    if (slot)
        slot(&info);
    if (bin.cb)
        bin.cb(&info, bin.user);
    oacl_ctx_bind(old);
    if (old)
        oacl_obj_put(&old->obj);
    if (args_registered) {
        oacl_registry_wrlock();
        oacl_registry_remove_locked(OACL_SPACE_ALLOC, args_rec.base);
        oacl_registry_unlock();
    }
    if (cbs != small)
        free(cbs);
}

OACL_API uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info) { return info ? info->taskid : NO_ID; }
OACL_API uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    return info ? info->streamid : NO_ID;
}
OACL_API uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info) { return info ? info->tid : NO_ID; }
OACL_API uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    return info ? info->deviceid : NO_ID;
}
OACL_API uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info)
{
    return info ? info->retcode : NO_ID;
}

OACL_API aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr,
                                                uint32_t *devArgsLen)
{
    if (!info)
        return (aclError)NO_ID;
    if (!devArgsPtr || !devArgsLen)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", devArgsPtr ? "devArgsLen" : "devArgsPtr");
    if (info->expand_type != EXPAND_AICORE)
        return (aclError)NO_ID; /* not a kernel task (CANN's value) */
    *devArgsPtr = (void *)(uintptr_t)info->args;
    *devArgsLen = info->args_size;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info, aclrtFuncHandle *func)
{
    if (!info)
        return (aclError)NO_ID;
    if (!func)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "func is NULL");
    if (info->expand_type != EXPAND_AICORE)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "the failed task is not a kernel launch");
    struct oacl_obj *o = info->func ? oacl_handle_get(info->func, OACL_H_FUNC) : NULL;
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__,
                         info->func ? "the kernel's binary has been unloaded since"
                                    : "the kernel was launched with <<<>>>: it has no function handle");
    oacl_obj_put(o);
    *func = info->func;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetThreadLastTaskId(uint32_t *taskId)
{
    if (!taskId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "taskId is NULL");
    const struct oacl_backend_ops *b = oacl_backend();
    *taskId = b && b->thread_last_task ? b->thread_last_task() : NO_ID;
    return ACL_SUCCESS;
}
