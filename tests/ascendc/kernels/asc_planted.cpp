// Planted faults written as AscendC kernels, for the fault-isolation matrix
// (tests/unit/test_fault_matrix.c); same kernels, names and arguments as
// tests/kernels/rt_planted.c, through AscendC's types and calls.
#include "kernel_operator.h"

#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

using namespace AscendC;

namespace {

// True when this block is the one that misbehaves (see rt_planted.c).
__aicore__ inline bool Chosen(GM_ADDR flag, uint32_t where, uint32_t hostTid)
{
    const bool host = static_cast<uint32_t>(syscall(SYS_gettid)) == hostTid;
    uint32_t *f = reinterpret_cast<uint32_t *>(flag);
    if (where == 0)
        return !host;
    if (host) {
        __atomic_store_n(f, 1u, __ATOMIC_RELEASE);
        return true;
    }
    while (!__atomic_load_n(f, __ATOMIC_ACQUIRE))
        sched_yield();
    return false;
}

volatile uint32_t depthLimit = UINT32_MAX; // never reached: the stack ends first

uint32_t Recurse(volatile uint8_t *prev, uint32_t depth)
{
    if (depth >= depthLimit)
        return 0;
    volatile uint8_t frame[512];
    frame[0] = static_cast<uint8_t>(depth);
    frame[511] = prev ? prev[0] : 0;
    return Recurse(frame, depth + 1) + frame[511];
}

} // namespace

#define PLANTED(name)                                                                                                \
    extern "C" __global__ __aicore__ void name(GM_ADDR flag, GM_ADDR out, uint32_t where, uint32_t host_tid)

PLANTED(null_deref)
{
    (void)out;
    if (!Chosen(flag, where, host_tid))
        return;
    volatile uintptr_t zero = 0;
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(zero), 16);
    *reinterpret_cast<volatile uint32_t *>(g.GetPhyAddr(2)) = 1; // a write 8 bytes above NULL
}

PLANTED(write_far)
{
    if (!Chosen(flag, where, host_tid))
        return;
    volatile uintptr_t far = static_cast<uintptr_t>(1) << 46;
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(reinterpret_cast<uintptr_t>(out) ^ far), 16);
    *reinterpret_cast<volatile uint32_t *>(g.GetPhyAddr(0)) = 1;
}

PLANTED(div_zero)
{
    if (!Chosen(flag, where, host_tid))
        return;
    volatile int32_t zero = 0;
    volatile int32_t x = 7;
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), 16);
    g(0) = x / zero;
}

PLANTED(illegal)
{
    (void)out;
    if (!Chosen(flag, where, host_tid))
        return;
    __builtin_trap();
}

PLANTED(deep_recursion)
{
    if (!Chosen(flag, where, host_tid))
        return;
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(out), 16);
    g(0) = Recurse(nullptr, 0);
}

PLANTED(endless)
{
    if (!Chosen(flag, where, host_tid))
        return;
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(out), 16);
    // Spins; now and then it sleeps a microsecond (see rt_planted.c).
    for (uint32_t i = 1; g.GetValue(1) != 0xdeadbeefu; i++) {
        if ((i & 1023) == 0) {
            struct timespec ts = {0, 1000};
            nanosleep(&ts, nullptr);
        }
    }
}

PLANTED(good)
{
    (void)flag;
    (void)where;
    (void)host_tid;
    const uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(out), 256);
    g(idx) = idx + 1;
}
