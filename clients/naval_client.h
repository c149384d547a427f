// SPDX-License-Identifier: MIT
/* naval_client: a C client of naval-server for game clients and tools.
 *
 *   nvc_options o;
 *   nvc_options_default(&o);
 *   o.snapshot_url = "tcp://127.0.0.1:7700";      // or ws://HOST:8080/ws/snapshots
 *   o.command_url = "tcp://127.0.0.1:7701";       // or ws://HOST:8080/ws/commands
 *   nvc_client* c;
 *   nv_error e;
 *   if (nvc_connect(&c, &o, &e)) { fprintf(stderr, "%s\n", e.message); ... }
 *   nvc_vessel boat;
 *   nvc_spawn(c, "patrol", 0, 0, 0, &boat, &e);    // id + the token that steers it
 *   nvc_control(c, &boat, 1.0f, 0.2f, &e);
 *   proto_snapshot s = {0};
 *   while (nvc_poll_snapshot(c, 100, &s, &e) == 0) { ... s.tick, s.vessels ... }
 *   proto_free_snapshot(&s);
 *   nvc_close(c);
 *
 * Snapshots: a receive runs on nng's thread all the time and keeps the
 * newest `queue_depth` messages (older ones are dropped and counted: a
 * slow reader sees the latest world, never a growing backlog). Read them
 * with nvc_poll_snapshot, or have nvc_set_snapshot_callback call you on a
 * helper thread. Full and compact streams are told apart by their
 * identifier; compact deltas before the first keyframe are skipped.
 *
 * Requests: each call sends one request and waits up to request_timeout_ms
 * for its answer. Calls may be made from several threads at once (each
 * uses its own nng context). A refusal from the server is NV_EREFUSED
 * with the server's status and reason in the error.
 *
 * Every function returns 0 on success, else -1 with err (may be NULL)
 * saying what went wrong. Decoded structs follow proto.h's ownership
 * rules (free with proto_free_*). */
#ifndef NAVAL_CLIENT_H
#define NAVAL_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Errors are the library's one type (naval/nv_error.h, through proto.h):
 * NV_EINVAL a bad argument or option, NV_ECONNECT the URL cannot be
 * reached, NV_ETIMEDOUT no snapshot or answer in time, NV_ECLOSED the
 * client is closing, NV_EPROTO the peer sent something that does not
 * decode, NV_EREFUSED the server refused (`status` holds its
 * proto_status), NV_ENOMEM, NV_ESTATE not possible now (no such socket,
 * callback mode). */

typedef struct nvc_options {
    const char* snapshot_url;     /* NULL: no snapshots */
    const char* command_url;      /* NULL: no requests */
    int request_timeout_ms;       /* per request (2000) */
    size_t max_snapshot_bytes;    /* bigger messages are refused by nng (64 MiB) */
    uint32_t queue_depth;         /* snapshots kept for poll (4) */
    const char* admin_token;      /* sent with every request; NULL: none */
} nvc_options;

void nvc_options_default(nvc_options* o);

typedef struct nvc_client nvc_client;

/* Dials both URLs (either may be NULL, not both) and fails with the reason
 * (e.g. "Connection refused") when one cannot be reached. Once connected,
 * nng redials by itself after a disconnection. */
int nvc_connect(nvc_client** out, const nvc_options* opts, nv_error* err);
/* Stops the callback thread, closes the sockets. Safe on NULL. */
void nvc_close(nvc_client* c);

/* ---- snapshots -------------------------------------------------------------- */

/* The oldest snapshot still queued, decoded into *out (zero it before the
 * first use; its storage is reused). Waits up to timeout_ms (0: do not
 * wait, < 0: forever). NV_ETIMEDOUT when none came. */
int nvc_poll_snapshot(nvc_client* c, int timeout_ms, proto_snapshot* out, nv_error* err);

/* Called on the client's helper thread for each snapshot (the pointer is
 * valid during the call). Once set, poll is refused; set once. */
typedef void nvc_snapshot_fn(void* user, const proto_snapshot* s);
int nvc_set_snapshot_callback(nvc_client* c, nvc_snapshot_fn* fn, void* user, nv_error* err);

typedef struct nvc_snapshot_counts {
    uint64_t received;      /* messages from the server */
    uint64_t dropped;       /* overwritten in the queue before being read */
    uint64_t undecodable;   /* failed to decode (skipped) */
    uint64_t awaiting_keyframe; /* compact deltas before a keyframe (skipped) */
} nvc_snapshot_counts;
void nvc_snapshot_counts_get(nvc_client* c, nvc_snapshot_counts* out);

/* ---- requests ------------------------------------------------------------------ */

typedef struct nvc_vessel {
    uint32_t id;
    proto_token token;
    double x, z; /* m: where the server placed it (the nearest free water to the request) */
} nvc_vessel;

/* Hello presents the client's player identity when it has one (below);
 * the reply's identity (out->player) is kept for the next hellos. */
int nvc_hello(nvc_client* c, const char* client_name, proto_hello_reply* out, nv_error* err);
/* The player this client plays as: the server counts vessels and requests
 * per player, and connections whose hellos present the same 128-bit
 * identity are one player (docs/protocol.md, "Players"). Set it before
 * nvc_hello to share a player between clients (a secret: whoever presents
 * it spends that player's limits); NULL forgets it (the next hello gets a
 * new one). A reconnection is a new connection: say hello again. */
void nvc_set_player(nvc_client* c, const proto_token* identity);
/* 1 and *out when the client has a player identity (set, or answered). */
int nvc_get_player(nvc_client* c, proto_token* out);
/* *out: zeroed or filled by an earlier call (its arrays are reused or freed);
 * free with proto_free_world_info. */
int nvc_get_world_info(nvc_client* c, proto_world_info* out, nv_error* err);
/* The type's mesh in the body frame about the CG; free with proto_free_hull. */
int nvc_get_hull(nvc_client* c, uint16_t type, proto_hull* out, nv_error* err);
/* Afloat at (x, z), heading in radians about +y from +x toward -z. type_name
 * NULL or "": type index `type`. */
int nvc_spawn(nvc_client* c, const char* type_name, uint16_t type, double x, double z, double heading,
              nvc_vessel* out, nv_error* err);
/* Throttle and rudder in [-1, 1]. */
int nvc_control(nvc_client* c, const nvc_vessel* v, float throttle, float rudder, nv_error* err);
int nvc_despawn(nvc_client* c, const nvc_vessel* v, nv_error* err);
int nvc_get_stats(nvc_client* c, proto_stats* out, nv_error* err);
/* The damage entry of vessel id in a decoded snapshot (full snapshots carry
 * every damaged vessel; compact ones none), or NULL when it is intact. */
const proto_vessel_damage* nvc_snapshot_damage(const proto_snapshot* s, uint32_t id);
/* Admin only (the client's admin token): a hole of `area` m^2 at (x, y, z)
 * in the body frame about the CG of vessel `id`; *compartment (may be NULL)
 * gets the compartment holed. */
int nvc_damage(nvc_client* c, uint32_t id, float x, float y, float z, float area, uint32_t* compartment,
               nv_error* err);
/* The vessel's pumps on (1) or off (0). */
int nvc_pumps(nvc_client* c, const nvc_vessel* v, int on, nv_error* err);

/* Any request (request_id and admin token are filled in); *resp receives
 * the answer whatever its status (0 returned when it decoded; check
 * resp->status). Free with proto_free_response. */
int nvc_request(nvc_client* c, proto_request* req, proto_response* resp, nv_error* err);
/* Bytes sent as they are (tests, diagnostics); the answer as above. */
int nvc_request_raw(nvc_client* c, const void* data, size_t size, proto_response* resp, nv_error* err);


/* ---- player views (nvc_view.c) ---------------------------------------------------- */

/* A view: the vessels around a point (or the player's own vessels) that
 * matter most to this client, within a bandwidth budget, over one PAIR1
 * connection of its own (docs/clients.md, "Views"). One thread uses a
 * view at a time.
 *
 *   nvc_view_options vo;
 *   nvc_view_options_default(&vo);
 *   vo.url = "tcp://127.0.0.1:7703";              // or ws://HOST:8080/ws/view
 *   vo.center[0] = 0; vo.center[1] = 0; vo.radius = 1000;
 *   nvc_view* v;
 *   if (nvc_view_open(&v, &vo, &e)) ...
 *   proto_view_header h;
 *   while (nvc_view_poll(v, 100, &h, &e) == 0) {
 *       nvc_view_state s[512];
 *       uint32_t n = nvc_view_sample(v, h.tick - 6.0, 3.0, s, 512);  // 100 ms behind, at 60 Hz
 *   }
 *   nvc_view_close(v); */
typedef struct nvc_view_options {
    const char* url;              /* the server's (or a relay's) view URL */
    double center[2];             /* x, z, m */
    float radius;                 /* m (the server caps it) */
    uint32_t budget_kbps;         /* 0: the server's default */
    const nvc_vessel* own;        /* the player's vessels: always in the view (tokens checked) */
    uint32_t own_count;           /* at most PROTO_VIEW_MAX_OWN */
    int follow_own;               /* the view is the discs of `radius` around them */
    uint32_t max_vessels;         /* held at most (4096) */
    size_t max_message_bytes;     /* bigger updates are refused by nng (4 MiB) */
} nvc_view_options;

void nvc_view_options_default(nvc_view_options* o);

typedef struct nvc_view nvc_view;

/* Dials the URL and sends the settings. NV_ECONNECT when it cannot be reached. */
int nvc_view_open(nvc_view** out, const nvc_view_options* o, nv_error* err);
void nvc_view_close(nvc_view* v);
/* New settings (the server echoes what it applies in a later update's header). */
int nvc_view_move(nvc_view* v, double x, double z, float radius, nv_error* err);
int nvc_view_set_budget(nvc_view* v, uint32_t kbps, nv_error* err);
/* Waits up to timeout_ms (< 0: forever) for the next update, applies it
 * and acknowledges it. After nng redialled a lost connection, the view
 * starts afresh (empty, settings sent again). 0 with *h (may be NULL);
 * NV_ETIMEDOUT; NV_EREFUSED
 * when the server refused the last request (err->status and its reason);
 * NV_EPROTO when the update does not decode (skipped). */
int nvc_view_poll(nvc_view* v, int timeout_ms, proto_view_header* h, nv_error* err);
/* What the view holds now (valid until the next poll). */
const proto_view_vessel* nvc_view_vessels(const nvc_view* v, uint32_t* count);
/* Vessels that entered, spawned, left or went in the last update. */
const proto_view_event* nvc_view_events(const nvc_view* v, uint32_t* count);
const proto_view_vessel* nvc_view_find(const nvc_view* v, uint32_t id);
/* Damage (docs/protocol.md, "Damage"): a held vessel's, as the server last
 * sent it (at most a second old; flags and holes within an update of a
 * change), or NULL when it is intact or not held: fill[k] / 255 of
 * compartment k's volume (WorldInfo's VesselType.compartment_volumes) is
 * water, flags PROTO_DAMAGE_PUMPING and PROTO_DAMAGE_SUNK_FLAG, holes. */
const proto_vessel_damage* nvc_view_damage(const nvc_view* v, uint32_t id);
/* Every held damaged vessel's (any order). */
const proto_vessel_damage* nvc_view_damaged(const nvc_view* v, uint32_t* count);
/* The damage events (breach, compartment full, capsized, sunk, removed)
 * of vessels in the view that the last update carried: each exactly once,
 * those of a lost update in a later one. Valid until the next poll. */
const proto_damage_event* nvc_view_damage_events(const nvc_view* v, uint32_t* count);

/* Every held vessel at the playout tick (fractional ticks: interpolated
 * between the samples around it, extrapolated at most max_extrapolate
 * ticks past the newest). Returns how many were written (at most cap). */
typedef struct nvc_view_state {
    uint32_t id;
    uint16_t type, flags;
    double position[3];
    float orientation[4];
} nvc_view_state;
uint32_t nvc_view_sample(const nvc_view* v, double tick, double max_extrapolate, nvc_view_state* out, uint32_t cap);

typedef struct nvc_view_counts {
    uint64_t updates, keyframes, bytes;  /* received and applied */
    uint64_t refusals, undecodable, acks_unsent;
    uint64_t reconnects;                 /* connections after the first (each a fresh view) */
} nvc_view_counts;
void nvc_view_counts_get(const nvc_view* v, nvc_view_counts* out);

#ifdef __cplusplus
}
#endif

#endif
