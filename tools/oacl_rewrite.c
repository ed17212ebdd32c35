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
    char *out;
    size_t len, cap;
    bool oom;
    size_t copied; /* s[0..copied) is already in out */
    size_t start;  /* first byte of the text proper (after a byte-order mark) */
    struct oacl_rw_result *res;
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

/* Copies the source up to `to` (exclusive) into the output. */
static void flush(struct rw *w, size_t to)
{
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
    memset(res, 0, sizeof(*res));
    struct rw w = {.s = src, .n = len, .cxx = cxx, .res = res};
    bool bol = true;
    size_t i = 0;
    /* A UTF-8 byte-order mark is dropped: the rewritten text follows a
     * prelude, and a BOM in the middle of a file is an error. */
    if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
        i = w.copied = w.start = 3;
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
