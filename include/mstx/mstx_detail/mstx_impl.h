/*
 * The header-only implementation of the mstx functions; include
 * ms_tools_ext.h instead. One hidden, weak context per shared object holds
 * the tool's function pointers; the first call of any function finds and
 * initialises the tool (thread-safe; later calls are one load and a
 * branch). Functions the tool does not provide are no-ops.
 */
#ifndef MSTX_IMPL_GUARD
#error Never include this file directly -- it is automatically included by ms_tools_ext.h (in mstx/).
#endif

#ifndef MSTX_DETAIL_IMPL_H
#define MSTX_DETAIL_IMPL_H

#if !defined(MSTX_DISABLE)
#include <dlfcn.h>
#include <sched.h>
#include <stdlib.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(MSTX_DISABLE)

typedef struct mstxContext_t {
    int state; /* 0 uninitialised, 1 initialising, 2 done, 3 failed */
    mstxFuncPointer core[MSTX_API_CORE_SIZE];
    mstxFuncPointer domain[MSTX_API_CORE2_SIZE];
    mstxFuncPointer mem[MSTX_API_CORE_MEM_SIZE];
    mstxFuncPointer *coreTable[MSTX_API_CORE_SIZE + 1];
    mstxFuncPointer *domainTable[MSTX_API_CORE2_SIZE + 1];
    mstxFuncPointer *memTable[MSTX_API_CORE_MEM_SIZE + 1];
} mstxContext_t;

#if defined(__GNUC__)
__attribute__((weak, visibility("hidden")))
#endif
mstxContext_t g_mstxContext;

static int mstxGetModuleFuncTable(mstxFuncModule module, mstxFuncTable *outTable, unsigned int *outSize)
{
    mstxContext_t *c = &g_mstxContext;
    unsigned int i;
    if (!outTable || !outSize)
        return MSTX_FAIL;
    switch (module) {
    case MSTX_API_MODULE_CORE:
        for (i = 1; i < MSTX_API_CORE_SIZE; i++)
            c->coreTable[i] = &c->core[i];
        *outTable = c->coreTable;
        *outSize = MSTX_API_CORE_SIZE;
        return MSTX_SUCCESS;
    case MSTX_API_MODULE_CORE_DOMAIN:
        for (i = 1; i < MSTX_API_CORE2_SIZE; i++)
            c->domainTable[i] = &c->domain[i];
        *outTable = c->domainTable;
        *outSize = MSTX_API_CORE2_SIZE;
        return MSTX_SUCCESS;
    case MSTX_API_MODULE_CORE_MEM:
        for (i = 1; i < MSTX_API_CORE_MEM_SIZE; i++)
            c->memTable[i] = &c->mem[i];
        *outTable = c->memTable;
        *outSize = MSTX_API_CORE_MEM_SIZE;
        return MSTX_SUCCESS;
    default:
        return MSTX_FAIL;
    }
}

/* True once a tool is installed (its pointers may still be NULL). */
static int mstxInitOnce(void)
{
    mstxContext_t *c = &g_mstxContext;
    int state = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
    if (state == 2)
        return 1;
    if (state == 3)
        return 0;
    int expected = 0;
    if (__atomic_compare_exchange_n(&c->state, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        const char *path = getenv("MSTX_INJECTION_PATH");
        void *handle = path ? dlopen(path, RTLD_LAZY | RTLD_LOCAL) : NULL;
        /* handle NULL: glibc's RTLD_DEFAULT, any library already loaded */
        union {
            void *p;
            mstxInitInjectionFunc f;
        } init;
        init.p = dlsym(handle, "InitInjectionMstx");
        int ok = init.p && init.f(mstxGetModuleFuncTable) == MSTX_SUCCESS;
        if (!ok) {
            unsigned int i;
            for (i = 0; i < MSTX_API_CORE_SIZE; i++)
                c->core[i] = NULL;
            for (i = 0; i < MSTX_API_CORE2_SIZE; i++)
                c->domain[i] = NULL;
            for (i = 0; i < MSTX_API_CORE_MEM_SIZE; i++)
                c->mem[i] = NULL;
        }
        __atomic_store_n(&c->state, ok ? 2 : 3, __ATOMIC_RELEASE);
        return ok;
    }
    while ((state = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE)) == 1)
        sched_yield();
    return state == 2;
}

#define MSTX_FN_(table, id) (mstxInitOnce() ? g_mstxContext.table[id] : (mstxFuncPointer)0)

MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream)
{
    mstxFuncPointer f = MSTX_FN_(core, MSTX_API_CORE_MARK_A);
    if (f)
        ((mstxMarkAFunc)f)(message, stream);
}

MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream)
{
    mstxFuncPointer f = MSTX_FN_(core, MSTX_API_CORE_RANGE_START_A);
    return f ? ((mstxRangeStartAFunc)f)(message, stream) : 0;
}

MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id)
{
    mstxFuncPointer f = MSTX_FN_(core, MSTX_API_CORE_RANGE_END);
    if (f)
        ((mstxRangeEndFunc)f)(id);
}

MSTX_DECLSPEC void mstxGetToolId(uint64_t *id)
{
    mstxFuncPointer f = MSTX_FN_(core, MSTX_API_CORE_GET_TOOL_ID);
    if (f)
        ((mstxGetToolIdFunc)f)(id);
    else if (id)
        *id = MSTX_TOOL_INVALID_ID;
}

MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name)
{
    mstxFuncPointer f = MSTX_FN_(domain, MSTX_API_CORE2_DOMAIN_CREATE_A);
    return f ? ((mstxDomainCreateAFunc)f)(name) : (mstxDomainHandle_t)0;
}

MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain)
{
    mstxFuncPointer f = MSTX_FN_(domain, MSTX_API_CORE2_DOMAIN_DESTROY);
    if (f)
        ((mstxDomainDestroyFunc)f)(domain);
}

MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    mstxFuncPointer f = MSTX_FN_(domain, MSTX_API_CORE2_DOMAIN_MARK_A);
    if (f)
        ((mstxDomainMarkAFunc)f)(domain, message, stream);
}

MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    mstxFuncPointer f = MSTX_FN_(domain, MSTX_API_CORE2_DOMAIN_RANGE_START_A);
    return f ? ((mstxDomainRangeStartAFunc)f)(domain, message, stream) : 0;
}

MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id)
{
    mstxFuncPointer f = MSTX_FN_(domain, MSTX_API_CORE2_DOMAIN_RANGE_END);
    if (f)
        ((mstxDomainRangeEndFunc)f)(domain, id);
}

MSTX_DECLSPEC mstxMemHeapHandle_t mstxMemHeapRegister(mstxDomainHandle_t domain, mstxMemHeapDesc_t const *desc)
{
    mstxFuncPointer f = MSTX_FN_(mem, MSTX_API_CORE_MEMHEAP_REGISTER);
    return f ? ((mstxMemHeapRegisterFunc)f)(domain, desc) : (mstxMemHeapHandle_t)0;
}

MSTX_DECLSPEC void mstxMemHeapUnregister(mstxDomainHandle_t domain, mstxMemHeapHandle_t heap)
{
    mstxFuncPointer f = MSTX_FN_(mem, MSTX_API_CORE_MEMHEAP_UNREGISTER);
    if (f)
        ((mstxMemHeapUnregisterFunc)f)(domain, heap);
}

MSTX_DECLSPEC void mstxMemRegionsRegister(mstxDomainHandle_t domain, mstxMemRegionsRegisterBatch_t const *desc)
{
    mstxFuncPointer f = MSTX_FN_(mem, MSTX_API_CORE_MEM_REGIONS_REGISTER);
    if (f)
        ((mstxMemRegionsRegisterFunc)f)(domain, desc);
}

MSTX_DECLSPEC void mstxMemRegionsUnregister(mstxDomainHandle_t domain, mstxMemRegionsUnregisterBatch_t const *desc)
{
    mstxFuncPointer f = MSTX_FN_(mem, MSTX_API_CORE_MEM_REGIONS_UNREGISTER);
    if (f)
        ((mstxMemRegionsUnregisterFunc)f)(domain, desc);
}

#undef MSTX_FN_

#else /* MSTX_DISABLE: every call is a no-op */

MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream) { (void)message; (void)stream; }
MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream)
{
    (void)message;
    (void)stream;
    return 0;
}
MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id) { (void)id; }
MSTX_DECLSPEC void mstxGetToolId(uint64_t *id)
{
    if (id)
        *id = MSTX_TOOL_INVALID_ID;
}
MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name)
{
    (void)name;
    return (mstxDomainHandle_t)0;
}
MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain) { (void)domain; }
MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    (void)domain;
    (void)message;
    (void)stream;
}
MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    (void)domain;
    (void)message;
    (void)stream;
    return 0;
}
MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id)
{
    (void)domain;
    (void)id;
}
MSTX_DECLSPEC mstxMemHeapHandle_t mstxMemHeapRegister(mstxDomainHandle_t domain, mstxMemHeapDesc_t const *desc)
{
    (void)domain;
    (void)desc;
    return (mstxMemHeapHandle_t)0;
}
MSTX_DECLSPEC void mstxMemHeapUnregister(mstxDomainHandle_t domain, mstxMemHeapHandle_t heap)
{
    (void)domain;
    (void)heap;
}
MSTX_DECLSPEC void mstxMemRegionsRegister(mstxDomainHandle_t domain, mstxMemRegionsRegisterBatch_t const *desc)
{
    (void)domain;
    (void)desc;
}
MSTX_DECLSPEC void mstxMemRegionsUnregister(mstxDomainHandle_t domain, mstxMemRegionsUnregisterBatch_t const *desc)
{
    (void)domain;
    (void)desc;
}

#endif /* MSTX_DISABLE */

#ifdef __cplusplus
}
#endif

#endif /* MSTX_DETAIL_IMPL_H */
