/*
 * The result directory of a profiling session (profiling-and-tools.md
 * §4.2-4.4): the Chrome/Perfetto timeline msprof_<ts>.json, the summary
 * CSVs, host/info.json, and oacl_timeline.{dat,gp} for a gnuplot picture
 * (bin/msprof renders timeline.png from them).
 *
 * The records are walked twice: once to learn the tracks, the flows and
 * the statistics, once to write events and per-task rows while reading, so
 * memory stays bounded by the number of distinct names and tracks, plus
 * the msproftx records (few), however long the run was.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/log.h"
#include "device/cpu/soc_profile.h"
#include "runtime/prof.h"
#include "runtime/runtime.h"

#define SLICE_EVENTS 1000000u
#define TIMELINE_MAX 200000u
#define TX_COMPANION 0x40000000u

extern char *program_invocation_short_name;

static const char *const g_task_types[OACL_TT_COUNT] = {
    "TASK",          "KERNEL_AIVEC",  "KERNEL_AICORE",     "MEMCPY_ASYNC", "MEMSET_ASYNC", "EVENT_RECORD",
    "EVENT_WAIT",    "EVENT_RESET",   "NOTIFY_RECORD",     "NOTIFY_WAIT",  "HOSTFUNC_CALLBACK",
    "PROFILER_TRACE_EX", "VALUE_WRITE", "VALUE_WAIT",     "REDUCE_ASYNC", "RANDOM_ASYNC",
    "CMO",           "MEM_PREFETCH"};

static const char *task_type_name(uint8_t t) { return t < OACL_TT_COUNT ? g_task_types[t] : "TASK"; }

static bool is_kernel(const struct oacl_trace_rec *r)
{
    return r->kind == OACL_REC_TASK && (r->level == OACL_TT_KERNEL_AIVEC || r->level == OACL_TT_KERNEL_AICORE);
}

/* ---- small helpers ---------------------------------------------------------------- */

struct exp {
    const struct oacl_prof_session *s;
    int64_t off;          /* epoch offset, ns */
    uint32_t pid;
    char out[4200];       /* mindstudio_profiler_output */
    char stamp[16];       /* YYYYMMDDhhmmss */
    uint32_t freq_mhz;
    /* pass 1 */
    struct track *tracks;
    size_t ntracks, captracks;
    uint8_t *flows;       /* bit per connection id that has a flow start */
    uint64_t nflows;
    struct stat_e *stats;
    size_t nstats, capstats;
    struct oacl_trace_rec *tx, *txdev, *steps;
    size_t ntx, ntxdev, nsteps, captx, captxdev, capsteps;
    uint64_t events;
    double kernel_total[64];
    bool any_api, any_kernel;
    /* pass 2 */
    FILE *json;
    uint32_t slice;
    uint64_t in_slice;
    bool sliced;
    bool first_event;
    FILE *op_summary, *task_time, *timeline;
    uint64_t timeline_rows;
};

/* A track (thread) of the timeline. */
struct track {
    uint32_t pid, tid;
    uint8_t group;        /* sort index of its group */
    uint16_t device;
    uint32_t lane;        /* row in the timeline picture (streams and cores) */
};

enum stat_kind { ST_API = 0, ST_OPTYPE = 1, ST_KERNEL = 2, ST_THREAD_API = 3, ST_THREAD_TOTAL = 4 };

struct stat_e {
    uint8_t kind;
    uint8_t level;
    uint16_t device;
    uint32_t key2;        /* blocks (kernel), thread (per-thread api) */
    const char *name;
    uint64_t count;
    double sum, sumsq, min, max; /* microseconds */
};

static uint32_t group_pid(uint32_t pid, uint32_t sort, uint32_t dev) { return (pid << 10) | (sort << 5) | dev; }

static void fmt_us(char *buf, size_t len, uint64_t ns) /* "123.456" */
{
    snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

static void fmt_ts(struct exp *e, char *buf, size_t len, uint64_t mono)
{
    fmt_us(buf, len, (uint64_t)((int64_t)mono + e->off));
}

/* A statistic without trailing zeros ("12.3", "5"). */
static void fmt_stat(char *buf, size_t len, double v)
{
    snprintf(buf, len, "%.3f", v);
    char *dot = strchr(buf, '.');
    if (!dot)
        return;
    char *end = buf + strlen(buf) - 1;
    while (end > dot && *end == '0')
        *end-- = '\0';
    if (end == dot)
        *end = '\0';
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_str(FILE *f, const char *s)
{
    s = s ? s : "";
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static FILE *open_out(struct exp *e, const char *base)
{
    char path[4400];
    snprintf(path, sizeof(path), "%s/%s_%s.csv", e->out, base, e->stamp);
    FILE *f = fopen(path, "w");
    if (!f)
        OACL_ERROR("profiling: cannot write %s: %s", path, strerror(errno));
    else
        fchmod(fileno(f), 0640);
    return f;
}

/* OP Type: the kernel name without a variant suffix (Decision 5). */
static void op_type(const char *name, char *out, size_t len)
{
    snprintf(out, len, "%s", name ? name : "");
    static const char *const suffixes[] = {"_mix_aic", "_mix_aiv", "_aic", "_aiv"};
    size_t n = strlen(out);
    for (size_t i = 0; i < 4; i++) {
        size_t k = strlen(suffixes[i]);
        if (n > k && strcmp(out + n - k, suffixes[i]) == 0) {
            out[n - k] = '\0';
            return;
        }
    }
}

/* Kernel tasks and blocks outside the ACL_PROF_OPTYPE filter are left out. */
static bool filtered(const struct exp *e, const char *kernel)
{
    if (!e->s->optype[0] || !kernel)
        return false;
    char ty[256];
    op_type(kernel, ty, sizeof(ty));
    char buf[260];
    snprintf(buf, sizeof(buf), "%s", e->s->optype);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (strcmp(tok, ty) == 0)
            return false;
    return true;
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap * 2 : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * elem);
    if (!q)
        return NULL;
    *cap = n;
    return q;
}

static struct track *track_find(struct exp *e, uint32_t pid, uint32_t tid)
{
    for (size_t i = 0; i < e->ntracks; i++)
        if (e->tracks[i].pid == pid && e->tracks[i].tid == tid)
            return &e->tracks[i];
    return NULL;
}

static void track_add(struct exp *e, uint32_t group, uint16_t dev, uint32_t pid, uint32_t tid)
{
    if (track_find(e, pid, tid))
        return;
    struct track *t = grow(e->tracks, &e->captracks, e->ntracks + 1, sizeof(*t));
    if (!t)
        return;
    e->tracks = t;
    e->tracks[e->ntracks++] = (struct track){.pid = pid, .tid = tid, .group = (uint8_t)group, .device = dev};
}

static struct stat_e *stat_get(struct exp *e, uint8_t kind, uint8_t level, uint16_t dev, uint32_t key2,
                               const char *name)
{
    for (size_t i = e->nstats; i-- > 0;) {
        struct stat_e *st = &e->stats[i];
        if (st->kind == kind && st->level == level && st->device == dev && st->key2 == key2 &&
            (st->name == name || (st->name && name && strcmp(st->name, name) == 0)))
            return st;
    }
    struct stat_e *n = grow(e->stats, &e->capstats, e->nstats + 1, sizeof(*n));
    if (!n)
        return NULL;
    e->stats = n;
    struct stat_e *st = &e->stats[e->nstats++];
    *st = (struct stat_e){.kind = kind, .level = level, .device = dev, .key2 = key2, .name = name, .min = 1e300};
    return st;
}

static void stat_add(struct stat_e *st, double us)
{
    if (!st)
        return;
    st->count++;
    st->sum += us;
    st->sumsq += us * us;
    if (us < st->min)
        st->min = us;
    if (us > st->max)
        st->max = us;
}

static void flow_mark(struct exp *e, uint64_t id)
{
    if (!id)
        return;
    if (id >= e->nflows * 8) {
        uint64_t n = e->nflows ? e->nflows * 2 : 4096;
        while (id >= n * 8)
            n *= 2;
        uint8_t *f = realloc(e->flows, n);
        if (!f)
            return;
        memset(f + e->nflows, 0, n - e->nflows);
        e->flows = f;
        e->nflows = n;
    }
    e->flows[id / 8] |= (uint8_t)(1u << (id % 8));
}

static bool flow_has(const struct exp *e, uint64_t id)
{
    return id && id < e->nflows * 8 && (e->flows[id / 8] >> (id % 8)) & 1u;
}

static void push_rec(struct oacl_trace_rec **arr, size_t *n, size_t *cap, const struct oacl_trace_rec *r)
{
    struct oacl_trace_rec *a = grow(*arr, cap, *n + 1, sizeof(*a));
    if (!a)
        return;
    *arr = a;
    a[(*n)++] = *r;
}

/* ---- pass 1 ------------------------------------------------------------------------ */

static bool pass1(const struct oacl_trace_rec *r, void *arg)
{
    struct exp *e = arg;
    double us = (double)(r->end - r->start) / 1000.0;
    switch (r->kind) {
    case OACL_REC_API:
        e->any_api = true;
        track_add(e, 7, 31, group_pid(e->pid, 7, 31), r->tid);
        if (r->flags & OACL_RECF_FLOW)
            flow_mark(e, r->a);
        stat_add(stat_get(e, ST_API, r->level, 0, 0, r->name), us);
        if (r->level == OACL_LVL_ACL) {
            stat_add(stat_get(e, ST_THREAD_API, 0, 0, r->tid, r->name), us);
            stat_add(stat_get(e, ST_THREAD_TOTAL, 0, 0, r->tid, NULL), us);
        }
        e->events += 2;
        break;
    case OACL_REC_TASK:
        if (is_kernel(r) && filtered(e, r->name))
            break;
        track_add(e, 14, r->device, group_pid(e->pid, 14, r->device), (uint32_t)r->stream);
        if (is_kernel(r)) {
            char ty[256];
            op_type(r->name, ty, sizeof(ty));
            const char *ity = oacl_trace_intern(ty);
            stat_add(stat_get(e, ST_OPTYPE, r->level, r->device, 0, ity), us);
            stat_add(stat_get(e, ST_KERNEL, r->level, r->device, r->tid, r->name), us);
            if (r->device < 64)
                e->kernel_total[r->device] += us;
            e->any_kernel = true;
        }
        e->events += 2;
        break;
    case OACL_REC_BLOCK:
        if (filtered(e, r->name))
            break;
        track_add(e, 34, r->device, group_pid(e->pid, 34, r->device), 1000 + r->tid);
        e->events++;
        break;
    case OACL_REC_TX:
        push_rec(&e->tx, &e->ntx, &e->captx, r);
        e->events += 2;
        break;
    case OACL_REC_TX_DEV:
        track_add(e, 14, r->device, group_pid(e->pid, 14, r->device), (uint32_t)r->stream);
        push_rec(&e->txdev, &e->ntxdev, &e->captxdev, r);
        e->events += 2;
        break;
    case OACL_REC_STEP:
        track_add(e, 14, r->device, group_pid(e->pid, 14, r->device), (uint32_t)r->stream);
        track_add(e, 14, r->device, group_pid(e->pid, 14, r->device), 70000);
        push_rec(&e->steps, &e->nsteps, &e->capsteps, r);
        e->events += 2;
        break;
    default:
        break;
    }
    return true;
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void json_open_slice(struct exp *e)
{
    char path[4400];
    if (e->sliced)
        snprintf(path, sizeof(path), "%s/msprof_slice_%u_%s.json", e->out, e->slice, e->stamp);
    else
        snprintf(path, sizeof(path), "%s/msprof_%s.json", e->out, e->stamp);
    e->json = fopen(path, "w");
    if (!e->json) {
        OACL_ERROR("profiling: cannot write %s: %s", path, strerror(errno));
        return;
    }
    fchmod(fileno(e->json), 0640);
    fputs("[\n", e->json);
    e->first_event = true;
    e->in_slice = 0;
}

static void json_close_slice(struct exp *e)
{
    if (!e->json)
        return;
    fputs("\n]\n", e->json);
    fclose(e->json);
    e->json = NULL;
}

static void write_metadata(struct exp *e);

/* Starts one event (comma handling, slicing); returns the stream or NULL. */
static FILE *ev(struct exp *e)
{
    if (e->sliced && e->in_slice >= SLICE_EVENTS) {
        json_close_slice(e);
        e->slice++;
        json_open_slice(e);
        write_metadata(e);
    }
    if (!e->json)
        return NULL;
    if (!e->first_event)
        fputs(",\n", e->json);
    e->first_event = false;
    e->in_slice++;
    return e->json;
}

static void meta(struct exp *e, uint32_t pid, uint32_t tid, const char *what, const char *key, const char *sval,
                 long long ival)
{
    FILE *f = ev(e);
    if (!f)
        return;
    fprintf(f, "{\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"ph\":\"M\",\"args\":{\"%s\":", what, pid, tid, key);
    if (sval)
        json_str(f, sval);
    else
        fprintf(f, "%lld", ival);
    fputs("}}", f);
}

static const char *group_name(uint8_t g)
{
    switch (g) {
    case 6: return program_invocation_short_name;
    case 7: return "CANN";
    case 14: return "Ascend Hardware";
    case 34: return "Block Detail";
    default: return "?";
    }
}

static void write_metadata(struct exp *e)
{
    /* one set of process metadata per group, then the threads */
    for (size_t i = 0; i < e->ntracks; i++) {
        struct track *t = &e->tracks[i];
        bool first = true;
        for (size_t j = 0; j < i; j++)
            if (e->tracks[j].pid == t->pid)
                first = false;
        if (first) {
            char label[32];
            if (t->device == 31)
                snprintf(label, sizeof(label), "CPU");
            else
                snprintf(label, sizeof(label), "NPU %u", t->device);
            meta(e, t->pid, 0, "process_name", "name", group_name(t->group), 0);
            meta(e, t->pid, 0, "process_labels", "labels", label, 0);
            meta(e, t->pid, 0, "process_sort_index", "sort_index", NULL, t->group);
        }
        char name[96];
        if (t->group == 14)
            snprintf(name, sizeof(name), t->tid == 70000 ? "Step Trace" : "Stream %u", t->tid);
        else if (t->group == 34)
            snprintf(name, sizeof(name), "AIV %u", t->tid - 1000);
        else if (t->tid >= TX_COMPANION)
            snprintf(name, sizeof(name), "Thread %u (ranges)", (t->tid - TX_COMPANION) & 0x3fffffffu);
        else
            snprintf(name, sizeof(name), "Thread %u", t->tid);
        meta(e, t->pid, t->tid, "thread_name", "name", name, 0);
        meta(e, t->pid, t->tid, "thread_sort_index", "sort_index", NULL, t->tid);
    }
}

static void x_head(struct exp *e, FILE *f, const char *prefix, const char *name, uint32_t pid, uint32_t tid,
                   uint64_t start, uint64_t end)
{
    char ts[40], dur[40];
    fmt_ts(e, ts, sizeof(ts), start);
    fmt_us(dur, sizeof(dur), end > start ? end - start : 0);
    fputs("{\"name\":", f);
    if (prefix) {
        char full[600];
        snprintf(full, sizeof(full), "%s%s", prefix, name ? name : "");
        json_str(f, full);
    } else {
        json_str(f, name);
    }
    fprintf(f, ",\"pid\":%u,\"tid\":%u,\"ts\":\"%s\",\"dur\":%s,\"ph\":\"X\"", pid, tid, ts, dur);
}

static void flow(struct exp *e, const char *cat, const char *prefix, uint64_t id, uint32_t pid, uint32_t tid,
                 uint64_t at, bool end)
{
    FILE *f = ev(e);
    if (!f)
        return;
    char ts[40];
    fmt_ts(e, ts, sizeof(ts), at);
    fprintf(f, "{\"name\":\"%s%" PRIu64 "\",\"pid\":%u,\"tid\":%u,\"ph\":\"%s\",\"cat\":\"%s\",\"id\":\"%" PRIu64
               "\",\"ts\":\"%s\"%s}",
            prefix, id, pid, tid, end ? "f" : "s", cat, id, ts, end ? ",\"bp\":\"e\"" : "");
}

static const char *const g_levels[] = {"AscendCL@", "Runtime@", "Node@", "Model@"};
static const char *const g_level_names[] = {"acl", "runtime", "node", "model"};

static void timeline_row(struct exp *e, uint32_t pid, uint32_t tid, uint64_t start, uint64_t end, int color)
{
    if (!e->timeline || e->timeline_rows >= TIMELINE_MAX)
        return;
    struct track *t = track_find(e, pid, tid);
    if (!t)
        return;
    e->timeline_rows++;
    fprintf(e->timeline, "%u %.6f %.6f %d\n", t->lane, (double)(start - e->s->start_ns) / 1e6,
            (double)(end - e->s->start_ns) / 1e6, color);
}

static bool pass2(const struct oacl_trace_rec *r, void *arg)
{
    struct exp *e = arg;
    FILE *f;
    char ts[40], dur[40], buf[300];
    switch (r->kind) {
    case OACL_REC_API: {
        if (e->s->bits & ACL_PROF_API_STATS)
            break;
        uint32_t pid = group_pid(e->pid, 7, 31);
        if (!(f = ev(e)))
            break;
        x_head(e, f, g_levels[r->level & 3], r->name, pid, r->tid, r->start, r->end);
        fprintf(f, ",\"args\":{\"Thread Id\":%u,\"Mode\":\"%s\",\"level\":\"%s\",\"id\":", r->tid,
                r->level == OACL_LVL_NODE ? "ACL_OP" : r->level == OACL_LVL_MODEL ? "ACL_MODEL" : "ACL_RTS",
                g_level_names[r->level & 3]);
        json_str(f, r->name);
        fputs(",\"item_id\":", f);
        json_str(f, r->name2 ? r->name2 : "");
        fprintf(f, ",\"connection_id\":%" PRIu64, r->a);
        if (r->flags & OACL_RECF_FAILED)
            fprintf(f, ",\"ret\":%d", (int)(int64_t)r->b);
        fputs("}}", f);
        if (r->flags & OACL_RECF_FLOW)
            flow(e, "HostToDevice", "HostToDevice", r->a, pid, r->tid, r->start, false);
        break;
    }
    case OACL_REC_TASK: {
        bool kernel = is_kernel(r);
        if (kernel && filtered(e, r->name))
            break;
        uint32_t pid = group_pid(e->pid, 14, r->device);
        const char *type = task_type_name(r->level);
        if ((f = ev(e))) {
            x_head(e, f, NULL, kernel ? r->name : type, pid, (uint32_t)r->stream, r->start, r->end);
            fprintf(f,
                    ",\"args\":{\"Model Id\":4294967295,\"Task Type\":\"%s\",\"Physic Stream Id\":%d,\"Task Id\":%u,"
                    "\"Batch Id\":0,\"Subtask Id\":4294967295,\"connection_id\":%" PRIu64,
                    type, r->stream, r->task, r->a);
            if (r->level == OACL_TT_MEMCPY || r->level == OACL_TT_MEMSET) {
                double secs = (double)(r->end - r->start) / 1e9;
                fprintf(f, ",\"size(B)\":%" PRIu64 ",\"bandwidth(GB/s)\":%.3f", r->b,
                        secs > 0 ? (double)r->b / secs / 1e9 : 0.0);
            }
            if (kernel)
                fprintf(f, ",\"Block Num\":%u", r->tid);
            if (r->flags & OACL_RECF_FAILED)
                fprintf(f, ",\"ret\":%u", r->extra);
            fputs("}}", f);
        }
        if (flow_has(e, r->a))
            flow(e, "HostToDevice", "HostToDevice", r->a, pid, (uint32_t)r->stream, r->start, true);
        timeline_row(e, pid, (uint32_t)r->stream, r->start, r->end, kernel ? 1 : 2);
        fmt_ts(e, ts, sizeof(ts), r->start);
        fmt_us(dur, sizeof(dur), r->end - r->start);
        char stop[40];
        fmt_ts(e, stop, sizeof(stop), r->end);
        if (e->task_time) {
            fprintf(e->task_time, "%u,", r->device);
            csv_str(e->task_time, kernel ? r->name : "N/A");
            fprintf(e->task_time, ",%s,%d,%u,%s,%s,%s\n", type, r->stream, r->task, dur, ts, stop);
        }
        if (kernel && e->op_summary) {
            char ty[256], wait[40];
            op_type(r->name, ty, sizeof(ty));
            fmt_us(wait, sizeof(wait), r->d && r->start > r->d ? r->start - r->d : 0);
            FILE *o = e->op_summary;
            fprintf(o, "%u,4294967295,%u,%d,", r->device, r->task, r->stream);
            csv_str(o, r->name);
            fputc(',', o);
            csv_str(o, ty);
            fprintf(o, ",N/A,%s,%s,%s,%s,%u,0,NO,N/A,N/A,N/A,N/A,N/A,N/A,N/A",
                    r->level == OACL_TT_KERNEL_AICORE ? "AI_CORE" : "AI_VECTOR_CORE", ts, dur, wait, r->tid);
            if (e->s->bits & ACL_PROF_AICORE_METRICS) {
                char aiv[40];
                fmt_us(aiv, sizeof(aiv), r->tid ? r->c / r->tid : 0);
                fprintf(o, ",0,0,%s,%" PRIu64, aiv, (uint64_t)((double)r->c * e->freq_mhz / 1000.0));
            }
            fputc('\n', o);
        }
        break;
    }
    case OACL_REC_BLOCK: {
        if (filtered(e, r->name))
            break;
        uint32_t pid = group_pid(e->pid, 34, r->device);
        if ((f = ev(e))) {
            snprintf(buf, sizeof(buf), "Stream %d %s", r->stream, r->name ? r->name : "");
            x_head(e, f, NULL, buf, pid, 1000 + r->tid, r->start, r->end);
            fprintf(f,
                    ",\"args\":{\"Physic Stream Id\":%d,\"Task Id\":%u,\"Batch Id\":0,\"Subtask Id\":4294967295,"
                    "\"Core Id\":%u,\"Block Id\":%u}}",
                    r->stream, r->task, r->tid, r->extra);
        }
        timeline_row(e, pid, 1000 + r->tid, r->start, r->end, 3);
        break;
    }
    default:
        break;
    }
    return true;
}

/* ---- msproftx / mstx: lanes (Decision 11) -------------------------------------------- */

static int cmp_tx(const void *a, const void *b)
{
    const struct oacl_trace_rec *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    /* the longer first, so that it can hold the shorter */
    return x->end > y->end ? -1 : x->end < y->end ? 1 : 0;
}

static const char *const g_tx_types[] = {"marker", "push/pop", "start/end", "marker_ex"};

#define MAX_LANES 16
#define LANE_DEPTH 256

static void write_tx(struct exp *e)
{
    if (!e->ntx)
        return;
    qsort(e->tx, e->ntx, sizeof(*e->tx), cmp_tx);
    uint32_t gpid = group_pid(e->pid, 6, 31);
    /* lane of every record: properly nested ranges share a lane */
    uint32_t *lane = calloc(e->ntx, sizeof(uint32_t));
    if (!lane)
        return;
    static uint64_t stack[MAX_LANES][LANE_DEPTH];
    size_t depth[MAX_LANES];
    uint32_t cur_tid = 0;
    for (size_t i = 0; i < e->ntx; i++) {
        const struct oacl_trace_rec *r = &e->tx[i];
        if (i == 0 || r->tid != cur_tid) {
            cur_tid = r->tid;
            memset(depth, 0, sizeof(depth));
        }
        uint32_t l;
        for (l = 0; l < MAX_LANES; l++) {
            while (depth[l] && stack[l][depth[l] - 1] <= r->start)
                depth[l]--;
            if ((!depth[l] || stack[l][depth[l] - 1] >= r->end) && depth[l] < LANE_DEPTH)
                break;
        }
        if (l == MAX_LANES)
            l = MAX_LANES - 1;
        else
            stack[l][depth[l]++] = r->end;
        lane[i] = l;
    }
    for (size_t i = 0; i < e->ntx; i++)
        track_add(e, 6, 31, gpid, lane[i] ? e->tx[i].tid + TX_COMPANION + lane[i] - 1 : e->tx[i].tid);
    /* metadata of the new tracks (written after the others: viewers do not mind) */
    for (size_t i = 0; i < e->ntracks; i++) {
        struct track *t = &e->tracks[i];
        if (t->pid != gpid)
            continue;
        bool first = true;
        for (size_t j = 0; j < i; j++)
            if (e->tracks[j].pid == gpid)
                first = false;
        if (first) {
            meta(e, gpid, 0, "process_name", "name", program_invocation_short_name, 0);
            meta(e, gpid, 0, "process_labels", "labels", "CPU", 0);
            meta(e, gpid, 0, "process_sort_index", "sort_index", NULL, 6);
        }
        char name[64];
        if (t->tid >= TX_COMPANION)
            snprintf(name, sizeof(name), "Thread %u (ranges)", (t->tid - TX_COMPANION) & 0xffffu);
        else
            snprintf(name, sizeof(name), "Thread %u", t->tid);
        /* companions: tid = thread + 0x40000000 + k; show the thread id */
        if (t->tid >= TX_COMPANION) {
            for (size_t k = 0; k < e->ntx; k++)
                if (lane[k] && e->tx[k].tid + TX_COMPANION + lane[k] - 1 == t->tid)
                    snprintf(name, sizeof(name), "Thread %u (ranges)", e->tx[k].tid);
        }
        meta(e, gpid, t->tid, "thread_name", "name", name, 0);
        meta(e, gpid, t->tid, "thread_sort_index", "sort_index", NULL, t->tid);
    }
    for (size_t i = 0; i < e->ntx; i++) {
        const struct oacl_trace_rec *r = &e->tx[i];
        uint32_t tid = lane[i] ? r->tid + TX_COMPANION + lane[i] - 1 : r->tid;
        FILE *f = ev(e);
        if (!f)
            break;
        x_head(e, f, NULL, r->name, gpid, tid, r->start, r->end);
        if (r->flags & OACL_RECF_MSTX) {
            fprintf(f, ",\"args\":{\"event_type\":\"%s\",\"domain\":", g_tx_types[r->level & 3]);
            json_str(f, r->name2 ? r->name2 : "default");
            fputs("}}", f);
        } else {
            fprintf(f,
                    ",\"args\":{\"Category\":\"%" PRIu64 "\",\"Payload_type\":%u,\"Payload_value\":%" PRIu64
                    ",\"Message_type\":0,\"event_type\":\"%s\"",
                    r->b, r->extra, r->c, g_tx_types[r->level & 3]);
            if (r->name2) { /* aclprofRangePushEx: the op and its shapes */
                fputs(",\"shapes\":", f);
                json_str(f, r->name2);
            }
            fputs("}}", f);
        }
        if (r->a)
            flow(e, "MsTx", "MsTx_", r->a, gpid, tid, r->start, false);
    }
    free(lane);
    /* device sides: marks (dur 0) and ranges (start marker -> end marker) */
    for (size_t i = 0; i < e->ntxdev; i++) {
        const struct oacl_trace_rec *r = &e->txdev[i];
        if (r->level == 1)
            continue; /* a range's end: drawn with its start */
        uint64_t end = r->start;
        for (size_t j = 0; j < e->ntxdev; j++)
            if (e->txdev[j].level == 1 && e->txdev[j].a == r->a)
                end = e->txdev[j].start;
        uint32_t pid = group_pid(e->pid, 14, r->device);
        FILE *f = ev(e);
        if (!f)
            break;
        x_head(e, f, NULL, r->name, pid, (uint32_t)r->stream, r->start, end);
        fprintf(f, ",\"args\":{\"Task Type\":\"PROFILER_TRACE_EX\",\"Physic Stream Id\":%d}}", r->stream);
        flow(e, "MsTx", "MsTx_", r->a, pid, (uint32_t)r->stream, r->start, true);
    }
}

static void write_tx_csv(struct exp *e)
{
    if (!e->ntx)
        return;
    FILE *f = open_out(e, "msprof_tx");
    if (!f)
        return;
    fputs("Device_id,pid,tid,category,event_type,payload_type,payload_value,Start_time(us),End_time(us),message_type,"
          "message,domain,Device Start_time(us),Device End_time(us)\n",
          f);
    for (size_t i = 0; i < e->ntx; i++) {
        const struct oacl_trace_rec *r = &e->tx[i];
        char s[40], t[40], ds[40] = "N/A", de[40] = "N/A";
        fmt_ts(e, s, sizeof(s), r->start);
        fmt_ts(e, t, sizeof(t), r->end);
        if (r->a) {
            for (size_t j = 0; j < e->ntxdev; j++)
                if (e->txdev[j].a == r->a) {
                    fmt_ts(e, e->txdev[j].level == 1 ? de : ds, 40, e->txdev[j].start);
                    if (r->end == r->start || r->level == OACL_TX_MARKER || r->level == OACL_TX_MARKER_EX)
                        fmt_ts(e, de, 40, e->txdev[j].start);
                }
        }
        bool mstx = r->flags & OACL_RECF_MSTX;
        fprintf(f, "host,%u,%u,%" PRIu64 ",%s,%u,%" PRIu64 ",%s,%s,0,", e->pid, r->tid, mstx ? 0 : r->b,
                g_tx_types[r->level & 3], mstx ? 0 : r->extra, mstx ? 0 : r->c, s, t);
        csv_str(f, r->name);
        fputc(',', f);
        csv_str(f, mstx ? (r->name2 ? r->name2 : "default") : "N/A");
        fprintf(f, ",%s,%s\n", ds, de);
    }
    fclose(f);
}

/* ---- steps ----------------------------------------------------------------------------- */

static void write_steps(struct exp *e)
{
    if (!e->nsteps)
        return;
    FILE *csv = open_out(e, "step_trace");
    if (csv)
        fputs("Device_id,Iteration ID,FP Start(us),BP End(us),Iteration End(us),Iteration Time(us),FP to BP Time(us),"
              "Iteration Refresh(us),Data Aug Bound(us),Model ID\n",
              csv);
    for (size_t i = 0; i < e->nsteps; i++) {
        const struct oacl_trace_rec *r = &e->steps[i];
        uint32_t pid = group_pid(e->pid, 14, r->device);
        FILE *f = ev(e);
        if (f) {
            x_head(e, f, NULL, "Step", pid, (uint32_t)r->stream, r->start, r->start);
            fprintf(f, ",\"args\":{\"Task Type\":\"PROFILER_TRACE_EX\",\"Iteration ID\":%" PRIu64 ",\"Tag\":%u}}", r->a,
                    r->level);
        }
        if (r->level != 0)
            continue;
        for (size_t j = 0; j < e->nsteps; j++) {
            const struct oacl_trace_rec *q = &e->steps[j];
            if (q->level != 1 || q->a != r->a || q->device != r->device)
                continue;
            char end[40], dur[40];
            fmt_ts(e, end, sizeof(end), q->start);
            fmt_us(dur, sizeof(dur), q->start > r->start ? q->start - r->start : 0);
            if ((f = ev(e))) {
                char name[48];
                snprintf(name, sizeof(name), "Iteration %" PRIu64, r->a);
                x_head(e, f, NULL, name, pid, 70000, r->start, q->start);
                fprintf(f,
                        ",\"cat\":\"Iteration Time\",\"args\":{\"Iteration ID\":%" PRIu64
                        ",\"FP Start\":\"N/A\",\"BP End\":\"N/A\",\"Iteration End\":\"%s\",\"Iteration Time(us)\":%s}}",
                        r->a, end, dur);
            }
            if (csv)
                fprintf(csv, "%u,%" PRIu64 ",N/A,N/A,%s,%s,N/A,N/A,N/A,4294967295\n", r->device, r->a, end, dur);
            break;
        }
    }
    if (csv)
        fclose(csv);
}

/* ---- statistics CSVs --------------------------------------------------------------------- */

static int cmp_api(const void *a, const void *b)
{
    const struct stat_e *x = *(const struct stat_e *const *)a, *y = *(const struct stat_e *const *)b;
    int c = strcmp(x->name ? x->name : "", y->name ? y->name : "");
    return c ? c : (int)x->level - (int)y->level;
}

static int cmp_total(const void *a, const void *b)
{
    const struct stat_e *x = *(const struct stat_e *const *)a, *y = *(const struct stat_e *const *)b;
    return x->sum < y->sum ? 1 : x->sum > y->sum ? -1 : 0;
}

static size_t collect(struct exp *e, uint8_t kind, struct stat_e ***out)
{
    size_t n = 0;
    *out = malloc((e->nstats + 1) * sizeof(**out));
    if (!*out)
        return 0;
    for (size_t i = 0; i < e->nstats; i++)
        if (e->stats[i].kind == kind)
            (*out)[n++] = &e->stats[i];
    return n;
}

static void write_stats(struct exp *e)
{
    struct stat_e **v;
    char a[48], b[48], c[48], d[48], g[48];
    size_t n = collect(e, ST_API, &v);
    FILE *f = n ? open_out(e, "api_statistic") : NULL;
    if (f) {
        qsort(v, n, sizeof(*v), cmp_api);
        fputs("Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n", f);
        for (size_t i = 0; i < n; i++) {
            struct stat_e *s = v[i];
            double avg = s->sum / (double)s->count;
            double var = s->sumsq / (double)s->count - avg * avg;
            fmt_stat(a, sizeof(a), s->sum);
            fmt_stat(b, sizeof(b), avg);
            fmt_stat(c, sizeof(c), s->min);
            fmt_stat(d, sizeof(d), s->max);
            fmt_stat(g, sizeof(g), var > 0 ? var : 0);
            fprintf(f, "host,%s,", g_level_names[s->level & 3]);
            csv_str(f, s->name);
            fprintf(f, ",%s,%" PRIu64 ",%s,%s,%s,%s\n", a, s->count, b, c, d, g);
        }
        fclose(f);
    }
    free(v);
    n = collect(e, ST_OPTYPE, &v);
    f = n ? open_out(e, "op_statistic") : NULL;
    if (f) {
        qsort(v, n, sizeof(*v), cmp_total);
        fputs("Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n", f);
        for (size_t i = 0; i < n; i++) {
            struct stat_e *s = v[i];
            double total = s->device < 64 ? e->kernel_total[s->device] : 0;
            fmt_stat(a, sizeof(a), s->sum);
            fmt_stat(b, sizeof(b), s->min);
            fmt_stat(c, sizeof(c), s->sum / (double)s->count);
            fmt_stat(d, sizeof(d), s->max);
            fmt_stat(g, sizeof(g), total > 0 ? 100.0 * s->sum / total : 0);
            fprintf(f, "%u,", s->device);
            csv_str(f, s->name);
            fprintf(f, ",%s,%" PRIu64 ",%s,%s,%s,%s,%s\n",
                    s->level == OACL_TT_KERNEL_AICORE ? "AI_CORE" : "AI_VECTOR_CORE", s->count, a, b, c, d, g);
        }
        fclose(f);
    }
    free(v);
    /* oacl addition: per kernel and block count */
    n = collect(e, ST_KERNEL, &v);
    f = n ? open_out(e, "kernel_statistic") : NULL;
    if (f) {
        qsort(v, n, sizeof(*v), cmp_total);
        fputs("Device_id,Op Name,Block Num,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us)\n", f);
        for (size_t i = 0; i < n; i++) {
            struct stat_e *s = v[i];
            fmt_stat(a, sizeof(a), s->sum);
            fmt_stat(b, sizeof(b), s->min);
            fmt_stat(c, sizeof(c), s->sum / (double)s->count);
            fmt_stat(d, sizeof(d), s->max);
            fprintf(f, "%u,", s->device);
            csv_str(f, s->name);
            fprintf(f, ",%u,%" PRIu64 ",%s,%s,%s,%s\n", s->key2, s->count, a, b, c, d);
        }
        fclose(f);
    }
    free(v);
}

/* ACL_PROF_API_STATS: only host/acl_api_total_time.csv and acl_api_statistics.csv. */
static void write_api_stats(struct exp *e)
{
    char path[4400];
    snprintf(path, sizeof(path), "%s/host/acl_api_total_time.csv", e->s->dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("thread,acl_api_total_time(ns)\n", f);
        for (size_t i = 0; i < e->nstats; i++)
            if (e->stats[i].kind == ST_THREAD_TOTAL)
                fprintf(f, "%u,%.0f\n", e->stats[i].key2, e->stats[i].sum * 1000.0);
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/host/acl_api_statistics.csv", e->s->dir);
    f = fopen(path, "w");
    if (f) {
        fputs("thread,api_name,api_type,api_average_time(ns),api_max_time(ns),api_min_time(ns),api_count\n", f);
        for (size_t i = 0; i < e->nstats; i++) {
            const struct stat_e *s = &e->stats[i];
            if (s->kind != ST_THREAD_API)
                continue;
            fprintf(f, "%u,", s->key2);
            csv_str(f, s->name);
            fprintf(f, ",acl,%.0f,%.0f,%.0f,%" PRIu64 "\n", s->sum * 1000.0 / (double)s->count, s->max * 1000.0,
                    s->min * 1000.0, s->count);
        }
        fclose(f);
    }
}

static void write_info(struct exp *e)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return;
    cJSON_AddNumberToObject(root, "pid", e->pid);
    cJSON_AddStringToObject(root, "pid_name", program_invocation_short_name);
    cJSON_AddStringToObject(root, "oacl_version", oacl_version_string());
    const struct oacl_soc_profile *soc = oacl_config()->soc;
    cJSON_AddStringToObject(root, "soc", soc ? soc->name : oacl_config()->soc_request);
    cJSON *devs = cJSON_AddArrayToObject(root, "devices");
    for (uint32_t d = 0; d < 64; d++)
        if ((e->s->dev_mask >> d) & 1)
            cJSON_AddItemToArray(devs, cJSON_CreateNumber(d));
    cJSON_AddNumberToObject(root, "records_dropped", (double)oacl_trace_dropped());
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return;
    char path[4400];
    snprintf(path, sizeof(path), "%s/host/info.json", e->s->dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fputc('\n', f);
        fclose(f);
    }
    free(text);
}

/* oacl_timeline.gp: one lane per stream and per core, for gnuplot. */
static void write_timeline_script(struct exp *e, uint32_t lanes)
{
    char path[4400];
    snprintf(path, sizeof(path), "%s/oacl_timeline.gp", e->out);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    unsigned height = 200 + 22 * (lanes ? lanes : 1);
    fprintf(f,
            "# gnuplot oacl_timeline.gp  ->  timeline.png (one lane per stream and per core; ms from the start)\n"
            "set terminal pngcairo size 1600,%u font \"sans,9\"\n"
            "set output 'timeline.png'\n"
            "set title \"oacl profile: %s (pid %u)%s\" noenhanced\n"
            "set xlabel 'time since the session started (ms)'\n"
            "set yrange [-1:%u]\nset grid xtics\nunset key\nset style fill solid 0.9 noborder\n"
            "set ytics (",
            height, program_invocation_short_name, e->pid,
            e->timeline_rows >= TIMELINE_MAX ? " - first 200000 slices" : "", lanes);
    bool first = true;
    for (size_t i = 0; i < e->ntracks; i++) {
        const struct track *t = &e->tracks[i];
        if (t->group != 14 && t->group != 34)
            continue;
        if (t->group == 14 && t->tid == 70000)
            continue;
        fprintf(f, "%s\"NPU%u %s %u\" %u", first ? "" : ", ", t->device, t->group == 14 ? "Stream" : "AIV",
                t->group == 14 ? t->tid : t->tid - 1000, t->lane);
        first = false;
    }
    fputs(") noenhanced\n"
          "set palette defined (1 '#1f77b4', 2 '#ff7f0e', 3 '#2ca02c')\nset cbrange [1:3]\nunset colorbox\n"
          "plot 'oacl_timeline.dat' using (($2+$3)/2):1:(($3-$2)/2 > 0.0005 ? ($3-$2)/2 : 0.0005):(0.38):4 "
          "with boxxyerror lc palette\n",
          f);
    fclose(f);
}

/* ---- entry ------------------------------------------------------------------------------- */

void oacl_prof_export(const struct oacl_prof_session *s)
{
    struct exp *e = calloc(1, sizeof(*e));
    if (!e)
        return;
    e->s = s;
    e->off = oacl_trace_epoch_offset();
    e->pid = (uint32_t)getpid();
    const struct oacl_soc_profile *soc = oacl_config()->soc;
    e->freq_mhz = soc ? soc->freq_mhz : 1800;
    snprintf(e->out, sizeof(e->out), "%s/mindstudio_profiler_output", s->dir);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(e->stamp, sizeof(e->stamp), "%Y%m%d%H%M%S", &tm);

    oacl_trace_walk(pass1, e);
    if (s->bits & ACL_PROF_API_STATS) {
        write_api_stats(e);
        goto done;
    }
    /* lanes of the picture: streams first, then cores, by device */
    uint32_t lane = 0;
    for (int g = 14; g <= 34; g += 20)
        for (size_t i = 0; i < e->ntracks; i++)
            if (e->tracks[i].group == g && e->tracks[i].tid != 70000)
                e->tracks[i].lane = lane++;
    e->sliced = e->events > SLICE_EVENTS;
    json_open_slice(e);
    write_metadata(e);
    e->op_summary = open_out(e, "op_summary");
    if (e->op_summary) {
        fputs("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
              "Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,Input Shapes,"
              "Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID",
              e->op_summary);
        if (s->bits & ACL_PROF_AICORE_METRICS)
            fputs(",aic_time(us),aic_total_cycles,aiv_time(us),aiv_total_cycles", e->op_summary);
        fputc('\n', e->op_summary);
    }
    e->task_time = open_out(e, "task_time");
    if (e->task_time)
        fputs("Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)\n",
              e->task_time);
    char path[4400];
    snprintf(path, sizeof(path), "%s/oacl_timeline.dat", e->out);
    e->timeline = fopen(path, "w");
    oacl_trace_walk(pass2, e);
    write_tx(e);
    write_steps(e);
    json_close_slice(e);
    if (e->op_summary)
        fclose(e->op_summary);
    if (e->task_time)
        fclose(e->task_time);
    if (e->timeline)
        fclose(e->timeline);
    write_tx_csv(e);
    write_stats(e);
    write_timeline_script(e, lane);
done:
    write_info(e);
    if (oacl_trace_dropped())
        OACL_WARN("profiling: %llu task/block records were dropped by the storage limit",
                  (unsigned long long)oacl_trace_dropped());
    free(e->tracks);
    free(e->flows);
    free(e->stats);
    free(e->tx);
    free(e->txdev);
    free(e->steps);
    free(e);
}
