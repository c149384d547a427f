// SPDX-License-Identifier: MIT
/* bench-jobs: what a parallel_for costs and how a synthetic pass scales.
 *
 *   bench-jobs [MAX_THREADS] [--spin NS]
 *
 * For 1..MAX_THREADS threads (default: the machine's) prints
 *   hot    empty parallel_for (4 chunks per thread) issued back to back, the
 *          way a tick issues its passes: workers are still spinning;
 *   meet   a call whose t chunks each wait for all t threads to arrive: the
 *          round trip with every worker taking part (hot, back to back);
 *   cold   an empty call after 2 ms idle: workers asleep, the call pays the
 *          wake-up (median);
 *   inline a one-chunk call, which never leaves the caller;
 *   pass   a compute-bound pass (per-index work, per-worker partial sums) and
 *          its speedup over one thread.
 * Each figure is the best of several repeats: the machine may be shared. */
#include <inttypes.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

#include "cli.h"
#include "naval/jobs.h"

#define BENCH_REPEATS 7
#define BENCH_HOT_CALLS 20000u
#define BENCH_MEET_CALLS 2000u
#define BENCH_COLD_CALLS 200u
#define BENCH_PASS_ITEMS (1u << 16)
#define BENCH_PASS_WORK 400u

static void bench_empty(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)ctx;
    (void)begin;
    (void)end;
    (void)worker;
}

/* Every thread must take one of the t chunks: each waits for all to arrive. */
typedef struct bench_meet {
    atomic_uint arrived;
    uint32_t target;  /* written by the caller before each call */
} bench_meet;

static void bench_meet_fn(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)begin;
    (void)end;
    (void)worker;
    bench_meet* m = ctx;
    atomic_fetch_add(&m->arrived, 1);
    /* Yield when the pool outnumbers the cores, or the wait never ends. */
    for (uint32_t spins = 0; atomic_load(&m->arrived) < m->target; spins++)
        if (spins > 64) sched_yield();
}

typedef struct bench_partial {
    double sum;
    char pad[56];  /* one cache line per worker: no false sharing */
} bench_partial;

typedef struct bench_pass {
    bench_partial partial[JOBS_MAX_THREADS];
} bench_pass;

static void bench_work(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    bench_pass* p = ctx;
    double acc = 0.0;
    for (uint32_t i = begin; i < end; i++) {
        double x = (double)i * 1e-6;
        for (uint32_t k = 0; k < BENCH_PASS_WORK; k++) x = x * 0.999999 + 1e-7;
        acc += x;
    }
    p->partial[worker].sum += acc;
}

static void bench_sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int bench_cmp_u64(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

typedef struct jobs_args {
    uint32_t max_threads, spin_ns;
} jobs_args;

static int jobs_positional(const char* arg, void* args, char* why, size_t n) {
    uint64_t v;
    if (cli_parse_u64(arg, 1, JOBS_MAX_THREADS, &v)) {
        snprintf(why, n, "MAX_THREADS must be 1..%u (got '%s')", JOBS_MAX_THREADS, arg);
        return -1;
    }
    ((jobs_args*)args)->max_threads = (uint32_t)v;
    return 0;
}

static const cli_opt jobs_opts[] = {
    {"--spin", .type = CLI_UINT, CLI_FIELD(jobs_args, spin_ns), .min = 0, .max = 1e9, .value_name = "NS",
     .bad = "--spin: expected nanoseconds in [0, 1e9]",
     .help = "how long idle workers spin before they sleep (default: the pool's, 50000 ns)"},
    {0}};

static const cli_spec jobs_spec = {
    .prog = "bench-jobs",
    .synopsis = "bench-jobs [MAX_THREADS] [--spin NS]",
    .about = "The job pool's dispatch and a pass's speedup at 1..MAX_THREADS threads (default: the hardware's).",
    .opts = jobs_opts,
    .positional = jobs_positional};

int main(int argc, char** argv) {
    jobs_args args = {nv_jobs_hardware_threads(), JOBS_DEFAULT_SPIN_NS};
    int rc = cli_parse(&jobs_spec, argc, argv, &args);
    if (rc != CLI_RUN) return rc;
    uint32_t max_threads = args.max_threads, spin_ns = args.spin_ns;
    if (max_threads < 1 || max_threads > JOBS_MAX_THREADS) {
        fprintf(stderr, "bench-jobs: MAX_THREADS must be 1..%u\n", JOBS_MAX_THREADS);
        return 2;
    }
    printf("bench-jobs: %u hardware threads, spin %u ns, best of %d\n", nv_jobs_hardware_threads(), spin_ns,
           BENCH_REPEATS);
    printf("%7s %8s %8s %12s %10s %9s %8s\n", "threads", "hot us", "meet us", "cold med us", "inline ns", "pass ms",
           "speedup");

    static bench_pass pass;
    double pass_1 = 0.0;
    for (uint32_t t = 1; t <= max_threads; t++) {
        nv_jobs* j = NULL;
        nv_error err;
        nv_jobs_config cfg = nv_jobs_config_default(t);
        cfg.spin_ns = spin_ns;
        if (nv_jobs_create_ex(&j, &cfg, &err) != 0) {
            fprintf(stderr, "bench-jobs: %s\n", err.message);
            return 1;
        }
        double hot = 1e30, meet = 1e30, cold = 1e30, inl = 1e30, pass_ms = 1e30;
        static bench_meet m;
        atomic_store(&m.arrived, 0);
        m.target = 0;
        for (int r = 0; r < BENCH_REPEATS; r++) {
            uint64_t t0 = uv_hrtime();
            for (uint32_t k = 0; k < BENCH_HOT_CALLS; k++) nv_jobs_parallel_for(j, t * 4, 1, bench_empty, NULL);
            double us = (double)(uv_hrtime() - t0) * 1e-3 / BENCH_HOT_CALLS;
            if (us < hot) hot = us;

            t0 = uv_hrtime();
            for (uint32_t k = 0; k < BENCH_MEET_CALLS; k++) {
                m.target += t;
                nv_jobs_parallel_for(j, t, 1, bench_meet_fn, &m);
            }
            us = (double)(uv_hrtime() - t0) * 1e-3 / BENCH_MEET_CALLS;
            if (us < meet) meet = us;

            t0 = uv_hrtime();
            for (uint32_t k = 0; k < BENCH_HOT_CALLS; k++) nv_jobs_parallel_for(j, 1, 1, bench_empty, NULL);
            double ns = (double)(uv_hrtime() - t0) / BENCH_HOT_CALLS;
            if (ns < inl) inl = ns;

            memset(&pass, 0, sizeof pass);
            t0 = uv_hrtime();
            nv_jobs_parallel_for(j, BENCH_PASS_ITEMS, 64, bench_work, &pass);
            double ms = (double)(uv_hrtime() - t0) * 1e-6;
            if (ms < pass_ms) pass_ms = ms;
        }
        /* Cold calls are few and slow: a median per repeat set is steadier. */
        static uint64_t cold_ns[BENCH_COLD_CALLS];
        for (uint32_t k = 0; k < BENCH_COLD_CALLS; k++) {
            bench_sleep_ms(2);
            uint64_t t0 = uv_hrtime();
            nv_jobs_parallel_for(j, t * 4, 1, bench_empty, NULL);
            cold_ns[k] = uv_hrtime() - t0;
        }
        qsort(cold_ns, BENCH_COLD_CALLS, sizeof cold_ns[0], bench_cmp_u64);
        cold = (double)cold_ns[BENCH_COLD_CALLS / 2] * 1e-3;

        double check = 0.0;
        for (uint32_t w = 0; w < t; w++) check += pass.partial[w].sum;
        if (t == 1) pass_1 = pass_ms;
        printf("%7u %8.2f %8.2f %12.1f %10.1f %9.2f %7.2fx   (sum %.6g)\n", t, hot, meet, cold, inl, pass_ms,
               pass_1 / pass_ms, check);
        nv_jobs_destroy(j);
    }
    return 0;
}
