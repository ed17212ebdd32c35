/*
 * libFuzzer target: kernel binaries from a file (aclrtBinaryLoadFromFile).
 * Each input is written to a private file first; the loader must refuse
 * every malformed file with an error, never crash.
 */
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "fuzz_common.h"

static char g_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_device_init();
    fuzz_private_file(g_path, sizeof(g_path), "kernel.o");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_file(g_path, data, size);
    aclrtBinHandle h = NULL;
    if (aclrtBinaryLoadFromFile(g_path, NULL, &h) == ACL_SUCCESS)
        fuzz_use_binary(h);
    (void)aclGetRecentErrMsg();
    return 0;
}
