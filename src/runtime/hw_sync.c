/*
 * aclrtGetHardwareSyncAddr (device-kernel chapter 4.7, Decision 24): the
 * control area through which the cube and vector parts of a mixed kernel
 * synchronise on A2/A3. oacl kernels do not need it; the area is a 4 KiB
 * zero-filled allocation of the device, made at the first call, recorded
 * as device memory the runtime owns (copies see it, aclrtFree refuses it)
 * and kept, at the same address, until the device's final reset.
 */
#include <stdlib.h>

#include "common/addr_registry.h"
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

#define SYNC_AREA 4096u
#define MAX_DEVICES 64

static struct {
    pthread_mutex_t lock;
    struct oacl_mem_record *rec[MAX_DEVICES];
} g_sync = {.lock = PTHREAD_MUTEX_INITIALIZER};

OACL_API aclError aclrtGetHardwareSyncAddr(void **addr)
{
    if (!addr)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "addr is NULL");
    const struct oacl_soc_profile *p = oacl_config()->soc;
    if (p && p->npu_arch != 2201)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "%s is not supported on %s", __func__, p->name);
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_device *dev = ctx->dev;
    oacl_obj_put(&ctx->obj);
    pthread_mutex_lock(&g_sync.lock);
    struct oacl_mem_record *r = g_sync.rec[dev->id];
    if (!r) {
        char err[OACL_BACKEND_ERRLEN] = "";
        void *mem = NULL;
        r = calloc(1, sizeof(*r));
        int brc = r ? oacl_backend()->dev_alloc(dev->bdev, SYNC_AREA, SYNC_AREA, &mem, err)
                    : ACL_ERROR_RT_MEMORY_ALLOCATION;
        if (brc == ACL_SUCCESS) {
            static const unsigned char zeros[SYNC_AREA];
            oacl_backend()->copy(mem, zeros, SYNC_AREA);
            r->base = (uintptr_t)mem;
            r->size = r->user_size = SYNC_AREA;
            r->kind = OACL_MEM_DEVICE;
            r->device = dev->id;
            r->origin = OACL_MEM_ORIGIN_RUNTIME;
            oacl_registry_wrlock();
            if (oacl_registry_insert_locked(OACL_SPACE_ALLOC, r) != 0)
                brc = ACL_ERROR_RT_INTERNAL_ERROR;
            oacl_registry_unlock();
            if (brc)
                oacl_backend()->dev_free(dev->bdev, mem, SYNC_AREA);
        }
        if (brc) {
            free(r);
            pthread_mutex_unlock(&g_sync.lock);
            return oacl_fail(brc, __func__, "cannot allocate the synchronisation area of device %d%s%s", dev->id,
                             *err ? ": " : "", err);
        }
        g_sync.rec[dev->id] = r;
    }
    *addr = (void *)r->base;
    pthread_mutex_unlock(&g_sync.lock);
    return ACL_SUCCESS;
}

void oacl_hw_sync_release(struct oacl_device *dev)
{
    pthread_mutex_lock(&g_sync.lock);
    struct oacl_mem_record *r = g_sync.rec[dev->id];
    g_sync.rec[dev->id] = NULL;
    pthread_mutex_unlock(&g_sync.lock);
    if (!r)
        return;
    oacl_registry_wrlock();
    oacl_registry_remove_locked(OACL_SPACE_ALLOC, r->base);
    oacl_registry_unlock();
    if (dev->bdev)
        oacl_backend()->dev_free(dev->bdev, (void *)r->base, SYNC_AREA);
    free(r);
}
