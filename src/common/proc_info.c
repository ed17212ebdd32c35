#include "common/proc_info.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads /proc/<pid>/stat and returns its state letter and field 22. The
 * command name (field 2) may contain spaces and parentheses: the fields
 * after it start after the LAST ')'. */
static bool read_stat(pid_t pid, char *state, uint64_t *start)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ')
        return false;
    p += 2;
    *state = *p;
    /* p is field 3; field 22 is 19 fields further. */
    for (int field = 3; field < 22; field++) {
        p = strchr(p, ' ');
        if (!p)
            return false;
        p++;
    }
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p)
        return false;
    *start = v;
    return true;
}

bool oacl_proc_start_time(pid_t pid, uint64_t *start)
{
    char state;
    return pid > 0 && read_stat(pid, &state, start);
}

bool oacl_proc_alive(pid_t pid, uint64_t start)
{
    char state;
    uint64_t now;
    if (pid <= 0 || !read_stat(pid, &state, &now))
        return false;
    /* Z: exited, waiting to be reaped; X: being torn down. */
    return now == start && state != 'Z' && state != 'X';
}

static pid_t g_self_pid;      /* atomic */
static uint64_t g_self_start; /* atomic */

uint64_t oacl_proc_self_start(void)
{
    pid_t me = getpid();
    if (__atomic_load_n(&g_self_pid, __ATOMIC_ACQUIRE) != me) {
        uint64_t s = 0;
        oacl_proc_start_time(me, &s);
        __atomic_store_n(&g_self_start, s, __ATOMIC_RELAXED);
        __atomic_store_n(&g_self_pid, me, __ATOMIC_RELEASE);
    }
    return __atomic_load_n(&g_self_start, __ATOMIC_RELAXED);
}
