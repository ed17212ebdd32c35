/*
 * Conversions from Philox words to the distributions of the random-number
 * task (acl-rt-memory-extras.md §3.10, "The generator"). random_dist.c has
 * the rules taken from TensorFlow's stateless ops; random_rules.c holds the
 * least certain ones (Decision 13) so that they can be corrected in one
 * place. Both are compiled without floating-point contraction (no FMA):
 * every float operation rounds on its own, as the references do.
 */
#ifndef OACL_DEVICE_CPU_RANDOM_DIST_H
#define OACL_DEVICE_CPU_RANDOM_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "device/cpu/philox.h"

/* ---- random_dist.c ---- */

/* [0, 1) from the low 23 bits of x (1.mantissa - 1). */
float oacl_rand_unit_f32(uint32_t x);
/* [0, 1) as a half from the low 10 bits, as a bfloat16 from the low 7. */
uint16_t oacl_rand_unit_f16(uint32_t x);
uint16_t oacl_rand_unit_bf16(uint32_t x);
/* Two standard normal samples from two words (TensorFlow's BoxMullerFloat). */
void oacl_rand_box_muller(uint32_t x0, uint32_t x1, float *f0, float *f1);

/* Uniform on [min, max): float arithmetic, or Eigen's half/bfloat16
 * arithmetic (each operation in float, rounded to the type). */
float oacl_rand_uniform_f32(uint32_t w, float min, float max);
uint16_t oacl_rand_uniform_f16(uint32_t w, uint16_t min, uint16_t max);
uint16_t oacl_rand_uniform_bf16(uint32_t w, uint16_t min, uint16_t max);
/* f * stddev + mean: two float operations, no FMA. */
float oacl_rand_scale(float f, float mean, float stddev);

/* ---- random_rules.c: the least certain rules ---- */

/* Uniform integer of `type` (INT32, INT64, UINT32, UINT64) on [min, max)
 * from the raw parameter bits; returns the output bits (zero-extended). */
uint64_t oacl_rand_uniform_int(uint32_t w, uint64_t min_bits, uint64_t max_bits, aclDataType type);
/* Group g of a truncated normal: up to `want` (<= 4) samples with |f| < 2,
 * from blocks 256 * g, 256 * g + 1, ... of the stream. */
void oacl_rand_truncated_group(const struct oacl_philox *g, uint64_t group, unsigned want, float out[4]);
/* The drop ratio (raw bits of `type`) as the float each sample is compared
 * with, and the comparison: true = keep the element (bit 1). */
float oacl_rand_dropout_ratio(uint64_t ratio_bits, aclDataType type);
bool oacl_rand_dropout_keep(uint32_t w, float ratio);

#endif /* OACL_DEVICE_CPU_RANDOM_DIST_H */
