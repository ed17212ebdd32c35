/*
 * aclrtTaskUpdateAsync kind 1 (acl-rt-model-ri.md §3.10, Decision 19): a
 * captured random-number task re-parameterized from device memory between
 * replays, each replay's numbers compared with an eager aclrtRandomNumAsync
 * of the same parameters; parameters the update cannot use fail the update
 * task and leave the recorded task as it was; bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define NUMS 200u

static aclrtStream g_s, g_x;
/* Made before each test and destroyed after it (OACL_TEST_WITH_STREAMS). */
static aclrtStream *g_streams[] = {&g_s, &g_x, NULL};

static int setup(void **state)
{
    (void)state;
    return aclrtSetDevice(0);
}

static int teardown(void **state)
{
    (void)state;
    return aclrtResetDeviceForce(0);
}

static void *dev_zeroed(size_t n)
{
    void *p = NULL;
    ACL_OK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(p, n, 0, n));
    return p;
}

static void para(aclrtRandomParaInfo *p, uint32_t v)
{
    memset(p, 0, sizeof(*p));
    p->isAddr = 0;
    p->size = 4;
    memcpy(p->valueOrAddr, &v, 4);
}

/* NUMS uniform int32 numbers in [lo, hi) from seed into out. */
static aclrtRandomNumTaskInfo uniform(void *out, void *counter, uint32_t seed, uint32_t lo, uint32_t hi)
{
    aclrtRandomNumTaskInfo t;
    memset(&t, 0, sizeof(t));
    t.dataType = ACL_INT32;
    t.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
    para(&t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, lo);
    para(&t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, hi);
    t.randomResultAddr = out;
    t.randomCounterAddr = counter;
    para(&t.randomSeed, seed);
    para(&t.randomNum, NUMS);
    return t;
}

static void fetch(int32_t *h, const void *dev)
{
    ACL_OK(aclrtMemcpy(h, NUMS * 4, dev, NUMS * 4, ACL_MEMCPY_DEVICE_TO_HOST));
}

/* dev holds exactly what an eager task with parameters t writes, all in [lo, hi). */
static void expect_like_eager(const void *dev, aclrtRandomNumTaskInfo t, int32_t lo, int32_t hi)
{
    void *ref = dev_zeroed(NUMS * 4);
    t.randomResultAddr = ref;
    ACL_OK(aclrtRandomNumAsync(&t, g_x, NULL));
    ACL_OK(aclrtSynchronizeStream(g_x));
    int32_t got[NUMS], want[NUMS];
    fetch(got, dev);
    fetch(want, ref);
    bool differ = false;
    for (uint32_t i = 0; i < NUMS; i++) {
        assert_int_equal(got[i], want[i]);
        assert_true(got[i] >= lo && got[i] < hi);
        differ |= got[i] != got[0];
    }
    assert_true(differ); /* random, not a constant fill */
    aclrtFree(ref);
}

/* A captured RI: a random task (task 0) then a memset (task 1); *rstream its RI stream. */
static aclmdlRI capture_random(aclrtRandomNumTaskInfo *t, void *fill, aclrtStream *rstream)
{
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtRandomNumAsync(t, g_s, NULL));
    ACL_OK(aclrtMemsetAsync(fill, 64, 0x11, 64, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    uint32_t n = 1;
    ACL_OK(aclmdlRIGetStreams(ri, rstream, &n));
    assert_int_equal(n, 1);
    return ri;
}

static void put_info(void *dev, const aclrtRandomNumTaskInfo *t)
{
    ACL_OK(aclrtMemcpy(dev, sizeof(*t), t, sizeof(*t), ACL_MEMCPY_HOST_TO_DEVICE));
}

static void test_update_between_replays(void **state)
{
    (void)state;
    void *a = dev_zeroed(NUMS * 4), *b = dev_zeroed(NUMS * 4), *fill = dev_zeroed(64);
    void *counter = dev_zeroed(16), *src = dev_zeroed(sizeof(aclrtRandomNumTaskInfo));
    aclrtRandomNumTaskInfo t0 = uniform(a, counter, 7, 0, 10);
    aclrtStream rs = NULL;
    aclmdlRI ri = capture_random(&t0, fill, &rs);
    int32_t none[NUMS];
    fetch(none, a);
    for (uint32_t i = 0; i < NUMS; i++)
        assert_int_equal(none[i], 0); /* nothing ran at capture */

    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_like_eager(a, t0, 0, 10);

    aclrtTaskUpdateInfo up = {.id = ACL_RT_UPDATE_RANDOM_TASK};
    up.val.randomTaskAttr.srcAddr = src;
    up.val.randomTaskAttr.size = sizeof(aclrtRandomNumTaskInfo);
    /* several updates, each followed by replays on the updating stream */
    for (uint32_t round = 1; round <= 4; round++) {
        void *out = round % 2 ? b : a;
        ACL_OK(aclrtMemset(out, NUMS * 4, 0, NUMS * 4));
        aclrtRandomNumTaskInfo t = uniform(out, counter, 100 + round, 1000 * round, 1000 * round + 50);
        put_info(src, &t);
        ACL_OK(aclrtTaskUpdateAsync(rs, 0, &up, g_x));
        /* overwriting the parameters after the update ran does not change the task */
        ACL_OK(aclrtSynchronizeStream(g_x));
        ACL_OK(aclrtMemset(src, sizeof(t), 0xFF, sizeof(t)));
        for (int rep = 0; rep < 2; rep++) {
            ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
            ACL_OK(aclrtSynchronizeStream(g_x));
            expect_like_eager(out, t, (int32_t)(1000 * round), (int32_t)(1000 * round + 50));
        }
    }
    /* the update is stream-ordered: parameters written by earlier work of execStream count */
    aclrtRandomNumTaskInfo t5 = uniform(a, counter, 9, 5, 8);
    void *staged = dev_zeroed(sizeof(t5));
    put_info(staged, &t5);
    ACL_OK(aclrtMemcpyAsync(src, sizeof(t5), staged, sizeof(t5), ACL_MEMCPY_DEVICE_TO_DEVICE, g_x));
    ACL_OK(aclrtTaskUpdateAsync(rs, 0, &up, g_x));
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_like_eager(a, t5, 5, 8);
    uint8_t f[64];
    ACL_OK(aclrtMemcpy(f, 64, fill, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(f[63], 0x11); /* the other task still runs */
    ACL_OK(aclmdlRIDestroy(ri));
    aclrtFree(staged);
    aclrtFree(a);
    aclrtFree(b);
    aclrtFree(fill);
    aclrtFree(counter);
    aclrtFree(src);
}

/* A captured uniform random task (t0: 20..30 into a, a fill task beside it)
 * and an update record that reads new parameters from src. */
struct captured_random {
    void *a, *fill, *counter, *src;
    aclrtRandomNumTaskInfo t0;
    aclrtStream rs;
    aclmdlRI ri;
    aclrtTaskUpdateInfo up;
};

static void captured_random_make(struct captured_random *c)
{
    c->a = dev_zeroed(NUMS * 4);
    c->fill = dev_zeroed(64);
    c->counter = dev_zeroed(16);
    c->src = dev_zeroed(sizeof(aclrtRandomNumTaskInfo));
    c->t0 = uniform(c->a, c->counter, 3, 20, 30);
    c->rs = NULL;
    c->ri = capture_random(&c->t0, c->fill, &c->rs);
    memset(&c->up, 0, sizeof(c->up));
    c->up.id = ACL_RT_UPDATE_RANDOM_TASK;
    c->up.val.randomTaskAttr.srcAddr = c->src;
    c->up.val.randomTaskAttr.size = sizeof(aclrtRandomNumTaskInfo);
}

/* The buffers (the test destroys the RI). */
static void captured_random_free(struct captured_random *c)
{
    aclrtFree(c->a);
    aclrtFree(c->fill);
    aclrtFree(c->counter);
    aclrtFree(c->src);
}

/* Parameters that aclrtRandomNumAsync would refuse fail the update task
 * when it runs; the recorded task keeps its parameters. */
static void test_update_bad_parameters_at_run_time(void **state)
{
    (void)state;
    struct captured_random c;
    captured_random_make(&c);
    for (int bad = 0; bad < 3; bad++) {
        aclrtRandomNumTaskInfo t = uniform(c.a, c.counter, 4, 0, 5);
        const char *why;
        if (bad == 0) {
            t.randomNumFuncParaInfo.funcType = (aclrtRandomNumFuncType)9;
            why = "funcType";
        } else if (bad == 1) {
            int32_t host;
            t.randomResultAddr = &host; /* not device memory */
            why = "randomResultAddr";
        } else {
            t.randomCounterAddr = NULL;
            why = "randomCounterAddr";
        }
        put_info(c.src, &t);
        ACL_OK(aclrtTaskUpdateAsync(c.rs, 0, &c.up, g_x));
        aclError rc = aclrtSynchronizeStream(g_x);
        assert_int_not_equal(rc, ACL_SUCCESS);
        const char *msg = aclGetRecentErrMsg();
        if (!msg || !strstr(msg, why))
            fail_msg("case %d: message %s lacks %s", bad, msg ? msg : "(none)", why);
        ACL_OK(aclrtMemset(c.a, NUMS * 4, 0, NUMS * 4));
        ACL_OK(aclmdlRIExecuteAsync(c.ri, g_x));
        ACL_OK(aclrtSynchronizeStream(g_x));
        expect_like_eager(c.a, c.t0, 20, 30);
    }
    ACL_OK(aclmdlRIDestroy(c.ri));
    captured_random_free(&c);
}

static void test_update_bad_arguments(void **state)
{
    (void)state;
    struct captured_random c;
    captured_random_make(&c);
    ACL_ERR(aclrtTaskUpdateAsync(c.rs, 1, &c.up, g_x), ACL_ERROR_RT_PARAM_INVALID, "not a random-number task");
    ACL_ERR(aclrtTaskUpdateAsync(c.rs, 2, &c.up, g_x), ACL_ERROR_RT_PARAM_INVALID, "no task 2");
    ACL_ERR(aclrtTaskUpdateAsync(g_s, 0, &c.up, g_x), ACL_ERROR_RT_PARAM_INVALID, "not bound");
    ACL_ERR(aclrtTaskUpdateAsync(c.rs, 0, &c.up, c.rs), ACL_ERROR_RT_PARAM_INVALID, "execStream");
    c.up.val.randomTaskAttr.size = sizeof(aclrtRandomNumTaskInfo) - 1;
    ACL_ERR(aclrtTaskUpdateAsync(c.rs, 0, &c.up, g_x), ACL_ERROR_RT_PARAM_INVALID, "size");
    c.up.val.randomTaskAttr.size = sizeof(aclrtRandomNumTaskInfo);
    aclrtRandomNumTaskInfo host;
    c.up.val.randomTaskAttr.srcAddr = &host;
    ACL_ERR(aclrtTaskUpdateAsync(c.rs, 0, &c.up, g_x), ACL_ERROR_RT_PARAM_INVALID, "not device memory");
    c.up.val.randomTaskAttr.srcAddr = c.src;
    /* execStream capturing */
    aclmdlRI other = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_ERR(aclrtTaskUpdateAsync(c.rs, 0, &c.up, g_s), ACL_ERROR_RT_STREAM_CAPTURED, "capturing");
    ACL_OK(aclrtMemsetAsync(c.fill, 64, 0x22, 64, g_s));
    ACL_OK(aclmdlRICaptureEnd(g_s, &other));
    ACL_OK(aclmdlRIDestroy(other));
    /* nothing was changed: replays keep the captured parameters */
    ACL_OK(aclmdlRIExecuteAsync(c.ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    expect_like_eager(c.a, c.t0, 20, 30);
    /* a destroyed RI's stream is stale */
    ACL_OK(aclmdlRIDestroy(c.ri));
    ACL_ERR(aclrtTaskUpdateAsync(c.rs, 0, &c.up, g_x), ACL_ERROR_RT_INVALID_HANDLE, "");
    captured_random_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        OACL_TEST_WITH_STREAMS(test_update_between_replays, g_streams),
        OACL_TEST_WITH_STREAMS(test_update_bad_parameters_at_run_time, g_streams),
        OACL_TEST_WITH_STREAMS(test_update_bad_arguments, g_streams),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
