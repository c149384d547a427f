// SPDX-License-Identifier: MIT
/* Job system: coverage of every index exactly once over many shapes, worker
 * indices that name one thread each and are never shared at the same time,
 * visibility of the workers' writes, no lost wake-ups under back-to-back and
 * sleep-path stress, pools larger than the machine, create/destroy churn.
 * Run under ThreadSanitizer too (make test-tsan): the plain (non-atomic)
 * writes below are there so that a missing happens-before is a reported race.
 *
 * Callbacks never call cmocka's assertions (they longjmp, from the wrong
 * thread): they count violations in atomics that the test checks after. */
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "naval/jobs.h"
#include "test_util.h"

/* A deadlock must fail the test, not hang it. */
#define TEST_JOBS_WATCHDOG_S 120

static double test_jobs_now(void) { return (double)uv_hrtime() * 1e-9; }

static nv_jobs* test_jobs_pool(uint32_t threads, uint32_t spin_ns) {
    nv_jobs* j = NULL;
    nv_error err;
    nv_jobs_config cfg = nv_jobs_config_default(threads);
    cfg.spin_ns = spin_ns;
    ASSERT_OK(nv_jobs_create_ex(&j, &cfg, &err), err);
    assert_non_null(j);
    assert_int_equal(nv_jobs_thread_count(j), threads);
    return j;
}

/* ---- coverage ---------------------------------------------------------- */

#define COVER_MAX 100000u

typedef struct cover_ctx {
    atomic_uint visits[COVER_MAX];
    uint32_t count, grain, threads;
    atomic_uint bad_range;   /* empty, out of bounds, or a short chunk that is not the last */
    atomic_uint bad_worker;  /* worker index out of range */
    atomic_uint calls;
} cover_ctx;

static void cover_fn(void* p, uint32_t begin, uint32_t end, uint32_t worker) {
    cover_ctx* c = p;
    atomic_fetch_add(&c->calls, 1);
    uint32_t grain = c->grain ? c->grain : 1;
    if (begin >= end || end > c->count || (end - begin < grain && end != c->count)) atomic_fetch_add(&c->bad_range, 1);
    if (worker >= c->threads) atomic_fetch_add(&c->bad_worker, 1);
    for (uint32_t i = begin; i < end && i < COVER_MAX; i++) atomic_fetch_add_explicit(&c->visits[i], 1, memory_order_relaxed);
}

static void run_cover(nv_jobs* j, cover_ctx* c, uint32_t count, uint32_t grain) {
    c->count = count;
    c->grain = grain;
    c->threads = nv_jobs_thread_count(j);
    for (uint32_t i = 0; i < count; i++) atomic_store_explicit(&c->visits[i], 0, memory_order_relaxed);
    atomic_store(&c->bad_range, 0);
    atomic_store(&c->bad_worker, 0);
    atomic_store(&c->calls, 0);
    nv_jobs_parallel_for(j, count, grain, cover_fn, c);
    if (atomic_load(&c->bad_range) || atomic_load(&c->bad_worker))
        fail_msg("threads %u count %u grain %u: %u bad ranges, %u bad worker indices", c->threads, count, grain,
                 atomic_load(&c->bad_range), atomic_load(&c->bad_worker));
    for (uint32_t i = 0; i < count; i++) {
        unsigned v = atomic_load_explicit(&c->visits[i], memory_order_relaxed);
        if (v != 1) fail_msg("threads %u count %u grain %u: index %u visited %u times", c->threads, count, grain, i, v);
    }
    if (count == 0 && atomic_load(&c->calls) != 0) fail_msg("count 0 called the callback");
    /* A range no bigger than the grain is one chunk. */
    if (count > 0 && count <= (grain ? grain : 1) && atomic_load(&c->calls) != 1)
        fail_msg("count %u grain %u: %u calls, expected 1", count, grain, atomic_load(&c->calls));
}

static void every_index_once_across_shapes(void** state) {
    (void)state;
    static cover_ctx c;
    static const uint32_t threads[] = {1, 2, 3, 4, 8};
    static const uint32_t counts[] = {0, 1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 63, 64, 65, 255, 1000, 4097, 65536, COVER_MAX};
    static const uint32_t grains[] = {0, 1, 2, 3, 7, 64, 1000, 70000, 200000};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        nv_jobs* j = test_jobs_pool(threads[t], JOBS_DEFAULT_SPIN_NS);
        for (size_t n = 0; n < sizeof counts / sizeof counts[0]; n++)
            for (size_t g = 0; g < sizeof grains / sizeof grains[0]; g++) run_cover(j, &c, counts[n], grains[g]);
        nv_jobs_destroy(j);
    }
}

/* ---- worker identity and exclusive scratch ----------------------------- */

typedef struct worker_slot {
    atomic_int in_use;
    /* Plain fields: only the thread that holds in_use touches them. */
    bool seen;
    uv_thread_t thread;
    uint64_t sum;
    uint32_t chunks;
    char pad[64];
} worker_slot;

typedef struct ident_ctx {
    worker_slot slots[JOBS_MAX_THREADS];
    uint32_t threads;
    uv_thread_t caller;
    atomic_uint shared;         /* a slot entered while another thread held it */
    atomic_uint wrong_thread;   /* a worker index seen on two threads, or 0 off the caller */
    atomic_uint bad_worker;
    uint32_t work;              /* busy iterations per index, to widen overlaps */
} ident_ctx;

static void ident_fn(void* p, uint32_t begin, uint32_t end, uint32_t worker) {
    ident_ctx* c = p;
    if (worker >= c->threads) {
        atomic_fetch_add(&c->bad_worker, 1);
        return;
    }
    worker_slot* s = &c->slots[worker];
    if (atomic_exchange_explicit(&s->in_use, 1, memory_order_acquire) != 0) {
        atomic_fetch_add(&c->shared, 1);
        return;
    }
    uv_thread_t self = uv_thread_self();
    if (worker == 0 && !uv_thread_equal(&self, &c->caller)) atomic_fetch_add(&c->wrong_thread, 1);
    if (!s->seen) {
        s->seen = true;
        s->thread = self;
    } else if (!uv_thread_equal(&self, &s->thread)) {
        atomic_fetch_add(&c->wrong_thread, 1);
    }
    for (uint32_t i = begin; i < end; i++) {
        volatile uint32_t x = i;
        for (uint32_t k = 0; k < c->work; k++) x = x * 1664525u + 1013904223u;
        s->sum += i;
    }
    s->chunks++;
    atomic_store_explicit(&s->in_use, 0, memory_order_release);
}

static void check_identity(uint32_t threads, uint32_t spin_ns) {
    static ident_ctx c;
    memset(&c, 0, sizeof c);
    c.threads = threads;
    c.caller = uv_thread_self();
    c.work = 50;
    nv_jobs* j = test_jobs_pool(threads, spin_ns);
    const uint32_t count = 4096, rounds = 200;
    for (uint32_t r = 0; r < rounds; r++) nv_jobs_parallel_for(j, count, 1, ident_fn, &c);
    nv_jobs_destroy(j);
    assert_int_equal(atomic_load(&c.bad_worker), 0);
    assert_int_equal(atomic_load(&c.shared), 0);
    assert_int_equal(atomic_load(&c.wrong_thread), 0);
    /* Per-worker partial sums, read back by the caller with plain loads. */
    uint64_t sum = 0;
    for (uint32_t w = 0; w < threads; w++) sum += c.slots[w].sum;
    assert_true(sum == (uint64_t)rounds * count * (count - 1) / 2);
    assert_true(c.slots[0].seen);
    /* Distinct indices are distinct threads. */
    for (uint32_t a = 0; a < threads; a++)
        for (uint32_t b = a + 1; b < threads; b++)
            if (c.slots[a].seen && c.slots[b].seen && uv_thread_equal(&c.slots[a].thread, &c.slots[b].thread))
                fail_msg("workers %u and %u ran on the same thread", a, b);
}

static void one_thread_runs_inline_as_worker_0(void** state) {
    (void)state;
    static ident_ctx c;
    memset(&c, 0, sizeof c);
    c.threads = 1;
    c.caller = uv_thread_self();
    nv_jobs* j = test_jobs_pool(1, JOBS_DEFAULT_SPIN_NS);
    for (uint32_t count = 0; count < 300; count += 7) nv_jobs_parallel_for(j, count, 1, ident_fn, &c);
    nv_jobs_destroy(j);
    assert_int_equal(atomic_load(&c.bad_worker), 0);
    assert_int_equal(atomic_load(&c.wrong_thread), 0);
    assert_true(c.slots[0].seen);
    assert_true(uv_thread_equal(&c.slots[0].thread, &c.caller));
    /* One call per parallel_for: nothing to share, so no chunking. */
    assert_int_equal(c.slots[0].chunks, 300 / 7);
}

static void single_chunk_runs_on_the_caller(void** state) {
    (void)state;
    static ident_ctx c;
    memset(&c, 0, sizeof c);
    c.threads = 4;
    c.caller = uv_thread_self();
    nv_jobs* j = test_jobs_pool(4, JOBS_DEFAULT_SPIN_NS);
    for (uint32_t r = 0; r < 100; r++) nv_jobs_parallel_for(j, 1 + r % 64, 64, ident_fn, &c);
    nv_jobs_destroy(j);
    assert_int_equal(atomic_load(&c.wrong_thread), 0);
    assert_int_equal(c.slots[0].chunks, 100);
    for (uint32_t w = 1; w < 4; w++) assert_false(c.slots[w].seen);
}

static void worker_indices_are_exclusive_threads(void** state) {
    (void)state;
    check_identity(2, JOBS_DEFAULT_SPIN_NS);
    check_identity(4, JOBS_DEFAULT_SPIN_NS);
    check_identity(4, 0);
}

static void oversubscribed_pool_works(void** state) {
    (void)state;
    /* More threads than this machine has cores: preempted chunk holders and
     * spinning idlers must not stall or break anything. */
    uint32_t hw = nv_jobs_hardware_threads();
    check_identity(8, JOBS_DEFAULT_SPIN_NS);
    check_identity(hw * 4 < JOBS_MAX_THREADS ? hw * 4 : JOBS_MAX_THREADS, JOBS_DEFAULT_SPIN_NS);
}

/* ---- visibility --------------------------------------------------------- */

#define VIS_N 50000u

typedef struct vis_ctx {
    uint64_t out[VIS_N];  /* plain: ordered only by parallel_for itself */
    uint64_t round;
} vis_ctx;

static void vis_fn(void* p, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    vis_ctx* c = p;
    for (uint32_t i = begin; i < end; i++) c->out[i] = c->out[i] * 3 + i + c->round;
}

static void results_visible_after_return(void** state) {
    (void)state;
    static vis_ctx c;
    static uint64_t expect[VIS_N];
    static const uint32_t threads[] = {2, 4, 8};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        memset(&c, 0, sizeof c);
        memset(expect, 0, sizeof expect);
        nv_jobs* j = test_jobs_pool(threads[t], t == 1 ? 0 : JOBS_DEFAULT_SPIN_NS);
        for (uint64_t r = 1; r <= 50; r++) {
            /* Written by the caller, read by workers: the publish must order it. */
            c.round = r;
            uint32_t n = VIS_N - (uint32_t)(r * 97 % 1000);
            nv_jobs_parallel_for(j, n, (uint32_t)(r % 5) * 100, vis_fn, &c);
            uint64_t sum = 0, want = 0;
            for (uint32_t i = 0; i < n; i++) {
                expect[i] = expect[i] * 3 + i + r;
                sum += c.out[i];
                want += expect[i];
            }
            if (sum != want) fail_msg("threads %u round %u: sum %llu, expected %llu", threads[t], (unsigned)r,
                                      (unsigned long long)sum, (unsigned long long)want);
            assert_memory_equal(c.out, expect, n * sizeof expect[0]);
        }
        nv_jobs_destroy(j);
    }
}

/* ---- wake-ups ----------------------------------------------------------- */

/* Every thread of the pool must take part: each blocks in its first chunk
 * until all have arrived, so a worker that was never woken makes it time out
 * instead of passing. White-box: users may not make chunks wait for each
 * other, but a call with at least a chunk per thread wakes every sleeper. */
typedef struct meet_ctx {
    uint32_t threads;
    uint32_t call;            /* written by the caller between calls */
    atomic_uint arrived;
    atomic_uint timeouts;
    atomic_uint entered[JOBS_MAX_THREADS];  /* last call each worker arrived in */
} meet_ctx;

static void meet_fn(void* p, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)begin;
    (void)end;
    meet_ctx* c = p;
    if (atomic_exchange(&c->entered[worker], c->call) == c->call) return; /* not its first chunk */
    atomic_fetch_add(&c->arrived, 1);
    double deadline = test_jobs_now() + 5.0;
    while (atomic_load(&c->arrived) < c->threads) {
        if (test_jobs_now() > deadline) {
            atomic_fetch_add(&c->timeouts, 1);
            return;
        }
        sched_yield();
    }
}

static void check_all_wake(uint32_t threads, uint32_t spin_ns, uint32_t calls, uint32_t gap_every) {
    static meet_ctx c;
    memset(&c, 0, sizeof c);
    c.threads = threads;
    nv_jobs* j = test_jobs_pool(threads, spin_ns);
    for (uint32_t k = 1; k <= calls; k++) {
        c.call = k;
        atomic_store(&c.arrived, 0);
        nv_jobs_parallel_for(j, threads * 4, 1, meet_fn, &c);
        if (atomic_load(&c.timeouts) != 0)
            fail_msg("threads %u spin %u: call %u: only %u of %u threads took part", threads, spin_ns, k,
                     atomic_load(&c.arrived), threads);
        /* Let the workers run out of spin and go to sleep. */
        if (gap_every && k % gap_every == 0) {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
    nv_jobs_destroy(j);
}

static void every_worker_wakes_for_every_call(void** state) {
    (void)state;
    check_all_wake(4, 0, 300, 0);                      /* sleep path every time */
    check_all_wake(4, JOBS_DEFAULT_SPIN_NS, 300, 3);   /* spin, then sleep across gaps */
    check_all_wake(8, 2000, 200, 2);                   /* oversubscribed, short spin */
}

typedef struct stress_ctx {
    atomic_uint_fast64_t total;
    uint64_t partial[JOBS_MAX_THREADS][8];  /* per worker, own cache line */
} stress_ctx;

static void stress_fn(void* p, uint32_t begin, uint32_t end, uint32_t worker) {
    stress_ctx* c = p;
    for (uint32_t i = begin; i < end; i++) c->partial[worker][0] += i + 1;
    atomic_fetch_add_explicit(&c->total, end - begin, memory_order_relaxed);
}

static void back_to_back(uint32_t threads, uint32_t spin_ns, uint32_t calls) {
    static stress_ctx c;
    memset(&c, 0, sizeof c);
    nv_jobs* j = test_jobs_pool(threads, spin_ns);
    test_rng rng = {threads * 1000u + spin_ns};
    uint64_t want_total = 0, want_sum = 0;
    double t0 = test_jobs_now();
    for (uint32_t k = 0; k < calls; k++) {
        uint32_t n = (uint32_t)(test_rng_next(&rng) % 200);
        nv_jobs_parallel_for(j, n, 1 + (uint32_t)(test_rng_next(&rng) % 8), stress_fn, &c);
        want_total += n;
        want_sum += (uint64_t)n * (n + 1) / 2;
        /* Occasionally idle past the spin so the sleep path is mixed in. */
        if (k % 997 == 0) {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
        }
    }
    double dt = test_jobs_now() - t0;
    nv_jobs_destroy(j);
    uint64_t sum = 0;
    for (uint32_t w = 0; w < threads; w++) sum += c.partial[w][0];
    assert_true(atomic_load(&c.total) == want_total);
    assert_true(sum == want_sum);
    /* Generous: a 60 Hz tick needs far better, but this box is shared and
     * may run under TSan. A lost wake-up would show as a hang (watchdog). */
    if (dt > 30.0) fail_msg("%u calls on %u threads took %.1f s", calls, threads, dt);
}

static void many_back_to_back_calls(void** state) {
    (void)state;
    back_to_back(4, JOBS_DEFAULT_SPIN_NS, 10000);
    back_to_back(3, 0, 10000);
    back_to_back(8, 1000, 10000);
}

/* ---- lifetime ----------------------------------------------------------- */

static void create_destroy_repeatedly(void** state) {
    (void)state;
    static cover_ctx c;
    for (uint32_t k = 0; k < 200; k++) {
        uint32_t threads = 1 + k % 8;
        nv_jobs* j = test_jobs_pool(threads, k % 3 == 0 ? 0 : JOBS_DEFAULT_SPIN_NS);
        /* Some pools are destroyed before their workers ever waited. */
        if (k % 2) run_cover(j, &c, 100 + k, 1);
        nv_jobs_destroy(j);
    }
    nv_jobs_destroy(NULL);
}

static void rejects_bad_thread_counts(void** state) {
    (void)state;
    nv_error err;
    static char not_a_pool;
    nv_jobs* j = (nv_jobs*)(void*)&not_a_pool; /* must be cleared on failure */
    assert_int_equal(nv_jobs_create(&j, 0, &err), -1);
    assert_null(j);
    assert_non_null(strstr(err.message, "thread count"));
    assert_int_equal(nv_jobs_create(&j, JOBS_MAX_THREADS + 1, &err), -1);
    assert_null(j);
    ASSERT_OK(nv_jobs_create(&j, JOBS_MAX_THREADS, &err), err);
    assert_int_equal(nv_jobs_thread_count(j), JOBS_MAX_THREADS);
    nv_jobs_destroy(j);
    uint32_t hw = nv_jobs_hardware_threads();
    assert_true(hw >= 1 && hw <= JOBS_MAX_THREADS);
}

int main(void) {
    alarm(TEST_JOBS_WATCHDOG_S);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rejects_bad_thread_counts),
        cmocka_unit_test(every_index_once_across_shapes),
        cmocka_unit_test(one_thread_runs_inline_as_worker_0),
        cmocka_unit_test(single_chunk_runs_on_the_caller),
        cmocka_unit_test(worker_indices_are_exclusive_threads),
        cmocka_unit_test(oversubscribed_pool_works),
        cmocka_unit_test(results_visible_after_return),
        cmocka_unit_test(every_worker_wakes_for_every_call),
        cmocka_unit_test(many_back_to_back_calls),
        cmocka_unit_test(create_destroy_repeatedly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
