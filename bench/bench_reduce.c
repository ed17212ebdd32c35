/*
 * oacl-bench metrics: aclrtReduceAsync against a plain accumulate loop.
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
#include "bench.h"

void m_reduce(void);

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

void m_reduce(void)
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
