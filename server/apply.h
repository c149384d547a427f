// SPDX-License-Identifier: MIT
/* The changes to the world between ticks, in one place for naval-server's
 * requests (commands.c, the orphan reaper) and naval-replay's log: each
 * applies the change to the world, and what is the server's own to the
 * vessel owners and the autopilot. The world records its own changes
 * (sim->rec is its recorder: record_attach), only those that succeeded;
 * what these add to the log is the server's (a spawned vessel's token).
 * The caller has checked who may do what (tokens, limits, ranges). Loop
 * thread only. */
#ifndef NAVAL_SERVER_APPLY_H
#define NAVAL_SERVER_APPLY_H

#include <stdint.h>

#include "naval/nv_error.h"
#include "owners.h"
#include "proto.h"
#include "sim.h"

/* A vessel of `type` afloat at (x, z), owned by connection `pipe` (0: an
 * orphan) with `token`, or with a fresh random one when token is NULL;
 * *id and *token_out get what it has. On failure nothing changed. */
int apply_spawn(sim* s, owners* o, uint32_t pipe, uint32_t type, double x, double z, double heading,
                const proto_token* token, uint32_t* id, proto_token* token_out, nv_error* err);

/* New commands for a vessel; the autopilot lets go of it (*released, may
 * be NULL: 1 when it was piloted). Non-finite values are refused. */
int apply_control(sim* s, uint32_t id, double throttle, double rudder, int* released, nv_error* err);

/* The vessel leaves the world, its owner entry and the autopilot. */
int apply_despawn(sim* s, owners* o, uint32_t id, nv_error* err);

/* A hole of `area` m^2 at `point` (body frame about the CG) in vessel id;
 * *compartment (may be NULL) gets the compartment holed. */
int apply_breach(sim* s, uint32_t id, const double point[3], double area, uint32_t* compartment, nv_error* err);

/* The vessel's pumps on or off. */
int apply_pumps(sim* s, uint32_t id, int on, nv_error* err);

/* The scenario's damage due by the next step's start (sim->events from
 * sim->event_next), applied and recorded as breaches; one that cannot be
 * done is logged and skipped (the server runs on). */
void apply_scenario_events(sim* s);

/* After a step: vessels the world removed (sunk past the removal depth)
 * leave their owner entries and the autopilot; `removed` (may be NULL)
 * gets each one's owner connection first (0: none), in event order. Returns
 * how many were removed. */
uint32_t apply_removals(sim* s, owners* o, void (*removed)(void* ctx, uint32_t id, uint32_t pipe), void* ctx);

#endif
