// SPDX-License-Identifier: MIT
#include "autopilot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "avoid.h"
#include "grow.h"
#include "idmap.h"
#include "naval/ocean_spectrum.h"

/* Full rudder from ~30 degrees off course: enough to turn promptly, small
 * enough not to oscillate with the rudders' rate limits. */
#define AUTOPILOT_GAIN 2.0
#define AUTOPILOT_ARRIVE_M 40.0
/* Water this deep, at least, under a waypoint and along the way to it:
 * more than any built-in type's draft. */
#define AUTOPILOT_DEPTH_M 8.0
#define AUTOPILOT_PATH_STEP_M 20.0
#define AUTOPILOT_TRIES 32
/* Every boat looks this far along its way every AUTOPILOT_LOOK_TICKS
 * (staggered over the fleet): land ahead, a new waypoint. */
#define AUTOPILOT_LOOK_M 250.0
#define AUTOPILOT_LOOK_TICKS 30u
/* Off course by more than this (radians): a hard turn, taken slower. */
#define AUTOPILOT_TURN_RAD 0.8
#define AUTOPILOT_TURN_THROTTLE 0.4
/* Coming up to its berth, a boat off its course by more than this turns
 * with the screw's wash before it brakes astern. */
#define AUTOPILOT_BERTH_ALIGN_RAD 0.4
/* A boat within this of a tack's course is on that tack. */
#define AUTOPILOT_ON_TACK_DEG 45.0
#define AUTOPILOT_DEG (NV_PI / 180.0)
/* Pilots per job, at least: a lane helm is a few hundred ns. */
#define AUTOPILOT_GRAIN 64u

typedef autopilot_pilot pilot;

struct autopilot {
    pilot* pilots;
    uint32_t count, capacity;
    idmap index;    /* vessel id -> position in pilots */
    uint64_t rng;
    double cx, cz, half;
    int sea_beaufort;      /* -1: unknown */
    double wave_heading;   /* radians, the way the waves travel */
    int* rated;            /* per hull type, -1: not rated */
    uint32_t rated_count;
    avoid* avoid;          /* the vessels as the update found them (collision avoidance) */
    lane* lanes;
    uint32_t lane_count;
    /* scratch of the update: each pilot's arc position on its lane, the
     * pilots bucketed by lane (lane_start[k] .. lane_start[k + 1] in order) */
    double* arc;
    double* along; /* and its speed along the lane */
    uint32_t *order, *lane_start;
    uint32_t arc_capacity, along_capacity, order_capacity, start_capacity;
    /* each pilot's decision this update, and the controls it set */
    uint8_t* action;
    double *throttle, *rudder;
    uint32_t action_capacity, throttle_capacity, rudder_capacity;
    /* per entry of the avoidance's snapshot (the world's slot order, which
     * only a removal changes): the pilot it had last time, tried before
     * the id index; UINT32_MAX none */
    uint32_t* pilot_at;
    uint32_t pilot_at_count, pilot_at_capacity;
};

static double autopilot_random(uint64_t* s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

static int autopilot_deep(const nv_terrain* t, double x, double z) {
    return nv_terrain_elevation(t, x, z) < -AUTOPILOT_DEPTH_M;
}

/* Deep water every AUTOPILOT_PATH_STEP_M on the straight way from (x, z)
 * to (wx, wz), for at most `look` metres, and at the waypoint when it is
 * that near. */
static int autopilot_clear(const nv_terrain* t, double x, double z, double wx, double wz, double look) {
    double dx = wx - x, dz = wz - z, length = sqrt(dx * dx + dz * dz);
    double span = length < look ? length : look;
    int steps = (int)(span / AUTOPILOT_PATH_STEP_M);
    for (int k = 1; k <= steps; k++) {
        double f = k * AUTOPILOT_PATH_STEP_M / length;
        if (!autopilot_deep(t, x + f * dx, z + f * dz)) return 0;
    }
    return length > look || autopilot_deep(t, wx, wz);
}

/* A random waypoint; with a terrain, the first of a few draws that is
 * reached over deep water from (x, z), else the first in deep water, else
 * the last. */
static void autopilot_pick(autopilot* a, pilot* p, const nv_terrain* t, double x, double z) {
    double fx = 0.0, fz = 0.0;
    int fallback = 0;
    for (int k = 0; k < (t ? AUTOPILOT_TRIES : 1); k++) {
        p->wx = a->cx + (2.0 * autopilot_random(&a->rng) - 1.0) * a->half;
        p->wz = a->cz + (2.0 * autopilot_random(&a->rng) - 1.0) * a->half;
        if (!t) return;
        if (autopilot_clear(t, x, z, p->wx, p->wz, INFINITY)) return;
        if (!fallback && autopilot_deep(t, p->wx, p->wz)) fx = p->wx, fz = p->wz, fallback = 1;
    }
    if (fallback) p->wx = fx, p->wz = fz;
}

autopilot* autopilot_create(uint64_t seed, double cx, double cz, double half_width) {
    autopilot* a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->rng = seed * 0x2545F4914F6CDD1Dull + 7;
    a->cx = cx;
    a->cz = cz;
    a->half = half_width > 1.0 ? half_width : 1.0;
    a->sea_beaufort = -1;
    if (!(a->avoid = avoid_create())) {
        free(a);
        return NULL;
    }
    return a;
}

void autopilot_destroy(autopilot* a) {
    if (!a) return;
    idmap_free(&a->index);
    free(a->pilots);
    free(a->rated);
    free(a->lanes);
    free(a->arc);
    free(a->along);
    free(a->order);
    free(a->lane_start);
    free(a->action);
    free(a->pilot_at);
    free(a->throttle);
    free(a->rudder);
    avoid_destroy(a->avoid);
    free(a);
}

/* A new pilot at the end, its waypoint not yet set; NULL when out of memory. */
static pilot* autopilot_append(autopilot* a, uint32_t vessel_id) {
    if (GROW(&a->pilots, &a->capacity, a->count + 1, 64)) return NULL;
    if (idmap_put(&a->index, vessel_id, a->count)) return NULL;
    pilot* p = &a->pilots[a->count++];
    *p = (pilot){.id = vessel_id, .lane = AUTOPILOT_NO_LANE, .pace = 1.0};
    return p;
}

int autopilot_add(autopilot* a, uint32_t vessel_id) {
    if (autopilot_has(a, vessel_id)) return 0;
    pilot* p = autopilot_append(a, vessel_id);
    if (!p) return -1;
    autopilot_pick(a, p, NULL, 0.0, 0.0);
    return 0;
}

int autopilot_set_lanes(autopilot* a, const lane* lanes, uint32_t count) {
    lane* copy = NULL;
    if (count) {
        if (!(copy = malloc(count * sizeof *copy))) return -1;
        memcpy(copy, lanes, count * sizeof *copy);
    }
    free(a->lanes);
    a->lanes = copy;
    a->lane_count = count;
    return 0;
}

int autopilot_add_on_lane(autopilot* a, uint32_t vessel_id, uint32_t lane_index) {
    if (lane_index >= a->lane_count) return -1;
    if (autopilot_has(a, vessel_id)) return 0;
    pilot* p = autopilot_append(a, vessel_id);
    if (!p) return -1;
    p->lane = lane_index;
    p->pace = a->lanes[lane_index].throttle;
    return 0;
}

autopilot_state autopilot_get_state(const autopilot* a) {
    autopilot_state st = {a->rng, a->cx, a->cz, a->half, a->pilots, a->count, a->lanes, a->lane_count};
    return st;
}

autopilot* autopilot_restore(const autopilot_state* st) {
    autopilot* a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->rng = st->rng;
    a->cx = st->cx;
    a->cz = st->cz;
    a->half = st->half;
    a->sea_beaufort = -1;
    if (!(a->avoid = avoid_create())) {
        free(a);
        return NULL;
    }
    if (autopilot_set_lanes(a, st->lanes, st->lane_count)) {
        autopilot_destroy(a);
        return NULL;
    }
    for (uint32_t i = 0; i < st->count; i++) {
        pilot* p = autopilot_has(a, st->pilots[i].id) ? NULL : autopilot_append(a, st->pilots[i].id);
        if (!p) {
            autopilot_destroy(a);
            return NULL;
        }
        *p = st->pilots[i];
    }
    return a;
}

int autopilot_remove(autopilot* a, uint32_t vessel_id) {
    uint32_t i;
    if (!idmap_get(&a->index, vessel_id, &i)) return 0;
    idmap_remove(&a->index, vessel_id);
    if (i != --a->count) {
        a->pilots[i] = a->pilots[a->count];
        idmap_put(&a->index, a->pilots[i].id, i); /* an existing key: never allocates */
    }
    return 1;
}

int autopilot_has(const autopilot* a, uint32_t vessel_id) {
    uint32_t i;
    return idmap_get(&a->index, vessel_id, &i);
}

uint32_t autopilot_count(const autopilot* a) { return a->count; }

double autopilot_rudder_for(double heading_error) {
    double r = -AUTOPILOT_GAIN * heading_error;
    return r < -1.0 ? -1.0 : (r > 1.0 ? 1.0 : r);
}

void autopilot_set_sea(autopilot* a, int beaufort, double wave_heading) {
    a->sea_beaufort = beaufort >= 0 && beaufort <= 12 ? beaufort : -1;
    a->wave_heading = isfinite(wave_heading) ? remainder(wave_heading, 2.0 * NV_PI) : 0.0;
}

int autopilot_set_ratings(autopilot* a, const int* rated, uint32_t type_count) {
    int* copy = NULL;
    if (type_count) {
        copy = malloc(type_count * sizeof *copy);
        if (!copy) return -1;
        for (uint32_t t = 0; t < type_count; t++) copy[t] = rated[t] >= 0 && rated[t] <= 12 ? rated[t] : -1;
    }
    free(a->rated);
    a->rated = copy;
    a->rated_count = type_count;
    return 0;
}

int autopilot_sea_beaufort(const autopilot* a) { return a->sea_beaufort; }

int autopilot_rating(const autopilot* a, uint32_t type) { return type < a->rated_count ? a->rated[type] : -1; }

int autopilot_beaufort_for_hs(double hs) {
    for (int b = 0; b <= 12; b++)
        if (hs <= 1.05 * nv_spectrum_beaufort_hs(b)) return b;
    return 12;
}

/* Beaufort steps of sea above the type's rating (0 when either is unknown). */
static int autopilot_over(const autopilot* a, uint32_t type) {
    int rated = autopilot_rating(a, type);
    return a->sea_beaufort >= 0 && rated >= 0 && a->sea_beaufort > rated ? a->sea_beaufort - rated : 0;
}

static double autopilot_wrap(double angle) { return remainder(angle, 2.0 * NV_PI); }

autopilot_helm autopilot_steer(double bearing, double heading, int over, double wave_heading) {
    autopilot_helm h;
    double course = autopilot_wrap(bearing);
    if (over > 0) {
        /* Angles to the waves' way: 0 following seas, +-pi head seas. The
         * waypoint across the sea: the tack on its side that keeps the
         * waves within AUTOPILOT_HEAD_DEG of the bow ("up") or
         * AUTOPILOT_FOLLOW_DEG of the stern ("down"), the one nearer the
         * waypoint, or the one the boat is on until the other is better by
         * the margin (no flapping between them as the bearing drifts). */
        const double head = NV_PI - AUTOPILOT_HEAD_DEG * AUTOPILOT_DEG, follow = AUTOPILOT_FOLLOW_DEG * AUTOPILOT_DEG;
        const double b = autopilot_wrap(bearing - wave_heading);
        if (fabs(b) < head && fabs(b) > follow) {
            const double side = b > 0.0 ? 1.0 : -1.0;
            const double up = wave_heading + side * head, down = wave_heading + side * follow;
            const double d_up = fabs(autopilot_wrap(up - bearing)), d_down = fabs(autopilot_wrap(down - bearing));
            const double on_up = fabs(autopilot_wrap(heading - up)), on_down = fabs(autopilot_wrap(heading - down));
            const double margin = AUTOPILOT_TACK_MARGIN_DEG * AUTOPILOT_DEG, keep = AUTOPILOT_ON_TACK_DEG * AUTOPILOT_DEG;
            int pick_up = d_up <= d_down;
            if (on_up < keep && on_up <= on_down) pick_up = d_up <= d_down + margin;
            else if (on_down < keep) pick_up = d_up + margin < d_down;
            course = autopilot_wrap(pick_up ? up : down);
        }
    }
    const double error = autopilot_wrap(course - heading);
    const int turning = fabs(error) >= AUTOPILOT_TURN_RAD;
    h.course = course;
    h.rudder = autopilot_rudder_for(error);
    if (over <= 0) {
        h.throttle = turning ? AUTOPILOT_TURN_THROTTLE : 1.0;
        return h;
    }
    /* Slower per step over the rating, slower still in a hard turn, and
     * never full rudder: a turn heels a boat into the seas it turns across. */
    double cap = pow(AUTOPILOT_SEA_SLOW, over);
    if (turning) cap *= 0.5;
    h.throttle = cap > AUTOPILOT_SEA_MIN_THROTTLE ? cap : AUTOPILOT_SEA_MIN_THROTTLE;
    if (fabs(h.rudder) > AUTOPILOT_SEA_RUDDER) h.rudder = h.rudder > 0.0 ? AUTOPILOT_SEA_RUDDER : -AUTOPILOT_SEA_RUDDER;
    return h;
}

double autopilot_heading_of(nv_quat orientation) {
    nv_vec3 bow = quat_rotate(orientation, v3(1.0, 0.0, 0.0));
    return atan2(-bow.z, bow.x);
}

/* The helm of a boat steering for waypoints: another is drawn on arrival,
 * when the waypoint is on land (drawn before the boat's place was known),
 * or with land ahead (or aground). */
static autopilot_helm autopilot_waypoint_helm(autopilot* a, pilot* p, const nv_terrain* t, uint64_t tick, uint32_t i,
                                              double x, double z, double heading, int over, int grounded) {
    double dx = p->wx - x, dz = p->wz - z;
    int look = t && (grounded || (tick + i) % AUTOPILOT_LOOK_TICKS == 0);
    if (dx * dx + dz * dz < AUTOPILOT_ARRIVE_M * AUTOPILOT_ARRIVE_M || (t && !autopilot_deep(t, p->wx, p->wz)) ||
        (look && !autopilot_clear(t, x, z, p->wx, p->wz, AUTOPILOT_LOOK_M))) {
        autopilot_pick(a, p, t, x, z);
        dx = p->wx - x;
        dz = p->wz - z;
    }
    autopilot_helm h = autopilot_steer(atan2(-dz, dx), heading, over, a->wave_heading);
    /* on a tack (the course off the waypoint's bearing): land ahead on
     * that course is land ahead too */
    const double lx = x + AUTOPILOT_LOOK_M * cos(h.course), lz = z - AUTOPILOT_LOOK_M * sin(h.course);
    if (look && over > 0 && !autopilot_clear(t, x, z, lx, lz, AUTOPILOT_LOOK_M)) {
        autopilot_pick(a, p, t, x, z);
        h = autopilot_steer(atan2(-(p->wz - z), p->wx - x), heading, over, a->wave_heading);
    }
    return h;
}

/* A boat on a lane with a berth, at arc position `arc` and `off` m from
 * the lane's track: whether it lies alongside now, and when it comes
 * alongside (on its track: one the seas set wide sails round again), is
 * done, or has left (autopilot.h). */
static int autopilot_alongside(const lane* l, pilot* p, double arc, double off, uint64_t tick) {
    if (l->berth < 0.0) return 0;
    const double P = lane_perimeter(l), d = lane_ahead(l, arc, l->berth);
    if (p->berth > 0) {
        /* its time up, or carried off the berth (the seas): sail on */
        if ((uint64_t)p->berth > tick && fmin(d, P - d) < AUTOPILOT_BERTH_DRIFT_M) return 1;
        p->berth = -1;
        return 0;
    }
    if (p->berth < 0) {
        if (d > AUTOPILOT_BERTH_REACH_M && d < P - AUTOPILOT_BERTH_LEAVE_M) p->berth = 0;
        return 0;
    }
    if ((d < AUTOPILOT_BERTH_REACH_M || d > P - AUTOPILOT_BERTH_REACH_M) && off < AUTOPILOT_BERTH_TRACK_M) {
        p->berth = (int64_t)(tick + l->berth_ticks);
        return 1;
    }
    return 0;
}

/* A boat on a lane whose berth is a beach (lanes_beach), at arc position
 * `arc`, `off` m from the track: 1 and its helm while it runs in, lies
 * aground or backs off (autopilot.h); 0 while it sails the lane. */
static int autopilot_beach(const autopilot* a, const nv_terrain* t, const lane* l, pilot* p, double arc, double off,
                           double heading, const nv_world_vessel_pose* s, uint64_t tick, autopilot_helm* h) {
    const double P = lane_perimeter(l), d = lane_ahead(l, arc, l->berth);
    const int grounded = (s->flags & WORLD_VESSEL_GROUNDED) != 0;
    double bx, bz, along;
    lane_point(l, l->berth, &bx, &bz, &along);
    const double in = along - 0.5 * NV_PI; /* to starboard: the shore */
    *h = (autopilot_helm){.course = in, .throttle = 0.0, .rudder = 0.0};
    if (p->berth == 0) {
        if (!((d < AUTOPILOT_BERTH_REACH_M || d > P - AUTOPILOT_BERTH_REACH_M) && off < AUTOPILOT_BERTH_TRACK_M)) return 0;
        p->berth = AUTOPILOT_BEACH_IN;
    }
    if (p->berth == -1) {
        if (d > AUTOPILOT_BERTH_REACH_M && d < P - AUTOPILOT_BERTH_LEAVE_M) p->berth = 0;
        return 0;
    }
    if (p->berth == AUTOPILOT_BEACH_IN) {
        if (grounded) {
            p->berth = (int64_t)(tick + l->berth_ticks);
        } else if (hypot(s->position.x - bx, s->position.z - bz) > AUTOPILOT_BEACH_GIVE_UP_M) {
            p->berth = -1; /* set off its way in (the seas): sails on round */
            return 0;
        } else {
            /* in toward the shore at a walking pace */
            *h = autopilot_steer(in, heading, 0, a->wave_heading);
            const double way = s->velocity.x * cos(in) - s->velocity.z * sin(in);
            h->throttle = way > AUTOPILOT_BEACH_MS ? 0.0 : AUTOPILOT_BEACH_THROTTLE;
            return 1;
        }
    }
    if (p->berth > 0) {
        if ((uint64_t)p->berth > tick) {
            /* held up the sand by its screw, bow to the shore by the wash
             * over its rudder (so that it backs off straight) */
            *h = autopilot_steer(in, heading, 0, a->wave_heading);
            h->throttle = AUTOPILOT_BEACH_HOLD;
            return 1;
        }
        p->berth = AUTOPILOT_BEACH_OUT;
    }
    /* backing off, rudder amidships, until afloat and within
     * AUTOPILOT_BEACH_CLEAR_M of the lane, or over AUTOPILOT_BEACH_OFF_DEPTH_M
     * of water (the surf may swing it round as it backs, so that it never
     * comes near the lane that way), or as far off as one that gives up
     * on the way in: its helm takes it back on */
    const double depth = t ? -nv_terrain_elevation(t, s->position.x, s->position.z) : INFINITY;
    if (!grounded && (off < AUTOPILOT_BEACH_CLEAR_M || depth > AUTOPILOT_BEACH_OFF_DEPTH_M ||
                      hypot(s->position.x - bx, s->position.z - bz) > AUTOPILOT_BEACH_GIVE_UP_M)) {
        p->berth = -1;
        return 0;
    }
    h->throttle = AUTOPILOT_BEACH_ASTERN;
    return 1;
}

/* The lines of a boat of `type` lying alongside lane l's berth
 * (autopilot.h), the quay on its starboard side: the lane's outside (the
 * lanes turn to port). 0 when the type is not known. */
static uint32_t autopilot_moor_lines(const nv_world* w, const lane* l, uint32_t type, double slack, nv_world_line* out) {
    const nv_hull* h = nv_world_hull_type(w, type);
    double y;
    if (!h || nv_world_type_float_height(w, type, &y, NULL)) return 0;
    const double length = (double)h->bounds_max[0] - h->bounds_min[0];
    const double half_beam = (double)h->bounds_max[2], reach = AUTOPILOT_MOOR_AT * length;
    const double lead = AUTOPILOT_MOOR_LEAD * length, gap = AUTOPILOT_BERTH_GAP_M;
    double bx, bz, heading;
    lane_point(l, l->berth, &bx, &bz, &heading);
    /* bow and starboard of the boat lying at the berth, heading along the
     * lane, which runs AUTOPILOT_BERTH_APPROACH_M off the face: the lines
     * draw it in to AUTOPILOT_BERTH_GAP_M */
    const double fx = cos(heading), fz = -sin(heading), sx = sin(heading), sz = cos(heading);
    bx += sx * (AUTOPILOT_BERTH_APPROACH_M - gap), bz += sz * (AUTOPILOT_BERTH_APPROACH_M - gap);
    const double k = 0.5 * h->body.mass * AUTOPILOT_MOOR_OMEGA * AUTOPILOT_MOOR_OMEGA;
    const double c = 2.0 * AUTOPILOT_MOOR_ZETA * sqrt(k * 0.5 * h->body.mass);
    /* bow line forward and stern line aft to the face, a breast line at
     * each end to the face (starboard, +1) and to a pile (port, -1) */
    const double along[6] = {reach, -reach, reach, -reach, reach, -reach};
    const double leads[6] = {lead, -lead, 0.0, 0.0, 0.0, 0.0}, side[6] = {1, 1, 1, 1, -1, -1};
    for (int n = 0; n < 6; n++) {
        const double reach_out = side[n] > 0 ? gap : AUTOPILOT_MOOR_PILE_M;
        const double out_m = side[n] * (half_beam + reach_out);
        const double px = bx + fx * (along[n] + leads[n]) + sx * out_m, pz = bz + fz * (along[n] + leads[n]) + sz * out_m;
        out[n] = (nv_world_line){.hull = v3(along[n], 0.0, side[n] * half_beam), .bollard = v3(px, y, pz),
                                 .length = hypot(reach_out, leads[n]) - AUTOPILOT_MOOR_SNUG_M + (side[n] > 0 ? slack : 0.0),
                                 .stiffness = k,
                                 .damping = c};
    }
    return 6;
}

/* The helm of a boat on its lane at arc position `arc`: the course for the
 * lane's point `look` ahead (no tacks: the lanes' straights lie along the
 * waves already), the throttle its speed keeper holds; above the type's
 * rating, the sea's cap and its rudder limit. */
static autopilot_helm autopilot_lane_helm(const autopilot* a, const pilot* p, double x, double z, double heading,
                                          int over, double arc) {
    const lane* l = &a->lanes[p->lane];
    double tx, tz;
    lane_point(l, arc + l->look, &tx, &tz, NULL);
    autopilot_helm h = autopilot_steer(atan2(-(tz - z), tx - x), heading, 0, a->wave_heading);
    const int turning = fabs(autopilot_wrap(h.course - heading)) >= AUTOPILOT_TURN_RAD;
    double cap = 1.0;
    if (over > 0) {
        cap = fmax(pow(AUTOPILOT_SEA_SLOW, over), AUTOPILOT_SEA_MIN_THROTTLE);
        if (fabs(h.rudder) > AUTOPILOT_SEA_RUDDER) h.rudder = h.rudder > 0.0 ? AUTOPILOT_SEA_RUDDER : -AUTOPILOT_SEA_RUDDER;
    }
    h.throttle = fmin(cap, p->pace);
    /* a hard turn in a seaway above the rating heels a boat into the seas
     * it turns across; in calm enough water the screw's wash is what
     * turns a big ship slow in the water, so the pace is kept */
    if (turning && over > 0) h.throttle = fmin(h.throttle, 0.5 * cap);
    return h;
}

static int autopilot_scratch(autopilot* a) {
    const uint32_t n = a->count ? a->count : 1;
    return GROW(&a->arc, &a->arc_capacity, n, 64) || GROW(&a->along, &a->along_capacity, n, 64) ||
           GROW(&a->order, &a->order_capacity, n, 64) || GROW(&a->throttle, &a->throttle_capacity, n, 64) ||
           GROW(&a->rudder, &a->rudder_capacity, n, 64) || GROW(&a->action, &a->action_capacity, n, 64) ||
           GROW(&a->lane_start, &a->start_capacity, a->lane_count + 1, 16);
}

/* What one update decided for a pilot (the jobs write their own pilot's
 * only; the controls are set after, in pilot order, on the loop thread). */
enum {
    AUTOPILOT_IDLE = 0,  /* not its tick: controls kept */
    AUTOPILOT_SET,       /* controls in throttle/rudder */
    AUTOPILOT_GONE,      /* its vessel left the world (or froze): dropped */
    AUTOPILOT_SERIAL,    /* a waypoint boat: its helm draws from the shared random sequence */
};

typedef struct autopilot_pass {
    autopilot* a;
    const nv_world* w;
    uint64_t tick, batch, batches;
    int avoiding, laned;
} autopilot_pass;

/* Every lane boat where it is now along its lane, from the avoidance's
 * snapshot (in its order: a streaming read), and marked on it as a lane
 * boat; a pilot whose boat is not in it (gone, frozen) stays nowhere. */
static void autopilot_arc_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    const autopilot_pass* u = ctx;
    autopilot* a = u->a;
    for (uint32_t i = begin; i < end; i++) {
        uint32_t id, k = a->pilot_at[i];
        double x, z, vx, vz;
        avoid_motion_at(a->avoid, i, &id, &x, &z, &vx, &vz);
        if (k >= a->count || a->pilots[k].id != id) {
            if (!idmap_get(&a->index, id, &k)) k = UINT32_MAX;
            a->pilot_at[i] = k;
        }
        if (k == UINT32_MAX || a->pilots[k].lane >= a->lane_count) continue;
        const lane* l = &a->lanes[a->pilots[k].lane];
        double lx, lz, dx, dz;
        avoid_set_lane_at(a->avoid, i, a->pilots[k].lane);
        a->arc[k] = lane_project(l, x, z);
        lane_frame(l, a->arc[k], &lx, &lz, &dx, &dz);
        a->along[k] = vx * dx + vz * dz;
    }
}

/* The lane boats bucketed by lane, in pilot order. */
static void autopilot_bucket(autopilot* a) {
    uint32_t* start = a->lane_start;
    memset(start, 0, (a->lane_count + 1) * sizeof *start);
    for (uint32_t i = 0; i < a->count; i++)
        if (a->pilots[i].lane < a->lane_count) start[a->pilots[i].lane + 1]++;
    for (uint32_t k = 0; k < a->lane_count; k++) start[k + 1] += start[k];
    for (uint32_t i = 0, k; i < a->count; i++)
        if ((k = a->pilots[i].lane) < a->lane_count) a->order[start[k]++] = i;
    for (uint32_t k = a->lane_count; k > 0; k--) start[k] = start[k - 1];
    start[0] = 0;
}

/* Station keeping, for a pilot deciding this time (autopilot.h): the
 * speed it wants from the gaps to the boats ahead of and astern of it on
 * its lane (arc positions of this update), and the throttle for it from
 * its speed along the lane now. */
static void autopilot_keep_station(const autopilot* a, pilot* p, uint32_t i) {
    const lane* l = &a->lanes[p->lane];
    const double P = lane_perimeter(l);
    const uint32_t* start = a->lane_start;
    const uint32_t n = start[p->lane + 1] - start[p->lane];
    double ahead = P, astern = P;
    for (uint32_t j = start[p->lane]; j < start[p->lane + 1]; j++) {
        uint32_t o = a->order[j];
        if (o == i || isnan(a->arc[o])) continue;
        double d = lane_ahead(l, a->arc[i], a->arc[o]);
        if (d > 0.0 && d < ahead) ahead = d;
        if (d > 0.0 && P - d < astern) astern = P - d;
    }
    double want = 1.0;
    if (n > 1) want = 1.0 + AUTOPILOT_PACE_GAIN * 0.5 * (ahead - astern) / (P / n);
    want = want < 0.5 ? 0.5 : (want > 1.5 ? 1.5 : want);
    /* closing on the boat ahead (it slowed, or gave way): half speed, or stop */
    if (n > 1 && ahead < AUTOPILOT_PACE_SLOWEST * l->clear) want = 0.5;
    if (n > 1 && ahead < AUTOPILOT_PACE_STOP * l->clear) want = 0.0;
    /* coming up to the berth */
    if (l->berth >= 0.0 && p->berth == 0 && lane_ahead(l, a->arc[i], l->berth) < AUTOPILOT_BERTH_SLOW_M)
        want = fmin(want, 0.5);
    double pace = p->pace + AUTOPILOT_PACE_KI * (want * l->speed - a->along[i]);
    pace = pace < AUTOPILOT_PACE_STEER ? AUTOPILOT_PACE_STEER : (pace > AUTOPILOT_PACE_MAX ? AUTOPILOT_PACE_MAX : pace);
    p->pace = want > 0.0 ? pace : 0.0;
}

/* One pilot's helm for this tick from the world as the update found it:
 * its course, the rules of the road over it, and (deciding) its station. */
static void autopilot_helm_one(const autopilot_pass* u, uint32_t i, const nv_world_vessel_pose* s, double heading,
                               autopilot_helm h) {
    autopilot* a = u->a;
    pilot* p = &a->pilots[i];
    /* The rules of the road over the course it wants (avoid.h): give
     * way to starboard, or stand on; decided every AUTOPILOT_AVOID_TICKS
     * (a tenth of the fleet on every sixth tick), the part taken
     * kept between. */
    const int deciding = u->avoiding && (u->batch + i) % u->batches == 0;
    if (deciding) {
        avoid_order o = avoid_decide(a->avoid, p->id, h.course, hypot(s->velocity.x, s->velocity.z));
        p->turn = remainder(o.course - h.course, 2.0 * NV_PI);
        p->slow = o.throttle_scale < 1.0;
    }
    if (p->turn != 0.0) {
        double throttle = h.throttle;
        h = autopilot_steer(h.course + p->turn, heading, 0, a->wave_heading);
        h.throttle = fmin(h.throttle, throttle) * (p->slow ? AVOID_SLOW : 1.0);
    }
    /* aground: back off astern, rudder amidships, until afloat */
    if (s->flags & WORLD_VESSEL_GROUNDED) h.throttle = -1.0, h.rudder = 0.0;
    a->action[i] = AUTOPILOT_SET;
    a->throttle[i] = h.throttle;
    a->rudder[i] = h.rudder;
    if (deciding && u->laned && p->lane < a->lane_count && !isnan(a->arc[i])) autopilot_keep_station(a, p, i);
}

/* The lane boats' helms (and every boat's state check), in parallel: each
 * job writes its own pilots and reads the world, the avoidance's snapshot
 * and the arcs, none of which change during it. */
static void autopilot_helm_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    const autopilot_pass* u = ctx;
    autopilot* a = u->a;
    for (uint32_t i = begin; i < end; i++) {
        pilot* p = &a->pilots[i];
        const int on_lane = u->laned && p->lane < a->lane_count;
        const int deciding = u->avoiding && (u->batch + i) % u->batches == 0;
        a->action[i] = AUTOPILOT_IDLE;
        /* On a lane the helm is set every AUTOPILOT_HELM_TICKS, a share of
         * the lane boats on each tick (and on its avoidance decision's);
         * a boat of a lane with a berth or beach every tick (the few that
         * come alongside or run in close to the shore) */
        if (on_lane && !deciding && a->lanes[p->lane].berth < 0.0 && (u->tick + i) % AUTOPILOT_HELM_TICKS != 0)
            continue;
        nv_world_vessel_pose s;
        if (nv_world_vessel_pose_get(u->w, p->id, &s) != 0 || (s.flags & WORLD_VESSEL_FROZEN)) {
            a->action[i] = AUTOPILOT_GONE;
            continue;
        }
        if (!on_lane) {
            a->action[i] = AUTOPILOT_SERIAL;
            continue;
        }
        const double x = s.position.x, z = s.position.z, heading = autopilot_heading_of(s.orientation);
        const lane* l = &a->lanes[p->lane];
        const double arc = lane_project(l, x, z);
        double lx = x, lz = z;
        if (l->berth >= 0.0) lane_point(l, arc, &lx, &lz, NULL);
        autopilot_helm beach;
        if (l->berth >= 0.0 && l->beach &&
            autopilot_beach(a, nv_world_get_terrain(u->w), l, p, arc, hypot(x - lx, z - lz), heading, &s, u->tick, &beach)) {
            /* running in, aground or backing off: no part in the rules of the road */
            p->turn = 0.0, p->slow = 0;
            a->action[i] = AUTOPILOT_SET, a->throttle[i] = beach.throttle, a->rudder[i] = beach.rudder;
            continue;
        }
        if (!l->beach && autopilot_alongside(l, p, arc, hypot(x - lx, z - lz), u->tick)) {
            /* moored (the lines are set every tick, below): engine stopped,
             * rudder amidships, no part in the rules of the road */
            p->turn = 0.0, p->slow = 0;
            a->action[i] = AUTOPILOT_SET, a->throttle[i] = 0.0, a->rudder[i] = 0.0;
            continue;
        }
        autopilot_helm h = autopilot_lane_helm(a, p, x, z, heading, autopilot_over(a, s.type), arc);
        /* stopped by its station keeping, or coming up to its berth: astern
         * against the way it has along the lane beyond what it may keep (a
         * following sea carries a skiff at 4 m/s with the engine stopped,
         * and at the least throttle that still steers it makes 3) */
        const int arriving =
            l->berth >= 0.0 && p->berth == 0 && lane_ahead(l, arc, l->berth) < AUTOPILOT_BERTH_SLOW_M;
        if (p->pace <= 0.0 || arriving) {
            double px, pz, dx, dz;
            lane_frame(l, arc, &px, &pz, &dx, &dz);
            const double keep = p->pace <= 0.0 ? 0.0 : AUTOPILOT_BERTH_ARRIVE_MS;
            const double along = s.velocity.x * dx + s.velocity.z * dz;
            /* astern brakes only a boat heading along the lane; one the
             * seas turned while it waited comes round first, with the
             * screw's wash over the rudder (astern would undo the turn),
             * unless the seas carry it faster than it may keep already:
             * more throttle then only set it wide of its berth and past
             * it (a skiff that waited behind the boat at the berth, at
             * 4.7 m/s and 6.8 m off the lane when it got there) */
            const int aligned = fabs(autopilot_wrap(heading - h.course)) < AUTOPILOT_BERTH_ALIGN_RAD;
            if (along > keep && aligned) h.throttle = -fmin(1.0, AUTOPILOT_BRAKE_PER_MS * (along - keep));
            else if (p->pace <= 0.0) h.throttle = 0.0;
            else if (!aligned && along <= keep) h.throttle = fmax(h.throttle, AUTOPILOT_TURN_THROTTLE);
        }
        autopilot_helm_one(u, i, &s, heading, h);
    }
}

static void autopilot_run(nv_jobs* pool, uint32_t count, nv_jobs_range_fn* fn, void* ctx) {
    if (pool)
        nv_jobs_parallel_for(pool, count, AUTOPILOT_GRAIN, fn, ctx);
    else if (count)
        fn(ctx, 0, count, 0);
}

void autopilot_update(autopilot* a, nv_world* w, nv_jobs* pool) {
    const nv_terrain* t = nv_world_get_terrain(w);
    autopilot_pass u = {.a = a, .w = w, .tick = nv_world_tick(w)};
    u.batch = u.tick / AUTOPILOT_AVOID_BATCH, u.batches = AUTOPILOT_AVOID_TICKS / AUTOPILOT_AVOID_BATCH;
    /* room for each pilot's decision; without it (out of memory) the
     * controls stay as they are this tick */
    if (autopilot_scratch(a)) return;
    /* Every vessel as it is now, for the rules of the road; without it
     * (out of memory) the boats steer as before. */
    u.avoiding = a->count && u.tick % AUTOPILOT_AVOID_BATCH == 0 && avoid_snapshot(a->avoid, w) == 0;
    u.laned = a->lane_count != 0;
    if (u.avoiding && u.laned) {
        for (uint32_t i = 0; i < a->count; i++) a->arc[i] = a->along[i] = NAN;
        const uint32_t ships = avoid_count(a->avoid);
        if (GROW(&a->pilot_at, &a->pilot_at_capacity, ships ? ships : 1, 64)) return;
        for (uint32_t i = a->pilot_at_count; i < ships; i++) a->pilot_at[i] = UINT32_MAX;
        a->pilot_at_count = ships > a->pilot_at_count ? ships : a->pilot_at_count;
        autopilot_run(pool, ships, autopilot_arc_job, &u);
        autopilot_bucket(a);
        avoid_index_lanes(a->avoid); /* out of memory: decisions by the grid */
    }
    autopilot_run(pool, a->count, autopilot_helm_job, &u);
    /* In pilot order on this thread: the waypoint boats' helms (each new
     * waypoint is the next of one random sequence), then every control. */
    for (uint32_t i = 0; i < a->count; i++) {
        if (a->action[i] != AUTOPILOT_SERIAL) continue;
        pilot* p = &a->pilots[i];
        nv_world_vessel_pose s;
        nv_world_vessel_pose_get(w, p->id, &s); /* there: the job found it */
        const double heading = autopilot_heading_of(s.orientation);
        autopilot_helm h = autopilot_waypoint_helm(a, p, t, u.tick, i, s.position.x, s.position.z, heading,
                                                   autopilot_over(a, s.type), (s.flags & WORLD_VESSEL_GROUNDED) != 0);
        autopilot_helm_one(&u, i, &s, heading, h);
    }
    for (uint32_t i = 0; i < a->count; i++)
        if (a->action[i] == AUTOPILOT_SET) nv_world_set_controls(w, a->pilots[i].id, a->throttle[i], a->rudder[i], NULL);
    /* the boats alongside, moored for the next step (the world keeps lines
     * for one step only) */
    const double dt = u.tick ? nv_world_time(w) / (double)u.tick : 0.0;
    for (uint32_t i = 0; i < a->count; i++) {
        const pilot* p = &a->pilots[i];
        nv_world_vessel_pose s;
        nv_world_line lines[6];
        if (p->berth <= 0 || p->lane >= a->lane_count || a->lanes[p->lane].beach || a->action[i] == AUTOPILOT_GONE ||
            nv_world_vessel_pose_get(w, p->id, &s))
            continue;
        /* the lines go out slack and are hove in (autopilot.h) */
        const lane* l = &a->lanes[p->lane];
        const double since = (double)((int64_t)u.tick - (p->berth - (int64_t)l->berth_ticks)) * dt;
        const double slack = fmax(0.0, AUTOPILOT_MOOR_SLACK_M - AUTOPILOT_MOOR_HEAVE_MS * since);
        uint32_t n = autopilot_moor_lines(w, l, s.type, slack, lines);
        nv_world_set_lines(w, p->id, lines, n, NULL);
    }
    /* the boats gone, last to first (a removal moves the last pilot into
     * its place) */
    for (uint32_t i = a->count; i-- > 0;)
        if (a->action[i] == AUTOPILOT_GONE) autopilot_remove(a, a->pilots[i].id);
}
