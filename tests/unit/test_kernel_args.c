/*
 * Argument placeholders and updates: aclrtKernelArgsAppendPlaceHolder,
 * aclrtKernelArgsGetPlaceHolderBuffer, aclrtKernelArgsParaUpdate, and the
 * launches with ready-made blobs (aclrtLaunchKernelWithHostArgs,
 * aclrtLaunchKernelV2), with their bad inputs.
 */
#include <string.h>

#include "test_support.h"

struct fill_tiling {
    uint32_t value;
    uint32_t count;
};

static aclrtStream g_stream;
static aclrtBinHandle g_bin;
static aclrtFuncHandle g_fill_tiled, g_mix, g_fill;
static struct test_buf g_out;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_stream) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "fill_tiled", &g_fill_tiled) ||
        aclrtBinaryGetFunction(g_bin, "mix_two", &g_mix) || aclrtBinaryGetFunction(g_bin, "fill_u32", &g_fill))
        return -1;
    test_buf_alloc(&g_out, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_out);
    aclrtBinaryUnLoad(g_bin);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0);
}

static uint32_t *out_u32(void) { return g_out.host; }

/* Expects blocks*count elements from `at` filled with value + block index. */
static void expect_fill(size_t at, uint32_t blocks, uint32_t count, uint32_t value)
{
    for (uint32_t b = 0; b < blocks; b++)
        for (uint32_t i = 0; i < count; i++)
            if (out_u32()[at + b * count + i] != value + b)
                fail_msg("element %zu is %u, want %u", at + b * count + i, out_u32()[at + b * count + i], value + b);
}

/* A placeholder carries tiling data to the kernel; the data is captured at
 * each launch, and ParaUpdate changes a parameter between launches. */
static void test_placeholder_launches(void **state)
{
    (void)state;
    memset(g_out.host, 0, 4096);
    aclrtArgsHandle args;
    aclrtParamHandle pout, ptiling;
    ACL_OK(aclrtKernelArgsInit(g_fill_tiled, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &g_out.dev, 8, &pout));
    ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &ptiling));
    struct fill_tiling *t = NULL;
    ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, ptiling, sizeof(*t), (void **)&t));
    assert_non_null(t);
    assert_int_equal((uintptr_t)t % 8, 0);
    t->value = 10;
    t->count = 4;
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_OK(aclrtLaunchKernelWithConfig(g_fill_tiled, 2, g_stream, NULL, args, NULL));

    /* The first launch keeps its data: change both for a second launch. */
    t->value = 20;
    t->count = 3;
    void *second = (char *)g_out.dev + 256;
    ACL_OK(aclrtKernelArgsParaUpdate(args, pout, &second, 8));
    ACL_ERR(aclrtLaunchKernelWithConfig(g_fill_tiled, 2, g_stream, NULL, args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "finalize it again");
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_OK(aclrtLaunchKernelWithConfig(g_fill_tiled, 3, g_stream, NULL, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    expect_fill(0, 2, 4, 10);
    assert_int_equal(out_u32()[8], 0);
    expect_fill(64, 3, 3, 20);
    assert_int_equal(out_u32()[64 + 9], 0);
}

/* Two placeholders around a scalar; their buffers are requested in the
 * opposite order, so the data areas are laid out b first. */
static void test_two_placeholders(void **state)
{
    (void)state;
    aclrtArgsHandle args;
    aclrtParamHandle pout, pa, padd, pb;
    uint32_t add = 5;
    ACL_OK(aclrtKernelArgsInit(g_mix, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &g_out.dev, 8, &pout));
    ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &pa));
    ACL_OK(aclrtKernelArgsAppend(args, &add, 4, &padd));
    ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &pb));
    uint32_t *b = NULL, *a = NULL;
    ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, pb, 12, (void **)&b)); /* 12: the next area is re-aligned */
    ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, pa, 16, (void **)&a));
    /* Parameters take 8 + 8 + 4(+4) + 8 = 32 bytes; b's area follows at 32,
       a's at the next multiple of 8 after 44. */
    assert_int_equal((char *)a - (char *)b, 16);
    b[0] = 1, b[1] = 2, b[2] = 3;
    for (int i = 0; i < 4; i++)
        a[i] = (uint32_t)(i + 1);
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_OK(aclrtLaunchKernelWithConfig(g_mix, 1, g_stream, NULL, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    /* b[3] was never written: a fresh area starts zeroed. */
    static const uint32_t want[4] = {1000 + 1 + 5, 2000 + 2 + 5, 3000 + 3 + 5, 4000 + 0 + 5};
    for (int i = 0; i < 4; i++)
        assert_int_equal(out_u32()[i], want[i]);
}

static void test_placeholder_errors(void **state)
{
    (void)state;
    aclrtArgsHandle args;
    aclrtParamHandle pout, ph, ph2;
    void *buf = NULL;
    ACL_OK(aclrtKernelArgsInit(g_fill_tiled, &args));
    ACL_ERR(aclrtKernelArgsAppendPlaceHolder(NULL, &ph), ACL_ERROR_INVALID_PARAM, "argsHandle is NULL");
    ACL_ERR(aclrtKernelArgsAppendPlaceHolder(args, NULL), ACL_ERROR_INVALID_PARAM, "paramHandle is NULL");
    ACL_ERR(aclrtKernelArgsAppendPlaceHolder(g_fill, &ph), ACL_ERROR_RT_INVALID_HANDLE, "stale");
    ACL_OK(aclrtKernelArgsAppend(args, &g_out.dev, 8, &pout));
    ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &ph));

    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(NULL, ph, 8, &buf), ACL_ERROR_INVALID_PARAM, "argsHandle is NULL");
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, NULL, 8, &buf), ACL_ERROR_INVALID_PARAM, "paramHandle is NULL");
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 8, NULL), ACL_ERROR_INVALID_PARAM, "bufferAddr is NULL");
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 0, &buf), ACL_ERROR_INVALID_PARAM, "dataSize is 0");
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, pout, 8, &buf), ACL_ERROR_RT_PARAM_INVALID,
            "not as a placeholder");
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, args, 8, &buf), ACL_ERROR_RT_INVALID_HANDLE, "paramHandle");
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 70000, &buf), ACL_ERROR_RT_PARAM_INVALID, "overflow");
    assert_null(buf);
    /* The placeholder is still without a buffer: launching is refused. */
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_ERR(aclrtLaunchKernelWithConfig(g_fill_tiled, 1, g_stream, NULL, args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "1 of the list's 1 placeholders have no buffer");
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 8, &buf), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "finalized");
    ACL_ERR(aclrtKernelArgsAppendPlaceHolder(args, &ph2), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "finalized");

    /* Once a buffer is reserved, no parameters follow; one buffer each. */
    aclrtParamHandle stale_ph = ph;
    ACL_OK(aclrtKernelArgsInit(g_mix, &args));
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, stale_ph, 8, &buf), ACL_ERROR_RT_INVALID_HANDLE, "stale");
    ACL_OK(aclrtKernelArgsAppend(args, &g_out.dev, 8, &pout));
    ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &ph));
    ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 16, &buf));
    uint32_t add = 1;
    ACL_ERR(aclrtKernelArgsAppend(args, &add, 4, &ph2), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "placeholder buffer");
    ACL_ERR(aclrtKernelArgsAppendPlaceHolder(args, &ph2), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "placeholder buffer");
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 16, &buf), ACL_ERROR_RT_PARAM_INVALID, "already has");
    /* A parameter handle of one list is foreign to another thread's list:
       only one list per thread exists, so a re-Init makes it stale. */
    ACL_OK(aclrtKernelArgsInit(g_mix, &args));
    ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 16, &buf), ACL_ERROR_RT_INVALID_HANDLE, "stale");
}

static void test_para_update_errors(void **state)
{
    (void)state;
    aclrtArgsHandle args;
    aclrtParamHandle pout, pvalue, pcount, ph;
    uint32_t value = 3, count = 2;
    ACL_OK(aclrtKernelArgsInit(g_fill, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &g_out.dev, 8, &pout));
    ACL_OK(aclrtKernelArgsAppend(args, &value, 4, &pvalue));
    ACL_OK(aclrtKernelArgsAppend(args, &count, 4, &pcount));
    ACL_OK(aclrtKernelArgsFinalize(args));
    uint32_t nv = 9;
    ACL_ERR(aclrtKernelArgsParaUpdate(NULL, pvalue, &nv, 4), ACL_ERROR_INVALID_PARAM, "argsHandle is NULL");
    ACL_ERR(aclrtKernelArgsParaUpdate(args, NULL, &nv, 4), ACL_ERROR_INVALID_PARAM, "paramHandle is NULL");
    ACL_ERR(aclrtKernelArgsParaUpdate(args, pvalue, NULL, 4), ACL_ERROR_INVALID_PARAM, "param is NULL");
    ACL_ERR(aclrtKernelArgsParaUpdate(args, pvalue, &nv, 0), ACL_ERROR_INVALID_PARAM, "paramSize is 0");
    ACL_ERR(aclrtKernelArgsParaUpdate(args, pvalue, &nv, 8), ACL_ERROR_RT_PARAM_INVALID, "is 4 bytes, not 8");
    ACL_ERR(aclrtKernelArgsParaUpdate(args, args, &nv, 4), ACL_ERROR_RT_INVALID_HANDLE, "paramHandle");
    /* Refused updates left the list launchable as it was. */
    memset(g_out.host, 0, 64);
    ACL_OK(aclrtLaunchKernelWithConfig(g_fill, 1, g_stream, NULL, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    expect_fill(0, 1, 2, 3);
    /* A good update takes effect after the next Finalize. */
    ACL_OK(aclrtKernelArgsParaUpdate(args, pvalue, &nv, 4));
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_OK(aclrtLaunchKernelWithConfig(g_fill, 1, g_stream, NULL, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    expect_fill(0, 1, 2, 9);
    /* Placeholders are not updated this way. */
    ACL_OK(aclrtKernelArgsInit(g_fill_tiled, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &g_out.dev, 8, &pout));
    ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &ph));
    uint64_t v = 0;
    ACL_ERR(aclrtKernelArgsParaUpdate(args, ph, &v, 8), ACL_ERROR_RT_PARAM_INVALID, "placeholder");
    /* Handles of an earlier list are stale. */
    ACL_ERR(aclrtKernelArgsParaUpdate(args, pvalue, &nv, 4), ACL_ERROR_RT_INVALID_HANDLE, "stale");
}

/* The host blob is copied at the call; placeholder entries point slots of
 * the copy at data inside it. */
static void test_launch_with_host_args(void **state)
{
    (void)state;
    memset(g_out.host, 0, 4096);
    _Alignas(8) unsigned char blob[32];
    memset(blob, 0, sizeof(blob));
    memcpy(blob, &g_out.dev, 8);
    struct fill_tiling t = {100, 5};
    memcpy(blob + 16, &t, sizeof(t));
    aclrtPlaceHolderInfo ph = {8, 16};
    ACL_OK(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 2, g_stream, NULL, blob, 24, &ph, 1));
    memset(blob, 0xFF, sizeof(blob)); /* reusable at once */
    ACL_OK(aclrtSynchronizeStream(g_stream));
    expect_fill(0, 2, 5, 100);
    assert_int_equal(out_u32()[10], 0);

    /* Many placeholder entries (more than fit the runtime's small array),
       with a launch attribute. */
    memcpy(blob, &g_out.dev, 8);
    t = (struct fill_tiling){200, 2};
    memcpy(blob + 16, &t, sizeof(t));
    aclrtPlaceHolderInfo many[20];
    for (int i = 0; i < 20; i++)
        many[i] = (aclrtPlaceHolderInfo){8, 16};
    aclrtLaunchKernelAttr attr = {.id = ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, .value.blockDimOffset = 1};
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    ACL_OK(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 1, g_stream, &cfg, blob, 24, many, 20));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    /* Block index 0 + offset 1 fills elements 2..3 with 201. */
    assert_int_equal(out_u32()[2], 201);
    assert_int_equal(out_u32()[3], 201);

    ACL_ERR(aclrtLaunchKernelWithHostArgs(NULL, 1, g_stream, NULL, blob, 24, &ph, 1), ACL_ERROR_INVALID_PARAM,
            "funcHandle");
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 1, g_stream, NULL, NULL, 24, &ph, 1), ACL_ERROR_INVALID_PARAM,
            "hostArgs");
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 0, g_stream, NULL, blob, 24, &ph, 1),
            ACL_ERROR_RT_PARAM_INVALID, "numBlocks");
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 1, g_stream, NULL, blob, 0, &ph, 1),
            ACL_ERROR_RT_PARAM_INVALID, "argsSize is 0");
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 1, g_stream, NULL, blob, 24, NULL, 1),
            ACL_ERROR_RT_PARAM_INVALID, "placeHolderArray is NULL");
    aclrtPlaceHolderInfo bad_addr = {20, 16}, bad_data = {8, 24};
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 1, g_stream, NULL, blob, 24, &bad_addr, 1),
            ACL_ERROR_RT_PARAM_INVALID, "outside");
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 1, g_stream, NULL, blob, 24, &bad_data, 1),
            ACL_ERROR_RT_PARAM_INVALID, "outside");
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 1, g_stream, NULL, blob, 12, NULL, 0),
            ACL_ERROR_RT_PARAM_INVALID, "needs 16 bytes");
    aclrtLaunchKernelCfg bad_cfg = {NULL, 1};
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 1, g_stream, &bad_cfg, blob, 24, &ph, 1),
            ACL_ERROR_RT_PARAM_INVALID, "attrs is NULL");
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_bin, 1, g_stream, NULL, blob, 24, &ph, 1), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live kernel function");
    uint64_t local;
    ACL_ERR(aclrtLaunchKernelWithHostArgs(g_fill_tiled, 1, &local, NULL, blob, 24, &ph, 1),
            ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    /* None of the refused launches ran. */
    ACL_OK(aclrtSynchronizeStream(g_stream));
    assert_int_equal(out_u32()[0], 100);
}

/* aclrtLaunchKernelV2 takes a blob in device memory (aclrtMalloc too) and
 * launch attributes. */
static void test_launch_kernel_v2(void **state)
{
    (void)state;
    memset(g_out.host, 0, 4096);
    void *blob_dev = NULL;
    ACL_OK(aclrtMalloc(&blob_dev, 64, ACL_MEM_MALLOC_NORMAL_ONLY)); /* 96 bytes with the 32-byte pad */
    _Alignas(8) unsigned char blob[24] = {0};
    uint32_t value = 7, count = 3;
    memcpy(blob, &g_out.dev, 8);
    memcpy(blob + 8, &value, 4);
    memcpy(blob + 16, &count, 4);
    ACL_OK(aclrtMemcpy(blob_dev, 64, blob, 24, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtLaunchKernelAttr attr = {.id = ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, .value.blockDimOffset = 2};
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    ACL_OK(aclrtLaunchKernelV2(g_fill, 2, blob_dev, 20, &cfg, g_stream));
    ACL_OK(aclrtLaunchKernel(g_fill, 1, blob_dev, 20, g_stream));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    expect_fill(0, 1, 3, 7);     /* aclrtLaunchKernel: block 0 */
    expect_fill(6, 2, 3, 7 + 2); /* V2: blocks 2 and 3 */

    aclrtLaunchKernelAttr bad = {.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, .value.schemMode = 2};
    aclrtLaunchKernelCfg bad_cfg = {&bad, 1};
    ACL_ERR(aclrtLaunchKernelV2(g_fill, 1, blob_dev, 20, &bad_cfg, g_stream), ACL_ERROR_RT_PARAM_INVALID,
            "schemMode");
    ACL_ERR(aclrtLaunchKernelV2(NULL, 1, blob_dev, 20, &cfg, g_stream), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtLaunchKernelV2(g_fill, 1, NULL, 20, &cfg, g_stream), ACL_ERROR_INVALID_PARAM, "argsData");
    ACL_ERR(aclrtLaunchKernelV2(g_fill, 0, blob_dev, 20, &cfg, g_stream), ACL_ERROR_RT_PARAM_INVALID, "numBlocks");
    ACL_ERR(aclrtLaunchKernelV2(g_fill, 1, blob, 20, &cfg, g_stream), ACL_ERROR_RT_PARAM_INVALID,
            "not device memory");
    ACL_ERR(aclrtLaunchKernelV2(g_fill, 1, (char *)blob_dev + 80, 20, &cfg, g_stream), ACL_ERROR_RT_PARAM_INVALID,
            "runs past the end");
    ACL_OK(aclrtFree(blob_dev));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_placeholder_launches),
        cmocka_unit_test(test_two_placeholders),
        cmocka_unit_test(test_placeholder_errors),
        cmocka_unit_test(test_para_update_errors),
        cmocka_unit_test(test_launch_with_host_args),
        cmocka_unit_test(test_launch_kernel_v2),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
