/*
 * Model running instances built on persistent streams (acl-rt-model-ri.md
 * §3.4, §3.9, §3.10): ACL_STREAM_PERSISTENT streams, aclmdlRIBuildBegin /
 * BindStream / EndTask / BuildEnd / UnbindStream, aclrtPersistentTaskClean,
 * aclmdlRIExecute, labels, aclrtActiveStream and aclrtSwitchStream.
 *
 * A persistent stream's queue is, for its whole life, a recording queue of
 * the backend (graph_stream_new): what is enqueued on it is kept, never
 * run, and synchronising it returns at once. Binding moves that queue into
 * the RI's backend graph; the control tasks (end, label markers, switches,
 * activations) are recorded there too and evaluated by the lane walking the
 * stream at each execution.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/model_ri.h"

#define MAX_LABELS 65535u
#define HEAD_FLAG 0x00000000u
#define ACTIVATED_FLAG 0x7FFFFFFFu

#define NULL_CHECK(p)                                                                                                 \
    do {                                                                                                              \
        if (!(p))                                                                                                     \
            return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", #p);                                     \
    } while (0)

/* ---- persistent streams ------------------------------------------------------------- */

aclError oacl_ri_persistent_init(void *handle, const char *fn)
{
    struct oacl_stream *s = (struct oacl_stream *)oacl_handle_get(handle, OACL_H_STREAM);
    if (!s)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "the new stream was destroyed meanwhile");
    struct oacl_queue *gq = NULL;
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->graph_stream_new(s->ctx->dev->bdev, &s->ctx->fail, &gq, err);
    if (brc == ACL_SUCCESS) {
        s->persist_own = s->queue;
        s->queue = gq;
        s->flags |= ACL_STREAM_PERSISTENT;
    }
    oacl_obj_put(&s->obj);
    return brc ? oacl_fail(brc, fn, "%s", err) : ACL_SUCCESS;
}

void oacl_ri_persistent_release(struct oacl_stream *s)
{
    if (!s->persist_own)
        return;
    oacl_backend()->graph_stream_free(s->queue);
    s->queue = s->persist_own;
    s->persist_own = NULL;
}

/* The stream argument of the build functions (+1): a live stream of ctx. */
static aclError any_stream(struct oacl_context *ctx, aclrtStream stream, struct oacl_stream **out, const char *fn)
{
    return oacl_stream_resolve(ctx, stream, OACL_STREAM_OWN, out, fn);
}

/* A built RI of the current context (+1 each). */
static aclError built_ri(aclmdlRI modelRI, bool null_is_param, struct oacl_ri **ri, struct oacl_context **ctx,
                         const char *fn)
{
    aclError rc = oacl_ri_get_ctx(modelRI, null_is_param, ri, fn);
    if (rc)
        return rc;
    if ((*ri)->kind != OACL_RI_BUILT) {
        oacl_obj_put(&(*ri)->obj);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "modelRI %p was captured, not built", modelRI);
    }
    *ctx = (*ri)->ctx;
    oacl_obj_ref(&(*ctx)->obj);
    return ACL_SUCCESS;
}

static void put2(struct oacl_ri *ri, struct oacl_context *ctx)
{
    oacl_obj_put(&ri->obj);
    oacl_obj_put(&ctx->obj);
}

/* Drops the task handles of rs (its tasks were discarded). */
static void forget_tasks(struct oacl_ri_stream *rs)
{
    for (uint32_t i = 0; i < rs->ntasks; i++)
        oacl_handle_retire(rs->tasks[i]->handle, OACL_H_RI_TASK);
    rs->ntasks = 0;
}

/* rs leaves its RI (g_lock held): the stream is an unbound persistent stream
 * again, without tasks. */
void oacl_ri_unbind_locked(struct oacl_ri *ri, struct oacl_ri_stream *rs)
{
    for (struct oacl_ri_stream **l = &ri->streams; *l; l = &(*l)->next) {
        if (*l == rs) {
            *l = rs->next;
            ri->nstreams--;
            break;
        }
    }
    if (ri->end_rs == rs)
        ri->end_rs = NULL;
    oacl_backend()->graph_stream_bind(rs->gq, NULL, false);
    oacl_backend()->graph_stream_clear(rs->gq);
    forget_tasks(rs);
    free(rs->tasks);
    free(rs->notes);
    free(rs->pending_disable);
    rs->user->ri_owner = NULL;
    rs->user->ri_stream = NULL;
    oacl_obj_put(&rs->user->obj);
    free(rs);
}

aclError oacl_ri_sync_tasks(struct oacl_ri_stream *rs, const char *fn)
{
    uint32_t count = 0;
    oacl_backend()->graph_stream_state(rs->gq, &count);
    if (count <= rs->ntasks && rs->tasks)
        return ACL_SUCCESS;
    struct oacl_ri_task **tasks = realloc(rs->tasks, (count ? count : 1) * sizeof(*tasks));
    if (!tasks)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for task handles");
    rs->tasks = tasks;
    uint8_t *pd = realloc(rs->pending_disable, count ? count : 1);
    if (!pd)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for task handles");
    rs->pending_disable = pd;
    while (rs->ntasks < count) {
        struct oacl_ri_task *t = calloc(1, sizeof(*t));
        if (!t)
            return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for task handles");
        t->ri = rs->ri;
        t->rs = rs;
        t->index = t->seq = rs->ntasks;
        t->handle = oacl_handle_create(&t->obj, OACL_H_RI_TASK, (void (*)(struct oacl_obj *))free);
        if (!t->handle) {
            free(t);
            return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "handle table exhausted");
        }
        rs->pending_disable[rs->ntasks] = 0;
        rs->tasks[rs->ntasks++] = t;
    }
    return ACL_SUCCESS;
}

/* ---- build ---------------------------------------------------------------------------- */

OACL_API aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag)
{
    NULL_CHECK(modelRI);
    if (flag != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "flag %u is reserved and must be 0", flag);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_ri *ri = NULL;
    rc = oacl_ri_create(ctx, &ri, __func__);
    if (rc == ACL_SUCCESS) {
        ri->kind = OACL_RI_BUILT;
        ri->state = OACL_RI_BUILDING;
        *modelRI = ri->handle;
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag)
{
    NULL_CHECK(modelRI);
    if (flag != HEAD_FLAG && flag != ACTIVATED_FLAG)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "flag 0x%x is neither 0 (head) nor 0x7FFFFFFF", flag);
    struct oacl_ri *ri = NULL;
    struct oacl_context *ctx = NULL;
    aclError rc = built_ri(modelRI, true, &ri, &ctx, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = any_stream(ctx, stream, &s, __func__);
    if (rc) {
        put2(ri, ctx);
        return rc;
    }
    pthread_mutex_lock(oacl_ri_lock());
    if (s->ri_capture)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, __func__, "the stream is capturing");
    else if (!(s->flags & ACL_STREAM_PERSISTENT))
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "the stream was not created with ACL_STREAM_PERSISTENT (NULL is the default stream)");
    else if (s->ri_owner)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_MODEL, __func__, "the stream is already bound to a model running instance");
    if (rc == ACL_SUCCESS) {
        struct oacl_ri_stream *rs = calloc(1, sizeof(*rs));
        if (!rs) {
            rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
        } else {
            rs->ri = ri;
            rs->gq = s->queue;
            rs->handle = s->handle;
            rs->user = s;
            rs->head = flag == HEAD_FLAG;
            oacl_obj_ref(&s->obj);
            s->ri_owner = ri;
            s->ri_stream = rs;
            rs->next = ri->streams;
            ri->streams = rs;
            ri->nstreams++;
            oacl_backend()->graph_stream_bind(rs->gq, ri->g, rs->head);
        }
    }
    pthread_mutex_unlock(oacl_ri_lock());
    oacl_obj_put(&s->obj);
    put2(ri, ctx);
    return rc;
}

/* The bound stream of ri named by `stream` (g_lock held), else NULL. */
static struct oacl_ri_stream *bound_locked(struct oacl_ri *ri, struct oacl_stream *s)
{
    return s->ri_owner == ri && s->ri_stream && s->ri_stream->user == s ? s->ri_stream : NULL;
}

static aclError record_ctl(struct oacl_ri_stream *rs, const struct oacl_graph_ctl *c, const char *fn)
{
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->graph_ctl(rs->gq, c, err);
    return brc ? oacl_fail(brc, fn, "%s", err) : ACL_SUCCESS;
}

OACL_API aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream)
{
    NULL_CHECK(modelRI);
    struct oacl_ri *ri = NULL;
    struct oacl_context *ctx = NULL;
    aclError rc = built_ri(modelRI, true, &ri, &ctx, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = any_stream(ctx, stream, &s, __func__);
    if (rc) {
        put2(ri, ctx);
        return rc;
    }
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri_stream *rs = bound_locked(ri, s);
    if (s->ri_capture)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, __func__, "the stream is capturing");
    else if (!rs)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "the stream is not bound to modelRI %p", modelRI);
    else if (ri->end_rs)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "modelRI %p already has its end task", modelRI);
    else
        rc = record_ctl(rs, &(struct oacl_graph_ctl){.kind = OACL_GCTL_END}, __func__);
    if (rc == ACL_SUCCESS)
        ri->end_rs = rs;
    pthread_mutex_unlock(oacl_ri_lock());
    oacl_obj_put(&s->obj);
    put2(ri, ctx);
    return rc;
}

OACL_API aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve)
{
    NULL_CHECK(modelRI);
    if (reserve)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "reserve must be NULL");
    struct oacl_ri *ri = NULL;
    struct oacl_context *ctx = NULL;
    aclError rc = built_ri(modelRI, true, &ri, &ctx, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(oacl_ri_lock());
    if (!ri->streams)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_MODEL, __func__, "no stream is bound to modelRI %p", modelRI);
    else if (!ri->end_rs)
        rc = oacl_fail(ACL_ERROR_RT_MODEL_EXECUTE, __func__, "modelRI %p has no end task (aclmdlRIEndTask)", modelRI);
    pthread_mutex_unlock(oacl_ri_lock());
    if (rc == ACL_SUCCESS) {
        pthread_mutex_lock(&ri->lock);
        ri->state = OACL_RI_READY;
        pthread_mutex_unlock(&ri->lock);
    }
    put2(ri, ctx);
    return rc;
}

OACL_API aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream)
{
    NULL_CHECK(modelRI);
    struct oacl_ri *ri = NULL;
    struct oacl_context *ctx = NULL;
    aclError rc = built_ri(modelRI, true, &ri, &ctx, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = any_stream(ctx, stream, &s, __func__);
    if (rc) {
        put2(ri, ctx);
        return rc;
    }
    /* an execution in flight finishes first */
    while (oacl_backend()->graph_busy(ri->g))
        sched_yield();
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri_stream *rs = bound_locked(ri, s);
    if (s->ri_capture)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, __func__, "the stream is capturing");
    else if (!rs)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_MODEL, __func__, "the stream is not bound to modelRI %p", modelRI);
    else
        oacl_ri_unbind_locked(ri, rs);
    pthread_mutex_unlock(oacl_ri_lock());
    oacl_obj_put(&s->obj);
    put2(ri, ctx);
    return rc;
}

OACL_API aclError aclrtPersistentTaskClean(aclrtStream stream)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "stream is NULL");
    aclError rc = oacl_ri_gate_persistent_clean(__func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_OWN, &s, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri *ri = s->ri_owner;
    struct oacl_ri_stream *rs = ri ? bound_locked(ri, s) : NULL;
    if (!(s->flags & ACL_STREAM_PERSISTENT))
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "the stream is not persistent");
    else if (!rs)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "the stream is not bound to a model running instance");
    else if (ri->state != OACL_RI_READY)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "the build of its model running instance has not ended");
    else if (oacl_backend()->graph_busy(ri->g))
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "its model running instance is executing");
    if (rc == ACL_SUCCESS) {
        oacl_backend()->graph_stream_clear(rs->gq);
        forget_tasks(rs);
        if (ri->end_rs == rs) /* re-issuing includes the end task (Decision 11) */
            ri->end_rs = NULL;
    }
    pthread_mutex_unlock(oacl_ri_lock());
    oacl_obj_put(&s->obj);
    return rc;
}

/* ---- labels ------------------------------------------------------------------------------ */

struct oacl_label {
    struct oacl_obj obj;
    struct oacl_context *ctx;          /* no reference: checked by identity */
    struct oacl_label_list *list;      /* NULL until it joins a list */
    uint32_t index;
    bool set;
};

struct oacl_label_list {
    void *addr;                        /* its device memory: the handle */
    struct oacl_context *ctx;
    struct oacl_graph_targets *tg;
    uint32_t n;
    struct oacl_label **labels;        /* +1 reference each */
    struct oacl_label_list *next;
};

static struct oacl_label_list *g_lists; /* g_lock */
static uint32_t g_labels;               /* atomic: live labels */

static void label_free(struct oacl_obj *o)
{
    __atomic_sub_fetch(&g_labels, 1, __ATOMIC_RELAXED);
    free(o);
}

static aclError label_get(aclrtLabel label, struct oacl_context *ctx, struct oacl_label **out, const char *fn)
{
    struct oacl_obj *o = oacl_handle_get(label, OACL_H_LABEL);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "label %p is not a live label", label);
    struct oacl_label *l = (struct oacl_label *)o;
    if (l->ctx != ctx) {
        oacl_obj_put(o);
        return oacl_fail(ACL_ERROR_RT_LABEL_CONTEXT, fn, "label %p belongs to another context", label);
    }
    *out = l;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCreateLabel(aclrtLabel *label)
{
    NULL_CHECK(label);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    if (__atomic_add_fetch(&g_labels, 1, __ATOMIC_RELAXED) > MAX_LABELS) {
        __atomic_sub_fetch(&g_labels, 1, __ATOMIC_RELAXED);
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "%u labels exist already", MAX_LABELS);
    }
    struct oacl_label *l = calloc(1, sizeof(*l));
    void *h = l ? oacl_handle_create(&l->obj, OACL_H_LABEL, label_free) : NULL;
    if (!h) {
        free(l);
        __atomic_sub_fetch(&g_labels, 1, __ATOMIC_RELAXED);
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory for a label");
    }
    l->ctx = ctx;
    *label = h;
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtDestroyLabel(aclrtLabel label)
{
    NULL_CHECK(label);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_label *l = NULL;
    rc = label_get(label, ctx, &l, __func__);
    if (rc == ACL_SUCCESS) {
        /* a list holding it keeps its slot (and the object) */
        if (!oacl_obj_retire(&l->obj))
            rc = oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "label %p was destroyed concurrently", label);
        oacl_obj_put(&l->obj);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList)
{
    NULL_CHECK(labels);
    NULL_CHECK(labelList);
    if (num == 0 || num > MAX_LABELS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "num %zu is not in 1..%u", num, MAX_LABELS);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_label_list *ll = calloc(1, sizeof(*ll));
    struct oacl_label **v = calloc(num, sizeof(*v));
    if (!ll || !v) {
        free(ll);
        free(v);
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    }
    size_t got = 0;
    for (; got < num && rc == ACL_SUCCESS; got++) {
        if (!labels[got]) {
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "labels[%zu] is NULL", got);
            break;
        }
        rc = label_get(labels[got], ctx, &v[got], __func__);
        if (rc)
            break;
    }
    pthread_mutex_lock(oacl_ri_lock());
    for (size_t i = 0; rc == ACL_SUCCESS && i < num; i++) {
        if (v[i]->list)
            rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "labels[%zu] is in a label list already", i);
        for (size_t j = 0; rc == ACL_SUCCESS && j < i; j++)
            if (v[j] == v[i])
                rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "labels[%zu] appears twice", i);
    }
    if (rc == ACL_SUCCESS) {
        ll->tg = oacl_backend()->graph_targets_new((uint32_t)num);
        if (!ll->tg)
            rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    }
    if (rc == ACL_SUCCESS) {
        /* 16 bytes of device memory per label, as CANN's jump descriptors */
        rc = oacl_device_malloc(&ll->addr, 16 * num, ACL_MEM_MALLOC_HUGE_FIRST, false, OACL_MODULE_APP, __func__);
        if (rc) {
            oacl_backend()->graph_targets_drop(ll->tg);
        } else {
            ll->ctx = ctx;
            ll->n = (uint32_t)num;
            ll->labels = v;
            for (uint32_t i = 0; i < ll->n; i++) {
                v[i]->list = ll;
                v[i]->index = i;
            }
            ll->next = g_lists;
            g_lists = ll;
            *labelList = ll->addr;
        }
    }
    pthread_mutex_unlock(oacl_ri_lock());
    if (rc) {
        for (size_t i = 0; i < got && i < num; i++)
            if (v[i])
                oacl_obj_put(&v[i]->obj);
        free(v);
        free(ll);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

/* The live list at addr (g_lock held). */
static struct oacl_label_list **list_find_locked(const void *addr)
{
    for (struct oacl_label_list **l = &g_lists; *l; l = &(*l)->next)
        if ((*l)->addr == addr)
            return l;
    return NULL;
}

OACL_API aclError aclrtDestroyLabelList(aclrtLabelList labelList)
{
    NULL_CHECK(labelList);
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_label_list **link = list_find_locked(labelList);
    struct oacl_label_list *ll = link ? *link : NULL;
    if (ll) {
        *link = ll->next;
        for (uint32_t i = 0; i < ll->n; i++)
            ll->labels[i]->list = NULL; /* the labels stay alive */
    }
    pthread_mutex_unlock(oacl_ri_lock());
    if (!ll)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "labelList %p is not a live label list", labelList);
    oacl_backend()->graph_targets_drop(ll->tg); /* recorded switches fail from now on */
    for (uint32_t i = 0; i < ll->n; i++)
        oacl_obj_put(&ll->labels[i]->obj);
    oacl_device_free(ll->addr, __func__);
    free(ll->labels);
    free(ll);
    return ACL_SUCCESS;
}

/* The RI-bound stream argument of the label and stream-control functions
 * (+1 stream; g_lock taken on success, the bound RI stream in *rs). */
static aclError bound_stream(struct oacl_context *ctx, aclrtStream stream, struct oacl_stream **s,
                             struct oacl_ri_stream **rs, const char *fn)
{
    aclError rc = oacl_stream_resolve(ctx, stream, OACL_STREAM_OWN, s, fn);
    if (rc)
        return rc;
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri *ri = (*s)->ri_owner;
    *rs = ri && ri->kind == OACL_RI_BUILT ? bound_locked(ri, *s) : NULL;
    if (!*rs) {
        pthread_mutex_unlock(oacl_ri_lock());
        oacl_obj_put(&(*s)->obj);
        return oacl_fail(ACL_ERROR_RT_STREAM_MODEL, fn, "stream %p is not bound to a built model running instance",
                         stream);
    }
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream)
{
    NULL_CHECK(label);
    NULL_CHECK(stream);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_label *l = NULL;
    rc = label_get(label, ctx, &l, __func__);
    if (rc) {
        oacl_obj_put(&ctx->obj);
        return rc;
    }
    struct oacl_stream *s = NULL;
    struct oacl_ri_stream *rs = NULL;
    rc = bound_stream(ctx, stream, &s, &rs, __func__);
    if (rc == ACL_SUCCESS) {
        if (!l->list)
            rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "label %p is not in a label list yet", label);
        else if (l->set)
            rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "label %p is set already", label);
        uint32_t pos = 0;
        if (rc == ACL_SUCCESS) {
            oacl_backend()->graph_stream_state(rs->gq, &pos);
            rc = record_ctl(rs, &(struct oacl_graph_ctl){.kind = OACL_GCTL_LABEL}, __func__);
        }
        if (rc == ACL_SUCCESS) {
            l->set = true;
            oacl_backend()->graph_targets_set(l->list->tg, l->index, rs->gq, pos);
        }
        pthread_mutex_unlock(oacl_ri_lock());
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&l->obj);
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream)
{
    NULL_CHECK(ptr);
    NULL_CHECK(labelList);
    NULL_CHECK(stream);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    struct oacl_ri_stream *rs = NULL;
    rc = bound_stream(ctx, stream, &s, &rs, __func__);
    if (rc == ACL_SUCCESS) {
        struct oacl_label_list **link = list_find_locked(labelList);
        if (!link)
            rc = oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "labelList %p is not a live label list", labelList);
        else
            rc = record_ctl(rs,
                            &(struct oacl_graph_ctl){.kind = OACL_GCTL_SWITCH_INDEX, .left = ptr, .max = maxValue,
                                                     .targets = (*link)->tg},
                            __func__);
        pthread_mutex_unlock(oacl_ri_lock());
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

/* ---- stream control ------------------------------------------------------------------------- */

/* The bound RI stream of `other` in the same RI as rs (g_lock held). */
static aclError sibling_locked(struct oacl_context *ctx, aclrtStream other, struct oacl_ri_stream *rs,
                               struct oacl_ri_stream **out, const char *fn)
{
    struct oacl_stream *o = NULL;
    aclError rc = oacl_stream_resolve(ctx, other, OACL_STREAM_OWN, &o, fn);
    if (rc)
        return rc;
    *out = o->ri_owner == rs->ri ? bound_locked(rs->ri, o) : NULL;
    oacl_obj_put(&o->obj);
    if (!*out)
        return oacl_fail(ACL_ERROR_RT_STREAM_MODEL, fn, "stream %p is not bound to the same model running instance",
                         other);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream)
{
    NULL_CHECK(activeStream);
    NULL_CHECK(stream);
    aclError rc = oacl_ri_gate_stream_ctl(__func__);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    struct oacl_ri_stream *rs = NULL, *target = NULL;
    rc = bound_stream(ctx, stream, &s, &rs, __func__);
    if (rc == ACL_SUCCESS) {
        rc = sibling_locked(ctx, activeStream, rs, &target, __func__);
        if (rc == ACL_SUCCESS)
            rc = record_ctl(rs, &(struct oacl_graph_ctl){.kind = OACL_GCTL_ACTIVE, .stream = target->gq}, __func__);
        pthread_mutex_unlock(oacl_ri_lock());
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue,
                                    aclrtCompareDataType dataType, aclrtStream trueStream, aclrtStream falseStream,
                                    aclrtStream stream)
{
    NULL_CHECK(leftValue);
    NULL_CHECK(rightValue);
    NULL_CHECK(trueStream);
    NULL_CHECK(stream);
    if (falseStream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "falseStream is reserved and must be NULL");
    aclError rc = oacl_ri_gate_stream_ctl(__func__);
    if (rc)
        return rc;
    if ((uint32_t)cond > ACL_RT_LESS_OR_EQUAL)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cond %d is not an aclrtCondition", (int)cond);
    if ((uint32_t)dataType > ACL_RT_SWITCH_INT64)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "dataType %d is not an aclrtCompareDataType",
                         (int)dataType);
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_stream *s = NULL;
    struct oacl_ri_stream *rs = NULL, *target = NULL;
    rc = bound_stream(ctx, stream, &s, &rs, __func__);
    if (rc == ACL_SUCCESS) {
        rc = sibling_locked(ctx, trueStream, rs, &target, __func__);
        if (rc == ACL_SUCCESS)
            rc = record_ctl(rs,
                            &(struct oacl_graph_ctl){.kind = OACL_GCTL_SWITCH_STREAM, .left = leftValue,
                                                     .right = rightValue, .cond = (uint32_t)cond,
                                                     .is64 = dataType == ACL_RT_SWITCH_INT64, .stream = target->gq},
                            __func__);
        pthread_mutex_unlock(oacl_ri_lock());
        oacl_obj_put(&s->obj);
    }
    oacl_obj_put(&ctx->obj);
    return rc;
}
