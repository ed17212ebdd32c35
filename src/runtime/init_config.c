/*
 * The aclInit configuration file: read (at most 10 MiB, as CANN), parsed
 * with cJSON (Debian's libcjson), checked against the limits of the
 * configuration format; the values of the keys with an effect are handed
 * back for aclInit to apply at their positions (init.c).
 *
 * cJSON accepts a few forms strict JSON does not (leading zeros, "1.",
 * malformed \u escapes, raw control characters in strings) and silently
 * cuts a string at a \u0000 escape. A short scan of the raw text before the
 * parse keeps what matters for a configuration: the nesting limits (10
 * levels of objects, 10 of arrays, counted separately), no NUL bytes, no
 * raw control characters in strings; and it turns each \u0000 escape into
 * \uFFFF (same length), a character no configuration value accepts, so
 * that a value such as "1\u0000x" can never pass for "1".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "runtime/runtime.h"

#define CONFIG_MAX_BYTES (10u << 20) /* CANN: 10 MiB */
#define CONFIG_MAX_DEPTH 10

/* Line and column (from 1) of byte `at` of text. */
static void line_col(const char *text, size_t at, unsigned *line, unsigned *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

/* The raw-text rules cJSON does not enforce; NULL when the text keeps
 * them, else what is wrong with *at the byte where it was found. Rewrites
 * \u0000 escapes in place (see the top of the file). Strings are skipped
 * for the nesting count; an unterminated one is left to the parser. */
static const char *scan(char *text, size_t len, size_t *at)
{
    unsigned objects = 0, arrays = 0;
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        *at = i;
        if (c == '\0')
            return "a NUL byte";
        if (in_string) {
            if (c == '"') {
                in_string = false;
            } else if (c < 0x20) {
                return "a control character inside a string";
            } else if (c == '\\' && i + 1 < len) {
                if (text[i + 1] == 'u' && len - i >= 6 && memcmp(text + i + 2, "0000", 4) == 0)
                    memcpy(text + i + 2, "FFFF", 4); /* see above */
                i++; /* the escaped character cannot end the string */
            }
            continue;
        }
        switch (c) {
        case '"':
            in_string = true;
            break;
        case '{':
            if (++objects > CONFIG_MAX_DEPTH)
                return "objects nested more than 10 levels";
            break;
        case '[':
            if (++arrays > CONFIG_MAX_DEPTH)
                return "arrays nested more than 10 levels";
            break;
        case '}':
            if (objects)
                objects--;
            break;
        case ']':
            if (arrays)
                arrays--;
            break;
        default:
            break;
        }
    }
    return NULL;
}

/* Checks the configuration keys that have a visible effect and collects
 * their values (applied by aclInit at their positions). */
static aclError read_settings(const cJSON *root, const char *path, struct oacl_init_settings *out)
{
    out->global_msgs = false;
    out->default_device = -1;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "err_msg_mode");
    if (v) {
        const char *s = cJSON_GetStringValue(v);
        if (!s || (strcmp(s, "0") != 0 && strcmp(s, "1") != 0))
            return oacl_fail(ACL_ERROR_INVALID_PARAM, "aclInit", "%s: err_msg_mode must be \"0\" or \"1\"", path);
        out->global_msgs = s[0] == '1';
    }
    const cJSON *dd = cJSON_GetObjectItemCaseSensitive(root, "defaultDevice");
    if (dd) {
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(dd, "default_device"));
        char *end = NULL;
        long n = -1;
        if (s && s[0] >= '0' && s[0] <= '9')
            n = strtol(s, &end, 10);
        if (!end || *end || n < 0 || n >= (long)oacl_config()->device_count)
            return oacl_fail(ACL_ERROR_INVALID_PARAM, "aclInit",
                             "%s: defaultDevice.default_device must be a device id string in \"0\"..\"%u\"", path,
                             oacl_config()->device_count ? oacl_config()->device_count - 1 : 0);
        out->default_device = (int32_t)n;
    }
    return ACL_SUCCESS;
}

static bool all_blank(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!strchr(" \t\r\n", text[i]))
            return false;
    return true;
}

aclError oacl_config_parse(const char *raw, size_t len, const char *path, struct oacl_init_settings *out)
{
    out->global_msgs = false;
    out->default_device = -1;
    if (all_blank(raw, len))
        return ACL_SUCCESS; /* an empty configuration */
    /* The scan rewrites \u0000 escapes: work on a copy, the raw text goes
       to the init callbacks. */
    char *text = malloc(len + 1);
    if (!text)
        return oacl_fail(ACL_ERROR_BAD_ALLOC, "aclInit", "out of memory");
    memcpy(text, raw, len);
    text[len] = '\0';
    size_t at = 0;
    unsigned line, col;
    aclError rc;
    const char *bad = scan(text, len, &at);
    if (bad) {
        line_col(text, at, &line, &col);
        rc = oacl_fail(ACL_ERROR_PARSE_FILE, "aclInit",
                       "configuration file '%s' is not valid JSON: %s at line %u, column %u", path, bad, line, col);
        free(text);
        return rc;
    }
    const char *end = NULL;
    /* The length includes the terminating NUL: cJSON then checks that
       nothing but blanks follows the top-level value. */
    cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    if (!root) {
        at = end && end >= text && end <= text + len ? (size_t)(end - text) : len;
        line_col(text, at, &line, &col);
        rc = oacl_fail(ACL_ERROR_PARSE_FILE, "aclInit",
                       "configuration file '%s' is not valid JSON: syntax error at line %u, column %u", path, line,
                       col);
        free(text);
        return rc;
    }
    /* A root that is not an object configures nothing (CANN accepts it). */
    rc = cJSON_IsObject(root) ? read_settings(root, path, out) : ACL_SUCCESS;
    cJSON_Delete(root);
    free(text);
    return rc;
}

aclError oacl_config_file_read(const char *path, char **text_out, size_t *len_out, bool *too_large)
{
    *too_large = false;
    FILE *f = fopen(path, "rb");
    if (!f)
        return oacl_fail(ACL_ERROR_INVALID_FILE, "aclInit", "cannot read configuration file '%s': %s", path,
                         strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > CONFIG_MAX_BYTES) {
        fclose(f);
        *too_large = true;
        return ACL_SUCCESS;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap + 1);
    bool read_error = false;
    while (text) {
        size_t n = fread(text + len, 1, cap - len, f);
        len += n;
        if (n == 0 || len > CONFIG_MAX_BYTES) {
            read_error = ferror(f);
            break;
        }
        if (len == cap) {
            size_t ncap = cap * 2 > CONFIG_MAX_BYTES + 1 ? CONFIG_MAX_BYTES + 1 : cap * 2;
            char *t = ncap > cap ? realloc(text, ncap + 1) : text;
            if (!t) {
                free(text);
                text = NULL;
                break;
            }
            text = t;
            cap = ncap;
        }
    }
    fclose(f);
    if (!text)
        return oacl_fail(ACL_ERROR_BAD_ALLOC, "aclInit", "out of memory");
    if (read_error) {
        free(text);
        return oacl_fail(ACL_ERROR_INVALID_FILE, "aclInit", "cannot read configuration file '%s'", path);
    }
    if (len > CONFIG_MAX_BYTES) { /* grew while being read */
        free(text);
        *too_large = true;
        return ACL_SUCCESS;
    }
    text[len] = '\0';
    *text_out = text;
    *len_out = len;
    return ACL_SUCCESS;
}
