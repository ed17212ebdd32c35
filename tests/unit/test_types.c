/*
 * Type helpers (acl_base_rt.h): aclDataTypeSize, aclFloat16ToFloat and
 * aclFloatToFloat16 (checked against an independent reference: exhaustive
 * for half -> float, nearest-even properties for float -> half), and the
 * CANN feature attributes aclGetCannAttributeList / aclGetCannAttribute.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* ---- aclDataTypeSize ------------------------------------------------------------------------ */

static void test_data_type_size(void **state)
{
    (void)state;
    static const struct {
        aclDataType t;
        size_t size;
    } want[] = {
        {ACL_FLOAT, 4},           {ACL_FLOAT16, 2},       {ACL_INT8, 1},           {ACL_INT32, 4},
        {ACL_UINT8, 1},           {ACL_INT16, 2},         {ACL_UINT16, 2},         {ACL_UINT32, 4},
        {ACL_INT64, 8},           {ACL_UINT64, 8},        {ACL_DOUBLE, 8},         {ACL_BOOL, 1},
        {ACL_COMPLEX64, 8},       {ACL_COMPLEX128, 16},   {ACL_BF16, 2},           {ACL_COMPLEX32, 4},
        {ACL_HIFLOAT8, 1},        {ACL_FLOAT8_E5M2, 1},   {ACL_FLOAT8_E4M3FN, 1},  {ACL_FLOAT8_E8M0, 1},
        /* Sub-byte types occupy one byte each (as CANN reports). */
        {ACL_INT4, 1},            {ACL_UINT1, 1},         {ACL_FLOAT6_E3M2, 1},    {ACL_FLOAT6_E2M3, 1},
        {ACL_FLOAT4_E2M1, 1},     {ACL_FLOAT4_E1M2, 1},
        /* No fixed size, or no type at all. */
        {ACL_STRING, 0},          {ACL_DT_UNDEFINED, 0},
    };
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        if (aclDataTypeSize(want[i].t) != want[i].size)
            fail_msg("aclDataTypeSize(%d) = %zu, expected %zu", (int)want[i].t, aclDataTypeSize(want[i].t),
                     want[i].size);
    }
    /* Values between and beyond the enumerators name no type. */
    static const int none[] = {5, 14, 15, 18, 19, 20, 25, 26, 28, 31, 32, 42, 100, -2, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < ARRAY_LEN(none); i++)
        if (aclDataTypeSize((aclDataType)none[i]) != 0)
            fail_msg("aclDataTypeSize(%d) is not 0", none[i]);
}

/* ---- half precision ------------------------------------------------------------------------- */

/* 2^e, exactly (|e| is small); no libm needed. */
static double pow2(int e)
{
    double v = 1.0;
    for (; e > 0; e--)
        v *= 2.0;
    for (; e < 0; e++)
        v *= 0.5;
    return v;
}

/* Reference half -> value, from the definition of binary16. */
static double half_value(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
    double v = exp == 0 ? mant * pow2(-24) : (1024 + mant) * pow2(exp - 25);
    return sign ? -v : v;
}

static void test_half_to_float_exhaustive(void **state)
{
    (void)state;
    for (uint32_t h = 0; h <= 0xFFFF; h++) {
        float f = aclFloat16ToFloat((aclFloat16)h);
        uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
        uint32_t fb = f32_bits(f);
        if ((fb >> 31) != (h >> 15))
            fail_msg("half %#06x: sign lost (%#010x)", h, fb);
        if (exp == 0x1F && mant == 0) {
            if (!isinf(f))
                fail_msg("half %#06x is inf, got %#010x", h, fb);
        } else if (exp == 0x1F) {
            /* NaN: quiet, payload kept at the top of the float payload. */
            if (!isnan(f) || !(fb & 0x00400000u) || ((fb >> 13) & 0x3FFu) != (mant | 0x200u))
                fail_msg("half NaN %#06x became %#010x", h, fb);
        } else if ((double)f != half_value((uint16_t)h)) {
            fail_msg("half %#06x: got %a, expected %a", h, (double)f, half_value((uint16_t)h));
        }
    }
}

/* f converted to half is the nearest half, ties to even, with overflow to
 * infinity from 65520 up and the sign always kept. */
static void check_to_half(float f)
{
    uint16_t h = aclFloatToFloat16(f);
    uint32_t fb = f32_bits(f);
    if ((uint32_t)(h >> 15) != (fb >> 31))
        fail_msg("%a (%#010x) -> %#06x: sign lost", (double)f, fb, h);
    if (isnan(f)) {
        if ((h & 0x7C00u) != 0x7C00u || !(h & 0x200u))
            fail_msg("NaN %#010x -> %#06x is not a quiet NaN", fb, h);
        return;
    }
    double a = __builtin_fabs((double)f);
    uint16_t m = h & 0x7FFF;
    if (a >= 65520.0) {
        if (m != 0x7C00)
            fail_msg("%a -> %#06x, expected infinity", (double)f, h);
        return;
    }
    if (m >= 0x7C00)
        fail_msg("%a -> %#06x: not finite", (double)f, h);
    double d = __builtin_fabs(a - half_value(m));
    /* The neighbours of m; above 65504 the next step would be 65536. */
    double up = m == 0x7BFF ? 65536.0 : half_value((uint16_t)(m + 1));
    double du = __builtin_fabs(a - up);
    double dd = m > 0 ? __builtin_fabs(a - half_value((uint16_t)(m - 1))) : INFINITY;
    if (d > du || d > dd)
        fail_msg("%a -> %#06x (%a) is not the nearest half", (double)f, h, half_value(m));
    if ((d == du || d == dd) && (m & 1))
        fail_msg("%a -> %#06x: a tie not rounded to even", (double)f, h);
}

static void test_float_to_half_known(void **state)
{
    (void)state;
    static const struct {
        float f;
        uint16_t h;
    } want[] = {
        {0.0f, 0x0000},
        {-0.0f, 0x8000},
        {1.0f, 0x3C00},
        {-2.0f, 0xC000},
        {0.5f, 0x3800},
        {0.1f, 0x2E66},
        {1.0f / 3.0f, 0x3555},
        {65504.0f, 0x7BFF},
        {65519.99f, 0x7BFF},
        {65520.0f, 0x7C00}, /* the tie above the largest half goes to infinity */
        {1e9f, 0x7C00},
        {-1e9f, 0xFC00},
        {0x1p-14f, 0x0400},  /* smallest normal */
        {0x1p-24f, 0x0001},  /* smallest subnormal */
        {0x1p-25f, 0x0000},  /* a tie: to the even 0 */
        {0x1.8p-25f, 0x0001},
        {0x1.8p-24f, 0x0002}, /* 1.5 steps: tie to even 2 */
        {0x1.4p-24f, 0x0001},
        {-0x1p-26f, 0x8000},
        {1.0009765625f, 0x3C01},    /* 1 + 2^-10 */
        {1.00048828125f, 0x3C00},   /* 1 + 2^-11: tie to even */
        {1.00146484375f, 0x3C02},   /* 1 + 3 * 2^-11: tie to even */
        {2049.0f, 0x6800},          /* 2048 + 1: tie to even 2048 */
        {2051.0f, 0x6802},          /* 2048 + 3: tie to even 2052 */
    };
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        uint16_t h = aclFloatToFloat16(want[i].f);
        if (h != want[i].h)
            fail_msg("aclFloatToFloat16(%a) = %#06x, expected %#06x", (double)want[i].f, h, want[i].h);
    }
    assert_int_equal(aclFloatToFloat16(INFINITY), 0x7C00);
    assert_int_equal(aclFloatToFloat16(-INFINITY), 0xFC00);
    uint16_t n = aclFloatToFloat16(NAN);
    assert_true((n & 0x7C00) == 0x7C00 && (n & 0x3FF) != 0);
    /* Every half survives the round trip (NaNs stay NaN). */
    for (uint32_t h = 0; h <= 0xFFFF; h++) {
        uint16_t back = aclFloatToFloat16(aclFloat16ToFloat((aclFloat16)h));
        bool is_nan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
        if (is_nan ? (back & 0x7FFF) <= 0x7C00 || (back >> 15) != (h >> 15) : back != h)
            fail_msg("half %#06x came back as %#06x", h, back);
    }
}

static void test_float_to_half_rounding(void **state)
{
    (void)state;
    /* For every sign, exponent and top 10 fraction bits: the low 13 bits
       (those a normal half drops) just above 0, just below and at half a
       step, and just below a whole step. */
    static const uint32_t low[] = {0, 1, 0x0FFF, 0x1000, 0x1001, 0x1FFF};
    for (uint32_t top = 0; top < (1u << 19); top++)
        for (size_t i = 0; i < ARRAY_LEN(low); i++)
            check_to_half(f32_from_bits((top << 13) | low[i]));
    /* And a spread of arbitrary patterns. */
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 1000000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        check_to_half(f32_from_bits((uint32_t)(x >> 32)));
    }
}

/* ---- CANN attributes ------------------------------------------------------------------------------ */

static void test_cann_attributes(void **state)
{
    (void)state;
    const aclCannAttr *list = NULL;
    size_t n = 99;
    ACL_OK(aclGetCannAttributeList(&list, &n));
    assert_non_null(list);
    assert_true(n <= 3);
    const aclCannAttr *again = NULL;
    size_t n2 = 0;
    ACL_OK(aclGetCannAttributeList(&again, &n2));
    assert_ptr_equal(again, list); /* static */
    assert_int_equal(n2, n);

    int64_t arch = 0;
    ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &arch));
    static const aclCannAttr all[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};
    const int32_t want[] = {1, arch == 2201 || arch == 3510, 0};
    for (size_t i = 0; i < ARRAY_LEN(all); i++) {
        int32_t v = -1;
        ACL_OK(aclGetCannAttribute(all[i], &v));
        assert_int_equal(v, want[i]);
        /* Listed exactly when supported. */
        bool listed = false;
        for (size_t k = 0; k < n; k++)
            listed |= list[k] == all[i];
        assert_int_equal(listed, v == 1);
    }
}

static void test_cann_attribute_errors(void **state)
{
    (void)state;
    const aclCannAttr *list = (const aclCannAttr *)0x1234;
    size_t n = 77;
    ACL_ERR(aclGetCannAttributeList(NULL, &n), ACL_ERROR_INVALID_PARAM,
            "aclGetCannAttributeList: cannAttrList is NULL");
    ACL_ERR(aclGetCannAttributeList(&list, NULL), ACL_ERROR_INVALID_PARAM, "aclGetCannAttributeList: num is NULL");
    assert_ptr_equal(list, (const aclCannAttr *)0x1234);
    assert_int_equal(n, 77);

    int32_t v = 77;
    ACL_ERR(aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL), ACL_ERROR_INVALID_PARAM,
            "aclGetCannAttribute: value is NULL");
    static const int bad[] = {ACL_CANN_ATTR_UNDEFINED, 3, 100, -2, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char msg[96];
        snprintf(msg, sizeof(msg), "cannAttr %d is not INF_NAN, BF16 or JIT_COMPILE", bad[i]);
        ACL_ERR(aclGetCannAttribute((aclCannAttr)bad[i], &v), ACL_ERROR_RT_PARAM_INVALID, msg);
    }
    assert_int_equal(v, 77);
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_type_size),
        cmocka_unit_test(test_half_to_float_exhaustive),
        cmocka_unit_test(test_float_to_half_known),
        cmocka_unit_test(test_float_to_half_rounding),
        cmocka_unit_test(test_cann_attributes),
        cmocka_unit_test(test_cann_attribute_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
