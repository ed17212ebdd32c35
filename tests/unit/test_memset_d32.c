/*
 * 32-bit fills: aclrtMemsetD32 and aclrtMemsetD32Async on device memory,
 * pinned host memory and pinned registrations; byte order; fills larger
 * than one piece of device work; stream order with kernels; host memory
 * filled during the async call; errors in CANN's order with memory left
 * unchanged; profiles without the feature succeed without writing.
 */
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "copy_test_util.h"

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_fill, g_copy_plus;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "fill_u32", &g_fill) || aclrtBinaryGetFunction(g_bin, "copy_plus", &g_copy_plus))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

static void launch_fill(void *out, uint32_t value, uint32_t count, aclrtStream s)
{
    const void *v[] = {&out, &value, &count};
    const size_t sz[] = {sizeof out, sizeof value, sizeof count};
    ACL_OK(test_launch(g_fill, 1, s, 3, v, sz));
}

static void launch_copy_plus(const void *in, void *out, uint32_t add, uint32_t count, aclrtStream s)
{
    const void *v[] = {&in, &out, &add, &count};
    const size_t sz[] = {sizeof in, sizeof out, sizeof add, sizeof count};
    ACL_OK(test_launch(g_copy_plus, 1, s, 4, v, sz));
}

/* Words [from, from+n) are value; every other byte of the n_bytes buffer
 * is still `background`. */
static void expect_fill(const void *buf, size_t n_bytes, size_t from, size_t n, uint32_t value,
                        unsigned char background)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n_bytes; i++) {
        size_t w = i / 4;
        unsigned char want = w >= from && w < from + n ? (unsigned char)(value >> (8 * (i % 4))) : background;
        if (b[i] != want)
            fail_msg("byte %zu is 0x%02x, expected 0x%02x", i, b[i], want);
    }
}

static void test_sync_fill(void **state)
{
    (void)state;
    unsigned char *d, *pin, *reg;
    ACL_OK(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&pin, 4096));
    reg = aligned_alloc(4096, 8192);
    assert_non_null(reg);
    ACL_OK(aclrtHostRegisterV2(reg, 8192, ACL_HOST_REG_PINNED));
    unsigned char *bufs[3] = {d, pin, reg};
    for (int i = 0; i < 3; i++) {
        memset(bufs[i], 0xEE, 4096);
        ACL_OK(aclrtMemsetD32(bufs[i] + 8, 4000, 0x01020304u, 100));
        /* Little-endian words: bytes 04 03 02 01 repeated. */
        assert_int_equal(bufs[i][8], 0x04);
        assert_int_equal(bufs[i][9], 0x03);
        assert_int_equal(bufs[i][10], 0x02);
        assert_int_equal(bufs[i][11], 0x01);
        expect_fill(bufs[i], 4096, 2, 100, 0x01020304u, 0xEE);
        /* memSize exactly 4*N; a value whose bytes are all equal. */
        ACL_OK(aclrtMemsetD32(bufs[i], 16, 0xABABABABu, 4));
        expect_fill(bufs[i], 16, 0, 4, 0xABABABABu, 0);
    }
    ACL_OK(aclrtHostUnregister(reg));
    free(reg);
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtFree(d));
}

static void test_async_fill(void **state)
{
    (void)state;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    /* Larger than one piece of device work (2 MiB), odd word count. */
    size_t n = (5u << 20) / 4 + 3, bytes = n * 4 + 64;
    unsigned char *d;
    ACL_OK(aclrtMalloc((void **)&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(d, 0x11, bytes);
    ACL_OK(aclrtMemsetD32Async(d + 4, bytes - 4, 0xDEADBEEFu, n, s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtMemsetD32Async(d + 4, bytes - 4, 0x77777777u, 5, NULL)); /* default stream */
    ACL_OK(aclrtSynchronizeStream(NULL));
    /* Word 0 untouched; words 1..5 the second fill; the rest the first. */
    expect_fill(d, 4, 0, 0, 0, 0x11);
    expect_fill(d + 4, 20, 0, 5, 0x77777777u, 0);
    uint32_t *w = (uint32_t *)(void *)d;
    for (size_t i = 6; i <= n; i++)
        if (w[i] != 0xDEADBEEFu)
            fail_msg("word %zu is 0x%08x", i, w[i]);
    expect_fill(d + 4 * (n + 1), bytes - 4 * (n + 1), 0, 0, 0, 0x11);
    ACL_OK(aclrtFree(d));
    ACL_OK(aclrtDestroyStream(s));
}

/* Device fills run in stream order between kernels; fills of host memory
 * happen during the call, even while the stream is held. */
static void test_async_order(void **state)
{
    (void)state;
    struct test_gate g;
    gate_init(&g);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t *a, *b, *pin;
    ACL_OK(aclrtMalloc((void **)&a, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&b, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&pin, 1024));
    memset(a, 0, 1024);
    memset(b, 0, 1024);
    memset(pin, 0, 1024);
    gate_close(&g, s);
    launch_fill(a, 5, 256, s);                              /* a = 5 */
    ACL_OK(aclrtMemsetD32Async(a + 10, 1000, 100, 20, s)); /* a[10..30) = 100 */
    launch_copy_plus(a, b, 1, 256, s);                     /* b = a + 1 */
    ACL_OK(aclrtMemsetD32Async(b, 1024, 7, 5, s));         /* b[0..5) = 7 */
    ACL_OK(aclrtMemsetD32Async(pin, 1024, 0x42, 256, s));  /* host: now */
    bool host_done = true;
    for (int i = 0; i < 256; i++)
        host_done &= pin[i] == 0x42;
    bool held = a[10] == 0; /* device work still held */
    gate_open(&g);
    assert_true(host_done);
    assert_true(held);
    ACL_OK(aclrtSynchronizeStream(s));
    for (int i = 0; i < 256; i++) {
        uint32_t av = i >= 10 && i < 30 ? 100u : 5u;
        assert_int_equal(a[i], av);
        assert_int_equal(b[i], i < 5 ? 7u : av + 1);
    }
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtFree(b));
    ACL_OK(aclrtFree(a));
    ACL_OK(aclrtDestroyStream(s));
    gate_fini(&g);
}

static void test_errors(void **state)
{
    (void)state;
    unsigned char *d, *pin, page[64];
    ACL_OK(aclrtMalloc((void **)&d, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMallocHost((void **)&pin, 4096));
    memset(d, 0x33, 256);
    memset(pin, 0x44, 4096);
    memset(page, 0x55, sizeof page);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    /* N 0: nothing, not even a check. */
    ACL_OK(aclrtMemsetD32(NULL, 0, 1, 0));
    ACL_OK(aclrtMemsetD32Async(d + 1, 0, 1, 0, (aclrtStream)page));
    for (int async = 0; async < 2; async++) {
#define D32(p, m, v, n) (async ? aclrtMemsetD32Async(p, m, v, n, s) : aclrtMemsetD32(p, m, v, n))
        ACL_ERR(D32(NULL, 16, 1, 4), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
        ACL_ERR(D32(d + 2, 16, 1, 2), ACL_ERROR_INVALID_PARAM, "not 4-byte aligned");
        ACL_ERR(D32(d, 7, 1, 2), ACL_ERROR_INVALID_PARAM, "memSize is 7");
        ACL_ERR(D32(d, SIZE_MAX, 1, SIZE_MAX / 2), ACL_ERROR_INVALID_PARAM, "more than SIZE_MAX");
        ACL_ERR(D32(page, 64, 1, 4), ACL_ERROR_INVALID_PARAM, "neither device memory nor runtime host memory");
        ACL_ERR(D32(d + 200, 4096, 1, 100), ACL_ERROR_RT_PARAM_INVALID, "run past the end"); /* 288 bytes taken */
        ACL_ERR(D32(pin + 4000, 4096, 1, 100), ACL_ERROR_RT_PARAM_INVALID, "run past the end");
        /* Order: NULL before alignment before size before memory kind. */
        ACL_ERR(D32(NULL, 0, 1, 4), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
        ACL_ERR(D32(page + 1, 0, 1, 4), ACL_ERROR_INVALID_PARAM, "aligned");
        ACL_ERR(D32(page, 0, 1, 4), ACL_ERROR_INVALID_PARAM, "memSize");
#undef D32
    }
    /* The device address of mapped host memory. */
    ACL_OK(aclrtHostRegisterV2(pin, 4096, ACL_HOST_REG_MAPPED));
    void *alias;
    ACL_OK(aclrtHostGetDevicePointer(pin, &alias, 0));
    ACL_ERR(aclrtMemsetD32(alias, 16, 1, 4), ACL_ERROR_INVALID_PARAM, "mapped host memory");
    ACL_OK(aclrtHostUnregister(pin));
    /* A registration without ACL_HOST_REG_PINNED is not runtime host memory. */
    unsigned char *reg = aligned_alloc(4096, 4096);
    assert_non_null(reg);
    memset(reg, 0x66, 4096);
    ACL_OK(aclrtHostRegisterV2(reg, 4096, ACL_HOST_REG_MAPPED));
    ACL_ERR(aclrtMemsetD32(reg, 16, 1, 4), ACL_ERROR_INVALID_PARAM, "neither");
    ACL_OK(aclrtHostUnregister(reg));
    assert_int_equal(reg[0], 0x66);
    free(reg);
    /* Streams. */
    int local;
    ACL_ERR(aclrtMemsetD32Async(d, 16, 1, 4, &local), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    ACL_ERR(aclrtMemsetD32Async(pin, 16, 1, 4, &local), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    aclrtContext mine, other;
    ACL_OK(aclrtGetCurrentContext(&mine));
    ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream foreign;
    ACL_OK(aclrtCreateStream(&foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_ERR(aclrtMemsetD32Async(d, 16, 1, 4, foreign), ACL_ERROR_RT_STREAM_CONTEXT, NULL);
    ACL_OK(aclrtSetCurrentContext(other));
    ACL_OK(aclrtDestroyStream(foreign));
    ACL_OK(aclrtSetCurrentContext(mine));
    ACL_OK(aclrtDestroyContext(other));
    ACL_OK(aclrtSynchronizeStream(s));
    for (int i = 0; i < 256; i++)
        assert_int_equal(d[i], 0x33);
    for (int i = 0; i < 4096; i++)
        assert_int_equal(pin[i], 0x44);
    for (size_t i = 0; i < sizeof page; i++)
        assert_int_equal(page[i], 0x55);
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtFreeHost(pin));
    ACL_OK(aclrtFree(d));
}

static void *no_context_thread(void *arg)
{
    ACL_ERR(aclrtMemsetD32(arg, 64, 1, 16), ACL_ERROR_RT_CONTEXT_NULL, "context");
    ACL_ERR(aclrtMemsetD32Async(arg, 64, 1, 16, NULL), ACL_ERROR_RT_CONTEXT_NULL, "context");
    return NULL;
}

static void test_no_context(void **state)
{
    (void)state;
    unsigned char *d;
    ACL_OK(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(d, 0x12, 64);
    oacl_test_run_thread(no_context_thread, d);
    for (int i = 0; i < 64; i++)
        assert_int_equal(d[i], 0x12);
    ACL_OK(aclrtFree(d));
}

/* Globals of a kernel binary (tests/kernels/rt_sym.c): g_const (7) is
 * read-only device memory, g_scale writable. */
static void load_globals(aclrtBinHandle *bin, uint32_t **konst, uint32_t **scale)
{
    size_t size = 0;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_sym"), NULL, bin));
    ACL_OK(aclrtBinaryGetGlobal(*bin, "g_const", (void **)konst, &size));
    assert_int_equal(size, 4);
    ACL_OK(aclrtBinaryGetGlobal(*bin, "g_scale", (void **)scale, &size));
    assert_int_equal(size, 4);
}

/* A constant of a kernel binary is never filled; a writable global is. */
static void test_binary_globals(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    uint32_t *konst, *scale;
    load_globals(&bin, &konst, &scale);
    ACL_ERR(aclrtMemsetD32(konst, 4, 1, 1), ACL_ERROR_RT_PARAM_INVALID, "read-only");
    ACL_ERR(aclrtMemsetD32Async(konst, 4, 1, 1, NULL), ACL_ERROR_RT_PARAM_INVALID, "read-only");
    ACL_OK(aclrtMemsetD32Async(scale, 4, 0x5555AAAAu, 1, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    uint32_t got = 0;
    ACL_OK(aclrtMemcpy(&got, 4, scale, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(got, 0x5555AAAAu);
    ACL_OK(aclrtMemcpy(&got, 4, konst, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(got, 7);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* ---- SoC profiles ------------------------------------------------------------ */

static void child_profile(bool writes)
{
    CHILD_OK(aclrtSetDevice(0));
    unsigned char *d, *pin;
    CHILD_OK(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtMallocHost((void **)&pin, 64));
    memset(d, 0, 64);
    memset(pin, 0, 64);
    CHILD_ERR(aclrtMemsetD32(NULL, 64, 1, 4), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    CHILD_ERR(aclrtMemsetD32Async(d + 1, 64, 1, 4, NULL), ACL_ERROR_INVALID_PARAM, "aligned");
    CHILD_OK(aclrtMemsetD32(d, 64, 0x01020304u, 4));
    CHILD_OK(aclrtMemsetD32Async(d + 16, 48, 0x05060708u, 4, NULL));
    CHILD_OK(aclrtMemsetD32Async(pin, 64, 0x0A0B0C0Du, 4, NULL));
    CHILD_OK(aclrtSynchronizeStream(NULL));
    CHILD_CHECK_INT(d[0], writes ? 0x04 : 0);
    CHILD_CHECK_INT(d[16], writes ? 0x08 : 0);
    CHILD_CHECK_INT(pin[0], writes ? 0x0D : 0);
    CHILD_CHECK_INT(d[32], 0);
    CHILD_OK(aclrtFreeHost(pin));
    CHILD_OK(aclrtFree(d));
    CHILD_OK(aclrtResetDevice(0));
}

static void child_writes(void) { child_profile(true); }
static void child_no_effect(void) { child_profile(false); }

static const struct oacl_child_mode g_modes[] = {
    {"writes", child_writes},
    {"no_effect", child_no_effect},
};

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("writes", "OACL_SOC=Ascend910_9392");
    ASSERT_CHILD_OK("writes", "OACL_SOC=Ascend950PR_957b");
    ASSERT_CHILD_OK("no_effect", "OACL_SOC=Ascend310P5");
    ASSERT_CHILD_OK("no_effect", "OACL_SOC=Ascend310B2");
    ASSERT_CHILD_OK("no_effect", "OACL_SOC=Ascend910A");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof g_modes / sizeof g_modes[0], argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sync_fill),
        cmocka_unit_test(test_async_fill),
        cmocka_unit_test(test_async_order),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_no_context),
        cmocka_unit_test(test_binary_globals),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
