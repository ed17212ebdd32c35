// half, bfloat16_t and the host-usable rest of kernel_operator.h, from
// plain host C++: conversions against src/common/fp16.h (the runtime's
// reference) and the independent double-based reference of asc_test.h,
// arithmetic, comparisons, literals, namespace-scope objects, the enum
// values the spec fixes, GlobalTensor on host memory, and AscendC::printf
// formatting against the C library's.
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <unistd.h>

extern "C" {
#include <cmocka.h>
}

#include "kernel_operator.h"

#include "asc_test.h"
#include "common/fp16.h"

// ---- namespace-scope objects (dynamic initialisation) ----------------------------
half g_one = 1.0;
half g_table[4] = {0.5, -2, 65504.0f, 1e-8};
const bfloat16_t g_bf(3.0f);

namespace {

uint16_t bits(half h) { return h.Bits(); }

void test_layout(void **)
{
    static_assert(sizeof(half) == 2 && alignof(half) == 2, "half size");
    static_assert(std::is_trivially_copyable<half>::value && std::is_standard_layout<half>::value, "half layout");
    static_assert(std::is_same<AscendC::half, ::half>::value, "AscendC::half is the global half");
    static_assert(std::is_same<decltype(half() + half()), half>::value, "half + half is half");
    static_assert(std::is_same<decltype(half() * half()), half>::value, "half * half is half");
    static_assert(std::is_same<decltype(half() + 1.0f), float>::value, "half + float is float");
    static_assert(std::is_same<decltype(2 * half()), float>::value, "int * half is float");
    static_assert(!std::is_convertible<float, bfloat16_t>::value, "bfloat16_t has no implicit conversion");
    assert_int_equal(bits(g_one), 0x3C00);
    assert_int_equal(bits(g_table[0]), 0x3800);
    assert_int_equal(bits(g_table[1]), 0xC000);
    assert_int_equal(bits(g_table[2]), 0x7BFF);
    assert_int_equal(bits(g_table[3]), 0x0000);
    assert_int_equal(g_bf.Bits(), 0x4040);
}

// Every half converts exactly to float (NaNs quieted, payload kept).
void test_to_float_exhaustive(void **)
{
    for (uint32_t i = 0; i < 65536; i++) {
        float f = half::FromBits(static_cast<uint16_t>(i));
        if (oacl_f32_bits(f) != oacl_f32_bits(oacl_f16_to_f32(static_cast<uint16_t>(i))))
            fail_msg("half 0x%04x -> 0x%08x", i, oacl_f32_bits(f));
    }
}

// float -> half against fp16.h: every exponent with boundary and random
// mantissas, plus 4M random patterns.
void test_from_float(void **)
{
    asc_rng_seed(101);
    auto check = [](uint32_t u) {
        float f = asc_f32(u);
        uint16_t got = bits(half(f)), want = oacl_f32_to_f16(f);
        if (got != want)
            fail_msg("float 0x%08x -> 0x%04x, expected 0x%04x", u, got, want);
        if (!std::isnan(f) && got != asc_f16_round(static_cast<double>(f)))
            fail_msg("float 0x%08x -> 0x%04x, reference 0x%04x", u, got, asc_f16_round(f));
    };
    for (uint32_t e = 0; e < 256; e++)
        for (uint32_t m : {0u, 1u, 0xFFFu, 0x1000u, 0x1001u, 0x2000u, 0x3000u, 0x7FFFFFu, 0x400000u, 0x7FF000u})
            for (uint32_t s : {0u, 0x80000000u})
                check(s | e << 23 | m);
    for (int i = 0; i < (1 << 22); i++)
        check(asc_rand32());
    for (uint32_t h = 0; h < 65536; h++) // every half round-trips
        if (!asc_f16_is_nan(static_cast<uint16_t>(h)))
            assert_int_equal(bits(half(static_cast<float>(half::FromBits(static_cast<uint16_t>(h))))), h);
}

// double -> half is rounded once, not through float.
void test_from_double(void **)
{
    assert_int_equal(bits(half(1.0 + 0x1p-11 + 0x1p-40)), 0x3C01); // above the tie; float would tie
    assert_int_equal(bits(half(1.0 + 0x1p-11)), 0x3C00);           // a tie: to even
    assert_int_equal(bits(half(65519.99)), 0x7BFF);
    assert_int_equal(bits(half(65520.0)), 0x7C00);
    assert_int_equal(bits(half(1e300)), 0x7C00);
    assert_int_equal(bits(half(-1e300)), 0xFC00);
    assert_int_equal(bits(half(0x1p-25)), 0x0000);               // tie to even 0
    assert_int_equal(bits(half(0x1p-25 + 0x1p-60)), 0x0001);
    assert_int_equal(bits(half(-0.0)), 0x8000);
    assert_int_equal(bits(half(1e-320)), 0x0000);                // double subnormal
    asc_rng_seed(102);
    for (int i = 0; i < (1 << 20); i++) {
        uint64_t r = asc_rand64();
        double d = std::ldexp(static_cast<double>(r >> 11) / 9007199254740992.0, static_cast<int>(r % 50) - 30);
        if (r & 1)
            d = -d;
        uint16_t got = bits(half(d)), want = asc_f16_round(d);
        if (got != want)
            fail_msg("double %a -> 0x%04x, expected 0x%04x", d, got, want);
        assert_int_equal(got, oacl_f64_to_f16(d));
    }
}

void test_literals_and_integers(void **)
{
    half a = 1.0;
    half b = 2;
    half c = 2.5f;
    half z = -0.0;
    half tiny = 5.960464477539063e-08; // 2^-24
    assert_int_equal(bits(a), 0x3C00);
    assert_int_equal(bits(b), 0x4000);
    assert_int_equal(bits(c), 0x4100);
    assert_int_equal(bits(z), 0x8000);
    assert_int_equal(bits(tiny), 0x0001);
    assert_int_equal(bits(half(3)), 0x4200);
    assert_int_equal(bits(half(-1)), 0xBC00);
    assert_int_equal(bits(half(65504)), 0x7BFF);
    assert_int_equal(bits(half(65520)), 0x7C00);
    assert_int_equal(bits(half(2049)), 0x6800);   // tie to even: 2048
    assert_int_equal(bits(half(2051)), 0x6802);   // tie to even: 2052
    assert_int_equal(bits(half(static_cast<uint8_t>(255))), 0x5BF8);
    assert_int_equal(bits(half(static_cast<int64_t>(1) << 40)), 0x7C00);
    assert_int_equal(bits(half(UINT64_MAX)), 0x7C00);
    assert_int_equal(bits(half(true)), 0x3C00);
    assert_int_equal(static_cast<int>(half(-7.75f)), -7);
    double d = half(0.1f);
    assert_true(d == static_cast<double>(oacl_f16_to_f32(0x2E66)));
}

// half op half is the correctly rounded result (NaN: some NaN).
void test_arithmetic(void **)
{
    asc_rng_seed(103);
    for (int i = 0; i < (1 << 21); i++) {
        uint16_t x = asc_rand_f16(), y = asc_rand_f16();
        half a = half::FromBits(x), b = half::FromBits(y);
        const half r[4] = {a + b, a - b, a * b, a / b};
        for (int op = 0; op < 4; op++) {
            uint16_t want = asc_ref_f16_binary(OACL_VOP_ADD + op, x, y);
            bool ok = asc_f16_is_nan(want) ? asc_f16_is_nan(bits(r[op])) : bits(r[op]) == want;
            if (!ok)
                fail_msg("op %d (0x%04x, 0x%04x) = 0x%04x, expected 0x%04x", op, x, y, bits(r[op]), want);
        }
        // comparisons are float comparisons
        float fa = a, fb = b;
        assert_true((a < b) == (fa < fb) && (a == b) == (fa == fb) && (a >= b) == (fa >= fb) &&
                    (a != b) == (fa != fb));
    }
    half h = 1.5f;
    h += half(0.25f);
    assert_int_equal(bits(h), 0x3F00); // 1.75
    h -= 1;
    assert_int_equal(bits(h), 0x3A00); // 0.75
    h *= 4.0;
    assert_int_equal(bits(h), 0x4200);
    h /= 2;
    assert_int_equal(bits(h), 0x3E00);
    assert_int_equal(bits(h++), 0x3E00);
    assert_int_equal(bits(h), 0x4100);
    assert_int_equal(bits(--h), 0x3E00);
    assert_int_equal(bits(-half(0.0f)), 0x8000);
    assert_int_equal(bits(+half(-2.0f)), 0xC000);
    assert_true(half(0.0f) == half(-0.0f));
    half nan = half::FromBits(0x7E00);
    assert_false(nan == nan);
    assert_true(nan != nan);
    half big = 60000.0f;
    assert_int_equal(bits(big + big), 0x7C00);
    assert_int_equal(bits(half(1.0f) + half(0x1p-11f)), 0x3C00); // ties to even
}

void test_bfloat16(void **)
{
    assert_int_equal(bfloat16_t(1.0f).Bits(), 0x3F80);
    assert_int_equal(bfloat16_t(1.0f / 3.0f).Bits(), 0x3EAB);
    assert_int_equal(bfloat16_t(-1.0f / 3.0f).Bits(), 0xBEAB);
    assert_int_equal(bfloat16_t(1.00390625f).Bits(), 0x3F80); // 1 + 2^-8: a tie, to even
    assert_int_equal(bfloat16_t(1.01171875f).Bits(), 0x3F82); // 1 + 3 * 2^-8: a tie, to even (up)
    assert_int_equal(bfloat16_t(3.0e38f).Bits(), 0x7F62);
    assert_int_equal(bfloat16_t(3.4e38f).Bits(), 0x7F80);      // rounds past the largest: inf
    assert_int_equal(bfloat16_t(asc_f32(0x7F800001u)).Bits(), 0x7FC0); // NaN, quieted
    assert_int_equal(bfloat16_t(1.0 + 0x1p-8 + 0x1p-40).Bits(), 0x3F81); // double, rounded once
    assert_int_equal(bfloat16_t(half(2.5f)).Bits(), 0x4020);
    assert_int_equal(bfloat16_t(7).Bits(), 0x40E0);
    assert_true(static_cast<float>(bfloat16_t::FromBits(0xC0A0)) == -5.0f);
    float f = g_bf;
    assert_true(f == 3.0f);
}

void test_enums(void **)
{
    using AscendC::TPosition;
    static_assert(static_cast<int>(TPosition::GM) == 0 && static_cast<int>(TPosition::A1) == 1 &&
                      static_cast<int>(TPosition::CO2) == 8 && static_cast<int>(TPosition::VECIN) == 9 &&
                      static_cast<int>(TPosition::VECOUT) == 10 && static_cast<int>(TPosition::VECCALC) == 11 &&
                      TPosition::LCM == TPosition::VECCALC && static_cast<int>(TPosition::SPM) == 12 &&
                      TPosition::SHM == TPosition::SPM && static_cast<int>(TPosition::TSCM) == 13 &&
                      static_cast<int>(TPosition::C2PIPE2GM) == 14 && static_cast<int>(TPosition::C2PIPE2LOCAL) == 15 &&
                      static_cast<int>(TPosition::MAX) == 16,
                  "TPosition values");
    static_assert(std::is_same<AscendC::QuePosition, TPosition>::value, "QuePosition aliases TPosition");
    static_assert(sizeof(TPosition) == 1 && sizeof(AscendC::HardEvent) == 1 && sizeof(AscendC::RoundMode) == 1,
                  "uint8_t storage");
    static_assert(static_cast<int>(AscendC::HardEvent::MTE2_V) == 4 && static_cast<int>(AscendC::HardEvent::V_MTE3) == 7 &&
                      static_cast<int>(AscendC::HardEvent::S_V) == 21 && static_cast<int>(AscendC::HardEvent::MTE3_S) == 26 &&
                      static_cast<int>(AscendC::HardEvent::FIX_FIX) == 34 && static_cast<int>(AscendC::HardEvent::MAX) == 35,
                  "HardEvent values");
    static_assert(static_cast<int>(AscendC::RoundMode::CAST_NONE) == 0 && static_cast<int>(AscendC::RoundMode::CAST_RINT) == 1 &&
                      static_cast<int>(AscendC::RoundMode::CAST_ODD) == 6 &&
                      static_cast<int>(AscendC::RoundMode::CAST_ZERO) == 9 &&
                      static_cast<int>(AscendC::RoundMode::UNKNOWN) == 0xFF,
                  "RoundMode values");
    static_assert(static_cast<int>(AscendC::RoundMode::CAST_TRUNC) == OACL_ROUND_TRUNC &&
                      static_cast<int>(AscendC::RoundMode::CAST_ROUND) == OACL_ROUND_ROUND,
                  "RoundMode matches oacl_round");
    static_assert(static_cast<int>(AscendC::CMPMODE::NE) == 5 && static_cast<int>(AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE) == 2,
                  "CMPMODE/SELMODE values");
    static_assert(PIPE_S == 0 && PIPE_V == 1 && PIPE_MTE2 == 4 && PIPE_MTE3 == 5 && PIPE_ALL == 6 && PIPE_FIX == 10,
                  "pipe_t values");
    static_assert(AscendC::MIX == 0 && AscendC::AIC == 1 && AscendC::AIV == 2, "core types");
    static_assert(AscendC::KERNEL_TYPE_AIV_ONLY == 0 && AscendC::KERNEL_TYPE_MIX_AIC_1_2 == 5 &&
                      AscendC::KERNEL_TYPE_MAX == 10,
                  "KernelMetaType values");
    static_assert(AscendC::ASC_UB_SIZE == 196352 && AscendC::GetDataBlockSizeInBytes() == 32, "2201 sizes");
    static_assert(sizeof(AscendC::DataCopyParams) == 8, "DataCopyParams is four uint16_t");
    AscendC::DataCopyParams p;
    assert_int_equal(p.blockCount, 1);
    assert_int_equal(p.blockLen, 0);
    p.srcStride = 3;
    assert_int_equal(p.srcGap, 3); // the older name of the same field
    AscendC::DataCopyParams q(2, 4, 5, 6);
    assert_int_equal(q.dstStride, 6);
    bool aiv = false, aic = false;
    if ASCEND_IS_AIV {
        aiv = true;
    }
    if ASCEND_IS_AIC {
        aic = true;
    }
    assert_true(aiv && !aic);
}

// GlobalTensor is a plain view: it works on host memory too.
void test_global_tensor_host(void **)
{
    int32_t data[16];
    for (int i = 0; i < 16; i++)
        data[i] = i * i;
    AscendC::GlobalTensor<int32_t> g;
    assert_int_equal(g.GetSize(), 0);
    g.SetGlobalBuffer(data, 16);
    assert_int_equal(g[4].GetValue(1), 25);
    assert_int_equal(g[4].GetSize(), 16);
    g[2].SetValue(0, -1);
    assert_int_equal(data[2], -1);
    g(3) = 7;
    assert_int_equal(data[3], 7);
    assert_ptr_equal(g.GetPhyAddr(5), data + 5);
    AscendC::GlobalTensor<int16_t> s = g.ReinterpretCast<int16_t>();
    assert_int_equal(s.GetSize(), 32);
    assert_int_equal(s.GetValue(2), 1);
    AscendC::LocalTensor<float> none;
    assert_int_equal(none.GetSize(), 0);
    assert_null(AscendC::GetTPipePtr()); // outside a kernel
}

// AscendC::printf formats as the C library does for matching arguments,
// and fixes up mismatched integer widths and half/bfloat16 arguments.
template <class... A>
std::string capture(const char *fmt, A... args)
{
    std::fflush(stdout);
    char path[] = "/tmp/oacl_asc_half_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    int saved = dup(1);
    assert_true(dup2(fd, 1) >= 0);
    AscendC::printf(fmt, args...);
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char buf[8192] = "";
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    close(fd);
    unlink(path);
    return std::string(buf, n > 0 ? static_cast<size_t>(n) : 0);
}

template <class... A>
void same_as_libc(const char *fmt, A... args)
{
    char want[4096];
    std::snprintf(want, sizeof want, fmt, args...);
    std::string got = capture(fmt, args...);
    if (got != want)
        fail_msg("format \"%s\": got \"%s\", expected \"%s\"", fmt, got.c_str(), want);
}

void test_printf_formats(void **)
{
    same_as_libc("plain text\n");
    same_as_libc("%d %i %5d %-5d| %05d %+d % d\n", 1, -2, 3, 4, 5, 6, 7);
    same_as_libc("%ld %lld %lu %llu %lx %llX %#o %#x\n", -1L, -2LL, 3UL, 4ULL, 255UL, 0xABCULL, 8, 255);
    same_as_libc("%u %x %X %o %c%c\n", 4000000000u, 0xdeadu, 0xbeefu, 64u, 'o', 'k');
    same_as_libc("%f %.2f %10.3f %-10.1f| %e %E %g %G %a\n", 3.14159, 2.71828, -1.5, 0.25, 12345.678, 1e-10, 1e20,
                 1e-5, 1.0);
    same_as_libc("%s|%10s|%-10s|%.3s|%%|%p\n", "abc", "right", "left", "truncate", static_cast<void *>(g_table));
    same_as_libc("%*d|%-*d|%.*f\n", 6, 42, 6, 42, 2, 1.23456);
    same_as_libc("%hd %hhd %zu %jd\n", 5, 6, static_cast<size_t>(7), static_cast<intmax_t>(8));
    // fixed up: int64 under %d, half under %f, int under %f, double under %d
    assert_string_equal(capture("%d %d\n", static_cast<int64_t>(-5000000000LL), static_cast<uint64_t>(7)).c_str(),
                        "-5000000000 7\n");
    assert_string_equal(capture("%.3f %f %.1f\n", half(2.5f), bfloat16_t(1.5f), 3).c_str(),
                        "2.500 1.500000 3.0\n");
    assert_string_equal(capture("%d|%s|%s\n", 2.9, static_cast<const char *>(nullptr), "x").c_str(), "2|(null)|x\n");
    assert_string_equal(capture("%d %d %q %d\n", 1).c_str(), "1 %d %q %d\n"); // missing args, unknown conversion
    std::string long_text(5000, 'x');
    assert_string_equal(capture("%s!\n", long_text.c_str()).c_str(), (long_text + "!\n").c_str());
    enum Colour { RED = 3 };
    assert_string_equal(capture("%d %u\n", RED, AscendC::TPosition::VECOUT).c_str(), "3 10\n");
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),         cmocka_unit_test(test_to_float_exhaustive),
        cmocka_unit_test(test_from_float),     cmocka_unit_test(test_from_double),
        cmocka_unit_test(test_literals_and_integers), cmocka_unit_test(test_arithmetic),
        cmocka_unit_test(test_bfloat16),       cmocka_unit_test(test_enums),
        cmocka_unit_test(test_global_tensor_host), cmocka_unit_test(test_printf_formats),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
