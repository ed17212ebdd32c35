/* Kernels of the execution-control tests (stream stop/abort, device task
 * abort). */
#include "oacl/kernel.h"

/* Sets started[block], then spins until the 64-bit word at gate is
 * non-zero, calling the kernel API on every turn (the point where a stop
 * or abort interrupts it); done[block] = 1 only if it ends normally. */
__global__ __aicore__ void spin_until(GM_ADDR gate, GM_ADDR started, GM_ADDR done)
{
    uint32_t idx = (uint32_t)oacl_get_block_idx();
    __atomic_store_n(&((__gm__ uint32_t *)started)[idx], 1u, __ATOMIC_RELEASE);
    while (__atomic_load_n((__gm__ uint64_t *)gate, __ATOMIC_ACQUIRE) == 0)
        (void)oacl_get_block_idx();
    ((__gm__ uint32_t *)done)[idx] = 1;
}

/* out[block] = value. */
__global__ __aicore__ void mark(GM_ADDR out, uint32_t value)
{
    ((__gm__ uint32_t *)out)[oacl_get_block_idx()] = value;
}

/* Fails its launch (AI Core exception). */
__global__ __aicore__ void trap_now(void) { oacl_kernel_trap(); }

/* As spin_until, but its loop only copies data (the data-movement call is
 * the interruption point; no oacl_block() call in the loop). */
__global__ __aicore__ void spin_copy(GM_ADDR gate, GM_ADDR started, GM_ADDR done)
{
    uint32_t idx = (uint32_t)oacl_get_block_idx();
    uint64_t a = 1, b = 0;
    __atomic_store_n(&((__gm__ uint32_t *)started)[idx], 1u, __ATOMIC_RELEASE);
    while (__atomic_load_n((__gm__ uint64_t *)gate, __ATOMIC_ACQUIRE) == 0)
        oacl_memmove(&b, &a, sizeof(a));
    ((__gm__ uint32_t *)done)[idx] = (uint32_t)b;
}

/* As spin_until, but its loop calls nothing: only the kill signal can
 * interrupt it. */
__global__ __aicore__ void spin_plain(GM_ADDR gate, GM_ADDR started, GM_ADDR done)
{
    uint32_t idx = (uint32_t)oacl_get_block_idx();
    __atomic_store_n(&((__gm__ uint32_t *)started)[idx], 1u, __ATOMIC_RELEASE);
    while (__atomic_load_n((__gm__ uint64_t *)gate, __ATOMIC_ACQUIRE) == 0)
        ;
    ((__gm__ uint32_t *)done)[idx] = 1;
}
