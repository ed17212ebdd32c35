/* The per-process status page behind oacl-smi (see smi_page.h). */
#include "common/smi_page.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static uint32_t g_zero;
uint32_t *oacl_smi_request_word = &g_zero;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct oacl_smi_proc *g_page; /* atomic pointer */
static size_t g_page_len;
static int g_page_fd = -1;
static bool g_failed;

void oacl_smi_page_name(char *buf, unsigned len)
{
    const char *scope = getenv("OACL_SMI_SCOPE");
    if (scope && *scope)
        snprintf(buf, len, "oacl-smi:%.200s", scope);
    else
        snprintf(buf, len, "oacl-smi");
}

void oacl_smi_page_link(char *buf, unsigned len)
{
    char name[256];
    oacl_smi_page_name(name, sizeof(name));
    snprintf(buf, len, "/memfd:%s (deleted)", name);
}

/* A forked child must not write into its parent's page (nor keep it open):
 * it makes its own when it uses a device. */
static void page_forget_in_child(void)
{
    if (g_page)
        munmap(g_page, g_page_len);
    if (g_page_fd >= 0)
        close(g_page_fd);
    g_page_fd = -1;
    __atomic_store_n(&g_page, NULL, __ATOMIC_RELAXED);
    __atomic_store_n(&oacl_smi_request_word, &g_zero, __ATOMIC_RELAXED);
    g_failed = false;
    pthread_mutex_init(&g_lock, NULL);
}

static struct oacl_smi_proc *page_create_locked(void)
{
    static bool hooks;
    if (!hooks) {
        hooks = true;
        pthread_atfork(NULL, NULL, page_forget_in_child);
    }
    extern char *program_invocation_short_name;
    unsigned ndev = 64;
    size_t len = sizeof(struct oacl_smi_proc) + ndev * sizeof(struct oacl_smi_device);
    char name[256];
    oacl_smi_page_name(name, sizeof(name));
    /* Kept open for the life of the process: that is how oacl-smi finds it,
       and the page needs no removal. */
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (ftruncate(fd, (off_t)len) != 0) {
        close(fd);
        return NULL;
    }
    struct oacl_smi_proc *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        close(fd);
        return NULL;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    p->version = 1;
    p->device_count = ndev;
    p->pid = (int32_t)getpid();
    p->start_time_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    snprintf(p->name, sizeof(p->name), "%s", program_invocation_short_name);
    memcpy(p->magic, OACL_SMI_MAGIC, 8); /* last: readers skip pages without it */
    g_page_len = len;
    g_page_fd = fd;
    return p;
}

void oacl_smi_device_used(uint32_t dev, const char *soc, uint64_t mem_total, uint32_t cores)
{
    if (dev >= 64)
        return;
    pthread_mutex_lock(&g_lock);
    struct oacl_smi_proc *p = g_page;
    if (!p && !g_failed) {
        p = page_create_locked();
        g_failed = !p;
        if (p) {
            __atomic_store_n(&g_page, p, __ATOMIC_RELEASE);
            __atomic_store_n(&oacl_smi_request_word, &p->sample_request, __ATOMIC_RELEASE);
        }
    }
    if (p) {
        if (soc && !p->soc[0])
            snprintf(p->soc, sizeof(p->soc), "%s", soc);
        struct oacl_smi_device *d = (struct oacl_smi_device *)(p + 1) + dev;
        __atomic_store_n(&d->mem_total, mem_total, __ATOMIC_RELAXED);
        __atomic_store_n(&d->cores, cores, __ATOMIC_RELAXED);
        __atomic_store_n(&d->set, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&g_lock);
}

static struct oacl_smi_device *slot(uint32_t dev)
{
    struct oacl_smi_proc *p = __atomic_load_n(&g_page, __ATOMIC_ACQUIRE);
    return p && dev < 64 ? (struct oacl_smi_device *)(p + 1) + dev : NULL;
}

void oacl_smi_mem_used(uint32_t dev, uint64_t bytes)
{
    struct oacl_smi_device *d = slot(dev);
    if (d)
        __atomic_store_n(&d->mem_used, bytes, __ATOMIC_RELAXED);
}

void oacl_smi_busy(uint32_t dev, uint64_t ns, uint64_t now_ns)
{
    struct oacl_smi_proc *p = __atomic_load_n(&g_page, __ATOMIC_ACQUIRE);
    if (!p)
        return;
    uint32_t req = __atomic_load_n(&p->sample_request, __ATOMIC_RELAXED);
    if (req && (uint32_t)(now_ns / 1000000000ull) > req + OACL_SMI_SAMPLE_SECONDS)
        __atomic_compare_exchange_n(&p->sample_request, &req, 0, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    struct oacl_smi_device *d = slot(dev);
    if (d)
        __atomic_add_fetch(&d->busy_core_ns, ns, __ATOMIC_RELAXED);
}
