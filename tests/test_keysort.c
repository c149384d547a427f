// SPDX-License-Identifier: MIT
/* The radix sort on the job system (base/keysort.h): the order qsort gives,
 * stable where only the high bits are sorted, the same bits at 1, 2 and 3
 * threads, and sizes at and across its block boundaries. */
#include <stdlib.h>
#include <string.h>

#include "keysort.h"
#include "naval/jobs.h"
#include "test_util.h"

static int keysort_test_compare(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

/* Keys drawn from an LCG, masked to `mask` (so some bytes never differ). */
static void keysort_test_fill(uint64_t* keys, uint32_t n, uint64_t seed, uint64_t mask) {
    uint64_t x = seed;
    for (uint32_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        keys[i] = (x ^ (x >> 29)) & mask;
    }
}

/* Sorts a copy of keys on `threads` threads (1: no pool) and returns it. */
static uint64_t* keysort_test_sorted(const uint64_t* keys, uint32_t n, uint32_t threads, int low_bit) {
    nv_jobs* pool = NULL;
    nv_error err;
    if (threads > 1) ASSERT_OK(nv_jobs_create(&pool, threads, &err), err);
    uint64_t* a = malloc((n ? n : 1) * sizeof *a);
    uint64_t* b = malloc((n ? n : 1) * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    if (n) memcpy(a, keys, n * sizeof *a);
    keysort s = {0};
    assert_int_equal(keysort_reserve(&s, n), 0);
    uint64_t* out = keysort_run(&s, pool, a, b, n, low_bit);
    keysort_free(&s);
    nv_jobs_destroy(pool);
    if (out == a) {
        free(b);
        return a;
    }
    free(a);
    return out;
}

static void keysort_matches_qsort(void** state) {
    (void)state;
    const uint32_t sizes[] = {0, 1, 2, 255, KEYSORT_BLOCK - 1, KEYSORT_BLOCK, KEYSORT_BLOCK + 1, 3 * KEYSORT_BLOCK + 17, 50000};
    const uint64_t masks[] = {~0ull, 0xffffull, 0xff00ff0000ull, 0x00ffff00ffff0000ull, 0};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (size_t mi = 0; mi < sizeof masks / sizeof *masks; mi++) {
            uint32_t n = sizes[si];
            uint64_t* keys = malloc((n ? n : 1) * sizeof *keys);
            assert_non_null(keys);
            keysort_test_fill(keys, n, 17 + si * 31 + mi, masks[mi]);
            uint64_t* want = malloc((n ? n : 1) * sizeof *want);
            assert_non_null(want);
            if (n) memcpy(want, keys, n * sizeof *want);
            qsort(want, n, sizeof *want, keysort_test_compare);
            for (uint32_t threads = 1; threads <= 3; threads++) {
                uint64_t* got = keysort_test_sorted(keys, n, threads, 0);
                for (uint32_t i = 0; i < n; i++)
                    if (got[i] != want[i])
                        fail_msg("n %u mask %zu threads %u: key %u is %llx, qsort gives %llx", n, mi, threads, i,
                                 (unsigned long long)got[i], (unsigned long long)want[i]);
                free(got);
            }
            free(want);
            free(keys);
        }
}

/* The grid's use: (cell << 32 | index) written in index order, sorted by
 * the cell alone, must come out in cell order with index order within a
 * cell: the full sort's result. */
static void keysort_high_bits_are_stable(void** state) {
    (void)state;
    const uint32_t n = 5 * KEYSORT_BLOCK + 123;
    uint64_t* keys = malloc(n * sizeof *keys);
    assert_non_null(keys);
    keysort_test_fill(keys, n, 5, 0x3ff00000000ull); /* 1024 cells */
    for (uint32_t i = 0; i < n; i++) keys[i] |= i;
    uint64_t* want = keysort_test_sorted(keys, n, 1, 0);
    for (uint32_t threads = 1; threads <= 3; threads++) {
        uint64_t* got = keysort_test_sorted(keys, n, threads, 32);
        assert_memory_equal(got, want, n * sizeof *got);
        free(got);
    }
    for (uint32_t i = 1; i < n; i++) assert_true(want[i - 1] < want[i]);
    free(want);
    free(keys);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keysort_matches_qsort),
        cmocka_unit_test(keysort_high_bits_are_stable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
