// SPDX-License-Identifier: MIT
/* Snapshot sizes and codec speed: bytes per boat and encode / decode times
 * of full snapshots and of compact keyframes and deltas, for a fleet that
 * moves like ships (steaming, turning, heaving, rolling and pitching in
 * waves), plus a fleet at rest.
 *
 *   bench-proto [--boats N] [--keyframe-interval K] [--hz H] [--reps R]
 *               [--write-snapshot FILE]
 *
 * --write-snapshot writes one full snapshot of the fleet to FILE and its
 * values as JSON to FILE.json, and exits (the Python binding's test reads
 * both). --write-compact writes a sequence of compact snapshots that uses
 * every record kind of docs/protocol.md to FILE.0, FILE.1, ... and what
 * the C decoder read from each to FILE.json, and exits (the independent
 * decoder's test, tests/compact_decode.py, reads them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_fleet.h"
#include "cli.h"
#include "proto.h"

typedef struct options {
    uint64_t boats, interval, reps;
    double hz;
    const char* write_snapshot;
    const char* write_compact;
} options;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static void fleet_at(proto_snapshot* s, uint32_t n, uint64_t tick, double hz) {
    s->tick = tick;
    s->sim_time = tick / hz;
    for (uint32_t i = 0; i < n; i++) bench_boat_state(i, s->sim_time, 5000.0, &s->vessels[i]);
    s->vessel_count = n;
    s->stats.vessel_count = n;
}

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double median(double* v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

static void die(const char* what, const proto_error* err) {
    fprintf(stderr, "bench-proto: %s: %s\n", what, err->message);
    exit(1);
}

static int write_snapshot(const options* o, proto_snapshot* s) {
    proto_buf b = {0};
    proto_error err;
    fleet_at(s, (uint32_t)o->boats, 600, o->hz);
    s->send_time_ns = 1700000000000000000ull;
    s->stats.step_ms = 3.25f;
    s->stats.overruns = 2;
    /* two contacts begun this tick: one with the ground, one between boats */
    proto_contact contacts[2] = {{.tick = s->tick,
                                  .a = 3,
                                  .b = PROTO_CONTACT_GROUND,
                                  .point = {12.5, -1.25, -30.0625},
                                  .normal = {0.0f, 1.0f, 0.0f},
                                  .closing_speed = 0.75f,
                                  .impulse = 4096.5f},
                                 {.tick = s->tick,
                                  .a = 1,
                                  .b = 2,
                                  .point = {-40.125, 0.5, 7.75},
                                  .normal = {0.6f, 0.0f, -0.8f},
                                  .closing_speed = 6.5f,
                                  .impulse = 250000.0f}};
    s->contacts = contacts;
    s->contact_count = 2;
    if (proto_encode_snapshot(&b, s, &err) != 0) die("encode", &err);
    s->contacts = NULL;
    s->contact_count = 0;
    char json_path[4096];
    snprintf(json_path, sizeof json_path, "%s.json", o->write_snapshot);
    FILE* f = fopen(o->write_snapshot, "wb");
    FILE* j = fopen(json_path, "w");
    if (!f || !j || fwrite(b.data, 1, b.size, f) != b.size) {
        fprintf(stderr, "bench-proto: cannot write %s\n", o->write_snapshot);
        if (f) fclose(f);
        if (j) fclose(j);
        proto_free_buf(&b);
        return 1;
    }
    fprintf(j, "{\"tick\": %llu, \"sim_time\": %.17g, \"send_time_ns\": %llu, \"step_ms\": %.9g, \"overruns\": %llu,\n"
               " \"vessels\": [\n", (unsigned long long)s->tick, s->sim_time, (unsigned long long)s->send_time_ns,
            (double)s->stats.step_ms, (unsigned long long)s->stats.overruns);
    for (uint32_t i = 0; i < s->vessel_count; i++) {
        const proto_vessel* v = &s->vessels[i];
        fprintf(j, "  {\"id\": %u, \"type\": %u, \"flags\": %u, \"position\": [%.17g, %.17g, %.17g], "
                   "\"orientation\": [%.9g, %.9g, %.9g, %.9g], \"velocity\": [%.9g, %.9g, %.9g], "
                   "\"angular_velocity\": [%.9g, %.9g, %.9g]}%s\n",
                v->id, v->type, v->flags, v->position[0], v->position[1], v->position[2], (double)v->orientation[0],
                (double)v->orientation[1], (double)v->orientation[2], (double)v->orientation[3], (double)v->velocity[0],
                (double)v->velocity[1], (double)v->velocity[2], (double)v->angular_velocity[0],
                (double)v->angular_velocity[1], (double)v->angular_velocity[2], i + 1 < s->vessel_count ? "," : "");
    }
    fprintf(j, "], \"contacts\": [\n");
    for (int i = 0; i < 2; i++) {
        const proto_contact* c = &contacts[i];
        fprintf(j,
                "  {\"tick\": %llu, \"a\": %u, \"b\": %u, \"point\": [%.17g, %.17g, %.17g], "
                "\"normal\": [%.9g, %.9g, %.9g], \"closing_speed\": %.9g, \"impulse\": %.9g}%s\n",
                (unsigned long long)c->tick, c->a, c->b, c->point[0], c->point[1], c->point[2], (double)c->normal[0],
                (double)c->normal[1], (double)c->normal[2], (double)c->closing_speed, (double)c->impulse, i ? "" : ",");
    }
    fprintf(j, "]}\n");
    int bad = fclose(f) != 0;
    bad |= fclose(j) != 0;
    proto_free_buf(&b);
    return bad;
}

static void json_vessels(FILE* j, const proto_snapshot* s) {
    fprintf(j, "[\n");
    for (uint32_t i = 0; i < s->vessel_count; i++) {
        const proto_vessel* v = &s->vessels[i];
        /* Exact: doubles and floats as their IEEE bit patterns. */
        uint64_t p[3];
        uint32_t f[10];
        memcpy(p, v->position, sizeof p);
        memcpy(f, v->orientation, 16);
        memcpy(f + 4, v->velocity, 12);
        memcpy(f + 7, v->angular_velocity, 12);
        fprintf(j, "   {\"id\": %u, \"type\": %u, \"flags\": %u, \"position\": [%llu, %llu, %llu], \"floats\": [", v->id,
                v->type, v->flags, (unsigned long long)p[0], (unsigned long long)p[1], (unsigned long long)p[2]);
        for (int k = 0; k < 10; k++) fprintf(j, "%u%s", f[k], k < 9 ? ", " : "");
        fprintf(j, "]}%s\n", i + 1 < s->vessel_count ? "," : "");
    }
    fprintf(j, "  ]");
}

/* Tick t of the sequence --write-compact writes (keyframes every 4 ticks):
 * ids with gaps of every id class, types and flags that change, a vessel
 * 200 km out and one with a NaN (raw), then per tick small moves, a vessel
 * still, a 300 m jump, a turn past the largest quaternion component, one
 * that goes raw, one that leaves, new ones. */
static uint32_t compact_case(uint64_t t, proto_vessel* v) {
    static const uint32_t ids[] = {0, 1, 2, 3, 10, 300, 301, 70000, 5000000, 4000000000u, 7, 8};
    uint32_t n = 0;
    for (uint32_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        if (i == 6 && t % 4 >= 2) continue; /* id 301 leaves after tick 1 of each keyframe interval */
        proto_vessel* x = &v[n++];
        bench_boat_state(i, 10.0 + (double)t * 0.05, 5000.0, x);
        x->id = ids[i];
        x->type = (uint16_t)(i < 4 ? 1 : i * 7);
        x->flags = (uint16_t)(i == 3 ? 0x8001 : 0);
        if (i == 2) bench_boat_state(i, 10.0, 5000.0, x), x->id = ids[i], x->type = 1; /* still */
        if (i == 4 && t % 4 >= 1) x->position[0] += 300.0;                 /* a jump: whole state */
        if (i == 5) x->position[2] = 2.0e5;                                /* raw: out of range */
        if (i == 7 && t % 4 >= 2) x->velocity[1] = NAN;                     /* goes raw */
        if (i == 8 && t % 4 >= 2) {                                          /* x becomes the largest */
            x->orientation[0] = 0.9f, x->orientation[1] = 0.1f, x->orientation[2] = 0.1f, x->orientation[3] = 0.4f;
        }
        if (i == 9) x->angular_velocity[2] = -3.0f;
        if (i == 10) x->velocity[0] = 400.0f; /* the widest velocity class */
    }
    for (uint64_t k = 0; k < t % 4; k++) { /* new since the keyframe */
        proto_vessel* x = &v[n++];
        bench_boat_state(100 + (uint32_t)k, (double)t, 5000.0, x);
        x->id = 1000 + (uint32_t)k * 40000;
        x->type = (uint16_t)k;
        x->flags = (uint16_t)(k == 1 ? 2 : 0);
    }
    return n;
}

static int write_compact(const char* path) {
    enum { TICKS = 9 };
    proto_vessel in[32];
    proto_snapshot s = {0}, d = {0};
    proto_buf b = {0};
    proto_error err;
    proto_compact_encoder* enc = proto_create_compact_encoder(4, &err);
    proto_compact_decoder* dec = proto_create_compact_decoder(&err);
    char name[4096];
    snprintf(name, sizeof name, "%s.json", path);
    FILE* j = fopen(name, "w");
    if (!enc || !dec || !j) {
        fprintf(stderr, "bench-proto: cannot write %s\n", name);
        return 1;
    }
    fprintf(j, "[\n");
    int bad = 0;
    for (uint64_t t = 0; t < TICKS && !bad; t++) {
        s.vessels = in;
        s.vessel_count = compact_case(t, in);
        s.tick = 100 + t;
        s.sim_time = (double)s.tick / 60.0;
        s.send_time_ns = 1700000000000000000ull + t;
        int key = 0;
        if (proto_encode_compact(enc, &s, &b, &key, &err) != 0) die("compact encode", &err);
        if (proto_decode_compact(dec, b.data, b.size, NULL, &d, &err) != 0) die("compact decode", &err);
        snprintf(name, sizeof name, "%s.%llu", path, (unsigned long long)t);
        FILE* f = fopen(name, "wb");
        bad = !f || fwrite(b.data, 1, b.size, f) != b.size;
        if (f) bad |= fclose(f) != 0;
        fprintf(j, " {\"file\": \"%s\", \"tick\": %llu, \"keyframe\": %d, \"vessels\": ", name,
                (unsigned long long)s.tick, key);
        json_vessels(j, &d);
        fprintf(j, "}%s\n", t + 1 < TICKS ? "," : "");
    }
    fprintf(j, "]\n");
    bad |= fclose(j) != 0;
    proto_free_snapshot(&d);
    proto_free_buf(&b);
    proto_destroy_compact_encoder(enc);
    proto_destroy_compact_decoder(dec);
    if (bad) fprintf(stderr, "bench-proto: cannot write %s.*\n", path);
    return bad;
}

static const cli_opt proto_opts[] = {
    {"--boats", .type = CLI_UINT, CLI_FIELD(options, boats), .min = 1, .max = 1u << 22, .value_name = "N",
     .help = "vessels per snapshot", .show_default = 1},
    {"--keyframe-interval", .type = CLI_UINT, CLI_FIELD(options, interval), .min = 1, .max = 100000, .value_name = "K",
     .help = "compact stream: a keyframe every K ticks", .show_default = 1},
    {"--tick-hz", .deprecated = "--hz", .type = CLI_DOUBLE, CLI_FIELD(options, hz), .min = 1e-9, .max = 10000,
     .value_name = "H", .help = "tick rate", .show_default = 1},
    {"--reps", .type = CLI_UINT, CLI_FIELD(options, reps), .min = 1, .max = 1000000, .value_name = "R",
     .help = "repetitions timed", .show_default = 1},
    {"--write-snapshot", .type = CLI_STRING, CLI_FIELD(options, write_snapshot), .value_name = "FILE",
     .help = "write one full snapshot message to FILE"},
    {"--write-compact", .type = CLI_STRING, CLI_FIELD(options, write_compact), .value_name = "FILE",
     .help = "write one compact message to FILE"},
    {0}};

static const cli_spec proto_spec = {.prog = "bench-proto", .synopsis = "bench-proto [options]", .opts = proto_opts};

static int parse(int argc, char** argv, options* o) {
    *o = (options){5000, 30, 200, 60.0, NULL, NULL};
    int rc = cli_parse(&proto_spec, argc, argv, o);
    if (rc == 0) exit(0);
    return rc == CLI_RUN ? 0 : -1;
}

int main(int argc, char** argv) {
    options o;
    if (parse(argc, argv, &o) != 0) return 2;
    uint32_t n = (uint32_t)o.boats;
    proto_snapshot s = {0}, d = {0};
    s.vessels = calloc(n, sizeof *s.vessels);
    double* t_enc = calloc(o.reps, sizeof(double));
    double* t_dec = calloc(o.reps, sizeof(double));
    if (!s.vessels || !t_enc || !t_dec) return 1;
    if (o.write_snapshot || o.write_compact) {
        int rc = o.write_snapshot ? write_snapshot(&o, &s) : write_compact(o.write_compact);
        free(s.vessels);
        free(t_enc);
        free(t_dec);
        return rc;
    }
    proto_buf b = {0};
    proto_error err;

    fleet_at(&s, n, 0, o.hz);
    for (uint64_t r = 0; r < o.reps; r++) {
        double t0 = now_us();
        if (proto_encode_snapshot(&b, &s, &err) != 0) die("encode", &err);
        double t1 = now_us();
        if (proto_decode_snapshot(b.data, b.size, NULL, &d, &err) != 0) die("decode", &err);
        t_enc[r] = t1 - t0;
        t_dec[r] = now_us() - t1;
    }
    printf("boats %u, %.0f Hz, keyframe every %llu ticks, medians of %llu runs\n", n, o.hz,
           (unsigned long long)o.interval, (unsigned long long)o.reps);
    printf("%-34s %9s %10s %12s %12s\n", "message", "bytes", "bytes/boat", "encode us", "decode us");
    printf("%-34s %9zu %10.2f %12.1f %12.1f\n", "full snapshot", b.size, (double)b.size / n, median(t_enc, o.reps),
           median(t_dec, o.reps));

    /* Compact: one encoder and one decoder (as a server and a client
     * keep them) over `reps` keyframe intervals of motion; bytes from the
     * first interval, times are medians per message kind. */
    size_t full_bytes = b.size, key_bytes = 0, last_bytes = 0, sum_bytes = 0, deltas = 0;
    size_t nkey = 0, ndelta = 0, total = (size_t)o.reps * o.interval;
    double* t_kenc = calloc(o.reps, sizeof(double));
    double* t_kdec = calloc(o.reps, sizeof(double));
    double* t_denc = calloc(total, sizeof(double));
    double* t_ddec = calloc(total, sizeof(double));
    proto_compact_encoder* enc = proto_create_compact_encoder((uint32_t)o.interval, &err);
    proto_compact_decoder* dec = proto_create_compact_decoder(&err);
    if (!t_kenc || !t_kdec || !t_denc || !t_ddec || !enc || !dec) die("compact", &err);
    for (uint64_t tick = 0; tick < total; tick++) {
        fleet_at(&s, n, tick, o.hz);
        int key = 0;
        double t0 = now_us();
        if (proto_encode_compact(enc, &s, &b, &key, &err) != 0) die("compact encode", &err);
        double t1 = now_us();
        if (proto_decode_compact(dec, b.data, b.size, NULL, &d, &err) != 0) die("compact decode", &err);
        double t2 = now_us();
        if (key) {
            t_kenc[nkey] = t1 - t0;
            t_kdec[nkey++] = t2 - t1;
            if (tick == 0) key_bytes = b.size;
        } else {
            t_denc[ndelta] = t1 - t0;
            t_ddec[ndelta++] = t2 - t1;
            if (tick < o.interval) sum_bytes += b.size, deltas++, last_bytes = b.size;
        }
    }
    printf("%-34s %9zu %10.2f %12.1f %12.1f\n", "compact keyframe", key_bytes, (double)key_bytes / n,
           median(t_kenc, nkey), median(t_kdec, nkey));
    if (deltas) {
        printf("%-34s %9.0f %10.2f %12.1f %12.1f\n", "compact delta, mean over interval", (double)sum_bytes / deltas,
               (double)sum_bytes / deltas / n, median(t_denc, ndelta), median(t_ddec, ndelta));
        printf("%-34s %9zu %10.2f\n", "compact delta, last of interval", last_bytes, (double)last_bytes / n);
        double mean = ((double)key_bytes + (double)sum_bytes) / (double)(deltas + 1);
        printf("%-34s %9.0f %10.2f\n", "compact, mean per tick", mean, mean / n);
        printf("per subscriber at %.0f Hz: full %.1f Mbit/s, compact %.1f Mbit/s\n", o.hz,
               (double)full_bytes * 8.0 * o.hz / 1e6, mean * 8.0 * o.hz / 1e6);
        /* The same fleet with nothing moving since the keyframe. */
        proto_force_keyframe(enc);
        fleet_at(&s, n, 0, o.hz);
        if (proto_encode_compact(enc, &s, &b, NULL, &err) != 0) die("compact encode", &err);
        s.tick = 1;
        if (proto_encode_compact(enc, &s, &b, NULL, &err) != 0) die("compact encode", &err);
        printf("%-34s %9zu %10.3f\n", "compact delta, fleet at rest", b.size, (double)b.size / n);
    }
    proto_destroy_compact_encoder(enc);
    proto_destroy_compact_decoder(dec);
    free(t_denc);
    free(t_ddec);
    free(t_kenc);
    free(t_kdec);
    free(t_enc);
    free(t_dec);
    free(s.vessels);
    proto_free_snapshot(&d);
    proto_free_buf(&b);
    return 0;
}
