#include "common/pagemap.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * Entries are uintptr_t: 0 = nothing, a value (8-byte aligned pointer, or
 * OACL_PAGEMAP_SHARED) = that value for the entry's whole span, or a child
 * node's address with bit 0 set. A node has 512 entries; the root entry
 * spans 2^36 pages (48-bit addresses), its children 2^27 pages, then 2^18,
 * 2^9 and single pages.
 */
#define PAGE_SHIFT 12
#define BITS 9
#define FANOUT (1u << BITS)
#define TOP_SHIFT 36 /* pages spanned by the root entry: 2^36 */

static inline bool is_node(uintptr_t e) { return e & 1u; }
static inline uintptr_t *node_of(uintptr_t e) { return (uintptr_t *)(e & ~(uintptr_t)1); }

static void free_entry(struct oacl_pagemap *pm, uintptr_t e)
{
    if (!is_node(e))
        return;
    uintptr_t *n = node_of(e);
    for (unsigned i = 0; i < FANOUT; i++)
        free_entry(pm, n[i]);
    free(n);
    pm->nodes--;
}

/* Sets pages [lo, hi) within the span [base, base + 2^shift) of *entry. */
static int set_span(struct oacl_pagemap *pm, uintptr_t *entry, unsigned shift, uint64_t base, uint64_t lo,
                    uint64_t hi, uintptr_t v)
{
    uint64_t end = base + (1ull << shift);
    if (lo <= base && hi >= end) {
        /* The whole span: one entry says it all. */
        free_entry(pm, *entry);
        *entry = v;
        return 0;
    }
    if (!is_node(*entry)) {
        /* Split: the new node starts out saying what the entry said. */
        uintptr_t *n = aligned_alloc(FANOUT * sizeof(uintptr_t), FANOUT * sizeof(uintptr_t));
        if (!n)
            return -ENOMEM;
        for (unsigned i = 0; i < FANOUT; i++)
            n[i] = *entry;
        pm->nodes++;
        *entry = (uintptr_t)n | 1u;
    }
    uintptr_t *n = node_of(*entry);
    unsigned sub = shift - BITS;
    uint64_t first = (lo > base ? lo - base : 0) >> sub;
    uint64_t last = ((hi < end ? hi : end) - base - 1) >> sub;
    for (uint64_t i = first; i <= last; i++) {
        uint64_t b = base + (i << sub);
        if (lo <= b && hi >= b + (1ull << sub) && !is_node(n[i])) {
            n[i] = v; /* the common case, without a call per entry */
            continue;
        }
        int rc = set_span(pm, &n[i], sub, b, lo, hi, v);
        if (rc)
            return rc;
    }
    /* Merge back a node whose entries all say the same: memory stays
       proportional to the number of distinct ranges. */
    uintptr_t e0 = n[0];
    if (is_node(e0))
        return 0;
    for (unsigned i = 1; i < FANOUT; i++)
        if (n[i] != e0)
            return 0;
    free(n);
    pm->nodes--;
    *entry = e0;
    return 0;
}

int oacl_pagemap_set(struct oacl_pagemap *pm, uintptr_t start, size_t len, void *value)
{
    if (len == 0)
        return 0;
    uint64_t end = (uint64_t)start + len;
    if (end < start || end > (1ull << (TOP_SHIFT + PAGE_SHIFT)))
        return -EINVAL;
    const uint64_t page = 1ull << PAGE_SHIFT;
    uint64_t full_lo = ((uint64_t)start + page - 1) >> PAGE_SHIFT;
    uint64_t full_hi = end >> PAGE_SHIFT;
    int rc = 0;
    if (value) {
        /* Pages the range covers in part are shared with other ranges. */
        uint64_t first = (uint64_t)start >> PAGE_SHIFT, last = (end - 1) >> PAGE_SHIFT;
        uintptr_t shared = (uintptr_t)OACL_PAGEMAP_SHARED;
        if (first < full_lo || full_lo >= full_hi)
            rc = set_span(pm, &pm->root, TOP_SHIFT, 0, first, first + 1, shared);
        if (!rc && last >= full_hi && (last != first || full_lo < full_hi))
            rc = set_span(pm, &pm->root, TOP_SHIFT, 0, last, last + 1, shared);
    }
    if (!rc && full_lo < full_hi)
        rc = set_span(pm, &pm->root, TOP_SHIFT, 0, full_lo, full_hi, (uintptr_t)value);
    return rc;
}

void *oacl_pagemap_get(const struct oacl_pagemap *pm, uintptr_t addr)
{
    uint64_t pn = (uint64_t)addr >> PAGE_SHIFT;
    if (pn >> TOP_SHIFT)
        return NULL;
    uintptr_t e = pm->root;
    unsigned shift = TOP_SHIFT;
    while (is_node(e)) {
        shift -= BITS;
        e = node_of(e)[(pn >> shift) & (FANOUT - 1)];
    }
    return (void *)e;
}

void oacl_pagemap_destroy(struct oacl_pagemap *pm)
{
    free_entry(pm, pm->root);
    pm->root = 0;
}
