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
 * into a temporary copy (tools/oacl-cc/oacl_rewrite.c) that starts with
 * `#line 1 "<source>"`; the source's own directory stays on the
 * quote-include path.
 *
 * Other outputs (--emit): `object` compiles the (rewritten) sources into one
 * relocatable object holding kernels and their host launch wrappers, for
 * linking into a program; `source` writes the rewritten source itself, to be
 * compiled by the project's own compiler (ascendc_library does this).
 *
 * Child processes run through posix_spawnp without a shell: paths may hold
 * spaces.
 *
 * This header is what the stages share; one file per stage:
 *   util.c     memory released at exit, diagnostics, strings, argv, files
 *   options.c  the command line (g_opt)
 *   run.c      temporary files, the output's temporary name, running tools
 *   rewrite.c  rewriting sources (with oacl_rewrite.c, the rewriter itself)
 *   lex.c      lexing preprocessed output
 *   scan.c     finding kernels and their parameters (g_kernels)
 *   codegen.c  entry wrappers and the kernel table
 *   build.c    scanning runs, compiling, linking, dependency files
 *   main.c     the stages in order
 */
#ifndef OACL_CC_H
#define OACL_CC_H

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

/* The token a probe header leaves in the scan output when the C++ compiler
 * is GCC (build.c writes the probe, scan.c looks for the token). */
#define OACL_GNU_PROBE "__oacl_gnu_unique_compiler__"

/* ---- types shared by the stages ---- */

struct oacl_buf {
    char *s;
    size_t len, cap;
};

/* NULL-terminated argument vector for posix_spawnp. */
struct oacl_argv {
    char **v;
    size_t n, cap;
};

/* A source on the command line and what the stages learn about it. */
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

/* The command line, once parsed (options.c). */
struct oacl_options {
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
};
extern struct oacl_options g_opt;

/* Tokens of preprocessed output (lex.c), scanned by scan.c. */
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

/* A kernel found by the scan (scan.c), generated for by codegen.c. */
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

/* ---- util.c ---- */

extern unsigned g_errors;
void oacl_write_file(const char *path, const char *text);
char *oacl_read_file(const char *path, size_t *len);
char *oacl_dirname(const char *path);
bool oacl_starts(const char *s, const char *prefix);
void oacl_argv_free(struct oacl_argv *a);
void oacl_argv_append(struct oacl_argv *a, const struct oacl_argv *b);
void oacl_argv_pushf(struct oacl_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void oacl_argv_push(struct oacl_argv *a, const char *s);
void oacl_buf_printf(struct oacl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void oacl_buf_puts(struct oacl_buf *b, const char *s);
void oacl_buf_putn(struct oacl_buf *b, const char *s, size_t n);
void oacl_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void oacl_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void oacl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *oacl_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *oacl_strdup(const char *s);
char *oacl_strndup(const char *s, size_t n);
void oacl_free_all(void);
void oacl_xfree(void *p);
void *oacl_xcalloc(size_t n, size_t size);
void *oacl_xmalloc(size_t n);
void *oacl_xrealloc(void *p, size_t n);

/* ---- options.c ---- */

void oacl_finish_options(void);
void oacl_parse_args(int argc, char **argv);

/* ---- run.c ---- */

extern char g_out_tmp[PATH_MAX];
extern char g_tmpdir[PATH_MAX];
void oacl_mkdir_p(const char *dir);
bool oacl_run(struct oacl_argv *cmd);
char *oacl_tmp(long idx, const char *suffix);
void oacl_make_tmpdir(void);
void oacl_at_exit(void);
void oacl_on_signal(int sig);
void oacl_out_commit(void);
const char *g_out_tmp_name(void);

/* ---- lex.c ---- */

void oacl_lex(struct oacl_lexed *lx, const char *p, const char *end, const char *path, bool cxx);
bool oacl_tok_p(const struct oacl_tok *t, char c);
bool oacl_tok_is(const struct oacl_tok *t, const char *s);

/* ---- scan.c ---- */

extern bool g_gnu_unique;
extern size_t g_nkernels;
extern struct oacl_kernel *g_kernels;
void oacl_check_kernels(void);
void oacl_scan_source(size_t idx, const char *ipath);

/* ---- codegen.c ---- */

void oacl_gen_table(const char *path);
void oacl_gen_wrapper(size_t idx, const char *path);
void oacl_put_cstr(struct oacl_buf *b, const char *s);

/* ---- rewrite.c ---- */

bool oacl_rewrite_all(void);

/* ---- build.c ---- */

bool oacl_build_object(void);
bool oacl_build(void);
void oacl_write_depfile(void);
bool oacl_scan_all(void);

#endif /* OACL_CC_H */
