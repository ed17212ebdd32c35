/*
 * Model running instances (task graphs): the objects shared by model_ri.c
 * (capture, execution, lifetime) and model_ri_query.c (inspection, editing,
 * debug output). acl-rt-model-ri.md.
 */
#ifndef OACL_RUNTIME_MODEL_RI_H
#define OACL_RUNTIME_MODEL_RI_H

#include "runtime/runtime.h"

#define OACL_RI_MAX_DEVICES 64u

enum oacl_ri_kind { OACL_RI_CAPTURED = 0, OACL_RI_BUILT = 1, OACL_RI_SUB = 2 /* a branch of a conditional task */ };

enum oacl_ri_state {
    OACL_RI_CAPTURING = 0,
    OACL_RI_INVALIDATED,
    OACL_RI_READY,
    OACL_RI_UPDATING,
    OACL_RI_FAULT,
    OACL_RI_BUILDING,
};

struct oacl_ri_task {
    struct oacl_obj obj;
    struct oacl_ri *ri;               /* no reference: the RI retires its tasks first */
    struct oacl_ri_stream *rs;
    uint32_t index;                   /* task id: position on its RI stream */
    uint32_t seq;                     /* sequence id in the RI */
    void *handle;
};

struct oacl_ri_opinfo {
    void *ptr;
    size_t size;
    char *ext;                        /* aclrtCacheLastTaskExtendInfo's string (NUL-terminated) */
};

/* One RI stream: an RI-internal stream and the backend's recording queue. */
struct oacl_ri_stream {
    struct oacl_ri *ri;
    struct oacl_queue *gq;
    struct oacl_stream *internal;     /* +1 reference */
    void *handle;                     /* its aclrtStream */
    struct oacl_stream *user;         /* the user stream capturing into it (+1), NULL after the capture */
    bool origin;
    bool head;                        /* built RIs: bound as a head stream */
    struct oacl_ri_note *notes;       /* per task id: what the API layer noted */
    uint32_t ncap;
    struct oacl_ri_task **tasks;      /* made at capture end */
    uint32_t ntasks;
    uint8_t *pending_disable;         /* aclmdlRITaskDisable until aclmdlRIUpdate */
    uint32_t last_record_count;       /* task count right after the newest private record */
    uint32_t last_record_slot;
    struct oacl_ri_opinfo *opinfo;    /* per task id: aclrtCacheLastTaskOpInfo's copy (model_ri_opinfo.c) */
    uint32_t nopinfo;
    struct oacl_ri_grp *grp_open;     /* the task group open on it */
    int grp_error;                    /* a task-group rule broken while it was open */
    struct oacl_ri_stream *next;      /* newest first */
};

struct oacl_ri_event {
    struct oacl_event *e;             /* +1 reference */
    uint32_t slot;
    bool recorded, waited, waited_by_origin;
    bool external;                    /* used by EXTERNAL records/waits (the user's event) */
};

struct oacl_ri_cb {
    aclrtCallback fn;
    void *ud;
};

struct oacl_ri {
    struct oacl_obj obj;
    struct oacl_context *ctx;         /* +1 reference */
    struct oacl_bgraph *g;
    void *handle;
    uint32_t id;
    enum oacl_ri_kind kind;
    pthread_mutex_t lock;             /* state, name, callbacks */
    enum oacl_ri_state state;
    char *name;
    struct oacl_ri_cb *cbs;
    uint32_t ncbs;
    /* capture (model_ri.c's lock) */
    aclmdlRICaptureMode mode;
    pthread_t thread;
    struct oacl_ri *cap_next;
    struct oacl_ri_stream *streams;
    uint32_t nstreams;
    struct oacl_ri_event *evs;
    uint32_t nevs, evcap;
    struct oacl_ri_stream *end_rs;    /* built RIs: the stream holding the end task */
    struct oacl_ri_grp *grps;         /* task groups (model_ri_group.c) */
    /* conditional tasks (model_ri_cond.c, g_lock) */
    struct oacl_ri *parent;           /* sub-RIs: the RI holding the conditional task */
    uint8_t sub_state;                /* sub-RIs: 0 not captured, 1 capturing, 2 captured */
    struct oacl_ri **subs;            /* the sub-RIs it owns (+1 each) */
    uint32_t nsubs;
    struct oacl_bgraph ***branch_sets;/* the branch arrays its conditional tasks point to */
    uint32_t nbranch_sets;
    struct oacl_ri_cond *conds;       /* condition handles it owns */
    struct oacl_ri *all_next;         /* every live RI (g_lock) */
    bool dying;                       /* its context is being torn down */
};

struct oacl_ri_cond {
    struct oacl_obj obj;
    struct oacl_ri *ri;               /* the RI whose capture created it */
    void *addr;                       /* 8 bytes of device memory */
    void *handle;
    bool used;                        /* by a conditional task */
    struct oacl_ri_cond *next;
};

/* model_ri_cond.c: everything conditional tasks gave ri (its sub-RIs
 * recursively, condition handles and their memory), after ri's graph is
 * gone; whether every sub-RI of ri (recursively) finished its capture. */
void oacl_ri_conds_free(struct oacl_ri *ri);
bool oacl_ri_subs_captured(const struct oacl_ri *ri);

struct oacl_ri_grp {
    struct oacl_obj obj;
    struct oacl_ri *ri;
    struct oacl_ri_stream *rs;
    uint32_t start, count;            /* task ids start .. start+count-1 of rs */
    void *handle;
    struct oacl_stream *updater;      /* the stream in update mode for it */
    struct oacl_ri_grp *next;
};

/* model_ri_group.c: the group holding task `index` of rs (g_lock held);
 * the RI's groups retired (destroy). */
struct oacl_ri_grp *oacl_ri_group_of(struct oacl_ri_stream *rs, uint32_t index);
void oacl_ri_groups_free(struct oacl_ri *ri);

/* The live RI behind a handle (+1): NULL is 100000 (null_is_param) or
 * 107000, stale 107017. _ctx also requires it to be of the current context
 * (107002 / 107004). */
aclError oacl_ri_get(aclmdlRI handle, bool null_is_param, struct oacl_ri **out, const char *fn);
aclError oacl_ri_get_ctx(aclmdlRI handle, bool null_is_param, struct oacl_ri **out, const char *fn);
/* model_ri_gate.c: 207000 on profiles without the function group (§1.2):
 * capture family (and task groups), advanced graph functions,
 * aclrtTaskUpdateAsync, aclrtPersistentTaskClean, aclrtActiveStream /
 * aclrtSwitchStream. */
aclError oacl_ri_gate_capture(const char *fn);
aclError oacl_ri_gate_advanced(const char *fn);
aclError oacl_ri_gate_task_update(const char *fn);
aclError oacl_ri_gate_persistent_clean(const char *fn);
aclError oacl_ri_gate_stream_ctl(const char *fn);
/* Starts the capture of stream into ri (model_ri.c; root or sub-RI). */
aclError oacl_ri_capture_into(struct oacl_ri *ri, struct oacl_stream *s, aclmdlRICaptureMode mode, const char *fn);
pthread_mutex_t *oacl_ri_lock(void);
/* A new RI of ctx (+1, its handle registered). */
aclError oacl_ri_create(struct oacl_context *ctx, struct oacl_ri **out, const char *fn);
/* model_ri_built.c: a bound stream leaves its built RI (g_lock held); task
 * handles of a bound stream brought up to its recorded count. */
void oacl_ri_unbind_locked(struct oacl_ri *ri, struct oacl_ri_stream *rs);
aclError oacl_ri_sync_tasks(struct oacl_ri_stream *rs, const char *fn);

/* model_ri_opinfo.c: the op info blobs of rs freed (destroy). */
void oacl_ri_opinfo_free(struct oacl_ri_stream *rs);

#endif /* OACL_RUNTIME_MODEL_RI_H */
