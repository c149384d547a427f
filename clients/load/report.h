// SPDX-License-Identifier: MIT
/* naval-load's figures: per role (players, tcp spectators, ws spectators)
 * the snapshot stream as received (rate, ticks missed, latency, bytes) and
 * the commands (rate, round trip, errors); the server's tick as carried in
 * the snapshots; the thresholds. Printed as text or JSON. */
#ifndef NAVAL_LOAD_REPORT_H
#define NAVAL_LOAD_REPORT_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include "naval_client.h"
#include "player.h"
#include "samples.h"
#include "scrape.h"
#include "sub.h"

typedef struct report_stream {
    uint32_t clients;          /* subscriptions */
    uint64_t messages, bytes, ticks_missed, undecodable, out_of_order;
    double snapshots_per_s;    /* per client */
    double bytes_per_s;        /* per client */
    double drop_rate;          /* ticks missed / (received + missed) */
    double latency_p50, latency_p99, latency_max; /* ms */
    uint32_t vessels_last;
    char last_error[160];
} report_stream;

typedef struct report_role {
    const char* name;
    report_stream snaps;
    /* players only */
    uint32_t players, spawned, despawned;
    uint32_t boats_wanted;     /* players x boats per player: fewer spawned fails the run */
    const char* type_name;     /* the type they spawn */
    uint64_t commands, command_errors, setup_errors;
    double commands_per_s, rtt_p50, rtt_p99, rtt_max; /* ms */
    char last_error[NV_ERROR_MAX + 64];
} report_role;

/* Sums streams into r->snaps over a window of `seconds`. */
void report_add_streams(report_role* r, sub_stream* const* subs, uint32_t n, double seconds);
/* Sums players (their commands, and their streams) over `seconds`. */
void report_add_players(report_role* r, player* const* players, uint32_t n, double seconds);

/* The players' views (--view-radius), over the window (pview.h says how
 * each figure is measured). NaN: nothing to measure it on. */
typedef struct report_views {
    uint32_t players;                    /* with a view */
    double kbps_mean, kbps_max;          /* received per player, kbit/s */
    double kbps_sim_max;                 /* the same per simulated second (ticks / tick rate): the budget's clock */
    double near_hz_min, view_hz_min;     /* over (player, boat) pairs near / in view >= REPORT_MIN_STAY_S */
    double error_near_p99, error_far_p99; /* m */
    uint64_t error_near_n, error_far_n;  /* vessels compared */
    double join_ms_p99;                  /* +inf when the p99 player never joined */
    uint32_t joined;
    double updates_per_s;                /* per player */
    double latency_p50, latency_p99;     /* ms, send time to receipt */
    double held_mean;                    /* vessels a view held, mean over its updates */
    uint64_t keyframes, refusals, undecodable, truth_missing;
    char last_error[NV_ERROR_MAX + 64];
} report_views;

#define REPORT_MIN_STAY_S 2.0

/* The views of n players over a window of `seconds` (after player_stop). */
void report_add_views(report_views* r, player* const* players, uint32_t n, double seconds, double tick_hz);

typedef struct report_server {
    uint64_t snapshots, ticks_missed;   /* the monitor stream */
    double tick_p50, tick_p99, tick_max; /* ms, step_ms carried by the snapshots */
    uint64_t overruns;                   /* during the window */
    uint64_t window_ticks;               /* the server's ticks during the window (the monitor's first to last) */
    double overrun_rate;                 /* overruns / window_ticks; NaN: no ticks */
    double drop_rate;                    /* the monitor's ticks missed / (received + missed) */
    uint32_t vessels;
    double tick_hz;
    int have_stats;                      /* GetStats answered */
    proto_stats stats;
    scrape_sample passes_from, passes_to; /* /metrics at the window's ends: each pass per tick */
} report_server;

typedef struct report_limits {
    double max_p99_tick_ms;   /* <= 0: none */
    double max_drop_rate;     /* < 0: none */
    double max_overrun_rate;  /* overruns / ticks in the window; < 0: none */
    double max_kbps_per_player; /* views: <= 0: none */
    double min_near_hz, min_view_hz, max_join_ms; /* views: <= 0: none */
} report_limits;

/* The thresholds missed, one line each in `why` ("" when all were met). */
/* views: NULL without views. */
int report_check(const report_role* roles, int nroles, const report_server* srv, const report_views* views,
                 const report_limits* lim, char* why, size_t n);

void report_print_text(FILE* out, const report_role* roles, int nroles, const report_server* srv,
                       const report_views* views, double seconds, const char* why);
/* The tester's own peak resident memory (getrusage), MiB. */
double report_peak_rss_mib(void);
/* "12.345 ms" or "no samples" (never "nan"). */
const char* report_ms(char* buf, size_t n, double v);
/* config_json: the run's settings, already a JSON object. views NULL: "stream": null. */
void report_print_json(FILE* out, const char* config_json, const report_role* roles, int nroles,
                       const report_server* srv, const report_views* views, double seconds, double cpu_s,
                       const char* why, const char* ramp_json);

#endif
