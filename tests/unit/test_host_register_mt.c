/*
 * Pinned memory and host registration from many threads at once: each
 * thread working on its own buffers, threads racing for the same range
 * (register, unregister, free), and lookups running while other threads
 * register and unregister.
 *
 * Worker threads never call cmocka: they record what happened and the
 * cmocka thread checks it after joining them. Start lines are barriers.
 *
 * A free racing a registration of the same memory is tested with a forced
 * order of events in test_host_mem_interleave.c: left to the scheduler, the
 * window it needs is too small to be hit reliably.
 */
#include <pthread.h>

#include "host_mem_util.h"

#define NTHREADS 8

static const uint32_t MAPPED = ACL_HOST_REG_MAPPED;
static const uint32_t PINNED = ACL_HOST_REG_PINNED;

/* First failure of a worker: which step, at which iteration, and why. */
struct failure {
    int step; /* 0: none */
    int iter;
    aclError rc;
    char msg[512];
};

static bool failed(struct failure *f, int step, int iter, aclError rc)
{
    f->step = step;
    f->iter = iter;
    f->rc = rc;
    const char *m = rc ? aclGetRecentErrMsg() : NULL;
    snprintf(f->msg, sizeof(f->msg), "%s", m ? m : "");
    return false;
}

#define CALL(f, step, iter, call)                                                                                    \
    do {                                                                                                             \
        aclError rc_ = (call);                                                                                       \
        if (rc_ != ACL_SUCCESS)                                                                                      \
            return failed((f), (step), (iter), rc_);                                                                 \
    } while (0)

#define CHECK(f, step, iter, cond)                                                                                   \
    do {                                                                                                             \
        if (!(cond))                                                                                                 \
            return failed((f), (step), (iter), ACL_SUCCESS);                                                         \
    } while (0)

static void assert_no_failure(const struct failure *f, int who)
{
    if (f->step != 0) {
        print_error("thread %d: step %d failed at iteration %d (code %d: %s)\n", who, f->step, f->iter, f->rc,
                    f->msg);
        fail();
    }
}

static int setup(void **state)
{
    (void)state;
    track_reset();
    /* The cmocka thread keeps device 0 set, so no worker's reset is final. */
    return aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    int leftovers = track_check_released();
    aclError rc = aclrtResetDevice(0);
    return leftovers == 0 && rc == ACL_SUCCESS ? 0 : -1;
}

/* ---- every thread on its own buffers ----------------------------------------------------------- */

#define OWN_ITERS 40

struct own_run {
    int id;
    struct failure f;
};

static bool own_buffers_loop(struct own_run *w)
{
    const size_t ps = page_sz();
    struct failure *f = &w->f;
    for (int i = 0; i < OWN_ITERS; i++) {
        const uint32_t seed = (uint32_t)(w->id * 1000 + i);
        /* Pinned memory, mapped with V1 or V2. */
        size_t size = ps * (size_t)(1 + (i + w->id) % 4) + (i % 2 ? 123 : 0);
        unsigned char *p = NULL;
        void *d = NULL;
        CALL(f, 1, i, aclrtMallocHost((void **)&p, size));
        fill_pattern(p, size, seed);
        if (i % 2)
            CALL(f, 2, i, aclrtHostRegister(p, size, ACL_HOST_REGISTER_MAPPED, &d));
        else
            CALL(f, 3, i, aclrtHostRegisterV2(p, size, MAPPED));
        void *d2 = NULL;
        CALL(f, 4, i, aclrtHostGetDevicePointer(p, &d2, 0));
        CHECK(f, 5, i, (i % 2 == 0 || d2 == d) && d2 != p && d2 != NULL);
        unsigned char *dev = d2;
        void *last = NULL;
        CALL(f, 6, i, aclrtHostGetDevicePointer(p + size - 1, &last, 0));
        CHECK(f, 7, i, last == dev + size - 1);
        CHECK(f, 8, i, pattern_mismatch(dev, size, seed) == SIZE_MAX);
        fill_pattern(dev, size, seed + 1);
        CHECK(f, 9, i, pattern_mismatch(p, size, seed + 1) == SIZE_MAX);
        CALL(f, 10, i, aclrtHostUnregister(p));
        CHECK(f, 11, i, pattern_mismatch(p, size, seed + 1) == SIZE_MAX);
        CALL(f, 12, i, aclrtFreeHost(p));

        /* Pageable memory: migrated while registered, sometimes pinned too. */
        const size_t hsize = 2 * ps;
        unsigned char *h = aligned_alloc(4096, hsize);
        CHECK(f, 13, i, h != NULL);
        fill_pattern(h, hsize, seed + 2);
        CALL(f, 14, i, aclrtHostRegisterV2(h, hsize, MAPPED | (i % 3 == 0 ? PINNED : 0)));
        CALL(f, 15, i, aclrtHostGetDevicePointer(h, &d, 0));
        dev = d;
        CHECK(f, 16, i, dev != h && pattern_mismatch(dev, hsize, seed + 2) == SIZE_MAX);
        fill_pattern(dev, hsize, seed + 3);
        CHECK(f, 17, i, pattern_mismatch(h, hsize, seed + 3) == SIZE_MAX);
        CALL(f, 18, i, aclrtHostUnregister(h));
        CHECK(f, 19, i, pattern_mismatch(h, hsize, seed + 3) == SIZE_MAX);
        free(h);
    }
    return true;
}

static void *own_buffers_thread(void *arg)
{
    struct own_run *w = arg;
    aclError rc = aclrtSetDevice(0);
    if (rc != ACL_SUCCESS) {
        failed(&w->f, 100, -1, rc);
        return NULL;
    }
    own_buffers_loop(w);
    rc = aclrtResetDevice(0);
    if (rc != ACL_SUCCESS && w->f.step == 0)
        failed(&w->f, 101, -1, rc);
    return NULL;
}

static void test_threads_on_own_buffers(void **state)
{
    (void)state;
    struct own_run runs[NTHREADS];
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        memset(&runs[i], 0, sizeof(runs[i]));
        runs[i].id = i;
        assert_int_equal(pthread_create(&t[i], NULL, own_buffers_thread, &runs[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < NTHREADS; i++)
        assert_no_failure(&runs[i].f, i);
}

/* ---- racing for one range ---------------------------------------------------------------------- */

enum race_op { RACE_REGISTER_V2, RACE_REGISTER_V1, RACE_UNREGISTER, RACE_FREE_HOST };

struct racer {
    pthread_barrier_t *start;
    enum race_op op;
    void *ptr;
    size_t size;
    struct outcome out;
    void *dev; /* V1: the device address it was given */
    aclError ctx_rc;
};

static void *racer_thread(void *arg)
{
    struct racer *r = arg;
    r->ctx_rc = aclrtSetDevice(0);
    r->dev = OUT_SENTINEL;
    oacl_test_clear_msgs();
    pthread_barrier_wait(r->start);
    switch (r->op) {
    case RACE_REGISTER_V2:
        outcome_take(&r->out, aclrtHostRegisterV2(r->ptr, r->size, MAPPED));
        break;
    case RACE_REGISTER_V1:
        outcome_take(&r->out, aclrtHostRegister(r->ptr, r->size, ACL_HOST_REGISTER_MAPPED, &r->dev));
        break;
    case RACE_UNREGISTER:
        outcome_take(&r->out, aclrtHostUnregister(r->ptr));
        break;
    case RACE_FREE_HOST:
        outcome_take(&r->out, aclrtFreeHost(r->ptr));
        break;
    }
    if (r->ctx_rc == ACL_SUCCESS)
        r->ctx_rc = aclrtResetDevice(0);
    return NULL;
}

/* Starts NTHREADS racers on the same start line; returns after all ended. */
static void race(struct racer *r, int n)
{
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, (unsigned)n), 0);
    pthread_t t[NTHREADS];
    for (int i = 0; i < n; i++) {
        r[i].start = &start;
        assert_int_equal(pthread_create(&t[i], NULL, racer_thread, &r[i]), 0);
    }
    for (int i = 0; i < n; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < n; i++)
        assert_int_equal(r[i].ctx_rc, ACL_SUCCESS);
}

enum mem_kind { MEM_PINNED, MEM_HEAP, MEM_SHARED, MEM_KINDS };

static unsigned char *mem_get(enum mem_kind k, size_t size)
{
    unsigned char *p = NULL;
    switch (k) {
    case MEM_PINNED:
        p = malloc_host_ok(size);
        break;
    case MEM_HEAP:
        p = aligned_alloc(4096, size);
        break;
    case MEM_SHARED:
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            p = NULL;
        break;
    default:
        break;
    }
    assert_non_null(p);
    return p;
}

static void mem_put(enum mem_kind k, unsigned char *p, size_t size)
{
    switch (k) {
    case MEM_PINNED:
        ACL_OK(aclrtFreeHost(p));
        break;
    case MEM_HEAP:
        free(p);
        break;
    case MEM_SHARED:
        assert_int_equal(munmap(p, size), 0);
        break;
    default:
        break;
    }
}

/* All threads register the same range: exactly one wins, the others get
   507910, and the winner's mapping works with the contents intact. */
static void test_race_register_same_range(void **state)
{
    (void)state;
    const size_t size = 4 * page_sz();
    for (int round = 0; round < 24; round++) {
        const enum mem_kind kind = (enum mem_kind)(round % MEM_KINDS);
        unsigned char *p = mem_get(kind, size);
        fill_pattern(p, size, (uint32_t)round);
        struct racer r[NTHREADS];
        memset(r, 0, sizeof(r));
        for (int i = 0; i < NTHREADS; i++) {
            r[i].op = (i + round) % 2 ? RACE_REGISTER_V1 : RACE_REGISTER_V2;
            r[i].ptr = p;
            r[i].size = size;
        }
        race(r, NTHREADS);
        track_reg(p);
        int winner = -1;
        for (int i = 0; i < NTHREADS; i++) {
            if (r[i].out.rc == ACL_SUCCESS) {
                assert_int_equal(winner, -1); /* only one */
                winner = i;
            } else {
                assert_outcome(&r[i].out, ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps the registered range");
                assert_ptr_equal(r[i].dev, OUT_SENTINEL);
            }
        }
        assert_true(winner >= 0);
        void *d = NULL;
        ACL_OK(aclrtHostGetDevicePointer(p, &d, 0));
        if (r[winner].op == RACE_REGISTER_V1)
            assert_ptr_equal(r[winner].dev, d);
        assert_ptr_not_equal(d, p);
        /* The losers disturbed nothing. */
        assert_pattern(d, size, (uint32_t)round);
        assert_zero_copy(p, (unsigned char *)d, size, (uint32_t)round + 100u);
        ACL_OK(aclrtHostUnregister(p));
        assert_pattern(p, size, (uint32_t)round + 101u);
        mem_put(kind, p, size);
    }
}

/* Threads register overlapping neighbours: [k, k+2) pages for k = 0..N-1.
   Whoever wins, the winners are disjoint and every loser overlaps one. */
static void test_race_register_overlapping_ranges(void **state)
{
    (void)state;
    const size_t ps = page_sz();
    for (int round = 0; round < 12; round++) {
        const enum mem_kind kind = (enum mem_kind)(round % MEM_KINDS);
        const size_t size = (NTHREADS + 1) * ps;
        unsigned char *p = mem_get(kind, size);
        fill_pattern(p, size, (uint32_t)round);
        struct racer r[NTHREADS];
        memset(r, 0, sizeof(r));
        for (int i = 0; i < NTHREADS; i++) {
            r[i].op = RACE_REGISTER_V2;
            r[i].ptr = p + (size_t)i * ps;
            r[i].size = 2 * ps;
        }
        race(r, NTHREADS);
        bool won[NTHREADS];
        for (int i = 0; i < NTHREADS; i++) {
            won[i] = r[i].out.rc == ACL_SUCCESS;
            if (!won[i])
                assert_outcome(&r[i].out, ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps the registered range");
        }
        for (int i = 0; i < NTHREADS; i++) {
            if (won[i]) {
                assert_false(i > 0 && won[i - 1]); /* neighbours overlap by a page */
            } else {
                assert_true((i > 0 && won[i - 1]) || (i + 1 < NTHREADS && won[i + 1]));
            }
        }
        for (int i = 0; i < NTHREADS; i++) {
            if (!won[i])
                continue;
            void *d = NULL;
            ACL_OK(aclrtHostGetDevicePointer(r[i].ptr, &d, 0));
            assert_memory_equal(d, r[i].ptr, 2 * ps);
            assert_zero_copy((unsigned char *)r[i].ptr, (unsigned char *)d, 2 * ps, (uint32_t)(round * 16 + i));
        }
        for (int i = 0; i < NTHREADS; i++)
            if (won[i])
                ACL_OK(aclrtHostUnregister(r[i].ptr));
        for (int i = 0; i < NTHREADS; i++)
            track_reg(r[i].ptr);
        mem_put(kind, p, size);
    }
}

static void test_race_unregister_same_range(void **state)
{
    (void)state;
    const size_t size = 3 * page_sz();
    for (int round = 0; round < 24; round++) {
        const enum mem_kind kind = (enum mem_kind)(round % MEM_KINDS);
        unsigned char *p = mem_get(kind, size);
        fill_pattern(p, size, (uint32_t)round);
        ACL_OK(aclrtHostRegisterV2(p, size, MAPPED));
        track_reg(p);
        void *d = NULL;
        ACL_OK(aclrtHostGetDevicePointer(p, &d, 0));
        fill_pattern(d, size, (uint32_t)round + 1u);
        struct racer r[NTHREADS];
        memset(r, 0, sizeof(r));
        for (int i = 0; i < NTHREADS; i++) {
            r[i].op = RACE_UNREGISTER;
            r[i].ptr = p;
        }
        race(r, NTHREADS);
        int wins = 0;
        for (int i = 0; i < NTHREADS; i++) {
            if (r[i].out.rc == ACL_SUCCESS)
                wins++;
            else
                assert_outcome(&r[i].out, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "is not registered");
        }
        assert_int_equal(wins, 1);
        void *out = OUT_SENTINEL;
        ACL_ERR(aclrtHostGetDevicePointer(p, &out, 0), ACL_ERROR_RT_PARAM_INVALID, "not inside any registered");
        assert_pattern(p, size, (uint32_t)round + 1u);
        mem_put(kind, p, size);
    }
}

static void test_race_free_host_same_pointer(void **state)
{
    (void)state;
    for (int round = 0; round < 24; round++) {
        unsigned char *p = malloc_host_ok(page_sz() * (size_t)(1 + round % 3));
        struct racer r[NTHREADS];
        memset(r, 0, sizeof(r));
        for (int i = 0; i < NTHREADS; i++) {
            r[i].op = RACE_FREE_HOST;
            r[i].ptr = p;
        }
        race(r, NTHREADS);
        int wins = 0;
        for (int i = 0; i < NTHREADS; i++) {
            if (r[i].out.rc == ACL_SUCCESS)
                wins++;
            else
                assert_outcome(&r[i].out, ACL_ERROR_RT_PARAM_INVALID, "not allocated by aclrtMallocHost");
        }
        assert_int_equal(wins, 1);
    }
}

/* ---- lookups while others register ---------------------------------------------------------- */

#define LOOKUPS 3000
#define CHURN 40

struct mixed_run {
    pthread_barrier_t *start;
    bool reader;
    unsigned char *stable_host, *stable_dev; /* readers: a registration that stays */
    size_t stable_size;
    int id;
    struct failure f;
};

static bool mixed_reader(struct mixed_run *w)
{
    struct failure *f = &w->f;
    const size_t slot = (size_t)w->id * 64; /* each reader owns 64 bytes of the buffer */
    for (int i = 0; i < LOOKUPS; i++) {
        size_t off = ((size_t)i * 4099) % w->stable_size;
        void *d = NULL;
        CALL(f, 1, i, aclrtHostGetDevicePointer(w->stable_host + off, &d, 0));
        CHECK(f, 2, i, d == w->stable_dev + off);
        volatile unsigned char *dv = w->stable_dev + slot + (size_t)(i % 64);
        *dv = (unsigned char)i;
        CHECK(f, 3, i, w->stable_host[slot + (size_t)(i % 64)] == (unsigned char)i);
    }
    return true;
}

static bool mixed_writer(struct mixed_run *w)
{
    const size_t ps = page_sz();
    struct failure *f = &w->f;
    for (int i = 0; i < CHURN; i++) {
        const uint32_t seed = (uint32_t)(w->id * 977 + i);
        const size_t size = ps * (size_t)(1 + i % 3);
        unsigned char *h = NULL;
        void *d = NULL;
        bool pinned = i % 2 == 0;
        if (pinned)
            CALL(f, 10, i, aclrtMallocHost((void **)&h, size));
        else
            CHECK(f, 11, i, (h = aligned_alloc(4096, size)) != NULL);
        fill_pattern(h, size, seed);
        CALL(f, 12, i, aclrtHostRegisterV2(h, size, MAPPED));
        CALL(f, 13, i, aclrtHostGetDevicePointer(h, &d, 0));
        CHECK(f, 14, i, pattern_mismatch(d, size, seed) == SIZE_MAX);
        fill_pattern(d, size, seed + 1);
        CHECK(f, 15, i, pattern_mismatch(h, size, seed + 1) == SIZE_MAX);
        /* The other side's stable registration is never in the way. */
        oacl_test_clear_msgs();
        aclError rc = aclrtHostRegisterV2(w->stable_host, ps, MAPPED);
        CHECK(f, 16, i, rc == ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
        CALL(f, 17, i, aclrtHostUnregister(h));
        CHECK(f, 18, i, pattern_mismatch(h, size, seed + 1) == SIZE_MAX);
        if (pinned)
            CALL(f, 19, i, aclrtFreeHost(h));
        else
            free(h);
    }
    return true;
}

static void *mixed_thread(void *arg)
{
    struct mixed_run *w = arg;
    aclError rc = aclrtSetDevice(0);
    pthread_barrier_wait(w->start);
    if (rc != ACL_SUCCESS) {
        failed(&w->f, 100, -1, rc);
        return NULL;
    }
    if (w->reader)
        mixed_reader(w);
    else
        mixed_writer(w);
    rc = aclrtResetDevice(0);
    if (rc != ACL_SUCCESS && w->f.step == 0)
        failed(&w->f, 101, -1, rc);
    return NULL;
}

static void test_lookups_during_registration_churn(void **state)
{
    (void)state;
    const size_t size = 16 * page_sz();
    unsigned char *p = malloc_host_ok(size);
    unsigned char *d = register_ok(p, size, MAPPED);
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, NTHREADS), 0);
    struct mixed_run runs[NTHREADS];
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        memset(&runs[i], 0, sizeof(runs[i]));
        runs[i].start = &start;
        runs[i].reader = i % 2 == 0;
        runs[i].stable_host = p;
        runs[i].stable_dev = d;
        runs[i].stable_size = size;
        runs[i].id = i;
        assert_int_equal(pthread_create(&t[i], NULL, mixed_thread, &runs[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < NTHREADS; i++)
        assert_no_failure(&runs[i].f, i);
    /* The stable registration came through unchanged. */
    void *again = NULL;
    ACL_OK(aclrtHostGetDevicePointer(p, &again, 0));
    assert_ptr_equal(again, d);
    assert_zero_copy(p, d, size, 7);
    ACL_OK(aclrtHostUnregister(p));
    ACL_OK(aclrtFreeHost(p));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_threads_on_own_buffers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_race_register_same_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_race_register_overlapping_ranges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_race_unregister_same_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_race_free_host_same_pointer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lookups_during_registration_churn, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
