/*
 * Device memory shared with other processes (spec acl-rt-ipc-vmm.md 3.1).
 *
 * The device's arena file is never handed out: it holds every allocation
 * of the device, and an extent freed and reused later would alias between
 * processes. At its first export an allocation moves into its own sealed
 * memory file instead: with the memory-writer gate closed (mem_gate.c) its
 * populated pages are copied into the new file, the file is mapped over the
 * allocation at the same address, and the old pages are punched out of the
 * arena. When the allocation is freed the arena is mapped back over the
 * range (its pages there are holes) and the file's descriptor is closed;
 * importers keep their mappings and the data, since the file lives until
 * its last mapping is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "device/cpu/cpu_device.h"

struct oacl_bshare {
    uint32_t refs;            /* g_lock: keys holding it + 1 while the allocation lives */
    int fd;                   /* g_lock; -1 once the allocation is freed */
    struct oacl_bdev *dev;
    uintptr_t base;
    size_t len;
    struct oacl_bshare *next; /* live shares (g_lock) */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct oacl_bshare *g_shares;

static size_t page_round(size_t n)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    return (n + ps - 1) & ~(ps - 1);
}

int oacl_cpu_memfd(const char *name, size_t size, int *out, char *err)
{
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot create a memory file: %s", strerror(errno));
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    /* Owner-only, fixed size (a receiver's mapping can never lose pages). */
    if (fchmod(fd, 0600) != 0 || ftruncate(fd, (off_t)size) != 0 ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot size a memory file of %zu bytes: %s", size, strerror(errno));
        close(fd);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *out = fd;
    return ACL_SUCCESS;
}

/* Copies the populated pages of [off, off+len) of the arena file (holes
 * stay holes) from the mapping at base into fd. */
static int copy_populated(int arena_fd, off_t off, const uint8_t *base, size_t len, int fd)
{
    off_t end = off + (off_t)len;
    off_t pos = off;
    while (pos < end) {
        off_t data = lseek(arena_fd, pos, SEEK_DATA);
        if (data < 0 || data >= end)
            break; /* ENXIO: no data after pos */
        off_t hole = lseek(arena_fd, data, SEEK_HOLE);
        if (hole < 0 || hole > end)
            hole = end;
        size_t n = (size_t)(hole - data);
        const uint8_t *src = base + (data - off);
        off_t dst = data - off;
        while (n) {
            ssize_t w = pwrite(fd, src, n, dst);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return -1;
            src += w;
            dst += w;
            n -= (size_t)w;
        }
        pos = hole;
    }
    return 0;
}

int oacl_cpu_mem_share(struct oacl_bdev *dev, void *ptr, size_t size, struct oacl_bshare **out, char *err)
{
    /* From the allocation's first page (the memory checker places
       allocations at the end of their pages) to its last. */
    uintptr_t base = (uintptr_t)ptr & ~(uintptr_t)(page_round(1) - 1);
    size_t len = page_round((uintptr_t)ptr + size - base);
    pthread_mutex_lock(&g_lock);
    for (struct oacl_bshare *s = g_shares; s; s = s->next) {
        if (s->dev == dev && s->base == base) { /* moved already: later exports reuse the file */
            s->refs++;
            *out = s;
            pthread_mutex_unlock(&g_lock);
            return ACL_SUCCESS;
        }
    }
    int arena_fd;
    off_t off;
    int rc = ACL_SUCCESS;
    struct oacl_bshare *s = calloc(1, sizeof(*s));
    int fd = -1;
    if (!s) {
        snprintf(err, OACL_BACKEND_ERRLEN, "out of memory");
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    } else if (!oacl_cpu_arena_extent(dev, base, len, &arena_fd, &off)) {
        snprintf(err, OACL_BACKEND_ERRLEN, "%p is not a live allocation of device %u", ptr, dev->index);
        rc = ACL_ERROR_RT_PARAM_INVALID;
    } else {
        rc = oacl_cpu_memfd("oacl-ipc-mem", len, &fd, err);
    }
    if (rc == ACL_SUCCESS) {
        /* No store may land in the arena's pages between the copy and the
           switch of the mapping. */
        oacl_cpu_gate_close();
        if (copy_populated(arena_fd, off, (const uint8_t *)base, len, fd) != 0) {
            snprintf(err, OACL_BACKEND_ERRLEN, "cannot copy the allocation into its own memory file: %s",
                     strerror(errno));
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        } else if (mmap((void *)base, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
            snprintf(err, OACL_BACKEND_ERRLEN, "cannot map the allocation's memory file: %s", strerror(errno));
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        }
        oacl_cpu_gate_open();
    }
    if (rc) {
        if (fd >= 0)
            close(fd);
        free(s);
        pthread_mutex_unlock(&g_lock);
        return rc;
    }
    /* The arena's copy of the pages is garbage now: give it back. */
    fallocate(arena_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, (off_t)len);
    s->refs = 2; /* the caller's, and the allocation's until it is freed */
    s->fd = fd;
    s->dev = dev;
    s->base = base;
    s->len = len;
    s->next = g_shares;
    g_shares = s;
    *out = s;
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

int oacl_cpu_share_fd(struct oacl_bshare *s, int *fd, char *err)
{
    pthread_mutex_lock(&g_lock);
    int rc = ACL_SUCCESS;
    if (s->fd < 0) {
        snprintf(err, OACL_BACKEND_ERRLEN, "the exported allocation has been freed");
        rc = ACL_ERROR_RT_PARAM_INVALID;
    } else if ((*fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0)) < 0) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot duplicate a descriptor: %s", strerror(errno));
        rc = ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

bool oacl_cpu_share_live(struct oacl_bshare *s)
{
    pthread_mutex_lock(&g_lock);
    bool live = s->fd >= 0;
    pthread_mutex_unlock(&g_lock);
    return live;
}

void oacl_cpu_share_put(struct oacl_bshare *s)
{
    pthread_mutex_lock(&g_lock);
    bool last = --s->refs == 0;
    pthread_mutex_unlock(&g_lock);
    if (last)
        free(s);
}

void oacl_cpu_share_forget(struct oacl_bdev *dev, void *ptr)
{
    uintptr_t base = (uintptr_t)ptr & ~(uintptr_t)(page_round(1) - 1);
    pthread_mutex_lock(&g_lock);
    struct oacl_bshare **link = &g_shares, *s = NULL;
    for (; *link; link = &(*link)->next) {
        if ((*link)->dev == dev && (*link)->base == base) {
            s = *link;
            *link = s->next;
            break;
        }
    }
    bool last = false;
    if (s) {
        /* The extent goes back to the arena: map the arena over it again
           (its pages there are holes), so that a later allocation of these
           addresses is the device's own memory again. */
        int arena_fd;
        off_t off;
        if (oacl_cpu_arena_extent(dev, base, s->len, &arena_fd, &off))
            mmap((void *)base, s->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, arena_fd, off);
        close(s->fd);
        s->fd = -1;
        last = --s->refs == 0;
    }
    pthread_mutex_unlock(&g_lock);
    if (last)
        free(s);
}

int oacl_cpu_mem_attach(int fd, size_t size, void **out, char *err)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot map %zu bytes of shared memory: %s", size, strerror(errno));
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *out = p;
    return ACL_SUCCESS;
}

void oacl_cpu_mem_detach(struct oacl_bdev *dev, void *ptr, size_t size)
{
    oacl_cpu_wait_queues(dev); /* work queued before may still use it */
    munmap(ptr, size);
}
