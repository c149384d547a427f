// SPDX-License-Identifier: MIT
/* The machine's own noise, measured beside a benchmark: a fixed piece of
 * work (a sum over 512 KiB, a few times) timed between the benchmark's
 * steps. Its p99 over p50 is what the machine does to identical work at
 * that moment (a shared VM slows a core by 2-10x now and then, in thread
 * CPU time as in wall time), the floor under any tail the benchmark's own
 * p99 / p50 shows. */
#ifndef NAVAL_TOOLS_BENCH_NOISE_H
#define NAVAL_TOOLS_BENCH_NOISE_H

#include <stddef.h>

typedef struct bench_noise {
    float* data;
    double* ms;     /* one time per sample */
    size_t count, capacity;
    double sink;
} bench_noise;

/* Room for `samples` timings; -1 when out of memory. */
int bench_noise_init(bench_noise* n, size_t samples);
void bench_noise_free(bench_noise* n);
/* Runs and times the fixed work once (about 0.2 ms). */
void bench_noise_sample(bench_noise* n);
/* p50 and p99 of the samples (ms); NaN without samples. */
void bench_noise_percentiles(bench_noise* n, double* p50, double* p99);

#endif
