/*
 * Loading kernel binaries on the CPU device. A kernel binary is a host
 * shared object made by oacl-cc that exports a descriptor table
 * (include/oacl/kernel_abi.h). Before handing a file to the dynamic loader
 * it is checked by hand: the loader maps segments straight from the file, so
 * a truncated file would fault on first touch instead of failing cleanly.
 *
 * Every load is a separate instance with its own globals (a device has its
 * own copy of a binary's variables; two loads never share them). The
 * instance's segments and exported data objects are read from the file
 * image for aclrtBinaryGetDevAddress / aclrtBinaryGetGlobal and for the
 * address registry, which treats them as device memory.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "common/log.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/soc_profile.h"

#if defined(__x86_64__)
#define HOST_EM EM_X86_64
#define HOST_MACHINE "x86_64"
#elif defined(__aarch64__)
#define HOST_EM EM_AARCH64
#define HOST_MACHINE "aarch64"
#else
#error "unsupported host architecture"
#endif

static const char *machine_name(unsigned em)
{
    switch (em) {
    case EM_X86_64: return "x86_64";
    case EM_AARCH64: return "aarch64";
    case EM_386: return "i386";
    case EM_ARM: return "arm";
    case EM_RISCV: return "riscv";
    default: return "another machine";
    }
}

static int fmt_err(char *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fmt_err(char *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, OACL_BACKEND_ERRLEN, fmt, ap);
    va_end(ap);
    return code;
}

/* The file's bytes, read once: checks, the layout and a private copy all
 * use the same image. */
struct image {
    unsigned char *data;
    size_t len;
};

static int read_image(const char *path, struct image *img, char *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "cannot open kernel binary '%s': %s", path, strerror(errno));
    struct stat st;
    int rc = ACL_ERROR_RT_PARAM_INVALID;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fmt_err(err, rc, "kernel binary '%s' is not a regular file", path);
        goto out;
    }
    img->len = (size_t)st.st_size;
    img->data = malloc(img->len ? img->len : 1);
    if (!img->data) {
        rc = fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory reading kernel binary '%s'", path);
        goto out;
    }
    size_t got = 0;
    while (got < img->len) {
        ssize_t r = pread(fd, img->data + got, img->len - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    img->len = got; /* a file that shrank meanwhile is checked as it is now */
    rc = ACL_SUCCESS;
out:
    if (rc) {
        free(img->data);
        img->data = NULL;
    }
    close(fd);
    return rc;
}

/* A struct of type T at offset off of the image, copied (the image has no
 * alignment guarantees). False if it does not lie inside. */
static bool image_get(const struct image *img, uint64_t off, void *out, size_t size)
{
    if (off > img->len || size > img->len - off)
        return false;
    memcpy(out, img->data + off, size);
    return true;
}

/* Checks that the image is a complete shared object for this host. */
static int check_elf(const char *path, const struct image *img, char *err)
{
    const int rc = ACL_ERROR_RT_PARAM_INVALID;
    Elf64_Ehdr eh;
    if (!image_get(img, 0, &eh, sizeof(eh)) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
        return fmt_err(err, rc, "'%s' is not a kernel binary (not an ELF file)", path);
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != HOST_EM)
        return fmt_err(err, rc, "kernel binary '%s' was built for another device (%s code; this device runs %s kernels)",
                       path, eh.e_ident[EI_CLASS] != ELFCLASS64 ? "32-bit" : machine_name(eh.e_machine), HOST_MACHINE);
    if (eh.e_type != ET_DYN)
        return fmt_err(err, rc,
                       "'%s' is not a kernel binary (an ELF %s, not a loadable module; build it with "
                       "ascendc_fatbin_library or oacl-cc)",
                       path, eh.e_type == ET_REL ? "relocatable object" : eh.e_type == ET_EXEC ? "executable" : "file");
    uint64_t size = img->len;
    uint64_t ph_end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
    uint64_t sh_end = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
    if (eh.e_phentsize != sizeof(Elf64_Phdr) || ph_end > size || sh_end > size)
        return fmt_err(err, rc, "kernel binary '%s' is truncated or corrupt (%llu bytes; its headers need %llu)", path,
                       (unsigned long long)size, (unsigned long long)(ph_end > sh_end ? ph_end : sh_end));
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (!image_get(img, eh.e_phoff + (uint64_t)i * sizeof(ph), &ph, sizeof(ph)))
            return fmt_err(err, rc, "kernel binary '%s' is truncated (program header %u unreadable)", path, i);
        if (ph.p_type == PT_LOAD && (ph.p_offset > size || ph.p_filesz > size - ph.p_offset))
            return fmt_err(err, rc, "kernel binary '%s' is truncated (%llu bytes; segment %u ends at %llu)", path,
                           (unsigned long long)size, i, (unsigned long long)(ph.p_offset + ph.p_filesz));
    }
    return ACL_SUCCESS;
}

/* What the dynamic loader will write (elf_check.c), for an image about to
 * be loaded (not for objects the program already has loaded). */
static int check_loadable(const char *path, const struct image *img, char *err)
{
    char why[256];
    if (oacl_cpu_elf_check_dynamic(img->data, img->len, why, sizeof(why)) != 0)
        return fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "kernel binary '%s' is corrupt: %s", path, why);
    return ACL_SUCCESS;
}

/* ---- layout: segments and exported data objects -------------------------------- */

/* The exported symbols of the image's .dynsym: defined data objects with
 * default or protected visibility go to m->objects (addresses added at
 * load); *has_desc tells whether the descriptor symbol is among them. A
 * stripped or odd symbol table just yields no objects. */
static int read_objects(const struct image *img, struct oacl_module *m, bool *has_desc)
{
    *has_desc = false;
    Elf64_Ehdr eh;
    image_get(img, 0, &eh, sizeof(eh));
    if (eh.e_shentsize != sizeof(Elf64_Shdr))
        return ACL_SUCCESS;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh, strh;
        if (!image_get(img, eh.e_shoff + (uint64_t)i * sizeof(sh), &sh, sizeof(sh)) || sh.sh_type != SHT_DYNSYM)
            continue;
        if (sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_link >= eh.e_shnum ||
            !image_get(img, eh.e_shoff + (uint64_t)sh.sh_link * sizeof(strh), &strh, sizeof(strh)) ||
            sh.sh_offset > img->len || sh.sh_size > img->len - sh.sh_offset || strh.sh_offset > img->len ||
            strh.sh_size > img->len - strh.sh_offset || strh.sh_size == 0)
            return ACL_SUCCESS;
        size_t nsyms = sh.sh_size / sizeof(Elf64_Sym);
        m->strtab = malloc(strh.sh_size + 1);
        m->objects = calloc(nsyms ? nsyms : 1, sizeof(*m->objects));
        m->funcs = calloc(nsyms ? nsyms : 1, sizeof(*m->funcs));
        if (!m->strtab || !m->objects || !m->funcs)
            return ACL_ERROR_RT_MEMORY_ALLOCATION;
        memcpy(m->strtab, img->data + strh.sh_offset, strh.sh_size);
        m->strtab[strh.sh_size] = '\0';
        for (size_t k = 0; k < nsyms; k++) {
            Elf64_Sym sym;
            image_get(img, sh.sh_offset + k * sizeof(sym), &sym, sizeof(sym));
            unsigned bind = ELF64_ST_BIND(sym.st_info), vis = ELF64_ST_VISIBILITY(sym.st_other);
            if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF && sym.st_value != 0) {
                struct oacl_module_object *f = &m->funcs[m->num_funcs++]; /* for kernel_code */
                f->addr = (uintptr_t)sym.st_value;
                f->size = (size_t)sym.st_size;
                continue;
            }
            if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS ||
                sym.st_name == 0 || sym.st_name >= strh.sh_size ||
                !(bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE) ||
                !(vis == STV_DEFAULT || vis == STV_PROTECTED))
                continue;
            struct oacl_module_object *o = &m->objects[m->num_objects++];
            o->name = m->strtab + sym.st_name;
            o->addr = (uintptr_t)sym.st_value; /* relative until loaded */
            o->size = (size_t)sym.st_size;
            if (strcmp(o->name, OACL_KBIN_SYMBOL) == 0)
                *has_desc = true;
        }
        return ACL_SUCCESS;
    }
    return ACL_SUCCESS;
}

/* The loaded image's ranges: every PT_LOAD segment (bytes it covers in
 * memory), writable ones split where PT_GNU_RELRO made a part read-only
 * after relocation (the loader protects whole pages inside it). */
static int compute_ranges(const struct image *img, struct oacl_module *m, uintptr_t bias)
{
    Elf64_Ehdr eh;
    image_get(img, 0, &eh, sizeof(eh));
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t relro_lo = 0, relro_hi = 0, lo = UINTPTR_MAX, hi = 0;
    unsigned loads = 0;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        image_get(img, eh.e_phoff + (uint64_t)i * sizeof(ph), &ph, sizeof(ph));
        if (ph.p_type == PT_GNU_RELRO) {
            relro_lo = (bias + (uintptr_t)ph.p_vaddr) & ~(page - 1);
            relro_hi = (bias + (uintptr_t)(ph.p_vaddr + ph.p_memsz)) & ~(page - 1);
        } else if (ph.p_type == PT_LOAD && ph.p_memsz) {
            loads++;
        }
    }
    m->ranges = calloc(loads * 3 + 1, sizeof(*m->ranges));
    if (!m->ranges)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        image_get(img, eh.e_phoff + (uint64_t)i * sizeof(ph), &ph, sizeof(ph));
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        uintptr_t b = bias + (uintptr_t)ph.p_vaddr, e = b + (uintptr_t)ph.p_memsz;
        lo = b < lo ? b : lo;
        hi = e > hi ? e : hi;
        bool w = (ph.p_flags & PF_W) != 0;
        /* [b, e) minus [relro_lo, relro_hi) writable, the overlap read-only */
        uintptr_t cut[4] = {b, b, e, e};
        bool relro = w && relro_hi > relro_lo && relro_lo < e && relro_hi > b;
        if (relro) {
            cut[1] = relro_lo > b ? relro_lo : b;
            cut[2] = relro_hi < e ? relro_hi : e;
        }
        for (int k = 0; k < 3; k++) {
            if (cut[k + 1] <= cut[k])
                continue;
            struct oacl_module_range *r = &m->ranges[m->num_ranges++];
            r->base = (void *)cut[k];
            r->size = cut[k + 1] - cut[k];
            r->writable = w && !(relro && k == 1);
        }
    }
    m->base = loads ? lo & ~(page - 1) : bias;
    m->extent = loads ? ((hi + page - 1) & ~(page - 1)) - m->base : 0;
    return ACL_SUCCESS;
}

/* ---- loading an instance ----------------------------------------------------------- */

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

/* In the test load (load_probe.c): reads everything of the descriptor that
 * check_desc and the kernel table will read, so that a descriptor with
 * damaged pointers fails there rather than here. */
static bool desc_aligned(const struct oacl_kernel_binary_desc *d)
{
    return (uintptr_t)d % _Alignof(struct oacl_kernel_binary_desc) == 0;
}

static bool kernels_aligned(const struct oacl_kernel_binary_desc *d)
{
    if ((uintptr_t)d->kernels % _Alignof(struct oacl_kernel_desc))
        return false;
    for (uint32_t i = 0; d->kernels && i < d->num_kernels; i++)
        if ((uintptr_t)d->kernels[i].param_sizes % _Alignof(uint32_t))
            return false;
    return true;
}

static void touch_desc(void *dl)
{
    const struct oacl_kernel_binary_desc *d = dlsym(dl, OACL_KBIN_SYMBOL);
    if (!d || !desc_aligned(d) || d->magic != OACL_KBIN_MAGIC || d->abi_version != OACL_KBIN_ABI_VERSION ||
        !kernels_aligned(d))
        return;
    volatile size_t sink = 0;
    if (d->machine)
        sink += strlen(d->machine);
    if (d->soc_name)
        sink += strlen(d->soc_name);
    for (uint32_t i = 0; d->kernels && i < d->num_kernels; i++) {
        const struct oacl_kernel_desc *k = &d->kernels[i];
        if (k->name)
            sink += strlen(k->name);
        for (uint32_t j = 0; k->param_sizes && j < k->num_params && j < OACL_KERNEL_MAX_PARAMS; j++)
            sink += k->param_sizes[j];
    }
    (void)sink;
}

/* Serialises "is this file loaded already?" with the load that follows. */
/* Every dlopen and dlclose of kernel binaries happens under this lock, so
 * no test load (a fork, load_probe.c) copies the loader mid-change, and
 * finding whether a file is loaded and loading it are one step. */
static pthread_mutex_t g_load_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether the loader holds an object named `name`, or (when `id` is set)
 * one made from the same file. Asked by walking the loaded objects, never
 * by a no-load dlopen: its dlclose races with other threads' loads of the
 * same object (seen under ThreadSanitizer: the object a concurrent load
 * had just opened was unloaded by the probing dlclose). */
struct loaded_query {
    const char *name;
    const struct stat *id;
    bool found;
};

static int match_loaded(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct loaded_query *q = arg;
    const char *n = info->dlpi_name;
    if (!n || !*n)
        return 0;
    struct stat st;
    if ((q->name && strcmp(n, q->name) == 0) ||
        (q->id && stat(n, &st) == 0 && st.st_dev == q->id->st_dev && st.st_ino == q->id->st_ino)) {
        q->found = true;
        return 1;
    }
    return 0;
}

static bool object_loaded(const char *name, const struct stat *id)
{
    struct loaded_query q = {.name = name, .id = id, .found = false};
    dl_iterate_phdr(match_loaded, &q);
    return q.found;
}

static bool write_all(int fd, const struct image *img)
{
    size_t done = 0;
    while (done < img->len) {
        ssize_t w = write(fd, img->data + done, img->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        done += (size_t)w;
    }
    return true;
}

static void *fail_null(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void *fail_null(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, OACL_BACKEND_ERRLEN, fmt, ap);
    va_end(ap);
    return NULL;
}

/* Images a test load condemned, by content: loading the same bytes again
 * (another instance, the older aclrtCreateBinary path, a retry) is refused
 * at once with the same reason, not test-loaded again. */
#define CONDEMNED_LEN 400
#define CONDEMNED_MAX 16u
struct condemned_image {
    uint64_t hash;
    size_t len;
    char why[CONDEMNED_LEN];
};
static struct condemned_image g_condemned[CONDEMNED_MAX];
static unsigned g_condemned_count, g_condemned_next;
static pthread_mutex_t g_condemned_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t image_hash(const struct image *img)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < img->len; i++)
        h = (h ^ img->data[i]) * 0x100000001b3ull;
    return h;
}

static bool condemned_before(uint64_t hash, size_t len, char *why, size_t cap)
{
    bool found = false;
    pthread_mutex_lock(&g_condemned_lock);
    for (unsigned i = 0; i < g_condemned_count && !found; i++) {
        if (g_condemned[i].hash == hash && g_condemned[i].len == len) {
            snprintf(why, cap, "%s", g_condemned[i].why);
            found = true;
        }
    }
    pthread_mutex_unlock(&g_condemned_lock);
    return found;
}

static void condemn(uint64_t hash, size_t len, const char *why)
{
    pthread_mutex_lock(&g_condemned_lock);
    struct condemned_image *c = &g_condemned[g_condemned_next];
    g_condemned_next = (g_condemned_next + 1) % CONDEMNED_MAX;
    if (g_condemned_count < CONDEMNED_MAX)
        g_condemned_count++;
    c->hash = hash;
    c->len = len;
    snprintf(c->why, sizeof(c->why), "%s", why);
    pthread_mutex_unlock(&g_condemned_lock);
}

/* Loads the image from a private copy: a memfd (executable), else a
 * temporary file. The copy stays open/present until the instance goes. */
static void *open_copy(const char *path, const struct image *img, struct oacl_module *m, char *err,
                       char *condemned)
{
    char why[400] = "";
    int fd = -1;
    /* The loader also matches objects by name: a copy whose instance could
       not be unloaded (RTLD_NODELETE, DF_1_NODELETE) keeps its name
       "/proc/self/fd/N" for good, so a descriptor number with such a
       leftover is kept open (never reused) and another one is taken. */
    for (int attempt = 0; attempt < 16; attempt++) {
        fd = memfd_create("oacl-kernel", MFD_CLOEXEC | MFD_EXEC);
        if (fd < 0 && errno == EINVAL)
            fd = memfd_create("oacl-kernel", MFD_CLOEXEC); /* kernels before 6.3 */
        if (fd < 0)
            break;
        char p[64];
        snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
        if (!object_loaded(p, NULL))
            break;
        OACL_DEBUG("descriptor %d names a kernel binary that stays loaded; not reused", fd);
        fd = -1;
    }
    if (fd >= 0) {
        if (write_all(fd, img)) {
            char p[64];
            snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
            bool bad = false;
            void *dl = oacl_cpu_safe_dlopen(p, !m->cpu_library, touch_desc, why, sizeof(why), &bad);
            if (dl) {
                m->copy_fd = fd;
                return dl;
            }
            if (bad) { /* the image itself: a file copy would crash the same way */
                close(fd);
                snprintf(condemned, CONDEMNED_LEN, "%s", why);
                if (m->from_memory)
                    return fail_null(err, "cannot load the %s: %s", path, why);
                return fail_null(err,
                                 "cannot load another instance of kernel binary '%s' (it is loaded already; a "
                                 "private copy is needed for separate globals): %s",
                                 path, why);
            }
        } else {
            snprintf(why, sizeof(why), "writing a memfd: %s", strerror(errno));
        }
        close(fd);
    } else {
        snprintf(why, sizeof(why), "memfd_create: %s", errno ? strerror(errno) : "no usable descriptor");
    }
    const char *dir = getenv("TMPDIR");
    char *tmpl = NULL;
    if (asprintf(&tmpl, "%s/oacl-kernel-XXXXXX", dir && *dir ? dir : "/tmp") < 0) {
        fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
        return NULL;
    }
    fd = mkostemp(tmpl, O_CLOEXEC);
    if (fd >= 0) {
        bool ok = write_all(fd, img);
        int werr = errno;
        close(fd);
        char why2[320] = "";
        bool bad = false;
        void *dl = ok ? oacl_cpu_safe_dlopen(tmpl, !m->cpu_library, touch_desc, why2, sizeof(why2), &bad) : NULL;
        if (dl) {
            m->copy_path = tmpl;
            return dl;
        }
        if (bad)
            snprintf(condemned, CONDEMNED_LEN, "%s", why2);
        size_t used = strlen(why);
        snprintf(why + used, sizeof(why) - used, "; from %s: %s", tmpl, ok ? why2 : strerror(werr));
        unlink(tmpl);
    }
    free(tmpl);
    if (m->from_memory)
        fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "cannot load the %s: %s", path, why);
    else
        fmt_err(err, ACL_ERROR_RT_PARAM_INVALID,
                "cannot load another instance of kernel binary '%s' (it is loaded already; a private copy is needed "
                "for separate globals): %s",
                path, why);
    return NULL;
}

/* A new instance of the binary: the file itself when nothing has it
 * loaded, else a private copy (dlopen of a loaded file returns that
 * instance, whose globals are not this load's). */
static void *open_instance(const char *path, const struct image *img, struct oacl_module *m, char *err,
                           char *condemned)
{
    /* dlopen searches library paths for names without a slash; a kernel
       path is always a file path. */
    char *dl_path = NULL;
    if (!strchr(path, '/') && asprintf(&dl_path, "./%s", path) < 0) {
        fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
        return NULL;
    }
    const char *p = dl_path ? dl_path : path;
    pthread_mutex_lock(&g_load_lock);
    struct stat id;
    void *dl = NULL;
    if (object_loaded(p, stat(p, &id) == 0 ? &id : NULL)) {
        dl = open_copy(path, img, m, err, condemned);
    } else {
        char why[320] = "";
        bool bad = false;
        dl = oacl_cpu_safe_dlopen(p, !m->cpu_library, touch_desc, why, sizeof(why), &bad);
        if (!dl)
            fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "cannot load kernel binary '%s': %s", path, why);
        if (bad)
            snprintf(condemned, CONDEMNED_LEN, "%s", why);
    }
    pthread_mutex_unlock(&g_load_lock);
    free(dl_path);
    return dl;
}

static void module_free(struct oacl_module *m)
{
    if (m->dl && !m->linked) {
        /* Under the load lock: a test load forks, and a child made while
           this process is inside the loader inherits it half-changed. */
        pthread_mutex_lock(&g_load_lock);
        dlclose(m->dl);
        pthread_mutex_unlock(&g_load_lock);
    }
    if (m->copy_fd >= 0)
        close(m->copy_fd); /* after dlclose: the name stays unique while loaded */
    if (m->copy_path) {
        unlink(m->copy_path);
        free(m->copy_path);
    }
    free(m->infos);
    free(m->path);
    free(m->ranges);
    free(m->objects);
    free(m->funcs);
    free(m->strtab);
    oacl_cpu_kernels_free(m->cpu_kernels);
    pthread_mutex_destroy(&m->cpu_lock);
    free(m);
}

/* [p, p+n) lies in one of the module's segments. */
static bool in_module(const struct oacl_module *m, const void *p, size_t n)
{
    const uintptr_t a = (uintptr_t)p;
    for (uint32_t i = 0; i < m->num_ranges; i++) {
        const uintptr_t b = (uintptr_t)m->ranges[i].base;
        if (a >= b && n <= m->ranges[i].size && a - b <= m->ranges[i].size - n)
            return true;
    }
    return false;
}

/* A NUL-terminated string inside one of the module's segments. */
static bool str_in_module(const struct oacl_module *m, const char *s)
{
    const uintptr_t a = (uintptr_t)s;
    for (uint32_t i = 0; s && i < m->num_ranges; i++) {
        const uintptr_t b = (uintptr_t)m->ranges[i].base;
        if (a >= b && a - b < m->ranges[i].size)
            return memchr(s, 0, m->ranges[i].size - (a - b)) != NULL;
    }
    return false;
}

static int check_desc(const struct oacl_kernel_binary_desc *d, const struct oacl_module *m, const char *path,
                      const struct oacl_bdev *dev, char *err)
{
    const int rc = ACL_ERROR_RT_PARAM_INVALID;
    if (!desc_aligned(d))
        return fmt_err(err, rc, "kernel binary '%s' is corrupt (its descriptor is misaligned)", path);
    if (!in_module(m, d, sizeof(*d)))
        return fmt_err(err, rc, "kernel binary '%s' is corrupt (its descriptor lies outside it)", path);
    if (d->magic != OACL_KBIN_MAGIC)
        return fmt_err(err, rc, "'%s' is not a kernel binary (bad descriptor magic)", path);
    if (d->abi_version != OACL_KBIN_ABI_VERSION)
        return fmt_err(err, rc, "kernel binary '%s' uses kernel ABI %u; this runtime supports %u: rebuild it", path,
                       d->abi_version, OACL_KBIN_ABI_VERSION);
    if ((d->machine && !str_in_module(m, d->machine)) || (d->soc_name && !str_in_module(m, d->soc_name)))
        return fmt_err(err, rc, "kernel binary '%s' is corrupt (its descriptor's names lie outside it)", path);
    if (!d->machine || strcmp(d->machine, HOST_MACHINE) != 0)
        return fmt_err(err, rc, "kernel binary '%s' was built for another device (machine %s, this device runs %s)",
                       path, d->machine ? d->machine : "?", HOST_MACHINE);
    if (d->npu_arch != dev->npu_arch)
        return fmt_err(err, rc,
                       "kernel binary '%s' was built for another device (SoC %s, __NPU_ARCH__ %u); device %u is %s "
                       "(__NPU_ARCH__ %u)",
                       path, d->soc_name ? d->soc_name : "?", d->npu_arch, dev->index, dev->soc->name,
                       dev->npu_arch);
    if (d->num_kernels == 0 || !d->kernels)
        return fmt_err(err, rc, "kernel binary '%s' contains no kernels", path);
    if ((uint64_t)d->num_kernels * sizeof(*d->kernels) > SIZE_MAX / 2 ||
        !in_module(m, d->kernels, (size_t)d->num_kernels * sizeof(*d->kernels)))
        return fmt_err(err, rc, "kernel binary '%s' is corrupt (its kernel table lies outside it)", path);
    if (!kernels_aligned(d))
        return fmt_err(err, rc, "kernel binary '%s' is corrupt (its kernel table is misaligned)", path);
    for (uint32_t i = 0; i < d->num_kernels; i++) {
        const struct oacl_kernel_desc *k = &d->kernels[i];
        if (!k->name || !k->entry || k->num_params > OACL_KERNEL_MAX_PARAMS || (k->num_params && !k->param_sizes) ||
            !str_in_module(m, k->name) ||
            (k->num_params && !in_module(m, k->param_sizes, k->num_params * sizeof(*k->param_sizes))))
            return fmt_err(err, rc, "kernel binary '%s' has a malformed entry for kernel %u", path, i);
    }
    return ACL_SUCCESS;
}

/* Loads an image (taken over) read from the file `path`, or from memory
 * when path is NULL (`name` stands for it in messages). */
static int load_image(struct oacl_bdev *dev, struct image *img, const char *path, const char *name, bool cpu_library,
                      struct oacl_module **out, const struct oacl_kernel_info **kernels, uint32_t *num_kernels,
                      char *err)
{
    struct oacl_module *m = calloc(1, sizeof(*m));
    if (!m) {
        free(img->data);
        return fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
    }
    m->copy_fd = -1;
    m->from_memory = path == NULL;
    m->cpu_library = cpu_library;
    pthread_mutex_init(&m->cpu_lock, NULL);
    bool has_desc = false;
    int rc = check_elf(name, img, err);
    if (rc == ACL_SUCCESS && !cpu_library)
        rc = check_loadable(name, img, err);
    if (rc == ACL_SUCCESS && read_objects(img, m, &has_desc) != ACL_SUCCESS)
        rc = fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
    /* Without the descriptor symbol nothing of the file runs: loading any
       shared object (perhaps one the process uses) is never attempted. A
       CPU-kernel library has no descriptor: it is loaded as it is. */
    if (rc == ACL_SUCCESS && !cpu_library && !has_desc && m->strtab)
        rc = fmt_err(err, ACL_ERROR_RT_PARAM_INVALID,
                     "'%s' is not a kernel binary (a shared object without the %s descriptor)", name,
                     OACL_KBIN_SYMBOL);
    const uint64_t hash = rc == ACL_SUCCESS && !cpu_library ? image_hash(img) : 0;
    char condemned[CONDEMNED_LEN] = "";
    if (rc == ACL_SUCCESS && !cpu_library && condemned_before(hash, img->len, condemned, sizeof(condemned))) {
        if (path)
            rc = fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "cannot load kernel binary '%s': %s", name, condemned);
        else
            rc = fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "cannot load the %s: %s", name, condemned);
    } else if (rc == ACL_SUCCESS) {
        /* A memory image always gets its own private copy. */
        if (path) {
            m->dl = open_instance(path, img, m, err, condemned);
        } else {
            pthread_mutex_lock(&g_load_lock);
            m->dl = open_copy(name, img, m, err, condemned);
            pthread_mutex_unlock(&g_load_lock);
        }
        if (!m->dl)
            rc = ACL_ERROR_RT_PARAM_INVALID;
        if (!m->dl && condemned[0])
            condemn(hash, img->len, condemned);
    }
    /* The segments first: the descriptor's pointers must point into them. */
    struct link_map *lm = NULL;
    if (rc == ACL_SUCCESS && (dlinfo(m->dl, RTLD_DI_LINKMAP, &lm) != 0 || !lm))
        rc = fmt_err(err, ACL_ERROR_RT_INTERNAL_ERROR, "cannot find where kernel binary '%s' was loaded", name);
    if (rc == ACL_SUCCESS && compute_ranges(img, m, (uintptr_t)lm->l_addr) != ACL_SUCCESS)
        rc = fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
    const struct oacl_kernel_binary_desc *d = NULL;
    if (rc == ACL_SUCCESS && !cpu_library) {
        d = dlsym(m->dl, OACL_KBIN_SYMBOL);
        if (!d)
            rc = fmt_err(err, ACL_ERROR_RT_PARAM_INVALID,
                         "'%s' is not a kernel binary (a shared object without the %s descriptor)", name,
                         OACL_KBIN_SYMBOL);
        else
            rc = check_desc(d, m, name, dev, err);
    }
    free(img->data);
    img->data = NULL;
    uint32_t nk = rc == ACL_SUCCESS && d ? d->num_kernels : 0; /* d is only trusted once checked */
    if (rc == ACL_SUCCESS) {
        m->infos = calloc(nk ? nk : 1, sizeof(*m->infos));
        m->path = strdup(name);
        if (!m->infos || !m->path)
            rc = fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
    }
    if (rc) {
        module_free(m);
        return rc;
    }
    for (uint32_t i = 0; i < m->num_objects; i++)
        m->objects[i].addr += (uintptr_t)lm->l_addr;
    for (uint32_t i = 0; i < m->num_funcs; i++)
        m->funcs[i].addr += (uintptr_t)lm->l_addr;
    for (uint32_t i = 0; i < nk; i++) {
        m->infos[i].name = d->kernels[i].name;
        m->infos[i].num_params = d->kernels[i].num_params;
        m->infos[i].param_sizes = d->kernels[i].param_sizes;
        m->infos[i].backend_kernel = &d->kernels[i];
    }
    m->refs = 1;
    m->desc = d;
    m->num_kernels = nk;
    *out = m;
    *kernels = m->infos;
    *num_kernels = nk;
    OACL_DEBUG("loaded %s %s (%u kernels%s)", cpu_library ? "CPU-kernel library" : "kernel binary", name, nk,
               m->copy_fd >= 0 || m->copy_path ? ", private copy" : "");
    return ACL_SUCCESS;
}

int oacl_cpu_module_load(struct oacl_bdev *dev, const char *path, struct oacl_module **out,
                         const struct oacl_kernel_info **kernels, uint32_t *num_kernels, char *err)
{
    struct image img = {0};
    int rc = read_image(path, &img, err);
    if (rc)
        return rc;
    return load_image(dev, &img, path, path, false, out, kernels, num_kernels, err);
}

int oacl_cpu_module_check_image(const void *data, size_t len, char *err)
{
    struct image img = {.data = (unsigned char *)(uintptr_t)data, .len = len};
    struct oacl_module *m = calloc(1, sizeof(*m));
    if (!m)
        return fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
    m->copy_fd = -1;
    pthread_mutex_init(&m->cpu_lock, NULL);
    bool has_desc = false;
    int rc = check_elf("image", &img, err);
    if (rc == ACL_SUCCESS)
        rc = check_loadable("image", &img, err);
    if (rc == ACL_SUCCESS && read_objects(&img, m, &has_desc) != ACL_SUCCESS)
        rc = fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
    if (rc == ACL_SUCCESS && !has_desc && m->strtab)
        rc = fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "no descriptor");
    module_free(m);
    return rc;
}

int oacl_cpu_module_load_data(struct oacl_bdev *dev, const void *data, size_t len, const char *name, bool cpu_library,
                              struct oacl_module **out, const struct oacl_kernel_info **kernels,
                              uint32_t *num_kernels, char *err)
{
    /* The caller's bytes are read now and never again. */
    struct image img = {.data = malloc(len ? len : 1), .len = len};
    if (!img.data)
        return fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory copying the %s (%zu bytes)", name, len);
    memcpy(img.data, data, len);
    return load_image(dev, &img, NULL, name, cpu_library, out, kernels, num_kernels, err);
}

void oacl_cpu_module_ref(struct oacl_module *m) { __atomic_add_fetch(&m->refs, 1, __ATOMIC_RELAXED); }

void oacl_cpu_module_put(struct oacl_module *m)
{
    if (!m || __atomic_sub_fetch(&m->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    module_free(m);
}

void oacl_cpu_module_extent(struct oacl_module *m, void **base, size_t *size)
{
    *base = (void *)m->base;
    *size = m->extent;
}

uint32_t oacl_cpu_module_ranges(struct oacl_module *m, struct oacl_module_range *out, uint32_t max)
{
    for (uint32_t i = 0; i < m->num_ranges && i < max; i++)
        out[i] = m->ranges[i];
    return m->num_ranges;
}

int oacl_cpu_module_global(struct oacl_module *m, const char *name, void **addr, size_t *size)
{
    for (uint32_t i = 0; i < m->num_objects; i++) {
        if (strcmp(m->objects[i].name, name) == 0) {
            *addr = (void *)m->objects[i].addr;
            *size = m->objects[i].size;
            return ACL_SUCCESS;
        }
    }
    return ACL_ERROR_RT_SYMBOL_NOT_FOUND;
}

/* ---- device-kernel chapter: linked code, CPU kernels, code addresses ---------------- */

struct find_object {
    uintptr_t addr;
    bool found;
    uintptr_t bias, lo, hi;
    char name[4096];
};

/* dl_iterate_phdr callback: the loaded object whose PT_LOAD segments hold addr. */
static int find_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct find_object *f = arg;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    bool inside = false;
    for (unsigned i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
            continue;
        uintptr_t b = info->dlpi_addr + ph->p_vaddr, e = b + ph->p_memsz;
        lo = b < lo ? b : lo;
        hi = e > hi ? e : hi;
        inside |= f->addr >= b && f->addr < e;
    }
    if (!inside)
        return 0;
    f->found = true;
    f->bias = info->dlpi_addr;
    f->lo = lo;
    f->hi = hi;
    snprintf(f->name, sizeof(f->name), "%s", info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe");
    return 1;
}

/* Defined functions of every symbol table of the image (.symtab too: a
 * linked kernel need not be exported), for code sizes by address. */
static void read_all_funcs(const struct image *img, struct oacl_module *m, uintptr_t bias)
{
    Elf64_Ehdr eh;
    if (!image_get(img, 0, &eh, sizeof(eh)) || eh.e_shentsize != sizeof(Elf64_Shdr))
        return;
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < eh.e_shnum; i++) {
            Elf64_Shdr sh;
            if (!image_get(img, eh.e_shoff + (uint64_t)i * sizeof(sh), &sh, sizeof(sh)) ||
                (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || sh.sh_entsize != sizeof(Elf64_Sym) ||
                sh.sh_offset > img->len || sh.sh_size > img->len - sh.sh_offset)
                continue;
            size_t n = sh.sh_size / sizeof(Elf64_Sym);
            for (size_t k = 0; k < n; k++) {
                Elf64_Sym sym;
                image_get(img, sh.sh_offset + k * sizeof(sym), &sym, sizeof(sym));
                if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
                    continue;
                if (pass == 0) {
                    total++;
                } else if (m->num_funcs < total) {
                    struct oacl_module_object *f = &m->funcs[m->num_funcs++];
                    f->addr = bias + (uintptr_t)sym.st_value;
                    f->size = (size_t)sym.st_size;
                }
            }
        }
        if (pass == 0) {
            free(m->funcs);
            m->num_funcs = 0;
            m->funcs = calloc(total ? total : 1, sizeof(*m->funcs));
            if (!m->funcs)
                return;
        }
    }
}

int oacl_cpu_module_linked(const void *addr, struct oacl_module **out, char *err)
{
    struct find_object f = {.addr = (uintptr_t)addr};
    dl_iterate_phdr(find_cb, &f);
    if (!f.found)
        return fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "address %p lies in no loaded object of the program", addr);
    struct oacl_module *m = calloc(1, sizeof(*m));
    if (!m)
        return fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
    m->copy_fd = -1;
    m->linked = true;
    pthread_mutex_init(&m->cpu_lock, NULL);
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    m->base = f.lo & ~(page - 1);
    m->extent = ((f.hi + page - 1) & ~(page - 1)) - m->base;
    m->path = strdup(f.name);
    /* Globals and code sizes from the object's file; a file that cannot be
       read (deleted meanwhile) just has none. */
    struct image img = {0};
    char ignored[OACL_BACKEND_ERRLEN];
    if (read_image(f.name, &img, ignored) == ACL_SUCCESS) {
        bool has_desc;
        if (check_elf(f.name, &img, ignored) == ACL_SUCCESS && read_objects(&img, m, &has_desc) == ACL_SUCCESS) {
            for (uint32_t i = 0; i < m->num_objects; i++)
                m->objects[i].addr += f.bias;
            read_all_funcs(&img, m, f.bias);
        }
        free(img.data);
    }
    m->refs = 1;
    *out = m;
    return ACL_SUCCESS;
}

/* Size of the function starting exactly at a, 0 if no symbol says. */
static size_t func_size(const struct oacl_module *m, uintptr_t a)
{
    for (uint32_t i = 0; m && i < m->num_funcs; i++)
        if (m->funcs[i].addr == a && m->funcs[i].size)
            return m->funcs[i].size;
    return 0;
}

void oacl_cpu_kernel_code(struct oacl_module *m, const struct oacl_kernel_info *k, const void *symbol, void **addr,
                          size_t *size)
{
    const struct oacl_kernel_desc *d = k->backend_kernel;
    uintptr_t a = (uintptr_t)symbol;
    if (!a && m && m->dl && !m->linked) {
        /* The kernel's own exported function, when the module has one. */
        void *p = dlsym(m->dl, k->name);
        if (p && (uintptr_t)p >= m->base && (uintptr_t)p < m->base + m->extent && func_size(m, (uintptr_t)p))
            a = (uintptr_t)p;
    }
    if (!a)
        a = (uintptr_t)d->entry;
    *addr = (void *)a;
    *size = func_size(m, a);
}

int oacl_cpu_module_cpu_kernel(struct oacl_module *m, const char *func_name, const char *kernel_name,
                               const struct oacl_kernel_info **out, char *err)
{
    void *p = m->dl ? dlsym(m->dl, func_name) : NULL;
    bool exported = false;
    for (uint32_t i = 0; p && i < m->num_funcs && !exported; i++)
        exported = m->funcs[i].addr == (uintptr_t)p;
    if (!exported)
        return fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "the CPU-kernel library exports no function named '%s'",
                       func_name);
    int rc = ACL_SUCCESS;
    pthread_mutex_lock(&m->cpu_lock);
    struct oacl_cpu_kernel *ck = m->cpu_kernels;
    while (ck && (strcmp(ck->func_name, func_name) != 0 || strcmp(ck->kernel_name, kernel_name) != 0))
        ck = ck->next;
    if (!ck) {
        ck = calloc(1, sizeof(*ck));
        if (ck) {
            ck->func_name = strdup(func_name);
            ck->kernel_name = strdup(kernel_name);
        }
        if (!ck || !ck->func_name || !ck->kernel_name) {
            if (ck) {
                free(ck->func_name);
                free(ck->kernel_name);
                free(ck);
                ck = NULL;
            }
            rc = fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
        } else {
            ck->fn = (uint32_t (*)(void *))p;
            ck->desc.name = ck->kernel_name;
            ck->desc.entry = oacl_cpu_kernel_entry;
            ck->info.name = ck->kernel_name;
            ck->info.backend_kernel = &ck->desc;
            ck->next = m->cpu_kernels;
            m->cpu_kernels = ck;
        }
    }
    if (ck)
        *out = &ck->info;
    pthread_mutex_unlock(&m->cpu_lock);
    return rc;
}
