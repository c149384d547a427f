// SPDX-License-Identifier: MIT
/* Free water for a new vessel (nv_world_find_free_water): candidates on
 * rings around the requested spot, nearest first, each tested by the
 * hull's footprint (the rectangle of its bounding box, at the heading it
 * will have) against the other hulls' footprints as they lie (and along
 * the tracks their velocities give them, with a look-ahead), the
 * structures' bounding circles and the ground under it. */
#include <math.h>
#include <stdlib.h>

#include "world_internal.h"

static const double PLACE_TAU = 6.283185307179586;

/* A hull's footprint on the water: the rectangle in the xz plane that
 * holds its bounding box (body frame) as posed, about its centre (cx,
 * cz), with unit axis (ux, uz) along the bow's horizontal direction and
 * the normal (-uz, ux); hu and hv are the half extents along them. Hulls
 * are long and narrow, so this lets a boat lie alongside another where
 * their bounding circles would have kept it a half length away. */
typedef struct place_box {
    double cx, cz, ux, uz, hu, hv;
    double r; /* the rectangle's circumradius: far boxes pass on it alone */
} place_box;

static place_box place_box_of(const world_type* t, nv_vec3 p, nv_quat q) {
    nv_vec3 bow = quat_rotate(q, v3(1.0, 0.0, 0.0));
    double len = hypot(bow.x, bow.z);
    place_box b = {0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0};
    if (len > 1e-9) b.ux = bow.x / len, b.uz = bow.z / len;
    double lo_u = INFINITY, hi_u = -INFINITY, lo_v = INFINITY, hi_v = -INFINITY;
    for (int c = 0; c < 8; c++) {
        nv_vec3 corner = v3(c & 1 ? t->hull.bounds_max[0] : t->hull.bounds_min[0],
                         c & 2 ? t->hull.bounds_max[1] : t->hull.bounds_min[1],
                         c & 4 ? t->hull.bounds_max[2] : t->hull.bounds_min[2]);
        nv_vec3 d = quat_rotate(q, corner);
        double u = d.x * b.ux + d.z * b.uz, v = -d.x * b.uz + d.z * b.ux;
        lo_u = fmin(lo_u, u), hi_u = fmax(hi_u, u), lo_v = fmin(lo_v, v), hi_v = fmax(hi_v, v);
    }
    double mu = 0.5 * (lo_u + hi_u), mv = 0.5 * (lo_v + hi_v);
    b.cx = p.x + mu * b.ux - mv * b.uz;
    b.cz = p.z + mu * b.uz + mv * b.ux;
    b.hu = 0.5 * (hi_u - lo_u);
    b.hv = 0.5 * (hi_v - lo_v);
    b.r = hypot(b.hu, b.hv);
    return b;
}

/* The box's half extent along the unit direction (ax, az). */
static double place_reach(const place_box* b, double ax, double az) {
    return b->hu * fabs(b->ux * ax + b->uz * az) + b->hv * fabs(-b->uz * ax + b->ux * az);
}

/* Separated by at least `margin` along one of the four axes (the
 * separating axis theorem for two rectangles). */
static int place_boxes_clear(const place_box* a, const place_box* b, double margin) {
    double dx = b->cx - a->cx, dz = b->cz - a->cz, far = a->r + b->r + margin;
    if (dx * dx + dz * dz >= far * far) return 1;
    const double axes[4][2] = {{a->ux, a->uz}, {-a->uz, a->ux}, {b->ux, b->uz}, {-b->uz, b->ux}};
    for (int k = 0; k < 4; k++) {
        double gap = fabs(dx * axes[k][0] + dz * axes[k][1]) - place_reach(a, axes[k][0], axes[k][1]) -
                     place_reach(b, axes[k][0], axes[k][1]);
        if (gap >= margin) return 1;
    }
    return 0;
}

/* A circle of radius r about (x, z) is `margin` clear of the box. */
static int place_circle_clear(const place_box* b, double x, double z, double r, double margin) {
    double dx = x - b->cx, dz = z - b->cz;
    double u = dx * b->ux + dz * b->uz, v = -dx * b->uz + dz * b->ux;
    double eu = fmax(fabs(u) - b->hu, 0.0), ev = fmax(fabs(v) - b->hv, 0.0);
    return hypot(eu, ev) >= r + margin;
}

/* The ground under the footprint's axis-aligned bounds stays below the
 * keel of a hull floating upright there, by `margin`. */
static int place_dry(const nv_world* w, const place_box* b, double keel, double margin) {
    const nv_terrain* t = w->ground.terrain;
    if (!t) return 0;
    double ex = place_reach(b, 1.0, 0.0), ez = place_reach(b, 0.0, 1.0);
    return nv_terrain_max_in(t, b->cx - ex, b->cz - ez, b->cx + ex, b->cz + ez) > keel - margin;
}

int nv_world_find_free_water(const nv_world* w, uint32_t type, double x, double z, double heading, double reach,
                             double margin, double* out_x, double* out_z, uint32_t* tried, nv_error* err) {
    return nv_world_find_free_water_ahead(w, type, x, z, heading, reach, margin, 0.0, out_x, out_z, tried, err);
}

/* Footprints a vessel moving at (vx, vz) m/s sweeps over `ahead` seconds:
 * its box now and moved along its velocity in steps of at most its half
 * beam, so that the samples leave no gap a hull could sit in (at most 64). */
static uint32_t place_track_samples(const place_box* b, double vx, double vz, double ahead) {
    double travel = hypot(vx, vz) * ahead;
    if (!(travel > 0.0) || !isfinite(travel)) return 1;
    double n = ceil(travel / fmax(b->hv, 0.5)) + 1.0;
    return n > 64.0 ? 64u : (uint32_t)n;
}

int nv_world_find_free_water_ahead(const nv_world* w, uint32_t type, double x, double z, double heading, double reach,
                                   double margin, double ahead, double* out_x, double* out_z, uint32_t* tried,
                                   nv_error* err) {
    if (tried) *tried = 0;
    if (type >= w->type_count)
        return nv_error_fail(err, NV_ENOENT, "no vessel type %u (the world has %u)", type, w->type_count);
    if (!isfinite(x) || !isfinite(z) || !isfinite(heading) || !(reach >= 0.0) || !isfinite(reach) ||
        !(margin >= 0.0) || !isfinite(margin) || !(ahead >= 0.0) || !(ahead <= 600.0))
        return nv_error_set(err, "free water: the position, heading, reach and margin must be finite, reach and margin "
                                 ">= 0, the look-ahead in [0, 600] s");
    const world_type* t = &w->types[type];
    const double r = t->radius;
    /* Upright on flat water: the keel's depth. A type that does not float
     * is placed as if its CG were at the waterline. */
    const double keel = (t->can_float ? t->float_height : 0.0) + (double)t->hull.bounds_min[1];
    const nv_quat upright = quat_from_axis_angle(v3(0.0, 1.0, 0.0), heading);
    double largest = 0.0;
    for (uint32_t k = 0; k < w->type_count; k++) largest = fmax(largest, w->types[k].radius);
    for (uint32_t k = 0; k < w->structure_count; k++) largest = fmax(largest, w->structures[k].shape.radius);
    /* Rings `step` apart, at most 64 of them: the cost is bounded whatever
     * the reach (about 13,000 candidates). */
    double step = fmax(fmax(2.0, 0.25 * r), reach / 64.0);
    uint32_t rings = (uint32_t)floor(reach / step);
    /* Only the vessels near enough to matter are tested per candidate,
     * each by its footprint as it lies now and, with a look-ahead, where
     * its present velocity takes it within `ahead` seconds (its track). */
    double near = reach + r + largest + margin;
    uint32_t n_near = 0, cap = 0;
    place_box* boxes = NULL;
    for (uint32_t s = 0; s < w->count; s++) {
        double vx = ahead > 0.0 && isfinite(w->v.vx[s]) ? w->v.vx[s] : 0.0;
        double vz = ahead > 0.0 && isfinite(w->v.vz[s]) ? w->v.vz[s] : 0.0;
        double dx = w->v.px[s] - x, dz = w->v.pz[s] - z, reach_s = near + hypot(vx, vz) * ahead;
        if (dx * dx + dz * dz > reach_s * reach_s) continue;
        nv_quat q = quat_normalize((nv_quat){w->v.qw[s], w->v.qx[s], w->v.qy[s], w->v.qz[s]});
        place_box now = place_box_of(&w->types[w->v.type[s]], v3(w->v.px[s], w->v.py[s], w->v.pz[s]), q);
        uint32_t samples = place_track_samples(&now, vx, vz, ahead);
        if (GROW(&boxes, &cap, n_near + samples, 64)) {
            free(boxes);
            return nv_error_fail(err, NV_ENOMEM, "free water: out of memory");
        }
        for (uint32_t k = 0; k < samples; k++) {
            double f = samples > 1 ? ahead * k / (samples - 1) : 0.0;
            place_box moved = now;
            moved.cx += vx * f;
            moved.cz += vz * f;
            boxes[n_near++] = moved;
        }
    }
    uint32_t count = 0;
    int found = 0;
    for (uint32_t ring = 0; ring <= rings && !found; ring++) {
        double radius = ring * step;
        uint32_t n = ring == 0 ? 1 : (uint32_t)ceil(PLACE_TAU * ring);
        for (uint32_t i = 0; i < n && !found; i++) {
            double a = PLACE_TAU * i / n;
            double cx = x + radius * cos(a), cz = z + radius * sin(a);
            count++;
            place_box mine = place_box_of(t, v3(cx, 0.0, cz), upright);
            int clear = !place_dry(w, &mine, keel, margin);
            for (uint32_t k = 0; clear && k < n_near; k++) clear = place_boxes_clear(&mine, &boxes[k], margin);
            for (uint32_t k = 0; clear && k < w->structure_count; k++) {
                const world_structure* st = &w->structures[k];
                clear = place_circle_clear(&mine, st->position.x, st->position.z, st->shape.radius, margin);
            }
            if (clear) {
                *out_x = cx;
                *out_z = cz;
                found = 1;
            }
        }
    }
    free(boxes);
    if (tried) *tried = count;
    if (!found)
        return nv_error_fail(err, NV_ELIMIT, "no free water within %g m of (%g, %g) for a %s (%g m across)", reach,
                             x, z, t->name, 2.0 * r);
    return 0;
}

/* Slots sorted by x for the sweep. */
typedef struct overlap_key {
    double x;
    uint32_t slot;
} overlap_key;

static int overlap_by_x(const void* pa, const void* pb) {
    const overlap_key *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    return a->slot < b->slot ? -1 : (a->slot > b->slot);
}

static int overlap_by_ids(const void* pa, const void* pb) {
    const nv_world_overlap *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : (a->b > b->b);
}

static shape_pose overlap_pose(const nv_world* w, uint32_t s) {
    nv_quat q = {w->v.qw[s], w->v.qx[s], w->v.qy[s], w->v.qz[s]};
    shape_pose p = {&w->types[w->v.type[s]].shape, v3(w->v.px[s], w->v.py[s], w->v.pz[s]), quat_to_mat3(q), 0.0};
    return p;
}

int nv_world_find_overlaps(const nv_world* w, nv_world_overlap* out, uint32_t cap, uint32_t* count, nv_error* err) {
    *count = 0;
    if (w->count < 2) return 0;
    overlap_key* order = malloc((size_t)w->count * sizeof *order);
    if (!order) return nv_error_fail(err, NV_ENOMEM, "overlaps: out of memory");
    double largest = 0.0;
    for (uint32_t s = 0; s < w->count; s++) {
        order[s] = (overlap_key){w->v.px[s], s};
        largest = fmax(largest, w->types[w->v.type[s]].shape.radius);
    }
    qsort(order, w->count, sizeof *order, overlap_by_x);
    uint32_t n = 0;
    for (uint32_t i = 0; i < w->count; i++) {
        uint32_t sa = order[i].slot;
        double ra = w->types[w->v.type[sa]].shape.radius;
        for (uint32_t j = i + 1; j < w->count; j++) {
            uint32_t sb = order[j].slot;
            if (order[j].x - order[i].x > ra + largest) break;
            double rb = w->types[w->v.type[sb]].shape.radius;
            nv_vec3 d = v3(w->v.px[sb] - w->v.px[sa], w->v.py[sb] - w->v.py[sa], w->v.pz[sb] - w->v.pz[sa]);
            double dist = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
            if (dist >= ra + rb) continue;
            shape_pose pa = overlap_pose(w, sa), pb = overlap_pose(w, sb);
            double depth;
            nv_vec3 normal, point;
            if (shape_penetration(&pa, &pb, &depth, &normal, &point) != 0) continue;
            if (n < cap) {
                uint32_t ia = w->v.id[sa], ib = w->v.id[sb];
                out[n] = (nv_world_overlap){ia < ib ? ia : ib, ia < ib ? ib : ia, dist, depth};
            }
            n++;
        }
    }
    free(order);
    qsort(out, n < cap ? n : cap, sizeof *out, overlap_by_ids);
    *count = n;
    return 0;
}
