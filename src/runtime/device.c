/*
 * Device management: aclrtSetDevice / ResetDevice(Force) / GetDevice /
 * GetDeviceCount / GetRunMode / GetSocName. The device queries, limits and
 * peer access are in device_query.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/smi_page.h"
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

#define MAX_DEVICES 64

static struct oacl_device g_devices[MAX_DEVICES];
static pthread_once_t g_devices_once = PTHREAD_ONCE_INIT;

static void devices_init(void)
{
    for (int32_t i = 0; i < MAX_DEVICES; i++) {
        g_devices[i].id = i;
        pthread_mutex_init(&g_devices[i].lock, NULL);
        pthread_mutex_init(&g_devices[i].mem_lock, NULL);
    }
}

const struct oacl_backend_ops *oacl_backend(void) { return &oacl_cpu_backend_ops; }

aclError oacl_devices_check(const char *fn)
{
    const struct oacl_config *c = oacl_config();
    aclError rc = oacl_visible_devices_check(fn);
    if (rc)
        return rc;
    if (!c->soc)
        return oacl_fail(ACL_ERROR_RT_SOC_VERSION, fn, "OACL_SOC='%s' names no known SoC profile", c->soc_request);
    if (c->device_count == 0)
        return oacl_fail(ACL_ERROR_RT_NO_DEVICE, fn, "no devices (OACL_DEVICE_COUNT=0)");
    return ACL_SUCCESS;
}

struct oacl_device *oacl_device_at(int32_t id)
{
    pthread_once(&g_devices_once, devices_init);
    if (id < 0 || (uint32_t)id >= oacl_config()->device_count)
        return NULL;
    return &g_devices[id];
}

aclError oacl_device_open_locked(struct oacl_device *dev, const char *fn)
{
    if (dev->bdev)
        return ACL_SUCCESS;
    char err[OACL_BACKEND_ERRLEN] = "";
    int rc = oacl_backend()->device_open((uint32_t)dev->id, oacl_config()->soc, oacl_config()->device_memory,
                                         &dev->bdev, err);
    if (rc)
        return oacl_fail(rc, fn, "device %d: %s", dev->id, err);
    /* the status page oacl-smi reads */
    const struct oacl_soc_profile *soc = oacl_config()->soc;
    oacl_smi_device_used((uint32_t)dev->id, soc->name, oacl_config()->device_memory, oacl_soc_block_cores(soc));
    return ACL_SUCCESS;
}

aclError oacl_device_lookup(int64_t id, aclError bad_code, struct oacl_device **out, const char *fn)
{
    aclError rc = oacl_devices_check(fn);
    if (rc)
        return rc;
    struct oacl_device *dev = id >= INT32_MIN && id <= INT32_MAX ? oacl_device_at((int32_t)id) : NULL;
    if (!dev)
        return oacl_fail(bad_code, fn, "device id %lld is out of range 0..%u", (long long)id,
                         oacl_config()->device_count - 1);
    *out = dev;
    return ACL_SUCCESS;
}

/* Resolves a device id argument of set/reset (bad id: 107001). */
static aclError device_arg(int32_t id, struct oacl_device **out, const char *fn)
{
    return oacl_device_lookup(id, ACL_ERROR_RT_INVALID_DEVICEID, out, fn);
}

OACL_API aclError aclrtSetDevice(int32_t deviceId)
{
    OACL_PROF_API("SetDevice");
    struct oacl_device *dev = NULL;
    aclError rc = device_arg(deviceId, &dev, __func__);
    if (rc)
        return rc;
    oacl_snapshot_gate();
    pthread_mutex_lock(&dev->lock);
    bool first = !dev->default_ctx;
    pthread_mutex_unlock(&dev->lock);
    if (first) /* observers hear of the device's opening before it happens */
        oacl_ctl_device_state(deviceId, ACL_RT_DEVICE_STATE_SET_PRE);
    void *new_default = NULL;
    pthread_mutex_lock(&dev->lock);
    rc = oacl_device_open_locked(dev, __func__);
    if (rc == ACL_SUCCESS && !dev->default_ctx) {
        rc = oacl_context_create_locked(dev, true, &dev->default_ctx, __func__);
        if (rc == ACL_SUCCESS)
            new_default = dev->default_ctx->default_stream_handle;
    }
    if (rc == ACL_SUCCESS) {
        dev->set_count++;
        oacl_ctx_bind(dev->default_ctx);
    }
    pthread_mutex_unlock(&dev->lock);
    if (new_default)
        oacl_ctl_stream_created(new_default);
    if (rc == ACL_SUCCESS)
        oacl_ctl_device_state(deviceId, ACL_RT_DEVICE_STATE_SET_POST);
    return rc;
}

static aclError reset_device(int32_t deviceId, bool force, const char *fn)
{
    struct oacl_device *dev = NULL;
    aclError rc = device_arg(deviceId, &dev, fn);
    if (rc)
        return rc;
    oacl_snapshot_gate();
    struct oacl_context *release = NULL;
    pthread_mutex_lock(&dev->lock);
    if (dev->set_count == 0) {
        pthread_mutex_unlock(&dev->lock);
        return oacl_fail(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, fn, "device %d is not set (or already reset)", deviceId);
    }
    dev->set_count = force ? 0 : dev->set_count - 1;
    if (dev->set_count == 0) {
        release = dev->default_ctx;
        dev->default_ctx = NULL;
    }
    pthread_mutex_unlock(&dev->lock);
    /* Threads still bound to the default context find its handle retired
       and report ACL_ERROR_RT_CONTEXT_NULL from now on. */
    if (release) {
        oacl_ctl_stream_destroying(release->default_stream); /* DESTROY_PRE, then RESET_PRE */
        oacl_ctl_device_state(deviceId, ACL_RT_DEVICE_STATE_RESET_PRE);
        oacl_context_teardown(release);
        oacl_device_query_reset(dev);
        oacl_hw_sync_release(dev); /* aclrtGetHardwareSyncAddr's area */
        __atomic_store_n(&dev->task_abort, 0, __ATOMIC_RELEASE); /* a failed task abort ends here */
        oacl_ctl_device_state(deviceId, ACL_RT_DEVICE_STATE_RESET_POST);
    }
    return ACL_SUCCESS;
}

OACL_API aclError aclrtResetDevice(int32_t deviceId) {
    OACL_PROF_API("DeviceReset");
    return reset_device(deviceId, false, __func__);
}

OACL_API aclError aclrtResetDeviceForce(int32_t deviceId) {
    OACL_PROF_API("DeviceReset");
    return reset_device(deviceId, true, __func__);
}

OACL_API aclError aclrtGetDevice(int32_t *deviceId)
{
    if (!deviceId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "deviceId is NULL");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    *deviceId = ctx->dev->id;
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetDeviceCount(uint32_t *count)
{
    if (!count)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "count is NULL");
    aclError rc = oacl_devices_check(__func__);
    if (rc)
        return rc;
    *count = oacl_config()->device_count;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
    if (!runMode)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "runMode is NULL");
    *runMode = ACL_HOST;
    return ACL_SUCCESS;
}

/* Works without aclInit and prints nothing on stdout: SoC-detection tools
 * take the first bare word a program prints as the SoC name. */
OACL_API const char *aclrtGetSocName(void)
{
    const struct oacl_config *c = oacl_config();
    if (!c->soc) {
        oacl_fail(ACL_ERROR_RT_SOC_VERSION, __func__, "OACL_SOC='%s' names no known SoC profile", c->soc_request);
        return NULL;
    }
    return c->soc->name;
}
