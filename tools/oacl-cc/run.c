/*
 * oacl-cc temporary files and tools: the temporary directory, the output
 * written under a temporary name and moved into place, cleanup at exit and
 * on signals, running compilers with posix_spawnp.
 */
#include "oacl_cc.h"

char g_tmpdir[PATH_MAX];  /* empty until created */
char g_out_tmp[PATH_MAX]; /* partial output, removed unless renamed */

/* The output is written under a temporary name next to it and moved into
 * place when complete: a failed or interrupted run leaves nothing. */
const char *g_out_tmp_name(void)
{
    if (!g_out_tmp[0]) {
        char *dir = oacl_dirname(g_opt.out);
        oacl_mkdir_p(dir);
        oacl_xfree(dir);
        if (snprintf(g_out_tmp, sizeof(g_out_tmp), "%s.tmp.%ld", g_opt.out, (long)getpid()) >=
            (int)sizeof(g_out_tmp))
            oacl_fatal("output path too long");
    }
    return g_out_tmp;
}

void oacl_out_commit(void)
{
    if (rename(g_out_tmp, g_opt.out) != 0)
        oacl_fatal("cannot move the output into place as '%s': %s", g_opt.out, strerror(errno));
    g_out_tmp[0] = '\0';
}

/* Temp file names are fixed per source index so that the signal handler
 * can remove them without allocating. idx < 0 names the table TU. */
static void oacl_tmp_path(char *dst, size_t cap, long idx, const char *suffix)
{
    char num[24];
    size_t n = 0;
    if (idx < 0) {
        memcpy(num, "table", 6);
        n = 5;
    } else {
        char rev[24];
        size_t r = 0;
        unsigned long v = (unsigned long)idx;
        do {
            rev[r++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (r)
            num[n++] = rev[--r];
        num[n] = '\0';
    }
    size_t d = strlen(g_tmpdir), s = strlen(suffix);
    if (d + 1 + n + s + 1 > cap) {
        dst[0] = '\0';
        return;
    }
    memcpy(dst, g_tmpdir, d);
    dst[d] = '/';
    memcpy(dst + d + 1, num, n);
    memcpy(dst + d + 1 + n, suffix, s + 1);
}

static const char *const g_tmp_suffixes[] = {".i", ".c", ".cpp", ".o", ".rw.c", ".rw.cpp", ".d", ".h"};

/* Async-signal-safe: only unlink/rmdir on names computed in place. */
static void oacl_remove_temps(void)
{
    if (g_out_tmp[0])
        unlink(g_out_tmp);
    if (!g_tmpdir[0] || g_opt.keep)
        return;
    char path[PATH_MAX];
    for (long i = -1; i < (long)g_opt.nsrcs; i++)
        for (size_t k = 0; k < sizeof(g_tmp_suffixes) / sizeof(g_tmp_suffixes[0]); k++) {
            oacl_tmp_path(path, sizeof(path), i, g_tmp_suffixes[k]);
            if (path[0])
                unlink(path);
        }
    rmdir(g_tmpdir);
}

void oacl_on_signal(int sig)
{
    oacl_remove_temps();
    signal(sig, SIG_DFL);
    raise(sig);
}

void oacl_at_exit(void)
{
    oacl_remove_temps();
    if (g_tmpdir[0] && !g_opt.keep) {
        /* Anything a tool left behind that the fixed names do not cover. */
        DIR *d = opendir(g_tmpdir);
        if (d) {
            struct dirent *e;
            char path[PATH_MAX];
            while ((e = readdir(d)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
                    snprintf(path, sizeof(path), "%s/%s", g_tmpdir, e->d_name) < (int)sizeof(path))
                    unlink(path);
            closedir(d);
            rmdir(g_tmpdir);
        }
    }
    oacl_free_all();
}

void oacl_make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char tmpl[PATH_MAX];
    if (snprintf(tmpl, sizeof(tmpl), "%s/oacl-cc.XXXXXX", base) >= (int)sizeof(tmpl))
        oacl_fatal("TMPDIR is too long");
    if (!mkdtemp(tmpl))
        oacl_fatal("cannot create a temporary directory in '%s': %s", base, strerror(errno));
    memcpy(g_tmpdir, tmpl, strlen(tmpl) + 1);
}

char *oacl_tmp(long idx, const char *suffix)
{
    char path[PATH_MAX];
    oacl_tmp_path(path, sizeof(path), idx, suffix);
    if (!path[0])
        oacl_fatal("temporary path too long");
    return oacl_strdup(path);
}

/* Shell-style quoting, only for -v output. */
static void oacl_print_cmd(char *const *argv)
{
    for (size_t i = 0; argv[i]; i++) {
        const char *a = argv[i];
        bool plain = *a != '\0';
        for (const char *p = a; *p; p++)
            if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=+,:@%-", *p))
                plain = false;
        if (i)
            fputc(' ', stderr);
        if (plain) {
            fputs(a, stderr);
            continue;
        }
        fputc('\'', stderr);
        for (const char *p = a; *p; p++)
            if (*p == '\'')
                fputs("'\\''", stderr);
            else
                fputc(*p, stderr);
        fputc('\'', stderr);
    }
    fputc('\n', stderr);
}

/* Runs argv (stdout/stderr inherited, so compiler messages reach the user)
 * and returns true if it exited with status 0. */
bool oacl_run(struct oacl_argv *cmd)
{
    if (g_opt.verbose)
        oacl_print_cmd(cmd->v);
    fflush(stdout);
    fflush(stderr);
    pid_t pid;
    int rc = posix_spawnp(&pid, cmd->v[0], NULL, NULL, cmd->v, environ);
    if (rc != 0) {
        oacl_error("cannot run '%s': %s", cmd->v[0], strerror(rc));
        return false;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            oacl_error("waiting for '%s': %s", cmd->v[0], strerror(errno));
            return false;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return true;
    if (WIFSIGNALED(status))
        oacl_error("'%s' was killed by signal %d", cmd->v[0], WTERMSIG(status));
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        oacl_error("'%s' could not be run (exit status 127)", cmd->v[0]);
    return false;
}

void oacl_mkdir_p(const char *dir)
{
    char *d = oacl_strdup(dir);
    for (char *p = d + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(d, 0777) != 0 && errno != EEXIST)
            oacl_fatal("cannot create directory '%s': %s", d, strerror(errno));
        *p = c;
        if (!c)
            break;
    }
    oacl_xfree(d);
}
