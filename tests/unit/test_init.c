/*
 * Process initialisation and version queries (spec 1.5, 4.1, 5.1-5.2):
 * aclInit / aclFinalize / aclFinalizeReference with and without a
 * configuration file, the configuration keys with an effect (err_msg_mode,
 * defaultDevice), and aclsysGetVersionStr / aclsysGetVersionNum /
 * aclrtGetVersion.
 *
 * Initialisation state is process-wide, and the first successful aclInit
 * fixes the configuration for the whole process (a later re-initialisation
 * must bring the same content, acl-rt-misc.md correction C3): every test
 * runs in a fresh process of its own (run_fresh), and checks that need
 * yet another fresh process (a second configuration, the very first
 * aclFinalize, a different version.info) start child processes.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child_process.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static char g_tmpdir[256];

/* ---- helpers --------------------------------------------------------------- */

/* Writes a file under the temporary directory; returns its path (static
 * storage per call site is not needed: the caller copies if it keeps two). */
static const char *write_file_n(const char *name, const char *text, size_t len)
{
    static char path[512];
    snprintf(path, sizeof(path), "%s/%s", g_tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

static const char *write_file(const char *name, const char *text) { return write_file_n(name, text, strlen(text)); }

/* {"a":{"a":...{}...}} with `levels` objects, or {"a":[[...[]...]]} with
 * `levels` arrays inside the top-level object. */
static const char *nested_config(const char *name, int levels, int arrays)
{
    char text[4096] = "";
    size_t n = 0;
    if (!arrays) {
        for (int i = 0; i < levels - 1; i++)
            n += (size_t)snprintf(text + n, sizeof(text) - n, "{\"a\":");
        n += (size_t)snprintf(text + n, sizeof(text) - n, "{}");
        for (int i = 0; i < levels - 1; i++)
            text[n++] = '}';
    } else {
        n += (size_t)snprintf(text + n, sizeof(text) - n, "{\"a\":");
        for (int i = 0; i < levels; i++)
            text[n++] = '[';
        for (int i = 0; i < levels; i++)
            text[n++] = ']';
        text[n++] = '}';
    }
    text[n] = '\0';
    return write_file(name, text);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    chmod(path, 0700);
    return remove(path);
}

/* Not initialised (finalized once: a process that never initialised
 * accepts one aclFinalize), no device set, nothing pending in the error
 * state. (An aclInit here would fix the process's configuration.) */
static void reset_acl(void)
{
    while (aclFinalizeReference(NULL) == ACL_SUCCESS) {
    }
    (void)aclFinalize(); /* also drops a default device */
    oacl_test_reset_devices();
}

/* Is the library initialised? An init callback registered while it is runs
 * at once; registering and unregistering one changes nothing else. */
static int g_probe_calls;

static aclError probe_cb(const char *text, size_t len, void *user)
{
    (void)text;
    (void)len;
    (void)user;
    g_probe_calls++;
    return 12345; /* ignored at registration time */
}

static int is_initialized(void)
{
    g_probe_calls = 0;
    assert_int_equal(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, probe_cb, NULL), ACL_SUCCESS);
    assert_int_equal(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, probe_cb), ACL_SUCCESS);
    return g_probe_calls;
}

/* aclInit of a file holding text in a fresh process (child mode
 * init_file): its result must be want, with a message naming needle. */
static void init_fresh_n(const char *name, const char *text, size_t len, aclError want, const char *needle)
{
    const char *path = write_file_n(name, text, len);
    static char env_path[600], env_want[64], env_needle[400];
    snprintf(env_path, sizeof(env_path), "OACL_TEST_PATH=%s", path);
    snprintf(env_want, sizeof(env_want), "OACL_TEST_WANT=%d", want);
    snprintf(env_needle, sizeof(env_needle), "OACL_TEST_NEEDLE=%s", needle ? needle : "");
    const char *const env[] = {env_path, env_want, needle ? env_needle : "OACL_TEST_NEEDLE", NULL};
    int st = oacl_run_child("init_file", env, NULL, 0);
    if (st != 0)
        fail_msg("aclInit of '%s' in a fresh process: child exited with %d (see above)", text, st);
}

static void init_fresh(const char *name, const char *text, aclError want, const char *needle)
{
    init_fresh_n(name, text, strlen(text), want, needle);
}

static void child_init_file(void)
{
    const char *path = getenv("OACL_TEST_PATH"), *want = getenv("OACL_TEST_WANT");
    const char *needle = getenv("OACL_TEST_NEEDLE");
    CHILD_CHECK(path && want);
    aclError rc = aclInit(path);
    const char *msg = aclGetRecentErrMsg();
    if (rc != atoi(want) || (rc && (!msg || (needle && !strstr(msg, needle))))) {
        fprintf(stderr, "aclInit('%s') returned %d (%s), expected %s naming \"%s\"\n", path, rc,
                msg ? msg : "no message", want, needle ? needle : "");
        exit(1);
    }
    if (rc == ACL_SUCCESS)
        CHILD_OK(aclFinalize());
}

/* A failure on another thread (its message is left unread there). */
static void *fail_set_device(void *arg)
{
    (void)arg;
    (void)aclrtSetDevice(-7);
    return NULL;
}

struct get_device_result {
    aclError rc;
    int32_t dev;
    aclError stream_rc;
};

/* A fresh thread (no context of its own) asks for its device and uses a
 * stream there. */
static void *get_device_fresh(void *arg)
{
    struct get_device_result *r = arg;
    r->dev = -100;
    r->rc = aclrtGetDevice(&r->dev);
    aclrtStream s = NULL;
    r->stream_rc = aclrtCreateStream(&s);
    if (r->stream_rc == ACL_SUCCESS) {
        if (aclrtSynchronizeStream(s) != ACL_SUCCESS || aclrtDestroyStream(s) != ACL_SUCCESS)
            r->stream_rc = -1;
    }
    (void)aclGetRecentErrMsg();
    return NULL;
}

static int setup_test(void **state)
{
    (void)state;
    reset_acl();
    return 0;
}

static int teardown_test(void **state)
{
    (void)state;
    reset_acl();
    return 0;
}

/* ---- aclInit: accepted inputs ----------------------------------------------- */

static void test_init_null(void **state)
{
    (void)state;
    ACL_OK(aclInit(NULL));
    assert_true(is_initialized());
    ACL_OK(aclFinalize());
    assert_false(is_initialized());
}

static void test_init_empty_string(void **state)
{
    (void)state;
    ACL_OK(aclInit(""));
    assert_true(is_initialized());
    ACL_OK(aclFinalize());
}

static void test_init_empty_file(void **state)
{
    (void)state;
    ACL_OK(aclInit(write_file("empty.json", "")));
    assert_true(is_initialized());
    ACL_OK(aclFinalize());
    /* The same (empty) content again, also as no file at all. */
    ACL_OK(aclInit(write_file("empty2.json", "")));
    ACL_OK(aclFinalize());
    ACL_OK(aclInit(NULL));
    ACL_OK(aclFinalize());
    /* Blanks are other content than the first configuration's: refused
       here, accepted as the first configuration of a process. */
    ACL_ERR(aclInit(write_file("blank.json", " \n\t\r\n ")), ACL_ERROR_INVALID_PARAM,
            "differs from that of the first successful aclInit");
    assert_false(is_initialized());
    init_fresh("blank.json", " \n\t\r\n ", ACL_SUCCESS, NULL);
}

static void test_init_empty_object(void **state)
{
    (void)state;
    ACL_OK(aclInit(write_file("obj.json", "{}")));
    assert_true(is_initialized());
    ACL_OK(aclFinalize());
    init_fresh("obj2.json", "\n  { }  \n", ACL_SUCCESS, NULL);
}

/* Keys without an effect are parsed and ignored; every JSON form is valid. */
static void test_init_ignored_keys(void **state)
{
    (void)state;
    /* The dump path must be an existing directory: the test's own. */
    char cfg[1024];
    snprintf(cfg, sizeof(cfg), "{\n"
                      "  \"dump\": {\"dump_list\": [{\"model_name\": \"m\", \"layer\": [\"a\", \"b\"]}],\n"
                      "            \"dump_path\": \"%s\", \"dump_mode\": \"output\"},\n"
                      "  \"profiler\": {\"switch\": \"on\", \"aicpu\": \"on\"},\n"
                      "  \"StackSize\": 1048576, \"float\": -0.5e-3, \"exp\": 1E+10, \"zero\": 0,\n"
                      "  \"t\": true, \"f\": false, \"n\": null, \"empty\": [], \"eo\": {},\n"
                      "  \"esc\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC\\uD83D\\uDE00\\u0000\",\n"
                      "  \"utf8\": \"\xc3\xa9\xe2\x82\xac\",\n"
                      "  \"dup\": 1, \"dup\": 2\n"
                      "}\n", g_tmpdir);
    ACL_OK(aclInit(write_file("ignored.json", cfg)));
    assert_true(is_initialized());
    ACL_OK(aclFinalize());
}

/* ---- aclInit twice / reference count --------------------------------------- */

static void test_init_twice(void **state)
{
    (void)state;
    ACL_OK(aclInit(NULL));
    ACL_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized");
    /* While initialised the file is not even read: neither a missing file
       nor invalid JSON is reported. */
    ACL_ERR(aclInit("/nonexistent/oacl/config.json"), ACL_ERROR_REPEAT_INITIALIZE, "already initialized");
    ACL_ERR(aclInit(write_file("bad.json", "{")), ACL_ERROR_REPEAT_INITIALIZE, "already initialized");
    /* An API-layer code: the last-error slot stays empty. */
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    /* One successful call plus three repeats: a count of 4. */
    uint64_t left = 99;
    ACL_OK(aclFinalizeReference(&left));
    assert_int_equal(left, 3);
    ACL_OK(aclFinalizeReference(&left));
    assert_int_equal(left, 2);
    ACL_OK(aclFinalizeReference(&left));
    assert_int_equal(left, 1);
    ACL_OK(aclFinalizeReference(&left));
    assert_int_equal(left, 0);
    left = 99;
    ACL_ERR(aclFinalizeReference(&left), ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference: not initialized");
    assert_int_equal(left, 0);
    /* Initialisable again. */
    ACL_OK(aclInit(NULL));
    ACL_OK(aclFinalize());
}

/* Only the first configuration is in effect. */
static void test_init_twice_keeps_first_config(void **state)
{
    (void)state;
    ACL_OK(aclInit(write_file("mode1.json", "{\"err_msg_mode\": \"1\"}")));
    ACL_ERR(aclInit(write_file("mode0.json", "{\"err_msg_mode\": \"0\"}")), ACL_ERROR_REPEAT_INITIALIZE,
            "already initialized");
    /* Still process-wide messages: another thread's failure is visible here. */
    (void)aclGetRecentErrMsg();
    oacl_test_run_thread(fail_set_device, NULL);
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_non_null(strstr(msg, "aclrtSetDevice"));
}

/* ---- re-initialisation: the first configuration only (correction C3) ---------- */

static void test_reinit_same_config_only(void **state)
{
    (void)state;
    static char a[512];
    snprintf(a, sizeof(a), "%s", write_file("a.json", "{\"err_msg_mode\": \"0\"}"));
    ACL_OK(aclInit(a));
    ACL_OK(aclFinalize());
    /* The content counts, not the path. */
    ACL_OK(aclInit(write_file("a-copy.json", "{\"err_msg_mode\": \"0\"}")));
    ACL_OK(aclFinalize());
    /* Other content, no configuration, or an empty file: refused, and the
       check comes before the parse (invalid JSON reads as 100000 too). */
    ACL_ERR(aclInit(write_file("b.json", "{\"err_msg_mode\":\"0\"}")), ACL_ERROR_INVALID_PARAM,
            "aclInit: the configuration");
    ACL_ERR(aclInit(NULL), ACL_ERROR_INVALID_PARAM, "('none') differs");
    ACL_ERR(aclInit(""), ACL_ERROR_INVALID_PARAM, "differs");
    ACL_ERR(aclInit(write_file("empty.json", "")), ACL_ERROR_INVALID_PARAM, "differs");
    ACL_ERR(aclInit(write_file("bad.json", "{")), ACL_ERROR_INVALID_PARAM, "differs");
    /* A file that cannot be read is still 100003. */
    ACL_ERR(aclInit("/nonexistent/oacl.json"), ACL_ERROR_INVALID_FILE, "cannot read configuration file");
    /* API-layer codes: no last error; still not initialised. */
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    assert_false(is_initialized());
    ACL_OK(aclInit(a));
    assert_true(is_initialized());
}

/* A configuration that failed does not count as the first one. */
static void test_failed_init_fixes_nothing(void **state)
{
    (void)state;
    ACL_ERR(aclInit(write_file("bad.json", "{\"err_msg_mode\": \"7\"}")), ACL_ERROR_INVALID_PARAM,
            "err_msg_mode must be");
    ACL_ERR(aclInit(write_file("bad2.json", "[")), ACL_ERROR_PARSE_FILE, "not valid JSON");
    ACL_OK(aclInit(NULL));
    ACL_OK(aclFinalize());
    ACL_ERR(aclInit(write_file("obj.json", "{}")), ACL_ERROR_INVALID_PARAM, "differs");
}

/* ---- aclFinalize ------------------------------------------------------------------ */

static void test_finalize_drops_whole_count(void **state)
{
    (void)state;
    ACL_OK(aclInit(NULL));
    ACL_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "already initialized");
    ACL_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "already initialized");
    ACL_OK(aclFinalize()); /* regardless of the count of 3 */
    assert_false(is_initialized());
    uint64_t left = 5;
    ACL_ERR(aclFinalizeReference(&left), ACL_ERROR_REPEAT_FINALIZE, "not initialized");
    assert_int_equal(left, 0);
}

static void test_finalize_repeated(void **state)
{
    (void)state;
    ACL_OK(aclInit(NULL));
    ACL_OK(aclFinalize());
    ACL_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalized");
    ACL_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
    /* An API-layer code: no last error. */
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    /* The failed calls changed nothing: a new aclInit works. */
    ACL_OK(aclInit(NULL));
    assert_true(is_initialized());
    ACL_OK(aclFinalize());
    /* Finalising through the reference count counts as finalised, too. */
    ACL_OK(aclInit(NULL));
    ACL_OK(aclFinalizeReference(NULL));
    ACL_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
}

/* aclFinalize releases nothing (5.3): devices, contexts and streams stay. */
static void test_finalize_keeps_devices_and_streams(void **state)
{
    (void)state;
    ACL_OK(aclInit(NULL));
    ACL_OK(aclrtSetDevice(1));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclFinalize());
    int32_t dev = -1;
    ACL_OK(aclrtGetDevice(&dev));
    assert_int_equal(dev, 1);
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtResetDevice(1));
}

/* aclrt* functions do not need aclInit (1.5). */
static void test_runtime_without_init(void **state)
{
    (void)state;
    assert_false(is_initialized());
    uint32_t n = 0;
    ACL_OK(aclrtGetDeviceCount(&n));
    assert_int_equal(n, 8);
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtResetDevice(0));
}

/* First calls in a fresh process. */
static void child_finalize_first(void)
{
    /* aclFinalize without any aclInit succeeds; a second one does not. */
    CHILD_OK(aclFinalize());
    CHILD_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalized");
    CHILD_OK(aclInit(NULL));
    CHILD_OK(aclFinalize());
    CHILD_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
}

static void child_finalize_reference_first(void)
{
    uint64_t left = 42;
    CHILD_ERR(aclFinalizeReference(&left), ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference: not initialized");
    CHILD_CHECK_INT(left, 0);
    CHILD_ERR(aclFinalizeReference(NULL), ACL_ERROR_REPEAT_FINALIZE, "not initialized");
    /* It did not count as a finalize: the first aclFinalize still succeeds. */
    CHILD_OK(aclFinalize());
    CHILD_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
}

static void test_finalize_first_in_process(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("finalize_first", "OACL_DEVICE_COUNT");
    ASSERT_CHILD_OK("finalize_reference_first", "OACL_DEVICE_COUNT");
}

/* ---- aclFinalizeReference ------------------------------------------------------ */

static void test_finalize_reference(void **state)
{
    (void)state;
    uint64_t left = 7;
    ACL_ERR(aclFinalizeReference(&left), ACL_ERROR_REPEAT_FINALIZE, "not initialized");
    assert_int_equal(left, 0);

    ACL_OK(aclInit(NULL));
    ACL_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, NULL);
    ACL_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, NULL);
    ACL_OK(aclFinalizeReference(&left));
    assert_int_equal(left, 2);
    assert_true(is_initialized());
    /* An aclInit in between counts again. */
    ACL_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, NULL);
    ACL_OK(aclFinalizeReference(NULL)); /* NULL refCount is allowed */
    ACL_OK(aclFinalizeReference(&left));
    assert_int_equal(left, 1);
    ACL_OK(aclFinalizeReference(&left));
    assert_int_equal(left, 0);
    assert_false(is_initialized());
    left = 3;
    ACL_ERR(aclFinalizeReference(&left), ACL_ERROR_REPEAT_FINALIZE, "not initialized");
    assert_int_equal(left, 0);
    ACL_ERR(aclFinalizeReference(NULL), ACL_ERROR_REPEAT_FINALIZE, "not initialized");
    ACL_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

#define CONC_THREADS 8

struct conc_arg {
    pthread_barrier_t *barrier;
    aclError init_rc;
    aclError fin_rc;
    uint64_t left;
};

static void *conc_init(void *p)
{
    struct conc_arg *a = p;
    pthread_barrier_wait(a->barrier);
    a->init_rc = aclInit(NULL);
    (void)aclGetRecentErrMsg();
    return NULL;
}

static void *conc_finalize_reference(void *p)
{
    struct conc_arg *a = p;
    pthread_barrier_wait(a->barrier);
    a->left = 1000;
    a->fin_rc = aclFinalizeReference(&a->left);
    (void)aclGetRecentErrMsg();
    return NULL;
}

/* aclInit / aclFinalizeReference pair up when called concurrently. */
static void test_init_finalize_reference_concurrent(void **state)
{
    (void)state;
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, CONC_THREADS);
    struct conc_arg args[CONC_THREADS];
    pthread_t th[CONC_THREADS];
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < CONC_THREADS; i++) {
            args[i].barrier = &barrier;
            assert_int_equal(pthread_create(&th[i], NULL, conc_init, &args[i]), 0);
        }
        int ok = 0;
        for (int i = 0; i < CONC_THREADS; i++) {
            assert_int_equal(pthread_join(th[i], NULL), 0);
            if (args[i].init_rc == ACL_SUCCESS)
                ok++;
            else
                assert_int_equal(args[i].init_rc, ACL_ERROR_REPEAT_INITIALIZE);
        }
        assert_int_equal(ok, 1);
        for (int i = 0; i < CONC_THREADS; i++)
            assert_int_equal(pthread_create(&th[i], NULL, conc_finalize_reference, &args[i]), 0);
        unsigned seen = 0;
        for (int i = 0; i < CONC_THREADS; i++) {
            assert_int_equal(pthread_join(th[i], NULL), 0);
            assert_int_equal(args[i].fin_rc, ACL_SUCCESS);
            assert_true(args[i].left < CONC_THREADS);
            seen |= 1u << args[i].left;
        }
        /* Every count from 7 down to 0 was reported exactly once. */
        assert_int_equal(seen, (1u << CONC_THREADS) - 1);
        assert_false(is_initialized());
    }
    pthread_barrier_destroy(&barrier);
}

/* ---- configuration files: errors ------------------------------------------------- */

static void test_config_missing(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof(path), "%s/does-not-exist.json", g_tmpdir);
    ACL_ERR(aclInit(path), ACL_ERROR_INVALID_FILE, "aclInit: cannot read configuration file");
    ACL_ERR(aclInit(path), ACL_ERROR_INVALID_FILE, "does-not-exist.json");
    ACL_ERR(aclInit("/nonexistent-dir/x.json"), ACL_ERROR_INVALID_FILE, "/nonexistent-dir/x.json");
    /* A path component that is a file. */
    const char *file = write_file("plain.json", "{}");
    snprintf(path, sizeof(path), "%s/child.json", file);
    ACL_ERR(aclInit(path), ACL_ERROR_INVALID_FILE, "cannot read configuration file");
    /* API-layer code: no last error; still not initialised. */
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    assert_false(is_initialized());
}

static void test_config_directory(void **state)
{
    (void)state;
    ACL_ERR(aclInit(g_tmpdir), ACL_ERROR_INVALID_FILE, "cannot read configuration file");
    ACL_ERR(aclInit("/"), ACL_ERROR_INVALID_FILE, "cannot read configuration file");
    assert_false(is_initialized());
    ACL_OK(aclInit(NULL));
    ACL_OK(aclFinalize());
}

/* Run as root, the check drops privileges in a child process first. */
static void child_unreadable(void)
{
    const char *path = getenv("OACL_TEST_PATH");
    CHILD_CHECK(path != NULL);
    if (geteuid() == 0) {
        CHILD_CHECK(setgid(65534) == 0);
        CHILD_CHECK(setuid(65534) == 0);
    }
    CHILD_CHECK(access(path, R_OK) != 0);
    CHILD_ERR(aclInit(path), ACL_ERROR_INVALID_FILE, "cannot read configuration file");
    CHILD_ERR(aclInit(path), ACL_ERROR_INVALID_FILE, "Permission denied");
    CHILD_OK(aclInit(NULL)); /* it was not initialised */
    CHILD_OK(aclFinalize());
}

static void test_config_unreadable(void **state)
{
    (void)state;
    const char *p = write_file("noperm.json", "{}");
    char path[512];
    snprintf(path, sizeof(path), "%s", p);
    assert_int_equal(chmod(path, 0), 0);
    if (access(path, R_OK) == 0) {
        char env[600];
        snprintf(env, sizeof(env), "OACL_TEST_PATH=%s", path);
        ASSERT_CHILD_OK("unreadable", env);
    } else {
        ACL_ERR(aclInit(path), ACL_ERROR_INVALID_FILE, "cannot read configuration file");
        ACL_ERR(aclInit(path), ACL_ERROR_INVALID_FILE, "Permission denied");
        assert_false(is_initialized());
    }
    /* Readable again: accepted. */
    assert_int_equal(chmod(path, 0600), 0);
    ACL_OK(aclInit(path));
    ACL_OK(aclFinalize());
}

static void test_config_invalid_json(void **state)
{
    (void)state;
    /* The configuration is parsed with cJSON: a syntax error is reported
       with the line and column where the parser stopped; the raw-text
       rules of init_config.c are named. */
    static const struct {
        const char *text;
        const char *why; /* what the message names */
    } cases[] = {
        {"{} x", "syntax error at line 1, column 4"},
        {"{}}", "syntax error at line 1, column 3"},
        {"{}{}", "syntax error at line 1, column 3"},
        {"{\"a\": \"abc}", "syntax error at line 1, column 8"},
        {"{\"a\": \"abc", "syntax error at line 1, column 8"},
        {"{\"a\": \"ab\\", "syntax error at line 1, column 8"},
        {"{\"a\": \"\\x\"}", "syntax error at line 1, column 8"},
        {"{\"a\": \"\\'\"}", "syntax error at line 1, column 8"},
        {"{\"a\": \"\\u12\"}", "syntax error at line 1, column 8"},
        {"{\"a\": \"tab\there\"}", "a control character inside a string at line 1, column 11"},
        {"{\"a\": \"line\nbreak\"}", "a control character inside a string at line 1, column 12"},
        {"{", "syntax error at line 1, column 2"},
        {"{\"a\"}", "syntax error at line 1, column 5"},
        {"{\"a\" 1}", "syntax error at line 1, column 6"},
        {"{\"a\": 1,}", "syntax error at line 1, column 10"},
        {"{a: 1}", "syntax error at line 1, column 3"},
        {"{'a': 1}", "syntax error at line 1, column 3"},
        {"{\"a\": 1 \"b\": 2}", "syntax error at line 1, column 9"},
        {"{\"a\": [1, 2,]}", "syntax error at line 1, column 13"},
        {"{\"a\": [1 2]}", "syntax error at line 1, column 10"},
        {"{\"a\": [1, 2}", "syntax error at line 1, column 12"},
        {"{\"a\": }", "syntax error at line 1, column 7"},
        {"{\"a\": tru}", "syntax error at line 1, column 7"},
        {"{\"a\": nul}", "syntax error at line 1, column 7"},
        {"{\"a\": NaN}", "syntax error at line 1, column 7"},
        {"{\"a\": 1e}", "syntax error at line 1, column 8"},
        {"{\"a\": -}", "syntax error at line 1, column 7"},
        {"{\"a\": +1}", "syntax error at line 1, column 7"},
        {"{\"a\": 1} // comment", "syntax error at line 1, column 10"},
        {"{\"a\":", "syntax error at line 1, column 6"},
        {"{\n  \"a\": 1,\n  \"b\": tru\n}\n", "syntax error at line 3, column 8"},
        {"{\r\n  \"a\": [\r\n    1,\r\n    x\r\n  ]\r\n}", "syntax error at line 4, column 5"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const char *path = write_file("invalid.json", cases[i].text);
        aclError rc = aclInit(path);
        const char *msg = aclGetRecentErrMsg();
        if (rc != ACL_ERROR_PARSE_FILE || !msg || !strstr(msg, "is not valid JSON") || !strstr(msg, cases[i].why))
            fail_msg("config '%s': aclInit returned %d, message \"%s\" (want %d naming \"%s\")", cases[i].text, rc,
                     msg ? msg : "(null)", ACL_ERROR_PARSE_FILE, cases[i].why);
        assert_false(is_initialized());
    }
    /* A NUL byte inside the text is not JSON either. */
    ACL_ERR(aclInit(write_file_n("nul.json", "{\"a\": \"x\0y\"}", 12)), ACL_ERROR_PARSE_FILE,
            "a NUL byte at line 1, column 9");
    ACL_ERR(aclInit(write_file_n("nul2.json", "{}\0", 3)), ACL_ERROR_PARSE_FILE, "a NUL byte at line 1, column 3");
    assert_false(is_initialized());
    /* Forms cJSON accepts although strict JSON does not (a malformed \u
       escape, leading zeros, a bare decimal point): harmless in keys the
       runtime ignores, so they are accepted. */
    static const char *const lenient[] = {"{\"a\": \"\\u12G4\"}", "{\"a\": 01}", "{\"a\": 1.}"};
    for (size_t i = 0; i < ARRAY_LEN(lenient); i++)
        init_fresh("lenient.json", lenient[i], ACL_SUCCESS, NULL);
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    assert_false(is_initialized());
}

/* A JSON root that is not an object configures nothing, and CANN accepts
 * it (acl-rt-misc.md correction C4). */
static void test_config_not_an_object(void **state)
{
    (void)state;
    static const char *const texts[] = {"[]", "\"err_msg_mode\"", "1", "null", "true"};
    for (size_t i = 0; i < ARRAY_LEN(texts); i++)
        init_fresh("notobj.json", texts[i], ACL_SUCCESS, NULL);
    /* Keys inside such a root are not applied: messages stay per thread. */
    ACL_OK(aclInit(write_file("notobj.json", "[{\"err_msg_mode\": \"1\"}]")));
    assert_true(is_initialized());
    oacl_test_run_thread(fail_set_device, NULL);
    assert_null(aclGetRecentErrMsg());
}

static void test_config_nesting(void **state)
{
    (void)state;
    /* 11 levels are too many (checked first: a success would fix the
       configuration of this process). */
    ACL_ERR(aclInit(nested_config("obj11.json", 11, 0)), ACL_ERROR_PARSE_FILE, "objects nested more than 10 levels");
    assert_false(is_initialized());
    ACL_ERR(aclInit(nested_config("arr11.json", 11, 1)), ACL_ERROR_PARSE_FILE, "arrays nested more than 10 levels");
    assert_false(is_initialized());
    /* The two limits are separate (1.5: "10 levels of { or 10 levels of ["):
       10 objects and 10 arrays interleaved are fine. */
    char text[512] = "";
    size_t n = 0;
    for (int i = 0; i < 10; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, i < 9 ? "{\"a\":[" : "{\"a\":[]");
    for (int i = 0; i < 10; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, i < 9 ? "}]" : "}");
    init_fresh("mixed.json", text, ACL_SUCCESS, NULL);
    /* Very deep nesting is rejected without exhausting the stack. */
    static char deep[200001];
    memset(deep, '[', sizeof(deep) - 1);
    ACL_ERR(aclInit(write_file("deep.json", deep)), ACL_ERROR_PARSE_FILE, "arrays nested more than 10 levels");
    for (size_t i = 0; i + 5 < sizeof(deep); i += 5)
        memcpy(deep + i, "{\"a\":", 5);
    ACL_ERR(aclInit(write_file("deep2.json", deep)), ACL_ERROR_PARSE_FILE, "objects nested more than 10 levels");
    assert_false(is_initialized());
    /* Exactly 10 levels of { and of [ are fine. */
    ACL_OK(aclInit(nested_config("obj10.json", 10, 0)));
    ACL_OK(aclFinalize());
    init_fresh("arr10.json", "{\"a\":[[[[[[[[[[]]]]]]]]]]}", ACL_SUCCESS, NULL);
}

/* CANN's limit (acl-rt-misc.md correction C4): a configuration file over
 * 10 MiB is refused with ACL_ERROR_INVALID_FILE. */
static void test_config_too_large(void **state)
{
    (void)state;
    size_t len = (10u << 20) + 16;
    char *text = malloc(len + 1);
    assert_non_null(text);
    memset(text, ' ', len);
    memcpy(text, "{\"pad\": \"", 9);
    text[len - 2] = '"';
    text[len - 1] = '}';
    text[len] = '\0';
    ACL_ERR(aclInit(write_file_n("large.json", text, len)), ACL_ERROR_INVALID_FILE, "exceeds 10 MiB");
    assert_false(is_initialized());
    /* Exactly the limit is fine. */
    len = 10u << 20;
    memset(text, ' ', len);
    memcpy(text, "{\"pad\": \"", 9);
    text[len - 2] = '"';
    text[len - 1] = '}';
    ACL_OK(aclInit(write_file_n("large.json", text, len)));
    ACL_OK(aclFinalize());
    /* Once a configuration was used, a larger file differs from it. */
    len = (10u << 20) + 16;
    memset(text, ' ', len);
    ACL_ERR(aclInit(write_file_n("larger.json", text, len)), ACL_ERROR_INVALID_PARAM, "differs");
    assert_false(is_initialized());
    free(text);
}

/* ---- err_msg_mode ------------------------------------------------------------------ */

static void test_err_msg_mode_process(void **state)
{
    (void)state;
    ACL_OK(aclInit(write_file("mode1.json", "{\"err_msg_mode\": \"1\"}")));
    (void)aclGetRecentErrMsg();
    oacl_test_run_thread(fail_set_device, NULL);
    /* The failure on the other thread is visible here... */
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_non_null(strstr(msg, "aclrtSetDevice: device id -7 is out of range"));
    /* ...and reading it cleared it for every thread. */
    assert_null(aclGetRecentErrMsg());
    /* Both threads' lines land in the same text, newest first. */
    ACL_ERR(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM, "deviceId is NULL");
    (void)aclrtGetRunMode(NULL);
    oacl_test_run_thread(fail_set_device, NULL);
    msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    const char *other = strstr(msg, "aclrtSetDevice");
    const char *mine = strstr(msg, "aclrtGetRunMode");
    assert_non_null(other);
    assert_non_null(mine);
    assert_true(other < mine);
    /* The last-error slot stays per thread in either mode. */
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    ACL_OK(aclFinalize());
    /* Re-initialising without the configuration is refused (C3) and
       changes nothing; with the same configuration it applies again. */
    ACL_ERR(aclInit(NULL), ACL_ERROR_INVALID_PARAM, "differs");
    assert_false(is_initialized());
    ACL_OK(aclInit(write_file("mode1-again.json", "{\"err_msg_mode\": \"1\"}")));
    oacl_test_run_thread(fail_set_device, NULL);
    msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_non_null(strstr(msg, "device id -7"));
}

static void test_err_msg_mode_thread(void **state)
{
    (void)state;
    ACL_OK(aclInit(write_file("mode0.json", "{\"err_msg_mode\": \"0\"}")));
    (void)aclGetRecentErrMsg();
    oacl_test_run_thread(fail_set_device, NULL);
    assert_null(aclGetRecentErrMsg());
    ACL_ERR(aclrtSetDevice(-3), ACL_ERROR_RT_INVALID_DEVICEID, "device id -3");
}

static void test_err_msg_mode_bad_values(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{\"err_msg_mode\": \"2\"}",  "{\"err_msg_mode\": 1}",        "{\"err_msg_mode\": \"\"}",
        "{\"err_msg_mode\": \"01\"}", "{\"err_msg_mode\": \"1 \"}",   "{\"err_msg_mode\": true}",
        "{\"err_msg_mode\": null}",   "{\"err_msg_mode\": [\"1\"]}", "{\"err_msg_mode\": {\"v\": \"1\"}}",
    };
    for (size_t i = 0; i < ARRAY_LEN(texts); i++) {
        ACL_ERR(aclInit(write_file("badmode.json", texts[i])), ACL_ERROR_INVALID_PARAM,
                "err_msg_mode must be \"0\" or \"1\"");
        /* Messages are still per thread (checked before is_initialized(),
           whose aclInit(NULL) would select per-thread text anyway). */
        oacl_test_run_thread(fail_set_device, NULL);
        assert_null(aclGetRecentErrMsg());
        assert_false(is_initialized());
    }
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

/* A rejected configuration has no partial effect: a valid err_msg_mode
 * next to an invalid defaultDevice is not applied. */
static void test_config_no_partial_effect(void **state)
{
    (void)state;
    ACL_ERR(aclInit(write_file("partial.json",
                               "{\"err_msg_mode\": \"1\", \"defaultDevice\": {\"default_device\": \"99\"}}")),
            ACL_ERROR_INVALID_PARAM, "defaultDevice.default_device");
    /* (is_initialized() last: its aclInit(NULL) resets the message mode.) */
    oacl_test_run_thread(fail_set_device, NULL);
    assert_null(aclGetRecentErrMsg()); /* still per thread */
    struct get_device_result r;
    oacl_test_run_thread(get_device_fresh, &r);
    assert_int_equal(r.rc, ACL_ERROR_RT_CONTEXT_NULL); /* no default device */
    assert_false(is_initialized());
}

/* ---- defaultDevice ------------------------------------------------------------------ */

static void test_default_device(void **state)
{
    (void)state;
    ACL_OK(aclInit(write_file("dd.json", "{\"defaultDevice\": {\"default_device\": \"2\"}}")));
    /* A thread without a context gets device 2 implicitly. */
    struct get_device_result r;
    oacl_test_run_thread(get_device_fresh, &r);
    assert_int_equal(r.rc, ACL_SUCCESS);
    assert_int_equal(r.dev, 2);
    assert_int_equal(r.stream_rc, ACL_SUCCESS);
    /* So does this thread; an explicit aclrtSetDevice takes precedence. */
    int32_t dev = -1;
    ACL_OK(aclrtGetDevice(&dev));
    assert_int_equal(dev, 2);
    ACL_OK(aclrtSetDevice(5));
    ACL_OK(aclrtGetDevice(&dev));
    assert_int_equal(dev, 5);
    /* After the device of this thread is reset, the default applies again. */
    ACL_OK(aclrtResetDeviceForce(5));
    ACL_OK(aclrtGetDevice(&dev));
    assert_int_equal(dev, 2);
    /* aclFinalize disables it. */
    ACL_OK(aclFinalize());
    ACL_OK(aclrtResetDeviceForce(2));
    oacl_test_run_thread(get_device_fresh, &r);
    assert_int_equal(r.rc, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(r.dev, -100);
    assert_int_equal(r.stream_rc, ACL_ERROR_RT_CONTEXT_NULL);
    ACL_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice");
}

/* With other keys around it, and device 0 (a falsy-looking id). */
static void test_default_device_zero(void **state)
{
    (void)state;
    ACL_OK(aclInit(write_file("dd0.json", "{\"err_msg_mode\": \"0\", \"defaultDevice\": {\"default_device\": \"0\", "
                                          "\"other\": 1}, \"dump\": {}}")));
    struct get_device_result r;
    oacl_test_run_thread(get_device_fresh, &r);
    assert_int_equal(r.rc, ACL_SUCCESS);
    assert_int_equal(r.dev, 0);
    assert_int_equal(r.stream_rc, ACL_SUCCESS);
    /* The highest id is accepted as well (a second configuration: in a
       fresh process). */
    ACL_OK(aclFinalize());
    static char env_path[600];
    snprintf(env_path, sizeof(env_path), "OACL_TEST_PATH=%s",
             write_file("dd7.json", "{\"defaultDevice\": {\"default_device\": \"7\"}}"));
    ASSERT_CHILD_OK("default_device_7", env_path);
}

static void child_default_device_7(void)
{
    const char *path = getenv("OACL_TEST_PATH");
    CHILD_CHECK(path != NULL);
    CHILD_OK(aclInit(path));
    int32_t dev = -1;
    CHILD_OK(aclrtGetDevice(&dev));
    CHILD_CHECK_INT(dev, 7);
    CHILD_OK(aclrtResetDevice(7));
}

/* The finalize done by the last aclFinalizeReference disables it too. */
static void test_default_device_finalize_reference(void **state)
{
    (void)state;
    ACL_OK(aclInit(write_file("dd3.json", "{\"defaultDevice\": {\"default_device\": \"3\"}}")));
    ACL_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, NULL);
    struct get_device_result r;
    uint64_t left = 9;
    ACL_OK(aclFinalizeReference(&left));
    assert_int_equal(left, 1);
    oacl_test_run_thread(get_device_fresh, &r); /* still initialised: still in effect */
    assert_int_equal(r.rc, ACL_SUCCESS);
    assert_int_equal(r.dev, 3);
    ACL_OK(aclFinalizeReference(&left));
    assert_int_equal(left, 0);
    oacl_test_run_thread(get_device_fresh, &r);
    assert_int_equal(r.rc, ACL_ERROR_RT_CONTEXT_NULL);
}

static void test_default_device_bad_values(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{\"defaultDevice\": {\"default_device\": \"8\"}}",   /* count is 8 */
        "{\"defaultDevice\": {\"default_device\": \"-1\"}}",
        "{\"defaultDevice\": {\"default_device\": \"abc\"}}",
        "{\"defaultDevice\": {\"default_device\": \"1x\"}}",
        "{\"defaultDevice\": {\"default_device\": \"\"}}",
        "{\"defaultDevice\": {\"default_device\": \"1 \"}}",
        "{\"defaultDevice\": {\"default_device\": \"99999999999999999999\"}}",
        "{\"defaultDevice\": {\"default_device\": 1}}",
        "{\"defaultDevice\": {\"default_device\": null}}",
        "{\"defaultDevice\": {}}",
        "{\"defaultDevice\": {\"defaultDevice\": \"1\"}}",
        "{\"defaultDevice\": \"1\"}",
        "{\"defaultDevice\": [\"1\"]}",
    };
    for (size_t i = 0; i < ARRAY_LEN(texts); i++) {
        aclError rc = aclInit(write_file("baddd.json", texts[i]));
        const char *msg = aclGetRecentErrMsg();
        if (rc != ACL_ERROR_INVALID_PARAM || !msg ||
            !strstr(msg, "defaultDevice.default_device must be a device id string in \"0\"..\"7\""))
            fail_msg("config '%s': aclInit returned %d, message \"%s\"", texts[i], rc, msg ? msg : "(null)");
        /* No default device came into effect (checked before
           is_initialized(), whose aclInit/aclFinalize would drop it). */
        struct get_device_result r;
        oacl_test_run_thread(get_device_fresh, &r);
        assert_int_equal(r.rc, ACL_ERROR_RT_CONTEXT_NULL);
        assert_false(is_initialized());
    }
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

/*
 * A \u0000 escape puts a NUL inside a decoded string; such a value must not
 * pass for a valid one ("1\u0000x" is not err_msg_mode "1"): 100000.
 * (Regression: the comparison used to stop at the NUL.)
 */
static void test_config_embedded_nul(void **state)
{
    (void)state;
    aclError rc = aclInit(write_file("nulmode.json", "{\"err_msg_mode\": \"1\\u0000x\"}"));
    const char *msg = aclGetRecentErrMsg();
    char copy[512];
    snprintf(copy, sizeof(copy), "%s", msg ? msg : "(null)");
    reset_acl();
    int ok = rc == ACL_ERROR_INVALID_PARAM;
    if (!ok)
        print_error("err_msg_mode \"1\\u0000x\": aclInit returned %d (%s), expected 100000\n", rc, copy);
    rc = aclInit(write_file("nuldd.json", "{\"defaultDevice\": {\"default_device\": \"2\\u0000x\"}}"));
    msg = aclGetRecentErrMsg();
    snprintf(copy, sizeof(copy), "%s", msg ? msg : "(null)");
    reset_acl();
    if (rc != ACL_ERROR_INVALID_PARAM) {
        print_error("default_device \"2\\u0000x\": aclInit returned %d (%s), expected 100000\n", rc, copy);
        ok = 0;
    }
    assert_true(ok);
}

/* ---- version queries ------------------------------------------------------------------ */

static void test_version_str(void **state)
{
    (void)state;
    static const char *const names[] = {"runtime", "cann", "toolkit"};
    for (size_t i = 0; i < ARRAY_LEN(names); i++) {
        char v[ACL_PKG_VERSION_MAX_SIZE];
        memset(v, 'x', sizeof(v));
        ACL_OK(aclsysGetVersionStr((char *)names[i], v));
        assert_string_equal(v, "0.1.0"); /* build/share/info/runtime/version.info */
    }
}

static void test_version_str_errors(void **state)
{
    (void)state;
    char v[ACL_PKG_VERSION_MAX_SIZE];
    memset(v, 'z', sizeof(v));
    static const char *const unknown[] = {"driver", "firmware", "", "Runtime", "runtime ", "cann\n", "opp"};
    for (size_t i = 0; i < ARRAY_LEN(unknown); i++) {
        char want[160];
        snprintf(want, sizeof(want), "aclsysGetVersionStr: unknown package '%s'", unknown[i]);
        ACL_ERR(aclsysGetVersionStr((char *)unknown[i], v), ACL_ERROR_INVALID_FILE, want);
    }
    ACL_ERR(aclsysGetVersionStr(NULL, v), ACL_ERROR_INVALID_PARAM, "aclsysGetVersionStr: pkgName is NULL");
    ACL_ERR(aclsysGetVersionStr("runtime", NULL), ACL_ERROR_INVALID_PARAM, "aclsysGetVersionStr: versionStr is NULL");
    ACL_ERR(aclsysGetVersionStr(NULL, NULL), ACL_ERROR_INVALID_PARAM, "is NULL");
    /* The output was not touched, no last error, and the query still works. */
    for (size_t i = 0; i < sizeof(v); i++)
        assert_int_equal(v[i], 'z');
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    ACL_OK(aclsysGetVersionStr("runtime", v));
    assert_string_equal(v, "0.1.0");
}

static void test_version_num(void **state)
{
    (void)state;
    static const char *const names[] = {"runtime", "cann", "toolkit"};
    for (size_t i = 0; i < ARRAY_LEN(names); i++) {
        int32_t n = -1;
        ACL_OK(aclsysGetVersionNum((char *)names[i], &n));
        assert_int_equal(n, 100000); /* 0.1.0 = 0*10^7 + 1*10^5 + 0*10^3 */
    }
}

static void test_version_num_errors(void **state)
{
    (void)state;
    int32_t n = 12345;
    ACL_ERR(aclsysGetVersionNum("driver", &n), ACL_ERROR_INVALID_FILE, "aclsysGetVersionNum: unknown package 'driver'");
    ACL_ERR(aclsysGetVersionNum("", &n), ACL_ERROR_INVALID_FILE, "unknown package ''");
    ACL_ERR(aclsysGetVersionNum("RUNTIME", &n), ACL_ERROR_INVALID_FILE, "unknown package 'RUNTIME'");
    ACL_ERR(aclsysGetVersionNum(NULL, &n), ACL_ERROR_INVALID_PARAM, "aclsysGetVersionNum: pkgName is NULL");
    ACL_ERR(aclsysGetVersionNum("runtime", NULL), ACL_ERROR_INVALID_PARAM, "aclsysGetVersionNum: versionNum is NULL");
    assert_int_equal(n, 12345);
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    ACL_OK(aclsysGetVersionNum("cann", &n));
    assert_int_equal(n, 100000);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void test_rt_get_version(void **state)
{
    (void)state;
    int32_t major = -1, minor = -1, patch = -1;
    ACL_OK(aclrtGetVersion(&major, &minor, &patch));
    assert_int_equal(major, ACL_MAJOR_VERSION);
    assert_int_equal(minor, ACL_MINOR_VERSION);
    assert_int_equal(patch, ACL_PATCH_VERSION);
    assert_int_equal(major, 1);
    assert_int_equal(minor, 17);
    assert_int_equal(patch, 0);

    int32_t a = 11, b = 22, c = 33;
    ACL_ERR(aclrtGetVersion(NULL, &b, &c), ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: majorVersion is NULL");
    ACL_ERR(aclrtGetVersion(&a, NULL, &c), ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: minorVersion is NULL");
    ACL_ERR(aclrtGetVersion(&a, &b, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: patchVersion is NULL");
    ACL_ERR(aclrtGetVersion(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM, "majorVersion is NULL");
    /* Nothing was written on failure, and no last error. */
    assert_int_equal(a, 11);
    assert_int_equal(b, 22);
    assert_int_equal(c, 33);
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    ACL_OK(aclrtGetVersion(&a, &b, &c));
    assert_int_equal(b, 17);
}
#pragma GCC diagnostic pop

/*
 * The version comes from share/info/runtime/version.info next to the
 * library (<prefix>/lib64/libacl_rt.so). A child process loads a copy of the
 * library installed in a temporary prefix with a version.info of our
 * choosing and prints what the two queries return.
 */
static void child_version_copy(void)
{
    const char *lib = getenv("OACL_TEST_LIB");
    CHILD_CHECK(lib != NULL);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        exit(1);
    }
    aclError (*get_str)(char *, char *) = (aclError(*)(char *, char *))dlsym(h, "aclsysGetVersionStr");
    aclError (*get_num)(char *, int32_t *) = (aclError(*)(char *, int32_t *))dlsym(h, "aclsysGetVersionNum");
    CHILD_CHECK(get_str && get_num);
    /* Really the copy, not the library the test is linked with. */
    Dl_info info;
    CHILD_CHECK(dladdr((void *)get_num, &info) && info.dli_fname);
    char real_lib[PATH_MAX], real_got[PATH_MAX];
    CHILD_CHECK(realpath(lib, real_lib) && realpath(info.dli_fname, real_got));
    CHILD_CHECK(strcmp(real_lib, real_got) == 0);
    char v[ACL_PKG_VERSION_MAX_SIZE] = "";
    int32_t n = -7;
    aclError rs = get_str("runtime", v);
    aclError rn = get_num("runtime", &n);
    printf("%d|%s|%d|%d\n", rs, v, rn, n);
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return -1;
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    char buf[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            rc = -1;
    fclose(in);
    if (fclose(out) != 0)
        rc = -1;
    return rc;
}

/* Installs a copy of the library in <tmp>/prefix once; returns the
 * version.info path of that prefix and the child's environment. */
static const char *const *version_prefix(char *vfile, size_t vlen)
{
    static char lib[600], env_lib[700];
    static const char *env[] = {env_lib, "ASAN_OPTIONS=detect_odr_violation=0:detect_leaks=0", NULL};
    char dir[512], share[600];
    snprintf(dir, sizeof(dir), "%s/prefix", g_tmpdir);
    snprintf(share, sizeof(share), "%s/share/info/runtime", dir);
    snprintf(vfile, vlen, "%s/version.info", share);
    if (!lib[0]) {
        Dl_info info;
        assert_true(dladdr((void *)aclsysGetVersionNum, &info) && info.dli_fname);
        static const char *const sub[] = {"", "/lib64", "/share", "/share/info", "/share/info/runtime"};
        for (size_t i = 0; i < ARRAY_LEN(sub); i++) {
            char d[600];
            snprintf(d, sizeof(d), "%s%s", dir, sub[i]);
            assert_true(mkdir(d, 0700) == 0 || errno == EEXIST); /* an earlier test's process made it */
        }
        snprintf(lib, sizeof(lib), "%s/lib64/libacl_rt.so", dir);
        assert_int_equal(copy_file(info.dli_fname, lib), 0);
        /* (A second copy of an instrumented library is no ODR violation.) */
        snprintf(env_lib, sizeof(env_lib), "OACL_TEST_LIB=%s", lib);
    }
    return env;
}

/* One version.info content (NULL: no file) against the expected results;
 * prints the mismatch and returns 0 if there is one. */
static int check_version_file(const char *file, const char *str, aclError num_rc, int32_t num)
{
    char vfile[700];
    const char *const *env = version_prefix(vfile, sizeof(vfile));
    unlink(vfile);
    if (file) {
        FILE *f = fopen(vfile, "w");
        assert_non_null(f);
        fputs(file, f);
        fclose(f);
    }
    char out[512];
    int st = oacl_run_child("version_copy", env, out, sizeof(out));
    if (st != 0) {
        print_error("version.info '%s': child exited with %d\n", file ? file : "(none)", st);
        return 0;
    }
    char want[512];
    snprintf(want, sizeof(want), "0|%s|%d|%d\n", str, num_rc, num);
    if (strcmp(out, want) != 0) {
        out[strcspn(out, "\n")] = '\0';
        want[strcspn(want, "\n")] = '\0';
        print_error("version.info '%s': got \"%s\", want \"%s\" (str|rc of num|num)\n", file ? file : "(none)",
                    out, want);
        return 0;
    }
    return 1;
}

static void test_version_encoding(void **state)
{
    (void)state;
    static const struct {
        const char *file;  /* content of version.info, NULL: no file */
        const char *str;   /* expected aclsysGetVersionStr */
        aclError num_rc;   /* expected aclsysGetVersionNum result */
        int32_t num;
    } cases[] = {
        {"Version=0.1.0\n", "0.1.0", ACL_SUCCESS, 100000},
        {"Version=9.0.0\n", "9.0.0", ACL_SUCCESS, 90000000},
        {"Version=8.5.0\n", "8.5.0", ACL_SUCCESS, 80500000},
        {"Version=9.0.0-rc.1\n", "9.0.0-rc.1", ACL_SUCCESS, 89999901},
        {"Version=9.0.0-beta.2\n", "9.0.0-beta.2", ACL_SUCCESS, 89999802},
        {"Version=9.0.0-alpha.3\n", "9.0.0-alpha.3", ACL_SUCCESS, 89999703},
        {"Version=1.2.3\n", "1.2.3", ACL_SUCCESS, 10203000},
        {"Version=99.99.99\n", "99.99.99", ACL_SUCCESS, 999999000},
        {"Version=8.5.0\r\n", "8.5.0", ACL_SUCCESS, 80500000},
        {"Version=8.5.0", "8.5.0", ACL_SUCCESS, 80500000},
        {"Package=x\nVersion=7.0.1\nOther=y\n", "7.0.1", ACL_SUCCESS, 70001000},
        /* not X.Y.Z[-pre.N]: the string is reported, the number is 500000 */
        {"Version=garbage\n", "garbage", ACL_ERROR_INTERNAL_ERROR, -7},
        {"Version=1.2\n", "1.2", ACL_ERROR_INTERNAL_ERROR, -7},
        {"Version=1.2.3-rc\n", "1.2.3-rc", ACL_ERROR_INTERNAL_ERROR, -7},
        {"Version=1.2.3-gamma.1\n", "1.2.3-gamma.1", ACL_ERROR_INTERNAL_ERROR, -7},
        {"Version=1.2.3.4\n", "1.2.3.4", ACL_ERROR_INTERNAL_ERROR, -7},
        {"Version=1.100.0\n", "1.100.0", ACL_ERROR_INTERNAL_ERROR, -7},
        {"Version=1.0.100\n", "1.0.100", ACL_ERROR_INTERNAL_ERROR, -7},
        {"Version=215.0.0\n", "215.0.0", ACL_ERROR_INTERNAL_ERROR, -7}, /* would overflow int32 */
        /* no usable Version= line: the built-in version */
        {"Name=runtime\n", "0.1.0", ACL_SUCCESS, 100000},
        {"Version=\n", "0.1.0", ACL_SUCCESS, 100000},
        {NULL, "0.1.0", ACL_SUCCESS, 100000},
    };
    int ok = 1;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++)
        ok &= check_version_file(cases[i].file, cases[i].str, cases[i].num_rc, cases[i].num);
    assert_true(ok);
}

/* A major version above 99 encodes fine (X * 10^7 fits an int32_t up to
 * 214). (Regression: majors above 99 used to be rejected.) */
static void test_version_major_above_99(void **state)
{
    (void)state;
    int ok = check_version_file("Version=100.0.0\n", "100.0.0", ACL_SUCCESS, 1000000000);
    ok &= check_version_file("Version=200.99.99\n", "200.99.99", ACL_SUCCESS, 2009999000);
    assert_true(ok);
}

/* ---- main ------------------------------------------------------------------------------ */

static int setup_group(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR");
    snprintf(g_tmpdir, sizeof(g_tmpdir), "%s/oacl-test-init-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(g_tmpdir) ? 0 : -1;
}

static int teardown_group(void **state)
{
    (void)state;
    nftw(g_tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}

static const struct oacl_child_mode g_modes[] = {
    {"finalize_first", child_finalize_first},
    {"finalize_reference_first", child_finalize_reference_first},
    {"version_copy", child_version_copy},
    {"unreadable", child_unreadable},
    {"init_file", child_init_file},
    {"default_device_7", child_default_device_7},
};

#define INIT_TESTS(X)                                                                                                \
    X(test_init_null)                                                                                                \
    X(test_init_empty_string)                                                                                        \
    X(test_init_empty_file)                                                                                          \
    X(test_init_empty_object)                                                                                        \
    X(test_init_ignored_keys)                                                                                        \
    X(test_init_twice)                                                                                               \
    X(test_init_twice_keeps_first_config)                                                                            \
    X(test_reinit_same_config_only)                                                                                  \
    X(test_failed_init_fixes_nothing)                                                                                \
    X(test_finalize_drops_whole_count)                                                                               \
    X(test_finalize_repeated)                                                                                        \
    X(test_finalize_keeps_devices_and_streams)                                                                       \
    X(test_runtime_without_init)                                                                                     \
    X(test_finalize_first_in_process)                                                                                \
    X(test_finalize_reference)                                                                                       \
    X(test_init_finalize_reference_concurrent)                                                                       \
    X(test_config_missing)                                                                                           \
    X(test_config_directory)                                                                                         \
    X(test_config_unreadable)                                                                                        \
    X(test_config_invalid_json)                                                                                      \
    X(test_config_not_an_object)                                                                                     \
    X(test_config_nesting)                                                                                           \
    X(test_config_too_large)                                                                                         \
    X(test_err_msg_mode_process)                                                                                     \
    X(test_err_msg_mode_thread)                                                                                      \
    X(test_err_msg_mode_bad_values)                                                                                  \
    X(test_config_no_partial_effect)                                                                                 \
    X(test_default_device)                                                                                           \
    X(test_default_device_zero)                                                                                      \
    X(test_default_device_finalize_reference)                                                                        \
    X(test_default_device_bad_values)                                                                                \
    X(test_config_embedded_nul)                                                                                      \
    X(test_version_str)                                                                                              \
    X(test_version_str_errors)                                                                                       \
    X(test_version_num)                                                                                              \
    X(test_version_num_errors)                                                                                       \
    X(test_rt_get_version)                                                                                           \
    X(test_version_encoding)                                                                                         \
    X(test_version_major_above_99)

/* Parent side: each test runs as "--oacl-child test:<name>" in a fresh
 * process, which runs only that test (cmocka's test filter). */
static void run_fresh(void **state)
{
    const char *name = *state;
    char mode[128], env_dir[300];
    snprintf(mode, sizeof(mode), "test:%s", name);
    snprintf(env_dir, sizeof(env_dir), "OACL_TEST_TMPDIR=%s", g_tmpdir);
    const char *const env[] = {env_dir, NULL};
    int st = oacl_run_child(mode, env, NULL, 0);
    if (st != 0)
        fail_msg("%s failed in its own process (exit status %d; its report is above)", name, st);
}

#define AS_FRESH(fn) {#fn, run_fresh, NULL, NULL, (void *)(uintptr_t)#fn},
#define AS_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup_test, teardown_test),

int main(int argc, char **argv)
{
    /* In-process expectations assume the default simulator configuration. */
    unsetenv("OACL_DEVICE_COUNT");
    unsetenv("OACL_SOC");
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0 && strncmp(argv[2], "test:", 5) == 0) {
        const char *dir = getenv("OACL_TEST_TMPDIR");
        if (!dir)
            return 2;
        snprintf(g_tmpdir, sizeof(g_tmpdir), "%s", dir);
        const struct CMUnitTest tests[] = {INIT_TESTS(AS_TEST)};
        cmocka_set_test_filter(argv[2] + 5);
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    const struct CMUnitTest tests[] = {INIT_TESTS(AS_FRESH)};
    return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
