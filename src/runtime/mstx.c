/*
 * mstx, the tool side (profiling-and-tools.md §3.5): InitInjectionMstx
 * fills the tables of programs built with the header-only mstx (found
 * through RTLD_DEFAULT, or MSTX_INJECTION_PATH naming this library), and
 * the same functions are exported under their own names for programs that
 * link libms_tools_ext.so (MSTX_NO_IMPL). Records go to the msproftx
 * channel: they are kept only while a session collects ACL_PROF_MSPROFTX.
 */
#define MSTX_NO_IMPL
#include "mstx/ms_tools_ext.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/addr_registry.h"
#include "runtime/prof.h"
#include "runtime/runtime.h"

#define MSG_MAX 255 /* Decision 10 */

/* ---- domains: a process-lifetime table (stale handles stay detectable) ---- */

struct mstxDomainRegistration_st {
    struct mstxDomainRegistration_st *next;
    bool destroyed;
    const char *name; /* interned */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mstxDomainRegistration_st *g_domains;

static bool bad_text(const char *s)
{
    return !s || !*s || *s == '=' || *s == '+' || *s == '-' || *s == '@';
}

/* The domain's name if it is live; NULL for the default domain (NULL);
 * *ok false for unknown or destroyed handles. */
static const char *domain_name(mstxDomainHandle_t d, bool *ok)
{
    *ok = true;
    if (!d)
        return NULL;
    pthread_mutex_lock(&g_lock);
    struct mstxDomainRegistration_st *p = g_domains;
    while (p && p != d)
        p = p->next;
    *ok = p && !p->destroyed;
    const char *n = p ? p->name : NULL;
    pthread_mutex_unlock(&g_lock);
    return n;
}

static const char *msg_copy(const char *message)
{
    char buf[MSG_MAX + 1];
    size_t n = strnlen(message, MSG_MAX);
    memcpy(buf, message, n);
    buf[n] = '\0';
    return oacl_trace_intern(buf);
}

/* ---- open ranges --------------------------------------------------------------- */

struct range {
    struct range *next;
    mstxRangeId id;
    mstxDomainHandle_t domain;
    const char *msg;
    const char *domain_name;
    uint64_t start;
    uint32_t tid;
    aclrtStream stream;
};

static struct range *g_ranges[256];
static uint64_t g_next_id; /* atomic: marks and ranges share it (CANN) */

static void emit(uint8_t level, const char *msg, const char *dname, uint64_t start, uint64_t end, uint32_t tid,
                 uint64_t flow)
{
    struct oacl_trace_rec r = {.kind = OACL_REC_TX,
                               .level = level,
                               .flags = OACL_RECF_MSTX,
                               .tid = tid,
                               .start = start,
                               .end = end,
                               .name = msg,
                               .name2 = dname,
                               .a = flow};
    oacl_trace_emit(&r);
}

static void mark(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    if (!oacl_prof_tx_active() || bad_text(message))
        return;
    bool ok;
    const char *dname = domain_name(domain, &ok);
    if (!ok)
        return;
    uint64_t id = __atomic_add_fetch(&g_next_id, 1, __ATOMIC_RELAXED);
    const char *msg = msg_copy(message);
    uint64_t now = oacl_trace_now();
    emit(OACL_TX_MARKER, msg, dname, now, now, oacl_trace_tid(), stream ? id : 0);
    if (stream)
        oacl_prof_queue_marker(stream, OACL_REC_TX_DEV, 0, msg, id, "mstxMarkA");
}

static mstxRangeId range_start(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    if (!oacl_prof_tx_active() || bad_text(message))
        return 0;
    bool ok;
    const char *dname = domain_name(domain, &ok);
    if (!ok)
        return 0;
    struct range *r = malloc(sizeof(*r));
    if (!r)
        return 0;
    r->id = __atomic_add_fetch(&g_next_id, 1, __ATOMIC_RELAXED);
    r->domain = domain;
    r->msg = msg_copy(message);
    r->domain_name = dname;
    r->tid = oacl_trace_tid();
    r->stream = stream;
    r->start = oacl_trace_now();
    pthread_mutex_lock(&g_lock);
    r->next = g_ranges[r->id & 255];
    g_ranges[r->id & 255] = r;
    pthread_mutex_unlock(&g_lock);
    if (stream)
        oacl_prof_queue_marker(stream, OACL_REC_TX_DEV, 0, r->msg, r->id, "mstxRangeStartA");
    return r->id;
}

static void range_end(mstxDomainHandle_t domain, mstxRangeId id)
{
    if (!id)
        return;
    pthread_mutex_lock(&g_lock);
    struct range **pp = &g_ranges[id & 255];
    while (*pp && (*pp)->id != id)
        pp = &(*pp)->next;
    struct range *r = *pp;
    if (r && r->domain == domain)
        *pp = r->next;
    else
        r = NULL; /* unknown, already ended, or another domain's */
    pthread_mutex_unlock(&g_lock);
    if (!r)
        return;
    if (oacl_prof_tx_active()) {
        emit(OACL_TX_STARTEND, r->msg, r->domain_name, r->start, oacl_trace_now(), r->tid, r->stream ? r->id : 0);
        if (r->stream)
            oacl_prof_queue_marker(r->stream, OACL_REC_TX_DEV, 1, r->msg, r->id, "mstxRangeEnd");
    }
    free(r);
}

/* ---- the exported functions ------------------------------------------------------- */

OACL_API void mstxMarkA(const char *message, aclrtStream stream) { mark(NULL, message, stream); }

OACL_API mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream)
{
    return range_start(NULL, message, stream);
}

OACL_API void mstxRangeEnd(mstxRangeId id) { range_end(NULL, id); }

/* Decision 12: the profiler's id while it collects mstx data. */
OACL_API void mstxGetToolId(uint64_t *id)
{
    if (id)
        *id = oacl_prof_tx_active() ? MSTX_TOOL_MSPROF_ID : MSTX_TOOL_INVALID_ID;
}

OACL_API mstxDomainHandle_t mstxDomainCreateA(const char *name)
{
    if (bad_text(name) || strnlen(name, 1024) >= 1024 || strcmp(name, "default") == 0)
        return NULL;
    pthread_mutex_lock(&g_lock);
    struct mstxDomainRegistration_st *d = g_domains;
    while (d && strcmp(d->name, name) != 0)
        d = d->next;
    if (d) {
        d->destroyed = false; /* the same handle comes back */
    } else if ((d = calloc(1, sizeof(*d)))) {
        d->name = oacl_trace_intern(name);
        d->next = g_domains;
        g_domains = d;
    }
    pthread_mutex_unlock(&g_lock);
    return d;
}

OACL_API void mstxDomainDestroy(mstxDomainHandle_t domain)
{
    if (!domain)
        return;
    pthread_mutex_lock(&g_lock);
    for (struct mstxDomainRegistration_st *d = g_domains; d; d = d->next)
        if (d == domain)
            d->destroyed = true;
    pthread_mutex_unlock(&g_lock);
}

OACL_API void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    if (domain)
        mark(domain, message, stream);
}

OACL_API mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    return domain ? range_start(domain, message, stream) : 0;
}

OACL_API void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id)
{
    if (domain)
        range_end(domain, id);
}

/* ---- memory pools ------------------------------------------------------------------------ */

struct mstxMemRegion_st {
    struct mstxMemRegion_st *next;
    uintptr_t base;
    uint64_t size;
};

struct mstxMemHeap_st {
    struct mstxMemHeap_st *next;
    mstxDomainHandle_t domain;
    uint32_t device;
    uintptr_t base;
    uint64_t size;
    struct mstxMemRegion_st *regions;
};

static struct mstxMemHeap_st *g_heaps;

/* [p, p+size) inside one live device allocation of `device`. */
static bool device_range(uint32_t device, const void *p, uint64_t size)
{
    struct oacl_mem_record r;
    uintptr_t a = (uintptr_t)p;
    if (!p || !size || !oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r))
        return false;
    if (r.kind != OACL_MEM_DEVICE || (r.device != (int32_t)device && r.device != OACL_MEM_ANY_DEVICE))
        return false;
    size_t len = r.user_size ? r.user_size : r.size; /* what was asked for, not the padding */
    return a < r.base + len && size <= r.base + len - a;
}

OACL_API mstxMemHeapHandle_t mstxMemHeapRegister(mstxDomainHandle_t domain, mstxMemHeapDesc_t const *desc)
{
    if (!desc || desc->usage != MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR || desc->type != MSTX_MEM_TYPE_VIRTUAL_ADDRESS ||
        !desc->typeSpecificDesc)
        return NULL;
    const mstxMemVirtualRangeDesc_t *v = desc->typeSpecificDesc;
    if (!device_range(v->deviceId, v->ptr, v->size))
        return NULL;
    struct mstxMemHeap_st *h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    h->domain = domain;
    h->device = v->deviceId;
    h->base = (uintptr_t)v->ptr;
    h->size = v->size;
    pthread_mutex_lock(&g_lock);
    h->next = g_heaps;
    g_heaps = h;
    pthread_mutex_unlock(&g_lock);
    return h;
}

static void free_regions(struct mstxMemRegion_st *r)
{
    while (r) {
        struct mstxMemRegion_st *n = r->next;
        free(r);
        r = n;
    }
}

OACL_API void mstxMemHeapUnregister(mstxDomainHandle_t domain, mstxMemHeapHandle_t heap)
{
    (void)domain;
    pthread_mutex_lock(&g_lock);
    struct mstxMemHeap_st **pp = &g_heaps;
    while (*pp && *pp != heap)
        pp = &(*pp)->next;
    struct mstxMemHeap_st *h = *pp;
    if (h)
        *pp = h->next;
    pthread_mutex_unlock(&g_lock);
    if (h) {
        free_regions(h->regions);
        free(h);
    }
}

OACL_API void mstxMemRegionsRegister(mstxDomainHandle_t domain, mstxMemRegionsRegisterBatch_t const *desc)
{
    (void)domain;
    if (!desc || desc->regionType != MSTX_MEM_TYPE_VIRTUAL_ADDRESS || (desc->regionCount && !desc->regionDescArray))
        return;
    const mstxMemVirtualRangeDesc_t *v = desc->regionDescArray;
    pthread_mutex_lock(&g_lock);
    struct mstxMemHeap_st *h = g_heaps;
    while (h && h != desc->heap)
        h = h->next;
    for (size_t i = 0; i < desc->regionCount; i++) {
        struct mstxMemRegion_st *r = NULL;
        uintptr_t a = (uintptr_t)v[i].ptr;
        if (h && a >= h->base && v[i].size && v[i].size <= h->base + h->size - a && (r = malloc(sizeof(*r)))) {
            r->base = a;
            r->size = v[i].size;
            r->next = h->regions;
            h->regions = r;
        }
        if (desc->regionHandleArrayOut)
            desc->regionHandleArrayOut[i] = r;
    }
    pthread_mutex_unlock(&g_lock);
}

OACL_API void mstxMemRegionsUnregister(mstxDomainHandle_t domain, mstxMemRegionsUnregisterBatch_t const *desc)
{
    (void)domain;
    if (!desc || (desc->refCount && !desc->refArray))
        return;
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < desc->refCount; i++) {
        const mstxMemRegionRef_t *ref = &desc->refArray[i];
        for (struct mstxMemHeap_st *h = g_heaps; h; h = h->next) {
            struct mstxMemRegion_st **pp = &h->regions;
            while (*pp) {
                struct mstxMemRegion_st *r = *pp;
                bool hit = ref->refType == MSTX_MEM_REGION_REF_TYPE_HANDLE ? r == ref->handle
                                                                           : r->base == (uintptr_t)ref->pointer;
                if (hit) {
                    *pp = r->next;
                    free(r);
                } else {
                    pp = &r->next;
                }
            }
        }
    }
    pthread_mutex_unlock(&g_lock);
}

/* ---- the injection entry point --------------------------------------------------------------- */

static void fill(mstxGetModuleFuncTableFunc get, mstxFuncModule module, const mstxFuncPointer *fns, unsigned n,
                 int *rc)
{
    mstxFuncTable table = NULL;
    unsigned int size = 0;
    if (get(module, &table, &size) != MSTX_SUCCESS || !table) {
        if (module == MSTX_API_MODULE_CORE)
            *rc = MSTX_FAIL;
        return;
    }
    for (unsigned id = 1; id < n && id < size; id++)
        if (table[id])
            *table[id] = fns[id];
}

OACL_API int InitInjectionMstx(mstxGetModuleFuncTableFunc getFuncTable);
OACL_API int InitInjectionMstx(mstxGetModuleFuncTableFunc getFuncTable)
{
    if (!getFuncTable)
        return MSTX_FAIL;
    const mstxFuncPointer core[] = {NULL, (mstxFuncPointer)mstxMarkA, (mstxFuncPointer)mstxRangeStartA,
                                    (mstxFuncPointer)mstxRangeEnd, (mstxFuncPointer)mstxGetToolId};
    const mstxFuncPointer domain[] = {NULL, (mstxFuncPointer)mstxDomainCreateA, (mstxFuncPointer)mstxDomainDestroy,
                                      (mstxFuncPointer)mstxDomainMarkA, (mstxFuncPointer)mstxDomainRangeStartA,
                                      (mstxFuncPointer)mstxDomainRangeEnd};
    const mstxFuncPointer mem[] = {NULL, (mstxFuncPointer)mstxMemHeapRegister, (mstxFuncPointer)mstxMemHeapUnregister,
                                   (mstxFuncPointer)mstxMemRegionsRegister,
                                   (mstxFuncPointer)mstxMemRegionsUnregister};
    int rc = MSTX_SUCCESS;
    fill(getFuncTable, MSTX_API_MODULE_CORE, core, 5, &rc);
    if (rc != MSTX_SUCCESS)
        return rc;
    fill(getFuncTable, MSTX_API_MODULE_CORE_DOMAIN, domain, 6, &rc);
    fill(getFuncTable, MSTX_API_MODULE_CORE_MEM, mem, 5, &rc);
    return MSTX_SUCCESS;
}
