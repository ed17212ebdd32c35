/*
 * Type helpers of acl_base_rt.h: aclDataTypeSize, the half-precision
 * conversions and the CANN feature attributes (aclGetCannAttributeList,
 * aclGetCannAttribute).
 */
#include "common/fp16.h"
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

OACL_API size_t aclDataTypeSize(aclDataType dataType)
{
    switch ((int)dataType) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
        return 1;
    /* Sub-byte types: one byte, as CANN reports for INT4 and UINT1 — the
       smallest unit a buffer can hold; packing is the caller's business. */
    case ACL_INT4:
    case ACL_UINT1:
    case ACL_FLOAT6_E3M2:
    case ACL_FLOAT6_E2M3:
    case ACL_FLOAT4_E2M1:
    case ACL_FLOAT4_E1M2:
        return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
        return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
        return 4;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64:
        return 8;
    case ACL_COMPLEX128:
        return 16;
    default:
        /* ACL_DT_UNDEFINED, ACL_STRING (no fixed element size) and values
           that name no type. */
        return 0;
    }
}

/* Exact: every half is a float. */
OACL_API float aclFloat16ToFloat(aclFloat16 value) { return oacl_f16_to_f32(value); }

/* Round to nearest, ties to even; overflow gives inf, NaN stays NaN. */
OACL_API aclFloat16 aclFloatToFloat16(float value) { return oacl_f32_to_f16(value); }

/* ---- CANN attributes ---------------------------------------------------------------- */

/* Whether attr is supported with the current profile, or -1 for a value
 * that is no attribute. The CPU device computes IEEE inf/NaN on every
 * profile; bfloat16 is a feature of the 2201 and 3510 architectures
 * (soc-table 3); oacl compiles no operators at run time. */
static int cann_attr(const struct oacl_soc_profile *p, int attr)
{
    switch (attr) {
    case ACL_CANN_ATTR_INF_NAN:
        return 1;
    case ACL_CANN_ATTR_BF16:
        return p->npu_arch == 2201 || p->npu_arch == 3510;
    case ACL_CANN_ATTR_JIT_COMPILE:
        return 0;
    default:
        return -1;
    }
}

static aclCannAttr g_attr_list[3];
static size_t g_attr_count;
static pthread_once_t g_attr_once = PTHREAD_ONCE_INIT;

static void attr_list_init(void)
{
    static const aclCannAttr all[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (cann_attr(oacl_config()->soc, all[i]) == 1)
            g_attr_list[g_attr_count++] = all[i];
}

static aclError need_profile(const char *fn)
{
    if (!oacl_config()->soc)
        return oacl_fail(ACL_ERROR_RT_SOC_VERSION, fn, "OACL_SOC='%s' names no known SoC profile",
                         oacl_config()->soc_request);
    return ACL_SUCCESS;
}

OACL_API aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
    if (!cannAttrList || !num)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", cannAttrList ? "num" : "cannAttrList");
    aclError rc = need_profile(__func__);
    if (rc)
        return rc;
    /* The profile is fixed for the process, so the list is built once and
       stays valid for good. */
    pthread_once(&g_attr_once, attr_list_init);
    *cannAttrList = g_attr_list;
    *num = g_attr_count;
    return ACL_SUCCESS;
}

OACL_API aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    aclError rc = need_profile(__func__);
    if (rc)
        return rc;
    int v = cann_attr(oacl_config()->soc, (int)cannAttr);
    if (v < 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "cannAttr %d is not INF_NAN, BF16 or JIT_COMPILE",
                         (int)cannAttr);
    *value = v;
    return ACL_SUCCESS;
}
