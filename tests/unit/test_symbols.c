/*
 * Device symbols (memory-extras chapter §3.9) and the globals of kernel
 * binaries (device-kernel chapter §3.2): aclrtGetSymbolAddress/Size,
 * aclrtMemcpyTo/FromSymbol(Async), aclrtBinaryGetGlobal and
 * aclrtBinaryGetDevAddress.
 *
 * Two kinds of device variables: those of a kernel source linked into this
 * test (tests/kernels/sym_linked.cpp, `oacl-cc -c`; one copy for every
 * device) and those of the kernel binary rt_sym (tests/kernels/rt_sym.c;
 * every load has its own copy, so every device does). Kernels read and
 * write them while the host copies to and from them.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_process.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* tests/kernels/sym_linked.cpp */
extern uint32_t g_linked;
extern uint64_t g_linked_arr[4];
extern const uint32_t g_linked_const;
const void *sym_hidden_address(void);
int sym_linked_launch(void *stream, uint32_t *out, uint32_t value);

static uint32_t g_local; /* a global the runtime does not know */

static uint32_t read_u32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* ---- linked device variables ------------------------------------------------------ */

static void test_linked_address_and_size(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    void *p = NULL;
    size_t size = 0;
    ACL_OK(aclrtGetSymbolAddress(&g_linked, &p));
    assert_ptr_equal(p, &g_linked); /* device address = host address on this device */
    ACL_OK(aclrtGetSymbolSize(&g_linked, &size));
    assert_int_equal(size, sizeof(g_linked));
    ACL_OK(aclrtGetSymbolSize(g_linked_arr, &size));
    assert_int_equal(size, sizeof(g_linked_arr));
    /* A variable with internal linkage in an anonymous namespace too. */
    ACL_OK(aclrtGetSymbolSize(sym_hidden_address(), &size));
    assert_int_equal(size, 4);
    ACL_OK(aclrtGetSymbolAddress(&g_linked_const, &p));
    assert_ptr_equal(p, &g_linked_const);
}

/* Host writes with ToSymbol, the kernel reads and replaces the value, the
 * host reads it back with FromSymbol; all on the default stream, which the
 * synchronous copies wait for. */
static void test_linked_sync_with_kernel(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    uint32_t v = 1234;
    ACL_OK(aclrtMemcpyToSymbol(&g_linked, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    assert_int_equal(g_linked, 1234);
    assert_int_equal(sym_linked_launch(NULL, out.dev, 777), 0);
    uint32_t back = 0;
    ACL_OK(aclrtMemcpyFromSymbol(&back, sizeof(back), &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(back, 777); /* the kernel's write, seen after it ran */
    assert_int_equal(read_u32(out.host), 1234);
    assert_int_equal(read_u32((char *)out.host + 4), 5 + 4 + 9);
    /* Offsets: element 2 of the array, DEFAULT kind both ways. */
    uint64_t e = 0x1122334455667788ull, got = 0;
    ACL_OK(aclrtMemcpyToSymbol(g_linked_arr, &e, 8, 16, ACL_MEMCPY_DEFAULT));
    assert_true(g_linked_arr[2] == e && g_linked_arr[1] == 2 && g_linked_arr[3] == 4);
    ACL_OK(aclrtMemcpyFromSymbol(&got, 8, g_linked_arr, 8, 16, ACL_MEMCPY_DEFAULT));
    assert_true(got == e);
    g_linked_arr[2] = 3;
    test_buf_free(&out);
}

/* On another stream, held by a closed gate: nothing of ToSymbolAsync,
 * the kernel and FromSymbolAsync happens before the gate opens, and then
 * they happen in order. */
static void test_linked_async_ordered(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct test_buf gate, out;
    test_buf_alloc(&gate, 4096);
    test_buf_alloc(&out, 4096);
    uint32_t *src, *dst;
    ACL_OK(aclrtMallocHost((void **)&src, 64));
    ACL_OK(aclrtMallocHost((void **)&dst, 64));
    g_linked = 10;
    *src = 20;
    *dst = 0xDEADBEEF;
    ACL_OK(aclrtValueWait(gate.dev, 1, ACL_STREAM_WAIT_VALUE_GEQ, s));
    ACL_OK(aclrtMemcpyToSymbolAsync(&g_linked, src, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    assert_int_equal(sym_linked_launch(s, out.dev, 30), 0);
    ACL_OK(aclrtMemcpyFromSymbolAsync(dst, 64, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, s));
    /* Nothing ran yet (the synchronous copy waits for the default stream
       only): */
    uint32_t now = 0;
    ACL_OK(aclrtMemcpyFromSymbol(&now, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST)); /* default stream only */
    assert_int_equal(now, 10);
    assert_int_equal(*dst, 0xDEADBEEF);
    assert_int_equal(read_u32(out.host), 0);
    __atomic_store_n((uint64_t *)gate.host, 1, __ATOMIC_RELEASE);
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(read_u32(out.host), 20); /* the kernel saw the copy in */
    assert_int_equal(*dst, 30);               /* the copy out saw the kernel's write */
    assert_int_equal(g_linked, 30);
    ACL_OK(aclrtDestroyStream(s));
    ACL_OK(aclrtFreeHost(src));
    ACL_OK(aclrtFreeHost(dst));
    test_buf_free(&gate);
    test_buf_free(&out);
}

/* Linked variables have one copy that every device uses (documented). */
static void test_linked_shared_by_devices(void **state)
{
    (void)state;
    struct test_buf out;
    ACL_OK(aclrtSetDevice(1));
    test_buf_alloc(&out, 4096);
    uint32_t v = 41, back = 0;
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtMemcpyToSymbol(&g_linked, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtMemcpyFromSymbol(&back, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(back, 41);
    assert_int_equal(sym_linked_launch(NULL, out.dev, 43), 0);
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(read_u32(out.host), 41);
    ACL_OK(aclrtSetDevice(0));
    ACL_OK(aclrtMemcpyFromSymbol(&back, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(back, 43);
    /* The storage is device memory of whichever device asks. */
    aclrtPtrAttributes a;
    ACL_OK(aclrtPointerGetAttributes(&g_linked, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(a.location.id, 0);
    ACL_OK(aclrtSetDevice(1));
    ACL_OK(aclrtPointerGetAttributes(&g_linked, &a));
    assert_int_equal(a.location.id, 1);
    test_buf_free(&out);
}

/* The storage is device memory for every memory function; it is not an
 * allocation, and constants stay constant. */
static void test_linked_as_device_memory(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    void *p;
    ACL_OK(aclrtGetSymbolAddress(&g_linked, &p));
    uint32_t v = 99, back = 0;
    ACL_OK(aclrtMemcpy(p, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(&back, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(back, 99);
    ACL_ERR(aclrtMemcpy(p, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "run past the end");
    ACL_ERR(aclrtMemcpy(&back, 4, &v, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, "host memory");
    ACL_OK(aclrtMemset(p, 4, 0x5A, 4));
    assert_int_equal(g_linked, 0x5A5A5A5Au);
    ACL_ERR(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "device variable");
    ACL_ERR(aclrtFreeHost(p), ACL_ERROR_RT_PARAM_INVALID, "device memory");
    assert_int_equal(g_linked, 0x5A5A5A5Au); /* still there */
    /* A const variable is in read-only memory: no copy or fill may write it. */
    v = 1;
    ACL_ERR(aclrtMemcpyToSymbol(&g_linked_const, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "read-only");
    ACL_ERR(aclrtMemset((void *)&g_linked_const, 4, 0, 4), ACL_ERROR_RT_PARAM_INVALID, "read-only");
    ACL_OK(aclrtMemcpyFromSymbol(&back, 4, &g_linked_const, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(back, 9);
    assert_int_equal(g_linked_const, 9);
    /* Built-in tasks: a linked variable is an operand on any device (it
       has no device of its own); a constant may be read, never written. */
    uint32_t one = 1;
    g_linked = 41;
    ACL_OK(aclrtMemcpyToSymbol(&g_linked_arr, &one, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtReduceAsync(&g_linked, &g_linked_arr, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(g_linked, 42);
    ACL_ERR(aclrtReduceAsync((void *)&g_linked_const, &g_linked, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, NULL,
                             NULL),
            ACL_ERROR_RT_PARAM_INVALID, "read-only");
    ACL_OK(aclrtReduceAsync(&g_linked, &g_linked_const, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, NULL, NULL));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(g_linked, 51);
    assert_int_equal(g_linked_const, 9);
}

/* ---- variables of kernel binaries ------------------------------------------------- */

struct sym_bin {
    aclrtBinHandle bin;
    aclrtFuncHandle swap, count;
    void *scale, *hits;
};

static void load_sym(struct sym_bin *b)
{
    test_load("rt_sym", "sym_swap", &b->bin, &b->swap);
    ACL_OK(aclrtBinaryGetFunction(b->bin, "sym_count", &b->count));
    size_t size = 0;
    ACL_OK(aclrtBinaryGetGlobal(b->bin, "g_scale", &b->scale, &size));
    assert_int_equal(size, 4);
    ACL_OK(aclrtBinaryGetGlobal(b->bin, "g_hits", &b->hits, NULL));
}

static aclError launch_swap(const struct sym_bin *b, aclrtStream s, void *out, uint32_t value)
{
    const void *vals[] = {&out, &value};
    size_t sizes[] = {8, 4};
    return test_launch(b->swap, 1, s, 2, vals, sizes);
}

/* A global of a binary is a device symbol: the address aclrtBinaryGetGlobal
 * returns is the symbol; the initial value is the one of the source. */
static void test_binary_global_is_symbol(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct sym_bin b;
    load_sym(&b);
    void *p = NULL;
    size_t size = 0;
    ACL_OK(aclrtGetSymbolAddress(b.scale, &p));
    assert_ptr_equal(p, b.scale);
    ACL_OK(aclrtGetSymbolSize(b.hits, &size));
    assert_int_equal(size, 32);
    uint32_t v = 0;
    ACL_OK(aclrtMemcpyFromSymbol(&v, 4, b.scale, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(v, 3);
    /* Host -> variable -> kernel -> variable -> host. */
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    v = 55;
    ACL_OK(aclrtMemcpyToSymbol(b.scale, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(launch_swap(&b, NULL, out.dev, 66));
    ACL_OK(aclrtMemcpyFromSymbol(&v, 4, b.scale, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(v, 66);
    assert_int_equal(read_u32(out.host), 55);
    assert_int_equal(read_u32((char *)out.host + 4), 7 + 1);
    /* Blocks accumulate into the array; read one element at an offset. */
    const void *none[] = {NULL};
    ACL_OK(test_launch(b.count, 8, NULL, 0, none, NULL));
    ACL_OK(test_launch(b.count, 8, NULL, 0, none, NULL));
    uint32_t hit = 0;
    ACL_OK(aclrtMemcpyFromSymbol(&hit, 4, b.hits, 4, 4 * 5, ACL_MEMCPY_DEFAULT));
    assert_int_equal(hit, 2 * 66);
    /* Also plain device memory for aclrtMemcpy and aclrtPointerGetAttributes. */
    aclrtPtrAttributes a;
    ACL_OK(aclrtPointerGetAttributes(b.hits, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(a.location.id, 0);
    ACL_OK(aclrtMemcpy(&hit, 4, (char *)b.hits + 28, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(hit, 2 * 66);
    ACL_ERR(aclrtFree(b.scale), ACL_ERROR_RT_PARAM_INVALID, "device variable");
    /* Unloaded: the variable and its memory are gone for the runtime. */
    ACL_OK(aclrtBinaryUnLoad(b.bin));
    ACL_ERR(aclrtGetSymbolAddress(b.scale, &p), ACL_ERROR_RT_INVALID_SYMBOL, "not a registered device variable");
    ACL_OK(aclrtPointerGetAttributes(b.hits, &a));
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    test_buf_free(&out);
}

/* Each device has its own copy of a binary's globals: different values
 * written per device, kernels launched on each see their own. */
static void test_binary_global_per_device(void **state)
{
    (void)state;
    enum { NDEV = 3 };
    struct sym_bin b[NDEV];
    struct test_buf out[NDEV];
    for (int32_t d = 0; d < NDEV; d++) {
        ACL_OK(aclrtSetDevice(d));
        load_sym(&b[d]);
        test_buf_alloc(&out[d], 4096);
        for (int32_t e = 0; e < d; e++)
            assert_ptr_not_equal(b[d].scale, b[e].scale);
        uint32_t v = 100 + (uint32_t)d;
        ACL_OK(aclrtMemcpyToSymbol(b[d].scale, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
        aclrtPtrAttributes a;
        ACL_OK(aclrtPointerGetAttributes(b[d].scale, &a));
        assert_int_equal(a.location.id, d);
    }
    for (int32_t d = 0; d < NDEV; d++) {
        ACL_OK(aclrtSetDevice(d));
        ACL_OK(launch_swap(&b[d], NULL, out[d].dev, 200 + (uint32_t)d));
    }
    for (int32_t d = 0; d < NDEV; d++) {
        ACL_OK(aclrtSetDevice(d));
        ACL_OK(aclrtSynchronizeStream(NULL));
        assert_int_equal(read_u32(out[d].host), 100 + (uint32_t)d);
        uint32_t v = 0;
        ACL_OK(aclrtMemcpyFromSymbol(&v, 4, b[d].scale, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
        assert_int_equal(v, 200 + (uint32_t)d);
    }
    /* A device's variables are its device memory: device 1 reaches device
       0's copy only with peer access. */
    uint32_t v = 1;
    ACL_OK(aclrtSetDevice(1));
    ACL_ERR(aclrtMemcpyToSymbol(b[0].scale, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtDeviceEnablePeerAccess");
    for (int32_t d = 0; d < NDEV; d++) {
        ACL_OK(aclrtSetDevice(d));
        ACL_OK(aclrtBinaryUnLoad(b[d].bin));
        test_buf_free(&out[d]);
    }
}

/* Loading the same binary twice on one device gives two instances with
 * separate globals; unloading one leaves the other intact. */
static void test_binary_loaded_twice(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct sym_bin a, b;
    load_sym(&a);
    load_sym(&b);
    assert_ptr_not_equal(a.scale, b.scale);
    uint32_t va = 11, vb = 22;
    ACL_OK(aclrtMemcpyToSymbol(a.scale, &va, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpyToSymbol(b.scale, &vb, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    ACL_OK(aclrtBinaryUnLoad(a.bin));
    ACL_OK(launch_swap(&b, NULL, out.dev, 1));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(read_u32(out.host), 22);
    /* A third load while b is loaded: fresh values again. */
    struct sym_bin c;
    load_sym(&c);
    uint32_t v = 0;
    ACL_OK(aclrtMemcpyFromSymbol(&v, 4, c.scale, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(v, 3);
    ACL_OK(aclrtBinaryUnLoad(b.bin));
    ACL_OK(aclrtBinaryUnLoad(c.bin));
    test_buf_free(&out);
}

/* Constants of a binary are read-only device memory; static variables are
 * not globals of the binary. */
static void test_binary_const_and_static(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct sym_bin b;
    load_sym(&b);
    void *c = NULL;
    size_t size = 0;
    ACL_OK(aclrtBinaryGetGlobal(b.bin, "g_const", &c, &size));
    assert_int_equal(size, 4);
    uint32_t v = 0;
    ACL_OK(aclrtMemcpyFromSymbol(&v, 4, c, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(v, 7);
    v = 8;
    ACL_ERR(aclrtMemcpyToSymbol(c, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "read-only");
    ACL_ERR(aclrtMemcpy(c, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "read-only");
    ACL_OK(aclrtMemcpy(&v, 4, c, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    assert_int_equal(v, 7);
    void *p = (void *)0x1;
    ACL_ERR(aclrtBinaryGetGlobal(b.bin, "g_private", &p, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND, "g_private");
    /* Kernel entries are functions, not globals. */
    ACL_ERR(aclrtBinaryGetGlobal(b.bin, "sym_swap", &p, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND, "sym_swap");
    /* Symbols of the libraries it links are not the binary's. */
    ACL_ERR(aclrtBinaryGetGlobal(b.bin, "stdout", &p, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND, "stdout");
    assert_ptr_equal(p, (void *)0x1);
    assert_int_equal(size, 4);
    ACL_OK(aclrtBinaryUnLoad(b.bin));
}

static void test_binary_dev_address(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct sym_bin b;
    load_sym(&b);
    void *base = NULL;
    size_t size = 0;
    ACL_OK(aclrtBinaryGetDevAddress(b.bin, &base, &size));
    assert_non_null(base);
    assert_true(size > 0 && size % 4096 == 0);
    uintptr_t lo = (uintptr_t)base, hi = lo + size;
    assert_true((uintptr_t)b.scale >= lo && (uintptr_t)b.scale + 4 <= hi);
    assert_true((uintptr_t)b.hits >= lo && (uintptr_t)b.hits + 32 <= hi);
    /* Another instance lies elsewhere. */
    struct sym_bin c;
    load_sym(&c);
    void *base2 = NULL;
    size_t size2 = 0;
    ACL_OK(aclrtBinaryGetDevAddress(c.bin, &base2, &size2));
    assert_ptr_not_equal(base, base2);
    assert_int_equal(size, size2);
    ACL_OK(aclrtBinaryUnLoad(b.bin));
    ACL_OK(aclrtBinaryUnLoad(c.bin));
}

/* C++ binaries: a namespace variable is a global by its mangled name and a
 * symbol; a static local of an inline function is per instance too. */
static void test_binary_cxx_globals(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtBinHandle a, b;
    aclrtFuncHandle fa, fb;
    test_load("rt_sym_cpp", "cpp_bump", &a, &fa);
    test_load("rt_sym_cpp", "cpp_bump", &b, &fb);
    void *step = NULL;
    size_t size = 0;
    ACL_ERR(aclrtBinaryGetGlobal(a, "g_step", &step, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND, "mangled");
    ACL_OK(aclrtBinaryGetGlobal(a, "_ZN3cfg6g_stepE", &step, &size));
    assert_int_equal(size, 4);
    uint32_t v = 10;
    ACL_OK(aclrtMemcpyToSymbol(step, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    const void *vals[] = {&out.dev};
    size_t sizes[] = {8};
    ACL_OK(test_launch(fa, 1, NULL, 1, vals, sizes));
    ACL_OK(test_launch(fa, 1, NULL, 1, vals, sizes));
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(read_u32(out.host), 20);
    ACL_OK(test_launch(fb, 1, NULL, 1, vals, sizes)); /* b: its own counter and step */
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(read_u32(out.host), 1);
    ACL_OK(aclrtBinaryUnLoad(a));
    ACL_OK(aclrtBinaryUnLoad(b));
    test_buf_free(&out);
}

/* ---- bad inputs: error codes, messages, nothing changed ------------------------------- */

static void test_symbol_query_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    void *p = (void *)0x1;
    size_t size = 77;
    ACL_ERR(aclrtGetSymbolAddress(NULL, &p), ACL_ERROR_INVALID_PARAM, "symbol is NULL");
    ACL_ERR(aclrtGetSymbolAddress(&g_linked, NULL), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    ACL_ERR(aclrtGetSymbolAddress(&g_local, &p), ACL_ERROR_RT_INVALID_SYMBOL, "not a registered device variable");
    ACL_ERR(aclrtGetSymbolAddress(&g_linked_arr[1], &p), ACL_ERROR_RT_INVALID_SYMBOL, "not a registered");
    assert_ptr_equal(p, (void *)0x1);
    ACL_ERR(aclrtGetSymbolSize(NULL, &size), ACL_ERROR_INVALID_PARAM, "symbol is NULL");
    ACL_ERR(aclrtGetSymbolSize(&g_linked, NULL), ACL_ERROR_INVALID_PARAM, "size is NULL");
    ACL_ERR(aclrtGetSymbolSize(&g_local, &size), ACL_ERROR_RT_INVALID_SYMBOL, "not a registered device variable");
    ACL_ERR(aclrtGetSymbolSize((char *)&g_linked + 1, &size), ACL_ERROR_RT_INVALID_SYMBOL, "not a registered");
    assert_int_equal(size, 77);
    /* The last error is set for the runtime-layer code only. */
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_SYMBOL);
}

static void test_from_symbol_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    g_linked = 17;
    uint32_t dst[4] = {1, 2, 3, 4};
    const uint32_t want[4] = {1, 2, 3, 4};
    /* count 0: nothing is checked, nothing happens. */
    ACL_OK(aclrtMemcpyFromSymbol(NULL, 0, NULL, 0, 0, (aclrtMemcpyKind)99));
    ACL_ERR(aclrtMemcpyFromSymbol(NULL, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
            "dst is NULL");
    ACL_ERR(aclrtMemcpyFromSymbol(dst, 4, NULL, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
            "symbol is NULL");
    ACL_ERR(aclrtMemcpyFromSymbol(dst, 2, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
            "exceeds dstMax");
    ACL_ERR(aclrtMemcpyFromSymbol(dst, 4, &g_linked, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
            "ACL_MEMCPY_DEVICE_TO_HOST or ACL_MEMCPY_DEFAULT");
    ACL_ERR(aclrtMemcpyFromSymbol(dst, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
            "kind 3");
    ACL_ERR(aclrtMemcpyFromSymbol(dst, 4, &g_local, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_INVALID_SYMBOL,
            "not a registered device variable");
    ACL_ERR(aclrtMemcpyFromSymbol(dst, 16, &g_linked, 4, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
            "offset 1 + count 4 exceed the 4 bytes");
    ACL_ERR(aclrtMemcpyFromSymbol(dst, 16, &g_linked, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
            "exceed the 4 bytes of device variable 'g_linked'");
    ACL_ERR(aclrtMemcpyFromSymbol(dst, 16, &g_linked, 4, SIZE_MAX, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
            "exceed");
    ACL_ERR(aclrtMemcpyFromSymbol(dst, 16, g_linked_arr, 8, SIZE_MAX - 4, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_INVALID_PARAM, "exceed");
    /* D2H into device memory: aclrtMemcpy's own check, reported for this call too. */
    void *devmem;
    ACL_OK(aclrtMalloc(&devmem, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_ERR(aclrtMemcpyFromSymbol(devmem, 64, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtMemcpyFromSymbol: the copy out of device variable 'g_linked' failed");
    ACL_OK(aclrtFree(devmem));
    assert_memory_equal(dst, want, sizeof(dst));
    assert_int_equal(g_linked, 17);
}

static void test_from_symbol_async_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t *dst;
    ACL_OK(aclrtMallocHost((void **)&dst, 16));
    dst[0] = 0xAB;
    ACL_OK(aclrtMemcpyFromSymbolAsync(NULL, 0, NULL, 0, 0, ACL_MEMCPY_DEVICE_TO_HOST, s));
    ACL_ERR(aclrtMemcpyFromSymbolAsync(NULL, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, s),
            ACL_ERROR_INVALID_PARAM, "dst is NULL");
    ACL_ERR(aclrtMemcpyFromSymbolAsync(dst, 16, &g_linked, 4, 0, ACL_MEMCPY_HOST_TO_HOST, s), ACL_ERROR_INVALID_PARAM,
            "kind 0");
    ACL_ERR(aclrtMemcpyFromSymbolAsync(dst, 16, &g_local, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, s),
            ACL_ERROR_RT_INVALID_SYMBOL, "not a registered device variable");
    ACL_ERR(aclrtMemcpyFromSymbolAsync(dst, 16, g_linked_arr, 16, 24, ACL_MEMCPY_DEVICE_TO_HOST, s),
            ACL_ERROR_INVALID_PARAM, "offset 24 + count 16 exceed the 32 bytes");
    /* A destroyed stream: aclrtMemcpyAsync's stream check. */
    aclrtStream dead;
    ACL_OK(aclrtCreateStream(&dead));
    ACL_OK(aclrtDestroyStream(dead));
    ACL_ERR(aclrtMemcpyFromSymbolAsync(dst, 16, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, dead),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtMemcpyFromSymbolAsync");
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(dst[0], 0xAB);
    ACL_OK(aclrtFreeHost(dst));
    ACL_OK(aclrtDestroyStream(s));
}

static void test_to_symbol_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    g_linked = 17;
    uint32_t v[4] = {5, 6, 7, 8};
    ACL_OK(aclrtMemcpyToSymbol(NULL, NULL, 0, 0, (aclrtMemcpyKind)99));
    ACL_ERR(aclrtMemcpyToSymbol(NULL, v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "symbol is NULL");
    ACL_ERR(aclrtMemcpyToSymbol(&g_linked, NULL, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
            "src is NULL");
    ACL_ERR(aclrtMemcpyToSymbol(&g_linked, v, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
            "ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEFAULT");
    ACL_ERR(aclrtMemcpyToSymbol(&g_linked, v, 4, 0, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM, "kind -1");
    ACL_ERR(aclrtMemcpyToSymbol(&g_local, v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_INVALID_SYMBOL,
            "not a registered device variable");
    ACL_ERR(aclrtMemcpyToSymbol(&g_linked, v, 4, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
            "offset 4 + count 4 exceed the 4 bytes");
    ACL_ERR(aclrtMemcpyToSymbol(&g_linked, v, 16, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
            "exceed");
    ACL_ERR(aclrtMemcpyToSymbol(&g_linked, v, 2, SIZE_MAX, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
            "exceed");
    assert_int_equal(g_linked, 17);
    uint64_t arr[4];
    memcpy(arr, g_linked_arr, sizeof(arr));
    ACL_ERR(aclrtMemcpyToSymbol(g_linked_arr, v, 16, 24, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
            "exceed the 32 bytes");
    assert_memory_equal(arr, g_linked_arr, sizeof(arr));
}

static void test_to_symbol_async_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    g_linked = 17;
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    uint32_t v = 9;
    ACL_OK(aclrtMemcpyToSymbolAsync(NULL, NULL, 0, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    ACL_ERR(aclrtMemcpyToSymbolAsync(&g_linked, NULL, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM,
            "src is NULL");
    ACL_ERR(aclrtMemcpyToSymbolAsync(&g_linked, &v, 4, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM,
            "kind 3");
    ACL_ERR(aclrtMemcpyToSymbolAsync(&g_local, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_INVALID_SYMBOL,
            "not a registered device variable");
    ACL_ERR(aclrtMemcpyToSymbolAsync(&g_linked, &v, 4, 2, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM,
            "offset 2 + count 4");
    ACL_ERR(aclrtMemcpyToSymbolAsync(&g_linked_const, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, s),
            ACL_ERROR_RT_PARAM_INVALID, "read-only");
    aclrtStream dead;
    ACL_OK(aclrtCreateStream(&dead));
    ACL_OK(aclrtDestroyStream(dead));
    ACL_ERR(aclrtMemcpyToSymbolAsync(&g_linked, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, dead),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtMemcpyToSymbolAsync");
    ACL_OK(aclrtSynchronizeStream(s));
    assert_int_equal(g_linked, 17);
    assert_int_equal(g_linked_const, 9);
    /* Pageable source on a stream: complete when the call returns. */
    ACL_OK(aclrtMemcpyToSymbolAsync(&g_linked, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    assert_int_equal(g_linked, 9);
    ACL_OK(aclrtDestroyStream(s));
}

static void test_binary_global_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct sym_bin b;
    load_sym(&b);
    void *p = (void *)0x1;
    size_t size = 5;
    ACL_ERR(aclrtBinaryGetGlobal(NULL, "g_scale", &p, &size), ACL_ERROR_INVALID_PARAM, "binHandle is NULL");
    ACL_ERR(aclrtBinaryGetGlobal(b.bin, NULL, &p, &size), ACL_ERROR_INVALID_PARAM, "name is NULL");
    ACL_ERR(aclrtBinaryGetGlobal(b.bin, "g_scale", NULL, NULL), ACL_ERROR_INVALID_PARAM, "both NULL");
    ACL_ERR(aclrtBinaryGetGlobal(b.bin, "nope", &p, NULL), ACL_ERROR_RT_SYMBOL_NOT_FOUND, "'nope'");
    ACL_ERR(aclrtBinaryGetGlobal(b.swap, "g_scale", &p, &size), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded binary");
    assert_ptr_equal(p, (void *)0x1);
    assert_int_equal(size, 5);
    ACL_OK(aclrtBinaryGetGlobal(b.bin, "g_scale", NULL, &size)); /* one output is enough */
    assert_int_equal(size, 4);
    ACL_OK(aclrtBinaryUnLoad(b.bin));
    ACL_ERR(aclrtBinaryGetGlobal(b.bin, "g_scale", &p, &size), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded binary");
    assert_ptr_equal(p, (void *)0x1);
}

static void test_binary_dev_address_errors(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct sym_bin b;
    load_sym(&b);
    void *p = (void *)0x1;
    size_t size = 5;
    ACL_ERR(aclrtBinaryGetDevAddress(NULL, &p, &size), ACL_ERROR_INVALID_PARAM, "binHandle is NULL");
    ACL_ERR(aclrtBinaryGetDevAddress(b.bin, NULL, &size), ACL_ERROR_RT_PARAM_INVALID, "binAddr is NULL");
    ACL_ERR(aclrtBinaryGetDevAddress(b.bin, &p, NULL), ACL_ERROR_INVALID_PARAM, "binSize is NULL");
    ACL_ERR(aclrtBinaryGetDevAddress(b.swap, &p, &size), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded binary");
    ACL_OK(aclrtBinaryUnLoad(b.bin));
    ACL_ERR(aclrtBinaryGetDevAddress(b.bin, &p, &size), ACL_ERROR_RT_INVALID_HANDLE, "not a loaded binary");
    assert_ptr_equal(p, (void *)0x1);
    assert_int_equal(size, 5);
}

/* Without a context on the thread: 107002 from each, outputs untouched. */
static void *no_context_thread(void *arg)
{
    aclrtBinHandle bin = arg;
    void *p = (void *)0x1;
    size_t size = 5;
    uint32_t v = 3;
    ACL_ERR(aclrtGetSymbolAddress(&g_linked, &p), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSetDevice");
    ACL_ERR(aclrtGetSymbolSize(&g_linked, &size), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetSymbolSize");
    ACL_ERR(aclrtMemcpyFromSymbol(&v, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_CONTEXT_NULL,
            "aclrtMemcpyFromSymbol");
    ACL_ERR(aclrtMemcpyFromSymbolAsync(&v, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, NULL),
            ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemcpyFromSymbolAsync");
    ACL_ERR(aclrtMemcpyToSymbol(&g_linked, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CONTEXT_NULL,
            "aclrtMemcpyToSymbol");
    ACL_ERR(aclrtMemcpyToSymbolAsync(&g_linked, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
            ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemcpyToSymbolAsync");
    ACL_ERR(aclrtBinaryGetGlobal(bin, "g_scale", &p, &size), ACL_ERROR_RT_CONTEXT_NULL, "aclrtBinaryGetGlobal");
    ACL_ERR(aclrtBinaryGetDevAddress(bin, &p, &size), ACL_ERROR_RT_CONTEXT_NULL, "aclrtBinaryGetDevAddress");
    assert_ptr_equal(p, (void *)0x1);
    assert_int_equal(size, 5);
    assert_int_equal(v, 3);
    return NULL;
}

static void test_no_context(void **state)
{
    (void)state;
    ACL_OK(aclrtSetDevice(0));
    struct sym_bin b;
    load_sym(&b);
    g_linked = 17;
    oacl_test_run_thread(no_context_thread, b.bin);
    assert_int_equal(g_linked, 17);
    ACL_OK(aclrtBinaryUnLoad(b.bin));
}

/* ---- SoC availability (child processes: OACL_SOC is read once) ------------------------- */

static void child_310b(void)
{
    CHILD_OK(aclrtSetDevice(0));
    void *p = (void *)0x1;
    size_t size = 5;
    uint32_t v = 3;
    /* The argument checks come first. */
    CHILD_ERR(aclrtGetSymbolAddress(NULL, &p), ACL_ERROR_INVALID_PARAM, "symbol is NULL");
    CHILD_ERR(aclrtGetSymbolAddress(&g_linked, &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtGetSymbolAddress is not supported on Ascend310B1");
    CHILD_ERR(aclrtGetSymbolSize(&g_linked, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtGetSymbolSize is not supported on Ascend310B1");
    CHILD_ERR(aclrtMemcpyFromSymbol(&v, 4, &g_linked, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
              "kind");
    CHILD_ERR(aclrtMemcpyFromSymbol(&v, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMemcpyFromSymbol is not supported on Ascend310B1");
    CHILD_ERR(aclrtMemcpyFromSymbolAsync(&v, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, NULL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMemcpyFromSymbolAsync is not supported on Ascend310B1");
    CHILD_ERR(aclrtMemcpyToSymbol(&g_linked, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "aclrtMemcpyToSymbol is not supported on Ascend310B1");
    CHILD_ERR(aclrtMemcpyToSymbolAsync(&g_linked, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMemcpyToSymbolAsync is not supported on Ascend310B1");
    CHILD_CHECK(p == (void *)0x1 && size == 5 && v == 3 && g_linked == 42);
}

/* Another profile with the feature (950): a linked variable works. */
static void child_950(void)
{
    CHILD_OK(aclrtSetDevice(0));
    uint32_t v = 8, back = 0;
    CHILD_OK(aclrtMemcpyToSymbol(&g_linked, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    CHILD_OK(aclrtMemcpyFromSymbol(&back, 4, &g_linked, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    CHILD_CHECK_INT(back, 8);
}

static const struct oacl_child_mode g_modes[] = {{"310b", child_310b}, {"950", child_950}};

static void test_soc_310b(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("310b", "OACL_SOC=Ascend310B1");
}

static void test_soc_950(void **state)
{
    (void)state;
    ASSERT_CHILD_OK("950", "OACL_SOC=Ascend950PR_9599");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_linked_address_and_size, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_linked_sync_with_kernel, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_linked_async_ordered, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_linked_shared_by_devices, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_linked_as_device_memory, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_binary_global_is_symbol, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_binary_global_per_device, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_binary_loaded_twice, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_binary_const_and_static, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_binary_dev_address, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_binary_cxx_globals, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_symbol_query_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_from_symbol_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_from_symbol_async_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_to_symbol_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_to_symbol_async_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_binary_global_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_binary_dev_address_errors, oacl_test_reset_fixture),
        cmocka_unit_test_teardown(test_no_context, oacl_test_reset_fixture),
        cmocka_unit_test(test_soc_310b),
        cmocka_unit_test(test_soc_950),
    };
    return cmocka_run_group_tests(tests, oacl_test_reset_fixture, NULL);
}
