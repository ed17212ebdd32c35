/*
 * Page map: every page answers the value of the range that covers it
 * fully, OACL_PAGEMAP_SHARED where a range covers it in part, NULL
 * elsewhere — checked against a brute-force model over random ranges, with
 * huge spans and node merging in between.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/pagemap.h"

#define PG 4096ull

static void *val(int i) { return (void *)(uintptr_t)(0x1000 + 16 * i); }

static void test_basics(void **state)
{
    (void)state;
    struct oacl_pagemap pm = {0};
    assert_null(oacl_pagemap_get(&pm, 0x7f0000000000));
    /* Whole pages. */
    assert_int_equal(oacl_pagemap_set(&pm, 0x10000, 3 * PG, val(1)), 0);
    assert_ptr_equal(oacl_pagemap_get(&pm, 0x10000), val(1));
    assert_ptr_equal(oacl_pagemap_get(&pm, 0x12fff), val(1));
    assert_null(oacl_pagemap_get(&pm, 0x13000));
    assert_null(oacl_pagemap_get(&pm, 0xffff));
    /* Part of a page: shared, whatever the range's value. */
    assert_int_equal(oacl_pagemap_set(&pm, 0x20100, 0x100, val(2)), 0);
    assert_ptr_equal(oacl_pagemap_get(&pm, 0x20000), OACL_PAGEMAP_SHARED);
    assert_int_equal(oacl_pagemap_set(&pm, 0x30800, 2 * PG, val(3)), 0);
    assert_ptr_equal(oacl_pagemap_get(&pm, 0x30000), OACL_PAGEMAP_SHARED);
    assert_ptr_equal(oacl_pagemap_get(&pm, 0x31000), val(3));
    assert_ptr_equal(oacl_pagemap_get(&pm, 0x32000), OACL_PAGEMAP_SHARED);
    /* Clearing leaves shared pages shared. */
    assert_int_equal(oacl_pagemap_set(&pm, 0x30800, 2 * PG, NULL), 0);
    assert_ptr_equal(oacl_pagemap_get(&pm, 0x30000), OACL_PAGEMAP_SHARED);
    assert_null(oacl_pagemap_get(&pm, 0x31000));
    /* A huge range costs few nodes, and clearing it frees them again. */
    size_t before = pm.nodes;
    assert_int_equal(oacl_pagemap_set(&pm, 0x400000000000, 1ull << 36, val(4)), 0); /* 64 GiB, aligned */
    assert_true(pm.nodes <= before + 3);
    assert_ptr_equal(oacl_pagemap_get(&pm, 0x400000000000 + (1ull << 35) + 123), val(4));
    assert_int_equal(oacl_pagemap_set(&pm, 0x400000000000, 1ull << 36, NULL), 0);
    assert_true(pm.nodes <= before);
    /* Addresses beyond 48 bits are never mapped. */
    assert_null(oacl_pagemap_get(&pm, (uintptr_t)1 << 48));
    assert_int_equal(oacl_pagemap_set(&pm, (uintptr_t)1 << 48, PG, val(5)), -22);
    oacl_pagemap_destroy(&pm);
    assert_int_equal(pm.nodes, 0);
}

/* Brute-force model over a window of pages. */
#define WINDOW_PAGES 4096u
#define RANGES 64

struct range {
    uint64_t start, len;
    int live;
};

static void check_against_model(const struct oacl_pagemap *pm, uint64_t base, const struct range *r, unsigned seed)
{
    for (uint64_t p = 0; p < WINDOW_PAGES; p++) {
        uint64_t lo = base + p * PG, hi = lo + PG;
        void *want = NULL;
        int shared = 0;
        for (int i = 0; i < RANGES; i++) {
            if (!r[i].live || r[i].start >= hi || r[i].start + r[i].len <= lo)
                continue;
            if (r[i].start <= lo && r[i].start + r[i].len >= hi)
                want = val(i);
            else
                shared = 1;
        }
        void *got = oacl_pagemap_get(pm, lo + (p * 37) % PG);
        /* A page once shared stays shared after its ranges go: the model
           only requires that a SHARED answer never hides a full cover. */
        if (want) {
            if (got != want)
                fail_msg("seed %u: page %llu: got %p, want %p", seed, (unsigned long long)p, got, want);
        } else if (shared) {
            if (got != OACL_PAGEMAP_SHARED)
                fail_msg("seed %u: page %llu: got %p, want SHARED", seed, (unsigned long long)p, got);
        } else if (got != NULL && got != OACL_PAGEMAP_SHARED) {
            fail_msg("seed %u: page %llu: got %p, want NULL", seed, (unsigned long long)p, got);
        }
    }
}

static void test_random_model(void **state)
{
    (void)state;
    unsigned seed = getenv("OACL_TEST_SEED") ? (unsigned)atoi(getenv("OACL_TEST_SEED")) : 12345u;
    srand(seed);
    /* A window straddling a 2 MiB and a 1 GiB boundary. */
    const uint64_t base = 0x7f0000000000ull - 2048 * PG;
    struct oacl_pagemap pm = {0};
    struct range r[RANGES];
    memset(r, 0, sizeof(r));
    for (int step = 0; step < 3000; step++) {
        int i = rand() % RANGES;
        if (r[i].live) {
            assert_int_equal(oacl_pagemap_set(&pm, base + r[i].start, r[i].len, NULL), 0);
            r[i].live = 0;
        } else {
            /* A new range that overlaps no live one (the registry's rule). */
            uint64_t start = (uint64_t)rand() % (WINDOW_PAGES * PG - PG);
            uint64_t len = rand() % 4 == 0 ? (uint64_t)(rand() % 600) * PG : 1 + (uint64_t)rand() % (3 * PG);
            if (rand() % 2)
                start &= ~(PG - 1);
            if (start + len > WINDOW_PAGES * PG || len == 0)
                continue;
            int clash = 0;
            for (int k = 0; k < RANGES; k++)
                if (r[k].live && r[k].start < start + len && start < r[k].start + r[k].len)
                    clash = 1;
            if (clash)
                continue;
            r[i] = (struct range){start, len, 1};
            assert_int_equal(oacl_pagemap_set(&pm, base + start, len, val(i)), 0);
        }
        if (step % 100 == 0) {
            struct range abs[RANGES];
            for (int k = 0; k < RANGES; k++)
                abs[k] = (struct range){base + r[k].start, r[k].len, r[k].live};
            check_against_model(&pm, base, abs, seed);
        }
    }
    oacl_pagemap_destroy(&pm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basics),
        cmocka_unit_test(test_random_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
