// SPDX-License-Identifier: MIT
/* Contacts between vessels, after the integration pass:
 *
 *   broadphase and narrowphase, which pairs touch and where:
 *                 world_pairs_find.c
 *   solve       — sequential impulses over the touching pairs in pair
 *                 order (speculative: a gap may close and no more;
 *                 Coulomb friction; restitution above 1 m/s), then
 *                 pseudo-velocities that move overlapping vessels apart
 *                 without touching their momentum (split impulses)
 *
 * Every order is slot order, every sum is in pair order: the result does
 * not depend on the thread count. The response is the added-mass one the
 * integrator uses. Frozen vessels take no part; floaters do (their
 * surface follower carries on with the velocity the solve leaves). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact.h"
#include "shape.h"
#include "world_pairs.h"

#define PAIR_ITERATIONS 8u
#define PAIR_PUSH_ITERATIONS 4u
#define PAIR_BOUNCE_ITERATIONS 2u
#define PAIR_PUSH_RATE 0.4    /* of an overlap removed per step (0.2 left p99 7 cm in issue 31's crowds) */
#define PAIR_BOUNCE_SPEED 1.0 /* m/s: slower impacts do not bounce */

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
    free(p->push);
    free(p->touching);
    free(p->touching_next);
    free(p->touching_normal);
    free(p->normal_next);
    free(p->touch_sort);
    free(p->events);
    free(p->pair_first);
    memset(p, 0, sizeof *p);
}

/* ---- solve -------------------------------------------------------------- */

/* The solver's body of entity e (made on first use, in pair order); every
 * structure shares one body that nothing moves. */
static uint32_t pairs_body(nv_world* w, uint32_t e) {
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
    nv_vec3 added_mass = t->model ? t->model->hydro.c.added_mass : v3(0, 0, 0);
    nv_vec3 added_inertia = t->model ? t->model->hydro.c.added_inertia : v3(0, 0, 0);
    uint32_t k = p->body_count++;
    contact_body_init(&p->bodies[k], &b, added_mass, added_inertia);
    p->body_slot[k] = e;
    p->push[2 * k] = p->push[2 * k + 1] = v3(0, 0, 0);
    w->sv.pair_body[e] = k;
    return k;
}

static void pairs_prepare(nv_world* w, world_pair* c, double restitution) {
    world_pairs* p = &w->pairs;
    c->ba = pairs_body(w, c->a);
    c->bb = pairs_body(w, c->b);
    const contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    nv_vec3 n = c->normal;
    contact_tangents(n, c->tangent);
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        q->ra = v3_sub(c->point[k], pairs_position(w, c->a));
        q->rb = v3_sub(c->point[k], pairs_position(w, c->b));
        q->normal_mass = contact_safe_inverse(contact_response(A, q->ra, n) + contact_response(B, q->rb, n));
        for (int t = 0; t < 2; t++)
            q->tangent_mass[t] = contact_safe_inverse(contact_response(A, q->ra, c->tangent[t]) +
                                                      contact_response(B, q->rb, c->tangent[t]));
        double vn = v3_dot(v3_sub(contact_point_velocity(B, q->rb), contact_point_velocity(A, q->ra)), n);
        q->closing_speed = -vn;
        q->bounce = q->closing_speed > PAIR_BOUNCE_SPEED ? restitution * q->closing_speed : 0.0;
        q->normal_impulse = q->tangent_impulse[0] = q->tangent_impulse[1] = q->push_impulse = 0.0;
    }
}

static void pairs_solve_one(world_pairs* p, world_pair* c, double friction, double inv_dt) {
    contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    nv_vec3 n = c->normal;
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        /* normal: a gap may close this step and no more; touching, no
         * closer */
        double target = q->separation > 0.0 ? -q->separation * inv_dt : 0.0;
        double vn = v3_dot(v3_sub(contact_point_velocity(B, q->rb), contact_point_velocity(A, q->ra)), n);
        double j = q->normal_mass * (target - vn);
        double total = fmax(q->normal_impulse + j, 0.0);
        j = total - q->normal_impulse;
        q->normal_impulse = total;
        contact_apply(A, q->ra, v3_scale(n, -j));
        contact_apply(B, q->rb, v3_scale(n, j));
    }
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        /* friction against the sliding velocity, within the cone */
        nv_vec3 dv = v3_sub(contact_point_velocity(B, q->rb), contact_point_velocity(A, q->ra));
        double t0 = q->tangent_impulse[0] - q->tangent_mass[0] * v3_dot(dv, c->tangent[0]);
        double t1 = q->tangent_impulse[1] - q->tangent_mass[1] * v3_dot(dv, c->tangent[1]);
        contact_clamp_cone(&t0, &t1, friction * q->normal_impulse);
        nv_vec3 jt = v3_add(v3_scale(c->tangent[0], t0 - q->tangent_impulse[0]),
                         v3_scale(c->tangent[1], t1 - q->tangent_impulse[1]));
        q->tangent_impulse[0] = t0, q->tangent_impulse[1] = t1;
        contact_apply(A, q->ra, v3_scale(jt, -1.0));
        contact_apply(B, q->rb, jt);
    }
}

/* After the solve, points that struck faster than PAIR_BOUNCE_SPEED and
 * pushed separate at restitution x their closing speed (Box2D's order:
 * the contact first holds, then it bounces). */
static void pairs_bounce_one(world_pairs* p, world_pair* c) {
    contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    nv_vec3 n = c->normal;
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        if (!(q->bounce > 0.0) || !(q->normal_impulse > 0.0)) continue;
        double vn = v3_dot(v3_sub(contact_point_velocity(B, q->rb), contact_point_velocity(A, q->ra)), n);
        double j = q->normal_mass * (q->bounce - vn);
        double total = fmax(q->normal_impulse + j, 0.0);
        j = total - q->normal_impulse;
        q->normal_impulse = total;
        contact_apply(A, q->ra, v3_scale(n, -j));
        contact_apply(B, q->rb, v3_scale(n, j));
    }
}

/* Pseudo-velocities of the overlapping points: they move the vessels
 * apart (a fraction of the overlap per step, at most push_speed) and are
 * then forgotten, so pushing apart never becomes momentum. */
static void pairs_push_one(world_pairs* p, world_pair* c, double push_speed, double inv_dt) {
    const contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    nv_vec3 *va = &p->push[2 * c->ba], *wa = &p->push[2 * c->ba + 1];
    nv_vec3 *vb = &p->push[2 * c->bb], *wb = &p->push[2 * c->bb + 1];
    nv_vec3 n = c->normal;
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
        nv_vec3 jn = v3_scale(n, j);
        *va = v3_sub(*va, m3_mul_v3(&A->inverse_mass, jn));
        *wa = v3_sub(*wa, m3_mul_v3(&A->inverse_inertia, m3_mul_v3(&A->momentum_response, v3_cross(q->ra, jn))));
        *vb = v3_add(*vb, m3_mul_v3(&B->inverse_mass, jn));
        *wb = v3_add(*wb, m3_mul_v3(&B->inverse_inertia, m3_mul_v3(&B->momentum_response, v3_cross(q->rb, jn))));
    }
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
    for (uint32_t i = 0; i < p->pair_count; i++) {
        const world_pair* c = &p->pairs[i];
        if (!c->count) continue;
        nv_vec3 point;
        double closing, overlap, impulse = pairs_summary(c, &point, &closing, &overlap);
        if (overlap > w->v.penetration[c->a]) w->v.penetration[c->a] = (float)overlap;
        if (c->b < w->count && overlap > w->v.penetration[c->b]) w->v.penetration[c->b] = (float)overlap;
        uint64_t key = pairs_id_key(w, c);
        pairs_touch t = {key, pairs_id_lower_first(w, c) ? c->normal : v3_scale(c->normal, -1.0)};
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
        ev->normal = v3_scale(c->normal, -1.0); /* the way a is pushed */
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
    uint32_t touching = 0;
    for (uint32_t i = 0; i < p->pair_count; i++) touching += p->pairs[i].count > 0;
    /* at most two bodies per touching pair */
    if (touching && (GROW(&p->bodies, &p->body_capacity, 2ull * touching, 256) ||
                     GROW(&p->body_slot, &p->slot_capacity, 2ull * touching, 256) ||
                     GROW(&p->push, &p->push_capacity, 4ull * touching, 256)))
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
            nv_vec3 spin = p->push[2 * k + 1];
            double angle = v3_length(spin) * w->dt;
            if (angle > 0.0) b.orientation = quat_normalize(quat_mul(quat_from_axis_angle(spin, angle), b.orientation));
            world_store_body(w, s, &b);
        }
    }
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
