/*
 * Kernel argument lists: aclrtKernelArgsInit / Append / Finalize and
 * friends, and lists in caller memory (aclrtKernelArgsInitByUserMem,
 * device-kernel chapter 4.8).
 *
 * As in CANN the runtime-managed list is per thread and reused: every Init
 * on a thread starts the same list afresh. Each Init hands out a new handle
 * (and new parameter handles), so handles of the previous use are stale and
 * are rejected instead of silently addressing the new contents.
 *
 * A user list lives in memory the caller owns: the header and parameter
 * records in the handle memory (whose address is the list handle), the
 * argument bytes in the caller's buffer. A tag in the header marks live
 * lists; parameter handles carry the low bits of the list's init
 * generation, so re-initialising the memory invalidates them. The list
 * holds no reference on its kernel (it has no destroy function): every use
 * checks that the kernel's handle is still live.
 *
 * Layout of the blob: parameter i starts at the next multiple of 8 (CPU
 * kernels: right) after parameter i-1 ends (no hidden parameters); a
 * placeholder is an 8-byte slot. Placeholder data areas follow the
 * parameters, each at the next multiple of 8, in the order they are
 * reserved; at launch each slot is pointed at its area inside the launch's
 * copy of the blob.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

#define OACL_USER_ARGS_TAG 0x534752414C43414FULL  /* "OACLARGS" */
#define OACL_USER_PARAM_TAG 0x4D5241504C43414FULL /* "OACLPARM" */
#define USER_ADDR_BITS 48

static __thread struct oacl_args *tls_args;
static pthread_key_t g_args_key;
static pthread_once_t g_args_once = PTHREAD_ONCE_INIT;
static uint32_t g_user_generation; /* atomic */

/* Retires the list's handles and drops its function. */
static void args_reset(struct oacl_args *a)
{
    if (a->obj.handle)
        oacl_obj_retire(&a->obj);
    for (uint32_t i = 0; i < a->num_params; i++)
        if (a->params[i].obj.handle)
            oacl_obj_retire(&a->params[i].obj);
    if (a->func && !a->user)
        oacl_obj_put(&a->func->obj);
    a->func = NULL;
    a->func_handle = NULL;
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

/* Parameter alignment of lists for f (CPU kernels pack without gaps). */
static uint32_t param_align(const struct oacl_function *f) { return f->cpu ? 1u : 8u; }

/* The thread's runtime list: header, records and buffer in one block. */
static struct oacl_args *thread_list(void)
{
    struct oacl_args *a = tls_args;
    if (a)
        return a;
    pthread_once(&g_args_once, args_key_init);
    size_t head = (sizeof(*a) + 63) & ~(size_t)63;
    size_t recs = OACL_ARGS_MAX_PARAMS * (sizeof(struct oacl_param) + sizeof(struct oacl_arg_patch));
    size_t bufoff = (head + recs + 63) & ~(size_t)63;
    unsigned char *mem = aligned_alloc(64, bufoff + OACL_ARGS_BUFFER_SIZE);
    if (!mem)
        return NULL;
    memset(mem, 0, bufoff);
    a = (struct oacl_args *)mem;
    a->params = (struct oacl_param *)(mem + head);
    a->patches = (struct oacl_arg_patch *)(a->params + OACL_ARGS_MAX_PARAMS);
    a->buf = mem + bufoff;
    a->capacity = OACL_ARGS_BUFFER_SIZE;
    a->max_params = OACL_ARGS_MAX_PARAMS;
    pthread_setspecific(g_args_key, a);
    tls_args = a;
    return a;
}

OACL_API aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle)
{
    OACL_PROF_API(NULL);
    if (!funcHandle || !argsHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", funcHandle ? "argsHandle" : "funcHandle");
    struct oacl_function *f = (struct oacl_function *)oacl_handle_get(funcHandle, OACL_H_FUNC);
    if (!f)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__,
                         "funcHandle %p is not a live kernel function (was its binary unloaded?)", funcHandle);
    struct oacl_args *a = thread_list();
    if (!a) {
        oacl_obj_put(&f->obj);
        return oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "out of memory for the argument list");
    }
    args_reset(a);
    if (!oacl_handle_create(&a->obj, OACL_H_ARGS, NULL)) {
        oacl_obj_put(&f->obj);
        return oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "handle table exhausted");
    }
    a->func = f; /* keeps the reference taken above */
    a->func_handle = funcHandle;
    a->align = param_align(f);
    *argsHandle = a->obj.handle;
    return ACL_SUCCESS;
}

/* ---- user lists ------------------------------------------------------------------------ */

/* Records a user list for f needs (CPU kernels: the list maximum). */
static uint32_t user_max_params(const struct oacl_function *f)
{
    return f->cpu ? OACL_ARGS_MAX_PARAMS : f->info->num_params;
}

size_t oacl_args_user_header_size(const struct oacl_function *f)
{
    return sizeof(struct oacl_args) +
           (size_t)user_max_params(f) * (sizeof(struct oacl_param) + sizeof(struct oacl_arg_patch));
}

/* A user list at address h, or NULL. Only canonical, aligned user-space
 * addresses are read (table handles carry a tag above them). */
static struct oacl_args *user_list(const void *h)
{
    uintptr_t v = (uintptr_t)h;
    if (!v || (v >> USER_ADDR_BITS) || v % 8)
        return NULL;
    struct oacl_args *a = (struct oacl_args *)v;
    return a->tag == OACL_USER_ARGS_TAG && a->user ? a : NULL;
}

OACL_API aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                               void *userHostMem, size_t actualArgsSize)
{
    if (!funcHandle || !argsHandle || !userHostMem)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !funcHandle ? "funcHandle" : !argsHandle ? "argsHandle" : "userHostMem");
    if (actualArgsSize == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "actualArgsSize is 0");
    struct oacl_function *f = (struct oacl_function *)oacl_handle_get(funcHandle, OACL_H_FUNC);
    if (!f)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__,
                         "funcHandle %p is not a live kernel function (was its binary unloaded?)", funcHandle);
    aclError rc = ACL_SUCCESS;
    if ((uintptr_t)argsHandle % 8 != 0 || ((uintptr_t)argsHandle >> USER_ADDR_BITS))
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "argsHandle %p is not 8-byte aligned memory from aclrtKernelArgsGetHandleMemSize", argsHandle);
    else if (actualArgsSize > UINT32_MAX)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "actualArgsSize %zu is too large", actualArgsSize);
    if (rc) {
        oacl_obj_put(&f->obj);
        return rc;
    }
    struct oacl_args *a = argsHandle;
    uint32_t n = user_max_params(f);
    memset(a, 0, oacl_args_user_header_size(f)); /* a list it held is gone, with its parameter handles */
    a->user = true;
    a->generation = __atomic_add_fetch(&g_user_generation, 1, __ATOMIC_RELAXED);
    a->func = f; /* identity only: no reference (see the file comment) */
    a->func_handle = funcHandle;
    a->align = param_align(f);
    a->max_params = n;
    a->capacity = (uint32_t)actualArgsSize;
    a->buf = userHostMem;
    a->params = (struct oacl_param *)(a + 1);
    a->patches = (struct oacl_arg_patch *)(a->params + n);
    a->tag = OACL_USER_ARGS_TAG;
    oacl_obj_put(&f->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize)
{
    if (!funcHandle || !memSize)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", funcHandle ? "memSize" : "funcHandle");
    struct oacl_function *f = (struct oacl_function *)oacl_handle_get(funcHandle, OACL_H_FUNC);
    if (!f)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "funcHandle %p is not a live kernel function",
                         funcHandle);
    *memSize = oacl_args_user_header_size(f);
    oacl_obj_put(&f->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize, size_t *actualArgsSize)
{
    if (!funcHandle || !actualArgsSize)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         funcHandle ? "actualArgsSize" : "funcHandle");
    struct oacl_function *f = (struct oacl_function *)oacl_handle_get(funcHandle, OACL_H_FUNC);
    if (!f)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "funcHandle %p is not a live kernel function",
                         funcHandle);
    /* CANN's formula: room for eight 8-byte hidden parameters and 8 bytes of
       padding per declared parameter (7 C4); CPU kernels: as given. */
    size_t extra = f->cpu ? 0 : 64 + 8 * (size_t)f->info->num_params;
    oacl_obj_put(&f->obj);
    if (userArgsSize > SIZE_MAX - extra)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "userArgsSize %zu is too large", userArgsSize);
    *actualArgsSize = userArgsSize + extra;
    return ACL_SUCCESS;
}

/* ---- lookups ------------------------------------------------------------------------------ */

aclError oacl_args_lookup(aclrtArgsHandle h, struct oacl_args **out, const char *fn)
{
    struct oacl_obj *o = oacl_handle_get(h, OACL_H_ARGS);
    if (o) {
        oacl_obj_put(o); /* runtime lists are not refcounted: they live with their thread */
        *out = (struct oacl_args *)o;
        return ACL_SUCCESS;
    }
    struct oacl_args *a = user_list(h);
    if (!a)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn,
                         "argsHandle %p is stale (the thread's list was re-initialised) or holds no argument list", h);
    struct oacl_obj *fo = oacl_handle_get(a->func_handle, OACL_H_FUNC);
    if (fo)
        oacl_obj_put(fo);
    if ((struct oacl_function *)fo != a->func)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn,
                         "the kernel of argument list %p is no longer loaded (its binary was unloaded)", h);
    *out = a;
    return ACL_SUCCESS;
}

/* The parameter behind h, which must belong to list a. */
static aclError param_lookup(struct oacl_args *a, aclrtParamHandle h, uint32_t *index, const char *fn)
{
    struct oacl_obj *o = oacl_handle_get(h, OACL_H_PARAM);
    struct oacl_param *p = NULL;
    if (o) {
        oacl_obj_put(o); /* parameters live in their list */
        p = (struct oacl_param *)o;
    } else {
        /* A user list's parameter: its record's address, with the low bits
           of the list's generation above the address bits. */
        uintptr_t v = (uintptr_t)h;
        uintptr_t addr = v & (((uintptr_t)1 << USER_ADDR_BITS) - 1);
        uint32_t gen = (uint32_t)(v >> USER_ADDR_BITS);
        struct oacl_param *q = (struct oacl_param *)addr;
        if (addr && gen < 256 && addr % 8 == 0 && q->tag == OACL_USER_PARAM_TAG && q->list &&
            (q->list->generation & 0xffu) == gen && q->index < q->list->num_params && &q->list->params[q->index] == q)
            p = q;
    }
    if (!p)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "paramHandle %p is stale or invalid", h);
    if (p->list != a)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "paramHandle %p belongs to another argument list", h);
    *index = p->index;
    return ACL_SUCCESS;
}

/* Appends a parameter (value NULL: a zeroed placeholder slot). */
static aclError append(aclrtArgsHandle argsHandle, const void *value, size_t size, aclrtParamHandle *paramHandle,
                       const char *fn)
{
    struct oacl_args *a = NULL;
    aclError rc = oacl_args_lookup(argsHandle, &a, fn);
    if (rc)
        return rc;
    if (a->finalized)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "the argument list is already finalized");
    if (a->data_started)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                         "a placeholder buffer was already reserved: parameters must all come before");
    if (a->num_params >= a->max_params)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the argument list already holds %u parameters%s",
                         a->max_params, a->user ? " (the kernel's parameter count)" : "");
    size_t al = a->align;
    size_t off = ((size_t)a->size + al - 1) & ~(al - 1);
    if (size > a->capacity || off + size > a->capacity)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "a %zu-byte parameter at offset %zu overflows the %u-byte argument buffer", size, off,
                         a->capacity);
    uint32_t i = a->num_params;
    struct oacl_param *p = &a->params[i];
    memset(p, 0, sizeof(*p));
    p->list = a;
    p->index = i;
    void *handle;
    if (a->user) {
        p->tag = OACL_USER_PARAM_TAG;
        handle = (void *)((uintptr_t)p | ((uintptr_t)(a->generation & 0xffu) << USER_ADDR_BITS));
    } else if (!(handle = oacl_handle_create(&p->obj, OACL_H_PARAM, NULL))) {
        return oacl_fail(ACL_ERROR_BAD_ALLOC, fn, "handle table exhausted");
    }
    memset(a->buf + a->size, 0, off - a->size); /* padding is zero, not stale bytes */
    if (value)
        memcpy(a->buf + off, value, size);
    else
        memset(a->buf + off, 0, size);
    p->offset = (uint32_t)off;
    p->size = (uint32_t)size;
    p->is_placeholder = value == NULL;
    a->num_placeholders += value == NULL;
    a->size = (uint32_t)(off + size);
    a->num_params = i + 1;
    *paramHandle = handle;
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
    struct oacl_args *a = NULL;
    uint32_t i = 0;
    aclError rc = oacl_args_lookup(argsHandle, &a, __func__);
    if (rc == ACL_SUCCESS)
        rc = param_lookup(a, paramHandle, &i, __func__);
    if (rc)
        return rc;
    struct oacl_param *p = &a->params[i];
    if (a->finalized)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "the argument list is already finalized");
    if (!p->is_placeholder)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "parameter %u was added with aclrtKernelArgsAppend, not as a placeholder", i);
    if (p->has_data)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "placeholder parameter %u already has its buffer", i);
    size_t off = ((size_t)a->size + 7) & ~(size_t)7;
    if (dataSize > a->capacity || off + dataSize > a->capacity)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "%zu bytes of placeholder data at offset %zu overflow the %u-byte argument buffer", dataSize,
                         off, a->capacity);
    memset(a->buf + a->size, 0, off + dataSize - a->size); /* padding and fresh data start zeroed */
    a->patches[a->num_patches++] = (struct oacl_arg_patch){p->offset, (uint32_t)off};
    p->has_data = true;
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
    struct oacl_args *a = NULL;
    uint32_t i = 0;
    aclError rc = oacl_args_lookup(argsHandle, &a, __func__);
    if (rc == ACL_SUCCESS)
        rc = param_lookup(a, paramHandle, &i, __func__);
    if (rc)
        return rc;
    struct oacl_param *p = &a->params[i];
    if (p->is_placeholder)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "parameter %u is a placeholder (fill its buffer instead)", i);
    if (paramSize != p->size)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "parameter %u is %u bytes, not %zu", i, p->size,
                         paramSize);
    memcpy(a->buf + p->offset, param, paramSize);
    a->updating = true;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)
{
    OACL_PROF_API(NULL);
    if (!argsHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "argsHandle is NULL");
    struct oacl_args *a = NULL;
    aclError rc = oacl_args_lookup(argsHandle, &a, __func__);
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
    if (f->cpu)
        return ACL_SUCCESS; /* CPU kernels declare no parameters to check against */
    if (a->num_params != k->num_params)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "kernel '%s' takes %u parameter%s; the argument list has %u",
                         k->name, k->num_params, k->num_params == 1 ? "" : "s", a->num_params);
    for (uint32_t i = 0; i < k->num_params; i++)
        if (a->params[i].size != k->param_sizes[i])
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                             "kernel '%s' parameter %u is %u bytes; the argument list has %u bytes there", k->name,
                             i, k->param_sizes[i], a->params[i].size);
    return ACL_SUCCESS;
}
