/*
 * Host-memory zero-copy: three pinned host buffers are registered and
 * mapped to device addresses; the kernel reads the inputs and writes the
 * output through those addresses, and the host checks the output in place
 * after a stream synchronise. No copy call anywhere.
 *
 * Four phases run in order and stop at the first failure; the release
 * always runs afterwards, in reverse order, and any cleanup error turns the
 * result into a failure.
 */
#include "simple_zero_copy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "utils.h"

#define DEVICE_ID 0
#define BLOCK_DIM 8u
#define ELEMENT_COUNT ((size_t)8 * 2048)
#define BUFFER_SIZE (ELEMENT_COUNT * sizeof(uint16_t))
#define HALF_ONE 0x3C00u
#define HALF_TWO 0x4000u
#define HALF_THREE 0x4200u

static const char *const kKernelPath = "./out/fatbin/simple_zero_copy_kernel/simple_zero_copy_kernel.o";

typedef struct {
    uint16_t *host;
    void *device;
    bool registered;
} MappedBuffer;

typedef struct {
    bool initialized;
    bool deviceSet;
    aclrtStream stream;
    aclrtBinHandle binary;
    MappedBuffer inputA, inputB, output;
} Session;

static int InitializeRuntime(Session *s)
{
    CHECK_ERROR(aclInit(NULL));
    s->initialized = true;
    CHECK_ERROR(aclrtSetDevice(DEVICE_ID));
    s->deviceSet = true;
    CHECK_ERROR(aclrtCreateStream(&s->stream));
    return 0;
}

static int AllocateMappedBuffer(MappedBuffer *b)
{
    CHECK_ERROR(aclrtMallocHost((void **)&b->host, BUFFER_SIZE));
    CHECK_ERROR(aclrtHostRegisterV2(b->host, BUFFER_SIZE, ACL_HOST_REG_MAPPED));
    b->registered = true;
    CHECK_ERROR(aclrtHostGetDevicePointer(b->host, &b->device, 0));
    if (b->device == NULL) {
        ERROR_LOG("Mapped Device address is null.");
        return -1;
    }
    return 0;
}

static void Fill(uint16_t *p, uint16_t v)
{
    for (size_t i = 0; i < ELEMENT_COUNT; i++)
        p[i] = v;
}

static int PrepareMappedBuffers(Session *s)
{
    if (AllocateMappedBuffer(&s->inputA) != 0 || AllocateMappedBuffer(&s->inputB) != 0 ||
        AllocateMappedBuffer(&s->output) != 0)
        return -1;
    Fill(s->inputA.host, HALF_ONE);
    Fill(s->inputB.host, HALF_TWO);
    Fill(s->output.host, 0);
    INFO_LOG("Registered three Host buffers and obtained their Device mapping addresses.");
    return 0;
}

static int AppendKernelPointer(aclrtArgsHandle args, void *devicePointer)
{
    aclrtParamHandle param;
    uintptr_t value = (uintptr_t)devicePointer;
    CHECK_ERROR(aclrtKernelArgsAppend(args, &value, sizeof(uintptr_t), &param));
    return 0;
}

static int LoadKernel(Session *s, aclrtFuncHandle *function, aclrtArgsHandle *args)
{
    CHECK_ERROR(aclrtBinaryLoadFromFile(kKernelPath, NULL, &s->binary));
    CHECK_ERROR(aclrtBinaryGetFunction(s->binary, "add_custom", function));
    CHECK_ERROR(aclrtKernelArgsInit(*function, args));
    /* Device addresses, in the kernel's parameter order x, y, z. */
    if (AppendKernelPointer(*args, s->inputA.device) != 0 || AppendKernelPointer(*args, s->inputB.device) != 0 ||
        AppendKernelPointer(*args, s->output.device) != 0)
        return -1;
    CHECK_ERROR(aclrtKernelArgsFinalize(*args));
    return 0;
}

static int ExecuteAndVerify(Session *s, aclrtFuncHandle function, aclrtArgsHandle args)
{
    CHECK_ERROR(aclrtLaunchKernelWithConfig(function, BLOCK_DIM, s->stream, NULL, args, NULL));
    CHECK_ERROR(aclrtSynchronizeStream(s->stream));
    for (size_t i = 0; i < ELEMENT_COUNT; i++) {
        if (s->output.host[i] != HALF_THREE) {
            ERROR_LOG("Mismatch at index %zu: actual 0x%04x, expected 0x%04x.", i, (unsigned)s->output.host[i],
                      HALF_THREE);
            return -1;
        }
    }
    INFO_LOG("Verified %zu FP16 additions through mapped Host memory.", ELEMENT_COUNT);
    return 0;
}

static void RecordCleanupError(const char *call, aclError ret, int *result)
{
    if (ret != ACL_SUCCESS) {
        ERROR_LOG("%s failed during cleanup, error code: %d", call, ret);
        *result = -1;
    }
}

static void ReleaseMappedBuffer(MappedBuffer *b, int *result)
{
    if (b->registered) {
        RecordCleanupError("aclrtHostUnregister", aclrtHostUnregister(b->host), result);
        b->registered = false;
    }
    if (b->host != NULL) {
        RecordCleanupError("aclrtFreeHost", aclrtFreeHost(b->host), result);
        b->host = NULL;
        b->device = NULL;
    }
}

static int ReleaseSession(Session *s, int result)
{
    if (s->binary != NULL)
        RecordCleanupError("aclrtBinaryUnLoad", aclrtBinaryUnLoad(s->binary), &result);
    ReleaseMappedBuffer(&s->output, &result);
    ReleaseMappedBuffer(&s->inputB, &result);
    ReleaseMappedBuffer(&s->inputA, &result);
    if (s->stream != NULL)
        RecordCleanupError("aclrtDestroyStream", aclrtDestroyStream(s->stream), &result);
    if (s->deviceSet)
        RecordCleanupError("aclrtResetDeviceForce", aclrtResetDeviceForce(DEVICE_ID), &result);
    if (s->initialized)
        RecordCleanupError("aclFinalize", aclFinalize(), &result);
    return result;
}

int RunSimpleZeroCopy(void)
{
    Session s = {0};
    aclrtFuncHandle function = NULL;
    aclrtArgsHandle args = NULL;
    int result = 0;
    if (InitializeRuntime(&s) != 0 || PrepareMappedBuffers(&s) != 0 || LoadKernel(&s, &function, &args) != 0 ||
        ExecuteAndVerify(&s, function, args) != 0)
        result = -1;
    return ReleaseSession(&s, result);
}
