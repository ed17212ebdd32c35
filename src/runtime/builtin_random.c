/*
 * aclrtRandomNumAsync (acl-rt-memory-extras.md §3.10): a Philox4x32-10
 * random-number task in stream order, A2/A3 profiles only.
 *
 * Decision 14: the caller's structure is never written (CANN overwrites its
 * dataType), the counter in device memory is never advanced (callers supply
 * {0, offset} for every task, as CANN's operators do), inline values are
 * taken now, addressed ones when the task runs, and the 16-byte parameter
 * block goes to randomParaAddr now when it is given.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "device/cpu/soc_profile.h"
#include "runtime/builtin_task.h"

static const char *type_name(aclDataType t)
{
    switch (t) {
    case ACL_INT32: return "ACL_INT32";
    case ACL_INT64: return "ACL_INT64";
    case ACL_UINT32: return "ACL_UINT32";
    case ACL_UINT64: return "ACL_UINT64";
    case ACL_BF16: return "ACL_BF16";
    case ACL_FLOAT16: return "ACL_FLOAT16";
    case ACL_FLOAT: return "ACL_FLOAT";
    default: return NULL; /* not a type of the engine */
    }
}

static uint32_t type_size(aclDataType t)
{
    switch (t) {
    case ACL_BF16: case ACL_FLOAT16: return 2;
    case ACL_INT64: case ACL_UINT64: return 8;
    default: return 4;
    }
}

static bool float_type(aclDataType t) { return t == ACL_BF16 || t == ACL_FLOAT16 || t == ACL_FLOAT; }

static const char *const g_func_names[] = {"DROPOUT_BITMASK", "UNIFORM_DIS", "NORMAL_DIS", "TRUNCATED_NORMAL_DIS"};

/* 107000 with its reason in err. */
__attribute__((format(printf, 2, 3))) static aclError bad(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, OACL_BACKEND_ERRLEN, fmt, ap);
    va_end(ap);
    return ACL_ERROR_RT_PARAM_INVALID;
}

/* Checks one aclrtRandomParaInfo (size at most max_inline bytes when given
 * inline, an 8-byte address otherwise) and converts it. */
static aclError para_arg(const aclrtRandomParaInfo *p, const char *name, uint32_t max_inline,
                         struct oacl_random_value *out, char *err)
{
    if (p->isAddr > 1)
        return bad(err, "%s: isAddr %u is neither 0 (value) nor 1 (address)", name, p->isAddr);
    const uint32_t max = p->isAddr ? 8 : max_inline;
    if (p->size < 1 || p->size > max)
        return bad(err, "%s: size %u is outside 1..%u%s", name, p->size, max, p->isAddr ? "" : " for an inline value");
    out->addressed = p->isAddr == 1;
    out->size = p->size;
    out->value = 0;
    /* Inline: the first `size` bytes, little-endian, zero-extended. An
       address: all 8 bytes. */
    const unsigned take = out->addressed ? 8 : p->size;
    for (unsigned i = 0; i < take; i++)
        out->value |= (uint64_t)p->valueOrAddr[i] << (8 * i);
    return ACL_SUCCESS;
}

/* The checks of the runtime layer after the stream is known (§3.10, CANN's
 * order, then oacl's memory checks); fills *task. Also run on the device
 * by aclrtTaskUpdateAsync's random-task update (model_ri_update.c). */
aclError oacl_random_task_convert(const aclrtRandomNumTaskInfo *ti, int32_t dev_id, struct oacl_random_task *task,
                                  char *err)
{
    if (!type_name(ti->dataType))
        return bad(err,
                   "dataType %d is not a type of the random-number engine (ACL_INT32, ACL_INT64, ACL_UINT32, "
                   "ACL_UINT64, ACL_BF16, ACL_FLOAT16, ACL_FLOAT)",
                   (int)ti->dataType);
    const aclrtRandomNumFuncParaInfo *fp = &ti->randomNumFuncParaInfo;
    const uint32_t func = (uint32_t)fp->funcType;
    if (func > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS)
        return bad(err, "funcType %u is not an aclrtRandomNumFuncType (0..3)", func);
    const aclDataType type = ti->dataType;
    const bool type_ok = func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS || float_type(type);
    if (!type_ok)
        return bad(err, "dataType %s is not allowed for %s (only ACL_BF16, ACL_FLOAT16 and ACL_FLOAT)",
                   type_name(type), g_func_names[func]);
    if (!ti->randomCounterAddr)
        return bad(err, "randomCounterAddr is NULL");
    if (!ti->randomResultAddr)
        return bad(err, "randomResultAddr is NULL");
    memset(task, 0, sizeof(*task));
    task->dist = (enum oacl_random_dist)func;
    task->type = type;
    aclError rc = para_arg(&ti->randomSeed, "randomSeed", 8, &task->seed, err);
    if (rc == ACL_SUCCESS)
        rc = para_arg(&ti->randomNum, "randomNum", 8, &task->num, err);
    if (rc)
        return rc;
    switch (func) {
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
        rc = para_arg(&fp->paramInfo.dropoutBitmaskInfo.dropoutRation, "dropoutRation", type_size(type),
                      &task->param[0], err);
        break;
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
        rc = para_arg(&fp->paramInfo.uniformDisInfo.min, "min", type_size(type), &task->param[0], err);
        if (rc == ACL_SUCCESS)
            rc = para_arg(&fp->paramInfo.uniformDisInfo.max, "max", type_size(type), &task->param[1], err);
        break;
    default:
        rc = para_arg(&fp->paramInfo.normalDisInfo.mean, "mean", type_size(type), &task->param[0], err);
        if (rc == ACL_SUCCESS)
            rc = para_arg(&fp->paramInfo.normalDisInfo.stddev, "stddev", type_size(type), &task->param[1], err);
        break;
    }
    if (rc)
        return rc;

    /* oacl: the memory the task uses must be device memory. The output size
       is known now only for an inline count. */
    rc = oacl_builtin_range_msg(ti->randomCounterAddr, 16, "randomCounterAddr", false, dev_id, NULL, err);
    if (rc)
        return rc;
    uint64_t out_bytes = 0;
    if (!task->num.addressed) {
        const uint64_t num = task->num.value;
        if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK)
            out_bytes = num / 8 + (num % 8 != 0);
        else if (num > UINT64_MAX / type_size(type))
            return bad(err, "randomNum %llu elements of %s exceed any memory", (unsigned long long)num,
                       type_name(type));
        else
            out_bytes = num * type_size(type);
    }
    rc = oacl_builtin_range_msg(ti->randomResultAddr, out_bytes, "randomResultAddr", true, dev_id,
                                &task->result_room, err);
    if (rc == ACL_SUCCESS && ti->randomParaAddr)
        rc = oacl_builtin_range_msg(ti->randomParaAddr, 16, "randomParaAddr", true, dev_id, NULL, err);
    task->counter = ti->randomCounterAddr;
    task->result = ti->randomResultAddr;
    return rc;
}

OACL_API aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream, void *reserve)
{
    const char *fn = __func__;
    if (!taskInfo)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "taskInfo is NULL");
    if (!type_name(taskInfo->dataType))
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                         "dataType %d is not a type of the random-number engine (ACL_INT32, ACL_INT64, ACL_UINT32, "
                         "ACL_UINT64, ACL_BF16, ACL_FLOAT16, ACL_FLOAT)",
                         (int)taskInfo->dataType);
    if (reserve)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "reserve must be NULL");
    aclError rc = oacl_devices_check(fn);
    if (rc)
        return rc;
    const struct oacl_soc_profile *soc = oacl_config()->soc;
    if (soc->npu_arch != 2201) /* the A2 and A3 families */
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn, soc->name);
    struct oacl_stream *s = NULL;
    rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    struct oacl_random_task task;
    char err[OACL_BACKEND_ERRLEN] = "";
    rc = oacl_random_task_convert(taskInfo, s->ctx->dev->id, &task, err);
    if (rc)
        rc = oacl_fail(rc, fn, "%s", err);
    if (rc == ACL_SUCCESS) {
        int brc = oacl_backend()->queue_random(s->queue, &task, err);
        if (brc)
            rc = oacl_fail(brc, fn, "%s", err);
    }
    if (rc == ACL_SUCCESS && taskInfo->randomParaAddr) {
        /* The parameter block: the two distribution fields as given (the
           value, or the address), the second 0 for the mask. The task
           itself works from its own copy. */
        uint8_t block[16];
        for (unsigned i = 0; i < 16; i++)
            block[i] = (uint8_t)(task.param[i / 8].value >> (8 * (i % 8)));
        oacl_backend()->copy(taskInfo->randomParaAddr, block, sizeof(block));
    }
    oacl_obj_put(&s->obj);
    return rc;
}
