/*
 * Running one kernel block on the calling thread (a worker, or a host thread
 * helping in a synchronise) and the kernel-support calls that depend on it:
 * oacl_block(), oacl_kernel_fail(), oacl_kernel_trap().
 *
 * Every block runs under a sigsetjmp point. A kernel that reports a fault
 * jumps back to it, so the fault fails the launch on its stream instead of
 * the process; a later fatal-signal handler can jump back the same way.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "common/log.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/fp_overflow.h"

/* Largest unified buffer of any profile (256 KiB); one per executing thread. */
#define UB_CAPACITY (256u * 1024u)

struct exec_thread {
    struct oacl_block_ctx block;
    uint8_t *ub;
    sigjmp_buf jmp;
    int fault;
    char fault_msg[320];
};

static __thread struct exec_thread *tls_thread;
static __thread struct oacl_block_ctx *tls_block;
static pthread_key_t g_thread_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;

static void thread_free(void *p)
{
    struct exec_thread *et = p;
    if (!et)
        return;
    free(et->ub);
    free(et);
}

static void key_init(void) { pthread_key_create(&g_thread_key, thread_free); }

static struct exec_thread *exec_thread(void)
{
    if (tls_thread)
        return tls_thread;
    pthread_once(&g_key_once, key_init);
    struct exec_thread *et = calloc(1, sizeof(*et));
    if (!et)
        return NULL;
    et->ub = aligned_alloc(64, UB_CAPACITY);
    if (!et->ub) {
        free(et);
        return NULL;
    }
    pthread_setspecific(g_thread_key, et);
    tls_thread = et;
    return et;
}

void oacl_exec_thread_release(void)
{
    if (!tls_thread)
        return;
    pthread_setspecific(g_thread_key, NULL);
    thread_free(tls_thread);
    tls_thread = NULL;
}

OACL_KAPI struct oacl_block_ctx *oacl_block(void) { return tls_block; }

/* Calls the block's entry under a jump point; false if the block faulted.
 * Kept separate so no caller state lives across the sigsetjmp. No signal
 * mask is saved: a syscall per block would cost more than an empty kernel. */
static __attribute__((noinline)) bool call_entry(struct exec_thread *et, oacl_kernel_entry_fn entry,
                                                 const void *args)
{
    if (sigsetjmp(et->jmp, 0) != 0)
        return false;
    entry(args);
    return true;
}

/* call_entry for a CPU kernel, which returns a status. */
static __attribute__((noinline)) bool call_cpu(struct exec_thread *et, uint32_t (*fn)(void *), void *args,
                                               uint32_t *ret)
{
    if (sigsetjmp(et->jmp, 0) != 0)
        return false;
    *ret = fn(args);
    return true;
}

void oacl_kernel_run_block(struct oacl_task *t, uint32_t unit)
{
    uint64_t observed = oacl_cpu_block_begin(t); /* profiler, dumps, status page */
    if (__atomic_load_n(&t->failed, __ATOMIC_ACQUIRE) || oacl_exec_stopped(t->queue)) {
        if (observed)
            oacl_cpu_block_end(t, unit, observed, false);
        return; /* the launch (or its context) already failed: skip the block */
    }
    struct exec_thread *et = exec_thread();
    if (!et) {
        oacl_exec_task_fail(t, ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a block's unified buffer");
        if (observed)
            oacl_cpu_block_end(t, unit, observed, false);
        return;
    }
    struct oacl_block_ctx *b = &et->block;
    b->block_idx = unit + t->block_offset;
    b->block_num = t->units;
    b->ub = et->ub;
    b->ub_size = t->dev->ub_size;
    b->npu_arch = t->dev->npu_arch;
    b->kernel_name = t->kernel->name;
    b->pipe_live = 0;
    tls_block = b;
    const uint32_t fp = t->fp_ctl; /* float overflow detection / saturation */
    fexcept_t fe_saved;
    if (__builtin_expect(fp != 0, 0))
        oacl_fp_block_begin(fp, &fe_saved);
    if (t->kernel->entry == oacl_cpu_kernel_entry) {
        /* A CPU kernel: its return value says whether the block failed. */
        const struct oacl_cpu_kernel *ck = (const struct oacl_cpu_kernel *)t->kernel;
        uint32_t ret = 0;
        if (!call_cpu(et, ck->fn, (void *)(uintptr_t)t->args, &ret)) {
            oacl_exec_task_fail(t, ACL_ERROR_RT_AICORE_EXCEPTION, et->fault_msg);
        } else if (ret != 0) {
            char msg[200];
            snprintf(msg, sizeof(msg), "CPU kernel '%s' (%s) returned %u in block %u", ck->kernel_name, ck->func_name,
                     ret, b->block_idx);
            oacl_exec_task_fail(t, ACL_ERROR_RT_AICPU_EXCEPTION, msg);
        }
    } else if (!call_entry(et, t->kernel->entry, t->args)) {
        oacl_exec_task_fail(t, ACL_ERROR_RT_AICORE_EXCEPTION, et->fault_msg);
    }
    if (__builtin_expect(fp != 0, 0))
        oacl_fp_block_end(t, &fe_saved);
    tls_block = NULL;
    if (observed)
        oacl_cpu_block_end(t, unit, observed, true);
}

static const char *fault_name(int fault)
{
    switch (fault) {
    case OACL_FAULT_TRAP: return "trap";
    case OACL_FAULT_UB: return "unified buffer";
    case OACL_FAULT_QUEUE: return "queue";
    case OACL_FAULT_ALIGN: return "alignment";
    case OACL_FAULT_ARG: return "argument";
    default: return "kernel";
    }
}

OACL_KAPI void oacl_kernel_fail(int fault, const char *fmt, ...)
{
    struct exec_thread *et = tls_thread;
    struct oacl_block_ctx *b = tls_block;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    if (!b || !et) {
        fprintf(stderr, "[oacl ERROR] oacl_kernel_fail called outside a kernel: %s\n", text);
        abort();
    }
    snprintf(et->fault_msg, sizeof(et->fault_msg), "kernel '%s' block %u/%u: %s error: %s", b->kernel_name,
             b->block_idx, b->block_num, fault_name(fault), text);
    et->fault = fault;
    siglongjmp(et->jmp, 1);
}

OACL_KAPI void oacl_kernel_trap(void) { oacl_kernel_fail(OACL_FAULT_TRAP, "trap instruction executed"); }

/* ---- kernel printf ---------------------------------------------------------- */

static int g_printed; /* atomic: kernels printed since the last flush */

/* Kernel output shares stdio's stdout with the host program, so that text
 * printed on either side comes out in the order it was printed. */
OACL_KAPI int oacl_printf(const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0)
        return n;
    char *text = small;
    if ((size_t)n >= sizeof(small)) {
        text = malloc((size_t)n + 1);
        if (!text)
            return -1;
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    /* One locked write per call: a call's text is never split by another's. */
    flockfile(stdout);
    fwrite_unlocked(text, 1, (size_t)n, stdout);
    funlockfile(stdout);
    __atomic_store_n(&g_printed, 1, __ATOMIC_RELEASE);
    if (text != small)
        free(text);
    return n;
}

void oacl_kernel_output_flush(void)
{
    if (__atomic_exchange_n(&g_printed, 0, __ATOMIC_ACQ_REL))
        fflush(stdout);
}
