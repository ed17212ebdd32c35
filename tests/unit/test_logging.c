/*
 * CANN's log engine (profiling-and-tools.md §3.7, §5): aclAppLog's filters,
 * text and truncation, the level and destination variables, plog files,
 * stdout, log callbacks and the acllog / Alog functions. Every case that
 * depends on the environment runs in a child process (levels are read
 * once per process).
 */
#include <dirent.h>
#include <ftw.h>
#include <regex.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "child_process.h"
#include "test_support.h"

/* The log headers, as a program uses them. */
#include "base/acl_log.h"
#include "base/alog_pub.h"

static char g_out[65536];

static bool line_matches(const char *line, const char *pattern)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return false;
    bool ok = regexec(&re, line, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

static int count_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

/* ---- children ------------------------------------------------------------------------ */

static void child_app_log(void)
{
    ACL_APP_LOG(ACL_INFO, "x=%d", 1);
}

static void child_app_log_debug(void)
{
    ACL_APP_LOG(ACL_DEBUG, "debug %s", "shown");
}

static void child_app_log_long(void)
{
    static char big[2001];
    memset(big, 'y', 2000);
    ACL_APP_LOG(ACL_ERROR, "%s", big);
}

static void child_app_log_bad(void)
{
    aclAppLog(ACL_ERROR, NULL, "f.c", 1, "x");       /* ignored: func NULL */
    aclAppLog(ACL_ERROR, "f", NULL, 1, "x");         /* ignored: file NULL */
    aclAppLog(ACL_ERROR, "f", "f.c", 1, NULL);       /* ignored: fmt NULL */
    aclAppLog((aclLogLevel)9, "f", "f.c", 1, "bad"); /* not a level */
    const char *fmt = "count %n";
    aclAppLog(ACL_ERROR, "f", "f.c", 1, fmt, NULL);
}

/* An API-layer failure and a runtime message, recorded in CANN's format. */
static void child_api_failure(void)
{
    CHILD_CHECK(aclrtMalloc(NULL, 1, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);
}

static int32_t g_cb_count;
static char g_cb_last[1200];

static int32_t record_cb(void *user, uint32_t type, const char *content, size_t len)
{
    (void)type;
    (*(int *)user)++;
    g_cb_count++;
    snprintf(g_cb_last, sizeof(g_cb_last), "%.*s", (int)len, content);
    /* logging from a callback is dropped, not recursive */
    acllogRecord(APP, DLOG_ERROR, "from inside the callback");
    return 0;
}

static void child_callbacks(void)
{
    acllogCallbackHandle h[17];
    int user = 0;
    CHILD_CHECK(acllogRegisterCallback(NULL, NULL, OUTPUT_TYPE_DEBUG, &h[0]) == -1);
    CHILD_CHECK(acllogRegisterCallback(record_cb, &user, OUTPUT_TYPE_DEBUG, NULL) == -1);
    CHILD_CHECK(acllogRegisterCallback(record_cb, &user, OUTPUT_TYPE_MAX, &h[0]) == -1);
    for (int i = 0; i < 16; i++) {
        CHILD_CHECK(acllogRegisterCallback(record_cb, &user, OUTPUT_TYPE_BOTH, &h[i]) == 0);
        CHILD_CHECK_INT(h[i], i + 1);
    }
    CHILD_CHECK(acllogRegisterCallback(record_cb, &user, OUTPUT_TYPE_DEBUG, &h[16]) == -1);
    CHILD_CHECK(acllogUnregisterCallback(999) == -1);
    for (int i = 1; i < 16; i++)
        CHILD_CHECK(acllogUnregisterCallback(h[i]) == 0);
    CHILD_CHECK(acllogUnregisterCallback(h[1]) == -1); /* already gone */
    acllogRecord(APP, DLOG_ERROR, "to the callback %d", 5);
    CHILD_CHECK_INT(user, 1);
    CHILD_CHECK(strstr(g_cb_last, "[ERROR] APP(") == g_cb_last);
    CHILD_CHECK(strstr(g_cb_last, "to the callback 5") != NULL);
    acllogRecord(APP, DLOG_INFO, "filtered out at the default level");
    CHILD_CHECK_INT(user, 1);
    CHILD_CHECK(acllogUnregisterCallback(h[0]) == 0);
    acllogRecord(APP, DLOG_ERROR, "nobody listens");
    CHILD_CHECK_INT(user, 1);
}

static void child_levels(void)
{
    /* default: ERROR everywhere */
    CHILD_CHECK(acllogCheckDebugLevel(-1, DLOG_ERROR) == 0);
    CHILD_CHECK(acllogCheckDebugLevel(APP, DLOG_ERROR) == 1);
    CHILD_CHECK(acllogCheckDebugLevel(APP, DLOG_WARN) == 0);
    CHILD_CHECK(acllogCheckDebugLevel(0xFF00, DLOG_ERROR) == 1); /* a user module: the global level */
    CHILD_CHECK(acllogCheckDebugLevel(100, DLOG_ERROR) == 0);    /* neither */
    CHILD_CHECK(acllogCheckDebugLevel(0x10000, DLOG_ERROR) == 0);
    CHILD_CHECK(acllogCheckDebugLevel(APP, DLOG_NULL) == 0);
    CHILD_CHECK(AlogCheckDebugLevel(APP | STDOUT_LOG_MASK, DLOG_ERROR) == 1);
    CHILD_CHECK(AlogCheckDebugLevel(APP, DLOG_INFO) == 0);
    CHILD_CHECK(AlogRecord(APP, DLOG_TYPE_DEBUG, DLOG_ERROR, NULL) == -1);
    CHILD_CHECK(AlogRecord(APP, DLOG_TYPE_DEBUG, DLOG_INFO, "filtered") == 0);
}

static void child_module_levels(void)
{
    /* ASCEND_MODULE_LOG_LEVEL=ASCENDCL=0:APP=0 (from the parent) */
    CHILD_CHECK(acllogCheckDebugLevel(APP, DLOG_DEBUG) == 1);
    CHILD_CHECK(acllogCheckDebugLevel(GE, DLOG_DEBUG) == 0);
    ACL_APP_LOG(ACL_DEBUG, "module level %d", 0);
}

static void child_stdout_mask(void)
{
    /* files are the destination; the mask prints this record as well */
    CHILD_CHECK(AlogRecord(APP | STDOUT_LOG_MASK, DLOG_TYPE_RUN, DLOG_INFO, "run record %d", 3) == 0);
    CHILD_CHECK(AlogRecord(APP, DLOG_TYPE_DEBUG, DLOG_ERROR, "file only") == 0);
}

static void child_soc(void)
{
    const char *soc = aclrtGetSocName();
    if (soc)
        printf("%s\n", soc);
}

static const struct oacl_child_mode g_modes[] = {
    {"app_log", child_app_log},         {"app_log_debug", child_app_log_debug},
    {"app_log_long", child_app_log_long}, {"app_log_bad", child_app_log_bad},
    {"api_failure", child_api_failure}, {"callbacks", child_callbacks},
    {"levels", child_levels},           {"module_levels", child_module_levels},
    {"stdout_mask", child_stdout_mask}, {"soc", child_soc},
};

/* ---- tests ----------------------------------------------------------------------------- */

#define LINE_RE "^\\[INFO\\] APP\\([0-9]+,test_logging\\):[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}\\.[0-9]{3} "

static void test_app_log_stdout(void **state)
{
    (void)state;
    const char *env[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_GLOBAL_LOG_LEVEL=1", NULL};
    assert_int_equal(oacl_run_child("app_log", env, g_out, sizeof(g_out)), 0);
    assert_int_equal(count_lines(g_out), 1);
    g_out[strlen(g_out) - 1] = '\0';
    if (!line_matches(g_out, LINE_RE "[0-9]+ child_app_log:[^:]+:[0-9]+: \"x=1\"$"))
        fail_msg("line does not match: %s", g_out);
    /* level 3: nothing */
    const char *env3[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_GLOBAL_LOG_LEVEL=3", NULL};
    assert_int_equal(oacl_run_child("app_log", env3, g_out, sizeof(g_out)), 0);
    assert_string_equal(g_out, "");
    /* the deprecated spelling works; the new one wins when both are set */
    const char *old[] = {"ASCEND_SLOG_PRINT_TO_STDOUT=1", "ASCEND_LOG_PRINT_TO_STDOUT", "ASCEND_GLOBAL_LOG_LEVEL=1",
                         NULL};
    assert_int_equal(oacl_run_child("app_log", old, g_out, sizeof(g_out)), 0);
    assert_int_equal(count_lines(g_out), 1);
    char dir[] = "/tmp/oacl-log-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char root[128];
    snprintf(root, sizeof(root), "ASCEND_PROCESS_LOG_PATH=%s", dir);
    const char *both[] = {"ASCEND_SLOG_PRINT_TO_STDOUT=1", "ASCEND_LOG_PRINT_TO_STDOUT=0", "ASCEND_GLOBAL_LOG_LEVEL=1",
                          root, NULL};
    assert_int_equal(oacl_run_child("app_log", both, g_out, sizeof(g_out)), 0);
    assert_string_equal(g_out, ""); /* files instead */
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_app_log_filters(void **state)
{
    (void)state;
    /* DEBUG needs both ASCENDCL and APP at 0 */
    const char *env[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_GLOBAL_LOG_LEVEL=1", NULL};
    assert_int_equal(oacl_run_child("app_log_debug", env, g_out, sizeof(g_out)), 0);
    assert_string_equal(g_out, "");
    const char *mod[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_MODULE_LOG_LEVEL=ASCENDCL=0:APP=0", NULL};
    assert_int_equal(oacl_run_child("module_levels", mod, g_out, sizeof(g_out)), 0);
    assert_int_equal(count_lines(g_out), 1);
    assert_non_null(strstr(g_out, "[DEBUG] APP("));
    assert_non_null(strstr(g_out, "\"module level 0\""));
    /* one bad entry voids the whole variable: the global level applies */
    const char *bad[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_MODULE_LOG_LEVEL=ASCENDCL=0:APP=0:BAD=1", NULL};
    assert_int_equal(oacl_run_child("app_log_debug", bad, g_out, sizeof(g_out)), 0);
    assert_string_equal(g_out, "");
    const char *bad2[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_MODULE_LOG_LEVEL=ASCENDCL=0:APP=9", NULL};
    assert_int_equal(oacl_run_child("app_log_debug", bad2, g_out, sizeof(g_out)), 0);
    assert_string_equal(g_out, "");
    /* ASCENDCL at NULL (4) still lets INFO through its filter */
    const char *null[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_MODULE_LOG_LEVEL=ASCENDCL=4:APP=1", NULL};
    assert_int_equal(oacl_run_child("app_log", null, g_out, sizeof(g_out)), 0);
    assert_int_equal(count_lines(g_out), 1);
}

static void test_app_log_truncation(void **state)
{
    (void)state;
    const char *env[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", NULL};
    assert_int_equal(oacl_run_child("app_log_long", env, g_out, sizeof(g_out)), 0);
    assert_int_equal(count_lines(g_out), 1);
    /* the record after the time stamp: exactly 1023 characters */
    char *nl = strchr(g_out, '\n');
    *nl = '\0';
    char *content = strstr(g_out, ".");
    assert_non_null(content);
    content = strchr(content, ' ') + 1; /* after "hh:mm:ss.mmm.uuu " */
    assert_int_equal(strlen(content), 1023);
    assert_string_equal(content + 1023 - 14, "...[truncated]");
}

static void test_app_log_bad_inputs(void **state)
{
    (void)state;
    const char *env[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_GLOBAL_LOG_LEVEL=0", NULL};
    assert_int_equal(oacl_run_child("app_log_bad", env, g_out, sizeof(g_out)), 0);
    /* only the invalid format is reported */
    assert_int_equal(count_lines(g_out), 1);
    assert_non_null(strstr(g_out, "[ERROR] APP("));
    assert_non_null(strstr(g_out, " aclAppLog format string is invalid\n"));
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static bool plog_file(const char *dir, const char *kind, char *out, size_t len)
{
    char d[256];
    snprintf(d, sizeof(d), "%s/%s/plog", dir, kind);
    DIR *dd = opendir(d);
    if (!dd)
        return false;
    struct dirent *e;
    bool found = false;
    while ((e = readdir(dd)))
        if (!strncmp(e->d_name, "plog-", 5)) {
            snprintf(out, len, "%s/%.200s", d, e->d_name);
            found = true;
        }
    closedir(dd);
    return found;
}

static char *slurp(const char *path)
{
    static char buf[65536];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void test_log_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/oacl-log-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char root[128];
    snprintf(root, sizeof(root), "ASCEND_PROCESS_LOG_PATH=%s", dir);
    const char *env[] = {root, "ASCEND_GLOBAL_LOG_LEVEL=1", "ASCEND_LOG_PRINT_TO_STDOUT", "ASCEND_SLOG_PRINT_TO_STDOUT",
                         NULL};
    assert_int_equal(oacl_run_child("app_log", env, g_out, sizeof(g_out)), 0);
    assert_string_equal(g_out, "");
    char path[512];
    assert_true(plog_file(dir, "debug", path, sizeof(path)));
    /* plog-<pid>_<17 digits>.log */
    assert_true(line_matches(strrchr(path, '/') + 1, "^plog-[0-9]+_[0-9]{17}\\.log$"));
    char *t = slurp(path);
    assert_int_equal(count_lines(t), 1);
    assert_non_null(strstr(t, "\"x=1\"\n"));
    nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);

    /* API-layer failures are ERROR records of ASCENDCL at the default level */
    assert_non_null(mkdtemp(strcpy(dir, "/tmp/oacl-log-XXXXXX")));
    snprintf(root, sizeof(root), "ASCEND_PROCESS_LOG_PATH=%s", dir);
    const char *env2[] = {root, "ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_LOG_PRINT_TO_STDOUT", "ASCEND_SLOG_PRINT_TO_STDOUT",
                          NULL};
    assert_int_equal(oacl_run_child("api_failure", env2, g_out, sizeof(g_out)), 0);
    assert_true(plog_file(dir, "debug", path, sizeof(path)));
    t = slurp(path);
    assert_int_equal(count_lines(t), 1);
    if (!line_matches(t, "^\\[ERROR\\] ASCENDCL\\([0-9]+,test_logging\\):[-0-9:. ]+\\[memory\\.c:[0-9]+\\][0-9]+ "
                         "aclrtMalloc: devPtr is NULL \\(error 100000\\)\n$"))
        fail_msg("unexpected record: %s", t);
    nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);

    /* nothing logged: no files at all */
    assert_non_null(mkdtemp(strcpy(dir, "/tmp/oacl-log-XXXXXX")));
    snprintf(root, sizeof(root), "ASCEND_PROCESS_LOG_PATH=%s", dir);
    const char *env3[] = {root, "ASCEND_LOG_PRINT_TO_STDOUT", "ASCEND_SLOG_PRINT_TO_STDOUT", NULL};
    assert_int_equal(oacl_run_child("app_log", env3, g_out, sizeof(g_out)), 0);
    DIR *d = opendir(dir);
    int entries = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 0);
    /* run records and the stdout mask */
    const char *env4[] = {root, "ASCEND_LOG_PRINT_TO_STDOUT", "ASCEND_SLOG_PRINT_TO_STDOUT", NULL};
    assert_int_equal(oacl_run_child("stdout_mask", env4, g_out, sizeof(g_out)), 0);
    assert_int_equal(count_lines(g_out), 1);
    assert_non_null(strstr(g_out, "[INFO] APP("));
    assert_non_null(strstr(g_out, " run record 3\n"));
    assert_true(plog_file(dir, "run", path, sizeof(path)));
    assert_non_null(strstr(slurp(path), " run record 3\n"));
    assert_true(plog_file(dir, "debug", path, sizeof(path)));
    assert_non_null(strstr(slurp(path), " file only\n"));
    nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static void test_callbacks_and_levels(void **state)
{
    (void)state;
    const char *env[] = {"ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_MODULE_LOG_LEVEL", "ASCEND_LOG_PRINT_TO_STDOUT=1", NULL};
    assert_int_equal(oacl_run_child("callbacks", env, g_out, sizeof(g_out)), 0);
    assert_int_equal(oacl_run_child("levels", env, g_out, sizeof(g_out)), 0);
}

/* With every record on stdout, a SoC-detection program still prints its
 * SoC as the only bare line (README "SoC detection"). */
static void test_stdout_never_bare(void **state)
{
    (void)state;
    const char *env[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_GLOBAL_LOG_LEVEL=0", "OACL_SOC=NoSuchSoc", NULL};
    assert_int_equal(oacl_run_child("soc", env, g_out, sizeof(g_out)), 0);
    assert_non_null(strstr(g_out, "[ERROR] RUNTIME(")); /* the library's complaint, on stdout */
    for (char *line = strtok(g_out, "\n"); line; line = strtok(NULL, "\n"))
        assert_true(line[0] == '[');
    const char *env2[] = {"ASCEND_LOG_PRINT_TO_STDOUT=1", "ASCEND_GLOBAL_LOG_LEVEL=0", NULL};
    assert_int_equal(oacl_run_child("soc", env2, g_out, sizeof(g_out)), 0);
    int bare = 0;
    for (char *line = strtok(g_out, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] != '[') {
            bare++;
            assert_string_equal(line, "Ascend910B3");
        }
    assert_int_equal(bare, 1);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, sizeof(g_modes) / sizeof(g_modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_app_log_stdout),   cmocka_unit_test(test_app_log_filters),
        cmocka_unit_test(test_app_log_truncation), cmocka_unit_test(test_app_log_bad_inputs),
        cmocka_unit_test(test_log_files),        cmocka_unit_test(test_callbacks_and_levels),
        cmocka_unit_test(test_stdout_never_bare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
