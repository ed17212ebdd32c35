/*
 * Kernel binaries produced by oacl-cc at build time (tests/CMakeLists.txt):
 * the descriptor each one exports, and its entries called with argument
 * blobs in the documented layout. The kernels write what they received
 * into an output buffer, so every parameter is checked exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "kbin_check.h"

#define KDIR OACL_TEST_KERNEL_DIR "/"

struct pair { /* as in tests/kernels/mixed_c.c and mixed_cpp.cpp */
    uint32_t a;
    float b;
    int32_t c;
};
_Static_assert(sizeof(struct pair) == 12, "the test struct must be 12 bytes");

static const uint32_t g_ptr3[] = {8, 8, 8};

static void call_add_custom(const struct kbin *k)
{
    const struct oacl_kernel_desc *d = kbin_kernel_sizes(k, "add_custom", 3, g_ptr3);
    uint8_t x[16], y[16], z[16];
    for (int i = 0; i < 16; i++) {
        x[i] = (uint8_t)(i * 3);
        y[i] = (uint8_t)(200 + i);
        z[i] = 0;
    }
    uint8_t *px = x, *py = y, *pz = z;
    struct blob bl;
    blob_init(&bl);
    assert_int_equal(BLOB_PUT(&bl, px), 0);
    assert_int_equal(BLOB_PUT(&bl, py), 8);
    assert_int_equal(BLOB_PUT(&bl, pz), 16);
    d->entry(bl.b);
    for (int i = 0; i < 16; i++)
        assert_int_equal(z[i], (uint8_t)(x[i] + y[i]));
}

/* mixed_c and mixed_cpp share signature and output layout. */
static void call_mixed(const struct kbin *k, const char *name)
{
    static const uint32_t sizes[] = {8, 4, 4, 1, 8, 12, 8};
    const struct oacl_kernel_desc *d = kbin_kernel_sizes(k, name, 7, sizes);
    uint8_t out[48];
    memset(out, 0, sizeof(out));
    uint8_t *pout = out;
    uint32_t n = 0xDEADBEEFu;
    float scale = -3.25f;
    int8_t tag = -7;
    uint64_t big = 0x0123456789ABCDEFull;
    struct pair p = {0xA1B2C3D4u, 1.5f, -123456};
    double dd = 6.02214076e23;
    struct blob bl;
    blob_init(&bl);
    assert_int_equal(BLOB_PUT(&bl, pout), 0);
    assert_int_equal(BLOB_PUT(&bl, n), 8);
    assert_int_equal(BLOB_PUT(&bl, scale), 16);
    assert_int_equal(BLOB_PUT(&bl, tag), 24);
    assert_int_equal(BLOB_PUT(&bl, big), 32);
    assert_int_equal(BLOB_PUT(&bl, p), 40);
    assert_int_equal(BLOB_PUT(&bl, dd), 56);
    d->entry(bl.b);
    assert_memory_equal(out + 0, &n, sizeof(n));
    assert_memory_equal(out + 4, &scale, sizeof(scale));
    assert_memory_equal(out + 8, &tag, sizeof(tag));
    assert_memory_equal(out + 16, &big, sizeof(big));
    assert_memory_equal(out + 24, &p, sizeof(p));
    assert_memory_equal(out + 40, &dd, sizeof(dd));
}

static void test_add_c(void **state)
{
    (void)state;
    struct kbin k;
    kbin_open(&k, KDIR "add_c.o");
    assert_int_equal(k.desc->npu_arch, 2201);
    assert_string_equal(k.desc->soc_name, OACL_TEST_DEFAULT_SOC);
    assert_int_equal(k.desc->num_kernels, 1);
    assert_string_equal(k.desc->kernels[0].name, "add_custom");
    call_add_custom(&k);
    /* Generated entries and size arrays stay internal to the binary. */
    assert_null(dlsym(k.handle, "oacl__entry_add_custom"));
    assert_null(dlsym(k.handle, "oacl__sizes_add_custom"));
    kbin_close(&k);
}

static void test_mixed_c(void **state)
{
    (void)state;
    struct kbin k;
    kbin_open(&k, KDIR "mixed_c.o");
    assert_int_equal(k.desc->num_kernels, 1);
    call_mixed(&k, "mixed_c");
    kbin_close(&k);
}

static void test_noparam(void **state)
{
    (void)state;
    struct kbin k;
    kbin_open(&k, KDIR "noparam_c.o");
    assert_int_equal(k.desc->num_kernels, 2);
    const struct oacl_kernel_desc *v = kbin_kernel_sizes(&k, "noparam_void", 0, NULL);
    const struct oacl_kernel_desc *e = kbin_kernel_sizes(&k, "noparam_empty", 0, NULL);
    int *vcalls = (int *)dlsym(k.handle, "noparam_void_calls");
    int *ecalls = (int *)dlsym(k.handle, "noparam_empty_calls");
    assert_non_null(vcalls);
    assert_non_null(ecalls);
    uint64_t dummy = 0;
    v->entry(&dummy);
    v->entry(NULL); /* an empty blob may be passed as NULL: nothing is read */
    e->entry(&dummy);
    assert_int_equal(*vcalls, 2);
    assert_int_equal(*ecalls, 1);
    kbin_close(&k);
}

static int g_cb_seen[2];
static void record_first(int v) { g_cb_seen[0] = v; }
static void record_second(int v) { g_cb_seen[1] = v; }

static void test_two_kernels(void **state)
{
    (void)state;
    struct kbin k;
    kbin_open(&k, KDIR "two_kernels.o");
    /* scale_bytes is declared and later defined: one entry. */
    assert_int_equal(k.desc->num_kernels, 2);
    assert_string_equal(k.desc->kernels[0].name, "scale_bytes");
    assert_string_equal(k.desc->kernels[1].name, "call_back");

    static const uint32_t sizes[] = {8, 4, 8};
    const struct oacl_kernel_desc *d = kbin_kernel_sizes(&k, "scale_bytes", 3, sizes);
    struct { uint32_t mul, add; } sc = {3, 5};
    const void *psc = &sc;
    unsigned n = 10;
    uint8_t buf[12];
    for (int i = 0; i < 12; i++)
        buf[i] = (uint8_t)i;
    uint8_t *pbuf = buf;
    struct blob bl;
    blob_init(&bl);
    BLOB_PUT(&bl, psc);
    assert_int_equal(BLOB_PUT(&bl, n), 8);
    assert_int_equal(BLOB_PUT(&bl, pbuf), 16);
    d->entry(bl.b);
    for (int i = 0; i < 12; i++)
        assert_int_equal(buf[i], i < 10 ? (uint8_t)(i * 3 + 5) : i);

    d = kbin_kernel_sizes(&k, "call_back", 3, sizes);
    void (*first)(int) = record_first, (*second)(int) = record_second;
    int v = -41;
    blob_init(&bl);
    BLOB_PUT(&bl, first);
    BLOB_PUT(&bl, v);
    assert_int_equal(BLOB_PUT(&bl, second), 16);
    d->entry(bl.b);
    assert_int_equal(g_cb_seen[0], -41);
    assert_int_equal(g_cb_seen[1], -40);
    kbin_close(&k);
}

static void test_with_header(void **state)
{
    (void)state;
    struct kbin k;
    kbin_open(&k, KDIR "with_header.o"); /* built with --soc=Ascend950PR_9599 */
    assert_int_equal(k.desc->npu_arch, 3510);
    assert_string_equal(k.desc->soc_name, "Ascend950PR_9599");
    static const uint32_t sizes[] = {8, 12};
    const struct oacl_kernel_desc *d = kbin_kernel_sizes(&k, "tiled", 2, sizes);
    struct { uint32_t total, tile; uint16_t flags; } tiling = {4096, 256, 0xBEEF};
    assert_int_equal(sizeof(tiling), 12);
    uint8_t out[64];
    memset(out, 0, sizeof(out));
    uint8_t *pout = out;
    struct blob bl;
    blob_init(&bl);
    BLOB_PUT(&bl, pout);
    assert_int_equal(BLOB_PUT(&bl, tiling), 8);
    d->entry(bl.b);
    assert_memory_equal(out, &tiling, 10); /* the 2 tail bytes are padding */
    assert_int_equal(out[12], 0x5A);       /* TILING_MAGIC from the header */
    uint32_t arch;
    memcpy(&arch, out + 16, sizeof(arch));
    assert_int_equal(arch, 3510); /* __NPU_ARCH__ inside the kernel */
    assert_string_equal((const char *)out + 20, "Ascend950PR_9599");
    kbin_close(&k);
}

static void call_cpp_extras(const struct kbin *k)
{
    static const uint32_t s_block[] = {8, 2, 1}, s_decl[] = {8, 8}, s_ns[] = {8, 1, 8};
    uint8_t out[16];
    uint8_t *pout = out;
    struct blob bl;

    const struct oacl_kernel_desc *d = kbin_kernel_sizes(k, "block_linkage", 3, s_block);
    int16_t s = -12345;
    _Bool flag = 1;
    memset(out, 0, sizeof(out));
    blob_init(&bl);
    BLOB_PUT(&bl, pout);
    assert_int_equal(BLOB_PUT(&bl, s), 8);
    assert_int_equal(BLOB_PUT(&bl, flag), 16);
    d->entry(bl.b);
    assert_memory_equal(out, &s, 2);
    assert_int_equal(out[2], 1);

    d = kbin_kernel_sizes(k, "declared_first", 2, s_decl);
    uint64_t v = 0xFEDCBA9876543210ull;
    blob_init(&bl);
    BLOB_PUT(&bl, pout);
    BLOB_PUT(&bl, v);
    d->entry(bl.b);
    assert_memory_equal(out, &v, 8);

    d = kbin_kernel_sizes(k, "in_namespace", 3, s_ns);
    char c = 'Q';
    void *unused = NULL;
    blob_init(&bl);
    BLOB_PUT(&bl, pout);
    BLOB_PUT(&bl, c);
    assert_int_equal(BLOB_PUT(&bl, unused), 16);
    d->entry(bl.b);
    assert_int_equal(out[0], 'Q');
}

static void test_mixed_cpp(void **state)
{
    (void)state;
    struct kbin k;
    kbin_open(&k, KDIR "mixed_cpp.o");
    assert_int_equal(k.desc->num_kernels, 4);
    call_mixed(&k, "mixed_cpp");
    call_cpp_extras(&k);
    kbin_close(&k);
}

/* The C++ entry reads the blob with memcpy: exactly its bytes, at any
 * alignment. A blob that ends right before an inaccessible page proves
 * that nothing past the last parameter is read. */
static void test_cpp_entry_reads_only_the_blob(void **state)
{
    (void)state;
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *mem = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(mem != MAP_FAILED);
    assert_int_equal(mprotect(mem + page, (size_t)page, PROT_NONE), 0);

    struct kbin k;
    kbin_open(&k, KDIR "mixed_cpp.o");
    const struct oacl_kernel_desc *d = kbin_kernel(&k, "block_linkage");
    uint8_t out[4] = {0};
    uint8_t *pout = out;
    int16_t s = 321;
    _Bool flag = 1;
    struct blob bl;
    blob_init(&bl);
    BLOB_PUT(&bl, pout);
    BLOB_PUT(&bl, s);
    BLOB_PUT(&bl, flag);
    assert_int_equal(bl.len, 17);
    uint8_t *args = mem + page - bl.len; /* odd address, ends at the guard page */
    memcpy(args, bl.b, bl.len);
    d->entry(args);
    assert_memory_equal(out, &s, 2);
    assert_int_equal(out[2], 1);
    kbin_close(&k);
    munmap(mem, (size_t)page * 2);
}

static void test_mixed_languages(void **state)
{
    (void)state;
    struct kbin k;
    kbin_open(&k, KDIR "mixed_lang.o"); /* add_c.c + mixed_cpp.cpp, --soc=Ascend310P3 */
    assert_int_equal(k.desc->npu_arch, 2002);
    assert_string_equal(k.desc->soc_name, "Ascend310P3");
    assert_int_equal(k.desc->num_kernels, 5);
    call_add_custom(&k);
    call_mixed(&k, "mixed_cpp");
    call_cpp_extras(&k);
    kbin_close(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_c),
        cmocka_unit_test(test_mixed_c),
        cmocka_unit_test(test_noparam),
        cmocka_unit_test(test_two_kernels),
        cmocka_unit_test(test_with_header),
        cmocka_unit_test(test_mixed_cpp),
        cmocka_unit_test(test_cpp_entry_reads_only_the_blob),
        cmocka_unit_test(test_mixed_languages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
