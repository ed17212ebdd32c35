/*
 * oacl-cc as a command: failures (message, exit status, nothing left
 * behind), options, SoC selection, environment and paths with spaces.
 * Each case spawns the built driver with its output captured.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "kbin_check.h"

extern char **environ;

#define SRC OACL_TEST_KERNEL_SRC_DIR "/"
#define BAD SRC "bad/"
#define CLI SRC "cli/"
#define SCRATCH OACL_TEST_SCRATCH_DIR

static char g_log[1 << 16]; /* stdout + stderr of the last run */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void rm_tree(const char *path) { nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

static bool exists(const char *path) { return access(path, F_OK) == 0; }

/* Entries of dir (ignoring . and ..). */
static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            n++;
    closedir(d);
    return n;
}

/*
 * Runs oacl-cc with the build tree's include and library directories and
 * the given arguments (NULL-terminated). `env` holds extra NAME=VALUE
 * entries (NULL-terminated, may be NULL); SOC_VERSION, OACL_KERNEL_CFLAGS
 * and TMPDIR from the test's own environment are not passed on. Returns
 * the exit status; the output is in g_log.
 */
static int run_cc_env(const char *const *env, const char *first, ...)
{
    const char *argv[64];
    size_t n = 0;
    argv[n++] = OACL_CC_PATH;
    argv[n++] = "--include-dir=" OACL_TEST_INCLUDE_DIR;
    argv[n++] = "--lib-dir=" OACL_TEST_LIB_DIR;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a; a = va_arg(ap, const char *)) {
        assert_true(n < 63);
        argv[n++] = a;
    }
    va_end(ap);
    argv[n] = NULL;

    const char *envp[512];
    size_t m = 0;
    for (char **e = environ; *e && m < 480; e++)
        if (strncmp(*e, "SOC_VERSION=", 12) && strncmp(*e, "OACL_KERNEL_CFLAGS=", 19) && strncmp(*e, "TMPDIR=", 7))
            envp[m++] = *e;
    for (size_t i = 0; env && env[i]; i++)
        envp[m++] = env[i];
    envp[m] = NULL;

    const char *log = SCRATCH "/last.log";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, (char *const *)envp);
    posix_spawn_file_actions_destroy(&fa);
    assert_int_equal(rc, 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));

    FILE *f = fopen(log, "r");
    assert_non_null(f);
    size_t len = fread(g_log, 1, sizeof(g_log) - 1, f);
    g_log[len] = '\0';
    fclose(f);
    /* In sanitizer builds a report also exits non-zero: never let it pass
     * for an expected failure. */
    if (strstr(g_log, "Sanitizer") || strstr(g_log, "runtime error:"))
        fail_msg("oacl-cc hit a sanitizer report:\n%s", g_log);
    return WEXITSTATUS(status);
}

#define run_cc(...) run_cc_env(NULL, __VA_ARGS__, NULL)
#define run_cc_with(env, ...) run_cc_env((env), __VA_ARGS__, NULL)

#define assert_log_has(s)                                                                           \
    do {                                                                                            \
        if (!strstr(g_log, (s)))                                                                    \
            fail_msg("expected \"%s\" in the output of oacl-cc:\n%s", (s), g_log);                  \
    } while (0)

#define assert_log_lacks(s)                                                                         \
    do {                                                                                            \
        if (strstr(g_log, (s)))                                                                     \
            fail_msg("did not expect \"%s\" in the output of oacl-cc:\n%s", (s), g_log);            \
    } while (0)

/* A failing compile: exit 1, an "oacl-cc: error:" line, no output and no
 * partial output in the output directory. */
static void expect_failure(const char *out_dir, const char *out)
{
    assert_log_has("oacl-cc: error: ");
    assert_false(exists(out));
    assert_int_equal(count_entries(out_dir, "out.o"), 0);
}

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

static int setup(void **state)
{
    (void)state;
    rm_tree(SCRATCH);
    return mkdir(SCRATCH, 0755);
}

/* ---- failures -------------------------------------------------------------- */

static void test_missing_source(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", SCRATCH "/no_such_kernel.c"), 1);
    assert_log_has("no_such_kernel.c");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_syntax_error(void **state)
{
    (void)state;
    mkdir(SCRATCH "/tmp_fail", 0755);
    const char *env[] = {"TMPDIR=" SCRATCH "/tmp_fail", NULL};
    assert_int_equal(run_cc_with(env, "-o", SCRATCH "/out.o", BAD "syntax_error.c"), 1);
    assert_log_has("syntax_error.c:7:"); /* the compiler's own message */
    assert_log_has("oacl-cc: error: compiling");
    expect_failure(SCRATCH, SCRATCH "/out.o");
    assert_int_equal(count_entries(SCRATCH "/tmp_fail", ""), 0); /* temp dir removed */
}

static void test_no_kernels(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "no_kernel.c"), 1);
    assert_log_has("no __global__ kernel found");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_duplicate_kernel(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "dup_a.c", BAD "dup_b.c"), 1);
    assert_log_has("duplicate kernel 'dup_kernel'");
    assert_log_has("dup_a.c:4");
    assert_log_has("dup_b.c:5");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_variadic_kernel(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "variadic.c"), 1);
    assert_log_has("variadic.c:4: kernel 'var_kernel' is variadic");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_array_parameter(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "array_param.c"), 1);
    assert_log_has("parameter 2 ('uint32_t dims[4]') has array type; use a pointer");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_cxx_kernel_without_extern_c(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "not_extern_c.cpp"), 1);
    assert_log_has("kernel 'mangled_kernel' in a C++ source must be declared extern \"C\"");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_template_and_member_kernels(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "template_kernel.cpp"), 1);
    assert_log_has("template_kernel.cpp:5: kernel 'templ_kernel' is a function template");
    assert_log_has("template_kernel.cpp:14: kernel is a function template");
    expect_failure(SCRATCH, SCRATCH "/out.o");
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "member_kernel.cpp"), 1);
    assert_log_has("kernel 'member_kernel' is a class member");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_overaligned_parameters(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "align16.c"), 1);
    assert_log_has("oacl-cc: kernel align_kernel: parameter wide needs alignment > 8");
    assert_log_has("align16.c:4"); /* reported at the kernel, not in a temp file */
    expect_failure(SCRATCH, SCRATCH "/out.o");
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "align16_struct.c"), 1);
    assert_log_has("oacl-cc: kernel align_struct_kernel: parameter w needs alignment > 8");
    expect_failure(SCRATCH, SCRATCH "/out.o");
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "align16.cpp"), 1);
    assert_log_has("oacl-cc: kernel align_cpp_kernel: a parameter needs alignment > 8");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_reference_parameter(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "reference_param.cpp"), 1);
    assert_log_has("oacl-cc: kernel ref_kernel: every parameter must be trivially copyable");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_usage_errors(void **state)
{
    (void)state;
    assert_int_equal(run_cc(CLI "probe.c"), 1);
    assert_log_has("no output file given");
    assert_int_equal(run_cc("-o", SCRATCH "/out.o"), 1);
    assert_log_has("no kernel sources given");
    assert_int_equal(run_cc("--bogus", "-o", SCRATCH "/out.o", CLI "probe.c"), 1);
    assert_log_has("unknown option '--bogus'");
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", CLI "split_kernel.h"), 1);
    assert_log_has("cannot tell the language of");
    assert_int_equal(run_cc("-x", "fortran", "-o", SCRATCH "/out.o", CLI "probe.c"), 1);
    assert_log_has("unsupported language");
    assert_int_equal(run_cc("--cc=/nonexistent/oacl-test-cc", "-o", SCRATCH "/out.o", CLI "probe.c"), 1);
    assert_log_has("cannot run '/nonexistent/oacl-test-cc'");
    expect_failure(SCRATCH, SCRATCH "/out.o");

    assert_int_equal(run_cc("-O9", "-o", SCRATCH "/out.o", CLI "probe.c"), 1);
    assert_log_has("unknown optimisation option '-O9'");
    /* -o naming a source is refused before anything is written. */
    copy_file(CLI "probe.c", SCRATCH "/probe_copy.c");
    assert_int_equal(run_cc("-o", SCRATCH "/probe_copy.c", SCRATCH "/probe_copy.c"), 1);
    assert_log_has("is one of the sources");
    FILE *f = fopen(SCRATCH "/probe_copy.c", "r");
    assert_non_null(f);
    char head[4] = {0};
    assert_int_equal(fread(head, 1, 3, f), 3);
    fclose(f);
    assert_string_equal(head, "/* ");

    assert_int_equal(run_cc("--help"), 0);
    assert_log_has("usage: oacl-cc");
    assert_int_equal(run_cc("--version"), 0);
    assert_log_has("oacl-cc (oacl) ");
}

/* ---- <<<>>> launches and the object and source outputs --------------------- */

static void test_launch_errors(void **state)
{
    (void)state;
    /* Caught by the rewrite, with the original file and line. */
    assert_int_equal(run_cc("-c", "-o", SCRATCH "/out.o", BAD "launch_malformed.cpp"), 1);
    assert_log_has("oacl-cc: error: " BAD "launch_malformed.cpp:9: expected a kernel name before '<<<'");
    expect_failure(SCRATCH, SCRATCH "/out.o");
    assert_int_equal(run_cc("-c", "-o", SCRATCH "/out.o", BAD "launch_in_c.c"), 1);
    assert_log_has("launch_in_c.c:6: kernel<<<...>>>(...) launches need a C++ source");
    expect_failure(SCRATCH, SCRATCH "/out.o");
    /* Caught by the launcher's checks when the host compiler compiles it. */
    assert_int_equal(run_cc("-c", "-o", SCRATCH "/out.o", BAD "launch_arg_count.cpp"), 1);
    assert_log_has("the number of arguments differs from the kernel's parameter count");
    assert_log_has("launch_arg_count.cpp:6");
    expect_failure(SCRATCH, SCRATCH "/out.o");
    assert_int_equal(run_cc("-c", "-o", SCRATCH "/out.o", BAD "launch_bad_arg.cpp"), 1);
    assert_log_has("an argument cannot be converted to the kernel's parameter type");
    expect_failure(SCRATCH, SCRATCH "/out.o");
    assert_int_equal(run_cc("-c", "-o", SCRATCH "/out.o", BAD "launch_bad_config.cpp"), 1);
    assert_log_has("stream must be an aclrtStream, a pointer or nullptr");
    assert_log_has("a launch takes three parameters between <<< and >>>");
    expect_failure(SCRATCH, SCRATCH "/out.o");
    /* The compiler's own errors point at the original source. */
    assert_int_equal(run_cc("-c", "-o", SCRATCH "/out.o", BAD "launch_syntax.cpp"), 1);
    assert_log_has(BAD "launch_syntax.cpp:6:");
    expect_failure(SCRATCH, SCRATCH "/out.o");
    /* The same in a kernel binary. */
    assert_int_equal(run_cc("-o", SCRATCH "/out.o", BAD "launch_syntax.cpp"), 1);
    assert_log_has(BAD "launch_syntax.cpp:6:");
    expect_failure(SCRATCH, SCRATCH "/out.o");
}

static void test_emit_modes(void **state)
{
    (void)state;
    /* A kernel binary from a source with a <<<>>> wrapper, a trap and a
     * quote-included header next to it. */
    assert_int_equal(run_cc("-Wall", "-Wextra", "-Werror", "-o", SCRATCH "/lp.o", CLI "launch_probe.cpp"), 0);
    struct kbin k;
    kbin_open(&k, SCRATCH "/lp.o");
    static const uint32_t sizes[] = {8, 4};
    const struct oacl_kernel_desc *d = kbin_kernel_sizes(&k, "launch_probe", 2, sizes);
    uint32_t out = 0;
    uint32_t *pout = &out, v = 2;
    struct blob bl;
    blob_init(&bl);
    BLOB_PUT(&bl, pout);
    BLOB_PUT(&bl, v);
    d->entry(bl.b);
    assert_int_equal(out, 42);
    kbin_close(&k);

    /* --depfile: the source, the header next to it and oacl's headers, as
     * a Makefile rule for the output; none of oacl-cc's temporary files. */
    assert_int_equal(run_cc("--depfile=" SCRATCH "/deps/lp.d", "-o", SCRATCH "/lp.o", CLI "launch_probe.cpp"), 0);
    FILE *df = fopen(SCRATCH "/deps/lp.d", "r");
    assert_non_null(df);
    static char deps[65536];
    size_t dn = fread(deps, 1, sizeof(deps) - 1, df);
    deps[dn] = '\0';
    fclose(df);
    assert_true(strncmp(deps, SCRATCH "/lp.o:", strlen(SCRATCH "/lp.o:")) == 0);
    assert_non_null(strstr(deps, "/cli/launch_probe.cpp \\\n"));
    assert_non_null(strstr(deps, "/cli/launch_probe_config.h"));
    assert_non_null(strstr(deps, "/oacl/kernel_entry.hpp"));
    assert_null(strstr(deps, "oacl-cc."));
    assert_null(strstr(deps, ".rw.cpp"));
    assert_int_equal(count_entries(SCRATCH "/deps", "lp.d.tmp"), 0);

    /* -c / --emit=object: a relocatable object, no kernel table needed. */
    assert_int_equal(run_cc("-c", "-o", SCRATCH "/lp_obj.o", CLI "launch_probe.cpp"), 0);
    assert_true(exists(SCRATCH "/lp_obj.o"));
    assert_int_equal(run_cc("--emit=object", "-o", SCRATCH "/two.o", CLI "launch_probe.cpp", CLI "probe.c",
                            "-I", CLI "inc"),
                     0);
    assert_true(exists(SCRATCH "/two.o"));
    assert_int_equal(count_entries(SCRATCH, "two.o.tmp"), 0);

    /* --emit=source: the rewritten text, #line back to the original, the
     * SoC's architecture as a macro. */
    assert_int_equal(run_cc("--emit=source", "--soc=Ascend950PR_9599", "-o", SCRATCH "/gen/lp.cpp",
                            CLI "launch_probe.cpp"),
                     0);
    FILE *f = fopen(SCRATCH "/gen/lp.cpp", "r");
    assert_non_null(f);
    static char text[16384];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    text[n] = '\0';
    fclose(f);
    char real[4096];
    assert_non_null(realpath(CLI "launch_probe.cpp", real));
    char line_dir[4200];
    snprintf(line_dir, sizeof(line_dir), "#line 1 \"%s\"\n", real);
    if (!strstr(text, line_dir))
        fail_msg("no '%s' in\n%s", line_dir, text);
    assert_non_null(strstr(text, "#define __NPU_ARCH__ 3510"));
    assert_non_null(strstr(text, "#include <oacl/kernel_entry.hpp>"));
    assert_non_null(strstr(text, "::oacl::kentry::launch<&(launch_probe)>(\"launch_probe\", 1, nullptr, stream)(out, 1u)"));
    assert_non_null(strstr(text, "oacl_kernel_trap();"));
    assert_null(strstr(text, "<<<1")); /* <<< stays only in comments */
    /* A source without launches is still written (with its prelude). */
    assert_int_equal(run_cc("--emit=source", "-o", SCRATCH "/gen/probe.c", CLI "probe.c"), 0);
    assert_true(exists(SCRATCH "/gen/probe.c"));

    assert_int_equal(run_cc("--emit=source", "-o", SCRATCH "/gen/two.cpp", CLI "launch_probe.cpp", CLI "probe.c"), 1);
    assert_log_has("--emit=source takes exactly one source");
    assert_int_equal(run_cc("--emit=library", "-o", SCRATCH "/x.o", CLI "probe.c"), 1);
    assert_log_has("unknown --emit kind 'library'");
}

/* ---- successful runs: the probe kernel reports its macros ----------------- */

struct probe_out { /* as in tests/kernels/cli/probe.c */
    int32_t arch;
    int32_t optimized;
    int32_t value;
    int32_t cplusplus;
    char soc[32];
};

/* Loads path, checks arch/SoC in the descriptor, runs probe. */
static struct probe_out run_probe(const char *path, uint32_t arch, const char *soc)
{
    struct kbin k;
    kbin_open(&k, path);
    assert_int_equal(k.desc->npu_arch, arch);
    assert_string_equal(k.desc->soc_name, soc);
    static const uint32_t sizes[] = {8};
    const struct oacl_kernel_desc *d = kbin_kernel_sizes(&k, "probe", 1, sizes);
    struct probe_out out;
    memset(&out, 0, sizeof(out));
    struct probe_out *pout = &out;
    struct blob bl;
    blob_init(&bl);
    BLOB_PUT(&bl, pout);
    d->entry(bl.b);
    kbin_close(&k);
    assert_int_equal(out.arch, (int32_t)arch);
    assert_string_equal(out.soc, soc);
    return out;
}

#define PROBE_O SCRATCH "/probe.o"

static void test_defaults(void **state)
{
    (void)state;
    mkdir(SCRATCH "/tmp_ok", 0755);
    const char *env[] = {"TMPDIR=" SCRATCH "/tmp_ok", NULL};
    assert_int_equal(run_cc_with(env, "-o", PROBE_O, CLI "probe.c"), 0);
    assert_log_lacks("oacl-cc: note:");
    struct probe_out p = run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC);
    assert_int_equal(p.optimized, 1); /* -O2 by default */
    assert_int_equal(p.value, -1);
    assert_int_equal(p.cplusplus, 0);
    assert_int_equal(count_entries(SCRATCH "/tmp_ok", ""), 0);
    assert_int_equal(count_entries(SCRATCH, "probe.o.tmp"), 0);
}

static void test_soc_selection(void **state)
{
    (void)state;
    assert_int_equal(run_cc("--soc=Ascend950PR_9599", "-o", PROBE_O, CLI "probe.c"), 0);
    run_probe(PROBE_O, 3510, "Ascend950PR_9599");

    assert_int_equal(run_cc("--soc", "ascend310p3", "-o", PROBE_O, CLI "probe.c"), 0); /* case forgiven */
    run_probe(PROBE_O, 2002, "Ascend310P3");

    /* Unknown and empty names fall back to the default with one note. */
    assert_int_equal(run_cc("--soc=NoSuchSoc", "-o", PROBE_O, CLI "probe.c"), 0);
    assert_log_has("oacl-cc: note: unknown SoC 'NoSuchSoc'");
    assert_null(strstr(strstr(g_log, "oacl-cc: note:") + 1, "oacl-cc: note:"));
    run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC);
    assert_int_equal(run_cc("--soc=", "-o", PROBE_O, CLI "probe.c"), 0);
    assert_log_has("oacl-cc: note: empty SoC name");
    run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC);

    /* $SOC_VERSION is used unless --soc is given. */
    const char *env[] = {"SOC_VERSION=Ascend910B4", NULL};
    assert_int_equal(run_cc_with(env, "-o", PROBE_O, CLI "probe.c"), 0);
    run_probe(PROBE_O, 2201, "Ascend910B4");
    assert_int_equal(run_cc_with(env, "--soc=Ascend310B1", "-o", PROBE_O, CLI "probe.c"), 0);
    run_probe(PROBE_O, 3002, "Ascend310B1");
    const char *bad_env[] = {"SOC_VERSION=Bogus", NULL};
    assert_int_equal(run_cc_with(bad_env, "-o", PROBE_O, CLI "probe.c"), 0);
    assert_log_has("oacl-cc: note: unknown SoC 'Bogus'");
    run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC);
}

static void test_preprocessor_and_optimisation_options(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-DPROBE_VALUE=42", "-O0", "-o", PROBE_O, CLI "probe.c"), 0);
    struct probe_out p = run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC);
    assert_int_equal(p.value, 42);
    assert_int_equal(p.optimized, 0);

    assert_int_equal(run_cc("-D", "PROBE_VALUE=43", "-O0", "-O3", "-g", "-o", PROBE_O, CLI "probe.c"), 0);
    p = run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC);
    assert_int_equal(p.value, 43);
    assert_int_equal(p.optimized, 1); /* the later -O wins */

    assert_int_equal(run_cc("-DPROBE_VALUE=5", "-UPROBE_VALUE", "-o", PROBE_O, CLI "probe.c"), 0);
    assert_int_equal(run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC).value, -1);

    /* <probe_extra.h> is only reachable through -I. */
    assert_int_equal(run_cc("-DPROBE_INCLUDE", "-I", CLI "inc", "-o", PROBE_O, CLI "probe.c"), 0);
    assert_int_equal(run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC).value, 99);
    assert_int_equal(run_cc("-DPROBE_INCLUDE", "-o", PROBE_O, CLI "probe.c"), 1);
    assert_log_has("probe_extra.h");

    /* OACL_KERNEL_CFLAGS comes after everything else. */
    const char *env[] = {"OACL_KERNEL_CFLAGS=-DPROBE_VALUE=7  -O0", NULL};
    assert_int_equal(run_cc_with(env, "-o", PROBE_O, CLI "probe.c"), 0);
    p = run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC);
    assert_int_equal(p.value, 7);
    assert_int_equal(p.optimized, 0);

    /* Pass-through flags reach the compiler: -Werror turns the warning
     * about the unused `unused` into an error. */
    assert_int_equal(run_cc("-Wunused-variable", "-Werror", "-DPROBE_VALUE=1;int unused", "-o", PROBE_O,
                            CLI "probe.c"),
                     1);
    assert_log_has("unused");
}

static void test_language_selection(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-x", "c++", "-o", PROBE_O, CLI "probe.c"), 0);
    assert_int_equal(run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC).cplusplus, 1);
    assert_int_equal(run_cc("-xc++", CLI "probe.c", "-x", "none", "-o", PROBE_O), 0);
    assert_int_equal(run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC).cplusplus, 1);
}

static void test_verbose_and_keep_temps(void **state)
{
    (void)state;
    assert_int_equal(run_cc("-v", "--keep-temps", "-o", PROBE_O, CLI "probe.c"), 0);
    assert_log_has("-D__NPU_ARCH__=2201");
    assert_log_has("-DOACL_KERNEL_SCAN=1");
    assert_log_has(" -shared ");
    assert_log_has("-Wl,--no-undefined");
    assert_log_has("-lacl_rt");
    const char *kept = strstr(g_log, "temporary files kept in ");
    assert_non_null(kept);
    char dir[4096];
    kept += strlen("temporary files kept in ");
    size_t n = strcspn(kept, "\n");
    assert_true(n < sizeof(dir));
    memcpy(dir, kept, n);
    dir[n] = '\0';
    char table[4200];
    snprintf(table, sizeof(table), "%s/table.c", dir);
    assert_true(exists(table));
    rm_tree(dir);
    run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC);
}


static void test_paths_with_spaces(void **state)
{
    (void)state;
    /* Source and its quote-included header in a directory with a space;
     * output into directories that do not exist yet. */
    assert_int_equal(mkdir(SCRATCH "/src dir", 0755), 0);
    copy_file(SRC "with_header.c", SCRATCH "/src dir/with header.c");
    copy_file(SRC "with_header_tiling.h", SCRATCH "/src dir/with_header_tiling.h");
    const char *out = SCRATCH "/out dir/a b/with header.o";
    assert_int_equal(run_cc("--soc=Ascend910B2", "-o", out, SCRATCH "/src dir/with header.c"), 0);
    struct kbin k;
    kbin_open(&k, out);
    assert_int_equal(k.desc->npu_arch, 2201);
    static const uint32_t sizes[] = {8, 12};
    const struct oacl_kernel_desc *d = kbin_kernel_sizes(&k, "tiled", 2, sizes);
    uint8_t buf[64] = {0};
    uint8_t *pbuf = buf;
    struct { uint32_t total, tile; uint16_t flags; } tiling = {1, 2, 3};
    struct blob bl;
    blob_init(&bl);
    BLOB_PUT(&bl, pbuf);
    BLOB_PUT(&bl, tiling);
    d->entry(bl.b);
    assert_memory_equal(buf, &tiling, 10);
    assert_string_equal((const char *)buf + 20, "Ascend910B2");
    kbin_close(&k);
}

static void test_declaration_and_definition_in_different_sources(void **state)
{
    (void)state;
    /* split_k is declared (with __global__) in both sources and defined in
     * split_b.c: one kernel, whose entry lives with the definition. */
    assert_int_equal(run_cc("-o", SCRATCH "/split.o", CLI "split_a.c", CLI "split_b.c"), 0);
    struct kbin k;
    kbin_open(&k, SCRATCH "/split.o");
    assert_int_equal(k.desc->num_kernels, 1);
    static const uint32_t sizes[] = {8, 4};
    const struct oacl_kernel_desc *d = kbin_kernel_sizes(&k, "split_k", 2, sizes);
    uint32_t r = 0, v = 21;
    uint32_t *pr = &r;
    struct blob bl;
    blob_init(&bl);
    BLOB_PUT(&bl, pr);
    BLOB_PUT(&bl, v);
    d->entry(bl.b);
    assert_int_equal(r, 42);
    kbin_close(&k);
}

static int twice(int v) { return 2 * v; }

static void test_unusual_c_parameters(void **state)
{
    (void)state;
    /* odd_unnamed has only an unnamed declaration under __global__;
     * odd_params has function-typed, attributed and parenthesised
     * parameters and a pointer to an array. */
    assert_int_equal(run_cc("-Wall", "-Wextra", "-Werror", "-o", SCRATCH "/odd.o", CLI "odd_decl.c", CLI "odd_def.c"), 0);
    struct kbin k;
    kbin_open(&k, SCRATCH "/odd.o");
    assert_int_equal(k.desc->num_kernels, 2);

    static const uint32_t s_unnamed[] = {8, 4, 8}, s_odd[] = {8, 4, 8, 8};
    const struct oacl_kernel_desc *d = kbin_kernel_sizes(&k, "odd_unnamed", 3, s_unnamed);
    uint8_t out[16] = {0};
    uint8_t *pout = out;
    uint32_t v = 0x01020304u;
    double dv = -2.5;
    struct blob bl;
    blob_init(&bl);
    BLOB_PUT(&bl, pout);
    BLOB_PUT(&bl, v);
    assert_int_equal(BLOB_PUT(&bl, dv), 16);
    d->entry(bl.b);
    assert_memory_equal(out, &v, 4);
    assert_memory_equal(out + 8, &dv, 8);

    d = kbin_kernel_sizes(&k, "odd_params", 4, s_odd);
    int (*fn)(int) = twice;
    int ignored = 0;
    int32_t rows[2][2] = {{1, 2}, {17, 4}};
    int32_t(*prows)[2] = rows;
    blob_init(&bl);
    BLOB_PUT(&bl, fn);
    BLOB_PUT(&bl, ignored);
    BLOB_PUT(&bl, pout);
    BLOB_PUT(&bl, prows);
    d->entry(bl.b);
    int32_t r;
    memcpy(&r, out, sizeof(r));
    assert_int_equal(r, 34);
    kbin_close(&k);
}

/* Searches PATH; NULL if absent. */
static const char *find_tool(const char *name, char *buf, size_t cap)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
        size_t n = strcspn(p, ":");
        if (n && (size_t)snprintf(buf, cap, "%.*s/%s", (int)n, p, name) < cap && access(buf, X_OK) == 0)
            return buf;
        p += n + (p[n] == ':');
    }
    return NULL;
}

static void test_compiler_selection(void **state)
{
    (void)state;
    /* $OACL_CC is used unless --cc is given. */
    const char *env[] = {"OACL_CC=/nonexistent/oacl-env-cc", NULL};
    assert_int_equal(run_cc_with(env, "-o", PROBE_O, CLI "probe.c"), 1);
    assert_log_has("cannot run '/nonexistent/oacl-env-cc'");
    assert_int_equal(run_cc_with(env, "--cc=cc", "-o", PROBE_O, CLI "probe.c"), 0);
    run_probe(PROBE_O, 2201, OACL_TEST_DEFAULT_SOC);

    char cc[4096], cxx[4096];
    if (!find_tool("clang", cc, sizeof(cc)) || !find_tool("clang++", cxx, sizeof(cxx))) {
        skip();
        return;
    }
    char cc_opt[4200], cxx_opt[4200];
    snprintf(cc_opt, sizeof(cc_opt), "--cc=%s", cc);
    snprintf(cxx_opt, sizeof(cxx_opt), "--cxx=%s", cxx);
    assert_int_equal(run_cc("-v", cc_opt, cxx_opt, "-Wall", "-Werror", "-o", SCRATCH "/clang.o", SRC "mixed_c.c",
                            SRC "mixed_cpp.cpp"),
                     0);
    assert_log_has(cxx); /* linked by clang++ */
    struct kbin k;
    kbin_open(&k, SCRATCH "/clang.o");
    assert_int_equal(k.desc->num_kernels, 5);
    kbin_kernel(&k, "mixed_c");
    kbin_kernel(&k, "in_namespace");
    kbin_close(&k);
    assert_int_equal(run_cc(cc_opt, "-o", SCRATCH "/out.o", BAD "align16.c"), 1);
    assert_log_has("parameter wide needs alignment > 8");

    /* clang leaves sanitizer runtimes to the executable: a sanitized
     * kernel links without --no-undefined (not loaded here: this test
     * process may not carry the runtime). */
    const char *san[] = {"OACL_KERNEL_CFLAGS=-fsanitize=address", NULL};
    assert_int_equal(run_cc_with(san, "-v", cc_opt, cxx_opt, "-o", SCRATCH "/san.o", SRC "mixed_cpp.cpp"), 0);
    assert_log_lacks("--no-undefined");
    assert_true(exists(SCRATCH "/san.o"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_missing_source, setup),
        cmocka_unit_test_setup(test_syntax_error, setup),
        cmocka_unit_test_setup(test_no_kernels, setup),
        cmocka_unit_test_setup(test_duplicate_kernel, setup),
        cmocka_unit_test_setup(test_variadic_kernel, setup),
        cmocka_unit_test_setup(test_array_parameter, setup),
        cmocka_unit_test_setup(test_cxx_kernel_without_extern_c, setup),
        cmocka_unit_test_setup(test_template_and_member_kernels, setup),
        cmocka_unit_test_setup(test_overaligned_parameters, setup),
        cmocka_unit_test_setup(test_reference_parameter, setup),
        cmocka_unit_test_setup(test_usage_errors, setup),
        cmocka_unit_test_setup(test_launch_errors, setup),
        cmocka_unit_test_setup(test_emit_modes, setup),
        cmocka_unit_test_setup(test_defaults, setup),
        cmocka_unit_test_setup(test_soc_selection, setup),
        cmocka_unit_test_setup(test_preprocessor_and_optimisation_options, setup),
        cmocka_unit_test_setup(test_language_selection, setup),
        cmocka_unit_test_setup(test_verbose_and_keep_temps, setup),
        cmocka_unit_test_setup(test_paths_with_spaces, setup),
        cmocka_unit_test_setup(test_declaration_and_definition_in_different_sources, setup),
        cmocka_unit_test_setup(test_unusual_c_parameters, setup),
        cmocka_unit_test_setup(test_compiler_selection, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
