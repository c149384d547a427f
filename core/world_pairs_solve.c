// SPDX-License-Identifier: MIT
/* The solve of the contacts between vessels (world_pairs.h), after the
 * narrowphase found which pairs touch and where:
 *
 *   colour      — the touching pairs in pair order, each into the first of
 *                 PAIR_COLOURS colours where neither of its moving bodies
 *                 is yet (a structure's body moves for nobody, so it never
 *                 blocks one); pairs that find none go to the overflow
 *   solve       — sequential impulses, colour after colour: each colour's
 *                 pairs share no moving body, so they run as a
 *                 parallel-for and their order inside the colour is
 *                 irrelevant; the overflow serially after them
 *                 (speculative: a gap may close and no more; Coulomb
 *                 friction), then restitution above 1 m/s, then
 *                 pseudo-velocities that move overlapping vessels apart
 *                 without touching their momentum (split impulses)
 *
 * The colours depend on the pairs alone, so the result does not depend
 * on the thread count. The response is the added-mass one the integrator
 * uses. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact.h"
#include "world_pairs.h"

#define PAIR_ITERATIONS 16u
#define PAIR_PUSH_ITERATIONS 4u
#define PAIR_BOUNCE_ITERATIONS 2u
#define PAIR_PUSH_RATE 0.8 /* of an overlap removed per step (docs/contacts.md: 0.2, 0.4, 0.6, 0.8 measured) */
#define PAIR_BOUNCE_SPEED 1.0 /* m/s: slower impacts do not bounce */
/* A colour this large goes to the job system (a pair's pass is about
 * 0.2 us: smaller ones cost more to hand out than to solve). */
#define PAIR_PARALLEL_MIN 64u

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
    /* the structures' body is shared by pairs of one colour: never written */
    const int b_moves = c->bb != p->static_body;
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
        if (b_moves) contact_apply(B, q->rb, v3_scale(n, j));
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
        if (b_moves) contact_apply(B, q->rb, jt);
    }
}

/* After the solve, points that struck faster than PAIR_BOUNCE_SPEED and
 * pushed separate at restitution x their closing speed (Box2D's order:
 * the contact first holds, then it bounces). */
static void pairs_bounce_one(world_pairs* p, world_pair* c) {
    contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    const int b_moves = c->bb != p->static_body;
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
        if (b_moves) contact_apply(B, q->rb, v3_scale(n, j));
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
        double overlap = -q->separation - PAIR_LEFT_OVERLAP;
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
        if (c->bb == p->static_body) continue;
        *vb = v3_add(*vb, m3_mul_v3(&B->inverse_mass, jn));
        *wb = v3_add(*wb, m3_mul_v3(&B->inverse_inertia, m3_mul_v3(&B->momentum_response, v3_cross(q->rb, jn))));
    }
}


/* ---- colours -------------------------------------------------------- */

/* Each touching pair's colour, in pair order, and the pairs listed by
 * colour (pair order within one), the overflow last. */
static void pairs_colour(world_pairs* p) {
    memset(p->body_colours, 0, (size_t)p->body_count * sizeof *p->body_colours);
    uint32_t size[PAIR_COLOURS + 1] = {0};
    for (uint32_t i = 0; i < p->pair_count; i++) {
        world_pair* c = &p->pairs[i];
        if (!c->count) continue;
        const int b_moves = c->bb != p->static_body;
        uint32_t used = p->body_colours[c->ba] | (b_moves ? p->body_colours[c->bb] : 0u);
        uint32_t colour = PAIR_COLOURS;
        if (~used) {
            colour = (uint32_t)__builtin_ctz(~used);
            p->body_colours[c->ba] |= 1u << colour;
            if (b_moves) p->body_colours[c->bb] |= 1u << colour;
        }
        c->colour = colour;
        size[colour]++;
    }
    p->colour_start[0] = 0;
    for (uint32_t k = 0; k <= PAIR_COLOURS; k++) p->colour_start[k + 1] = p->colour_start[k] + size[k];
    uint32_t at[PAIR_COLOURS + 1];
    memcpy(at, p->colour_start, sizeof at);
    for (uint32_t i = 0; i < p->pair_count; i++)
        if (p->pairs[i].count) p->coloured[at[p->pairs[i].colour]++] = i;
}

enum { PAIRS_STAGE_SOLVE, PAIRS_STAGE_BOUNCE, PAIRS_STAGE_PUSH };

static void pairs_stage_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    world_pairs* p = &w->pairs;
    const nv_world_contact_params* cp = &w->ground.params;
    const uint32_t* list = p->coloured + p->stage_first;
    const double inv_dt = 1.0 / w->dt;
    for (uint32_t i = begin; i < end; i++) {
        world_pair* c = &p->pairs[list[i]];
        switch (p->stage) {
        case PAIRS_STAGE_SOLVE:
            pairs_solve_one(p, c, cp->vessel_friction, inv_dt);
            break;
        case PAIRS_STAGE_BOUNCE:
            pairs_bounce_one(p, c);
            break;
        default:
            pairs_push_one(p, c, cp->push_speed, inv_dt);
            break;
        }
    }
}

/* One pass of a stage over every touching pair: colour after colour, a
 * large colour on the job system, the overflow serially last. */
static void pairs_stage_pass(nv_world* w, uint32_t stage) {
    world_pairs* p = &w->pairs;
    p->stage = stage;
    for (uint32_t k = 0; k <= PAIR_COLOURS; k++) {
        uint32_t first = p->colour_start[k], n = p->colour_start[k + 1] - first;
        if (!n) continue;
        p->stage_first = first;
        if (k < PAIR_COLOURS && n >= PAIR_PARALLEL_MIN)
            world_run(w, n, PAIR_PARALLEL_MIN / 4u, pairs_stage_job);
        else
            pairs_stage_job(w, 0, n, 0);
    }
}

int pairs_solve(nv_world* w) {
    world_pairs* p = &w->pairs;
    const nv_world_contact_params* cp = &w->ground.params;
    uint32_t touching = 0;
    for (uint32_t i = 0; i < p->pair_count; i++) touching += p->pairs[i].count > 0;
    p->body_count = 0;
    if (!touching) return 0;
    /* at most two bodies per touching pair */
    if (GROW(&p->bodies, &p->body_capacity, 2ull * touching, 256) ||
        GROW(&p->body_slot, &p->slot_capacity, 2ull * touching, 256) ||
        GROW(&p->body_colours, &p->body_colours_capacity, 2ull * touching, 256) ||
        GROW(&p->push, &p->push_capacity, 4ull * touching, 256) ||
        GROW(&p->coloured, &p->coloured_capacity, touching, 256))
        return -1;
    p->static_body = UINT32_MAX;
    for (uint32_t i = 0; i < p->pair_count; i++) {
        w->sv.pair_body[p->pairs[i].a] = UINT32_MAX; /* a < b: a is always a vessel */
        if (p->pairs[i].b < w->count) w->sv.pair_body[p->pairs[i].b] = UINT32_MAX;
    }
    for (uint32_t i = 0; i < p->pair_count; i++)
        if (p->pairs[i].count) pairs_prepare(w, &p->pairs[i], cp->restitution);
    pairs_colour(p);
    for (uint32_t it = 0; it < PAIR_ITERATIONS; it++) pairs_stage_pass(w, PAIRS_STAGE_SOLVE);
    for (uint32_t it = 0; it < PAIR_BOUNCE_ITERATIONS; it++) pairs_stage_pass(w, PAIRS_STAGE_BOUNCE);
    for (uint32_t it = 0; it < PAIR_PUSH_ITERATIONS; it++) pairs_stage_pass(w, PAIRS_STAGE_PUSH);
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
    return 0;
}
