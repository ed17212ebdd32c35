/*
 * oacl kernel-support ABI.
 *
 * This is the contract between libacl_rt.so and kernel code compiled by
 * oacl-cc: the layout of a kernel binary's descriptor table, the per-block
 * context the executor hands to every block, and the oacl_-prefixed
 * functions that kernel code may call. Everything here is exported from
 * libacl_rt.so with default visibility; nothing else outside the ACL API is.
 *
 * Kernel authors normally include <oacl/kernel.h> (C) or "kernel_operator.h"
 * (AscendC C++), which build on this header.
 */
#ifndef OACL_KERNEL_ABI_H
#define OACL_KERNEL_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(OACL_BUILDING_RUNTIME)
#define OACL_KAPI __attribute__((visibility("default")))
#else
#define OACL_KAPI
#endif

#if defined(__cplusplus)
#define OACL_NORETURN [[noreturn]]
#else
#define OACL_NORETURN _Noreturn
#endif

/* ---- kernel binary descriptor ------------------------------------------ */

/* "OACLKBIN" in little-endian byte order. */
#define OACL_KBIN_MAGIC 0x4E49424B4C43414FULL
/* Bumped whenever the descriptor layout or the entry convention changes. */
#define OACL_KBIN_ABI_VERSION 1u
/* Name of the exported descriptor symbol in every kernel binary. */
#define OACL_KBIN_SYMBOL "oacl_kernel_binary"
/* Most parameters a kernel may take (the argument-list limit of the API). */
#define OACL_KERNEL_MAX_PARAMS 128u

/*
 * Entry the executor calls once per block. `args` is the launch's captured
 * argument blob: parameter i lives at the next multiple of 8 after
 * parameter i-1 ends. The entry unpacks the blob and calls the kernel with
 * its own C signature.
 */
typedef void (*oacl_kernel_entry_fn)(const void *args);

struct oacl_kernel_desc {
    const char *name;             /* the kernel's C symbol name */
    oacl_kernel_entry_fn entry;
    const uint32_t *param_sizes;  /* num_params sizes in bytes; NULL if none */
    uint32_t num_params;
    uint32_t reserved;
};

struct oacl_kernel_binary_desc {
    uint64_t magic;          /* OACL_KBIN_MAGIC */
    uint32_t abi_version;    /* OACL_KBIN_ABI_VERSION */
    uint32_t npu_arch;       /* __NPU_ARCH__ the kernels were compiled for */
    const char *soc_name;    /* SoC given to the compiler (informational) */
    const char *machine;     /* host machine the code runs on, e.g. "x86_64" */
    uint32_t num_kernels;
    uint32_t reserved;
    const struct oacl_kernel_desc *kernels;
};

/* ---- per-block context --------------------------------------------------- */

/*
 * What a running block knows about itself. The executor fills it before the
 * entry is called; kernel-side helpers read it through oacl_block().
 * Fields after `ub_size` are bookkeeping for the kernel-side C API.
 */
struct oacl_block_ctx {
    uint32_t block_idx;      /* 0 .. block_num-1 (plus any launch offset) */
    uint32_t block_num;      /* blockDim of the launch */
    uint8_t *ub;             /* this block's unified buffer, 32-byte aligned */
    uint32_t ub_size;        /* bytes, from the SoC profile */
    uint32_t npu_arch;
    const char *kernel_name;
    uint32_t pipe_live;      /* a pipe is initialised in this block */
    uint32_t reserved;
};

/* The calling block's context; NULL outside a kernel. */
OACL_KAPI struct oacl_block_ctx *oacl_block(void);

/* Kernel fault classes, for messages and for the error code chosen. */
enum oacl_fault {
    OACL_FAULT_USER = 1,     /* kernel called oacl_kernel_fail() itself */
    OACL_FAULT_TRAP = 2,     /* trap instruction (asm("trap")) */
    OACL_FAULT_UB = 3,       /* unified-buffer capacity or bounds */
    OACL_FAULT_QUEUE = 4,    /* queue/pipe state machine violated */
    OACL_FAULT_ALIGN = 5,    /* alignment rule violated */
    OACL_FAULT_ARG = 6,      /* invalid argument to a kernel-side API */
};

/*
 * Fail the running block: the message (prefixed with the kernel name and
 * block index by the runtime) becomes the launch's error, the stream reports
 * ACL_ERROR_RT_AICORE_EXCEPTION on its next synchronise, and control returns
 * to the executor. Outside a kernel it aborts the process.
 */
OACL_KAPI OACL_NORETURN void oacl_kernel_fail(int fault, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A deliberate device fault (the CPU device's asm("trap")). */
OACL_KAPI OACL_NORETURN void oacl_kernel_trap(void);

/* ---- kernels linked into the program (<<<>>> launches) -------------------- */

/*
 * Queues kernel k, whose code is linked into the program (a descriptor made
 * by oacl-cc for a `kernel<<<blocks, l2ctrl, stream>>>(args...)` launch),
 * on `stream` (NULL: the default stream of the calling thread's current
 * context). The argument blob (args_size bytes, layout as in a kernel
 * binary) is copied before the call returns. Returns 0 when the launch is
 * queued, else an aclError code (also left for aclGetRecentErrMsg).
 */
OACL_KAPI int oacl_launch(const struct oacl_kernel_desc *k, uint32_t num_blocks, void *stream, const void *args,
                          size_t args_size);

/* ---- kernel output ------------------------------------------------------ */

/*
 * printf for kernels: the formatted text goes to the process's standard
 * output as one piece (lines of different blocks never mix within a line),
 * with no prefix. Output reaches stdout before the stream's synchronise
 * returns and before the process exits. Returns the number of characters.
 */
OACL_KAPI int oacl_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* ---- vector primitives -------------------------------------------------- */
/*
 * Element-wise loops over n elements. FP16 values are IEEE binary16 bit
 * patterns, computed exactly (round to nearest even). Integer arithmetic
 * wraps. Operands may alias exactly (in place) but must not partially
 * overlap. Dispatch to SIMD code happens inside the runtime at run time.
 */
OACL_KAPI void oacl_vadd_f16(uint16_t *dst, const uint16_t *a, const uint16_t *b, size_t n);
OACL_KAPI void oacl_vadd_f32(float *dst, const float *a, const float *b, size_t n);
OACL_KAPI void oacl_vadd_i32(int32_t *dst, const int32_t *a, const int32_t *b, size_t n);
OACL_KAPI void oacl_vadd_i16(int16_t *dst, const int16_t *a, const int16_t *b, size_t n);

/* binary16 <-> binary32 conversion (round to nearest even, IEEE specials). */
OACL_KAPI void oacl_cvt_f16_to_f32(float *dst, const uint16_t *src, size_t n);
OACL_KAPI void oacl_cvt_f32_to_f16(uint16_t *dst, const float *src, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* OACL_KERNEL_ABI_H */
