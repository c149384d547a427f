// SPDX-License-Identifier: MIT
/* Recording at the API boundary (naval/world.h, NV_WORLD_OPS): the world
 * calls the attached recorder from inside each nv_world_* operation that
 * succeeded (WORLD_RECORD in world_internal.h); this file attaches it,
 * names the operations and replays one. */
#include "world_internal.h"

void nv_world_set_recorder(nv_world* w, const nv_world_recorder* r, void* arg) {
    w->recorder = r;
    w->recorder_arg = r ? arg : NULL;
}

const nv_world_recorder* nv_world_get_recorder(const nv_world* w, void** arg) {
    if (arg) *arg = w->recorder_arg;
    return w->recorder;
}

const char* nv_world_op_name(nv_world_op_kind kind) {
    static const char* const names[] = {
#define WORLD_OP_NAME_(NAME, name, FIELDS) #name,
        NV_WORLD_OPS(WORLD_OP_NAME_)
#undef WORLD_OP_NAME_
    };
    return (unsigned)kind < NV_WORLD_OP_COUNT ? names[kind] : NULL;
}

int nv_world_apply_op(nv_world* w, const nv_world_op* op, nv_error* err) {
    switch (op->kind) {
    case NV_WORLD_OP_SPAWN: {
        const nv_world_op_spawn* o = &op->u.spawn;
        uint32_t id;
        if (nv_world_spawn(w, o->type, o->position, o->orientation, &id, err)) return -1;
        if (id != o->id)
            return nv_error_fail(err, NV_EINTERNAL, "spawn: the world gave vessel %u, the recording says %u", id,
                                 o->id);
        return 0;
    }
    case NV_WORLD_OP_DESPAWN:
        return nv_world_despawn(w, op->u.despawn.id, err);
    case NV_WORLD_OP_VELOCITY:
        return nv_world_set_velocity(w, op->u.velocity.id, op->u.velocity.velocity, op->u.velocity.angular_velocity,
                                     err);
    case NV_WORLD_OP_CONTROLS:
        return nv_world_set_controls(w, op->u.controls.id, op->u.controls.throttle, op->u.controls.rudder, err);
    case NV_WORLD_OP_BREACH:
        return nv_world_breach(w, op->u.breach.id, op->u.breach.point, op->u.breach.area, err);
    case NV_WORLD_OP_PUMPS:
        return nv_world_set_pumps(w, op->u.pumps.id, op->u.pumps.on, err);
    case NV_WORLD_OP_MODEL:
        return nv_world_set_vessel_model(w, op->u.model.id, op->u.model.model, err);
    case NV_WORLD_OP_PLAYER:
        return nv_world_set_player(w, op->u.player.id, op->u.player.player, err);
    case NV_WORLD_OP_LOD:
        nv_world_set_lod(w, &op->u.lod.lod);
        return 0;
    case NV_WORLD_OP_WIND:
        if (!v3_is_finite(op->u.wind.wind)) return nv_error_set(err, "wind: must be finite");
        nv_world_set_wind(w, op->u.wind.wind);
        return 0;
    case NV_WORLD_OP_CONTACTS:
        return nv_world_set_contacts(w, &op->u.contacts.params, err);
    case NV_WORLD_OP_SUNK_REMOVAL_DEPTH:
        return nv_world_set_sunk_removal_depth(w, op->u.sunk_removal_depth.depth, err);
    case NV_WORLD_OP_COUNT:
        break;
    }
    return nv_error_set(err, "unknown world operation %d", (int)op->kind);
}
