/*
 * Profiling sessions (profiling-and-tools.md §3.0, §3.1, §4.1): the process
 * state machine (API / command-line / subscription modes), configs,
 * aclprofInit … aclprofFinalize, aclprofSetConfig, and the command-line
 * mode started by OACL_PROFILE or by the "profiler" section of the aclInit
 * file. A session records through the collector (common/trace.h) and its
 * result directory is written when it ends (prof_export.c).
 *
 * Profiling functions report through the API layer only: they do not set
 * the thread's last error (their codes are 100xxx/148xxx/200xxx anyway).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/log.h"
#include "device/cpu/soc_profile.h"
#include "runtime/prof.h"
#include "runtime/runtime.h"

enum mode { MODE_NONE = 0, MODE_API, MODE_CMD, MODE_SUBSCRIBE };

struct aclprofConfig {
    struct aclprofConfig *next; /* live configs */
    uint32_t devices[65];
    uint32_t count;             /* host pseudo-device included */
    aclprofAicoreMetrics metrics;
    uint64_t bits;              /* expanded */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static enum mode g_mode;
static bool g_api_inited;
static char g_api_path[PATH_MAX];
static struct aclprofConfig *g_configs;
static uint32_t g_seq;                   /* sessions started in this process */

/* aclprofSetConfig values for the next start. */
static struct {
    uint64_t storage_limit;              /* bytes, 0 = none */
    char path[PATH_MAX];
    char optype[260];
} g_set;

/* The running session. */
static bool g_running;
static struct oacl_prof_session g_sess;
static uint64_t g_dev_bits[65];          /* per profiled device: the bits it started with */
static uint64_t g_profiled;              /* devices 0..63 profiled */
static bool g_host_profiled;
static bool g_cmd_from_init;             /* the CMD session came from aclInit's file */

/* ---- helpers --------------------------------------------------------------------- */

static bool bad_path_char(const char *p)
{
    for (; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (strchr("\n\f\r\b\t\v\"'\\%><|&$;`", c) || c == 0x7f)
            return true;
    }
    return false;
}

/* path made absolute against the current directory (not resolved). */
static bool absolute_path(const char *path, char *out, size_t len)
{
    if (path[0] == '/')
        return (size_t)snprintf(out, len, "%s", path) < len;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof(cwd)))
        return false;
    return (size_t)snprintf(out, len, "%s/%s", cwd, path) < len;
}

/* mkdir -p with mode 0750; true if dir is a usable directory at the end. */
static bool make_dirs(const char *dir)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
        return false;
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0750) != 0 && errno != EEXIST)
                return false;
            *p = '/';
        }
    }
    if (mkdir(buf, 0750) != 0 && errno != EEXIST)
        return false;
    struct stat st;
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) && access(buf, R_OK | W_OK | X_OK) == 0;
}

uint64_t oacl_prof_expand_bits(uint64_t b)
{
    if (b & ACL_PROF_API_STATS)
        return ACL_PROF_ACL_API | ACL_PROF_API_STATS;
    b |= OACL_PROF_INTERNAL_BIT;
    if (b & ACL_PROF_TASK_TIME)
        b |= ACL_PROF_TASK_TIME_L0;
    if (b & (ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR))
        b |= ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME;
    if (b & ACL_PROF_TASK_TIME_L3)
        b |= ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L2;
    if (b & (ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_TASK_TIME_L3))
        b |= ACL_PROF_TRAINING_TRACE;
    return b;
}

uint32_t oacl_prof_cats(uint64_t b)
{
    if (b & ACL_PROF_API_STATS)
        return OACL_TR_STATS;
    uint32_t c = 0;
    if (b & ACL_PROF_ACL_API)
        c |= OACL_TR_ACL;
    if (b & ACL_PROF_RUNTIME_API)
        c |= OACL_TR_RUNTIME;
    if (b & (ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0)) {
        c |= OACL_TR_TASK | OACL_TR_NODE;
        if (b & ACL_PROF_TASK_TIME) /* level 1 and above: every block (Decision 15) */
            c |= OACL_TR_BLOCK;
    }
    if (b & ACL_PROF_MSPROFTX)
        c |= OACL_TR_TX;
    if (b & ACL_PROF_TRAINING_TRACE)
        c |= OACL_TR_STEP;
    if (b & ACL_PROF_TASK_MEMORY)
        c |= OACL_TR_MEM;
    return c;
}

static bool metric_valid(uint32_t m)
{
    const struct oacl_soc_profile *soc = oacl_config()->soc;
    if (m == 7) /* PipeExecuteUtilization: not on Atlas A2/A3 */
        return !(soc && (strcmp(soc->short_name, "Ascend910B") == 0 || strcmp(soc->short_name, "Ascend910_93") == 0));
    return m <= 8 || m == ACL_AICORE_NONE;
}

static uint64_t buffer_cap(void)
{
    const char *v = getenv("OACL_PROFILE_BUFFER_MB");
    if (v && *v) {
        char *end;
        unsigned long long mb = strtoull(v, &end, 10);
        if (!*end && mb >= 1 && mb <= (1ull << 20))
            return mb << 20;
    }
    return 64ull << 20;
}

/* Creates <base>/PROF_<seq>_<time>_<pid><letters>/ and its subdirectories
 * into s->dir; false if it cannot. */
static bool make_session_dir(const char *base, struct oacl_prof_session *s)
{
    if (!make_dirs(base))
        return false;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    char letters[9];
    uint64_t x = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)getpid() * 40503u ^ (uint64_t)ts.tv_sec;
    for (int i = 0; i < 8; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        letters[i] = (char)('A' + (x >> 33) % 18);
    }
    letters[8] = '\0';
    uint32_t seq = (g_seq % 999999u) + 1u;
    g_seq++;
    int n = snprintf(s->dir, sizeof(s->dir), "%s/PROF_%06u_%04d%02d%02d%02d%02d%02d%03ld_%08d%s", base, seq,
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                     ts.tv_nsec / 1000000, (int)getpid(), letters);
    if (n < 0 || (size_t)n + 64 >= sizeof(s->dir))
        return false;
    char sub[PATH_MAX + 64];
    snprintf(sub, sizeof(sub), "%s/host", s->dir);
    if (!make_dirs(sub))
        return false;
    snprintf(sub, sizeof(sub), "%s/mindstudio_profiler_output", s->dir);
    if (!(s->bits & ACL_PROF_API_STATS) && !make_dirs(sub))
        return false;
    for (uint32_t d = 0; d < 64; d++)
        if ((s->dev_mask >> d) & 1) {
            snprintf(sub, sizeof(sub), "%s/device_%u", s->dir, d);
            make_dirs(sub);
        }
    return true;
}

static void cmd_end_at_exit(void);

/* Starts collection for s (lock held). */
static void session_begin_locked(struct oacl_prof_session *s)
{
    /* A session still running at exit is written then (Decision 23); the
       handler is registered only once a session exists, so that loading and
       unloading the library (kernel binaries link it) leaves nothing behind. */
    static bool at_exit;
    if (!at_exit) {
        at_exit = true;
        atexit(cmd_end_at_exit);
    }
    char spill[PATH_MAX + 64];
    snprintf(spill, sizeof(spill), "%s/host/oacl_records.tmp", s->dir);
    s->cats = oacl_prof_cats(s->bits);
    s->start_ns = oacl_trace_now();
    g_sess = *s;
    g_running = true;
    oacl_trace_begin(s->cats, s->dev_mask, buffer_cap(), spill, g_set.storage_limit);
}

/* Ends the running session and writes its files (lock held). */
static void session_finish_locked(void)
{
    if (!g_running)
        return;
    oacl_trace_end();
    g_running = false;
    oacl_prof_export(&g_sess);
    oacl_trace_release();
    g_profiled = 0;
    g_host_profiled = false;
    memset(g_dev_bits, 0, sizeof(g_dev_bits));
}

uint64_t oacl_prof_session_bits(void)
{
    pthread_mutex_lock(&g_lock);
    uint64_t b = g_running ? g_sess.bits : 0;
    pthread_mutex_unlock(&g_lock);
    return b;
}

bool oacl_prof_tx_active(void) { return oacl_trace_on(OACL_TR_TX) != 0; }

/* ---- aclprofInit / Finalize --------------------------------------------------------- */

OACL_API aclError aclprofInit(const char *profilerResultPath, size_t length)
{
    const char *mode_env = getenv("PROFILING_MODE");
    if (mode_env && strcmp(mode_env, "dynamic") == 0)
        return oacl_fail(ACL_ERROR_FEATURE_UNSUPPORTED, __func__, "PROFILING_MODE=dynamic: use the dynamic profiler");
    if (!profilerResultPath)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "profilerResultPath is NULL");
    if (length == 0 || length >= 4096)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "length %zu is outside 1..4095", length);
    if (strnlen(profilerResultPath, length + 1) != length)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "length %zu is not strlen(profilerResultPath) (%zu)", length,
                         strnlen(profilerResultPath, 4096));
    pthread_mutex_lock(&g_lock);
    aclError rc = ACL_SUCCESS;
    char abs[PATH_MAX];
    if (g_mode == MODE_CMD)
        rc = oacl_fail(ACL_ERROR_PROF_ALREADY_RUN, __func__, "profiling already runs in command-line mode");
    else if (g_api_inited)
        rc = oacl_fail(ACL_ERROR_REPEAT_INITIALIZE, __func__, "aclprofInit was already called (aclprofFinalize first)");
    else if (g_mode == MODE_SUBSCRIBE)
        rc = oacl_fail(ACL_ERROR_PROF_API_CONFLICT, __func__, "a model subscription is active");
    else if (!absolute_path(profilerResultPath, abs, sizeof(abs)) || bad_path_char(abs))
        rc = oacl_fail(ACL_ERROR_INVALID_FILE, __func__, "path '%s' is too long or contains a forbidden character",
                       profilerResultPath);
    if (rc == ACL_SUCCESS) {
        snprintf(g_api_path, sizeof(g_api_path), "%s", abs);
        g_api_inited = true;
        g_mode = MODE_API;
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

OACL_API aclError aclprofFinalize(void)
{
    pthread_mutex_lock(&g_lock);
    aclError rc = ACL_SUCCESS;
    if (g_mode == MODE_CMD)
        rc = oacl_fail(ACL_ERROR_PROF_ALREADY_RUN, __func__, "profiling runs in command-line mode");
    else if (g_mode == MODE_API) {
        session_finish_locked();
        g_api_inited = false;
        g_mode = MODE_NONE;
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

/* ---- configs ------------------------------------------------------------------------ */

OACL_API aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                            aclprofAicoreMetrics aicoreMetrics,
                                            const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig)
{
    uint32_t ndev = oacl_config()->device_count;
    const char *why = NULL;
    if (deviceNums > 0 && !deviceIdList)
        why = "deviceIdList is NULL";
    else if (aicoreEvents)
        why = "aicoreEvents is reserved and must be NULL";
    else if (deviceNums > 64 || deviceNums > ndev)
        why = "more devices than exist";
    else if (deviceNums == 0 && !(dataTypeConfig & ACL_PROF_MSPROFTX))
        why = "a config without devices is only allowed for msproftx collection";
    for (uint32_t i = 0; !why && i < deviceNums; i++) {
        if (deviceIdList[i] >= ndev)
            why = "a device id is out of range";
        for (uint32_t j = 0; !why && j < i; j++)
            if (deviceIdList[j] == deviceIdList[i])
                why = "a device id is repeated";
    }
    if (why) {
        OACL_ERROR("aclprofCreateConfig: %s", why);
        oacl_note_error("aclprofCreateConfig: %s", why);
        return NULL;
    }
    struct aclprofConfig *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    for (uint32_t i = 0; i < deviceNums; i++)
        c->devices[i] = deviceIdList[i];
    c->devices[deviceNums] = OACL_PROF_HOST_DEVICE;
    c->count = deviceNums + 1;
    c->metrics = aicoreMetrics;
    c->bits = oacl_prof_expand_bits(dataTypeConfig);
    if (dataTypeConfig & ACL_PROF_API_STATS)
        OACL_WARN("aclprofCreateConfig: ACL_PROF_API_STATS given: every other switch is dropped");
    pthread_mutex_lock(&g_lock);
    c->next = g_configs;
    g_configs = c;
    pthread_mutex_unlock(&g_lock);
    return c;
}

static bool config_live_locked(const aclprofConfig *c)
{
    for (struct aclprofConfig *p = g_configs; p; p = p->next)
        if (p == c)
            return true;
    return false;
}

OACL_API aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig)
{
    if (!profilerConfig)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "profilerConfig is NULL");
    pthread_mutex_lock(&g_lock);
    struct aclprofConfig **pp = &g_configs;
    while (*pp && *pp != profilerConfig)
        pp = &(*pp)->next;
    struct aclprofConfig *c = *pp;
    if (c)
        *pp = c->next;
    pthread_mutex_unlock(&g_lock);
    if (!c)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "profilerConfig %p is not a live config",
                         (const void *)profilerConfig);
    free(c);
    return ACL_SUCCESS;
}

/* The config of aclprofStart(NULL): devices set in this process + host. */
static void default_config(struct aclprofConfig *c)
{
    memset(c, 0, sizeof(*c));
    for (uint32_t d = 0; d < oacl_config()->device_count && d < 64; d++) {
        struct oacl_device *dev = oacl_device_at((int32_t)d);
        pthread_mutex_lock(&dev->lock);
        bool set = dev->set_count > 0;
        pthread_mutex_unlock(&dev->lock);
        if (set)
            c->devices[c->count++] = d;
    }
    c->devices[c->count++] = OACL_PROF_HOST_DEVICE;
    c->metrics = ACL_AICORE_PIPE_UTILIZATION;
    c->bits = oacl_prof_expand_bits(ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_RUNTIME_API |
                                    ACL_PROF_AICORE_METRICS);
}

static bool profiled_locked(uint32_t d)
{
    return d == OACL_PROF_HOST_DEVICE ? g_host_profiled : ((g_profiled >> d) & 1);
}

OACL_API aclError aclprofStart(const aclprofConfig *profilerConfig)
{
    struct aclprofConfig def, cfg;
    pthread_mutex_lock(&g_lock);
    aclError rc = ACL_SUCCESS;
    if (profilerConfig && !config_live_locked(profilerConfig)) {
        pthread_mutex_unlock(&g_lock);
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "profilerConfig %p is not a live config",
                         (const void *)profilerConfig);
    }
    if (profilerConfig)
        cfg = *profilerConfig;
    else {
        pthread_mutex_unlock(&g_lock);
        default_config(&def); /* takes device locks: not under ours */
        pthread_mutex_lock(&g_lock);
        cfg = def;
    }
    if (cfg.bits == 0)
        rc = oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "the config's dataTypeConfig is 0");
    else if (cfg.bits & ~OACL_PROF_SUPPORTED_BITS)
        rc = oacl_fail(ACL_ERROR_PROF_MODULES_UNSUPPORTED, __func__, "dataTypeConfig 0x%llx has unsupported bits 0x%llx",
                       (unsigned long long)cfg.bits, (unsigned long long)(cfg.bits & ~OACL_PROF_SUPPORTED_BITS));
    else if (cfg.count > 65)
        rc = oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "more than 64 devices");
    else if (g_mode == MODE_CMD)
        rc = oacl_fail(ACL_ERROR_PROF_ALREADY_RUN, __func__, "profiling already runs in command-line mode");
    else if (g_mode == MODE_SUBSCRIBE)
        rc = oacl_fail(ACL_ERROR_PROF_API_CONFLICT, __func__, "a model subscription is active");
    if (rc) {
        pthread_mutex_unlock(&g_lock);
        return rc;
    }
    if (!g_api_inited) {
        /* Start without aclprofInit: API mode with ACL_PROF_PATH or the
           current directory. */
        char abs[PATH_MAX];
        if (!absolute_path(g_set.path[0] ? g_set.path : ".", abs, sizeof(abs)) || bad_path_char(abs)) {
            pthread_mutex_unlock(&g_lock);
            return oacl_fail(ACL_ERROR_INVALID_FILE, __func__, "output path '%s' is unusable",
                             g_set.path[0] ? g_set.path : ".");
        }
        snprintf(g_api_path, sizeof(g_api_path), "%s", abs);
        g_api_inited = true;
        g_mode = MODE_API;
    }
    if (g_running) {
        /* A second start starts nothing: it only has to agree. */
        for (uint32_t i = 0; i < cfg.count && rc == ACL_SUCCESS; i++) {
            uint32_t d = cfg.devices[i];
            if (profiled_locked(d) && g_dev_bits[d] != cfg.bits)
                rc = oacl_fail(ACL_ERROR_INVALID_PROFILING_CONFIG, __func__,
                               "device %u is profiled with dataTypeConfig 0x%llx, not 0x%llx", d,
                               (unsigned long long)g_dev_bits[d], (unsigned long long)cfg.bits);
        }
        pthread_mutex_unlock(&g_lock);
        return rc;
    }
    if ((cfg.bits & ACL_PROF_AICORE_METRICS) && !metric_valid((uint32_t)cfg.metrics)) {
        pthread_mutex_unlock(&g_lock);
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "aicoreMetrics %d is not supported on %s", (int)cfg.metrics,
                         oacl_config()->soc ? oacl_config()->soc->name : "this SoC");
    }
    struct oacl_prof_session s;
    memset(&s, 0, sizeof(s));
    s.bits = cfg.bits;
    s.metrics = (uint32_t)cfg.metrics;
    for (uint32_t i = 0; i < cfg.count; i++)
        if (cfg.devices[i] < 64)
            s.dev_mask |= 1ull << cfg.devices[i];
    snprintf(s.optype, sizeof(s.optype), "%s", g_set.optype);
    const char *base = g_set.path[0] ? g_set.path : g_api_path;
    char abs[PATH_MAX];
    if (!absolute_path(base, abs, sizeof(abs)) || !make_session_dir(abs, &s)) {
        pthread_mutex_unlock(&g_lock);
        return oacl_fail(ACL_ERROR_INVALID_FILE, __func__, "cannot create a result directory under '%s'", base);
    }
    for (uint32_t i = 0; i < cfg.count; i++) {
        uint32_t d = cfg.devices[i];
        g_dev_bits[d] = cfg.bits;
        if (d == OACL_PROF_HOST_DEVICE)
            g_host_profiled = true;
        else
            g_profiled |= 1ull << d;
    }
    session_begin_locked(&s);
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

OACL_API aclError aclprofStop(const aclprofConfig *profilerConfig)
{
    pthread_mutex_lock(&g_lock);
    aclError rc = ACL_SUCCESS;
    if (profilerConfig && !config_live_locked(profilerConfig))
        rc = oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "profilerConfig %p is not a live config",
                       (const void *)profilerConfig);
    else if (g_mode == MODE_CMD)
        rc = oacl_fail(ACL_ERROR_PROF_ALREADY_RUN, __func__, "profiling runs in command-line mode");
    else if (g_mode == MODE_SUBSCRIBE)
        rc = oacl_fail(ACL_ERROR_PROF_API_CONFLICT, __func__, "a model subscription is active");
    if (rc || !g_api_inited || !g_running) {
        pthread_mutex_unlock(&g_lock);
        return rc;
    }
    if (!profilerConfig) {
        session_finish_locked();
        pthread_mutex_unlock(&g_lock);
        return ACL_SUCCESS;
    }
    const struct aclprofConfig *c = profilerConfig;
    for (uint32_t i = 0; i < c->count; i++) {
        uint32_t d = c->devices[i];
        if (profiled_locked(d) && g_dev_bits[d] != c->bits) {
            rc = oacl_fail(ACL_ERROR_INVALID_PROFILING_CONFIG, __func__,
                           "device %u was started with dataTypeConfig 0x%llx, not 0x%llx", d,
                           (unsigned long long)g_dev_bits[d], (unsigned long long)c->bits);
            pthread_mutex_unlock(&g_lock);
            return rc;
        }
    }
    for (uint32_t i = 0; i < c->count; i++) {
        uint32_t d = c->devices[i];
        if (d == OACL_PROF_HOST_DEVICE)
            g_host_profiled = false;
        else
            g_profiled &= ~(1ull << d);
    }
    if (!g_profiled && !g_host_profiled)
        session_finish_locked();
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

/* ---- aclprofSetConfig --------------------------------------------------------------- */

static bool parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!*s)
        return false;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (v < lo || v > hi)
        return false;
    if (out)
        *out = v;
    return true;
}

/* A comma list whose items are all in `allowed` (NULL: any non-empty). */
static bool comma_list(const char *s, const char *const *allowed)
{
    if (!*s)
        return false;
    char buf[260];
    snprintf(buf, sizeof(buf), "%s", s);
    char *save = NULL;
    size_t items = 0;
    for (const char *p = s; *p; p++)
        if (*p == ',' && (p == s || p[1] == '\0' || p[1] == ','))
            return false;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        items++;
        if (!allowed)
            continue;
        bool ok = false;
        for (size_t i = 0; allowed[i]; i++)
            ok |= strcmp(tok, allowed[i]) == 0;
        if (!ok)
            return false;
    }
    return items > 0;
}

static bool nts_metrics(const char *s)
{
    if (strcmp(s, "PipeUtilization") == 0)
        return true;
    if (strncmp(s, "Custom:", 7) != 0 || !comma_list(s + 7, NULL))
        return false;
    char buf[260];
    snprintf(buf, sizeof(buf), "%s", s + 7);
    char *save = NULL;
    int n = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        uint64_t v;
        const char *t = tok;
        if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
            t += 2;
        if (!parse_uint(t, 0, 65535, &v) && !(t != tok && strtoul(t, NULL, 16) <= 65535 && t[0]))
            return false;
        n++;
    }
    return n >= 1 && n <= 10;
}

static bool storage_limit(const char *s, uint64_t *bytes)
{
    size_t n = strlen(s);
    if (n < 3 || strcmp(s + n - 2, "MB") != 0)
        return false;
    char num[32];
    if (n - 2 >= sizeof(num))
        return false;
    memcpy(num, s, n - 2);
    num[n - 2] = '\0';
    uint64_t mb;
    if (!parse_uint(num, 200, 4294967295ull, &mb))
        return false;
    if (bytes)
        *bytes = mb << 20;
    return true;
}

static const char *const g_host_sys[] = {"cpu", "mem", "disk", "network", "osrt", "numa", NULL};
static const char *const g_host_usage[] = {"cpu", "mem", NULL};

OACL_API aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength)
{
    int type = (int)configType;
    if (type <= 0 || type >= ACL_PROF_ARGS_MAX)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "configType %d is outside 1..16", type);
    if (configLength > 256)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "configLength %zu exceeds 256", configLength);
    if (!config)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "config is NULL");
    if (strnlen(config, configLength + 1) != configLength)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "configLength %zu is not strlen(config)", configLength);
    bool ok = false;
    uint64_t limit = 0;
    switch (type) {
    case ACL_PROF_STORAGE_LIMIT: ok = storage_limit(config, &limit); break;
    case ACL_PROF_SYS_HARDWARE_MEM_FREQ:
    case ACL_PROF_SYS_IO_FREQ:
    case ACL_PROF_DVPP_FREQ:
    case ACL_PROF_LOW_POWER_FREQ: ok = parse_uint(config, 1, 100, NULL); break;
    case ACL_PROF_SYS_INTERCONNECTION_FREQ:
    case ACL_PROF_HOST_SYS_USAGE_FREQ:
    case ACL_PROF_SYS_CPU_FREQ: ok = parse_uint(config, 1, 50, NULL); break;
    case ACL_PROF_LLC_MODE: ok = strcmp(config, "read") == 0 || strcmp(config, "write") == 0; break;
    case ACL_PROF_HOST_SYS: ok = comma_list(config, g_host_sys); break;
    case ACL_PROF_HOST_SYS_USAGE: ok = comma_list(config, g_host_usage); break;
    case ACL_PROF_SYS_MEM_SERVICEFLOW:
    case ACL_PROF_OPTYPE: ok = comma_list(config, NULL); break;
    case ACL_PROF_NTS_METRICS:
        if (!nts_metrics(config))
            return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "'%s' is not PipeUtilization or Custom:<events>",
                             config);
        ok = true;
        break;
    case ACL_PROF_PATH: ok = config[0] && !bad_path_char(config); break;
    default: ok = false; break; /* 2 is not a config type */
    }
    if (!ok)
        return oacl_fail(ACL_ERROR_INVALID_PROFILING_CONFIG, __func__, "'%s' is not a valid value for config type %d",
                         config, type);
    pthread_mutex_lock(&g_lock);
    if (type == ACL_PROF_STORAGE_LIMIT)
        g_set.storage_limit = limit;
    else if (type == ACL_PROF_PATH)
        absolute_path(config, g_set.path, sizeof(g_set.path));
    else if (type == ACL_PROF_OPTYPE)
        snprintf(g_set.optype, sizeof(g_set.optype), "%s", config);
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

/* ---- subscription mode (prof_subscribe.c asks) ------------------------------------- */

int oacl_prof_mode_for_subscribe(void);
int oacl_prof_mode_for_subscribe(void)
{
    pthread_mutex_lock(&g_lock);
    int m = (int)g_mode;
    pthread_mutex_unlock(&g_lock);
    return m == MODE_API ? ACL_ERROR_PROF_API_CONFLICT : m == MODE_CMD ? ACL_ERROR_PROF_ALREADY_RUN : 0;
}

/* ---- command-line mode ----------------------------------------------------------------- */

/* OACL_PROFILE_FLAGS: a comma list of names, or a hex dataTypeConfig. */
static uint64_t env_flags(void)
{
    const char *f = getenv("OACL_PROFILE_FLAGS");
    uint64_t bits = ACL_PROF_ACL_API | ACL_PROF_RUNTIME_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX;
    if (!f || !*f)
        return bits;
    if (f[0] == '0' && (f[1] == 'x' || f[1] == 'X')) {
        char *end;
        unsigned long long v = strtoull(f, &end, 16);
        if (!*end)
            return v;
    }
    static const struct {
        const char *name;
        uint64_t bit;
    } names[] = {{"acl_api", ACL_PROF_ACL_API},        {"runtime_api", ACL_PROF_RUNTIME_API},
                 {"task_time", ACL_PROF_TASK_TIME},    {"task_time_l0", ACL_PROF_TASK_TIME_L0},
                 {"aicore_metrics", ACL_PROF_AICORE_METRICS}, {"msproftx", ACL_PROF_MSPROFTX},
                 {"task_memory", ACL_PROF_TASK_MEMORY}, {"host_sys", 0},
                 {"block_detail", ACL_PROF_TASK_TIME}, {"training_trace", ACL_PROF_TRAINING_TRACE}};
    bits = 0;
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", f);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        bool known = false;
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
            if (strcmp(tok, names[i].name) == 0) {
                bits |= names[i].bit;
                known = true;
            }
        if (!known)
            OACL_WARN("OACL_PROFILE_FLAGS: unknown item '%s' ignored", tok);
    }
    return bits;
}

/* Starts a command-line session writing under `output` (lock held). */
static bool cmd_start_locked(const char *output, uint64_t bits, uint32_t metrics, uint64_t storage)
{
    struct oacl_prof_session s;
    memset(&s, 0, sizeof(s));
    s.bits = oacl_prof_expand_bits(bits);
    s.metrics = metrics;
    uint32_t n = oacl_config()->device_count;
    s.dev_mask = n >= 64 ? ~0ull : (1ull << n) - 1;
    char abs[PATH_MAX];
    if (!absolute_path(output, abs, sizeof(abs)) || !make_session_dir(abs, &s)) {
        OACL_ERROR("profiling: cannot create a result directory under '%s'; profiling is off", output);
        return false;
    }
    g_set.storage_limit = storage;
    g_mode = MODE_CMD;
    session_begin_locked(&s);
    return true;
}

static void cmd_end_at_exit(void)
{
    pthread_mutex_lock(&g_lock);
    if (g_running) {
        session_finish_locked();
        if (g_mode == MODE_CMD)
            g_mode = MODE_NONE;
    }
    pthread_mutex_unlock(&g_lock);
}

/* A session still running at exit is written then (Decision 23). */
__attribute__((destructor)) static void prof_at_unload(void) { cmd_end_at_exit(); }

__attribute__((constructor)) static void prof_at_load(void)
{
    const char *dir = getenv("OACL_PROFILE");
    if (!dir || !*dir)
        return;
    uint64_t storage = 0;
    const char *limit = getenv("OACL_PROFILE_STORAGE_LIMIT");
    if (limit && *limit && !storage_limit(limit, &storage))
        OACL_WARN("OACL_PROFILE_STORAGE_LIMIT='%s' is not <N>MB with N >= 200; no limit", limit);
    pthread_mutex_lock(&g_lock);
    cmd_start_locked(dir, env_flags(), ACL_AICORE_PIPE_UTILIZATION, storage);
    pthread_mutex_unlock(&g_lock);
}

/* ---- the "profiler" section of the aclInit file ------------------------------------------ */

static struct {
    bool on;
    char output[PATH_MAX];
    uint64_t bits;
    uint32_t metrics;
    uint64_t storage;
} g_init_cfg;

static const char *const g_metric_names[] = {"ArithmeticUtilization", "PipeUtilization", "Memory", "MemoryL0",
                                             "ResourceConflictRatio", "MemoryUB", "L2Cache",
                                             "PipeExecuteUtilization", "MemoryAccess"};

int oacl_prof_init_section(const struct cJSON *section, const char *path)
{
    static const char *const keys[] = {
        "switch", "output", "aic_metrics", "aicpu", "l2", "storage_limit", "hccl", "msproftx", "instr_profiling",
        "instr_profiling_freq", "task_tsfw", "ascendcl", "task_time", "runtime_api", "ge_api", "task_memory",
        "sys_hardware_mem_freq", "sys_mem_serviceflow", "llc_profiling", "sys_io_sampling_freq",
        "sys_interconnection_freq", "sys_cpu_freq", "dvpp_freq", "host_sys", "host_sys_usage",
        "host_sys_usage_freq", "sys_lp_freq", "optype", NULL};
    memset(&g_init_cfg, 0, sizeof(g_init_cfg));
    if (!cJSON_IsObject(section))
        return oacl_fail(ACL_ERROR_INVALID_PARAM, "aclInit", "%s: \"profiler\" must be an object", path);
    bool ascendcl = true, runtime = true, task = true, tx = false, taskmem = false;
    bool l0 = false;
    uint32_t metrics = ACL_AICORE_PIPE_UTILIZATION;
    bool metrics_on = false;
    const char *output = NULL;
    for (const cJSON *it = section->child; it; it = it->next) {
        const char *k = it->string;
        bool known = false;
        for (size_t i = 0; keys[i]; i++)
            known |= strcmp(k, keys[i]) == 0;
        if (!known)
            return oacl_fail(ACL_ERROR_INVALID_PARAM, "aclInit", "%s: profiler key \"%s\" is unknown", path, k);
        const char *sv = cJSON_IsString(it) ? it->valuestring : NULL;
        bool onoff = sv && (strcmp(sv, "on") == 0 || strcmp(sv, "off") == 0);
        bool on = onoff && strcmp(sv, "on") == 0;
        bool good;
        if (!strcmp(k, "switch") || !strcmp(k, "aicpu") || !strcmp(k, "l2") || !strcmp(k, "hccl") ||
            !strcmp(k, "msproftx") || !strcmp(k, "instr_profiling") || !strcmp(k, "task_tsfw") ||
            !strcmp(k, "ascendcl") || !strcmp(k, "runtime_api") || !strcmp(k, "task_memory")) {
            good = onoff;
            if (good && !strcmp(k, "switch"))
                g_init_cfg.on = on;
            if (good && !strcmp(k, "ascendcl"))
                ascendcl = on;
            if (good && !strcmp(k, "runtime_api"))
                runtime = on;
            if (good && !strcmp(k, "msproftx"))
                tx = on;
            if (good && !strcmp(k, "task_memory"))
                taskmem = on;
        } else if (!strcmp(k, "output")) {
            good = sv && sv[0] && !bad_path_char(sv);
            output = sv;
        } else if (!strcmp(k, "aic_metrics")) {
            good = false;
            for (uint32_t i = 0; sv && i < 9; i++)
                if (strcmp(sv, g_metric_names[i]) == 0) {
                    good = metric_valid(i);
                    metrics = i;
                    metrics_on = true;
                }
            if (sv && strncmp(sv, "Custom:", 7) == 0)
                good = nts_metrics(sv), metrics_on = true;
        } else if (!strcmp(k, "storage_limit")) {
            good = sv && storage_limit(sv, &g_init_cfg.storage);
        } else if (!strcmp(k, "task_time")) {
            good = sv && (onoff || !strcmp(sv, "l0") || !strcmp(sv, "l1") || !strcmp(sv, "l2") || !strcmp(sv, "l3"));
            task = good && strcmp(sv, "off") != 0;
            l0 = good && strcmp(sv, "l0") == 0;
        } else if (!strcmp(k, "ge_api")) {
            good = sv && (!strcmp(sv, "l0") || !strcmp(sv, "l1") || !strcmp(sv, "off"));
        } else if (!strcmp(k, "llc_profiling")) {
            good = sv && (!strcmp(sv, "read") || !strcmp(sv, "write"));
        } else if (!strcmp(k, "host_sys")) {
            good = sv && comma_list(sv, g_host_sys);
        } else if (!strcmp(k, "host_sys_usage")) {
            good = sv && comma_list(sv, g_host_usage);
        } else if (!strcmp(k, "sys_mem_serviceflow") || !strcmp(k, "optype")) {
            good = sv && comma_list(sv, NULL);
        } else {
            /* the *_freq keys: JSON integers */
            uint64_t hi = (!strcmp(k, "sys_interconnection_freq") || !strcmp(k, "sys_cpu_freq") ||
                           !strcmp(k, "host_sys_usage_freq"))
                              ? 50
                          : !strcmp(k, "instr_profiling_freq") ? 1000000
                                                               : 100;
            double d = cJSON_IsNumber(it) ? it->valuedouble : -1;
            good = d >= 1 && d <= (double)hi && d == (double)(uint64_t)d;
        }
        if (!good)
            return oacl_fail(ACL_ERROR_INVALID_PARAM, "aclInit", "%s: profiler key \"%s\" has an invalid value", path,
                             k);
    }
    uint64_t bits = 0;
    if (ascendcl)
        bits |= ACL_PROF_ACL_API;
    if (runtime)
        bits |= ACL_PROF_RUNTIME_API;
    if (task)
        bits |= l0 ? ACL_PROF_TASK_TIME_L0 : ACL_PROF_TASK_TIME;
    if (tx)
        bits |= ACL_PROF_MSPROFTX;
    if (taskmem)
        bits |= ACL_PROF_TASK_MEMORY;
    if (metrics_on)
        bits |= ACL_PROF_AICORE_METRICS;
    g_init_cfg.bits = bits;
    g_init_cfg.metrics = metrics;
    if (output)
        absolute_path(output, g_init_cfg.output, sizeof(g_init_cfg.output));
    else {
        const char *work = getenv("ASCEND_WORK_PATH");
        if (work && *work)
            snprintf(g_init_cfg.output, sizeof(g_init_cfg.output), "%s/profiling_data", work);
        else
            absolute_path(".", g_init_cfg.output, sizeof(g_init_cfg.output));
    }
    return ACL_SUCCESS;
}

void oacl_prof_acl_init_done(bool ok)
{
    if (!g_init_cfg.on)
        return;
    g_init_cfg.on = false;
    if (!ok)
        return;
    pthread_mutex_lock(&g_lock);
    if (g_mode == MODE_NONE && cmd_start_locked(g_init_cfg.output, g_init_cfg.bits, g_init_cfg.metrics,
                                                g_init_cfg.storage))
        g_cmd_from_init = true;
    else if (g_mode != MODE_NONE)
        OACL_WARN("aclInit: the profiler section is ignored: profiling already runs");
    pthread_mutex_unlock(&g_lock);
}

void oacl_prof_acl_finalize(void)
{
    pthread_mutex_lock(&g_lock);
    if (g_cmd_from_init && g_mode == MODE_CMD) {
        session_finish_locked();
        g_mode = MODE_NONE;
        g_cmd_from_init = false;
    }
    pthread_mutex_unlock(&g_lock);
}
