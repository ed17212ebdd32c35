/*
 * Zero-copy proven with kernels: a kernel writes through the device address
 * of mapped host memory and the host reads the result at the host address,
 * with no copy call; device and host addresses differ; interior pointers
 * translate; and the adds compute exact results for every element type.
 */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static aclrtStream g_stream;
static aclrtBinHandle g_misc, g_add;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_stream) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_misc) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_add"), NULL, &g_add))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_add);
    aclrtBinaryUnLoad(g_misc);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0);
}

static void launch_fill(void *dev, uint32_t value, uint32_t count, uint32_t blocks)
{
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(g_misc, "fill_u32", &f));
    const void *vals[] = {&dev, &value, &count};
    size_t sizes[] = {8, 4, 4};
    ACL_OK(test_launch(f, blocks, g_stream, 3, vals, sizes));
}

static void test_kernel_writes_host_memory(void **state)
{
    (void)state;
    struct test_buf b;
    test_buf_alloc(&b, 64 * 1024);
    assert_ptr_not_equal(b.dev, b.host);
    launch_fill(b.dev, 100, 1024, 8);
    ACL_OK(aclrtSynchronizeStream(g_stream));
    const uint32_t *h = b.host;
    for (uint32_t blk = 0; blk < 8; blk++)
        for (uint32_t i = 0; i < 1024; i++)
            if (h[blk * 1024 + i] != 100 + blk)
                fail_msg("element %u is %u, expected %u", blk * 1024 + i, h[blk * 1024 + i], 100 + blk);
    /* The host writes; the next kernel reads the new values in place. */
    test_buf_free(&b);
}

static void test_interior_pointer(void **state)
{
    (void)state;
    struct test_buf b;
    test_buf_alloc(&b, 3 * 4096);
    uint32_t *h = b.host;
    void *inner;
    ACL_OK(aclrtHostGetDevicePointer(h + 1000, &inner, 0));
    assert_ptr_equal(inner, (char *)b.dev + 4000);
    launch_fill(inner, 7, 16, 1);
    ACL_OK(aclrtSynchronizeStream(g_stream));
    assert_int_equal(h[999], 0);
    for (int i = 1000; i < 1016; i++)
        assert_int_equal(h[i], 7);
    assert_int_equal(h[1016], 0);
    test_buf_free(&b);
}

static void test_pageable_memory_zero_copy(void **state)
{
    (void)state;
    size_t size = 16 * 4096;
    uint32_t *mem = aligned_alloc(4096, size);
    assert_non_null(mem);
    memset(mem, 0, size);
    void *dev;
    ACL_OK(aclrtHostRegister(mem, size, ACL_HOST_REGISTER_MAPPED, &dev));
    assert_ptr_not_equal(dev, mem);
    launch_fill(dev, 55, 4096, 4);
    ACL_OK(aclrtSynchronizeStream(g_stream));
    for (uint32_t i = 0; i < 16384; i++)
        assert_int_equal(mem[i], 55 + i / 4096);
    ACL_OK(aclrtHostUnregister(mem));
    assert_int_equal(mem[16383], 58); /* contents stay after unregistering */
    free(mem);
}

/* Each add kernel against a host reference, n elements per block. */
static void check_add(const char *kernel, size_t es, void (*fill)(void *, void *, size_t),
                      int (*check)(const void *, const void *, const void *, size_t))
{
    const uint32_t blocks = 8, n = 1008; /* a partial last tile (240 elements) */
    size_t bytes = (size_t)blocks * n * es;
    bytes = (bytes + 4095) & ~(size_t)4095;
    struct test_buf x, y, z;
    test_buf_alloc(&x, bytes);
    test_buf_alloc(&y, bytes);
    test_buf_alloc(&z, bytes);
    fill(x.host, y.host, (size_t)blocks * n);
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(g_add, kernel, &f));
    uint32_t nn = n;
    const void *vals[] = {&x.dev, &y.dev, &z.dev, &nn};
    size_t sizes[] = {8, 8, 8, 4};
    ACL_OK(test_launch(f, blocks, g_stream, 4, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    assert_int_equal(check(x.host, y.host, z.host, (size_t)blocks * n), 0);
    test_buf_free(&z);
    test_buf_free(&y);
    test_buf_free(&x);
}

static void fill_f16(void *a, void *b, size_t n)
{
    uint16_t *x = a, *y = b;
    for (size_t i = 0; i < n; i++) {
        x[i] = F16_ONE;
        y[i] = F16_TWO;
    }
    x[0] = 0x7BFF; /* 65504 + 8 rounds back to 65504 */
    y[0] = 0x4800;
    x[1] = 0x7BFF; /* 65504 + 16 = 65520, a tie that rounds to even: inf */
    y[1] = 0x4C00;
    x[2] = 0x0001; /* smallest subnormals */
    y[2] = 0x0001;
    x[3] = 0x8000; /* -0 + -0 = -0 */
    y[3] = 0x8000;
}

static int check_f16(const void *a, const void *b, const void *c, size_t n)
{
    const uint16_t *z = c;
    (void)a;
    (void)b;
    if (z[0] != 0x7BFF || z[1] != 0x7C00 || z[2] != 0x0002 || z[3] != 0x8000)
        return -1;
    for (size_t i = 4; i < n; i++)
        if (z[i] != F16_THREE)
            return (int)i;
    return 0;
}

static void fill_f32(void *a, void *b, size_t n)
{
    float *x = a, *y = b;
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = 1.0f / (float)(i + 1);
    }
}

static int check_f32(const void *a, const void *b, const void *c, size_t n)
{
    const float *x = a, *y = b, *z = c;
    for (size_t i = 0; i < n; i++)
        if (z[i] != x[i] + y[i])
            return (int)i + 1;
    return 0;
}

static void fill_i32(void *a, void *b, size_t n)
{
    int32_t *x = a, *y = b;
    for (size_t i = 0; i < n; i++) {
        x[i] = (int32_t)(i * 2654435761u);
        y[i] = (int32_t)i - 5000;
    }
    x[0] = INT32_MAX;
    y[0] = 1;
}

static int check_i32(const void *a, const void *b, const void *c, size_t n)
{
    const int32_t *x = a, *y = b, *z = c;
    if (z[0] != INT32_MIN)
        return -1;
    for (size_t i = 1; i < n; i++)
        if (z[i] != (int32_t)((uint32_t)x[i] + (uint32_t)y[i]))
            return (int)i;
    return 0;
}

static void fill_i16(void *a, void *b, size_t n)
{
    int16_t *x = a, *y = b;
    for (size_t i = 0; i < n; i++) {
        x[i] = (int16_t)(i * 7);
        y[i] = (int16_t)(100 - (int)(i % 300));
    }
}

static int check_i16(const void *a, const void *b, const void *c, size_t n)
{
    const int16_t *x = a, *y = b, *z = c;
    for (size_t i = 0; i < n; i++)
        if (z[i] != (int16_t)(uint16_t)((uint16_t)x[i] + (uint16_t)y[i]))
            return (int)i + 1;
    return 0;
}

static void test_add_f16(void **s) { (void)s; check_add("add_f16", 2, fill_f16, check_f16); }
static void test_add_f32(void **s) { (void)s; check_add("add_f32", 4, fill_f32, check_f32); }
static void test_add_i32(void **s) { (void)s; check_add("add_i32", 4, fill_i32, check_i32); }
static void test_add_i16(void **s) { (void)s; check_add("add_i16", 2, fill_i16, check_i16); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_writes_host_memory),
        cmocka_unit_test(test_interior_pointer),
        cmocka_unit_test(test_pageable_memory_zero_copy),
        cmocka_unit_test(test_add_f16),
        cmocka_unit_test(test_add_f32),
        cmocka_unit_test(test_add_i32),
        cmocka_unit_test(test_add_i16),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
