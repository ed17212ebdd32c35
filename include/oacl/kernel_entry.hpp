/*
 * Entry glue for C++ kernels, used by the wrappers oacl-cc generates.
 *
 * For a kernel `extern "C" void k(A0, A1, ...)` the generated code writes
 *
 *     OACL_CXX_KERNEL_ENTRY(k, ::k, N)
 *
 * which defines `extern "C" void oacl__entry_k(const void *args)`: it reads
 * parameter i from the argument blob at offset align8(end of parameter
 * i-1) (include/oacl/kernel_abi.h) with memcpy, so the blob needs no
 * particular alignment, and calls k. The parameter types come from
 * decltype(&k); they must be trivially copyable with alignment <= 8. N is
 * the parameter count oacl-cc found while scanning; it is checked against
 * the compiler's view. OACL_CXX_KERNEL_PARAM_SIZE(k, i) is sizeof of
 * parameter i, for the size array of the descriptor.
 */
#ifndef OACL_KERNEL_ENTRY_HPP
#define OACL_KERNEL_ENTRY_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "oacl/kernel_entry.hpp needs C++17"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

namespace oacl {
namespace kentry {

constexpr std::size_t align8(std::size_t n) { return (n + 7u) / 8u * 8u; }

/* Not a function pointer: every check fails, and nothing is instantiated. */
template <typename F>
struct traits {
    static constexpr bool is_function = false;
    static constexpr bool variadic = false;
    static constexpr std::size_t count = 0;
    static constexpr bool copyable = false;
    static constexpr bool align_ok = false;
};

template <bool Variadic, typename... A>
struct traits_of_params {
    static constexpr bool is_function = true;
    static constexpr bool variadic = Variadic;
    static constexpr std::size_t count = sizeof...(A);
    static constexpr bool copyable = (true && ... && std::is_trivially_copyable<A>::value);
    static constexpr bool align_ok = (true && ... && (alignof(A) <= 8u));
    using params = std::tuple<A...>;
    /* Offset of parameter i: the next multiple of 8 after parameter i-1. */
    static constexpr std::size_t offset(std::size_t i)
    {
        constexpr std::size_t sizes[sizeof...(A) + 1] = {sizeof(A)..., 0};
        std::size_t off = 0;
        for (std::size_t k = 0; k < i; k++)
            off = align8(off + sizes[k]);
        return off;
    }
};

template <typename R, typename... A> struct traits<R (*)(A...)> : traits_of_params<false, A...> {};
template <typename R, typename... A> struct traits<R (*)(A...) noexcept> : traits_of_params<false, A...> {};
template <typename R, typename... A> struct traits<R (*)(A..., ...)> : traits_of_params<true, A...> {};
template <typename R, typename... A> struct traits<R (*)(A..., ...) noexcept> : traits_of_params<true, A...> {};

template <typename F, std::size_t I>
constexpr std::uint32_t param_size()
{
    if constexpr (traits<F>::is_function && I < traits<F>::count)
        return static_cast<std::uint32_t>(sizeof(std::tuple_element_t<I, typename traits<F>::params>));
    else
        return 0;
}

template <typename T>
inline T load(const unsigned char *p)
{
    alignas(T) unsigned char raw[sizeof(T)];
    std::memcpy(raw, p, sizeof(T));
    return *std::launder(reinterpret_cast<T *>(raw));
}

template <auto Fn, typename... A, std::size_t... I>
inline void call(const unsigned char *blob, std::tuple<A...> *, std::index_sequence<I...>)
{
    using T = traits<decltype(Fn)>;
    (void)blob;
    (void)Fn(load<A>(blob + std::integral_constant<std::size_t, T::offset(I)>::value)...);
}

template <auto Fn>
inline void invoke(const void *args)
{
    using T = traits<decltype(Fn)>;
    if constexpr (T::is_function && !T::variadic && T::copyable && T::align_ok)
        call<Fn>(static_cast<const unsigned char *>(args), static_cast<typename T::params *>(nullptr),
                 std::make_index_sequence<T::count>());
    else
        (void)args;
}

} // namespace kentry
} // namespace oacl

#define OACL_KENTRY_HIDDEN __attribute__((visibility("hidden")))

#define OACL_CXX_KERNEL_PARAM_SIZE(fn, i) (::oacl::kentry::param_size<decltype(&fn), (i)>())

#define OACL_CXX_KERNEL_ENTRY(sym, fn, n)                                                                   \
    static_assert(::oacl::kentry::traits<decltype(&fn)>::is_function,                                      \
                  "oacl-cc: kernel " #sym " is not a function");                                            \
    static_assert(!::oacl::kentry::traits<decltype(&fn)>::variadic,                                        \
                  "oacl-cc: kernel " #sym " is variadic; kernels need a fixed parameter list");             \
    static_assert(!::oacl::kentry::traits<decltype(&fn)>::is_function ||                                   \
                      ::oacl::kentry::traits<decltype(&fn)>::count == (n),                                  \
                  "oacl-cc: kernel " #sym ": the compiler sees a different parameter count than oacl-cc "   \
                  "found while scanning (please report this)");                                             \
    static_assert(!::oacl::kentry::traits<decltype(&fn)>::is_function ||                                   \
                      ::oacl::kentry::traits<decltype(&fn)>::copyable,                                      \
                  "oacl-cc: kernel " #sym ": every parameter must be trivially copyable (pointers, "       \
                  "scalars, plain structs; no references)");                                                \
    static_assert(!::oacl::kentry::traits<decltype(&fn)>::is_function ||                                   \
                      ::oacl::kentry::traits<decltype(&fn)>::align_ok,                                      \
                  "oacl-cc: kernel " #sym ": a parameter needs alignment > 8, but parameters in the "     \
                  "argument blob are only 8-byte aligned");                                                 \
    extern "C" OACL_KENTRY_HIDDEN void oacl__entry_##sym(const void *oacl__a);                               \
    extern "C" OACL_KENTRY_HIDDEN void oacl__entry_##sym(const void *oacl__a)                                \
    {                                                                                                       \
        ::oacl::kentry::invoke<&fn>(oacl__a);                                                               \
    }

#endif /* OACL_KERNEL_ENTRY_HPP */
