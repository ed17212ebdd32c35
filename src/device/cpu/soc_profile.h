/*
 * SoC profiles of the simulated device: the figures a real device of that
 * SoC reports (core counts, memories) and the architecture its kernels are
 * compiled for. Shared by the runtime and by the kernel compiler driver.
 */
#ifndef OACL_DEVICE_CPU_SOC_PROFILE_H
#define OACL_DEVICE_CPU_SOC_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

struct oacl_soc_profile {
    const char *name;        /* as aclrtGetSocName() reports it */
    const char *short_name;  /* family, e.g. "Ascend910B" */
    uint32_t npu_arch;       /* __NPU_ARCH__ */
    uint32_t aicore_num;
    uint32_t cube_num;       /* 0 on coupled chips */
    uint32_t vector_num;     /* AIV count (separated) or stand-alone vector cores */
    uint32_t aicpu_num;
    uint64_t memory_bytes;   /* nominal device memory */
    uint64_t l2_bytes;
    uint32_t freq_mhz;
    uint32_t ub_bytes;       /* unified buffer per vector core */
    uint32_t l1_bytes;
    uint32_t l0a_bytes, l0b_bytes, l0c_bytes;
    uint32_t bt_bytes, fb_bytes;
    bool separated;          /* AIC + 2 AIV per AI Core */
    bool memory_inferred;    /* the source gives no memory figure */
};

/* Exact-name lookup (names like "Ascend910B" and "Ascend910B1" differ). */
const struct oacl_soc_profile *oacl_soc_find(const char *name);
/* Number of known profiles and the i-th one, for listings. */
unsigned oacl_soc_count(void);
const struct oacl_soc_profile *oacl_soc_at(unsigned i);

/* Threads a kernel launch may run on for this profile: vector cores on
 * separated chips, AI Cores (plus vector cores) on coupled ones. */
uint32_t oacl_soc_block_cores(const struct oacl_soc_profile *p);

#endif /* OACL_DEVICE_CPU_SOC_PROFILE_H */
