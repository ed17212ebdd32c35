/*
 * aclrtCacheLastTaskOpInfo during capture (acl-rt-reliability.md §3.8):
 * the blob lands on the task the calling thread recorded last, when its
 * capture is in progress and ACL_STREAM_ATTR_CACHE_OP_INFO is on (on the
 * stream or on the capture's origin stream); aclmdlRITaskGetParams reports
 * a copy. 507000 where it has no meaning: last task not captured, switch
 * off, capture over, another thread's task; bad arguments.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

static aclrtStream g_s, g_y, g_x;
/* Made before each test and destroyed after it (OACL_TEST_WITH_STREAMS). */
static aclrtStream *g_streams[] = {&g_s, &g_y, &g_x, NULL};
static uint64_t *g_words;

static int setup(void **state)
{
    (void)state;
    if (aclrtSetDevice(0) || aclrtMalloc((void **)&g_words, 4096, ACL_MEM_MALLOC_HUGE_FIRST))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    aclrtFree(g_words);
    return aclrtResetDeviceForce(0);
}

static void cache_switch(aclrtStream s, uint32_t on)
{
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    v.cacheOpInfoSwitch = on;
    ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
}

/* The op info of task i of the RI stream holding `count` tasks. */
static void op_info(aclmdlRI ri, uint32_t count, uint32_t i, const void **ptr, size_t *size)
{
    aclrtStream streams[4];
    uint32_t n = 4;
    ACL_OK(aclmdlRIGetStreams(ri, streams, &n));
    for (uint32_t k = 0; k < n; k++) {
        aclmdlRITask tasks[8];
        uint32_t m = 8;
        ACL_OK(aclmdlRIGetTasksByStream(streams[k], tasks, &m));
        if (m != count)
            continue;
        aclmdlRITaskParams p;
        ACL_OK(aclmdlRITaskGetParams(tasks[i], &p));
        *ptr = p.opInfoPtr;
        *size = p.opInfoSize;
        return;
    }
    fail_msg("no RI stream of %u tasks", count);
}

static void expect_info(aclmdlRI ri, uint32_t count, uint32_t i, const char *want)
{
    const void *p = NULL;
    size_t n = 0;
    op_info(ri, count, i, &p, &n);
    if (!want) {
        assert_null(p);
        assert_int_equal(n, 0);
        return;
    }
    assert_int_equal(n, strlen(want) + 1);
    assert_string_equal((const char *)p, want);
}

static void cache(const char *s) { ACL_OK(aclrtCacheLastTaskOpInfo(s, strlen(s) + 1)); }

static void test_op_info_cached_on_captured_tasks(void **state)
{
    (void)state;
    aclrtEvent e;
    ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    cache_switch(g_s, 1); /* on the origin: the whole capture */
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtValueWrite(g_words, 1, 0, g_s)); /* s: task 0 */
    char blob[32] = "conv2d 1x3x224x224";
    ACL_OK(aclrtCacheLastTaskOpInfo(blob, strlen(blob) + 1));
    memset(blob, 'X', sizeof(blob) - 1); /* copied: later changes do not matter */
    ACL_OK(aclrtValueWrite(g_words + 1, 2, 0, g_s)); /* task 1: nothing cached */
    ACL_OK(aclrtValueWrite(g_words + 2, 3, 0, g_s)); /* task 2: cached twice, the newest wins */
    cache("first");
    cache("relu");
    ACL_OK(aclrtRecordEvent(e, g_s));               /* task 3 */
    ACL_OK(aclrtStreamWaitEvent(g_y, e));           /* y: task 0 */
    ACL_OK(aclrtValueWrite(g_words + 3, 4, 0, g_y)); /* y: task 1, switch off on y, on on the origin */
    cache("matmul");
    /* an enqueue on an ordinary stream makes it the last task: nothing to cache on */
    ACL_OK(aclrtMemsetAsync(g_words + 8, 8, 0, 8, g_x));
    ACL_ERR(aclrtCacheLastTaskOpInfo("x", 2), ACL_ERROR_RT_INTERNAL_ERROR, "not on a stream being captured");
    ACL_OK(aclrtRecordEvent(e, g_y));               /* y: task 2 */
    ACL_OK(aclrtStreamWaitEvent(g_s, e));           /* s: task 4 */
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    ACL_ERR(aclrtCacheLastTaskOpInfo("x", 2), ACL_ERROR_RT_INTERNAL_ERROR, "capture of its last task is over");
    expect_info(ri, 5, 0, "conv2d 1x3x224x224");
    expect_info(ri, 5, 1, NULL);
    expect_info(ri, 5, 2, "relu");
    expect_info(ri, 3, 1, "matmul");
    expect_info(ri, 3, 2, NULL);
    /* replays are not affected */
    ACL_OK(aclmdlRIExecuteAsync(ri, g_x));
    ACL_OK(aclrtSynchronizeStream(g_x));
    uint64_t h[4];
    ACL_OK(aclrtMemcpy(h, sizeof(h), g_words, sizeof(h), ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 4; i++)
        assert_int_equal(h[i], (uint64_t)i + 1);
    ACL_OK(aclmdlRIDestroy(ri));
    ACL_OK(aclrtDestroyEvent(e));
}

static void *other_thread(void *arg)
{
    aclrtContext ctx = arg;
    ACL_OK(aclrtSetCurrentContext(ctx));
    /* this thread recorded nothing */
    ACL_ERR(aclrtCacheLastTaskOpInfo("t", 2), ACL_ERROR_RT_INTERNAL_ERROR, "not on a stream being captured");
    return NULL;
}

static void test_op_info_where_it_has_no_meaning(void **state)
{
    (void)state;
    ACL_ERR(aclrtCacheLastTaskOpInfo(NULL, 4), ACL_ERROR_INVALID_PARAM, "infoPtr");
    ACL_ERR(aclrtCacheLastTaskOpInfo("a", 0), ACL_ERROR_INVALID_PARAM, "infoSize");
    static char big[65537];
    ACL_ERR(aclrtCacheLastTaskOpInfo(big, sizeof(big)), ACL_ERROR_RT_PARAM_INVALID, "65536");
    /* an eager task */
    ACL_OK(aclrtMemsetAsync(g_words, 8, 0, 8, g_s));
    ACL_ERR(aclrtCacheLastTaskOpInfo("a", 2), ACL_ERROR_RT_INTERNAL_ERROR, "not on a stream being captured");
    /* captured, switch off */
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtValueWrite(g_words, 1, 0, g_s));
    ACL_ERR(aclrtCacheLastTaskOpInfo("a", 2), ACL_ERROR_RT_INTERNAL_ERROR, "ACL_STREAM_ATTR_CACHE_OP_INFO is off");
    cache_switch(g_s, 1);
    ACL_ERR(aclrtCacheLastTaskOpInfo(big, sizeof(big)), ACL_ERROR_RT_PARAM_INVALID, "65536");
    ACL_OK(aclrtCacheLastTaskOpInfo(big, 65536)); /* the largest blob */
    aclrtContext ctx;
    ACL_OK(aclrtGetCurrentContext(&ctx));
    oacl_test_run_thread(other_thread, ctx);
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    const void *p = NULL;
    size_t n = 0;
    op_info(ri, 1, 0, &p, &n);
    assert_int_equal(n, 65536);
    assert_non_null(p);
    /* the RI is gone */
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtValueWrite(g_words, 1, 0, g_s));
    aclmdlRI ri2 = NULL;
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri2));
    ACL_OK(aclmdlRIDestroy(ri2));
    ACL_ERR(aclrtCacheLastTaskOpInfo("a", 2), ACL_ERROR_RT_INTERNAL_ERROR, "gone");
    ACL_OK(aclmdlRIDestroy(ri));
}

/* The whole of a file, NUL-terminated (caller frees). */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

/* aclrtCacheLastTaskExtendInfo: the same rules; its string (cut at 4096
 * bytes) shows as "Extend Info" of the task in aclmdlRIDebugJsonPrint. */
static void test_extend_info(void **state)
{
    (void)state;
    ACL_ERR(aclrtCacheLastTaskExtendInfo(NULL, 4), ACL_ERROR_RT_PARAM_INVALID, "extendInfoPtr is NULL");
    ACL_ERR(aclrtCacheLastTaskExtendInfo("x", 0), ACL_ERROR_RT_PARAM_INVALID, "infoSize is 0");
    ACL_OK(aclrtMemsetAsync(g_words, 8, 0, 8, g_s));
    ACL_ERR(aclrtCacheLastTaskExtendInfo("x", 2), ACL_ERROR_RT_INTERNAL_ERROR, "not on a stream being captured");
    cache_switch(g_s, 1);
    aclmdlRI ri = NULL;
    ACL_OK(aclmdlRICaptureBegin(g_s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_OK(aclrtValueWrite(g_words, 1, 0, g_s));     /* task 0 */
    static const char ext[] = "shape=\"1x3\" fused";
    ACL_OK(aclrtCacheLastTaskExtendInfo(ext, sizeof(ext)));
    ACL_OK(aclrtValueWrite(g_words + 1, 2, 0, g_s)); /* task 1: a long string */
    static char longs[5000];
    memset(longs, 'L', sizeof(longs) - 1);
    ACL_OK(aclrtCacheLastTaskExtendInfo(longs, sizeof(longs)));
    ACL_OK(aclrtValueWrite(g_words + 2, 3, 0, g_s)); /* task 2: nothing */
    ACL_OK(aclmdlRICaptureEnd(g_s, &ri));
    ACL_ERR(aclrtCacheLastTaskExtendInfo("x", 2), ACL_ERROR_RT_INTERNAL_ERROR, "capture of its last task is over");
    expect_info(ri, 3, 0, NULL); /* the op info stays apart */
    char path[] = "/tmp/oacl-extinfo-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ACL_OK(aclmdlRIDebugJsonPrint(ri, path, 0));
    char *json = read_all(path);
    unlink(path);
    assert_non_null(strstr(json, "\"Task Id\":0,\"Task Type\":\"MEM_WRITE_VALUE\",\"Extend Info\":\"shape=\\\"1x3\\\" fused\""));
    char want[4200];
    snprintf(want, sizeof(want), "\"Task Id\":1,\"Task Type\":\"MEM_WRITE_VALUE\",\"Extend Info\":\"%.*s\"}", 4096, longs);
    assert_non_null(strstr(json, want));
    assert_null(strstr(json, "\"Task Id\":2,\"Task Type\":\"MEM_WRITE_VALUE\",\"Extend"));
    free(json);
    ACL_OK(aclmdlRIDestroy(ri));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        OACL_TEST_WITH_STREAMS(test_op_info_cached_on_captured_tasks, g_streams),
        OACL_TEST_WITH_STREAMS(test_op_info_where_it_has_no_meaning, g_streams),
        OACL_TEST_WITH_STREAMS(test_extend_info, g_streams),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
