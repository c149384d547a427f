// SPDX-License-Identifier: MIT
#include "loop.h"

#include <math.h>
#include <nng/nng.h>
#include <signal.h>
#include <stdlib.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "agones.h"
#include "apply.h"
#include "cmdq.h"
#include "commands.h"
#include "http.h"
#include "log.h"
#include "metrics.h"
#include "net.h"
#include "persist.h"
#include "record.h"
#include "sim.h"
#include "snapshot.h"
#include "views.h"
#include "watchdog.h"

/* Time left for the final snapshot and the last responses to leave
 * before the connections close. */
#define LOOP_DRAIN_MS 150
/* Longest closing the network may take once signalled (the edge's thread,
 * and nng's HTTP client when Agones is on: nng 1.5.2's close has known
 * hangs, docs/network.md); a supervisor should not have to SIGKILL us. */
#define LOOP_STOP_WATCHDOG_S 10

typedef struct loop_server {
    const cfg_server* cfg;
    uv_loop_t loop;
    uv_timer_t tick, housekeeping, drain, checkpoint;
    uv_async_t wake;
    uv_signal_t sigint, sigterm;
    int handles;                 /* open handles, for the close sequence */
    sim sim;
    metrics m;
    cmdq queue;
    http_site* http;
    net* net;
    snap_builder snap;
    cmd_server cmd;
    views views;
    cmdq_item* batch;
    uint32_t batch_capacity;
    uint64_t period_ns, acc_ns, last_ns;
    uint64_t snapshot_ns;        /* the last snapshot's build + publish */
    uint64_t last_status_ns;
    uint64_t last_agones_ns;
    uint64_t last_summary_ns;    /* log_summarize */
    int stopping;
    int bad_restore;             /* --restore found nothing usable, or the world (its scenario) did not build: exit 2 */
    persist persist;             /* checkpoints (cfg->checkpoint) and the record's base */
    uint32_t record_seq;         /* the number of the record file being written (LOG.000001: 1) */
    uint64_t record_retry_ns;    /* a next file that could not be started: not before then */
    uint64_t last_record_sync_ns;
    agones* agones;              /* NULL unless cfg->agones */
} loop_server;

static void loop_record_rotate(loop_server* s);

static void loop_drain_commands(loop_server* s) {
    /* Between ticks, the world whole: where a record file may end. */
    loop_record_rotate(s);
    uint32_t n = cmdq_take(&s->queue, &s->batch, &s->batch_capacity);
    uint64_t now = uv_hrtime();
    for (uint32_t i = 0; i < n; i++) {
        if (s->batch[i].kind >= CMDQ_VIEW_OPEN) views_handle(&s->views, &s->batch[i]);
        else cmd_handle(&s->cmd, &s->batch[i], now);
    }
}

/* One stream's snapshot encoded and handed to the edge, each timed from
 * `since`; returns the time it ended. */
static uint64_t loop_publish_stream(loop_server* s, metrics_stream stream, uint64_t since) {
    nv_error err;
    int bad = stream == METRICS_FULL ? snap_encode_full(&s->snap, &err) : snap_encode_compact(&s->snap, &err);
    uint64_t encoded = uv_hrtime();
    metrics_record_pass(&s->m, stream == METRICS_FULL ? METRICS_PASS_FULL_ENCODE : METRICS_PASS_COMPACT_ENCODE,
                        encoded - since);
    if (bad) {
        log_error("%s", err.message);
        return encoded;
    }
    const proto_buf* b = stream == METRICS_FULL ? &s->snap.full : &s->snap.compact;
    net_publish(s->net, stream, b->data, b->size);
    uint64_t sent = uv_hrtime();
    metrics_record_pass(&s->m, stream == METRICS_FULL ? METRICS_PASS_FULL_PUBLISH : METRICS_PASS_COMPACT_PUBLISH,
                        sent - encoded);
    return sent;
}

static void loop_publish(loop_server* s) {
    int full = net_has_subscribers(s->net, METRICS_FULL), compact = net_has_subscribers(s->net, METRICS_COMPACT);
    int viewers = views_wanted(&s->views);
    if (!full && !compact && !viewers) {
        s->snapshot_ns = 0;
        return;
    }
    uint64_t t0 = uv_hrtime();
    const nv_world_timing* t = nv_world_last_timing(s->sim.world);
    proto_tick_stats stats = {
        .step_ms = (float)t->step_ms,
        .water_ms = (float)t->water_ms,
        .vertex_ms = (float)t->vertex_ms,
        .triangle_ms = (float)t->triangle_ms,
        .integrate_ms = (float)t->integrate_ms,
        .snapshot_ms = (float)(s->snapshot_ns * 1e-6),
        .subscribers = metrics_subscribers(&s->m, METRICS_FULL) + metrics_subscribers(&s->m, METRICS_COMPACT),
        .overruns = atomic_load_explicit(&s->m.overruns, memory_order_relaxed),
        .lod_ms = (float)t->lod_ms,
        .command_port = (uint16_t)net_command_port(s->net),
    };
    nv_error err;
    int captured = snap_capture(&s->snap, s->sim.world, &stats, &err);
    uint64_t t1 = uv_hrtime();
    metrics_record_pass(&s->m, METRICS_PASS_CAPTURE, t1 - t0);
    if (captured) {
        log_error("%s", err.message);
        return;
    }
    if (full) t1 = loop_publish_stream(s, METRICS_FULL, t1);
    if (compact) t1 = loop_publish_stream(s, METRICS_COMPACT, t1);
    if (viewers) views_tick(&s->views, &s->snap.snap, s->sim.pool);
    s->snapshot_ns = uv_hrtime() - t0;
}

static void loop_schedule(loop_server* s);

/* The step's new contacts into the metrics, and the vessels aground (one
 * pass over the flags, only on a world with ground). */
static void loop_count_contacts(loop_server* s) {
    const nv_world* w = s->sim.world;
    uint32_t n, grounded = 0;
    const nv_world_contact_event* e = nv_world_contact_events(w, &n);
    if (nv_world_get_terrain(w)) {
        nv_world_vessel_pose batch[64];
        uint32_t count = nv_world_vessel_count(w);
        for (uint32_t first = 0; first < count; first += 64) {
            uint32_t got = nv_world_read_poses(w, first, 64, batch);
            for (uint32_t i = 0; i < got; i++) grounded += (batch[i].flags & WORLD_VESSEL_GROUNDED) != 0;
        }
    }
    metrics_record_contacts(&s->m, e, n, grounded);
    const nv_world_damage_event* d = nv_world_damage_events(w, &n);
    metrics_record_damage(&s->m, d, n, nv_world_breached_count(w));
}

static void loop_on_tick(uv_timer_t* t) {
    loop_server* s = t->data;
    if (s->stopping) return;
    uint64_t now = uv_hrtime();
    s->acc_ns += now - s->last_ns;
    s->last_ns = now;
    uint32_t steps = 0, max = (uint32_t)s->cfg->max_catchup;
    while (s->acc_ns >= s->period_ns && steps < max) {
        uint64_t t0 = uv_hrtime();
        loop_drain_commands(s);
        apply_scenario_events(&s->sim);
        uint64_t t1 = uv_hrtime();
        sim_step(&s->sim);
        uint64_t t2 = uv_hrtime();
        cmd_after_step(&s->cmd);
        loop_count_contacts(s);
        /* A hash now is the state before this tick's commands: what the
         * replay checks before it applies them. */
        record_step(s->sim.rec, s->sim.world);
        metrics_record_pass(&s->m, METRICS_PASS_COMMANDS, t1 - t0);
        metrics_record_pass(&s->m, METRICS_PASS_STEP, t2 - t1);
        metrics_record_pass(&s->m, METRICS_PASS_AFTER_STEP, uv_hrtime() - t2);
        s->acc_ns -= s->period_ns;
        steps++;
        /* Every tick goes out, catch-up steps included: a subscriber can
         * then count drops from gaps in the tick numbers. */
        loop_publish(s);
        uint64_t t3 = uv_hrtime();
        metrics_record_tick(&s->m, t3, t3 - t0, t2 - t1, t3 - t2, s->period_ns);
    }
    if (s->acc_ns >= s->period_ns) {
        uint64_t dropped = s->acc_ns / s->period_ns;
        atomic_fetch_add_explicit(&s->m.dropped_steps, dropped, memory_order_relaxed);
        s->acc_ns -= dropped * s->period_ns;
        log_debug("behind the clock: dropped %llu step%s", (unsigned long long)dropped, dropped == 1 ? "" : "s");
    }
    atomic_store_explicit(&s->m.vessels, nv_world_vessel_count(s->sim.world), memory_order_relaxed);
    loop_schedule(s);
}

static void loop_schedule(loop_server* s) {
    uint64_t elapsed = uv_hrtime() - s->last_ns;
    uint64_t due = s->acc_ns + elapsed;
    uint64_t wait_ns = due >= s->period_ns ? 0 : s->period_ns - due;
    /* libuv timers have millisecond resolution: round up, the accumulator
     * absorbs the rest, so the mean rate is exact and a tick is never early.
     * At least 1 ms even when late: libuv (1.44) runs a timer re-armed with
     * 0 again in the same pass, which would starve I/O and signals. */
    uint64_t wait_ms = (wait_ns + 999999) / 1000000;
    uv_update_time(&s->loop);
    uv_timer_start(&s->tick, loop_on_tick, wait_ms ? wait_ms : 1, 0);
}

static void loop_on_wake(uv_async_t* a) {
    loop_server* s = a->data;
    loop_drain_commands(s);
}

static void loop_on_housekeeping(uv_timer_t* t) {
    loop_server* s = t->data;
    uint64_t now = uv_hrtime();
    cmd_reap_orphans(&s->cmd, now);
    /* On disk every checkpoint interval (10 s when checkpoints are only
     * taken at shutdown); handed to the kernel every second. */
    double sync_s = s->cfg->checkpoint_interval_s > 0 ? s->cfg->checkpoint_interval_s : 10.0;
    if (s->sim.rec && (double)(now - s->last_record_sync_ns) * 1e-9 >= sync_s - 0.1) {
        s->last_record_sync_ns = now;
        record_sync(s->sim.rec, &s->loop);
    } else {
        record_flush(s->sim.rec);
    }
    if (s->agones && now - s->last_agones_ns >= AGONES_PERIOD_S * 1000000000ull - 100000000ull) {
        s->last_agones_ns = now;
        agones_call(s->agones);
    }
    double interval = s->cfg->limits.log_interval_s;
    if ((double)(now - s->last_summary_ns) * 1e-9 >= interval - 0.1) {
        s->last_summary_ns = now;
        log_summarize(interval);
    }
    if (now - s->last_status_ns >= 60ull * 1000000000ull) {
        s->last_status_ns = now;
        float p50, p99, max;
        metrics_step_percentiles(&s->m, &p50, &p99, &max);
        log_info(
            "tick %llu: %u vessels, step p50 %.2f p99 %.2f max %.2f ms, %llu overruns, %u+%u subscribers, "
            "%u command connections",
            (unsigned long long)nv_world_tick(s->sim.world), nv_world_vessel_count(s->sim.world), p50, p99, max,
            (unsigned long long)atomic_load(&s->m.overruns), metrics_subscribers(&s->m, METRICS_FULL),
            metrics_subscribers(&s->m, METRICS_COMPACT), metrics_command_connections(&s->m));
    }
}

/* Between ticks (timers never run inside one): the copy is taken here,
 * the disk is another thread's business. */
static void loop_on_checkpoint(uv_timer_t* t) {
    loop_server* s = t->data;
    if (!s->stopping) persist_start(&s->persist);
}

static void loop_on_closed(uv_handle_t* h) {
    loop_server* s = h->data;
    s->handles--;
}

static void loop_close_handle(loop_server* s, uv_handle_t* h) {
    if (!uv_is_closing(h)) uv_close(h, loop_on_closed);
    (void)s;
}


/* After the drain delay: sockets first (no more callbacks can queue
 * work), then the HTTP server, then libuv's handles. */
static void loop_on_drained(uv_timer_t* t) {
    loop_server* s = t->data;
    /* The final checkpoint is on disk before anything is closed: the
     * watchdog guards the sockets' close and must never cut a write short. */
    if (s->cfg->checkpoint[0] && persist_pending(&s->persist)) {
        uv_timer_start(&s->drain, loop_on_drained, 20, 0);
        return;
    }
    /* Should the watchdog fire, the stop was clean up to closing the
     * sockets (the final snapshot went out, the final checkpoint is on
     * disk) unless that checkpoint failed: that is the exit status. */
    watchdog_arm(LOOP_STOP_WATCHDOG_S, s->cfg->checkpoint[0] && persist_final_failed(&s->persist),
                 "naval-server: ERROR closing the network took over 10 s; exiting\n", NULL);
    net_close(s->net);
    s->net = NULL;
    s->cmd.net = NULL;
    agones_close(s->agones);
    s->agones = NULL;
    loop_close_handle(s, (uv_handle_t*)&s->checkpoint);
    loop_close_handle(s, (uv_handle_t*)&s->tick);
    loop_close_handle(s, (uv_handle_t*)&s->housekeeping);
    loop_close_handle(s, (uv_handle_t*)&s->drain);
    loop_close_handle(s, (uv_handle_t*)&s->wake);
    loop_close_handle(s, (uv_handle_t*)&s->sigint);
    loop_close_handle(s, (uv_handle_t*)&s->sigterm);
}

static void loop_on_signal(uv_signal_t* h, int signum) {
    loop_server* s = h->data;
    if (s->stopping) return;
    s->stopping = 1;
    log_info("%s: stopping at tick %llu", signum == SIGINT ? "SIGINT" : "SIGTERM",
             (unsigned long long)nv_world_tick(s->sim.world));
    uv_timer_stop(&s->tick);
    uv_timer_stop(&s->housekeeping);
    uv_timer_stop(&s->checkpoint);
    http_set_stopping(s->http);
    /* Requests already queued are answered (SHUTTING_DOWN); the world
     * as it stands goes out one last time, and is kept: the record's last
     * hash, then the final checkpoint (libuv's loop runs until the write
     * is done; the world no longer changes). */
    s->cmd.shutting_down = 1;
    loop_drain_commands(s);
    log_summarize((double)(uv_hrtime() - s->last_summary_ns) * 1e-9);
    loop_publish(s);
    if (s->sim.rec) {
        record_hash(s->sim.rec, nv_world_tick(s->sim.world), nv_world_state_hash(s->sim.world));
        record_flush(s->sim.rec);
    }
    if (s->cfg->checkpoint[0]) persist_final(&s->persist);
    uv_timer_start(&s->drain, loop_on_drained, LOOP_DRAIN_MS, 0);
}

static void loop_log_start(const loop_server* s) {
    const cfg_server* c = s->cfg;
    log_info("world: %u vessels (%u on autopilot in +-%.0f m), %u types, %s, %g Hz, %u thread%s",
             nv_world_vessel_count(s->sim.world), autopilot_count(s->sim.pilot), s->sim.area,
             nv_world_hull_type_count(s->sim.world), s->sim.inst.ocean ? "FFT ocean" : "flat water", s->sim.tick_hz,
             nv_jobs_thread_count(s->sim.pool), nv_jobs_thread_count(s->sim.pool) == 1 ? "" : "s");
    if (c->http[0])
        log_info("websocket: ws://%s%s (full), ws://%s%s (compact), ws://%s%s (requests)", c->http, NET_WS_SNAPSHOTS,
                 c->http, NET_WS_COMPACT, c->http, NET_WS_COMMANDS);
}

/* A restored server's world, tick rate and fleet are the checkpoint's:
 * settings that would have built another one are named, not applied. */
static void loop_log_ignored(const cfg_server* c) {
    char what[CFG_PATH_MAX + 96] = "";
    size_t n = 0;
    if (c->scenario[0]) n += (size_t)snprintf(what + n, sizeof what - n, " scenario %.900s,", c->scenario);
    if (c->boats >= 0 && n < sizeof what) n += (size_t)snprintf(what + n, sizeof what - n, " boats %g,", c->boats);
    if (c->tick_hz > 0 && n < sizeof what) n += (size_t)snprintf(what + n, sizeof what - n, " tick_hz %g,", c->tick_hz);
    if (c->area > 0 && n < sizeof what) n += (size_t)snprintf(what + n, sizeof what - n, " area %g,", c->area);
    if (!n) return;
    what[strlen(what) - 1] = '\0';
    log_warn("--restore: the world comes from the checkpoint; ignoring%s", what);
}

/* The default world or the scenario, or with --restore the checkpoint's
 * (owned vessels into *restored). */
static int loop_build_world(loop_server* s, owners* restored, nv_error* err) {
    const cfg_server* c = s->cfg;
    if (c->restore_absent)
        log_info("--restore-if-present: no checkpoint at %s yet: building a new world (checkpoints go there)",
                 c->checkpoint);
    if (!c->restore[0]) {
        /* A scenario that does not load is an input error, as with --check-config. */
        s->bad_restore = sim_create(&s->sim, c, err) != 0;
        return s->bad_restore ? -1 : 0;
    }
    nv_checkpoint ck;
    int rc = persist_recover(c->restore, &ck, err);
    if (!rc && (rc = sim_restore(&s->sim, &ck, (uint32_t)c->threads, uv_hrtime(), restored, err)) != 0)
        nv_error_prefix(err, "--restore %s", c->restore);
    if (!rc) {
        log_info(
            "restored tick %llu (%.1f s) from %s: %u vessels, %u owned by clients (orphans until they come "
            "back with their tokens), %u on autopilot",
            (unsigned long long)ck.tick, ck.time, c->restore, nv_world_vessel_count(s->sim.world), restored->count,
            autopilot_count(s->sim.pilot));
        loop_log_ignored(c);
    }
    nv_checkpoint_free(&ck);
    s->bad_restore = rc != 0;
    return rc;
}

/* Record file number n of --record: its base checkpoint first (the
 * log's start), then the log; LOG and LOG.ckpt then point at it. */
static int loop_record_open(loop_server* s, uint32_t n, record** out, nv_error* err) {
    const cfg_server* c = s->cfg;
    char base[CFG_PATH_MAX + 40], log[CFG_PATH_MAX + 32];
    record_segment_name(log, sizeof log, c->record, n, NULL);
    record_segment_name(base, sizeof base, c->record, n, RECORD_BASE_SUFFIX);
    size_t bytes;
    uint64_t ms;
    if (persist_write_now(&s->persist, base, &bytes, &ms, err)) return nv_error_prefix(err, "--record");
    nv_world* w = s->sim.world;
    if (record_open(out, log, base, nv_world_tick(w), nv_world_state_hash(w), (uint32_t)c->record_hash_interval, err))
        return -1;
    nv_error why;
    if (record_segment_link(c->record, n, &why)) log_warn("%s (the log goes on in %s)", why.message, log);
    log_info("recording to %s from tick %llu (base checkpoint %s: %zu bytes in %llu ms; a hash every %g ticks)", log,
             (unsigned long long)nv_world_tick(w), base, bytes, (unsigned long long)ms, c->record_hash_interval);
    return 0;
}

/* --record: a new numbered file for every start, so that a restart never
 * touches the logs of the runs before it. */
static int loop_start_record(loop_server* s, nv_error* err) {
    const cfg_server* c = s->cfg;
    if (record_segment_next(c->record, &s->record_seq, err)) return nv_error_prefix(err, "--record");
    record* rec;
    if (loop_record_open(s, s->record_seq, &rec, err)) return -1;
    sim_set_record(&s->sim, rec);
    record_segment_prune(c->record, s->record_seq, (uint32_t)c->record_keep);
    s->last_record_sync_ns = uv_hrtime();
    return 0;
}

/* A record file at its cap goes on in the next one, from a base taken now
 * (between ticks). The base is written on the loop thread: a rotation
 * costs one checkpoint's write. */
static void loop_record_rotate(loop_server* s) {
    const cfg_server* c = s->cfg;
    uint64_t cap = (uint64_t)c->record_max_bytes;
    if (!s->sim.rec || !cap || s->stopping || record_bytes(s->sim.rec) < cap) return;
    uint64_t now = uv_hrtime();
    if (now < s->record_retry_ns) return;
    record* next = NULL;
    nv_error err;
    if (loop_record_open(s, s->record_seq + 1, &next, &err)) {
        log_error("record: cannot start the next file: %s; %s goes on past its cap (next try in 10 s)", err.message,
                  record_path(s->sim.rec));
        s->record_retry_ns = now + 10ull * 1000000000ull;
        return;
    }
    s->record_seq++;
    record_close_next(s->sim.rec, nv_world_tick(s->sim.world), record_path(next), &s->loop);
    sim_set_record(&s->sim, next);
    record_segment_prune(c->record, s->record_seq, (uint32_t)c->record_keep);
}

static void loop_edge_limits(const cfg_server* c, edge_limits* l) {
    edge_limits_default(l);
    l->max_connections = (uint32_t)c->limits.max_connections;
    l->max_connections_per_address = (uint32_t)c->limits.max_connections_per_address;
    l->header_timeout_s = c->limits.header_timeout_s;
    l->idle_timeout_s = c->limits.idle_timeout_s;
    l->send_timeout_s = c->limits.send_timeout_s;
    l->max_header_bytes = (uint32_t)c->limits.max_header_bytes;
    l->send_queue = (uint32_t)c->snapshot_queue;
    /* Requests over the limit get a LIMIT_EXCEEDED answer; only far
     * bigger ones close the connection. */
    l->max_message_bytes = (uint32_t)c->limits.max_request_bytes * 4 + 65536;
    l->max_pending = (uint32_t)c->command_contexts;
    l->log_interval_s = c->limits.log_interval_s;
    l->request_idle_timeout_s = c->limits.request_idle_timeout_s;
    l->peer_idle_timeout_s = c->limits.view_idle_timeout_s;
    l->message_timeout_s = c->limits.message_timeout_s;
    /* The edge makes room at the loop's own caps, so that a newcomer is
     * refused by them (with the reason) only when nobody is idle. */
    l->max_requesters = (uint32_t)c->limits.max_clients;
    l->max_peers = (uint32_t)c->limits.max_views;
}

static int loop_start(loop_server* s, nv_error* err) {
    const cfg_server* c = s->cfg;
    if (uv_loop_init(&s->loop)) return nv_error_set(err, "libuv loop init failed");
    log_set_rate(c->limits.log_lines_per_second);
    metrics_init(&s->m, uv_hrtime());
    /* Only pointers and empty tables: the restore fills its owners. */
    cmd_init(&s->cmd, &s->sim, &s->snap, NULL, &s->m, c);
    if (loop_build_world(s, &s->cmd.owners, err)) return -1;
    s->period_ns = (uint64_t)llround(1e9 / s->sim.tick_hz);
    if (snap_init(&s->snap, (uint32_t)c->keyframe_interval, err)) return -1;
    uv_handle_t* handles[] = {(uv_handle_t*)&s->tick,   (uv_handle_t*)&s->housekeeping, (uv_handle_t*)&s->drain,
                              (uv_handle_t*)&s->wake,   (uv_handle_t*)&s->sigint,       (uv_handle_t*)&s->sigterm,
                              (uv_handle_t*)&s->checkpoint};
    if (uv_timer_init(&s->loop, &s->tick) || uv_timer_init(&s->loop, &s->housekeeping) ||
        uv_timer_init(&s->loop, &s->drain) || uv_timer_init(&s->loop, &s->checkpoint) ||
        uv_async_init(&s->loop, &s->wake, loop_on_wake) ||
        uv_signal_init(&s->loop, &s->sigint) || uv_signal_init(&s->loop, &s->sigterm))
        return nv_error_set(err, "libuv handles init failed");
    for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++) handles[i]->data = s;
    s->handles = (int)(sizeof handles / sizeof handles[0]);
    if (cmdq_init(&s->queue, &s->wake)) return nv_error_set(err, "mutex init failed");
    if (c->http[0]) {
        http_config hc = {c->web_root, s->sim.tick_hz};
        if (http_open(&s->http, &hc, &s->m, err)) return -1;
    }
    net_config nc = {c->snapshot_url, c->compact_url, c->command_url, c->view_url, c->http, {0}, 0};
    loop_edge_limits(c, &nc.limits);
    nc.private_streams = c->private_streams != 0;
    persist_init(&s->persist, &s->loop, &s->sim, &s->cmd.owners, &s->m, c->checkpoint);
    /* No writer runs yet: what lies beside the file is an earlier crash's. */
    if (c->checkpoint[0]) persist_tidy(c->checkpoint);
    /* Before the sockets open: no request can change the world before
     * the base checkpoint is taken. */
    if (c->record[0] && loop_start_record(s, err)) return -1;
    if (views_init(&s->views, c, s->sim.tick_hz, &s->cmd.owners, &s->m, err)) return -1;
    if (net_open(&s->net, &nc, s->http, &s->queue, &s->m, err)) return -1;
    if (s->views.hub) view_hub_set_command_port(s->views.hub, (uint16_t)net_command_port(s->net));
    s->cmd.net = s->net;
    s->views.net = s->net;
    if (c->checkpoint[0]) {
        uint64_t every_ms = c->checkpoint_interval_s > 0 ? (uint64_t)llround(c->checkpoint_interval_s * 1000.0) : 0;
        if (every_ms) uv_timer_start(&s->checkpoint, loop_on_checkpoint, every_ms, every_ms);
        if (every_ms) log_info("checkpoints: %s every %g s and at shutdown", c->checkpoint, c->checkpoint_interval_s);
        else log_info("checkpoints: %s at shutdown only (interval 0)", c->checkpoint);
    }
    /* The world is built and the sockets listen: tell Agones. */
    if (c->agones) {
        if (agones_open(&s->agones, c->agones_url, &s->m, err)) {
            log_warn("%s (continuing without Agones)", err->message);
        } else {
            log_info("agones: calling the SDK sidecar at %s every %d s", c->agones_url, AGONES_PERIOD_S);
            agones_call(s->agones);
            s->last_agones_ns = uv_hrtime();
        }
    }
    atomic_store(&s->m.vessels, nv_world_vessel_count(s->sim.world));
    uv_signal_start(&s->sigint, loop_on_signal, SIGINT);
    uv_signal_start(&s->sigterm, loop_on_signal, SIGTERM);
    uv_timer_start(&s->housekeeping, loop_on_housekeeping, 1000, 1000);
    s->last_ns = s->last_status_ns = s->last_summary_ns = uv_hrtime();
    loop_log_start(s);
    loop_schedule(s);
    return 0;
}

static void loop_teardown(loop_server* s) {
    net_close(s->net);
    s->net = NULL;
    views_free(&s->views);
    agones_close(s->agones);
    s->agones = NULL;
    if (s->handles > 0) {
        uv_handle_t* handles[] = {(uv_handle_t*)&s->tick,   (uv_handle_t*)&s->housekeeping, (uv_handle_t*)&s->drain,
                                  (uv_handle_t*)&s->wake,   (uv_handle_t*)&s->sigint,       (uv_handle_t*)&s->sigterm,
                                  (uv_handle_t*)&s->checkpoint};
        for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++)
            if (handles[i]->loop && !uv_is_closing(handles[i])) uv_close(handles[i], loop_on_closed);
        uv_run(&s->loop, UV_RUN_DEFAULT);
    }
    /* The edge's thread is gone (net_close): no handler reads the site,
     * no callback touches the queue. nng's threads (the Agones client)
     * end here. */
    nng_fini();
    http_free(s->http);
    s->http = NULL;
    if (s->queue.wake) cmdq_destroy(&s->queue);
    record* rec = s->sim.rec;
    sim_set_record(&s->sim, NULL);
    if (rec) record_close(rec, nv_world_tick(s->sim.world), s->stopping);
    persist_free(&s->persist);
    cmd_free(&s->cmd);
    snap_free(&s->snap);
    free(s->batch);
    sim_destroy(&s->sim);
    uv_loop_close(&s->loop);
}

int loop_run(const cfg_server* cfg) {
    loop_server* s = calloc(1, sizeof *s);
    if (!s) {
        log_error("out of memory");
        return 1;
    }
    s->cfg = cfg;
    nv_error err;
    int rc = 0;
    if (loop_start(s, &err)) {
        log_error("%s", err.message);
        rc = s->bad_restore ? 2 : 1;
    } else {
        uv_run(&s->loop, UV_RUN_DEFAULT);
        if (s->cfg->checkpoint[0] && persist_final_failed(&s->persist)) {
            log_error("stopped at tick %llu without its final checkpoint (see above)",
                      (unsigned long long)nv_world_tick(s->sim.world));
            rc = 1;
        } else {
            log_info("stopped cleanly at tick %llu", (unsigned long long)nv_world_tick(s->sim.world));
        }
    }
    loop_teardown(s);
    free(s);
    return rc;
}
