/*
 * The least certain rules of the random-number task (acl-rt-memory-extras.md
 * Decision 13), isolated here so that they can be corrected in one place
 * once the hardware engine's behaviour is known:
 *  1. integer uniform: CANN's operator-test float-scaling rule, not
 *     TensorFlow's modulo method for integer ranges;
 *  2. truncated normal: each group of 4 outputs owns 256 Philox blocks
 *     (TensorFlow's kReservedSamplesPerOutput), samples with |f| >= 2 are
 *     rejected;
 *  3. dropout: the ratio converted to float, kept when u >= ratio.
 */
#include "device/cpu/random_dist.h"

#include <math.h>

#include "common/bf16.h"
#include "common/fp16.h"

/* ---- 1. integer uniform ---- */

/* v (an integer-valued float) truncated toward zero, as an int64 taken
 * modulo 2^64: C leaves out-of-range conversions undefined, the device
 * must not, and unsigned 64-bit ranges reach past 2^63. */
static uint64_t trunc_mod64(float t)
{
    const double d = trunc((double)t);
    if (d > -0x1p63 && d < 0x1p63)
        return (uint64_t)(int64_t)d;
    double m = fmod(d, 0x1p64); /* exact */
    if (m < 0)
        m += 0x1p64;
    return m >= 0x1p64 ? 0 : (uint64_t)m;
}

uint64_t oacl_rand_uniform_int(uint32_t w, uint64_t min_bits, uint64_t max_bits, aclDataType type)
{
    const bool is_signed = type == ACL_INT32 || type == ACL_INT64;
    const bool narrow = type == ACL_INT32 || type == ACL_UINT32;
    uint64_t lo = min_bits, hi = max_bits;
    if (narrow) {
        lo = is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)lo : (uint32_t)lo;
        hi = is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)hi : (uint32_t)hi;
    }
    /* max - min exactly in 64-bit integers (the magnitude always fits in
       uint64), then converted to float with round to nearest even. */
    const bool hi_ge = is_signed ? (int64_t)hi >= (int64_t)lo : hi >= lo;
    const float range = hi_ge ? (float)(hi - lo) : -(float)(lo - hi);
    const float fmin = is_signed ? (float)(int64_t)lo : (float)lo;
    const float u = oacl_rand_unit_f32(w);
    const float t = u * range;
    const uint64_t out = trunc_mod64(t + fmin);
    return narrow ? (uint32_t)out : out;
}

/* ---- 2. truncated normal ---- */

#define TRUNC_BLOCKS_PER_GROUP 256u

void oacl_rand_truncated_group(const struct oacl_philox *g, uint64_t group, unsigned want, float out[4])
{
    unsigned got = 0;
    const uint64_t first = group * TRUNC_BLOCKS_PER_GROUP;
    for (unsigned b = 0; b < TRUNC_BLOCKS_PER_GROUP && got < want; b++) {
        uint32_t w[4];
        oacl_philox_block(g, first + b, w);
        for (unsigned k = 0; k < 4 && got < want; k += 2) {
            float f0, f1;
            oacl_rand_box_muller(w[k], w[k + 1], &f0, &f1);
            if (fabsf(f0) < 2.0f)
                out[got++] = f0;
            if (got < want && fabsf(f1) < 2.0f)
                out[got++] = f1;
        }
    }
    /* 1024 samples each rejected with p ~ 0.0455 (p^1021 < 1e-1300): the
       group always fills; zeros keep the output defined regardless. */
    while (got < want)
        out[got++] = 0.0f;
}

/* ---- 3. dropout ---- */

float oacl_rand_dropout_ratio(uint64_t ratio_bits, aclDataType type)
{
    switch (type) {
    case ACL_FLOAT16: return oacl_f16_to_f32((uint16_t)ratio_bits);
    case ACL_BF16: return oacl_bf16_to_f32((uint16_t)ratio_bits);
    default: return oacl_f32_from_bits((uint32_t)ratio_bits);
    }
}

bool oacl_rand_dropout_keep(uint32_t w, float ratio) { return oacl_rand_unit_f32(w) >= ratio; }
