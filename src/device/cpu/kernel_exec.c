/*
 * Running one kernel block on the calling thread (a worker, or a host thread
 * helping in a synchronise) and the kernel-support calls that depend on it:
 * oacl_block(), oacl_kernel_fail(), oacl_kernel_trap().
 *
 * Every block runs under a sigsetjmp point. A kernel that reports a fault
 * jumps back to it, so the fault fails the launch on its stream instead of
 * the process; the fault-signal handler (fault_signal.c) jumps back the
 * same way when kernel code raises SIGSEGV, SIGBUS, SIGFPE, SIGILL or
 * SIGTRAP, or when the watchdog (watchdog.c) stops a block that ran past
 * its launch's timeout.
 *
 * No runtime lock is held while kernel code runs (the executor releases its
 * lock before running a block), so unwinding leaves none held; kernel-side
 * helpers that take a lock (printf) mark the section so that the
 * asynchronous kill waits for its end.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "acl/acl.h"
#include "common/log.h"
#include "common/memcheck.h"
#include "device/cpu/cpu_device.h"
#include "device/cpu/fault.h"
#include "device/cpu/kill_point.h"
#include "device/cpu/fp_overflow.h"

/* Largest unified buffer of any profile (256 KiB); one per executing thread. */
#define UB_CAPACITY (256u * 1024u)

struct exec_thread {
    struct oacl_block_ctx block;
    uint8_t *ub;
    sigjmp_buf jmp;
    int fault;
    char fault_msg[512];
    /* Fault isolation. The signal handler reads and writes these on the
       thread itself: in_kernel says kernel code runs under jmp. */
    volatile sig_atomic_t in_kernel;
    volatile sig_atomic_t crit;         /* depth of lock-holding kernel-side sections */
    volatile sig_atomic_t kill_pending; /* a kill arrived inside such a section */
    int fclass;                         /* enum oacl_fault_class of the fault */
    int sig;                            /* signal that ended the block, 0: none */
    int si_code;
    uintptr_t addr;                     /* si_addr */
    uintptr_t pc;                       /* instruction address, 0: unknown */
    int access;                         /* enum oacl_fault_access */
    uint64_t deadline_ns;               /* atomic: watchdog deadline of the block, 0: none */
    struct oacl_task *task;             /* atomic: the task whose block runs, NULL: none */
    pthread_t self;
    struct exec_thread *prev, *next;    /* every executing thread (g_threads_lock) */
    void *altstack;
    size_t altstack_size;
    uintptr_t stack_lo;                 /* lowest address of the thread's stack (0: unknown) */
    size_t stack_size;
};

static __thread struct exec_thread *tls_thread __attribute__((tls_model("initial-exec")));
static __thread struct oacl_block_ctx *tls_block __attribute__((tls_model("initial-exec")));
/* The running block's task's kill flag (stop/abort), NULL outside blocks. */
__thread const uint32_t *oacl_tls_kill __attribute__((tls_model("initial-exec")));

/* et->fault of a block that a stop or abort interrupted (not a failure). */
#define FAULT_KILLED (-1)
static pthread_key_t g_thread_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
/* Every thread that has run a block, for the watchdog. */
static pthread_mutex_t g_threads_lock = PTHREAD_MUTEX_INITIALIZER;
static struct exec_thread *g_threads;

static void thread_free(void *p)
{
    struct exec_thread *et = p;
    if (!et)
        return;
    pthread_mutex_lock(&g_threads_lock);
    if (et->prev)
        et->prev->next = et->next;
    else
        g_threads = et->next;
    if (et->next)
        et->next->prev = et->prev;
    pthread_mutex_unlock(&g_threads_lock);
    oacl_fault_thread_fini(et->altstack, et->altstack_size);
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
    oacl_fault_thread_init(&et->altstack, &et->altstack_size);
    et->self = pthread_self();
    pthread_attr_t attr;
    if (pthread_getattr_np(et->self, &attr) == 0) { /* to tell a stack overflow in messages */
        void *lo = NULL;
        size_t sz = 0;
        if (pthread_attr_getstack(&attr, &lo, &sz) == 0) {
            et->stack_lo = (uintptr_t)lo;
            et->stack_size = sz;
        }
        pthread_attr_destroy(&attr);
    }
    pthread_mutex_lock(&g_threads_lock);
    et->next = g_threads;
    if (g_threads)
        g_threads->prev = et;
    g_threads = et;
    pthread_mutex_unlock(&g_threads_lock);
    pthread_setspecific(g_thread_key, et);
    tls_thread = et;
    return et;
}

uint64_t oacl_kernel_kill_overdue(uint64_t now)
{
    uint64_t next = 0;
    int ks = oacl_fault_kill_signal();
    pthread_mutex_lock(&g_threads_lock);
    for (struct exec_thread *et = g_threads; et; et = et->next) {
        uint64_t d = __atomic_load_n(&et->deadline_ns, __ATOMIC_ACQUIRE);
        if (!d)
            continue;
        if (d <= now) {
            pthread_kill(et->self, ks); /* the handler checks the deadline again */
            d = now + 10000000ull;      /* until the block is gone (a lock-holding section): again soon */
        }
        if (!next || d < next)
            next = d;
    }
    pthread_mutex_unlock(&g_threads_lock);
    return next;
}

void oacl_exec_thread_release(void)
{
    if (!tls_thread)
        return;
    pthread_setspecific(g_thread_key, NULL);
    thread_free(tls_thread);
    tls_thread = NULL;
}

void oacl_kernel_killed(void)
{
    tls_thread->fault = FAULT_KILLED;
    tls_thread->fclass = OACL_FAULT_CLASS_EXCEPTION;
    tls_thread->sig = 0;
    tls_thread->in_kernel = 0;
    siglongjmp(tls_thread->jmp, 1);
}

/* Kernel API calls are the cooperative points where a stopped or aborted
 * launch's running blocks unwind (kill_point.h): this one, and the
 * exported data-movement and vector functions. */
OACL_KAPI struct oacl_block_ctx *oacl_block(void)
{
    oacl_kernel_kill_point();
    return tls_block;
}

void oacl_kernel_interrupt(struct oacl_task *t)
{
    /* The flag stops blocks at their next kernel API call; the kill signal
       stops those in plain code (the handler unwinds a killed block). */
    __atomic_store_n(&t->killed, 1u, __ATOMIC_SEQ_CST);
    int ks = oacl_fault_kill_signal();
    if (!ks)
        return; /* no block has run yet: nothing to signal */
    pthread_mutex_lock(&g_threads_lock);
    for (struct exec_thread *et = g_threads; et; et = et->next)
        if (__atomic_load_n(&et->task, __ATOMIC_SEQ_CST) == t)
            pthread_kill(et->self, ks); /* the handler checks the flag again */
    pthread_mutex_unlock(&g_threads_lock);
}

/* The fault class of a failed block: global out-of-range accesses found by
 * the range checks (oacl_gm_check) get CANN's bounds-check codes in
 * memcheck mode (oacl_fault_code). */
static enum oacl_fault_class block_fault_class(const struct exec_thread *et)
{
    if (et->fclass == OACL_FAULT_CLASS_EXCEPTION && et->fault == OACL_FAULT_GM_READ)
        return OACL_FAULT_CLASS_OOB_READ;
    if (et->fclass == OACL_FAULT_CLASS_EXCEPTION && et->fault == OACL_FAULT_GM_WRITE)
        return OACL_FAULT_CLASS_OOB_WRITE;
    return (enum oacl_fault_class)et->fclass;
}

/* Calls the block's entry under a jump point; false if the block faulted.
 * Kept separate so no caller state lives across the sigsetjmp. No signal
 * mask is saved: a syscall per block would cost more than an empty kernel. */
static __attribute__((noinline)) bool call_entry(struct exec_thread *et, oacl_kernel_entry_fn entry,
                                                 const void *args)
{
    if (sigsetjmp(et->jmp, 0) != 0) {
        et->in_kernel = 0;
        return false;
    }
    et->in_kernel = 1;
    entry(args);
    et->in_kernel = 0;
    return true;
}

/* call_entry for a CPU kernel, which returns a status. */
static __attribute__((noinline)) bool call_cpu(struct exec_thread *et, uint32_t (*fn)(void *), void *args,
                                               uint32_t *ret)
{
    if (sigsetjmp(et->jmp, 0) != 0) {
        et->in_kernel = 0;
        return false;
    }
    et->in_kernel = 1;
    *ret = fn(args);
    et->in_kernel = 0;
    return true;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    default: return "signal";
    }
}

static const char *signal_what(int sig, int code)
{
    if (sig == SIGSEGV)
        return code == SEGV_ACCERR ? "invalid permissions for the address" : "address not mapped";
    if (sig == SIGBUS)
        return code == BUS_ADRALN ? "misaligned address" : "non-existent physical address";
    if (sig == SIGFPE) {
        switch (code) {
        case FPE_INTDIV: return "integer divide by zero";
        case FPE_INTOVF: return "integer overflow";
        case FPE_FLTDIV: return "floating-point divide by zero";
        case FPE_FLTINV: return "invalid floating-point operation";
        default: return "arithmetic exception";
        }
    }
    if (sig == SIGILL)
        return "illegal instruction";
    if (sig == SIGTRAP)
        return "trap instruction";
    return "fault";
}

/* The message of a block ended by a signal (after the unwind: not in
 * signal context, so the address registry may be asked). */
static void signal_message(struct exec_thread *et, const struct oacl_block_ctx *b, bool aiv, uint64_t timeout_ns)
{
    char where[200] = "";
    if (et->fclass == OACL_FAULT_CLASS_TIMEOUT) {
        snprintf(et->fault_msg, sizeof(et->fault_msg),
                 "kernel '%s' block %u/%u: stopped by the execution timeout (%llu us); there is an %s timeout "
                 "exception",
                 b->kernel_name, b->block_idx, b->block_num, (unsigned long long)(timeout_ns / 1000),
                 aiv ? "aivec" : "aicore");
        return;
    }
    if (et->sig == SIGSEGV && et->stack_lo && et->addr < et->stack_lo + 65536 &&
        et->addr + (1u << 20) >= et->stack_lo)
        snprintf(where, sizeof(where), "stack overflow (the thread's stack of %zu KiB is exhausted: deep recursion?)",
                 et->stack_size / 1024);
    else if (et->sig == SIGSEGV || et->sig == SIGBUS)
        oacl_fault_describe_addr(et->addr, where, sizeof(where));
    const char *rw = et->access == OACL_ACCESS_WRITE ? "write" : et->access == OACL_ACCESS_READ ? "read" : "access";
    char sym[96] = ""; /* the faulting function, where the dynamic loader knows it */
    Dl_info dl;
    if (et->pc && dladdr((void *)et->pc, &dl) && dl.dli_sname && dl.dli_saddr)
        snprintf(sym, sizeof(sym), " (%s+0x%" PRIxPTR ")", dl.dli_sname, et->pc - (uintptr_t)dl.dli_saddr);
    if (where[0])
        snprintf(et->fault_msg, sizeof(et->fault_msg),
                 "kernel '%s' block %u/%u: %s (%s) on %s of address 0x%" PRIxPTR ": %s; there is an %s error exception",
                 b->kernel_name, b->block_idx, b->block_num, signal_name(et->sig), signal_what(et->sig, et->si_code),
                 rw, et->addr, where, aiv ? "aivec" : "aicore");
    else
        snprintf(et->fault_msg, sizeof(et->fault_msg),
                 "kernel '%s' block %u/%u: %s (%s) at instruction address 0x%" PRIxPTR "%s; there is an %s error "
                 "exception",
                 b->kernel_name, b->block_idx, b->block_num, signal_name(et->sig), signal_what(et->sig, et->si_code),
                 et->pc ? et->pc : et->addr, sym, aiv ? "aivec" : "aicore");
}

/* Has the calling thread's block run past its deadline? (signal-safe) */
static bool block_overdue(struct exec_thread *et)
{
    uint64_t d = __atomic_load_n(&et->deadline_ns, __ATOMIC_ACQUIRE);
    if (!d)
        return false;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec >= d;
}

bool oacl_kernel_catch_signal(int sig, siginfo_t *si, void *uc)
{
    struct exec_thread *et = tls_thread;
    bool kill = sig == oacl_fault_kill_signal();
    if (!et || !et->in_kernel)
        return kill; /* not kernel code: a late kill is dropped, a fault goes on */
    bool killed = false;
    if (kill && oacl_tls_kill && __atomic_load_n(oacl_tls_kill, __ATOMIC_ACQUIRE)) {
        /* stopped or aborted (stream_ctl): unwound, not a failure */
        if (et->crit) {
            et->kill_pending = 1; /* unwound at the end of the section */
            return true;
        }
        killed = true;
        et->fclass = OACL_FAULT_CLASS_EXCEPTION;
    } else if (kill) {
        if (!block_overdue(et))
            return true; /* meant for a block that has ended since */
        if (et->crit) {
            et->kill_pending = 1; /* unwound at the end of the section */
            return true;
        }
        et->fclass = OACL_FAULT_CLASS_TIMEOUT;
    } else {
        et->fclass = OACL_FAULT_CLASS_EXCEPTION;
    }
    if (killed)
        et->fault = FAULT_KILLED;
    et->sig = kill ? 0 : sig;
    et->si_code = si ? si->si_code : 0;
    et->addr = si ? (uintptr_t)si->si_addr : 0;
    et->pc = oacl_fault_pc_of(uc);
    et->access = kill ? OACL_ACCESS_UNKNOWN : (int)oacl_fault_access_of(sig, si, uc);
    et->in_kernel = 0;
    /* The jump point saved no signal mask: put back the mask the kernel ran
       with (the handler runs with more blocked: this signal, or everything
       under a sanitizer), or the next fault on this thread would kill. */
    if (uc) {
        pthread_sigmask(SIG_SETMASK, &((const ucontext_t *)uc)->uc_sigmask, NULL);
    } else {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    }
    siglongjmp(et->jmp, 1);
}

void oacl_kernel_crit_enter(void)
{
    struct exec_thread *et = tls_thread;
    if (et)
        et->crit++;
}

void oacl_kernel_crit_leave(void)
{
    struct exec_thread *et = tls_thread;
    if (!et)
        return;
    if (--et->crit == 0 && et->kill_pending && et->in_kernel) {
        et->kill_pending = 0;
        if (oacl_tls_kill && __atomic_load_n(oacl_tls_kill, __ATOMIC_ACQUIRE)) {
            et->fault = FAULT_KILLED; /* stopped or aborted: not a failure */
            et->fclass = OACL_FAULT_CLASS_EXCEPTION;
        } else {
            et->fclass = OACL_FAULT_CLASS_TIMEOUT;
        }
        et->sig = 0;
        et->in_kernel = 0;
        siglongjmp(et->jmp, 1);
    }
}

void oacl_kernel_run_block(struct oacl_task *t, uint32_t unit)
{
    uint64_t observed = oacl_cpu_block_begin(t); /* profiler, dumps, status page */
    if (__atomic_load_n(&t->failed, __ATOMIC_ACQUIRE) || oacl_exec_stopped(t->queue) ||
        __atomic_load_n(&t->killed, __ATOMIC_ACQUIRE)) {
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
    et->fault = 0;
    tls_block = b;
    et->sig = 0;
    et->fclass = OACL_FAULT_CLASS_EXCEPTION;
    et->kill_pending = 0;
    et->crit = 0;
    oacl_tls_kill = &t->killed;
    /* Sequentially consistent with oacl_kernel_interrupt: it either sees
       this block's task or the block sees the kill flag below. */
    __atomic_store_n(&et->task, t, __ATOMIC_SEQ_CST);
    if (t->timeout_ns) {
        /* Measured from the first block of the launch (Decision 11). */
        uint64_t start = __atomic_load_n(&t->start_ns, __ATOMIC_RELAXED);
        __atomic_store_n(&et->deadline_ns, (start ? start : oacl_now_ns()) + t->timeout_ns, __ATOMIC_RELEASE);
        oacl_watchdog_arm();
    }
    bool ok;
    uint32_t cpu_ret = 0;
    const struct oacl_cpu_kernel *ck = NULL;
    const uint32_t fp = t->fp_ctl; /* float overflow detection / saturation */
    fexcept_t fe_saved;
    if (__builtin_expect(fp != 0, 0))
        oacl_fp_block_begin(fp, &fe_saved);
    if (__atomic_load_n(&t->killed, __ATOMIC_SEQ_CST)) {
        ok = false; /* stopped or aborted before it started */
        et->fault = FAULT_KILLED;
    } else if (t->kernel->entry == oacl_cpu_kernel_entry) {
        /* A CPU kernel: its return value says whether the block failed. */
        ck = (const struct oacl_cpu_kernel *)t->kernel;
        ok = call_cpu(et, ck->fn, (void *)(uintptr_t)t->args, &cpu_ret);
    } else {
        ok = call_entry(et, t->kernel->entry, t->args);
    }
    if (t->timeout_ns)
        __atomic_store_n(&et->deadline_ns, 0, __ATOMIC_RELEASE);
    if (!ok && et->fault == FAULT_KILLED) {
        /* stopped or aborted (stream_ctl): not a failure of the launch */
    } else if (!ok) {
        if (et->sig || et->fclass == OACL_FAULT_CLASS_TIMEOUT)
            signal_message(et, b, t->aiv, t->timeout_ns);
        oacl_exec_task_fail(t, oacl_fault_code(block_fault_class(et), t->aiv, oacl_memcheck_on()), et->fault_msg);
    } else if (ck && cpu_ret != 0) {
        char msg[200];
        snprintf(msg, sizeof(msg), "CPU kernel '%s' (%s) returned %u in block %u", ck->kernel_name, ck->func_name,
                 cpu_ret, b->block_idx);
        oacl_exec_task_fail(t, ACL_ERROR_RT_AICPU_EXCEPTION, msg);
    }
    oacl_tls_kill = NULL;
    __atomic_store_n(&et->task, NULL, __ATOMIC_RELEASE);
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
    case OACL_FAULT_GM_READ: return "out-of-range read";
    case OACL_FAULT_GM_WRITE: return "out-of-range write";
    default: return "kernel";
    }
}

static __attribute__((noreturn)) void kernel_fail_v(int fclass, int fault, const char *fmt, va_list ap)
{
    struct exec_thread *et = tls_thread;
    struct oacl_block_ctx *b = tls_block;
    char text[448];
    vsnprintf(text, sizeof(text), fmt, ap);
    if (!b || !et || !et->in_kernel) {
        fprintf(stderr, "[oacl ERROR] oacl_kernel_fail called outside a kernel: %s\n", text);
        abort();
    }
    snprintf(et->fault_msg, sizeof(et->fault_msg), "kernel '%s' block %u/%u: %s error: %s", b->kernel_name,
             b->block_idx, b->block_num, fault_name(fault), text);
    et->fault = fault;
    et->fclass = fclass;
    et->sig = 0;
    et->in_kernel = 0;
    siglongjmp(et->jmp, 1);
}

OACL_KAPI void oacl_kernel_fail(int fault, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kernel_fail_v(OACL_FAULT_CLASS_EXCEPTION, fault, fmt, ap);
}

void oacl_kernel_fault(enum oacl_fault_class cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kernel_fail_v((int)cls, OACL_FAULT_USER, fmt, ap);
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
    oacl_kernel_crit_enter(); /* malloc and stdout's lock: no kill inside */
    char *text = small;
    if ((size_t)n >= sizeof(small)) {
        text = malloc((size_t)n + 1);
        if (!text) {
            oacl_kernel_crit_leave();
            return -1;
        }
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
    oacl_kernel_crit_leave();
    return n;
}

void oacl_kernel_output_flush(void)
{
    if (__atomic_exchange_n(&g_printed, 0, __ATOMIC_ACQ_REL))
        fflush(stdout);
}
