/* Seed of the kernel-binary fuzz targets: the smallest valid kernel binary
 * (a descriptor with two kernels and a device variable), built at fuzz build
 * time without the kernel driver so that it needs no runtime library. */
#include "oacl/kernel_abi.h"

static void seed_entry(const void *args) { (void)args; }

static const uint32_t seed_params[] = {8, 8, 4};
static const struct oacl_kernel_desc seed_kernels[] = {
    {"seed_add", seed_entry, seed_params, 3, 0},
    {"seed_empty", seed_entry, 0, 0, 0},
};

__attribute__((visibility("default"))) int seed_global[4] = {1, 2, 3, 4};

__attribute__((visibility("default"))) const struct oacl_kernel_binary_desc oacl_kernel_binary = {
    OACL_KBIN_MAGIC, OACL_KBIN_ABI_VERSION, 2201, "Ascend910B3", "x86_64", 2, 0, seed_kernels};
