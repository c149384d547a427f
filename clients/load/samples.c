// SPDX-License-Identifier: MIT
#include "samples.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

static int samples_reserve(samples* s, size_t need) {
    if (need <= s->cap) return 0;
    size_t cap = grow_capacity(s->cap, need, 256);
    if (cap > SAMPLES_MAX) cap = SAMPLES_MAX;
    if (grow_resize((void**)&s->v, cap, sizeof *s->v)) {
        s->oom = 1;
        return -1;
    }
    s->cap = cap;
    return 0;
}

static uint64_t samples_next(samples* s) {
    /* splitmix64: a fixed seed, so a run's reservoir is reproducible */
    uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void samples_keep(samples* s, float v) {
    s->seen++;
    if (s->n < SAMPLES_MAX) {
        if (samples_reserve(s, s->n + 1) == 0) s->v[s->n++] = v;
        return;
    }
    /* Algorithm R: the seen-th value replaces a kept one with probability SAMPLES_MAX / seen. */
    uint64_t j = samples_next(s) % s->seen;
    if (j < SAMPLES_MAX) s->v[j] = v;
}

void samples_add(samples* s, double v) {
    if (!s->seen || v > s->max) s->max = v;
    s->sum += v;
    samples_keep(s, (float)v);
}

void samples_merge(samples* a, const samples* b) {
    if (!b->seen) return;
    if (!a->seen || b->max > a->max) a->max = b->max;
    a->sum += b->sum;
    uint64_t before = a->seen;
    for (size_t i = 0; i < b->n; i++) samples_keep(a, b->v[i]);
    /* b's values beyond its reservoir count as seen (each kept one stands for several) */
    a->seen = before + b->seen;
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

double samples_max(const samples* s) { return s->seen ? s->max : NAN; }

double samples_mean(const samples* s) { return s->seen ? s->sum / (double)s->seen : NAN; }

void samples_clear(samples* s) {
    s->n = 0;
    s->seen = 0;
    s->sum = s->max = 0.0;
}

void samples_free(samples* s) {
    free(s->v);
    memset(s, 0, sizeof *s);
}
