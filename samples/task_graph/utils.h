/* Logging helpers of the sample: "[INFO]  ..." on stdout, "[ERROR]  ..." on
 * stderr, and CHECK_ERROR for ACL calls. */
#ifndef SAMPLE_UTILS_H
#define SAMPLE_UTILS_H

#include <stdarg.h>
#include <stdio.h>

static inline void sample_log(FILE *stream, const char *tag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(tag, stream);
    vfprintf(stream, fmt, ap);
    fputc('\n', stream);
    fflush(stream);
    va_end(ap);
}

#define INFO_LOG(...) sample_log(stdout, "[INFO]  ", __VA_ARGS__)
#define ERROR_LOG(...) sample_log(stderr, "[ERROR]  ", __VA_ARGS__)

/* Logs the failing call and its code, then returns -1 from the caller. */
#define CHECK_ERROR(call)                                                                                            \
    do {                                                                                                             \
        aclError check_ret_ = (call);                                                                                \
        if (check_ret_ != ACL_SUCCESS) {                                                                             \
            ERROR_LOG("%s failed, error code: %d", #call, check_ret_);                                               \
            return -1;                                                                                               \
        }                                                                                                            \
    } while (0)

#endif
