// SPDX-License-Identifier: MIT
/* bench-server: what snapshots cost the server and whether subscribers
 * disturb it.
 *
 * Part 1 (in process, the server's own code): a world of --boats boats
 * (default 4000) stepped for real; per tick the snapshot is captured from
 * the world, encoded full and compact, and published on PUB sockets with
 * --subscribers SUB sockets (tcp, loopback) on each stream; prints the
 * time of each stage, bytes per boat (full; compact keyframes and deltas)
 * and what the subscribers received.
 *
 * Part 2 (a real naval-server process at 60 Hz with --server-boats
 * boats): tick time from the snapshots' own statistics with one monitor
 * subscriber, then with --subscribers more over tcp, then over ws; drops
 * counted from gaps in every subscriber's tick numbers. */
#include <math.h>
#include <nng/nng.h>
#include <nng/protocol/pubsub0/sub.h>
#include <nng/supplemental/util/platform.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "cli.h"
#include "cmdq.h"
#include "config.h"
#include "log.h"
#include "metrics.h"
#include "naval_client.h"
#include "net.h"
#include "sim.h"
#include "snapshot.h"
#include "test_server_proc.h"

typedef struct bench_args {
    uint32_t boats, steps, subscribers, threads, server_boats;
    double seconds;
    const char* server;
    int skip_inprocess, skip_server;
} bench_args;

/* ---- a counting subscriber ------------------------------------------------- */

typedef struct bench_sub {
    nng_socket sock;
    nng_aio* aio;
    atomic_uint_least64_t received, bytes, gaps;
    uint64_t last_tick;  /* aio callback only */
    int decode_ticks;
    proto_snapshot snap; /* aio callback only */
} bench_sub;

static void bench_sub_cb(void* arg) {
    bench_sub* s = arg;
    if (nng_aio_result(s->aio) != 0) return; /* closed */
    nng_msg* m = nng_aio_get_msg(s->aio);
    atomic_fetch_add(&s->received, 1);
    atomic_fetch_add(&s->bytes, nng_msg_len(m));
    if (s->decode_ticks && proto_decode_snapshot(nng_msg_body(m), nng_msg_len(m), NULL, &s->snap, NULL) == 0) {
        if (s->last_tick && s->snap.tick > s->last_tick + 1) atomic_fetch_add(&s->gaps, s->snap.tick - s->last_tick - 1);
        s->last_tick = s->snap.tick;
    }
    nng_msg_free(m);
    nng_recv_aio(s->sock, s->aio);
}

static int bench_sub_open(bench_sub* s, const char* url, int decode_ticks) {
    memset(s, 0, sizeof *s);
    s->decode_ticks = decode_ticks;
    nng_dialer d;
    if (nng_sub0_open(&s->sock) || nng_socket_set(s->sock, NNG_OPT_SUB_SUBSCRIBE, "", 0) ||
        nng_aio_alloc(&s->aio, bench_sub_cb, s) || nng_dialer_create(&d, s->sock, url) ||
        nng_dialer_set_size(d, NNG_OPT_RECVMAXSZ, 256u << 20) || nng_dialer_start(d, 0)) {
        fprintf(stderr, "bench-server: cannot subscribe to %s\n", url);
        return -1;
    }
    nng_recv_aio(s->sock, s->aio);
    return 0;
}

static void bench_sub_close(bench_sub* s) {
    /* Nothing in flight when the socket closes (see net_close). */
    if (s->aio) nng_aio_stop(s->aio);
    nng_close(s->sock);
    if (s->aio) nng_aio_free(s->aio);
    proto_free_snapshot(&s->snap);
}

/* ---- statistics ------------------------------------------------------------- */

static int bench_cmp(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

typedef struct bench_pct {
    double p50, p99, max, mean;
} bench_pct;

static bench_pct bench_percentiles(double* v, uint32_t n) {
    bench_pct p = {0, 0, 0, 0};
    if (!n) return p;
    qsort(v, n, sizeof *v, bench_cmp);
    for (uint32_t i = 0; i < n; i++) p.mean += v[i];
    p.mean /= n;
    p.p50 = v[(n - 1) / 2];
    p.p99 = v[(uint32_t)((n - 1) * 0.99)];
    p.max = v[n - 1];
    return p;
}

static void bench_print_pct(const char* what, bench_pct p) {
    printf("  %-28s p50 %8.4f  p99 %8.4f  max %8.4f  mean %8.4f ms\n", what, p.p50, p.p99, p.max, p.mean);
}

static double bench_ms(uint64_t a, uint64_t b) { return (double)(b - a) * 1e-6; }

/* ---- part 1 ----------------------------------------------------------------- */

static int bench_inprocess(const bench_args* a) {
    cfg_server cfg;
    cfg_defaults(&cfg);
    cfg.boats = a->boats;
    cfg.threads = a->threads;
    nv_error err;
    if (cfg_finish(&cfg, &err)) {
        fprintf(stderr, "bench-server: %s\n", err.message);
        return -1;
    }
    printf("part 1: %u boats, snapshot capture + encode + publish, %u subscribers per stream (tcp loopback)\n",
           a->boats, a->subscribers);
    sim s;
    if (sim_create(&s, &cfg, &err)) {
        fprintf(stderr, "bench-server: %s\n", err.message);
        return -1;
    }
    static metrics m;
    metrics_init(&m, uv_hrtime());
    cmdq q;
    cmdq_init(&q, NULL);
    char full_url[64], compact_url[64];
    snprintf(full_url, sizeof full_url, "tcp://127.0.0.1:%d", proc_free_port());
    snprintf(compact_url, sizeof compact_url, "tcp://127.0.0.1:%d", proc_free_port());
    net_config nc = {full_url, compact_url, "", "", "", {0}, 0};
    edge_limits_default(&nc.limits);
    net* n = NULL;
    snap_builder b;
    log_set_level(LOG_LEVEL_WARN);
    if (net_open(&n, &nc, NULL, &q, &m, &err) || snap_init(&b, 60, &err)) {
        fprintf(stderr, "bench-server: %s\n", err.message);
        sim_destroy(&s);
        return -1;
    }
    uint32_t k = a->subscribers;
    bench_sub* subs = calloc(2 * (size_t)k + 1, sizeof *subs);
    for (uint32_t i = 0; i < 2 * k; i++)
        if (bench_sub_open(&subs[i], i < k ? full_url : compact_url, 0)) return -1;
    double deadline = proc_now() + 10.0;
    while ((metrics_subscribers(&m, METRICS_FULL) < k || metrics_subscribers(&m, METRICS_COMPACT) < k) &&
           proc_now() < deadline)
        proc_sleep_ms(10);
    uint32_t steps = a->steps;
    double* t_capture = calloc(steps, sizeof(double));
    double* t_full = calloc(steps, sizeof(double));
    double* t_pub = calloc(steps, sizeof(double));
    double* t_total = calloc(steps, sizeof(double));
    double* t_compact = calloc(steps, sizeof(double));
    double* t_cpub = calloc(steps, sizeof(double));
    double* t_step = calloc(steps, sizeof(double));
    double* t_pilot = calloc(steps, sizeof(double));
    size_t full_bytes = 0, key_bytes = 0, delta_bytes = 0;
    uint32_t keys = 0, deltas = 0;
    for (int i = 0; i < 5; i++) sim_step(&s);
    proto_tick_stats stats = {0};
    for (uint32_t i = 0; i < steps; i++) {
        uint64_t t0 = uv_hrtime();
        sim_step(&s);
        uint64_t t1 = uv_hrtime();
        snap_capture(&b, s.world, &stats, &err);
        uint64_t t2 = uv_hrtime();
        snap_encode_full(&b, &err);
        uint64_t t3 = uv_hrtime();
        net_publish(n, METRICS_FULL, b.full.data, b.full.size);
        uint64_t t4 = uv_hrtime();
        int kf = 0;
        proto_error pe;
        if (proto_encode_compact(b.encoder, &b.snap, &b.compact, &kf, &pe)) {
            fprintf(stderr, "bench-server: %s\n", pe.message);
            return -1;
        }
        uint64_t t5 = uv_hrtime();
        net_publish(n, METRICS_COMPACT, b.compact.data, b.compact.size);
        uint64_t t6 = uv_hrtime();
        t_step[i] = bench_ms(t0, t1);
        t_pilot[i] = (double)s.pilot_ns * 1e-6;
        t_capture[i] = bench_ms(t1, t2);
        t_full[i] = bench_ms(t2, t3);
        t_pub[i] = bench_ms(t3, t4);
        t_total[i] = bench_ms(t1, t4);
        t_compact[i] = bench_ms(t4, t5);
        t_cpub[i] = bench_ms(t5, t6);
        full_bytes = b.full.size;
        if (kf) key_bytes += b.compact.size, keys++;
        else delta_bytes += b.compact.size, deltas++;
    }
    proc_sleep_ms(500);
    uint64_t got_full = 0, got_compact = 0, min_full = UINT64_MAX;
    for (uint32_t i = 0; i < 2 * k; i++) {
        uint64_t r = atomic_load(&subs[i].received);
        if (i < k) got_full += r, min_full = r < min_full ? r : min_full;
        else got_compact += r;
    }
    bench_print_pct("world step (for scale)", bench_percentiles(t_step, steps));
    bench_print_pct("autopilot (in the step)", bench_percentiles(t_pilot, steps));
    double pilot_sum = 0.0, step_sum = 0.0;
    for (uint32_t i = 0; i < steps; i++) pilot_sum += t_pilot[i], step_sum += t_step[i];
    printf("  autopilot share of the step: %.2f %% (%u boats on autopilot, %u threads)\n",
           step_sum > 0.0 ? 100.0 * pilot_sum / step_sum : 0.0, autopilot_count(s.pilot), a->threads);
    bench_print_pct("capture from the world", bench_percentiles(t_capture, steps));
    bench_print_pct("encode full", bench_percentiles(t_full, steps));
    bench_print_pct("publish full (hand-off)", bench_percentiles(t_pub, steps));
    bench_print_pct("capture+encode+publish full", bench_percentiles(t_total, steps));
    bench_print_pct("encode compact", bench_percentiles(t_compact, steps));
    bench_print_pct("publish compact (hand-off)", bench_percentiles(t_cpub, steps));
    double nb = (double)nv_world_vessel_count(s.world);
    printf(
        "  bytes per boat: full %.2f (%zu B per snapshot); compact keyframe %.2f, delta %.2f "
        "(%u keyframes, %u deltas)\n",
        full_bytes / nb, full_bytes, keys ? key_bytes / (double)keys / nb : 0.0,
        deltas ? delta_bytes / (double)deltas / nb : 0.0, keys, deltas);
    printf("  received: full %llu of %llu (fewest by one subscriber %llu of %u), compact %llu of %llu; "
           "superseded before the network thread took them: full %llu, compact %llu\n",
           (unsigned long long)got_full, (unsigned long long)k * steps, (unsigned long long)(k ? min_full : 0), steps,
           (unsigned long long)got_compact, (unsigned long long)k * steps,
           (unsigned long long)atomic_load(&net_stats(n)->superseded[METRICS_FULL]),
           (unsigned long long)atomic_load(&net_stats(n)->superseded[METRICS_COMPACT]));
    for (uint32_t i = 0; i < 2 * k; i++) bench_sub_close(&subs[i]);
    free(subs);
    net_close(n);
    cmdq_destroy(&q);
    snap_free(&b);
    sim_destroy(&s);
    free(t_capture), free(t_full), free(t_pub), free(t_total), free(t_compact), free(t_cpub), free(t_step), free(t_pilot);
    return 0;
}

/* ---- part 2 ----------------------------------------------------------------- */

typedef struct bench_monitor {
    nng_mtx* lock;
    double *step, *snap, *work;
    uint32_t count, capacity;
    uint64_t first_overruns, last_overruns, first_tick, last_tick, gaps;
    int recording;
} bench_monitor;

static void bench_monitor_cb(void* user, const proto_snapshot* s) {
    bench_monitor* m = user;
    nng_mtx_lock(m->lock);
    if (m->recording && m->count < m->capacity) {
        if (m->count == 0) m->first_overruns = s->stats.overruns, m->first_tick = s->tick;
        else if (s->tick > m->last_tick + 1) m->gaps += s->tick - m->last_tick - 1;
        m->step[m->count] = s->stats.step_ms;
        /* The snapshot's stats carry the previous snapshot's cost. */
        m->snap[m->count] = s->stats.snapshot_ms;
        m->work[m->count] = s->stats.step_ms + s->stats.snapshot_ms;
        m->count++;
        m->last_overruns = s->stats.overruns;
        m->last_tick = s->tick;
    }
    nng_mtx_unlock(m->lock);
}

static void bench_phase(const bench_args* a, bench_monitor* mon, const char* name, const char* url) {
    uint32_t k = url ? a->subscribers : 0;
    bench_sub* subs = calloc(k + 1, sizeof *subs);
    for (uint32_t i = 0; i < k; i++) bench_sub_open(&subs[i], url, 1);
    proc_sleep_ms(1000); /* connections settle */
    nng_mtx_lock(mon->lock);
    mon->count = 0;
    mon->gaps = 0;
    mon->recording = 1;
    nng_mtx_unlock(mon->lock);
    for (uint32_t i = 0; i < k; i++) {
        atomic_store(&subs[i].received, 0);
        atomic_store(&subs[i].gaps, 0);
    }
    proc_sleep_ms((int)(a->seconds * 1000));
    nng_mtx_lock(mon->lock);
    mon->recording = 0;
    uint32_t n = mon->count;
    bench_pct step = bench_percentiles(mon->step, n), snap = bench_percentiles(mon->snap, n),
              work = bench_percentiles(mon->work, n);
    uint64_t overruns = mon->last_overruns - mon->first_overruns, ticks = n ? mon->last_tick - mon->first_tick + 1 : 0;
    uint64_t mon_gaps = mon->gaps;
    nng_mtx_unlock(mon->lock);
    uint64_t received = 0, gaps = 0, bytes = 0;
    for (uint32_t i = 0; i < k; i++) {
        received += atomic_load(&subs[i].received);
        gaps += atomic_load(&subs[i].gaps);
        bytes += atomic_load(&subs[i].bytes);
    }
    printf("  %-14s ticks %5llu  step p50 %6.3f p99 %6.3f max %6.3f | snapshot p50 %6.3f p99 %6.3f max %6.3f | "
           "step+snapshot p99 %6.3f ms | overruns %llu | monitor gaps %llu",
           name, (unsigned long long)ticks, step.p50, step.p99, step.max, snap.p50, snap.p99, snap.max, work.p99,
           (unsigned long long)overruns, (unsigned long long)mon_gaps);
    if (k)
        printf(" | %u subscribers received %llu (%.1f MB), dropped %llu", k, (unsigned long long)received,
               bytes / 1e6, (unsigned long long)gaps);
    printf("\n");
    for (uint32_t i = 0; i < k; i++) bench_sub_close(&subs[i]);
    free(subs);
}

static int bench_server_process(const bench_args* a) {
    char boats[16], threads[16];
    snprintf(boats, sizeof boats, "%u", a->server_boats);
    snprintf(threads, sizeof threads, "%u", a->threads);
    const char* extra[] = {"--boats", boats, "--threads", threads, "--log-level", "warn", NULL};
    server_proc p;
    if (proc_start(&p, a->server, extra, 30.0)) {
        fprintf(stderr, "bench-server: %s did not start\n", a->server);
        return -1;
    }
    printf("part 2: naval-server, %u boats at 60 Hz, %u threads; %u subscribers per phase, %.0f s each\n",
           a->server_boats, a->threads, a->subscribers, a->seconds);
    bench_monitor mon = {0};
    mon.capacity = (uint32_t)(a->seconds * 60 * 2 + 100);
    mon.step = calloc(mon.capacity, sizeof(double));
    mon.snap = calloc(mon.capacity, sizeof(double));
    mon.work = calloc(mon.capacity, sizeof(double));
    nng_mtx_alloc(&mon.lock);
    nvc_options o;
    nvc_options_default(&o);
    o.snapshot_url = p.snapshot_url;
    o.queue_depth = 64;
    nvc_client* c = NULL;
    nv_error e;
    if (nvc_connect(&c, &o, &e) || nvc_set_snapshot_callback(c, bench_monitor_cb, &mon, &e)) {
        fprintf(stderr, "bench-server: monitor: %s\n", e.message);
        proc_stop(&p, SIGKILL, 5);
        return -1;
    }
    bench_phase(a, &mon, "monitor only", NULL);
    bench_phase(a, &mon, "+ tcp subs", p.snapshot_url);
    bench_phase(a, &mon, "+ ws subs", p.ws_snapshots);
    nvc_snapshot_counts counts;
    nvc_snapshot_counts_get(c, &counts);
    printf("  monitor client: %llu received, %llu dropped in its own queue\n", (unsigned long long)counts.received,
           (unsigned long long)counts.dropped);
    nvc_close(c);
    int rc = proc_stop(&p, SIGTERM, 10);
    printf("  server exit code after SIGTERM: %d\n", rc);
    nng_mtx_free(mon.lock);
    free(mon.step), free(mon.snap), free(mon.work);
    return rc == 0 ? 0 : -1;
}

#define BENCH_COUNT(name, field, lo, vn, text)                                                                  \
    {name, .type = CLI_UINT, CLI_FIELD(bench_args, field), .min = lo, .max = 1e6, .value_name = vn, .help = text, \
     .show_default = 1}

static const cli_opt bench_opts[] = {
    BENCH_COUNT("--boats", boats, 1, "N", "boats of part 1"),
    BENCH_COUNT("--steps", steps, 1, "S", "ticks measured in part 1"),
    BENCH_COUNT("--subscribers", subscribers, 0, "K", "subscribers per stream"),
    {"--threads", .type = CLI_UINT, CLI_FIELD(bench_args, threads), .min = 1, .max = 64, .value_name = "T",
     .help = "simulation threads (default: all cores)"},
    {"--server", .type = CLI_STRING, CLI_FIELD(bench_args, server), .value_name = "PATH",
     .help = "naval-server for part 2 (default: the build's)"},
    BENCH_COUNT("--server-boats", server_boats, 0, "M", "boats of part 2"),
    {"--seconds", .type = CLI_DOUBLE, CLI_FIELD(bench_args, seconds), .min = 1e-9, .max = 1e6, .value_name = "T",
     .help = "length of each phase of part 2", .show_default = 1},
    {"--skip-inprocess", .type = CLI_SWITCH, CLI_FIELD(bench_args, skip_inprocess), .help = "part 2 only"},
    {"--skip-server", .type = CLI_SWITCH, CLI_FIELD(bench_args, skip_server), .help = "part 1 only"},
    {0}};

static const cli_spec bench_spec = {.prog = "bench-server", .synopsis = "bench-server [options]", .opts = bench_opts};

static int bench_parse(int argc, char** argv, bench_args* a) {
    a->boats = 4000;
    a->steps = 120;
    a->subscribers = 64;
    a->threads = nv_jobs_hardware_threads();
    a->server_boats = 200;
    a->seconds = 5;
    a->server = NAVAL_SERVER_PATH;
    int rc = cli_parse(&bench_spec, argc, argv, a);
    if (rc != CLI_RUN) exit(rc);
    return 0;
}

int main(int argc, char** argv) {
    bench_args a;
    memset(&a, 0, sizeof a);
    int rc = bench_parse(argc, argv, &a);
    if (rc) return rc;
    signal(SIGPIPE, SIG_IGN);
    if (!a.skip_inprocess && bench_inprocess(&a)) return 1;
    if (!a.skip_server && bench_server_process(&a)) return 1;
    return 0;
}
