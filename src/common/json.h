/*
 * A small JSON reader for the aclInit configuration file: parses the whole
 * text into a tree, enforcing the nesting limits of the configuration
 * format (at most 10 levels of objects and 10 of arrays).
 */
#ifndef OACL_COMMON_JSON_H
#define OACL_COMMON_JSON_H

#include <stddef.h>

enum oacl_json_type { OACL_JSON_NULL, OACL_JSON_BOOL, OACL_JSON_NUMBER, OACL_JSON_STRING, OACL_JSON_ARRAY, OACL_JSON_OBJECT };

struct oacl_json {
    enum oacl_json_type type;
    char *key;               /* member name inside an object */
    char *str;               /* string value (decoded, NUL-terminated) */
    size_t len;              /* its length: a \u0000 escape puts a NUL inside */
    double num;
    int boolean;
    struct oacl_json *child; /* first element / member */
    struct oacl_json *next;  /* next sibling */
};

/*
 * Parses text[0..len). Returns the root (NULL for an empty or all-blank
 * text, with *err NULL) or NULL with *err describing the problem (a static
 * string) and *err_offset the byte where it was found.
 */
struct oacl_json *oacl_json_parse(const char *text, size_t len, const char **err, size_t *err_offset);
void oacl_json_free(struct oacl_json *v);
/* Member `key` of an object, or NULL. */
const struct oacl_json *oacl_json_get(const struct oacl_json *obj, const char *key);

#endif /* OACL_COMMON_JSON_H */
