/*
 * AVX2 + F16C versions of the vector primitives. This file is compiled with
 * -mavx2 -mf16c -mfma on x86 (see CMakeLists.txt); vec_ops.c only calls
 * into it after checking the CPU. On other hosts it provides nothing but a
 * NULL table.
 *
 * Every primitive is one "step" that produces 32 output bytes from
 * unaligned loads, driven by a common loop (span) and a common decision
 * about streaming stores (run). Pointers are handled as bytes and accessed
 * only through unaligned intrinsics or memcpy, so any address works.
 * Exact aliasing (dst == a or dst == b) is safe: each step loads all its
 * inputs before it stores, and steps never read what an earlier step wrote.
 */
#include "device/cpu/vec_ops_impl.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__AVX2__) && defined(__F16C__)

#include <immintrin.h>
#include <string.h>

#define OACL_ALWAYS_INLINE inline __attribute__((always_inline))

/* Operations: the ACL element type comes from the op, so that each
   inlined copy of the loop is specialised completely. */
enum vop {
    ADD_F16, SUB_F16, MUL_F16, DIV_F16, MAX_F16, MIN_F16,
    ADD_F32, SUB_F32, MUL_F32, DIV_F32, MAX_F32, MIN_F32,
    ADD_I32, SUB_I32, MUL_I32, MAX_I32, MIN_I32,
    ADD_I16, SUB_I16, MUL_I16, MAX_I16, MIN_I16,
    CVT_F16_F32, CVT_F32_F16
};

static OACL_ALWAYS_INLINE int is_f16(enum vop op) { return op <= MIN_F16; }
static OACL_ALWAYS_INLINE int is_i16(enum vop op) { return op >= ADD_I16 && op <= MIN_I16; }

/* Element sizes; constant-folded once inlined with a constant op. */
static OACL_ALWAYS_INLINE size_t in_size(enum vop op)
{
    return (is_f16(op) || is_i16(op) || op == CVT_F16_F32) ? 2 : 4;
}

static OACL_ALWAYS_INLINE size_t out_size(enum vop op)
{
    return (is_f16(op) || is_i16(op) || op == CVT_F32_F16) ? 2 : 4;
}

static OACL_ALWAYS_INLINE int is_binary(enum vop op)
{
    return op != CVT_F16_F32 && op != CVT_F32_F16;
}

static OACL_ALWAYS_INLINE __m128i load128(const unsigned char *p)
{
    return _mm_loadu_si128((const __m128i_u *)(const void *)p);
}

static OACL_ALWAYS_INLINE __m256i load256(const unsigned char *p)
{
    return _mm256_loadu_si256((const __m256i_u *)(const void *)p);
}

/* Both the rounding immediate and the "use MXCSR" bit (bit 2) clear:
   VCVTPS2PH rounds to nearest even whatever MXCSR says. */
#define OACL_CVTPS_PH_RNE _MM_FROUND_TO_NEAREST_INT

static OACL_ALWAYS_INLINE __m256i pack_halves(__m128i lo, __m128i hi)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* Lanes whose float result is NaN get the scalar NaN rule (see
   oacl_f16_add_nan). Rare, so kept out of line. */
static __attribute__((noinline, cold)) __m256i fix_nan_f16(__m256i r, const unsigned char *a,
                                                           const unsigned char *b, unsigned mask)
{
    uint16_t out[16];
    memcpy(out, &r, sizeof out);
    for (unsigned i = 0; i < 16; i++) {
        if (mask & (1u << i)) {
            uint16_t ha, hb;
            memcpy(&ha, a + 2 * i, 2);
            memcpy(&hb, b + 2 * i, 2);
            out[i] = oacl_f16_add_nan(ha, hb);
        }
    }
    memcpy(&r, out, sizeof out);
    return r;
}

static OACL_ALWAYS_INLINE __m256 unordered(__m256 x, __m256 y) { return _mm256_cmp_ps(x, y, _CMP_UNORD_Q); }

/* max/min with the NaN rule: MAXPS/MINPS return the second operand when
   either is NaN, which is the scalar x > y ? x : y; then NaN lanes take
   b, then a (a's NaN wins), both quieted. */
static OACL_ALWAYS_INLINE __m256 maxmin_ps(int max, __m256 x, __m256 y)
{
    const __m256 q = _mm256_castsi256_ps(_mm256_set1_epi32(0x00400000));
    __m256 r = max ? _mm256_max_ps(x, y) : _mm256_min_ps(x, y);
    r = _mm256_blendv_ps(r, _mm256_or_ps(y, q), unordered(y, y));
    return _mm256_blendv_ps(r, _mm256_or_ps(x, q), unordered(x, x));
}

/* One float operation per lane (ops in f16/f32 order). */
static OACL_ALWAYS_INLINE __m256 fop(int k, __m256 x, __m256 y)
{
    switch (k) {
    case 0: return _mm256_add_ps(x, y);
    case 1: return _mm256_sub_ps(x, y);
    case 2: return _mm256_mul_ps(x, y);
    case 3: return _mm256_div_ps(x, y);
    case 4: return maxmin_ps(1, x, y);
    default: return maxmin_ps(0, x, y);
    }
}

/* 16 halves: widen exactly, one float operation, round once to half
   (bit-exact, see f16_bin in vec_ops.c). Widening quiets NaNs and keeps
   their payload, so max/min NaN lanes already follow the scalar rule;
   arithmetic NaN lanes are fixed up. */
static OACL_ALWAYS_INLINE __m256i step_f16(int k, const unsigned char *a, const unsigned char *b)
{
    const __m256 s0 = fop(k, _mm256_cvtph_ps(load128(a)), _mm256_cvtph_ps(load128(b)));
    const __m256 s1 = fop(k, _mm256_cvtph_ps(load128(a + 16)), _mm256_cvtph_ps(load128(b + 16)));
    __m256i r = pack_halves(_mm256_cvtps_ph(s0, OACL_CVTPS_PH_RNE),
                            _mm256_cvtps_ph(s1, OACL_CVTPS_PH_RNE));
    /* One compare finds whether either half has a NaN lane (UNORD of s0
       against s1); the per-lane masks are only built when one does. */
    if (k < 4 && __builtin_expect(_mm256_movemask_ps(unordered(s0, s1)) != 0, 0)) {
        const unsigned nan = (unsigned)_mm256_movemask_ps(unordered(s0, s0)) |
                             ((unsigned)_mm256_movemask_ps(unordered(s1, s1)) << 8);
        r = fix_nan_f16(r, a, b, nan);
    }
    return r;
}

static OACL_ALWAYS_INLINE __m256 load_ps(const unsigned char *p) { return _mm256_castsi256_ps(load256(p)); }

static OACL_ALWAYS_INLINE __m256i step(enum vop op, const unsigned char *a, const unsigned char *b)
{
    switch (op) {
    case ADD_F16: case SUB_F16: case MUL_F16: case DIV_F16: case MAX_F16: case MIN_F16:
        return step_f16((int)(op - ADD_F16), a, b);
    case ADD_F32: case SUB_F32: case MUL_F32: case DIV_F32: case MAX_F32: case MIN_F32:
        return _mm256_castps_si256(fop((int)(op - ADD_F32), load_ps(a), load_ps(b)));
    /* integers wrap */
    case ADD_I32: return _mm256_add_epi32(load256(a), load256(b));
    case SUB_I32: return _mm256_sub_epi32(load256(a), load256(b));
    case MUL_I32: return _mm256_mullo_epi32(load256(a), load256(b));
    case MAX_I32: return _mm256_max_epi32(load256(a), load256(b));
    case MIN_I32: return _mm256_min_epi32(load256(a), load256(b));
    case ADD_I16: return _mm256_add_epi16(load256(a), load256(b));
    case SUB_I16: return _mm256_sub_epi16(load256(a), load256(b));
    case MUL_I16: return _mm256_mullo_epi16(load256(a), load256(b));
    case MAX_I16: return _mm256_max_epi16(load256(a), load256(b));
    case MIN_I16: return _mm256_min_epi16(load256(a), load256(b));
    case CVT_F16_F32:
        /* VCVTPH2PS is exact, quiets signalling NaNs like oacl_f16_to_f32. */
        return _mm256_castps_si256(_mm256_cvtph_ps(load128(a)));
    case CVT_F32_F16:
        return pack_halves(
            _mm256_cvtps_ph(_mm256_castsi256_ps(load256(a)), OACL_CVTPS_PH_RNE),
            _mm256_cvtps_ph(_mm256_castsi256_ps(load256(a + 32)), OACL_CVTPS_PH_RNE));
    }
    return _mm256_setzero_si256();
}

/*
 * n elements. With nt set, d must be 32-byte aligned and full steps use
 * streaming stores (the caller fences). Fewer than a step's worth of
 * trailing elements are staged through zeroed stack buffers so that one
 * more full-width step handles them without reading or writing past the
 * operands (lanes past the end compute on zeros and are discarded).
 */
static OACL_ALWAYS_INLINE void span(enum vop op, unsigned char *d, const unsigned char *a,
                                    const unsigned char *b, size_t n, int nt)
{
    const size_t isz = in_size(op), osz = out_size(op), k = 32 / osz;
    size_t i = 0;

    if (!nt && is_f16(op) && op < MAX_F16 && d != a && d != b) {
        /* Cached stores of f16 arithmetic, the common case: 8 lanes per
           half-step stored straight from VCVTPS2PH, and NaN lanes looked
           for once per chunk with one compare per 16 lanes (a mask moved to
           a general register every step cost a fifth of the throughput). A chunk that produced a NaN is
           redone with the per-lane rule; its inputs are intact because d
           aliases neither operand. */
        const int fk = (int)(op - ADD_F16);
        enum { CHUNK = 256 };
        /* Short calls (a 128-element UB tile) take the same path: a chunk
           is up to CHUNK elements, whole 16-lane steps. */
        while (n - i >= 16) {
            const size_t len = n - i >= CHUNK ? (size_t)CHUNK : (n - i) & ~(size_t)15;
            __m256 bad = _mm256_setzero_ps();
            for (size_t j = i; j < i + len; j += 16) {
                const __m256 s0 = fop(fk, _mm256_cvtph_ps(load128(a + j * 2)), _mm256_cvtph_ps(load128(b + j * 2)));
                const __m256 s1 =
                    fop(fk, _mm256_cvtph_ps(load128(a + j * 2 + 16)), _mm256_cvtph_ps(load128(b + j * 2 + 16)));
                bad = _mm256_or_ps(bad, unordered(s0, s1)); /* a NaN lane in either */
                _mm_storeu_si128((__m128i_u *)(void *)(d + j * 2), _mm256_cvtps_ph(s0, OACL_CVTPS_PH_RNE));
                _mm_storeu_si128((__m128i_u *)(void *)(d + j * 2 + 16), _mm256_cvtps_ph(s1, OACL_CVTPS_PH_RNE));
            }
            if (__builtin_expect(!_mm256_testz_ps(bad, bad), 0)) {
                for (size_t j = i; j < i + len; j += k)
                    _mm256_storeu_si256((__m256i_u *)(void *)(d + j * osz), step(op, a + j * isz, b + j * isz));
            }
            i += len;
        }
    }
    if (nt) {
        for (; n - i >= k; i += k)
            _mm256_stream_si256((__m256i *)(void *)(d + i * osz), step(op, a + i * isz, b + i * isz));
    } else {
        for (; n - i >= k; i += k)
            _mm256_storeu_si256((__m256i_u *)(void *)(d + i * osz),
                                step(op, a + i * isz, b + i * isz));
    }
    if (i < n) {
        unsigned char ta[64] = {0}, tb[64] = {0}, td[32]; /* a step reads <= 64 B per input */
        const size_t rem = n - i;
        memcpy(ta, a + i * isz, rem * isz);
        if (is_binary(op))
            memcpy(tb, b + i * isz, rem * isz);
        _mm256_storeu_si256((__m256i_u *)(void *)td, step(op, ta, tb));
        memcpy(d + i * osz, td, rem * osz);
    }
}

/*
 * Whole call: streaming stores when the destination is large (see
 * OACL_VEC_NT_MIN_BYTES_DEFAULT) and can be brought to 32-byte alignment
 * by peeling whole elements; the peeled head uses ordinary stores. The
 * sfence orders the weakly-ordered streaming stores before anything this
 * thread does next (e.g. signalling another block that the data is ready).
 */
static OACL_ALWAYS_INLINE void run(enum vop op, void *dst, const void *a, const void *b, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *pa = a, *pb = is_binary(op) ? b : a;
    const size_t isz = in_size(op), osz = out_size(op);
    const size_t nt_min = atomic_load_explicit(&oacl_vec_nt_min_bytes, memory_order_relaxed);

    if (n != 0 && n >= nt_min / osz) {
        const size_t mis = (size_t)((uintptr_t)d & 31u);
        if (mis % osz == 0) {
            size_t head = mis ? (32 - mis) / osz : 0;
            if (head > n)
                head = n;
            span(op, d, pa, pb, head, 0);
            span(op, d + head * osz, pa + head * isz, pb + head * isz, n - head, 1);
            _mm_sfence();
            atomic_fetch_add_explicit(&oacl_vec_nt_calls, 1, memory_order_relaxed);
            return;
        }
    }
    span(op, d, pa, pb, n, 0);
}

#define AVX2_BIN(name, OP) \
    static void avx2_##name(void *dst, const void *a, const void *b, size_t n) { run(OP, dst, a, b, n); }
AVX2_BIN(add_f16, ADD_F16)
AVX2_BIN(sub_f16, SUB_F16)
AVX2_BIN(mul_f16, MUL_F16)
AVX2_BIN(div_f16, DIV_F16)
AVX2_BIN(max_f16, MAX_F16)
AVX2_BIN(min_f16, MIN_F16)
AVX2_BIN(add_f32, ADD_F32)
AVX2_BIN(sub_f32, SUB_F32)
AVX2_BIN(mul_f32, MUL_F32)
AVX2_BIN(div_f32, DIV_F32)
AVX2_BIN(max_f32, MAX_F32)
AVX2_BIN(min_f32, MIN_F32)
AVX2_BIN(add_i32, ADD_I32)
AVX2_BIN(sub_i32, SUB_I32)
AVX2_BIN(mul_i32, MUL_I32)
AVX2_BIN(max_i32, MAX_I32)
AVX2_BIN(min_i32, MIN_I32)
AVX2_BIN(add_i16, ADD_I16)
AVX2_BIN(sub_i16, SUB_I16)
AVX2_BIN(mul_i16, MUL_I16)
AVX2_BIN(max_i16, MAX_I16)
AVX2_BIN(min_i16, MIN_I16)

static __attribute__((noinline)) void add_f16_any(uint16_t *dst, const uint16_t *a, const uint16_t *b, size_t n)
{
    run(ADD_F16, dst, a, b, n);
}

/* 16 halves of a tile add (32 output bytes); returns the lanes whose
   float sums are NaN (UNORD of the two 8-lane halves). */
static OACL_ALWAYS_INLINE __m256 tile_add_step(unsigned char *d, const unsigned char *a, const unsigned char *b)
{
    const __m256 s0 = _mm256_add_ps(_mm256_cvtph_ps(load128(a)), _mm256_cvtph_ps(load128(b)));
    const __m256 s1 = _mm256_add_ps(_mm256_cvtph_ps(load128(a + 16)), _mm256_cvtph_ps(load128(b + 16)));
    _mm_storeu_si128((__m128i_u *)(void *)d, _mm256_cvtps_ph(s0, OACL_CVTPS_PH_RNE));
    _mm_storeu_si128((__m128i_u *)(void *)(d + 16), _mm256_cvtps_ph(s1, OACL_CVTPS_PH_RNE));
    return unordered(s0, s1);
}

/* The kernel-side Add of a UB tile (a few hundred halves, whole 16-lane
   steps, no aliasing, below the streaming-store size) without the general path's frame and stack buffers;
   a tile that produced a NaN lane is redone by the general path, which
   applies the NaN rule (the inputs are intact: dst aliases neither). */
static void avx2_vadd_f16(uint16_t *dst, const uint16_t *a, const uint16_t *b, size_t n)
{
    if (n <= 1024 && n % 16 == 0 && dst != a && dst != b &&
        n * 2 < atomic_load_explicit(&oacl_vec_nt_min_bytes, memory_order_relaxed)) {
        unsigned char *d = (unsigned char *)dst;
        const unsigned char *pa = (const unsigned char *)a, *pb = (const unsigned char *)b;
        const size_t bytes = n * 2;
        size_t j = bytes % 64; /* an odd 32-byte step first, then two per turn */
        __m256 bad = j ? tile_add_step(d, pa, pb) : _mm256_setzero_ps();
        for (; j < bytes; j += 64)
            bad = _mm256_or_ps(bad, _mm256_or_ps(tile_add_step(d + j, pa + j, pb + j),
                                                 tile_add_step(d + j + 32, pa + j + 32, pb + j + 32)));
        if (__builtin_expect(_mm256_testz_ps(bad, bad), 1))
            return;
    }
    add_f16_any(dst, a, b, n);
}

static void avx2_vadd_f32(float *dst, const float *a, const float *b, size_t n)
{
    run(ADD_F32, dst, a, b, n);
}

static void avx2_vadd_i32(int32_t *dst, const int32_t *a, const int32_t *b, size_t n)
{
    run(ADD_I32, dst, a, b, n);
}

static void avx2_vadd_i16(int16_t *dst, const int16_t *a, const int16_t *b, size_t n)
{
    run(ADD_I16, dst, a, b, n);
}

static void avx2_cvt_f16_to_f32(float *dst, const uint16_t *src, size_t n)
{
    run(CVT_F16_F32, dst, src, NULL, n);
}

static void avx2_cvt_f32_to_f16(uint16_t *dst, const float *src, size_t n)
{
    run(CVT_F32_F16, dst, src, NULL, n);
}

#define ROW(op) {avx2_##op##_f16, avx2_##op##_f32, avx2_##op##_i32, avx2_##op##_i16}

static const struct oacl_vec_ops avx2_ops = {
    .vadd_f16 = avx2_vadd_f16,
    .vadd_f32 = avx2_vadd_f32,
    .vadd_i32 = avx2_vadd_i32,
    .vadd_i16 = avx2_vadd_i16,
    .cvt_f16_to_f32 = avx2_cvt_f16_to_f32,
    .cvt_f32_to_f16 = avx2_cvt_f32_to_f16,
    .bin = {ROW(add), ROW(sub), ROW(mul), {avx2_div_f16, avx2_div_f32, NULL, NULL}, ROW(max), ROW(min)},
};

const struct oacl_vec_ops *oacl_vec_ops_avx2(void)
{
    return &avx2_ops;
}

#else /* not x86 with AVX2/F16C enabled for this file */

const struct oacl_vec_ops *oacl_vec_ops_avx2(void)
{
    return NULL;
}

#endif
