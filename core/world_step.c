// SPDX-License-Identifier: MIT
/* The fixed-step pipeline: blocks cut from the vessels, the vertex,
 * triangle and integration passes as parallel-fors, and nv_world_step. */
#include <math.h>
#include <time.h>

#include "naval/ranges.h"
#include "breaking.h"
#include "world_internal.h"

static double world_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* ---- blocks ----------------------------------------------------------- */

/* Lays out heights and splits every vessel into vertex and triangle blocks,
 * between steps after spawns or despawns, in the room nv_world_spawn reserved.
 * A small hull (world_hull_fuses) is one triangle block whose job runs its
 * vertex pass too: no vertex blocks, no heights kept. */
static void world_rebuild_blocks(nv_world* w) {
    uint32_t hoff = 0, vb = 0, tb = 0, floaters = 0;
    for (uint32_t s = 0; s < w->count; s++) {
        const nv_hull* h = &w->types[w->v.type[s]].hull;
        w->v.vertex_offset[s] = hoff;
        w->v.tri_block_first[s] = tb;
        w->v.tri_block_count[s] = 0;
        if (w->v.model[s] == WORLD_MODEL_FLOATER && !(w->v.flags[s] & WORLD_VESSEL_FROZEN))
            w->sv.floater_slot[floaters++] = s;
        if (w->v.model[s] != WORLD_MODEL_MESH) continue; /* columns and floaters need no blocks */
        if (!world_hull_fuses(w, h)) {
            hoff += h->vertex_count;
            for (uint32_t first = 0; first < h->vertex_count; first += w->cfg.vertex_block) {
                uint32_t n = h->vertex_count - first;
                world_block b = {s, first, n < w->cfg.vertex_block ? n : w->cfg.vertex_block};
                w->vertex_blocks[vb++] = b;
            }
        }
        w->v.tri_block_first[s] = tb;
        for (uint32_t first = 0; first < h->triangle_count; first += w->cfg.triangle_block) {
            uint32_t n = h->triangle_count - first;
            world_block b = {s, first, n < w->cfg.triangle_block ? n : w->cfg.triangle_block};
            w->tri_blocks[tb++] = b;
        }
        w->v.tri_block_count[s] = tb - w->v.tri_block_first[s];
    }
    w->vertex_block_count = vb;
    w->tri_block_count = tb;
    w->floater_count = floaters;
    w->blocks_dirty = 0;
}

/* ---- the passes ------------------------------------------------------- */

static nv_mat3 world_rotation(const nv_world* w, uint32_t s) {
    nv_quat q = {w->v.qw[s], w->v.qx[s], w->v.qy[s], w->v.qz[s]};
    return quat_to_mat3(q);
}

/* The water's heave at the CG: the moving-water forces are relative to it
 * (one point per vessel, not per vertex: memory). Its own pass, a batch of
 * vessels to a query: one point between two hulls' triangle work missed
 * the cache for the grid's velocities every time (4 % of the step at 4,000
 * boats); in a batch the misses overlap. Each point's value is its own
 * whatever the batch (every surface samples points independently). */
#define WORLD_HEAVE_BATCH 64

static void world_heave_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    enum { POINTS = BREAKING_SECTIONS * WORLD_HEAVE_BATCH };
    double x[WORLD_HEAVE_BATCH], z[WORLD_HEAVE_BATCH];
    float surface[WORLD_HEAVE_BATCH], vertical[WORLD_HEAVE_BATCH];
    double crest_x[POINTS], crest_z[POINTS];
    float crest_h[POINTS], crest_out[3 * POINTS];
    uint32_t taker[WORLD_HEAVE_BATCH];
    uint32_t slot[WORLD_HEAVE_BATCH];
    for (uint32_t s = begin; s < end;) {
        uint32_t n = 0;
        for (; s < end && n < WORLD_HEAVE_BATCH; s++) {
            if (w->v.model[s] != WORLD_MODEL_MESH || (w->v.flags[s] & WORLD_VESSEL_FROZEN) ||
                !w->types[w->v.type[s]].model)
                continue;
            x[n] = w->v.px[s], z[n] = w->v.pz[s];
            slot[n++] = s;
        }
        if (n == 0) continue;
        nv_water_query q = {.count = n, .x = x, .z = z, .height = surface, .vertical_velocity = vertical};
        water_sample(w->water.surface, &q);
        /* the breaking crests only for the vessels whose type takes them
         * and that are clear of the ground (where the surf cuts the wave,
         * world_surf_limit stands for the breaking), asked at each
         * section's middle together and put back in their places */
        uint32_t asked = 0;
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t t = slot[k];
            const world_type* type = &w->types[w->v.type[t]];
            const nv_vec3 pos = v3(w->v.px[t], w->v.py[t], w->v.pz[t]);
            float vy = vertical[k];
            if (world_ground_near(w, type, pos, 0.0)) {
                const double mean = w->water.surface->mean_level, eta = (double)surface[k] - mean;
                if (fabs(eta) > world_surf_limit(mean, nv_terrain_elevation(w->ground.terrain, pos.x, pos.z)))
                    vy = 0.0f;
            } else if (type->model->hydro.c.forces & HYDRODYN_BREAKING_CRESTS) {
                const nv_mat3 r = world_rotation(w, t);
                for (int c = 0; c < BREAKING_SECTIONS; c++) {
                    const nv_vec3 at = m3_mul_v3(&r, v3(breaking_section_middle(&type->hull, c), 0.0, 0.0));
                    crest_x[BREAKING_SECTIONS * asked + c] = pos.x + at.x;
                    crest_z[BREAKING_SECTIONS * asked + c] = pos.z + at.z;
                }
                taker[asked++] = k;
            }
            w->v.water_vy[t] = isfinite(vy) ? vy : 0.0f;
            w->sv.breaker[t] = (breaking_sections){0};
        }
        if (asked) {
            const uint32_t points = BREAKING_SECTIONS * asked;
            nv_water_query cq = {.count = points, .x = crest_x, .z = crest_z, .height = crest_h};
            water_sample(w->water.surface, &cq);
            water_breaking(w->water.surface, points, crest_x, crest_z, crest_h, crest_out);
            for (uint32_t j = 0; j < asked; j++) {
                breaking_sections* b = &w->sv.breaker[slot[taker[j]]];
                for (int c = 0; c < BREAKING_SECTIONS; c++) {
                    const float* o = crest_out + 3 * (BREAKING_SECTIONS * j + c);
                    b->at[c] = (breaking_crest){.water_x = o[0], .water_z = o[1], .reach = o[2]};
                }
            }
        }
    }
}

/* Thread time of the vertex (0) or triangle (1) work, with timing detail. */
static inline void world_add_cpu(nv_world* w, uint32_t worker, int which, double since) {
    w->worker_ms[worker][which] += world_now_ms() - since;
}

static void world_vertex_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    nv_world* w = ctx;
    hydro_scratch* scratch = &w->scratch[worker];
    double t0 = w->timing_detail ? world_now_ms() : 0.0;
    for (uint32_t i = begin; i < end; i++) {
        const world_block* b = &w->vertex_blocks[i];
        uint32_t s = b->slot;
        if (w->v.flags[s] & WORLD_VESSEL_FROZEN) continue;
        const nv_hull* h = &w->types[w->v.type[s]].hull;
        nv_mat3 r = world_rotation(w, s);
        nv_vec3 pos = v3(w->v.px[s], w->v.py[s], w->v.pz[s]);
        float* heights = w->heights + w->v.vertex_offset[s];
        hydro_vertex_pass(h, b->first, b->count, pos, &r, w->water.surface, scratch, heights);
        const int near_ground = world_ground_near(w, &w->types[w->v.type[s]], pos, 0.0);
        if (near_ground) world_ground_mask(w, h, b->first, b->count, pos, &r, heights);
    }
    if (w->timing_detail) world_add_cpu(w, worker, 0, t0);
}

static void world_triangle_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    nv_world* w = ctx;
    hydro_scratch* scratch = &w->scratch[worker];
    double rho_g = w->cfg.water_density * w->cfg.gravity;
    for (uint32_t i = begin; i < end; i++) {
        const world_block* b = &w->tri_blocks[i];
        uint32_t s = b->slot;
        hydro_sums* sum = &w->tri_sums[i];
        hydro_sums_clear(sum);
        if (w->v.flags[s] & WORLD_VESSEL_FROZEN) continue;
        const world_type* type = &w->types[w->v.type[s]];
        const nv_hull* h = &type->hull;
        nv_mat3 r = world_rotation(w, s);
        const float* height;
        double t0 = w->timing_detail ? world_now_ms() : 0.0;
        if (world_hull_fuses(w, h)) {
            /* the vessel's vertex pass first, into this worker's scratch */
            nv_vec3 pos = v3(w->v.px[s], w->v.py[s], w->v.pz[s]);
            hydro_vertex_pass(h, 0, h->vertex_count, pos, &r, w->water.surface, scratch, scratch->height);
            const int near_ground = world_ground_near(w, type, pos, 0.0);
            if (near_ground) world_ground_mask(w, h, 0, h->vertex_count, pos, &r, scratch->height);
            height = scratch->height;
            if (w->timing_detail) {
                double t1 = world_now_ms();
                w->worker_ms[worker][0] += t1 - t0;
                t0 = t1;
            }
        } else {
            height = w->heights + w->v.vertex_offset[s];
        }
        nv_hydrodyn_frame frame;
        const nv_hydrodyn_frame* dyn = NULL;
        if (type->model && type->model->per_triangle) {
            nv_vec3 v = v3(w->v.vx[s], w->v.vy[s], w->v.vz[s]), om = v3(w->v.wx[s], w->v.wy[s], w->v.wz[s]);
            nv_hydrodyn_frame_init(&frame, &type->model->hydro, &r, v, om, w->v.water_vy[s], w->wind,
                                   type->body_template.mass, type->model->total_area, w->dt);
            dyn = &frame;
        }
        hydro_triangle_pass(h, height, b->first, b->count, rho_g, dyn, w->v.slam[s], sum, NULL);
        if (type->model && (type->model->hydro.c.forces & HYDRODYN_BREAKING_CRESTS)) {
            breaking_jet jet;
            if (breaking_jet_init(&jet, &w->sv.breaker[s], &r, v3(w->v.vx[s], w->v.vy[s], w->v.vz[s]),
                                  v3(w->v.wx[s], w->v.wy[s], w->v.wz[s]), w->cfg.water_density))
                breaking_jet_pass(h, height, b->first, b->count, &jet, sum);
        }
        if (w->timing_detail) world_add_cpu(w, worker, 1, t0);
    }
}

/* The flood water moves with the hull: the forces accelerate the hull's
 * mass and the water's together, the torques its inertia and the water's
 * (as the added mass does: every force scaled, the state stays the hull's). */
static void world_flood_inertia(const body* b, const nv_flood_mass* water, nv_vec3* force, nv_vec3* torque) {
    *force = v3_scale(*force, b->mass / (b->mass + water->mass));
    nv_mat3 own = body_world_inertia(b), both = own, inverse;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) both.m[i][j] += water->inertia.m[i][j];
    if (!m3_inverse(&both, &inverse)) return;
    nv_vec3 alpha = m3_mul_v3(&inverse, *torque);
    *torque = m3_mul_v3(&own, alpha);
}

/* The actuator points' depths of the vessels in [begin, end) (at most
 * WORLD_ACTUATOR_BATCH) that the integration will move, in one query: one
 * vessel's few points at a time missed the cache for the grid every time
 * (2 % of the step at 4,000 boats), in a batch the misses overlap. The same
 * points and values as dynamics_assemble's own sampling. */
#define WORLD_ACTUATOR_BATCH 32

static void world_actuator_depths(const nv_world* w, uint32_t begin, uint32_t end,
                                  double depth[][DYNAMICS_ACTUATOR_POINTS]) {
    enum { room = WORLD_ACTUATOR_BATCH * DYNAMICS_ACTUATOR_POINTS };
    double x[room], y[room], z[room];
    float surface[room];
    uint32_t n = 0;
    for (uint32_t s = begin; s < end; s++) {
        const dynamics_model* m = w->types[w->v.type[s]].model;
        if ((w->v.flags[s] & WORLD_VESSEL_FROZEN) || w->v.model[s] == WORLD_MODEL_FLOATER || !m) continue;
        const nv_mat3 rot = world_rotation(w, s);
        n += dynamics_actuator_points(m, v3(w->v.px[s], w->v.py[s], w->v.pz[s]), &rot, x + n, y + n, z + n);
    }
    if (n == 0) return;
    nv_water_query q = {.count = n, .x = x, .z = z, .height = surface};
    water_sample(w->water.surface, &q);
    uint32_t k = 0;
    for (uint32_t s = begin; s < end; s++) {
        const dynamics_model* m = w->types[w->v.type[s]].model;
        if ((w->v.flags[s] & WORLD_VESSEL_FROZEN) || w->v.model[s] == WORLD_MODEL_FLOATER || !m) continue;
        for (uint32_t i = 0; i < m->actuators.point_count; i++, k++)
            depth[s - begin][i] = (double)surface[k] - y[k];
    }
}

static void world_integrate_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    nv_world* w = ctx;
    world_vessels* v = &w->v;
    dynamics_env env = {.water = w->water.surface,
                        .gravity = w->cfg.gravity,
                        .linear_damping = w->cfg.linear_damping,
                        .angular_damping = w->cfg.angular_damping,
                        .dt = w->dt};
    double depth[WORLD_ACTUATOR_BATCH][DYNAMICS_ACTUATOR_POINTS];
    for (uint32_t s = begin; s < end; s++) {
        if ((s - begin) % WORLD_ACTUATOR_BATCH == 0)
            world_actuator_depths(w, s, end - s < WORLD_ACTUATOR_BATCH ? end : s + WORLD_ACTUATOR_BATCH, depth);
        w->sv.capsized_now[s] = 0;
        w->sv.became_full[s] = 0;
        if (v->flags[s] & WORLD_VESSEL_FROZEN) continue;
        /* a floater's step is its own (world_floater_job): the pair
         * solve takes its velocity as it is */
        w->sv.force_velocity[s] = w->sv.force_momentum[s] = v3(0, 0, 0);
        /* Block sums added in block order: the same total whatever thread
         * computed each block. */
        hydro_sums total;
        hydro_sums_clear(&total);
        if (v->model[s] == WORLD_MODEL_FLOATER) continue; /* world_floater_job */
        body b = world_load_body(w, s);
        if (v->model[s] == WORLD_MODEL_COLUMNS) {
            /* the columns' force joins as if the triangle pass had made it
             * (body frame): actuators, gravity and added mass as for a mesh */
            nv_vec3 f, t;
            world_columns_force(w, s, worker, &b, &f, &t, &total.submerged_area);
            nv_mat3 rt = quat_to_mat3(b.orientation);
            rt = m3_transpose(&rt);
            total.force = m3_mul_v3(&rt, f);
            total.torque = m3_mul_v3(&rt, t);
        }
        uint32_t first = v->tri_block_first[s], n = v->tri_block_count[s];
        for (uint32_t k = first; k < first + n; k++) {
            const hydro_sums* part = &w->tri_sums[k];
            total.force = v3_add(total.force, part->force);
            total.torque = v3_add(total.torque, part->torque);
            total.slam_force = v3_add(total.slam_force, part->slam_force);
            total.slam_torque = v3_add(total.slam_torque, part->slam_torque);
            total.entry_force = v3_add(total.entry_force, part->entry_force);
            total.entry_torque = v3_add(total.entry_torque, part->entry_torque);
            total.drag_force = v3_add(total.drag_force, part->drag_force);
            total.drag_torque = v3_add(total.drag_torque, part->drag_torque);
            total.submerged_area += part->submerged_area;
        }
        nv_flood_mass water = {0};
        if (v->flood[s]) {
            /* The flood water's weight joins the hull's forces (body frame,
             * about the CG), before the added mass and the actuators. */
            nv_vec3 f = v3(0.0, 0.0, 0.0), t = v3(0.0, 0.0, 0.0);
            nv_mat3 r = quat_to_mat3(b.orientation);
            w->sv.became_full[s] = nv_flood_step(w->types[v->type[s]].compartments, v->flood[s], b.position, &r,
                                                 w->water.surface, w->cfg.water_density, w->cfg.gravity, w->dt, &f,
                                                 &t, &water);
            nv_mat3 rt = m3_transpose(&r);
            total.force = v3_add(total.force, m3_mul_v3(&rt, f));
            total.torque = v3_add(total.torque, m3_mul_v3(&rt, t));
        }
        /* its mooring lines' pull, as the flood water's weight: an outside
         * force through the same added mass */
        world_lines_pull(w, s, &b, &total.force, &total.torque);
        dynamics_vessel dv = {.model = w->types[v->type[s]].model,
                              .body = &b,
                              .sums = total,
                              .triangles = v->model[s] == WORLD_MODEL_MESH,
                              .water_vertical = v->water_vy[s],
                              .throttle_cmd = v->throttle_cmd[s],
                              .rudder_cmd = v->rudder_cmd[s],
                              .throttle = v->throttle[s],
                              .rudder = v->rudder[s],
                              .actuator_depth = depth[(s - begin) % WORLD_ACTUATOR_BATCH]};
        nv_vec3 force, torque, water_force, water_torque;
        dynamics_assemble(&dv, &env, &force, &torque, &water_force, &water_torque);
        if (water.mass > 0.0) world_flood_inertia(&b, &water, &force, &torque);
        v->throttle[s] = (float)dv.throttle;
        v->rudder[s] = (float)dv.rudder;
        v->fx[s] = water_force.x, v->fy[s] = water_force.y, v->fz[s] = water_force.z;
        v->tx[s] = water_torque.x, v->ty[s] = water_torque.y, v->tz[s] = water_torque.z;
        v->area[s] = (float)total.submerged_area;
        body next = b;
        world_ground_integrate(w, s, worker, &next, force, torque);
        const nv_range* place = nv_range_get(NV_RANGE_WORLD_POSITION);
        if (!v3_is_finite(force) || !v3_is_finite(torque) || !world_body_is_finite(&next) ||
            !nv_range_contains(place, next.position.x) || !nv_range_contains(place, next.position.y) ||
            !nv_range_contains(place, next.position.z)) {
            /* Contain it: keep the last finite state, at rest, and stop
             * simulating it; nothing it holds reaches another vessel. A
             * vessel thrown out of the world (naval/ranges.h) is as lost:
             * the contact pass must never see it 1e17 m away. */
            b.velocity = v3(0, 0, 0);
            b.angular_momentum = v3(0, 0, 0);
            b.angular_velocity = v3(0, 0, 0);
            world_store_body(w, s, &b);
            v->flags[s] |= WORLD_VESSEL_FROZEN;
            continue;
        }
        world_store_body(w, s, &next);
        w->sv.capsized_now[s] = (uint8_t)(nv_world_capsized(next.orientation) && !nv_world_capsized(b.orientation));
    }
}

void world_run(nv_world* w, uint32_t count, uint32_t grain, nv_jobs_range_fn* fn) {
    if (count == 0) return;
    if (w->pool)
        nv_jobs_parallel_for(w->pool, count, grain, fn, w);
    else
        fn(w, 0, count, 0);
}

void nv_world_step(nv_world* w) {
    WORLD_CHECK_UNLOCKED(w); /* not from inside itself */
    w->locked = 1;
    if (w->timing_detail)
        for (uint32_t i = 0; i < w->threads; i++) w->worker_ms[i][0] = w->worker_ms[i][1] = 0.0;
    double t0 = world_now_ms();
    world_lod_update(w);
    if (w->blocks_dirty) world_rebuild_blocks(w);
    double tw = world_now_ms();
    if (w->water.update) w->water.update(w->water.ctx, w->time, w->pool);
    world_run(w, w->count, 256, world_heave_job);
    double t1 = world_now_ms();
    world_run(w, w->vertex_block_count, 1, world_vertex_job);
    double t2 = world_now_ms();
    world_run(w, w->tri_block_count, 1, world_triangle_job);
    double t3 = world_now_ms();
    world_lines_resolve(w);
    world_run(w, w->count, 64, world_integrate_job);
    world_run(w, world_floater_chunks(w), 1, world_floater_job);
    world_ground_publish(w);
    double t4 = world_now_ms();
    world_pairs_step(w);
    double t5 = world_now_ms();
    w->timing.lod_ms = tw - t0;
    w->timing.water_ms = t1 - tw;
    w->timing.vertex_ms = t2 - t1;
    w->timing.triangle_ms = t3 - t2;
    w->timing.integrate_ms = t4 - t3;
    w->timing.contacts_ms = t5 - t4;
    w->timing.step_ms = t5 - t0;
    w->timing.vertex_cpu_ms = w->timing.triangle_cpu_ms = 0.0;
    if (w->timing_detail)
        for (uint32_t i = 0; i < w->threads; i++) {
            w->timing.vertex_cpu_ms += w->worker_ms[i][0];
            w->timing.triangle_cpu_ms += w->worker_ms[i][1];
        }
    world_lines_end_step(w);
    w->tick++;
    /* From the tick count, not by adding dt: no drift over days. */
    w->time = (double)w->tick * w->dt;
    w->locked = 0;
    world_damage_step(w);
}
