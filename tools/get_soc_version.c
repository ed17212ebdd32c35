/*
 * get_soc_version: prints the SoC name of oacl's simulated device (the
 * value for SOC_VERSION), the way CANN's sample tooling detects the chip:
 * aclrtGetSocName() without aclInit. Exits 1 if there is no name (an
 * unknown OACL_SOC); the message then has spaces, so it can never be taken
 * for a name.
 */
#include <stdio.h>

#include "acl/acl.h"

int main(void)
{
    const char *name = aclrtGetSocName();
    if (name == NULL || name[0] == '\0') {
        fputs("get_soc_version: the runtime reports no SoC name (is OACL_SOC a known SoC?)\n", stderr);
        return 1;
    }
    printf("%s\n", name);
    return 0;
}
