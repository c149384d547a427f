// SPDX-License-Identifier: MIT
/* Vessels on the ground: the water mask over dry land, and each vessel's
 * hull vertices held on the terrain by the soft contacts of contact.c,
 * solved per vessel inside the integration pass (the ground does not move,
 * so vessels never wait for each other). */
#include <math.h>
#include <stdlib.h>

#include "contact.h"
#include "naval/ranges.h"
#include "hydro.h"
#include "world_internal.h"

/* A point closer to the ground than this joins the solve even at rest: the
 * contact is there before the overlap (speculative), so a resting hull
 * does not fall in and out of contact. */
#define GROUND_SLOP 0.05
#define GROUND_ITERATIONS 8u
#define GROUND_RELAX_ITERATIONS 4u

nv_world_contact_params nv_world_contacts_default(void) {
    nv_world_contact_params p = {
        .enabled = 1,
        .ground_friction = 0.5,
        .vessel_friction = 0.3,
        .restitution = 0.2,
        .hertz = 0.0,
        .damping_ratio = 10.0,
        .push_speed = 2.0};
    return p;
}

int nv_world_set_contacts(nv_world* w, const nv_world_contact_params* p, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    const struct {
        const char* name;
        double value;
        nv_range_id range;
    } fields[] = {{"contacts.ground_friction", p->ground_friction, NV_RANGE_CONTACT_FRICTION},
                  {"contacts.vessel_friction", p->vessel_friction, NV_RANGE_CONTACT_FRICTION},
                  {"contacts.restitution", p->restitution, NV_RANGE_CONTACT_RESTITUTION},
                  {"contacts.hertz", p->hertz, NV_RANGE_CONTACT_HERTZ},
                  {"contacts.damping_ratio", p->damping_ratio, NV_RANGE_CONTACT_DAMPING_RATIO},
                  {"contacts.push_speed", p->push_speed, NV_RANGE_CONTACT_PUSH_SPEED}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (nv_range_check(fields[i].range, fields[i].value, fields[i].name, err)) return -1;
    w->ground.params = *p;
    WORLD_RECORD(w, contacts, .params = *p);
    return 0;
}

nv_world_contact_params nv_world_get_contacts(const nv_world* w) { return w->ground.params; }

void nv_world_set_terrain(nv_world* w, const nv_terrain* t) {
    WORLD_CHECK_UNLOCKED(w);
    w->ground.terrain = t;
}

const nv_terrain* nv_world_get_terrain(const nv_world* w) { return w->ground.terrain; }

const nv_world_contact_event* nv_world_contact_events(const nv_world* w, uint32_t* count) {
    *count = w->pairs.event_count;
    return w->pairs.events;
}

int world_ground_reserve(nv_world* w, uint32_t vertex_count, nv_error* err) {
    if (vertex_count <= w->ground.point_capacity) return 0;
    if (!w->ground.points && !(w->ground.points = calloc(w->threads, sizeof *w->ground.points)))
        return nv_error_fail(err, NV_ENOMEM, "world: out of memory for contact points");
    for (uint32_t i = 0; i < w->threads; i++) {
        if (grow_resize((void**)&w->ground.points[i], vertex_count, sizeof(contact_point)))
            return nv_error_fail(err, NV_ENOMEM, "world: out of memory for %u contact points", vertex_count);
    }
    w->ground.point_capacity = vertex_count;
    return 0;
}

void world_ground_free(nv_world* w) {
    if (w->ground.points)
        for (uint32_t i = 0; i < w->threads; i++) free(w->ground.points[i]);
    free(w->ground.points);
    w->ground.points = NULL;
}

int world_ground_near(const nv_world* w, const world_type* t, nv_vec3 pos, double reach) {
    if (!w->ground.terrain || !w->ground.params.enabled) return 0;
    const double r = t->radius;
    double top = nv_terrain_max_in(w->ground.terrain, pos.x - r, pos.z - r, pos.x + r, pos.z + r);
    return top > pos.y - r - reach;
}

double world_surf_limit(double mean_level, double ground) {
    return 0.5 * NV_WORLD_SURF_BREAKING * fmax(0.0, mean_level - ground);
}

void world_ground_mask(const nv_world* w, const nv_hull* h, uint32_t first, uint32_t count, nv_vec3 pos, const nv_mat3* r,
                       float* height) {
    const double mean = w->water.surface->mean_level;
    for (uint32_t k = first; k < first + count; k++) {
        nv_vec3 p = v3_add(pos, hydro_vertex_offset(h, r, k));
        const double ground = nv_terrain_elevation(w->ground.terrain, p.x, p.z);
        /* The surf: the wave over this ground kept within the breaking
         * limit's amplitude of the mean level (world_surf_limit). */
        const double limit = world_surf_limit(mean, ground), eta = p.y - (double)height[k] - mean;
        if (eta > limit) height[k] = (float)(p.y - mean - limit);
        else if (eta < -limit) height[k] = (float)(p.y - mean + limit);
        float above_ground = (float)(p.y - ground);
        /* Dry ground (above the water there): the vertex is dry, whether it
         * is above the ground or pressed into it. Above it, the height over
         * the higher of the two surfaces, so that a hull crossing the
         * shoreline feels no jump; in it, the height of the ground over the
         * water, positive. */
        if (above_ground < height[k]) height[k] = fmaxf(above_ground, height[k] - above_ground);
    }
}

/* The water as a vessel on columns sees it near the ground: none where
 * the ground rises above it (the vertex pass's rule: over dry ground
 * everything is dry, pressed into the ground or not). */
typedef struct world_dry_surface {
    nv_water_surface base;
    const nv_water_surface* water;
    const nv_terrain* ground;
} world_dry_surface;

static size_t world_dry_sample(const nv_water_surface* self, const nv_water_query* q) {
    const world_dry_surface* d = (const world_dry_surface*)self;
    size_t approximate = water_sample(d->water, q);
    const double mean = d->water->mean_level;
    for (size_t k = 0; k < q->count; k++) {
        const double elevation = nv_terrain_elevation(d->ground, q->x[k], q->z[k]);
        /* the surf (world_surf_limit): the crest or trough cut to the
         * limit, standing still there */
        const double limit = world_surf_limit(mean, elevation), eta = (double)q->height[k] - mean;
        if (fabs(eta) > limit) {
            q->height[k] = (float)(mean + copysign(limit, eta));
            if (q->normal) q->normal[3 * k] = 0.0f, q->normal[3 * k + 1] = 1.0f, q->normal[3 * k + 2] = 0.0f;
            if (q->vertical_velocity) q->vertical_velocity[k] = 0.0f;
        }
        float ground = (float)elevation;
        if (!(ground > q->height[k])) continue;
        q->height[k] = (float)TERRAIN_DEEP; /* far under any column: dry */
        if (q->normal) q->normal[3 * k] = 0.0f, q->normal[3 * k + 1] = 1.0f, q->normal[3 * k + 2] = 0.0f;
        if (q->vertical_velocity) q->vertical_velocity[k] = 0.0f;
    }
    return approximate;
}

const nv_water_surface* world_ground_water(const nv_world* w, const world_type* t, nv_vec3 pos, world_dry_surface_room* room) {
    if (!world_ground_near(w, t, pos, 0.0)) return w->water.surface;
    world_dry_surface* d = (world_dry_surface*)room;
    _Static_assert(sizeof(world_dry_surface) <= sizeof(world_dry_surface_room), "world_dry_surface_room is too small");
    d->base.sample = world_dry_sample;
    d->base.sample_near = NULL;
    d->base.breaking = NULL; /* the surf's own limit stands for breaking there */
    d->base.pressure_decay = w->water.surface->pressure_decay;
    d->base.mean_level = w->water.surface->mean_level;
    d->water = w->water.surface;
    d->ground = w->ground.terrain;
    return &d->base;
}

/* The vertices within `reach` of the ground, as contact points. */
static uint32_t world_ground_gather(const nv_world* w, const nv_hull* h, const body* b, double reach, contact_point* out) {
    const nv_mat3 r = body_rotation(b);
    uint32_t n = 0;
    for (uint32_t k = 0; k < h->vertex_count; k++) {
        nv_vec3 off = hydro_vertex_offset(h, &r, k);
        nv_vec3 p = v3_add(b->position, off);
        nv_vec3 normal;
        double ground = nv_terrain_sample(w->ground.terrain, p.x, p.z, &normal);
        /* the distance to the ground's tangent plane under the vertex */
        double separation = (p.y - ground) * normal.y;
        if (!(separation < reach)) continue;
        contact_point* c = &out[n++];
        c->r = off;
        c->normal = normal;
        c->separation = separation;
    }
    return n;
}

static void world_ground_clear(nv_world* w, uint32_t s) {
    w->v.contact_points[s] = 0;
    w->v.penetration[s] = 0.0f;
    w->v.flags[s] &= ~(uint32_t)WORLD_VESSEL_GROUNDED;
}

/* The step's contact summary: touching points, the deepest, the flag, and
 * an event when the vessel was not on the ground the step before. */
static void world_ground_record(nv_world* w, uint32_t s, const body* start, const contact_point* p, uint32_t n) {
    uint32_t touching = 0;
    double deepest = 0.0, impulse = 0.0, closing = 0.0;
    nv_vec3 point = v3(0, 0, 0), normal = v3(0, 0, 0);
    for (uint32_t k = 0; k < n; k++) {
        double j = p[k].normal_impulse;
        if (-p[k].separation > deepest) deepest = -p[k].separation;
        if (!(j > 0.0)) continue;
        touching++;
        impulse += j;
        point = v3_madd(point, v3_add(start->position, p[k].r), j);
        normal = v3_madd(normal, p[k].normal, j);
        if (p[k].closing_speed > closing) closing = p[k].closing_speed;
    }
    int was = (w->v.flags[s] & WORLD_VESSEL_GROUNDED) != 0;
    world_ground_clear(w, s);
    w->v.penetration[s] = (float)deepest;
    if (!touching) return;
    w->v.contact_points[s] = touching;
    w->v.flags[s] |= WORLD_VESSEL_GROUNDED;
    if (was) return;
    nv_world_contact_event* e = &w->sv.ground_event[s];
    e->tick = w->tick + 1;
    e->id_a = w->v.id[s];
    e->id_b = WORLD_CONTACT_GROUND;
    e->structure = 0; /* the terrain */
    e->point = v3_scale(point, 1.0 / impulse);
    e->normal = v3_normalize(normal);
    e->closing_speed = closing;
    e->impulse = impulse;
    w->sv.ground_struck[s] = 1;
}

void world_ground_integrate(nv_world* w, uint32_t s, uint32_t worker, body* b, nv_vec3 force, nv_vec3 torque) {
    const world_type* t = &w->types[w->v.type[s]];
    const double dt = w->dt;
    const nv_vec3 v0 = b->velocity, l0 = b->angular_momentum;
    body_integrate_velocity(b, force, torque, dt);
    /* the forces' part of the step, which the pair solve spreads over its
     * substeps; the ground's impulses below stay where they are */
    w->sv.force_velocity[s] = v3_sub(b->velocity, v0);
    w->sv.force_momentum[s] = v3_sub(b->angular_momentum, l0);
    /* how far any vertex may move toward the ground this step */
    double reach = GROUND_SLOP + (v3_length(b->velocity) + v3_length(b->angular_velocity) * t->radius) * dt;
    contact_point* p = w->ground.points ? w->ground.points[worker] : NULL;
    uint32_t n = 0;
    body start = *b;
    if (p && isfinite(reach) && world_ground_near(w, t, b->position, reach))
        n = world_ground_gather(w, &t->hull, b, reach, p);
    if (n == 0) {
        body_integrate_position(b, dt);
        world_ground_clear(w, s);
        return;
    }
    const nv_world_contact_params* cp = &w->ground.params;
    double hertz = cp->hertz > 0.0 ? cp->hertz : fmin(30.0, 0.25 * w->cfg.tick_hz);
    contact_soft soft = contact_soft_make(hertz, cp->damping_ratio, dt);
    contact_params params = {.friction = cp->ground_friction,
                             .hertz = hertz,
                             .damping_ratio = cp->damping_ratio,
                             .push_speed = cp->push_speed,
                             .iterations = GROUND_ITERATIONS,
                             .relax_iterations = GROUND_RELAX_ITERATIONS};
    /* the added mass the hull carries this step (dynamics_added_share): a
     * hull high and dry on the ground has none of it */
    double share = world_added_share(w, s);
    nv_vec3 added_mass = t->model ? v3_scale(t->model->hydro.c.added_mass, share) : v3(0, 0, 0);
    nv_vec3 added_inertia = t->model ? v3_scale(t->model->hydro.c.added_inertia, share) : v3(0, 0, 0);
    contact_body cb;
    contact_body_init(&cb, b, added_mass, added_inertia);
    contact_prepare(&cb, p, n);
    contact_solve_static(&cb, p, n, &params, &soft, dt, 1);
    contact_body_store(&cb, b);
    body_integrate_position(b, dt);
    /* the push-out moved the pose; the velocities keep only what holds the
     * contacts, so an overlap never becomes a bounce */
    contact_body_init(&cb, b, added_mass, added_inertia);
    contact_solve_static(&cb, p, n, &params, &soft, dt, 0);
    contact_body_store(&cb, b);
    world_ground_record(w, s, &start, p, n);
}

void world_ground_publish(nv_world* w) {
    uint32_t n = 0;
    if (w->ground.terrain)
        for (uint32_t s = 0; s < w->count; s++)
            if (w->sv.ground_struck[s]) {
                w->sv.ground_struck[s] = 0;
                if (n != s) w->sv.ground_event[n] = w->sv.ground_event[s];
                n++;
            }
    w->ground.event_count = n;
}
