// SPDX-License-Identifier: MIT
/* The demo fleet's helmsman: each boat steers for a random waypoint inside
 * a square area, rudder proportional to the heading error, full throttle
 * when roughly on course and slow while turning hard; on arrival it draws
 * the next waypoint. On a world with a terrain, waypoints lie in deep
 * water with deep water on the straight way there, and a boat that runs
 * aground backs off astern and draws again. Deterministic for a seed.
 * Loop thread only, between steps. */
#ifndef NAVAL_SERVER_AUTOPILOT_H
#define NAVAL_SERVER_AUTOPILOT_H

#include <stdint.h>

#include "naval/world.h"

typedef struct autopilot autopilot;

/* One piloted boat and the waypoint it steers for. */
typedef struct autopilot_pilot {
    uint32_t id;
    double wx, wz;
} autopilot_pilot;

/* Everything that decides the fleet's future, for checkpoints
 * (server/resume.c): the generator's state, the area, and the pilots in
 * their order (the order decides which boat draws which waypoint). */
typedef struct autopilot_state {
    uint64_t rng;
    double cx, cz, half;
    const autopilot_pilot* pilots;
    uint32_t count;
} autopilot_state;

/* Waypoints in [cx - half, cx + half] x [cz - half, cz + half]. */
autopilot* autopilot_create(uint64_t seed, double cx, double cz, double half_width);
void autopilot_destroy(autopilot* a);

/* The state (pilots borrowed: valid until the next change). */
autopilot_state autopilot_get_state(const autopilot* a);
/* A copy of a saved state; NULL when out of memory or a vessel repeats. */
autopilot* autopilot_restore(const autopilot_state* st);

/* -1 when out of memory. */
int autopilot_add(autopilot* a, uint32_t vessel_id);
/* A client (admin) took the helm, or the vessel went: 1 when it was piloted. */
int autopilot_remove(autopilot* a, uint32_t vessel_id);
int autopilot_has(const autopilot* a, uint32_t vessel_id);
uint32_t autopilot_count(const autopilot* a);

/* Sets every piloted boat's controls from its state; boats no longer in
 * the world are dropped. */
void autopilot_update(autopilot* a, nv_world* w);

/* The rudder command for a heading error (desired - current, radians,
 * about +y): positive rudder turns to starboard, i.e. toward smaller
 * heading, so a positive error needs port (negative) rudder. */
double autopilot_rudder_for(double heading_error);
/* Heading (radians about +y from +x toward -z) of a body's bow. */
double autopilot_heading_of(nv_quat orientation);

#endif
