/*
 * Source rewriting for oacl-cc: the parts of AscendC kernel sources that a
 * host C/C++ compiler cannot take as they are.
 *
 *   kernel<<<blockDim, l2ctrl, stream>>>(args...)
 *       becomes
 *   ::oacl::kentry::launch<&(kernel)>("kernel", blockDim, l2ctrl, stream)(args...)
 *
 *   asm("trap")  (also __asm__ / asm volatile / "trap;")
 *       becomes
 *   oacl_kernel_trap()
 *
 * The rewrite works on the raw text of one source file: comments, string
 * and character literals (raw strings included) and #include lines are
 * copied untouched, and every line keeps its number, so a `#line 1 "src"`
 * in front of the result makes diagnostics point at the original. The
 * launcher (include/oacl/kernel_entry.hpp) packs the arguments by value
 * with the kernel's parameter types and queues the kernel with
 * oacl_launch(); the expression's value is an int (0 = queued).
 *
 *   __global__ ... k(params) { body }   (namespace scope, with register_kernels)
 *       gets, after its closing brace, a static object registering the
 *       kernel with the runtime (oacl_register_kernel) for
 *       aclrtGetFuncBySymbol.
 *
 *   __gm__ T name = init;   (a namespace-scope definition)
 *       gets, on the same line after its ';', a constructor calling
 *   oacl_register_device_var(&name, &name, sizeof(name), "name")
 *       and a destructor calling oacl_unregister_device_var(&name), so
 *       that the runtime knows the device variable (docs/kernel-abi.md).
 *       In C the calls use the names oacl__gm_register/_unregister, which
 *       the prelude oacl-cc writes declares as those two symbols.
 *
 * The kernel before `<<<` must be an id-expression: a name, optionally
 * qualified (`ns::k`, `::k`) and with template arguments (`k<float>`).
 * Launches written inside other headers or produced by macros defined in
 * other files are not seen.
 */
#ifndef OACL_REWRITE_H
#define OACL_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

struct oacl_rw_diag {
    unsigned line; /* 1-based line in the input */
    char msg[240];
};

struct oacl_rw_result {
    char *text;          /* malloc'd, NUL-terminated (NULL on error) */
    size_t len;
    unsigned launches;   /* <<<>>> launches rewritten */
    unsigned traps;      /* asm("trap") statements rewritten */
    unsigned gm_vars;    /* __gm__ variables given a registration */
    unsigned kernels;    /* __global__ definitions given a registration */
    unsigned ndiags;     /* errors found; text is NULL if any */
    struct oacl_rw_diag diags[8];
};

/*
 * Rewrites src[0..len). `cxx` enables C++ lexing (raw strings, digit
 * separators); launches in C sources are reported as errors (the launcher
 * is C++). Returns true on success; on failure res->diags says why and
 * res->text is NULL. Free res->text with free().
 */
bool oacl_rewrite(const char *src, size_t len, bool cxx, struct oacl_rw_result *res);

/*
 * The same with options. register_kernels (C++ only, for sources compiled
 * to be linked into a program): every namespace-scope definition of a
 * __global__ function (not a template, not a qualified name) gets, after
 * its closing brace, a static object that registers the kernel's host
 * address and descriptor with the runtime for aclrtGetFuncBySymbol; the
 * output then needs <oacl/kernel_entry.hpp>.
 */
struct oacl_rw_options {
    bool cxx;
    bool register_kernels;
};
bool oacl_rewrite_opts(const char *src, size_t len, const struct oacl_rw_options *opt, struct oacl_rw_result *res);

#endif /* OACL_REWRITE_H */
