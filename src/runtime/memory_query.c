/*
 * Memory queries: aclrtGetMemUsageInfo (device memory per software
 * component, with the accounting behind it), aclrtCheckMemType and
 * aclrtHostMemMapCapabilities.
 */
#include <string.h>

#include "common/addr_registry.h"
#include "runtime/runtime.h"

/* ---- usage accounting ------------------------------------------------------ */

/* Components reported (Decision 6): CANN names them after the module id
 * carried by each allocation; oacl tells the runtime's own module from
 * everything else, which is the application's. */
enum { COMP_APP = 0, COMP_RUNTIME = 1, COMP_COUNT = 2 };
static const char *const g_comp_names[COMP_COUNT] = {"APP", "RUNTIME"};

#define USAGE_DEVICES 64 /* the most devices a configuration can have */

/* Bytes held now and the peak, per device and component (atomics). Peaks
 * cover the whole process: a device reset does not clear them. */
static uint64_t g_cur[USAGE_DEVICES][COMP_COUNT];
static uint64_t g_peak[USAGE_DEVICES][COMP_COUNT];

static int component_of(uint16_t module_id) { return module_id == OACL_MODULE_RUNTIME ? COMP_RUNTIME : COMP_APP; }

void oacl_mem_usage_add(int32_t device, uint16_t module_id, uint64_t bytes)
{
    if (device < 0 || device >= USAGE_DEVICES)
        return;
    int c = component_of(module_id);
    uint64_t now = __atomic_add_fetch(&g_cur[device][c], bytes, __ATOMIC_RELAXED);
    uint64_t peak = __atomic_load_n(&g_peak[device][c], __ATOMIC_RELAXED);
    while (now > peak &&
           !__atomic_compare_exchange_n(&g_peak[device][c], &peak, now, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

void oacl_mem_usage_sub(int32_t device, uint16_t module_id, uint64_t bytes)
{
    if (device < 0 || device >= USAGE_DEVICES)
        return;
    __atomic_sub_fetch(&g_cur[device][component_of(module_id)], bytes, __ATOMIC_RELAXED);
}

OACL_API aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum,
                                       size_t *outputNum)
{
    if (!memUsageInfo || !outputNum)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", memUsageInfo ? "outputNum" : "memUsageInfo");
    *outputNum = 0;
    aclError rc = oacl_soc_require(~OACL_SOC_MASK(OACL_SOC_FAMILY_950), __func__);
    if (rc)
        return rc;
    if (inputNum == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "inputNum is 0");
    struct oacl_device *dev = NULL;
    rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    if (dev->id >= USAGE_DEVICES)
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICEID, __func__, "device %d has no usage records", dev->id);
    aclrtMemUsageInfo e[COMP_COUNT];
    memset(e, 0, sizeof(e));
    for (int c = 0; c < COMP_COUNT; c++) {
        strcpy(e[c].name, g_comp_names[c]);
        e[c].curMemSize = __atomic_load_n(&g_cur[dev->id][c], __ATOMIC_RELAXED);
        e[c].memPeakSize = __atomic_load_n(&g_peak[dev->id][c], __ATOMIC_RELAXED);
        if (e[c].memPeakSize < e[c].curMemSize) /* read between the two updates */
            e[c].memPeakSize = e[c].curMemSize;
    }
    /* Largest first; APP first on a tie. */
    int order[COMP_COUNT] = {COMP_APP, COMP_RUNTIME};
    if (e[COMP_RUNTIME].curMemSize > e[COMP_APP].curMemSize) {
        order[0] = COMP_RUNTIME;
        order[1] = COMP_APP;
    }
    size_t n = inputNum < COMP_COUNT ? inputNum : COMP_COUNT;
    for (size_t i = 0; i < n; i++)
        memUsageInfo[i] = e[order[i]];
    *outputNum = n;
    return ACL_SUCCESS;
}

/* ---- aclrtCheckMemType --------------------------------------------------------- */

/* Reserved-VA ranges: the header's ACL_RT_MEM_TYPE_RSVD (0x10) and the
 * value CANN's runtime really accepts (0x20) mean the same (Decision 10). */
#define MEM_TYPE_RSVD_RUNTIME 0x20u
#define MEM_TYPES_KNOWN (ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD | MEM_TYPE_RSVD_RUNTIME)

/* Whether addr lies in memory of one of the classes in mem_type. oacl has
 * no DVPP allocator: nothing matches that class. Device memory mapped into
 * a reserved range is reserved-VA memory, not DEV. */
static bool addr_matches(const void *addr, uint32_t mem_type)
{
    if ((mem_type & (ACL_RT_MEM_TYPE_RSVD | MEM_TYPE_RSVD_RUNTIME)) && oacl_vmm_reserved((uintptr_t)addr))
        return true;
    if (!(mem_type & ACL_RT_MEM_TYPE_DEV))
        return false;
    oacl_registry_rdlock();
    const struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, (uintptr_t)addr);
    bool dev = r && r->kind == OACL_MEM_DEVICE && r->origin != OACL_MEM_ORIGIN_VMM_MAP;
    oacl_registry_unlock();
    return dev;
}

OACL_API aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType, uint32_t *checkResult,
                                    uint32_t reserve)
{
    if (!addrList || !checkResult)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", addrList ? "checkResult" : "addrList");
    *checkResult = 0;
    if (reserve != 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "reserve is %u; it must be 0", reserve);
    if (size == 0)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "size is 0");
    if (memType & ~(uint32_t)MEM_TYPES_KNOWN)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "memType 0x%x has bits other than ACL_RT_MEM_TYPE_DEV, _DVPP and _RSVD", memType);
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    bool all = memType != 0;
    for (uint32_t i = 0; all && i < size; i++)
        all = addr_matches(addrList[i], memType);
    *checkResult = all ? 1u : 0u;
    return ACL_SUCCESS;
}

/* ---- aclrtHostMemMapCapabilities ------------------------------------------------ */

OACL_API aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                              aclrtHostMemMapCapability *capabilities)
{
    if (!capabilities)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "capabilities is NULL");
    struct oacl_device *dev = NULL;
    aclError rc = oacl_device_lookup(deviceId, ACL_ERROR_RT_INVALID_DEVICEID, &dev, __func__);
    if (rc)
        return rc;
    if ((uint32_t)hacType > ACL_RT_HAC_TYPE_CCU)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "hacType %u is not an aclrtHacType",
                         (unsigned)hacType);
    rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    /* Decision 7: the engines the simulator models as reading host memory
       (the scheduler, the cores, the copy engines) can; network and media
       engines cannot. */
    switch (hacType) {
    case ACL_RT_HAC_TYPE_STARS:
    case ACL_RT_HAC_TYPE_AICPU:
    case ACL_RT_HAC_TYPE_AIC:
    case ACL_RT_HAC_TYPE_AIV:
    case ACL_RT_HAC_TYPE_PCIEDMA:
    case ACL_RT_HAC_TYPE_SDMA:
        *capabilities = ACL_RT_HOST_MEM_MAP_SUPPORTED;
        break;
    default:
        *capabilities = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
        break;
    }
    return ACL_SUCCESS;
}
