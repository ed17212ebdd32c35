/*
 * Pinned host memory: aclrtMallocHost / aclrtFreeHost. Every allocation is
 * recorded in the address registry, which is what later calls check
 * pointers against.
 */
#include <stdlib.h>
#include <unistd.h>

#include "common/addr_registry.h"
#include "runtime/runtime.h"

static size_t page_round(size_t n)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    return (n + ps - 1) & ~(ps - 1);
}

OACL_API aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    if (!hostPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "hostPtr is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "size is 0");
    struct oacl_context *ctx = NULL;
    aclError rc = oacl_ctx_current(&ctx, __func__);
    if (rc)
        return rc;
    if (page_round(size) < size) {
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "size %zu is too large", size);
    }
    struct oacl_mem_record *r = calloc(1, sizeof(*r));
    if (!r) {
        oacl_obj_put(&ctx->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    void *p = NULL;
    bool locked = false;
    rc = oacl_backend()->host_alloc(ctx->dev->bdev, size, &p, &locked, err);
    if (rc) {
        free(r);
        oacl_obj_put(&ctx->obj);
        return oacl_fail(rc, __func__, "%s", err);
    }
    r->base = (uintptr_t)p;
    r->size = page_round(size);
    r->user_size = size;
    r->kind = OACL_MEM_HOST_PINNED;
    r->device = ctx->dev->id;
    r->locked = locked;
    oacl_registry_wrlock();
    int ins = oacl_registry_insert_locked(OACL_SPACE_ALLOC, r);
    oacl_registry_unlock();
    oacl_obj_put(&ctx->obj);
    if (ins) {
        /* Fresh pages always have a free address range: a failure here is
           the registry's own allocation failing. */
        oacl_backend()->host_free(p, size);
        free(r);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "cannot record the allocation (%d)", ins);
    }
    *hostPtr = p;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtFreeHost(void *hostPtr)
{
    if (!hostPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "hostPtr is NULL");
    uintptr_t p = (uintptr_t)hostPtr;
    oacl_registry_wrlock();
    struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, p);
    aclError rc = ACL_SUCCESS;
    if (!r)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "%p was not allocated by aclrtMallocHost (or is freed)",
                       hostPtr);
    else if (r->kind != OACL_MEM_HOST_PINNED)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "%p is a device address of mapped host memory, not host memory", hostPtr);
    else if (r->base != p)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "%p points inside the allocation at %p; pass the address aclrtMallocHost returned", hostPtr,
                       (void *)r->base);
    else {
        struct oacl_mem_record *reg = oacl_registry_overlap_locked(OACL_SPACE_HOSTREG, r->base, r->size);
        if (reg)
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                           "%p is still registered (range at %p); call aclrtHostUnregister first", hostPtr,
                           (void *)reg->base);
        else {
            oacl_registry_remove_locked(OACL_SPACE_ALLOC, p);
            /* Unmap under the lock: a registration of these addresses must
               never see memory that is half gone. */
            oacl_backend()->host_free(hostPtr, r->user_size);
        }
    }
    oacl_registry_unlock();
    if (rc)
        return rc;
    free(r);
    return ACL_SUCCESS;
}
