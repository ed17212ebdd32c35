/*
 * Virtual memory of the CPU device (spec acl-rt-ipc-vmm.md 4.4): a
 * reservation is inaccessible anonymous address space, physical memory is
 * a sealed memory file, and a mapping puts the file into the reservation
 * with MAP_FIXED; unmapping puts the inaccessible space back. Devices share
 * the host's address space, so one mapping serves every device.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "device/cpu/cpu_device.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define RESERVE_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

static int prot_of(int access)
{
    switch (access) {
    case OACL_VA_READWRITE: return PROT_READ | PROT_WRITE;
    case OACL_VA_READ: return PROT_READ;
    default: return PROT_NONE;
    }
}

int oacl_cpu_phys_create(size_t size, int *fd, char *err) { return oacl_cpu_memfd("oacl-physical", size, fd, err); }

int oacl_cpu_va_reserve(size_t size, size_t align, void *fixed, void **out, char *err)
{
    if (fixed) {
        void *p = mmap(fixed, size, PROT_NONE, RESERVE_FLAGS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == MAP_FAILED) {
            snprintf(err, OACL_BACKEND_ERRLEN, "cannot reserve %zu bytes at %p: %s", size, fixed,
                     errno == EEXIST ? "the range overlaps memory already mapped" : strerror(errno));
            return errno == EEXIST ? ACL_ERROR_RT_PARAM_INVALID : ACL_ERROR_RT_MEMORY_ALLOCATION;
        }
        if (p != fixed) { /* a kernel without MAP_FIXED_NOREPLACE took it as a hint */
            munmap(p, size);
            snprintf(err, OACL_BACKEND_ERRLEN, "cannot reserve %zu bytes at %p: the range is not free", size, fixed);
            return ACL_ERROR_RT_PARAM_INVALID;
        }
        *out = p;
        return ACL_SUCCESS;
    }
    if (size + align < size) {
        snprintf(err, OACL_BACKEND_ERRLEN, "%zu bytes exceed the address space", size);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    /* Over-reserve, then trim to the alignment. */
    uint8_t *p = mmap(NULL, size + align, PROT_NONE, RESERVE_FLAGS, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot reserve %zu bytes of address space: %s", size, strerror(errno));
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    uintptr_t start = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
    size_t head = start - (uintptr_t)p;
    size_t tail = align - head;
    if (head)
        munmap(p, head);
    if (tail)
        munmap((uint8_t *)start + size, tail);
    *out = (void *)start;
    return ACL_SUCCESS;
}

void oacl_cpu_va_release(void *ptr, size_t size) { munmap(ptr, size); }

int oacl_cpu_va_map(void *va, size_t size, int fd, int access, char *err)
{
    if (mmap(va, size, prot_of(access), MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot map %zu bytes at %p: %s", size, va, strerror(errno));
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    return ACL_SUCCESS;
}

int oacl_cpu_va_protect(void *va, size_t size, int access, char *err)
{
    if (mprotect(va, size, prot_of(access)) != 0) {
        snprintf(err, OACL_BACKEND_ERRLEN, "cannot change the access of %p: %s", va, strerror(errno));
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return ACL_SUCCESS;
}

void oacl_cpu_va_unmap(void *va, size_t size)
{
    oacl_cpu_wait_queues(NULL); /* work queued before may still use the range */
    mmap(va, size, PROT_NONE, RESERVE_FLAGS | MAP_FIXED, -1, 0);
}
