/*
 * oacl-smi: npu-smi's view of the simulated devices (profiling-and-tools.md
 * §6): every device with its SoC, memory and AI-core utilisation, and the
 * live oacl processes of the calling user with the device memory they hold,
 * read from the status pages the processes keep (src/common/smi_page.h),
 * found through /proc/<pid>/fd.
 *
 *   oacl-smi [info]                      the table (98 columns, npu-smi's layout)
 *   oacl-smi [info] -l N [-n K]          refresh every N seconds (K times; default forever)
 *   oacl-smi info -l | -m                device count / chip list
 *   oacl-smi info -t board|common|usages -i ID [-c 0]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/smi_page.h"
#include "device/cpu/soc_profile.h"

#define MAX_PROCS 512
#define MAX_DEV 64

struct proc {
    struct oacl_smi_proc head;
    struct oacl_smi_device dev[MAX_DEV];
    const struct oacl_smi_proc *live; /* mapping, for the sampling request */
    size_t len;
};

static struct proc g_procs[MAX_PROCS];
static unsigned g_nprocs;
static uint32_t g_ndev = 8;
static const struct oacl_soc_profile *g_soc;
static uint64_t g_mem_total;

static void usage(void)
{
    fprintf(stderr, "usage: oacl-smi [info] [-l SECONDS [-n COUNT]]\n"
                    "       oacl-smi info -l | -m | -t board|common|usages -i ID [-c 0]\n");
}

static void config(void)
{
    const char *n = getenv("OACL_DEVICE_COUNT");
    if (n && *n) {
        char *end;
        unsigned long v = strtoul(n, &end, 10);
        if (!*end && v <= MAX_DEV)
            g_ndev = (uint32_t)v;
    }
    const char *soc = getenv("OACL_SOC");
    g_soc = oacl_soc_find(soc && *soc ? soc : OACL_DEFAULT_SOC);
    if (!g_soc)
        g_soc = oacl_soc_find(OACL_DEFAULT_SOC);
    g_mem_total = g_soc->memory_bytes;
    const char *m = getenv("OACL_DEVICE_MEMORY");
    if (m && *m) {
        char *end;
        unsigned long long v = strtoull(m, &end, 10);
        unsigned shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : *end == 'G' || *end == 'g' ? 30 : 0;
        if (shift)
            end++;
        if (!*end && v)
            g_mem_total = v << shift;
    }
}

/* The status page of pid, if it has one: its open memfd (see
 * smi_page.h), opened through /proc. The kernel lets only the same user
 * (and root) open another process's descriptors; a page exists only while
 * its process lives. Returns an open descriptor or -1. */
static int open_page(const char *pid, const char *want)
{
    char dir[300];
    snprintf(dir, sizeof(dir), "/proc/%.256s/fd", pid);
    DIR *d = opendir(dir);
    if (!d)
        return -1; /* gone, or another user's */
    int fd = -1;
    struct dirent *e;
    while (fd < 0 && (e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[600], link[512];
        snprintf(path, sizeof(path), "%s/%.256s", dir, e->d_name);
        ssize_t n = readlink(path, link, sizeof(link) - 1);
        if (n <= 0)
            continue;
        link[n] = '\0';
        if (strcmp(link, want) == 0)
            fd = open(path, O_RDWR | O_CLOEXEC);
    }
    closedir(d);
    return fd;
}

/* Reads the pages of the live oacl processes of this user. */
static void scan(bool map_live)
{
    for (unsigned i = 0; i < g_nprocs; i++)
        if (g_procs[i].live)
            munmap((void *)g_procs[i].live, g_procs[i].len);
    g_nprocs = 0;
    char want[512];
    oacl_smi_page_link(want, sizeof(want));
    DIR *d = opendir("/proc");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) && g_nprocs < MAX_PROCS) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        int fd = open_page(e->d_name, want);
        if (fd < 0)
            continue;
        struct proc *p = &g_procs[g_nprocs];
        memset(p, 0, sizeof(*p));
        struct stat st;
        ssize_t got = fstat(fd, &st) == 0 ? pread(fd, &p->head, sizeof(p->head), 0) : -1;
        size_t ndev = got == (ssize_t)sizeof(p->head) ? (p->head.device_count < MAX_DEV ? p->head.device_count
                                                                                          : MAX_DEV)
                                                      : 0;
        if (ndev && pread(fd, p->dev, ndev * sizeof(p->dev[0]), sizeof(p->head)) != (ssize_t)(ndev * sizeof(p->dev[0])))
            ndev = 0;
        /* Not written yet, or a page a forked child inherited from its
           parent (the parent is listed on its own). */
        if (!ndev || memcmp(p->head.magic, OACL_SMI_MAGIC, 8) != 0 || p->head.pid != (int32_t)pid) {
            close(fd);
            continue;
        }
        if (map_live) {
            void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (m != MAP_FAILED) {
                p->live = m;
                p->len = (size_t)st.st_size;
            }
        }
        close(fd);
        g_nprocs++;
    }
    closedir(d);
}

/* AI-core utilisation per device over a 200 ms window (two reads). */
static void utilisation(unsigned util[MAX_DEV])
{
    memset(util, 0, sizeof(unsigned) * MAX_DEV);
    scan(true);
    if (!g_nprocs)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    static uint64_t before[MAX_PROCS][MAX_DEV];
    for (unsigned i = 0; i < g_nprocs; i++) {
        const struct oacl_smi_proc *live = g_procs[i].live;
        if (!live)
            continue;
        __atomic_store_n((uint32_t *)&live->sample_request, (uint32_t)now.tv_sec | 1u, __ATOMIC_RELAXED);
        const struct oacl_smi_device *dv = (const struct oacl_smi_device *)(live + 1);
        for (uint32_t d = 0; d < g_ndev && d < MAX_DEV; d++)
            before[i][d] = __atomic_load_n(&dv[d].busy_core_ns, __ATOMIC_RELAXED);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double dt = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    double busy[MAX_DEV] = {0};
    for (unsigned i = 0; i < g_nprocs; i++) {
        const struct oacl_smi_proc *live = g_procs[i].live;
        if (!live)
            continue;
        const struct oacl_smi_device *dv = (const struct oacl_smi_device *)(live + 1);
        for (uint32_t d = 0; d < g_ndev && d < MAX_DEV; d++) {
            uint64_t cores = dv[d].cores ? dv[d].cores : 1;
            busy[d] += (double)(__atomic_load_n(&dv[d].busy_core_ns, __ATOMIC_RELAXED) - before[i][d]) /
                       (dt * (double)cores);
        }
    }
    for (uint32_t d = 0; d < g_ndev && d < MAX_DEV; d++) {
        double u = busy[d] * 100.0;
        util[d] = u > 100 ? 100 : (unsigned)u;
    }
}

static uint64_t mib_up(uint64_t b) { return (b + (1u << 20) - 1) >> 20; }

static const char *short_soc(void)
{
    return strncmp(g_soc->name, "Ascend", 6) == 0 ? g_soc->name + 6 : g_soc->name;
}

static void line(char c)
{
    putchar('+');
    for (int i = 0; i < 96; i++)
        putchar(c);
    puts("+");
}

static void sep(char c)
{
    printf("+");
    for (int i = 0; i < 27; i++)
        putchar(c);
    printf("+");
    for (int i = 0; i < 15; i++)
        putchar(c);
    printf("+");
    for (int i = 0; i < 52; i++)
        putchar(c);
    puts("+");
}

static void table(void)
{
    unsigned util[MAX_DEV];
    utilisation(util);
    line('-');
    printf("| oacl-smi %-24sVersion: %-53s|\n", OACL_VERSION_STRING, OACL_VERSION_STRING);
    sep('-');
    puts("| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|");
    puts("| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |");
    sep('=');
    for (uint32_t d = 0; d < g_ndev; d++) {
        uint64_t used = 0;
        for (unsigned i = 0; i < g_nprocs; i++)
            if (d < MAX_DEV && g_procs[i].dev[d].set)
                used += mib_up(g_procs[i].dev[d].mem_used);
        printf("| %-6u%-20s| %-14s| %-12s%-18s%-5u/ %-14u|\n", d, short_soc(), "OK", "NA", "NA", 0u, 0u);
        printf("| %-26u| %-14s| %-12u%-5u/ %-11u%-5llu/ %-14llu|\n", 0u, "NA", d < MAX_DEV ? util[d] : 0u, 0u, 0u,
               (unsigned long long)used, (unsigned long long)(g_mem_total >> 20));
        sep('=');
    }
    sep('-');
    puts("| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |");
    sep('=');
    for (uint32_t d = 0; d < g_ndev; d++) {
        bool any = false;
        for (unsigned i = 0; i < g_nprocs; i++) {
            if (d >= MAX_DEV || !g_procs[i].dev[d].set)
                continue;
            char name[26];
            snprintf(name, sizeof(name), "%.25s", g_procs[i].head.name);
            for (char *c = name; *c; c++)
                if ((unsigned char)*c < 0x20)
                    *c = '?';
            printf("| %-8u%-18u| %-14d| %-25s| %-24llu|\n", d, 0u, g_procs[i].head.pid, name,
                   (unsigned long long)mib_up(g_procs[i].dev[d].mem_used));
            any = true;
        }
        if (!any) {
            char text[128];
            snprintf(text, sizeof(text), "| No running processes found in NPU %u", d);
            printf("%-97s|\n", text);
        }
        sep('=');
    }
    fflush(stdout);
}

static void kv(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void kv(const char *key, const char *fmt, ...)
{
    printf("        %-31s: ", key);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static int details(const char *type, long id)
{
    if (id < 0 || id >= (long)g_ndev) {
        fprintf(stderr, "oacl-smi: device id %ld is out of range 0..%u\n", id, g_ndev ? g_ndev - 1 : 0);
        return 1;
    }
    unsigned util[MAX_DEV];
    utilisation(util);
    uint64_t used = 0;
    for (unsigned i = 0; i < g_nprocs; i++)
        if (g_procs[i].dev[id].set)
            used += g_procs[i].dev[id].mem_used;
    unsigned hbm_rate = g_mem_total ? (unsigned)(used * 100 / g_mem_total) : 0;
    if (!strcmp(type, "board")) {
        kv("NPU ID", "%ld", id);
        kv("Chip ID", "0");
        kv("Chip Type", "Ascend");
        kv("Chip Name", "%s", short_soc());
        kv("Chip Version", "NA");
        kv("Board ID", "NA");
        kv("PCB ID", "NA");
        kv("BOM ID", "NA");
        kv("PCIe Bus Info", "NA");
        kv("Slot ID", "NA");
        kv("Class ID", "NA");
        kv("PCI Vendor ID", "NA");
        kv("PCI Device ID", "NA");
        kv("Subsystem Vendor ID", "NA");
        kv("Subsystem Device ID", "NA");
        kv("Module ID", "%ld", id);
        kv("Serial Number", "NA");
    } else if (!strcmp(type, "common")) {
        kv("NPU ID", "%ld", id);
        kv("Chip Count", "1");
        putchar('\n');
        kv("Chip ID", "0");
        kv("Memory Usage Rate(%)", "0");
        kv("HBM Usage Rate(%)", "%u", hbm_rate);
        kv("Aicore Usage Rate(%)", "%u", util[id]);
        kv("Aicore Freq(MHZ)", "%u", g_soc->freq_mhz);
        kv("Aicore curFreq(MHZ)", "%u", g_soc->freq_mhz);
        kv("Aicore Count", "%u", oacl_soc_block_cores(g_soc));
        kv("Temperature(C)", "NA");
        kv("NPU Real-time Power(W)", "NA");
    } else if (!strcmp(type, "usages")) {
        kv("NPU ID", "%ld", id);
        kv("Chip Count", "1");
        putchar('\n');
        kv("DDR Capacity(MB)", "0");
        kv("DDR Usage Rate(%)", "0");
        kv("DDR Hugepages Total(page)", "0");
        kv("DDR Hugepages Usage Rate(%)", "0");
        kv("HBM Capacity(MB)", "%llu", (unsigned long long)(g_mem_total >> 20));
        kv("HBM Usage Rate(%)", "%u", hbm_rate);
        kv("Aicore Usage Rate(%)", "%u", util[id]);
        kv("Aicpu Usage Rate(%)", "NA");
        kv("Ctrlcpu Usage Rate(%)", "NA");
        kv("DDR Bandwidth Usage Rate(%)", "NA");
        kv("HBM Bandwidth Usage Rate(%)", "NA");
        kv("Chip ID", "0");
    } else {
        usage();
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    config();
    int i = 1;
    if (i < argc && !strcmp(argv[i], "info"))
        i++;
    long refresh = -1, count = -1, id = -1;
    const char *type = NULL;
    bool list = false, chips = false;
    for (; i < argc; i++) {
        const char *a = argv[i];
        bool has_next = i + 1 < argc;
        char *end = NULL;
        if (!strcmp(a, "-l") && has_next && (strtol(argv[i + 1], &end, 10), *end == '\0')) {
            refresh = strtol(argv[++i], NULL, 10);
            if (refresh < 1) {
                usage();
                return 1;
            }
        } else if (!strcmp(a, "-l")) {
            list = true;
        } else if (!strcmp(a, "-n") && has_next) {
            count = strtol(argv[++i], &end, 10);
            if (*end || count < 1) {
                usage();
                return 1;
            }
        } else if (!strcmp(a, "-m")) {
            chips = true;
        } else if (!strcmp(a, "-t") && has_next) {
            type = argv[++i];
        } else if (!strcmp(a, "-i") && has_next) {
            id = strtol(argv[++i], &end, 10);
            if (*end) {
                usage();
                return 1;
            }
        } else if (!strcmp(a, "-c") && has_next) {
            if (strcmp(argv[++i], "0") != 0) {
                fprintf(stderr, "oacl-smi: every simulated NPU has one chip (0)\n");
                return 1;
            }
        } else {
            usage();
            return 1;
        }
    }
    if (list) {
        kv("Total Count", "%u", g_ndev);
        for (uint32_t d = 0; d < g_ndev; d++) {
            putchar('\n');
            kv("NPU ID", "%u", d);
            kv("Chip Count", "1");
        }
        return 0;
    }
    if (chips) {
        printf("        %-31s%-31s%-31s%s\n", "NPU ID", "Chip ID", "Chip Logic ID", "Chip Name");
        for (uint32_t d = 0; d < g_ndev; d++)
            printf("        %-31u%-31u%-31u%s %s\n", d, 0u, d, "Ascend", short_soc());
        return 0;
    }
    if (type)
        return details(type, id);
    for (long n = 0;; n++) {
        table();
        if (refresh < 0 || (count > 0 && n + 1 >= count))
            break;
        sleep((unsigned)refresh);
    }
    return 0;
}
