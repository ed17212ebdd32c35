/* Helpers for the oacl-cc tests: load a kernel binary, check its
 * descriptor, look up kernels, and build argument blobs with the
 * documented layout (parameter i at the next multiple of 8 after
 * parameter i-1 ends). Include after <cmocka.h>. */
#ifndef OACL_TEST_KBIN_CHECK_H
#define OACL_TEST_KBIN_CHECK_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <oacl/kernel_abi.h>

#if defined(__x86_64__)
#define OACL_TEST_MACHINE "x86_64"
#elif defined(__aarch64__)
#define OACL_TEST_MACHINE "aarch64"
#else
#define OACL_TEST_MACHINE "unknown"
#endif

struct kbin {
    void *handle;
    const struct oacl_kernel_binary_desc *desc;
};

/* dlopens path and checks the fields every binary must carry. */
static inline void kbin_open(struct kbin *k, const char *path)
{
    k->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!k->handle)
        fail_msg("dlopen(%s): %s", path, dlerror());
    k->desc = (const struct oacl_kernel_binary_desc *)dlsym(k->handle, OACL_KBIN_SYMBOL);
    assert_non_null(k->desc);
    assert_true(k->desc->magic == OACL_KBIN_MAGIC);
    assert_int_equal(k->desc->abi_version, OACL_KBIN_ABI_VERSION);
    assert_non_null(k->desc->machine);
    assert_string_equal(k->desc->machine, OACL_TEST_MACHINE);
    assert_non_null(k->desc->soc_name);
    assert_true(k->desc->num_kernels > 0);
    assert_non_null(k->desc->kernels);
}

static inline void kbin_close(struct kbin *k)
{
    assert_int_equal(dlclose(k->handle), 0);
    k->handle = NULL;
    k->desc = NULL;
}

/* The kernel named `name`; fails the test if there is none. */
static inline const struct oacl_kernel_desc *kbin_kernel(const struct kbin *k, const char *name)
{
    for (uint32_t i = 0; i < k->desc->num_kernels; i++)
        if (strcmp(k->desc->kernels[i].name, name) == 0) {
            assert_non_null(k->desc->kernels[i].entry);
            return &k->desc->kernels[i];
        }
    fail_msg("kernel '%s' not in the binary", name);
    return NULL;
}

/* Checks num_params and param_sizes of kernel `name`. */
static inline const struct oacl_kernel_desc *kbin_kernel_sizes(const struct kbin *k, const char *name,
                                                               uint32_t n, const uint32_t *sizes)
{
    const struct oacl_kernel_desc *d = kbin_kernel(k, name);
    assert_int_equal(d->num_params, n);
    if (n == 0) {
        assert_null(d->param_sizes);
        return d;
    }
    assert_non_null(d->param_sizes);
    for (uint32_t i = 0; i < n; i++)
        if (d->param_sizes[i] != sizes[i])
            fail_msg("kernel %s: parameter %u has size %u, expected %u", name, i, d->param_sizes[i], sizes[i]);
    return d;
}

/* Argument blob. Padding is filled with a pattern so that a parameter read
 * from a wrong offset shows up as a wrong value. */
struct blob {
    _Alignas(16) unsigned char b[1024];
    size_t len;
};

static inline void blob_init(struct blob *bl)
{
    memset(bl->b, 0xA5, sizeof(bl->b));
    bl->len = 0;
}

/* Appends a parameter; returns its offset. */
static inline size_t blob_put(struct blob *bl, const void *v, size_t n)
{
    size_t off = (bl->len + 7u) & ~(size_t)7u;
    assert_true(off + n <= sizeof(bl->b));
    memcpy(bl->b + off, v, n);
    bl->len = off + n;
    return off;
}

#define BLOB_PUT(bl, v) blob_put((bl), &(v), sizeof(v))

#endif /* OACL_TEST_KBIN_CHECK_H */
