/* Helpers shared by the fuzz targets (header-only: one per target). */
#ifndef OACL_FUZZ_COMMON_H
#define OACL_FUZZ_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"

/* A context on device 0 for the loaders (they load for the current device).
 * Every load's test load is forked from one server child made at the first
 * load (load_probe.c), not from this large process: the protection stays,
 * a load costs a fraction. OACL_LOAD_PROBE_SERVER=0 forks from here. */
static inline void fuzz_device_init(void)
{
    setenv("OACL_LOAD_PROBE_SERVER", "1", 0);
    /* A test load that computes this long is refused: a sound image's
       takes a few milliseconds, and mutations of an image whose
       constructor loops are common once the fuzzer has found one. */
    setenv("OACL_LOAD_PROBE_CPU_MS", "50", 0);
    if (aclrtSetDevice(0) != ACL_SUCCESS) {
        fprintf(stderr, "fuzz: aclrtSetDevice(0) failed: %s\n", aclGetRecentErrMsg());
        abort();
    }
}

/* A path in a directory of this process's own (under $TMPDIR, else /tmp). */
static inline void fuzz_private_file(char *path, size_t cap, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/oacl-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    snprintf(path, cap, "%s/%s", dir, name);
}

static inline void fuzz_write_file(const char *path, const void *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        perror("fuzz: open");
        abort();
    }
    const unsigned char *p = data;
    while (size) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            perror("fuzz: write");
            abort();
        }
        p += w;
        size -= (size_t)w;
    }
    close(fd);
}

/* Exercises a binary that loaded: its kernels and a global, then unloads it. */
static inline void fuzz_use_binary(aclrtBinHandle h)
{
    static const char *const names[] = {"seed_add", "seed_empty", "missing"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        aclrtFuncHandle f = NULL;
        if (aclrtBinaryGetFunction(h, names[i], &f) == ACL_SUCCESS) {
            size_t aic = 0, aiv = 0;
            (void)aclrtGetFunctionSize(f, &aic, &aiv);
        }
    }
    void *addr = NULL;
    size_t size = 0;
    (void)aclrtBinaryGetGlobal(h, "seed_global", &addr, &size);
    if (aclrtBinaryUnLoad(h) != ACL_SUCCESS) {
        fprintf(stderr, "fuzz: unloading a loaded binary failed: %s\n", aclGetRecentErrMsg());
        abort();
    }
}

#endif
