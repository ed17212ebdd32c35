/*
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
 * 3", SC'11), the counter-based generator of the device's random-number
 * engine, in TensorFlow's stateless arrangement: key = the 64-bit seed,
 * base counter = the 128-bit value {c0, c1} from device memory, block b =
 * philox(counter + b, key).
 */
#ifndef OACL_DEVICE_CPU_PHILOX_H
#define OACL_DEVICE_CPU_PHILOX_H

#include <stdint.h>

/* One Philox4x32-10 bijection: 128-bit counter ctr[0..3] (word 0 least
 * significant), 64-bit key k[0..1] -> 4 x uint32. */
void oacl_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* A stream: key and base counter. */
struct oacl_philox {
    uint32_t key[2];   /* lo32(seed), hi32(seed) */
    uint32_t ctr[4];   /* lo32(c0), hi32(c0), lo32(c1), hi32(c1) */
};

void oacl_philox_init(struct oacl_philox *g, uint64_t seed, uint64_t c0, uint64_t c1);
/* Block b of the stream: philox(ctr + b, key), + a 128-bit addition. */
void oacl_philox_block(const struct oacl_philox *g, uint64_t b, uint32_t out[4]);

#endif /* OACL_DEVICE_CPU_PHILOX_H */
