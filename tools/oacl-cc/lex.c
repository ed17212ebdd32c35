/*
 * oacl-cc lexer: tokens of a source's preprocessed output (with the file
 * and line each comes from), for the kernel scan.
 */
#include "oacl_cc.h"

bool oacl_tok_is(const struct oacl_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}

bool oacl_tok_p(const struct oacl_tok *t, char c)
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

void oacl_lex(struct oacl_lexed *lx, const char *p, const char *end, const char *path, bool cxx)
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
