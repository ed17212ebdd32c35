/* CANN's log engine (see cann_log.h). */
#include "common/cann_log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MODULES 76
#define MSG_LENGTH 1024
#define FILE_MAX_BYTES (20u << 20)
#define MAX_CALLBACKS 16

static const char *const g_names[MODULES] = {
    [0] = "SLOG",      [1] = "IDEDD",     [2] = "SCC",        [3] = "HCCL",     [4] = "FMK",      [5] = "CCU",
    [6] = "DVPP",      [7] = "RUNTIME",   [8] = "CCE",        [9] = "HDC",      [10] = "DRV",     [11] = "NET",
    [12] = "HIXL",     [13] = "DQS",      [22] = "DEVMM",     [23] = "KERNEL",  [24] = "LIBMEDIA", [25] = "CCECPU",
    [27] = "ROS",      [28] = "HCCP",     [29] = "ROCE",      [30] = "TEFUSION", [31] = "PROFILING", [32] = "DP",
    [33] = "APP",      [34] = "TS",       [35] = "TSDUMP",    [36] = "AICPU",   [37] = "LP",      [38] = "TDT",
    [39] = "FE",       [40] = "MD",       [41] = "MB",        [42] = "ME",      [43] = "IMU",     [44] = "IMP",
    [45] = "GE",       [47] = "CAMERA",   [48] = "ASCENDCL",  [49] = "TEEOS",   [50] = "ISP",     [51] = "SIS",
    [52] = "HSM",      [53] = "DSS",      [54] = "PROCMGR",   [55] = "BBOX",    [56] = "AIVECTOR", [57] = "TBE",
    [58] = "FV",       [59] = "PYPTO",    [60] = "TUNE",      [61] = "HSS",     [62] = "FFTS",    [63] = "OP",
    [64] = "UDF",      [65] = "HICAID",   [66] = "TSYNC",     [67] = "AUDIO",   [68] = "TPRT",    [69] = "ASCENDCKERNEL",
    [70] = "ASYS",     [71] = "ATRACE",   [72] = "RTC",       [73] = "SYSMONITOR", [74] = "AML", [75] = "ADETECT",
};

const char *oacl_clog_module_name(uint32_t module, char *buf, unsigned len)
{
    /* id 13 is DQS only in CANN's internal table; the header has no name */
    if (module < MODULES && g_names[module])
        return g_names[module];
    snprintf(buf, len, "%u", module);
    return buf;
}

int oacl_clog_module_id(const char *name)
{
    for (int i = 0; i < MODULES; i++)
        if (g_names[i] && i != 13 && strcmp(g_names[i], name) == 0)
            return i;
    return -1;
}

/* ---- configuration (read once) ------------------------------------------------------ */

static struct {
    int global;
    int module[MODULES];
    bool events;
    bool to_stdout;
    char root[4096];
    unsigned max_files;
} g_cfg;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static int env_level(const char *name, int def)
{
    const char *v = getenv(name);
    return v && v[0] >= '0' && v[0] <= '4' && v[1] == '\0' ? v[0] - '0' : def;
}

static void config_load(void)
{
    g_cfg.global = env_level("ASCEND_GLOBAL_LOG_LEVEL", OACL_CLOG_ERROR);
    for (int i = 0; i < MODULES; i++)
        g_cfg.module[i] = g_cfg.global;
    /* NAME=lvl[:NAME=lvl]...: any error makes the whole variable void */
    const char *m = getenv("ASCEND_MODULE_LOG_LEVEL");
    if (m && *m) {
        int levels[MODULES];
        memcpy(levels, g_cfg.module, sizeof(levels));
        char buf[4096];
        snprintf(buf, sizeof(buf), "%s", m);
        bool ok = strlen(m) < sizeof(buf);
        int entries = 0;
        char *save = NULL;
        for (char *tok = strtok_r(buf, ":", &save); ok && tok; tok = strtok_r(NULL, ":", &save)) {
            char *eq = strchr(tok, '=');
            if (!eq || ++entries > 64) {
                ok = false;
                break;
            }
            *eq = '\0';
            int id = oacl_clog_module_id(tok);
            if (id < 0 || eq[1] < '0' || eq[1] > '4' || eq[2] != '\0') {
                ok = false;
                break;
            }
            levels[id] = eq[1] - '0';
        }
        for (const char *p = m; ok && *p; p++)
            if (p[0] == ':' && (p[1] == ':' || p[1] == '\0'))
                ok = false;
        if (ok && m[0] != ':')
            memcpy(g_cfg.module, levels, sizeof(levels));
    }
    const char *ev = getenv("ASCEND_GLOBAL_EVENT_ENABLE");
    g_cfg.events = !(ev && strcmp(ev, "0") == 0);
    const char *out = getenv("ASCEND_LOG_PRINT_TO_STDOUT");
    if (!out)
        out = getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    g_cfg.to_stdout = out && strcmp(out, "1") == 0;
    const char *root = getenv("ASCEND_PROCESS_LOG_PATH");
    const char *work = getenv("ASCEND_WORK_PATH");
    const char *home = getenv("HOME");
    if (root && *root)
        snprintf(g_cfg.root, sizeof(g_cfg.root), "%s", root);
    else if (work && *work)
        snprintf(g_cfg.root, sizeof(g_cfg.root), "%s/log", work);
    else
        snprintf(g_cfg.root, sizeof(g_cfg.root), "%s/ascend/log", home && *home ? home : "/tmp");
    g_cfg.max_files = 10;
    const char *n = getenv("ASCEND_HOST_LOG_FILE_NUM");
    if (n && *n) {
        char *end;
        unsigned long v = strtoul(n, &end, 10);
        if (!*end && v >= 1 && v <= 1000)
            g_cfg.max_files = (unsigned)v;
    }
}

int oacl_clog_level(uint32_t module)
{
    pthread_once(&g_once, config_load);
    return module < MODULES ? g_cfg.module[module] : g_cfg.global;
}

int oacl_clog_check(uint32_t module, int level)
{
    return level >= oacl_clog_level(module) && level < OACL_CLOG_NULL;
}

/* ---- files -------------------------------------------------------------------------- */

struct logfile {
    int fd;
    int pid;          /* a forked child opens its own */
    size_t bytes;
    char names[1000][64];
    unsigned nnames;  /* files of this process in the directory, oldest first */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct logfile *g_files[2]; /* debug, run */
static bool g_files_off;

static bool mkdirs(const char *dir)
{
    char buf[4200];
    snprintf(buf, sizeof(buf), "%s", dir);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0750) != 0 && errno != EEXIST)
                return false;
            *p = '/';
        }
    }
    return (mkdir(buf, 0750) == 0 || errno == EEXIST) && access(buf, W_OK) == 0;
}

static void file_open(struct logfile *f, uint32_t type)
{
    char dir[4200], path[4300];
    snprintf(dir, sizeof(dir), "%s/%s/plog", g_cfg.root, type == OACL_CLOG_TYPE_RUN ? "run" : "debug");
    if (!mkdirs(dir)) {
        if (!g_files_off)
            fprintf(stderr, "[oacl WARNING] cannot create the log directory %s (%s); CANN log files are off\n", dir,
                    strerror(errno));
        g_files_off = true;
        return;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    char name[64];
    snprintf(name, sizeof(name), "plog-%d_%04d%02d%02d%02d%02d%02d%03ld.log", (int)getpid(), tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    f->pid = (int)getpid();
    f->bytes = 0;
    if (f->fd < 0) {
        g_files_off = true;
        return;
    }
    /* keep at most max_files files of this process */
    if (f->nnames == g_cfg.max_files) {
        char old[4300];
        snprintf(old, sizeof(old), "%s/plog-%s", dir, f->names[0]);
        unlink(old);
        memmove(f->names[0], f->names[1], sizeof(f->names[0]) * (f->nnames - 1));
        f->nnames--;
    }
    snprintf(f->names[f->nnames++], sizeof(f->names[0]), "%s", name + 5);
}

static void file_write(uint32_t type, const char *line, size_t len)
{
    if (g_files_off)
        return;
    struct logfile *f = g_files[type];
    if (!f && !(f = g_files[type] = calloc(1, sizeof(*f))))
        return;
    if (f->nnames && f->pid != (int)getpid()) {
        close(f->fd); /* forked: the parent's file is not ours */
        f->nnames = 0;
        f->fd = -1;
    }
    if (!f->nnames || f->fd < 0 || f->bytes + len > FILE_MAX_BYTES) {
        if (f->nnames && f->fd >= 0)
            close(f->fd);
        file_open(f, type);
        if (g_files_off)
            return;
    }
    ssize_t w = write(f->fd, line, len);
    if (w > 0)
        f->bytes += (size_t)w;
}

/* ---- callbacks -------------------------------------------------------------------------- */

struct callback {
    int32_t (*fn)(void *, uint32_t, const char *, size_t);
    void *user;
    uint32_t type;
    uintptr_t handle;
};

static struct callback g_cbs[MAX_CALLBACKS];
static uintptr_t g_next_handle = 1;
static unsigned g_cb_running; /* guarded by g_lock */
static pthread_cond_t g_cb_cond = PTHREAD_COND_INITIALIZER;
static __thread bool tls_in_cb;

int32_t oacl_clog_add_callback(int32_t (*cb)(void *, uint32_t, const char *, size_t), void *user, uint32_t type,
                               uintptr_t *handle)
{
    if (!cb || !handle || type >= 3)
        return -1;
    pthread_mutex_lock(&g_lock);
    int slot = -1;
    for (int i = 0; i < MAX_CALLBACKS && slot < 0; i++)
        if (!g_cbs[i].fn)
            slot = i;
    if (slot >= 0) {
        g_cbs[slot] = (struct callback){cb, user, type, g_next_handle++};
        *handle = g_cbs[slot].handle;
    }
    pthread_mutex_unlock(&g_lock);
    return slot >= 0 ? 0 : -1;
}

int32_t oacl_clog_remove_callback(uintptr_t handle)
{
    pthread_mutex_lock(&g_lock);
    int found = -1;
    for (int i = 0; i < MAX_CALLBACKS; i++)
        if (g_cbs[i].fn && g_cbs[i].handle == handle) {
            g_cbs[i].fn = NULL;
            found = i;
        }
    /* return after any running invocation finished (unless it is this one) */
    while (found >= 0 && g_cb_running && !tls_in_cb)
        pthread_cond_wait(&g_cb_cond, &g_lock);
    pthread_mutex_unlock(&g_lock);
    return found >= 0 ? 0 : -1;
}

/* ---- records ------------------------------------------------------------------------------ */

static const char *level_name(int level, char *buf, size_t len)
{
    switch (level) {
    case OACL_CLOG_DEBUG: return "DEBUG";
    case OACL_CLOG_INFO: return "INFO";
    case OACL_CLOG_WARNING: return "WARNING";
    case OACL_CLOG_ERROR: return "ERROR";
    case OACL_CLOG_EVENT: return "EVENT";
    default: snprintf(buf, len, "%d", level); return buf;
    }
}

void oacl_clog_write(uint32_t module, int level, uint32_t type, bool also_stdout, const char *content)
{
    extern char *program_invocation_short_name;
    if (tls_in_cb)
        return; /* a callback that logs: the nested record is dropped */
    pthread_once(&g_once, config_load);
    if (level == OACL_CLOG_EVENT && !g_cfg.events)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    char line[MSG_LENGTH + 256], lvl[16], mod[16];
    int n = snprintf(line, sizeof(line), "[%s] %s(%d,%s):%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld ",
                     level_name(level, lvl, sizeof(lvl)), oacl_clog_module_name(module, mod, sizeof(mod)),
                     (int)getpid(), program_invocation_short_name, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, (ts.tv_nsec / 1000) % 1000);
    size_t len = (size_t)n;
    for (const char *p = content; *p && len < (size_t)n + MSG_LENGTH; p++)
        /* one record, one line: control characters become '?' */
        line[len++] = ((unsigned char)*p < 0x20 && *p != '\t') ? '?' : *p;
    line[len++] = '\n';
    uint32_t t = level == OACL_CLOG_EVENT ? OACL_CLOG_TYPE_RUN : type;
    struct callback cbs[MAX_CALLBACKS];
    unsigned ncb = 0;
    pthread_mutex_lock(&g_lock);
    if (g_cfg.to_stdout || also_stdout) {
        flockfile(stdout);
        fwrite_unlocked(line, 1, len, stdout);
        fflush_unlocked(stdout);
        funlockfile(stdout);
    }
    if (!g_cfg.to_stdout)
        file_write(t, line, len);
    for (int i = 0; i < MAX_CALLBACKS; i++)
        if (g_cbs[i].fn && (g_cbs[i].type == 2 || g_cbs[i].type == t))
            cbs[ncb++] = g_cbs[i];
    if (ncb)
        g_cb_running++;
    pthread_mutex_unlock(&g_lock);
    if (!ncb)
        return;
    tls_in_cb = true;
    for (unsigned i = 0; i < ncb; i++)
        cbs[i].fn(cbs[i].user, t, line, len - 1);
    tls_in_cb = false;
    pthread_mutex_lock(&g_lock);
    g_cb_running--;
    pthread_cond_broadcast(&g_cb_cond);
    pthread_mutex_unlock(&g_lock);
}
