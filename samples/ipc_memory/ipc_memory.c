/*
 * IPC memory between two processes: process A owns device memory, process
 * B writes into it with a kernel, and A reads what B's kernel wrote.
 *
 *   A: aclrtMalloc, fill 16384 FP16 ones, aclrtIpcMemGetExportKey
 *      (importers must be whitelisted), start B
 *   B: aclrtDeviceGetBareTgid -> tells A its pid
 *   A: aclrtIpcMemSetImportPid(key, B's pid) -> sends B the key
 *   B: aclrtIpcMemImportByKey, add_custom(x, x, x) doubles the values in
 *      place, aclrtSynchronizeStream, aclrtIpcMemClose, exits
 *   A: checks 16384 twos (0x4000), aclrtIpcMemClose, aclrtFree
 *
 * The two processes talk over two pipes (the key and the pid are the only
 * things a program has to pass itself). B is this program started again
 * with "--writer <read fd> <write fd>".
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "utils.h"

#define DEVICE_ID 0
#define BLOCK_DIM 8u
#define ELEMENT_COUNT ((size_t)8 * 2048)
#define BUFFER_SIZE (ELEMENT_COUNT * sizeof(uint16_t))
#define HALF_ONE 0x3C00u
#define HALF_TWO 0x4000u
#define KEY_LEN 65

extern char **environ;

static const char *const kKernelPath = "./out/fatbin/ipc_memory_kernel/ipc_memory_kernel.o";

/* One line over a pipe, and one line back (at most n - 1 bytes). */
static int SendLine(int fd, const char *line)
{
    size_t n = strlen(line);
    return write(fd, line, n) == (ssize_t)n && write(fd, "\n", 1) == 1 ? 0 : -1;
}

static int RecvLine(int fd, char *buf, size_t n)
{
    size_t used = 0;
    while (used + 1 < n) {
        char c;
        ssize_t r = read(fd, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        if (c == '\n')
            break;
        buf[used++] = c;
    }
    buf[used] = '\0';
    return 0;
}

/* ---- process B -------------------------------------------------------------------- */

static int RunWriter(int in, int out)
{
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(DEVICE_ID));
    int32_t pid = 0;
    CHECK_ERROR(aclrtDeviceGetBareTgid(&pid)); /* the id whitelists expect */
    char line[128];
    snprintf(line, sizeof(line), "%d", (int)pid);
    if (SendLine(out, line) != 0 || RecvLine(in, line, sizeof(line)) != 0) {
        ERROR_LOG("Process B lost its connection to process A.");
        return -1;
    }
    void *shared = NULL;
    CHECK_ERROR(aclrtIpcMemImportByKey(&shared, line, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT));
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    aclrtArgsHandle args = NULL;
    aclrtParamHandle param = NULL;
    CHECK_ERROR(aclrtBinaryLoadFromFile(kKernelPath, NULL, &bin));
    CHECK_ERROR(aclrtBinaryGetFunction(bin, "add_custom", &fn));
    CHECK_ERROR(aclrtKernelArgsInit(fn, &args));
    for (int i = 0; i < 3; i++) /* x = y = z: double in place */
        CHECK_ERROR(aclrtKernelArgsAppend(args, &shared, sizeof(shared), &param));
    CHECK_ERROR(aclrtKernelArgsFinalize(args));
    CHECK_ERROR(aclrtLaunchKernelWithConfig(fn, BLOCK_DIM, NULL, NULL, args, NULL));
    CHECK_ERROR(aclrtSynchronizeStream(NULL));
    CHECK_ERROR(aclrtIpcMemClose(line));
    CHECK_ERROR(aclrtBinaryUnLoad(bin));
    CHECK_ERROR(aclrtResetDevice(DEVICE_ID));
    CHECK_ERROR(aclFinalize());
    return SendLine(out, "done");
}

/* ---- process A -------------------------------------------------------------------- */

/* Starts B with two pipes: *to writes to B, *from reads from B. */
static int StartWriter(pid_t *pid, int *to, int *from)
{
    int down[2], up[2];
    if (pipe(down) != 0 || pipe(up) != 0) {
        ERROR_LOG("pipe failed");
        return -1;
    }
    /* B inherits only its own ends. */
    fcntl(down[1], F_SETFD, FD_CLOEXEC);
    fcntl(up[0], F_SETFD, FD_CLOEXEC);
    char in[16], out[16];
    snprintf(in, sizeof(in), "%d", down[0]);
    snprintf(out, sizeof(out), "%d", up[1]);
    char *argv[] = {"/proc/self/exe", "--writer", in, out, NULL};
    if (posix_spawn(pid, "/proc/self/exe", NULL, NULL, argv, environ) != 0) {
        ERROR_LOG("cannot start process B");
        return -1;
    }
    close(down[0]);
    close(up[1]);
    *to = down[1];
    *from = up[0];
    return 0;
}

static int RunOwner(void)
{
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(DEVICE_ID));
    void *buffer = NULL;
    CHECK_ERROR(aclrtMalloc(&buffer, BUFFER_SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    static uint16_t host[ELEMENT_COUNT];
    for (size_t i = 0; i < ELEMENT_COUNT; i++)
        host[i] = HALF_ONE;
    CHECK_ERROR(aclrtMemcpy(buffer, BUFFER_SIZE, host, BUFFER_SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
    char key[KEY_LEN];
    CHECK_ERROR(aclrtIpcMemGetExportKey(buffer, BUFFER_SIZE, key, sizeof(key), ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
    INFO_LOG("Process A exported %zu FP16 values of device memory under a key.", ELEMENT_COUNT);

    pid_t child = 0;
    int to = -1, from = -1;
    if (StartWriter(&child, &to, &from) != 0)
        return -1;
    char line[128];
    int rc = RecvLine(from, line, sizeof(line));
    int32_t writer = rc == 0 ? (int32_t)atoi(line) : 0;
    if (rc == 0)
        rc = aclrtIpcMemSetImportPid(key, &writer, 1) == ACL_SUCCESS ? 0 : -1; /* only B may import */
    if (rc == 0)
        rc = SendLine(to, key);
    if (rc == 0)
        rc = RecvLine(from, line, sizeof(line));
    int status = 0;
    waitpid(child, &status, 0);
    close(to);
    close(from);
    if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || strcmp(line, "done") != 0) {
        ERROR_LOG("Process B failed.");
        return -1;
    }
    INFO_LOG("Process B imported the key and doubled the values with a kernel.");

    CHECK_ERROR(aclrtMemcpy(host, BUFFER_SIZE, buffer, BUFFER_SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < ELEMENT_COUNT; i++) {
        if (host[i] != HALF_TWO) {
            ERROR_LOG("Element %zu is 0x%04x, expected 0x%04x.", i, host[i], HALF_TWO);
            return -1;
        }
    }
    INFO_LOG("Verified %zu FP16 results written by process B's kernel.", ELEMENT_COUNT);
    CHECK_ERROR(aclrtIpcMemClose(key));
    CHECK_ERROR(aclrtFree(buffer));
    CHECK_ERROR(aclrtResetDevice(DEVICE_ID));
    CHECK_ERROR(aclFinalize());
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--writer") == 0)
        return RunWriter(atoi(argv[2]), atoi(argv[3])) == 0 ? 0 : 1;
    INFO_LOG("Start to run ipc_memory sample.");
    if (RunOwner() != 0) {
        ERROR_LOG("Run the ipc_memory sample failed.");
        return 1;
    }
    INFO_LOG("Run the ipc_memory sample successfully.");
    return 0;
}
