/*
 * aclrtTaskUpdateAsync (acl-rt-model-ri.md §3.10): device-side patching of a
 * recorded task. Both kinds check their arguments as CANN does and then
 * refuse with 207000, saying why:
 *  - kind 2 (kernel patch) resolves a function entry with the rules of
 *    aclrtBinaryGetFunctionByEntry, and oacl's kernel binaries (kernel ABI
 *    v1) carry no function-entry keys, so no entry could ever resolve;
 *  - kind 1 (random-number task) is real: a task of execStream reads the
 *    aclrtRandomNumTaskInfo at srcAddr when it runs, checks it as
 *    aclrtRandomNumAsync would and replaces the recorded random task, so
 *    the RI's next execution uses it (graph_exec.c).
 */
#include "device/cpu/soc_profile.h"
#include "runtime/builtin_task.h"
#include "runtime/model_ri.h"

/* Run on the device by the update task: no error is recorded there. */
static int random_convert(const void *info, int32_t dev_id, struct oacl_random_task *out, char *err)
{
    return oacl_random_task_convert(info, dev_id, out, err);
}

/* Task taskId of a stream bound to an RI (+ its recorded kind), g_lock held. */
static aclError bound_task_locked(struct oacl_stream *s, uint32_t taskId, struct oacl_graph_task_info *info,
                                  aclError unbound, const char *fn)
{
    struct oacl_ri_stream *rs = s->ri_owner ? s->ri_stream : NULL;
    if (!rs)
        return oacl_fail(unbound, fn, "taskStream is not bound to a model running instance");
    uint32_t count = 0;
    oacl_backend()->graph_stream_state(rs->gq, &count);
    if (taskId >= count)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "taskStream has no task %u (%u recorded)", taskId, count);
    oacl_backend()->graph_task_info(rs->gq, taskId, info);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo *info,
                                       aclrtStream execStream)
{
    if (!info)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "info is NULL");
    if (info->id != ACL_RT_UPDATE_RANDOM_TASK && info->id != ACL_RT_UPDATE_AIC_AIV_TASK)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "info->id %d is not an aclrtUpdateTaskAttrId",
                         (int)info->id);
    aclError rc = oacl_ri_gate_task_update(__func__);
    if (rc)
        return rc;
    bool random = info->id == ACL_RT_UPDATE_RANDOM_TASK;
    const struct oacl_soc_profile *soc = oacl_config()->soc;
    if (random && soc && soc->npu_arch != 2201) /* random-number tasks exist on A2/A3 only */
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__,
                         "random-number task updates are not supported on %s", soc->name);
    if (!taskStream)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "taskStream is NULL");
    if (!random) {
        const aclrtAicAivTaskUpdateAttr *a = &info->val.aicAivTaskAttr;
        if (!execStream || !a->funcEntryAddr || !a->blockDimAddr || !a->binHandle)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s is NULL",
                             !execStream ? "execStream" : !a->funcEntryAddr ? "funcEntryAddr"
                                                        : !a->blockDimAddr  ? "blockDimAddr"
                                                                            : "binHandle");
    } else if (!info->val.randomTaskAttr.srcAddr || info->val.randomTaskAttr.size != sizeof(aclrtRandomNumTaskInfo)) {
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "srcAddr is NULL or size is not %zu",
                         sizeof(aclrtRandomNumTaskInfo));
    }
    struct oacl_stream *ts = NULL, *es = NULL;
    rc = oacl_stream_arg(taskStream, OACL_STREAM_OWN, &ts, __func__);
    if (rc)
        return rc;
    rc = oacl_stream_arg(execStream, OACL_STREAM_OWN, &es, __func__);
    if (rc) {
        oacl_obj_put(&ts->obj);
        return rc;
    }
    struct oacl_graph_task_info ti;
    pthread_mutex_lock(oacl_ri_lock());
    if (random) {
        if (es->ri_owner || (es->flags & ACL_STREAM_PERSISTENT))
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "execStream belongs to a model running instance");
        else if (es->ri_capture)
            rc = oacl_fail(ACL_ERROR_RT_STREAM_CAPTURED, __func__, "execStream is capturing");
        else if ((rc = bound_task_locked(ts, taskId, &ti, ACL_ERROR_RT_PARAM_INVALID, __func__)) == ACL_SUCCESS &&
                 ti.trace_type != OACL_TT_RANDOM)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "task %u is not a random-number task", taskId);
        if (rc == ACL_SUCCESS) /* oacl: the parameters must be device memory the update can read */
            rc = oacl_builtin_range(info->val.randomTaskAttr.srcAddr, sizeof(aclrtRandomNumTaskInfo), "srcAddr",
                                    false, es, NULL, __func__);
        if (rc == ACL_SUCCESS) {
            struct oacl_ri_stream *rs = ts->ri_stream;
            char err[OACL_BACKEND_ERRLEN] = "";
            int brc = oacl_backend()->queue_graph_random_update(es->queue, rs->ri->g, rs->gq, taskId,
                                                                 info->val.randomTaskAttr.srcAddr,
                                                                 sizeof(aclrtRandomNumTaskInfo), random_convert,
                                                                 es->ctx->dev->id, err);
            if (brc)
                rc = oacl_fail(brc, __func__, "%s", err);
        }
    } else {
        if (!es->ri_owner || !es->ri_stream)
            rc = oacl_fail(ACL_ERROR_RT_STREAM_MODEL, __func__, "execStream is not bound to a model running instance");
        else if ((rc = bound_task_locked(ts, taskId, &ti, ACL_ERROR_RT_STREAM_MODEL, __func__)) == ACL_SUCCESS &&
                 ti.trace_type != OACL_TT_KERNEL_AIVEC && ti.trace_type != OACL_TT_KERNEL_AICORE)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "task %u is not a kernel task", taskId);
        if (rc == ACL_SUCCESS)
            rc = oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "%s",
                           "kernel binaries of kernel ABI 1 carry no function-entry keys, so no function entry "
                           "can be resolved (see aclrtBinaryGetFunctionByEntry)");
    }
    pthread_mutex_unlock(oacl_ri_lock());
    oacl_obj_put(&es->obj);
    oacl_obj_put(&ts->obj);
    return rc;
}
