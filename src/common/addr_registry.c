#include "common/addr_registry.h"

#include <errno.h>
#include <pthread.h>

#include "common/imap.h"

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct oacl_imap g_maps[2];

void oacl_registry_rdlock(void) { pthread_rwlock_rdlock(&g_lock); }
void oacl_registry_wrlock(void) { pthread_rwlock_wrlock(&g_lock); }
void oacl_registry_unlock(void) { pthread_rwlock_unlock(&g_lock); }

int oacl_registry_insert_locked(enum oacl_space sp, struct oacl_mem_record *r)
{
    return oacl_imap_insert(&g_maps[sp], r->base, r->size, r);
}

struct oacl_mem_record *oacl_registry_find_locked(enum oacl_space sp, uintptr_t addr)
{
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
    return oacl_imap_remove(&g_maps[sp], base, &e) ? e.value : NULL;
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
