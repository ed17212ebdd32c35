/*
 * Kernel argument lists: aclrtKernelArgsInit / Append / Finalize.
 *
 * As in CANN the runtime-managed list is per thread and reused: every Init
 * on a thread starts the same list afresh. Each Init hands out a new handle
 * (and new parameter handles), so handles of the previous use are stale and
 * are rejected instead of silently addressing the new contents.
 *
 * Layout of the blob: parameter i starts at the next multiple of 8 after
 * parameter i-1 ends (no hidden parameters).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

static __thread struct oacl_args *tls_args;
static pthread_key_t g_args_key;
static pthread_once_t g_args_once = PTHREAD_ONCE_INIT;

/* Retires the list's handles and drops its function. */
static void args_reset(struct oacl_args *a)
{
    if (a->obj.handle)
        oacl_obj_retire(&a->obj);
    for (uint32_t i = 0; i < a->num_params; i++)
        if (a->params[i].obj.handle)
            oacl_obj_retire(&a->params[i].obj);
    if (a->func)
        oacl_obj_put(&a->func->obj);
    a->func = NULL;
    a->num_params = 0;
    a->size = 0;
    a->finalized = false;
}

static void args_thread_exit(void *p)
{
    struct oacl_args *a = p;
    args_reset(a);
    free(a);
}

static void args_key_init(void) { pthread_key_create(&g_args_key, args_thread_exit); }

OACL_API aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle)
{
    if (!funcHandle || !argsHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", funcHandle ? "argsHandle" : "funcHandle");
    struct oacl_function *f = (struct oacl_function *)oacl_handle_get(funcHandle, OACL_H_FUNC);
    if (!f)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__,
                         "funcHandle %p is not a live kernel function (was its binary unloaded?)", funcHandle);
    struct oacl_args *a = tls_args;
    if (!a) {
        pthread_once(&g_args_once, args_key_init);
        a = aligned_alloc(64, sizeof(*a));
        if (!a) {
            oacl_obj_put(&f->obj);
            return oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "out of memory for the argument list");
        }
        memset(a, 0, offsetof(struct oacl_args, buf));
        pthread_setspecific(g_args_key, a);
        tls_args = a;
    }
    args_reset(a);
    if (!oacl_handle_create(&a->obj, OACL_H_ARGS, NULL)) {
        oacl_obj_put(&f->obj);
        return oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "handle table exhausted");
    }
    a->func = f; /* keeps the reference taken above */
    *argsHandle = a->obj.handle;
    return ACL_SUCCESS;
}

static struct oacl_args *args_get(aclrtArgsHandle h)
{
    struct oacl_obj *o = oacl_handle_get(h, OACL_H_ARGS);
    if (o)
        oacl_obj_put(o); /* lists are not refcounted: they live with their thread */
    return (struct oacl_args *)o;
}

OACL_API aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                        aclrtParamHandle *paramHandle)
{
    if (!argsHandle || !param || !paramHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !argsHandle ? "argsHandle" : !param ? "param" : "paramHandle");
    if (paramSize == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "paramSize is 0");
    struct oacl_args *a = args_get(argsHandle);
    if (!a)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__,
                         "argsHandle %p is stale (the thread's list was re-initialised) or invalid", argsHandle);
    if (a->finalized)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "the argument list is already finalized");
    if (a->num_params >= OACL_ARGS_MAX_PARAMS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "the argument list already holds %u parameters",
                         OACL_ARGS_MAX_PARAMS);
    size_t off = ((size_t)a->size + 7) & ~(size_t)7;
    if (paramSize > OACL_ARGS_BUFFER_SIZE || off + paramSize > OACL_ARGS_BUFFER_SIZE)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "a %zu-byte parameter at offset %zu overflows the %u-byte argument buffer", paramSize, off,
                         OACL_ARGS_BUFFER_SIZE);
    uint32_t i = a->num_params;
    struct oacl_param *p = &a->params[i];
    p->list = a;
    p->index = i;
    if (!oacl_handle_create(&p->obj, OACL_H_PARAM, NULL))
        return oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "handle table exhausted");
    memset(a->buf + a->size, 0, off - a->size); /* padding is zero, not stale bytes */
    memcpy(a->buf + off, param, paramSize);
    a->offsets[i] = (uint32_t)off;
    a->sizes[i] = (uint32_t)paramSize;
    a->size = (uint32_t)(off + paramSize);
    a->num_params = i + 1;
    *paramHandle = p->obj.handle;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)
{
    if (!argsHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "argsHandle is NULL");
    struct oacl_args *a = args_get(argsHandle);
    if (!a)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__,
                         "argsHandle %p is stale (the thread's list was re-initialised) or invalid", argsHandle);
    a->finalized = true;
    return ACL_SUCCESS;
}

aclError oacl_args_check(const struct oacl_args *a, const struct oacl_function *f, const char *fn)
{
    const struct oacl_kernel_info *k = f->info;
    if (a->num_params != k->num_params)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "kernel '%s' takes %u parameter%s; the argument list has %u",
                         k->name, k->num_params, k->num_params == 1 ? "" : "s", a->num_params);
    for (uint32_t i = 0; i < k->num_params; i++)
        if (a->sizes[i] != k->param_sizes[i])
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "kernel '%s' parameter %u is %u bytes; the argument list has %u bytes there", k->name,
                             i, k->param_sizes[i], a->sizes[i]);
    return ACL_SUCCESS;
}
