/* CANN log records (base/alog_pub.h); oacl implements them in libacl_rt.so
 * (lib64/libascendalog.so is a link to it). */
#ifndef ALOG_PUB_H_
#define ALOG_PUB_H_

#include <stdint.h>

#include "log_types.h"

#ifdef __cplusplus
extern "C" {
#endif

LOG_FUNC_VISIBILITY int32_t AlogCheckDebugLevel(uint32_t moduleId, int32_t level) __attribute((weak));

LOG_FUNC_VISIBILITY int32_t AlogRecord(uint32_t moduleId, uint32_t logType, int32_t level, const char *fmt, ...)
    __attribute((weak)) __attribute__((format(printf, 4, 5)));

#ifdef __cplusplus
}
#endif

#endif /* ALOG_PUB_H_ */
