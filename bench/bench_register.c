/*
 * oacl-bench metrics: host registration cost (pinned and mapped).
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

void m_register_cost(void);

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

void m_register_cost(void)
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
