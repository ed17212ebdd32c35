/*
 * Init/finalize callbacks (acl-rt-misc.md 3.2, correction C2):
 * aclInitCallbackRegister / UnRegister, aclFinalizeCallbackRegister /
 * UnRegister, and when aclInit / aclFinalize / aclFinalizeReference run
 * them: order by type, registration order within a type, the configuration
 * text, failures, registration at run time, two init/finalize cycles.
 *
 * Initialisation state and the registry are process-wide, and the first
 * successful aclInit fixes the configuration: every scenario runs in a
 * child process of its own.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child_process.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers (child side) ---- */

static char g_log[512];          /* one tag per call, space-separated */
static const char *g_want_text;  /* the configuration text callbacks must get */
static size_t g_want_len;
static int g_text_bad;

static void log_tag(const char *tag)
{
    size_t n = strlen(g_log);
    snprintf(g_log + n, sizeof(g_log) - n, "%s%s", n ? " " : "", tag);
}

static void log_reset(void) { g_log[0] = '\0'; }

#define CHILD_LOG(want)                                                                                              \
    do {                                                                                                             \
        if (strcmp(g_log, (want)) != 0) {                                                                            \
            fprintf(stderr, "%s:%d: callbacks ran \"%s\", expected \"%s\"\n", __FILE__, __LINE__, g_log, (want));    \
            exit(1);                                                                                                 \
        }                                                                                                            \
        log_reset();                                                                                                 \
    } while (0)

struct rec {
    const char *tag;
    aclError ret; /* what the callback returns */
};

static aclError init_cb(const char *text, size_t len, void *user)
{
    const struct rec *r = user;
    log_tag(r->tag);
    if (!text || len != g_want_len || memcmp(text, g_want_text, len) != 0 || text[len] != '\0')
        g_text_bad = 1;
    return r->ret;
}

/* The same behaviour under another function (functions are compared). */
static aclError init_cb2(const char *text, size_t len, void *user) { return init_cb(text, len, user); }

static aclError fin_cb(void *user)
{
    const struct rec *r = user;
    log_tag(r->tag);
    return r->ret;
}

static aclError fin_cb2(void *user) { return fin_cb(user); }

/* Is the process initialised? A probe registered while it is runs at once. */
static int g_probe;

static aclError probe_cb(const char *text, size_t len, void *user)
{
    (void)text;
    (void)len;
    (void)user;
    g_probe++;
    return ACL_SUCCESS;
}

static int initialized(void)
{
    g_probe = 0;
    if (aclInitCallbackRegister(ACL_REG_TYPE_OTHER, probe_cb, NULL) != ACL_SUCCESS ||
        aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, probe_cb) != ACL_SUCCESS) {
        fprintf(stderr, "probe registration failed\n");
        exit(1);
    }
    return g_probe;
}

static char g_path[256];

/* Writes the configuration file and expects callbacks to see exactly it. */
static const char *config_file(const char *text)
{
    const char *dir = getenv("TMPDIR");
    snprintf(g_path, sizeof(g_path), "%s/oacl-cb-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(g_path);
    CHILD_CHECK(fd >= 0);
    CHILD_CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    g_want_text = text;
    g_want_len = strlen(text);
    return g_path;
}

static void expect_text(const char *text)
{
    g_want_text = text;
    g_want_len = strlen(text);
}

/* Raw bytes, not reformatted: odd spacing, an escape, a NUL escape. */
static const char g_config[] = "{ \"err_msg_mode\" :\"0\",\n  \"x\": \"a\\u0000b\\t\",  \"n\" : [1, 2 ] }\n";

/* ---- order and text, two cycles ---- */

static struct rec r_model = {"M", 0}, r_exec = {"E", 0}, r_cblas = {"B", 0}, r_compiler = {"C", 0},
                  r_tdt = {"T", 0}, r_queue = {"Q", 0}, r_dvpp = {"D", 0}, r_retr = {"R", 0}, r_other1 = {"O1", 0},
                  r_other2 = {"O2", 0}, r_unknown = {"U", 0};

static void register_all(void)
{
    /* Registration order differs from the schedule on purpose. */
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &r_other1));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_cb, &r_dvpp));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &r_other2)); /* same function again */
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, init_cb, &r_exec));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_cb, &r_model));
    /* Types aclInit never notifies. */
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_CBLAS, init_cb, &r_cblas));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_COMPILER, init_cb, &r_compiler));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_TDT_CHANNEL, init_cb, &r_tdt));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_TDT_QUEUE, init_cb, &r_queue));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_RETR, init_cb, &r_retr));
    CHILD_OK(aclInitCallbackRegister((aclRegisterCallbackType)1234, init_cb, &r_unknown));

    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fin_cb, &r_other1));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, fin_cb, &r_dvpp));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, fin_cb, &r_model));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_OP_COMPILER, fin_cb, &r_compiler));
    /* Types aclFinalize never notifies. */
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, fin_cb, &r_exec));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_OP_CBLAS, fin_cb, &r_cblas));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_RETR, fin_cb, &r_retr));
}

static void child_order_with_file(void)
{
    register_all();
    log_reset();
    const char *path = config_file(g_config);
    for (int cycle = 0; cycle < 2; cycle++) {
        CHILD_OK(aclInit(path));
        CHILD_LOG("M E D O1 O2");
        CHILD_CHECK(!g_text_bad);
        CHILD_CHECK(initialized());
        /* A repeated aclInit runs nothing. */
        CHILD_ERR(aclInit(path), ACL_ERROR_REPEAT_INITIALIZE, "already initialized");
        CHILD_LOG("");
        CHILD_OK(aclFinalize()); /* drops the whole count */
        CHILD_LOG("C M D O1");
        CHILD_CHECK(!initialized());
        CHILD_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
        CHILD_LOG("");
    }
    /* aclFinalizeReference runs them when the count drops to 0 only. */
    CHILD_OK(aclInit(path));
    CHILD_LOG("M E D O1 O2");
    CHILD_ERR(aclInit(path), ACL_ERROR_REPEAT_INITIALIZE, NULL);
    uint64_t left = 9;
    CHILD_OK(aclFinalizeReference(&left));
    CHILD_CHECK_INT(left, 1);
    CHILD_LOG("");
    CHILD_OK(aclFinalizeReference(&left));
    CHILD_CHECK_INT(left, 0);
    CHILD_LOG("C M D O1");
    unlink(path);
}

static void child_order_without_file(void)
{
    register_all();
    log_reset();
    expect_text("");
    /* No configuration: OP_EXECUTOR is not notified; the text is "". */
    CHILD_OK(aclInit(NULL));
    CHILD_LOG("M D O1 O2");
    CHILD_OK(aclFinalize());
    CHILD_LOG("C M D O1");
    CHILD_OK(aclInit(""));
    CHILD_LOG("M D O1 O2");
    CHILD_CHECK(!g_text_bad);
    CHILD_OK(aclFinalize());
    CHILD_LOG("C M D O1");
    /* An empty file is the same configuration, and it is notified as one. */
    config_file("");
    CHILD_OK(aclInit(g_path));
    CHILD_LOG("M E D O1 O2");
    CHILD_CHECK(!g_text_bad);
    CHILD_OK(aclFinalize());
    CHILD_LOG("C M D O1");
    unlink(g_path);
}

/* The first aclFinalize of a process that never initialised runs them too. */
static void child_first_finalize(void)
{
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fin_cb, &r_other1));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, fin_cb, &r_model));
    log_reset();
    CHILD_OK(aclFinalize());
    CHILD_LOG("M O1");
    CHILD_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
    CHILD_LOG("");
    /* aclFinalizeReference without aclInit is no finalize. */
    CHILD_ERR(aclFinalizeReference(NULL), ACL_ERROR_REPEAT_FINALIZE, "not initialized");
    CHILD_LOG("");
}

/* ---- failures ---- */

static void child_failing_init(void)
{
    static struct rec model = {"M", 12345}, dvpp = {"D", 0}, other = {"O", 0};
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_cb, &model));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_cb, &dvpp));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &other));
    expect_text("");
    log_reset();
    CHILD_ERR(aclInit(NULL), 12345, "aclInit: the ACL_REG_TYPE_ACL_MODEL init callback #1 returned 12345");
    CHILD_LOG("M"); /* the sequence stopped */
    CHILD_CHECK(!initialized());
    /* The runtime still works, and the next aclInit is a real one. */
    CHILD_OK(aclrtSetDevice(0));
    CHILD_OK(aclrtResetDevice(0));
    model.ret = 0;
    CHILD_OK(aclInit(NULL));
    CHILD_LOG("M D O");
    CHILD_CHECK(initialized());
    CHILD_OK(aclFinalize());
    /* A failure at a later step: earlier steps stay done, the process
       stays uninitialised. A runtime-layer code also becomes the last
       error. */
    other.ret = ACL_ERROR_RT_PARAM_INVALID;
    CHILD_ERR(aclInit(NULL), ACL_ERROR_RT_PARAM_INVALID, "ACL_REG_TYPE_OTHER init callback #1 returned 107000");
    CHILD_LOG("M D O");
    CHILD_CHECK(!initialized());
    CHILD_CHECK_INT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    other.ret = 0;
    CHILD_OK(aclInit(NULL));
    CHILD_LOG("M D O");
    /* A failed first aclInit fixes no configuration (C3). */
    CHILD_OK(aclFinalize());
}

static void child_failing_init_with_file(void)
{
    static struct rec model = {"M", 0}, exec = {"E", 4321}, other = {"O", 0};
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_cb, &model));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, init_cb, &exec));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &other));
    log_reset();
    const char *path = config_file("{\"defaultDevice\": {\"default_device\": \"1\"}}");
    CHILD_ERR(aclInit(path), 4321, "ACL_REG_TYPE_ACL_OP_EXECUTOR init callback #1 returned 4321");
    CHILD_LOG("M E");
    /* defaultDevice comes after the OP_EXECUTOR callbacks: not applied. */
    int32_t dev = -1;
    CHILD_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice");
    /* A configuration that fails its checks runs no callback at all. */
    const char *bad = config_file("{\"err_msg_mode\": \"5\"}");
    CHILD_ERR(aclInit(bad), ACL_ERROR_INVALID_PARAM, "err_msg_mode");
    CHILD_LOG("");
    unlink(bad);
    exec.ret = 0;
    config_file("{\"defaultDevice\": {\"default_device\": \"1\"}}");
    CHILD_OK(aclInit(g_path));
    CHILD_LOG("M E O");
    CHILD_OK(aclrtGetDevice(&dev));
    CHILD_CHECK_INT(dev, 1);
    CHILD_OK(aclrtResetDevice(1));
    unlink(path);
    unlink(g_path);
}

static void child_failing_finalize(void)
{
    static struct rec compiler = {"C", 0}, model = {"M", 777}, dvpp = {"D", 0}, other = {"O", 0};
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_OP_COMPILER, fin_cb, &compiler));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, fin_cb, &model));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, fin_cb, &dvpp));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fin_cb, &other));
    CHILD_OK(aclInit(NULL));
    log_reset();
    CHILD_ERR(aclFinalize(), 777, "aclFinalize: the ACL_REG_TYPE_ACL_MODEL finalize callback #1 returned 777");
    CHILD_LOG("C M");
    CHILD_CHECK(initialized()); /* still initialised */
    /* The next aclFinalize runs every callback again. */
    model.ret = 0;
    CHILD_OK(aclFinalize());
    CHILD_LOG("C M D O");
    CHILD_CHECK(!initialized());
    CHILD_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
    CHILD_LOG("");
    /* The same through aclFinalizeReference: the count stays 1. */
    CHILD_OK(aclInit(NULL));
    other.ret = 55;
    uint64_t left = 99;
    CHILD_ERR(aclFinalizeReference(&left), 55, "aclFinalizeReference: the ACL_REG_TYPE_OTHER finalize callback");
    CHILD_CHECK_INT(left, 1);
    CHILD_LOG("C M D O");
    CHILD_CHECK(initialized());
    other.ret = 0;
    CHILD_OK(aclFinalizeReference(&left));
    CHILD_CHECK_INT(left, 0);
    CHILD_LOG("C M D O");
}

/* ---- registration errors and unregistration ---- */

static void child_register_errors(void)
{
    static struct rec a = {"A", 0}, b = {"B", 0}, o = {"O", 0};
    CHILD_ERR(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, NULL, &a), ACL_ERROR_INVALID_PARAM,
              "aclInitCallbackRegister: cbFunc is NULL");
    CHILD_ERR(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, NULL, &a), ACL_ERROR_INVALID_PARAM,
              "aclFinalizeCallbackRegister: cbFunc is NULL");
    CHILD_ERR(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, NULL), ACL_ERROR_INVALID_PARAM,
              "aclInitCallbackUnRegister: cbFunc is NULL");
    CHILD_ERR(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, NULL), ACL_ERROR_INVALID_PARAM,
              "aclFinalizeCallbackUnRegister: cbFunc is NULL");
    /* One callback per type except OTHER; the two lists are separate. */
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_cb, &a));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, fin_cb, &a));
    CHILD_ERR(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_cb2, &b), ACL_ERROR_INTERNAL_ERROR,
              "aclInitCallbackRegister: type 0 already has an init callback");
    CHILD_ERR(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, fin_cb, &b), ACL_ERROR_INTERNAL_ERROR,
              "type 0 already has a finalize callback");
    /* Any type value is stored; only OTHER takes several. */
    CHILD_OK(aclInitCallbackRegister((aclRegisterCallbackType)-5, init_cb, &b));
    CHILD_ERR(aclInitCallbackRegister((aclRegisterCallbackType)-5, init_cb, &b), ACL_ERROR_INTERNAL_ERROR,
              "type -5 already has");
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &o));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &o));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb2, &b));
    /* Unknown entries: 500000. */
    CHILD_ERR(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, init_cb), ACL_ERROR_INTERNAL_ERROR,
              "aclInitCallbackUnRegister: no init callback with that function is registered under type 6");
    CHILD_ERR(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, init_cb2), ACL_ERROR_INTERNAL_ERROR,
              "under type 0");
    CHILD_ERR(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, fin_cb), ACL_ERROR_INTERNAL_ERROR,
              "aclFinalizeCallbackUnRegister: no finalize callback");
    CHILD_ERR(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, fin_cb2), ACL_ERROR_INTERNAL_ERROR, "type 0");
    /* Not runtime-layer codes: no last error. */
    CHILD_CHECK_INT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    /* The failures changed nothing. */
    expect_text("");
    log_reset();
    CHILD_OK(aclInit(NULL));
    CHILD_LOG("A O O B");
    CHILD_OK(aclFinalize());
    CHILD_LOG("A");
    /* Unregistering removes the first entry with that function (userData
       is not compared); unregistered callbacks do not run. */
    CHILD_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, init_cb));
    CHILD_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, init_cb));
    CHILD_OK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, fin_cb));
    CHILD_OK(aclInit(NULL));
    CHILD_LOG("O B");
    CHILD_OK(aclFinalize());
    CHILD_LOG("");
    CHILD_ERR(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, fin_cb), ACL_ERROR_INTERNAL_ERROR, "type 0");
    /* The type is free again. */
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_cb2, &a));
}

/* ---- registration while initialised ---- */

static void child_register_after_init(void)
{
    static struct rec late = {"L", 999}, never = {"N", 0}, fin = {"F", 0}, retr = {"R", 0};
    const char *path = config_file("{\"err_msg_mode\": \"0\"}\n");
    CHILD_OK(aclInit(path));
    log_reset();
    /* Runs at once with the configuration in effect; its 999 is ignored. */
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &late));
    CHILD_LOG("L");
    CHILD_CHECK(!g_text_bad);
    /* So does a type aclInit never notifies. */
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_RETR, init_cb, &retr));
    CHILD_LOG("R");
    /* Finalize callbacks are never run at registration. */
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fin_cb, &fin));
    CHILD_LOG("");
    /* Registered, then unregistered before use: never runs. */
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fin_cb2, &never));
    CHILD_OK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, fin_cb2));
    CHILD_OK(aclFinalize());
    CHILD_LOG("F");
    /* Registrations persist across cycles; the late one runs in the next
       aclInit, where its result counts. */
    late.ret = 0;
    CHILD_OK(aclInit(path));
    CHILD_LOG("L");
    CHILD_CHECK(!g_text_bad);
    CHILD_OK(aclFinalize());
    CHILD_LOG("F");
    /* Not initialised: registration runs nothing. */
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_cb, &never));
    CHILD_LOG("");
    unlink(path);
}

/* ---- callbacks that call the API ---- */

static struct rec r_inner = {"I", 0}, r_late_dvpp = {"LD", 0}, r_self = {"S", 0}, r_next = {"X", 0};
static int g_nested_ok;

/* MODEL: the process is not initialised yet; nested aclInit/aclFinalize
 * are refused (no deadlock); a DVPP callback registered now runs in this
 * very aclInit (a later step). */
static aclError model_cb(const char *text, size_t len, void *user)
{
    (void)text;
    (void)len;
    (void)user;
    log_tag("M");
    int ok = !initialized();
    ok &= aclInit(NULL) == ACL_ERROR_INVALID_PARAM;
    const char *msg = aclGetRecentErrMsg();
    ok &= msg && strstr(msg, "aclInit: called from an init/finalize callback") != NULL;
    ok &= aclFinalize() == ACL_ERROR_INVALID_PARAM;
    ok &= aclFinalizeReference(NULL) == ACL_ERROR_INVALID_PARAM;
    (void)aclGetRecentErrMsg();
    ok &= aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_cb, &r_late_dvpp) == ACL_SUCCESS;
    g_nested_ok = ok;
    return ACL_SUCCESS;
}

/* DVPP (registered above): registers another OTHER callback and
 * unregisters itself; the step's snapshot is not affected. */
static aclError other_self_cb(const char *text, size_t len, void *user)
{
    (void)text;
    (void)len;
    log_tag(((const struct rec *)user)->tag);
    int ok = aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &r_next) == ACL_SUCCESS;
    ok &= aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, other_self_cb) == ACL_SUCCESS;
    g_nested_ok &= ok;
    return ACL_SUCCESS;
}

/* Finalize callbacks run while the process still counts as initialised. */
static aclError fin_check_cb(void *user)
{
    (void)user;
    log_tag("F");
    g_nested_ok &= initialized();
    g_nested_ok &= aclFinalize() == ACL_ERROR_INVALID_PARAM;
    (void)aclGetRecentErrMsg();
    return ACL_SUCCESS;
}

static void child_reentrant(void)
{
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, model_cb, NULL));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, other_self_cb, &r_self));
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &r_inner));
    CHILD_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fin_check_cb, NULL));
    expect_text("");
    log_reset();
    CHILD_OK(aclInit(NULL));
    /* LD registered during M runs at the DVPP step; X registered during S
       does not run in this OTHER step, and I (already in the snapshot)
       still does. */
    CHILD_LOG("M LD S I");
    CHILD_CHECK(g_nested_ok);
    CHILD_OK(aclFinalize());
    CHILD_LOG("F");
    CHILD_CHECK(g_nested_ok);
    /* Next cycle: S is gone, X is there (after I); M registers LD again,
       which needs the DVPP type free. */
    CHILD_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, init_cb));
    CHILD_OK(aclInit(NULL));
    CHILD_LOG("M LD I X");
    CHILD_CHECK(g_nested_ok);
    CHILD_OK(aclFinalize());
    CHILD_LOG("F");
}

/* ---- concurrent registration ---- */

#define REG_THREADS 4
#define REG_EACH 50

static void *register_many(void *arg)
{
    (void)arg;
    static struct rec r = {"x", 0};
    int bad = 0;
    for (int i = 0; i < REG_EACH; i++)
        bad |= aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_cb, &r) != ACL_SUCCESS;
    for (int i = 0; i < REG_EACH / 2; i++)
        bad |= aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, init_cb) != ACL_SUCCESS;
    return (void *)(uintptr_t)bad;
}

static int g_count;

static aclError count_cb(const char *text, size_t len, void *user)
{
    (void)text;
    (void)len;
    (void)user;
    g_count++;
    return ACL_SUCCESS;
}

static void child_concurrent_register(void)
{
    pthread_t t[REG_THREADS];
    for (int i = 0; i < REG_THREADS; i++)
        CHILD_CHECK(pthread_create(&t[i], NULL, register_many, NULL) == 0);
    for (int i = 0; i < REG_THREADS; i++) {
        void *r = (void *)1;
        CHILD_CHECK(pthread_join(t[i], &r) == 0);
        CHILD_CHECK(r == NULL);
    }
    /* Every registration that was not undone is there: each runs once. */
    CHILD_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, count_cb, NULL));
    expect_text("");
    log_reset();
    CHILD_OK(aclInit(NULL));
    CHILD_CHECK_INT(g_count, 1);
    /* REG_THREADS * REG_EACH / 2 tags "x" joined by spaces. */
    CHILD_CHECK_INT(strlen(g_log), 2 * (REG_THREADS * REG_EACH / 2) - 1);
    CHILD_OK(aclFinalize());
}

/* ---- parent side ---- */

static void test_order_two_cycles_with_file(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("order_with_file", "OACL_DEVICE_COUNT");
}

static void test_order_without_file(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("order_without_file", "OACL_DEVICE_COUNT");
}

static void test_first_finalize(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("first_finalize", "OACL_DEVICE_COUNT");
}

static void test_failing_init(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("failing_init", "OACL_DEVICE_COUNT");
    ASSERT_CHILD_OK("failing_init_with_file", "OACL_DEVICE_COUNT");
}

static void test_failing_finalize(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("failing_finalize", "OACL_DEVICE_COUNT");
}

static void test_register_errors(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("register_errors", "OACL_DEVICE_COUNT");
}

static void test_register_after_init(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("register_after_init", "OACL_DEVICE_COUNT");
}

static void test_reentrant(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("reentrant", "OACL_DEVICE_COUNT");
}

static void test_concurrent_register(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("concurrent_register", "OACL_DEVICE_COUNT");
}

static const struct oacl_child_mode g_modes[] = {
    {"order_with_file", child_order_with_file},
    {"order_without_file", child_order_without_file},
    {"first_finalize", child_first_finalize},
    {"failing_init", child_failing_init},
    {"failing_init_with_file", child_failing_init_with_file},
    {"failing_finalize", child_failing_finalize},
    {"register_errors", child_register_errors},
    {"register_after_init", child_register_after_init},
    {"reentrant", child_reentrant},
    {"concurrent_register", child_concurrent_register},
};

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_two_cycles_with_file),
        cmocka_unit_test(test_order_without_file),
        cmocka_unit_test(test_first_finalize),
        cmocka_unit_test(test_failing_init),
        cmocka_unit_test(test_failing_finalize),
        cmocka_unit_test(test_register_errors),
        cmocka_unit_test(test_register_after_init),
        cmocka_unit_test(test_reentrant),
        cmocka_unit_test(test_concurrent_register),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
