/*
 * The vectorised FP16 reference loop of oacl-bench, in its own file because
 * it is compiled with -mavx2 -mf16c on x86 (see bench/CMakeLists.txt). The
 * program calls it only after bench_ref_simd_usable() said yes.
 *
 * Why intrinsics and not a _Float16 loop: GCC 12 with -mf16c -mavx2 keeps
 * `z[i] = x[i] + y[i]` over _Float16 scalar (one vcvtph2ps/vcvtps2ph per
 * element; it vectorises _Float16 only with AVX512-FP16), which is far from
 * memory speed. Eight halves per step through F16C is what a plain
 * vectorised C loop would be: widen, add in float, round back to half
 * (round to nearest even, the same result as an exact binary16 add for
 * finite inputs), ordinary stores.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bench_ref.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__AVX2__) && defined(__F16C__)
#include <cpuid.h>
#include <immintrin.h>

int bench_ref_simd_usable(void)
{
    unsigned eax, ebx, ecx, edx;
    __builtin_cpu_init();
    /* F16C is CPUID leaf 1, ECX bit 29; "avx2" also checks OS YMM support. */
    return __builtin_cpu_supports("avx2") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 29)) != 0;
}

const char *bench_ref_simd_name(void) { return "F16C+AVX2, 8 halves per step"; }

void bench_ref_add_f16_simd(uint16_t *z, const uint16_t *x, const uint16_t *y, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 a0 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(x + i)));
        __m256 b0 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(y + i)));
        __m256 a1 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(x + i + 8)));
        __m256 b1 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(y + i + 8)));
        _mm_storeu_si128((__m128i *)(void *)(z + i), _mm256_cvtps_ph(_mm256_add_ps(a0, b0), _MM_FROUND_TO_NEAREST_INT));
        _mm_storeu_si128((__m128i *)(void *)(z + i + 8),
                         _mm256_cvtps_ph(_mm256_add_ps(a1, b1), _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < n; i++)
        z[i] = bench_f32_to_f16(bench_f16_to_f32(x[i]) + bench_f16_to_f32(y[i]));
}

#else

int bench_ref_simd_usable(void) { return 0; }

const char *bench_ref_simd_name(void) { return "not built"; }

void bench_ref_add_f16_simd(uint16_t *z, const uint16_t *x, const uint16_t *y, size_t n)
{
    bench_ref_add_f16_scalar(z, x, y, n);
}

#endif
