// SPDX-License-Identifier: MIT
/* Which vessels touch, and where (world_pairs.h):
 *
 *   broadphase  — a uniform grid over the x-z extent of the vessels and
 *                 structures (cells as wide as the largest swept bounding
 *                 sphere), entities counted into cells, pairs found per
 *                 entity against its own cell and the four ahead on the
 *                 job system (counted, then written at their offsets),
 *                 radix-sorted into slot order
 *   narrowphase — jobs over pairs: MPR (libccd) between the convex hulls
 *                 swept by each vessel's reach this step, then up to four
 *                 points from the corners that face the other shape
 *
 * The result does not depend on which thread found what. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shape.h"
#include "world_pairs.h"

/* The grid's per-entry arrays grow together (doubling from 256). */
static int pairs_reserve_sorted(world_pairs* p, uint32_t n) {
    if (n <= p->sorted_capacity) return 0;
    uint32_t cap = (uint32_t)grow_capacity(p->sorted_capacity, n, 256);
    if (grow_resize((void**)&p->slots, cap, sizeof *p->slots) || grow_resize((void**)&p->cell_of, cap, sizeof *p->cell_of))
        return -1;
    p->sorted_capacity = cap;
    return 0;
}

/* ---- broadphase --------------------------------------------------------- */

/* Every vessel but a frozen one: floaters too (distant traffic must not
 * sail through itself; their surface follower keeps the horizontal
 * velocity and yaw rate the solve leaves them). */
static inline int world_pairs_takes_part(const nv_world* w, uint32_t s) { return !(w->v.flags[s] & WORLD_VESSEL_FROZEN); }

static inline uint32_t pairs_cell_of(const world_pairs* p, double x, double z) {
    uint32_t ix = (uint32_t)((x - p->min_x) * p->inv_cell), iz = (uint32_t)((z - p->min_z) * p->inv_cell);
    if (ix >= p->grid_w) ix = p->grid_w - 1; /* the far edge's rounding */
    if (iz >= p->grid_h) iz = p->grid_h - 1;
    return iz * p->grid_w + ix;
}

/* The pairs of sorted entry i with the entries after it in its cell and
 * with the cells ahead of it (+x; and -x, 0, +x one row on): every pair of
 * neighbouring cells once. Two structures never pair. Writes them to out
 * when it is not NULL. */
static uint32_t pairs_scan(const nv_world* w, uint32_t i, uint64_t* out) {
    const world_pairs* p = &w->pairs;
    const pairs_entity* ea = &p->ent[p->slots[i]];
    const uint32_t a = ea->id, cell = p->cell_of[i];
    const uint32_t ix = cell % p->grid_w, iz = cell / p->grid_w;
    const double xa = ea->x, ya = ea->y, za = ea->z, ra = ea->reach;
    const int a_static = a >= w->count;
    uint32_t n = 0;
    /* (first entry, end) of the runs to test: the rest of its own cell, then the four cells ahead */
    uint32_t runs[5][2] = {{i + 1, p->cell_start[cell + 1]}};
    uint32_t nruns = 1;
    const int32_t ahead[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    for (int k = 0; k < 4; k++) {
        int64_t jx = (int64_t)ix + ahead[k][0], jz = (int64_t)iz + ahead[k][1];
        if (jx < 0 || jx >= p->grid_w || jz >= p->grid_h) continue;
        uint32_t c = (uint32_t)jz * p->grid_w + (uint32_t)jx;
        runs[nruns][0] = p->cell_start[c], runs[nruns][1] = p->cell_start[c + 1];
        nruns++;
    }
    for (uint32_t r = 0; r < nruns; r++)
        for (uint32_t j = runs[r][0]; j < runs[r][1]; j++) {
            const pairs_entity* eb = &p->ent[p->slots[j]];
            uint32_t b = eb->id;
            if (a_static && b >= w->count) continue;
            double ex = eb->x - xa, ey = eb->y - ya, ez = eb->z - za, rr = ra + eb->reach;
            if (ex * ex + ey * ey + ez * ez >= rr * rr) continue;
            if (out) out[n] = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
            n++;
        }
    return n;
}

static void pairs_count_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    for (uint32_t i = begin; i < end; i++) w->pairs.pair_first[i] = pairs_scan(w, i, NULL);
}

static void pairs_fill_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    for (uint32_t i = begin; i < end; i++) pairs_scan(w, i, w->pairs.keys + w->pairs.pair_first[i]);
}

/* LSD radix sort of the pair keys (slot a << 32 | slot b), skipping the
 * bytes no key differs in: the pairs in slot order, whatever found them. */
static void pairs_sort_keys(world_pairs* p, uint32_t n) {
    uint64_t all_or = 0, all_and = ~0ull;
    for (uint32_t i = 0; i < n; i++) all_or |= p->keys[i], all_and &= p->keys[i];
    uint64_t differ = all_or ^ all_and;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!((differ >> shift) & 0xffu)) continue;
        uint32_t count[257] = {0};
        for (uint32_t i = 0; i < n; i++) count[((p->keys[i] >> shift) & 0xffu) + 1]++;
        for (int b = 0; b < 256; b++) count[b + 1] += count[b];
        for (uint32_t i = 0; i < n; i++) p->tmp_keys[count[(p->keys[i] >> shift) & 0xffu]++] = p->keys[i];
        uint64_t* k = p->keys;
        p->keys = p->tmp_keys, p->tmp_keys = k;
    }
}

/* A uniform grid over the entities' x-z extent, cells at least as wide as
 * the widest swept bounding sphere (widened while there would be more
 * cells than twice the entities, so a spread-out world stays small);
 * entities are counted into their cells (entity order within a cell).
 * p->ent holds the n entities taking part, in entity order
 * (pairs_broadphase); the sorted entries point into it. */
static int pairs_grid(nv_world* w, uint32_t n, double widest) {
    world_pairs* p = &w->pairs;
    const pairs_entity* ent = p->ent;
    double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
    for (uint32_t k = 0; k < n; k++) {
        x0 = fmin(x0, ent[k].x), x1 = fmax(x1, ent[k].x);
        z0 = fmin(z0, ent[k].z), z1 = fmax(z1, ent[k].z);
    }
    double cell = widest;
    double gw = floor((x1 - x0) / cell) + 1.0, gh = floor((z1 - z0) / cell) + 1.0;
    while (gw * gh > 2.0 * n + 64.0) {
        cell *= 1.25;
        gw = floor((x1 - x0) / cell) + 1.0, gh = floor((z1 - z0) / cell) + 1.0;
    }
    p->min_x = x0, p->min_z = z0, p->inv_cell = 1.0 / cell;
    p->grid_w = (uint32_t)gw, p->grid_h = (uint32_t)gh;
    uint64_t cells = (uint64_t)p->grid_w * p->grid_h;
    if (GROW(&p->cell_start, &p->cell_capacity, cells + 1, 256) ||
        pairs_reserve_sorted(p, n))
        return -1;
    memset(p->cell_start, 0, (size_t)(cells + 1) * sizeof *p->cell_start);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = pairs_cell_of(p, ent[k].x, ent[k].z);
        p->cell_of[k] = c; /* for now by entity; by sorted entry below */
        p->cell_start[c + 1]++;
    }
    for (uint64_t c = 0; c < cells; c++) p->cell_start[c + 1] += p->cell_start[c];
    /* cell_start[c] is the next free entry of c while filling; the cells
     * are read from tmp (the keys' room, free until the pairs are found) */
    uint32_t* entity_cell = (uint32_t*)p->tmp_keys;
    memcpy(entity_cell, p->cell_of, (size_t)n * sizeof *entity_cell);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = entity_cell[k], at = p->cell_start[c]++;
        p->slots[at] = k;
        p->cell_of[at] = c;
    }
    for (uint64_t c = cells; c > 0; c--) p->cell_start[c] = p->cell_start[c - 1];
    p->cell_start[0] = 0;
    return 0;
}

/* Each vessel's reach this step (2 cm plus how far its farthest point can
 * move) and swept bounding sphere; 0 for those that take no part. */
static void pairs_reach_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    for (uint32_t s = begin; s < end; s++) {
        w->sv.pair_reach[s] = 0.0f;
        if (!world_pairs_takes_part(w, s)) continue;
        const world_type* t = &w->types[w->v.type[s]];
        double speed = sqrt(w->v.vx[s] * w->v.vx[s] + w->v.vy[s] * w->v.vy[s] + w->v.vz[s] * w->v.vz[s]) +
                       sqrt(w->v.wx[s] * w->v.wx[s] + w->v.wy[s] * w->v.wy[s] + w->v.wz[s] * w->v.wz[s]) * t->radius;
        double margin = PAIR_SLOP + speed * w->dt;
        if (!isfinite(margin) || !isfinite(w->v.px[s]) || !isfinite(w->v.pz[s])) continue;
        w->sv.pair_margin[s] = (float)margin;
        w->sv.pair_reach[s] = (float)(t->shape.radius + margin);
    }
}

/* The pieces of entity e: a vessel type's, or a structure's one. */
static uint32_t pairs_piece_count(const nv_world* w, uint32_t e) {
    return e >= w->count ? 1u : w->types[w->v.type[e]].piece_count;
}

/* The pairs of pieces of the candidate (slot a << 32 | slot b) whose
 * swept spheres meet, written to out when it is not NULL: one pair, the
 * whole shapes, where both are one piece. */
static uint32_t pairs_pieces(const nv_world* w, uint64_t key, world_pair* out) {
    const uint32_t a = (uint32_t)(key >> 32), b = (uint32_t)key;
    const uint32_t na = pairs_piece_count(w, a), nb = pairs_piece_count(w, b);
    if (na * nb == 1) {
        if (out) out->a = a, out->b = b, out->piece_a = out->piece_b = 0;
        return 1;
    }
    /* each piece's sphere in the world: its centre turned with the vessel */
    nv_vec3 centre[2][WORLD_MAX_PIECES];
    double radius[2][WORLD_MAX_PIECES];
    const uint32_t e[2] = {a, b}, n[2] = {na, nb};
    for (int side = 0; side < 2; side++) {
        uint32_t s = e[side];
        if (s >= w->count) {
            centre[side][0] = w->structures[s - w->count].position;
            radius[side][0] = w->structures[s - w->count].shape.radius;
            continue;
        }
        const world_type* t = &w->types[w->v.type[s]];
        if (!t->pieces) {
            centre[side][0] = v3(w->v.px[s], w->v.py[s], w->v.pz[s]);
            radius[side][0] = t->shape.radius + w->sv.pair_margin[s];
            continue;
        }
        nv_quat q = {w->v.qw[s], w->v.qx[s], w->v.qy[s], w->v.qz[s]};
        nv_mat3 r = quat_to_mat3(q);
        for (uint32_t k = 0; k < n[side]; k++) {
            const double* sp = &t->piece_sphere[4 * k];
            centre[side][k] = v3_add(v3(w->v.px[s], w->v.py[s], w->v.pz[s]), m3_mul_v3(&r, v3(sp[0], sp[1], sp[2])));
            radius[side][k] = sp[3] + w->sv.pair_margin[s];
        }
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < na; i++)
        for (uint32_t j = 0; j < nb; j++) {
            nv_vec3 d = v3_sub(centre[1][j], centre[0][i]);
            double rr = radius[0][i] + radius[1][j];
            if (!(v3_dot(d, d) < rr * rr)) continue;
            if (out) out[count].a = a, out[count].b = b, out[count].piece_a = i, out[count].piece_b = j;
            count++;
        }
    return count;
}

int pairs_broadphase(nv_world* w) {
    world_pairs* p = &w->pairs;
    p->pair_count = 0;
    world_run(w, w->count, 1024, pairs_reach_job);
    uint64_t most = (uint64_t)w->count + w->structure_count;
    if (GROW(&p->ent, &p->ent_capacity, most, 256) ||
        GROW(&p->keys, &p->keys_capacity, most, 256) ||
        GROW(&p->tmp_keys, &p->tmp_keys_capacity, most, 256))
        return -1;
    uint32_t n = 0;
    double widest = 0.0;
    for (uint32_t s = 0; s < w->count; s++)
        if (w->sv.pair_reach[s] > 0.0f) {
            p->ent[n++] = (pairs_entity){w->v.px[s], w->v.py[s], w->v.pz[s], w->sv.pair_reach[s], s};
            widest = fmax(widest, 2.0 * w->sv.pair_reach[s]);
        }
    if (n == 0 || n + w->structure_count < 2) return 0;
    for (uint32_t k = 0; k < w->structure_count; k++) {
        const world_structure* st = &w->structures[k];
        p->ent[n++] = (pairs_entity){st->position.x, st->position.y, st->position.z, st->shape.radius, w->count + k};
        widest = fmax(widest, 2.0 * st->shape.radius);
    }
    if (pairs_grid(w, n, widest) || GROW(&p->pair_first, &p->first_capacity, n, 256))
        return -1;
    world_run(w, n, 256, pairs_count_job);
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = p->pair_first[i];
        p->pair_first[i] = (uint32_t)total;
        total += c;
    }
    if (GROW(&p->keys, &p->keys_capacity, total, 256) ||
        GROW(&p->tmp_keys, &p->tmp_keys_capacity, total, 256))
        return -1;
    world_run(w, n, 256, pairs_fill_job);
    pairs_sort_keys(p, (uint32_t)total);
    /* each pair of vessels as its pairs of pieces whose spheres meet (one
     * pair where both are one piece) */
    uint64_t pieces = 0;
    for (uint64_t k = 0; k < total; k++) pieces += pairs_pieces(w, p->keys[k], NULL);
    if (GROW(&p->pairs, &p->pair_capacity, pieces, 256)) return -1;
    uint32_t at = 0;
    for (uint64_t k = 0; k < total; k++) at += pairs_pieces(w, p->keys[k], p->pairs + at);
    p->pair_count = at;
    return 0;
}

/* ---- narrowphase -------------------------------------------------------- */

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

void pairs_narrow_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    for (uint32_t i = begin; i < end; i++) {
        world_pair* c = &w->pairs.pairs[i];
        c->count = 0;
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
        /* the swept shapes overlap by depth: the hulls' own gap is the sum
         * of the sweeps less that */
        const double reach = a.margin + b.margin;
        pair_candidate cand[PAIR_CANDIDATES];
        uint32_t n = pairs_face_points(&a, &b, c->normal, reach, cand, 0);
        n = pairs_face_points(&b, &a, v3_scale(c->normal, -1.0), reach, cand, n);
        /* An edge across an edge has no corner as deep as the overlap:
         * the narrowphase's own point stands for it (alone, or beside
         * shallower corners that would leave the depth unanswered). */
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
}
