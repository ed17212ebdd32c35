/*
 * The logging functions of acl_base_rt.h (aclAppLog) and of CANN's
 * libascendalog.so (base/acl_log.h, base/alog_pub.h), on the log engine of
 * common/cann_log.c (profiling-and-tools.md §3.7, §5).
 *
 * The base/ headers declare these functions weak (programs test for them);
 * the definitions here are strong, so they do not include those headers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/cann_log.h"
#include "common/trace.h"
#include "runtime/runtime.h"

#define MSG_LENGTH 1024
#define USER_MODULE_MIN 0xFF00

static const char g_truncated[] = "...[truncated]";

/* The last 14 characters before the NUL become "...[truncated]". */
static void mark_truncated(char *buf, size_t size)
{
    size_t n = strnlen(buf, size - 1);
    if (n >= sizeof(g_truncated) - 1)
        memcpy(buf + n - (sizeof(g_truncated) - 1), g_truncated, sizeof(g_truncated) - 1);
}

/* A format CANN refuses: %n anywhere. */
static bool format_ok(const char *fmt)
{
    for (const char *p = fmt; (p = strchr(p, '%'));) {
        p++;
        if (*p == '%') {
            p++;
            continue;
        }
        while (*p && strchr("-+ #0123456789.*hlLqjzt", *p))
            p++;
        if (*p == 'n')
            return false;
    }
    return true;
}

static void app_log(aclLogLevel logLevel, const char *func, const char *file, uint32_t line, const char *fmt,
                    va_list args)
{
    if (!fmt || !func || !file)
        return;
    int level = (int)logLevel;
    if (level < 0 || level > 3)
        return;
    /* first filter: module ASCENDCL (its NULL level still lets INFO+ pass) */
    int acl_level = oacl_clog_level(OACL_CLOG_MOD_ASCENDCL);
    if (acl_level == OACL_CLOG_NULL ? level < OACL_CLOG_INFO : level < acl_level)
        return;
    if (!format_ok(fmt)) {
        if (oacl_clog_check(OACL_CLOG_MOD_APP, OACL_CLOG_ERROR))
            oacl_clog_write(OACL_CLOG_MOD_APP, OACL_CLOG_ERROR, OACL_CLOG_TYPE_DEBUG, false,
                            "aclAppLog format string is invalid");
        return;
    }
    /* then the record in module APP, with APP's own level */
    if (!oacl_clog_check(OACL_CLOG_MOD_APP, level))
        return;
    char body[MSG_LENGTH], content[MSG_LENGTH];
    int n = vsnprintf(body, sizeof(body), fmt, args);
    bool cut = n < 0 || n >= (int)sizeof(body);
    int m = snprintf(content, sizeof(content), "%u %s:%s:%u: \"%s\"", oacl_trace_tid(), func, file, line, body);
    cut |= m < 0 || m >= (int)sizeof(content);
    if (cut)
        mark_truncated(content, sizeof(content));
    oacl_clog_write(OACL_CLOG_MOD_APP, level, OACL_CLOG_TYPE_DEBUG, false, content);
}

OACL_API void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    app_log(logLevel, func, file, line, fmt, ap);
    va_end(ap);
}

/* Exported without a header (language bindings use it). */
OACL_API void aclAppLogWithArgs(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                                const char *fmt, va_list args);
OACL_API void aclAppLogWithArgs(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                                const char *fmt, va_list args)
{
    va_list copy;
    va_copy(copy, args);
    app_log(logLevel, func, file, line, fmt, copy);
    va_end(copy);
}

/* ---- base/acl_log.h ---------------------------------------------------------------------- */

typedef int32_t (*acllog_cb)(void *userData, uint32_t outputLogType, const char *logContent, size_t length);

OACL_API int32_t acllogRegisterCallback(acllog_cb callbackFunc, void *userData, uint32_t outputLogType,
                                        uintptr_t *callbackHandle);
OACL_API int32_t acllogRegisterCallback(acllog_cb callbackFunc, void *userData, uint32_t outputLogType,
                                        uintptr_t *callbackHandle)
{
    return oacl_clog_add_callback(callbackFunc, userData, outputLogType, callbackHandle);
}

OACL_API int32_t acllogUnregisterCallback(uintptr_t callback);
OACL_API int32_t acllogUnregisterCallback(uintptr_t callback) { return oacl_clog_remove_callback(callback); }

OACL_API int32_t acllogCheckDebugLevel(int32_t moduleId, int32_t logLevel);
OACL_API int32_t acllogCheckDebugLevel(int32_t moduleId, int32_t logLevel)
{
    if (moduleId < 0 || moduleId > 0xFFFF)
        return 0;
    if (moduleId > 75 && moduleId < USER_MODULE_MIN)
        return 0; /* neither a CANN module nor a user one */
    return oacl_clog_check((uint32_t)moduleId, logLevel); /* user ids: the global level */
}

OACL_API void acllogVaList(int32_t moduleId, int32_t level, const char *fmt, va_list list);
OACL_API void acllogVaList(int32_t moduleId, int32_t level, const char *fmt, va_list list)
{
    if (!fmt || !acllogCheckDebugLevel(moduleId, level))
        return;
    char content[MSG_LENGTH];
    va_list copy;
    va_copy(copy, list);
    vsnprintf(content, sizeof(content), fmt, copy);
    va_end(copy);
    oacl_clog_write((uint32_t)moduleId, level, OACL_CLOG_TYPE_DEBUG, false, content);
}

OACL_API void acllogRecord(int32_t moduleId, int32_t level, const char *fmt, ...);
OACL_API void acllogRecord(int32_t moduleId, int32_t level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    acllogVaList(moduleId, level, fmt, ap);
    va_end(ap);
}

/* ---- base/alog_pub.h ------------------------------------------------------------------------ */

#define STDOUT_MASK 0x10000000u
#define RUN_MASK 0x01000000u

OACL_API int32_t AlogCheckDebugLevel(uint32_t moduleId, int32_t level);
OACL_API int32_t AlogCheckDebugLevel(uint32_t moduleId, int32_t level)
{
    return oacl_clog_check(moduleId & 0xFFFFu, level);
}

OACL_API int32_t AlogRecord(uint32_t moduleId, uint32_t logType, int32_t level, const char *fmt, ...);
OACL_API int32_t AlogRecord(uint32_t moduleId, uint32_t logType, int32_t level, const char *fmt, ...)
{
    if (!fmt)
        return -1;
    uint32_t module = moduleId & 0xFFFFu;
    bool run = logType == 1 || (moduleId & RUN_MASK) || level == OACL_CLOG_EVENT;
    /* run records: INFO and above whatever the debug levels say */
    bool pass = run ? (level >= OACL_CLOG_INFO && level != OACL_CLOG_NULL) : oacl_clog_check(module, level);
    if (!pass)
        return 0;
    char content[MSG_LENGTH];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(content, sizeof(content), fmt, ap);
    va_end(ap);
    oacl_clog_write(module, level, run ? OACL_CLOG_TYPE_RUN : OACL_CLOG_TYPE_DEBUG, (moduleId & STDOUT_MASK) != 0,
                    content);
    return 0;
}
