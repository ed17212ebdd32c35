/* Runs the runtime through whatever build system linked it. */
#include <stdio.h>

#include "acl/acl.h"

int main(void)
{
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
        return 1;
    printf("soc %s\n", aclrtGetSocName());
    aclrtResetDeviceForce(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : 1;
}
