// SPDX-License-Identifier: MIT
/* Levels of detail: which model each vessel meets the water with, the
 * automatic switch by distance from the player vessels, the column
 * model's forces inside the integration pass, and the floaters' pass. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/statics.h"
#include "world_internal.h"

nv_world_lod nv_world_lod_default(void) {
    nv_world_lod l = {.enabled = 0, .mesh_within = 300.0, .columns_within = 1500.0, .hysteresis = 0.1};
    return l;
}

int nv_world_set_type_columns(nv_world* w, uint32_t type, const struct nv_columns_set* columns, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (type >= w->type_count)
        return nv_error_fail(err, NV_ENOENT, "no hull type %u (the world has %u)", type, w->type_count);
    world_type* t = &w->types[type];
    nv_columns_model* m = calloc(1, sizeof *m);
    if (!m) return nv_error_fail(err, NV_ENOMEM, "hull type '%s': out of memory", t->name);
    if (nv_columns_model_create(m, columns, t->hull.body.cg, err)) {
        free(m);
        return nv_error_prefix(err, "hull type '%s' columns", t->name);
    }
    /* every worker's scratch must hold the largest column model: grown
     * here, outside the tick; the old buffers stay until all new ones exist */
    size_t need = nv_columns_scratch_bytes(m);
    if (need > w->column_scratch_bytes) {
        void** fresh = calloc(w->threads, sizeof *fresh);
        int bad = !fresh;
        for (uint32_t i = 0; !bad && i < w->threads; i++) bad = !(fresh[i] = malloc(need));
        if (bad) {
            if (fresh)
                for (uint32_t i = 0; i < w->threads; i++) free(fresh[i]);
            free(fresh);
            nv_columns_model_destroy(m);
            free(m);
            return nv_error_fail(err, NV_ENOMEM, "hull type '%s': out of memory for column scratch", t->name);
        }
        if (w->column_scratch)
            for (uint32_t i = 0; i < w->threads; i++) free(w->column_scratch[i]);
        free(w->column_scratch);
        w->column_scratch = fresh;
        w->column_scratch_bytes = need;
    }
    if (t->columns) {
        nv_columns_model_destroy(t->columns);
        free(t->columns);
    }
    t->columns = m;
    return 0;
}

int nv_world_build_type_columns(nv_world* w, uint32_t type, uint32_t nx, uint32_t nz, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (type >= w->type_count)
        return nv_error_fail(err, NV_ENOENT, "no hull type %u (the world has %u)", type, w->type_count);
    const nv_hull* h = &w->types[type].hull;
    nv_mesh m;
    if (nv_hull_to_mesh(h, &m, err)) return -1;
    nv_columns_build_options o = nv_columns_build_options_default();
    o.nx = nx;
    o.nz = nz;
    o.mass = h->body.mass;
    nv_columns_set set;
    int rc = nv_columns_build(&m, &o, &set, err);
    nv_mesh_free(&m);
    if (rc) return nv_error_prefix(err, "hull type '%s' columns", w->types[type].name);
    rc = nv_world_set_type_columns(w, type, &set, err);
    nv_columns_free(&set);
    return rc;
}

int world_lod_alloc(nv_world* w, nv_error* err) {
    w->floaters = calloc(w->threads, sizeof *w->floaters);
    w->floater_scratch = calloc(w->threads, sizeof *w->floater_scratch);
    if (!w->floaters || !w->floater_scratch) return nv_error_fail(err, NV_ENOMEM, "world: out of memory");
    floater_params p = floater_params_default();
    for (uint32_t i = 0; i < w->threads; i++)
        if (floater_batch_init(&w->floaters[i], FLOATER_CHUNK, &p, err)) return -1;
    return 0;
}

int world_reserve_player(nv_world* w, nv_error* err) {
    if (w->player_total < w->player_capacity) return 0;
    uint32_t cap = (uint32_t)grow_capacity(w->player_capacity, (size_t)w->player_total + 1, 16);
    if (grow_resize((void**)&w->player_x, cap, sizeof *w->player_x) ||
        grow_resize((void**)&w->player_z, cap, sizeof *w->player_z))
        return nv_error_fail(err, NV_ENOMEM, "world: out of memory for %u players", cap);
    w->player_capacity = cap;
    return 0;
}

void world_lod_free(nv_world* w) {
    if (w->floaters)
        for (uint32_t i = 0; i < w->threads; i++) floater_batch_free(&w->floaters[i]);
    free(w->floaters);
    free(w->floater_scratch);
    free(w->player_x);
    free(w->player_z);
    for (uint32_t i = 0; i < w->type_count; i++)
        if (w->types[i].columns) {
            nv_columns_model_destroy(w->types[i].columns);
            free(w->types[i].columns);
        }
    if (w->column_scratch)
        for (uint32_t i = 0; i < w->threads; i++) free(w->column_scratch[i]);
    free(w->column_scratch);
}

/* The slot's model becomes `m`; the body state carries over untouched, so
 * the pose never jumps. Slamming memory is from the mesh model's last
 * step: stale after a spell on another model, so it restarts from rest. */
static void world_switch_model(nv_world* w, uint32_t s, nv_world_model m) {
    if (w->v.model[s] == (uint32_t)m) return;
    if (m == WORLD_MODEL_MESH && w->v.slam[s])
        memset(w->v.slam[s], 0, w->types[w->v.type[s]].hull.triangle_count * sizeof(uint16_t));
    w->v.model[s] = (uint32_t)m;
    w->blocks_dirty = 1;
}

void world_lod_prepare_type(nv_world* w, uint32_t type) {
    world_type* t = &w->types[type];
    nv_error err;
    double y;
    t->can_float =
        nv_statics_balance_height_of(&t->hull, w->cfg.water_density, w->cfg.gravity, quat_identity(), &y, &err) == 0;
    t->float_height = t->can_float ? y : 0.0;
    /* A hull heaves and tilts with the waves averaged over its waterplane:
     * the follower samples where two points give that plane's own slope
     * (nv_particulars' reaches), not a buoy's half metre, which stays as
     * the floor (a hull too small to average anything, or that cannot
     * float). */
    nv_particulars p;
    double fallback = floater_params_default().radius;
    int known = nv_particulars_compute(&t->hull, w->cfg.water_density, w->cfg.gravity, 0.0, &p, &err) == 0;
    t->floater_along = known && p.reach_long > fallback ? p.reach_long : fallback;
    t->floater_across = known && p.reach_trans > fallback ? p.reach_trans : fallback;
}

int nv_world_set_vessel_model(nv_world* w, uint32_t id, nv_world_model model, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_fail(err, NV_ENOENT, "no vessel with id %u", id);
    if (model != WORLD_MODEL_MESH && model != WORLD_MODEL_COLUMNS && model != WORLD_MODEL_FLOATER)
        return nv_error_set(err, "vessel %u: unknown model %d", id, (int)model);
    if (model == WORLD_MODEL_COLUMNS && !w->types[w->v.type[s]].columns)
        return nv_error_set(err, "vessel %u: hull type '%s' has no column model", id, w->types[w->v.type[s]].name);
    if (model == WORLD_MODEL_FLOATER && w->v.flood[s])
        return nv_error_set(err, "vessel %u is damaged: a floater cannot take water", id);
    if (model == WORLD_MODEL_FLOATER && !w->types[w->v.type[s]].can_float)
        return nv_error_set(err, "vessel %u: hull type '%s' sinks: it cannot float as a floater", id,
                            w->types[w->v.type[s]].name);
    world_switch_model(w, s, model);
    WORLD_RECORD(w, model, .id = id, .model = model);
    return 0;
}

int nv_world_set_player(nv_world* w, uint32_t id, int player, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_fail(err, NV_ENOENT, "no vessel with id %u", id);
    int was = (w->v.flags[s] & WORLD_VESSEL_PLAYER) != 0;
    if (player && !was) {
        if (world_reserve_player(w, err)) return -1;
        w->player_total++;
        w->v.flags[s] |= WORLD_VESSEL_PLAYER;
    } else if (!player && was) {
        w->player_total--;
        w->v.flags[s] &= ~(uint32_t)WORLD_VESSEL_PLAYER;
    }
    WORLD_RECORD(w, player, .id = id, .player = player);
    return 0;
}

void nv_world_set_lod(nv_world* w, const nv_world_lod* lod) {
    WORLD_CHECK_UNLOCKED(w);
    if (!lod)
        w->lod.enabled = 0;
    else w->lod = *lod;
    WORLD_RECORD(w, lod, .lod = w->lod);
}

/* m the ground may be from a floater's lowest point before it becomes
 * rigid: a few seconds' sailing. */
#define WORLD_LOD_GROUND_REACH 20.0

/* The model a vessel at distance d from the nearest player should have,
 * from the one it has (the hysteresis only delays moving to cheaper). */
static nv_world_model world_lod_pick(const nv_world_lod* l, nv_world_model now, double d, int has_columns, int can_float) {
    double k = 1.0 + l->hysteresis;
    double mesh_edge = now == WORLD_MODEL_MESH ? l->mesh_within * k : l->mesh_within;
    if (d < mesh_edge) return WORLD_MODEL_MESH;
    double columns_edge = now == WORLD_MODEL_FLOATER ? l->columns_within : l->columns_within * k;
    if (has_columns && d < columns_edge) return WORLD_MODEL_COLUMNS;
    if (!has_columns && d < columns_edge) return WORLD_MODEL_MESH;
    return can_float ? WORLD_MODEL_FLOATER : (has_columns ? WORLD_MODEL_COLUMNS : WORLD_MODEL_MESH);
}

/* Each vessel's model from its distance to the nearest player: reads
 * the poses only, writes its own slot of lod_next. */
static void world_lod_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    const world_vessels* v = &w->v;
    const double *qx = w->player_x, *qz = w->player_z;
    uint32_t players = w->player_gathered;
    for (uint32_t s = begin; s < end; s++) {
        if (v->flags[s] & WORLD_VESSEL_PLAYER) {
            w->sv.lod_next[s] = WORLD_MODEL_MESH;
            continue;
        }
        double best = INFINITY, x = v->px[s], z = v->pz[s];
        for (uint32_t p = 0; p < players; p++) {
            double dx = qx[p] - x, dz = qz[p] - z, d2 = dx * dx + dz * dz;
            best = d2 < best ? d2 : best;
        }
        const world_type* t = &w->types[v->type[s]];
        nv_world_model m = world_lod_pick(&w->lod, (nv_world_model)v->model[s], sqrt(best), t->columns != NULL, t->can_float);
        /* a floater has no body to hold on the ground: near it, a rigid
         * model, so distant traffic does not sail through land */
        if (m == WORLD_MODEL_FLOATER && world_ground_near(w, t, v3(x, v->py[s], z), WORLD_LOD_GROUND_REACH))
            m = t->columns ? WORLD_MODEL_COLUMNS : WORLD_MODEL_MESH;
        /* a floater cannot take water: a damaged vessel keeps a rigid model */
        if (m == WORLD_MODEL_FLOATER && v->flood[s]) m = t->columns ? WORLD_MODEL_COLUMNS : WORLD_MODEL_MESH;
        w->sv.lod_next[s] = (uint8_t)m;
    }
}

void world_lod_update(nv_world* w) {
    if (!w->lod.enabled) return;
    const world_vessels* v = &w->v;
    /* O(vessels x players) in the jobs: players are few (one per game
     * client), vessels many. */
    uint32_t n = 0;
    for (uint32_t s = 0; s < w->count && n < w->player_capacity; s++)
        if (v->flags[s] & WORLD_VESSEL_PLAYER) {
            w->player_x[n] = v->px[s];
            w->player_z[n] = v->pz[s];
            n++;
        }
    w->player_gathered = n;
    world_run(w, w->count, 256, world_lod_job);
    for (uint32_t s = 0; s < w->count; s++) world_switch_model(w, s, (nv_world_model)w->sv.lod_next[s]);
}

void world_columns_force(nv_world* w, uint32_t s, uint32_t worker, const body* b, nv_vec3* force, nv_vec3* torque,
                         double* submerged_area) {
    const nv_columns_model* m = w->types[w->v.type[s]].columns;
    const dynamics_model* dm = w->types[w->v.type[s]].model;
    /* With the mesh's own resistance fitted (dynamics.h), it stands in for
     * the columns' generic horizontal damping: the far boat keeps the
     * speed, turn and drift it would have on the mesh. */
    nv_columns_model own;
    if (dm && dm->drag.valid) {
        own = *m;
        own.damping_horizontal = 0.0;
        m = &own;
    }
    float surface, vertical = 0.0f;
    double px = b->position.x, pz = b->position.z;
    nv_water_query q = {.count = 1, .x = &px, .z = &pz, .height = &surface, .vertical_velocity = &vertical};
    water_sample(w->water.surface, &q);
    nv_columns_pose pose = {.position = b->position,
                         .rotation = quat_to_mat3(b->orientation),
                         .velocity = b->velocity,
                         .angular_velocity = b->angular_velocity,
                         .water_velocity = v3(0.0, isfinite(vertical) ? vertical : 0.0, 0.0)};
    nv_columns_result r;
    world_dry_surface_room room;
    const nv_water_surface* water = world_ground_water(w, &w->types[w->v.type[s]], b->position, &room);
    if (nv_columns_force(m, &pose, water, w->cfg.water_density, w->cfg.gravity, w->column_scratch[worker],
                         w->column_scratch_bytes, &r)) {
        /* scratch sized for the largest model at creation: cannot happen;
         * a NaN makes the integrator contain the vessel rather than guess */
        r.force = r.torque = v3(NAN, NAN, NAN);
        r.submerged_volume = 0.0;
    }
    *force = r.force;
    *torque = r.torque;
    if (dm && dm->drag.valid) {
        nv_mat3 rot = quat_to_mat3(b->orientation), rt = m3_transpose(&rot);
        nv_vec3 fd, td;
        dynamics_hull_drag_apply(&dm->drag, &rot, m3_mul_v3(&rt, v3_sub(b->velocity, pose.water_velocity)),
                                 m3_mul_v3(&rt, b->angular_velocity), r.submerged_volume, &fd, &td);
        *force = v3_add(*force, m3_mul_v3(&rot, fd));
        *torque = v3_add(*torque, m3_mul_v3(&rot, td));
    }
    /* The columns have no surface: the wetted area the roll damper and the
     * area damping scale by is the upright hull's, in proportion to the
     * volume immersed. */
    double volume = dm ? dm->particulars.volume : 0.0;
    double immersed = volume > 0.0 && isfinite(r.submerged_volume) ? r.submerged_volume / volume : 0.0;
    *submerged_area = dm ? dm->particulars.wetted_area * fmin(immersed, 1.0) : 0.0;
    w->v.water_vy[s] = isfinite(vertical) ? vertical : 0.0f;
}

/* Distant traffic: the vessel's horizontal velocity and yaw rate come
 * from its manoeuvring (world_floater_job), and Tenhunen's surface follower sets its height (waterline point
 * at float_height under the CG), heave velocity, heel and trim. Its state
 * lives in the vessel's own pose and velocities, so a switch back to a
 * rigid-body model continues from there. */
static floater world_floater_from(const nv_world* w, const body* b, double float_height) {
    nv_vec3 up = quat_rotate(b->orientation, v3(0, 1, 0));
    double yaw_rate = b->angular_velocity.y;
    floater f = floater_make(b->position.x + b->velocity.x * w->dt, b->position.y - float_height,
                             b->position.z + b->velocity.z * w->dt, floater_heading_of(b->orientation) + yaw_rate * w->dt);
    f.vy = (float)b->velocity.y;
    f.nx = (float)up.x;
    f.nz = (float)up.z;
    return f;
}

uint32_t world_floater_chunks(const nv_world* w) { return (w->floater_count + FLOATER_CHUNK - 1) / FLOATER_CHUNK; }

/* Chunks are fixed runs of the slot-ordered floater list, whatever the
 * thread count: each one is a water query of its own, so the state does
 * not depend on how the chunks were shared out. */
void world_floater_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    nv_world* w = ctx;
    world_vessels* v = &w->v;
    floater_batch* fb = &w->floaters[worker];
    for (uint32_t c = begin; c < end; c++) {
        uint32_t first = c * FLOATER_CHUNK, n = w->floater_count - first;
        if (n > FLOATER_CHUNK) n = FLOATER_CHUNK;
        fb->count = n;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t s = w->sv.floater_slot[first + k];
            body b = world_load_body(w, s);
            /* the controls still steer it: surge, sway and yaw under its
             * actuators and its mesh's own resistance (dynamics.h) */
            double throttle = v->throttle[s], rudder = v->rudder[s];
            if (dynamics_floater_manoeuvre(w->types[v->type[s]].model, &b, v->throttle_cmd[s], v->rudder_cmd[s],
                                           &throttle, &rudder, w->dt)) {
                v->throttle[s] = (float)throttle;
                v->rudder[s] = (float)rudder;
                world_store_body(w, s, &b);
            }
            const world_type* t = &w->types[v->type[s]];
            floater f = world_floater_from(w, &b, t->float_height);
            floater_batch_set(fb, k, &f);
            floater_batch_set_reach(fb, k, t->floater_along, t->floater_across);
        }
        if (floater_batch_step(fb, 0, n, w->water.surface, w->dt, &w->floater_scratch[worker]) < 0) continue;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t s = w->sv.floater_slot[first + k];
            body b = world_load_body(w, s);
            double yaw_rate = b.angular_velocity.y;
            nv_vec3 pos;
            nv_quat q;
            floater_batch_pose(fb, k, &pos, &q);
            b.position = v3(pos.x, pos.y + w->types[v->type[s]].float_height, pos.z);
            b.orientation = q;
            b.velocity.y = fb->vy[k];
            body_set_angular_velocity(&b, v3(0.0, yaw_rate, 0.0));
            v->fx[s] = v->fy[s] = v->fz[s] = v->tx[s] = v->ty[s] = v->tz[s] = 0.0;
            if (world_body_is_finite(&b)) world_store_body(w, s, &b);
        }
    }
}
