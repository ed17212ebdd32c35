/*
 * Kernel execution timeouts (reliability chapter §3.4, Decision 11):
 * aclrtSetOpExecuteTimeOut, aclrtSetOpExecuteTimeOutWithMs,
 * aclrtSetOpExecuteTimeOutV2, aclrtGetOpTimeOutInterval,
 * aclrtGetOpExecuteTimeout, and the timeout each launch carries.
 *
 * CANN's credit arithmetic is kept: a request of t us becomes
 * ceil(t / interval) credits, at most 254; t = 0 means 254 credits, or
 * never in millisecond mode (an interval below 100 000 us). The interval is
 * 2^32 ns unless OACL_OP_TIMEOUT_INTERVAL_US says otherwise. The value is
 * captured at launch; the watchdog of the CPU device stops a kernel that
 * runs past it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "common/log.h"
#include "runtime/runtime.h"

#define MAX_CREDITS 254u
#define CLASSIC_INTERVAL_NS (1ull << 32) /* 4 294 967.296 us */
#define MS_MODE_BELOW_NS 100000000ull     /* intervals under 100 000 us */
#define WITH_MS_MAX 1000000u              /* aclrtSetOpExecuteTimeOutWithMs clamps here (1000 s) */
#define NEVER UINT64_MAX

static uint64_t g_interval_ns = CLASSIC_INTERVAL_NS;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static uint64_t g_request_us; /* atomic: the process-wide request, 0 = default */

static void interval_once(void)
{
    const char *v = getenv("OACL_OP_TIMEOUT_INTERVAL_US");
    if (!v || !*v)
        return;
    char *end;
    unsigned long long us = strtoull(v, &end, 10);
    if (*end || us == 0 || us > CLASSIC_INTERVAL_NS) {
        OACL_WARN("OACL_OP_TIMEOUT_INTERVAL_US=%s is not a number of microseconds in 1..%llu; using the default", v,
                  (unsigned long long)(CLASSIC_INTERVAL_NS / 1000));
        return;
    }
    g_interval_ns = us * 1000ull;
}

static uint64_t interval_ns(void)
{
    pthread_once(&g_once, interval_once);
    return g_interval_ns;
}

static bool ms_mode(void) { return interval_ns() < MS_MODE_BELOW_NS; }

/* The effective timeout in ns of a request in us (NEVER: no limit). */
static uint64_t effective_ns(uint64_t request_us)
{
    uint64_t iv = interval_ns();
    uint64_t credits;
    if (request_us == 0) {
        if (ms_mode())
            return NEVER;
        credits = MAX_CREDITS;
    } else {
        /* ceil(t / interval); a t too large for the exact form (which
           would overflow) is over the cap anyway. */
        credits = request_us / (iv / 1000u) + 1u;
        if (credits <= MAX_CREDITS)
            credits = (request_us * 1000u + iv - 1u) / iv;
        if (credits > MAX_CREDITS)
            credits = MAX_CREDITS;
        if (credits == 0)
            credits = 1;
    }
    return credits * iv;
}

uint64_t oacl_launch_timeout_ns(const struct oacl_launch_cfg *c)
{
    uint64_t us = c && c->timeout_set ? c->timeout_ns / 1000u
                                      : __atomic_load_n(&g_request_us, __ATOMIC_ACQUIRE);
    uint64_t ns = effective_ns(us);
    return ns == NEVER ? 0 : ns; /* 0: the backend sets no deadline */
}

OACL_API aclError aclrtSetOpExecuteTimeOut(uint32_t timeout)
{
    __atomic_store_n(&g_request_us, (uint64_t)timeout * 1000000ull, __ATOMIC_RELEASE);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout)
{
    if (timeout > WITH_MS_MAX)
        timeout = WITH_MS_MAX;
    __atomic_store_n(&g_request_us, (uint64_t)timeout * 1000ull, __ATOMIC_RELEASE);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout)
{
    if (!actualTimeout)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "actualTimeout is NULL");
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    __atomic_store_n(&g_request_us, timeout, __ATOMIC_RELEASE);
    uint64_t ns = effective_ns(timeout);
    *actualTimeout = ns == NEVER ? UINT64_MAX : ns / 1000u;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetOpTimeOutInterval(uint64_t *interval)
{
    if (!interval)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "interval is NULL");
    aclError rc = oacl_ctx_require(__func__);
    if (rc)
        return rc;
    *interval = interval_ns() / 1000u;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs)
{
    if (!timeoutMs)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "timeoutMs is NULL");
    uint64_t ns = effective_ns(__atomic_load_n(&g_request_us, __ATOMIC_ACQUIRE));
    if (ns == NEVER) {
        *timeoutMs = UINT32_MAX;
        return ACL_SUCCESS;
    }
    uint64_t us = ns / 1000u; /* the effective value in whole us, as V2 reports it */
    uint64_t ms = (us + 999u) / 1000u;
    *timeoutMs = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
    return ACL_SUCCESS;
}
