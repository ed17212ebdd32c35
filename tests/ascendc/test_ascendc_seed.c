/*
 * The seed's AscendC kernel (tests/ascendc/kernels/add_custom.cpp, compiled
 * unchanged with -Wall -Werror through kernel_operator.h) run the way the
 * seed's host program runs it: 8 blocks over 16384 FP16 elements in mapped
 * host memory.
 */
#include <stdio.h>
#include <string.h>

#include "asc_test.h"
#include "test_support.h"

#define N 16384u

static aclrtStream g_stream;
static aclrtBinHandle g_bin;
static aclrtFuncHandle g_fn;
static struct test_buf g_x, g_y, g_z;

static int setup(void **state)
{
    (void)state;
    if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&g_stream))
        return -1;
    test_load("asc_add_custom", "add_custom", &g_bin, &g_fn);
    test_buf_alloc(&g_x, N * 2);
    test_buf_alloc(&g_y, N * 2);
    test_buf_alloc(&g_z, N * 2);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_z);
    test_buf_free(&g_y);
    test_buf_free(&g_x);
    aclrtBinaryUnLoad(g_bin);
    aclrtDestroyStream(g_stream);
    aclrtResetDeviceForce(0);
    return aclFinalize();
}

static void run(void)
{
    const void *vals[] = {&g_x.dev, &g_y.dev, &g_z.dev};
    size_t sizes[] = {8, 8, 8};
    ACL_OK(test_launch(g_fn, 8, g_stream, 3, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(g_stream));
}

/* The seed's check: 1.0 + 2.0 = 3.0 (0x4200) in all 16384 outputs. */
static void test_seed_values(void **state)
{
    (void)state;
    uint16_t *x = g_x.host, *y = g_y.host, *z = g_z.host;
    for (uint32_t i = 0; i < N; i++) {
        x[i] = F16_ONE;
        y[i] = F16_TWO;
        z[i] = 0;
    }
    run();
    for (uint32_t i = 0; i < N; i++)
        if (z[i] != F16_THREE)
            fail_msg("z[%u] = 0x%04x, expected 0x4200", i, z[i]);
}

/* Arbitrary halves: every sum is the correctly rounded binary16 sum. */
static void test_seed_random(void **state)
{
    (void)state;
    uint16_t *x = g_x.host, *y = g_y.host, *z = g_z.host;
    asc_rng_seed(0x5eed);
    for (uint32_t i = 0; i < N; i++) {
        x[i] = asc_rand_f16();
        y[i] = asc_rand_f16();
        z[i] = 0x1234;
    }
    run();
    for (uint32_t i = 0; i < N; i++) {
        uint16_t want = asc_ref_f16_binary(ASC_REF_ADD, x[i], y[i]);
        if (z[i] != want)
            fail_msg("0x%04x + 0x%04x = 0x%04x, expected 0x%04x (element %u)", x[i], y[i], z[i], want, i);
    }
}

/* More blocks than the data: blocks 8.. would read past the buffers, so
   the launch runs with exactly the seed's 8; run it repeatedly. */
static void test_seed_repeated(void **state)
{
    (void)state;
    uint16_t *x = g_x.host, *y = g_y.host, *z = g_z.host;
    for (int round = 0; round < 5; round++) {
        for (uint32_t i = 0; i < N; i++) {
            x[i] = (uint16_t)(0x3C00u + (uint16_t)round); /* 1 + round * 2^-10 */
            y[i] = F16_TWO;
            z[i] = 0;
        }
        run();
        uint16_t want = asc_ref_f16_binary(ASC_REF_ADD, x[0], F16_TWO);
        for (uint32_t i = 0; i < N; i++)
            assert_int_equal(z[i], want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_values),
        cmocka_unit_test(test_seed_random),
        cmocka_unit_test(test_seed_repeated),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
