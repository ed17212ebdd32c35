/*
 * The profiling API (acl/acl_prof.h), msproftx, mstx and the result
 * directory (profiling-and-tools.md §3-4): sessions with their state
 * machine and bad inputs, a profiled program whose timeline must parse and
 * hold what ran, the summary CSVs, API statistics mode, the command-line
 * modes (OACL_PROFILE, the aclInit profiler section, bin/msprof), long runs
 * that spill to disk, and the subscription record getters.
 */

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "child_process.h"
#include "mstx/ms_tools_ext.h"
#include "prof_check.h"
#include "test_support.h"

/* ---- helpers ------------------------------------------------------------------------- */

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void rm_rf(const char *dir) { nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

static char *make_tmp(void)
{
    static __thread char buf[8][64];
    static __thread int k;
    char *p = buf[k++ % 8];
    snprintf(p, 64, "/tmp/oacl-prof-XXXXXX");
    assert_non_null(mkdtemp(p));
    return p;
}

static char *out_file(const char *prof, const char *prefix, char *path, size_t len)
{
    char dir[4200];
    snprintf(dir, sizeof(dir), "%.4000s/mindstudio_profiler_output", prof);
    return pc_find_file(dir, prefix, ".csv", path, len) ? path : NULL;
}

static bool has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        if (l == n && !strncmp(p, line, n))
            return true;
        p = nl ? nl + 1 : p + l;
    }
    return false;
}

static const char *first_line_end(const char *t) { return strchr(t, '\n'); }

/* X events named `name` on tracks of group `group` (NULL: any). */
static int count_x(const cJSON *tl, const char *name, const char *group)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, tl)
    {
        const char *ph = pc_str(e, "ph"), *nm = pc_str(e, "name");
        if (!ph || strcmp(ph, "X") || !nm || strcmp(nm, name))
            continue;
        if (group) {
            const char *g = pc_process(tl, pc_num(e, "pid"));
            if (!g || strcmp(g, group))
                continue;
        }
        n++;
    }
    return n;
}

static const cJSON *find_x(const cJSON *tl, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, tl)
    {
        const char *ph = pc_str(e, "ph"), *nm = pc_str(e, "name");
        if (ph && !strcmp(ph, "X") && nm && !strcmp(nm, name))
            return e;
    }
    return NULL;
}

static int count_tasks(const cJSON *tl, const char *type, int stream)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, tl)
    {
        const char *ph = pc_str(e, "ph");
        const cJSON *a = pc_args(e);
        const char *tt = pc_str(a, "Task Type");
        if (ph && !strcmp(ph, "X") && tt && !strcmp(tt, type) && pc_num(a, "Physic Stream Id") == stream &&
            pc_num(e, "tid") == stream)
            n++;
    }
    return n;
}

/* Flow starts and ends of category cat with matching ids. */
static int flow_pairs(const cJSON *tl, const char *cat)
{
    int pairs = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, tl)
    {
        const char *ph = pc_str(s, "ph"), *c = pc_str(s, "cat");
        if (!ph || strcmp(ph, "s") || !c || strcmp(c, cat))
            continue;
        const cJSON *f;
        cJSON_ArrayForEach(f, tl)
        {
            const char *ph2 = pc_str(f, "ph"), *c2 = pc_str(f, "cat");
            if (ph2 && !strcmp(ph2, "f") && c2 && !strcmp(c2, cat) && !strcmp(pc_str(f, "id"), pc_str(s, "id")) &&
                !strcmp(pc_str(f, "bp"), "e"))
                pairs++;
        }
    }
    return pairs;
}

static void load_fill(aclrtBinHandle *bin, aclrtFuncHandle *f) { test_load("rt_misc", "fill_u32", bin, f); }

static aclError launch_fill(aclrtFuncHandle f, uint32_t blocks, aclrtStream s, void *dev, uint32_t value, uint32_t count)
{
    const void *vals[] = {&dev, &value, &count};
    const size_t sizes[] = {sizeof(dev), sizeof(value), sizeof(count)};
    return test_launch(f, blocks, s, 3, vals, sizes);
}

static int setup(void **state)
{
    (void)state;
    aclprofFinalize();
    return oacl_test_reset_fixture(state);
}

/* ---- aclprofInit / Finalize ------------------------------------------------------------------ */

static void test_init_bad_inputs(void **state)
{
    (void)state;
    char *dir = make_tmp();
    ACL_ERR(aclprofInit(NULL, 0), ACL_ERROR_INVALID_PARAM, "profilerResultPath is NULL");
    ACL_ERR(aclprofInit("x", 0), ACL_ERROR_INVALID_PARAM, "length 0");
    static char longp[4097];
    memset(longp, 'a', 4096);
    ACL_ERR(aclprofInit(longp, 4096), ACL_ERROR_INVALID_PARAM, "length 4096");
    ACL_ERR(aclprofInit("./p", 2), ACL_ERROR_INVALID_PARAM, "not strlen");
    ACL_ERR(aclprofInit("a;b", 3), ACL_ERROR_INVALID_FILE, "forbidden character");
    ACL_ERR(aclprofInit("a$b", 3), ACL_ERROR_INVALID_FILE, "forbidden character");
    setenv("PROFILING_MODE", "dynamic", 1);
    ACL_ERR(aclprofInit(dir, strlen(dir)), ACL_ERROR_FEATURE_UNSUPPORTED, "dynamic");
    unsetenv("PROFILING_MODE");
    /* none of the failures initialised anything: the first good call works once */
    ACL_OK(aclprofInit(dir, strlen(dir)));
    ACL_ERR(aclprofInit(dir, strlen(dir)), ACL_ERROR_REPEAT_INITIALIZE, "already called");
    ACL_OK(aclprofFinalize());
    ACL_OK(aclprofFinalize()); /* not initialised: 0 */
    ACL_OK(aclprofStop(NULL));
    /* nothing was started: nothing written */
    assert_int_equal(pc_prof_dirs(dir, NULL, 0), 0);
    rm_rf(dir);
}

static void test_set_config(void **state)
{
    (void)state;
    ACL_ERR(aclprofSetConfig((aclprofConfigType)0, "1", 1), ACL_ERROR_INVALID_PARAM, "configType 0");
    ACL_ERR(aclprofSetConfig((aclprofConfigType)17, "1", 1), ACL_ERROR_INVALID_PARAM, "configType 17");
    ACL_ERR(aclprofSetConfig(ACL_PROF_SYS_IO_FREQ, NULL, 1), ACL_ERROR_INVALID_PARAM, "config is NULL");
    static char big[300];
    memset(big, '1', 257);
    ACL_ERR(aclprofSetConfig(ACL_PROF_SYS_IO_FREQ, big, 257), ACL_ERROR_INVALID_PARAM, "exceeds 256");
    ACL_ERR(aclprofSetConfig(ACL_PROF_SYS_IO_FREQ, "10", 1), ACL_ERROR_INVALID_PARAM, "not strlen");
    ACL_ERR(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "100MB", 5), ACL_ERROR_INVALID_PROFILING_CONFIG, "100MB");
    ACL_ERR(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200GB", 5), ACL_ERROR_INVALID_PROFILING_CONFIG, NULL);
    ACL_OK(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5));
    ACL_ERR(aclprofSetConfig(ACL_PROF_HOST_SYS_USAGE_FREQ, "51", 2), ACL_ERROR_INVALID_PROFILING_CONFIG, "51");
    ACL_OK(aclprofSetConfig(ACL_PROF_HOST_SYS_USAGE_FREQ, "50", 2));
    ACL_ERR(aclprofSetConfig((aclprofConfigType)2, "1", 1), ACL_ERROR_INVALID_PROFILING_CONFIG, "type 2");
    ACL_ERR(aclprofSetConfig(ACL_PROF_HOST_SYS, "cpu,gpu", 7), ACL_ERROR_INVALID_PROFILING_CONFIG, NULL);
    ACL_OK(aclprofSetConfig(ACL_PROF_HOST_SYS, "cpu,mem", 7));
    ACL_ERR(aclprofSetConfig(ACL_PROF_LLC_MODE, "both", 4), ACL_ERROR_INVALID_PROFILING_CONFIG, NULL);
    ACL_ERR(aclprofSetConfig(ACL_PROF_NTS_METRICS, "Custom:", 7), ACL_ERROR_INVALID_PARAM, "Custom");
    ACL_OK(aclprofSetConfig(ACL_PROF_NTS_METRICS, "Custom:1,2", 10));
    ACL_ERR(aclprofSetConfig(ACL_PROF_SYS_CPU_FREQ, "0", 1), ACL_ERROR_INVALID_PROFILING_CONFIG, NULL);
}

static void test_create_config(void **state)
{
    (void)state;
    uint32_t ids[2] = {0, 0}, bad = 8, one = 1;
    assert_null(aclprofCreateConfig(NULL, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API));
    assert_null(aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API));
    assert_null(aclprofCreateConfig(ids, 2, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API)); /* repeated */
    assert_null(aclprofCreateConfig(&bad, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API));
    assert_null(aclprofCreateConfig(&one, 1, ACL_AICORE_NONE, (const aclprofAicoreEvents *)&one, ACL_PROF_ACL_API));
    assert_null(aclprofCreateConfig(ids, 65, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API));
    aclprofConfig *host_only = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
    assert_non_null(host_only);
    ACL_OK(aclprofDestroyConfig(host_only));
    ACL_ERR(aclprofDestroyConfig(host_only), ACL_ERROR_INVALID_PARAM, "not a live config");
    ACL_ERR(aclprofDestroyConfig(NULL), ACL_ERROR_INVALID_PARAM, "NULL");
    ACL_ERR(aclprofDestroyConfig((const aclprofConfig *)&one), ACL_ERROR_INVALID_PARAM, "not a live config");
    ACL_ERR(aclprofStart((const aclprofConfig *)&one), ACL_ERROR_INVALID_PARAM, "not a live config");
}

static void test_start_stop_rules(void **state)
{
    (void)state;
    char *dir = make_tmp();
    uint32_t dev0 = 0;
    aclprofConfig *unsupported = aclprofCreateConfig(&dev0, 1, ACL_AICORE_NONE, NULL, 0x400);
    aclprofConfig *a = aclprofCreateConfig(&dev0, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API);
    aclprofConfig *b = aclprofCreateConfig(&dev0, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    aclprofConfig *m7 = aclprofCreateConfig(&dev0, 1, ACL_AICORE_PIPE_EXECUTE_UTILIZATION, NULL,
                                            ACL_PROF_AICORE_METRICS);
    aclprofConfig *mbad = aclprofCreateConfig(&dev0, 1, (aclprofAicoreMetrics)42, NULL, ACL_PROF_AICORE_METRICS);
    assert_true(unsupported && a && b && m7 && mbad);
    ACL_OK(aclprofInit(dir, strlen(dir)));
    ACL_ERR(aclprofStart(unsupported), ACL_ERROR_PROF_MODULES_UNSUPPORTED, "unsupported bits");
    ACL_ERR(aclprofStart(m7), ACL_ERROR_INVALID_PARAM, "not supported on Ascend910B3");
    ACL_ERR(aclprofStart(mbad), ACL_ERROR_INVALID_PARAM, "aicoreMetrics 42");
    assert_int_equal(pc_prof_dirs(dir, NULL, 0), 0); /* refused starts wrote nothing */
    ACL_OK(aclprofStart(a));
    ACL_ERR(aclprofStop((const aclprofConfig *)&dev0), ACL_ERROR_INVALID_PARAM, "not a live config");
    ACL_OK(aclprofStart(a)); /* a second start only checks */
    ACL_ERR(aclprofStart(b), ACL_ERROR_INVALID_PROFILING_CONFIG, "is profiled with");
    ACL_ERR(aclprofStop(b), ACL_ERROR_INVALID_PROFILING_CONFIG, "was started with");
    assert_int_equal(pc_prof_dirs(dir, NULL, 0), 1); /* the session runs */
    ACL_OK(aclprofStop(a));
    ACL_OK(aclprofStop(a)); /* not profiled any more: nothing */
    ACL_OK(aclprofStart(b)); /* a new session, a second directory */
    ACL_OK(aclprofStop(b));
    assert_int_equal(pc_prof_dirs(dir, NULL, 0), 2);
    ACL_OK(aclprofFinalize());
    /* after finalize, init again works; numbering continues */
    ACL_OK(aclprofInit(dir, strlen(dir)));
    ACL_OK(aclprofStart(a));
    ACL_OK(aclprofFinalize()); /* stops the running session */
    char last[4200];
    assert_int_equal(pc_prof_dirs(dir, last, sizeof(last)), 3);
    for (aclprofConfig **c = (aclprofConfig *[]){unsupported, a, b, m7, mbad, NULL}; *c; c++)
        ACL_OK(aclprofDestroyConfig(*c));
    rm_rf(dir);
}

/* ---- a profiled program ------------------------------------------------------------------------ */

static void test_full_session(void **state)
{
    (void)state;
    char *dir = make_tmp();
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    int32_t sid = -1;
    ACL_OK(aclrtStreamGetId(s, &sid));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    load_fill(&bin, &f);
    void *d1 = NULL, *d2 = NULL;
    ACL_OK(aclrtMalloc(&d1, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&d2, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtEvent ev;
    ACL_OK(aclrtCreateEvent(&ev));

    uint32_t dev0 = 0;
    uint64_t bits = ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API |
                    ACL_PROF_AICORE_METRICS;
    aclprofConfig *cfg = aclprofCreateConfig(&dev0, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, bits);
    assert_non_null(cfg);
    ACL_OK(aclprofInit(dir, strlen(dir)));
    ACL_OK(aclprofStart(cfg));

    uint64_t tool = 0;
    mstxGetToolId(&tool);
    assert_int_equal(tool, MSTX_TOOL_MSPROF_ID);
    mstxRangeId outer = mstxRangeStartA("outer range", NULL);
    assert_true(outer >= 1);
    ACL_OK(launch_fill(f, 8, s, d1, 7, 8));
    ACL_OK(aclrtMemcpyAsync(d2, 4096, d1, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    ACL_OK(aclrtRecordEvent(ev, s));
    mstxMarkA("device mark", s);
    mstxDomainHandle_t dom = mstxDomainCreateA("my_domain");
    assert_non_null(dom);
    mstxRangeId inner = mstxDomainRangeStartA(dom, "inner range", NULL);
    assert_true(inner > outer);
    ACL_OK(aclrtSynchronizeStream(s));
    mstxDomainRangeEnd(dom, inner);
    mstxRangeEnd(outer);
    void *stamp = aclprofCreateStamp();
    assert_non_null(stamp);
    ACL_OK(aclprofSetStampTraceMessage(stamp, "stamp push", 10));
    ACL_OK(aclprofPush(stamp));
    ACL_OK(aclprofMark(stamp));
    ACL_OK(aclprofPop());
    aclprofDestroyStamp(stamp);
    /* a failing call is an event too, with its code */
    ACL_ERR(aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, NULL);
    ACL_OK(aclprofStop(cfg));
    ACL_OK(aclprofFinalize());
    ACL_OK(aclprofDestroyConfig(cfg));
    mstxGetToolId(&tool);
    assert_int_equal(tool, MSTX_TOOL_INVALID_ID); /* nobody listens any more */

    char prof[4200];
    assert_int_equal(pc_prof_dirs(dir, prof, sizeof(prof)), 1);
    assert_true(pc_prof_name_ok(strrchr(prof, '/') + 1));
    cJSON *tl = pc_timeline(prof);
    assert_non_null(tl);
    char why[256] = "";
    if (!pc_tracks_sane(tl, why, sizeof(why)))
        fail_msg("%s", why);
    /* the kernel on its stream, its 8 blocks on core tracks */
    const cJSON *k = find_x(tl, "fill_u32");
    assert_non_null(k);
    assert_string_equal(pc_process(tl, pc_num(k, "pid")), "Ascend Hardware");
    char want[64];
    snprintf(want, sizeof(want), "Stream %d", sid);
    assert_string_equal(pc_thread(tl, pc_num(k, "pid"), sid), want);
    assert_string_equal(pc_str(pc_args(k), "Task Type"), "KERNEL_AIVEC");
    assert_int_equal((int)pc_num(pc_args(k), "Physic Stream Id"), sid);
    assert_int_equal(count_tasks(tl, "KERNEL_AIVEC", sid), 1);
    assert_int_equal(count_tasks(tl, "MEMCPY_ASYNC", sid), 1);
    assert_int_equal(count_tasks(tl, "EVENT_RECORD", sid), 1);
    snprintf(want, sizeof(want), "Stream %d fill_u32", sid);
    assert_int_equal(count_x(tl, want, "Block Detail"), 8);
    unsigned seen = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, tl)
    {
        const char *nm = pc_str(e, "name");
        if (nm && !strcmp(nm, want)) {
            int b = (int)pc_num(pc_args(e), "Block Id");
            assert_in_range(b, 0, 7);
            seen |= 1u << b;
            const char *th = pc_thread(tl, pc_num(e, "pid"), pc_num(e, "tid"));
            assert_non_null(th);
            assert_memory_equal(th, "AIV ", 4);
        }
    }
    assert_int_equal(seen, 0xFF);
    /* host side: API, runtime and node events, linked to the tasks */
    assert_int_equal(count_x(tl, "AscendCL@aclrtLaunchKernelWithConfig", "CANN"), 1);
    assert_int_equal(count_x(tl, "Runtime@KernelLaunch", "CANN"), 1);
    assert_int_equal(count_x(tl, "Node@fill_u32", "CANN"), 1);
    assert_int_equal(count_x(tl, "AscendCL@aclrtMemcpyAsync", "CANN"), 1);
    assert_true(flow_pairs(tl, "HostToDevice") >= 3); /* launch, copy, event record */
    const cJSON *bad = find_x(tl, "AscendCL@aclrtMalloc");
    assert_non_null(bad);
    assert_int_equal((int)pc_num(pc_args(bad), "ret"), ACL_ERROR_INVALID_PARAM);
    /* mstx and msproftx on the program's own group */
    const cJSON *r = find_x(tl, "outer range");
    assert_non_null(r);
    assert_string_equal(pc_str(pc_args(r), "domain"), "default");
    assert_string_equal(pc_process(tl, pc_num(r, "pid")), program_invocation_short_name);
    r = find_x(tl, "inner range");
    assert_non_null(r);
    assert_string_equal(pc_str(pc_args(r), "domain"), "my_domain");
    assert_string_equal(pc_str(pc_args(r), "event_type"), "start/end");
    assert_int_equal(count_x(tl, "device mark", NULL), 2); /* host mark and its device side */
    assert_int_equal(flow_pairs(tl, "MsTx"), 1);
    r = find_x(tl, "stamp push");
    assert_non_null(r);
    assert_int_equal(count_x(tl, "stamp push", NULL), 2); /* push/pop and the mark */
    cJSON_Delete(tl);

    /* summaries */
    char path[4400];
    assert_non_null(out_file(prof, "op_summary_", path, sizeof(path)));
    char *t = pc_read(path);
    assert_non_null(t);
    assert_int_equal(strncmp(t,
                             "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start "
                             "Time(us),Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,"
                             "Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,Output "
                             "Formats,Context ID,aic_time(us),aic_total_cycles,aiv_time(us),aiv_total_cycles\n",
                             (size_t)(first_line_end(t) - t + 1)),
                     0);
    assert_int_equal(pc_lines(t), 2);
    char row[128];
    snprintf(row, sizeof(row), "0,4294967295,0,%d,fill_u32,fill_u32,N/A,AI_VECTOR_CORE,", sid);
    assert_non_null(strstr(t, row));
    assert_non_null(strstr(t, ",8,0,NO,N/A,N/A,N/A,N/A,N/A,N/A,N/A,0,0,"));
    free(t);
    assert_non_null(out_file(prof, "task_time_", path, sizeof(path)));
    t = pc_read(path);
    assert_true(has_line(t, "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),"
                            "task_stop(us)"));
    /* kernel, copy, event record, mark */
    assert_int_equal(pc_lines(t), 1 + 4);
    free(t);
    assert_non_null(out_file(prof, "api_statistic_", path, sizeof(path)));
    t = pc_read(path);
    assert_true(has_line(t, "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance"));
    assert_non_null(strstr(t, "\nhost,acl,aclrtLaunchKernelWithConfig,"));
    assert_non_null(strstr(t, "\nhost,runtime,KernelLaunch,"));
    free(t);
    assert_non_null(out_file(prof, "op_statistic_", path, sizeof(path)));
    t = pc_read(path);
    assert_true(has_line(t, "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max "
                            "Time(us),Ratio(%)"));
    assert_non_null(strstr(t, "\n0,fill_u32,AI_VECTOR_CORE,1,"));
    assert_non_null(strstr(t, ",100\n"));
    free(t);
    assert_non_null(out_file(prof, "kernel_statistic_", path, sizeof(path)));
    t = pc_read(path);
    assert_non_null(strstr(t, "\n0,fill_u32,8,1,"));
    free(t);
    assert_non_null(out_file(prof, "msprof_tx_", path, sizeof(path)));
    t = pc_read(path);
    assert_true(has_line(t, "Device_id,pid,tid,category,event_type,payload_type,payload_value,Start_time(us),"
                            "End_time(us),message_type,message,domain,Device Start_time(us),Device End_time(us)"));
    assert_int_equal(pc_lines(t), 1 + 5); /* outer, inner, mark, push/pop, stamp mark */
    assert_non_null(strstr(t, ",inner range,my_domain,N/A,N/A\n"));
    free(t);
    snprintf(path, sizeof(path), "%.4000s/host/info.json", prof);
    t = pc_read(path);
    cJSON *info = cJSON_Parse(t);
    assert_non_null(info);
    assert_int_equal((int)pc_num(info, "pid"), getpid());
    assert_string_equal(pc_str(info, "soc"), aclrtGetSocName());
    cJSON_Delete(info);
    free(t);
    snprintf(path, sizeof(path), "%.4000s/host/oacl_records.tmp", prof);
    assert_int_not_equal(access(path, F_OK), 0);

    ACL_OK(aclrtDestroyEvent(ev));
    ACL_OK(aclrtFree(d1));
    ACL_OK(aclrtFree(d2));
    ACL_OK(aclrtBinaryUnLoad(bin));
    ACL_OK(aclrtDestroyStream(s));
    rm_rf(dir);
}

static void test_api_stats_mode(void **state)
{
    (void)state;
    char *dir = make_tmp();
    ACL_OK(aclrtSetDevice(0));
    uint32_t dev0 = 0;
    aclprofConfig *cfg = aclprofCreateConfig(&dev0, 1, ACL_AICORE_NONE, NULL, ACL_PROF_API_STATS | ACL_PROF_TASK_TIME);
    ACL_OK(aclprofInit(dir, strlen(dir)));
    ACL_OK(aclprofStart(cfg));
    void *p;
    for (int i = 0; i < 3; i++) {
        ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_OK(aclrtFree(p));
    }
    ACL_OK(aclprofStop(cfg));
    ACL_OK(aclprofFinalize());
    ACL_OK(aclprofDestroyConfig(cfg));
    char prof[4200], path[4400];
    assert_int_equal(pc_prof_dirs(dir, prof, sizeof(prof)), 1);
    snprintf(path, sizeof(path), "%.4000s/mindstudio_profiler_output", prof);
    assert_int_not_equal(access(path, F_OK), 0);
    snprintf(path, sizeof(path), "%.4000s/host/acl_api_total_time.csv", prof);
    char *t = pc_read(path);
    assert_non_null(t);
    assert_memory_equal(t, "thread,acl_api_total_time(ns)\n", strlen("thread,acl_api_total_time(ns)\n"));
    free(t);
    snprintf(path, sizeof(path), "%.4000s/host/acl_api_statistics.csv", prof);
    t = pc_read(path);
    assert_non_null(t);
    const char *head = "thread,api_name,api_type,api_average_time(ns),api_max_time(ns),api_min_time(ns),api_count\n";
    assert_memory_equal(t, head, strlen(head));
    char row[64];
    snprintf(row, sizeof(row), "\n%d,aclrtMalloc,acl,", (int)gettid());
    const char *at = strstr(t, row);
    assert_non_null(at);
    assert_non_null(strstr(at, ",3\n"));
    free(t);
    rm_rf(dir);
}

/* ---- msproftx ----------------------------------------------------------------------------------- */

static void test_msproftx_rules(void **state)
{
    (void)state;
    /* before any session */
    assert_null(aclprofCreateStamp());
    int fake;
    assert_int_equal(aclprofMark(&fake), -1);
    ACL_ERR(aclprofPush(NULL), ACL_ERROR_INVALID_PARAM, "stamp is NULL");
    ACL_ERR(aclprofRangeStart(&fake, NULL), ACL_ERROR_INVALID_PARAM, "rangeId is NULL");
    uint32_t rid;
    ACL_ERR(aclprofRangeStart(NULL, &rid), ACL_ERROR_INVALID_PARAM, "stamp is NULL");
    assert_int_equal(aclprofPop(), -1);
    ACL_ERR(aclprofRangePop(), ACL_ERROR_INVALID_PARAM, "no aclprofRangePushEx");
    ACL_ERR(aclprofRangePushEx(NULL), ACL_ERROR_INVALID_PARAM, "attr is NULL");
    aclprofEventAttributes attr = {.version = 1, .size = sizeof(attr), .messageType = 1};
    assert_int_equal(aclprofRangePushEx(&attr), -1);

    char *dir = make_tmp();
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    aclprofConfig *cfg = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
    ACL_OK(aclprofInit(dir, strlen(dir)));
    ACL_OK(aclprofStart(cfg));
    void *stamps[101];
    for (int i = 0; i < 100; i++)
        assert_non_null(stamps[i] = aclprofCreateStamp());
    assert_null(aclprofCreateStamp()); /* the pool holds 100 */
    assert_int_equal(aclprofPop(), -1);
    assert_int_equal(aclprofSetStampTraceMessage(stamps[0], "x", 128), -1);
    assert_int_equal(aclprofSetStampTraceMessage(NULL, "x", 1), -1);
    assert_int_equal(aclprofSetStampTraceMessage(stamps[0], NULL, 1), -1);
    assert_int_equal(aclprofMarkEx("m", 1, NULL), -1);
    static char m156[157];
    memset(m156, 'm', 156);
    assert_int_equal(aclprofMarkEx(m156, 156, s), -1);
    assert_int_equal(aclprofMarkEx("mm", 1, s), -1);
    assert_int_equal(aclprofMarkEx("", 0, s), -1);
    assert_int_equal(aclprofMarkEx(m156, 155, s), -1); /* length is not strlen */
    m156[155] = '\0';
    assert_int_equal(aclprofMarkEx(m156, 155, s), 0);
    assert_int_equal(aclprofRangeStop(12345), -1);
    assert_int_equal(aclprofRangeStop(5), -1); /* never started */
    ACL_OK(aclprofSetStampTraceMessage(stamps[5], "range five", 10));
    ACL_OK(aclprofRangeStart(stamps[5], &rid));
    assert_int_equal(rid, 5);
    ACL_OK(aclprofRangeStop(rid));
    assert_int_equal(aclprofRangeStop(rid), -1); /* once */
    assert_int_equal(aclprofMark(&fake), -1);     /* not a pool stamp */
    assert_int_equal(aclprofMark(NULL), -1);
    assert_int_equal(aclprofPush(&fake), -1);
    assert_int_equal(aclprofRangeStart(&fake, &rid), -1);
    assert_int_equal(rid, 5); /* untouched */
    /* tensor-info ranges */
    aclprofTensor tensors[2] = {{.type = 0, .shapeDim = 2, .shape = {3, 4}}, {.type = 1, .shapeDim = 1, .shape = {12}}};
    aclprofTensorInfo ti = {.opNameId = aclprofStr2Id("my_op"),
                            .opTypeId = aclprofStr2Id("MyType"),
                            .tensorNum = 2,
                            .blockNums = 4,
                            .stream = s,
                            .tensors = tensors};
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    attr.message.tensorInfo = &ti;
    ACL_OK(aclprofRangePushEx(&attr));
    ACL_OK(aclprofRangePop());
    ACL_ERR(aclprofRangePop(), ACL_ERROR_INVALID_PARAM, "no aclprofRangePushEx");
    ti.stream = (void *)&fake; /* not a stream */
    ACL_OK(aclprofRangePushEx(&attr));
    assert_int_equal(aclprofRangePop(), -1);
    ACL_OK(aclrtSynchronizeStream(s));
    for (int i = 0; i < 100; i++)
        aclprofDestroyStamp(stamps[i]);
    aclprofDestroyStamp(&fake); /* ignored */
    aclprofDestroyStamp(NULL);
    ACL_OK(aclprofStop(cfg));
    ACL_OK(aclprofFinalize());
    ACL_OK(aclprofDestroyConfig(cfg));
    char prof[4200];
    assert_int_equal(pc_prof_dirs(dir, prof, sizeof(prof)), 1);
    cJSON *tl = pc_timeline(prof);
    assert_non_null(tl);
    assert_int_equal(count_x(tl, "range five", NULL), 1);
    assert_int_equal(count_x(tl, m156, NULL), 2); /* host marker_ex and its device side */
    const cJSON *op = find_x(tl, "my_op");
    assert_non_null(op);
    assert_non_null(strstr(pc_str(pc_args(op), "shapes"), "inputs \"3,4\" outputs \"12\""));
    cJSON_Delete(tl);
    ACL_OK(aclrtDestroyStream(s));
    rm_rf(dir);
}

static void test_str2id(void **state)
{
    (void)state;
    assert_true(aclprofStr2Id("") == UINT64_MAX);
    assert_true(aclprofStr2Id(NULL) == UINT64_MAX);
    assert_true(aclprofStr2Id("a") == ((97ull << 32) | 97));
    assert_true(aclprofStr2Id("ab") == (((97ull * 29 + 98) << 32) | (97 * 131 + 98)));
    /* signed chars count as negative numbers */
    assert_true(aclprofStr2Id("\xff") == ((uint64_t)(uint32_t)-1 << 32 | (uint32_t)-1));
}

static void test_step_info(void **state)
{
    (void)state;
    char *dir = make_tmp();
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    int32_t sid;
    ACL_OK(aclrtStreamGetId(s, &sid));
    ACL_ERR(aclprofGetStepTimestamp(NULL, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM, "stepInfo is NULL");
    aclprofStepInfo *a = aclprofCreateStepInfo(), *b = aclprofCreateStepInfo();
    assert_true(a && b);
    uint32_t dev0 = 0;
    aclprofConfig *cfg = aclprofCreateConfig(&dev0, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
    ACL_OK(aclprofInit(dir, strlen(dir)));
    ACL_OK(aclprofStart(cfg));
    ACL_OK(aclprofGetStepTimestamp(a, ACL_STEP_START, s));
    ACL_ERR(aclprofGetStepTimestamp(a, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM, "already has its start");
    ACL_OK(aclprofGetStepTimestamp(a, ACL_STEP_END, s));
    ACL_ERR(aclprofGetStepTimestamp(a, (aclprofStepTag)7, s), ACL_ERROR_INVALID_PARAM, "already has its end");
    ACL_ERR(aclprofGetStepTimestamp(b, ACL_STEP_START, (aclrtStream)&dev0), ACL_ERROR_GE_FAILURE, "queued");
    ACL_OK(aclprofGetStepTimestamp(b, ACL_STEP_START, s)); /* the failure changed nothing */
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclprofStop(cfg));
    ACL_OK(aclprofFinalize());
    ACL_OK(aclprofDestroyConfig(cfg));
    char prof[4200];
    assert_int_equal(pc_prof_dirs(dir, prof, sizeof(prof)), 1);
    cJSON *tl = pc_timeline(prof);
    assert_non_null(tl);
    /* the step objects got consecutive indices; a's iteration slice exists */
    int iterations = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, tl)
    {
        const char *nm = pc_str(e, "name");
        if (nm && !strncmp(nm, "Iteration ", 10)) {
            iterations++;
            assert_string_equal(pc_thread(tl, pc_num(e, "pid"), 70000), "Step Trace");
        }
    }
    assert_int_equal(iterations, 1);
    assert_int_equal(count_tasks(tl, "PROFILER_TRACE_EX", sid), 3);
    cJSON_Delete(tl);
    aclprofDestroyStepInfo(a);
    aclprofDestroyStepInfo(b);
    aclprofDestroyStepInfo(NULL);
    ACL_OK(aclrtDestroyStream(s));
    rm_rf(dir);
}

/* ---- mstx ---------------------------------------------------------------------------------------- */

static void test_mstx_rules(void **state)
{
    (void)state;
    /* no session: nothing is recorded, ranges are 0 */
    assert_int_equal(mstxRangeStartA("x", NULL), 0);
    uint64_t tool = 42;
    mstxGetToolId(&tool);
    assert_int_equal(tool, MSTX_TOOL_INVALID_ID);
    mstxGetToolId(NULL);
    mstxMarkA("nothing", NULL);
    assert_null(mstxDomainCreateA("default"));
    assert_null(mstxDomainCreateA(NULL));
    assert_null(mstxDomainCreateA("=bad"));
    assert_null(mstxDomainCreateA(""));
    mstxDomainHandle_t d1 = mstxDomainCreateA("dom"), d2 = mstxDomainCreateA("dom");
    assert_non_null(d1);
    assert_ptr_equal(d1, d2);
    char *dir = make_tmp();
    aclprofConfig *cfg = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
    ACL_OK(aclprofInit(dir, strlen(dir)));
    ACL_OK(aclprofStart(cfg));
    mstxRangeId a = mstxRangeStartA("a", NULL), b = mstxRangeStartA("b", NULL);
    assert_true(a >= 1 && b > a);
    assert_int_equal(mstxRangeStartA("=x", NULL), 0);
    assert_int_equal(mstxRangeStartA("@x", NULL), 0);
    assert_int_equal(mstxRangeStartA(NULL, NULL), 0);
    assert_int_equal(mstxDomainRangeStartA(NULL, "x", NULL), 0);
    mstxDomainDestroy(d1);
    assert_int_equal(mstxDomainRangeStartA(d1, "x", NULL), 0); /* destroyed */
    assert_ptr_equal(mstxDomainCreateA("dom"), d1);            /* and back */
    mstxRangeId c = mstxDomainRangeStartA(d1, "c", NULL);
    assert_true(c > b);
    mstxRangeEnd(c);            /* another domain's id: ignored */
    mstxDomainRangeEnd(d1, a);  /* the default domain's: ignored */
    mstxRangeEnd(b);            /* overlaps a without nesting */
    mstxRangeEnd(a);
    mstxDomainRangeEnd(d1, c);
    mstxRangeEnd(a); /* already ended */
    mstxRangeEnd(0);
    ACL_OK(aclprofStop(cfg));
    ACL_OK(aclprofFinalize());
    ACL_OK(aclprofDestroyConfig(cfg));
    char prof[4200];
    assert_int_equal(pc_prof_dirs(dir, prof, sizeof(prof)), 1);
    cJSON *tl = pc_timeline(prof);
    assert_non_null(tl);
    char why[256] = "";
    if (!pc_tracks_sane(tl, why, sizeof(why)))
        fail_msg("%s", why);
    assert_int_equal(count_x(tl, "a", NULL), 1);
    assert_int_equal(count_x(tl, "b", NULL), 1);
    assert_int_equal(count_x(tl, "c", NULL), 1);
    /* b started after a and ended before it: nested on one track; c
       overlaps b's end... every track nests (checked above); a companion
       track exists when needed */
    const cJSON *ra = find_x(tl, "a"), *rb = find_x(tl, "b");
    assert_true(pc_num(ra, "tid") == pc_num(rb, "tid") || pc_num(rb, "tid") >= 0x40000000);
    cJSON_Delete(tl);
    rm_rf(dir);
}

static void test_mstx_overlap_companion(void **state)
{
    (void)state;
    char *dir = make_tmp();
    aclprofConfig *cfg = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
    ACL_OK(aclprofInit(dir, strlen(dir)));
    ACL_OK(aclprofStart(cfg));
    mstxRangeId a = mstxRangeStartA("first", NULL);
    mstxRangeId b = mstxRangeStartA("second", NULL);
    test_sleep_ms(2);
    mstxRangeEnd(a); /* a ends inside b: not nested */
    test_sleep_ms(2);
    mstxRangeEnd(b);
    ACL_OK(aclprofStop(cfg));
    ACL_OK(aclprofFinalize());
    ACL_OK(aclprofDestroyConfig(cfg));
    char prof[4200];
    assert_int_equal(pc_prof_dirs(dir, prof, sizeof(prof)), 1);
    cJSON *tl = pc_timeline(prof);
    assert_non_null(tl);
    char why[256] = "";
    if (!pc_tracks_sane(tl, why, sizeof(why)))
        fail_msg("%s", why);
    const cJSON *ra = find_x(tl, "first"), *rb = find_x(tl, "second");
    assert_true(ra && rb);
    assert_int_equal((uint32_t)pc_num(ra, "tid"), (uint32_t)gettid());
    assert_int_equal((uint32_t)pc_num(rb, "tid"), (uint32_t)gettid() + 0x40000000u);
    char want[64];
    snprintf(want, sizeof(want), "Thread %d (ranges)", (int)gettid());
    assert_string_equal(pc_thread(tl, pc_num(rb, "pid"), pc_num(rb, "tid")), want);
    cJSON_Delete(tl);
    rm_rf(dir);
}

static void test_mstx_mem(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    void *pool;
    ACL_OK(aclrtMalloc(&pool, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    mstxMemVirtualRangeDesc_t range = {.deviceId = 0, .ptr = pool, .size = 1 << 20};
    mstxMemHeapDesc_t desc = {.usage = MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR,
                              .type = MSTX_MEM_TYPE_VIRTUAL_ADDRESS,
                              .typeSpecificDesc = &range};
    assert_null(mstxMemHeapRegister(globalDomain, NULL));
    mstxMemVirtualRangeDesc_t too_big = {.deviceId = 0, .ptr = pool, .size = (1 << 20) + 1};
    mstxMemHeapDesc_t bad = desc;
    bad.typeSpecificDesc = &too_big;
    assert_null(mstxMemHeapRegister(globalDomain, &bad));
    mstxMemVirtualRangeDesc_t other_dev = {.deviceId = 1, .ptr = pool, .size = 16};
    bad.typeSpecificDesc = &other_dev;
    assert_null(mstxMemHeapRegister(globalDomain, &bad));
    int host;
    mstxMemVirtualRangeDesc_t not_dev = {.deviceId = 0, .ptr = &host, .size = 4};
    bad.typeSpecificDesc = &not_dev;
    assert_null(mstxMemHeapRegister(globalDomain, &bad));
    mstxMemHeapHandle_t heap = mstxMemHeapRegister(globalDomain, &desc);
    assert_non_null(heap);
    mstxMemVirtualRangeDesc_t regions[2] = {{0, pool, 4096}, {0, (char *)pool + (1 << 20), 16}};
    mstxMemRegionHandle_t handles[2] = {NULL, NULL};
    mstxMemRegionsRegisterBatch_t batch = {heap, MSTX_MEM_TYPE_VIRTUAL_ADDRESS, 2, regions, handles};
    mstxMemRegionsRegister(globalDomain, &batch);
    assert_non_null(handles[0]);
    assert_null(handles[1]); /* outside the heap */
    mstxMemRegionRef_t ref = {.refType = MSTX_MEM_REGION_REF_TYPE_HANDLE, .handle = handles[0]};
    mstxMemRegionsUnregisterBatch_t unreg = {1, &ref};
    mstxMemRegionsUnregister(globalDomain, &unreg);
    mstxMemRegionsUnregister(globalDomain, NULL);
    mstxMemHeapUnregister(globalDomain, heap);
    mstxMemHeapUnregister(globalDomain, heap); /* unknown now: nothing */
    ACL_OK(aclrtFree(pool));
}

/* ---- subscription -------------------------------------------------------------------------------- */

static uint32_t crc32c_sig(const uint8_t *rec)
{
    uint32_t table[256];
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[n] = c;
    }
    assert_int_equal(table[1], 0xF26B8303u);
    assert_int_equal(table[255], 0xAD7D5351u);
    uint32_t sig = 0xFFFFFFFFu;
    for (size_t i = 4; i < 80; i++)
        sig = table[(sig ^ rec[i]) & 0xFF] ^ (sig >> 8);
    return sig;
}

static void make_record(uint8_t *rec, uint32_t model, uint32_t flag, uint32_t tid, uint64_t start, uint64_t end)
{
    memset(rec, 0, 80);
    memcpy(rec + 4, &model, 4);
    memcpy(rec + 8, &flag, 4);
    memcpy(rec + 12, &tid, 4);
    uint64_t dur = end - start, idx = 0;
    memcpy(rec + 16, &idx, 8);
    memcpy(rec + 24, &dur, 8);
    memcpy(rec + 32, &start, 8);
    memcpy(rec + 40, &end, 8);
    uint32_t sig = crc32c_sig(rec);
    memcpy(rec, &sig, 4);
}

static void test_subscription(void **state)
{
    (void)state;
    size_t size = 0;
    ACL_OK(aclprofGetOpDescSize(&size));
    assert_int_equal(size, 80);
    ACL_ERR(aclprofGetOpDescSize(NULL), ACL_ERROR_INVALID_PARAM, NULL);
    uint8_t recs[160];
    make_record(recs, 7, ACL_SUBSCRIBE_OP, 11, 1000, 1500);
    make_record(recs + 80, 9, ACL_SUBSCRIBE_OP_THREAD, 4242, 2000, 2600);
    uint32_t n = 0;
    ACL_OK(aclprofGetOpNum(recs, 160, &n));
    assert_int_equal(n, 2);
    ACL_ERR(aclprofGetOpNum(recs, 79, &n), ACL_ERROR_INVALID_PARAM, "multiple of 80");
    ACL_ERR(aclprofGetOpNum(NULL, 80, &n), ACL_ERROR_INVALID_PARAM, "opInfo is NULL");
    ACL_ERR(aclprofGetOpNum(recs, 80, NULL), ACL_ERROR_INVALID_PARAM, "opNumber is NULL");
    assert_int_equal(n, 2);
    assert_int_equal(aclprofGetOpStart(recs, 160, 1), 2000);
    assert_int_equal(aclprofGetOpEnd(recs, 160, 0), 1500);
    assert_int_equal(aclprofGetOpDuration(recs, 160, 1), 600);
    assert_int_equal(aclprofGetModelId(recs, 160, 1), 9);
    assert_int_equal(aclprofGetOpFlag(recs, 160, 1), ACL_SUBSCRIBE_OP_THREAD);
    assert_string_equal(aclprofGetOpAttriValue(recs, 160, 1, ACL_SUBSCRIBE_ATTRI_THREADID), "4242");
    assert_null(aclprofGetOpAttriValue(recs, 160, 0, ACL_SUBSCRIBE_ATTRI_THREADID));
    assert_null(aclprofGetOpAttriValue(recs, 160, 1, ACL_SUBSCRIBE_ATTRI_NONE));
    /* invalid data and indices */
    assert_int_equal(aclprofGetOpStart(recs, 160, 2), 0);
    assert_int_equal(aclprofGetOpStart(NULL, 160, 0), 0);
    assert_int_equal(aclprofGetModelId(recs, 160, 5), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclprofGetOpFlag(recs, 160, 2), ACL_SUBSCRIBE_NONE);
    assert_int_equal(aclprofGetOpFlag(NULL, 160, 0), ACL_SUBSCRIBE_NONE);
    recs[100] ^= 1; /* a flipped byte breaks the second record's signature */
    ACL_ERR(aclprofGetOpNum(recs, 160, &n), ACL_ERROR_INVALID_PARAM, "signature");
    assert_int_equal(aclprofGetOpStart(recs, 160, 0), 0);
    assert_int_equal(aclprofGetOpFlag(recs, 160, 0), ACL_SUBSCRIBE_NONE);
    recs[100] ^= 1;
    /* names: the records made here name no op of this process */
    size_t len = 0;
    char name[64] = "untouched";
    ACL_ERR(aclprofGetOpTypeLen(recs, 160, 0, &len), ACL_ERROR_INVALID_PARAM, "unknown or was already read");
    ACL_ERR(aclprofGetOpNameLen(recs, 160, 0, NULL), ACL_ERROR_INVALID_PARAM, "opNameLen is NULL");
    ACL_ERR(aclprofGetOpName(recs, 160, 3, name, sizeof(name)), ACL_ERROR_INVALID_PARAM, "index 3");
    ACL_ERR(aclprofGetOpType(recs, 160, 0, NULL, 8), ACL_ERROR_INVALID_PARAM, "opType is NULL");
    ACL_ERR(aclprofGetOpTypeLen(recs, 79, 0, &len), ACL_ERROR_INVALID_PARAM, "invalid op data");
    ACL_ERR(aclprofGetOpTypeLen(NULL, 160, 0, &len), ACL_ERROR_INVALID_PARAM, "opInfo is NULL");
    ACL_ERR(aclprofGetOpNameLen(recs, 160, 2, &len), ACL_ERROR_INVALID_PARAM, "index 2");
    ACL_ERR(aclprofGetOpName(NULL, 160, 0, name, sizeof(name)), ACL_ERROR_INVALID_PARAM, "opInfo is NULL");
    assert_int_equal(len, 0);
    assert_string_equal(name, "untouched");
    /* subscriptions: there are no models to subscribe */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_null(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds[1]));
    assert_null(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, NULL));
    aclprofSubscribeConfig *sc = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    assert_non_null(sc);
    ACL_ERR(aclprofModelSubscribe(9999, sc), ACL_ERROR_INVALID_MODEL_ID, "model 9999");
    ACL_ERR(aclprofModelUnSubscribe(9999), ACL_ERROR_INVALID_MODEL_ID, "not subscribed");
    ACL_OK(aclprofDestroySubscribeConfig(sc));
    ACL_ERR(aclprofDestroySubscribeConfig(sc), ACL_ERROR_INVALID_PARAM, "not a live config");
    ACL_ERR(aclprofDestroySubscribeConfig(NULL), ACL_ERROR_INVALID_PARAM, "NULL");
    close(fds[0]);
    close(fds[1]);
}

/* ---- command-line modes (child processes) ----------------------------------------------------------- */

/* One kernel and a copy, then exit without stopping anything. */
static void child_work(void)
{
    CHILD_CHECK(aclInit(NULL) == ACL_SUCCESS);
    CHILD_CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtStream s;
    CHILD_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS);
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHILD_CHECK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &bin) == ACL_SUCCESS);
    CHILD_CHECK(aclrtBinaryGetFunction(bin, "fill_u32", &f) == ACL_SUCCESS);
    void *d;
    CHILD_CHECK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    mstxRangeId r = mstxRangeStartA("child range", NULL);
    CHILD_CHECK(launch_fill(f, 4, s, d, 3, 16) == ACL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS);
    mstxRangeEnd(r);
    /* under OACL_PROFILE the API belongs to the command line */
    CHILD_CHECK(aclprofInit("/tmp", 4) == ACL_ERROR_PROF_ALREADY_RUN);
    CHILD_CHECK(aclprofStart(NULL) == ACL_ERROR_PROF_ALREADY_RUN);
    CHILD_CHECK(aclprofStop(NULL) == ACL_ERROR_PROF_ALREADY_RUN);
    CHILD_CHECK(aclprofFinalize() == ACL_ERROR_PROF_ALREADY_RUN);
}

/* Many small launches with a 1 MiB record buffer: records spill to disk. */
static void child_long_run(void)
{
    CHILD_CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHILD_CHECK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &bin) == ACL_SUCCESS);
    CHILD_CHECK(aclrtBinaryGetFunction(bin, "fill_u32", &f) == ACL_SUCCESS);
    void *d;
    CHILD_CHECK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    for (int i = 0; i < 3000; i++)
        CHILD_CHECK(launch_fill(f, 2, NULL, d, (uint32_t)i, 16) == ACL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeDevice() == ACL_SUCCESS);
}

static void child_init_section(void)
{
    const char *cfg = getenv("PROF_TEST_CFG");
    CHILD_CHECK(cfg != NULL);
    CHILD_CHECK(aclInit(cfg) == ACL_SUCCESS);
    CHILD_CHECK(aclprofInit("/tmp", 4) == ACL_ERROR_PROF_ALREADY_RUN);
    CHILD_CHECK(aclprofFinalize() == ACL_ERROR_PROF_ALREADY_RUN);
    CHILD_CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    void *d;
    CHILD_CHECK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHILD_CHECK(aclrtFree(d) == ACL_SUCCESS);
    CHILD_CHECK(aclFinalize() == ACL_SUCCESS); /* writes the files */
    const char *dir = getenv("PROF_TEST_DIR");
    CHILD_CHECK(pc_prof_dirs(dir, NULL, 0) == 1);
    /* the API is free again */
    CHILD_CHECK(aclprofInit(dir, strlen(dir)) == ACL_SUCCESS);
}

static void child_init_bad_section(void)
{
    const char *cfg = getenv("PROF_TEST_CFG");
    CHILD_CHECK(aclInit(cfg) == ACL_ERROR_INVALID_PARAM);
    CHILD_CHECK(strstr(aclGetRecentErrMsg(), "profiler key") != NULL);
    CHILD_CHECK(aclprofInit("/tmp", 4) == ACL_SUCCESS); /* no CMD mode came of it */
    CHILD_CHECK(aclprofFinalize() == ACL_SUCCESS);
}

static const struct oacl_child_mode g_modes[] = {
    {"work", child_work},
    {"long_run", child_long_run},
    {"init_section", child_init_section},
    {"init_bad_section", child_init_bad_section},
};

static void check_child_result(const char *dir, int kernels, int blocks_each)
{
    char prof[4200];
    assert_int_equal(pc_prof_dirs(dir, prof, sizeof(prof)), 1);
    assert_true(pc_prof_name_ok(strrchr(prof, '/') + 1));
    cJSON *tl = pc_timeline(prof);
    assert_non_null(tl);
    char why[256] = "";
    if (!pc_tracks_sane(tl, why, sizeof(why)))
        fail_msg("%s", why);
    assert_int_equal(count_x(tl, "fill_u32", "Ascend Hardware"), kernels);
    char blk[64];
    int total = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, tl)
    {
        const char *nm = pc_str(e, "name");
        if (nm && strstr(nm, " fill_u32") && !strncmp(nm, "Stream ", 7))
            total++;
    }
    (void)blk;
    assert_int_equal(total, kernels * blocks_each);
    cJSON_Delete(tl);
}

static void test_oacl_profile_env(void **state)
{
    (void)state;
    char *dir = make_tmp();
    char env[128];
    snprintf(env, sizeof(env), "OACL_PROFILE=%s", dir);
    ASSERT_CHILD_OK("work", env, "OACL_PROFILE_FLAGS=acl_api,task_time,msproftx");
    check_child_result(dir, 1, 4);
    char prof[4200];
    pc_prof_dirs(dir, prof, sizeof(prof));
    cJSON *tl = pc_timeline(prof);
    assert_int_equal(count_x(tl, "child range", NULL), 1);
    assert_int_equal(count_x(tl, "Runtime@KernelLaunch", NULL), 0); /* runtime_api was not asked for */
    assert_int_equal(count_x(tl, "AscendCL@aclrtLaunchKernelWithConfig", "CANN"), 1);
    cJSON_Delete(tl);
    rm_rf(dir);
}

static void test_long_run_spills(void **state)
{
    (void)state;
    char *dir = make_tmp();
    char env[128];
    snprintf(env, sizeof(env), "OACL_PROFILE=%s", dir);
    ASSERT_CHILD_OK("long_run", env, "OACL_PROFILE_BUFFER_MB=1", "OACL_PROFILE_FLAGS=task_time");
    check_child_result(dir, 3000, 2);
    char prof[4200], path[4400];
    pc_prof_dirs(dir, prof, sizeof(prof));
    snprintf(path, sizeof(path), "%.4000s/host/oacl_records.tmp", prof);
    assert_int_not_equal(access(path, F_OK), 0); /* the spill file is gone */
    assert_non_null(out_file(prof, "op_summary_", path, sizeof(path)));
    char *t = pc_read(path);
    assert_int_equal(pc_lines(t), 1 + 3000);
    free(t);
    rm_rf(dir);
}

static void test_init_file_section(void **state)
{
    (void)state;
    char *dir = make_tmp();
    char cfg[256], env_cfg[300], env_dir[300], json[512];
    snprintf(cfg, sizeof(cfg), "%s/acl.json", dir);
    snprintf(json, sizeof(json),
             "{\"profiler\": {\"switch\": \"on\", \"output\": \"%s/out\", \"task_time\": \"l1\", "
             "\"aic_metrics\": \"PipeUtilization\", \"storage_limit\": \"500MB\", \"sys_cpu_freq\": 50}}",
             dir);
    FILE *f = fopen(cfg, "w");
    fputs(json, f);
    fclose(f);
    snprintf(env_cfg, sizeof(env_cfg), "PROF_TEST_CFG=%s", cfg);
    snprintf(env_dir, sizeof(env_dir), "PROF_TEST_DIR=%s/out", dir);
    ASSERT_CHILD_OK("init_section", env_cfg, env_dir);
    /* an unknown key, and a bad value */
    const char *bad[] = {"{\"profiler\": {\"switch\": \"on\", \"colour\": \"red\"}}",
                         "{\"profiler\": {\"switch\": \"yes\"}}",
                         "{\"profiler\": {\"switch\": \"on\", \"aic_metrics\": \"PipeExecuteUtilization\"}}",
                         "{\"profiler\": {\"switch\": \"on\", \"sys_cpu_freq\": 51}}"};
    for (size_t i = 0; i < 4; i++) {
        f = fopen(cfg, "w");
        fputs(bad[i], f);
        fclose(f);
        ASSERT_CHILD_OK("init_bad_section", env_cfg);
    }
    rm_rf(dir);
}

/* bin/msprof runs a program (this one, in child mode) with profiling on. */
static void test_msprof_launcher(void **state)
{
    (void)state;
    char *dir = make_tmp();
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    assert_true(n > 0);
    self[n] = '\0';
    char out[300];
    snprintf(out, sizeof(out), "--output=%s", dir);
    char *argv[] = {(char *)"msprof", out, (char *)"--msproftx=on", self, (char *)OACL_CHILD_FLAG, (char *)"work", NULL};
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, OACL_TEST_MSPROF, NULL, NULL, argv, environ), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    check_child_result(dir, 1, 4);
    char prof[4200], path[4400];
    pc_prof_dirs(dir, prof, sizeof(prof));
    cJSON *tl = pc_timeline(prof);
    assert_int_equal(count_x(tl, "child range", NULL), 1);
    assert_int_equal(count_x(tl, "Runtime@KernelLaunch", "CANN"), 1);
    cJSON_Delete(tl);
    snprintf(path, sizeof(path), "%.4000s/mindstudio_profiler_output/oacl_timeline.gp", prof);
    assert_int_equal(access(path, F_OK), 0);
    /* the picture, when gnuplot is installed */
    snprintf(path, sizeof(path), "%.4000s/mindstudio_profiler_output/timeline.png", prof);
    if (access("/usr/bin/gnuplot", X_OK) == 0) {
        char *png = pc_read(path);
        assert_non_null(png);
        assert_memory_equal(png, "\x89PNG", 4);
        free(png);
    } else {
        print_message("gnuplot not installed: timeline.png not checked\n");
    }
    rm_rf(dir);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof(g_modes) / sizeof(g_modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_init_bad_inputs, setup, setup),
        cmocka_unit_test_setup_teardown(test_set_config, setup, setup),
        cmocka_unit_test_setup_teardown(test_create_config, setup, setup),
        cmocka_unit_test_setup_teardown(test_start_stop_rules, setup, setup),
        cmocka_unit_test_setup_teardown(test_full_session, setup, setup),
        cmocka_unit_test_setup_teardown(test_api_stats_mode, setup, setup),
        cmocka_unit_test_setup_teardown(test_msproftx_rules, setup, setup),
        cmocka_unit_test_setup_teardown(test_str2id, setup, setup),
        cmocka_unit_test_setup_teardown(test_step_info, setup, setup),
        cmocka_unit_test_setup_teardown(test_mstx_rules, setup, setup),
        cmocka_unit_test_setup_teardown(test_mstx_overlap_companion, setup, setup),
        cmocka_unit_test_setup_teardown(test_mstx_mem, setup, setup),
        cmocka_unit_test_setup_teardown(test_subscription, setup, setup),
        cmocka_unit_test(test_oacl_profile_env),
        cmocka_unit_test(test_long_run_spills),
        cmocka_unit_test(test_init_file_section),
        cmocka_unit_test(test_msprof_launcher),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
