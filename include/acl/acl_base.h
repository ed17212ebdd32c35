/*
 * Aggregate of the base ACL headers: common definitions, the model-side base
 * placeholder and both families of component error codes.
 */
#ifndef ACL_ACL_BASE_H
#define ACL_ACL_BASE_H

#include "acl_base_rt.h"
#include "acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Nothing beyond the included headers. */

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_BASE_H */
