// SPDX-License-Identifier: MIT
/* naval-sim: runs a scenario headless and reports how each vessel handled:
 * a CSV track (position, heading, heel, trim, speed, controls) and a summary
 * per vessel (speeds, largest heel and pitch, distance, and the turning
 * circle fitted to its last full turn). The tool designers tune boats with. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "naval/compartment.h"
#include "naval/jobs.h"
#include "naval/scenario.h"
#include "naval/statics.h"
#include "naval/world.h"
#include "naval/checkpoint.h"
#include "record.h"

static const char sim_about[] =
    "Runs the scenario and prints a summary per vessel: final and top speed, largest\n"
    "heel and pitch, heading change, distance, and the turning circle (least-squares\n"
    "fit to the track of its last full turn) once it has turned 360 degrees; whether it\n"
    "ended on the ground and how many contacts (with the ground or another vessel) it\n"
    "began; for the run, the contacts begun and the deepest overlap of any vessel.";
static const char sim_epilogue[] =
    "heading_deg is the bow's direction about +y, from +x toward -z, in [0, 360) (the\n"
    "scenario's heading_deg), so a turn to starboard shows as a negative heading change;\n"
    "heel is + with starboard down, in (-180, 180] (about 180 keel-up), trim + with the\n"
    "bow up, in [-90, 90]; a vessel heeled past 90 degrees at some step is capsized\n"
    "(CAPSIZED in the table, \"capsized\" in the JSON);\n"
    "speed is horizontal, m/s; throttle and rudder are the actual values after the\n"
    "type's rate limits. Exit status: 0 ok, 2 bad arguments or scenario.";

/* A vessel's track is kept at most this many points, thinned by halves as
 * it grows, so that memory stays bounded however long the run. */
#define SIM_TRACK_POINTS 2048u
/* --record: ticks between state hashes in the log (naval-server's default). */
#define SIM_RECORD_HASH_INTERVAL 60u

typedef struct sim_args {
    const char* scenario;
    const char* csv;
    const char* record; /* --record LOG: the run's record log, its base checkpoint LOG.ckpt */
    uint64_t steps, threads, every;
    int has_steps, json;
} sim_args;

typedef struct sim_point {
    double x, z, heading; /* heading unwrapped, degrees */
} sim_point;

typedef struct sim_vessel {
    uint32_t id, type;
    double length;                     /* hull length along x, m */
    double heading_raw, heading;       /* last atan2 heading; unwrapped heading, degrees */
    double heading_start;
    double max_speed, max_heel, max_pitch, distance, final_speed;
    double last_x, last_z;
    int frozen;
    int grounded;      /* on the ground after the last step */
    uint32_t contacts; /* contacts it began (with the ground or another vessel) */
    sim_point* track;
    uint32_t track_count, stride, since; /* points kept; steps per point; steps since the last */
    /* The fitted circle of the last full turn, when there was one. */
    int turned;
    double diameter, fit_rms;
    /* Damage (scenario "events"): turned past 90 degrees at some step;
     * the end state, filled after the run. */
    int capsized, sunk;
    double flooded_volume, final_draft, final_heel, final_trim;
} sim_vessel;

static int sim_positional(const char* arg, void* args, char* why, size_t n) {
    sim_args* a = args;
    if (a->scenario) {
        snprintf(why, n, "one scenario file only (got '%s')", arg);
        return -1;
    }
    a->scenario = arg;
    return 0;
}

static const cli_opt sim_opts[] = {
    {"--steps", .type = CLI_UINT, CLI_FIELD(sim_args, steps), CLI_SEEN(sim_args, has_steps), .min = 1, .max = 1e8,
     .value_name = "N", .bad = "--steps must be 1..100000000", .help = "steps to run (default: 60 s of simulated time)"},
    {"--threads", .type = CLI_UINT, CLI_FIELD(sim_args, threads), .min = 1, .max = 64, .value_name = "K",
     .bad = "--threads must be 1..64",
     .help = "threads, the caller included (default: all cores; results do not depend on it)"},
    {"--csv", .type = CLI_STRING, CLI_FIELD(sim_args, csv), .value_name = "FILE",
     .help = "write the track: time,id,type,x,y,z,heading_deg,heel_deg,trim_deg,\n"
             "speed,throttle,rudder (one row per vessel per written step)"},
    {"--every", .type = CLI_UINT, CLI_FIELD(sim_args, every), .min = 1, .max = 1e8, .value_name = "K",
     .bad = "--every must be 1..100000000",
     .help = "write every K-th step to the CSV (default 1; the first and last always)"},
    {"--json", .type = CLI_SWITCH, CLI_FIELD(sim_args, json), .help = "the summary as one JSON object on stdout"},
    {"--record", .type = CLI_STRING, CLI_FIELD(sim_args, record), .value_name = "LOG",
     .help = "record the run as naval-server's --record does: the base checkpoint LOG.ckpt,\n"
             "then every change to the world (the scenario's events), the contacts, damage and a\n"
             "state hash every 60 ticks and at the end; naval-replay LOG.ckpt LOG runs it again"},
    {0}};

static const cli_spec sim_spec = {.prog = "naval-sim", .synopsis = "naval-sim SCENARIO.json [options]",
                                  .about = sim_about, .opts = sim_opts, .positional = sim_positional,
                                  .epilogue = sim_epilogue};

static int sim_parse_args(int argc, char** argv, sim_args* a) {
    memset(a, 0, sizeof *a);
    a->threads = nv_jobs_hardware_threads();
    a->every = 1;
    int rc = cli_parse(&sim_spec, argc, argv, a);
    if (rc != CLI_RUN) exit(rc);
    if (!a->scenario) return cli_usage_error("naval-sim", "a scenario file is required");
    return 0;
}

static double sim_wrap_180(double deg) {
    deg = fmod(deg, 360.0);
    if (deg > 180.0) deg -= 360.0;
    if (deg <= -180.0) deg += 360.0;
    return deg;
}

/* The bow's direction about +y from +x toward -z: a scenario's heading_deg
 * gives the same number back. */
static double sim_heading(nv_quat q) {
    nv_vec3 bow = quat_rotate(q, v3(1, 0, 0));
    return atan2(-bow.z, bow.x) * 180.0 / NV_PI;
}

static void sim_track_add(sim_vessel* v) {
    if (v->track_count == SIM_TRACK_POINTS) {
        /* Keep every other point (the newest among them) and sample half as
         * often from now on. */
        uint32_t keep = 0;
        for (uint32_t i = v->track_count % 2 ? 0 : 1; i < v->track_count; i += 2) v->track[keep++] = v->track[i];
        v->track_count = keep;
        v->stride *= 2;
    }
    sim_point p = {v->last_x, v->last_z, v->heading};
    v->track[v->track_count++] = p;
    v->since = 0;
}

/* Kasa's algebraic circle fit: minimises sum (x^2 + z^2 + D x + E z + F)^2,
 * linear in D, E, F; coordinates are taken about their mean so that a
 * circle far from the origin keeps its digits. Returns the radius, or -1
 * when the points do not pin a circle down. */
static double sim_fit_circle(const sim_point* p, uint32_t n, double* rms) {
    double mx = 0.0, mz = 0.0;
    for (uint32_t i = 0; i < n; i++) mx += p[i].x, mz += p[i].z;
    mx /= n, mz /= n;
    /* Normal equations A [D E F]^T = b. */
    double a[3][4] = {{0}};
    for (uint32_t i = 0; i < n; i++) {
        double x = p[i].x - mx, z = p[i].z - mz, r2 = x * x + z * z;
        double row[3] = {x, z, 1.0};
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 3; k++) a[j][k] += row[j] * row[k];
            a[j][3] -= row[j] * r2;
        }
    }
    for (int c = 0; c < 3; c++) {
        int pivot = c;
        for (int r = c + 1; r < 3; r++)
            if (fabs(a[r][c]) > fabs(a[pivot][c])) pivot = r;
        if (!(fabs(a[pivot][c]) > 1e-12 * (fabs(a[0][0]) + fabs(a[1][1]) + 1.0))) return -1.0;
        for (int k = 0; k < 4; k++) {
            double t = a[c][k];
            a[c][k] = a[pivot][k];
            a[pivot][k] = t;
        }
        for (int r = 0; r < 3; r++) {
            if (r == c) continue;
            double f = a[r][c] / a[c][c];
            for (int k = c; k < 4; k++) a[r][k] -= f * a[c][k];
        }
    }
    double d = a[0][3] / a[0][0], e = a[1][3] / a[1][1], f = a[2][3] / a[2][2];
    double cx = -0.5 * d, cz = -0.5 * e, r2 = cx * cx + cz * cz - f;
    if (!(r2 > 0.0)) return -1.0;
    double r = sqrt(r2), sum = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double dr = hypot(p[i].x - mx - cx, p[i].z - mz - cz) - r;
        sum += dr * dr;
    }
    *rms = sqrt(sum / n);
    return r;
}

/* The last full turn: from the newest point back to the latest point whose
 * heading differs from it by 360 degrees or more. */
static void sim_fit_last_turn(sim_vessel* v) {
    if (v->track_count < 2) return;
    uint32_t end = v->track_count - 1, start = end;
    while (start > 0 && fabs(v->track[end].heading - v->track[start].heading) < 360.0) start--;
    if (fabs(v->track[end].heading - v->track[start].heading) < 360.0 || end - start + 1 < 8) return;
    double rms = 0.0, r = sim_fit_circle(v->track + start, end - start + 1, &rms);
    if (r < 0.0) return;
    v->turned = 1;
    v->diameter = 2.0 * r;
    v->fit_rms = rms;
}

static void sim_observe(sim_vessel* v, const nv_world_vessel_state* st, int first) {
    v->grounded = (st->flags & WORLD_VESSEL_GROUNDED) != 0;
    if (st->flags & WORLD_VESSEL_FROZEN) {
        v->frozen = 1;
        return;
    }
    double heel, trim, raw = sim_heading(st->orientation);
    nv_statics_attitude(st->orientation, &heel, &trim, NULL);
    if (nv_world_capsized(st->orientation)) v->capsized = 1;
    double speed = hypot(st->velocity.x, st->velocity.z);
    if (first) {
        v->heading = v->heading_start = raw;
    } else {
        v->heading += sim_wrap_180(raw - v->heading_raw);
        v->distance += hypot(st->position.x - v->last_x, st->position.z - v->last_z);
    }
    v->heading_raw = raw;
    v->last_x = st->position.x;
    v->last_z = st->position.z;
    v->final_speed = speed;
    if (speed > v->max_speed) v->max_speed = speed;
    if (fabs(heel) > v->max_heel) v->max_heel = fabs(heel);
    if (fabs(trim) > v->max_pitch) v->max_pitch = fabs(trim);
    if (first || ++v->since >= v->stride) sim_track_add(v);
}

/* A heel in (-180, 180] a hair above -180 prints as -180 at a precision
 * whose half unit is `half`: show it as the +180 it is next to. */
static double sim_heel_shown(double heel, double half) { return heel < -180.0 + half ? heel + 360.0 : heel; }

static void sim_write_csv(FILE* f, const nv_world* w, double time) {
    for (uint32_t s = 0; s < nv_world_vessel_count(w); s++) {
        nv_world_vessel_state st;
        nv_world_read_vessels(w, s, 1, &st);
        double heel, trim, heading = fmod(sim_heading(st.orientation) + 360.0, 360.0);
        /* A hair below 360 would print as 360.000: the column is [0, 360). */
        if (heading >= 359.9995) heading = 0.0;
        nv_statics_attitude(st.orientation, &heel, &trim, NULL);
        fprintf(f, "%.6f,%u,%s,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f\n", time, st.id,
                nv_world_hull_type_name(w, st.type), st.position.x, st.position.y, st.position.z, heading,
                sim_heel_shown(heel, 5e-4), trim,
                hypot(st.velocity.x, st.velocity.z), st.throttle_actual, st.rudder_actual);
    }
}

static double sim_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define SIM_DEPTH_BIN_M 1e-4 /* 0.1 mm */
#define SIM_DEPTH_BINS 10000u /* to 1 m */

typedef struct sim_run {
    uint64_t steps;
    double tick_hz, sim_time, wall_time;
    uint32_t threads, frozen;
    uint64_t hash;
    uint64_t contact_events;
    double max_penetration; /* m, the deepest overlap any vessel had in any step */
    /* each step's deepest overlap after the first second (a crowd released
     * overlapping needs that to part), in SIM_DEPTH_BIN_M bins up to
     * SIM_DEPTH_BINS (the last: deeper), and their deepest */
    uint64_t depth_bins[SIM_DEPTH_BINS + 1];
    uint64_t depth_steps;
    double depth_max;
} sim_run;

/* The overlap of step `depth` m at quantile q of the counted steps: the
 * upper edge of its bin (the deepest itself in the last). */
static double sim_depth_quantile(const sim_run* r, double q) {
    if (!r->depth_steps) return 0.0;
    uint64_t want = (uint64_t)ceil(q * (double)r->depth_steps), seen = 0;
    if (want == 0) want = 1;
    for (uint32_t b = 0; b <= SIM_DEPTH_BINS; b++) {
        seen += r->depth_bins[b];
        if (seen >= want) return b == SIM_DEPTH_BINS ? r->depth_max : fmin((b + 1) * SIM_DEPTH_BIN_M, r->depth_max);
    }
    return r->depth_max;
}

static void sim_print_json(const sim_args* a, const sim_run* r, const nv_world* w, const sim_vessel* v, uint32_t n) {
    printf("{\"scenario\": \"");
    for (const char* p = a->scenario; *p; p++) {
        if (*p == '"' || *p == '\\') putchar('\\');
        if ((unsigned char)*p >= 0x20) putchar(*p);
    }
    printf(
        "\", \"vessels\": %u, \"steps\": %llu, \"tick_hz\": %g, \"sim_time\": %.6f, \"wall_time\": %.6f, "
        "\"threads\": %u, \"frozen\": %u, \"state_hash\": \"%016llx\", "
        "\"contacts\": {\"events\": %llu, \"max_penetration_m\": %.6g, "
        "\"penetration_m\": {\"from_s\": 1, \"steps\": %llu, \"p50\": %.6g, \"p99\": %.6g, \"max\": %.6g}}, "
        "\"per_vessel\": [",
        n, (unsigned long long)r->steps, r->tick_hz, r->sim_time, r->wall_time, r->threads, r->frozen,
        (unsigned long long)r->hash, (unsigned long long)r->contact_events, r->max_penetration,
        (unsigned long long)r->depth_steps, sim_depth_quantile(r, 0.5), sim_depth_quantile(r, 0.99), r->depth_max);
    for (uint32_t i = 0; i < n; i++) {
        const sim_vessel* s = &v[i];
        printf(
            "%s{\"id\": %u, \"type\": \"%s\", \"length\": %.4f, \"final_speed\": %.6g, \"max_speed\": %.6g, "
            "\"max_heel_deg\": %.6g, \"max_pitch_deg\": %.6g, \"heading_change_deg\": %.6g, \"distance\": %.6g, ",
            i ? ", " : "", s->id, nv_world_hull_type_name(w, s->type), s->length, s->final_speed, s->max_speed,
            s->max_heel, s->max_pitch, s->heading - s->heading_start, s->distance);
        if (s->turned)
            printf("\"turning_diameter\": %.6g, \"turning_diameter_lengths\": %.6g, \"turning_fit_rms\": %.6g, ",
                   s->diameter, s->diameter / s->length, s->fit_rms);
        else
            printf("\"turning_diameter\": null, \"turning_diameter_lengths\": null, \"turning_fit_rms\": null, ");
        printf("\"grounded\": %s, \"contacts\": %u, \"frozen\": %s, ", s->grounded ? "true" : "false", s->contacts,
               s->frozen ? "true" : "false");
        printf("\"flooded_volume_m3\": %.6g, \"sunk\": %s, \"capsized\": %s, \"final_draft_m\": %.6g, "
               "\"final_heel_deg\": %.6g, \"final_trim_deg\": %.6g}",
               s->flooded_volume, s->sunk ? "true" : "false", s->capsized ? "true" : "false", s->final_draft,
               sim_heel_shown(s->final_heel, 5e-4), s->final_trim);
    }
    printf("]}\n");
}

static void sim_print_text(const sim_args* a, const sim_run* r, const nv_world* w, const sim_vessel* v, uint32_t n) {
    printf("naval-sim: %s, %u vessel%s, %llu steps (%.1f s at %g Hz), %u thread%s, %.2f s wall (%.1fx real time)\n",
           a->scenario, n, n == 1 ? "" : "s", (unsigned long long)r->steps, r->sim_time, r->tick_hz, r->threads,
           r->threads == 1 ? "" : "s", r->wall_time, r->wall_time > 0.0 ? r->sim_time / r->wall_time : 0.0);
    printf("%6s  %-12s %8s %8s %8s %8s %9s %9s  %s\n", "id", "type", "speed", "top", "heel", "pitch", "turned", "distance",
           "turning circle");
    printf("%6s  %-12s %8s %8s %8s %8s %9s %9s\n", "", "", "m/s", "m/s", "deg", "deg", "deg", "m");
    for (uint32_t i = 0; i < n; i++) {
        const sim_vessel* s = &v[i];
        char circle[64] = "-";
        if (s->frozen)
            snprintf(circle, sizeof circle, "FROZEN (non-finite state)");
        else if (s->turned)
            snprintf(circle, sizeof circle, "%.1f m (%.2f lengths)", s->diameter, s->diameter / s->length);
        if (s->grounded) strncat(circle, "  AGROUND", sizeof circle - strlen(circle) - 1);
        if (s->capsized) strncat(circle, "  CAPSIZED", sizeof circle - strlen(circle) - 1);
        printf("%6u  %-12s %8.2f %8.2f %8.2f %8.2f %9.1f %9.1f  %s\n", s->id, nv_world_hull_type_name(w, s->type),
               s->final_speed, s->max_speed, s->max_heel, s->max_pitch, s->heading - s->heading_start, s->distance,
               circle);
    }
    printf("contacts: %llu begun, deepest overlap %.3f m; each step's deepest after the first second: p50 %.4f, "
           "p99 %.4f, max %.4f m\n",
           (unsigned long long)r->contact_events, r->max_penetration, sim_depth_quantile(r, 0.5),
           sim_depth_quantile(r, 0.99), r->depth_max);
}

static int sim_prepare(nv_world* w, sim_vessel** out, uint32_t* count) {
    uint32_t n = nv_world_vessel_count(w);
    sim_vessel* v = calloc(n ? n : 1, sizeof *v);
    if (!v) return -1;
    *out = v;
    *count = n;
    for (uint32_t s = 0; s < n; s++) {
        nv_world_vessel_state st;
        nv_world_read_vessels(w, s, 1, &st);
        const nv_hull* h = nv_world_hull_type(w, st.type);
        v[s].id = st.id;
        v[s].type = st.type;
        v[s].length = h->bounds_max[0] - h->bounds_min[0];
        v[s].stride = 1;
        v[s].track = malloc(SIM_TRACK_POINTS * sizeof *v[s].track);
        if (!v[s].track) return -1;
        sim_observe(&v[s], &st, 1);
    }
    return 0;
}

/* The vessel with that id (the scenario's vessels were spawned in order:
 * id i is usually entry i), or NULL. */
static sim_vessel* sim_find(sim_vessel* v, uint32_t n, uint32_t id) {
    if (id < n && v[id].id == id) return &v[id];
    for (uint32_t i = 0; i < n; i++)
        if (v[i].id == id) return &v[i];
    return NULL;
}

static void sim_observe_all(nv_world* w, sim_vessel* v, uint32_t n, sim_run* r) {
    double deepest = 0.0;
    for (uint32_t s = 0; s < n; s++) {
        nv_world_vessel_state st;
        if (nv_world_vessel_get(w, v[s].id, &st) != 0) continue;
        sim_observe(&v[s], &st, 0);
        if (st.penetration > deepest) deepest = st.penetration;
    }
    if (deepest > r->max_penetration) r->max_penetration = deepest;
    if (nv_world_time(w) > 1.0 + 1e-9) {
        double b = floor(deepest / SIM_DEPTH_BIN_M);
        r->depth_bins[b < SIM_DEPTH_BINS ? (uint32_t)b : SIM_DEPTH_BINS]++;
        r->depth_steps++;
        if (deepest > r->depth_max) r->depth_max = deepest;
    }
    uint32_t count;
    const nv_world_contact_event* e = nv_world_contact_events(w, &count);
    r->contact_events += count;
    for (uint32_t k = 0; k < count; k++) {
        sim_vessel* a = sim_find(v, n, e[k].id_a);
        sim_vessel* b = e[k].id_b == WORLD_CONTACT_GROUND ? NULL : sim_find(v, n, e[k].id_b);
        if (a) a->contacts++;
        if (b) b->contacts++;
    }
}

/* The end state: water aboard, the depth of the hull's lowest point below
 * the still water, sunk when its highest point is under it too; the final
 * heel and trim. */
static void sim_final_state(const nv_world* w, sim_vessel* v) {
    nv_world_vessel_state st;
    nv_flood_state fs;
    if (nv_world_vessel_get(w, v->id, &st) != 0) return;
    if (nv_world_flooding(w, v->id, &fs) == 0)
        for (int k = 0; k < COMPARTMENT_MAX; k++) v->flooded_volume += fs.volume[k];
    const nv_hull* h = nv_world_hull_type(w, v->type);
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < h->vertex_count; i++) {
        nv_vec3 p = v3_add(st.position, quat_rotate(st.orientation, v3(h->vx[i], h->vy[i], h->vz[i])));
        lo = p.y < lo ? p.y : lo;
        hi = p.y > hi ? p.y : hi;
    }
    v->final_draft = -lo;
    v->sunk = hi < 0.0;
    nv_statics_attitude(st.orientation, &v->final_heel, &v->final_trim, NULL);
}

/* The scenario's damage due by the step's start: -1 (the reason on
 * stderr) when one cannot be done. */
static int sim_apply_events(nv_world* w, const nv_scenario* scn, uint32_t* next) {
    double now = nv_world_time(w) + 0.5 / scn->world.tick_hz;
    for (; *next < scn->event_count && scn->events[*next].time <= now; (*next)++) {
        const nv_scenario_event* e = &scn->events[*next];
        nv_error err;
        if (nv_world_breach(w, e->vessel, e->point, e->area, &err)) {
            fprintf(stderr, "naval-sim: events[%u]: %s\n", *next, err.message);
            return -1;
        }
    }
    return 0;
}

static void sim_free(sim_vessel* v, uint32_t n) {
    for (uint32_t i = 0; v && i < n; i++) free(v[i].track);
    free(v);
}

/* --record LOG: the world as built to LOG.ckpt, then the log from it,
 * attached as the world's recorder. 2 (the reason on stderr) when either
 * cannot be written. */
static int sim_record_open(const char* log, const nv_scenario* scn, const nv_scenario_instance* inst, record** out) {
    char base[RECORD_PATH_MAX + 8];
    nv_error err;
    snprintf(base, sizeof base, "%s%s", log, RECORD_BASE_SUFFIX);
    nv_checkpoint_source src = {inst->world, inst->ocean,     scn->hulls, scn->hull_count, &scn->terrain,
                                scn->structures, NULL, 0};
    const nv_world* w = inst->world;
    if (nv_checkpoint_write_file(base, &src, &err) ||
        record_open(out, log, base, nv_world_tick(w), nv_world_state_hash(w), SIM_RECORD_HASH_INTERVAL, &err)) {
        fprintf(stderr, "naval-sim: --record: %s\n", err.message);
        return 2;
    }
    record_attach(inst->world, *out);
    return 0;
}

/* A scenario's vessels overlapping at the start: warned, the run goes on. */
static void sim_warn_overlap(void* ctx, const char* message) {
    fprintf(stderr, "naval-sim: warning: %s: %s\n", (const char*)ctx, message);
}

int main(int argc, char** argv) {
    sim_args a;
    int rc = sim_parse_args(argc, argv, &a);
    if (rc) return rc;
    nv_error err;
    nv_scenario scn;
    nv_jobs* pool = NULL;
    nv_scenario_instance inst = {NULL, NULL, NULL};
    sim_vessel* v = NULL;
    uint32_t n = 0;
    FILE* csv = NULL;
    record* rec = NULL;
    rc = 2;
    if (nv_scenario_load_file(a.scenario, &scn, &err)) {
        fprintf(stderr, "naval-sim: %s\n", err.message);
        return 2;
    }
    if (nv_jobs_create(&pool, (uint32_t)a.threads, &err) || nv_scenario_instantiate(&scn, pool, &inst, &err)) {
        fprintf(stderr, "naval-sim: %s\n", err.message);
        goto done;
    }
    nv_scenario_check_overlaps(&scn, &inst, sim_warn_overlap, (void*)a.scenario);
    if (a.csv) {
        csv = fopen(a.csv, "w");
        if (!csv) {
            rc = cli_file_error("naval-sim", "--csv: cannot write", a.csv, 1);
            goto done;
        }
        fputs("time,id,type,x,y,z,heading_deg,heel_deg,trim_deg,speed,throttle,rudder\n", csv);
    }
    nv_world* w = inst.world;
    if (sim_prepare(w, &v, &n)) {
        fprintf(stderr, "naval-sim: out of memory\n");
        goto done;
    }
    if (a.record && (rc = sim_record_open(a.record, &scn, &inst, &rec))) goto done;
    rc = 2;
    sim_run r;
    memset(&r, 0, sizeof r);
    r.tick_hz = scn.world.tick_hz;
    r.steps = a.has_steps ? a.steps : (uint64_t)llround(60.0 * r.tick_hz);
    r.threads = (uint32_t)a.threads;
    if (csv) sim_write_csv(csv, w, nv_world_time(w));
    double t0 = sim_now();
    uint32_t next_event = 0;
    for (uint64_t step = 1; step <= r.steps; step++) {
        if (sim_apply_events(w, &scn, &next_event)) goto done;
        nv_world_step(w);
        record_step(rec, w);
        sim_observe_all(w, v, n, &r);
        if (csv && (step % a.every == 0 || step == r.steps)) sim_write_csv(csv, w, nv_world_time(w));
    }
    r.wall_time = sim_now() - t0;
    r.sim_time = nv_world_time(w);
    r.hash = nv_world_state_hash(w);
    for (uint32_t i = 0; i < n; i++) {
        /* The final state ends the track, whatever the sampling stride. */
        if (!v[i].frozen && v[i].since > 0) sim_track_add(&v[i]);
        sim_fit_last_turn(&v[i]);
        sim_final_state(w, &v[i]);
        r.frozen += (uint32_t)v[i].frozen;
    }
    if (csv && (ferror(csv) | fclose(csv))) {
        csv = NULL;
        rc = cli_file_error("naval-sim", "--csv: write error on", a.csv, 0);
        goto done;
    }
    csv = NULL;
    if (rec) {
        /* The end state's hash, then "end": what naval-replay checks last. */
        if (nv_world_tick(w) % SIM_RECORD_HASH_INTERVAL) record_hash(rec, nv_world_tick(w), r.hash);
        int failed = record_failed(rec);
        nv_world_set_recorder(w, NULL, NULL);
        record_close(rec, nv_world_tick(w), 1);
        rec = NULL;
        if (failed) {
            fprintf(stderr, "naval-sim: --record: a write to %s failed\n", a.record);
            rc = 1;
            goto done;
        }
    }
    if (a.json) sim_print_json(&a, &r, w, v, n);
    else sim_print_text(&a, &r, w, v, n);
    rc = 0;
done:
    if (csv) fclose(csv);
    if (rec) {
        nv_world_set_recorder(inst.world, NULL, NULL);
        record_close(rec, nv_world_tick(inst.world), 0);
    }
    sim_free(v, n);
    nv_scenario_instance_destroy(&inst);
    nv_jobs_destroy(pool);
    nv_scenario_free(&scn);
    return rc;
}
