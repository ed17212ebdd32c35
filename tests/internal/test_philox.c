/*
 * White-box tests of the random-number engine's generator and conversions
 * (src/device/cpu/philox.c, random_dist.c, random_rules.c) and of the
 * bfloat16 helpers (src/common/bf16.h).
 *
 * Known-answer vectors: the Philox4x32-10 lines of kat_vectors from
 * Random123 1.14 (Debian librandom123-dev, tests/kat_vectors), which are
 * also the three vectors acl-rt-memory-extras.md §3.10 lists. The seed-42
 * blocks of §3.10 were checked independently with Random123's own
 * r123::Philox4x32 (counter {b, 0, c1, 0}, key {42, 0}) before being used
 * here.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/bf16.h"
#include "common/fp16.h"
#include "device/cpu/philox.h"
#include "device/cpu/random_dist.h"

static void assert_block(const uint32_t got[4], uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    if (got[0] != a || got[1] != b || got[2] != c || got[3] != d)
        fail_msg("got %08x %08x %08x %08x, expected %08x %08x %08x %08x", got[0], got[1], got[2], got[3], a, b, c,
                 d);
}

static void test_known_answers(void **state)
{
    (void)state;
    uint32_t out[4];
    const uint32_t zero[4] = {0, 0, 0, 0}, zkey[2] = {0, 0};
    oacl_philox4x32_10(zero, zkey, out);
    assert_block(out, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8);
    const uint32_t ones[4] = {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, okey[2] = {0xffffffff, 0xffffffff};
    oacl_philox4x32_10(ones, okey, out);
    assert_block(out, 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd);
    const uint32_t pi[4] = {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, pkey[2] = {0xa4093822, 0x299f31d0};
    oacl_philox4x32_10(pi, pkey, out);
    assert_block(out, 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1);
}

/* §3.10's reference blocks: seed 42, counter {0, 0}, and {0, 4}. */
static void test_stream_reference(void **state)
{
    (void)state;
    struct oacl_philox g;
    uint32_t out[4];
    oacl_philox_init(&g, 42, 0, 0);
    oacl_philox_block(&g, 0, out);
    assert_block(out, 0x9ceaf053, 0x77f5493b, 0x12bf50ad, 0x5742b3d7);
    oacl_philox_block(&g, 1, out);
    assert_block(out, 0xfcdb2127, 0x53ba6cfd, 0x838f5a6e, 0x744e06fb);
    oacl_philox_init(&g, 42, 0, 4);
    oacl_philox_block(&g, 0, out);
    assert_block(out, 0x28011911, 0xbdfc4053, 0x13991393, 0x2e8c1e89);
}

/* Seed halves become the key words, counter halves the counter words, and
 * the block offset is a 128-bit addition with carries. */
static void test_key_counter_layout(void **state)
{
    (void)state;
    struct oacl_philox g;
    uint32_t got[4], want[4];
    oacl_philox_init(&g, 0x0000000200000001ull, 0x0000000400000003ull, 0x0000000600000005ull);
    oacl_philox_block(&g, 0, got);
    const uint32_t c[4] = {3, 4, 5, 6}, k[2] = {1, 2};
    oacl_philox4x32_10(c, k, want);
    assert_memory_equal(got, want, sizeof(got));

    oacl_philox_init(&g, 7, UINT64_MAX, 5); /* + 1 carries into c1 */
    oacl_philox_block(&g, 1, got);
    const uint32_t c2[4] = {0, 0, 6, 0}, k2[2] = {7, 0};
    oacl_philox4x32_10(c2, k2, want);
    assert_memory_equal(got, want, sizeof(got));

    oacl_philox_init(&g, 7, UINT64_MAX - 1, UINT64_MAX); /* + 3 wraps the whole 128 bits */
    oacl_philox_block(&g, 3, got);
    const uint32_t c3[4] = {1, 0, 0, 0};
    oacl_philox4x32_10(c3, k2, want);
    assert_memory_equal(got, want, sizeof(got));
}

static void test_unit_conversions(void **state)
{
    (void)state;
    assert_true(oacl_rand_unit_f32(0) == 0.0f);
    assert_true(oacl_rand_unit_f32(0xFF800000u) == 0.0f); /* only the low 23 bits count */
    assert_true(oacl_rand_unit_f32(0x7FFFFFu) == 1.0f - 0x1p-23f);
    assert_true(oacl_rand_unit_f32(0x400000u) == 0.5f);
    /* half: low 10 bits; bfloat16: low 7 bits */
    assert_int_equal(oacl_rand_unit_f16(0x9ceaf053u), oacl_f32_to_f16(83.0f / 1024));
    assert_int_equal(oacl_rand_unit_f16(0xFFFFFC00u), 0);
    assert_int_equal(oacl_rand_unit_f16(0x3FFu), oacl_f32_to_f16(1023.0f / 1024));
    assert_int_equal(oacl_rand_unit_bf16(0x9ceaf053u), oacl_f32_to_bf16(83.0f / 128));
    assert_int_equal(oacl_rand_unit_bf16(0x7Fu), oacl_f32_to_bf16(127.0f / 128));
    /* float uniform on [-3, 5): u * 8 - 3 in float */
    assert_true(oacl_rand_uniform_f32(0x400000u, -3.0f, 5.0f) == 1.0f);
    /* half on [-2, 6): u = 83/1024, t = 0.6484375, out = -1.3515625 (exact) */
    assert_int_equal(oacl_rand_uniform_f16(0x53u, 0xC000u, 0x4600u), oacl_f32_to_f16(-1.3515625f));
    /* bfloat16 on [1, 3): u = 64/128 -> 1 + 1 = 2 */
    assert_int_equal(oacl_rand_uniform_bf16(0x40u, 0x3F80u, 0x4040u), 0x4000u);
    /* half arithmetic rounds each step: [-1, 2048): d = T(2049) = 2048,
       t = 1024, out = 1023 (unrounded: 0.5 * 2049 - 1 = 1023.5) */
    assert_int_equal(oacl_rand_uniform_f16(0x200u, 0xBC00u, 0x6800u), oacl_f32_to_f16(1023.0f));
    assert_true(oacl_rand_scale(2.0f, 1.0f, 3.0f) == 7.0f);
}

/* Box-Muller against the formula in double precision. */
static void test_box_muller(void **state)
{
    (void)state;
    const uint32_t words[][2] = {{0x9ceaf053u, 0x77f5493bu}, {0x12bf50adu, 0x5742b3d7u}, {0, 0x400000u}};
    for (size_t i = 0; i < 3; i++) {
        float f0, f1;
        oacl_rand_box_muller(words[i][0], words[i][1], &f0, &f1);
        double u1 = (words[i][0] & 0x7FFFFF) / 8388608.0;
        if (u1 < 1e-7)
            u1 = (double)1.0e-7f;
        const double v = 2 * M_PI * ((words[i][1] & 0x7FFFFF) / 8388608.0);
        const double r = sqrt(-2 * log(u1));
        if (fabs(f0 - sin(v) * r) > 1e-5 * (1 + r) || fabs(f1 - cos(v) * r) > 1e-5 * (1 + r))
            fail_msg("pair %zu: %.9g %.9g vs %.9g %.9g", i, f0, f1, sin(v) * r, cos(v) * r);
    }
}

static int64_t uni_i64(uint32_t w, int64_t lo, int64_t hi, aclDataType t)
{
    return (int64_t)oacl_rand_uniform_int(w, (uint64_t)lo, (uint64_t)hi, t);
}

static void test_uniform_int_rule(void **state)
{
    (void)state;
    /* [0, 10): u = 0.5 -> 5 */
    assert_int_equal(uni_i64(0x400000u, 0, 10, ACL_INT32), 5);
    /* truncation toward zero: [-10, 0) never gives -10 unless u = 0 */
    assert_int_equal(uni_i64(0, -10, 0, ACL_INT64), -10);
    assert_int_equal(uni_i64(1, -10, 0, ACL_INT64), -9);
    /* 32-bit parameters are the low 32 bits, sign-extended for INT32 */
    assert_int_equal(uni_i64(0x200000u, 0xFFFFFFF6u, 10, ACL_INT32), (uint32_t)-5);
    /* ... zero-extended for UINT32: [4294967286, 10) has the range
       -4294967276 -> float -2^32; 2^32 - 2^30 */
    assert_int_equal(uni_i64(0x200000u, 0xFFFFFFF6u, 10, ACL_UINT32), 3221225472u);
    /* UINT32 past 2^31: range 2^32 - 1 -> 2^32 */
    assert_int_equal(oacl_rand_uniform_int(0x7FFFFFu, 0, 0xFFFFFFFFu, ACL_UINT32), 4294966784u);
    /* UINT64 past 2^63: u = 1 - 2^-23 of 2^64 (the range rounds up) */
    assert_true(oacl_rand_uniform_int(0x7FFFFFu, 0, UINT64_MAX, ACL_UINT64) == 0xFFFFFE0000000000ull);
    /* INT64 extremes: the exact difference 2^64 - 1 rounds to 2^64 */
    assert_int_equal(uni_i64(0x400000u, INT64_MIN, INT64_MAX, ACL_INT64), 0);
    assert_true(uni_i64(0x7FFFFFu, INT64_MIN, INT64_MAX, ACL_INT64) == (int64_t)(0x1p63 - 0x1p41));
    /* max < min gives a negative range: [10, 0) with u = 0.5 -> 5 */
    assert_int_equal(uni_i64(0x400000u, 10, 0, ACL_INT32), 5);
    /* only the low 32 bits of a 32-bit type's parameters count */
    assert_int_equal(oacl_rand_uniform_int(0x400000u, 0, 0x200000010ull, ACL_UINT32), 8);
}

static void test_truncated_group(void **state)
{
    (void)state;
    struct oacl_philox g;
    oacl_philox_init(&g, 42, 0, 0);
    for (uint64_t group = 0; group < 64; group++) {
        /* The reference: walk blocks 256 * group, ... pair by pair. */
        float want[4];
        unsigned n = 0;
        for (uint64_t b = group * 256; n < 4; b++) {
            uint32_t w[4];
            oacl_philox_block(&g, b, w);
            for (unsigned k = 0; k < 4 && n < 4; k += 2) {
                float f[2];
                oacl_rand_box_muller(w[k], w[k + 1], &f[0], &f[1]);
                for (unsigned m = 0; m < 2 && n < 4; m++)
                    if (fabsf(f[m]) < 2.0f)
                        want[n++] = f[m];
            }
        }
        float got[4] = {9, 9, 9, 9};
        oacl_rand_truncated_group(&g, group, 4, got);
        assert_memory_equal(got, want, sizeof(got));
        float part[4] = {9, 9, 9, 9};
        oacl_rand_truncated_group(&g, group, 3, part); /* a final partial group */
        assert_memory_equal(part, want, 3 * sizeof(float));
        assert_true(part[3] == 9.0f);
    }
}

static void test_dropout_rule(void **state)
{
    (void)state;
    assert_true(oacl_rand_dropout_ratio(0x3800u, ACL_FLOAT16) == 0.5f);
    assert_true(oacl_rand_dropout_ratio(0x3F00u, ACL_BF16) == 0.5f);
    assert_true(oacl_rand_dropout_ratio(0x3E800000u, ACL_FLOAT) == 0.25f);
    assert_true(oacl_rand_dropout_keep(0x400000u, 0.5f));   /* u = 0.5 >= 0.5: keep */
    assert_false(oacl_rand_dropout_keep(0x3FFFFFu, 0.5f));  /* just below: drop */
    assert_true(oacl_rand_dropout_keep(0, 0.0f));           /* ratio 0 keeps all */
    assert_false(oacl_rand_dropout_keep(0x7FFFFFu, 1.0f));  /* ratio 1 drops all */
}

static void test_bf16_helpers(void **state)
{
    (void)state;
    assert_int_equal(oacl_f32_to_bf16(oacl_f32_from_bits(0x3F808000u)), 0x3F80u); /* tie to even (down) */
    assert_int_equal(oacl_f32_to_bf16(oacl_f32_from_bits(0x3F818000u)), 0x3F82u); /* tie to even (up) */
    assert_int_equal(oacl_f32_to_bf16(oacl_f32_from_bits(0x3F808001u)), 0x3F81u); /* above the tie */
    assert_int_equal(oacl_f32_to_bf16(oacl_f32_from_bits(0x7F800001u)), 0x7FC0u); /* NaN stays NaN */
    assert_int_equal(oacl_f32_to_bf16(oacl_f32_from_bits(0xFF812345u)), 0xFFC1u); /* sign, top payload */
    assert_int_equal(oacl_f32_to_bf16(oacl_f32_from_bits(0x7F7FFFFFu)), 0x7F80u); /* FLT_MAX -> inf */
    assert_int_equal(oacl_f32_to_bf16(oacl_f32_from_bits(0x7F7F7FFFu)), 0x7F7Fu); /* below half an ulp */
    assert_int_equal(oacl_f32_to_bf16(-0.0f), 0x8000u);
    /* double: a tie in float that is not one in double */
    assert_int_equal(oacl_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-40), 0x3F81u);
    assert_int_equal(oacl_f64_to_bf16(1.0 + 0x1p-8), 0x3F80u);
    assert_int_equal(oacl_f64_to_bf16(1e39), 0x7F80u);
    assert_true(oacl_bf16_to_f32(0x4049u) == 3.140625f);
    assert_true(oacl_bf16_is_nan(0x7FC0u) && !oacl_bf16_is_nan(0x7F80u));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_answers),   cmocka_unit_test(test_stream_reference),
        cmocka_unit_test(test_key_counter_layout), cmocka_unit_test(test_unit_conversions),
        cmocka_unit_test(test_box_muller),      cmocka_unit_test(test_uniform_int_rule),
        cmocka_unit_test(test_truncated_group), cmocka_unit_test(test_dropout_rule),
        cmocka_unit_test(test_bf16_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
