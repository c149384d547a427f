// SPDX-License-Identifier: MIT
/* naval-hull: the mesh report of a hull and, given a mass, its equilibrium on
 * flat water found by running the project's own physics; with --columns or
 * --import-columns, its Zephyr columns against the mesh (docs/lod.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "naval/columns.h"
#include "naval/hull.h"
#include "naval/hullgen.h"
#include "naval/mass.h"
#include "naval/mesh.h"
#include "naval/ranges.h"
#include "naval/statics.h"

static const char hull_about[] =
    "Prints the mesh report of a hull (STL, OBJ or OFF; or a built-in: barge, ship, cube,\n"
    "skiff, patrol, freighter) and, when a mass is given, its equilibrium on flat water\n"
    "found by simulation.";
static const char hull_epilogue[] =
    "inertia is the mesh's, as a solid of density 1 kg/m^3 about its centroid.\n"
    "bounds: the axis-aligned box of the mesh in mesh coordinates (where a vessel type's\n"
    "propellers, rudders and bulkheads are placed) and in the body frame about the CG.\n"
    "Column densities are mass / column volume (1 without --mass); the drafts need a mass:\n"
    "--mass, or else the imported columns' own (sum of density x volume).\n"
    "Heel is in (-180, 180] degrees, + starboard down (about 180: keel-up, capsized);\n"
    "trim in [-90, 90], + bow up. A mass too light for the hull to float on a film\n"
    "1e-4 of its extent deep is refused, with the least mass that does.\n"
    "Exit status: 0 ok, 2 bad arguments or mesh, or a mass the hull cannot float (too heavy,\n"
    "too light).";

typedef struct hull_args {
    const char* source;
    nv_mesh_options mesh;
    nv_mass_spec mass;
    double rho;
    int json;
    uint32_t columns_nx, columns_nz; /* 0: no columns built */
    const char* import_columns;
    const char* export_columns;
    int up, has_cg, has_gyration; /* as parsed: --up z; --cg, --gyration given */
} hull_args;

static int hull_arg_error(const char* fmt, const char* a, const char* b) {
    fprintf(stderr, "naval-hull: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n(naval-hull --help for usage)\n");
    return 2;
}

/* A value against its row of the range table (naval/ranges.h, the row's
 * id): "--mass must be in [0.01, 1e+09] kg (got -3)". */
static int hull_check_range(const cli_opt* o, double v, char* why, size_t n) {
    return nv_range_why((nv_range_id)o->id, v, why, n);
}

/* "X,Y,Z" into the nv_vec3 at the row's offset, each component against the
 * row's range: "--cg Y must be ...". */
static int hull_parse_triple(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    nv_vec3 v;
    if (cli_parse_triple(text, &v)) {
        snprintf(why, n, "must be %s in metres (got '%s')", (const char*)o->data, text);
        return -1;
    }
    const double c[3] = {v.x, v.y, v.z};
    for (int k = 0; k < 3; k++) {
        char range[200];
        if (nv_range_why((nv_range_id)o->id, c[k], range, sizeof range)) {
            snprintf(why, n, "%c %s", "XYZ"[k], range);
            return -1;
        }
    }
    memcpy((char*)args + o->offset, &v, sizeof v);
    return 0;
}

/* "N,M": two integers 1..COLUMNS_MAX_GRID. */
static int hull_parse_grid(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    hull_args* a = args;
    uint64_t x, z;
    if (cli_parse_pair(text, 1, COLUMNS_MAX_GRID, &x, &z)) {
        snprintf(why, n, "must be N,M: columns along x and along z, each 1..1024 (got '%s')", text);
        return -1;
    }
    (void)o;
    a->columns_nx = (uint32_t)x;
    a->columns_nz = (uint32_t)z;
    return 0;
}

static int hull_positional(const char* arg, void* args, char* why, size_t n) {
    hull_args* a = args;
    if (a->source) {
        snprintf(why, n, "one hull at a time (got '%s' and '%s')", a->source, arg);
        return -1;
    }
    a->source = arg;
    return 0;
}

static const char* const hull_up_words[] = {"y", "z", NULL};

static const cli_opt hull_opts[] = {
    {"--up", .type = CLI_ENUM, CLI_FIELD(hull_args, up), .words = hull_up_words, .value_name = "y|z",
     .help = "the file's up axis (default y); coordinates are reported +y up"},
    {"--flip", .type = CLI_SWITCH, CLI_FIELD(hull_args, mesh.flip_inside_out),
     .help = "reverse an inside-out mesh instead of rejecting it"},
    {"--mass", .type = CLI_DOUBLE, CLI_FIELD(hull_args, mass.mass), .check = hull_check_range,
     .id = NV_RANGE_TYPE_MASS, .bad = "--mass must be a number of kg", .value_name = "KG", .help = "vessel mass; enables the equilibrium"},
    {"--cg", .type = CLI_CUSTOM, CLI_FIELD(hull_args, mass.cg), CLI_SEEN(hull_args, has_cg),
     .parse = hull_parse_triple, .id = NV_RANGE_TYPE_COORDINATE, .data = "X,Y,Z", .value_name = "X,Y,Z",
     .help = "centre of gravity (default: the volume centroid), +y up"},
    {"--gyration", .type = CLI_CUSTOM, CLI_FIELD(hull_args, mass.gyration), CLI_SEEN(hull_args, has_gyration),
     .parse = hull_parse_triple, .id = NV_RANGE_TYPE_GYRATION, .data = "KX,KY,KZ", .value_name = "KX,KY,KZ",
     .help = "radii of gyration about the CG (default: uniform solid)"},
    {"--rho", .type = CLI_DOUBLE, CLI_FIELD(hull_args, rho), .check = hull_check_range,
     .id = NV_RANGE_WORLD_WATER_DENSITY, .bad = "--rho must be a density in kg/m^3", .value_name = "KG/M3", .help = "water density (default 1025)"},
    {"--columns", .type = CLI_CUSTOM, .parse = hull_parse_grid, .value_name = "N,M",
     .help = "Zephyr columns: N along x by M along z, volumes by ray casting;\n"
             "prints their volume and upright draft against the mesh's"},
    {"--import-columns", .type = CLI_STRING, CLI_FIELD(hull_args, import_columns), .value_name = "IN.txt",
     .help = "columns from a file (the seed's format) instead"},
    {"--export-columns", .type = CLI_STRING, CLI_FIELD(hull_args, export_columns), .value_name = "OUT.txt",
     .help = "write the columns (X,Ymin,Z,Ymax,Volume,Density per line)"},
    {"--json", .type = CLI_SWITCH, CLI_FIELD(hull_args, json), .help = "one JSON object on stdout"},
    {0}};

static const cli_spec hull_spec = {.prog = "naval-hull",
                                   .synopsis = "naval-hull FILE|builtin:NAME[:TRIANGLES] [options]",
                                   .about = hull_about,
                                   .opts = hull_opts,
                                   .positional = hull_positional,
                                   .epilogue = hull_epilogue,
                                   .flag_sep = " "};

static int hull_parse_args(int argc, char** argv, hull_args* a) {
    memset(a, 0, sizeof *a);
    a->mesh = nv_mesh_options_default();
    a->mass = nv_mass_spec_default();
    a->rho = 1025.0;
    a->up = a->mesh.up == 'z';
    int rc = cli_parse(&hull_spec, argc, argv, a);
    if (rc != CLI_RUN) exit(rc);
    a->mesh.up = a->up ? 'z' : 'y';
    a->mass.has_cg = a->has_cg;
    a->mass.has_gyration = a->has_gyration;
    if (!a->source) return hull_arg_error("no hull given: a mesh file or builtin:NAME%s%s", "", "");
    if ((a->mass.has_cg || a->mass.has_gyration) && a->mass.mass == 0.0)
        return hull_arg_error("--cg and --gyration need --mass%s%s", "", "");
    if (a->columns_nx && a->import_columns)
        return hull_arg_error("--columns builds columns and --import-columns reads them: give one%s%s", "", "");
    if (a->export_columns && !a->columns_nx && !a->import_columns)
        return hull_arg_error("--export-columns needs --columns N,M (or --import-columns)%s%s", "", "");
    return 0;
}

/* The columns next to the mesh: volumes, and upright drafts (keel depth
 * where buoyancy carries the weight on flat water) when a mass is known. */
typedef struct hull_columns_report {
    int present;
    int imported;
    uint32_t nx, nz, samples;
    uint32_t count, with_volume, skipped_rays;
    double volume, mesh_volume;
    int has_draft;
    double mass, draft, mesh_draft;
} hull_columns_report;

static double hull_percent(double got, double want) { return 100.0 * (got / want - 1.0); }

static int hull_columns(const hull_args* a, const nv_mesh* m, const nv_hull* h, hull_columns_report* rep, nv_error* err) {
    memset(rep, 0, sizeof *rep);
    nv_columns_set set;
    if (a->import_columns) {
        if (nv_columns_import(a->import_columns, &set, err)) return -1;
        rep->imported = 1;
    } else {
        nv_columns_build_options o = nv_columns_build_options_default();
        o.nx = a->columns_nx;
        o.nz = a->columns_nz;
        o.mass = a->mass.mass;
        if (nv_columns_build(m, &o, &set, err)) return -1;
        rep->samples = o.samples;
    }
    rep->present = 1;
    rep->nx = set.nx;
    rep->nz = set.nz;
    rep->count = set.count;
    rep->skipped_rays = set.skipped_rays;
    rep->volume = nv_columns_total_volume(&set);
    rep->mesh_volume = h->mesh_props.volume;
    for (uint32_t i = 0; i < set.count; i++) rep->with_volume += set.columns[i].volume > 0.0;
    int rc = 0;
    if (a->export_columns && nv_columns_export(&set, a->export_columns, err)) rc = -1;
    double mass = a->mass.mass;
    if (!rc && !(mass > 0.0) && rep->imported) nv_columns_mass(&set, &mass, NULL);
    nv_columns_model model;
    if (!rc && mass > 0.0) {
        rc = nv_columns_model_create(&model, &set, h->body.cg, err);
        if (!rc) {
            double y_col, y_mesh;
            nv_hull hm; /* the upright draft depends on the mass alone, not on the CG */
            nv_mass_spec spec = nv_mass_spec_default();
            spec.mass = mass;
            rc = nv_columns_balance_height(&model, mass, a->rho, 9.81, quat_identity(), &y_col, err);
            if (!rc && !(rc = nv_hull_create(&hm, m, &spec, err))) {
                rc = nv_statics_balance_height_of(&hm, a->rho, 9.81, quat_identity(), &y_mesh, err);
                if (!rc) {
                    rep->has_draft = 1;
                    rep->mass = mass;
                    rep->mesh_draft = -(y_mesh + hm.bounds_min[1]);
                    rep->draft = -(y_col + h->bounds_min[1]); /* the columns' CG is h's */
                }
                nv_hull_destroy(&hm);
            }
            nv_columns_model_destroy(&model);
        }
    }
    nv_columns_free(&set);
    if (rc) nv_error_prefix(err, "columns");
    return rc;
}

static void hull_print_vec_json(const char* key, nv_vec3 v, const char* tail) {
    printf("\"%s\": [%.12g, %.12g, %.12g]%s", key, v.x, v.y, v.z, tail);
}

static void hull_print_columns_json(const hull_columns_report* c) {
    printf(", \"columns\": {\"source\": \"%s\", \"nx\": %u, \"nz\": %u, \"samples\": %u, \"count\": %u, "
           "\"with_volume\": %u, \"skipped_rays\": %u, \"volume\": %.12g, \"mesh_volume\": %.12g, "
           "\"volume_error_pct\": %.6g",
           c->imported ? "imported" : "built", c->nx, c->nz, c->samples, c->count, c->with_volume, c->skipped_rays,
           c->volume, c->mesh_volume, hull_percent(c->volume, c->mesh_volume));
    if (c->has_draft)
        printf(", \"mass\": %.12g, \"draft\": %.12g, \"mesh_draft\": %.12g, \"draft_error_pct\": %.6g", c->mass,
               c->draft, c->mesh_draft, hull_percent(c->draft, c->mesh_draft));
    printf("}");
}

/* The mesh's axis-aligned bounding box, mesh coordinates (+y up). */
static void hull_bounds(const nv_mesh* m, nv_vec3* lo, nv_vec3* hi) {
    double l[3] = {0.0, 0.0, 0.0}, u[3] = {0.0, 0.0, 0.0};
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        for (int k = 0; k < 3; k++) {
            double c = m->positions[3 * (size_t)i + k];
            if (i == 0 || c < l[k]) l[k] = c;
            if (i == 0 || c > u[k]) u[k] = c;
        }
    }
    *lo = v3(l[0], l[1], l[2]);
    *hi = v3(u[0], u[1], u[2]);
}

static void hull_print_bounds_json(const nv_mesh* m, const nv_hull* h) {
    nv_vec3 lo, hi, cg = h->body.cg;
    hull_bounds(m, &lo, &hi);
    printf(", \"bounds\": {");
    hull_print_vec_json("min", lo, ", ");
    hull_print_vec_json("max", hi, ", ");
    hull_print_vec_json("size", v3(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z), ", ");
    hull_print_vec_json("cg", cg, ", ");
    hull_print_vec_json("body_min", v3(lo.x - cg.x, lo.y - cg.y, lo.z - cg.z), ", ");
    hull_print_vec_json("body_max", v3(hi.x - cg.x, hi.y - cg.y, hi.z - cg.z), "}");
}

static void hull_print_json(const nv_mesh* m, const nv_mesh_report* rep, const nv_hull* h, const nv_statics_result* eq,
                            const hull_columns_report* cols) {
    const nv_mass_properties* p = &h->mesh_props;
    printf("{\"vertices\": %u, \"triangles\": %u, \"components\": %u, \"welded_vertices\": %u, "
           "\"dropped_triangles\": %u, \"flipped\": %s, ",
           m->vertex_count, m->triangle_count, rep->components, rep->welded_vertices, rep->dropped_triangles,
           rep->flipped ? "true" : "false");
    printf("\"volume\": %.12g, ", p->volume);
    hull_print_vec_json("centroid", p->centroid, ", ");
    printf("\"surface_area\": %.12g, \"inertia\": [", p->surface_area);
    for (int i = 0; i < 3; i++)
        printf("[%.12g, %.12g, %.12g]%s", p->inertia.m[i][0], p->inertia.m[i][1], p->inertia.m[i][2], i < 2 ? ", " : "");
    printf("]");
    hull_print_bounds_json(m, h);
    if (eq) {
        printf(", \"mass\": %.12g, ", h->body.mass);
        hull_print_vec_json("cg", h->body.cg, ", ");
        printf("\"equilibrium\": {\"draft\": %.12g, \"heel_deg\": %.12g, \"trim_deg\": %.12g, \"displacement\": %.12g, ",
               eq->draft, eq->heel_deg, eq->trim_deg, eq->displacement);
        hull_print_vec_json("center_of_buoyancy", eq->center_of_buoyancy, ", ");
        printf("\"capsized\": %s, \"settled\": %s, \"settle_time\": %.6g}", eq->capsized ? "true" : "false",
               eq->settled ? "true" : "false", eq->settle_time);
    }
    if (cols->present) hull_print_columns_json(cols);
    printf("}\n");
}

static void hull_print_columns_text(const hull_columns_report* c, const char* exported) {
    if (c->imported) printf("columns (imported)\n");
    else printf("columns %u x %u (built, %u x %u rays each)\n", c->nx, c->nz, c->samples, c->samples);
    printf("  columns         %u (%u with volume)\n", c->count, c->with_volume);
    if (c->skipped_rays) printf("  skipped rays    %u (odd crossings: the mesh is not watertight there)\n", c->skipped_rays);
    printf("  volume          %.6g m^3 (mesh %.6g m^3, %+.3f %%)\n", c->volume, c->mesh_volume,
           hull_percent(c->volume, c->mesh_volume));
    if (c->has_draft)
        printf("  draft upright   %.6g m (mesh %.6g m, %+.3f %%) at %.6g kg\n", c->draft, c->mesh_draft,
               hull_percent(c->draft, c->mesh_draft), c->mass);
    else printf("  draft           (give --mass)\n");
    if (exported) printf("  written to      %s\n", exported);
}

static void hull_print_text(const char* source, const nv_mesh* m, const nv_mesh_report* rep, const nv_hull* h,
                            const nv_statics_result* eq, double rho) {
    const nv_mass_properties* p = &h->mesh_props;
    printf("hull %s\n", source);
    printf("  vertices        %u (welded %u)\n", m->vertex_count, rep->welded_vertices);
    printf("  triangles       %u (dropped %u degenerate)%s\n", m->triangle_count, rep->dropped_triangles,
           rep->flipped ? ", flipped inside-out input" : "");
    printf("  components      %u\n", rep->components);
    printf("  volume          %.6g m^3\n", p->volume);
    printf("  centroid        (%.6g, %.6g, %.6g) m\n", p->centroid.x, p->centroid.y, p->centroid.z);
    printf("  surface area    %.6g m^2\n", p->surface_area);
    nv_vec3 lo, hi, cg = h->body.cg;
    hull_bounds(m, &lo, &hi);
    printf("  bounds (mesh)   x [%.6g, %.6g]  y [%.6g, %.6g]  z [%.6g, %.6g] m (size %.6g x %.6g x %.6g)\n", lo.x,
           hi.x, lo.y, hi.y, lo.z, hi.z, hi.x - lo.x, hi.y - lo.y, hi.z - lo.z);
    printf("  bounds (CG)     x [%.6g, %.6g]  y [%.6g, %.6g]  z [%.6g, %.6g] m (body frame, about the CG\n"
           "                  (%.6g, %.6g, %.6g) m: --cg, else the volume centroid)\n",
           lo.x - cg.x, hi.x - cg.x, lo.y - cg.y, hi.y - cg.y, lo.z - cg.z, hi.z - cg.z, cg.x, cg.y, cg.z);
    printf("  inertia         [%.6g %.6g %.6g; %.6g %.6g %.6g; %.6g %.6g %.6g] m^5 (density 1, about centroid)\n",
           p->inertia.m[0][0], p->inertia.m[0][1], p->inertia.m[0][2], p->inertia.m[1][0], p->inertia.m[1][1],
           p->inertia.m[1][2], p->inertia.m[2][0], p->inertia.m[2][1], p->inertia.m[2][2]);
    if (!eq) return;
    printf("equilibrium on flat water (rho %g kg/m^3, mass %.6g kg, CG (%.6g, %.6g, %.6g) m)\n", rho, h->body.mass,
           h->body.cg.x, h->body.cg.y, h->body.cg.z);
    printf("  draft           %.6g m\n", eq->draft);
    /* (-180, 180]: a heel a hair above -180 would print as -180.0000 */
    printf("  heel            %.4f deg\n", eq->heel_deg < -179.99995 ? eq->heel_deg + 360.0 : eq->heel_deg);
    printf("  trim            %.4f deg\n", eq->trim_deg);
    printf("  capsized        %s\n", eq->capsized ? "yes (keel-up: heeled past 90 degrees)" : "no");
    printf("  displacement    %.6g m^3 (%.6g kg)\n", eq->displacement, eq->displacement * rho);
    printf("  buoyancy centre (%.6g, %.6g, %.6g) m\n", eq->center_of_buoyancy.x, eq->center_of_buoyancy.y,
           eq->center_of_buoyancy.z);
    printf("  %s after %.1f s simulated\n", eq->settled ? "settled" : "NOT settled", eq->settle_time);
}

int main(int argc, char** argv) {
    hull_args a;
    int rc = hull_parse_args(argc, argv, &a);
    if (rc) return rc;
    nv_error err;
    nv_mesh m;
    nv_mesh_report rep;
    memset(&rep, 0, sizeof rep);
    int builtin = nv_hullgen_from_spec(a.source, &m, &rep, &err);
    if (builtin < 0) {
        fprintf(stderr, "naval-hull: %s\n", err.message);
        return 2;
    }
    if (!builtin && nv_mesh_load_file(a.source, MESH_FORMAT_AUTO, &a.mesh, &m, &rep, &err)) {
        fprintf(stderr, "naval-hull: %s\n", err.message);
        return 2;
    }
    int with_mass = a.mass.mass > 0.0;
    if (!with_mass) a.mass.density = 1.0; /* mesh report only: any valid density */
    nv_hull h;
    if (nv_hull_create(&h, &m, &a.mass, &err)) {
        fprintf(stderr, "naval-hull: %s: %s\n", a.source, err.message);
        nv_mesh_free(&m);
        return 2;
    }
    nv_statics_result eq;
    if (with_mass) {
        nv_statics_options o = nv_statics_options_default();
        o.water_density = a.rho;
        if (nv_statics_find_equilibrium(&h, &o, &eq, &err)) {
            fprintf(stderr, "naval-hull: %s: %s\n", a.source, err.message);
            nv_hull_destroy(&h);
            nv_mesh_free(&m);
            return 2;
        }
    }
    hull_columns_report cols;
    memset(&cols, 0, sizeof cols);
    if ((a.columns_nx || a.import_columns) && hull_columns(&a, &m, &h, &cols, &err)) {
        fprintf(stderr, "naval-hull: %s: %s\n", a.source, err.message);
        nv_hull_destroy(&h);
        nv_mesh_free(&m);
        return 2;
    }
    if (a.json) {
        hull_print_json(&m, &rep, &h, with_mass ? &eq : NULL, &cols);
    } else {
        hull_print_text(a.source, &m, &rep, &h, with_mass ? &eq : NULL, a.rho);
        if (cols.present) hull_print_columns_text(&cols, a.export_columns);
    }
    nv_hull_destroy(&h);
    nv_mesh_free(&m);
    return 0;
}
