/*
 * Memory hints in stream order on the CPU device: managed-memory prefetches
 * and cache maintenance. The CPU keeps its caches coherent and managed
 * memory is a single copy, so neither has anything to do; each is still a
 * task of its queue, so that what is recorded or waited for after it
 * completes after it, as on a device.
 */
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "device/cpu/cpu_device.h"

static void nothing_to_do(struct oacl_task *t, uint32_t unit)
{
    (void)t;
    (void)unit;
}

static void empty_release(struct oacl_task *t) { free(t); }

static int queue_empty(struct oacl_queue *q, const char *what, uint8_t trace, char *err)
{
    struct oacl_task *t = oacl_task_new(0);
    if (!t) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory for a %s task", what);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    t->kind = OACL_TASK_INLINE;
    t->trace_type = trace; /* also what makes it recordable in task graphs */
    t->run = nothing_to_do;
    t->release = empty_release;
    t->dev = q->dev;
    oacl_exec_submit(q, t);
    return ACL_SUCCESS;
}

int oacl_cpu_queue_prefetch(struct oacl_queue *q, const void *const *ptrs, const size_t *sizes,
                            const int32_t *targets, size_t count, char *err)
{
    (void)ptrs;
    (void)sizes;
    (void)targets;
    (void)count;
    return queue_empty(q, "prefetch", OACL_TT_PREFETCH, err);
}

int oacl_cpu_queue_cmo(struct oacl_queue *q, const void *ptr, size_t size, const void *desc, int op, char *err)
{
    (void)ptr;
    (void)size;
    (void)desc;
    (void)op;
    return queue_empty(q, "cache maintenance", OACL_TT_CMO, err);
}
