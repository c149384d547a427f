// SPDX-License-Identifier: MIT
/* A bounded list of measurements (latencies, tick times, round trips) and
 * their percentiles. Up to SAMPLES_MAX values are kept whole (exact
 * percentiles); past that a uniform reservoir of SAMPLES_MAX values stands
 * for them all (Vitter's algorithm R), so memory stays bounded however long
 * the run and however many boats: 2,000 boats steered 5 times a second for
 * 86 s are 860,000 round trips. The count, the mean and the maximum stay
 * exact. One writer at a time; read it when the writer is done. */
#ifndef NAVAL_CLIENT_SAMPLES_H
#define NAVAL_CLIENT_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#define SAMPLES_MAX 65536 /* values kept per list: 256 KiB */

typedef struct samples {
    float* v;
    size_t n, cap;      /* kept */
    uint64_t seen;      /* added */
    double sum, max;
    uint64_t rng;
    int oom;   /* a value was lost for want of memory */
} samples;

void samples_add(samples* s, double v);
/* Adds all of b to a (through a's reservoir once it is full). */
void samples_merge(samples* a, const samples* b);
/* p in [0, 100], nearest rank on a sorted copy; NaN when empty. */
double samples_percentile(const samples* s, double p);
double samples_max(const samples* s);
double samples_mean(const samples* s);
/* Forgets every value, keeps the storage. */
void samples_clear(samples* s);
void samples_free(samples* s);

#endif
