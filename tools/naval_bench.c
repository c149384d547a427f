// SPDX-License-Identifier: MIT
/* naval-bench: a fleet afloat and moving on a rough FFT sea, stepped by the
 * world pipeline; prints step-time percentiles, time per pass, throughput,
 * memory per boat and the state hash (identical for any thread count). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_noise.h"
#include "cli.h"
#include "lod_error.h"
#include "naval/hullgen.h"
#include "naval/jobs.h"
#include "naval/ocean.h"
#include "naval/ranges.h"
#include "naval/scenario.h"
#include "naval/simd.h"
#include "naval/world.h"


enum { BENCH_FORCES_FULL, BENCH_FORCES_HYDROSTATICS, BENCH_FORCES_COMPARE };
/* --forces compare: hydrostatics then full, this many times in turn */
#define BENCH_COMPARE_ROUNDS 2

typedef struct bench_args {
    uint64_t boats, hull_tris, threads, steps, nv_ocean_resolution, cascades, seed;
    double hz;
    const char* hull;
    const char* scenario_path;
    int sweep, json;
    int query; /* -1 default, 0 exact, 1 grid */
    int forces; /* BENCH_FORCES_* */
    uint64_t lod_players; /* 0: no automatic levels of detail */
    int lod_error;        /* --lod-error: the same run on the mesh alone, poses compared */
    double spacing;       /* 0: the default */
    uint64_t breach;      /* vessels holed below the waterline (the hull gets 5 compartments) */
    int contacts;
    int water_entry; /* -1: as the default coefficients (on); 0 off, 1 on */
    int manoeuvring; /* -1: as the default coefficients (off); 0 off, 1 on */
    int breaking;    /* -1: as the default coefficients (off); 0 off, 1 on */
    nv_world_model model;
} bench_args;

typedef struct bench_result {
    uint32_t threads;
    double step_p50, step_p99, step_max, step_mean;
    double noise_p50, noise_p99; /* the fixed work timed between the steps (bench_noise.h), ms */
    double pass_lod, pass_water, pass_vertex, pass_triangle, pass_integrate, pass_contacts; /* mean ms */
    uint64_t contact_events;                                                                /* over the timed steps */
    uint32_t models[3];       /* vessels on each world_model after the last step */
    double pass_triangle_min; /* the least disturbed step: for per-triangle costs on a shared machine */
    double triangle_cpu_min;  /* the same for the triangle work's thread time (compare: timing detail on) */
    double tris_per_s, us_per_boat;
    size_t bytes_per_boat, shared_bytes;
    long peak_rss_kb;
    uint64_t hash;
    uint32_t boats;
    uint32_t triangles; /* per boat, averaged over the fleet */
    uint32_t frozen;
    double hz;
    nv_world_vessel_state* states; /* after the last step, when asked for (--lod-error); the caller frees */
} bench_result;

/* Flags that set a quantity of the range table (naval/ranges.h, the row's
 * id): "--tick-hz: must be in [1, 1000] Hz (got 5000)". */
static int bench_check_range(const cli_opt* o, double v, char* why, size_t n) {
    return nv_range_why((nv_range_id)o->id, v, why, n);
}

static int bench_parse_kernels(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    (void)o, (void)args;
    int level = nv_simd_level_of(text);
    if (level < 0) snprintf(why, n, "must be sse2, avx2 or avx512 (got '%s')", text);
    else if (level > nv_simd_cpu_level()) snprintf(why, n, "this CPU cannot run that build (got '%s')", text);
    else nv_simd_cap(level);
    return level < 0 || level > nv_simd_cpu_level() ? -1 : 0;
}

#define BENCH_U64(name, field, lo, hi, message, vn, text)                                                    \
    {name, .type = CLI_UINT, CLI_FIELD(bench_args, field), .min = lo, .max = hi, .bad = message, .value_name = vn, \
     .help = text}

static const char* const bench_models[] = {"mesh", "columns", "floater", NULL};
static const char* const bench_forces[] = {"full", "hydrostatics", "compare", NULL};
static const char* const bench_queries[] = {"exact", "grid", NULL};
static const char* const bench_on_off[] = {"off", "on", NULL};

static const cli_opt bench_opts[] = {
    BENCH_U64("--boats", boats, 1, SCENARIO_MAX_VESSELS, "--boats must be 1..1000000", "N", "fleet size (default 1000)"),
    {"--hull", .type = CLI_STRING, CLI_FIELD(bench_args, hull), .value_name = "builtin:NAME|FILE",
     .help = "hull of every boat (default builtin:ship)"},
    BENCH_U64("--hull-tris", hull_tris, 12, 2000000, "--hull-tris must be 12..2000000", "T",
              "triangles of a built-in hull (default 500)"),
    BENCH_U64("--threads", threads, 1, 64, "--threads must be 1..64", "K",
              "threads, the caller included (default: all cores)"),
    BENCH_U64("--steps", steps, 1, 10000000, "--steps must be 1..10000000", "S",
              "timed steps (default 600); warm-up is S/10, at least 10"),
    {"--tick-hz", .deprecated = "--hz", .type = CLI_DOUBLE, CLI_FIELD(bench_args, hz), .check = bench_check_range,
     .id = NV_RANGE_WORLD_TICK_HZ, .value_name = "H", .help = "tick rate (default 60)"},
    {"--ocean-resolution", .type = CLI_UINT, CLI_FIELD(bench_args, nv_ocean_resolution), .check = bench_check_range,
     .id = NV_RANGE_OCEAN_RESOLUTION, .bad = "--ocean-resolution must be a power of two", .value_name = "N",
     .help = "FFT grid per cascade, power of two (default 256)"},
    {"--cascades", .type = CLI_UINT, CLI_FIELD(bench_args, cascades), .check = bench_check_range,
     .id = NV_RANGE_OCEAN_CASCADES, .bad = "--cascades must be an integer", .value_name = "C",
     .help = "ocean cascades 1..4 (default 1)"},
    {"--seed", .type = CLI_UINT, CLI_FIELD(bench_args, seed), .check = bench_check_range, .id = NV_RANGE_WORLD_SEED,
     .bad = "--seed must be a non-negative integer", .value_name = "S", .help = "ocean and fleet seed (default 1)"},
    {"--spacing", .type = CLI_DOUBLE, CLI_FIELD(bench_args, spacing), .check = bench_check_range,
     .id = NV_RANGE_FLEET_SPACING, .bad = "--spacing must be a number of m", .value_name = "M",
     .help = "metres between neighbours of the generated square fleet\n(default 1.6 hull lengths + 2 m)"},
    BENCH_U64("--breach", breach, 0, SCENARIO_MAX_VESSELS, "--breach must be 0..1000000", "N",
              "hole N of the generated fleet's vessels in the bottom (0.2 m^2; the hull\n"
              "gets 5 compartments): what flooding costs"),
    {"--contacts", .type = CLI_ENUM, CLI_FIELD(bench_args, contacts), .words = bench_on_off, .value_name = "on|off",
     .bad = "--contacts must be on or off", .help = "contacts between vessels and with the ground (default on)"},
    {"--water-entry", .type = CLI_ENUM, CLI_FIELD(bench_args, water_entry), .words = bench_on_off,
     .value_name = "on|off", .bad = "--water-entry must be on or off",
     .help = "the water's momentum on entry in the generated fleet's full\nmodel (default on, as in the default coefficients): off\nmeasures what it costs"},
    {"--manoeuvring", .type = CLI_ENUM, CLI_FIELD(bench_args, manoeuvring), .words = bench_on_off,
     .value_name = "on|off", .bad = "--manoeuvring must be on or off",
     .help = "the hull's manoeuvring forces (Clarke's derivatives, a cross-\nflow drag) in the generated fleet's full model (default\noff, as in the default coefficients; the patrol boat and the\nfreighter have them): on measures what they cost"},
    {"--breaking-crests", .type = CLI_ENUM, CLI_FIELD(bench_args, breaking), .words = bench_on_off,
     .value_name = "on|off", .bad = "--breaking-crests must be on or off",
     .help = "breaking crests in the generated fleet's full model (default off,\nas in the default coefficients; the built-in types take\nthem): on measures what they cost"},
    {"--forces", .type = CLI_ENUM, CLI_FIELD(bench_args, forces), .words = bench_forces,
     .bad = "--forces must be full, hydrostatics or compare",
     .help = "force model of the generated fleet (default full: drag,\n"
             "slamming, air, added mass, a propeller and rudder per boat);\n"
             "compare runs both, twice in turn, and prints the cost per\n"
             "triangle of each (its fastest step over both rounds)"},
    {"--kernels", .type = CLI_CUSTOM, .parse = bench_parse_kernels, .value_name = "sse2|avx2|avx512",
     .help = "widest SIMD build of the kernels to use: the force kernels\n"
             "and the vertex pass's surface lookup (default: the widest\n"
             "this CPU runs; every build gives the same bits)"},
    {"--model", .type = CLI_ENUM, CLI_FIELD(bench_args, model), .words = bench_models,
     .bad = "--model must be mesh, columns or floater",
     .help = "how every boat meets the water (default mesh): Kerner's\n"
             "triangles, 20 x 5 Zephyr columns, or a surface follower"},
    BENCH_U64("--lod", lod_players, 1, SCENARIO_MAX_VESSELS, "--lod must be 1..1000000 players", "PLAYERS",
              "automatic levels of detail: PLAYERS boats spread through the\n"
              "fleet are players, the others get the mesh within 300 m of\n"
              "one, 20 x 5 columns within 1500 m, a floater beyond"),
    {"--lod-error", .type = CLI_SWITCH, CLI_FIELD(bench_args, lod_error),
     .help = "with --lod: run the same fleet again on the mesh alone and\n"
             "print each model's error in position, tilt and heading at the end"},
    {"--query", .type = CLI_ENUM, CLI_FIELD(bench_args, query), .words = bench_queries,
     .bad = "--query must be exact or grid",
     .help = "ocean heights per vertex by inversion, or from the surface\n"
             "resampled once per step (default: grid with one cascade)"},
    {"--scenario", .type = CLI_STRING, CLI_FIELD(bench_args, scenario_path), .value_name = "FILE",
     .help = "run this scenario (JSON) instead of the generated fleet;\n"
             "--boats, --hull, --hull-tris, --tick-hz, --ocean-* and --seed are then ignored"},
    {"--sweep-threads", .type = CLI_SWITCH, CLI_FIELD(bench_args, sweep),
     .help = "run with 1..K threads and print speed-up and efficiency"},
    {"--json", .type = CLI_SWITCH, CLI_FIELD(bench_args, json), .help = "one JSON object on stdout"},
    {0}};

static const cli_spec bench_spec = {.prog = "naval-bench", .synopsis = "naval-bench [options]", .opts = bench_opts};

static int bench_parse(int argc, char** argv, bench_args* a) {
    memset(a, 0, sizeof *a);
    a->boats = 1000;
    a->hull = "builtin:ship";
    a->hull_tris = 500;
    a->threads = nv_jobs_hardware_threads();
    a->steps = 600;
    a->hz = 60.0;
    a->nv_ocean_resolution = 256;
    a->cascades = 1;
    a->seed = 1;
    a->query = -1;
    a->contacts = 1;
    a->water_entry = -1;
    a->manoeuvring = -1;
    a->breaking = -1;
    int rc = cli_parse(&bench_spec, argc, argv, a);
    if (rc != CLI_RUN) exit(rc);
    if (a->lod_error && (!a->lod_players || a->sweep || a->forces == BENCH_FORCES_COMPARE)) {
        fprintf(stderr, "naval-bench: --lod-error needs --lod, and not --sweep-threads or --forces compare\n");
        return 2;
    }
    if (a->water_entry >= 0 && (a->scenario_path || a->forces == BENCH_FORCES_HYDROSTATICS)) {
        fprintf(stderr, "naval-bench: --water-entry is for the generated fleet's full model: not with --scenario "
                        "or --forces hydrostatics\n");
        return 2;
    }
    if (a->manoeuvring >= 0 && (a->scenario_path || a->forces == BENCH_FORCES_HYDROSTATICS)) {
        fprintf(stderr, "naval-bench: --manoeuvring is for the generated fleet's full model: not with --scenario "
                        "or --forces hydrostatics\n");
        return 2;
    }
    if (a->breaking >= 0 && (a->scenario_path || a->forces == BENCH_FORCES_HYDROSTATICS)) {
        fprintf(stderr, "naval-bench: --breaking-crests is for the generated fleet's full model: not with --scenario "
                        "or --forces hydrostatics\n");
        return 2;
    }
    return 0;
}

static int bench_compare(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* The generated benchmark world as a scenario: a rough sea, one hull type and
 * a square fleet 1.6 hull lengths apart, afloat, moving at 3 m/s. */
static int bench_make_scenario(const bench_args* a, nv_scenario* s, nv_error* err) {
    memset(s, 0, sizeof *s);
    s->world = nv_world_config_default();
    s->world.tick_hz = a->hz;
    /* Light damping on top of the force model: keeps a long run of boats on
     * random headings moving but sane. */
    s->world.linear_damping = 0.02;
    s->world.angular_damping = 0.5;
    s->has_ocean = true;
    s->ocean = nv_ocean_params_default();
    s->ocean.spectrum = SPECTRUM_JONSWAP;
    s->ocean.wind_speed = 12.0; /* a rough sea: Hs ~2.5 m */
    s->ocean.size = 600.0;
    s->ocean.resolution = (int)a->nv_ocean_resolution;
    s->ocean.cascades = (int)a->cascades;
    s->ocean.seed = a->seed;
    s->ocean.surface_grid = a->query >= 0 ? a->query : a->cascades == 1;
    if (nv_ocean_params_validate(&s->ocean, err)) return -1;
    s->hulls = calloc(1, sizeof *s->hulls);
    if (!s->hulls) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    s->hull_count = 1;
    nv_scenario_hull* h = &s->hulls[0];
    strcpy(h->name, "bench");
    if (!strncmp(a->hull, "builtin:", 8) && !strchr(a->hull + 8, ':'))
        snprintf(h->source, sizeof h->source, "%s:%llu", a->hull, (unsigned long long)a->hull_tris);
    else
        snprintf(h->source, sizeof h->source, "%s", a->hull);
    h->mesh = nv_mesh_options_default();
    h->mass = nv_mass_spec_default();
    h->mass.density = 450.0; /* floats at a bit under half its depth */
    nv_mesh m;
    nv_mesh_report rep;
    int rc = nv_hullgen_from_spec(h->source, &m, &rep, err);
    if (rc == 0) rc = nv_mesh_load_file(h->source, MESH_FORMAT_AUTO, &h->mesh, &m, &rep, err) ? -1 : 1;
    if (rc < 0) return -1;
    float lo[3], hi[3];
    nv_mesh_bounds(&m, lo, hi);
    nv_mesh_free(&m);
    if (a->breach) {
        /* Five compartments of equal length for the holes to flood. */
        h->compartments.bulkhead_count = 4;
        for (int k = 0; k < 4; k++) h->compartments.bulkheads[k] = lo[0] + (hi[0] - lo[0]) * (k + 1) / 5.0;
    }
    s->contacts = nv_world_contacts_default();
    double spacing = a->spacing > 0 ? a->spacing : fmax(hi[0] - lo[0], hi[2] - lo[2]) * 1.6 + 2.0, origin[2] = {0, 0};
    return nv_scenario_add_fleet(s, 0, (uint32_t)a->boats, spacing, origin, 3.0, a->seed, err);
}

/* The generated fleet's full model: the default coefficients, one propeller
 * and one rudder at the stern sized from the hull, throttle and rudder
 * varied across the fleet so boats go straight and turn. */
static int bench_set_full_model(nv_world* w, int water_entry, int manoeuvring, int breaking, nv_error* err) {
    const nv_hull* h = nv_world_hull_type(w, 0);
    nv_vessel_dynamics d;
    d.coeffs = nv_hydrodyn_coeffs_default();
    if (water_entry == 0) d.coeffs.forces &= ~(uint32_t)HYDRODYN_WATER_ENTRY;
    if (water_entry == 1) d.coeffs.forces |= HYDRODYN_WATER_ENTRY;
    if (manoeuvring == 1) d.coeffs.forces |= HYDRODYN_MANOEUVRING;
    if (breaking == 1) d.coeffs.forces |= HYDRODYN_BREAKING_CRESTS;
    nv_actuator_set_init(&d.actuators);
    nv_vec3 cg = h->body.cg;
    double stern = cg.x + h->bounds_min[0], keel = cg.y + h->bounds_min[1];
    double length = (double)h->bounds_max[0] - h->bounds_min[0], depth = (double)h->bounds_max[1] - h->bounds_min[1];
    double mass = h->body.mass;
    d.actuators.propeller_count = 1;
    d.actuators.propellers[0] = (nv_actuator_propeller){v3(stern + 0.05 * length, keel + 0.2 * depth, 0), v3(1, 0, 0),
                                                     mass * 0.25, 0.6, 0.3, 0.0, 0.0};
    d.actuators.rudder_count = 1;
    d.actuators.rudders[0] = (nv_actuator_rudder){v3(stern + 0.02 * length, keel + 0.25 * depth, 0),
                                               0.02 * length * 0.4 * depth, 35.0, 3.0, 25.0, 0.02};
    if (nv_world_set_type_dynamics(w, 0, &d, err)) return -1;
    uint32_t n = nv_world_vessel_count(w);
    for (uint32_t i = 0; i < n; i++) {
        double rudder = (i % 4 == 0) ? 0.0 : ((double)(i % 7) - 3.0) / 6.0;
        if (nv_world_set_controls(w, nv_world_vessel_id_at(w, i), 0.3 + 0.1 * (i % 5), rudder, err)) return -1;
    }
    return 0;
}

static int bench_run(const bench_args* a, const nv_scenario* scn, uint32_t threads, int full, bench_result* r,
                     nv_error* err) {
    int keep_states = a->lod_error;
    memset(r, 0, sizeof *r);
    r->threads = threads;
    int rc = -1;
    nv_jobs* pool = NULL;
    nv_scenario_instance inst = {NULL, NULL, NULL};
    double* samples = NULL;
    bench_noise noise = {0};
    if (nv_jobs_create(&pool, threads, err)) goto done;
    /* The generated fleet's stand-in damping is for hydrostatics only: the
     * full model damps through the water. */
    nv_scenario local = *scn;
    if (full && !a->scenario_path) local.world.linear_damping = local.world.angular_damping = 0.0;
    local.contacts.enabled = a->contacts;
    if (nv_scenario_instantiate(&local, pool, &inst, err)) goto done;
    nv_world* w = inst.world;
    if (full && !a->scenario_path && bench_set_full_model(w, a->water_entry, a->manoeuvring, a->breaking, err)) goto done;
    if (a->model != WORLD_MODEL_MESH || a->lod_players) {
        if (a->model == WORLD_MODEL_COLUMNS || a->lod_players)
            for (uint32_t t = 0; t < nv_world_hull_type_count(w); t++)
                if (nv_world_build_type_columns(w, t, 20, 5, err)) goto done;
        for (uint32_t i = 0; i < nv_world_vessel_count(w); i++)
            if (nv_world_set_vessel_model(w, nv_world_vessel_id_at(w, i), a->model, err)) goto done;
    }
    if (a->lod_players) {
        uint32_t n = nv_world_vessel_count(w), players = a->lod_players < n ? (uint32_t)a->lod_players : n;
        for (uint32_t p = 0; p < players; p++)
            if (nv_world_set_player(w, nv_world_vessel_id_at(w, (uint32_t)((uint64_t)p * n / players)), 1, err))
                goto done;
        nv_world_lod lod = nv_world_lod_default();
        lod.enabled = 1;
        nv_world_set_lod(w, &lod);
    }
    if (a->breach) {
        /* A hole low in the hull under the CG of every n-th vessel. */
        uint32_t n = nv_world_vessel_count(w), holed = a->breach < n ? (uint32_t)a->breach : n;
        for (uint32_t k = 0; k < holed; k++) {
            uint32_t id = nv_world_vessel_id_at(w, (uint32_t)((uint64_t)k * n / holed));
            const nv_hull* hh = nv_world_hull_type(w, 0);
            if (nv_world_breach(w, id, v3(0.0, hh->bounds_min[1] + 0.3, 0.0), 0.2, err)) goto done;
        }
    }
    uint32_t boats = nv_world_vessel_count(w);
    if (boats == 0) {
        nv_error_set(err, "the scenario has no vessels");
        goto done;
    }
    uint64_t triangles = 0;
    for (uint32_t i = 0; i < boats; i++) {
        nv_world_vessel_state st;
        nv_world_read_vessels(w, i, 1, &st);
        triangles += nv_world_hull_type(w, st.type)->triangle_count;
    }
    r->boats = boats;
    r->triangles = (uint32_t)(triangles / boats);

    /* compare: the triangle work timed apart from the vertex pass that a
     * small hull's job runs first */
    nv_world_set_timing_detail(w, a->forces == BENCH_FORCES_COMPARE);
    uint64_t warmup = a->steps / 10 < 10 ? 10 : a->steps / 10;
    for (uint64_t s = 0; s < warmup; s++) nv_world_step(w);
    samples = malloc(a->steps * sizeof *samples);
    if (!samples || bench_noise_init(&noise, a->steps)) {
        nv_error_fail(err, NV_ENOMEM, "out of memory");
        goto done;
    }
    for (uint64_t s = 0; s < a->steps; s++) {
        nv_world_step(w);
        const nv_world_timing* t = nv_world_last_timing(w);
        samples[s] = t->step_ms;
        r->step_mean += t->step_ms;
        r->pass_lod += t->lod_ms;
        r->pass_water += t->water_ms;
        r->pass_vertex += t->vertex_ms;
        r->pass_triangle += t->triangle_ms;
        if (s == 0 || t->triangle_ms < r->pass_triangle_min) r->pass_triangle_min = t->triangle_ms;
        if (s == 0 || t->triangle_cpu_ms < r->triangle_cpu_min) r->triangle_cpu_min = t->triangle_cpu_ms;
        r->pass_integrate += t->integrate_ms;
        r->pass_contacts += t->contacts_ms;
        uint32_t events;
        nv_world_contact_events(w, &events);
        r->contact_events += events;
        bench_noise_sample(&noise);
    }
    bench_noise_percentiles(&noise, &r->noise_p50, &r->noise_p99);
    double n = (double)a->steps;
    r->step_mean /= n;
    r->pass_lod /= n;
    r->pass_water /= n;
    r->pass_vertex /= n;
    r->pass_triangle /= n;
    r->pass_integrate /= n;
    r->pass_contacts /= n;
    qsort(samples, a->steps, sizeof *samples, bench_compare);
    r->step_p50 = samples[(size_t)(0.50 * (n - 1))];
    r->step_p99 = samples[(size_t)(0.99 * (n - 1))];
    r->step_max = samples[a->steps - 1];
    r->tris_per_s = (double)triangles / (r->step_mean * 1e-3);
    r->us_per_boat = r->step_mean * 1e3 / (double)boats;
    size_t per, shared;
    nv_world_memory(w, &per, &shared);
    r->bytes_per_boat = per / boats;
    r->shared_bytes = shared;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r->peak_rss_kb = ru.ru_maxrss;
    r->hash = nv_world_state_hash(w);
    if (keep_states && !(r->states = malloc((size_t)boats * sizeof *r->states))) {
        nv_error_fail(err, NV_ENOMEM, "out of memory");
        goto done;
    }
    for (uint32_t s = 0; s < boats; s++) {
        nv_world_vessel_state st;
        nv_world_read_vessels(w, s, 1, &st);
        if (r->states) r->states[s] = st;
        if (st.flags & WORLD_VESSEL_FROZEN) r->frozen++;
        if ((unsigned)st.model < 3) r->models[st.model]++;
    }
    r->hz = scn->world.tick_hz;
    rc = 0;
done:
    free(samples);
    bench_noise_free(&noise);
    nv_scenario_instance_destroy(&inst);
    nv_jobs_destroy(pool);
    return rc;
}

/* extra: more members for the object (a JSON fragment), or NULL. */
static void bench_print_json(const bench_args* a, const nv_scenario* scn, const bench_result* r, const bench_result* sweep,
                             uint32_t n, const char* extra) {
    int res = scn->has_ocean ? scn->ocean.resolution : 0, cas = scn->has_ocean ? scn->ocean.cascades : 0;
    printf(
        "{\"boats\": %llu, \"hull_triangles\": %u, \"threads\": %u, \"hz\": %g, \"steps\": %llu, "
        "\"nv_ocean_resolution\": %d, \"cascades\": %d, \"query\": \"%s\", ",
        (unsigned long long)r->boats, r->triangles, r->threads, r->hz, (unsigned long long)a->steps, res, cas,
        scn->has_ocean && scn->ocean.surface_grid ? "grid" : "exact");
    static const char* const models[] = {"mesh", "columns", "floater"};
    printf("\"model\": \"%s\", ", models[a->model]);
    printf("\"step_ms_p50\": %.4f, \"step_ms_p99\": %.4f, \"step_ms_max\": %.4f, \"step_ms_mean\": %.4f, ", r->step_p50,
           r->step_p99, r->step_max, r->step_mean);
    printf("\"machine_noise_ms_p50\": %.4f, \"machine_noise_ms_p99\": %.4f, ", r->noise_p50, r->noise_p99);
    printf(
        "\"pass_ms\": {\"lod\": %.4f, \"ocean\": %.4f, \"vertex\": %.4f, \"triangle\": %.4f, \"integrate\": %.4f, "
        "\"contacts\": %.4f}, \"contact_events\": %llu, ",
        r->pass_lod, r->pass_water, r->pass_vertex, r->pass_triangle, r->pass_integrate, r->pass_contacts,
        (unsigned long long)r->contact_events);
    printf("\"lod_players\": %llu, \"models\": {\"mesh\": %u, \"columns\": %u, \"floater\": %u}, ",
           (unsigned long long)a->lod_players, r->models[0], r->models[1], r->models[2]);
    printf("\"us_per_boat_vessels\": %.4f, ", (r->pass_vertex + r->pass_triangle + r->pass_integrate) * 1e3 / r->boats);
    printf("\"tris_per_s\": %.4g, \"us_per_boat\": %.4f, \"bytes_per_boat\": %zu, \"shared_bytes\": %zu, "
           "\"peak_rss_kb\": %ld, \"frozen\": %u, \"state_hash\": \"%016llx\"",
           r->tris_per_s, r->us_per_boat, r->bytes_per_boat, r->shared_bytes, r->peak_rss_kb, r->frozen,
           (unsigned long long)r->hash);
    if (sweep) {
        printf(", \"sweep\": [");
        for (uint32_t i = 0; i < n; i++)
            printf("%s{\"threads\": %u, \"step_ms_mean\": %.4f, \"step_ms_p99\": %.4f, \"speedup\": %.3f, "
                   "\"efficiency\": %.3f, \"state_hash\": \"%016llx\"}",
                   i ? ", " : "", sweep[i].threads, sweep[i].step_mean, sweep[i].step_p99,
                   sweep[0].step_mean / sweep[i].step_mean, sweep[0].step_mean / sweep[i].step_mean / sweep[i].threads,
                   (unsigned long long)sweep[i].hash);
        printf("]");
    }
    if (extra) printf(", %s", extra);
    printf("}\n");
}

static void bench_print_text(const bench_args* a, const nv_scenario* scn, const bench_result* r) {
    char sea[64];
    if (scn->has_ocean)
        snprintf(sea, sizeof sea, "ocean %d^2 x %d cascade%s (%s)", scn->ocean.resolution, scn->ocean.cascades,
                 scn->ocean.cascades == 1 ? "" : "s", scn->ocean.surface_grid ? "grid" : "exact");
    else
        snprintf(sea, sizeof sea, "flat water");
    printf("naval-bench: %llu boats x %u triangles, %u thread%s, %g Hz, %s, %llu steps\n",
           (unsigned long long)r->boats, r->triangles, r->threads, r->threads == 1 ? "" : "s", r->hz,
           sea, (unsigned long long)a->steps);
    printf("  step ms      p50 %.3f  p99 %.3f  max %.3f  mean %.3f  (budget %.3f)\n", r->step_p50, r->step_p99,
           r->step_max, r->step_mean, 1000.0 / r->hz);
    printf("  p99 / p50    step %.2f; the machine's own, fixed work between the steps: %.2f (p50 %.3f ms)\n",
           r->step_p99 / r->step_p50, r->noise_p99 / r->noise_p50, r->noise_p50);
    printf("  pass ms      ocean %.3f  vertex %.3f  triangle %.3f  integrate %.3f  contacts %.3f  lod %.3f\n",
           r->pass_water, r->pass_vertex, r->pass_triangle, r->pass_integrate, r->pass_contacts, r->pass_lod);
    printf("  contacts     %llu new in the timed steps\n", (unsigned long long)r->contact_events);
    if (a->lod_players)
        printf("  models       %u mesh, %u columns, %u floaters (%llu players)\n", r->models[0], r->models[1],
               r->models[2], (unsigned long long)a->lod_players);
    printf("  throughput   %.3g triangles/s, %.3f us per boat per step (%.3f without the shared ocean)\n", r->tris_per_s,
           r->us_per_boat, (r->pass_vertex + r->pass_triangle + r->pass_integrate) * 1e3 / r->boats);
    printf("  memory       %zu bytes per boat, %zu shared, peak RSS %.1f MiB\n", r->bytes_per_boat, r->shared_bytes,
           r->peak_rss_kb / 1024.0);
    printf("  frozen       %u\n", r->frozen);
    printf("  state hash   %016llx\n", (unsigned long long)r->hash);
}

int main(int argc, char** argv) {
    bench_args a;
    int rc = bench_parse(argc, argv, &a);
    if (rc) return rc;
    nv_error err;
    bench_result r;
    nv_scenario scn;
    if (a.scenario_path ? nv_scenario_load_file(a.scenario_path, &scn, &err) : bench_make_scenario(&a, &scn, &err)) {
        fprintf(stderr, "naval-bench: %s\n", err.message);
        nv_scenario_free(&scn);
        return 2;
    }
    if (a.forces == BENCH_FORCES_COMPARE) {
        /* Rounds of the two in turn, each side's fastest step over all of
         * them: a busy spell of a shared machine slows whichever run it
         * falls in, never speeds one up, so the minimum over interleaved
         * rounds compares the two under the same conditions. */
        bench_result hs;
        rc = 0;
        for (int round = 0; round < BENCH_COMPARE_ROUNDS && !rc; round++) {
            bench_result rh, rf;
            rc = bench_run(&a, &scn, (uint32_t)a.threads, 0, &rh, &err) ||
                 bench_run(&a, &scn, (uint32_t)a.threads, 1, &rf, &err);
            if (rc) break;
            if (round == 0 || rh.triangle_cpu_min < hs.triangle_cpu_min) hs = rh;
            if (round == 0 || rf.triangle_cpu_min < r.triangle_cpu_min) r = rf;
        }
        if (rc) {
            fprintf(stderr, "naval-bench: %s\n", err.message);
        } else {
            double per = (double)r.boats * r.triangles * 1e-6; /* ms -> ns per triangle */
            /* the fastest step of each (the machine may be shared), in
             * thread time summed over the workers */
            double ns_hs = hs.triangle_cpu_min / per, ns_full = r.triangle_cpu_min / per;
            if (a.json)
                printf(
                    "{\"boats\": %u, \"hull_triangles\": %u, \"threads\": %u, \"kernels\": \"%s\", "
                    "\"triangle_ns_hydrostatics\": %.4f, \"triangle_ns_full\": %.4f, \"full_over_hydrostatics\": %.4f, "
                    "\"step_ms_p50_hydrostatics\": %.4f, \"step_ms_p50_full\": %.4f, \"step_ms_p99_full\": %.4f}\n",
                    r.boats, r.triangles, r.threads, nv_simd_name(nv_simd_level()), ns_hs, ns_full, ns_full / ns_hs,
                    hs.step_p50, r.step_p50, r.step_p99);
            else
                printf(
                    "naval-bench: %u boats x %u triangles, %u threads, %s force kernels\n"
                    "  triangle pass per triangle (fastest step, thread time): hydrostatics %.2f ns, full model %.2f "
                    "ns "
                    "(%.2fx)\n  step p50: hydrostatics %.3f ms, full %.3f ms (p99 %.3f)\n",
                    r.boats, r.triangles, r.threads, nv_simd_name(nv_simd_level()), ns_hs, ns_full, ns_full / ns_hs,
                    hs.step_p50, r.step_p50, r.step_p99);
        }
        nv_scenario_free(&scn);
        return rc ? 2 : 0;
    }
    int full = a.forces == BENCH_FORCES_FULL;
    if (!a.sweep) {
        rc = bench_run(&a, &scn, (uint32_t)a.threads, full, &r, &err);
        lod_error_band bands[3];
        bench_result ref;
        memset(&ref, 0, sizeof ref);
        if (!rc && a.lod_error) {
            /* The reference: the same fleet from the same start, the mesh everywhere. */
            bench_args mesh = a;
            mesh.lod_players = 0;
            rc = bench_run(&mesh, &scn, (uint32_t)a.threads, full, &ref, &err);
            if (!rc && (ref.boats != r.boats || lod_error_compare(r.states, ref.states, r.boats, bands)))
                rc = nv_error_set(&err, "the two runs' vessels do not pair (%u and %u)", r.boats, ref.boats);
        }
        double seconds = (double)(a.steps + (a.steps / 10 < 10 ? 10 : a.steps / 10)) / r.hz;
        if (rc) {
            fprintf(stderr, "naval-bench: %s\n", err.message);
        } else if (a.json) {
            char* extra = NULL;
            size_t extra_size = 0;
            if (a.lod_error) {
                /* one object: the error joins the run's own figures */
                FILE* f = open_memstream(&extra, &extra_size);
                if (f) {
                    fprintf(f, "\"step_ms_p50_mesh\": %.4f, \"step_ms_p99_mesh\": %.4f, ", ref.step_p50, ref.step_p99);
                    lod_error_print_json(f, bands, seconds);
                    fclose(f);
                }
            }
            bench_print_json(&a, &scn, &r, NULL, 0, extra);
            free(extra);
        } else {
            bench_print_text(&a, &scn, &r);
            if (a.lod_error) {
                printf("  mesh alone   step p50 %.3f  p99 %.3f ms\n", ref.step_p50, ref.step_p99);
                lod_error_print_text(stdout, bands, seconds);
            }
        }
        free(r.states);
        free(ref.states);
        nv_scenario_free(&scn);
        return rc ? 2 : 0;
    }
    bench_result* sweep = calloc(a.threads, sizeof *sweep);
    if (!sweep) {
        nv_scenario_free(&scn);
        return 2;
    }
    if (!a.json) printf("threads  mean ms  p99 ms  speed-up  efficiency  state hash\n");
    for (uint32_t k = 1; k <= a.threads; k++) {
        if (bench_run(&a, &scn, k, full, &sweep[k - 1], &err)) {
            fprintf(stderr, "naval-bench: %s\n", err.message);
            free(sweep);
            nv_scenario_free(&scn);
            return 2;
        }
        const bench_result* s = &sweep[k - 1];
        double speedup = sweep[0].step_mean / s->step_mean;
        if (!a.json)
            printf("%7u  %7.3f  %6.3f  %8.3f  %9.1f%%  %016llx\n", k, s->step_mean, s->step_p99, speedup,
                   100.0 * speedup / k, (unsigned long long)s->hash);
    }
    if (a.json) bench_print_json(&a, &scn, &sweep[a.threads - 1], sweep, (uint32_t)a.threads, NULL);
    free(sweep);
    nv_scenario_free(&scn);
    return 0;
}
