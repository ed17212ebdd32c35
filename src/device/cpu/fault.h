/*
 * Kernel fault isolation on the CPU device (reliability chapter §2.8, §3.1,
 * Decisions 1, 9, 10): which CANN code a fault gets, the signal handlers
 * that turn a signal raised by kernel code into a failed block, the
 * per-thread alternate signal stacks, the kill signal of the timeout
 * watchdog, and the text that describes a faulting address.
 */
#ifndef OACL_DEVICE_CPU_FAULT_H
#define OACL_DEVICE_CPU_FAULT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What went wrong in a block, before the core type picks the code. */
enum oacl_fault_class {
    OACL_FAULT_CLASS_EXCEPTION = 0, /* signal, trap, rule break, oacl_kernel_fail */
    OACL_FAULT_CLASS_TIMEOUT = 1,   /* stopped by the watchdog */
    OACL_FAULT_CLASS_OOB_READ = 2,  /* a checked global-memory read outside every allocation */
    OACL_FAULT_CLASS_OOB_WRITE = 3, /* ... a write */
};

/* The one place that maps a fault to CANN's code (Decision 1): AI core
 * (AIC, MIX, unknown) 507015 / timeout 507014; vector core 507035 / 507034;
 * in memcheck (bounds-check) mode the out-of-range classes give
 * 507042/507043 (AIC read/write) and 507044/507045 (AIV); without it they
 * are plain exceptions. */
int oacl_fault_code(enum oacl_fault_class cls, bool is_aiv, bool memcheck);

/* How a faulting access touched memory, where the CPU tells. */
enum oacl_fault_access { OACL_ACCESS_UNKNOWN = 0, OACL_ACCESS_READ = 1, OACL_ACCESS_WRITE = 2 };

/* ---- signals (fault_signal.c) ---- */

/* Installs the handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP and the
 * kill signal (once per process); the previous dispositions are kept for
 * signals that do not come from kernel code. */
void oacl_fault_signals_install(void);
/* The real-time signal the watchdog sends (SIGRTMIN + 2, or OACL_KILL_SIGNAL). */
int oacl_fault_kill_signal(void);
/* Prepares the calling thread to run kernel code: the fault signals and the
 * kill signal unblocked, an alternate signal stack of at least 256 KiB
 * unless the thread already has one. stack and size receive what to pass to
 * oacl_fault_thread_fini (NULL when the thread kept its own). */
void oacl_fault_thread_init(void **stack, size_t *size);
void oacl_fault_thread_fini(void *stack, size_t size);
/* The access kind of a SIGSEGV/SIGBUS from the signal's machine context. */
enum oacl_fault_access oacl_fault_access_of(int sig, const siginfo_t *si, const void *uc);
/* The instruction address of the signal's machine context (0: unknown). */
uintptr_t oacl_fault_pc_of(const void *uc);

/* ---- kernel runner hook (kernel_exec.c) ---- */

/* Called by the handler. Unwinds the calling thread's block (does not
 * return) when the signal belongs to kernel code; returns true when the
 * signal was the kill signal and needs nothing more, false when the signal
 * is not oacl's to handle (chained to the previous disposition). */
bool oacl_kernel_catch_signal(int sig, siginfo_t *si, void *uc);

/* Kernel-side sections that hold a lock (stdio, malloc): a kill arriving
 * inside is deferred to the section's end, so no lock is left held. */
void oacl_kernel_crit_enter(void);
void oacl_kernel_crit_leave(void);

/* Fails the running block with a class other than a plain exception (the
 * memory checker's out-of-range accesses); does not return. Outside a
 * kernel it aborts, like oacl_kernel_fail. */
__attribute__((noreturn, format(printf, 2, 3))) void oacl_kernel_fault(enum oacl_fault_class cls, const char *fmt,
                                                                       ...);

/* Signals every thread whose block is past its deadline; returns the next
 * time to look (0: no block has a deadline). */
uint64_t oacl_kernel_kill_overdue(uint64_t now);

/* ---- the timeout watchdog (watchdog.c) ---- */

/* A block with a deadline starts: the watchdog (started on first use)
 * watches it, checking at least every 10 ms. */
void oacl_watchdog_arm(void);

/* ---- failure reports (fault_report.c) ---- */

struct oacl_task;
struct oacl_queue;
/* Linux thread id of the calling thread (cached). */
uint32_t oacl_cpu_thread_tid(void);
/* The calling thread queued a task with this sequence number (from 1). */
void oacl_cpu_note_last_task(uint64_t seq);
uint32_t oacl_cpu_thread_last_task(void);
/* Hands a failed task to the API layer's exception callbacks (from the
 * thread finishing it, before its completion is published). */
void oacl_cpu_report_failure(struct oacl_task *t, int code);
/* True while the calling thread reports a failure of q: a synchronise of
 * q would wait for itself. */
bool oacl_cpu_reporting(const struct oacl_queue *q);

/* ---- address descriptions (fault_describe.c) ---- */

/* Describes addr relative to the runtime's known memory: "NULL pointer",
 * "12 bytes past the end of a 1000-byte device allocation at 0x...",
 * "offset 8 of a 64-byte pinned host allocation at 0x...", or "not in any
 * allocation known to the runtime". Not for signal context (takes the
 * address registry's lock). Returns the length written. */
size_t oacl_fault_describe_addr(uintptr_t addr, char *buf, size_t len);

#endif /* OACL_DEVICE_CPU_FAULT_H */
