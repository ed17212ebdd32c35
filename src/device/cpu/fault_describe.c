/*
 * Where a faulting address lies, in words, for kernel fault messages: the
 * allocation it falls into or the nearest one (from the address registry),
 * e.g. "12 bytes past the end of a 1000-byte device allocation at 0x7f...".
 * Kept apart from the signal code so that the memory checker can add what
 * it knows (freed ranges, allocation sites).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/addr_registry.h"
#include "common/memcheck.h"
#include "device/cpu/fault.h"

/* Allocations farther away than this are not "nearest" to anything. */
#define NEAR_LIMIT ((uintptr_t)1 << 30)

static const char *kind_name(enum oacl_mem_kind k)
{
    switch (k) {
    case OACL_MEM_HOST_PINNED: return "pinned host allocation";
    case OACL_MEM_DEVICE_ALIAS: return "device mapping of host memory";
    case OACL_MEM_HOST_REGISTERED: return "registered host range";
    case OACL_MEM_DEVICE: return "device allocation";
    case OACL_MEM_MANAGED: return "managed allocation";
    case OACL_MEM_MBUF: return "mbuf buffer";
    }
    return "allocation";
}

static size_t rec_size(const struct oacl_mem_record *r) { return r->user_size ? r->user_size : r->size; }

/* The record overlapping [lo, lo+len) with the smallest len: found by
 * halving, since overlap only grows with len (registry lock held). */
static struct oacl_mem_record *nearest_locked(uintptr_t addr, bool below)
{
    uintptr_t lo = 1, hi = NEAR_LIMIT;
    if (below && addr < hi)
        hi = addr;
    if (!below && UINTPTR_MAX - addr < hi)
        hi = UINTPTR_MAX - addr;
    if (hi < 1)
        return NULL;
    struct oacl_mem_record *best = below ? oacl_registry_overlap_locked(OACL_SPACE_ALLOC, addr - hi, hi)
                                         : oacl_registry_overlap_locked(OACL_SPACE_ALLOC, addr + 1, hi);
    if (!best)
        return NULL;
    while (lo < hi) {
        uintptr_t mid = lo + (hi - lo) / 2;
        struct oacl_mem_record *r = below ? oacl_registry_overlap_locked(OACL_SPACE_ALLOC, addr - mid, mid)
                                          : oacl_registry_overlap_locked(OACL_SPACE_ALLOC, addr + 1, mid);
        if (r) {
            best = r;
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return best;
}

size_t oacl_fault_describe_addr(uintptr_t addr, char *buf, size_t len)
{
    int n;
    if (addr < 4096) {
        n = snprintf(buf, len, "NULL pointer (address 0x%" PRIxPTR ")", addr);
        return n < 0 ? 0 : (size_t)n;
    }
    /* Under memcheck the checker knows freed ranges and allocation sites. */
    if (oacl_memcheck_on()) {
        oacl_memcheck_describe(addr, 0, buf, len);
        return strlen(buf);
    }
    oacl_registry_rdlock();
    struct oacl_mem_record *in = oacl_registry_find_locked(OACL_SPACE_ALLOC, addr);
    if (in) {
        size_t off = (size_t)(addr - in->base);
        if (off < rec_size(in))
            n = snprintf(buf, len, "offset %zu of a %zu-byte %s at 0x%" PRIxPTR, off, rec_size(in),
                         kind_name(in->kind), in->base);
        else /* in the page rounding after the requested size */
            n = snprintf(buf, len, "%zu bytes past the end of a %zu-byte %s at 0x%" PRIxPTR, off - rec_size(in),
                         rec_size(in), kind_name(in->kind), in->base);
        oacl_registry_unlock();
        return n < 0 ? 0 : (size_t)n;
    }
    struct oacl_mem_record *lo = nearest_locked(addr, true);
    struct oacl_mem_record *hi = nearest_locked(addr, false);
    uintptr_t dlo = lo ? addr - (lo->base + rec_size(lo)) : UINTPTR_MAX;
    uintptr_t dhi = hi ? hi->base - addr : UINTPTR_MAX;
    if (lo && dlo <= dhi)
        n = snprintf(buf, len, "%" PRIuPTR " bytes past the end of a %zu-byte %s at 0x%" PRIxPTR, dlo,
                     rec_size(lo), kind_name(lo->kind), lo->base);
    else if (hi)
        n = snprintf(buf, len, "%" PRIuPTR " bytes before the start of a %zu-byte %s at 0x%" PRIxPTR, dhi,
                     rec_size(hi), kind_name(hi->kind), hi->base);
    else
        n = snprintf(buf, len, "not in any allocation known to the runtime");
    oacl_registry_unlock();
    return n < 0 ? 0 : (size_t)n;
}
