/*
 * Model running instances (task graphs) captured from streams:
 * aclmdlRICapture*, execution, lifetime, name/id (acl-rt-model-ri.md §3.1,
 * §3.5, §3.6). Inspection, editing and debug output are in model_ri_query.c.
 *
 * A capturing stream's queue is swapped for a recording queue of the
 * backend (graph_stream): every enqueue function validates as usual and
 * then "queues" its task there, which keeps it instead of running it. The
 * stream's own queue comes back at capture end. Events recorded and waited
 * inside a capture become graph-private events (slots of the backend
 * graph); a stream that waits on such an event joins the capture.
 *
 * One lock (g_lock) guards every capture relation: stream <-> RI,
 * event <-> RI, the list of active captures.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "runtime/event.h"
#include "runtime/model_ri.h"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct oacl_ri *g_active; /* captures in progress (cap_next) */
static struct oacl_ri *g_all;    /* every live RI (all_next; g_all_lock, taken after g_lock) */
static pthread_mutex_t g_all_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local aclmdlRICaptureMode t_xmode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
static uint32_t g_next_id[OACL_RI_MAX_DEVICES]; /* atomic, per device */

pthread_mutex_t *oacl_ri_lock(void) { return &g_lock; }

/* ---- objects --------------------------------------------------------------------- */

static void task_destroy(struct oacl_obj *o) { free(o); }

static void ri_free(struct oacl_obj *o)
{
    struct oacl_ri *ri = (struct oacl_ri *)o;
    oacl_ri_groups_free(ri);
    pthread_mutex_lock(&g_all_lock);
    for (struct oacl_ri **l = &g_all; *l; l = &(*l)->all_next) {
        if (*l == ri) {
            *l = ri->all_next;
            break;
        }
    }
    pthread_mutex_unlock(&g_all_lock);
    pthread_mutex_lock(&g_lock);
    while (ri->kind == OACL_RI_BUILT && ri->streams) /* bound user streams stay, unbound and empty */
        oacl_ri_unbind_locked(ri, ri->streams);
    pthread_mutex_unlock(&g_lock);
    struct oacl_ri_stream *rs = ri->streams;
    while (rs) {
        struct oacl_ri_stream *next = rs->next;
        for (uint32_t i = 0; i < rs->ntasks; i++)
            oacl_handle_retire(rs->tasks[i]->handle, OACL_H_RI_TASK);
        free(rs->tasks);
        free(rs->notes);
        free(rs->pending_disable);
        oacl_ri_opinfo_free(rs);
        if (rs->internal) {
            rs->internal->ri_owner = NULL;
            oacl_stream_teardown(rs->internal); /* false: the context's teardown got there first */
            oacl_obj_put(&rs->internal->obj);
        }
        free(rs);
        rs = next;
    }
    if (ri->g)
        oacl_backend()->graph_destroy(ri->g, -1);
    oacl_ri_conds_free(ri); /* sub-RIs and condition words, once no task refers to them */
    for (uint32_t i = 0; i < ri->nevs; i++)
        oacl_obj_put(&ri->evs[i].e->obj);
    free(ri->evs);
    free(ri->cbs);
    free(ri->name);
    pthread_mutex_destroy(&ri->lock);
    oacl_obj_put(&ri->ctx->obj);
    free(ri);
}

aclError oacl_ri_get(aclmdlRI handle, bool null_is_param, struct oacl_ri **out, const char *fn)
{
    if (!handle)
        return oacl_fail(null_is_param ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID, fn, "modelRI is NULL");
    struct oacl_obj *o = oacl_handle_get(handle, OACL_H_MODEL_RI);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "modelRI %p is not a live model running instance", handle);
    *out = (struct oacl_ri *)o;
    return ACL_SUCCESS;
}

aclError oacl_ri_get_ctx(aclmdlRI handle, bool null_is_param, struct oacl_ri **out, const char *fn)
{
    aclError rc = oacl_ri_get(handle, null_is_param, out, fn);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    rc = oacl_ctx_current(&ctx, fn);
    if (rc == ACL_SUCCESS && ctx != (*out)->ctx)
        rc = oacl_fail(ACL_ERROR_RT_MODEL_CONTEXT, fn, "modelRI %p belongs to another context", handle);
    if (ctx)
        oacl_obj_put(&ctx->obj);
    if (rc)
        oacl_obj_put(&(*out)->obj);
    return rc;
}

aclError oacl_ri_create(struct oacl_context *ctx, struct oacl_ri **out, const char *fn)
{
    struct oacl_ri *ri = calloc(1, sizeof(*ri));
    if (!ri)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for a model running instance");
    pthread_mutex_init(&ri->lock, NULL);
    oacl_obj_ref(&ctx->obj);
    ri->ctx = ctx;
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->graph_create(ctx->dev->bdev, &ctx->fail, &ri->g, err);
    if (brc) {
        oacl_obj_put(&ctx->obj);
        pthread_mutex_destroy(&ri->lock);
        free(ri);
        return oacl_fail(brc, fn, "%s", err);
    }
    ri->handle = oacl_handle_create(&ri->obj, OACL_H_MODEL_RI, ri_free);
    if (!ri->handle) {
        oacl_backend()->graph_destroy(ri->g, -1);
        oacl_obj_put(&ctx->obj);
        pthread_mutex_destroy(&ri->lock);
        free(ri);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "handle table exhausted");
    }
    uint32_t d = (uint32_t)ctx->dev->id % OACL_RI_MAX_DEVICES;
    ri->id = __atomic_fetch_add(&g_next_id[d], 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&g_all_lock); /* callers may hold g_lock */
    ri->all_next = g_all;
    g_all = ri;
    pthread_mutex_unlock(&g_all_lock);
    *out = ri;
    return ACL_SUCCESS;
}

/* A new RI stream of ri: an RI-internal stream (one of the device's stream
 * budget) and a recording queue; the newest first in ri->streams. */
static aclError ri_stream_add(struct oacl_ri *ri, struct oacl_ri_stream **out, const char *fn)
{
    struct oacl_ri_stream *rs = calloc(1, sizeof(*rs));
    if (!rs)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for an RI stream");
    void *handle = NULL;
    aclError rc = oacl_stream_create(ri->ctx, false, 0, 0, NULL, &handle, fn);
    if (rc) {
        free(rs);
        return rc;
    }
    struct oacl_stream *is = (struct oacl_stream *)oacl_handle_get(handle, OACL_H_STREAM);
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = is ? oacl_backend()->graph_stream(ri->g, &rs->gq, err) : ACL_ERROR_RT_INVALID_HANDLE;
    if (brc) {
        if (is) {
            oacl_stream_teardown(is);
            oacl_obj_put(&is->obj);
        }
        free(rs);
        return oacl_fail(brc, fn, "%s", is ? err : "the RI stream was destroyed meanwhile");
    }
    is->ri_owner = ri;
    is->ri_stream = rs;
    is->ri_internal = true;
    rs->ri = ri;
    rs->internal = is;
    rs->handle = handle;
    rs->last_record_count = UINT32_MAX;
    rs->next = ri->streams;
    ri->streams = rs;
    ri->nstreams++;
    *out = rs;
    return ACL_SUCCESS;
}

/* ---- capture state (g_lock held) --------------------------------------------------- */

static void attach_locked(struct oacl_stream *s, struct oacl_ri_stream *rs)
{
    oacl_obj_ref(&s->obj);
    rs->user = s;
    s->own_queue = s->queue;
    s->ri_stream = rs;
    __atomic_store_n(&s->queue, rs->gq, __ATOMIC_RELEASE);
    __atomic_store_n(&s->ri_capture, rs->ri, __ATOMIC_RELEASE);
}

/* Every stream of ri's capture leaves capture mode; events are detached. */
static void end_capture_locked(struct oacl_ri *ri)
{
    for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next) {
        struct oacl_stream *s = rs->user;
        if (!s)
            continue;
        __atomic_store_n(&s->queue, s->own_queue, __ATOMIC_RELEASE);
        s->own_queue = NULL;
        s->ri_stream = NULL;
        __atomic_store_n(&s->ri_capture, NULL, __ATOMIC_RELEASE);
        rs->user = NULL;
        oacl_obj_put(&s->obj);
    }
    for (uint32_t i = 0; i < ri->nevs; i++)
        if (ri->evs[i].e->ri_capture == ri)
            ri->evs[i].e->ri_capture = NULL;
    for (struct oacl_ri **l = &g_active; *l; l = &(*l)->cap_next) {
        if (*l == ri) {
            *l = ri->cap_next;
            break;
        }
    }
    ri->cap_next = NULL;
}

static void invalidate_locked(struct oacl_ri *ri)
{
    if (ri->state == OACL_RI_CAPTURING)
        ri->state = OACL_RI_INVALIDATED;
}

/* The private slot of event e in ri (added, with a reference, on first use). */
static struct oacl_ri_event *event_slot_locked(struct oacl_ri *ri, struct oacl_event *e)
{
    for (uint32_t i = 0; i < ri->nevs; i++)
        if (ri->evs[i].e == e)
            return &ri->evs[i];
    if (ri->nevs == ri->evcap) {
        uint32_t cap = ri->evcap ? ri->evcap * 2 : 8;
        struct oacl_ri_event *evs = realloc(ri->evs, cap * sizeof(*evs));
        if (!evs)
            return NULL;
        ri->evs = evs;
        ri->evcap = cap;
    }
    struct oacl_ri_event *v = &ri->evs[ri->nevs];
    memset(v, 0, sizeof(*v));
    v->e = e;
    v->slot = ri->nevs++;
    oacl_obj_ref(&e->obj);
    return v;
}

/* ---- hooks used by other API files ------------------------------------------------ */

aclError oacl_ri_stream_check(struct oacl_stream *s, const char *fn)
{
    if (__atomic_load_n(&s->ri_capture, __ATOMIC_ACQUIRE))
        return oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, fn, "stream %p is capturing a model running instance",
                         s->handle);
    if (s->ri_owner)
        return oacl_fail(ACL_ERROR_RT_STREAM_MODEL, fn, "stream %p belongs to a model running instance", s->handle);
    return ACL_SUCCESS;
}

static int mode_rank(aclmdlRICaptureMode m)
{
    return m == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ? 3 : m == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL ? 2 : 1;
}

aclError oacl_ri_unsafe_check(struct oacl_context *ctx, const char *fn)
{
    if (!__atomic_load_n(&g_active, __ATOMIC_ACQUIRE))
        return ACL_SUCCESS;
    int cm = 0, tm = 0;
    pthread_t me = pthread_self();
    pthread_mutex_lock(&g_lock);
    for (struct oacl_ri *ri = g_active; ri; ri = ri->cap_next) {
        if (ri->ctx != ctx)
            continue;
        int r = mode_rank(ri->mode);
        if (r > cm)
            cm = r;
        if (pthread_equal(ri->thread, me) && r > tm)
            tm = r;
    }
    pthread_mutex_unlock(&g_lock);
    bool forbidden = false;
    if (cm) {
        if (t_xmode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
            forbidden = cm == 3 || tm == 2;
        else if (t_xmode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL)
            forbidden = tm >= 2;
    }
    if (forbidden)
        return oacl_fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, fn,
                         "synchronous call forbidden by the mode of a capture in progress in this context "
                         "(aclmdlRICaptureThreadExchangeMode can relax it)");
    return ACL_SUCCESS;
}

aclError oacl_ri_ctx_check(struct oacl_context *ctx, const char *fn)
{
    if (!__atomic_load_n(&g_active, __ATOMIC_ACQUIRE))
        return ACL_SUCCESS;
    bool busy = false;
    pthread_mutex_lock(&g_lock);
    for (struct oacl_ri *ri = g_active; ri; ri = ri->cap_next)
        busy |= ri->ctx == ctx;
    pthread_mutex_unlock(&g_lock);
    if (busy)
        return oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, fn, "a stream of the current context is capturing");
    return ACL_SUCCESS;
}

void oacl_ri_note(struct oacl_stream *s, const struct oacl_ri_note *n)
{
    pthread_mutex_lock(&g_lock);
    struct oacl_ri_stream *rs = s->ri_capture ? s->ri_stream : NULL;
    uint32_t count = 0;
    if (rs)
        oacl_backend()->graph_stream_state(rs->gq, &count);
    if (rs && count) {
        if (count > rs->ncap) {
            uint32_t cap = rs->ncap ? rs->ncap : 16;
            while (cap < count)
                cap *= 2;
            struct oacl_ri_note *notes = realloc(rs->notes, cap * sizeof(*notes));
            if (notes) {
                memset(notes + rs->ncap, 0, (cap - rs->ncap) * sizeof(*notes));
                rs->notes = notes;
                rs->ncap = cap;
            }
        }
        if (count <= rs->ncap)
            rs->notes[count - 1] = *n;
    }
    pthread_mutex_unlock(&g_lock);
}

aclError oacl_ri_event_check(struct oacl_event *e, const char *fn)
{
    if (__atomic_load_n(&e->ri_capture, __ATOMIC_ACQUIRE))
        return oacl_fail(ACL_ERROR_RT_EVENT_CAPTURED, fn, "event %p was recorded in a capture in progress",
                         e->obj.handle);
    return ACL_SUCCESS;
}

/* Eager events on persistent streams would be recorded once and never run. */
static aclError persistent_event(bool *handled, const char *fn)
{
    *handled = true;
    return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s",
                     "events on persistent streams are not implemented by oacl yet");
}

aclError oacl_ri_event_record(struct oacl_stream *s, struct oacl_event *e, bool *handled, const char *fn)
{
    *handled = false;
    if (__builtin_expect(s->persist_own != NULL && !s->ri_capture, 0))
        return persistent_event(handled, fn);
    if (!__atomic_load_n(&s->ri_capture, __ATOMIC_ACQUIRE) && !__atomic_load_n(&e->ri_capture, __ATOMIC_ACQUIRE))
        return ACL_SUCCESS;
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(&g_lock);
    struct oacl_ri *ri = s->ri_capture;
    if (!ri) {
        if (e->ri_capture && s->is_default)
            rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, fn,
                           "event %p belongs to a capture and cannot be recorded on the default stream", e->obj.handle);
        else
            e->ri_capture = NULL; /* its newest record is outside any capture now */
        *handled = rc != ACL_SUCCESS;
        pthread_mutex_unlock(&g_lock);
        return rc;
    }
    *handled = true;
    struct oacl_ri_stream *rs = s->ri_stream;
    if (e->kind != EVENT_EX) {
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                       "only events from aclrtCreateEventExWithFlag can be recorded in a capture");
    } else if (e->ri_capture && e->ri_capture != ri) {
        invalidate_locked(ri);
        invalidate_locked(e->ri_capture);
        rc = oacl_fail(ACL_ERROR_STREAM_CAPTURE_CONFLICT, fn, "event %p is used by another capture", e->obj.handle);
    } else {
        struct oacl_ri_event *v = event_slot_locked(ri, e);
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = v ? oacl_backend()->graph_event_op(rs->gq, v->slot, false, err) : ACL_ERROR_RT_MEMORY_ALLOCATION;
        if (brc) {
            invalidate_locked(ri);
            rc = oacl_fail(brc, fn, "%s", v ? err : "out of memory");
        } else {
            v->recorded = true;
            e->ri_capture = ri;
            oacl_backend()->graph_stream_state(rs->gq, &rs->last_record_count);
            rs->last_record_slot = v->slot;
        }
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

aclError oacl_ri_event_wait(struct oacl_stream *s, struct oacl_event *e, bool *handled, const char *fn)
{
    *handled = false;
    if (__builtin_expect(s->persist_own != NULL && !s->ri_capture, 0))
        return persistent_event(handled, fn);
    if (!__atomic_load_n(&s->ri_capture, __ATOMIC_ACQUIRE) && !__atomic_load_n(&e->ri_capture, __ATOMIC_ACQUIRE))
        return ACL_SUCCESS;
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(&g_lock);
    struct oacl_ri *ri = s->ri_capture;
    struct oacl_ri *owner = e->ri_capture;
    if (!ri && !owner) {
        pthread_mutex_unlock(&g_lock);
        return ACL_SUCCESS;
    }
    *handled = true;
    if (!ri) {
        if (s->is_default) {
            rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, fn,
                           "event %p belongs to a capture; the default stream cannot join it", e->obj.handle);
        } else if (s->ri_owner) {
            rc = oacl_fail(ACL_ERROR_RT_STREAM_MODEL, fn, "stream %p belongs to a model running instance", s->handle);
        } else {
            /* fork: s joins the capture that recorded e */
            struct oacl_ri_stream *rs = NULL;
            rc = ri_stream_add(owner, &rs, fn);
            if (rc == ACL_SUCCESS) {
                attach_locked(s, rs);
                ri = owner;
            } else {
                invalidate_locked(owner);
            }
        }
        if (rc) {
            pthread_mutex_unlock(&g_lock);
            return rc;
        }
    }
    struct oacl_ri_stream *rs = s->ri_stream;
    if (e->kind != EVENT_EX) {
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                       "only events from aclrtCreateEventExWithFlag can be waited for in a capture");
    } else if (!owner) {
        struct oacl_event_state st;
        oacl_backend()->event_query(e->be, &st);
        if (st.recorded) /* a never-recorded Ex event counts as complete: nothing to record */
            rc = oacl_fail(ACL_ERROR_RT_CAPTURE_DEPENDENCY, fn,
                           "event %p was recorded outside the capture (use ACL_EVENT_WAIT_EXTERNAL)", e->obj.handle);
    } else if (owner != ri) {
        invalidate_locked(ri);
        invalidate_locked(owner);
        rc = oacl_fail(ACL_ERROR_STREAM_CAPTURE_CONFLICT, fn, "event %p belongs to another capture", e->obj.handle);
    } else {
        struct oacl_ri_event *v = event_slot_locked(ri, e);
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = v ? oacl_backend()->graph_event_op(rs->gq, v->slot, true, err) : ACL_ERROR_RT_MEMORY_ALLOCATION;
        if (brc) {
            invalidate_locked(ri);
            rc = oacl_fail(brc, fn, "%s", v ? err : "out of memory");
        } else {
            v->waited = true;
            if (rs->origin)
                v->waited_by_origin = true;
        }
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

aclError oacl_ri_event_external(aclrtStream stream, struct oacl_event *e, bool wait, const char *fn)
{
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    pthread_mutex_lock(&g_lock);
    struct oacl_ri *ri = s->ri_capture;
    if (!ri) {
        rc = oacl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, fn,
                       "the stream is not being captured: EXTERNAL records and waits exist only in graph capture");
    } else {
        struct oacl_ri_event *v = event_slot_locked(ri, e); /* keeps the event alive for the task */
        struct oacl_graph_ctl c = {.kind = wait ? OACL_GCTL_EXT_WAIT : OACL_GCTL_EXT_RECORD,
                                   .event = e->be, .max = v ? v->slot : 0};
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = v ? oacl_backend()->graph_ctl(s->ri_stream->gq, &c, err) : ACL_ERROR_RT_MEMORY_ALLOCATION;
        if (brc) {
            invalidate_locked(ri);
            rc = oacl_fail(brc, fn, "%s", v ? err : "out of memory");
        } else {
            v->external = true;
        }
    }
    pthread_mutex_unlock(&g_lock);
    oacl_obj_put(&s->obj);
    return rc;
}

/* ---- capture ------------------------------------------------------------------------- */

aclError oacl_ri_capture_into(struct oacl_ri *ri, struct oacl_stream *s, aclmdlRICaptureMode mode, const char *fn)
{
    pthread_mutex_lock(&g_lock);
    struct oacl_ri_stream *rs = NULL;
    aclError rc = ACL_SUCCESS;
    if (s->ri_capture)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, fn, "stream %p is already capturing", s->handle);
    else
        rc = ri_stream_add(ri, &rs, fn);
    if (rc == ACL_SUCCESS) {
        ri->state = OACL_RI_CAPTURING;
        ri->mode = mode;
        ri->thread = pthread_self();
        rs->origin = true;
        attach_locked(s, rs);
        ri->cap_next = g_active;
        __atomic_store_n(&g_active, ri, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

/* A stream argument of the capture functions: explicit, of the current
 * context, not bound to an RI, not the default stream. */
static aclError capture_stream(aclrtStream stream, struct oacl_context **ctx, struct oacl_stream **out, const char *fn)
{
    aclError rc = oacl_ctx_current(ctx, fn);
    if (rc)
        return rc;
    rc = oacl_stream_resolve(*ctx, stream, OACL_STREAM_OWN, out, fn);
    if (rc == ACL_SUCCESS) {
        if ((*out)->ri_owner)
            rc = oacl_fail(ACL_ERROR_RT_STREAM_MODEL, fn, "stream %p belongs to a model running instance", stream);
        else if ((*out)->is_default)
            rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "the default stream cannot be captured");
        if (rc)
            oacl_obj_put(&(*out)->obj);
    }
    if (rc)
        oacl_obj_put(&(*ctx)->obj);
    return rc;
}

OACL_API aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    aclError rc = oacl_ri_gate_capture(__func__);
    if (rc)
        return rc;
    if ((uint32_t)mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "mode %d is not an aclmdlRICaptureMode", (int)mode);
    struct oacl_context *ctx = NULL;
    struct oacl_stream *s = NULL;
    rc = capture_stream(stream, &ctx, &s, __func__);
    if (rc)
        return rc;
    struct oacl_ri *ri = NULL;
    if (__atomic_load_n(&s->ri_capture, __ATOMIC_ACQUIRE))
        rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, __func__, "stream %p is already capturing", stream);
    else
        rc = oacl_ri_create(ctx, &ri, __func__);
    if (rc == ACL_SUCCESS) {
        ri->kind = OACL_RI_CAPTURED;
        rc = oacl_ri_capture_into(ri, s, mode, __func__);
        if (rc)
            oacl_obj_retire(&ri->obj);
    }
    oacl_obj_put(&s->obj);
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    if (!status && !modelRI)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "status and modelRI are both NULL");
    aclError rc = oacl_ri_gate_capture(__func__);
    if (rc)
        return rc;
    struct oacl_obj *o = oacl_handle_get(stream, OACL_H_STREAM);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "stream %p is not a live stream handle", stream);
    struct oacl_stream *s = (struct oacl_stream *)o;
    pthread_mutex_lock(&g_lock);
    struct oacl_ri *ri = s->ri_capture;
    bool invalid = ri && ri->state == OACL_RI_INVALIDATED;
    for (struct oacl_ri_stream *rs = ri ? ri->streams : NULL; rs && !invalid; rs = rs->next)
        invalid = oacl_backend()->graph_stream_state(rs->gq, NULL) != ACL_SUCCESS; /* a task broke it */
    if (status)
        *status = !ri ? ACL_MODEL_RI_CAPTURE_STATUS_NONE
                  : invalid ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                            : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    if (modelRI)
        *modelRI = ri ? ri->handle : NULL;
    pthread_mutex_unlock(&g_lock);
    oacl_obj_put(o);
    return ACL_SUCCESS;
}

OACL_API aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
    if (!mode)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "mode is NULL");
    aclError rc = oacl_ri_gate_capture(__func__);
    if (rc)
        return rc;
    if ((uint32_t)*mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "mode %d is not an aclmdlRICaptureMode", (int)*mode);
    rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    aclmdlRICaptureMode old = t_xmode;
    t_xmode = *mode;
    *mode = old;
    return ACL_SUCCESS;
}

/* Why the capture of ri cannot end well (g_lock held): 0 or a code. */
static aclError end_checks_locked(struct oacl_ri *ri, const char *fn)
{
    for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next)
        if (rs->grp_open)
            return oacl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, fn, "a task group is still open");
    bool invalid = ri->state == OACL_RI_INVALIDATED;
    for (struct oacl_ri_stream *rs = ri->streams; rs && !invalid; rs = rs->next)
        invalid = oacl_backend()->graph_stream_state(rs->gq, NULL) != ACL_SUCCESS;
    if (invalid)
        return oacl_fail(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, fn,
                         "the capture was invalidated (a task could not be recorded or a capture rule was broken)");
    /* Joined streams must end with a record that was waited for, one of
       them by the origin. */
    bool joined = false, origin_joined = false;
    for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next) {
        if (rs->origin)
            continue;
        joined = true;
        uint32_t count = 0;
        oacl_backend()->graph_stream_state(rs->gq, &count);
        struct oacl_ri_event *v = NULL;
        for (uint32_t i = 0; i < ri->nevs; i++)
            if (ri->evs[i].slot == rs->last_record_slot)
                v = &ri->evs[i];
        if (count != rs->last_record_count || !v || !v->waited)
            return oacl_fail(ACL_ERROR_RT_STREAM_UNJOINED, fn,
                             "a stream that joined the capture was not joined back (its last task must be an "
                             "event record waited for by the capture)");
        origin_joined |= v->waited_by_origin;
    }
    if (joined && !origin_joined)
        return oacl_fail(ACL_ERROR_RT_STREAM_UNJOINED, fn, "the origin stream never waited for a joined stream");
    for (uint32_t i = 0; i < ri->nevs; i++)
        if (ri->evs[i].waited && !ri->evs[i].recorded)
            return oacl_fail(ACL_ERROR_RT_CAPTURE_DEPENDENCY, fn, "an event waited for in the capture was never recorded");
    return ACL_SUCCESS;
}

static int by_order(const void *a, const void *b)
{
    const uint32_t x = (*(struct oacl_ri_task *const *)a)->seq, y = (*(struct oacl_ri_task *const *)b)->seq;
    return x < y ? -1 : x > y;
}

/* Task handles of every RI stream; seq ids 0..N-1 over all of them in
 * recording order (the backend's per-graph recording counter, compacted). */
static aclError make_tasks(struct oacl_ri *ri, const char *fn)
{
    struct oacl_ri_stream *order[ri->nstreams ? ri->nstreams : 1];
    uint32_t n = 0;
    for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next)
        order[n++] = rs;
    uint32_t seq = 0;
    for (uint32_t k = n; k-- > 0;) {
        struct oacl_ri_stream *rs = order[k];
        uint32_t count = 0;
        oacl_backend()->graph_stream_state(rs->gq, &count);
        rs->tasks = calloc(count ? count : 1, sizeof(*rs->tasks));
        rs->pending_disable = calloc(count ? count : 1, 1);
        if (!rs->tasks || !rs->pending_disable)
            return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for task handles");
        for (uint32_t i = 0; i < count; i++) {
            struct oacl_ri_task *t = calloc(1, sizeof(*t));
            if (!t)
                return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for task handles");
            t->ri = ri;
            t->rs = rs;
            t->index = i;
            struct oacl_graph_task_info info;
            oacl_backend()->graph_task_info(rs->gq, i, &info);
            t->seq = info.order; /* compacted below */
            t->handle = oacl_handle_create(&t->obj, OACL_H_RI_TASK, task_destroy);
            if (!t->handle) {
                free(t);
                return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "handle table exhausted");
            }
            rs->tasks[rs->ntasks++] = t;
            seq++;
        }
    }
    struct oacl_ri_task **all = malloc((seq ? seq : 1) * sizeof(*all));
    if (!all)
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for task handles");
    uint32_t m = 0;
    for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next)
        for (uint32_t i = 0; i < rs->ntasks; i++)
            all[m++] = rs->tasks[i];
    qsort(all, m, sizeof(*all), by_order);
    for (uint32_t i = 0; i < m; i++)
        all[i]->seq = i;
    free(all);
    return ACL_SUCCESS;
}

OACL_API aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    aclError rc = oacl_ri_gate_capture(__func__);
    if (rc)
        return rc;
    struct oacl_context *ctx = NULL;
    struct oacl_stream *s = NULL;
    rc = capture_stream(stream, &ctx, &s, __func__);
    if (rc) {
        if (modelRI)
            *modelRI = NULL;
        return rc;
    }
    struct oacl_ri *drop = NULL, *done = NULL;
    pthread_mutex_lock(&g_lock);
    struct oacl_ri *ri = s->ri_capture;
    bool sub = ri && ri->kind == OACL_RI_SUB; /* the result pointer is optional then */
    if (!modelRI && !sub) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "modelRI is NULL");
    } else if (!ri) {
        rc = oacl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, __func__, "stream %p is not capturing", stream);
    } else if (!s->ri_stream->origin) {
        rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, __func__,
                       "stream %p only joined the capture; end it on the stream where it began", stream);
    } else if (ri->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && !pthread_equal(ri->thread, pthread_self())) {
        rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, __func__,
                       "the capture began on another thread (only RELAXED captures may end elsewhere); "
                       "the capture is abandoned");
        end_capture_locked(ri);
        drop = ri;
    } else {
        rc = end_checks_locked(ri, __func__);
        if (rc == ACL_SUCCESS && !oacl_ri_subs_captured(ri))
            rc = oacl_fail(ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING, __func__,
                           "a branch of a conditional task has not finished its capture");
        end_capture_locked(ri);
        if (rc)
            drop = ri;
        else
            done = ri;
    }
    if (sub && (drop || done)) { /* a sub-RI stays with its parent; a failed capture may be redone */
        ri->sub_state = done ? 2 : 0;
        ri->state = done ? OACL_RI_READY : OACL_RI_CAPTURING;
        for (struct oacl_ri_stream *rs = done ? NULL : ri->streams; rs; rs = rs->next)
            oacl_backend()->graph_stream_clear(rs->gq);
        if (done && modelRI)
            *modelRI = done->handle;
        drop = done = NULL;
    }
    pthread_mutex_unlock(&g_lock);
    if (done) {
        rc = make_tasks(done, __func__);
        if (rc) {
            drop = done;
        } else {
            pthread_mutex_lock(&done->lock);
            done->state = OACL_RI_READY;
            pthread_mutex_unlock(&done->lock);
            *modelRI = done->handle;
        }
    }
    if (drop) {
        oacl_obj_retire(&drop->obj);
        if (modelRI)
            *modelRI = NULL;
    } else if (rc && modelRI && !sub) {
        *modelRI = NULL;
    }
    oacl_obj_put(&s->obj);
    oacl_obj_put(&ctx->obj);
    return rc;
}

/* Sub-RIs run only as part of their parent (207000); drops the reference. */
static aclError refuse_sub(struct oacl_ri *ri, const char *fn)
{
    if (ri->kind != OACL_RI_SUB)
        return ACL_SUCCESS;
    oacl_obj_put(&ri->obj);
    return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s",
                     "the model running instance is a branch of a conditional task; it runs only with its parent");
}

/* ---- execution and lifetime ------------------------------------------------------------ */

OACL_API aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)
{
    if (!modelRI)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "modelRI is NULL");
    aclError rc = oacl_ri_gate_capture(__func__);
    if (rc)
        return rc;
    struct oacl_ri *ri = NULL;
    rc = oacl_ri_get_ctx(modelRI, true, &ri, __func__);
    if (rc)
        return rc;
    if ((rc = refuse_sub(ri, __func__)) != ACL_SUCCESS)
        return rc;
    struct oacl_stream *s = NULL;
    rc = oacl_stream_resolve(ri->ctx, stream, OACL_STREAM_ENQUEUE, &s, __func__);
    if (rc) {
        oacl_obj_put(&ri->obj);
        return rc;
    }
    if (s->ri_owner || (s->flags & ACL_STREAM_PERSISTENT))
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "stream %p belongs to a model running instance or is persistent", stream);
    else if (__atomic_load_n(&s->ri_capture, __ATOMIC_ACQUIRE))
        rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, __func__,
                       "stream %p is capturing (a graph cannot be launched inside a capture)", stream);
    if (rc == ACL_SUCCESS) {
        pthread_mutex_lock(&ri->lock);
        enum oacl_ri_state st = ri->state;
        pthread_mutex_unlock(&ri->lock);
        pthread_mutex_lock(&g_lock);
        bool ended = ri->kind != OACL_RI_BUILT || ri->end_rs;
        bool recorded = true; /* bound streams whose tasks could all be recorded */
        for (struct oacl_ri_stream *rs = ri->streams; rs && ri->kind == OACL_RI_BUILT; rs = rs->next)
            recorded &= oacl_backend()->graph_stream_state(rs->gq, NULL) == ACL_SUCCESS;
        pthread_mutex_unlock(&g_lock);
        if (st == OACL_RI_CAPTURING || st == OACL_RI_INVALIDATED)
            rc = oacl_fail(ACL_ERROR_RT_MODEL_CAPTURED, __func__, "modelRI %p is being captured", modelRI);
        else if (st == OACL_RI_BUILDING || !ended)
            rc = oacl_fail(ACL_ERROR_RT_MODEL_EXECUTE, __func__,
                           "modelRI %p is not executable (no end task, or aclmdlRIBuildEnd not called)", modelRI);
        else if (!recorded)
            rc = oacl_fail(ACL_ERROR_RT_MODEL_EXECUTE, __func__,
                           "a task enqueued on a bound stream of modelRI %p could not be recorded (host functions and "
                           "events are not recordable on persistent streams yet)", modelRI);
        else if (st != OACL_RI_READY)
            rc = oacl_fail(ACL_ERROR_RT_MODEL_EXECUTE, __func__,
                           "modelRI %p is not executable (%s)", modelRI,
                           st == OACL_RI_UPDATING ? "task edits wait for aclmdlRIUpdate" : "a task edit failed");
    }
    if (rc == ACL_SUCCESS) {
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->graph_exec(s->queue, ri->g, err);
        if (brc)
            rc = oacl_fail(brc, __func__, "%s", err);
    }
    oacl_obj_put(&s->obj);
    oacl_obj_put(&ri->obj);
    return rc;
}

OACL_API aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)
{
    if (!modelRI)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "modelRI is NULL");
    if (timeout == 0 || timeout < -1)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "timeout %d is neither -1 (no limit) nor > 0 ms",
                         timeout);
    struct oacl_ri *ri = NULL;
    aclError rc = oacl_ri_get_ctx(modelRI, true, &ri, __func__);
    if (rc)
        return rc;
    if (ri->kind != OACL_RI_BUILT) {
        oacl_obj_put(&ri->obj);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "modelRI %p was captured; aclmdlRIExecute runs built instances (use aclmdlRIExecuteAsync)",
                         modelRI);
    }
    /* on the default stream of its context, waited for with the timeout */
    rc = aclmdlRIExecuteAsync(modelRI, NULL);
    if (rc == ACL_SUCCESS) {
        struct oacl_stream *ds = ri->ctx->default_stream;
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->queue_sync(ds->queue, timeout < 0 ? -1 : (int64_t)timeout * 1000000, err);
        if (brc == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
            oacl_backend()->graph_abort(ri->g); /* Decision 23: the abort's own 507023 is not reported */
            oacl_backend()->queue_sync(ds->queue, -1, err);
            rc = oacl_fail(brc, __func__, "modelRI %p still executing after %d ms: aborted", modelRI, timeout);
        } else if (brc) {
            oacl_device_note_fault(ri->ctx->dev, brc);
            rc = oacl_fail(brc, __func__, "%s", err);
        }
    }
    oacl_obj_put(&ri->obj);
    return rc;
}

OACL_API aclError aclmdlRIAbort(aclmdlRI modelRI)
{
    struct oacl_ri *ri = NULL;
    aclError rc = oacl_ri_get_ctx(modelRI, false, &ri, __func__);
    if (rc)
        return rc;
    if ((rc = refuse_sub(ri, __func__)) != ACL_SUCCESS)
        return rc;
    oacl_backend()->graph_abort(ri->g);
    oacl_obj_put(&ri->obj);
    return ACL_SUCCESS;
}

static int cb_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct oacl_ri_cb *)a)->fn, y = (uintptr_t)((const struct oacl_ri_cb *)b)->fn;
    return x < y ? -1 : x > y;
}

#define DESTROY_WAIT_NS (10ll * 1000000000ll)

/* The destroy callbacks, once, in ascending function address order. */
static void run_callbacks(struct oacl_ri *ri)
{
    pthread_mutex_lock(&ri->lock);
    uint32_t n = ri->ncbs;
    struct oacl_ri_cb *cbs = ri->cbs;
    ri->cbs = NULL;
    ri->ncbs = 0;
    pthread_mutex_unlock(&ri->lock);
    if (n)
        qsort(cbs, n, sizeof(*cbs), cb_cmp);
    for (uint32_t i = 0; i < n; i++)
        cbs[i].fn(cbs[i].ud);
    free(cbs);
}

OACL_API aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
    struct oacl_ri *ri = NULL;
    aclError rc = oacl_ri_get_ctx(modelRI, true, &ri, __func__);
    if (rc)
        return rc;
    if ((rc = refuse_sub(ri, __func__)) != ACL_SUCCESS)
        return rc;
    pthread_mutex_lock(&ri->lock);
    enum oacl_ri_state st = ri->state;
    pthread_mutex_unlock(&ri->lock);
    if (st == OACL_RI_CAPTURING || st == OACL_RI_INVALIDATED) {
        oacl_obj_put(&ri->obj);
        return oacl_fail(ACL_ERROR_RT_MODEL_CAPTURED, __func__, "modelRI %p is being captured", modelRI);
    }
    /* executions in flight: wait for them, up to 10 s */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (oacl_backend()->graph_busy(ri->g)) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - t0.tv_sec) * 1000000000ll + (now.tv_nsec - t0.tv_nsec) > DESTROY_WAIT_NS) {
            oacl_obj_put(&ri->obj);
            return oacl_fail(ACL_ERROR_RT_MODEL_RUNNING, __func__, "modelRI %p is still executing after 10 s",
                             modelRI);
        }
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    if (!oacl_obj_retire(&ri->obj)) {
        oacl_obj_put(&ri->obj);
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "modelRI %p was destroyed concurrently", modelRI);
    }
    run_callbacks(ri);
    oacl_obj_put(&ri->obj);
    return ACL_SUCCESS;
}

void oacl_ri_context_teardown(struct oacl_context *ctx)
{
    for (;;) {
        pthread_mutex_lock(&g_lock);
        pthread_mutex_lock(&g_all_lock);
        struct oacl_ri *ri = g_all;
        while (ri && (ri->ctx != ctx || ri->kind == OACL_RI_SUB || ri->dying ||
                      __atomic_load_n(&ri->obj.refs, __ATOMIC_ACQUIRE) == 0)) /* being freed */
            ri = ri->all_next;
        if (ri) {
            ri->dying = true;
            oacl_obj_ref(&ri->obj);
        }
        pthread_mutex_unlock(&g_all_lock);
        if (ri) {
            if (ri->state == OACL_RI_CAPTURING || ri->state == OACL_RI_INVALIDATED)
                end_capture_locked(ri); /* a capture in progress is abandoned */
        }
        pthread_mutex_unlock(&g_lock);
        if (!ri)
            return;
        while (oacl_backend()->graph_busy(ri->g)) { /* no limit at teardown (Decision 24) */
            struct timespec ts = {0, 100000};
            nanosleep(&ts, NULL);
        }
        if (oacl_obj_retire(&ri->obj))
            run_callbacks(ri);
        oacl_obj_put(&ri->obj);
    }
}

OACL_API aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData)
{
    struct oacl_ri *ri = NULL;
    aclError rc = oacl_ri_get(modelRI, false, &ri, __func__);
    if (rc)
        return rc;
    if ((rc = refuse_sub(ri, __func__)) != ACL_SUCCESS)
        return rc;
    if (!func) {
        oacl_obj_put(&ri->obj);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "func is NULL");
    }
    pthread_mutex_lock(&ri->lock);
    for (uint32_t i = 0; i < ri->ncbs && !rc; i++)
        if (ri->cbs[i].fn == func)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "func is already registered");
    if (!rc) {
        struct oacl_ri_cb *cbs = realloc(ri->cbs, (ri->ncbs + 1) * sizeof(*cbs));
        if (!cbs) {
            rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
        } else {
            cbs[ri->ncbs].fn = func;
            cbs[ri->ncbs].ud = userData;
            ri->cbs = cbs;
            ri->ncbs++;
        }
    }
    pthread_mutex_unlock(&ri->lock);
    oacl_obj_put(&ri->obj);
    return rc;
}

OACL_API aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func)
{
    struct oacl_ri *ri = NULL;
    aclError rc = oacl_ri_get(modelRI, false, &ri, __func__);
    if (rc)
        return rc;
    if ((rc = refuse_sub(ri, __func__)) != ACL_SUCCESS)
        return rc;
    if (!func) {
        oacl_obj_put(&ri->obj);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "func is NULL");
    }
    rc = ACL_ERROR_RT_PARAM_INVALID;
    pthread_mutex_lock(&ri->lock);
    for (uint32_t i = 0; i < ri->ncbs; i++) {
        if (ri->cbs[i].fn == func) {
            ri->cbs[i] = ri->cbs[--ri->ncbs];
            rc = ACL_SUCCESS;
            break;
        }
    }
    pthread_mutex_unlock(&ri->lock);
    oacl_obj_put(&ri->obj);
    if (rc)
        return oacl_fail(rc, __func__, "func is not registered");
    return ACL_SUCCESS;
}

/* ---- name and id --------------------------------------------------------------------- */

OACL_API aclError aclmdlRISetName(aclmdlRI modelRI, const char *name)
{
    if (!modelRI || !name)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", modelRI ? "name" : "modelRI");
    struct oacl_ri *ri = NULL;
    aclError rc = oacl_ri_get_ctx(modelRI, true, &ri, __func__);
    if (rc)
        return rc;
    char *copy = strdup(name);
    if (!copy) {
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    } else {
        pthread_mutex_lock(&ri->lock);
        free(ri->name);
        ri->name = copy;
        pthread_mutex_unlock(&ri->lock);
    }
    oacl_obj_put(&ri->obj);
    return rc;
}

OACL_API aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name)
{
    if (!modelRI || !name)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", modelRI ? "name" : "modelRI");
    if (maxLen == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "maxLen is 0");
    struct oacl_ri *ri = NULL;
    aclError rc = oacl_ri_get_ctx(modelRI, true, &ri, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&ri->lock);
    const char *n = ri->name ? ri->name : "";
    size_t len = strlen(n);
    if (len + 1 > maxLen)
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "the name needs %zu bytes, the buffer has %u", len + 1,
                       maxLen);
    else
        memcpy(name, n, len + 1);
    pthread_mutex_unlock(&ri->lock);
    oacl_obj_put(&ri->obj);
    return rc;
}

OACL_API aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId)
{
    if (!modelRI || !modelRIId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", modelRI ? "modelRIId" : "modelRI");
    aclError rc = oacl_ri_gate_capture(__func__);
    if (rc)
        return rc;
    struct oacl_ri *ri = NULL;
    rc = oacl_ri_get(modelRI, true, &ri, __func__);
    if (rc)
        return rc;
    *modelRIId = ri->id;
    oacl_obj_put(&ri->obj);
    return ACL_SUCCESS;
}
