// SPDX-License-Identifier: MIT
/* Free water for a new vessel (nv_world_find_free_water): candidates on
 * rings around the requested spot, nearest first, each tested against the
 * other hulls' and the structures' bounding circles and the ground under
 * the footprint. */
#include <math.h>
#include <stdlib.h>

#include "world_internal.h"

static const double PLACE_TAU = 6.283185307179586;

/* The ground under a square of half-side r about (x, z) stays below the
 * keel of a hull floating upright there, by `margin`. */
static int place_dry(const world* w, double x, double z, double r, double keel, double margin) {
    const terrain* t = w->ground.terrain;
    if (!t) return 0;
    return nv_terrain_max_in(t, x - r, z - r, x + r, z + r) > keel - margin;
}

int nv_world_find_free_water(const world* w, uint32_t type, double x, double z, double reach, double margin,
                             double* out_x, double* out_z, uint32_t* tried, nv_error* err) {
    if (tried) *tried = 0;
    if (type >= w->type_count)
        return nv_error_fail(err, NV_ENOENT, "no vessel type %u (the world has %u)", type, w->type_count);
    if (!isfinite(x) || !isfinite(z) || !(reach >= 0.0) || !isfinite(reach) || !(margin >= 0.0) || !isfinite(margin))
        return nv_error_set(err, "free water: the position, reach and margin must be finite, reach and margin >= 0");
    const world_type* t = &w->types[type];
    const double r = t->radius;
    /* Upright on flat water: the keel's depth. A type that does not float
     * is placed as if its CG were at the waterline. */
    const double keel = (t->can_float ? t->float_height : 0.0) + (double)t->hull.bounds_min[1];
    double largest = 0.0;
    for (uint32_t k = 0; k < w->type_count; k++) largest = fmax(largest, w->types[k].radius);
    for (uint32_t k = 0; k < w->structure_count; k++) largest = fmax(largest, w->structures[k].shape.radius);
    /* Rings `step` apart, at most 64 of them: the cost is bounded whatever
     * the reach (about 13,000 candidates). */
    double step = fmax(fmax(2.0, 0.25 * r), reach / 64.0);
    uint32_t rings = (uint32_t)floor(reach / step);
    /* Only the vessels near enough to matter are tested per candidate. */
    double near = reach + r + largest + margin;
    uint32_t n_near = 0, cap = 0;
    uint32_t* idx = NULL;
    for (uint32_t s = 0; s < w->count; s++) {
        double dx = w->v.px[s] - x, dz = w->v.pz[s] - z;
        if (dx * dx + dz * dz > near * near) continue;
        if (n_near == cap) {
            cap = cap ? 2 * cap : 64;
            uint32_t* grown = realloc(idx, cap * sizeof *idx);
            if (!grown) {
                free(idx);
                return nv_error_fail(err, NV_ENOMEM, "free water: out of memory");
            }
            idx = grown;
        }
        idx[n_near++] = s;
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
            int clear = !place_dry(w, cx, cz, r, keel, margin);
            for (uint32_t k = 0; clear && k < n_near; k++) {
                uint32_t s = idx[k];
                double need = r + w->types[w->v.type[s]].radius + margin;
                double dx = w->v.px[s] - cx, dz = w->v.pz[s] - cz;
                if (dx * dx + dz * dz < need * need) clear = 0;
            }
            for (uint32_t k = 0; clear && k < w->structure_count; k++) {
                const world_structure* st = &w->structures[k];
                double need = r + st->shape.radius + margin;
                double dx = st->position.x - cx, dz = st->position.z - cz;
                if (dx * dx + dz * dz < need * need) clear = 0;
            }
            if (clear) {
                *out_x = cx;
                *out_z = cz;
                found = 1;
            }
        }
    }
    free(idx);
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
    const world_overlap *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : (a->b > b->b);
}

static shape_pose overlap_pose(const world* w, uint32_t s) {
    quat q = {w->v.qw[s], w->v.qx[s], w->v.qy[s], w->v.qz[s]};
    shape_pose p = {&w->types[w->v.type[s]].shape, v3(w->v.px[s], w->v.py[s], w->v.pz[s]), quat_to_mat3(q), 0.0};
    return p;
}

int nv_world_find_overlaps(const world* w, world_overlap* out, uint32_t cap, uint32_t* count, nv_error* err) {
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
            vec3 d = v3(w->v.px[sb] - w->v.px[sa], w->v.py[sb] - w->v.py[sa], w->v.pz[sb] - w->v.pz[sa]);
            double dist = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
            if (dist >= ra + rb) continue;
            shape_pose pa = overlap_pose(w, sa), pb = overlap_pose(w, sb);
            double depth;
            vec3 normal, point;
            if (shape_penetration(&pa, &pb, &depth, &normal, &point) != 0) continue;
            if (n < cap) {
                uint32_t ia = w->v.id[sa], ib = w->v.id[sb];
                out[n] = (world_overlap){ia < ib ? ia : ib, ia < ib ? ib : ia, dist, depth};
            }
            n++;
        }
    }
    free(order);
    qsort(out, n < cap ? n : cap, sizeof *out, overlap_by_ids);
    *count = n;
    return 0;
}
