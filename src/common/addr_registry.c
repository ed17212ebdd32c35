#include "common/addr_registry.h"

#include <errno.h>
#include <stdbool.h>
#include <pthread.h>

#include "common/imap.h"
#include "common/pagemap.h"

/*
 * Each space keeps its ranges twice: an interval map (exact: overlap
 * checks, ranges smaller than a page) and a page map (fast: a lookup is a
 * few dependent loads however many ranges there are). The page map sends
 * lookups for pages shared by several ranges to the interval map.
 */
static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct oacl_imap g_maps[2];
static struct oacl_pagemap g_pages[2];
/* Cleared if a page-map update ever fails (out of memory while splitting a
 * node): from then on that space answers from the interval map alone. */
static bool g_pages_ok[2] = {true, true};
/* Host page -> device address offset of mapped registrations, so that the
 * hottest lookup (host pointer to device pointer) reads one page-map entry
 * and no record: at 100k registrations the record is a second cache miss.
 * Entries are the offset (a multiple of the page size) with bit 3 set, so
 * that an offset of 0 (identity mapping) differs from "none". */
static struct oacl_pagemap g_xlate;
static bool g_xlate_ok = true;
#define XLATE_TAG ((uintptr_t)8)

static void xlate_set_locked(const struct oacl_mem_record *r, bool set)
{
    if (!g_xlate_ok || !r->dev_ptr)
        return;
    void *v = set ? (void *)((((uintptr_t)r->dev_ptr - r->base) & ~(uintptr_t)15) | XLATE_TAG) : NULL;
    /* Only whole-page registrations are page aligned in both spaces. */
    if (((uintptr_t)r->dev_ptr - r->base) % 4096 != 0 || oacl_pagemap_set(&g_xlate, r->base, r->size, v) != 0)
        g_xlate_ok = false; /* answer from the records from now on */
}

/* atomic; in line in every range check (gm_check.c), so not static */
uint64_t oacl_registry_gen_;

bool oacl_registry_timedrdlock(const struct timespec *deadline)
{
    return pthread_rwlock_timedrdlock(&g_lock, deadline) == 0;
}

int oacl_registry_foreach_locked(enum oacl_space sp, int (*fn)(const struct oacl_imap_entry *e, void *arg), void *arg)
{
    return oacl_imap_foreach(&g_maps[sp], fn, arg);
}

void oacl_registry_rdlock(void) { pthread_rwlock_rdlock(&g_lock); }
void oacl_registry_wrlock(void) { pthread_rwlock_wrlock(&g_lock); }
void oacl_registry_unlock(void) { pthread_rwlock_unlock(&g_lock); }

int oacl_registry_insert_locked(enum oacl_space sp, struct oacl_mem_record *r)
{
    int rc = oacl_imap_insert(&g_maps[sp], r->base, r->size, r);
    if (rc)
        return rc;
    if (g_pages_ok[sp] && oacl_pagemap_set(&g_pages[sp], r->base, r->size, r) != 0)
        g_pages_ok[sp] = false; /* stale entries may remain: stop trusting it */
    if (sp == OACL_SPACE_HOSTREG)
        xlate_set_locked(r, true);
    return 0;
}

bool oacl_registry_translate_locked(uintptr_t host, uintptr_t *dev)
{
    if (!g_xlate_ok)
        return false;
    uintptr_t v = (uintptr_t)oacl_pagemap_get(&g_xlate, host);
    if (!(v & XLATE_TAG) || (v & 7u))
        return false; /* none, a shared page, or a node */
    *dev = host + (v & ~(uintptr_t)15);
    return true;
}

struct oacl_mem_record *oacl_registry_find_locked(enum oacl_space sp, uintptr_t addr)
{
    if (g_pages_ok[sp]) {
        void *v = oacl_pagemap_get(&g_pages[sp], addr);
        if (v != OACL_PAGEMAP_SHARED)
            return v;
    }
    struct oacl_imap_entry e;
    return oacl_imap_find(&g_maps[sp], addr, &e) ? e.value : NULL;
}

struct oacl_mem_record *oacl_registry_overlap_locked(enum oacl_space sp, uintptr_t base, size_t len)
{
    struct oacl_imap_entry e;
    return oacl_imap_first_overlap(&g_maps[sp], base, len, &e) ? e.value : NULL;
}

struct oacl_mem_record *oacl_registry_remove_locked(enum oacl_space sp, uintptr_t base)
{
    struct oacl_imap_entry e;
    if (!oacl_imap_remove(&g_maps[sp], base, &e))
        return NULL;
    __atomic_add_fetch(&oacl_registry_gen_, 1, __ATOMIC_RELEASE);
    if (g_pages_ok[sp] && oacl_pagemap_set(&g_pages[sp], e.start, e.len, NULL) != 0)
        g_pages_ok[sp] = false;
    if (sp == OACL_SPACE_HOSTREG)
        xlate_set_locked(e.value, false);
    return e.value;
}

size_t oacl_registry_count_locked(enum oacl_space sp) { return oacl_imap_count(&g_maps[sp]); }

bool oacl_registry_lookup(enum oacl_space sp, uintptr_t addr, struct oacl_mem_record *out)
{
    pthread_rwlock_rdlock(&g_lock);
    struct oacl_mem_record *r = oacl_registry_find_locked(sp, addr);
    if (r)
        *out = *r;
    pthread_rwlock_unlock(&g_lock);
    return r != NULL;
}
