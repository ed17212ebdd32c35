/*
 * Dump configuration (acl-rt-misc.md §3.3) and the acl_dump.h helpers
 * (profiling-and-tools.md §3.6): aclmdlInitDump / SetDump / FinalizeDump,
 * the "dump" member of the aclInit file, the selection of kernel launches
 * at enqueue, the exception-dump paths, acldumpSaveExceptionInfo and the
 * dump callback. The files themselves are written by common/dump_writer.c
 * while launches run.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "acl/acl_dump.h"
#include "common/addr_registry.h"
#include "common/dump.h"
#include "common/log.h"
#include "runtime/dump.h"
#include "runtime/runtime.h"

#define DUMP_FILE_MAX (10u << 20)
#define MAX_NAMES 1024

/* A validated, applicable "dump" object. */
struct cfg {
    enum { K_NONE = 0, K_DATA, K_OVERFLOW, K_EXCEPTION } kind;
    bool input, output, op_switch, stats;
    char path[PATH_MAX];              /* absolute; "" for exception scenes without one */
    char *layers[MAX_NAMES];          /* kernels listed by items without model_name */
    unsigned nlayers;
    char *black[MAX_NAMES];           /* blacklisted kernel names */
    unsigned nblack;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static bool g_session;                /* aclmdlInitDump .. aclmdlFinalizeDump; survives aclFinalize */
static struct cfg *g_data;            /* data dump in force, NULL: none */
static char g_data_dir[PATH_MAX + 32];/* <dump_path>/<YYYYMMDDhhmmss> */
static bool g_overflow;
static char g_overflow_dir[PATH_MAX + 32];
static bool g_exception_applied;      /* first exception configuration wins */
static char g_exc_dir[PATH_MAX + 64]; /* what acldumpGetPath hands out */

static void cfg_free(struct cfg *c)
{
    if (!c)
        return;
    for (unsigned i = 0; i < c->nlayers; i++)
        free(c->layers[i]);
    for (unsigned i = 0; i < c->nblack; i++)
        free(c->black[i]);
    free(c);
}

/* ---- validation (§3.3.3) ----------------------------------------------------------- */

static const char *str_member(const cJSON *o, const char *name, bool *type_ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!v)
        return NULL;
    if (!cJSON_IsString(v)) {
        *type_ok = false;
        return NULL;
    }
    return v->valuestring;
}

static bool one_of(const char *v, const char *const *allowed)
{
    for (size_t i = 0; allowed[i]; i++)
        if (strcmp(v, allowed[i]) == 0)
            return true;
    return false;
}

static bool string_array(const cJSON *a)
{
    if (!cJSON_IsArray(a))
        return false;
    for (const cJSON *it = a->child; it; it = it->next)
        if (!cJSON_IsString(it))
            return false;
    return true;
}

static bool object_array(const cJSON *a)
{
    if (!cJSON_IsArray(a))
        return false;
    for (const cJSON *it = a->child; it; it = it->next)
        if (!cJSON_IsObject(it))
            return false;
    return true;
}

static bool dump_step_ok(const char *s)
{
    int items = 0;
    const char *p = s;
    while (*p) {
        char *end;
        if (*p < '0' || *p > '9')
            return false;
        unsigned long a = strtoul(p, &end, 10), b = a;
        p = end;
        if (*p == '-') {
            p++;
            if (*p < '0' || *p > '9')
                return false;
            b = strtoul(p, &end, 10);
            p = end;
        }
        if (a > b || ++items > 100)
            return false;
        if (*p == '|') {
            p++;
            if (!*p)
                return false;
        } else if (*p) {
            return false;
        }
    }
    return items > 0;
}

/* "a.b.c.d:/path": the path part (Decision 20), else NULL. */
static const char *ip_form(const char *s)
{
    const char *colon = strchr(s, ':');
    if (!colon || colon - s > 15 || colon[1] != '/')
        return NULL;
    char ip[16];
    memcpy(ip, s, (size_t)(colon - s));
    ip[colon - s] = '\0';
    struct in_addr a;
    return inet_pton(AF_INET, ip, &a) == 1 ? colon + 1 : NULL;
}

static bool rw_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode) && access(p, R_OK | W_OK) == 0;
}

static bool absolute(const char *path, char *out, size_t len)
{
    char cwd[PATH_MAX] = "";
    if (path[0] != '/' && !getcwd(cwd, sizeof(cwd)))
        return false;
    size_t a = strlen(cwd), b = strlen(path);
    if (a + b + 2 > len)
        return false;
    memcpy(out, cwd, a);
    if (a)
        out[a++] = '/';
    memcpy(out + a, path, b + 1);
    return true;
}

static bool add_name(char **arr, unsigned *n, const char *s)
{
    if (*n >= MAX_NAMES)
        return true;
    char *d = strdup(s);
    if (!d)
        return false;
    arr[(*n)++] = d;
    return true;
}

/* Checks a "dump" object; NULL with *why on a violation. *out = NULL with
 * no error: nothing to enable. */
static bool validate(const cJSON *dump, struct cfg **out, char *why, size_t whylen)
{
    *out = NULL;
#define BAD(...) (snprintf(why, whylen, __VA_ARGS__), false)
    if (!cJSON_IsObject(dump))
        return BAD("\"dump\" must be an object");
    if (!dump->child)
        return true; /* "dump": {} enables nothing */
    bool types = true;
    const char *path = str_member(dump, "dump_path", &types);
    const char *mode = str_member(dump, "dump_mode", &types);
    const char *data = str_member(dump, "dump_data", &types);
    const char *op_switch = str_member(dump, "dump_op_switch", &types);
    const char *level = str_member(dump, "dump_level", &types);
    const char *debug = str_member(dump, "dump_debug", &types);
    const char *scene = str_member(dump, "dump_scene", &types);
    const char *step = str_member(dump, "dump_step", &types);
    const char *kdata = str_member(dump, "dump_kernel_data", &types);
    if (!types)
        return BAD("a string member of \"dump\" is not a string");
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(dump, "dump_stats");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(dump, "dump_list");
    if (stats && !string_array(stats))
        return BAD("dump_stats must be an array of strings");
    if (list && !object_array(list))
        return BAD("dump_list must be an array of objects");
    static const char *const modes[] = {"input", "output", "all", NULL};
    static const char *const datas[] = {"tensor", "stats", NULL};
    static const char *const onoff[] = {"on", "off", NULL};
    static const char *const levels[] = {"op", "kernel", "all", NULL};
    static const char *const scenes[] = {"lite_exception", "aic_err_brief_dump", "aic_err_norm_dump",
                                         "aic_err_detail_dump", "watcher", NULL};
    static const char *const kitems[] = {"all", "printf", "tensor", "assert", "timestamp", NULL};
    static const char *const stat_names[] = {"Max", "Min", "Avg", "Nan", "Negative Inf", "Positive Inf", "L2norm",
                                             NULL};
    if (mode && !one_of(mode, modes))
        return BAD("dump_mode '%s' is not input, output or all", mode);
    if (data && !one_of(data, datas))
        return BAD("dump_data '%s' is not tensor or stats", data);
    if (op_switch && !one_of(op_switch, onoff))
        return BAD("dump_op_switch must be on or off");
    if (level && !one_of(level, levels))
        return BAD("dump_level '%s' is not op, kernel or all", level);
    if (debug && !one_of(debug, onoff))
        return BAD("dump_debug must be on or off");
    if (scene && !one_of(scene, scenes))
        return BAD("dump_scene '%s' is unknown", scene);
    if (kdata) {
        char buf[256];
        snprintf(buf, sizeof(buf), "%s", kdata);
        char *save = NULL;
        bool any = false;
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save), any = true)
            if (!one_of(t, kitems))
                return BAD("dump_kernel_data item '%s' is unknown", t);
        if (!any)
            return BAD("dump_kernel_data is empty");
    }
    for (const cJSON *it = stats ? stats->child : NULL; it; it = it->next)
        if (!one_of(it->valuestring, stat_names))
            return BAD("dump_stats entry '%s' is unknown", it->valuestring);
    bool on_switch = op_switch && !strcmp(op_switch, "on");
    bool on_debug = debug && !strcmp(debug, "on");
    bool watcher = scene && !strcmp(scene, "watcher");
    bool exception = scene && !watcher;
    if (exception) {
        if (on_debug || on_switch)
            return BAD("an exception dump_scene excludes dump_debug and dump_op_switch on");
        struct cfg *c = calloc(1, sizeof(*c));
        if (!c)
            return BAD("out of memory");
        c->kind = K_EXCEPTION;
        if (path && *path)
            absolute(ip_form(path) ? ip_form(path) : path, c->path, sizeof(c->path));
        *out = c;
        return true;
    }
    if (watcher && (on_debug || on_switch || (mode && strcmp(mode, "output") != 0)))
        return BAD("dump_scene watcher needs dump_mode output and no dump_debug / dump_op_switch on");
    if (!path || !*path || strlen(path) > 512)
        return BAD("dump_path is missing, empty or longer than 512 characters");
    const char *local = ip_form(path);
    if (!local && !rw_dir(path))
        return BAD("dump_path '%s' is not an existing directory the process can read and write", path);
    if (on_debug && on_switch)
        return BAD("dump_debug on excludes dump_op_switch on");
    bool has_list = list && list->child;
    if (!on_debug) {
        if (step && !dump_step_ok(step))
            return BAD("dump_step '%s' is not N or N-M items joined by |", step);
        for (const cJSON *it = has_list ? list->child : NULL; it; it = it->next) {
            bool t2 = true;
            const char *model = str_member(it, "model_name", &t2);
            const cJSON *layer = cJSON_GetObjectItemCaseSensitive(it, "layer");
            const cJSON *watch = cJSON_GetObjectItemCaseSensitive(it, "watcher_nodes");
            if (!t2 || (layer && !string_array(layer)) || (watch && !string_array(watch)))
                return BAD("a dump_list item has a member of the wrong type");
            if (!on_switch && model && !*model)
                return BAD("a dump_list item has an empty model_name");
            if (!on_switch && layer && !layer->child)
                return BAD("a dump_list item has an empty layer");
            if (watcher && (!watch || !watch->child || model))
                return BAD("with dump_scene watcher every item needs watcher_nodes and no model_name");
            if (!watcher && watch && watch->child)
                return BAD("watcher_nodes needs dump_scene watcher");
            static const char *const bl[] = {"optype_blacklist", "opname_blacklist", NULL};
            for (int b = 0; bl[b]; b++) {
                const cJSON *arr = cJSON_GetObjectItemCaseSensitive(it, bl[b]);
                if (!arr)
                    continue;
                if (!object_array(arr) || cJSON_GetArraySize(arr) > 100 || !level || strcmp(level, "op") != 0)
                    return BAD("%s: at most 100 objects, and only with dump_level op", bl[b]);
                for (const cJSON *e = arr->child; e; e = e->next) {
                    bool t3 = true;
                    str_member(e, "name", &t3);
                    const cJSON *pos = cJSON_GetObjectItemCaseSensitive(e, "pos");
                    if (!t3 || (pos && !string_array(pos)))
                        return BAD("%s entries are {\"name\": string, \"pos\": [strings]}", bl[b]);
                }
            }
            const cJSON *range = cJSON_GetObjectItemCaseSensitive(it, "opname_range");
            if (range) {
                if (!object_array(range) || !level || strcmp(level, "op") != 0 || !model || !*model)
                    return BAD("opname_range needs dump_level op and a model_name");
                for (const cJSON *e = range->child; e; e = e->next) {
                    bool t3 = true;
                    const char *b = str_member(e, "begin", &t3), *en = str_member(e, "end", &t3);
                    if (!t3 || !b || !*b || !en || !*en)
                        return BAD("opname_range entries need non-empty begin and end");
                }
            }
        }
        if (stats && (!stats->child || !data || strcmp(data, "stats") != 0))
            return BAD("dump_stats must be non-empty and needs dump_data stats");
    }
    if (!has_list && !on_switch && !on_debug && !scene)
        return true; /* valid, enables nothing */
    struct cfg *c = calloc(1, sizeof(*c));
    if (!c)
        return BAD("out of memory");
    c->kind = on_debug ? K_OVERFLOW : K_DATA;
    c->op_switch = on_switch;
    c->stats = data && !strcmp(data, "stats");
    const char *m = mode ? mode : "output";
    c->input = !strcmp(m, "input") || !strcmp(m, "all");
    c->output = !strcmp(m, "output") || !strcmp(m, "all");
    if (local)
        oacl_dump_mkdirs(local);
    absolute(local ? local : path, c->path, sizeof(c->path));
    for (const cJSON *it = has_list ? list->child : NULL; it; it = it->next) {
        bool t2 = true;
        const char *model = str_member(it, "model_name", &t2);
        const cJSON *layer = cJSON_GetObjectItemCaseSensitive(it, "layer");
        if (!model)
            for (const cJSON *l = layer ? layer->child : NULL; l; l = l->next)
                add_name(c->layers, &c->nlayers, l->valuestring);
        static const char *const bl[] = {"optype_blacklist", "opname_blacklist", NULL};
        for (int b = 0; bl[b]; b++) {
            const cJSON *arr = cJSON_GetObjectItemCaseSensitive(it, bl[b]);
            for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next) {
                const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name");
                if (cJSON_IsString(n))
                    add_name(c->black, &c->nblack, n->valuestring);
            }
        }
    }
    *out = c;
    return true;
#undef BAD
}

/* Puts c in force (lock held); takes ownership. */
static void apply_locked(struct cfg *c)
{
    if (!c)
        return;
    char stamp[32];
    oacl_dump_time(stamp, sizeof(stamp), false);
    switch (c->kind) {
    case K_EXCEPTION:
        if (!g_exception_applied) {
            g_exception_applied = true;
            oacl_dump_set_exception(true, c->path);
        }
        cfg_free(c);
        break;
    case K_OVERFLOW:
        g_overflow = true; /* no overflow tracking on the CPU device: writes nothing */
        snprintf(g_overflow_dir, sizeof(g_overflow_dir), "%s/%s", c->path, stamp);
        cfg_free(c);
        break;
    case K_DATA:
        {
            struct cfg *old = g_data;
            __atomic_store_n(&g_data, c, __ATOMIC_RELEASE); /* read without the lock at enqueue */
            cfg_free(old);
        }
        snprintf(g_data_dir, sizeof(g_data_dir), "%s/%s", c->path, stamp);
        if (c->stats)
            OACL_WARN("dump: dump_data \"stats\" writes the raw dump (kernel arguments carry no data types)");
        break;
    default:
        cfg_free(c);
    }
}

static void stop_all_locked(void)
{
    struct cfg *old = g_data;
    __atomic_store_n(&g_data, NULL, __ATOMIC_RELEASE);
    cfg_free(old);
    g_data_dir[0] = '\0';
    g_overflow = false;
    g_overflow_dir[0] = '\0';
    g_exception_applied = false;
    oacl_dump_set_exception(false, NULL);
}

/* ---- the aclInit file and aclFinalize ---------------------------------------------------- */

static struct cfg *g_init_pending;

int oacl_dump_init_section(const struct cJSON *dump, const char *path)
{
    char why[256];
    struct cfg *c = NULL;
    if (!validate(dump, &c, why, sizeof(why)))
        return oacl_fail(ACL_ERROR_INVALID_DUMP_CONFIG, "aclInit", "%s: %s", path, why);
    pthread_mutex_lock(&g_lock);
    cfg_free(g_init_pending);
    g_init_pending = c;
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

void oacl_dump_acl_init_done(void)
{
    pthread_mutex_lock(&g_lock);
    apply_locked(g_init_pending);
    g_init_pending = NULL;
    pthread_mutex_unlock(&g_lock);
}

void oacl_dump_acl_init_failed(void)
{
    pthread_mutex_lock(&g_lock);
    cfg_free(g_init_pending);
    g_init_pending = NULL;
    pthread_mutex_unlock(&g_lock);
}

void oacl_dump_acl_finalize(void)
{
    pthread_mutex_lock(&g_lock);
    stop_all_locked(); /* Decision 14; the session flag stays */
    pthread_mutex_unlock(&g_lock);
    oacl_dump_drain();
}

/* ---- selection at enqueue ------------------------------------------------------------------ */

static bool listed(char *const *arr, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(arr[i], name) == 0)
            return true;
    return false;
}

struct oacl_dump_plan *oacl_dump_select(const char *kernel, bool attr, uint32_t device, size_t args_size)
{
    if (!__atomic_load_n(&g_data, __ATOMIC_RELAXED))
        return NULL; /* the common case, without the lock */
    struct oacl_dump_plan *p = NULL;
    pthread_mutex_lock(&g_lock);
    const struct cfg *c = g_data;
    if (c && !listed(c->black, c->nblack, kernel) &&
        (c->op_switch || attr || listed(c->layers, c->nlayers, kernel)) && (p = calloc(1, sizeof(*p)))) {
        p->input = c->input;
        p->output = c->output;
        p->device = device;
        p->args_size = args_size;
        int n = snprintf(p->dir, sizeof(p->dir), "%.4080s/%u", g_data_dir, device);
        (void)n;
        snprintf(p->kernel_name, sizeof(p->kernel_name), "%s", kernel);
    }
    pthread_mutex_unlock(&g_lock);
    return p;
}

/* ---- aclmdl*Dump ------------------------------------------------------------------------- */

OACL_API aclError aclmdlInitDump(void)
{
    if (!oacl_acl_initialized())
        return oacl_fail(ACL_ERROR_UNINITIALIZE, __func__, "call aclInit first");
    pthread_mutex_lock(&g_lock);
    bool open = g_session;
    g_session = true;
    pthread_mutex_unlock(&g_lock);
    if (open)
        return oacl_fail(ACL_ERROR_REPEAT_INITIALIZE, __func__, "a dump session is already open");
    return ACL_SUCCESS;
}

/* Nesting depth of { and [ over the raw text (strings included, as CANN). */
static bool nesting_ok(const char *t, size_t len)
{
    int braces = 0, brackets = 0;
    for (size_t i = 0; i < len && t[i]; i++) {
        if (t[i] == '{' && ++braces > 10)
            return false;
        if (t[i] == '[' && ++brackets > 10)
            return false;
        if (t[i] == '}' && braces)
            braces--;
        if (t[i] == ']' && brackets)
            brackets--;
    }
    return true;
}

OACL_API aclError aclmdlSetDump(const char *dumpCfgPath)
{
    if (!oacl_acl_initialized())
        return oacl_fail(ACL_ERROR_UNINITIALIZE, __func__, "call aclInit first");
    pthread_mutex_lock(&g_lock);
    bool open = g_session;
    pthread_mutex_unlock(&g_lock);
    if (!open)
        return oacl_fail(ACL_ERROR_DUMP_NOT_RUN, __func__, "no dump session: call aclmdlInitDump first");
    if (!dumpCfgPath)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "dumpCfgPath is NULL");
    char real[PATH_MAX];
    struct stat st;
    if (!realpath(dumpCfgPath, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > DUMP_FILE_MAX)
        return oacl_fail(ACL_ERROR_INVALID_FILE, __func__, "'%s' is not a readable regular file of at most 10 MiB",
                         dumpCfgPath);
    FILE *f = fopen(real, "rb");
    if (!f)
        return oacl_fail(ACL_ERROR_INVALID_FILE, __func__, "cannot open '%s': %s", dumpCfgPath, strerror(errno));
    size_t len = (size_t)st.st_size;
    char *text = malloc(len + 1);
    size_t got = text ? fread(text, 1, len, f) : 0;
    fclose(f);
    if (!text)
        return oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "out of memory");
    text[got] = '\0';
    aclError rc = ACL_SUCCESS;
    if (got == 0) {
        free(text);
        return ACL_SUCCESS; /* an empty file changes nothing */
    }
    if (!nesting_ok(text, got)) {
        free(text);
        return oacl_fail(ACL_ERROR_PARSE_FILE, __func__, "'%s' nests more than 10 levels", dumpCfgPath);
    }
    cJSON *root = cJSON_ParseWithLength(text, got);
    free(text);
    if (!root)
        return oacl_fail(ACL_ERROR_INVALID_DUMP_CONFIG, __func__, "'%s' is not valid JSON", dumpCfgPath);
    const cJSON *dump = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "dump") : NULL;
    if (dump) {
        char why[256];
        struct cfg *c = NULL;
        if (!validate(dump, &c, why, sizeof(why))) {
            rc = oacl_fail(ACL_ERROR_INVALID_DUMP_CONFIG, __func__, "%s: %s", dumpCfgPath, why);
        } else {
            pthread_mutex_lock(&g_lock);
            apply_locked(c);
            pthread_mutex_unlock(&g_lock);
        }
    }
    cJSON_Delete(root);
    return rc;
}

OACL_API aclError aclmdlFinalizeDump(void)
{
    if (!oacl_acl_initialized())
        return oacl_fail(ACL_ERROR_UNINITIALIZE, __func__, "call aclInit first");
    pthread_mutex_lock(&g_lock);
    bool open = g_session;
    if (open) {
        stop_all_locked();
        g_session = false;
    }
    pthread_mutex_unlock(&g_lock);
    if (!open)
        return oacl_fail(ACL_ERROR_DUMP_NOT_RUN, __func__, "no dump session: call aclmdlInitDump first");
    oacl_dump_drain(); /* files being written are complete */
    return ACL_SUCCESS;
}

/* ---- acl_dump.h ------------------------------------------------------------------------------- */

static int32_t (*g_user_cb)(const acldumpChunk *, int32_t);

static int32_t forward(const void *chunk, int32_t size)
{
    int32_t (*cb)(const acldumpChunk *, int32_t) = __atomic_load_n(&g_user_cb, __ATOMIC_ACQUIRE);
    return cb ? cb(chunk, size) : 0;
}

OACL_API aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *, int32_t), int32_t flag)
{
    if (!messageCallback)
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "messageCallback is NULL");
    if (flag != 0)
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "flag %d is reserved and must be 0", flag);
    __atomic_store_n(&g_user_cb, messageCallback, __ATOMIC_RELEASE);
    oacl_dump_set_callback(forward);
    return ACL_SUCCESS;
}

OACL_API void acldumpUnregCallback(void)
{
    oacl_dump_set_callback(NULL); /* waits for a callback that runs */
    __atomic_store_n(&g_user_cb, NULL, __ATOMIC_RELEASE);
}

static bool g_args_on;

OACL_API aclError aclopStartDumpArgs(uint32_t dumpType, const char *path)
{
    if (!path)
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "path is NULL");
    if (!(dumpType & ACL_OP_DUMP_OP_AICORE_ARGS))
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "dumpType 0x%x lacks ACL_OP_DUMP_OP_AICORE_ARGS", dumpType);
    pthread_mutex_lock(&g_lock);
    bool on = g_args_on;
    pthread_mutex_unlock(&g_lock);
    if (on)
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "op argument dumping already runs");
    if (!*path)
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "path is empty");
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "'%s' exists and is not a directory", path);
    if (!oacl_dump_mkdirs(path) || access(path, R_OK | W_OK) != 0)
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "cannot create or use directory '%s'", path);
    /* No aclnn layer: nothing is ever written there (what CANN writes for
       programs that launch their own kernels). */
    pthread_mutex_lock(&g_lock);
    g_args_on = true;
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

OACL_API aclError aclopStopDumpArgs(uint32_t dumpType)
{
    if (dumpType & ACL_OP_DUMP_OP_AICORE_ARGS) {
        pthread_mutex_lock(&g_lock);
        g_args_on = false;
        pthread_mutex_unlock(&g_lock);
    }
    return ACL_SUCCESS;
}

OACL_API const char *acldumpGetPath(acldumpType dumpType)
{
    const char *out = NULL;
    pthread_mutex_lock(&g_lock);
    switch ((int)dumpType) {
    case AIC_ERR_BRIEF_DUMP:
    case AIC_ERR_NORM_DUMP:
    case AIC_ERR_DETAIL_DUMP:
        if (oacl_dump_exception_dir(g_exc_dir, sizeof(g_exc_dir)))
            out = g_exc_dir;
        break;
    case DATA_DUMP:
        out = g_data ? g_data_dir : NULL;
        break;
    case OVERFLOW_DUMP:
        out = g_overflow ? g_overflow_dir : NULL;
        break;
    default:
        break;
    }
    pthread_mutex_unlock(&g_lock);
    return out;
}

/* <root>/extra-info/data-dump/<device of the current context>, created. */
static aclError exception_device_dir(char *out, size_t len, const char *fn)
{
    if (!oacl_dump_exception_on())
        return oacl_fail(ACL_ERROR_FAILURE, fn, "no exception dump is enabled");
    int32_t dev = oacl_ctx_device_quiet();
    if (dev < 0)
        return oacl_fail(ACL_ERROR_FAILURE, fn, "the thread has no current device");
    char root[PATH_MAX];
    if (!oacl_dump_exception_dir(root, sizeof(root)))
        return oacl_fail(ACL_ERROR_FAILURE, fn, "cannot create the exception dump directory");
    if ((size_t)snprintf(out, len, "%s%d", root, dev) >= len || !oacl_dump_mkdirs(out))
        return oacl_fail(ACL_ERROR_FAILURE, fn, "cannot create the exception dump directory");
    return ACL_SUCCESS;
}

OACL_API aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen)
{
    if (!path)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "path is NULL");
    if (maxLen <= 1)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "maxLen %zu is too small", maxLen);
    char dir[PATH_MAX + 64];
    aclError rc = exception_device_dir(dir, sizeof(dir), __func__);
    if (rc)
        return rc;
    if (maxLen < strlen(dir) + 1)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "maxLen %zu is shorter than the path (%zu bytes)", maxLen,
                         strlen(dir) + 1);
    memcpy(path, dir, strlen(dir) + 1);
    return ACL_SUCCESS;
}

/* Per-tensor trailer of a custom exception file (416 bytes). */
struct trailer {
    int32_t format;
    int32_t dataType;
    uint32_t shapeNum;
    uint32_t originShapeNum;
    uint64_t shape[25];
    uint64_t originShape[25];
};

OACL_API aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag, const acldumpTensorInfo *tensors,
                                           size_t tensorCount)
{
    if (!fileName || !*fileName)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "fileName is NULL or empty");
    for (const char *p = fileName; *p;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "fileName '%s' contains a '..' segment", fileName);
        p += n + (slash ? 1 : 0);
    }
    if (!tensors || tensorCount == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s", !tensors ? "tensors is NULL" : "tensorCount is 0");
    if (!oacl_dump_exception_on())
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "no exception dump is enabled");
    for (size_t i = 0; i < tensorCount; i++) {
        const acldumpTensorInfo *t = &tensors[i];
        if (t->shapeNum > ACL_DUMP_MAX_SHAPE_NUM || t->originShapeNum > ACL_DUMP_MAX_SHAPE_NUM || (uint32_t)t->type > 2 ||
            t->addrType != ACL_DUMP_ADDR_RAW || t->placement != ACL_DUMP_PLACEMENT_DEVICE || !t->tensorAddr ||
            t->tensorSize == 0)
            return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__,
                             "tensor %zu: needs shapeNum <= 25, type 0..2, ACL_DUMP_ADDR_RAW, device placement, an "
                             "address and a size",
                             i);
    }
    char dir[PATH_MAX + 64];
    aclError rc = exception_device_dir(dir, sizeof(dir), __func__);
    if (rc)
        return rc;
    int32_t dev = oacl_ctx_device_quiet();
    struct oacl_dump_buf *bufs = calloc(tensorCount, sizeof(*bufs));
    struct trailer *tr = calloc(tensorCount, sizeof(*tr));
    if (!bufs || !tr) {
        free(bufs);
        free(tr);
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "out of memory");
    }
    for (size_t i = 0; i < tensorCount && rc == ACL_SUCCESS; i++) {
        const acldumpTensorInfo *t = &tensors[i];
        struct oacl_mem_record r;
        uintptr_t a = (uintptr_t)t->tensorAddr;
        /* Decision 16: only live device memory of the current device is read */
        size_t alloc = 0;
        if (oacl_registry_lookup(OACL_SPACE_ALLOC, a, &r))
            alloc = r.user_size ? r.user_size : r.size; /* as allocated, not the padding */
        if (!alloc || r.kind != OACL_MEM_DEVICE || (r.device != dev && r.device != OACL_MEM_ANY_DEVICE) ||
            a >= r.base + alloc || t->tensorSize > r.base + alloc - a) {
            rc = oacl_fail(ACL_ERROR_FAILURE, __func__, "tensor %zu: %p + %zu is not live device memory of device %d",
                           i, (void *)t->tensorAddr, t->tensorSize, dev);
            break;
        }
        bufs[i] = (struct oacl_dump_buf){.phase = OACL_DUMP_PHASE_FAILURE,
                                         .arg_offset = t->argsOffset,
                                         .address = a,
                                         .size = t->tensorSize,
                                         .flags = (uint64_t)((uint32_t)t->type & 3u) << 8,
                                         .data = t->tensorAddr};
        tr[i].format = t->format;
        tr[i].dataType = t->dataType;
        tr[i].shapeNum = t->shapeNum;
        tr[i].originShapeNum = t->originShapeNum;
        memcpy(tr[i].shape, t->shape, sizeof(tr[i].shape));
        memcpy(tr[i].originShape, t->originShape, sizeof(tr[i].originShape));
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (rc == ACL_SUCCESS &&
        !oacl_dump_build(OACL_DUMP_KIND_CUSTOM, (uint32_t)dev, -1, 0, 0, 0, 0, userTag ? userTag : "", NULL, 0, bufs,
                         (uint32_t)tensorCount, tr, tensorCount * sizeof(*tr), &bytes, &len))
        rc = oacl_fail(ACL_ERROR_FAILURE, __func__, "out of memory");
    free(bufs);
    free(tr);
    if (rc)
        return rc;
    char stamp[32], path[PATH_MAX + 400];
    oacl_dump_time(stamp, sizeof(stamp), true);
    snprintf(path, sizeof(path), "%s/%s.custom.%s", dir, fileName, stamp);
    if (!oacl_dump_deliver(path, bytes, len, 0400))
        return oacl_fail(ACL_ERROR_FAILURE, __func__, "cannot write '%s': %s", path, strerror(errno));
    return ACL_SUCCESS;
}
