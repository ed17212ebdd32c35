/*
 * Function queries, argument lists in user memory, array and SIMT
 * launches, and kernels linked into the program (device-kernel chapter
 * 3.2, 3.3, 4.6 aclrtGetFuncBySymbol, 4.7, 4.8, 4.9).
 *
 * Kernels: rt_add's add_f32(x, y, z, n) from a loaded binary, and
 * tests/kernels/linked_kernels.cpp compiled by `oacl-cc -c` into this test
 * (registered at load time for aclrtGetFuncBySymbol).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

/* tests/kernels/linked_kernels.cpp */
void linked_add(void *a, void *out, uint32_t add, uint32_t count);
void linked_tick(void);
void linked_in_ns(void *out);
extern uint32_t g_linked_runs;
int linked_add_launch(void *stream, uint32_t blocks, void *a, void *out, uint32_t add, uint32_t count);

#define N 1024u

int main(int argc, char **argv);

static aclrtStream g_stream;
static aclrtBinHandle g_bin;
static aclrtFuncHandle g_add; /* add_f32 */

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtCreateStream(&g_stream) ||
        aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_add"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "add_f32", &g_add))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_bin);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0) == ACL_SUCCESS ? 0 : -1;
}

/* Inputs x[i] = i, y[i] = 2i and an output of N floats. */
struct add_bufs {
    struct test_buf x, y, z;
};

static void add_bufs_alloc(struct add_bufs *b)
{
    test_buf_alloc(&b->x, N * sizeof(float));
    test_buf_alloc(&b->y, N * sizeof(float));
    test_buf_alloc(&b->z, N * sizeof(float));
    for (uint32_t i = 0; i < N; i++) {
        ((float *)b->x.host)[i] = (float)i;
        ((float *)b->y.host)[i] = (float)(2 * i);
    }
}

static void add_bufs_check_free(struct add_bufs *b)
{
    for (uint32_t i = 0; i < N; i++)
        if (((float *)b->z.host)[i] != (float)(3 * i))
            fail_msg("z[%u] = %f, expected %f", i, (double)((float *)b->z.host)[i], (double)(3 * i));
    test_buf_free(&b->x);
    test_buf_free(&b->y);
    test_buf_free(&b->z);
}

/* ---- function queries -------------------------------------------------------------------------------------------- */

static void test_param_queries(void **state)
{
    (void)state;
    size_t count = 0;
    ACL_OK(aclrtFunctionGetParamCount(g_add, &count));
    assert_int_equal(count, 4);
    static const size_t offsets[] = {0, 8, 16, 24}, sizes[] = {8, 8, 8, 4};
    for (size_t i = 0; i < 4; i++) {
        size_t off = 99, size = 99;
        ACL_OK(aclrtFunctionGetParamInfo(g_add, i, &off, &size));
        assert_int_equal(off, offsets[i]);
        assert_int_equal(size, sizes[i]);
        off = 99;
        ACL_OK(aclrtFunctionGetParamInfo(g_add, i, &off, NULL)); /* either output may be NULL */
        assert_int_equal(off, offsets[i]);
    }
    size_t off = 77, size = 77;
    ACL_ERR(aclrtFunctionGetParamInfo(g_add, 4, &off, &size), ACL_ERROR_RT_PARAM_INVALID, "paramIndex 4");
    ACL_ERR(aclrtFunctionGetParamInfo(g_add, 0, NULL, NULL), ACL_ERROR_INVALID_PARAM, "both NULL");
    ACL_ERR(aclrtFunctionGetParamInfo(NULL, 0, &off, &size), ACL_ERROR_INVALID_PARAM, "func");
    ACL_ERR(aclrtFunctionGetParamInfo(g_stream, 0, &off, &size), ACL_ERROR_RT_INVALID_HANDLE, "not a live function");
    assert_int_equal(off, 77);
    assert_int_equal(size, 77);
    ACL_ERR(aclrtFunctionGetParamCount(NULL, &count), ACL_ERROR_INVALID_PARAM, "func");
    ACL_ERR(aclrtFunctionGetParamCount(g_add, NULL), ACL_ERROR_INVALID_PARAM, "paramCount");
    ACL_ERR(aclrtFunctionGetParamCount(g_bin, &count), ACL_ERROR_RT_INVALID_HANDLE, "not a live function");
    assert_int_equal(count, 4);
    size_t dyn = 5;
    ACL_OK(aclrtFunctionGetAvailDynUbufPerBlock(g_add, 0, &dyn));
    assert_int_equal(dyn, 0);
    dyn = 5;
    ACL_ERR(aclrtFunctionGetAvailDynUbufPerBlock(g_add, 1, &dyn), ACL_ERROR_INVALID_PARAM, "flags");
    ACL_ERR(aclrtFunctionGetAvailDynUbufPerBlock(g_add, 0, NULL), ACL_ERROR_INVALID_PARAM, "dynamicUbufSize");
    ACL_ERR(aclrtFunctionGetAvailDynUbufPerBlock(g_stream, 0, &dyn), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    assert_int_equal(dyn, 5);
}

static void test_name_attr_binary(void **state)
{
    (void)state;
    char name[16];
    memset(name, 'x', sizeof(name));
    ACL_OK(aclrtGetFunctionName(g_add, 8, name));
    assert_string_equal(name, "add_f32");
    memset(name, 'x', sizeof(name));
    ACL_ERR(aclrtGetFunctionName(g_add, 7, name), ACL_ERROR_RT_PARAM_INVALID, "maxLen 7");
    assert_int_equal(name[0], 'x'); /* nothing written */
    ACL_ERR(aclrtGetFunctionName(g_add, 8, NULL), ACL_ERROR_INVALID_PARAM, "name");
    ACL_ERR(aclrtGetFunctionName(NULL, 8, name), ACL_ERROR_RT_PARAM_INVALID, "funcHandle");
    ACL_ERR(aclrtGetFunctionName(g_bin, 8, name), ACL_ERROR_RT_INVALID_HANDLE, "not a live function");

    int64_t v = -1;
    ACL_OK(aclrtGetFunctionAttribute(g_add, ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    assert_int_equal(v, ACL_KERNEL_TYPE_VECTOR); /* a plain oacl kernel on A2 */
    v = -1; /* every bit is written (Decision 18) */
    ACL_OK(aclrtGetFunctionAttribute(g_add, ACL_FUNC_ATTR_KERNEL_RATIO, &v));
    assert_int_equal(v, 0);
    v = -1;
    ACL_OK(aclrtGetFunctionAttribute(g_add, ACL_FUNC_ATTR_KERNEL_SCHED_MODE, &v));
    assert_int_equal(v, 0);
    v = 9;
    ACL_ERR(aclrtGetFunctionAttribute(g_add, (aclrtFuncAttribute)4, &v), ACL_ERROR_RT_PARAM_INVALID, "attrType 4");
    ACL_ERR(aclrtGetFunctionAttribute(g_add, (aclrtFuncAttribute)0, &v), ACL_ERROR_RT_PARAM_INVALID, "attrType 0");
    ACL_ERR(aclrtGetFunctionAttribute(NULL, ACL_FUNC_ATTR_KERNEL_TYPE, &v), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtGetFunctionAttribute(g_add, ACL_FUNC_ATTR_KERNEL_TYPE, NULL), ACL_ERROR_INVALID_PARAM, "attrValue");
    ACL_ERR(aclrtGetFunctionAttribute(g_stream, ACL_FUNC_ATTR_KERNEL_TYPE, &v), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    assert_int_equal(v, 9);

    aclrtBinHandle b = NULL;
    ACL_OK(aclrtFunctionGetBinary(g_add, &b));
    assert_ptr_equal(b, g_bin);
    b = (aclrtBinHandle)0x2;
    ACL_ERR(aclrtFunctionGetBinary(g_add, NULL), ACL_ERROR_RT_PARAM_INVALID, "binHandle");
    ACL_ERR(aclrtFunctionGetBinary(NULL, &b), ACL_ERROR_RT_PARAM_INVALID, "funcHandle");
    ACL_ERR(aclrtFunctionGetBinary(g_stream, &b), ACL_ERROR_RT_INVALID_HANDLE, "not a live function");
    assert_ptr_equal(b, (aclrtBinHandle)0x2);
}

static void test_addr_size(void **state)
{
    (void)state;
    void *aic = (void *)0x1, *aiv = NULL;
    ACL_OK(aclrtGetFunctionAddr(g_add, &aic, &aiv));
    assert_null(aic); /* a vector kernel: its code is the vector part */
    assert_non_null(aiv);
    void *base = NULL;
    size_t extent = 0;
    ACL_OK(aclrtBinaryGetDevAddress(g_bin, &base, &extent));
    assert_true((uintptr_t)aiv >= (uintptr_t)base && (uintptr_t)aiv < (uintptr_t)base + extent);
    size_t aic_size = 9, aiv_size = 0;
    ACL_OK(aclrtGetFunctionSize(g_add, &aic_size, &aiv_size));
    assert_int_equal(aic_size, 0);
    assert_true(aiv_size > 0 && aiv_size < extent);
    /* Another kernel of the binary has other code. */
    aclrtFuncHandle i32;
    ACL_OK(aclrtBinaryGetFunction(g_bin, "add_i32", &i32));
    void *aiv2 = NULL;
    ACL_OK(aclrtGetFunctionAddr(i32, &aic, &aiv2));
    assert_ptr_not_equal(aiv, aiv2);
    ACL_ERR(aclrtGetFunctionAddr(g_add, NULL, &aiv), ACL_ERROR_INVALID_PARAM, "aicAddr");
    ACL_ERR(aclrtGetFunctionAddr(g_add, &aic, NULL), ACL_ERROR_INVALID_PARAM, "aivAddr");
    ACL_ERR(aclrtGetFunctionAddr(NULL, &aic, &aiv), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtGetFunctionAddr(g_bin, &aic, &aiv), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_ERR(aclrtGetFunctionSize(g_add, NULL, &aiv_size), ACL_ERROR_RT_PARAM_INVALID, "aicSize");
    ACL_ERR(aclrtGetFunctionSize(NULL, &aic_size, &aiv_size), ACL_ERROR_RT_PARAM_INVALID, "funcHandle");
    ACL_ERR(aclrtGetFunctionSize(g_bin, &aic_size, &aiv_size), ACL_ERROR_RT_INVALID_HANDLE, NULL);
}

/* ---- argument lists in user memory ----------------------------------------------------------------------------- */

static void test_user_mem_args(void **state)
{
    (void)state;
    size_t actual = 0, hsize = 0;
    ACL_OK(aclrtKernelArgsGetMemSize(g_add, 32, &actual));
    assert_int_equal(actual, 32 + 64 + 8 * 4);
    ACL_OK(aclrtKernelArgsGetHandleMemSize(g_add, &hsize));
    assert_true(hsize > 0);
    ACL_ERR(aclrtKernelArgsGetMemSize(NULL, 32, &actual), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtKernelArgsGetMemSize(g_add, 32, NULL), ACL_ERROR_INVALID_PARAM, "actualArgsSize");
    ACL_ERR(aclrtKernelArgsGetMemSize(g_bin, 32, &actual), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_ERR(aclrtKernelArgsGetHandleMemSize(NULL, &hsize), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtKernelArgsGetHandleMemSize(g_add, NULL), ACL_ERROR_INVALID_PARAM, "memSize");
    ACL_ERR(aclrtKernelArgsGetHandleMemSize(g_bin, &hsize), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    assert_int_equal(actual, 128);

    void *handle_mem = aligned_alloc(8, (hsize + 7) & ~(size_t)7);
    unsigned char *user = malloc(actual);
    assert_non_null(handle_mem);
    assert_non_null(user);
    aclrtArgsHandle args = handle_mem;
    ACL_OK(aclrtKernelArgsInitByUserMem(g_add, args, user, actual));
    struct add_bufs b;
    add_bufs_alloc(&b);
    uint32_t n = N / 4;
    aclrtParamHandle p[5];
    ACL_OK(aclrtKernelArgsAppend(args, &b.x.dev, sizeof(void *), &p[0]));
    ACL_OK(aclrtKernelArgsAppend(args, &b.y.dev, sizeof(void *), &p[1]));
    ACL_OK(aclrtKernelArgsAppend(args, &b.z.dev, sizeof(void *), &p[2]));
    ACL_OK(aclrtKernelArgsAppend(args, &n, sizeof(n), &p[3]));
    assert_memory_equal(user, &b.x.dev, sizeof(void *)); /* the arguments live in the user buffer */
    ACL_ERR(aclrtKernelArgsAppend(args, &n, sizeof(n), &p[4]), ACL_ERROR_RT_PARAM_INVALID, "already holds 4");
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_OK(aclrtLaunchKernelWithConfig(g_add, 4, g_stream, NULL, args, NULL));
    memset(user, 0, actual); /* the launch copied the blob */
    ACL_OK(aclrtSynchronizeStream(g_stream));
    add_bufs_check_free(&b);

    /* ParaUpdate works on it; re-initialising invalidates the old parameter handles. */
    uint32_t two = 2;
    ACL_OK(aclrtKernelArgsInitByUserMem(g_add, args, user, actual));
    ACL_ERR(aclrtKernelArgsParaUpdate(args, p[3], &two, sizeof(two)), ACL_ERROR_RT_INVALID_HANDLE, "stale");
    aclrtParamHandle q;
    ACL_OK(aclrtKernelArgsAppend(args, &two, sizeof(two), &q));
    ACL_OK(aclrtKernelArgsParaUpdate(args, q, &n, sizeof(n)));
    assert_memory_equal(user, &n, sizeof(n));
    ACL_ERR(aclrtKernelArgsParaUpdate(args, p[0], &two, sizeof(two)), ACL_ERROR_RT_INVALID_HANDLE, "stale");

    /* Bad inputs. */
    ACL_ERR(aclrtKernelArgsInitByUserMem(g_add, args, user, 0), ACL_ERROR_INVALID_PARAM, "actualArgsSize is 0");
    ACL_ERR(aclrtKernelArgsInitByUserMem(NULL, args, user, actual), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtKernelArgsInitByUserMem(g_add, NULL, user, actual), ACL_ERROR_INVALID_PARAM, "argsHandle");
    ACL_ERR(aclrtKernelArgsInitByUserMem(g_add, args, NULL, actual), ACL_ERROR_INVALID_PARAM, "userHostMem");
    ACL_ERR(aclrtKernelArgsInitByUserMem(g_add, (char *)args + 4, user, actual), ACL_ERROR_RT_PARAM_INVALID,
            "8-byte aligned");
    ACL_ERR(aclrtKernelArgsInitByUserMem(g_bin, args, user, actual), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_OK(aclrtKernelArgsParaUpdate(args, q, &two, sizeof(two))); /* the refusals left the list alone */
    /* A buffer too small for the content: the append that would overflow fails. */
    ACL_OK(aclrtKernelArgsInitByUserMem(g_add, args, user, 12));
    ACL_OK(aclrtKernelArgsAppend(args, &b.x.dev, sizeof(void *), &q));
    ACL_ERR(aclrtKernelArgsAppend(args, &b.y.dev, sizeof(void *), &q), ACL_ERROR_RT_PARAM_INVALID, "overflows");
    /* Memory that holds no list. */
    uint64_t junk[16] = {0};
    ACL_ERR(aclrtKernelArgsFinalize(junk), ACL_ERROR_RT_INVALID_HANDLE, "holds no argument list");
    ACL_ERR(aclrtKernelArgsAppend((char *)junk + 1, &n, sizeof(n), &q), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    free(handle_mem);
    free(user);
}

/* A user list with a placeholder; and the list of an unloaded kernel. */
static void test_user_mem_placeholder(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &bin));
    ACL_OK(aclrtBinaryGetFunction(bin, "fill_tiled", &f)); /* (out, tiling*): tiling = {value, count} */
    size_t hsize = 0, actual = 0;
    ACL_OK(aclrtKernelArgsGetHandleMemSize(f, &hsize));
    ACL_OK(aclrtKernelArgsGetMemSize(f, 16 + 8, &actual));
    uint64_t *hmem = calloc(1, (hsize + 7) & ~(size_t)7);
    unsigned char *user = calloc(1, actual);
    ACL_OK(aclrtKernelArgsInitByUserMem(f, hmem, user, actual));
    struct test_buf out;
    test_buf_alloc(&out, 64);
    aclrtParamHandle p, ph;
    ACL_OK(aclrtKernelArgsAppend(hmem, &out.dev, sizeof(void *), &p));
    ACL_OK(aclrtKernelArgsAppendPlaceHolder(hmem, &ph));
    void *buf = NULL;
    ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(hmem, ph, 8, &buf));
    assert_true((unsigned char *)buf >= user && (unsigned char *)buf + 8 <= user + actual);
    uint32_t tiling[2] = {0xabcd, 4};
    memcpy(buf, tiling, sizeof(tiling));
    ACL_OK(aclrtKernelArgsFinalize(hmem));
    ACL_OK(aclrtLaunchKernelWithConfig(f, 1, g_stream, NULL, hmem, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    for (int i = 0; i < 4; i++)
        assert_int_equal(((uint32_t *)out.host)[i], 0xabcd);
    test_buf_free(&out);
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_ERR(aclrtKernelArgsFinalize(hmem), ACL_ERROR_RT_INVALID_HANDLE, "no longer loaded");
    free(hmem);
    free(user);
}

/* ---- array launches ---------------------------------------------------------------------------------------------- */

static void test_args_array(void **state)
{
    (void)state;
    struct add_bufs b;
    add_bufs_alloc(&b);
    uint32_t n = N / 8;
    void *args[4] = {&b.x.dev, &b.y.dev, &b.z.dev, &n};
    ACL_OK(aclrtLaunchKernelWithArgsArray(g_add, 8, g_stream, NULL, args));
    n = 0; /* read during the call */
    ACL_OK(aclrtSynchronizeStream(g_stream));
    add_bufs_check_free(&b);

    n = 4;
    aclrtLaunchKernelAttr attr;
    memset(&attr, 0, sizeof(attr));
    attr.id = (aclrtLaunchKernelAttrId)42;
    aclrtLaunchKernelCfg cfg = {.attrs = &attr, .numAttrs = 1};
    ACL_ERR(aclrtLaunchKernelWithArgsArray(g_add, 1, g_stream, &cfg, args), ACL_ERROR_RT_PARAM_INVALID,
            "unknown launch attribute id 42");
    ACL_ERR(aclrtLaunchKernelWithArgsArray(g_add, 0, g_stream, NULL, args), ACL_ERROR_INVALID_PARAM, "numBlocks");
    ACL_ERR(aclrtLaunchKernelWithArgsArray(NULL, 1, g_stream, NULL, args), ACL_ERROR_INVALID_PARAM, "func");
    ACL_ERR(aclrtLaunchKernelWithArgsArray(g_add, 1, g_stream, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "args is NULL");
    ACL_ERR(aclrtLaunchKernelWithArgsArray(g_add, 65536, g_stream, NULL, args), ACL_ERROR_RT_PARAM_INVALID, "65535");
    void *holey[4] = {args[0], NULL, args[2], args[3]};
    ACL_ERR(aclrtLaunchKernelWithArgsArray(g_add, 1, g_stream, NULL, holey), ACL_ERROR_RT_PARAM_INVALID,
            "args[1] is NULL");
    ACL_ERR(aclrtLaunchKernelWithArgsArray(g_bin, 1, g_stream, NULL, args), ACL_ERROR_RT_INVALID_HANDLE,
            "neither a kernel compiled into the program nor a live function handle");
    aclrtStream dead;
    ACL_OK(aclrtCreateStream(&dead));
    ACL_OK(aclrtDestroyStream(dead));
    ACL_ERR(aclrtLaunchKernelWithArgsArray(g_add, 1, dead, NULL, args), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live stream");
    /* The function of an unloaded binary; the binary's device only. */
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_add"), NULL, &bin));
    ACL_OK(aclrtBinaryGetFunction(bin, "add_f32", &f));
    ACL_OK(aclrtSetDevice(1));
    ACL_ERR(aclrtLaunchKernelWithArgsArray(f, 1, NULL, NULL, args), ACL_ERROR_RT_INVALID_HANDLE,
            "loaded for device 0");
    ACL_ERR(aclrtLaunchKernelWithArgsArray(f, 1, g_stream, NULL, args), ACL_ERROR_RT_STREAM_CONTEXT,
            "another context");
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_ERR(aclrtLaunchKernelWithArgsArray(f, 1, g_stream, NULL, args), ACL_ERROR_RT_INVALID_HANDLE, NULL);
    ACL_OK(aclrtSynchronizeStream(g_stream)); /* nothing was queued by the refusals */
}

/* ---- kernels linked into the program ------------------------------------------------------------------------------ */

static void test_func_by_symbol(void **state)
{
    (void)state;
    aclrtFuncHandle f = NULL, f2 = NULL;
    ACL_OK(aclrtGetFuncBySymbol((const void *)linked_add, &f));
    ACL_OK(aclrtGetFuncBySymbol((const void *)linked_add, &f2));
    assert_ptr_equal(f, f2);
    char name[32];
    ACL_OK(aclrtGetFunctionName(f, sizeof(name), name));
    assert_string_equal(name, "linked_add");
    size_t count = 0;
    ACL_OK(aclrtFunctionGetParamCount(f, &count));
    assert_int_equal(count, 4);
    aclrtFuncHandle ns = NULL;
    ACL_OK(aclrtGetFuncBySymbol((const void *)linked_in_ns, &ns));
    ACL_OK(aclrtGetFunctionName(ns, sizeof(name), name));
    assert_string_equal(name, "linked_in_ns");
    /* Code address: the kernel's own function. */
    void *aic = NULL, *aiv = NULL;
    size_t aic_size = 0, aiv_size = 0;
    ACL_OK(aclrtGetFunctionAddr(f, &aic, &aiv));
    assert_ptr_equal(aiv, (void *)linked_add);
    ACL_OK(aclrtGetFunctionSize(f, &aic_size, &aiv_size));
    assert_true(aiv_size > 0);

    /* The implicit binary of this program's kernels. */
    aclrtBinHandle b = NULL;
    ACL_OK(aclrtFunctionGetBinary(f, &b));
    assert_non_null(b);
    aclrtFuncHandle tick = NULL, tick2 = NULL;
    ACL_OK(aclrtBinaryGetFunction(b, "linked_tick", &tick));
    ACL_OK(aclrtGetFuncBySymbol((const void *)linked_tick, &tick2));
    assert_ptr_equal(tick, tick2);
    void *base = NULL;
    size_t extent = 0;
    ACL_OK(aclrtBinaryGetDevAddress(b, &base, &extent));
    assert_true((uintptr_t)linked_add >= (uintptr_t)base && (uintptr_t)linked_add < (uintptr_t)base + extent);
    ACL_ERR(aclrtBinaryUnLoad(b), ACL_ERROR_RT_PARAM_INVALID, "cannot be unloaded");
    ACL_OK(aclrtGetFunctionName(f, sizeof(name), name)); /* still fine */

    /* Bad inputs. */
    aclrtFuncHandle keep = (aclrtFuncHandle)0x6;
    ACL_ERR(aclrtGetFuncBySymbol((const void *)(uintptr_t)main, &keep), ACL_ERROR_RT_INVALID_DEVICE_FUNCTION,
            "not a kernel compiled into the program");
    ACL_ERR(aclrtGetFuncBySymbol(&g_linked_runs, &keep), ACL_ERROR_RT_INVALID_DEVICE_FUNCTION, NULL);
    ACL_ERR(aclrtGetFuncBySymbol(NULL, &keep), ACL_ERROR_INVALID_PARAM, "symbol");
    ACL_ERR(aclrtGetFuncBySymbol((const void *)linked_add, NULL), ACL_ERROR_INVALID_PARAM, "funcHandle");
    /* A kernel loaded with the aclrt functions is not a symbol. */
    void *code = NULL;
    ACL_OK(aclrtGetFunctionAddr(g_add, &aic, &code));
    ACL_ERR(aclrtGetFuncBySymbol(code, &keep), ACL_ERROR_RT_INVALID_DEVICE_FUNCTION, NULL);
    assert_ptr_equal(keep, (aclrtFuncHandle)0x6);
}

/* The host address of a <<<>>> kernel as `func`, on two devices; the same
 * result as the <<<>>> launch and as the handle. */
static void test_linked_launches(void **state)
{
    (void)state;
    struct test_buf a, out1, out2;
    test_buf_alloc(&a, N * 4);
    test_buf_alloc(&out1, N * 4);
    test_buf_alloc(&out2, N * 4);
    for (uint32_t i = 0; i < N; i++)
        ((uint32_t *)a.host)[i] = i * 7;
    uint32_t add = 5, count = N;
    void *args[4] = {&a.dev, &out1.dev, &add, &count};
    ACL_OK(aclrtLaunchKernelWithArgsArray((void *)linked_add, 4, g_stream, NULL, args));
    assert_int_equal(linked_add_launch(g_stream, 3, a.dev, out2.dev, add, count), 0);
    ACL_OK(aclrtSynchronizeStream(g_stream));
    assert_memory_equal(out1.host, out2.host, N * 4);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(((uint32_t *)out1.host)[i], i * 7 + 5);
    /* The handle works on another device too (linked code runs anywhere). */
    aclrtFuncHandle f;
    ACL_OK(aclrtGetFuncBySymbol((const void *)linked_add, &f));
    ACL_OK(aclrtSetDevice(1));
    add = 9;
    memset(out1.host, 0, N * 4);
    ACL_OK(aclrtLaunchKernelWithArgsArray(f, 2, NULL, NULL, args));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(((uint32_t *)out1.host)[N - 1], (N - 1) * 7 + 9);
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    /* No parameters: args may be NULL. */
    uint32_t before = __atomic_load_n(&g_linked_runs, __ATOMIC_RELAXED);
    ACL_OK(aclrtLaunchKernelWithArgsArray((void *)linked_tick, 3, g_stream, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    assert_int_equal(__atomic_load_n(&g_linked_runs, __ATOMIC_RELAXED), before + 3);
    test_buf_free(&a);
    test_buf_free(&out1);
    test_buf_free(&out2);
}

/* The symbol lookup needs a context. */
static void test_symbol_without_context(void **state)
{
    (void)state;
    ACL_OK(aclrtResetDeviceForce(0));
    aclrtFuncHandle f = (aclrtFuncHandle)0x8;
    ACL_ERR(aclrtGetFuncBySymbol((const void *)linked_add, &f), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    void *args[1] = {NULL};
    ACL_ERR(aclrtLaunchKernelWithArgsArray((void *)linked_tick, 1, NULL, NULL, args), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    assert_ptr_equal(f, (aclrtFuncHandle)0x8);
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtCreateStream(&g_stream));
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_add"), NULL, &g_bin));
    ACL_OK(aclrtBinaryGetFunction(g_bin, "add_f32", &g_add));
}

/* ---- SIMT launches --------------------------------------------------------------------------------------------------- */

static void test_simt(void **state)
{
    (void)state;
    dim3 grid = {2, 1, 1}, block = {64, 1, 1};
    uint32_t n = 4;
    void *args[4] = {&n, &n, &n, &n};
    ACL_ERR(aclrtLaunchSIMTKernelWithArgsArray(g_add, grid, block, 0, g_stream, NULL, args),
            ACL_ERROR_RT_PARAM_INVALID, "not a SIMT kernel");
    dim3 zero = {0, 0, 0}; /* the SIMT check comes first */
    ACL_ERR(aclrtLaunchSIMTKernelWithArgsArray(g_add, zero, zero, 1u << 30, g_stream, NULL, NULL),
            ACL_ERROR_RT_PARAM_INVALID, "not a SIMT kernel");
    ACL_ERR(aclrtLaunchSIMTKernelWithArgsArray((void *)linked_add, grid, block, 0, g_stream, NULL, args),
            ACL_ERROR_RT_PARAM_INVALID, "not a SIMT kernel");
    ACL_ERR(aclrtLaunchSIMTKernelWithArgsArray(NULL, grid, block, 0, g_stream, NULL, args), ACL_ERROR_INVALID_PARAM,
            "func");
    ACL_ERR(aclrtLaunchSIMTKernelWithArgsArray(g_bin, grid, block, 0, g_stream, NULL, args),
            ACL_ERROR_RT_INVALID_HANDLE, NULL);
    unsigned char blob[32] = {0};
    ACL_ERR(aclrtLaunchSIMTKernelWithHostArgs(g_add, grid, block, 0, g_stream, NULL, blob, sizeof(blob), NULL, 0),
            ACL_ERROR_RT_PARAM_INVALID, "not a SIMT kernel");
    ACL_ERR(aclrtLaunchSIMTKernelWithHostArgs(g_add, grid, block, 0, g_stream, NULL, blob, 0, NULL, 0),
            ACL_ERROR_INVALID_PARAM, "argsSize");
    ACL_ERR(aclrtLaunchSIMTKernelWithHostArgs(NULL, grid, block, 0, g_stream, NULL, blob, 8, NULL, 0),
            ACL_ERROR_INVALID_PARAM, "func");
    ACL_ERR(aclrtLaunchSIMTKernelWithHostArgs(g_add, grid, block, 0, g_stream, NULL, NULL, 8, NULL, 0),
            ACL_ERROR_INVALID_PARAM, "hostArgs");
    ACL_OK(aclrtSynchronizeStream(g_stream));
}

/* ---- other profiles (children) ------------------------------------------------------------------------------------------ */

static void child_310b(void)
{
    CHILD_OK(aclrtSetDevice(0));
    size_t a, b;
    CHILD_ERR(aclrtGetFunctionSize(NULL, &a, &b), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on Ascend310B1");
    aclrtFuncHandle f;
    CHILD_OK(aclrtGetFuncBySymbol((const void *)linked_add, &f));
    int64_t v = 0;
    CHILD_ERR(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_RATIO, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "KERNEL_RATIO");
    CHILD_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    CHILD_CHECK_INT(v, ACL_KERNEL_TYPE_AICORE); /* a coupled architecture */
    CHILD_OK(aclrtResetDevice(0));
}

/* 310P (coupled): a kernel's code is the AI Core part. */
static void child_310p(void)
{
    CHILD_OK(aclrtSetDevice(0));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHILD_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("mixed_lang"), NULL, &bin));
    CHILD_OK(aclrtBinaryGetFunction(bin, "add_custom", &f));
    int64_t v = 0;
    CHILD_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    CHILD_CHECK_INT(v, ACL_KERNEL_TYPE_AICORE);
    void *aic = NULL, *aiv = (void *)0x1;
    CHILD_OK(aclrtGetFunctionAddr(f, &aic, &aiv));
    CHILD_CHECK(aic != NULL && aiv == NULL);
    size_t as = 0, vs = 9;
    CHILD_OK(aclrtGetFunctionSize(f, &as, &vs));
    CHILD_CHECK(as > 0 && vs == 0);
    CHILD_OK(aclrtBinaryUnLoad(bin));
    CHILD_OK(aclrtResetDevice(0));
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("310b", "OACL_SOC=Ascend310B1");
    ASSERT_CHILD_OK("310p", "OACL_SOC=Ascend310P3");
}

int main(int argc, char **argv)
{
    static const struct oacl_child_mode modes[] = {
        {"310b", child_310b},
        {"310p", child_310p},
    };
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(modes, sizeof(modes) / sizeof(modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_param_queries),       cmocka_unit_test(test_name_attr_binary),
        cmocka_unit_test(test_addr_size),           cmocka_unit_test(test_user_mem_args),
        cmocka_unit_test(test_user_mem_placeholder), cmocka_unit_test(test_args_array),
        cmocka_unit_test(test_func_by_symbol),      cmocka_unit_test(test_linked_launches),
        cmocka_unit_test(test_symbol_without_context), cmocka_unit_test(test_simt),
        cmocka_unit_test(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
