/*
 * Task groups and update by re-capture (acl-rt-model-ri.md §3.2).
 *
 * A group is a run of kernel tasks of one RI stream recorded between
 * aclmdlRICaptureTaskGrpBegin and End (the recording queue refuses other
 * tasks meanwhile, which breaks the capture with 507009). In update mode a
 * stream's i-th kernel launch builds the replacement of the group's i-th
 * task at once (staged in the RI stream's recording queue) and queues, in
 * the updating stream's order, a patch task that installs it.
 */
#include <stdlib.h>

#include "runtime/model_ri.h"

static void grp_free(struct oacl_obj *o) { free(o); }

struct oacl_ri_grp *oacl_ri_group_of(struct oacl_ri_stream *rs, uint32_t index)
{
    for (struct oacl_ri_grp *g = rs->ri->grps; g; g = g->next)
        if (g->rs == rs && index >= g->start && index < g->start + g->count)
            return g;
    return NULL;
}

void oacl_ri_groups_free(struct oacl_ri *ri)
{
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri_grp *g = ri->grps;
    ri->grps = NULL;
    for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next) {
        if (rs->grp_open) { /* an abandoned capture */
            oacl_obj_put(&rs->grp_open->obj);
            rs->grp_open = NULL;
        }
    }
    pthread_mutex_unlock(oacl_ri_lock());
    while (g) {
        struct oacl_ri_grp *next = g->next;
        oacl_handle_retire(g->handle, OACL_H_TASK_GRP);
        g = next;
    }
}

/* A capturing stream of the current context (+1 stream; g_lock taken). */
static aclError capturing(aclrtStream stream, struct oacl_stream **out, const char *fn)
{
    aclError rc = oacl_ri_gate_capture(fn);
    if (rc)
        return rc;
    rc = oacl_stream_arg(stream, OACL_STREAM_OWN, out, fn);
    if (rc)
        return rc;
    pthread_mutex_lock(oacl_ri_lock());
    if (!(*out)->ri_capture) {
        pthread_mutex_unlock(oacl_ri_lock());
        oacl_obj_put(&(*out)->obj);
        return oacl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, fn, "stream %p is not capturing", stream);
    }
    return ACL_SUCCESS;
}

OACL_API aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    struct oacl_stream *s = NULL;
    aclError rc = capturing(stream, &s, __func__);
    if (rc)
        return rc;
    struct oacl_ri_stream *rs = s->ri_stream;
    struct oacl_ri_grp *g = NULL;
    if (rs->grp_open)
        rc = oacl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, __func__, "a task group is open on the stream already");
    else if (!(g = calloc(1, sizeof(*g))))
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    if (rc == ACL_SUCCESS) {
        g->obj.refs = 1;
        g->obj.destroy = grp_free;
        g->ri = rs->ri;
        g->rs = rs;
        oacl_backend()->graph_stream_state(rs->gq, &g->start);
        rs->grp_open = g;
        oacl_backend()->graph_group(rs->gq, true);
    }
    pthread_mutex_unlock(oacl_ri_lock());
    oacl_obj_put(&s->obj);
    return rc;
}

OACL_API aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle)
{
    if (!stream || !handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", stream ? "handle" : "stream");
    *handle = NULL;
    struct oacl_stream *s = NULL;
    aclError rc = capturing(stream, &s, __func__);
    if (rc)
        return rc;
    struct oacl_ri_stream *rs = s->ri_stream;
    struct oacl_ri_grp *g = rs->grp_open;
    if (!g) {
        rc = oacl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, __func__, "no task group is open on the stream");
    } else {
        rs->grp_open = NULL; /* closed in every case */
        oacl_backend()->graph_group(rs->gq, false);
        uint32_t count = 0;
        int err = oacl_backend()->graph_stream_state(rs->gq, &count);
        if (rs->grp_error)
            err = rs->grp_error;
        rs->grp_error = 0;
        for (struct oacl_ri_stream *o = rs->ri->streams; o && !err; o = o->next)
            if (oacl_backend()->graph_stream_state(o->gq, NULL) != ACL_SUCCESS)
                err = ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED; /* broken on another stream */
        if (err == ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT)
            rc = oacl_fail(err, __func__, "a task of another kind than a kernel was recorded in the group");
        else if (err == ACL_ERROR_STREAM_TASK_GROUP_INTR)
            rc = oacl_fail(err, __func__, "another stream of the capture recorded a task while the group was open");
        else if (err || rs->ri->state == OACL_RI_INVALIDATED)
            rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, __func__, "the capture was invalidated");
        if (rc == ACL_SUCCESS) {
            g->count = count - g->start;
            g->obj.refs = 0; /* the handle table takes the reference */
            g->handle = oacl_handle_create(&g->obj, OACL_H_TASK_GRP, grp_free);
            if (!g->handle) {
                rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "handle table exhausted");
                free(g);
            } else {
                g->next = rs->ri->grps;
                rs->ri->grps = g;
                *handle = g->handle;
            }
        } else {
            free(g);
        }
    }
    pthread_mutex_unlock(oacl_ri_lock());
    oacl_obj_put(&s->obj);
    return rc;
}

/* An ordinary stream for update mode (+1 stream; g_lock taken). */
static aclError update_stream(aclrtStream stream, struct oacl_stream **out, const char *fn)
{
    aclError rc = oacl_ri_gate_capture(fn);
    if (rc)
        return rc;
    rc = oacl_stream_arg(stream, OACL_STREAM_OWN, out, fn);
    if (rc)
        return rc;
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_stream *s = *out;
    if (s->ri_capture)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, fn, "stream %p is capturing", stream);
    else if (s->ri_owner || (s->flags & ACL_STREAM_PERSISTENT))
        rc = oacl_fail(ACL_ERROR_RT_STREAM_MODEL, fn, "stream %p belongs to a model running instance", stream);
    if (rc) {
        pthread_mutex_unlock(oacl_ri_lock());
        oacl_obj_put(&s->obj);
    }
    return rc;
}

OACL_API aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
    if (!stream || !handle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", stream ? "handle" : "stream");
    struct oacl_stream *s = NULL;
    aclError rc = update_stream(stream, &s, __func__);
    if (rc)
        return rc;
    struct oacl_ri_grp *g = (struct oacl_ri_grp *)oacl_handle_get(handle, OACL_H_TASK_GRP);
    if (!g)
        rc = oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "handle %p is not a live task group", handle);
    else if (s->ri_update)
        rc = oacl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, __func__, "the stream is in update mode already");
    else if (g->updater)
        rc = oacl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, __func__, "another stream is updating the group");
    if (rc == ACL_SUCCESS) {
        g->updater = s;
        s->ri_update = g; /* keeps the reference taken above */
        s->ri_update_n = 0;
        g = NULL;
    }
    pthread_mutex_unlock(oacl_ri_lock());
    if (g)
        oacl_obj_put(&g->obj);
    oacl_obj_put(&s->obj);
    return rc;
}

OACL_API aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    struct oacl_stream *s = NULL;
    aclError rc = update_stream(stream, &s, __func__);
    if (rc)
        return rc;
    struct oacl_ri_grp *g = s->ri_update;
    if (!g) {
        rc = oacl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, __func__, "the stream is not in update mode");
    } else {
        if (s->ri_update_n != g->count)
            rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, __func__, "%u launches replaced a group of %u tasks",
                           s->ri_update_n, g->count);
        g->updater = NULL; /* update mode ends in every case */
        s->ri_update = NULL;
    }
    pthread_mutex_unlock(oacl_ri_lock());
    if (g)
        oacl_obj_put(&g->obj);
    oacl_obj_put(&s->obj);
    return rc;
}

/* The stream of s's capture other than s's own that has a task group open
 * (g_lock held), or NULL. */
static struct oacl_ri_stream *other_group_locked(const struct oacl_stream *s)
{
    struct oacl_ri_stream *own = s->ri_stream;
    for (struct oacl_ri_stream *rs = own ? own->ri->streams : NULL; rs; rs = rs->next)
        if (rs != own && rs->grp_open)
            return rs;
    return NULL;
}

aclError oacl_ri_enqueue_check(struct oacl_stream *s, bool launch, const char *fn)
{
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri_stream *other = NULL;
    if (s->ri_capture && s->ri_stream && !s->ri_stream->grp_open &&
        s->ri_stream->ri->state == OACL_RI_CAPTURING && (other = other_group_locked(s)) != NULL) {
        /* §3.2: while a group is open, streams without one take nothing;
           once the capture is broken its enqueues succeed again (§3.1.10) */
        other->grp_error = ACL_ERROR_STREAM_TASK_GROUP_INTR;
        s->ri_stream->ri->state = OACL_RI_INVALIDATED;
        rc = oacl_fail(ACL_ERROR_STREAM_TASK_GROUP_INTR, fn,
                       "a task group is open on stream %p of the same capture: stream %p may record nothing until "
                       "it is closed",
                       other->user ? other->user->handle : other->handle, s->handle);
    } else if (!launch && s->ri_update) {
        rc = oacl_fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, fn,
                       "stream %p is in task-update mode: only kernel launches may be enqueued", s->handle);
    } else if (!launch && s->ri_capture && s->ri_stream && s->ri_stream->grp_open) {
        struct oacl_ri_stream *rs = s->ri_stream;
        rs->grp_error = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT;
        if (rs->ri->state == OACL_RI_CAPTURING)
            rs->ri->state = OACL_RI_INVALIDATED; /* the capture is broken */
        rc = oacl_fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, fn,
                       "a task group is open on stream %p: only kernel launches may be recorded", s->handle);
    }
    pthread_mutex_unlock(oacl_ri_lock());
    return rc;
}

aclError oacl_ri_update_launch(struct oacl_stream *s, const struct oacl_launch *l, const char *fn)
{
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(oacl_ri_lock());
    struct oacl_ri_grp *g = s->ri_update;
    if (!g) {
        pthread_mutex_unlock(oacl_ri_lock());
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = oacl_backend()->queue_launch(s->queue, l, err); /* update mode ended meanwhile */
        return brc ? oacl_fail(brc, fn, "%s", err) : ACL_SUCCESS;
    }
    if (s->ri_update_n >= g->count) {
        rc = oacl_fail(ACL_ERROR_RT_INTERNAL_ERROR, fn, "the task group has only %u tasks", g->count);
    } else {
        uint32_t index = g->start + s->ri_update_n;
        struct oacl_queue *gq = g->rs->gq;
        char err[OACL_BACKEND_ERRLEN] = "";
        oacl_backend()->graph_task_pending(gq, (int32_t)index);
        int brc = oacl_backend()->queue_launch(gq, l, err);
        oacl_backend()->graph_task_pending(gq, -1);
        if (brc == ACL_SUCCESS)
            brc = oacl_backend()->queue_graph_patch(s->queue, gq, index, err);
        if (brc) {
            rc = oacl_fail(brc, fn, "%s", err);
        } else {
            s->ri_update_n++;
            if (index < g->rs->ncap) /* what the task now launches */
                g->rs->notes[index].args_size = l->args_size;
        }
    }
    pthread_mutex_unlock(oacl_ri_lock());
    return rc;
}
