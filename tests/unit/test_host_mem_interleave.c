/*
 * Forced interleavings of aclrtFreeHost / aclrtHostUnregister with a
 * concurrent aclrtHostRegisterV2 of the same memory.
 *
 * This program interposes munmap() and pthread_rwlock_wrlock() (the runtime
 * calls both through the dynamic linker, and a definition in the executable
 * comes first). The thread that frees or unregisters is held inside the
 * runtime's munmap of the memory; while it is held, a second thread starts
 * a registration of the same range. The second thread's first attempt to
 * take a write lock is replaced by a try-lock, which never blocks: either
 * the lock is busy (the first thread still holds it, the registration then
 * waits its turn) or it is free and the registration goes ahead. Either
 * way the first thread is let go as soon as that attempt was made, so the
 * order of events is the same on every run and nothing waits on time.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>

#include "host_mem_util.h"

/* ---- interposed functions ------------------------------------------------------------------ */

static int (*real_munmap)(void *, size_t);
static int (*real_wrlock)(pthread_rwlock_t *);
static int (*real_trywrlock)(pthread_rwlock_t *);

static void *_Atomic g_hold_addr;     /* munmap of this address holds its caller */
static atomic_bool g_holding;         /* a caller is held right now */
static sem_t g_held;                  /* posted when a caller is held */
static sem_t g_release;               /* posted to let it go */
static _Atomic(pthread_t *) g_prober; /* thread whose next write lock is probed */
static atomic_int g_lock_was_free;    /* result of the probe: 1 free, 0 busy */
static atomic_bool g_release_owed;    /* the prober got the lock: it releases the
                                         held thread once its call returned */

static void resolve_real(void)
{
    real_munmap = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
    real_wrlock = (int (*)(pthread_rwlock_t *))dlsym(RTLD_NEXT, "pthread_rwlock_wrlock");
    real_trywrlock = (int (*)(pthread_rwlock_t *))dlsym(RTLD_NEXT, "pthread_rwlock_trywrlock");
}

__attribute__((visibility("default"))) int munmap(void *addr, size_t len)
{
    void *want = atomic_load(&g_hold_addr);
    if (want && addr == want && atomic_compare_exchange_strong(&g_hold_addr, &want, NULL)) {
        atomic_store(&g_holding, true);
        sem_post(&g_held);
        while (sem_wait(&g_release) != 0)
            ;
        atomic_store(&g_holding, false);
    }
    return real_munmap(addr, len);
}

__attribute__((visibility("default"))) int pthread_rwlock_wrlock(pthread_rwlock_t *lock)
{
    pthread_t *who = atomic_load(&g_prober);
    if (who && pthread_equal(*who, pthread_self()) && atomic_compare_exchange_strong(&g_prober, &who, NULL)) {
        int r = real_trywrlock(lock);
        atomic_store(&g_lock_was_free, r == 0);
        if (r == 0) {
            /* Free: go ahead, and let the held thread go after the call
               (so that the two do not overlap). */
            atomic_store(&g_release_owed, true);
            return 0;
        }
        sem_post(&g_release); /* busy: the held thread goes on, then we get it */
    }
    return real_wrlock(lock);
}

/* ---- the two threads ----------------------------------------------------------------------- */

enum first_op { FIRST_FREE_HOST, FIRST_UNREGISTER };

struct first_run {
    enum first_op op;
    void *ptr;
    struct outcome out;
};

static void *first_thread(void *arg)
{
    struct first_run *f = arg;
    aclError rc = aclrtSetDevice(0);
    oacl_test_clear_msgs();
    if (rc == ACL_SUCCESS)
        rc = f->op == FIRST_FREE_HOST ? aclrtFreeHost(f->ptr) : aclrtHostUnregister(f->ptr);
    outcome_take(&f->out, rc);
    /* Never held (the runtime did not unmap that address): let the cmocka
       thread see it instead of waiting forever. */
    void *want = atomic_load(&g_hold_addr);
    if (want && atomic_compare_exchange_strong(&g_hold_addr, &want, NULL))
        sem_post(&g_held);
    (void)aclrtResetDevice(0);
    return NULL;
}

struct second_run {
    pthread_t self;
    void *ptr;
    size_t size;
    struct outcome out;
};

static void *second_thread(void *arg)
{
    struct second_run *s = arg;
    aclError rc = aclrtSetDevice(0);
    s->self = pthread_self();
    atomic_store(&g_prober, &s->self);
    oacl_test_clear_msgs();
    if (rc == ACL_SUCCESS)
        rc = aclrtHostRegisterV2(s->ptr, s->size, ACL_HOST_REG_MAPPED);
    outcome_take(&s->out, rc);
    /* Release the held thread if the probe owes it, or never ran (the
       registration took no write lock). */
    pthread_t *who = atomic_load(&g_prober);
    bool never_probed = who && atomic_compare_exchange_strong(&g_prober, &who, NULL);
    if (atomic_exchange(&g_release_owed, false) || never_probed)
        sem_post(&g_release);
    (void)aclrtResetDevice(0);
    return NULL;
}

/*
 * Runs `op` on ptr in one thread, holds it in munmap(hold), registers
 * [ptr, +size) from another thread meanwhile. Returns whether the first
 * thread was held at all.
 */
static bool interleave(enum first_op op, void *ptr, void *hold, size_t size, struct first_run *f,
                       struct second_run *s)
{
    memset(f, 0, sizeof(*f));
    memset(s, 0, sizeof(*s));
    f->op = op;
    f->ptr = ptr;
    s->ptr = ptr;
    s->size = size;
    atomic_store(&g_lock_was_free, -1);
    atomic_store(&g_release_owed, false);
    atomic_store(&g_hold_addr, hold);
    pthread_t tf, ts;
    assert_int_equal(pthread_create(&tf, NULL, first_thread, f), 0);
    while (sem_wait(&g_held) != 0)
        ;
    bool held = atomic_load(&g_holding);
    if (held) {
        assert_int_equal(pthread_create(&ts, NULL, second_thread, s), 0);
        assert_int_equal(pthread_join(ts, NULL), 0);
    }
    assert_int_equal(pthread_join(tf, NULL), 0);
    return held;
}

static int setup(void **state)
{
    (void)state;
    track_reset();
    return aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    atomic_store(&g_hold_addr, NULL);
    atomic_store(&g_prober, NULL);
    int leftovers = track_check_released();
    aclError rc = aclrtResetDevice(0);
    return leftovers == 0 && rc == ACL_SUCCESS ? 0 : -1;
}

/* ---- tests ------------------------------------------------------------------------------------- */

/*
 * aclrtFreeHost has decided to free the allocation and is unmapping it;
 * a registration of the same range arriving now must fail (the memory is
 * gone), not succeed on pages that disappear a moment later.
 *
 * (Regression: the free used to unmap after releasing the registry lock.)
 */
static void test_register_while_free_host_unmaps(void **state)
{
    (void)state;
    const size_t size = 4 * page_sz();
    void *p = malloc_host_ok(size);
    struct first_run f;
    struct second_run s;
    bool held = interleave(FIRST_FREE_HOST, p, p, size, &f, &s);
    track_reg(p);
    assert_true(held); /* the runtime unmaps the allocation it frees */
    assert_outcome(&f.out, ACL_SUCCESS, "");
    bool registered = s.out.rc == ACL_SUCCESS;
    if (registered)
        ACL_OK(aclrtHostUnregister(p)); /* keep the registry clean for the other tests */
    if (registered)
        fail_msg("aclrtHostRegisterV2 succeeded on memory that aclrtFreeHost was unmapping (registry lock %s "
                 "during the unmap)",
                 atomic_load(&g_lock_was_free) == 1 ? "free" : "held");
    assert_outcome(&s.out, ACL_ERROR_RT_PARAM_INVALID, "not mapped");
}

/*
 * aclrtHostUnregister is tearing down a mapping (held in the munmap of the
 * device alias); a registration of the same range arriving now waits and
 * then succeeds on the pages in their final state, contents intact.
 */
static void check_register_while_unregistering(unsigned char *p, size_t size)
{
    fill_pattern(p, size, 5);
    void *d = register_ok(p, size, ACL_HOST_REG_MAPPED);
    fill_pattern(d, size, 6);
    struct first_run f;
    struct second_run s;
    bool held = interleave(FIRST_UNREGISTER, p, d, size, &f, &s);
    assert_true(held); /* the runtime unmaps the device alias */
    assert_outcome(&f.out, ACL_SUCCESS, "");
    assert_outcome(&s.out, ACL_SUCCESS, "");
    assert_int_equal(atomic_load(&g_lock_was_free), 0); /* it had to wait */
    void *d2 = NULL;
    ACL_OK(aclrtHostGetDevicePointer(p, &d2, 0));
    assert_pattern(p, size, 6);
    assert_pattern(d2, size, 6);
    assert_zero_copy(p, (unsigned char *)d2, size, 7);
    ACL_OK(aclrtHostUnregister(p));
    assert_pattern(p, size, 8);
}

static void test_register_while_unregister_unmaps(void **state)
{
    (void)state;
    const size_t size = 4 * page_sz();
    /* Pinned memory (aliased) and pageable memory (migrated). */
    unsigned char *p = malloc_host_ok(size);
    check_register_while_unregistering(p, size);
    ACL_OK(aclrtFreeHost(p));
    unsigned char *h = aligned_alloc(4096, size);
    assert_non_null(h);
    check_register_while_unregistering(h, size);
    free(h);
}

int main(void)
{
    resolve_real();
    if (!real_munmap || !real_wrlock || !real_trywrlock || sem_init(&g_held, 0, 0) != 0 ||
        sem_init(&g_release, 0, 0) != 0) {
        fprintf(stderr, "cannot set up the interposed functions\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_register_while_free_host_unmaps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_register_while_unregister_unmaps, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
