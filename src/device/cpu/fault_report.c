/*
 * Failure reports of the CPU device (reliability chapter 3.1, Decisions 3
 * and 4): who queued each task (thread id, the thread's last task id) and
 * the hand-over of a failed task to the API layer's exception callbacks,
 * on the thread that completes the task, after kernel printf output is
 * flushed and before the completion is published.
 */
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "device/cpu/cpu_device.h"
#include "device/cpu/fault.h"

static __thread uint32_t tls_tid;
static __thread uint32_t tls_last_task = UINT32_MAX;
static __thread const struct oacl_queue *tls_reporting;

uint32_t oacl_cpu_thread_tid(void)
{
    if (!tls_tid)
        tls_tid = (uint32_t)syscall(SYS_gettid);
    return tls_tid;
}

void oacl_cpu_note_last_task(uint64_t seq) { tls_last_task = (uint32_t)(seq - 1); }

uint32_t oacl_cpu_thread_last_task(void) { return tls_last_task; }

bool oacl_cpu_reporting(const struct oacl_queue *q) { return q && tls_reporting == q; }

void oacl_cpu_report_failure(struct oacl_task *t, int code)
{
    oacl_kernel_output_flush(); /* the launch's printf output comes before the callbacks */
    struct oacl_task_failure f = {
        .code = code,
        .task_id = (uint32_t)(t->seq - 1),
        .stream_id = t->queue->stream_id,
        .tid = t->submit_tid,
        .device_index = t->queue->dev->index,
        .kernel = t->kernel != NULL && t->run == oacl_kernel_run_block,
        .args = t->args,
        .args_size = t->args_size,
        .fault_user = t->fault_user,
        .fault_func = t->fault_func,
    };
    const struct oacl_queue *prev = tls_reporting;
    tls_reporting = t->queue;
    oacl_runtime_task_failed(&f);
    tls_reporting = prev;
}
