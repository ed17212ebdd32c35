/*
 * oacl-bench metrics: launch + synchronise of an empty kernel, and the seed workload.
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

void m_launch_sync_empty(void);
void m_seed_workload(void);

/* ======================================================================
 * 1. launch_sync_empty
 * ====================================================================== */

void m_launch_sync_empty(void)
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

/* The row's reference: one thread, the vectorised loop where the CPU has it. */
static void seed_ref(uint16_t *z, const uint16_t *x, const uint16_t *y)
{
    if (g_simd)
        bench_ref_add_f16_simd(z, x, y, SEED_N);
    else
        bench_ref_add_f16_scalar(z, x, y, SEED_N);
}

/* One launch + synchronise of a seed kernel per sample, into v. */
static void seed_time_kernel(aclrtFuncHandle f, aclrtArgsHandle args, unsigned n, samples_t *v)
{
    launch_sync(f, 8, args);
    for (unsigned i = 0; i < n; i++) {
        uint64_t t0 = now_ns();
        launch(f, 8, g_stream, args);
        ACL_CHECK(aclrtSynchronizeStream(g_stream));
        s_add(v, (double)(now_ns() - t0) / 1000.0);
    }
}

void m_seed_workload(void)
{
    if (!want_group("seed_workload") || !want("seed_workload"))
        return;
    const unsigned per_block = g_opt.quick ? 50 : 100;
    section("seed_workload");
    note("value: the zero-copy sample's add_custom kernel (16384 FP16 adds, blockDim 8, buffers from");
    note("aclrtMallocHost + aclrtHostRegisterV2 MAPPED) launch + synchronise, each pair timed alone");
    note("reference: plain serial loop on one thread over the same host buffers (%s), each call timed",
         g_simd ? bench_ref_simd_name() : "scalar half->float, add, float->half");
    note("alone, blocks interleaved with the kernel's; ratio = kernel time / loop time (lower is better;");
    note("the issue's target is <= 3)");
    note("seed_workload:kernel=unchecked: the same work (tiles through UB, the same tile add) by a kernel");
    note("with no queue bookkeeping and no range checks (bench_kernels.c), in the same rounds: the floor");
    note("under the checked AscendC layer at this moment, against the same loop");
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
    /* the argument list is the thread's only one: one per kernel, made
       again before each side's turn (add_args) */
    aclrtArgsHandle uargs = add_args(g_f_seed_unchecked, x.dev, y.dev, z.dev, false, 0);
    launch_sync(g_f_seed_unchecked, 8, uargs);
    expect16("seed_workload:kernel=unchecked", z.host, SEED_N, H_THREE);
    fill16(z.host, SEED_N, 0);
    seed_ref(z.host, x.host, y.host);
    expect16("seed_workload (reference)", z.host, SEED_N, H_THREE);
    for (int i = 0; i < 100; i++) {
        launch_sync(g_f_seed_unchecked, 8, uargs);
        seed_ref(z.host, x.host, y.host);
    }
    args = add_args(g_f_seed, x.dev, y.dev, z.dev, false, 0);
    for (int i = 0; i < 100; i++)
        launch_sync(g_f_seed, 8, args);
    samples_t kv = {0}, uv = {0}, rv = {0};
    for (int r = 0; r < g_opt.reps; r++) {
        for (int turn = 0; turn < 3; turn++) {
            int side = (turn + r) % 3; /* each side first, second and last in turn */
            settle();
            if (side == 0) {
                args = add_args(g_f_seed, x.dev, y.dev, z.dev, false, 0);
                seed_time_kernel(g_f_seed, args, per_block, &kv);
            } else if (side == 1) {
                uargs = add_args(g_f_seed_unchecked, x.dev, y.dev, z.dev, false, 0);
                seed_time_kernel(g_f_seed_unchecked, uargs, per_block, &uv);
            } else {
                for (unsigned i = 0; i < per_block; i++) {
                    uint64_t t0 = now_ns();
                    seed_ref(z.host, x.host, y.host);
                    __asm__ __volatile__("" ::: "memory");
                    s_add(&rv, (double)(now_ns() - t0) / 1000.0);
                }
            }
        }
    }
    expect16("seed_workload", z.host, SEED_N, H_THREE);
    double rm = s_median(&rv);
    emit("seed_workload", "us", &kv, rm, s_median(&kv) / rm);
    emit("seed_workload:kernel=unchecked", "us", &uv, rm, s_median(&uv) / rm);
    s_free(&kv);
    s_free(&uv);
    s_free(&rv);
    mbuf_free(&z);
    mbuf_free(&y);
    mbuf_free(&x);
}
