/*
 * libFuzzer target: aclInit's configuration file. Each input is written to
 * a file and goes through what aclInit does with it before applying
 * anything: the bounded read and the checked parse (JSON rules, nesting,
 * the err_msg_mode, defaultDevice, profiler and dump sections). The
 * pending profiler and dump settings are then dropped, as after a failed
 * aclInit, so nothing is started and no file is written.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "fuzz_common.h"
#include "runtime/dump.h"
#include "runtime/prof.h"
#include "runtime/runtime.h"

static char g_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_private_file(g_path, sizeof(g_path), "acl.json");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_file(g_path, data, size);
    char *text = NULL;
    size_t len = 0;
    bool too_large = false;
    if (oacl_config_file_read(g_path, &text, &len, &too_large) == ACL_SUCCESS && text) {
        struct oacl_init_settings set;
        (void)oacl_config_parse(text, len, g_path, &set);
        free(text);
    }
    oacl_prof_acl_init_done(false);
    oacl_dump_acl_init_failed();
    (void)aclGetRecentErrMsg();
    return 0;
}
