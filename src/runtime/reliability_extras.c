/*
 * The small functions of the reliability chapter (acl-rt-reliability.md
 * §3.6, §3.8; Decisions 15 and 17): memory-error queries and repair,
 * aclrtRepairError, last-task information caching, aclrtProfTrace and
 * aclrtDeviceL2CacheFlush.
 *
 * The simulated device has no faulty memory: the UCE query reports no
 * ranges and a repair has nothing to do — real behaviour of a healthy
 * device, after CANN's argument checks.
 */
#include <string.h>

#include "common/trace.h"
#include "runtime/prof.h"
#include "runtime/runtime.h"

/* Largest aclrtCacheLastTaskOpInfo blob. */
#define OP_INFO_MAX 65536u
/* aclrtProfTrace's record: trace id, model id (64 bits each), tag (16). */
#define PROF_TRACE_MAX 18

OACL_API aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize,
                                     size_t *retSize)
{
    if (!memUceInfoArray || !retSize)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", memUceInfoArray ? "retSize" : "memUceInfoArray");
    (void)arraySize; /* room for every corrupted range: there are none */
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    *retSize = 0;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize)
{
    if (!memUceInfoArray)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "memUceInfoArray is NULL");
    if (arraySize > MAX_MEM_UCE_INFO_ARRAY_SIZE)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "arraySize %zu is above %d", arraySize,
                         MAX_MEM_UCE_INFO_ARRAY_SIZE);
    for (size_t i = 0; i < arraySize; i++)
        for (size_t w = 0; w < UCE_INFO_RESERVED_SIZE; w++)
            if (memUceInfoArray[i].reserved[w] != 0)
                return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "record %zu: reserved[%zu] is not zero", i, w);
    struct oacl_device *dev = NULL;
    return oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
}

OACL_API aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo *errorInfo)
{
    if (!errorInfo)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "errorInfo is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&dev->lock);
    bool opened = dev->bdev != NULL;
    pthread_mutex_unlock(&dev->lock);
    if (!opened)
        return oacl_fail(ACL_ERROR_RT_DEV_SETUP_ERROR, __func__, "device %d was never opened by this process",
                         deviceId);
    if (!errorInfo->tryRepair)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "tryRepair is 0: the error is not marked repairable");
    switch (errorInfo->errorType) {
    case ACL_RT_NO_ERROR:
        /* Forget the recorded fault: aclrtGetErrorVerbose reports none. */
        __atomic_store_n(&dev->fault_code, 0, __ATOMIC_RELEASE);
        return ACL_SUCCESS;
    case ACL_RT_ERROR_MEMORY:
        if (errorInfo->detail.uceInfo.arraySize > ACL_RT_MEM_UCE_INFO_MAX_NUM)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "detail.uceInfo.arraySize %zu is above %d",
                             errorInfo->detail.uceInfo.arraySize, ACL_RT_MEM_UCE_INFO_MAX_NUM);
        return ACL_SUCCESS; /* no memory error exists to repair */
    default:
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "errorType %d cannot be repaired (a kernel fault is recovered by resubmitting the work)",
                         (int)errorInfo->errorType);
    }
}

OACL_API aclError aclrtCacheLastTaskOpInfo(const void *const infoPtr, const size_t infoSize)
{
    if (!infoPtr || infoSize == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s", infoPtr ? "infoSize is 0" : "infoPtr is NULL");
    if (infoSize > OP_INFO_MAX)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "infoSize %zu is above %u", infoSize, OP_INFO_MAX);
    /* Only a task captured into a model runtime instance keeps such data. */
    return oacl_ri_cache_op_info(infoPtr, infoSize, __func__);
}

OACL_API aclError aclrtCacheLastTaskExtendInfo(const char *const extendInfoPtr, const size_t infoSize)
{
    if (!extendInfoPtr || infoSize == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s",
                         extendInfoPtr ? "infoSize is 0" : "extendInfoPtr is NULL");
    /* longer strings are cut at OACL_RI_EXTEND_INFO_MAX bytes */
    return oacl_ri_cache_extend_info(extendInfoPtr, infoSize, __func__);
}

OACL_API aclError aclrtProfTrace(void *userdata, int32_t length, aclrtStream stream)
{
    if (!userdata)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "userdata is NULL");
    if (length <= 0 || length > PROF_TRACE_MAX)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "length %d is outside 1..%d", length, PROF_TRACE_MAX);
    /* The record's first 64 bits (the trace id) become the marker's id. */
    uint64_t trace_id = 0;
    memcpy(&trace_id, userdata, length < 8 ? (size_t)length : 8);
    return oacl_prof_queue_marker(stream, OACL_REC_TX_DEV, 0, "aclrtProfTrace", trace_id, __func__);
}

OACL_API aclError aclrtDeviceL2CacheFlush(void *rsv)
{
    if (rsv)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "rsv is reserved and must be NULL");
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    /* The simulated device's memory is the host's, kept coherent by the
       CPU: a full fence is all a cache flush can mean (a sequentially
       consistent read-modify-write is one, and ThreadSanitizer knows it). */
    static uint32_t flushes;
    __atomic_fetch_add(&flushes, 1, __ATOMIC_SEQ_CST);
    return ACL_SUCCESS;
}
