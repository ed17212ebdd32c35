/*
 * Loading kernel binaries on the CPU device. A kernel binary is a host
 * shared object made by oacl-cc that exports a descriptor table
 * (include/oacl/kernel_abi.h). Before handing a file to the dynamic loader
 * it is checked by hand: the loader maps segments straight from the file, so
 * a truncated file would fault on first touch instead of failing cleanly.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Checks that path is a complete shared object for this host. */
static int check_elf(const char *path, char *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "cannot open kernel binary '%s': %s", path, strerror(errno));
    struct stat st;
    int rc = ACL_ERROR_RT_PARAM_INVALID;
    Elf64_Ehdr eh;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fmt_err(err, rc, "kernel binary '%s' is not a regular file", path);
        goto out;
    }
    if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
        fmt_err(err, rc, "'%s' is not a kernel binary (not an ELF file)", path);
        goto out;
    }
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != HOST_EM) {
        fmt_err(err, rc, "kernel binary '%s' was built for another device (%s code; this device runs %s kernels)",
                path, eh.e_ident[EI_CLASS] != ELFCLASS64 ? "32-bit" : machine_name(eh.e_machine), HOST_MACHINE);
        goto out;
    }
    if (eh.e_type != ET_DYN) {
        fmt_err(err, rc,
                "'%s' is not a kernel binary (an ELF %s, not a loadable module; build it with "
                "ascendc_fatbin_library or oacl-cc)",
                path, eh.e_type == ET_REL ? "relocatable object" : eh.e_type == ET_EXEC ? "executable" : "file");
        goto out;
    }
    uint64_t size = (uint64_t)st.st_size;
    uint64_t ph_end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
    uint64_t sh_end = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
    if (eh.e_phentsize != sizeof(Elf64_Phdr) || ph_end > size || sh_end > size) {
        fmt_err(err, rc, "kernel binary '%s' is truncated or corrupt (%llu bytes; its headers need %llu)", path,
                (unsigned long long)size, (unsigned long long)(ph_end > sh_end ? ph_end : sh_end));
        goto out;
    }
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) != (ssize_t)sizeof(ph)) {
            fmt_err(err, rc, "kernel binary '%s' is truncated (program header %u unreadable)", path, i);
            goto out;
        }
        if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > size) {
            fmt_err(err, rc, "kernel binary '%s' is truncated (%llu bytes; segment %u ends at %llu)", path,
                    (unsigned long long)size, i, (unsigned long long)(ph.p_offset + ph.p_filesz));
            goto out;
        }
    }
    rc = ACL_SUCCESS;
out:
    close(fd);
    return rc;
}

static int check_desc(const struct oacl_kernel_binary_desc *d, const char *path, const struct oacl_bdev *dev,
                      char *err)
{
    const int rc = ACL_ERROR_RT_PARAM_INVALID;
    if (d->magic != OACL_KBIN_MAGIC)
        return fmt_err(err, rc, "'%s' is not a kernel binary (bad descriptor magic)", path);
    if (d->abi_version != OACL_KBIN_ABI_VERSION)
        return fmt_err(err, rc, "kernel binary '%s' uses kernel ABI %u; this runtime supports %u: rebuild it", path,
                       d->abi_version, OACL_KBIN_ABI_VERSION);
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
    for (uint32_t i = 0; i < d->num_kernels; i++) {
        const struct oacl_kernel_desc *k = &d->kernels[i];
        if (!k->name || !k->entry || k->num_params > OACL_KERNEL_MAX_PARAMS || (k->num_params && !k->param_sizes))
            return fmt_err(err, rc, "kernel binary '%s' has a malformed entry for kernel %u", path, i);
    }
    return ACL_SUCCESS;
}

int oacl_cpu_module_load(struct oacl_bdev *dev, const char *path, struct oacl_module **out,
                         const struct oacl_kernel_info **kernels, uint32_t *num_kernels, char *err)
{
    int rc = check_elf(path, err);
    if (rc)
        return rc;
    /* dlopen searches library paths for names without a slash; a kernel
       path is always a file path. */
    char *dl_path = NULL;
    if (!strchr(path, '/')) {
        dl_path = malloc(strlen(path) + 3);
        if (!dl_path)
            return fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
        sprintf(dl_path, "./%s", path);
    }
    void *dl = dlopen(dl_path ? dl_path : path, RTLD_NOW | RTLD_LOCAL);
    free(dl_path);
    if (!dl)
        return fmt_err(err, ACL_ERROR_RT_PARAM_INVALID, "cannot load kernel binary '%s': %s", path, dlerror());
    const struct oacl_kernel_binary_desc *d = dlsym(dl, OACL_KBIN_SYMBOL);
    if (!d) {
        dlclose(dl);
        return fmt_err(err, ACL_ERROR_RT_PARAM_INVALID,
                       "'%s' is not a kernel binary (a shared object without the %s descriptor)", path,
                       OACL_KBIN_SYMBOL);
    }
    rc = check_desc(d, path, dev, err);
    if (rc) {
        dlclose(dl);
        return rc;
    }
    struct oacl_module *m = calloc(1, sizeof(*m));
    struct oacl_kernel_info *infos = calloc(d->num_kernels, sizeof(*infos));
    char *p = strdup(path);
    if (!m || !infos || !p) {
        free(m);
        free(infos);
        free(p);
        dlclose(dl);
        return fmt_err(err, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory");
    }
    for (uint32_t i = 0; i < d->num_kernels; i++) {
        infos[i].name = d->kernels[i].name;
        infos[i].num_params = d->kernels[i].num_params;
        infos[i].param_sizes = d->kernels[i].param_sizes;
        infos[i].backend_kernel = &d->kernels[i];
    }
    m->refs = 1;
    m->dl = dl;
    m->path = p;
    m->desc = d;
    m->infos = infos;
    m->num_kernels = d->num_kernels;
    *out = m;
    *kernels = infos;
    *num_kernels = d->num_kernels;
    OACL_DEBUG("loaded kernel binary %s (%u kernels)", path, d->num_kernels);
    return ACL_SUCCESS;
}

void oacl_cpu_module_ref(struct oacl_module *m) { __atomic_add_fetch(&m->refs, 1, __ATOMIC_RELAXED); }

void oacl_cpu_module_put(struct oacl_module *m)
{
    if (!m || __atomic_sub_fetch(&m->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    dlclose(m->dl);
    free(m->infos);
    free(m->path);
    free(m);
}
