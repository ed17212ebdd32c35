/*
 * The notify object, shared by notify.c (local notifies) and ipc_notify.c
 * (export, import and batch reset across processes).
 */
#ifndef OACL_RUNTIME_NOTIFY_H
#define OACL_RUNTIME_NOTIFY_H

#include "runtime/runtime.h"

enum oacl_notify_ipc {
    OACL_NOTIFY_LOCAL = 0,    /* never exported */
    OACL_NOTIFY_EXPORTED = 1, /* created here and exported */
    OACL_NOTIFY_IMPORTED = 2, /* imported from a key */
};

struct oacl_notify {
    struct oacl_obj obj;
    struct oacl_device *dev;    /* the device it was created (or imported) on */
    uint32_t id;                /* imported: the exporter's id */
    struct oacl_bnotify *bn;
    uint32_t ipc;               /* enum oacl_notify_ipc; set once, under ipc_notify.c's lock */
    int32_t home_dev;           /* where waits must be queued once it is an IPC notify */
};

/* The live notify behind a handle (+1 reference): 100000 for NULL, 107017
 * for a stale handle. */
aclError oacl_notify_get(aclrtNotify notify, struct oacl_notify **out, const char *fn);
/* A new handle for a backend notify (taken over, also on failure). */
aclError oacl_notify_wrap(struct oacl_device *dev, struct oacl_bnotify *bn, uint32_t id, aclrtNotify *out,
                          struct oacl_notify **obj, const char *fn);
/* The notify is being destroyed: its export (if any) goes (ipc_notify.c). */
void oacl_ipc_notify_forget(struct oacl_notify *n);

#endif /* OACL_RUNTIME_NOTIFY_H */
