/*
 * Distribution conversions taken from TensorFlow's stateless random ops
 * (random_distributions.h), which CANN's operator tests use as golden
 * references. Bit-exact for uniform outputs; the normal ones depend on the
 * C library's logf/sinf/cosf in their last bits.
 */
#include "device/cpu/random_dist.h"

#include <math.h>
#include <string.h>

#include "common/bf16.h"
#include "common/fp16.h"

float oacl_rand_unit_f32(uint32_t x)
{
    return oacl_f32_from_bits((x & 0x7FFFFFu) | 0x3F800000u) - 1.0f;
}

/* 1.mantissa - 1 is exact in the narrow type (and in float). */
uint16_t oacl_rand_unit_f16(uint32_t x)
{
    const uint16_t one_m = (uint16_t)((x & 0x3FFu) | (15u << 10));
    return oacl_f32_to_f16(oacl_f16_to_f32(one_m) - 1.0f);
}

uint16_t oacl_rand_unit_bf16(uint32_t x)
{
    const uint16_t one_m = (uint16_t)((x & 0x7Fu) | (127u << 7));
    return oacl_f32_to_bf16(oacl_bf16_to_f32(one_m) - 1.0f);
}

void oacl_rand_box_muller(uint32_t x0, uint32_t x1, float *f0, float *f1)
{
    float u1 = oacl_rand_unit_f32(x0);
    if (u1 < 1.0e-7f)
        u1 = 1.0e-7f; /* keeps log finite */
    const float v1 = (float)(2.0 * M_PI * (double)oacl_rand_unit_f32(x1));
    const float u2 = sqrtf(-2.0f * logf(u1));
    *f0 = sinf(v1) * u2;
    *f1 = cosf(v1) * u2;
}

float oacl_rand_uniform_f32(uint32_t w, float min, float max)
{
    const float u = oacl_rand_unit_f32(w);
    const float range = max - min;
    const float t = u * range;
    return t + min;
}

uint16_t oacl_rand_uniform_f16(uint32_t w, uint16_t min, uint16_t max)
{
    const float u = oacl_f16_to_f32(oacl_rand_unit_f16(w));
    const float lo = oacl_f16_to_f32(min);
    const uint16_t d = oacl_f32_to_f16(oacl_f16_to_f32(max) - lo);
    const uint16_t t = oacl_f32_to_f16(u * oacl_f16_to_f32(d));
    return oacl_f32_to_f16(oacl_f16_to_f32(t) + lo);
}

uint16_t oacl_rand_uniform_bf16(uint32_t w, uint16_t min, uint16_t max)
{
    const float u = oacl_bf16_to_f32(oacl_rand_unit_bf16(w));
    const float lo = oacl_bf16_to_f32(min);
    const uint16_t d = oacl_f32_to_bf16(oacl_bf16_to_f32(max) - lo);
    const uint16_t t = oacl_f32_to_bf16(u * oacl_bf16_to_f32(d));
    return oacl_f32_to_bf16(oacl_bf16_to_f32(t) + lo);
}

float oacl_rand_scale(float f, float mean, float stddev)
{
    const float t = f * stddev;
    return t + mean;
}
