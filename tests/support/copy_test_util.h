/*
 * Helpers of the memory-extras copy tests (test_memcpy_2d.c,
 * test_memcpy_batch.c, test_memcpy_desc.c, test_memset_d32.c):
 * a seeded PRNG so that random cases are reproducible, a stream gate
 * (stream_gate.h) and byte patterns. Header-only.
 */
#ifndef OACL_TEST_COPY_TEST_UTIL_H
#define OACL_TEST_COPY_TEST_UTIL_H

#include <stdint.h>
#include <string.h>

#include "stream_gate.h"
#include "test_support.h"

/* splitmix64: small, seedable, good enough for test shapes and data. */
struct test_rng {
    uint64_t s;
};

static inline uint64_t rng_next(struct test_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static inline size_t rng_range(struct test_rng *r, size_t lo, size_t hi)
{
    return lo + (size_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

static inline void rng_fill(struct test_rng *r, void *p, size_t n)
{
    unsigned char *b = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v = rng_next(r);
        memcpy(b + i, &v, 8);
    }
    for (; i < n; i++)
        b[i] = (unsigned char)rng_next(r);
}

/* Bytes seed, seed+1, ... (mod 256): a pattern where misplaced bytes show. */
static inline void pattern_fill(void *p, size_t n, unsigned seed)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(seed + i * 7);
}

/* The reference 2-D copy: every source row read before anything is
 * written (a snapshot), then written row by row. */
static inline void ref_copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                               unsigned char *scratch /* width*height bytes */)
{
    for (size_t r = 0; r < height; r++)
        memcpy(scratch + r * width, (const unsigned char *)src + r * spitch, width);
    for (size_t r = 0; r < height; r++)
        memcpy((unsigned char *)dst + r * dpitch, scratch + r * width, width);
}

#endif /* OACL_TEST_COPY_TEST_UTIL_H */
