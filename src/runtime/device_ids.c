/*
 * Device identities (device-kernel chapter 3.1, 4.1): the three id spaces
 * and ASCEND_RT_VISIBLE_DEVICES, UUIDs, PCI bus ids and the topology
 * between the simulated devices. Everything here works before aclInit and
 * without a context.
 *
 * Id spaces: the "driver" has OACL_DEVICE_COUNT devices, logical ids
 * 0..n-1 (physical id = logical id: oacl never runs in a container). With
 * ASCEND_RT_VISIBLE_DEVICES the program sees the listed logical devices as
 * user ids 0, 1, ... (CANN's parsing rules, Decision 1); without it user =
 * logical. Every other part of oacl works with user ids.
 *
 * UUIDs and PCI addresses are pure functions of the physical id (and, for
 * the UUID, the SoC profile name), so they are the same in every process
 * (Decision 5).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

#define MAX_VISIBLE 64

static struct {
    bool active;               /* the variable is in effect */
    bool broken;               /* malformed: every device call fails */
    uint32_t driver;           /* devices present (OACL_DEVICE_COUNT) */
    uint32_t count;            /* user ids */
    uint32_t logical[MAX_VISIBLE];
    char text[128];            /* the value, for messages */
} g_vis;

/*
 * CANN's rules: decimal logical ids separated by commas; parsing stops at
 * the first token that is not all digits or names no device; the ids read
 * so far become user ids 0, 1, ...; they must be strictly ascending (a
 * descending or repeated id, or nothing usable, breaks every device call).
 */
uint32_t oacl_visible_devices_init(uint32_t driver_count)
{
    const char *v = getenv("ASCEND_RT_VISIBLE_DEVICES");
    if (!v || !*v)
        return driver_count;
    g_vis.active = true;
    g_vis.driver = driver_count;
    snprintf(g_vis.text, sizeof(g_vis.text), "%s", v);
    const char *p = v;
    uint32_t n = 0;
    for (;;) {
        const char *e = p;
        unsigned long id = 0;
        while (*e >= '0' && *e <= '9' && id < 100000)
            id = id * 10 + (unsigned long)(*e++ - '0');
        if (e == p || (*e != ',' && *e != '\0') || id >= driver_count || n == MAX_VISIBLE)
            break;
        if (n > 0 && id <= g_vis.logical[n - 1]) {
            g_vis.broken = true;
            OACL_ERROR("ASCEND_RT_VISIBLE_DEVICES='%s': ids must be strictly ascending and unique; no device is usable",
                       v);
            return 0;
        }
        g_vis.logical[n++] = (uint32_t)id;
        if (*e == '\0')
            break;
        p = e + 1;
    }
    if (n == 0) {
        g_vis.broken = true;
        OACL_ERROR("ASCEND_RT_VISIBLE_DEVICES='%s' names no device among the %u present; no device is usable", v,
                   driver_count);
        return 0;
    }
    g_vis.count = n;
    return n;
}

aclError oacl_visible_devices_check(const char *fn)
{
    oacl_config(); /* parses the variable */
    if (g_vis.broken)
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, fn,
                         "ASCEND_RT_VISIBLE_DEVICES='%s' is malformed (decimal ids, strictly ascending, each below the "
                         "device count)",
                         g_vis.text);
    return ACL_SUCCESS;
}

/* Devices the driver has (OACL_DEVICE_COUNT), whatever is visible. */
static uint32_t driver_count(void)
{
    uint32_t n = oacl_config()->device_count;
    return g_vis.active ? g_vis.driver : n;
}

int32_t oacl_device_phys_id(int32_t user)
{
    oacl_config();
    return g_vis.active ? (int32_t)g_vis.logical[user] : user;
}

/* The user id of logical device `logical`, or -1 when it is not visible. */
static int32_t user_of_logical(int32_t logical)
{
    if (!g_vis.active)
        return (uint32_t)logical < oacl_config()->device_count ? logical : -1;
    for (uint32_t u = 0; u < g_vis.count; u++)
        if (g_vis.logical[u] == (uint32_t)logical)
            return (int32_t)u;
    return -1;
}

bool oacl_logical_visible(int32_t logical)
{
    oacl_config();
    return logical >= 0 && user_of_logical(logical) >= 0;
}

/* Checks a user id: negative (neg_code), not visible (107001). */
static aclError user_arg(int32_t id, aclError neg_code, const char *what, const char *fn)
{
    aclError rc = oacl_visible_devices_check(fn);
    if (rc)
        return rc;
    if (id < 0)
        return oacl_fail(neg_code, fn, "%s %d is negative", what, id);
    if ((uint32_t)id >= oacl_config()->device_count)
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, fn, "%s %d is not a visible device (%u visible)", what, id,
                         oacl_config()->device_count);
    return ACL_SUCCESS;
}

/* user id -> logical (= physical) id */
static aclError user_to_logical(int32_t user, int32_t *out, const char *what, const char *fn)
{
    if (!out)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "the output pointer is NULL");
    aclError rc = user_arg(user, ACL_ERROR_RT_PARAM_INVALID, what, fn);
    if (rc)
        return rc;
    *out = oacl_device_phys_id(user);
    return ACL_SUCCESS;
}

/* logical (= physical) id -> user id */
static aclError logical_to_user(int32_t logical, int32_t *out, const char *what, const char *fn)
{
    if (!out)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "the output pointer is NULL");
    aclError rc = oacl_visible_devices_check(fn);
    if (rc)
        return rc;
    if (logical < 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s %d is negative", what, logical);
    if ((uint32_t)logical >= driver_count())
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, fn, "%s %d: there are %u devices", what, logical,
                         driver_count());
    int32_t u = user_of_logical(logical);
    if (u < 0)
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, fn,
                         "%s %d is not visible to this process (ASCEND_RT_VISIBLE_DEVICES='%s')", what, logical,
                         g_vis.text);
    *out = u;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId)
{
    return user_to_logical(userDevid, logicDevId, "userDevid", __func__);
}

OACL_API aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid)
{
    return logical_to_user(logicDevId, userDevid, "logicDevId", __func__);
}

/* CANN: despite its name, the result is a user id (same as ...UserDevIdByPhyDevId). */
OACL_API aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId)
{
    return logical_to_user(phyDevId, logicDevId, "phyDevId", __func__);
}

/* CANN: despite its name, the input is a user id (same as ...PhyDevIdByUserDevId). */
OACL_API aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId)
{
    return user_to_logical(logicDevId, phyDevId, "logicDevId", __func__);
}

OACL_API aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId)
{
    return logical_to_user(phyDevId, userDevId, "phyDevId", __func__);
}

OACL_API aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId)
{
    return user_to_logical(userDevId, phyDevId, "userDevId", __func__);
}

/* ---- UUID and PCI address ------------------------------------------------------- */

/* The identity queries exist on arch 2201 and 3510 (spec 3.6). */
static aclError identity_supported(const char *fn)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    if (!p)
        return oacl_fail(ACL_ERROR_RT_SOC_VERSION, fn, "OACL_SOC='%s' names no known SoC profile",
                         oacl_config()->soc_request);
    if (p->npu_arch != 2201 && p->npu_arch != 3510)
        return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn, p->name);
    return ACL_SUCCESS;
}

static uint32_t fnv1a32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static void put_be32(char *p, uint32_t v)
{
    p[0] = (char)(v >> 24);
    p[1] = (char)(v >> 16);
    p[2] = (char)(v >> 8);
    p[3] = (char)v;
}

OACL_API aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid)
{
    if (!uuid)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "uuid is NULL");
    aclError rc = user_arg(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, "deviceId", __func__);
    if (rc == ACL_SUCCESS)
        rc = identity_supported(__func__);
    if (rc)
        return rc;
    aclrtUuid u;
    memcpy(u.bytes, "OACL", 4);
    put_be32(u.bytes + 4, fnv1a32(oacl_config()->soc->name));
    memset(u.bytes + 8, 0, 4);
    put_be32(u.bytes + 12, (uint32_t)oacl_device_phys_id(deviceId));
    *uuid = u;
    return ACL_SUCCESS;
}

#define PCI_LEN 13 /* "dddd:bb:dd.f" and its NUL */

/* The simulated devices are PCIe endpoints: physical device p at bus p + 1. */
static void pci_string(int32_t user, char out[PCI_LEN])
{
    snprintf(out, PCI_LEN, "%04x:%02x:%02x.%x", 0u, (unsigned)(oacl_device_phys_id(user) + 1) & 0xffu, 0u, 0u);
}

OACL_API aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len)
{
    if (!pciBusId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "pciBusId is NULL");
    aclError rc = oacl_visible_devices_check(__func__);
    if (rc)
        return rc;
    if (deviceId < 0)
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, __func__, "deviceId %d is negative", deviceId);
    if (len < PCI_LEN)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "len %d is below %d (the address and its NUL)", len,
                         PCI_LEN);
    rc = user_arg(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, "deviceId", __func__);
    if (rc == ACL_SUCCESS)
        rc = identity_supported(__func__);
    if (rc)
        return rc;
    pci_string(deviceId, pciBusId);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId)
{
    if (!pciBusId || !deviceId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", pciBusId ? "deviceId" : "pciBusId");
    aclError rc = oacl_visible_devices_check(__func__);
    if (rc)
        return rc;
    const struct oacl_soc_profile *p = oacl_config()->soc;
    /* Products without the PCI query skip every device (CANN), so nothing matches. */
    bool pci = p && (p->npu_arch == 2201 || p->npu_arch == 3510);
    for (uint32_t u = 0; pci && u < oacl_config()->device_count; u++) {
        char s[PCI_LEN];
        pci_string((int32_t)u, s);
        if (strcmp(s, pciBusId) == 0) {
            *deviceId = (int32_t)u;
            return ACL_SUCCESS;
        }
    }
    return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "no visible device has PCI bus id \"%.32s\"%s", pciBusId,
                     pci ? "" : p ? " (the product has no PCI bus id query)" : "");
}

/* ---- topology and atomics -------------------------------------------------------------- */

/* Link between two physical devices (Decision 3), as a topology bit. */
static uint64_t topology(uint32_t a, uint32_t b)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    if (p->npu_arch == 2002 || p->npu_arch == 3002)
        return ACL_RT_DEVS_TOPOLOGY_PIX; /* PCIe cards behind one switch */
    if (a == b)
        return ACL_RT_DEVS_TOPOLOGY_HCCS;
    if (p->npu_arch == 1001)
        return a / 4 == b / 4 ? ACL_RT_DEVS_TOPOLOGY_HCCS : ACL_RT_DEVS_TOPOLOGY_SYS; /* HCCS rings of 4 */
    if (strcmp(p->short_name, "Ascend910_93") == 0)
        return (a ^ 1u) == b ? ACL_RT_DEVS_TOPOLOGY_SIO : ACL_RT_DEVS_TOPOLOGY_HCCS_SW; /* die pairs */
    return ACL_RT_DEVS_TOPOLOGY_HCCS; /* A2 8-way mesh, 950 */
}

OACL_API aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value)
{
    if (!value)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "value is NULL");
    aclError rc = oacl_devices_check(__func__);
    if (rc)
        return rc;
    uint32_t n = oacl_config()->device_count;
    if (deviceId >= n || otherDeviceId >= n)
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, __func__, "device %u is not a visible device (%u visible)",
                         deviceId >= n ? deviceId : otherDeviceId, n);
    *value = topology((uint32_t)oacl_device_phys_id((int32_t)deviceId),
                      (uint32_t)oacl_device_phys_id((int32_t)otherDeviceId));
    return ACL_SUCCESS;
}

#define OP_MAX 44 /* ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH */

static aclError check_ops(uint32_t *caps, const aclrtAtomicOperation *ops, uint32_t count, const char *fn)
{
    if (!caps || !ops)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "%s is NULL", caps ? "operations" : "capabilities");
    if (count == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "count is 0");
    return ACL_SUCCESS;
}

static aclError check_op_values(const aclrtAtomicOperation *ops, uint32_t count, const char *fn)
{
    for (uint32_t i = 0; i < count; i++)
        if ((int)ops[i] < 0 || (int)ops[i] > OP_MAX)
            return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "operations[%u] is %d, not an aclrtAtomicOperation (0..%d)",
                             i, (int)ops[i], OP_MAX);
    return ACL_SUCCESS;
}

static aclError visible_id(int32_t id, const char *what, const char *fn)
{
    aclError rc = oacl_devices_check(fn);
    if (rc)
        return rc;
    if (id < 0 || (uint32_t)id >= oacl_config()->device_count)
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, fn, "%s %d is not a visible device (%u visible)", what, id,
                         oacl_config()->device_count);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t *capabilities, const aclrtAtomicOperation *operations,
                                                       const uint32_t count, int32_t deviceId)
{
    aclError rc = check_ops(capabilities, operations, count, __func__);
    if (rc == ACL_SUCCESS)
        rc = visible_id(deviceId, "deviceId", __func__);
    if (rc == ACL_SUCCESS)
        rc = check_op_values(operations, count, __func__);
    if (rc)
        return rc;
    /* Filled only for a UB host link; the simulated devices are on PCIe. */
    memset(capabilities, 0, (size_t)count * sizeof(*capabilities));
    return ACL_SUCCESS;
}

/* Capabilities of peer atomics over an HCCS-class link, per architecture. */
static uint32_t p2p_caps(uint32_t arch, int op)
{
    const uint32_t dma = ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_SCALAR8 |
                         ACL_RT_ATOMIC_CAPABILITY_SCALAR16 | ACL_RT_ATOMIC_CAPABILITY_SCALAR32; /* 0x39 */
    bool is_dma = op >= ACL_RT_ATOMIC_OPERATION_DMA_ADD && op <= ACL_RT_ATOMIC_OPERATION_DMA_MAX;
    if (arch == 2201)
        return is_dma ? dma : 0;
    if (arch != 3510)
        return 0;
    if (is_dma)
        return dma;
    switch (op) {
    case ACL_RT_ATOMIC_OPERATION_INTEGER_ADD:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_MIN:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_MAX:
    case ACL_RT_ATOMIC_OPERATION_AND:
    case ACL_RT_ATOMIC_OPERATION_OR:
    case ACL_RT_ATOMIC_OPERATION_XOR:
    case ACL_RT_ATOMIC_OPERATION_EXCHANGE:
    case ACL_RT_ATOMIC_OPERATION_CAS:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX:
        return 0x63; /* SIGNED | UNSIGNED | SCALAR32 | SCALAR64 */
    case ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH:
        return 0x62; /* UNSIGNED | SCALAR32 | SCALAR64 */
    case ACL_RT_ATOMIC_OPERATION_FLOAT_ADD:
    case ACL_RT_ATOMIC_OPERATION_FLOAT_MIN:
    case ACL_RT_ATOMIC_OPERATION_FLOAT_MAX:
        return 0x30; /* SCALAR16 | SCALAR32 */
    default:
        return 0;
    }
}

OACL_API aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t *capabilities, const aclrtAtomicOperation *operations,
                                                      const uint32_t count, int32_t srcDeviceId, int32_t dstDeviceId)
{
    aclError rc = check_ops(capabilities, operations, count, __func__);
    if (rc)
        return rc;
    if (srcDeviceId == dstDeviceId)
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, __func__,
                         "srcDeviceId and dstDeviceId are both %d: peer atomics need two devices", srcDeviceId);
    rc = visible_id(srcDeviceId, "srcDeviceId", __func__);
    if (rc == ACL_SUCCESS)
        rc = visible_id(dstDeviceId, "dstDeviceId", __func__);
    if (rc == ACL_SUCCESS)
        rc = check_op_values(operations, count, __func__);
    if (rc)
        return rc;
    uint64_t link = topology((uint32_t)oacl_device_phys_id(srcDeviceId), (uint32_t)oacl_device_phys_id(dstDeviceId));
    bool fabric = link == ACL_RT_DEVS_TOPOLOGY_HCCS || link == ACL_RT_DEVS_TOPOLOGY_SIO ||
                  link == ACL_RT_DEVS_TOPOLOGY_HCCS_SW;
    uint32_t arch = oacl_config()->soc->npu_arch;
    for (uint32_t i = 0; i < count; i++)
        capabilities[i] = fabric ? p2p_caps(arch, (int)operations[i]) : 0;
    return ACL_SUCCESS;
}
