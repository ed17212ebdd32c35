/*
 * Kernels linked into the program (device-kernel chapter 3.2, Decision
 * 14): the load-time registry that oacl-cc fills (a constructor per kernel
 * defined in a <<<>>> source calls oacl_register_kernel with the kernel's
 * host address and descriptor), aclrtGetFuncBySymbol, and the lookup of the
 * `void *func` arguments of the array and SIMT launches.
 *
 * The kernels of one ELF module (the executable or a shared library) form
 * an implicit binary handle: it cannot be unloaded, its function handles
 * work on every device, and the binary queries (aclrtBinaryGetDevAddress,
 * aclrtBinaryGetGlobal, aclrtBinaryGetFunction) describe that module. It
 * is made at the first lookup with the kernels registered by then; a
 * kernel registered later (a module loaded afterwards) gets a new one.
 * Unregistering (the module is unloaded) retires the kernel's function
 * handles, and the binary with its last kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "oacl/kernel_abi.h"
#include "runtime/runtime.h"

struct linked_kernel {
    const void *symbol;
    const struct oacl_kernel_desc *desc;
};

static struct {
    pthread_mutex_t lock;
    struct linked_kernel *k;
    size_t n, cap;
    struct oacl_binary **bins;  /* implicit binaries (one reference each) */
    size_t nbins, bins_cap;
} g_reg = {.lock = PTHREAD_MUTEX_INITIALIZER};

OACL_KAPI void oacl_register_kernel(const void *symbol, const struct oacl_kernel_desc *k)
{
    if (!symbol || !k || !k->name || !k->entry)
        return;
    pthread_mutex_lock(&g_reg.lock);
    bool known = false;
    for (size_t i = 0; i < g_reg.n && !known; i++)
        known = g_reg.k[i].symbol == symbol;
    if (!known && g_reg.n == g_reg.cap) {
        size_t cap = g_reg.cap ? g_reg.cap * 2 : 32;
        struct linked_kernel *nk = realloc(g_reg.k, cap * sizeof(*nk));
        if (nk) {
            g_reg.k = nk;
            g_reg.cap = cap;
        }
    }
    if (!known && g_reg.n < g_reg.cap)
        g_reg.k[g_reg.n++] = (struct linked_kernel){symbol, k};
    pthread_mutex_unlock(&g_reg.lock);
}

/* Index of symbol's function in implicit binary b, or -1. */
static int32_t kernel_index(const struct oacl_binary *b, const void *symbol)
{
    for (uint32_t i = 0; i < b->num_kernels; i++)
        if (b->funcs[i] && b->funcs[i]->symbol == symbol)
            return (int32_t)i;
    return -1;
}

OACL_KAPI void oacl_unregister_kernel(const void *symbol)
{
    struct oacl_binary *drop[16];
    size_t ndrop = 0;
    pthread_mutex_lock(&g_reg.lock);
    for (size_t i = 0; i < g_reg.n; i++) {
        if (g_reg.k[i].symbol == symbol) {
            g_reg.k[i] = g_reg.k[--g_reg.n];
            break;
        }
    }
    for (size_t b = 0; b < g_reg.nbins;) {
        struct oacl_binary *bin = g_reg.bins[b];
        int32_t i = kernel_index(bin, symbol);
        if (i >= 0) {
            oacl_obj_retire(&bin->funcs[i]->obj); /* the function object lives on while referenced */
            pthread_mutex_lock(&bin->lock);
            bin->funcs[i] = NULL;
            pthread_mutex_unlock(&bin->lock);
        }
        bool any = false;
        for (uint32_t k = 0; k < bin->num_kernels && !any; k++)
            any = bin->funcs[k] != NULL;
        if (!any && ndrop < sizeof(drop) / sizeof(drop[0])) {
            g_reg.bins[b] = g_reg.bins[--g_reg.nbins];
            drop[ndrop++] = bin;
        } else {
            b++;
        }
    }
    pthread_mutex_unlock(&g_reg.lock);
    for (size_t i = 0; i < ndrop; i++) {
        oacl_obj_retire(&drop[i]->obj);
        oacl_obj_put(&drop[i]->obj);
    }
}

static void implicit_destroy(struct oacl_obj *o)
{
    struct oacl_binary *b = (struct oacl_binary *)o;
    oacl_backend()->module_put(b->module);
    free((void *)b->kernels);
    free(b->funcs);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

static void linked_function_destroy(struct oacl_obj *o)
{
    struct oacl_function *f = (struct oacl_function *)o;
    oacl_obj_put(&f->bin->obj);
    free(f);
}

/* A new implicit binary for the module holding `symbol`, with every kernel
 * registered in that module (registry lock held). */
static aclError implicit_create(const void *symbol, struct oacl_binary **out, const char *fn)
{
    char err[OACL_BACKEND_ERRLEN] = "";
    struct oacl_module *m = NULL;
    int brc = oacl_backend()->module_linked(symbol, &m, err);
    if (brc)
        return oacl_fail(brc, fn, "%s", err);
    void *base = NULL;
    size_t extent = 0;
    oacl_backend()->module_extent(m, &base, &extent);
    uint32_t n = 0;
    for (size_t i = 0; i < g_reg.n; i++)
        n += (uintptr_t)g_reg.k[i].symbol - (uintptr_t)base < extent;
    struct oacl_binary *b = calloc(1, sizeof(*b));
    struct oacl_kernel_info *infos = calloc(n ? n : 1, sizeof(*infos));
    struct oacl_function **funcs = calloc(n ? n : 1, sizeof(*funcs));
    if (!b || !infos || !funcs) {
        free(b);
        free(infos);
        free(funcs);
        oacl_backend()->module_put(m);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
    }
    pthread_mutex_init(&b->lock, NULL);
    b->module = m;
    b->implicit = true;
    b->default_type = -1;
    b->kernels = infos;
    b->funcs = funcs;
    if (!oacl_handle_create(&b->obj, OACL_H_BINARY, implicit_destroy)) {
        implicit_destroy(&b->obj);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "handle table exhausted");
    }
    uint32_t k = 0;
    for (size_t i = 0; i < g_reg.n; i++) {
        const struct linked_kernel *lk = &g_reg.k[i];
        if ((uintptr_t)lk->symbol - (uintptr_t)base >= extent)
            continue;
        infos[k] = (struct oacl_kernel_info){lk->desc->name, lk->desc->num_params, lk->desc->param_sizes, lk->desc};
        struct oacl_function *f = calloc(1, sizeof(*f));
        if (f) {
            oacl_obj_ref(&b->obj);
            f->bin = b;
            f->info = &infos[k];
            f->symbol = lk->symbol;
            if (!oacl_handle_create(&f->obj, OACL_H_FUNC, linked_function_destroy)) {
                oacl_obj_put(&b->obj);
                free(f);
                f = NULL;
            }
        }
        funcs[k++] = f; /* NULL (out of memory): that kernel is not found */
    }
    b->num_kernels = k;
    *out = b;
    return ACL_SUCCESS;
}

/* The function handle object of a registered symbol (+1 reference), or
 * NULL with *rc 0 when the symbol is not registered. */
static struct oacl_function *function_of_symbol(const void *symbol, aclError *rc, const char *fn)
{
    *rc = ACL_SUCCESS;
    struct oacl_function *f = NULL;
    pthread_mutex_lock(&g_reg.lock);
    bool registered = false;
    for (size_t i = 0; i < g_reg.n && !registered; i++)
        registered = g_reg.k[i].symbol == symbol;
    for (size_t b = 0; registered && b < g_reg.nbins && !f; b++) {
        int32_t i = kernel_index(g_reg.bins[b], symbol);
        if (i >= 0)
            f = g_reg.bins[b]->funcs[i];
    }
    if (registered && !f) {
        struct oacl_binary *b = NULL;
        if (g_reg.nbins == g_reg.bins_cap) {
            size_t cap = g_reg.bins_cap ? g_reg.bins_cap * 2 : 8;
            struct oacl_binary **nb = realloc(g_reg.bins, cap * sizeof(*nb));
            if (nb) {
                g_reg.bins = nb;
                g_reg.bins_cap = cap;
            }
        }
        if (g_reg.nbins == g_reg.bins_cap)
            *rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
        else
            *rc = implicit_create(symbol, &b, fn);
        if (*rc == ACL_SUCCESS) {
            oacl_obj_ref(&b->obj); /* the list's own reference (dropped when the module goes) */
            g_reg.bins[g_reg.nbins++] = b;
            int32_t i = kernel_index(b, symbol);
            if (i >= 0)
                f = b->funcs[i];
            else
                *rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory for the kernel's handle");
        }
    }
    if (f)
        oacl_obj_ref(&f->obj);
    pthread_mutex_unlock(&g_reg.lock);
    return f;
}

OACL_API aclError aclrtGetFuncBySymbol(const void *symbol, aclrtFuncHandle *funcHandle)
{
    if (!symbol || !funcHandle)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", symbol ? "funcHandle" : "symbol");
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    struct oacl_function *f = function_of_symbol(symbol, &rc, __func__);
    if (rc)
        return rc;
    if (!f)
        return oacl_fail(ACL_ERROR_RT_INVALID_DEVICE_FUNCTION, __func__,
                         "%p is not a kernel compiled into the program (kernels of <<<>>> sources built by oacl-cc "
                         "are; binaries loaded with the aclrt functions are not)",
                         symbol);
    *funcHandle = f->obj.handle;
    oacl_obj_put(&f->obj);
    return ACL_SUCCESS;
}

aclError oacl_func_resolve(const void *func, bool symbols, struct oacl_function **out, const char *fn)
{
    if (symbols) {
        aclError rc = oacl_ctx_require(fn); /* the symbol lookup needs a context */
        if (rc)
            return rc;
        struct oacl_function *f = function_of_symbol(func, &rc, fn);
        if (rc)
            return rc;
        if (f) {
            *out = f;
            return ACL_SUCCESS;
        }
    }
    struct oacl_function *f = (struct oacl_function *)oacl_handle_get(func, OACL_H_FUNC);
    if (!f)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn,
                         "%p is neither a kernel compiled into the program nor a live function handle", func);
    *out = f;
    return ACL_SUCCESS;
}
