/*
 * oacl-bench metrics: the profiler's collection cost.
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

void m_profile_overhead(void);

/* ======================================================================
 * profile_overhead (profiling-and-tools.md: the collector's cost)
 * ====================================================================== */

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

void m_profile_overhead(void)
{
    if (!want_group("profile_overhead"))
        return;
    const unsigned batch = g_opt.quick ? 50 : 100;
    section("profile_overhead");
    note("value: launch_sync_empty (aclrtLaunchKernelWithConfig + aclrtSynchronizeStream of an empty kernel)");
    note("while a profiling session records ACL API, runtime API, task time and every block");
    note("(aclprofStart/aclprofStop around each timed block, untimed: the files are written at each stop)");
    note("reference: the same with no session (hooks present, switched off), interleaved");
    note("ratio = profiled / unprofiled (lower is better); profile_cost_per_block = the extra time of 8 blocks");
    note("over 1 block, profiled minus unprofiled, / 7; profile_cost_per_task = the extra time at blockDim 1");
    note("minus one block's (both wall-clock ns at W=%u threads)", g_workers);
    char dir[] = "/tmp/oacl-bench-prof-XXXXXX";
    if (!mkdtemp(dir)) {
        note("cannot make a temporary directory: skipped");
        return;
    }
    ACL_CHECK(aclprofInit(dir, strlen(dir)));
    int32_t dev = 0;
    ACL_CHECK(aclrtGetDevice(&dev));
    uint32_t id = (uint32_t)dev;
    aclprofConfig *cfg = aclprofCreateConfig(&id, 1, ACL_AICORE_NONE, NULL,
                                             ACL_PROF_ACL_API | ACL_PROF_RUNTIME_API | ACL_PROF_TASK_TIME);
    if (!cfg)
        acl_die("aclprofCreateConfig", -1, __FILE__, __LINE__);
    static const uint32_t dims[] = {1, 8};
    double on_m[2] = {0}, off_m[2] = {0};
    for (size_t d = 0; d < 2; d++) {
        uint32_t bd = dims[d];
        aclrtArgsHandle args = empty_args();
        samples_t on = {0}, off = {0};
        for (int i = 0; i < 200; i++)
            launch_sync(g_f_empty, bd, args);
        for (int r = 0; r < g_opt.reps; r++) {
            for (int side = 0; side < 2; side++) {
                bool prof = (side == 0) == (r % 2 == 0);
                settle();
                if (prof)
                    ACL_CHECK(aclprofStart(cfg));
                launch_sync(g_f_empty, bd, args); /* untimed: wakes workers */
                for (unsigned i = 0; i < batch; i++) {
                    uint64_t t0 = now_ns();
                    launch(g_f_empty, bd, g_stream, args);
                    ACL_CHECK(aclrtSynchronizeStream(g_stream));
                    s_add(prof ? &on : &off, (double)(now_ns() - t0) / 1000.0);
                }
                if (prof)
                    ACL_CHECK(aclprofStop(cfg));
            }
        }
        on_m[d] = s_median(&on);
        off_m[d] = s_median(&off);
        char name[64];
        snprintf(name, sizeof name, "profile_overhead:blockDim=%u", bd);
        emit(name, "us", &on, off_m[d], on_m[d] / off_m[d]);
        s_free(&on);
        s_free(&off);
    }
    double cost_block = ((on_m[1] - off_m[1]) - (on_m[0] - off_m[0])) / 7.0 * 1000.0;
    double cost_task = (on_m[0] - off_m[0]) * 1000.0 - cost_block;
    samples_t b = {0}, t = {0};
    s_add(&b, cost_block);
    s_add(&t, cost_task);
    emit("profile_cost_per_block", "ns", &b, NAN, NAN);
    emit("profile_cost_per_task", "ns", &t, NAN, NAN);
    s_free(&b);
    s_free(&t);
    ACL_CHECK(aclprofDestroyConfig(cfg));
    ACL_CHECK(aclprofFinalize());
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
