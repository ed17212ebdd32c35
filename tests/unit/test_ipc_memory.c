/*
 * IPC memory across real processes (spec acl-rt-ipc-vmm.md 4.1, 3.x):
 * export/import with and without a whitelist (a kernel in one process
 * writes what the other reads), refusals (pid not whitelisted, another
 * user, impostor service), the exporter freeing or being killed with -9
 * while an importer holds the memory, nothing left behind, no lost writes
 * while an allocation moves into its own file, and the bad inputs of every
 * function. Peers are this executable started again (ipc_peer.h); every
 * wait is bounded.
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ipc_peer.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MiB (1024u * 1024u)
#define N_WORDS (MiB / 4)

/* ---- helpers shared by both sides ------------------------------------------------ */

/* The mapping of /proc/self/maps that contains p: its size and path. */
static bool mapping_of(const void *p, size_t *size, char *path, size_t pathlen)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return false;
    char line[512];
    bool found = false;
    while (!found && fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        int off = 0;
        if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &off) < 2)
            continue;
        if ((uintptr_t)p >= lo && (uintptr_t)p < hi) {
            *size = hi - lo;
            snprintf(path, pathlen, "%s", off ? line + off : "");
            path[strcspn(path, "\n")] = '\0';
            found = true;
        }
    }
    fclose(f);
    return found;
}

/* True while an abstract socket "@oacl-ipc.<pid>" exists. */
static bool service_listed(pid_t pid)
{
    FILE *f = fopen("/proc/net/unix", "r");
    if (!f)
        return false;
    char want[64], line[512];
    snprintf(want, sizeof(want), "@oacl-ipc.%d\n", (int)pid);
    bool found = false;
    while (!found && fgets(line, sizeof(line), f)) {
        size_t n = strlen(line), w = strlen(want);
        found = n >= w && strcmp(line + n - w, want) == 0;
    }
    fclose(f);
    return found;
}

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_copy_plus;

/* out[i] = in[i] + add over n words, 8 blocks. */
static aclError launch_add(void *in, void *out, uint32_t add, uint32_t n, aclrtStream s)
{
    uint32_t per = n / 8;
    const void *v[] = {&in, &out, &add, &per};
    size_t sz[] = {8, 8, 4, 4};
    return test_launch(g_copy_plus, 8, s, 4, v, sz);
}

static void fill_pattern(uint32_t *host, uint32_t n, uint32_t base)
{
    for (uint32_t i = 0; i < n; i++)
        host[i] = base + i;
}

/* ---- peer modes ---------------------------------------------------------------------- */

static void child_setup(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(getenv("PEER_DEVICE") ? atoi(getenv("PEER_DEVICE")) : 0));
    CHILD_OK(aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin));
    CHILD_OK(aclrtBinaryGetFunction(g_bin, "copy_plus", &g_copy_plus));
}

/* Importer: sends its pid, gets "key <k> <add>", imports, adds `add` to
 * every word with a kernel, checks the mapping is the allocation's own
 * memory file, answers "done", closes. */
static void peer_importer(void)
{
    child_setup();
    int32_t pid = 0;
    CHILD_OK(aclrtDeviceGetBareTgid(&pid));
    CHILD_CHECK_INT(pid, getpid());
    child_send("pid %d", pid);
    char line[256], key[128];
    unsigned add = 0;
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "key %127s %u", key, &add) == 2);
    void *p = NULL;
    CHILD_OK(aclrtIpcMemImportByKey(&p, key, 0));
    /* The importer sees exactly the exported pages, backed by their own file
       (never the exporter's device arena). */
    size_t size = 0;
    char path[256];
    CHILD_CHECK(mapping_of(p, &size, path, sizeof(path)));
    CHILD_CHECK_INT(size, MiB);
    CHILD_CHECK(strstr(path, "memfd:oacl-ipc-mem") != NULL);
    aclrtPtrAttributes a;
    CHILD_OK(aclrtPointerGetAttributes(p, &a));
    CHILD_CHECK_INT(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    CHILD_CHECK_INT(a.pageSize, 4096);
    CHILD_ERR(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "aclrtIpcMemClose");
    CHILD_OK(launch_add(p, p, add, N_WORDS, NULL));
    CHILD_OK(aclrtSynchronizeStream(NULL));
    child_send("done");
    child_recv(line, sizeof(line)); /* "close" */
    CHILD_OK(aclrtIpcMemClose(key));
    CHILD_ERR(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID, "neither imported nor exported");
    child_send("closed");
}

/* Importer that is refused first: reports the code, waits to be listed,
 * then imports and reports the first word. */
static void peer_refused_then_listed(void)
{
    child_setup();
    child_send("pid %d", (int)getpid());
    char line[256], key[128];
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "key %127s", key) == 1);
    void *p = (void *)0x1234;
    CHILD_ERR(aclrtIpcMemImportByKey(&p, key, 0), ACL_ERROR_RT_NO_PERMISSION, "is not on the whitelist");
    CHILD_CHECK(p == (void *)0x1234); /* written only on success */
    CHILD_CHECK_INT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_NO_PERMISSION);
    child_send("refused");
    child_recv(line, sizeof(line)); /* "listed" */
    CHILD_OK(aclrtIpcMemImportByKey(&p, key, 0));
    uint32_t first = 0;
    CHILD_OK(aclrtMemcpy(&first, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    child_send("first %u", first);
    CHILD_OK(aclrtIpcMemClose(key));
}

/* Exporter: fills 1 MiB with base + i, exports without pid validation,
 * sends the key, then obeys "free", "realloc <base>" and "exit". */
static void peer_exporter(void)
{
    child_setup();
    void *d = NULL;
    CHILD_OK(aclrtMalloc(&d, MiB, ACL_MEM_MALLOC_HUGE_FIRST));
    static uint32_t host[N_WORDS];
    fill_pattern(host, N_WORDS, 7000);
    CHILD_OK(aclrtMemcpy(d, MiB, host, MiB, ACL_MEMCPY_HOST_TO_DEVICE));
    char key[72];
    CHILD_OK(aclrtIpcMemGetExportKey(d, MiB, key, sizeof(key), ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    child_send("key %s %p", key, d);
    char line[256];
    for (;;) {
        child_recv(line, sizeof(line));
        unsigned base;
        if (strcmp(line, "free") == 0) {
            CHILD_OK(aclrtFree(d));
            child_send("freed");
        } else if (sscanf(line, "realloc %u", &base) == 1) {
            /* The freed extent comes back: new data at the old address. */
            void *e = NULL;
            CHILD_OK(aclrtMalloc(&e, MiB, ACL_MEM_MALLOC_HUGE_FIRST));
            fill_pattern(host, N_WORDS, base);
            CHILD_OK(aclrtMemcpy(e, MiB, host, MiB, ACL_MEMCPY_HOST_TO_DEVICE));
            child_send("realloc %p", e);
        } else if (strcmp(line, "exit") == 0) {
            return;
        } else {
            pause(); /* wait for SIGKILL */
        }
    }
}

/* A process of another user (the test runs as root): refused. */
static void peer_other_user(void)
{
    child_arm_alarm();
    CHILD_CHECK(setgid(65534) == 0 && setuid(65534) == 0);
    CHILD_OK(aclrtSetDevice(0));
    char line[256], key[128];
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "key %127s", key) == 1);
    void *p = NULL;
    CHILD_ERR(aclrtIpcMemImportByKey(&p, key, 0), ACL_ERROR_RT_NO_PERMISSION, "only user 0");
    CHILD_CHECK(p == NULL);
    child_send("refused");
}

/* Importing one key twice in an importer: two mappings of the same pages;
 * two closes release them (oldest first), a third finds nothing. */
static void peer_double_import(void)
{
    child_setup();
    char line[256], key[128];
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "key %127s", key) == 1);
    void *a = NULL, *b = NULL;
    CHILD_OK(aclrtIpcMemImportByKey(&a, key, 0));
    CHILD_OK(aclrtIpcMemImportByKey(&b, key, 0));
    CHILD_CHECK(a != b);
    CHILD_OK(aclrtMemset(a, 4, 0x5A, 4));
    uint32_t v = 0;
    CHILD_OK(aclrtMemcpy(&v, 4, b, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    CHILD_CHECK_INT(v, 0x5A5A5A5Au);
    CHILD_OK(aclrtIpcMemClose(key));
    aclrtPtrAttributes at;
    CHILD_OK(aclrtPointerGetAttributes(a, &at));
    CHILD_CHECK_INT(at.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED); /* the oldest went */
    CHILD_OK(aclrtPointerGetAttributes(b, &at));
    CHILD_CHECK_INT(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    CHILD_OK(aclrtIpcMemClose(key));
    CHILD_ERR(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID, "neither imported nor exported");
    /* The importer cannot change the exporter's whitelist. */
    int32_t me = getpid();
    CHILD_ERR(aclrtIpcMemSetImportPid(key, &me, 1), ACL_ERROR_RT_NO_PERMISSION, "only the exporting process");
    child_send("ok");
}

/* Profile checks (OACL_SOC set by the parent). */
static void peer_a3_attrs(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    const char *k = "oacl-m-1-0000000000000001-000000000000000000000000";
    CHILD_OK(aclrtIpcMemSetAttr(k, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS));
    CHILD_ERR(aclrtIpcMemSetAttr(k, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 2), ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, "UB");
    CHILD_ERR(aclrtIpcMemSetAttr(k, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 4), ACL_ERROR_RT_PARAM_INVALID, "attr 4");
    CHILD_OK(aclrtIpcMemClose(k)); /* only configured: forgotten */
    CHILD_ERR(aclrtIpcMemClose(k), ACL_ERROR_RT_PARAM_INVALID, "neither");
    /* Cross-server whitelists: entries for this host's devices apply. */
    void *d = NULL;
    char key[72];
    CHILD_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_OK(aclrtIpcMemGetExportKey(d, 4096, key, sizeof(key), 0));
    int32_t pids[2] = {4242, 4243};
    aclrtServerPid sp[2] = {{0, pids, 2}, {9999, pids, 1}};
    CHILD_OK(aclrtIpcMemImportPidInterServer(key, sp, 2));
    aclrtServerPid bad = {0, pids, 0};
    CHILD_ERR(aclrtIpcMemImportPidInterServer(key, &bad, 1), ACL_ERROR_RT_PARAM_INVALID, "num");
    CHILD_OK(aclrtIpcMemClose(key));
    CHILD_OK(aclrtFree(d));
}

static void peer_310b(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    void *d = NULL;
    char key[72] = "untouched";
    CHILD_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_ERR(aclrtIpcMemGetExportKey(d, 4096, key, sizeof(key), 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtIpcMemGetExportKey is not supported on Ascend310B");
    CHILD_CHECK(strcmp(key, "untouched") == 0);
    CHILD_ERR(aclrtIpcMemClose("x"), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    int32_t pid = 0;
    CHILD_OK(aclrtDeviceGetBareTgid(&pid)); /* every profile */
    CHILD_OK(aclrtFree(d));
}

/* OACL_IPC_PRIVATE=1 makes an exporter non-dumpable (D25); off by default. */
static void peer_private(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    void *d = NULL;
    char key[72];
    CHILD_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_CHECK_INT(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 1);
    CHILD_OK(aclrtIpcMemGetExportKey(d, 4096, key, sizeof(key), 0));
    const char *priv = getenv("OACL_IPC_PRIVATE");
    CHILD_CHECK_INT(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), priv && strcmp(priv, "1") == 0 ? 0 : 1);
    CHILD_OK(aclrtIpcMemClose(key));
    CHILD_OK(aclrtFree(d));
}

/* Holds its own service name without answering (a hung or foreign
 * listener): its own export cannot start a service (207005), and
 * importers of keys naming it give up after OACL_IPC_TIMEOUT_MS. */
static void peer_mute(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof(a));
    a.sun_family = AF_UNIX;
    int n = snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1, "oacl-ipc.%d", (int)getpid());
    CHILD_CHECK(bind(s, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) == 0);
    CHILD_CHECK(listen(s, 4) == 0);
    void *d = NULL;
    char key[72] = "kept";
    CHILD_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_ERR(aclrtIpcMemGetExportKey(d, 4096, key, sizeof(key), 0), ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
              "another process holds this process's name");
    CHILD_CHECK(strcmp(key, "kept") == 0);
    child_send("listening");
    char line[64];
    child_recv(line, sizeof(line)); /* never answers the connection */
    close(s);
}

static const struct oacl_child_mode g_modes[] = {
    {"mute", peer_mute},
    {"private", peer_private},
    {"importer", peer_importer},
    {"refused_then_listed", peer_refused_then_listed},
    {"exporter", peer_exporter},
    {"other_user", peer_other_user},
    {"double_import", peer_double_import},
    {"a3_attrs", peer_a3_attrs},
    {"310b", peer_310b},
};

/* ---- parent side ------------------------------------------------------------------------ */

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) ||
        aclrtBinaryGetFunction(g_bin, "copy_plus", &g_copy_plus))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
}

/* Device memory of 1 MiB filled with base + i. */
static void *alloc_filled(uint32_t base)
{
    void *d = NULL;
    ACL_OK(aclrtMalloc(&d, MiB, ACL_MEM_MALLOC_HUGE_FIRST));
    static uint32_t host[N_WORDS];
    fill_pattern(host, N_WORDS, base);
    ACL_OK(aclrtMemcpy(d, MiB, host, MiB, ACL_MEMCPY_HOST_TO_DEVICE));
    return d;
}

static void expect_pattern(const void *d, uint32_t base)
{
    static uint32_t host[N_WORDS];
    ACL_OK(aclrtMemcpy(host, MiB, d, MiB, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < N_WORDS; i++)
        if (host[i] != base + i)
            fail_msg("word %u is %u, expected %u", i, host[i], base + i);
}

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

/* A exports with the whitelist on, lists B, B's kernel adds 5 to every
 * word, A reads the result; both close; the service and the files go with
 * the processes. */
static void test_export_import_whitelisted(void **state)
{
    (void)state;
    void *d = alloc_filled(100);
    char key[72];
    memset(key, '#', sizeof(key));
    ACL_OK(aclrtIpcMemGetExportKey(d, MiB, key, sizeof(key), ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
    /* The key: NUL-terminated, [a-z0-9-], bytes after the NUL untouched. */
    size_t n = strlen(key);
    assert_true(n >= 50 && n <= 56);
    assert_int_equal(strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789-"), n);
    for (size_t i = n + 1; i < sizeof(key); i++)
        assert_int_equal(key[i], '#');
    assert_true(service_listed(getpid()));
    struct peer p;
    assert_true(peer_start(&p, "importer", NULL));
    char line[256];
    int pid = 0;
    recv_line(&p, line, sizeof(line));
    assert_int_equal(sscanf(line, "pid %d", &pid), 1);
    assert_int_equal(pid, p.pid);
    int32_t list[2] = {pid, pid}; /* duplicates are fine */
    ACL_OK(aclrtIpcMemSetImportPid(key, list, 2));
    assert_true(peer_send(&p, "key %s 5", key));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "done");
    expect_pattern(d, 105); /* the peer's kernel wrote into this process's memory */
    assert_true(peer_send(&p, "close"));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "closed");
    check_exit(&p);
    ACL_OK(aclrtIpcMemClose(key));
    ACL_ERR(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID, "neither imported nor exported");
    ACL_OK(aclrtFree(d));
    assert_false(service_listed(p.pid)); /* the peer never exported */
}

/* Exported without pid validation: any process of this user may import. */
static void test_export_without_validation(void **state)
{
    (void)state;
    void *d = alloc_filled(1);
    char key[65];
    ACL_OK(aclrtIpcMemGetExportKey(d, MiB, key, sizeof(key), ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    int32_t pid = 1;
    ACL_ERR(aclrtIpcMemSetImportPid(key, &pid, 1), ACL_ERROR_RT_NO_PERMISSION, "no whitelist");
    struct peer p;
    assert_true(peer_start(&p, "importer", NULL));
    char line[256];
    recv_line(&p, line, sizeof(line));
    assert_true(peer_send(&p, "key %s 1000", key));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "done");
    expect_pattern(d, 1001);
    assert_true(peer_send(&p, "close"));
    recv_line(&p, line, sizeof(line));
    check_exit(&p);
    ACL_OK(aclrtIpcMemClose(key));
    ACL_OK(aclrtFree(d));
}

/* A pid not on the whitelist gets 207006 and nothing; listed later, the
 * same call succeeds. */
static void test_not_whitelisted_refused(void **state)
{
    (void)state;
    void *d = alloc_filled(42);
    char key[65];
    ACL_OK(aclrtIpcMemGetExportKey(d, 4096, key, sizeof(key), 0));
    int32_t other = 1; /* someone else is listed, not the peer */
    ACL_OK(aclrtIpcMemSetImportPid(key, &other, 1));
    struct peer p;
    assert_true(peer_start(&p, "refused_then_listed", NULL));
    char line[256];
    int pid = 0;
    recv_line(&p, line, sizeof(line));
    assert_int_equal(sscanf(line, "pid %d", &pid), 1);
    assert_true(peer_send(&p, "key %s", key));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "refused");
    int32_t pp = pid;
    ACL_OK(aclrtIpcMemSetImportPid(key, &pp, 1));
    assert_true(peer_send(&p, "listed"));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "first 42");
    check_exit(&p);
    ACL_OK(aclrtIpcMemClose(key));
    ACL_OK(aclrtFree(d));
}

static void test_other_user_refused(void **state)
{
    (void)state;
    if (geteuid() != 0)
        skip(); /* needs root to start a peer of another user */
    void *d = alloc_filled(0);
    char key[65];
    ACL_OK(aclrtIpcMemGetExportKey(d, MiB, key, sizeof(key), ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    struct peer p;
    assert_true(peer_start(&p, "other_user", NULL));
    assert_true(peer_send(&p, "key %s", key));
    char line[256];
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "refused");
    check_exit(&p);
    ACL_OK(aclrtIpcMemClose(key));
    ACL_OK(aclrtFree(d));
}

/* Someone else holds the service name of a pid: the client sees through
 * SO_PEERCRED that the listener is not that process and gives up. */
static void test_impostor_service(void **state)
{
    (void)state;
    struct peer p; /* a live process that exports nothing */
    assert_true(peer_start(&p, "double_import", NULL));
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof(a));
    a.sun_family = AF_UNIX;
    int n = snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1, "oacl-ipc.%d", (int)p.pid);
    assert_int_equal(bind(s, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)), 0);
    assert_int_equal(listen(s, 4), 0);
    char key[80];
    snprintf(key, sizeof(key), "oacl-m-%d-00000000000000aa-0123456789abcdef01234567", (int)p.pid);
    void *ptr = NULL;
    ACL_ERR(aclrtIpcMemImportByKey(&ptr, key, 0), ACL_ERROR_RT_IPC_ERROR, "not the exporter");
    assert_null(ptr);
    close(s);
    /* Nothing listens for it now: an unknown key. */
    ACL_ERR(aclrtIpcMemImportByKey(&ptr, key, 0), ACL_ERROR_RT_PARAM_INVALID, "nothing listens for pid");
    kill(p.pid, SIGKILL);
    peer_wait(&p, PEER_TIMEOUT_MS);
}

/* A listener that never answers: the request gives up with 507022 after
 * OACL_IPC_TIMEOUT_MS instead of hanging. */
static void test_request_timeout(void **state)
{
    (void)state;
    struct peer p;
    assert_true(peer_start(&p, "mute", NULL));
    char line[64];
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "listening");
    char key[80];
    snprintf(key, sizeof(key), "oacl-m-%d-00000000000000aa-0123456789abcdef01234567", (int)p.pid);
    setenv("OACL_IPC_TIMEOUT_MS", "300", 1);
    void *ptr = NULL;
    ACL_ERR(aclrtIpcMemImportByKey(&ptr, key, 0), ACL_ERROR_RT_IPC_ERROR, "did not answer within 300 ms");
    setenv("OACL_IPC_TIMEOUT_MS", "5000", 1);
    assert_null(ptr);
    assert_true(peer_send(&p, "bye"));
    check_exit(&p);
}

/* The exporter frees: the importer keeps the data and can close; the key is
 * gone; the reused extent does not alias the import. */
static void test_exporter_frees(void **state)
{
    (void)state;
    struct peer p;
    assert_true(peer_start(&p, "exporter", NULL));
    char line[256], key[128];
    void *remote = NULL;
    recv_line(&p, line, sizeof(line));
    assert_int_equal(sscanf(line, "key %127s %p", key, &remote), 2);
    void *d = NULL;
    ACL_OK(aclrtIpcMemImportByKey(&d, key, 0));
    expect_pattern(d, 7000);
    assert_true(peer_send(&p, "free"));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "freed");
    expect_pattern(d, 7000); /* still there */
    void *again = NULL;
    ACL_ERR(aclrtIpcMemImportByKey(&again, key, 0), ACL_ERROR_RT_PARAM_INVALID, "exports no such key");
    assert_null(again);
    assert_true(peer_send(&p, "realloc 555"));
    void *reused = NULL;
    recv_line(&p, line, sizeof(line));
    assert_int_equal(sscanf(line, "realloc %p", &reused), 1);
    assert_ptr_equal(reused, remote); /* the extent came back to the exporter... */
    expect_pattern(d, 7000);          /* ...and does not alias this process's import */
    ACL_OK(launch_add(d, d, 1, N_WORDS, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    expect_pattern(d, 7001);
    assert_true(peer_send(&p, "exit"));
    check_exit(&p);
    assert_false(service_listed(p.pid)); /* gone with the process */
    ACL_OK(aclrtIpcMemClose(key));
}

/* kill -9 of the exporter while this process uses its memory: the memory
 * stays usable, closing works, a new import fails at once (nothing
 * listens), and nothing is left behind. */
static void test_exporter_killed(void **state)
{
    (void)state;
    struct peer p;
    assert_true(peer_start(&p, "exporter", NULL));
    char line[256], key[128];
    void *remote = NULL;
    recv_line(&p, line, sizeof(line));
    assert_int_equal(sscanf(line, "key %127s %p", key, &remote), 2);
    assert_true(service_listed(p.pid));
    void *d = NULL;
    ACL_OK(aclrtIpcMemImportByKey(&d, key, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS));
    assert_true(peer_send(&p, "hold")); /* the peer pauses */
    ACL_OK(launch_add(d, d, 3, N_WORDS, NULL)); /* in use while the exporter dies */
    kill(p.pid, SIGKILL);
    assert_int_equal(peer_wait(&p, PEER_TIMEOUT_MS), 128 + SIGKILL);
    ACL_OK(aclrtSynchronizeStream(NULL));
    expect_pattern(d, 7003);
    void *again = NULL;
    ACL_ERR(aclrtIpcMemImportByKey(&again, key, 0), ACL_ERROR_RT_PARAM_INVALID, "has exited");
    assert_null(again);
    assert_false(service_listed(p.pid));
    ACL_OK(aclrtIpcMemClose(key));
    ACL_ERR(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID, "neither");
}

/* Names of the entries of a directory, sorted, in one string. */
static void list_dir(const char *dir, char *out, size_t n)
{
    out[0] = '\0';
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    size_t used = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        int w = snprintf(out + used, n - used, "%s\n", e->d_name);
        if (w < 0 || (size_t)w >= n - used)
            break;
        used += (size_t)w;
    }
    closedir(d);
}

/* A full round (exports, imports, a killed exporter, a normal one) leaves
 * nothing in /dev/shm or in the temporary directory: memory files are
 * anonymous and the service sockets abstract. */
static void test_nothing_left_behind(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/oacl-ipc-test-XXXXXX";
    char *dir = mkdtemp(tmpl);
    assert_non_null(dir);
    char env_tmp[128];
    snprintf(env_tmp, sizeof(env_tmp), "TMPDIR=%s", dir);
    const char *env[] = {env_tmp, NULL};
    static char shm_before[65536], shm_after[65536], tmp_after[4096];
    list_dir("/dev/shm", shm_before, sizeof(shm_before));
    for (int round = 0; round < 2; round++) {
        struct peer p;
        assert_true(peer_start(&p, "exporter", env));
        char line[256], key[128];
        recv_line(&p, line, sizeof(line));
        assert_int_equal(sscanf(line, "key %127s", key), 1);
        void *d = NULL;
        ACL_OK(aclrtIpcMemImportByKey(&d, key, 0));
        if (round == 0) {
            assert_true(peer_send(&p, "hold"));
            kill(p.pid, SIGKILL);
        } else {
            assert_true(peer_send(&p, "exit"));
        }
        peer_wait(&p, PEER_TIMEOUT_MS);
        ACL_OK(aclrtIpcMemClose(key));
        assert_false(service_listed(p.pid));
    }
    list_dir("/dev/shm", shm_after, sizeof(shm_after));
    /* /dev/shm is shared with every test running beside this one, so only
     * entries this round could have made count: oacl names its objects
     * "oacl..." wherever it names them at all. */
    char *line = shm_after;
    while (line && *line) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        if (strstr(line, "oacl") && !strstr(shm_before, line))
            fail_msg("left behind in /dev/shm: %s", line);
        line = end ? end + 1 : NULL;
    }
    list_dir(dir, tmp_after, sizeof(tmp_after));
    assert_string_equal(tmp_after, "");
    rmdir(dir);
}

static void test_double_import_in_peer(void **state)
{
    (void)state;
    void *d = alloc_filled(0);
    char key[65];
    ACL_OK(aclrtIpcMemGetExportKey(d, 4096, key, sizeof(key), ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    struct peer p;
    assert_true(peer_start(&p, "double_import", NULL));
    assert_true(peer_send(&p, "key %s", key));
    char line[64];
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "ok");
    check_exit(&p);
    uint32_t v = 0;
    ACL_OK(aclrtMemcpy(&v, 4, d, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(v, 0x5A5A5A5Au);
    ACL_OK(aclrtIpcMemClose(key));
    ACL_OK(aclrtFree(d));
}

/* The exporting process may import its own key (decision D9): a second
 * mapping of the same pages, no whitelist. Keys differ per export. */
static void test_self_import_and_keys(void **state)
{
    (void)state;
    void *d = alloc_filled(9);
    char k1[65], k2[65];
    ACL_OK(aclrtIpcMemGetExportKey(d, MiB, k1, sizeof(k1), 0));
    ACL_OK(aclrtIpcMemGetExportKey(d, MiB, k2, sizeof(k2), 0));
    assert_string_not_equal(k1, k2);
    char prefix[32];
    snprintf(prefix, sizeof(prefix), "oacl-m-%d-", (int)getpid());
    assert_memory_equal(k1, prefix, strlen(prefix));
    void *a = NULL;
    ACL_OK(aclrtIpcMemImportByKey(&a, k1, 0));
    assert_ptr_not_equal(a, d);
    expect_pattern(a, 9);
    ACL_OK(launch_add(a, a, 1, N_WORDS, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    expect_pattern(d, 10);
    void *base = NULL;
    size_t size = 0;
    ACL_OK(aclrtMemGetAddressRange((char *)a + 100, &base, &size));
    assert_ptr_equal(base, a);
    assert_int_equal(size, MiB);
    ACL_OK(aclrtIpcMemClose(k1)); /* the import */
    ACL_OK(aclrtIpcMemClose(k1)); /* the export */
    ACL_ERR(aclrtIpcMemImportByKey(&a, k1, 0), ACL_ERROR_RT_PARAM_INVALID, "is not exported");
    ACL_OK(aclrtFree(d));
    /* Freeing destroyed the other key too. */
    ACL_ERR(aclrtIpcMemClose(k2), ACL_ERROR_RT_PARAM_INVALID, "neither");
}

/* Writes that kernels make while their allocation moves into its own file
 * (its first export) are never lost: the memory-writer gate. A large
 * buffer keeps the copy long enough for kernels to run during it. */
#define BIG_WORDS (4u * 1024 * 1024) /* 16 MiB */

struct writer_arg {
    void *d;
    aclrtStream s;
    int rounds;
};

static void *writer_thread(void *arg)
{
    struct writer_arg *w = arg;
    ACL_OK(aclrtSetDevice(0));
    for (int i = 0; i < w->rounds; i++)
        ACL_OK(launch_add(w->d, w->d, 1, BIG_WORDS, w->s));
    ACL_OK(aclrtSynchronizeStream(w->s));
    return NULL;
}

static void test_export_during_writes(void **state)
{
    (void)state;
    void *d = NULL;
    ACL_OK(aclrtMalloc(&d, BIG_WORDS * 4u, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(d, BIG_WORDS * 4u, 0, BIG_WORDS * 4u));
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    struct writer_arg w = {d, s, 40};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, writer_thread, &w), 0);
    usleep(2000); /* not needed for correctness: lets some kernels start first */
    char key[65];
    ACL_OK(aclrtIpcMemGetExportKey(d, BIG_WORDS * 4u, key, sizeof(key), 0));
    pthread_join(t, NULL);
    uint32_t *host = malloc(BIG_WORDS * 4u);
    assert_non_null(host);
    ACL_OK(aclrtMemcpy(host, BIG_WORDS * 4u, d, BIG_WORDS * 4u, ACL_MEMCPY_DEVICE_TO_HOST));
    uint32_t bad = 0;
    for (uint32_t i = 0; i < BIG_WORDS; i++)
        bad += host[i] != 40;
    free(host);
    assert_int_equal(bad, 0);
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtIpcMemClose(key));
    ACL_OK(aclrtFree(d));
}

static void *no_context(void *arg)
{
    void **d = arg;
    char key[65] = "x";
    ACL_ERR(aclrtIpcMemGetExportKey(*d, 16, key, sizeof(key), 0), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    assert_string_equal(key, "x");
    void *p = NULL;
    ACL_ERR(aclrtIpcMemImportByKey(&p, "oacl-m-1-0000000000000001-000000000000000000000000", 0),
            ACL_ERROR_RT_CONTEXT_NULL, NULL);
    int32_t pid = 1;
    ACL_ERR(aclrtIpcMemSetImportPid("k", &pid, 1), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_ERR(aclrtIpcMemClose("k"), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_OK(aclrtDeviceGetBareTgid(&pid)); /* needs no device or context */
    assert_int_equal(pid, getpid());
    return NULL;
}

static void test_bad_inputs(void **state)
{
    (void)state;
    void *d = alloc_filled(0);
    void *h = NULL;
    ACL_OK(aclrtMallocHost(&h, 4096));
    char key[72];
    memset(key, 'q', sizeof(key));
    key[71] = '\0';
    const char *untouched = "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq";

    /* aclrtIpcMemGetExportKey */
    ACL_ERR(aclrtIpcMemGetExportKey(NULL, 16, key, 65, 0), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    ACL_ERR(aclrtIpcMemGetExportKey(d, 16, NULL, 65, 0), ACL_ERROR_INVALID_PARAM, "key is NULL");
    ACL_ERR(aclrtIpcMemGetExportKey(d, 0, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID, "size is 0");
    ACL_ERR(aclrtIpcMemGetExportKey(d, 16, key, 0, 0), ACL_ERROR_RT_PARAM_INVALID, "len is 0");
    ACL_ERR(aclrtIpcMemGetExportKey(d, 16, key, 65, 2), ACL_ERROR_RT_PARAM_INVALID, "flags 0x2");
    ACL_ERR(aclrtIpcMemGetExportKey((char *)d + 64, 16, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID, "points inside");
    ACL_ERR(aclrtIpcMemGetExportKey(h, 16, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID, "not device memory");
    ACL_ERR(aclrtIpcMemGetExportKey(d, MiB + 1, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID, "exceeds");
    ACL_ERR(aclrtIpcMemGetExportKey(d, 16, key, 64, 0), ACL_ERROR_RT_PARAM_INVALID, "len 64");
    assert_string_equal(key, untouched);
    oacl_test_run_thread(no_context, &d);

    /* aclrtIpcMemSetImportPid */
    char k[65];
    ACL_OK(aclrtIpcMemGetExportKey(d, 16, k, sizeof(k), 0));
    int32_t pids[2] = {11, 12};
    ACL_ERR(aclrtIpcMemSetImportPid(NULL, pids, 1), ACL_ERROR_INVALID_PARAM, "key is NULL");
    ACL_ERR(aclrtIpcMemSetImportPid(k, NULL, 1), ACL_ERROR_INVALID_PARAM, "pid is NULL");
    ACL_ERR(aclrtIpcMemSetImportPid(k, pids, 0), ACL_ERROR_RT_PARAM_INVALID, "num 0");
    ACL_ERR(aclrtIpcMemSetImportPid(k, pids, (size_t)-1), ACL_ERROR_RT_PARAM_INVALID, "not a positive count");
    ACL_ERR(aclrtIpcMemSetImportPid("oacl-m-12", pids, 1), ACL_ERROR_RT_PARAM_INVALID, "not an IPC memory key");
    char foreign[65];
    snprintf(foreign, sizeof(foreign), "oacl-m-%d-%s", (int)getpid() + 1, strchr(k + 7, '-') + 1);
    ACL_ERR(aclrtIpcMemSetImportPid(foreign, pids, 1), ACL_ERROR_RT_NO_PERMISSION, "only the exporting process");
    char unknown[65];
    snprintf(unknown, sizeof(unknown), "oacl-m-%d-00000000000fffff-000000000000000000000000", (int)getpid());
    ACL_ERR(aclrtIpcMemSetImportPid(unknown, pids, 1), ACL_ERROR_RT_PARAM_INVALID, "is not exported");
    /* Over the limit: nothing is added. */
    static int32_t many[32769];
    for (int i = 0; i < 32769; i++)
        many[i] = 100000 + i;
    ACL_ERR(aclrtIpcMemSetImportPid(k, many, 32769), ACL_ERROR_RT_OVER_LIMIT, "32768");
    ACL_OK(aclrtIpcMemSetImportPid(k, many, 32768)); /* exactly the limit fits */
    ACL_OK(aclrtIpcMemSetImportPid(k, many, 5));     /* duplicates add nothing */
    ACL_ERR(aclrtIpcMemSetImportPid(k, pids, 1), ACL_ERROR_RT_OVER_LIMIT, "32768");

    /* aclrtIpcMemImportByKey */
    void *p = (void *)0x77;
    ACL_ERR(aclrtIpcMemImportByKey(NULL, k, 0), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    ACL_ERR(aclrtIpcMemImportByKey(&p, NULL, 0), ACL_ERROR_INVALID_PARAM, "key is NULL");
    ACL_ERR(aclrtIpcMemImportByKey(&p, k, 2), ACL_ERROR_RT_PARAM_INVALID, "flags 0x2");
    ACL_ERR(aclrtIpcMemImportByKey(&p, "hello", 0), ACL_ERROR_RT_PARAM_INVALID, "not an IPC memory key");
    char changed[65];
    strcpy(changed, k);
    changed[strlen(changed) - 1] = changed[strlen(changed) - 1] == '0' ? '1' : '0';
    ACL_ERR(aclrtIpcMemImportByKey(&p, changed, 0), ACL_ERROR_RT_PARAM_INVALID, "is not exported");
    char notify_kind[65];
    strcpy(notify_kind, k);
    notify_kind[5] = 'n';
    ACL_ERR(aclrtIpcMemImportByKey(&p, notify_kind, 0), ACL_ERROR_RT_PARAM_INVALID, "not an IPC memory key");
    char toolong[80];
    memset(toolong, 'a', sizeof(toolong));
    toolong[79] = '\0';
    ACL_ERR(aclrtIpcMemImportByKey(&p, toolong, 0), ACL_ERROR_RT_PARAM_INVALID, "not an IPC memory key");
    assert_ptr_equal(p, (void *)0x77);

    /* aclrtIpcMemClose */
    ACL_ERR(aclrtIpcMemClose(NULL), ACL_ERROR_INVALID_PARAM, "key is NULL");
    ACL_ERR(aclrtIpcMemClose(changed), ACL_ERROR_RT_PARAM_INVALID, "neither imported nor exported");
    ACL_ERR(aclrtIpcMemClose(toolong), ACL_ERROR_RT_PARAM_INVALID, "neither imported nor exported");
    ACL_OK(aclrtIpcMemClose(k));
    ACL_ERR(aclrtIpcMemClose(k), ACL_ERROR_RT_PARAM_INVALID, "neither imported nor exported");

    /* aclrtIpcMemSetAttr (A2: 207000 after its own checks) */
    ACL_ERR(aclrtIpcMemSetAttr(NULL, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0), ACL_ERROR_RT_PARAM_INVALID, "key is NULL");
    ACL_ERR(aclrtIpcMemSetAttr(k, (aclrtIpcMemAttrType)1, 0), ACL_ERROR_RT_PARAM_INVALID, "type 1");
    ACL_ERR(aclrtIpcMemSetAttr(k, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 4), ACL_ERROR_RT_PARAM_INVALID, "attr 4");
    ACL_ERR(aclrtIpcMemSetAttr(k, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtIpcMemSetAttr is not supported on Ascend910B3");

    /* aclrtIpcMemImportPidInterServer (A2: 207000 after its own checks) */
    aclrtServerPid sp = {0, pids, 1};
    aclrtServerPid nopid = {0, NULL, 1};
    ACL_ERR(aclrtIpcMemImportPidInterServer(NULL, &sp, 1), ACL_ERROR_RT_PARAM_INVALID, "key is NULL");
    ACL_ERR(aclrtIpcMemImportPidInterServer(k, NULL, 1), ACL_ERROR_RT_PARAM_INVALID, "serverPids is NULL");
    ACL_ERR(aclrtIpcMemImportPidInterServer(k, &sp, 0), ACL_ERROR_RT_PARAM_INVALID, "num is 0");
    ACL_ERR(aclrtIpcMemImportPidInterServer(k, &nopid, 1), ACL_ERROR_RT_PARAM_INVALID, "pid is NULL");
    ACL_ERR(aclrtIpcMemImportPidInterServer(k, &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "single host");

    /* aclrtDeviceGetBareTgid */
    ACL_ERR(aclrtDeviceGetBareTgid(NULL), ACL_ERROR_INVALID_PARAM, "pid is NULL");

    /* The allocation is intact after all of it. */
    expect_pattern(d, 0);
    ACL_OK(aclrtFreeHost(h));
    ACL_OK(aclrtFree(d));
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("a3_attrs", "OACL_SOC=Ascend910_9392");
    ASSERT_CHILD_OK("310b", "OACL_SOC=Ascend310B1");
    ASSERT_CHILD_OK("private", "OACL_IPC_PRIVATE=1");
    ASSERT_CHILD_OK("private", "OACL_IPC_PRIVATE");
}

#define T(fn) cmocka_unit_test(fn)

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    unsetenv("OACL_SOC");
    unsetenv("OACL_DEVICE_COUNT");
    setenv("OACL_IPC_TIMEOUT_MS", "5000", 1);
    const struct CMUnitTest tests[] = {
        T(test_export_import_whitelisted),
        T(test_export_without_validation),
        T(test_not_whitelisted_refused),
        T(test_other_user_refused),
        T(test_impostor_service),
        T(test_request_timeout),
        T(test_exporter_frees),
        T(test_exporter_killed),
        T(test_nothing_left_behind),
        T(test_double_import_in_peer),
        T(test_self_import_and_keys),
        T(test_export_during_writes),
        T(test_bad_inputs),
        T(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
