/*
 * The source rewriter of oacl-cc (tools/oacl-cc/oacl_rewrite.c): <<<>>> launches
 * and asm("trap") become calls, namespace-scope __gm__ variables get a
 * registration, everything else stays byte for byte, line numbers are
 * kept, and malformed launches are reported with their line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oacl_rewrite.h"

static unsigned count_lines(const char *s, size_t n)
{
    unsigned k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

/* Rewrites `in` as C++ (or C) and checks the result equals `want`. */
static void expect_rw_lang(const char *in, const char *want, unsigned launches, unsigned traps, bool cxx)
{
    struct oacl_rw_result r;
    if (!oacl_rewrite(in, strlen(in), cxx, &r))
        fail_msg("rewrite failed: line %u: %s\ninput:\n%s", r.diags[0].line, r.diags[0].msg, in);
    if (strcmp(r.text, want) != 0)
        fail_msg("input:\n%s\ngot:\n%s\nwant:\n%s", in, r.text, want);
    assert_int_equal(r.len, strlen(r.text));
    assert_int_equal(r.launches, launches);
    assert_int_equal(r.traps, traps);
    assert_int_equal(count_lines(in, strlen(in)), count_lines(r.text, r.len));
    free(r.text);
}

#define expect_rw(in, want, launches, traps) expect_rw_lang((in), (want), (launches), (traps), true)

/* Rewriting must fail with a message containing `what` at `line`. */
static void expect_rw_error(const char *in, bool cxx, unsigned line, const char *what)
{
    struct oacl_rw_result r;
    if (oacl_rewrite(in, strlen(in), cxx, &r)) {
        fail_msg("rewrite of\n%s\nshould fail but gave\n%s", in, r.text);
    }
    assert_null(r.text);
    assert_true(r.ndiags >= 1);
    if (r.diags[0].line != line || !strstr(r.diags[0].msg, what))
        fail_msg("want line %u \"%s\", got line %u \"%s\"", line, what, r.diags[0].line, r.diags[0].msg);
}

#define L "::oacl::kentry::launch<&("

static void test_basic_launch(void **state)
{
    (void)state;
    expect_rw("k<<<8, nullptr, s>>>(x, y);\n", L "k)>(\"k\", 8, nullptr, s)(x, y);\n", 1, 0);
    /* Spacing as written is kept inside the launch. */
    expect_rw("  add_custom <<< blockDim,nullptr,stream >>> (a);\n",
              "  " L "add_custom )>(\"add_custom\",  blockDim,nullptr,stream )" " (a);\n", 1, 0);
    /* No rewrite needed: the text is unchanged. */
    expect_rw("int a = 1 << 2; int b = a >> 1; bool c = a < b;\n",
              "int a = 1 << 2; int b = a >> 1; bool c = a < b;\n", 0, 0);
    expect_rw("", "", 0, 0);
    /* A byte-order mark is dropped (the rewritten text follows a prelude). */
    expect_rw("\xEF\xBB\xBFk<<<1, nullptr, s>>>(x);\n", L "k)>(\"k\", 1, nullptr, s)(x);\n", 1, 0);
    expect_rw("\xEF\xBB\xBFint x;\n", "int x;\n", 0, 0);
}

static void test_launch_value_used(void **state)
{
    (void)state;
    expect_rw("return static_cast<int32_t>(k<<<n, nullptr, s>>>(p));",
              "return static_cast<int32_t>(" L "k)>(\"k\", n, nullptr, s)(p));", 1, 0);
    expect_rw("int r = k<<<1, nullptr, nullptr>>>() + 1;",
              "int r = " L "k)>(\"k\", 1, nullptr, nullptr)() + 1;", 1, 0);
    expect_rw("if (k<<<1,nullptr,s>>>(a) != 0) return;",
              "if (" L "k)>(\"k\", 1,nullptr,s)(a) != 0) return;", 1, 0);
}

static void test_qualified_and_template(void **state)
{
    (void)state;
    expect_rw("ns::inner::k<<<1, nullptr, s>>>(a);", L "ns::inner::k)>(\"ns::inner::k\", 1, nullptr, s)(a);", 1, 0);
    expect_rw("::k<<<1, nullptr, s>>>(a);", L "::k)>(\"::k\", 1, nullptr, s)(a);", 1, 0);
    expect_rw("k<float><<<1, nullptr, s>>>(a);", L "k<float>)>(\"k<float>\", 1, nullptr, s)(a);", 1, 0);
    /* '>>' closing nested template arguments, before and inside <<<>>>. */
    expect_rw("k<A<int>><<<n >> 1, nullptr, s>>>(a);",
              L "k<A<int>>)>(\"k<A<int>>\", n >> 1, nullptr, s)(a);", 1, 0);
    expect_rw("ns::k<std::pair<int, int>, 4><<<static_cast<uint32_t>(m), nullptr, s>>>(a);",
              L "ns::k<std::pair<int, int>, 4>)>(\"ns::k<std::pair<int,int>,4>\", static_cast<uint32_t>(m), "
                "nullptr, s)(a);",
              1, 0);
    expect_rw("ns :: k <<<1, nullptr, s>>>(a);", L "ns :: k )>(\"ns::k\", 1, nullptr, s)(a);", 1, 0);
}

static void test_several_per_line(void **state)
{
    (void)state;
    expect_rw("a<<<1, nullptr, s>>>(x); b<<<2, nullptr, s>>>(y);\n",
              L "a)>(\"a\", 1, nullptr, s)(x); " L "b)>(\"b\", 2, nullptr, s)(y);\n", 2, 0);
    expect_rw("return a<<<1,nullptr,s>>>(x) + b<<<2,nullptr,s>>>(y);",
              "return " L "a)>(\"a\", 1,nullptr,s)(x) + " L "b)>(\"b\", 2,nullptr,s)(y);", 2, 0);
    /* A launch as the argument of another launch. */
    expect_rw("a<<<1,nullptr,s>>>(b<<<1,nullptr,s>>>(y));",
              L "a)>(\"a\", 1,nullptr,s)(" L "b)>(\"b\", 1,nullptr,s)(y));", 2, 0);
}

static void test_strings_and_comments(void **state)
{
    (void)state;
    const char *same[] = {
        "const char *s = \"k<<<1, nullptr, s>>>(x)\";\n",
        "// k<<<1, nullptr, s>>>(x)\n",
        "/* k<<<1, nullptr, s>>>(x)\n   still a comment <<< */\n",
        "char c = '<'; char d = '\\''; const char *e = \"\\\"<<<\";\n",
        "auto r = R\"x(k<<<1, nullptr, s>>>(y) )\" )x\";\n",
        "auto u = u8\"<<<\"; auto w = L\"<<<\"; auto v = LR\"(<<<)\";\n",
        "// continued comment \\\nk<<<1, nullptr, s>>>(x)\n",
        "#include <k<<<weird>>>.h>\n",
        "int n = 1'000'000; const char *t = \"<<<\";\n",
    };
    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
        expect_rw(same[i], same[i], 0, 0);
    /* Literals and comments inside a launch are copied as they are. */
    expect_rw("k<<<n /* blocks >>> */, nullptr, s>>>(\"<<<\", '>');",
              L "k)>(\"k\", n /* blocks >>> */, nullptr, s)(\"<<<\", '>');", 1, 0);
    expect_rw("k<<<f(\">>>\"), nullptr, s>>>(x);", L "k)>(\"k\", f(\">>>\"), nullptr, s)(x);", 1, 0);
}

static void test_line_breaks_kept(void **state)
{
    (void)state;
    expect_rw("k<<<\n  n,\n  nullptr,\n  s\n>>>(\n  x);\n",
              L "k)>(\"k\", \n  n,\n  nullptr,\n  s\n)(\n  x);\n", 1, 0);
    expect_rw("k\n<<<1, nullptr, s>>>(x);\n", L "k\n)>(\"k\", 1, nullptr, s)(x);\n", 1, 0);
    /* In a macro: the continuation lines stay continuations. */
    expect_rw("#define RUN(kern, s) \\\n    kern<<<8, nullptr, s>>>(x)\nRUN(k, st);\n",
              "#define RUN(kern, s) \\\n    " L "kern)>(\"kern\", 8, nullptr, s)(x)\nRUN(k, st);\n", 1, 0);
}

static void test_operator_not_a_launch(void **state)
{
    (void)state;
    const char *in = "template <> S &operator<<<int>(S &s, int v);\n";
    expect_rw(in, in, 0, 0);
}

static void test_traps(void **state)
{
    (void)state;
    expect_rw("if (x) asm(\"trap\");", "if (x) oacl_kernel_trap();", 0, 1);
    expect_rw("asm volatile(\"trap\");", "oacl_kernel_trap();", 0, 1);
    expect_rw("__asm__ __volatile__ ( \"trap;\" ::: \"memory\");", "oacl_kernel_trap();", 0, 1);
    expect_rw("__asm(\" trap \");", "oacl_kernel_trap();", 0, 1);
    expect_rw("asm volatile(\n  \"trap\"\n);", "oacl_kernel_trap()\n\n;", 0, 1);
    expect_rw("#define TRAP() asm(\\\n \"trap\")\n", "#define TRAP() oacl_kernel_trap()\\\n\n", 0, 1);
    /* Other assembly, and "trap" elsewhere, are left alone. */
    const char *same[] = {
        "asm volatile(\"\" ::: \"memory\");",
        "asm(\"nop\");",
        "asm(\"trap2\");",
        "const char *s = \"asm(\\\"trap\\\")\";",
        "// asm(\"trap\")\n",
        "int basm(int); int x = basm(1);",
        "int my_asm = 0;",
    };
    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
        expect_rw(same[i], same[i], 0, 0);
    /* C sources: traps are rewritten too. */
    expect_rw_lang("void k(void) { __asm__(\"trap\"); }\n", "void k(void) { oacl_kernel_trap(); }\n", 0, 1, false);
}

static void test_errors(void **state)
{
    (void)state;
    expect_rw_error("x;\n(*fp)<<<1, nullptr, s>>>(a);\n", true, 2, "expected a kernel name");
    expect_rw_error("\n\nk<<<1, nullptr, s(a);\n", true, 3, "without a matching '>>>'");
    expect_rw_error("k<<<1, nullptr, s>>>;\n", true, 1, "expected '('");
    expect_rw_error("obj.k<<<1, nullptr, s>>>(a);\n", true, 1, "not a member");
    expect_rw_error("p->k<<<1, nullptr, s>>>(a);\n", true, 1, "not a member");
    expect_rw_error("k<<<a<<<1,nullptr,s>>>(), nullptr, s>>>(x);\n", true, 1, "inside the launch configuration");
    expect_rw_error("void f(void) {\n k<<<1, 0, 0>>>(x);\n}\n", false, 2, "need a C++ source");
    /* Several problems are all reported. */
    struct oacl_rw_result r;
    const char *two = "(*a)<<<1,0,0>>>(x);\n(*b)<<<1,0,0>>>(y);\n";
    assert_false(oacl_rewrite(two, strlen(two), true, &r));
    assert_int_equal(r.ndiags, 2);
    assert_int_equal(r.diags[1].line, 2);
}

static void test_text_outside_launches_untouched(void **state)
{
    (void)state;
    /* A larger source: only the launch line differs. */
    const char *in =
        "#include \"kernel_operator.h\"\n"
        "#include <vector>\n"
        "template <typename T> struct V { std::vector<std::vector<T>> v; };\n"
        "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }\n"
        "int run(void *s, uint8_t *x) { return k<<<8, nullptr, s>>>(x); } // k<<<\n"
        "int y = 0x1'2 >> 1;\n";
    const char *want =
        "#include \"kernel_operator.h\"\n"
        "#include <vector>\n"
        "template <typename T> struct V { std::vector<std::vector<T>> v; };\n"
        "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }\n"
        "int run(void *s, uint8_t *x) { return " L "k)>(\"k\", 8, nullptr, s)(x); } // k<<<\n"
        "int y = 0x1'2 >> 1;\n";
    expect_rw(in, want, 1, 0);
}

/* ---- registrations of __gm__ variables ------------------------------------------ */

/* The names registered in `in` (C++ or C), in order, as "a,b,c"; checks
 * that lines are kept and that every registration follows a ';' on the
 * line of its declaration. */
static void expect_gm(const char *in, bool cxx, const char *names)
{
    struct oacl_rw_result r;
    if (!oacl_rewrite(in, strlen(in), cxx, &r))
        fail_msg("rewrite failed: line %u: %s\ninput:\n%s", r.diags[0].line, r.diags[0].msg, in);
    assert_int_equal(count_lines(in, strlen(in)), count_lines(r.text, r.len));
    char got[512] = "";
    unsigned n = 0;
    const char *key = cxx ? "::oacl_register_device_var(" : "oacl__gm_register(";
    for (const char *p = strstr(r.text, key); p; p = strstr(p + 1, key)) {
        const char *q = strstr(p, "sizeof(");
        assert_non_null(q);
        q += 7;
        size_t len = strcspn(q, ")");
        snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%.*s", n ? "," : "", (int)len, q);
        n++;
        /* Every constructor has its destructor. */
        assert_non_null(strstr(p, cxx ? "::oacl_unregister_device_var(" : "oacl__gm_unregister("));
    }
    if (strcmp(got, names) != 0)
        fail_msg("input:\n%s\nregistered \"%s\", want \"%s\"\noutput:\n%s", in, got, names, r.text);
    assert_int_equal(r.gm_vars, n);
    free(r.text);
}

static void test_gm_vars_registered(void **state)
{
    (void)state;
    expect_gm("__gm__ int a = 1, b[4] = {1, 2}, *c;\n", true, "a,b,c");
    expect_gm("static __gm__ volatile uint32_t flag;\nconst __gm__ float k = 1.0f;\n", true, "flag,k");
    expect_gm("extern \"C\" {\n__gm__ float inl;\n}\nnamespace ns { namespace {\n__gm__ half h[16];\n} }\n", true,
              "inl,h");
    expect_gm("__gm__ std::array<int, 4> arr{};\n__gm__ struct T { int x; __gm__ int *p; } t;\n", true, "arr,t");
    expect_gm("__gm__ int __attribute__((aligned(64))) v = 2;\nalignas(32) __gm__ char al[64];\n", true, "v,al");
    expect_gm("extern __gm__ const int e = 3;\n", true, "e");
    /* C sources: the same rule, C casts in the generated code. */
    expect_gm("#include \"oacl/kernel.h\"\n__gm__ uint32_t g_scale = 3;\n__gm__ uint32_t g_hits[8];\n", false,
              "g_scale,g_hits");
    /* The registration keeps the line: what follows stays on it. */
    struct oacl_rw_result r;
    const char *in = "__gm__ int x; int y;\nint z;\n";
    assert_true(oacl_rewrite(in, strlen(in), false, &r));
    assert_non_null(strstr(r.text, "__gm__ int x; static void __attribute__((constructor))"));
    assert_non_null(strstr(r.text, "} int y;\nint z;\n"));
    free(r.text);
}

static void test_gm_vars_not_registered(void **state)
{
    (void)state;
    expect_gm("extern __gm__ int decl_only;\n", true, "");
    expect_gm("__gm__ int *f(__gm__ int *p);\n", true, "");
    expect_gm("__gm__ int *g(__gm__ int *p) { static __gm__ int inside; return p; }\n", true, "");
    expect_gm("struct S { __gm__ int *m; static __gm__ int s; };\n", true, "");
    expect_gm("typedef __gm__ int gint;\ntemplate <typename X> __gm__ X tv;\n", true, "");
    expect_gm("__gm__ int t; __gm__ int &r = t;\n", true, "t");
    expect_gm("__gm__ int x(5);\nthread_local __gm__ int tl;\n", true, "");
    expect_gm("int plain = 3;\nint *p = nullptr;\n", true, "");
    expect_gm("extern \"C\" __global__ __aicore__ void k(__gm__ uint8_t *x) { __gm__ int *q = 0; (void)q; }\n", true,
              "");
    /* Not code: macros, comments, strings. */
    expect_gm("#define GMV(x) __gm__ int x;\n// __gm__ int c1;\n/* __gm__ int c2; */\nconst char *s = \"__gm__ int s;\";\n",
              true, "");
    expect_gm("__gm__ int ns::member = 1;\n", true, "");
    expect_gm("__gm__ x;\n__gm__ struct Tag;\n", false, "");
}

/* With register_kernels, __global__ definitions at namespace scope get a
 * registration after their closing brace, on the same line. */
static void rw_kernels(const char *in, bool cxx, bool reg, unsigned want_kernels, const char *const *want_names)
{
    struct oacl_rw_options o = {.cxx = cxx, .register_kernels = reg};
    struct oacl_rw_result r;
    if (!oacl_rewrite_opts(in, strlen(in), &o, &r))
        fail_msg("rewrite failed: %s", r.diags[0].msg);
    assert_int_equal(r.kernels, want_kernels);
    assert_int_equal(count_lines(in, strlen(in)), count_lines(r.text, r.len));
    for (size_t i = 0; want_names && want_names[i]; i++) {
        char needle[128];
        snprintf(needle, sizeof(needle), "::oacl::kentry::registration<&%s>", want_names[i]);
        if (!strstr(r.text, needle))
            fail_msg("no registration of %s in\n%s", want_names[i], r.text);
    }
    if (!want_kernels && strcmp(r.text, in) != 0)
        fail_msg("text changed:\n%s", r.text);
    free(r.text);
}

static void test_kernels_registered(void **state)
{
    (void)state;
    const char *src = "extern \"C\" __global__ __aicore__ void k1(GM_ADDR x, uint32_t n)\n{\n    if (n) { x[0] = 1; }\n}\n"
                      "namespace ns {\n__global__ void k2() { }\n}\n"
                      "extern \"C\" {\n__global__ [[maybe_unused]] void k3(int a) { (void)a; }\n}\n";
    static const char *const names[] = {"k1", "k2", "k3", NULL};
    rw_kernels(src, true, true, 3, names);
    /* The registration follows the body's brace on the same line. */
    struct oacl_rw_options o = {.cxx = true, .register_kernels = true};
    struct oacl_rw_result r;
    assert_true(oacl_rewrite_opts(src, strlen(src), &o, &r));
    assert_non_null(strstr(r.text, "x[0] = 1; }\n} static const ::oacl::kentry::registration<&k1>"));
    free(r.text);
}

static void test_kernels_not_registered(void **state)
{
    (void)state;
    /* Off by default, and for C sources. */
    const char *def = "__global__ void k(int a) { (void)a; }\n";
    rw_kernels(def, true, false, 0, NULL);
    rw_kernels(def, false, true, 0, NULL);
    /* Declarations, templates, members, qualified names, non-kernels, kernels in macros. */
    rw_kernels("__global__ void k(int a);\n"
               "template <typename T> __global__ void t(T a) { (void)a; }\n"
               "struct S { __global__ void m() { } };\n"
               "__global__ void ns::q() { }\n"
               "void host(int a) { (void)a; }\n"
               "#define K __global__ void mk() { }\n"
               "// __global__ void commented() { }\n"
               "const char *s = \"__global__ void str() { }\";\n",
               true, true, 0, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_launch),
        cmocka_unit_test(test_launch_value_used),
        cmocka_unit_test(test_qualified_and_template),
        cmocka_unit_test(test_several_per_line),
        cmocka_unit_test(test_strings_and_comments),
        cmocka_unit_test(test_line_breaks_kept),
        cmocka_unit_test(test_operator_not_a_launch),
        cmocka_unit_test(test_traps),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_text_outside_launches_untouched),
        cmocka_unit_test(test_gm_vars_registered),
        cmocka_unit_test(test_gm_vars_not_registered),
        cmocka_unit_test(test_kernels_registered),
        cmocka_unit_test(test_kernels_not_registered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
