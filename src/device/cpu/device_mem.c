/*
 * Device memory of the CPU device.
 *
 * Each device owns one sparse shared-memory file (memfd) as large as its
 * capacity, mapped once: that mapping is the device's address range, apart
 * from every host allocation. Allocating carves an extent out of the range
 * (first fit, whole pages, bookkeeping only: pages appear on first touch;
 * no two allocations share a page, so that one allocation can be handed to
 * another process on its own, see ipc_mem.c); freeing returns the extent, merges it with free neighbours and
 * punches the whole pages inside the merged extent out of the file so the
 * memory goes back to the system. An extent is never in two live
 * allocations at once.
 *
 * Guard pages (common/memcheck.h): with them (the default) the whole range
 * is mapped inaccessible and only live allocations are readable and
 * writable; every allocation's extent carries one more page that stays
 * inaccessible, so running off the end of a page-rounded allocation
 * faults, and so does touching freed memory until it is handed out again.
 * An OACL_DEV_ALLOC_TAIL allocation (memcheck mode) is placed so that it
 * ends where its guard page begins. Under memcheck freed extents first wait
 * in a bounded quarantine (FIFO, OACL_MEMCHECK_QUARANTINE_MB), inaccessible
 * and not reusable, so that a use after free faults for a while.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "common/imap.h"
#include "device/cpu/cpu_device.h"
#include "common/log.h"
#include "common/memcheck.h"
#include "device/cpu/soc_profile.h"

/* A freed extent waiting in quarantine. */
struct quarantined {
    uintptr_t start;
    size_t len;
    struct quarantined *next;
};

struct oacl_arena {
    pthread_mutex_t lock;
    int fd;
    uint8_t *base;
    size_t capacity;               /* the device's memory */
    size_t span;                   /* the address range (more with guard pages), once open */
    struct oacl_imap free_extents; /* start -> length, non-adjacent */
    bool guard;                    /* guard pages: free memory is inaccessible (set at open) */
    struct quarantined *q_head, *q_tail; /* memcheck: freed extents, oldest first */
    size_t q_bytes;
};

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* Maps the device's range on first use (the lock is held). */
static int arena_open(struct oacl_bdev *dev, struct oacl_arena *a, char *err)
{
    if (a->base)
        return ACL_SUCCESS;
    /* Guard pages and quarantine take address space, not memory: the range
       is sparse, so give it room for both. */
    a->guard = oacl_guard_pages_on();
    size_t extra = a->guard ? a->capacity + oacl_memcheck_quarantine_limit() : 0;
    a->span = a->capacity + (extra <= SIZE_MAX / 4 - a->capacity ? extra : 0);
    char name[32];
    snprintf(name, sizeof(name), "oacl-device-%u", dev->index);
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)a->span) != 0) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot create device %u's memory (%zu bytes): %s", dev->index,
                 a->capacity, strerror(errno));
        if (fd >= 0)
            close(fd);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    void *p = mmap(NULL, a->span, a->guard ? PROT_NONE : PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
                   fd, 0);
    if (p == MAP_FAILED) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot map device %u's memory (%zu bytes): %s", dev->index,
                 a->capacity, strerror(errno));
        close(fd);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    oacl_imap_init(&a->free_extents);
    if (oacl_imap_insert(&a->free_extents, (uintptr_t)p, a->span, NULL) != 0) {
        munmap(p, a->span);
        close(fd);
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    a->fd = fd;
    a->base = p;
    return ACL_SUCCESS;
}

struct fit {
    size_t size;
    uintptr_t align;
    struct oacl_imap_entry found;
    uintptr_t at;
};

static int first_fit(const struct oacl_imap_entry *e, void *arg)
{
    struct fit *f = arg;
    uintptr_t at = (e->start + f->align - 1) & ~(f->align - 1);
    if (at - e->start <= e->len && e->len - (at - e->start) >= f->size) {
        f->found = *e;
        f->at = at;
        return 1;
    }
    return 0;
}

int oacl_cpu_dev_alloc(struct oacl_bdev *dev, size_t size, size_t align, void **out, char *err)
{
    struct oacl_arena *a = dev->arena;
    size_t ps = page_size();
    bool tail = (align & OACL_DEV_ALLOC_TAIL) != 0;
    align &= ~OACL_DEV_ALLOC_TAIL;
    size_t len = (size + ps - 1) & ~(ps - 1);
    if (align < ps)
        align = ps;
    if (len < size || len > a->capacity) {
        snprintf(err, OACL_BACKEND_ERRLEN, "%zu bytes exceed device %u's %zu bytes of memory", size, dev->index,
                 a->capacity);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    pthread_mutex_lock(&a->lock);
    int rc = arena_open(dev, a, err);
    size_t ext = len + (a->guard ? ps : 0); /* the extent: the allocation and its guard page */
    struct fit f = {.size = ext, .align = align};
    if (rc == ACL_SUCCESS && !oacl_imap_foreach(&a->free_extents, first_fit, &f)) {
        snprintf(err, OACL_BACKEND_ERRLEN, "no free range of %zu bytes in device %u's memory", len, dev->index);
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    if (rc == ACL_SUCCESS) {
        /* Split the extent: what lies before and after the allocation stays
           free. Reinserting pieces of a removed extent cannot overlap. */
        oacl_imap_remove(&a->free_extents, f.found.start, NULL);
        size_t before = f.at - f.found.start;
        size_t after = f.found.len - before - ext;
        int e1 = before ? oacl_imap_insert(&a->free_extents, f.found.start, before, NULL) : 0;
        int e2 = after ? oacl_imap_insert(&a->free_extents, f.at + ext, after, NULL) : 0;
        int e3 = 0;
        if (!e1 && !e2 && a->guard && mprotect((void *)f.at, len, PROT_READ | PROT_WRITE) != 0)
            e3 = errno;
        if (e1 || e2 || e3) {
            /* Node allocation failed: put the extent back whole. */
            if (before && !e1)
                oacl_imap_remove(&a->free_extents, f.found.start, NULL);
            if (after && !e2)
                oacl_imap_remove(&a->free_extents, f.at + ext, NULL);
            oacl_imap_insert(&a->free_extents, f.found.start, f.found.len, NULL);
            if (e3)
                snprintf(err, OACL_BACKEND_ERRLEN,
                         "cannot map %zu bytes of device %u's memory: %s (with many allocations, the process's "
                         "mapping limit (vm.max_map_count) may be reached; OACL_DEVICE_GUARD_PAGES=0 needs fewer)",
                         len, dev->index, strerror(e3));
            else
                snprintf(err, OACL_BACKEND_ERRLEN, "out of memory");
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        } else {
            /* Tail placement: the end touches the guard page. */
            *out = (void *)(tail && a->guard ? f.at + len - size : f.at);
        }
    }
    pthread_mutex_unlock(&a->lock);
    return rc;
}

/* Returns the extent [start, start+len) to the free list (lock held). */
static void extent_free_locked(struct oacl_arena *a, uintptr_t start, size_t len)
{
    struct oacl_imap_entry prev, next;
    if (start > (uintptr_t)a->base && oacl_imap_find(&a->free_extents, start - 1, &prev) &&
        prev.start + prev.len == start) {
        oacl_imap_remove(&a->free_extents, prev.start, NULL);
        len += prev.len;
        start = prev.start;
    }
    if (oacl_imap_find(&a->free_extents, start + len, &next) && next.start == start + len) {
        oacl_imap_remove(&a->free_extents, next.start, NULL);
        len += next.len;
    }
    /* Removing nodes freed memory for this insert; it cannot fail. */
    oacl_imap_insert(&a->free_extents, start, len, NULL);
    /* Whole pages inside the free extent hold nothing: give them back. */
    size_t ps = page_size();
    uintptr_t lo = (start + ps - 1) & ~(uintptr_t)(ps - 1);
    uintptr_t hi = (start + len) & ~(uintptr_t)(ps - 1);
    if (hi > lo)
        fallocate(a->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)(lo - (uintptr_t)a->base),
                  (off_t)(hi - lo));
}

void oacl_cpu_dev_release(struct oacl_bdev *dev, void *ptr, size_t size)
{
    struct oacl_arena *a = dev->arena;
    size_t ps = page_size();
    /* The extent: from the page holding ptr (tail placement) to the end of
       the guard page. */
    uintptr_t start = (uintptr_t)ptr & ~(uintptr_t)(ps - 1);
    size_t len = (((uintptr_t)ptr + size + ps - 1) & ~(uintptr_t)(ps - 1)) - start;
    pthread_mutex_lock(&a->lock);
    if (a->guard)
        mprotect((void *)start, len, PROT_NONE); /* whatever touches it now faults */
    len += a->guard ? ps : 0;
    struct quarantined *qe = a->guard && oacl_memcheck_on() ? malloc(sizeof(*qe)) : NULL;
    if (!qe) {
        extent_free_locked(a, start, len);
        pthread_mutex_unlock(&a->lock);
        return;
    }
    /* Memcheck: the extent waits, inaccessible, behind older ones; its pages
       go back to the system now. */
    fallocate(a->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)(start - (uintptr_t)a->base), (off_t)len);
    qe->start = start;
    qe->len = len;
    qe->next = NULL;
    if (a->q_tail)
        a->q_tail->next = qe;
    else
        a->q_head = qe;
    a->q_tail = qe;
    a->q_bytes += len;
    size_t limit = oacl_memcheck_quarantine_limit();
    while (a->q_head && a->q_bytes > limit) {
        struct quarantined *old = a->q_head;
        a->q_head = old->next;
        if (!a->q_head)
            a->q_tail = NULL;
        a->q_bytes -= old->len;
        extent_free_locked(a, old->start, old->len);
        free(old);
    }
    pthread_mutex_unlock(&a->lock);
}

int oacl_cpu_arena_init(struct oacl_bdev *dev, uint64_t capacity, char *err)
{
    struct oacl_arena *a = calloc(1, sizeof(*a));
    if (!a) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    pthread_mutex_init(&a->lock, NULL);
    a->fd = -1;
    a->capacity = (size_t)capacity & ~(size_t)(page_size() - 1);
    dev->arena = a;
    return ACL_SUCCESS;
}

bool oacl_cpu_arena_extent(struct oacl_bdev *dev, uintptr_t p, size_t len, int *fd, off_t *off)
{
    struct oacl_arena *a = dev->arena;
    struct oacl_imap_entry e;
    pthread_mutex_lock(&a->lock);
    uintptr_t base = (uintptr_t)a->base;
    bool ok = a->base && p >= base && len <= a->span && p - base <= a->span - len &&
              !oacl_imap_first_overlap(&a->free_extents, p, len, &e);
    if (ok) {
        *fd = a->fd;
        *off = (off_t)(p - base);
    }
    pthread_mutex_unlock(&a->lock);
    return ok;
}
