/*
 * oacl-bench-alloc: the cost of one aclrtMalloc + aclrtFree pair on the
 * simulated device, for comparing guard-page settings (the environment is
 * read when the runtime loads, so each setting is its own run):
 *
 *   for g in 0 1; do OACL_DEVICE_GUARD_PAGES=$g oacl-bench-alloc; done
 *   OACL_MEMCHECK=1 oacl-bench-alloc
 *
 * Prints, per allocation size, the median over 15 rounds of the mean time
 * of 2000 pairs (min and max of the rounds alongside). Each round first
 * holds 64 other allocations live, so the free list is not trivially one
 * extent.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "acl/acl.h"

#define ROUNDS 15
#define PAIRS 2000
#define LIVE 64

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    if (aclInit(NULL) || aclrtSetDevice(0)) {
        fprintf(stderr, "oacl-bench-alloc: no device\n");
        return 1;
    }
    const char *g = getenv("OACL_DEVICE_GUARD_PAGES"), *m = getenv("OACL_MEMCHECK");
    printf("# OACL_DEVICE_GUARD_PAGES=%s OACL_MEMCHECK=%s\n", g ? g : "(unset: 1)", m ? m : "(unset: 0)");
    printf("%-10s %12s %12s %12s\n", "size", "ns/pair", "min", "max");
    const size_t sizes[] = {256, 4096, 65536, 1 << 20};
    void *live[LIVE];
    for (int i = 0; i < LIVE; i++)
        if (aclrtMalloc(&live[i], 4096 * (size_t)(1 + i % 3), ACL_MEM_MALLOC_HUGE_FIRST))
            return 2;
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        double r[ROUNDS];
        for (int k = -1; k < ROUNDS; k++) { /* round -1 warms up */
            double t0 = now_ns();
            for (int i = 0; i < PAIRS; i++) {
                void *p;
                if (aclrtMalloc(&p, sizes[s], ACL_MEM_MALLOC_HUGE_FIRST) || aclrtFree(p))
                    return 3;
            }
            if (k >= 0)
                r[k] = (now_ns() - t0) / PAIRS;
        }
        qsort(r, ROUNDS, sizeof(r[0]), cmp);
        printf("%-10zu %12.0f %12.0f %12.0f\n", sizes[s], r[ROUNDS / 2], r[0], r[ROUNDS - 1]);
    }
    for (int i = 0; i < LIVE; i++)
        aclrtFree(live[i]);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
