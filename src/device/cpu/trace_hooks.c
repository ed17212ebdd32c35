/*
 * Observation of the CPU device's work: profiler records of tasks and
 * blocks, data and exception dumps of kernel launches, core-busy time for
 * the status page, and marker tasks. The executor and the kernel runner
 * call in here through one-line hooks (cpu_device.h) that cost a load and
 * a predictable branch while nothing observes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "common/dump.h"
#include "common/futex.h"
#include "common/smi_page.h"
#include "common/trace.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/fault.h"

void oacl_cpu_queue_set_id(struct oacl_queue *q, int32_t stream_id) { q->stream_id = stream_id; }

void oacl_cpu_trace_submit(struct oacl_task *t)
{
    if (!oacl_trace_device_on(OACL_TR_TASK | OACL_TR_BLOCK, t->queue->dev->index))
        return;
    t->trace_on = 1;
    t->trace_conn = oacl_trace_conn();
}

/* Bytes of a kernel's parameters in its blob (8-byte aligned starts). */
static size_t params_size(const struct oacl_kernel_desc *k)
{
    size_t end = 0;
    for (uint32_t i = 0; i < k->num_params; i++)
        end = ((end + 7) & ~(size_t)7) + (k->param_sizes ? k->param_sizes[i] : 0);
    return end;
}

void oacl_cpu_task_finishing(struct oacl_task *t, int failed)
{
    struct oacl_queue *q = t->queue;
    if (failed)
        oacl_cpu_report_failure(t, failed); /* exception callbacks (fault_report.c) */
    if (failed && t->kernel && oacl_dump_exception_on())
        oacl_dump_exception(q->dev->index, q->stream_id, (uint32_t)(t->seq - 1), t->kernel->name, t->args,
                            params_size(t->kernel), t->units, t->block_offset, failed);
    if (!t->trace_on)
        return;
    uint64_t start = __atomic_load_n(&t->start_ns, __ATOMIC_RELAXED);
    if (!start || !oacl_trace_on(OACL_TR_TASK))
        return;
    uint64_t end = oacl_trace_now();
    struct oacl_trace_rec r = {
        .kind = OACL_REC_TASK,
        .level = t->trace_type,
        .device = (uint16_t)q->dev->index,
        .stream = q->stream_id,
        .task = (uint32_t)(t->seq - 1),
        .tid = t->kind == OACL_TASK_UNITS ? t->units : 0,
        .extra = (uint32_t)failed,
        .start = start,
        .end = end,
        .name = t->kernel ? oacl_trace_intern(t->kernel->name) : NULL,
        .a = t->trace_conn,
        .b = t->trace_bytes,
        .c = __atomic_load_n(&t->trace_busy_ns, __ATOMIC_RELAXED),
        .d = q->trace_last_end,
    };
    if (failed)
        r.flags |= OACL_RECF_FAILED;
    /* Tasks of one queue finish one after another: no race on this. */
    q->trace_last_end = end;
    oacl_trace_emit(&r);
}

/* Core index of the calling thread: AIV tracks 0.. in order of first use. */
static uint32_t core_index(void)
{
    static uint32_t next;
    static __thread uint32_t idx;
    if (!idx)
        idx = __atomic_add_fetch(&next, 1, __ATOMIC_RELAXED);
    return idx - 1;
}

uint64_t oacl_cpu_block_begin_slow(struct oacl_task *t)
{
    struct oacl_dump_plan *p = t->dump;
    if (p && p->input) {
        /* The first block to arrive takes the input snapshot; the others
           wait for it, so no block runs before the buffers are copied. */
        uint32_t todo = 0;
        if (__atomic_compare_exchange_n(&t->dump_state, &todo, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            oacl_dump_before(p, t->args);
            __atomic_store_n(&t->dump_state, 2, __ATOMIC_RELEASE);
        } else {
            while (__atomic_load_n(&t->dump_state, __ATOMIC_ACQUIRE) != 2)
                oacl_cpu_relax();
        }
    }
    return oacl_trace_now();
}

void oacl_cpu_block_end(struct oacl_task *t, uint32_t unit, uint64_t t0, bool ran)
{
    uint64_t t1 = oacl_trace_now();
    struct oacl_queue *q = t->queue;
    if (ran) {
        uint64_t ns = t1 - t0;
        if (oacl_smi_sampling())
            oacl_smi_busy(q->dev->index, ns, t1);
        if (t->trace_on) {
            __atomic_add_fetch(&t->trace_busy_ns, ns, __ATOMIC_RELAXED);
            if (oacl_trace_on(OACL_TR_BLOCK)) {
                struct oacl_trace_rec r = {
                    .kind = OACL_REC_BLOCK,
                    .device = (uint16_t)q->dev->index,
                    .stream = q->stream_id,
                    .task = (uint32_t)(t->seq - 1),
                    .tid = core_index(),
                    .extra = unit + t->block_offset,
                    .start = t0,
                    .end = t1,
                    .name = oacl_trace_intern(t->kernel->name),
                };
                oacl_trace_emit(&r);
            }
        }
    }
    struct oacl_dump_plan *p = t->dump;
    if (p && __atomic_add_fetch(&t->dump_left, 1, __ATOMIC_ACQ_REL) == t->units)
        oacl_dump_after(p, t->args, q->stream_id, (uint32_t)(t->seq - 1), t->units, t->block_offset,
                        __atomic_load_n(&t->failed, __ATOMIC_ACQUIRE));
}

/* ---- marker tasks ---------------------------------------------------------------- */

struct marker {
    void (*reached)(void *arg, uint64_t ns);
    void (*release)(void *arg);
    void *arg;
    bool ran;
};

static void marker_run(struct oacl_task *t, uint32_t unit)
{
    (void)unit;
    struct marker *m = t->data;
    m->ran = true;
    m->reached(m->arg, oacl_trace_now());
}

static void marker_release(struct oacl_task *t)
{
    struct marker *m = t->data;
    if (m->release)
        m->release(m->arg);
    free(t);
}

int oacl_cpu_queue_marker(struct oacl_queue *q, void (*reached)(void *arg, uint64_t ns), void (*release)(void *arg),
                          void *arg, char *err)
{
    struct oacl_task *t = oacl_task_new(sizeof(struct marker));
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a marker");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    struct marker *m = t->data;
    m->reached = reached;
    m->release = release;
    m->arg = arg;
    t->kind = OACL_TASK_INLINE;
    t->run = marker_run;
    t->release = marker_release;
    t->trace_type = OACL_TT_PROFILER_TRACE_EX;
    t->dev = q->dev;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}
