/*
 * Host registration: aclrtHostRegister, aclrtHostRegisterV2,
 * aclrtHostGetDevicePointer, aclrtHostUnregister (spec 4.6, section 5 items
 * 11-14), on runtime-pinned memory and on the user's pageable memory.
 *
 * Zero copy is checked without kernels: bytes written through the device
 * address must be readable at the host address with no call in between, and
 * the other way round. Accesses that would crash the test program if the
 * runtime got a mapping wrong run in a forked child.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

#include "host_mem_util.h"

static const uint32_t MAPPED = ACL_HOST_REG_MAPPED;
static const uint32_t PINNED = ACL_HOST_REG_PINNED;

/* Asserts that p is not inside any registration. */
#define assert_not_registered(p)                                                                                     \
    do {                                                                                                             \
        void *d_ = OUT_SENTINEL;                                                                                     \
        ACL_ERR(aclrtHostGetDevicePointer((p), &d_, 0), ACL_ERROR_RT_PARAM_INVALID,                                 \
                "not inside any registered host range");                                                             \
        assert_ptr_equal(d_, OUT_SENTINEL);                                                                          \
    } while (0)

static void *dev_of(void *host)
{
    void *d = NULL;
    ACL_OK(aclrtHostGetDevicePointer(host, &d, 0));
    return d;
}

/* Page-aligned pageable heap memory. */
static unsigned char *heap_pages(size_t pages)
{
    unsigned char *p = aligned_alloc(4096, pages * page_sz());
    assert_non_null(p);
    return p;
}

/* ---- forked probes ------------------------------------------------------------------ */

struct probe {
    unsigned char *host, *dev;
    size_t len;
};

/* In the child: zero copy over the whole range, page by page. */
static int probe_zero_copy(const struct probe *pr)
{
    for (size_t off = 0; off < pr->len; off += page_sz()) {
        size_t n = pr->len - off < page_sz() ? pr->len - off : page_sz();
        fill_pattern(pr->dev + off, n, (uint32_t)off);
        if (pattern_mismatch(pr->host + off, n, (uint32_t)off) != SIZE_MAX)
            return 1;
        fill_pattern(pr->host + off, n, (uint32_t)off + 7u);
        if (pattern_mismatch(pr->dev + off, n, (uint32_t)off + 7u) != SIZE_MAX)
            return 2;
    }
    return 0;
}

/* Runs the probe in a forked child (a wrong mapping may raise SIGBUS or
   SIGSEGV). Returns NULL when it passed, else what went wrong. */
static const char *zero_copy_in_child(unsigned char *host, unsigned char *dev, size_t len, char *why, size_t cap)
{
    struct probe pr = {host, dev, len};
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return "fork failed";
    if (pid == 0) {
        /* cmocka catches these signals and would carry on running tests
           in the child: let them kill it instead. */
        signal(SIGBUS, SIG_DFL);
        signal(SIGSEGV, SIG_DFL);
        _exit(probe_zero_copy(&pr));
    }
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return "waitpid failed";
    if (WIFSIGNALED(st))
        snprintf(why, cap, "zero-copy probe of host %p / device %p (+%zu) died of signal %d (%s)", (void *)host,
                 (void *)dev, len, WTERMSIG(st), strsignal(WTERMSIG(st)));
    else if (WEXITSTATUS(st) != 0)
        snprintf(why, cap, "zero-copy probe of host %p / device %p (+%zu): %s", (void *)host, (void *)dev, len,
                 WEXITSTATUS(st) == 1 ? "device writes are not visible at the host address"
                                      : "host writes are not visible at the device address");
    else
        return NULL;
    return why;
}

/* ---- zero copy on aclrtMallocHost memory ---------------------------------------------- */

/* The seed's flow: three 32 KiB buffers, mapped; a "device" loop that only
   uses device addresses computes out = a + b; the host reads out in place. */
static void test_seed_flow_without_kernel(void **state)
{
    (void)state;
    enum { COUNT = 16384 };
    const size_t size = COUNT * sizeof(uint16_t);
    uint16_t *host[3], *dev[3];
    for (int i = 0; i < 3; i++) {
        host[i] = malloc_host_ok(size);
        dev[i] = register_ok(host[i], size, MAPPED);
        assert_ptr_not_equal(dev[i], host[i]);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            assert_false(ranges_overlap(dev[i], size, host[j], size));
            if (i != j)
                assert_false(ranges_overlap(dev[i], size, dev[j], size));
        }
    for (size_t k = 0; k < COUNT; k++) {
        host[0][k] = F16_ONE;
        host[1][k] = F16_TWO;
        host[2][k] = 0;
    }
    /* The "device": 1.0 + 2.0 = 3.0 in FP16, through device addresses only. */
    for (size_t k = 0; k < COUNT; k++) {
        volatile uint16_t *a = dev[0], *b = dev[1], *out = dev[2];
        out[k] = (a[k] == F16_ONE && b[k] == F16_TWO) ? F16_THREE : 0xFFFF;
    }
    for (size_t k = 0; k < COUNT; k++)
        if (host[2][k] != F16_THREE) {
            print_error("out[%zu] = 0x%04x, expected 0x%04x\n", k, host[2][k], F16_THREE);
            fail();
        }
    for (int i = 2; i >= 0; i--) {
        ACL_OK(aclrtHostUnregister(host[i]));
        ACL_OK(aclrtFreeHost(host[i]));
    }
}

static void test_v2_mapped_pinned_zero_copy(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    const size_t size = 8 * ps;
    unsigned char *p = malloc_host_ok(size);
    fill_pattern(p, size, 1);
    unsigned char *d = register_ok(p, size, MAPPED);
    /* A distinct device address range reaching the same pages. */
    assert_ptr_not_equal(d, p);
    assert_false(ranges_overlap(d, size, p, size));
    assert_int_equal((uintptr_t)d % ps, 0);
    assert_pattern(d, size, 1); /* what was there before registering */
    assert_zero_copy(p, d, size, 2);
    /* Word-sized stores through each address, interleaved. */
    volatile uint64_t *hw = (volatile uint64_t *)p, *dw = (volatile uint64_t *)d;
    for (size_t i = 0; i < size / 8; i += 61) {
        dw[i] = 0x1122334455667788ull ^ i;
        assert_true(hw[i] == (0x1122334455667788ull ^ i));
        hw[i] = ~(uint64_t)i;
        assert_true(dw[i] == ~(uint64_t)i);
    }
    ACL_OK(aclrtHostUnregister(p));
    assert_not_registered(p);
    /* The host memory is intact and usable after unregistering. */
    fill_pattern(p, size, 5);
    assert_pattern(p, size, 5);
    ACL_OK(aclrtFreeHost(p));
}

/* aclrtHostRegister hands out the address aclrtHostGetDevicePointer reports. */
static void test_v1_returns_device_pointer(void **state)
{
    (void)state;
    const size_t size = 5 * page_sz() + 123;
    unsigned char *p = malloc_host_ok(size);
    void *d = NULL;
    ACL_OK(aclrtHostRegister(p, size, ACL_HOST_REGISTER_MAPPED, &d));
    track_reg(p);
    assert_non_null(d);
    assert_ptr_not_equal(d, p);
    assert_ptr_equal(dev_of(p), d);
    assert_zero_copy(p, (unsigned char *)d, size, 3);
    ACL_OK(aclrtHostUnregister(p));
    assert_not_registered(p);
    ACL_OK(aclrtFreeHost(p));
}

static void test_interior_pointers_and_last_byte(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    const size_t alloc = 6 * ps;
    const size_t size = 4 * ps; /* registered: the first four pages */
    unsigned char *p = malloc_host_ok(alloc);
    unsigned char *d = register_ok(p, size, MAPPED);
    const size_t offsets[] = {0, 1, 7, 63, ps - 1, ps, ps + 1, 2 * ps + 2049, 3 * ps, size - 2, size - 1};
    for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
        unsigned char *got = dev_of(p + offsets[i]);
        assert_ptr_equal(got, d + offsets[i]);
        /* Each translated address reaches its host byte. */
        *(volatile unsigned char *)got = (unsigned char)(0xA0 + i);
        assert_int_equal(p[offsets[i]], (unsigned char)(0xA0 + i));
    }
    /* The last byte of the range, through the device address. */
    unsigned char *last = dev_of(p + size - 1);
    *(volatile unsigned char *)last = 0x5E;
    assert_int_equal(p[size - 1], 0x5E);
    /* One past the end is inside the allocation but not registered. */
    assert_not_registered(p + size);
    assert_not_registered(p + alloc - 1);
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtFreeHost(p));
}

static void test_two_buffers_get_distinct_device_ranges(void **state)
{
    (void)state;
    const size_t size = 3 * page_sz();
    unsigned char *a = malloc_host_ok(size);
    unsigned char *b = malloc_host_ok(size);
    unsigned char *da = register_ok(a, size, MAPPED);
    unsigned char *db = register_ok(b, size, MAPPED);
    assert_false(ranges_overlap(da, size, db, size));
    assert_false(ranges_overlap(da, size, a, size) || ranges_overlap(da, size, b, size));
    assert_false(ranges_overlap(db, size, a, size) || ranges_overlap(db, size, b, size));
    fill_pattern(da, size, 10);
    fill_pattern(db, size, 11);
    assert_pattern(a, size, 10);
    assert_pattern(b, size, 11);
    ACL_OK(aclrtHostUnregister(a));
    /* b's mapping does not depend on a's. */
    assert_zero_copy(b, db, size, 12);
    ACL_OK(aclrtHostUnregister(b));
    ACL_OK(aclrtFreeHost(a));
    ACL_OK(aclrtFreeHost(b));
}

static void test_sub_ranges_of_one_allocation(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *p = malloc_host_ok(8 * ps);
    fill_pattern(p, 8 * ps, 40);
    unsigned char *d1 = register_ok(p + ps, 2 * ps, MAPPED);
    unsigned char *d2 = register_ok(p + 4 * ps, 3 * ps, MAPPED);
    assert_false(ranges_overlap(d1, 2 * ps, d2, 3 * ps));
    /* Each alias starts at its own sub-range, not at the allocation. */
    assert_memory_equal(d1, p + ps, 2 * ps);
    assert_memory_equal(d2, p + 4 * ps, 3 * ps);
    assert_ptr_equal(dev_of(p + ps + 5), d1 + 5);
    assert_ptr_equal(dev_of(p + 6 * ps), d2 + 2 * ps);
    assert_not_registered(p);
    assert_not_registered(p + 3 * ps);
    assert_not_registered(p + 7 * ps);
    assert_zero_copy(p + ps, d1, 2 * ps, 42);
    assert_zero_copy(p + 4 * ps, d2, 3 * ps, 43);

    /* Overlapping either one is refused; both keep working. */
    ACL_ERR(aclrtHostRegisterV2(p + 2 * ps, 3 * ps, MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps");
    ACL_ERR(aclrtHostRegisterV2(p, 2 * ps, MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps");
    ACL_ERR(aclrtHostRegisterV2(p + 6 * ps, 2 * ps, MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps");
    assert_not_registered(p);
    assert_ptr_equal(dev_of(p + ps), d1);
    assert_ptr_equal(dev_of(p + 4 * ps), d2);
    assert_zero_copy(p + ps, d1, 2 * ps, 44);
    assert_zero_copy(p + 4 * ps, d2, 3 * ps, 45);

    /* The gaps can be registered too. */
    unsigned char *d0 = register_ok(p, ps, MAPPED);
    unsigned char *d3 = register_ok(p + 3 * ps, ps, MAPPED);
    unsigned char *d7 = register_ok(p + 7 * ps, ps, MAPPED);
    assert_zero_copy(p, d0, ps, 46);
    assert_zero_copy(p + 3 * ps, d3, ps, 47);
    assert_zero_copy(p + 7 * ps, d7, ps, 48);
    void *bases[] = {p, p + ps, p + 3 * ps, p + 4 * ps, p + 7 * ps};
    for (size_t i = 0; i < 5; i++)
        ACL_OK(aclrtHostUnregister(bases[i]));
    ACL_OK(aclrtFreeHost(p));
}

/* Sizes are rounded up to whole pages and overlap checks use the rounded
   range (spec section 5 item 11). */
static void test_size_rounding_and_overlap(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *p = malloc_host_ok(4 * ps);
    unsigned char *d = register_ok(p, ps + 1, MAPPED); /* covers pages 0 and 1 */
    ACL_ERR(aclrtHostRegisterV2(p + ps, ps, MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps");
    void *v1 = OUT_SENTINEL;
    ACL_ERR(aclrtHostRegister(p + ps, 1, ACL_HOST_REGISTER_MAPPED, &v1), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
            "overlaps");
    assert_ptr_equal(v1, OUT_SENTINEL);
    unsigned char *d2 = register_ok(p + 2 * ps, 1, MAPPED); /* page 2 only */
    ACL_ERR(aclrtHostRegisterV2(p + 2 * ps, ps, MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps");
    unsigned char *d3 = register_ok(p + 3 * ps, ps - 100, MAPPED);
    assert_zero_copy(p, d, ps + 1, 50);
    assert_zero_copy(p + 2 * ps, d2, 1, 51);
    assert_zero_copy(p + 3 * ps, d3, ps - 100, 52);
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtHostUnregister(p + 2 * ps));
    ACL_OK(aclrtHostUnregister(p + 3 * ps));
    ACL_OK(aclrtFreeHost(p));
}

/* ---- bad inputs ------------------------------------------------------------------------ */

static void test_v1_bad_arguments(void **state)
{
    (void)state;
    const size_t size = 2 * page_sz();
    unsigned char *p = malloc_host_ok(size);
    void *d = OUT_SENTINEL;
    ACL_ERR(aclrtHostRegister(NULL, size, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    ACL_ERR(aclrtHostRegister(p, size, ACL_HOST_REGISTER_MAPPED, NULL), ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
    ACL_ERR(aclrtHostRegister(p, 0, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_INVALID_PARAM, "size is 0");
    const uint32_t types[] = {ACL_HOST_REGISTER_IOMEMORY, ACL_HOST_REGISTER_READONLY, 0x1, 0x2, 0x10,
                              (uint32_t)ACL_HOST_REG_PINNED, 0x4 | 0x8, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        ACL_ERR(aclrtHostRegister(p, size, (aclrtHostRegisterType)types[i], &d), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "not supported");
    assert_ptr_equal(d, OUT_SENTINEL);
    assert_not_registered(p);
    /* Nothing was registered: the valid call succeeds now. */
    ACL_OK(aclrtHostRegister(p, size, ACL_HOST_REGISTER_MAPPED, &d));
    track_reg(p);
    assert_zero_copy(p, (unsigned char *)d, size, 60);
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtFreeHost(p));
}

static void test_v2_bad_arguments(void **state)
{
    (void)state;
    const size_t size = 2 * page_sz();
    unsigned char *p = malloc_host_ok(size);
    ACL_ERR(aclrtHostRegisterV2(NULL, size, MAPPED), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    ACL_ERR(aclrtHostRegisterV2(p, 0, MAPPED), ACL_ERROR_INVALID_PARAM, "size is 0");
    /* Empty flag, or bits outside MAPPED | IOMEMORY | READONLY | PINNED. */
    const uint32_t undefined[] = {0, 0x1, 0x10, 0x20, 0x100, 0x8000, 0x20000000u, 0x80000000u,
                                  MAPPED | 0x1, PINNED | 0x40, MAPPED | PINNED | 0x80000000u};
    for (size_t i = 0; i < sizeof(undefined) / sizeof(undefined[0]); i++)
        ACL_ERR(aclrtHostRegisterV2(p, size, undefined[i]), ACL_ERROR_RT_PARAM_INVALID, "is invalid");
    /* Defined but unsupported bits. */
    const uint32_t unsupported[] = {ACL_HOST_REG_IOMEMORY, MAPPED | ACL_HOST_REG_IOMEMORY,
                                    ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY,
                                    MAPPED | PINNED | ACL_HOST_REG_IOMEMORY};
    for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
        ACL_ERR(aclrtHostRegisterV2(p, size, unsupported[i]), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported");
    /* READONLY restricts the device mapping: without MAPPED it means nothing
       (test_memcheck.c covers read-only registrations themselves). */
    ACL_ERR(aclrtHostRegisterV2(p, size, ACL_HOST_REG_READONLY), ACL_ERROR_RT_PARAM_INVALID, "ACL_HOST_REG_MAPPED");
    ACL_ERR(aclrtHostRegisterV2(p, size, PINNED | ACL_HOST_REG_READONLY), ACL_ERROR_RT_PARAM_INVALID,
            "ACL_HOST_REG_MAPPED");
    assert_not_registered(p);
    unsigned char *d = register_ok(p, size, MAPPED);
    assert_zero_copy(p, d, size, 61);
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtFreeHost(p));
}

static void test_unaligned_ptr(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *p = malloc_host_ok(4 * ps);
    unsigned char *h = heap_pages(4);
    unsigned char *bases[] = {p, h};
    const size_t offsets[] = {1, 8, 64, 512, 2048, 4095, ps + 100};
    for (size_t b = 0; b < 2; b++) {
        for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
            unsigned char *q = bases[b] + offsets[i];
            void *d = OUT_SENTINEL;
            ACL_ERR(aclrtHostRegisterV2(q, ps, MAPPED), ACL_ERROR_RT_PARAM_INVALID, "4 KiB aligned");
            ACL_ERR(aclrtHostRegister(q, ps, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_RT_PARAM_INVALID,
                    "4 KiB aligned");
            assert_ptr_equal(d, OUT_SENTINEL);
            if (b == 1) /* PINNED is for pageable memory */
                ACL_ERR(aclrtHostRegisterV2(q, ps, PINNED), ACL_ERROR_RT_PARAM_INVALID, "4 KiB aligned");
            assert_not_registered(q);
        }
        /* The aligned base registers fine afterwards. */
        unsigned char *d = register_ok(bases[b], 3 * ps, MAPPED);
        assert_zero_copy(bases[b], d, 3 * ps, 62);
        ACL_OK(aclrtHostUnregister(bases[b]));
    }
    ACL_OK(aclrtFreeHost(p));
    free(h);
}

static void test_size_or_range_past_address_space(void **state)
{
    (void)state;
    unsigned char *p = malloc_host_ok(page_sz());
    void *d = OUT_SENTINEL;
    ACL_ERR(aclrtHostRegisterV2(p, UINT64_MAX, MAPPED), ACL_ERROR_RT_PARAM_INVALID, "past the end");
    ACL_ERR(aclrtHostRegisterV2(p, UINT64_MAX - 100, PINNED | MAPPED), ACL_ERROR_RT_PARAM_INVALID, "past the end");
    ACL_ERR(aclrtHostRegister(p, UINT64_MAX, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_RT_PARAM_INVALID,
            "past the end");
    void *top = (void *)(UINTPTR_MAX & ~(uintptr_t)4095);
    ACL_ERR(aclrtHostRegisterV2(top, 4096, MAPPED), ACL_ERROR_RT_PARAM_INVALID, "past the end");
    ACL_ERR(aclrtHostRegisterV2((char *)top - 4096, 3 * 4096, PINNED), ACL_ERROR_RT_PARAM_INVALID, "past the end");
    ACL_ERR(aclrtHostRegister(top, 1, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_RT_PARAM_INVALID, "past the end");
    assert_ptr_equal(d, OUT_SENTINEL);
    assert_not_registered(p);
    ACL_OK(aclrtFreeHost(p));
}

static void test_overlap_refused_first_keeps_working(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *p = malloc_host_ok(8 * ps);
    unsigned char *d = register_ok(p + 2 * ps, 2 * ps, MAPPED);
    struct {
        size_t off, len;
    } clash[] = {
        {2 * ps, 2 * ps}, /* identical */
        {0, 3 * ps},      /* ends inside */
        {3 * ps, 4 * ps}, /* starts inside */
        {0, 8 * ps},      /* contains it */
        {3 * ps, 1},      /* inside it */
        {ps, ps + 1},     /* reaches it through rounding */
    };
    for (size_t i = 0; i < sizeof(clash) / sizeof(clash[0]); i++) {
        void *v1 = OUT_SENTINEL;
        ACL_ERR(aclrtHostRegisterV2(p + clash[i].off, clash[i].len, MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                "overlaps the registered range");
        ACL_ERR(aclrtHostRegister(p + clash[i].off, clash[i].len, ACL_HOST_REGISTER_MAPPED, &v1),
                ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps the registered range");
        assert_ptr_equal(v1, OUT_SENTINEL);
    }
    assert_not_registered(p);
    assert_not_registered(p + 4 * ps);
    /* The first registration is untouched. */
    assert_ptr_equal(dev_of(p + 2 * ps), d);
    assert_ptr_equal(dev_of(p + 3 * ps + 9), d + ps + 9);
    assert_zero_copy(p + 2 * ps, d, 2 * ps, 63);
    /* Adjacent ranges are fine. */
    unsigned char *lo = register_ok(p, 2 * ps, MAPPED);
    unsigned char *hi = register_ok(p + 4 * ps, 4 * ps, MAPPED);
    assert_zero_copy(p, lo, 2 * ps, 64);
    assert_zero_copy(p + 4 * ps, hi, 4 * ps, 65);
    assert_zero_copy(p + 2 * ps, d, 2 * ps, 66);
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtHostUnregister(p + 2 * ps));
    ACL_OK(aclrtHostUnregister(p + 4 * ps));
    ACL_OK(aclrtFreeHost(p));
}

/* ACL_HOST_REG_PINNED is for pageable memory (spec section 5 item 14). */
static void test_pinned_flag_on_malloc_host_memory(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *p = malloc_host_ok(4 * ps);
    ACL_ERR(aclrtHostRegisterV2(p, 4 * ps, PINNED), ACL_ERROR_RT_PARAM_INVALID, "already pinned");
    ACL_ERR(aclrtHostRegisterV2(p, 4 * ps, PINNED | MAPPED), ACL_ERROR_RT_PARAM_INVALID, "already pinned");
    ACL_ERR(aclrtHostRegisterV2(p + ps, ps, PINNED), ACL_ERROR_RT_PARAM_INVALID, "already pinned");
    assert_not_registered(p);
    assert_not_registered(p + ps);
    unsigned char *d = register_ok(p, 4 * ps, MAPPED);
    assert_zero_copy(p, d, 4 * ps, 67);
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtFreeHost(p));
}

static void test_range_partly_outside_its_allocation(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *p = malloc_host_ok(2 * ps);
    void *v1 = OUT_SENTINEL;
    ACL_ERR(aclrtHostRegisterV2(p, 3 * ps, MAPPED), ACL_ERROR_RT_PARAM_INVALID, "not inside the aclrtMallocHost");
    ACL_ERR(aclrtHostRegisterV2(p, 2 * ps + 1, MAPPED), ACL_ERROR_RT_PARAM_INVALID, "not inside the aclrtMallocHost");
    ACL_ERR(aclrtHostRegisterV2(p + ps, 2 * ps, MAPPED), ACL_ERROR_RT_PARAM_INVALID,
            "not inside the aclrtMallocHost");
    ACL_ERR(aclrtHostRegisterV2(p - ps, 2 * ps, MAPPED), ACL_ERROR_RT_PARAM_INVALID,
            "not inside the aclrtMallocHost");
    ACL_ERR(aclrtHostRegister(p, 3 * ps, ACL_HOST_REGISTER_MAPPED, &v1), ACL_ERROR_RT_PARAM_INVALID,
            "not inside the aclrtMallocHost");
    assert_ptr_equal(v1, OUT_SENTINEL);
    assert_not_registered(p);
    assert_not_registered(p + ps);
    unsigned char *d = register_ok(p, 2 * ps, MAPPED);
    assert_zero_copy(p, d, 2 * ps, 68);
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtFreeHost(p));

    /* An allocation of 4097 bytes owns two whole pages: both register. */
    unsigned char *q = malloc_host_ok(ps + 1);
    unsigned char *dq = register_ok(q, 2 * ps, MAPPED);
    assert_zero_copy(q, dq, ps + 1, 69);
    ACL_OK(aclrtHostUnregister(q));
    ACL_OK(aclrtFreeHost(q));
}

static void test_register_device_address(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *p = malloc_host_ok(4 * ps);
    unsigned char *d = register_ok(p, 4 * ps, MAPPED);
    unsigned char *h = heap_pages(4);
    unsigned char *dh = register_ok(h, 4 * ps, MAPPED); /* pageable, migrated */
    unsigned char *aliases[] = {d, dh};
    for (size_t i = 0; i < 2; i++) {
        unsigned char *a = aliases[i];
        void *v1 = OUT_SENTINEL;
        ACL_ERR(aclrtHostRegisterV2(a, 4 * ps, MAPPED), ACL_ERROR_RT_PARAM_INVALID, "device address");
        ACL_ERR(aclrtHostRegisterV2(a + ps, ps, MAPPED), ACL_ERROR_RT_PARAM_INVALID, "device address");
        ACL_ERR(aclrtHostRegisterV2(a, ps, PINNED), ACL_ERROR_RT_PARAM_INVALID, "device address");
        ACL_ERR(aclrtHostRegister(a, 4 * ps, ACL_HOST_REGISTER_MAPPED, &v1), ACL_ERROR_RT_PARAM_INVALID,
                "device address");
        assert_ptr_equal(v1, OUT_SENTINEL);
        assert_not_registered(a);
    }
    assert_ptr_equal(dev_of(p), d);
    assert_ptr_equal(dev_of(h), dh);
    assert_zero_copy(p, d, 4 * ps, 70);
    assert_zero_copy(h, dh, 4 * ps, 71);
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtHostUnregister(h));
    ACL_OK(aclrtFreeHost(p));
    free(h);
}

/* True when no page of [p, p+n) is mapped. */
static bool is_unmapped(void *p, size_t n)
{
    for (size_t off = 0; off < n; off += page_sz()) {
        unsigned char vec;
        if (mincore((char *)p + off, 1, &vec) == 0 || errno != ENOMEM)
            return false;
    }
    return true;
}

/* Unmapped ranges: never mapped, just unmapped, and half unmapped. */
struct unmapped_cases {
    unsigned char *half; /* a private page followed by an unmapped one */
    struct {
        unsigned char *p;
        size_t n;
    } c[5];
};

static void make_unmapped_cases(struct unmapped_cases *u)
{
    const size_t ps = page_sz();
    /* Never mapped in a normal process: well below the program and the
       libraries, above mmap_min_addr. */
    unsigned char *low = (unsigned char *)(uintptr_t)0x20000;
    u->half = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(u->half != MAP_FAILED);
    assert_int_equal(munmap(u->half + ps, ps), 0);
    unsigned char *gone = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(gone != MAP_FAILED);
    assert_int_equal(munmap(gone, 2 * ps), 0);
    u->c[0].p = low, u->c[0].n = ps;
    u->c[1].p = low, u->c[1].n = 3 * ps;
    u->c[2].p = gone, u->c[2].n = 2 * ps;
    u->c[3].p = u->half, u->c[3].n = 2 * ps;
    u->c[4].p = u->half, u->c[4].n = ps + 1;
}

/* Whether case i is (still) what it should be: someone may have mapped
   the never/just unmapped addresses meanwhile. */
static bool unmapped_case_valid(const struct unmapped_cases *u, size_t i)
{
    if (u->c[i].p == u->half)
        return is_unmapped(u->half + page_sz(), page_sz());
    return is_unmapped(u->c[i].p, u->c[i].n);
}

static void test_register_unmapped_memory(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    struct unmapped_cases u;
    make_unmapped_cases(&u);
    unsigned char *half = u.half;
    int tested = 0;
    for (size_t i = 0; i < 5; i++) {
        if (!unmapped_case_valid(&u, i))
            continue;
        tested++;
        void *v1 = OUT_SENTINEL;
        ACL_ERR(aclrtHostRegisterV2(u.c[i].p, u.c[i].n, MAPPED), ACL_ERROR_RT_PARAM_INVALID, "not mapped");
        ACL_ERR(aclrtHostRegisterV2(u.c[i].p, u.c[i].n, MAPPED | PINNED), ACL_ERROR_RT_PARAM_INVALID, "not mapped");
        ACL_ERR(aclrtHostRegister(u.c[i].p, u.c[i].n, ACL_HOST_REGISTER_MAPPED, &v1), ACL_ERROR_RT_PARAM_INVALID,
                "not mapped");
        assert_ptr_equal(v1, OUT_SENTINEL);
        assert_not_registered(u.c[i].p);
    }
    assert_true(tested > 0);
    /* The mapped page of `half` registers on its own. */
    fill_pattern(half, ps, 72);
    unsigned char *d = register_ok(half, ps, MAPPED);
    assert_pattern(d, ps, 72);
    assert_zero_copy(half, d, ps, 73);
    ACL_OK(aclrtHostUnregister(half));
    assert_pattern(half, ps, 74);
    assert_int_equal(munmap(half, ps), 0);
}

/*
 * ACL_HOST_REG_PINNED alone on unmapped memory: 107000 as well.
 *
 * (Regression: unmapped memory was only noticed through mlock failing,
 * which sanitizer runtimes stub out.)
 */
static void test_register_unmapped_memory_pinned_only(void **state)
{
    (void)state;
    struct unmapped_cases u;
    make_unmapped_cases(&u);
    int tested = 0;
    for (size_t i = 0; i < 5; i++) {
        if (!unmapped_case_valid(&u, i))
            continue;
        tested++;
        oacl_test_clear_msgs();
        aclError rc = aclrtHostRegisterV2(u.c[i].p, u.c[i].n, PINNED);
        char msg[768];
        const char *m_ = aclGetRecentErrMsg();
        snprintf(msg, sizeof(msg), "%s", m_ ? m_ : "");
        if (rc == ACL_SUCCESS)
            ACL_OK(aclrtHostUnregister(u.c[i].p)); /* keep the registry clean */
        if (rc != ACL_ERROR_RT_PARAM_INVALID || !strstr(msg, "not mapped")) {
            assert_int_equal(munmap(u.half, page_sz()), 0);
            fail_msg("PINNED registration of unmapped [%p, +%zu) returned %d (\"%s\"), expected %d (\"not mapped\")",
                     (void *)u.c[i].p, u.c[i].n, rc, msg, ACL_ERROR_RT_PARAM_INVALID);
        }
        assert_not_registered(u.c[i].p);
    }
    assert_int_equal(munmap(u.half, page_sz()), 0);
    assert_true(tested > 0);
}

static void test_get_device_pointer_bad_inputs(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *p = malloc_host_ok(4 * ps);
    unsigned char *d = register_ok(p, 2 * ps, MAPPED);
    unsigned char *h = heap_pages(2);
    register_ok(h, 2 * ps, PINNED);
    void *out = OUT_SENTINEL;
    ACL_ERR(aclrtHostGetDevicePointer(NULL, &out, 0), ACL_ERROR_INVALID_PARAM, "pHost is NULL");
    ACL_ERR(aclrtHostGetDevicePointer(p, NULL, 0), ACL_ERROR_INVALID_PARAM, "pDevice is NULL");
    ACL_ERR(aclrtHostGetDevicePointer(p, &out, 1), ACL_ERROR_INVALID_PARAM, "must be 0");
    ACL_ERR(aclrtHostGetDevicePointer(p, &out, 0x80000000u), ACL_ERROR_INVALID_PARAM, "must be 0");
    ACL_ERR(aclrtHostGetDevicePointer(p, &out, MAPPED), ACL_ERROR_INVALID_PARAM, "must be 0");
    /* Registered without MAPPED: no device address. */
    ACL_ERR(aclrtHostGetDevicePointer(h, &out, 0), ACL_ERROR_RT_PARAM_INVALID, "without ACL_HOST_REG_MAPPED");
    ACL_ERR(aclrtHostGetDevicePointer(h + ps + 3, &out, 0), ACL_ERROR_RT_PARAM_INVALID,
            "without ACL_HOST_REG_MAPPED");
    /* Not registered at all. */
    int local = 0;
    void *heap = malloc(32);
    assert_non_null(heap);
    void *unregistered[] = {p + 2 * ps, p + 4 * ps - 1, heap, &local, d, d + ps, p - 1};
    for (size_t i = 0; i < sizeof(unregistered) / sizeof(unregistered[0]); i++)
        ACL_ERR(aclrtHostGetDevicePointer(unregistered[i], &out, 0), ACL_ERROR_RT_PARAM_INVALID,
                "not inside any registered host range");
    free(heap);
    assert_ptr_equal(out, OUT_SENTINEL);
    assert_ptr_equal(dev_of(p), d);
    ACL_OK(aclrtHostUnregister(h));
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtFreeHost(p));
    free(h);
}

static void test_unregister_bad_inputs(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *p = malloc_host_ok(4 * ps);
    unsigned char *d = register_ok(p + ps, 2 * ps, MAPPED);
    ACL_ERR(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM, "ptr is NULL");
    /* Not registered: outside the registration, or its device address. */
    ACL_ERR(aclrtHostUnregister(p), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "is not registered");
    ACL_ERR(aclrtHostUnregister(p + 3 * ps), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "is not registered");
    ACL_ERR(aclrtHostUnregister(d), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "is not registered");
    int local = 0;
    ACL_ERR(aclrtHostUnregister(&local), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "is not registered");
    /* Interior pointers: the base is required (spec section 5 item 13). */
    ACL_ERR(aclrtHostUnregister(p + ps + 1), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "pass its base address");
    ACL_ERR(aclrtHostUnregister(p + 2 * ps), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "pass its base address");
    ACL_ERR(aclrtHostUnregister(p + 3 * ps - 1), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "pass its base address");
    /* Still registered and working. */
    assert_ptr_equal(dev_of(p + ps), d);
    assert_zero_copy(p + ps, d, 2 * ps, 75);
    ACL_OK(aclrtHostUnregister(p + ps));
    /* Twice. */
    ACL_ERR(aclrtHostUnregister(p + ps), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "is not registered");
    assert_pattern(p + ps, 2 * ps, 76);
    ACL_OK(aclrtFreeHost(p));
}

/* ---- pageable memory ----------------------------------------------------------------------- */

/* Whole pages of private memory are migrated: distinct device address,
   contents kept at registration and after unregistration. */
static void check_pageable_migrated(unsigned char *h, size_t size, bool v1)
{
    fill_pattern(h, size, 80);
    unsigned char *d;
    if (v1) {
        void *out = NULL;
        ACL_OK(aclrtHostRegister(h, size, ACL_HOST_REGISTER_MAPPED, &out));
        track_reg(h);
        d = out;
        assert_ptr_equal(dev_of(h), d);
    } else {
        d = register_ok(h, size, MAPPED);
    }
    assert_ptr_not_equal(d, h);
    assert_false(ranges_overlap(d, size, h, size));
    /* Contents at registration time, seen from both sides. */
    assert_pattern(h, size, 80);
    assert_pattern(d, size, 80);
    assert_zero_copy(h, d, size, 81);
    assert_ptr_equal(dev_of(h + size - 1), d + size - 1);
    fill_pattern(d, size, 83); /* last writes through the device address */
    ACL_OK(aclrtHostUnregister(h));
    assert_not_registered(h);
    /* Contents survive the unregistration; the memory stays usable. */
    assert_pattern(h, size, 83);
    fill_pattern(h, size, 84);
    assert_pattern(h, size, 84);
}

static void test_pageable_whole_pages_migrated(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    /* Small (heap) and large (mapped by the allocator) buffers, V2 and V1. */
    const size_t pages[] = {1, 4, 300};
    for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
        for (int v1 = 0; v1 < 2; v1++) {
            unsigned char *h = heap_pages(pages[i]);
            check_pageable_migrated(h, pages[i] * ps, v1);
            free(h);
        }
    /* A page-aligned part in the middle of a larger heap block. */
    unsigned char *block = heap_pages(6);
    memset(block, 0xEE, 6 * ps);
    check_pageable_migrated(block + 2 * ps, 2 * ps, false);
    for (size_t i = 0; i < 2 * ps; i++)
        if (block[i] != 0xEE || block[4 * ps + i] != 0xEE)
            fail_msg("byte outside the registered pages changed");
    free(block);
    /* Private anonymous mmap memory. */
    unsigned char *m = mmap(NULL, 8 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    check_pageable_migrated(m, 8 * ps, false);
    check_pageable_migrated(m + ps, 3 * ps, true);
    assert_int_equal(munmap(m, 8 * ps), 0);
}

/* A range ending inside a page: the device address is the host address. */
static void test_pageable_partial_page_identity(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    const size_t sizes[] = {1, 100, ps - 1, ps + 1, 3 * ps + 5};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        unsigned char *h = heap_pages(4);
        fill_pattern(h, sizes[i], 90);
        unsigned char *d = register_ok(h, sizes[i], MAPPED);
        assert_ptr_equal(d, h);
        assert_ptr_equal(dev_of(h + sizes[i] - 1), h + sizes[i] - 1);
        assert_pattern(h, sizes[i], 90);
        ACL_OK(aclrtHostUnregister(h));
        assert_pattern(h, sizes[i], 90);
        free(h);
    }
    /* V1 reports the same identity address. */
    unsigned char *h = heap_pages(2);
    void *d = NULL;
    ACL_OK(aclrtHostRegister(h, ps + 10, ACL_HOST_REGISTER_MAPPED, &d));
    track_reg(h);
    assert_ptr_equal(d, h);
    ACL_OK(aclrtHostUnregister(h));
    free(h);
}

/* MAP_SHARED user memory is aliased directly, whatever its size. */
static void test_pageable_shared_memory_aliased(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    const size_t len = 6 * ps;
    unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    fill_pattern(m, len, 100);
    unsigned char *d = register_ok(m, len, MAPPED);
    assert_ptr_not_equal(d, m);
    assert_false(ranges_overlap(d, len, m, len));
    assert_pattern(d, len, 100);
    assert_zero_copy(m, d, len, 101);
    ACL_OK(aclrtHostUnregister(m));
    assert_pattern(m, len, 102);

    /* A size that is not a page multiple is aliased as well. */
    unsigned char *d2 = register_ok(m + ps, 2 * ps + 77, MAPPED);
    assert_ptr_not_equal(d2, m + ps);
    assert_zero_copy(m + ps, d2, 2 * ps + 77, 103);
    ACL_OK(aclrtHostUnregister(m + ps));
    assert_int_equal(munmap(m, len), 0);

    /* File-backed shared memory (memfd). */
    int fd = memfd_create("oacl-test", MFD_CLOEXEC);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)len), 0);
    unsigned char *f = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    assert_true(f != MAP_FAILED);
    close(fd);
    fill_pattern(f, len, 104);
    unsigned char *df = register_ok(f, len, MAPPED);
    assert_ptr_not_equal(df, f);
    assert_pattern(df, len, 104);
    assert_zero_copy(f, df, len, 105);
    ACL_OK(aclrtHostUnregister(f));
    assert_pattern(f, len, 106);
    assert_int_equal(munmap(f, len), 0);
}

/* ACL_HOST_REG_PINNED alone locks pageable memory, maps nothing. */
static void test_pageable_pinned_only(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    const size_t size = 64 * ps;
    unsigned char *h = heap_pages(64);
    fill_pattern(h, size, 110);
    bool check_lock = vm_locked_kib() >= 0 && can_lock_more(size);
    long before = vm_locked_kib();
    assert_null(register_ok(h, size, PINNED));
    if (check_lock)
        assert_true(vm_locked_kib() - before >= (long)(size / KIB));
    void *out = OUT_SENTINEL;
    ACL_ERR(aclrtHostGetDevicePointer(h, &out, 0), ACL_ERROR_RT_PARAM_INVALID, "without ACL_HOST_REG_MAPPED");
    assert_ptr_equal(out, OUT_SENTINEL);
    /* A pinned-only registration still blocks overlapping ones. */
    ACL_ERR(aclrtHostRegisterV2(h + ps, ps, MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps");
    ACL_ERR(aclrtHostRegisterV2(h, size, PINNED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps");
    assert_pattern(h, size, 110);
    fill_pattern(h, size, 111);
    ACL_OK(aclrtHostUnregister(h));
    if (check_lock)
        assert_int_equal(vm_locked_kib(), before);
    assert_pattern(h, size, 111);
    free(h);

    /* Also on a range that ends inside a page. */
    h = heap_pages(2);
    assert_null(register_ok(h, ps + 1, PINNED));
    ACL_ERR(aclrtHostGetDevicePointer(h, &out, 0), ACL_ERROR_RT_PARAM_INVALID, "without ACL_HOST_REG_MAPPED");
    ACL_OK(aclrtHostUnregister(h));
    free(h);
}

static void test_pageable_pinned_and_mapped(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    const size_t size = 16 * ps;
    unsigned char *h = heap_pages(16);
    fill_pattern(h, size, 120);
    bool check_lock = vm_locked_kib() >= 0 && can_lock_more(size);
    long before = vm_locked_kib();
    unsigned char *d = register_ok(h, size, PINNED | MAPPED);
    if (check_lock)
        assert_true(vm_locked_kib() - before >= (long)(size / KIB));
    assert_ptr_not_equal(d, h);
    assert_pattern(d, size, 120);
    assert_zero_copy(h, d, size, 121);
    ACL_OK(aclrtHostUnregister(h));
    if (check_lock)
        assert_int_equal(vm_locked_kib(), before);
    assert_pattern(h, size, 122);
    free(h);

    /* Partial last page: identity, pinned. */
    h = heap_pages(3);
    d = register_ok(h, 2 * ps + 1, PINNED | MAPPED);
    assert_ptr_equal(d, h);
    ACL_OK(aclrtHostUnregister(h));
    free(h);
}

static void test_pageable_repeated_register_unregister(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    const size_t size = 4 * ps;
    unsigned char *h = heap_pages(4);
    fill_pattern(h, size, 0);
    for (uint32_t i = 0; i < 100; i++) {
        const uint32_t flags = (i % 3 == 2) ? (MAPPED | PINNED) : MAPPED;
        unsigned char *d;
        if (i % 3 == 1) {
            void *out = NULL;
            ACL_OK(aclrtHostRegister(h, size, ACL_HOST_REGISTER_MAPPED, &out));
            d = out;
        } else {
            ACL_OK(aclrtHostRegisterV2(h, size, flags));
            d = dev_of(h);
        }
        assert_ptr_not_equal(d, h);
        assert_pattern(d, size, i);     /* what the last round left */
        fill_pattern(d, size, i + 1);   /* handed to the next round */
        assert_pattern(h, size, i + 1); /* zero copy */
        ACL_OK(aclrtHostUnregister(h));
        assert_pattern(h, size, i + 1);
    }
    track_reg(h);
    free(h);

    /* The same on pinned memory. */
    unsigned char *p = malloc_host_ok(size);
    fill_pattern(p, size, 0);
    for (uint32_t i = 0; i < 100; i++) {
        ACL_OK(aclrtHostRegisterV2(p, size, MAPPED));
        unsigned char *d = dev_of(p);
        assert_pattern(d, size, i);
        fill_pattern(d, size, i + 1);
        ACL_OK(aclrtHostUnregister(p));
        assert_pattern(p, size, i + 1);
    }
    track_reg(p);
    ACL_OK(aclrtFreeHost(p));
}

/* A buffer on the stack of the thread running the test (the main thread). */
/* Uses n frames of stack below the caller; returns the sum of (k & 0xff),
   k = 1..n, read back from each frame. */
static __attribute__((noinline)) unsigned depth_probe(unsigned n)
{
    volatile unsigned char pad[512];
    pad[n % sizeof(pad)] = (unsigned char)n;
    return n == 0 ? pad[0] : depth_probe(n - 1) + pad[n % sizeof(pad)];
}

static unsigned depth_expected(unsigned n)
{
    unsigned sum = 0;
    for (unsigned k = 1; k <= n; k++)
        sum += k & 0xff;
    return sum;
}

static void test_main_stack_buffer(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    _Alignas(4096) unsigned char buf[3 * 4096];
    assert_int_equal((uintptr_t)buf % ps, 0);
    fill_pattern(buf, sizeof(buf), 130);
    unsigned char *d = register_ok(buf, 2 * ps, MAPPED);
    if (d != buf)
        assert_false(ranges_overlap(d, 2 * ps, buf, 2 * ps));
    assert_pattern(d, 2 * ps, 130);
    assert_zero_copy(buf, d, 2 * ps, 131);
    assert_ptr_equal(dev_of(buf + 2 * ps - 1), d + 2 * ps - 1);
    /* Calls deeper into the stack while it is registered. */
    assert_int_equal(depth_probe(64), depth_expected(64));
    ACL_OK(aclrtHostUnregister(buf));
    assert_pattern(buf, 2 * ps, 132);
    assert_int_equal(depth_probe(256), depth_expected(256));
    /* A range ending inside a page: identity on any memory. */
    d = register_ok(buf, ps + 8, MAPPED);
    assert_ptr_equal(d, buf);
    ACL_OK(aclrtHostUnregister(buf));
}

/* A buffer on the stack of another thread (private anonymous memory). */
struct stack_run {
    int step; /* 0 = passed, else the failed step */
    aclError rc;
    void *host, *dev;
};

static void *stack_thread(void *arg)
{
    struct stack_run *r = arg;
    _Alignas(4096) unsigned char buf[4 * 4096];
    const size_t ps = page_sz();
    r->host = buf;
    fill_pattern(buf, sizeof(buf), 140);
    if ((r->rc = aclrtSetDevice(0)) != ACL_SUCCESS)
        return r->step = 1, NULL;
    if ((r->rc = aclrtHostRegisterV2(buf, 3 * ps, MAPPED)) != ACL_SUCCESS)
        return r->step = 2, NULL;
    if ((r->rc = aclrtHostGetDevicePointer(buf, &r->dev, 0)) != ACL_SUCCESS)
        return r->step = 3, NULL;
    if (pattern_mismatch(r->dev, 3 * ps, 140) != SIZE_MAX)
        return r->step = 4, NULL;
    fill_pattern(r->dev, 3 * ps, 141);
    if (pattern_mismatch(buf, 3 * ps, 141) != SIZE_MAX)
        return r->step = 5, NULL;
    if (depth_probe(64) != depth_expected(64))
        return r->step = 6, NULL;
    if ((r->rc = aclrtHostUnregister(buf)) != ACL_SUCCESS)
        return r->step = 7, NULL;
    if (pattern_mismatch(buf, 3 * ps, 141) != SIZE_MAX)
        return r->step = 8, NULL;
    for (size_t i = 3 * ps; i < sizeof(buf); i++) /* the page left out */
        if (buf[i] != pattern_byte(140, i))
            return r->step = 9, NULL;
    if ((r->rc = aclrtResetDevice(0)) != ACL_SUCCESS)
        return r->step = 10, NULL;
    r->step = 0;
    return NULL;
}

static void test_thread_stack_buffer(void **state)
{
    (void)state;
    struct stack_run r = {.step = -1};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, stack_thread, &r), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    if (r.step != 0) {
        print_error("thread stack buffer: step %d failed (code %d)\n", r.step, r.rc);
        fail();
    }
    assert_non_null(r.dev);
    track_reg(r.host);
}

/* A static buffer (.bss of the test program). */
static _Alignas(4096) unsigned char g_static_buf[4 * 4096];

static void test_static_buffer(void **state)
{
    (void)state;
    const size_t size = sizeof(g_static_buf);
    fill_pattern(g_static_buf, size, 150);
    unsigned char *d = register_ok(g_static_buf, size, MAPPED);
    assert_pattern(d, size, 150);
    assert_zero_copy(g_static_buf, d, size, 151);
    ACL_OK(aclrtHostUnregister(g_static_buf));
    assert_pattern(g_static_buf, size, 152);
    fill_pattern(g_static_buf, size, 153);
    assert_pattern(g_static_buf, size, 153);
}

/*
 * Memory the user locked with mlock() stays locked through a MAPPED
 * registration and after it, although its pages move in and out of shared
 * memory.
 *
 * (Regression: migrating private pages used to drop the program's lock,
 * and unregistering a PINNED range unlocked pages the program had locked.)
 */
static void test_user_mlock_survives_registration(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    const size_t size = 8 * ps;
    const long kib = (long)(size / KIB);
    if (!can_lock_more(2 * size))
        skip(); /* locking cannot be observed (or done) here */
    unsigned char *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    fill_pattern(m, size, 210);
    long base = vm_locked_kib();
    assert_int_equal(mlock(m, size), 0);
    long user = vm_locked_kib();
    assert_true(user - base >= kib);

    void *d = register_ok(m, size, MAPPED);
    long while_mapped = vm_locked_kib();
    assert_pattern(d, size, 210);
    ACL_OK(aclrtHostUnregister(m));
    long after_mapped = vm_locked_kib();
    /* A PINNED registration of memory the program locked itself unlocks it
       when removed (documented: the runtime cannot tell the two locks
       apart cheaply); the memory itself is untouched. */
    register_ok(m, size, PINNED);
    ACL_OK(aclrtHostUnregister(m));
    long after_pinned = vm_locked_kib();

    assert_pattern(m, size, 210);
    munlock(m, size);
    assert_int_equal(munmap(m, size), 0);
    if (while_mapped < user || after_mapped != user || after_pinned != base)
        fail_msg("the user's mlock() of %ld KiB: VmLck %ld KiB before registering, %ld KiB while registered "
                 "MAPPED, %ld KiB after unregistering; %ld KiB after a PINNED registration and its removal "
                 "(expected %ld)",
                 kib, user, while_mapped, after_mapped, after_pinned, base);
}

/* ---- registry sanity ------------------------------------------------------------------------- */

static void test_reregister_after_free_and_reallocation(void **state)
{
    (void)state;
    const size_t size = 4 * page_sz();
    for (int round = 0; round < 4; round++) {
        unsigned char *p = malloc_host_ok(size);
        unsigned char *d = register_ok(p, size, MAPPED);
        assert_zero_copy(p, d, size, 160 + (uint32_t)round);
        ACL_OK(aclrtHostUnregister(p));
        ACL_OK(aclrtFreeHost(p));
        /* Often the same address again: a fresh start. */
        unsigned char *q = malloc_host_ok(size);
        assert_not_registered(q);
        unsigned char *dq = register_ok(q, size, MAPPED);
        assert_zero_copy(q, dq, size, 170 + (uint32_t)round);
        ACL_OK(aclrtHostUnregister(q));
        ACL_OK(aclrtFreeHost(q));
    }
    for (int round = 0; round < 4; round++) {
        unsigned char *h = heap_pages(4);
        unsigned char *d = register_ok(h, size, MAPPED);
        assert_zero_copy(h, d, size, 180 + (uint32_t)round);
        ACL_OK(aclrtHostUnregister(h));
        free(h);
        unsigned char *k = heap_pages(4);
        assert_not_registered(k);
        unsigned char *dk = register_ok(k, size, MAPPED | PINNED);
        assert_zero_copy(k, dk, size, 190 + (uint32_t)round);
        ACL_OK(aclrtHostUnregister(k));
        free(k);
    }
}

/* ---- ranges made of several mappings -------------------------------------------------------- */

/*
 * A shared mapping whose second page was unmapped: the range is not
 * (entirely) mapped memory, so registering it must fail with 107000.
 *
 * (Regression: an alias used to be made from the first mapping alone and
 * ran past its end.)
 */
static void test_shared_range_partly_unmapped(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *m = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    assert_int_equal(munmap(m + ps, ps), 0);
    oacl_test_clear_msgs();
    aclError rc = aclrtHostRegisterV2(m, 2 * ps, MAPPED);
    char msg[768];
    const char *m_ = aclGetRecentErrMsg();
    snprintf(msg, sizeof(msg), "%s", m_ ? m_ : "");
    if (rc == ACL_SUCCESS)
        ACL_OK(aclrtHostUnregister(m)); /* keep the registry clean for the other tests */
    assert_int_equal(munmap(m, ps), 0);
    if (rc != ACL_ERROR_RT_PARAM_INVALID || !strstr(msg, "not mapped")) {
        print_error("aclrtHostRegisterV2 of a half-unmapped shared range returned %d (\"%s\"), expected %d "
                    "(\"not mapped\")\n",
                    rc, msg, ACL_ERROR_RT_PARAM_INVALID);
        fail();
    }
}

/*
 * A range of whole, mapped pages made of a shared page followed by a
 * private page: registering it must work, and the device address must
 * reach every host byte.
 *
 * (Regression: as above.)
 */
static void test_range_spanning_shared_and_private_pages(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    unsigned char *r = mmap(NULL, 2 * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(r != MAP_FAILED);
    assert_true(mmap(r, ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == r);
    assert_true(mmap(r + ps, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
                r + ps);
    fill_pattern(r, 2 * ps, 200);
    unsigned char *d = register_ok(r, 2 * ps, MAPPED);
    char why[256];
    const char *bad = zero_copy_in_child(r, d, 2 * ps, why, sizeof(why));
    ACL_OK(aclrtHostUnregister(r));
    assert_int_equal(munmap(r, 2 * ps), 0);
    if (bad)
        fail_msg("%s", bad);
}

/* The host -> device index stays exact under churn: separately mapped
 * pages (each its own alias), identity-mapped sub-page ranges on adjacent
 * pages (one shared offset, the case an index could merge wrongly) and
 * pinned-only registrations (no device address), registered and
 * unregistered in random order; every page is checked after every step. */
static void test_translation_index_under_churn(void **state)
{
    (void)state;
    enum { P = 48, STEPS = 1500 };
    const size_t ps = page_sz();
    unsigned char *a = NULL;
    ACL_OK(aclrtMallocHost((void **)&a, P * ps));
    unsigned char *b = mmap(NULL, P * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(b != MAP_FAILED);
    void *dev_a[P] = {0};     /* alias of a's page i while registered */
    int state_b[P] = {0};     /* 0 none, 1 identity-mapped, 2 pinned only */
    uint64_t rng = 0x243F6A8885A308D3ull;
    for (int step = 0; step < STEPS; step++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        const size_t i = (size_t)(rng % P);
        if (rng & (1ull << 40)) {
            if (dev_a[i]) {
                ACL_OK(aclrtHostUnregister(a + i * ps));
                dev_a[i] = NULL;
            } else {
                ACL_OK(aclrtHostRegister(a + i * ps, ps, ACL_HOST_REGISTER_MAPPED, &dev_a[i]));
                assert_true(dev_a[i] != (void *)(a + i * ps));
            }
        } else if (state_b[i]) {
            ACL_OK(aclrtHostUnregister(b + i * ps));
            state_b[i] = 0;
        } else {
            const int pinned_only = (rng >> 41) % 3 == 0;
            ACL_OK(aclrtHostRegisterV2(b + i * ps, ps / 2, pinned_only ? PINNED : MAPPED));
            state_b[i] = pinned_only ? 2 : 1;
        }
        for (size_t j = 0; j < P; j++) {
            void *d = OUT_SENTINEL;
            const size_t off = (j * 37 + (size_t)step) % ps;
            if (dev_a[j]) {
                ACL_OK(aclrtHostGetDevicePointer(a + j * ps + off, &d, 0));
                assert_ptr_equal(d, (unsigned char *)dev_a[j] + off);
            } else {
                assert_not_registered(a + j * ps + off);
            }
            d = OUT_SENTINEL;
            if (state_b[j] == 1) {
                ACL_OK(aclrtHostGetDevicePointer(b + j * ps + off, &d, 0));
                assert_ptr_equal(d, b + j * ps + off);
            } else if (state_b[j] == 2) {
                ACL_ERR(aclrtHostGetDevicePointer(b + j * ps + off, &d, 0), ACL_ERROR_RT_PARAM_INVALID,
                        "without ACL_HOST_REG_MAPPED");
                assert_ptr_equal(d, OUT_SENTINEL);
            } else {
                assert_not_registered(b + j * ps + off);
            }
        }
    }
    for (size_t j = 0; j < P; j++) {
        if (dev_a[j])
            ACL_OK(aclrtHostUnregister(a + j * ps));
        if (state_b[j])
            ACL_OK(aclrtHostUnregister(b + j * ps));
    }
    ACL_OK(aclrtFreeHost(a));
    munmap(b, P * ps);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_seed_flow_without_kernel),
        T(test_v2_mapped_pinned_zero_copy),
        T(test_v1_returns_device_pointer),
        T(test_interior_pointers_and_last_byte),
        T(test_two_buffers_get_distinct_device_ranges),
        T(test_sub_ranges_of_one_allocation),
        T(test_size_rounding_and_overlap),
        T(test_v1_bad_arguments),
        T(test_v2_bad_arguments),
        T(test_unaligned_ptr),
        T(test_size_or_range_past_address_space),
        T(test_overlap_refused_first_keeps_working),
        T(test_pinned_flag_on_malloc_host_memory),
        T(test_range_partly_outside_its_allocation),
        T(test_register_device_address),
        T(test_register_unmapped_memory),
        T(test_register_unmapped_memory_pinned_only),
        T(test_get_device_pointer_bad_inputs),
        T(test_unregister_bad_inputs),
        T(test_pageable_whole_pages_migrated),
        T(test_pageable_partial_page_identity),
        T(test_translation_index_under_churn),
        T(test_pageable_shared_memory_aliased),
        T(test_pageable_pinned_only),
        T(test_pageable_pinned_and_mapped),
        T(test_pageable_repeated_register_unregister),
        T(test_main_stack_buffer),
        T(test_thread_stack_buffer),
        T(test_static_buffer),
        T(test_user_mlock_survives_registration),
        T(test_reregister_after_free_and_reallocation),
        T(test_shared_range_partly_unmapped),
        T(test_range_spanning_shared_and_private_pages),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
