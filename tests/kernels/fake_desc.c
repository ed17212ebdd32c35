/* A hand-made kernel binary with a broken descriptor (built without the
 * driver): FAKE_MAGIC / FAKE_ABI select what is wrong. */
#include "oacl/kernel_abi.h"

static void fake_entry(const void *args) { (void)args; }

static const struct oacl_kernel_desc fake_kernels[] = {{"fake", fake_entry, 0, 0, 0}};

__attribute__((visibility("default"))) const struct oacl_kernel_binary_desc oacl_kernel_binary = {
    FAKE_MAGIC, FAKE_ABI, 2201, "Ascend910B3", "x86_64", 1, 0, fake_kernels};
