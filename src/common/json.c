#include "common/json.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 10

struct parser {
    const char *s, *end;
    const char *err;
    int objects, arrays; /* current nesting */
};

static void skip_ws(struct parser *p)
{
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
        p->s++;
}

static struct oacl_json *new_value(struct parser *p, enum oacl_json_type t)
{
    struct oacl_json *v = calloc(1, sizeof(*v));
    if (!v)
        p->err = "out of memory";
    else
        v->type = t;
    return v;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Parses a string at p->s (on the opening quote); returns a malloc'd copy. */
static char *parse_string(struct parser *p, size_t *len_out)
{
    p->s++;
    size_t cap = 16, n = 0;
    char *out = malloc(cap);
    if (!out) {
        p->err = "out of memory";
        return NULL;
    }
    while (p->s < p->end && *p->s != '"') {
        unsigned char c = (unsigned char)*p->s++;
        char buf[4];
        size_t blen = 1;
        buf[0] = (char)c;
        if (c < 0x20) {
            p->err = "control character in string";
            free(out);
            return NULL;
        }
        if (c == '\\') {
            if (p->s >= p->end)
                break;
            char e = *p->s++;
            switch (e) {
            case '"': case '\\': case '/': buf[0] = e; break;
            case 'b': buf[0] = '\b'; break;
            case 'f': buf[0] = '\f'; break;
            case 'n': buf[0] = '\n'; break;
            case 'r': buf[0] = '\r'; break;
            case 't': buf[0] = '\t'; break;
            case 'u': {
                unsigned cp = 0;
                for (int i = 0; i < 4; i++) {
                    int h = p->s < p->end ? hexval(*p->s++) : -1;
                    if (h < 0) {
                        p->err = "bad \\u escape";
                        free(out);
                        return NULL;
                    }
                    cp = cp * 16 + (unsigned)h;
                }

                /* UTF-8 encode (surrogates kept as-is: the values are only compared). */
                if (cp < 0x80) {
                    buf[0] = (char)cp;
                } else if (cp < 0x800) {
                    buf[0] = (char)(0xC0 | (cp >> 6));
                    buf[1] = (char)(0x80 | (cp & 0x3F));
                    blen = 2;
                } else {
                    buf[0] = (char)(0xE0 | (cp >> 12));
                    buf[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
                    buf[2] = (char)(0x80 | (cp & 0x3F));
                    blen = 3;
                }
                break;
            }
            default:
                p->err = "bad escape in string";
                free(out);
                return NULL;
            }
        }
        if (n + blen + 1 > cap) {
            cap *= 2;
            char *g = realloc(out, cap);
            if (!g) {
                p->err = "out of memory";
                free(out);
                return NULL;
            }
            out = g;
        }
        memcpy(out + n, buf, blen);
        n += blen;
    }
    if (p->s >= p->end) {
        p->err = "unterminated string";
        free(out);
        return NULL;
    }
    p->s++; /* closing quote */
    out[n] = '\0';
    if (len_out)
        *len_out = n;
    return out;
}

static struct oacl_json *parse_value(struct parser *p);

static struct oacl_json *parse_container(struct parser *p, int is_object)
{
    int *depth = is_object ? &p->objects : &p->arrays;
    if (++*depth > MAX_DEPTH) {
        p->err = is_object ? "objects nested more than 10 levels" : "arrays nested more than 10 levels";
        return NULL;
    }
    struct oacl_json *v = new_value(p, is_object ? OACL_JSON_OBJECT : OACL_JSON_ARRAY);
    if (!v)
        return NULL;
    char close = is_object ? '}' : ']';
    p->s++;
    skip_ws(p);
    struct oacl_json **tail = &v->child;
    if (p->s < p->end && *p->s == close) {
        p->s++;
        --*depth;
        return v;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(p);
        if (is_object) {
            if (p->s >= p->end || *p->s != '"') {
                p->err = "expected a member name";
                goto fail;
            }
            key = parse_string(p, NULL);
            if (!key)
                goto fail;
            skip_ws(p);
            if (p->s >= p->end || *p->s != ':') {
                free(key);
                p->err = "expected ':'";
                goto fail;
            }
            p->s++;
        }
        struct oacl_json *item = parse_value(p);
        if (!item) {
            free(key);
            goto fail;
        }
        item->key = key;
        *tail = item;
        tail = &item->next;
        skip_ws(p);
        if (p->s < p->end && *p->s == ',') {
            p->s++;
            continue;
        }
        if (p->s < p->end && *p->s == close) {
            p->s++;
            break;
        }
        p->err = is_object ? "expected ',' or '}'" : "expected ',' or ']'";
        goto fail;
    }
    --*depth;
    return v;
fail:
    oacl_json_free(v);
    return NULL;
}

static int match_word(struct parser *p, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(p->end - p->s) >= n && memcmp(p->s, w, n) == 0) {
        p->s += n;
        return 1;
    }
    return 0;
}

static struct oacl_json *parse_number(struct parser *p)
{
    const char *start = p->s;
    if (p->s < p->end && *p->s == '-')
        p->s++;
    if (p->s >= p->end || !((*p->s >= '0' && *p->s <= '9'))) {
        p->err = "invalid value";
        return NULL;
    }
    if (*p->s == '0')
        p->s++;
    else
        while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
            p->s++;
    if (p->s < p->end && *p->s == '.') {
        p->s++;
        if (p->s >= p->end || !(*p->s >= '0' && *p->s <= '9')) {
            p->err = "invalid number";
            return NULL;
        }
        while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
            p->s++;
    }
    if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
        p->s++;
        if (p->s < p->end && (*p->s == '+' || *p->s == '-'))
            p->s++;
        if (p->s >= p->end || !(*p->s >= '0' && *p->s <= '9')) {
            p->err = "invalid number";
            return NULL;
        }
        while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
            p->s++;
    }
    struct oacl_json *v = new_value(p, OACL_JSON_NUMBER);
    if (v) {
        char buf[64];
        size_t n = (size_t)(p->s - start);
        if (n >= sizeof(buf))
            n = sizeof(buf) - 1;
        memcpy(buf, start, n);
        buf[n] = '\0';
        v->num = strtod(buf, NULL);
    }
    return v;
}

static struct oacl_json *parse_value(struct parser *p)
{
    skip_ws(p);
    if (p->s >= p->end) {
        p->err = "unexpected end of text";
        return NULL;
    }
    char c = *p->s;
    if (c == '{' || c == '[')
        return parse_container(p, c == '{');
    if (c == '"') {
        size_t n = 0;
        char *s = parse_string(p, &n);
        if (!s)
            return NULL;
        struct oacl_json *v = new_value(p, OACL_JSON_STRING);
        if (!v) {
            free(s);
            return NULL;
        }
        v->str = s;
        v->len = n;
        return v;
    }
    if (match_word(p, "true") || match_word(p, "false")) {
        struct oacl_json *v = new_value(p, OACL_JSON_BOOL);
        if (v)
            v->boolean = p->s[-1] == 'e' && p->s[-2] == 'u';
        return v;
    }
    if (match_word(p, "null"))
        return new_value(p, OACL_JSON_NULL);
    return parse_number(p);
}

struct oacl_json *oacl_json_parse(const char *text, size_t len, const char **err, size_t *err_offset)
{
    struct parser p = {.s = text, .end = text + len};
    *err = NULL;
    *err_offset = 0;
    skip_ws(&p);
    if (p.s >= p.end)
        return NULL;
    struct oacl_json *v = parse_value(&p);
    if (v) {
        skip_ws(&p);
        if (p.s < p.end) {
            p.err = "text after the top-level value";
            oacl_json_free(v);
            v = NULL;
        }
    }
    if (!v) {
        *err = p.err ? p.err : "invalid JSON";
        *err_offset = (size_t)(p.s - text);
    }
    return v;
}

void oacl_json_free(struct oacl_json *v)
{
    while (v) {
        struct oacl_json *next = v->next;
        oacl_json_free(v->child);
        free(v->key);
        free(v->str);
        free(v);
        v = next;
    }
}

const struct oacl_json *oacl_json_get(const struct oacl_json *obj, const char *key)
{
    if (!obj || obj->type != OACL_JSON_OBJECT)
        return NULL;
    for (const struct oacl_json *m = obj->child; m; m = m->next)
        if (m->key && strcmp(m->key, key) == 0)
            return m;
    return NULL;
}
