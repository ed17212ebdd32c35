/*
 * oacl-bench metrics: zero-copy FP16 add bandwidth (GM and UB kernels) and zero copy against copies.
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

void m_add_bandwidth(void);
void m_zero_copy_vs_copy(void);

/* ======================================================================
 * 3. add_bandwidth (and add_bandwidth_ub)
 * ====================================================================== */

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

void m_add_bandwidth(void)
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

void m_zero_copy_vs_copy(void)
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
