#include "test_support.h"

#include <stdio.h>
#include <string.h>

void oacl_test_clear_msgs(void) { (void)aclGetRecentErrMsg(); }

void oacl_test_check_ok(aclError got, const char *expr, const char *file, int line)
{
    if (got != ACL_SUCCESS) {
        const char *msg = aclGetRecentErrMsg();
        print_error("%s:%d: %s returned %d (%s)\n", file, line, expr, got, msg ? msg : "no message");
        _fail(file, line);
    }
}

void oacl_test_check_err(aclError got, aclError want, const char *needle, const char *expr, const char *file,
                         int line)
{
    const char *msg = aclGetRecentErrMsg();
    if (got != want) {
        print_error("%s:%d: %s returned %d, expected %d (%s)\n", file, line, expr, got, want,
                       msg ? msg : "no message");
        _fail(file, line);
    }
    if (!msg || !*msg) {
        print_error("%s:%d: %s returned %d but left no aclGetRecentErrMsg text\n", file, line, expr, got);
        _fail(file, line);
    }
    if (needle && !strstr(msg, needle)) {
        print_error("%s:%d: %s: message \"%s\" does not mention \"%s\"\n", file, line, expr, msg, needle);
        _fail(file, line);
    }
}

const char *oacl_test_kernel_path(const char *name)
{
    static __thread char path[4096];
    snprintf(path, sizeof(path), "%s/%s.o", OACL_TEST_KERNEL_DIR, name);
    return path;
}
