/*
 * Helpers shared by the API-level tests (cmocka).
 *
 *   ACL_OK(call)                       the call returns ACL_SUCCESS
 *   ACL_ERR(call, code, "substring")   the call returns exactly `code` and
 *                                      leaves a recent-error message that
 *                                      contains the substring (NULL: any
 *                                      non-empty message)
 */
#ifndef OACL_TEST_SUPPORT_H
#define OACL_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "acl/acl.h"

void oacl_test_check_ok(aclError got, const char *expr, const char *file, int line);
void oacl_test_check_err(aclError got, aclError want, const char *needle, const char *expr, const char *file,
                         int line);
/* Discards pending recent-error text so the next check sees only new lines. */
void oacl_test_clear_msgs(void);

#define ACL_OK(call)                                                                                                 \
    do {                                                                                                             \
        oacl_test_clear_msgs();                                                                                      \
        oacl_test_check_ok((call), #call, __FILE__, __LINE__);                                                       \
    } while (0)

#define ACL_ERR(call, code, needle)                                                                                  \
    do {                                                                                                             \
        oacl_test_clear_msgs();                                                                                      \
        oacl_test_check_err((call), (code), (needle), #call, __FILE__, __LINE__);                                    \
    } while (0)

/* Resets every device, and clears the recent-error text and last error:
 * a clean slate between tests. */
void oacl_test_reset_devices(void);
/* cmocka setup/teardown that call oacl_test_reset_devices(). */
int oacl_test_reset_fixture(void **state);
/* cmocka per-test fixtures for tests that want fresh streams: the test's
 * initial state (cmocka_unit_test_prestate_setup_teardown) is a
 * NULL-terminated array of aclrtStream pointers; setup creates each stream
 * and clears the recent-error text, teardown destroys them. */
int oacl_test_streams_setup(void **state);
int oacl_test_streams_teardown(void **state);
#define OACL_TEST_WITH_STREAMS(f, list)                                                                              \
    cmocka_unit_test_prestate_setup_teardown(f, oacl_test_streams_setup, oacl_test_streams_teardown, (void *)(list))
/* Runs fn(arg) on a new thread and joins it. */
void oacl_test_run_thread(void *(*fn)(void *), void *arg);

/* Path of a kernel binary built for the tests (tests/kernels/NAME.c). */
const char *oacl_test_kernel_path(const char *name);

/* FP16 bit patterns used throughout. */
#define F16_ONE 0x3C00u
#define F16_TWO 0x4000u
#define F16_THREE 0x4200u

/* A pinned host buffer registered with ACL_HOST_REG_MAPPED, and its device
 * address (the current thread needs a context). */
struct test_buf {
    void *host;
    void *dev;
    size_t size;
};
/* Monotonic clock in milliseconds, and a plain sleep, for timing tests. */
uint64_t test_now_ms(void);
void test_sleep_ms(unsigned ms);

void test_buf_alloc(struct test_buf *b, size_t size);
void test_buf_free(struct test_buf *b);

/* Builds a finalized argument list from n parameters (pointer to each value
 * and its size) and launches f; returns the launch's result. */
aclError test_launch(aclrtFuncHandle f, uint32_t blocks, aclrtStream stream, int n, const void *const *values,
                     const size_t *sizes);
/* Loads kernel binary `name` (tests/kernels) and looks up `kernel`. */
void test_load(const char *name, const char *kernel, aclrtBinHandle *bin, aclrtFuncHandle *f);

#endif
