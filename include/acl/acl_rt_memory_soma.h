/*
 * Stream-ordered memory pools: device memory allocated and freed in stream
 * order from a pool that keeps freed blocks for reuse. Not included by
 * acl/acl.h: programs include this header themselves.
 */
#ifndef INC_EXTERNAL_ACL_RT_MEMORY_H_
#define INC_EXTERNAL_ACL_RT_MEMORY_H_

#include <stddef.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtMemPool;

typedef enum aclrtMemPoolAttr {
    ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,   /* uint32_t, 0/1 */
    ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,         /* uint32_t, 0/1 */
    ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3, /* uint32_t, 0/1 */
    ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4,            /* uint64_t bytes */
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT = 0x5,         /* uint64_t, read-only */
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH = 0x6,            /* uint64_t, set 0 to reset */
    ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT = 0x7,             /* uint64_t, read-only */
    ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH = 0x8                 /* uint64_t, set 0 to reset */
} aclrtMemPoolAttr;

typedef struct {
    aclrtMemAllocationType allocType; /* ACL_MEM_ALLOCATION_TYPE_PINNED */
    aclrtMemHandleType handleType;    /* ACL_MEM_HANDLE_TYPE_NONE */
    aclrtMemLocation location;        /* a device */
    size_t maxSize;                   /* capacity in bytes, 0 = the whole device */
    unsigned char reserved[32];       /* must be zero */
} aclrtMemPoolProps;

ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps);
ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool);
ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);
ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);
/* size bytes from the pool, usable by work queued on stream after this call. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, aclrtMemPool memPool,
                                                     aclrtStream stream);
/* Returns ptr to its pool once the work queued on stream before it is done. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream);
/* Releases unused memory of the pool down to minBytesToKeep. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_RT_MEMORY_H_ */
