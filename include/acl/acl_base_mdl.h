/*
 * Placeholder for the model-side base definitions.  oacl has no model
 * support; the file exists so that programs including it compile.
 */
#ifndef ACL_ACL_BASE_MDL_H
#define ACL_ACL_BASE_MDL_H

#include "acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_BASE_MDL_H */
