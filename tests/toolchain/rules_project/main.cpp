// Runs the probe kernel from the linked library (and, in main, from both
// kernel binaries) and prints what it reports.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"

int32_t LaunchProbe(void *stream, uint8_t *out);

#define CHECK(call)                                                                                                   \
    do {                                                                                                              \
        aclError r_ = (call);                                                                                         \
        if (r_ != ACL_SUCCESS) {                                                                                      \
            std::printf("%s failed: %d\n", #call, static_cast<int>(r_));                                              \
            return 1;                                                                                                 \
        }                                                                                                             \
    } while (0)

#ifdef WITH_FATBINS
static int RunBinary(const char *path, const char *kernel, aclrtStream stream, void *dev, uint32_t blocks,
                     const uint32_t *extra)
{
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle func = nullptr;
    aclrtArgsHandle args = nullptr;
    aclrtParamHandle param = nullptr;
    CHECK(aclrtBinaryLoadFromFile(path, nullptr, &bin));
    CHECK(aclrtBinaryGetFunction(bin, kernel, &func));
    CHECK(aclrtKernelArgsInit(func, &args));
    uintptr_t p = reinterpret_cast<uintptr_t>(dev);
    CHECK(aclrtKernelArgsAppend(args, &p, sizeof(p), &param));
    uint32_t value = extra ? *extra : 0;
    if (extra)
        CHECK(aclrtKernelArgsAppend(args, &value, sizeof(value), &param));
    CHECK(aclrtKernelArgsFinalize(args));
    CHECK(aclrtLaunchKernelWithConfig(func, blocks, stream, nullptr, args, nullptr));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtBinaryUnLoad(bin));
    return 0;
}
#endif

int main()
{
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    void *host = nullptr;
    void *dev = nullptr;
    CHECK(aclrtMallocHost(&host, 4096));
    CHECK(aclrtHostRegisterV2(host, 4096, ACL_HOST_REG_MAPPED));
    CHECK(aclrtHostGetDevicePointer(host, &dev, 0));
    int32_t *o = static_cast<int32_t *>(host);

    std::memset(host, 0xff, 64);
    CHECK(LaunchProbe(stream, static_cast<uint8_t *>(dev)));
    CHECK(aclrtSynchronizeStream(stream));
#ifdef __OPTIMIZE__
    std::printf("host: optimized=1\n");
#else
    std::printf("host: optimized=0\n");
#endif
    std::printf("library: optimized=%d arch=%d config=%d extra=%d (expected extra %d)\n", o[0], o[1], o[2], o[3],
                EXPECT_EXTRA);
#ifdef WITH_FATBINS
    std::memset(host, 0xff, 64);
    if (RunBinary("./out/fatbin/fatbin_probe/fatbin_probe.o", "probe", stream, dev, 1, nullptr) != 0)
        return 1;
    std::printf("fatbin_probe: optimized=%d arch=%d config=%d extra=%d\n", o[0], o[1], o[2], o[3]);
    std::memset(host, 0xff, 64);
    const uint32_t add = 3;
    if (RunBinary("./out/fatbin/fatbin_other/fatbin_other.o", "other", stream, dev, 2, &add) != 0)
        return 1;
    std::printf("fatbin_other: %d %d\n", o[0], o[1]);
#endif
    CHECK(aclrtHostUnregister(host));
    CHECK(aclrtFreeHost(host));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDeviceForce(0));
    CHECK(aclFinalize());
    return 0;
}
