/*
 * Kernel binaries, argument lists and launches: good paths, metadata
 * checks, and every documented bad input.
 */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"

static aclrtStream g_stream;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&g_stream) != ACL_SUCCESS)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0) == ACL_SUCCESS ? 0 : -1;
}

/* Writes `len` bytes to a fresh temp file and returns its path. */
static const char *temp_file(const void *data, size_t len)
{
    static char path[64];
    strcpy(path, "/tmp/oacl_test_kbin_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    close(fd);
    return path;
}

static void *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* ---- loading -------------------------------------------------------------- */

static void test_load_and_lookup(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f1, f2, f3;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &bin));
    ACL_OK(aclrtBinaryGetFunction(bin, "write_block_ids", &f1));
    ACL_OK(aclrtBinaryGetFunction(bin, "write_block_ids", &f2));
    assert_ptr_equal(f1, f2); /* the same handle for the same name */
    ACL_OK(aclrtBinaryGetFunction(bin, "fill_u32", &f3));
    assert_ptr_not_equal(f1, f3);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

static void test_load_relative_path(void **state)
{
    (void)state;
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof(cwd)));
    assert_int_equal(chdir(OACL_TEST_KERNEL_DIR), 0);
    aclrtBinHandle bin;
    ACL_OK(aclrtBinaryLoadFromFile("rt_misc.o", NULL, &bin)); /* no slash: still a file path */
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtBinaryLoadFromFile("./rt_misc.o", NULL, &bin));
    ACL_OK(aclrtBinaryUnLoad(bin));
    assert_int_equal(chdir(cwd), 0);
}

static void test_load_bad_args(void **state)
{
    (void)state;
    aclrtBinHandle bin = (aclrtBinHandle)0x1234;
    ACL_ERR(aclrtBinaryLoadFromFile(NULL, NULL, &bin), ACL_ERROR_INVALID_PARAM, "binPath");
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "binHandle");
    aclrtBinaryLoadOptions opts = {.options = NULL, .numOpt = 1};
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), &opts, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "options->options is NULL");
    opts.numOpt = 0; /* refused even without options (device-kernel chapter 7 C5) */
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), &opts, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "options->options is NULL");
    opts.numOpt = 1;
    aclrtBinaryLoadOption o = {.type = ACL_RT_BINARY_LOAD_OPT_MAGIC};
    o.value.magic = ACL_RT_BINARY_MAGIC_ELF_AICORE;
    opts.options = &o;
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), &opts, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "MAGIC");
    o.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    o.value.isLazyLoad = 2;
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), &opts, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "isLazyLoad");
    o.type = (aclrtBinaryLoadOptionType)77;
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), &opts, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "unknown option");
    /* CPU_KERNEL_MODE 0 and 1 name AI CPU operator files (Decision 16), 2 is for memory images. */
    o.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
    o.value.cpuKernelMode = 0;
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), &opts, &bin), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "CPU_KERNEL_MODE 0");
    o.value.cpuKernelMode = 1;
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), &opts, &bin), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "CPU_KERNEL_MODE 1");
    o.value.cpuKernelMode = 2;
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), &opts, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "cpuKernelMode must be 0 or 1");
    assert_ptr_equal(bin, (aclrtBinHandle)0x1234); /* untouched on failure */
    /* Valid options load. */
    o.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    o.value.isLazyLoad = 1;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), &opts, &bin));
    ACL_OK(aclrtBinaryUnLoad(bin));
}

static void test_load_bad_files(void **state)
{
    (void)state;
    aclrtBinHandle bin = NULL;
    ACL_ERR(aclrtBinaryLoadFromFile("/nonexistent/kernel.o", NULL, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "cannot open");
    ACL_ERR(aclrtBinaryLoadFromFile("/tmp", NULL, &bin), ACL_ERROR_RT_PARAM_INVALID, "not a regular file");
    const char *text = temp_file("hello, not an ELF file\n", 23);
    ACL_ERR(aclrtBinaryLoadFromFile(text, NULL, &bin), ACL_ERROR_RT_PARAM_INVALID, "not an ELF");
    unlink(text);

    /* A real kernel binary cut short. */
    size_t len;
    char *image = read_file(oacl_test_kernel_path("rt_misc"), &len);
    const char *cut = temp_file(image, len / 2);
    ACL_ERR(aclrtBinaryLoadFromFile(cut, NULL, &bin), ACL_ERROR_RT_PARAM_INVALID, "truncated");
    unlink(cut);
    cut = temp_file(image, 32); /* not even a whole ELF header */
    ACL_ERR(aclrtBinaryLoadFromFile(cut, NULL, &bin), ACL_ERROR_RT_PARAM_INVALID, "not an ELF");
    unlink(cut);

    /* The same image claiming another machine, or being an object file. */
    Elf64_Ehdr *eh = (Elf64_Ehdr *)image;
    eh->e_machine = EM_AARCH64;
    const char *foreign = temp_file(image, len);
    ACL_ERR(aclrtBinaryLoadFromFile(foreign, NULL, &bin), ACL_ERROR_RT_PARAM_INVALID, "built for another device");
    unlink(foreign);
    eh->e_machine = EM_X86_64;
    eh->e_type = ET_REL;
    const char *object = temp_file(image, len);
    ACL_ERR(aclrtBinaryLoadFromFile(object, NULL, &bin), ACL_ERROR_RT_PARAM_INVALID, "relocatable object");
    unlink(object);
    free(image);
    assert_null(bin);
}

static void test_load_not_a_kernel_binary(void **state)
{
    (void)state;
    aclrtBinHandle bin = NULL;
    /* A shared object without the descriptor: the runtime library itself. */
    Dl_info info;
    assert_true(dladdr((void *)aclInit, &info));
    ACL_ERR(aclrtBinaryLoadFromFile(info.dli_fname, NULL, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "not a kernel binary");
    /* Descriptors with a wrong magic or ABI version. */
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("fake_bad_magic"), NULL, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "bad descriptor magic");
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("fake_bad_abi"), NULL, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "kernel ABI 99");
    /* Built for a SoC of another architecture (950, arch 3510). */
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc_950"), NULL, &bin), ACL_ERROR_RT_PARAM_INVALID,
            "built for another device");
    assert_null(bin);
}

static void test_get_function_errors(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f = NULL;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &bin));
    ACL_ERR(aclrtBinaryGetFunction(NULL, "fill_u32", &f), ACL_ERROR_INVALID_PARAM, "binHandle");
    ACL_ERR(aclrtBinaryGetFunction(bin, NULL, &f), ACL_ERROR_INVALID_PARAM, "kernelName");
    ACL_ERR(aclrtBinaryGetFunction(bin, "fill_u32", NULL), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtBinaryGetFunction(bin, "no_such_kernel", &f), ACL_ERROR_RT_PARAM_INVALID, "no kernel named");
    ACL_ERR(aclrtBinaryGetFunction(g_stream, "fill_u32", &f), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded binary");
    assert_null(f);
    ACL_OK(aclrtBinaryGetFunction(bin, "fill_u32", &f));
    ACL_OK(aclrtBinaryUnLoad(bin));
    /* Stale binary and its functions after unload. */
    ACL_ERR(aclrtBinaryGetFunction(bin, "fill_u32", &f), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded binary");
    ACL_ERR(aclrtBinaryUnLoad(bin), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded binary");
    ACL_ERR(aclrtBinaryUnLoad(NULL), ACL_ERROR_INVALID_PARAM, "binHandle");
    aclrtArgsHandle args;
    ACL_ERR(aclrtKernelArgsInit(f, &args), ACL_ERROR_RT_INVALID_HANDLE, "not a live kernel function");
}

/* ---- argument lists ----------------------------------------------------------- */

static void test_args_errors(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "fill_u32", &bin, &f);
    aclrtArgsHandle args;
    aclrtParamHandle p;
    uint64_t v = 7;
    ACL_ERR(aclrtKernelArgsInit(NULL, &args), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtKernelArgsInit(f, NULL), ACL_ERROR_INVALID_PARAM, "argsHandle");
    ACL_ERR(aclrtKernelArgsInit(bin, &args), ACL_ERROR_RT_INVALID_HANDLE, "not a live kernel function");
    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_ERR(aclrtKernelArgsAppend(NULL, &v, 8, &p), ACL_ERROR_INVALID_PARAM, "argsHandle");
    ACL_ERR(aclrtKernelArgsAppend(args, NULL, 8, &p), ACL_ERROR_INVALID_PARAM, "param");
    ACL_ERR(aclrtKernelArgsAppend(args, &v, 8, NULL), ACL_ERROR_INVALID_PARAM, "paramHandle");
    ACL_ERR(aclrtKernelArgsAppend(args, &v, 0, &p), ACL_ERROR_INVALID_PARAM, "paramSize is 0");
    ACL_ERR(aclrtKernelArgsAppend(args, &v, 70000, &p), ACL_ERROR_RT_PARAM_INVALID, "overflows");
    ACL_ERR(aclrtKernelArgsAppend(f, &v, 8, &p), ACL_ERROR_RT_INVALID_HANDLE, "stale");
    /* 128 parameters fit, the 129th does not. */
    for (int i = 0; i < 128; i++)
        ACL_OK(aclrtKernelArgsAppend(args, &v, 8, &p));
    ACL_ERR(aclrtKernelArgsAppend(args, &v, 8, &p), ACL_ERROR_RT_PARAM_INVALID, "128 parameters");
    /* The 64 KiB buffer overflows with large parameters. */
    static char big[16384];
    ACL_OK(aclrtKernelArgsInit(f, &args));
    for (int i = 0; i < 4; i++)
        ACL_OK(aclrtKernelArgsAppend(args, big, sizeof(big), &p));
    ACL_ERR(aclrtKernelArgsAppend(args, &v, 1, &p), ACL_ERROR_RT_PARAM_INVALID, "overflows");
    /* Finalized lists take no more parameters. */
    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &v, 8, &p));
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_ERR(aclrtKernelArgsAppend(args, &v, 8, &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "finalized");
    ACL_ERR(aclrtKernelArgsFinalize(NULL), ACL_ERROR_INVALID_PARAM, "argsHandle");
    ACL_ERR(aclrtKernelArgsFinalize(f), ACL_ERROR_RT_INVALID_HANDLE, "stale");
    /* A new Init makes the previous list handle stale. */
    aclrtArgsHandle old = args;
    ACL_OK(aclrtKernelArgsInit(f, &args));
    assert_ptr_not_equal(old, args);
    ACL_ERR(aclrtKernelArgsAppend(old, &v, 8, &p), ACL_ERROR_RT_INVALID_HANDLE, "stale");
    ACL_ERR(aclrtKernelArgsFinalize(old), ACL_ERROR_RT_INVALID_HANDLE, "stale");
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* ---- launches ------------------------------------------------------------------- */

static void test_launch_block_ids(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "write_block_ids", &bin, &f);
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    for (uint32_t blocks = 1; blocks <= 48; blocks += 7) {
        memset(out.host, 0, out.size);
        const void *vals[] = {&out.dev};
        size_t sizes[] = {sizeof(void *)};
        ACL_OK(test_launch(f, blocks, g_stream, 1, vals, sizes));
        ACL_OK(aclrtSynchronizeStream(g_stream));
        uint32_t *o = out.host;
        for (uint32_t b = 0; b < blocks; b++) {
            assert_int_equal(o[b], b + 1);
            assert_int_equal(o[blocks + b], blocks);
        }
        assert_int_equal(o[2 * blocks], 0);
    }
    test_buf_free(&out);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

static void test_launch_scalar_params(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "scalars", &bin, &f);
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    struct pair {
        uint32_t first;
        float second;
        uint16_t third;
    } pr = {0xDEADBEEF, 2.5f, 0x1234};
    uint8_t a = 0xA5;
    uint16_t b = 0xBEEF;
    uint32_t c = 0x01234567;
    uint64_t d = 0x0123456789ABCDEFull;
    float fl = -1.25f;
    double g = 3.141592653589793;
    const void *vals[] = {&out.dev, &a, &b, &c, &d, &fl, &g, &pr};
    size_t sizes[] = {8, 1, 2, 4, 8, 4, 8, sizeof(pr)};
    ACL_OK(test_launch(f, 1, g_stream, 8, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    unsigned char *o = out.host;
    assert_memory_equal(o + 0, &a, 1);
    assert_memory_equal(o + 8, &b, 2);
    assert_memory_equal(o + 16, &c, 4);
    assert_memory_equal(o + 24, &d, 8);
    assert_memory_equal(o + 32, &fl, 4);
    assert_memory_equal(o + 40, &g, 8);
    assert_memory_equal(o + 48, &pr, sizeof(pr));
    test_buf_free(&out);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

static void test_launch_zero_params(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "empty_kernel", &bin, &f);
    ACL_OK(test_launch(f, 8, g_stream, 0, NULL, NULL));
    ACL_OK(test_launch(f, 8, NULL, 0, NULL, NULL)); /* default stream */
    ACL_OK(aclrtSynchronizeStream(g_stream));
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* Wrong parameter count or sizes: an error, and the kernel never runs. */
static void test_launch_metadata_mismatch(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "fill_u32", &bin, &f);
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    uint32_t value = 5, count = 4;
    uint64_t wide = 4;
    aclrtArgsHandle args;
    aclrtParamHandle p;

    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &out.dev, 8, &p));
    ACL_OK(aclrtKernelArgsAppend(args, &value, 4, &p));
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, NULL, args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "takes 3 parameters; the argument list has 2");

    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &out.dev, 8, &p));
    ACL_OK(aclrtKernelArgsAppend(args, &value, 4, &p));
    ACL_OK(aclrtKernelArgsAppend(args, &wide, 8, &p)); /* the kernel takes a uint32_t */
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, NULL, args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "parameter 2 is 4 bytes");

    /* Not finalized. */
    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &out.dev, 8, &p));
    ACL_OK(aclrtKernelArgsAppend(args, &value, 4, &p));
    ACL_OK(aclrtKernelArgsAppend(args, &count, 4, &p));
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, NULL, args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "not finalized");

    /* A list built for another kernel. */
    aclrtFuncHandle other;
    ACL_OK(aclrtBinaryGetFunction(bin, "write_block_ids", &other));
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_ERR(aclrtLaunchKernelWithConfig(other, 1, g_stream, NULL, args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "initialised for kernel 'fill_u32'");
    ACL_OK(aclrtSynchronizeStream(g_stream));
    unsigned char zero[4096] = {0};
    assert_memory_equal(out.host, zero, sizeof(zero)); /* nothing ran */

    /* The same list launches once it is right. */
    ACL_OK(aclrtLaunchKernelWithConfig(f, 2, g_stream, NULL, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    uint32_t *o = out.host;
    assert_int_equal(o[0], 5);
    assert_int_equal(o[3], 5);
    assert_int_equal(o[4], 6);
    assert_int_equal(o[7], 6);
    assert_int_equal(o[8], 0);
    test_buf_free(&out);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

static void test_launch_bad_args(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "empty_kernel", &bin, &f);
    aclrtArgsHandle args;
    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_OK(aclrtKernelArgsFinalize(args));
    int dummy;
    ACL_ERR(aclrtLaunchKernelWithConfig(NULL, 1, g_stream, NULL, args, NULL), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM, "argsHandle");
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 0, g_stream, NULL, args, NULL), ACL_ERROR_INVALID_PARAM, "numBlocks");
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, NULL, args, &dummy), ACL_ERROR_INVALID_PARAM, "reserve");
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 65536, g_stream, NULL, args, NULL), ACL_ERROR_RT_PARAM_INVALID, "65535");
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, &dummy, NULL, args, NULL), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live stream");
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, f, NULL, args, NULL), ACL_ERROR_RT_INVALID_HANDLE, "another kind");
    ACL_ERR(aclrtLaunchKernelWithConfig(args, 1, g_stream, NULL, args, NULL), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live kernel function");
    aclrtLaunchKernelCfg cfg = {.attrs = NULL, .numAttrs = 1};
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, &cfg, args, NULL), ACL_ERROR_RT_PARAM_INVALID, "attrs");
    aclrtLaunchKernelAttr attrs[2];
    memset(attrs, 0, sizeof(attrs));
    cfg.attrs = attrs;
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attrs[0].value.schemMode = 2;
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, &cfg, args, NULL), ACL_ERROR_RT_PARAM_INVALID, "schemMode");
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP;
    attrs[0].value.isDataDump = 3;
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, &cfg, args, NULL), ACL_ERROR_RT_PARAM_INVALID, "isDataDump");
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
    attrs[0].value.timeout = 5;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    cfg.numAttrs = 2;
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, &cfg, args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "cannot be combined");
    /* Unknown attribute ids are refused, not ignored (device-kernel chapter 7 C2). */
    attrs[1].id = (aclrtLaunchKernelAttrId)10;
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, &cfg, args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "unknown launch attribute id 10");
    attrs[1].id = (aclrtLaunchKernelAttrId)0;
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, &cfg, args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "unknown launch attribute id 0");
    /* After all that, the list and the stream still work. */
    ACL_OK(aclrtLaunchKernelWithConfig(f, 4, g_stream, NULL, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    ACL_OK(aclrtBinaryUnLoad(bin));
    /* A function of an unloaded binary. */
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, NULL, args, NULL), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live kernel function");
}

static void test_launch_block_offset(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "write_block_ids", &bin, &f);
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    aclrtArgsHandle args;
    aclrtParamHandle p;
    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &out.dev, 8, &p));
    ACL_OK(aclrtKernelArgsFinalize(args));
    aclrtLaunchKernelAttr attr;
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET;
    attr.value.blockDimOffset = 10;
    aclrtLaunchKernelCfg cfg = {.attrs = &attr, .numAttrs = 1};
    ACL_OK(aclrtLaunchKernelWithConfig(f, 3, g_stream, &cfg, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    uint32_t *o = out.host;
    for (uint32_t i = 0; i < 10; i++)
        assert_int_equal(o[i], 0);
    for (uint32_t i = 10; i < 13; i++)
        assert_int_equal(o[i], i + 1);
    test_buf_free(&out);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

static void test_launch_timeout(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "sleep_kernel", &bin, &f);
    struct test_buf counter;
    test_buf_alloc(&counter, 4096);
    uint32_t ms = 30;
    aclrtArgsHandle args;
    aclrtParamHandle p;
    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &counter.dev, 8, &p));
    ACL_OK(aclrtKernelArgsAppend(args, &ms, 4, &p));
    ACL_OK(aclrtKernelArgsFinalize(args));
    aclrtLaunchKernelAttr attr;
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attr.value.timeoutUs.timeoutLow = 1000; /* 1 ms: the kernel sleeps 30 */
    aclrtLaunchKernelCfg cfg = {.attrs = &attr, .numAttrs = 1};
    ACL_OK(aclrtLaunchKernelWithConfig(f, 1, g_stream, &cfg, args, NULL));
    ACL_ERR(aclrtSynchronizeStream(g_stream), ACL_ERROR_RT_AICORE_TIMEOUT, "timeout");
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_TIMEOUT);
    /* Reported once; a generous limit passes. */
    ACL_OK(aclrtSynchronizeStream(g_stream));
    attr.value.timeoutUs.timeoutLow = 0;
    attr.value.timeoutUs.timeoutHigh = 1; /* ~71 minutes */
    ACL_OK(aclrtLaunchKernelWithConfig(f, 1, g_stream, &cfg, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    /* The first launch was stopped at its timeout, before it counted. */
    assert_int_equal(*(uint32_t *)counter.host, 1);
    test_buf_free(&counter);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* aclrtLaunchKernel takes a blob that already lives in device memory. */
static void test_launch_kernel_device_blob(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "fill_u32", &bin, &f);
    struct test_buf out, blob;
    test_buf_alloc(&out, 4096);
    test_buf_alloc(&blob, 4096);
    unsigned char *b = blob.host;
    uint32_t value = 40, count = 8;
    memcpy(b, &out.dev, 8);
    memcpy(b + 8, &value, 4);
    memcpy(b + 16, &count, 4);
    ACL_OK(aclrtLaunchKernel(f, 2, blob.dev, 20, g_stream));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    uint32_t *o = out.host;
    assert_int_equal(o[0], 40);
    assert_int_equal(o[7], 40);
    assert_int_equal(o[8], 41);
    assert_int_equal(o[15], 41);
    assert_int_equal(o[16], 0);

    uint64_t local;
    ACL_ERR(aclrtLaunchKernel(NULL, 1, blob.dev, 20, g_stream), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_ERR(aclrtLaunchKernel(f, 1, NULL, 20, g_stream), ACL_ERROR_INVALID_PARAM, "argsData");
    ACL_ERR(aclrtLaunchKernel(f, 0, blob.dev, 20, g_stream), ACL_ERROR_RT_PARAM_INVALID, "numBlocks");
    ACL_ERR(aclrtLaunchKernel(f, 1, blob.dev, 0, g_stream), ACL_ERROR_RT_PARAM_INVALID, "argsSize is 0");
    ACL_ERR(aclrtLaunchKernel(f, 1, blob.dev, 16, g_stream), ACL_ERROR_RT_PARAM_INVALID, "needs 20 bytes");
    ACL_ERR(aclrtLaunchKernel(f, 1, blob.host, 20, g_stream), ACL_ERROR_RT_PARAM_INVALID, "not device memory");
    ACL_ERR(aclrtLaunchKernel(f, 1, &local, 20, g_stream), ACL_ERROR_RT_PARAM_INVALID, "not device memory");
    ACL_ERR(aclrtLaunchKernel(f, 1, (char *)blob.dev + 4, 20, g_stream), ACL_ERROR_RT_PARAM_INVALID, "aligned");
    ACL_ERR(aclrtLaunchKernel(f, 1, (char *)blob.dev + 4088, 20, g_stream), ACL_ERROR_RT_PARAM_INVALID,
            "runs past the end");
    ACL_ERR(aclrtLaunchKernel(f, 1, blob.dev, 20, &local), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    test_buf_free(&blob);
    test_buf_free(&out);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* A stream of device 0 used from a thread whose current device is 1. */
static void test_launch_other_context(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "empty_kernel", &bin, &f);
    ACL_OK(aclrtSetDevice(1));
    aclrtArgsHandle args;
    ACL_OK(aclrtKernelArgsInit(f, &args));
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, g_stream, NULL, args, NULL), ACL_ERROR_RT_STREAM_CONTEXT,
            "another context");
    /* Device 1's default stream: the binary was loaded for device 0, where
       alone its handle is valid (device-kernel chapter 7 C3). */
    ACL_ERR(aclrtLaunchKernelWithConfig(f, 1, NULL, NULL, args, NULL), ACL_ERROR_RT_INVALID_HANDLE,
            "loaded for device 0");
    ACL_OK(aclrtResetDevice(1));
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtLaunchKernelWithConfig(f, 1, g_stream, NULL, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* Unloading while launches are queued: they still run to completion. */
static void test_unload_with_work_in_flight(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "sleep_kernel", &bin, &f);
    struct test_buf counter;
    test_buf_alloc(&counter, 4096);
    uint32_t ms = 5;
    const void *vals[] = {&counter.dev, &ms};
    size_t sizes[] = {8, 4};
    for (int i = 0; i < 4; i++)
        ACL_OK(test_launch(f, 2, g_stream, 2, vals, sizes));
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    assert_int_equal(*(uint32_t *)counter.host, 8);
    test_buf_free(&counter);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_and_lookup),
        cmocka_unit_test(test_load_relative_path),
        cmocka_unit_test(test_load_bad_args),
        cmocka_unit_test(test_load_bad_files),
        cmocka_unit_test(test_load_not_a_kernel_binary),
        cmocka_unit_test(test_get_function_errors),
        cmocka_unit_test(test_args_errors),
        cmocka_unit_test(test_launch_block_ids),
        cmocka_unit_test(test_launch_scalar_params),
        cmocka_unit_test(test_launch_zero_params),
        cmocka_unit_test(test_launch_metadata_mismatch),
        cmocka_unit_test(test_launch_bad_args),
        cmocka_unit_test(test_launch_block_offset),
        cmocka_unit_test(test_launch_timeout),
        cmocka_unit_test(test_launch_kernel_device_blob),
        cmocka_unit_test(test_launch_other_context),
        cmocka_unit_test(test_unload_with_work_in_flight),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
