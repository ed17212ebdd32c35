/* Kernel binaries that load badly (test_load_corrupt.c), built without the
 * driver: CORRUPT_CTOR faults in a constructor, CORRUPT_DTOR in a
 * destructor, CORRUPT_SPIN never returns from a constructor, CORRUPT_DESC
 * has a descriptor whose kernel table points nowhere. Each must be refused
 * by the loader, never crash (or hang) the process. */
#include "oacl/kernel_abi.h"

static void entry(const void *args) { (void)args; }

#if defined(CORRUPT_CTOR)
__attribute__((constructor)) static void boom(void) { *(volatile int *)(uintptr_t)8 = 1; }
#elif defined(CORRUPT_SPIN)
__attribute__((constructor)) static void spin(void)
{
    for (;;)
        __asm__ volatile("" ::: "memory");
}
#elif defined(CORRUPT_DTOR)
__attribute__((destructor)) static void boom(void) { *(volatile int *)(uintptr_t)8 = 1; }
#endif

static const struct oacl_kernel_desc kernels[] = {{"k", entry, 0, 0, 0}};

__attribute__((visibility("default"))) const struct oacl_kernel_binary_desc oacl_kernel_binary = {
    OACL_KBIN_MAGIC, OACL_KBIN_ABI_VERSION, 2201, "Ascend910B3", "x86_64", 1, 0,
#if defined(CORRUPT_DESC)
    (const struct oacl_kernel_desc *)(uintptr_t)0x10
#else
    kernels
#endif
};
