/*
 * Dumps (acl-rt-misc.md §3.3, profiling-and-tools.md §3.6): the dump
 * session functions and their bad inputs, the JSON rules, data dumps of
 * real launches (argument blob and buffer bytes before and after), launch
 * selection, exception dumps of failing launches, the dump callback and
 * the acl_dump.h helpers.
 */
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "child_process.h"
#include "test_support.h"

static char g_tmp[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static const char *write_cfg(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof(path), "%s/%s", g_tmp, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static int setup(void **state)
{
    snprintf(g_tmp, sizeof(g_tmp), "/tmp/oacl-dump-XXXXXX");
    assert_non_null(mkdtemp(g_tmp));
    aclInit(NULL);
    return oacl_test_reset_fixture(state);
}

static int teardown(void **state)
{
    aclmdlFinalizeDump();
    aclFinalize();
    nftw(g_tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return oacl_test_reset_fixture(state);
}

/* Regular files below dir (recursively) that are not *.json configs and
 * not `file`, the last one's path in out. */
static int files_below(const char *dir, char *out, size_t len)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[1024];
        snprintf(p, sizeof(p), "%s/%.500s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) != 0)
            continue;
        size_t nl = strlen(e->d_name);
        if (S_ISDIR(st.st_mode))
            n += files_below(p, out, len);
        else if (!(nl > 5 && !strcmp(e->d_name + nl - 5, ".json")) && strcmp(e->d_name, "file") != 0) {
            n++;
            if (out)
                snprintf(out, len, "%s", p);
        }
    }
    closedir(d);
    return n;
}

struct dump_file {
    unsigned char *bytes;
    size_t len;
    uint32_t kind, device, task, blocks, num_bufs;
    int32_t stream, status;
    uint64_t args_size;
    char name[256];
    const unsigned char *args;
    const unsigned char *bufs; /* first buffer record */
};

static void read_dump(const char *path, struct dump_file *d)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    d->len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    d->bytes = malloc(d->len);
    assert_int_equal(fread(d->bytes, 1, d->len, f), d->len);
    fclose(f);
    assert_true(d->len >= 320);
    assert_memory_equal(d->bytes, "OACLDUMP", 8);
    uint32_t version, hsize;
    memcpy(&version, d->bytes + 8, 4);
    memcpy(&hsize, d->bytes + 12, 4);
    assert_int_equal(version, 1);
    assert_int_equal(hsize, 320);
    memcpy(&d->kind, d->bytes + 16, 4);
    memcpy(&d->device, d->bytes + 20, 4);
    memcpy(&d->stream, d->bytes + 24, 4);
    memcpy(&d->task, d->bytes + 28, 4);
    memcpy(&d->blocks, d->bytes + 32, 4);
    memcpy(&d->status, d->bytes + 48, 4);
    memcpy(&d->num_bufs, d->bytes + 52, 4);
    memcpy(&d->args_size, d->bytes + 56, 8);
    memcpy(d->name, d->bytes + 64, 256);
    d->args = d->bytes + 320;
    d->bufs = d->args + ((d->args_size + 7) & ~7ull);
}

/* The i-th buffer record: phase, offset, address, size and its data. */
static const unsigned char *dump_buf(const struct dump_file *d, uint32_t i, uint32_t *phase, uint32_t *off,
                                     uint64_t *addr, uint64_t *size)
{
    const unsigned char *p = d->bufs;
    for (uint32_t k = 0;; k++) {
        assert_true(p + 32 <= d->bytes + d->len);
        memcpy(phase, p, 4);
        memcpy(off, p + 4, 4);
        memcpy(addr, p + 8, 8);
        memcpy(size, p + 16, 8);
        if (k == i)
            return p + 32;
        p += 32 + ((*size + 7) & ~7ull);
    }
}

/* ---- sessions and rules ------------------------------------------------------------------------ */

static void child_uninitialised(void)
{
    CHILD_CHECK(aclmdlInitDump() == ACL_ERROR_UNINITIALIZE);
    CHILD_CHECK(aclmdlSetDump("x.json") == ACL_ERROR_UNINITIALIZE);
    CHILD_CHECK(aclmdlFinalizeDump() == ACL_ERROR_UNINITIALIZE);
}

static void child_init_bad_dump(void)
{
    CHILD_CHECK(aclInit(getenv("DUMP_TEST_CFG")) == ACL_ERROR_INVALID_DUMP_CONFIG);
    CHILD_CHECK(strstr(aclGetRecentErrMsg(), "dump_path") != NULL);
    CHILD_CHECK(aclmdlInitDump() == ACL_ERROR_UNINITIALIZE); /* the process stayed uninitialised */
}

static void child_init_good_dump(void)
{
    CHILD_CHECK(aclInit(getenv("DUMP_TEST_CFG")) == ACL_SUCCESS);
    CHILD_CHECK(acldumpGetPath(DATA_DUMP) != NULL);
    CHILD_CHECK(aclmdlInitDump() == ACL_SUCCESS); /* also with a dump from the file (Decision 10) */
    CHILD_CHECK(aclFinalize() == ACL_SUCCESS);
    CHILD_CHECK(acldumpGetPath(DATA_DUMP) == NULL); /* aclFinalize stops it (Decision 14) */
}

static const struct oacl_child_mode g_modes[] = {
    {"uninitialised", child_uninitialised},
    {"init_bad_dump", child_init_bad_dump},
    {"init_good_dump", child_init_good_dump},
};

static void test_session(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("uninitialised", "OACL_UNUSED=1");
    ACL_ERR(aclmdlSetDump(write_cfg("a.json", "{}")), ACL_ERROR_DUMP_NOT_RUN, "aclmdlInitDump first");
    ACL_ERR(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN, "aclmdlInitDump first");
    ACL_OK(aclmdlInitDump());
    ACL_ERR(aclmdlInitDump(), ACL_ERROR_REPEAT_INITIALIZE, "already open");
    ACL_OK(aclmdlFinalizeDump());
    ACL_OK(aclmdlInitDump());
}

static void test_set_dump_rules(void **state)
{
    (void)state;
    ACL_OK(aclmdlInitDump());
    ACL_ERR(aclmdlSetDump(NULL), ACL_ERROR_INVALID_PARAM, "dumpCfgPath is NULL");
    ACL_ERR(aclmdlSetDump("/nonexistent/x.json"), ACL_ERROR_INVALID_FILE, NULL);
    ACL_ERR(aclmdlSetDump(g_tmp), ACL_ERROR_INVALID_FILE, "regular file");
    ACL_ERR(aclmdlSetDump(write_cfg("deep.json", "{\"a\":[[[[[[[[[[[1]]]]]]]]]]]}")), ACL_ERROR_PARSE_FILE, "10 levels");
    ACL_ERR(aclmdlSetDump(write_cfg("bad.json", "{bad")), ACL_ERROR_INVALID_DUMP_CONFIG, "not valid JSON");
    ACL_OK(aclmdlSetDump(write_cfg("empty.json", "")));
    ACL_OK(aclmdlSetDump(write_cfg("other.json", "{\"x\":1}")));
    ACL_OK(aclmdlSetDump(write_cfg("nodump.json", "{\"dump\":{}}")));
    char json[512];
    const char *rules[][2] = {
        {"{\"dump\":{\"dump_mode\":\"output\"}}", "dump_path"},
        {"{\"dump\":{\"dump_path\":\"/nonexistent/dir\",\"dump_op_switch\":\"on\"}}", "not an existing directory"},
        {"{\"dump\":{\"dump_path\":\"%s\",\"dump_mode\":\"both\"}}", "dump_mode 'both'"},
        {"{\"dump\":{\"dump_path\":5}}", "not a string"},
        {"{\"dump\":{\"dump_scene\":\"aic_err_brief_dump\",\"dump_op_switch\":\"on\"}}", "exception dump_scene"},
        {"{\"dump\":{\"dump_path\":\"%s\",\"dump_stats\":[\"Max\"],\"dump_op_switch\":\"on\"}}", "dump_stats"},
        {"{\"dump\":{\"dump_path\":\"%s\",\"dump_step\":\"5-3\",\"dump_op_switch\":\"on\"}}", "dump_step"},
        {"{\"dump\":{\"dump_path\":\"%s\",\"dump_list\":[{\"model_name\":\"\"}]}}", "empty model_name"},
        {"{\"dump\":{\"dump_path\":\"%s\",\"dump_debug\":\"on\",\"dump_op_switch\":\"on\"}}", "dump_debug"},
        {"{\"dump\":{\"dump_scene\":\"watcher\",\"dump_path\":\"%s\",\"dump_mode\":\"input\"}}", "watcher"},
    };
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
        snprintf(json, sizeof(json), rules[i][0], g_tmp);
        ACL_ERR(aclmdlSetDump(write_cfg("rule.json", json)), ACL_ERROR_INVALID_DUMP_CONFIG, rules[i][1]);
    }
    /* none of the refused files enabled anything */
    assert_null(acldumpGetPath(DATA_DUMP));
    ACL_OK(aclmdlSetDump(write_cfg("exc.json", "{\"dump\":{\"dump_scene\":\"aic_err_brief_dump\"}}")));
    snprintf(json, sizeof(json), "{\"dump\":{\"dump_path\":\"%s\",\"dump_step\":\"0|5|10-20\"}}", g_tmp);
    ACL_OK(aclmdlSetDump(write_cfg("valid_nothing.json", json))); /* valid, enables nothing */
    assert_null(acldumpGetPath(DATA_DUMP));
    /* the IP form: its path is used here */
    snprintf(json, sizeof(json), "{\"dump\":{\"dump_path\":\"10.0.0.1:%s/remote\",\"dump_op_switch\":\"on\"}}", g_tmp);
    ACL_OK(aclmdlSetDump(write_cfg("ip.json", json)));
    const char *p = acldumpGetPath(DATA_DUMP);
    assert_non_null(p);
    assert_non_null(strstr(p, "/remote/"));
}

static void test_init_file_dump(void **state)
{
    (void)state;
    char env[300], json[512];
    snprintf(json, sizeof(json), "{\"dump\":{\"dump_path\":\"%s/none\",\"dump_op_switch\":\"on\"}}", g_tmp);
    snprintf(env, sizeof(env), "DUMP_TEST_CFG=%s", write_cfg("init_bad.json", json));
    ASSERT_CHILD_OK("init_bad_dump", env);
    snprintf(json, sizeof(json), "{\"dump\":{\"dump_path\":\"%s\",\"dump_op_switch\":\"on\"}}", g_tmp);
    snprintf(env, sizeof(env), "DUMP_TEST_CFG=%s", write_cfg("init_good.json", json));
    ASSERT_CHILD_OK("init_good_dump", env);
}

/* ---- data dumps of launches -------------------------------------------------------------------------- */

static aclError launch(aclrtFuncHandle f, uint32_t blocks, aclrtStream s, void *out, uint32_t value, uint32_t count,
                       bool attr_dump)
{
    aclrtArgsHandle args;
    aclrtParamHandle p;
    aclError rc = aclrtKernelArgsInit(f, &args);
    if (!rc)
        rc = aclrtKernelArgsAppend(args, &out, sizeof(out), &p);
    if (!rc)
        rc = aclrtKernelArgsAppend(args, &value, sizeof(value), &p);
    if (!rc)
        rc = aclrtKernelArgsAppend(args, &count, sizeof(count), &p);
    if (!rc)
        rc = aclrtKernelArgsFinalize(args);
    aclrtLaunchKernelAttr attr = {.id = ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, .value.isDataDump = 1};
    aclrtLaunchKernelCfg cfg = {.attrs = &attr, .numAttrs = 1};
    if (!rc)
        rc = aclrtLaunchKernelWithConfig(f, blocks, s, attr_dump ? &cfg : NULL, args, NULL);
    return rc;
}

static void test_data_dump_all(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    int32_t sid;
    ACL_OK(aclrtStreamGetId(s, &sid));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "fill_u32", &bin, &f);
    void *out;
    ACL_OK(aclrtMalloc(&out, 4 * 16 * sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(out, 4 * 16 * sizeof(uint32_t), 0x11, 4 * 16 * sizeof(uint32_t)));
    char json[512];
    snprintf(json, sizeof(json), "{\"dump\":{\"dump_path\":\"%s\",\"dump_op_switch\":\"on\",\"dump_mode\":\"all\"}}",
             g_tmp);
    ACL_OK(aclmdlInitDump());
    ACL_OK(aclmdlSetDump(write_cfg("all.json", json)));
    const char *root = acldumpGetPath(DATA_DUMP);
    assert_non_null(root);
    /* <dump_path>/<14 digits> */
    const char *stamp = strrchr(root, '/') + 1;
    assert_int_equal(strlen(stamp), 14);
    ACL_OK(aclrtMemsetAsync(out, 256, 0xAB, 256, s)); /* task 0: not a kernel; runs before the snapshot */
    ACL_OK(launch(f, 4, s, out, 100, 16, false));                             /* task 1 */
    ACL_OK(aclrtSynchronizeStream(s));
    char path[1024];
    assert_int_equal(files_below(g_tmp, path, sizeof(path)), 1);
    char want[256];
    snprintf(want, sizeof(want), "%s/0/fill_u32.fill_u32.1.%d.", root, sid);
    assert_memory_equal(path, want, strlen(want));
    struct dump_file d;
    read_dump(path, &d);
    assert_int_equal(d.kind, 0);
    assert_int_equal(d.device, 0);
    assert_int_equal(d.stream, sid);
    assert_int_equal(d.task, 1);
    assert_int_equal(d.blocks, 4);
    assert_int_equal(d.status, 0);
    assert_string_equal(d.name, "fill_u32");
    assert_int_equal(d.args_size, 20); /* parameters start 8-byte aligned */
    uint64_t a0;
    memcpy(&a0, d.args, 8);
    assert_ptr_equal((void *)(uintptr_t)a0, out);
    uint32_t v, c;
    memcpy(&v, d.args + 8, 4);
    memcpy(&c, d.args + 16, 4);
    assert_int_equal(v, 100);
    assert_int_equal(c, 16);
    assert_int_equal(d.num_bufs, 2);
    uint32_t phase, off;
    uint64_t addr, size;
    const unsigned char *in = dump_buf(&d, 0, &phase, &off, &addr, &size);
    assert_int_equal(phase, 0);
    assert_int_equal(off, 0);
    assert_ptr_equal((void *)(uintptr_t)addr, out);
    assert_int_equal(size, 256);
    for (size_t i = 0; i < size; i++)
        assert_int_equal(in[i], 0xAB); /* before the kernel */
    const unsigned char *after = dump_buf(&d, 1, &phase, &off, &addr, &size);
    assert_int_equal(phase, 1);
    uint32_t host[64];
    ACL_OK(aclrtMemcpy(host, sizeof(host), out, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    assert_memory_equal(after, host, sizeof(host));
    assert_int_equal(host[16 * 3 + 5], 103);
    free(d.bytes);
    ACL_OK(aclmdlFinalizeDump());
    ACL_OK(launch(f, 4, s, out, 1, 16, true)); /* no dump any more */
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(files_below(g_tmp, NULL, 0), 1);
    ACL_OK(aclrtFree(out));
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_data_dump_selection(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtBinHandle bin;
    aclrtFuncHandle fill, blocks;
    test_load("rt_misc", "fill_u32", &bin, &fill);
    ACL_OK(aclrtBinaryGetFunction(bin, "write_block_ids", &blocks));
    void *out;
    ACL_OK(aclrtMalloc(&out, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    char json[512];
    snprintf(json, sizeof(json), "{\"dump\":{\"dump_path\":\"%s\",\"dump_list\":[{\"layer\":[\"write_block_ids\"]}]}}",
             g_tmp);
    ACL_OK(aclmdlInitDump());
    ACL_OK(aclmdlSetDump(write_cfg("list.json", json)));
    ACL_OK(launch(fill, 2, NULL, out, 1, 4, false)); /* not listed */
    aclrtArgsHandle args;
    aclrtParamHandle p;
    ACL_OK(aclrtKernelArgsInit(blocks, &args));
    ACL_OK(aclrtKernelArgsAppend(args, &out, sizeof(out), &p));
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_OK(aclrtLaunchKernelWithConfig(blocks, 2, NULL, NULL, args, NULL)); /* listed */
    ACL_OK(launch(fill, 2, NULL, out, 1, 4, true));                         /* the attribute */
    ACL_OK(aclrtSynchronizeDevice());
    char path[1024];
    assert_int_equal(files_below(g_tmp, path, sizeof(path)), 2);
    /* only output records (the default mode) */
    struct dump_file d;
    read_dump(path, &d);
    assert_int_equal(d.num_bufs, 1);
    uint32_t phase, off;
    uint64_t addr, size;
    dump_buf(&d, 0, &phase, &off, &addr, &size);
    assert_int_equal(phase, 1);
    free(d.bytes);
    ACL_OK(aclrtFree(out));
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* ---- exception dumps ----------------------------------------------------------------------------------- */

static void test_exception_dump(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    int32_t sid;
    ACL_OK(aclrtStreamGetId(s, &sid));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_faults", "ub_overflow", &bin, &f);
    void *out;
    ACL_OK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    char buf[512];
    ACL_ERR(acldumpGetExceptionInfoPath(buf, sizeof(buf)), ACL_ERROR_FAILURE, "no exception dump");
    char json[512];
    snprintf(json, sizeof(json), "{\"dump\":{\"dump_scene\":\"aic_err_brief_dump\",\"dump_path\":\"%s\"}}", g_tmp);
    ACL_OK(aclmdlInitDump());
    ACL_OK(aclmdlSetDump(write_cfg("exc.json", json)));
    unsigned bad = 1;
    const void *vals[] = {&out, &bad};
    const size_t sizes[] = {sizeof(out), sizeof(bad)};
    ACL_OK(test_launch(f, 2, s, 2, vals, sizes));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, NULL);
    char dir[512];
    snprintf(dir, sizeof(dir), "%s/extra-info/data-dump/0", g_tmp);
    char path[1024];
    assert_int_equal(files_below(dir, path, sizeof(path)), 1);
    char want[128];
    snprintf(want, sizeof(want), "exception_info.%d.0.", sid);
    assert_memory_equal(strrchr(path, '/') + 1, want, strlen(want));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0400);
    struct dump_file d;
    read_dump(path, &d);
    assert_int_equal(d.kind, 1);
    assert_int_equal(d.status, ACL_ERROR_RT_AICORE_EXCEPTION);
    assert_string_equal(d.name, "ub_overflow");
    assert_int_equal(d.num_bufs, 1);
    uint32_t phase, off;
    uint64_t addr, size;
    const unsigned char *data = dump_buf(&d, 0, &phase, &off, &addr, &size);
    assert_int_equal(phase, 2);
    uint32_t good;
    memcpy(&good, data, 4);
    assert_int_equal(good, 1); /* block 0 marked itself before block 1 failed */
    free(d.bytes);
    /* paths */
    ACL_ERR(acldumpGetExceptionInfoPath(NULL, 16), ACL_ERROR_INVALID_PARAM, "path is NULL");
    ACL_ERR(acldumpGetExceptionInfoPath(buf, 1), ACL_ERROR_INVALID_PARAM, "maxLen 1");
    ACL_ERR(acldumpGetExceptionInfoPath(buf, 8), ACL_ERROR_INVALID_PARAM, "shorter than the path");
    ACL_OK(acldumpGetExceptionInfoPath(buf, sizeof(buf)));
    assert_string_equal(buf, dir);
    const char *ep = acldumpGetPath(AIC_ERR_NORM_DUMP);
    assert_non_null(ep);
    snprintf(want, sizeof(want), "%s/extra-info/data-dump/", g_tmp);
    assert_string_equal(ep, want);
    assert_null(acldumpGetPath((acldumpType)6));
    assert_null(acldumpGetPath(DATA_DUMP));
    ACL_OK(aclrtFree(out));
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_save_exception_info(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    void *t;
    ACL_OK(aclrtMalloc(&t, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(t, 128, 0x5A, 128));
    acldumpTensorInfo ti = {.type = ACL_DUMP_TENSOR_OUTPUT,
                            .tensorSize = 128,
                            .format = 2,
                            .dataType = 1,
                            .tensorAddr = t,
                            .addrType = ACL_DUMP_ADDR_RAW,
                            .placement = ACL_DUMP_PLACEMENT_DEVICE,
                            .argsOffset = 8,
                            .shapeNum = 2,
                            .shape = {4, 32}};
    ACL_ERR(acldumpSaveExceptionInfo(NULL, "tag", &ti, 1), ACL_ERROR_INVALID_PARAM, "fileName");
    ACL_ERR(acldumpSaveExceptionInfo("", "tag", &ti, 1), ACL_ERROR_INVALID_PARAM, "fileName");
    ACL_ERR(acldumpSaveExceptionInfo("../x", "tag", &ti, 1), ACL_ERROR_INVALID_PARAM, "'..'");
    ACL_ERR(acldumpSaveExceptionInfo("a/../x", "tag", &ti, 1), ACL_ERROR_INVALID_PARAM, "'..'");
    ACL_ERR(acldumpSaveExceptionInfo("x", "tag", NULL, 1), ACL_ERROR_INVALID_PARAM, "tensors is NULL");
    ACL_ERR(acldumpSaveExceptionInfo("x", "tag", &ti, 0), ACL_ERROR_INVALID_PARAM, "tensorCount is 0");
    ACL_ERR(acldumpSaveExceptionInfo("x", "tag", &ti, 1), ACL_ERROR_FAILURE, "no exception dump");
    char json[512];
    snprintf(json, sizeof(json), "{\"dump\":{\"dump_scene\":\"aic_err_norm_dump\",\"dump_path\":\"%s\"}}", g_tmp);
    ACL_OK(aclmdlInitDump());
    ACL_OK(aclmdlSetDump(write_cfg("exc.json", json)));
    acldumpTensorInfo bad = ti;
    bad.addrType = ACL_DUMP_ADDR_PTR;
    ACL_ERR(acldumpSaveExceptionInfo("x", "tag", &bad, 1), ACL_ERROR_INVALID_PARAM, "ACL_DUMP_ADDR_RAW");
    bad = ti;
    bad.shapeNum = 26;
    ACL_ERR(acldumpSaveExceptionInfo("x", "tag", &bad, 1), ACL_ERROR_INVALID_PARAM, "shapeNum");
    bad = ti;
    bad.placement = ACL_DUMP_PLACEMENT_HOST;
    ACL_ERR(acldumpSaveExceptionInfo("x", "tag", &bad, 1), ACL_ERROR_INVALID_PARAM, NULL);
    bad = ti;
    bad.tensorSize = 129; /* past the allocation (Decision 16) */
    ACL_ERR(acldumpSaveExceptionInfo("x", "tag", &bad, 1), ACL_ERROR_FAILURE, "not live device memory");
    char dir[512], path[1024];
    snprintf(dir, sizeof(dir), "%s/extra-info", g_tmp);
    assert_int_equal(files_below(dir, NULL, 0), 0); /* refused calls wrote nothing */
    ACL_OK(acldumpSaveExceptionInfo("mine", "my tag", &ti, 1));
    assert_int_equal(files_below(dir, path, sizeof(path)), 1);
    assert_non_null(strstr(path, "/0/mine.custom."));
    assert_int_equal(strlen(strstr(path, ".custom.") + 8), 17);
    struct dump_file d;
    read_dump(path, &d);
    assert_int_equal(d.kind, 3);
    assert_int_equal(d.stream, -1);
    assert_string_equal(d.name, "my tag");
    assert_int_equal(d.num_bufs, 1);
    uint32_t phase, off;
    uint64_t addr, size, flags;
    const unsigned char *data = dump_buf(&d, 0, &phase, &off, &addr, &size);
    memcpy(&flags, data - 8, 8);
    assert_int_equal(phase, 2);
    assert_int_equal(off, 8);
    assert_int_equal(size, 128);
    assert_int_equal(flags, 1u << 8);
    assert_int_equal(data[0], 0x5A);
    /* the descriptor trailer */
    const unsigned char *tr = data + 128;
    int32_t fmt;
    uint64_t dim1;
    memcpy(&fmt, tr, 4);
    memcpy(&dim1, tr + 16 + 8, 8);
    assert_int_equal(fmt, 2);
    assert_int_equal(dim1, 32);
    assert_int_equal(d.len, (size_t)(tr - d.bytes) + 416);
    free(d.bytes);
    ACL_OK(aclrtFree(t));
}

/* ---- the callback and the op-args functions -------------------------------------------------------------- */

static int g_chunks, g_last;
static size_t g_bytes;
static char g_file[4096];

static int32_t on_chunk(const acldumpChunk *c, int32_t size)
{
    g_chunks++;
    g_bytes += c->bufLen;
    g_last = (int)c->isLastChunk;
    assert_int_equal((size_t)size, sizeof(acldumpChunk) + c->bufLen);
    snprintf(g_file, sizeof(g_file), "%s", c->fileName);
    return 0;
}

static void test_callback(void **state)
{
    (void)state;
    assert_int_equal(sizeof(acldumpChunk), 4120);
    ACL_ERR(acldumpRegCallback(NULL, 0), ACL_ERROR_FAILURE, "messageCallback is NULL");
    ACL_ERR(acldumpRegCallback(on_chunk, 1), ACL_ERROR_FAILURE, "reserved");
    acldumpUnregCallback(); /* none registered: fine */
    ACL_OK(acldumpRegCallback(on_chunk, 0));
    ACL_OK(aclrtSetDevice(0));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    test_load("rt_misc", "fill_u32", &bin, &f);
    void *out;
    ACL_OK(aclrtMalloc(&out, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    char json[512];
    snprintf(json, sizeof(json), "{\"dump\":{\"dump_path\":\"%s\",\"dump_op_switch\":\"on\"}}", g_tmp);
    ACL_OK(aclmdlInitDump());
    ACL_OK(aclmdlSetDump(write_cfg("cb.json", json)));
    ACL_OK(launch(f, 1, NULL, out, 9, 4, false));
    ACL_OK(aclrtSynchronizeDevice());
    ACL_OK(aclmdlFinalizeDump()); /* waits for the delivery */
    acldumpUnregCallback();
    assert_int_equal(g_chunks, 1);
    assert_int_equal(g_last, 1);
    assert_int_equal(g_bytes, 320 + 24 + 32 + 256);
    assert_non_null(strstr(g_file, "/0/fill_u32.fill_u32.0."));
    assert_int_equal(files_below(g_tmp, NULL, 0), 0); /* no dump file */
    ACL_OK(aclrtFree(out));
    ACL_OK(aclrtBinaryUnLoad(bin));
}

static void test_op_dump_args(void **state)
{
    (void)state;
    char d[256];
    snprintf(d, sizeof(d), "%s/args/deeper", g_tmp);
    ACL_ERR(aclopStartDumpArgs(0, d), ACL_ERROR_FAILURE, "ACL_OP_DUMP_OP_AICORE_ARGS");
    ACL_ERR(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, NULL), ACL_ERROR_FAILURE, "path is NULL");
    ACL_ERR(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, ""), ACL_ERROR_FAILURE, "empty");
    ACL_ERR(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, write_cfg("file", "x")), ACL_ERROR_FAILURE,
            "not a directory");
    struct stat st;
    assert_int_not_equal(stat(d, &st), 0);
    ACL_OK(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, d));
    assert_int_equal(stat(d, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    ACL_ERR(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, d), ACL_ERROR_FAILURE, "already runs");
    ACL_OK(aclopStopDumpArgs(0)); /* lacks the bit: nothing */
    ACL_ERR(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, d), ACL_ERROR_FAILURE, "already runs");
    ACL_OK(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS));
    ACL_OK(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, d));
    ACL_OK(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS));
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof(g_modes) / sizeof(g_modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_session, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_dump_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_init_file_dump, setup, teardown),
        cmocka_unit_test_setup_teardown(test_data_dump_all, setup, teardown),
        cmocka_unit_test_setup_teardown(test_data_dump_selection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exception_dump, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_exception_info, setup, teardown),
        cmocka_unit_test_setup_teardown(test_callback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_op_dump_args, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
