/*
 * Declarations of the reliability chapter that execution control, memory
 * errors, snapshots and the small functions use (acl-rt-reliability.md
 * §2.3-§2.7, §3.3, §3.6-§3.8): enumerator values, structure layouts (LP64),
 * callback types and prototypes. Nothing is called except one function per
 * group; it is also built as strict ISO C11 with -Wpedantic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <acl/acl.h>

#define HAS_TYPE(expr, type) _Generic((expr), type: 1, default: 0)
#define CHECK_PROTO(fn, type) _Static_assert(HAS_TYPE(&fn, type), "prototype of " #fn)
#define CHECK_VALUE(name, value) _Static_assert((name) == (value), #name " must be " #value)

CHECK_VALUE(ACL_RT_STREAM_STATE_CREATE_POST, 1);
CHECK_VALUE(ACL_RT_STREAM_STATE_DESTROY_PRE, 2);
CHECK_VALUE(ACL_RT_DEVICE_STATE_SET_PRE, 0);
CHECK_VALUE(ACL_RT_DEVICE_STATE_SET_POST, 1);
CHECK_VALUE(ACL_RT_DEVICE_STATE_RESET_PRE, 2);
CHECK_VALUE(ACL_RT_DEVICE_STATE_RESET_POST, 3);
CHECK_VALUE(ACL_RT_DEVICE_TASK_ABORT_PRE, 0);
CHECK_VALUE(ACL_RT_DEVICE_TASK_ABORT_POST, 1);
CHECK_VALUE(ACL_RT_SNAPSHOT_LOCK_PRE, 0);
CHECK_VALUE(ACL_RT_SNAPSHOT_BACKUP_PRE, 1);
CHECK_VALUE(ACL_RT_SNAPSHOT_BACKUP_POST, 2);
CHECK_VALUE(ACL_RT_SNAPSHOT_RESTORE_PRE, 3);
CHECK_VALUE(ACL_RT_SNAPSHOT_RESTORE_POST, 4);
CHECK_VALUE(ACL_RT_SNAPSHOT_UNLOCK_POST, 5);
CHECK_VALUE(ACL_RT_PROCESS_STATE_RUNNING, 0);
CHECK_VALUE(ACL_RT_PROCESS_STATE_LOCKED, 1);
CHECK_VALUE(MAX_MEM_UCE_INFO_ARRAY_SIZE, 128);
CHECK_VALUE(UCE_INFO_RESERVED_SIZE, 14);
CHECK_VALUE(ACL_RT_MEM_UCE_INFO_MAX_NUM, 20);
CHECK_VALUE(ACL_ERROR_RT_WAIT_TIMEOUT, 107019);
CHECK_VALUE(ACL_ERROR_RT_DEVICE_TASK_ABORT, 107022);
CHECK_VALUE(ACL_ERROR_RT_STREAM_ABORT, 107023);
CHECK_VALUE(ACL_ERROR_RT_TASK_ABORT_STOP, 107035);
CHECK_VALUE(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT, 507905);
CHECK_VALUE(ACL_ERROR_SNAPSHOT_LOCK_FAILED, 507906);
CHECK_VALUE(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, 507907);
CHECK_VALUE(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, 507908);
CHECK_VALUE(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, 507909);
CHECK_VALUE(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, 507912);
CHECK_VALUE(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED, 507913);
CHECK_VALUE(ACL_DEBUG, 0);
CHECK_VALUE(ACL_ERROR, 3);

#if defined(__LP64__) || defined(_LP64)
_Static_assert(sizeof(aclrtSnapShotBackupArgs) == 64, "aclrtSnapShotBackupArgs is 64 bytes");
_Static_assert(sizeof(aclrtSnapShotRestoreArgs) == 64, "aclrtSnapShotRestoreArgs is 64 bytes");
_Static_assert(offsetof(aclrtSnapShotBackupArgs, reserved) == 4, "reserved follows backupFlags");
_Static_assert(sizeof(aclrtMemUceInfo) == 128, "aclrtMemUceInfo is 128 bytes");
_Static_assert(sizeof(aclrtErrorInfo) == 2576, "aclrtErrorInfo is 2576 bytes");
#endif

CHECK_PROTO(aclrtStreamStop, aclError (*)(aclrtStream));
CHECK_PROTO(aclrtStreamAbort, aclError (*)(aclrtStream));
CHECK_PROTO(aclrtDeviceTaskAbort, aclError (*)(int32_t, uint32_t));
CHECK_PROTO(aclrtSetDeviceTaskAbortCallback, aclError (*)(const char *, aclrtDeviceTaskAbortCallback, void *));
CHECK_PROTO(aclrtRegStreamStateCallback, aclError (*)(const char *, aclrtStreamStateCallback, void *));
CHECK_PROTO(aclrtRegDeviceStateCallback, aclError (*)(const char *, aclrtDeviceStateCallback, void *));
_Static_assert(HAS_TYPE((aclrtStreamStateCallback)0, void (*)(aclrtStream, aclrtStreamState, void *)),
               "aclrtStreamStateCallback");
_Static_assert(HAS_TYPE((aclrtDeviceStateCallback)0, void (*)(int32_t, aclrtDeviceState, void *)),
               "aclrtDeviceStateCallback");
_Static_assert(HAS_TYPE((aclrtDeviceTaskAbortCallback)0,
                        int32_t (*)(int32_t, aclrtDeviceTaskAbortStage, uint32_t, void *)),
               "aclrtDeviceTaskAbortCallback");
_Static_assert(HAS_TYPE((aclrtSnapShotCallBack)0, uint32_t (*)(int32_t, void *)), "aclrtSnapShotCallBack");
CHECK_PROTO(aclrtGetMemUceInfo, aclError (*)(int32_t, aclrtMemUceInfo *, size_t, size_t *));
CHECK_PROTO(aclrtMemUceRepair, aclError (*)(int32_t, aclrtMemUceInfo *, size_t));
CHECK_PROTO(aclrtRepairError, aclError (*)(int32_t, const aclrtErrorInfo *));
CHECK_PROTO(aclrtSnapShotProcessLock, aclError (*)(int, void *));
CHECK_PROTO(aclrtSnapShotProcessUnlock, aclError (*)(int, void *));
CHECK_PROTO(aclrtSnapShotProcessBackup, aclError (*)(int, aclrtSnapShotBackupArgs *));
CHECK_PROTO(aclrtSnapShotProcessRestore, aclError (*)(int, aclrtSnapShotRestoreArgs *));
CHECK_PROTO(aclrtSnapShotCallbackRegister, aclError (*)(aclrtSnapShotStage, aclrtSnapShotCallBack, void *));
CHECK_PROTO(aclrtSnapShotCallbackUnregister, aclError (*)(aclrtSnapShotStage, aclrtSnapShotCallBack));
CHECK_PROTO(aclrtCacheLastTaskOpInfo, aclError (*)(const void *const, const size_t));
CHECK_PROTO(aclrtCacheLastTaskExtendInfo, aclError (*)(const char *const, const size_t));
CHECK_PROTO(aclrtProfTrace, aclError (*)(void *, int32_t, aclrtStream));
CHECK_PROTO(aclrtDeviceL2CacheFlush, aclError (*)(void *));
CHECK_PROTO(aclAppLog, void (*)(aclLogLevel, const char *, const char *, uint32_t, const char *, ...));

static void test_declarations(void **state)
{
    (void)state;
    /* Without a context the flush reports 107002: the symbol links and runs. */
    assert_int_equal(aclrtDeviceL2CacheFlush(NULL), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_declarations)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
