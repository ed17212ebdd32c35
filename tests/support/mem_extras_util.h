/*
 * Helpers of the memory-extras tests (configured allocation, queries, cache
 * maintenance, managed memory, allocator registry): calls made on a thread
 * without a context, a sentinel for outputs that must stay untouched, and
 * the free-byte figure of the current device. Header-only.
 */
#ifndef OACL_TEST_MEM_EXTRAS_UTIL_H
#define OACL_TEST_MEM_EXTRAS_UTIL_H

#include <stdio.h>
#include <string.h>

#include "test_support.h"

/* What outputs hold before a call that must not write them. */
#define SENTINEL_PTR ((void *)(uintptr_t)0x5a5a5a5a5a5a5000ull)
#define SENTINEL_U32 0x5a5a5a5au

/* A call made on a fresh thread, which has no current context. */
struct noctx_call {
    aclError (*call)(void);
    aclError rc;
    char msg[1024];
};

static inline void *noctx_thread(void *p)
{
    struct noctx_call *c = p;
    (void)aclGetRecentErrMsg();
    c->rc = c->call();
    const char *m = aclGetRecentErrMsg();
    snprintf(c->msg, sizeof(c->msg), "%s", m ? m : "");
    return NULL;
}

/* Runs call on a thread without a context: it must return want with a
 * message containing needle. */
static inline void expect_on_bare_thread(aclError (*call)(void), aclError want, const char *needle)
{
    struct noctx_call c = {.call = call};
    oacl_test_run_thread(noctx_thread, &c);
    if (c.rc != want || (needle && !strstr(c.msg, needle)))
        fail_msg("on a thread without a context: got %d (\"%s\"), expected %d mentioning \"%s\"", c.rc, c.msg, want,
                 needle ? needle : "");
}

/* Free bytes of the current device. */
static inline size_t dev_free_bytes(void)
{
    size_t f = 0, t = 0;
    ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t));
    return f;
}

#endif /* OACL_TEST_MEM_EXTRAS_UTIL_H */
