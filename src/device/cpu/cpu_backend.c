/*
 * The CPU device's ops table: devices, queues and kernel launches on top of
 * the executor; host memory and kernel binaries in their own files.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "common/dump.h"
#include "common/log.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/fault.h"
#include "device/cpu/soc_profile.h"

/* Live queues, so that work still queued at process exit can finish. */
struct queue_link {
    struct oacl_queue q; /* first: the ops see a struct oacl_queue* */
    struct queue_link *prev, *next;
};

static pthread_mutex_t g_queues_lock = PTHREAD_MUTEX_INITIALIZER;
static struct queue_link *g_queues;
static pthread_once_t g_atexit_once = PTHREAD_ONCE_INIT;

/* Kernels launched and never synchronised still run to completion before
 * the process exits, as they would on a device. */
static void drain_at_exit(void)
{
    if (oacl_block())
        return; /* exit() called from inside a kernel: nothing can be waited for */
    pthread_mutex_lock(&g_queues_lock);
    for (struct queue_link *l = g_queues; l; l = l->next)
        oacl_exec_wait(&l->q, oacl_exec_submitted(&l->q), -1);
    pthread_mutex_unlock(&g_queues_lock);
}

static void register_atexit(void) { atexit(drain_at_exit); }

static int cpu_device_open(uint32_t index, const struct oacl_soc_profile *soc, uint64_t memory_bytes,
                           struct oacl_bdev **out, char *err)
{
    struct oacl_bdev *d = calloc(1, sizeof(*d));
    if (!d) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    int rc = oacl_cpu_arena_init(d, memory_bytes, err);
    if (rc) {
        free(d);
        return rc;
    }
    int e = oacl_exec_start(soc);
    if (e) {
        free(d);
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot start the device's worker threads: %s", strerror(e));
        return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    pthread_once(&g_atexit_once, register_atexit);
    d->index = index;
    d->soc = soc;
    d->ub_size = soc->ub_bytes;
    d->npu_arch = soc->npu_arch;
    *out = d;
    return ACL_SUCCESS;
}

static void cpu_device_close(struct oacl_bdev *dev) { free(dev); }

static int cpu_queue_create(struct oacl_bdev *dev, struct oacl_fail_group *group, struct oacl_queue **out,
                            char *err)
{
    struct queue_link *l = calloc(1, sizeof(*l));
    if (!l) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a stream");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    oacl_exec_queue_init(&l->q, dev, group);
    pthread_mutex_lock(&g_queues_lock);
    l->next = g_queues;
    if (g_queues)
        g_queues->prev = l;
    g_queues = l;
    pthread_mutex_unlock(&g_queues_lock);
    *out = &l->q;
    return ACL_SUCCESS;
}

static int cpu_queue_abort(struct oacl_queue *q, int64_t timeout_ns);

static void cpu_queue_destroy(struct oacl_queue *q)
{
    struct queue_link *l = (struct queue_link *)q;
    if (oacl_exec_held(q))
        cpu_queue_abort(q, -1); /* a stopped queue's tasks would never run: dropped */
    oacl_exec_wait(q, oacl_exec_submitted(q), -1);
    oacl_exec_queue_fini(q);
    pthread_mutex_lock(&g_queues_lock);
    if (l->prev)
        l->prev->next = l->next;
    else
        g_queues = l->next;
    if (l->next)
        l->next->prev = l->prev;
    pthread_mutex_unlock(&g_queues_lock);
    free(l);
}

void oacl_cpu_wait_queues(struct oacl_bdev *dev)
{
    pthread_mutex_lock(&g_queues_lock);
    for (struct queue_link *l = g_queues; l; l = l->next)
        if (!dev || l->q.dev == dev)
            oacl_exec_wait(&l->q, oacl_exec_submitted(&l->q), -1);
    pthread_mutex_unlock(&g_queues_lock);
}

static void cpu_dev_free(struct oacl_bdev *dev, void *ptr, size_t size)
{
    /* Work queued before the free may still read or write the memory: let
       the device's queues get past it first. */
    oacl_cpu_wait_queues(dev);
    oacl_cpu_share_forget(dev, ptr); /* an exported allocation leaves its own file */
    oacl_cpu_dev_release(dev, ptr, size);
}

static void cpu_copy(void *dst, const void *src, size_t n)
{
    oacl_cpu_gate_enter(); /* the destination may be device memory being exported */
    memmove(dst, src, n);
    oacl_cpu_gate_leave();
}
/* Managed memory is reachable from every device: all queues get past the
 * free first. */
static void cpu_managed_free(void *ptr, size_t size)
{
    pthread_mutex_lock(&g_queues_lock);
    for (struct queue_link *l = g_queues; l; l = l->next)
        oacl_exec_wait(&l->q, oacl_exec_submitted(&l->q), -1);
    pthread_mutex_unlock(&g_queues_lock);
    oacl_cpu_managed_release(ptr, size);
}


/* ---- copies and fills in stream order ---- */

/* Large copies are cut into chunks that any executing thread may take, so
 * they use the device's threads like a kernel does. */
#define COPY_CHUNK ((size_t)2 << 20)

struct copy_job {
    uint8_t *dst;
    const uint8_t *src; /* NULL: fill with value */
    size_t n;
    uint8_t value;
};

static void copy_unit(struct oacl_task *t, uint32_t unit)
{
    struct copy_job *j = t->data;
    size_t off = (size_t)unit * COPY_CHUNK;
    size_t len = j->n - off < COPY_CHUNK ? j->n - off : COPY_CHUNK;
    if (j->src)
        memcpy(j->dst + off, j->src + off, len);
    else
        memset(j->dst + off, j->value, len);
}

/* Overlapping copies run as one unit (memmove) to keep their meaning. */
static void move_unit(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct copy_job *j = t->data;
    memmove(j->dst, j->src, j->n);
}

static void job_release(struct oacl_task *t) { free(t); }

static int queue_job(struct oacl_queue *q, void *dst, const void *src, uint8_t value, size_t n, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct copy_job));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a copy");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct copy_job *j = t->data;
    j->dst = dst;
    j->src = src;
    j->n = n;
    j->value = value;
    bool overlap = src && (const uint8_t *)dst < (const uint8_t *)src + n && (const uint8_t *)src < (uint8_t *)dst + n;
    t->kind = OACL_TASK_UNITS;
    t->units = overlap ? 1 : (uint32_t)((n + COPY_CHUNK - 1) / COPY_CHUNK);
    t->run = overlap ? move_unit : copy_unit;
    t->release = job_release;
    t->dev = q->dev;
    t->trace_type = src ? OACL_TT_MEMCPY : OACL_TT_MEMSET;
    t->trace_bytes = n;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

static int cpu_queue_copy(struct oacl_queue *q, void *dst, const void *src, size_t n, char *err)
{
    return queue_job(q, dst, src, 0, n, err);
}

static int cpu_queue_memset(struct oacl_queue *q, void *dst, uint8_t value, size_t n, char *err)
{
    return queue_job(q, dst, NULL, value, n, err);
}

/* ---- host steps ---- */

struct host_step {
    void (*arrive)(void *arg, void *token);
    void (*drop)(void *arg);
    void (*cancel)(void *arg);
    void *arg;
};

static bool host_step_start(struct oacl_task *t)
{
    struct host_step *h = t->data;
    h->arrive(h->arg, t);
    return false;
}

static void host_step_cancel(struct oacl_task *t)
{
    struct host_step *h = t->data;
    h->cancel(h->arg);
}

static void host_step_release(struct oacl_task *t)
{
    struct host_step *h = t->data;
    if (!t->started && h->drop)
        h->drop(h->arg);
    free(t);
}

static int cpu_queue_host_step(struct oacl_queue *q, void (*arrive)(void *arg, void *token), void (*drop)(void *arg),
                               void (*cancel)(void *arg), void *arg, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct host_step));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a host task");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct host_step *h = t->data;
    h->arrive = arrive;
    h->drop = drop;
    h->cancel = cancel;
    h->arg = arg;
    t->kind = OACL_TASK_EXTERNAL;
    t->start = host_step_start;
    t->cancel = cancel ? host_step_cancel : NULL;
    t->release = host_step_release;
    t->dev = q->dev;
    t->trace_type = OACL_TT_HOSTFUNC;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

static void cpu_host_step_done(void *token) { oacl_exec_task_done(token); }

/* ---- host marks (stream-ordered memory bookkeeping) ---- */

struct host_mark {
    void (*reached)(void *arg);
    void (*dropped)(void *arg);
    void *arg;
};

/* An INLINE task: it runs in the queue's order on the thread that got
 * there, and drive() loops over runs of them instead of recursing. */
static void host_mark_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct host_mark *m = t->data;
    m->reached(m->arg);
}

static void host_mark_release(struct oacl_task *t)
{
    struct host_mark *m = t->data;
    if (!t->started && m->dropped)
        m->dropped(m->arg);
    free(t);
}

static int cpu_queue_host_mark(struct oacl_queue *q, void (*reached)(void *arg), void (*dropped)(void *arg), void *arg,
                               char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct host_mark));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a stream-ordered free");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct host_mark *m = t->data;
    m->reached = reached;
    m->dropped = dropped;
    m->arg = arg;
    t->kind = OACL_TASK_INLINE;
    t->run = host_mark_run;
    t->release = host_mark_release;
    t->dev = q->dev;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

static void kernel_task_release(struct oacl_task *t)
{
    oacl_cpu_module_put(t->module);
    if (t->dump)
        oacl_dump_plan_free(t->dump);
    free(t);
}

#define TASK_HEADER ((sizeof(struct oacl_task) + 63) & ~(size_t)63)

static int cpu_queue_launch(struct oacl_queue *q, const struct oacl_launch *l, char *err)
{
    size_t blob = l->copy_args ? (l->args_size + 63) & ~(size_t)63 : 0;
    struct oacl_task *t = aligned_alloc(64, TASK_HEADER + (blob ? blob : 64));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a launch");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    memset(t, 0, offsetof(struct oacl_task, fail_msg));
    t->fail_msg[0] = '\0';
    unsigned char *area = (unsigned char *)t + TASK_HEADER;
    if (l->copy_args) {
        if (l->args_size)
            memcpy(area, l->args, l->args_size);
        for (uint32_t i = 0; i < l->num_patches; i++) {
            uint64_t addr = (uint64_t)(uintptr_t)(area + l->patches[i].data_offset);
            memcpy(area + l->patches[i].addr_offset, &addr, sizeof(addr));
        }
        t->args = area; /* never NULL, even for a kernel without parameters */
    } else {
        t->args = l->args;
    }
    t->units = l->num_blocks;
    t->refs = 1;
    t->run = oacl_kernel_run_block;
    t->release = kernel_task_release;
    if (l->module) /* NULL for kernels linked into the program */
        oacl_cpu_module_ref(l->module);
    t->module = l->module;
    t->kernel = l->kernel->backend_kernel;
    t->block_offset = l->block_offset;
    t->timeout_ns = l->timeout_ns;
    t->max_workers = l->max_cores;
    t->dev = q->dev;
    t->trace_type = OACL_TT_KERNEL_AIVEC; /* every oacl kernel runs on vector cores */
    t->dump = l->dump;                     /* the task owns the plan from here */
    t->aiv = l->aiv;
    t->args_size = l->args_size;
    t->fault_user = l->fault_user;
    t->fault_func = l->fault_func;
    t->fp_ctl = l->fp_flags;
    t->fp_hit = 0;
    t->fp_overflow = l->fp_overflow;
    t->fp_overflow_arg = l->fp_overflow_arg;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

static int cpu_queue_sync(struct oacl_queue *q, int64_t timeout_ns, char *err)
{
    if (oacl_cpu_reporting(q)) {
        snprintf(err, OACL_BACKEND_ERRLEN, "synchronising the stream of the failed task from its exception "
                                           "callback would wait for itself");
        return ACL_ERROR_RT_INTERNAL_ERROR;
    }
    uint64_t target = oacl_exec_submitted(q);
    int waited = oacl_exec_wait(q, target, timeout_ns);
    oacl_kernel_output_flush();
    if (waited == ECANCELED || oacl_exec_held(q)) { /* stopped: not usable until aborted */
        snprintf(err, OACL_BACKEND_ERRLEN, "the stream is stopped (aclrtStreamStop): its queued work cannot run");
        return ACL_ERROR_RT_STREAM_ABORT;
    }
    if (waited == ETIMEDOUT) {
        snprintf(err, OACL_BACKEND_ERRLEN, "work still running after %lld ms",
                 (long long)(timeout_ns / 1000000));
        return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
    }
    return oacl_exec_take_fault(q, err, OACL_BACKEND_ERRLEN);
}

static int cpu_queue_wait(struct oacl_queue *q, int64_t timeout_ns)
{
    if (oacl_cpu_reporting(q))
        return ACL_ERROR_RT_INTERNAL_ERROR; /* inside the failed task's exception callback */
    int rc = oacl_exec_wait(q, oacl_exec_submitted(q), timeout_ns);
    return rc == ETIMEDOUT ? ACL_ERROR_RT_STREAM_SYNC_TIMEOUT : rc == ECANCELED ? ACL_ERROR_RT_STREAM_ABORT : 0;
}

/* ---- execution control ---- */

static int cpu_queue_stop(struct oacl_queue *q, int64_t timeout_ns)
{
    oacl_exec_hold(q, true);
    return oacl_exec_kill_running(q, timeout_ns) ? ACL_ERROR_RT_WAIT_TIMEOUT : 0;
}

static int cpu_queue_abort(struct oacl_queue *q, int64_t timeout_ns)
{
    oacl_exec_hold(q, true); /* nothing starts while the queue is emptied */
    if (oacl_exec_kill_running(q, timeout_ns))
        return ACL_ERROR_RT_WAIT_TIMEOUT; /* still stopped: a later abort can finish */
    oacl_exec_discard_pending(q);
    oacl_exec_take_fault(q, NULL, 0);
    oacl_exec_hold(q, false);
    oacl_kernel_output_flush();
    return 0;
}

static bool cpu_queue_stopped(struct oacl_queue *q) { return oacl_exec_held(q); }

static bool cpu_queue_idle(struct oacl_queue *q)
{
    return __atomic_load_n(&q->completed, __ATOMIC_ACQUIRE) >= oacl_exec_submitted(q);
}

const struct oacl_backend_ops oacl_cpu_backend_ops = {
    .name = "cpu",
    .device_open = cpu_device_open,
    .device_close = cpu_device_close,
    .host_alloc = oacl_cpu_host_alloc,
    .host_free = oacl_cpu_host_free,
    .host_lock = oacl_cpu_host_lock,
    .host_unlock = oacl_cpu_host_unlock,
    .host_map = oacl_cpu_host_map,
    .host_unmap = oacl_cpu_host_unmap,
    .dev_alloc = oacl_cpu_dev_alloc,
    .dev_free = cpu_dev_free,
    .copy = cpu_copy,
    .module_load = oacl_cpu_module_load,
    .module_ref = oacl_cpu_module_ref,
    .module_put = oacl_cpu_module_put,
    .module_extent = oacl_cpu_module_extent,
    .module_ranges = oacl_cpu_module_ranges,
    .module_global = oacl_cpu_module_global,
    .queue_create = cpu_queue_create,
    .queue_discard = oacl_exec_discard_pending,
    .queue_destroy = cpu_queue_destroy,
    .queue_launch = cpu_queue_launch,
    .queue_sync = cpu_queue_sync,
    .queue_idle = cpu_queue_idle,
    .queue_wait = cpu_queue_wait,
    .queue_copy = cpu_queue_copy,
    .queue_memset = cpu_queue_memset,
    .queue_host_step = cpu_queue_host_step,
    .host_step_done = cpu_host_step_done,
    .event_create = oacl_cpu_event_create,
    .event_destroy = oacl_cpu_event_destroy,
    .event_record = oacl_cpu_event_record,
    .event_wait = oacl_cpu_event_wait,
    .event_reset = oacl_cpu_event_reset,
    .event_query = oacl_cpu_event_query,
    .event_sync = oacl_cpu_event_sync,
    .notify_create = oacl_cpu_notify_create,
    .notify_destroy = oacl_cpu_notify_destroy,
    .notify_record = oacl_cpu_notify_record,
    .notify_wait = oacl_cpu_notify_wait,
    .queue_value_write = oacl_cpu_value_write,
    .queue_value_wait = oacl_cpu_value_wait,
    /* built-in device tasks */
    .queue_reduce = oacl_cpu_queue_reduce,
    .queue_random = oacl_cpu_queue_random,
    /* inter-process sharing and virtual memory */
    .mem_share = oacl_cpu_mem_share,
    .share_fd = oacl_cpu_share_fd,
    .share_live = oacl_cpu_share_live,
    .share_put = oacl_cpu_share_put,
    .mem_attach = oacl_cpu_mem_attach,
    .mem_detach = oacl_cpu_mem_detach,
    .host_write_begin = oacl_cpu_gate_enter,
    .host_write_end = oacl_cpu_gate_leave,
    .phys_create = oacl_cpu_phys_create,
    .va_reserve = oacl_cpu_va_reserve,
    .va_release = oacl_cpu_va_release,
    .va_map = oacl_cpu_va_map,
    .va_protect = oacl_cpu_va_protect,
    .va_unmap = oacl_cpu_va_unmap,
    .notify_share = oacl_cpu_notify_share,
    .notify_import = oacl_cpu_notify_import,
    .notify_reset = oacl_cpu_notify_reset,
    .event_create_shared = oacl_cpu_event_create_shared,
    .event_share_fd = oacl_cpu_event_share_fd,
    .event_import = oacl_cpu_event_import,
    .queue_host_mark = cpu_queue_host_mark,
    .dev_release = oacl_cpu_dev_release,
    /* memory extras */
    .managed_alloc = oacl_cpu_managed_alloc,
    .managed_free = cpu_managed_free,
    .queue_prefetch = oacl_cpu_queue_prefetch,
    .queue_cmo = oacl_cpu_queue_cmo,
    /* memory extras (copy_ops.c) */
    .copy_2d = oacl_cpu_copy_2d,
    .queue_copy_2d = oacl_cpu_queue_copy_2d,
    .queue_copy_batch = oacl_cpu_queue_copy_batch,
    .queue_copy_indirect = oacl_cpu_queue_copy_indirect,
    .fill32 = oacl_cpu_fill32,
    .queue_fill32 = oacl_cpu_queue_fill32,
    /* observation: profiler markers, stream names for traces and dumps */
    .queue_marker = oacl_cpu_queue_marker,
    .queue_set_id = oacl_cpu_queue_set_id,
    /* device-kernel chapter */
    .cnt_notify_create = oacl_cpu_cnt_notify_create,
    .cnt_notify_destroy = oacl_cpu_cnt_notify_destroy,
    .cnt_notify_record = oacl_cpu_cnt_notify_record,
    .cnt_notify_wait = oacl_cpu_cnt_notify_wait,
    .module_load_data = oacl_cpu_module_load_data,
    .module_linked = oacl_cpu_module_linked,
    .module_cpu_kernel = oacl_cpu_module_cpu_kernel,
    .kernel_code = oacl_cpu_kernel_code,
    /* reliability chapter */
    .thread_last_task = oacl_cpu_thread_last_task,
    .queue_stop = cpu_queue_stop,
    .queue_abort = cpu_queue_abort,
    .queue_stopped = cpu_queue_stopped,
    /* task graphs (graph_exec.c) */
    .graph_create = oacl_cpu_graph_create,
    .graph_destroy = oacl_cpu_graph_destroy,
    .graph_stream = oacl_cpu_graph_stream,
    .graph_stream_state = oacl_cpu_graph_stream_state,
    .graph_task_info = oacl_cpu_graph_task_info,
    .graph_task_disable = oacl_cpu_graph_task_disable,
    .graph_event_op = oacl_cpu_graph_event_op,
    .graph_exec = oacl_cpu_graph_exec,
    .graph_abort = oacl_cpu_graph_abort,
    .graph_busy = oacl_cpu_graph_busy,
    .graph_stream_new = oacl_cpu_graph_stream_new,
    .graph_stream_bind = oacl_cpu_graph_stream_bind,
    .graph_stream_clear = oacl_cpu_graph_stream_clear,
    .graph_stream_free = oacl_cpu_graph_stream_free,
    .graph_ctl = oacl_cpu_graph_ctl,
    .graph_targets_new = oacl_cpu_graph_targets_new,
    .graph_targets_set = oacl_cpu_graph_targets_set,
    .graph_targets_drop = oacl_cpu_graph_targets_drop,
    .graph_task_pending = oacl_cpu_graph_task_pending,
    .graph_task_staged = oacl_cpu_graph_task_staged,
    .graph_task_commit = oacl_cpu_graph_task_commit,
    .graph_group = oacl_cpu_graph_group,
    .graph_init_word = oacl_cpu_graph_init_word,
    .queue_graph_patch = oacl_cpu_queue_graph_patch,
    .queue_graph_random_update = oacl_cpu_queue_graph_random_update,
};
