/*
 * Virtual memory (spec acl-rt-ipc-vmm.md 4.4-4.6): granularity, physical
 * allocations, reservations, mappings, access, handle counting, address
 * ranges, peer mapping and links; shareable handles across real processes
 * (with and without a whitelist, V1 and V2, the exporter gone). Every
 * function gets its bad inputs.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipc_peer.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MiB2 (2ull << 20)
#define GiB1 (1ull << 30)
#define NOT_SET 0x7FFFFFFFull

/* ThreadSanitizer keeps its shadow memory where CANN's fixed-address window
 * ([16, 24) TiB) and the recommended NoUC window lie: requests for fixed
 * addresses there are only tested without it. */
#if defined(__SANITIZE_THREAD__)
#define FIXED_ADDRESSES_USABLE 0
#else
#define FIXED_ADDRESSES_USABLE 1
#endif

static aclrtBinHandle g_bin;
static aclrtFuncHandle g_copy_plus;

static void load_kernels(void)
{
    if (aclrtBinaryLoadFromFile(oacl_test_kernel_path("rt_misc"), NULL, &g_bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(g_bin, "copy_plus", &g_copy_plus) != ACL_SUCCESS) {
        fprintf(stderr, "cannot load rt_misc\n");
        exit(1);
    }
}

/* out[i] = in[i] + add over n words (n a multiple of 8), 8 blocks. */
static aclError launch_add(void *in, void *out, uint32_t add, size_t n, aclrtStream s)
{
    uint32_t per = (uint32_t)(n / 8);
    const void *v[] = {&in, &out, &add, &per};
    size_t sz[] = {8, 8, 4, 4};
    return test_launch(g_copy_plus, 8, s, 4, v, sz);
}

static aclrtPhysicalMemProp prop_of(aclrtMemLocationType t, uint32_t id, aclrtMemAttr attr)
{
    aclrtPhysicalMemProp p;
    memset(&p, 0, sizeof(p));
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.memAttr = attr;
    p.location.type = t;
    p.location.id = id;
    return p;
}

/* ---- peer modes ---------------------------------------------------------------------- */

/* Imports "value <v> <v2|v1>" for PEER_DEVICE, maps it, lets a kernel add
 * 1 to every word, answers "done", then obeys "check <expected>" (reads
 * the first word through its mapping) and "bye". */
static void peer_importer(void)
{
    child_arm_alarm();
    int dev = getenv("PEER_DEVICE") ? atoi(getenv("PEER_DEVICE")) : 0;
    CHILD_OK(aclrtSetDevice(dev));
    load_kernels();
    child_send("pid %d", (int)getpid());
    char line[256], form[8];
    unsigned long long value = 0;
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "value %llx %7s", &value, form) == 2);
    aclrtDrvMemHandle h = NULL;
    if (strcmp(form, "v2") == 0)
        CHILD_OK(aclrtMemImportFromShareableHandleV2(&value, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h));
    else
        CHILD_OK(aclrtMemImportFromShareableHandle(value, dev, &h));
    aclrtDrvMemHandle h2 = NULL;
    CHILD_ERR(aclrtMemImportFromShareableHandle(value, dev, &h2), ACL_ERROR_RT_PARAM_INVALID, "imported already");
    CHILD_CHECK(h2 == NULL);
    aclrtPhysicalMemProp pr;
    CHILD_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &pr));
    CHILD_CHECK_INT(pr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    CHILD_CHECK_INT(pr.location.id, dev);
    CHILD_CHECK_INT(pr.memAttr, ACL_HBM_MEM_HUGE);
    CHILD_CHECK_INT(pr.reserve, 0);
    if (dev != 0) {
        int32_t st = 0;
        CHILD_OK(aclrtDevicePeerAccessStatus(dev, 0, &st));
        CHILD_CHECK_INT(st, 1); /* granted implicitly */
    }
    /* An imported handle cannot be exported again. */
    uint64_t again = 0;
    CHILD_ERR(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &again), ACL_ERROR_RT_PARAM_INVALID,
              "imported");
    void *va = NULL;
    CHILD_OK(aclrtReserveMemAddress(&va, 2 * MiB2, 0, NULL, 0));
    CHILD_OK(aclrtMapMem(va, 2 * MiB2, 0, h, 0));
    aclrtMemAccessDesc d;
    memset(&d, 0, sizeof(d));
    d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    d.location.id = (uint32_t)dev;
    CHILD_OK(aclrtMemSetAccess(va, 2 * MiB2, &d, 1));
    CHILD_OK(launch_add(va, va, 1, 2 * MiB2 / 4, NULL));
    CHILD_OK(aclrtSynchronizeStream(NULL));
    child_send("done");
    for (;;) {
        child_recv(line, sizeof(line));
        unsigned expect;
        if (sscanf(line, "check %u", &expect) == 1) {
            uint32_t w[2] = {0, 0};
            CHILD_OK(aclrtMemcpy(w, 8, va, 8, ACL_MEMCPY_DEVICE_TO_HOST));
            CHILD_CHECK_INT(w[0], expect);
            CHILD_CHECK_INT(w[1], expect + 1);
            /* The exporter is gone or freed: no new import of the value. */
            CHILD_ERR(aclrtMemImportFromShareableHandle(value, dev, &h2), ACL_ERROR_RT_PARAM_INVALID, NULL);
            child_send("checked");
        } else {
            break;
        }
    }
    CHILD_OK(aclrtUnmapMem(va));
    CHILD_OK(aclrtFreePhysical(h));
    CHILD_OK(aclrtReleaseMemAddress(va));
}

/* Not whitelisted: refused. */
static void peer_refused(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    char line[256];
    unsigned long long value = 0;
    child_recv(line, sizeof(line));
    CHILD_CHECK(sscanf(line, "value %llx", &value) == 1);
    aclrtDrvMemHandle h = NULL;
    CHILD_ERR(aclrtMemImportFromShareableHandle(value, 0, &h), ACL_ERROR_RT_NO_PERMISSION, "not on the whitelist");
    CHILD_CHECK(h == NULL);
    /* Another process's handle cannot be whitelisted here. */
    int32_t me = getpid();
    CHILD_ERR(aclrtMemSetPidToShareableHandle(value, &me, 1), ACL_ERROR_RT_NO_PERMISSION, "only the exporting");
    child_send("refused");
}

/* Exporter: allocates on device 0, fills words with i, exports, then obeys
 * "list <pid>", "free" and "exit". */
static void peer_exporter(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    aclrtDrvMemHandle h = NULL;
    CHILD_OK(aclrtMallocPhysical(&h, 2 * MiB2, &p, 0));
    void *va = NULL;
    CHILD_OK(aclrtReserveMemAddress(&va, 2 * MiB2, 0, NULL, 0));
    CHILD_OK(aclrtMapMem(va, 2 * MiB2, 0, h, 0));
    static uint32_t host[2 * MiB2 / 4];
    for (size_t i = 0; i < ARRAY_LEN(host); i++)
        host[i] = (uint32_t)i + 500;
    CHILD_OK(aclrtMemcpy(va, 2 * MiB2, host, 2 * MiB2, ACL_MEMCPY_HOST_TO_DEVICE));
    CHILD_OK(aclrtUnmapMem(va));
    CHILD_OK(aclrtReleaseMemAddress(va));
    uint64_t value = 0;
    CHILD_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &value));
    child_send("value %llx", (unsigned long long)value);
    char line[256];
    for (;;) {
        child_recv(line, sizeof(line));
        int pid;
        if (sscanf(line, "list %d", &pid) == 1) {
            CHILD_OK(aclrtMemSetPidToShareableHandle(value, &pid, 1));
            child_send("listed");
        } else if (strcmp(line, "free") == 0) {
            CHILD_OK(aclrtFreePhysical(h));
            child_send("freed");
        } else {
            return;
        }
    }
}

static void peer_profiles_a3(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    load_kernels();
    /* 1 GiB P2P pages and NoUC reservations exist on A3. */
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_P2P_HUGE1G);
    size_t g = 0;
    CHILD_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    CHILD_CHECK_INT(g, GiB1);
    void *va = NULL;
    void *want = (void *)(uintptr_t)0x280000000000ull; /* 40 TiB */
    if (!FIXED_ADDRESSES_USABLE) { /* any free, 1 GiB-aligned range will do */
        CHILD_OK(aclrtReserveMemAddress(&want, 2 * GiB1, 0, NULL, 0));
        CHILD_OK(aclrtReleaseMemAddress(want));
    }
    CHILD_OK(aclrtReserveMemAddressNoUCMemory(&va, GiB1, 0, want, 0));
    CHILD_CHECK(va == want);
    CHILD_ERR(aclrtReserveMemAddressNoUCMemory(&va, GiB1, 0, NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "expectPtr");
    CHILD_ERR(aclrtReserveMemAddressNoUCMemory(&va, MiB2, 0, (char *)want + GiB1, 0), ACL_ERROR_RT_PARAM_INVALID,
              "multiple of 1 GiB");
    /* Map a physical handle at the start, alias it through the selected link. */
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    aclrtDrvMemHandle h = NULL;
    CHILD_OK(aclrtMallocPhysical(&h, MiB2, &p, 0));
    CHILD_OK(aclrtMapMem(want, MiB2, 0, h, 0));
    void *dst = (char *)want + 4 * MiB2;
    CHILD_OK(aclrtMemMapSelectedLink(dst, MiB2, want, ACL_RT_MEM_LINK_IDX_1));
    CHILD_OK(aclrtMemset(want, 8, 0x33, 8));
    uint64_t v = 0;
    CHILD_OK(aclrtMemcpy(&v, 8, dst, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHILD_CHECK_INT(v, 0x3333333333333333ull); /* the same physical memory */
    CHILD_OK(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_LINK_HCCS));
    CHILD_ERR(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH), ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, "no UB");
    CHILD_OK(aclrtUnmapMem(dst));
    CHILD_OK(aclrtUnmapMem(want));
    CHILD_OK(aclrtFreePhysical(h));
    CHILD_OK(aclrtReleaseMemAddress(want));
    /* FABRIC handles exist on A3: the same export in 128 bytes. */
    CHILD_OK(aclrtMallocPhysical(&h, MiB2, &p, 0));
    aclrtMemFabricHandle f;
    memset(&f, 0xEE, sizeof(f));
    CHILD_OK(aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &f));
    CHILD_CHECK(memcmp(f.data + 8, "OACLFAB", 8) == 0);
    int32_t pid = 4242;
    CHILD_OK(aclrtMemSetPidToShareableHandleV2(&f, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &pid, 1));
    CHILD_OK(aclrtFreePhysical(h));
}

static void peer_profiles_950(void)
{
    child_arm_alarm();
    CHILD_OK(aclrtSetDevice(0));
    void *va = NULL;
    CHILD_ERR(aclrtReserveMemAddress(&va, MiB2, 0, (void *)(uintptr_t)0x100000000000ull, 0),
              ACL_ERROR_RT_PARAM_INVALID, "must be NULL");
    CHILD_CHECK(va == NULL);
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    aclrtDrvMemHandle h = NULL;
    CHILD_OK(aclrtMallocPhysical(&h, MiB2, &p, 0));
    CHILD_OK(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH));
    CHILD_ERR(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_LINK_SIO), ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, "SIO/HCCS");
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE1G);
    size_t g = 0;
    CHILD_ERR(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "1 GiB pages");
    CHILD_OK(aclrtFreePhysical(h));
}

static const struct oacl_child_mode g_modes[] = {
    {"importer", peer_importer},
    {"refused", peer_refused},
    {"exporter", peer_exporter},
    {"profiles_a3", peer_profiles_a3},
    {"profiles_950", peer_profiles_950},
};

/* ---- parent side ------------------------------------------------------------------------ */

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0))
        return -1;
    load_kernels();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtBinaryUnLoad(g_bin);
    return aclrtResetDeviceForce(0);
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

static void test_granularity(void **state)
{
    (void)state;
    size_t g = 0;
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    assert_int_equal(g, MiB2);
    ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g));
    assert_int_equal(g, MiB2);
    p.memAttr = ACL_HBM_MEM_HUGE1G;
    ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    assert_int_equal(g, GiB1);
    p = prop_of(ACL_MEM_LOCATION_TYPE_HOST, 0, ACL_MEM_NORMAL);
    ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    assert_int_equal(g, (size_t)sysconf(_SC_PAGESIZE));
    p.memAttr = ACL_DDR_MEM_HUGE;
    ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    assert_int_equal(g, MiB2);

    size_t keep = 12345;
    g = keep;
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    ACL_ERR(aclrtMemGetAllocationGranularity(NULL, 0, &g), ACL_ERROR_INVALID_PARAM, "prop is NULL");
    ACL_ERR(aclrtMemGetAllocationGranularity(&p, 0, NULL), ACL_ERROR_INVALID_PARAM, "granularity is NULL");
    p.memAttr = ACL_DDR_MEM_HUGE;
    ACL_ERR(aclrtMemGetAllocationGranularity(&p, 0, &g), ACL_ERROR_INVALID_PARAM, "host memory");
    p.memAttr = ACL_HBM_MEM_P2P_HUGE;
    ACL_ERR(aclrtMemGetAllocationGranularity(&p, 0, &g), ACL_ERROR_INVALID_PARAM, "cannot be used");
    p.memAttr = ACL_HBM_MEM;
    ACL_ERR(aclrtMemGetAllocationGranularity(&p, 0, &g), ACL_ERROR_INVALID_PARAM, "cannot be used");
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 99, ACL_MEM_HUGE);
    ACL_ERR(aclrtMemGetAllocationGranularity(&p, 0, &g), ACL_ERROR_RT_INVALID_DEVICEID, "out of range");
    p = prop_of(ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0, ACL_MEM_HUGE);
    ACL_ERR(aclrtMemGetAllocationGranularity(&p, 0, &g), ACL_ERROR_RT_PARAM_INVALID, "location.type 2");
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    ACL_ERR(aclrtMemGetAllocationGranularity(&p, (aclrtMemGranularityOptions)5, &g), ACL_ERROR_RT_PARAM_INVALID,
            "option 5");
    p = prop_of(ACL_MEM_LOCATION_TYPE_HOST, 0, ACL_MEM_HUGE1G);
    ACL_ERR(aclrtMemGetAllocationGranularity(&p, 0, &g), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "host memory");
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_P2P_HUGE1G);
    ACL_ERR(aclrtMemGetAllocationGranularity(&p, 0, &g), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "Ascend910B3");
    assert_int_equal(g, keep);
}

/* Two physical handles mapped side by side in one reservation behave as
 * one range for copies and kernels. */
static void test_reserve_map_two(void **state)
{
    (void)state;
    size_t free0 = 0, total = 0, free1 = 0;
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    void *va = NULL;
    ACL_OK(aclrtReserveMemAddress(&va, 8 << 20, 0, NULL, 0));
    assert_int_equal((uintptr_t)va % MiB2, 0);
    aclrtPtrAttributes at;
    ACL_OK(aclrtPointerGetAttributes(va, &at));
    assert_int_equal(at.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED); /* nothing mapped yet */
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    p.reserve = 0xABCDEF;
    aclrtDrvMemHandle h[2] = {NULL, NULL};
    ACL_OK(aclrtMallocPhysical(&h[0], MiB2, &p, 0));
    ACL_OK(aclrtMallocPhysical(&h[1], MiB2 - 100, &p, 0)); /* rounded up to the granularity */
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    assert_int_equal(free0 - free1, 2 * MiB2); /* physical memory counts against the device */
    ACL_OK(aclrtMapMem(va, MiB2, 0, h[0], 0));
    ACL_OK(aclrtMapMem((char *)va + MiB2, MiB2, 0, h[1], 0));
    ACL_OK(aclrtPointerGetAttributes((char *)va + MiB2 + 5, &at));
    assert_int_equal(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(at.location.id, 0);
    assert_int_equal(at.pageSize, MiB2);
    uint64_t acc = 0;
    aclrtMemLocation loc = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
    ACL_OK(aclrtMemGetAccess((char *)va + 77, &loc, &acc));
    assert_int_equal(acc, ACL_RT_MEM_ACCESS_FLAGS_READWRITE); /* the owner's access */
    loc.id = 1;
    ACL_OK(aclrtMemGetAccess(va, &loc, &acc));
    assert_int_equal(acc, NOT_SET);
    /* A copy across the boundary, then a kernel over both. */
    uint32_t src[16], back[16];
    for (int i = 0; i < 16; i++)
        src[i] = 1000u + (uint32_t)i;
    char *edge = (char *)va + MiB2 - 32;
    ACL_OK(aclrtMemcpy(edge, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(launch_add(va, va, 5, 2 * MiB2 / 4, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    ACL_OK(aclrtMemcpy(back, 64, edge, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 16; i++)
        assert_int_equal(back[i], 1005u + (uint32_t)i);
    void *base = NULL;
    size_t size = 0;
    ACL_OK(aclrtMemGetAddressRange((char *)va + MiB2 + 3, &base, &size));
    assert_ptr_equal(base, (char *)va + MiB2);
    assert_int_equal(size, MiB2);
    ACL_ERR(aclrtFree(va), ACL_ERROR_RT_PARAM_INVALID, "aclrtUnmapMem");
    ACL_ERR(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID, "still holds 2 mapping");
    aclrtPhysicalMemProp got;
    ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(h[1], &got));
    assert_int_equal(got.memAttr, ACL_HBM_MEM_HUGE);
    assert_int_equal(got.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(got.reserve, 0xABCDEF);
    ACL_OK(aclrtUnmapMem(va));
    ACL_OK(aclrtUnmapMem((char *)va + MiB2));
    ACL_OK(aclrtFreePhysical(h[0]));
    ACL_OK(aclrtFreePhysical(h[1]));
    ACL_OK(aclrtReleaseMemAddress(va));
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    assert_int_equal(free1, free0);
}

static void test_map_bad_inputs(void **state)
{
    (void)state;
    void *va = NULL;
    ACL_OK(aclrtReserveMemAddress(&va, 8 << 20, 0, NULL, 0));
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    aclrtDrvMemHandle h = NULL, dead = NULL;
    ACL_OK(aclrtMallocPhysical(&h, MiB2, &p, 0));
    ACL_OK(aclrtMallocPhysical(&dead, MiB2, &p, 0));
    ACL_OK(aclrtFreePhysical(dead));
    char *c = va;
    ACL_ERR(aclrtMapMem(NULL, MiB2, 0, h, 0), ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
    ACL_ERR(aclrtMapMem(va, MiB2, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtMapMem(va, 0, 0, h, 0), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtMapMem(va, MiB2, 0, h, 1), ACL_ERROR_INVALID_PARAM, "flags 0x1");
    ACL_ERR(aclrtMapMem(va, MiB2, 0, dead, 0), ACL_ERROR_RT_INVALID_HANDLE, "not a live physical-memory handle");
    ACL_ERR(aclrtMapMem(va, MiB2, 4096, h, 0), ACL_ERROR_RT_PARAM_INVALID, "offset 4096");
    ACL_ERR(aclrtMapMem(c + 4096, MiB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID, "granularity");
    ACL_ERR(aclrtMapMem(va, 2 * MiB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID, "exceeds the physical memory");
    aclrtDrvMemHandle big = NULL;
    ACL_OK(aclrtMallocPhysical(&big, 2 * MiB2, &p, 0));
    ACL_ERR(aclrtMapMem(c + 3 * MiB2, 2 * MiB2, 0, big, 0), ACL_ERROR_RT_PARAM_INVALID, "run past the end");
    ACL_OK(aclrtFreePhysical(big));
    int local = 0;
    ACL_ERR(aclrtMapMem(&local, MiB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID, "not inside a reservation");
    aclrtPtrAttributes at;
    ACL_OK(aclrtPointerGetAttributes(va, &at));
    assert_int_equal(at.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED); /* nothing happened */
    ACL_OK(aclrtMapMem(c + MiB2, MiB2, 0, h, 0));
    ACL_ERR(aclrtMapMem(c + MiB2, MiB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID, "overlaps the mapping");
    /* A reservation is bound to one device's memory (D28). */
    aclrtPhysicalMemProp p1 = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 1, ACL_MEM_HUGE);
    aclrtDrvMemHandle other = NULL;
    ACL_OK(aclrtMallocPhysical(&other, MiB2, &p1, 0));
    ACL_ERR(aclrtMapMem(va, MiB2, 0, other, 0), ACL_ERROR_RT_PARAM_INVALID, "another device's memory");
    ACL_OK(aclrtFreePhysical(other));
    /* aclrtUnmapMem */
    ACL_ERR(aclrtUnmapMem(NULL), ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
    ACL_ERR(aclrtUnmapMem(c + MiB2 + 4096), ACL_ERROR_RT_PARAM_INVALID, "not the start of a mapping");
    ACL_ERR(aclrtUnmapMem(va), ACL_ERROR_RT_PARAM_INVALID, "not the start of a mapping");
    /* aclrtFreePhysical */
    ACL_ERR(aclrtFreePhysical(NULL), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtFreePhysical(dead), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    ACL_ERR(aclrtFreePhysical((aclrtDrvMemHandle)&local), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    /* Freed while mapped: the data stays readable; the handle is dead. */
    ACL_OK(aclrtMemset(c + MiB2, 16, 0x42, 16));
    ACL_OK(aclrtFreePhysical(h));
    uint8_t b[16];
    ACL_OK(aclrtMemcpy(b, 16, c + MiB2, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(b[15], 0x42);
    ACL_ERR(aclrtMapMem(va, MiB2, 0, h, 0), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    aclrtPhysicalMemProp got;
    ACL_ERR(aclrtMemGetAllocationPropertiesFromHandle(h, &got), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    /* Retain brings the handle back (one more free needed). */
    aclrtDrvMemHandle r = NULL;
    ACL_ERR(aclrtMemRetainAllocationHandle(NULL, &r), ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
    ACL_ERR(aclrtMemRetainAllocationHandle(c + MiB2, NULL), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtMemRetainAllocationHandle(va, &r), ACL_ERROR_RT_PARAM_INVALID, "not inside a mapping");
    assert_null(r);
    ACL_OK(aclrtMemRetainAllocationHandle(c + MiB2 + 12345, &r));
    assert_ptr_equal(r, h);
    ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &got));
    ACL_OK(aclrtUnmapMem(c + MiB2));
    ACL_OK(aclrtFreePhysical(r));
    ACL_ERR(aclrtFreePhysical(r), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
    /* aclrtReleaseMemAddress */
    ACL_ERR(aclrtReleaseMemAddress(NULL), ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
    ACL_ERR(aclrtReleaseMemAddress(c + MiB2), ACL_ERROR_RT_PARAM_INVALID, "not the start of a reservation");
    ACL_OK(aclrtReleaseMemAddress(va));
    ACL_ERR(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID, "not the start of a reservation");
}

static void test_malloc_physical_bad_inputs(void **state)
{
    (void)state;
    aclrtDrvMemHandle h = (aclrtDrvMemHandle)0x99;
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    ACL_ERR(aclrtMallocPhysical(NULL, MiB2, &p, 0), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtMallocPhysical(&h, MiB2, NULL, 0), ACL_ERROR_INVALID_PARAM, "prop is NULL");
    ACL_ERR(aclrtMallocPhysical(&h, 0, &p, 0), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtMallocPhysical(&h, MiB2, &p, 1), ACL_ERROR_INVALID_PARAM, "flags 0x1");
    p.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
    ACL_ERR(aclrtMallocPhysical(&h, MiB2, &p, 0), ACL_ERROR_INVALID_PARAM, "handleType 2");
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    p.allocationType = (aclrtMemAllocationType)1;
    ACL_ERR(aclrtMallocPhysical(&h, MiB2, &p, 0), ACL_ERROR_INVALID_PARAM, "allocationType 1");
    p = prop_of(ACL_MEM_LOCATION_TYPE_MANAGED, 0, ACL_MEM_HUGE);
    ACL_ERR(aclrtMallocPhysical(&h, MiB2, &p, 0), ACL_ERROR_INVALID_PARAM, "cannot hold physical memory");
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_DDR_MEM_NORMAL);
    ACL_ERR(aclrtMallocPhysical(&h, MiB2, &p, 0), ACL_ERROR_INVALID_PARAM, "host memory");
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 8, ACL_MEM_HUGE);
    ACL_ERR(aclrtMallocPhysical(&h, MiB2, &p, 0), ACL_ERROR_RT_INVALID_DEVICEID, "out of range");
    p = prop_of((aclrtMemLocationType)7, 0, ACL_MEM_HUGE);
    ACL_ERR(aclrtMallocPhysical(&h, MiB2, &p, 0), ACL_ERROR_RT_PARAM_INVALID, "location.type 7");
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_P2P_HUGE1G);
    ACL_ERR(aclrtMallocPhysical(&h, MiB2, &p, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "1 GiB pages");
    p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    ACL_ERR(aclrtMallocPhysical(&h, (size_t)1 << 62, &p, 0), ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
    assert_ptr_equal(h, (aclrtDrvMemHandle)0x99);
    /* Host physical memory: mapped as host memory, normalised attribute. */
    p = prop_of(ACL_MEM_LOCATION_TYPE_HOST, 0, ACL_DDR_MEM_NORMAL);
    ACL_OK(aclrtMallocPhysical(&h, 4096, &p, 0));
    aclrtPhysicalMemProp got;
    ACL_ERR(aclrtMemGetAllocationPropertiesFromHandle(NULL, &got), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtMemGetAllocationPropertiesFromHandle(h, NULL), ACL_ERROR_INVALID_PARAM, "prop is NULL");
    ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &got));
    assert_int_equal(got.memAttr, ACL_MEM_NORMAL);
    assert_int_equal(got.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    void *va = NULL;
    ACL_OK(aclrtReserveMemAddress(&va, 4096, 0, NULL, 0));
    ACL_OK(aclrtMapMem(va, 4096, 0, h, 0));
    aclrtPtrAttributes at;
    ACL_OK(aclrtPointerGetAttributes(va, &at));
    assert_int_equal(at.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    assert_int_equal(at.pageSize, 4096);
    ACL_ERR(aclrtFreeHost(va), ACL_ERROR_RT_PARAM_INVALID, "aclrtUnmapMem");
    aclrtMemLocation loc = {0, ACL_MEM_LOCATION_TYPE_HOST};
    uint64_t acc = 0;
    ACL_OK(aclrtMemGetAccess(va, &loc, &acc));
    assert_int_equal(acc, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    ACL_OK(aclrtUnmapMem(va));
    ACL_OK(aclrtFreePhysical(h));
    ACL_OK(aclrtReleaseMemAddress(va));
}

static void test_access(void **state)
{
    (void)state;
    void *va = NULL;
    ACL_OK(aclrtReserveMemAddress(&va, MiB2, 0, NULL, 0));
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_NORMAL);
    aclrtDrvMemHandle h = NULL;
    ACL_OK(aclrtMallocPhysical(&h, MiB2, &p, 0));
    ACL_ERR(aclrtMemMapNoAccess(NULL, MiB2, 0, h, 0), ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
    ACL_ERR(aclrtMemMapNoAccess(va, MiB2, 0, h, 2), ACL_ERROR_INVALID_PARAM, "flags 0x2");
    ACL_ERR(aclrtMemMapNoAccess(va, MiB2, 8192, h, 0), ACL_ERROR_RT_PARAM_INVALID, "offset 8192");
    ACL_ERR(aclrtMemMapNoAccess(va, 4 * MiB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID, "exceeds");
    aclrtPtrAttributes at;
    ACL_OK(aclrtPointerGetAttributes(va, &at));
    assert_int_equal(at.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    ACL_OK(aclrtMemMapNoAccess(va, MiB2, 0, h, 0));
    uint64_t acc = 0;
    aclrtMemLocation dev0 = {0, ACL_MEM_LOCATION_TYPE_DEVICE}, host = {5, ACL_MEM_LOCATION_TYPE_HOST};
    ACL_OK(aclrtMemGetAccess(va, &dev0, &acc));
    assert_int_equal(acc, NOT_SET);
    ACL_OK(aclrtMemGetAccess(va, &host, &acc));
    assert_int_equal(acc, NOT_SET);
    aclrtMemAccessDesc d[2];
    memset(d, 0, sizeof(d));
    d[0].flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    d[0].location = dev0;
    d[1].flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    d[1].location = host;
    /* Bad inputs change nothing. */
    ACL_ERR(aclrtMemSetAccess(NULL, MiB2, d, 1), ACL_ERROR_RT_PARAM_INVALID, "virPtr is NULL");
    ACL_ERR(aclrtMemSetAccess(va, MiB2, NULL, 1), ACL_ERROR_RT_PARAM_INVALID, "desc is NULL");
    ACL_ERR(aclrtMemSetAccess(va, MiB2, d, 0), ACL_ERROR_RT_PARAM_INVALID, "count is 0");
    ACL_ERR(aclrtMemSetAccess(va, 4096, d, 1), ACL_ERROR_RT_PARAM_INVALID, "not exactly a mapping");
    aclrtMemAccessDesc bad[2] = {d[0], d[1]};
    bad[1].flags = (aclrtMemAccessFlags)2;
    ACL_ERR(aclrtMemSetAccess(va, MiB2, bad, 2), ACL_ERROR_RT_PARAM_INVALID, "desc[1].flags 2");
    bad[1] = d[1];
    bad[1].location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
    ACL_ERR(aclrtMemSetAccess(va, MiB2, bad, 2), ACL_ERROR_RT_PARAM_INVALID, "location type 3");
    bad[1] = d[0];
    bad[1].location.id = 99;
    ACL_ERR(aclrtMemSetAccess(va, MiB2, bad, 2), ACL_ERROR_RT_PARAM_INVALID, "device id 99");
    ACL_OK(aclrtMemGetAccess(va, &dev0, &acc));
    assert_int_equal(acc, NOT_SET);
    /* aclrtMemGetAccess bad inputs */
    ACL_ERR(aclrtMemGetAccess(NULL, &dev0, &acc), ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
    ACL_ERR(aclrtMemGetAccess(va, NULL, &acc), ACL_ERROR_INVALID_PARAM, "location is NULL");
    ACL_ERR(aclrtMemGetAccess(va, &dev0, NULL), ACL_ERROR_INVALID_PARAM, "flag is NULL");
    int local = 0;
    ACL_ERR(aclrtMemGetAccess(&local, &dev0, &acc), ACL_ERROR_RT_PARAM_INVALID, "not inside a mapping");
    aclrtMemLocation badloc = {0, ACL_MEM_LOCATION_TYPE_UNREGISTERED};
    ACL_ERR(aclrtMemGetAccess(va, &badloc, &acc), ACL_ERROR_RT_PARAM_INVALID, "location type 2");
    /* Granted: a kernel works in the range. */
    ACL_OK(aclrtMemSetAccess(va, MiB2, d, 2));
    ACL_OK(aclrtMemGetAccess((char *)va + 100, &dev0, &acc));
    assert_int_equal(acc, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    ACL_OK(aclrtMemGetAccess(va, &host, &acc));
    assert_int_equal(acc, ACL_RT_MEM_ACCESS_FLAGS_READ);
    ACL_OK(aclrtMemset(va, MiB2, 0, MiB2));
    ACL_OK(launch_add(va, va, 9, MiB2 / 4, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    uint32_t w = 0;
    ACL_OK(aclrtMemcpy(&w, 4, (char *)va + MiB2 - 4, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(w, 9);
    ACL_OK(aclrtUnmapMem(va));
    ACL_OK(aclrtFreePhysical(h));
    ACL_OK(aclrtReleaseMemAddress(va));
}

static void test_reserve_and_ranges(void **state)
{
    (void)state;
    void *va = (void *)0x5;
    ACL_ERR(aclrtReserveMemAddress(NULL, MiB2, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
    ACL_ERR(aclrtReserveMemAddress(&va, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtReserveMemAddress(&va, MiB2, 0, NULL, 2), ACL_ERROR_INVALID_PARAM, "flags 0x2");
    ACL_ERR(aclrtReserveMemAddress(&va, MiB2, 4096, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "alignment 4096");
    ACL_ERR(aclrtReserveMemAddress(&va, MiB2, 0, (void *)(uintptr_t)0x7f0000000000ull, 0), ACL_ERROR_RT_PARAM_INVALID,
            "window");
    ACL_ERR(aclrtReserveMemAddress(&va, 4 * MiB2, 0, (void *)(uintptr_t)(0x100000000000ull + MiB2), 0),
            ACL_ERROR_RT_PARAM_INVALID, "not aligned");
    ACL_ERR(aclrtReserveMemAddress(&va, (size_t)1 << 62, 0, NULL, 0), ACL_ERROR_RT_MEMORY_ALLOCATION, NULL);
    assert_ptr_equal(va, (void *)0x5);
    /* At a requested address in the window; a second one there overlaps. */
    if (FIXED_ADDRESSES_USABLE) {
        void *want = (void *)(uintptr_t)0x140000000000ull;
        ACL_OK(aclrtReserveMemAddress(&va, 3 * MiB2, 0, want, 1));
        assert_ptr_equal(va, want);
        void *va2 = NULL;
        ACL_ERR(aclrtReserveMemAddress(&va2, MiB2, 0, want, 0), ACL_ERROR_RT_PARAM_INVALID, "overlaps");
        ACL_OK(aclrtReleaseMemAddress(va));
    }
    /* Large reservations are 1 GiB-aligned (for 1 GiB pages). */
    ACL_OK(aclrtReserveMemAddress(&va, GiB1, 0, NULL, 0));
    assert_int_equal((uintptr_t)va % GiB1, 0);
    void *base = NULL;
    size_t size = 0;
    ACL_ERR(aclrtMemGetAddressRange(va, &base, &size), ACL_ERROR_RT_PARAM_INVALID, "not inside memory");
    ACL_OK(aclrtReleaseMemAddress(va));

    /* aclrtMemGetAddressRange of runtime allocations */
    void *d = NULL;
    ACL_OK(aclrtMalloc(&d, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemGetAddressRange((char *)d + 999, &base, &size));
    assert_ptr_equal(base, d);
    assert_int_equal(size, 4096); /* device allocations own whole pages (D6) */
    size = 0;
    ACL_OK(aclrtMemGetAddressRange((char *)d + 10, NULL, &size));
    assert_int_equal(size, 4096);
    base = NULL;
    ACL_OK(aclrtMemGetAddressRange((char *)d + 10, &base, NULL));
    assert_ptr_equal(base, d);
    void *h = NULL;
    ACL_OK(aclrtMallocHost(&h, 10000));
    ACL_OK(aclrtMemGetAddressRange((char *)h + 9000, &base, &size));
    assert_ptr_equal(base, h);
    assert_int_equal(size, 12288);
    ACL_ERR(aclrtMemGetAddressRange(NULL, &base, &size), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    ACL_ERR(aclrtMemGetAddressRange(d, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, "both NULL");
    int local = 0;
    base = (void *)0x1;
    ACL_ERR(aclrtMemGetAddressRange(&local, &base, &size), ACL_ERROR_RT_PARAM_INVALID, "not inside memory");
    assert_ptr_equal(base, (void *)0x1);

    /* aclrtMemP2PMap */
    ACL_OK(aclrtMemP2PMap(d, 1000, 1, 0));
    ACL_ERR(aclrtMemP2PMap(NULL, 16, 1, 0), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    ACL_ERR(aclrtMemP2PMap(d, 0, 1, 0), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtMemP2PMap(d, 16, 1, 1), ACL_ERROR_INVALID_PARAM, "flags 0x1");
    ACL_ERR(aclrtMemP2PMap(d, 16, 99, 0), ACL_ERROR_RT_INVALID_DEVICEID, "out of range");
    ACL_ERR(aclrtMemP2PMap(d, 100000, 1, 0), ACL_ERROR_RT_PARAM_INVALID, "not inside one device allocation");
    ACL_ERR(aclrtMemP2PMap(h, 16, 1, 0), ACL_ERROR_RT_PARAM_INVALID, "not inside one device allocation");
    ACL_OK(aclrtFreeHost(h));
    ACL_OK(aclrtFree(d));

    /* A3-only functions on the default A2: 207000 after their own checks. */
    ACL_ERR(aclrtReserveMemAddressNoUCMemory(NULL, GiB1, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
    ACL_ERR(aclrtReserveMemAddressNoUCMemory(&va, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtReserveMemAddressNoUCMemory(&va, GiB1, 0, NULL, 3), ACL_ERROR_INVALID_PARAM, "flags 0x3");
    ACL_ERR(aclrtReserveMemAddressNoUCMemory(&va, GiB1, 0, NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "aclrtReserveMemAddressNoUCMemory is not supported on Ascend910B3");
    ACL_ERR(aclrtMemMapSelectedLink(NULL, MiB2, &local, 0), ACL_ERROR_INVALID_PARAM, "virPtrDst is NULL");
    ACL_ERR(aclrtMemMapSelectedLink(&local, MiB2, NULL, 0), ACL_ERROR_INVALID_PARAM, "virPtrSrc is NULL");
    ACL_ERR(aclrtMemMapSelectedLink(&local, 0, &local, 0), ACL_ERROR_INVALID_PARAM, "size is 0");
    ACL_ERR(aclrtMemMapSelectedLink(&local, MiB2, &local, 2), ACL_ERROR_INVALID_PARAM, "linkIdx 2");
    ACL_ERR(aclrtMemMapSelectedLink(&local, MiB2, &local, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    aclrtDrvMemHandle ph = NULL;
    ACL_OK(aclrtMallocPhysical(&ph, MiB2, &p, 0));
    ACL_ERR(aclrtMemMapSetLink(NULL, ACL_RT_MEM_ACCESS_LINK_SIO), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtMemMapSetLink(ph, (aclrtMemLinkType)4), ACL_ERROR_RT_PARAM_INVALID, "adviceLink 4");
    ACL_ERR(aclrtMemMapSetLink(ph, ACL_RT_MEM_ACCESS_LINK_SIO), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    ACL_OK(aclrtFreePhysical(ph));
    ACL_ERR(aclrtMemMapSetLink(ph, ACL_RT_MEM_ACCESS_LINK_SIO), ACL_ERROR_RT_INVALID_HANDLE, "not a live");
}

/* ---- shareable handles across processes ---------------------------------------------------- */

static aclrtDrvMemHandle alloc_filled(uint32_t base)
{
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    aclrtDrvMemHandle h = NULL;
    ACL_OK(aclrtMallocPhysical(&h, 2 * MiB2, &p, 0));
    void *va = NULL;
    ACL_OK(aclrtReserveMemAddress(&va, 2 * MiB2, 0, NULL, 0));
    ACL_OK(aclrtMapMem(va, 2 * MiB2, 0, h, 0));
    static uint32_t host[2 * MiB2 / 4];
    for (size_t i = 0; i < ARRAY_LEN(host); i++)
        host[i] = base + (uint32_t)i;
    ACL_OK(aclrtMemcpy(va, 2 * MiB2, host, 2 * MiB2, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtUnmapMem(va));
    ACL_OK(aclrtReleaseMemAddress(va));
    return h;
}

static uint32_t first_word(aclrtDrvMemHandle h)
{
    void *va = NULL;
    ACL_OK(aclrtReserveMemAddress(&va, 2 * MiB2, 0, NULL, 0));
    ACL_OK(aclrtMapMem(va, 2 * MiB2, 0, h, 0));
    uint32_t w = 0;
    ACL_OK(aclrtMemcpy(&w, 4, va, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    ACL_OK(aclrtUnmapMem(va));
    ACL_OK(aclrtReleaseMemAddress(va));
    return w;
}

static void run_share(int peer_device, bool v2, bool whitelist)
{
    aclrtDrvMemHandle h = alloc_filled(10);
    uint64_t value = 0;
    if (v2) {
        ACL_OK(aclrtMemExportToShareableHandleV2(h, whitelist ? 0 : ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
                                                 ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &value));
    } else {
        ACL_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
                                               whitelist ? 0 : ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &value));
    }
    assert_int_equal(value >> 42, getpid());
    assert_true((value & ((1ull << 42) - 1)) != 0);
    char env_dev[32];
    snprintf(env_dev, sizeof(env_dev), "PEER_DEVICE=%d", peer_device);
    const char *env[] = {env_dev, NULL};
    struct peer p;
    assert_true(peer_start(&p, "importer", env));
    char line[256];
    int pid = 0;
    recv_line(&p, line, sizeof(line));
    assert_int_equal(sscanf(line, "pid %d", &pid), 1);
    if (whitelist) {
        int32_t pp = pid;
        if (v2)
            ACL_OK(aclrtMemSetPidToShareableHandleV2(&value, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pp, 1));
        else
            ACL_OK(aclrtMemSetPidToShareableHandle(value, &pp, 1));
    }
    assert_true(peer_send(&p, "value %llx %s", (unsigned long long)value, v2 ? "v2" : "v1"));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "done");
    assert_int_equal(first_word(h), 11); /* the peer's kernel wrote this process's physical memory */
    /* Freed by the exporter: no new imports, the peer keeps its memory. */
    ACL_OK(aclrtFreePhysical(h));
    assert_true(peer_send(&p, "check 11"));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "checked");
    assert_true(peer_send(&p, "bye"));
    check_exit(&p);
}

static void test_share_whitelisted_v1(void **state)
{
    (void)state;
    run_share(1, false, true);
}

static void test_share_whitelisted_v2(void **state)
{
    (void)state;
    run_share(0, true, true);
}

static void test_share_without_pids(void **state)
{
    (void)state;
    run_share(1, false, false);
}

/* The exporter exits: the importer's mapping keeps the data. */
static void test_share_exporter_exits(void **state)
{
    (void)state;
    struct peer p;
    assert_true(peer_start(&p, "exporter", NULL));
    char line[256];
    unsigned long long value = 0;
    recv_line(&p, line, sizeof(line));
    assert_int_equal(sscanf(line, "value %llx", &value), 1);
    aclrtDrvMemHandle h = NULL;
    ACL_ERR(aclrtMemImportFromShareableHandle(value, 1, &h), ACL_ERROR_RT_NO_PERMISSION, "not on the whitelist");
    assert_null(h);
    assert_true(peer_send(&p, "list %d", (int)getpid()));
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "listed");
    ACL_OK(aclrtMemImportFromShareableHandle(value, 1, &h));
    assert_true(peer_send(&p, "exit"));
    check_exit(&p);
    void *va = NULL;
    ACL_OK(aclrtReserveMemAddress(&va, 2 * MiB2, 0, NULL, 0));
    ACL_OK(aclrtMapMem(va, 2 * MiB2, 0, h, 0));
    aclrtPtrAttributes at;
    ACL_OK(aclrtPointerGetAttributes(va, &at));
    assert_int_equal(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(at.location.id, 1); /* the device it was imported for */
    uint32_t w[2];
    ACL_OK(aclrtSetDevice(1)); /* copies reach another device's memory only with peer access */
    ACL_OK(aclrtMemcpy(w, 8, (char *)va + 2 * MiB2 - 8, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    ACL_OK(aclrtSetDevice(0));
    assert_int_equal(w[1], 500u + 2 * MiB2 / 4 - 1);
    aclrtDrvMemHandle h2 = NULL;
    ACL_ERR(aclrtMemImportFromShareableHandle(value, 0, &h2), ACL_ERROR_RT_PARAM_INVALID, NULL);
    assert_null(h2);
    ACL_OK(aclrtUnmapMem(va));
    ACL_OK(aclrtFreePhysical(h));
    ACL_OK(aclrtReleaseMemAddress(va));
    /* Freed: the same value may be imported again? No: its exporter is gone. */
    ACL_ERR(aclrtMemImportFromShareableHandle(value, 0, &h2), ACL_ERROR_RT_PARAM_INVALID, "has exited");
}

static void test_share_refusals(void **state)
{
    (void)state;
    aclrtDrvMemHandle h = alloc_filled(0);
    uint64_t value = 0, keep = 0x1234;
    ACL_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &value));
    struct peer p;
    assert_true(peer_start(&p, "refused", NULL));
    assert_true(peer_send(&p, "value %llx", (unsigned long long)value));
    char line[64];
    recv_line(&p, line, sizeof(line));
    assert_string_equal(line, "refused");
    check_exit(&p);

    uint64_t v = keep;
    /* export: bad inputs */
    ACL_ERR(aclrtMemExportToShareableHandle(NULL, ACL_MEM_HANDLE_TYPE_NONE, 0, &v), ACL_ERROR_INVALID_PARAM,
            "handle is NULL");
    ACL_ERR(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_POSIX, 0, &v), ACL_ERROR_INVALID_PARAM,
            "handleType 2");
    ACL_ERR(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "shareableHandle is NULL");
    ACL_ERR(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 2, &v), ACL_ERROR_RT_PARAM_INVALID, "flags 0x2");
    ACL_ERR(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &v), ACL_ERROR_RT_PARAM_INVALID,
            "exported already");
    ACL_ERR(aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &v), ACL_ERROR_RT_PARAM_INVALID,
            "exported already");
    ACL_ERR(aclrtMemExportToShareableHandleV2(NULL, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &v),
            ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, NULL),
            ACL_ERROR_INVALID_PARAM, "shareableHandle is NULL");
    ACL_ERR(aclrtMemExportToShareableHandleV2(h, 0, (aclrtMemSharedHandleType)3, &v), ACL_ERROR_RT_PARAM_INVALID,
            "shareType 3");
    ACL_ERR(aclrtMemExportToShareableHandleV2(h, 2, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &v), ACL_ERROR_RT_PARAM_INVALID,
            "flags 0x2");
    aclrtMemFabricHandle f;
    ACL_ERR(aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &f),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "FABRIC");
    assert_int_equal(v, keep);
    aclrtDrvMemHandle dead = alloc_filled(0);
    ACL_OK(aclrtFreePhysical(dead));
    ACL_ERR(aclrtMemExportToShareableHandle(dead, ACL_MEM_HANDLE_TYPE_NONE, 0, &v), ACL_ERROR_RT_INVALID_HANDLE,
            "not a live");

    /* whitelist: bad inputs */
    int32_t pid = 77;
    ACL_ERR(aclrtMemSetPidToShareableHandle(value, NULL, 1), ACL_ERROR_INVALID_PARAM, "pid is NULL");
    ACL_ERR(aclrtMemSetPidToShareableHandle(value, &pid, 0), ACL_ERROR_INVALID_PARAM, "pidNum is 0");
    ACL_ERR(aclrtMemSetPidToShareableHandle(value ^ 1, &pid, 1), ACL_ERROR_RT_PARAM_INVALID, "not a live shareable");
    ACL_ERR(aclrtMemSetPidToShareableHandle(((uint64_t)(getpid() + 1) << 42) | 5, &pid, 1),
            ACL_ERROR_RT_NO_PERMISSION, "only the exporting");
    static int32_t many[65536];
    for (int i = 0; i < 65536; i++)
        many[i] = i + 1;
    ACL_ERR(aclrtMemSetPidToShareableHandle(value, many, 65536), ACL_ERROR_RT_OVER_LIMIT, "65535");
    ACL_ERR(aclrtMemSetPidToShareableHandleV2(NULL, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 1),
            ACL_ERROR_INVALID_PARAM, "shareableHandle is NULL");
    ACL_ERR(aclrtMemSetPidToShareableHandleV2(&value, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, NULL, 1),
            ACL_ERROR_INVALID_PARAM, "pid is NULL");
    ACL_ERR(aclrtMemSetPidToShareableHandleV2(&value, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 0),
            ACL_ERROR_INVALID_PARAM, "pidNum is 0");
    ACL_ERR(aclrtMemSetPidToShareableHandleV2(&value, (aclrtMemSharedHandleType)0, &pid, 1),
            ACL_ERROR_RT_PARAM_INVALID, "shareType 0");
    ACL_ERR(aclrtMemSetPidToShareableHandleV2(&f, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &pid, 1),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "FABRIC");

    /* import: bad inputs */
    aclrtDrvMemHandle got = (aclrtDrvMemHandle)0x31;
    ACL_ERR(aclrtMemImportFromShareableHandle(value, 0, NULL), ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtMemImportFromShareableHandle(value, 99, &got), ACL_ERROR_RT_INVALID_DEVICEID, "out of range");
    ACL_ERR(aclrtMemImportFromShareableHandle(0, 0, &got), ACL_ERROR_RT_PARAM_INVALID, "not a shareable handle");
    ACL_ERR(aclrtMemImportFromShareableHandle(value, 0, &got), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "this process");
    ACL_ERR(aclrtMemImportFromShareableHandleV2(NULL, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &got),
            ACL_ERROR_INVALID_PARAM, "shareableHandle is NULL");
    ACL_ERR(aclrtMemImportFromShareableHandleV2(&value, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, NULL),
            ACL_ERROR_INVALID_PARAM, "handle is NULL");
    ACL_ERR(aclrtMemImportFromShareableHandleV2(&value, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 1, &got),
            ACL_ERROR_INVALID_PARAM, "flags 0x1");
    ACL_ERR(aclrtMemImportFromShareableHandleV2(&value, (aclrtMemSharedHandleType)3, 0, &got),
            ACL_ERROR_RT_PARAM_INVALID, "shareType 3");
    ACL_ERR(aclrtMemImportFromShareableHandleV2(&f, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &got),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "FABRIC");
    uint64_t nobody = ((uint64_t)4194303 << 42) | 1; /* a pid nobody has */
    ACL_ERR(aclrtMemImportFromShareableHandle(nobody, 0, &got), ACL_ERROR_RT_PARAM_INVALID, "nothing listens");
    assert_ptr_equal(got, (aclrtDrvMemHandle)0x31);
    ACL_OK(aclrtFreePhysical(h));
    /* Freed: its shareable handle is gone too. */
    ACL_ERR(aclrtMemSetPidToShareableHandle(value, &pid, 1), ACL_ERROR_RT_PARAM_INVALID, "not a live shareable");
}

static void *no_context(void *arg)
{
    uint64_t *value = arg;
    aclrtDrvMemHandle h = NULL;
    ACL_ERR(aclrtMemImportFromShareableHandle(*value, 0, &h), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_ERR(aclrtMemImportFromShareableHandleV2(value, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h),
            ACL_ERROR_RT_CONTEXT_NULL, NULL);
    ACL_ERR(aclrtMemP2PMap((void *)0x1000, 1, 0, 0), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    /* Physical memory and reservations need no context. */
    aclrtPhysicalMemProp p = prop_of(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_HUGE);
    ACL_OK(aclrtMallocPhysical(&h, MiB2, &p, 0));
    void *va = NULL;
    ACL_OK(aclrtReserveMemAddress(&va, MiB2, 0, NULL, 0));
    ACL_OK(aclrtMapMem(va, MiB2, 0, h, 0));
    ACL_OK(aclrtUnmapMem(va));
    ACL_OK(aclrtReleaseMemAddress(va));
    ACL_OK(aclrtFreePhysical(h));
    p = prop_of(ACL_MEM_LOCATION_TYPE_HOST_NUMA, 0, ACL_MEM_NORMAL);
    ACL_ERR(aclrtMallocPhysical(&h, 4096, &p, 0), ACL_ERROR_RT_CONTEXT_NULL, NULL);
    return NULL;
}

static void test_no_context(void **state)
{
    (void)state;
    uint64_t value = ((uint64_t)4194303 << 42) | 1;
    oacl_test_run_thread(no_context, &value);
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("profiles_a3", "OACL_SOC=Ascend910_9392");
    ASSERT_CHILD_OK("profiles_950", "OACL_SOC=Ascend950PR_9599");
}

#define T(fn) cmocka_unit_test(fn)

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    unsetenv("OACL_SOC");
    unsetenv("OACL_DEVICE_COUNT");
    const struct CMUnitTest tests[] = {
        T(test_granularity),
        T(test_reserve_map_two),
        T(test_map_bad_inputs),
        T(test_malloc_physical_bad_inputs),
        T(test_access),
        T(test_reserve_and_ranges),
        T(test_share_whitelisted_v1),
        T(test_share_whitelisted_v2),
        T(test_share_without_pids),
        T(test_share_exporter_exits),
        T(test_share_refusals),
        T(test_no_context),
        T(test_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
