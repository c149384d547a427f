// SPDX-License-Identifier: MIT
/* A fixed pool of worker threads for the tick's data-parallel passes. The
 * thread that calls nv_jobs_parallel_for works too (as worker 0) and blocks until
 * the whole range is done, so a pass reads like a plain loop and everything
 * the callbacks wrote is visible to the caller when it returns.
 *
 * Idle threads poll for a short while (spin_ns) before sleeping, so passes
 * issued back to back start without a kernel wake-up, while a server idle
 * between ticks does not burn its cores. Nothing is allocated after
 * nv_jobs_create and no lock is taken on the hot path. */
#ifndef NAVAL_JOBS_H
#define NAVAL_JOBS_H

#include <stdint.h>

#include "nv_error.h"
#include "naval/nv_api.h"

NV_API_BEGIN

/* Threads per pool, the caller included. */
#define JOBS_MAX_THREADS 64u

typedef struct nv_jobs nv_jobs; /* opaque */

/* Work on the indices [begin, end). worker is in [0, nv_jobs_thread_count()):
 * 0 is the thread that called nv_jobs_parallel_for, and no two threads run with
 * the same worker index at the same time, so it can index per-worker scratch
 * memory without synchronisation. */
typedef void nv_jobs_range_fn(void* ctx, uint32_t begin, uint32_t end, uint32_t worker);

typedef struct nv_jobs_config {
    uint32_t threads;  /* total threads including the caller, 1..JOBS_MAX_THREADS */
    uint32_t spin_ns;  /* how long an idle thread polls for work (workers) or for
                          completion (caller) before sleeping; 0 sleeps at once */
} nv_jobs_config;

/* threads as given, spin_ns at the default (JOBS_DEFAULT_SPIN_NS). */
#define JOBS_DEFAULT_SPIN_NS 50000u
nv_jobs_config nv_jobs_config_default(uint32_t threads);

/* What the machine offers this process (libuv's available parallelism),
 * clamped to [1, JOBS_MAX_THREADS]: a reasonable default for threads. */
uint32_t nv_jobs_hardware_threads(void);

/* threads = total threads including the caller (1..JOBS_MAX_THREADS); with 1
 * no thread is started and every call runs inline on the caller. */
int nv_jobs_create(nv_jobs** out, uint32_t threads, nv_error* err);
int nv_jobs_create_ex(nv_jobs** out, const nv_jobs_config* cfg, nv_error* err);

/* Wakes and joins the workers. Safe on NULL. Not while a parallel_for runs. */
void nv_jobs_destroy(nv_jobs* j);

uint32_t nv_jobs_thread_count(const nv_jobs* j);

/* Runs fn over [0, count) in chunks of at least min_grain indices (0 counts
 * as 1) and returns when every chunk has finished; the caller claims chunks
 * too. Chunk boundaries and which worker runs which chunk depend on count,
 * the thread count and timing: a caller that needs a deterministic result
 * defines its own fixed blocks, passes the number of blocks as count, and
 * treats each index as a block. A range that fits in one chunk runs inline on
 * the caller. Chunks must not wait for one another: any of them may run on
 * the caller after all the others, with every worker asleep.
 *
 * Not reentrant: one parallel_for at a time per pool, never from inside a
 * callback (asserted in debug builds). Different pools are independent. */
void nv_jobs_parallel_for(nv_jobs* j, uint32_t count, uint32_t min_grain, nv_jobs_range_fn* fn, void* ctx);

NV_API_END

#endif
