// SPDX-License-Identifier: MIT
/* Where the candidate pairs touch (world_pairs.h), the narrowphase: jobs
 * over the pairs of pieces, MPR (libccd) between the convex hulls swept by
 * each vessel's reach this step and the least overlap refined from it
 * (shape.c), then up to four points from the corners that face the other
 * shape; then the seams between a hull's pieces (pairs_seams). The result
 * does not depend on which thread found what. */
#include <math.h>
#include <string.h>

#include "contact.h"
#include "shape.h"
#include "world_pairs.h"

static shape_pose pairs_pose(const nv_world* w, uint32_t e, uint32_t piece) {
    if (e >= w->count) {
        const world_structure* st = &w->structures[e - w->count];
        shape_pose pose = {&st->shape, st->position, st->rotation, 0.0};
        return pose;
    }
    nv_quat q = {w->v.qw[e], w->v.qx[e], w->v.qy[e], w->v.qz[e]};
    shape_pose pose = {world_type_piece(&w->types[w->v.type[e]], piece), v3(w->v.px[e], w->v.py[e], w->v.pz[e]), quat_to_mat3(q),
                       w->sv.pair_margin[e]};
    return pose;
}

/* A candidate point of the manifold. */
typedef struct pair_candidate {
    nv_vec3 point;
    double separation;
} pair_candidate;

/* The corners of `from` that face `to` along n (within PAIR_FEATURE of
 * from's extreme), each with its gap to to's extreme plane, kept when its
 * projection on that plane lies on `to` (within the tolerance) and the gap
 * is within reach. */
static uint32_t pairs_face_points(const shape_pose* from, const shape_pose* to, nv_vec3 n, double reach,
                                  pair_candidate* out, uint32_t n_out) {
    const shape* sf = from->shape;
    double top = -INFINITY, plane = INFINITY;
    for (uint32_t k = 0; k < sf->count; k++) {
        nv_vec3 w = v3_add(from->position, m3_mul_v3(&from->rotation,
                                                  v3(sf->points[3 * k], sf->points[3 * k + 1], sf->points[3 * k + 2])));
        top = fmax(top, v3_dot(w, n));
    }
    const shape* st = to->shape;
    for (uint32_t k = 0; k < st->count; k++) {
        nv_vec3 w = v3_add(to->position,
                        m3_mul_v3(&to->rotation, v3(st->points[3 * k], st->points[3 * k + 1], st->points[3 * k + 2])));
        plane = fmin(plane, v3_dot(w, n));
    }
    for (uint32_t k = 0; k < sf->count && n_out < PAIR_CANDIDATES; k++) {
        nv_vec3 w = v3_add(from->position, m3_mul_v3(&from->rotation,
                                                  v3(sf->points[3 * k], sf->points[3 * k + 1], sf->points[3 * k + 2])));
        double h = v3_dot(w, n);
        if (h < top - PAIR_FEATURE) continue;
        double gap = plane - h;
        if (!(gap < reach)) continue;
        nv_vec3 q = v3_madd(w, n, gap);
        if (shape_outside(to, q) > PAIR_FEATURE) continue;
        out[n_out].point = v3_madd(w, n, 0.5 * gap);
        out[n_out].separation = gap;
        n_out++;
    }
    return n_out;
}

/* At most PAIR_POINTS of the candidates spanning the contact: the deepest,
 * the farthest from it, the farthest from the line of the two, and the
 * one farthest from those three. Ties go to the first: deterministic. */
static uint32_t pairs_reduce(const pair_candidate* c, uint32_t n, uint32_t* pick) {
    if (n == 0) return 0;
    uint32_t k = 0;
    pick[k] = 0;
    for (uint32_t i = 1; i < n; i++)
        if (c[i].separation < c[pick[0]].separation) pick[0] = i;
    k = 1;
    while (k < PAIR_POINTS) {
        double best = 0.01 * 0.01; /* points within a centimetre of those kept add nothing */
        uint32_t at = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++) {
            double d = INFINITY;
            for (uint32_t j = 0; j < k; j++) {
                nv_vec3 e = v3_sub(c[i].point, c[pick[j]].point);
                d = fmin(d, v3_dot(e, e));
            }
            if (k == 2) { /* the farthest from the line of the first two */
                nv_vec3 u = v3_sub(c[pick[1]].point, c[pick[0]].point), e = v3_sub(c[i].point, c[pick[0]].point);
                double uu = v3_dot(u, u);
                nv_vec3 off = uu > 0.0 ? v3_madd(e, u, -v3_dot(e, u) / uu) : e;
                d = fmin(d, v3_dot(off, off));
            }
            if (d > best) best = d, at = i;
        }
        if (at == UINT32_MAX) break;
        pick[k++] = at;
    }
    return k;
}

/* The pair's contact points along its normal (c->normal, a to b) for an
 * overlap of the swept shapes of `depth`; `point` stands for an edge
 * across an edge. */
static void pairs_manifold(world_pair* c, const shape_pose* a, const shape_pose* b, double depth, nv_vec3 point) {
    /* the swept shapes overlap by depth: the hulls' own gap is the sum of
     * the sweeps less that */
    const double reach = a->margin + b->margin;
    pair_candidate cand[PAIR_CANDIDATES];
    uint32_t n = pairs_face_points(a, b, c->normal, reach, cand, 0);
    n = pairs_face_points(b, a, v3_scale(c->normal, -1.0), reach, cand, n);
    /* An edge across an edge has no corner as deep as the overlap: the
     * narrowphase's own point stands for it (alone, or beside shallower
     * corners that would leave the depth unanswered). */
    double deepest = INFINITY;
    for (uint32_t k = 0; k < n; k++) deepest = fmin(deepest, cand[k].separation);
    if (n < PAIR_CANDIDATES && deepest > reach - depth + PAIR_SLOP) {
        cand[n].point = point;
        cand[n].separation = reach - depth;
        n++;
    }
    uint32_t pick[PAIR_POINTS];
    c->count = pairs_reduce(cand, n, pick);
    for (uint32_t k = 0; k < c->count; k++) {
        c->point[k] = cand[pick[k]].point;
        c->p[k].separation = cand[pick[k]].separation;
    }
}

/* Whether piece k of entity e meets the other shape across a face it
 * shares with another piece of its vessel (a seam, not the hull's
 * surface): its corners farthest along n (unit, world, towards the other
 * shape) all lie on a bound of its region, and the contact's point lies in
 * another of the vessel's pieces, or within the overlap of it. Such a
 * contact would push the other hull along the seam, as if the hull ended
 * there. *axis: the face's outward normal (world). */
static int pairs_across_shared(const nv_world* w, uint32_t e, uint32_t k, const shape_pose* pose, nv_vec3 n, nv_vec3 point,
                               double depth, nv_vec3* axis) {
    if (e >= w->count) return 0;
    const world_type* t = &w->types[w->v.type[e]];
    if (!t->piece_region) return 0;
    const shape_region* r = &t->piece_region[k];
    const nv_mat3* m = &pose->rotation;
    const nv_vec3 b = v3(m->m[0][0] * n.x + m->m[1][0] * n.y + m->m[2][0] * n.z,
                         m->m[0][1] * n.x + m->m[1][1] * n.y + m->m[2][1] * n.z,
                         m->m[0][2] * n.x + m->m[1][2] * n.y + m->m[2][2] * n.z);
    const shape* s = pose->shape;
    double top = -INFINITY;
    for (uint32_t i = 0; i < s->count; i++)
        top = fmax(top, b.x * s->points[3 * i] + b.y * s->points[3 * i + 1] + b.z * s->points[3 * i + 2]);
    for (int a = 0; a < 2; a++)
        for (int side = 0; side < 2; side++) {
            const double bound = side ? r->hi[a] : r->lo[a];
            const int coord = a ? 2 : 0;
            const nv_vec3 u = a ? v3(0, 0, side ? 1 : -1) : v3(side ? 1 : -1, 0, 0);
            if (!isfinite(bound) || !(v3_dot(b, u) > 0.0)) continue;
            int on_face = 1;
            for (uint32_t i = 0; i < s->count && on_face; i++) {
                const double* p = &s->points[3 * i];
                if (b.x * p[0] + b.y * p[1] + b.z * p[2] < top - PAIR_SHARED_FEATURE) continue;
                on_face = fabs(p[coord] - bound) <= PAIR_SHARED_ON_FACE;
            }
            if (!on_face) continue;
            for (uint32_t j = 0; j < t->piece_count; j++) {
                if (j == k) continue;
                shape_pose other = *pose;
                other.shape = &t->pieces[j];
                if (shape_outside(&other, point) <= fmax(depth, 0.0) + PAIR_SLOP) {
                    *axis = m3_mul_v3(m, u);
                    return 1;
                }
            }
        }
    return 0;
}

void pairs_narrow_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    for (uint32_t i = begin; i < end; i++) {
        world_pair* c = &w->pairs.pairs[i];
        c->count = 0;
        c->across_shared = 0;
        shape_pose a = pairs_pose(w, c->a, c->piece_a), b = pairs_pose(w, c->b, c->piece_b);
        double depth;
        nv_vec3 point;
        /* a pair touching last step starts from its normal then (vessels
         * of one piece each: the touching set keeps one normal a pair) */
        uint32_t was = pairs_piece_count(w, c->a) * pairs_piece_count(w, c->b) == 1
                           ? pairs_touching_index(&w->pairs, pairs_id_key(w, c))
                           : UINT32_MAX;
        nv_vec3 hint;
        if (was != UINT32_MAX) {
            hint = w->pairs.touching_normal[was];
            if (!pairs_id_lower_first(w, c)) hint = v3_scale(hint, -1.0);
        }
        if (shape_penetration_from(&a, &b, was != UINT32_MAX ? &hint : NULL, &depth, &c->normal, &point) != 0) continue;
        /* Two vessels both float: the water holds each up, so the least
         * move that parts them is across it. A steep normal (a hull
         * pressed over or under another, often two spawned inside each
         * other) would stack them; they are parted sideways instead. */
        if (c->b < w->count && fabs(c->normal.y) > PAIR_STEEP && depth - (a.margin + b.margin) > PAIR_STACKED) depth = shape_overlap_horizontal(&a, &b, &c->normal);
        if (pairs_across_shared(w, c->a, c->piece_a, &a, c->normal, point, depth, &c->shared_axis[0])) c->across_shared |= 1u;
        if (pairs_across_shared(w, c->b, c->piece_b, &b, v3_scale(c->normal, -1.0), point, depth, &c->shared_axis[1]))
            c->across_shared |= 2u;
        c->depth = depth;
        c->witness = point;
        pairs_manifold(c, &a, &b, depth, point);
    }
}

/* A pair met across a shared face with no other pair of its two vessels
 * touching (a hull's corner right on a seam): parted along the least
 * overlap that does not cross the seams' axes instead. Kept as it was
 * where that would be far deeper (a hull inside another). */
static void pairs_part_off_seams(nv_world* w, world_pair* c) {
    shape_pose a = pairs_pose(w, c->a, c->piece_a), b = pairs_pose(w, c->b, c->piece_b);
    nv_vec3 n;
    double depth;
    const nv_vec3 ea = c->shared_axis[0], eb = c->shared_axis[1];
    if (c->across_shared == 3u && fabs(v3_dot(ea, eb)) < 0.99) {
        /* both: the one line across both axes, either way */
        nv_vec3 l = v3_normalize(v3_cross(ea, eb));
        double o0 = shape_overlap_along(&a, &b, l), o1 = shape_overlap_along(&a, &b, v3_scale(l, -1.0));
        n = o0 <= o1 ? l : v3_scale(l, -1.0), depth = fmin(o0, o1);
    } else {
        nv_vec3 t[2];
        contact_tangents(c->across_shared & 1u ? ea : eb, t);
        depth = shape_overlap_in_plane(&a, &b, t[0], t[1], &n);
    }
    if (!(depth <= c->depth + PAIR_STACKED) || !isfinite(depth)) return;
    c->normal = n;
    pairs_manifold(c, &a, &b, depth, c->witness);
}

void pairs_seams(nv_world* w) {
    world_pairs* p = &w->pairs;
    for (uint32_t i = 0, end; i < p->pair_count; i = end) {
        uint32_t across = 0, surface = 0;
        for (end = i; end < p->pair_count && p->pairs[end].a == p->pairs[i].a && p->pairs[end].b == p->pairs[i].b; end++) {
            const world_pair* c = &p->pairs[end];
            if (!c->count) continue;
            if (c->across_shared) across++;
            else surface++;
        }
        if (!across) continue;
        /* the pieces met on the hull's surface hold the pair; those met at
         * a seam only stand in when none is */
        for (uint32_t k = i; k < end; k++) {
            world_pair* c = &p->pairs[k];
            if (!c->count || !c->across_shared) continue;
            if (surface) c->count = 0;
            else pairs_part_off_seams(w, c);
        }
    }
}
