/*
 * Placeholder for the single-operator API.  oacl does not provide it; the
 * file exists so that programs including it compile.
 */
#ifndef ACL_ACL_OP_H
#define ACL_ACL_OP_H

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_OP_H */
