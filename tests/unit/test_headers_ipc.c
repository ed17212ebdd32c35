/*
 * Declarations of the inter-process sharing and virtual-memory chapter
 * (spec acl-rt-ipc-vmm.md section 2): structure layouts (LP64), prototypes
 * of its 37 functions, enumerator values, and the exact text of its macros
 * (CANN's suffixes: 0x02UL, 0U, no suffix). Nothing is called; it is also
 * built as strict ISO C11 with -Wpedantic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <acl/acl.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define HAS_TYPE(expr, type) _Generic((expr), type: 1, default: 0)
#define CHECK_PROTO(fn, type) _Static_assert(HAS_TYPE(&fn, type), "prototype of " #fn)
#define CHECK_MACRO_TYPE(m, type) _Static_assert(HAS_TYPE((m), type), #m " must have type " #type)

#if defined(__LP64__) || defined(_LP64)
#define CHECK_SIZE(type, size) _Static_assert(sizeof(type) == (size), "sizeof(" #type ") must be " #size)
#define CHECK_ALIGN(type, al) _Static_assert(_Alignof(type) == (al), "_Alignof(" #type ") must be " #al)
#define CHECK_OFFSET(type, member, off) \
    _Static_assert(offsetof(type, member) == (off), "offsetof(" #type ", " #member ") must be " #off)

CHECK_SIZE(aclrtMemLocation, 8);
CHECK_ALIGN(aclrtMemLocation, 4);

CHECK_SIZE(aclrtServerPid, 24);
CHECK_ALIGN(aclrtServerPid, 8);
CHECK_OFFSET(aclrtServerPid, sdid, 0);
CHECK_OFFSET(aclrtServerPid, pid, 8);
CHECK_OFFSET(aclrtServerPid, num, 16);

CHECK_SIZE(aclrtMemFabricHandle, 128);
CHECK_ALIGN(aclrtMemFabricHandle, 1);

CHECK_SIZE(aclrtPhysicalMemProp, 32);
CHECK_ALIGN(aclrtPhysicalMemProp, 8);
CHECK_OFFSET(aclrtPhysicalMemProp, handleType, 0);
CHECK_OFFSET(aclrtPhysicalMemProp, allocationType, 4);
CHECK_OFFSET(aclrtPhysicalMemProp, memAttr, 8);
CHECK_OFFSET(aclrtPhysicalMemProp, location, 12);
CHECK_OFFSET(aclrtPhysicalMemProp, reserve, 24);

CHECK_SIZE(aclrtMemAccessDesc, 24);
CHECK_ALIGN(aclrtMemAccessDesc, 4);
CHECK_OFFSET(aclrtMemAccessDesc, flags, 0);
CHECK_OFFSET(aclrtMemAccessDesc, location, 4);
CHECK_OFFSET(aclrtMemAccessDesc, rsv, 12);

CHECK_SIZE(aclrtIpcEventHandle, 64);
CHECK_ALIGN(aclrtIpcEventHandle, 1);

CHECK_OFFSET(struct MemAttrMapping, pgType, 0);
CHECK_OFFSET(struct MemAttrMapping, memType, 4);
CHECK_OFFSET(struct MemAttrMapping, isHostAlloc, 8);
CHECK_OFFSET(struct MemAttrMapping, memAttr, 12);
CHECK_SIZE(struct MemAttrMapping, 16);
#endif /* LP64 */

/* ---- handle and member types ---- */
_Static_assert(HAS_TYPE((aclrtDrvMemHandle)0, void *), "aclrtDrvMemHandle");
_Static_assert(HAS_TYPE((aclrtNotify)0, void *), "aclrtNotify");
_Static_assert(sizeof(((aclrtIpcEventHandle *)0)->reserved) == ACL_IPC_EVENT_HANDLE_SIZE, "handle bytes");
_Static_assert(HAS_TYPE(((aclrtServerPid *)0)->pid, int32_t *), "aclrtServerPid.pid");
_Static_assert(HAS_TYPE(((aclrtPhysicalMemProp *)0)->memAttr, aclrtMemAttr), "aclrtPhysicalMemProp.memAttr");
_Static_assert(HAS_TYPE(((aclrtPhysicalMemProp *)0)->location, aclrtMemLocation), "aclrtPhysicalMemProp.location");
_Static_assert(HAS_TYPE(((aclrtMemAccessDesc *)0)->flags, aclrtMemAccessFlags), "aclrtMemAccessDesc.flags");
_Static_assert(HAS_TYPE(((struct MemAttrMapping *)0)->isHostAlloc, bool), "MemAttrMapping.isHostAlloc");

/* ---- macro types (the suffixes) ---- */
CHECK_MACRO_TYPE(ACL_EVENT_IPC, unsigned int);
CHECK_MACRO_TYPE(ACL_NOTIFY_DEFAULT, unsigned int);
CHECK_MACRO_TYPE(ACL_NOTIFY_DEVICE_USE_ONLY, unsigned int);
CHECK_MACRO_TYPE(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT, unsigned long);
CHECK_MACRO_TYPE(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION, unsigned long);
CHECK_MACRO_TYPE(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT, unsigned long);
CHECK_MACRO_TYPE(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS, unsigned long);
CHECK_MACRO_TYPE(ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, unsigned long);
CHECK_MACRO_TYPE(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION, unsigned long);
CHECK_MACRO_TYPE(ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT, unsigned long);
CHECK_MACRO_TYPE(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS, unsigned long);
CHECK_MACRO_TYPE(ACL_RT_VMM_EXPORT_FLAG_DEFAULT, unsigned long);
CHECK_MACRO_TYPE(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, unsigned long);
CHECK_MACRO_TYPE(ACL_IPC_EVENT_HANDLE_SIZE, unsigned int);
CHECK_MACRO_TYPE(ACL_RT_MEM_LINK_IDX_0, unsigned int);
CHECK_MACRO_TYPE(ACL_RT_MEM_LINK_IDX_1, unsigned int);
CHECK_MACRO_TYPE(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO, int);
CHECK_MACRO_TYPE(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS, int);
CHECK_MACRO_TYPE(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH, int);
CHECK_MACRO_TYPE(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH, int);

/* ---- prototypes ---- */
CHECK_PROTO(aclrtIpcMemGetExportKey, aclError (*)(void *, size_t, char *, size_t, uint64_t));
CHECK_PROTO(aclrtIpcMemSetImportPid, aclError (*)(const char *, int32_t *, size_t));
CHECK_PROTO(aclrtIpcMemImportPidInterServer, aclError (*)(const char *, aclrtServerPid *, size_t));
CHECK_PROTO(aclrtIpcMemImportByKey, aclError (*)(void **, const char *, uint64_t));
CHECK_PROTO(aclrtIpcMemClose, aclError (*)(const char *));
CHECK_PROTO(aclrtIpcMemSetAttr, aclError (*)(const char *, aclrtIpcMemAttrType, uint64_t));
CHECK_PROTO(aclrtDeviceGetBareTgid, aclError (*)(int32_t *));
CHECK_PROTO(aclrtNotifyGetExportKey, aclError (*)(aclrtNotify, char *, size_t, uint64_t));
CHECK_PROTO(aclrtNotifySetImportPid, aclError (*)(aclrtNotify, int32_t *, size_t));
CHECK_PROTO(aclrtNotifySetImportPidInterServer, aclError (*)(aclrtNotify, aclrtServerPid *, size_t));
CHECK_PROTO(aclrtNotifyImportByKey, aclError (*)(aclrtNotify *, const char *, uint64_t));
CHECK_PROTO(aclrtNotifyBatchReset, aclError (*)(aclrtNotify *, size_t));
CHECK_PROTO(aclrtIpcGetEventHandle, aclError (*)(aclrtEvent, aclrtIpcEventHandle *));
CHECK_PROTO(aclrtIpcOpenEventHandle, aclError (*)(aclrtIpcEventHandle, aclrtEvent *));
CHECK_PROTO(aclrtMemGetAllocationGranularity,
            aclError (*)(aclrtPhysicalMemProp *, aclrtMemGranularityOptions, size_t *));
CHECK_PROTO(aclrtMallocPhysical, aclError (*)(aclrtDrvMemHandle *, size_t, const aclrtPhysicalMemProp *, uint64_t));
CHECK_PROTO(aclrtFreePhysical, aclError (*)(aclrtDrvMemHandle));
CHECK_PROTO(aclrtReserveMemAddress, aclError (*)(void **, size_t, size_t, void *, uint64_t));
CHECK_PROTO(aclrtReserveMemAddressNoUCMemory, aclError (*)(void **, size_t, size_t, void *, uint64_t));
CHECK_PROTO(aclrtReleaseMemAddress, aclError (*)(void *));
CHECK_PROTO(aclrtMapMem, aclError (*)(void *, size_t, size_t, aclrtDrvMemHandle, uint64_t));
CHECK_PROTO(aclrtMemMapNoAccess, aclError (*)(void *, size_t, size_t, aclrtDrvMemHandle, uint64_t));
CHECK_PROTO(aclrtUnmapMem, aclError (*)(void *));
CHECK_PROTO(aclrtMemSetAccess, aclError (*)(void *, size_t, aclrtMemAccessDesc *, size_t));
CHECK_PROTO(aclrtMemGetAccess, aclError (*)(void *, aclrtMemLocation *, uint64_t *));
CHECK_PROTO(aclrtMemRetainAllocationHandle, aclError (*)(void *, aclrtDrvMemHandle *));
CHECK_PROTO(aclrtMemGetAllocationPropertiesFromHandle, aclError (*)(aclrtDrvMemHandle, aclrtPhysicalMemProp *));
CHECK_PROTO(aclrtMemGetAddressRange, aclError (*)(void *, void **, size_t *));
CHECK_PROTO(aclrtMemExportToShareableHandle, aclError (*)(aclrtDrvMemHandle, aclrtMemHandleType, uint64_t, uint64_t *));
CHECK_PROTO(aclrtMemExportToShareableHandleV2,
            aclError (*)(aclrtDrvMemHandle, uint64_t, aclrtMemSharedHandleType, void *));
CHECK_PROTO(aclrtMemSetPidToShareableHandle, aclError (*)(uint64_t, int32_t *, size_t));
CHECK_PROTO(aclrtMemSetPidToShareableHandleV2, aclError (*)(void *, aclrtMemSharedHandleType, int32_t *, size_t));
CHECK_PROTO(aclrtMemImportFromShareableHandle, aclError (*)(uint64_t, int32_t, aclrtDrvMemHandle *));
CHECK_PROTO(aclrtMemImportFromShareableHandleV2,
            aclError (*)(void *, aclrtMemSharedHandleType, uint64_t, aclrtDrvMemHandle *));
CHECK_PROTO(aclrtMemP2PMap, aclError (*)(void *, size_t, int32_t, uint64_t));
CHECK_PROTO(aclrtMemMapSelectedLink, aclError (*)(void *, size_t, void *, uint32_t));
CHECK_PROTO(aclrtMemMapSetLink, aclError (*)(aclrtDrvMemHandle, aclrtMemLinkType));

/* ---- values ---- */
struct value {
    const char *name;
    long long got;
    long long want;
};
#define V(name, want) {#name, (long long)(name), (long long)(want)}

static const struct value g_values[] = {
    V(ACL_EVENT_IPC, 0x40), V(ACL_NOTIFY_DEFAULT, 0), V(ACL_NOTIFY_DEVICE_USE_ONLY, 1),
    V(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT, 0), V(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION, 2),
    V(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT, 0), V(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS, 2),
    V(ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, 0), V(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION, 1),
    V(ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT, 0), V(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS, 1),
    V(ACL_RT_VMM_EXPORT_FLAG_DEFAULT, 0), V(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, 1),
    V(ACL_IPC_EVENT_HANDLE_SIZE, 64), V(ACL_RT_MEM_LINK_IDX_0, 0), V(ACL_RT_MEM_LINK_IDX_1, 1),
    V(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO, 0), V(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS, 1),
    V(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH, 2), V(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH, 3),
    V(ACL_MEM_LOCATION_TYPE_HOST, 0), V(ACL_MEM_LOCATION_TYPE_DEVICE, 1), V(ACL_MEM_LOCATION_TYPE_UNREGISTERED, 2),
    V(ACL_MEM_LOCATION_TYPE_MANAGED, 3), V(ACL_MEM_LOCATION_TYPE_HOST_NUMA, 4),
    V(ACL_DDR_MEM, 0), V(ACL_HBM_MEM, 1), V(ACL_DDR_MEM_HUGE, 2), V(ACL_DDR_MEM_NORMAL, 3), V(ACL_HBM_MEM_HUGE, 4),
    V(ACL_HBM_MEM_NORMAL, 5), V(ACL_DDR_MEM_P2P_HUGE, 6), V(ACL_DDR_MEM_P2P_NORMAL, 7), V(ACL_HBM_MEM_P2P_HUGE, 8),
    V(ACL_HBM_MEM_P2P_NORMAL, 9), V(ACL_HBM_MEM_HUGE1G, 10), V(ACL_HBM_MEM_P2P_HUGE1G, 11), V(ACL_MEM_NORMAL, 12),
    V(ACL_MEM_HUGE, 13), V(ACL_MEM_HUGE1G, 14), V(ACL_MEM_P2P_NORMAL, 15), V(ACL_MEM_P2P_HUGE, 16),
    V(ACL_MEM_P2P_HUGE1G, 17),
    V(NORMAL_PAGE_TYPE, 0), V(HUGE_PAGE_TYPE, 1), V(HUGE1G_PAGE_TYPE, 2),
    V(HBM_TYPE, 0), V(DDR_TYPE, 1), V(P2P_HBM_TYPE, 2), V(P2P_DDR_TYPE, 3),
    V(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0),
    V(ACL_MEM_ALLOCATION_TYPE_PINNED, 0), V(ACL_MEM_HANDLE_TYPE_NONE, 0), V(ACL_MEM_HANDLE_TYPE_POSIX, 2),
    V(ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 1), V(ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 2),
    V(ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, 0), V(ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, 1),
    V(ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, 0xFFFF),
    V(ACL_RT_MEM_ACCESS_FLAGS_NONE, 0), V(ACL_RT_MEM_ACCESS_FLAGS_READ, 1), V(ACL_RT_MEM_ACCESS_FLAGS_READWRITE, 3),
    V(ACL_RT_MEM_ACCESS_LINK_SIO, 0), V(ACL_RT_MEM_ACCESS_LINK_HCCS, 1), V(ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH, 2),
    V(ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH, 3),
    V(ACL_ERROR_RT_NO_PERMISSION, 207006), V(ACL_ERROR_RT_IPC_ERROR, 507022), V(ACL_ERROR_RT_OVER_LIMIT, 207012),
    V(ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, 207021), V(ACL_ERROR_RT_NO_EVENT_RESOURCE, 207007),
};

static void test_values(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < ARRAY_LEN(g_values); i++) {
        if (g_values[i].got != g_values[i].want) {
            print_error("%s is %lld, must be %lld\n", g_values[i].name, g_values[i].got, g_values[i].want);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* The macros are written exactly as CANN writes them (suffix and case). */
#define XSTR(x) STR(x)
#define STR(x) #x
struct text {
    const char *name;
    const char *got;
    const char *want;
};
#define T(name, want) {#name, XSTR(name), want}

static const struct text g_texts[] = {
    T(ACL_EVENT_IPC, "0x00000040U"),
    T(ACL_NOTIFY_DEFAULT, "0x00000000U"),
    T(ACL_NOTIFY_DEVICE_USE_ONLY, "0x00000001U"),
    T(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT, "0x0UL"),
    T(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION, "0x02UL"),
    T(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT, "0x0UL"),
    T(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS, "0x02UL"),
    T(ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, "0x0UL"),
    T(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION, "0x1UL"),
    T(ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT, "0x0UL"),
    T(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS, "0x1UL"),
    T(ACL_RT_VMM_EXPORT_FLAG_DEFAULT, "0x0UL"),
    T(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, "0x1UL"),
    T(ACL_IPC_EVENT_HANDLE_SIZE, "64U"),
    T(ACL_RT_MEM_LINK_IDX_0, "0U"),
    T(ACL_RT_MEM_LINK_IDX_1, "1U"),
    T(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO, "0"),
    T(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS, "1"),
    T(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH, "2"),
    T(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH, "3"),
};

static void test_macro_text(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < ARRAY_LEN(g_texts); i++) {
        if (strcmp(g_texts[i].got, g_texts[i].want) != 0) {
            print_error("%s is written %s, must be %s\n", g_texts[i].name, g_texts[i].got, g_texts[i].want);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* An event handle is plain data: a struct copy carries all 64 bytes. */
static void test_event_handle_is_plain_data(void **state)
{
    (void)state;
    aclrtIpcEventHandle a, b;
    for (size_t i = 0; i < sizeof(a.reserved); i++)
        a.reserved[i] = (char)(i * 7 + 1);
    memset(&b, 0, sizeof(b));
    b = a;
    assert_memory_equal(&a, &b, sizeof(a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_macro_text),
        cmocka_unit_test(test_event_handle_is_plain_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
