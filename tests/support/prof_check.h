/*
 * Reading a profiling result directory in tests (profiling-and-tools.md
 * §4.2-4.4): the PROF_* directory, its files, the timeline JSON parsed with
 * cJSON, and the sanity of every track. Header-only.
 */
#ifndef OACL_TEST_PROF_CHECK_H
#define OACL_TEST_PROF_CHECK_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

/* True if name is PROF_<6 digits>_<17 digits>_<8 digits><8 letters A-R>. */
static inline bool pc_prof_name_ok(const char *n)
{
    if (strncmp(n, "PROF_", 5) != 0 || strlen(n) != 5 + 6 + 1 + 17 + 1 + 16)
        return false;
    const char *p = n + 5;
    for (int i = 0; i < 6; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    if (p[6] != '_')
        return false;
    for (int i = 7; i < 24; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    if (p[24] != '_')
        return false;
    for (int i = 25; i < 33; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    for (int i = 33; i < 41; i++)
        if (p[i] < 'A' || p[i] > 'R')
            return false;
    return true;
}

/* Number of PROF_* entries under base; the last one's path in out. */
static inline int pc_prof_dirs(const char *base, char *out, size_t len)
{
    DIR *d = opendir(base);
    int n = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "PROF_", 5) == 0) {
            n++;
            if (out)
                snprintf(out, len, "%.3000s/%.1000s", base, e->d_name);
        }
    closedir(d);
    return n;
}

/* The file in dir whose name starts with prefix and ends with suffix. */
static inline bool pc_find_file(const char *dir, const char *prefix, const char *suffix, char *out, size_t len)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct dirent *e;
    bool found = false;
    while (!found && (e = readdir(d))) {
        size_t n = strlen(e->d_name), s = strlen(suffix);
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && n >= s && strcmp(e->d_name + n - s, suffix) == 0) {
            snprintf(out, len, "%.3000s/%.1000s", dir, e->d_name);
            found = true;
        }
    }
    closedir(d);
    return found;
}

static inline char *pc_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = '\0';
    fclose(f);
    return b;
}

/* The timeline of a PROF_* directory, parsed; NULL if missing or invalid. */
static inline cJSON *pc_timeline(const char *prof)
{
    char out[4200], path[4400];
    snprintf(out, sizeof(out), "%.4000s/mindstudio_profiler_output", prof);
    if (!pc_find_file(out, "msprof_", ".json", path, sizeof(path)))
        return NULL;
    char *text = pc_read(path);
    if (!text)
        return NULL;
    cJSON *j = cJSON_Parse(text);
    free(text);
    if (j && !cJSON_IsArray(j)) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

static inline const char *pc_str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static inline double pc_num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static inline const cJSON *pc_args(const cJSON *o) { return cJSON_GetObjectItemCaseSensitive(o, "args"); }

/* process_name of a pid (metadata), NULL if none. */
static inline const char *pc_process(const cJSON *tl, double pid)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, tl)
    {
        const char *ph = pc_str(e, "ph"), *n = pc_str(e, "name");
        if (ph && !strcmp(ph, "M") && n && !strcmp(n, "process_name") && pc_num(e, "pid") == pid)
            return pc_str(pc_args(e), "name");
    }
    return NULL;
}

static inline const char *pc_thread(const cJSON *tl, double pid, double tid)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, tl)
    {
        const char *ph = pc_str(e, "ph"), *n = pc_str(e, "name");
        if (ph && !strcmp(ph, "M") && n && !strcmp(n, "thread_name") && pc_num(e, "pid") == pid &&
            pc_num(e, "tid") == tid)
            return pc_str(pc_args(e), "name");
    }
    return NULL;
}

/* "1738290030123456.789" -> ns; false unless exactly three decimals. */
static inline bool pc_ts_ns(const char *ts, uint64_t *ns)
{
    if (!ts)
        return false;
    const char *dot = strchr(ts, '.');
    if (!dot || strlen(dot + 1) != 3 || dot == ts)
        return false;
    uint64_t v = 0;
    for (const char *p = ts; *p; p++) {
        if (p == dot)
            continue;
        if (*p < '0' || *p > '9')
            return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *ns = v;
    return true;
}

struct pc_slice {
    double pid, tid;
    uint64_t start, end;
};

static int pc_cmp_slice(const void *a, const void *b)
{
    const struct pc_slice *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->end > y->end ? -1 : x->end < y->end ? 1 : 0;
}

/* Every X event: ts with 3 decimals, dur >= 0; and on every track the
 * slices, ordered by start, either follow or nest inside each other. */
static inline bool pc_tracks_sane(const cJSON *tl, char *why, size_t len)
{
    size_t n = 0, cap = (size_t)cJSON_GetArraySize(tl);
    struct pc_slice *s = calloc(cap ? cap : 1, sizeof(*s));
    const cJSON *e;
    bool ok = true;
    cJSON_ArrayForEach(e, tl)
    {
        const char *ph = pc_str(e, "ph");
        if (!ph || strcmp(ph, "X") != 0)
            continue;
        uint64_t ts;
        double dur = pc_num(e, "dur");
        if (!pc_ts_ns(pc_str(e, "ts"), &ts) || dur < 0) {
            snprintf(why, len, "event %s: bad ts or dur", pc_str(e, "name"));
            ok = false;
            break;
        }
        s[n++] = (struct pc_slice){pc_num(e, "pid"), pc_num(e, "tid"), ts, ts + (uint64_t)(dur * 1000.0 + 0.5)};
    }
    qsort(s, n, sizeof(*s), pc_cmp_slice);
    uint64_t stack[256];
    size_t depth = 0;
    for (size_t i = 0; ok && i < n; i++) {
        if (i == 0 || s[i].pid != s[i - 1].pid || s[i].tid != s[i - 1].tid)
            depth = 0;
        while (depth && stack[depth - 1] <= s[i].start)
            depth--;
        if (depth && s[i].end > stack[depth - 1]) {
            snprintf(why, len, "track %.0f/%.0f: a slice at %llu overlaps its predecessor without nesting", s[i].pid,
                     s[i].tid, (unsigned long long)s[i].start);
            ok = false;
        }
        if (depth < 256)
            stack[depth++] = s[i].end;
    }
    free(s);
    return ok;
}

/* Lines of a text file (>= 1 for a header). */
static inline int pc_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; p && *p; p++)
        n += *p == '\n';
    return n;
}

#endif /* OACL_TEST_PROF_CHECK_H */
