/* Kernels for the device-query tests: how many blocks of a launch run at
 * the same time (core limits of aclrtSetDeviceResLimit). */
#include "oacl/kernel.h"

static void raise_max(__gm__ uint32_t *max, uint32_t v)
{
    uint32_t seen = __atomic_load_n(max, __ATOMIC_RELAXED);
    while (v > seen && !__atomic_compare_exchange_n(max, &seen, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/*
 * state[0]: blocks running now, state[1]: the most seen at once,
 * state[2]: blocks finished. Each block stays until more than `limit`
 * blocks run at once (which a working limit never allows) or it has
 * polled `polls` times, so that blocks overlap whenever the executor lets
 * them and a broken limit is seen.
 */
__global__ __aicore__ void concurrency(GM_ADDR state, uint32_t limit, uint32_t polls)
{
    __gm__ uint32_t *s = (__gm__ uint32_t *)state;
    raise_max(&s[1], __atomic_add_fetch(&s[0], 1, __ATOMIC_ACQ_REL));
    for (uint32_t i = 0; i < polls; i++) {
        uint32_t now = __atomic_load_n(&s[0], __ATOMIC_ACQUIRE);
        raise_max(&s[1], now);
        if (now > limit)
            break;
    }
    __atomic_sub_fetch(&s[0], 1, __ATOMIC_ACQ_REL);
    __atomic_add_fetch(&s[2], 1, __ATOMIC_RELEASE);
}
