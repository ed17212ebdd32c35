/*
 * oacl-cc kernel scan: the __global__ kernels of the preprocessed sources,
 * their linkage, qualified names and parameter lists (g_kernels).
 */
#include "oacl_cc.h"

struct oacl_kernel *g_kernels;
size_t g_nkernels;

bool g_gnu_unique;

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

void oacl_scan_source(size_t idx, const char *ipath)
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
void oacl_check_kernels(void)
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
