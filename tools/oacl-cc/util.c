/*
 * oacl-cc utilities: memory that is all released at exit (sanitizer builds
 * of the driver run with leak detection), diagnostics, growable strings and
 * argument vectors, whole-file reads and writes.
 */
#include "oacl_cc.h"

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

void *oacl_xrealloc(void *p, size_t n)
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

void *oacl_xmalloc(size_t n) { return oacl_xrealloc(NULL, n); }

void *oacl_xcalloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) {
        fputs("oacl-cc: error: out of memory\n", stderr);
        exit(1);
    }
    void *p = oacl_xmalloc(n * size);
    memset(p, 0, n * size);
    return p;
}

void oacl_xfree(void *p)
{
    if (!p)
        return;
    union oacl_mhdr *h = (union oacl_mhdr *)p - 1;
    oacl_munlink(h);
    free(h);
}

void oacl_free_all(void)
{
    while (g_mem.l.next != &g_mem) {
        union oacl_mhdr *h = g_mem.l.next;
        oacl_munlink(h);
        free(h);
    }
}

char *oacl_strndup(const char *s, size_t n)
{
    char *d = oacl_xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *oacl_strdup(const char *s) { return oacl_strndup(s, strlen(s)); }

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

char *oacl_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = oacl_vfmt(fmt, ap);
    va_end(ap);
    return s;
}

unsigned g_errors; /* diagnostics so far; the run fails if any */

void oacl_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("oacl-cc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    g_errors++;
}

_Noreturn void oacl_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("oacl-cc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void oacl_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("oacl-cc: note: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void oacl_buf_putn(struct oacl_buf *b, const char *s, size_t n)
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

void oacl_buf_puts(struct oacl_buf *b, const char *s) { oacl_buf_putn(b, s, strlen(s)); }

void oacl_buf_printf(struct oacl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = oacl_vfmt(fmt, ap);
    va_end(ap);
    oacl_buf_puts(b, s);
    oacl_xfree(s);
}

void oacl_argv_push(struct oacl_argv *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->v = oacl_xrealloc(a->v, a->cap * sizeof(*a->v));
    }
    a->v[a->n++] = oacl_strdup(s);
    a->v[a->n] = NULL;
}

void oacl_argv_pushf(struct oacl_argv *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = oacl_vfmt(fmt, ap);
    va_end(ap);
    oacl_argv_push(a, s);
    oacl_xfree(s);
}

void oacl_argv_append(struct oacl_argv *a, const struct oacl_argv *b)
{
    for (size_t i = 0; i < b->n; i++)
        oacl_argv_push(a, b->v[i]);
}

void oacl_argv_free(struct oacl_argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        oacl_xfree(a->v[i]);
    oacl_xfree(a->v);
    memset(a, 0, sizeof(*a));
}

bool oacl_starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

char *oacl_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return oacl_strdup(".");
    if (slash == path)
        return oacl_strdup("/");
    return oacl_strndup(path, (size_t)(slash - path));
}

char *oacl_read_file(const char *path, size_t *len)
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

void oacl_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        oacl_fatal("cannot write '%s': %s", path, strerror(errno));
    bool ok = fputs(text, f) >= 0;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        oacl_fatal("cannot write '%s'", path);
}
