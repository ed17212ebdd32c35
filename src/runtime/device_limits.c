/*
 * Process-wide device limits (aclrtDeviceSetLimit / aclrtDeviceGetLimit)
 * and aclrtSetTsDevice (device-kernel chapter 4.1).
 *
 * The limits are stored per process and reported (Decision 4). Their
 * effects on the CPU device: the SIMD stack limit is a minimum for the
 * threads that run kernel blocks, which already have the process's default
 * thread stack (megabytes, above every allowed value); the SIMT limits
 * wait for SIMT kernels; the printf FIFO size is reported only.
 */
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

#define LIMIT_COUNT 5
#define MiB64 67108864u

/* Values as CANN stores them (SIMT stack: per warp, 32 x per thread). */
static size_t g_limit[LIMIT_COUNT] = {1152u * 32u, 1024u, 32768u, 32768u, 2097152u};
static pthread_mutex_t g_limit_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const g_limit_names[LIMIT_COUNT] = {
    "ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE", "ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE",
    "ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE", "ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE",
    "ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE"};

static size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

static bool simt_limit(int l)
{
    return l == ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE || l == ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE ||
           l == ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE;
}

/* SIMT limits exist on arch 3510 only (spec 3.6). */
static aclError limit_supported(int l, const char *fn)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    if (!p)
        return oacl_fail(ACL_ERROR_RT_SOC_VERSION, fn, "OACL_SOC='%s' names no known SoC profile",
                         oacl_config()->soc_request);
    if (simt_limit(l) && p->npu_arch != 3510)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s (%s: no SIMT)", fn,
                         p->name, g_limit_names[l]);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value)
{
    int l = (int)limit;
    if (l < 0 || l >= LIMIT_COUNT)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "limit %d is not an aclrtDeviceLimit (0..4)", l);
    if (value > UINT32_MAX)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value %zu exceeds UINT32_MAX", value);
    aclError rc = limit_supported(l, __func__);
    if (rc)
        return rc;
    /* CANN applies the limits through device 0 (logical). */
    if (!oacl_logical_visible(0))
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, __func__,
                         "device limits are applied through device 0, which is not visible to this process");
    const uint32_t arch = oacl_config()->soc->npu_arch;
    pthread_mutex_lock(&g_limit_lock);
    switch (l) {
    case ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE:
    case ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE: {
        size_t v = round_up(value, 128);
        size_t stack = l == ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE ? v : g_limit[0];
        size_t dvg = l == ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE ? v : g_limit[1];
        if (stack == 0 && dvg == 0)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                           "the SIMT stack and the divergence stack cannot both be 0");
        else
            g_limit[l] = l == ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE ? v * 32 : v;
        break;
    }
    case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE: {
        size_t max = arch == 3510 ? 131072u : 196608u;
        size_t v = round_up(value, 16384);
        if (value <= 32768)
            break; /* CANN keeps the previous value */
        if (v > max)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                           "%s %zu (rounded to %zu) exceeds the maximum %zu of %s", g_limit_names[l], value, v, max,
                           oacl_config()->soc->name);
        else
            g_limit[l] = v;
        break;
    }
    case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
    case ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE: {
        size_t lo = l == ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE ? 1048576u : 1024u;
        if (value < lo || value > MiB64)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s %zu is outside [%zu, %u]", g_limit_names[l],
                           value, lo, MiB64);
        else
            g_limit[l] = round_up(value, 8);
        break;
    }
    }
    pthread_mutex_unlock(&g_limit_lock);
    return rc;
}

OACL_API aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    int l = (int)limit;
    if (l < 0 || l >= LIMIT_COUNT)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "limit %d is not an aclrtDeviceLimit (0..4)", l);
    aclError rc = limit_supported(l, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&g_limit_lock);
    *value = g_limit[l];
    pthread_mutex_unlock(&g_limit_lock);
    return ACL_SUCCESS;
}

/* Every simulated product has one task scheduler: validate, change nothing. */
OACL_API aclError aclrtSetTsDevice(aclrtTsId tsId)
{
    if ((int)tsId != ACL_TS_ID_AICORE && (int)tsId != ACL_TS_ID_AIVECTOR)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "tsId %d is not ACL_TS_ID_AICORE (0) or ACL_TS_ID_AIVECTOR (1)",
                         (int)tsId);
    return ACL_SUCCESS;
}
