/*
 * Model running instances: the parts of acl-rt-model-ri.md that oacl does
 * not implement yet: device-side task update (aclrtTaskUpdateAsync). Each checks what the API layer
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

#define LABELS "device-side task update of built model running instances"

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
