/*
 * Replays of a captured RI whose streams wait for each other in a chain
 * longer than the device has worker threads: s1 waits for s2, s2 for s3,
 * ... so every stream but the last blocks until a stream started after it
 * has run. Each graph stream must make progress on its own (a stream that
 * waits may not hold the thread another stream needs), and the chain's
 * order must hold: each stream copies the next one's word after waiting
 * for it, so a stale copy shows a broken order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define CHAIN 6u     /* graph streams besides the origin */
#define REPLAYS 40u

static aclrtStream g_s[CHAIN + 1];
static uint32_t *g_words; /* device: one word per stream, 64 bytes apart */
#define WORD(k) (g_words + (k) * 16u)

static int setup(void **state)
{
    (void)state;
    /* Two workers whatever the host: the chain is then longer than the
       pool on every machine. */
    setenv("OACL_WORKERS", "2", 1);
    if (aclInit(NULL) || aclrtSetDevice(0) || aclrtMalloc((void **)&g_words, 64u * (CHAIN + 1), ACL_MEM_MALLOC_HUGE_FIRST))
        return -1;
    for (uint32_t k = 0; k <= CHAIN; k++)
        if (aclrtCreateStream(&g_s[k]))
            return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (uint32_t k = 0; k <= CHAIN; k++)
        aclrtDestroyStream(g_s[k]);
    aclrtFree(g_words);
    aclrtResetDeviceForce(0);
    return aclFinalize();
}

static void test_chain_longer_than_pool(void **state)
{
    (void)state;
    aclrtEvent fork, done[CHAIN + 1];
    ACL_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    for (uint32_t k = 0; k <= CHAIN; k++)
        ACL_OK(aclrtCreateEventExWithFlag(&done[k], ACL_EVENT_SYNC));

    aclmdlRI ri = NULL;
    const uint32_t value = 0xA5A5A5A5u;
    ACL_OK(aclmdlRICaptureBegin(g_s[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtRecordEvent(fork, g_s[0]));
    for (uint32_t k = 1; k <= CHAIN; k++)
        ACL_OK(aclrtStreamWaitEvent(g_s[k], fork));
    /* sN writes; s(k) waits for s(k+1) and copies its word; s0 last */
    ACL_OK(aclrtMemsetAsync(WORD(CHAIN), 4, 0xA5, 4, g_s[CHAIN]));
    ACL_OK(aclrtRecordEvent(done[CHAIN], g_s[CHAIN]));
    for (uint32_t k = CHAIN; k-- > 0;) {
        ACL_OK(aclrtStreamWaitEvent(g_s[k], done[k + 1]));
        ACL_OK(aclrtMemcpyAsync(WORD(k), 4, WORD(k + 1), 4, ACL_MEMCPY_DEVICE_TO_DEVICE, g_s[k]));
        if (k > 0)
            ACL_OK(aclrtRecordEvent(done[k], g_s[k]));
    }
    ACL_OK(aclmdlRICaptureEnd(g_s[0], &ri));

    uint32_t host[(CHAIN + 1) * 16];
    for (uint32_t r = 0; r < REPLAYS; r++) {
        ACL_OK(aclrtMemset(g_words, 64u * (CHAIN + 1), 0, 64u * (CHAIN + 1)));
        ACL_OK(aclmdlRIExecuteAsync(ri, g_s[0]));
        if (r & 1) /* two executions back to back: the second runs after the first */
            ACL_OK(aclmdlRIExecuteAsync(ri, g_s[0]));
        ACL_OK(aclrtSynchronizeStreamWithTimeout(g_s[0], 20000));
        ACL_OK(aclrtMemcpy(host, sizeof(host), g_words, 64u * (CHAIN + 1), ACL_MEMCPY_DEVICE_TO_HOST));
        for (uint32_t k = 0; k <= CHAIN; k++)
            if (host[k * 16] != value)
                fail_msg("replay %u: stream %u's word is 0x%x, want 0x%x (order broken)", r, k, host[k * 16], value);
    }
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyEvent(fork));
    for (uint32_t k = 0; k <= CHAIN; k++)
        ACL_OK(aclrtDestroyEvent(done[k]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_longer_than_pool),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
