/*
 * oacl-cc options: the command line, the sources and their languages, the
 * SoC, the host compilers and the directories (g_opt).
 */
#include "oacl_cc.h"

struct oacl_options g_opt;

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

void oacl_parse_args(int argc, char **argv)
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

void oacl_finish_options(void)
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
