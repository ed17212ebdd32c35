#include "common/handle.h"

#include <pthread.h>
#include <stdlib.h>

/*
 * Encoding of a handle value (64-bit):
 *   63..56  0xAC tag: above every user-space address, so a data pointer
 *           passed by mistake never decodes as a handle
 *   55..48  type
 *   47..24  generation of the slot (24 bits)
 *   23..0   slot index
 * Slots live in fixed chunks that are never freed or moved, so a lookup
 * only ever reads table memory.
 */
#define TAG 0xACull
#define CHUNK_BITS 12
#define CHUNK_SLOTS (1u << CHUNK_BITS)
#define MAX_CHUNKS 4096u /* 16M slots */
#define GEN_MASK 0xFFFFFFu

struct slot {
    struct oacl_obj *obj; /* NULL when free */
    uint32_t gen;
    uint32_t type;
    uint32_t next_free;   /* index + 1, 0 = end of list */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot *g_chunks[MAX_CHUNKS];
static uint32_t g_nslots;    /* slots ever handed out */
static uint32_t g_free_head; /* index + 1 */
static uint32_t g_live[OACL_H_TYPE_COUNT];

static inline struct slot *slot_at(uint32_t idx) { return &g_chunks[idx >> CHUNK_BITS][idx & (CHUNK_SLOTS - 1)]; }

static inline void *encode(uint32_t type, uint32_t gen, uint32_t idx)
{
    uint64_t v = (TAG << 56) | ((uint64_t)type << 48) | ((uint64_t)(gen & GEN_MASK) << 24) | idx;
    return (void *)(uintptr_t)v;
}

/* Decodes h; returns the slot if tag, index and generation all match. */
static struct slot *lookup_locked(const void *h, uint32_t *type_out)
{
    uint64_t v = (uint64_t)(uintptr_t)h;
    if ((v >> 56) != TAG)
        return NULL;
    uint32_t type = (uint32_t)(v >> 48) & 0xFF;
    uint32_t gen = (uint32_t)(v >> 24) & GEN_MASK;
    uint32_t idx = (uint32_t)v & 0xFFFFFF;
    if (idx >= g_nslots)
        return NULL;
    struct slot *s = slot_at(idx);
    if (!s->obj || s->gen != gen || s->type != type)
        return NULL;
    *type_out = type;
    return s;
}

void *oacl_handle_create(struct oacl_obj *obj, enum oacl_htype type, void (*destroy)(struct oacl_obj *))
{
    pthread_mutex_lock(&g_lock);
    uint32_t idx;
    if (g_free_head) {
        idx = g_free_head - 1;
        g_free_head = slot_at(idx)->next_free;
    } else {
        if (g_nslots >= MAX_CHUNKS * CHUNK_SLOTS) {
            pthread_mutex_unlock(&g_lock);
            return NULL;
        }
        uint32_t chunk = g_nslots >> CHUNK_BITS;
        if (!g_chunks[chunk]) {
            g_chunks[chunk] = calloc(CHUNK_SLOTS, sizeof(struct slot));
            if (!g_chunks[chunk]) {
                pthread_mutex_unlock(&g_lock);
                return NULL;
            }
        }
        idx = g_nslots++;
    }
    struct slot *s = slot_at(idx);
    s->gen = (s->gen + 1) & GEN_MASK;
    s->type = type;
    s->obj = obj;
    s->next_free = 0;
    obj->type = type;
    obj->destroy = destroy;
    __atomic_store_n(&obj->refs, 1, __ATOMIC_RELAXED);
    obj->handle = encode(type, s->gen, idx);
    g_live[type]++;
    pthread_mutex_unlock(&g_lock);
    return obj->handle;
}

struct oacl_obj *oacl_handle_get_any(const void *h, enum oacl_htype *type_out)
{
    uint32_t type = 0;
    struct oacl_obj *o = NULL;
    pthread_mutex_lock(&g_lock);
    struct slot *s = lookup_locked(h, &type);
    if (s) {
        o = s->obj;
        __atomic_add_fetch(&o->refs, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&g_lock);
    if (type_out)
        *type_out = (enum oacl_htype)type;
    return o;
}

struct oacl_obj *oacl_handle_get(const void *h, enum oacl_htype type)
{
    uint64_t v = (uint64_t)(uintptr_t)h;
    if ((v >> 56) != TAG || ((uint32_t)(v >> 48) & 0xFF) != (uint32_t)type)
        return NULL;
    return oacl_handle_get_any(h, NULL);
}

bool oacl_handle_retire(const void *h, enum oacl_htype type)
{
    uint32_t t = 0;
    pthread_mutex_lock(&g_lock);
    struct slot *s = lookup_locked(h, &t);
    if (!s || t != (uint32_t)type) {
        pthread_mutex_unlock(&g_lock);
        return false;
    }
    struct oacl_obj *o = s->obj;
    s->obj = NULL;
    uint32_t idx = (uint32_t)((uint64_t)(uintptr_t)h & 0xFFFFFF);
    s->next_free = g_free_head;
    g_free_head = idx + 1;
    g_live[type]--;
    o->handle = NULL;
    pthread_mutex_unlock(&g_lock);
    oacl_obj_put(o);
    return true;
}

bool oacl_obj_retire(struct oacl_obj *o)
{
    pthread_mutex_lock(&g_lock);
    void *h = o->handle;
    pthread_mutex_unlock(&g_lock);
    /* A concurrent retire between the two locks makes this one fail. */
    return h && oacl_handle_retire(h, (enum oacl_htype)o->type);
}

void oacl_obj_ref(struct oacl_obj *o) { __atomic_add_fetch(&o->refs, 1, __ATOMIC_RELAXED); }

void oacl_obj_put(struct oacl_obj *o)
{
    if (!o)
        return;
    if (__atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL) == 0 && o->destroy)
        o->destroy(o);
}

uint32_t oacl_handle_live_count(enum oacl_htype type)
{
    pthread_mutex_lock(&g_lock);
    uint32_t n = g_live[type];
    pthread_mutex_unlock(&g_lock);
    return n;
}

void oacl_handle_foreach(enum oacl_htype type, void (*fn)(struct oacl_obj *o, void *arg), void *arg)
{
    pthread_mutex_lock(&g_lock);
    for (uint32_t i = 0; i < g_nslots; i++) {
        struct slot *s = slot_at(i);
        if (s->obj && s->type == (uint32_t)type)
            fn(s->obj, arg);
    }
    pthread_mutex_unlock(&g_lock);
}
