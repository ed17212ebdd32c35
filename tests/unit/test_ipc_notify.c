/*
 * IPC notifies across real processes (spec acl-rt-ipc-vmm.md 4.2, 3.5): a
 * stream in one process blocked in a wait is released by a record in
 * another (same device and across devices), refusals, the dead-peer rule,
 * aclrtNotifyBatchReset and the bad inputs of every function.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipc_peer.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- peer modes ---------------------------------------------------------------------- */

/* Imports "key <k> <id>" on PEER_DEVICE, checks the id, waits for "go",
 * records once, answers "recorded". */
static void peer_recorder(void)
{
    child_arm_alarm();
    int dev = getenv("PEER_DEVICE") ? atoi(getenv("PEER_DEVICE")) : 0;
    CHILD_OK(aclrtSetDevice(dev));
    child_send("pid %d", (int)getpid());
    char line[256], key[128];
    unsigned id = 0;
    int home = 0;
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "key %127s %u %d", key, &id, &home) == 3);
    aclrtNotify n = NULL;
    CHILD_ERR(aclrtNotifyImportByKey(&n, key, 0x1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "flag 0x1");
    CHILD_ERR(aclrtNotifyImportByKey(&n, key, 0x4), ACL_ERROR_RT_PARAM_INVALID, "flags 0x4");
    CHILD_CHECK(n == NULL);
    CHILD_OK(aclrtNotifyImportByKey(&n, key, ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS | (1ull << 32)));
    uint32_t got = 0;
    CHILD_OK(aclrtGetNotifyId(n, &got));
    CHILD_CHECK_INT(got, id);
    if (dev != home) {
        int32_t st = 0;
        CHILD_OK(aclrtDevicePeerAccessStatus(dev, home, &st));
        CHILD_CHECK_INT(st, 1); /* enabled by the import flag */
    }
    /* An imported notify cannot be exported again, and its waits belong to
       the device it was created on. */
    char k2[72];
    CHILD_ERR(aclrtNotifyGetExportKey(n, k2, sizeof(k2), 0), ACL_ERROR_RT_INTERNAL_ERROR, "imported");
    int32_t me = getpid();
    CHILD_ERR(aclrtNotifySetImportPid(n, &me, 1), ACL_ERROR_RT_NO_PERMISSION, "imported");
    if (dev != home)
        CHILD_ERR(aclrtWaitAndResetNotify(n, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "must be queued on device");
    child_send("imported");
    child_recv(line, sizeof(line)); /* "go" */
    CHILD_OK(aclrtRecordNotify(n, NULL)); /* from any device */
    CHILD_OK(aclrtSynchronizeStream(NULL));
    child_send("recorded");
    child_recv(line, sizeof(line)); /* "bye" */
    CHILD_OK(aclrtDestroyNotify(n));
}

/* Imports and then waits to be killed. */
static void peer_holder(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    char line[256], key[128];
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "key %127s", key) == 1);
    aclrtNotify n = NULL;
    CHILD_OK(aclrtNotifyImportByKey(&n, key, 0));
    child_send("imported");
    pause();
}

/* Not whitelisted: refused. */
static void peer_refused(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    char line[256], key[128];
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "key %127s", key) == 1);
    aclrtNotify n = NULL;
    CHILD_ERR(aclrtNotifyImportByKey(&n, key, 0), ACL_ERROR_RT_NO_PERMISSION, "not on the whitelist");
    CHILD_CHECK(n == NULL);
    child_send("refused");
}

static void peer_profiles_a3(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    aclrtNotify n = NULL;
    char key[72];
    CHILD_OK(aclrtCreateNotify(&n, 0));
    CHILD_OK(aclrtNotifyGetExportKey(n, key, sizeof(key), 0));
    int32_t pid = 4242;
    aclrtServerPid sp[2] = {{1, &pid, 1}, {777, &pid, 1}}; /* this host's device 1, another server */
    CHILD_OK(aclrtNotifySetImportPidInterServer(n, sp, 2));
    aclrtServerPid two = {0, &pid, 2};
    CHILD_ERR(aclrtNotifySetImportPidInterServer(n, &two, 1), ACL_ERROR_RT_PARAM_INVALID, "one pid");
    CHILD_OK(aclrtDestroyNotify(n));
}

static void peer_profiles_950dt(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    aclrtNotify n = NULL;
    char key[72] = "same";
    CHILD_OK(aclrtCreateNotify(&n, 0));
    CHILD_ERR(aclrtNotifyGetExportKey(n, key, sizeof(key), 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtNotifyGetExportKey is not supported on Ascend950DT");
    CHILD_CHECK(strcmp(key, "same") == 0);
    CHILD_OK(aclrtNotifyBatchReset(&n, 1)); /* 950DT has batch reset */
    CHILD_OK(aclrtDestroyNotify(n));
}

static void peer_profiles_310p(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    aclrtNotify n = NULL;
    CHILD_OK(aclrtCreateNotify(&n, 0));
    CHILD_ERR(aclrtNotifyBatchReset(&n, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtNotifyBatchReset is not supported");
    char key[72];
    CHILD_OK(aclrtNotifyGetExportKey(n, key, sizeof(key), 0)); /* 310P has IPC notifies */
    CHILD_OK(aclrtDestroyNotify(n));
}

static const struct oacl_child_mode g_modes[] = {
    {"recorder", peer_recorder},
    {"holder", peer_holder},
    {"refused", peer_refused},
    {"profiles_a3", peer_profiles_a3},
    {"profiles_950dt", peer_profiles_950dt},
    {"profiles_310p", peer_profiles_310p},
};

/* ---- parent side ------------------------------------------------------------------------ */

static void recv_line(struct peer *p, char *line, size_t n)
{
    if (!peer_recv(p, line, n, PEER_TIMEOUT_MS)) {
        int st = peer_wait(p, 1000);
        fail_msg("peer %d sent nothing in time (exit status %d)", (int)p->pid, st);
    }
}

static void check_exit(struct peer *p)
{
    int st = peer_wait(p, PEER_TIMEOUT_MS);
    if (st != 0)
        fail_msg("peer exited with status %d (see its stderr above)", st);
}

static int reset(void **state)
{
    (void)state;
    oacl_test_reset_devices();
    return 0;
}

/* A waits (no timeout) with a value write queued behind the wait; B's
 * record in another process lets it through. */
static void run_record_across(int peer_device)
{
    ACL_OK(aclrtSetDevice(0));
    aclrtNotify n = NULL;
    ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    char key[72];
    memset(key, '#', sizeof(key));
    ACL_OK(aclrtNotifyGetExportKey(n, key, sizeof(key), ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT));
    assert_memory_equal(key, "oacl-n-", 7);
    assert_int_equal(key[strlen(key) + 1], '#');
    uint32_t id = 0;
    ACL_OK(aclrtGetNotifyId(n, &id));
    void *word = NULL;
    ACL_OK(aclrtMalloc(&word, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(word, 64, 0, 64));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtWaitAndResetNotify(n, s, 0));
    ACL_OK(aclrtValueWrite(word, 77, 0, s));

    char env_dev[32];
    snprintf(env_dev, sizeof(env_dev), "PEER_DEVICE=%d", peer_device);
    const char *env[] = {env_dev, NULL};
    struct peer p;
    assert_true(peer_start(&p, "recorder", env));
    char line[256];
    int pid = 0;
    recv_line(&p, line, sizeof(line));
    assert_int_equal(sscanf(line, "pid %d", &pid), 1);
    ACL_OK(aclrtNotifySetImportPid(n, &pid, 1));
    assert_true(peer_send(&p, "key %s %u 0", key, id));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "imported");
    /* Still blocked: nobody recorded. */
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, NULL);
    uint64_t v = 1;
    ACL_OK(aclrtMemcpy(&v, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(v, 0);
    assert_true(peer_send(&p, "go"));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "recorded");
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtMemcpy(&v, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(v, 77);
    assert_true(peer_send(&p, "bye"));
    check_exit(&p);
    /* Exported: a second export is refused; waits stay on device 0. */
    ACL_ERR(aclrtNotifyGetExportKey(n, key, sizeof(key), 0), ACL_ERROR_RT_INTERNAL_ERROR, "exported already");
    ACL_OK(aclrtSetDevice(1));
    ACL_ERR(aclrtWaitAndResetNotify(n, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "must be queued on device 0");
    ACL_ERR(aclrtRecordNotify(n, NULL), ACL_ERROR_RT_PARAM_INVALID, "belongs to device 0"); /* exporter: own device */
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtDestroyNotify(n));
    ACL_OK(aclrtFree(word));
}

static void test_record_across_processes(void **state)
{
    (void)state;
    run_record_across(0);
}

static void test_record_across_devices(void **state)
{
    (void)state;
    run_record_across(1);
}

/* The importer dies while the exporter waits on the notify: the wait fails
 * with 507022 instead of hanging. */
static void test_dead_peer_fails_wait(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtNotify n = NULL;
    ACL_OK(aclrtCreateNotify(&n, 0));
    char key[65];
    ACL_OK(aclrtNotifyGetExportKey(n, key, sizeof(key), ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    int32_t pid = 1;
    ACL_ERR(aclrtNotifySetImportPid(n, &pid, 1), ACL_ERROR_RT_NO_PERMISSION, "no whitelist");
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtWaitAndResetNotify(n, s, 0)); /* queued before any importer: left alone */
    struct peer p;
    assert_true(peer_start(&p, "holder", NULL));
    assert_true(peer_send(&p, "key %s", key));
    char line[64];
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "imported");
    kill(p.pid, SIGKILL);
    assert_int_equal(peer_wait(&p, PEER_TIMEOUT_MS), 128 + SIGKILL);
    ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, PEER_TIMEOUT_MS), ACL_ERROR_RT_IPC_ERROR, "has exited");
    /* A wait with its own timeout that expires first still reports it. */
    aclrtNotify m = NULL;
    ACL_OK(aclrtCreateNotify(&m, 0));
    ACL_OK(aclrtWaitAndResetNotify(m, s, 100));
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT, NULL);
    /* The notify itself still works locally. */
    ACL_OK(aclrtRecordNotify(n, s));
    ACL_OK(aclrtWaitAndResetNotify(n, s, 0));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyNotify(m));
    ACL_OK(aclrtDestroyNotify(n));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_not_whitelisted(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtNotify n = NULL;
    ACL_OK(aclrtCreateNotify(&n, 0));
    char key[65];
    ACL_OK(aclrtNotifyGetExportKey(n, key, sizeof(key), 0));
    struct peer p;
    assert_true(peer_start(&p, "refused", NULL));
    assert_true(peer_send(&p, "key %s", key));
    char line[64];
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "refused");
    check_exit(&p);
    ACL_OK(aclrtDestroyNotify(n));
}

/* Exporting while records and waits are in flight loses or duplicates
 * nothing: a record made before the export is consumed after it. */
static void test_export_moves_bit(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtNotify n = NULL;
    ACL_OK(aclrtCreateNotify(&n, 0));
    ACL_OK(aclrtRecordNotify(n, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    char key[65];
    ACL_OK(aclrtNotifyGetExportKey(n, key, sizeof(key), 0));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_OK(aclrtWaitAndResetNotify(n, s, 0)); /* consumes the record made before the export */
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtWaitAndResetNotify(n, s, 100)); /* nothing left to consume */
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT, NULL);
    /* The exporter may import its own key (D9): both handles share the bit. */
    aclrtNotify self = NULL;
    ACL_OK(aclrtNotifyImportByKey(&self, key, 0));
    ACL_OK(aclrtRecordNotify(self, NULL));
    ACL_OK(aclrtWaitAndResetNotify(n, s, 0));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtDestroyNotify(self));
    ACL_OK(aclrtDestroyNotify(n));
    /* Destroyed by its creator: the key names nothing any more. */
    ACL_ERR(aclrtNotifyImportByKey(&self, key, 0), ACL_ERROR_RT_PARAM_INVALID, "names no live notify");
    ACL_OK(aclrtDestroyStream(s));
}

static void test_batch_reset(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtNotify n[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++)
        ACL_OK(aclrtCreateNotify(&n[i], 0));
    char key[65];
    ACL_OK(aclrtNotifyGetExportKey(n[1], key, sizeof(key), 0)); /* IPC and local notifies alike */
    for (int i = 0; i < 3; i++)
        ACL_OK(aclrtRecordNotify(n[i], NULL));
    ACL_OK(aclrtNotifyBatchReset(n, 3));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    for (int i = 0; i < 3; i++) {
        ACL_OK(aclrtWaitAndResetNotify(n[i], s, 100));
        ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT, NULL);
    }
    /* Bad inputs: nothing happens, or everything up to the bad entry. */
    ACL_ERR(aclrtNotifyBatchReset(NULL, 1), ACL_ERROR_INVALID_PARAM, "notifies is NULL");
    ACL_ERR(aclrtNotifyBatchReset(n, 0), ACL_ERROR_RT_PARAM_INVALID, "num 0");
    ACL_ERR(aclrtNotifyBatchReset(n, (size_t)1 << 32), ACL_ERROR_RT_PARAM_INVALID, "is 0");
    aclrtNotify with_null[2] = {n[0], NULL};
    ACL_ERR(aclrtNotifyBatchReset(with_null, 2), ACL_ERROR_RT_PARAM_INVALID, "notifies[1] is NULL");
    ACL_OK(aclrtRecordNotify(n[0], NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    aclrtNotify dead = NULL;
    ACL_OK(aclrtCreateNotify(&dead, 0));
    ACL_OK(aclrtDestroyNotify(dead));
    aclrtNotify with_dead[2] = {n[0], dead};
    ACL_ERR(aclrtNotifyBatchReset(with_dead, 2), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_OK(aclrtWaitAndResetNotify(n[0], s, 100)); /* position 1 was reset */
    ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT, NULL);
    for (int i = 0; i < 3; i++)
        ACL_OK(aclrtDestroyNotify(n[i]));
    ACL_OK(aclrtDestroyStream(s));
}

static void *no_context(void *arg)
{
    aclrtNotify n = arg;
    int32_t pid = 1;
    ACL_ERR(aclrtNotifySetImportPid(n, &pid, 1), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    aclrtNotify m = NULL;
    ACL_ERR(aclrtNotifyImportByKey(&m, "oacl-n-1-0000000000000001-000000000000000000000000", 0),
            ACL_ERROR_RT_CONTEXT_NULL, NULL);
    assert_null(m);
    ACL_ERR(aclrtNotifyBatchReset(&n, 1), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    return NULL;
}

static void test_bad_inputs(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtNotify n = NULL, dead = NULL;
    ACL_OK(aclrtCreateNotify(&n, 0));
    ACL_OK(aclrtCreateNotify(&dead, 0));
    ACL_OK(aclrtDestroyNotify(dead));
    char key[72];
    memset(key, 'z', sizeof(key));
    key[71] = '\0';

    /* aclrtNotifyGetExportKey */
    ACL_ERR(aclrtNotifyGetExportKey(NULL, key, 65, 0), ACL_ERROR_INVALID_PARAM, "notify is NULL");
    ACL_ERR(aclrtNotifyGetExportKey(n, NULL, 65, 0), ACL_ERROR_INVALID_PARAM, "key is NULL");
    ACL_ERR(aclrtNotifyGetExportKey(dead, key, 65, 0), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_ERR(aclrtNotifyGetExportKey(n, key, 0, 0), ACL_ERROR_RT_PARAM_INVALID, "len is 0");
    ACL_ERR(aclrtNotifyGetExportKey(n, key, 65, 1), ACL_ERROR_RT_PARAM_INVALID, "flags 0x1");
    ACL_ERR(aclrtNotifyGetExportKey(n, key, 64, 0), ACL_ERROR_RT_PARAM_INVALID, "len 64");
    assert_int_equal(strspn(key, "z"), 71);
    /* Not exported by any of those: still a local notify. */
    int32_t pids[1] = {5};
    ACL_ERR(aclrtNotifySetImportPid(n, pids, 1), ACL_ERROR_RT_PARAM_INVALID, "has not been exported");

    /* aclrtNotifySetImportPid */
    char k[65];
    ACL_OK(aclrtNotifyGetExportKey(n, k, sizeof(k), 0));
    ACL_ERR(aclrtNotifySetImportPid(NULL, pids, 1), ACL_ERROR_INVALID_PARAM, "notify is NULL");
    ACL_ERR(aclrtNotifySetImportPid(n, NULL, 1), ACL_ERROR_INVALID_PARAM, "pid is NULL");
    ACL_ERR(aclrtNotifySetImportPid(dead, pids, 1), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_ERR(aclrtNotifySetImportPid(n, pids, 0), ACL_ERROR_RT_PARAM_INVALID, "num 0");
    ACL_ERR(aclrtNotifySetImportPid(n, pids, 0x80000000u), ACL_ERROR_RT_PARAM_INVALID, "not a positive count");
    oacl_test_run_thread(no_context, n);
    ACL_OK(aclrtNotifySetImportPid(n, pids, 1));

    /* aclrtNotifySetImportPidInterServer (A2: 207000 at the first entry) */
    aclrtServerPid sp = {0, pids, 1};
    aclrtServerPid nopid = {0, NULL, 1};
    aclrtServerPid two = {0, pids, 2};
    ACL_ERR(aclrtNotifySetImportPidInterServer(NULL, &sp, 1), ACL_ERROR_RT_PARAM_INVALID, "notify is NULL");
    ACL_ERR(aclrtNotifySetImportPidInterServer(n, NULL, 1), ACL_ERROR_RT_PARAM_INVALID, "serverPids is NULL");
    ACL_ERR(aclrtNotifySetImportPidInterServer(n, &sp, 0), ACL_ERROR_RT_PARAM_INVALID, "num is 0");
    ACL_ERR(aclrtNotifySetImportPidInterServer(dead, &sp, 1), ACL_ERROR_RT_INVALID_HANDLE, "not a live notify");
    ACL_ERR(aclrtNotifySetImportPidInterServer(n, &nopid, 1), ACL_ERROR_RT_PARAM_INVALID, "pid is NULL");
    ACL_ERR(aclrtNotifySetImportPidInterServer(n, &two, 1), ACL_ERROR_RT_PARAM_INVALID, "one pid");
    ACL_ERR(aclrtNotifySetImportPidInterServer(n, &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "single host");

    /* aclrtNotifyImportByKey */
    aclrtNotify m = NULL;
    ACL_ERR(aclrtNotifyImportByKey(NULL, k, 0), ACL_ERROR_INVALID_PARAM, "notify is NULL");
    ACL_ERR(aclrtNotifyImportByKey(&m, NULL, 0), ACL_ERROR_INVALID_PARAM, "key is NULL");
    ACL_ERR(aclrtNotifyImportByKey(&m, k, 4), ACL_ERROR_RT_PARAM_INVALID, "flags 0x4");
    ACL_ERR(aclrtNotifyImportByKey(&m, k, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "flag 0x1");
    char memkey[65];
    strcpy(memkey, k);
    memkey[5] = 'm';
    ACL_ERR(aclrtNotifyImportByKey(&m, memkey, 0), ACL_ERROR_RT_PARAM_INVALID, "not an IPC notify key");
    char wrong[65];
    strcpy(wrong, k);
    wrong[strlen(wrong) - 1] = wrong[strlen(wrong) - 1] == 'a' ? 'b' : 'a';
    ACL_ERR(aclrtNotifyImportByKey(&m, wrong, 0), ACL_ERROR_RT_PARAM_INVALID, "names no live notify");
    assert_null(m);

    /* Local notifies keep their device rule for records. */
    aclrtNotify local = NULL;
    ACL_OK(aclrtCreateNotify(&local, 0));
    ACL_OK(aclrtSetDevice(1));
    ACL_ERR(aclrtRecordNotify(local, NULL), ACL_ERROR_RT_PARAM_INVALID, "belongs to device 0");
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtDestroyNotify(local));
    ACL_OK(aclrtDestroyNotify(n));
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("profiles_a3", "OACL_SOC=Ascend910_9392");
    ASSERT_CHILD_OK("profiles_950dt", "OACL_SOC=Ascend950DT_9571");
    ASSERT_CHILD_OK("profiles_310p", "OACL_SOC=Ascend310P3");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, reset, reset)

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    unsetenv("OACL_SOC");
    unsetenv("OACL_DEVICE_COUNT");
    const struct CMUnitTest tests[] = {
        T(test_record_across_processes),
        T(test_record_across_devices),
        T(test_dead_peer_fails_wait),
        T(test_not_whitelisted),
        T(test_export_moves_bit),
        T(test_batch_reset),
        T(test_bad_inputs),
        T(test_profiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
