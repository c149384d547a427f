// SPDX-License-Identifier: MIT
/* naval-envelope: the capsize envelope of vessel types (issue 29, item 4).
 *
 * Sweeps each type at several speeds (throttle) and headings to the waves
 * over Beaufort numbers and ocean seeds, for a given sea time, and reports
 * per (type, Beaufort) which (speed, heading) cases capsized and the largest
 * heel reached: a table, or with --json one JSON object.
 *
 * The ocean's FFT dominates a step, so every case of one (Beaufort, seed)
 * shares ONE world: one boat per (type, speed, heading), on a square grid
 * --spacing metres apart, contacts between vessels off (the boats cross
 * each other's tracks; nothing but the sea acts on them). Each boat is held
 * on its heading by a proportional-derivative rudder. The worlds are the
 * jobs: a world runs on one thread (no pool), and --threads of them run at
 * once on the job system, each claiming the next world; results are stored
 * per (world, boat) and printed in a fixed order, so the output does not
 * depend on the thread count or the timing. A boat that capsizes is taken
 * out of its world (it has no effect on the others) to save its cost. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "naval/jobs.h"
#include "naval/ocean.h"
#include "naval/ocean_spectrum.h"
#include "naval/scenario.h"
#include "naval/statics.h"
#include "naval/vessel_type.h"
#include "naval/world.h"
#include "envelope.h"


/* The helmsman: rudder = -(KP error - KD yaw rate), clamped to [-1, 1]
 * (error = wanted - actual heading, rad; positive rudder turns to
 * starboard, toward smaller headings). KP is the server autopilot's gain. */
#define ENV_KP 2.0
#define ENV_KD 2.0

static const char env_about[] =
    "Sweeps each vessel type at each speed (throttle) and heading to the waves, over\n"
    "Beaufort numbers and ocean seeds, for the given sea time, and reports per (type,\n"
    "Beaufort) which (speed, heading) cases capsized (heeled past 90 degrees:\n"
    "nv_world_capsized) and the largest heel reached. All cases of one (Beaufort, seed)\n"
    "float in one world (one FFT ocean), --spacing m apart, contacts between vessels off;\n"
    "each boat keeps its heading by a rudder proportional to the heading error, damped by\n"
    "the yaw rate (a stopped boat cannot steer: it lies as the sea turns it). The sea:\n"
    "JONSWAP, 100 km fetch, the Beaufort number's wind and WMO wave height, one 600 m\n"
    "tile at 256^2 (the server's default world's ocean), waves travelling toward -30\n"
    "degrees; the boats start at rest, upright, at their still-water draft.";
static const char env_epilogue[] =
    "Headings to the waves are degrees between the bow and the waves' direction of\n"
    "travel: head 180, bow 135, beam 90, quartering 45, following 0. In the table a cell\n"
    "is Cn when the case capsized with n of the seeds, else the largest heel (degrees)\n"
    "over the seeds; a type's rating holds when nothing capsized at or below its\n"
    "rated_beaufort. The same arguments print the same output whatever --threads.\n"
    "Exit status: 0 ok (1 with --check when a rating fails), 2 bad arguments or type.";


const char* const env_speed_names[3] = {"stop", "half", "full"};
const double env_speed_values[3] = {0.0, 0.5, 1.0};
const char* const env_heading_names[5] = {"head", "bow", "beam", "quartering", "following"};
const double env_heading_values[5] = {180.0, 135.0, 90.0, 45.0, 0.0};

/* ---- arguments ---------------------------------------------------------- */

/* Splits text at commas into items (each at most cap - 1 long); -1 when an
 * item is empty or too long. */
static int env_next_item(const char** p, char* item, size_t cap) {
    const char* s = *p;
    const char* e = strchr(s, ',');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    if (n == 0 || n >= cap) return -1;
    memcpy(item, s, n);
    item[n] = '\0';
    *p = e ? e + 1 : s + n;
    return 0;
}

static int env_parse_types(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    (void)o;
    env_args* a = args;
    a->type_count = 0;
    const char* p = text;
    while (*p || a->type_count == 0) {
        if (a->type_count == ENV_MAX_TYPES) {
            snprintf(why, n, "at most %d types", ENV_MAX_TYPES);
            return -1;
        }
        env_type* t = &a->types[a->type_count];
        if (env_next_item(&p, t->spec, sizeof t->spec)) {
            snprintf(why, n, "expected SPEC[,SPEC...], each builtin:NAME, a built-in's name or a type file");
            return -1;
        }
        for (const char* c = t->spec; *c; c++)
            if ((unsigned char)*c < 0x20) {
                snprintf(why, n, "a control character in '%s'", t->spec);
                return -1;
            }
        /* A built-in's bare name is the built-in. */
        for (int i = 0; i < nv_vessel_type_builtin_count(); i++)
            if (strcmp(t->spec, nv_vessel_type_builtin_name(i)) == 0) {
                const char* name = nv_vessel_type_builtin_name(i); /* the table's own, no copy */
                snprintf(t->spec, sizeof t->spec, "builtin:%s", name);
                break;
            }
        a->type_count++;
    }
    return 0;
}

static int env_parse_beaufort(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    (void)o;
    env_args* a = args;
    int seen[ENV_MAX_BEAUFORT] = {0};
    const char* dots = strstr(text, "..");
    if (dots) {
        char lo[16], hi[16];
        size_t nl = (size_t)(dots - text);
        uint64_t l, h;
        if (nl == 0 || nl >= sizeof lo || strlen(dots + 2) >= sizeof hi) goto bad;
        memcpy(lo, text, nl);
        lo[nl] = '\0';
        snprintf(hi, sizeof hi, "%s", dots + 2);
        if (cli_parse_u64(lo, 0, 12, &l) || cli_parse_u64(hi, 0, 12, &h) || l > h) goto bad;
        for (uint64_t b = l; b <= h; b++) seen[b] = 1;
    } else {
        const char* p = text;
        while (*p || p == text) {
            char item[16];
            uint64_t b;
            if (env_next_item(&p, item, sizeof item) || cli_parse_u64(item, 0, 12, &b)) goto bad;
            seen[b] = 1;
        }
    }
    a->beaufort_count = 0;
    for (int b = 0; b < ENV_MAX_BEAUFORT; b++)
        if (seen[b]) a->beaufort[a->beaufort_count++] = b;
    return 0;
bad:
    snprintf(why, n, "expected LO..HI or N[,N...], Beaufort numbers 0..12");
    return -1;
}


/* A list of named or numeric values in [lo, hi], at most cap of them, in
 * the order given, none twice. */
static int env_parse_list(const char* text, const char* const* names, const double* values, int named, double lo,
                          double hi, double* out, uint32_t* count, uint32_t cap) {
    const char* p = text;
    *count = 0;
    while (*p || p == text) {
        char item[32];
        double v = NAN;
        if (*count == cap || env_next_item(&p, item, sizeof item)) return -1;
        for (int i = 0; i < named; i++)
            if (strcmp(item, names[i]) == 0) v = values[i];
        if (isnan(v) && (cli_parse_double(item, &v) || v < lo || v > hi)) return -1;
        for (uint32_t i = 0; i < *count; i++)
            if (out[i] == v) return -1;
        out[(*count)++] = v;
    }
    return 0;
}

static int env_parse_speeds(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    (void)o;
    env_args* a = args;
    if (env_parse_list(text, env_speed_names, env_speed_values, 3, 0.0, 1.0, a->speeds, &a->speed_count,
                       ENV_MAX_SPEEDS)) {
        snprintf(why, n, "expected up to %d distinct throttles in [0, 1] or stop, half, full, comma-separated",
                 ENV_MAX_SPEEDS);
        return -1;
    }
    return 0;
}

static int env_parse_headings(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    (void)o;
    env_args* a = args;
    if (env_parse_list(text, env_heading_names, env_heading_values, 5, 0.0, 180.0, a->headings, &a->heading_count,
                       ENV_MAX_HEADINGS)) {
        snprintf(why, n,
                 "expected up to %d distinct degrees off the waves in [0, 180] or head, bow, beam, quartering, "
                 "following, comma-separated",
                 ENV_MAX_HEADINGS);
        return -1;
    }
    return 0;
}

static const cli_opt env_opts[] = {
    {"--types", .type = CLI_CUSTOM, .parse = env_parse_types, .value_name = "SPEC[,SPEC...]",
     .help = "vessel types: builtin:NAME (or NAME) or a vessel-type file (default: the built-ins)"},
    {"--beaufort", .type = CLI_CUSTOM, .parse = env_parse_beaufort, .value_name = "LO..HI|N,...",
     .help = "Beaufort numbers (default 2..10)"},
    {"--speeds", .type = CLI_CUSTOM, .parse = env_parse_speeds, .value_name = "LIST",
     .help = "throttles: stop, half, full or numbers in [0, 1] (default stop,half,full)"},
    {"--headings", .type = CLI_CUSTOM, .parse = env_parse_headings, .value_name = "LIST",
     .help = "headings to the waves: head, bow, beam, quartering, following or degrees off\n"
             "the waves' direction of travel, 0..180 (default all five)"},
    CLI_UINT_OPT(env_args, "--seeds", seeds, 1, ENV_MAX_SEEDS, "N", "ocean seeds per Beaufort number"),
    CLI_UINT_OPT(env_args, "--seed-base", seed_base, 0, 1e15, "S", "the first seed (then S + 1, ...)"),
    {"--minutes", .type = CLI_DOUBLE, CLI_FIELD(env_args, minutes), .min = 1.0 / 60.0, .max = 600,
     .value_name = "M", .help = "sea time per run, minutes", .show_default = 1},
    {"--spacing", .type = CLI_DOUBLE, CLI_FIELD(env_args, spacing), .min = 50, .max = 10000, .value_name = "M",
     .help = "metres between the boats of a world", .show_default = 1},
    {"--threads", .type = CLI_UINT, CLI_FIELD(env_args, threads), .min = 1, .max = 64, .value_name = "K",
     .bad = "--threads must be 1..64",
     .help = "worlds run at once (default: all cores; results do not depend on it)"},
    {"--json", .type = CLI_SWITCH, CLI_FIELD(env_args, json), .help = "the results as one JSON object on stdout"},
    {"--check", .type = CLI_SWITCH, CLI_FIELD(env_args, check),
     .help = "exit 1 when a type capsized at or below its rated Beaufort number"},
    {"--quiet", .type = CLI_SWITCH, CLI_FIELD(env_args, quiet), .help = "no progress lines on stderr"},
    {0}};

static const cli_spec env_spec = {.prog = "naval-envelope", .synopsis = "naval-envelope [options]",
                                  .about = env_about, .opts = env_opts, .epilogue = env_epilogue};

static int env_parse_args(int argc, char** argv, env_args* a) {
    memset(a, 0, sizeof *a);
    a->threads = nv_jobs_hardware_threads();
    a->seeds = 3;
    a->seed_base = 1;
    a->minutes = 10.0;
    a->spacing = 400.0;
    for (int b = 2; b <= 10; b++) a->beaufort[a->beaufort_count++] = b;
    for (int i = 0; i < 3; i++) a->speeds[a->speed_count++] = env_speed_values[i];
    for (int i = 0; i < 5; i++) a->headings[a->heading_count++] = env_heading_values[i];
    int rc = cli_parse(&env_spec, argc, argv, a);
    if (rc != CLI_RUN) return rc;
    if (a->type_count == 0)
        for (int i = 0; i < nv_vessel_type_builtin_count() && i < ENV_MAX_TYPES; i++)
            snprintf(a->types[a->type_count++].spec, sizeof a->types[0].spec, "builtin:%s",
                     nv_vessel_type_builtin_name(i));
    for (uint32_t i = 0; i < a->type_count; i++) {
        nv_vessel_type t;
        nv_error err;
        if (nv_vessel_type_from_spec(a->types[i].spec, &t, &err)) {
            fprintf(stderr, "naval-envelope: --types: %s\n", err.message);
            return 2;
        }
        snprintf(a->types[i].name, sizeof a->types[i].name, "%s", t.name);
        a->types[i].rated = t.rated_beaufort;
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(a->types[j].name, t.name) == 0)
                return cli_usage_error("naval-envelope", "--types: two types are named '%s'", t.name);
    }
    return CLI_RUN;
}

/* ---- the scenario of one world ------------------------------------------ */

typedef struct env_buf {
    char* p;
    size_t len, cap;
    int failed;
} env_buf;

static void env_printf(env_buf* b, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void env_printf(env_buf* b, const char* fmt, ...) {
    if (b->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->p && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len <= (size_t)n) cap *= 2;
        char* q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
}

static void env_json_string(env_buf* b, const char* s) {
    env_printf(b, "\"");
    for (; *s; s++) env_printf(b, (*s == '"' || *s == '\\') ? "\\%c" : "%c", *s);
    env_printf(b, "\"");
}

/* Boats per world, in the order type, speed, heading. */
static uint32_t env_boats(const env_args* a) { return a->type_count * a->speed_count * a->heading_count; }

/* The boat's heading (degrees, as the scenario's heading_deg): the waves
 * travel toward ENV_WIND_DIR; off = 0 runs with them, 180 into them. */
static double env_boat_heading(const env_args* a, uint32_t boat) {
    return ENV_WIND_DIR + a->headings[boat % a->heading_count];
}

static double env_boat_throttle(const env_args* a, uint32_t boat) {
    return a->speeds[(boat / a->heading_count) % a->speed_count];
}

/* The scenario text: the sea, the types, the boats (vessel i is boat i);
 * its ocean's Beaufort number and seed are set per world. */
static char* env_scenario_text(const env_args* a) {
    env_buf b = {0};
    env_printf(&b,
               "{\"ocean\": {\"spectrum\": \"jonswap\", \"beaufort\": %d, \"wind_dir\": %.17g, \"fetch\": %.17g, "
               "\"size\": %.17g, \"resolution\": %d, \"cascades\": 1, \"query\": \"grid\", \"seed\": 1},\n"
               " \"contacts\": {\"enabled\": false},\n \"vessel_types\": [",
               a->beaufort[0], ENV_WIND_DIR, ENV_FETCH, ENV_TILE, ENV_RESOLUTION);
    for (uint32_t i = 0; i < a->type_count; i++) {
        if (i) env_printf(&b, ", ");
        env_json_string(&b, a->types[i].spec);
    }
    env_printf(&b, "],\n \"vessels\": [");
    uint32_t n = env_boats(a), side = (uint32_t)ceil(sqrt((double)n));
    for (uint32_t k = 0; k < n; k++) {
        const env_type* t = &a->types[k / (a->speed_count * a->heading_count)];
        env_printf(&b, "%s\n  {\"type\": ", k ? "," : "");
        env_json_string(&b, t->name);
        env_printf(&b, ", \"position\": [%.17g, %.17g], \"heading_deg\": %.17g, "
                       "\"controls\": {\"throttle\": %.17g, \"rudder\": 0}}",
                   (double)(k % side) * a->spacing, (double)(k / side) * a->spacing, env_boat_heading(a, k),
                   env_boat_throttle(a, k));
    }
    env_printf(&b, "]}\n");
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* ---- running the worlds ------------------------------------------------- */


static double env_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double env_wrap_pi(double r) { return remainder(r, 2.0 * NV_PI); }

/* The bow's heading, radians about +y from +x toward -z. */
static double env_heading_of(nv_quat q) {
    nv_vec3 bow = quat_rotate(q, v3(1.0, 0.0, 0.0));
    return atan2(-bow.z, bow.x);
}

static void env_fail(env_ctx* c, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void env_fail(env_ctx* c, const char* fmt, ...) {
    pthread_mutex_lock(&c->lock);
    if (!atomic_load(&c->failed)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->error, sizeof c->error, fmt, ap);
        va_end(ap);
        atomic_store(&c->failed, 1);
    }
    pthread_mutex_unlock(&c->lock);
}

/* Observes every boat still afloat after a step (or at the start), steers
 * it, and takes the capsized out of the world. */
static int env_observe(env_ctx* c, nv_world* w, env_run* runs, nv_world_vessel_state* st, uint64_t step) {
    const env_args* a = c->a;
    uint32_t n = nv_world_read_vessels(w, 0, nv_world_vessel_count(w), st);
    double time = nv_world_time(w);
    int late = step * 2 >= c->steps; /* the second half of the run */
    uint32_t gone = 0;
    for (uint32_t s = 0; s < n; s++) {
        uint32_t k = st[s].id;
        env_run* r = &runs[k];
        if (k >= c->boats || r->capsized) continue;
        if (st[s].flags & WORLD_VESSEL_FROZEN) {
            r->frozen = 1;
            continue;
        }
        double heel;
        nv_statics_attitude(st[s].orientation, &heel, NULL, NULL);
        if (fabs(heel) > r->max_heel) r->max_heel = fabs(heel);
        if (nv_world_capsized(st[s].orientation)) {
            r->capsized = 1;
            r->capsize_time = time;
            st[gone++].id = k; /* slots before s are read already */
            continue;
        }
        double want = env_boat_heading(a, k) * NV_PI / 180.0;
        double error = env_wrap_pi(want - env_heading_of(st[s].orientation));
        double rudder = -(ENV_KP * error - ENV_KD * st[s].angular_velocity.y);
        rudder = rudder < -1.0 ? -1.0 : (rudder > 1.0 ? 1.0 : rudder);
        nv_error err;
        if (nv_world_set_controls(w, k, env_boat_throttle(a, k), rudder, &err)) {
            env_fail(c, "vessel %u: %s", k, err.message);
            return -1;
        }
        if (late) {
            double deg = error * 180.0 / NV_PI;
            r->heading_sq += deg * deg;
            r->speed_sum += hypot(st[s].velocity.x, st[s].velocity.z);
            r->samples++;
        }
    }
    for (uint32_t i = 0; i < gone; i++) {
        nv_error err;
        if (nv_world_despawn(w, st[i].id, &err)) {
            env_fail(c, "vessel %u: %s", st[i].id, err.message);
            return -1;
        }
    }
    return 0;
}

static void env_run_world(env_ctx* c, uint32_t world) {
    const env_args* a = c->a;
    uint32_t bi = world / (uint32_t)a->seeds, si = world % (uint32_t)a->seeds;
    nv_scenario s = *c->base; /* shallow: instantiate only reads it */
    s.ocean.beaufort = a->beaufort[bi];
    s.ocean.seed = a->seed_base + si;
    nv_scenario_instance inst;
    nv_error err;
    double t0 = env_now();
    pthread_mutex_lock(&c->lock);
    int rc = nv_scenario_instantiate(&s, NULL, &inst, &err);
    pthread_mutex_unlock(&c->lock);
    if (rc) {
        env_fail(c, "Beaufort %d, seed %llu: %s", s.ocean.beaufort, (unsigned long long)s.ocean.seed, err.message);
        return;
    }
    nv_world* w = inst.world;
    env_run* runs = &c->runs[(size_t)world * c->boats];
    nv_world_vessel_state* st = malloc((size_t)c->boats * sizeof *st);
    if (!st) {
        env_fail(c, "out of memory");
        goto done;
    }
    nv_ocean_stats os;
    nv_ocean_measure(inst.ocean, &os);
    const nv_ocean_params* op = nv_ocean_get_params(inst.ocean);
    c->seas[world].wind = op->wind_speed;
    c->seas[world].hs = op->hs_target;
    c->seas[world].tp = os.peak_period;
    for (uint64_t step = 0;; step++) {
        if (env_observe(c, w, runs, st, step)) goto done;
        if (step == c->steps || nv_world_vessel_count(w) == 0 || atomic_load(&c->failed)) break;
        nv_world_step(w);
    }
    if (!a->quiet) {
        uint32_t capsized = 0;
        for (uint32_t k = 0; k < c->boats; k++) capsized += (uint32_t)runs[k].capsized;
        pthread_mutex_lock(&c->lock);
        fprintf(stderr, "naval-envelope: Beaufort %d seed %llu: %u of %u capsized (%.0f s; %.0f s in all)\n",
                s.ocean.beaufort, (unsigned long long)s.ocean.seed, capsized, c->boats, env_now() - t0,
                env_now() - c->t0);
        pthread_mutex_unlock(&c->lock);
    }
done:
    free(st);
    pthread_mutex_lock(&c->lock);
    nv_scenario_instance_destroy(&inst);
    pthread_mutex_unlock(&c->lock);
}

/* Each job claims worlds until none is left: the balance does not depend
 * on how the pool cut the range, and neither do the results. */
static void env_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    env_ctx* c = ctx;
    for (uint32_t i = begin; i < end; i++)
        for (;;) {
            uint32_t world = atomic_fetch_add(&c->next, 1u);
            if (world >= c->worlds || atomic_load(&c->failed)) break;
            env_run_world(c, world);
        }
}

int main(int argc, char** argv) {
    env_args a;
    int rc = env_parse_args(argc, argv, &a);
    if (rc != CLI_RUN) return rc;
    nv_error err;
    char* text = env_scenario_text(&a);
    if (!text) {
        fprintf(stderr, "naval-envelope: out of memory\n");
        return 1;
    }
    nv_scenario scn;
    rc = nv_scenario_parse(text, strlen(text), "naval-envelope", NULL, &scn, &err);
    free(text);
    if (rc) {
        fprintf(stderr, "naval-envelope: %s\n", err.message);
        return 2;
    }
    env_ctx c;
    memset(&c, 0, sizeof c);
    c.a = &a;
    c.base = &scn;
    c.tick_hz = scn.world.tick_hz;
    c.steps = (uint64_t)llround(a.minutes * 60.0 * c.tick_hz);
    c.worlds = a.beaufort_count * (uint32_t)a.seeds;
    c.boats = env_boats(&a);
    c.runs = calloc((size_t)c.worlds * c.boats, sizeof *c.runs);
    c.seas = calloc(c.worlds, sizeof *c.seas);
    atomic_init(&c.next, 0u);
    atomic_init(&c.failed, 0);
    pthread_mutex_init(&c.lock, NULL);
    c.t0 = env_now();
    nv_jobs* pool = NULL;
    rc = 1;
    if (!c.runs || !c.seas) {
        fprintf(stderr, "naval-envelope: out of memory\n");
        goto done;
    }
    uint32_t threads = a.threads < c.worlds ? (uint32_t)a.threads : c.worlds;
    if (nv_jobs_create(&pool, threads, &err)) {
        fprintf(stderr, "naval-envelope: %s\n", err.message);
        goto done;
    }
    /* One index per thread; each claims whole worlds (env_job). */
    nv_jobs_parallel_for(pool, threads, 1, env_job, &c);
    if (atomic_load(&c.failed)) {
        fprintf(stderr, "naval-envelope: %s\n", c.error);
        goto done;
    }
    if (!a.quiet) fprintf(stderr, "naval-envelope: %u worlds in %.1f s\n", c.worlds, env_now() - c.t0);
    if (a.json) env_print_json(&c);
    else env_print_text(&c);
    rc = 0;
    if (a.check)
        for (uint32_t ti = 0; ti < a.type_count; ti++)
            if (env_verdict_of(&c, ti).holds == 0) rc = 1;
done:
    nv_jobs_destroy(pool);
    pthread_mutex_destroy(&c.lock);
    free(c.runs);
    free(c.seas);
    nv_scenario_free(&scn);
    return rc;
}
