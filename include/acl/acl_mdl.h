/*
 * Placeholder for the model API.  oacl does not provide it; the file exists
 * so that programs including it compile.
 */
#ifndef ACL_ACL_MDL_H
#define ACL_ACL_MDL_H

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_MDL_H */
