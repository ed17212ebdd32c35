/*
 * Runtime log: one line per message on stderr, always prefixed with
 * "[oacl <LEVEL>]" so that no line the library prints can be mistaken for
 * program output (SoC-detection scripts take the first bare word they see).
 *
 * Level from OACL_LOG_LEVEL (debug|info|warning|error|none, default
 * warning), or CANN's ASCEND_GLOBAL_LOG_LEVEL (0..4) when ours is unset.
 *
 * Every message is also a record of module RUNTIME in CANN's log
 * (common/cann_log.h), which has its own levels and destinations.
 */
#ifndef OACL_COMMON_LOG_H
#define OACL_COMMON_LOG_H

enum oacl_log_level {
    OACL_LOG_DEBUG = 0,
    OACL_LOG_INFO = 1,
    OACL_LOG_WARNING = 2,
    OACL_LOG_ERROR = 3,
    OACL_LOG_NONE = 4,
};

void oacl_log(enum oacl_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with the caller's source location (for the CANN record). */
void oacl_log_at(enum oacl_log_level level, const char *file, int line, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The stderr line only. */
void oacl_log_stderr(enum oacl_log_level level, const char *msg);
int oacl_log_enabled(enum oacl_log_level level);

#define OACL_DEBUG(...) oacl_log_at(OACL_LOG_DEBUG, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define OACL_INFO(...) oacl_log_at(OACL_LOG_INFO, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define OACL_WARN(...) oacl_log_at(OACL_LOG_WARNING, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define OACL_ERROR(...) oacl_log_at(OACL_LOG_ERROR, __FILE__, __LINE__, __func__, __VA_ARGS__)

#endif /* OACL_COMMON_LOG_H */
