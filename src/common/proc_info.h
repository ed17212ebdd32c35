/*
 * Identity of processes for inter-process sharing: a pid alone can be
 * reused by an unrelated process, so a holder of a shared object is named
 * by (pid, start time), the start time being field 22 of /proc/<pid>/stat
 * (clock ticks since boot).
 */
#ifndef OACL_COMMON_PROC_INFO_H
#define OACL_COMMON_PROC_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Start time of pid; false when the process does not exist. */
bool oacl_proc_start_time(pid_t pid, uint64_t *start);
/* True while the process (pid, start) still runs (a zombie counts as gone). */
bool oacl_proc_alive(pid_t pid, uint64_t start);
/* The calling process's start time (cached; refreshed after fork). */
uint64_t oacl_proc_self_start(void);

#endif /* OACL_COMMON_PROC_INFO_H */
