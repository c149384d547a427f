// SPDX-License-Identifier: MIT
#include "avoid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "idmap.h"

#define AVOID_DEG (NV_PI / 180.0)
/* Within this of dead ahead, each seen from the other: head-on (rule 14
 * says "ahead or nearly ahead"; 10 degrees covers a yawing boat). */
#define AVOID_HEAD_ON_DEG 10.0
/* More than 22.5 degrees abaft the beam: overtaking (rule 13). */
#define AVOID_ABAFT_DEG 112.5
/* Slower than this the other is a stopped boat: kept clear of. */
#define AVOID_STOPPED_MS 0.5

typedef struct avoid_ship {
    uint32_t id;
    double x, z, vx, vz, half_length;
    nv_quat orientation; /* the heading is worked out only for an encounter */
    uint32_t lane;       /* AVOID_NO_LANE, or the traffic lane it follows */
} avoid_ship;

#define AVOID_READ_CHUNK 256u
#define AVOID_TYPES WORLD_MAX_HULL_TYPES

struct avoid {
    nv_world_vessel_pose poses[AVOID_READ_CHUNK]; /* read in chunks */
    avoid_ship* ships;       /* slot order */
    uint32_t count, capacity;
    idmap by_id;             /* id -> index: a boat's own entry */
    uint32_t* order;         /* ship indices by cell, slot order within one */
    uint32_t* cell_start;    /* cells + 1 offsets into order */
    uint32_t order_capacity, cell_capacity;
    double x0, z0, cell;
    uint32_t nx, nz;
    /* the ships on no lane, in slot order (avoid_index_lanes), all a lane
     * boat has to look at; lanes_indexed 0: not built since the snapshot */
    uint32_t* off_lane;
    uint32_t off_count, off_capacity;
    int lanes_indexed;
};

avoid* avoid_create(void) { return calloc(1, sizeof(avoid)); }

void avoid_destroy(avoid* a) {
    if (!a) return;
    free(a->ships);
    idmap_free(&a->by_id);
    free(a->order);
    free(a->cell_start);
    free(a->off_lane);
    free(a);
}

static double avoid_heading(nv_quat q) {
    nv_vec3 bow = quat_rotate(q, v3(1.0, 0.0, 0.0));
    return atan2(-bow.z, bow.x);
}

static const avoid_ship* avoid_find(const avoid* a, uint32_t id) {
    uint32_t i;
    return idmap_get(&a->by_id, id, &i) ? &a->ships[i] : NULL;
}

static uint32_t avoid_cell_of(const avoid* a, double x, double z) {
    double fx = floor((x - a->x0) / a->cell), fz = floor((z - a->z0) / a->cell);
    uint32_t ix = fx < 0.0 ? 0u : fx >= a->nx ? a->nx - 1 : (uint32_t)fx;
    uint32_t iz = fz < 0.0 ? 0u : fz >= a->nz ? a->nz - 1 : (uint32_t)fz;
    return iz * a->nx + ix;
}

int avoid_snapshot(avoid* a, const nv_world* w) {
    uint32_t n = nv_world_vessel_count(w);
    a->count = 0;
    a->lanes_indexed = 0;
    if (GROW(&a->ships, &a->capacity, n ? n : 1, 64) || GROW(&a->order, &a->order_capacity, n ? n : 1, 64) ||
        idmap_reserve(&a->by_id, n))
        return -1;
    double half[AVOID_TYPES];
    uint32_t types = nv_world_hull_type_count(w);
    if (types > AVOID_TYPES) types = AVOID_TYPES;
    for (uint32_t t = 0; t < types; t++) {
        const nv_hull* h = nv_world_hull_type(w, t);
        half[t] = h ? 0.5 * (double)(h->bounds_max[0] - h->bounds_min[0]) : 0.0;
    }
    double lo_x = INFINITY, lo_z = INFINITY, hi_x = -INFINITY, hi_z = -INFINITY;
    for (uint32_t first = 0; first < n; first += AVOID_READ_CHUNK) {
        uint32_t got = nv_world_read_poses(w, first, AVOID_READ_CHUNK, a->poses);
        for (uint32_t k = 0; k < got; k++) {
            const nv_world_vessel_pose* st = &a->poses[k];
            if (st->flags & WORLD_VESSEL_FROZEN || !isfinite(st->position.x) || !isfinite(st->position.z)) continue;
            avoid_ship* p = &a->ships[a->count++];
            p->id = st->id;
            p->x = st->position.x, p->z = st->position.z;
            p->vx = isfinite(st->velocity.x) ? st->velocity.x : 0.0;
            p->vz = isfinite(st->velocity.z) ? st->velocity.z : 0.0;
            p->orientation = st->orientation;
            p->half_length = st->type < types ? half[st->type] : 0.0;
            p->lane = AVOID_NO_LANE;
            lo_x = fmin(lo_x, p->x), hi_x = fmax(hi_x, p->x), lo_z = fmin(lo_z, p->z), hi_z = fmax(hi_z, p->z);
        }
    }
    idmap_clear(&a->by_id);
    for (uint32_t i = 0; i < a->count; i++) idmap_put(&a->by_id, a->ships[i].id, i); /* reserved: cannot fail */
    /* Cells of half the range (a query reads 5 x 5 of them), coarser when
     * the fleet is spread so wide that the grid would pass 512 a side. */
    a->x0 = a->count ? lo_x : 0.0, a->z0 = a->count ? lo_z : 0.0;
    double span = a->count ? fmax(hi_x - lo_x, hi_z - lo_z) : 0.0;
    a->cell = fmax(0.5 * AVOID_RANGE_M, span / 512.0);
    a->nx = (uint32_t)(a->count ? (hi_x - lo_x) / a->cell : 0.0) + 1;
    a->nz = (uint32_t)(a->count ? (hi_z - lo_z) / a->cell : 0.0) + 1;
    uint32_t cells = a->nx * a->nz;
    if (GROW(&a->cell_start, &a->cell_capacity, cells + 1, 64)) return -1;
    memset(a->cell_start, 0, (cells + 1) * sizeof *a->cell_start);
    for (uint32_t i = 0; i < a->count; i++) a->cell_start[avoid_cell_of(a, a->ships[i].x, a->ships[i].z) + 1]++;
    for (uint32_t c = 0; c < cells; c++) a->cell_start[c + 1] += a->cell_start[c];
    /* A counting sort, stable: slot order within a cell. */
    for (uint32_t i = 0; i < a->count; i++) {
        uint32_t c = avoid_cell_of(a, a->ships[i].x, a->ships[i].z);
        a->order[a->cell_start[c]++] = i;
    }
    for (uint32_t c = cells; c > 0; c--) a->cell_start[c] = a->cell_start[c - 1];
    a->cell_start[0] = 0;
    return 0;
}

int avoid_set_lane(avoid* a, uint32_t id, uint32_t lane) {
    avoid_ship* s = (avoid_ship*)avoid_find(a, id);
    if (!s) return -1;
    s->lane = lane;
    return 0;
}

int avoid_index_lanes(avoid* a) {
    a->lanes_indexed = 0;
    if (GROW(&a->off_lane, &a->off_capacity, a->count ? a->count : 1, 64)) return -1;
    a->off_count = 0;
    for (uint32_t i = 0; i < a->count; i++)
        if (a->ships[i].lane == AVOID_NO_LANE) a->off_lane[a->off_count++] = i;
    a->lanes_indexed = 1;
    return 0;
}

uint32_t avoid_count(const avoid* a) { return a->count; }

void avoid_motion_at(const avoid* a, uint32_t i, uint32_t* id, double* x, double* z, double* vx, double* vz) {
    const avoid_ship* s = &a->ships[i];
    *id = s->id, *x = s->x, *z = s->z, *vx = s->vx, *vz = s->vz;
}

void avoid_set_lane_at(avoid* a, uint32_t i, uint32_t lane) { a->ships[i].lane = lane; }

/* Boats on lanes of a scheme are kept apart by the lanes: on two lanes,
 * their straight-line tracks cross where the lanes curve and never meet;
 * on one, they keep station on each other (autopilot.h) where a turn
 * would take one into the next lane. */
static int avoid_apart_by_lanes(const avoid_ship* own, const avoid_ship* b) {
    return own->lane != AVOID_NO_LANE && b->lane != AVOID_NO_LANE;
}

/* The time of the closest point of approach of `b` to `own` sailing at
 * (vx, vz), and the distance then; t < 0: they are drawing apart. */
static double avoid_cpa(const avoid_ship* own, double vx, double vz, const avoid_ship* b, double* distance) {
    double px = b->x - own->x, pz = b->z - own->z, dvx = b->vx - vx, dvz = b->vz - vz;
    double dv2 = dvx * dvx + dvz * dvz;
    double t = dv2 > 1e-12 ? -(px * dvx + pz * dvz) / dv2 : 0.0;
    double cx = px + dvx * fmax(t, 0.0), cz = pz + dvz * fmax(t, 0.0);
    *distance = sqrt(cx * cx + cz * cz);
    return t;
}

/* The bearing of (px, pz) from a bow heading `heading`: radians, positive
 * to starboard (the starboard side of a bow (cos h, -sin h) is (sin h,
 * cos h) in x, z: right-handed, y up). */
static double avoid_bearing(double heading, double px, double pz) {
    double ahead = px * cos(heading) - pz * sin(heading), starboard = px * sin(heading) + pz * cos(heading);
    return atan2(starboard, ahead);
}

/* Close quarters with `b` sailing at (vx, vz): nearer than one and a half
 * times both half lengths and the margin within the horizon (the half
 * again for the turns the straight tracks leave out: a freighter's
 * bow swings 70 m). *t gets the time. */
static int avoid_threat(const avoid_ship* own, double vx, double vz, const avoid_ship* b, double* t) {
    double d;
    *t = avoid_cpa(own, vx, vz, b, &d);
    if (*t < 0.0 || *t > AVOID_HORIZON_S) return 0;
    return d < 1.5 * (own->half_length + b->half_length) + AVOID_MARGIN_M;
}

/* The encounter with `b` by the rules, from where each lies on the
 * other's bow; `t` the time to the closest approach. */
static avoid_role avoid_encounter(const avoid_ship* own, const avoid_ship* b, double t) {
    double px = b->x - own->x, pz = b->z - own->z;
    double beta = avoid_bearing(avoid_heading(own->orientation), px, pz); /* b from own bow */
    double alpha = avoid_bearing(avoid_heading(b->orientation), -px, -pz); /* own from b's bow */
    int stopped = hypot(b->vx, b->vz) < AVOID_STOPPED_MS;
    avoid_role role;
    if (stopped)
        role = AVOID_GIVE_WAY; /* a boat lying stopped is kept clear of */
    else if (fabs(beta) < AVOID_HEAD_ON_DEG * AVOID_DEG && fabs(alpha) < AVOID_HEAD_ON_DEG * AVOID_DEG)
        role = AVOID_HEAD_ON;
    else if (fabs(alpha) > AVOID_ABAFT_DEG * AVOID_DEG)
        role = AVOID_OVERTAKING; /* own comes up from abaft b's beam */
    else if (fabs(beta) > AVOID_ABAFT_DEG * AVOID_DEG)
        role = AVOID_STAND_ON; /* b overtakes own */
    else
        role = beta > 0.0 ? AVOID_GIVE_WAY : AVOID_STAND_ON; /* crossing: b on own starboard side gives way */
    if (role == AVOID_STAND_ON && t < AVOID_LAST_S) role = AVOID_LAST_MOMENT;
    return role;
}

/* The ships within range of (x, z), by cells, into `out` (indices). */
static uint32_t avoid_near(const avoid* a, double x, double z, uint32_t* out, uint32_t cap) {
    uint32_t n = 0;
    if (!a->count) return 0;
    int span = (int)ceil(AVOID_RANGE_M / a->cell);
    double fx = floor((x - a->x0) / a->cell), fz = floor((z - a->z0) / a->cell);
    for (int dz = -span; dz <= span; dz++) {
        double cz = fz + dz;
        if (cz < 0.0 || cz >= a->nz) continue;
        for (int dx = -span; dx <= span; dx++) {
            double cx = fx + dx;
            if (cx < 0.0 || cx >= a->nx) continue;
            uint32_t c = (uint32_t)cz * a->nx + (uint32_t)cx;
            for (uint32_t k = a->cell_start[c]; k < a->cell_start[c + 1] && n < cap; k++) {
                const avoid_ship* b = &a->ships[a->order[k]];
                double ddx = b->x - x, ddz = b->z - z;
                if (ddx * ddx + ddz * ddz <= AVOID_RANGE_M * AVOID_RANGE_M) out[n++] = a->order[k];
            }
        }
    }
    return n;
}

/* Every threat on a course cleared? */
static int avoid_course_clear(const avoid* a, const avoid_ship* own, const uint32_t* near, uint32_t n, double course,
                              double speed) {
    double vx = speed * cos(course), vz = -speed * sin(course);
    for (uint32_t k = 0; k < n; k++) {
        const avoid_ship* b = &a->ships[near[k]];
        double t;
        if (b != own && !avoid_apart_by_lanes(own, b) && avoid_threat(own, vx, vz, b, &t)) return 0;
    }
    return 1;
}

#define AVOID_NEAR_MAX 256u

avoid_order avoid_decide(const avoid* a, uint32_t id, double wanted, double speed) {
    avoid_order o = {wanted, 1.0, AVOID_CLEAR, 0};
    const avoid_ship* own = avoid_find(a, id);
    if (!own || !isfinite(wanted)) return o;
    speed = isfinite(speed) && speed > 1.0 ? speed : 1.0;
    uint32_t near[AVOID_NEAR_MAX];
    uint32_t n = 0;
    if (own->lane != AVOID_NO_LANE && a->lanes_indexed && a->off_count <= AVOID_NEAR_MAX) {
        /* a lane boat looks out for the few off the lanes only: a scan of
         * them, not of the crowd of lane boats in the cells around it */
        for (uint32_t k = 0; k < a->off_count; k++) {
            const avoid_ship* b = &a->ships[a->off_lane[k]];
            double dx = b->x - own->x, dz = b->z - own->z;
            if (dx * dx + dz * dz <= AVOID_RANGE_M * AVOID_RANGE_M) near[n++] = a->off_lane[k];
        }
    } else {
        n = avoid_near(a, own->x, own->z, near, AVOID_NEAR_MAX);
    }
    /* The most urgent threat that asks this boat to act, else the most
     * urgent one it stands on for. */
    double act_t = INFINITY, stand_t = INFINITY, vx = speed * cos(wanted), vz = -speed * sin(wanted);
    for (uint32_t k = 0; k < n; k++) {
        const avoid_ship* b = &a->ships[near[k]];
        double t;
        if (b == own || avoid_apart_by_lanes(own, b) || !avoid_threat(own, vx, vz, b, &t)) continue;
        avoid_role role = avoid_encounter(own, b, t);
        if (role != AVOID_STAND_ON) {
            if (t < act_t) act_t = t, o.role = role, o.other = b->id;
        } else if (act_t == INFINITY && t < stand_t) {
            stand_t = t, o.role = role, o.other = b->id;
        }
    }
    if (act_t == INFINITY) return o; /* clear, or standing on */
    /* Rule 16: early and substantial, to starboard (a smaller heading). */
    static const double turns[] = {15.0, 30.0, 45.0, 60.0, 90.0};
    for (size_t i = 0; i < sizeof turns / sizeof turns[0]; i++) {
        double course = wanted - turns[i] * AVOID_DEG;
        if (avoid_course_clear(a, own, near, n, course, speed)) {
            o.course = course;
            return o;
        }
    }
    o.course = wanted - 90.0 * AVOID_DEG;
    o.throttle_scale = AVOID_SLOW;
    return o;
}
