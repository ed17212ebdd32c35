/*
 * aclmdlRITaskGetSeqId (acl-rt-model-ri.md §3.6, Decision 2): sequence ids
 * number the tasks of a captured RI 0..N-1 in recording order across all
 * its streams, here with three streams whose recording interleaves, and
 * again with recording on two threads; task ids stay per-stream positions.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static aclrtStream g_s, g_y, g_z;
/* Made before each test and destroyed after it (OACL_TEST_WITH_STREAMS). */
static aclrtStream *g_streams[] = {&g_s, &g_y, &g_z, NULL};
static void *g_mem;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtMalloc(&g_mem, 4096, ACL_MEM_MALLOC_HUGE_FIRST))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtFree(g_mem);
    return aclrtResetDeviceForce(0);
}

static void fill(aclrtStream s, uint32_t slot)
{
    ACL_OK(aclrtMemsetAsync((char *)g_mem + slot * 64, 64, (int32_t)slot, 64, s));
}

/* The RI stream holding `count` tasks, and their seq ids in task-id order. */
static void seq_ids(aclmdlRI ri, uint32_t count, uint32_t *ids)
{
    aclrtStream streams[8];
    uint32_t n = 8;
    ACL_OK(aclmdlRIGetStreams(ri, streams, &n));
    for (uint32_t k = 0; k < n; k++) {
        aclmdlRITask tasks[16];
        uint32_t m = 16;
        ACL_OK(aclmdlRIGetTasksByStream(streams[k], tasks, &m));
        if (m != count)
            continue;
        for (uint32_t i = 0; i < m; i++)
            ACL_OK(aclmdlRITaskGetSeqId(tasks[i], &ids[i]));
        return;
    }
    fail_msg("no RI stream holds %u tasks", count);
}

static void expect_ids(aclmdlRI ri, uint32_t count, const uint32_t *want)
{
    uint32_t got[16];
    seq_ids(ri, count, got);
    for (uint32_t i = 0; i < count; i++)
        if (got[i] != want[i])
            fail_msg("stream of %u tasks: task %u has seq id %u, want %u", count, i, got[i], want[i]);
}

static void test_seq_ids_follow_recording_order(void **state)
{
    (void)state;
    aclrtEvent e1, e2, e3;
    ACL_OK(aclrtCreateEventExWithFlag(&e1, ACL_EVENT_SYNC));
    ACL_OK(aclrtCreateEventExWithFlag(&e2, ACL_EVENT_SYNC));
    ACL_OK(aclrtCreateEventExWithFlag(&e3, ACL_EVENT_SYNC));
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    fill(g_s, 0);                            /* seq 0 */
    ACL_OK(aclrtRecordEvent(e1, g_s));       /* 1 */
    ACL_OK(aclrtStreamWaitEvent(g_y, e1));   /* 2: y joins */
    fill(g_y, 1);                            /* 3 */
    ACL_OK(aclrtStreamWaitEvent(g_z, e1));   /* 4: z joins */
    fill(g_z, 2);                            /* 5 */
    fill(g_s, 3);                            /* 6 */
    fill(g_y, 4);                            /* 7 */
    ACL_OK(aclrtRecordEvent(e2, g_y));       /* 8 */
    ACL_OK(aclrtRecordEvent(e3, g_z));       /* 9 */
    ACL_OK(aclrtStreamWaitEvent(g_s, e2));   /* 10 */
    ACL_OK(aclrtStreamWaitEvent(g_s, e3));   /* 11 */
    fill(g_s, 5);                            /* 12 */
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    expect_ids(ri, 6, (const uint32_t[]){0, 1, 6, 10, 11, 12});
    expect_ids(ri, 4, (const uint32_t[]){2, 3, 7, 8});
    expect_ids(ri, 3, (const uint32_t[]){4, 5, 9});
    /* and it replays: every fill lands */
    for (uint32_t rep = 0; rep < 5; rep++) {
        ACL_OK(aclrtMemset(g_mem, 4096, 0xEE, 6 * 64));
        ACL_OK(aclmdlRIExecuteAsync(ri, g_s));
        ACL_OK(aclrtSynchronizeStreamWithTimeout(g_s, 20000));
        unsigned char host[6 * 64];
        ACL_OK(aclrtMemcpy(host, sizeof(host), g_mem, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
        for (uint32_t slot = 0; slot < 6; slot++)
            if (host[slot * 64] != slot || host[slot * 64 + 63] != slot)
                fail_msg("replay %u: slot %u holds %u", rep, slot, host[slot * 64]);
    }
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyEvent(e1));
    ACL_OK(aclrtDestroyEvent(e2));
    ACL_OK(aclrtDestroyEvent(e3));
}

/* Two threads record into the streams of one RI, taking turns through a
 * token: the ids follow the turns. */
struct turns {
    pthread_mutex_t m;
    pthread_cond_t cv;
    int turn; /* 0: main thread, 1: helper, 2: done */
    aclrtContext ctx;
};

static void *helper(void *arg)
{
    struct turns *t = arg;
    ACL_OK(aclrtSetCurrentContext(t->ctx));
    for (uint32_t k = 0; k < 3; k++) {
        pthread_mutex_lock(&t->m);
        while (t->turn != 1)
            pthread_cond_wait(&t->cv, &t->m);
        pthread_mutex_unlock(&t->m);
        fill(g_y, 10 + k);
        pthread_mutex_lock(&t->m);
        t->turn = 0;
        pthread_cond_broadcast(&t->cv);
        pthread_mutex_unlock(&t->m);
    }
    return NULL;
}

static void test_seq_ids_two_threads(void **state)
{
    (void)state;
    aclrtEvent e1, e2;
    ACL_OK(aclrtCreateEventExWithFlag(&e1, ACL_EVENT_SYNC));
    ACL_OK(aclrtCreateEventExWithFlag(&e2, ACL_EVENT_SYNC));
    struct turns t = {.turn = 0};
    pthread_mutex_init(&t.m, NULL);
    pthread_cond_init(&t.cv, NULL);
    ACL_OK(aclrtGetCurrentContext(&t.ctx));
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtRecordEvent(e1, g_s));     /* 0 */
    ACL_OK(aclrtStreamWaitEvent(g_y, e1)); /* 1 */
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, helper, &t), 0);
    for (uint32_t k = 0; k < 3; k++) {
        fill(g_s, 20 + k);                 /* 2, 4, 6 */
        pthread_mutex_lock(&t.m);
        t.turn = 1;                        /* helper: 3, 5, 7 */
        pthread_cond_broadcast(&t.cv);
        while (t.turn != 0)
            pthread_cond_wait(&t.cv, &t.m);
        pthread_mutex_unlock(&t.m);
    }
    assert_int_equal(pthread_join(th, NULL), 0);
    ACL_OK(aclrtRecordEvent(e2, g_y));     /* 8 */
    ACL_OK(aclrtStreamWaitEvent(g_s, e2)); /* 9 */
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    aclrtStream streams[2];
    uint32_t n = 2;
    ACL_OK(aclmdlRIGetStreams(ri, streams, &n));
    assert_int_equal(n, 2);
    static const uint32_t origin[5] = {0, 2, 4, 6, 9}, joined[5] = {1, 3, 5, 7, 8};
    uint32_t all[10] = {0};
    for (uint32_t k = 0; k < n; k++) {
        uint32_t ids[5];
        aclmdlRITask tasks[8];
        uint32_t m = 8;
        ACL_OK(aclmdlRIGetTasksByStream(streams[k], tasks, &m));
        assert_int_equal(m, 5);
        uint32_t prev = 0;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t id;
            ACL_OK(aclmdlRITaskGetSeqId(tasks[i], &id));
            assert_true(id < 10);
            assert_true(i == 0 || id > prev); /* increasing along each stream */
            prev = id;
            all[id]++;
            ids[i] = id;
        }
        const uint32_t *want = ids[0] == 0 ? origin : joined;
        for (uint32_t i = 0; i < 5; i++)
            assert_int_equal(ids[i], want[i]);
    }
    for (uint32_t i = 0; i < 10; i++)
        assert_int_equal(all[i], 1); /* every id once */
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyEvent(e1));
    ACL_OK(aclrtDestroyEvent(e2));
    pthread_mutex_destroy(&t.m);
    pthread_cond_destroy(&t.cv);
}

/* While capturing, aclrtGetThreadLastTaskId reports the position of the
 * task just recorded in its RI stream (§1.4), per stream from 0. */
static void test_thread_last_task_id_while_capturing(void **state)
{
    (void)state;
    aclrtEvent e1, e2;
    ACL_OK(aclrtCreateEventExWithFlag(&e1, ACL_EVENT_SYNC));
    ACL_OK(aclrtCreateEventExWithFlag(&e2, ACL_EVENT_SYNC));
    uint32_t id = 99;
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    fill(g_s, 0);
    ACL_OK(aclrtGetThreadLastTaskId(&id));
    assert_int_equal(id, 0);
    fill(g_s, 1);
    ACL_OK(aclrtGetThreadLastTaskId(&id));
    assert_int_equal(id, 1);
    ACL_OK(aclrtRecordEvent(e1, g_s));     /* 2 */
    ACL_OK(aclrtStreamWaitEvent(g_y, e1)); /* y: 0 */
    fill(g_y, 2);                          /* y: 1 */
    ACL_OK(aclrtGetThreadLastTaskId(&id));
    assert_int_equal(id, 1);
    ACL_OK(aclrtRecordEvent(e2, g_y));     /* y: 2 */
    ACL_OK(aclrtStreamWaitEvent(g_s, e2)); /* 3 */
    ACL_OK(aclrtGetThreadLastTaskId(&id));
    assert_int_equal(id, 3);
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyEvent(e1));
    ACL_OK(aclrtDestroyEvent(e2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        OACL_TEST_WITH_STREAMS(test_seq_ids_follow_recording_order, g_streams),
        OACL_TEST_WITH_STREAMS(test_seq_ids_two_threads, g_streams),
        OACL_TEST_WITH_STREAMS(test_thread_last_task_id_while_capturing, g_streams),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
