// SPDX-License-Identifier: MIT
/* A growing list of measurements (latencies, tick times, round trips) and
 * their percentiles. Kept whole rather than binned: a 60 s run at 60 Hz is
 * a few thousand values per stream, and exact percentiles need no choice
 * of bins. One writer at a time; read it when the writer is done. */
#ifndef NAVAL_CLIENT_SAMPLES_H
#define NAVAL_CLIENT_SAMPLES_H

#include <stddef.h>

typedef struct samples {
    float* v;
    size_t n, cap;
    int oom;   /* a value was lost for want of memory */
} samples;

void samples_add(samples* s, double v);
/* Appends all of b to a. */
void samples_merge(samples* a, const samples* b);
/* p in [0, 100], nearest rank on a sorted copy; NaN when empty. */
double samples_percentile(const samples* s, double p);
double samples_max(const samples* s);
double samples_mean(const samples* s);
void samples_free(samples* s);

#endif
