// SPDX-License-Identifier: MIT
/* Contacts between vessels, after the integration pass:
 *
 *   broadphase  — which pairs may touch: world_pairs_broad.c
 *   narrowphase — where they touch: world_pairs_narrow.c
 *   solve       — world_pairs_solve.c
 *   events      — here: new contacts, the touching set and its normals,
 *                 each vessel's contact points and deepest overlap
 *   structures  — here: fixed convex shapes vessels meet
 *
 * Every order is slot order, every sum is in pair order: the result does
 * not depend on the thread count. Frozen vessels take no part; floaters
 * do (their surface follower carries on with the velocity the solve
 * leaves). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact.h"
#include "shape.h"
#include "world_pairs.h"

int nv_world_add_structure(nv_world* w, const nv_mesh* m, nv_vec3 position, double heading, uint32_t* index, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (!v3_is_finite(position) || !isfinite(heading))
        return nv_error_set(err, "structure: position and heading must be finite");
    if (nv_mesh_validate_closed(m, err)) return nv_error_prefix(err, "structure");
    if (GROW(&w->structures, &w->structure_capacity, w->structure_count + 1, 8))
        return nv_error_fail(err, NV_ENOMEM, "structure: out of memory");
    world_structure* st = &w->structures[w->structure_count];
    if (shape_build_points(&st->shape, m->positions, m->positions + 1, m->positions + 2, 3, m->vertex_count, err))
        return nv_error_prefix(err, "structure");
    st->position = position;
    st->heading = heading;
    st->rotation = quat_to_mat3(quat_from_axis_angle(v3(0, 1, 0), heading));
    *index = w->structure_count++;
    return 0;
}

uint32_t nv_world_structure_count(const nv_world* w) { return w->structure_count; }

uint64_t nv_world_structure_fingerprint(const nv_world* w, uint32_t k) {
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

int nv_world_structure_shape_get(const nv_world* w, uint32_t k, nv_world_structure_shape* out) {
    if (k >= w->structure_count) return -1;
    const world_structure* st = &w->structures[k];
    *out = (nv_world_structure_shape){st->position,       st->rotation,           st->shape.points,
                                      st->shape.count,    st->shape.triangles,    st->shape.triangle_count};
    return 0;
}

void world_pairs_free(nv_world* w) {
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
    free(p->ent);
    free(p->cell_start);
    free(p->bodies);
    free(p->body_slot);
    free(p->motion);
    free(p->body_colours);
    free(p->coloured);
    free(p->touching);
    free(p->touching_next);
    free(p->touching_normal);
    free(p->normal_next);
    free(p->touch_sort);
    free(p->events);
    free(p->blocks);
    keysort_free(&p->sort);
    memset(p, 0, sizeof *p);
}

/* ---- events ------------------------------------------------------------- */

/* The key's index in the touching set, or UINT32_MAX. */
uint32_t pairs_touching_index(const world_pairs* p, uint64_t key) {
    uint32_t lo = 0, hi = p->touching_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->touching[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->touching_count && p->touching[lo] == key ? lo : UINT32_MAX;
}

static int pairs_was_touching(const world_pairs* p, uint64_t key) { return pairs_touching_index(p, key) != UINT32_MAX; }

typedef struct pairs_touch {
    uint64_t key;
    nv_vec3 normal; /* lower id to higher */
} pairs_touch;

static int pairs_touch_compare(const void* a, const void* b) {
    uint64_t x = ((const pairs_touch*)a)->key, y = ((const pairs_touch*)b)->key;
    return x < y ? -1 : x > y;
}

/* The pair's step: whether it pushed, its impulse, the impulse-weighted
 * point, the fastest closing point and the deepest overlap (< 0: the
 * narrowest gap). */
static double pairs_summary(const world_pair* c, nv_vec3* point, double* closing, double* overlap) {
    double impulse = 0.0;
    *point = v3(0, 0, 0);
    *closing = 0.0;
    *overlap = -INFINITY;
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

static void pairs_record(nv_world* w) {
    world_pairs* p = &w->pairs;
    uint32_t touching = 0;
    for (uint32_t i = 0; i < p->pair_count; i++) touching += p->pairs[i].count > 0;
    /* The tables double from 256 entries. */
    if (GROW(&p->touching_next, &p->next_capacity, touching, 256) ||
        GROW(&p->normal_next, &p->normal_next_capacity, touching, 256) ||
        GROW(&p->touch_sort, &p->touch_sort_capacity, touching, 256) ||
        GROW(&p->events, &p->event_capacity, (size_t)touching + w->ground.event_count, 256)) {
        p->touching_count = 0;
        return;
    }
    uint32_t n = 0, e = 0;
    /* the ground's events first, in slot order */
    for (; e < w->ground.event_count; e++) p->events[e] = w->sv.ground_event[e];
    for (uint32_t i = 0, end; i < p->pair_count; i = end) {
        /* a pair of vessels is one contact however many of their pieces
         * touch: its entries are consecutive */
        for (end = i + 1; end < p->pair_count && p->pairs[end].a == p->pairs[i].a && p->pairs[end].b == p->pairs[i].b;)
            end++;
        const world_pair* c = NULL;
        nv_vec3 point = v3(0, 0, 0), normal = v3(0, 0, 0);
        double closing = 0.0, overlap = -INFINITY, impulse = 0.0, strongest = -1.0;
        uint32_t pieces = 0;
        for (uint32_t k = i; k < end; k++) {
            const world_pair* ck = &p->pairs[k];
            if (!ck->count) continue;
            nv_vec3 pk;
            double ck_closing, ck_overlap, ck_impulse = pairs_summary(ck, &pk, &ck_closing, &ck_overlap);
            if (!pieces++) {
                c = ck, point = pk, closing = ck_closing, overlap = ck_overlap, impulse = ck_impulse;
                normal = ck->normal, strongest = ck_impulse;
                continue;
            }
            /* several pieces: the points weighted by impulse, the normal
             * of the strongest */
            point = v3_add(v3_scale(point, impulse), v3_scale(pk, ck_impulse));
            impulse += ck_impulse;
            point = impulse > 0.0 ? v3_scale(point, 1.0 / impulse) : pk;
            closing = fmax(closing, ck_closing), overlap = fmax(overlap, ck_overlap);
            if (ck_impulse > strongest) normal = ck->normal, strongest = ck_impulse;
        }
        if (!c) continue;
        if (overlap > w->v.penetration[c->a]) w->v.penetration[c->a] = (float)overlap;
        if (c->b < w->count && overlap > w->v.penetration[c->b]) w->v.penetration[c->b] = (float)overlap;
        uint64_t key = pairs_id_key(w, c);
        pairs_touch t = {key, pairs_id_lower_first(w, c) ? normal : v3_scale(normal, -1.0)};
        if (!(impulse > 0.0)) {
            /* a contact sliding along a hull is pushed apart and closes
             * again: it goes on until the hulls part by PAIR_PARTED */
            if (overlap > -PAIR_PARTED && pairs_was_touching(p, key)) p->touch_sort[n++] = t;
            continue;
        }
        p->touch_sort[n++] = t;
        w->v.contact_points[c->a]++;
        if (c->b < w->count) w->v.contact_points[c->b]++;
        if (pairs_was_touching(p, key)) continue;
        nv_world_contact_event* ev = &p->events[e++];
        ev->tick = w->tick + 1;
        ev->id_a = w->v.id[c->a];
        ev->id_b = c->b < w->count ? w->v.id[c->b] : WORLD_CONTACT_GROUND;
        ev->structure = c->b < w->count ? 0 : c->b - w->count + 1;
        ev->point = point;
        ev->normal = v3_scale(normal, -1.0); /* the way a is pushed */
        ev->closing_speed = closing;
        ev->impulse = impulse;
    }
    if (n) qsort(p->touch_sort, n, sizeof *p->touch_sort, pairs_touch_compare);
    for (uint32_t i = 0; i < n; i++) p->touching_next[i] = p->touch_sort[i].key, p->normal_next[i] = p->touch_sort[i].normal;
    uint64_t* t = p->touching;
    uint32_t tc = p->touching_capacity;
    p->touching = p->touching_next, p->touching_capacity = p->next_capacity;
    p->touching_next = t, p->next_capacity = tc;
    nv_vec3* tn = p->touching_normal;
    uint32_t nc = p->normal_capacity;
    p->touching_normal = p->normal_next, p->normal_capacity = p->normal_next_capacity;
    p->normal_next = tn, p->normal_next_capacity = nc;
    p->touching_count = n;
    p->event_count = e;
}

/* ---- the pass ----------------------------------------------------------- */

void world_pairs_step(nv_world* w) {
    world_pairs* p = &w->pairs;
    p->event_count = 0;
    const nv_world_contact_params* cp = &w->ground.params;
    if (!cp->enabled || pairs_broadphase(w)) p->pair_count = 0;
    world_run(w, p->pair_count, 16, pairs_narrow_job);
    pairs_seams(w);
    if (pairs_solve(w)) p->pair_count = 0; /* out of memory: no contact this step */
    pairs_record(w);
}

const uint64_t* world_pairs_touching(const nv_world* w, uint32_t* count) {
    *count = w->pairs.touching_count;
    return w->pairs.touching;
}

const nv_vec3* world_pairs_touching_normals(const nv_world* w) { return w->pairs.touching_normal; }

int world_pairs_set_touching(nv_world* w, const uint64_t* keys, const nv_vec3* normals, uint32_t count) {
    world_pairs* p = &w->pairs;
    if (GROW(&p->touching, &p->touching_capacity, count ? count : 1, 256) ||
        GROW(&p->touching_normal, &p->normal_capacity, count ? count : 1, 256))
        return -1;
    if (count) memcpy(p->touching, keys, count * sizeof *keys);
    if (count) memcpy(p->touching_normal, normals, count * sizeof *normals);
    p->touching_count = count;
    return 0;
}
