/*
 * The rest of the reliability chapter (acl-rt-reliability.md §3.6-§3.8):
 * memory-error queries and repair, aclrtRepairError, the process snapshot,
 * last-task information caching, aclrtProfTrace, aclrtDeviceL2CacheFlush.
 */
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

static int setup(void **state)
{
    (void)state;
    return aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return aclrtResetDeviceForce(0);
}

/* ---- memory errors and repair ------------------------------------------------------ */

static void test_uce_info(void **state)
{
    (void)state;
    aclrtMemUceInfo arr[MAX_MEM_UCE_INFO_ARRAY_SIZE];
    memset(arr, 0xab, sizeof(arr));
    size_t n = 99;
    ACL_OK(aclrtGetMemUceInfo(0, arr, MAX_MEM_UCE_INFO_ARRAY_SIZE, &n));
    assert_int_equal(n, 0);
    assert_int_equal(((unsigned char *)arr)[0], 0xab); /* untouched */
    ACL_ERR(aclrtGetMemUceInfo(0, arr, 128, NULL), ACL_ERROR_INVALID_PARAM, "retSize");
    ACL_ERR(aclrtGetMemUceInfo(0, NULL, 128, &n), ACL_ERROR_INVALID_PARAM, "memUceInfoArray");
    ACL_ERR(aclrtGetMemUceInfo(1000, arr, 128, &n), ACL_ERROR_RT_INVALID_DEVICEID, NULL);
    ACL_ERR(aclrtGetMemUceInfo(-1, arr, 128, &n), ACL_ERROR_RT_INVALID_DEVICEID, NULL);
    assert_int_equal(sizeof(aclrtMemUceInfo), 128);
}

static void test_uce_repair(void **state)
{
    (void)state;
    static aclrtMemUceInfo arr[MAX_MEM_UCE_INFO_ARRAY_SIZE + 1];
    memset(arr, 0, sizeof(arr));
    ACL_OK(aclrtMemUceRepair(0, arr, 0));
    ACL_OK(aclrtMemUceRepair(0, arr, MAX_MEM_UCE_INFO_ARRAY_SIZE));
    ACL_ERR(aclrtMemUceRepair(0, arr, MAX_MEM_UCE_INFO_ARRAY_SIZE + 1), ACL_ERROR_INVALID_PARAM, "arraySize");
    ACL_ERR(aclrtMemUceRepair(0, NULL, 1), ACL_ERROR_INVALID_PARAM, "NULL");
    arr[3].reserved[0] = 1;
    ACL_ERR(aclrtMemUceRepair(0, arr, 4), ACL_ERROR_INVALID_PARAM, "reserved");
    ACL_OK(aclrtMemUceRepair(0, arr, 3)); /* the record with it is not passed */
    arr[3].reserved[0] = 0;
    ACL_ERR(aclrtMemUceRepair(1000, arr, 1), ACL_ERROR_RT_INVALID_DEVICEID, NULL);
}

static void test_repair_error(void **state)
{
    (void)state;
    aclrtErrorInfo info;
    memset(&info, 0, sizeof(info));
    ACL_ERR(aclrtRepairError(0, NULL), ACL_ERROR_INVALID_PARAM, "errorInfo");
    info.tryRepair = 0;
    ACL_ERR(aclrtRepairError(0, &info), ACL_ERROR_RT_PARAM_INVALID, "tryRepair");
    info.tryRepair = 1;
    ACL_ERR(aclrtRepairError(1000, &info), ACL_ERROR_RT_INVALID_DEVICEID, NULL);
    ACL_OK(aclrtRepairError(0, &info)); /* NO_ERROR */
    info.errorType = ACL_RT_ERROR_MEMORY;
    info.detail.uceInfo.arraySize = ACL_RT_MEM_UCE_INFO_MAX_NUM;
    ACL_OK(aclrtRepairError(0, &info));
    info.detail.uceInfo.arraySize = ACL_RT_MEM_UCE_INFO_MAX_NUM + 1;
    ACL_ERR(aclrtRepairError(0, &info), ACL_ERROR_RT_PARAM_INVALID, "arraySize");
    info.errorType = ACL_RT_ERROR_AICORE;
    ACL_ERR(aclrtRepairError(0, &info), ACL_ERROR_RT_PARAM_INVALID, "cannot be repaired");
    info.errorType = ACL_RT_ERROR_LINK;
    ACL_ERR(aclrtRepairError(0, &info), ACL_ERROR_RT_PARAM_INVALID, NULL);
}

/* A recorded kernel fault is what NO_ERROR repair clears. */
static void test_repair_clears_fault(void **state)
{
    (void)state;
    aclrtBinHandle bin;
    aclrtFuncHandle trap;
    test_load("rt_ctl", "trap_now", &bin, &trap);
    ACL_OK(test_launch(trap, 1, NULL, 0, NULL, NULL));
    ACL_ERR(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_AICORE_EXCEPTION, NULL);
    aclrtErrorInfo info;
    ACL_OK(aclrtGetErrorVerbose(0, &info));
    assert_int_equal(info.errorType, ACL_RT_ERROR_AICORE);
    ACL_ERR(aclrtRepairError(0, &info), ACL_ERROR_RT_PARAM_INVALID, NULL); /* tryRepair 0 */
    info.tryRepair = 1;
    ACL_ERR(aclrtRepairError(0, &info), ACL_ERROR_RT_PARAM_INVALID, NULL); /* AICORE */
    memset(&info, 0, sizeof(info));
    info.tryRepair = 1;
    ACL_OK(aclrtRepairError(0, &info));
    ACL_OK(aclrtGetErrorVerbose(0, &info));
    assert_int_equal(info.errorType, ACL_RT_NO_ERROR);
    ACL_OK(aclrtBinaryUnLoad(bin));
}

/* ---- process snapshot ------------------------------------------------------------------ */

#define STAGES 6
static int g_calls[STAGES];
static int32_t g_cb_device = -1;
static uint32_t g_fail_stage = 99;
static void *g_cb_args;

static uint32_t snap_cb(int32_t dev, void *args)
{
    (void)dev;
    (void)args;
    return 0;
}

#define DEFINE_STAGE_CB(n)                                                                                           \
    static uint32_t stage_cb##n(int32_t dev, void *args)                                                             \
    {                                                                                                                \
        g_calls[n]++;                                                                                                \
        g_cb_device = dev;                                                                                           \
        g_cb_args = args;                                                                                            \
        return g_fail_stage == n ? 1u : 0u;                                                                          \
    }
DEFINE_STAGE_CB(0)
DEFINE_STAGE_CB(1)
DEFINE_STAGE_CB(2)
DEFINE_STAGE_CB(3)
DEFINE_STAGE_CB(4)
DEFINE_STAGE_CB(5)
static aclrtSnapShotCallBack const g_stage_cbs[STAGES] = {stage_cb0, stage_cb1, stage_cb2,
                                                          stage_cb3, stage_cb4, stage_cb5};

static void test_snapshot_bad(void **state)
{
    (void)state;
    int pid = (int)getpid();
    ACL_ERR(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, NULL);
    ACL_ERR(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_SNAPSHOT_BACKUP_FAILED, NULL);
    ACL_ERR(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED, NULL);
    ACL_ERR(aclrtSnapShotProcessLock(pid + 1, NULL), ACL_ERROR_INVALID_PARAM, "pid");
    int dummy = 0;
    ACL_ERR(aclrtSnapShotProcessLock(pid, &dummy), ACL_ERROR_INVALID_PARAM, "reserve");
    ACL_OK(aclrtSnapShotProcessLock(pid, NULL));
    ACL_ERR(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_SNAPSHOT_LOCK_FAILED, NULL);
    ACL_ERR(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED, NULL);
    aclrtSnapShotBackupArgs ba;
    memset(&ba, 0, sizeof(ba));
    ACL_ERR(aclrtSnapShotProcessBackup(pid, &ba), ACL_ERROR_INVALID_PARAM, "args");
    ACL_ERR(aclrtSnapShotProcessUnlock(pid + 1, NULL), ACL_ERROR_INVALID_PARAM, "pid");
    ACL_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    /* registration */
    ACL_ERR(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)6, snap_cb, NULL), ACL_ERROR_RT_PARAM_INVALID, NULL);
    ACL_ERR(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, NULL);
    ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cb, NULL));
    ACL_ERR(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cb, NULL),
            ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED, NULL);
    ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_UNLOCK_POST, snap_cb, NULL)); /* another stage: fine */
    ACL_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cb));
    ACL_ERR(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cb), ACL_ERROR_RT_PARAM_INVALID,
            "not registered");
    ACL_ERR(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, NULL), ACL_ERROR_RT_PARAM_INVALID, NULL);
    ACL_ERR(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)-1, snap_cb), ACL_ERROR_RT_PARAM_INVALID, NULL);
    ACL_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_UNLOCK_POST, snap_cb));
    assert_int_equal(sizeof(aclrtSnapShotBackupArgs), 64);
    assert_int_equal(sizeof(aclrtSnapShotRestoreArgs), 64);
}

struct malloc_arg {
    aclrtContext ctx;
    uint32_t about_to_call;
    uint32_t done;
    aclError rc;
    void *p;
};

static void *malloc_thread(void *p)
{
    struct malloc_arg *a = p;
    aclrtSetCurrentContext(a->ctx);
    __atomic_store_n(&a->about_to_call, 1, __ATOMIC_RELEASE);
    a->rc = aclrtMalloc(&a->p, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    __atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void test_snapshot_cycle(void **state)
{
    (void)state;
    int pid = (int)getpid();
    static int tag;
    for (int i = 0; i < STAGES; i++)
        ACL_OK(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)i, g_stage_cbs[i], &tag));
    memset(g_calls, 0, sizeof(g_calls));
    /* Device memory with a pattern; the backup is taken after queued work. */
    uint32_t *buf = NULL;
    ACL_OK(aclrtMalloc((void **)&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(buf, 4096, 0x11, 4096));
    ACL_OK(aclrtMemsetAsync(buf, 4096, 0x22, 4096, NULL)); /* completed by the backup */
    ACL_OK(aclrtSnapShotProcessLock(pid, NULL));
    assert_int_equal(g_calls[ACL_RT_SNAPSHOT_LOCK_PRE], 1);
    assert_int_equal(g_cb_device, 0);
    assert_ptr_equal(g_cb_args, &tag);
    /* Another thread's allocation waits for the unlock. */
    struct malloc_arg m = {0};
    ACL_OK(aclrtGetCurrentContext(&m.ctx));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, malloc_thread, &m), 0);
    ACL_OK(aclrtSnapShotProcessBackup(pid, NULL));
    assert_int_equal(g_calls[ACL_RT_SNAPSHOT_BACKUP_PRE], 1);
    assert_int_equal(g_calls[ACL_RT_SNAPSHOT_BACKUP_POST], 1);
    ACL_ERR(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_SNAPSHOT_BACKUP_FAILED, NULL);
    /* The locking thread itself is not held: change the memory, restore. */
    ACL_OK(aclrtMemset(buf, 4096, 0x33, 4096));
    uint32_t host[4];
    ACL_OK(aclrtMemcpy(host, sizeof(host), buf, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(host[0], 0x33333333u);
    ACL_OK(aclrtSnapShotProcessRestore(pid, NULL));
    assert_int_equal(g_calls[ACL_RT_SNAPSHOT_RESTORE_PRE], 1);
    assert_int_equal(g_calls[ACL_RT_SNAPSHOT_RESTORE_POST], 1);
    ACL_OK(aclrtMemcpy(host, sizeof(host), buf, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(host[0], 0x22222222u);
    assert_int_equal(host[3], 0x22222222u);
    /* Still locked: the other thread has not allocated. */
    while (!__atomic_load_n(&m.about_to_call, __ATOMIC_ACQUIRE))
        sched_yield();
    for (int i = 0; i < 1000; i++)
        sched_yield();
    assert_int_equal(__atomic_load_n(&m.done, __ATOMIC_ACQUIRE), 0);
    ACL_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    assert_int_equal(g_calls[ACL_RT_SNAPSHOT_UNLOCK_POST], 1);
    pthread_join(t, NULL);
    assert_int_equal(m.rc, ACL_SUCCESS);
    ACL_OK(aclrtFree(m.p));
    /* Unlock straight from BACKED_UP is allowed too. */
    ACL_OK(aclrtSnapShotProcessLock(pid, NULL));
    ACL_OK(aclrtSnapShotProcessBackup(pid, NULL));
    ACL_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    /* A failing callback: 507912; a failing UNLOCK_POST still unlocks. */
    g_fail_stage = ACL_RT_SNAPSHOT_LOCK_PRE;
    ACL_ERR(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, "returned 1");
    ACL_ERR(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, NULL); /* never locked */
    g_fail_stage = ACL_RT_SNAPSHOT_UNLOCK_POST;
    ACL_OK(aclrtSnapShotProcessLock(pid, NULL));
    ACL_ERR(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, NULL);
    ACL_ERR(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, NULL);
    g_fail_stage = 99;
    for (int i = 0; i < STAGES; i++)
        ACL_OK(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)i, g_stage_cbs[i]));
    ACL_OK(aclrtFree(buf));
}

/* ---- other functions ------------------------------------------------------------------ */

static void test_cache_last_task(void **state)
{
    (void)state;
    char blob[16] = "op";
    ACL_ERR(aclrtCacheLastTaskOpInfo(blob, 0), ACL_ERROR_INVALID_PARAM, "infoSize");
    ACL_ERR(aclrtCacheLastTaskOpInfo(NULL, 4), ACL_ERROR_INVALID_PARAM, "infoPtr");
    ACL_ERR(aclrtCacheLastTaskOpInfo(blob, 65537), ACL_ERROR_RT_PARAM_INVALID, "65537");
    ACL_ERR(aclrtCacheLastTaskOpInfo(blob, sizeof(blob)), ACL_ERROR_RT_INTERNAL_ERROR, "captured");
    ACL_ERR(aclrtCacheLastTaskExtendInfo(NULL, 1), ACL_ERROR_RT_PARAM_INVALID, NULL);
    ACL_ERR(aclrtCacheLastTaskExtendInfo("x", 0), ACL_ERROR_RT_PARAM_INVALID, NULL);
    ACL_ERR(aclrtCacheLastTaskExtendInfo("x", 1), ACL_ERROR_RT_INTERNAL_ERROR, "captured");
}

static void test_prof_trace(void **state)
{
    (void)state;
    unsigned char rec[19] = {1, 2, 3};
    aclrtStream s = NULL;
    ACL_OK(aclrtCreateStream(&s));
    ACL_ERR(aclrtProfTrace(rec, 19, s), ACL_ERROR_RT_PARAM_INVALID, "length");
    ACL_ERR(aclrtProfTrace(rec, 0, s), ACL_ERROR_RT_PARAM_INVALID, "length");
    ACL_ERR(aclrtProfTrace(rec, -1, s), ACL_ERROR_RT_PARAM_INVALID, NULL);
    ACL_ERR(aclrtProfTrace(NULL, 18, s), ACL_ERROR_INVALID_PARAM, "userdata");
    ACL_OK(aclrtProfTrace(rec, 18, s));
    ACL_OK(aclrtProfTrace(rec, 1, NULL));
    ACL_OK(aclrtSynchronizeStream(s));
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtDestroyStream(s));
    ACL_ERR(aclrtProfTrace(rec, 18, s), ACL_ERROR_RT_INVALID_HANDLE, NULL);
}

static void *no_context_thread(void *p)
{
    aclError *rc = p;
    rc[0] = aclrtDeviceL2CacheFlush(NULL);
    unsigned char rec[2] = {0};
    rc[1] = aclrtProfTrace(rec, 2, NULL);
    return NULL;
}

static void test_l2_flush(void **state)
{
    (void)state;
    ACL_OK(aclrtDeviceL2CacheFlush(NULL));
    ACL_ERR(aclrtDeviceL2CacheFlush((void *)1), ACL_ERROR_INVALID_PARAM, "rsv");
    aclError rc[2] = {0, 0};
    oacl_test_run_thread(no_context_thread, rc);
    assert_int_equal(rc[0], ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(rc[1], ACL_ERROR_RT_CONTEXT_NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uce_info),
        cmocka_unit_test(test_uce_repair),
        cmocka_unit_test(test_repair_error),
        cmocka_unit_test(test_repair_clears_fault),
        cmocka_unit_test(test_snapshot_bad),
        cmocka_unit_test(test_snapshot_cycle),
        cmocka_unit_test(test_cache_last_task),
        cmocka_unit_test(test_prof_trace),
        cmocka_unit_test(test_l2_flush),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
