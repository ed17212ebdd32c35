/*
 * oacl-bench's shared harness (bench_harness.c): options, timing,
 * samples, output rows, the reference thread pool, machine facts, runtime
 * helpers, reference loops and interleaved batches. Each metric family
 * lives in its own bench_<family>.c and is listed once in the table of
 * oacl_bench.c (bench_metrics[]): adding a metric touches its file and
 * that table.
 */
#ifndef OACL_BENCH_H
#define OACL_BENCH_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <time.h>

#include "acl/acl.h"
#include "bench_ref.h"

#ifndef OACL_BENCH_KERNEL_DIR
#define OACL_BENCH_KERNEL_DIR "."
#endif

#define KiB ((uint64_t)1024)
#define MiB (KiB * 1024)
#define GiB (MiB * 1024)


/* Blocks of the add kernels in add_bandwidth / zero_copy_vs_copy (the
   seed's blockDim). */
#define ADD_BLOCKS 8u
/* Floor of the spinning phase of waiting threads before they yield (the
   runtime's pause phase is the same 5 us). */
#define YIELD_AFTER_NS 5000u

/* ---- metrics ------------------------------------------------------------- */

/* One metric family: run() decides with want_group()/want() what to do. */
struct bench_metric {
    const char *group; /* documentation: the family's first metric prefix */
    void (*run)(void);
};
extern const struct bench_metric bench_metrics[];

/* ---- options ------------------------------------------------------------- */

struct bench_opt {
    bool quick;
    const char *csv;
    const char *only;
    int reps;
    const char *kernels;
    const char *sample;
    const char *sample_dir;
};
extern struct bench_opt g_opt;

void parse_args(int argc, char **argv);
/* True when a group of metrics named `group` may contain a wanted metric. */
bool want_group(const char *group);
/* True when the metric `name` (with parameters) is wanted. */
bool want(const char *name);

/* ---- time, waiting, futex ------------------------------------------------ */

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

void sleep_ns(uint64_t ns);
void futex_wait(_Atomic uint32_t *w, uint32_t val);
void futex_wake_all(_Atomic uint32_t *w);

/* Pause between two interleaved measurements: longer than the spin window
 * of the runtime's idle workers (OACL_SPIN_US, default 200 us), so that
 * the threads of one side are asleep while the other side is timed. */
extern uint64_t g_settle_ns;
void settle(void);

/* ---- samples and statistics ---------------------------------------------- */

typedef struct {
    double *v;
    size_t n, cap;
} samples_t;

void s_add(samples_t *s, double x);
void s_free(samples_t *s);
double s_median(samples_t *s);
double s_min(const samples_t *s);
double s_max(const samples_t *s);
/* Samples divided by a constant (unit conversion), and rate = k / sample. */
void s_scale(samples_t *s, double div);
void s_invert(samples_t *s, double k);

/* ---- output: the human-readable table and the CSV ------------------------ */

extern FILE *g_csv;
extern int g_rows;

void print_header(void);
/* Notes printed before a group's rows: what is timed, how the reference is
   made, what the ratio means. */
void note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void section(const char *name);
/* One row: the value's median/min/max from `v`, the reference's median and
   the ratio (NAN: none). */
void emit(const char *metric, const char *unit, samples_t *v, double ref, double ratio);

/* ---- reference thread pool ------------------------------------------------ */

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

struct pool *pool_create(unsigned helpers);
void pool_destroy(struct pool *p);
void pool_activate(struct pool *p);
void pool_deactivate(struct pool *p);
/* Runs job(ctx, 1..n) on the helpers and, with self_part, job(ctx, 0) on
   the calling thread; returns when all parts are done. */
void pool_run(struct pool *p, pool_job_fn job, void *ctx, bool self_part);
void job_nothing(void *ctx, unsigned part);

/* ---- machine facts -------------------------------------------------------- */

extern unsigned g_workers;     /* W: the runtime's executor threads */
extern bool g_simd;            /* the F16C/AVX2 reference loop is usable */
extern struct pool *g_refpool; /* W-1 helpers for the parallel reference loops */

unsigned host_cpus(void);
unsigned env_unsigned(const char *name, unsigned def);
/* Memory that can be used without swapping or reclaim trouble. */
uint64_t mem_available(void);
/* True when `bytes` more can be allocated and touched with room to spare. */
bool mem_fits(uint64_t bytes);
/* The first line of /proc/loadavg ("1.00 0.50 0.20 2/150 1234"), trimmed. */
void loadavg(char *buf, size_t len);
void cpu_model(char *buf, size_t len);

/* ---- runtime helpers ------------------------------------------------------- */

_Noreturn void acl_die(const char *expr, aclError e, const char *file, int line);

#define ACL_CHECK(call)                                                                                              \
    do {                                                                                                             \
        aclError e_ = (call);                                                                                        \
        if (e_ != ACL_SUCCESS)                                                                                       \
            acl_die(#call, e_, __FILE__, __LINE__);                                                                  \
    } while (0)

extern aclrtStream g_stream;
extern aclrtFuncHandle g_f_empty, g_f_add_gm, g_f_add_ub, g_f_seed, g_f_seed_unchecked;
extern aclrtBinHandle g_bin, g_seed_bin;

void load_kernels(void);
/* Argument list of an add kernel: x, y, z device addresses and, when
   with_n, the element count per block. The list is the thread's only one:
   any later aclrtKernelArgsInit on this thread makes it stale. */
aclrtArgsHandle add_args(aclrtFuncHandle f, void *x, void *y, void *z, bool with_n, uint32_t n);
aclrtArgsHandle empty_args(void);

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

void mbuf_alloc(struct mbuf *b, size_t size);
void mbuf_free(struct mbuf *b);
void fill16(uint16_t *p, size_t n, uint16_t v);
/* Index of the first element of p[0..n) that is not v, or n. */
size_t check16(const uint16_t *p, size_t n, uint16_t v);
void expect16(const char *what, const uint16_t *p, size_t n, uint16_t v);

/* ---- the parallel reference loop ------------------------------------------ */

/* z = x + y over n halves, split into W contiguous chunks (multiples of 16
   elements), one per pool thread. */
struct ref_add {
    uint16_t *z;
    const uint16_t *x, *y;
    size_t n;
    unsigned parts;
};

void ref_add_part(void *ctx, unsigned part);
void ref_add_run(struct ref_add *r);

/* ---- interleaved batches ----------------------------------------------------- */

/* A "side" is one of the two things compared; a sample is the mean time of
   `iters` back-to-back runs of one side, after one untimed run that wakes
   whatever threads the side uses. */
typedef void (*run_fn)(void *ctx);

struct side {
    run_fn run;
    void *ctx;
    void (*begin)(void *ctx); /* before the batch (untimed), may be NULL */
    void (*end)(void *ctx);   /* after the batch (untimed), may be NULL */
};

double batch_ns(const struct side *s, unsigned iters);
/* Iterations that make one batch of `s` last about target_ns. */
unsigned calibrate(const struct side *s, uint64_t target_ns, unsigned max_iters);
/* `rounds` rounds of A and B batches, order swapped every round, settled
   in between; per-run times (ns) into a and b. */
void interleave(const struct side *A, const struct side *B, unsigned iters, int rounds, samples_t *a,
                samples_t *b);
void ref_begin(void *ctx);
void ref_end(void *ctx);

/* A zero-copy add kernel launch + synchronise as a side: the kernel f on
   `blocks` blocks of per_block halves each over x, y, z. */
struct kadd {
    aclrtFuncHandle f;
    uint32_t blocks;
    struct mbuf *x, *y, *z;
    uint32_t per_block;
    aclrtArgsHandle args;
};

/* (Re)builds the argument list: the thread's list may have been reused. */
void kadd_begin(void *ctx);
void kadd_run(void *ctx);

#endif
