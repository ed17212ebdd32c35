/*
 * oacl-bench-instr: the seed workload as a fixed amount of work, for
 * counting instructions under callgrind (bench/instr.sh). Timings on a
 * shared machine move by tens of per cent from one minute to the next;
 * instruction counts do not, so they show what a change to the kernel-side
 * code or the launch path does, before the timed benchmarks confirm it.
 *
 *   oacl-bench-instr kernel N [BINARY]
 *                               N launches of the sample's add_custom
 *                               (blockDim 8, 16384 FP16 adds), each
 *                               synchronised, then the result checked;
 *                               BINARY: another build of that kernel
 *                               (default: the one built with oacl-bench)
 *   oacl-bench-instr unchecked N
 *                               the same with bench_kernels.c's
 *                               seed_unchecked (the same work with no queue
 *                               bookkeeping and no range checks)
 *   oacl-bench-instr ref N      N calls of oacl-bench's reference loop over
 *                               the same element count
 *
 * The buffers are aclrtMalloc device memory: valgrind cannot create the
 * device mapping of registered host memory that oacl-bench's seed metric
 * uses. The kernel's work is the same.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "bench_ref.h"

static int fail(const char *what, aclError e)
{
    fprintf(stderr, "oacl-bench-instr: %s failed with %d: %s\n", what, (int)e, aclGetRecentErrMsg());
    return 1;
}

#define CHECK(call)                                                                                                 \
    do {                                                                                                            \
        aclError e_ = (call);                                                                                       \
        if (e_)                                                                                                     \
            return fail(#call, e_);                                                                                 \
    } while (0)

static int run_ref(unsigned n)
{
    static uint16_t x[SEED_N], y[SEED_N], z[SEED_N];
    for (unsigned i = 0; i < SEED_N; i++) {
        x[i] = H_ONE;
        y[i] = H_TWO;
    }
    const bool simd = bench_ref_simd_usable(); /* CPUID: once, not per call */
    for (unsigned r = 0; r < n; r++) {
        if (simd)
            bench_ref_add_f16_simd(z, x, y, SEED_N);
        else
            bench_ref_add_f16_scalar(z, x, y, SEED_N);
        __asm__ __volatile__("" ::: "memory");
    }
    for (unsigned i = 0; i < SEED_N; i++)
        if (z[i] != H_THREE) {
            fprintf(stderr, "oacl-bench-instr: reference z[%u] = 0x%04x, expected 0x%04x\n", i, z[i], H_THREE);
            return 1;
        }
    return 0;
}

static int run_kernel(unsigned n, const char *binary, const char *name)
{
    const size_t bytes = SEED_N * sizeof(uint16_t);
    static uint16_t h[SEED_N];
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK(aclrtCreateStream(&s));
    void *buf[3];
    for (int i = 0; i < 3; i++)
        CHECK(aclrtMalloc(&buf[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < 2; i++) {
        for (unsigned k = 0; k < SEED_N; k++)
            h[k] = i ? H_TWO : H_ONE;
        CHECK(aclrtMemcpy(buf[i], bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHECK(aclrtBinaryLoadFromFile(binary, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, name, &f));
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK(aclrtKernelArgsInit(f, &args));
    for (int i = 0; i < 3; i++)
        CHECK(aclrtKernelArgsAppend(args, &buf[i], sizeof(void *), &p));
    CHECK(aclrtKernelArgsFinalize(args));
    for (unsigned r = 0; r < n; r++) {
        CHECK(aclrtLaunchKernelWithConfig(f, 8, s, NULL, args, NULL));
        CHECK(aclrtSynchronizeStream(s));
    }
    CHECK(aclrtMemcpy(h, bytes, buf[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (unsigned k = 0; k < SEED_N; k++)
        if (h[k] != H_THREE) {
            fprintf(stderr, "oacl-bench-instr: z[%u] = 0x%04x, expected 0x%04x\n", k, h[k], H_THREE);
            return 1;
        }
    CHECK(aclrtBinaryUnLoad(bin));
    for (int i = 0; i < 3; i++)
        CHECK(aclrtFree(buf[i]));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    const char *mode = argc >= 2 ? argv[1] : "";
    bool kernel = strcmp(mode, "kernel") == 0, unchecked = strcmp(mode, "unchecked") == 0,
         ref = strcmp(mode, "ref") == 0;
    unsigned long n = argc >= 3 ? strtoul(argv[2], &end, 10) : 0;
    if (!((kernel && argc <= 4) || ((unchecked || ref) && argc == 3)))
        n = 0;
    if (!end || *end || n == 0 || n > 1000000) {
        fprintf(stderr, "usage: oacl-bench-instr kernel N [BINARY] | unchecked N | ref N   (1 <= N <= 1000000)\n");
        return 2;
    }
    if (ref)
        return run_ref((unsigned)n);
    if (unchecked)
        return run_kernel((unsigned)n, OACL_BENCH_KERNEL_DIR "/bench_kernels.o", "seed_unchecked");
    return run_kernel((unsigned)n, argc == 4 ? argv[3] : OACL_BENCH_KERNEL_DIR "/add_custom.o", "add_custom");
}
