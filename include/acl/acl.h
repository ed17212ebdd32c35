/*
 * Umbrella header of the ACL API: include this one file to get the whole
 * runtime interface (and the operator/model placeholders).
 */
#ifndef ACL_ACL_H
#define ACL_ACL_H

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_H */
