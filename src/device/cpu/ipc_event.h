/*
 * IPC events of the CPU device (ipc_event.c): the event ops of event.c
 * hand events created shared (or imported) over to these.
 */
#ifndef OACL_DEVICE_CPU_IPC_EVENT_H
#define OACL_DEVICE_CPU_IPC_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "device/backend.h"

struct oacl_ipc_event;

int oacl_cpu_ipc_event_create(struct oacl_ipc_event **out, char *err);
int oacl_cpu_ipc_event_import(int fd, struct oacl_ipc_event **out, char *err);
void oacl_cpu_ipc_event_destroy(struct oacl_ipc_event *ie);
int oacl_cpu_ipc_event_fd(struct oacl_ipc_event *ie, int *fd, char *err);
int oacl_cpu_ipc_event_record(struct oacl_queue *q, struct oacl_ipc_event *ie, char *err);
/* timeout_ns: 0 = none (D26: a stream wait with a timeout fails with
 * ACL_ERROR_RT_TASK_TIMEOUT when it expires). */
int oacl_cpu_ipc_event_wait(struct oacl_queue *q, struct oacl_ipc_event *ie, uint64_t timeout_ns, bool *queued,
                            char *err);
void oacl_cpu_ipc_event_query(struct oacl_ipc_event *ie, struct oacl_event_state *st);
/* 0, ETIMEDOUT, or ACL_ERROR_RT_IPC_ERROR. */
int oacl_cpu_ipc_event_sync(struct oacl_ipc_event *ie, int64_t timeout_ns);

#endif /* OACL_DEVICE_CPU_IPC_EVENT_H */
