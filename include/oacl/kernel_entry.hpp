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
 *
 * Launches of kernels linked into the program: oacl-cc rewrites
 *
 *     kernel<<<blockDim, l2ctrl, stream>>>(args...)
 *
 * into
 *
 *     ::oacl::kentry::launch<&(kernel)>("kernel", blockDim, l2ctrl, stream)(args...)
 *
 * launch() returns a launcher whose call operator converts every argument
 * to the kernel's parameter type (any object pointer is accepted for a
 * pointer parameter: host code passes float* or uint8_t* for GM_ADDR),
 * packs the values into an argument blob with the kernel-binary layout
 * (parameter i at the next multiple of 8 after parameter i-1) and queues
 * the kernel with oacl_launch(). The arguments are captured by value when
 * the launch expression is evaluated. The value is an int: 0 when the
 * launch was queued, else an aclError code. l2ctrl is ignored (nullptr in
 * older CANN releases, a dynamic UB size in newer ones); stream may be
 * nullptr (the default stream), an aclrtStream or any pointer.
 */
#ifndef OACL_KERNEL_ENTRY_HPP
#define OACL_KERNEL_ENTRY_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "oacl/kernel_entry.hpp needs C++17"
#endif

#if defined(__GNUC__)
/* Users compile kernel sources with their own warning flags (-Werror,
 * -Wold-style-cast, ...); this header's internals are not theirs. */
#pragma GCC system_header
#endif

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include "oacl/kernel_abi.h"

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

/* ---- <<<>>> launches -------------------------------------------------------- */

/* Total size of the argument blob of a kernel with parameters A... */
template <typename... A>
constexpr std::size_t blob_size()
{
    constexpr std::size_t sizes[sizeof...(A) + 1] = {sizeof(A)..., 0};
    std::size_t end = 0;
    for (std::size_t k = 0; k < sizeof...(A); k++)
        end = align8(end) + sizes[k];
    return end;
}

template <typename T>
struct blob_of;
template <typename... A>
struct blob_of<std::tuple<A...>> {
    static constexpr std::size_t size = blob_size<A...>();
    static constexpr std::uint32_t sizes[sizeof...(A) + 1] = {static_cast<std::uint32_t>(sizeof(A))..., 0u};
};

/* The descriptor of a kernel launched with <<<>>>: one per kernel and
 * program, made on the first launch (name is the kernel as written at that
 * launch: a string literal). */
template <auto Fn>
inline const oacl_kernel_desc *desc(const char *name)
{
    using T = traits<decltype(Fn)>;
    if constexpr (T::is_function && !T::variadic) {
        static const oacl_kernel_desc d = {name, &invoke<Fn>,
                                           T::count ? blob_of<typename T::params>::sizes : nullptr,
                                           static_cast<std::uint32_t>(T::count), 0u};
        return &d;
    } else {
        (void)name;
        return nullptr;
    }
}

/* Argument a converted to the kernel's parameter type P, as a call would,
 * except that any object pointer (or nullptr) is accepted for a pointer
 * parameter. */
template <typename P, typename A>
inline P convert_arg(A &&a)
{
    using D = std::decay_t<A>;
    if constexpr (std::is_pointer<P>::value && std::is_null_pointer<D>::value) {
        return nullptr;
    } else if constexpr (std::is_pointer<P>::value && std::is_pointer<D>::value && !std::is_same<D, P>::value &&
                         !std::is_function<std::remove_pointer_t<D>>::value &&
                         !std::is_function<std::remove_pointer_t<P>>::value) {
        using Plain = std::remove_cv_t<std::remove_pointer_t<D>> *;
        return reinterpret_cast<P>(const_cast<Plain>(a));
    } else {
        static_assert(std::is_convertible<A &&, P>::value,
                      "kernel<<<...>>>(args): an argument cannot be converted to the kernel's parameter type");
        if constexpr (std::is_convertible<A &&, P>::value) {
            P v = std::forward<A>(a);
            return v;
        } else {
            return P{};
        }
    }
}

template <typename P, typename A>
inline void store_arg(unsigned char *dst, A &&a)
{
    P v = convert_arg<P>(std::forward<A>(a));
    std::memcpy(dst, &v, sizeof(P));
}

template <auto Fn>
class launcher {
    using T = traits<decltype(Fn)>;

public:
    launcher(const oacl_kernel_desc *d, std::uint32_t blocks, void *stream) : desc_(d), blocks_(blocks), stream_(stream) {}

    template <typename... A>
    int operator()(A &&...a) const
    {
        static_assert(T::is_function, "kernel<<<...>>>: the kernel must be a function");
        static_assert(!T::variadic, "kernel<<<...>>>: the kernel must have a fixed parameter list");
        static_assert(sizeof...(A) == T::count,
                      "kernel<<<...>>>(args): the number of arguments differs from the kernel's parameter count");
        static_assert(T::copyable, "kernel<<<...>>>: every kernel parameter must be trivially copyable (pointers, "
                                   "scalars, plain structs; no references)");
        static_assert(T::align_ok, "kernel<<<...>>>: a kernel parameter needs alignment > 8, but parameters in the "
                                   "argument blob are only 8-byte aligned");
        if constexpr (T::is_function && !T::variadic && sizeof...(A) == T::count && T::copyable && T::align_ok)
            return pack(static_cast<typename T::params *>(nullptr), std::make_index_sequence<T::count>(),
                        std::forward<A>(a)...);
        else
            return -1;
    }

private:
    template <typename... P, std::size_t... I, typename... A>
    int pack(std::tuple<P...> *, std::index_sequence<I...>, A &&...a) const
    {
        constexpr std::size_t size = blob_size<P...>();
        alignas(8) unsigned char blob[size ? size : 1] = {};
        (store_arg<P>(blob + std::integral_constant<std::size_t, T::offset(I)>::value, std::forward<A>(a)), ...);
        return oacl_launch(desc_, blocks_, stream_, size ? blob : nullptr, size);
    }

    const oacl_kernel_desc *desc_;
    std::uint32_t blocks_;
    void *stream_;
};

/* blockDim as the runtime's uint32_t; out-of-range values become 0, which
 * the runtime rejects. */
template <typename B>
inline std::uint32_t launch_blocks(B b)
{
    static_assert(std::is_integral<B>::value || std::is_enum<B>::value,
                  "kernel<<<blockDim, l2ctrl, stream>>>: blockDim must be an integer");
    if constexpr (std::is_enum<B>::value) {
        return launch_blocks(static_cast<std::underlying_type_t<B>>(b));
    } else if constexpr (std::is_same<B, bool>::value) {
        return b ? 1u : 0u;
    } else if constexpr (std::is_signed<B>::value) {
        return (b < 0 || static_cast<unsigned long long>(b) > UINT32_MAX) ? 0u : static_cast<std::uint32_t>(b);
    } else {
        return static_cast<unsigned long long>(b) > UINT32_MAX ? 0u : static_cast<std::uint32_t>(b);
    }
}

template <typename S>
inline void *launch_stream(S s)
{
    if constexpr (std::is_null_pointer<S>::value) {
        return nullptr;
    } else {
        static_assert(std::is_pointer<S>::value && !std::is_function<std::remove_pointer_t<S>>::value,
                      "kernel<<<blockDim, l2ctrl, stream>>>: stream must be an aclrtStream, a pointer or nullptr");
        if constexpr (std::is_pointer<S>::value && !std::is_function<std::remove_pointer_t<S>>::value)
            return const_cast<void *>(static_cast<const volatile void *>(s));
        else
            return nullptr;
    }
}

template <auto Fn, typename... C>
inline launcher<Fn> launch(const char *name, C &&...cfg)
{
    static_assert(sizeof...(C) == 3, "kernel<<<blockDim, l2ctrl, stream>>>(args): a launch takes three "
                                     "parameters between <<< and >>>");
    if constexpr (sizeof...(C) == 3) {
        auto t = std::forward_as_tuple(std::forward<C>(cfg)...);
        return launcher<Fn>(desc<Fn>(name), launch_blocks(std::get<0>(t)), launch_stream(std::get<2>(t)));
    } else {
        return launcher<Fn>(desc<Fn>(name), 0u, nullptr);
    }
}

/* ---- registration of kernels linked into the program ---------------------------- */

/* oacl-cc puts one of these after every __global__ definition of a C++
 * source compiled for linking: the runtime then knows the kernel's host
 * address (aclrtGetFuncBySymbol, aclrtLaunchKernelWithArgsArray) while its
 * module is loaded. Kernels that cannot be launched (variadic, parameters
 * that are not trivially copyable or need alignment > 8) are not
 * registered. */
template <auto Fn>
class registration {
    using T = traits<decltype(Fn)>;
    static constexpr bool launchable = T::is_function && !T::variadic && T::copyable && T::align_ok;

public:
    explicit registration(const char *name)
    {
        if constexpr (launchable)
            oacl_register_kernel(reinterpret_cast<const void *>(Fn), desc<Fn>(name));
        else
            (void)name;
    }
    ~registration()
    {
        if constexpr (launchable)
            oacl_unregister_kernel(reinterpret_cast<const void *>(Fn));
    }
    registration(const registration &) = delete;
    registration &operator=(const registration &) = delete;
};

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
