// SPDX-License-Identifier: MIT
/* The solve of the contacts between vessels (world_pairs.h), after the
 * narrowphase found which pairs touch and where, at the poses the
 * integration pass moved the vessels to:
 *
 *   colour      — the touching pairs in pair order, each into the first of
 *                 PAIR_COLOURS colours where neither of its moving bodies
 *                 is yet (a structure's body moves for nobody, so it never
 *                 blocks one); pairs that find none go to the overflow
 *   substeps    — Catto's soft step (Box2D v3, "Solver2D"): the step is
 *                 replayed in PAIR_SUBSTEPS substeps from where the vessels
 *                 started it. Each substep adds its share of the step's
 *                 forces and starts from the impulses the last one ended
 *                 with (the first from none), solves the points with a soft
 *                 spring that pushes an overlap out (a gap may close within
 *                 the substep and no more; Coulomb friction first), moves
 *                 the bodies by their new velocities, then relaxes the
 *                 points without the spring, so that pushing out never
 *                 becomes momentum; the last relax lets a gap close only
 *                 as far as the next step will move it. Each pass runs colour after colour: a colour's
 *                 pairs share no moving body, so they are a parallel-for
 *                 and their order inside the colour is irrelevant; the
 *                 overflow runs serially after them.
 *   restitution — after the substeps, points that struck faster than
 *                 PAIR_BOUNCE_SPEED part at restitution x that speed.
 *
 * Replaying the step is what holds a vessel under sustained thrust: the
 * integration pass put a whole step of thrust into its velocity and moved
 * it by that velocity; the replay meets each substep's share of that
 * thrust before the poses move, with impulses that build up over the
 * substeps, so the thrust does not drive one hull into another. The
 * replay is linear: a body's pose is the integrated one plus what the
 * substeps changed, and a point's separation follows its bodies' shifts
 * along the normal.
 *
 * The colours depend on the pairs alone, so the result does not depend on
 * the thread count. The response is the added-mass one the integrator
 * uses; every impulse acts on both bodies, so momentum is kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact.h"
#include "world_pairs.h"

/* docs/contacts.md: 4 and 8 substeps, 1 and 2 passes each, springs of
 * 15-120 Hz and damping ratios 0.5-10 measured */
#define PAIR_SUBSTEPS 4u
#define PAIR_SUBSTEP_ITERATIONS 1u /* passes with the spring per substep */
#define PAIR_RELAX_ITERATIONS 2u   /* and without it: one leaves a face's impulse on half its points */
#define PAIR_BOUNCE_ITERATIONS 2u
#define PAIR_BOUNCE_SPEED 1.0 /* m/s: slower impacts do not bounce */
/* The overlap's spring: as stiff as a substep holds stably (Box2D keeps
 * it under a quarter of the substep rate), critically damped (Box2D's 10
 * pushes a wedge out too slowly: the overlap of a hull sliding along a
 * tapering one settles at the growth per step over the push per step). */
#define PAIR_HERTZ_PER_SUBSTEP_RATE 0.25
#define PAIR_DAMPING_RATIO 1.0
/* A colour this large goes to the job system (a pair's pass is about
 * 0.2 us: smaller ones cost more to hand out than to solve). */
#define PAIR_PARALLEL_MIN 64u
#define PAIR_MOTION 6u /* vectors per body in world_pairs.motion */

/* The solver's body of entity e (made on first use, in pair order); every
 * structure shares one body that nothing moves. */
static uint32_t pairs_body(nv_world* w, uint32_t e) {
    world_pairs* p = &w->pairs;
    if (e >= w->count) {
        if (p->static_body != UINT32_MAX) return p->static_body;
        uint32_t k = p->static_body = p->body_count++;
        memset(&p->bodies[k], 0, sizeof p->bodies[k]);
        p->body_slot[k] = UINT32_MAX;
        for (uint32_t i = 0; i < PAIR_MOTION; i++) p->motion[PAIR_MOTION * k + i] = v3(0, 0, 0);
        return k;
    }
    if (w->sv.pair_body[e] != UINT32_MAX) return w->sv.pair_body[e];
    const world_type* t = &w->types[w->v.type[e]];
    body b = world_load_body(w, e);
    /* The whole added mass, not the share the step integrated with
     * (world_added_share): a skiff on the plane meets a collision heavier
     * than it runs, but with the share the soft solve let a crowd of 120
     * overlap by 0.12 m where it holds 0.02 (test_pairs). */
    nv_vec3 added_mass = t->model ? t->model->hydro.c.added_mass : v3(0, 0, 0);
    nv_vec3 added_inertia = t->model ? t->model->hydro.c.added_inertia : v3(0, 0, 0);
    uint32_t k = p->body_count++;
    contact_body_init(&p->bodies[k], &b, added_mass, added_inertia);
    p->body_slot[k] = e;
    nv_vec3* m = &p->motion[PAIR_MOTION * k];
    m[0] = m[1] = v3(0, 0, 0);
    m[2] = p->bodies[k].velocity;
    m[3] = p->bodies[k].angular_velocity;
    /* the step's forces, a substep's share each */
    m[4] = v3_scale(w->sv.force_velocity[e], 1.0 / PAIR_SUBSTEPS);
    m[5] = v3_scale(w->sv.force_momentum[e], 1.0 / PAIR_SUBSTEPS);
    if (!v3_is_finite(m[4]) || !v3_is_finite(m[5])) m[4] = m[5] = v3(0, 0, 0);
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
        q->normal_impulse = q->substep_impulse = q->tangent_impulse[0] = q->tangent_impulse[1] = 0.0;
    }
}

/* Where body k's point r stands now against the integrated pose: the
 * substeps' shift less the part of the step still ahead (the replay). */
static nv_vec3 pairs_shift(const world_pairs* p, uint32_t k, nv_vec3 r) {
    const nv_vec3* m = &p->motion[PAIR_MOTION * k];
    nv_vec3 d = v3_madd(m[0], m[2], -p->rewind);
    nv_vec3 turn = v3_madd(m[1], m[3], -p->rewind);
    return v3_add(d, v3_cross(turn, r));
}

static void pairs_solve_one(world_pairs* p, world_pair* c, double friction, double push_speed, int use_bias) {
    contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    /* the structures' body is shared by pairs of one colour: never written */
    const int b_moves = c->bb != p->static_body;
    const contact_soft* soft = p->soft;
    nv_vec3 n = c->normal;
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        /* friction against the sliding velocity, within the cone of the
         * last pass's normal impulse: first, so that the push out is
         * the last word (friction after it twisted a skiff dragged along
         * a patrol boat back in) */
        nv_vec3 dv = v3_sub(contact_point_velocity(B, q->rb), contact_point_velocity(A, q->ra));
        double t0 = q->tangent_impulse[0] - q->tangent_mass[0] * v3_dot(dv, c->tangent[0]);
        double t1 = q->tangent_impulse[1] - q->tangent_mass[1] * v3_dot(dv, c->tangent[1]);
        contact_clamp_cone(&t0, &t1, friction * q->substep_impulse);
        nv_vec3 jt = v3_add(v3_scale(c->tangent[0], t0 - q->tangent_impulse[0]),
                         v3_scale(c->tangent[1], t1 - q->tangent_impulse[1]));
        q->tangent_impulse[0] = t0, q->tangent_impulse[1] = t1;
        contact_apply(A, q->ra, v3_scale(jt, -1.0));
        if (b_moves) contact_apply(B, q->rb, jt);
    }
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        double s = q->separation + v3_dot(v3_sub(pairs_shift(p, c->bb, q->rb), pairs_shift(p, c->ba, q->ra)), n);
        /* a gap may close this substep and no more; an overlap deeper
         * than PAIR_LEFT_OVERLAP is pushed out by the spring, capped */
        double bias = 0.0, mass_scale = 1.0, impulse_scale = 0.0;
        if (s > 0.0) {
            bias = s * p->gap_rate;
        } else if (use_bias) {
            bias = fmax(soft->bias_rate * fmin(s + PAIR_LEFT_OVERLAP, 0.0), -push_speed);
            mass_scale = soft->mass_scale;
            impulse_scale = soft->impulse_scale;
        }
        double vn = v3_dot(v3_sub(contact_point_velocity(B, q->rb), contact_point_velocity(A, q->ra)), n);
        double j = -q->normal_mass * mass_scale * (vn + bias) - impulse_scale * q->substep_impulse;
        double total = fmax(q->substep_impulse + j, 0.0);
        j = total - q->substep_impulse;
        q->substep_impulse = total;
        contact_apply(A, q->ra, v3_scale(n, -j));
        if (b_moves) contact_apply(B, q->rb, v3_scale(n, j));
    }
}

/* After the substeps, the points of a pair that held, struck faster than
 * PAIR_BOUNCE_SPEED, part at restitution x their closing speed (Box2D's
 * order: the contact first holds, then it bounces). Per pair, not per
 * point: a gap the look-ahead held is struck as much as a face that
 * touched (gating each point on its final gap left the quay's boat
 * bouncing at 0.1 m/s and the 20 m/s boxes 0.9 m apart instead of 5.8). */
static void pairs_bounce_one(world_pairs* p, world_pair* c) {
    contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
    const int b_moves = c->bb != p->static_body;
    nv_vec3 n = c->normal;
    /* a pair that held is struck at every point: how the passes spread
     * the impulse over a face's points must not decide its spin */
    double held = 0.0;
    for (uint32_t k = 0; k < c->count; k++) held += c->p[k].normal_impulse;
    if (!(held > 0.0)) return;
    for (uint32_t k = 0; k < c->count; k++) {
        pair_point* q = &c->p[k];
        if (!(q->bounce > 0.0)) continue;
        double vn = v3_dot(v3_sub(contact_point_velocity(B, q->rb), contact_point_velocity(A, q->ra)), n);
        double j = q->normal_mass * (q->bounce - vn);
        double total = fmax(q->substep_impulse + j, 0.0);
        j = total - q->substep_impulse;
        q->substep_impulse = total;
        contact_apply(A, q->ra, v3_scale(n, -j));
        if (b_moves) contact_apply(B, q->rb, v3_scale(n, j));
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

enum { PAIRS_STAGE_SOLVE, PAIRS_STAGE_RELAX, PAIRS_STAGE_BOUNCE };

static void pairs_stage_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    world_pairs* p = &w->pairs;
    const nv_world_contact_params* cp = &w->ground.params;
    const uint32_t* list = p->coloured + p->stage_first;
    for (uint32_t i = begin; i < end; i++) {
        world_pair* c = &p->pairs[list[i]];
        if (p->stage == PAIRS_STAGE_BOUNCE)
            pairs_bounce_one(p, c);
        else
            pairs_solve_one(p, c, cp->vessel_friction, cp->push_speed, p->stage == PAIRS_STAGE_SOLVE);
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

/* Each point's substep impulses into the step's; with reset, the
 * restitution starts from none. */
static void pairs_close_substep(world_pairs* p, int reset) {
    for (uint32_t i = 0; i < p->colour_start[PAIR_COLOURS + 1]; i++) {
        world_pair* c = &p->pairs[p->coloured[i]];
        for (uint32_t k = 0; k < c->count; k++) {
            pair_point* q = &c->p[k];
            q->normal_impulse += q->substep_impulse;
            if (reset) q->substep_impulse = q->tangent_impulse[0] = q->tangent_impulse[1] = 0.0;
        }
    }
}

/* A substep begins: each body takes its share of the step's forces, and
 * each point applies the impulses it ended the last substep with (Box2D's
 * warm start: the same forces want about the same impulses). */
static void pairs_begin_substep(world_pairs* p) {
    for (uint32_t k = 0; k < p->body_count; k++) {
        if (p->body_slot[k] == UINT32_MAX) continue;
        contact_body* b = &p->bodies[k];
        const nv_vec3* m = &p->motion[PAIR_MOTION * k];
        b->velocity = v3_add(b->velocity, m[4]);
        b->angular_momentum = v3_add(b->angular_momentum, m[5]);
        b->angular_velocity = v3_add(b->angular_velocity, m3_mul_v3(&b->inverse_inertia, m[5]));
    }
    for (uint32_t i = 0; i < p->colour_start[PAIR_COLOURS + 1]; i++) {
        world_pair* c = &p->pairs[p->coloured[i]];
        contact_body *A = &p->bodies[c->ba], *B = &p->bodies[c->bb];
        const int b_moves = c->bb != p->static_body;
        for (uint32_t k = 0; k < c->count; k++) {
            const pair_point* q = &c->p[k];
            nv_vec3 j = v3_add(v3_scale(c->normal, q->substep_impulse),
                               v3_add(v3_scale(c->tangent[0], q->tangent_impulse[0]), v3_scale(c->tangent[1], q->tangent_impulse[1])));
            contact_apply(A, q->ra, v3_scale(j, -1.0));
            if (b_moves) contact_apply(B, q->rb, j);
        }
    }
}

/* The bodies move through one substep at their solved velocities: what
 * differs from the integrated velocities is kept as a shift of the pose. */
static void pairs_move_bodies(world_pairs* p) {
    const double h = p->substep_dt;
    for (uint32_t k = 0; k < p->body_count; k++) {
        if (p->body_slot[k] == UINT32_MAX) continue; /* the structures' */
        nv_vec3* m = &p->motion[PAIR_MOTION * k];
        m[0] = v3_madd(m[0], v3_sub(p->bodies[k].velocity, m[2]), h);
        m[1] = v3_madd(m[1], v3_sub(p->bodies[k].angular_velocity, m[3]), h);
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
        GROW(&p->motion, &p->motion_capacity, 2ull * PAIR_MOTION * touching, 256) ||
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
    p->substep_dt = w->dt / PAIR_SUBSTEPS;
    const contact_soft soft = contact_soft_make(PAIR_HERTZ_PER_SUBSTEP_RATE / p->substep_dt, PAIR_DAMPING_RATIO, p->substep_dt);
    p->soft = &soft;
    /* the bodies start the replay with the first substep's share of the
     * step's forces */
    for (uint32_t k = 0; k < p->body_count; k++) {
        if (p->body_slot[k] == UINT32_MAX) continue;
        contact_body* b = &p->bodies[k];
        const nv_vec3* m = &p->motion[PAIR_MOTION * k];
        b->velocity = v3_sub(b->velocity, v3_scale(m[4], PAIR_SUBSTEPS - 1.0));
        b->angular_momentum = v3_sub(b->angular_momentum, v3_scale(m[5], PAIR_SUBSTEPS - 1.0));
        b->angular_velocity = v3_sub(b->angular_velocity, m3_mul_v3(&b->inverse_inertia, v3_scale(m[5], PAIR_SUBSTEPS - 1.0)));
    }
    for (uint32_t step = 0; step < PAIR_SUBSTEPS; step++) {
        if (step) pairs_begin_substep(p);
        p->rewind = (double)(PAIR_SUBSTEPS - step) * p->substep_dt;
        p->gap_rate = 1.0 / p->substep_dt;
        for (uint32_t it = 0; it < PAIR_SUBSTEP_ITERATIONS; it++) pairs_stage_pass(w, PAIRS_STAGE_SOLVE);
        pairs_move_bodies(p);
        p->rewind -= p->substep_dt;
        /* the last relax looks a whole step ahead: the next step's
         * integration will move the bodies before its contacts are found,
         * and they must find a gap closing, not an overlap (where two bows
         * cross, the least overlap's normal lies across them) */
        p->gap_rate = step + 1 < PAIR_SUBSTEPS ? 1.0 / p->substep_dt : 1.0 / w->dt;
        for (uint32_t it = 0; it < PAIR_RELAX_ITERATIONS; it++) pairs_stage_pass(w, PAIRS_STAGE_RELAX);
        pairs_close_substep(p, step + 1 == PAIR_SUBSTEPS);
    }
    for (uint32_t it = 0; it < PAIR_BOUNCE_ITERATIONS; it++) pairs_stage_pass(w, PAIRS_STAGE_BOUNCE);
    pairs_close_substep(p, 1);
    /* what the events and the vessels' overlaps report: the separations
     * at the poses the step ends in */
    p->rewind = 0.0;
    for (uint32_t i = 0; i < p->colour_start[PAIR_COLOURS + 1]; i++) {
        world_pair* c = &p->pairs[p->coloured[i]];
        for (uint32_t k = 0; k < c->count; k++) {
            pair_point* q = &c->p[k];
            q->separation += v3_dot(v3_sub(pairs_shift(p, c->bb, q->rb), pairs_shift(p, c->ba, q->ra)), c->normal);
        }
    }
    p->soft = NULL;
    for (uint32_t k = 0; k < p->body_count; k++) {
        uint32_t s = p->body_slot[k];
        if (s == UINT32_MAX) continue; /* the structures' */
        const body integrated = world_load_body(w, s);
        body b = integrated;
        contact_body_store(&p->bodies[k], &b);
        b.position = v3_add(b.position, p->motion[PAIR_MOTION * k]);
        nv_vec3 turn = p->motion[PAIR_MOTION * k + 1];
        double angle = v3_length(turn);
        if (angle > 0.0) b.orientation = quat_normalize(quat_mul(quat_from_axis_angle(turn, angle), b.orientation));
        if (!world_body_is_finite(&b)) {
            /* contained as the integration pass contains it: the last
             * finite pose, at rest, no longer simulated */
            b = integrated;
            b.velocity = b.angular_momentum = b.angular_velocity = v3(0, 0, 0);
            w->v.flags[s] |= WORLD_VESSEL_FROZEN;
        }
        world_store_body(w, s, &b);
    }
    return 0;
}
