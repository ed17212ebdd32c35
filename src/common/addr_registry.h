/*
 * The address registry: every address range the runtime knows about, so
 * that any pointer handed to the API can be classified and checked in
 * O(log n). Two spaces, each a set of non-overlapping ranges:
 *  - OACL_SPACE_ALLOC: memory the runtime owns or created — pinned host
 *    allocations, device memory, and the device-side aliases of mapped
 *    host memory;
 *  - OACL_SPACE_HOSTREG: host ranges registered with aclrtHostRegister(V2),
 *    whoever allocated them.
 * Readers take a shared lock; compound updates hold the exclusive lock
 * across their checks and inserts.
 */
#ifndef OACL_COMMON_ADDR_REGISTRY_H
#define OACL_COMMON_ADDR_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum oacl_space { OACL_SPACE_ALLOC = 0, OACL_SPACE_HOSTREG = 1 };

enum oacl_mem_kind {
    OACL_MEM_HOST_PINNED = 1,   /* aclrtMallocHost */
    OACL_MEM_DEVICE_ALIAS = 2,  /* device address of a mapped host range */
    OACL_MEM_HOST_REGISTERED = 3,
    OACL_MEM_DEVICE = 4,        /* aclrtMalloc and friends */
    OACL_MEM_MANAGED = 5,       /* aclrtMemAllocManaged: one address for host and every device */
    OACL_MEM_MBUF = 6,          /* mbuf data area (aclrtAllocBuf): runtime host memory */
};

/* Who made an OACL_MEM_DEVICE (or OACL_MEM_HOST_PINNED) range: aclrtFree
 * and aclrtFreeHost take only allocations. */
enum oacl_mem_origin {
    OACL_MEM_ORIGIN_ALLOC = 0,      /* aclrtMalloc and friends */
    OACL_MEM_ORIGIN_SYMBOL = 1,     /* a device variable linked into the program */
    OACL_MEM_ORIGIN_MODULE = 2,     /* a segment of a loaded kernel binary */
    OACL_MEM_ORIGIN_IPC_IMPORT = 3, /* aclrtIpcMemImportByKey: released by aclrtIpcMemClose */
    OACL_MEM_ORIGIN_VMM_MAP = 4,    /* aclrtMapMem & co: released by aclrtUnmapMem (flags: the page
                                       policy of device memory, the page size of host memory) */
    OACL_MEM_ORIGIN_RUNTIME = 5,    /* owned by the runtime (aclrtGetHardwareSyncAddr): never freed by the API */
};
/* `device` of a linked device variable: one copy that every device uses. */
#define OACL_MEM_ANY_DEVICE (-1)
/* flags of OACL_MEM_HOST_PINNED records: mapped for a device later, the
   range's device address is its host address (aclrtMallocHostWithCfg with
   ACL_RT_MEM_ATTR_VA_FLAG). */
#define OACL_REC_VA_IDENTITY 0x1u

/* One range. The registry stores pointers to records that their creator
 * allocates and frees (after removing them). */
struct oacl_mem_record {
    uintptr_t base;
    size_t size;                 /* registered length (whole pages where relevant) */
    size_t user_size;            /* length the caller asked for */
    enum oacl_mem_kind kind;
    int32_t device;
    uint32_t flags;              /* ACL_HOST_REG_* for registrations */
    bool locked;                 /* pages locked by the runtime */
    struct oacl_mem_record *peer;/* registration <-> its device alias */
    void *dev_ptr;               /* registrations: device address (mapped only) */
    int map_kind;                /* registrations: enum oacl_map_kind */
    bool map_relock;             /* registrations: pages were locked by the program */
    /* Where device (or pinned host) memory came from: memory that was not
       allocated by the memory chapters' allocators is device memory for
       every check (copies, kernels, attributes) but must not be freed by
       them. */
    uint8_t origin;              /* enum oacl_mem_origin */
    bool readonly;               /* copies and fills into it are refused */
    void *pool_block;            /* device memory of a memory pool (mem_pool.c): its
                                    block, which owns this record; NULL otherwise */
    uint16_t module_id;          /* allocations: owner (ACL_RT_MEM_ATTR_MODULE_ID; 0 = not tagged) */
    struct oacl_site *site;      /* memcheck: where it was made (common/memcheck.h); NULL otherwise */
};

void oacl_registry_rdlock(void);
void oacl_registry_wrlock(void);
void oacl_registry_unlock(void);

/* The following require the lock (shared for lookups, exclusive for
 * insert/remove). */
int oacl_registry_insert_locked(enum oacl_space sp, struct oacl_mem_record *r);
struct oacl_mem_record *oacl_registry_find_locked(enum oacl_space sp, uintptr_t addr);
struct oacl_mem_record *oacl_registry_overlap_locked(enum oacl_space sp, uintptr_t base, size_t len);
struct oacl_mem_record *oacl_registry_remove_locked(enum oacl_space sp, uintptr_t base);
size_t oacl_registry_count_locked(enum oacl_space sp);
/* Fast path for a host address inside a mapped registration of whole
 * pages: its device address. False means "ask the records" (not mapped,
 * not registered, or a page shared with another range), never an error. */
bool oacl_registry_translate_locked(uintptr_t host, uintptr_t *dev);

/* Bumped whenever a range leaves the registry: a copy of a record taken at
 * generation g is still current while the generation is g (kernel range
 * checks cache one per thread, gm_check.c). */
extern uint64_t oacl_registry_gen_; /* atomic; read through the function below */
static inline uint64_t oacl_registry_generation(void) { return __atomic_load_n(&oacl_registry_gen_, __ATOMIC_ACQUIRE); }
/* Read lock with a deadline (CLOCK_REALTIME); false if it passed. */
bool oacl_registry_timedrdlock(const struct timespec *deadline);
/* Calls fn for every range of sp in address order until it returns non-zero
 * (lock held, shared is enough; fn must not change the registry). */
struct oacl_imap_entry;
int oacl_registry_foreach_locked(enum oacl_space sp, int (*fn)(const struct oacl_imap_entry *e, void *arg), void *arg);

/* Convenience: copy of the record containing addr (shared lock taken). */
bool oacl_registry_lookup(enum oacl_space sp, uintptr_t addr, struct oacl_mem_record *out);

#endif /* OACL_COMMON_ADDR_REGISTRY_H */
