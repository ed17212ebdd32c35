/*
 * Model running instances: the parts of acl-rt-model-ri.md that oacl does
 * not implement yet — explicit build with persistent streams (§3.4),
 * labels and stream control (§3.9, §3.10), conditional tasks (§3.3), task
 * groups and update by re-capture (§3.2). Each checks what the API layer
 * checks (100000) and then refuses with 207000 and a message saying so:
 * never a silent success.
 */
#include "runtime/model_ri.h"

static aclError not_yet(const char *fn, const char *what)
{
    return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s: %s is not implemented by oacl yet", fn, what);
}

#define NULL_CHECK(p)                                                                                                 \
    do {                                                                                                              \
        if (!(p))                                                                                                     \
            return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", #p);                                     \
    } while (0)

#define BUILD "building model running instances on persistent streams"
#define COND "conditional tasks of captured graphs"
#define GROUP "task groups and task update by re-capture"
#define LABELS "labels and stream control of built model running instances"

OACL_API aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode)
{
    NULL_CHECK(stream);
    NULL_CHECK(modelRI);
    (void)mode;
    return not_yet(__func__, COND);
}

OACL_API aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)
{
    NULL_CHECK(stream);
    return not_yet(__func__, GROUP);
}

OACL_API aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle)
{
    NULL_CHECK(stream);
    NULL_CHECK(handle);
    *handle = NULL;
    return not_yet(__func__, GROUP);
}

OACL_API aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
    NULL_CHECK(stream);
    NULL_CHECK(handle);
    return not_yet(__func__, GROUP);
}

OACL_API aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
    NULL_CHECK(stream);
    return not_yet(__func__, GROUP);
}

OACL_API aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                           aclmdlRICondHandle *handle)
{
    NULL_CHECK(modelRI);
    NULL_CHECK(handle);
    (void)defaultLaunchValue;
    (void)flag;
    return not_yet(__func__, COND);
}

OACL_API aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr)
{
    NULL_CHECK(handle);
    NULL_CHECK(ptr);
    return not_yet(__func__, COND);
}

OACL_API aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags)
{
    NULL_CHECK(stream);
    (void)flags;
    if (params.modelRIArray)
        for (uint32_t i = 0; i < params.size; i++)
            params.modelRIArray[i] = NULL;
    return not_yet(__func__, COND);
}

OACL_API aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag)
{
    NULL_CHECK(modelRI);
    if (flag != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "flag %u is reserved and must be 0", flag);
    return not_yet(__func__, BUILD);
}

OACL_API aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag)
{
    NULL_CHECK(modelRI);
    (void)stream;
    if (flag != 0 && flag != 0x7FFFFFFFu)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "flag 0x%x is neither 0 (head) nor 0x7FFFFFFF", flag);
    return not_yet(__func__, BUILD);
}

OACL_API aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream)
{
    NULL_CHECK(modelRI);
    (void)stream;
    return not_yet(__func__, BUILD);
}

OACL_API aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve)
{
    NULL_CHECK(modelRI);
    if (reserve)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "reserve must be NULL");
    return not_yet(__func__, BUILD);
}

OACL_API aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream)
{
    NULL_CHECK(modelRI);
    (void)stream;
    return not_yet(__func__, BUILD);
}

OACL_API aclError aclrtPersistentTaskClean(aclrtStream stream)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "stream is NULL");
    return not_yet(__func__, BUILD);
}

OACL_API aclError aclrtCreateLabel(aclrtLabel *label)
{
    NULL_CHECK(label);
    return not_yet(__func__, LABELS);
}

OACL_API aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream)
{
    NULL_CHECK(label);
    NULL_CHECK(stream);
    return not_yet(__func__, LABELS);
}

OACL_API aclError aclrtDestroyLabel(aclrtLabel label)
{
    NULL_CHECK(label);
    return not_yet(__func__, LABELS);
}

OACL_API aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList)
{
    NULL_CHECK(labels);
    NULL_CHECK(labelList);
    if (num == 0 || num > 65535)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "num %zu is not in 1..65535", num);
    return not_yet(__func__, LABELS);
}

OACL_API aclError aclrtDestroyLabelList(aclrtLabelList labelList)
{
    NULL_CHECK(labelList);
    return not_yet(__func__, LABELS);
}

OACL_API aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream)
{
    NULL_CHECK(ptr);
    NULL_CHECK(labelList);
    NULL_CHECK(stream);
    (void)maxValue;
    return not_yet(__func__, LABELS);
}

OACL_API aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream)
{
    NULL_CHECK(activeStream);
    NULL_CHECK(stream);
    return not_yet(__func__, LABELS);
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
    if ((uint32_t)cond > ACL_RT_LESS_OR_EQUAL)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cond %d is not an aclrtCondition", (int)cond);
    if ((uint32_t)dataType > ACL_RT_SWITCH_INT64)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "dataType %d is not an aclrtCompareDataType",
                         (int)dataType);
    return not_yet(__func__, LABELS);
}

OACL_API aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo *info,
                                       aclrtStream execStream)
{
    NULL_CHECK(info);
    (void)taskStream;
    (void)taskId;
    (void)execStream;
    if (info->id != ACL_RT_UPDATE_RANDOM_TASK && info->id != ACL_RT_UPDATE_AIC_AIV_TASK)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "info->id %d is not an aclrtUpdateTaskAttrId",
                         (int)info->id);
    return not_yet(__func__, LABELS);
}
