/*
 * oacl-bench metrics: stream-ordered pool allocation and 2-D copies.
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

void m_pool_alloc(void);
void m_copy_2d(void);

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

void m_pool_alloc(void)
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

void m_copy_2d(void)
{
    if (!want_group("copy_2d"))
        return;
    struct copy2d c = {.width = 4 * KiB, .height = 4096, .dpitch = 8 * KiB, .spitch = 8 * KiB};
    char name[96];
    /* no commas: the name is one CSV field */
    snprintf(name, sizeof name, "copy_2d:rows=%zu:width=%zu:pitch=%zu", c.height, c.width, c.dpitch);
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
