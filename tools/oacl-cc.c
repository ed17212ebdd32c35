/*
 * oacl-cc: kernel compiler driver for oacl's simulated CPU device.
 *
 *   oacl-cc [options] -o OUT SRC...
 *
 * Turns kernel sources (C11 or C++17 with __global__ kernels) into one host
 * ELF shared object that exports `oacl_kernel_binary` (include/oacl/
 * kernel_abi.h). Steps:
 *   1. preprocess every source with OACL_KERNEL_SCAN defined, where
 *      __global__ becomes the marker token __oacl_kernel_entry__, and scan
 *      the output for kernels and their parameter lists;
 *   2. compile a wrapper per source that #includes the original and adds,
 *      per kernel, an entry `void oacl__entry_K(const void *args)` unpacking
 *      the argument blob (parameter i at the next multiple of 8 after
 *      parameter i-1 ends) plus an array of parameter sizes;
 *   3. compile a table TU defining the descriptor, link everything with
 *      -lacl_rt and move the result into place atomically.
 * Before any of this, every source whose text holds `kernel<<<...>>>(...)`
 * launches, asm("trap") or namespace-scope `__gm__` variable definitions
 * (which get a load-time registration, docs/kernel-abi.md) is rewritten
 * into a temporary copy (tools/oacl_rewrite.c) that starts with
 * `#line 1 "<source>"`; the source's own directory stays on the
 * quote-include path.
 *
 * Other outputs (--emit): `object` compiles the (rewritten) sources into one
 * relocatable object holding kernels and their host launch wrappers, for
 * linking into a program; `source` writes the rewritten source itself, to be
 * compiled by the project's own compiler (ascendc_library does this).
 *
 * Child processes run through posix_spawnp without a shell: paths may hold
 * spaces. Sections: utilities, options, running tools, lexing, scanning,
 * code generation, main.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/cpu/soc_profile.h"
#include "oacl/kernel_abi.h"
#include "oacl_rewrite.h"

#ifndef OACL_VERSION_STRING
#define OACL_VERSION_STRING "unknown"
#endif
#ifndef OACL_DEFAULT_SOC
#define OACL_DEFAULT_SOC "Ascend910B3"
#endif
#ifndef OACL_HOST_CC
#define OACL_HOST_CC ""
#endif
#ifndef OACL_HOST_CXX
#define OACL_HOST_CXX ""
#endif

extern char **environ;

/* ======================================================================
 * Utilities: memory, diagnostics, growable strings and argument vectors
 * ====================================================================== */

/* Every allocation is linked into one list so that all of it is released
 * at exit on every path (error exits included): sanitizer builds of the
 * driver run with leak detection. */
union oacl_mhdr {
    struct {
        union oacl_mhdr *prev, *next;
    } l;
    max_align_t align;
};
static union oacl_mhdr g_mem = {.l = {&g_mem, &g_mem}};

static void oacl_mlink(union oacl_mhdr *h)
{
    h->l.prev = &g_mem;
    h->l.next = g_mem.l.next;
    g_mem.l.next->l.prev = h;
    g_mem.l.next = h;
}

static void oacl_munlink(union oacl_mhdr *h)
{
    h->l.prev->l.next = h->l.next;
    h->l.next->l.prev = h->l.prev;
}

static void *oacl_xrealloc(void *p, size_t n)
{
    union oacl_mhdr *h = p ? (union oacl_mhdr *)p - 1 : NULL;
    if (h)
        oacl_munlink(h);
    union oacl_mhdr *nh = realloc(h, sizeof(*nh) + n);
    if (!nh) {
        if (h)
            oacl_mlink(h);
        fputs("oacl-cc: error: out of memory\n", stderr);
        exit(1);
    }
    oacl_mlink(nh);
    return nh + 1;
}

static void *oacl_xmalloc(size_t n) { return oacl_xrealloc(NULL, n); }

static void *oacl_xcalloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) {
        fputs("oacl-cc: error: out of memory\n", stderr);
        exit(1);
    }
    void *p = oacl_xmalloc(n * size);
    memset(p, 0, n * size);
    return p;
}

static void oacl_xfree(void *p)
{
    if (!p)
        return;
    union oacl_mhdr *h = (union oacl_mhdr *)p - 1;
    oacl_munlink(h);
    free(h);
}

static void oacl_free_all(void)
{
    while (g_mem.l.next != &g_mem) {
        union oacl_mhdr *h = g_mem.l.next;
        oacl_munlink(h);
        free(h);
    }
}

static char *oacl_strndup(const char *s, size_t n)
{
    char *d = oacl_xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static char *oacl_strdup(const char *s) { return oacl_strndup(s, strlen(s)); }

static char *oacl_vfmt(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *s = oacl_xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static char *oacl_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *oacl_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = oacl_vfmt(fmt, ap);
    va_end(ap);
    return s;
}

static unsigned g_errors; /* diagnostics so far; the run fails if any */

static void oacl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void oacl_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("oacl-cc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    g_errors++;
}

static _Noreturn void oacl_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void oacl_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("oacl-cc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void oacl_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void oacl_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("oacl-cc: note: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

struct oacl_buf {
    char *s;
    size_t len, cap;
};

static void oacl_buf_putn(struct oacl_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->s = oacl_xrealloc(b->s, cap);
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void oacl_buf_puts(struct oacl_buf *b, const char *s) { oacl_buf_putn(b, s, strlen(s)); }

static void oacl_buf_printf(struct oacl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void oacl_buf_printf(struct oacl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = oacl_vfmt(fmt, ap);
    va_end(ap);
    oacl_buf_puts(b, s);
    oacl_xfree(s);
}

/* NULL-terminated argument vector for posix_spawnp. */
struct oacl_argv {
    char **v;
    size_t n, cap;
};

static void oacl_argv_push(struct oacl_argv *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->v = oacl_xrealloc(a->v, a->cap * sizeof(*a->v));
    }
    a->v[a->n++] = oacl_strdup(s);
    a->v[a->n] = NULL;
}

static void oacl_argv_pushf(struct oacl_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void oacl_argv_pushf(struct oacl_argv *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = oacl_vfmt(fmt, ap);
    va_end(ap);
    oacl_argv_push(a, s);
    oacl_xfree(s);
}

static void oacl_argv_append(struct oacl_argv *a, const struct oacl_argv *b)
{
    for (size_t i = 0; i < b->n; i++)
        oacl_argv_push(a, b->v[i]);
}

static void oacl_argv_free(struct oacl_argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        oacl_xfree(a->v[i]);
    oacl_xfree(a->v);
    memset(a, 0, sizeof(*a));
}

static bool oacl_starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static char *oacl_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return oacl_strdup(".");
    if (slash == path)
        return oacl_strdup("/");
    return oacl_strndup(path, (size_t)(slash - path));
}

static char *oacl_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        oacl_fatal("cannot read '%s': %s", path, strerror(errno));
    struct oacl_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        oacl_buf_putn(&b, chunk, n);
    bool bad = ferror(f);
    fclose(f);
    if (bad)
        oacl_fatal("cannot read '%s'", path);
    oacl_buf_putn(&b, "\0", 1); /* a second NUL: the lexer peeks two ahead */
    *len = b.len - 1;
    return b.s;
}

static void oacl_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        oacl_fatal("cannot write '%s': %s", path, strerror(errno));
    bool ok = fputs(text, f) >= 0;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        oacl_fatal("cannot write '%s'", path);
}

/* ======================================================================
 * Options
 * ====================================================================== */

enum oacl_lang { OACL_LANG_NONE, OACL_LANG_C, OACL_LANG_CXX };

struct oacl_cname { const char *s; size_t len; };

struct oacl_source {
    const char *arg;   /* as given on the command line */
    char *abs;         /* absolute path */
    char *dir;         /* its directory, on the quote-include path */
    char *path;        /* what is compiled: abs, or the rewritten copy */
    enum oacl_lang lang;
    unsigned launches, traps; /* rewritten <<<>>> launches and asm("trap") */
    unsigned gm_vars;         /* __gm__ variables given a registration */
    unsigned kernels_registered; /* __global__ definitions registered (linked kernels) */
    /* Names declared with C linkage in this (C++) source, from the scan. */
    struct oacl_cname *cnames;
    size_t ncnames, cnames_cap;
};

enum oacl_emit { OACL_EMIT_BINARY, OACL_EMIT_OBJECT, OACL_EMIT_SOURCE };

static struct {
    const char *out;
    const char *depfile;        /* --depfile: Makefile-style dependencies of out */
    enum oacl_emit emit;
    const char *soc;            /* --soc value; NULL if not given */
    struct oacl_argv cpp;       /* -I/-D/-U in command-line order */
    struct oacl_argv flags;     /* -W*, -f*, -m*, -g, ... in order */
    struct oacl_argv env_flags; /* OACL_KERNEL_CFLAGS */
    const char *opt;            /* the -O flag; later ones win */
    const char *std_c, *std_cxx;
    const char *include_dir, *lib_dir, *cc, *cxx;
    bool verbose, keep;
    struct oacl_source *srcs;
    size_t nsrcs;
    const struct oacl_soc_profile *soc_profile;
} g_opt;

static void oacl_usage(FILE *f)
{
    fprintf(f,
        "usage: oacl-cc [options] -o OUT SRC...\n"
        "Compile kernel sources (C11 .c, C++17 .cpp/.cc/.cxx/.C) into a kernel\n"
        "binary for oacl's simulated device (loadable with aclrtBinaryLoadFromFile).\n"
        "kernel<<<blockDim, l2ctrl, stream>>>(args...) launches in C++ sources and\n"
        "asm(\"trap\") in kernels are rewritten for the host compiler.\n"
        "\n"
        "  -o FILE            output file (required); parent directories are created\n"
        "  --emit=binary      a loadable kernel binary (the default)\n"
        "  --emit=object, -c  one relocatable object with the kernels and their host\n"
        "                     launch wrappers, to link into a program (with -lacl_rt)\n"
        "  --emit=source      the rewritten source (one SRC), for the host compiler\n"
        "  --depfile=FILE     also write OUT's dependencies (sources and every header\n"
        "                     they include) as a Makefile rule, as -MD -MF do\n"
        "  --soc=NAME         SoC to compile for (else $SOC_VERSION, else %s);\n"
        "                     an empty or unknown name falls back to the default\n"
        "  -I DIR, -D N[=V], -U N   preprocessor options\n"
        "  -O0|-O1|-O2|-O3|-Os      optimisation (default -O2; the last one wins)\n"
        "  -g                 debug information\n"
        "  -W*, -f*, -m*, -std=*, -pedantic, -w\n"
        "                     passed to the compiler (-std=c++* only to C++ sources,\n"
        "                     other -std= only to C sources; -Wl,* only to the link)\n"
        "  -x c|c++|none      language of the following sources (else by extension)\n"
        "  --include-dir=DIR  oacl headers (default <oacl-cc dir>/../include)\n"
        "  --lib-dir=DIR      directory of libacl_rt.so (default <oacl-cc dir>/../lib64)\n"
        "  --cc=PATH, --cxx=PATH    host compilers (else $OACL_CC / $OACL_CXX, else the\n"
        "                     compilers oacl was built with, else cc / c++)\n"
        "  -v                 print each command run\n"
        "  --keep-temps       keep the temporary directory and print its name\n"
        "  --help, --version\n"
        "Environment: OACL_KERNEL_CFLAGS (extra compiler flags, space separated),\n"
        "TMPDIR (where temporary files go).\n",
        OACL_DEFAULT_SOC);
}

static enum oacl_lang oacl_lang_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    if (!dot)
        return OACL_LANG_NONE;
    if (strcmp(dot, ".c") == 0)
        return OACL_LANG_C;
    static const char *const cxx[] = {".cpp", ".cc", ".cxx", ".C", ".c++", ".cp", ".CPP"};
    for (size_t i = 0; i < sizeof(cxx) / sizeof(cxx[0]); i++)
        if (strcmp(dot, cxx[i]) == 0)
            return OACL_LANG_CXX;
    return OACL_LANG_NONE;
}

static void oacl_add_source(const char *arg, enum oacl_lang xlang)
{
    enum oacl_lang lang = xlang != OACL_LANG_NONE ? xlang : oacl_lang_of(arg);
    if (lang == OACL_LANG_NONE)
        oacl_fatal("cannot tell the language of '%s' from its name; use -x c or -x c++", arg);
    g_opt.srcs = oacl_xrealloc(g_opt.srcs, (g_opt.nsrcs + 1) * sizeof(*g_opt.srcs));
    struct oacl_source *s = &g_opt.srcs[g_opt.nsrcs++];
    memset(s, 0, sizeof(*s));
    s->arg = arg;
    s->lang = lang;
}

/* Value of option `name` at argv[*i]: `-X VALUE` / `-XVALUE` for short
 * names, `--name=VALUE` / `--name VALUE` for long ones. NULL if argv[*i] is
 * a different option. */
static const char *oacl_optval(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return NULL;
    const char *rest = a + n;
    if (*rest == '\0') {
        if (*i + 1 >= argc)
            oacl_fatal("missing argument to '%s'", name);
        return argv[++*i];
    }
    if (name[1] == '-')
        return *rest == '=' ? rest + 1 : NULL;
    return rest;
}

static void oacl_parse_args(int argc, char **argv)
{
    enum oacl_lang xlang = OACL_LANG_NONE;
    bool opts_done = false;
    g_opt.opt = "-O2";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (opts_done || a[0] != '-' || a[1] == '\0') {
            oacl_add_source(a, xlang);
        } else if (strcmp(a, "--") == 0) {
            opts_done = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            oacl_usage(stdout);
            exit(0);
        } else if (strcmp(a, "--version") == 0) {
            printf("oacl-cc (oacl) %s\nkernel binary ABI %u, default SoC %s\n", OACL_VERSION_STRING,
                   OACL_KBIN_ABI_VERSION, OACL_DEFAULT_SOC);
            exit(0);
        } else if (strcmp(a, "-v") == 0) {
            g_opt.verbose = true;
        } else if (strcmp(a, "--keep-temps") == 0) {
            g_opt.keep = true;
        } else if (strcmp(a, "-c") == 0) {
            g_opt.emit = OACL_EMIT_OBJECT;
        } else if ((v = oacl_optval(argc, argv, &i, "--emit"))) {
            if (strcmp(v, "binary") == 0)
                g_opt.emit = OACL_EMIT_BINARY;
            else if (strcmp(v, "object") == 0)
                g_opt.emit = OACL_EMIT_OBJECT;
            else if (strcmp(v, "source") == 0)
                g_opt.emit = OACL_EMIT_SOURCE;
            else
                oacl_fatal("unknown --emit kind '%s' (binary, object or source)", v);
        } else if ((v = oacl_optval(argc, argv, &i, "--depfile"))) {
            g_opt.depfile = v;
        } else if ((v = oacl_optval(argc, argv, &i, "--soc"))) {
            g_opt.soc = v;
        } else if ((v = oacl_optval(argc, argv, &i, "--include-dir"))) {
            g_opt.include_dir = v;
        } else if ((v = oacl_optval(argc, argv, &i, "--lib-dir"))) {
            g_opt.lib_dir = v;
        } else if ((v = oacl_optval(argc, argv, &i, "--cc"))) {
            g_opt.cc = v;
        } else if ((v = oacl_optval(argc, argv, &i, "--cxx"))) {
            g_opt.cxx = v;
        } else if (a[1] == '-') {
            oacl_fatal("unknown option '%s' (see --help)", a);
        } else if ((v = oacl_optval(argc, argv, &i, "-o"))) {
            if (g_opt.out)
                oacl_fatal("more than one -o given");
            g_opt.out = v;
        } else if ((v = oacl_optval(argc, argv, &i, "-I"))) {
            oacl_argv_pushf(&g_opt.cpp, "-I%s", v);
        } else if ((v = oacl_optval(argc, argv, &i, "-D"))) {
            oacl_argv_pushf(&g_opt.cpp, "-D%s", v);
        } else if ((v = oacl_optval(argc, argv, &i, "-U"))) {
            oacl_argv_pushf(&g_opt.cpp, "-U%s", v);
        } else if ((v = oacl_optval(argc, argv, &i, "-x"))) {
            if (strcmp(v, "c") == 0)
                xlang = OACL_LANG_C;
            else if (strcmp(v, "c++") == 0)
                xlang = OACL_LANG_CXX;
            else if (strcmp(v, "none") == 0)
                xlang = OACL_LANG_NONE;
            else
                oacl_fatal("unsupported language '-x %s' (use c or c++)", v);
        } else if (a[1] == 'O') {
            bool known = a[2] == '\0' || (strchr("0123sgz", a[2]) && a[3] == '\0') || strcmp(a, "-Ofast") == 0;
            if (!known)
                oacl_fatal("unknown optimisation option '%s'", a);
            g_opt.opt = a;
        } else if (oacl_starts(a, "-std=")) {
            if (oacl_starts(a + 5, "c++") || oacl_starts(a + 5, "gnu++"))
                g_opt.std_cxx = a;
            else
                g_opt.std_c = a;
        } else if (a[1] == 'W' || a[1] == 'f' || a[1] == 'm' || a[1] == 'g' || strcmp(a, "-w") == 0 || oacl_starts(a, "-pedantic") ||
                   strcmp(a, "-pthread") == 0) {
            oacl_argv_push(&g_opt.flags, a);
        } else {
            oacl_fatal("unknown option '%s' (see --help)", a);
        }
    }
}

/* --soc, else $SOC_VERSION, else the default; empty/unknown names fall back
 * (as CANN's build scripts do) with a note. Case differences are forgiven. */
static const struct oacl_soc_profile *oacl_resolve_soc(void)
{
    const char *name = g_opt.soc ? g_opt.soc : getenv("SOC_VERSION");
    const struct oacl_soc_profile *p = NULL;
    if (name) {
        p = oacl_soc_find(name);
        for (unsigned i = 0; !p && i < oacl_soc_count(); i++)
            if (strcasecmp(oacl_soc_at(i)->name, name) == 0)
                p = oacl_soc_at(i);
        if (p)
            return p;
        if (*name)
            oacl_note("unknown SoC '%s'; compiling for %s", name, OACL_DEFAULT_SOC);
        else
            oacl_note("empty SoC name; compiling for %s", OACL_DEFAULT_SOC);
    }
    p = oacl_soc_find(OACL_DEFAULT_SOC);
    if (!p)
        oacl_fatal("default SoC '%s' is not a known SoC profile", OACL_DEFAULT_SOC);
    return p;
}

static const char *oacl_pick_compiler(const char *given, const char *env, const char *host,
                                      const char *fallback)
{
    if (given && *given)
        return given;
    const char *e = getenv(env);
    if (e && *e)
        return e;
    if (*host && access(host, X_OK) == 0)
        return host;
    return fallback;
}

static void oacl_finish_options(void)
{
    if (!g_opt.out)
        oacl_fatal("no output file given (-o FILE)");
    if (g_opt.nsrcs == 0)
        oacl_fatal("no kernel sources given");
    if (g_opt.emit == OACL_EMIT_SOURCE && g_opt.nsrcs != 1)
        oacl_fatal("--emit=source takes exactly one source");

    /* Default header and library directories sit next to bin/ in the
     * install prefix (and in the build tree, which mirrors it). */
    if (!g_opt.include_dir || !g_opt.lib_dir) {
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        if (n <= 0)
            oacl_fatal("cannot locate the oacl-cc executable; give --include-dir and --lib-dir");
        exe[n] = '\0';
        char *bindir = oacl_dirname(exe);
        if (!g_opt.include_dir)
            g_opt.include_dir = oacl_fmt("%s/../include", bindir);
        if (!g_opt.lib_dir)
            g_opt.lib_dir = oacl_fmt("%s/../lib64", bindir);
        oacl_xfree(bindir);
    }
    /* Absolute, so that the rpath does not depend on the loader's cwd. */
    char real[PATH_MAX];
    if (realpath(g_opt.include_dir, real))
        g_opt.include_dir = oacl_strdup(real);
    if (realpath(g_opt.lib_dir, real))
        g_opt.lib_dir = oacl_strdup(real);
    g_opt.cc = oacl_pick_compiler(g_opt.cc, "OACL_CC", OACL_HOST_CC, "cc");
    g_opt.cxx = oacl_pick_compiler(g_opt.cxx, "OACL_CXX", OACL_HOST_CXX, "c++");

    const char *extra = getenv("OACL_KERNEL_CFLAGS");
    for (const char *p = extra ? extra : ""; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        const char *s = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
        if (p > s) {
            char *f = oacl_strndup(s, (size_t)(p - s));
            oacl_argv_push(&g_opt.env_flags, f);
            oacl_xfree(f);
        }
    }

    for (size_t i = 0; i < g_opt.nsrcs; i++) {
        struct oacl_source *s = &g_opt.srcs[i];
        if (!realpath(s->arg, real) || access(real, R_OK) != 0)
            oacl_fatal("cannot read source '%s': %s", s->arg, strerror(errno));
        struct stat st;
        if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
            oacl_fatal("source '%s' is not a regular file", s->arg);
        /* The wrapper #includes the source by path; a quote-include cannot
         * express '"' or a newline. */
        if (strpbrk(real, "\"\n"))
            oacl_fatal("source path '%s' contains '\"' or a newline, which oacl-cc cannot include",
                       real);
        s->abs = oacl_strdup(real);
        s->dir = oacl_dirname(real);
        s->path = s->abs;
    }
    /* A mistyped command line must not overwrite a source. */
    char *out_dir = oacl_dirname(g_opt.out);
    const char *base = strrchr(g_opt.out, '/') ? strrchr(g_opt.out, '/') + 1 : g_opt.out;
    if (realpath(out_dir, real)) {
        char *out_abs = oacl_fmt("%s/%s", real, base);
        for (size_t i = 0; i < g_opt.nsrcs; i++)
            if (strcmp(out_abs, g_opt.srcs[i].abs) == 0)
                oacl_fatal("output '%s' is one of the sources", g_opt.out);
        oacl_xfree(out_abs);
    }
    oacl_xfree(out_dir);
    g_opt.soc_profile = oacl_resolve_soc();
}

/* ======================================================================
 * Temporary files, cleanup and running tools
 * ====================================================================== */

static void oacl_mkdir_p(const char *dir);

static char g_tmpdir[PATH_MAX];  /* empty until created */
static char g_out_tmp[PATH_MAX]; /* partial output, removed unless renamed */

/* The output is written under a temporary name next to it and moved into
 * place when complete: a failed or interrupted run leaves nothing. */
static const char *g_out_tmp_name(void)
{
    if (!g_out_tmp[0]) {
        char *dir = oacl_dirname(g_opt.out);
        oacl_mkdir_p(dir);
        oacl_xfree(dir);
        if (snprintf(g_out_tmp, sizeof(g_out_tmp), "%s.tmp.%ld", g_opt.out, (long)getpid()) >=
            (int)sizeof(g_out_tmp))
            oacl_fatal("output path too long");
    }
    return g_out_tmp;
}

static void oacl_out_commit(void)
{
    if (rename(g_out_tmp, g_opt.out) != 0)
        oacl_fatal("cannot move the output into place as '%s': %s", g_opt.out, strerror(errno));
    g_out_tmp[0] = '\0';
}

/* Temp file names are fixed per source index so that the signal handler
 * can remove them without allocating. idx < 0 names the table TU. */
static void oacl_tmp_path(char *dst, size_t cap, long idx, const char *suffix)
{
    char num[24];
    size_t n = 0;
    if (idx < 0) {
        memcpy(num, "table", 6);
        n = 5;
    } else {
        char rev[24];
        size_t r = 0;
        unsigned long v = (unsigned long)idx;
        do {
            rev[r++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (r)
            num[n++] = rev[--r];
        num[n] = '\0';
    }
    size_t d = strlen(g_tmpdir), s = strlen(suffix);
    if (d + 1 + n + s + 1 > cap) {
        dst[0] = '\0';
        return;
    }
    memcpy(dst, g_tmpdir, d);
    dst[d] = '/';
    memcpy(dst + d + 1, num, n);
    memcpy(dst + d + 1 + n, suffix, s + 1);
}

static const char *const g_tmp_suffixes[] = {".i", ".c", ".cpp", ".o", ".rw.c", ".rw.cpp", ".d", ".h"};

/* Async-signal-safe: only unlink/rmdir on names computed in place. */
static void oacl_remove_temps(void)
{
    if (g_out_tmp[0])
        unlink(g_out_tmp);
    if (!g_tmpdir[0] || g_opt.keep)
        return;
    char path[PATH_MAX];
    for (long i = -1; i < (long)g_opt.nsrcs; i++)
        for (size_t k = 0; k < sizeof(g_tmp_suffixes) / sizeof(g_tmp_suffixes[0]); k++) {
            oacl_tmp_path(path, sizeof(path), i, g_tmp_suffixes[k]);
            if (path[0])
                unlink(path);
        }
    rmdir(g_tmpdir);
}

static void oacl_on_signal(int sig)
{
    oacl_remove_temps();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void oacl_at_exit(void)
{
    oacl_remove_temps();
    if (g_tmpdir[0] && !g_opt.keep) {
        /* Anything a tool left behind that the fixed names do not cover. */
        DIR *d = opendir(g_tmpdir);
        if (d) {
            struct dirent *e;
            char path[PATH_MAX];
            while ((e = readdir(d)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
                    snprintf(path, sizeof(path), "%s/%s", g_tmpdir, e->d_name) < (int)sizeof(path))
                    unlink(path);
            closedir(d);
            rmdir(g_tmpdir);
        }
    }
    oacl_free_all();
}

static void oacl_make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char tmpl[PATH_MAX];
    if (snprintf(tmpl, sizeof(tmpl), "%s/oacl-cc.XXXXXX", base) >= (int)sizeof(tmpl))
        oacl_fatal("TMPDIR is too long");
    if (!mkdtemp(tmpl))
        oacl_fatal("cannot create a temporary directory in '%s': %s", base, strerror(errno));
    memcpy(g_tmpdir, tmpl, strlen(tmpl) + 1);
}

static char *oacl_tmp(long idx, const char *suffix)
{
    char path[PATH_MAX];
    oacl_tmp_path(path, sizeof(path), idx, suffix);
    if (!path[0])
        oacl_fatal("temporary path too long");
    return oacl_strdup(path);
}

/* Shell-style quoting, only for -v output. */
static void oacl_print_cmd(char *const *argv)
{
    for (size_t i = 0; argv[i]; i++) {
        const char *a = argv[i];
        bool plain = *a != '\0';
        for (const char *p = a; *p; p++)
            if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=+,:@%-", *p))
                plain = false;
        if (i)
            fputc(' ', stderr);
        if (plain) {
            fputs(a, stderr);
            continue;
        }
        fputc('\'', stderr);
        for (const char *p = a; *p; p++)
            if (*p == '\'')
                fputs("'\\''", stderr);
            else
                fputc(*p, stderr);
        fputc('\'', stderr);
    }
    fputc('\n', stderr);
}

/* Runs argv (stdout/stderr inherited, so compiler messages reach the user)
 * and returns true if it exited with status 0. */
static bool oacl_run(struct oacl_argv *cmd)
{
    if (g_opt.verbose)
        oacl_print_cmd(cmd->v);
    fflush(stdout);
    fflush(stderr);
    pid_t pid;
    int rc = posix_spawnp(&pid, cmd->v[0], NULL, NULL, cmd->v, environ);
    if (rc != 0) {
        oacl_error("cannot run '%s': %s", cmd->v[0], strerror(rc));
        return false;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            oacl_error("waiting for '%s': %s", cmd->v[0], strerror(errno));
            return false;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return true;
    if (WIFSIGNALED(status))
        oacl_error("'%s' was killed by signal %d", cmd->v[0], WTERMSIG(status));
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        oacl_error("'%s' could not be run (exit status 127)", cmd->v[0]);
    return false;
}

static void oacl_mkdir_p(const char *dir)
{
    char *d = oacl_strdup(dir);
    for (char *p = d + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(d, 0777) != 0 && errno != EEXIST)
            oacl_fatal("cannot create directory '%s': %s", d, strerror(errno));
        *p = c;
        if (!c)
            break;
    }
    oacl_xfree(d);
}

/* ======================================================================
 * Lexing preprocessed output
 * ====================================================================== */

enum { TK_EOF, TK_IDENT, TK_NUM, TK_STR, TK_CHAR, TK_PUNCT };

struct oacl_tok {
    const char *s;
    uint32_t len;
    uint32_t line;
    uint32_t file; /* index into oacl_lexed.files */
    uint32_t kind;
};

struct oacl_lexed {
    struct oacl_tok *t;
    size_t n, cap;
    char **files;
    size_t nfiles;
};

static bool oacl_tok_is(const struct oacl_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}

static bool oacl_tok_p(const struct oacl_tok *t, char c)
{
    return t->kind == TK_PUNCT && t->len == 1 && t->s[0] == c;
}

static bool oacl_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           (unsigned char)c >= 0x80;
}

static bool oacl_ident_char(char c) { return oacl_ident_start(c) || (c >= '0' && c <= '9'); }

static uint32_t oacl_intern_file(struct oacl_lexed *lx, const char *name, size_t n)
{
    for (size_t i = lx->nfiles; i-- > 0;)
        if (strlen(lx->files[i]) == n && memcmp(lx->files[i], name, n) == 0)
            return (uint32_t)i;
    lx->files = oacl_xrealloc(lx->files, (lx->nfiles + 1) * sizeof(*lx->files));
    lx->files[lx->nfiles] = oacl_strndup(name, n);
    return (uint32_t)lx->nfiles++;
}

static void oacl_push_tok(struct oacl_lexed *lx, const char *s, size_t len, uint32_t kind,
                          uint32_t line, uint32_t file)
{
    if (lx->n == lx->cap) {
        lx->cap = lx->cap ? lx->cap * 2 : 4096;
        lx->t = oacl_xrealloc(lx->t, lx->cap * sizeof(*lx->t));
    }
    lx->t[lx->n++] = (struct oacl_tok){s, (uint32_t)len, line, file, kind};
}

static const char *oacl_skip_quoted(const char *p, const char *end)
{
    char q = *p++;
    while (p < end && *p != q && *p != '\n')
        p += (*p == '\\' && p + 1 < end) ? 2 : 1;
    return p < end && *p == q ? p + 1 : p;
}

/* C++ raw string R"d(...)d", p at the opening quote. */
static const char *oacl_skip_raw(const char *p, const char *end, uint32_t *line)
{
    const char *d = ++p;
    while (p < end && *p != '(' && p - d < 16)
        p++;
    size_t dl = (size_t)(p - d);
    for (; p < end; p++) {
        if (*p == '\n')
            (*line)++;
        if (*p == ')' && (size_t)(end - p) > dl + 1 && memcmp(p + 1, d, dl) == 0 && p[1 + dl] == '"')
            return p + dl + 2;
    }
    return end;
}

/* A `# N "file" flags` line marker (or any other directive, e.g. #pragma,
 * which is skipped). p is just after '#'. Returns the start of the next line. */
static const char *oacl_lex_directive(struct oacl_lexed *lx, const char *p, const char *end,
                                      uint32_t *line, uint32_t *file)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p > 4 && memcmp(p, "line", 4) == 0 && (p[4] == ' ' || p[4] == '\t'))
        for (p += 4; p < end && (*p == ' ' || *p == '\t');)
            p++;
    bool marker = p < end && *p >= '0' && *p <= '9';
    unsigned long n = 0;
    while (p < end && *p >= '0' && *p <= '9')
        n = n * 10 + (unsigned long)(*p++ - '0');
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (marker && p < end && *p == '"') {
        struct oacl_buf name = {0};
        for (p++; p < end && *p != '"' && *p != '\n'; p++) {
            char c = *p;
            if (c == '\\' && p + 1 < end) {
                c = *++p;
                if (c >= '0' && c <= '7') { /* octal escape of odd bytes */
                    int v = 0;
                    for (int k = 0; k < 3 && p < end && *p >= '0' && *p <= '7'; k++)
                        v = v * 8 + (*p++ - '0');
                    p--;
                    c = (char)v;
                }
            }
            oacl_buf_putn(&name, &c, 1);
        }
        *file = oacl_intern_file(lx, name.s ? name.s : "", name.len);
        oacl_xfree(name.s);
    }
    while (p < end && *p != '\n')
        p++;
    if (marker) {
        *line = (uint32_t)n;
        return p < end ? p + 1 : p;
    }
    return p; /* the newline is counted by the caller */
}

static void oacl_lex(struct oacl_lexed *lx, const char *p, const char *end, const char *path, bool cxx)
{
    uint32_t line = 1, file = oacl_intern_file(lx, path, strlen(path));
    bool bol = true;
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            line++;
            bol = true;
            p++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p++;
            continue;
        }
        if (c == '\\' && p[1] == '\n') {
            p += 2;
            line++;
            continue;
        }
        if (bol && c == '#') {
            p = oacl_lex_directive(lx, p + 1, end, &line, &file);
            bol = true;
            continue;
        }
        bol = false;
        const char *s = p;
        uint32_t kind, tline = line;
        if (c == '/' && p[1] == '*') { /* comments only survive with -C; be safe */
            for (p += 2; p < end && !(p[0] == '*' && p[1] == '/'); p++)
                line += *p == '\n';
            p = p < end ? p + 2 : end;
            continue;
        }
        if (c == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        if (oacl_ident_start(c)) {
            while (p < end && oacl_ident_char(*p))
                p++;
            size_t n = (size_t)(p - s);
            bool prefix = (n == 1 && (*s == 'L' || *s == 'u' || *s == 'U')) ||
                          (n == 2 && memcmp(s, "u8", 2) == 0);
            bool raw = cxx && s[n - 1] == 'R' &&
                       (n == 1 || (n == 2 && strchr("LuU", *s)) || (n == 3 && memcmp(s, "u8", 2) == 0));
            if (p < end && *p == '"' && raw) {
                p = oacl_skip_raw(p, end, &line);
                kind = TK_STR;
            } else if (p < end && (*p == '"' || *p == '\'') && prefix) {
                kind = *p == '"' ? TK_STR : TK_CHAR;
                p = oacl_skip_quoted(p, end);
            } else {
                kind = TK_IDENT;
            }
        } else if ((c >= '0' && c <= '9') || (c == '.' && p[1] >= '0' && p[1] <= '9')) {
            for (p++; p < end;) {
                if (strchr("eEpP", *p) && *p && (p[1] == '+' || p[1] == '-'))
                    p += 2;
                else if (oacl_ident_char(*p) || *p == '.')
                    p++;
                else if (*p == '\'' && oacl_ident_char(p[1])) /* digit separator */
                    p += 2;
                else
                    break;
            }
            kind = TK_NUM;
        } else if (c == '"' || c == '\'') {
            p = oacl_skip_quoted(p, end);
            kind = c == '"' ? TK_STR : TK_CHAR;
        } else {
            if ((c == ':' && p[1] == ':') || (c == '-' && p[1] == '>'))
                p += 2;
            else if (c == '.' && p[1] == '.' && p[2] == '.')
                p += 3;
            else
                p++;
            kind = TK_PUNCT;
        }
        oacl_push_tok(lx, s, (size_t)(p - s), kind, tline, file);
    }
    oacl_push_tok(lx, end, 0, TK_EOF, line, file);
    lx->n--; /* the EOF sentinel stays readable at t[n] */
}

/* ======================================================================
 * Scanning for kernels
 * ====================================================================== */

struct oacl_param {
    char *decl; /* C: the declaration as a struct member (name kept) */
    char *name; /* C: the parameter's name */
};

struct oacl_kernel {
    char *name;    /* C symbol name */
    char *qual;    /* C++: qualified name for calls, e.g. "::ns::k" */
    size_t src;    /* index of the source whose wrapper holds the entry */
    char *where;   /* "file:line" of the definition (else first declaration) */
    char *file;    /* for #line in generated code */
    unsigned line;
    bool defined, c_linkage;
    unsigned nparams;
    struct oacl_param *params;
    char *perr;    /* parameter problem, reported if this occurrence is kept */
};

static struct oacl_kernel *g_kernels;
static size_t g_nkernels;

/* The token a probe header leaves in the scan output when the C++ compiler
 * is GCC (see oacl_write_gnu_probe). */
#define OACL_GNU_PROBE "__oacl_gnu_unique_compiler__"
static bool g_gnu_unique;

enum oacl_scope_kind { SC_NS, SC_LINK_C, SC_LINK_CXX, SC_CLASS, SC_BODY };

struct oacl_scope {
    enum oacl_scope_kind kind;
    char *name; /* namespace name ("" if unnamed) */
};

struct oacl_scan {
    struct oacl_source *src;
    size_t src_idx;
    bool cxx;
    struct oacl_lexed lx;
    struct oacl_scope *stack;
    size_t depth, cap;
    size_t opaque; /* class and body scopes on the stack */
    size_t decl_start;
};

static const char *const g_group_kw[] = {
    "__attribute__", "__attribute", "__declspec", "alignas", "_Alignas", "decltype",
    "__typeof__", "__typeof", "typeof", "__asm__", "__asm", "asm", "_Atomic",
};

static bool oacl_in(const struct oacl_tok *t, const char *const *set, size_t n)
{
    if (t->kind != TK_IDENT)
        return false;
    for (size_t i = 0; i < n; i++)
        if (oacl_tok_is(t, set[i]))
            return true;
    return false;
}
#define OACL_IN(t, set) oacl_in((t), (set), sizeof(set) / sizeof((set)[0]))

/* Index after the bracket group opening at i; n if it never closes. */
static size_t oacl_skip_group(const struct oacl_lexed *lx, size_t i)
{
    char open = lx->t[i].s[0];
    char close = open == '(' ? ')' : open == '[' ? ']' : '}';
    int depth = 0;
    for (; i < lx->n; i++) {
        if (oacl_tok_p(&lx->t[i], open))
            depth++;
        else if (oacl_tok_p(&lx->t[i], close) && --depth == 0)
            return i + 1;
    }
    return lx->n;
}

/* Attribute-like groups that may sit anywhere in a declaration:
 * __attribute__((..)), alignas(..), decltype(..), [[..]]. Returns the index
 * after one, or i if there is none at i. */
static size_t oacl_skip_attr(const struct oacl_lexed *lx, size_t i)
{
    const struct oacl_tok *t = &lx->t[i];
    if (OACL_IN(t, g_group_kw) && oacl_tok_p(t + 1, '('))
        return oacl_skip_group(lx, i + 1);
    if (oacl_tok_p(t, '[') && oacl_tok_p(t + 1, '['))
        return oacl_skip_group(lx, i);
    return i;
}

/* First '(' of the declaration starting at i (outside attribute groups),
 * or SIZE_MAX if ';', '{', '}', '=' or `end` comes first. *last is the
 * token just before it. */
static size_t oacl_decl_paren(const struct oacl_lexed *lx, size_t i, size_t end, size_t *last)
{
    *last = SIZE_MAX;
    while (i < end) {
        size_t j = oacl_skip_attr(lx, i);
        if (j != i) {
            i = j;
            continue;
        }
        const struct oacl_tok *t = &lx->t[i];
        if (oacl_tok_p(t, '('))
            return i;
        if (oacl_tok_p(t, ';') || oacl_tok_p(t, '{') || oacl_tok_p(t, '}') || oacl_tok_p(t, '='))
            return SIZE_MAX;
        *last = i++;
    }
    return SIZE_MAX;
}

static char *oacl_tok_str(const struct oacl_tok *t) { return oacl_strndup(t->s, t->len); }

static char *oacl_where(const struct oacl_lexed *lx, size_t i)
{
    return oacl_fmt("%s:%u", lx->files[lx->t[i].file], lx->t[i].line);
}

static void oacl_push_scope(struct oacl_scan *sc, enum oacl_scope_kind kind, char *name)
{
    if (sc->depth == sc->cap) {
        sc->cap = sc->cap ? sc->cap * 2 : 64;
        sc->stack = oacl_xrealloc(sc->stack, sc->cap * sizeof(*sc->stack));
    }
    sc->stack[sc->depth++] = (struct oacl_scope){kind, name};
    if (kind == SC_CLASS || kind == SC_BODY)
        sc->opaque++;
}

static enum oacl_scope_kind oacl_innermost(const struct oacl_scan *sc, bool linkage)
{
    for (size_t d = sc->depth; d-- > 0;) {
        enum oacl_scope_kind k = sc->stack[d].kind;
        bool is_link = k == SC_LINK_C || k == SC_LINK_CXX;
        if (linkage == is_link && (linkage || k != SC_NS))
            return k;
    }
    return linkage ? SC_LINK_CXX : SC_NS;
}

/* `extern "C"` / `extern "C++"` among tokens [a, b): 1, 0, or -1 if none. */
static int oacl_linkage_spec(const struct oacl_lexed *lx, size_t a, size_t b)
{
    for (size_t i = a; i + 1 < b; i++)
        if (oacl_tok_is(&lx->t[i], "extern") && lx->t[i + 1].kind == TK_STR)
            return oacl_tok_is(&lx->t[i + 1], "\"C\"") ? 1 : 0;
    return -1;
}

/* What the '{' at `brace` opens, from the declaration [start, brace). */
static void oacl_open_brace(struct oacl_scan *sc, size_t start, size_t brace)
{
    const struct oacl_lexed *lx = &sc->lx;
    if (sc->opaque) { /* inside a body nothing matters; inside a class, only classes */
        if (sc->stack[sc->depth - 1].kind == SC_BODY) {
            oacl_push_scope(sc, SC_BODY, NULL);
            return;
        }
    }
    if (brace >= start + 2 && lx->t[brace - 1].kind == TK_STR && oacl_tok_is(&lx->t[brace - 2], "extern")) {
        oacl_push_scope(sc, oacl_tok_is(&lx->t[brace - 1], "\"C\"") ? SC_LINK_C : SC_LINK_CXX, NULL);
        return;
    }
    size_t i = start;
    for (size_t j; i < brace; i = j) {
        j = oacl_skip_attr(lx, i);
        if (j == i && oacl_tok_is(&lx->t[i], "inline"))
            j = i + 1;
        if (j == i)
            break;
    }
    if (i < brace && oacl_tok_is(&lx->t[i], "namespace")) {
        struct oacl_buf name = {0};
        for (i++; i < brace; i++) {
            const struct oacl_tok *t = &lx->t[i];
            if (oacl_skip_attr(lx, i) != i) {
                i = oacl_skip_attr(lx, i) - 1;
            } else if (t->kind == TK_IDENT && !oacl_tok_is(t, "inline")) {
                oacl_buf_putn(&name, t->s, t->len);
            } else if (t->kind == TK_PUNCT && oacl_tok_is(t, "::")) {
                oacl_buf_puts(&name, "::");
            }
        }
        oacl_push_scope(sc, SC_NS, name.s ? name.s : oacl_strdup(""));
        return;
    }
    /* A class head is class-key, name, bases and attributes up to '{';
     * a '(' or declarator punctuation after the key means a function
     * returning a class type, an initializer and so on. */
    size_t key = SIZE_MAX;
    for (size_t k = start; k < brace; k++)
        if (oacl_tok_is(&lx->t[k], "struct") || oacl_tok_is(&lx->t[k], "class") ||
            oacl_tok_is(&lx->t[k], "union"))
            key = k;
    bool is_class = key != SIZE_MAX && !(key > start && oacl_tok_is(&lx->t[key - 1], "enum"));
    for (size_t k = key + 1; is_class && k < brace;) {
        size_t j = oacl_skip_attr(lx, k);
        if (j != k) {
            k = j;
            continue;
        }
        const struct oacl_tok *t = &lx->t[k];
        if (oacl_tok_p(t, '(') || oacl_tok_p(t, '*') || oacl_tok_p(t, '&') || oacl_tok_p(t, '=') ||
            oacl_tok_p(t, ';') || oacl_tok_p(t, ')'))
            is_class = false;
        k++;
    }
    oacl_push_scope(sc, is_class ? SC_CLASS : SC_BODY, NULL);
}

/* Records the name of a C-linkage function declaration [start, end) in a
 * C++ source: a later `__global__` definition without `extern "C"` still
 * has C linkage if an earlier declaration had it. */
static void oacl_note_decl(struct oacl_scan *sc, size_t start, size_t end)
{
    if (!sc->cxx || sc->opaque || start >= end)
        return;
    int spec = oacl_linkage_spec(&sc->lx, start, end);
    if (!(spec == 1 || (spec < 0 && oacl_innermost(sc, true) == SC_LINK_C)))
        return;
    size_t last, paren = oacl_decl_paren(&sc->lx, start, end, &last);
    if (paren == SIZE_MAX || last == SIZE_MAX || sc->lx.t[last].kind != TK_IDENT)
        return;
    struct oacl_source *s = sc->src;
    if (s->ncnames == s->cnames_cap) {
        s->cnames_cap = s->cnames_cap ? s->cnames_cap * 2 : 256;
        s->cnames = oacl_xrealloc(s->cnames, s->cnames_cap * sizeof(*s->cnames));
    }
    s->cnames[s->ncnames++] = (struct oacl_cname){sc->lx.t[last].s, sc->lx.t[last].len};
}

static const char *const g_c_quals[] = {
    "const", "volatile", "restrict", "__restrict", "__restrict__", "__const", "__volatile",
    "__volatile__", "register", "__extension__", "_Atomic", "static", "auto",
};
static const char *const g_c_builtin[] = {
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool",
    "_Complex", "__signed", "__signed__", "__unsigned", "__int128", "_Float16", "_Float32",
    "_Float64", "_Float128", "_Float32x", "_Float64x", "__fp16", "__bf16", "__float128",
    "_Decimal32", "_Decimal64", "_Decimal128", "__complex__", "_Imaginary",
};
static const char *const g_c_tags[] = {"struct", "union", "enum"};

/*
 * Name of a C parameter declaration [a, b): skip the declaration
 * specifiers; if they name a builtin type or a struct/union/enum tag, the
 * first other identifier is the name, otherwise the first identifier is a
 * typedef name and the next one is the name. Grouping parentheses in the
 * declarator are entered, parameter lists of function declarators skipped.
 * Returns the token index or SIZE_MAX; *simple says that the declarator has
 * no parentheses or brackets (a name can then be appended).
 */
static size_t oacl_c_param_name(const struct oacl_lexed *lx, size_t a, size_t b, bool *simple)
{
    bool have_type = false;
    size_t i = a;
    *simple = true;
    while (i < b) {
        const struct oacl_tok *t = &lx->t[i];
        if (OACL_IN(t, g_group_kw) && oacl_tok_p(t + 1, '(')) {
            /* _Atomic(T) and typeof(..) name a type; the rest are attributes */
            if (oacl_tok_is(t, "_Atomic") || oacl_tok_is(t, "typeof") || oacl_tok_is(t, "__typeof") ||
                oacl_tok_is(t, "__typeof__"))
                have_type = true;
            i = oacl_skip_group(lx, i + 1);
        } else if (oacl_tok_p(t, '[') && oacl_tok_p(t + 1, '[')) {
            i = oacl_skip_group(lx, i);
        } else if (OACL_IN(t, g_c_quals)) {
            i++;
        } else if (OACL_IN(t, g_c_builtin)) {
            have_type = true;
            i++;
        } else if (OACL_IN(t, g_c_tags)) {
            have_type = true;
            for (i++; i < b && oacl_skip_attr(lx, i) != i;)
                i = oacl_skip_attr(lx, i);
            if (i < b && lx->t[i].kind == TK_IDENT)
                i++;
            if (i < b && oacl_tok_p(&lx->t[i], '{'))
                i = oacl_skip_group(lx, i);
        } else if (t->kind == TK_IDENT) {
            if (have_type)
                return i;
            have_type = true; /* a typedef name */
            i++;
        } else {
            break;
        }
    }
    /* Declarator. */
    while (i < b) {
        const struct oacl_tok *t = &lx->t[i];
        size_t j = oacl_skip_attr(lx, i);
        if (j != i) {
            i = j;
        } else if (OACL_IN(t, g_c_quals)) {
            i++;
        } else if (oacl_tok_p(t, '(')) {
            *simple = false;
            const struct oacl_tok *n = t + 1;
            if (oacl_tok_p(n, '*') || oacl_tok_p(n, '(') || oacl_tok_p(n, '^') ||
                (n->kind == TK_IDENT && !OACL_IN(n, g_c_builtin) && !OACL_IN(n, g_c_quals) &&
                 !OACL_IN(n, g_c_tags) && oacl_skip_attr(lx, i + 1) == i + 1 && oacl_tok_p(n + 1, ')')))
                i++; /* grouping parenthesis */
            else
                i = oacl_skip_group(lx, i); /* a parameter list */
        } else if (oacl_tok_p(t, '[')) {
            *simple = false;
            i = oacl_skip_group(lx, i);
        } else if (t->kind == TK_IDENT) {
            return i;
        } else {
            i++;
        }
    }
    return SIZE_MAX;
}

/* Appends token t to declaration text, spaced as people write C: tight
 * around brackets, '*' and commas; a space wherever tokens could merge. */
static void oacl_join_tok(struct oacl_buf *b, const struct oacl_tok *prev, const struct oacl_tok *t)
{
    bool tight = !prev || oacl_tok_p(t, ')') || oacl_tok_p(t, ']') || oacl_tok_p(t, ',') ||
                 oacl_tok_p(t, '[') || oacl_tok_p(prev, '(') || oacl_tok_p(prev, '[') ||
                 (oacl_tok_p(t, '(') && (prev->kind == TK_IDENT || oacl_tok_p(prev, ')'))) ||
                 (oacl_tok_p(prev, '*') && (t->kind == TK_IDENT || oacl_tok_p(t, '*') || oacl_tok_p(t, '(')));
    if (!tight)
        oacl_buf_putn(b, " ", 1);
    oacl_buf_putn(b, t->s, t->len);
}

/* Analyses the parameter list between the parentheses at lp and rp. */
static void oacl_params(struct oacl_scan *sc, struct oacl_kernel *k, size_t lp, size_t rp)
{
    const struct oacl_lexed *lx = &sc->lx;
    size_t cap = 8, n = 0;
    size_t *starts = oacl_xmalloc(cap * sizeof(size_t)), *ends = oacl_xmalloc(cap * sizeof(size_t));
    int depth = 0, angle = 0;
    size_t s = lp + 1;
    for (size_t i = lp + 1; i <= rp; i++) {
        const struct oacl_tok *t = &lx->t[i];
        if (i == rp || (depth == 0 && angle == 0 && oacl_tok_p(t, ','))) {
            if (n == cap) {
                cap *= 2;
                starts = oacl_xrealloc(starts, cap * sizeof(size_t));
                ends = oacl_xrealloc(ends, cap * sizeof(size_t));
            }
            starts[n] = s;
            ends[n++] = i;
            s = i + 1;
        } else if (oacl_tok_p(t, '(') || oacl_tok_p(t, '[') || oacl_tok_p(t, '{')) {
            depth++;
        } else if (oacl_tok_p(t, ')') || oacl_tok_p(t, ']') || oacl_tok_p(t, '}')) {
            depth--;
        } else if (sc->cxx && depth == 0 && oacl_tok_p(t, '<') && lx->t[i - 1].kind == TK_IDENT) {
            angle++; /* template argument list of a C++ type */
        } else if (sc->cxx && depth == 0 && angle > 0 && oacl_tok_p(t, '>')) {
            angle--;
        }
    }
    if (n == 1 && (ends[0] == starts[0] || (ends[0] == starts[0] + 1 && oacl_tok_is(&lx->t[starts[0]], "void"))))
        n = 0;
    k->nparams = (unsigned)n;
    k->params = oacl_xcalloc(n ? n : 1, sizeof(*k->params));
    if (n > OACL_KERNEL_MAX_PARAMS)
        k->perr = oacl_fmt("%s: kernel '%s' has %zu parameters; at most %u are supported", k->where,
                           k->name, n, OACL_KERNEL_MAX_PARAMS);
    for (size_t p = 0; p < n && !k->perr; p++) {
        size_t a = starts[p], b = ends[p];
        for (size_t i = a; i < b; i++)
            if (oacl_tok_is(&lx->t[i], "...")) {
                k->perr = oacl_fmt("%s: kernel '%s' is variadic; kernels need a fixed parameter list",
                                   k->where, k->name);
                break;
            }
        /* Array parameter: an identifier directly followed by '[' (not the
         * '[[' of an attribute) at the top level of the declaration. */
        for (size_t i = a + 1, d = 0; i < b && !k->perr; i++) {
            const struct oacl_tok *t = &lx->t[i];
            if (oacl_tok_p(t, '('))
                d++;
            else if (oacl_tok_p(t, ')') && d > 0)
                d--;
            if (d == 0 && oacl_tok_p(t, '[') && !oacl_tok_p(t + 1, '[') && lx->t[i - 1].kind == TK_IDENT &&
                !OACL_IN(&lx->t[i - 1], g_group_kw)) {
                struct oacl_buf b2 = {0};
                for (size_t m = a; m < b; m++)
                    oacl_join_tok(&b2, m > a ? &lx->t[m - 1] : NULL, &lx->t[m]);
                k->perr = oacl_fmt("%s: kernel '%s': parameter %zu ('%s') has array type; use a pointer",
                                   k->where, k->name, p + 1, b2.s ? b2.s : "");
                oacl_xfree(b2.s);
            }
        }
        if (k->perr || sc->cxx)
            continue;
        bool simple;
        size_t name = oacl_c_param_name(lx, a, b, &simple);
        if (name == SIZE_MAX && !simple) {
            k->perr = oacl_fmt("%s: kernel '%s': parameter %zu has no name; name it", k->where, k->name, p + 1);
            continue;
        }
        /* Function-typed parameters are adjusted to pointers: as struct
         * members they must be written as pointers. */
        bool func = name != SIZE_MAX && oacl_tok_p(&lx->t[name + 1], '(');
        struct oacl_buf d = {0};
        const struct oacl_tok *prev = NULL;
        static const struct oacl_tok open = {"(", 1, 0, 0, TK_PUNCT}, star = {"*", 1, 0, 0, TK_PUNCT},
                                     close = {")", 1, 0, 0, TK_PUNCT};
        for (size_t i = a; i < b; i++) {
            const struct oacl_tok *t = &lx->t[i];
            if (oacl_tok_is(t, "register") || oacl_tok_is(t, "static") || oacl_tok_is(t, "auto"))
                continue; /* storage classes are not allowed on members */
            if (i == name && func) {
                oacl_join_tok(&d, prev, &open);
                oacl_join_tok(&d, &open, &star);
                oacl_join_tok(&d, &star, t);
                oacl_join_tok(&d, t, &close);
                prev = &close;
                continue;
            }
            oacl_join_tok(&d, prev, t);
            prev = t;
        }
        if (name == SIZE_MAX) { /* unnamed in a declaration: give it one */
            k->params[p].name = oacl_fmt("oacl__arg%zu", p);
            oacl_buf_printf(&d, " %s", k->params[p].name);
        } else {
            k->params[p].name = oacl_tok_str(&lx->t[name]);
        }
        k->params[p].decl = d.s;
    }
    oacl_xfree(starts);
    oacl_xfree(ends);
}

static struct oacl_kernel *oacl_find_kernel(const char *name)
{
    for (size_t i = 0; i < g_nkernels; i++)
        if (strcmp(g_kernels[i].name, name) == 0)
            return &g_kernels[i];
    return NULL;
}

/* One kernel per name: a declaration followed by a definition counts once
 * and the definition's parameter list wins; the source holding the
 * definition gets the entry; two definitions in different sources clash. */
static void oacl_add_kernel(struct oacl_kernel *occ)
{
    struct oacl_kernel *k = oacl_find_kernel(occ->name);
    if (!k) {
        g_kernels = oacl_xrealloc(g_kernels, (g_nkernels + 1) * sizeof(*g_kernels));
        g_kernels[g_nkernels++] = *occ;
        return;
    }
    bool same_src = k->src == occ->src;
    if (!same_src && k->defined && occ->defined) {
        oacl_error("%s: duplicate kernel '%s': also defined at %s (kernel names must be unique "
                   "in one binary)",
                   occ->where, occ->name, k->where);
        return;
    }
    if (occ->defined && !k->defined) {
        bool c = same_src && k->c_linkage;
        *k = *occ;
        k->c_linkage |= c;
    } else if (same_src) {
        k->c_linkage |= occ->c_linkage;
    }
}

/* The marker token __oacl_kernel_entry__ at index m. */
static void oacl_on_marker(struct oacl_scan *sc, size_t m)
{
    const struct oacl_lexed *lx = &sc->lx;
    if (sc->opaque && oacl_innermost(sc, false) == SC_BODY)
        return; /* a block-scope declaration: the definition is elsewhere */
    char *where = oacl_where(lx, m);
    size_t last, lp = oacl_decl_paren(lx, m + 1, lx->n, &last);
    bool named = lp != SIZE_MAX && last != SIZE_MAX && lx->t[last].kind == TK_IDENT;
    for (size_t i = sc->decl_start; i < m; i++)
        if (oacl_tok_is(&lx->t[i], "template")) {
            oacl_error("%s: kernel %s%.*s%sis a function template; kernels must be plain functions "
                       "(write an extern \"C\" kernel per instantiation)",
                       where, named ? "'" : "", named ? (int)lx->t[last].len : 0, named ? lx->t[last].s : "",
                       named ? "' " : "");
            return;
        }
    if (!named) {
        oacl_error("%s: __global__ must be followed by a function declaration", where);
        return;
    }
    const struct oacl_tok *nt = &lx->t[last];
    char *name = oacl_tok_str(nt);
    if (sc->opaque && oacl_innermost(sc, false) == SC_CLASS) {
        oacl_error("%s: kernel '%s' is a class member; kernels must be free functions", where, name);
        return;
    }
    if (last > m + 1 && oacl_tok_is(&lx->t[last - 1], "::")) {
        oacl_error("%s: kernel '%s' is declared with a qualified name; kernels must be free "
                   "functions declared in their namespace",
                   where, name);
        return;
    }
    if (oacl_tok_is(nt, "operator") || (last > m + 1 && oacl_tok_is(&lx->t[last - 1], "operator"))) {
        oacl_error("%s: an operator cannot be a kernel", where);
        return;
    }
    size_t rp = oacl_skip_group(lx, lp) - 1;
    if (rp >= lx->n) {
        oacl_error("%s: unbalanced parentheses in the parameter list of '%s'", where, name);
        return;
    }
    bool defined = false;
    for (size_t i = rp + 1; i < lx->n;) {
        const struct oacl_tok *t = &lx->t[i];
        if (oacl_tok_p(t, '{') || oacl_tok_is(t, "try")) {
            defined = true;
            break;
        }
        if (oacl_tok_p(t, ';') || oacl_tok_p(t, '=') || oacl_tok_p(t, ',') || oacl_tok_p(t, '}'))
            break;
        i = oacl_tok_p(t, '(') ? oacl_skip_group(lx, i) : i + 1;
    }
    struct oacl_kernel k = {0};
    k.name = name;
    k.src = sc->src_idx;
    k.where = where;
    k.file = oacl_strdup(lx->files[nt->file]);
    k.line = nt->line;
    k.defined = defined;
    int spec = oacl_linkage_spec(lx, sc->decl_start, m);
    k.c_linkage = spec == 1 || (spec < 0 && oacl_innermost(sc, true) == SC_LINK_C);
    if (sc->cxx) {
        struct oacl_buf q = {0};
        for (size_t d = 0; d < sc->depth; d++)
            if (sc->stack[d].kind == SC_NS && sc->stack[d].name[0])
                oacl_buf_printf(&q, "::%s", sc->stack[d].name);
        oacl_buf_printf(&q, "::%s", name);
        k.qual = q.s;
    }
    oacl_params(sc, &k, lp, rp);
    oacl_add_kernel(&k);
}

static void oacl_scan_source(size_t idx, const char *ipath)
{
    struct oacl_scan sc = {0};
    sc.src = &g_opt.srcs[idx];
    sc.src_idx = idx;
    sc.cxx = sc.src->lang == OACL_LANG_CXX;
    size_t len;
    char *text = oacl_read_file(ipath, &len); /* kept: C-linkage names point into it */
    oacl_lex(&sc.lx, text, text + len, sc.src->abs, sc.cxx);
    const struct oacl_lexed *lx = &sc.lx;
    for (size_t i = 0; i < lx->n; i++) {
        const struct oacl_tok *t = &lx->t[i];
        if (t->kind == TK_IDENT) {
            if (oacl_tok_is(t, "__oacl_kernel_entry__"))
                oacl_on_marker(&sc, i);
            else if (oacl_tok_is(t, OACL_GNU_PROBE))
                g_gnu_unique = true;
        } else if (oacl_tok_p(t, '{')) {
            if (!sc.opaque)
                oacl_note_decl(&sc, sc.decl_start, i);
            oacl_open_brace(&sc, sc.decl_start, i);
            sc.decl_start = i + 1;
        } else if (oacl_tok_p(t, '}')) {
            if (sc.depth) {
                struct oacl_scope *top = &sc.stack[--sc.depth];
                if (top->kind == SC_CLASS || top->kind == SC_BODY)
                    sc.opaque--;
                oacl_xfree(top->name);
            }
            sc.decl_start = i + 1;
        } else if (oacl_tok_p(t, ';')) {
            oacl_note_decl(&sc, sc.decl_start, i);
            sc.decl_start = i + 1;
        }
    }
    while (sc.depth)
        oacl_xfree(sc.stack[--sc.depth].name);
    oacl_xfree(sc.stack);
    oacl_xfree(sc.lx.t);
    for (size_t f = 0; f < sc.lx.nfiles; f++)
        oacl_xfree(sc.lx.files[f]);
    oacl_xfree(sc.lx.files);
}

/* Problems that depend on which occurrence of a kernel was kept. */
static void oacl_check_kernels(void)
{
    for (size_t i = 0; i < g_nkernels; i++) {
        struct oacl_kernel *k = &g_kernels[i];
        if (k->perr) {
            oacl_error("%s", k->perr);
            continue;
        }
        struct oacl_source *s = &g_opt.srcs[k->src];
        if (s->lang != OACL_LANG_CXX || k->c_linkage)
            continue;
        bool found = false;
        for (size_t c = 0; c < s->ncnames && !found; c++)
            found = s->cnames[c].len == strlen(k->name) && memcmp(s->cnames[c].s, k->name, s->cnames[c].len) == 0;
        if (!found)
            oacl_error("%s: kernel '%s' in a C++ source must be declared extern \"C\": binaries "
                       "find kernels by their C name (C++-linkage kernels are not supported)",
                       k->where, k->name);
    }
}

/* ======================================================================
 * Code generation
 * ====================================================================== */

/* A C string literal body (for #line file names and the SoC name). */
static void oacl_put_cstr(struct oacl_buf *b, const char *s)
{
    oacl_buf_puts(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            oacl_buf_printf(b, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            oacl_buf_printf(b, "\\%03o", c);
        else
            oacl_buf_putn(b, (const char *)&c, 1);
    }
    oacl_buf_puts(b, "\"");
}

static void oacl_gen_c_kernel(struct oacl_buf *b, const struct oacl_kernel *k)
{
    const char *n = k->name;
    oacl_buf_printf(b, "\n// kernel %s (%s)\n#line %u ", n, k->where, k->line);
    oacl_put_cstr(b, k->file);
    oacl_buf_puts(b, "\n");
    if (k->nparams) {
        /* The parameters as written, each member 8-byte aligned: offsets then
         * follow the blob rule (next multiple of 8 after the previous one). */
        oacl_buf_printf(b, "struct oacl__args_%s {\n", n);
        for (unsigned p = 0; p < k->nparams; p++)
            oacl_buf_printf(b, "    __attribute__((aligned(8))) %s;\n", k->params[p].decl);
        oacl_buf_puts(b, "};\n");
        for (unsigned p = 0; p < k->nparams; p++) {
            /* Each assertion reports at the kernel's own line. */
            oacl_buf_printf(b, "#line %u ", k->line);
            oacl_put_cstr(b, k->file);
            oacl_buf_printf(b,
                            "\n_Static_assert(__alignof__(((struct oacl__args_%s *)0)->%s) <= 8,\n"
                            "    \"oacl-cc: kernel %s: parameter %s needs alignment > 8, but "
                            "parameters in the argument blob are only 8-byte aligned\");\n",
                            n, k->params[p].name, n, k->params[p].name);
        }
    }
    oacl_buf_printf(b,
                    "__attribute__((visibility(\"hidden\"))) void oacl__entry_%s(const void *oacl__a);\n"
                    "__attribute__((visibility(\"hidden\"))) void oacl__entry_%s(const void *oacl__a)\n{\n",
                    n, n);
    if (k->nparams) {
        oacl_buf_printf(b, "    const struct oacl__args_%s *oacl__p = (const struct oacl__args_%s *)oacl__a;\n    %s(",
                        n, n, n);
        for (unsigned p = 0; p < k->nparams; p++)
            oacl_buf_printf(b, "%soacl__p->%s", p ? ", " : "", k->params[p].name);
        oacl_buf_puts(b, ");\n}\n");
        oacl_buf_printf(b,
                        "__attribute__((visibility(\"hidden\"))) extern const __UINT32_TYPE__ oacl__sizes_%s[%u];\n"
                        "__attribute__((visibility(\"hidden\"))) const __UINT32_TYPE__ oacl__sizes_%s[%u] = {\n",
                        n, k->nparams, n, k->nparams);
        for (unsigned p = 0; p < k->nparams; p++)
            oacl_buf_printf(b, "    sizeof(((struct oacl__args_%s *)0)->%s),\n", n, k->params[p].name);
        oacl_buf_puts(b, "};\n");
    } else {
        oacl_buf_printf(b, "    (void)oacl__a;\n    %s();\n}\n", n);
    }
}

static void oacl_gen_cxx_kernel(struct oacl_buf *b, const struct oacl_kernel *k)
{
    oacl_buf_printf(b, "\n// kernel %s (%s)\n#line %u ", k->name, k->where, k->line);
    oacl_put_cstr(b, k->file);
    oacl_buf_printf(b, "\nOACL_CXX_KERNEL_ENTRY(%s, %s, %u)\n", k->name, k->qual, k->nparams);
    if (!k->nparams)
        return;
    oacl_buf_printf(b,
                    "extern \"C\" OACL_KENTRY_HIDDEN const std::uint32_t oacl__sizes_%s[%u];\n"
                    "extern \"C\" OACL_KENTRY_HIDDEN const std::uint32_t oacl__sizes_%s[%u] = {\n",
                    k->name, k->nparams, k->name, k->nparams);
    for (unsigned p = 0; p < k->nparams; p++)
        oacl_buf_printf(b, "    OACL_CXX_KERNEL_PARAM_SIZE(%s, %u),\n", k->qual, p);
    oacl_buf_puts(b, "};\n");
}

/* The wrapper TU of source idx: the original, then the entries of the
 * kernels this source owns. */
static void oacl_gen_wrapper(size_t idx, const char *path)
{
    const struct oacl_source *s = &g_opt.srcs[idx];
    bool cxx = s->lang == OACL_LANG_CXX;
    struct oacl_buf b = {0};
    oacl_buf_printf(&b, "// Generated by oacl-cc from %s\n#include \"%s\"\n", s->abs, s->path);
    bool any = false;
    for (size_t i = 0; i < g_nkernels; i++) {
        if (g_kernels[i].src != idx)
            continue;
        if (cxx && !any)
            oacl_buf_puts(&b, "#include <oacl/kernel_entry.hpp>\n");
        any = true;
        if (cxx)
            oacl_gen_cxx_kernel(&b, &g_kernels[i]);
        else
            oacl_gen_c_kernel(&b, &g_kernels[i]);
    }
    oacl_write_file(path, b.s);
    oacl_xfree(b.s);
}

static void oacl_gen_table(const char *path)
{
    const struct oacl_soc_profile *soc = g_opt.soc_profile;
    struct oacl_buf b = {0};
    oacl_buf_puts(&b, "// Generated by oacl-cc: the kernel table of the binary\n#include <oacl/kernel_abi.h>\n\n"
                      "#if defined(__x86_64__)\n#define OACL__MACHINE \"x86_64\"\n"
                      "#elif defined(__aarch64__)\n#define OACL__MACHINE \"aarch64\"\n"
                      "#else\n#define OACL__MACHINE \"unknown\"\n#endif\n\n");
    for (size_t i = 0; i < g_nkernels; i++) {
        const struct oacl_kernel *k = &g_kernels[i];
        oacl_buf_printf(&b, "__attribute__((visibility(\"hidden\"))) void oacl__entry_%s(const void *);\n", k->name);
        if (k->nparams)
            oacl_buf_printf(&b, "__attribute__((visibility(\"hidden\"))) extern const uint32_t oacl__sizes_%s[%u];\n",
                            k->name, k->nparams);
    }
    oacl_buf_printf(&b, "\nstatic const struct oacl_kernel_desc oacl__kernels[%zu] = {\n", g_nkernels);
    for (size_t i = 0; i < g_nkernels; i++) {
        const struct oacl_kernel *k = &g_kernels[i];
        if (k->nparams)
            oacl_buf_printf(&b, "    {\"%s\", oacl__entry_%s, oacl__sizes_%s, %uu, 0u},\n", k->name, k->name,
                            k->name, k->nparams);
        else
            oacl_buf_printf(&b, "    {\"%s\", oacl__entry_%s, NULL, 0u, 0u},\n", k->name, k->name);
    }
    oacl_buf_puts(&b, "};\n\n"
                      "__attribute__((visibility(\"default\"))) extern const struct oacl_kernel_binary_desc "
                      "oacl_kernel_binary;\n"
                      "__attribute__((visibility(\"default\"))) const struct oacl_kernel_binary_desc "
                      "oacl_kernel_binary = {\n"
                      "    .magic = OACL_KBIN_MAGIC,\n    .abi_version = OACL_KBIN_ABI_VERSION,\n");
    oacl_buf_printf(&b, "    .npu_arch = %uu,\n    .soc_name = ", soc->npu_arch);
    oacl_put_cstr(&b, soc->name);
    oacl_buf_printf(&b, ",\n    .machine = OACL__MACHINE,\n    .num_kernels = %zuu,\n"
                        "    .reserved = 0u,\n    .kernels = oacl__kernels,\n};\n",
                    g_nkernels);
    oacl_write_file(path, b.s);
    oacl_xfree(b.s);
}

/* ======================================================================
 * Rewriting <<<>>> launches and asm("trap")
 * ====================================================================== */

/* What goes in front of a rewritten source: declarations the rewritten
 * code needs, then `#line 1` back to the original. With `macros`, also the
 * SoC macros that -D gives a compile run by oacl-cc itself. */
static void oacl_rewrite_prelude(struct oacl_buf *b, const struct oacl_source *s, bool macros)
{
    bool cxx = s->lang == OACL_LANG_CXX;
    oacl_buf_printf(b, "// Generated by oacl-cc from %s: kernel<<<...>>>(...) launches and asm(\"trap\")\n"
                       "// rewritten for the host compiler; compile with -iquote <the source's directory>.\n",
                    s->abs);
    if (macros) {
        const struct oacl_soc_profile *soc = g_opt.soc_profile;
        oacl_buf_printf(b, "#ifndef __NPU_ARCH__\n#define __NPU_ARCH__ %u\n#endif\n", soc->npu_arch);
        oacl_buf_puts(b, "#ifndef OACL_SOC_VERSION\n#define OACL_SOC_VERSION ");
        oacl_put_cstr(b, soc->name);
        oacl_buf_puts(b, "\n#endif\n");
    }
    if (cxx && (s->launches || s->kernels_registered))
        oacl_buf_puts(b, "#include <oacl/kernel_entry.hpp>\n");
    else if (cxx && (s->traps || s->gm_vars))
        oacl_buf_puts(b, "#include <oacl/kernel_abi.h>\n");
    if (!cxx && s->traps) /* no headers in front of a C source: feature macros it defines must still work */
        oacl_buf_puts(b, "extern void oacl_kernel_trap(void) __attribute__((__noreturn__));\n");
    if (!cxx && s->gm_vars) /* own names for the hooks: no clash with a later oacl/kernel_abi.h (-Wredundant-decls) */
        oacl_buf_puts(b, "extern void oacl__gm_register(const void *, void *, __SIZE_TYPE__, const char *) "
                         "__asm__(\"oacl_register_device_var\");\n"
                         "extern void oacl__gm_unregister(const void *) __asm__(\"oacl_unregister_device_var\");\n");
    oacl_buf_puts(b, "#line 1 ");
    oacl_put_cstr(b, s->abs);
    oacl_buf_puts(b, "\n");
}

/* Rewrites every source that needs it into a temporary copy (or, for
 * --emit=source, writes the output). */
static bool oacl_rewrite_all(void)
{
    for (size_t i = 0; i < g_opt.nsrcs; i++) {
        struct oacl_source *s = &g_opt.srcs[i];
        size_t len;
        char *text = oacl_read_file(s->abs, &len);
        struct oacl_rw_result r;
        /* Kernels compiled for linking into a program are registered for
           aclrtGetFuncBySymbol; those of a kernel binary are not. */
        struct oacl_rw_options ro = {.cxx = s->lang == OACL_LANG_CXX,
                                     .register_kernels = g_opt.emit != OACL_EMIT_BINARY};
        bool ok = oacl_rewrite_opts(text, len, &ro, &r);
        oacl_xfree(text);
        if (!ok) {
            unsigned shown = r.ndiags < 8 ? r.ndiags : 8;
            for (unsigned d = 0; d < shown; d++)
                fprintf(stderr, "oacl-cc: error: %s:%u: %s\n", s->arg, r.diags[d].line, r.diags[d].msg);
            if (r.ndiags > shown)
                fprintf(stderr, "oacl-cc: error: %s: %u more errors\n", s->arg, r.ndiags - shown);
            g_errors++;
            continue;
        }
        s->launches = r.launches;
        s->traps = r.traps;
        s->gm_vars = r.gm_vars;
        s->kernels_registered = r.kernels;
        bool emit_source = g_opt.emit == OACL_EMIT_SOURCE;
        if (emit_source || r.launches || r.traps || r.gm_vars || r.kernels) {
            struct oacl_buf b = {0};
            oacl_rewrite_prelude(&b, s, emit_source);
            oacl_buf_putn(&b, r.text, r.len);
            if (r.len && r.text[r.len - 1] != '\n')
                oacl_buf_puts(&b, "\n");
            if (emit_source) {
                oacl_write_file(g_out_tmp_name(), b.s);
                oacl_out_commit();
            } else {
                s->path = oacl_tmp((long)i, s->lang == OACL_LANG_CXX ? ".rw.cpp" : ".rw.c");
                oacl_write_file(s->path, b.s);
            }
            oacl_xfree(b.s);
        }
        free(r.text);
        if (g_opt.verbose && (r.launches || r.traps))
            fprintf(stderr, "oacl-cc: %s: %u launch%s and %u trap%s rewritten\n", s->arg, r.launches,
                    r.launches == 1 ? "" : "es", r.traps, r.traps == 1 ? "" : "s");
        if (g_opt.verbose && r.kernels)
            fprintf(stderr, "oacl-cc: %s: %u kernel%s registered\n", s->arg, r.kernels, r.kernels == 1 ? "" : "s");
        if (g_opt.verbose && r.gm_vars)
            fprintf(stderr, "oacl-cc: %s: %u __gm__ variable%s registered\n", s->arg, r.gm_vars,
                    r.gm_vars == 1 ? "" : "s");
    }
    return g_errors == 0;
}

/* ======================================================================
 * Driving the compiler
 * ====================================================================== */

/* Flags shared by scanning and compiling a source (and, minus the
 * preprocessor part, the table TU). */
static void oacl_common_flags(struct oacl_argv *a, enum oacl_lang lang, const char *src_dir)
{
    const struct oacl_soc_profile *soc = g_opt.soc_profile;
    if (lang == OACL_LANG_CXX)
        oacl_argv_push(a, g_opt.std_cxx ? g_opt.std_cxx : "-std=gnu++17");
    else
        oacl_argv_push(a, g_opt.std_c && src_dir ? g_opt.std_c : "-std=gnu11");
    oacl_argv_push(a, g_opt.opt);
    oacl_argv_push(a, "-fPIC");
    oacl_argv_pushf(a, "-D__NPU_ARCH__=%u", soc->npu_arch);
    oacl_argv_pushf(a, "-DOACL_SOC_VERSION=\"%s\"", soc->name);
    if (src_dir)
        oacl_argv_append(a, &g_opt.cpp);
    oacl_argv_pushf(a, "-I%s", g_opt.include_dir);
    if (src_dir) {
        oacl_argv_push(a, "-iquote");
        oacl_argv_push(a, src_dir);
    }
    for (size_t i = 0; i < g_opt.flags.n; i++) {
        const char *f = g_opt.flags.v[i];
        if (oacl_starts(f, "-Wl,"))
            continue; /* linker flags go to the link only */
        if (!src_dir && f[1] == 'W')
            continue; /* the table TU is ours; users' warnings are for their code */
        oacl_argv_push(a, f);
    }
    oacl_argv_append(a, &g_opt.env_flags);
}

static const char *oacl_compiler(enum oacl_lang lang) { return lang == OACL_LANG_CXX ? g_opt.cxx : g_opt.cc; }

/*
 * GCC gives C++ objects with vague linkage (static locals of inline
 * functions, inline and template static variables) STB_GNU_UNIQUE binding:
 * the dynamic loader binds them once per process, so every loaded
 * instance of a binary would share them (and the binary could never be
 * unloaded). A binary's globals must be per instance (one copy per
 * device), so C++ sources of a binary are compiled with -fno-gnu-unique
 * when the compiler is GCC — which a probe, preprocessed along with the
 * scan of each C++ source, tells.
 */

static void oacl_write_gnu_probe(const char *path)
{
    oacl_write_file(path, "#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_LLVM_COMPILER)\n"
                          OACL_GNU_PROBE ";\n#endif\n");
}

static bool oacl_scan_all(void)
{
    char *probe = oacl_tmp(-1, ".h");
    oacl_write_gnu_probe(probe);
    for (size_t i = 0; i < g_opt.nsrcs; i++) {
        const struct oacl_source *s = &g_opt.srcs[i];
        char *ipath = oacl_tmp((long)i, ".i");
        struct oacl_argv cmd = {0};
        oacl_argv_push(&cmd, oacl_compiler(s->lang));
        oacl_argv_push(&cmd, "-E");
        oacl_argv_push(&cmd, "-DOACL_KERNEL_SCAN=1");
        if (s->lang == OACL_LANG_CXX) {
            oacl_argv_push(&cmd, "-include");
            oacl_argv_push(&cmd, probe);
        }
        oacl_common_flags(&cmd, s->lang, s->dir);
        oacl_argv_push(&cmd, "-x");
        oacl_argv_push(&cmd, s->lang == OACL_LANG_CXX ? "c++" : "c");
        oacl_argv_push(&cmd, s->path);
        oacl_argv_push(&cmd, "-o");
        oacl_argv_push(&cmd, ipath);
        bool ok = oacl_run(&cmd);
        oacl_argv_free(&cmd);
        if (!ok) {
            oacl_error("preprocessing '%s' failed", s->arg);
            return false;
        }
        oacl_scan_source(i, ipath);
        oacl_xfree(ipath);
    }
    oacl_xfree(probe);
    oacl_check_kernels();
    if (g_nkernels == 0 && !g_errors)
        oacl_error("no __global__ kernel found in the given source%s", g_opt.nsrcs > 1 ? "s" : "");
    if (g_opt.verbose)
        for (size_t i = 0; i < g_nkernels; i++)
            fprintf(stderr, "oacl-cc: kernel %s (%s), %u parameter%s\n", g_kernels[i].name, g_kernels[i].where,
                    g_kernels[i].nparams, g_kernels[i].nparams == 1 ? "" : "s");
    return g_errors == 0;
}

/* Compiles `in`; with --depfile, source compiles (idx >= 0) also write the
 * compiler's dependency list to <tmp>/<idx>.d. */
static bool oacl_compile(const char *compiler, enum oacl_lang lang, const char *dir, const char *in,
                         const char *obj, const char *what, long idx)
{
    struct oacl_argv cmd = {0};
    oacl_argv_push(&cmd, compiler);
    oacl_argv_push(&cmd, "-c");
    oacl_common_flags(&cmd, lang, dir);
    if (g_opt.depfile && idx >= 0) {
        char *d = oacl_tmp(idx, ".d");
        oacl_argv_push(&cmd, "-MD");
        oacl_argv_push(&cmd, "-MF");
        oacl_argv_push(&cmd, d);
        oacl_xfree(d);
    }
    if (lang == OACL_LANG_CXX && g_gnu_unique && g_opt.emit == OACL_EMIT_BINARY)
        oacl_argv_push(&cmd, "-fno-gnu-unique"); /* globals per instance (see oacl_write_gnu_probe) */
    oacl_argv_push(&cmd, "-x");
    oacl_argv_push(&cmd, lang == OACL_LANG_CXX ? "c++" : "c");
    oacl_argv_push(&cmd, in);
    oacl_argv_push(&cmd, "-o");
    oacl_argv_push(&cmd, obj);
    bool ok = oacl_run(&cmd);
    oacl_argv_free(&cmd);
    if (!ok)
        oacl_error("compiling %s failed", what);
    return ok;
}

/* ---- dependency files ---- */

struct oacl_deps {
    char **v;
    size_t n, cap;
};

static void oacl_deps_add(struct oacl_deps *d, const char *path, size_t len)
{
    for (size_t i = 0; i < d->n; i++)
        if (strlen(d->v[i]) == len && memcmp(d->v[i], path, len) == 0)
            return;
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 64;
        d->v = oacl_xrealloc(d->v, d->cap * sizeof(*d->v));
    }
    d->v[d->n++] = oacl_strndup(path, len);
}

/* The prerequisites of a compiler-written .d file (GCC's escaping: "\ "
 * for a space, "\#", "$$", backslash-newline between names). */
static void oacl_deps_read(struct oacl_deps *d, const char *path)
{
    size_t len;
    char *text = oacl_read_file(path, &len);
    const char *p = text, *end = text + len;
    while (p < end && !(*p == ':' && (p + 1 == end || p[1] == ' ' || p[1] == '\t' || p[1] == '\n' || p[1] == '\\')))
        p += (*p == '\\' && p + 1 < end) ? 2 : 1;
    if (p < end)
        p++;
    struct oacl_buf name = {0};
    for (;;) {
        bool sep = p >= end || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
                   (*p == '\\' && p + 1 < end && (p[1] == '\n' || p[1] == '\r'));
        if (sep) {
            if (name.len) {
                oacl_deps_add(d, name.s, name.len);
                name.len = 0;
            }
            if (p >= end)
                break;
            p += *p == '\\' ? 2 : 1;
            continue;
        }
        if (*p == '\\' && p + 1 < end && (p[1] == ' ' || p[1] == '#' || p[1] == '\\')) {
            oacl_buf_putn(&name, p + 1, 1);
            p += 2;
        } else if (*p == '$' && p + 1 < end && p[1] == '$') {
            oacl_buf_putn(&name, "$", 1);
            p += 2;
        } else {
            oacl_buf_putn(&name, p, 1);
            p++;
        }
    }
    oacl_xfree(name.s);
    oacl_xfree(text);
}

static void oacl_put_dep(struct oacl_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '#' || *s == '\\')
            oacl_buf_putn(b, "\\", 1);
        else if (*s == '$')
            oacl_buf_putn(b, "$", 1);
        oacl_buf_putn(b, s, 1);
    }
}

/* --depfile: OUT depends on every source and on what the compiles read,
 * except oacl-cc's own temporary files. Written like the output, under a
 * temporary name first. */
static void oacl_write_depfile(void)
{
    struct oacl_deps d = {0};
    for (size_t i = 0; i < g_opt.nsrcs; i++)
        oacl_deps_add(&d, g_opt.srcs[i].abs, strlen(g_opt.srcs[i].abs));
    for (size_t i = 0; i < g_opt.nsrcs; i++) {
        char *path = oacl_tmp((long)i, ".d");
        if (access(path, R_OK) == 0)
            oacl_deps_read(&d, path);
        oacl_xfree(path);
    }
    struct oacl_buf b = {0};
    oacl_put_dep(&b, g_opt.out);
    oacl_buf_puts(&b, ":");
    size_t tl = strlen(g_tmpdir);
    for (size_t i = 0; i < d.n; i++) {
        if (strncmp(d.v[i], g_tmpdir, tl) == 0 && d.v[i][tl] == '/')
            continue;
        oacl_buf_puts(&b, " \\\n ");
        oacl_put_dep(&b, d.v[i]);
    }
    oacl_buf_puts(&b, "\n");
    char *dir = oacl_dirname(g_opt.depfile);
    oacl_mkdir_p(dir);
    oacl_xfree(dir);
    char *tmp = oacl_fmt("%s.tmp.%ld", g_opt.depfile, (long)getpid());
    oacl_write_file(tmp, b.s);
    if (rename(tmp, g_opt.depfile) != 0) {
        unlink(tmp);
        oacl_fatal("cannot write the dependency file '%s': %s", g_opt.depfile, strerror(errno));
    }
    oacl_xfree(tmp);
    oacl_xfree(b.s);
    for (size_t i = 0; i < d.n; i++)
        oacl_xfree(d.v[i]);
    oacl_xfree(d.v);
}

/* Sanitized kernels get their runtime from the host executable (clang
 * never links it into shared objects), so --no-undefined cannot hold. */
static bool oacl_sanitized(void)
{
    for (size_t i = 0; i < g_opt.flags.n; i++)
        if (oacl_starts(g_opt.flags.v[i], "-fsanitize="))
            return true;
    for (size_t i = 0; i < g_opt.env_flags.n; i++)
        if (oacl_starts(g_opt.env_flags.v[i], "-fsanitize="))
            return true;
    return false;
}

static bool oacl_build(void)
{
    struct oacl_argv objs = {0};
    bool any_cxx = false, ok = true;
    for (size_t i = 0; i < g_opt.nsrcs && ok; i++) {
        const struct oacl_source *s = &g_opt.srcs[i];
        bool cxx = s->lang == OACL_LANG_CXX;
        any_cxx |= cxx;
        char *wrap = oacl_tmp((long)i, cxx ? ".cpp" : ".c"), *obj = oacl_tmp((long)i, ".o");
        char *what = oacl_fmt("'%s'", s->arg);
        oacl_gen_wrapper(i, wrap);
        ok = oacl_compile(oacl_compiler(s->lang), s->lang, s->dir, wrap, obj, what, (long)i);
        oacl_argv_push(&objs, obj);
        oacl_xfree(wrap);
        oacl_xfree(obj);
        oacl_xfree(what);
    }
    if (ok) {
        char *table = oacl_tmp(-1, ".c"), *obj = oacl_tmp(-1, ".o");
        oacl_gen_table(table);
        ok = oacl_compile(g_opt.cc, OACL_LANG_C, NULL, table, obj, "the kernel table", -1);
        oacl_argv_push(&objs, obj);
        oacl_xfree(table);
        oacl_xfree(obj);
    }
    if (ok) {
        g_out_tmp_name();
        struct oacl_argv cmd = {0};
        oacl_argv_push(&cmd, any_cxx ? g_opt.cxx : g_opt.cc);
        oacl_argv_push(&cmd, "-shared");
        oacl_argv_push(&cmd, "-o");
        oacl_argv_push(&cmd, g_out_tmp);
        oacl_argv_append(&cmd, &objs);
        /* Code-generation flags (sanitizers, -m...) matter to the link too. */
        for (size_t i = 0; i < g_opt.flags.n; i++) {
            const char *f = g_opt.flags.v[i];
            if (f[1] == 'f' || f[1] == 'm' || f[1] == 'g' || oacl_starts(f, "-Wl,") || strcmp(f, "-pthread") == 0)
                oacl_argv_push(&cmd, f);
        }
        oacl_argv_append(&cmd, &g_opt.env_flags);
        oacl_argv_pushf(&cmd, "-L%s", g_opt.lib_dir);
        oacl_argv_push(&cmd, "-lacl_rt");
        oacl_argv_pushf(&cmd, "-Wl,-rpath,%s", g_opt.lib_dir);
        if (!oacl_sanitized())
            oacl_argv_push(&cmd, "-Wl,--no-undefined");
        oacl_argv_push(&cmd, "-lm");
        ok = oacl_run(&cmd);
        oacl_argv_free(&cmd);
        if (!ok)
            oacl_error("linking '%s' failed", g_opt.out);
        else
            oacl_out_commit();
    }
    oacl_argv_free(&objs);
    return ok;
}

/* --emit=object: every (rewritten) source compiled as it is, no kernel
 * table; several sources are combined into one relocatable object. */
static bool oacl_build_object(void)
{
    struct oacl_argv objs = {0};
    bool ok = true;
    const char *out = g_out_tmp_name();
    for (size_t i = 0; i < g_opt.nsrcs && ok; i++) {
        const struct oacl_source *s = &g_opt.srcs[i];
        char *obj = g_opt.nsrcs == 1 ? oacl_strdup(out) : oacl_tmp((long)i, ".o");
        char *what = oacl_fmt("'%s'", s->arg);
        ok = oacl_compile(oacl_compiler(s->lang), s->lang, s->dir, s->path, obj, what, (long)i);
        oacl_argv_push(&objs, obj);
        oacl_xfree(obj);
        oacl_xfree(what);
    }
    if (ok && g_opt.nsrcs > 1) {
        struct oacl_argv cmd = {0};
        oacl_argv_push(&cmd, g_opt.cc);
        oacl_argv_push(&cmd, "-r");
        oacl_argv_push(&cmd, "-nostdlib");
        oacl_argv_push(&cmd, "-o");
        oacl_argv_push(&cmd, out);
        oacl_argv_append(&cmd, &objs);
        ok = oacl_run(&cmd);
        oacl_argv_free(&cmd);
        if (!ok)
            oacl_error("combining the objects into '%s' failed", g_opt.out);
    }
    if (ok)
        oacl_out_commit();
    oacl_argv_free(&objs);
    return ok;
}

/* ======================================================================
 * main
 * ====================================================================== */

int main(int argc, char **argv)
{
    atexit(oacl_at_exit);
    oacl_parse_args(argc, argv);
    oacl_finish_options();
    oacl_make_tmpdir();
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        signal(sigs[i], oacl_on_signal);
    if (g_opt.keep)
        oacl_note("temporary files kept in %s", g_tmpdir);
    if (g_opt.verbose)
        fprintf(stderr, "oacl-cc: SoC %s (arch %u), cc %s, c++ %s\n", g_opt.soc_profile->name,
                g_opt.soc_profile->npu_arch, g_opt.cc, g_opt.cxx);
    if (!oacl_rewrite_all())
        return 1;
    bool ok;
    switch (g_opt.emit) {
    case OACL_EMIT_SOURCE:
        ok = true;
        break;
    case OACL_EMIT_OBJECT:
        ok = oacl_build_object();
        break;
    case OACL_EMIT_BINARY:
    default:
        ok = oacl_scan_all() && oacl_build();
        break;
    }
    if (ok && g_opt.depfile)
        oacl_write_depfile();
    return ok ? 0 : 1;
}
