// SPDX-License-Identifier: MIT
/* A vessel's whole state out of the world and back in (the checkpoints'
 * records, core/checkpoint_world.c), the id counter and the clock: what a
 * restored world needs to step on as the saved one would have. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydrodyn_lanes.h"
#include "naval/checkpoint.h"
#include "naval/world.h"
#include "world_internal.h"

/* A per-vessel array added to world_vessels must also travel in
 * world_vessel_record (export, restore) and core/checkpoint_world.c, or restored
 * worlds lose it: this fails the build until that is done. */
/* (contact_points and penetration are not carried: the last step's
 * readings, made again by the next step and read by nothing in it; nor is
 * handle: the core's own, bound again when the vessel is restored.) */
_Static_assert(WORLD_VESSEL_ARRAYS == 40,
               "world_vessels changed: add the field to world_vessel_record, nv_world_export_vessel, "
               "nv_world_restore_vessel and core/checkpoint_world.c");

int nv_world_export_vessel(const nv_world* w, uint32_t slot, nv_world_vessel_record* out) {
    if (slot >= w->count) return -1;
    memset(out, 0, sizeof *out); /* padding too: records compare with memcmp */
    const world_vessels* v = &w->v;
    uint32_t s = slot;
    out->id = v->id[s];
    out->type = v->type[s];
    out->flags = v->flags[s];
    out->model = (nv_world_model)v->model[s];
    out->position = v3(v->px[s], v->py[s], v->pz[s]);
    out->orientation.w = v->qw[s], out->orientation.x = v->qx[s], out->orientation.y = v->qy[s],
    out->orientation.z = v->qz[s];
    out->velocity = v3(v->vx[s], v->vy[s], v->vz[s]);
    out->angular_momentum = v3(v->lx[s], v->ly[s], v->lz[s]);
    out->angular_velocity = v3(v->wx[s], v->wy[s], v->wz[s]);
    out->force = v3(v->fx[s], v->fy[s], v->fz[s]);
    out->torque = v3(v->tx[s], v->ty[s], v->tz[s]);
    out->submerged_area = v->area[s];
    out->throttle_cmd = v->throttle_cmd[s];
    out->rudder_cmd = v->rudder_cmd[s];
    out->throttle = v->throttle[s];
    out->rudder = v->rudder[s];
    out->water_vy = v->water_vy[s];
    out->slam = v->slam[s];
    out->slam_count = v->slam[s] ? w->types[v->type[s]].hull.triangle_count : 0;
    out->flood = v->flood[s];
    return 0;
}

/* A flood state the vessel's type can hold: its compartments, water
 * within each one's volume, holes in them. */
static int world_check_flood(const world_type* t, const nv_world_vessel_record* r, nv_error* err) {
    const nv_compartment_set* cs = t->compartments;
    const nv_flood_state* f = r->flood;
    if (!cs) return nv_error_set(err, "restore: vessel %u is damaged but hull type '%s' has no compartments", r->id, t->name);
    if (f->hole_count > FLOOD_MAX_HOLES)
        return nv_error_set(err, "restore: vessel %u: %u holes, at most %d", r->id, f->hole_count, FLOOD_MAX_HOLES);
    for (uint32_t i = 0; i < f->hole_count; i++)
        if (f->holes[i].compartment >= cs->count || !(f->holes[i].area > 0.0) || !isfinite(f->holes[i].area) ||
            !v3_is_finite(f->holes[i].point))
            return nv_error_set(err, "restore: vessel %u: hole %u in compartment %u of %u (area %g m^2)", r->id, i,
                                f->holes[i].compartment, cs->count, f->holes[i].area);
    for (uint32_t k = 0; k < COMPARTMENT_MAX; k++) {
        double room = k < cs->count ? cs->volume[k] : 0.0;
        if (!(f->volume[k] >= 0.0) || !(f->volume[k] <= room) || !isfinite(f->level[k]))
            return nv_error_set(err, "restore: vessel %u: compartment %u holds %g m^3 of water, room for %g", r->id, k,
                                f->volume[k], room);
    }
    return 0;
}

static int world_record_is_finite(const nv_world_vessel_record* r) {
    return v3_is_finite(r->position) && v3_is_finite(r->velocity) && v3_is_finite(r->angular_momentum) &&
           v3_is_finite(r->angular_velocity) && isfinite(r->orientation.w) && isfinite(r->orientation.x) &&
           isfinite(r->orientation.y) && isfinite(r->orientation.z) && isfinite(r->throttle_cmd) &&
           isfinite(r->rudder_cmd) && isfinite(r->throttle) && isfinite(r->rudder);
}

int nv_world_restore_vessel(nv_world* w, const nv_world_vessel_record* r, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (r->type >= w->type_count)
        return nv_error_set(err, "restore: vessel %u: no hull type %u (the world has %u)", r->id, r->type,
                            w->type_count);
    if (r->id == UINT32_MAX) return nv_error_set(err, "restore: vessel id %u is not a usable id", r->id);
    if (world_slot_of(w, r->id) != UINT32_MAX) return nv_error_set(err, "restore: vessel id %u is in use already", r->id);
    const world_type* t = &w->types[r->type];
    if (r->model != WORLD_MODEL_MESH && r->model != WORLD_MODEL_COLUMNS && r->model != WORLD_MODEL_FLOATER)
        return nv_error_set(err, "restore: vessel %u: unknown model %d", r->id, (int)r->model);
    if (r->model == WORLD_MODEL_COLUMNS && !t->columns)
        return nv_error_set(err, "restore: vessel %u is on columns but hull type '%s' has no column model", r->id,
                            t->name);
    /* A world never holds a non-finite pose (a vessel that went non-finite
     * keeps its last finite one), so such a record is not a world's. */
    if (!world_record_is_finite(r)) return nv_error_set(err, "restore: vessel %u: its state is not finite", r->id);
    nv_quat q = r->orientation;
    double qn = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(fabs(qn - 1.0) < 1e-6))
        return nv_error_set(err, "restore: vessel %u: the orientation is not a unit quaternion (norm %.9g)", r->id, qn);
    uint32_t keeps = t->model && t->model->slamming ? t->hull.triangle_count : 0;
    if (r->slam_count != keeps || (keeps && !r->slam))
        return nv_error_set(err, "restore: vessel %u: %u triangles of slamming memory, but hull type '%s' keeps %u",
                            r->id, r->slam_count, t->name, keeps);
    for (uint32_t i = 0; i < keeps; i++)
        if (!hydrodyn_half_is_canonical(r->slam[i]))
            return nv_error_set(err,
                                "restore: vessel %u: slamming memory of triangle %u is 0x%04x, not a value the world "
                                "writes (a zero or a normal half float)",
                                r->id, i, (unsigned)r->slam[i]);
    if (r->flood && world_check_flood(t, r, err)) return -1;
    if (world_reserve_vessels(w, w->count + 1, err)) return -1;
    if (world_reserve_for(w, &t->hull, err)) return -1;
    if ((r->flags & WORLD_VESSEL_PLAYER) && world_reserve_player(w, err)) return -1;
    if (world_ids_reserve(w, err)) return nv_error_prefix(err, "restore: vessel %u", r->id);
    nv_flood_state* flood = NULL;
    if (r->flood && !(flood = malloc(sizeof *flood)))
        return nv_error_fail(err, NV_ENOMEM, "restore: vessel %u: out of memory for its flooding", r->id);
    if (flood) *flood = *r->flood;
    uint16_t* slam = NULL;
    if (keeps) {
        slam = world_slam_alloc(&t->hull);
        if (!slam) {
            free(flood);
            return nv_error_fail(err, NV_ENOMEM, "restore: vessel %u: out of memory for the slamming state", r->id);
        }
        memcpy(slam, r->slam, keeps * sizeof(uint16_t));
    }
    /* Ids stay ids: the counter moves past the restored one, so no spawn
     * issues it again. */
    if (r->id >= w->next_id) w->next_id = r->id + 1;
    uint32_t s = w->count++;
    world_vessels* v = &w->v;
    v->id[s] = r->id;
    world_bind_id(w, r->id, s);
    v->type[s] = r->type;
    v->flags[s] = r->flags;
    v->model[s] = (uint32_t)r->model;
    v->px[s] = r->position.x, v->py[s] = r->position.y, v->pz[s] = r->position.z;
    v->qw[s] = q.w, v->qx[s] = q.x, v->qy[s] = q.y, v->qz[s] = q.z;
    v->vx[s] = r->velocity.x, v->vy[s] = r->velocity.y, v->vz[s] = r->velocity.z;
    v->lx[s] = r->angular_momentum.x, v->ly[s] = r->angular_momentum.y, v->lz[s] = r->angular_momentum.z;
    v->wx[s] = r->angular_velocity.x, v->wy[s] = r->angular_velocity.y, v->wz[s] = r->angular_velocity.z;
    v->fx[s] = r->force.x, v->fy[s] = r->force.y, v->fz[s] = r->force.z;
    v->tx[s] = r->torque.x, v->ty[s] = r->torque.y, v->tz[s] = r->torque.z;
    v->area[s] = r->submerged_area;
    w->sv.ground_struck[s] = 0;
    v->contact_points[s] = 0;
    v->penetration[s] = 0.0f;
    v->throttle_cmd[s] = r->throttle_cmd;
    v->rudder_cmd[s] = r->rudder_cmd;
    v->throttle[s] = r->throttle;
    v->rudder[s] = r->rudder;
    v->water_vy[s] = r->water_vy;
    v->slam[s] = slam;
    v->flood[s] = flood;
    if (r->flags & WORLD_VESSEL_PLAYER) w->player_total++;
    world_count_vessel(w, &t->hull, +1);
    w->blocks_dirty = 1;
    return 0;
}

uint32_t nv_world_next_id(const nv_world* w) { return w->next_id; }

int nv_world_set_next_id(nv_world* w, uint32_t next_id, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (next_id < w->next_id)
        return nv_error_set(err, "restore: the next id %u is below ids already issued (up to %u)", next_id,
                            w->next_id - 1);
    w->next_id = next_id;
    return 0;
}

void nv_world_set_clock(nv_world* w, uint64_t tick) {
    WORLD_CHECK_UNLOCKED(w);
    w->tick = tick;
    w->time = (double)tick * w->dt; /* as nv_world_step computes it */
}

