/*
 * Task graphs (issue 12): replay of a captured graph of N small kernel
 * launches against issuing the same launches one by one, and the cost of
 * capturing.
 *
 *   graph_replay:tasks=N    per task: aclmdlRIExecuteAsync + synchronise of an
 *                           RI of N empty launches (blockDim 1), divided by N;
 *                           reference: N aclrtLaunchKernelWithConfig +
 *                           synchronise, divided by N; interleaved batches.
 *                           ratio = replay / eager (issue's target <= 0.5 at N=100)
 *   graph_capture:tasks=N   per task: capture begin + N launches + capture end
 *                           + destroy, divided by N; reference: N eager launch
 *                           calls (no synchronise) divided by N.
 *
 * Two layouts: included by oacl_bench.c (one file), or, where the harness
 * is split (bench.h), compiled on its own as family "graph" with
 * {"graph_replay", m_graph_replay} in bench_metrics[].
 */
#if __has_include("bench.h")
#include <math.h>
#include <stdio.h>

#include "bench.h"
#endif

void m_graph_replay(void);

static aclmdlRI graph_capture_empty(unsigned n, aclrtArgsHandle args)
{
    aclmdlRI ri = NULL;
    ACL_CHECK(aclmdlRICaptureBegin(g_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    for (unsigned i = 0; i < n; i++)
        launch(g_f_empty, 1, g_stream, args);
    ACL_CHECK(aclmdlRICaptureEnd(g_stream, &ri));
    return ri;
}

void m_graph_replay(void)
{
    if (!want_group("graph_replay") && !want_group("graph_capture"))
        return;
    section("graph_replay");
    note("value: aclmdlRIExecuteAsync + aclrtSynchronizeStream of a captured RI of N empty launches (blockDim 1),");
    note("per task (batch time / (batch size * N)); reference: the same N launches issued one by one + synchronise,");
    note("per task; batches of each interleaved, %d rounds; ratio = replay / eager (issue 12 target <= 0.5 at N=100)",
         g_opt.reps);
    note("graph_capture: capture begin + N launches + capture end + destroy per task; reference: N eager launch calls");
    static const unsigned sizes[] = {10, 100, 1000};
    aclrtArgsHandle args = empty_args();
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        unsigned n = sizes[k];
        char name[64];
        snprintf(name, sizeof name, "graph_replay:tasks=%u", n);
        if (want(name)) {
            aclmdlRI ri = graph_capture_empty(n, args);
            unsigned batch = (g_opt.quick ? 2000u : 10000u) / n;
            if (batch < 2)
                batch = 2;
            samples_t rv = {0}, ev = {0};
            for (unsigned i = 0; i < 5; i++) { /* warm-up */
                ACL_CHECK(aclmdlRIExecuteAsync(ri, g_stream));
                ACL_CHECK(aclrtSynchronizeStream(g_stream));
            }
            for (int r = 0; r < g_opt.reps; r++) {
                for (int side = 0; side < 2; side++) {
                    bool replay = (side == 0) == (r % 2 == 0);
                    settle();
                    uint64_t t0 = now_ns();
                    for (unsigned b = 0; b < batch; b++) {
                        if (replay) {
                            ACL_CHECK(aclmdlRIExecuteAsync(ri, g_stream));
                        } else {
                            for (unsigned i = 0; i < n; i++)
                                launch(g_f_empty, 1, g_stream, args);
                        }
                        ACL_CHECK(aclrtSynchronizeStream(g_stream));
                    }
                    double per_task = (double)(now_ns() - t0) / 1000.0 / ((double)batch * n);
                    s_add(replay ? &rv : &ev, per_task);
                }
            }
            double em = s_median(&ev);
            emit(name, "us/task", &rv, em, s_median(&rv) / em);
            snprintf(name, sizeof name, "graph_eager:tasks=%u", n);
            emit(name, "us/task", &ev, NAN, NAN);
            s_free(&rv);
            s_free(&ev);
            ACL_CHECK(aclmdlRIDestroy(ri));
        }
        snprintf(name, sizeof name, "graph_capture:tasks=%u", n);
        if (want(name)) {
            samples_t cv = {0}, lv = {0};
            unsigned batch = (g_opt.quick ? 2000u : 10000u) / n;
            if (batch < 2)
                batch = 2;
            for (int r = 0; r < g_opt.reps; r++) {
                for (int side = 0; side < 2; side++) {
                    bool capture = (side == 0) == (r % 2 == 0);
                    settle();
                    uint64_t t0 = now_ns();
                    for (unsigned b = 0; b < batch; b++) {
                        if (capture) {
                            ACL_CHECK(aclmdlRIDestroy(graph_capture_empty(n, args)));
                        } else {
                            for (unsigned i = 0; i < n; i++)
                                launch(g_f_empty, 1, g_stream, args);
                        }
                    }
                    double per_task = (double)(now_ns() - t0) / 1000.0 / ((double)batch * n);
                    s_add(capture ? &cv : &lv, per_task);
                    ACL_CHECK(aclrtSynchronizeStream(g_stream)); /* untimed: the eager launches drain */
                }
            }
            double lm = s_median(&lv);
            emit(name, "us/task", &cv, lm, s_median(&cv) / lm);
            s_free(&cv);
            s_free(&lv);
        }
    }
}
