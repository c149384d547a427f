// SPDX-License-Identifier: MIT
#include "hist.h"

#include <math.h>

#define HIST_LOW 1e-6 /* m */

static unsigned hist_bin(double v) {
    if (!(v > HIST_LOW)) return isnan(v) ? HIST_BINS - 1 : 0;
    double k = ceil(log10(v / HIST_LOW) * HIST_PER_DECADE);
    return k > HIST_BINS - 2 ? HIST_BINS - 1 : (unsigned)k;
}

void hist_add(hist* h, double v) {
    h->bins[hist_bin(v)]++;
    if (!h->n || v > h->max || isnan(v)) h->max = isnan(v) ? INFINITY : v;
    h->n++;
}

void hist_merge(hist* a, const hist* b) {
    if (!b->n) return;
    for (unsigned i = 0; i < HIST_BINS; i++) a->bins[i] += b->bins[i];
    if (!a->n || b->max > a->max) a->max = b->max;
    a->n += b->n;
}

double hist_percentile(const hist* h, double p) {
    if (!h->n) return NAN;
    uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)h->n), seen = 0;
    if (!rank) rank = 1;
    for (unsigned i = 0; i < HIST_BINS; i++) {
        seen += h->bins[i];
        if (seen < rank) continue;
        if (i == HIST_BINS - 1) return h->max;
        double edge = HIST_LOW * pow(10.0, (double)i / HIST_PER_DECADE);
        return edge < h->max ? edge : h->max;
    }
    return h->max;
}
