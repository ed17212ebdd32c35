/*
 * Managed (unified) memory of the CPU device.
 *
 * Host and devices share one address space here, so managed memory is
 * ordinary anonymous memory that every side uses at the same address: no
 * page ever migrates. Like CANN's unified-memory window, all of it comes
 * from one reserved range: on first use a window of 3 TiB is reserved
 * (PROT_NONE, no backing) at 0x90000000000 where that address is free,
 * anywhere otherwise. Allocations are 2 MiB-aligned extents of the window
 * (first fit), made read-write; freeing maps fresh PROT_NONE pages over the
 * extent, which gives the memory back and makes the next allocation there
 * read as zero.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "acl/acl.h"
#include "common/imap.h"
#include "common/tsan.h"
#include "device/cpu/cpu_device.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define MANAGED_PAGE ((size_t)2 << 20)
#define WINDOW_HINT ((uintptr_t)0x90000000000ull)

/* ThreadSanitizer only accepts mappings inside its application ranges, of
   which the one mmap picks addresses from holds about 1.5 TiB: there the
   window is smaller (and never at the hint, which is its shadow memory). */
#ifdef OACL_UNDER_TSAN
#define WINDOW_SIZE ((size_t)64 << 30)
#else
#define WINDOW_SIZE ((size_t)3 << 40)
#endif

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t g_base;              /* 0 until reserved */
static struct oacl_imap g_free;       /* free extents of the window: start -> length */

/* Reserves the window (lock held). */
static int window_open(char *err)
{
    if (g_base)
        return ACL_SUCCESS;
    const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    void *p = MAP_FAILED;
#ifndef OACL_UNDER_TSAN
    p = mmap((void *)WINDOW_HINT, WINDOW_SIZE, PROT_NONE, flags | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != MAP_FAILED && (uintptr_t)p != WINDOW_HINT) {
        /* A kernel without MAP_FIXED_NOREPLACE took it as a hint only. */
        munmap(p, WINDOW_SIZE);
        p = MAP_FAILED;
    }
#endif
    uintptr_t base;
    if (p != MAP_FAILED) {
        base = (uintptr_t)p;
    } else {
        /* Anywhere, 2 MiB aligned: reserve one page more and trim. */
        p = mmap(NULL, WINDOW_SIZE + MANAGED_PAGE, PROT_NONE, flags, -1, 0);
        if (p == MAP_FAILED) {
            snprintf(err, OACL_BACKEND_ERRLEN, "cannot reserve the %zu GiB managed-memory window: %s",
                     WINDOW_SIZE >> 30, strerror(errno));
            return ACL_ERROR_RT_MEMORY_ALLOCATION;
        }
        base = ((uintptr_t)p + MANAGED_PAGE - 1) & ~(uintptr_t)(MANAGED_PAGE - 1);
        if (base > (uintptr_t)p)
            munmap(p, base - (uintptr_t)p);
        uintptr_t end = (uintptr_t)p + WINDOW_SIZE + MANAGED_PAGE;
        if (end > base + WINDOW_SIZE)
            munmap((void *)(base + WINDOW_SIZE), end - (base + WINDOW_SIZE));
    }
    oacl_imap_init(&g_free);
    if (oacl_imap_insert(&g_free, base, WINDOW_SIZE, NULL) != 0) {
        munmap((void *)base, WINDOW_SIZE);
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    g_base = base;
    return ACL_SUCCESS;
}

struct fit {
    size_t size;
    struct oacl_imap_entry found;
};

static int first_fit(const struct oacl_imap_entry *e, void *arg)
{
    struct fit *f = arg;
    if (e->len < f->size)
        return 0;
    f->found = *e;
    return 1;
}

int oacl_cpu_managed_alloc(size_t size, void **out, char *err)
{
    if (size == 0 || size % MANAGED_PAGE != 0 || size > WINDOW_SIZE) {
        snprintf(err, OACL_BACKEND_ERRLEN, "%zu bytes do not fit the %zu GiB managed-memory window", size,
                 WINDOW_SIZE >> 30);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    pthread_mutex_lock(&g_lock);
    int rc = window_open(err);
    struct fit f = {.size = size};
    if (rc == ACL_SUCCESS && !oacl_imap_foreach(&g_free, first_fit, &f)) {
        snprintf(err, OACL_BACKEND_ERRLEN, "no free range of %zu bytes left in the %zu GiB managed-memory window",
                 size, WINDOW_SIZE >> 30);
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    if (rc == ACL_SUCCESS) {
        /* Extents and sizes are whole 2 MiB pages, so the fit is aligned. */
        oacl_imap_remove(&g_free, f.found.start, NULL);
        int e = f.found.len > size ? oacl_imap_insert(&g_free, f.found.start + size, f.found.len - size, NULL) : 0;
        if (e || mprotect((void *)f.found.start, size, PROT_READ | PROT_WRITE) != 0) {
            if (e == 0 && f.found.len > size)
                oacl_imap_remove(&g_free, f.found.start + size, NULL);
            oacl_imap_insert(&g_free, f.found.start, f.found.len, NULL); /* a node was just freed */
            snprintf(err, OACL_BACKEND_ERRLEN, "cannot make %zu bytes of managed memory usable: %s", size,
                     e ? "out of memory" : strerror(errno));
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        } else {
            *out = (void *)f.found.start;
        }
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

void oacl_cpu_managed_release(void *ptr, size_t size)
{
    uintptr_t start = (uintptr_t)ptr;
    size_t len = size;
    /* Fresh inaccessible pages over the extent: the old ones go back to
       the system, and the next allocation here reads zeros. */
    mmap(ptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    pthread_mutex_lock(&g_lock);
    struct oacl_imap_entry prev, next;
    if (start > g_base && oacl_imap_find(&g_free, start - 1, &prev) && prev.start + prev.len == start) {
        oacl_imap_remove(&g_free, prev.start, NULL);
        start = prev.start;
        len += prev.len;
    }
    if (oacl_imap_find(&g_free, start + len, &next) && next.start == start + len) {
        oacl_imap_remove(&g_free, next.start, NULL);
        len += next.len;
    }
    oacl_imap_insert(&g_free, start, len, NULL); /* removals freed the node it needs */
    pthread_mutex_unlock(&g_lock);
}
