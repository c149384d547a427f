// SPDX-License-Identifier: MIT
/* naval-watch following a player view (--view URL) instead of the stream:
 * the view's vessels as a snapshot for the map and the JSON (positions at
 * the newest update's tick, velocities from the two newest samples), and
 * what the view received: updates, bytes, keyframes, vessels that entered,
 * spawned, left or went, latency. A view carries neither the server's tick
 * figures nor contacts. One thread. */
#ifndef NAVAL_WATCH_WVIEW_H
#define NAVAL_WATCH_WVIEW_H

#include <stdint.h>

#include "naval_client.h"

typedef struct wview_options {
    const char* url;
    double centre[2];       /* x, z, m */
    float radius;           /* m (the server caps it) */
    uint32_t budget_kbps;   /* 0: the server's default */
} wview_options;

/* Counts since the view opened (or over a window: subtract two). */
typedef struct wview_counts {
    uint64_t updates, keyframes, bytes, refusals;
    uint64_t entered, spawned, left, gone;
    uint64_t ticks_missed;     /* gaps in the updates' ticks */
    double latency_sum, latency_max; /* ms */
} wview_counts;

typedef struct wview wview;

/* NV_ECONNECT when nothing listens at the URL (retry later). */
int wview_open(wview** out, const wview_options* o, nv_error* err);
void wview_close(wview* w);
/* Waits up to timeout_ms for an update; 0 when one was applied (the
 * counts, the snapshot and the header follow it). A refusal is
 * NV_EREFUSED with the server's reason. */
int wview_poll(wview* w, int timeout_ms, nv_error* err);
/* The view's vessels at the newest update's tick (valid until the next poll). */
const proto_snapshot* wview_snapshot(const wview* w);
const proto_view_header* wview_header(const wview* w);
/* The server's tcp request port its first updates and keyframes announce
 * (0: not yet, or none). */
uint16_t wview_command_port(const wview* w);
/* The vessels that entered or spawned in the newest update. */
uint32_t wview_arrivals(const wview* w);
void wview_counts_get(const wview* w, wview_counts* out);
/* The settings as the server applies them (its echo), else as asked. */
void wview_settings(const wview* w, double centre[2], float* radius, uint32_t* budget_kbps);
/* Moves the view (a spectator following a boat). */
int wview_move(wview* w, double x, double z, nv_error* err);
/* Sends the settings again: a server that is there answers with an update
 * that echoes them, even to an empty view (which otherwise gets nothing).
 * Fails when the connection is down. */
int wview_probe(wview* w, nv_error* err);

#endif
