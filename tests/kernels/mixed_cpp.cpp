// C++ kernels: extern "C" in its three spellings (prefix, linkage block,
// inherited from an earlier declaration), one inside nested namespaces
// with a template-typed parameter, mixed scalars, a struct by value and a
// noexcept kernel; helpers are C++ templates in an unnamed namespace.
#include <cstdint>
#include <cstring>
#include <utility>

#include <oacl/kernel_qualifiers.h>

namespace {
struct pair {
    uint32_t a;
    float b;
    int32_t c;
};

template <typename T>
void put(uint8_t *out, std::size_t off, const T &v)
{
    std::memcpy(out + off, &v, sizeof(T));
}
} // namespace

// Same layout as the C kernel mixed_c (test_oacl_cc.c checks both).
extern "C" __global__ __aicore__ void mixed_cpp(uint8_t *out, uint32_t n, float scale, int8_t tag,
                                               uint64_t big, pair p, double d)
{
    put(out, 0, n);
    put(out, 4, scale);
    put(out, 8, tag);
    put(out, 16, big);
    put(out, 24, p);
    put(out, 40, d);
}

extern "C" {
__global__ __aicore__ void block_linkage(GM_ADDR out, int16_t s, bool flag) noexcept
{
    put(out, 0, s);
    put(out, 2, flag);
}
}

extern "C" __global__ __aicore__ void declared_first(GM_ADDR out, std::uint64_t v);
__global__ __aicore__ void declared_first(GM_ADDR out, std::uint64_t v) { put(out, 0, v); }

namespace demo {
namespace inner {
extern "C" __global__ __aicore__ void in_namespace(GM_ADDR out, char c, std::pair<int, int> *unused)
{
    (void)unused;
    out[0] = static_cast<uint8_t>(c);
}
} // namespace inner
} // namespace demo
