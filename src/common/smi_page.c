/* The per-process status page behind oacl-smi (see smi_page.h). */
#include "common/smi_page.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
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
static int g_page_pid;
static bool g_failed;
static char g_path[4096];

const char *oacl_smi_dir(void)
{
    const char *d = getenv("OACL_SMI_DIR");
    return d && *d ? d : "/dev/shm";
}

void oacl_smi_page_path(int pid, char *buf, unsigned len)
{
    snprintf(buf, len, "%s/oacl-%u-%d", oacl_smi_dir(), (unsigned)getuid(), pid);
}

static void page_remove(void)
{
    pthread_mutex_lock(&g_lock);
    if (g_page && g_page_pid == getpid())
        unlink(g_path);
    pthread_mutex_unlock(&g_lock);
}

__attribute__((destructor)) static void page_remove_at_unload(void) { page_remove(); }

/* A forked child must not write into its parent's page: it makes its own
 * when it uses a device. */
static void page_forget_in_child(void)
{
    if (g_page)
        munmap(g_page, g_page_len);
    __atomic_store_n(&g_page, NULL, __ATOMIC_RELAXED);
    __atomic_store_n(&oacl_smi_request_word, &g_zero, __ATOMIC_RELAXED);
    g_failed = false;
    pthread_mutex_init(&g_lock, NULL);
}

/* Pages of this user's processes that died without removing theirs
 * (kill -9): whoever makes a page clears them away. */
static void remove_stale_pages(void)
{
    DIR *d = opendir(oacl_smi_dir());
    if (!d)
        return;
    char prefix[48];
    snprintf(prefix, sizeof(prefix), "oacl-%u-", (unsigned)getuid());
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        char *end;
        long pid = strtol(e->d_name + strlen(prefix), &end, 10);
        if (*end || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[4400];
        snprintf(path, sizeof(path), "%s/%s", oacl_smi_dir(), e->d_name);
        unlink(path);
    }
    closedir(d);
}

static struct oacl_smi_proc *page_create_locked(void)
{
    remove_stale_pages();
    static bool hooks;
    if (!hooks) {
        hooks = true;
        atexit(page_remove);
        pthread_atfork(NULL, NULL, page_forget_in_child);
    }
    extern char *program_invocation_short_name;
    unsigned ndev = 64;
    size_t len = sizeof(struct oacl_smi_proc) + ndev * sizeof(struct oacl_smi_device);
    oacl_smi_page_path((int)getpid(), g_path, sizeof(g_path));
    int fd = open(g_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 && errno == EEXIST) {
        /* Left by a killed process whose pid this one now has. */
        unlink(g_path);
        fd = open(g_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    }
    if (fd < 0)
        return NULL;
    if (ftruncate(fd, (off_t)len) != 0) {
        close(fd);
        unlink(g_path);
        return NULL;
    }
    struct oacl_smi_proc *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        unlink(g_path);
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
    g_page_pid = (int)getpid();
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
