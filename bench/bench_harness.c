/*
 * oacl-bench's harness: what every metric family shares (see bench.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/futex.h>

#include "bench.h"

/* ======================================================================
 * Options
 * ====================================================================== */

struct bench_opt g_opt = {.kernels = OACL_BENCH_KERNEL_DIR};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: oacl-bench [options]\n"
            "  --quick            small sizes and few repetitions (CI smoke run, < 60 s)\n"
            "  --csv FILE         write metric,value,unit,reference,ratio rows to FILE\n"
            "  --only PREFIX      run only metrics whose name starts with PREFIX (comma list;\n"
            "                     e.g. launch_sync_empty, add_bandwidth:bytes=16777216, scaling)\n"
            "  --reps N           interleaved rounds per figure (default 25, --quick 5)\n"
            "  --kernels DIR      directory of bench_kernels.o and add_custom.o\n"
            "                     (default %s)\n"
            "  --sample PATH      the installed zero-copy sample's program (sample_process)\n"
            "  --sample-dir DIR   its working directory (default: the directory above PATH's)\n"
            "  --help\n",
            OACL_BENCH_KERNEL_DIR);
}

void parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) {
            g_opt.quick = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (next && !strcmp(a, "--csv")) {
            g_opt.csv = next, i++;
        } else if (next && !strcmp(a, "--only")) {
            g_opt.only = next, i++;
        } else if (next && !strcmp(a, "--reps")) {
            char *end;
            long v = strtol(next, &end, 10);
            if (*end || v < 1 || v > 100000) {
                fprintf(stderr, "oacl-bench: --reps needs a count from 1 to 100000\n");
                exit(2);
            }
            g_opt.reps = (int)v, i++;
        } else if (next && !strcmp(a, "--kernels")) {
            g_opt.kernels = next, i++;
        } else if (next && !strcmp(a, "--sample")) {
            g_opt.sample = next, i++;
        } else if (next && !strcmp(a, "--sample-dir")) {
            g_opt.sample_dir = next, i++;
        } else {
            fprintf(stderr, "oacl-bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            exit(2);
        }
    }
    if (!g_opt.reps)
        g_opt.reps = g_opt.quick ? 5 : 25;
}

/* True when a group of metrics named `group` may contain a wanted metric. */
bool want_group(const char *group)
{
    if (!g_opt.only)
        return true;
    const char *p = g_opt.only;
    size_t gl = strlen(group);
    while (*p) {
        size_t tl = strcspn(p, ",");
        if (tl && strncmp(group, p, tl < gl ? tl : gl) == 0)
            return true;
        p += tl + (p[tl] == ',');
    }
    return false;
}

/* True when the metric `name` (with parameters) is wanted. */
bool want(const char *name)
{
    if (!g_opt.only)
        return true;
    const char *p = g_opt.only;
    while (*p) {
        size_t tl = strcspn(p, ",");
        if (tl && strncmp(name, p, tl) == 0)
            return true;
        p += tl + (p[tl] == ',');
    }
    return false;
}

/* ======================================================================
 * Time, waiting, futex
 * ====================================================================== */


void sleep_ns(uint64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}


void futex_wait(_Atomic uint32_t *w, uint32_t val)
{
    syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

void futex_wake_all(_Atomic uint32_t *w)
{
    syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Pause between two interleaved measurements: longer than the spin window
 * of the runtime's idle workers (OACL_SPIN_US, default 200 us), so that
 * the threads of one side are asleep while the other side is timed. */
uint64_t g_settle_ns = 1000000;

void settle(void) { sleep_ns(g_settle_ns); }

/* ======================================================================
 * Samples and statistics
 * ====================================================================== */


void s_add(samples_t *s, double x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = realloc(s->v, s->cap * sizeof(double));
        if (!s->v) {
            fprintf(stderr, "oacl-bench: out of memory\n");
            exit(1);
        }
    }
    s->v[s->n++] = x;
}

void s_free(samples_t *s)
{
    free(s->v);
    memset(s, 0, sizeof(*s));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double s_median(samples_t *s)
{
    if (!s->n)
        return NAN;
    qsort(s->v, s->n, sizeof(double), cmp_double);
    return s->n % 2 ? s->v[s->n / 2] : (s->v[s->n / 2 - 1] + s->v[s->n / 2]) / 2;
}

double s_min(const samples_t *s)
{
    double m = INFINITY;
    for (size_t i = 0; i < s->n; i++)
        m = s->v[i] < m ? s->v[i] : m;
    return s->n ? m : NAN;
}

double s_max(const samples_t *s)
{
    double m = -INFINITY;
    for (size_t i = 0; i < s->n; i++)
        m = s->v[i] > m ? s->v[i] : m;
    return s->n ? m : NAN;
}

/* ======================================================================
 * Output: the human-readable table and the CSV
 * ====================================================================== */

FILE *g_csv;
int g_rows;

static void fmt_num(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (v != 0 && (fabs(v) >= 1e7 || fabs(v) < 1e-3))
        snprintf(buf, len, "%.3e", v);
    else if (fabs(v) >= 1000)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.4g", v);
}

void print_header(void)
{
    printf("%-38s %10s %10s %10s %-9s %10s %8s\n", "metric", "median", "min", "max", "unit", "reference", "ratio");
    printf("%.*s\n", 101, "-----------------------------------------------------------------------------------------"
                          "------------------------------------");
}

/* Notes printed before a group's rows: what is timed, how the reference is
   made, what the ratio means. */
void note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("  # ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

void section(const char *name) { printf("\n== %s\n", name); }

/* One row: the value's median/min/max from `v`, the reference's median and
   the ratio (NAN: none). */
void emit(const char *metric, const char *unit, samples_t *v, double ref, double ratio)
{
    double med = s_median(v), lo = s_min(v), hi = s_max(v);
    char a[32], b[32], c[32], d[32], e[32];
    fmt_num(a, sizeof a, med);
    fmt_num(b, sizeof b, lo);
    fmt_num(c, sizeof c, hi);
    fmt_num(d, sizeof d, ref);
    if (isnan(ratio))
        snprintf(e, sizeof e, "-");
    else
        snprintf(e, sizeof e, "%.3f", ratio);
    printf("%-38s %10s %10s %10s %-9s %10s %8s\n", metric, a, b, c, unit, d, e);
    fflush(stdout);
    if (g_csv) {
        fprintf(g_csv, "%s,%.6g,%s,", metric, med, unit);
        if (!isnan(ref))
            fprintf(g_csv, "%.6g", ref);
        fputc(',', g_csv);
        if (!isnan(ratio))
            fprintf(g_csv, "%.6g", ratio);
        fputc('\n', g_csv);
        fflush(g_csv);
    }
    g_rows++;
}

/* ======================================================================
 * Reference thread pool: the calling thread plus helpers that spin on an
 * atomic generation counter while the pool is active and sleep on a futex
 * while it is not. Used for the hand-off floor and the parallel reference
 * loops.
 * ====================================================================== */




static void *pool_main(void *arg)
{
    struct pool_thread *self = arg;
    struct pool *p = self->pool;
    uint32_t seen = 0; /* gen's initial value: a job posted before this thread ran is still seen */
    uint64_t idle_since = now_ns();
    unsigned i = 0;
    for (;;) {
        if (atomic_load_explicit(&p->quit, memory_order_acquire))
            return NULL;
        if (!atomic_load_explicit(&p->active, memory_order_acquire)) {
            futex_wait(&p->active, 0);
            idle_since = now_ns();
            continue;
        }
        uint32_t g = atomic_load_explicit(&p->gen, memory_order_acquire);
        if (g != seen) {
            seen = g;
            p->job(p->ctx, self->idx);
            atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
            idle_since = now_ns();
            i = 0;
            continue;
        }
        /* Spin with pause; after 5 us without work, yield the CPU every
           64 polls (the runtime's own idle policy) so that an
           oversubscribed machine still makes progress. */
        if ((++i & 63) == 0 && now_ns() - idle_since > YIELD_AFTER_NS)
            sched_yield();
        else
            cpu_relax();
    }
}

struct pool *pool_create(unsigned helpers)
{
    struct pool *p = calloc(1, sizeof(*p));
    if (!p || (helpers && !(p->threads = calloc(helpers, sizeof(struct pool_thread))))) {
        fprintf(stderr, "oacl-bench: out of memory\n");
        exit(1);
    }
    p->n = helpers;
    for (unsigned i = 0; i < helpers; i++) {
        p->threads[i].pool = p;
        p->threads[i].idx = i + 1;
        int e = pthread_create(&p->threads[i].tid, NULL, pool_main, &p->threads[i]);
        if (e) {
            fprintf(stderr, "oacl-bench: pthread_create: %s\n", strerror(e));
            exit(1);
        }
    }
    return p;
}

void pool_destroy(struct pool *p)
{
    if (!p)
        return;
    atomic_store_explicit(&p->quit, 1, memory_order_release);
    atomic_store_explicit(&p->active, 1, memory_order_release);
    futex_wake_all(&p->active);
    for (unsigned i = 0; i < p->n; i++)
        pthread_join(p->threads[i].tid, NULL);
    free(p->threads);
    free(p);
}

void pool_activate(struct pool *p)
{
    atomic_store_explicit(&p->active, 1, memory_order_release);
    futex_wake_all(&p->active);
}

void pool_deactivate(struct pool *p) { atomic_store_explicit(&p->active, 0, memory_order_release); }

/* Runs job(ctx, 1..n) on the helpers and, with self_part, job(ctx, 0) on
   the calling thread; returns when all parts are done. */
void pool_run(struct pool *p, pool_job_fn job, void *ctx, bool self_part)
{
    p->job = job;
    p->ctx = ctx;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    if (self_part)
        job(ctx, 0);
    uint64_t start = 0;
    unsigned i = 0;
    while (atomic_load_explicit(&p->done, memory_order_acquire) != p->n) {
        if ((++i & 63) == 0) {
            uint64_t t = now_ns();
            if (!start)
                start = t;
            else if (t - start > YIELD_AFTER_NS)
                sched_yield();
        } else {
            cpu_relax();
        }
    }
}

void job_nothing(void *ctx, unsigned part)
{
    (void)ctx;
    (void)part;
}

/* ======================================================================
 * Machine facts
 * ====================================================================== */

unsigned g_workers;     /* W: the runtime's executor threads */
bool g_simd;            /* the F16C/AVX2 reference loop is usable */
struct pool *g_refpool; /* W-1 helpers for the parallel reference loops */

unsigned host_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

unsigned env_unsigned(const char *name, unsigned def)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return def;
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    return *end || x > 1000000 ? def : (unsigned)x;
}

/* Memory that can be used without swapping or reclaim trouble. */
uint64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "re");
    if (f) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
                fclose(f);
                return (uint64_t)kb * 1024;
            }
        }
        fclose(f);
    }
    long pages = sysconf(_SC_AVPHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
    return pages > 0 && ps > 0 ? (uint64_t)pages * (uint64_t)ps : 0;
}

/* True when `bytes` more can be allocated and touched with room to spare. */
bool mem_fits(uint64_t bytes)
{
    uint64_t avail = mem_available();
    uint64_t margin = avail / 8 > 512 * MiB ? avail / 8 : 512 * MiB;
    return bytes + margin <= avail;
}

/* The first line of /proc/loadavg ("1.00 0.50 0.20 2/150 1234"), trimmed. */
void loadavg(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/loadavg", "re");
    if (!f)
        return;
    if (fgets(buf, (int)len, f))
        buf[strcspn(buf, "\n")] = '\0';
    fclose(f);
}

void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "re");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10) || !strncmp(line, "Model", 5)) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                c += strspn(c, " \t");
                c[strcspn(c, "\n")] = '\0';
                snprintf(buf, len, "%s", c);
                break;
            }
        }
    }
    fclose(f);
}

/* ======================================================================
 * Runtime helpers
 * ====================================================================== */

_Noreturn void acl_die(const char *expr, aclError e, const char *file, int line)
{
    const char *msg = aclGetRecentErrMsg();
    fprintf(stderr, "oacl-bench: %s:%d: %s failed with %d%s%s\n", file, line, expr, (int)e, msg ? ": " : "",
            msg ? msg : "");
    exit(1);
}


aclrtStream g_stream;
aclrtFuncHandle g_f_empty, g_f_add_gm, g_f_add_ub, g_f_seed, g_f_seed_unchecked;
aclrtBinHandle g_bin, g_seed_bin;

void load_kernels(void)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/bench_kernels.o", g_opt.kernels);
    ACL_CHECK(aclrtBinaryLoadFromFile(path, NULL, &g_bin));
    ACL_CHECK(aclrtBinaryGetFunction(g_bin, "empty_kernel", &g_f_empty));
    ACL_CHECK(aclrtBinaryGetFunction(g_bin, "add_f16_gm", &g_f_add_gm));
    ACL_CHECK(aclrtBinaryGetFunction(g_bin, "add_f16_ub", &g_f_add_ub));
    ACL_CHECK(aclrtBinaryGetFunction(g_bin, "seed_unchecked", &g_f_seed_unchecked));
    snprintf(path, sizeof path, "%s/add_custom.o", g_opt.kernels);
    ACL_CHECK(aclrtBinaryLoadFromFile(path, NULL, &g_seed_bin));
    ACL_CHECK(aclrtBinaryGetFunction(g_seed_bin, "add_custom", &g_f_seed));
}

/* Argument list of an add kernel: x, y, z device addresses and, when
   with_n, the element count per block. The list is the thread's only one:
   any later aclrtKernelArgsInit on this thread makes it stale. */
aclrtArgsHandle add_args(aclrtFuncHandle f, void *x, void *y, void *z, bool with_n, uint32_t n)
{
    aclrtArgsHandle a;
    aclrtParamHandle p;
    uintptr_t v[3] = {(uintptr_t)x, (uintptr_t)y, (uintptr_t)z};
    ACL_CHECK(aclrtKernelArgsInit(f, &a));
    for (int i = 0; i < 3; i++)
        ACL_CHECK(aclrtKernelArgsAppend(a, &v[i], sizeof(uintptr_t), &p));
    if (with_n)
        ACL_CHECK(aclrtKernelArgsAppend(a, &n, sizeof n, &p));
    ACL_CHECK(aclrtKernelArgsFinalize(a));
    return a;
}

aclrtArgsHandle empty_args(void)
{
    aclrtArgsHandle a;
    ACL_CHECK(aclrtKernelArgsInit(g_f_empty, &a));
    ACL_CHECK(aclrtKernelArgsFinalize(a));
    return a;
}



/* Pinned host memory (aclrtMallocHost) registered with ACL_HOST_REG_MAPPED:
   `host` for the CPU side, `dev` for kernels. */

void mbuf_alloc(struct mbuf *b, size_t size)
{
    b->size = size;
    ACL_CHECK(aclrtMallocHost((void **)&b->host, size));
    ACL_CHECK(aclrtHostRegisterV2(b->host, size, ACL_HOST_REG_MAPPED));
    ACL_CHECK(aclrtHostGetDevicePointer(b->host, &b->dev, 0));
}

void mbuf_free(struct mbuf *b)
{
    if (!b->host)
        return;
    ACL_CHECK(aclrtHostUnregister(b->host));
    ACL_CHECK(aclrtFreeHost(b->host));
    memset(b, 0, sizeof(*b));
}

void fill16(uint16_t *p, size_t n, uint16_t v)
{
    for (size_t i = 0; i < n; i++)
        p[i] = v;
}

/* Index of the first element of p[0..n) that is not v, or n. */
size_t check16(const uint16_t *p, size_t n, uint16_t v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return i;
    return n;
}

void expect16(const char *what, const uint16_t *p, size_t n, uint16_t v)
{
    size_t i = check16(p, n, v);
    if (i != n) {
        fprintf(stderr, "oacl-bench: %s: wrong result at element %zu: 0x%04x, expected 0x%04x\n", what, i,
                (unsigned)p[i], (unsigned)v);
        exit(1);
    }
}

/* ======================================================================
 * The parallel reference loop: z = x + y over n halves, split into W
 * contiguous chunks (multiples of 16 elements), one per pool thread.
 * ====================================================================== */


void ref_add_part(void *ctx, unsigned part)
{
    struct ref_add *r = ctx;
    size_t per = (r->n / r->parts + 15) & ~(size_t)15;
    size_t lo = per * part, hi = lo + per;
    if (lo > r->n)
        lo = r->n;
    if (hi > r->n || part + 1 == r->parts)
        hi = r->n;
    if (hi <= lo)
        return;
    if (g_simd)
        bench_ref_add_f16_simd(r->z + lo, r->x + lo, r->y + lo, hi - lo);
    else
        bench_ref_add_f16_scalar(r->z + lo, r->x + lo, r->y + lo, hi - lo);
}

void ref_add_run(struct ref_add *r) { pool_run(g_refpool, ref_add_part, r, true); }

/* ======================================================================
 * Interleaved batches. A "side" is one of the two things compared; a
 * sample is the mean time of `iters` back-to-back runs of one side, after
 * one untimed run that wakes whatever threads the side uses.
 * ====================================================================== */



double batch_ns(const struct side *s, unsigned iters)
{
    if (s->begin)
        s->begin(s->ctx);
    s->run(s->ctx); /* untimed: wakes the side's threads */
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < iters; i++)
        s->run(s->ctx);
    uint64_t t1 = now_ns();
    if (s->end)
        s->end(s->ctx);
    return (double)(t1 - t0) / iters;
}

/* Iterations that make one batch of `s` last about target_ns. */
unsigned calibrate(const struct side *s, uint64_t target_ns, unsigned max_iters)
{
    double t = batch_ns(s, 1);
    t = t < batch_ns(s, 1) ? t : batch_ns(s, 1);
    if (t < 1)
        t = 1;
    double it = ceil((double)target_ns / t);
    return it < 1 ? 1 : it > max_iters ? max_iters : (unsigned)it;
}

/* `rounds` rounds of A and B batches, order swapped every round, settled
   in between; per-run times (ns) into a and b. */
void interleave(const struct side *A, const struct side *B, unsigned iters, int rounds, samples_t *a,
                       samples_t *b)
{
    for (int r = 0; r < rounds; r++) {
        const struct side *first = r % 2 ? B : A, *second = r % 2 ? A : B;
        samples_t *fs = r % 2 ? b : a, *ss = r % 2 ? a : b;
        settle();
        s_add(fs, batch_ns(first, iters));
        settle();
        s_add(ss, batch_ns(second, iters));
    }
}

void ref_begin(void *ctx)
{
    (void)ctx;
    pool_activate(g_refpool);
}

void ref_end(void *ctx)
{
    (void)ctx;
    pool_deactivate(g_refpool);
}

/* Samples divided by a constant (unit conversion), and rate = k / sample. */
void s_scale(samples_t *s, double div)
{
    for (size_t i = 0; i < s->n; i++)
        s->v[i] /= div;
}

void s_invert(samples_t *s, double k)
{
    for (size_t i = 0; i < s->n; i++)
        s->v[i] = k / s->v[i];
}

/* (Re)builds the argument list: the thread's list may have been reused. */
void kadd_begin(void *ctx)
{
    struct kadd *k = ctx;
    k->args = add_args(k->f, k->x->dev, k->y->dev, k->z->dev, true, k->per_block);
}

void kadd_run(void *ctx)
{
    struct kadd *k = ctx;
    launch_sync(k->f, k->blocks, k->args);
}
