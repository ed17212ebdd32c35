/*
 * Range checks of the global-memory accesses that kernel-side APIs make
 * (DataCopy and friends, GlobalTensor element access): oacl_gm_check in
 * kernel_abi.h.
 *
 * An access must lie inside one live range of the address registry (device
 * memory, device variables, mappings of host memory, managed memory ...)
 * and, for a write, one that is not read-only. The range is the registry's:
 * with CANN's 32 bytes of slack normally, 32-byte exact in memcheck mode
 * (where it also ends at the guard page). A failing access fails the block
 * through oacl_kernel_fail with OACL_FAULT_GM_READ/WRITE, which the kernel
 * runner maps to CANN's code (507042-507045 in memcheck mode, the plain
 * exception code otherwise).
 *
 * Cost: each thread keeps the last GM_CACHE_WAYS ranges it checked with the
 * registry's generation; while nothing left the registry, an access inside
 * one of them is a few loads and compares. One entry was not enough: a
 * kernel with inputs and an output in three allocations (add_custom)
 * alternated between them and took the registry's lock on every copy (42 %
 * of the seed workload's time in perf).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/addr_registry.h"
#include "common/memcheck.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/kill_point.h"

#define GM_CACHE_WAYS 4u

/* [lo, hi) of a live range; {0, 0} (empty) matches no access. */
struct gm_range {
    uintptr_t lo, hi;
};

struct gm_cache {
    uint64_t gen;      /* registry generation + 1 when filled; 0: empty */
    uint32_t next;     /* entry the next miss replaces */
    uint32_t writable; /* bit i: entry i may be written */
    struct gm_range e[GM_CACHE_WAYS];
};

/* initial-exec: no __tls_get_addr call per check (3 % of the seed workload) */
static __thread struct gm_cache tls_cache __attribute__((tls_model("initial-exec")));

/* len >= 1. Every way is tested (empty ones never match), two compares
   each: the access's end is computed once, and an empty way needs no
   count of filled ones. */
static inline bool cached(uintptr_t a, size_t len, int write)
{
    const struct gm_cache *c = &tls_cache;
    uintptr_t end;
    if (__builtin_add_overflow(a, len, &end) || c->gen != oacl_registry_generation() + 1)
        return false;
    for (uint32_t i = 0; i < GM_CACHE_WAYS; i++)
        if (a >= c->e[i].lo && end <= c->e[i].hi)
            return !write || (c->writable >> i & 1u);
    return false;
}

static void remember(uint64_t gen, uintptr_t lo, uintptr_t hi, bool writable)
{
    struct gm_cache *c = &tls_cache;
    if (c->gen != gen + 1) { /* the registry changed: forget every entry */
        memset(c, 0, sizeof(*c));
        c->gen = gen + 1;
    }
    uint32_t i = c->next;
    c->next = (i + 1) % GM_CACHE_WAYS;
    c->e[i].lo = lo;
    c->e[i].hi = hi;
    c->writable = (c->writable & ~(1u << i)) | ((uint32_t)writable << i);
}

/* Looks the access up (slow path). Returns 1 inside a range (cached now),
 * 0 outside every range, -1 inside a range it may not write. */
static int lookup(uintptr_t a, size_t len, int write)
{
    oacl_registry_rdlock();
    uint64_t gen = oacl_registry_generation();
    uintptr_t lo = 0, hi = 0;
    bool found = false, writable = true;
    const struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, a);
    if (r) {
        lo = r->base;
        hi = r->base + r->size;
        writable = !r->readonly;
        found = true;
    } else {
        /* Registered host memory whose device address is its host address
           is recorded as the registration only. */
        const struct oacl_mem_record *reg = oacl_registry_find_locked(OACL_SPACE_HOSTREG, a);
        if (reg && reg->dev_ptr == (void *)reg->base) {
            lo = reg->base;
            hi = reg->base + reg->size;
            writable = !(reg->flags & 0x8u); /* ACL_HOST_REG_READONLY */
            found = true;
        }
    }
    oacl_registry_unlock();
    if (!found || len > hi - a)
        return 0;
    if (write && !writable)
        return -1;
    remember(gen, lo, hi, writable);
    return 1;
}

static void gm_fail(uintptr_t a, size_t len, int write, const char *op, int how)
{
    char desc[320];
    oacl_memcheck_describe(a, len, desc, sizeof(desc));
    const char *what = write ? "write" : "read";
    if (how < 0)
        oacl_kernel_fail(OACL_FAULT_GM_WRITE, "%s: %s of %zu bytes into read-only memory: %s", op ? op : "?", what,
                         len, desc);
    oacl_kernel_fail(write ? OACL_FAULT_GM_WRITE : OACL_FAULT_GM_READ, "%s: %s of %zu bytes: %s", op ? op : "?",
                     what, len, desc);
}

OACL_KAPI void oacl_gm_check(const void *addr, size_t len, int write, const char *op)
{
    uintptr_t a = (uintptr_t)addr;
    if (len == 0 || cached(a, len, write))
        return;
    if (!oacl_block())
        return; /* not inside a kernel: nothing to fail */
    int how = lookup(a, len, write);
    if (how != 1)
        gm_fail(a, len, write, op, how);
}

/* oacl_gm_copy's path for an access its cache does not hold, or for a
   killed block (kept out of line so that the common path needs no stack
   frame of its own). */
static __attribute__((noinline, cold)) void gm_copy_checked(void *dst, const void *src, size_t n, int write,
                                                            const char *op)
{
    oacl_gm_check(write ? (const void *)dst : src, n, write, op);
    oacl_kernel_kill_point();
    memmove(dst, src, n);
}

/* DataCopy's check and copy in one call: one exported call per tile copy
   instead of two (the seed workload makes 384 of them per launch). Same
   order as oacl_gm_check then oacl_memmove: range check, kill point, copy
   (a killed block takes the checked path, whose kill point unwinds it). */
OACL_KAPI void oacl_gm_copy(void *dst, const void *src, size_t n, int write, const char *op)
{
    const void *gm = write ? (const void *)dst : src;
    const uint32_t *kill = oacl_tls_kill;
    /* the kill flag first: its registers are free again for the lookup */
    if (__builtin_expect(!(kill != NULL && __atomic_load_n(kill, __ATOMIC_RELAXED) != 0) &&
                             (n == 0 || cached((uintptr_t)gm, n, write)),
                         1)) {
        memmove(dst, src, n);
        return;
    }
    gm_copy_checked(dst, src, n, write, op);
}
