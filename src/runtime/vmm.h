/*
 * Physical-memory handles, shared by vmm.c (allocation, reservations,
 * mappings, access) and vmm_share.c (shareable handles across processes).
 */
#ifndef OACL_RUNTIME_VMM_H
#define OACL_RUNTIME_VMM_H

#include "runtime/ipc.h"

struct oacl_phys {
    struct oacl_obj obj;            /* handle table entry (OACL_H_PHYSMEM) */
    void *handle;                   /* its value */
    int fd;                         /* the memory file (kept: it may be mapped again) */
    size_t size;                    /* rounded to the granularity */
    size_t gran;
    aclrtPhysicalMemProp prop;      /* as reported by aclrtMemGetAllocationPropertiesFromHandle */
    bool host;                      /* host (or host NUMA) memory */
    int32_t device;                 /* device memory: its device (imports: the importing device) */
    bool imported;
    uint64_t import_value;          /* imported: the shareable handle it came from */
    int32_t exporter_device;        /* imported device memory: the exporter's device */
    uint64_t share_value;           /* exported: its shareable handle (0: not exported) */
    uint32_t link_advice;           /* aclrtMemMapSetLink (no effect) */
    /* Under oacl_vmm_lock: */
    uint32_t refs;                  /* handle count: MallocPhysical/import/Retain minus FreePhysical */
    uint32_t mappings;
    bool accounted;                 /* device memory counted in the device's mem_used */
};

extern pthread_mutex_t oacl_vmm_lock;

/* The live handle (+1 object reference), 107017 when dead or unknown
 * (NULL is the caller's 100000). */
aclError oacl_phys_get(aclrtDrvMemHandle h, struct oacl_phys **out, const char *fn);
/* A new handle for a memory file (taken over, also on failure). */
aclError oacl_phys_create(int fd, size_t size, size_t gran, const aclrtPhysicalMemProp *prop, bool host,
                          int32_t device, struct oacl_phys **out, const char *fn);
/* The export of p (if any) goes when its handle count reaches 0. */
void oacl_vmm_share_forget_locked(struct oacl_phys *p);
/* True when value is imported in this process and the import is live. */
bool oacl_vmm_imported_locked(uint64_t value);
/* An imported handle is being destroyed. */
void oacl_vmm_unlink_import_locked(struct oacl_phys *p);

#endif /* OACL_RUNTIME_VMM_H */
