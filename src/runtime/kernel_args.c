/*
 * Kernel argument lists: aclrtKernelArgsInit / Append / Finalize.
 *
 * As in CANN the runtime-managed list is per thread and reused: every Init
 * on a thread starts the same list afresh. Each Init hands out a new handle
 * (and new parameter handles), so handles of the previous use are stale and
 * are rejected instead of silently addressing the new contents.
 *
 * Layout of the blob: parameter i starts at the next multiple of 8 after
 * parameter i-1 ends (no hidden parameters); a placeholder is an 8-byte
 * slot. Placeholder data areas follow the parameters, each at the next
 * multiple of 8, in the order they are reserved; at launch each slot is
 * pointed at its area inside the launch's copy of the blob.
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
    a->updating = false;
    a->data_started = false;
    a->num_placeholders = 0;
    a->num_patches = 0;
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
    OACL_PROF_API(NULL);
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

static aclError args_lookup(aclrtArgsHandle h, struct oacl_args **out, const char *fn)
{
    *out = args_get(h);
    if (!*out)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn,
                         "argsHandle %p is stale (the thread's list was re-initialised) or invalid", h);
    return ACL_SUCCESS;
}

/* The parameter behind h, which must belong to list a. */
static aclError param_lookup(struct oacl_args *a, aclrtParamHandle h, uint32_t *index, const char *fn)
{
    struct oacl_obj *o = oacl_handle_get(h, OACL_H_PARAM);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "paramHandle %p is stale or invalid", h);
    oacl_obj_put(o); /* parameters live in their list */
    struct oacl_param *p = (struct oacl_param *)o;
    if (p->list != a)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "paramHandle %p belongs to another argument list", h);
    *index = p->index;
    return ACL_SUCCESS;
}

/* Appends a parameter (value NULL: a zeroed placeholder slot). */
static aclError append(aclrtArgsHandle argsHandle, const void *value, size_t size, aclrtParamHandle *paramHandle,
                       const char *fn)
{
    struct oacl_args *a;
    aclError rc = args_lookup(argsHandle, &a, fn);
    if (rc)
        return rc;
    if (a->finalized)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "the argument list is already finalized");
    if (a->data_started)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "a placeholder buffer was already reserved: parameters must all come before");
    if (a->num_params >= OACL_ARGS_MAX_PARAMS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the argument list already holds %u parameters",
                         OACL_ARGS_MAX_PARAMS);
    size_t off = ((size_t)a->size + 7) & ~(size_t)7;
    if (size > OACL_ARGS_BUFFER_SIZE || off + size > OACL_ARGS_BUFFER_SIZE)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "a %zu-byte parameter at offset %zu overflows the %u-byte argument buffer", size, off,
                         OACL_ARGS_BUFFER_SIZE);
    uint32_t i = a->num_params;
    struct oacl_param *p = &a->params[i];
    p->list = a;
    p->index = i;
    if (!oacl_handle_create(&p->obj, OACL_H_PARAM, NULL))
        return oacl_fail(ACL_ERROR_BAD_ALLOC, fn, "handle table exhausted");
    memset(a->buf + a->size, 0, off - a->size); /* padding is zero, not stale bytes */
    if (value)
        memcpy(a->buf + off, value, size);
    else
        memset(a->buf + off, 0, size);
    a->offsets[i] = (uint32_t)off;
    a->sizes[i] = (uint32_t)size;
    a->is_placeholder[i] = value == NULL;
    a->has_data[i] = false;
    a->num_placeholders += value == NULL;
    a->size = (uint32_t)(off + size);
    a->num_params = i + 1;
    *paramHandle = p->obj.handle;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                        aclrtParamHandle *paramHandle)
{
    OACL_PROF_API(NULL);
    if (!argsHandle || !param || !paramHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !argsHandle ? "argsHandle" : !param ? "param" : "paramHandle");
    if (paramSize == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "paramSize is 0");
    return append(argsHandle, param, paramSize, paramHandle, __func__);
}

OACL_API aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle)
{
    if (!argsHandle || !paramHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", !argsHandle ? "argsHandle" : "paramHandle");
    return append(argsHandle, NULL, sizeof(uint64_t), paramHandle, __func__);
}

OACL_API aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                      size_t dataSize, void **bufferAddr)
{
    if (!argsHandle || !paramHandle || !bufferAddr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !argsHandle ? "argsHandle" : !paramHandle ? "paramHandle" : "bufferAddr");
    if (dataSize == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "dataSize is 0");
    struct oacl_args *a;
    uint32_t i = 0;
    aclError rc = args_lookup(argsHandle, &a, __func__);
    if (rc == ACL_SUCCESS)
        rc = param_lookup(a, paramHandle, &i, __func__);
    if (rc)
        return rc;
    if (a->finalized)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "the argument list is already finalized");
    if (!a->is_placeholder[i])
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "parameter %u was added with aclrtKernelArgsAppend, not as a placeholder", i);
    if (a->has_data[i])
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "placeholder parameter %u already has its buffer", i);
    size_t off = ((size_t)a->size + 7) & ~(size_t)7;
    if (dataSize > OACL_ARGS_BUFFER_SIZE || off + dataSize > OACL_ARGS_BUFFER_SIZE)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "%zu bytes of placeholder data at offset %zu overflow the %u-byte argument buffer", dataSize,
                         off, OACL_ARGS_BUFFER_SIZE);
    memset(a->buf + a->size, 0, off + dataSize - a->size); /* padding and fresh data start zeroed */
    a->patches[a->num_patches++] = (struct oacl_arg_patch){a->offsets[i], (uint32_t)off};
    a->has_data[i] = true;
    a->data_started = true;
    a->size = (uint32_t)(off + dataSize);
    *bufferAddr = a->buf + off;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void *param,
                                            size_t paramSize)
{
    if (!argsHandle || !paramHandle || !param)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !argsHandle ? "argsHandle" : !paramHandle ? "paramHandle" : "param");
    if (paramSize == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "paramSize is 0");
    struct oacl_args *a;
    uint32_t i = 0;
    aclError rc = args_lookup(argsHandle, &a, __func__);
    if (rc == ACL_SUCCESS)
        rc = param_lookup(a, paramHandle, &i, __func__);
    if (rc)
        return rc;
    if (a->is_placeholder[i])
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "parameter %u is a placeholder (fill its buffer instead)", i);
    if (paramSize != a->sizes[i])
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "parameter %u is %u bytes, not %zu", i, a->sizes[i],
                         paramSize);
    memcpy(a->buf + a->offsets[i], param, paramSize);
    a->updating = true;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)
{
    OACL_PROF_API(NULL);
    if (!argsHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "argsHandle is NULL");
    struct oacl_args *a;
    aclError rc = args_lookup(argsHandle, &a, __func__);
    if (rc)
        return rc;
    a->finalized = true;
    a->updating = false;
    return ACL_SUCCESS;
}

aclError oacl_args_check(const struct oacl_args *a, const struct oacl_function *f, const char *fn)
{
    const struct oacl_kernel_info *k = f->info;
    if (!a->finalized)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the argument list is not finalized");
    if (a->updating)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "the argument list was updated since it was finalized; finalize it again");
    if (a->num_patches != a->num_placeholders)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%u of the list's %u placeholders have no buffer",
                         a->num_placeholders - a->num_patches, a->num_placeholders);
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
