/*
 * Error reporting (spec 1.4, 1.10, 4.1 aclGetRecentErrMsg, 4.9, 5.26):
 * the recent-error text (newest first, cleared when read, per thread by
 * default, valid until the next read) and the per-thread last runtime error
 * behind aclrtGetLastError / aclrtPeekAtLastError.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define LEVEL ACL_RT_THREAD_LEVEL

static size_t count_lines(const char *text)
{
    size_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

/* ---- aclGetRecentErrMsg ------------------------------------------------------------ */

static void test_msg_empty(void **state)
{
    (void)state;
    assert_null(aclGetRecentErrMsg());
    assert_null(aclGetRecentErrMsg());
    /* Successful calls record nothing. */
    uint32_t n;
    ACL_OK(aclrtGetDeviceCount(&n));
    ACL_OK(aclrtSetDevice(0));
    aclrtRunMode mode;
    ACL_OK(aclrtGetRunMode(&mode));
    assert_non_null(aclrtGetSocName());
    assert_null(aclGetRecentErrMsg());
}

/* One line per failure, newest first, lines joined by '\n'. */
static void test_msg_newest_first(void **state)
{
    (void)state;
    char pkg[] = "no-such-package";
    int32_t v;
    assert_int_equal(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclsysGetVersionNum(pkg, &v), ACL_ERROR_INVALID_FILE);
    assert_int_equal(aclrtResetDevice(6), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_int_equal(count_lines(msg), 4);
    assert_int_not_equal(msg[strlen(msg) - 1], '\n');
    const char *l1 = strstr(msg, "aclrtResetDevice: device 6 is not set");
    const char *l2 = strstr(msg, "aclsysGetVersionNum: unknown package 'no-such-package'");
    const char *l3 = strstr(msg, "aclrtGetDevice: deviceId is NULL");
    const char *l4 = strstr(msg, "aclrtSetDevice: device id -1 is out of range");
    assert_non_null(l1);
    assert_non_null(l2);
    assert_non_null(l3);
    assert_non_null(l4);
    assert_ptr_equal(l1, msg); /* the newest line comes first */
    assert_true(l1 < l2 && l2 < l3 && l3 < l4);
    /* Each line is preceded by a line break (no line is cut or merged). */
    assert_int_equal(l2[-1], '\n');
    assert_int_equal(l3[-1], '\n');
    assert_int_equal(l4[-1], '\n');
}

/* Reading clears the text; the next read only has what failed since. */
static void test_msg_cleared_after_read(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_non_null(strstr(msg, "device id 99"));
    assert_null(aclGetRecentErrMsg());
    assert_null(aclGetRecentErrMsg());
    assert_int_equal(aclrtSetDevice(98), ACL_ERROR_RT_INVALID_DEVICEID);
    msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_non_null(strstr(msg, "device id 98"));
    assert_null(strstr(msg, "device id 99"));
    assert_int_equal(count_lines(msg), 1);
}

/* The returned text stays valid (and unchanged) until the next call, even
 * while new failures are recorded. */
static void test_msg_pointer_valid_until_next_call(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(-5), ACL_ERROR_RT_INVALID_DEVICEID);
    const char *first = aclGetRecentErrMsg();
    assert_non_null(first);
    char copy[1024];
    snprintf(copy, sizeof(copy), "%s", first);
    for (int i = 0; i < 50; i++)
        assert_int_equal(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
    assert_string_equal(first, copy);
    const char *second = aclGetRecentErrMsg();
    assert_non_null(second);
    assert_null(strstr(second, "device id -5"));
    assert_non_null(strstr(second, "aclrtGetDevice: deviceId is NULL"));
    assert_int_equal(count_lines(second), 50);
}

/* The text is capped, keeping the newest lines whole. */
static void test_msg_long_history(void **state)
{
    (void)state;
    for (int i = 0; i < 2000; i++)
        assert_int_equal(aclrtSetDevice(100000 + i), ACL_ERROR_RT_INVALID_DEVICEID);
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    size_t len = strlen(msg);
    assert_true(len < 64 * 1024);
    assert_ptr_equal(strstr(msg, "aclrtSetDevice: device id 101999 is out of range"), msg);
    /* Every kept line is whole and they stay in order (newest first). */
    int expect = 101999;
    const char *p = msg;
    for (;;) {
        char want[96];
        snprintf(want, sizeof(want), "aclrtSetDevice: device id %d is out of range", expect);
        assert_memory_equal(p, want, strlen(want));
        const char *nl = strchr(p, '\n');
        if (!nl) {
            assert_int_equal(msg[len - 1], ')');
            break;
        }
        assert_int_equal(nl[-1], ')');
        p = nl + 1;
        expect--;
    }
    assert_true(expect > 100000); /* the oldest ones were dropped */
    assert_null(aclGetRecentErrMsg());
}

struct thread_msg {
    pthread_barrier_t *barrier;
    int id;
    const char *seen;     /* what the thread read first */
    char seen_copy[512];
    int ok;
};

/* Fails, reads its own text, waits while the main thread reads (and frees
 * its own text) twice, then checks that its pointer is still intact. */
static void *thread_own_text(void *p)
{
    struct thread_msg *t = p;
    t->ok = 0;
    if (aclrtSetDevice(-100 - t->id) != ACL_ERROR_RT_INVALID_DEVICEID)
        return NULL;
    pthread_barrier_wait(t->barrier); /* 1: every thread has failed */
    t->seen = aclGetRecentErrMsg();
    if (t->seen)
        snprintf(t->seen_copy, sizeof(t->seen_copy), "%s", t->seen);
    pthread_barrier_wait(t->barrier); /* 2: every thread has read */
    pthread_barrier_wait(t->barrier); /* 3: main has read twice */
    char want[64];
    snprintf(want, sizeof(want), "device id %d ", -100 - t->id);
    t->ok = t->seen && strcmp(t->seen, t->seen_copy) == 0 && strstr(t->seen, want) && count_lines(t->seen) == 1 &&
            aclGetRecentErrMsg() == NULL;
    return NULL;
}

/* Default mode: each thread sees only its own failures. */
static void test_msg_per_thread(void **state)
{
    (void)state;
    enum { N = 4 };
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, N + 1);
    struct thread_msg t[N];
    pthread_t th[N];
    assert_int_equal(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    for (int i = 0; i < N; i++) {
        t[i].barrier = &barrier;
        t[i].id = i;
        assert_int_equal(pthread_create(&th[i], NULL, thread_own_text, &t[i]), 0);
    }
    pthread_barrier_wait(&barrier); /* 1 */
    pthread_barrier_wait(&barrier); /* 2 */
    const char *mine = aclGetRecentErrMsg();
    assert_non_null(mine);
    assert_int_equal(count_lines(mine), 1);
    assert_non_null(strstr(mine, "device id -1 "));
    assert_null(aclGetRecentErrMsg());
    pthread_barrier_wait(&barrier); /* 3 */
    for (int i = 0; i < N; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        assert_true(t[i].ok);
    }
    pthread_barrier_destroy(&barrier);
}

static void *fail_and_exit(void *p)
{
    int read_it = *(int *)p;
    for (int i = 0; i < 20; i++)
        (void)aclrtSetDevice(-1);
    if (read_it)
        (void)aclGetRecentErrMsg();
    (void)aclrtSetDevice(-2);
    return NULL;
}

/* A thread that exits with unread text (or a text it read) does not leave
 * it behind: not on this thread (and, under ASan, not as a leak). */
static void test_msg_thread_exit(void **state)
{
    (void)state;
    for (int read_it = 0; read_it < 2; read_it++) {
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, fail_and_exit, &read_it), 0);
        assert_int_equal(pthread_join(th, NULL), 0);
    }
    assert_null(aclGetRecentErrMsg());
}

/* Every failing function names itself and the offending argument. */
static void test_msg_names_function_and_argument(void **state)
{
    (void)state;
    ACL_ERR(aclrtSetDevice(12345), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice: device id 12345");
    ACL_ERR(aclrtResetDevice(-9), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice: device id -9");
    ACL_ERR(aclrtResetDeviceForce(77), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDeviceForce: device id 77");
    ACL_ERR(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is NULL");
    ACL_ERR(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: runMode is NULL");
    ACL_ERR(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is NULL");
    ACL_ERR(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: stream is NULL");
    ACL_ERR(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamForce: stream is NULL");
    ACL_ERR(aclrtGetLastError((aclrtLastErrLevel)3), ACL_ERROR_INVALID_PARAM, "aclrtGetLastError: level 3");
    ACL_ERR(aclrtPeekAtLastError((aclrtLastErrLevel)4), ACL_ERROR_INVALID_PARAM, "aclrtPeekAtLastError: level 4");
}

/* ---- aclrtGetLastError / aclrtPeekAtLastError ---------------------------------------- */

static void test_last_error_initially_clear(void **state)
{
    (void)state;
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_SUCCESS);
    assert_int_equal(aclrtGetLastError(LEVEL), ACL_SUCCESS);
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_SUCCESS);
    /* Querying records no message. */
    assert_null(aclGetRecentErrMsg());
}

static void test_last_error_get_resets_peek_keeps(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtGetLastError(LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_SUCCESS);
    assert_int_equal(aclrtGetLastError(LEVEL), ACL_SUCCESS);
}

/* Successes do not clear the slot; a newer runtime failure replaces it. */
static void test_last_error_sticky_and_newest(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(8), ACL_ERROR_RT_INVALID_DEVICEID);
    ACL_OK(aclrtSetDevice(0));
    int32_t dev;
    ACL_OK(aclrtGetDevice(&dev));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyStream(s));
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    /* 5070xx */
    assert_int_equal(aclrtResetDevice(3), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    /* 1070xx: a stale stream handle */
    assert_int_equal(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_ERROR_RT_INVALID_HANDLE);
    /* 1070xx: no context after the reset */
    ACL_OK(aclrtResetDevice(0));
    assert_int_equal(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtGetLastError(LEVEL), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtGetLastError(LEVEL), ACL_SUCCESS);
}

/* API-layer codes (1000xx) leave the slot alone, whether empty or not. */
static void test_last_error_api_layer_codes(void **state)
{
    (void)state;
    char unknown[] = "nope";
    char buf[ACL_PKG_VERSION_MAX_SIZE];
    for (int filled = 0; filled < 2; filled++) {
        aclError want = ACL_SUCCESS;
        if (filled) {
            assert_int_equal(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
            want = ACL_ERROR_RT_INVALID_DEVICEID;
        }
        assert_int_equal(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
        assert_int_equal(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
        assert_int_equal(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
        assert_int_equal(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
        assert_int_equal(aclsysGetVersionStr(unknown, buf), ACL_ERROR_INVALID_FILE);
        assert_int_equal(aclInit("/nonexistent/oacl.json"), ACL_ERROR_INVALID_FILE);
        assert_int_equal(aclFinalizeReference(NULL), ACL_ERROR_REPEAT_FINALIZE);
        assert_int_equal(aclrtPeekAtLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM);
        assert_int_equal(aclrtPeekAtLastError(LEVEL), want);
        assert_int_equal(aclrtGetLastError(LEVEL), want);
    }
    (void)aclGetRecentErrMsg();
}

/* A level other than ACL_RT_THREAD_LEVEL is answered with 100000 and
 * neither reads nor resets the slot. */
static void test_last_error_bad_level(void **state)
{
    (void)state;
    static const int levels[] = {1, 2, -1, 0x7fffffff, (int)0x80000000};
    assert_int_equal(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    for (size_t i = 0; i < ARRAY_LEN(levels); i++) {
        char want[64];
        snprintf(want, sizeof(want), "level %d is not ACL_RT_THREAD_LEVEL", levels[i]);
        ACL_ERR(aclrtGetLastError((aclrtLastErrLevel)levels[i]), ACL_ERROR_INVALID_PARAM, want);
        ACL_ERR(aclrtPeekAtLastError((aclrtLastErrLevel)levels[i]), ACL_ERROR_INVALID_PARAM, want);
        assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    }
    assert_int_equal(aclrtGetLastError(LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    /* With an empty slot as well. */
    ACL_ERR(aclrtGetLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM, "level 1");
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_SUCCESS);
}

struct thread_slot {
    pthread_barrier_t *barrier;
    int id;
    int ok;
};

/* Each thread fails in its own way, then checks (after all have failed)
 * that its slot and text hold its own failure only. */
static void *thread_own_slot(void *p)
{
    struct thread_slot *t = p;
    int ok = aclrtPeekAtLastError(LEVEL) == ACL_SUCCESS;
    aclError want;
    switch (t->id % 3) {
    case 0:
        want = ACL_ERROR_RT_INVALID_DEVICEID;
        ok &= aclrtSetDevice(-1000 - t->id) == want;
        break;
    case 1: {
        aclrtStream s;
        want = ACL_ERROR_RT_CONTEXT_NULL;
        ok &= aclrtCreateStream(&s) == want;
        break;
    }
    default:
        want = ACL_ERROR_RT_CONTEXT_RELEASE_ERROR;
        ok &= aclrtResetDeviceForce(7) == want;
        break;
    }
    pthread_barrier_wait(t->barrier);
    ok &= aclrtPeekAtLastError(LEVEL) == want;
    const char *msg = aclGetRecentErrMsg();
    ok &= msg != NULL && count_lines(msg) == 1;
    if (msg && t->id % 3 == 0) {
        char needle[64];
        snprintf(needle, sizeof(needle), "device id %d ", -1000 - t->id);
        ok &= strstr(msg, needle) != NULL;
    }
    ok &= aclrtGetLastError(LEVEL) == want;
    ok &= aclrtPeekAtLastError(LEVEL) == ACL_SUCCESS;
    t->ok = ok;
    return NULL;
}

static void test_last_error_per_thread(void **state)
{
    (void)state;
    enum { N = 6 };
    assert_int_equal(aclrtSetDevice(64), ACL_ERROR_RT_INVALID_DEVICEID);
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, N);
    for (int round = 0; round < 10; round++) {
        struct thread_slot t[N];
        pthread_t th[N];
        for (int i = 0; i < N; i++) {
            t[i].barrier = &barrier;
            t[i].id = i;
            assert_int_equal(pthread_create(&th[i], NULL, thread_own_slot, &t[i]), 0);
        }
        for (int i = 0; i < N; i++) {
            assert_int_equal(pthread_join(th[i], NULL), 0);
            assert_true(t[i].ok);
        }
    }
    pthread_barrier_destroy(&barrier);
    /* This thread's slot and text are untouched by the others. */
    assert_int_equal(aclrtPeekAtLastError(LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_int_equal(count_lines(msg), 1);
    assert_non_null(strstr(msg, "device id 64 "));
}

/* ---- 2070xx / 5070xx codes from configurations (child processes) -------------------- */

static void child_no_device(void)
{
    uint32_t n = 77;
    CHILD_ERR(aclrtGetDeviceCount(&n), ACL_ERROR_RT_NO_DEVICE, "aclrtGetDeviceCount: no devices");
    CHILD_CHECK_INT(n, 77);
    CHILD_CHECK_INT(aclrtPeekAtLastError(LEVEL), ACL_ERROR_RT_NO_DEVICE);
    CHILD_CHECK_INT(aclrtGetLastError(LEVEL), ACL_ERROR_RT_NO_DEVICE);
    CHILD_CHECK_INT(aclrtGetLastError(LEVEL), ACL_SUCCESS);
}

static void child_bad_soc(void)
{
    (void)aclGetRecentErrMsg();
    CHILD_CHECK(aclrtGetSocName() == NULL);
    const char *msg = aclGetRecentErrMsg();
    CHILD_CHECK(msg && strstr(msg, "aclrtGetSocName: OACL_SOC='NoSuchChip' names no known SoC profile"));
    CHILD_CHECK_INT(aclrtPeekAtLastError(LEVEL), ACL_ERROR_RT_SOC_VERSION);
    CHILD_CHECK_INT(aclrtGetLastError(LEVEL), ACL_ERROR_RT_SOC_VERSION);
    CHILD_ERR(aclrtSetDevice(0), ACL_ERROR_RT_SOC_VERSION, "aclrtSetDevice: OACL_SOC='NoSuchChip'");
    CHILD_CHECK_INT(aclrtGetLastError(LEVEL), ACL_ERROR_RT_SOC_VERSION);
}

static void test_last_error_from_configuration(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("no_device", "OACL_DEVICE_COUNT=0", "OACL_SOC");
    ASSERT_CHILD_OK("bad_soc", "OACL_SOC=NoSuchChip", "OACL_DEVICE_COUNT");
}

static const struct oacl_child_mode g_modes[] = {
    {"no_device", child_no_device},
    {"bad_soc", child_bad_soc},
};

#define T(fn) cmocka_unit_test_setup_teardown(fn, oacl_test_reset_fixture, oacl_test_reset_fixture)

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    unsetenv("OACL_DEVICE_COUNT");
    unsetenv("OACL_SOC");
    const struct CMUnitTest tests[] = {
        T(test_msg_empty),
        T(test_msg_newest_first),
        T(test_msg_cleared_after_read),
        T(test_msg_pointer_valid_until_next_call),
        T(test_msg_long_history),
        T(test_msg_per_thread),
        T(test_msg_thread_exit),
        T(test_msg_names_function_and_argument),
        T(test_last_error_initially_clear),
        T(test_last_error_get_resets_peek_keeps),
        T(test_last_error_sticky_and_newest),
        T(test_last_error_api_layer_codes),
        T(test_last_error_bad_level),
        T(test_last_error_per_thread),
        T(test_last_error_from_configuration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
