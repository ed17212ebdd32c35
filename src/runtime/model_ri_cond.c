/*
 * Conditional tasks (acl-rt-model-ri.md §3.3): condition handles (8 bytes
 * of device memory), aclmdlRIAddCondTask and the capture of its branches
 * into sub-RIs (aclmdlRICaptureToModelRIBegin).
 *
 * A conditional task is a control task of the RI stream it was recorded
 * on; when the lane walking that stream reaches it, it reads the condition
 * and runs the chosen branch's graph to its end before going on (WHILE:
 * again while the value is not 0). Sub-RIs belong to the RI that holds the
 * task and go with it.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/model_ri.h"

static void cond_free(struct oacl_obj *o) { free(o); }

static struct oacl_ri *root_of(struct oacl_ri *ri)
{
    while (ri->parent)
        ri = ri->parent;
    return ri;
}

bool oacl_ri_subs_captured(const struct oacl_ri *ri)
{
    for (uint32_t i = 0; i < ri->nsubs; i++)
        if (ri->subs[i]->sub_state != 2 || !oacl_ri_subs_captured(ri->subs[i]))
            return false;
    return true;
}

void oacl_ri_conds_free(struct oacl_ri *ri)
{
    for (uint32_t i = 0; i < ri->nsubs; i++) {
        struct oacl_ri *sub = ri->subs[i];
        oacl_obj_retire(&sub->obj); /* frees it (and its own sub-RIs) */
    }
    free(ri->subs);
    ri->subs = NULL;
    ri->nsubs = 0;
    for (uint32_t i = 0; i < ri->nbranch_sets; i++)
        free(ri->branch_sets[i]);
    free(ri->branch_sets);
    ri->branch_sets = NULL;
    ri->nbranch_sets = 0;
    struct oacl_ri_cond *c = ri->conds;
    ri->conds = NULL;
    while (c) {
        struct oacl_ri_cond *next = c->next;
        oacl_device_free(c->addr, "aclmdlRIDestroy");
        oacl_handle_retire(c->handle, OACL_H_COND);
        c = next;
    }
}

OACL_API aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                           aclmdlRICondHandle *handle)
{
    if (!modelRI || !handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", modelRI ? "handle" : "modelRI");
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    struct oacl_ri *ri = NULL;
    rc = oacl_ri_get(modelRI, true, &ri, __func__);
    if (rc)
        return rc;
    if ((uint32_t)flag > ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "flag %d is neither 0 nor ASSIGN_DEFAULT", (int)flag);
    else if (ri->kind == OACL_RI_BUILT)
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "modelRI %p was built, not captured", modelRI);
    else if (ri->state != OACL_RI_CAPTURING)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "the capture of modelRI %p is not active", modelRI);
    if (rc == ACL_SUCCESS) {
        struct oacl_context *ctx = NULL;
        rc = oacl_ctx_current(&ctx, __func__);
        if (rc == ACL_SUCCESS && ctx != ri->ctx)
            rc = oacl_fail(ACL_ERROR_RT_MODEL_CONTEXT, __func__, "modelRI %p belongs to another context", modelRI);
        if (ctx)
            oacl_obj_put(&ctx->obj);
    }
    struct oacl_ri_cond *c = NULL;
    if (rc == ACL_SUCCESS && !(c = calloc(1, sizeof(*c))))
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    if (rc == ACL_SUCCESS)
        rc = oacl_device_malloc(&c->addr, 8, ACL_MEM_MALLOC_HUGE_FIRST, false, OACL_MODULE_APP, __func__);
    if (rc == ACL_SUCCESS) {
        oacl_backend()->host_write_begin();
        memset(c->addr, 0, 8);
        oacl_backend()->host_write_end();
        struct oacl_ri *root = root_of(ri);
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT
                      ? oacl_backend()->graph_init_word(root->g, c->addr, (uint64_t)defaultLaunchValue, err)
                      : ACL_SUCCESS;
        if (brc)
            rc = oacl_fail(brc, __func__, "%s", err);
        else if (!(c->handle = oacl_handle_create(&c->obj, OACL_H_COND, cond_free)))
            rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "handle table exhausted");
        if (rc) {
            oacl_device_free(c->addr, __func__);
        } else {
            c->ri = ri;
            pthread_mutex_lock(oacl_ri_lock());
            c->next = root->conds; /* freed with the root RI */
            root->conds = c;
            pthread_mutex_unlock(oacl_ri_lock());
            *handle = c->handle;
            c = NULL;
        }
    }
    free(c);
    oacl_obj_put(&ri->obj);
    return rc;
}

OACL_API aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr)
{
    if (!handle || !ptr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", handle ? "ptr" : "handle");
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    struct oacl_obj *o = oacl_handle_get(handle, OACL_H_COND);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "handle %p is not a live condition handle", handle);
    *ptr = ((struct oacl_ri_cond *)o)->addr;
    oacl_obj_put(o);
    return ACL_SUCCESS;
}

static bool size_ok(aclmdlRICondTaskType type, uint32_t size)
{
    switch (type) {
    case ACL_MODEL_RI_COND_TYPE_IF:
        return size == 1 || size == 2;
    case ACL_MODEL_RI_COND_TYPE_WHILE:
        return size == 1;
    default:
        return size >= 1;
    }
}

/* size new sub-RIs of ri and their graphs (g_lock held). */
static aclError make_subs(struct oacl_ri *ri, uint32_t size, struct oacl_ri **subs, struct oacl_bgraph **graphs,
                          const char *fn)
{
    struct oacl_ri **all = realloc(ri->subs, (ri->nsubs + size) * sizeof(*all));
    if (!all)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    ri->subs = all;
    for (uint32_t i = 0; i < size; i++) {
        aclError rc = oacl_ri_create(ri->ctx, &subs[i], fn);
        if (rc) {
            while (i-- > 0)
                oacl_obj_retire(&subs[i]->obj);
            return rc;
        }
        subs[i]->kind = OACL_RI_SUB;
        subs[i]->parent = ri;
        graphs[i] = subs[i]->g;
    }
    for (uint32_t i = 0; i < size; i++)
        ri->subs[ri->nsubs++] = subs[i];
    return ACL_SUCCESS;
}

OACL_API aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    if (params.modelRIArray)
        memset(params.modelRIArray, 0, params.size * sizeof(aclmdlRI));
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    if ((uint32_t)params.type > ACL_MODEL_RI_COND_TYPE_SWITCH)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "type %d is not an aclmdlRICondTaskType",
                         (int)params.type);
    if (flags != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "flags %u is reserved and must be 0", flags);
    if (!params.handle || !params.modelRIArray)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s is NULL",
                         params.handle ? "params.modelRIArray" : "params.handle");
    struct oacl_ri_cond *c = (struct oacl_ri_cond *)oacl_handle_get(params.handle, OACL_H_COND);
    if (!c)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "params.handle %p is not a live condition handle",
                         params.handle);
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_OWN, &s, __func__);
    if (rc) {
        oacl_obj_put(&c->obj);
        return rc;
    }
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri *ri = s->ri_capture;
    struct oacl_ri **subs = calloc(params.size ? params.size : 1, sizeof(*subs));
    struct oacl_bgraph **graphs = calloc(params.size ? params.size : 1, sizeof(*graphs));
    struct oacl_bgraph ***sets = NULL;
    if (!subs || !graphs)
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    else if (c->used)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "the condition handle is used by another conditional task");
    else if (!ri)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, __func__, "stream %p is not capturing", stream);
    else if (ri != c->ri)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "the stream captures into another model running instance than the handle's");
    else if (!size_ok(params.type, params.size))
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "size %u is invalid for this type", params.size);
    else if (!(sets = realloc(ri->branch_sets, (ri->nbranch_sets + 1) * sizeof(*sets))))
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    else
        ri->branch_sets = sets;
    if (rc == ACL_SUCCESS)
        rc = make_subs(ri, params.size, subs, graphs, __func__);
    if (rc == ACL_SUCCESS) {
        struct oacl_graph_ctl ctl = {.kind = OACL_GCTL_COND, .left = c->addr, .cond = (uint32_t)params.type,
                                     .max = params.size, .graphs = graphs};
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->graph_ctl(s->ri_stream->gq, &ctl, err);
        if (brc) {
            rc = oacl_fail(brc, __func__, "%s", err);
        } else {
            ri->branch_sets[ri->nbranch_sets++] = graphs; /* the task points to it */
            graphs = NULL;
            c->used = true;
            for (uint32_t i = 0; i < params.size; i++)
                params.modelRIArray[i] = subs[i]->handle;
        }
    }
    pthread_mutex_unlock(oacl_ri_lock());
    free(graphs);
    free(subs);
    oacl_obj_put(&s->obj);
    oacl_obj_put(&c->obj);
    return rc;
}

OACL_API aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode)
{
    if (!stream || !modelRI)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", stream ? "modelRI" : "stream");
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    if ((uint32_t)mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "mode %d is not an aclmdlRICaptureMode", (int)mode);
    struct oacl_ri *ri = NULL;
    rc = oacl_ri_get_ctx(modelRI, true, &ri, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    if (ri->kind != OACL_RI_SUB)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "modelRI %p is not a branch of a conditional task",
                       modelRI);
    else
        rc = oacl_stream_resolve(ri->ctx, stream, OACL_STREAM_OWN, &s, __func__);
    if (rc == ACL_SUCCESS) {
        pthread_mutex_lock(oacl_ri_lock());
        if (s->ri_capture)
            rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, __func__, "stream %p is capturing", stream);
        else if (s->ri_owner || s->is_default || (s->flags & ACL_STREAM_PERSISTENT))
            rc = oacl_fail(ACL_ERROR_RT_STREAM_MODEL, __func__, "stream %p cannot capture", stream);
        else if (ri->sub_state != 0)
            rc = oacl_fail(ACL_ERROR_RT_MODEL_CAPTURED, __func__, "modelRI %p was captured already", modelRI);
        else
            ri->sub_state = 1;
        pthread_mutex_unlock(oacl_ri_lock());
        if (rc == ACL_SUCCESS) {
            rc = oacl_ri_capture_into(ri, s, mode, __func__);
            if (rc) {
                pthread_mutex_lock(oacl_ri_lock());
                ri->sub_state = 0;
                pthread_mutex_unlock(oacl_ri_lock());
            }
        }
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&ri->obj);
    return rc;
}
