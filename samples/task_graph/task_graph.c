/*
 * Task graph: capture four kernel launches on a stream into a model running
 * instance (aclmdlRI), then replay the whole graph with one call.
 *
 *   fill 16384 FP16 ones on the device
 *   aclmdlRICaptureBegin(stream)       the stream records instead of running
 *   4 x add_custom(x, x, x)            each doubles the buffer in place
 *   aclmdlRICaptureEnd(stream, &ri)    nothing has run yet: still ones
 *   aclmdlRIExecuteAsync(ri, stream)   x 2: 1 * 16 * 16 = 256 (0x5C00)
 *   aclmdlRIDebugJsonPrint             the graph as a trace file
 *
 * The program links lib64/libacl_rt_impl.so, the library CANN programs that
 * use model running instances link by path.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "utils.h"

#define DEVICE_ID 0
#define BLOCK_DIM 8u
#define ELEMENT_COUNT ((size_t)8 * 2048)
#define BUFFER_SIZE (ELEMENT_COUNT * sizeof(uint16_t))
#define LAUNCHES 4
#define REPLAYS 2
#define HALF_ONE 0x3C00u
#define HALF_256 0x5C00u

static const char *const kKernelPath = "./out/fatbin/task_graph_kernel/task_graph_kernel.o";

/* Every element of the device buffer equals want. */
static int Check(void *dev, uint16_t want, uint16_t *host)
{
    CHECK_ERROR(aclrtMemcpy(host, BUFFER_SIZE, dev, BUFFER_SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < ELEMENT_COUNT; i++) {
        if (host[i] != want) {
            ERROR_LOG("element %zu is 0x%04x, expected 0x%04x", i, host[i], want);
            return -1;
        }
    }
    return 0;
}

static int Run(void)
{
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(DEVICE_ID));
    aclrtStream stream = NULL;
    CHECK_ERROR(aclrtCreateStream(&stream));
    uint16_t *host = malloc(BUFFER_SIZE);
    if (!host)
        return -1;
    for (size_t i = 0; i < ELEMENT_COUNT; i++)
        host[i] = HALF_ONE;
    void *x = NULL;
    CHECK_ERROR(aclrtMalloc(&x, BUFFER_SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(x, BUFFER_SIZE, host, BUFFER_SIZE, ACL_MEMCPY_HOST_TO_DEVICE));

    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    aclrtArgsHandle args = NULL;
    aclrtParamHandle param = NULL;
    CHECK_ERROR(aclrtBinaryLoadFromFile(kKernelPath, NULL, &bin));
    CHECK_ERROR(aclrtBinaryGetFunction(bin, "add_custom", &fn));
    CHECK_ERROR(aclrtKernelArgsInit(fn, &args));
    for (int i = 0; i < 3; i++) /* x = y = z: double in place */
        CHECK_ERROR(aclrtKernelArgsAppend(args, &x, sizeof(x), &param));
    CHECK_ERROR(aclrtKernelArgsFinalize(args));

    aclmdlRI ri = NULL;
    CHECK_ERROR(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    for (int i = 0; i < LAUNCHES; i++)
        CHECK_ERROR(aclrtLaunchKernelWithConfig(fn, BLOCK_DIM, stream, NULL, args, NULL));
    CHECK_ERROR(aclmdlRICaptureEnd(stream, &ri));
    if (Check(x, HALF_ONE, host) != 0)
        return -1;
    INFO_LOG("Captured %d kernel launches into a graph; nothing ran yet.", LAUNCHES);

    for (int r = 0; r < REPLAYS; r++)
        CHECK_ERROR(aclmdlRIExecuteAsync(ri, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    if (Check(x, HALF_256, host) != 0)
        return -1;
    INFO_LOG("Replayed the graph %d times: %zu FP16 values are 256.", REPLAYS, ELEMENT_COUNT);

    CHECK_ERROR(aclmdlRIDebugJsonPrint(ri, "task_graph.json", ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
    INFO_LOG("Wrote the graph to task_graph.json.");

    CHECK_ERROR(aclmdlRIDestroy(ri));
    CHECK_ERROR(aclrtBinaryUnLoad(bin));
    CHECK_ERROR(aclrtFree(x));
    free(host);
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtResetDevice(DEVICE_ID));
    CHECK_ERROR(aclFinalize());
    return 0;
}

int main(void)
{
    INFO_LOG("Start to run task_graph sample.");
    if (Run() != 0) {
        ERROR_LOG("Run the task_graph sample failed.");
        return 1;
    }
    INFO_LOG("Run the task_graph sample successfully.");
    return 0;
}
