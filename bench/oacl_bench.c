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
 *
 * Layout: bench_harness.c holds what every metric shares (bench.h), each
 * metric family its own bench_<family>.c (listed in bench/CMakeLists.txt),
 * and this file the table of families, run in its order, and main(). A new
 * metric: a function in its family's file, or a new bench_<family>.c added
 * to that list, and one line in bench_metrics[].
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "bench.h"

/* ======================================================================
 * The metric families, in the order they run
 * ====================================================================== */

void m_launch_sync_empty(void); /* bench_launch.c */
void m_seed_workload(void); /* bench_launch.c */
void m_add_bandwidth(void); /* bench_bandwidth.c */
void m_zero_copy_vs_copy(void); /* bench_bandwidth.c */
void m_register_cost(void); /* bench_register.c */
void m_registry_lookup(void); /* bench_registry.c */
void m_scaling_blockdim(void); /* bench_scaling.c */
void m_scaling_streams(void); /* bench_scaling.c */
void m_sample_process(void); /* bench_process.c */
void m_idle_cpu(void); /* bench_process.c */
void m_reduce(void); /* bench_reduce.c */
void m_pool_alloc(void); /* bench_memory.c */
void m_copy_2d(void); /* bench_memory.c */
void m_profile_overhead(void); /* bench_profile.c */
void m_graph_replay(void);     /* bench_graph.c */

const struct bench_metric bench_metrics[] = {
    {"launch_sync_empty", m_launch_sync_empty},
    {"seed_workload", m_seed_workload},
    {"add_bandwidth", m_add_bandwidth},
    {"zero_copy_vs_copy", m_zero_copy_vs_copy},
    {"register_cost", m_register_cost},
    {"registry_lookup", m_registry_lookup},
    {"scaling:blockDim", m_scaling_blockdim},
    {"scaling:streams", m_scaling_streams},
    {"sample_process", m_sample_process},
    {"idle_cpu", m_idle_cpu},
    {"reduce", m_reduce},
    {"pool_alloc", m_pool_alloc},
    {"copy_2d", m_copy_2d},
    {"profile_overhead", m_profile_overhead},
    {"graph_replay", m_graph_replay},
    {NULL, NULL},
};

/* ======================================================================
 * main
 * ====================================================================== */


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

    for (const struct bench_metric *m = bench_metrics; m->run; m++)
        m->run();

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
