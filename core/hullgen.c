// SPDX-License-Identifier: MIT
#include "naval/hullgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/vecmath.h"

#define HULLGEN_MAX_DIVISIONS 1024u

/* Moves a vertex of the unit box grid; must be a pure function of its input
 * so that coincident grid points land on bit-identical positions and weld. */
typedef void (*hullgen_shape_fn)(const void* ctx, double p[3]);

typedef struct hullgen_grid {
    double* axis[3]; /* grid coordinates along x, y, z */
    unsigned n[3];
} hullgen_grid;

static int hullgen_emit_face(nv_mesh* out, const hullgen_grid* g, int fixed_axis, int fixed_end, int u_axis, int v_axis,
                             hullgen_shape_fn shape, const void* ctx, nv_error* err) {
    uint32_t base = out->vertex_count;
    unsigned nu = g->n[u_axis], nv = g->n[v_axis];
    for (unsigned j = 0; j <= nv; j++)
        for (unsigned i = 0; i <= nu; i++) {
            double p[3];
            p[fixed_axis] = g->axis[fixed_axis][fixed_end ? g->n[fixed_axis] : 0];
            p[u_axis] = g->axis[u_axis][i];
            p[v_axis] = g->axis[v_axis][j];
            if (shape) shape(ctx, p);
            if (nv_mesh_add_vertex(out, (float)p[0], (float)p[1], (float)p[2], err)) return -1;
        }
    /* u x v points outward, so (00, 10, 11) and (00, 11, 01) wind outward. */
    for (unsigned j = 0; j < nv; j++)
        for (unsigned i = 0; i < nu; i++) {
            uint32_t p00 = base + j * (nu + 1) + i, p10 = p00 + 1, p01 = p00 + (nu + 1), p11 = p01 + 1;
            if (nv_mesh_add_triangle(out, p00, p10, p11, err) || nv_mesh_add_triangle(out, p00, p11, p01, err))
                return -1;
        }
    return 0;
}

static int hullgen_subdivided_box(nv_mesh* out, const double lo[3], const double hi[3], const unsigned n[3],
                                  hullgen_shape_fn shape, const void* ctx, const char* name, nv_mesh_report* report,
                                  nv_error* err) {
    for (int a = 0; a < 3; a++)
        if (n[a] < 1 || n[a] > HULLGEN_MAX_DIVISIONS)
            return nv_error_set(err, "%s: divisions must be 1..%u (got %u)", name, HULLGEN_MAX_DIVISIONS, n[a]);
    hullgen_grid g;
    memset(&g, 0, sizeof g);
    nv_mesh_init(out); /* the failure path frees it */
    int rc = -1;
    for (int a = 0; a < 3; a++) {
        g.n[a] = n[a];
        g.axis[a] = malloc(sizeof(double) * (n[a] + 1));
        if (!g.axis[a]) {
            nv_error_fail(err, NV_ENOMEM, "%s: out of memory", name);
            goto done;
        }
        for (unsigned i = 0; i <= n[a]; i++) g.axis[a][i] = lo[a] + (hi[a] - lo[a]) * ((double)i / n[a]);
        g.axis[a][n[a]] = hi[a];
    }
    uint32_t verts = 2u * ((n[0] + 1) * (n[1] + 1) + (n[1] + 1) * (n[2] + 1) + (n[0] + 1) * (n[2] + 1));
    uint32_t tris = 4u * (n[0] * n[1] + n[1] * n[2] + n[0] * n[2]);
    if (nv_mesh_reserve(out, verts, tris, err)) goto done;
    /* (fixed axis, end, u, v) with u x v outward: +x: y,z  -x: z,y  +y: z,x
     * -y: x,z  +z: x,y  -z: y,x */
    static const int faces[6][4] = {{0, 1, 1, 2}, {0, 0, 2, 1}, {1, 1, 2, 0}, {1, 0, 0, 2}, {2, 1, 0, 1}, {2, 0, 1, 0}};
    for (int f = 0; f < 6; f++)
        if (hullgen_emit_face(out, &g, faces[f][0], faces[f][1], faces[f][2], faces[f][3], shape, ctx, err)) goto done;
    nv_mesh_options opts = nv_mesh_options_default();
    nv_mesh_report scratch;
    if (nv_mesh_finish(out, &opts, name, report ? report : &scratch, err)) goto done;
    rc = 0;
done:
    for (int a = 0; a < 3; a++) free(g.axis[a]);
    if (rc) nv_mesh_free(out);
    return rc;
}

typedef struct hullgen_ship_shape {
    double length, beam, depth;
} hullgen_ship_shape;

/* Waterplane half-breadth factor along the hull, xi = 0 at the transom,
 * 1 at the stem: slightly narrower transom, parallel midbody, fine bow
 * closing to zero at the stem. */
static double hullgen_ship_breadth(double xi) {
    if (xi < 0.15) return 0.88 + 0.12 * sin(0.5 * NV_PI * xi / 0.15);
    if (xi <= 0.55) return 1.0;
    double u = (xi - 0.55) / 0.45;
    /* xi is 1 - 1e-16 at the stem after rounding; it must close exactly so
     * the two sides weld into one stem line. */
    return u >= 1.0 - 1e-9 ? 0.0 : 1.0 - pow(u, 1.8);
}

/* Height of the keel above the baseline: the forefoot rises toward the stem. */
static double hullgen_ship_keel(double xi) {
    if (xi <= 0.7) return 0.0;
    double u = (xi - 0.7) / 0.3;
    return 0.45 * u * u;
}

static void hullgen_ship_apply(const void* ctx, double p[3]) {
    const hullgen_ship_shape* s = ctx;
    double xi = p[0] / s->length + 0.5;
    double eta = p[1] / s->depth; /* 0 keel .. 1 deck on the box grid */
    double keel = hullgen_ship_keel(xi) * s->depth;
    double y = keel + eta * (s->depth - keel);
    /* Rounded bilge: the section narrows toward the keel to a flat bottom of
     * 35 % of the local beam. */
    double section = 0.35 + 0.65 * sqrt(1.0 - (1.0 - eta) * (1.0 - eta));
    double z = p[2] * hullgen_ship_breadth(xi) * section;
    p[1] = y;
    p[2] = z == 0.0 ? 0.0 : z; /* -0 and +0 must weld on the stem */
}

static int hullgen_ship_report(nv_mesh* out, double length, double beam, double depth, unsigned target_triangles,
                               nv_mesh_report* report, nv_error* err) {
    if (!(length > 0.0 && beam > 0.0 && depth > 0.0) || !isfinite(length + beam + depth))
        return nv_error_set(err, "ship: dimensions must be positive and finite (got %g x %g x %g m)", length, beam,
                            depth);
    if (target_triangles < 100) target_triangles = 100;
    if (target_triangles > 2000000) return nv_error_set(err, "ship: at most 2000000 triangles (asked %u)", target_triangles);
    /* Divisions in proportion 6 : 1 : 2 along x, y, z; triangles come to about
     * 4 (nx ny + ny nz + nx nz) = 4 k^2 (6 + 2 + 12) = 80 k^2. */
    double k = sqrt(target_triangles / 80.0);
    unsigned n[3] = {(unsigned)lround(6.0 * k), (unsigned)lround(k), (unsigned)lround(2.0 * k)};
    if (n[0] < 4) n[0] = 4;
    if (n[1] < 1) n[1] = 1;
    if (n[2] < 2) n[2] = 2;
    hullgen_ship_shape shape = {length, beam, depth};
    double lo[3] = {-0.5 * length, 0.0, -0.5 * beam}, hi[3] = {0.5 * length, depth, 0.5 * beam};
    return hullgen_subdivided_box(out, lo, hi, n, hullgen_ship_apply, &shape, "ship", report, err);
}

int nv_hullgen_ship(nv_mesh* out, double length, double beam, double depth, unsigned target_triangles, nv_error* err) {
    return hullgen_ship_report(out, length, beam, depth, target_triangles, NULL, err);
}

static int hullgen_box_report(nv_mesh* out, double length, double beam, double height, const unsigned n[3],
                              nv_mesh_report* report, nv_error* err) {
    if (!(length > 0.0 && beam > 0.0 && height > 0.0) || !isfinite(length + beam + height))
        return nv_error_set(err, "box: dimensions must be positive and finite (got %g x %g x %g m)", length, beam,
                            height);
    double lo[3] = {-0.5 * length, 0.0, -0.5 * beam}, hi[3] = {0.5 * length, height, 0.5 * beam};
    return hullgen_subdivided_box(out, lo, hi, n, NULL, NULL, "box", report, err);
}

int nv_hullgen_box(nv_mesh* out, double length, double beam, double height, unsigned nx, unsigned ny, unsigned nz,
                   nv_error* err) {
    unsigned n[3] = {nx, ny, nz};
    return hullgen_box_report(out, length, beam, height, n, NULL, err);
}

/* Divisions for a box of the given proportions, about target_triangles. */
static void hullgen_box_divisions(double l, double b, double h, unsigned target, unsigned n[3]) {
    double dims[3] = {l, h, b};
    double s = sqrt((l * h + h * b + l * b) / (target / 4.0)); /* cell edge for square-ish cells */
    for (int a = 0; a < 3; a++) {
        long d = lround(dims[a] / s);
        n[a] = d < 1 ? 1u : (d > (long)HULLGEN_MAX_DIVISIONS ? HULLGEN_MAX_DIVISIONS : (unsigned)d);
    }
}

/* The vessel hulls of the built-in vessel types (vessel_type.c): the ship
 * shape at each type's length, beam and depth. */
typedef struct hullgen_named_ship {
    const char* name;
    double length, beam, depth;
    unsigned triangles; /* default resolution */
} hullgen_named_ship;

static const hullgen_named_ship hullgen_ships[] = {
    {"ship", 50.0, 9.0, 5.0, 800},
    {"skiff", 5.0, 1.9, 0.8, 300},
    {"patrol", 24.0, 5.6, 2.6, 500},
    {"freighter", 120.0, 19.0, 12.0, 800},
};

/* A 12 m catamaran: two ship-shaped hulls 1.2 m in beam and 1.5 m deep,
 * their centres 4 m apart, and a deck 8 m x 2.6 m x 0.3 m between them
 * whose underside is 1.2 m above the keels (it touches neither hull): three
 * closed parts, each its own collision piece, with open water between the
 * hulls (docs/contacts.md). */
static int hullgen_catamaran_report(nv_mesh* out, unsigned target_triangles, nv_mesh_report* report, nv_error* err) {
    nv_mesh hull, deck;
    unsigned per_hull = target_triangles > 200 ? (target_triangles - 100) / 2 : 100, n[3];
    if (hullgen_ship_report(&hull, 12.0, 1.2, 1.5, per_hull, NULL, err)) return nv_error_prefix(err, "catamaran");
    double lo[3] = {-4.5, 1.2, -1.3}, hi[3] = {3.5, 1.5, 1.3};
    hullgen_box_divisions(8.0, 2.6, 0.3, 100, n);
    if (hullgen_subdivided_box(&deck, lo, hi, n, NULL, NULL, "catamaran deck", NULL, err)) {
        nv_mesh_free(&hull);
        return nv_error_prefix(err, "catamaran");
    }
    nv_mesh_init(out);
    int rc = nv_mesh_reserve(out, 2 * hull.vertex_count + deck.vertex_count, 2 * hull.triangle_count + deck.triangle_count, err);
    /* the hulls at z = -2 and +2, then the deck */
    const nv_mesh* part[3] = {&hull, &hull, &deck};
    const float shift[3] = {-2.0f, 2.0f, 0.0f};
    for (int k = 0; k < 3 && !rc; k++) {
        uint32_t base = out->vertex_count;
        for (uint32_t v = 0; v < part[k]->vertex_count && !rc; v++) {
            const float* q = &part[k]->positions[3 * v];
            rc = nv_mesh_add_vertex(out, q[0], q[1], q[2] + shift[k], err);
        }
        for (uint32_t t = 0; t < part[k]->triangle_count && !rc; t++) {
            const uint32_t* i = &part[k]->indices[3 * t];
            rc = nv_mesh_add_triangle(out, base + i[0], base + i[1], base + i[2], err);
        }
    }
    nv_mesh_free(&hull);
    nv_mesh_free(&deck);
    nv_mesh_options opts = nv_mesh_options_default();
    nv_mesh_report scratch;
    if (!rc) rc = nv_mesh_finish(out, &opts, "catamaran", report ? report : &scratch, err);
    if (rc) nv_mesh_free(out);
    return rc;
}

int nv_hullgen_build_report(const char* name, unsigned target_triangles, nv_mesh* out, nv_mesh_report* report,
                            nv_error* err) {
    unsigned n[3];
    if (strcmp(name, "barge") == 0) {
        hullgen_box_divisions(10.0, 4.0, 2.0, target_triangles ? target_triangles : 300, n);
        return hullgen_box_report(out, 10.0, 4.0, 2.0, n, report, err);
    }
    if (strcmp(name, "catamaran") == 0) return hullgen_catamaran_report(out, target_triangles ? target_triangles : 900, report, err);
    if (strcmp(name, "cube") == 0) {
        hullgen_box_divisions(1.0, 1.0, 1.0, target_triangles ? target_triangles : 12, n);
        return hullgen_box_report(out, 1.0, 1.0, 1.0, n, report, err);
    }
    for (size_t i = 0; i < sizeof hullgen_ships / sizeof hullgen_ships[0]; i++) {
        const hullgen_named_ship* s = &hullgen_ships[i];
        if (strcmp(name, s->name) == 0)
            return hullgen_ship_report(out, s->length, s->beam, s->depth, target_triangles ? target_triangles : s->triangles,
                                       report, err);
    }
    return nv_error_set(err, "unknown built-in hull '%s' (known: barge, ship, cube, skiff, patrol, freighter, catamaran)", name);
}

int nv_hullgen_build(const char* name, unsigned target_triangles, nv_mesh* out, nv_error* err) {
    return nv_hullgen_build_report(name, target_triangles, out, NULL, err);
}

int nv_hullgen_from_spec(const char* spec, nv_mesh* out, nv_mesh_report* report, nv_error* err) {
    static const char prefix[] = "builtin:";
    if (strncmp(spec, prefix, sizeof prefix - 1) != 0) return 0;
    char name[64];
    const char* rest = spec + sizeof prefix - 1;
    const char* colon = strchr(rest, ':');
    size_t len = colon ? (size_t)(colon - rest) : strlen(rest);
    if (len == 0 || len >= sizeof name) return nv_error_set(err, "'%s': expected builtin:NAME[:TRIANGLES]", spec);
    memcpy(name, rest, len);
    name[len] = '\0';
    unsigned tris = 0;
    if (colon) {
        char* end = NULL;
        unsigned long v = strtoul(colon + 1, &end, 10);
        if (end == colon + 1 || *end != '\0' || v < 12 || v > 2000000)
            return nv_error_set(err, "'%s': the triangle count after the name must be 12..2000000", spec);
        tris = (unsigned)v;
    }
    return nv_hullgen_build_report(name, tris, out, report, err) ? -1 : 1;
}
