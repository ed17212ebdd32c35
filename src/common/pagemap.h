/*
 * Page map: a radix table from page number to a value, shaped like a CPU
 * page table (4 levels of 512 entries over 36 bits of page number). It
 * answers "which range covers this address" with a few dependent loads
 * whatever the number of ranges, where a search tree needs one cache miss
 * per level of a deep tree.
 *
 * An entry above the last level may hold a value for its whole span (like
 * a huge page), so a range of gigabytes costs a handful of entries. A page
 * that a range covers only in part holds OACL_PAGEMAP_SHARED: the caller
 * then asks its exact structure (the interval map) instead.
 *
 * Not synchronised (the registry's lock covers it). A node whose entries
 * all become equal is merged back into its parent entry, so memory stays
 * proportional to the number of distinct ranges.
 */
#ifndef OACL_COMMON_PAGEMAP_H
#define OACL_COMMON_PAGEMAP_H

#include <stddef.h>
#include <stdint.h>

/* Returned for pages only partly covered by some range. */
#define OACL_PAGEMAP_SHARED ((void *)(uintptr_t)2)

struct oacl_pagemap {
    uintptr_t root; /* tagged entry: see pagemap.c */
    size_t nodes;   /* allocated nodes, for tests */
};

/*
 * Sets every page fully inside [start, start+len) to value (8-byte aligned
 * pointer, or NULL to clear) and marks pages partly inside it as shared
 * (when setting; clearing leaves them shared). Returns 0, or -ENOMEM with
 * the map possibly half updated (the caller then clears the range).
 */
int oacl_pagemap_set(struct oacl_pagemap *pm, uintptr_t start, size_t len, void *value);

/* The value of the page holding addr: NULL, a value, or OACL_PAGEMAP_SHARED. */
void *oacl_pagemap_get(const struct oacl_pagemap *pm, uintptr_t addr);

/* Frees every node. */
void oacl_pagemap_destroy(struct oacl_pagemap *pm);

#endif /* OACL_COMMON_PAGEMAP_H */
