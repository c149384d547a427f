// SPDX-License-Identifier: MIT
/* Contacts between vessels, after the integration pass:
 *
 *   broadphase  — a uniform grid over the fleet's x-z extent (cells as
 *                 wide as the largest swept bounding sphere), vessels
 *                 counted into cells, pairs found per vessel against its
 *                 own cell and the four ahead on the job system (counted,
 *                 then written at their offsets), radix-sorted into slot
 *                 order
 *   narrowphase — jobs over pairs: MPR (libccd) between the two types'
 *                 convex hulls swept by each vessel's reach this step
 *   solve       — sequential impulses over the touching pairs in pair
 *                 order (speculative: a gap may close and no more;
 *                 Coulomb friction; restitution above 1 m/s), then
 *                 pseudo-velocities that move overlapping vessels apart
 *                 without touching their momentum (split impulses)
 *
 * Every order is slot order, every sum is in pair order: the result does
 * not depend on the thread count. The response is the added-mass one the
 * integrator uses. Floaters and frozen vessels take no part. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact.h"
#include "shape.h"
#include "world_internal.h"

#define PAIR_SLOP 0.02 /* m: gaps this small count as touching; overlaps this small are left */
#define PAIR_ITERATIONS 8u
#define PAIR_PUSH_ITERATIONS 4u
#define PAIR_BOUNCE_ITERATIONS 2u
#define PAIR_PUSH_RATE 0.2    /* of an overlap removed per step */
#define PAIR_BOUNCE_SPEED 1.0 /* m/s: slower impacts do not bounce */

#define PAIR_POINTS 4 /* per pair: enough to hold a face flat */
#define PAIR_CANDIDATES 64
#define PAIR_FEATURE 0.1 /* m: corners this near a shape's extreme along the normal face the other */

typedef struct pair_point {
    vec3 ra, rb;       /* from each CG to the point */
    double separation; /* m along the normal; < 0 overlapping */
    double normal_mass, tangent_mass[2];
    double normal_impulse, tangent_impulse[2], push_impulse;
    double closing_speed; /* m/s before the solve, > 0 closing */
    double bounce;        /* m/s: the separating speed restitution asks for */
} pair_point;

typedef struct world_pair {
    uint32_t a, b;   /* slots, a < b */
    uint32_t count;  /* contact points; 0: apart */
    uint32_t ba, bb; /* indices into the solver's bodies */
    vec3 normal;     /* unit, from a to b */
    vec3 tangent[2];
    vec3 point[PAIR_POINTS]; /* world */
    pair_point p[PAIR_POINTS];
} world_pair;

/* Grows *p to hold n elements of `size` (doubling); -1 when out of memory. */
static int pairs_reserve(void** p, uint32_t* capacity, size_t size, uint64_t n) {
    if (n <= *capacity) return 0;
    uint64_t cap = *capacity ? *capacity : 256;
    while (cap < n) cap *= 2;
    if (cap > UINT32_MAX) return -1;
    void* q = realloc(*p, (size_t)cap * size);
    if (!q) return -1;
    *p = q;
    *capacity = (uint32_t)cap;
    return 0;
}

int nv_world_add_structure(world* w, const mesh* m, vec3 position, double heading, uint32_t* index, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (!v3_is_finite(position) || !isfinite(heading))
        return nv_error_set(err, "structure: position and heading must be finite");
    if (nv_mesh_validate_closed(m, err)) return nv_error_prefix(err, "structure");
    if (w->structure_count == w->structure_capacity) {
        uint32_t cap = w->structure_capacity ? 2 * w->structure_capacity : 8;
        world_structure* s = realloc(w->structures, cap * sizeof *s);
        if (!s) return nv_error_fail(err, NV_ENOMEM, "structure: out of memory");
        w->structures = s;
        w->structure_capacity = cap;
    }
    world_structure* st = &w->structures[w->structure_count];
    if (shape_build_points(&st->shape, m->positions, m->positions + 1, m->positions + 2, 3, m->vertex_count, err))
        return nv_error_prefix(err, "structure");
    st->position = position;
    st->heading = heading;
    st->rotation = quat_to_mat3(quat_from_axis_angle(v3(0, 1, 0), heading));
    *index = w->structure_count++;
    return 0;
}

uint32_t nv_world_structure_count(const world* w) { return w->structure_count; }

uint64_t nv_world_structure_fingerprint(const world* w, uint32_t k) {
    if (k >= w->structure_count) return 0;
    const world_structure* st = &w->structures[k];
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char* bytes[3] = {(const unsigned char*)st->shape.points, (const unsigned char*)&st->position,
                                     (const unsigned char*)&st->heading};
    const size_t sizes[3] = {(size_t)st->shape.count * 3 * sizeof(double), sizeof st->position, sizeof st->heading};
    for (int part = 0; part < 3; part++)
        for (size_t i = 0; i < sizes[part]; i++) h = (h ^ bytes[part][i]) * 0x100000001b3ull;
    return h;
}

void world_pairs_free(world* w) {
    for (uint32_t k = 0; k < w->structure_count; k++) shape_free(&w->structures[k].shape);
    free(w->structures);
    w->structures = NULL;
    w->structure_count = w->structure_capacity = 0;
    world_pairs* p = &w->pairs;
    free(p->pairs);
    free(p->keys);
    free(p->tmp_keys);
    free(p->slots);
    free(p->cell_of);
    free(p->sx);
    free(p->cell_start);
    free(p->bodies);
    free(p->body_slot);
    free(p->push);
    free(p->touching);
    free(p->touching_next);
    free(p->events);
    free(p->pair_first);
    memset(p, 0, sizeof *p);
}

/* The grid's per-entry arrays grow together. */
static int pairs_reserve_sorted(world_pairs* p, uint32_t n) {
    if (n <= p->sorted_capacity) return 0;
    uint32_t cap = p->sorted_capacity ? p->sorted_capacity : 256;
    while (cap < n) cap *= 2;
    uint32_t* slots = realloc(p->slots, (size_t)cap * sizeof *slots);
    if (slots) p->slots = slots;
    uint32_t* cell_of = realloc(p->cell_of, (size_t)cap * sizeof *cell_of);
    if (cell_of) p->cell_of = cell_of;
    double* sx = realloc(p->sx, (size_t)cap * 4 * sizeof *sx);
    if (!slots || !cell_of || !sx) {
        if (sx) p->sx = sx, p->sy = sx + cap, p->sz = sx + 2 * (size_t)cap, p->sr = sx + 3 * (size_t)cap;
        return -1;
    }
    p->sx = sx, p->sy = sx + cap, p->sz = sx + 2 * (size_t)cap, p->sr = sx + 3 * (size_t)cap;
    p->sorted_capacity = cap;
    return 0;
}

/* ---- broadphase --------------------------------------------------------- */

static inline int world_pairs_takes_part(const world* w, uint32_t s) {
    return !(w->v.flags[s] & WORLD_VESSEL_FROZEN) && w->v.model[s] != WORLD_MODEL_FLOATER;
}

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
static uint32_t pairs_scan(const world* w, uint32_t i, uint64_t* out) {
    const world_pairs* p = &w->pairs;
    const uint32_t a = p->slots[i], cell = p->cell_of[i];
    const uint32_t ix = cell % p->grid_w, iz = cell / p->grid_w;
    const double xa = p->sx[i], ya = p->sy[i], za = p->sz[i], ra = p->sr[i];
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
            uint32_t b = p->slots[j];
            if (a_static && b >= w->count) continue;
            double ex = p->sx[j] - xa, ey = p->sy[j] - ya, ez = p->sz[j] - za, rr = ra + p->sr[j];
            if (ex * ex + ey * ey + ez * ez >= rr * rr) continue;
            if (out) out[n] = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
            n++;
        }
    return n;
}

static void pairs_count_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    world* w = ctx;
    for (uint32_t i = begin; i < end; i++) w->pairs.pair_first[i] = pairs_scan(w, i, NULL);
}

static void pairs_fill_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    world* w = ctx;
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

/* The entities taking part, in entity order: vessels by slot, then the
 * structures (entity count + k). */
typedef struct pairs_entity {
    double x, y, z, reach;
} pairs_entity;

static pairs_entity pairs_entity_of(const world* w, uint32_t e) {
    if (e < w->count) {
        pairs_entity v = {w->v.px[e], w->v.py[e], w->v.pz[e], w->sv.pair_reach[e]};
        return v;
    }
    const world_structure* st = &w->structures[e - w->count];
    pairs_entity v = {st->position.x, st->position.y, st->position.z, st->shape.radius};
    return v;
}

static inline int pairs_takes_part(const world* w, uint32_t e) { return e >= w->count || w->sv.pair_reach[e] > 0.0f; }

/* A uniform grid over the entities' x-z extent, cells at least as wide as
 * the widest swept bounding sphere (widened while there would be more than
 * four cells per entity, so a spread-out world stays small); entities are
 * counted into their cells (entity order within a cell), with their
 * spheres copied alongside for the scan. */
static int pairs_grid(world* w, uint32_t n, double widest) {
    world_pairs* p = &w->pairs;
    const uint32_t entities = w->count + w->structure_count;
    double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
    for (uint32_t e = 0; e < entities; e++)
        if (pairs_takes_part(w, e)) {
            pairs_entity v = pairs_entity_of(w, e);
            x0 = fmin(x0, v.x), x1 = fmax(x1, v.x);
            z0 = fmin(z0, v.z), z1 = fmax(z1, v.z);
        }
    double cell = widest;
    double gw = floor((x1 - x0) / cell) + 1.0, gh = floor((z1 - z0) / cell) + 1.0;
    while (gw * gh > 4.0 * n + 64.0) {
        cell *= 1.5;
        gw = floor((x1 - x0) / cell) + 1.0, gh = floor((z1 - z0) / cell) + 1.0;
    }
    p->min_x = x0, p->min_z = z0, p->inv_cell = 1.0 / cell;
    p->grid_w = (uint32_t)gw, p->grid_h = (uint32_t)gh;
    uint64_t cells = (uint64_t)p->grid_w * p->grid_h;
    if (pairs_reserve((void**)&p->cell_start, &p->cell_capacity, sizeof *p->cell_start, cells + 1) ||
        pairs_reserve_sorted(p, n))
        return -1;
    memset(p->cell_start, 0, (size_t)(cells + 1) * sizeof *p->cell_start);
    for (uint32_t e = 0; e < entities; e++)
        if (pairs_takes_part(w, e)) {
            pairs_entity v = pairs_entity_of(w, e);
            p->cell_start[pairs_cell_of(p, v.x, v.z) + 1]++;
        }
    for (uint64_t c = 0; c < cells; c++) p->cell_start[c + 1] += p->cell_start[c];
    /* cell_start[c] is the next free entry of c while filling, then the first */
    for (uint32_t e = 0; e < entities; e++)
        if (pairs_takes_part(w, e)) {
            pairs_entity v = pairs_entity_of(w, e);
            uint32_t c = pairs_cell_of(p, v.x, v.z), at = p->cell_start[c]++;
            p->slots[at] = e;
            p->cell_of[at] = c;
            p->sx[at] = v.x, p->sy[at] = v.y, p->sz[at] = v.z, p->sr[at] = v.reach;
        }
    for (uint64_t c = cells; c > 0; c--) p->cell_start[c] = p->cell_start[c - 1];
    p->cell_start[0] = 0;
    return 0;
}

/* The candidate pairs, in slot order; -1 when out of memory. */
static int pairs_broadphase(world* w) {
    world_pairs* p = &w->pairs;
    uint32_t n = 0;
    double widest = 0.0;
    for (uint32_t s = 0; s < w->count; s++) {
        w->sv.pair_reach[s] = 0.0f;
        if (!world_pairs_takes_part(w, s)) continue;
        const world_type* t = &w->types[w->v.type[s]];
        double speed = sqrt(w->v.vx[s] * w->v.vx[s] + w->v.vy[s] * w->v.vy[s] + w->v.vz[s] * w->v.vz[s]) +
                       sqrt(w->v.wx[s] * w->v.wx[s] + w->v.wy[s] * w->v.wy[s] + w->v.wz[s] * w->v.wz[s]) * t->radius;
        double margin = PAIR_SLOP + speed * w->dt;
        if (!isfinite(margin) || !isfinite(w->v.px[s]) || !isfinite(w->v.pz[s])) continue;
        w->sv.pair_margin[s] = (float)margin;
        w->sv.pair_reach[s] = (float)(t->shape.radius + margin);
        widest = fmax(widest, 2.0 * w->sv.pair_reach[s]);
        n++;
    }
    for (uint32_t k = 0; k < w->structure_count; k++) widest = fmax(widest, 2.0 * w->structures[k].shape.radius);
    p->pair_count = 0;
    if (n == 0 || n + w->structure_count < 2) return 0;
    n += w->structure_count;
    if (pairs_grid(w, n, widest) || pairs_reserve((void**)&p->pair_first, &p->first_capacity, sizeof *p->pair_first, n))
        return -1;
    world_run(w, n, 256, pairs_count_job);
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = p->pair_first[i];
        p->pair_first[i] = (uint32_t)total;
        total += c;
    }
    if (pairs_reserve((void**)&p->keys, &p->keys_capacity, sizeof *p->keys, total) ||
        pairs_reserve((void**)&p->tmp_keys, &p->tmp_keys_capacity, sizeof *p->tmp_keys, total) ||
        pairs_reserve((void**)&p->pairs, &p->pair_capacity, sizeof *p->pairs, total))
        return -1;
    world_run(w, n, 256, pairs_fill_job);
    pairs_sort_keys(p, (uint32_t)total);
    for (uint32_t k = 0; k < total; k++) {
        p->pairs[k].a = (uint32_t)(p->keys[k] >> 32);
        p->pairs[k].b = (uint32_t)p->keys[k];
    }
    p->pair_count = (uint32_t)total;
    return 0;
}

/* ---- narrowphase -------------------------------------------------------- */

static shape_pose pairs_pose(const world* w, uint32_t e) {
    if (e >= w->count) {
        const world_structure* st = &w->structures[e - w->count];
        shape_pose pose = {&st->shape, st->position, st->rotation, 0.0};
        return pose;
    }
    quat q = {w->v.qw[e], w->v.qx[e], w->v.qy[e], w->v.qz[e]};
    shape_pose pose = {&w->types[w->v.type[e]].shape, v3(w->v.px[e], w->v.py[e], w->v.pz[e]), quat_to_mat3(q),
                       w->sv.pair_margin[e]};
    return pose;
}

static vec3 pairs_position(const world* w, uint32_t e) {
    return e >= w->count ? w->structures[e - w->count].position : v3(w->v.px[e], w->v.py[e], w->v.pz[e]);
}

/* A candidate point of the manifold. */
typedef struct pair_candidate {
    vec3 point;
    double separation;
} pair_candidate;

/* The corners of `from` that face `to` along n (within PAIR_FEATURE of
 * from's extreme), each with its gap to to's extreme plane, kept when its
 * projection on that plane lies on `to` (within the tolerance) and the gap
 * is within reach. */
static uint32_t pairs_face_points(const shape_pose* from, const shape_pose* to, vec3 n, double reach,
                                  pair_candidate* out, uint32_t n_out) {
    const shape* sf = from->shape;
    double top = -INFINITY, plane = INFINITY;
    for (uint32_t k = 0; k < sf->count; k++) {
        vec3 w = v3_add(from->position, m3_mul_v3(&from->rotation,
                                                  v3(sf->points[3 * k], sf->points[3 * k + 1], sf->points[3 * k + 2])));
        top = fmax(top, v3_dot(w, n));
    }
    const shape* st = to->shape;
    for (uint32_t k = 0; k < st->count; k++) {
        vec3 w = v3_add(to->position,
                        m3_mul_v3(&to->rotation, v3(st->points[3 * k], st->points[3 * k + 1], st->points[3 * k + 2])));
        plane = fmin(plane, v3_dot(w, n));
    }
    for (uint32_t k = 0; k < sf->count && n_out < PAIR_CANDIDATES; k++) {
        vec3 w = v3_add(from->position, m3_mul_v3(&from->rotation,
                                                  v3(sf->points[3 * k], sf->points[3 * k + 1], sf->points[3 * k + 2])));
        double h = v3_dot(w, n);
        if (h < top - PAIR_FEATURE) continue;
        double gap = plane - h;
        if (!(gap < reach)) continue;
        vec3 q = v3_madd(w, n, gap);
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
                vec3 e = v3_sub(c[i].point, c[pick[j]].point);
                d = fmin(d, v3_dot(e, e));
            }
            if (k == 2) { /* the farthest from the line of the first two */
                vec3 u = v3_sub(c[pick[1]].point, c[pick[0]].point), e = v3_sub(c[i].point, c[pick[0]].point);
                double uu = v3_dot(u, u);
                vec3 off = uu > 0.0 ? v3_madd(e, u, -v3_dot(e, u) / uu) : e;
                d = fmin(d, v3_dot(off, off));
            }
            if (d > best) best = d, at = i;
        }
        if (at == UINT32_MAX) break;
        pick[k++] = at;
    }
    return k;
}

static void pairs_narrow_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    world* w = ctx;
    for (uint32_t i = begin; i < end; i++) {
        world_pair* c = &w->pairs.pairs[i];
        c->count = 0;
        shape_pose a = pairs_pose(w, c->a), b = pairs_pose(w, c->b);
        double depth;
        vec3 point;
        if (shape_penetration(&a, &b, &depth, &c->normal, &point) != 0) continue;
        /* the swept shapes overlap by depth: the hulls' own gap is the sum
         * of the sweeps less that */
        const double reach = a.margin + b.margin;
        pair_candidate cand[PAIR_CANDIDATES];
        uint32_t n = pairs_face_points(&a, &b, c->normal, reach, cand, 0);
        n = pairs_face_points(&b, &a, v3_scale(c->normal, -1.0), reach, cand, n);
        if (n == 0) { /* an edge across an edge: MPR's own point */
            cand[0].point = point;
            cand[0].separation = reach - depth;
            n = 1;
        }
        uint32_t pick[PAIR_POINTS];
        c->count = pairs_reduce(cand, n, pick);
        for (uint32_t k = 0; k < c->count; k++) {
            c->point[k] = cand[pick[k]].point;
            c->p[k].separation = cand[pick[k]].separation;
        }
    }
}

/* ---- solve -------------------------------------------------------------- */

/* The solver's body of entity e (made on first use, in pair order); every
 * structure shares one body that nothing moves. */
static uint32_t pairs_body(world* w, uint32_t e) {
    world_pairs* p = &w->pairs;
    if (e >= w->count) {
        if (p->static_body != UINT32_MAX) return p->static_body;
        uint32_t k = p->static_body = p->body_count++;
        memset(&p->bodies[k], 0, sizeof p->bodies[k]);
        p->body_slot[k] = UINT32_MAX;
        p->push[2 * k] = p->push[2 * k + 1] = v3(0, 0, 0);
        return k;
    }
    if (w->sv.pair_body[e] != UINT32_MAX) return w->sv.pair_body[e];
    const world_type* t = &w->types[w->v.type[e]];
    body b = world_load_body(w, e);
    vec3 added_mass = t->model ? t->model->hydro.c.added_mass : v3(0, 0, 0);
    vec3 added_inertia = t->model ? t->model->hydro.c.added_inertia : v3(0, 0, 0);
    uint32_t k = p->body_count++;
    contact_body_init(&p->bodies[k], &b, added_mass, added_inertia);
    p->body_slot[k] = e;
    p->push[2 * k] = p->push[2 * k + 1] = v3(0, 0, 0);
    w->sv.pair_body[e] = k;
    return k;
}

static double pairs_response(const contact_body* cb, vec3 r, vec3 d) {
    vec3 dl = m3_mul_v3(&cb->momentum_response, v3_cross(r, d));
    vec3 dw = m3_mul_v3(&cb->inverse_inertia, dl);
    return v3_dot(d, v3_add(m3_mul_v3(&cb->inverse_mass, d), v3_cross(dw, r)));
}

static inline vec3 pairs_point_velocity(const contact_body* cb, vec3 r) {
    return v3_add(cb->velocity, v3_cross(cb->angular_velocity, r));
}

static void pairs_apply(contact_body* cb, vec3 r, vec3 impulse) {
    cb->velocity = v3_add(cb->velocity, m3_mul_v3(&cb->inverse_mass, impulse));
    vec3 dl = m3_mul_v3(&cb->momentum_response, v3_cross(r, impulse));
    cb->angular_momentum = v3_add(cb->angular_momentum, dl);
    cb->angular_velocity = v3_add(cb->angular_velocity, m3_mul_v3(&cb->inverse_inertia, dl));
}

static inline double pairs_inverse(double k) { return k > 1e-300 && isfinite(k) ? 1.0 / k : 0.0; }

static void pairs_prepare(world* w, world_pair* c, double restitution) {
    world_pairs* p = &w->pairs;
    c->ba = pairs_body(w, c->a);
    c->bb = pairs_body(w, c->b);
    const contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    vec3 n = c->normal;
    vec3 axis = fabs(n.x) < 0.57735 ? v3(1.0, 0.0, 0.0) : v3(0.0, 1.0, 0.0);
    c->tangent[0] = v3_normalize(v3_cross(n, axis));
    c->tangent[1] = v3_cross(n, c->tangent[0]);
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        q->ra = v3_sub(c->point[k], pairs_position(w, c->a));
        q->rb = v3_sub(c->point[k], pairs_position(w, c->b));
        q->normal_mass = pairs_inverse(pairs_response(A, q->ra, n) + pairs_response(B, q->rb, n));
        for (int t = 0; t < 2; t++)
            q->tangent_mass[t] =
                pairs_inverse(pairs_response(A, q->ra, c->tangent[t]) + pairs_response(B, q->rb, c->tangent[t]));
        double vn = v3_dot(v3_sub(pairs_point_velocity(B, q->rb), pairs_point_velocity(A, q->ra)), n);
        q->closing_speed = -vn;
        q->bounce = q->closing_speed > PAIR_BOUNCE_SPEED ? restitution * q->closing_speed : 0.0;
        q->normal_impulse = q->tangent_impulse[0] = q->tangent_impulse[1] = q->push_impulse = 0.0;
    }
}

static void pairs_solve_one(world_pairs* p, world_pair* c, double friction, double inv_dt) {
    contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    vec3 n = c->normal;
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        /* normal: a gap may close this step and no more; touching, no
         * closer */
        double target = q->separation > 0.0 ? -q->separation * inv_dt : 0.0;
        double vn = v3_dot(v3_sub(pairs_point_velocity(B, q->rb), pairs_point_velocity(A, q->ra)), n);
        double j = q->normal_mass * (target - vn);
        double total = fmax(q->normal_impulse + j, 0.0);
        j = total - q->normal_impulse;
        q->normal_impulse = total;
        pairs_apply(A, q->ra, v3_scale(n, -j));
        pairs_apply(B, q->rb, v3_scale(n, j));
    }
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        /* friction against the sliding velocity, within the cone */
        vec3 dv = v3_sub(pairs_point_velocity(B, q->rb), pairs_point_velocity(A, q->ra));
        double t0 = q->tangent_impulse[0] - q->tangent_mass[0] * v3_dot(dv, c->tangent[0]);
        double t1 = q->tangent_impulse[1] - q->tangent_mass[1] * v3_dot(dv, c->tangent[1]);
        double len = sqrt(t0 * t0 + t1 * t1), limit = friction * q->normal_impulse;
        if (len > limit) {
            double s = len > 0.0 ? limit / len : 0.0;
            t0 *= s, t1 *= s;
        }
        vec3 jt = v3_add(v3_scale(c->tangent[0], t0 - q->tangent_impulse[0]),
                         v3_scale(c->tangent[1], t1 - q->tangent_impulse[1]));
        q->tangent_impulse[0] = t0, q->tangent_impulse[1] = t1;
        pairs_apply(A, q->ra, v3_scale(jt, -1.0));
        pairs_apply(B, q->rb, jt);
    }
}

/* After the solve, points that struck faster than PAIR_BOUNCE_SPEED and
 * pushed separate at restitution x their closing speed (Box2D's order:
 * the contact first holds, then it bounces). */
static void pairs_bounce_one(world_pairs* p, world_pair* c) {
    contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    vec3 n = c->normal;
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        if (!(q->bounce > 0.0) || !(q->normal_impulse > 0.0)) continue;
        double vn = v3_dot(v3_sub(pairs_point_velocity(B, q->rb), pairs_point_velocity(A, q->ra)), n);
        double j = q->normal_mass * (q->bounce - vn);
        double total = fmax(q->normal_impulse + j, 0.0);
        j = total - q->normal_impulse;
        q->normal_impulse = total;
        pairs_apply(A, q->ra, v3_scale(n, -j));
        pairs_apply(B, q->rb, v3_scale(n, j));
    }
}

/* Pseudo-velocities of the overlapping points: they move the vessels
 * apart (a fraction of the overlap per step, at most push_speed) and are
 * then forgotten, so pushing apart never becomes momentum. */
static void pairs_push_one(world_pairs* p, world_pair* c, double push_speed, double inv_dt) {
    const contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    vec3 *va = &p->push[2 * c->ba], *wa = &p->push[2 * c->ba + 1];
    vec3 *vb = &p->push[2 * c->bb], *wb = &p->push[2 * c->bb + 1];
    vec3 n = c->normal;
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        double overlap = -q->separation - PAIR_SLOP;
        if (!(overlap > 0.0)) continue;
        double target = fmin(PAIR_PUSH_RATE * overlap * inv_dt, push_speed);
        double vn = v3_dot(v3_sub(v3_add(*vb, v3_cross(*wb, q->rb)), v3_add(*va, v3_cross(*wa, q->ra))), n);
        double j = q->normal_mass * (target - vn);
        double total = fmax(q->push_impulse + j, 0.0);
        j = total - q->push_impulse;
        q->push_impulse = total;
        vec3 jn = v3_scale(n, j);
        *va = v3_sub(*va, m3_mul_v3(&A->inverse_mass, jn));
        *wa = v3_sub(*wa, m3_mul_v3(&A->inverse_inertia, m3_mul_v3(&A->momentum_response, v3_cross(q->ra, jn))));
        *vb = v3_add(*vb, m3_mul_v3(&B->inverse_mass, jn));
        *wb = v3_add(*wb, m3_mul_v3(&B->inverse_inertia, m3_mul_v3(&B->momentum_response, v3_cross(q->rb, jn))));
    }
}

/* ---- events ------------------------------------------------------------- */

/* The pair by ids: (low << 32 | high) for two vessels; a vessel and
 * structure k as (id << 32 | UINT32_MAX - k), past any vessel id a world
 * reaches. */
static inline uint64_t pairs_id_key(const world* w, const world_pair* c) {
    uint32_t ia = w->v.id[c->a];
    if (c->b >= w->count) return (uint64_t)ia << 32 | (UINT32_MAX - (c->b - w->count));
    uint32_t ib = w->v.id[c->b];
    return ia < ib ? (uint64_t)ia << 32 | ib : (uint64_t)ib << 32 | ia;
}

static int pairs_was_touching(const world_pairs* p, uint64_t key) {
    uint32_t lo = 0, hi = p->touching_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->touching[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->touching_count && p->touching[lo] == key;
}

static int pairs_u64_compare(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

/* The pair's step: whether it pushed, its impulse, the impulse-weighted
 * point, the fastest closing point and the deepest overlap. */
static double pairs_summary(const world_pair* c, vec3* point, double* closing, double* overlap) {
    double impulse = 0.0;
    *point = v3(0, 0, 0);
    *closing = 0.0;
    *overlap = 0.0;
    for (uint32_t k = 0; k < c->count; k++) {
        const pair_point* q = &c->p[k];
        *overlap = fmax(*overlap, -q->separation);
        if (!(q->normal_impulse > 0.0)) continue;
        impulse += q->normal_impulse;
        *point = v3_madd(*point, c->point[k], q->normal_impulse);
        *closing = fmax(*closing, q->closing_speed);
    }
    if (impulse > 0.0) *point = v3_scale(*point, 1.0 / impulse);
    return impulse;
}

static void pairs_record(world* w) {
    world_pairs* p = &w->pairs;
    uint32_t touching = 0;
    for (uint32_t i = 0; i < p->pair_count; i++) touching += p->pairs[i].count > 0;
    if (pairs_reserve((void**)&p->touching_next, &p->next_capacity, sizeof *p->touching_next, touching) ||
        pairs_reserve((void**)&p->events, &p->event_capacity, sizeof *p->events,
                      (uint64_t)touching + w->ground.event_count)) {
        p->touching_count = 0;
        return;
    }
    uint32_t n = 0, e = 0;
    /* the ground's events first, in slot order */
    for (; e < w->ground.event_count; e++) p->events[e] = w->sv.ground_event[e];
    for (uint32_t i = 0; i < p->pair_count; i++) {
        const world_pair* c = &p->pairs[i];
        if (!c->count) continue;
        vec3 point;
        double closing, overlap, impulse = pairs_summary(c, &point, &closing, &overlap);
        if (overlap > w->v.penetration[c->a]) w->v.penetration[c->a] = (float)overlap;
        if (c->b < w->count && overlap > w->v.penetration[c->b]) w->v.penetration[c->b] = (float)overlap;
        if (!(impulse > 0.0)) continue;
        uint64_t key = pairs_id_key(w, c);
        p->touching_next[n++] = key;
        w->v.contact_points[c->a]++;
        if (c->b < w->count) w->v.contact_points[c->b]++;
        if (pairs_was_touching(p, key)) continue;
        world_contact_event* ev = &p->events[e++];
        ev->tick = w->tick + 1;
        ev->id_a = w->v.id[c->a];
        ev->id_b = c->b < w->count ? w->v.id[c->b] : WORLD_CONTACT_GROUND;
        ev->structure = c->b < w->count ? 0 : c->b - w->count + 1;
        ev->point = point;
        ev->normal = v3_scale(c->normal, -1.0); /* the way a is pushed */
        ev->closing_speed = closing;
        ev->impulse = impulse;
    }
    if (n) qsort(p->touching_next, n, sizeof *p->touching_next, pairs_u64_compare);
    uint64_t* t = p->touching;
    uint32_t tc = p->touching_capacity;
    p->touching = p->touching_next, p->touching_capacity = p->next_capacity;
    p->touching_next = t, p->next_capacity = tc;
    p->touching_count = n;
    p->event_count = e;
}

/* ---- the pass ----------------------------------------------------------- */

void world_pairs_step(world* w) {
    world_pairs* p = &w->pairs;
    p->event_count = 0;
    const world_contact_params* cp = &w->ground.params;
    if (!cp->enabled || pairs_broadphase(w)) p->pair_count = 0;
    world_run(w, p->pair_count, 16, pairs_narrow_job);
    uint32_t touching = 0;
    for (uint32_t i = 0; i < p->pair_count; i++) touching += p->pairs[i].count > 0;
    /* at most two bodies per touching pair */
    if (touching && (pairs_reserve((void**)&p->bodies, &p->body_capacity, sizeof *p->bodies, 2ull * touching) ||
                     pairs_reserve((void**)&p->body_slot, &p->slot_capacity, sizeof *p->body_slot, 2ull * touching) ||
                     pairs_reserve((void**)&p->push, &p->push_capacity, sizeof *p->push, 4ull * touching)))
        p->pair_count = 0, touching = 0;
    p->body_count = 0;
    if (touching) {
        p->static_body = UINT32_MAX;
        for (uint32_t i = 0; i < p->pair_count; i++) {
            w->sv.pair_body[p->pairs[i].a] = UINT32_MAX; /* a < b: a is always a vessel */
            if (p->pairs[i].b < w->count) w->sv.pair_body[p->pairs[i].b] = UINT32_MAX;
        }
        for (uint32_t i = 0; i < p->pair_count; i++)
            if (p->pairs[i].count) pairs_prepare(w, &p->pairs[i], cp->restitution);
        const double inv_dt = 1.0 / w->dt;
        for (uint32_t it = 0; it < PAIR_ITERATIONS; it++)
            for (uint32_t i = 0; i < p->pair_count; i++)
                if (p->pairs[i].count) pairs_solve_one(p, &p->pairs[i], cp->vessel_friction, inv_dt);
        for (uint32_t it = 0; it < PAIR_BOUNCE_ITERATIONS; it++)
            for (uint32_t i = 0; i < p->pair_count; i++)
                if (p->pairs[i].count) pairs_bounce_one(p, &p->pairs[i]);
        for (uint32_t it = 0; it < PAIR_PUSH_ITERATIONS; it++)
            for (uint32_t i = 0; i < p->pair_count; i++)
                if (p->pairs[i].count) pairs_push_one(p, &p->pairs[i], cp->push_speed, inv_dt);
        for (uint32_t k = 0; k < p->body_count; k++) {
            uint32_t s = p->body_slot[k];
            if (s == UINT32_MAX) continue; /* the structures' */
            body b = world_load_body(w, s);
            contact_body_store(&p->bodies[k], &b);
            b.position = v3_madd(b.position, p->push[2 * k], w->dt);
            vec3 spin = p->push[2 * k + 1];
            double angle = v3_length(spin) * w->dt;
            if (angle > 0.0) b.orientation = quat_normalize(quat_mul(quat_from_axis_angle(spin, angle), b.orientation));
            world_store_body(w, s, &b);
        }
    }
    pairs_record(w);
}
