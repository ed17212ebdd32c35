/*
 * Kernel images in memory and CPU kernels (device-kernel chapter 4.6):
 * aclrtCreateBinary / aclrtDestroyBinary / aclrtBinaryLoad,
 * aclrtBinaryLoadFromData with its options, aclrtBinaryGetFunctionByEntry,
 * aclrtRegisterCpuFunc. Every bad input of loading from a file is run
 * through loading from memory too, with the same code and message.
 */
#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void *read_kernel(const char *name, size_t *len) { return read_file(oacl_test_kernel_path(name), len); }

/* Launches fill_u32 of binary b on 1 block: out[0..3] = value. */
static void fill_and_check(aclrtBinHandle b, uint32_t value)
{
    aclrtFuncHandle f;
    ACL_OK(aclrtBinaryGetFunction(b, "fill_u32", &f));
    struct test_buf out;
    test_buf_alloc(&out, 64);
    uint32_t count = 4;
    const void *vals[] = {&out.dev, &value, &count};
    size_t sizes[] = {sizeof(void *), sizeof(value), sizeof(count)};
    ACL_OK(test_launch(f, 1, g_stream, 3, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    for (int i = 0; i < 4; i++)
        assert_int_equal(((uint32_t *)out.host)[i], value);
    test_buf_free(&out);
}

/* ---- descriptors and aclrtBinaryLoad ------------------------------------------------------------------ */

static void test_descriptor(void **state)
{
    (void)state;
    size_t len;
    void *image = read_kernel("rt_misc", &len);
    assert_null(aclrtCreateBinary(NULL, 8));
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_non_null(strstr(msg, "data is NULL"));
    aclrtBinary d = aclrtCreateBinary(image, len);
    assert_non_null(d);
    aclrtBinHandle b = NULL;
    ACL_OK(aclrtBinaryLoad(d, &b));
    ACL_OK(aclrtDestroyBinary(d)); /* only the descriptor goes */
    fill_and_check(b, 0x1234);
    ACL_OK(aclrtBinaryUnLoad(b));
    /* Bad inputs. */
    b = (aclrtBinHandle)0x55;
    ACL_ERR(aclrtBinaryLoad(d, &b), ACL_ERROR_RT_INVALID_HANDLE, "not a live descriptor");
    ACL_ERR(aclrtDestroyBinary(d), ACL_ERROR_RT_INVALID_HANDLE, "not a live descriptor");
    ACL_ERR(aclrtDestroyBinary(NULL), ACL_ERROR_INVALID_PARAM, "binary");
    ACL_ERR(aclrtBinaryLoad(NULL, &b), ACL_ERROR_INVALID_PARAM, "binary");
    aclrtBinary empty = aclrtCreateBinary(image, 0); /* accepted here, the load fails */
    assert_non_null(empty);
    ACL_ERR(aclrtBinaryLoad(empty, &b), ACL_ERROR_RT_PARAM_INVALID, "empty");
    ACL_ERR(aclrtBinaryLoad(empty, NULL), ACL_ERROR_INVALID_PARAM, "binHandle");
    aclrtBinary junk = aclrtCreateBinary("junk", 4);
    ACL_ERR(aclrtBinaryLoad(junk, &b), ACL_ERROR_RT_PARAM_INVALID, "not a kernel binary");
    ACL_ERR(aclrtBinaryLoad(g_stream, &b), ACL_ERROR_RT_INVALID_HANDLE, "not a live descriptor");
    assert_ptr_equal(b, (aclrtBinHandle)0x55);
    ACL_OK(aclrtDestroyBinary(empty));
    ACL_OK(aclrtDestroyBinary(junk));
    free(image);
}

/* ---- loading from memory ---------------------------------------------------------------------------------- */

static void test_load_from_data(void **state)
{
    (void)state;
    size_t len;
    unsigned char *image = read_kernel("rt_misc", &len);
    aclrtBinHandle b = NULL;
    ACL_OK(aclrtBinaryLoadFromData(image, len, NULL, &b));
    memset(image, 0, len); /* read during the call only */
    free(image);
    fill_and_check(b, 77);
    void *base = NULL;
    size_t size = 0;
    ACL_OK(aclrtBinaryGetDevAddress(b, &base, &size));
    assert_non_null(base);
    assert_true(size > 0);
    ACL_OK(aclrtBinaryUnLoad(b));
}

/* Two loads of one image have their own globals. */
static void test_independent_globals(void **state)
{
    (void)state;
    size_t len;
    void *image = read_kernel("rt_sym", &len);
    aclrtBinHandle b1, b2;
    ACL_OK(aclrtBinaryLoadFromData(image, len, NULL, &b1));
    ACL_OK(aclrtBinaryLoadFromData(image, len, NULL, &b2));
    free(image);
    void *g1 = NULL, *g2 = NULL;
    size_t s1 = 0, s2 = 0;
    ACL_OK(aclrtBinaryGetGlobal(b1, "g_scale", &g1, &s1));
    ACL_OK(aclrtBinaryGetGlobal(b2, "g_scale", &g2, &s2));
    assert_ptr_not_equal(g1, g2);
    assert_int_equal(s1, sizeof(uint32_t));
    uint32_t v = 1000, r = 0;
    ACL_OK(aclrtMemcpy(g1, sizeof(v), &v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(&r, sizeof(r), g2, sizeof(r), ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(r, 3); /* the other load's initial value */
    ACL_OK(aclrtMemcpy(&r, sizeof(r), g1, sizeof(r), ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(r, 1000);
    void *p = (void *)0x9;
    ACL_ERR(aclrtBinaryGetGlobal(b1, "nope", &p, NULL), ACL_ERROR_RT_SYMBOL_NOT_FOUND, "nope");
    ACL_ERR(aclrtBinaryGetGlobal(b1, "g_scale", NULL, NULL), ACL_ERROR_INVALID_PARAM, "both NULL");
    assert_ptr_equal(p, (void *)0x9);
    ACL_OK(aclrtBinaryUnLoad(b1));
    ACL_OK(aclrtBinaryUnLoad(b2));
}

static void test_load_options(void **state)
{
    (void)state;
    size_t len;
    void *image = read_kernel("rt_misc", &len);
    aclrtBinHandle b = (aclrtBinHandle)0x77;
    aclrtBinaryLoadOption o[2];
    memset(o, 0, sizeof(o));
    aclrtBinaryLoadOptions opts = {.options = NULL, .numOpt = 0};
    ACL_ERR(aclrtBinaryLoadFromData(image, len, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "options->options is NULL");
    opts.options = o;
    opts.numOpt = 1;
    o[0].type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    o[0].value.magic = 0x1234;
    ACL_ERR(aclrtBinaryLoadFromData(image, len, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "magic 0x1234");
    o[0].type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
    o[0].value.cpuKernelMode = 1;
    ACL_ERR(aclrtBinaryLoadFromData(image, len, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "cpuKernelMode must be 2");
    o[0].type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    o[0].value.isLazyLoad = 2;
    ACL_ERR(aclrtBinaryLoadFromData(image, len, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "isLazyLoad");
    o[0].type = (aclrtBinaryLoadOptionType)9;
    ACL_ERR(aclrtBinaryLoadFromData(image, len, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "unknown option type 9");
    ACL_ERR(aclrtBinaryLoadFromData(image, 0, NULL, &b), ACL_ERROR_RT_PARAM_INVALID, "length is 0");
    ACL_ERR(aclrtBinaryLoadFromData(NULL, len, NULL, &b), ACL_ERROR_INVALID_PARAM, "data");
    ACL_ERR(aclrtBinaryLoadFromData(image, len, NULL, NULL), ACL_ERROR_INVALID_PARAM, "binHandle");
    assert_ptr_equal(b, (aclrtBinHandle)0x77);
    /* MAGIC selects the kernel type; a later option wins; lazy loading is accepted (and immediate). */
    o[0].type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    o[0].value.magic = ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE;
    o[1].type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    o[1].value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
    opts.numOpt = 2;
    static const struct {
        uint32_t magic;
        int64_t type;
    } kinds[] = {{ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE, ACL_KERNEL_TYPE_VECTOR},
                 {ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE, ACL_KERNEL_TYPE_CUBE},
                 {ACL_RT_BINARY_MAGIC_ELF_AICORE, ACL_KERNEL_TYPE_MIX}}; /* A2 separates cube and vector */
    for (size_t k = 0; k < 3; k++) {
        o[1].value.magic = kinds[k].magic;
        ACL_OK(aclrtBinaryLoadFromData(image, len, &opts, &b));
        aclrtFuncHandle f;
        ACL_OK(aclrtBinaryGetFunction(b, "fill_u32", &f));
        int64_t t = -1;
        ACL_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &t));
        assert_int_equal(t, kinds[k].type);
        ACL_OK(aclrtBinaryUnLoad(b));
    }
    o[1].type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    o[1].value.isLazyLoad = 1;
    ACL_OK(aclrtBinaryLoadFromData(image, len, &opts, &b));
    fill_and_check(b, 5);
    ACL_OK(aclrtBinaryUnLoad(b));
    /* No context. */
    ACL_OK(aclrtResetDeviceForce(0));
    b = (aclrtBinHandle)0x77;
    ACL_ERR(aclrtBinaryLoadFromData(image, len, NULL, &b), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    assert_ptr_equal(b, (aclrtBinHandle)0x77);
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtCreateStream(&g_stream));
    free(image);
}

/* Loads `len` bytes at data from a temporary file and from memory: both
 * fail with `code` and a message containing `needle`. */
static void both_fail(const void *data, size_t len, aclError code, const char *needle)
{
    char path[64];
    strcpy(path, "/tmp/oacl_test_bl_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    close(fd);
    aclrtBinHandle b = NULL;
    ACL_ERR(aclrtBinaryLoadFromFile(path, NULL, &b), code, needle);
    unlink(path);
    ACL_ERR(aclrtBinaryLoadFromData(data, len, NULL, &b), code, needle);
    aclrtBinary d = aclrtCreateBinary(data, len);
    ACL_ERR(aclrtBinaryLoad(d, &b), code, needle);
    ACL_OK(aclrtDestroyBinary(d));
    assert_null(b);
}

static void test_bad_images(void **state)
{
    (void)state;
    both_fail("hello, not an ELF file\n", 23, ACL_ERROR_RT_PARAM_INVALID, "not an ELF");
    size_t len;
    unsigned char *image = read_kernel("rt_misc", &len);
    both_fail(image, len / 2, ACL_ERROR_RT_PARAM_INVALID, "truncated");
    both_fail(image, 32, ACL_ERROR_RT_PARAM_INVALID, "not an ELF");
    Elf64_Ehdr *eh = (Elf64_Ehdr *)image;
    eh->e_machine = EM_AARCH64;
    both_fail(image, len, ACL_ERROR_RT_PARAM_INVALID, "built for another device");
    eh->e_machine = EM_X86_64;
    eh->e_type = ET_REL;
    both_fail(image, len, ACL_ERROR_RT_PARAM_INVALID, "relocatable object");
    free(image);
    /* A shared object without the descriptor: the runtime library itself. */
    Dl_info info;
    assert_true(dladdr((void *)aclInit, &info));
    image = read_file(info.dli_fname, &len);
    both_fail(image, len, ACL_ERROR_RT_PARAM_INVALID, "not a kernel binary");
    free(image);
    static const struct {
        const char *name, *needle;
    } fakes[] = {{"fake_bad_magic", "bad descriptor magic"},
                 {"fake_bad_abi", "kernel ABI 99"},
                 {"rt_misc_950", "built for another device"}};
    for (size_t i = 0; i < sizeof(fakes) / sizeof(fakes[0]); i++) {
        image = read_kernel(fakes[i].name, &len);
        both_fail(image, len, ACL_ERROR_RT_PARAM_INVALID, fakes[i].needle);
        free(image);
    }
}

/* ---- lookups by entry -------------------------------------------------------------------------------------- */

static void test_by_entry(void **state)
{
    (void)state;
    aclrtBinHandle b;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &b));
    aclrtFuncHandle f = (aclrtFuncHandle)0x3;
    ACL_ERR(aclrtBinaryGetFunctionByEntry(b, 1, &f), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "function-entry keys");
    ACL_ERR(aclrtBinaryGetFunctionByEntry(NULL, 1, &f), ACL_ERROR_INVALID_PARAM, "binHandle");
    ACL_ERR(aclrtBinaryGetFunctionByEntry(b, 1, NULL), ACL_ERROR_INVALID_PARAM, "funcHandle");
    ACL_OK(aclrtBinaryUnLoad(b));
    ACL_ERR(aclrtBinaryGetFunctionByEntry(b, 1, &f), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded binary");
    assert_ptr_equal(f, (aclrtFuncHandle)0x3);
}

/* ---- CPU kernels ---------------------------------------------------------------------------------------------- */

static aclrtBinHandle load_cpu_library(void)
{
    size_t len;
    char path[4096];
    snprintf(path, sizeof(path), "%s/cpu_kernels.so", OACL_TEST_KERNEL_DIR);
    void *image = read_file(path, &len);
    aclrtBinaryLoadOption o = {.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE};
    o.value.cpuKernelMode = 2;
    aclrtBinaryLoadOptions opts = {.options = &o, .numOpt = 1};
    aclrtBinHandle b = NULL;
    ACL_OK(aclrtBinaryLoadFromData(image, len, &opts, &b));
    free(image);
    return b;
}

static void test_cpu_kernels(void **state)
{
    (void)state;
    aclrtBinHandle lib = load_cpu_library();
    aclrtFuncHandle acc, acc2, other, fail;
    ACL_OK(aclrtRegisterCpuFunc(lib, "cpu_accumulate", "Accumulate", &acc));
    ACL_OK(aclrtRegisterCpuFunc(lib, "cpu_accumulate", "Accumulate", &acc2));
    assert_ptr_equal(acc, acc2); /* the same pair: the same handle */
    ACL_OK(aclrtRegisterCpuFunc(lib, "cpu_accumulate", "Other", &other));
    assert_ptr_not_equal(acc, other);
    char name[32];
    ACL_OK(aclrtGetFunctionName(acc, sizeof(name), name));
    assert_string_equal(name, "Accumulate");
    int64_t type = 0;
    ACL_OK(aclrtGetFunctionAttribute(acc, ACL_FUNC_ATTR_KERNEL_TYPE, &type));
    assert_int_equal(type, ACL_KERNEL_TYPE_AICPU);
    aclrtBinHandle owner = NULL;
    ACL_OK(aclrtFunctionGetBinary(acc, &owner));
    assert_ptr_equal(owner, lib);

    /* A launch: once per block, arguments packed without gaps. */
    struct test_buf counter;
    test_buf_alloc(&counter, 64);
    uint8_t add = 5;
    aclrtArgsHandle args;
    aclrtParamHandle p;
    ACL_OK(aclrtKernelArgsInit(acc, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &add, sizeof(add), &p));
    ACL_OK(aclrtKernelArgsAppend(args, &counter.dev, sizeof(counter.dev), &p));
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_OK(aclrtLaunchKernelWithConfig(acc, 6, g_stream, NULL, args, NULL));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    assert_int_equal(*(uint32_t *)counter.host, 30);
    /* A host blob works too. */
    unsigned char blob[9];
    blob[0] = 2;
    memcpy(blob + 1, &counter.dev, sizeof(counter.dev));
    ACL_OK(aclrtLaunchKernelWithHostArgs(acc, 2, g_stream, NULL, blob, sizeof(blob), NULL, 0));
    ACL_OK(aclrtSynchronizeStream(g_stream));
    assert_int_equal(*(uint32_t *)counter.host, 34);
    /* A non-zero return fails the launch with 507018. */
    ACL_OK(aclrtRegisterCpuFunc(lib, "cpu_fail", "Fail", &fail));
    ACL_OK(aclrtKernelArgsInit(fail, &args));
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_OK(aclrtLaunchKernelWithConfig(fail, 1, g_stream, NULL, args, NULL));
    ACL_ERR(aclrtSynchronizeStream(g_stream), ACL_ERROR_RT_AICPU_EXCEPTION, "returned 7");
    test_buf_free(&counter);

    /* What CPU kernels do not have. */
    size_t count = 0;
    void *addr[2];
    size_t sz[2];
    int64_t ratio = 0;
    ACL_ERR(aclrtFunctionGetParamCount(acc, &count), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "CPU kernel");
    ACL_ERR(aclrtGetFunctionAddr(acc, &addr[0], &addr[1]), ACL_ERROR_RT_PARAM_INVALID, "CPU kernel");
    ACL_ERR(aclrtGetFunctionSize(acc, &sz[0], &sz[1]), ACL_ERROR_RT_PARAM_INVALID, "CPU kernel");
    ACL_ERR(aclrtGetFunctionAttribute(acc, ACL_FUNC_ATTR_KERNEL_RATIO, &ratio), ACL_ERROR_RT_PARAM_INVALID,
            "CPU kernel");
    void *argv1[2] = {&add, &counter.dev};
    ACL_ERR(aclrtLaunchKernelWithArgsArray(acc, 1, g_stream, NULL, argv1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "CPU kernel");
    size_t mem = 0;
    ACL_OK(aclrtKernelArgsGetMemSize(acc, 24, &mem));
    assert_int_equal(mem, 24); /* CPU kernels: as given */
    ACL_OK(aclrtKernelArgsGetHandleMemSize(acc, &mem));
    assert_true(mem > 0);

    /* Bad inputs. */
    aclrtFuncHandle f = (aclrtFuncHandle)0x4;
    ACL_ERR(aclrtRegisterCpuFunc(lib, "nope", "Nope", &f), ACL_ERROR_RT_PARAM_INVALID, "no function named 'nope'");
    ACL_ERR(aclrtRegisterCpuFunc(lib, "cpu_data", "Data", &f), ACL_ERROR_RT_PARAM_INVALID, "cpu_data");
    ACL_ERR(aclrtRegisterCpuFunc(NULL, "cpu_fail", "F", &f), ACL_ERROR_INVALID_PARAM, "handle");
    ACL_ERR(aclrtRegisterCpuFunc(lib, NULL, "F", &f), ACL_ERROR_INVALID_PARAM, "funcName");
    ACL_ERR(aclrtRegisterCpuFunc(lib, "cpu_fail", NULL, &f), ACL_ERROR_INVALID_PARAM, "kernelName");
    ACL_ERR(aclrtRegisterCpuFunc(lib, "cpu_fail", "F", NULL), ACL_ERROR_INVALID_PARAM, "funcHandle");
    aclrtBinHandle kb;
    ACL_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &kb));
    ACL_ERR(aclrtRegisterCpuFunc(kb, "fill_u32", "Fill", &f), ACL_ERROR_RT_PARAM_INVALID, "not a CPU-kernel library");
    ACL_ERR(aclrtBinaryGetFunctionByEntry(lib, 1, &f), ACL_ERROR_RT_PARAM_INVALID, "CPU-kernel library");
    ACL_ERR(aclrtBinaryGetFunction(lib, "cpu_fail", &f), ACL_ERROR_RT_PARAM_INVALID, "no kernel named");
    assert_ptr_equal(f, (aclrtFuncHandle)0x4);
    ACL_OK(aclrtBinaryUnLoad(kb));
    /* Unloading the library retires its CPU functions. */
    ACL_OK(aclrtBinaryUnLoad(lib));
    ACL_ERR(aclrtGetFunctionName(acc, sizeof(name), name), ACL_ERROR_RT_INVALID_HANDLE, "not a live function");
    ACL_ERR(aclrtRegisterCpuFunc(lib, "cpu_fail", "F", &f), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded binary");
    ACL_ERR(aclrtKernelArgsInit(other, &args), ACL_ERROR_RT_INVALID_HANDLE, "not a live kernel function");
}

/* A CPU-kernel library loaded from a file is refused: CPU_KERNEL_MODE 0/1 name JSON descriptions. */
static void test_cpu_library_not_a_kernel_binary(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof(path), "%s/cpu_kernels.so", OACL_TEST_KERNEL_DIR);
    aclrtBinHandle b = NULL;
    ACL_ERR(aclrtBinaryLoadFromFile(path, NULL, &b), ACL_ERROR_RT_PARAM_INVALID, "not a kernel binary");
    size_t len;
    void *image = read_file(path, &len);
    ACL_ERR(aclrtBinaryLoadFromData(image, len, NULL, &b), ACL_ERROR_RT_PARAM_INVALID, "not a kernel binary");
    free(image);
    assert_null(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descriptor),
        cmocka_unit_test(test_load_from_data),
        cmocka_unit_test(test_independent_globals),
        cmocka_unit_test(test_load_options),
        cmocka_unit_test(test_bad_images),
        cmocka_unit_test(test_by_entry),
        cmocka_unit_test(test_cpu_kernels),
        cmocka_unit_test(test_cpu_library_not_a_kernel_binary),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
