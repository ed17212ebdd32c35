/*
 * ACL runtime interface: devices, contexts, streams, events, memory, kernel
 * loading and launching, host callbacks and error queries.
 *
 * Part of oacl, an open implementation of the CANN ACL runtime interface.
 * Numeric values and structure layouts follow CANN exactly so that programs
 * built against either are source and binary compatible.
 */
#ifndef ACL_ACL_RT_H
#define ACL_ACL_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==========================================================================
 * Version and flag macros
 * ========================================================================== */

/* API version reported by aclrtGetVersion. */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/* Event creation flags (aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag). */
#define ACL_EVENT_SYNC                    0x00000001U /* may be waited on by streams */
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U /* follows stream progress for queries */
#define ACL_EVENT_TIME_LINE               0x00000008U /* records timestamps */
#define ACL_EVENT_DEVICE_USE_ONLY         0x00000010U /* device-side only; not combinable */
#define ACL_EVENT_EXTERNAL                0x00000020U /* graph-capture external event; not combinable */
#define ACL_EVENT_IPC                     0x00000040U /* shared between processes; not combinable */

/* Flags of aclrtRecordEventWithFlag. */
#define ACL_EVENT_RECORD_DEFAULT  0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U

/* Flags of aclrtStreamWaitEventWithFlag. */
#define ACL_EVENT_WAIT_DEFAULT  0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

/* Flags of aclrtCreateNotify. */
#define ACL_NOTIFY_DEFAULT         0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

/* Conditions of aclrtValueWait (its flag argument). */
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U /* *devAddr >= value */
#define ACL_STREAM_WAIT_VALUE_EQ  0x00000001U /* *devAddr == value */
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U /* (*devAddr & value) != 0 */
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U /* ~(*devAddr | value) != 0 */

/* Stream creation flags (aclrtCreateStreamWithConfig). */
#define ACL_STREAM_FAST_LAUNCH     0x00000001U
#define ACL_STREAM_FAST_SYNC       0x00000002U
#define ACL_STREAM_PERSISTENT      0x00000004U /* tasks kept for a model, not run on submission */
#define ACL_STREAM_HUGE            0x00000008U /* larger task queue */
#define ACL_STREAM_CPU_SCHEDULE    0x00000010U /* reserved */
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

/* Stream failure modes (aclrtSetStreamFailureMode). */
#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE     0x00000001U

/* Flags of aclrtHostRegisterV2. */
#define ACL_HOST_REG_MAPPED   0x2UL        /* give the range a device address */
#define ACL_HOST_REG_IOMEMORY 0x4UL        /* reserved, not supported */
#define ACL_HOST_REG_READONLY 0x8UL        /* reserved, not supported */
#define ACL_HOST_REG_PINNED   0x10000000UL /* page-lock pageable memory */

/* Flag of aclrtMemAllocManaged. */
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U

/* aclrtCheckMemType memory classes (ACL_RT_MEM_TYPE_RSVD: reserved address
   ranges; 0x20 is accepted with the same meaning). */
#define ACL_RT_MEM_TYPE_DEV  (0X2U)
#define ACL_RT_MEM_TYPE_DVPP (0X8U)
#define ACL_RT_MEM_TYPE_RSVD (0X10U)

/* Most barriers one aclrtCmoWaitBarrier task waits for. */
#define ACL_RT_CMO_MAX_BARRIER_NUM 6U

/* Image kinds for the binary load option ACL_RT_BINARY_LOAD_OPT_MAGIC. */
#define ACL_RT_BINARY_MAGIC_ELF_AICORE      0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE   0x41494343U

/* Buffer sizes of package version strings. */
#define ACL_PKG_VERSION_MAX_SIZE       128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

/* Sizes used by the memory error (UCE) reports. */
#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20
#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE      14

/* Results of device capability queries. */
#define ACL_DEV_FEATURE_SUPPORT     0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000

/* Values of the ACL_DEV_ATTR_HD_CONNECT_TYPE device attribute. */
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB   2

/* Size in bytes of an inter-process event handle. */
#define ACL_IPC_EVENT_HANDLE_SIZE 64U

/* ==========================================================================
 * Handle and callback types
 * ========================================================================== */

typedef void *aclrtBinary;     /* kernel image description, not yet loaded */
typedef void *aclrtBinHandle;  /* loaded kernel binary */
typedef void *aclrtFuncHandle; /* one kernel entry inside a loaded binary */
typedef void *aclrtArgsHandle; /* kernel argument list under construction */
typedef void *aclrtParamHandle;/* one parameter inside an argument list */

/* Handles of features outside oacl's current scope. */
typedef void *aclrtDrvMemHandle;
typedef void *aclmdlRI;
typedef void *aclmdlRICondHandle;
typedef struct tagRtGroupInfo aclrtGroupInfo;

/* Description of a device exception; only handled through pointers. */
typedef struct rtExceptionInfo aclrtExceptionInfo;
/* Extension block of aclrtUtilizationInfo; only handled through pointers. */
typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;

/* Host function run in stream order by aclrtLaunchCallback. */
typedef void (*aclrtCallback)(void *userData);
/* Host function run in stream order by aclrtLaunchHostFunc. */
typedef void (*aclrtHostFunc)(void *args);
/* Notification of a device exception. */
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);
/* Notification of an operator exception, with caller-supplied data. */
typedef void (*aclrtOpExceptionCallback)(aclrtExceptionInfo *exceptionInfo, void *userData);

/* ==========================================================================
 * Enumerations
 * ========================================================================== */

/* Where the calling program runs. */
typedef enum aclrtRunMode {
    ACL_DEVICE = 0, /* on the device's own processor */
    ACL_HOST = 1,   /* on a host with attached devices */
} aclrtRunMode;

/* Whether later stream tasks wait for a host callback. */
typedef enum aclrtCallbackBlockType {
    ACL_CALLBACK_NO_BLOCK = 0, /* the stream continues without waiting */
    ACL_CALLBACK_BLOCK = 1,    /* the stream resumes after the callback returns */
} aclrtCallbackBlockType;

/* Direction of a memory copy. */
typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,       /* within one device or across devices */
    ACL_MEMCPY_DEFAULT = 4,                /* derived from the two pointers */
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,  /* staged; source reusable at return */
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6, /* descriptor-based copies only */
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7, /* descriptor-based copies only */
} aclrtMemcpyKind;

/* Page policy and modifiers of device allocations. */
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
    ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000,
} aclrtMemMallocPolicy;

/* Registration type of aclrtHostRegister. */
typedef enum {
    ACL_HOST_REGISTER_MAPPED = 0,
    ACL_HOST_REGISTER_IOMEMORY = 0x04, /* reserved, not supported */
    ACL_HOST_REGISTER_READONLY = 0x08, /* reserved, not supported */
} aclrtHostRegisterType;

/* Result of the deprecated aclrtQueryEvent. */
typedef enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2,
} aclrtEventStatus;

/* Result of aclrtQueryEventStatus (note: encoded opposite to aclrtEventStatus). */
typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

/* Result of aclrtQueryEventWaitStatus. */
typedef enum aclrtEventWaitStatus {
    ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
    ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
    ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

/* Result of aclrtStreamQuery. */
typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,
    ACL_STREAM_STATUS_NOT_READY = 1,
    ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

/* Fields of aclrtStreamConfigHandle set by aclrtSetStreamConfigOpt. */
typedef enum {
    ACL_RT_STREAM_WORK_ADDR_PTR = 0, /* void *: work memory for models run on the stream */
    ACL_RT_STREAM_WORK_SIZE = 1,     /* size_t */
    ACL_RT_STREAM_FLAG = 2,          /* uint32_t or size_t; 0 by default */
    ACL_RT_STREAM_PRIORITY = 3,      /* uint32_t in 0..7, 0 is the highest */
} aclrtStreamConfigAttr;

/* Attributes of aclrtSetStreamAttribute / aclrtGetStreamAttribute. */
typedef enum {
    ACL_STREAM_ATTR_FAILURE_MODE = 1,
    ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
    ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
    ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
    ACL_STREAM_ATTR_PRIORITY = 5,
} aclrtStreamAttr;

/* Memory kinds of aclrtGetMemInfo. */
typedef enum aclrtMemAttr {
    ACL_DDR_MEM = 0,
    ACL_HBM_MEM = 1,
    ACL_DDR_MEM_HUGE = 2,
    ACL_DDR_MEM_NORMAL = 3,
    ACL_HBM_MEM_HUGE = 4,
    ACL_HBM_MEM_NORMAL = 5,
    ACL_DDR_MEM_P2P_HUGE = 6,
    ACL_DDR_MEM_P2P_NORMAL = 7,
    ACL_HBM_MEM_P2P_HUGE = 8,
    ACL_HBM_MEM_P2P_NORMAL = 9,
    ACL_HBM_MEM_HUGE1G = 10,
    ACL_HBM_MEM_P2P_HUGE1G = 11,
    ACL_MEM_NORMAL = 12,
    ACL_MEM_HUGE = 13,
    ACL_MEM_HUGE1G = 14,
    ACL_MEM_P2P_NORMAL = 15,
    ACL_MEM_P2P_HUGE = 16,
    ACL_MEM_P2P_HUGE1G = 17,
} aclrtMemAttr;

/* Kinds of allocation attributes in aclrtMallocConfig. */
typedef enum {
    ACL_RT_MEM_ATTR_RSV = 0,
    ACL_RT_MEM_ATTR_MODULE_ID = 1,
    ACL_RT_MEM_ATTR_DEVICE_ID = 2,
    ACL_RT_MEM_ATTR_VA_FLAG = 3,
} aclrtMallocAttrType;

/* Classification of a pointer by aclrtPointerGetAttributes. */
typedef enum aclrtMemLocationType {
    ACL_MEM_LOCATION_TYPE_HOST = 0,         /* host memory from the runtime's allocators */
    ACL_MEM_LOCATION_TYPE_DEVICE = 1,       /* device memory from the runtime's allocators */
    ACL_MEM_LOCATION_TYPE_UNREGISTERED = 2, /* memory the runtime does not know */
    ACL_MEM_LOCATION_TYPE_MANAGED = 3,      /* from aclrtMemAllocManaged */
    ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

/* Advice of aclrtMemManagedAdvise. */
typedef enum aclrtMemManagedAdviseType {
    ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
    ACL_MEM_ADVISE_UNSET_READ_MOSTLY,
    ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_SET_ACCESSED_BY,
    ACL_MEM_ADVISE_UNSET_ACCESSED_BY,
} aclrtMemManagedAdviseType;

/* Kinds of location of managed memory. */
typedef enum aclrtMemManagedLocationType {
    ACL_MEM_LOCATIONTYPE_INVALID = 0,
    ACL_MEM_LOCATIONTYPE_DEVICE,            /* id = device id */
    ACL_MEM_LOCATIONTYPE_HOST,              /* id ignored */
    ACL_MEM_LOCATIONTYPE_HOST_NUMA,         /* id = host NUMA node */
    ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT, /* the calling thread's node; id ignored */
} aclrtMemManagedLocationType;

/* Attributes of a managed range (aclrtMemManagedGetAttr(s)). */
typedef enum aclrtMemManagedRangeAttribute {
    ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,             /* int32_t */
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,          /* int32_t */
    ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,                 /* int32_t[n] */
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,     /* aclrtMemManagedLocationType */
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,       /* int32_t */
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,      /* int32_t */
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, /* aclrtMemManagedLocationType */
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID    /* int32_t */
} aclrtMemManagedRangeAttribute;

/* Hardware engines of aclrtHostMemMapCapabilities. */
typedef enum {
    ACL_RT_HAC_TYPE_STARS = 0, /* task scheduler */
    ACL_RT_HAC_TYPE_AICPU,
    ACL_RT_HAC_TYPE_AIC,       /* cube cores */
    ACL_RT_HAC_TYPE_AIV,       /* vector cores */
    ACL_RT_HAC_TYPE_PCIEDMA,
    ACL_RT_HAC_TYPE_RDMA,
    ACL_RT_HAC_TYPE_SDMA,
    ACL_RT_HAC_TYPE_DVPP,
    ACL_RT_HAC_TYPE_UDMA,
    ACL_RT_HAC_TYPE_CCU
} aclrtHacType;

typedef enum {
    ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0,
    ACL_RT_HOST_MEM_MAP_SUPPORTED
} aclrtHostMemMapCapability;

/* Cache maintenance operations. */
typedef enum aclrtCmoType {
    ACL_RT_CMO_TYPE_PREFETCH = 0, /* load into the cache */
    ACL_RT_CMO_TYPE_WRITEBACK,    /* write dirty lines back, keep them */
    ACL_RT_CMO_TYPE_INVALID,      /* drop lines */
    ACL_RT_CMO_TYPE_FLUSH,        /* write back and drop */
} aclrtCmoType;

/* Reductions of aclrtReduceAsync. */
typedef enum {
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

/* Distributions of aclrtRandomNumAsync. */
typedef enum {
    ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK = 0,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS,
} aclrtRandomNumFuncType;

/* Kind of physical memory (memory pools, virtual memory). */
typedef enum aclrtMemAllocationType {
    ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

/* Kinds of shareable handle (memory pools, virtual memory). */
typedef enum aclrtMemHandleType {
    ACL_MEM_HANDLE_TYPE_NONE = 0,
    ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

/* Scope of aclrtGetLastError / aclrtPeekAtLastError. */
typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

/* Option kinds of the binary loading functions. */
typedef enum aclrtBinaryLoadOptionType {
    ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
    ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2, /* deprecated spelling of ACL_RT_BINARY_LOAD_OPT_MAGIC */
    ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

/* Compute engine selected by ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE. */
typedef enum {
    ACL_RT_ENGINE_TYPE_AIC = 0,
    ACL_RT_ENGINE_TYPE_AIV = 1,
} aclrtEngineType;

/* Attribute ids of a kernel launch configuration. */
typedef enum aclrtLaunchKernelAttrId {
    ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
    ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE
        ACL_DEPRECATED_MESSAGE("use ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE instead") = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
    ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8, /* excludes ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT */
    ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9,
} aclrtLaunchKernelAttrId;

/* Fault classes reported by aclrtGetErrorVerbose. */
typedef enum {
    ACL_RT_NO_ERROR = 0,
    ACL_RT_ERROR_MEMORY = 1,
    ACL_RT_ERROR_L2 = 2,
    ACL_RT_ERROR_AICORE = 3,
    ACL_RT_ERROR_LINK = 4,
    ACL_RT_ERROR_L3_PORT = 5,
    ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

/* Detail of an ACL_RT_ERROR_AICORE fault. */
typedef enum aclrtAicoreErrorType {
    ACL_RT_AICORE_ERROR_UNKNOWN = 0,
    ACL_RT_AICORE_ERROR_SW = 1,
    ACL_RT_AICORE_ERROR_HW_LOCAL = 2,
} aclrtAicoreErrorType;

/* Software packages known to the deprecated aclsysGetCANNVersion. */
typedef enum aclCANNPackageName {
    ACL_PKG_NAME_CANN = 0,
    ACL_PKG_NAME_RUNTIME = 1,
    ACL_PKG_NAME_COMPILER = 2,
    ACL_PKG_NAME_HCCL = 3,
    ACL_PKG_NAME_TOOLKIT = 4,
    ACL_PKG_NAME_OPP = 5,
    ACL_PKG_NAME_OPP_KERNEL = 6,
    ACL_PKG_NAME_DRIVER = 7,
} aclCANNPackageName;

/* Device attributes of aclrtGetDeviceInfo; every value is an int64_t. */
typedef enum {
    ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
    ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
    ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
    ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
    ACL_DEV_ATTR_WARP_SIZE = 202,                 /* 0 where SIMT is absent */
    ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203, /* 0 where SIMT is absent */
    ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE = 204, /* deprecated spelling of ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE */
    ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
    ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
    ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
    ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
    ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
    ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
    ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
    ACL_DEV_ATTR_SMP_ID = 401,
    ACL_DEV_ATTR_PHY_CHIP_ID = 402,
    ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403, /* deprecated misspelling of ACL_DEV_ATTR_SUPER_POD_DEVICE_ID */
    ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403,
    ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404,
    ACL_DEV_ATTR_SUPER_POD_ID = 405,
    ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406,
    ACL_DEV_ATTR_MAINBOARD_ID = 407,
    ACL_DEV_ATTR_HD_CONNECT_TYPE = 408,     /* one of ACL_HOST_DEVICE_CONNECT_TYPE_* */
    ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409,
    ACL_DEV_ATTR_IS_VIRTUAL = 501,          /* 1 for a virtualized device instance */
    ACL_DEV_ATTR_NPU_ARCH = 601,
} aclrtDevAttr;

/* Features asked about by aclrtGetDeviceCapability; the answer is
 * ACL_DEV_FEATURE_SUPPORT or ACL_DEV_FEATURE_NOT_SUPPORT. */
typedef enum {
    ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,  /* queued AI Core tasks can be updated in place */
    ACL_FEATURE_SYSTEM_MEMORY_ACCESS_HOST_MEMORY = 21,  /* kernels can reach host memory */
} aclrtDevFeatureType;

/* Core kinds whose use can be limited (aclrtSetDeviceResLimit). */
typedef enum {
    ACL_RT_DEV_RES_CUBE_CORE = 0,
    ACL_RT_DEV_RES_VECTOR_CORE = 1,
} aclrtDevResLimitType;

/* Health of a device (aclrtQueryDeviceStatus). */
typedef enum {
    ACL_RT_DEVICE_STATUS_NORMAL = 0,
    ACL_RT_DEVICE_STATUS_ABNORMAL = 1,
    ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;

/* ==========================================================================
 * Structures and unions
 * ========================================================================== */

/* ---- allocation configuration ---- */

/* Value of one allocation attribute; the member follows the attribute kind. */
typedef union {
    uint16_t moduleId; /* ACL_RT_MEM_ATTR_MODULE_ID: owner tag (33 denotes the application) */
    uint32_t deviceId; /* ACL_RT_MEM_ATTR_DEVICE_ID: must be the current device */
    uint32_t vaFlag;   /* ACL_RT_MEM_ATTR_VA_FLAG: host allocations; 1 = same address on device */
    uint8_t rsv[8];
} aclrtMallocAttrValue;

typedef struct {
    aclrtMallocAttrType attr;
    aclrtMallocAttrValue value;
} aclrtMallocAttribute;

typedef struct {
    aclrtMallocAttribute *attrs; /* numAttrs entries */
    size_t numAttrs;
} aclrtMallocConfig;

/* ---- pointer attributes ---- */

typedef struct aclrtMemLocation {
    uint32_t id; /* device (or NUMA node) id; unused for host memory */
    aclrtMemLocationType type;
} aclrtMemLocation;

typedef struct aclrtPtrAttributes {
    aclrtMemLocation location;
    uint32_t pageSize; /* bytes per page backing the allocation */
    uint32_t rsv[4];   /* reserved, zero */
} aclrtPtrAttributes;

/* ---- stream configuration ---- */

/* Public configuration record filled with aclrtSetStreamConfigOpt. */
typedef struct aclrtStreamConfigHandle {
    void *workptr;
    size_t workSize;
    size_t flag;
    uint32_t priority;
} aclrtStreamConfigHandle;

/* Value of a stream attribute; the member follows the attribute id. */
typedef union {
    uint64_t failureMode;       /* ACL_STREAM_ATTR_FAILURE_MODE: 0 continue, 1 stop */
    uint32_t overflowSwitch;    /* ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: 0 or 1 */
    uint32_t userCustomTag;     /* ACL_STREAM_ATTR_USER_CUSTOM_TAG */
    uint32_t cacheOpInfoSwitch; /* ACL_STREAM_ATTR_CACHE_OP_INFO: 0 or 1 */
    uint32_t streamPriority;    /* ACL_STREAM_ATTR_PRIORITY: 0..7 */
    uint32_t reserve[4];
} aclrtStreamAttrValue;

/* ---- binary loading options ---- */

typedef union aclrtBinaryLoadOptionValue {
    uint32_t isLazyLoad;   /* 0 load immediately (default), 1 defer to first lookup */
    uint32_t magic;        /* an ACL_RT_BINARY_MAGIC_ELF_* value; in-memory images only */
    int32_t cpuKernelMode; /* AI CPU kernels: 0 or 1 from a file, 2 from memory */
    uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
    aclrtBinaryLoadOptionType type;
    aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
    aclrtBinaryLoadOption *options; /* numOpt entries */
    size_t numOpt;
} aclrtBinaryLoadOptions;

/* ---- kernel launch configuration ---- */

/* A microsecond count split into two 32-bit halves. */
typedef struct {
    uint32_t timeoutLow;
    uint32_t timeoutHigh;
} aclrtTimeoutUs;

/* Value of a launch attribute; the member follows the attribute id. */
typedef union aclrtLaunchKernelAttrValue {
    uint8_t schemMode; /* SCHEM_MODE: 0 normal, 1 all blocks scheduled together */
    ACL_DEPRECATED_MESSAGE("use dynUBufSize instead")
    uint32_t localMemorySize;    /* old name of dynUBufSize */
    uint32_t dynUBufSize;        /* DYN_UBUF_SIZE: dynamic unified-buffer bytes */
    aclrtEngineType engineType;  /* ENGINE_TYPE */
    uint32_t blockDimOffset;     /* BLOCKDIM_OFFSET */
    uint8_t isBlockTaskPrefetch; /* BLOCK_TASK_PREFETCH: 0 or 1 */
    uint8_t isDataDump;          /* DATA_DUMP: 0 or 1 */
    uint16_t timeout;            /* TIMEOUT: seconds, 0 means no limit */
    aclrtTimeoutUs timeoutUs;    /* TIMEOUT_US: microseconds, 0 means no limit */
    uint8_t enableProfiling;     /* ENABLE_PROFILING: 0 or 1 */
    uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
    aclrtLaunchKernelAttrId id;
    aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

typedef struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr *attrs; /* numAttrs entries */
    size_t numAttrs;
} aclrtLaunchKernelCfg;

/* Pointer patch inside a host argument blob: the 8-byte slot at addrOffset
 * receives the device address of the data at dataOffset. */
typedef struct {
    uint32_t addrOffset;
    uint32_t dataOffset;
} aclrtPlaceHolderInfo;

/* ---- device, event, notify and kernel extras (device-kernel chapter) ---- */

/* aclrtGetDevicesTopo result: exactly one bit is set. */
#define ACL_RT_DEVS_TOPOLOGY_HCCS    0x01ULL /* HCCS link */
#define ACL_RT_DEVS_TOPOLOGY_PIX     0x02ULL /* same PCIe switch */
#define ACL_RT_DEVS_TOPOLOGY_PIB     0x04ULL /* reserved, never reported */
#define ACL_RT_DEVS_TOPOLOGY_PHB     0x08ULL /* through a PCIe host bridge */
#define ACL_RT_DEVS_TOPOLOGY_SYS     0x10ULL /* through the SMP interconnect between NUMA nodes */
#define ACL_RT_DEVS_TOPOLOGY_SIO     0x20ULL /* on-package link between the two dies of one chip */
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL /* through an HCCS switch */

/* Task schedulers of aclrtSetTsDevice. */
typedef enum aclrtTsId {
    ACL_TS_ID_AICORE = 0,   /* the AI Core task scheduler */
    ACL_TS_ID_AIVECTOR = 1, /* the vector-core task scheduler */
    ACL_TS_ID_RESERVED = 2,
} aclrtTsId;

/* Process-wide device resource limits (aclrtDeviceSetLimit / GetLimit). */
typedef enum aclrtDeviceLimit {
    ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,                /* per-thread SIMT stack, bytes */
    ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,       /* per-warp SIMT divergence stack, bytes */
    ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,                /* per-core stack of SIMD kernels, bytes */
    ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3, /* kernel printf buffer per core, bytes */
    ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,          /* SIMT printf buffer, bytes */
} aclrtDeviceLimit;

/* Attributes of aclrtGetFunctionAttribute. */
typedef enum {
    ACL_FUNC_ATTR_KERNEL_TYPE = 1,       /* value: an aclrtKernelType */
    ACL_FUNC_ATTR_KERNEL_RATIO = 2,      /* value: cube:vector core ratio (two uint16_t, vector part first) */
    ACL_FUNC_ATTR_KERNEL_SCHED_MODE = 3, /* value: 0 normal, 1 batch (all blocks start together) */
} aclrtFuncAttribute;

/* Kinds of kernel (ACL_FUNC_ATTR_KERNEL_TYPE). */
typedef enum {
    ACL_KERNEL_TYPE_AICORE = 0,  /* AI Core (coupled chips) */
    ACL_KERNEL_TYPE_CUBE = 1,    /* cube cores only */
    ACL_KERNEL_TYPE_VECTOR = 2,  /* vector cores only */
    ACL_KERNEL_TYPE_MIX = 3,     /* cube and vector cores of an AI Core together */
    ACL_KERNEL_TYPE_AICPU = 100, /* AI CPU kernel */
} aclrtKernelType;

/* How a counting-notify record changes the count. */
typedef enum {
    ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE = 0, /* count = value */
    ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE = 1,       /* count = count + value */
    ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE = 2,    /* count = count | value */
    /* 3 is not a valid mode */
    ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE = 4,   /* count = count & value */
} aclrtCntNotifyRecordMode;

/* When a counting-notify wait is released. */
typedef enum {
    ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE = 0,               /* count <  value */
    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE = 1,              /* count == value */
    ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE = 2,             /* count >  value */
    ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE = 3,    /* count >= value */
    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE = 4, /* (count & value) == value */
} aclrtCntNotifyWaitMode;

/* Operand types an atomic operation supports (bit mask). */
typedef enum aclrtAtomicOperationCapability {
    ACL_RT_ATOMIC_CAPABILITY_SIGNED = 1U << 0,
    ACL_RT_ATOMIC_CAPABILITY_UNSIGNED = 1U << 1,
    ACL_RT_ATOMIC_CAPABILITY_REDUCATION = 1U << 2, /* misspelled, deprecated alias */
    ACL_RT_ATOMIC_CAPABILITY_REDUCTION = 1U << 2,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR8 = 1U << 3,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR16 = 1U << 4,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR32 = 1U << 5,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR64 = 1U << 6,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR128 = 1U << 7,
    ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 = 1U << 8, /* four consecutive 32-bit elements at once */
} aclrtAtomicOperationCapability;

/* Atomic operations asked about by the atomic-capability queries. */
typedef enum aclrtAtomicOperation {
    /* SIMT atomics */
    ACL_RT_ATOMIC_OPERATION_INTEGER_ADD = 0,
    ACL_RT_ATOMIC_OPERATION_INTEGER_MIN = 1,
    ACL_RT_ATOMIC_OPERATION_INTEGER_MAX = 2,
    ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
    ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
    ACL_RT_ATOMIC_OPERATION_AND = 5,
    ACL_RT_ATOMIC_OPERATION_OR = 6,
    ACL_RT_ATOMIC_OPERATION_XOR = 7,
    ACL_RT_ATOMIC_OPERATION_EXCHANGE = 8,
    ACL_RT_ATOMIC_OPERATION_CAS = 9,
    ACL_RT_ATOMIC_OPERATION_FLOAT_ADD = 10,
    ACL_RT_ATOMIC_OPERATION_FLOAT_MIN = 11,
    ACL_RT_ATOMIC_OPERATION_FLOAT_MAX = 12,
    /* SIMD atomics: data-move atomics and scalar atomics */
    ACL_RT_ATOMIC_OPERATION_DMA_ADD = 30,
    ACL_RT_ATOMIC_OPERATION_DMA_MIN = 31,
    ACL_RT_ATOMIC_OPERATION_DMA_MAX = 32,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD = 40,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN = 41,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX = 42,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS = 43,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH = 44,
} aclrtAtomicOperation;

/* A device's globally unique identifier. */
typedef struct aclrtUuid {
    char bytes[16]; /* opaque 16-byte identifier, not NUL-terminated */
} aclrtUuid;

/* What aclrtCntNotifyRecord does to the count. */
typedef struct {
    aclrtCntNotifyRecordMode mode;
    uint32_t value;
} aclrtCntNotifyRecordInfo;

/* What releases an aclrtCntNotifyWaitWithTimeout wait. */
typedef struct {
    aclrtCntNotifyWaitMode mode;
    uint32_t value;
    uint32_t timeout; /* seconds; 0 = wait forever */
    uint8_t isClear;  /* 1: set the count to 0 when the wait is released */
    uint8_t rsv[3];
} aclrtCntNotifyWaitInfo;

/* ---- launch geometry ---- */

#ifndef __BISHENG_CCEC__
/* Three-dimensional extent; every component defaults to 1 in C++. */
typedef struct dim3 {
    uint32_t x;
    uint32_t y;
    uint32_t z;
#ifdef __cplusplus
#if __cplusplus >= 201103L
    constexpr
#endif
    dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#endif
} dim3;
#endif

/* ---- error details ---- */

/* One device memory range hit by an uncorrectable error. */
typedef struct aclrtMemUceInfo {
    void *addr;
    size_t len;
    size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

typedef struct {
    size_t arraySize; /* number of valid entries */
    aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
    aclrtMemUceInfoArray uceInfo;
    aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

/* Fault report of aclrtGetErrorVerbose. */
typedef struct aclrtErrorInfo {
    uint8_t tryRepair; /* 1: a repair attempt is advised */
    uint8_t hasDetail; /* 1: detail is filled in */
    uint8_t reserved[2];
    aclrtErrorType errorType;
    aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

/* ---- memory extras ---- */

/* A location of managed memory (type first, unlike aclrtMemLocation). */
typedef struct aclrtMemManagedLocation {
    aclrtMemManagedLocationType type;
    int32_t id;
} aclrtMemManagedLocation;

/* Device memory held by one software component (aclrtGetMemUsageInfo). */
typedef struct aclrtMemUsageInfo {
    char name[32];        /* component name, NUL-terminated */
    uint64_t curMemSize;  /* bytes held now */
    uint64_t memPeakSize; /* most bytes held */
    size_t reserved[8];
} aclrtMemUsageInfo;

typedef struct {
    aclrtCmoType cmoType;
    uint32_t barrierId;
} aclrtBarrierCmoInfo;

/* Barriers an aclrtCmoWaitBarrier task waits for. */
typedef struct {
    size_t barrierNum; /* 1..ACL_RT_CMO_MAX_BARRIER_NUM */
    aclrtBarrierCmoInfo cmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM];
} aclrtBarrierTaskInfo;

/* Declared locations of the operands of a batch copy. */
typedef struct {
    aclrtMemLocation dstLoc;
    aclrtMemLocation srcLoc;
    uint8_t rsv[16]; /* must be zero */
} aclrtMemcpyBatchAttr;

/* A parameter of a random-number task: inline, or read from device memory. */
typedef struct {
    uint8_t isAddr;         /* 0: value inline, 1: valueOrAddr holds a device address */
    uint8_t valueOrAddr[8]; /* little-endian value of `size` bytes, or an address */
    uint8_t size;           /* bytes of the value */
    uint8_t rsv[6];
} aclrtRandomParaInfo;

typedef struct {
    aclrtRandomParaInfo dropoutRation; /* the drop ratio */
} aclrtDropoutBitmaskInfo;

typedef struct {
    aclrtRandomParaInfo min;
    aclrtRandomParaInfo max;
} aclrtUniformDisInfo;

typedef struct {
    aclrtRandomParaInfo mean;
    aclrtRandomParaInfo stddev;
} aclrtNormalDisInfo;

typedef struct {
    aclrtRandomNumFuncType funcType;
    union {
        aclrtDropoutBitmaskInfo dropoutBitmaskInfo;
        aclrtUniformDisInfo uniformDisInfo;
        aclrtNormalDisInfo normalDisInfo;
    } paramInfo;
} aclrtRandomNumFuncParaInfo;

/* A random-number task (aclrtRandomNumAsync). */
typedef struct {
    aclDataType dataType;
    aclrtRandomNumFuncParaInfo randomNumFuncParaInfo;
    void *randomParaAddr;    /* device scratch for the parameters */
    void *randomResultAddr;  /* device memory receiving the numbers */
    void *randomCounterAddr; /* device memory holding the 128-bit Philox counter */
    aclrtRandomParaInfo randomSeed;
    aclrtRandomParaInfo randomNum; /* how many numbers */
    uint8_t rsv[8];
} aclrtRandomNumTaskInfo;

/* ---- inter-process sharing and virtual memory ---- */

/* Whitelist flags of exported notifies, IPC memory and physical memory
   (the notify flags use bit 0x2, the others bit 0x1, as in CANN). */
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL                /* importers must be whitelisted */
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL               /* importers must be whitelisted */
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL
#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL                   /* importers must be whitelisted */
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL

/* Links of aclrtMemMapSelectedLink. */
#define ACL_RT_MEM_LINK_IDX_0 0U /* SIO */
#define ACL_RT_MEM_LINK_IDX_1 1U /* HCCS */

/* Values of the ACL_RT_IPC_MEM_ATTR_ACCESS_LINK attribute. */
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3

/* Internal to CANN's implementation, declared for source compatibility. */
enum aclrtMemPgType { NORMAL_PAGE_TYPE = 0U, HUGE_PAGE_TYPE, HUGE1G_PAGE_TYPE };
enum aclrtMemType { HBM_TYPE = 0U, DDR_TYPE, P2P_HBM_TYPE, P2P_DDR_TYPE };

/* Attributes of aclrtIpcMemSetAttr. */
typedef enum { ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, } aclrtIpcMemAttrType;

/* Forms of a shareable handle of physical memory. */
typedef enum aclrtMemSharedHandleType {
    ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1, /* a uint64_t, within one host */
    ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,  /* an aclrtMemFabricHandle, across hosts */
} aclrtMemSharedHandleType;

/* Options of aclrtMemGetAllocationGranularity. */
typedef enum aclrtMemGranularityOptions {
    ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
    ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
    ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;

/* Access of a location to a mapped range. */
typedef enum {
    ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
    ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
    ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3,
} aclrtMemAccessFlags;

/* Die-to-die links (aclrtMemMapSetLink). */
typedef enum {
    ACL_RT_MEM_ACCESS_LINK_SIO = 0,
    ACL_RT_MEM_ACCESS_LINK_HCCS = 1,
    ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH = 2,
    ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH = 3,
} aclrtMemLinkType;

/* Processes of another server of a SuperPOD (cross-server whitelists). */
typedef struct {
    uint32_t sdid;  /* SuperPOD device id of the whitelisted processes */
    int32_t *pid;   /* num host pids */
    size_t num;
} aclrtServerPid;

/* A shareable handle usable across hosts (ACL_MEM_SHARE_HANDLE_TYPE_FABRIC). */
typedef struct aclrtMemFabricHandle {
    uint8_t data[128];
} aclrtMemFabricHandle;

/* Properties of physical memory (aclrtMallocPhysical). */
typedef struct aclrtPhysicalMemProp {
    aclrtMemHandleType handleType;         /* ACL_MEM_HANDLE_TYPE_NONE */
    aclrtMemAllocationType allocationType; /* ACL_MEM_ALLOCATION_TYPE_PINNED */
    aclrtMemAttr memAttr;
    aclrtMemLocation location;
    uint64_t reserve;                      /* kept and reported back */
} aclrtPhysicalMemProp;

/* The access of one location (aclrtMemSetAccess). */
typedef struct {
    aclrtMemAccessFlags flags;
    aclrtMemLocation location; /* HOST or DEVICE */
    uint8_t rsv[12];           /* reserved, zero */
} aclrtMemAccessDesc;

/* Inter-process handle of an ACL_EVENT_IPC event: plain data that may be
   copied, stored in a file and read back in another process. */
typedef struct aclrtIpcEventHandle {
    char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

/* Internal to CANN's implementation, declared for source compatibility. */
struct MemAttrMapping {
    uint32_t pgType;
    uint32_t memType;
    bool isHostAlloc;
    aclrtMemAttr memAttr;
};

/* ---- versions and utilization ---- */

/* Version strings of a software package (deprecated aclsysGetCANNVersion). */
typedef struct aclCANNPackageVersion {
    char version[ACL_PKG_VERSION_MAX_SIZE];
    char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

/* Device utilization figures, in percent. */
typedef struct aclrtUtilizationInfo {
    int32_t cubeUtilization;
    int32_t vectorUtilization;
    int32_t aicpuUtilization;
    int32_t memoryUtilization;
    aclrtUtilizationExtendInfo *utilizationExtend; /* reserved */
} aclrtUtilizationInfo;

/* ---- init/finalize callbacks, compute groups (miscellaneous functions) ---- */

/* Owner of an init/finalize callback (aclInitCallbackRegister). */
typedef enum aclRegisterCallbackType {
    ACL_REG_TYPE_ACL_MODEL = 0,       /* model management library */
    ACL_REG_TYPE_ACL_OP_EXECUTOR = 1, /* single-operator execution library */
    ACL_REG_TYPE_ACL_OP_CBLAS = 2,    /* CBLAS part of single-operator execution */
    ACL_REG_TYPE_ACL_OP_COMPILER = 3, /* single-operator compiler */
    ACL_REG_TYPE_ACL_TDT_CHANNEL = 4, /* tensor data transfer */
    ACL_REG_TYPE_ACL_TDT_QUEUE = 5,   /* shared queues */
    ACL_REG_TYPE_ACL_DVPP = 6,        /* media processing */
    ACL_REG_TYPE_ACL_RETR = 7,        /* vector retrieval */
    ACL_REG_TYPE_OTHER = 0xFFFF,      /* user-defined; the only type that accepts several callbacks */
} aclRegisterCallbackType;

/* Called by aclInit with the configuration file's text (len bytes, NUL-terminated). */
typedef aclError (*aclInitCallbackFunc)(const char *configStr, size_t len, void *userData);
/* Called by aclFinalize. */
typedef aclError (*aclFinalizeCallbackFunc)(void *userData);

/* Attributes of a compute group (aclrtGetGroupInfoDetail); every value is 4 bytes. */
typedef enum aclrtGroupAttr {
    ACL_GROUP_AICORE_INT = 0,  /* AI Cores of the group (uint32_t) */
    ACL_GROUP_AIV_INT = 1,     /* Vector Cores of the group (uint32_t) */
    ACL_GROUP_AIC_INT = 2,     /* AI CPU threads, not AI Cores (uint32_t) */
    ACL_GROUP_SDMANUM_INT = 3, /* async-copy (SDMA) channels (uint32_t) */
    ACL_GROUP_ASQNUM_INT = 4,  /* streams schedulable at once, <= 32 (uint32_t) */
    ACL_GROUP_GROUPID_INT = 5, /* group id (int32_t) */
} aclrtGroupAttr;

/* ==========================================================================
 * Functions
 * ========================================================================== */

/* ---- Initialization, version, error message ---------------------------- */

/* Initializes the library, optionally reading a JSON configuration file. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);

/* Tears the library down regardless of how often aclInit was called. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/* Drops one aclInit reference and tears down when none is left. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);

/* Writes the version string of the named software package. */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr);

/* Writes the version of the named software package as one integer. */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum);

/* Reports the API version triple; superseded by the aclsys version queries. */
ACL_FUNC_VISIBILITY ACL_DEPRECATED_MESSAGE("use aclsysGetVersionStr or aclsysGetVersionNum instead")
aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

/* Returns, and then forgets, the text describing recent failures. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

/* ---- Device management ---------------------------------------------------- */

/* Makes the device's default context current on the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);

/* Undoes one aclrtSetDevice; the last one releases the device's resources. */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);

/* Releases the device's resources at once, whatever the set count. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);

/* Reports the device of the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);

/* Reports how many devices are visible. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);

/* Reports whether the program runs on a host or on the device itself. */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);

/* Blocks until all work queued so far on the current context's streams has finished. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);

/* As aclrtSynchronizeDevice, waiting at most timeout ms (-1: no limit). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

/* Reports one attribute (aclrtDevAttr) of a device; the device need not be set. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value);

/* Reports whether a device supports a feature (ACL_DEV_FEATURE_SUPPORT / _NOT_SUPPORT). */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                                      int32_t *value);

/* Numeric range of stream priorities: least (lowest, 7) and greatest (highest, 0). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority);

/* Reports whether deviceId can access the memory of peerDeviceId. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId,
                                                      int32_t peerDeviceId);

/* Enables access from the current device to peerDeviceId's memory (flags must be 0). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);

/* Disables access from the current device to peerDeviceId's memory. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

/* Reports whether access from deviceId to peerDeviceId is enabled (1) or not (0). */
ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status);

/* Reports how many cores of a kind the device's launches may use. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value);

/* Limits how many cores of a kind the device's launches may use (1 .. the device's count). */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);

/* Removes the device's core limits. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);

/* The core limit in effect for the calling thread's current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value);

/* Reports how busy a device is, in percent. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo);

/* Reports whether a device is healthy. */
ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus);

/* Reports whether kernels built for socVersion run on this process's devices (same architecture). */
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible);

/* ---- Context management --------------------------------------------------- */

/* Creates a context on a device with its own default stream and makes it current. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);

/* Destroys a context made by aclrtCreateContext, after waiting for its streams. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);

/* Makes a live context the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);

/* Reports the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);

/* Reports the default stream of the current context as a handle (not to be destroyed). */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream);

/* Reports whether a device's default context exists (flags must be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active);

/* ---- Stream management ---------------------------------------------------- */

/* Creates a stream in the current context with default settings. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);

/* Waits for the stream's queued work, then destroys the stream. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);

/* Destroys the stream, discarding work that has not started yet. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);

/* Blocks until all work submitted so far to the stream has finished. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

/* Makes the stream's later work wait for the event's current capture. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);

/* Creates a stream with a priority (0 highest .. 7, clamped) and ACL_STREAM_* flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);

/* Allocates a zeroed stream configuration (NULL on failure). */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void);

/* Sets one field of a stream configuration from valueSize bytes at attrValue. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                                     const void *attrValue, size_t valueSize);

/* Creates a stream from a configuration (NULL: defaults). */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle);

/* Frees a stream configuration; streams made from it are unaffected. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle);

/* The stream's priority, flags and id (NULL: the default stream). */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority);
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags);
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId);

/* Whether all work submitted to the stream has finished (non-blocking). */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);

/* As aclrtSynchronizeStream, waiting at most timeout ms (-1: no limit). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);

/* ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE for the streams of the stream's context. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);

/* ---- Event management ----------------------------------------------------- */

/* Creates an event with sync (stream wait) and timestamp capability. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);

/* Creates an event with the capabilities of flag (ACL_EVENT_SYNC, _TIME_LINE, ...). */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);

/* Creates an event not bound to a hardware event; never-recorded waits are no-ops. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag);

/* Destroys an event; work that still uses it completes normally. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);

/* Enqueues a record: the event captures the work queued before it on the stream. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);

/* Enqueues a reset of the event to its not-recorded state. */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);

/* Whether the event's captured work has completed. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);

/* Blocks until the event's captured work has completed. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);

/* As aclrtSynchronizeEvent, waiting at most timeout ms (-1: no limit). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);

/* Milliseconds between the records of two completed events. */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

/* Time the event's record ran, in microseconds. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp);

/* ---- Memory management ---------------------------------------------------- */

/* Allocates device memory on the current device (size rounded up to 32 bytes, plus 32). */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/* Allocates device memory, size rounded up to 32 bytes (no extra padding). */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/* Frees memory from aclrtMalloc or aclrtMallocAlign32. */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);

/* Synchronous copy of count bytes; destMax is the capacity of dst. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind);

/* Enqueues a copy on the stream; with pageable host memory it has completed on return. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);

/* Sets count bytes to the low byte of value (synchronous). */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);

/* Enqueues a fill of count bytes with the low byte of value. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);

/* Free and total bytes of a kind of memory on the current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

/* Classifies a pointer: device, runtime host, or unregistered memory. */
ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes);

/* Allocates page-locked host memory. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);

/* Frees memory obtained from aclrtMallocHost. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);

/* Maps a host range for device access and returns its device address. */
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type,
                                               void **devPtr);

/* Registers a host range for mapping and/or page locking, per ACL_HOST_REG_* flags. */
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag);

/* Looks up the device address of a mapped host pointer. */
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag);

/* Removes the registration whose base address is ptr. */
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr);

/* ---- Memory extras: configured allocation and queries --------------------- */

/* As aclrtMalloc: ordinary cache-coherent device memory. */
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/* Device memory with attributes (size rounded up to 32 bytes, no padding). */
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig *cfg);

/* As aclrtMallocWithCfg, for memory read by scheduler tasks (descriptors). */
ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                         aclrtMallocConfig *cfg);

/* Page-locked host memory with attributes (ACL_RT_MEM_ATTR_VA_FLAG: same address on the device). */
ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg);

/* Synchronises the current device, then frees like aclrtFree. */
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr);

/* Synchronises the current device, then frees like aclrtFreeHost. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr);

/* Device memory of the process on a device, per software component. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum,
                                                  size_t *outputNum);

/* *checkResult = 1 when every address lies in memory of one of the ACL_RT_MEM_TYPE_* classes. */
ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType, uint32_t *checkResult,
                                               uint32_t reserve);

/* Whether an engine of the device can reach mapped host memory. */
ACL_FUNC_VISIBILITY aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                                         aclrtHostMemMapCapability *capabilities);

/* ---- Memory extras: cache maintenance --------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithBarrier(void *src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                                      aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo, aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtCmoGetDescSize(size_t *size);
ACL_FUNC_VISIBILITY aclError aclrtCmoSetDesc(void *cmoDesc, void *src, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithDesc(void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
                                                   const void *reserve);

/* ---- Memory extras: managed (unified) memory -------------------------------- */

/* One address valid for the host and for every device (flag ACL_RT_MEM_ATTACH_GLOBAL). */
ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size,
                                                   aclrtMemManagedAdviseType advise, aclrtMemManagedLocation location);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr,
                                                    size_t size, void *data, size_t dataSize);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes, size_t numAttributes,
                                                     const void *ptr, size_t size, void **data, size_t *dataSizes);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size,
                                                          aclrtMemManagedLocation location, uint32_t flags,
                                                          aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
                                                               aclrtMemManagedLocation *prefetchLocs,
                                                               size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                               uint64_t flags, aclrtStream stream);

/* ---- Memory extras: 2-D, batch and descriptor copies, 32-bit fills ------------ */

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                                size_t height, aclrtMemcpyKind kind, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                              size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                              size_t numAttrs, size_t *failIndex);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                                size_t numAttrs);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                   size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                                   size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
                                                   aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                     size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                                     size_t *attrsIndexes, size_t numAttrs, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize);
ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr,
                                                size_t count, void *config);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
                                                        const void **src, size_t count, size_t srcDataOffset,
                                                        aclrtMemcpyKind kind, aclrtStream stream);
ACL_DEPRECATED_MESSAGE("aclrtMemcpyAsyncWithCondition is deprecated, use aclrtMemcpyAsync instead")
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src, size_t count,
                                                           aclrtMemcpyKind kind, aclrtStream stream);
/* Fills N 32-bit words with value. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N);
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
                                                 aclrtStream stream);

/* ---- Memory extras: device symbols ------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclrtGetSymbolAddress(const void *symbol, void **devPtr);
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolSize(const void *symbol, size_t *size);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbol(void *dst, size_t dstMax, const void *symbol, size_t count,
                                                   size_t offset, aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbolAsync(void *dst, size_t dstMax, const void *symbol, size_t count,
                                                        size_t offset, aclrtMemcpyKind kind, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                                 aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                                      aclrtMemcpyKind kind, aclrtStream stream);

/* ---- Memory extras: built-in device tasks ----------------------------------- */

/* dst[i] = dst[i] (kind) src[i] for count bytes of elements of type, in stream order. */
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                                              aclDataType type, aclrtStream stream, void *reserve);
/* Philox4x32-10 random numbers of a distribution, in stream order. */
ACL_FUNC_VISIBILITY aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream,
                                                 void *reserve);

/* ---- Kernel loading and execution ----------------------------------------- */

/* Loads a kernel binary from a file for the current context's device. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);

/* Finds a kernel entry of a loaded binary by name. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle);

/* Unloads a binary; its function handles become invalid. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

/* Device address and size of a loaded binary's image. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void **binAddr, size_t *binSize);
/* Device address and size of a global variable of a loaded binary. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char *name, void **dptr,
                                                  size_t *size);

/* Starts the calling thread's argument list for a kernel. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle);

/* Copies one parameter value to the end of an argument list. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle);

/* Marks an argument list as complete and ready for launching. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);

/* Appends an 8-byte slot that receives, at launch, the device address of
 * the data area later reserved with aclrtKernelArgsGetPlaceHolderBuffer. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                                              aclrtParamHandle *paramHandle);

/* Reserves dataSize bytes of runtime-owned data for a placeholder (after
 * all parameters, 8-byte aligned) and returns its host address to fill. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                                                 aclrtParamHandle paramHandle, size_t dataSize,
                                                                 void **bufferAddr);

/* Overwrites an appended parameter (same size); finalize again before the
 * next launch. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                       void *param, size_t paramSize);

/* Queues a kernel launch that takes its arguments from an argument list. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle, void *reserve);

/* Queues a kernel launch whose argument blob already lies in device memory. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                               const void *argsData, size_t argsSize, aclrtStream stream);

/* aclrtLaunchKernel with launch attributes. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                 const void *argsData, size_t argsSize, aclrtLaunchKernelCfg *cfg,
                                                 aclrtStream stream);

/* Queues a launch with an argument blob in host memory (copied at the call);
 * each placeholder entry points a slot of the copy at data inside it. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                           aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                           void *hostArgs, size_t argsSize,
                                                           aclrtPlaceHolderInfo *placeHolderArray,
                                                           size_t placeHolderNum);

/* ---- Device identity, kernel queries and extra launches (device-kernel chapter) ---- */

/* Selects a task scheduler; every simulated product has one (no effect). */
ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId);

/* Conversions between user ids (ASCEND_RT_VISIBLE_DEVICES), logical and physical ids.
 * The two "...LogicDevId...Phy..." functions work on user ids, as in CANN. */
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid);
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId);

/* Identity of a device: UUID, PCI address ("%04x:%02x:%02x.%x"), and the reverse lookup. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId);

/* How two devices are connected: one ACL_RT_DEVS_TOPOLOGY_* bit. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value);

/* Operand types (aclrtAtomicOperationCapability bits) of atomics on host memory / a peer's memory. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t *capabilities,
                                                                  const aclrtAtomicOperation *operations,
                                                                  const uint32_t count, int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t *capabilities,
                                                                 const aclrtAtomicOperation *operations,
                                                                 const uint32_t count, int32_t srcDeviceId,
                                                                 int32_t dstDeviceId);

/* Process-wide device resource limits. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value);

/* System options of the current context. */
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);
ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value);

/* Stream attributes (NULL stream: the default stream where the product allows it). */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);

/* Streams that can still be created on the current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t *streamCount);

/* Event records and stream waits with flags (ACL_EVENT_RECORD_*, ACL_EVENT_WAIT_*) and timeouts (seconds). */
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                                          uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout);

/* Whether stream waits on the event are still pending. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status);

/* Whether the event's latest record has executed (never recorded: complete). */
ACL_DEPRECATED_MESSAGE("aclrtQueryEvent is deprecated, use aclrtQueryEventStatus instead")
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status);

/* The event's id (unique among the live events of its device). */
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId);

/* Events that can still be created on the current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount);

/* Process-wide timeout (seconds, 0 = none) of stream waits on events enqueued afterwards. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout);

/* Counting notifies (Ascend 950 family). */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                                                  aclrtCntNotifyRecordInfo *info);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                                           aclrtCntNotifyWaitInfo *info);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId);

/* Kernel images in host memory: a descriptor for aclrtBinaryLoad, and loading from memory. */
ACL_FUNC_VISIBILITY aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen);
ACL_FUNC_VISIBILITY aclError aclrtDestroyBinary(aclrtBinary binary);
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle *binHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                                     const aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);

/* Finds a kernel by its function-entry key. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                                           aclrtFuncHandle *funcHandle);

/* Registers a CPU kernel of a CPU-kernel library (CPU_KERNEL_MODE 2). */
ACL_FUNC_VISIBILITY aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char *funcName,
                                                  const char *kernelName, aclrtFuncHandle *funcHandle);

/* The function handle of a kernel compiled into the program, from its host address. */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncBySymbol(const void *symbol, aclrtFuncHandle *funcHandle);

/* Function queries. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle);
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char *name);
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                                       int64_t *attrValue);
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void **aicAddr, void **aivAddr);
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t *aicSize, size_t *aivSize);
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamCount(const void *func, size_t *paramCount);
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                                       size_t *paramSize);
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetAvailDynUbufPerBlock(void *func, uint32_t flags,
                                                                  size_t *dynamicUbufSize);

/* Device address of the current device's cube/vector synchronisation area (A2/A3). */
ACL_FUNC_VISIBILITY aclError aclrtGetHardwareSyncAddr(void **addr);

/* Argument lists in caller memory. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                                       size_t *actualArgsSize);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                                          void *userHostMem, size_t actualArgsSize);

/* Launches with an array of pointers to the parameter values, and SIMT launches. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(void *func, uint32_t numBlocks, aclrtStream stream,
                                                            aclrtLaunchKernelCfg *cfg, void **args);
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim,
                                                                size_t dynUbufSize, aclrtStream stream,
                                                                aclrtLaunchKernelCfg *cfg, void **args);
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithHostArgs(void *func, dim3 gridDim, dim3 blockDim,
                                                               size_t dynUbufSize, aclrtStream stream,
                                                               aclrtLaunchKernelCfg *cfg, void *hostArgs,
                                                               size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray,
                                                               size_t placeHolderNum);

/* ---- Host callbacks ------------------------------------------------------- */

/* Binds the calling-side thread threadId (pthread_self value) to process the stream's callbacks. */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);

/* Removes the binding made by aclrtSubscribeReport. */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);

/* Runs at most one pending callback of the calling thread's streams, waiting up to timeout ms. */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);

/* Enqueues fn(userData) to run on the stream's subscribed thread. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream);

/* Enqueues fn(args) on a host thread; later work of the stream waits for it. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);

/* Binds a thread to run the stream's host functions (instead of a runtime thread). */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/* Removes the binding made by aclrtSubscribeHostFunc. */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/* Runs at most one pending host function of the calling thread's streams. */
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);

/* ---- Notifies and stream memory operations --------------------------------- */

/* Creates a notify on the current context's device (ACL_NOTIFY_* flag). */
ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag);

/* Destroys a notify; work already queued on it still completes. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);

/* Sets the notify when the stream reaches this point. */
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);

/* Holds the stream until the notify is set, then clears it. timeout in
 * milliseconds, 0 = no limit; an expired wait fails the stream's work. */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);

/* Returns the notify's id (unique on its device). */
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId);

/* Writes a 64-bit value to device memory in stream order (flag: 0). */
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/* Holds the stream until the 64-bit value at devAddr satisfies the
 * ACL_STREAM_WAIT_VALUE_* condition given as flag. */
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/* ---- Inter-process sharing and virtual memory ------------------------------- */

/* IPC memory: export a device allocation under a key, whitelist importers,
   import by key in another process, close. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len,
                                                     uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids,
                                                             size_t num);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr);
/* The calling process's id as whitelists expect it. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid);

/* IPC notifies. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num);
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid *serverPids,
                                                                size_t num);
ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num);

/* IPC events (created with ACL_EVENT_IPC). */
ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event);

/* Virtual memory: physical allocations, address reservations, mappings. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
                                                              aclrtMemGranularityOptions option,
                                                              size_t *granularity);
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                                                 const aclrtPhysicalMemProp *prop, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                                    uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment,
                                                              void *expectPtr, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr);
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset,
                                                 aclrtDrvMemHandle handle, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag);
ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                                       aclrtPhysicalMemProp *prop);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize);

/* Shareable handles: physical memory across processes. */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle,
                                                             aclrtMemHandleType handleType, uint64_t flags,
                                                             uint64_t *shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
                                                               aclrtMemSharedHandleType shareType,
                                                               void *shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid,
                                                             size_t pidNum);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle,
                                                               aclrtMemSharedHandleType shareType, int32_t *pid,
                                                               size_t pidNum);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                               aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle,
                                                                 aclrtMemSharedHandleType shareType,
                                                                 uint64_t flags, aclrtDrvMemHandle *handle);

/* Peer mapping and link selection. */
ACL_FUNC_VISIBILITY aclError aclrtMemP2PMap(void *devPtr, size_t size, int32_t dstDevId, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtMemMapSelectedLink(void *virPtrDst, size_t size, void *virPtrSrc,
                                                     uint32_t linkIdx);
ACL_FUNC_VISIBILITY aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink);

/* ---- Dump configuration (acl-rt-misc.md §3.3) ------------------------------- */

/* Opens a dump session (needs aclInit). */
ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);
/* Applies the "dump" member of a JSON file (acl.json format). */
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath);
/* Switches every dump off and closes the session. */
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);

/* ---- Error query ---------------------------------------------------------- */

/* Returns the calling thread's last runtime error and clears it. */
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

/* Returns the calling thread's last runtime error and keeps it. */
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);

/* Describes the newest device fault (ACL_RT_NO_ERROR when there was none). */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo);

/* ---- Miscellaneous: init/finalize callbacks ---------------------------------- */

/* Registers a callback that aclInit runs (and runs it now if already initialized). */
ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                                     void *userData);

/* Removes the first init callback of that type and function. */
ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);

/* Registers a callback that aclFinalize runs. */
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type,
                                                         aclFinalizeCallbackFunc cbFunc, void *userData);

/* Removes the first finalize callback of that type and function. */
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                                           aclFinalizeCallbackFunc cbFunc);

/* ---- Miscellaneous: shared buffers (mbuf) ------------------------------------- */

/* Allocates an mbuf with a data area of size bytes (data length 0). */
ACL_FUNC_VISIBILITY aclError aclrtAllocBuf(aclrtMbuf *buf, size_t size);

/* Frees an mbuf (a chain's first mbuf frees the whole chain). */
ACL_FUNC_VISIBILITY aclError aclrtFreeBuf(aclrtMbuf buf);

/* Reports the data area's address and size. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufData(const aclrtMbuf buf, void **dataPtr, size_t *size);

/* Reports how many bytes of the data area hold valid data. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t *len);

/* Records how many bytes of the data area hold valid data. */
ACL_FUNC_VISIBILITY aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len);

/* Copies size bytes at offset of the mbuf's user data (96 bytes) to dataPtr. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufUserData(const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset);

/* Copies size bytes from dataPtr into the mbuf's user data at offset. */
ACL_FUNC_VISIBILITY aclError aclrtSetBufUserData(aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset);

/* Creates a new mbuf sharing buf's data area. */
ACL_FUNC_VISIBILITY aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf *newBuf);

/* Appends buf (and its chain) to the chain starting at headBuf. */
ACL_FUNC_VISIBILITY aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf);

/* Reports the mbuf at position index of the chain starting at headBuf. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf *buf);

/* Reports how many mbufs the chain holds from headBuf on. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t *num);

/* ---- Miscellaneous: compute groups --------------------------------------------- */

/* Selects the compute group the current device's work uses. */
ACL_FUNC_VISIBILITY aclError aclrtSetGroup(int32_t groupId);

/* Reports how many groups the current context can use. */
ACL_FUNC_VISIBILITY aclError aclrtGetGroupCount(uint32_t *count);

/* Allocates an array with one element per group (NULL when there are none). */
ACL_FUNC_VISIBILITY aclrtGroupInfo *aclrtCreateGroupInfo(void);

/* Frees an array from aclrtCreateGroupInfo. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyGroupInfo(aclrtGroupInfo *groupInfo);

/* Fills the array with every group, in ascending id order. */
ACL_FUNC_VISIBILITY aclError aclrtGetAllGroupInfo(aclrtGroupInfo *groupInfo);

/* Reads one attribute (aclrtGroupAttr) of element groupIndex of a filled array. */
ACL_FUNC_VISIBILITY aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo *groupInfo, int32_t groupIndex,
                                                     aclrtGroupAttr attr, void *attrValue, size_t valueLen,
                                                     size_t *paramRetSize);

/* ---- Miscellaneous: stream resource limits ------------------------------------- */

/* Sets a stream's core limit of one kind (0 .. the device's cores of that kind). */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value);

/* Reports a stream's core limit, else the device limit in force. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value);

/* Clears both core limits of a stream. */
ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream);

/* Makes the calling thread use the stream's core limits. */
ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream);

/* Ends aclrtUseStreamResInCurrentThread for that stream. */
ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream);

/* ---- Miscellaneous: system parameters and CANN version --------------------------- */

/* Sets a process-wide system option. */
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);

/* Reports a process-wide system option (0 if never set). */
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value);

/* Reports the version of an installed software package, split into parts. */
ACL_DEPRECATED_MESSAGE("aclsysGetCANNVersion is deprecated, use aclsysGetVersionStr and aclsysGetVersionNum instead")
ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version);

/* ---- Reliability: kernel execution timeouts (acl-rt-reliability.md 3.4) ---------- */

/* Sets the process-wide kernel execution timeout in seconds (0: the maximum). */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);

/* Sets it in milliseconds (at most 1 000 000; 0: never in millisecond mode, else the maximum). */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout);

/* Sets it in microseconds and reports the effective value after rounding to whole timeout units. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout);

/* Reports the timeout unit in microseconds. */
ACL_FUNC_VISIBILITY aclError aclrtGetOpTimeOutInterval(uint64_t *interval);

/* Reports the effective process-wide kernel execution timeout in milliseconds. */
ACL_FUNC_VISIBILITY aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs);

/* ---- Reliability: exception callbacks and exception information (acl-rt-reliability.md 3.2) */

/* Sets the process-wide exception callback slot (NULL clears it). */
ACL_FUNC_VISIBILITY ACL_DEPRECATED_MESSAGE("aclrtSetExceptionInfoCallback is deprecated, use aclrtExceptionInfoCallbackRegister and aclrtExceptionInfoCallbackUnregister instead")
aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);

/* Adds a callback called for every failed task of the process. */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);

/* Removes a callback added by aclrtExceptionInfoCallbackRegister. */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);

/* Fields of the exception information passed to a callback (0xFFFFFFFF for NULL). */
ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info);

/* The failed kernel's argument block and its size. */
ACL_FUNC_VISIBILITY aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr,
                                                           uint32_t *devArgsLen);

/* The failed kernel's function handle. */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info, aclrtFuncHandle *func);

/* Sets the callback for failures of the kernels of one loaded binary. */
ACL_FUNC_VISIBILITY aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle, aclrtOpExceptionCallback callback,
                                                             void *userData);

/* The id of the last task the calling thread submitted (0xFFFFFFFF: none). */
ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId);
/* ---- Reliability: execution control, memory errors, snapshots (acl-rt-reliability.md) ---- */

typedef enum aclrtStreamState {
    ACL_RT_STREAM_STATE_CREATE_POST = 1, /* after a stream has been created */
    ACL_RT_STREAM_STATE_DESTROY_PRE = 2, /* before a stream is destroyed */
} aclrtStreamState;

typedef void (*aclrtStreamStateCallback)(aclrtStream stm, aclrtStreamState state, void *args);

typedef enum aclrtDeviceState {
    ACL_RT_DEVICE_STATE_SET_PRE = 0,
    ACL_RT_DEVICE_STATE_SET_POST = 1,
    ACL_RT_DEVICE_STATE_RESET_PRE = 2,
    ACL_RT_DEVICE_STATE_RESET_POST = 3,
} aclrtDeviceState;

typedef void (*aclrtDeviceStateCallback)(int32_t deviceId, aclrtDeviceState state, void *args);

typedef enum aclrtDeviceTaskAbortStage {
    ACL_RT_DEVICE_TASK_ABORT_PRE = 0,  /* before running tasks are killed */
    ACL_RT_DEVICE_TASK_ABORT_POST = 1, /* after the device has been cleaned */
} aclrtDeviceTaskAbortStage;

typedef int32_t (*aclrtDeviceTaskAbortCallback)(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout,
                                                void *args);

typedef enum aclrtSnapShotStage {
    ACL_RT_SNAPSHOT_LOCK_PRE = 0,
    ACL_RT_SNAPSHOT_BACKUP_PRE = 1,
    ACL_RT_SNAPSHOT_BACKUP_POST = 2,
    ACL_RT_SNAPSHOT_RESTORE_PRE = 3,
    ACL_RT_SNAPSHOT_RESTORE_POST = 4,
    ACL_RT_SNAPSHOT_UNLOCK_POST = 5,
} aclrtSnapShotStage;

typedef uint32_t (*aclrtSnapShotCallBack)(int32_t deviceId, void *args);

typedef struct aclrtSnapShotBackupArgs {
    uint32_t backupFlags;
    char reserved[60];
} aclrtSnapShotBackupArgs;

typedef struct aclrtSnapShotRestoreArgs {
    uint32_t restoreFlags;
    char reserved[60];
} aclrtSnapShotRestoreArgs;

typedef enum aclrtProcessState {
    ACL_RT_PROCESS_STATE_RUNNING = 0,
    ACL_RT_PROCESS_STATE_LOCKED,
} aclrtProcessState;

/* Stops the task running on a stream; queued tasks stay queued, unrun. */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);

/* Kills the running task and discards every queued one; the stream is usable again. */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);

/* Stops every task of the process on a device and clears its failure state (timeout in ms, 0: none). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout);

/* Registers (callback NULL: removes) a device task abort observer under a unique name. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceTaskAbortCallback(const char *regName, aclrtDeviceTaskAbortCallback callback,
                                                             void *args);

/* Registers (callback NULL: removes) an observer of stream creation and destruction. */
ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback,
                                                         void *args);

/* Registers (callback NULL: removes) an observer of device set and reset. */
ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback,
                                                         void *args);

/* Lists device ranges hit by uncorrectable memory errors (never any on the simulated device). */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize,
                                                size_t *retSize);

/* Repairs the listed corrupted ranges. */
ACL_FUNC_VISIBILITY aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize);

/* Attempts to repair the device fault aclrtGetErrorVerbose described. */
ACL_FUNC_VISIBILITY aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo *errorInfo);

/* Process snapshot: lock, back up device memory, restore it, unlock. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessLock(int pid, void *reserve);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessUnlock(int pid, void *reserve);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs *args);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs *args);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback,
                                                           void *args);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback);

/* Attaches operator information to the calling thread's last task (captured streams only). */
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskOpInfo(const void *const infoPtr, const size_t infoSize);
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskExtendInfo(const char *const extendInfoPtr, const size_t infoSize);

/* Enqueues a profiling marker carrying up to 18 bytes of user data. */
ACL_FUNC_VISIBILITY aclError aclrtProfTrace(void *userdata, int32_t length, aclrtStream stream);

/* Writes back and invalidates the device's L2 cache (rsv must be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void *rsv);
/* ==========================================================================
 * Model running instances (task graphs), labels and stream switching
 * ========================================================================== */

/* flags for aclmdlRIDebugJsonPrint */
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

typedef enum {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
} aclmdlRICaptureMode;

typedef enum {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

typedef enum aclmdlRITaskType {
    ACL_MODEL_RI_TASK_DEFAULT,
    ACL_MODEL_RI_TASK_KERNEL,
    ACL_MODEL_RI_TASK_EVENT_RECORD,
    ACL_MODEL_RI_TASK_EVENT_WAIT,
    ACL_MODEL_RI_TASK_EVENT_RESET,
    ACL_MODEL_RI_TASK_VALUE_WRITE,
    ACL_MODEL_RI_TASK_VALUE_WAIT,
} aclmdlRITaskType;

typedef struct aclmdlRIKernelTaskParams {
    aclrtFuncHandle funcHandle;
    aclrtLaunchKernelCfg *cfg;
    void *args;
    uint32_t isHostArgs;
    size_t argsSize;
    uint32_t numBlocks;
    uint32_t rsv[10];
} aclmdlRIKernelTaskParams;

typedef struct aclmdlRIEventRecordTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t recordFlag;
} aclmdlRIEventRecordTaskParams;

typedef struct aclmdlRIEventWaitTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t waitFlag;
} aclmdlRIEventWaitTaskParams;

typedef struct aclmdlRIEventResetTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t resetFlag;
} aclmdlRIEventResetTaskParams;

typedef struct aclmdlRIValueWriteTaskParams {
    void *devAddr;
    uint64_t value;
} aclmdlRIValueWriteTaskParams;

typedef struct aclmdlRIValueWaitTaskParams {
    void *devAddr;
    uint64_t value;
    uint32_t flag;
} aclmdlRIValueWaitTaskParams;

typedef struct aclmdlRITaskParams {
    aclmdlRITaskType type;
    uint32_t rsv0[3];
    aclrtTaskGrp taskGrp;
    void *opInfoPtr;
    size_t opInfoSize;
    uint8_t rsv1[32];

    union {
        uint8_t rsv2[128];
        struct aclmdlRIKernelTaskParams kernelTaskParams;
        struct aclmdlRIEventRecordTaskParams eventRecordTaskParams;
        struct aclmdlRIEventWaitTaskParams eventWaitTaskParams;
        struct aclmdlRIEventResetTaskParams eventResetTaskParams;
        struct aclmdlRIValueWriteTaskParams valueWriteTaskParams;
        struct aclmdlRIValueWaitTaskParams valueWaitTaskParams;
    };
} aclmdlRITaskParams;

typedef enum {
    ACL_RT_EQUAL = 0,
    ACL_RT_NOT_EQUAL,
    ACL_RT_GREATER,
    ACL_RT_GREATER_OR_EQUAL,
    ACL_RT_LESS,
    ACL_RT_LESS_OR_EQUAL
} aclrtCondition;

typedef enum {
    ACL_RT_SWITCH_INT32 = 0,
    ACL_RT_SWITCH_INT64 = 1,
} aclrtCompareDataType;

typedef enum {
    ACL_RT_UPDATE_RANDOM_TASK = 1,
    ACL_RT_UPDATE_AIC_AIV_TASK,
} aclrtUpdateTaskAttrId;

typedef struct {
    void *srcAddr;
    size_t size;
    uint32_t rsv[4];
} aclrtRandomTaskUpdateAttr;

typedef struct {
    void *binHandle;
    void *funcEntryAddr;
    void *blockDimAddr;
    uint32_t rsv[4];
} aclrtAicAivTaskUpdateAttr;

typedef union {
    aclrtRandomTaskUpdateAttr randomTaskAttr;
    aclrtAicAivTaskUpdateAttr aicAivTaskAttr;
} aclrtUpdateTaskAttrVal;

typedef struct {
    aclrtUpdateTaskAttrId id;
    aclrtUpdateTaskAttrVal val;
} aclrtTaskUpdateInfo;

typedef enum {
    ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT = 1,
} aclmdlRICondHandleFlag;

typedef enum {
    ACL_MODEL_RI_COND_TYPE_IF = 0,
    ACL_MODEL_RI_COND_TYPE_WHILE = 1,
    ACL_MODEL_RI_COND_TYPE_SWITCH = 2,
} aclmdlRICondTaskType;

typedef struct tagAclmdlRICondTaskParams {
    aclmdlRICondHandle handle;
    aclmdlRICondTaskType type;
    uint32_t size;
    aclmdlRI *modelRIArray;
} aclmdlRICondTaskParams;

/* Capture: tasks enqueued on a capturing stream are recorded into an RI. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                                           aclmdlRICaptureMode mode);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);

/* Conditional tasks. */
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                                      aclmdlRICondHandleFlag flag, aclmdlRICondHandle *handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr);
ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags);

/* Explicit build with persistent streams. */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve);
ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtPersistentTaskClean(aclrtStream stream);

/* Execution and lifetime. */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData);
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func);

/* Name and id. */
ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char *name);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId);

/* Inspection and editing. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params);
ACL_FUNC_VISIBILITY aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                                            aclrtLaunchKernelAttrValue *attrValue);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task);
ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI);

/* Debug output. */
ACL_DEPRECATED_MESSAGE("aclmdlRIDebugPrint is deprecated, use aclmdlRIDebugJsonPrint instead")
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags);

/* Labels. */
ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label);
ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label);
ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList);
ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
                                                     aclrtStream stream);

/* Stream control inside built RIs. */
ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue,
                                               aclrtCompareDataType dataType, aclrtStream trueStream,
                                               aclrtStream falseStream, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo *info,
                                                  aclrtStream execStream);
/* ---- Reliability: floating-point overflow (acl-rt-reliability.md 3.5) ------------ */

typedef enum aclrtFloatOverflowMode {
    ACL_RT_OVERFLOW_MODE_SATURATION = 0, /* Inf results become +-max finite, NaN results become 0 */
    ACL_RT_OVERFLOW_MODE_INFNAN,         /* IEEE results (Inf/NaN propagate); the default */
    ACL_RT_OVERFLOW_MODE_UNDEF,          /* not a valid argument */
} aclrtFloatOverflowMode;

/* Sets the overflow mode that streams created afterwards take. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);

/* Reports the overflow mode last set (ACL_RT_OVERFLOW_MODE_INFNAN by default). */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode);

/* Turns overflow reporting of a stream's later kernels on (1) or off (0). */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);

/* Reports a stream's overflow switch. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag);

/* Queues a task that writes the device's 64-byte overflow status record to outputAddr. */
ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream);

/* Queues a task that clears the device's overflow status. */
ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream);

/* Reports the device address of the current context's 512-byte overflow area. */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetFloatOverflowAddr(void **overflowAddr);

/* aclrtGetOverflowStatus without the API-layer check. */
ACL_FUNC_VISIBILITY aclError aclrtGetFloatOverflowStatus(void *outputAddr, uint64_t outputSize, aclrtStream stream);

/* Same as aclrtResetOverflowStatus. */
ACL_FUNC_VISIBILITY aclError aclrtResetFloatOverflowStatus(aclrtStream stream);

/* aclrtGetFloatOverflowStatus with a hardware check mode (ignored by oacl). */
ACL_FUNC_VISIBILITY aclError aclrtNpuGetFloatOverFlowStatus(void *outputAddr, uint64_t outputSize, uint32_t checkMode,
                                                            aclrtStream stream);

/* aclrtResetFloatOverflowStatus with a hardware check mode (ignored by oacl). */
ACL_FUNC_VISIBILITY aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_H */
