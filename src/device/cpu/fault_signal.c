/*
 * Signal handlers of kernel fault isolation (reliability chapter Decision
 * 10). SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGTRAP raised while a thread
 * executes kernel code unwind that block (kernel_exec.c); raised anywhere
 * else they go where they would have gone without oacl: to the handler the
 * program had installed before, or to the default action (a host bug still
 * kills the process with its signal). The kill signal of the watchdog is
 * only ever acted on inside kernel code.
 *
 * Handlers run on an alternate signal stack, so that a kernel that overflows
 * its stack (deep recursion) is caught as well.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "common/log.h"
#include "device/cpu/fault.h"

#define ALT_STACK_SIZE (256u * 1024u)

static const int g_fault_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
#define NUM_FAULT_SIGS (sizeof(g_fault_sigs) / sizeof(g_fault_sigs[0]))

static struct sigaction g_prev[NUM_FAULT_SIGS + 1]; /* last slot: the kill signal */
static int g_kill_sig;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static int slot_of(int sig)
{
    for (unsigned i = 0; i < NUM_FAULT_SIGS; i++)
        if (g_fault_sigs[i] == sig)
            return (int)i;
    return sig == g_kill_sig ? (int)NUM_FAULT_SIGS : -1;
}

/* Hands a signal that is not a kernel's to the previous disposition. */
static void chain(int sig, siginfo_t *si, void *uc)
{
    int slot = slot_of(sig);
    if (slot < 0)
        return;
    const struct sigaction *p = &g_prev[slot];
    if (p->sa_flags & SA_SIGINFO) {
        if (p->sa_sigaction) {
            p->sa_sigaction(sig, si, uc);
            return;
        }
    } else if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN) {
        p->sa_handler(sig);
        return;
    } else if (p->sa_handler == SIG_IGN && si->si_code <= 0) {
        return; /* sent by someone and ignored before oacl: still ignored */
    }
    /* The default action: restore it, then let the signal happen again. A
       hardware fault repeats by itself when the instruction is re-executed;
       a sent signal, or a trap (execution continues after it), is raised
       again and delivered when this handler returns. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (si->si_code <= 0 || sig == SIGTRAP || sig == g_kill_sig)
        raise(sig);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    if (!oacl_kernel_catch_signal(sig, si, uc)) /* unwinds when it is a kernel's */
        chain(sig, si, uc);
    errno = saved;
}

static void install_once(void)
{
    const char *env = getenv("OACL_KILL_SIGNAL");
    int ks = SIGRTMIN + 2;
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (!*end && v >= SIGRTMIN && v <= SIGRTMAX)
            ks = (int)v;
        else
            OACL_WARN("OACL_KILL_SIGNAL=%s is not a real-time signal number (%d..%d); using %d", env, SIGRTMIN,
                      SIGRTMAX, ks);
    }
    g_kill_sig = ks;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (unsigned i = 0; i <= NUM_FAULT_SIGS; i++) {
        int sig = i < NUM_FAULT_SIGS ? g_fault_sigs[i] : ks;
        if (sigaction(sig, &sa, &g_prev[i]) != 0)
            OACL_WARN("cannot install the handler of signal %d (%s): kernel faults of this kind end the process",
                      sig, strerror(errno));
    }
}

void oacl_fault_signals_install(void) { pthread_once(&g_once, install_once); }

int oacl_fault_kill_signal(void)
{
    oacl_fault_signals_install();
    return g_kill_sig;
}

void oacl_fault_thread_init(void **stack, size_t *size)
{
    oacl_fault_signals_install();
    *stack = NULL;
    *size = 0;
    /* Workers start with every signal blocked; a blocked fault signal would
       kill the process instead of reaching the handler. */
    sigset_t set;
    sigemptyset(&set);
    for (unsigned i = 0; i < NUM_FAULT_SIGS; i++)
        sigaddset(&set, g_fault_sigs[i]);
    sigaddset(&set, g_kill_sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);

    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE))
        return; /* the thread has one already (the program's, or a sanitizer's) */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = ALT_STACK_SIZE + page;
    void *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (mem == MAP_FAILED) {
        OACL_WARN("no memory for an alternate signal stack: a kernel stack overflow will end the process");
        return;
    }
    mprotect(mem, page, PROT_NONE); /* a guard below: a handler overflow faults rather than corrupts */
    stack_t ss = {.ss_sp = (char *)mem + page, .ss_size = ALT_STACK_SIZE, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0) {
        munmap(mem, len);
        return;
    }
    *stack = mem;
    *size = len;
}

void oacl_fault_thread_fini(void *stack, size_t size)
{
    if (!stack)
        return;
    stack_t ss = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
    sigaltstack(&ss, NULL);
    munmap(stack, size);
}

enum oacl_fault_access oacl_fault_access_of(int sig, const siginfo_t *si, const void *uc)
{
    (void)si;
    if (sig != SIGSEGV || !uc)
        return OACL_ACCESS_UNKNOWN;
#if defined(__x86_64__)
    /* Page-fault error code: bit 1 set for a write. */
    const ucontext_t *u = uc;
    return (u->uc_mcontext.gregs[REG_ERR] & 2) ? OACL_ACCESS_WRITE : OACL_ACCESS_READ;
#else
    return OACL_ACCESS_UNKNOWN;
#endif
}

uintptr_t oacl_fault_pc_of(const void *uc)
{
    if (!uc)
        return 0;
    const ucontext_t *u = uc;
#if defined(__x86_64__)
    return (uintptr_t)u->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)u->uc_mcontext.pc;
#else
    (void)u;
    return 0;
#endif
}
