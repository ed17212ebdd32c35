/*
 * Custom allocator interface of the ACL runtime.
 *
 * The opaque handle types used by this interface (aclrtAllocatorDesc,
 * aclrtAllocator, aclrtAllocatorBlock, aclrtAllocatorAddr) are declared in
 * acl_base_rt.h and made available here through acl_base.h.  Registration
 * functions are outside oacl's current scope; their declarations belong in
 * this file when they are added.
 */
#ifndef ACL_ACL_RT_ALLOCATOR_H
#define ACL_ACL_RT_ALLOCATOR_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_ALLOCATOR_H */
