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
};

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

#endif /* OACL_RUNTIME_EVENT_H */
