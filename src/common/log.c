#include "common/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cann_log.h"

static int g_level = -1;
static pthread_once_t g_level_once = PTHREAD_ONCE_INIT;

static void log_level_init(void)
{
    static const char *const names[] = {"debug", "info", "warning", "error", "none"};
    int level = OACL_LOG_WARNING;
    const char *env = getenv("OACL_LOG_LEVEL");
    if (env && *env) {
        for (int i = 0; i < 5; i++)
            if (strcmp(env, names[i]) == 0)
                level = i;
        if (env[0] >= '0' && env[0] <= '4' && env[1] == '\0')
            level = env[0] - '0';
    } else if ((env = getenv("ASCEND_GLOBAL_LOG_LEVEL")) && env[0] >= '0' && env[0] <= '4' &&
               env[1] == '\0') {
        level = env[0] - '0';
    }
    __atomic_store_n(&g_level, level, __ATOMIC_RELEASE);
}

int oacl_log_enabled(enum oacl_log_level level)
{
    pthread_once(&g_level_once, log_level_init);
    return (int)level >= __atomic_load_n(&g_level, __ATOMIC_ACQUIRE) && level < OACL_LOG_NONE;
}

void oacl_log_stderr(enum oacl_log_level level, const char *msg)
{
    static const char *const tags[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    if (!oacl_log_enabled(level))
        return;
    char line[1024];
    int n = snprintf(line, sizeof(line), "[oacl %s] ", tags[level]);
    snprintf(line + n, sizeof(line) - (size_t)n - 1, "%s", msg);
    /* A message is one line: control characters from embedded values (an
     * environment variable holding a newline, say) become '?', so no part
     * of a log message can stand on a line of its own. Tools parse the
     * output of programs for bare words (the SoC name of a detection
     * program, for one). */
    size_t len = strlen(line);
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
            line[i] = '?';
    line[len++] = '\n';
    fwrite(line, 1, len, stderr);
}

static void vlog(enum oacl_log_level level, const char *file, int line, const char *func, const char *fmt,
                 va_list ap)
{
    bool to_stderr = oacl_log_enabled(level);
    bool to_cann = level < OACL_LOG_NONE && oacl_clog_check(OACL_CLOG_MOD_RUNTIME, (int)level);
    if (!to_stderr && !to_cann)
        return;
    char msg[1024];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (to_stderr)
        oacl_log_stderr(level, msg);
    if (to_cann) {
        /* RUNTIME shape: [<file>:<line>]<tid> <func>:<message> */
        char content[1200];
        const char *base = file ? strrchr(file, '/') : NULL;
        snprintf(content, sizeof(content), "[%s:%d]%ld %s:%s", base ? base + 1 : file ? file : "?", line,
                 (long)syscall(SYS_gettid), func ? func : "?", msg);
        oacl_clog_write(OACL_CLOG_MOD_RUNTIME, (int)level, OACL_CLOG_TYPE_DEBUG, false, content);
    }
}

void oacl_log_at(enum oacl_log_level level, const char *file, int line, const char *func, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(level, file, line, func, fmt, ap);
    va_end(ap);
}

void oacl_log(enum oacl_log_level level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(level, NULL, 0, NULL, fmt, ap);
    va_end(ap);
}
