// Kernels and <<<>>> launches in the forms host wrappers use them.
#include "launch_kernels.h"

#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "oacl/kernel.h"

static uint32_t Block() { return static_cast<uint32_t>(oacl_get_block_idx()); }

extern "C" __global__ __aicore__ void fill(GM_ADDR out, float value, uint32_t base)
{
    reinterpret_cast<float *>(out)[Block()] = value + static_cast<float>(base + Block());
}

// The launch's value is an int: 0 when queued.
int32_t RunFill(uint32_t blocks, void *stream, float *out, float value, uint32_t base)
{
    return static_cast<int32_t>(fill<<<blocks, nullptr, stream>>>(out, value, base)); // float* for GM_ADDR
}

// Arguments are captured at the launch: changing them afterwards, before
// the kernels ran, changes nothing. Two launches on one line.
int RunFillTwiceCaptured(void *stream, float *out)
{
    float v = 1.0f;
    uint32_t base = 10;
    int r = fill<<<2, nullptr, stream>>>(out, v, base); v = 100.0f; base = 1000; r |= fill<<<2, 0, stream>>>(out + 2, v, base);
    v = -1.0f;
    base = 0;
    return r;
}

// Function templates as kernels (C++ linkage; no extern "C" needed for
// <<<>>>), with '>>' closing nested template arguments.
template <typename T>
struct Box {
    T value;
};
template <typename T, typename B>
__global__ __aicore__ void put(GM_ADDR out, B box)
{
    reinterpret_cast<T *>(out)[Block()] = static_cast<T>(box.value) + static_cast<T>(Block());
}

int RunTemplates(void *stream, float *f, int32_t *i)
{
    Box<Box<int>> nested{{5}};
    (void)nested;
    return put<float, Box<float>><<<3, nullptr, stream>>>(f, Box<float>{0.5f}) +
           put<int32_t, Box<int32_t>><<<3, nullptr, stream>>>(i, Box<int32_t>{40});
}

// A static (internal linkage) kernel and arithmetic on launch values.
static __global__ __aicore__ void add_one(GM_ADDR out)
{
    __atomic_fetch_add(reinterpret_cast<int32_t *>(out), 1, __ATOMIC_RELAXED);
}

int RunSum(void *stream, int32_t *out)
{
    int total = 0;
    for (int k = 0; k < 3; k++)
        total += add_one<<<4, nullptr, stream>>>(out);
    return total;
}

// Parameters of every size: the argument blob puts parameter i at the next
// multiple of 8 after parameter i-1.
extern "C" __global__ __aicore__ void mixed(uint8_t a, GM_ADDR out, uint16_t b, Tiling t, double d, int64_t e,
                                            int8_t f)
{
    char line[160];
    int n = std::snprintf(line, sizeof(line), "a=%u b=%u count=%u step=%u bias=%.3f d=%.4f e=%lld f=%d", a, b,
                          t.count, t.step, static_cast<double>(t.bias), d, static_cast<long long>(e), f);
    std::memcpy(out, line, static_cast<size_t>(n) + 1);
}

int RunMixed(void *stream, uint8_t *out, Tiling t)
{
    // l2ctrl given as an integer (newer releases: dynamic UB size).
    return mixed<<<1, 0, stream>>>(static_cast<uint8_t>(200), out, static_cast<uint16_t>(65000), t, 2.5, -1234567890123LL,
                                    static_cast<int8_t>(-7));
}

static int g_noparams;
extern "C" __global__ __aicore__ void no_params() { __atomic_fetch_add(&g_noparams, 1, __ATOMIC_RELAXED); }

int RunNoParams(void *stream)
{
    g_noparams = 0;
    int r = no_params<<<5, nullptr, stream>>>();
    if (r != 0)
        return r;
    r = aclrtSynchronizeStream(stream);
    return r != 0 ? r : g_noparams;
}

namespace outer {
namespace inner {
__global__ __aicore__ void mark(GM_ADDR out, uint32_t v) { reinterpret_cast<uint32_t *>(out)[Block()] = v; }
} // namespace inner
int RunInner(void *stream, uint32_t *out) { return inner::mark<<<2, nullptr, stream>>>(out, 7u); }
} // namespace outer

int RunNamespaced(void *stream, uint32_t *out)
{
    aclrtStream s = stream; // an aclrtStream variable as the stream
    int r = outer::inner::mark<<<1, nullptr, s>>>(reinterpret_cast<uint8_t *>(out) + 8, 9u);
    return r + outer::RunInner(stream, out) + ::outer::inner::mark<<<1, nullptr, nullptr>>>(out + 3, 11u);
}

// asm("trap") fails the launch on its stream; block 0 still writes.
extern "C" __global__ __aicore__ void trapper(GM_ADDR out)
{
    if (Block() == 1)
        asm volatile("trap");
    reinterpret_cast<uint32_t *>(out)[Block()] = 1;
}

int RunTrap(void *stream, uint32_t *out) { return trapper<<<2, nullptr, stream>>>(out); }

int RunBadBlocks(void *stream, float *out, long blocks) { return fill<<<blocks, nullptr, stream>>>(out, 0.0f, 0u); }

extern "C" __global__ __aicore__ void copy_in(GM_ADDR in, GM_ADDR out)
{
    reinterpret_cast<uint32_t *>(out)[Block()] = reinterpret_cast<const uint32_t *>(in)[Block()] * 2;
}

int RunConstPointer(void *stream, const uint32_t *in, uint32_t *out)
{
    return copy_in<<<4, nullptr, stream>>>(in, out); // const and other pointer types for GM_ADDR
}

extern "C" __global__ __aicore__ void shared_kernel(GM_ADDR out, uint32_t v)
{
    reinterpret_cast<uint32_t *>(out)[Block()] += v;
}

int RunOtherTu(void *stream, uint32_t *out) { return shared_kernel<<<1, nullptr, stream>>>(out, 1u); }
