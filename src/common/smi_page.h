/*
 * The status page every oacl process keeps while it uses a device, read by
 * oacl-smi (profiling-and-tools.md §6.2). The page is a memory file without
 * a name in any file system (memfd "oacl-smi", or "oacl-smi:<scope>" with
 * OACL_SMI_SCOPE set) that the process keeps open: it vanishes with the
 * process, after a normal exit, a crash or kill -9 alike. oacl-smi finds
 * pages through /proc/<pid>/fd, which the kernel opens only to the same
 * user (and root). Writers use relaxed atomics only: no locks, no system
 * calls.
 */
#ifndef OACL_COMMON_SMI_PAGE_H
#define OACL_COMMON_SMI_PAGE_H

#include <stdbool.h>
#include <stdint.h>

struct oacl_smi_device {     /* 64 bytes */
    uint32_t set;            /* 1 once the process used the device */
    uint32_t reserved0;
    uint64_t mem_used;       /* device memory allocated by this process, bytes */
    uint64_t mem_total;
    uint64_t busy_core_ns;   /* sum over cores of block time (while sampled, below) */
    uint64_t tasks_done;     /* reserved: 0 */
    uint32_t cores;
    uint32_t streams;        /* reserved: 0 */
    uint64_t reserved1;
};

struct oacl_smi_proc {       /* 128 bytes, then device_count devices */
    char magic[8];           /* "OACLSMI1" */
    uint32_t version;        /* 1 */
    uint32_t device_count;
    int32_t pid;
    /* The spec's reserved0: oacl-smi stores (CLOCK_MONOTONIC seconds | 1)
       here to ask for core-busy sampling; the process samples while the
       request is less than 5 s old and clears it afterwards. */
    uint32_t sample_request;
    uint64_t start_time_ns;  /* CLOCK_REALTIME at creation */
    char soc[32];
    char name[64];
};

#define OACL_SMI_MAGIC "OACLSMI1"
#define OACL_SMI_SAMPLE_SECONDS 5u

extern uint32_t *oacl_smi_request_word; /* into the page, or a zero word */

/* True while oacl-smi asked for utilisation figures. */
static inline bool oacl_smi_sampling(void)
{
    return __atomic_load_n(__atomic_load_n(&oacl_smi_request_word, __ATOMIC_RELAXED), __ATOMIC_RELAXED) != 0;
}

/* The process uses device dev (creates the page on first use). */
void oacl_smi_device_used(uint32_t dev, const char *soc, uint64_t mem_total, uint32_t cores);
void oacl_smi_mem_used(uint32_t dev, uint64_t bytes);
/* Adds block time while sampling; now_ns is CLOCK_MONOTONIC. */
void oacl_smi_busy(uint32_t dev, uint64_t ns, uint64_t now_ns);
/* The memfd name of the pages of this scope (OACL_SMI_SCOPE) and what
 * readlink of /proc/<pid>/fd/<n> shows for one ("/memfd:<name> (deleted)"). */
void oacl_smi_page_name(char *buf, unsigned len);
void oacl_smi_page_link(char *buf, unsigned len);

#endif /* OACL_COMMON_SMI_PAGE_H */
