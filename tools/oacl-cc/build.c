/*
 * oacl-cc compiler driving: the scanning runs, compiling wrappers, the table
 * and sources, linking a binary or combining objects, dependency files.
 */
#include "oacl_cc.h"

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

bool oacl_scan_all(void)
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
void oacl_write_depfile(void)
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

bool oacl_build(void)
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
bool oacl_build_object(void)
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
