/* A CPU-kernel library for tests/unit/test_binary_load.c (aclrtBinaryLoadFromData
 * with CPU_KERNEL_MODE 2, aclrtRegisterCpuFunc): host functions
 * `uint32_t f(void *args)` called once per block. Arguments are packed
 * without gaps (1-byte alignment). */
#include <stdint.h>
#include <string.h>

/* args: uint8_t add, uint32_t *counter (packed: the pointer at offset 1).
 * Adds `add` to *counter once per block. */
__attribute__((visibility("default"))) uint32_t cpu_accumulate(void *args)
{
    uint8_t add;
    uint32_t *counter;
    memcpy(&add, args, sizeof(add));
    memcpy(&counter, (const char *)args + 1, sizeof(counter));
    __atomic_add_fetch(counter, add, __ATOMIC_RELAXED);
    return 0;
}

/* Fails every block with status 7. */
__attribute__((visibility("default"))) uint32_t cpu_fail(void *args)
{
    (void)args;
    return 7;
}

/* An exported data object, not a function. */
__attribute__((visibility("default"))) uint32_t cpu_data = 5;
