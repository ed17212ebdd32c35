/*
 * libFuzzer target: the checks a kernel image passes before the dynamic
 * loader sees it (ELF header, program headers, segments, the dynamic
 * symbol table and the descriptor symbol), without loading anything: the
 * fast companion of fuzz_binary_data and fuzz_binary_file, whose every
 * well-formed input costs a load in a child process and one here.
 */
#include <stddef.h>
#include <stdint.h>

#include "device/backend.h"
#include "device/cpu/cpu_device.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[OACL_BACKEND_ERRLEN];
    (void)oacl_cpu_module_check_image(data, size, err);
    return 0;
}
