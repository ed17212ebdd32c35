/*
 * Philox4x32-10, exactly as acl-rt-memory-extras.md §3.10 gives it (the
 * Random123 reference algorithm; known-answer vectors in
 * tests/internal/test_philox.c).
 */
#include "device/cpu/philox.h"

void oacl_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    uint32_t k0 = key[0], k1 = key[1];
    for (int r = 0; r < 10; ++r) {
        const uint64_t p0 = (uint64_t)0xD2511F53u * c0;
        const uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
        const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        const uint32_t n1 = (uint32_t)p1;
        const uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        const uint32_t n3 = (uint32_t)p0;
        c0 = n0;
        c1 = n1;
        c2 = n2;
        c3 = n3;
        if (r < 9) { /* the key is raised between rounds (Weyl sequence) */
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

void oacl_philox_init(struct oacl_philox *g, uint64_t seed, uint64_t c0, uint64_t c1)
{
    g->key[0] = (uint32_t)seed;
    g->key[1] = (uint32_t)(seed >> 32);
    g->ctr[0] = (uint32_t)c0;
    g->ctr[1] = (uint32_t)(c0 >> 32);
    g->ctr[2] = (uint32_t)c1;
    g->ctr[3] = (uint32_t)(c1 >> 32);
}

void oacl_philox_block(const struct oacl_philox *g, uint64_t b, uint32_t out[4])
{
    /* ctr + b with carries propagating upward through all four words. */
    uint32_t c[4];
    const uint64_t lo = ((uint64_t)g->ctr[1] << 32 | g->ctr[0]) + b;
    const uint64_t carry = lo < b;
    const uint64_t hi = ((uint64_t)g->ctr[3] << 32 | g->ctr[2]) + carry;
    c[0] = (uint32_t)lo;
    c[1] = (uint32_t)(lo >> 32);
    c[2] = (uint32_t)hi;
    c[3] = (uint32_t)(hi >> 32);
    oacl_philox4x32_10(c, g->key, out);
}
