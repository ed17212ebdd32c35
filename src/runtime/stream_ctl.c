/*
 * Execution control (acl-rt-reliability.md §3.3): aclrtStreamStop,
 * aclrtStreamAbort, aclrtDeviceTaskAbort and its callbacks, and the stream
 * and device state observers.
 *
 * Stop and abort act on the stream's backend queue (queue_stop/queue_abort):
 * the running task is interrupted without counting as a failure, queued
 * tasks stay (stop) or are dropped (abort). The observers live in three
 * name-ordered registries; callbacks are called from a snapshot, without
 * any runtime lock held (Decision 19).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/runtime.h"

/* CANN bounds stream aborts internally by 60 s. */
#define ABORT_BOUND_NS (60ll * 1000000000ll)
/* aclrtDeviceTaskAbort's largest timeout: 36 minutes, in ms. */
#define TASK_ABORT_MAX_MS 2160000u

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- name-ordered registries --------------------------------------------- */

struct reg_entry {
    char *name;
    void (*fn)(void);       /* the callback, cast back by its caller */
    void *args;
    struct reg_entry *next; /* ascending byte-wise name order */
};

struct registry {
    pthread_mutex_t lock;
    struct reg_entry *head;
    uint32_t count;
};

static struct registry g_stream_obs = {.lock = PTHREAD_MUTEX_INITIALIZER};
static struct registry g_device_obs = {.lock = PTHREAD_MUTEX_INITIALIZER};
static struct registry g_abort_obs = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Adds name -> (fn, args), or removes name when fn is NULL. */
static aclError reg_set(struct registry *r, const char *name, void (*fn)(void), void *args, const char *api)
{
    if (!name)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, api, "regName is NULL");
    pthread_mutex_lock(&r->lock);
    struct reg_entry **link = &r->head;
    int cmp = 1;
    while (*link && (cmp = strcmp((*link)->name, name)) < 0)
        link = &(*link)->next;
    bool found = *link && cmp == 0;
    if (!fn) {
        if (found) {
            struct reg_entry *e = *link;
            *link = e->next;
            __atomic_sub_fetch(&r->count, 1, __ATOMIC_RELAXED);
            free(e->name);
            free(e);
        }
        pthread_mutex_unlock(&r->lock);
        return ACL_SUCCESS; /* removing an unknown name succeeds */
    }
    if (found) {
        pthread_mutex_unlock(&r->lock);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, api,
                         "a callback is already registered under the name '%s'; unregister it first", name);
    }
    struct reg_entry *e = calloc(1, sizeof(*e));
    char *copy = strdup(name);
    if (!e || !copy) {
        pthread_mutex_unlock(&r->lock);
        free(e);
        free(copy);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory for a registration");
    }
    e->name = copy;
    e->fn = fn;
    e->args = args;
    e->next = *link;
    *link = e;
    __atomic_add_fetch(&r->count, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&r->lock);
    return ACL_SUCCESS;
}

struct reg_call {
    void (*fn)(void);
    void *args;
};

/* The registered callbacks in name order (free the result); NULL when none. */
static struct reg_call *reg_snapshot(struct registry *r, uint32_t *n)
{
    *n = 0;
    if (__atomic_load_n(&r->count, __ATOMIC_RELAXED) == 0)
        return NULL;
    pthread_mutex_lock(&r->lock);
    uint32_t count = __atomic_load_n(&r->count, __ATOMIC_RELAXED);
    struct reg_call *v = count ? calloc(count, sizeof(*v)) : NULL;
    if (v)
        for (struct reg_entry *e = r->head; e; e = e->next) {
            v[*n].fn = e->fn;
            v[*n].args = e->args;
            (*n)++;
        }
    pthread_mutex_unlock(&r->lock);
    return v;
}

/* ---- state observers --------------------------------------------------------- */

OACL_API aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback, void *args)
{
    return reg_set(&g_stream_obs, regName, (void (*)(void))callback, args, __func__);
}

OACL_API aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback, void *args)
{
    return reg_set(&g_device_obs, regName, (void (*)(void))callback, args, __func__);
}

static void stream_state(void *handle, aclrtStreamState state)
{
    uint32_t n;
    struct reg_call *v = reg_snapshot(&g_stream_obs, &n);
    for (uint32_t i = 0; i < n; i++)
        ((aclrtStreamStateCallback)v[i].fn)(handle, state, v[i].args);
    free(v);
}

void oacl_ctl_stream_created(void *handle) { stream_state(handle, ACL_RT_STREAM_STATE_CREATE_POST); }

void oacl_ctl_stream_destroying(struct oacl_stream *s)
{
    if (__atomic_exchange_n(&s->destroy_told, 1u, __ATOMIC_ACQ_REL) == 0)
        stream_state(s->handle, ACL_RT_STREAM_STATE_DESTROY_PRE);
}

void oacl_ctl_device_state(int32_t device, int state)
{
    uint32_t n;
    struct reg_call *v = reg_snapshot(&g_device_obs, &n);
    for (uint32_t i = 0; i < n; i++)
        ((aclrtDeviceStateCallback)v[i].fn)(device, (aclrtDeviceState)state, v[i].args);
    free(v);
}

/* ---- checks used by submissions and synchronisations --------------------------- */

aclError oacl_ctl_device_check(const struct oacl_device *dev, const char *fn)
{
    if (__builtin_expect(__atomic_load_n(&dev->task_abort, __ATOMIC_ACQUIRE) != 0, 0))
        return oacl_fail(ACL_ERROR_RT_DEVICE_TASK_ABORT, fn, "device %d is in a task abort (aclrtDeviceTaskAbort)",
                         dev->id);
    return ACL_SUCCESS;
}

aclError oacl_ctl_stream_check(const struct oacl_stream *s, const char *fn)
{
    aclError rc = oacl_ctl_device_check(s->ctx->dev, fn);
    if (rc)
        return rc;
    if (__builtin_expect(__atomic_load_n(&s->aborting, __ATOMIC_ACQUIRE) != 0, 0))
        return oacl_fail(ACL_ERROR_RT_STREAM_ABORT, fn, "stream %d is being aborted (aclrtStreamAbort)", s->id);
    return ACL_SUCCESS;
}

/* ---- stop and abort ---------------------------------------------------------------- */

OACL_API aclError aclrtStreamStop(aclrtStream stream)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "stream is NULL (the default stream cannot be stopped)");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_OWN, &s, __func__);
    if (rc)
        return rc;
    if (s->is_default) {
        oacl_obj_put(&s->obj);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "stream %p is a default stream, which cannot be stopped",
                         stream);
    }
    if (__atomic_load_n(&s->ctx->dev->task_abort, __ATOMIC_ACQUIRE) || __atomic_load_n(&s->aborting, __ATOMIC_ACQUIRE))
        rc = oacl_fail(ACL_ERROR_RT_STREAM_ABORT, __func__, "stream %d is being aborted (stream or device task abort)",
                       s->id);
    else if (oacl_backend()->queue_stop(s->queue, ABORT_BOUND_NS))
        rc = oacl_fail(ACL_ERROR_RT_WAIT_TIMEOUT, __func__, "the task running on stream %d did not stop within 60 s",
                       s->id);
    oacl_obj_put(&s->obj);
    return rc;
}

OACL_API aclError aclrtStreamAbort(aclrtStream stream)
{
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_OWN, &s, __func__);
    if (rc)
        return rc;
    /* A device task abort in progress covers this stream already. */
    if (!__atomic_load_n(&s->ctx->dev->task_abort, __ATOMIC_ACQUIRE)) {
        __atomic_add_fetch(&s->aborting, 1, __ATOMIC_ACQ_REL);
        if (oacl_backend()->queue_abort(s->queue, ABORT_BOUND_NS))
            rc = oacl_fail(ACL_ERROR_RT_WAIT_TIMEOUT, __func__,
                           "the task running on stream %d did not stop within 60 s", s->id);
        __atomic_sub_fetch(&s->aborting, 1, __ATOMIC_ACQ_REL);
    }
    oacl_obj_put(&s->obj);
    return rc;
}

/* ---- device task abort ---------------------------------------------------------------- */

struct ctx_node {
    struct oacl_context *ctx;
    struct ctx_node *next;
};
static pthread_mutex_t g_ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ctx_node *g_ctxs;

void oacl_ctl_ctx_add(struct oacl_context *ctx)
{
    struct ctx_node *n = malloc(sizeof(*n));
    if (!n)
        return; /* only a device task abort would miss it */
    n->ctx = ctx;
    pthread_mutex_lock(&g_ctx_lock);
    n->next = g_ctxs;
    g_ctxs = n;
    pthread_mutex_unlock(&g_ctx_lock);
}

void oacl_ctl_ctx_remove(struct oacl_context *ctx)
{
    pthread_mutex_lock(&g_ctx_lock);
    struct ctx_node **link = &g_ctxs;
    while (*link && (*link)->ctx != ctx)
        link = &(*link)->next;
    struct ctx_node *n = *link;
    if (n)
        *link = n->next;
    pthread_mutex_unlock(&g_ctx_lock);
    free(n);
}

/* The live contexts on dev (+1 reference each); *n of them. */
static struct oacl_context **device_contexts(const struct oacl_device *dev, size_t *n)
{
    *n = 0;
    pthread_mutex_lock(&g_ctx_lock);
    size_t count = 0;
    for (struct ctx_node *c = g_ctxs; c; c = c->next)
        count += c->ctx->dev == dev;
    struct oacl_context **v = count ? calloc(count, sizeof(*v)) : NULL;
    if (v)
        for (struct ctx_node *c = g_ctxs; c; c = c->next)
            if (c->ctx->dev == dev) {
                oacl_obj_ref(&c->ctx->obj);
                v[(*n)++] = c->ctx;
            }
    pthread_mutex_unlock(&g_ctx_lock);
    return v;
}

/* Every stream of ctx (default, created, force-destroyed still draining),
 * +1 reference each; NULL when out of memory. */
static struct oacl_stream **context_streams(struct oacl_context *ctx, size_t *count)
{
    size_t cap = 8, n = 0;
    *count = 0;
    struct oacl_stream **v = malloc(cap * sizeof(*v));
    if (!v)
        return NULL;
    pthread_mutex_lock(&ctx->lock);
    for (int list = 0; list < 3; list++) {
        struct oacl_stream *s = list == 0 ? ctx->default_stream : list == 1 ? ctx->streams : ctx->draining;
        for (; s; s = list == 0 ? NULL : s->next) {
            if (n == cap) {
                struct oacl_stream **w = realloc(v, 2 * cap * sizeof(*v));
                if (!w)
                    break;
                v = w;
                cap *= 2;
            }
            oacl_obj_ref(&s->obj);
            v[n++] = s;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    *count = n;
    return v;
}

/* Aborts every stream of ctx; false when one did not stop before deadline. */
static bool abort_context(struct oacl_context *ctx, int64_t deadline)
{
    size_t n = 0;
    struct oacl_stream **v = context_streams(ctx, &n);
    if (!v)
        return true;
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        int64_t left = deadline < 0 ? -1 : deadline - mono_ns();
        if (ok && oacl_backend()->queue_abort(v[i]->queue, left < 0 && deadline >= 0 ? 0 : left))
            ok = false;
        oacl_obj_put(&v[i]->obj);
    }
    free(v);
    return ok;
}

/* Runs the abort callbacks of stage; the first non-zero result, else 0. */
static int32_t abort_callbacks(int32_t device, aclrtDeviceTaskAbortStage stage, uint32_t timeout_ms, int64_t deadline)
{
    uint32_t n;
    struct reg_call *v = reg_snapshot(&g_abort_obs, &n);
    int32_t ret = 0;
    for (uint32_t i = 0; i < n && ret == 0; i++) {
        uint32_t remaining = 0;
        if (timeout_ms) {
            int64_t left = deadline - mono_ns();
            remaining = left > 0 ? (uint32_t)(left / 1000000) : 0;
        }
        ret = ((aclrtDeviceTaskAbortCallback)v[i].fn)(device, stage, remaining, v[i].args);
    }
    free(v);
    return ret;
}

OACL_API aclError aclrtSetDeviceTaskAbortCallback(const char *regName, aclrtDeviceTaskAbortCallback callback,
                                                  void *args)
{
    return reg_set(&g_abort_obs, regName, (void (*)(void))callback, args, __func__);
}

OACL_API aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout)
{
    if (timeout > TASK_ABORT_MAX_MS)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "timeout %u ms is above the limit of %u ms", timeout,
                         TASK_ABORT_MAX_MS);
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    size_t n = 0;
    struct oacl_context **ctxs = device_contexts(dev, &n);
    if (n == 0) {
        free(ctxs);
        return oacl_fail(ACL_ERROR_RT_CONTEXT_NULL, __func__, "the process has no context on device %d", deviceId);
    }
    int64_t deadline = timeout ? mono_ns() + (int64_t)timeout * 1000000 : -1;
    /* (1) submissions and synchronisations for the device refuse from now on */
    __atomic_add_fetch(&dev->task_abort, 1, __ATOMIC_ACQ_REL);
    int32_t cb = abort_callbacks(deviceId, ACL_RT_DEVICE_TASK_ABORT_PRE, timeout, deadline); /* (2) */
    bool ok = true;
    if (cb == 0)
        for (size_t i = 0; i < n; i++) /* (3) kill and empty every queue */
            ok = abort_context(ctxs[i], deadline) && ok;
    if (cb == 0 && ok)
        cb = abort_callbacks(deviceId, ACL_RT_DEVICE_TASK_ABORT_POST, timeout, deadline); /* (4) */
    if (cb == 0 && ok && deadline >= 0 && mono_ns() > deadline)
        ok = false;
    if (cb == 0 && ok) {
        /* (5) clean: STOP failures forgotten, the device back to normal */
        for (size_t i = 0; i < n; i++)
            __atomic_store_n(&ctxs[i]->fail.error, 0, __ATOMIC_RELEASE);
        __atomic_store_n(&dev->fault_code, 0, __ATOMIC_RELEASE);
        __atomic_store_n(&dev->task_abort, 0, __ATOMIC_RELEASE);
    }
    for (size_t i = 0; i < n; i++)
        oacl_obj_put(&ctxs[i]->obj);
    free(ctxs);
    /* A failed sequence leaves the device in the abort state: call again or
       reset the device. */
    if (cb != 0)
        return oacl_fail(cb, __func__, "a device task abort callback returned %d; device %d stays in the abort state",
                         cb, deviceId);
    if (!ok)
        return oacl_fail(ACL_ERROR_RT_WAIT_TIMEOUT, __func__,
                         "the abort of device %d did not finish within %u ms; the device stays in the abort state",
                         deviceId, timeout);
    return ACL_SUCCESS;
}

/* ---- helpers of the process snapshot (snapshot.c) ---------------------------------- */

uint64_t oacl_ctl_active_devices(void)
{
    uint64_t mask = 0;
    pthread_mutex_lock(&g_ctx_lock);
    for (struct ctx_node *c = g_ctxs; c; c = c->next)
        if (c->ctx->dev->id >= 0 && c->ctx->dev->id < 64)
            mask |= 1ull << c->ctx->dev->id;
    pthread_mutex_unlock(&g_ctx_lock);
    return mask;
}

aclError oacl_ctl_sync_all(const char *fn)
{
    aclError rc = ACL_SUCCESS;
    uint64_t mask = oacl_ctl_active_devices();
    for (int32_t d = 0; d < 64; d++) {
        if (!(mask >> d & 1u))
            continue;
        size_t n = 0;
        struct oacl_context **ctxs = device_contexts(oacl_device_at(d), &n);
        for (size_t i = 0; i < n; i++) {
            size_t ns = 0;
            struct oacl_stream **v = context_streams(ctxs[i], &ns);
            for (size_t j = 0; j < ns; j++) {
                char err[OACL_BACKEND_ERRLEN] = "";
                int brc = oacl_backend()->queue_sync(v[j]->queue, -1, err);
                if (brc && rc == ACL_SUCCESS)
                    rc = oacl_fail(brc, fn, "stream %d of device %d: %s", v[j]->id, d, err);
                oacl_obj_put(&v[j]->obj);
            }
            free(v);
            int stopped = __atomic_load_n(&ctxs[i]->fail.error, __ATOMIC_ACQUIRE);
            if (stopped && rc == ACL_SUCCESS)
                rc = oacl_fail(stopped, fn, "a context of device %d stopped after a task failed", d);
            oacl_obj_put(&ctxs[i]->obj);
        }
        free(ctxs);
    }
    return rc;
}
