/*
 * CPU kernels (aclrtRegisterCpuFunc, device-kernel chapter 4.6 and
 * Decision 16): functions `uint32_t f(void *args)` of a CPU-kernel library
 * that launches call once per block. The executor recognises their
 * descriptors by the entry oacl_cpu_kernel_entry and runs them through
 * kernel_exec.c's fault capture; a non-zero return value fails the launch
 * with ACL_ERROR_RT_AICPU_EXCEPTION.
 */
#include <stdlib.h>

#include "device/cpu/cpu_device.h"

/* Marks CPU-kernel descriptors; blocks never call it. */
void oacl_cpu_kernel_entry(const void *args) { (void)args; }

void oacl_cpu_kernels_free(struct oacl_cpu_kernel *list)
{
    while (list) {
        struct oacl_cpu_kernel *next = list->next;
        free(list->func_name);
        free(list->kernel_name);
        free(list);
        list = next;
    }
}
