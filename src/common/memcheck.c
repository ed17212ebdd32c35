/*
 * Memory checker switches, call sites and address descriptions (see
 * memcheck.h).
 */
#include "common/memcheck.h"

#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/addr_registry.h"

/* ---- switches ------------------------------------------------------------ */

static pthread_once_t g_env_once = PTHREAD_ONCE_INIT;
static bool g_env_memcheck, g_env_guard = true, g_env_leaks;
static size_t g_quarantine = (size_t)64 << 20;
static int g_debug_kernel; /* atomic */

static bool env_flag(const char *name, bool dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    return strcmp(v, "0") != 0 && strcmp(v, "false") != 0 && strcmp(v, "off") != 0;
}

static void env_read(void)
{
    g_env_memcheck = env_flag("OACL_MEMCHECK", false);
    g_env_guard = env_flag("OACL_DEVICE_GUARD_PAGES", true);
    g_env_leaks = env_flag("OACL_LEAK_REPORT", false);
    const char *q = getenv("OACL_MEMCHECK_QUARANTINE_MB");
    if (q && *q) {
        char *end;
        errno = 0;
        unsigned long long mb = strtoull(q, &end, 10);
        if (!errno && !*end && mb <= ((size_t)-1 >> 21))
            g_quarantine = (size_t)mb << 20;
    }
}

static inline void env_init(void) { pthread_once(&g_env_once, env_read); }

bool oacl_memcheck_on(void)
{
    env_init();
    return g_env_memcheck || __atomic_load_n(&g_debug_kernel, __ATOMIC_RELAXED);
}

void oacl_memcheck_set_debug_kernel(bool on) { __atomic_store_n(&g_debug_kernel, on ? 1 : 0, __ATOMIC_RELAXED); }

bool oacl_guard_pages_on(void)
{
    env_init();
    return g_env_guard || oacl_memcheck_on();
}

size_t oacl_memcheck_quarantine_limit(void)
{
    env_init();
    return g_quarantine;
}

bool oacl_leak_report_on(void)
{
    env_init();
    return g_env_leaks || oacl_memcheck_on();
}

/* ---- call sites ------------------------------------------------------------ */

/* Where libacl_rt itself is loaded: frames inside it are not the site.
 * Looked up once (dl_iterate_phdr); a static link finds the program. */
static uintptr_t g_self_lo, g_self_hi;
static pthread_once_t g_self_once = PTHREAD_ONCE_INIT;

static int self_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    uintptr_t base = *(uintptr_t *)arg;
    if (info->dlpi_addr != base)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = base + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (!g_self_lo || lo < g_self_lo)
            g_self_lo = lo;
        if (hi > g_self_hi)
            g_self_hi = hi;
    }
    return 1;
}

static void self_find(void)
{
    Dl_info di;
    if (!dladdr((void *)self_find, &di))
        return;
    uintptr_t base = (uintptr_t)di.dli_fbase;
    /* dlpi_addr is the load bias: 0 for a non-PIE program. */
    if (!dl_iterate_phdr(self_phdr, &base)) {
        base = 0;
        dl_iterate_phdr(self_phdr, &base);
    }
}

struct oacl_site *oacl_site_capture(void)
{
    if (!oacl_memcheck_on())
        return NULL;
    void *pcs[24];
    int n = backtrace(pcs, 24);
    struct oacl_site *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    pthread_once(&g_self_once, self_find);
    bool outside = false;
    for (int i = 1; i < n && s->n < OACL_SITE_FRAMES; i++) {
        uintptr_t pc = (uintptr_t)pcs[i];
        bool ours = pc >= g_self_lo && pc < g_self_hi;
        /* Skip the runtime's own frames up to the first caller frame. */
        if (ours && !outside)
            continue;
        outside = true;
        s->pc[s->n++] = pcs[i];
    }
    if (s->n == 0) /* everything is ours (statically linked): keep the callers */
        for (int i = 1; i < n && s->n < OACL_SITE_FRAMES; i++)
            s->pc[s->n++] = pcs[i];
    return s;
}

void oacl_site_free(struct oacl_site *s) { free(s); }

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : (p ? p : "?");
}

/* The first `max` frames of s; a frame that does not fit is left out whole. */
static void site_format_n(const struct oacl_site *s, uint32_t max, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = 0;
    size_t used = 0;
    for (uint32_t i = 0; s && i < s->n && i < max; i++) {
        Dl_info di;
        /* A return address: look up the call instruction before it. */
        uintptr_t pc = (uintptr_t)s->pc[i];
        char frame[160];
        const char *sep = i ? " <- " : "";
        if (dladdr((void *)(pc - 1), &di) && di.dli_fname) {
            if (di.dli_sname)
                snprintf(frame, sizeof(frame), "%s%s+0x%lx (%s)", sep, di.dli_sname,
                         (unsigned long)(pc - (uintptr_t)di.dli_saddr), base_name(di.dli_fname));
            else
                snprintf(frame, sizeof(frame), "%s%s+0x%lx", sep, base_name(di.dli_fname),
                         (unsigned long)(pc - (uintptr_t)di.dli_fbase));
        } else {
            snprintf(frame, sizeof(frame), "%s0x%lx", sep, (unsigned long)pc);
        }
        size_t n = strlen(frame);
        if (used + n >= len)
            break;
        memcpy(buf + used, frame, n + 1);
        used += n;
    }
}

void oacl_site_format(const struct oacl_site *s, char *buf, size_t len)
{
    site_format_n(s, OACL_SITE_FRAMES, buf, len);
}

/* Descriptions keep sites short: the caller and its caller. */
#define DESCRIBE_FRAMES 2

/* ---- freed allocations (memcheck) ---------------------------------------- */

#define FREED_MAX 1024u

struct freed {
    uintptr_t base;
    size_t size, user_size;
    struct oacl_site *alloc_site, *free_site;
};

static pthread_mutex_t g_freed_lock = PTHREAD_MUTEX_INITIALIZER;
static struct freed g_freed[FREED_MAX]; /* ring, newest at g_freed_next - 1 */
static uint32_t g_freed_next, g_freed_count;

void oacl_memcheck_note_free(uintptr_t base, size_t size, size_t user_size, struct oacl_site *alloc_site)
{
    struct oacl_site *free_site = oacl_site_capture();
    pthread_mutex_lock(&g_freed_lock);
    struct freed *f = &g_freed[g_freed_next];
    struct oacl_site *old_a = f->alloc_site, *old_f = f->free_site;
    f->base = base;
    f->size = size;
    f->user_size = user_size;
    f->alloc_site = alloc_site;
    f->free_site = free_site;
    g_freed_next = (g_freed_next + 1) % FREED_MAX;
    if (g_freed_count < FREED_MAX)
        g_freed_count++;
    pthread_mutex_unlock(&g_freed_lock);
    oacl_site_free(old_a);
    oacl_site_free(old_f);
}

/* The newest freed allocation containing addr: true and *out (sites
 * formatted into the buffers). */
static bool freed_find(uintptr_t addr, struct freed *out, char *asite, char *fsite, size_t sl)
{
    bool found = false;
    pthread_mutex_lock(&g_freed_lock);
    for (uint32_t k = 1; k <= g_freed_count && !found; k++) {
        const struct freed *f = &g_freed[(g_freed_next + FREED_MAX - k) % FREED_MAX];
        if (addr >= f->base && addr - f->base < f->size) {
            *out = *f;
            site_format_n(f->alloc_site, DESCRIBE_FRAMES, asite, sl);
            site_format_n(f->free_site, DESCRIBE_FRAMES, fsite, sl);
            found = true;
        }
    }
    pthread_mutex_unlock(&g_freed_lock);
    return found;
}

/* ---- descriptions -------------------------------------------------------- */

static const char *kind_name(const struct oacl_mem_record *r)
{
    switch (r->kind) {
    case OACL_MEM_HOST_PINNED: return "pinned host allocation";
    case OACL_MEM_DEVICE_ALIAS:
        return r->readonly ? "read-only device mapping of registered host memory"
                           : "device mapping of registered host memory";
    case OACL_MEM_HOST_REGISTERED: return "registered host range";
    case OACL_MEM_MANAGED: return "managed allocation";
    case OACL_MEM_MBUF: return "mbuf";
    case OACL_MEM_DEVICE:
        switch (r->origin) {
        case OACL_MEM_ORIGIN_SYMBOL:
        case OACL_MEM_ORIGIN_MODULE: return r->readonly ? "read-only device variable" : "device variable";
        case OACL_MEM_ORIGIN_IPC_IMPORT: return "imported IPC allocation";
        case OACL_MEM_ORIGIN_VMM_MAP: return "virtual-memory mapping";
        case OACL_MEM_ORIGIN_RUNTIME: return "runtime device area";
        default: return r->pool_block ? "memory-pool allocation" : "device allocation";
        }
    }
    return "allocation";
}

/* Allocations farther away than this are not "near" anything. */
#define NEAR_LIMIT ((uintptr_t)1 << 30)

/* The range closest to addr on one side within NEAR_LIMIT (registry lock
 * held): the overlap of [addr - d, addr) (or (addr, addr + d]) only grows
 * with d, so the smallest d with an overlap is found by halving. */
static const struct oacl_mem_record *nearest_locked(uintptr_t addr, bool below)
{
    uintptr_t lo = 1, hi = NEAR_LIMIT;
    if (below && addr < hi)
        hi = addr;
    if (!below && UINTPTR_MAX - addr < hi)
        hi = UINTPTR_MAX - addr;
    if (hi < 1)
        return NULL;
    const struct oacl_mem_record *best = below ? oacl_registry_overlap_locked(OACL_SPACE_ALLOC, addr - hi, hi)
                                               : oacl_registry_overlap_locked(OACL_SPACE_ALLOC, addr + 1, hi);
    if (!best)
        return NULL;
    while (lo < hi) {
        uintptr_t mid = lo + (hi - lo) / 2;
        const struct oacl_mem_record *r = below ? oacl_registry_overlap_locked(OACL_SPACE_ALLOC, addr - mid, mid)
                                                : oacl_registry_overlap_locked(OACL_SPACE_ALLOC, addr + 1, mid);
        if (r) {
            best = r;
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return best;
}

static bool lock_registry(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 100 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return oacl_registry_timedrdlock(&ts);
}

/* The live record r related to the access [a, a+len). */
static void describe_record(const struct oacl_mem_record *r, uintptr_t a, size_t len, char *buf, size_t buflen)
{
    size_t shown = r->user_size && r->user_size <= r->size ? r->user_size : r->size;
    uintptr_t end = r->base + shown;
    char site[160] = "";
    site_format_n(r->site, DESCRIBE_FRAMES, site, sizeof(site));
    int w;
    if (a < r->base)
        w = snprintf(buf, buflen, "0x%lx is %lu bytes before a %zu-byte %s at 0x%lx", (unsigned long)a,
                     (unsigned long)(r->base - a), shown, kind_name(r), (unsigned long)r->base);
    else if (a >= end)
        w = snprintf(buf, buflen, "0x%lx is %lu bytes past the end of a %zu-byte %s at 0x%lx", (unsigned long)a,
                     (unsigned long)(a - end), shown, kind_name(r),
                     (unsigned long)r->base);
    else if (len && a + len > end)
        w = snprintf(buf, buflen, "%zu bytes at 0x%lx run %lu bytes past the end of a %zu-byte %s at 0x%lx", len,
                     (unsigned long)a, (unsigned long)(a + len - end), shown, kind_name(r), (unsigned long)r->base);
    else
        w = snprintf(buf, buflen, "0x%lx is %lu bytes into a %zu-byte %s at 0x%lx", (unsigned long)a,
                     (unsigned long)(a - r->base), shown, kind_name(r), (unsigned long)r->base);
    if (w > 0 && (size_t)w < buflen && site[0])
        snprintf(buf + w, buflen - (size_t)w, ", allocated at %s", site);
}

int oacl_memcheck_describe(uintptr_t addr, size_t len, char *buf, size_t buflen)
{
    if (!buflen)
        return 0;
    buf[0] = 0;
    if (addr < 4096) {
        snprintf(buf, buflen, "0x%lx is a NULL pointer access", (unsigned long)addr);
        return 1;
    }
    if (!lock_registry()) {
        snprintf(buf, buflen, "0x%lx (the address registry is busy)", (unsigned long)addr);
        return 0;
    }
    const struct oacl_mem_record *r = oacl_registry_find_locked(OACL_SPACE_ALLOC, addr);
    if (r) {
        describe_record(r, addr, len, buf, buflen);
        oacl_registry_unlock();
        return 1;
    }
    /* Freed under memcheck (still in quarantine, or reused by nothing). */
    struct freed f;
    char asite[160], fsite[160];
    if (freed_find(addr, &f, asite, fsite, sizeof(asite))) {
        oacl_registry_unlock();
        int w = snprintf(buf, buflen, "0x%lx is %lu bytes into a %zu-byte device allocation at 0x%lx that was freed",
                         (unsigned long)addr, (unsigned long)(addr - f.base), f.user_size ? f.user_size : f.size,
                         (unsigned long)f.base);
        if (w > 0 && (size_t)w < buflen && asite[0])
            w += snprintf(buf + w, buflen - (size_t)w, ", allocated at %s", asite);
        if (w > 0 && (size_t)w < buflen && fsite[0])
            snprintf(buf + w, buflen - (size_t)w, ", freed at %s", fsite);
        return 1;
    }
    /* Nearest live range on either side. */
    const struct oacl_mem_record *below = nearest_locked(addr, true), *above = nearest_locked(addr, false);
    const struct oacl_mem_record *best = NULL;
    uintptr_t dist = 0;
    if (below) {
        best = below;
        dist = addr - (below->base + below->size);
    }
    if (above && (!best || above->base - addr < dist)) {
        best = above;
        dist = above->base - addr;
    }
    int rc = 0;
    if (best) {
        describe_record(best, addr, len, buf, buflen);
        rc = 1;
    } else {
        snprintf(buf, buflen, "0x%lx is not in or near any allocation", (unsigned long)addr);
    }
    oacl_registry_unlock();
    return rc;
}
