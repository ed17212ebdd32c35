/*
 * Float overflow detection and saturation for kernels (reliability chapter
 * 3.5, Decision 12): the checking slow path of the vector primitives and
 * the per-block hooks that turn what a block noted into the launch's
 * overflow report.
 *
 * What counts (per result element of a float type): an infinite result
 * from finite operands (overflow, also a finite division by zero) or a NaN
 * result from operands none of which is NaN (invalid operation). Plain C
 * float code of the kernel is covered by the host FPU's sticky
 * FE_OVERFLOW / FE_INVALID flags, cleared before the block and tested
 * after it. Saturation replaces every infinite result of a primitive by
 * the type's largest finite value of the same sign and every NaN result by
 * +0; plain C arithmetic is not clamped.
 */
#include <fenv.h>
#include <stdbool.h>
#include <string.h>

#include "acl/acl.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/fp_overflow.h"

__thread uint32_t oacl_fp_ctl __attribute__((tls_model("initial-exec")));

_Static_assert(OACL_FP_HIT != OACL_FP_DETECT && OACL_FP_HIT != OACL_FP_SATURATE, "distinct control bits");

/* Elements per chunk of the slow path (the stack buffer holds one chunk). */
#define FP_CHUNK 512u

enum { FP_FINITE = 0, FP_INF = 1, FP_NAN = 2 };

static size_t fp_size(int dt)
{
    switch (dt) {
    case OACL_DT_F32: case OACL_DT_I32: case OACL_DT_U32: return 4;
    case OACL_DT_I64: case OACL_DT_U64: return 8;
    case OACL_DT_I8: case OACL_DT_U8: return 1;
    default: return 2;
    }
}

/* Class of the element at p (integers are always finite). */
static inline int fp_class(int dt, const unsigned char *p)
{
    switch (dt) {
    case OACL_DT_F16: {
        uint16_t v;
        memcpy(&v, p, 2);
        v &= 0x7FFFu;
        return v < 0x7C00u ? FP_FINITE : v == 0x7C00u ? FP_INF : FP_NAN;
    }
    case OACL_DT_BF16: {
        uint16_t v;
        memcpy(&v, p, 2);
        v &= 0x7FFFu;
        return v < 0x7F80u ? FP_FINITE : v == 0x7F80u ? FP_INF : FP_NAN;
    }
    case OACL_DT_F32: {
        uint32_t v;
        memcpy(&v, p, 4);
        v &= 0x7FFFFFFFu;
        return v < 0x7F800000u ? FP_FINITE : v == 0x7F800000u ? FP_INF : FP_NAN;
    }
    default:
        return FP_FINITE;
    }
}

/* Saturation: +-inf -> +-max finite, NaN -> +0. */
static void fp_saturate(int dt, unsigned char *p, int cls)
{
    if (dt == OACL_DT_F32) {
        uint32_t v;
        memcpy(&v, p, 4);
        v = cls == FP_NAN ? 0u : (v & 0x80000000u) | 0x7F7FFFFFu;
        memcpy(p, &v, 4);
    } else {
        uint16_t v;
        memcpy(&v, p, 2);
        const uint16_t max = dt == OACL_DT_F16 ? 0x7BFFu : 0x7F7Fu;
        v = cls == FP_NAN ? 0u : (uint16_t)((v & 0x8000u) | max);
        memcpy(p, &v, 2);
    }
}

/* Does a non-finite result of class cls count, given its operands' classes? */
static inline bool fp_counts(int cls, int ca, int cb)
{
    return cls == FP_INF ? (ca == FP_FINITE && cb == FP_FINITE) : (ca != FP_NAN && cb != FP_NAN);
}

static void fp_note(void)
{
    if (oacl_fp_ctl & OACL_FP_DETECT)
        oacl_fp_ctl |= OACL_FP_HIT;
}

void oacl_fp_map(int out_dt, void *dst, size_t n, int in_dt, const void *a, size_t a_step, const void *b,
                 size_t b_step, oacl_fp_compute_fn compute, const void *job)
{
    fexcept_t saved;
    fegetexceptflag(&saved, FE_ALL_EXCEPT);
    _Alignas(64) unsigned char tmp[FP_CHUNK * 8];
    const size_t oes = fp_size(out_dt), ies = fp_size(in_dt);
    const unsigned char *pa = a, *pb = b;
    unsigned char *d = dst;
    const bool sat = (oacl_fp_ctl & OACL_FP_SATURATE) != 0;
    bool hit = false;
    for (size_t off = 0; off < n;) {
        const size_t m = n - off < FP_CHUNK ? n - off : FP_CHUNK;
        compute(job, tmp, off, m);
        for (size_t k = 0; k < m; k++) {
            unsigned char *r = tmp + k * oes;
            const int cls = fp_class(out_dt, r);
            if (__builtin_expect(cls == FP_FINITE, 1))
                continue;
            if (!hit) {
                const size_t i = off + k;
                const int ca = pa ? fp_class(in_dt, pa + i * a_step * ies) : FP_FINITE;
                const int cb = pb ? fp_class(in_dt, pb + i * b_step * ies) : FP_FINITE;
                hit = fp_counts(cls, ca, cb);
            }
            if (sat)
                fp_saturate(out_dt, r, cls);
        }
        memcpy(d + off * oes, tmp, m * oes);
        off += m;
    }
    if (hit)
        fp_note();
    fesetexceptflag(&saved, FE_ALL_EXCEPT);
}

void oacl_fp_reduce_check(int dtype, void *res, const void *src, size_t n)
{
    const int cls = fp_class(dtype, res);
    if (cls == FP_FINITE)
        return;
    const size_t es = fp_size(dtype);
    const unsigned char *s = src;
    int worst = FP_FINITE; /* NaN beats inf beats finite among the inputs */
    for (size_t i = 0; i < n && worst != FP_NAN; i++) {
        const int c = fp_class(dtype, s + i * es);
        if (c > worst)
            worst = c;
    }
    if (fp_counts(cls, worst, FP_FINITE))
        fp_note();
    if (oacl_fp_ctl & OACL_FP_SATURATE)
        fp_saturate(dtype, res, cls);
}

#define FE_CHECKED (FE_OVERFLOW | FE_INVALID)

void oacl_fp_block_begin(uint32_t ctl, fexcept_t *saved)
{
    oacl_fp_ctl = ctl & (OACL_FP_DETECT | OACL_FP_SATURATE);
    if (ctl & OACL_FP_DETECT) {
        /* The thread may be a host thread helping in a synchronise: its own
           sticky flags are put back after the block. */
        fegetexceptflag(saved, FE_CHECKED);
        feclearexcept(FE_CHECKED);
    }
}

void oacl_fp_block_end(struct oacl_task *t, const fexcept_t *saved)
{
    const uint32_t c = oacl_fp_ctl;
    oacl_fp_ctl = 0;
    if (!(c & OACL_FP_DETECT))
        return;
    const bool hit = (c & OACL_FP_HIT) || fetestexcept(FE_CHECKED);
    fesetexceptflag(saved, FE_CHECKED);
    if (hit && !__atomic_exchange_n(&t->fp_hit, 1u, __ATOMIC_ACQ_REL) && t->fp_overflow)
        t->fp_overflow(t->fp_overflow_arg); /* the first block that overflowed */
}

int oacl_fp_task_code(const struct oacl_task *t)
{
    const uint32_t need = OACL_FP_DETECT | OACL_FP_SATURATE;
    if ((t->fp_ctl & need) != need || !__atomic_load_n(&t->fp_hit, __ATOMIC_ACQUIRE))
        return 0;
    /* By the core type the task is recorded with (vector core or AI Core). */
    return t->trace_type == OACL_TT_KERNEL_AIVEC ? ACL_ERROR_RT_AIVEC_OVER_FLOW : ACL_ERROR_RT_AICORE_OVER_FLOW;
}
