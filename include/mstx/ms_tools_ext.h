/*
 * mstx: MindStudio's tools extension (marks, ranges, domains, memory
 * pools), header-only. By default every mstx* function is defined here
 * (inline static) and forwards to the functions of the tool that fills its
 * tables: the first call looks up InitInjectionMstx in the library named by
 * MSTX_INJECTION_PATH, else in any library already loaded — oacl's
 * libacl_rt.so exports it, so linking the runtime (and -ldl on old glibc)
 * is all it takes. MSTX_NO_IMPL: declarations only (link
 * libms_tools_ext.so); MSTX_DISABLE: every call compiles to nothing.
 */
#ifndef MSTX_TOOLS_EXT
#define MSTX_TOOLS_EXT

#if defined(MSTX_NO_IMPL)
#define MSTX_DECLSPEC
#else
#define MSTX_DECLSPEC inline static
#endif

#include <stddef.h>
#include <stdint.h>

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

#define MSTX_TOOL_INVALID_ID 0x0
#define MSTX_TOOL_MSPROF_ID 0x1000
#define MSTX_TOOL_MSOPPROF_ID 0x1001
#define MSTX_TOOL_MSSANITIZER_ID 0x1002
#define MSTX_TOOL_MSLEAKS_ID 0x1003

/* The older CANN header's name for "no range" (Decision 14). */
#ifndef MSTX_INVALID_ID
#define MSTX_INVALID_ID 0
#endif

typedef uint64_t mstxRangeId;
typedef void *aclrtStream; /* identical to acl_base.h's typedef */

struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;

#include "ms_tools_ext_mem.h"

#if defined(__GNUC__)
__attribute__((unused))
#endif
static mstxDomainHandle_t const globalDomain = NULL;

#ifdef __cplusplus
extern "C" {
#endif

MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream);
MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream);
MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id);
MSTX_DECLSPEC void mstxGetToolId(uint64_t *id);
MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name);
MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain);
MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);
MSTX_DECLSPEC mstxMemHeapHandle_t mstxMemHeapRegister(mstxDomainHandle_t domain, mstxMemHeapDesc_t const *desc);
MSTX_DECLSPEC void mstxMemHeapUnregister(mstxDomainHandle_t domain, mstxMemHeapHandle_t heap);
MSTX_DECLSPEC void mstxMemRegionsRegister(mstxDomainHandle_t domain, mstxMemRegionsRegisterBatch_t const *desc);
MSTX_DECLSPEC void mstxMemRegionsUnregister(mstxDomainHandle_t domain, mstxMemRegionsUnregisterBatch_t const *desc);

#ifdef __cplusplus
}
#endif

#define MSTX_IMPL_GUARD
#include "mstx_detail/mstx_types.h"
#if !defined(MSTX_NO_IMPL)
#include "mstx_detail/mstx_impl.h"
#endif
#undef MSTX_IMPL_GUARD

#endif /* MSTX_TOOLS_EXT */
