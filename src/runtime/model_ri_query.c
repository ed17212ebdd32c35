/*
 * Model running instances: inspection, editing and debug output
 * (acl-rt-model-ri.md §3.7, §3.8). The task lists hold exactly the tasks
 * the program recorded (Decision 2); a task's id is its position on its RI
 * stream.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/trace.h"
#include "runtime/event.h"
#include "runtime/model_ri.h"

/* The stream id of an RI stream: its RI-internal stream, or the bound one. */
static int32_t rs_id(const struct oacl_ri_stream *rs) { return rs->internal ? rs->internal->id : rs->user->id; }

static aclmdlRITaskType task_type(uint8_t tt)
{
    switch (tt) {
    case OACL_TT_KERNEL_AIVEC:
    case OACL_TT_KERNEL_AICORE:
        return ACL_MODEL_RI_TASK_KERNEL;
    case OACL_TT_EVENT_RECORD:
        return ACL_MODEL_RI_TASK_EVENT_RECORD;
    case OACL_TT_EVENT_WAIT:
        return ACL_MODEL_RI_TASK_EVENT_WAIT;
    case OACL_TT_EVENT_RESET:
        return ACL_MODEL_RI_TASK_EVENT_RESET;
    case OACL_TT_VALUE_WRITE:
        return ACL_MODEL_RI_TASK_VALUE_WRITE;
    case OACL_TT_VALUE_WAIT:
        return ACL_MODEL_RI_TASK_VALUE_WAIT;
    default:
        return ACL_MODEL_RI_TASK_DEFAULT;
    }
}

/* The type names of the debug output (§3.8). */
static const char *type_name(uint8_t tt)
{
    switch (tt) {
    case OACL_TT_KERNEL_AIVEC:
        return "KERNEL_AIVEC";
    case OACL_TT_KERNEL_AICORE:
        return "KERNEL_AICORE";
    case OACL_TT_MEMCPY:
    case OACL_TT_REDUCE: /* a reducing copy */
        return "MEMCPY_ASYNC";
    case OACL_TT_MEMSET:
        return "MEMSET_ASYNC";
    case OACL_TT_EVENT_RECORD:
        return "EVENT_RECORD";
    case OACL_TT_EVENT_WAIT:
        return "EVENT_WAIT";
    case OACL_TT_EVENT_RESET:
        return "EVENT_RESET";
    case OACL_TT_NOTIFY_RECORD:
        return "NOTIFY_RECORD";
    case OACL_TT_NOTIFY_WAIT:
        return "NOTIFY_WAIT";
    case OACL_TT_VALUE_WRITE:
        return "MEM_WRITE_VALUE";
    case OACL_TT_VALUE_WAIT:
        return "MEM_WAIT_VALUE";
    case OACL_TT_HOSTFUNC:
        return "HOSTFUNC_CALLBACK";
    case OACL_TT_RANDOM:
        return "RANDOM_NUM";
    case OACL_TT_CMO:
        return "CMO";
    case OACL_TT_PREFETCH:
        return "MEM_PREFETCH";
    default:
        return "DEFAULT";
    }
}

/* Type names of control tasks. */
static const char *ctl_name(uint32_t ctl)
{
    switch (ctl) {
    case OACL_GCTL_END:
        return "MODEL_END_GRAPH";
    case OACL_GCTL_LABEL:
        return "LABEL_SET";
    case OACL_GCTL_SWITCH_INDEX:
        return "STREAM_LABEL_SWITCH_BY_INDEX";
    case OACL_GCTL_SWITCH_STREAM:
        return "STREAM_SWITCH";
    case OACL_GCTL_EXT_RECORD:
        return "EVENT_RECORD";
    case OACL_GCTL_EXT_WAIT:
        return "EVENT_WAIT";
    case OACL_GCTL_COND:
        return "CONDITION_OP";
    default:
        return "STREAM_ACTIVE";
    }
}

static aclError task_get(aclmdlRITask task, struct oacl_ri_task **out, struct oacl_graph_task_info *info,
                         const char *fn);

/* task_get for the calls that work on captured RIs only (207000 for a task
 * of a built RI). */
static aclError captured_task(aclmdlRITask task, struct oacl_ri_task **out, struct oacl_graph_task_info *info,
                              const char *fn)
{
    aclError rc = task_get(task, out, info, fn);
    if (rc == ACL_SUCCESS && (*out)->ri->kind == OACL_RI_BUILT) {
        oacl_obj_put(&(*out)->obj);
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "task %p belongs to a built model running instance",
                         task);
    }
    return rc;
}

/* The live task behind a handle (+1) and its recorded description. */
static aclError task_get(aclmdlRITask task, struct oacl_ri_task **out, struct oacl_graph_task_info *info,
                         const char *fn)
{
    if (!task)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "task is NULL");
    struct oacl_obj *o = oacl_handle_get(task, OACL_H_RI_TASK);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "task %p is not a live task of a model running instance",
                         task);
    struct oacl_ri_task *t = (struct oacl_ri_task *)o;
    if (info)
        oacl_backend()->graph_task_info(t->rs->gq, t->index, info);
    *out = t;
    return ACL_SUCCESS;
}

/* Two-call array pattern of GetStreams / GetTasksByStream. */
static aclError fill_array(void **dst, uint32_t *num, void *const *src, uint32_t count, const char *what,
                           const char *fn)
{
    if (!dst) {
        *num = count;
        return ACL_SUCCESS;
    }
    uint32_t cap = *num, n = cap < count ? cap : count;
    for (uint32_t i = 0; i < cap; i++)
        dst[i] = i < n ? src[i] : NULL;
    *num = n;
    if (n < count)
        return oacl_fail(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, fn, "the array holds %u %s of %u", cap, what, count);
    return ACL_SUCCESS;
}

OACL_API aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams)
{
    if (!numStreams)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "numStreams is NULL");
    if (!modelRI)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "modelRI is NULL");
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    struct oacl_ri *ri = NULL;
    rc = oacl_ri_get_ctx(modelRI, false, &ri, __func__);
    if (rc)
        return rc;
    if (ri->kind == OACL_RI_SUB) {
        oacl_obj_put(&ri->obj);
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "modelRI %p is a branch of a conditional task",
                         modelRI);
    }
    pthread_mutex_lock(oacl_ri_lock());
    void *v[ri->nstreams ? ri->nstreams : 1];
    uint32_t n = 0;
    for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next)
        v[n++] = rs->handle;
    pthread_mutex_unlock(oacl_ri_lock());
    rc = fill_array(streams, numStreams, v, n, "streams", __func__);
    oacl_obj_put(&ri->obj);
    return rc;
}

OACL_API aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "stream is NULL");
    if (!numTasks)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "numTasks is NULL");
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    struct oacl_obj *o = oacl_handle_get(stream, OACL_H_STREAM);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "stream %p is not a live stream handle", stream);
    struct oacl_stream *s = (struct oacl_stream *)o;
    struct oacl_ri *ri = s->ri_owner;
    struct oacl_ri_stream *rs = ri ? s->ri_stream : NULL;
    pthread_mutex_lock(oacl_ri_lock());
    if (rs && ri->kind == OACL_RI_BUILT)
        rc = oacl_ri_sync_tasks(rs, __func__);
    pthread_mutex_unlock(oacl_ri_lock());
    if (rc) {
        ;
    } else if (ri && ri->kind == OACL_RI_SUB) {
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "stream %p belongs to a branch of a conditional task",
                       stream);
    } else if (!rs || !rs->tasks) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "stream %p is not a stream of a finished model running instance (aclmdlRIGetStreams)", stream);
    } else {
        void *v[rs->ntasks ? rs->ntasks : 1];
        for (uint32_t i = 0; i < rs->ntasks; i++)
            v[i] = rs->tasks[i]->handle;
        rc = fill_array(tasks, numTasks, v, rs->ntasks, "tasks", __func__);
    }
    oacl_obj_put(o);
    return rc;
}

OACL_API aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type)
{
    if (!type)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "type is NULL");
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    struct oacl_ri_task *t = NULL;
    struct oacl_graph_task_info info;
    rc = task_get(task, &t, &info, __func__);
    if (rc)
        return rc;
    *type = task_type(info.trace_type);
    oacl_obj_put(&t->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id)
{
    if (!id)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "id is NULL");
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    struct oacl_ri_task *t = NULL;
    rc = captured_task(task, &t, NULL, __func__);
    if (rc)
        return rc;
    *id = t->seq;
    oacl_obj_put(&t->obj);
    return ACL_SUCCESS;
}

static aclrtEvent slot_event(struct oacl_ri *ri, uint32_t slot, uint32_t *flags)
{
    aclrtEvent h = NULL;
    pthread_mutex_lock(oacl_ri_lock());
    for (uint32_t i = 0; i < ri->nevs; i++) {
        if (ri->evs[i].slot == slot) {
            h = ri->evs[i].e->obj.handle;
            *flags = ri->evs[i].e->flags;
        }
    }
    pthread_mutex_unlock(oacl_ri_lock());
    return h;
}

static const struct oacl_ri_note *task_note(const struct oacl_ri_task *t)
{
    static const struct oacl_ri_note none;
    return t->index < t->rs->ncap ? &t->rs->notes[t->index] : &none;
}

OACL_API aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
    if (!params)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "params is NULL");
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    struct oacl_ri_task *t = NULL;
    struct oacl_graph_task_info info;
    rc = captured_task(task, &t, &info, __func__);
    if (rc)
        return rc;
    aclmdlRITaskType type = task_type(info.trace_type);
    const struct oacl_ri_note *n = task_note(t);
    if (type == ACL_MODEL_RI_TASK_DEFAULT) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "task %p is of type DEFAULT: it has no parameters", task);
    } else {
        memset(params, 0, sizeof(*params));
        params->type = type;
        pthread_mutex_lock(oacl_ri_lock());
        struct oacl_ri_grp *grp = oacl_ri_group_of(t->rs, t->index);
        params->taskGrp = grp ? grp->handle : NULL;
        if (t->index < t->rs->nopinfo) { /* aclrtCacheLastTaskOpInfo */
            params->opInfoPtr = t->rs->opinfo[t->index].ptr;
            params->opInfoSize = t->rs->opinfo[t->index].size;
        }
        pthread_mutex_unlock(oacl_ri_lock());
        uint32_t flags = 0;
        switch (type) {
        case ACL_MODEL_RI_TASK_KERNEL:
            params->kernelTaskParams.args = (void *)info.args;
            params->kernelTaskParams.argsSize = n->args_size;
            params->kernelTaskParams.numBlocks = info.num_blocks;
            break;
        case ACL_MODEL_RI_TASK_EVENT_RECORD:
            params->eventRecordTaskParams.event = slot_event(t->ri, info.slot, &flags);
            params->eventRecordTaskParams.eventFlag = flags;
            params->eventRecordTaskParams.recordFlag = info.ctl == OACL_GCTL_EXT_RECORD; /* EXTERNAL */
            break;
        case ACL_MODEL_RI_TASK_EVENT_WAIT:
            params->eventWaitTaskParams.event = slot_event(t->ri, info.slot, &flags);
            params->eventWaitTaskParams.eventFlag = flags;
            params->eventWaitTaskParams.waitFlag = info.ctl == OACL_GCTL_EXT_WAIT;
            break;
        case ACL_MODEL_RI_TASK_VALUE_WRITE:
            params->valueWriteTaskParams.devAddr = n->addr;
            params->valueWriteTaskParams.value = n->value;
            break;
        case ACL_MODEL_RI_TASK_VALUE_WAIT:
            params->valueWaitTaskParams.devAddr = n->addr;
            params->valueWaitTaskParams.value = n->value;
            params->valueWaitTaskParams.flag = n->flag;
            break;
        default:
            break;
        }
    }
    oacl_obj_put(&t->obj);
    return rc;
}

/* Preconditions of the editing calls: READY/UPDATING, nothing in flight. */
static aclError edit_begin_locked(struct oacl_ri *ri, const char *fn)
{
    if (ri->state != OACL_RI_READY && ri->state != OACL_RI_UPDATING)
        return oacl_fail(ACL_ERROR_RT_MODEL_UPDATE_FAILED, fn, "the model running instance is %s",
                         ri->state == OACL_RI_FAULT ? "faulty (a task edit failed)" : "being captured");
    if (oacl_backend()->graph_busy(ri->g))
        return oacl_fail(ACL_ERROR_RT_MODEL_UPDATE_FAILED, fn, "the model running instance is executing");
    ri->state = OACL_RI_UPDATING;
    return ACL_SUCCESS;
}

/* Grows rs->notes to hold task id i (g_lock held). */
static struct oacl_ri_note *note_slot(struct oacl_ri_stream *rs, uint32_t i)
{
    if (i >= rs->ncap) {
        uint32_t cap = rs->ncap ? rs->ncap : 16;
        while (cap <= i)
            cap *= 2;
        struct oacl_ri_note *notes = realloc(rs->notes, cap * sizeof(*notes));
        if (!notes)
            return NULL;
        memset(notes + rs->ncap, 0, (cap - rs->ncap) * sizeof(*notes));
        rs->notes = notes;
        rs->ncap = cap;
    }
    return &rs->notes[i];
}

/* Stages the replacement of task t (RI lock held; the RI is UPDATING). */
static aclError stage_params(struct oacl_ri_task *t, aclmdlRITaskType cur, const aclmdlRITaskParams *p,
                             struct oacl_ri_note *note, const char *fn)
{
    struct oacl_queue *gq = t->rs->gq;
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc;
    if (p->type == ACL_MODEL_RI_TASK_KERNEL) {
        const aclmdlRIKernelTaskParams *k = &p->kernelTaskParams;
        if (cur != ACL_MODEL_RI_TASK_KERNEL)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the task is not a kernel task");
        if (p->taskGrp)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "taskGrp must be NULL");
        if (!k->funcHandle || !k->args || k->argsSize == 0)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s", !k->funcHandle ? "funcHandle is NULL"
                                                                   : !k->args    ? "args is NULL"
                                                                                 : "argsSize is 0");
        if (k->numBlocks == 0 || k->numBlocks > 65535u)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "numBlocks %u is outside 1..65535", k->numBlocks);
        if (k->isHostArgs > 1)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "isHostArgs %u is neither 0 nor 1", k->isHostArgs);
        struct oacl_launch_cfg c;
        aclError rc = oacl_launch_cfg_parse(k->cfg, &c, fn);
        if (rc)
            return rc;
        struct oacl_function *f = (struct oacl_function *)oacl_handle_get(k->funcHandle, OACL_H_FUNC);
        if (!f)
            return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "funcHandle %p is not a live kernel function",
                             k->funcHandle);
        struct oacl_launch l = {
            .module = f->bin->module,
            .kernel = f->info,
            .args = k->args,
            .args_size = k->argsSize,
            .copy_args = k->isHostArgs == 1, /* device args are read at every execution */
            .num_blocks = k->numBlocks,
            .block_offset = c.block_offset,
            .timeout_ns = c.timeout_ns,
        };
        oacl_backend()->graph_task_pending(gq, (int32_t)t->index);
        brc = oacl_backend()->queue_launch(gq, &l, err);
        oacl_backend()->graph_task_pending(gq, -1);
        oacl_obj_put(&f->obj);
        *note = (struct oacl_ri_note){.args_size = k->argsSize, .timeout_ns = c.timeout_ns, .data_dump = c.data_dump};
    } else if (p->type == ACL_MODEL_RI_TASK_VALUE_WRITE || p->type == ACL_MODEL_RI_TASK_VALUE_WAIT) {
        bool wait = p->type == ACL_MODEL_RI_TASK_VALUE_WAIT;
        void *addr = wait ? p->valueWaitTaskParams.devAddr : p->valueWriteTaskParams.devAddr;
        uint64_t value = wait ? p->valueWaitTaskParams.value : p->valueWriteTaskParams.value;
        uint32_t flag = wait ? p->valueWaitTaskParams.flag : 0;
        if (cur == ACL_MODEL_RI_TASK_DEFAULT)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "a DEFAULT task cannot become a value task");
        if (p->taskGrp || p->opInfoPtr || p->opInfoSize)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "taskGrp and opInfoPtr must be NULL, opInfoSize 0");
        if (!addr || ((uintptr_t)addr & 7))
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "devAddr %p is not an 8-byte aligned device word", addr);
        if (wait && flag > ACL_STREAM_WAIT_VALUE_NOR)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "flag %u is not an ACL_STREAM_WAIT_VALUE_* condition", flag);
        oacl_backend()->graph_task_pending(gq, (int32_t)t->index);
        brc = wait ? oacl_backend()->queue_value_wait(gq, addr, value, flag, err)
                   : oacl_backend()->queue_value_write(gq, addr, value, err);
        oacl_backend()->graph_task_pending(gq, -1);
        *note = (struct oacl_ri_note){.addr = addr, .value = value, .flag = flag};
    } else {
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "type %d cannot be set (KERNEL, VALUE_WRITE or VALUE_WAIT)",
                         (int)p->type);
    }
    if (brc == ACL_SUCCESS && !oacl_backend()->graph_task_staged(gq, t->index))
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory staging the new parameters");
    return brc ? oacl_fail(brc, fn, "%s", err) : ACL_SUCCESS;
}

OACL_API aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
    if (!params)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "params is NULL");
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc)
        return rc;
    struct oacl_ri_task *t = NULL;
    struct oacl_graph_task_info info;
    rc = captured_task(task, &t, &info, __func__);
    if (rc)
        return rc;
    struct oacl_ri *ri = t->ri;
    pthread_mutex_lock(&ri->lock);
    rc = edit_begin_locked(ri, __func__);
    if (rc == ACL_SUCCESS) {
        struct oacl_ri_note note = {0};
        rc = stage_params(t, task_type(info.trace_type), params, &note, __func__);
        if (rc) {
            ri->state = OACL_RI_FAULT; /* a failed edit breaks the instance for good */
        } else {
            pthread_mutex_lock(oacl_ri_lock());
            struct oacl_ri_note *slot = note_slot(t->rs, t->index);
            if (slot)
                *slot = note;
            pthread_mutex_unlock(oacl_ri_lock());
            t->rs->pending_disable[t->index] = 0; /* a set re-enables the task */
        }
    }
    pthread_mutex_unlock(&ri->lock);
    oacl_obj_put(&t->obj);
    return rc;
}

OACL_API aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                                 aclrtLaunchKernelAttrValue *attrValue)
{
    if (!task || !attrValue)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", task ? "attrValue" : "task");
    struct oacl_ri_task *t = NULL;
    struct oacl_graph_task_info info;
    aclError rc = task_get(task, &t, &info, __func__);
    if (rc)
        return rc;
    const struct oacl_ri_note *n = task_note(t);
    if (task_type(info.trace_type) != ACL_MODEL_RI_TASK_KERNEL) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "task %p is not a kernel task", task);
    } else {
        memset(attrValue, 0, sizeof(*attrValue));
        switch ((int)attrId) {
        case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
        case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
            break; /* never configured on oacl launches: the defaults, 0 */
        case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
            attrValue->isDataDump = n->data_dump ? 1 : 0;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT: {
            uint64_t s = n->timeout_ns / 1000000000ull;
            attrValue->timeout = (uint16_t)(s > 0xFFFF ? 0xFFFF : s);
            break;
        }
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US: {
            uint64_t us = n->timeout_ns / 1000ull;
            attrValue->timeoutUs.timeoutLow = (uint32_t)us;
            attrValue->timeoutUs.timeoutHigh = (uint32_t)(us >> 32);
            break;
        }
        default:
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "attrId %d cannot be read from a task", (int)attrId);
        }
    }
    oacl_obj_put(&t->obj);
    return rc;
}

OACL_API aclError aclmdlRITaskDisable(aclmdlRITask task)
{
    aclError rc = oacl_ri_gate_advanced(__func__);
    if (rc && task)
        return rc;
    struct oacl_ri_task *t = NULL;
    struct oacl_graph_task_info info;
    rc = captured_task(task, &t, &info, __func__);
    if (rc)
        return rc;
    struct oacl_ri *ri = t->ri;
    pthread_mutex_lock(&ri->lock);
    rc = edit_begin_locked(ri, __func__);
    if (rc == ACL_SUCCESS) {
        if (task_type(info.trace_type) == ACL_MODEL_RI_TASK_DEFAULT) {
            ri->state = OACL_RI_FAULT;
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                           "task %p is of type DEFAULT and cannot be disabled (the instance is now faulty)", task);
        } else {
            t->rs->pending_disable[t->index] = 1;
        }
    }
    pthread_mutex_unlock(&ri->lock);
    oacl_obj_put(&t->obj);
    return rc;
}

OACL_API aclError aclmdlRIUpdate(aclmdlRI modelRI)
{
    struct oacl_ri *ri = NULL;
    aclError rc = oacl_ri_get(modelRI, false, &ri, __func__);
    if (rc)
        return rc;
    rc = oacl_ri_gate_advanced(__func__);
    if (rc == ACL_SUCCESS && ri->kind == OACL_RI_BUILT)
        rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "modelRI %p was built, not captured", modelRI);
    if (rc == ACL_SUCCESS) {
        pthread_mutex_lock(&ri->lock);
        if (ri->state == OACL_RI_UPDATING) {
            for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next) {
                oacl_backend()->graph_task_commit(rs->gq, true); /* new parameters (re-enabled) */
                for (uint32_t i = 0; i < rs->ntasks; i++)
                    if (rs->pending_disable[i])
                        oacl_backend()->graph_task_disable(rs->gq, i, true);
            }
            ri->state = OACL_RI_READY;
        } else if (ri->state != OACL_RI_READY) {
            rc = oacl_fail(ACL_ERROR_RT_MODEL_UPDATE_FAILED, __func__, "the model running instance is %s",
                           ri->state == OACL_RI_FAULT ? "faulty (a task edit failed)" : "being captured");
        }
        pthread_mutex_unlock(&ri->lock);
    }
    oacl_obj_put(&ri->obj);
    return rc;
}

/* ---- debug output ------------------------------------------------------------------ */

/* One task of the dump: its name (kernel or type name, plus an id suffix). */
static void task_name(const struct oacl_graph_task_info *info, struct oacl_ri *ri, const struct oacl_ri_note *n,
                      char *out, size_t len)
{
    const char *tn = info->ctl ? ctl_name(info->ctl) : type_name(info->trace_type);
    uint32_t flags;
    switch (info->trace_type) {
    case OACL_TT_KERNEL_AIVEC:
    case OACL_TT_KERNEL_AICORE:
        snprintf(out, len, "%s", info->kernel_name ? info->kernel_name : tn);
        break;
    case OACL_TT_EVENT_RECORD:
    case OACL_TT_EVENT_WAIT: {
        aclrtEvent h = slot_event(ri, info->slot, &flags);
        struct oacl_event *e = h ? (struct oacl_event *)oacl_handle_get(h, OACL_H_EVENT) : NULL;
        snprintf(out, len, "%s_%u", tn, e ? e->id : info->slot);
        if (e)
            oacl_obj_put(&e->obj);
        break;
    }
    case OACL_TT_VALUE_WRITE:
    case OACL_TT_VALUE_WAIT:
        snprintf(out, len, "%s_%llu", tn, (unsigned long long)(uintptr_t)n->addr);
        break;
    default:
        snprintf(out, len, "%s", tn);
    }
}

/* Appends JSON-escaped s to f. */
static void json_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
}

static aclError debug_common(aclmdlRI modelRI, struct oacl_ri **out, const char *fn)
{
    aclError rc = oacl_ri_gate_capture(fn);
    if (rc)
        return rc;
    return oacl_ri_get_ctx(modelRI, true, out, fn);
}

OACL_API aclError aclmdlRIDebugPrint(aclmdlRI modelRI)
{
    if (!modelRI)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "modelRI is NULL");
    struct oacl_ri *ri = NULL;
    aclError rc = debug_common(modelRI, &ri, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(oacl_ri_lock());
    for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next) {
        uint32_t count = 0;
        oacl_backend()->graph_stream_state(rs->gq, &count);
        for (uint32_t i = 0; i < count; i++) {
            struct oacl_graph_task_info info;
            oacl_backend()->graph_task_info(rs->gq, i, &info);
            OACL_INFO("device_id=%d, stream_id=%d, task_id=%u, task_type=%s", ri->ctx->dev->id, rs_id(rs), i,
                      info.ctl ? ctl_name(info.ctl) : type_name(info.trace_type));
        }
    }
    pthread_mutex_unlock(oacl_ri_lock());
    oacl_obj_put(&ri->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags)
{
    if (!modelRI || !path)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", modelRI ? "path" : "modelRI");
    struct oacl_ri *ri = NULL;
    aclError rc = debug_common(modelRI, &ri, __func__);
    if (rc)
        return rc;
    FILE *f = fopen(path, "w");
    if (!f) {
        int e = errno;
        oacl_obj_put(&ri->obj);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cannot create %s: %s", path, strerror(e));
    }
    bool verbose = (flags & ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) != 0;
    fputs("[\n", f);
    bool first = true;
    pthread_mutex_lock(oacl_ri_lock());
    for (struct oacl_ri_stream *rs = ri->streams; rs; rs = rs->next) {
        uint32_t count = 0;
        oacl_backend()->graph_stream_state(rs->gq, &count);
        uint64_t ts = 0;
        for (uint32_t i = 0; i < count; i++) {
            struct oacl_graph_task_info info;
            oacl_backend()->graph_task_info(rs->gq, i, &info);
            const struct oacl_ri_note *n =
                i < rs->ncap ? &rs->notes[i] : &(const struct oacl_ri_note){.args_size = 0};
            const char *tn = info.ctl ? ctl_name(info.ctl) : type_name(info.trace_type);
            char name[256];
            task_name(&info, ri, n, name, sizeof(name));
            const char *dur = strcmp(tn, "NOP") == 0 ? "0.5" : strstr(tn, "RECORD") ? "4.5" : strstr(tn, "WAIT") ? "14.5"
                                                                                                                : "9.5";
            uint64_t step = strcmp(tn, "NOP") == 0 ? 1 : strstr(tn, "RECORD") ? 5 : strstr(tn, "WAIT") ? 15 : 10;
            if (!first)
                fputs(",\n", f);
            first = false;
            fputs("{\"name\":\"", f);
            json_str(f, name);
            fprintf(f,
                    "\",\"pid\":\"%ld aclGraph\",\"tid\":\"stream%d\",\"ts\":%llu,\"dur\":%s,\"ph\":\"X\",\"args\":{"
                    "\"Model Id\":%u,\"Stream Id\":%d,\"Task Id\":%u,\"Task Type\":\"%s\"",
                    (long)getpid(), rs_id(rs), (unsigned long long)ts, dur, ri->id, rs_id(rs), i, tn);
            if (task_type(info.trace_type) == ACL_MODEL_RI_TASK_KERNEL) {
                fprintf(f, ",\"Numblocks\":%u", info.num_blocks);
                if (verbose) {
                    fputs(",\"Kernel Args\":\"", f);
                    const unsigned char *a = info.args;
                    for (size_t w = 0; a && w + 8 <= n->args_size; w += 8) {
                        uint64_t v;
                        memcpy(&v, a + w, 8);
                        fprintf(f, "%s0x%016llx", w ? " " : "", (unsigned long long)v);
                    }
                    fprintf(f, "\",\"Kernel Args Size\":%zu", n->args_size);
                }
            }
            if (i < rs->nopinfo && rs->opinfo[i].ext) { /* aclrtCacheLastTaskExtendInfo */
                fputs(",\"Extend Info\":\"", f);
                json_str(f, rs->opinfo[i].ext);
                fputs("\"", f);
            }
            fputs("}}", f);
            ts += step;
        }
    }
    pthread_mutex_unlock(oacl_ri_lock());
    if (!first)
        fputs("\n", f);
    fputs("]", f);
    bool bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    oacl_obj_put(&ri->obj);
    if (bad)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cannot write %s", path);
    return ACL_SUCCESS;
}
