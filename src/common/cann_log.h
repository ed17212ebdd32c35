/*
 * CANN's log engine (profiling-and-tools.md §5): per-module levels from
 * ASCEND_GLOBAL_LOG_LEVEL / ASCEND_MODULE_LOG_LEVEL, the plog files under
 * ASCEND_PROCESS_LOG_PATH (else $ASCEND_WORK_PATH/log, else
 * $HOME/ascend/log) or stdout with ASCEND_LOG_PRINT_TO_STDOUT=1, CANN's
 * line format, and acllogRegisterCallback callbacks. A synchronous writer:
 * one write() per record under a process lock, files opened O_APPEND.
 */
#ifndef OACL_COMMON_CANN_LOG_H
#define OACL_COMMON_CANN_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OACL_CLOG_DEBUG 0
#define OACL_CLOG_INFO 1
#define OACL_CLOG_WARNING 2
#define OACL_CLOG_ERROR 3
#define OACL_CLOG_NULL 4
#define OACL_CLOG_EVENT 0x10

#define OACL_CLOG_MOD_RUNTIME 7u
#define OACL_CLOG_MOD_APP 33u
#define OACL_CLOG_MOD_ASCENDCL 48u
#define OACL_CLOG_MOD_CCECPU 25u

#define OACL_CLOG_TYPE_DEBUG 0u
#define OACL_CLOG_TYPE_RUN 1u

/* The level of a module (0..75), or the global level for others. */
int oacl_clog_level(uint32_t module);
/* 1 when a debug record of level in module would be written. */
int oacl_clog_check(uint32_t module, int level);
/* Records one line (content already formatted, any length: cut at 1024).
 * type: OACL_CLOG_TYPE_*; also_stdout: print to stdout as well. The caller
 * has applied the level filter (run records: level >= INFO). */
void oacl_clog_write(uint32_t module, int level, uint32_t type, bool also_stdout, const char *content);
/* Callbacks (acllogRegisterCallback): 0 or -1. */
int32_t oacl_clog_add_callback(int32_t (*cb)(void *, uint32_t, const char *, size_t), void *user, uint32_t type,
                               uintptr_t *handle);
int32_t oacl_clog_remove_callback(uintptr_t handle);
/* Name of a module for the line prefix (decimal for unnamed ones). */
const char *oacl_clog_module_name(uint32_t module, char *buf, unsigned len);
/* Module id of a log_types.h name, -1 if unknown. */
int oacl_clog_module_id(const char *name);

#endif /* OACL_COMMON_CANN_LOG_H */
