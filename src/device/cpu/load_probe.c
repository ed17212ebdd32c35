/*
 * Loading a kernel binary's shared object without risking the process.
 *
 * The dynamic loader trusts what it maps: a corrupt image (relocations that
 * point outside the object, a constructor whose code or address is
 * damaged) faults inside dlopen, where nothing can be unwound. So the
 * object is first loaded (and unloaded) in a child process: if that child dies of a
 * signal (or its sanitizer reports an error), the load is refused with a
 * message and the object is never loaded here. Only when the child
 * survived is the object loaded in this process.
 *
 * Costs a fork per load (cheap: the child shares all pages). The child
 * runs the object's constructors once more; kernel binaries only register
 * their device variables there. If the child cannot be made, or it hangs
 * (a lock held by another thread at the fork), the object is loaded as
 * usual.
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/cpu/cpu_device.h"

#define PROBE_SECONDS 20u

/* 0: the child survived (or could not tell); -1: loading crashes it (why
 * set); -2: it exited with the loader's inconsistency status (why set). */
static int probe(const char *path, void (*touch)(void *dl), char *why, size_t cap)
{
    const pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        /* A fault must kill the child: no inherited handler may catch it. */
        static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT};
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = SIG_DFL;
        for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
            sigaction(fatal[i], &sa, NULL);
        sigaction(SIGALRM, &sa, NULL);
        sigset_t none;
        sigemptyset(&none);
        pthread_sigmask(SIG_SETMASK, &none, NULL);
        alarm(PROBE_SECONDS);
        /* Unloaded too: destructors run at aclrtBinaryUnLoad. A refusal is
           reported by the real load. */
        void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (dl) {
            if (touch)
                touch(dl);
            dlclose(dl);
        }
        _exit(0);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return 0; /* reaped by someone else (a SIGCHLD handler): no verdict */
    }
    if (WIFSIGNALED(st) && WTERMSIG(st) != SIGALRM && WTERMSIG(st) != SIGKILL) {
        snprintf(why, cap, "loading it crashes the loader (%s; the image is corrupt)", strsignal(WTERMSIG(st)));
        return -1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) != 0) { /* a sanitizer's report in the child */
        snprintf(why, cap, "loading it fails in a test load (exit status %d; the image is corrupt)",
                 WEXITSTATUS(st));
        return WEXITSTATUS(st) == 127 ? -2 : -1;
    }
    return 0;
}

void *oacl_cpu_safe_dlopen(const char *path, bool probe_first, void (*touch)(void *dl), char *why, size_t cap)
{
    /* Status 127 is also the loader's own exit on an inconsistency, which
       a child made while another thread of the program (not the runtime)
       was inside dlopen sees: one more try tells that from the image. */
    int verdict = probe_first ? probe(path, touch, why, cap) : 0;
    if (verdict == -2)
        verdict = probe(path, touch, why, cap);
    if (verdict != 0)
        return NULL;
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl)
        snprintf(why, cap, "%s", dlerror());
    return dl;
}
