// SPDX-License-Identifier: MIT
/* bench-lod: the cost per body per step of each level of detail on the same
 * hull and the same sea: the mesh model's passes (vertex pass + triangle
 * pass, hydrostatics alone and with the default hydrodynamics), the Zephyr
 * columns (nv_columns_force) and the fake floater (floater_batch_step). One
 * thread; the ocean's update is outside the timings (every model reads the
 * same surface). Figures for docs/lod.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "floater.h"
#include "hydro.h"
#include "naval/columns.h"
#include "naval/hull.h"
#include "hull_layout.h"
#include "naval/hullgen.h"
#include "naval/hydrodyn.h"
#include "naval/ocean.h"
#include "naval/statics.h"

typedef struct lod_args {
    const char* hull;
    double mass;
    uint64_t boats, steps;
    uint32_t nx, nz;
    int sine, json;
} lod_args;

static int lod_parse_grid(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    lod_args* a = args;
    uint64_t nx, nz;
    (void)o;
    if (cli_parse_pair(text, 1, COLUMNS_MAX_GRID, &nx, &nz)) {
        snprintf(why, n, "must be N,M, each 1..1024 (got '%s')", text);
        return -1;
    }
    a->nx = (uint32_t)nx;
    a->nz = (uint32_t)nz;
    return 0;
}

static const char* const lod_waters[] = {"ocean", "sine", NULL};

static const cli_opt lod_opts[] = {
    {"--hull", .type = CLI_STRING, CLI_FIELD(lod_args, hull), .value_name = "builtin:NAME|FILE",
     .help = "hull of every boat", .show_default = 1},
    {"--mass", .type = CLI_DOUBLE, CLI_FIELD(lod_args, mass), .min = 1e-9, .max = 1e300,
     .bad = "--mass must be positive", .value_name = "KG",
     .help = "mass (default: a third of the hull's displacement)"},
    {"--boats", .type = CLI_UINT, CLI_FIELD(lod_args, boats), .min = 1, .max = 100000,
     .bad = "--boats must be 1..100000", .value_name = "N", .help = "bodies per model", .show_default = 1},
    {"--steps", .type = CLI_UINT, CLI_FIELD(lod_args, steps), .min = 1, .max = 100000,
     .bad = "--steps must be 1..100000", .value_name = "S", .help = "timed steps", .show_default = 1},
    {"--columns", .type = CLI_CUSTOM, .parse = lod_parse_grid, .value_name = "N,M",
     .help = "column grid (default 20,5)"},
    {"--water", .type = CLI_ENUM, CLI_FIELD(lod_args, sine), .words = lod_waters,
     .bad = "--water must be ocean or sine",
     .help = "FFT ocean read through its surface grid, as the world does\n(default), or one analytic sine wave"},
    {"--json", .type = CLI_SWITCH, CLI_FIELD(lod_args, json), .help = "one JSON object on stdout"},
    {0}};

static const cli_spec lod_spec = {
    .prog = "bench-lod",
    .synopsis = "bench-lod [options]",
    .opts = lod_opts,
    .epilogue = "Prints the median time per body per step of each model and the mesh/columns ratio.",
    .flag_sep = " "};

static int lod_parse(int argc, char** argv, lod_args* a) {
    memset(a, 0, sizeof *a);
    a->hull = "builtin:patrol";
    a->boats = 1000;
    a->steps = 60;
    a->nx = 20;
    a->nz = 5;
    int rc = cli_parse(&lod_spec, argc, argv, a);
    if (rc != CLI_RUN) exit(rc);
    return 0;
}

static double lod_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* time on the CPU: a shared machine's other work does not count */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int lod_cmp(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Median over steps: other work on a shared machine lands in a few steps. */
static double lod_median(double* v, size_t n) {
    qsort(v, n, sizeof *v, lod_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { LOD_MESH_STATIC, LOD_MESH_FULL, LOD_COLUMNS, LOD_FLOATER, LOD_MODELS };
static const char* const lod_names[LOD_MODELS] = {"mesh_hydrostatics", "mesh_full", "columns", "floater"};

typedef struct lod_fleet {
    nv_vec3* position;
    nv_quat* orientation;
    nv_vec3* velocity;
    nv_vec3* angular_velocity;
    uint16_t* slam; /* per boat: hull_lane_count(triangles) half floats */
} lod_fleet;

int main(int argc, char** argv) {
    lod_args a;
    int rc = lod_parse(argc, argv, &a);
    if (rc) return rc;
    nv_error err;
    nv_mesh m;
    int builtin = nv_hullgen_from_spec(a.hull, &m, NULL, &err);
    if (builtin < 0 || (!builtin && nv_mesh_load_file(a.hull, MESH_FORMAT_AUTO, NULL, &m, NULL, &err))) {
        fprintf(stderr, "bench-lod: %s\n", err.message);
        return 2;
    }
    const double rho = 1025.0, g = 9.81, dt = 1.0 / 60.0;
    nv_hull h;
    nv_mass_spec spec = nv_mass_spec_default();
    spec.density = rho / 3.0;
    spec.mass = a.mass;
    if (nv_hull_create(&h, &m, &spec, &err)) {
        fprintf(stderr, "bench-lod: %s: %s\n", a.hull, err.message);
        return 2;
    }
    nv_columns_build_options co = nv_columns_build_options_default();
    co.nx = a.nx;
    co.nz = a.nz;
    co.mass = h.body.mass;
    nv_columns_set set;
    nv_columns_model cm;
    double y0;
    if (nv_columns_build(&m, &co, &set, &err) || nv_columns_model_create(&cm, &set, h.body.cg, &err) ||
        nv_statics_balance_height_of(&h, rho, g, quat_identity(), &y0, &err)) {
        fprintf(stderr, "bench-lod: %s: %s\n", a.hull, err.message);
        return 2;
    }

    /* the sea: a rough JONSWAP ocean read through its surface grid, or a sine */
    nv_ocean* oc = NULL;
    nv_water_sine sine;
    const nv_water_surface* water;
    if (a.sine) {
        nv_water_sine_init(&sine, 1.0, 60.0, 0.3, g);
        water = &sine.base;
    } else {
        nv_ocean_params op = nv_ocean_params_default();
        op.wind_speed = 12.0;
        op.size = 600.0;
        op.cascades = 1;
        op.resolution = 256;
        op.surface_grid = 1;
        if (!(oc = nv_ocean_create(&op, &err))) {
            fprintf(stderr, "bench-lod: ocean: %s\n", err.message);
            return 2;
        }
        water = nv_ocean_surface(oc);
    }

    const size_t n = a.boats;
    lod_fleet f;
    f.position = malloc(n * sizeof *f.position);
    f.orientation = malloc(n * sizeof *f.orientation);
    f.velocity = malloc(n * sizeof *f.velocity);
    f.angular_velocity = malloc(n * sizeof *f.angular_velocity);
    f.slam = calloc(n * hull_lane_count(h.triangle_count), sizeof *f.slam);
    float* height = malloc(h.vertex_count * sizeof *height);
    hydro_scratch hs;
    size_t col_bytes = nv_columns_scratch_bytes(&cm);
    void* col_scratch = malloc(col_bytes);
    floater_batch fb;
    floater_params fp = floater_params_default();
    fp.radius = 0.25 * ((double)h.bounds_max[2] - h.bounds_min[2]);
    floater_scratch* fs = malloc(sizeof *fs);
    double* times[LOD_MODELS];
    for (int k = 0; k < LOD_MODELS; k++) times[k] = malloc(a.steps * sizeof(double));
    if (!f.position || !f.orientation || !f.velocity || !f.angular_velocity || !f.slam || !height || !col_scratch ||
        !fs || hydro_scratch_alloc(&hs, h.vertex_count, &err) || floater_batch_init(&fb, n, &fp, &err)) {
        fprintf(stderr, "bench-lod: out of memory\n");
        return 2;
    }
    for (int k = 0; k < LOD_MODELS; k++)
        if (!times[k]) return 2;
    /* a grid of boats 80 m apart, afloat, headings and a little motion from a fixed sequence */
    size_t side = (size_t)ceil(sqrt((double)n));
    for (size_t i = 0; i < n; i++) {
        double x = 80.0 * (double)(i % side), z = 80.0 * (double)(i / side);
        double heading = fmod(2.399963 * (double)i, 2.0 * NV_PI);
        f.position[i] = v3(x, y0, z);
        f.orientation[i] = quat_from_axis_angle(v3(0, 1, 0), heading);
        f.velocity[i] = v3(3.0 * cos(heading), 0.1, -3.0 * sin(heading));
        f.angular_velocity[i] = v3(0.02, 0.01, -0.03);
        floater_batch_add(&fb, x, 0.0, z, heading, &err);
    }
    nv_hydrodyn_coeffs coeffs = nv_hydrodyn_coeffs_default();
    coeffs.water_density = rho;
    nv_hydrodyn_model hm;
    nv_hydrodyn_model_init(&hm, &coeffs, (double)h.bounds_max[0] - h.bounds_min[0]);

    double checksum = 0.0;
    size_t wet_columns = 0, wet_triangles = 0;
    for (uint64_t step = 0; step < a.steps + 5; step++) {
        double t = (double)step * dt;
        if (oc)
            nv_ocean_update(oc, t);
        else
            nv_water_sine_set_time(&sine, t);
        int timed = step >= 5; /* warm-up */
        double t0 = lod_now();
        for (size_t i = 0; i < n; i++) {
            nv_mat3 r = quat_to_mat3(f.orientation[i]);
            hydro_vertex_pass(&h, 0, h.vertex_count, f.position[i], &r, water, &hs, height);
            hydro_sums s;
            hydro_sums_clear(&s);
            hydro_triangle_pass(&h, height, 0, h.triangle_count, rho * g, NULL, NULL, &s, NULL);
            hydro_sums_to_world(&s, &r);
            checksum += s.force.y;
            wet_triangles += s.wetted_triangles;
        }
        double t1 = lod_now();
        for (size_t i = 0; i < n; i++) {
            nv_mat3 r = quat_to_mat3(f.orientation[i]);
            hydro_vertex_pass(&h, 0, h.vertex_count, f.position[i], &r, water, &hs, height);
            nv_hydrodyn_frame fr;
            nv_hydrodyn_frame_init(&fr, &hm, &r, f.velocity[i], f.angular_velocity[i], 0.0, v3(0, 0, 0), h.body.mass,
                                   h.total_area, dt);
            hydro_sums s;
            hydro_sums_clear(&s);
            hydro_triangle_pass(&h, height, 0, h.triangle_count, rho * g, &fr, f.slam + i * hull_lane_count(h.triangle_count), &s,
                                NULL);
            hydro_sums_to_world(&s, &r);
            checksum += s.force.y + s.slam_force.y;
        }
        double t2 = lod_now();
        for (size_t i = 0; i < n; i++) {
            nv_columns_pose p = {.position = f.position[i],
                              .rotation = quat_to_mat3(f.orientation[i]),
                              .velocity = f.velocity[i],
                              .angular_velocity = f.angular_velocity[i],
                              .water_velocity = v3(0, 0, 0)};
            nv_columns_result r;
            nv_columns_force(&cm, &p, water, rho, g, col_scratch, col_bytes, &r);
            checksum += r.force.y;
            wet_columns += r.wet_columns;
        }
        double t3 = lod_now();
        floater_batch_step(&fb, 0, fb.count, water, dt, fs);
        double t4 = lod_now();
        checksum += fb.y[n / 2];
        if (timed) {
            size_t k = step - 5;
            times[LOD_MESH_STATIC][k] = (t1 - t0) / (double)n;
            times[LOD_MESH_FULL][k] = (t2 - t1) / (double)n;
            times[LOD_COLUMNS][k] = (t3 - t2) / (double)n;
            times[LOD_FLOATER][k] = (t4 - t3) / (double)n;
        }
    }
    double us[LOD_MODELS];
    for (int k = 0; k < LOD_MODELS; k++) us[k] = 1e6 * lod_median(times[k], a.steps);
    double steps_all = (double)(a.steps + 5) * (double)n;
    if (a.json) {
        printf("{\"hull\": \"%s\", \"triangles\": %u, \"vertices\": %u, \"columns\": %u, \"columns_grid\": [%u, %u], "
               "\"boats\": %zu, \"steps\": %llu, \"water\": \"%s\", \"us_per_body\": {",
               a.hull, h.triangle_count, h.vertex_count, cm.count, a.nx, a.nz, n, (unsigned long long)a.steps,
               a.sine ? "sine" : "ocean");
        for (int k = 0; k < LOD_MODELS; k++) printf("\"%s\": %.6g%s", lod_names[k], us[k], k + 1 < LOD_MODELS ? ", " : "");
        printf("}, \"ratio_mesh_hydrostatics_to_columns\": %.4g, \"ratio_mesh_full_to_columns\": %.4g, "
               "\"ratio_columns_to_floater\": %.4g, \"bytes_per_floater\": %zu, \"checksum\": %.6g}\n",
               us[LOD_MESH_STATIC] / us[LOD_COLUMNS], us[LOD_MESH_FULL] / us[LOD_COLUMNS],
               us[LOD_COLUMNS] / us[LOD_FLOATER], sizeof(floater), checksum);
    } else {
        printf("bench-lod: %s (%u triangles, %u vertices; %u columns with volume of %u x %u), %zu bodies, %llu steps, "
               "%s water, one thread\n",
               a.hull, h.triangle_count, h.vertex_count, cm.count, a.nx, a.nz, n, (unsigned long long)a.steps,
               a.sine ? "sine" : "FFT ocean (surface grid)");
        printf("  mesh, hydrostatics   %8.3f us per body per step (%.0f wet triangles on average)\n",
               us[LOD_MESH_STATIC], (double)wet_triangles / steps_all);
        printf("  mesh, full forces    %8.3f us per body per step\n", us[LOD_MESH_FULL]);
        printf("  columns              %8.3f us per body per step (%.0f wet columns on average)\n", us[LOD_COLUMNS],
               (double)wet_columns / steps_all);
        printf("  floater              %8.3f us per body per step (%zu bytes each)\n", us[LOD_FLOATER], sizeof(floater));
        printf("  mesh / columns       %8.1f x (hydrostatics), %.1f x (full forces)\n",
               us[LOD_MESH_STATIC] / us[LOD_COLUMNS], us[LOD_MESH_FULL] / us[LOD_COLUMNS]);
        printf("  columns / floater    %8.1f x\n", us[LOD_COLUMNS] / us[LOD_FLOATER]);
        printf("  (checksum %.6g)\n", checksum);
    }
    for (int k = 0; k < LOD_MODELS; k++) free(times[k]);
    free(fs);
    floater_batch_free(&fb);
    free(col_scratch);
    hydro_scratch_free(&hs);
    free(height);
    free(f.position);
    free(f.orientation);
    free(f.velocity);
    free(f.angular_velocity);
    free(f.slam);
    if (oc) nv_ocean_destroy(oc);
    nv_columns_model_destroy(&cm);
    nv_columns_free(&set);
    nv_hull_destroy(&h);
    nv_mesh_free(&m);
    return 0;
}
