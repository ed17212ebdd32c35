/*
 * Host-memory zero-copy: three pinned host buffers are registered and
 * mapped to device addresses; the AscendC kernel add_custom reads the two
 * inputs and writes the output through those addresses, and the host checks
 * the output in place after a stream synchronise. No copy call anywhere.
 *
 * Four phases run in order and stop at the first failure; the release always
 * runs afterwards, in reverse order, each step only for what exists, and any
 * cleanup error turns the result into a failure.
 */
#include "simple_zero_copy.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "acl/acl.h"
#include "utils.h"

namespace {

constexpr int32_t kDeviceId = 0;
constexpr uint32_t kBlockDim = 8;
constexpr size_t kElementCount = 8 * 2048;
constexpr size_t kBufferSize = kElementCount * sizeof(uint16_t);
constexpr uint16_t kHalfOne = 0x3C00;   // 1.0 in FP16
constexpr uint16_t kHalfTwo = 0x4000;   // 2.0
constexpr uint16_t kHalfThree = 0x4200; // 3.0
// Written by ascendc_fatbin_library(simple_zero_copy_kernel add_custom.cpp).
constexpr const char *kKernelPath = "./out/fatbin/simple_zero_copy_kernel/simple_zero_copy_kernel.o";

struct MappedBuffer {
    uint16_t *host = nullptr;
    void *device = nullptr;
    bool registered = false;
};

struct Session {
    bool initialized = false;
    bool deviceSet = false;
    aclrtStream stream = nullptr;
    aclrtBinHandle binary = nullptr;
    MappedBuffer inputA;
    MappedBuffer inputB;
    MappedBuffer output;
};

int InitializeRuntime(Session &session)
{
    CHECK_ERROR(aclInit(nullptr));
    session.initialized = true;
    CHECK_ERROR(aclrtSetDevice(kDeviceId));
    session.deviceSet = true;
    CHECK_ERROR(aclrtCreateStream(&session.stream));
    return 0;
}

int AllocateMappedBuffer(MappedBuffer &buffer)
{
    CHECK_ERROR(aclrtMallocHost(reinterpret_cast<void **>(&buffer.host), kBufferSize));
    CHECK_ERROR(aclrtHostRegisterV2(buffer.host, kBufferSize, ACL_HOST_REG_MAPPED));
    buffer.registered = true;
    CHECK_ERROR(aclrtHostGetDevicePointer(buffer.host, &buffer.device, 0));
    if (buffer.device == nullptr) {
        ERROR_LOG("Mapped Device address is null.");
        return -1;
    }
    return 0;
}

int PrepareMappedBuffers(Session &session)
{
    if (AllocateMappedBuffer(session.inputA) != 0 || AllocateMappedBuffer(session.inputB) != 0 ||
        AllocateMappedBuffer(session.output) != 0) {
        return -1;
    }
    std::fill_n(session.inputA.host, kElementCount, kHalfOne);
    std::fill_n(session.inputB.host, kElementCount, kHalfTwo);
    std::fill_n(session.output.host, kElementCount, static_cast<uint16_t>(0));
    INFO_LOG("Registered three Host buffers and obtained their Device mapping addresses.");
    return 0;
}

int AppendKernelPointer(aclrtArgsHandle args, void *devicePointer)
{
    aclrtParamHandle paramHandle = nullptr;
    uintptr_t value = reinterpret_cast<uintptr_t>(devicePointer);
    CHECK_ERROR(aclrtKernelArgsAppend(args, &value, sizeof(uintptr_t), &paramHandle));
    return 0;
}

int LoadKernel(Session &session, aclrtFuncHandle &function, aclrtArgsHandle &args)
{
    CHECK_ERROR(aclrtBinaryLoadFromFile(kKernelPath, nullptr, &session.binary));
    CHECK_ERROR(aclrtBinaryGetFunction(session.binary, "add_custom", &function));
    CHECK_ERROR(aclrtKernelArgsInit(function, &args));
    // Device addresses, in the kernel's parameter order x, y, z.
    if (AppendKernelPointer(args, session.inputA.device) != 0 ||
        AppendKernelPointer(args, session.inputB.device) != 0 ||
        AppendKernelPointer(args, session.output.device) != 0) {
        return -1;
    }
    CHECK_ERROR(aclrtKernelArgsFinalize(args));
    return 0;
}

int ExecuteAndVerify(Session &session, aclrtFuncHandle function, aclrtArgsHandle args)
{
    CHECK_ERROR(aclrtLaunchKernelWithConfig(function, kBlockDim, session.stream, nullptr, args, nullptr));
    CHECK_ERROR(aclrtSynchronizeStream(session.stream));
    for (size_t index = 0; index < kElementCount; index++) {
        if (session.output.host[index] != kHalfThree) {
            ERROR_LOG("Mismatch at index %zu: actual 0x%04x, expected 0x%04x.", index,
                      static_cast<unsigned>(session.output.host[index]), static_cast<unsigned>(kHalfThree));
            return -1;
        }
    }
    INFO_LOG("Verified %zu FP16 additions through mapped Host memory.", kElementCount);
    return 0;
}

void RecordCleanupError(const char *call, aclError ret, int &result)
{
    if (ret != ACL_SUCCESS) {
        ERROR_LOG("%s failed during cleanup, error code: %d", call, static_cast<int>(ret));
        result = -1;
    }
}

void ReleaseMappedBuffer(MappedBuffer &buffer, int &result)
{
    if (buffer.registered) {
        RecordCleanupError("aclrtHostUnregister", aclrtHostUnregister(buffer.host), result);
        buffer.registered = false;
    }
    if (buffer.host != nullptr) {
        RecordCleanupError("aclrtFreeHost", aclrtFreeHost(buffer.host), result);
        buffer.host = nullptr;
        buffer.device = nullptr;
    }
}

int ReleaseSession(Session &session, int result)
{
    if (session.binary != nullptr) {
        RecordCleanupError("aclrtBinaryUnLoad", aclrtBinaryUnLoad(session.binary), result);
        session.binary = nullptr;
    }
    ReleaseMappedBuffer(session.output, result);
    ReleaseMappedBuffer(session.inputB, result);
    ReleaseMappedBuffer(session.inputA, result);
    if (session.stream != nullptr) {
        RecordCleanupError("aclrtDestroyStream", aclrtDestroyStream(session.stream), result);
        session.stream = nullptr;
    }
    if (session.deviceSet) {
        RecordCleanupError("aclrtResetDeviceForce", aclrtResetDeviceForce(kDeviceId), result);
        session.deviceSet = false;
    }
    if (session.initialized) {
        RecordCleanupError("aclFinalize", aclFinalize(), result);
        session.initialized = false;
    }
    return result;
}

} // namespace

int RunSimpleZeroCopy()
{
    Session session;
    aclrtFuncHandle function = nullptr;
    aclrtArgsHandle args = nullptr;
    int result = 0;
    if (InitializeRuntime(session) != 0 || PrepareMappedBuffers(session) != 0 ||
        LoadKernel(session, function, args) != 0 || ExecuteAndVerify(session, function, args) != 0) {
        result = -1;
    }
    return ReleaseSession(session, result);
}
