// SPDX-License-Identifier: MIT
/* A histogram of positive values on a log scale (1 um to 10 km, 50 bins a
 * decade: a bin is 4.7 % wide) for naval-load's position errors: every
 * held vessel of every player ten times a second is millions of values in
 * a long run, too many to keep and sort, while a percentile 5 % high at
 * worst is close enough. One writer at a time. */
#ifndef NAVAL_LOAD_HIST_H
#define NAVAL_LOAD_HIST_H

#include <stdint.h>

#define HIST_DECADES 10
#define HIST_PER_DECADE 50
#define HIST_BINS (HIST_DECADES * HIST_PER_DECADE + 2) /* + at or below 1 um, + above 10 km (and NaN) */

typedef struct hist {
    uint64_t n;
    double max;
    uint64_t bins[HIST_BINS];
} hist;

void hist_add(hist* h, double v);
void hist_merge(hist* a, const hist* b);
/* p in [0, 100]: the upper edge of the bin holding the nearest-rank value,
 * never above the largest value added; NaN when empty, +inf when that bin
 * is the overflow's and a value was not finite. */
double hist_percentile(const hist* h, double p);

#endif
