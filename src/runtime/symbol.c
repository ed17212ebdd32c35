/*
 * Device symbols (memory-extras chapter §3.9): aclrtGetSymbolAddress,
 * aclrtGetSymbolSize, aclrtMemcpyFromSymbol(Async), aclrtMemcpyToSymbol(Async),
 * and the table behind them.
 *
 * oacl-cc registers every namespace-scope `__gm__` variable of a kernel
 * source at load time through oacl_register_device_var (a constructor it
 * emits). Two kinds of registration exist:
 *  - while a kernel binary is being loaded with the aclrt binary API, the
 *    variables belong to that load: its module instance holds them, so
 *    every device (every load) has its own copy; the module's memory is
 *    already in the address registry, and the variables go when the binary
 *    is unloaded;
 *  - otherwise the variable is linked into the program (or a library it
 *    loads): one copy that every device uses, entered in the address
 *    registry as device memory of "any device".
 * The symbol is the variable's address as the host sees it; on the CPU
 * device the device address is the same.
 */
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/addr_registry.h"
#include "common/log.h"
#include "device/cpu/soc_profile.h"
#include "oacl/kernel_abi.h"
#include "runtime/runtime.h"

struct sym {
    uintptr_t symbol;
    uintptr_t dev_addr;
    size_t size;
    int32_t device;                /* OACL_MEM_ANY_DEVICE for linked variables */
    uint32_t refs;                 /* linked: registrations of the same variable */
    const void *owner;             /* the binary holding it; NULL: linked */
    struct oacl_mem_record *rec;   /* linked: its registry record (NULL if none) */
    char name[64];                 /* for messages */
};

/* Sorted by symbol; lookups are a binary search under the read lock. */
static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct sym *g_syms;
static size_t g_count, g_cap;

/* Registrations made by this thread while it loads a kernel binary. */
struct pending {
    uintptr_t symbol, dev_addr;
    size_t size;
    char name[64];
};
static __thread bool tl_loading;
static __thread struct pending *tl_pending;
static __thread size_t tl_npending, tl_cap_pending;

/* Index of the first entry with symbol >= s. */
static size_t lower_bound(uintptr_t s)
{
    size_t lo = 0, hi = g_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g_syms[mid].symbol < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static struct sym *find_locked(uintptr_t s)
{
    size_t i = lower_bound(s);
    return i < g_count && g_syms[i].symbol == s ? &g_syms[i] : NULL;
}

static bool insert_locked(const struct sym *e)
{
    if (g_count == g_cap) {
        size_t cap = g_cap ? g_cap * 2 : 64;
        struct sym *n = realloc(g_syms, cap * sizeof(*n));
        if (!n)
            return false;
        g_syms = n;
        g_cap = cap;
    }
    size_t i = lower_bound(e->symbol);
    memmove(&g_syms[i + 1], &g_syms[i], (g_count - i) * sizeof(*g_syms));
    g_syms[i] = *e;
    g_count++;
    return true;
}

static void remove_at_locked(size_t i)
{
    memmove(&g_syms[i], &g_syms[i + 1], (g_count - i - 1) * sizeof(*g_syms));
    g_count--;
}

static void copy_name(char *dst, size_t cap, const char *name)
{
    snprintf(dst, cap, "%s", name ? name : "?");
}

/* Takes the registry record of a linked variable out of the registry. */
static void drop_record(struct oacl_mem_record *rec)
{
    if (!rec)
        return;
    oacl_registry_wrlock();
    if (oacl_registry_find_locked(OACL_SPACE_ALLOC, rec->base) == rec)
        oacl_registry_remove_locked(OACL_SPACE_ALLOC, rec->base);
    oacl_registry_unlock();
    free(rec);
}

/* Is [addr, addr+size) inside a read-only part of a loaded image (a const
 * variable in .rodata, or data the loader made read-only after relocation)?
 * Linked variables live in the program's (or a library's) image. */
struct ro_query {
    uintptr_t addr, end;
    bool found, readonly;
};

static int ro_visit(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct ro_query *q = arg;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    bool inside = false, writable = false;
    uintptr_t relro_lo = 0, relro_hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t b = info->dlpi_addr + ph->p_vaddr, e = b + ph->p_memsz;
        if (ph->p_type == PT_LOAD && q->addr >= b && q->addr < e) {
            inside = true;
            writable = (ph->p_flags & PF_W) != 0;
        } else if (ph->p_type == PT_GNU_RELRO) {
            relro_lo = b & ~(page - 1);
            relro_hi = e & ~(page - 1); /* the loader protects whole pages */
        }
    }
    if (!inside)
        return 0;
    q->found = true;
    q->readonly = !writable || (q->addr < relro_hi && q->end > relro_lo);
    return 1;
}

static bool storage_readonly(const void *addr, size_t size)
{
    struct ro_query q = {(uintptr_t)addr, (uintptr_t)addr + size, false, false};
    dl_iterate_phdr(ro_visit, &q);
    return q.found && q.readonly;
}

/* ---- registration hooks (exported, called by code oacl-cc generates) ---------- */

OACL_KAPI void oacl_register_device_var(const void *symbol, void *devAddr, size_t size, const char *name)
{
    if (!symbol || !devAddr || size == 0) {
        OACL_WARN("device variable '%s' ignored: its registration has no address or size", name ? name : "?");
        return;
    }
    if (tl_loading) {
        if (tl_npending == tl_cap_pending) {
            size_t cap = tl_cap_pending ? tl_cap_pending * 2 : 16;
            struct pending *n = realloc(tl_pending, cap * sizeof(*n));
            if (!n) {
                OACL_WARN("device variable '%s' ignored: out of memory", name ? name : "?");
                return;
            }
            tl_pending = n;
            tl_cap_pending = cap;
        }
        struct pending *p = &tl_pending[tl_npending++];
        p->symbol = (uintptr_t)symbol;
        p->dev_addr = (uintptr_t)devAddr;
        p->size = size;
        copy_name(p->name, sizeof(p->name), name);
        return;
    }
    /* Linked into the program: one copy for every device. */
    struct oacl_mem_record *r = calloc(1, sizeof(*r));
    pthread_rwlock_wrlock(&g_lock);
    struct sym *old = find_locked((uintptr_t)symbol);
    if (old) {
        /* The same variable registered again (a C common symbol defined in
           two sources): counted, so that both unregistrations balance. */
        if (old->dev_addr == (uintptr_t)devAddr && old->size == size && !old->owner)
            old->refs++;
        else
            OACL_WARN("device variable '%s' at %p is registered already (as '%s'); ignored", name ? name : "?",
                      symbol, old->name);
        pthread_rwlock_unlock(&g_lock);
        free(r);
        return;
    }
    if (r) {
        r->base = (uintptr_t)devAddr;
        r->size = size;
        r->user_size = size;
        r->kind = OACL_MEM_DEVICE;
        r->device = OACL_MEM_ANY_DEVICE;
        r->origin = OACL_MEM_ORIGIN_SYMBOL;
        r->readonly = storage_readonly(devAddr, size);
        oacl_registry_wrlock();
        if (oacl_registry_overlap_locked(OACL_SPACE_ALLOC, r->base, r->size) ||
            oacl_registry_insert_locked(OACL_SPACE_ALLOC, r) != 0) {
            free(r);
            r = NULL; /* still a symbol; copies classify it by what is there */
        }
        oacl_registry_unlock();
    }
    struct sym e = {.symbol = (uintptr_t)symbol, .dev_addr = (uintptr_t)devAddr, .size = size,
                    .device = OACL_MEM_ANY_DEVICE, .refs = 1, .rec = r};
    copy_name(e.name, sizeof(e.name), name);
    bool ok = insert_locked(&e);
    pthread_rwlock_unlock(&g_lock);
    if (!ok) {
        drop_record(r);
        OACL_WARN("device variable '%s' ignored: out of memory", e.name);
    }
}

OACL_KAPI void oacl_unregister_device_var(const void *symbol)
{
    if (tl_loading) { /* a load failing after the constructors ran */
        for (size_t i = 0; i < tl_npending; i++) {
            if (tl_pending[i].symbol == (uintptr_t)symbol) {
                tl_pending[i] = tl_pending[--tl_npending];
                break;
            }
        }
        return;
    }
    pthread_rwlock_wrlock(&g_lock);
    size_t i = lower_bound((uintptr_t)symbol);
    struct oacl_mem_record *rec = NULL;
    if (i < g_count && g_syms[i].symbol == (uintptr_t)symbol && (g_syms[i].owner || --g_syms[i].refs == 0)) {
        rec = g_syms[i].rec;
        remove_at_locked(i);
    }
    pthread_rwlock_unlock(&g_lock);
    drop_record(rec);
}

/* ---- loading kernel binaries ---------------------------------------------------- */

void oacl_symbols_load_begin(void)
{
    tl_loading = true;
    tl_npending = 0;
}

void oacl_symbols_load_end(const void *owner, int32_t device, bool commit)
{
    tl_loading = false;
    if (commit && tl_npending) {
        pthread_rwlock_wrlock(&g_lock);
        for (size_t i = 0; i < tl_npending; i++) {
            const struct pending *p = &tl_pending[i];
            struct sym e = {.symbol = p->symbol, .dev_addr = p->dev_addr, .size = p->size, .device = device,
                            .refs = 1, .owner = owner};
            memcpy(e.name, p->name, sizeof(e.name));
            if (find_locked(p->symbol))
                OACL_WARN("device variable '%s' at %p is registered already; ignored", p->name, (void *)p->symbol);
            else if (!insert_locked(&e))
                OACL_WARN("device variable '%s' ignored: out of memory", p->name);
        }
        pthread_rwlock_unlock(&g_lock);
    }
    free(tl_pending);
    tl_pending = NULL;
    tl_npending = tl_cap_pending = 0;
}

void oacl_symbols_drop_owner(const void *owner)
{
    pthread_rwlock_wrlock(&g_lock);
    size_t k = 0;
    for (size_t i = 0; i < g_count; i++)
        if (g_syms[i].owner != owner)
            g_syms[k++] = g_syms[i];
    g_count = k;
    pthread_rwlock_unlock(&g_lock);
}

/* ---- the API ------------------------------------------------------------------------ */

/* Device symbols are not available on Ascend310B (§1.1). */
static aclError check_soc(const char *fn)
{
    const struct oacl_soc_profile *soc = oacl_config()->soc;
    if (soc && strcmp(soc->short_name, "Ascend310B") == 0)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn, soc->name);
    return ACL_SUCCESS;
}

/* The current context's check, then the symbol's registration. */
static aclError lookup(const void *symbol, struct sym *out, const char *fn)
{
    aclError rc = oacl_ctx_require(fn);
    if (rc)
        return rc;
    pthread_rwlock_rdlock(&g_lock);
    const struct sym *e = find_locked((uintptr_t)symbol);
    if (e)
        *out = *e;
    pthread_rwlock_unlock(&g_lock);
    if (!e)
        return oacl_fail(ACL_ERROR_RT_INVALID_SYMBOL, fn,
                         "symbol %p is not a registered device variable (the address of a __gm__ variable defined "
                         "in a kernel source compiled by oacl-cc, or one returned by aclrtBinaryGetGlobal)",
                         symbol);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetSymbolAddress(const void *symbol, void **devPtr)
{
    if (!symbol || !devPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", symbol ? "devPtr" : "symbol");
    aclError rc = check_soc(__func__);
    struct sym e;
    if (rc == ACL_SUCCESS)
        rc = lookup(symbol, &e, __func__);
    if (rc)
        return rc;
    *devPtr = (void *)e.dev_addr;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetSymbolSize(const void *symbol, size_t *size)
{
    if (!symbol || !size)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", symbol ? "size" : "symbol");
    aclError rc = check_soc(__func__);
    struct sym e;
    if (rc == ACL_SUCCESS)
        rc = lookup(symbol, &e, __func__);
    if (rc)
        return rc;
    *size = e.size;
    return ACL_SUCCESS;
}

/* offset + count within the variable. */
static aclError check_range(const struct sym *e, size_t offset, size_t count, const char *fn)
{
    if (offset > e->size || count > e->size - offset)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                         "offset %zu + count %zu exceed the %zu bytes of device variable '%s'", offset, count,
                         e->size, e->name);
    return ACL_SUCCESS;
}

/* After the symbol checks a copy fails only for aclrtMemcpy's reasons (the
 * host side, peer access, the stream); its line names aclrtMemcpy(Async),
 * this one says which call it was. */
static aclError copy_failed(aclError rc, const struct sym *e, bool to, const char *fn)
{
    return oacl_fail(rc, fn, "the copy %s device variable '%s' failed (see the line above)", to ? "into" : "out of",
                     e->name);
}

static aclError from_symbol(void *dst, size_t dstMax, const void *symbol, size_t count, size_t offset,
                            aclrtMemcpyKind kind, bool async, aclrtStream stream, const char *fn)
{
    if (count == 0)
        return ACL_SUCCESS;
    if (!symbol || !dst)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", symbol ? "dst" : "symbol");
    if (count > dstMax)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "count %zu exceeds dstMax %zu", count, dstMax);
    if (kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEFAULT)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                         "kind %d: copies from a symbol are ACL_MEMCPY_DEVICE_TO_HOST or ACL_MEMCPY_DEFAULT", (int)kind);
    aclError rc = check_soc(fn);
    struct sym e;
    if (rc == ACL_SUCCESS)
        rc = lookup(symbol, &e, fn);
    if (rc == ACL_SUCCESS)
        rc = check_range(&e, offset, count, fn);
    if (rc)
        return rc;
    const void *src = (const void *)(e.dev_addr + offset);
    rc = async ? aclrtMemcpyAsync(dst, dstMax, src, count, kind, stream) : aclrtMemcpy(dst, dstMax, src, count, kind);
    return rc ? copy_failed(rc, &e, false, fn) : ACL_SUCCESS;
}

static aclError to_symbol(const void *symbol, const void *src, size_t count, size_t offset, aclrtMemcpyKind kind,
                          bool async, aclrtStream stream, const char *fn)
{
    if (count == 0)
        return ACL_SUCCESS;
    if (!symbol || !src)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "%s is NULL", symbol ? "src" : "symbol");
    if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                         "kind %d: copies to a symbol are ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEFAULT", (int)kind);
    aclError rc = check_soc(fn);
    struct sym e;
    if (rc == ACL_SUCCESS)
        rc = lookup(symbol, &e, fn);
    if (rc == ACL_SUCCESS)
        rc = check_range(&e, offset, count, fn);
    if (rc)
        return rc;
    void *dst = (void *)(e.dev_addr + offset);
    size_t room = e.size - offset;
    rc = async ? aclrtMemcpyAsync(dst, room, src, count, kind, stream) : aclrtMemcpy(dst, room, src, count, kind);
    return rc ? copy_failed(rc, &e, true, fn) : ACL_SUCCESS;
}

OACL_API aclError aclrtMemcpyFromSymbol(void *dst, size_t dstMax, const void *symbol, size_t count, size_t offset,
                                        aclrtMemcpyKind kind)
{
    return from_symbol(dst, dstMax, symbol, count, offset, kind, false, NULL, __func__);
}

OACL_API aclError aclrtMemcpyFromSymbolAsync(void *dst, size_t dstMax, const void *symbol, size_t count,
                                             size_t offset, aclrtMemcpyKind kind, aclrtStream stream)
{
    return from_symbol(dst, dstMax, symbol, count, offset, kind, true, stream, __func__);
}

OACL_API aclError aclrtMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                      aclrtMemcpyKind kind)
{
    return to_symbol(symbol, src, count, offset, kind, false, NULL, __func__);
}

OACL_API aclError aclrtMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                           aclrtMemcpyKind kind, aclrtStream stream)
{
    return to_symbol(symbol, src, count, offset, kind, true, stream, __func__);
}
