// SPDX-License-Identifier: MIT
#include "apply.h"

#include "record.h"

int apply_spawn(sim* s, owners* o, uint32_t pipe, uint32_t type, double x, double z, double heading,
                const proto_token* token, uint32_t* id, proto_token* token_out, nv_error* err) {
    /* The token first: without one the world must not change (a spawn
     * takes an id for good, which a replay would have to repeat). */
    if (token) *token_out = *token;
    else if (owners_random_token(token_out))
        return nv_error_fail(err, NV_EINTERNAL, "no token could be made (out of entropy)");
    nv_error why;
    if (sim_spawn(s, type, x, z, heading, id, &why)) {
        if (err) *err = why; /* its code decides the answer's status */
        return nv_error_prefix(err, "spawn failed");
    }
    uint64_t tick = nv_world_tick(s->world);
    if (s->rec) record_spawn(s->rec, tick, *id, type, x, z, heading, token_out);
    /* A client's vessel is a player: levels of detail follow it. Only with
     * them on, so that a world without them keeps the flags it always had. */
    int player_failed = nv_world_get_lod(s->world).enabled && nv_world_set_player(s->world, *id, 1, &why);
    if (player_failed || owners_add_token(o, *id, pipe, token_out)) {
        /* Out of memory: undone, and the log says so for the replay. */
        nv_world_despawn(s->world, *id, NULL);
        if (s->rec) record_despawn(s->rec, tick, *id);
        return nv_error_fail(err, NV_ENOMEM, "no %s entry could be made for vessel %u (out of memory)",
                             player_failed ? "player" : "owner", *id);
    }
    return 0;
}

int apply_control(sim* s, uint32_t id, double throttle, double rudder, int* released, nv_error* err) {
    if (released) *released = 0;
    if (nv_world_set_controls(s->world, id, throttle, rudder, err)) return -1;
    if (s->rec) record_control(s->rec, nv_world_tick(s->world), id, throttle, rudder);
    int was = autopilot_remove(s->pilot, id);
    if (released) *released = was;
    return 0;
}

int apply_despawn(sim* s, owners* o, uint32_t id, nv_error* err) {
    if (nv_world_despawn(s->world, id, err)) return -1;
    if (s->rec) record_despawn(s->rec, nv_world_tick(s->world), id);
    owners_remove(o, id);
    autopilot_remove(s->pilot, id);
    return 0;
}
