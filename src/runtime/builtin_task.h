/*
 * Shared by the built-in device tasks (builtin_reduce.c, builtin_random.c):
 * the check that an operand lies in memory the stream's device reaches.
 */
#ifndef OACL_RUNTIME_BUILTIN_TASK_H
#define OACL_RUNTIME_BUILTIN_TASK_H

#include <stdio.h>

#include "common/addr_registry.h"
#include "runtime/runtime.h"

/*
 * [p, p + len) must lie inside one live allocation that device dev_id
 * reaches: device memory of that device or of a peer it enabled access to,
 * or the device address of mapped host memory. *room receives the bytes
 * from p to the end of the allocation. A written operand must not be
 * read-only memory (a kernel binary's code or constants). 107000 with the
 * reason in err (OACL_BACKEND_ERRLEN bytes) otherwise (CANN would fault
 * when the task runs). Records no error: also used by device-side checks.
 */
static inline aclError oacl_builtin_range_msg(const void *p, uint64_t len, const char *name, bool written,
                                              int32_t here, uint64_t *room, char *err)
{
    struct oacl_mem_record r;
    const uintptr_t a = (uintptr_t)p;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r) ||
        (r.kind != OACL_MEM_DEVICE && r.kind != OACL_MEM_DEVICE_ALIAS)) {
        snprintf(err, OACL_BACKEND_ERRLEN,
                 "%s %p is not device memory (aclrtMalloc, or the device address of mapped host memory)", name, p);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (len > r.base + r.size - a) {
        snprintf(err, OACL_BACKEND_ERRLEN,
                 "%s: %llu bytes at %p run past the end of its device allocation (%zu bytes from %p)", name,
                 (unsigned long long)len, p, r.size, (void *)r.base);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (written && r.readonly) {
        snprintf(err, OACL_BACKEND_ERRLEN, "%s %p is read-only memory of a kernel binary", name, p);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    /* Variables linked into the program belong to every device. */
    if (r.device != OACL_MEM_ANY_DEVICE && r.device != here && !oacl_device_peer_enabled(here, r.device)) {
        snprintf(err, OACL_BACKEND_ERRLEN,
                 "%s %p is memory of device %d, which device %d cannot reach: call "
                 "aclrtDeviceEnablePeerAccess(%d, 0) on device %d first",
                 name, p, r.device, here, r.device, here);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (room)
        *room = r.base + r.size - a;
    return ACL_SUCCESS;
}

/* The same check for an operand of a task on stream s, failing as fn. */
static inline aclError oacl_builtin_range(const void *p, uint64_t len, const char *name, bool written,
                                          const struct oacl_stream *s, uint64_t *room, const char *fn)
{
    char err[OACL_BACKEND_ERRLEN];
    aclError rc = oacl_builtin_range_msg(p, len, name, written, s->ctx->dev->id, room, err);
    return rc ? oacl_fail(rc, fn, "%s", err) : ACL_SUCCESS;
}

/*
 * builtin_random.c: checks an aclrtRandomNumTaskInfo for a task of device
 * dev_id as aclrtRandomNumAsync does after its stream checks and converts
 * it; 107000 with the reason in err (OACL_BACKEND_ERRLEN bytes). Records
 * no error, so that a device-side task update may use it too.
 */
aclError oacl_random_task_convert(const aclrtRandomNumTaskInfo *ti, int32_t dev_id, struct oacl_random_task *task,
                                  char *err);

#endif /* OACL_RUNTIME_BUILTIN_TASK_H */
