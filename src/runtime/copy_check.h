/*
 * Checks shared by the copy and fill functions (memory.c: aclrtMemcpy,
 * aclrtMemcpyAsync, aclrtMemset; memcpy_2d.c, memcpy_batch.c,
 * memcpy_desc.c, memset_d32.c): operand classification against the address
 * registry, the aclrtMemcpy argument rules, peer reach, the
 * aclrtMemcpyAsync implementation with its pageable-host rule, and the
 * per-SoC availability of the memory-extras copy functions.
 */
#ifndef OACL_RUNTIME_COPY_CHECK_H
#define OACL_RUNTIME_COPY_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/runtime.h"

/* Which side of the host/device divide an operand is on. */
/* Managed memory is both: one address valid on the host and every device. */
enum oacl_mem_class { OACL_CLASS_HOST = 0, OACL_CLASS_DEVICE = 1, OACL_CLASS_MANAGED = 2 };

/* What oacl_copy_check found out about a copy's two sides. */
struct oacl_copy_sides {
    bool pageable;     /* a host side is neither runtime-pinned nor pinned-registered */
    int32_t dst_dev;   /* device of device memory, -1 for host memory */
    int32_t src_dev;
};

/*
 * Classifies [p, p+count) for a copy (memory.c); runtime memory must contain
 * it, and device addresses of mapped host memory are refused (107000,
 * naming `name`). *pinned: host memory page-locked by the runtime
 * (aclrtMallocHost, or registered with ACL_HOST_REG_PINNED); *device: the
 * device of device memory, else -1.
 */
aclError oacl_copy_classify(const void *p, size_t count, const char *name, enum oacl_mem_class *out, bool *pinned,
                            int32_t *device, const char *fn);
/* The argument checks aclrtMemcpy and aclrtMemcpyAsync share (count > 0). */
aclError oacl_copy_check(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind, bool async,
                         struct oacl_copy_sides *sides, const char *fn);
/* Device memory of another device is reachable once peer access is on. */
aclError oacl_copy_check_reach(const struct oacl_context *ctx, const struct oacl_copy_sides *c, const char *fn);
/* "ACL_MEMCPY_HOST_TO_DEVICE" and so on, for messages. */
const char *oacl_memcpy_kind_name(aclrtMemcpyKind k);
/* aclrtMemcpyAsync with fn naming the public function in messages
 * (aclrtMemcpyAsyncWithCondition forwards here). */
aclError oacl_memcpy_async(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                           aclrtStream stream, const char *fn);

/* ---- availability per SoC profile (spec memory extras §1.1) ---------------- */

enum oacl_copy_family {
    OACL_FAM_A2 = 1u << 0,   /* Ascend910B* */
    OACL_FAM_A3 = 1u << 1,   /* Ascend910_93* */
    OACL_FAM_950 = 1u << 2,  /* arch 3510 */
    OACL_FAM_310P = 1u << 3,
    OACL_FAM_310B = 1u << 4,
    OACL_FAM_910 = 1u << 5,  /* first-generation training series, arch 1001 */
};

/* The family of the configured profile (0 when OACL_SOC names none). */
unsigned oacl_copy_family(void);
/* The configured profile's name ("?" when OACL_SOC names none). */
const char *oacl_copy_soc_name(void);
/* ACL_SUCCESS when the configured profile is in `families`; else 207000
 * "<fn> is not supported on <SoC>" (or the unknown-SoC error). */
aclError oacl_copy_supported(unsigned families, const char *fn);

#endif /* OACL_RUNTIME_COPY_CHECK_H */
