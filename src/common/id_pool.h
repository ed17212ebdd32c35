/*
 * A pool of small integer ids: take() hands out the lowest free id below a
 * limit, put() gives one back. Used for ids that must be unique among the
 * live objects of a device and bounded by a per-device limit (events,
 * counting notifies). Thread-safe.
 */
#ifndef OACL_COMMON_ID_POOL_H
#define OACL_COMMON_ID_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct oacl_id_pool {
    pthread_mutex_t lock;
    uint64_t *used;   /* bitmap of `limit` bits, allocated on first take */
    uint32_t limit;
    uint32_t live;
    uint32_t hint;    /* no free id below hint * 64 */
};

void oacl_id_pool_init(struct oacl_id_pool *p, uint32_t limit);
/* 0 with *id set; 1 when all limit ids are in use; -1 out of memory. */
int oacl_id_pool_take(struct oacl_id_pool *p, uint32_t *id);
void oacl_id_pool_put(struct oacl_id_pool *p, uint32_t id);
/* Ids that can still be taken. */
uint32_t oacl_id_pool_available(struct oacl_id_pool *p);

#endif /* OACL_COMMON_ID_POOL_H */
