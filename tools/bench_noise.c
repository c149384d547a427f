// SPDX-License-Identifier: MIT
#include "bench_noise.h"

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>

#define BENCH_NOISE_FLOATS (128u * 1024u) /* 512 KiB: past L1 and L2 on most cores, inside L3 */
#define BENCH_NOISE_PASSES 4

int bench_noise_init(bench_noise* n, size_t samples) {
    n->count = 0;
    n->capacity = samples;
    n->sink = 0.0;
    n->data = malloc(BENCH_NOISE_FLOATS * sizeof *n->data);
    n->ms = malloc((samples ? samples : 1) * sizeof *n->ms);
    if (!n->data || !n->ms) {
        bench_noise_free(n);
        return -1;
    }
    for (uint32_t i = 0; i < BENCH_NOISE_FLOATS; i++) n->data[i] = (float)(i & 1023) * 0.001f;
    return 0;
}

void bench_noise_free(bench_noise* n) {
    free(n->data);
    free(n->ms);
    n->data = NULL;
    n->ms = NULL;
    n->count = n->capacity = 0;
}

void bench_noise_sample(bench_noise* n) {
    if (!n->data || n->count >= n->capacity) return;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (int p = 0; p < BENCH_NOISE_PASSES; p++)
        for (uint32_t i = 0; i < BENCH_NOISE_FLOATS; i += 4) {
            s0 += n->data[i] * 1.0001f;
            s1 += n->data[i + 1] * 1.0001f;
            s2 += n->data[i + 2] * 1.0001f;
            s3 += n->data[i + 3] * 1.0001f;
        }
    clock_gettime(CLOCK_MONOTONIC, &b);
    n->sink += (double)(s0 + s1 + s2 + s3); /* the work is used: not optimised away */
    n->ms[n->count++] = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) * 1e-6;
}

static int bench_noise_order(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

void bench_noise_percentiles(bench_noise* n, double* p50, double* p99) {
    if (!n->count) {
        *p50 = *p99 = NAN;
        return;
    }
    qsort(n->ms, n->count, sizeof *n->ms, bench_noise_order);
    *p50 = n->ms[(size_t)(0.50 * (double)(n->count - 1))];
    *p99 = n->ms[(size_t)(0.99 * (double)(n->count - 1))];
}
