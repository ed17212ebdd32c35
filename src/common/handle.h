/*
 * Handle table: every handle the API gives out (context, stream, binary,
 * function, argument list, parameter) is an encoded slot index plus a
 * generation number, never a raw pointer. A destroyed or foreign handle is
 * recognised without touching freed memory, and a slot reused later gets a
 * new generation, so stale handles stay stale.
 *
 * Objects embed struct oacl_obj first. The table holds one reference; every
 * successful oacl_handle_get() adds one that the caller drops with
 * oacl_obj_put(). The object's destroy hook runs when the count reaches 0.
 */
#ifndef OACL_COMMON_HANDLE_H
#define OACL_COMMON_HANDLE_H

#include <stdbool.h>
#include <stdint.h>

enum oacl_htype {
    OACL_H_CONTEXT = 1,
    OACL_H_STREAM = 2,
    OACL_H_EVENT = 3,
    OACL_H_BINARY = 4,
    OACL_H_FUNC = 5,
    OACL_H_ARGS = 6,
    OACL_H_PARAM = 7,
    OACL_H_NOTIFY = 8,
    OACL_H_PHYSMEM = 9,   /* aclrtDrvMemHandle: physical memory (vmm.c) */
    OACL_H_MEMPOOL = 10,
    OACL_H_MBUF = 11,     /* aclrtAllocBuf (mbuf.c) */
    OACL_H_CNT_NOTIFY = 12, /* aclrtCntNotify (cnt_notify.c) */
    OACL_H_BIN_DESC = 13,   /* aclrtBinary: aclrtCreateBinary's descriptor (binary_load.c) */
    OACL_H_MODEL_RI = 14,   /* aclmdlRI (model_ri.c) */
    OACL_H_RI_TASK = 15,    /* aclmdlRITask (model_ri.c) */
    OACL_H_LABEL = 16,      /* aclrtLabel (model_ri_built.c) */
    OACL_H_TASK_GRP = 17,   /* aclrtTaskGrp (model_ri_group.c) */
    OACL_H_COND = 18,       /* aclmdlRICondHandle (model_ri_cond.c) */
    OACL_H_TYPE_COUNT
};

struct oacl_obj {
    uint32_t refs;                       /* atomic */
    uint32_t type;                       /* enum oacl_htype */
    void *handle;                        /* the encoded handle, NULL once retired */
    void (*destroy)(struct oacl_obj *o); /* NULL: memory owned elsewhere */
};

/* Registers obj (refs set to 1 for the table) and returns its handle, or
 * NULL when the table is full or out of memory. */
void *oacl_handle_create(struct oacl_obj *obj, enum oacl_htype type, void (*destroy)(struct oacl_obj *));

/* The live object behind h if h is a live handle of this type (+1 ref). */
struct oacl_obj *oacl_handle_get(const void *h, enum oacl_htype type);

/* Like get, but also reports whether h is a live handle of another type. */
struct oacl_obj *oacl_handle_get_any(const void *h, enum oacl_htype *type_out);

/* Removes h from the table and drops the table's reference. Returns false
 * if h was not live (already retired, or not of this type). */
bool oacl_handle_retire(const void *h, enum oacl_htype type);

/* Retires the object's own handle; safe against concurrent retires (only
 * one caller gets true). */
bool oacl_obj_retire(struct oacl_obj *o);

void oacl_obj_ref(struct oacl_obj *o);
void oacl_obj_put(struct oacl_obj *o);

/* Live handles of one type (for tests and leak reports). */
uint32_t oacl_handle_live_count(enum oacl_htype type);

/* Calls fn for every live object of a type (the table's lock is held: fn
 * must not use the handle API; for leak reports). */
void oacl_handle_foreach(enum oacl_htype type, void (*fn)(struct oacl_obj *o, void *arg), void *arg);

#endif /* OACL_COMMON_HANDLE_H */
