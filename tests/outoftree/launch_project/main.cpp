// Uses kernels linked into the program through ascendc_library: two rounds
// of aclInit .. aclFinalize, each launching with <<<>>> wrappers (arguments
// captured by value, two launches queued before one synchronise), a trap
// that fails its stream, and a launch on the same stream afterwards.
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"

int32_t LaunchHello(uint32_t blockDim, void *stream, uint8_t *out, float scale, uint32_t base);
void LaunchTrap(uint32_t blockDim, void *stream, uint8_t *flags);

#define CHECK(call)                                                                                                   \
    do {                                                                                                              \
        aclError r_ = (call);                                                                                         \
        if (r_ != ACL_SUCCESS) {                                                                                      \
            std::printf("[host] %s failed: %d\n", #call, static_cast<int>(r_));                                       \
            return 1;                                                                                                 \
        }                                                                                                             \
    } while (0)

static int Round(int round)
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
    float *out = static_cast<float *>(host);
    uint8_t *devOut = static_cast<uint8_t *>(dev);
    for (int i = 0; i < 1024; i++)
        out[i] = -1.0f;

    std::printf("[host] round %d\n", round);
    std::fflush(stdout);
    float scale = 0.5f;
    uint32_t base = 100;
    int32_t first = LaunchHello(4, stream, devOut, scale, base);
    scale = 2.0f; // captured by value: the first launch keeps 0.5 and 100
    base = 200;
    int32_t second = LaunchHello(2, stream, devOut + 16 * sizeof(float), scale, base);
    aclError sync = aclrtSynchronizeStream(stream);
    std::printf("[host] launches %d %d sync %d\n", first, second, static_cast<int>(sync));
    std::printf("[host] out %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", out[0], out[1], out[2], out[3], out[4], out[16],
                out[17]);
    std::fflush(stdout);

    uint32_t *flags = static_cast<uint32_t *>(host) + 512;
    for (int i = 0; i < 4; i++)
        flags[i] = 0;
    LaunchTrap(4, stream, devOut + 512 * sizeof(uint32_t));
    aclError trapSync = aclrtSynchronizeStream(stream);
    std::printf("[host] trap sync %d\n", static_cast<int>(trapSync));
    std::fflush(stdout);
    int32_t again = LaunchHello(1, stream, devOut, 1.0f, 7);
    aclError againSync = aclrtSynchronizeStream(stream);
    std::printf("[host] after trap: launch %d sync %d out %.1f\n", again, static_cast<int>(againSync), out[0]);
    // The default stream (nullptr) works too.
    int32_t dflt = LaunchHello(1, nullptr, devOut, 3.0f, 1);
    aclError dfltSync = aclrtSynchronizeStream(nullptr);
    std::printf("[host] default stream: launch %d sync %d out %.1f\n", dflt, static_cast<int>(dfltSync), out[0]);
    std::fflush(stdout);

    CHECK(aclrtHostUnregister(host));
    CHECK(aclrtFreeHost(host));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDeviceForce(0));
    CHECK(aclFinalize());
    return 0;
}

int main()
{
    for (int round = 1; round <= 2; round++) {
        if (Round(round) != 0)
            return 1;
    }
    std::printf("[host] done\n");
    return 0;
}
