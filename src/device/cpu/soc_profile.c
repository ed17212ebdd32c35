/*
 * Figures from the SoC table (shared/spec/soc-table.md): configuration
 * records of released products, pre-release records for the 950 family.
 * Where a record gives no memory size the profile uses its sibling's value
 * and says so (memory_inferred).
 */
#include "device/cpu/soc_profile.h"

#include <stddef.h>
#include <string.h>

#define KiB(x) ((uint32_t)(x) * 1024u)
#define MiB(x) ((uint64_t)(x) * 1024u * 1024u)
#define GiB(x) ((uint64_t)(x) * 1024u * 1024u * 1024u)

/* Core-local memories per architecture (identical within one arch). */
#define LOCAL_2201 KiB(192), KiB(512), KiB(64), KiB(64), KiB(128), KiB(1), KiB(2), true
#define LOCAL_3510 253952u, KiB(512), KiB(64), KiB(64), KiB(256), KiB(4), KiB(4), true
#define LOCAL_2002 KiB(256), KiB(1024), KiB(64), KiB(64), KiB(256), 0u, 0u, false
#define LOCAL_3002 253952u, KiB(1024), KiB(64), KiB(64), KiB(128), KiB(1), KiB(2), false
#define LOCAL_1001 KiB(256), KiB(1024), KiB(64), KiB(64), KiB(256), 0u, 0u, false

#define A2(n, ai, mem, l2, f) {n, "Ascend910B", 2201, ai, ai, 2 * (ai), 6, mem, l2, f, LOCAL_2201, false}
#define A3(n, ai, mem, l2, f) {n, "Ascend910_93", 2201, ai, ai, 2 * (ai), 6, mem, l2, f, LOCAL_2201, false}
#define A950(n, ai, cpu, mem, l2, f) {n, "Ascend950", 3510, ai, ai, 2 * (ai), cpu, mem, l2, f, LOCAL_3510, false}

static const struct oacl_soc_profile g_profiles[] = {
    /* Atlas A2 training / inference series */
    A2("Ascend910B1", 24, GiB(64), MiB(192), 1850),
    A2("Ascend910B2", 24, GiB(64), MiB(192), 1800),
    {"Ascend910B2C", "Ascend910B", 2201, 24, 24, 48, 6, GiB(64), MiB(192), 1800, LOCAL_2201, true},
    A2("Ascend910B3", 20, GiB(64), MiB(192), 1800),
    A2("Ascend910B4", 20, GiB(32), MiB(96), 1500),
    A2("Ascend910B4-1", 20, GiB(32), MiB(168), 1500),
    /* Atlas A3 training / inference series (one die per device) */
    A3("Ascend910_9362", 20, GiB(64), MiB(168), 1500),
    A3("Ascend910_9363", 20, GiB(32), MiB(168), 1500),
    A3("Ascend910_9372", 20, GiB(64), MiB(192), 1800),
    A3("Ascend910_9381", 24, GiB(64), MiB(192), 1800),
    A3("Ascend910_9382", 24, GiB(64), MiB(192), 1800),
    A3("Ascend910_9391", 24, GiB(64), MiB(192), 1850),
    A3("Ascend910_9392", 24, GiB(64), MiB(192), 1850),
    /* Ascend 950PR / 950DT (pre-release records) */
    A950("Ascend950PR_950z", 4, 5, GiB(24), MiB(16), 1650),
    A950("Ascend950PR_9579", 28, 7, GiB(128), MiB(128), 1650),
    A950("Ascend950PR_957b", 28, 5, GiB(112), MiB(112), 1650),
    A950("Ascend950PR_957bx", 28, 5, GiB(112), MiB(112), 1650),
    A950("Ascend950PR_957c", 28, 5, GiB(84), MiB(112), 1650),
    A950("Ascend950PR_957d", 28, 5, GiB(96), MiB(96), 1650),
    A950("Ascend950PR_9589", 32, 6, GiB(128), MiB(128), 1650),
    A950("Ascend950PR_958b", 32, 7, GiB(112), MiB(112), 1650),
    A950("Ascend950PR_9599", 36, 6, GiB(128), MiB(128), 1800),
    A950("Ascend950DT_950x", 8, 5, GiB(24), MiB(32), 1650),
    A950("Ascend950DT_950y", 8, 5, GiB(16), MiB(32), 1650),
    A950("Ascend950DT_9571", 28, 7, GiB(144), MiB(128), 1650),
    A950("Ascend950DT_9572", 28, 7, GiB(96), MiB(128), 1650),
    A950("Ascend950DT_9573", 28, 5, GiB(126), MiB(112), 1650),
    A950("Ascend950DT_9574", 28, 5, GiB(84), MiB(112), 1650),
    A950("Ascend950DT_9575", 28, 7, GiB(96), MiB(128), 1650),
    A950("Ascend950DT_9576", 28, 7, GiB(64), MiB(128), 1650),
    A950("Ascend950DT_9577", 28, 5, GiB(84), MiB(112), 1650),
    A950("Ascend950DT_9578", 28, 5, GiB(56), MiB(112), 1650),
    A950("Ascend950DT_9581", 32, 6, GiB(144), MiB(128), 1650),
    A950("Ascend950DT_9581x", 32, 6, GiB(144), MiB(128), 1650),
    A950("Ascend950DT_9582", 32, 6, GiB(96), MiB(128), 1650),
    A950("Ascend950DT_9582x", 32, 6, GiB(96), MiB(128), 1650),
    A950("Ascend950DT_9583", 32, 7, GiB(126), MiB(112), 1650),
    A950("Ascend950DT_9584", 32, 7, GiB(84), MiB(112), 1650),
    A950("Ascend950DT_9585", 32, 6, GiB(96), MiB(128), 1650),
    A950("Ascend950DT_9586", 32, 6, GiB(64), MiB(128), 1650),
    A950("Ascend950DT_9587", 32, 7, GiB(84), MiB(112), 1650),
    A950("Ascend950DT_9588", 32, 7, GiB(56), MiB(112), 1650),
    A950("Ascend950DT_9591", 36, 6, GiB(144), MiB(128), 1800),
    A950("Ascend950DT_9592", 36, 6, GiB(96), MiB(128), 1800),
    A950("Ascend950DT_9595", 36, 6, GiB(96), MiB(128), 1800),
    A950("Ascend950DT_9596", 36, 6, GiB(64), MiB(128), 1800),
    A950("Ascend950DT_95A1", 36, 6, GiB(144), MiB(128), 1800),
    A950("Ascend950DT_95A2", 36, 6, GiB(96), MiB(128), 1800),
    {"Ascend350_354f", "Ascend350", 3510, 14, 14, 28, 2, GiB(56), MiB(56), 1650, LOCAL_3510, false},
    {"Ascend350_355e", "Ascend350", 3510, 16, 16, 32, 4, GiB(64), MiB(64), 1650, LOCAL_3510, false},
    /* Atlas inference series: coupled AI Cores plus stand-alone vector cores */
    {"Ascend310P1", "Ascend310P", 2002, 10, 0, 8, 8, 24000000000ull, MiB(16), 1060, LOCAL_2002, false},
    {"Ascend310P3", "Ascend310P", 2002, 8, 0, 7, 7, 24000000000ull, MiB(16), 1060, LOCAL_2002, false},
    {"Ascend310P5", "Ascend310P", 2002, 8, 0, 7, 8, 24000000000ull, MiB(16), 800, LOCAL_2002, false},
    {"Ascend310P7", "Ascend310P", 2002, 8, 0, 7, 8, 24000000000ull, MiB(16), 550, LOCAL_2002, false},
    /* Atlas 200I/500 A2: one coupled core */
    {"Ascend310B1", "Ascend310B", 3002, 1, 1, 1, 4, GiB(32), MiB(4), 1224, LOCAL_3002, false},
    {"Ascend310B2", "Ascend310B", 3002, 1, 1, 1, 4, GiB(32), MiB(4), 1224, LOCAL_3002, true},
    {"Ascend310B3", "Ascend310B", 3002, 1, 1, 1, 4, GiB(32), MiB(4), 1224, LOCAL_3002, true},
    {"Ascend310B4", "Ascend310B", 3002, 1, 1, 1, 4, GiB(32), MiB(4), 500, LOCAL_3002, true},
    /* First-generation training series (coupled, no separate vector cores);
       the records give no memory size, 32 GiB is assumed. */
    {"Ascend910A", "Ascend910", 1001, 32, 0, 0, 4, GiB(32), MiB(32), 1000, LOCAL_1001, true},
    {"Ascend910B", "Ascend910", 1001, 30, 0, 0, 6, GiB(32), MiB(32), 900, LOCAL_1001, true},
    {"Ascend910ProA", "Ascend910", 1001, 32, 0, 0, 4, GiB(32), MiB(32), 1100, LOCAL_1001, true},
    {"Ascend910ProB", "Ascend910", 1001, 30, 0, 0, 4, GiB(32), MiB(32), 1150, LOCAL_1001, true},
    {"Ascend910PremiumA", "Ascend910", 1001, 32, 0, 0, 4, GiB(32), MiB(32), 1220, LOCAL_1001, true},
};

const struct oacl_soc_profile *oacl_soc_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof(g_profiles) / sizeof(g_profiles[0]); i++)
        if (strcmp(g_profiles[i].name, name) == 0)
            return &g_profiles[i];
    return NULL;
}

unsigned oacl_soc_count(void) { return (unsigned)(sizeof(g_profiles) / sizeof(g_profiles[0])); }

const struct oacl_soc_profile *oacl_soc_at(unsigned i)
{
    return i < oacl_soc_count() ? &g_profiles[i] : NULL;
}

uint32_t oacl_soc_block_cores(const struct oacl_soc_profile *p)
{
    if (p->separated)
        return p->vector_num;
    /* Coupled chips run vector kernels on their AI Cores; the 310P adds its
       stand-alone vector cores (on 310B the vector part is inside the core). */
    return p->npu_arch == 2002 ? p->aicore_num + p->vector_num : p->aicore_num;
}
