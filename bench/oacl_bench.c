/*
 * oacl-bench: the benchmark suite of oacl's simulated CPU device.
 *
 *   oacl-bench [--quick] [--csv FILE] [--only PREFIX[,PREFIX...]] [--reps N]
 *              [--kernels DIR] [--sample PATH [--sample-dir DIR]]
 *
 * Every figure is the median of many samples taken after a warm-up, printed
 * with its min and max. A figure that depends on the machine's speed is
 * measured next to a reference measured in the same run, INTERLEAVED with
 * it (A, B, A, B, ... with the order swapped every round), so that the
 * drift of a shared machine hits both; the ratio is the figure to read.
 * Ratios are always ratios of the two medians; each metric's notes say
 * which way round (and so whether higher or lower is better).
 *
 * The CSV has exactly the columns metric,value,unit,reference,ratio with
 * value = the median, reference = the reference's median in the same unit
 * (empty when a metric has none) and ratio as defined per metric (empty
 * when there is no reference). A metric's parameters follow its name after
 * a colon: add_bandwidth:bytes=16777216.
 *
 * Threads: the runtime's executor uses W = min(CPUs available, OACL_WORKERS)
 * worker threads here (its SoC cap is far above this machine's CPUs), and
 * every reference that runs in parallel uses the same W (the calling thread
 * plus W-1 helpers) so that a ratio compares equal hardware.
 *
 * Only the public API (acl/acl.h) and the kernel-side headers are used.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/futex.h>

#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl/acl_prof.h"
#include "bench_ref.h"

extern char **environ;

#ifndef OACL_BENCH_KERNEL_DIR
#define OACL_BENCH_KERNEL_DIR "."
#endif

#define KiB ((uint64_t)1024)
#define MiB (KiB * 1024)
#define GiB (MiB * 1024)

/* FP16 bit patterns of the add workloads: 1 + 2 = 3. */
#define H_ONE 0x3C00u
#define H_TWO 0x4000u
#define H_THREE 0x4200u

/* Blocks of the add kernels in add_bandwidth / zero_copy_vs_copy (the
   seed's blockDim). */
#define ADD_BLOCKS 8u
/* Floor of the spinning phase of waiting threads before they yield (the
   runtime's pause phase is the same 5 us). */
#define YIELD_AFTER_NS 5000u

/* ======================================================================
 * Options
 * ====================================================================== */

static struct {
    bool quick;
    const char *csv;
    const char *only;
    int reps;
    const char *kernels;
    const char *sample;
    const char *sample_dir;
} g_opt = {.kernels = OACL_BENCH_KERNEL_DIR};

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

static void parse_args(int argc, char **argv)
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
static bool want_group(const char *group)
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
static bool want(const char *name)
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

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

static void futex_wait(_Atomic uint32_t *w, uint32_t val)
{
    syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake_all(_Atomic uint32_t *w)
{
    syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Pause between two interleaved measurements: longer than the spin window
 * of the runtime's idle workers (OACL_SPIN_US, default 200 us), so that
 * the threads of one side are asleep while the other side is timed. */
static uint64_t g_settle_ns = 1000000;

static void settle(void) { sleep_ns(g_settle_ns); }

/* ======================================================================
 * Samples and statistics
 * ====================================================================== */

typedef struct {
    double *v;
    size_t n, cap;
} samples_t;

static void s_add(samples_t *s, double x)
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

static void s_free(samples_t *s)
{
    free(s->v);
    memset(s, 0, sizeof(*s));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double s_median(samples_t *s)
{
    if (!s->n)
        return NAN;
    qsort(s->v, s->n, sizeof(double), cmp_double);
    return s->n % 2 ? s->v[s->n / 2] : (s->v[s->n / 2 - 1] + s->v[s->n / 2]) / 2;
}

static double s_min(const samples_t *s)
{
    double m = INFINITY;
    for (size_t i = 0; i < s->n; i++)
        m = s->v[i] < m ? s->v[i] : m;
    return s->n ? m : NAN;
}

static double s_max(const samples_t *s)
{
    double m = -INFINITY;
    for (size_t i = 0; i < s->n; i++)
        m = s->v[i] > m ? s->v[i] : m;
    return s->n ? m : NAN;
}

/* ======================================================================
 * Output: the human-readable table and the CSV
 * ====================================================================== */

static FILE *g_csv;
static int g_rows;

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

static void print_header(void)
{
    printf("%-38s %10s %10s %10s %-9s %10s %8s\n", "metric", "median", "min", "max", "unit", "reference", "ratio");
    printf("%.*s\n", 101, "-----------------------------------------------------------------------------------------"
                          "------------------------------------");
}

/* Notes printed before a group's rows: what is timed, how the reference is
   made, what the ratio means. */
static void note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("  # ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

static void section(const char *name) { printf("\n== %s\n", name); }

/* One row: the value's median/min/max from `v`, the reference's median and
   the ratio (NAN: none). */
static void emit(const char *metric, const char *unit, samples_t *v, double ref, double ratio)
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

struct pool;
typedef void (*pool_job_fn)(void *ctx, unsigned part);

struct pool_thread {
    struct pool *pool;
    unsigned idx; /* 1..n; the calling thread is part 0 */
    pthread_t tid;
};

struct pool {
    unsigned n;
    struct pool_thread *threads;
    _Atomic uint32_t active; /* futex word: 1 = spin for work, 0 = sleep */
    _Atomic uint32_t gen;    /* bumped once per job */
    _Atomic uint32_t done;   /* helpers finished with the current job */
    _Atomic uint32_t quit;
    pool_job_fn job;         /* published by the release on gen */
    void *ctx;
};

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

static struct pool *pool_create(unsigned helpers)
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

static void pool_destroy(struct pool *p)
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

static void pool_activate(struct pool *p)
{
    atomic_store_explicit(&p->active, 1, memory_order_release);
    futex_wake_all(&p->active);
}

static void pool_deactivate(struct pool *p) { atomic_store_explicit(&p->active, 0, memory_order_release); }

/* Runs job(ctx, 1..n) on the helpers and, with self_part, job(ctx, 0) on
   the calling thread; returns when all parts are done. */
static void pool_run(struct pool *p, pool_job_fn job, void *ctx, bool self_part)
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

static void job_nothing(void *ctx, unsigned part)
{
    (void)ctx;
    (void)part;
}

/* ======================================================================
 * Machine facts
 * ====================================================================== */

static unsigned g_workers;     /* W: the runtime's executor threads */
static bool g_simd;            /* the F16C/AVX2 reference loop is usable */
static struct pool *g_refpool; /* W-1 helpers for the parallel reference loops */

static unsigned host_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static unsigned env_unsigned(const char *name, unsigned def)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return def;
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    return *end || x > 1000000 ? def : (unsigned)x;
}

/* Memory that can be used without swapping or reclaim trouble. */
static uint64_t mem_available(void)
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
static bool mem_fits(uint64_t bytes)
{
    uint64_t avail = mem_available();
    uint64_t margin = avail / 8 > 512 * MiB ? avail / 8 : 512 * MiB;
    return bytes + margin <= avail;
}

/* The first line of /proc/loadavg ("1.00 0.50 0.20 2/150 1234"), trimmed. */
static void loadavg(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/loadavg", "re");
    if (!f)
        return;
    if (fgets(buf, (int)len, f))
        buf[strcspn(buf, "\n")] = '\0';
    fclose(f);
}

static void cpu_model(char *buf, size_t len)
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

static _Noreturn void acl_die(const char *expr, aclError e, const char *file, int line)
{
    const char *msg = aclGetRecentErrMsg();
    fprintf(stderr, "oacl-bench: %s:%d: %s failed with %d%s%s\n", file, line, expr, (int)e, msg ? ": " : "",
            msg ? msg : "");
    exit(1);
}

#define ACL_CHECK(call)                                                                                              \
    do {                                                                                                             \
        aclError e_ = (call);                                                                                        \
        if (e_ != ACL_SUCCESS)                                                                                       \
            acl_die(#call, e_, __FILE__, __LINE__);                                                                  \
    } while (0)

static aclrtStream g_stream;
static aclrtFuncHandle g_f_empty, g_f_add_gm, g_f_add_ub, g_f_seed;
static aclrtBinHandle g_bin, g_seed_bin;

static void load_kernels(void)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/bench_kernels.o", g_opt.kernels);
    ACL_CHECK(aclrtBinaryLoadFromFile(path, NULL, &g_bin));
    ACL_CHECK(aclrtBinaryGetFunction(g_bin, "empty_kernel", &g_f_empty));
    ACL_CHECK(aclrtBinaryGetFunction(g_bin, "add_f16_gm", &g_f_add_gm));
    ACL_CHECK(aclrtBinaryGetFunction(g_bin, "add_f16_ub", &g_f_add_ub));
    snprintf(path, sizeof path, "%s/add_custom.o", g_opt.kernels);
    ACL_CHECK(aclrtBinaryLoadFromFile(path, NULL, &g_seed_bin));
    ACL_CHECK(aclrtBinaryGetFunction(g_seed_bin, "add_custom", &g_f_seed));
}

/* Argument list of an add kernel: x, y, z device addresses and, when
   with_n, the element count per block. The list is the thread's only one:
   any later aclrtKernelArgsInit on this thread makes it stale. */
static aclrtArgsHandle add_args(aclrtFuncHandle f, void *x, void *y, void *z, bool with_n, uint32_t n)
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

static aclrtArgsHandle empty_args(void)
{
    aclrtArgsHandle a;
    ACL_CHECK(aclrtKernelArgsInit(g_f_empty, &a));
    ACL_CHECK(aclrtKernelArgsFinalize(a));
    return a;
}

static inline void launch(aclrtFuncHandle f, uint32_t blocks, aclrtStream s, aclrtArgsHandle a)
{
    ACL_CHECK(aclrtLaunchKernelWithConfig(f, blocks, s, NULL, a, NULL));
}

static inline void launch_sync(aclrtFuncHandle f, uint32_t blocks, aclrtArgsHandle a)
{
    launch(f, blocks, g_stream, a);
    ACL_CHECK(aclrtSynchronizeStream(g_stream));
}

/* Pinned host memory (aclrtMallocHost) registered with ACL_HOST_REG_MAPPED:
   `host` for the CPU side, `dev` for kernels. */
struct mbuf {
    uint16_t *host;
    void *dev;
    size_t size;
};

static void mbuf_alloc(struct mbuf *b, size_t size)
{
    b->size = size;
    ACL_CHECK(aclrtMallocHost((void **)&b->host, size));
    ACL_CHECK(aclrtHostRegisterV2(b->host, size, ACL_HOST_REG_MAPPED));
    ACL_CHECK(aclrtHostGetDevicePointer(b->host, &b->dev, 0));
}

static void mbuf_free(struct mbuf *b)
{
    if (!b->host)
        return;
    ACL_CHECK(aclrtHostUnregister(b->host));
    ACL_CHECK(aclrtFreeHost(b->host));
    memset(b, 0, sizeof(*b));
}

static void fill16(uint16_t *p, size_t n, uint16_t v)
{
    for (size_t i = 0; i < n; i++)
        p[i] = v;
}

/* Index of the first element of p[0..n) that is not v, or n. */
static size_t check16(const uint16_t *p, size_t n, uint16_t v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return i;
    return n;
}

static void expect16(const char *what, const uint16_t *p, size_t n, uint16_t v)
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

struct ref_add {
    uint16_t *z;
    const uint16_t *x, *y;
    size_t n;
    unsigned parts;
};

static void ref_add_part(void *ctx, unsigned part)
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

static void ref_add_run(struct ref_add *r) { pool_run(g_refpool, ref_add_part, r, true); }

/* ======================================================================
 * Interleaved batches. A "side" is one of the two things compared; a
 * sample is the mean time of `iters` back-to-back runs of one side, after
 * one untimed run that wakes whatever threads the side uses.
 * ====================================================================== */

typedef void (*run_fn)(void *ctx);

struct side {
    run_fn run;
    void *ctx;
    void (*begin)(void *ctx); /* before the batch (untimed), may be NULL */
    void (*end)(void *ctx);   /* after the batch (untimed), may be NULL */
};

static double batch_ns(const struct side *s, unsigned iters)
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
static unsigned calibrate(const struct side *s, uint64_t target_ns, unsigned max_iters)
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
static void interleave(const struct side *A, const struct side *B, unsigned iters, int rounds, samples_t *a,
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

static void ref_begin(void *ctx)
{
    (void)ctx;
    pool_activate(g_refpool);
}

static void ref_end(void *ctx)
{
    (void)ctx;
    pool_deactivate(g_refpool);
}

/* Samples divided by a constant (unit conversion), and rate = k / sample. */
static void s_scale(samples_t *s, double div)
{
    for (size_t i = 0; i < s->n; i++)
        s->v[i] /= div;
}

static void s_invert(samples_t *s, double k)
{
    for (size_t i = 0; i < s->n; i++)
        s->v[i] = k / s->v[i];
}

/* ======================================================================
 * 1. launch_sync_empty
 * ====================================================================== */

static void m_launch_sync_empty(void)
{
    if (!want_group("launch_sync_empty"))
        return;
    const unsigned per_block = g_opt.quick ? 50 : 100;
    section("launch_sync_empty");
    note("value: aclrtLaunchKernelWithConfig + aclrtSynchronizeStream of an empty kernel, each pair timed alone;");
    note("%u per block, %d rounds, blocks alternating with the reference", per_block, g_opt.reps);
    note("reference: hand-off floor = the main thread bumps an atomic, k = min(blockDim, W=%u) threads spinning",
         g_workers);
    note("on it (pause, then yield-polling after 5 us) answer, the main thread waits for all k answers");
    note("ratio = launch / floor (lower is better; the issue's target is <= 5 us at blockDim 8)");
    static const uint32_t dims[] = {1, 8};
    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
        uint32_t bd = dims[d];
        char name[64];
        snprintf(name, sizeof name, "launch_sync_empty:blockDim=%u", bd);
        if (!want(name))
            continue;
        unsigned k = bd < g_workers ? bd : g_workers;
        struct pool *floor = pool_create(k);
        aclrtArgsHandle args = empty_args();
        samples_t lv = {0}, fv = {0};
        /* warm-up */
        for (int i = 0; i < 200; i++)
            launch_sync(g_f_empty, bd, args);
        pool_activate(floor);
        for (int i = 0; i < 200; i++)
            pool_run(floor, job_nothing, NULL, false);
        pool_deactivate(floor);
        for (int r = 0; r < g_opt.reps; r++) {
            for (int side = 0; side < 2; side++) {
                bool oacl = (side == 0) == (r % 2 == 0);
                settle();
                if (oacl) {
                    launch_sync(g_f_empty, bd, args); /* untimed: wakes workers */
                    for (unsigned i = 0; i < per_block; i++) {
                        uint64_t t0 = now_ns();
                        launch(g_f_empty, bd, g_stream, args);
                        ACL_CHECK(aclrtSynchronizeStream(g_stream));
                        s_add(&lv, (double)(now_ns() - t0) / 1000.0);
                    }
                } else {
                    pool_activate(floor);
                    pool_run(floor, job_nothing, NULL, false);
                    for (unsigned i = 0; i < per_block; i++) {
                        uint64_t t0 = now_ns();
                        pool_run(floor, job_nothing, NULL, false);
                        s_add(&fv, (double)(now_ns() - t0) / 1000.0);
                    }
                    pool_deactivate(floor);
                }
            }
        }
        double fm = s_median(&fv);
        emit(name, "us", &lv, fm, s_median(&lv) / fm);
        char fname[64];
        snprintf(fname, sizeof fname, "handoff_floor:threads=%u", k);
        emit(fname, "us", &fv, NAN, NAN);
        s_free(&lv);
        s_free(&fv);
        pool_destroy(floor);
    }
}

/* ======================================================================
 * 2. seed_workload
 * ====================================================================== */

#define SEED_N (8u * 2048u)

static void m_seed_workload(void)
{
    if (!want_group("seed_workload") || !want("seed_workload"))
        return;
    const unsigned per_block = g_opt.quick ? 50 : 100;
    section("seed_workload");
    note("value: the zero-copy sample's add_custom kernel (16384 FP16 adds, blockDim 8, buffers from");
    note("aclrtMallocHost + aclrtHostRegisterV2 MAPPED) launch + synchronise, each pair timed alone");
    note("reference: serial scalar C loop over the same host buffers (half->float, add, float->half)");
    note("ratio = kernel time / serial loop time (lower is better; the issue's target is <= 8 us)");
    struct mbuf x, y, z;
    mbuf_alloc(&x, SEED_N * 2);
    mbuf_alloc(&y, SEED_N * 2);
    mbuf_alloc(&z, SEED_N * 2);
    fill16(x.host, SEED_N, H_ONE);
    fill16(y.host, SEED_N, H_TWO);
    fill16(z.host, SEED_N, 0);
    aclrtArgsHandle args = add_args(g_f_seed, x.dev, y.dev, z.dev, false, 0);
    launch_sync(g_f_seed, 8, args);
    expect16("seed_workload (kernel)", z.host, SEED_N, H_THREE);
    fill16(z.host, SEED_N, 0);
    bench_ref_add_f16_scalar(z.host, x.host, y.host, SEED_N);
    expect16("seed_workload (reference)", z.host, SEED_N, H_THREE);
    for (int i = 0; i < 100; i++) {
        launch_sync(g_f_seed, 8, args);
        bench_ref_add_f16_scalar(z.host, x.host, y.host, SEED_N);
    }
    samples_t kv = {0}, rv = {0};
    for (int r = 0; r < g_opt.reps; r++) {
        for (int side = 0; side < 2; side++) {
            bool oacl = (side == 0) == (r % 2 == 0);
            settle();
            if (oacl) {
                launch_sync(g_f_seed, 8, args);
                for (unsigned i = 0; i < per_block; i++) {
                    uint64_t t0 = now_ns();
                    launch(g_f_seed, 8, g_stream, args);
                    ACL_CHECK(aclrtSynchronizeStream(g_stream));
                    s_add(&kv, (double)(now_ns() - t0) / 1000.0);
                }
            } else {
                for (unsigned i = 0; i < per_block; i++) {
                    uint64_t t0 = now_ns();
                    bench_ref_add_f16_scalar(z.host, x.host, y.host, SEED_N);
                    __asm__ __volatile__("" ::: "memory");
                    s_add(&rv, (double)(now_ns() - t0) / 1000.0);
                }
            }
        }
    }
    expect16("seed_workload", z.host, SEED_N, H_THREE);
    double rm = s_median(&rv);
    emit("seed_workload", "us", &kv, rm, s_median(&kv) / rm);
    s_free(&kv);
    s_free(&rv);
    mbuf_free(&z);
    mbuf_free(&y);
    mbuf_free(&x);
}

/* ======================================================================
 * 3. add_bandwidth (and add_bandwidth_ub)
 * ====================================================================== */

struct kadd {
    aclrtFuncHandle f;
    uint32_t blocks;
    struct mbuf *x, *y, *z;
    uint32_t per_block;
    aclrtArgsHandle args;
};

/* (Re)builds the argument list: the thread's list may have been reused. */
static void kadd_begin(void *ctx)
{
    struct kadd *k = ctx;
    k->args = add_args(k->f, k->x->dev, k->y->dev, k->z->dev, true, k->per_block);
}

static void kadd_run(void *ctx)
{
    struct kadd *k = ctx;
    launch_sync(k->f, k->blocks, k->args);
}

static void refadd_run(void *ctx) { ref_add_run(ctx); }

/* One bandwidth figure: kernel f vs the reference loop at `bytes` per array
   on the first bytes of x, y, z. */
static void bandwidth_point(const char *metric, aclrtFuncHandle f, struct mbuf *x, struct mbuf *y, struct mbuf *z,
                            uint64_t bytes)
{
    size_t n = (size_t)(bytes / 2);
    struct kadd k = {.f = f, .blocks = ADD_BLOCKS, .x = x, .y = y, .z = z, .per_block = (uint32_t)(n / ADD_BLOCKS)};
    struct ref_add r = {.z = z->host, .x = x->host, .y = y->host, .n = n, .parts = g_workers};
    struct side A = {.run = kadd_run, .ctx = &k, .begin = kadd_begin};
    struct side B = {.run = refadd_run, .ctx = &r, .begin = ref_begin, .end = ref_end};
    /* correctness of both sides on this size */
    fill16(z->host, n, 0);
    kadd_begin(&k);
    kadd_run(&k);
    expect16(metric, z->host, n, H_THREE);
    fill16(z->host, n, 0);
    pool_activate(g_refpool);
    ref_add_run(&r);
    pool_deactivate(g_refpool);
    expect16("reference loop", z->host, n, H_THREE);
    uint64_t target = g_opt.quick ? 2000000 : 5000000;
    unsigned iters = calibrate(&A, target, 100000);
    samples_t a = {0}, b = {0};
    interleave(&A, &B, iters, g_opt.reps, &a, &b);
    /* GB/s = 3 * bytes / ns */
    s_invert(&a, 3.0 * (double)bytes);
    s_invert(&b, 3.0 * (double)bytes);
    double bm = s_median(&b);
    emit(metric, "GB/s", &a, bm, s_median(&a) / bm);
    s_free(&a);
    s_free(&b);
}

static void m_add_bandwidth(void)
{
    bool gm = want_group("add_bandwidth"), ub = want_group("add_bandwidth_ub");
    if (!gm && !ub)
        return;
    const uint64_t lo = 32 * KiB, hi = g_opt.quick ? 16 * MiB : 1 * GiB;
    uint64_t max = 0, skipped = 0;
    char name[80];
    for (uint64_t s = lo; s <= hi; s *= 2) {
        snprintf(name, sizeof name, "add_bandwidth:bytes=%llu", (unsigned long long)s);
        bool w = want(name);
        snprintf(name, sizeof name, "add_bandwidth_ub:bytes=%llu", (unsigned long long)s);
        w = w || (want(name) && (s == MiB || s == 16 * MiB || s == 256 * MiB));
        if (!w)
            continue;
        if (mem_fits(3 * s))
            max = s;
        else if (!skipped)
            skipped = s;
    }
    if (!max)
        return;
    section("add_bandwidth");
    note("value: zero-copy FP16 add z = x + y of `bytes` per array, kernel add_f16_gm (blockDim %u) launch +", ADD_BLOCKS);
    note("synchronise, over aclrtMallocHost + HostRegisterV2(MAPPED) buffers; GB/s = 3 x bytes / time");
    note("reference: plain C loop on the host pointers of the same buffers, W=%u threads (caller + %u helpers),",
         g_workers, g_workers - 1);
    note("one contiguous chunk each; loop: %s", g_simd ? bench_ref_simd_name() : "scalar C (no F16C/AVX2)");
    note("samples: batches of >= %d ms, interleaved with the reference, %d rounds", g_opt.quick ? 2 : 5, g_opt.reps);
    note("ratio = oacl GB/s / reference GB/s (higher is better; target >= 0.95 from 16 MiB up)");
    if (skipped)
        note("sizes from %llu bytes skipped: 3 arrays would not fit in available memory",
             (unsigned long long)skipped);
    struct mbuf x, y, z;
    mbuf_alloc(&x, max);
    mbuf_alloc(&y, max);
    mbuf_alloc(&z, max);
    fill16(x.host, max / 2, H_ONE);
    fill16(y.host, max / 2, H_TWO);
    fill16(z.host, max / 2, 0);
    for (uint64_t s = lo; s <= max; s *= 2) {
        snprintf(name, sizeof name, "add_bandwidth:bytes=%llu", (unsigned long long)s);
        if (gm && want(name))
            bandwidth_point(name, g_f_add_gm, &x, &y, &z, s);
    }
    if (ub) {
        bool any = false;
        for (uint64_t s = MiB; s <= max; s *= 16) {
            snprintf(name, sizeof name, "add_bandwidth_ub:bytes=%llu", (unsigned long long)s);
            if (!want(name))
                continue;
            if (!any) {
                section("add_bandwidth_ub");
                note("as add_bandwidth, with kernel add_f16_ub: the AscendC-style path through the unified");
                note("buffer (16 KiB tiles, double-buffered queues, DataCopy GM->UB, Add, DataCopy UB->GM)");
                any = true;
            }
            bandwidth_point(name, g_f_add_ub, &x, &y, &z, s);
        }
    }
    mbuf_free(&z);
    mbuf_free(&y);
    mbuf_free(&x);
}

/* ======================================================================
 * 4. zero_copy_vs_copy
 * ====================================================================== */

#ifdef OACL_BENCH_HAVE_MEMCPY
struct copypath {
    struct mbuf *x, *y, *z; /* host side: pinned buffers (host pointers used) */
    void *dx, *dy, *dz;     /* aclrtMalloc device buffers */
    size_t bytes;
    uint32_t per_block;
    aclrtArgsHandle args;
};

static void copy_begin(void *ctx)
{
    struct copypath *c = ctx;
    c->args = add_args(g_f_add_gm, c->dx, c->dy, c->dz, true, c->per_block);
}

static void copy_run(void *ctx)
{
    struct copypath *c = ctx;
    ACL_CHECK(aclrtMemcpy(c->dx, c->bytes, c->x->host, c->bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CHECK(aclrtMemcpy(c->dy, c->bytes, c->y->host, c->bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    launch_sync(g_f_add_gm, ADD_BLOCKS, c->args);
    ACL_CHECK(aclrtMemcpy(c->z->host, c->bytes, c->dz, c->bytes, ACL_MEMCPY_DEVICE_TO_HOST));
}
#endif

static void m_zero_copy_vs_copy(void)
{
    if (!want_group("zero_copy_vs_copy"))
        return;
    section("zero_copy_vs_copy");
#ifndef OACL_BENCH_HAVE_MEMCPY
    note("skipped: this build's acl/acl.h does not declare aclrtMemcpy (the metric turns itself on when it does)");
#else
    note("value: copy path = aclrtMemcpy H2D x, H2D y, kernel add_f16_gm (blockDim %u) + synchronise,", ADD_BLOCKS);
    note("aclrtMemcpy D2H z; device buffers from aclrtMalloc, allocated once outside the timed loop");
    note("reference: the same add zero-copy (kernel on the mapped pinned buffers, launch + synchronise)");
    note("both steady state, batches interleaved; ratio = copy time / zero-copy time (target >= 5 at 16 Mi)");
    static const size_t ns[] = {16384, 16777216};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        size_t n = ns[i], bytes = n * 2;
        char name[64];
        snprintf(name, sizeof name, "zero_copy_vs_copy:n=%zu", n);
        if (!want(name))
            continue;
        if (!mem_fits(6 * (uint64_t)bytes)) {
            note("%s skipped: not enough memory", name);
            continue;
        }
        struct mbuf x, y, z;
        mbuf_alloc(&x, bytes);
        mbuf_alloc(&y, bytes);
        mbuf_alloc(&z, bytes);
        fill16(x.host, n, H_ONE);
        fill16(y.host, n, H_TWO);
        struct copypath c = {.x = &x, .y = &y, .z = &z, .bytes = bytes, .per_block = (uint32_t)(n / ADD_BLOCKS)};
        ACL_CHECK(aclrtMalloc(&c.dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CHECK(aclrtMalloc(&c.dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CHECK(aclrtMalloc(&c.dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        struct kadd k = {.f = g_f_add_gm, .blocks = ADD_BLOCKS, .x = &x, .y = &y, .z = &z,
                         .per_block = (uint32_t)(n / ADD_BLOCKS)};
        struct side A = {.run = copy_run, .ctx = &c, .begin = copy_begin};
        struct side B = {.run = kadd_run, .ctx = &k, .begin = kadd_begin};
        fill16(z.host, n, 0);
        copy_begin(&c);
        copy_run(&c);
        expect16("zero_copy_vs_copy (copy path)", z.host, n, H_THREE);
        fill16(z.host, n, 0);
        kadd_begin(&k);
        kadd_run(&k);
        expect16("zero_copy_vs_copy (zero-copy)", z.host, n, H_THREE);
        unsigned iters = calibrate(&A, g_opt.quick ? 2000000 : 5000000, 100000);
        samples_t a = {0}, b = {0};
        interleave(&A, &B, iters, g_opt.reps, &a, &b);
        s_scale(&a, 1000.0);
        s_scale(&b, 1000.0);
        double bm = s_median(&b);
        emit(name, "us", &a, bm, s_median(&a) / bm);
        s_free(&a);
        s_free(&b);
        ACL_CHECK(aclrtFree(c.dz));
        ACL_CHECK(aclrtFree(c.dy));
        ACL_CHECK(aclrtFree(c.dx));
        mbuf_free(&z);
        mbuf_free(&y);
        mbuf_free(&x);
    }
#endif
}

/* ======================================================================
 * 5. register_cost, register_mapped_cost
 * ====================================================================== */

struct range {
    void *p;
    size_t len;
};

static void reg_pinned_run(void *ctx)
{
    struct range *r = ctx;
    ACL_CHECK(aclrtHostRegisterV2(r->p, r->len, ACL_HOST_REG_PINNED));
    ACL_CHECK(aclrtHostUnregister(r->p));
}

static void mlock_run(void *ctx)
{
    struct range *r = ctx;
    if (mlock(r->p, r->len) != 0 || munlock(r->p, r->len) != 0) {
        fprintf(stderr, "oacl-bench: mlock/munlock of %zu bytes: %s\n", r->len, strerror(errno));
        exit(1);
    }
}

static void reg_mapped_run(void *ctx)
{
    struct range *r = ctx;
    ACL_CHECK(aclrtHostRegisterV2(r->p, r->len, ACL_HOST_REG_MAPPED));
    ACL_CHECK(aclrtHostUnregister(r->p));
}

static void m_register_cost(void)
{
    const uint64_t hi = g_opt.quick ? 16 * MiB : 1 * GiB;
    char name[80];
    if (want_group("register_cost")) {
        section("register_cost");
        note("value: aclrtHostRegisterV2(ptr, N, ACL_HOST_REG_PINNED) + aclrtHostUnregister(ptr) on pageable");
        note("memory (private anonymous mmap, every page touched before)");
        note("reference: bare mlock + munlock of the same range; batches interleaved, %d rounds", g_opt.reps);
        note("ratio = register time / mlock time (lower is better; target <= 1.1)");
        for (uint64_t s = MiB; s <= hi; s *= 4) {
            snprintf(name, sizeof name, "register_cost:bytes=%llu", (unsigned long long)s);
            if (!want(name))
                continue;
            if (!mem_fits(s)) {
                note("%s skipped: not enough memory", name);
                continue;
            }
            void *p = mmap(NULL, s, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) {
                note("%s skipped: mmap: %s", name, strerror(errno));
                continue;
            }
            memset(p, 1, s);
            struct range r = {p, s};
            if (mlock(p, s) != 0) {
                note("%s skipped: mlock: %s (raise RLIMIT_MEMLOCK or run as root)", name, strerror(errno));
                munmap(p, s);
                continue;
            }
            munlock(p, s);
            struct side A = {.run = reg_pinned_run, .ctx = &r};
            struct side B = {.run = mlock_run, .ctx = &r};
            unsigned iters = calibrate(&A, g_opt.quick ? 2000000 : 5000000, 100000);
            samples_t a = {0}, b = {0};
            interleave(&A, &B, iters, g_opt.reps, &a, &b);
            s_scale(&a, 1000.0);
            s_scale(&b, 1000.0);
            double bm = s_median(&b);
            emit(name, "us", &a, bm, s_median(&a) / bm);
            s_free(&a);
            s_free(&b);
            munmap(p, s);
        }
    }
    if (want_group("register_mapped_cost")) {
        section("register_mapped_cost");
        note("value: aclrtHostRegisterV2(ptr, N, ACL_HOST_REG_MAPPED) + aclrtHostUnregister(ptr) on memory from");
        note("aclrtMallocHost (already pinned); batches of >= %d ms, %d samples", g_opt.quick ? 2 : 5, g_opt.reps);
        note("no reference (nothing outside the runtime does the same): reference and ratio columns empty");
        for (uint64_t s = MiB; s <= hi; s *= 4) {
            snprintf(name, sizeof name, "register_mapped_cost:bytes=%llu", (unsigned long long)s);
            if (!want(name))
                continue;
            if (!mem_fits(s)) {
                note("%s skipped: not enough memory", name);
                continue;
            }
            void *p;
            ACL_CHECK(aclrtMallocHost(&p, s));
            struct range r = {p, s};
            struct side A = {.run = reg_mapped_run, .ctx = &r};
            unsigned iters = calibrate(&A, g_opt.quick ? 2000000 : 5000000, 100000);
            samples_t a = {0};
            for (int i = 0; i < g_opt.reps; i++)
                s_add(&a, batch_ns(&A, iters) / 1000.0);
            emit(name, "us", &a, NAN, NAN);
            s_free(&a);
            ACL_CHECK(aclrtFreeHost(p));
        }
    }
}

/* ======================================================================
 * 6. registry_lookup
 * ====================================================================== */

#define LOOKUP_BATCH 4096u
#define LOOKUP_POOL 65536u

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;

static uint64_t rng_next(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

struct lookup {
    void **ptrs; /* LOOKUP_POOL interior pointers in random registrations */
    unsigned cursor;
    unsigned errors;
};

static void lookup_run(void *ctx)
{
    struct lookup *l = ctx;
    void **p = l->ptrs + l->cursor;
    unsigned err = 0;
    for (unsigned i = 0; i < LOOKUP_BATCH; i++) {
        void *d;
        err += aclrtHostGetDevicePointer(p[i], &d, 0) != ACL_SUCCESS;
    }
    l->errors += err;
    l->cursor = (l->cursor + LOOKUP_BATCH) % LOOKUP_POOL;
}

static void getdevice_run(void *ctx)
{
    unsigned *errors = ctx;
    unsigned err = 0;
    for (unsigned i = 0; i < LOOKUP_BATCH; i++) {
        int32_t dev;
        err += aclrtGetDevice(&dev) != ACL_SUCCESS;
    }
    *errors += err;
}

/* Mappings the process has now and may have at most. */
static void map_counts(long *now, long *max)
{
    *now = 0;
    *max = 65530;
    FILE *f = fopen("/proc/self/maps", "re");
    if (f) {
        int c;
        while ((c = fgetc(f)) != EOF)
            *now += c == '\n';
        fclose(f);
    }
    f = fopen("/proc/sys/vm/max_map_count", "re");
    if (f) {
        if (fscanf(f, "%ld", max) != 1)
            *max = 65530;
        fclose(f);
    }
}

static void m_registry_lookup(void)
{
    if (!want_group("registry_lookup"))
        return;
    const long ps = sysconf(_SC_PAGESIZE);
    section("registry_lookup");
    note("value: aclrtHostGetDevicePointer on an interior pointer of a random live registration, %u lookups", LOOKUP_BATCH);
    note("per timed batch (random order, precomputed), ns per lookup; registrations are single pages of one");
    note("aclrtMallocHost allocation (ACL_HOST_REG_MAPPED), unless each mapped page's extra mapping would");
    note("exceed vm.max_map_count: then sub-page ranges of untouched pageable memory on every other page");
    note("(device address = host address, same lookup path; the gaps keep neighbours from sharing an index");
    note("entry); each row says which");
    note("reference: aclrtGetDevice (an API call that only checks the thread's context), interleaved");
    note("ratio = lookup / aclrtGetDevice (lower is better; the issue's target is <= 100 ns at 100k)");
    static const unsigned lives[] = {1, 1000, 100000};
    for (size_t li = 0; li < sizeof lives / sizeof lives[0]; li++) {
        unsigned live = lives[li];
        char name[64];
        snprintf(name, sizeof name, "registry_lookup:live=%u", live);
        if (!want(name) || (g_opt.quick && live > 1000))
            continue;
        long maps_now, maps_max;
        map_counts(&maps_now, &maps_max);
        bool pinned = maps_now + (long)live + 1000 < maps_max;
        /* Identity-mapped registrations share one page offset (0): spaced
           a page apart, so that no index entry can stand for several. */
        const size_t stride = (size_t)ps * (pinned ? 1u : 2u);
        size_t len = (size_t)live * stride;
        if (!mem_fits(len)) {
            note("%s skipped: not enough memory", name);
            continue;
        }
        char *base;
        size_t reg_len = pinned ? (size_t)ps : (size_t)ps / 2;
        if (pinned) {
            ACL_CHECK(aclrtMallocHost((void **)&base, len));
        } else {
            base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (base == MAP_FAILED) {
                note("%s skipped: mmap: %s", name, strerror(errno));
                continue;
            }
        }
        uint64_t t0 = now_ns();
        for (unsigned i = 0; i < live; i++)
            ACL_CHECK(aclrtHostRegisterV2(base + (size_t)i * stride, reg_len, ACL_HOST_REG_MAPPED));
        double setup_s = (double)(now_ns() - t0) / 1e9;
        struct lookup l = {.ptrs = malloc(LOOKUP_POOL * sizeof(void *))};
        if (!l.ptrs) {
            fprintf(stderr, "oacl-bench: out of memory\n");
            exit(1);
        }
        for (unsigned i = 0; i < LOOKUP_POOL; i++)
            l.ptrs[i] = base + (size_t)(rng_next() % live) * stride + (size_t)(rng_next() % reg_len);
        unsigned gd_errors = 0;
        struct side A = {.run = lookup_run, .ctx = &l};
        struct side B = {.run = getdevice_run, .ctx = &gd_errors};
        samples_t a = {0}, b = {0};
        for (int i = 0; i < 4; i++)
            lookup_run(&l);
        interleave(&A, &B, 4, g_opt.reps, &a, &b);
        if (l.errors || gd_errors) {
            fprintf(stderr, "oacl-bench: %s: %u lookups and %u aclrtGetDevice calls failed\n", name, l.errors,
                    gd_errors);
            exit(1);
        }
        s_scale(&a, LOOKUP_BATCH);
        s_scale(&b, LOOKUP_BATCH);
        note("%s: %s, %u registrations made in %.2f s", name,
             pinned ? "pages of aclrtMallocHost memory" : "sub-page ranges of pageable memory (identity-mapped, every other page)",
             live, setup_s);
        double bm = s_median(&b);
        emit(name, "ns", &a, bm, s_median(&a) / bm);
        s_free(&a);
        s_free(&b);
        for (unsigned i = 0; i < live; i++)
            ACL_CHECK(aclrtHostUnregister(base + (size_t)i * stride));
        free(l.ptrs);
        if (pinned)
            ACL_CHECK(aclrtFreeHost(base));
        else
            munmap(base, len);
    }
}

/* ======================================================================
 * 7. scaling: blockDim and streams
 * ====================================================================== */

static void m_scaling_blockdim(void)
{
    static const uint32_t dims[] = {1, 2, 4, 8, 16, 32, 48};
    enum { ND = sizeof dims / sizeof dims[0] };
    if (!want_group("scaling:blockDim"))
        return;
    /* Largest multiple of 16 * 96 elements (every blockDim divides it into
       32-byte multiples) in the target size. */
    const uint64_t target = g_opt.quick ? 8 * MiB : 64 * MiB;
    const size_t n = (size_t)(target / 2) / 1536 * 1536, bytes = n * 2;
    if (!mem_fits(3 * (uint64_t)bytes)) {
        section("scaling:blockDim");
        note("skipped: not enough memory");
        return;
    }
    section("scaling:blockDim");
    note("value: time of one zero-copy FP16 add of %zu bytes per array (kernel add_f16_gm, launch +", bytes);
    note("synchronise) with the work split into blockDim blocks; all blockDims interleaved round by round");
    note("reference: the same at blockDim=1; ratio = time(1) / time(N) = speedup (W=%u worker threads)", g_workers);
    struct mbuf x, y, z;
    mbuf_alloc(&x, bytes);
    mbuf_alloc(&y, bytes);
    mbuf_alloc(&z, bytes);
    fill16(x.host, n, H_ONE);
    fill16(y.host, n, H_TWO);
    fill16(z.host, n, 0);
    struct kadd k[ND];
    struct side s[ND];
    samples_t v[ND];
    bool on[ND];
    memset(v, 0, sizeof v);
    unsigned iters = 1;
    for (unsigned d = 0; d < ND; d++) {
        char name[64];
        snprintf(name, sizeof name, "scaling:blockDim=%u", dims[d]);
        on[d] = dims[d] == 1 || want(name);
        k[d] = (struct kadd){.f = g_f_add_gm, .blocks = dims[d], .x = &x, .y = &y, .z = &z,
                             .per_block = (uint32_t)(n / dims[d])};
        s[d] = (struct side){.run = kadd_run, .ctx = &k[d], .begin = kadd_begin};
    }
    iters = calibrate(&s[0], g_opt.quick ? 2000000 : 20000000, 1000);
    kadd_begin(&k[ND - 1]);
    kadd_run(&k[ND - 1]);
    expect16("scaling:blockDim", z.host, n, H_THREE);
    /* Every round runs each blockDim once, starting one further along. */
    for (int r = 0; r < g_opt.reps; r++)
        for (unsigned j = 0; j < ND; j++) {
            unsigned d = (j + (unsigned)r) % ND;
            if (on[d])
                s_add(&v[d], batch_ns(&s[d], iters) / 1e6);
        }
    double ref = s_median(&v[0]);
    for (unsigned d = 0; d < ND; d++) {
        char name[64];
        snprintf(name, sizeof name, "scaling:blockDim=%u", dims[d]);
        if (on[d] && want(name))
            emit(name, "ms", &v[d], ref, ref / s_median(&v[d]));
        s_free(&v[d]);
    }
    mbuf_free(&z);
    mbuf_free(&y);
    mbuf_free(&x);
}

#define MAX_STREAMS 64u
#define STREAM_ELEMS 2048u

struct streams_run {
    aclrtStream *streams;
    unsigned n, k;
    struct mbuf *x, *y, *z;
};

static void streams_run(void *ctx)
{
    struct streams_run *s = ctx;
    for (unsigned it = 0; it < s->k; it++) {
        for (unsigned i = 0; i < s->n; i++) {
            size_t off = (size_t)i * STREAM_ELEMS * 2;
            aclrtArgsHandle a = add_args(g_f_add_gm, (char *)s->x->dev + off, (char *)s->y->dev + off,
                                         (char *)s->z->dev + off, true, STREAM_ELEMS);
            launch(g_f_add_gm, 1, s->streams[i], a);
        }
    }
    for (unsigned i = 0; i < s->n; i++)
        ACL_CHECK(aclrtSynchronizeStream(s->streams[i]));
}

static void m_scaling_streams(void)
{
    static const unsigned counts[] = {1, 2, 4, 8, 16, 32, 64};
    enum { NC = sizeof counts / sizeof counts[0] };
    if (!want_group("scaling:streams"))
        return;
    const unsigned k = g_opt.quick ? 8 : 32;
    section("scaling:streams");
    note("value: launches per second when one thread launches a small kernel (add_f16_gm, blockDim 1,");
    note("%u FP16 adds on its own zero-copy slice; argument list built per launch) K=%u times on each of",
         STREAM_ELEMS, k);
    note("N streams round robin, then synchronises all N; all N interleaved round by round");
    note("reference: the same with 1 stream; ratio = launches/s(N) / launches/s(1)");
    struct mbuf x, y, z;
    size_t bytes = (size_t)MAX_STREAMS * STREAM_ELEMS * 2;
    mbuf_alloc(&x, bytes);
    mbuf_alloc(&y, bytes);
    mbuf_alloc(&z, bytes);
    fill16(x.host, bytes / 2, H_ONE);
    fill16(y.host, bytes / 2, H_TWO);
    fill16(z.host, bytes / 2, 0);
    aclrtStream streams[MAX_STREAMS];
    for (unsigned i = 0; i < MAX_STREAMS; i++)
        ACL_CHECK(aclrtCreateStream(&streams[i]));
    struct streams_run sr[NC];
    struct side sd[NC];
    samples_t v[NC];
    bool on[NC];
    memset(v, 0, sizeof v);
    for (unsigned c = 0; c < NC; c++) {
        char name[64];
        snprintf(name, sizeof name, "scaling:streams=%u", counts[c]);
        on[c] = counts[c] == 1 || want(name);
        sr[c] = (struct streams_run){.streams = streams, .n = counts[c], .k = k, .x = &x, .y = &y, .z = &z};
        sd[c] = (struct side){.run = streams_run, .ctx = &sr[c]};
    }
    streams_run(&sr[NC - 1]);
    expect16("scaling:streams", z.host, bytes / 2, H_THREE);
    for (int r = 0; r < g_opt.reps; r++)
        for (unsigned j = 0; j < NC; j++) {
            unsigned c = (j + (unsigned)r) % NC;
            if (on[c])
                s_add(&v[c], (double)counts[c] * k * 1e9 / batch_ns(&sd[c], 1));
        }
    double ref = s_median(&v[0]);
    for (unsigned c = 0; c < NC; c++) {
        char name[64];
        snprintf(name, sizeof name, "scaling:streams=%u", counts[c]);
        if (on[c] && want(name))
            emit(name, "launch/s", &v[c], ref, s_median(&v[c]) / ref);
        s_free(&v[c]);
    }
    for (unsigned i = 0; i < MAX_STREAMS; i++)
        ACL_CHECK(aclrtDestroyStream(streams[i]));
    mbuf_free(&z);
    mbuf_free(&y);
    mbuf_free(&x);
}

/* ======================================================================
 * 8. sample_process
 * ====================================================================== */

/* Runs path (argv = {path}) in dir with output discarded; returns the wall
   time in ns, or -1 if it could not run or did not exit with 0. */
static double spawn_wait(const char *path, const char *dir)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
    if (dir)
        posix_spawn_file_actions_addchdir_np(&fa, dir);
#else
    char old[PATH_MAX];
    if (dir && (!getcwd(old, sizeof old) || chdir(dir) != 0))
        return -1;
#endif
    char *argv[] = {(char *)path, NULL};
    pid_t pid;
    uint64_t t0 = now_ns();
    int e = posix_spawn(&pid, path, &fa, NULL, argv, environ);
    int status = 0;
    if (e == 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    uint64_t t1 = now_ns();
#if !(defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29)))
    if (dir && chdir(old) != 0)
        return -1;
#endif
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return (double)(t1 - t0);
}

static void m_sample_process(void)
{
    if (!want_group("sample_process") || !want("sample_process"))
        return;
    section("sample_process");
    if (!g_opt.sample) {
        note("skipped: pass --sample PATH (bench/run.sh passes the sample built against the install)");
        return;
    }
    char dirbuf[PATH_MAX];
    const char *dir = g_opt.sample_dir;
    if (!dir) {
        snprintf(dirbuf, sizeof dirbuf, "%s", g_opt.sample);
        for (int up = 0; up < 2; up++) {
            char *slash = strrchr(dirbuf, '/');
            if (slash)
                *slash = '\0';
            else
                snprintf(dirbuf, sizeof dirbuf, up ? ".." : ".");
        }
        dir = dirbuf;
    }
    char abs[PATH_MAX];
    if (!realpath(g_opt.sample, abs)) {
        note("skipped: %s: %s", g_opt.sample, strerror(errno));
        return;
    }
    const char *floor_prog = access("/bin/true", X_OK) == 0 ? "/bin/true" : "/usr/bin/true";
    int runs = g_opt.quick ? 5 : (g_opt.reps > 20 ? g_opt.reps : 20);
    note("value: wall time of the installed zero-copy sample (%s, working directory %s),", abs, dir);
    note("posix_spawn to waitpid, output discarded; %d runs after 2 warm-up runs", runs);
    note("reference: the same for %s (process start and exit floor), interleaved", floor_prog);
    note("ratio = sample / floor (lower is better)");
    for (int i = 0; i < 2; i++) {
        if (spawn_wait(abs, dir) < 0) {
            note("skipped: the sample did not run successfully from %s", dir);
            return;
        }
        spawn_wait(floor_prog, NULL);
    }
    samples_t a = {0}, b = {0};
    for (int r = 0; r < runs; r++) {
        double ta = spawn_wait(abs, dir), tb = spawn_wait(floor_prog, NULL);
        if (ta < 0 || tb < 0) {
            note("a run failed; figure skipped");
            s_free(&a);
            s_free(&b);
            return;
        }
        s_add(&a, ta / 1e6);
        s_add(&b, tb / 1e6);
    }
    double bm = s_median(&b);
    emit("sample_process", "ms", &a, bm, s_median(&a) / bm);
    s_free(&a);
    s_free(&b);
}

/* ======================================================================
 * idle_cpu
 * ====================================================================== */

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
}

static void m_idle_cpu(void)
{
    if (!want_group("idle_cpu") || !want("idle_cpu"))
        return;
    const int tries = g_opt.quick ? 1 : 3;
    const uint64_t settle_ns = g_opt.quick ? 300000000ull : 1000000000ull;
    const uint64_t window_ns = g_opt.quick ? 500000000ull : 1000000000ull;
    section("idle_cpu");
    note("value: CPU time of the whole process (getrusage) / wall time over %.1f s of idleness, in %%,",
         (double)window_ns / 1e9);
    note("measured %.1f s after 10 launches + synchronise of the empty kernel (past every spin window);", (double)settle_ns / 1e9);
    note("%d measurement%s; no reference (target < 1%%)", tries, tries > 1 ? "s" : "");
    aclrtArgsHandle args = empty_args();
    samples_t v = {0};
    for (int t = 0; t < tries; t++) {
        for (int i = 0; i < 10; i++)
            launch_sync(g_f_empty, 8, args);
        sleep_ns(settle_ns);
        double c0 = cpu_seconds();
        uint64_t t0 = now_ns();
        sleep_ns(window_ns);
        double c1 = cpu_seconds();
        uint64_t t1 = now_ns();
        s_add(&v, 100.0 * (c1 - c0) / ((double)(t1 - t0) / 1e9));
    }
    emit("idle_cpu", "%", &v, NAN, NAN);
    s_free(&v);
}

/* ======================================================================
 * reduce: aclrtReduceAsync SUM FP32 against a plain accumulate loop
 * ====================================================================== */

struct reduce_bench {
    float *hd;          /* host view of dst and src (pinned, mapped) */
    const float *hs;
    void *dd;           /* device view of the same memory */
    const void *ds;
    size_t n;
    unsigned parts;
};

static void reduce_task_run(void *ctx)
{
    struct reduce_bench *r = ctx;
    ACL_CHECK(aclrtReduceAsync(r->dd, r->ds, r->n * sizeof(float), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT,
                               g_stream, NULL));
    ACL_CHECK(aclrtSynchronizeStream(g_stream));
}

/* The plain loop a program would write (the compiler vectorizes it). */
static __attribute__((noinline)) void plain_accumulate(float *d, const float *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] += s[i];
}

static void reduce_plain_run(void *ctx)
{
    struct reduce_bench *r = ctx;
    plain_accumulate(r->hd, r->hs, r->n);
}

static void reduce_plain_part(void *ctx, unsigned part)
{
    struct reduce_bench *r = ctx;
    size_t per = (r->n / r->parts + 15) & ~(size_t)15;
    size_t lo = per * part, hi = lo + per;
    if (lo > r->n)
        lo = r->n;
    if (hi > r->n || part + 1 == r->parts)
        hi = r->n;
    if (hi > lo)
        plain_accumulate(r->hd + lo, r->hs + lo, hi - lo);
}

static void reduce_plain_par_run(void *ctx) { pool_run(g_refpool, reduce_plain_part, ctx, true); }

static void expect_f32(const char *what, const float *p, size_t n, float v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v) {
            fprintf(stderr, "oacl-bench: %s: element %zu is %g, expected %g\n", what, i, p[i], v);
            exit(1);
        }
}

static void m_reduce(void)
{
    if (!want_group("reduce"))
        return;
    const uint64_t bytes = 16 * MiB;
    char name1[64], name2[64];
    snprintf(name1, sizeof name1, "reduce:bytes=%llu", (unsigned long long)bytes);
    snprintf(name2, sizeof name2, "reduce_par:bytes=%llu", (unsigned long long)bytes);
    const bool w1 = want(name1), w2 = want(name2);
    if (!w1 && !w2)
        return;
    section("reduce");
    if (!mem_fits(2 * bytes)) {
        note("skipped: 2 x %llu bytes do not fit in available memory", (unsigned long long)bytes);
        return;
    }
    note("value: aclrtReduceAsync(dst, src, %llu bytes, SUM, ACL_FLOAT) + aclrtSynchronizeStream, dst and src",
         (unsigned long long)bytes);
    note("the device addresses of aclrtMallocHost + HostRegisterV2(MAPPED) buffers; GB/s = 3 x bytes / time");
    note("reference (reduce): plain loop dst[i] += src[i] on the host pointers of the same buffers, 1 thread");
    note("reference (reduce_par): the same loop on W=%u threads (caller + %u helpers), one chunk each", g_workers,
         g_workers - 1);
    note("samples: batches of >= %d ms, interleaved, %d rounds; ratio = oacl GB/s / reference GB/s (higher is better)",
         g_opt.quick ? 2 : 5, g_opt.reps);
    struct mbuf d, s;
    mbuf_alloc(&d, bytes);
    mbuf_alloc(&s, bytes);
    struct reduce_bench r = {.hd = (float *)d.host, .hs = (const float *)s.host, .dd = d.dev, .ds = s.dev,
                             .n = bytes / sizeof(float), .parts = g_workers};
    for (size_t i = 0; i < r.n; i++) {
        r.hd[i] = 1.0f;
        ((float *)s.host)[i] = 2.0f;
    }
    /* both sides compute the same thing */
    reduce_task_run(&r);
    expect_f32("reduce", r.hd, r.n, 3.0f);
    reduce_plain_run(&r);
    expect_f32("reduce reference loop", r.hd, r.n, 5.0f);
    struct side A = {.run = reduce_task_run, .ctx = &r};
    const uint64_t target = g_opt.quick ? 2000000 : 5000000;
    const unsigned iters = calibrate(&A, target, 100000);
    for (int k = 0; k < 2; k++) {
        if (!(k ? w2 : w1))
            continue;
        struct side B = {.run = k ? reduce_plain_par_run : reduce_plain_run, .ctx = &r,
                         .begin = k ? ref_begin : NULL, .end = k ? ref_end : NULL};
        samples_t a = {0}, b = {0};
        interleave(&A, &B, iters, g_opt.reps, &a, &b);
        s_invert(&a, 3.0 * (double)bytes);
        s_invert(&b, 3.0 * (double)bytes);
        const double bm = s_median(&b);
        emit(k ? name2 : name1, "GB/s", &a, bm, s_median(&a) / bm);
        s_free(&a);
        s_free(&b);
    }
    mbuf_free(&s);
    mbuf_free(&d);
}

/* ======================================================================
 * pool_alloc
 * ====================================================================== */

struct alloc_pair {
    aclrtMemPool pool;
    size_t size;
};

/* One stream-ordered allocation and free on g_stream: the free is queued
 * on the stream, and the next allocation on that stream takes the block
 * again without synchronising. */
static void pool_pair_run(void *ctx)
{
    struct alloc_pair *a = ctx;
    void *p;
    ACL_CHECK(aclrtMemPoolMallocAsync(&p, a->size, a->pool, g_stream));
    ACL_CHECK(aclrtMemPoolFreeAsync(p, g_stream));
}

static void malloc_pair_run(void *ctx)
{
    struct alloc_pair *a = ctx;
    void *p;
    ACL_CHECK(aclrtMalloc(&p, a->size, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtFree(p));
}

static void m_pool_alloc(void)
{
    static const size_t sizes[] = {4 * KiB, 2 * MiB, 32 * MiB};
    if (!want_group("pool_alloc"))
        return;
    section("pool_alloc");
    note("value: aclrtMemPoolMallocAsync + aclrtMemPoolFreeAsync of N bytes on one idle stream, no");
    note("synchronisation in between (the pool hands the freed block out again)");
    note("reference: aclrtMalloc + aclrtFree of N bytes; batches of >= %d ms interleaved, %d rounds",
         g_opt.quick ? 2 : 5, g_opt.reps);
    note("ratio = pool pair time / aclrtMalloc pair time (lower is better)");
    aclrtMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    aclrtMemPool pool;
    ACL_CHECK(aclrtMemPoolCreate(&pool, &props));
    char name[80];
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        snprintf(name, sizeof name, "pool_alloc:bytes=%zu", sizes[i]);
        if (!want(name))
            continue;
        struct alloc_pair ctx = {pool, sizes[i]};
        struct side A = {.run = pool_pair_run, .ctx = &ctx};
        struct side B = {.run = malloc_pair_run, .ctx = &ctx};
        unsigned iters = calibrate(&A, g_opt.quick ? 2000000 : 5000000, 1000000);
        samples_t a = {0}, b = {0};
        interleave(&A, &B, iters, g_opt.reps, &a, &b);
        double bm = s_median(&b);
        emit(name, "ns", &a, bm, s_median(&a) / bm);
        s_free(&a);
        s_free(&b);
        ACL_CHECK(aclrtSynchronizeStream(g_stream)); /* threshold 0: the cached block goes back */
    }
    ACL_CHECK(aclrtMemPoolDestroy(pool));
}

/* ======================================================================
 * copy_2d
 * ====================================================================== */

struct copy2d {
    unsigned char *dst, *src;
    size_t width, height, dpitch, spitch;
};

static void copy2d_api_run(void *ctx)
{
    struct copy2d *c = ctx;
    ACL_CHECK(aclrtMemcpy2dAsync(c->dst, c->dpitch, c->src, c->spitch, c->width, c->height,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, g_stream));
    ACL_CHECK(aclrtSynchronizeStream(g_stream));
}

static void copy2d_ref_run(void *ctx)
{
    struct copy2d *c = ctx;
    for (size_t r = 0; r < c->height; r++)
        memcpy(c->dst + r * c->dpitch, c->src + r * c->spitch, c->width);
}

static void m_copy_2d(void)
{
    if (!want_group("copy_2d"))
        return;
    struct copy2d c = {.width = 4 * KiB, .height = 4096, .dpitch = 8 * KiB, .spitch = 8 * KiB};
    char name[96];
    snprintf(name, sizeof name, "copy_2d:rows=%zu,width=%zu,pitch=%zu", c.height, c.width, c.dpitch);
    if (!want(name))
        return;
    section("copy_2d");
    note("value: aclrtMemcpy2dAsync device->device of %zu rows x %zu bytes, source and destination", c.height,
         c.width);
    note("pitches %zu bytes (aclrtMalloc buffers), + aclrtSynchronizeStream", c.dpitch);
    note("reference: the same rows copied by a plain memcpy loop, one row at a time, on the calling thread");
    note("batches interleaved; ratio = reference time / oacl time (higher is better; W=%u executor threads)",
         g_workers);
    size_t bytes = c.height * c.dpitch;
    if (!mem_fits(2 * (uint64_t)bytes)) {
        note("%s skipped: not enough memory", name);
        return;
    }
    ACL_CHECK(aclrtMalloc((void **)&c.src, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMalloc((void **)&c.dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    for (size_t i = 0; i < bytes; i++)
        c.src[i] = (unsigned char)(i * 131 + 7);
    memset(c.dst, 0, bytes);
    copy2d_api_run(&c);
    for (size_t r = 0; r < c.height; r++)
        if (memcmp(c.dst + r * c.dpitch, c.src + r * c.spitch, c.width) != 0 || c.dst[r * c.dpitch + c.width] != 0) {
            fprintf(stderr, "oacl-bench: copy_2d: wrong result in row %zu\n", r);
            exit(1);
        }
    struct side A = {.run = copy2d_api_run, .ctx = &c};
    struct side B = {.run = copy2d_ref_run, .ctx = &c};
    unsigned iters = calibrate(&A, g_opt.quick ? 2000000 : 20000000, 10000);
    samples_t a = {0}, b = {0};
    interleave(&A, &B, iters, g_opt.reps, &a, &b);
    s_scale(&a, 1000.0);
    s_scale(&b, 1000.0);
    double bm = s_median(&b);
    emit(name, "us", &a, bm, bm / s_median(&a));
    s_free(&a);
    s_free(&b);
    ACL_CHECK(aclrtFree(c.dst));
    ACL_CHECK(aclrtFree(c.src));
}

/* ======================================================================
 * profile_overhead (profiling-and-tools.md: the collector's cost)
 * ====================================================================== */

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void m_profile_overhead(void)
{
    if (!want_group("profile_overhead"))
        return;
    const unsigned batch = g_opt.quick ? 50 : 100;
    section("profile_overhead");
    note("value: launch_sync_empty (aclrtLaunchKernelWithConfig + aclrtSynchronizeStream of an empty kernel)");
    note("while a profiling session records ACL API, runtime API, task time and every block");
    note("(aclprofStart/aclprofStop around each timed block, untimed: the files are written at each stop)");
    note("reference: the same with no session (hooks present, switched off), interleaved");
    note("ratio = profiled / unprofiled (lower is better); profile_cost_per_block = the extra time of 8 blocks");
    note("over 1 block, profiled minus unprofiled, / 7; profile_cost_per_task = the extra time at blockDim 1");
    note("minus one block's (both wall-clock ns at W=%u threads)", g_workers);
    char dir[] = "/tmp/oacl-bench-prof-XXXXXX";
    if (!mkdtemp(dir)) {
        note("cannot make a temporary directory: skipped");
        return;
    }
    ACL_CHECK(aclprofInit(dir, strlen(dir)));
    int32_t dev = 0;
    ACL_CHECK(aclrtGetDevice(&dev));
    uint32_t id = (uint32_t)dev;
    aclprofConfig *cfg = aclprofCreateConfig(&id, 1, ACL_AICORE_NONE, NULL,
                                             ACL_PROF_ACL_API | ACL_PROF_RUNTIME_API | ACL_PROF_TASK_TIME);
    if (!cfg)
        acl_die("aclprofCreateConfig", -1, __FILE__, __LINE__);
    static const uint32_t dims[] = {1, 8};
    double on_m[2] = {0}, off_m[2] = {0};
    for (size_t d = 0; d < 2; d++) {
        uint32_t bd = dims[d];
        aclrtArgsHandle args = empty_args();
        samples_t on = {0}, off = {0};
        for (int i = 0; i < 200; i++)
            launch_sync(g_f_empty, bd, args);
        for (int r = 0; r < g_opt.reps; r++) {
            for (int side = 0; side < 2; side++) {
                bool prof = (side == 0) == (r % 2 == 0);
                settle();
                if (prof)
                    ACL_CHECK(aclprofStart(cfg));
                launch_sync(g_f_empty, bd, args); /* untimed: wakes workers */
                for (unsigned i = 0; i < batch; i++) {
                    uint64_t t0 = now_ns();
                    launch(g_f_empty, bd, g_stream, args);
                    ACL_CHECK(aclrtSynchronizeStream(g_stream));
                    s_add(prof ? &on : &off, (double)(now_ns() - t0) / 1000.0);
                }
                if (prof)
                    ACL_CHECK(aclprofStop(cfg));
            }
        }
        on_m[d] = s_median(&on);
        off_m[d] = s_median(&off);
        char name[64];
        snprintf(name, sizeof name, "profile_overhead:blockDim=%u", bd);
        emit(name, "us", &on, off_m[d], on_m[d] / off_m[d]);
        s_free(&on);
        s_free(&off);
    }
    double cost_block = ((on_m[1] - off_m[1]) - (on_m[0] - off_m[0])) / 7.0 * 1000.0;
    double cost_task = (on_m[0] - off_m[0]) * 1000.0 - cost_block;
    samples_t b = {0}, t = {0};
    s_add(&b, cost_block);
    s_add(&t, cost_task);
    emit("profile_cost_per_block", "ns", &b, NAN, NAN);
    emit("profile_cost_per_task", "ns", &t, NAN, NAN);
    s_free(&b);
    s_free(&t);
    ACL_CHECK(aclprofDestroyConfig(cfg));
    ACL_CHECK(aclprofFinalize());
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ======================================================================
 * main
 * ====================================================================== */

#include "bench_graph.c" /* task graphs (issue 12) */

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    setvbuf(stdout, NULL, _IOLBF, 0);

    unsigned spin_us = env_unsigned("OACL_SPIN_US", 200);
    unsigned sync_spin_us = env_unsigned("OACL_SYNC_SPIN_US", 100);
    uint64_t longest = (uint64_t)(spin_us > sync_spin_us ? spin_us : sync_spin_us) * 2000ull;
    g_settle_ns = longest > 1000000 ? longest : 1000000;

    g_workers = host_cpus();
    unsigned req = env_unsigned("OACL_WORKERS", 0);
    if (req >= 1 && req < g_workers)
        g_workers = req;
    g_simd = bench_ref_simd_usable();

    if (g_opt.csv) {
        g_csv = fopen(g_opt.csv, "w");
        if (!g_csv) {
            fprintf(stderr, "oacl-bench: cannot write %s: %s\n", g_opt.csv, strerror(errno));
            return 2;
        }
        fprintf(g_csv, "metric,value,unit,reference,ratio\n");
        fflush(g_csv);
    }

    ACL_CHECK(aclInit(NULL));
    ACL_CHECK(aclrtSetDevice(0));
    ACL_CHECK(aclrtCreateStream(&g_stream));
    load_kernels();
    g_refpool = pool_create(g_workers - 1);

    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    struct utsname un;
    uname(&un);
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    printf("oacl-bench: %s, %s %s, %u CPUs available, executor threads W=%u, SoC %s\n", date, un.sysname,
           un.machine, host_cpus(), g_workers, aclrtGetSocName() ? aclrtGetSocName() : "?");
    printf("CPU: %s; memory available %.1f GiB; reference add loop: %s\n", cpu,
           (double)mem_available() / (double)GiB, g_simd ? bench_ref_simd_name() : "scalar C");
    char load[128];
    loadavg(load, sizeof load);
    printf("load average at start: %s (other processes share these CPUs)\n", load);
    printf("mode: %s, %d rounds per figure%s%s\n", g_opt.quick ? "quick" : "full", g_opt.reps,
           g_opt.only ? ", only " : "", g_opt.only ? g_opt.only : "");
    printf("every value is the median of its samples; ratios are ratios of medians (see each group's notes)\n\n");
    print_header();

    m_launch_sync_empty();
    m_seed_workload();
    m_add_bandwidth();
    m_zero_copy_vs_copy();
    m_register_cost();
    m_registry_lookup();
    m_scaling_blockdim();
    m_scaling_streams();
    m_sample_process();
    m_idle_cpu();
    m_reduce();
    m_pool_alloc();
    m_copy_2d();
    m_profile_overhead();
    m_graph_replay();

    pool_destroy(g_refpool);
    ACL_CHECK(aclrtBinaryUnLoad(g_seed_bin));
    ACL_CHECK(aclrtBinaryUnLoad(g_bin));
    ACL_CHECK(aclrtDestroyStream(g_stream));
    ACL_CHECK(aclrtResetDeviceForce(0));
    ACL_CHECK(aclFinalize());
    if (g_csv && fclose(g_csv) != 0) {
        fprintf(stderr, "oacl-bench: writing %s failed\n", g_opt.csv);
        return 1;
    }
    loadavg(load, sizeof load);
    printf("\nload average at end: %s\n", load);
    printf("%d figure%s%s%s\n", g_rows, g_rows == 1 ? "" : "s", g_opt.csv ? " written to " : "",
           g_opt.csv ? g_opt.csv : "");
    if (g_rows == 0) {
        fprintf(stderr, "oacl-bench: no metric matched --only %s\n", g_opt.only ? g_opt.only : "");
        return 1;
    }
    return 0;
}
