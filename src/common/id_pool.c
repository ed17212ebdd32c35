/* Lowest-free-id pools (id_pool.h). */
#include "common/id_pool.h"

#include <stdlib.h>

void oacl_id_pool_init(struct oacl_id_pool *p, uint32_t limit)
{
    pthread_mutex_init(&p->lock, NULL);
    p->used = NULL;
    p->limit = limit;
    p->live = 0;
    p->hint = 0;
}

int oacl_id_pool_take(struct oacl_id_pool *p, uint32_t *id)
{
    uint32_t words = (p->limit + 63) / 64;
    int rc = 0;
    pthread_mutex_lock(&p->lock);
    if (!p->used && !(p->used = calloc(words ? words : 1, sizeof(uint64_t)))) {
        rc = -1;
    } else if (p->live >= p->limit) {
        rc = 1;
    } else {
        uint32_t w = p->hint;
        while (p->used[w] == UINT64_MAX) /* a free bit exists: live < limit */
            w++;
        uint32_t bit = (uint32_t)__builtin_ctzll(~p->used[w]);
        p->used[w] |= 1ull << bit;
        p->hint = w;
        p->live++;
        *id = w * 64 + bit;
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

void oacl_id_pool_put(struct oacl_id_pool *p, uint32_t id)
{
    pthread_mutex_lock(&p->lock);
    if (p->used && id < p->limit && ((p->used[id / 64] >> (id % 64)) & 1u)) {
        p->used[id / 64] &= ~(1ull << (id % 64));
        p->live--;
        if (id / 64 < p->hint)
            p->hint = id / 64;
    }
    pthread_mutex_unlock(&p->lock);
}

uint32_t oacl_id_pool_available(struct oacl_id_pool *p)
{
    pthread_mutex_lock(&p->lock);
    uint32_t n = p->limit - p->live;
    pthread_mutex_unlock(&p->lock);
    return n;
}
