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
 * both). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "proto.h"

typedef struct options {
    uint64_t boats, interval, reps;
    double hz;
    const char* write_snapshot;
} options;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* Boat i at time t, in closed form: a heading and speed of its own, a slow
 * turn, heave, roll and pitch at wave periods of 6-10 s. Deterministic. */
static void boat_state(uint32_t i, double t, proto_vessel* v) {
    uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    double u0 = (double)((h >> 11) & 0xFFFF) / 65536.0, u1 = (double)((h >> 27) & 0xFFFF) / 65536.0;
    double u2 = (double)((h >> 43) & 0xFFFF) / 65536.0;
    double speed = 3.0 + 7.0 * u2, turn = 0.02 * (u0 - 0.5), heading = 6.283185307179586 * u1 + turn * t;
    double w = 6.283185307179586 / (6.0 + 4.0 * u0), phase = 6.283185307179586 * u2;
    double roll = 0.08 * sin(w * t + phase), pitch = 0.03 * sin(w * t + phase + 1.0);
    memset(v, 0, sizeof *v);
    v->id = i + 1;
    v->type = (uint16_t)(i % 3);
    /* A 10 km square, boats on their tracks. */
    v->position[0] = -5000.0 + 10000.0 * u0 + speed * cos(heading) * t;
    v->position[1] = -2.0 + 0.8 * sin(w * t + phase);
    v->position[2] = -5000.0 + 10000.0 * u1 - speed * sin(heading) * t;
    /* Yaw about +y, then pitch about +z, then roll about +x (half angles). */
    double cy = cos(heading / 2), sy = sin(heading / 2), cp = cos(pitch / 2), sp = sin(pitch / 2);
    double cr = cos(roll / 2), sr = sin(roll / 2);
    v->orientation[0] = (float)(cy * cp * sr + sy * sp * cr);
    v->orientation[1] = (float)(sy * cp * cr - cy * sp * sr);
    v->orientation[2] = (float)(cy * sp * cr - sy * cp * sr);
    v->orientation[3] = (float)(cy * cp * cr + sy * sp * sr);
    v->velocity[0] = (float)(speed * cos(heading));
    v->velocity[1] = (float)(0.8 * w * cos(w * t + phase));
    v->velocity[2] = (float)(-speed * sin(heading));
    v->angular_velocity[0] = (float)(0.08 * w * cos(w * t + phase) * cos(heading));
    v->angular_velocity[1] = (float)turn;
    v->angular_velocity[2] = (float)(-0.08 * w * cos(w * t + phase) * sin(heading));
}

static void fleet_at(proto_snapshot* s, uint32_t n, uint64_t tick, double hz) {
    s->tick = tick;
    s->sim_time = tick / hz;
    for (uint32_t i = 0; i < n; i++) boat_state(i, s->sim_time, &s->vessels[i]);
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
    if (proto_encode_snapshot(&b, s, &err) != 0) die("encode", &err);
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
                (double)v->orientation[1], (double)v->orientation[2], (double)v->orientation[3],
                (double)v->velocity[0], (double)v->velocity[1], (double)v->velocity[2],
                (double)v->angular_velocity[0], (double)v->angular_velocity[1], (double)v->angular_velocity[2],
                i + 1 < s->vessel_count ? "," : "");
    }
    fprintf(j, "]}\n");
    int bad = fclose(f) != 0;
    bad |= fclose(j) != 0;
    proto_free_buf(&b);
    return bad;
}

static int parse(int argc, char** argv, options* o) {
    *o = (options){5000, 30, 200, 60.0, NULL};
    for (int i = 1; i < argc; i++) {
        const char* a = argv[i];
        const char* val = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("bench-proto [--boats N] [--keyframe-interval K] [--hz H] [--reps R] [--write-snapshot FILE]\n");
            exit(0);
        } else if (!val) {
            ok = 0;
        } else if (!strcmp(a, "--boats")) {
            ok = cli_parse_u64(val, 1, 1u << 22, &o->boats) == 0;
        } else if (!strcmp(a, "--keyframe-interval")) {
            ok = cli_parse_u64(val, 1, 100000, &o->interval) == 0;
        } else if (!strcmp(a, "--reps")) {
            ok = cli_parse_u64(val, 1, 1000000, &o->reps) == 0;
        } else if (!strcmp(a, "--hz")) {
            ok = cli_parse_double(val, &o->hz) == 0 && o->hz > 0.0 && o->hz <= 10000.0;
        } else if (!strcmp(a, "--write-snapshot")) {
            o->write_snapshot = val;
        } else {
            ok = 0;
        }
        if (!ok) {
            fprintf(stderr, "bench-proto: bad or missing value for %s (see --help)\n", a);
            return -1;
        }
        i++;
    }
    return 0;
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
    if (o.write_snapshot) {
        int rc = write_snapshot(&o, &s);
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
