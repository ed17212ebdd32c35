/*
 * Dump files (acl-rt-misc.md §3.3.5): the executor-side snapshots of a
 * launch's argument blob and the runtime buffers its 8-byte slots point
 * into, the oacl dump format, and delivery to a file or, with
 * acldumpRegCallback, to the callback on a dedicated thread in chunks.
 */
#include "common/dump.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/addr_registry.h"
#include "common/log.h"

#define HEADER_SIZE 320u
#define CHUNK_MAX ((size_t)4 << 20)
#define FILE_PATH_MAX 4096

/* ---- the format ------------------------------------------------------------------ */

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

bool oacl_dump_build(uint32_t kind, uint32_t device, int32_t stream_id, uint32_t task_id, uint32_t num_blocks,
                     uint32_t block_offset, int32_t status, const char *kernel_name, const void *args,
                     uint64_t args_size, const struct oacl_dump_buf *bufs, uint32_t num_bufs, const void *trailer,
                     size_t trailer_len, uint8_t **out, size_t *len)
{
    size_t total = HEADER_SIZE + pad8(args_size) + trailer_len;
    for (uint32_t i = 0; i < num_bufs; i++)
        total += 32 + pad8(bufs[i].size);
    uint8_t *b = calloc(1, total);
    if (!b)
        return false;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t now_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    uint32_t version = 1, hsize = HEADER_SIZE;
    memcpy(b, "OACLDUMP", 8);
    memcpy(b + 8, &version, 4);
    memcpy(b + 12, &hsize, 4);
    memcpy(b + 16, &kind, 4);
    memcpy(b + 20, &device, 4);
    memcpy(b + 24, &stream_id, 4);
    memcpy(b + 28, &task_id, 4);
    memcpy(b + 32, &num_blocks, 4);
    memcpy(b + 36, &block_offset, 4);
    memcpy(b + 40, &now_us, 8);
    memcpy(b + 48, &status, 4);
    memcpy(b + 52, &num_bufs, 4);
    memcpy(b + 56, &args_size, 8);
    if (kernel_name) {
        size_t n = strnlen(kernel_name, 255);
        memcpy(b + 64, kernel_name, n);
    }
    size_t at = HEADER_SIZE;
    if (args_size)
        memcpy(b + at, args, args_size);
    at += pad8(args_size);
    for (uint32_t i = 0; i < num_bufs; i++) {
        memcpy(b + at, &bufs[i].phase, 4);
        memcpy(b + at + 4, &bufs[i].arg_offset, 4);
        memcpy(b + at + 8, &bufs[i].address, 8);
        memcpy(b + at + 16, &bufs[i].size, 8);
        memcpy(b + at + 24, &bufs[i].flags, 8);
        at += 32;
        if (bufs[i].size)
            memcpy(b + at, bufs[i].data, bufs[i].size);
        at += pad8(bufs[i].size);
    }
    if (trailer_len)
        memcpy(b + at, trailer, trailer_len);
    *out = b;
    *len = total;
    return true;
}

/* ---- snapshots -------------------------------------------------------------------- */

struct oacl_dump_snap {
    uint32_t n;
    struct oacl_dump_buf bufs[];
};

static uint64_t max_buffer(void)
{
    static uint64_t cached;
    uint64_t v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (v)
        return v;
    v = 256ull << 20;
    const char *e = getenv("OACL_DUMP_MAX_BUFFER");
    if (e && *e) {
        char *end;
        unsigned long long x = strtoull(e, &end, 10);
        if (!*end && x > 0)
            v = x;
    }
    __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
    return v;
}

/* Copies of the runtime buffers the blob's 8-byte slots point into. */
static struct oacl_dump_snap *snapshot(uint32_t phase, const void *args, size_t args_size)
{
    size_t slots = args_size / 8;
    struct oacl_dump_snap *s = calloc(1, sizeof(*s) + slots * sizeof(struct oacl_dump_buf));
    if (!s)
        return NULL;
    uintptr_t blob = (uintptr_t)args;
    for (size_t i = 0; i < slots; i++) {
        uint64_t v;
        memcpy(&v, (const uint8_t *)args + i * 8, 8);
        if (!v || (v >= blob && v < blob + args_size))
            continue; /* not an address, or into the argument copy itself */
        struct oacl_mem_record r;
        if (!oacl_registry_lookup(OACL_SPACE_ALLOC, (uintptr_t)v, &r))
            continue;
        /* to the end of the allocation as asked for (not its padding) */
        size_t len = r.user_size ? r.user_size : r.size;
        if ((uintptr_t)v >= r.base + len)
            continue;
        uint64_t size = r.base + len - v, flags = 0;
        if (size > max_buffer()) {
            size = max_buffer();
            flags = 1;
        }
        void *copy = malloc(size ? size : 1);
        if (!copy)
            continue;
        memcpy(copy, (const void *)(uintptr_t)v, size);
        s->bufs[s->n++] = (struct oacl_dump_buf){.phase = phase,
                                                 .arg_offset = (uint32_t)(i * 8),
                                                 .address = v,
                                                 .size = size,
                                                 .flags = flags,
                                                 .data = copy};
    }
    return s;
}

static void snap_free(struct oacl_dump_snap *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->n; i++)
        free((void *)s->bufs[i].data);
    free(s);
}

void oacl_dump_plan_free(struct oacl_dump_plan *p)
{
    if (!p)
        return;
    snap_free(p->before);
    free(p);
}

void oacl_dump_before(struct oacl_dump_plan *p, const void *args)
{
    p->before = snapshot(OACL_DUMP_PHASE_INPUT, args, p->args_size);
}

static void sanitize(const char *in, char *out, size_t len)
{
    size_t i = 0;
    for (; in[i] && i + 1 < len; i++)
        out[i] = (in[i] == ' ' || in[i] == '.' || in[i] == '/' || in[i] == '\\') ? '_' : in[i];
    out[i] = '\0';
}

void oacl_dump_after(struct oacl_dump_plan *p, const void *args, int32_t stream_id, uint32_t task_id,
                     uint32_t num_blocks, uint32_t block_offset, int status)
{
    struct oacl_dump_snap *after = p->output ? snapshot(OACL_DUMP_PHASE_OUTPUT, args, p->args_size) : NULL;
    uint32_t n = (p->before ? p->before->n : 0) + (after ? after->n : 0);
    struct oacl_dump_buf *bufs = calloc(n ? n : 1, sizeof(*bufs));
    if (bufs) {
        uint32_t k = 0;
        for (uint32_t i = 0; p->before && i < p->before->n; i++)
            bufs[k++] = p->before->bufs[i];
        for (uint32_t i = 0; after && i < after->n; i++)
            bufs[k++] = after->bufs[i];
        uint8_t *bytes;
        size_t len;
        if (oacl_dump_build(OACL_DUMP_KIND_DATA, p->device, stream_id, task_id, num_blocks, block_offset, status,
                            p->kernel_name, args, p->args_size, bufs, n, NULL, 0, &bytes, &len)) {
            char name[256], path[FILE_PATH_MAX + 600];
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            sanitize(p->kernel_name, name, sizeof(name));
            snprintf(path, sizeof(path), "%s/%s.%s.%u.%d.%llu", p->dir, name, name, task_id, stream_id,
                     (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000ull);
            if (!oacl_dump_deliver(path, bytes, len, 0640))
                OACL_WARN("dump: cannot write %s: %s", path, strerror(errno));
        }
        free(bufs);
    }
    snap_free(after);
    snap_free(p->before);
    p->before = NULL;
}

/* ---- exception dumps ------------------------------------------------------------------ */

static pthread_mutex_t g_exc_lock = PTHREAD_MUTEX_INITIALIZER;
static bool g_exc_on;
static char g_exc_path[FILE_PATH_MAX];

void oacl_dump_set_exception(bool on, const char *dump_path)
{
    pthread_mutex_lock(&g_exc_lock);
    snprintf(g_exc_path, sizeof(g_exc_path), "%s", dump_path ? dump_path : "");
    __atomic_store_n(&g_exc_on, on, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g_exc_lock);
}

/* ASCEND_DUMP_SCENE / NPU_COLLECT_PATH switch it on without any JSON. */
static bool env_exception(void)
{
    const char *scene = getenv("ASCEND_DUMP_SCENE");
    if (scene && (!strcmp(scene, "aic_err_brief_dump") || !strcmp(scene, "aic_err_norm_dump") ||
                  !strcmp(scene, "aic_err_detail_dump") || !strcmp(scene, "lite_exception")))
        return true;
    const char *collect = getenv("NPU_COLLECT_PATH");
    return collect && *collect;
}

bool oacl_dump_exception_on(void) { return __atomic_load_n(&g_exc_on, __ATOMIC_ACQUIRE) || env_exception(); }

bool oacl_dump_mkdirs(const char *dir)
{
    char buf[FILE_PATH_MAX];
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
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode);
}

bool oacl_dump_exception_dir(char *out, size_t len)
{
    const char *roots[4] = {getenv("ASCEND_DUMP_PATH"), getenv("ASCEND_WORK_PATH"), NULL, "."};
    char cfg[FILE_PATH_MAX];
    pthread_mutex_lock(&g_exc_lock);
    snprintf(cfg, sizeof(cfg), "%s", g_exc_path);
    pthread_mutex_unlock(&g_exc_lock);
    const char *collect = getenv("NPU_COLLECT_PATH");
    roots[2] = cfg[0] ? cfg : (collect && *collect ? collect : NULL);
    for (int i = 0; i < 4; i++) {
        if (!roots[i] || !*roots[i])
            continue;
        char dir[FILE_PATH_MAX];
        if (snprintf(dir, sizeof(dir), "%s/extra-info/data-dump", roots[i]) >= (int)sizeof(dir))
            continue;
        if (oacl_dump_mkdirs(dir) && access(dir, W_OK) == 0) {
            if (roots[i][0] != '/') {
                char cwd[FILE_PATH_MAX];
                if (!getcwd(cwd, sizeof(cwd)))
                    continue;
                snprintf(out, len, "%s/%s/", cwd, dir);
            } else {
                snprintf(out, len, "%s/", dir);
            }
            return true;
        }
    }
    return false;
}

void oacl_dump_time(char *out, size_t len, bool ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    char base[32];
    strftime(base, sizeof(base), "%Y%m%d%H%M%S", &tm);
    if (ms)
        snprintf(out, len, "%.14s%03d", base, (int)(ts.tv_nsec / 1000000) % 1000);
    else
        snprintf(out, len, "%s", base);
}

void oacl_dump_exception(uint32_t device, int32_t stream_id, uint32_t task_id, const char *kernel_name,
                         const void *args, size_t args_size, uint32_t num_blocks, uint32_t block_offset, int status)
{
    char dir[FILE_PATH_MAX];
    if (!oacl_dump_exception_dir(dir, sizeof(dir)))
        return;
    struct oacl_dump_snap *s = args ? snapshot(OACL_DUMP_PHASE_FAILURE, args, args_size) : NULL;
    uint8_t *bytes;
    size_t len;
    if (oacl_dump_build(OACL_DUMP_KIND_EXCEPTION, device, stream_id, task_id, num_blocks, block_offset, status,
                        kernel_name, args, args ? args_size : 0, s ? s->bufs : NULL, s ? s->n : 0, NULL, 0, &bytes,
                        &len)) {
        char stamp[32], path[FILE_PATH_MAX + 200];
        oacl_dump_time(stamp, sizeof(stamp), true);
        snprintf(path, sizeof(path), "%s%u/exception_info.%d.%u.%s", dir, device, stream_id, task_id, stamp);
        if (!oacl_dump_deliver(path, bytes, len, 0400))
            OACL_WARN("dump: cannot write %s: %s", path, strerror(errno));
    }
    snap_free(s);
}

/* ---- delivery -------------------------------------------------------------------------- */

/* The callback's view of a chunk (acl_dump.h's acldumpChunk, 4120-byte header). */
struct chunk_head {
    char fileName[FILE_PATH_MAX];
    uint32_t bufLen;
    uint32_t isLastChunk;
    int64_t offset;
    int32_t flag;
    uint8_t dataBuf[];
};

struct job {
    struct job *next;
    char path[FILE_PATH_MAX];
    uint8_t *bytes;
    size_t len;
};

static pthread_mutex_t g_cb_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cb_cond = PTHREAD_COND_INITIALIZER;
static int32_t (*g_cb)(const void *, int32_t);
static struct job *g_head, *g_tail;
static bool g_thread_started, g_running_cb;
static uint64_t g_queued, g_done;

static bool write_file(const char *path, const uint8_t *bytes, size_t len, mode_t mode);

static void *dump_thread(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&g_cb_lock);
    for (;;) {
        while (!g_head)
            pthread_cond_wait(&g_cb_cond, &g_cb_lock);
        struct job *j = g_head;
        g_head = j->next;
        if (!g_head)
            g_tail = NULL;
        int32_t (*cb)(const void *, int32_t) = g_cb;
        g_running_cb = cb != NULL;
        pthread_mutex_unlock(&g_cb_lock);
        if (cb) {
            struct chunk_head *c = malloc(sizeof(*c) + (j->len < CHUNK_MAX ? j->len : CHUNK_MAX));
            size_t off = 0;
            do {
                size_t n = j->len - off < CHUNK_MAX ? j->len - off : CHUNK_MAX;
                if (!c)
                    break;
                memset(c, 0, sizeof(*c));
                snprintf(c->fileName, sizeof(c->fileName), "%s", j->path);
                c->bufLen = (uint32_t)n;
                c->offset = (int64_t)off;
                c->isLastChunk = off + n >= j->len;
                memcpy(c->dataBuf, j->bytes + off, n);
                int32_t rc = cb(c, (int32_t)(sizeof(*c) + n));
                if (rc)
                    OACL_WARN("dump: the dump callback returned %d for %s", rc, j->path);
                off += n;
            } while (off < j->len);
            free(c);
        } else {
            /* the callback went away meanwhile: a file after all */
            if (!write_file(j->path, j->bytes, j->len, 0640))
                OACL_WARN("dump: cannot write %s", j->path);
        }
        free(j->bytes);
        free(j);
        pthread_mutex_lock(&g_cb_lock);
        g_running_cb = false;
        g_done++;
        pthread_cond_broadcast(&g_cb_cond);
    }
    return NULL;
}

void oacl_dump_set_callback(int32_t (*cb)(const void *chunk, int32_t size))
{
    pthread_mutex_lock(&g_cb_lock);
    g_cb = cb;
    while (!cb && g_running_cb)
        pthread_cond_wait(&g_cb_cond, &g_cb_lock);
    pthread_mutex_unlock(&g_cb_lock);
}

void oacl_dump_drain(void)
{
    pthread_mutex_lock(&g_cb_lock);
    uint64_t target = g_queued;
    while (g_done < target)
        pthread_cond_wait(&g_cb_cond, &g_cb_lock);
    pthread_mutex_unlock(&g_cb_lock);
}

static bool write_file(const char *path, const uint8_t *bytes, size_t len, mode_t mode)
{
    char dir[FILE_PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (!oacl_dump_mkdirs(dir))
            return false;
    }
    unlink(path); /* an existing (maybe read-only) file of that name is replaced */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, bytes + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return false;
        }
        off += (size_t)w;
    }
    fchmod(fd, mode);
    return close(fd) == 0;
}

bool oacl_dump_deliver(const char *path, uint8_t *bytes, size_t len, mode_t mode)
{
    pthread_mutex_lock(&g_cb_lock);
    if (!g_cb) {
        pthread_mutex_unlock(&g_cb_lock);
        bool ok = write_file(path, bytes, len, mode);
        free(bytes);
        return ok;
    }
    struct job *j = calloc(1, sizeof(*j));
    if (!j) {
        pthread_mutex_unlock(&g_cb_lock);
        free(bytes);
        return false;
    }
    snprintf(j->path, sizeof(j->path), "%s", path);
    j->bytes = bytes;
    j->len = len;
    if (!g_thread_started) {
        pthread_t t;
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        g_thread_started = pthread_create(&t, NULL, dump_thread, NULL) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (g_thread_started)
            pthread_detach(t);
    }
    if (!g_thread_started) {
        pthread_mutex_unlock(&g_cb_lock);
        free(j);
        bool ok = write_file(path, bytes, len, mode);
        free(bytes);
        return ok;
    }
    if (g_tail)
        g_tail->next = j;
    else
        g_head = j;
    g_tail = j;
    g_queued++;
    pthread_cond_broadcast(&g_cb_cond);
    pthread_mutex_unlock(&g_cb_lock);
    return true;
}
