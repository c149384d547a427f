// SPDX-License-Identifier: MIT
/* Player views: what each client of a server or relay receives of the sea
 * (docs/protocol.md, "Player views"; docs/clients.md, "Views").
 *
 * A view is a centre and a radius (or discs around the player's own
 * vessels), a bandwidth budget, and the updates the client acknowledged.
 * Every tick, for every view, in parallel on a job pool:
 *  - the vessels in it are found on a grid built once per tick;
 *  - each gains priority at a rate that grows with nearness, ownership and
 *    speed (Fiedler's priority accumulator), and the packet is filled in
 *    priority order up to what the budget has saved (a token bucket);
 *  - each vessel goes as a difference to its state in the updates the
 *    client acknowledged, predicted from its two last acknowledged samples,
 *    in steps that grow with its distance (2 mm near, 12.5 cm far);
 *    vessels new to the client enter whole, and those it must forget leave.
 * A view with nothing to send still gets an empty update once per
 * keyframe interval (its client can tell an empty sea from a lost server).
 * Damage (view_hub_set_damage): the damaged vessels the client holds go
 * with keyframes and enters, when new or when their flags or holes change,
 * and all at most a second apart; the damage events of vessels in the
 * view wait in the view (at most PROTO_VIEW_MAX_DAMAGE_EVENTS) for its
 * next update, and go again when that update is lost.
 * A client that stops acknowledging (32 updates outstanding) gets only
 * keyframes, once per keyframe interval, until it acknowledges one; memory
 * per view is bounded by its vessel cap. A vessel outside every disc a
 * view may hold is never sent to it: the radius is capped.
 *
 * The hub owns nothing of the caller's: it reads the frame's vessels during
 * view_hub_encode only. Not thread-safe: one thread calls everything (the
 * encode fans out on the pool itself). Prefix view_. */
#ifndef NAVAL_VIEW_H
#define NAVAL_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "naval/jobs.h"
#include "naval/nv_error.h"
#include "proto.h"

typedef struct view_config {
    double tick_hz;                /* ticks per second of the frames */
    double update_hz;              /* updates per second a view gets at most (every tick_hz / update_hz
                                      ticks, views staggered over the ticks between) */
    float max_radius;              /* m: the largest radius a view gets */
    uint32_t default_budget_kbps;  /* a view that names no budget */
    uint32_t max_budget_kbps;      /* the largest budget a view gets */
    uint32_t max_vessels;          /* vessels one view holds at most (the nearest) */
    uint32_t max_views;            /* views open at once */
    double keyframe_interval_s;    /* keyframes to a client that stopped acknowledging */
    double changes_per_s;          /* settings changes a view may make per second (burst: as many) */
    int allow_own;                 /* own vessels may be named (a relay cannot check tokens) */
} view_config;

void view_config_default(view_config* c);

/* 1 when `token` controls vessel `id` (the server's owners). */
typedef int view_check_owner_fn(void* arg, uint32_t id, const proto_token* token);

typedef struct view_hub view_hub;

int view_hub_create(view_hub** out, const view_config* cfg, view_check_owner_fn* check, void* arg, nv_error* err);
void view_hub_destroy(view_hub* h);
/* The server's tcp request port, announced in every update on no base
 * (a view's first ones, keyframes); 0: none (a relay, whose requests go
 * elsewhere, leaves it so). */
void view_hub_set_command_port(view_hub* h, uint16_t port);

/* A connection becomes a view (it gets updates once it sent its settings).
 * NV_ELIMIT when max_views are open. */
int view_open(view_hub* h, uint32_t conn, nv_error* err);
void view_close(view_hub* h, uint32_t conn);
uint32_t view_count(const view_hub* h);

/* A ViewRequest from conn. -1 with why it was refused (its ack, when it
 * decoded, still counts); the caller answers with view_refusal. */
int view_handle(view_hub* h, uint32_t conn, const void* msg, size_t size, nv_error* err);
/* The ViewUpdate that tells conn why its request was refused (status from
 * the error's code), or why it is no view at all (view_open refused it);
 * valid until the next call on the hub. */
int view_refusal(view_hub* h, uint32_t conn, const nv_error* why, const uint8_t** data, size_t* size);

typedef struct view_frame {
    uint64_t tick;
    double sim_time;
    uint64_t send_time_ns;
    const proto_vessel* vessels;   /* any order */
    uint32_t count;
    const proto_contact* contacts; /* begun this tick (a snapshot's contacts); may be NULL with 0 */
    uint32_t contact_count;
} view_frame;

/* This tick's damage for the next view_hub_encode (docs/protocol.md,
 * "Damage"): every damaged vessel of the frame (a proto_snapshot's
 * damage) and the damage events since the previous frame (its
 * damage_events). The hub reads the arrays during that encode only (they
 * must live until it returns) and forgets them after: a tick without this
 * call has no damaged vessels and no events. -1 (nothing taken) when an
 * entry has more than PROTO_MAX_COMPARTMENTS or an event an unknown kind. */
int view_hub_set_damage(view_hub* h, const proto_vessel_damage* damage, uint32_t damage_count,
                        const proto_damage_event* events, uint32_t event_count, nv_error* err);

/* Encodes this tick's update for every view that has one due (pool may be
 * NULL: on the caller). -1 only when out of memory. */
int view_hub_encode(view_hub* h, const view_frame* f, nv_jobs* pool, nv_error* err);
/* The updates of the last encode: index 0 .. count - 1; data valid until
 * the next encode. */
uint32_t view_hub_output_count(const view_hub* h);
void view_hub_output(const view_hub* h, uint32_t i, uint32_t* conn, const uint8_t** data, size_t* size);

typedef struct view_stats {
    uint32_t views;               /* open */
    uint32_t fallback;            /* getting keyframes only */
    uint64_t updates, keyframes;  /* sent since start */
    uint64_t bytes;
    uint64_t records;
    uint64_t refusals;
    uint64_t damage_entries;         /* VesselDamage entries sent */
    uint64_t damage_events;          /* DamageEvents sent (again, when an update was lost) */
    uint64_t damage_events_dropped;  /* over a view's PROTO_VIEW_MAX_DAMAGE_EVENTS waiting */
} view_stats;

void view_hub_stats(const view_hub* h, view_stats* out);

#endif
