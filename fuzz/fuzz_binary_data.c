/*
 * libFuzzer target: kernel binaries from memory. Each input is loaded with
 * aclrtBinaryLoadFromData and through the older aclrtCreateBinary +
 * aclrtBinaryLoad path; what loads is queried a little and unloaded. The
 * loader must refuse every malformed image with an error, never crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_device_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    aclrtBinHandle h = NULL;
    if (aclrtBinaryLoadFromData(data, size, NULL, &h) == ACL_SUCCESS)
        fuzz_use_binary(h);
    aclrtBinary b = aclrtCreateBinary(data, size);
    if (b) {
        if (aclrtBinaryLoad(b, &h) == ACL_SUCCESS)
            fuzz_use_binary(h);
        aclrtDestroyBinary(b);
    }
    (void)aclGetRecentErrMsg();
    return 0;
}
