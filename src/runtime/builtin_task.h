/*
 * Shared by the built-in device tasks (builtin_reduce.c, builtin_random.c):
 * the check that an operand lies in memory the stream's device reaches.
 */
#ifndef OACL_RUNTIME_BUILTIN_TASK_H
#define OACL_RUNTIME_BUILTIN_TASK_H

#include "common/addr_registry.h"
#include "runtime/runtime.h"

/*
 * [p, p + len) must lie inside one live allocation that the device of
 * stream s reaches: device memory of that device or of a peer it enabled
 * access to, or the device address of mapped host memory. *room receives
 * the bytes from p to the end of the allocation. A written operand must
 * not be read-only memory (a kernel binary's code or constants). 107000
 * otherwise (CANN would fault when the task runs).
 */
static inline aclError oacl_builtin_range(const void *p, uint64_t len, const char *name, bool written,
                                          const struct oacl_stream *s, uint64_t *room, const char *fn)
{
    struct oacl_mem_record r;
    const uintptr_t a = (uintptr_t)p;
    if (!oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r) ||
        (r.kind != OACL_MEM_DEVICE && r.kind != OACL_MEM_DEVICE_ALIAS))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%s %p is not device memory (aclrtMalloc, or the device address of mapped host memory)",
                         name, p);
    if (len > r.base + r.size - a)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%s: %llu bytes at %p run past the end of its device allocation (%zu bytes from %p)", name,
                         (unsigned long long)len, p, r.size, (void *)r.base);
    if (written && r.readonly)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s %p is read-only memory of a kernel binary", name, p);
    const int32_t here = s->ctx->dev->id;
    /* Variables linked into the program belong to every device. */
    if (r.device != OACL_MEM_ANY_DEVICE && r.device != here && !oacl_device_peer_enabled(here, r.device))
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn,
                         "%s %p is memory of device %d, which device %d cannot reach: call "
                         "aclrtDeviceEnablePeerAccess(%d, 0) on device %d first",
                         name, p, r.device, here, r.device, here);
    if (room)
        *room = r.base + r.size - a;
    return ACL_SUCCESS;
}

#endif /* OACL_RUNTIME_BUILTIN_TASK_H */
