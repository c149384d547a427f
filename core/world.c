// SPDX-License-Identifier: MIT
#include "naval/world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hydrodyn_lanes.h"
#include "naval/ranges.h"
#include "naval/statics.h"
#include "world_internal.h"

nv_world_config nv_world_config_default(void) {
    nv_world_config c = {
        .tick_hz = 60.0,
        .water_density = 1025.0,
        .gravity = 9.81,
        .linear_damping = 0.0,
        .angular_damping = 0.0,
        .vertex_block = 1024,
        .triangle_block = 2048,
    };
    return c;
}

/* ---- storage ---------------------------------------------------------- */

int world_reserve_vessels(nv_world* w, uint32_t need, nv_error* err) {
    if (need <= w->capacity) return 0;
    if (need > WORLD_MAX_VESSELS) return nv_error_fail(err, NV_ELIMIT, "world: at most %u vessels", WORLD_MAX_VESSELS);
    uint32_t cap = (uint32_t)grow_capacity(w->capacity, need, 64);
    int bad = 0;
#define X(type, f) bad |= grow_resize((void**)&w->v.f, cap, sizeof(type));
    WORLD_VESSEL_FIELDS(X)
#undef X
#define X(type, f) bad |= grow_resize((void**)&w->sv.f, cap, sizeof(type));
    WORLD_SCRATCH_FIELDS(X)
#undef X
    if (bad) return nv_error_fail(err, NV_ENOMEM, "world: out of memory for %u vessels", cap);
    w->capacity = cap;
    return 0;
}

static void world_move_slot(nv_world* w, uint32_t to, uint32_t from) {
#define X(type, f) w->v.f[to] = w->v.f[from];
    WORLD_VESSEL_FIELDS(X)
#undef X
}

int nv_world_create(nv_world** out, const nv_world_config* cfg, nv_jobs* pool, nv_error* err) {
    *out = NULL;
    if (nv_range_check(NV_RANGE_WORLD_TICK_HZ, cfg->tick_hz, "world: tick_hz", err) ||
        nv_range_check(NV_RANGE_WORLD_WATER_DENSITY, cfg->water_density, "world: water_density", err) ||
        nv_range_check(NV_RANGE_WORLD_GRAVITY, cfg->gravity, "world: gravity", err) ||
        nv_range_check(NV_RANGE_WORLD_LINEAR_DAMPING, cfg->linear_damping, "world: linear_damping", err) ||
        nv_range_check(NV_RANGE_WORLD_ANGULAR_DAMPING, cfg->angular_damping, "world: angular_damping", err))
        return -1;
    if (cfg->vertex_block < 16 || cfg->triangle_block < 16)
        return nv_error_set(err, "world: vertex_block and triangle_block must be at least 16");
    if (cfg->triangle_block % HYDRODYN_LANES)
        return nv_error_set(err, "world: triangle_block must be a multiple of %d (got %u)", HYDRODYN_LANES,
                            cfg->triangle_block);
    nv_world* w = calloc(1, sizeof *w);
    if (!w) return nv_error_fail(err, NV_ENOMEM, "world: out of memory");
    w->cfg = *cfg;
    w->dt = 1.0 / cfg->tick_hz;
    w->pool = pool;
    w->ids.free_head = UINT32_MAX;
    w->threads = pool ? nv_jobs_thread_count(pool) : 1;
    nv_water_flat_init(&w->flat, 0.0);
    w->water.surface = &w->flat.base;
    w->lod = nv_world_lod_default();
    w->ground.params = nv_world_contacts_default();
    w->types = calloc(WORLD_MAX_HULL_TYPES, sizeof *w->types);
    w->scratch = calloc(w->threads, sizeof *w->scratch);
    w->worker_ms = calloc(w->threads, sizeof *w->worker_ms);
    if (!w->types || !w->scratch || !w->worker_ms) {
        nv_world_destroy(w);
        return nv_error_fail(err, NV_ENOMEM, "world: out of memory");
    }
    for (uint32_t i = 0; i < w->threads; i++)
        if (hydro_scratch_alloc(&w->scratch[i], cfg->vertex_block, err)) {
            nv_world_destroy(w);
            return -1;
        }
    if (world_lod_alloc(w, err)) {
        nv_world_destroy(w);
        return -1;
    }
    *out = w;
    return 0;
}

#ifndef NDEBUG
void world_check_unlocked(const nv_world* w, const char* function) {
    if (!w || !w->locked) return;
    fprintf(stderr, "naval: %s called inside nv_world_step: the world may change between steps only\n", function);
    abort();
}
#endif

static void world_type_pieces_free(world_type* t);

void nv_world_destroy(nv_world* w) {
    WORLD_CHECK_UNLOCKED(w);
    if (!w) return;
    world_lod_free(w);
    world_ground_free(w);
    world_lines_free(w);
    world_pairs_free(w);
    world_damage_free(w);
    if (w->types)
        for (uint32_t i = 0; i < w->type_count; i++) {
            shape_free(&w->types[i].shape);
            world_type_pieces_free(&w->types[i]);
            nv_hull_destroy(&w->types[i].hull);
            dynamics_model_release(w->types[i].model);
            free(w->types[i].model);
            nv_compartment_set_free(w->types[i].compartments);
            free(w->types[i].compartments);
        }
    if (w->v.slam)
        for (uint32_t s = 0; s < w->count; s++) free(w->v.slam[s]);
    if (w->v.flood)
        for (uint32_t s = 0; s < w->count; s++) free(w->v.flood[s]);
    free(w->types);
    if (w->scratch)
        for (uint32_t i = 0; i < w->threads; i++) hydro_scratch_free(&w->scratch[i]);
    free(w->scratch);
#define X(type, f) free(w->v.f);
    WORLD_VESSEL_FIELDS(X)
#undef X
#define X(type, f) free(w->sv.f);
    WORLD_SCRATCH_FIELDS(X)
#undef X
    world_ids_free(&w->ids);
    free(w->heights);
    free(w->worker_ms);
    free(w->vertex_blocks);
    free(w->tri_blocks);
    free(w->tri_sums);
    free(w);
}

void nv_world_set_water(nv_world* w, const nv_world_water* water) {
    WORLD_CHECK_UNLOCKED(w);
    if (water && water->surface)
        w->water = *water;
    else {
        w->water.surface = &w->flat.base;
        w->water.update = NULL;
        w->water.ctx = NULL;
    }
}

/* ---- hull types ------------------------------------------------------- */

static void world_type_pieces_free(world_type* t) {
    for (uint32_t k = 0; t->pieces && k < t->piece_count; k++) shape_free(&t->pieces[k]);
    free(t->pieces);
    free(t->piece_sphere);
    free(t->piece_region);
    t->pieces = NULL;
    t->piece_sphere = NULL;
    t->piece_region = NULL;
    t->piece_count = 1;
}

/* The collision pieces of a hull of several parts or a hollow one, each
 * with a sphere around its corners (the centre of their box, the
 * farthest corner). */
static int world_type_pieces_build(world_type* t, nv_error* err) {
    t->piece_sphere = NULL;
    double z0 = INFINITY, z1 = -INFINITY;
    for (uint32_t k = 0; k < t->hull.vertex_count; k++) z0 = fmin(z0, t->hull.vz[k]), z1 = fmax(z1, t->hull.vz[k]);
    double tolerance = fmax(WORLD_PIECE_HOLLOW, WORLD_PIECE_HOLLOW_BEAM * (z1 - z0));
    if (shape_build_pieces(&t->pieces, &t->piece_region, &t->piece_count, &t->hull, WORLD_MAX_PIECES, tolerance, err)) {
        t->piece_count = 1;
        return -1;
    }
    if (!t->pieces) return 0;
    if (!(t->piece_sphere = malloc((size_t)t->piece_count * 4 * sizeof *t->piece_sphere))) {
        world_type_pieces_free(t);
        return nv_error_fail(err, NV_ENOMEM, "world: out of memory for the collision pieces");
    }
    for (uint32_t k = 0; k < t->piece_count; k++) {
        const shape* s = &t->pieces[k];
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t i = 0; i < s->count; i++)
            for (int a = 0; a < 3; a++) lo[a] = fmin(lo[a], s->points[3 * i + a]), hi[a] = fmax(hi[a], s->points[3 * i + a]);
        double* sp = &t->piece_sphere[4 * k];
        for (int a = 0; a < 3; a++) sp[a] = 0.5 * (lo[a] + hi[a]);
        sp[3] = 0.0;
        for (uint32_t i = 0; i < s->count; i++) {
            double dx = s->points[3 * i] - sp[0], dy = s->points[3 * i + 1] - sp[1], dz = s->points[3 * i + 2] - sp[2];
            sp[3] = fmax(sp[3], sqrt(dx * dx + dy * dy + dz * dz));
        }
    }
    return 0;
}

int nv_world_add_hull_type(nv_world* w, const char* name, const nv_mesh* m, const nv_mass_spec* spec, uint32_t* type_out,
                           nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (w->type_count >= WORLD_MAX_HULL_TYPES)
        return nv_error_fail(err, NV_ELIMIT, "world: at most %u hull types", WORLD_MAX_HULL_TYPES);
    if (!name || !name[0] || strlen(name) >= WORLD_NAME_MAX)
        return nv_error_set(err, "world: a hull type needs a name of 1..%d characters", WORLD_NAME_MAX - 1);
    if (nv_world_find_hull_type(w, name) >= 0) return nv_error_set(err, "world: hull type '%s' exists already", name);
    world_type* t = &w->types[w->type_count];
    if (nv_hull_create(&t->hull, m, spec, err)) return nv_error_prefix(err, "hull type '%s'", name);
    if (body_init(&t->body_template, t->hull.body.mass, &t->hull.body.inertia, err) ||
        world_ground_reserve(w, t->hull.vertex_count, err) || shape_build(&t->shape, &t->hull, err)) {
        nv_hull_destroy(&t->hull);
        return nv_error_prefix(err, "hull type '%s'", name);
    }
    if (world_type_pieces_build(t, err)) {
        shape_free(&t->shape);
        nv_hull_destroy(&t->hull);
        return nv_error_prefix(err, "hull type '%s'", name);
    }
    t->radius = 0.0;
    for (uint32_t k = 0; k < t->hull.vertex_count; k++) {
        double x = t->hull.vx[k], y = t->hull.vy[k], z = t->hull.vz[k];
        t->radius = fmax(t->radius, sqrt(x * x + y * y + z * z));
    }
    strcpy(t->name, name);
    t->dynamics.coeffs = nv_hydrodyn_coeffs_none();
    t->dynamics.coeffs.water_density = w->cfg.water_density;
    nv_actuator_set_init(&t->dynamics.actuators);
    t->model = NULL;
    t->columns = NULL;
    *type_out = w->type_count++;
    world_lod_prepare_type(w, *type_out);
    return 0;
}

uint32_t nv_world_hull_type_count(const nv_world* w) { return w->type_count; }
const nv_hull* nv_world_hull_type(const nv_world* w, uint32_t type) {
    return type < w->type_count ? &w->types[type].hull : NULL;
}
const char* nv_world_hull_type_name(const nv_world* w, uint32_t type) {
    return type < w->type_count ? w->types[type].name : NULL;
}

int nv_world_find_hull_type(const nv_world* w, const char* name) {
    for (uint32_t i = 0; i < w->type_count; i++)
        if (strcmp(w->types[i].name, name) == 0) return (int)i;
    return -1;
}

/* ---- ids and handles (world_internal.h, world_ids) -------------------- */

void world_ids_free(world_ids* t) {
    free(t->entries);
    idmap_free(&t->map);
    memset(t, 0, sizeof *t);
    t->free_head = UINT32_MAX;
}

int world_ids_reserve(nv_world* w, nv_error* err) {
    world_ids* t = &w->ids;
    if (t->free_head == UINT32_MAX &&
        GROW(&t->entries, &t->entry_capacity, (size_t)t->entry_count + 1, WORLD_IDS_MIN_ENTRIES))
        return nv_error_fail(err, NV_ENOMEM, "out of memory for %u vessel handles", t->entry_count + 1);
    if (idmap_reserve(&t->map, t->map.count + 1))
        return nv_error_fail(err, NV_ENOMEM, "out of memory for the id map (%u ids)", t->map.count + 1);
    return 0;
}

void world_bind_id(nv_world* w, uint32_t id, uint32_t slot) {
    world_ids* t = &w->ids;
    uint32_t h;
    if (t->free_head != UINT32_MAX) {
        h = t->free_head;
        t->free_head = t->entries[h].slot;
        t->entries[h].generation++; /* even (free) -> odd (in use) */
    } else {
        h = t->entry_count++;
        t->entries[h].generation = 1;
    }
    t->entries[h].slot = slot;
    (void)idmap_put(&t->map, id, h); /* cannot fail after world_ids_reserve */
    w->v.handle[slot] = h;
}

void world_unbind_slot(nv_world* w, uint32_t slot) {
    world_ids* t = &w->ids;
    uint32_t id = w->v.id[slot], h = w->v.handle[slot];
    t->entries[h].generation++; /* odd -> even: every handle to it is stale now */
    t->entries[h].slot = t->free_head;
    t->free_head = h;
    (void)idmap_remove(&t->map, id); /* shrinks with the fleet */
}

/* ---- vessels ---------------------------------------------------------- */


static uint32_t world_blocks_of(uint32_t n, uint32_t block) { return n == 0 ? 0 : (n + block - 1) / block; }

/* Heights and vertex blocks a vessel of `h` needs: none for a small hull
 * (world_hull_fuses). */
static uint32_t world_heights_of(const nv_world* w, const nv_hull* h) { return world_hull_fuses(w, h) ? 0 : h->vertex_count; }
static uint32_t world_vertex_blocks_of(const nv_world* w, const nv_hull* h) {
    return world_hull_fuses(w, h) ? 0 : world_blocks_of(h->vertex_count, w->cfg.vertex_block);
}

/* Room in the per-vertex and per-block tables for one more vessel of `h`. */
int world_reserve_for(nv_world* w, const nv_hull* h, nv_error* err) {
    uint64_t heights = w->need_heights + world_heights_of(w, h);
    uint64_t vblocks = w->need_vertex_blocks + world_vertex_blocks_of(w, h);
    uint64_t tblocks = w->need_tri_blocks + world_blocks_of(h->triangle_count, w->cfg.triangle_block);
    if (heights > UINT32_MAX || vblocks > UINT32_MAX || tblocks > UINT32_MAX)
        return nv_error_set(err, "spawn: the world would hold more than 2^32 vertices or blocks");
    uint32_t tri_cap = w->tri_block_capacity;
    /* Each table doubles from 256 entries. */
    if (GROW(&w->heights, &w->height_capacity, heights, 256) ||
        GROW(&w->vertex_blocks, &w->vertex_block_capacity, vblocks, 256) ||
        GROW(&w->tri_sums, &tri_cap, tblocks, 256) || GROW(&w->tri_blocks, &w->tri_block_capacity, tblocks, 256))
        return nv_error_fail(err, NV_ENOMEM, "spawn: out of memory for the block tables");
    return 0;
}

void world_count_vessel(nv_world* w, const nv_hull* h, int sign) {
    w->need_heights += (uint64_t)((int64_t)sign * world_heights_of(w, h));
    w->need_vertex_blocks += (uint64_t)((int64_t)sign * world_vertex_blocks_of(w, h));
    w->need_tri_blocks += (uint64_t)((int64_t)sign * world_blocks_of(h->triangle_count, w->cfg.triangle_block));
}

/* A vessel's slamming memory: one half float per triangle, padded for the
 * force kernels' whole lanes. */
uint16_t* world_slam_alloc(const nv_hull* h) { return calloc(hull_lane_count(h->triangle_count), sizeof(uint16_t)); }

int nv_world_spawn(nv_world* w, uint32_t type, nv_vec3 position, nv_quat orientation, uint32_t* id_out, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (type >= w->type_count)
        return nv_error_fail(err, NV_ENOENT, "spawn: no hull type %u (the world has %u)", type, w->type_count);
    if (nv_range_check(NV_RANGE_WORLD_POSITION, position.x, "spawn: position.x", err) ||
        nv_range_check(NV_RANGE_WORLD_POSITION, position.y, "spawn: position.y", err) ||
        nv_range_check(NV_RANGE_WORLD_POSITION, position.z, "spawn: position.z", err))
        return -1;
    double qn = sqrt(orientation.w * orientation.w + orientation.x * orientation.x + orientation.y * orientation.y +
                     orientation.z * orientation.z);
    if (!(qn > 1e-9) || !isfinite(qn)) return nv_error_set(err, "spawn: the orientation is not a usable quaternion");
    if (w->next_id == UINT32_MAX)
        return nv_error_fail(err, NV_ELIMIT, "spawn: vessel ids are exhausted (all %u have been issued)", UINT32_MAX);
    if (world_reserve_vessels(w, w->count + 1, err)) return -1;
    if (world_reserve_for(w, &w->types[type].hull, err)) return -1;
    if (world_ids_reserve(w, err)) return nv_error_prefix(err, "spawn");
    uint16_t* slam = NULL;
    if (w->types[type].model && w->types[type].model->slamming) {
        slam = world_slam_alloc(&w->types[type].hull);
        if (!slam) return nv_error_fail(err, NV_ENOMEM, "spawn: out of memory for the slamming state");
    }
    nv_quat q = quat_normalize(orientation);
    uint32_t s = w->count++;
    uint32_t id = w->next_id++;
    world_vessels* v = &w->v;
    v->id[s] = id;
    world_bind_id(w, id, s);
    v->type[s] = type;
    v->flags[s] = 0;
    v->px[s] = position.x, v->py[s] = position.y, v->pz[s] = position.z;
    v->qw[s] = q.w, v->qx[s] = q.x, v->qy[s] = q.y, v->qz[s] = q.z;
    v->vx[s] = v->vy[s] = v->vz[s] = 0.0;
    v->lx[s] = v->ly[s] = v->lz[s] = 0.0;
    v->wx[s] = v->wy[s] = v->wz[s] = 0.0;
    v->fx[s] = v->fy[s] = v->fz[s] = 0.0;
    v->tx[s] = v->ty[s] = v->tz[s] = 0.0;
    v->area[s] = 0.0f;
    w->sv.ground_struck[s] = 0;
    v->contact_points[s] = 0;
    v->penetration[s] = 0.0f;
    v->throttle_cmd[s] = v->rudder_cmd[s] = v->throttle[s] = v->rudder[s] = 0.0f;
    v->water_vy[s] = 0.0f;
    v->slam[s] = slam;
    v->flood[s] = NULL;
    v->model[s] = WORLD_MODEL_MESH;
    world_count_vessel(w, &w->types[type].hull, +1);
    w->blocks_dirty = 1;
    *id_out = id;
    WORLD_RECORD(w, spawn, .id = id, .type = type, .position = position, .orientation = orientation);
    return 0;
}

int world_despawn(nv_world* w, uint32_t id, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_fail(err, NV_ENOENT, "despawn: no vessel with id %u", id);
    world_count_vessel(w, &w->types[w->v.type[s]].hull, -1);
    if (w->v.flags[s] & WORLD_VESSEL_PLAYER) w->player_total--;
    free(w->v.slam[s]);
    w->v.slam[s] = NULL;
    free(w->v.flood[s]);
    w->v.flood[s] = NULL;
    world_unbind_slot(w, s);
    uint32_t last = --w->count;
    if (s != last) {
        world_move_slot(w, s, last); /* its handle comes along: point it at the new slot */
        w->ids.entries[w->v.handle[s]].slot = s;
    }
    w->blocks_dirty = 1;
    return 0;
}

int nv_world_despawn(nv_world* w, uint32_t id, nv_error* err) {
    if (world_despawn(w, id, err)) return -1;
    WORLD_RECORD(w, despawn, .id = id);
    return 0;
}

double world_added_share(const nv_world* w, uint32_t s) {
    const dynamics_model* m = w->types[w->v.type[s]].model;
    if (!m || w->v.model[s] == WORLD_MODEL_FLOATER) return 1.0;
    return dynamics_added_share(m, w->v.area[s]);
}

body world_load_body(const nv_world* w, uint32_t s) {
    const world_vessels* v = &w->v;
    body b = w->types[v->type[s]].body_template;
    b.position = v3(v->px[s], v->py[s], v->pz[s]);
    b.orientation.w = v->qw[s], b.orientation.x = v->qx[s], b.orientation.y = v->qy[s], b.orientation.z = v->qz[s];
    b.velocity = v3(v->vx[s], v->vy[s], v->vz[s]);
    b.angular_momentum = v3(v->lx[s], v->ly[s], v->lz[s]);
    b.angular_velocity = v3(v->wx[s], v->wy[s], v->wz[s]);
    return b;
}

void world_store_body(nv_world* w, uint32_t s, const body* b) {
    world_vessels* v = &w->v;
    v->px[s] = b->position.x, v->py[s] = b->position.y, v->pz[s] = b->position.z;
    v->qw[s] = b->orientation.w, v->qx[s] = b->orientation.x, v->qy[s] = b->orientation.y, v->qz[s] = b->orientation.z;
    v->vx[s] = b->velocity.x, v->vy[s] = b->velocity.y, v->vz[s] = b->velocity.z;
    v->lx[s] = b->angular_momentum.x, v->ly[s] = b->angular_momentum.y, v->lz[s] = b->angular_momentum.z;
    v->wx[s] = b->angular_velocity.x, v->wy[s] = b->angular_velocity.y, v->wz[s] = b->angular_velocity.z;
}

int nv_world_set_velocity(nv_world* w, uint32_t id, nv_vec3 velocity, nv_vec3 angular_velocity, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_fail(err, NV_ENOENT, "no vessel with id %u", id);
    if (!v3_is_finite(velocity) || !v3_is_finite(angular_velocity))
        return nv_error_set(err, "vessel %u: velocities must be finite", id);
    body b = world_load_body(w, s);
    b.velocity = velocity;
    body_set_angular_velocity(&b, angular_velocity);
    world_store_body(w, s, &b);
    WORLD_RECORD(w, velocity, .id = id, .velocity = velocity, .angular_velocity = angular_velocity);
    return 0;
}

static void world_state_of_slot(const world_vessels* v, uint32_t s, nv_world_vessel_state* out) {
    out->id = v->id[s];
    out->type = v->type[s];
    out->flags = v->flags[s];
    out->position = v3(v->px[s], v->py[s], v->pz[s]);
    out->orientation.w = v->qw[s], out->orientation.x = v->qx[s], out->orientation.y = v->qy[s],
    out->orientation.z = v->qz[s];
    out->velocity = v3(v->vx[s], v->vy[s], v->vz[s]);
    out->angular_velocity = v3(v->wx[s], v->wy[s], v->wz[s]);
    out->force = v3(v->fx[s], v->fy[s], v->fz[s]);
    out->torque = v3(v->tx[s], v->ty[s], v->tz[s]);
    out->submerged_area = v->area[s];
    out->throttle = v->throttle_cmd[s];
    out->rudder = v->rudder_cmd[s];
    out->throttle_actual = v->throttle[s];
    out->rudder_actual = v->rudder[s];
    out->model = (nv_world_model)v->model[s];
    out->contact_points = v->contact_points[s];
    out->penetration = v->penetration[s];
}

int nv_world_vessel_get(const nv_world* w, uint32_t id, nv_world_vessel_state* out) {
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return -1;
    world_state_of_slot(&w->v, s, out);
    return 0;
}

uint32_t nv_world_read_vessels(const nv_world* w, uint32_t first, uint32_t count, nv_world_vessel_state* out) {
    uint32_t n = nv_world_vessel_count(w);
    if (first >= n) return 0;
    if (count > n - first) count = n - first;
    for (uint32_t i = 0; i < count; i++) world_state_of_slot(&w->v, first + i, &out[i]);
    return count;
}

static void world_pose_of_slot(const world_vessels* v, uint32_t s, nv_world_vessel_pose* o) {
    o->id = v->id[s];
    o->type = v->type[s];
    o->flags = v->flags[s];
    o->model = (nv_world_model)v->model[s];
    o->position = v3(v->px[s], v->py[s], v->pz[s]);
    o->orientation.w = v->qw[s], o->orientation.x = v->qx[s], o->orientation.y = v->qy[s], o->orientation.z = v->qz[s];
    o->velocity = v3(v->vx[s], v->vy[s], v->vz[s]);
    o->angular_velocity = v3(v->wx[s], v->wy[s], v->wz[s]);
}

uint32_t nv_world_read_poses(const nv_world* w, uint32_t first, uint32_t count, nv_world_vessel_pose* out) {
    uint32_t n = nv_world_vessel_count(w);
    if (first >= n) return 0;
    if (count > n - first) count = n - first;
    for (uint32_t i = 0; i < count; i++) world_pose_of_slot(&w->v, first + i, &out[i]);
    return count;
}

int nv_world_vessel_pose_get(const nv_world* w, uint32_t id, nv_world_vessel_pose* out) {
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return -1;
    world_pose_of_slot(&w->v, s, out);
    return 0;
}

int nv_world_type_float_height(const nv_world* w, uint32_t type, double* y, nv_error* err) {
    if (type >= w->type_count)
        return nv_error_fail(err, NV_ENOENT, "no hull type %u (the world has %u)", type, w->type_count);
    const world_type* t = &w->types[type];
    if (!t->can_float) {
        /* Asked again only to name why: a type that sinks is rare. */
        double ignored;
        if (!nv_statics_balance_height_of(&t->hull, w->cfg.water_density, w->cfg.gravity, quat_identity(), &ignored,
                                          err))
            nv_error_set(err, "it cannot float");
        nv_error_prefix(err, "hull type '%s'", t->name);
        if (err) err->code = NV_ESTATE;
        return -1;
    }
    *y = t->float_height;
    return 0;
}

static double world_clamp_unit(double x) { return x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x); }

int nv_world_set_controls(nv_world* w, uint32_t id, double throttle, double rudder, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_fail(err, NV_ENOENT, "no vessel with id %u", id);
    if (!isfinite(throttle) || !isfinite(rudder))
        return nv_error_set(err, "vessel %u: throttle and rudder must be finite (got %g, %g)", id, throttle, rudder);
    w->v.throttle_cmd[s] = (float)world_clamp_unit(throttle);
    w->v.rudder_cmd[s] = (float)world_clamp_unit(rudder);
    WORLD_RECORD(w, controls, .id = id, .throttle = throttle, .rudder = rudder);
    return 0;
}

void nv_world_set_wind(nv_world* w, nv_vec3 wind) {
    WORLD_CHECK_UNLOCKED(w);
    if (!v3_is_finite(wind)) return;
    w->wind = wind;
    WORLD_RECORD(w, wind, .wind = wind);
}

const nv_vessel_dynamics* nv_world_type_dynamics(const nv_world* w, uint32_t type) {
    return type < w->type_count ? &w->types[type].dynamics : NULL;
}

const nv_particulars* nv_world_type_particulars(const nv_world* w, uint32_t type) {
    const dynamics_model* m = type < w->type_count ? w->types[type].model : NULL;
    return m && m->roll_damping ? &m->particulars : NULL;
}

const nv_roll_damper* nv_world_type_roll_damper(const nv_world* w, uint32_t type) {
    const dynamics_model* m = type < w->type_count ? w->types[type].model : NULL;
    return m && m->roll_damping ? &m->roll : NULL;
}

const nv_heave_pitch_damper* nv_world_type_heave_pitch_damper(const nv_world* w, uint32_t type) {
    const dynamics_model* m = type < w->type_count ? w->types[type].model : NULL;
    return m && m->heave_pitch_damping ? &m->heave_pitch : NULL;
}

int nv_world_set_type_compartments(nv_world* w, uint32_t type, nv_compartment_set* cs, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (type >= w->type_count) return nv_error_fail(err, NV_ENOENT, "compartments: no hull type %u", type);
    for (uint32_t s = 0; s < w->count; s++)
        if (w->v.type[s] == type && w->v.flood[s])
            return nv_error_fail(err, NV_ESTATE, "compartments: vessels of type %u are flooding", type);
    nv_compartment_set* own = malloc(sizeof *own);
    if (!own) return nv_error_fail(err, NV_ENOMEM, "compartments: out of memory");
    *own = *cs;
    memset(cs, 0, sizeof *cs); /* the meshes are the world's now */
    world_type* t = &w->types[type];
    nv_compartment_set_free(t->compartments);
    free(t->compartments);
    t->compartments = own;
    return 0;
}

int nv_world_set_type_dynamics(nv_world* w, uint32_t type, const nv_vessel_dynamics* d, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (type >= w->type_count)
        return nv_error_fail(err, NV_ENOENT, "no hull type %u (the world has %u)", type, w->type_count);
    world_type* t = &w->types[type];
    nv_vessel_dynamics given = *d;
    given.coeffs.water_density = w->cfg.water_density;
    if (nv_hydrodyn_coeffs_validate(&given.coeffs, err) || nv_actuator_set_validate(&given.actuators, err))
        return nv_error_prefix(err, "hull type '%s'", t->name);
    dynamics_model* m = malloc(sizeof *m);
    if (!m) return nv_error_fail(err, NV_ENOMEM, "hull type '%s': out of memory", t->name);
    dynamics_model_init(m, &given, &t->hull, w->cfg.gravity);
    /* Every vessel of the type gets (or drops) its slamming memory now, so
     * that failing leaves the world as it was. */
    uint16_t** fresh = NULL;
    if (m->slamming) {
        fresh = calloc(w->count ? w->count : 1, sizeof *fresh);
        if (!fresh) {
            dynamics_model_release(m);
            free(m);
            return nv_error_fail(err, NV_ENOMEM, "hull type '%s': out of memory", t->name);
        }
        for (uint32_t s = 0; s < w->count; s++)
            if (w->v.type[s] == type && !w->v.slam[s]) {
                fresh[s] = world_slam_alloc(&t->hull);
                if (!fresh[s]) {
                    for (uint32_t k = 0; k < s; k++) free(fresh[k]);
                    free(fresh);
                    dynamics_model_release(m);
                    free(m);
                    return nv_error_fail(err, NV_ENOMEM, "hull type '%s': out of memory for slamming state", t->name);
                }
            }
    }
    for (uint32_t s = 0; s < w->count; s++) {
        if (w->v.type[s] != type) continue;
        if (m->slamming) {
            if (fresh[s]) w->v.slam[s] = fresh[s];
        } else {
            free(w->v.slam[s]);
            w->v.slam[s] = NULL;
        }
    }
    free(fresh);
    dynamics_model_release(t->model);
    free(t->model);
    t->model = m;
    t->dynamics = given;
    return 0;
}

uint32_t nv_world_vessel_count(const nv_world* w) { return w->count; }
uint32_t nv_world_vessel_id_at(const nv_world* w, uint32_t slot) { return slot < w->count ? w->v.id[slot] : UINT32_MAX; }
uint64_t nv_world_tick(const nv_world* w) { return w->tick; }
double nv_world_time(const nv_world* w) { return w->time; }
const nv_world_timing* nv_world_last_timing(const nv_world* w) { return &w->timing; }
void nv_world_set_timing_detail(nv_world* w, int on) { w->timing_detail = on != 0; }

/* ---- inspection ------------------------------------------------------- */

static uint64_t world_fnv(uint64_t h, const void* data, size_t n) {
    const unsigned char* p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t nv_world_state_hash(const nv_world* w) {
    uint64_t h = 0xcbf29ce484222325ull;
    h = world_fnv(h, &w->tick, sizeof w->tick);
    for (uint32_t s = 0; s < w->count; s++) {
        const world_vessels* v = &w->v;
        h = world_fnv(h, &v->id[s], sizeof(uint32_t));
        h = world_fnv(h, &v->flags[s], sizeof(uint32_t));
        const double* state[] = {v->px, v->py, v->pz, v->qw, v->qx, v->qy, v->qz, v->vx, v->vy, v->vz, v->lx,
                                 v->ly, v->lz, v->wx, v->wy, v->wz, v->fx, v->fy, v->fz, v->tx, v->ty, v->tz};
        for (size_t k = 0; k < sizeof state / sizeof state[0]; k++) h = world_fnv(h, &state[k][s], sizeof(double));
        h = world_fnv(h, &v->throttle[s], sizeof(float));
        h = world_fnv(h, &v->rudder[s], sizeof(float));
        if (v->slam[s]) h = world_fnv(h, v->slam[s], w->types[v->type[s]].hull.triangle_count * sizeof(uint16_t));
        if (v->flood[s]) {
            const nv_flood_state* f = v->flood[s];
            uint64_t marks[2] = {f->full, (uint64_t)f->hole_count << 16 | (uint64_t)f->pumping << 8 | f->sunk};
            h = world_fnv(h, f->volume, sizeof f->volume);
            h = world_fnv(h, marks, sizeof marks);
        }
    }
    return h;
}

void nv_world_memory(const nv_world* w, size_t* per_vessel_total, size_t* shared_total) {
    size_t per = (size_t)w->capacity * WORLD_VESSEL_BYTES +
                 (size_t)w->ids.entry_capacity * sizeof(world_handle_entry) +
                 (size_t)w->ids.map.capacity * 2 * sizeof(uint32_t) +
                 (size_t)w->height_capacity * sizeof(float) + (size_t)w->vertex_block_capacity * sizeof(world_block) +
                 (size_t)w->tri_block_capacity * (sizeof(world_block) + sizeof(hydro_sums));
    size_t shared = sizeof *w + WORLD_MAX_HULL_TYPES * sizeof(world_type) +
                    (size_t)w->threads * (sizeof(hydro_scratch) + sizeof *w->worker_ms +
                                          w->cfg.vertex_block * (3 * sizeof(double) + 5 * sizeof(float)) +
                                          sizeof(floater_batch) + sizeof(floater_scratch) +
                                          FLOATER_CHUNK * (5 * sizeof(double) + 4 * sizeof(float)));
    for (uint32_t i = 0; i < w->type_count; i++) {
        const nv_hull* h = &w->types[i].hull;
        shared += (size_t)h->vertex_count * 3 * sizeof(float) +
                  (size_t)h->triangle_count * 3 * sizeof(uint32_t) +
                  hull_group_count(h->triangle_count) * (HULL_LANE_BLOCK * sizeof(float) + 3 * HULL_GROUP * sizeof(uint32_t));
    }
    for (uint32_t s = 0; s < w->count; s++)
        if (w->v.slam[s]) per += hull_lane_count(w->types[w->v.type[s]].hull.triangle_count) * sizeof(uint16_t);
    for (uint32_t i = 0; i < w->type_count; i++)
        if (w->types[i].model)
            shared += sizeof(dynamics_model) + (w->types[i].model->planing ? sizeof(dynamics_planing) : 0) +
                      (w->types[i].model->manoeuvre ? sizeof(dynamics_manoeuvre) : 0);
    if (per_vessel_total) *per_vessel_total = per;
    if (shared_total) *shared_total = shared;
}

const nv_world_config* nv_world_get_config(const nv_world* w) { return &w->cfg; }
nv_vec3 nv_world_get_wind(const nv_world* w) { return w->wind; }
nv_world_lod nv_world_get_lod(const nv_world* w) { return w->lod; }
