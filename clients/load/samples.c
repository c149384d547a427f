// SPDX-License-Identifier: MIT
#include "samples.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int samples_reserve(samples* s, size_t need) {
    if (need <= s->cap) return 0;
    size_t cap = s->cap ? s->cap : 256;
    while (cap < need) cap *= 2;
    float* v = realloc(s->v, cap * sizeof *v);
    if (!v) {
        s->oom = 1;
        return -1;
    }
    s->v = v;
    s->cap = cap;
    return 0;
}

void samples_add(samples* s, double v) {
    if (samples_reserve(s, s->n + 1) == 0) s->v[s->n++] = (float)v;
}

void samples_merge(samples* a, const samples* b) {
    if (!b->n || samples_reserve(a, a->n + b->n)) return;
    memcpy(a->v + a->n, b->v, b->n * sizeof *b->v);
    a->n += b->n;
    a->oom |= b->oom;
}

static int samples_cmp(const void* a, const void* b) {
    float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

double samples_percentile(const samples* s, double p) {
    if (!s->n) return NAN;
    float* c = malloc(s->n * sizeof *c);
    if (!c) return NAN;
    memcpy(c, s->v, s->n * sizeof *c);
    qsort(c, s->n, sizeof *c, samples_cmp);
    /* Nearest rank: the smallest value with at least p % at or below it. */
    size_t rank = (size_t)ceil(p / 100.0 * (double)s->n);
    double v = c[rank ? rank - 1 : 0];
    free(c);
    return v;
}

double samples_max(const samples* s) {
    if (!s->n) return NAN;
    float m = s->v[0];
    for (size_t i = 1; i < s->n; i++)
        if (s->v[i] > m) m = s->v[i];
    return m;
}

double samples_mean(const samples* s) {
    if (!s->n) return NAN;
    double sum = 0.0;
    for (size_t i = 0; i < s->n; i++) sum += s->v[i];
    return sum / (double)s->n;
}

void samples_free(samples* s) {
    free(s->v);
    memset(s, 0, sizeof *s);
}
