// SPDX-License-Identifier: MIT
#include "apply.h"

#include "log.h"
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
    /* A client's vessel is a player: levels of detail follow it. Only with
     * them on, so that a world without them keeps the flags it always had. */
    int player_failed = nv_world_get_lod(s->world).enabled && nv_world_set_player(s->world, *id, 1, &why);
    if (player_failed || owners_add_token(o, *id, pipe, token_out)) {
        /* Out of memory: undone (the world records the despawn as it did
         * the spawn, so a replay does the same). */
        nv_world_despawn(s->world, *id, NULL);
        return nv_error_fail(err, NV_ENOMEM, "no %s entry could be made for vessel %u (out of memory)",
                             player_failed ? "player" : "owner", *id);
    }
    /* The world recorded its spawn; the token is the server's. */
    if (s->rec) record_owner(s->rec, nv_world_tick(s->world), *id, token_out);
    return 0;
}

int apply_control(sim* s, uint32_t id, double throttle, double rudder, int* released, nv_error* err) {
    if (released) *released = 0;
    if (nv_world_set_controls(s->world, id, throttle, rudder, err)) return -1;
    int was = autopilot_remove(s->pilot, id);
    if (released) *released = was;
    return 0;
}

int apply_despawn(sim* s, owners* o, uint32_t id, nv_error* err) {
    if (nv_world_despawn(s->world, id, err)) return -1;
    owners_remove(o, id);
    autopilot_remove(s->pilot, id);
    return 0;
}

int apply_breach(sim* s, uint32_t id, const double point[3], double area, uint32_t* compartment, nv_error* err) {
    if (nv_world_breach(s->world, id, v3(point[0], point[1], point[2]), area, err)) return -1;
    const nv_flood_state* f = nv_world_flood_of(s->world, id);
    if (compartment) *compartment = f->holes[f->hole_count - 1].compartment;
    return 0;
}

int apply_pumps(sim* s, uint32_t id, int on, nv_error* err) { return nv_world_set_pumps(s->world, id, on, err); }

uint32_t apply_removals(sim* s, owners* o, void (*removed)(void* ctx, uint32_t id, uint32_t pipe), void* ctx) {
    uint32_t n, gone = 0;
    const nv_world_damage_event* e = nv_world_damage_events(s->world, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].kind != WORLD_DAMAGE_REMOVED) continue;
        owned* own = owners_find(o, e[i].id);
        if (removed) removed(ctx, e[i].id, own ? own->pipe : 0);
        owners_remove(o, e[i].id);
        autopilot_remove(s->pilot, e[i].id);
        gone++;
    }
    return gone;
}

void apply_scenario_events(sim* s) {
    double now = nv_world_time(s->world) + 0.5 / s->tick_hz;
    for (; s->event_next < s->event_count && s->events[s->event_next].time <= now; s->event_next++) {
        const nv_scenario_event* e = &s->events[s->event_next];
        double point[3] = {e->point.x, e->point.y, e->point.z};
        nv_error err;
        if (apply_breach(s, e->vessel, point, e->area, NULL, &err))
            log_warn("scenario events[%u] at %g s: %s", s->event_next, e->time, err.message);
        else
            log_info("scenario events[%u]: vessel %u holed, %g m^2", s->event_next, e->vessel, e->area);
    }
}
