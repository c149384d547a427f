// SPDX-License-Identifier: MIT
/* One simulated player for naval-load: its own command connection (the
 * client library), B boats spawned with it, steered on a thread of its own
 * with inputs that keep changing (slow sine sweeps of throttle and rudder
 * plus a random jump now and then), every Control's round trip timed; and,
 * like a game client, its own snapshot subscription, or with views its own
 * view that follows its boats (pview.h). Stopping despawns its boats. */
#ifndef NAVAL_LOAD_PLAYER_H
#define NAVAL_LOAD_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "naval_client.h"
#include "pview.h"
#include "samples.h"
#include "sub.h"
#include "truth.h"

typedef struct player_config {
    const char* command_url;
    const char* snapshot_url;   /* NULL: no subscription */
    int compact;                /* the snapshot URL carries compact snapshots */
    size_t max_snapshot_bytes;
    const char* type_name;      /* vessel type to spawn */
    uint32_t boats;
    double input_hz;            /* input rounds per second (each: one Control per boat) */
    double centre_x, centre_z;  /* boats spawn in a disc around this point */
    double spread;              /* its radius, m */
    uint64_t seed;
    int request_timeout_ms;
    /* A view instead of the subscription (snapshot_url is then ignored):
     * it follows the player's boats and is measured against the truth. */
    const char* view_url;       /* NULL: no view */
    float view_radius;          /* m */
    uint32_t budget_kbps;       /* 0: the server's default */
    truth* truth;
    double tick_hz;
} player_config;

typedef struct player player;

typedef struct player_totals {
    uint32_t spawned, despawned;
    uint64_t commands;          /* Controls answered OK (while measuring) */
    uint64_t command_errors;    /* Controls refused or unanswered (while measuring) */
    uint64_t setup_errors;      /* spawns and despawns that failed */
    char last_error[NV_ERROR_MAX + 64];
} player_totals;

/* Connects (a failure says why, in err), says hello, spawns the boats (a
 * refused spawn is counted and kept in last_error, not fatal), opens its
 * view if it has one, and starts steering. */
int player_start(player** out, const player_config* cfg, char* err, size_t errlen);
/* From now on count commands and snapshots (the warm-up is left out). */
void player_measure(player* p);
/* Stops steering, freezes the subscription's figures (stops the view),
 * despawns the boats. */
void player_stop(player* p);
void player_totals_get(player* p, player_totals* out);
const samples* player_rtt_ms(const player* p);  /* after player_stop */
sub_stream* player_sub(player* p);              /* NULL without a subscription */
pview* player_view(player* p);                  /* NULL without a view */
/* Stops (if not yet), closes the connections, frees. Safe on NULL. */
void player_free(player* p);

#endif
