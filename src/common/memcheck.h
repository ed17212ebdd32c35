/*
 * The memory checker's switches and records (spec acl-rt-reliability.md,
 * Decisions 1 and 10):
 *  - guard pages (OACL_DEVICE_GUARD_PAGES, default 1): every device
 *    allocation is followed by an inaccessible page and free device memory
 *    is inaccessible (device_mem.c);
 *  - memcheck mode (OACL_MEMCHECK=1, or aclrtSetSysParamOpt(
 *    ACL_OPT_ENABLE_DEBUG_KERNEL, 1)): allocations end at their guard page,
 *    freed memory stays inaccessible in a bounded quarantine, and each
 *    allocation records its call site;
 *  - descriptions of an address ("12 bytes past the end of a 1000-byte
 *    device allocation at 0x... allocated at ...") for kernel range checks
 *    (gm_check.c) and the fault path;
 *  - the leak report switch (OACL_LEAK_REPORT=1, or memcheck mode).
 */
#ifndef OACL_COMMON_MEMCHECK_H
#define OACL_COMMON_MEMCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Memcheck mode is on (environment or CANN's debug-kernel switch). */
bool oacl_memcheck_on(void);
/* aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, v) (sysparam.c). */
void oacl_memcheck_set_debug_kernel(bool on);
/* Device allocations get guard pages (always in memcheck mode). */
bool oacl_guard_pages_on(void);
/* Bytes of freed device memory kept inaccessible under memcheck
 * (OACL_MEMCHECK_QUARANTINE_MB, default 64). */
size_t oacl_memcheck_quarantine_limit(void);
/* The leak report is printed at aclFinalize / exit. */
bool oacl_leak_report_on(void);

/* A call site: the return addresses of the API call that allocated. */
#define OACL_SITE_FRAMES 6
struct oacl_site {
    uint32_t n;
    void *pc[OACL_SITE_FRAMES];
};
/* The caller's call stack outside libacl_rt (NULL when memcheck is off or
 * on allocation failure). */
struct oacl_site *oacl_site_capture(void);
void oacl_site_free(struct oacl_site *s);
/* "main+0x2a (./prog) <- __libc_start_main+0x80 (libc.so.6)"; "" if s is NULL. */
void oacl_site_format(const struct oacl_site *s, char *buf, size_t len);

/* A device allocation was freed (memcheck mode): remember it, bounded, so
 * that a later use of its addresses is described as such. Takes alloc_site. */
void oacl_memcheck_note_free(uintptr_t base, size_t size, size_t user_size, struct oacl_site *alloc_site);

/*
 * Describes addr (and the access [addr, addr+len) if len > 0) relative to
 * the nearest live allocation, or a freed one under memcheck, into buf:
 * "12 bytes past the end of a 1000-byte device allocation at 0x7f..."
 * (with ", allocated at ..." under memcheck). Returns 1 when addr lies in or
 * near something known, 0 otherwise (buf says so). Takes the registry's
 * read lock (waits at most 100 ms): call it after unwinding from a signal,
 * never inside the handler.
 */
int oacl_memcheck_describe(uintptr_t addr, size_t len, char *buf, size_t buflen);

#endif /* OACL_COMMON_MEMCHECK_H */
