/*
 * Pinned host memory and zero-copy device mappings on the CPU device.
 *
 * aclrtMallocHost memory is a shared anonymous mapping, locked with mlock.
 * Past the memlock limit (8 MiB for unprivileged users) the allocation still
 * succeeds, pre-faulted instead of locked, and the log says so once.
 *
 * A mapping for the device is a second virtual mapping of the same physical
 * pages, made with mremap(old, 0, len, MREMAP_MAYMOVE): the device address
 * differs from the host address, yet a kernel's writes through it land in
 * the host's pages with no copy. That works for shared mappings only, so:
 *  - runtime memory and user MAP_SHARED memory are aliased directly;
 *  - private anonymous memory covering whole pages is first moved, in place
 *    and with its contents, into a shared mapping at the same address
 *    (undone when the range is unregistered), then aliased;
 *  - anything else (a range ending inside a page that other data may share,
 *    the main stack, file-backed or read-only memory) is mapped with the
 *    device address equal to the host address.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "acl/acl.h"
#include "common/log.h"
#include "device/cpu/cpu_device.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

static size_t round_pages(size_t n) { return (n + page_size() - 1) & ~(page_size() - 1); }

/* Touches every page so that first use does not fault. */
static void prefault(void *ptr, size_t len)
{
    if (madvise(ptr, len, MADV_POPULATE_WRITE) == 0)
        return;
    if (madvise(ptr, len, MADV_POPULATE_READ) == 0)
        return;
    volatile unsigned char *p = ptr;
    for (size_t off = 0; off < len; off += page_size())
        (void)p[off];
}

static void note_unlocked(size_t len, int err)
{
    static int once;
    if (__atomic_exchange_n(&once, 1, __ATOMIC_RELAXED))
        return;
    struct rlimit rl;
    char limit[32] = "unknown";
    if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
        if (rl.rlim_cur == RLIM_INFINITY)
            snprintf(limit, sizeof(limit), "unlimited");
        else
            snprintf(limit, sizeof(limit), "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
    }
    OACL_WARN("cannot lock %zu bytes of pinned host memory (%s; RLIMIT_MEMLOCK %s): such memory is "
              "pre-faulted but not locked from now on",
              len, strerror(err), limit);
}

int oacl_cpu_host_alloc(struct oacl_bdev *dev, size_t size, void **out, bool *locked, char *err)
{
    (void)dev;
    size_t len = round_pages(size);
    if (len < size) {
        snprintf(err, OACL_BACKEND_ERRLEN, "size %zu is too large", size);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot allocate %zu bytes of host memory: %s", len, strerror(errno));
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    if (mlock(p, len) == 0) {
        *locked = true;
    } else {
        note_unlocked(len, errno);
        prefault(p, len);
        *locked = false;
    }
    *out = p;
    return ACL_SUCCESS;
}

void oacl_cpu_host_free(void *ptr, size_t size) { munmap(ptr, round_pages(size)); }

/* True when every page of [ptr, ptr+len) is mapped. */
/* ASan, TSan and MSan intercept mlock and succeed without locking anything. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MLOCK_IS_REAL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define MLOCK_IS_REAL 0
#endif
#endif
#ifndef MLOCK_IS_REAL
#define MLOCK_IS_REAL 1
#endif

static bool range_mapped(void *ptr, size_t len)
{
    /* msync(MS_ASYNC) does nothing to mapped memory but still fails with
       ENOMEM on a gap: a check that walks mappings, not pages. */
    return msync(ptr, len, MS_ASYNC) == 0 || errno != ENOMEM;
}

/* ---- mapping ----------------------------------------------------------- */

/* What /proc/self/maps says about a range. */
struct vma_scan {
    bool covered;          /* every byte lies in some mapping */
    bool single;           /* ... and in one mapping */
    bool shared;           /* that mapping is shared (aliasable as it is) */
    bool private_anon_rw;  /* all of it is private, anonymous, read-write */
};

/* Reads /proc/self/maps up to the end of [lo, hi) (cheap: unlike smaps it
 * walks no page tables). */
static void scan_vmas(uintptr_t lo, uintptr_t hi, struct vma_scan *out)
{
    memset(out, 0, sizeof(*out));
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return;
    char line[512];
    uintptr_t next = lo;
    bool anon_rw = true, shared = true;
    unsigned vmas = 0;
    while (fgets(line, sizeof(line), f)) {
        unsigned long start, end;
        char perms[8] = "";
        int name_at = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &start, &end, perms, &name_at) < 3)
            continue;
        if (end <= lo)
            continue;
        if (start >= hi || start > next)
            break; /* past the range, or a hole */
        const char *name = name_at ? line + name_at : "";
        size_t nl = strcspn(name, "\n");
        bool anon = nl == 0 || strncmp(name, "[heap]", nl) == 0;
        if (strncmp(perms, "rw-p", 4) != 0 || !anon)
            anon_rw = false;
        if (perms[3] != 's')
            shared = false;
        vmas++;
        next = end;
        if (next >= hi)
            break;
    }
    fclose(f);
    out->covered = next >= hi;
    out->single = out->covered && vmas == 1;
    out->shared = out->single && shared;
    out->private_anon_rw = out->covered && anon_rw;
}

/*
 * Bytes of the process that are locked (VmLck), from a counter the kernel
 * keeps: comparing it before and after an mlock or a remapping tells
 * whether the pages were locked already, without scanning mappings.
 * Returns -1 when it cannot be read.
 */
static long long locked_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return -1;
    char line[256];
    long long kib = -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "VmLck: %lld kB", &kib) == 1)
            break;
    fclose(f);
    return kib < 0 ? -1 : kib * 1024;
}

int oacl_cpu_host_lock(void *ptr, size_t size, bool *locked, char *err)
{
    size_t len = round_pages(size);
    /* Whether the program had locked these pages itself cannot be told
       cheaply (the kernel's counter costs more to read than locking a
       megabyte), so unregistering unlocks them: see docs/decisions.md.
       A successful mlock also proves the range mapped; its ENOMEM is
       ambiguous (the limit says ENOMEM too), so a failure is checked.
       Sanitizer runtimes stub mlock out: there the check comes first. */
    if (MLOCK_IS_REAL && mlock(ptr, len) == 0) {
        *locked = true;
        return ACL_SUCCESS;
    }
    if (!range_mapped(ptr, len)) {
        snprintf(err, OACL_BACKEND_ERRLEN, "[%p, +%zu) is not mapped memory", ptr, len);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (!MLOCK_IS_REAL && mlock(ptr, len) == 0) {
        *locked = true;
        return ACL_SUCCESS;
    }
    note_unlocked(len, errno);
    prefault(ptr, len);
    *locked = false;
    return ACL_SUCCESS;
}

void oacl_cpu_host_unlock(void *ptr, size_t size) { munlock(ptr, round_pages(size)); }

/* Replaces the pages at ptr with a fresh mapping of the given kind holding
 * the same bytes (locked again if the program had locked them). */
static bool rehome_pages(void *ptr, size_t len, int kind_flags, bool relock)
{
    void *s = mmap(NULL, len, PROT_READ | PROT_WRITE, kind_flags | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED)
        return false;
    memcpy(s, ptr, len);
    if (mremap(s, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, ptr) == MAP_FAILED) {
        munmap(s, len);
        return false;
    }
    if (relock)
        mlock(ptr, len);
    return true;
}

int oacl_cpu_host_map(struct oacl_bdev *dev, void *ptr, size_t size, bool runtime_memory, struct oacl_host_map *out,
                      char *err)
{
    (void)dev;
    size_t len = round_pages(size);
    if (runtime_memory) {
        /* Inside one aclrtMallocHost mapping (the registry checked it). */
        void *alias = mremap(ptr, 0, len, MREMAP_MAYMOVE);
        if (alias == MAP_FAILED) {
            snprintf(err, OACL_BACKEND_ERRLEN, "cannot create a device mapping of %zu bytes: %s", len,
                     strerror(errno));
            return ACL_ERROR_RT_MEMORY_ALLOCATION;
        }
        out->dev_ptr = alias;
        out->kind = OACL_MAP_ALIAS;
        out->relock = false;
        return ACL_SUCCESS;
    }
    /* User memory: mremap(old, 0) duplicates only the mapping holding ptr
       (and would run past its end), so look at the mappings first. */
    struct vma_scan vs;
    scan_vmas((uintptr_t)ptr, (uintptr_t)ptr + len, &vs);
    if (!vs.covered) {
        snprintf(err, OACL_BACKEND_ERRLEN, "[%p, +%zu) is not mapped memory", ptr, len);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (vs.shared) {
        void *alias = mremap(ptr, 0, len, MREMAP_MAYMOVE);
        if (alias != MAP_FAILED) {
            out->dev_ptr = alias;
            out->kind = OACL_MAP_ALIAS;
            out->relock = false;
            return ACL_SUCCESS;
        }
    }
    /* Private memory: move it into shared pages when the range owns its
       pages entirely and they are plain anonymous read-write memory. */
    long long locked_before = size == len && vs.private_anon_rw ? locked_bytes() : -1;
    if (size == len && vs.private_anon_rw && rehome_pages(ptr, len, MAP_SHARED, false)) {
        /* New pages are not locked: if the locked total dropped by the
           range's size, the program had locked it; lock the new pages. */
        long long locked_after = locked_bytes();
        bool relock = locked_before >= 0 && locked_after >= 0 && locked_before - locked_after >= (long long)len;
        if (relock)
            mlock(ptr, len);
        void *alias = mremap(ptr, 0, len, MREMAP_MAYMOVE);
        if (alias != MAP_FAILED) {
            out->dev_ptr = alias;
            out->kind = OACL_MAP_MIGRATED;
            out->relock = relock;
            return ACL_SUCCESS;
        }
        rehome_pages(ptr, len, MAP_PRIVATE, relock);
    }
    OACL_DEBUG("host range [%p, +%zu) is mapped with device address == host address", ptr, size);
    out->dev_ptr = ptr;
    out->kind = OACL_MAP_IDENTITY;
    out->relock = false;
    return ACL_SUCCESS;
}

void oacl_cpu_host_unmap(void *ptr, size_t size, const struct oacl_host_map *map)
{
    size_t len = round_pages(size);
    switch (map->kind) {
    case OACL_MAP_ALIAS:
        munmap(map->dev_ptr, len);
        break;
    case OACL_MAP_MIGRATED:
        munmap(map->dev_ptr, len);
        rehome_pages(ptr, len, MAP_PRIVATE, map->relock);
        break;
    default:
        break;
    }
}
