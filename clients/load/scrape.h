// SPDX-License-Identifier: MIT
/* The server's own passes, read from its /metrics (Prometheus text) at the
 * two ends of a window: naval_ticks_total and
 * naval_tick_pass_seconds_total{pass=...}. Their differences give each
 * pass's mean time per tick in the window, the figures issue 35 asks of
 * naval-load beside the tick times the snapshots carry. */
#ifndef NAVAL_LOAD_SCRAPE_H
#define NAVAL_LOAD_SCRAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SCRAPE_MAX_PASSES 16
#define SCRAPE_NAME_MAX 32

typedef struct scrape_sample {
    int ok;                 /* 0: see error */
    uint64_t ticks;         /* naval_ticks_total */
    uint32_t passes;
    char name[SCRAPE_MAX_PASSES][SCRAPE_NAME_MAX];
    double seconds[SCRAPE_MAX_PASSES];
    char error[160];
} scrape_sample;

/* GETs url (http://HOST:PORT/metrics) within timeout_ms and parses it;
 * s->ok 0 and s->error say what failed (never fatal to the caller). */
void scrape_metrics(const char* url, int timeout_ms, scrape_sample* s);

/* Parses a /metrics text (exposed for the unit test); -1 and s->error when
 * it has no naval_ticks_total or no pass. */
int scrape_parse(const char* text, size_t size, scrape_sample* s);

/* Each pass's mean ms per tick between a and b, as a JSON object
 * ({"step": 10.123, ...}), or null when either scrape failed or no tick
 * passed (scrape_format says why). */
void scrape_print_json(FILE* out, const scrape_sample* a, const scrape_sample* b);
/* The same as text: "step 10.123, views_encode 2.345, ..." or the reason. */
void scrape_format(char* out, size_t n, const scrape_sample* a, const scrape_sample* b);

#endif
