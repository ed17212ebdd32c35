/*
 * AscendC layer of oacl (part of kernel_operator.h, which includes these
 * parts in order): kernel printf/PRINTF, Trap, task-type and core-type macros, and the
 * kernel assert.
 */
#ifndef OACL_ASC_PRINTF_H
#define OACL_ASC_PRINTF_H

#include "oacl/asc/vec_ops.h"

namespace AscendC {

/* ---- debug output -------------------------------------------------------------- */

namespace oacl_detail {

/* One printf argument, normalised: conversions pick what they need. */
struct PrintArg {
    enum Kind : uint8_t { SINT, UINT, DBL, STR, PTR } kind;
    long long i;
    unsigned long long u;
    double d;
    const void *p;
};

template <typename A>
inline PrintArg print_arg(const A &v)
{
    using D = typename std::decay<A>::type;
    PrintArg a{PrintArg::SINT, 0, 0, 0.0, nullptr};
    if constexpr (std::is_same<D, half>::value || std::is_same<D, bfloat16_t>::value) {
        a.kind = PrintArg::DBL;
        a.d = static_cast<double>(static_cast<float>(v));
    } else if constexpr (std::is_floating_point<D>::value) {
        a.kind = PrintArg::DBL;
        a.d = static_cast<double>(v);
    } else if constexpr (std::is_enum<D>::value) {
        using U = typename std::underlying_type<D>::type;
        return print_arg(static_cast<U>(v));
    } else if constexpr (std::is_integral<D>::value && std::is_signed<D>::value) {
        a.i = static_cast<long long>(v);
    } else if constexpr (std::is_integral<D>::value) {
        a.kind = PrintArg::UINT;
        a.u = static_cast<unsigned long long>(v);
    } else if constexpr (std::is_same<D, char *>::value || std::is_same<D, const char *>::value) {
        a.kind = PrintArg::STR;
        a.p = static_cast<const void *>(static_cast<const char *>(v));
    } else if constexpr (std::is_pointer<D>::value) {
        a.kind = PrintArg::PTR;
        a.p = reinterpret_cast<const void *>(v);
    } else if constexpr (std::is_null_pointer<D>::value) {
        a.kind = PrintArg::PTR;
    } else {
        static_assert(always_false<D>::value, "AscendC::printf: unsupported argument type");
    }
    if (a.kind == PrintArg::SINT) {
        a.u = static_cast<unsigned long long>(a.i);
        a.d = static_cast<double>(a.i);
    } else if (a.kind == PrintArg::UINT) {
        a.i = static_cast<long long>(a.u);
        a.d = static_cast<double>(a.u);
    } else if (a.kind == PrintArg::DBL) {
        a.i = a.d == a.d && a.d > -9.2e18 && a.d < 9.2e18 ? static_cast<long long>(a.d) : 0;
        a.u = static_cast<unsigned long long>(a.i);
    }
    return a;
}

/* Collects a printf call's text so that it reaches stdout in one piece
   (only text beyond the buffer is written in more than one). */
class PrintOut {
public:
    PrintOut() : n_(0) {}
    void put(const char *s, size_t k)
    {
        while (k) {
            if (n_ == sizeof(buf_))
                flush();
            size_t m = sizeof(buf_) - n_ < k ? sizeof(buf_) - n_ : k;
            std::memcpy(buf_ + n_, s, m);
            n_ += m;
            s += m;
            k -= m;
        }
    }
    void pad(char c, size_t k)
    {
        while (k--)
            put(&c, 1);
    }
    void flush()
    {
        if (n_)
            ::oacl_printf("%.*s", static_cast<int>(n_), buf_);
        n_ = 0;
    }

private:
    char buf_[2048];
    size_t n_;
};

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
/* Formats one conversion with the C library (spec is well formed). */
template <typename V>
inline void put_formatted(PrintOut &o, const char *spec, V v)
{
    char tmp[512];
    int k = __builtin_snprintf(tmp, sizeof(tmp), spec, v);
    if (k > 0)
        o.put(tmp, static_cast<size_t>(k) < sizeof(tmp) ? static_cast<size_t>(k) : sizeof(tmp) - 1);
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/*
 * printf with the conversions AscendC documents (d i u x X o f F e E g G a
 * A c s p, flags, width, precision, length modifiers), each argument
 * converted to what its conversion needs, so %d with an int64_t or %f with
 * a half print what they mean.
 */
inline void vprint(const char *fmt, const PrintArg *args, size_t nargs)
{
    PrintOut o;
    size_t ai = 0;
    const char *p = fmt ? fmt : "(null)";
    while (*p) {
        if (*p != '%') {
            const char *q = p;
            while (*q && *q != '%')
                q++;
            o.put(p, static_cast<size_t>(q - p));
            p = q;
            continue;
        }
        if (p[1] == '%') {
            o.put("%", 1);
            p += 2;
            continue;
        }
        const char *start = p++;
        char spec[48] = "%";
        size_t n = 1;
        bool left = false, bad = false;
        while (*p && std::strchr("-+ #0", *p)) {
            left |= *p == '-';
            if (n < 8)
                spec[n++] = *p;
            p++;
        }
        long width = -1, prec = -1;
        if (*p == '*') {
            width = ai < nargs ? static_cast<long>(args[ai++].i) : 0;
            if (width < 0) {
                left = true;
                spec[n++] = '-';
                width = -width;
            }
            p++;
        } else {
            while (*p >= '0' && *p <= '9')
                width = (width < 0 ? 0 : width * 10) + (*p++ - '0');
        }
        if (*p == '.') {
            p++;
            prec = 0;
            if (*p == '*') {
                prec = ai < nargs ? static_cast<long>(args[ai++].i) : 0;
                p++;
            } else {
                while (*p >= '0' && *p <= '9')
                    prec = prec * 10 + (*p++ - '0');
            }
        }
        if (width > 1000)
            width = 1000;
        if (prec > 400)
            prec = 400;
        while (*p && std::strchr("hlLqjzt", *p))
            p++;
        const char c = *p;
        if (!c || !std::strchr("diuxXofFeEgGaAcsp", c) || ai >= nargs)
            bad = true;
        if (bad) { /* unknown conversion or missing argument: print it as written */
            const char *end = c ? p + 1 : p;
            o.put(start, static_cast<size_t>(end - start));
            p = end;
            continue;
        }
        p++;
        const PrintArg &a = args[ai++];
        if (c == 's') {
            const char *s = a.kind == PrintArg::STR ? static_cast<const char *>(a.p) : nullptr;
            if (!s)
                s = "(null)";
            size_t len = std::strlen(s);
            if (prec >= 0 && static_cast<size_t>(prec) < len)
                len = static_cast<size_t>(prec);
            size_t w = width > 0 ? static_cast<size_t>(width) : 0;
            if (!left && w > len)
                o.pad(' ', w - len);
            o.put(s, len);
            if (left && w > len)
                o.pad(' ', w - len);
            continue;
        }
        char num[24];
        int k = 0;
        if (width >= 0)
            k = __builtin_snprintf(num, sizeof(num), "%ld", width);
        if (k > 0)
            std::memcpy(spec + n, num, static_cast<size_t>(k)), n += static_cast<size_t>(k);
        if (prec >= 0) {
            k = __builtin_snprintf(num, sizeof(num), ".%ld", prec);
            if (k > 0)
                std::memcpy(spec + n, num, static_cast<size_t>(k)), n += static_cast<size_t>(k);
        }
        switch (c) {
        case 'd': case 'i':
            spec[n++] = 'l', spec[n++] = 'l', spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, a.i);
            break;
        case 'u': case 'x': case 'X': case 'o':
            spec[n++] = 'l', spec[n++] = 'l', spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, a.u);
            break;
        case 'c':
            spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, static_cast<int>(a.i));
            break;
        case 'p':
            spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, a.p ? a.p : reinterpret_cast<const void *>(static_cast<uintptr_t>(a.u)));
            break;
        default:
            spec[n++] = c, spec[n] = '\0';
            put_formatted(o, spec, a.d);
            break;
        }
    }
    o.flush();
}

[[noreturn]] inline void assert_fail(const char *file, int line, const char *func, const char *expr,
                                     const char *fmt, const PrintArg *args, size_t nargs)
{
    ::oacl_printf("[ASSERT] %s:%d: %s: Assertion `%s' failed.\n", file, line, func, expr);
    if (fmt)
        vprint(fmt, args, nargs);
    const char *base = std::strrchr(file, '/');
    oacl_kernel_fail(OACL_FAULT_USER, "assertion `%.120s' failed at %.60s:%d", expr, base ? base + 1 : file, line);
}

template <class... Args>
[[noreturn]] inline void assert_fail_fmt(const char *file, int line, const char *func, const char *expr,
                                         const char *fmt, Args &&...args)
{
    const PrintArg list[sizeof...(Args) + 1] = {print_arg(args)..., PrintArg{PrintArg::SINT, 0, 0, 0.0, nullptr}};
    assert_fail(file, line, func, expr, fmt, list, sizeof...(Args));
}

} // namespace oacl_detail

#if defined(ASCENDC_DUMP)
#define OACL_ASC_DUMP_OFF (ASCENDC_DUMP + 0 == 0)
#else
#define OACL_ASC_DUMP_OFF 0
#endif

/* Kernel printf: the text goes to stdout at once, as one piece, without
   the NPU's "[AIV Block i/n]" prefix; compiled out with ASCENDC_DUMP=0. */
template <class... Args>
inline void printf(const __gm__ char *fmt, Args &&...args)
{
#if OACL_ASC_DUMP_OFF
    (void)fmt;
    (void)sizeof...(args);
#else
    const oacl_detail::PrintArg list[sizeof...(Args) + 1] = {
        oacl_detail::print_arg(args)..., oacl_detail::PrintArg{oacl_detail::PrintArg::SINT, 0, 0, 0.0, nullptr}};
    oacl_detail::vprint(fmt, list, sizeof...(Args));
#endif
}

template <class... Args>
inline void PRINTF(const __gm__ char *fmt, Args &&...args)
{
    AscendC::printf(fmt, static_cast<Args &&>(args)...);
}

/* Stops the kernel with an error: the launch fails on its stream. */
[[noreturn]] inline void Trap() { ::oacl_kernel_trap(); }

} // namespace AscendC

/* Kernel task types only steer core selection on a device. */
#ifndef KERNEL_TASK_TYPE_DEFAULT
#define KERNEL_TASK_TYPE_DEFAULT(type)
#endif
#ifndef KERNEL_TASK_TYPE
#define KERNEL_TASK_TYPE(key, type)
#endif

#define ASCEND_IS_AIV constexpr(::AscendC::g_coreType == ::AscendC::AIV)
#define ASCEND_IS_AIC constexpr(::AscendC::g_coreType == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV constexpr(::AscendC::g_coreType != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC constexpr(::AscendC::g_coreType != ::AscendC::AIC)

/*
 * Kernel assert(expr) and assert(expr, fmt, args...): on failure prints
 * "[ASSERT] file:line: func: Assertion `expr' failed." (and the message)
 * and fails the launch. Replaces <cassert>'s assert from here on (a later
 * #include <cassert> brings the C one back); off with NDEBUG or
 * ASCENDC_DUMP=0.
 */
#undef assert
#if defined(NDEBUG) || OACL_ASC_DUMP_OFF
#define assert(...) (static_cast<void>(0))
#else
#define OACL_ASC_CAT_(a, b) a##b
#define OACL_ASC_CAT(a, b) OACL_ASC_CAT_(a, b)
#define OACL_ASC_PICK_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, name, ...) name
#define OACL_ASC_ASSERT_1(expr)                                                                                      \
    ((expr) ? static_cast<void>(0)                                                                                   \
            : ::AscendC::oacl_detail::assert_fail(__FILE__, __LINE__, __func__, #expr, nullptr, nullptr, 0))
#define OACL_ASC_ASSERT_N(expr, ...)                                                                                 \
    ((expr) ? static_cast<void>(0)                                                                                   \
            : ::AscendC::oacl_detail::assert_fail_fmt(__FILE__, __LINE__, __func__, #expr, __VA_ARGS__))
#define assert(...)                                                                                                  \
    OACL_ASC_CAT(OACL_ASC_ASSERT_, OACL_ASC_PICK_(__VA_ARGS__, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, 1,  \
                                                  0))(__VA_ARGS__)
#endif

#endif /* OACL_ASC_PRINTF_H */
