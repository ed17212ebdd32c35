/*
 * The profiling collector (see trace.h).
 *
 * Per-thread buffers. Each thread that records owns a `struct tbuf`
 * (registered once in a global list) and appends to its current chunk
 * without locks. A record is bracketed by a `busy` flag: the thread sets it
 * (seq_cst), then re-reads the mask; the session end clears the mask
 * (seq_cst), then waits until every busy flag is clear. Either the recorder
 * sees the mask cleared and backs out, or the end waits for its record:
 * nothing is written into a chunk the exporter reads.
 */
#include "common/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"

uint32_t oacl_trace_mask;
uint64_t oacl_trace_devices;

#define CHUNK_BYTES (64u * 1024u)
#define CHUNK_RECS ((CHUNK_BYTES - 32u) / sizeof(struct oacl_trace_rec))

struct chunk {
    struct chunk *next;
    uint32_t count; /* written records (owner: relaxed; readers run after the session) */
    uint32_t gen;
    struct oacl_trace_rec recs[CHUNK_RECS];
};

struct tbuf {
    struct tbuf *next;  /* global list (g_lock) */
    uint32_t busy;      /* atomic */
    struct chunk *cur;  /* atomic pointer: owner and the session end */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tbuf *g_threads;
static __thread struct tbuf *tls_buf;

static struct {
    uint32_t gen;             /* atomic: current session generation */
    struct chunk *full;       /* full chunks in memory (g_lock), newest first */
    struct chunk *full_tail;
    uint64_t mem_bytes;       /* bytes of chunks in `full` */
    uint64_t mem_cap;
    int spill_fd;             /* -1: none */
    char spill_path[4096];
    uint64_t spilled;         /* chunks in the spill file */
    uint64_t kept_bytes;      /* atomic: task/block record bytes kept */
    uint64_t storage_limit;
    uint64_t dropped;         /* atomic */
    uint32_t warned;
    int64_t epoch_offset;
} g_s = {.spill_fd = -1};

static uint64_t g_next_id; /* atomic */

uint64_t oacl_trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint32_t oacl_trace_tid(void)
{
    static __thread uint32_t tid;
    if (!tid)
        tid = (uint32_t)syscall(SYS_gettid);
    return tid;
}

uint64_t oacl_trace_next_id(void) { return __atomic_add_fetch(&g_next_id, 1, __ATOMIC_RELAXED); }

int64_t oacl_trace_epoch_offset(void) { return g_s.epoch_offset; }
uint64_t oacl_trace_dropped(void) { return __atomic_load_n(&g_s.dropped, __ATOMIC_RELAXED); }

/* ---- interning ------------------------------------------------------------------ */

#define INTERN_MAX_BYTES (16u << 20)

struct istr {
    struct istr *next;
    uint64_t hash;
    char text[];
};

static struct istr *g_intern[4096];
static size_t g_intern_bytes;
static pthread_mutex_t g_intern_lock = PTHREAD_MUTEX_INITIALIZER;

const char *oacl_trace_intern(const char *s)
{
    if (!s)
        return NULL;
    /* A small per-thread cache keyed by the pointer: kernel names are
       interned once per launch, from the same few strings. */
    static __thread struct {
        const char *key;
        const char *val;
    } cache[64];
    size_t slot = ((uintptr_t)s >> 4) & 63;
    if (cache[slot].key == s && strcmp(cache[slot].val, s) == 0)
        return cache[slot].val;
    uint64_t h = 1469598103934665603ull;
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++)
        h = (h ^ *p) * 1099511628211ull;
    pthread_mutex_lock(&g_intern_lock);
    struct istr **head = &g_intern[h & 4095];
    const char *out = NULL;
    for (struct istr *e = *head; e; e = e->next)
        if (e->hash == h && strcmp(e->text, s) == 0) {
            out = e->text;
            break;
        }
    if (!out && g_intern_bytes + n + 1 <= INTERN_MAX_BYTES) {
        struct istr *e = malloc(sizeof(*e) + n + 1);
        if (e) {
            e->hash = h;
            memcpy(e->text, s, n + 1);
            e->next = *head;
            *head = e;
            g_intern_bytes += n + 1;
            out = e->text;
        }
    }
    pthread_mutex_unlock(&g_intern_lock);
    if (!out)
        return "<name dropped: too many distinct names>";
    cache[slot].key = s;
    cache[slot].val = out;
    return out;
}

/* ---- recording ------------------------------------------------------------------- */

static pthread_key_t g_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;

/* A thread's buffer stays in the global list after the thread exits: the
 * session end collects its chunk; nothing else refers to it. */
static void key_init(void) { pthread_key_create(&g_key, NULL); }

static struct tbuf *my_buf(void)
{
    if (tls_buf)
        return tls_buf;
    pthread_once(&g_key_once, key_init);
    struct tbuf *b = calloc(1, sizeof(*b));
    if (!b)
        return NULL;
    pthread_mutex_lock(&g_lock);
    b->next = g_threads;
    g_threads = b;
    pthread_mutex_unlock(&g_lock);
    tls_buf = b;
    return b;
}

/* Writes c to the spill file (g_lock held); true if it went there. */
static bool spill_locked(struct chunk *c)
{
    if (g_s.spill_fd < 0) {
        if (!g_s.spill_path[0])
            return false;
        g_s.spill_fd = open(g_s.spill_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
        if (g_s.spill_fd < 0) {
            OACL_WARN("profiling: cannot create the spill file %s (%s); keeping records in memory",
                      g_s.spill_path, strerror(errno));
            g_s.spill_path[0] = '\0';
            return false;
        }
    }
    const char *p = (const char *)c;
    size_t left = sizeof(*c);
    off_t off = (off_t)(g_s.spilled * sizeof(*c));
    while (left) {
        ssize_t w = pwrite(g_s.spill_fd, p, left, off);
        if (w <= 0) {
            if (w < 0 && errno == EINTR)
                continue;
            return false;
        }
        p += w;
        left -= (size_t)w;
        off += w;
    }
    g_s.spilled++;
    return true;
}

/* A full chunk leaves its thread: to the session list, or the spill file
 * once the list holds mem_cap bytes. */
static void retire_chunk(struct chunk *c)
{
    pthread_mutex_lock(&g_lock);
    if (g_s.mem_bytes + sizeof(*c) > g_s.mem_cap && spill_locked(c)) {
        pthread_mutex_unlock(&g_lock);
        free(c);
        return;
    }
    c->next = NULL;
    if (g_s.full_tail)
        g_s.full_tail->next = c;
    else
        g_s.full = c;
    g_s.full_tail = c;
    g_s.mem_bytes += sizeof(*c);
    pthread_mutex_unlock(&g_lock);
}

void oacl_trace_emit(const struct oacl_trace_rec *r)
{
    struct tbuf *b = my_buf();
    if (!b)
        return;
    __atomic_store_n(&b->busy, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&oacl_trace_mask, __ATOMIC_SEQ_CST))
        goto out;
    if (g_s.storage_limit && (r->kind == OACL_REC_TASK || r->kind == OACL_REC_BLOCK)) {
        uint64_t kept = __atomic_add_fetch(&g_s.kept_bytes, sizeof(*r), __ATOMIC_RELAXED);
        if (kept > g_s.storage_limit) {
            __atomic_add_fetch(&g_s.dropped, 1, __ATOMIC_RELAXED);
            if (!__atomic_exchange_n(&g_s.warned, 1, __ATOMIC_RELAXED))
                OACL_WARN("profiling: the storage limit (%llu bytes) is reached; later task and block records "
                          "are dropped",
                          (unsigned long long)g_s.storage_limit);
            goto out;
        }
    }
    uint32_t gen = __atomic_load_n(&g_s.gen, __ATOMIC_ACQUIRE);
    struct chunk *c = __atomic_load_n(&b->cur, __ATOMIC_ACQUIRE);
    if (c && (c->gen != gen || c->count == CHUNK_RECS)) {
        if (c->gen == gen)
            retire_chunk(c);
        else
            free(c); /* left from an earlier session that never collected it */
        c = NULL;
    }
    if (!c) {
        c = malloc(sizeof(*c));
        if (!c) {
            __atomic_store_n(&b->cur, NULL, __ATOMIC_RELEASE);
            goto out;
        }
        c->next = NULL;
        c->count = 0;
        c->gen = gen;
        __atomic_store_n(&b->cur, c, __ATOMIC_RELEASE);
    }
    c->recs[c->count] = *r;
    __atomic_store_n(&c->count, c->count + 1, __ATOMIC_RELEASE);
out:
    __atomic_store_n(&b->busy, 0, __ATOMIC_RELEASE);
}

/* ---- session ----------------------------------------------------------------------- */

void oacl_trace_begin(uint32_t cats, uint64_t dev_mask, uint64_t mem_cap, const char *spill_path,
                      uint64_t storage_limit)
{
    struct timespec rt, mt;
    clock_gettime(CLOCK_REALTIME, &rt);
    clock_gettime(CLOCK_MONOTONIC, &mt);
    pthread_mutex_lock(&g_lock);
    g_s.epoch_offset = ((int64_t)rt.tv_sec - (int64_t)mt.tv_sec) * 1000000000ll + (rt.tv_nsec - mt.tv_nsec);
    g_s.full = g_s.full_tail = NULL;
    g_s.mem_bytes = 0;
    g_s.mem_cap = mem_cap;
    g_s.spill_fd = -1;
    g_s.spilled = 0;
    snprintf(g_s.spill_path, sizeof(g_s.spill_path), "%s", spill_path ? spill_path : "");
    g_s.storage_limit = storage_limit;
    __atomic_store_n(&g_s.kept_bytes, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&g_s.dropped, 0, __ATOMIC_RELAXED);
    g_s.warned = 0;
    __atomic_add_fetch(&g_s.gen, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g_lock);
    __atomic_store_n(&oacl_trace_devices, dev_mask, __ATOMIC_RELEASE);
    __atomic_store_n(&oacl_trace_mask, cats, __ATOMIC_SEQ_CST);
}

void oacl_trace_end(void)
{
    __atomic_store_n(&oacl_trace_mask, 0, __ATOMIC_SEQ_CST);
    uint32_t gen = __atomic_load_n(&g_s.gen, __ATOMIC_ACQUIRE);
    /* Wait for records in flight without the lock: a recorder may need it
       to retire a full chunk. Buffers are never freed and are added at the
       head, so the list can be walked from a snapshot; a thread added later
       sees the mask cleared. */
    pthread_mutex_lock(&g_lock);
    struct tbuf *head = g_threads;
    pthread_mutex_unlock(&g_lock);
    for (struct tbuf *b = head; b; b = b->next)
        while (__atomic_load_n(&b->busy, __ATOMIC_SEQ_CST))
            sched_yield();
    pthread_mutex_lock(&g_lock);
    for (struct tbuf *b = g_threads; b; b = b->next) {
        struct chunk *c = __atomic_load_n(&b->cur, __ATOMIC_ACQUIRE);
        if (c && c->gen == gen && c->count) {
            __atomic_store_n(&b->cur, NULL, __ATOMIC_RELEASE);
            c->next = NULL;
            if (g_s.full_tail)
                g_s.full_tail->next = c;
            else
                g_s.full = c;
            g_s.full_tail = c;
        }
    }
    pthread_mutex_unlock(&g_lock);
}

static bool walk_chunk(const struct chunk *c, bool (*fn)(const struct oacl_trace_rec *, void *), void *arg)
{
    uint32_t n = __atomic_load_n(&c->count, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < n && i < CHUNK_RECS; i++)
        if (!fn(&c->recs[i], arg))
            return false;
    return true;
}

bool oacl_trace_walk(bool (*fn)(const struct oacl_trace_rec *r, void *arg), void *arg)
{
    if (g_s.spill_fd >= 0 && g_s.spilled) {
        struct chunk *c = malloc(sizeof(*c));
        if (!c)
            return false;
        for (uint64_t i = 0; i < g_s.spilled; i++) {
            if (pread(g_s.spill_fd, c, sizeof(*c), (off_t)(i * sizeof(*c))) != (ssize_t)sizeof(*c))
                break;
            if (!walk_chunk(c, fn, arg)) {
                free(c);
                return false;
            }
        }
        free(c);
    }
    for (const struct chunk *c = g_s.full; c; c = c->next)
        if (!walk_chunk(c, fn, arg))
            return false;
    return true;
}

void oacl_trace_release(void)
{
    pthread_mutex_lock(&g_lock);
    struct chunk *c = g_s.full;
    g_s.full = g_s.full_tail = NULL;
    g_s.mem_bytes = 0;
    if (g_s.spill_fd >= 0) {
        close(g_s.spill_fd);
        unlink(g_s.spill_path);
        g_s.spill_fd = -1;
    }
    g_s.spilled = 0;
    pthread_mutex_unlock(&g_lock);
    while (c) {
        struct chunk *n = c->next;
        free(c);
        c = n;
    }
}

/* ---- API-call scopes ------------------------------------------------------------------ */

static __thread struct oacl_trace_scope *tls_scope;
static __thread int tls_fail;

void oacl_trace_note_fail(int code) { tls_fail = code; }

void oacl_trace_scope_begin(struct oacl_trace_scope *s, const char *name, const char *rt, uint8_t level)
{
    s->level = level;
    s->name = name;
    s->rt = rt;
    s->conn = 0;
    s->owns_flow = 0;
    s->outer = tls_scope;
    tls_scope = s;
    if (!s->outer)
        tls_fail = 0;
    s->t0 = oacl_trace_now();
    s->t1 = rt && (s->on & OACL_TR_RUNTIME) ? oacl_trace_now() : 0;
}

uint64_t oacl_trace_conn(void)
{
    struct oacl_trace_scope *s = tls_scope;
    if (!s)
        return 0;
    if (!s->conn)
        s->conn = oacl_trace_next_id();
    s->owns_flow = 1;
    return s->conn;
}

void oacl_trace_scope_end(struct oacl_trace_scope *s)
{
    uint64_t t2 = s->t1 ? oacl_trace_now() : 0;
    uint64_t t3 = oacl_trace_now();
    tls_scope = s->outer;
    int ret = s->outer ? 0 : tls_fail;
    uint32_t tid = oacl_trace_tid();
    struct oacl_trace_rec r = {.kind = OACL_REC_API, .tid = tid, .b = (uint64_t)(int64_t)ret};
    if (ret)
        r.flags |= OACL_RECF_FAILED;
    bool flow = s->owns_flow;
    if (s->t1) {
        r.level = OACL_LVL_RUNTIME;
        r.start = s->t1;
        r.end = t2;
        r.name = s->rt;
        r.a = s->conn;
        oacl_trace_emit(&r);
    }
    bool outer_on = s->level == OACL_LVL_NODE ? (s->on & OACL_TR_NODE) : (s->on & (OACL_TR_ACL | OACL_TR_STATS));
    if (outer_on) {
        r.level = s->level;
        r.start = s->t0;
        r.end = t3;
        r.name = s->name;
        r.name2 = s->level == OACL_LVL_NODE ? s->name : NULL;
        r.a = s->conn;
        /* The flow starts at the innermost event that queued the work. */
        r.c = flow ? 1 : 0;
        if (flow)
            r.flags |= OACL_RECF_FLOW;
        oacl_trace_emit(&r);
    }
    /* The enclosing event shows the same connection (CANN's args). */
    if (s->outer && s->conn && !s->outer->conn)
        s->outer->conn = s->conn;
}
