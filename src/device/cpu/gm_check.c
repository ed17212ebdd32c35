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
 * Cost: each thread keeps the last range it checked with the registry's
 * generation; while nothing left the registry, an access inside that range
 * is two loads and compares.
 */
#include <stdbool.h>
#include <stdio.h>

#include "common/addr_registry.h"
#include "common/memcheck.h"
#include "device/cpu/cpu_device.h"

struct gm_cache {
    uint64_t gen;      /* registry generation + 1 when filled; 0: empty */
    uintptr_t lo, hi;
    bool writable;
};

static __thread struct gm_cache tls_cache;

static inline bool cached(uintptr_t a, size_t len, int write)
{
    const struct gm_cache *c = &tls_cache;
    return c->gen == oacl_registry_generation() + 1 && a >= c->lo && a <= c->hi && len <= c->hi - a &&
           (!write || c->writable);
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
    tls_cache.lo = lo;
    tls_cache.hi = hi;
    tls_cache.writable = writable;
    tls_cache.gen = gen + 1;
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
