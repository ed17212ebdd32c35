/*
 * The event object, shared by event.c and ipc_event.c (IPC events).
 */
#ifndef OACL_RUNTIME_EVENT_H
#define OACL_RUNTIME_EVENT_H

#include "runtime/runtime.h"

enum event_kind { EVENT_PLAIN, EVENT_FLAGGED, EVENT_EX };

/* What an IPC event carries besides its backend state (ipc_event.c). */
struct oacl_ipc_event_info {
    aclrtIpcEventHandle handle; /* the 64 bytes aclrtIpcGetEventHandle writes */
    bool creator;               /* created here (its handle can be opened by others) */
};

struct oacl_event {
    struct oacl_obj obj;
    struct oacl_device *dev;
    enum event_kind kind;
    uint32_t flags;
    struct oacl_bevent *be;
    struct oacl_ipc_event_info *ipc; /* IPC events only (owned) */
    /* device-kernel chapter (event_extras.c) */
    uint32_t id;                     /* aclrtGetEventId: lowest free id of its device at creation */
    uint8_t record_flag;             /* atomic: enum oacl_event_flag fixed by the first record */
    uint8_t wait_flag;               /* atomic: ... by the first stream wait */
    struct oacl_ri *ri_capture;      /* model_ri.c (its lock): the active capture that recorded it last */
};

/* Record/wait flag of an event, fixed by its first record / wait. */
enum oacl_event_flag { OACL_EVENT_FLAG_UNSET = 0, OACL_EVENT_FLAG_DEFAULT = 1, OACL_EVENT_FLAG_EXTERNAL = 2 };

/* The live event behind a handle (+1 reference), or 107017. */
aclError oacl_event_get(aclrtEvent event, struct oacl_event **out, const char *fn);
/* A new event handle for a backend event (be and ipc are taken over, also
 * on failure). */
aclError oacl_event_wrap(struct oacl_device *dev, struct oacl_bevent *be, enum event_kind kind, uint32_t flags,
                         struct oacl_ipc_event_info *ipc, aclrtEvent *out, struct oacl_event **obj, const char *fn);
/* aclrtCreateEventExWithFlag(ACL_EVENT_IPC) (ipc_event.c). */
aclError oacl_ipc_event_create(aclrtEvent *event, const char *fn);
/* The event is being destroyed: its handle can no longer be opened. */
void oacl_ipc_event_forget(struct oacl_event *e);

/* ---- device-kernel chapter (event_extras.c) ---- */

/* Fixes *slot to flag if unset; 107000 naming `which` when it holds the
 * other flag. */
aclError oacl_event_fix_flag(uint8_t *slot, enum oacl_event_flag flag, const char *which, const char *fn);
/* An event id of dev and one unit of its event limit (207007 when used up);
 * put gives both back. */
aclError oacl_event_slot_take(struct oacl_device *dev, uint32_t *id, const char *fn);
void oacl_event_slot_put(struct oacl_device *dev, uint32_t id);
/* The process op-wait timeout (aclrtSetOpWaitTimeout) in ns, 0 = none. */
uint64_t oacl_op_wait_timeout_ns(void);
/* A stream wait on e, in two steps (event.c): the checks on the event
 * (sync capability 207000, wait flag 107000, never recorded 107000), which
 * fix its wait flag to DEFAULT, then the enqueue on s with a timeout. */
/* aclrtRecordEvent without its NULL check (event.c). */
aclError oacl_event_record(aclrtEvent event, aclrtStream stream, const char *fn);
aclError oacl_event_wait_check(struct oacl_event *e, const char *fn);
aclError oacl_event_wait_enqueue(struct oacl_stream *s, struct oacl_event *e, uint64_t timeout_ns, const char *fn);

#endif /* OACL_RUNTIME_EVENT_H */
