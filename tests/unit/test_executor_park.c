/*
 * The executor's parking of idle workers while launches are tiny
 * (src/device/cpu/executor.c, worker_idle): one worker keeps spinning,
 * the others sleep where submits do not wake them. Whatever is parked,
 * work that no other thread runs still runs: a kernel that spins until a
 * kernel on another stream releases it finishes, after a run of tiny
 * launches, while the host only synchronises the spinning kernel's stream
 * (which runs nothing of the other stream). On a host with one CPU there
 * is one worker and nothing parks; the test then checks the plain path.
 */
#include <string.h>

#include "test_support.h"

static aclrtBinHandle g_ctl_bin, g_misc_bin;
static aclrtFuncHandle g_spin, g_mark, g_empty;
static aclrtStream g_s1, g_s2;
static struct test_buf g_words; /* [0] gate (u64), [16..] started, [32..] done */

static int setup(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    test_load("rt_ctl", "spin_until", &g_ctl_bin, &g_spin);
    ACL_OK(aclrtBinaryGetFunction(g_ctl_bin, "mark", &g_mark));
    test_load("rt_misc", "empty_kernel", &g_misc_bin, &g_empty);
    ACL_OK(aclrtCreateStream(&g_s1));
    ACL_OK(aclrtCreateStream(&g_s2));
    test_buf_alloc(&g_words, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_buf_free(&g_words);
    ACL_OK(aclrtDestroyStream(g_s1));
    ACL_OK(aclrtDestroyStream(g_s2));
    ACL_OK(aclrtBinaryUnLoad(g_ctl_bin));
    ACL_OK(aclrtBinaryUnLoad(g_misc_bin));
    return aclrtResetDeviceForce(0) == ACL_SUCCESS ? 0 : -1;
}

static void tiny_launches(int n)
{
    for (int i = 0; i < n; i++) {
        ACL_OK(test_launch(g_empty, 8, g_s1, 0, NULL, NULL));
        ACL_OK(aclrtSynchronizeStream(g_s1));
    }
}

static void test_release_from_other_stream(void **state)
{
    (void)state;
    unsigned char *w = g_words.host;
    for (int round = 0; round < 5; round++) {
        memset(w, 0, 4096);
        tiny_launches(300);
        void *gate = g_words.dev;
        void *started = (unsigned char *)g_words.dev + 64;
        void *done = (unsigned char *)g_words.dev + 128;
        const void *sv[] = {&gate, &started, &done};
        const size_t ss[] = {8, 8, 8};
        ACL_OK(test_launch(g_spin, 1, g_s1, 3, sv, ss));
        /* A worker runs it (the host never drives s1 before the gate opens). */
        uint64_t t0 = test_now_ms();
        while (!__atomic_load_n((uint32_t *)(void *)(w + 64), __ATOMIC_ACQUIRE)) {
            assert_true(test_now_ms() - t0 < 20000);
            test_sleep_ms(1);
        }
        /* The release comes from s2, which only an idle worker can run. */
        uint32_t one = 1;
        const void *mv[] = {&gate, &one};
        const size_t ms[] = {8, 4};
        ACL_OK(test_launch(g_mark, 1, g_s2, 2, mv, ms));
        ACL_OK(aclrtSynchronizeStreamWithTimeout(g_s1, 20000));
        ACL_OK(aclrtSynchronizeStreamWithTimeout(g_s2, 20000));
        assert_int_equal(*(uint32_t *)(void *)(w + 128), 1);
    }
}

/* Tiny launches, then a heavy one, then tiny ones again: every launch
   completes (tiny mode entered and left). */
static void test_tiny_then_heavy(void **state)
{
    (void)state;
    unsigned char *w = g_words.host;
    memset(w, 0, 4096);
    tiny_launches(200);
    void *out = (unsigned char *)g_words.dev + 256;
    for (uint32_t v = 1; v <= 50; v++) {
        const void *mv[] = {&out, &v};
        const size_t ms[] = {8, 4};
        ACL_OK(test_launch(g_mark, 64, g_s2, 2, mv, ms));
        tiny_launches(3);
    }
    ACL_OK(aclrtSynchronizeStream(g_s2));
    for (int b = 0; b < 64; b++)
        assert_int_equal(((uint32_t *)(void *)(w + 256))[b], 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_release_from_other_stream),
        cmocka_unit_test(test_tiny_then_heavy),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
