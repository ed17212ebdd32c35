/*
 * Error reporting: the recent-error text behind aclGetRecentErrMsg (per
 * thread, or process-wide with err_msg_mode 1) and the per-thread last
 * runtime error behind aclrtGetLastError / aclrtPeekAtLastError.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cann_log.h"
#include "common/log.h"
#include "common/trace.h"
#include "runtime/runtime.h"

/* Recent-error text is kept newest first and capped: the oldest lines go. */
#define ERRMSG_CAP 8192

struct errmsg {
    char *text;       /* pending lines, newest first */
    size_t len;
    char *returned;   /* what the last aclGetRecentErrMsg handed out */
};

static __thread struct errmsg tls_errmsg;
static __thread aclError tls_last_error;
static struct errmsg g_errmsg;
static pthread_mutex_t g_errmsg_lock = PTHREAD_MUTEX_INITIALIZER;
static bool g_errmsg_global;
static pthread_key_t g_errmsg_key;
static pthread_once_t g_errmsg_once = PTHREAD_ONCE_INIT;

static void errmsg_free(void *p)
{
    struct errmsg *m = p;
    free(m->text);
    free(m->returned);
    m->text = m->returned = NULL;
    m->len = 0;
}

static void errmsg_key_init(void) { pthread_key_create(&g_errmsg_key, errmsg_free); }

void oacl_errmsg_set_global(bool global) { __atomic_store_n(&g_errmsg_global, global, __ATOMIC_RELEASE); }

bool oacl_is_runtime_code(aclError code)
{
    return (code >= 107000 && code < 108000) || (code >= 207000 && code < 208000) ||
           (code >= 507000 && code < 508000);
}

void oacl_set_last_error(aclError code) { tls_last_error = code; }

/* Prepends line to m, dropping the oldest lines beyond the cap. */
static void errmsg_push(struct errmsg *m, const char *line)
{
    size_t n = strlen(line);
    size_t keep = m->len;
    if (n + 1 + keep > ERRMSG_CAP) {
        keep = ERRMSG_CAP > n + 1 ? ERRMSG_CAP - n - 1 : 0;
        while (keep > 0 && m->text[keep - 1] != '\n')
            keep--; /* cut at a line boundary */
    }
    char *t = malloc(n + 1 + keep + 1);
    if (!t)
        return;
    memcpy(t, line, n);
    t[n] = '\n';
    if (keep)
        memcpy(t + n + 1, m->text, keep);
    t[n + 1 + keep] = '\0';
    free(m->text);
    m->text = t;
    m->len = n + 1 + keep;
}

static void record_line(const char *line)
{
    if (__atomic_load_n(&g_errmsg_global, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&g_errmsg_lock);
        errmsg_push(&g_errmsg, line);
        pthread_mutex_unlock(&g_errmsg_lock);
        return;
    }
    pthread_once(&g_errmsg_once, errmsg_key_init);
    if (!tls_errmsg.text && !tls_errmsg.returned)
        pthread_setspecific(g_errmsg_key, &tls_errmsg);
    errmsg_push(&tls_errmsg, line);
}

void oacl_note_error(const char *fmt, ...)
{
    char line[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    record_line(line);
}

aclError oacl_fail_at(const char *file, int src_line, aclError code, const char *fn, const char *fmt, ...)
{
    char reason[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    char line[768];
    snprintf(line, sizeof(line), "%s: %s (error %d)", fn, reason, code);
    record_line(line);
    if (oacl_is_runtime_code(code))
        tls_last_error = code;
    oacl_trace_note_fail(code); /* the profiler's API event shows it */
    oacl_log_stderr(OACL_LOG_DEBUG, line);
    /* CANN's log: API-layer checks are ERROR records of module ASCENDCL,
       "[<file>:<line>]<tid> <func>: <message>" */
    if (oacl_clog_check(OACL_CLOG_MOD_ASCENDCL, OACL_CLOG_ERROR)) {
        char content[1000];
        const char *base = strrchr(file, '/');
        snprintf(content, sizeof(content), "[%s:%d]%u %s: %s (error %d)", base ? base + 1 : file, src_line,
                 oacl_trace_tid(), fn, reason, code);
        oacl_clog_write(OACL_CLOG_MOD_ASCENDCL, OACL_CLOG_ERROR, OACL_CLOG_TYPE_DEBUG, false, content);
    }
    return code;
}

OACL_API const char *aclGetRecentErrMsg(void)
{
    struct errmsg *m = &tls_errmsg;
    bool global = __atomic_load_n(&g_errmsg_global, __ATOMIC_ACQUIRE);
    if (global) {
        m = &g_errmsg;
        pthread_mutex_lock(&g_errmsg_lock);
    }
    /* The text handed out last time stays valid until this call. */
    free(m->returned);
    m->returned = m->text;
    m->text = NULL;
    m->len = 0;
    if (m->returned) {
        /* Drop the final newline: the text reads as lines joined by '\n'. */
        size_t n = strlen(m->returned);
        if (n && m->returned[n - 1] == '\n')
            m->returned[n - 1] = '\0';
    }
    const char *r = m->returned;
    if (global)
        pthread_mutex_unlock(&g_errmsg_lock);
    return r;
}

OACL_API aclError aclrtGetLastError(aclrtLastErrLevel level)
{
    if (level != ACL_RT_THREAD_LEVEL)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "level %d is not ACL_RT_THREAD_LEVEL", (int)level);
    aclError e = tls_last_error;
    tls_last_error = ACL_SUCCESS;
    return e;
}

OACL_API aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
    if (level != ACL_RT_THREAD_LEVEL)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "level %d is not ACL_RT_THREAD_LEVEL", (int)level);
    return tls_last_error;
}
