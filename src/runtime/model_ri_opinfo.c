/*
 * aclrtCacheLastTaskOpInfo (and aclrtCacheLastTaskExtendInfo, whose string
 * aclmdlRIDebugJsonPrint shows) during capture (acl-rt-reliability.md §3.8,
 * acl-rt-model-ri.md aclmdlRITaskGetParams): the blob is copied onto the
 * task the calling thread recorded last, when that task went into a
 * capture still in progress on a stream with ACL_STREAM_ATTR_CACHE_OP_INFO
 * on (or whose capture's origin stream has it on); aclmdlRITaskGetParams
 * reports it. Everywhere else 507000, as CANN answers outside capture.
 *
 * Every enqueue names its stream through oacl_stream_resolve, which tells
 * this file about enqueues on capturing streams (the RI, its stream and
 * the task count before the call) and forgets the last one otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/model_ri.h"

_Thread_local void *oacl_tls_ri_last;   /* the RI handle of the thread's last enqueue, or NULL */
static _Thread_local struct oacl_ri_stream *tls_rs;
static _Thread_local uint32_t tls_before; /* tasks on tls_rs before that enqueue */

void oacl_ri_note_enqueue(struct oacl_stream *s)
{
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri_stream *rs = s->ri_capture ? s->ri_stream : NULL;
    oacl_tls_ri_last = rs ? rs->ri->handle : NULL;
    tls_rs = rs;
    tls_before = 0;
    if (rs)
        oacl_backend()->graph_stream_state(rs->gq, &tls_before);
    pthread_mutex_unlock(oacl_ri_lock());
}

/* Whether the stream or its capture's origin stream caches op info (g_lock held). */
static bool caching_locked(const struct oacl_ri_stream *rs)
{
    if (rs->user && __atomic_load_n(&rs->user->cache_op_info, __ATOMIC_ACQUIRE))
        return true;
    for (const struct oacl_ri_stream *o = rs->ri->streams; o; o = o->next)
        if (o->origin && o->user && __atomic_load_n(&o->user->cache_op_info, __ATOMIC_ACQUIRE))
            return true;
    return false;
}

/* Stores a copy of info as the op info (extend: the extend string) of task
 * `index` of rs (g_lock held). */
static aclError store_locked(struct oacl_ri_stream *rs, uint32_t index, const void *info, size_t size, bool extend,
                             const char *fn)
{
    if (index >= rs->nopinfo) {
        uint32_t cap = rs->nopinfo ? rs->nopinfo : 16;
        while (cap <= index)
            cap *= 2;
        struct oacl_ri_opinfo *v = realloc(rs->opinfo, cap * sizeof(*v));
        if (!v)
            return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for the op info");
        memset(v + rs->nopinfo, 0, (cap - rs->nopinfo) * sizeof(*v));
        rs->opinfo = v;
        rs->nopinfo = cap;
    }
    if (extend) {
        const char *s = info;
        size_t n = strnlen(s, size < OACL_RI_EXTEND_INFO_MAX ? size : OACL_RI_EXTEND_INFO_MAX);
        char *copy = malloc(n + 1);
        if (!copy)
            return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for the extend info");
        memcpy(copy, s, n);
        copy[n] = '\0';
        free(rs->opinfo[index].ext); /* cached again: the newest wins */
        rs->opinfo[index].ext = copy;
        return ACL_SUCCESS;
    }
    void *copy = malloc(size);
    if (!copy)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for the op info");
    memcpy(copy, info, size);
    free(rs->opinfo[index].ptr); /* cached again: the newest wins */
    rs->opinfo[index].ptr = copy;
    rs->opinfo[index].size = size;
    return ACL_SUCCESS;
}

static aclError cache_info(const void *info, size_t size, bool extend, const char *fn)
{
    static const char *const not_captured =
        "the calling thread's last task is not on a stream being captured with ACL_STREAM_ATTR_CACHE_OP_INFO";
    void *handle = oacl_tls_ri_last;
    if (!handle)
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "%s", not_captured);
    struct oacl_obj *o = oacl_handle_get(handle, OACL_H_MODEL_RI);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "%s (its model running instance is gone)", not_captured);
    struct oacl_ri *ri = (struct oacl_ri *)o;
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri_stream *rs = ri->streams;
    while (rs && rs != tls_rs)
        rs = rs->next;
    uint32_t count = 0;
    if (rs)
        oacl_backend()->graph_stream_state(rs->gq, &count);
    if (!rs || ri->state != OACL_RI_CAPTURING)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "%s (the capture of its last task is over)", not_captured);
    else if (count <= tls_before)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "%s (its last call on the capturing stream recorded no task)",
                       not_captured);
    else if (!caching_locked(rs))
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn,
                       "ACL_STREAM_ATTR_CACHE_OP_INFO is off on the capturing stream of the calling thread's last "
                       "task and on its capture's origin stream");
    else
        rc = store_locked(rs, tls_before, info, size, extend, fn); /* the task that call recorded */
    pthread_mutex_unlock(oacl_ri_lock());
    oacl_obj_put(o);
    return rc;
}

aclError oacl_ri_cache_op_info(const void *info, size_t size, const char *fn)
{
    return cache_info(info, size, false, fn);
}

aclError oacl_ri_cache_extend_info(const char *info, size_t size, const char *fn)
{
    return cache_info(info, size, true, fn);
}

void oacl_ri_opinfo_free(struct oacl_ri_stream *rs)
{
    for (uint32_t i = 0; i < rs->nopinfo; i++) {
        free(rs->opinfo[i].ptr);
        free(rs->opinfo[i].ext);
    }
    free(rs->opinfo);
    rs->opinfo = NULL;
    rs->nopinfo = 0;
}
