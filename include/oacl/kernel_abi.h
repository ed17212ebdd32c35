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
    OACL_FAULT_GM_READ = 7,  /* global-memory read outside every allocation (oacl_gm_check) */
    OACL_FAULT_GM_WRITE = 8, /* global-memory write outside every allocation, or into read-only memory */
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

/*
 * Range check of a global-memory access made by a kernel-side API
 * (DataCopy and friends, GlobalTensor element access): [addr, addr+len)
 * must lie inside one live allocation (device memory, a device variable,
 * mapped host memory ...) and, when `write` is non-zero, one that may be
 * written. Otherwise the block fails (OACL_FAULT_GM_READ/WRITE; the launch
 * reports 507042..507045 in memcheck mode, the plain exception code
 * otherwise) with a message naming `op`, the address and the nearest
 * allocation. Cheap for repeated accesses to the same allocation.
 */
OACL_KAPI void oacl_gm_check(const void *addr, size_t len, int write, const char *op);

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

/*
 * Load-time registration of a kernel linked into the program, emitted by
 * oacl-cc for every kernel defined in a C++ source it compiles for linking
 * (`-c`, `--emit=source`): `symbol` is the kernel's host address (what
 * aclrtGetFuncBySymbol and the `func` argument of
 * aclrtLaunchKernelWithArgsArray take), `k` its descriptor (the one its
 * <<<>>> launches use). oacl_unregister_kernel (emitted as a destructor)
 * forgets it when its module goes. Not for kernel code.
 */
OACL_KAPI void oacl_register_kernel(const void *symbol, const struct oacl_kernel_desc *k);
OACL_KAPI void oacl_unregister_kernel(const void *symbol);

/* ---- device variables (aclrtGetSymbolAddress and friends) ----------------- */

/*
 * Load-time registration of a device global variable, emitted by oacl-cc
 * (a constructor after every namespace-scope `__gm__` variable definition
 * of a kernel source): `symbol` is the variable's address as host code
 * sees it, `devAddr` its storage (the same address on the CPU device),
 * `size` its size in bytes, `name` its name as written. For a variable of
 * a kernel binary loaded with aclrtBinaryLoadFromFile the registration
 * belongs to that load (one instance per load, so one copy per device); a
 * variable linked into the program has one copy that every device uses.
 * oacl_unregister_device_var (emitted as a destructor) forgets it when its
 * module goes. Not for kernel code.
 */
OACL_KAPI void oacl_register_device_var(const void *symbol, void *devAddr, size_t size, const char *name);
OACL_KAPI void oacl_unregister_device_var(const void *symbol);

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

/* Byte copy for data movement (DataCopy and friends); regions may
 * overlap. A call rather than an inline memcpy: compilers expand a
 * constant-size memcpy into `rep movs` sequences that cost several times
 * the C library's vector copy at tile sizes. */
OACL_KAPI void oacl_memmove(void *dst, const void *src, size_t n);

/* oacl_gm_check of the global-memory side (dst when `write`, else src)
 * followed by oacl_memmove(dst, src, n): DataCopy's two calls as one. */
OACL_KAPI void oacl_gm_copy(void *dst, const void *src, size_t n, int write, const char *op);

/* binary16 <-> binary32 conversion (round to nearest even, IEEE specials). */
OACL_KAPI void oacl_cvt_f16_to_f32(float *dst, const uint16_t *src, size_t n);
OACL_KAPI void oacl_cvt_f32_to_f16(uint16_t *dst, const float *src, size_t n);

/*
 * Generic primitives: one entry point per operation shape, selected by an
 * operation code and element types, so the exported surface stays small.
 * Each returns 0, or -1 (writing nothing) when the combination of
 * operation, types and rounding mode is not supported. Element rules
 * (docs/kernel-abi.md has the full list):
 *   - f16 results of + - * / sqrt reciprocal, and every f16 <-> f32
 *     conversion, are exact: computed in float from exact inputs and
 *     rounded once (to nearest even unless a cast says otherwise);
 *   - exp, ln and rsqrt are computed in double and rounded once (within
 *     one unit in the last place of the exact result);
 *   - a NaN result is the first NaN operand, quieted, or else the positive
 *     default NaN (f16 0x7E00, f32 0x7FC00000); max/min return NaN when
 *     either operand is NaN; for equal operands (also +0/-0) max/min
 *     return the second operand;
 *   - integer arithmetic wraps; integer casts saturate, NaN casts to 0.
 */

/* Element types, numbered as the oacl_dtype_t of oacl/kernel.h. */
typedef enum oacl_dtype {
    OACL_DT_F16 = 1,   /* IEEE binary16, stored as uint16_t bit patterns */
    OACL_DT_F32 = 2,
    OACL_DT_I32 = 3,
    OACL_DT_I16 = 4,
    OACL_DT_U16 = 5,
    OACL_DT_U32 = 6,
    OACL_DT_I8 = 7,
    OACL_DT_U8 = 8,
    OACL_DT_I64 = 9,
    OACL_DT_U64 = 10,
    OACL_DT_BF16 = 11, /* bfloat16, stored as uint16_t bit patterns */
} oacl_dtype_t;

enum oacl_vop {
    /* binary, dst[i] = a[i] op b[i]: f16 f32 i32 i16 (DIV: f16 f32) */
    OACL_VOP_ADD = 1,
    OACL_VOP_SUB = 2,
    OACL_VOP_MUL = 3,
    OACL_VOP_DIV = 4,
    OACL_VOP_MAX = 5,
    OACL_VOP_MIN = 6,
    /* unary, dst[i] = op(src[i]): f16 f32 (RELU also i32) */
    OACL_VOP_EXP = 16,
    OACL_VOP_LN = 17,
    OACL_VOP_ABS = 18,
    OACL_VOP_RELU = 19,  /* max(x, +0) with the max rules */
    OACL_VOP_SQRT = 20,
    OACL_VOP_RSQRT = 21,
    OACL_VOP_RECIP = 22,
    /* with a scalar s of the element type, dst[i] = src[i] op s:
       f16 f32 i32 i16 (LEAKY_RELU: f16 f32, x >= 0 ? x : x * s);
       DUP fills dst with s (any type; src is not read) */
    OACL_VOP_ADDS = 32,
    OACL_VOP_MULS = 33,
    OACL_VOP_MAXS = 34,
    OACL_VOP_MINS = 35,
    OACL_VOP_LEAKY_RELU = 36,
    OACL_VOP_DUP = 37,
    /* reductions of src[0..n-1] into dst[0] (f16 f32) */
    OACL_VOP_REDUCE_SUM = 48,
    OACL_VOP_REDUCE_MAX = 49,
    OACL_VOP_REDUCE_MIN = 50,
};

/* Rounding modes of oacl_vcast, numbered as AscendC's RoundMode. */
enum oacl_round {
    OACL_ROUND_NONE = 0,  /* nearest even where precision can be lost */
    OACL_ROUND_RINT = 1,  /* nearest, ties to even */
    OACL_ROUND_FLOOR = 2, /* toward -inf */
    OACL_ROUND_CEIL = 3,  /* toward +inf */
    OACL_ROUND_ROUND = 4, /* nearest, ties away from zero */
    OACL_ROUND_TRUNC = 5, /* toward zero */
    OACL_ROUND_ODD = 6,   /* to odd (von Neumann) */
};

OACL_KAPI int oacl_vbinary(int op, int dtype, void *dst, const void *a, const void *b, size_t n);
OACL_KAPI int oacl_vunary(int op, int dtype, void *dst, const void *src, size_t n);
/* `scalar` points to one element of `dtype`. */
OACL_KAPI int oacl_vscalar(int op, int dtype, void *dst, const void *src, const void *scalar, size_t n);
/* dst[0] = the reduction; with `with_index` (MAX/MIN), dst[1] holds the
   index of the first extreme element as an unsigned integer of the
   element's width (truncated for f16). n == 0 writes nothing. */
OACL_KAPI int oacl_vreduce(int op, int dtype, void *dst, const void *src, size_t n, int with_index);
/* dst[i] = src[i] converted from src_dtype to dst_dtype with `round`
   (an oacl_round); the supported pairs are those of AscendC's Cast on
   arch 2201 (docs/kernel-abi.md). */
OACL_KAPI int oacl_vcast(int dst_dtype, int src_dtype, int round, void *dst, const void *src, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* OACL_KERNEL_ABI_H */
