/*
 * Device queries, limits and peer access (spec 4.2, 4.9): aclrtGetDeviceInfo,
 * aclGetDeviceCapability, aclrtGetDeviceCapability, the core limits
 * (aclrt*ResLimit, aclrtGetResInCurrentThread), aclrtGetDeviceUtilizationRate,
 * aclrtQueryDeviceStatus, aclrtCheckArchCompatibility,
 * aclrtSynchronizeDevice(WithTimeout), aclrtDeviceGetStreamPriorityRange,
 * the peer-access functions and aclrtGetErrorVerbose.
 *
 * Every figure comes from the SoC profile (shared/spec/soc-table.md) except
 * the memory size, which is the configured capacity that aclrtGetMemInfo
 * reports too. Query-style functions report a bad device id as 107000,
 * set-style ones as 107001 (spec 3.4).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

/* Stream priorities: 0 is the highest (spec 4.4). */
#define PRIORITY_LEAST 7
#define PRIORITY_GREATEST 0

static const struct oacl_soc_profile *soc(void) { return oacl_config()->soc; }

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Device id of a query (bad id: 107000). */
static aclError query_device(int64_t id, struct oacl_device **out, const char *fn)
{
    return oacl_device_lookup(id, ACL_ERROR_RT_PARAM_INVALID, out, fn);
}

/* ---- aclrtGetDeviceInfo / aclGetDeviceCapability ----------------------------------------- */

/* SIMT limits exist on arch 3510 only (soc-table 4); 0 elsewhere. */
static bool has_simt(const struct oacl_soc_profile *p) { return p->npu_arch == 3510; }

/* Value of attr for device id, or false for an attribute oacl does not know. */
static bool device_attr(const struct oacl_soc_profile *p, int32_t id, int64_t attr, int64_t *v)
{
    bool simt = has_simt(p);
    switch (attr) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM:
        *v = p->aicpu_num;
        return true;
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
        *v = p->aicore_num;
        return true;
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
        *v = p->cube_num;
        return true;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
        *v = p->vector_num;
        return true;
    case ACL_DEV_ATTR_WARP_SIZE:
        *v = simt ? 32 : 0;
        return true;
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
        *v = simt ? 2048 : 0;
        return true;
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
        /* 256 KiB less the SIMT data cache and compiler scratch; the
           runtime reports 0 where there is no SIMT (soc-table 4). */
        *v = simt ? 221184 : 0;
        return true;
    case ACL_DEV_ATTR_MAX_GRID_DIM_X:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
    case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
        *v = simt ? 65535 : 0;
        return true;
    case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
        *v = simt ? 2048 : 0;
        return true;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
        *v = (int64_t)oacl_config()->device_memory;
        return true;
    case ACL_DEV_ATTR_L2_CACHE_SIZE:
        *v = (int64_t)p->l2_bytes;
        return true;
    /* A stand-alone chip on a PCIe card, outside any super pod: ids are the
       device's own index where one is asked for, 0 otherwise. */
    case ACL_DEV_ATTR_SMP_ID:
    case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
    case ACL_DEV_ATTR_SUPER_POD_ID:
    case ACL_DEV_ATTR_MAINBOARD_ID:
        *v = 0;
        return true;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
    case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
        *v = id;
        return true;
    case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
        *v = 1; /* user kernels run */
        return true;
    case ACL_DEV_ATTR_HD_CONNECT_TYPE:
        *v = ACL_HOST_DEVICE_CONNECT_TYPE_PCIE;
        return true;
    case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
        *v = 3; /* PCIe card */
        return true;
    case ACL_DEV_ATTR_IS_VIRTUAL:
        *v = 0;
        return true;
    case ACL_DEV_ATTR_NPU_ARCH:
        *v = p->npu_arch;
        return true;
    default:
        return false;
    }
}

OACL_API aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = query_device(deviceId, &dev, __func__);
    if (rc)
        return rc;
    int64_t v = 0;
    if (!device_attr(soc(), dev->id, (int64_t)attr, &v))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "attr %d is not a device attribute (aclrtDevAttr)",
                         (int)attr);
    *value = v;
    return ACL_SUCCESS;
}

OACL_API aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = query_device(deviceId, &dev, __func__);
    if (rc)
        return rc;
    /* The same figures as the aclrtGetDeviceInfo attributes. */
    int64_t attr;
    switch ((int)deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
        attr = ACL_DEV_ATTR_AICORE_CORE_NUM;
        break;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
        attr = ACL_DEV_ATTR_VECTOR_CORE_NUM;
        break;
    case ACL_DEVICE_INFO_L2_SIZE:
        attr = ACL_DEV_ATTR_L2_CACHE_SIZE;
        break;
    default:
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "deviceInfo %d is not AI_CORE_NUM, VECTOR_CORE_NUM or L2_SIZE", (int)deviceInfo);
    }
    device_attr(soc(), dev->id, attr, value);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = query_device(deviceId, &dev, __func__);
    if (rc)
        return rc;
    switch ((int)devFeatureType) {
    case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV:
        /* Queued tasks are never rewritten in place: there is no model
           capture whose kernel tasks could be updated. */
        *value = ACL_DEV_FEATURE_NOT_SUPPORT;
        return ACL_SUCCESS;
    case ACL_FEATURE_SYSTEM_MEMORY_ACCESS_HOST_MEMORY:
        /* Kernels run in the host's address space. */
        *value = ACL_DEV_FEATURE_SUPPORT;
        return ACL_SUCCESS;
    default:
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "devFeatureType %d is not a known feature",
                         (int)devFeatureType);
    }
}

OACL_API aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority)
{
    if (leastPriority)
        *leastPriority = PRIORITY_LEAST;
    if (greatestPriority)
        *greatestPriority = PRIORITY_GREATEST;
    return ACL_SUCCESS;
}

/* ---- core limits --------------------------------------------------------------------------
 * A limit is device-wide (every context and thread of the device) and stays
 * until aclrtResetDeviceResLimit or the device's final reset. The vector
 * limit bounds how many blocks of each launch run at once (the executor's
 * max_cores): every block of a kernel occupies one vector core on this
 * device. The cube limit is kept and reported but changes nothing, since no
 * kernel here occupies a cube core. */

/* Cores of a kind the profile has, or false for an unknown kind. */
static bool res_cores(int type, uint32_t *n)
{
    switch (type) {
    case ACL_RT_DEV_RES_CUBE_CORE:
        *n = soc()->cube_num;
        return true;
    case ACL_RT_DEV_RES_VECTOR_CORE:
        *n = soc()->vector_num;
        return true;
    default:
        return false;
    }
}

static const char *res_name(int type) { return type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector"; }

/* The limit in effect: the set one, else every core of the kind. */
static uint32_t res_effective(const struct oacl_device *dev, int type, uint32_t cores)
{
    uint32_t l = __atomic_load_n(&dev->res_limit[type], __ATOMIC_ACQUIRE);
    return l ? l : cores;
}

bool oacl_res_cores(int type, uint32_t *n) { return res_cores(type, n); }

uint32_t oacl_device_res_effective(const struct oacl_device *dev, int type)
{
    uint32_t cores = 0;
    return res_cores(type, &cores) ? res_effective(dev, type, cores) : 0;
}

uint32_t oacl_device_core_limit(const struct oacl_device *dev)
{
    return __atomic_load_n(&dev->res_limit[ACL_RT_DEV_RES_VECTOR_CORE], __ATOMIC_ACQUIRE);
}

OACL_API aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = query_device(deviceId, &dev, __func__);
    if (rc)
        return rc;
    uint32_t cores;
    if (!res_cores((int)type, &cores))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "type %d is not CUBE_CORE or VECTOR_CORE", (int)type);
    *value = res_effective(dev, (int)type, cores);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value)
{
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    uint32_t cores;
    if (!res_cores((int)type, &cores))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "type %d is not CUBE_CORE or VECTOR_CORE", (int)type);
    if (value < 1 || value > cores)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%s core limit %u is outside 1..%u (the %s's %s cores)",
                         res_name((int)type), value, cores, soc()->name, res_name((int)type));
    __atomic_store_n(&dev->res_limit[type], value, __ATOMIC_RELEASE);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtResetDeviceResLimit(int32_t deviceId)
{
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    __atomic_store_n(&dev->res_limit[ACL_RT_DEV_RES_CUBE_CORE], 0, __ATOMIC_RELEASE);
    __atomic_store_n(&dev->res_limit[ACL_RT_DEV_RES_VECTOR_CORE], 0, __ATOMIC_RELEASE);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    uint32_t cores;
    if (!res_cores((int)type, &cores))
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "type %d is not CUBE_CORE or VECTOR_CORE", (int)type);
    else
        *value = oacl_thread_res_limit(ctx->dev, (int)type); /* a bound stream's first (stream_limits.c) */
    oacl_obj_put(&ctx->obj);
    return rc;
}

/* ---- status and utilisation ---------------------------------------------------------------- */

OACL_API aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo)
{
    if (!utilizationInfo)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "utilizationInfo is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = query_device(deviceId, &dev, __func__);
    if (rc)
        return rc;
    uint64_t cap = oacl_config()->device_memory;
    pthread_mutex_lock(&dev->mem_lock);
    uint64_t used = dev->mem_used;
    pthread_mutex_unlock(&dev->mem_lock);
    /* Core figures are 0: the CPU device's worker threads are shared by all
       devices and keep no busy time per device. Memory is the share of the
       capacity allocated, rounded up so any use shows. utilizationExtend is
       the caller's and left as it is. */
    utilizationInfo->cubeUtilization = 0;
    utilizationInfo->vectorUtilization = 0;
    utilizationInfo->aicpuUtilization = 0;
    utilizationInfo->memoryUtilization = cap ? (int32_t)((used * 100 + cap - 1) / cap) : 0;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus)
{
    if (!deviceStatus)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "deviceStatus is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = query_device(deviceId, &dev, __func__);
    if (rc)
        return rc;
    /* A simulated device cannot break; a kernel fault leaves it usable (as
       on hardware), so it is always NORMAL. */
    *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible)
{
    if (!socVersion || !canCompatible)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", socVersion ? "canCompatible" : "socVersion");
    const struct oacl_soc_profile *cur = soc();
    if (!cur)
        return oacl_fail(ACL_ERROR_RT_SOC_VERSION, __func__, "OACL_SOC='%s' names no known SoC profile",
                         oacl_config()->soc_request);
    const struct oacl_soc_profile *other = oacl_soc_find(socVersion);
    if (!other)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "socVersion '%.64s' names no SoC oacl knows",
                         socVersion);
    /* Kernels are built for an __NPU_ARCH__; every SoC of that arch runs them. */
    *canCompatible = other->npu_arch == cur->npu_arch;
    return ACL_SUCCESS;
}

/* ---- device synchronisation ------------------------------------------------------------------ */

static bool is_kernel_fault(aclError code)
{
    switch (code) {
    case ACL_ERROR_RT_AICORE_TIMEOUT:
    case ACL_ERROR_RT_AICORE_EXCEPTION:
    case ACL_ERROR_RT_AICORE_TRAP_EXCEPTION:
    case ACL_ERROR_RT_VECTOR_CORE_TIMEOUT:
    case ACL_ERROR_RT_VECTOR_CORE_EXCEPTION:
    case ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION:
    case ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW:
    case ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW:
    case ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW:
    case ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW:
        return true;
    default:
        return false;
    }
}

void oacl_device_note_fault(struct oacl_device *dev, aclError code)
{
    if (is_kernel_fault(code))
        __atomic_store_n(&dev->fault_code, code, __ATOMIC_RELEASE);
}

/* References to every stream of ctx, default stream first; NULL when out
 * of memory. */
static struct oacl_stream **ctx_streams(struct oacl_context *ctx, size_t *n)
{
    pthread_mutex_lock(&ctx->lock);
    size_t count = 1;
    for (struct oacl_stream *s = ctx->streams; s; s = s->next)
        count++;
    for (struct oacl_stream *s = ctx->draining; s; s = s->next)
        count++;
    struct oacl_stream **v = malloc(count * sizeof(*v));
    if (v) {
        v[0] = ctx->default_stream;
        size_t i = 1;
        for (struct oacl_stream *s = ctx->streams; s; s = s->next)
            v[i++] = s;
        for (struct oacl_stream *s = ctx->draining; s; s = s->next)
            v[i++] = s; /* destroyed by force: their work is still the device's */
        for (i = 0; i < count; i++)
            oacl_obj_ref(&v[i]->obj);
    }
    pthread_mutex_unlock(&ctx->lock);
    *n = count;
    return v;
}

/* Waits for every stream of the current context; timeout_ns < 0: no limit. */
static aclError sync_device(int64_t timeout_ns, const char *fn)
{
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    rc = oacl_ctl_device_check(ctx->dev, fn); /* 107022 during a device task abort */
    if (rc == ACL_SUCCESS)
        rc = oacl_ri_ctx_check(ctx, fn); /* 107027 while a stream captures */
    if (rc) {
        oacl_obj_put(&ctx->obj);
        return rc;
    }
    size_t n = 0;
    struct oacl_stream **v = ctx_streams(ctx, &n);
    if (!v) {
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    }
    const struct oacl_backend_ops *be = oacl_backend();
    int64_t deadline = timeout_ns >= 0 ? now_ns() + timeout_ns : -1;
    size_t i = 0;
    for (; i < n; i++) {
        int64_t left = -1;
        if (deadline >= 0) {
            left = deadline - now_ns();
            if (left < 0)
                left = 0; /* still finds streams that are already done */
        }
        char err[OACL_BACKEND_ERRLEN] = "";
        int brc = be->queue_sync(v[i]->queue, left, err);
        if (brc == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
            rc = oacl_fail(brc, fn, "stream %d of device %d still has work after %lld ms", v[i]->id,
                           ctx->dev->id, (long long)(timeout_ns / 1000000));
            break;
        }
        if (brc) {
            /* Every stream is still waited for; the first failure is the
               result, later ones are only described. */
            oacl_device_note_fault(ctx->dev, brc);
            if (rc == ACL_SUCCESS)
                rc = oacl_fail(brc, fn, "stream %d of device %d: %s", v[i]->id, ctx->dev->id, err);
            else
                oacl_note_error("%s: stream %d of device %d also failed: %s (%d)", fn, v[i]->id, ctx->dev->id, err,
                                brc);
        }
    }
    for (i = 0; i < n; i++)
        oacl_obj_put(&v[i]->obj);
    free(v);
    oacl_mem_pool_on_sync(ctx->dev); /* pools' release threshold */
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtSynchronizeDevice(void) {
    OACL_PROF_API("DeviceSynchronize");
    return sync_device(-1, __func__);
}

aclError oacl_device_sync(int64_t timeout_ns, const char *fn) { return sync_device(timeout_ns, fn); }

OACL_API aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
    OACL_PROF_API("DeviceSynchronize");
    if (timeout == 0 || timeout < -1)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "timeout %d is neither -1 (no limit) nor > 0 ms",
                         timeout);
    return sync_device(timeout == -1 ? -1 : (int64_t)timeout * 1000000, __func__);
}

/* ---- peer access ------------------------------------------------------------------------------ */

bool oacl_device_peer_enabled(int32_t from, int32_t to)
{
    struct oacl_device *d = oacl_device_at(from);
    if (!d || to < 0 || to >= 64)
        return false;
    return (__atomic_load_n(&d->peer_mask, __ATOMIC_ACQUIRE) >> to) & 1u;
}

OACL_API aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId)
{
    if (deviceId == peerDeviceId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "deviceId and peerDeviceId are both %d", deviceId);
    if (!canAccessPeer)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "canAccessPeer is NULL");
    struct oacl_device *dev = NULL, *peer = NULL;
    aclError rc = query_device(deviceId, &dev, __func__);
    if (rc == ACL_SUCCESS)
        rc = query_device(peerDeviceId, &peer, __func__);
    if (rc)
        return rc;
    /* All simulated devices share the host's address space. */
    *canAccessPeer = 1;
    return ACL_SUCCESS;
}

/* The peer argument of enable/disable, checked in CANN's order after the
 * current context: same device 100000, out of range 107000. */
static aclError peer_arg(int32_t peerDeviceId, struct oacl_context **ctx_out, struct oacl_device **peer_out,
                         const char *fn)
{
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, fn);
    if (rc)
        return rc;
    struct oacl_device *peer = NULL;
    if (peerDeviceId == ctx->dev->id)
        rc = oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "peerDeviceId %d is the current device", peerDeviceId);
    else
        rc = query_device(peerDeviceId, &peer, fn);
    if (rc) {
        oacl_obj_put(&ctx->obj);
        return rc;
    }
    *ctx_out = ctx;
    *peer_out = peer;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)
{
    if (flags != 0)
        return oacl_fail(ACL_ERROR_FEATURE_UNSUPPORTED, __func__, "flags %#x is reserved and must be 0", flags);
    struct oacl_context *ctx = NULL;
    struct oacl_device *peer = NULL;
    aclError rc = peer_arg(peerDeviceId, &ctx, &peer, __func__);
    if (rc)
        return rc;
    /* Device-wide, and enabling twice is not an error. */
    __atomic_or_fetch(&ctx->dev->peer_mask, 1ull << peer->id, __ATOMIC_ACQ_REL);
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
    struct oacl_context *ctx = NULL;
    struct oacl_device *peer = NULL;
    aclError rc = peer_arg(peerDeviceId, &ctx, &peer, __func__);
    if (rc)
        return rc;
    /* Disabling a pair that is not enabled succeeds (spec 4.2). */
    __atomic_and_fetch(&ctx->dev->peer_mask, ~(1ull << peer->id), __ATOMIC_ACQ_REL);
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status)
{
    if (!status)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "status is NULL");
    struct oacl_device *dev = NULL, *peer = NULL;
    aclError rc = query_device(deviceId, &dev, __func__);
    if (rc == ACL_SUCCESS)
        rc = query_device(peerDeviceId, &peer, __func__);
    if (rc)
        return rc;
    if (dev == peer)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "deviceId and peerDeviceId are both %d", deviceId);
    *status = oacl_device_peer_enabled(dev->id, peer->id);
    return ACL_SUCCESS;
}

void oacl_device_query_reset(struct oacl_device *dev)
{
    __atomic_store_n(&dev->res_limit[ACL_RT_DEV_RES_CUBE_CORE], 0, __ATOMIC_RELEASE);
    __atomic_store_n(&dev->res_limit[ACL_RT_DEV_RES_VECTOR_CORE], 0, __ATOMIC_RELEASE);
    __atomic_store_n(&dev->fault_code, 0, __ATOMIC_RELEASE);
    /* Access in both directions goes with the device's resources. */
    __atomic_store_n(&dev->peer_mask, 0, __ATOMIC_RELEASE);
    uint32_t n = oacl_config()->device_count;
    for (uint32_t i = 0; i < n; i++)
        __atomic_and_fetch(&oacl_device_at((int32_t)i)->peer_mask, ~(1ull << dev->id), __ATOMIC_ACQ_REL);
    oacl_group_device_reset(dev); /* the aclrtSetGroup selection goes too */
}

/* ---- aclrtGetErrorVerbose ------------------------------------------------------------------------ */

OACL_API aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo)
{
    if (!errorInfo)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "errorInfo is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    memset(errorInfo, 0, sizeof(*errorInfo));
    errorInfo->errorType = ACL_RT_NO_ERROR;
    /* A kernel failure stays described until the device's final reset. */
    if (__atomic_load_n(&dev->fault_code, __ATOMIC_ACQUIRE)) {
        errorInfo->errorType = ACL_RT_ERROR_AICORE;
        errorInfo->hasDetail = 1;
        errorInfo->detail.aicoreErrType = ACL_RT_AICORE_ERROR_SW;
    }
    return ACL_SUCCESS;
}
