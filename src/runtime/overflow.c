/*
 * Float overflow detection (reliability chapter 3.5, Decisions 12-14):
 * aclrtSetDeviceSatMode / aclrtGetDeviceSatMode, the per-stream overflow
 * switch, the device's overflow status read and cleared by stream tasks,
 * the context overflow area, and the float-overflow variants.
 *
 * The kernel side (src/device/cpu/fp_overflow.c) detects overflow in the
 * vector primitives and plain C code of a launch whose flags ask for it;
 * the first block that overflows calls status_hit() here, which sets the
 * device's flag and mirrors it into every context overflow area of that
 * device. The status is per device for the whole process (A2/A3 keep it
 * so); status and reset tasks are host marks ordered on their stream.
 */
#include <stdlib.h>
#include <string.h>

#include "common/addr_registry.h"
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

#define MAX_DEVICES 64
#define STATUS_BYTES 64u  /* the record aclrtGetOverflowStatus writes */
#define AREA_BYTES 512u   /* a context's overflow area */

/* One context's overflow area (aclrtCtxGetFloatOverflowAddr). */
struct area {
    struct oacl_context *ctx;
    int32_t dev;
    struct oacl_mem_record *rec;
    struct area *next;
};

static struct {
    uint32_t sat_mode;               /* atomic: aclrtFloatOverflowMode streams take at creation */
    uint64_t flag[MAX_DEVICES];      /* atomic: the overflow status of each device */
    pthread_mutex_t lock;            /* guards areas and the mirror writes into them */
    struct area *areas;
} g_ovf = {.sat_mode = ACL_RT_OVERFLOW_MODE_INFNAN, .lock = PTHREAD_MUTEX_INITIALIZER};

uint32_t oacl_overflow_sat_mode(void) { return __atomic_load_n(&g_ovf.sat_mode, __ATOMIC_ACQUIRE); }

/* Products that keep a switch per stream (arch 2201/3510); the others
   report the switch as always on (device-kernel chapter, stream attributes). */
static bool per_stream_switch(void)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    return !p || p->npu_arch == 2201 || p->npu_arch == 3510;
}

uint32_t oacl_overflow_switch(const struct oacl_stream *s)
{
    return per_stream_switch() ? __atomic_load_n(&s->overflow_switch, __ATOMIC_ACQUIRE) : 1u;
}

/* Sets the device's flag to v and mirrors it into the device's areas. */
static void status_set(int32_t dev, uint64_t v)
{
    pthread_mutex_lock(&g_ovf.lock);
    __atomic_store_n(&g_ovf.flag[dev], v, __ATOMIC_RELEASE);
    for (struct area *a = g_ovf.areas; a; a = a->next)
        if (a->dev == dev)
            __atomic_store_n((uint64_t *)(uintptr_t)a->rec->base, v, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&g_ovf.lock);
}

/* Called by the backend from the first block of a launch that overflowed
   with detection on (arg: the device index). */
static void status_hit(void *arg)
{
    const int32_t dev = (int32_t)(intptr_t)arg;
    if (!__atomic_load_n(&g_ovf.flag[dev], __ATOMIC_ACQUIRE))
        status_set(dev, 1);
}

void oacl_overflow_launch(const struct oacl_stream *s, struct oacl_launch *l)
{
    const int32_t dev = s->ctx->dev->id;
    uint32_t f = 0;
    if (oacl_overflow_switch(s) && dev >= 0 && dev < MAX_DEVICES)
        f |= OACL_LAUNCH_FP_DETECT;
    if (s->sat_mode == ACL_RT_OVERFLOW_MODE_SATURATION)
        f |= OACL_LAUNCH_FP_SATURATE;
    l->fp_flags = f;
    l->fp_overflow = f & OACL_LAUNCH_FP_DETECT ? status_hit : NULL;
    l->fp_overflow_arg = (void *)(intptr_t)dev;
}

/* ---- saturation mode ------------------------------------------------------ */

OACL_API aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode)
{
    if ((int)mode != ACL_RT_OVERFLOW_MODE_SATURATION && (int)mode != ACL_RT_OVERFLOW_MODE_INFNAN)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "mode %d is not ACL_RT_OVERFLOW_MODE_SATURATION (0) or ACL_RT_OVERFLOW_MODE_INFNAN (1)",
                         (int)mode);
    __atomic_store_n(&g_ovf.sat_mode, (uint32_t)mode, __ATOMIC_RELEASE);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode)
{
    if (!mode)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "mode is NULL");
    *mode = (aclrtFloatOverflowMode)oacl_overflow_sat_mode();
    return ACL_SUCCESS;
}

/* ---- the stream switch -------------------------------------------------------- */

OACL_API aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag)
{
    if (flag > 1)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "flag %u is not 0 (off) or 1 (on)", flag);
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_OWN, &s, __func__);
    if (rc)
        return rc;
    if (per_stream_switch()) /* elsewhere: always on, nothing to change */
        __atomic_store_n(&s->overflow_switch, flag, __ATOMIC_RELEASE);
    oacl_obj_put(&s->obj);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag)
{
    if (!flag)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "flag is NULL");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_OWN, &s, __func__);
    if (rc)
        return rc;
    *flag = oacl_overflow_switch(s);
    oacl_obj_put(&s->obj);
    return ACL_SUCCESS;
}

/* ---- status and reset tasks ------------------------------------------------------ */

struct status_task {
    int32_t dev;
    void *dst; /* NULL: a reset */
};

static void status_reached(void *arg)
{
    struct status_task *st = arg;
    if (st->dst) {
        unsigned char rec[STATUS_BYTES] = {0};
        const uint64_t v = __atomic_load_n(&g_ovf.flag[st->dev], __ATOMIC_ACQUIRE) ? 1u : 0u;
        memcpy(rec, &v, sizeof(v));
        memcpy(st->dst, rec, sizeof(rec));
    } else {
        status_set(st->dev, 0);
    }
    free(st);
}

static void status_dropped(void *arg) { free(arg); }

/* dst must be 64 writable bytes of device (or managed) memory. */
static aclError check_output(void *dst, const char *fn)
{
    struct oacl_mem_record r;
    const uintptr_t a = (uintptr_t)dst;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r) ||
        (r.kind != OACL_MEM_DEVICE && r.kind != OACL_MEM_MANAGED && r.kind != OACL_MEM_DEVICE_ALIAS))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "outputAddr %p is not device memory", dst);
    if (STATUS_BYTES > r.base + r.size - a)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "the %u-byte record at %p runs past the end of its allocation",
                         STATUS_BYTES, dst);
    if (r.readonly)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "outputAddr %p is read-only device memory", dst);
    return ACL_SUCCESS;
}

/* Queues a status task (dst) or a reset task (dst NULL) on stream. */
static aclError queue_status(void *dst, aclrtStream stream, const char *fn)
{
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    if (dst && (rc = check_output(dst, fn))) {
        oacl_obj_put(&s->obj);
        return rc;
    }
    const int32_t dev = s->ctx->dev->id;
    struct status_task *st = malloc(sizeof(*st));
    if (!st) {
        oacl_obj_put(&s->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for an overflow-status task");
    }
    st->dev = dev < 0 || dev >= MAX_DEVICES ? 0 : dev;
    st->dst = dst;
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->queue_host_mark(s->queue, status_reached, status_dropped, st, err);
    oacl_obj_put(&s->obj);
    if (brc) {
        free(st);
        return oacl_fail(brc, fn, "%s", err);
    }
    return ACL_SUCCESS;
}

static aclError get_status(void *outputAddr, uint64_t outputSize, aclrtStream stream, aclError null_code,
                           const char *fn)
{
    if (!outputAddr)
        return oacl_fail(null_code, fn, "outputAddr is NULL");
    if (outputSize != STATUS_BYTES)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "outputSize is %llu; the overflow status record is %u bytes",
                         (unsigned long long)outputSize, STATUS_BYTES);
    return queue_status(outputAddr, stream, fn);
}

OACL_API aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream)
{
    return get_status(outputAddr, outputSize, stream, ACL_ERROR_INVALID_PARAM, __func__);
}

OACL_API aclError aclrtResetOverflowStatus(aclrtStream stream) { return queue_status(NULL, stream, __func__); }

OACL_API aclError aclrtGetFloatOverflowStatus(void *outputAddr, uint64_t outputSize, aclrtStream stream)
{
    return get_status(outputAddr, outputSize, stream, ACL_ERROR_RT_PARAM_INVALID, __func__);
}

OACL_API aclError aclrtResetFloatOverflowStatus(aclrtStream stream) { return queue_status(NULL, stream, __func__); }

OACL_API aclError aclrtNpuGetFloatOverFlowStatus(void *outputAddr, uint64_t outputSize, uint32_t checkMode,
                                                 aclrtStream stream)
{
    (void)checkMode; /* a hardware check mode: passed through unchecked, nothing to select here */
    return get_status(outputAddr, outputSize, stream, ACL_ERROR_RT_PARAM_INVALID, __func__);
}

OACL_API aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream)
{
    (void)checkMode;
    return queue_status(NULL, stream, __func__);
}

/* ---- context overflow areas ---------------------------------------------------------- */

/* A new zeroed area of dev, recorded as device memory the runtime owns
   (copies see it, aclrtFree refuses it). */
static aclError area_alloc(struct oacl_device *dev, struct oacl_mem_record **out, const char *fn)
{
    char err[OACL_BACKEND_ERRLEN] = "";
    void *mem = NULL;
    struct oacl_mem_record *r = calloc(1, sizeof(*r));
    int brc = r ? oacl_backend()->dev_alloc(dev->bdev, AREA_BYTES, 64, &mem, err) : ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (brc == ACL_SUCCESS) {
        static const unsigned char zeros[AREA_BYTES];
        oacl_backend()->copy(mem, zeros, AREA_BYTES);
        r->base = (uintptr_t)mem;
        r->size = r->user_size = AREA_BYTES;
        r->kind = OACL_MEM_DEVICE;
        r->device = dev->id;
        r->origin = OACL_MEM_ORIGIN_RUNTIME;
        oacl_registry_wrlock();
        if (oacl_registry_insert_locked(OACL_SPACE_ALLOC, r) != 0)
            brc = ACL_ERROR_RT_INTERNAL_ERROR;
        oacl_registry_unlock();
        if (brc)
            oacl_backend()->dev_free(dev->bdev, mem, AREA_BYTES);
    }
    if (brc) {
        free(r);
        return oacl_fail(brc, fn, "cannot allocate the overflow area of a context on device %d%s%s", dev->id,
                         *err ? ": " : "", err);
    }
    *out = r;
    return ACL_SUCCESS;
}

static void area_free(struct oacl_device *dev, struct oacl_mem_record *r)
{
    oacl_registry_wrlock();
    oacl_registry_remove_locked(OACL_SPACE_ALLOC, r->base);
    oacl_registry_unlock();
    oacl_backend()->dev_free(dev->bdev, (void *)r->base, AREA_BYTES);
    free(r);
}

OACL_API aclError aclrtCtxGetFloatOverflowAddr(void **overflowAddr)
{
    if (!overflowAddr)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "overflowAddr is NULL");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    struct oacl_device *dev = ctx->dev;
    if (dev->id < 0 || dev->id >= MAX_DEVICES) {
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __func__, "device %d has no overflow status", dev->id);
    }
    pthread_mutex_lock(&g_ovf.lock);
    struct area *a = g_ovf.areas;
    while (a && a->ctx != ctx)
        a = a->next;
    pthread_mutex_unlock(&g_ovf.lock);
    if (!a) {
        /* Allocated outside the lock (kernels mirror the flag under it). */
        struct oacl_mem_record *r = NULL;
        struct area *fresh = calloc(1, sizeof(*fresh));
        rc = fresh ? area_alloc(dev, &r, __func__)
                   : oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory for an overflow area");
        if (rc) {
            free(fresh);
            oacl_obj_put(&ctx->obj);
            return rc;
        }
        pthread_mutex_lock(&g_ovf.lock);
        for (a = g_ovf.areas; a && a->ctx != ctx;)
            a = a->next;
        if (!a) { /* no other thread made one meanwhile */
            fresh->ctx = ctx;
            fresh->dev = dev->id;
            fresh->rec = r;
            __atomic_store_n((uint64_t *)(uintptr_t)r->base, __atomic_load_n(&g_ovf.flag[dev->id], __ATOMIC_ACQUIRE),
                             __ATOMIC_RELAXED);
            fresh->next = g_ovf.areas;
            g_ovf.areas = a = fresh;
            fresh = NULL;
        }
        pthread_mutex_unlock(&g_ovf.lock);
        if (fresh) {
            area_free(dev, r);
            free(fresh);
        }
    }
    *overflowAddr = (void *)a->rec->base;
    oacl_obj_put(&ctx->obj);
    return ACL_SUCCESS;
}

void oacl_overflow_ctx_release(struct oacl_context *ctx)
{
    pthread_mutex_lock(&g_ovf.lock);
    struct area **pp = &g_ovf.areas, *a;
    while ((a = *pp) && a->ctx != ctx)
        pp = &a->next;
    if (a)
        *pp = a->next;
    pthread_mutex_unlock(&g_ovf.lock);
    if (!a)
        return;
    area_free(ctx->dev, a->rec);
    free(a);
}
