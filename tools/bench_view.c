// SPDX-License-Identifier: MIT
/* The player-view encoder alone (view/view.h): a fleet that moves like
 * ships, V views spread over it, each with a client (decoder) that
 * acknowledges 3 ticks later; per tick the hub encodes every view on the
 * job pool. Prints the encode time per tick, each view's bandwidth, and
 * the update rates near (300 m) and in the view that the clients saw.
 *
 *   bench-view [--boats N] [--views V] [--radius M] [--budget KBPS] [--seconds S]
 *              [--threads T] [--hz H] [--half M]
 *   bench-view --write-session DIR
 *
 * --half is the fleet's half-width (default 45 sqrt(N) m, the server's demo
 * fleet). --write-session writes one view's updates through joins (every
 * distance class), leaves, a spawn, a despawn, a move, a keyframe
 * fallback, flags that change and gaps past the prediction's reach to
 * DIR/updates.bin
 * (each a 32-bit little-endian length, then the message) and, after each,
 * what the C decoder holds (the ids; for the vessels the update brought,
 * their sample count and newest sample) and the events to
 * DIR/expected.json, and exits: the TypeScript decoder's test reads both. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_fleet.h"
#include "cli.h"
#include "proto.h"
#include "view.h"

#define ACK_DELAY 3

typedef struct options {
    uint64_t boats, views, seconds, threads, budget;
    double radius, hz, half;
    const char* write_session;
} options;

typedef struct client {
    proto_view_decoder* dec;
    double cx, cz;
    uint64_t bytes, updates;
    uint32_t acks[ACK_DELAY + 1][2];
    int silent;
    proto_buf buf;
} client;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static const cli_opt view_opts[] = {
    CLI_UINT_OPT(options, "--boats", boats, 1, 1000000, "N", "vessels in the world"),
    CLI_UINT_OPT(options, "--views", views, 1, 100000, "V", "player views open"),
    {"--radius", .type = CLI_DOUBLE, CLI_FIELD(options, radius), .min = 1e-9, .max = 1e300, .value_name = "M",
     .help = "each view's radius, m", .show_default = 1},
    CLI_UINT_OPT(options, "--budget", budget, 1, 1000000, "KBPS", "each view's budget, kbit/s"),
    CLI_UINT_OPT(options, "--seconds", seconds, 1, 3600, "S", "simulated seconds"),
    CLI_UINT_OPT(options, "--threads", threads, 1, JOBS_MAX_THREADS, "T", "encoding threads"),
    {"--tick-hz", .deprecated = "--hz", .type = CLI_DOUBLE, CLI_FIELD(options, hz), .min = 1e-9, .max = 1000,
     .value_name = "H", .help = "tick rate", .show_default = 1},
    {"--half", .type = CLI_DOUBLE, CLI_FIELD(options, half), .min = 1e-9, .max = 1e300, .value_name = "M",
     .help = "half the side of the square the fleet spreads over, m (default 45 sqrt(boats))"},
    {"--write-session", .type = CLI_STRING, CLI_FIELD(options, write_session), .value_name = "DIR",
     .help = "write a recorded view session to DIR (for the web client's tests) instead"},
    {0}};

static const cli_spec view_spec = {.prog = "bench-view",
                                   .synopsis = "bench-view [options] | --write-session DIR",
                                   .about = "The player-view encoder alone (see tools/bench_view.c).",
                                   .opts = view_opts};

static int parse(int argc, char** argv, options* o) {
    *o = (options){4000, 20, 10, 2, 256, 1000.0, 60.0, 0.0, NULL};
    int rc = cli_parse(&view_spec, argc, argv, o);
    if (rc != CLI_RUN) exit(rc);
    if (o->half <= 0.0) o->half = 45.0 * sqrt((double)o->boats);
    return 0;
}

static void fleet_at(proto_vessel* v, uint32_t n, uint64_t tick, double hz, double half) {
    for (uint32_t i = 0; i < n; i++) bench_boat_state(i, (double)tick / hz, half, &v[i]);
}

/* The client's side of a tick: decode what came, queue its ack, hand the
 * ack of ACK_DELAY ticks ago to the hub. */
static void client_tick(view_hub* hub, uint32_t conn, client* c, const uint8_t* data, size_t size, uint64_t tick) {
    uint32_t slot = (uint32_t)(tick % (ACK_DELAY + 1));
    c->acks[slot][0] = c->acks[slot][1] = 0;
    if (data) {
        proto_view_header h;
        nv_error e;
        if (proto_decode_view_update(c->dec, data, size, &h, &e)) {
            fprintf(stderr, "bench-view: view %u: %s\n", conn, e.message);
            exit(1);
        }
        c->bytes += size;
        c->updates++;
        if (!c->silent) proto_view_decoder_ack(c->dec, &c->acks[slot][0], &c->acks[slot][1]);
    }
    uint32_t due = (uint32_t)((tick + 1) % (ACK_DELAY + 1));
    if (!c->acks[due][0]) return;
    proto_view_request r;
    memset(&r, 0, sizeof r);
    r.ack = c->acks[due][0];
    r.ack_mask = c->acks[due][1];
    nv_error e;
    if (proto_encode_view_request(&c->buf, &r, &e) || view_handle(hub, conn, c->buf.data, c->buf.size, &e)) {
        fprintf(stderr, "bench-view: ack: %s\n", e.message);
        exit(1);
    }
}

static int open_client(view_hub* hub, uint32_t conn, client* c, double x, double z, double radius, uint32_t kbps) {
    memset(c, 0, sizeof *c);
    c->cx = x;
    c->cz = z;
    nv_error e;
    if (!(c->dec = proto_create_view_decoder(1u << 16, &e)) || view_open(hub, conn, &e)) {
        fprintf(stderr, "bench-view: %s\n", e.message);
        return -1;
    }
    proto_view_request r;
    memset(&r, 0, sizeof r);
    r.has_settings = 1;
    r.settings.center[0] = x;
    r.settings.center[1] = z;
    r.settings.radius = (float)radius;
    r.settings.budget_kbps = kbps;
    if (proto_encode_view_request(&c->buf, &r, &e) || view_handle(hub, conn, c->buf.data, c->buf.size, &e)) {
        fprintf(stderr, "bench-view: %s\n", e.message);
        return -1;
    }
    return 0;
}

static void close_client(client* c) {
    proto_destroy_view_decoder(c->dec);
    proto_free_buf(&c->buf);
}

static view_hub* make_hub(const options* o) {
    view_config vc;
    view_config_default(&vc);
    vc.tick_hz = o->hz;
    vc.max_radius = (float)(o->radius > 2000.0 ? o->radius : 2000.0);
    vc.max_views = (uint32_t)o->views + 1;
    view_hub* hub = NULL;
    nv_error e;
    if (view_hub_create(&hub, &vc, NULL, NULL, &e)) fprintf(stderr, "bench-view: %s\n", e.message);
    return hub;
}

/* ---- the session for the TypeScript decoder's test -------------------------------- */

static void json_vessels(FILE* f, const proto_view_decoder* d, uint64_t tick) {
    uint32_t n;
    const proto_view_vessel* vs = proto_view_decoder_vessels(d, &n);
    /* By id, so that the reader need not sort. */
    uint32_t* order = malloc((n ? n : 1) * sizeof *order);
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && vs[order[j - 1]].id > vs[order[j]].id; j--) {
            uint32_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    fprintf(f, "\"held\":[");
    for (uint32_t i = 0; i < n; i++) fprintf(f, "%s%u", i ? "," : "", vs[order[i]].id);
    fprintf(f, "],\"vessels\":[");
    int first = 1;
    for (uint32_t i = 0; i < n; i++) {
        const proto_view_vessel* v = &vs[order[i]];
        /* Those this update brought, their newest sample: the older ones
         * were checked when they were new. */
        const proto_view_sample* s = &v->samples[0];
        if (s->tick != tick) continue;
        fprintf(f,
                "%s{\"id\":%u,\"type\":%u,\"flags\":%u,\"samples\":%u,\"tick\":%llu,\"p\":[%.17g,%.17g,%.17g],"
                "\"q\":[%.9g,%.9g,%.9g,%.9g]}",
                first ? "" : ",", v->id, v->type, v->flags, v->sample_count, (unsigned long long)s->tick, s->position[0],
                s->position[1], s->position[2], (double)s->orientation[0], (double)s->orientation[1],
                (double)s->orientation[2], (double)s->orientation[3]);
        first = 0;
    }
    fprintf(f, "]");
    free(order);
}

static int session_settings(view_hub* hub, client* c, double x, double radius, uint32_t kbps) {
    proto_view_request r;
    memset(&r, 0, sizeof r);
    r.has_settings = 1;
    r.settings.center[0] = x;
    r.settings.radius = (float)radius;
    r.settings.budget_kbps = kbps;
    nv_error e;
    return proto_encode_view_request(&c->buf, &r, &e) || view_handle(hub, 1, c->buf.data, c->buf.size, &e);
}

/* One view through everything its decoder must follow: a join over all
 * four distance classes, a move (leaves and enters), a despawn, a spawn,
 * a silence (keyframes), flags that change, and a budget so small that
 * vessels go unsent for more than the prediction's 120 ticks. */
static int write_session(const char* dir) {
    options o = {300, 1, 0, 1, 128, 1500.0, 60.0, 2000.0, NULL};
    char path[512];
    snprintf(path, sizeof path, "%s/updates.bin", dir);
    FILE* bin = fopen(path, "wb");
    snprintf(path, sizeof path, "%s/expected.json", dir);
    FILE* js = fopen(path, "w");
    if (!bin || !js) {
        fprintf(stderr, "bench-view: cannot write into %s\n", dir);
        return 1;
    }
    view_hub* hub = make_hub(&o);
    client c;
    if (!hub || open_client(hub, 1, &c, 0.0, 0.0, o.radius, (uint32_t)o.budget)) return 1;
    proto_vessel* v = calloc(o.boats + 8, sizeof *v);
    uint32_t n = (uint32_t)o.boats;
    fprintf(js, "[");
    int first = 1;
    for (uint64_t tick = 1; tick <= 900; tick++) {
        fleet_at(v, n, tick, o.hz, o.half);
        if (tick >= 150) n = (uint32_t)o.boats - 1;            /* a despawn */
        if (tick >= 200) {                                   /* a spawn near the centre */
            bench_boat_state(1000, (double)tick / o.hz, 1.0, &v[n]);
            n++;
        }
        if (tick >= 360 && tick < 420)                       /* flags that come and go */
            for (uint32_t i = 0; i < 40; i++) v[i].flags = PROTO_VESSEL_GROUNDED;
        c.silent = tick >= 240 && tick < 320;                /* stops acknowledging: keyframes */
        if ((tick == 100 && session_settings(hub, &c, 400.0, o.radius, (uint32_t)o.budget)) ||
            (tick == 480 && session_settings(hub, &c, 400.0, o.radius, 2)))
            return 1;
        view_frame f = {tick, (double)tick / o.hz, 0, v, n, NULL, 0};
        nv_error e;
        if (view_hub_encode(hub, &f, NULL, &e)) return 1;
        const uint8_t* data = NULL;
        size_t size = 0;
        if (view_hub_output_count(hub)) {
            uint32_t conn;
            view_hub_output(hub, 0, &conn, &data, &size);
            uint8_t len[4] = {(uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16), (uint8_t)(size >> 24)};
            fwrite(len, 1, 4, bin);
            fwrite(data, 1, size, bin);
        }
        client_tick(hub, 1, &c, data, size, tick);
        if (data) {
            uint32_t ne;
            const proto_view_event* ev = proto_view_decoder_events(c.dec, &ne);
            fprintf(js, "%s\n{\"tick\":%llu,\"events\":[", first ? "" : ",", (unsigned long long)tick);
            for (uint32_t k = 0; k < ne; k++) fprintf(js, "%s[%u,%d]", k ? "," : "", ev[k].id, (int)ev[k].kind);
            fprintf(js, "],");
            json_vessels(js, c.dec, tick);
            fprintf(js, "}");
            first = 0;
        }
    }
    fprintf(js, "\n]\n");
    fclose(bin);
    fclose(js);
    view_stats st;
    view_hub_stats(hub, &st);
    printf("bench-view: wrote %llu updates (%llu keyframes) to %s\n", (unsigned long long)st.updates,
           (unsigned long long)st.keyframes, dir);
    close_client(&c);
    view_hub_destroy(hub);
    free(v);
    return st.keyframes ? 0 : 1;
}

/* ---- the benchmark ---------------------------------------------------------------------- */

int main(int argc, char** argv) {
    options o;
    if (parse(argc, argv, &o)) return 2;
    if (o.write_session) return write_session(o.write_session);
    view_hub* hub = make_hub(&o);
    nv_jobs* pool = NULL;
    nv_error e;
    if (!hub || nv_jobs_create(&pool, (uint32_t)o.threads, &e)) return 1;
    uint32_t n = (uint32_t)o.boats, nv = (uint32_t)o.views;
    proto_vessel* v = calloc(n, sizeof *v);
    client* cs = calloc(nv, sizeof *cs);
    /* Views on a grid over the fleet's square. */
    uint32_t side = (uint32_t)ceil(sqrt((double)nv));
    for (uint32_t k = 0; k < nv; k++) {
        double x = -o.half + (2.0 * o.half) * ((k % side) + 0.5) / side;
        double z = -o.half + (2.0 * o.half) * ((k / side) + 0.5) / side;
        if (open_client(hub, k + 1, &cs[k], x, z, o.radius, (uint32_t)o.budget)) return 1;
    }
    uint64_t ticks = (uint64_t)(o.seconds * o.hz), warm = (uint64_t)o.hz;
    double* ms = calloc(ticks, sizeof *ms);
    /* Updates seen near (300 m) and in the view per (view, boat), over the measured ticks. */
    uint32_t* seen = calloc((size_t)nv * n, sizeof *seen);
    uint32_t* near_ticks = calloc((size_t)nv * n, sizeof *near_ticks);
    uint32_t* view_ticks = calloc((size_t)nv * n, sizeof *view_ticks);
    uint32_t* out_of = calloc(nv, sizeof *out_of);
    uint64_t* bytes_warm = calloc(nv, sizeof *bytes_warm);
    for (uint64_t t = 1; t <= ticks + warm; t++) {
        fleet_at(v, n, t, o.hz, o.half);
        view_frame f = {t, (double)t / o.hz, 0, v, n, NULL, 0};
        double t0 = now_ms();
        if (view_hub_encode(hub, &f, pool, &e)) {
            fprintf(stderr, "bench-view: %s\n", e.message);
            return 1;
        }
        if (t > warm) ms[t - warm - 1] = now_ms() - t0;
        for (uint32_t k = 0; k < nv; k++) out_of[k] = UINT32_MAX;
        for (uint32_t i = 0; i < view_hub_output_count(hub); i++) {
            uint32_t conn;
            const uint8_t* data;
            size_t size;
            view_hub_output(hub, i, &conn, &data, &size);
            out_of[conn - 1] = i;
        }
        for (uint32_t k = 0; k < nv; k++) {
            const uint8_t* data = NULL;
            size_t size = 0;
            if (out_of[k] != UINT32_MAX) {
                uint32_t conn;
                view_hub_output(hub, out_of[k], &conn, &data, &size);
            }
            client_tick(hub, k + 1, &cs[k], data, size, t);
            if (t == warm) bytes_warm[k] = cs[k].bytes;
            if (t <= warm) continue;
            for (uint32_t i = 0; i < n; i++) {
                double d = hypot(v[i].position[0] - cs[k].cx, v[i].position[2] - cs[k].cz);
                if (d < 300.0) near_ticks[(size_t)k * n + i]++;
                if (d < o.radius) view_ticks[(size_t)k * n + i]++;
            }
            if (!data) continue;
            uint32_t held;
            const proto_view_vessel* vs = proto_view_decoder_vessels(cs[k].dec, &held);
            for (uint32_t j = 0; j < held; j++)
                if (vs[j].samples[0].tick == t && vs[j].id >= 1 && vs[j].id <= n) seen[(size_t)k * n + vs[j].id - 1]++;
        }
    }
    qsort(ms, ticks, sizeof *ms, cmp_double);
    double near_min = 1e9, view_min = 1e9, kbps_max = 0.0, kbps_sum = 0.0, secs = (double)ticks / o.hz;
    for (uint32_t k = 0; k < nv; k++) {
        double kbps = 8.0 * (double)(cs[k].bytes - bytes_warm[k]) / secs / 1000.0;
        kbps_sum += kbps;
        kbps_max = kbps > kbps_max ? kbps : kbps_max;
        for (uint32_t i = 0; i < n; i++) {
            size_t at = (size_t)k * n + i;
            /* Whole seconds in a zone, as naval-load counts them. */
            if (near_ticks[at] >= 2 * o.hz && near_ticks[at] == view_ticks[at]) {
                double hz = seen[at] / (near_ticks[at] / o.hz);
                near_min = hz < near_min ? hz : near_min;
            }
            if (view_ticks[at] == ticks) {
                double hz = seen[at] / secs;
                view_min = hz < view_min ? hz : view_min;
            }
        }
    }
    view_stats st;
    view_hub_stats(hub, &st);
    printf("bench-view: %u boats (half-width %.0f m), %u views of %.0f m at %llu kbit/s, %llu threads, %.0f Hz, %llu s\n",
           n, o.half, nv, o.radius, (unsigned long long)o.budget, (unsigned long long)o.threads, o.hz,
           (unsigned long long)o.seconds);
    printf("  encode per tick: p50 %.3f ms, p99 %.3f ms, max %.3f ms (%.1f us per view)\n", ms[ticks / 2],
           ms[(size_t)(ticks * 0.99)], ms[ticks - 1], 1000.0 * ms[ticks / 2] / nv);
    printf("  per view: %.1f kbit/s mean, %.1f max; %.0f records per update, %.1f bits per record\n", kbps_sum / nv,
           kbps_max, (double)st.records / (double)(st.updates ? st.updates : 1),
           8.0 * (double)st.bytes / (double)(st.records ? st.records : 1));
    printf("  updates: near (300 m) >= %.1f Hz, in the view >= %.1f Hz\n", near_min, view_min);
    for (uint32_t k = 0; k < nv; k++) close_client(&cs[k]);
    view_hub_destroy(hub);
    nv_jobs_destroy(pool);
    free(v);
    free(cs);
    free(ms);
    free(seen);
    free(near_ticks);
    free(view_ticks);
    free(out_of);
    free(bytes_warm);
    return 0;
}
