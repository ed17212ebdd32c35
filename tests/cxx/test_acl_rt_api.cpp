// acl/acl_rt_api.h: every C++ overload compiles (C++17, -Wpedantic) and
// forwards to its C function. Overloads whose C functions this build
// implements are called and their effect checked (typed pointers, default
// arguments, the *WithTimeout / *ExWithFlag / *V2 targets). The others are
// instantiated in a branch that runs only when the library exports the C
// function (dlsym; weak references keep the program linkable without it);
// there they must return what the C function returns for the same arguments.
#include <acl/acl.h>
#include <acl/acl_rt_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <dlfcn.h>

// C functions that other parts of the runtime provide: weak, so that the
// overloads forwarding to them link either way.
extern "C" {
__attribute__((weak)) aclError aclrtMallocWithCfg(void **, size_t, aclrtMemMallocPolicy, aclrtMallocConfig *);
__attribute__((weak)) aclError aclrtMallocHostWithCfg(void **, uint64_t, aclrtMallocConfig *);
__attribute__((weak)) aclError aclrtMemAllocManaged(void **, uint64_t, uint32_t);
__attribute__((weak)) aclError aclrtMemcpy2d(void *, size_t, const void *, size_t, size_t, size_t, aclrtMemcpyKind);
__attribute__((weak)) aclError aclrtMemcpy2dAsync(void *, size_t, const void *, size_t, size_t, size_t,
                                                  aclrtMemcpyKind, aclrtStream);
__attribute__((weak)) aclError aclrtMemcpyBatchV2(void **, size_t *, void **, size_t *, size_t, aclrtMemcpyBatchAttr *,
                                                  size_t *, size_t);
__attribute__((weak)) aclError aclrtMemcpyBatchAsync(void **, size_t *, void **, size_t *, size_t,
                                                     aclrtMemcpyBatchAttr *, size_t *, size_t, size_t *, aclrtStream);
__attribute__((weak)) aclError aclrtMemcpyBatchAsyncV2(void **, size_t *, void **, size_t *, size_t,
                                                       aclrtMemcpyBatchAttr *, size_t *, size_t, aclrtStream);
__attribute__((weak)) aclError aclrtMemManagedPrefetchAsync(const void *, size_t, aclrtMemManagedLocation, uint32_t,
                                                            aclrtStream);
__attribute__((weak)) aclError aclrtMemManagedPrefetchBatchAsync(const void **, size_t *, size_t,
                                                                 aclrtMemManagedLocation *, size_t *, size_t, uint64_t,
                                                                 aclrtStream);
__attribute__((weak)) aclError aclrtGetSymbolAddress(const void *, void **);
__attribute__((weak)) aclError aclrtGetSymbolSize(const void *, size_t *);
__attribute__((weak)) aclError aclrtMemcpyFromSymbol(void *, size_t, const void *, size_t, size_t, aclrtMemcpyKind);
__attribute__((weak)) aclError aclrtMemcpyFromSymbolAsync(void *, size_t, const void *, size_t, size_t,
                                                          aclrtMemcpyKind, aclrtStream);
__attribute__((weak)) aclError aclrtMemcpyToSymbol(const void *, const void *, size_t, size_t, aclrtMemcpyKind);
__attribute__((weak)) aclError aclrtMemcpyToSymbolAsync(const void *, const void *, size_t, size_t, aclrtMemcpyKind,
                                                        aclrtStream);
}

namespace {

int failures = 0;
int skipped = 0;

void check(bool ok, const char *what, int line)
{
    if (!ok) {
        const char *msg = aclGetRecentErrMsg();
        std::fprintf(stderr, "FAILED (line %d): %s [%s]\n", line, what, msg ? msg : "no message");
        ++failures;
    }
}

#define CHECK(expr) check((expr), #expr, __LINE__)

// ---- overloads whose C functions are implemented here -------------------------------------

uint64_t *g_gate; // device word a gated stream waits for

void gate(uint64_t value)
{
    CHECK(aclrtMemcpy(g_gate, sizeof(uint64_t), &value, sizeof(value), ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
}

// Synchronise overloads take a timeout: a held stream times out instead of
// blocking (the C functions without a timeout would wait for ever).
void synchronisation()
{
    aclrtStream s = nullptr;
    CHECK(aclrtCreateStream(&s) == ACL_SUCCESS);
    aclrtEvent e = nullptr;
    CHECK(aclrtCreateEvent(&e) == ACL_SUCCESS);
    gate(0);
    CHECK(aclrtValueWait(g_gate, 1, ACL_STREAM_WAIT_VALUE_GEQ, s) == ACL_SUCCESS);
    CHECK(aclrtRecordEvent(e, s) == ACL_SUCCESS);
    CHECK(aclrtSynchronizeStream(s, 20) == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK(aclrtSynchronizeEvent(e, 20) == ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    CHECK(aclrtSynchronizeDevice(20) == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK(aclrtSynchronizeStream(s, 0) == ACL_ERROR_RT_PARAM_INVALID); // WithTimeout's own check
    gate(1);
    CHECK(aclrtSynchronizeStream(s, 5000) == ACL_SUCCESS);
    CHECK(aclrtSynchronizeEvent(e, 5000) == ACL_SUCCESS);
    CHECK(aclrtSynchronizeDevice(5000) == ACL_SUCCESS);
    CHECK(aclrtDestroyEvent(e) == ACL_SUCCESS);
    CHECK(aclrtDestroyStream(s) == ACL_SUCCESS);
}

void streams_and_events()
{
    aclrtStream s = nullptr;
    CHECK(aclrtCreateStream(&s, 0, ACL_STREAM_FAST_LAUNCH) == ACL_SUCCESS);
    uint32_t flags = 0;
    CHECK(aclrtStreamGetFlags(s, &flags) == ACL_SUCCESS);
    CHECK((flags & ACL_STREAM_FAST_LAUNCH) != 0);
    CHECK(aclrtDestroyStream(s) == ACL_SUCCESS);
    // aclrtCreateEventExWithFlag: flag 0 is refused there (not by aclrtCreateEvent).
    aclrtEvent e = nullptr;
    CHECK(aclrtCreateEvent(&e, 0u) == ACL_ERROR_RT_PARAM_INVALID);
    CHECK(e == nullptr);
    CHECK(aclrtCreateEvent(&e, ACL_EVENT_SYNC) == ACL_SUCCESS);
    // An Ex event that was never recorded counts as complete.
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK(aclrtQueryEventStatus(e, &st) == ACL_SUCCESS);
    CHECK(st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK(aclrtDestroyEvent(e) == ACL_SUCCESS);
}

// Typed copies and pointer queries; void* calls still reach the C functions.
void copies()
{
    float *dev = nullptr;
    void *vdev = nullptr;
    CHECK(aclrtMalloc(&vdev, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS); // C function
    dev = static_cast<float *>(vdev);
    float in[64], out[64];
    for (int i = 0; i < 64; i++) {
        in[i] = static_cast<float>(i) * 1.5f;
        out[i] = -1.0f;
    }
    const float *cin = in;
    CHECK(aclrtMemcpy(dev, 64 * sizeof(float), cin, 64 * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    CHECK(aclrtMemcpy(out, sizeof(out), dev, sizeof(out), ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    CHECK(std::memcmp(in, out, sizeof(in)) == 0);
    aclrtStream s = nullptr;
    CHECK(aclrtCreateStream(&s) == ACL_SUCCESS);
    uint16_t *pinned = nullptr;
    void *vp = nullptr;
    CHECK(aclrtMallocHost(&vp, 4096) == ACL_SUCCESS); // C function
    pinned = static_cast<uint16_t *>(vp);
    std::memset(pinned, 0, 4096);
    CHECK(aclrtMemcpyAsync(pinned, 4096, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST, s) == ACL_SUCCESS);
    CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS);
    CHECK(std::memcmp(pinned, in, 8) == 0);
    CHECK(aclrtMemcpy(out, 4, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_RT_PARAM_INVALID); // count > destMax
    aclrtPtrAttributes a;
    std::memset(&a, 0, sizeof(a));
    CHECK(aclrtPointerGetAttributes(dev + 3, &a) == ACL_SUCCESS);
    CHECK(a.location.type == ACL_MEM_LOCATION_TYPE_DEVICE);
    CHECK(aclrtPointerGetAttributes(pinned, &a) == ACL_SUCCESS);
    CHECK(a.location.type == ACL_MEM_LOCATION_TYPE_HOST);
    CHECK(aclrtFreeHost(pinned) == ACL_SUCCESS);
    CHECK(aclrtFree(dev) == ACL_SUCCESS);
    CHECK(aclrtDestroyStream(s) == ACL_SUCCESS);
}

// Host registration with typed pointers: the aclrtHostRegister overloads
// forward to aclrtHostRegister (with a typed device pointer) and to
// aclrtHostRegisterV2 (flag form).
void host_registration()
{
    void *vp = nullptr;
    CHECK(aclrtMallocHost(&vp, 8192) == ACL_SUCCESS);
    int32_t *host = static_cast<int32_t *>(vp);
    int32_t *dev = nullptr;
    CHECK(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_MAPPED, &dev) == ACL_SUCCESS);
    CHECK(dev != nullptr);
    int32_t *again = nullptr;
    CHECK(aclrtHostGetDevicePointer(host, &again, 0) == ACL_SUCCESS);
    CHECK(again == dev);
    CHECK(aclrtHostUnregister(host) == ACL_SUCCESS);
    CHECK(aclrtHostUnregister(host) != ACL_SUCCESS); // it is gone
    CHECK(aclrtHostRegister(host + 1024, 4096, ACL_HOST_REG_MAPPED) == ACL_SUCCESS); // V2
    again = nullptr;
    CHECK(aclrtHostGetDevicePointer(host + 1024, &again, 0) == ACL_SUCCESS);
    CHECK(again != nullptr);
    CHECK(aclrtHostRegister(host + 1024, 4096, 0x80u) == ACL_ERROR_RT_PARAM_INVALID); // V2 refuses unknown flags
    CHECK(aclrtHostUnregister(host + 1024) == ACL_SUCCESS);
    CHECK(aclrtFreeHost(host) == ACL_SUCCESS);
}

// ---- overloads whose C functions may be missing -----------------------------------------------

// Whether the library exports `name` (the weak references above are then
// bound to it).
bool have(const char *name)
{
    if (dlsym(RTLD_DEFAULT, name))
        return true;
    std::printf("note: %s is not in this library: its overloads were compiled only\n", name);
    ++skipped;
    return false;
}

int g_symbol[4]; // stands for a device variable (not registered: the calls fail alike)

// Each overload and the C function it forwards to, with the same arguments
// (chosen to change nothing), must give the same result.
void forwarded_elsewhere()
{
    aclrtStream s = nullptr;
    CHECK(aclrtCreateStream(&s) == ACL_SUCCESS);
    float *f = nullptr;
    double *d = nullptr;
    aclrtMallocConfig cfg;
    std::memset(&cfg, 0, sizeof(cfg));
    if (have("aclrtMallocWithCfg")) {
        CHECK(aclrtMalloc(&f, 0) == aclrtMallocWithCfg(reinterpret_cast<void **>(&f), 0, ACL_MEM_MALLOC_HUGE_FIRST,
                                                       nullptr));
        CHECK(aclrtMalloc(&f, 0, &cfg) ==
              aclrtMallocWithCfg(reinterpret_cast<void **>(&f), 0, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
        CHECK(aclrtMalloc(&d, 0, ACL_MEM_MALLOC_NORMAL_ONLY) ==
              aclrtMallocWithCfg(reinterpret_cast<void **>(&d), 0, ACL_MEM_MALLOC_NORMAL_ONLY, nullptr));
        CHECK(aclrtMalloc(&d, 0, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg) ==
              aclrtMallocWithCfg(reinterpret_cast<void **>(&d), 0, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg));
    }
    if (have("aclrtMallocHostWithCfg")) {
        CHECK(aclrtMallocHost(&f, 0) == aclrtMallocHostWithCfg(reinterpret_cast<void **>(&f), 0, nullptr));
        CHECK(aclrtMallocHost(&f, 0, &cfg) == aclrtMallocHostWithCfg(reinterpret_cast<void **>(&f), 0, &cfg));
    }
    if (have("aclrtMemAllocManaged")) {
        CHECK(aclrtMemAllocManaged(&f, 0) == aclrtMemAllocManaged(reinterpret_cast<void **>(&f), 0, 1u));
        CHECK(aclrtMemAllocManaged(&f, 64, 0u) == aclrtMemAllocManaged(reinterpret_cast<void **>(&f), 64, 0u));
    }
    CHECK(f == nullptr && d == nullptr);

    float row[8] = {0};
    const double *crow = nullptr;
    if (have("aclrtMemcpy2d"))
        CHECK(aclrtMemcpy2d(row, 4, crow, 4, 8, 1, ACL_MEMCPY_HOST_TO_DEVICE) ==
              aclrtMemcpy2d(static_cast<void *>(row), 4, static_cast<const void *>(crow), 4, 8, 1,
                            ACL_MEMCPY_HOST_TO_DEVICE));
    if (have("aclrtMemcpy2dAsync"))
        CHECK(aclrtMemcpy2dAsync(row, 4, crow, 4, 8, 1, ACL_MEMCPY_HOST_TO_DEVICE, s) ==
              aclrtMemcpy2dAsync(static_cast<void *>(row), 4, static_cast<const void *>(crow), 4, 8, 1,
                                 ACL_MEMCPY_HOST_TO_DEVICE, s));

    float *dsts[1] = {nullptr};
    const int *srcs[1] = {nullptr};
    size_t maxes[1] = {0}, sizes[1] = {0}, idx[1] = {0}, fail = 0;
    aclrtMemcpyBatchAttr attr;
    std::memset(&attr, 0, sizeof(attr));
    void **vd = reinterpret_cast<void **>(dsts);
    void **vs = static_cast<void **>(static_cast<void *>(srcs));
    if (have("aclrtMemcpyBatchV2")) {
        aclError want = aclrtMemcpyBatchV2(vd, maxes, vs, sizes, 1, &attr, idx, 1);
        CHECK(aclrtMemcpyBatch(dsts, maxes, srcs, sizes, 1, attr) == want);
        CHECK(aclrtMemcpyBatch(dsts, maxes, srcs, sizes, 1, attr, &fail) == want);
        CHECK(aclrtMemcpyBatch(dsts, maxes, srcs, sizes, 1, &attr, idx, 1) == want);
        CHECK(aclrtMemcpyBatch(dsts, maxes, srcs, sizes, 1, &attr, idx, 1, &fail) == want);
    }
    if (have("aclrtMemcpyBatchAsyncV2")) {
        aclError want = aclrtMemcpyBatchAsyncV2(vd, maxes, vs, sizes, 1, &attr, idx, 1, s);
        CHECK(aclrtMemcpyBatchAsync(dsts, maxes, srcs, sizes, 1, attr, s) == want);
        CHECK(aclrtMemcpyBatchAsync(dsts, maxes, srcs, sizes, 1, &attr, idx, 1, s) == want);
    }
    if (have("aclrtMemcpyBatchAsync")) {
        size_t f1 = 7, f2 = 7;
        aclError want = aclrtMemcpyBatchAsync(vd, maxes, vs, sizes, 1, &attr, idx, 1, &f1, s);
        CHECK(aclrtMemcpyBatchAsync(dsts, maxes, srcs, sizes, 1, attr, &f2, s) == want);
        CHECK(f1 == f2);
        CHECK(aclrtMemcpyBatchAsync(dsts, maxes, srcs, sizes, 1, &attr, idx, 1, &f2, s) == want);
        CHECK(f1 == f2);
    }

    aclrtMemManagedLocation loc;
    std::memset(&loc, 0, sizeof(loc));
    const float *mp[1] = {nullptr};
    if (have("aclrtMemManagedPrefetchAsync"))
        CHECK(aclrtMemManagedPrefetchAsync(mp[0], 0, loc, 0, s) ==
              aclrtMemManagedPrefetchAsync(static_cast<const void *>(mp[0]), 0, loc, 0, s));
    if (have("aclrtMemManagedPrefetchBatchAsync")) {
        const void **vmp = reinterpret_cast<const void **>(mp);
        CHECK(aclrtMemManagedPrefetchBatchAsync(mp, sizes, 1, loc, 0, s) ==
              aclrtMemManagedPrefetchBatchAsync(vmp, sizes, 1, &loc, idx, 1, 0, s));
        CHECK(aclrtMemManagedPrefetchBatchAsync(mp, sizes, 1, &loc, idx, 1, 0, s) ==
              aclrtMemManagedPrefetchBatchAsync(vmp, sizes, 1, &loc, idx, 1, 0, s));
    }

    void *addr = nullptr;
    size_t size = 99;
    int buf[4] = {0};
    const void *sym = g_symbol;
    if (have("aclrtGetSymbolAddress"))
        CHECK(aclrtGetSymbolAddress(g_symbol, &addr) == aclrtGetSymbolAddress(sym, &addr));
    if (have("aclrtGetSymbolSize"))
        CHECK(aclrtGetSymbolSize(g_symbol, &size) == aclrtGetSymbolSize(sym, &size));
    if (have("aclrtMemcpyFromSymbol"))
        CHECK(aclrtMemcpyFromSymbol(buf, sizeof(buf), g_symbol, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST) ==
              aclrtMemcpyFromSymbol(buf, sizeof(buf), sym, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    if (have("aclrtMemcpyFromSymbolAsync"))
        CHECK(aclrtMemcpyFromSymbolAsync(buf, sizeof(buf), g_symbol, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, s) ==
              aclrtMemcpyFromSymbolAsync(buf, sizeof(buf), sym, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, s));
    if (have("aclrtMemcpyToSymbol"))
        CHECK(aclrtMemcpyToSymbol(g_symbol, buf, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE) ==
              aclrtMemcpyToSymbol(sym, buf, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    if (have("aclrtMemcpyToSymbolAsync"))
        CHECK(aclrtMemcpyToSymbolAsync(g_symbol, buf, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, s) ==
              aclrtMemcpyToSymbolAsync(sym, buf, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS);
    CHECK(aclrtDestroyStream(s) == ACL_SUCCESS);
}

} // namespace

int main()
{
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        std::fprintf(stderr, "cannot start: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    void *g = nullptr;
    if (aclrtMalloc(&g, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        return 1;
    g_gate = static_cast<uint64_t *>(g);
    synchronisation();
    streams_and_events();
    copies();
    host_registration();
    forwarded_elsewhere();
    CHECK(aclrtFree(g_gate) == ACL_SUCCESS);
    CHECK(aclrtResetDeviceForce(0) == ACL_SUCCESS);
    CHECK(aclFinalize() == ACL_SUCCESS);
    std::printf("%d failure(s); %d overload group(s) compiled only\n", failures, skipped);
    return failures ? 1 : 0;
}
