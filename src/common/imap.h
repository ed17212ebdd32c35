/*
 * Interval map: a set of non-overlapping half-open address ranges
 * [start, start + len), each carrying a value pointer, kept in a balanced
 * search tree keyed by start address. All operations are O(log n).
 *
 * Not synchronised: the owner (the address registry) serialises writers and
 * readers with its own lock.
 */
#ifndef OACL_COMMON_IMAP_H
#define OACL_COMMON_IMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct oacl_imap_node;

struct oacl_imap {
    struct oacl_imap_node *root;
    size_t count;
};

/* One stored range, as returned by lookups. */
struct oacl_imap_entry {
    uintptr_t start;
    size_t len;
    void *value;
};

void oacl_imap_init(struct oacl_imap *m);
/* Frees every node (not the values). The map is empty afterwards. */
void oacl_imap_clear(struct oacl_imap *m);

/*
 * Inserts [start, start+len) -> value. len must be > 0 and the range must
 * not wrap around the address space. Returns 0, -EEXIST when the range
 * overlaps a stored one (nothing changes), -EINVAL for len == 0 or a
 * wrapping range, -ENOMEM when a node cannot be allocated.
 */
int oacl_imap_insert(struct oacl_imap *m, uintptr_t start, size_t len, void *value);

/* The stored range containing addr, if any. Returns true and fills *out. */
bool oacl_imap_find(const struct oacl_imap *m, uintptr_t addr, struct oacl_imap_entry *out);

/*
 * The stored range with the lowest start that overlaps [start, start+len),
 * if any (len 0 never overlaps). Returns true and fills *out.
 */
bool oacl_imap_first_overlap(const struct oacl_imap *m, uintptr_t start, size_t len,
                             struct oacl_imap_entry *out);

/* Removes the range that starts exactly at start. Returns true and fills
 * *out (if non-NULL) with what was removed; false if no range starts there. */
bool oacl_imap_remove(struct oacl_imap *m, uintptr_t start, struct oacl_imap_entry *out);

static inline size_t oacl_imap_count(const struct oacl_imap *m) { return m->count; }

/*
 * Calls fn for every stored range in ascending order of start address.
 * Stops early and returns the callback's value when it returns non-zero.
 * The callback must not modify the map.
 */
int oacl_imap_foreach(const struct oacl_imap *m,
                      int (*fn)(const struct oacl_imap_entry *e, void *arg), void *arg);

/*
 * For tests only: verifies the tree's invariants (ordering, disjoint
 * non-wrapping ranges, balance, cached heights, count). Returns 0 when the
 * map is consistent, a negative code naming the first violation otherwise.
 * O(n); not for use on any runtime path.
 */
int oacl_imap_check(const struct oacl_imap *m);

#endif /* OACL_COMMON_IMAP_H */
