/*
 * Helpers for the pinned-memory and host-registration tests
 * (test_host_memory.c, test_host_register.c, test_host_register_mt.c).
 *
 * Include after test_support.h. Everything here is static so that each test
 * program gets its own copy; unused helpers cost nothing.
 *
 *  - byte patterns that depend on a seed and the offset, to prove that data
 *    written at one address shows up, unchanged, at another;
 *  - a tracker of the addresses a test allocated or registered, checked by
 *    the fixture teardown: when a test ends, none of them may still be
 *    registered or allocated (registry sanity);
 *  - capture of a call's code and message on threads other than the one
 *    running cmocka (cmocka assertions must stay on that thread);
 *  - small /proc readers (locked memory, capabilities).
 */
#ifndef OACL_TEST_HOST_MEM_UTIL_H
#define OACL_TEST_HOST_MEM_UTIL_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "test_support.h"

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)

/* Sentinel stored in output parameters to show that a failing call left
   them alone. */
#define OUT_SENTINEL ((void *)(uintptr_t)0x5a5a5a5a5a5a5000ull)

static inline size_t page_sz(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* ---- patterns --------------------------------------------------------------- */

static inline unsigned char pattern_byte(uint32_t seed, size_t off)
{
    uint32_t x = seed * 2654435761u ^ (uint32_t)off * 40503u ^ (uint32_t)(off >> 12) * 97u;
    return (unsigned char)(x ^ (x >> 11) ^ (x >> 23));
}

static inline void fill_pattern(void *p, size_t n, uint32_t seed)
{
    volatile unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = pattern_byte(seed, i);
}

/* Offset of the first byte that differs from the pattern, or SIZE_MAX. */
static inline size_t pattern_mismatch(const void *p, size_t n, uint32_t seed)
{
    const volatile unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != pattern_byte(seed, i))
            return i;
    return SIZE_MAX;
}

#define assert_pattern(p, n, seed)                                                                                   \
    do {                                                                                                             \
        size_t at_ = pattern_mismatch((p), (n), (seed));                                                             \
        if (at_ != SIZE_MAX) {                                                                                       \
            print_error("%s:%d: pattern %u over %zu bytes at %p differs at offset %zu\n", __FILE__, __LINE__,       \
                        (unsigned)(seed), (size_t)(n), (const void *)(p), at_);                                      \
            _fail(__FILE__, __LINE__);                                                                               \
        }                                                                                                            \
    } while (0)

static inline bool ranges_overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + blen && y < x + alen;
}

/*
 * Zero-copy proof between a host address and its device address: bytes
 * written at one appear at the other with no call in between, in both
 * directions, over the whole length.
 */
#define assert_zero_copy(host, dev, n, seed)                                                                         \
    do {                                                                                                             \
        fill_pattern((dev), (n), (seed));                                                                            \
        assert_pattern((host), (n), (seed));                                                                         \
        fill_pattern((host), (n), (seed) + 1u);                                                                      \
        assert_pattern((dev), (n), (seed) + 1u);                                                                     \
    } while (0)

/* ---- registry sanity tracker --------------------------------------------------- */

#define TRACK_MAX 256
static void *g_tracked_regs[TRACK_MAX];
static size_t g_n_tracked_regs;
static void *g_tracked_allocs[TRACK_MAX];
static size_t g_n_tracked_allocs;

static inline void track_reset(void) { g_n_tracked_regs = g_n_tracked_allocs = 0; }

static inline void track_reg(void *p)
{
    assert_true(g_n_tracked_regs < TRACK_MAX);
    g_tracked_regs[g_n_tracked_regs++] = p;
}

static inline void track_alloc(void *p)
{
    assert_true(g_n_tracked_allocs < TRACK_MAX);
    g_tracked_allocs[g_n_tracked_allocs++] = p;
}

/*
 * Every address the test registered is unregistered and every pinned
 * allocation freed (needs a current context). Whatever a failed test left
 * behind is released here, so that it cannot disturb the next test; the
 * return value is the number of leftovers (each one is printed).
 */
static inline int track_check_released(void)
{
    int leftovers = 0;
    for (size_t i = 0; i < g_n_tracked_regs; i++) {
        void *p = g_tracked_regs[i], *d = OUT_SENTINEL;
        oacl_test_clear_msgs();
        aclError rc = aclrtHostGetDevicePointer(p, &d, 0);
        const char *m = aclGetRecentErrMsg();
        if (rc != ACL_ERROR_RT_PARAM_INVALID || !m || !strstr(m, "not inside any registered host range") ||
            d != OUT_SENTINEL) {
            print_error("still registered after the test: %p (%d: %s)\n", p, rc, m ? m : "");
            leftovers++;
            (void)aclrtHostUnregister(p);
        }
    }
    for (size_t i = 0; i < g_n_tracked_allocs; i++) {
        oacl_test_clear_msgs();
        aclError rc = aclrtFreeHost(g_tracked_allocs[i]);
        const char *m = aclGetRecentErrMsg();
        if (rc != ACL_ERROR_RT_PARAM_INVALID || !m || !strstr(m, "not allocated by aclrtMallocHost")) {
            print_error("still allocated after the test: %p (%d: %s)\n", g_tracked_allocs[i], rc, m ? m : "");
            leftovers++;
        }
    }
    track_reset();
    return leftovers;
}

/* Fixture: device 0 set on the cmocka thread for the test's duration. */
static inline int fixture_setup(void **state)
{
    (void)state;
    track_reset();
    return aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static inline int fixture_teardown(void **state)
{
    (void)state;
    int leftovers = track_check_released();
    aclError rc = aclrtResetDevice(0);
    return leftovers == 0 && rc == ACL_SUCCESS ? 0 : -1;
}

/* ---- tracked wrappers of the good paths ------------------------------------------- */

static inline void *malloc_host_ok(size_t n)
{
    void *p = NULL;
    ACL_OK(aclrtMallocHost(&p, n));
    assert_non_null(p);
    track_alloc(p);
    return p;
}

/* V2 registration with `flags`; returns the device address when MAPPED. */
static inline void *register_ok(void *p, uint64_t n, uint32_t flags)
{
    ACL_OK(aclrtHostRegisterV2(p, n, flags));
    track_reg(p);
    if (!(flags & ACL_HOST_REG_MAPPED))
        return NULL;
    void *d = NULL;
    ACL_OK(aclrtHostGetDevicePointer(p, &d, 0));
    assert_non_null(d);
    return d;
}

/* ---- results from other threads ------------------------------------------------- */

struct outcome {
    aclError rc;
    char msg[768];
};

/* Runs after a call on any thread: stores its code and message. Call
   oacl_test_clear_msgs() before the call. */
static inline aclError outcome_take(struct outcome *o, aclError rc)
{
    o->rc = rc;
    const char *m = aclGetRecentErrMsg();
    snprintf(o->msg, sizeof(o->msg), "%s", m ? m : "");
    return rc;
}

#define assert_outcome(o, code, needle)                                                                              \
    do {                                                                                                             \
        const struct outcome *o_ = (o);                                                                              \
        if (o_->rc != (code) || ((code) != ACL_SUCCESS && strstr(o_->msg, (needle)) == NULL)) {                    \
            print_error("%s:%d: got %d (\"%s\"), expected %d with \"%s\"\n", __FILE__, __LINE__, o_->rc, o_->msg,   \
                        (int)(code), (needle));                                                                      \
            _fail(__FILE__, __LINE__);                                                                               \
        }                                                                                                            \
    } while (0)

/* ---- /proc readers ---------------------------------------------------------------- */

/* VmLck of this process in KiB, or -1. */
static inline long vm_locked_kib(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "VmLck: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

/*
 * True when locking shows in VmLck. Sanitizer runtimes replace mlock with
 * a no-op that reports success, so pinning cannot be observed (nor made to
 * fail) in those builds.
 */
static inline bool mlock_observable(void)
{
    static int known = -1;
    if (known >= 0)
        return known;
    known = 0;
    size_t len = 16 * page_sz();
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return false;
    long before = vm_locked_kib();
    if (before >= 0 && mlock(p, len) == 0) {
        known = vm_locked_kib() - before >= (long)(len / KIB);
        munlock(p, len);
    }
    munmap(p, len);
    return known;
}

/* True when mlock of `bytes` more can succeed and be seen: CAP_IPC_LOCK,
   or room under RLIMIT_MEMLOCK. */
static inline bool can_lock_more(size_t bytes)
{
    if (!mlock_observable())
        return false;
    FILE *f = fopen("/proc/self/status", "re");
    if (f) {
        char line[256];
        unsigned long long cap = 0;
        bool found = false;
        while (fgets(line, sizeof(line), f))
            if (sscanf(line, "CapEff: %llx", &cap) == 1) {
                found = true;
                break;
            }
        fclose(f);
        if (found && (cap & (1ull << 14))) /* CAP_IPC_LOCK */
            return true;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0)
        return false;
    if (rl.rlim_cur == RLIM_INFINITY)
        return true;
    long held = vm_locked_kib();
    return held >= 0 && (unsigned long long)held * 1024 + bytes <= (unsigned long long)rl.rlim_cur;
}

/* Number of pages of [p, p+n) that are resident, or -1. */
static inline long resident_pages(void *p, size_t n)
{
    size_t pages = (n + page_sz() - 1) / page_sz();
    unsigned char *vec = malloc(pages);
    if (!vec)
        return -1;
    long count = -1;
    if (mincore(p, n, vec) == 0) {
        count = 0;
        for (size_t i = 0; i < pages; i++)
            count += vec[i] & 1;
    }
    free(vec);
    return count;
}

#endif /* OACL_TEST_HOST_MEM_UTIL_H */
