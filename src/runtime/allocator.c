/*
 * Custom allocator registry (acl_rt_allocator.h): descriptors describing an
 * application's allocator, and registrations of a descriptor for a stream.
 *
 * Pure bookkeeping (Decision 2): the callbacks are for libraries that run
 * work on the stream; the runtime never calls them. A registration holds a
 * copy of the descriptor's values, keyed by the stream handle; it is
 * dropped when the stream is destroyed (oacl_allocator_forget_stream), so a
 * stale handle never finds one.
 *
 * Descriptors are plain heap objects handed out as their address; the set
 * of live ones tells a destroyed descriptor from a live one without
 * reading freed memory.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/imap.h"
#include "runtime/runtime.h"

struct alloc_desc {
    aclrtAllocator obj;
    aclrtAllocatorAllocFunc alloc;
    aclrtAllocatorFreeFunc free;
    aclrtAllocatorAllocAdviseFunc advise;
    aclrtAllocatorGetAddrFromBlockFunc get_addr;
};

struct registration {
    aclrtAllocatorDesc handle; /* the descriptor registered (may be destroyed since) */
    struct alloc_desc values;  /* its values at registration */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct oacl_imap g_descs; /* live descriptors: address -> descriptor */
static struct oacl_imap g_regs;  /* stream handle -> struct registration */

#define REG_FAMILIES (~OACL_SOC_MASK(OACL_SOC_FAMILY_310B))

OACL_API aclrtAllocatorDesc aclrtAllocatorCreateDesc(void)
{
    struct alloc_desc *d = calloc(1, sizeof(*d)); /* CANN leaves the fields uninitialised */
    if (!d) {
        oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "out of memory");
        return NULL;
    }
    pthread_mutex_lock(&g_lock);
    int rc = oacl_imap_insert(&g_descs, (uintptr_t)d, 1, d);
    pthread_mutex_unlock(&g_lock);
    if (rc) {
        free(d);
        oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "out of memory");
        return NULL;
    }
    return d;
}

/* The live descriptor behind h (g_lock held), else NULL. */
static struct alloc_desc *desc_locked(aclrtAllocatorDesc h)
{
    struct oacl_imap_entry e;
    return oacl_imap_find(&g_descs, (uintptr_t)h, &e) && e.start == (uintptr_t)h ? e.value : NULL;
}

OACL_API aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc)
{
    if (!allocatorDesc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "allocatorDesc is NULL");
    pthread_mutex_lock(&g_lock);
    struct alloc_desc *d = desc_locked(allocatorDesc);
    if (d)
        oacl_imap_remove(&g_descs, (uintptr_t)d, NULL);
    pthread_mutex_unlock(&g_lock);
    if (!d)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "allocatorDesc %p is not a live allocator descriptor",
                         allocatorDesc);
    free(d); /* registrations hold copies */
    return ACL_SUCCESS;
}

/* Which value a setter stores. */
enum desc_field { F_OBJ, F_ALLOC, F_FREE, F_ADVISE, F_GET_ADDR };

static aclError set_field(aclrtAllocatorDesc h, enum desc_field f, void *value, void (*func)(void), const char *arg,
                          const char *fn)
{
    if (!h)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "allocatorDesc is NULL");
    if (!value && !func)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", arg);
    pthread_mutex_lock(&g_lock);
    struct alloc_desc *d = desc_locked(h);
    if (d) {
        switch (f) {
        case F_OBJ:
            d->obj = value;
            break;
        case F_ALLOC:
            d->alloc = (aclrtAllocatorAllocFunc)func;
            break;
        case F_FREE:
            d->free = (aclrtAllocatorFreeFunc)func;
            break;
        case F_ADVISE:
            d->advise = (aclrtAllocatorAllocAdviseFunc)func;
            break;
        case F_GET_ADDR:
            d->get_addr = (aclrtAllocatorGetAddrFromBlockFunc)func;
            break;
        }
    }
    pthread_mutex_unlock(&g_lock);
    if (!d)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "allocatorDesc %p is not a live allocator descriptor", h);
    return ACL_SUCCESS;
}

/* Function pointers travel as void (*)(void), the generic function type. */
typedef void (*generic_fn)(void);

OACL_API aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator)
{
    return set_field(allocatorDesc, F_OBJ, allocator, NULL, "allocator", __func__);
}

OACL_API aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func)
{
    return set_field(allocatorDesc, F_ALLOC, NULL, (generic_fn)func, "func", __func__);
}

OACL_API aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func)
{
    return set_field(allocatorDesc, F_FREE, NULL, (generic_fn)func, "func", __func__);
}

OACL_API aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                         aclrtAllocatorAllocAdviseFunc func)
{
    return set_field(allocatorDesc, F_ADVISE, NULL, (generic_fn)func, "func", __func__);
}

OACL_API aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                              aclrtAllocatorGetAddrFromBlockFunc func)
{
    return set_field(allocatorDesc, F_GET_ADDR, NULL, (generic_fn)func, "func", __func__);
}

OACL_API aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc)
{
    const char *fn = __func__;
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "stream is NULL (the default stream cannot have an allocator)");
    if (!allocatorDesc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "allocatorDesc is NULL");
    struct registration *reg = calloc(1, sizeof(*reg));
    if (!reg)
        return oacl_fail(ACL_ERROR_BAD_ALLOC, fn, "out of memory");
    reg->handle = allocatorDesc;
    pthread_mutex_lock(&g_lock);
    struct alloc_desc *d = desc_locked(allocatorDesc);
    if (d)
        reg->values = *d;
    pthread_mutex_unlock(&g_lock);
    const char *missing = !d                     ? NULL
                          : !reg->values.obj      ? "an allocator object (aclrtAllocatorSetObjToDesc)"
                          : !reg->values.alloc    ? "an alloc function (aclrtAllocatorSetAllocFuncToDesc)"
                          : !reg->values.free     ? "a free function (aclrtAllocatorSetFreeFuncToDesc)"
                          : !reg->values.get_addr ? "a get-address function (aclrtAllocatorSetGetAddrFromBlockFuncToDesc)"
                                                  : NULL;
    aclError rc = ACL_SUCCESS;
    if (!d)
        rc = oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "allocatorDesc %p is not a live allocator descriptor",
                       allocatorDesc);
    else if (missing)
        rc = oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "allocatorDesc %p has no %s", allocatorDesc, missing);
    else
        rc = oacl_soc_require(REG_FAMILIES, fn);
    if (rc) {
        free(reg);
        return rc;
    }
    /* The stream is not validated (as CANN): the handle is the key. One
       registration per stream; a new one replaces it. */
    struct registration *old = NULL;
    pthread_mutex_lock(&g_lock);
    struct oacl_imap_entry e;
    if (oacl_imap_remove(&g_regs, (uintptr_t)stream, &e))
        old = e.value;
    int ins = oacl_imap_insert(&g_regs, (uintptr_t)stream, 1, reg);
    pthread_mutex_unlock(&g_lock);
    free(old);
    if (ins) {
        free(reg);
        return oacl_fail(ACL_ERROR_BAD_ALLOC, fn, "out of memory");
    }
    return ACL_SUCCESS;
}

OACL_API aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                            aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
                                            aclrtAllocatorFreeFunc *freeFunc,
                                            aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                            aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc)
{
    const char *fn = __func__;
    if (!allocatorDesc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "allocatorDesc is NULL");
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "stream is NULL");
    aclError rc = oacl_soc_require(REG_FAMILIES, fn);
    if (rc)
        return rc;
    struct registration r;
    struct oacl_imap_entry e;
    pthread_mutex_lock(&g_lock);
    bool found = oacl_imap_find(&g_regs, (uintptr_t)stream, &e) && e.start == (uintptr_t)stream;
    if (found)
        r = *(const struct registration *)e.value;
    pthread_mutex_unlock(&g_lock);
    if (!found)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "stream %p has no registered allocator", stream);
    *allocatorDesc = r.handle;
    if (allocator)
        *allocator = r.values.obj;
    if (allocFunc)
        *allocFunc = r.values.alloc;
    if (freeFunc)
        *freeFunc = r.values.free;
    if (allocAdviseFunc)
        *allocAdviseFunc = r.values.advise;
    if (getAddrFromBlockFunc)
        *getAddrFromBlockFunc = r.values.get_addr;
    return ACL_SUCCESS;
}

/* Removes the registration of a stream handle, if any. */
static void forget(const void *stream)
{
    struct oacl_imap_entry e;
    pthread_mutex_lock(&g_lock);
    bool found = oacl_imap_remove(&g_regs, (uintptr_t)stream, &e);
    pthread_mutex_unlock(&g_lock);
    if (found)
        free(e.value);
}

OACL_API aclError aclrtAllocatorUnregister(aclrtStream stream)
{
    if (!stream)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stream is NULL");
    aclError rc = oacl_soc_require(REG_FAMILIES, __func__);
    if (rc)
        return rc;
    forget(stream); /* none, or unregistered twice: fine */
    return ACL_SUCCESS;
}

void oacl_allocator_forget_stream(const void *stream_handle)
{
    if (stream_handle)
        forget(stream_handle);
}
