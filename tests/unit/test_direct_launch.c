/*
 * Kernels linked into the program, launched through oacl_launch (what the
 * kernel compiler makes of `kernel<<<blocks, l2ctrl, stream>>>(args)`), and
 * kernel printf. The kernel and its descriptor are written here by hand,
 * the way oacl-cc generates them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oacl/kernel.h"
#include "test_support.h"

/* The kernel: out[block] = value + block; prints one line per block. */
static void scale_kernel(uint32_t *out, uint32_t value, int print)
{
    uint32_t b = (uint32_t)oacl_get_block_idx();
    out[b] = value + b;
    if (print)
        oacl_printf("block %u of %u says %u\n", b, (uint32_t)oacl_get_block_num(), value + b);
}

struct scale_args {
    uint32_t *out __attribute__((aligned(8)));
    uint32_t value __attribute__((aligned(8)));
    int print __attribute__((aligned(8)));
};

static void scale_entry(const void *a)
{
    const struct scale_args *p = a;
    scale_kernel(p->out, p->value, p->print);
}

static const uint32_t scale_sizes[] = {8, 4, 4};
static const struct oacl_kernel_desc scale_desc = {"scale_kernel", scale_entry, scale_sizes, 3, 0};

static int setup(void **state)
{
    (void)state;
    return aclrtSetDevice(0);
}

static int teardown(void **state)
{
    (void)state;
    return aclrtResetDeviceForce(0);
}

static void test_launch_linked_kernel(void **state)
{
    (void)state;
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    aclrtStream s;
    ACL_OK(aclrtCreateStream(&s));
    struct scale_args a = {(uint32_t *)out.dev, 1000, 0};
    assert_int_equal(oacl_launch(&scale_desc, 16, s, &a, sizeof(a)), 0);
    a.value = 5; /* captured by value at the launch: this change is not seen */
    ACL_OK(aclrtSynchronizeStream(s));
    for (uint32_t b = 0; b < 16; b++)
        assert_int_equal(((uint32_t *)out.host)[b], 1000 + b);
    /* The default stream. */
    a.value = 7;
    assert_int_equal(oacl_launch(&scale_desc, 2, NULL, &a, sizeof(a)), 0);
    ACL_OK(aclrtSynchronizeStream(NULL));
    assert_int_equal(((uint32_t *)out.host)[1], 8);
    ACL_OK(aclrtDestroyStream(s));
    test_buf_free(&out);
}

static void test_launch_linked_kernel_errors(void **state)
{
    (void)state;
    struct scale_args a = {NULL, 0, 0};
    int local;
    ACL_ERR(oacl_launch(NULL, 1, NULL, &a, sizeof(a)), ACL_ERROR_INVALID_PARAM, "descriptor");
    ACL_ERR(oacl_launch(&scale_desc, 1, NULL, NULL, sizeof(a)), ACL_ERROR_INVALID_PARAM, "args is NULL");
    ACL_ERR(oacl_launch(&scale_desc, 0, NULL, &a, sizeof(a)), ACL_ERROR_RT_PARAM_INVALID, "blockDim 0");
    ACL_ERR(oacl_launch(&scale_desc, 70000, NULL, &a, sizeof(a)), ACL_ERROR_RT_PARAM_INVALID, "blockDim 70000");
    ACL_ERR(oacl_launch(&scale_desc, 1, NULL, &a, 8), ACL_ERROR_RT_PARAM_INVALID, "needs 20 bytes");
    ACL_ERR(oacl_launch(&scale_desc, 1, &local, &a, sizeof(a)), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
}

/* Kernel printf: exact text, whole lines, no prefix, on stdout, in order
 * with the host's own output, flushed by the synchronise. */
static void test_kernel_printf(void **state)
{
    (void)state;
    struct test_buf out;
    test_buf_alloc(&out, 4096);
    char path[] = "/tmp/oacl_printf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    assert_true(dup2(fd, 1) >= 0);
    printf("host before\n");
    struct scale_args a = {(uint32_t *)out.dev, 40, 1};
    int rc = oacl_launch(&scale_desc, 8, NULL, &a, sizeof(a));
    aclError sync = aclrtSynchronizeStream(NULL);
    /* Flushed by the synchronise: readable through the file right now. */
    char text[2048] = "";
    ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
    printf("host after\n");
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    assert_int_equal(rc, 0);
    assert_int_equal(sync, ACL_SUCCESS);
    assert_true(n > 0);
    text[n] = '\0';
    assert_int_equal(strncmp(text, "host before\n", 12), 0);
    for (uint32_t b = 0; b < 8; b++) {
        char line[64];
        snprintf(line, sizeof(line), "\nblock %u of 8 says %u\n", b, 40 + b);
        if (!strstr(text, line))
            fail_msg("missing \"%s\" in:\n%s", line + 1, text);
    }
    int lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 9);
    char all[4096] = "";
    n = pread(fd, all, sizeof(all) - 1, 0);
    all[n > 0 ? n : 0] = '\0';
    assert_non_null(strstr(all, "host after\n"));
    close(fd);
    unlink(path);
    test_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_linked_kernel),
        cmocka_unit_test(test_launch_linked_kernel_errors),
        cmocka_unit_test(test_kernel_printf),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
