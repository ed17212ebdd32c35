/*
 * oacl-bench metrics: scaling with blockDim and with streams.
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

void m_scaling_blockdim(void);
void m_scaling_streams(void);

/* ======================================================================
 * 7. scaling: blockDim and streams
 * ====================================================================== */

void m_scaling_blockdim(void)
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

void m_scaling_streams(void)
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
