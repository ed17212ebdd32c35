/*
 * Device identities, topology, atomics and limits (device-kernel chapter
 * 4.1): id mapping with and without ASCEND_RT_VISIBLE_DEVICES, UUIDs, PCI
 * bus ids, topology per SoC family, host and peer atomic capabilities,
 * device limits, aclrtSetTsDevice. Behaviour fixed per process (visible
 * devices, SoC profile, limits) runs in child processes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

typedef aclError (*map_fn)(const int32_t, int32_t *const);

static const struct {
    const char *name;
    map_fn fn;
} g_maps[] = {
    {"aclrtGetLogicDevIdByUserDevId", aclrtGetLogicDevIdByUserDevId},
    {"aclrtGetUserDevIdByLogicDevId", aclrtGetUserDevIdByLogicDevId},
    {"aclrtGetLogicDevIdByPhyDevId", aclrtGetLogicDevIdByPhyDevId},
    {"aclrtGetPhyDevIdByLogicDevId", aclrtGetPhyDevIdByLogicDevId},
    {"aclrtGetUserDevIdByPhyDevId", aclrtGetUserDevIdByPhyDevId},
    {"aclrtGetPhyDevIdByUserDevId", aclrtGetPhyDevIdByUserDevId},
};
#define NMAPS (sizeof(g_maps) / sizeof(g_maps[0]))

/* ---- id mapping without ASCEND_RT_VISIBLE_DEVICES ------------------------------------------ */

static void test_id_identity(void **state)
{
    (void)state;
    uint32_t n = 0;
    ACL_OK(aclrtGetDeviceCount(&n));
    assert_true(n > 1);
    for (size_t m = 0; m < NMAPS; m++) {
        for (int32_t d = 0; d < (int32_t)n; d++) {
            int32_t out = -7;
            ACL_OK(g_maps[m].fn(d, &out));
            if (out != d)
                fail_msg("%s(%d) gave %d", g_maps[m].name, d, out);
        }
        int32_t out = -7;
        ACL_ERR(g_maps[m].fn(-1, &out), ACL_ERROR_RT_PARAM_INVALID, "negative");
        ACL_ERR(g_maps[m].fn((int32_t)n, &out), ACL_ERROR_RT_INVALID_DEVICEID, NULL);
        assert_int_equal(out, -7); /* untouched */
        ACL_ERR(g_maps[m].fn(0, NULL), ACL_ERROR_INVALID_PARAM, "NULL");
        assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID); /* API layer: kept */
    }
}

/* ---- ASCEND_RT_VISIBLE_DEVICES=2,5 (children) -------------------------------------------------- */

static void child_visible_2_5(void)
{
    uint32_t n = 0;
    CHILD_OK(aclrtGetDeviceCount(&n));
    CHILD_CHECK_INT(n, 2);
    int32_t v = -1;
    CHILD_OK(aclrtGetLogicDevIdByUserDevId(1, &v));
    CHILD_CHECK_INT(v, 5);
    CHILD_OK(aclrtGetPhyDevIdByUserDevId(0, &v));
    CHILD_CHECK_INT(v, 2);
    CHILD_OK(aclrtGetPhyDevIdByLogicDevId(1, &v)); /* a user id, as in CANN */
    CHILD_CHECK_INT(v, 5);
    CHILD_OK(aclrtGetUserDevIdByPhyDevId(5, &v));
    CHILD_CHECK_INT(v, 1);
    CHILD_OK(aclrtGetLogicDevIdByPhyDevId(2, &v)); /* gives the user id */
    CHILD_CHECK_INT(v, 0);
    CHILD_OK(aclrtGetUserDevIdByLogicDevId(5, &v));
    CHILD_CHECK_INT(v, 1);
    v = -9;
    CHILD_ERR(aclrtGetUserDevIdByPhyDevId(3, &v), ACL_ERROR_RT_INVALID_DEVICEID, "not visible");
    CHILD_ERR(aclrtGetUserDevIdByLogicDevId(8, &v), ACL_ERROR_RT_INVALID_DEVICEID, "there are 8 devices");
    CHILD_ERR(aclrtGetLogicDevIdByUserDevId(2, &v), ACL_ERROR_RT_INVALID_DEVICEID, "not a visible device");
    CHILD_CHECK_INT(v, -9);
    /* UUID and PCI of user device 1 describe physical device 5. */
    char pci[16];
    CHILD_OK(aclrtDeviceGetPCIBusId(1, pci, sizeof(pci)));
    CHILD_CHECK(strcmp(pci, "0000:06:00.0") == 0);
    int32_t d = -1;
    CHILD_OK(aclrtDeviceGetByPCIBusId("0000:03:00.0", &d));
    CHILD_CHECK_INT(d, 0);
    CHILD_ERR(aclrtDeviceGetByPCIBusId("0000:01:00.0", &d), ACL_ERROR_RT_PARAM_INVALID, "no visible device");
    aclrtUuid u;
    CHILD_OK(aclrtDeviceGetUuid(1, &u));
    CHILD_CHECK_INT((unsigned char)u.bytes[15], 5);
    /* Devices are used by their user ids. */
    CHILD_OK(aclrtSetDevice(1));
    CHILD_ERR(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID, NULL);
    CHILD_OK(aclrtResetDevice(1));
    /* Device limits go through logical device 0, which is not visible. */
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 65536), ACL_ERROR_RT_INVALID_DEVICEID,
              "device 0");
}

/* Parsing stops at the first token that is not a device: "1,3,x,4" is 1,3. */
static void child_visible_prefix(void)
{
    uint32_t n = 0;
    CHILD_OK(aclrtGetDeviceCount(&n));
    CHILD_CHECK_INT(n, 2);
    int32_t v = -1;
    CHILD_OK(aclrtGetLogicDevIdByUserDevId(1, &v));
    CHILD_CHECK_INT(v, 3);
}

/* Descending ids break every device call. */
static void child_visible_broken(void)
{
    uint32_t n = 0;
    CHILD_ERR(aclrtGetDeviceCount(&n), ACL_ERROR_RT_INVALID_DEVICEID, "ASCEND_RT_VISIBLE_DEVICES");
    CHILD_ERR(aclrtSetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID, "ASCEND_RT_VISIBLE_DEVICES");
    int32_t v;
    CHILD_ERR(aclrtGetLogicDevIdByUserDevId(0, &v), ACL_ERROR_RT_INVALID_DEVICEID, "ASCEND_RT_VISIBLE_DEVICES");
}

static void test_visible_devices(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("visible_2_5", "ASCEND_RT_VISIBLE_DEVICES=2,5", "OACL_DEVICE_COUNT=8");
    ASSERT_CHILD_OK("visible_prefix", "ASCEND_RT_VISIBLE_DEVICES=1,3,x,4", "OACL_DEVICE_COUNT=8");
    ASSERT_CHILD_OK("visible_broken", "ASCEND_RT_VISIBLE_DEVICES=3,1", "OACL_DEVICE_COUNT=8");
    ASSERT_CHILD_OK("visible_broken", "ASCEND_RT_VISIBLE_DEVICES=2,2", "OACL_DEVICE_COUNT=8");
    ASSERT_CHILD_OK("visible_broken", "ASCEND_RT_VISIBLE_DEVICES=9", "OACL_DEVICE_COUNT=8");
}

/* ---- UUID and PCI ---------------------------------------------------------------------------- */

static void test_uuid(void **state)
{
    (void)state;
    uint32_t n = 0;
    ACL_OK(aclrtGetDeviceCount(&n));
    aclrtUuid u[8];
    for (uint32_t d = 0; d < n && d < 8; d++) {
        ACL_OK(aclrtDeviceGetUuid((int32_t)d, &u[d]));
        assert_memory_equal(u[d].bytes, "OACL", 4);
        for (uint32_t e = 0; e < d; e++)
            assert_memory_not_equal(u[d].bytes, u[e].bytes, 16);
    }
    /* No aclInit, no context needed; the same bytes again. */
    aclrtUuid again;
    ACL_OK(aclrtDeviceGetUuid(1, &again));
    assert_memory_equal(again.bytes, u[1].bytes, 16);
    aclrtUuid keep;
    memset(&keep, 0x5a, sizeof(keep));
    ACL_ERR(aclrtDeviceGetUuid(0, NULL), ACL_ERROR_INVALID_PARAM, "uuid");
    ACL_ERR(aclrtDeviceGetUuid(-1, &keep), ACL_ERROR_RT_INVALID_DEVICEID, "negative");
    ACL_ERR(aclrtDeviceGetUuid((int32_t)n, &keep), ACL_ERROR_RT_INVALID_DEVICEID, "not a visible device");
    for (int i = 0; i < 16; i++)
        assert_int_equal((unsigned char)keep.bytes[i], 0x5a);
}

/* A second process sees the same UUIDs (printed as hex). */
static void child_print_uuids(void)
{
    for (int32_t d = 0; d < 3; d++) {
        aclrtUuid u;
        CHILD_OK(aclrtDeviceGetUuid(d, &u));
        for (int i = 0; i < 16; i++)
            printf("%02x", (unsigned char)u.bytes[i]);
        printf("\n");
    }
}

static void test_uuid_stable(void **state)
{
    (void)state;
    char expect[256] = "", got[256];
    for (int32_t d = 0; d < 3; d++) {
        aclrtUuid u;
        ACL_OK(aclrtDeviceGetUuid(d, &u));
        for (int i = 0; i < 16; i++)
            snprintf(expect + strlen(expect), sizeof(expect) - strlen(expect), "%02x", (unsigned char)u.bytes[i]);
        strcat(expect, "\n");
    }
    const char *env[] = {"OACL_SOC", NULL};
    assert_int_equal(oacl_run_child("print_uuids", env, got, sizeof(got)), 0);
    assert_string_equal(got, expect);
    /* Another SoC profile: other UUIDs. */
    const char *env950[] = {"OACL_SOC=Ascend950PR_9599", NULL};
    assert_int_equal(oacl_run_child("print_uuids", env950, got, sizeof(got)), 0);
    assert_string_not_equal(got, expect);
}

static void test_pci(void **state)
{
    (void)state;
    char buf[32];
    memset(buf, 'x', sizeof(buf));
    ACL_OK(aclrtDeviceGetPCIBusId(0, buf, 13));
    assert_string_equal(buf, "0000:01:00.0");
    assert_int_equal(buf[13], 'x'); /* exactly 13 bytes written */
    uint32_t n = 0;
    ACL_OK(aclrtGetDeviceCount(&n));
    for (int32_t d = 0; d < (int32_t)n; d++) {
        int32_t back = -1;
        ACL_OK(aclrtDeviceGetPCIBusId(d, buf, (int32_t)sizeof(buf)));
        ACL_OK(aclrtDeviceGetByPCIBusId(buf, &back));
        assert_int_equal(back, d);
    }
    memset(buf, 'x', sizeof(buf));
    ACL_ERR(aclrtDeviceGetPCIBusId(0, buf, 12), ACL_ERROR_RT_PARAM_INVALID, "len 12");
    ACL_ERR(aclrtDeviceGetPCIBusId(0, NULL, 13), ACL_ERROR_INVALID_PARAM, "pciBusId");
    ACL_ERR(aclrtDeviceGetPCIBusId(-1, buf, 13), ACL_ERROR_RT_INVALID_DEVICEID, "negative");
    ACL_ERR(aclrtDeviceGetPCIBusId((int32_t)n, buf, 13), ACL_ERROR_RT_INVALID_DEVICEID, "not a visible device");
    assert_int_equal(buf[0], 'x');
    int32_t d = -3;
    ACL_ERR(aclrtDeviceGetByPCIBusId("0000:01:00.0 ", &d), ACL_ERROR_RT_PARAM_INVALID, "no visible device");
    ACL_ERR(aclrtDeviceGetByPCIBusId("0000:0A:00.0", &d), ACL_ERROR_RT_PARAM_INVALID, "no visible device");
    ACL_ERR(aclrtDeviceGetByPCIBusId(NULL, &d), ACL_ERROR_INVALID_PARAM, "pciBusId");
    ACL_ERR(aclrtDeviceGetByPCIBusId("0000:01:00.0", NULL), ACL_ERROR_INVALID_PARAM, "deviceId");
    assert_int_equal(d, -3);
}

/* 310P: no UUID or PCI query; the reverse lookup finds nothing. */
static void child_identity_310p(void)
{
    aclrtUuid u;
    char buf[16];
    int32_t d;
    CHILD_ERR(aclrtDeviceGetUuid(0, &u), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on Ascend310P");
    CHILD_ERR(aclrtDeviceGetPCIBusId(0, buf, 13), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported on Ascend310P");
    CHILD_ERR(aclrtDeviceGetByPCIBusId("0000:01:00.0", &d), ACL_ERROR_RT_PARAM_INVALID, "no PCI bus id query");
    uint64_t t = 0;
    CHILD_OK(aclrtGetDevicesTopo(0, 1, &t));
    CHILD_CHECK_INT(t, ACL_RT_DEVS_TOPOLOGY_PIX);
    CHILD_OK(aclrtGetDevicesTopo(1, 1, &t));
    CHILD_CHECK_INT(t, ACL_RT_DEVS_TOPOLOGY_PIX);
    /* Limits of SIMD code exist, SIMT ones do not (no SIMT). */
    size_t v = 0;
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
    CHILD_CHECK_INT(v, 32768);
    CHILD_ERR(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, NULL);
}

/* ---- topology ------------------------------------------------------------------------------------ */

static void test_topology_a2(void **state)
{
    (void)state;
    uint64_t t = 0;
    for (uint32_t a = 0; a < 4; a++)
        for (uint32_t b = 0; b < 4; b++) {
            ACL_OK(aclrtGetDevicesTopo(a, b, &t));
            assert_int_equal(t, ACL_RT_DEVS_TOPOLOGY_HCCS);
        }
    t = 77;
    ACL_ERR(aclrtGetDevicesTopo(0, 1, NULL), ACL_ERROR_INVALID_PARAM, "value");
    ACL_ERR(aclrtGetDevicesTopo(0, 8, &t), ACL_ERROR_RT_INVALID_DEVICEID, "device 8");
    ACL_ERR(aclrtGetDevicesTopo(UINT32_MAX, 0, &t), ACL_ERROR_RT_INVALID_DEVICEID, "not a visible device");
    assert_int_equal(t, 77);
}

static void child_topology_a3(void)
{
    uint64_t t = 0;
    CHILD_OK(aclrtGetDevicesTopo(0, 1, &t));
    CHILD_CHECK_INT(t, ACL_RT_DEVS_TOPOLOGY_SIO);
    CHILD_OK(aclrtGetDevicesTopo(3, 2, &t));
    CHILD_CHECK_INT(t, ACL_RT_DEVS_TOPOLOGY_SIO);
    CHILD_OK(aclrtGetDevicesTopo(0, 2, &t));
    CHILD_CHECK_INT(t, ACL_RT_DEVS_TOPOLOGY_HCCS_SW);
    CHILD_OK(aclrtGetDevicesTopo(1, 1, &t));
    CHILD_CHECK_INT(t, ACL_RT_DEVS_TOPOLOGY_HCCS);
    /* Peer atomics over SIO and the HCCS switch. */
    aclrtAtomicOperation op = ACL_RT_ATOMIC_OPERATION_DMA_MAX;
    uint32_t cap = 0;
    CHILD_OK(aclrtDeviceGetP2PAtomicCapabilities(&cap, &op, 1, 0, 1));
    CHILD_CHECK_INT(cap, 0x39);
    CHILD_OK(aclrtDeviceGetP2PAtomicCapabilities(&cap, &op, 1, 0, 5));
    CHILD_CHECK_INT(cap, 0x39);
}

static void child_topology_1001(void)
{
    uint64_t t = 0;
    CHILD_OK(aclrtGetDevicesTopo(0, 3, &t));
    CHILD_CHECK_INT(t, ACL_RT_DEVS_TOPOLOGY_HCCS);
    CHILD_OK(aclrtGetDevicesTopo(3, 4, &t));
    CHILD_CHECK_INT(t, ACL_RT_DEVS_TOPOLOGY_SYS);
    aclrtAtomicOperation op = ACL_RT_ATOMIC_OPERATION_DMA_ADD;
    uint32_t cap = 9;
    CHILD_OK(aclrtDeviceGetP2PAtomicCapabilities(&cap, &op, 1, 0, 1));
    CHILD_CHECK_INT(cap, 0); /* no table on arch 1001 */
}

/* ---- atomics ---------------------------------------------------------------------------------------- */

static void test_atomics_a2(void **state)
{
    (void)state;
    aclrtAtomicOperation ops[4] = {ACL_RT_ATOMIC_OPERATION_DMA_ADD, ACL_RT_ATOMIC_OPERATION_INTEGER_ADD,
                                   ACL_RT_ATOMIC_OPERATION_DMA_MIN, (aclrtAtomicOperation)20};
    uint32_t cap[4] = {1, 1, 1, 1};
    ACL_OK(aclrtDeviceGetP2PAtomicCapabilities(cap, ops, 4, 0, 1));
    assert_int_equal(cap[0], 0x39);
    assert_int_equal(cap[1], 0);
    assert_int_equal(cap[2], 0x39);
    assert_int_equal(cap[3], 0); /* inside 0..44 but no operation: 0 */
    uint32_t keep[4] = {5, 5, 5, 5};
    ACL_ERR(aclrtDeviceGetP2PAtomicCapabilities(keep, ops, 4, 1, 1), ACL_ERROR_RT_INVALID_DEVICEID, "two devices");
    ACL_ERR(aclrtDeviceGetP2PAtomicCapabilities(keep, ops, 0, 0, 1), ACL_ERROR_RT_PARAM_INVALID, "count is 0");
    ACL_ERR(aclrtDeviceGetP2PAtomicCapabilities(NULL, ops, 4, 0, 1), ACL_ERROR_RT_PARAM_INVALID, "capabilities");
    ACL_ERR(aclrtDeviceGetP2PAtomicCapabilities(keep, NULL, 4, 0, 1), ACL_ERROR_RT_PARAM_INVALID, "operations");
    ACL_ERR(aclrtDeviceGetP2PAtomicCapabilities(keep, ops, 4, 0, 8), ACL_ERROR_RT_INVALID_DEVICEID, "dstDeviceId 8");
    aclrtAtomicOperation bad[2] = {ACL_RT_ATOMIC_OPERATION_DMA_ADD, (aclrtAtomicOperation)45};
    ACL_ERR(aclrtDeviceGetP2PAtomicCapabilities(keep, bad, 2, 0, 1), ACL_ERROR_RT_PARAM_INVALID, "operations[1]");
    bad[1] = (aclrtAtomicOperation)-1;
    ACL_ERR(aclrtDeviceGetP2PAtomicCapabilities(keep, bad, 2, 0, 1), ACL_ERROR_RT_PARAM_INVALID, "operations[1]");
    for (int i = 0; i < 4; i++)
        assert_int_equal(keep[i], 5); /* untouched by every failure */

    /* Host atomics: the host link is PCIe, so all 0. */
    uint32_t host[4] = {9, 9, 9, 9};
    ACL_OK(aclrtDeviceGetHostAtomicCapabilities(host, ops, 4, 0));
    for (int i = 0; i < 4; i++)
        assert_int_equal(host[i], 0);
    ACL_ERR(aclrtDeviceGetHostAtomicCapabilities(keep, ops, 0, 0), ACL_ERROR_RT_PARAM_INVALID, "count is 0");
    ACL_ERR(aclrtDeviceGetHostAtomicCapabilities(keep, ops, 4, -1), ACL_ERROR_RT_INVALID_DEVICEID, "deviceId -1");
    ACL_ERR(aclrtDeviceGetHostAtomicCapabilities(keep, bad, 2, 0), ACL_ERROR_RT_PARAM_INVALID, "operations[1]");
    ACL_ERR(aclrtDeviceGetHostAtomicCapabilities(NULL, ops, 4, 0), ACL_ERROR_RT_PARAM_INVALID, "capabilities");
    assert_int_equal(keep[0], 5);
}

static void child_atomics_950(void)
{
    aclrtAtomicOperation ops[5] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT,
                                   ACL_RT_ATOMIC_OPERATION_FLOAT_MAX, ACL_RT_ATOMIC_OPERATION_DMA_ADD,
                                   ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH};
    uint32_t cap[5] = {0};
    CHILD_OK(aclrtDeviceGetP2PAtomicCapabilities(cap, ops, 5, 1, 0));
    CHILD_CHECK_INT(cap[0], 0x63);
    CHILD_CHECK_INT(cap[1], 0x62);
    CHILD_CHECK_INT(cap[2], 0x30);
    CHILD_CHECK_INT(cap[3], 0x39);
    CHILD_CHECK_INT(cap[4], 0x62);
    /* SIMT limits exist on 950. */
    size_t v = 0;
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, &v));
    CHILD_CHECK_INT(v, 36864);
    CHILD_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 256));
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, &v));
    CHILD_CHECK_INT(v, 8192);
    CHILD_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, 512));
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, &v));
    CHILD_CHECK_INT(v, 512);
    CHILD_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 0));
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, 0), ACL_ERROR_RT_PARAM_INVALID,
              "both be 0");
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, &v));
    CHILD_CHECK_INT(v, 512);
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 1048575), ACL_ERROR_RT_PARAM_INVALID,
              "outside");
    CHILD_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 1048577));
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, &v));
    CHILD_CHECK_INT(v, 1048584);
    /* The SIMD stack maximum is lower on 3510. */
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 131073), ACL_ERROR_RT_PARAM_INVALID, "131072");
    CHILD_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 131072));
}

static void test_profiles(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("identity_310p", "OACL_SOC=Ascend310P3");
    ASSERT_CHILD_OK("topology_a3", "OACL_SOC=Ascend910_9391");
    ASSERT_CHILD_OK("topology_1001", "OACL_SOC=Ascend910A");
    ASSERT_CHILD_OK("atomics_950", "OACL_SOC=Ascend950PR_9599");
}

/* ---- limits (A2; process-wide, so in a child) -------------------------------------------------------- */

static void child_limits_a2(void)
{
    size_t v = 0;
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
    CHILD_CHECK_INT(v, 32768);
    CHILD_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000));
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
    CHILD_CHECK_INT(v, 49152);
    CHILD_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 16384)); /* <= 32768: no change */
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
    CHILD_CHECK_INT(v, 49152);
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 196609), ACL_ERROR_RT_PARAM_INVALID, "196608");
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
    CHILD_CHECK_INT(v, 49152);
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v));
    CHILD_CHECK_INT(v, 32768);
    /* [1024, 64 MiB], rounded up to 8 (the rule of spec 4.1; its test idea 7 says 1001 -> 1008, which the
       rule refuses: the rule is followed). */
    CHILD_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1025));
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v));
    CHILD_CHECK_INT(v, 1032);
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1000), ACL_ERROR_RT_PARAM_INVALID,
              "outside");
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1023), ACL_ERROR_RT_PARAM_INVALID,
              "outside");
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 67108865),
              ACL_ERROR_RT_PARAM_INVALID, "outside");
    CHILD_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v));
    CHILD_CHECK_INT(v, 1032);
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 256), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "not supported on Ascend910B3");
    CHILD_ERR(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              NULL);
    CHILD_ERR(aclrtDeviceSetLimit((aclrtDeviceLimit)5, 1024), ACL_ERROR_INVALID_PARAM, "limit 5");
    CHILD_ERR(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, (size_t)UINT32_MAX + 1), ACL_ERROR_INVALID_PARAM,
              "UINT32_MAX");
    CHILD_ERR(aclrtDeviceGetLimit((aclrtDeviceLimit)5, &v), ACL_ERROR_INVALID_PARAM, "limit 5");
    CHILD_ERR(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, NULL), ACL_ERROR_INVALID_PARAM, "value");
    CHILD_CHECK_INT(v, 1032);
}

static void test_limits(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("limits_a2", "OACL_SOC");
}

static void test_ts_device(void **state)
{
    (void)state;
    ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR)); /* no device set: fine */
    ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AICORE));
    ACL_ERR(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM, "tsId 2");
    ACL_ERR(aclrtSetTsDevice((aclrtTsId)-1), ACL_ERROR_INVALID_PARAM, "tsId -1");
    ACL_ERR(aclrtSetTsDevice((aclrtTsId)7), ACL_ERROR_INVALID_PARAM, "tsId 7");
}

int main(int argc, char **argv)
{
    static const struct oacl_child_mode modes[] = {
        {"visible_2_5", child_visible_2_5},       {"visible_prefix", child_visible_prefix},
        {"visible_broken", child_visible_broken}, {"print_uuids", child_print_uuids},
        {"identity_310p", child_identity_310p},   {"topology_a3", child_topology_a3},
        {"topology_1001", child_topology_1001},   {"atomics_950", child_atomics_950},
        {"limits_a2", child_limits_a2},
    };
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(modes, sizeof(modes) / sizeof(modes[0]), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_id_identity), cmocka_unit_test(test_visible_devices),
        cmocka_unit_test(test_uuid),        cmocka_unit_test(test_uuid_stable),
        cmocka_unit_test(test_pci),         cmocka_unit_test(test_topology_a2),
        cmocka_unit_test(test_atomics_a2),  cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_limits),      cmocka_unit_test(test_ts_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
