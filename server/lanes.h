// SPDX-License-Identifier: MIT
/* Traffic lanes for the demo fleet: closed one-way circuits the autopilot
 * follows, so that its boats never meet each other except where a player
 * (or a boat off its lane) crosses them.
 *
 * A lane is a stadium: two straights of length 2 half_straight along
 * `axis`, `radius` either side of the centre, joined by half circles of
 * that radius. The lanes of a plan share centre, axis and straights and
 * nest one inside the other, each sailed by one vessel type, all the same
 * way round (a boat turns to port all the way): boats of a lane keep
 * station on each other, so they never close; boats of neighbouring lanes
 * pass abreast, as far apart as the lanes. The distances are the rules
 * of the road's own (avoid.h): boats of a lane are spaced, and lanes
 * separated, by more than the close quarters the avoidance looks for
 * (1.5 times both half lengths and AVOID_MARGIN_M), so a boat on its lane
 * never has to give way to another on its lane. The straights lie along
 * the way the waves travel: a boat above its rated sea state runs head or
 * following seas on them and has the waves on the beam only in the
 * turns. On a terrain, the innermost lane is the smallest whose whole
 * length, with half the lanes' separation either side, has water deeper
 * than LANES_DEPTH_M.
 * Pure, deterministic; loop thread only. */
#ifndef NAVAL_SERVER_LANES_H
#define NAVAL_SERVER_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "naval/terrain.h"

#define LANES_DEPTH_M 10.0     /* deeper than any built-in type's draft and its squat */
#define LANES_MARGIN_M 25.0    /* beyond the close quarters, for the waves' sway */
#define LANES_MAX 256u
#define LANES_THROTTLE 0.5     /* where a lane's throttle starts */
/* The harbour's speed: 8 knots for boats, 10 for ships (longer than
 * LANES_SHIP_M): slower in a seaway a boat has too little rudder to hold
 * the lane's turns. */
#define LANES_SPEED 4.0
#define LANES_SHIP_M 60.0
#define LANES_SHIP_SPEED 5.0
#define LANES_ROOM 2.0         /* a lane holds boats this many close quarters apart: slack for the seas */

typedef struct lane {
    double cx, cz;          /* centre, m */
    double axis;            /* the straights' heading (radians about +y from +x toward -z) */
    double half_straight;   /* m */
    double radius;          /* m */
    double look;            /* m ahead along the lane the helm steers for */
    double clear;           /* m: close quarters of two of its boats (avoid.h); they keep more apart */
    double throttle;        /* the throttle its boats start at */
    double speed;           /* m/s along the lane its boats keep */
    double berth;           /* arc position where its boats lie alongside a quay; negative: none */
    uint32_t berth_ticks;   /* ticks they lie there */
    uint32_t beach;         /* 1: the berth is a beach its boats run up onto, 0: a quay */
    uint32_t type;          /* the hull type that sails it */
    uint32_t boats;         /* placed on it at the start */
} lane;

/* Length of the lane, m. */
double lane_perimeter(const lane* l);
/* The point at arc position s (any real: wrapped) and the heading there
 * (heading may be NULL). */
void lane_point(const lane* l, double s, double* x, double* z, double* heading);
/* The same with the unit tangent (dx, dz), the way round, for a heading. */
void lane_frame(const lane* l, double s, double* x, double* z, double* dx, double* dz);
/* The arc position of the lane's point nearest (x, z), in [0, perimeter). */
double lane_project(const lane* l, double x, double z);
/* From arc position `from` forward to `to`, in [0, perimeter). */
double lane_ahead(const lane* l, double from, double to);

/* A lane that brings its boats alongside a quay whose face runs along z
 * at x = face_x, the water on its +x side: a small stadium of `radius`
 * (more than the boats' turning radius), its port straight up the face
 * (toward +z) from z_from to z_to, `gap` m off it (boats of `beam`), the
 * straight starting far enough before the quay's end that a boat out of
 * the turn has settled on it before the face begins; the berth where the
 * straight passes berth_z, where each boat lies `ticks` ticks before it
 * sails on round; sailed at `speed`. Boats of `length`. */
lane lanes_berth(double face_x, double z_from, double z_to, double berth_z, double beam, double gap, double radius,
                 double length, double speed, uint32_t type, uint32_t ticks);

/* A lane whose boats run up onto a beach and back off it: a stadium of
 * `radius`, straights of half length `half_straight` along x, its port
 * straight `standoff` m seaward (-z) of the shoreline point (sx, sz),
 * sailed toward +x with the shore on the starboard hand; the berth at
 * the straight's middle, abreast of (sx, sz), where each boat turns in,
 * lies aground `ticks` ticks and backs off. */
lane lanes_beach(double sx, double sz, double standoff, double half_straight, double radius, double length,
                 double speed, uint32_t type, uint32_t ticks);

/* A vessel type the plan gives lanes to, and how many boats of it. */
typedef struct lanes_fleet {
    uint32_t type;
    uint32_t boats;
    double length; /* m, bow to stern */
} lanes_fleet;

/* Lanes for `n` fleets (types in the order given; the shortest boats are
 * put innermost) around (cx, cz), straights of half length
 * `half_straight` along `axis`, on terrain `t` (may be NULL). Each fleet
 * gets as many lanes as its boats need at their spacing, its boats shared
 * out by lane length (lane->boats). *out is malloc'd (free it); -1 with
 * `why` set (80 chars) when more than LANES_MAX lanes would be needed, or
 * no lane fits within 20 km, or out of memory. */
int lanes_plan(const nv_terrain* t, double cx, double cz, double axis, double half_straight, const lanes_fleet* f,
               uint32_t n, lane** out, uint32_t* count, char* why, size_t why_size);

#endif
