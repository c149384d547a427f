// SPDX-License-Identifier: MIT
#include "metrics.h"

#include "view.h"

#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "log.h"
#include "naval/nv_error.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define METRICS_SANITIZER_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define METRICS_SANITIZER_HEAP 1
#endif
#endif
#ifdef METRICS_SANITIZER_HEAP
/* The sanitizers' allocator counts what it hands out (GCC ships no header
 * for it; libasan and libtsan export it). */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

#define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define ADD(x, v) atomic_fetch_add_explicit(&(x), (v), memory_order_relaxed)
#define STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

/* Seconds: around the 60 Hz budget (16.7 ms) and its fractions. */
static const double metrics_bounds[METRICS_TICK_BUCKETS] = {0.0005, 0.001, 0.002, 0.004, 0.008, 0.0167,
                                                            0.033,  0.066, 0.1,   0.25,  1.0};

static const char* const metrics_body_names[METRICS_BODIES] = {
    "none", "hello", "spawn", "control", "despawn", "world_info", "hull", "stats", "damage", "pumps"};
static const char* const metrics_damage_names[METRICS_DAMAGE_KINDS] = {"breach", "full", "capsized", "sunk",
                                                                       "removed"};

void metrics_init(metrics* m, uint64_t start_ns) {
    memset(m, 0, sizeof *m);
    m->start_ns = start_ns;
    STORE(m->last_tick_ns, start_ns);
}

void metrics_record_tick(metrics* m, uint64_t now_ns, uint64_t work_ns, uint64_t step_ns, uint64_t snapshot_ns,
                         uint64_t budget_ns) {
    ADD(m->ticks, 1);
    if (work_ns > budget_ns) ADD(m->overruns, 1);
    int b = 0;
    while (b < METRICS_TICK_BUCKETS && (double)work_ns * 1e-9 > metrics_bounds[b]) b++;
    ADD(m->tick_bucket[b], 1);
    ADD(m->tick_sum_ns, work_ns);
    STORE(m->last_tick_ns, now_ns);
    STORE(m->step_ns, step_ns);
    STORE(m->snapshot_ns, snapshot_ns);
    m->window[m->window_next] = (float)(step_ns * 1e-6);
    m->window_next = (m->window_next + 1) % METRICS_WINDOW;
    if (m->window_count < METRICS_WINDOW) m->window_count++;
}

void metrics_record_pass(metrics* m, metrics_pass pass, uint64_t ns) {
    if ((unsigned)pass < METRICS_PASSES) ADD(m->pass_ns[pass], ns);
}

void metrics_attach_edge(metrics* m, const edge_stats* stats) { m->edge = stats; }

uint32_t metrics_subscribers(const metrics* m, metrics_stream s) {
    return m->edge ? LOAD(m->edge->subscribers[s]) : 0;
}

uint32_t metrics_command_connections(const metrics* m) { return m->edge ? LOAD(m->edge->requesters) : 0; }

uint64_t metrics_snapshot_messages(const metrics* m) {
    if (!m->edge) return 0;
    return LOAD(m->edge->messages[METRICS_FULL]) + LOAD(m->edge->messages[METRICS_COMPACT]);
}

uint64_t metrics_bytes_out(const metrics* m) {
    if (!m->edge) return 0;
    return LOAD(m->edge->bytes[METRICS_FULL]) + LOAD(m->edge->bytes[METRICS_COMPACT]) + LOAD(m->edge->reply_bytes);
}

uint64_t metrics_heap_bytes(void) {
#ifdef METRICS_SANITIZER_HEAP
    return (uint64_t)__sanitizer_get_current_allocated_bytes();
#else
    struct mallinfo2 mi = mallinfo2();
    return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
#endif
}

void metrics_record_command(metrics* m, proto_body kind, proto_status status) {
    unsigned k = (unsigned)kind < METRICS_BODIES ? (unsigned)kind : 0;
    unsigned s = (unsigned)status < METRICS_STATUSES ? (unsigned)status : PROTO_STATUS_INTERNAL;
    ADD(m->commands[k][s], 1);
}

static const char* const metrics_refusal_names[METRICS_REFUSALS] = {
    "connections",    "address_rate",   "player_rate",     "too_big",    "malformed",    "admin_token",
    "admin_backoff",  "vessel_token",   "player_vessels",  "address_vessels", "world_full", "player_change"};

const char* metrics_refusal_name(metrics_refusal why) {
    return (unsigned)why < METRICS_REFUSALS ? metrics_refusal_names[why] : "?";
}

void metrics_record_refusal(metrics* m, metrics_refusal why) {
    if ((unsigned)why >= METRICS_REFUSALS) return;
    ADD(m->refused[why], 1);
    if (why == METRICS_REFUSED_ADMIN_TOKEN) ADD(m->admin_token_failures, 1);
}

void metrics_record_checkpoint(metrics* m, int ok, size_t bytes, uint64_t tick, uint64_t capture_ns,
                               uint64_t write_ns) {
    if (!ok) {
        ADD(m->checkpoint_failures, 1);
        return;
    }
    ADD(m->checkpoints, 1);
    STORE(m->checkpoint_bytes, (uint64_t)bytes);
    STORE(m->checkpoint_tick, tick);
    STORE(m->checkpoint_capture_ns, capture_ns);
    STORE(m->checkpoint_write_ns, write_ns);
}

static int metrics_cmp_float(const void* a, const void* b) {
    float x = *(const float*)a, y = *(const float*)b;
    return x < y ? -1 : x > y;
}

void metrics_step_percentiles(const metrics* m, float* p50, float* p99, float* max) {
    *p50 = *p99 = *max = 0.0f;
    uint32_t n = m->window_count;
    if (!n) return;
    float sorted[METRICS_WINDOW];
    memcpy(sorted, m->window, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, metrics_cmp_float);
    *p50 = sorted[(n - 1) / 2];
    *p99 = sorted[(uint32_t)((n - 1) * 0.99)];
    *max = sorted[n - 1];
}

uint64_t metrics_requests(const metrics* m) {
    uint64_t n = 0;
    for (int k = 0; k < METRICS_BODIES; k++)
        for (int s = 0; s < METRICS_STATUSES; s++) n += LOAD(m->commands[k][s]);
    return n;
}

uint64_t metrics_request_errors(const metrics* m) {
    uint64_t n = 0;
    for (int k = 0; k < METRICS_BODIES; k++)
        for (int s = 1; s < METRICS_STATUSES; s++) n += LOAD(m->commands[k][s]);
    return n;
}

typedef struct metrics_text {
    char* data;
    size_t length, capacity;
    int failed;
} metrics_text;

static void metrics_printf(metrics_text* t, const char* fmt, ...) NV_PRINTF_LIKE(2, 3);

static void metrics_printf(metrics_text* t, const char* fmt, ...) {
    if (t->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->data + t->length, t->capacity - t->length, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if ((size_t)n < t->capacity - t->length) {
            t->length += (size_t)n;
            return;
        }
        if (GROW(&t->data, &t->capacity, t->length + (size_t)n + 1, 4096)) {
            t->failed = 1;
            return;
        }
    }
}

/* One counter or gauge per stream of the edge. */
static void metrics_per_stream(metrics_text* t, const char* name, const char* type, const char* help,
                               const atomic_uint_least64_t* v) {
    static const char* const stream_names[METRICS_STREAMS] = {"full", "compact"};
    metrics_printf(t, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
    for (int s = 0; s < METRICS_STREAMS; s++)
        metrics_printf(t, "%s{stream=\"%s\"} %llu\n", name, stream_names[s], (unsigned long long)LOAD(v[s]));
}

static void metrics_one(metrics_text* t, const char* name, const char* type, const char* help, unsigned long long v) {
    metrics_printf(t, "# HELP %s %s\n# TYPE %s %s\n%s %llu\n", name, help, name, type, name, v);
}

static void metrics_render_edge(metrics_text* t, const edge_stats* e) {
    static const edge_stats none;
    if (!e) e = &none;
    metrics_printf(t, "# HELP naval_subscribers Connected snapshot subscribers (tcp and ws).\n"
                      "# TYPE naval_subscribers gauge\nnaval_subscribers{stream=\"full\"} %u\n"
                      "naval_subscribers{stream=\"compact\"} %u\n",
                   LOAD(e->subscribers[METRICS_FULL]), LOAD(e->subscribers[METRICS_COMPACT]));
    metrics_one(t, "naval_command_connections", "gauge", "Connected command clients (tcp and ws).", LOAD(e->requesters));
    metrics_one(t, "naval_connections", "gauge", "Open connections on every listener (HTTP, WebSocket, tcp).",
                LOAD(e->connections));
    metrics_one(t, "naval_connections_accepted_total", "counter", "Connections accepted, refused ones included.",
                (unsigned long long)LOAD(e->accepted));
    metrics_printf(t, "# HELP naval_connections_refused_total Connections closed at once: the listener, the remote "
                      "address or the server (its descriptor limit) had its limit open and no half-open or idle "
                      "connection to give way (limits.max_connections, limits.max_connections_per_address).\n"
                      "# TYPE naval_connections_refused_total counter\n"
                      "naval_connections_refused_total{reason=\"listener_full\"} %llu\n"
                      "naval_connections_refused_total{reason=\"address_full\"} %llu\n"
                      "naval_connections_refused_total{reason=\"server_full\"} %llu\n",
                   (unsigned long long)LOAD(e->refused[EDGE_REFUSED_LISTENER_FULL]),
                   (unsigned long long)LOAD(e->refused[EDGE_REFUSED_ADDRESS_FULL]),
                   (unsigned long long)LOAD(e->refused[EDGE_REFUSED_SERVER_FULL]));
    metrics_one(t, "naval_connections_evicted_total", "counter",
                "Half-open or idle connections closed to make room for a new one when a limit was reached.",
                (unsigned long long)LOAD(e->evicted));
    metrics_one(t, "naval_connections_budget", "gauge",
                "Connections the process's descriptor limit allows at once, all listeners together.", LOAD(e->budget));
    metrics_printf(t, "# HELP naval_connection_timeouts_total Connections closed at a deadline: a request head or SP "
                      "handshake not done in time, a keep-alive left idle, a subscriber, client or view that stopped reading, "
                      "a command connection or view left idle, a message never finished.\n"
                      "# TYPE naval_connection_timeouts_total counter\n"
                      "naval_connection_timeouts_total{kind=\"head\"} %llu\n"
                      "naval_connection_timeouts_total{kind=\"idle\"} %llu\n"
                      "naval_connection_timeouts_total{kind=\"send\"} %llu\n"
                      "naval_connection_timeouts_total{kind=\"session_idle\"} %llu\n"
                      "naval_connection_timeouts_total{kind=\"message\"} %llu\n",
                   (unsigned long long)LOAD(e->timeouts[EDGE_TIMEOUT_HEAD]),
                   (unsigned long long)LOAD(e->timeouts[EDGE_TIMEOUT_IDLE]),
                   (unsigned long long)LOAD(e->timeouts[EDGE_TIMEOUT_SEND]),
                   (unsigned long long)LOAD(e->timeouts[EDGE_TIMEOUT_SESSION]),
                   (unsigned long long)LOAD(e->timeouts[EDGE_TIMEOUT_MESSAGE]));
    metrics_one(t, "naval_sessions_evicted_total", "counter",
                "Idle command connections and views closed to make room for a newcomer at max_clients or max_views "
                "(the most crowded address's longest idle first).",
                (unsigned long long)LOAD(e->sessions_evicted));
    metrics_one(t, "naval_private_stream_refused_total", "counter",
                "Subscribers from other hosts refused by a private snapshot stream (private_streams).",
                (unsigned long long)LOAD(e->private_refused));
    metrics_one(t, "naval_unsent_bytes", "gauge",
                "Answers and view updates handed to sockets and not yet written (bounded per connection).",
                (unsigned long long)LOAD(e->reply_bytes_queued));
    metrics_one(t, "naval_http_requests_total", "counter", "HTTP request heads read (upgrades included).",
                (unsigned long long)LOAD(e->http_requests));
    metrics_one(t, "naval_http_refused_total", "counter",
                "HTTP requests answered with an error by the server itself (malformed, too large, wrong method).",
                (unsigned long long)LOAD(e->http_refused));
    metrics_one(t, "naval_protocol_errors_total", "counter",
                "Connections that broke the SP or WebSocket rules (closed; requests without a routing header dropped).",
                (unsigned long long)LOAD(e->protocol_errors));
    metrics_per_stream(t, "naval_snapshot_bytes_total", "counter", "Snapshot bytes handed to subscribers' queues.",
                       e->bytes);
    metrics_per_stream(t, "naval_snapshot_messages_total", "counter", "Snapshot messages handed to subscribers' queues.",
                       e->messages);
    metrics_per_stream(t, "naval_snapshots_published_total", "counter", "Snapshots published (once per subscriber set).",
                       e->published);
    metrics_per_stream(t, "naval_snapshots_superseded_total", "counter",
                       "Snapshots replaced by a newer one before the network thread took them.", e->superseded);
    metrics_per_stream(t, "naval_snapshots_dropped_total", "counter",
                       "Snapshots dropped from a subscriber's full queue (its oldest).", e->dropped);
    metrics_one(t, "naval_snapshot_buffers", "gauge",
                "Published snapshots still referenced (each shared by all its subscribers).",
                (unsigned long long)(LOAD(e->buffers) < 0 ? 0 : LOAD(e->buffers)));
    metrics_one(t, "naval_response_bytes_total", "counter", "Bytes of command responses.",
                (unsigned long long)LOAD(e->reply_bytes));
    metrics_one(t, "naval_responses_lost_total", "counter", "Responses whose connection had closed before they were ready.",
                (unsigned long long)LOAD(e->replies_lost));
}

char* metrics_render(const metrics* m, uint64_t now_ns, size_t* length) {
    metrics_text t = {malloc(8192), 0, 8192, 0};
    if (!t.data) return NULL;
    metrics_printf(&t, "# HELP naval_uptime_seconds Time since the server started.\n# TYPE naval_uptime_seconds gauge\n"
                       "naval_uptime_seconds %.3f\n",
                   (double)(now_ns - m->start_ns) * 1e-9);
    metrics_printf(&t, "# HELP naval_tick_duration_seconds Work per tick: commands, world step, snapshot build and "
                       "publish.\n# TYPE naval_tick_duration_seconds histogram\n");
    uint64_t cumulative = 0;
    for (int b = 0; b <= METRICS_TICK_BUCKETS; b++) {
        cumulative += LOAD(m->tick_bucket[b]);
        if (b < METRICS_TICK_BUCKETS)
            metrics_printf(&t, "naval_tick_duration_seconds_bucket{le=\"%g\"} %llu\n", metrics_bounds[b],
                           (unsigned long long)cumulative);
        else
            metrics_printf(&t, "naval_tick_duration_seconds_bucket{le=\"+Inf\"} %llu\n", (unsigned long long)cumulative);
    }
    metrics_printf(&t, "naval_tick_duration_seconds_sum %.9f\nnaval_tick_duration_seconds_count %llu\n",
                   (double)LOAD(m->tick_sum_ns) * 1e-9, (unsigned long long)cumulative);
    metrics_printf(&t, "# HELP naval_ticks_total Ticks stepped.\n# TYPE naval_ticks_total counter\nnaval_ticks_total %llu\n",
                   (unsigned long long)LOAD(m->ticks));
    metrics_printf(&t, "# HELP naval_tick_overruns_total Ticks whose work took longer than the tick period.\n"
                       "# TYPE naval_tick_overruns_total counter\nnaval_tick_overruns_total %llu\n",
                   (unsigned long long)LOAD(m->overruns));
    metrics_printf(&t, "# HELP naval_ticks_dropped_total Steps given up to catch up (simulation fell behind wall "
                       "time).\n# TYPE naval_ticks_dropped_total counter\nnaval_ticks_dropped_total %llu\n",
                   (unsigned long long)LOAD(m->dropped_steps));
    metrics_printf(&t, "# HELP naval_step_seconds The last world step.\n# TYPE naval_step_seconds gauge\n"
                       "naval_step_seconds %.9f\n",
                   (double)LOAD(m->step_ns) * 1e-9);
    metrics_printf(&t, "# HELP naval_snapshot_seconds The last snapshot's build and publish.\n"
                       "# TYPE naval_snapshot_seconds gauge\nnaval_snapshot_seconds %.9f\n",
                   (double)LOAD(m->snapshot_ns) * 1e-9);
    static const char* const pass_names[METRICS_PASSES] = {
        "commands",       "step",          "after_step",   "capture",      "full_encode",
        "full_publish",   "compact_encode", "compact_publish", "views_encode", "views_send"};
    metrics_printf(&t, "# HELP naval_tick_pass_seconds_total Time in each pass of the ticks on the loop thread "
                       "(their rates over two scrapes: each pass's share of the tick).\n"
                       "# TYPE naval_tick_pass_seconds_total counter\n");
    for (int k = 0; k < METRICS_PASSES; k++)
        metrics_printf(&t, "naval_tick_pass_seconds_total{pass=\"%s\"} %.9f\n", pass_names[k],
                       (double)LOAD(m->pass_ns[k]) * 1e-9);
    metrics_printf(&t, "# HELP naval_vessels Vessels in the world.\n# TYPE naval_vessels gauge\nnaval_vessels %u\n",
                   LOAD(m->vessels));
    metrics_printf(&t,
                   "# HELP naval_contacts_total Contacts begun, with the ground or between vessels.\n"
                   "# TYPE naval_contacts_total counter\nnaval_contacts_total{with=\"ground\"} %llu\n"
                   "naval_contacts_total{with=\"vessel\"} %llu\n",
                   (unsigned long long)LOAD(m->contacts_ground), (unsigned long long)LOAD(m->contacts_vessels));
    metrics_printf(&t,
                   "# HELP naval_vessels_grounded Vessels on the ground after the last step.\n"
                   "# TYPE naval_vessels_grounded gauge\nnaval_vessels_grounded %u\n",
                   LOAD(m->grounded));
    metrics_printf(&t, "# HELP naval_damage_events_total Damage: holes, compartments full, capsizes, sinkings, "
                       "removals.\n# TYPE naval_damage_events_total counter\n");
    for (int k = 0; k < METRICS_DAMAGE_KINDS; k++)
        metrics_printf(&t, "naval_damage_events_total{kind=\"%s\"} %llu\n", metrics_damage_names[k],
                       (unsigned long long)LOAD(m->damage_events[k]));
    metrics_printf(&t,
                   "# HELP naval_vessels_damaged Vessels holed (or pumping) after the last step.\n"
                   "# TYPE naval_vessels_damaged gauge\nnaval_vessels_damaged %u\n",
                   LOAD(m->damaged));
    metrics_printf(&t,
                   "# HELP naval_views Player views open.\n# TYPE naval_views gauge\nnaval_views %u\n"
                   "# HELP naval_views_fallback Player views getting keyframes only (they stopped acknowledging).\n"
                   "# TYPE naval_views_fallback gauge\nnaval_views_fallback %u\n",
                   LOAD(m->views), LOAD(m->views_fallback));
    metrics_printf(&t,
                   "# HELP naval_view_updates_total Updates sent to player views (keyframes included).\n"
                   "# TYPE naval_view_updates_total counter\nnaval_view_updates_total %llu\n"
                   "# HELP naval_view_keyframes_total Keyframes sent to player views that stopped acknowledging.\n"
                   "# TYPE naval_view_keyframes_total counter\nnaval_view_keyframes_total %llu\n"
                   "# HELP naval_view_bytes_total Bytes of player view updates.\n"
                   "# TYPE naval_view_bytes_total counter\nnaval_view_bytes_total %llu\n"
                   "# HELP naval_view_records_total Vessel records in player view updates.\n"
                   "# TYPE naval_view_records_total counter\nnaval_view_records_total %llu\n"
                   "# HELP naval_view_refusals_total View requests refused (malformed, bad values, floods).\n"
                   "# TYPE naval_view_refusals_total counter\nnaval_view_refusals_total %llu\n"
                   "# HELP naval_view_encode_seconds The last tick's encode of every view.\n"
                   "# TYPE naval_view_encode_seconds gauge\nnaval_view_encode_seconds %.9f\n",
                   (unsigned long long)LOAD(m->view_updates), (unsigned long long)LOAD(m->view_keyframes),
                   (unsigned long long)LOAD(m->view_bytes), (unsigned long long)LOAD(m->view_records),
                   (unsigned long long)LOAD(m->view_refusals), (double)LOAD(m->view_encode_ns) * 1e-9);
    metrics_render_edge(&t, m->edge);
    metrics_printf(&t, "# HELP naval_commands_total Requests by type and response status.\n"
                       "# TYPE naval_commands_total counter\n");
    for (int k = 0; k < METRICS_BODIES; k++)
        for (int s = 0; s < METRICS_STATUSES; s++) {
            uint64_t n = LOAD(m->commands[k][s]);
            /* Always list ok and bad_request so that dashboards find the
             * series before the first error. */
            if (n || (k && s <= PROTO_STATUS_BAD_REQUEST))
                metrics_printf(&t, "naval_commands_total{type=\"%s\",status=\"%s\"} %llu\n", metrics_body_names[k],
                               proto_status_name((proto_status)s), (unsigned long long)n);
        }
    metrics_printf(&t, "# HELP naval_requests_refused_total Requests refused by a limit or a check of who may ask, "
                       "by reason (limits per player and per address, sizes, tokens).\n"
                       "# TYPE naval_requests_refused_total counter\n");
    for (int r = 0; r < METRICS_REFUSALS; r++)
        metrics_printf(&t, "naval_requests_refused_total{reason=\"%s\"} %llu\n", metrics_refusal_names[r],
                       (unsigned long long)LOAD(m->refused[r]));
    metrics_one(&t, "naval_admin_token_failures_total", "counter",
                "Requests with a wrong admin token (those refused during a lockout not included).",
                (unsigned long long)LOAD(m->admin_token_failures));
    metrics_one(&t, "naval_admin_lockouts_total", "counter",
                "Lockouts of an address from admin requests after limits.admin_token_failures wrong tokens.",
                (unsigned long long)LOAD(m->admin_lockouts));
    metrics_one(&t, "naval_players", "gauge", "Players the limits track (with connections or vessels).",
                (unsigned long long)LOAD(m->players));
    metrics_one(&t, "naval_client_addresses", "gauge",
                "Remote addresses the limits track (connected, owning vessels, or remembered while quiet).",
                (unsigned long long)LOAD(m->addresses));
    metrics_printf(&t, "# HELP naval_checkpoints_total Checkpoints written.\n# TYPE naval_checkpoints_total counter\n"
                       "naval_checkpoints_total %llu\n# HELP naval_checkpoint_failures_total Checkpoints that could "
                       "not be captured or written.\n# TYPE naval_checkpoint_failures_total counter\n"
                       "naval_checkpoint_failures_total %llu\n",
                   (unsigned long long)LOAD(m->checkpoints), (unsigned long long)LOAD(m->checkpoint_failures));
    metrics_printf(&t, "# HELP naval_checkpoint_last_bytes Size of the last checkpoint written.\n"
                       "# TYPE naval_checkpoint_last_bytes gauge\nnaval_checkpoint_last_bytes %llu\n"
                       "# HELP naval_checkpoint_last_tick Tick of the last checkpoint written.\n"
                       "# TYPE naval_checkpoint_last_tick gauge\nnaval_checkpoint_last_tick %llu\n",
                   (unsigned long long)LOAD(m->checkpoint_bytes), (unsigned long long)LOAD(m->checkpoint_tick));
    metrics_printf(&t, "# HELP naval_checkpoint_last_capture_seconds The last checkpoint's copy of the world on the "
                       "loop thread.\n# TYPE naval_checkpoint_last_capture_seconds gauge\n"
                       "naval_checkpoint_last_capture_seconds %.9f\n# HELP naval_checkpoint_last_write_seconds The "
                       "last checkpoint's encoding, write and fsync on the writer thread.\n"
                       "# TYPE naval_checkpoint_last_write_seconds gauge\nnaval_checkpoint_last_write_seconds %.9f\n",
                   (double)LOAD(m->checkpoint_capture_ns) * 1e-9, (double)LOAD(m->checkpoint_write_ns) * 1e-9);
    metrics_printf(&t, "# HELP naval_agones_requests_total Calls to the Agones SDK sidecar by result.\n"
                       "# TYPE naval_agones_requests_total counter\nnaval_agones_requests_total{result=\"ok\"} %llu\n"
                       "naval_agones_requests_total{result=\"failed\"} %llu\n",
                   (unsigned long long)LOAD(m->agones_ok), (unsigned long long)LOAD(m->agones_failures));
    metrics_one(&t, "naval_log_lines_dropped_total", "counter",
                "Log lines dropped over the budget of limits.log_lines_per_second.", (unsigned long long)log_dropped());
    metrics_one(&t, "naval_heap_bytes", "gauge", "Bytes the process has allocated and not freed (the C allocator's count).",
                (unsigned long long)metrics_heap_bytes());
    if (t.failed) {
        free(t.data);
        return NULL;
    }
    *length = t.length;
    return t.data;
}

void metrics_record_views(metrics* m, const view_stats* s, uint64_t encode_ns) {
    atomic_store_explicit(&m->views, s->views, memory_order_relaxed);
    atomic_store_explicit(&m->views_fallback, s->fallback, memory_order_relaxed);
    atomic_store_explicit(&m->view_updates, s->updates, memory_order_relaxed);
    atomic_store_explicit(&m->view_keyframes, s->keyframes, memory_order_relaxed);
    atomic_store_explicit(&m->view_bytes, s->bytes, memory_order_relaxed);
    atomic_store_explicit(&m->view_records, s->records, memory_order_relaxed);
    atomic_store_explicit(&m->view_refusals, s->refusals, memory_order_relaxed);
    atomic_store_explicit(&m->view_encode_ns, encode_ns, memory_order_relaxed);
}

void metrics_record_damage(metrics* m, const nv_world_damage_event* events, uint32_t count, uint32_t damaged) {
    for (uint32_t i = 0; i < count; i++)
        if (events[i].kind < METRICS_DAMAGE_KINDS)
            atomic_fetch_add_explicit(&m->damage_events[events[i].kind], 1, memory_order_relaxed);
    atomic_store_explicit(&m->damaged, damaged, memory_order_relaxed);
}

void metrics_record_contacts(metrics* m, const nv_world_contact_event* events, uint32_t count, uint32_t grounded) {
    uint64_t ground = 0;
    for (uint32_t i = 0; i < count; i++) ground += events[i].id_b == WORLD_CONTACT_GROUND;
    if (ground) atomic_fetch_add_explicit(&m->contacts_ground, ground, memory_order_relaxed);
    if (count > ground) atomic_fetch_add_explicit(&m->contacts_vessels, count - ground, memory_order_relaxed);
    atomic_store_explicit(&m->grounded, grounded, memory_order_relaxed);
}
