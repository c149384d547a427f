/* naval-hull: the mesh report of a hull and, given a mass, its equilibrium on
 * flat water found by running the project's own physics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hull.h"
#include "hullgen.h"
#include "mass.h"
#include "mesh.h"
#include "statics.h"

static const char usage[] =
    "usage: naval-hull FILE|builtin:NAME[:TRIANGLES] [options]\n"
    "\n"
    "Prints the mesh report of a hull (STL, OBJ or OFF; or a built-in: barge, ship, cube)\n"
    "and, when a mass is given, its equilibrium on flat water found by simulation.\n"
    "\n"
    "  --up y|z          the file's up axis (default y); coordinates are reported +y up\n"
    "  --flip            reverse an inside-out mesh instead of rejecting it\n"
    "  --mass KG         vessel mass; enables the equilibrium\n"
    "  --cg X,Y,Z        centre of gravity (default: the volume centroid), +y up\n"
    "  --gyration KX,KY,KZ  radii of gyration about the CG (default: uniform solid)\n"
    "  --rho KG/M3       water density (default 1025)\n"
    "  --json            one JSON object on stdout\n"
    "  --help            this text\n"
    "\n"
    "inertia is the mesh's, as a solid of density 1 kg/m^3 about its centroid.\n"
    "Exit status: 0 ok, 2 bad arguments or mesh.\n";

typedef struct hull_args {
    const char* source;
    mesh_options mesh;
    mass_spec mass;
    double rho;
    int json;
} hull_args;

static int hull_arg_error(const char* fmt, const char* a, const char* b) {
    fprintf(stderr, "naval-hull: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n(naval-hull --help for usage)\n");
    return 2;
}

static int hull_parse_args(int argc, char** argv, hull_args* a) {
    memset(a, 0, sizeof *a);
    a->mesh = mesh_options_default();
    a->mass = mass_spec_default();
    a->rho = 1025.0;
    for (int i = 1; i < argc; i++) {
        const char* arg = argv[i];
        const char* val = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = !strcmp(arg, "--up") || !strcmp(arg, "--mass") || !strcmp(arg, "--cg") ||
                          !strcmp(arg, "--gyration") || !strcmp(arg, "--rho");
        if (takes_value && !val) return hull_arg_error("%s needs a value%s", arg, "");
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(arg, "--json")) {
            a->json = 1;
        } else if (!strcmp(arg, "--flip")) {
            a->mesh.flip_inside_out = true;
        } else if (!strcmp(arg, "--up")) {
            if (strcmp(val, "y") && strcmp(val, "z")) return hull_arg_error("--up must be y or z (got '%s')%s", val, "");
            a->mesh.up = val[0];
            i++;
        } else if (!strcmp(arg, "--mass")) {
            if (cli_parse_double(val, &a->mass.mass) || !(a->mass.mass > 0.0))
                return hull_arg_error("--mass must be a positive number of kg (got '%s')%s", val, "");
            i++;
        } else if (!strcmp(arg, "--cg")) {
            if (cli_parse_triple(val, &a->mass.cg)) return hull_arg_error("--cg must be X,Y,Z in metres (got '%s')%s", val, "");
            a->mass.has_cg = true;
            i++;
        } else if (!strcmp(arg, "--gyration")) {
            vec3 k;
            if (cli_parse_triple(val, &k) || !(k.x > 0 && k.y > 0 && k.z > 0))
                return hull_arg_error("--gyration must be KX,KY,KZ, positive, in metres (got '%s')%s", val, "");
            a->mass.gyration = k;
            a->mass.has_gyration = true;
            i++;
        } else if (!strcmp(arg, "--rho")) {
            if (cli_parse_double(val, &a->rho) || !(a->rho > 0.0))
                return hull_arg_error("--rho must be a positive density in kg/m^3 (got '%s')%s", val, "");
            i++;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return hull_arg_error("unknown option '%s'%s", arg, "");
        } else if (a->source) {
            return hull_arg_error("one hull at a time (got '%s' and '%s')", a->source, arg);
        } else {
            a->source = arg;
        }
    }
    if (!a->source) return hull_arg_error("no hull given: a mesh file or builtin:NAME%s%s", "", "");
    if ((a->mass.has_cg || a->mass.has_gyration) && a->mass.mass == 0.0)
        return hull_arg_error("--cg and --gyration need --mass%s%s", "", "");
    return 0;
}

static void hull_print_vec_json(const char* key, vec3 v, const char* tail) {
    printf("\"%s\": [%.12g, %.12g, %.12g]%s", key, v.x, v.y, v.z, tail);
}

static void hull_print_json(const mesh* m, const mesh_report* rep, const hull* h, const statics_result* eq) {
    const mass_properties* p = &h->mesh_props;
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
    if (eq) {
        printf(", \"mass\": %.12g, ", h->body.mass);
        hull_print_vec_json("cg", h->body.cg, ", ");
        printf("\"equilibrium\": {\"draft\": %.12g, \"heel_deg\": %.12g, \"trim_deg\": %.12g, \"displacement\": %.12g, ",
               eq->draft, eq->heel_deg, eq->trim_deg, eq->displacement);
        hull_print_vec_json("center_of_buoyancy", eq->center_of_buoyancy, ", ");
        printf("\"settled\": %s, \"settle_time\": %.6g}", eq->settled ? "true" : "false", eq->settle_time);
    }
    printf("}\n");
}

static void hull_print_text(const char* source, const mesh* m, const mesh_report* rep, const hull* h,
                            const statics_result* eq, double rho) {
    const mass_properties* p = &h->mesh_props;
    printf("hull %s\n", source);
    printf("  vertices        %u (welded %u)\n", m->vertex_count, rep->welded_vertices);
    printf("  triangles       %u (dropped %u degenerate)%s\n", m->triangle_count, rep->dropped_triangles,
           rep->flipped ? ", flipped inside-out input" : "");
    printf("  components      %u\n", rep->components);
    printf("  volume          %.6g m^3\n", p->volume);
    printf("  centroid        (%.6g, %.6g, %.6g) m\n", p->centroid.x, p->centroid.y, p->centroid.z);
    printf("  surface area    %.6g m^2\n", p->surface_area);
    printf("  inertia         [%.6g %.6g %.6g; %.6g %.6g %.6g; %.6g %.6g %.6g] m^5 (density 1, about centroid)\n",
           p->inertia.m[0][0], p->inertia.m[0][1], p->inertia.m[0][2], p->inertia.m[1][0], p->inertia.m[1][1],
           p->inertia.m[1][2], p->inertia.m[2][0], p->inertia.m[2][1], p->inertia.m[2][2]);
    if (!eq) return;
    printf("equilibrium on flat water (rho %g kg/m^3, mass %.6g kg, CG (%.6g, %.6g, %.6g) m)\n", rho, h->body.mass,
           h->body.cg.x, h->body.cg.y, h->body.cg.z);
    printf("  draft           %.6g m\n", eq->draft);
    printf("  heel            %.4f deg\n", eq->heel_deg);
    printf("  trim            %.4f deg\n", eq->trim_deg);
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
    mesh m;
    mesh_report rep;
    memset(&rep, 0, sizeof rep);
    int builtin = hullgen_from_spec(a.source, &m, &rep, &err);
    if (builtin < 0) {
        fprintf(stderr, "naval-hull: %s\n", err.message);
        return 2;
    }
    if (!builtin && mesh_load_file(a.source, MESH_FORMAT_AUTO, &a.mesh, &m, &rep, &err)) {
        fprintf(stderr, "naval-hull: %s\n", err.message);
        return 2;
    }
    int with_mass = a.mass.mass > 0.0;
    if (!with_mass) a.mass.density = 1.0; /* mesh report only: any valid density */
    hull h;
    if (hull_create(&h, &m, &a.mass, &err)) {
        fprintf(stderr, "naval-hull: %s: %s\n", a.source, err.message);
        mesh_free(&m);
        return 2;
    }
    statics_result eq;
    if (with_mass) {
        statics_options o = statics_options_default();
        o.water_density = a.rho;
        if (statics_find_equilibrium(&h, &o, &eq, &err)) {
            fprintf(stderr, "naval-hull: %s: %s\n", a.source, err.message);
            hull_destroy(&h);
            mesh_free(&m);
            return 2;
        }
    }
    if (a.json) hull_print_json(&m, &rep, &h, with_mass ? &eq : NULL);
    else hull_print_text(a.source, &m, &rep, &h, with_mass ? &eq : NULL, a.rho);
    hull_destroy(&h);
    mesh_free(&m);
    return 0;
}
