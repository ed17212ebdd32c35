/*
 * Source rewriting for oacl-cc: <<<>>> launches and asm("trap"). See
 * oacl_rewrite.h. The scanner walks the raw text once, skipping comments,
 * literals and #include lines; rewritten spans are replaced in place and
 * keep their line breaks, everything else is copied byte for byte.
 */
#include "oacl_rewrite.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rw {
    const char *s;
    size_t n;
    bool cxx;
    bool register_kernels; /* C++ sources compiled for linking (oacl_rw_options) */
    char *out;
    size_t len, cap;
    bool oom;
    size_t copied; /* s[0..copied) is already in out */
    size_t start;  /* first byte of the text proper (after a byte-order mark) */
    struct oacl_rw_result *res;
    /* Text inserted after a source position (registrations of __gm__
       variables), sorted by position; emitted as the copy passes them. */
    struct insert {
        size_t pos;
        char *text;
    } *ins;
    size_t nins, ins_cap, next_ins;
};

static void put(struct rw *w, const char *p, size_t k)
{
    if (w->oom)
        return;
    if (w->len + k + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->len + k + 1)
            cap *= 2;
        char *o = realloc(w->out, cap);
        if (!o) {
            w->oom = true;
            return;
        }
        w->out = o;
        w->cap = cap;
    }
    memcpy(w->out + w->len, p, k);
    w->len += k;
    w->out[w->len] = '\0';
}

static void puts_(struct rw *w, const char *p) { put(w, p, strlen(p)); }

/* Copies the source up to `to` (exclusive) into the output, with the
 * insertions at positions up to `to`. */
static void flush(struct rw *w, size_t to)
{
    while (w->next_ins < w->nins && w->ins[w->next_ins].pos <= to) {
        const struct insert *in = &w->ins[w->next_ins++];
        if (in->pos > w->copied) {
            put(w, w->s + w->copied, in->pos - w->copied);
            w->copied = in->pos;
        }
        puts_(w, in->text);
    }
    if (to > w->copied) {
        put(w, w->s + w->copied, to - w->copied);
        w->copied = to;
    }
}

static unsigned line_of(const struct rw *w, size_t pos)
{
    unsigned line = 1;
    for (size_t i = 0; i < pos && i < w->n; i++)
        line += w->s[i] == '\n';
    return line;
}

static void diag(struct rw *w, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void diag(struct rw *w, size_t pos, const char *fmt, ...)
{
    struct oacl_rw_result *r = w->res;
    if (r->ndiags < sizeof(r->diags) / sizeof(r->diags[0])) {
        struct oacl_rw_diag *d = &r->diags[r->ndiags];
        d->line = line_of(w, pos);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
        va_end(ap);
    }
    r->ndiags++;
}

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n'; }

static bool at(const struct rw *w, size_t i, const char *lit)
{
    size_t k = strlen(lit);
    return i + k <= w->n && memcmp(w->s + i, lit, k) == 0;
}

/* A quoted literal starting at i (the quote): index after its end. An
 * unterminated one ends at the newline. */
static size_t skip_quoted(const struct rw *w, size_t i)
{
    char q = w->s[i++];
    while (i < w->n && w->s[i] != q && w->s[i] != '\n')
        i += (w->s[i] == '\\' && i + 1 < w->n) ? 2 : 1;
    return i < w->n && w->s[i] == q ? i + 1 : i;
}

/* C++ raw string R"d(...)d", i at the opening quote. */
static size_t skip_raw(const struct rw *w, size_t i)
{
    size_t d = ++i;
    while (i < w->n && w->s[i] != '(' && i - d < 16 && w->s[i] != '"' && !is_space(w->s[i]))
        i++;
    if (i >= w->n || w->s[i] != '(')
        return i; /* not a raw string after all */
    size_t dl = i - d;
    for (; i < w->n; i++)
        if (w->s[i] == ')' && i + dl + 1 < w->n && memcmp(w->s + i + 1, w->s + d, dl) == 0 && w->s[i + 1 + dl] == '"')
            return i + dl + 2;
    return w->n;
}

/* Line comment from i ('//'): index of the newline ending it (backslash
 * continuations included). */
static size_t skip_line_comment(const struct rw *w, size_t i)
{
    while (i < w->n && w->s[i] != '\n')
        i += (w->s[i] == '\\' && i + 1 < w->n && w->s[i + 1] == '\n') ? 2 : 1;
    return i;
}

static size_t skip_block_comment(const struct rw *w, size_t i)
{
    for (i += 2; i + 1 < w->n; i++)
        if (w->s[i] == '*' && w->s[i + 1] == '/')
            return i + 2;
    return w->n;
}

/* An identifier at [i, j): if it prefixes a literal (L"", u8'', R"()"),
 * the index after that literal, else j. */
static size_t after_ident(const struct rw *w, size_t i, size_t j)
{
    if (j >= w->n || (w->s[j] != '"' && w->s[j] != '\''))
        return j;
    size_t k = j - i;
    const char *p = w->s + i;
    bool raw = w->cxx && w->s[j] == '"' && p[k - 1] == 'R' &&
               (k == 1 || (k == 2 && strchr("LuU", p[0])) || (k == 3 && p[0] == 'u' && p[1] == '8'));
    if (raw)
        return skip_raw(w, j);
    bool prefix = (k == 1 && strchr("LuU", p[0])) || (k == 2 && p[0] == 'u' && p[1] == '8');
    return prefix ? skip_quoted(w, j) : j;
}

static size_t skip_number(const struct rw *w, size_t i)
{
    for (i++; i < w->n;) {
        char c = w->s[i];
        if (strchr("eEpP", c) && i + 1 < w->n && (w->s[i + 1] == '+' || w->s[i + 1] == '-'))
            i += 2;
        else if (ident_char(c) || c == '.')
            i++;
        else if (c == '\'' && w->cxx && i + 1 < w->n && ident_char(w->s[i + 1]))
            i += 2; /* digit separator */
        else
            break;
    }
    return i;
}

/* Whitespace, backslash-newlines and comments from i onwards. */
static size_t skip_ws_fwd(const struct rw *w, size_t i)
{
    while (i < w->n) {
        if (is_space(w->s[i]) || (w->s[i] == '\\' && i + 1 < w->n && w->s[i + 1] == '\n'))
            i++;
        else if (at(w, i, "//"))
            i = skip_line_comment(w, i);
        else if (at(w, i, "/*"))
            i = skip_block_comment(w, i);
        else
            break;
    }
    return i;
}

/* Whitespace (and backslash-newlines) backwards from the exclusive end p. */
static size_t skip_ws_back(const struct rw *w, size_t p)
{
    while (p > w->start && (is_space(w->s[p - 1]) || (w->s[p - 1] == '\\' && p < w->n && w->s[p] == '\n')))
        p--;
    return p;
}

/*
 * The kernel expression ending at p (exclusive, whitespace already
 * skipped): [::] name [<targs>] { :: name [<targs>] }. Returns its start,
 * or SIZE_MAX; *last_ident is the start of the name nearest to p.
 */
static size_t callee_start(const struct rw *w, size_t p, size_t *last_ident, size_t *last_len)
{
    bool first = true;
    for (;;) {
        if (p > w->start && w->s[p - 1] == '>') {
            size_t q = p - 1;
            int depth = 0;
            for (;;) {
                char c = w->s[q];
                if (c == '>')
                    depth++;
                else if (c == '<' && --depth == 0)
                    break;
                else if (c == ';' || c == '{' || c == '}')
                    return SIZE_MAX;
                if (q == w->start)
                    return SIZE_MAX;
                q--;
            }
            p = skip_ws_back(w, q);
        }
        size_t e = p;
        while (p > w->start && ident_char(w->s[p - 1]))
            p--;
        if (p == e || is_digit(w->s[p]))
            return SIZE_MAX;
        if (first) {
            *last_ident = p;
            *last_len = e - p;
            first = false;
        }
        size_t q = skip_ws_back(w, p);
        if (q >= 2 && w->s[q - 1] == ':' && w->s[q - 2] == ':') {
            size_t r = skip_ws_back(w, q - 2);
            if (r > w->start && (ident_char(w->s[r - 1]) || w->s[r - 1] == '>')) {
                p = r;
                continue;
            }
            return q - 2; /* ::name */
        }
        return p;
    }
}

/* Next token boundary inside a launch configuration: literals and comments
 * are skipped whole. */
static size_t cfg_step(const struct rw *w, size_t i)
{
    char c = w->s[i];
    if (c == '"' || c == '\'')
        return skip_quoted(w, i);
    if (at(w, i, "//"))
        return skip_line_comment(w, i);
    if (at(w, i, "/*"))
        return skip_block_comment(w, i);
    if (ident_start(c)) {
        size_t j = i;
        while (j < w->n && ident_char(w->s[j]))
            j++;
        return after_ident(w, i, j);
    }
    if (is_digit(c) || (c == '.' && i + 1 < w->n && is_digit(w->s[i + 1])))
        return skip_number(w, i);
    return i + 1;
}

/* `<<<` at lt. Returns the index to continue scanning at. */
static size_t do_launch(struct rw *w, size_t lt)
{
    size_t end = skip_ws_back(w, lt), last = 0, last_len = 0;
    size_t cs = end > w->start ? callee_start(w, end, &last, &last_len) : SIZE_MAX;
    if (cs != SIZE_MAX && last_len == 8 && memcmp(w->s + last, "operator", 8) == 0)
        return lt + 3; /* operator<< <T>: not a launch */
    if (cs == SIZE_MAX) {
        diag(w, lt, "expected a kernel name before '<<<' (a name, optionally qualified or with template "
                    "arguments)");
        return lt + 3;
    }
    size_t before = skip_ws_back(w, cs);
    if (before > w->start &&
        (w->s[before - 1] == '.' || (before > w->start + 1 && w->s[before - 1] == '>' && w->s[before - 2] == '-'))) {
        diag(w, lt, "the kernel of a '<<<' launch must be a free function, not a member");
        return lt + 3;
    }
    if (cs < w->copied) {
        diag(w, lt, "cannot rewrite this '<<<' launch: its kernel expression overlaps an earlier rewrite");
        return lt + 3;
    }
    /* The configuration runs to the first '>>>' outside brackets. */
    size_t i = lt + 3, gt = SIZE_MAX;
    int depth = 0;
    while (i < w->n) {
        char c = w->s[i];
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0)
                break;
            depth--;
        } else if (c == ';' && depth == 0) {
            break;
        } else if (at(w, i, "<<<")) {
            diag(w, i, "'<<<' inside the launch configuration of another '<<<'");
            return i + 3;
        } else if (depth == 0 && at(w, i, ">>>")) {
            gt = i;
            break;
        }
        i = cfg_step(w, i);
    }
    if (gt == SIZE_MAX) {
        diag(w, lt, "unterminated launch configuration: '<<<' without a matching '>>>'");
        return lt + 3;
    }
    size_t after = skip_ws_fwd(w, gt + 3);
    if (after >= w->n || w->s[after] != '(') {
        diag(w, gt, "expected '(' and the kernel's arguments after '>>>'");
        return gt + 3;
    }
    if (!w->cxx) {
        diag(w, lt, "kernel<<<...>>>(...) launches need a C++ source (the launcher is a C++ template); "
                    "from C, call oacl_launch() or use aclrtLaunchKernelWithConfig");
        return gt + 3;
    }
    flush(w, cs);
    puts_(w, "::oacl::kentry::launch<&(");
    put(w, w->s + cs, lt - cs); /* the kernel expression, spacing and line breaks kept */
    puts_(w, ")>(\"");
    for (size_t k = cs; k < end; k++) {
        char c = w->s[k];
        if (is_space(c) || c == '\\')
            continue;
        if (c == '"')
            puts_(w, "\\\"");
        else
            put(w, &c, 1);
    }
    puts_(w, "\"");
    bool blank = true;
    for (size_t k = lt + 3; k < gt && blank; k++)
        blank = is_space(w->s[k]);
    if (!blank)
        puts_(w, ", ");
    put(w, w->s + lt + 3, gt - (lt + 3));
    puts_(w, ")");
    w->copied = gt + 3;
    w->res->launches++;
    return gt + 3;
}

/* An identifier `asm`/`__asm`/`__asm__` at [i, j): rewrites asm("trap")
 * and returns the index after it, or returns j if it is another asm. */
static size_t do_asm(struct rw *w, size_t i, size_t j)
{
    static const char *const quals[] = {"volatile", "__volatile__", "__volatile", "inline", "__inline",
                                        "__inline__", "goto"};
    size_t p = skip_ws_fwd(w, j);
    for (bool again = true; again;) {
        again = false;
        for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++) {
            size_t k = strlen(quals[q]);
            if (at(w, p, quals[q]) && (p + k >= w->n || !ident_char(w->s[p + k]))) {
                p = skip_ws_fwd(w, p + k);
                again = true;
                break;
            }
        }
    }
    if (p >= w->n || w->s[p] != '(')
        return j;
    p = skip_ws_fwd(w, p + 1);
    if (p >= w->n || w->s[p] != '"')
        return j;
    size_t se = skip_quoted(w, p);
    /* The template, trimmed, optionally ending in ';', must be "trap". */
    size_t a = p + 1, b = se > a ? se - 1 : a;
    while (a < b && is_space(w->s[a]))
        a++;
    while (b > a && (is_space(w->s[b - 1]) || w->s[b - 1] == ';'))
        b--;
    if (b - a != 4 || memcmp(w->s + a, "trap", 4) != 0)
        return j;
    /* Operand and clobber lists, if any, up to the closing parenthesis. */
    int depth = 1;
    size_t q = se;
    while (q < w->n && depth > 0) {
        char c = w->s[q];
        if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        q = depth ? cfg_step(w, q) : q + 1;
    }
    if (depth)
        return j;
    flush(w, i);
    puts_(w, "oacl_kernel_trap()");
    for (size_t k = i; k < q; k++)
        if (w->s[k] == '\n')
            puts_(w, k > i && w->s[k - 1] == '\\' ? "\\\n" : "\n");
    w->copied = q;
    w->res->traps++;
    return q;
}

/* ---- registrations of __gm__ variables -------------------------------------------- */

/*
 * A second, token-level look at the text: namespace-scope declarations
 * (outside function bodies and classes; namespaces and extern "C" blocks
 * are transparent) whose specifiers contain __gm__ at the top level are
 * definitions of device variables. Directives are skipped whole: a
 * __gm__ inside a macro definition is not a definition.
 */

enum gtok_kind { GT_IDENT, GT_STR, GT_NUM, GT_PUNCT };

struct gtok {
    size_t pos, len;
    enum gtok_kind kind;
};

struct gscan {
    struct rw *w;
    struct gtok *t; /* tokens of the current namespace-scope declaration */
    size_t n, cap;
    bool *scope;    /* per open '{': true = namespace or linkage block */
    size_t depth, scope_cap;
    size_t opaque;  /* bodies and classes open */
    int paren;      /* ( and [ open inside the declaration */
    int brace;      /* { open inside the declaration (initializers, class bodies) */
    unsigned counter;
    const struct gtok *kernel; /* the __global__ function whose body is open at namespace scope */
    struct gtok kernel_name;
};

static bool gt_is(const struct gscan *g, const struct gtok *t, const char *lit)
{
    size_t k = strlen(lit);
    return t->len == k && memcmp(g->w->s + t->pos, lit, k) == 0;
}

static bool gt_p(const struct gscan *g, const struct gtok *t, char c)
{
    return t->kind == GT_PUNCT && t->len == 1 && g->w->s[t->pos] == c;
}

static bool gt_in(const struct gscan *g, const struct gtok *t, const char *const *set, size_t n)
{
    if (t->kind != GT_IDENT)
        return false;
    for (size_t i = 0; i < n; i++)
        if (gt_is(g, t, set[i]))
            return true;
    return false;
}
#define GT_IN(g, t, set) gt_in((g), (t), (set), sizeof(set) / sizeof((set)[0]))

static const char *const g_attr_kw[] = {"__attribute__", "__attribute", "__declspec", "alignas", "_Alignas",
                                        "decltype", "__typeof__", "__typeof", "typeof", "__asm__", "__asm", "asm",
                                        "_Atomic"};
static const char *const g_quals[] = {"const", "volatile", "restrict", "__restrict", "__restrict__", "static",
                                      "extern", "inline", "__inline", "__inline__", "constexpr", "constinit",
                                      "mutable", "register", "__extension__", "__gm__", "__ubuf__", "__cbuf__",
                                      "__ca__", "__cb__", "__cc__", "__fbuf__", "__ssbuf__", "__aicore__",
                                      "__global__", "__host__", "__vector__", "__cube__"};
static const char *const g_types[] = {"int", "char", "short", "long", "float", "double", "void", "bool", "_Bool",
                                      "signed", "unsigned", "auto", "__int128", "_Float16", "wchar_t", "char8_t",
                                      "char16_t", "char32_t"};
static const char *const g_tags[] = {"struct", "class", "union", "enum"};
static const char *const g_not_vars[] = {"typedef", "template", "using", "friend", "thread_local", "_Thread_local",
                                         "__thread", "static_assert", "_Static_assert", "operator", "namespace",
                                         "return", "goto", "case", "default", "concept", "requires"};

/* Index after the group opening at i ((, [ or {) among t[0..n). */
static size_t gt_skip_group(const struct gscan *g, size_t i, size_t n)
{
    int depth = 0;
    for (; i < n; i++) {
        const struct gtok *t = &g->t[i];
        if (gt_p(g, t, '(') || gt_p(g, t, '[') || gt_p(g, t, '{'))
            depth++;
        else if ((gt_p(g, t, ')') || gt_p(g, t, ']') || gt_p(g, t, '}')) && --depth == 0)
            return i + 1;
    }
    return n;
}

/* An attribute-like group at i (__attribute__((..)), alignas(..), [[..]]):
 * the index after it, else i. */
static size_t gt_skip_attr(const struct gscan *g, size_t i, size_t n)
{
    if (i + 1 < n && GT_IN(g, &g->t[i], g_attr_kw) && gt_p(g, &g->t[i + 1], '('))
        return gt_skip_group(g, i + 1, n);
    if (i + 1 < n && gt_p(g, &g->t[i], '[') && gt_p(g, &g->t[i + 1], '['))
        return gt_skip_group(g, i, n);
    return i;
}

/* What the declaration so far opens with '{': a namespace or linkage block
 * (1), part of the declaration — an initializer, a class body (2), or a
 * function body (0). */
static int gt_brace_kind(const struct gscan *g)
{
    size_t n = g->n, i = 0;
    while (i < n) {
        size_t j = gt_skip_attr(g, i, n);
        if (j == i && !gt_is(g, &g->t[i], "inline"))
            break;
        i = j == i ? i + 1 : j;
    }
    if (i < n && gt_is(g, &g->t[i], "namespace"))
        return 1;
    if (n == 2 && gt_is(g, &g->t[0], "extern") && g->t[1].kind == GT_STR)
        return 1;
    if (n == 0)
        return 0;
    bool paren = false;
    for (i = 0; i < n;) {
        size_t j = gt_skip_attr(g, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        const struct gtok *t = &g->t[i];
        if (gt_p(g, t, '='))
            return 2;
        if (gt_p(g, t, '('))
            paren = true;
        i = (gt_p(g, t, '(') || gt_p(g, t, '[') || gt_p(g, t, '{')) ? gt_skip_group(g, i, n) : i + 1;
    }
    /* A class head or T v{...} (no parameter list): the brace belongs to
       the declaration. */
    return paren ? 0 : 2;
}

static char *alloc_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *alloc_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

static void add_insert(struct rw *w, size_t pos, char *text)
{
    if (!text) {
        w->oom = true;
        return;
    }
    if (w->nins == w->ins_cap) {
        size_t cap = w->ins_cap ? w->ins_cap * 2 : 16;
        struct insert *n = realloc(w->ins, cap * sizeof(*n));
        if (!n) {
            free(text);
            w->oom = true;
            return;
        }
        w->ins = n;
        w->ins_cap = cap;
    }
    w->ins[w->nins++] = (struct insert){pos, text};
}

/* The registration of variable t, after the ';' ending at pos. */
static void gt_register(struct gscan *g, const struct gtok *t, size_t pos)
{
    struct rw *w = g->w;
    int len = (int)t->len;
    const char *nm = w->s + t->pos;
    unsigned k = g->counter++;
    char *text;
    if (w->cxx)
        text = alloc_printf(
                     " static void __attribute__((constructor)) oacl__gm_reg_%u() { ::oacl_register_device_var("
                     "reinterpret_cast<const void *>(reinterpret_cast<__UINTPTR_TYPE__>(__builtin_addressof(%.*s))), "
                     "reinterpret_cast<void *>(reinterpret_cast<__UINTPTR_TYPE__>(__builtin_addressof(%.*s))), "
                     "sizeof(%.*s), \"%.*s\"); } static void __attribute__((destructor)) oacl__gm_unreg_%u() { "
                     "::oacl_unregister_device_var(reinterpret_cast<const void *>(reinterpret_cast<__UINTPTR_TYPE__>("
                     "__builtin_addressof(%.*s)))); }",
                     k, len, nm, len, nm, len, nm, len, nm, k, len, nm);
    else
        text = alloc_printf(
                     " static void __attribute__((constructor)) oacl__gm_reg_%u(void) { oacl__gm_register("
                     "(const void *)(__UINTPTR_TYPE__)&%.*s, (void *)(__UINTPTR_TYPE__)&%.*s, sizeof(%.*s), "
                     "\"%.*s\"); } static void __attribute__((destructor)) oacl__gm_unreg_%u(void) { "
                     "oacl__gm_unregister((const void *)(__UINTPTR_TYPE__)&%.*s); }",
                     k, len, nm, len, nm, len, nm, len, nm, k, len, nm);
    add_insert(w, pos, text);
    w->res->gm_vars++;
}

/* One declarator part [a, b) of the declaration: its variable's name, or
 * NULL when it declares something else (a function, a reference, ...).
 * `first`: the part that carries the specifiers. */
static const struct gtok *gt_declarator(const struct gscan *g, size_t a, size_t b, bool first, bool is_extern)
{
    const struct gtok *name = NULL;
    bool type_seen = false, init = false, qualified = false;
    for (size_t i = a; i < b;) {
        size_t j = gt_skip_attr(g, i, b);
        if (j != i) {
            i = j;
            continue;
        }
        const struct gtok *t = &g->t[i];
        if (gt_p(g, t, '=')) {
            init = true;
            break;
        }
        if (gt_p(g, t, '(') || gt_p(g, t, '&') || gt_is(g, t, "&&"))
            return NULL; /* function, parenthesised declarator, reference */
        if (gt_p(g, t, '['))
            break; /* array bounds follow the name */
        if (gt_p(g, t, '{')) {
            bool body = i > a && (GT_IN(g, &g->t[i - 1], g_tags) ||
                                  (i > a + 1 && GT_IN(g, &g->t[i - 2], g_tags) && g->t[i - 1].kind == GT_IDENT));
            if (!body) {
                init = true; /* T v{...} */
                break;
            }
            name = NULL;
            type_seen = true;
            i = gt_skip_group(g, i, b);
            continue;
        }
        if (gt_p(g, t, '<')) { /* template arguments of the type */
            int depth = 0;
            for (; i < b; i++) {
                if (gt_p(g, &g->t[i], '<'))
                    depth++;
                else if (gt_p(g, &g->t[i], '>') && --depth == 0)
                    break;
                else if (gt_p(g, &g->t[i], '(') || gt_p(g, &g->t[i], '['))
                    i = gt_skip_group(g, i, b) - 1;
            }
            i++;
            type_seen = true;
            name = NULL;
            continue;
        }
        if (t->kind == GT_IDENT && !GT_IN(g, t, g_quals)) {
            if (GT_IN(g, t, g_types) || GT_IN(g, t, g_tags)) {
                type_seen = true;
                name = NULL;
            } else if (i > a && GT_IN(g, &g->t[i - 1], g_tags)) {
                type_seen = true; /* a tag name */
            } else {
                if (name)
                    type_seen = true; /* the previous identifier was a type name */
                name = t;
                qualified = i > a && gt_is(g, &g->t[i - 1], "::");
            }
        }
        i++;
    }
    /* A qualified name defines a member declared elsewhere: its own scope
       is not this one. */
    if (!name || qualified || (first && !type_seen) || (is_extern && !init))
        return NULL;
    return name;
}

/* A namespace-scope declaration t[0..n) that ended with the ';' before pos. */
static void gt_declaration(struct gscan *g, size_t pos)
{
    size_t n = g->n;
    bool gm = false, is_extern = false;
    for (size_t i = 0; i < n;) {
        size_t j = gt_skip_attr(g, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        const struct gtok *t = &g->t[i];
        if (GT_IN(g, t, g_not_vars))
            return;
        if (gt_is(g, t, "__gm__"))
            gm = true;
        if (gt_is(g, t, "extern"))
            is_extern = true;
        if (gt_p(g, t, '='))
            break; /* the specifiers are before the first initializer */
        i = (gt_p(g, t, '(') || gt_p(g, t, '[') || gt_p(g, t, '{')) ? gt_skip_group(g, i, n) : i + 1;
    }
    if (!gm)
        return;
    /* Declarator parts: split at top-level commas (not inside template
       arguments before an initializer). */
    size_t a = 0;
    bool first = true, in_init = false;
    int angle = 0;
    for (size_t i = 0; i <= n;) {
        if (i == n || (angle == 0 && gt_p(g, &g->t[i], ','))) {
            const struct gtok *name = gt_declarator(g, a, i, first, is_extern);
            if (name)
                gt_register(g, name, pos);
            first = false;
            in_init = false;
            a = ++i;
            continue;
        }
        const struct gtok *t = &g->t[i];
        if (gt_p(g, t, '='))
            in_init = true;
        else if (!in_init && gt_p(g, t, '<'))
            angle++;
        else if (!in_init && gt_p(g, t, '>') && angle > 0)
            angle--;
        size_t j = gt_skip_attr(g, i, n);
        if (j != i)
            i = j;
        else if (gt_p(g, t, '(') || gt_p(g, t, '[') || gt_p(g, t, '{'))
            i = gt_skip_group(g, i, n);
        else
            i++;
    }
}

/* ---- registrations of linked kernels ------------------------------------------------- */

/*
 * With register_kernels, a namespace-scope definition of a `__global__`
 * function (not a template, not a qualified name) gets, on the line of its
 * closing brace, a static object whose constructor registers the kernel's
 * host address and descriptor with the runtime (aclrtGetFuncBySymbol) and
 * whose destructor forgets it (include/oacl/kernel_entry.hpp).
 */

/* The function name of a definition whose body opens after t[0..n), when
 * it is a __global__ kernel; NULL otherwise. */
static const struct gtok *gt_kernel_name(const struct gscan *g)
{
    size_t n = g->n;
    bool global = false;
    for (size_t i = 0; i < n;) {
        size_t j = gt_skip_attr(g, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        const struct gtok *t = &g->t[i];
        if (gt_is(g, t, "template") || gt_is(g, t, "operator"))
            return NULL;
        if (gt_is(g, t, "__global__"))
            global = true;
        if (gt_p(g, t, '(')) {
            if (!global || i == 0 || g->t[i - 1].kind != GT_IDENT || (i >= 2 && gt_is(g, &g->t[i - 2], "::")))
                return NULL;
            return &g->t[i - 1];
        }
        i = (gt_p(g, t, '[') || gt_p(g, t, '{')) ? gt_skip_group(g, i, n) : i + 1;
    }
    return NULL;
}

/* The registration of kernel `name`, after the '}' ending at pos. */
static void gt_register_kernel(struct gscan *g, const struct gtok *name, size_t pos)
{
    struct rw *w = g->w;
    int len = (int)name->len;
    const char *nm = w->s + name->pos;
    unsigned k = g->counter++;
    add_insert(w, pos,
               alloc_printf(" static const ::oacl::kentry::registration<&%.*s> oacl__kreg_%u __attribute__((unused)) "
                            "{\"%.*s\"};",
                            len, nm, k, len, nm));
    w->res->kernels++;
}

static void gt_push_tok(struct gscan *g, size_t pos, size_t len, enum gtok_kind kind)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        struct gtok *t = realloc(g->t, cap * sizeof(*t));
        if (!t) {
            g->w->oom = true;
            return;
        }
        g->t = t;
        g->cap = cap;
    }
    g->t[g->n++] = (struct gtok){pos, len, kind};
}

static void gt_push_scope(struct gscan *g, bool ns)
{
    if (g->depth == g->scope_cap) {
        size_t cap = g->scope_cap ? g->scope_cap * 2 : 32;
        bool *s = realloc(g->scope, cap * sizeof(*s));
        if (!s) {
            g->w->oom = true;
            return;
        }
        g->scope = s;
        g->scope_cap = cap;
    }
    g->scope[g->depth++] = ns;
    if (!ns)
        g->opaque++;
}

static void gt_reset(struct gscan *g)
{
    g->n = 0;
    g->paren = g->brace = 0;
}

/* One token at namespace scope (opaque == 0), or a brace anywhere. */
static void gt_token(struct gscan *g, size_t pos, size_t len, enum gtok_kind kind)
{
    char c = kind == GT_PUNCT ? g->w->s[pos] : 0;
    if (g->opaque) {
        if (c == '{') {
            gt_push_scope(g, false);
        } else if (c == '}' && g->depth) {
            if (!g->scope[--g->depth])
                g->opaque--;
            if (!g->opaque) {
                if (g->kernel) { /* the end of a kernel's body */
                    gt_register_kernel(g, &g->kernel_name, pos + 1);
                    g->kernel = NULL;
                }
                gt_reset(g);
            }
        }
        return;
    }
    if (c == '{' && g->paren == 0 && g->brace == 0) {
        int k = gt_brace_kind(g);
        if (k == 2) {
            g->brace++;
            gt_push_tok(g, pos, len, kind);
        } else {
            const struct gtok *kn = k == 0 && g->w->register_kernels ? gt_kernel_name(g) : NULL;
            if (kn) {
                g->kernel_name = *kn;
                g->kernel = &g->kernel_name;
            }
            gt_push_scope(g, k == 1);
            gt_reset(g);
        }
        return;
    }
    if (c == '}' && g->brace == 0) {
        if (g->depth && !g->scope[--g->depth])
            g->opaque--; /* cannot happen: opaque scopes are handled above */
        gt_reset(g);
        return;
    }
    if (c == ';' && g->paren == 0 && g->brace == 0) {
        gt_declaration(g, pos + 1);
        gt_reset(g);
        return;
    }
    if (c == '(' || c == '[')
        g->paren++;
    else if ((c == ')' || c == ']') && g->paren > 0)
        g->paren--;
    else if (c == '{')
        g->brace++;
    else if (c == '}')
        g->brace--;
    gt_push_tok(g, pos, len, kind);
}

static void find_gm_vars(struct rw *w)
{
    /* Nothing to find without the words: most sources stop here. */
    bool any = false;
    for (size_t i = w->start; i + 6 <= w->n && !any; i++)
        any = memcmp(w->s + i, "__gm__", 6) == 0 ||
              (w->register_kernels && i + 10 <= w->n && memcmp(w->s + i, "__global__", 10) == 0);
    if (!any)
        return;
    struct gscan g = {.w = w};
    bool bol = true;
    size_t i = w->start;
    while (i < w->n && !w->oom) {
        char c = w->s[i];
        if (c == '\n') {
            bol = true;
            i++;
        } else if (is_space(c) || (c == '\\' && i + 1 < w->n && w->s[i + 1] == '\n')) {
            i += c == '\\' ? 2 : 1;
        } else if (at(w, i, "//")) {
            i = skip_line_comment(w, i);
        } else if (at(w, i, "/*")) {
            i = skip_block_comment(w, i);
        } else if (bol && c == '#') {
            i = skip_line_comment(w, i); /* the whole directive, continuations included */
        } else {
            bol = false;
            size_t j;
            enum gtok_kind kind;
            if (c == '"' || c == '\'') {
                j = skip_quoted(w, i);
                kind = GT_STR;
            } else if (ident_start(c)) {
                j = i;
                while (j < w->n && ident_char(w->s[j]))
                    j++;
                size_t k = after_ident(w, i, j);
                kind = k == j ? GT_IDENT : GT_STR;
                j = k;
            } else if (is_digit(c) || (c == '.' && i + 1 < w->n && is_digit(w->s[i + 1]))) {
                j = skip_number(w, i);
                kind = GT_NUM;
            } else {
                j = i + ((at(w, i, "::") || at(w, i, "&&")) ? 2 : 1);
                kind = GT_PUNCT;
            }
            gt_token(&g, i, j - i, kind);
            i = j;
        }
    }
    free(g.t);
    free(g.scope);
}

/* A directive starting at '#' (i): an #include-like line is skipped whole;
 * for others only the '#' is consumed. */
static size_t do_directive(const struct rw *w, size_t i)
{
    size_t p = i + 1;
    while (p < w->n && (w->s[p] == ' ' || w->s[p] == '\t'))
        p++;
    size_t e = p;
    while (e < w->n && ident_char(w->s[e]))
        e++;
    static const char *const inc[] = {"include", "include_next", "import", "embed"};
    for (size_t k = 0; k < sizeof(inc) / sizeof(inc[0]); k++)
        if (e - p == strlen(inc[k]) && memcmp(w->s + p, inc[k], e - p) == 0)
            return skip_line_comment(w, e);
    return i + 1;
}

bool oacl_rewrite(const char *src, size_t len, bool cxx, struct oacl_rw_result *res)
{
    struct oacl_rw_options o = {.cxx = cxx};
    return oacl_rewrite_opts(src, len, &o, res);
}

bool oacl_rewrite_opts(const char *src, size_t len, const struct oacl_rw_options *opt, struct oacl_rw_result *res)
{
    memset(res, 0, sizeof(*res));
    bool cxx = opt->cxx;
    struct rw w = {.s = src, .n = len, .cxx = cxx, .register_kernels = cxx && opt->register_kernels, .res = res};
    bool bol = true;
    size_t i = 0;
    /* A UTF-8 byte-order mark is dropped: the rewritten text follows a
     * prelude, and a BOM in the middle of a file is an error. */
    if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
        i = w.copied = w.start = 3;
    find_gm_vars(&w);
    while (i < w.n) {
        char c = src[i];
        if (c == '\n') {
            bol = true;
            i++;
        } else if (is_space(c) || (c == '\\' && i + 1 < w.n && src[i + 1] == '\n')) {
            i += c == '\\' ? 2 : 1;
        } else if (at(&w, i, "//")) {
            i = skip_line_comment(&w, i);
        } else if (at(&w, i, "/*")) {
            i = skip_block_comment(&w, i);
        } else if (bol && c == '#') {
            bol = false;
            i = do_directive(&w, i);
        } else {
            bol = false;
            if (c == '"' || c == '\'') {
                i = skip_quoted(&w, i);
            } else if (ident_start(c)) {
                size_t j = i;
                while (j < w.n && ident_char(src[j]))
                    j++;
                size_t k = after_ident(&w, i, j);
                if (k == j && ((j - i == 3 && memcmp(src + i, "asm", 3) == 0) ||
                               (j - i == 5 && memcmp(src + i, "__asm", 5) == 0) ||
                               (j - i == 7 && memcmp(src + i, "__asm__", 7) == 0)))
                    k = do_asm(&w, i, j);
                i = k;
            } else if (is_digit(c) || (c == '.' && i + 1 < w.n && is_digit(src[i + 1]))) {
                i = skip_number(&w, i);
            } else if (at(&w, i, "<<<")) {
                i = do_launch(&w, i);
            } else {
                i++;
            }
        }
    }
    flush(&w, w.n);
    for (size_t k = 0; k < w.nins; k++)
        free(w.ins[k].text);
    free(w.ins);
    if (!w.out)
        put(&w, "", 0);
    if (w.oom) {
        free(w.out);
        res->ndiags = 1;
        res->diags[0].line = 0;
        snprintf(res->diags[0].msg, sizeof(res->diags[0].msg), "out of memory");
        return false;
    }
    if (res->ndiags) {
        free(w.out);
        return false;
    }
    res->text = w.out;
    res->len = w.len;
    return true;
}
