/*
 * A stream gate for tests: aclrtValueWait on the device address of a
 * mapped host word holds a stream; storing to the host word opens it.
 * Tasks queued behind a closed gate are all queued before any of them
 * runs: deterministic ordering without sleeps. Header-only.
 */
#ifndef OACL_TEST_STREAM_GATE_H
#define OACL_TEST_STREAM_GATE_H

#include <stdint.h>

#include "test_support.h"

struct test_gate {
    struct test_buf buf;
};

static inline void gate_init(struct test_gate *g) { test_buf_alloc(&g->buf, 4096); }

static inline void gate_fini(struct test_gate *g) { test_buf_free(&g->buf); }

static inline void gate_close(struct test_gate *g, aclrtStream s)
{
    __atomic_store_n((uint64_t *)g->buf.host, 0, __ATOMIC_RELEASE);
    ACL_OK(aclrtValueWait(g->buf.dev, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
}

static inline void gate_open(struct test_gate *g) { __atomic_store_n((uint64_t *)g->buf.host, 1, __ATOMIC_RELEASE); }

#endif /* OACL_TEST_STREAM_GATE_H */
