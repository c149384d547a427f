// SPDX-License-Identifier: MIT
#include "commands.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "apply.h"
#include "log.h"
#include "naval/ranges.h"
#include "naval/vecmath.h"

/* Routine, and driven by clients: counted and summed per interval, each
 * one a DEBUG line (log.h), so no client can flood the log. */
static log_counter cmd_hellos = LOG_COUNTER("hellos");
static log_counter cmd_spawns = LOG_COUNTER("spawns");
static log_counter cmd_despawns = LOG_COUNTER("despawns");
static log_counter cmd_takeovers = LOG_COUNTER("vessels taken over");
static log_counter cmd_helms = LOG_COUNTER("demo vessels steered by an admin");
static log_counter cmd_orphanings = LOG_COUNTER("connections closed with vessels");
static log_counter cmd_removals = LOG_COUNTER("orphans removed");
static log_counter cmd_breaches = LOG_COUNTER("hulls holed by request");
static log_counter cmd_sunk = LOG_COUNTER("sunk vessels removed");
static log_counter cmd_refusals = LOG_COUNTER("requests refused");

/* Addresses remembered while quiet (their buckets and admin back-off
 * outlast a reconnect); past it the longest-quiet is forgotten. About
 * 150 bytes each. */
#define CMD_MAX_ADDRESSES 4096
/* A spawned boat starts clear of where the boats near it will be in the
 * next 15 s on their present courses (nv_world_find_free_water_ahead):
 * long enough for a helmsman to see it and turn, at 10 m/s 150 m of track. */
#define CMD_SPAWN_AHEAD_S 15.0
/* Addresses one refusal summary names; the rest are counted. */
#define CMD_SUMMARY_ADDRESSES 4

void cmd_init(cmd_server* c, sim* s, snap_builder* snap, net* n, metrics* m, const cfg_server* cfg) {
    memset(c, 0, sizeof *c);
    c->sim = s;
    c->snap = snap;
    c->net = n;
    c->m = m;
    c->cfg = cfg;
    const cfg_limits* l = &cfg->limits;
    clients_params p = {
        .rate = l->requests_per_second,
        .burst = l->request_burst,
        .address_rate = l->requests_per_second_per_address,
        .address_burst = l->request_burst_per_address,
        /* The edge holds connections to max_clients (making room by closing
         * idle ones); twice that here leaves slack for an open queued
         * before the close that made room for it. */
        .max = (uint32_t)(2 * l->max_clients),
        .max_addresses = CMD_MAX_ADDRESSES,
        .admin_failures = (uint32_t)l->admin_token_failures,
        .admin_window_s = l->admin_failure_window_s,
        .admin_backoff_s = l->admin_backoff_s,
    };
    clients_init(&c->clients, &p);
}

void cmd_free(cmd_server* c) {
    clients_free(&c->clients);
    owners_free(&c->owners);
    proto_free_buf(&c->out);
}

int cmd_secret_equal(const char* expected, const char* given) {
    /* Every byte of both buffers is read whatever they hold, so the time
     * says nothing about where a guess differs or how long the secret is. */
    volatile unsigned char diff = 0;
    unsigned char ended_e = 0, ended_g = 0;
    for (size_t i = 0; i < PROTO_SECRET_MAX; i++) {
        unsigned char e = ended_e ? 0 : (unsigned char)expected[i];
        unsigned char g = ended_g ? 0 : (unsigned char)given[i];
        ended_e |= e == 0;
        ended_g |= g == 0;
        diff |= (unsigned char)(e ^ g);
    }
    return diff == 0 && expected[0] != '\0';
}

/* ---- responses ------------------------------------------------------------- */

static void cmd_send(cmd_server* c, const cmdq_item* it, proto_body kind, proto_status status) {
    metrics_record_command(c->m, kind, status);
    net_reply(c->net, it->pipe, it->tag, c->out.data, c->out.size);
}

/* The answer to a request that failed; its line goes out at DEBUG (and
 * is counted in `counter` when given). Client text in fmt's arguments is
 * quoted by the caller (LOG_QUOTED); the log escapes anything left. */
static void cmd_vfail(cmd_server* c, const cmdq_item* it, log_counter* counter, uint64_t request_id, proto_body kind,
                      proto_status status, const char* fmt, va_list ap) NV_PRINTF_LIKE(7, 0);

static void cmd_vfail(cmd_server* c, const cmdq_item* it, log_counter* counter, uint64_t request_id, proto_body kind,
                      proto_status status, const char* fmt, va_list ap) {
    char why[PROTO_ERROR_MAX];
    vsnprintf(why, sizeof why, fmt, ap);
    if (counter)
        log_event(counter, "request %llu from connection %u refused: %s: %s", (unsigned long long)request_id,
                  it->pipe, proto_status_name(status), why);
    else
        log_debug("request %llu from connection %u: %s: %s", (unsigned long long)request_id, it->pipe,
                  proto_status_name(status), why);
    proto_error pe;
    if (proto_encode_error_response(&c->out, request_id, kind, status, why, &pe)) {
        log_error("cannot encode an error response: %s", pe.message);
        metrics_record_command(c->m, kind, PROTO_STATUS_INTERNAL);
        /* Free the context anyway: an empty reply fails the client's decode. */
        net_reply(c->net, it->pipe, it->tag, "", 0);
        return;
    }
    cmd_send(c, it, kind, status);
}

static void cmd_fail(cmd_server* c, const cmdq_item* it, uint64_t request_id, proto_body kind, proto_status status,
                     const char* fmt, ...) NV_PRINTF_LIKE(6, 7);

static void cmd_fail(cmd_server* c, const cmdq_item* it, uint64_t request_id, proto_body kind, proto_status status,
                     const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cmd_vfail(c, it, NULL, request_id, kind, status, fmt, ap);
    va_end(ap);
}

/* A refusal by a limit or a check of who may ask: counted in /metrics by
 * reason and against the connection's address (cl; NULL when untracked),
 * whose summary line names it once per interval (cmd_summarize), so that
 * a flood of refusals cannot flood the log. */
static void cmd_refuse(cmd_server* c, const cmdq_item* it, const client* cl, metrics_refusal reason,
                       uint64_t request_id, proto_body kind, proto_status status, const char* fmt, ...)
    NV_PRINTF_LIKE(8, 9);

static void cmd_refuse(cmd_server* c, const cmdq_item* it, const client* cl, metrics_refusal reason,
                       uint64_t request_id, proto_body kind, proto_status status, const char* fmt, ...) {
    metrics_record_refusal(c->m, reason);
    if (cl) clients_note_refusal(&c->clients, cl->address, metrics_refusal_name(reason));
    va_list ap;
    va_start(ap, fmt);
    cmd_vfail(c, it, &cmd_refusals, request_id, kind, status, fmt, ap);
    va_end(ap);
}

/* The connection's address in words, for messages. */
static const char* cmd_address_text(cmd_server* c, const client* cl) {
    const client_holder* a = cl ? clients_address(&c->clients, cl->address) : NULL;
    return a ? a->text : "an unknown address";
}

/* The answer to a request over a rate limit, naming it and whom it binds. */
static void cmd_rate_refusal(cmd_server* c, const cmdq_item* it, const client* cl, uint64_t rid, clients_verdict v) {
    if (v == CLIENTS_ADDRESS_RATE) {
        cmd_refuse(c, it, cl, METRICS_REFUSED_ADDRESS_RATE, rid, PROTO_BODY_NONE, PROTO_STATUS_RATE_LIMITED,
                   "more than %g requests per second (burst %g) from %s (limit per address)",
                   c->clients.p.address_rate, c->clients.p.address_burst, cmd_address_text(c, cl));
        return;
    }
    const client_holder* p = clients_player(&c->clients, cl->player);
    uint32_t n = p ? p->connections : 1;
    cmd_refuse(c, it, cl, METRICS_REFUSED_PLAYER_RATE, rid, PROTO_BODY_NONE, PROTO_STATUS_RATE_LIMITED,
               "more than %g requests per second (burst %g) from this player (limit per player, shared by its "
               "%u connection%s)",
               c->clients.p.rate, c->clients.p.burst, n, n == 1 ? "" : "s");
}

static void cmd_ok(cmd_server* c, const cmdq_item* it) {
    c->resp.request_id = c->req.request_id;
    c->resp.status = PROTO_STATUS_OK;
    c->resp.kind = c->req.kind;
    proto_error pe;
    if (proto_encode_response(&c->out, &c->resp, &pe)) {
        cmd_fail(c, it, c->req.request_id, c->req.kind, PROTO_STATUS_INTERNAL, "cannot encode the response: %s",
                 pe.message);
        return;
    }
    cmd_send(c, it, c->req.kind, PROTO_STATUS_OK);
}

/* ---- actions --------------------------------------------------------------- */

/* The connection plays as the player its hello names, from now on. A
 * connection whose player owns vessels keeps it: they would have to move
 * with it, past the new player's limits. -1 when refused (answered). */
static int cmd_join(cmd_server* c, const cmdq_item* it, client* cl, const proto_token* identity, uint64_t now_ns) {
    const client_holder* p = clients_player(&c->clients, cl->player);
    if (p && memcmp(p->key, identity->bytes, sizeof identity->bytes) == 0) return 0;
    if (p && p->vessels) {
        cmd_refuse(c, it, cl, METRICS_REFUSED_PLAYER_CHANGE, c->req.request_id, PROTO_BODY_HELLO,
                   PROTO_STATUS_BAD_REQUEST,
                   "this connection's player already owns %u vessel%s: a connection changes player only while its "
                   "player owns none (present the identity on a new connection)",
                   p->vessels, p->vessels == 1 ? "" : "s");
        return -1;
    }
    if (clients_join(&c->clients, cl, identity, now_ns)) {
        cmd_fail(c, it, c->req.request_id, PROTO_BODY_HELLO, PROTO_STATUS_INTERNAL,
                 "no player record could be made (out of memory)");
        return -1;
    }
    /* The request so far spent the bucket of the player it left. */
    if (!clients_charge_player(&c->clients, cl, now_ns)) {
        cmd_rate_refusal(c, it, cl, c->req.request_id, CLIENTS_PLAYER_RATE);
        return -1;
    }
    return 0;
}

static void cmd_hello(cmd_server* c, const cmdq_item* it, client* cl, uint64_t now_ns) {
    const proto_hello* h = &c->req.body.hello;
    if (h->protocol_version != PROTO_VERSION) {
        cmd_fail(c, it, c->req.request_id, PROTO_BODY_HELLO, PROTO_STATUS_UNSUPPORTED,
                 "protocol version %u is not supported: this server speaks version %u", h->protocol_version,
                 PROTO_VERSION);
        return;
    }
    if (h->has_player && cmd_join(c, it, cl, &h->player, now_ns)) return;
    const client_holder* p = clients_player(&c->clients, cl->player);
    proto_hello_reply* r = &c->resp.body.hello;
    r->protocol_version = PROTO_VERSION;
    snprintf(r->server_name, sizeof r->server_name, "%s", c->cfg->server_name);
    r->tick_hz = c->sim->tick_hz;
    r->max_vessels_per_client = (uint32_t)c->cfg->limits.vessels_per_client;
    /* The identity in effect, so that the client can present it on its
     * other connections. */
    if (p) {
        r->has_player = 1;
        memcpy(r->player.bytes, p->key, sizeof r->player.bytes);
    }
    log_event(&cmd_hellos, "hello from %s on connection %u from %s (its player has %u connection%s)",
              LOG_QUOTED(h->client_name), it->pipe, cmd_address_text(c, cl), p ? p->connections : 0,
              p && p->connections == 1 ? "" : "s");
    cmd_ok(c, it);
}

/* Whether the connection's player and address may own one more vessel
 * (those that do not change hands are not checked); -1 when not
 * (answered, naming the limit and whom it binds). */
static int cmd_vessel_room(cmd_server* c, const cmdq_item* it, const client* cl, proto_body kind, int check_player,
                           int check_address, const char* doing) {
    uint32_t per_player = (uint32_t)c->cfg->limits.vessels_per_client;
    uint32_t per_address = (uint32_t)c->cfg->limits.vessels_per_address;
    const client_holder* p = clients_player(&c->clients, cl->player);
    const client_holder* a = clients_address(&c->clients, cl->address);
    if (check_player && p && p->vessels >= per_player) {
        cmd_refuse(c, it, cl, METRICS_REFUSED_PLAYER_VESSELS, c->req.request_id, kind, PROTO_STATUS_LIMIT_EXCEEDED,
                   "%sthis player already owns %u vessels (limit %u per player)", doing, p->vessels, per_player);
        return -1;
    }
    if (check_address && a && a->vessels >= per_address) {
        cmd_refuse(c, it, cl, METRICS_REFUSED_ADDRESS_VESSELS, c->req.request_id, kind, PROTO_STATUS_LIMIT_EXCEEDED,
                   "%sthe players of %s already own %u vessels (limit %u per address)", doing, a->text, a->vessels,
                   per_address);
        return -1;
    }
    return 0;
}

/* Headings within the bounds a scenario's heading_deg has (naval/ranges.h):
 * one turn either way; more is a slip of units (degrees sent as radians). */
static int cmd_heading_ok(cmd_server* c, const cmdq_item* it, double heading) {
    const nv_range* turn = nv_range_get(NV_RANGE_WORLD_HEADING);
    if (nv_range_contains(turn, heading * (180.0 / NV_PI))) return 0;
    char range[96];
    nv_range_describe(turn, range, sizeof range);
    cmd_fail(c, it, c->req.request_id, PROTO_BODY_SPAWN, PROTO_STATUS_BAD_REQUEST,
             "heading %g rad: must be %s (%.4f rad either way), as a scenario's heading_deg", heading, range,
             turn->hi * (NV_PI / 180.0));
    return -1;
}

static void cmd_spawn(cmd_server* c, const cmdq_item* it, client* cl, int admin) {
    const proto_spawn* s = &c->req.body.spawn;
    uint64_t rid = c->req.request_id;
    nv_world* w = c->sim->world;
    int type = s->type_name[0] ? nv_world_find_hull_type(w, s->type_name) : (int)s->type;
    if (type < 0 || (uint32_t)type >= nv_world_hull_type_count(w)) {
        if (s->type_name[0])
            cmd_fail(c, it, rid, PROTO_BODY_SPAWN, PROTO_STATUS_NOT_FOUND, "no vessel type named %s",
                     LOG_QUOTED(s->type_name));
        else
            cmd_fail(c, it, rid, PROTO_BODY_SPAWN, PROTO_STATUS_NOT_FOUND, "no vessel type %u (the world has %u)",
                     s->type, nv_world_hull_type_count(w));
        return;
    }
    /* Spawns outside the world's positions (naval/ranges.h) are refused: far
     * outside any sea a client could see, and a float there is coarse
     * (docs/protocol.md). */
    const nv_range* place = nv_range_get(NV_RANGE_WORLD_POSITION);
    if (!nv_range_contains(place, s->x) || !nv_range_contains(place, s->z)) {
        char range[96];
        nv_range_describe(place, range, sizeof range);
        cmd_fail(c, it, rid, PROTO_BODY_SPAWN, PROTO_STATUS_BAD_REQUEST,
                 "position (%g, %g): each coordinate must be %s", s->x, s->z, range);
        return;
    }
    if (cmd_heading_ok(c, it, s->heading)) return;
    uint32_t total = nv_world_vessel_count(w);
    if (total >= (uint32_t)c->cfg->limits.vessels_total) {
        cmd_refuse(c, it, cl, METRICS_REFUSED_WORLD_FULL, rid, PROTO_BODY_SPAWN, PROTO_STATUS_LIMIT_EXCEEDED,
                   "the world is full: %u vessels (limit %u)", total, (uint32_t)c->cfg->limits.vessels_total);
        return;
    }
    /* The admin spawns past the limits; its vessels still count. */
    if (!admin && cmd_vessel_room(c, it, cl, PROTO_BODY_SPAWN, 1, 1, "")) return;
    uint32_t id;
    nv_error err;
    proto_spawn_reply* r = &c->resp.body.spawn;
    /* The nearest free water: clear of the other hulls, of the tracks
     * their present velocities give them for CMD_SPAWN_AHEAD_S, of the
     * structures and the land (nv_world_find_free_water_ahead), or refused
     * with the reason. The record log gets the placed position
     * (apply_spawn). */
    double x = s->x, z = s->z;
    if (!c->cfg->spawn_anywhere &&
        nv_world_find_free_water_ahead(w, (uint32_t)type, s->x, s->z, s->heading, c->cfg->spawn_search,
                                       c->cfg->spawn_clearance, CMD_SPAWN_AHEAD_S, &x, &z, NULL, &err)) {
        cmd_fail(c, it, rid, PROTO_BODY_SPAWN, proto_status_of(err.code), "%s", err.message);
        return;
    }
    if (!nv_range_contains(place, x) || !nv_range_contains(place, z)) {
        cmd_fail(c, it, rid, PROTO_BODY_SPAWN, PROTO_STATUS_LIMIT_EXCEEDED,
                 "no free water within the world's positions near (%g, %g)", s->x, s->z);
        return;
    }
    if (apply_spawn(c->sim, &c->owners, it->pipe, (uint32_t)type, x, z, s->heading, NULL, &id, &r->token,
                    &err)) {
        cmd_fail(c, it, rid, PROTO_BODY_SPAWN, proto_status_of(err.code), "%s", err.message);
        return;
    }
    owned* o = owners_find(&c->owners, id);
    if (o) {
        o->player = cl->player;
        o->address = cl->address;
        clients_add_vessel(&c->clients, o->player, o->address);
    }
    r->vessel_id = id;
    r->x = x;
    r->z = z;
    atomic_store_explicit(&c->m->vessels, nv_world_vessel_count(w), memory_order_relaxed);
    log_event(&cmd_spawns, "connection %u spawned vessel %u (%s) at (%.1f, %.1f), asked (%.1f, %.1f)", it->pipe,
              id, nv_world_hull_type_name(w, (uint32_t)type), x, z, s->x, s->z);
    cmd_ok(c, it);
}

/* The vessel a control or despawn names, if the request may act on it.
 * Takes over an orphan (or a vessel of another connection) when the token
 * is right: it then counts against the taker's player and address, within
 * their limits. Admins may act on any vessel, the demo fleet included. */
static int cmd_authorize(cmd_server* c, const cmdq_item* it, client* cl, int admin, uint32_t id,
                         const proto_token* token, proto_body kind) {
    uint64_t rid = c->req.request_id;
    nv_world_vessel_state st;
    if (nv_world_vessel_get(c->sim->world, id, &st) != 0) {
        cmd_fail(c, it, rid, kind, PROTO_STATUS_NOT_FOUND, "no vessel %u", id);
        return -1;
    }
    owned* o = owners_find(&c->owners, id);
    if (admin) return 0;
    if (!o || !proto_equal_tokens(&o->token, token)) {
        /* The same answer for "not yours" and "wrong token": a prober
         * learns nothing about which vessels clients own. */
        cmd_refuse(c, it, cl, METRICS_REFUSED_VESSEL_TOKEN, rid, kind, PROTO_STATUS_UNAUTHORIZED,
                   "wrong token for vessel %u", id);
        return -1;
    }
    if (o->pipe == it->pipe) return 0;
    char doing[64];
    snprintf(doing, sizeof doing, "taking over vessel %u: ", id);
    if (cmd_vessel_room(c, it, cl, kind, o->player != cl->player, o->address != cl->address, doing)) return -1;
    if (o->player != cl->player || o->address != cl->address) {
        clients_drop_vessel(&c->clients, o->player, o->address);
        o->player = cl->player;
        o->address = cl->address;
        clients_add_vessel(&c->clients, o->player, o->address);
    }
    o->pipe = it->pipe;
    o->orphan_since_ns = 0;
    log_event(&cmd_takeovers, "connection %u took over vessel %u", it->pipe, id);
    return 0;
}

static void cmd_control(cmd_server* c, const cmdq_item* it, client* cl, int admin) {
    const proto_control* k = &c->req.body.control;
    if (cmd_authorize(c, it, cl, admin, k->vessel_id, &k->token, PROTO_BODY_CONTROL)) return;
    nv_error err;
    int released;
    /* The decoder refuses non-finite and out-of-range values already; the
     * world checks again (and clamps) so no path can smuggle them in. */
    if (apply_control(c->sim, k->vessel_id, k->throttle, k->rudder, &released, &err)) {
        cmd_fail(c, it, c->req.request_id, PROTO_BODY_CONTROL, proto_status_of(err.code), "%s", err.message);
        return;
    }
    if (released)
        log_event(&cmd_helms, "admin on connection %u took the helm of demo vessel %u", it->pipe, k->vessel_id);
    cmd_ok(c, it);
}

static void cmd_despawn(cmd_server* c, const cmdq_item* it, client* cl, int admin) {
    const proto_despawn* d = &c->req.body.despawn;
    if (cmd_authorize(c, it, cl, admin, d->vessel_id, &d->token, PROTO_BODY_DESPAWN)) return;
    nv_error err;
    owned* o = owners_find(&c->owners, d->vessel_id);
    uint32_t player = o ? o->player : CLIENTS_NONE, address = o ? o->address : CLIENTS_NONE;
    if (apply_despawn(c->sim, &c->owners, d->vessel_id, &err)) {
        cmd_fail(c, it, c->req.request_id, PROTO_BODY_DESPAWN, proto_status_of(err.code), "%s", err.message);
        return;
    }
    clients_drop_vessel(&c->clients, player, address);
    atomic_store_explicit(&c->m->vessels, nv_world_vessel_count(c->sim->world), memory_order_relaxed);
    log_event(&cmd_despawns, "connection %u despawned vessel %u", it->pipe, d->vessel_id);
    cmd_ok(c, it);
}

/* Admin only: game logic holes a hull (a torpedo, a shell, a reef the
 * game knows of). */
static void cmd_damage(cmd_server* c, const cmdq_item* it, int admin) {
    const proto_damage* d = &c->req.body.damage;
    uint64_t rid = c->req.request_id;
    if (!admin) {
        cmd_fail(c, it, rid, PROTO_BODY_DAMAGE, PROTO_STATUS_UNAUTHORIZED, "damage needs the admin token");
        return;
    }
    nv_world_vessel_state st;
    if (nv_world_vessel_get(c->sim->world, d->vessel_id, &st) != 0) {
        cmd_fail(c, it, rid, PROTO_BODY_DAMAGE, PROTO_STATUS_NOT_FOUND, "no vessel %u", d->vessel_id);
        return;
    }
    double point[3] = {d->point[0], d->point[1], d->point[2]};
    uint32_t compartment;
    nv_error err;
    if (apply_breach(c->sim, d->vessel_id, point, d->area, &compartment, &err)) {
        cmd_fail(c, it, rid, PROTO_BODY_DAMAGE, proto_status_of(err.code), "%s", err.message);
        return;
    }
    c->resp.body.damage_compartment = (uint8_t)compartment;
    log_event(&cmd_breaches, "connection %u holed vessel %u: %.3g m^2 at (%.2f, %.2f, %.2f) in compartment %u",
              it->pipe, d->vessel_id, (double)d->area, point[0], point[1], point[2], compartment);
    cmd_ok(c, it);
}

static void cmd_pumps(cmd_server* c, const cmdq_item* it, client* cl, int admin) {
    const proto_pumps* p = &c->req.body.pumps;
    if (cmd_authorize(c, it, cl, admin, p->vessel_id, &p->token, PROTO_BODY_PUMPS)) return;
    nv_error err;
    if (apply_pumps(c->sim, p->vessel_id, p->on, &err)) {
        cmd_fail(c, it, c->req.request_id, PROTO_BODY_PUMPS, proto_status_of(err.code), "%s", err.message);
        return;
    }
    cmd_ok(c, it);
}

static void cmd_world_info(cmd_server* c, const cmdq_item* it) {
    nv_error err;
    if (snap_world_info(c->sim, c->cfg->server_name, &c->resp.world_info, &err)) {
        snap_free_world_info(&c->resp.world_info);
        cmd_fail(c, it, c->req.request_id, PROTO_BODY_WORLD_INFO, proto_status_of(err.code), "%s", err.message);
        return;
    }
    cmd_ok(c, it);
    snap_free_world_info(&c->resp.world_info);
}

static void cmd_hull(cmd_server* c, const cmdq_item* it) {
    nv_error err;
    const proto_hull* h = snap_hull(c->snap, c->sim->world, c->req.body.get_hull.type, &err);
    if (!h) {
        cmd_fail(c, it, c->req.request_id, PROTO_BODY_HULL, PROTO_STATUS_NOT_FOUND, "%s", err.message);
        return;
    }
    /* A shallow copy: capacities 0 tell proto the arrays are not its own. */
    c->resp.hull = *h;
    cmd_ok(c, it);
    memset(&c->resp.hull, 0, sizeof c->resp.hull);
}

static void cmd_stats(cmd_server* c, const cmdq_item* it, uint64_t now_ns) {
    proto_stats* s = &c->resp.body.stats;
    const nv_world* w = c->sim->world;
    s->tick = nv_world_tick(w);
    s->sim_time = nv_world_time(w);
    s->uptime_s = (double)(now_ns - c->m->start_ns) * 1e-9;
    s->tick_hz = c->sim->tick_hz;
    s->vessel_count = nv_world_vessel_count(w);
    s->clients = metrics_command_connections(c->m);
    s->subscribers = metrics_subscribers(c->m, METRICS_FULL) + metrics_subscribers(c->m, METRICS_COMPACT);
    metrics_step_percentiles(c->m, &s->step_ms_p50, &s->step_ms_p99, &s->step_ms_max);
    s->overruns = atomic_load_explicit(&c->m->overruns, memory_order_relaxed);
    s->snapshots_sent = metrics_snapshot_messages(c->m);
    s->bytes_out = metrics_bytes_out(c->m);
    s->requests = metrics_requests(c->m) + 1; /* this one */
    s->request_errors = metrics_request_errors(c->m);
    cmd_ok(c, it);
}

/* ---- dispatch -------------------------------------------------------------- */

/* Before anything is read: a flood, of any size, costs the server as
 * little as possible. The address's bucket first: more connections or
 * more players from one address do not buy more requests. */
static int cmd_rate_ok(cmd_server* c, const cmdq_item* it, const client* cl, uint64_t rid, uint64_t now_ns) {
    clients_verdict v = clients_allow(&c->clients, cl, now_ns);
    if (v == CLIENTS_ALLOWED) return 0;
    cmd_rate_refusal(c, it, cl, rid, v);
    return -1;
}

/* The admin token, when the request carries one: *admin set when right.
 * An address that keeps sending wrong ones is locked out of admin
 * requests for a time that doubles with each (clients.h), and during it
 * no token from it is even compared. -1 when refused (answered). */
static int cmd_admin_check(cmd_server* c, const cmdq_item* it, const client* cl, int* admin, uint64_t now_ns) {
    *admin = 0;
    if (!c->req.admin_token[0]) return 0;
    uint64_t rid = c->req.request_id;
    double wait = clients_admin_locked(&c->clients, cl->address, now_ns);
    if (wait > 0) {
        cmd_refuse(c, it, cl, METRICS_REFUSED_ADMIN_BACKOFF, rid, c->req.kind, PROTO_STATUS_RATE_LIMITED,
                   "too many wrong admin tokens from %s: try again in %.0f s", cmd_address_text(c, cl), ceil(wait));
        return -1;
    }
    if (!cmd_secret_equal(c->cfg->admin_token, c->req.admin_token)) {
        double lockout = clients_admin_failed(&c->clients, cl->address, now_ns);
        const char* what = c->cfg->admin_token[0] ? "wrong admin token" : "this server has no admin token";
        if (lockout > 0) {
            atomic_fetch_add_explicit(&c->m->admin_lockouts, 1, memory_order_relaxed);
            cmd_refuse(c, it, cl, METRICS_REFUSED_ADMIN_TOKEN, rid, c->req.kind, PROTO_STATUS_UNAUTHORIZED,
                       "%s; too many from %s: admin requests from it are refused for %.0f s", what,
                       cmd_address_text(c, cl), ceil(lockout));
        } else {
            cmd_refuse(c, it, cl, METRICS_REFUSED_ADMIN_TOKEN, rid, c->req.kind, PROTO_STATUS_UNAUTHORIZED, "%s",
                       what);
        }
        return -1;
    }
    clients_admin_succeeded(&c->clients, cl->address);
    *admin = 1;
    return 0;
}

static void cmd_request(cmd_server* c, const cmdq_item* it, uint64_t now_ns) {
    size_t size = it->size;
    const void* body = it->data;
    size_t limit = (size_t)c->cfg->limits.max_request_bytes;
    /* Every refusal names the request it answers, when its id can be read. */
    uint64_t rid = proto_request_id(body, size);
    client* cl = clients_find(&c->clients, it->pipe);
    if (!cl) {
        /* Not tracked since it opened (clients_open): the table was full. */
        cmd_refuse(c, it, NULL, METRICS_REFUSED_CONNECTIONS, rid, PROTO_BODY_NONE, PROTO_STATUS_LIMIT_EXCEEDED,
                   "too many command connections (limit %u): reconnect later", c->clients.p.max);
        return;
    }
    if (cmd_rate_ok(c, it, cl, rid, now_ns)) return;
    if (size > limit) {
        cmd_refuse(c, it, cl, METRICS_REFUSED_TOO_BIG, rid, PROTO_BODY_NONE, PROTO_STATUS_LIMIT_EXCEEDED,
                   "request of %zu bytes is over the limit of %zu bytes", size, limit);
        return;
    }
    proto_error pe;
    proto_limits lim = proto_default_limits();
    lim.max_message_size = limit;
    memset(&c->req, 0, sizeof c->req);
    if (proto_decode_request(body, size, &lim, &c->req, &pe)) {
        cmd_refuse(c, it, cl, METRICS_REFUSED_MALFORMED, c->req.request_id, PROTO_BODY_NONE,
                   PROTO_STATUS_BAD_REQUEST, "bad request: %s", pe.message);
        return;
    }
    rid = c->req.request_id;
    int admin;
    if (cmd_admin_check(c, it, cl, &admin, now_ns)) return;
    if (c->shutting_down) {
        cmd_fail(c, it, rid, c->req.kind, PROTO_STATUS_SHUTTING_DOWN, "the server is shutting down");
        return;
    }
    memset(&c->resp, 0, sizeof c->resp);
    switch (c->req.kind) {
    case PROTO_BODY_HELLO: cmd_hello(c, it, cl, now_ns); break;
    case PROTO_BODY_SPAWN: cmd_spawn(c, it, cl, admin); break;
    case PROTO_BODY_CONTROL: cmd_control(c, it, cl, admin); break;
    case PROTO_BODY_DESPAWN: cmd_despawn(c, it, cl, admin); break;
    case PROTO_BODY_WORLD_INFO: cmd_world_info(c, it); break;
    case PROTO_BODY_HULL: cmd_hull(c, it); break;
    case PROTO_BODY_STATS: cmd_stats(c, it, now_ns); break;
    case PROTO_BODY_DAMAGE: cmd_damage(c, it, admin); break;
    case PROTO_BODY_PUMPS: cmd_pumps(c, it, cl, admin); break;
    default:
        cmd_fail(c, it, rid, c->req.kind, PROTO_STATUS_UNSUPPORTED, "unknown request kind %d", (int)c->req.kind);
    }
}

static void cmd_update_gauges(cmd_server* c) {
    atomic_store_explicit(&c->m->players, c->clients.players.count, memory_order_relaxed);
    atomic_store_explicit(&c->m->addresses, c->clients.addresses.count, memory_order_relaxed);
}

void cmd_handle(cmd_server* c, const cmdq_item* it, uint64_t now_ns) {
    if (it->kind == CMDQ_PIPE_OPEN) {
        /* NULL (the table full): its requests are refused, named by reason. */
        clients_open(&c->clients, it->pipe, it->addr, now_ns);
        cmd_update_gauges(c);
        return;
    }
    if (it->kind == CMDQ_PIPE_CLOSED) {
        clients_close(&c->clients, it->pipe, now_ns);
        cmd_update_gauges(c);
        /* Its vessels keep counting against its player and address until
         * they are removed or taken over. */
        uint32_t n = owners_orphan(&c->owners, it->pipe, now_ns);
        if (n)
            log_event(&cmd_orphanings, "connection %u closed: %u vessel%s orphaned (removed after %g s unless taken over)", it->pipe, n,
                     n == 1 ? "" : "s", c->cfg->limits.orphan_timeout_s);
        return;
    }
    cmd_request(c, it, now_ns);
    free(it->data);
}

/* Before the world forgets a vessel: its player and address let go of it. */
static void cmd_release(cmd_server* c, uint32_t id) {
    owned* o = owners_find(&c->owners, id);
    if (!o) return;
    clients_drop_vessel(&c->clients, o->player, o->address);
    o->player = o->address = CLIENTS_NONE;
}

static void cmd_forget_removed(void* ctx, uint32_t id, uint32_t pipe) {
    (void)pipe;
    cmd_server* c = ctx;
    cmd_release(c, id);
    log_event(&cmd_sunk, "vessel %u sank past %g m and was removed", id,
              nv_world_get_config(c->sim->world)->sunk_removal_depth);
}

void cmd_after_step(cmd_server* c) {
    if (apply_removals(c->sim, &c->owners, cmd_forget_removed, c))
        atomic_store_explicit(&c->m->vessels, nv_world_vessel_count(c->sim->world), memory_order_relaxed);
}

/* One line per interval naming the addresses whose requests were refused
 * or sent wrong admin tokens, the noisiest first. */
static void cmd_summarize(cmd_server* c, double interval_s, uint64_t now_ns) {
    uint32_t slots[CMD_SUMMARY_ADDRESSES], more;
    uint32_t n = clients_summary(&c->clients, slots, CMD_SUMMARY_ADDRESSES, &more);
    if (!n) return;
    char text[768];
    size_t len = 0;
    for (uint32_t i = 0; i < n && len < sizeof text; i++) {
        const client_holder* a = clients_address(&c->clients, slots[i]);
        int m = snprintf(text + len, sizeof text - len, "%s%s: ", i ? "; " : "", a->text);
        len += m < 0 ? 0 : (size_t)m;
        if (a->refused && len < sizeof text) {
            m = snprintf(text + len, sizeof text - len, "%llu refused (the last for %s)",
                         (unsigned long long)a->refused, a->refused_why ? a->refused_why : "?");
            len += m < 0 ? 0 : (size_t)m;
        }
        if (a->admin_wrong && len < sizeof text) {
            double locked = clients_admin_locked(&c->clients, slots[i], now_ns);
            m = snprintf(text + len, sizeof text - len, "%s%llu of them wrong admin token%s", a->refused ? ", " : "",
                         (unsigned long long)a->admin_wrong, a->admin_wrong == 1 ? "" : "s");
            len += m < 0 ? 0 : (size_t)m;
            if (locked > 0 && len < sizeof text)
                m = snprintf(text + len, sizeof text - len, " (locked out of admin requests for %.0f s more)",
                             ceil(locked));
            else
                m = 0;
            len += m < 0 ? 0 : (size_t)m;
        }
    }
    if (more && len < sizeof text) {
        int m = snprintf(text + len, sizeof text - len, "; and %u more address%s", more, more == 1 ? "" : "es");
        len += m < 0 ? 0 : (size_t)m;
    }
    log_warn("requests refused in the last %g s: %s", interval_s, text);
    clients_summary_done(&c->clients);
}

void cmd_reap_orphans(cmd_server* c, uint64_t now_ns) {
    double every = c->cfg->limits.log_interval_s;
    if ((double)(now_ns - c->last_summary_ns) * 1e-9 >= every - 0.1) {
        c->last_summary_ns = now_ns;
        cmd_summarize(c, every, now_ns);
        clients_sweep(&c->clients, now_ns);
        cmd_update_gauges(c);
    }
    double timeout = c->cfg->limits.orphan_timeout_s;
    if (!(timeout > 0)) return;
    uint32_t ids[256];
    uint32_t n = owners_expired(&c->owners, now_ns, (uint64_t)(timeout * 1e9), ids, 256);
    for (uint32_t i = 0; i < n; i++) {
        cmd_release(c, ids[i]);
        if (apply_despawn(c->sim, &c->owners, ids[i], NULL)) owners_remove(&c->owners, ids[i]); /* gone already */
        log_event(&cmd_removals, "removed vessel %u: orphaned for %g s", ids[i], timeout);
    }
    if (n) {
        atomic_store_explicit(&c->m->vessels, nv_world_vessel_count(c->sim->world), memory_order_relaxed);
        cmd_update_gauges(c);
    }
}
