/*
 * The leak report (OACL_LEAK_REPORT=1, or memcheck mode): at aclFinalize,
 * or at exit when the program never finalized, everything the program made
 * and did not release goes to stderr — device allocations, pinned host
 * allocations, managed allocations, host registrations (counts, bytes and
 * the first entries with their sizes, and allocation sites under memcheck),
 * then streams, events, notifies and kernel binaries (counts). Memory and
 * objects the runtime owns (device variables, default streams, pool
 * reservations not handed out) are not the program's leaks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/addr_registry.h"
#include "common/imap.h"
#include "common/memcheck.h"
#include "runtime/runtime.h"

#define SHOWN 8 /* entries listed per kind */

enum leak_kind { LK_DEVICE, LK_PINNED, LK_MANAGED, LK_REGISTERED, LK_COUNT };

static const char *const g_kind_names[LK_COUNT][2] = {
    {"device allocation", "device allocations"},
    {"pinned host allocation", "pinned host allocations"},
    {"managed allocation", "managed allocations"},
    {"host registration", "host registrations"},
};

struct leak_list {
    uint64_t count, bytes;
    char lines[SHOWN][320];
};

struct leak_scan {
    struct leak_list k[LK_COUNT];
};

static void note(struct leak_list *l, const struct oacl_mem_record *r)
{
    size_t size = r->user_size ? r->user_size : r->size;
    if (l->count < SHOWN) {
        char site[224] = "";
        oacl_site_format(r->site, site, sizeof(site));
        snprintf(l->lines[l->count], sizeof(l->lines[0]), "%zu bytes at %p%s%s", size, (void *)r->base,
                 site[0] ? ", allocated at " : "", site);
    }
    l->count++;
    l->bytes += size;
}

static int scan_alloc(const struct oacl_imap_entry *e, void *arg)
{
    struct leak_scan *s = arg;
    const struct oacl_mem_record *r = e->value;
    if (r->kind == OACL_MEM_DEVICE && r->origin == OACL_MEM_ORIGIN_ALLOC)
        note(&s->k[LK_DEVICE], r); /* memory-pool allocations in use are included */
    else if (r->kind == OACL_MEM_HOST_PINNED && r->origin == OACL_MEM_ORIGIN_ALLOC)
        note(&s->k[LK_PINNED], r);
    else if (r->kind == OACL_MEM_MANAGED)
        note(&s->k[LK_MANAGED], r);
    return 0;
}

static int scan_reg(const struct oacl_imap_entry *e, void *arg)
{
    struct leak_scan *s = arg;
    note(&s->k[LK_REGISTERED], e->value);
    return 0;
}

static void count_user_stream(struct oacl_obj *o, void *arg)
{
    const struct oacl_stream *s = (const struct oacl_stream *)o;
    if (!s->is_default)
        (*(uint32_t *)arg)++;
}

static bool g_reported; /* a report was printed (at aclFinalize): exit stays quiet */

void oacl_leak_report(const char *when)
{
    if (!oacl_leak_report_on())
        return;
    struct leak_scan *s = calloc(1, sizeof(*s));
    if (!s)
        return;
    oacl_registry_rdlock();
    oacl_registry_foreach_locked(OACL_SPACE_ALLOC, scan_alloc, s);
    oacl_registry_foreach_locked(OACL_SPACE_HOSTREG, scan_reg, s);
    oacl_registry_unlock();
    uint32_t streams = 0;
    oacl_handle_foreach(OACL_H_STREAM, count_user_stream, &streams);
    struct {
        const char *one, *many;
        uint32_t n;
    } objs[] = {
        {"stream", "streams", streams},
        {"event", "events", oacl_handle_live_count(OACL_H_EVENT)},
        {"notify", "notifies", oacl_handle_live_count(OACL_H_NOTIFY)},
        {"counting notify", "counting notifies", oacl_handle_live_count(OACL_H_CNT_NOTIFY)},
        {"kernel binary", "kernel binaries", oacl_handle_live_count(OACL_H_BINARY)},
    };
    bool any = false;
    for (int k = 0; k < LK_COUNT; k++)
        any |= s->k[k].count != 0;
    for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
        any |= objs[i].n != 0;
    if (!any) {
        free(s); /* a clean program stays quiet */
        __atomic_store_n(&g_reported, true, __ATOMIC_RELEASE);
        return;
    }
    /* One write per line, the whole report under stderr's lock. */
    flockfile(stderr);
    {
        fprintf(stderr, "[oacl] leak report (%s): still alive:\n", when);
        for (int k = 0; k < LK_COUNT; k++) {
            const struct leak_list *l = &s->k[k];
            if (!l->count)
                continue;
            fprintf(stderr, "[oacl]   %llu %s, %llu bytes\n", (unsigned long long)l->count,
                    g_kind_names[k][l->count != 1], (unsigned long long)l->bytes);
            for (uint64_t i = 0; i < l->count && i < SHOWN; i++)
                fprintf(stderr, "[oacl]     %s\n", l->lines[i]);
            if (l->count > SHOWN)
                fprintf(stderr, "[oacl]     ... and %llu more\n", (unsigned long long)(l->count - SHOWN));
        }
        for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
            if (objs[i].n)
                fprintf(stderr, "[oacl]   %u %s\n", objs[i].n, objs[i].n == 1 ? objs[i].one : objs[i].many);
    }
    funlockfile(stderr);
    free(s);
    __atomic_store_n(&g_reported, true, __ATOMIC_RELEASE);
}

static void report_at_exit(void)
{
    if (!__atomic_load_n(&g_reported, __ATOMIC_ACQUIRE))
        oacl_leak_report("exit without aclFinalize");
}

/* Armed at load: the handler registered first runs last, after the
 * runtime's own exit work (queued kernels drain first). */
__attribute__((constructor)) static void leak_report_arm(void)
{
    if (oacl_leak_report_on())
        atexit(report_at_exit);
}
