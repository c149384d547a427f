// SPDX-License-Identifier: MIT
/* What the server counts, for /metrics (Prometheus text format), the
 * stats request and the snapshots' tick statistics. The loop thread and
 * nng's threads update counters while the HTTP thread reads them: every
 * field is atomic (relaxed: each number is read on its own, never as a
 * consistent set). The step-time window is the loop thread's alone. */
#ifndef NAVAL_SERVER_METRICS_H
#define NAVAL_SERVER_METRICS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "edge.h"
#include "naval/world.h"
#include "proto.h"

#define METRICS_TICK_BUCKETS 11   /* finite upper bounds; +Inf is implicit */
#define METRICS_BODIES 10         /* proto_body NONE..PUMPS */
#define METRICS_DAMAGE_KINDS 5    /* world_damage_kind */
#define METRICS_STATUSES 9        /* proto_status OK..SHUTTING_DOWN */
#define METRICS_WINDOW 1024       /* recent step times for the percentiles */

/* Why a request was refused by a limit or a check of who may ask
 * (naval_requests_refused_total{reason}); its status is in
 * naval_commands_total as well. */
typedef enum metrics_refusal {
    METRICS_REFUSED_CONNECTIONS = 0, /* more command connections than limits.max_clients */
    METRICS_REFUSED_ADDRESS_RATE,    /* requests per second from one address */
    METRICS_REFUSED_PLAYER_RATE,     /* requests per second of one player */
    METRICS_REFUSED_TOO_BIG,         /* over limits.max_request_bytes */
    METRICS_REFUSED_MALFORMED,       /* does not decode */
    METRICS_REFUSED_ADMIN_TOKEN,     /* a wrong admin token */
    METRICS_REFUSED_ADMIN_BACKOFF,   /* an admin token from an address locked out */
    METRICS_REFUSED_VESSEL_TOKEN,    /* a wrong vessel token */
    METRICS_REFUSED_PLAYER_VESSELS,  /* vessels per player */
    METRICS_REFUSED_ADDRESS_VESSELS, /* vessels per address */
    METRICS_REFUSED_WORLD_FULL,      /* limits.vessels_total */
    METRICS_REFUSED_PLAYER_CHANGE,   /* a hello naming another player once the connection's owns vessels */
    METRICS_REFUSALS
} metrics_refusal;

typedef enum metrics_stream { METRICS_FULL = 0, METRICS_COMPACT = 1, METRICS_STREAMS } metrics_stream;

/* The passes of a tick on the loop thread, in the order they run; their
 * time is summed into naval_tick_pass_seconds_total{pass}, so that the
 * rates of two scrapes give each pass's share of the tick. */
typedef enum metrics_pass {
    METRICS_PASS_COMMANDS = 0, /* queued commands and the scenario's events applied */
    METRICS_PASS_STEP,         /* the world step (its own passes on the job system) */
    METRICS_PASS_AFTER_STEP,   /* replies, contact and damage counts, the record */
    METRICS_PASS_CAPTURE,      /* the world read into the tick's snapshot */
    METRICS_PASS_FULL_ENCODE,
    METRICS_PASS_FULL_PUBLISH, /* handed to the edge for every full subscriber */
    METRICS_PASS_COMPACT_ENCODE,
    METRICS_PASS_COMPACT_PUBLISH,
    METRICS_PASS_VIEWS_ENCODE, /* every player view (on the job system) */
    METRICS_PASS_VIEWS_SEND,   /* the views' updates handed to the edge */
    METRICS_PASSES
} metrics_pass;

typedef struct metrics {
    uint64_t start_ns;                       /* uv_hrtime at start */
    atomic_uint_least64_t ticks;
    atomic_uint_least64_t overruns;          /* ticks whose work took longer than the step */
    atomic_uint_least64_t dropped_steps;     /* steps given up by the catch-up cap */
    atomic_uint_least64_t tick_bucket[METRICS_TICK_BUCKETS + 1];
    atomic_uint_least64_t tick_sum_ns;
    atomic_uint_least64_t last_tick_ns;      /* uv_hrtime of the last tick (health) */
    atomic_uint_least64_t step_ns, snapshot_ns; /* last tick */
    atomic_uint_least64_t pass_ns[METRICS_PASSES]; /* summed over the ticks */
    atomic_uint vessels;
    /* Contacts begun (with the ground, between vessels) and vessels on the
     * ground after the last step. */
    atomic_uint_least64_t contacts_ground, contacts_vessels;
    atomic_uint grounded;
    /* Damage events by kind (world_damage_kind), and the damaged vessels now. */
    atomic_uint_least64_t damage_events[METRICS_DAMAGE_KINDS];
    atomic_uint damaged;
    /* Player views (views.c): open, on keyframes only, what they were sent,
     * refusals, the last tick's encode. */
    atomic_uint views, views_fallback;
    atomic_uint_least64_t view_updates, view_keyframes, view_bytes, view_records, view_refusals, view_encode_ns;
    /* Connections, subscribers, snapshots sent, answers: the edge's own
     * counters (edge.h), set once the endpoints are open; NULL before. */
    const edge_stats* edge;
    atomic_uint_least64_t commands[METRICS_BODIES][METRICS_STATUSES];
    /* Requests refused by limits and checks (metrics_refusal); wrong admin
     * tokens, and the lockouts they started; players and addresses the
     * limits track now. */
    atomic_uint_least64_t refused[METRICS_REFUSALS];
    atomic_uint_least64_t admin_token_failures, admin_lockouts;
    atomic_uint players, addresses;
    /* Checkpoints: counts, and the last one written. */
    atomic_uint_least64_t checkpoints, checkpoint_failures;
    atomic_uint_least64_t checkpoint_bytes, checkpoint_tick, checkpoint_capture_ns, checkpoint_write_ns;
    /* Calls to the Agones SDK sidecar that got a 2xx, and those that did not. */
    atomic_uint_least64_t agones_ok, agones_failures;
    /* Loop thread only. */
    float window[METRICS_WINDOW];
    uint32_t window_count, window_next;
} metrics;

void metrics_init(metrics* m, uint64_t start_ns);

/* One tick: its whole work (steps, commands, snapshot) and its step. */
void metrics_record_tick(metrics* m, uint64_t now_ns, uint64_t work_ns, uint64_t step_ns, uint64_t snapshot_ns,
                         uint64_t budget_ns);
/* Time spent in one pass of a tick (summed). Loop thread. */
void metrics_record_pass(metrics* m, metrics_pass pass, uint64_t ns);
/* The last step's new contacts and how many vessels are on the ground.
 * Loop thread. */
void metrics_record_contacts(metrics* m, const nv_world_contact_event* events, uint32_t count, uint32_t grounded);
/* The last step's damage events and how many vessels are damaged. */
void metrics_record_damage(metrics* m, const nv_world_damage_event* events, uint32_t count, uint32_t damaged);
/* The views' totals after a tick and how long their encode took. */
struct view_stats;
void metrics_record_views(metrics* m, const struct view_stats* s, uint64_t encode_ns);
/* The edge's counters join the exposition (before any thread reads them). */
void metrics_attach_edge(metrics* m, const edge_stats* stats);
/* Subscribers of a stream, command connections, snapshot messages and
 * bytes handed to subscribers, answer bytes: 0 before the edge is attached. */
uint32_t metrics_subscribers(const metrics* m, metrics_stream s);
uint32_t metrics_command_connections(const metrics* m);
uint64_t metrics_snapshot_messages(const metrics* m);
uint64_t metrics_bytes_out(const metrics* m);
/* Bytes the allocator has handed out and not taken back (glibc's
 * mallinfo2, or the sanitizer's allocator): the leak detector's figure. */
uint64_t metrics_heap_bytes(void);
void metrics_record_command(metrics* m, proto_body kind, proto_status status);
void metrics_record_refusal(metrics* m, metrics_refusal why);
/* "address_rate", ... (the label); "?" outside the enum. */
const char* metrics_refusal_name(metrics_refusal why);
/* A checkpoint written (ok) or not: its size, tick, capture time on the
 * loop thread and write time on the writer's thread. */
void metrics_record_checkpoint(metrics* m, int ok, size_t bytes, uint64_t tick, uint64_t capture_ns,
                               uint64_t write_ns);
/* Step-time percentiles over the window, ms (0 when empty). Loop thread. */
void metrics_step_percentiles(const metrics* m, float* p50, float* p99, float* max);

uint64_t metrics_requests(const metrics* m);
uint64_t metrics_request_errors(const metrics* m);

/* The Prometheus text exposition; malloc'd, NULL when out of memory. */
char* metrics_render(const metrics* m, uint64_t now_ns, size_t* length);

#endif
