// SPDX-License-Identifier: MIT
/* Job system: see jobs.h.
 *
 * One job (a parallel_for) is live at a time. The caller describes it in
 * plain fields (fn, ctx, count, chunk), then publishes it by storing the
 * claim word with release order and bumping the generation. The claim word
 * packs (chunk total << 32) | next chunk, so a single fetch_add both claims a
 * chunk and says, without reading anything else, whether the claim is real.
 *
 * Why the descriptor can be read without a lock: a thread reads it only after
 * a successful claim, and the job cannot complete (so the caller cannot
 * return and rewrite it) until that claimed chunk is reported done. A thread
 * that arrives late, even one that saw an older generation, either claims a
 * chunk of whatever job is live now (and then reads that job's descriptor,
 * published before its claim word) or finds the word exhausted and touches
 * nothing. */
#include "naval/jobs.h"

#include <assert.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

/* Chunks per thread when the grain allows it: enough slack to even out
 * uneven chunks and preempted threads, few enough that claiming stays cheap.
 * It also bounds the chunk total (<= 4 * JOBS_MAX_THREADS), so the next-chunk
 * half of the claim word cannot overflow from late failed claims. */
#define JOBS_CHUNKS_PER_THREAD 4u
#define JOBS_CACHE_LINE 64
/* Pause instructions before an idle thread starts yielding its core: a
 * pause-only spin would starve the threads with work when the pool
 * outnumbers the cores. */
#define JOBS_PAUSE_SPINS 64u

typedef struct jobs_worker {
    struct nv_jobs* pool;
    uint32_t index;
    uv_thread_t thread;
} jobs_worker;

struct nv_jobs {
    uint32_t thread_count;
    uint32_t started;  /* worker threads running (thread_count - 1 once created) */
    uint64_t spin_ns;
    uv_mutex_t mutex;      /* only for sleeping and waking, never for claiming */
    uv_cond_t work_cond;   /* workers sleep here between jobs */
    uv_cond_t done_cond;   /* the caller sleeps here waiting for completion */
    jobs_worker workers[JOBS_MAX_THREADS];  /* [0] is the caller: unused */

    /* The live job; written by the caller only while no claim can succeed. */
    alignas(JOBS_CACHE_LINE) nv_jobs_range_fn* fn;
    void* ctx;
    uint32_t count;
    uint32_t chunk;

    /* Separate lines: every claim and every completion writes these, and
     * idle workers poll the generation. */
    alignas(JOBS_CACHE_LINE) _Atomic uint64_t claim;
    alignas(JOBS_CACHE_LINE) atomic_uint done;  /* chunks of the live job finished */
    alignas(JOBS_CACHE_LINE) atomic_uint generation;
    atomic_uint sleepers;  /* workers inside the work_cond sleep protocol */
    atomic_bool stop;
    alignas(JOBS_CACHE_LINE) atomic_bool caller_waiting;
    atomic_bool busy;  /* debug check: parallel_for is not reentrant */
};

static inline void jobs_cpu_relax(void) { __builtin_ia32_pause(); }

/* Bounded polling: pause first, then yield, until spin_ns have passed. */
typedef struct jobs_spin {
    uint64_t start;
    uint32_t iter;
} jobs_spin;

static bool jobs_spin_again(jobs_spin* s, uint64_t spin_ns) {
    if (spin_ns == 0) return false;
    if (s->iter == 0) s->start = uv_hrtime();
    s->iter++;
    if (s->iter < JOBS_PAUSE_SPINS)
        jobs_cpu_relax();
    else
        sched_yield();
    /* The clock costs more than a pause: read it every 16 rounds. */
    if ((s->iter & 15u) == 0 && uv_hrtime() - s->start >= spin_ns) return false;
    return true;
}

/* Claims and runs chunks of the live job until none is left. */
static void jobs_run_chunks(nv_jobs* j, uint32_t worker) {
    for (;;) {
        /* Acquire pairs with the caller's release store of the claim word
         * (later claims are RMWs and continue its release sequence), which
         * makes the descriptor written before it visible here. */
        uint64_t c = atomic_fetch_add_explicit(&j->claim, 1, memory_order_acquire);
        uint32_t index = (uint32_t)c;
        uint32_t total = (uint32_t)(c >> 32);
        if (index >= total) return;
        uint32_t count = j->count;
        uint64_t begin = (uint64_t)index * j->chunk;
        uint64_t end = begin + j->chunk;
        if (end > count) end = count;
        j->fn(j->ctx, (uint32_t)begin, (uint32_t)end, worker);
        /* Release publishes the callback's writes to the caller's acquire
         * load of done; seq_cst orders it before the caller_waiting load
         * against the caller's store-then-load (no lost wake-up). After this
         * the descriptor may already belong to the next job: only atomics
         * from here on. */
        uint32_t finished = atomic_fetch_add_explicit(&j->done, 1, memory_order_seq_cst) + 1;
        if (finished == total && atomic_load_explicit(&j->caller_waiting, memory_order_seq_cst)) {
            uv_mutex_lock(&j->mutex);
            uv_cond_signal(&j->done_cond);
            uv_mutex_unlock(&j->mutex);
        }
    }
}

/* Waits for a generation other than seen; false when the pool is stopping. */
static bool jobs_wait_work(nv_jobs* j, uint32_t seen, uint32_t* out) {
    jobs_spin spin = {0, 0};
    uint32_t g;
    for (;;) {
        g = atomic_load_explicit(&j->generation, memory_order_acquire);
        if (g != seen) goto found;
        if (!jobs_spin_again(&spin, j->spin_ns)) break;
    }
    uv_mutex_lock(&j->mutex);
    /* seq_cst increment then load, against the caller's bump then load of
     * sleepers: either we see the new generation or the caller sees us and
     * signals under the mutex we hold until cond_wait releases it. */
    atomic_fetch_add_explicit(&j->sleepers, 1, memory_order_seq_cst);
    while ((g = atomic_load_explicit(&j->generation, memory_order_seq_cst)) == seen)
        uv_cond_wait(&j->work_cond, &j->mutex);
    atomic_fetch_sub_explicit(&j->sleepers, 1, memory_order_relaxed);
    uv_mutex_unlock(&j->mutex);
found:
    *out = g;
    /* stop is set before the generation bump that released us. */
    return !atomic_load_explicit(&j->stop, memory_order_relaxed);
}

static void jobs_worker_main(void* arg) {
    jobs_worker* w = arg;
    nv_jobs* j = w->pool;
    uint32_t seen = 0; /* the generation at creation */
    for (;;) {
        if (!jobs_wait_work(j, seen, &seen)) return;
        jobs_run_chunks(j, w->index);
    }
}

/* Wakes up to n sleeping workers (all when n covers them). */
static void jobs_wake(nv_jobs* j, uint32_t n) {
    uv_mutex_lock(&j->mutex);
    uint32_t sleeping = atomic_load_explicit(&j->sleepers, memory_order_relaxed);
    if (n >= sleeping) {
        uv_cond_broadcast(&j->work_cond);
    } else {
        for (uint32_t i = 0; i < n; i++) uv_cond_signal(&j->work_cond);
    }
    uv_mutex_unlock(&j->mutex);
}

static void jobs_stop_workers(nv_jobs* j) {
    atomic_store_explicit(&j->stop, true, memory_order_relaxed);
    atomic_fetch_add_explicit(&j->generation, 1, memory_order_seq_cst);
    jobs_wake(j, JOBS_MAX_THREADS);
    for (uint32_t i = 1; i <= j->started; i++) uv_thread_join(&j->workers[i].thread);
    j->started = 0;
}

nv_jobs_config nv_jobs_config_default(uint32_t threads) {
    nv_jobs_config cfg = {threads, JOBS_DEFAULT_SPIN_NS};
    return cfg;
}

uint32_t nv_jobs_hardware_threads(void) {
    unsigned n = uv_available_parallelism();
    if (n < 1) n = 1;
    if (n > JOBS_MAX_THREADS) n = JOBS_MAX_THREADS;
    return (uint32_t)n;
}

int nv_jobs_create(nv_jobs** out, uint32_t threads, nv_error* err) {
    nv_jobs_config cfg = nv_jobs_config_default(threads);
    return nv_jobs_create_ex(out, &cfg, err);
}

int nv_jobs_create_ex(nv_jobs** out, const nv_jobs_config* cfg, nv_error* err) {
    *out = NULL;
    if (cfg->threads < 1 || cfg->threads > JOBS_MAX_THREADS)
        return nv_error_set(err, "jobs: thread count %u outside 1..%u", cfg->threads, JOBS_MAX_THREADS);
    /* aligned_alloc: the hot atomics must really sit on their own lines. */
    nv_jobs* j = aligned_alloc(alignof(nv_jobs), sizeof(nv_jobs));
    if (!j) return nv_error_fail(err, NV_ENOMEM, "jobs: out of memory");
    memset(j, 0, sizeof *j);
    j->thread_count = cfg->threads;
    j->spin_ns = cfg->spin_ns;
    atomic_init(&j->claim, 0);
    atomic_init(&j->done, 0);
    atomic_init(&j->generation, 0);
    atomic_init(&j->sleepers, 0);
    atomic_init(&j->stop, false);
    atomic_init(&j->caller_waiting, false);
    atomic_init(&j->busy, false);
    int rc = uv_mutex_init(&j->mutex);
    if (rc != 0) {
        free(j);
        return nv_error_fail(err, NV_EINTERNAL, "jobs: mutex: %s", uv_strerror(rc));
    }
    rc = uv_cond_init(&j->work_cond);
    if (rc == 0) {
        rc = uv_cond_init(&j->done_cond);
        if (rc != 0) uv_cond_destroy(&j->work_cond);
    }
    if (rc != 0) {
        uv_mutex_destroy(&j->mutex);
        free(j);
        return nv_error_fail(err, NV_EINTERNAL, "jobs: condition variable: %s", uv_strerror(rc));
    }
    for (uint32_t i = 1; i < j->thread_count; i++) {
        jobs_worker* w = &j->workers[i];
        w->pool = j;
        w->index = i;
        rc = uv_thread_create(&w->thread, jobs_worker_main, w);
        if (rc != 0) {
            nv_jobs_destroy(j);
            return nv_error_fail(err, NV_EINTERNAL, "jobs: starting worker %u of %u: %s", i, cfg->threads - 1,
                                 uv_strerror(rc));
        }
        j->started = i;
    }
    *out = j;
    return 0;
}

void nv_jobs_destroy(nv_jobs* j) {
    if (!j) return;
    assert(!atomic_load(&j->busy) && "nv_jobs_destroy during nv_jobs_parallel_for");
    jobs_stop_workers(j);
    uv_cond_destroy(&j->done_cond);
    uv_cond_destroy(&j->work_cond);
    uv_mutex_destroy(&j->mutex);
    free(j);
}

uint32_t nv_jobs_thread_count(const nv_jobs* j) { return j->thread_count; }

static void jobs_wait_done(nv_jobs* j, uint32_t total) {
    jobs_spin spin = {0, 0};
    do {
        if (atomic_load_explicit(&j->done, memory_order_acquire) == total) return;
    } while (jobs_spin_again(&spin, j->spin_ns));
    uv_mutex_lock(&j->mutex);
    atomic_store_explicit(&j->caller_waiting, true, memory_order_seq_cst);
    while (atomic_load_explicit(&j->done, memory_order_seq_cst) != total) uv_cond_wait(&j->done_cond, &j->mutex);
    atomic_store_explicit(&j->caller_waiting, false, memory_order_relaxed);
    uv_mutex_unlock(&j->mutex);
}

void nv_jobs_parallel_for(nv_jobs* j, uint32_t count, uint32_t min_grain, nv_jobs_range_fn* fn, void* ctx) {
    assert(j && fn);
    if (count == 0) return;
#ifndef NDEBUG
    bool was_busy = atomic_exchange(&j->busy, true);
    assert(!was_busy && "nv_jobs_parallel_for is not reentrant: one call at a time per pool");
#endif
    uint32_t grain = min_grain ? min_grain : 1;
    uint32_t total = 1;
    uint64_t chunk = count;
    if (count > grain && j->thread_count > 1) {
        uint64_t target = (uint64_t)j->thread_count * JOBS_CHUNKS_PER_THREAD;
        chunk = (count + target - 1) / target;
        if (chunk < grain) chunk = grain;
        total = (uint32_t)((count + chunk - 1) / chunk);
    }

    if (total == 1) {
        /* Nothing to share (one thread, or one chunk): a handoff would only
         * add latency. */
        fn(ctx, 0, count, 0);
    } else {
        j->fn = fn;
        j->ctx = ctx;
        j->count = count;
        j->chunk = (uint32_t)chunk;
        /* The last chunk of the previous job was reported before our acquire
         * load saw done == total, so no increment of it can land after this. */
        atomic_store_explicit(&j->done, 0, memory_order_relaxed);
        atomic_store_explicit(&j->claim, (uint64_t)total << 32, memory_order_release);
        atomic_fetch_add_explicit(&j->generation, 1, memory_order_seq_cst);
        if (atomic_load_explicit(&j->sleepers, memory_order_seq_cst) != 0) jobs_wake(j, total - 1);
        jobs_run_chunks(j, 0);
        jobs_wait_done(j, total);
    }
#ifndef NDEBUG
    atomic_store(&j->busy, false);
#endif
}
