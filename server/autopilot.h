// SPDX-License-Identifier: MIT
/* The demo fleet's helmsman. A boat given a lane (lanes.h: the default
 * world's demo fleet) follows it, steering for the lane's point `look`
 * metres ahead of its own, at the lane's speed, keeping station between
 * the boats ahead and astern of it on the lane. Any other boat steers for a random
 * waypoint inside
 * a square area, rudder proportional to the heading error, full throttle
 * when roughly on course and slow while turning hard; on arrival it draws
 * the next waypoint. On a world with a terrain, waypoints lie in deep
 * water with deep water on the straight way there, and a boat that runs
 * aground backs off astern and draws again. Above its type's rated sea
 * state a boat slows and keeps the waves off the beam (below).
 * Deterministic for a seed, whatever the thread count: the helms are
 * worked out in parallel on the world's job pool (each job writes its own
 * pilots' only), the controls set after in pilot order.
 * Loop thread only, between steps. */
#ifndef NAVAL_SERVER_AUTOPILOT_H
#define NAVAL_SERVER_AUTOPILOT_H

#include <stdint.h>

#include "lanes.h"
#include "naval/world.h"

typedef struct autopilot autopilot;

/* One piloted boat, the waypoint it steers for, and the part it last
 * took under the rules of the road (avoid.h), decided every
 * AUTOPILOT_AVOID_TICKS and kept between: on every
 * AUTOPILOT_AVOID_BATCH-th tick (one snapshot of the vessels then) a
 * tenth of the fleet decides, in turn. */
typedef struct autopilot_pilot {
    uint32_t id;
    double wx, wz;
    double turn;  /* radians added to the wanted course (starboard negative); 0: none */
    uint8_t slow; /* the throttle scaled by AVOID_SLOW */
    uint32_t lane; /* the lane it sails (lanes.h), AUTOPILOT_NO_LANE: waypoints */
    double pace;   /* on a lane: the throttle it holds (its speed keeper's), decided with the avoidance */
    int64_t berth; /* on a lane with a berth: lying alongside (aground) until this tick; -1 leaving it; 0 sailing;
                      AUTOPILOT_BEACH_IN, _OUT running in to, backing off a beach */
} autopilot_pilot;
#define AUTOPILOT_NO_LANE UINT32_MAX
/* Station keeping on a lane. Every boat of a lane holds the lane's speed
 * over the ground along it (lanes.h), whatever the seas on each leg do to
 * a fixed throttle (boats at a fixed throttle bunch up where they are
 * slowest, as traffic on a hill), corrected by AUTOPILOT_PACE_GAIN times
 * half the difference between the gaps ahead and astern over the lane's
 * even spacing (a boat nearer the one ahead slows, toward the middle;
 * within half and one and a half times the lane's speed);
 * nearer the one ahead than AUTOPILOT_PACE_SLOWEST times the lane's close
 * quarters (its `clear`; the lanes leave twice that), at half the speed;
 * nearer than AUTOPILOT_PACE_STOP close quarters, stopped. The throttle
 * (pace) follows the speed wanted by an integrating keeper: up by
 * AUTOPILOT_PACE_KI per m/s short at each decision, within
 * [AUTOPILOT_PACE_STEER, 1] unless stopped: the screw's wash over the
 * rudder is what steers a slow boat round the lane's turns in a seaway. */
#define AUTOPILOT_PACE_GAIN 1.0
/* Stopped, a boat goes astern against its way along the lane, this much
 * throttle per m/s. */
#define AUTOPILOT_BRAKE_PER_MS 0.5
#define AUTOPILOT_PACE_SLOWEST 1.5
#define AUTOPILOT_PACE_STOP 1.0
#define AUTOPILOT_PACE_KI 0.05
#define AUTOPILOT_PACE_MAX 1.0
/* A lane boat's helm is set every this many ticks (a sixth of them on
 * each, 10 times a second at 60 Hz: the rudder's own rate limit makes it
 * no less steady), where the lanes' slow turns leave the most to save at
 * thousands of boats. */
#define AUTOPILOT_HELM_TICKS 6u
/* A lane with a berth (lanes_berth): a boat within AUTOPILOT_BERTH_SLOW_M
 * of it comes up at half the lane's speed, within AUTOPILOT_BERTH_REACH_M
 * (or that far past) lies alongside, held there, for the lane's
 * berth_ticks, then sails on and is under way again once
 * AUTOPILOT_BERTH_LEAVE_M past it. */
#define AUTOPILOT_BERTH_SLOW_M 25.0
#define AUTOPILOT_BERTH_REACH_M 2.0
#define AUTOPILOT_BERTH_LEAVE_M 30.0
/* Alongside, the boat is moored (nv_world_set_lines), engine stopped: a
 * bow line leading forward and a stern line leading aft to the quay
 * (each AUTOPILOT_MOOR_LEAD of its length along it), and at each end a
 * breast line to the quay and one to a mooring pile AUTOPILOT_MOOR_PILE_M
 * off on the other side, beyond where a boat comes alongside (the
 * harbour's piles hold boats off the wall: the seas' orbital motion alone
 * would swing a boat against it at 1-2 m/s), from points
 * AUTOPILOT_MOOR_AT of its length forward and aft of amidships, at the
 * CG's height, with the boat lying at the berth AUTOPILOT_BERTH_GAP_M off
 * the face (the lane runs there: lanes_berth). Every line is made up
 * AUTOPILOT_MOOR_SNUG_M short of its span there, so all of them pull and
 * the boat is held from both sides; each a spring of half the boat's mass
 * times AUTOPILOT_MOOR_OMEGA^2 (across, the four breast lines put the
 * boat's natural period near 2 s, well off the seas' 5-8 s), damped at
 * AUTOPILOT_MOOR_ZETA. A boat the seas still carry AUTOPILOT_BERTH_DRIFT_M
 * along the lane from the berth casts off and sails on. */
#define AUTOPILOT_MOOR_AT 0.35
/* Coming alongside, the lines to the quay go out AUTOPILOT_MOOR_SLACK_M
 * long and are hove in at AUTOPILOT_MOOR_HEAVE_MS, drawing the boat in
 * gently (a line made fast 2 m short at once would throw a skiff into the
 * wall), while the pile lines are made up at once and hold it off; a boat
 * comes alongside only within AUTOPILOT_BERTH_TRACK_M of the lane's
 * track, never nearer the wall than its moored place. */
#define AUTOPILOT_MOOR_SLACK_M 8.0
#define AUTOPILOT_MOOR_HEAVE_MS 1.0
#define AUTOPILOT_BERTH_TRACK_M 6.0
/* A lane whose berth is a beach (lanes_beach): at the berth a boat turns
 * in to starboard, toward the shore, and runs in at AUTOPILOT_BEACH_MS
 * (throttle AUTOPILOT_BEACH_THROTTLE, none above it) until it takes the
 * ground; lies there the lane's berth_ticks, held up the sand at throttle
 * AUTOPILOT_BEACH_HOLD, its rudder keeping the bow to the shore; then
 * backs off at AUTOPILOT_BEACH_ASTERN, rudder
 * amidships, until afloat and within AUTOPILOT_BEACH_CLEAR_M of the lane
 * or over AUTOPILOT_BEACH_OFF_DEPTH_M of water (or AUTOPILOT_BEACH_GIVE_UP_M
 * off the berth), and sails on round. Set AUTOPILOT_BEACH_GIVE_UP_M off
 * the berth on its way in (the seas), it sails on. */
#define AUTOPILOT_BEACH_IN (-2)
#define AUTOPILOT_BEACH_OUT (-3)
#define AUTOPILOT_BEACH_MS 1.0
#define AUTOPILOT_BEACH_THROTTLE 0.3
#define AUTOPILOT_BEACH_HOLD 0.15
#define AUTOPILOT_BEACH_ASTERN (-1.0)
#define AUTOPILOT_BEACH_GIVE_UP_M 80.0
#define AUTOPILOT_BEACH_CLEAR_M 20.0
#define AUTOPILOT_BEACH_OFF_DEPTH_M 2.0
/* Within AUTOPILOT_BERTH_SLOW_M of its berth a boat keeps at most this
 * speed along the lane, going astern against more. */
#define AUTOPILOT_BERTH_ARRIVE_MS 1.0
#define AUTOPILOT_MOOR_LEAD 0.5
#define AUTOPILOT_MOOR_PILE_M 12.0
#define AUTOPILOT_MOOR_SNUG_M 0.3
#define AUTOPILOT_BERTH_GAP_M 1.5
/* A berth's lane runs this far off the face (a skiff in a seaway wanders a
 * metre or more off its track); the lines draw the boat in from there. */
#define AUTOPILOT_BERTH_APPROACH_M 3.5
#define AUTOPILOT_MOOR_OMEGA 2.0
#define AUTOPILOT_MOOR_ZETA 0.5
#define AUTOPILOT_BERTH_DRIFT_M 20.0
#define AUTOPILOT_PACE_STEER 0.2
#define AUTOPILOT_AVOID_BATCH 6u
#define AUTOPILOT_AVOID_TICKS 60u /* a multiple of the batch */

/* Everything that decides the fleet's future, for checkpoints
 * (server/resume.c): the generator's state, the area, and the pilots in
 * their order (the order decides which boat draws which waypoint). */
typedef struct autopilot_state {
    uint64_t rng;
    double cx, cz, half;
    const autopilot_pilot* pilots;
    uint32_t count;
    const lane* lanes;
    uint32_t lane_count;
} autopilot_state;

/* Seamanship: when the sea is above what a boat's type is rated for
 * (its vessel type's rated_beaufort), the boat is kept inside its
 * envelope as a skipper would keep it (autopilot_steer): slower by a
 * factor AUTOPILOT_SEA_SLOW per Beaufort step over the rating, the waves
 * kept within AUTOPILOT_HEAD_DEG of the bow or AUTOPILOT_FOLLOW_DEG of dead
 * astern (tacking toward a waypoint that lies across the sea), turns
 * slower still and with less rudder. At or below the rating, or with the
 * sea or the rating unknown, it steers as in calm water. The sea and the
 * ratings come from the world's settings (server/sim.c sets them at
 * creation and at a restore), not from a checkpoint. */
#define AUTOPILOT_SEA_SLOW 0.3
#define AUTOPILOT_SEA_MIN_THROTTLE 0.2
#define AUTOPILOT_HEAD_DEG 40.0
#define AUTOPILOT_FOLLOW_DEG 30.0
#define AUTOPILOT_SEA_RUDDER 0.7

/* Waypoints in [cx - half, cx + half] x [cz - half, cz + half]. */
autopilot* autopilot_create(uint64_t seed, double cx, double cz, double half_width);
void autopilot_destroy(autopilot* a);

/* The state (pilots borrowed: valid until the next change). */
autopilot_state autopilot_get_state(const autopilot* a);
/* A copy of a saved state; NULL when out of memory or a vessel repeats. */
autopilot* autopilot_restore(const autopilot_state* st);

/* The sea the fleet sails in: its Beaufort number (-1: unknown, no
 * limits) and the heading the waves travel toward (radians about +y from
 * +x toward -z: downwind, the ocean's wind_direction). */
void autopilot_set_sea(autopilot* a, int beaufort, double wave_heading);
/* Each hull type's rated Beaufort number (-1: not rated, no limits), by
 * type index; copied. -1 when out of memory (the old table stays). */
int autopilot_set_ratings(autopilot* a, const int* rated, uint32_t type_count);
int autopilot_sea_beaufort(const autopilot* a);
/* The type's rating, -1 when not rated or unknown. */
int autopilot_rating(const autopilot* a, uint32_t type);
/* The Beaufort number of a sea of significant height hs (m): the lowest
 * whose WMO probable height (nv_spectrum_beaufort_hs) is at least hs,
 * within 5 %; 12 above them all. */
int autopilot_beaufort_for_hs(double hs);

/* One boat's helm: the course it steers (radians, as headings), the
 * throttle and the rudder, for a waypoint at `bearing` from a boat
 * heading `heading`, `over` Beaufort steps above its rating (<= 0: as in
 * calm water), the waves travelling toward `wave_heading`. Pure: the
 * boat's own heading is the tack's memory (a tack is kept until the
 * other is better by AUTOPILOT_TACK_MARGIN_DEG). */
#define AUTOPILOT_TACK_MARGIN_DEG 50.0
typedef struct autopilot_helm {
    double course, throttle, rudder;
} autopilot_helm;
autopilot_helm autopilot_steer(double bearing, double heading, int over, double wave_heading);

/* -1 when out of memory. */
int autopilot_add(autopilot* a, uint32_t vessel_id);
/* The lanes its boats may sail (copied); -1 when out of memory. */
int autopilot_set_lanes(autopilot* a, const lane* lanes, uint32_t count);
/* A boat that sails lane `lane_index` (one of autopilot_set_lanes'); -1 when
 * out of memory or there is no such lane. */
int autopilot_add_on_lane(autopilot* a, uint32_t vessel_id, uint32_t lane_index);
/* A client (admin) took the helm, or the vessel went: 1 when it was piloted. */
int autopilot_remove(autopilot* a, uint32_t vessel_id);
int autopilot_has(const autopilot* a, uint32_t vessel_id);
uint32_t autopilot_count(const autopilot* a);

/* Sets every piloted boat's controls from its state; boats no longer in
 * the world are dropped. The helms are worked out as jobs on `pool` (the
 * one the world steps with, idle between steps; NULL: on this thread). */
void autopilot_update(autopilot* a, nv_world* w, nv_jobs* pool);

/* The rudder command for a heading error (desired - current, radians,
 * about +y): positive rudder turns to starboard, i.e. toward smaller
 * heading, so a positive error needs port (negative) rudder. */
double autopilot_rudder_for(double heading_error);
/* Heading (radians about +y from +x toward -z) of a body's bow. */
double autopilot_heading_of(nv_quat orientation);

#endif
