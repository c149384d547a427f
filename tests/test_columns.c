// SPDX-License-Identifier: MIT
/* Zephyr columns against closed forms and against the mesh model: exact
 * volumes of boxes (also with every ray through edges and vertices), zero
 * volume over an open bay, total volume and equilibrium draft of the
 * built-in hulls, the text format's round trip and its rejections, and
 * the run-time force (buoyancy, damping, righting moment, NaN water). */
#include <math.h>
#include <unistd.h>

#include "body.h"
#include "naval/columns.h"
#include "naval/statics.h"
#include "test_alloc_count.h"
#include "test_util.h"
#include "vessel.h"

#define RHO 1025.0
#define G 9.81

static void build_columns(const nv_mesh* m, uint32_t nx, uint32_t nz, uint32_t k, double mass, nv_columns_set* out) {
    nv_columns_build_options o = nv_columns_build_options_default();
    o.nx = nx;
    o.nz = nz;
    o.samples = k;
    o.mass = mass;
    nv_error err;
    ASSERT_OK(nv_columns_build(m, &o, out, &err), err);
}

static void box_columns_have_exact_volumes(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("barge", 0, &m, &err), err); /* 10 x 4 x 2 m */
    nv_columns_set s;
    build_columns(&m, 20, 5, 16, 40000.0, &s);
    assert_int_equal(s.count, 100);
    assert_int_equal(s.skipped_rays, 0);
    for (uint32_t i = 0; i < 20; i++)
        for (uint32_t j = 0; j < 5; j++) {
            const nv_columns_column* c = &s.columns[i * 5 + j];
            ASSERT_NEAR_REL(c->volume, 0.5 * 0.8 * 2.0, 1e-12);
            ASSERT_NEAR_ABS(c->ymin, 0.0, 1e-12);
            ASSERT_NEAR_ABS(c->ymax, 2.0, 1e-12);
            ASSERT_NEAR_ABS(c->x, -5.0 + 0.5 * (i + 0.5), 1e-6);
            ASSERT_NEAR_ABS(c->z, -2.0 + 0.8 * (j + 0.5), 1e-6);
            ASSERT_NEAR_REL(c->density, 40000.0 / 80.0, 1e-12);
        }
    ASSERT_NEAR_REL(nv_columns_total_volume(&s), 80.0, 1e-12);
    double mass;
    nv_vec3 centre;
    nv_columns_mass(&s, &mass, &centre);
    ASSERT_NEAR_REL(mass, 40000.0, 1e-12);
    ASSERT_NEAR_ABS(centre.x, 0.0, 1e-6);
    ASSERT_NEAR_ABS(centre.y, 1.0, 1e-12);
    ASSERT_NEAR_ABS(centre.z, 0.0, 1e-6);
    nv_columns_free(&s);
    /* no mass given: density 1 */
    build_columns(&m, 3, 2, 4, 0.0, &s);
    for (uint32_t c = 0; c < s.count; c++) assert_true(s.columns[c].density == 1.0);
    nv_columns_free(&s);
    nv_mesh_free(&m);
}

/* A box cut 20 x 8 along x and z, its columns placed so that every ray
 * goes exactly through a vertex of the subdivided bottom and top (k = 1),
 * or along their edges (k = 2): each must still cross once at the bottom
 * and once at the top. */
static void rays_through_vertices_and_edges_count_once(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_box(&m, 10.0, 4.0, 2.0, 20, 2, 8, &err), err); /* vertices every 0.5 m */
    nv_columns_set s;
    build_columns(&m, 10, 4, 1, 0.0, &s); /* rays at x = -4.5 .. 4.5, z = -1.5 .. 1.5 */
    assert_int_equal(s.skipped_rays, 0);
    for (uint32_t c = 0; c < s.count; c++) ASSERT_NEAR_REL(s.columns[c].volume, 2.0, 1e-12);
    nv_columns_free(&s);
    build_columns(&m, 5, 2, 4, 0.0, &s); /* rays at the centres of the 0.5 m quads: on their diagonals */
    assert_int_equal(s.skipped_rays, 0);
    for (uint32_t c = 0; c < s.count; c++) ASSERT_NEAR_REL(s.columns[c].volume, 8.0, 1e-12);
    nv_columns_free(&s);
    build_columns(&m, 5, 1, 2, 0.0, &s); /* rays at x = -4, -3, ..., z = -1, 1: on vertex rows */
    assert_int_equal(s.skipped_rays, 0);
    for (uint32_t c = 0; c < s.count; c++) ASSERT_NEAR_REL(s.columns[c].volume, 16.0, 1e-12);
    nv_columns_free(&s);
    nv_mesh_free(&m);

    /* A regular octahedron |x| + |y| + |z| <= 1: the ray through the
     * middle hits the two apexes (a vertex shared by four triangles),
     * others graze the equator's edges (zero length), the rest cross two
     * faces. With 4 x 4 rays over the 2 x 2 footprint: four rays of length
     * 2 (1 - 0.5) = 1, eight of length 0, each standing for 0.25 m^2. */
    nv_mesh_init(&m);
    const float v[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int i = 0; i < 6; i++) ASSERT_OK(nv_mesh_add_vertex(&m, v[i][0], v[i][1], v[i][2], &err), err);
    for (int sx = 0; sx < 2; sx++)
        for (int sy = 0; sy < 2; sy++)
            for (int sz = 0; sz < 2; sz++) {
                uint32_t a = (uint32_t)sx, b = 2u + (uint32_t)sy, c = 4u + (uint32_t)sz;
                /* (+x, +y, +z) is outward counter-clockwise; each flipped sign mirrors it */
                if ((sx + sy + sz) & 1)
                    ASSERT_OK(nv_mesh_add_triangle(&m, a, c, b, &err), err);
                else
                    ASSERT_OK(nv_mesh_add_triangle(&m, a, b, c, &err), err);
            }
    ASSERT_OK(nv_mesh_finish(&m, NULL, "octahedron", NULL, &err), err);
    build_columns(&m, 1, 1, 1, 0.0, &s); /* one ray, through both apexes: length 2, area 4 */
    assert_int_equal(s.skipped_rays, 0);
    ASSERT_NEAR_REL(s.columns[0].volume, 8.0, 1e-12);
    nv_columns_free(&s);
    build_columns(&m, 1, 1, 4, 0.0, &s);
    assert_int_equal(s.skipped_rays, 0);
    ASSERT_NEAR_REL(s.columns[0].volume, 1.0, 1e-12);
    nv_columns_free(&s);
    build_columns(&m, 2, 2, 2, 0.0, &s); /* rays at +-0.25, +-0.75 again, by quarter */
    for (uint32_t c = 0; c < 4; c++) ASSERT_NEAR_REL(s.columns[c].volume, 0.25, 1e-12);
    nv_columns_free(&s);
    /* Finely sampled, the octahedron's 4/3 m^3 */
    build_columns(&m, 8, 8, 32, 0.0, &s);
    assert_int_equal(s.skipped_rays, 0);
    ASSERT_NEAR_REL(nv_columns_total_volume(&s), 4.0 / 3.0, 2e-4);
    nv_columns_free(&s);
    nv_mesh_free(&m);
}

/* Two unit cubes 2 m apart (x in [0, 1] and [3, 4]): the columns over the
 * gap between them hold nothing. */
static void open_bay_columns_are_empty(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_mesh_load_file(NAVAL_TEST_DATA "/two_cubes.obj", MESH_FORMAT_AUTO, NULL, &m, NULL, &err), err);
    nv_columns_set s;
    build_columns(&m, 20, 5, 16, 0.0, &s);
    assert_int_equal(s.skipped_rays, 0);
    ASSERT_NEAR_REL(nv_columns_total_volume(&s), 2.0, 1e-12);
    for (uint32_t i = 0; i < 20; i++)
        for (uint32_t j = 0; j < 5; j++) {
            const nv_columns_column* c = &s.columns[i * 5 + j];
            int in_gap = i >= 5 && i < 15; /* cells of 0.2 m: x in [1, 3] */
            if (in_gap) {
                assert_true(c->volume == 0.0);
                ASSERT_NEAR_ABS(c->x, 0.2 * (i + 0.5), 1e-6); /* the cell's centre */
            } else {
                ASSERT_NEAR_REL(c->volume, 0.2 * 0.2 * 1.0, 1e-12);
            }
        }
    nv_columns_free(&s);
    nv_mesh_free(&m);
}

typedef struct builtin_case {
    const char* name;
    double mass; /* kg */
} builtin_case;

/* The built-in hulls at their usual loads and at a light one: total
 * column volume within 2 % of the mesh's at 20 x 5 columns, and the
 * upright equilibrium draft (keel depth where buoyancy = weight on flat
 * water) within 3 % of the mesh model's. */
static void builtin_hulls_match_the_mesh_model(void** state) {
    (void)state;
    const builtin_case cases[] = {
        {"barge", 40000.0}, {"ship", 600000.0}, {"cube", 500.0},
        {"skiff", 1500.0},  {"patrol", 80000.0}, {"freighter", 9.0e6},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        nv_mesh m;
        nv_error err;
        ASSERT_OK(nv_hullgen_build(cases[c].name, 0, &m, &err), err);
        nv_hull h;
        nv_mass_spec spec = nv_mass_spec_default();
        spec.mass = cases[c].mass;
        ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
        nv_columns_set s;
        build_columns(&m, 20, 5, 16, cases[c].mass, &s);
        assert_int_equal(s.skipped_rays, 0);
        double vol = nv_columns_total_volume(&s), mesh_vol = h.mesh_props.volume;
        nv_columns_model model;
        ASSERT_OK(nv_columns_model_create(&model, &s, h.body.cg, &err), err);
        /* the usual load, and a light one (20 % of the full displacement) */
        double masses[2] = {cases[c].mass, 0.2 * RHO * mesh_vol};
        double drafts[2][2];
        for (int k = 0; k < 2; k++) {
            if (k == 1) {
                nv_hull_destroy(&h);
                spec.mass = masses[1];
                ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
            }
            double y_mesh, y_col;
            ASSERT_OK(nv_statics_balance_height_of(&h, RHO, G, quat_identity(), &y_mesh, &err), err);
            ASSERT_OK(nv_columns_balance_height(&model, masses[k], RHO, G, quat_identity(), &y_col, &err), err);
            /* keel depth; the CG does not move between the two hulls */
            drafts[k][0] = -(y_mesh + h.bounds_min[1]);
            drafts[k][1] = -(y_col + h.bounds_min[1]);
        }
        print_message("%-9s volume %.5g / %.5g m^3 (%+.3f %%)   draft %.4f / %.4f m (%+.3f %%)   light %.4f / %.4f m "
                      "(%+.3f %%)   %u wet columns\n",
                      cases[c].name, vol, mesh_vol, 100.0 * (vol / mesh_vol - 1.0), drafts[0][1], drafts[0][0],
                      100.0 * (drafts[0][1] / drafts[0][0] - 1.0), drafts[1][1], drafts[1][0],
                      100.0 * (drafts[1][1] / drafts[1][0] - 1.0), model.count);
        ASSERT_NEAR_REL(vol, mesh_vol, 0.02);
        ASSERT_NEAR_REL(drafts[0][1], drafts[0][0], 0.03);
        ASSERT_NEAR_REL(drafts[1][1], drafts[1][0], 0.03);
        nv_columns_model_destroy(&model);
        nv_columns_free(&s);
        nv_hull_destroy(&h);
        nv_mesh_free(&m);
    }
}

static void temp_path(char* buf, size_t size, const char* tag) {
    snprintf(buf, size, "/tmp/test_columns_%ld_%s.txt", (long)getpid(), tag);
}

static char* slurp(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    char* buf = malloc(1 << 20);
    assert_non_null(buf);
    *size = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

/* Export -> import gives back exactly the printed numbers, and exporting
 * those again gives the same bytes. */
static void export_import_round_trip(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("ship", 0, &m, &err), err);
    nv_columns_set s, back;
    build_columns(&m, 20, 5, 8, 600000.0, &s);
    char a[256], b[256];
    temp_path(a, sizeof a, "a");
    temp_path(b, sizeof b, "b");
    ASSERT_OK(nv_columns_export(&s, a, &err), err);
    ASSERT_OK(nv_columns_import(a, &back, &err), err);
    assert_int_equal(back.count, s.count);
    for (uint32_t i = 0; i < s.count; i++) {
        const double* want = &s.columns[i].x;
        const double* got = &back.columns[i].x;
        for (int f = 0; f < 6; f++) {
            char text[64];
            snprintf(text, sizeof text, "%.10g", want[f]);
            assert_true(got[f] == strtod(text, NULL));
            assert_true(fabs(got[f] - want[f]) <= 5e-10 * fabs(want[f]));
        }
    }
    ASSERT_OK(nv_columns_export(&back, b, &err), err);
    size_t na, nb;
    char* ta = slurp(a, &na);
    char* tb = slurp(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(ta, tb, na);
    /* the seed's layout: header, count, blank, column comment, data */
    const char* layout = "# NB_LINE_PER_DATA\n100\n\n# COORDINATE, VOLUME, DENSITY\n";
    assert_true(na > strlen(layout) && !strncmp(ta, layout, strlen(layout)));
    free(ta);
    free(tb);
    unlink(a);
    unlink(b);
    nv_columns_free(&back);
    nv_columns_free(&s);
    nv_mesh_free(&m);
}

static void expect_parse_error(const char* text, const char* want) {
    nv_columns_set s;
    nv_error err;
    memset(&err, 0, sizeof err);
    if (nv_columns_parse(text, strlen(text), "bad.txt", &s, &err) == 0)
        fail_msg("accepted:\n%s\n(expected an error with '%s')", text, want);
    if (!strstr(err.message, want)) fail_msg("said '%s', expected '%s'", err.message, want);
    assert_null(s.columns);
}

#define HEAD "# NB_LINE_PER_DATA\n1\n\n# COORDINATE, VOLUME, DENSITY\n"

static void malformed_files_are_rejected_with_file_and_line(void** state) {
    (void)state;
    expect_parse_error("", "bad.txt:1: no '# NB_LINE_PER_DATA' header");
    expect_parse_error("\nhello\n", "bad.txt:2: expected the header '# NB_LINE_PER_DATA', found 'hello'");
    expect_parse_error("# NB_LINE_PER_DATA\nabc\n", "bad.txt:2: NB_LINE_PER_DATA: expected a column count");
    expect_parse_error("# NB_LINE_PER_DATA\n2.5\n", "bad.txt:2: NB_LINE_PER_DATA: expected a column count");
    expect_parse_error("# NB_LINE_PER_DATA\n0\n", "bad.txt:2: NB_LINE_PER_DATA");
    expect_parse_error("# NB_LINE_PER_DATA\n", "bad.txt:1: end of file before the column count");
    expect_parse_error("# NB_LINE_PER_DATA\n2\n\n# C\n1,0,3,1,5,6\n",
                       "bad.txt:5: end of file after 1 columns, NB_LINE_PER_DATA says 2");
    expect_parse_error(HEAD "1,0,3,1,5,6\n1,0,3,1,5,6\n", "bad.txt:6: more columns than NB_LINE_PER_DATA says (1)");
    expect_parse_error(HEAD "1,0,3,1,x,6\n", "bad.txt:5: field Volume: expected a finite number, found 'x'");
    expect_parse_error(HEAD "1,0,3,1,5\n", "bad.txt:5: 5 fields, expected 6 (X,Ymin,Z,Ymax,Volume,Density); field Density is missing");
    expect_parse_error(HEAD "1,0,3,1,5,6,7\n", "bad.txt:5: more than 6 fields");
    expect_parse_error(HEAD "1,2,3,1,5,6\n", "bad.txt:5: field Ymax: 1 is below Ymin 2");
    expect_parse_error(HEAD "1,0,3,1,-5,6\n", "bad.txt:5: field Volume: -5 is negative");
    expect_parse_error(HEAD "1,0,3,1,5,0\n", "bad.txt:5: field Density: 0 must be positive");
    expect_parse_error(HEAD "1,0,3,1,5,nan\n", "bad.txt:5: field Density: expected a finite number, found 'nan'");
    expect_parse_error(HEAD "1,0,3,1e999,5,1\n", "bad.txt:5: field Ymax: expected a finite number, found '1e999'");
    expect_parse_error(HEAD "1,,3,1,5,6\n", "bad.txt:5: field Ymin: empty");
    expect_parse_error(HEAD "1,1,3,1,5,6\n", "bad.txt:5: field Ymax: equals Ymin while Volume is 5");
    expect_parse_error(HEAD "1 2,0,3,1,5,6\n", "bad.txt:5: field X: expected a finite number, found '1 2'");

    /* accepted: CRLF, blanks around fields, comments between lines, an empty column */
    const char* ok = "# NB_LINE_PER_DATA\r\n2\r\n\r\n# COORDINATE, VOLUME, DENSITY\r\n 1.5 , -0.25,3,1.75, 2 , 1025\r\n"
                     "# an empty column\r\n0,0,0,0,0,1\r\n";
    nv_columns_set s;
    nv_error err;
    ASSERT_OK(nv_columns_parse(ok, strlen(ok), "ok.txt", &s, &err), err);
    assert_int_equal(s.count, 2);
    assert_true(s.columns[0].x == 1.5 && s.columns[0].ymin == -0.25 && s.columns[0].z == 3.0 &&
                s.columns[0].ymax == 1.75 && s.columns[0].volume == 2.0 && s.columns[0].density == 1025.0);
    assert_true(s.columns[1].volume == 0.0);
    nv_columns_free(&s);

    /* a file: the message names its path and line */
    char path[256];
    temp_path(path, sizeof path, "bad");
    FILE* f = fopen(path, "w");
    assert_non_null(f);
    fputs(HEAD "1,0,3,1,5,oops\n", f);
    fclose(f);
    assert_int_equal(nv_columns_import(path, &s, &err), -1);
    char want[300];
    snprintf(want, sizeof want, "%s:5: field Density", path);
    if (!strstr(err.message, want)) fail_msg("said '%s', expected '%s'", err.message, want);
    unlink(path);
    assert_int_equal(nv_columns_import("/nonexistent/columns.txt", &s, &err), -1);
    assert_non_null(strstr(err.message, "/nonexistent/columns.txt"));
}

/* Scratch for nv_columns_force, 8-byte aligned. */
static void* scratch_for(const nv_columns_model* m, size_t* bytes) {
    *bytes = nv_columns_scratch_bytes(m);
    void* p = malloc(*bytes ? *bytes : 1);
    assert_non_null(p);
    return p;
}

static nv_columns_pose pose_at(double y, nv_quat q) {
    nv_columns_pose p;
    memset(&p, 0, sizeof p);
    p.position = v3(0, y, 0);
    p.rotation = quat_to_mat3(q);
    return p;
}

/* The barge's columns on flat water: the buoyancy of the submerged box
 * (rho g L B d), no torque upright, the analytic draft m / (rho L B), and
 * the damping's closed form. */
static void box_force_is_archimedes(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("barge", 0, &m, &err), err);
    nv_columns_set s;
    build_columns(&m, 20, 5, 4, 40000.0, &s);
    nv_columns_model model;
    ASSERT_OK(nv_columns_model_create(&model, &s, v3(0, 1, 0), &err), err); /* CG at the centroid */
    assert_int_equal(model.count, 100);
    ASSERT_NEAR_ABS(model.keel, -1.0, 1e-6);
    size_t bytes;
    void* scratch = scratch_for(&model, &bytes);
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    const double ys[] = {-1.5, -0.3, 0.0, 0.25, 0.9, 1.5};
    for (size_t i = 0; i < sizeof ys / sizeof ys[0]; i++) {
        nv_columns_pose p = pose_at(ys[i], quat_identity());
        nv_columns_result r;
        assert_int_equal(nv_columns_force(&model, &p, &flat.base, RHO, G, scratch, bytes, &r), 0);
        double d = fmin(2.0, fmax(0.0, 1.0 - ys[i]));
        ASSERT_NEAR_ABS(r.force.y, RHO * G * 40.0 * d, 1e-6 * RHO * G * 80.0);
        ASSERT_NEAR_ABS(r.submerged_volume, 40.0 * d, 1e-6 * 80.0);
        ASSERT_NEAR_ABS(v3_length(r.torque), 0.0, 1e-6 * RHO * G * 80.0);
        assert_true(r.force.x == 0.0 && r.force.z == 0.0);
        assert_int_equal(r.wet_columns, d > 0.0 ? 100 : 0);
    }
    double y;
    ASSERT_OK(nv_columns_balance_height(&model, 40000.0, RHO, G, quat_identity(), &y, &err), err);
    ASSERT_NEAR_REL(1.0 - y, 40000.0 / (RHO * 40.0), 1e-7); /* volumes are stored as float */

    /* damping against a uniform velocity relative to the water */
    nv_columns_pose p = pose_at(0.0, quat_identity());
    p.velocity = v3(2.0, -0.5, 1.0);
    p.water_velocity = v3(0.0, 0.25, 0.0);
    nv_columns_result r;
    assert_int_equal(nv_columns_force(&model, &p, &flat.base, RHO, G, scratch, bytes, &r), 0);
    double mw = RHO * 40.0; /* displaced water at a 1 m draft */
    ASSERT_NEAR_REL(r.force.x, -COLUMNS_DAMPING_HORIZONTAL * mw * 2.0, 1e-6);
    ASSERT_NEAR_REL(r.force.y, RHO * G * 40.0 - COLUMNS_DAMPING_VERTICAL * mw * (-0.75), 1e-6);
    ASSERT_NEAR_REL(r.force.z, -COLUMNS_DAMPING_HORIZONTAL * mw * 1.0, 1e-6);
    /* a roll rate damps itself: the torque opposes it */
    p = pose_at(0.0, quat_identity());
    p.angular_velocity = v3(0.3, 0, 0);
    assert_int_equal(nv_columns_force(&model, &p, &flat.base, RHO, G, scratch, bytes, &r), 0);
    assert_true(r.torque.x < 0.0);

    /* a scratch too small is refused, not overrun */
    assert_int_equal(nv_columns_force(&model, &p, &flat.base, RHO, G, scratch, bytes - 1, &r), -1);
    free(scratch);
    nv_columns_model_destroy(&model);
    nv_columns_free(&s);
    nv_mesh_free(&m);
}

/* The barge's columns heeled: the moment of the column law in closed form
 * (columns kept vertical, each column's buoyancy rho g V f at its
 * submerged part's centre), and close to the mesh model's: the column
 * centres give the waterplane's second moment by the midpoint rule, 1 -
 * 1/m^2 of the box's across the beam (4 % at m = 5 columns). */
static void box_righting_moment_in_closed_form(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("barge", 0, &m, &err), err);
    nv_hull h;
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 40000.0;
    ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err); /* CG at the centroid, (0, 1, 0) */
    nv_columns_set s;
    build_columns(&m, 20, 5, 4, 40000.0, &s);
    nv_columns_model model;
    ASSERT_OK(nv_columns_model_create(&model, &s, h.body.cg, &err), err);
    size_t bytes;
    void* scratch = scratch_for(&model, &bytes);
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    double y = 1.0 - 40000.0 / (RHO * 40.0); /* upright balance: draft 0.9756 m */
    vessel v;
    ASSERT_OK(vessel_init(&v, &h, &err), err);
    vessel_env env = vessel_env_default();
    const double degs[] = {1.0, 3.0, 8.0};
    for (int k = 0; k < 3; k++) {
        double t = degs[k] * NV_PI / 180.0;
        nv_quat q = quat_from_axis_angle(v3(1, 0, 0), t); /* starboard down */
        nv_columns_pose p = pose_at(y, q);
        nv_columns_result r;
        assert_int_equal(nv_columns_force(&model, &p, &flat.base, RHO, G, scratch, bytes, &r), 0);
        /* 20 columns of 0.8 m^3 and 2 m at each oz; centre c = (., -oz sin t, oz cos t);
         * f = (1 - y + oz sin t) / 2; lever a_z = oz cos t + (f - 1) sin t */
        double want = 0.0;
        for (int j = 0; j < 5; j++) {
            double oz = -1.6 + 0.8 * j;
            double f = (1.0 - y + oz * sin(t)) / 2.0;
            want -= 20.0 * RHO * G * 0.8 * f * (oz * cos(t) + (f - 1.0) * sin(t));
        }
        vessel_place(&v, v3(0, y, 0), q);
        vessel_update_hydrostatics(&v, &flat.base, &env);
        print_message("barge heeled %.0f deg: righting moment columns %.6g (closed form %.6g), mesh %.6g N m (%+.2f %%)\n",
                      degs[k], r.torque.x, want, v.hydro.torque.x, 100.0 * (r.torque.x / v.hydro.torque.x - 1.0));
        /* float lanes: each column to ~1e-7, and the moments of the two
         * sides cancel to ~1/100 of their size */
        ASSERT_NEAR_REL(r.torque.x, want, 2e-5);
        assert_true(r.torque.x < 0.0);
        ASSERT_NEAR_REL(r.torque.x, v.hydro.torque.x, 0.08);
        /* upside down the box is the same box: the same force and moment */
        nv_columns_pose flipped = pose_at(y, quat_from_axis_angle(v3(1, 0, 0), t + NV_PI));
        nv_columns_result rf;
        assert_int_equal(nv_columns_force(&model, &flipped, &flat.base, RHO, G, scratch, bytes, &rf), 0);
        ASSERT_NEAR_REL(rf.torque.x, r.torque.x, 2e-5);
        ASSERT_NEAR_REL(rf.force.y, r.force.y, 1e-6);
    }
    vessel_free(&v);
    free(scratch);
    nv_columns_model_destroy(&model);
    nv_columns_free(&s);
    nv_hull_destroy(&h);
    nv_mesh_free(&m);
}

/* A body stepped on the column model alone (plus gravity) settles, and
 * where it settles is where the mesh model settles (nv_statics_find_equilibrium):
 * the same draft within 3 %, the same trim within a fraction of a degree,
 * upright. No jump in pose when a vessel changes model at rest. */
static void column_model_settles_at_the_mesh_attitude(void** state) {
    (void)state;
    const builtin_case cases[] = {{"patrol", 80000.0}, {"ship", 600000.0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        nv_mesh m;
        nv_error err;
        ASSERT_OK(nv_hullgen_build(cases[c].name, 0, &m, &err), err);
        nv_hull h;
        nv_mass_spec spec = nv_mass_spec_default();
        spec.mass = cases[c].mass;
        ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
        nv_statics_options o = nv_statics_options_default();
        nv_statics_result eq;
        ASSERT_OK(nv_statics_find_equilibrium(&h, &o, &eq, &err), err);
        nv_columns_set s;
        build_columns(&m, 20, 5, 16, cases[c].mass, &s);
        nv_columns_model model;
        ASSERT_OK(nv_columns_model_create(&model, &s, h.body.cg, &err), err);
        size_t bytes;
        void* scratch = scratch_for(&model, &bytes);
        nv_water_flat flat;
        nv_water_flat_init(&flat, 0.0);
        body b;
        ASSERT_OK(body_init(&b, h.body.mass, &h.body.inertia, &err), err);
        double y0;
        nv_quat q0 = quat_from_axis_angle(o.initial_tilt_axis, o.initial_tilt_deg * NV_PI / 180.0);
        ASSERT_OK(nv_columns_balance_height(&model, h.body.mass, RHO, G, q0, &y0, &err), err);
        b.position = v3(0, y0, 0);
        b.orientation = q0;
        const double dt = 1.0 / 60.0;
        nv_columns_pose p;
        memset(&p, 0, sizeof p);
        for (int i = 0; i < 120 * 60; i++) {
            p.position = b.position;
            p.rotation = body_rotation(&b);
            p.velocity = b.velocity;
            p.angular_velocity = b.angular_velocity;
            nv_columns_result r;
            assert_int_equal(nv_columns_force(&model, &p, &flat.base, RHO, G, scratch, bytes, &r), 0);
            r.force.y -= b.mass * G;
            body_integrate(&b, r.force, r.torque, dt);
        }
        double heel, trim, tilt;
        nv_statics_attitude(b.orientation, &heel, &trim, &tilt);
        nv_mat3 rot = body_rotation(&b);
        double draft = 0.0; /* as statics reports it: depth of the lowest hull point */
        for (uint32_t i = 0; i < h.vertex_count; i++)
            draft = fmax(draft, -(b.position.y + m3_mul_v3(&rot, v3(h.vx[i], h.vy[i], h.vz[i])).y));
        print_message("%-7s settles: draft %.4f m (mesh %.4f, %+.2f %%), trim %.3f deg (mesh %.3f), heel %.4f deg, "
                      "speed %.2g m/s\n",
                      cases[c].name, draft, eq.draft, 100.0 * (draft / eq.draft - 1.0), trim, eq.trim_deg, heel,
                      v3_length(b.velocity));
        assert_true(v3_length(b.velocity) < 1e-3 && v3_length(b.angular_velocity) < 1e-4);
        ASSERT_NEAR_REL(draft, eq.draft, 0.03);
        ASSERT_NEAR_ABS(trim, eq.trim_deg, 0.25);
        ASSERT_NEAR_ABS(heel, 0.0, 0.01);
        free(scratch);
        nv_columns_model_destroy(&model);
        nv_columns_free(&s);
        nv_hull_destroy(&h);
        nv_mesh_free(&m);
    }
}

/* A surface that answers NaN everywhere: the force is NaN, never dry. */
static size_t nan_sample(const nv_water_surface* self, const nv_water_query* q) {
    (void)self;
    for (size_t i = 0; i < q->count; i++) q->height[i] = NAN;
    return 0;
}

/* The sine wave, answered through sample_near (offsets from an origin). */
typedef struct near_sine {
    nv_water_surface base;
    nv_water_sine sine;
} near_sine;

static size_t near_sine_sample_near(const nv_water_surface* self, double x0, double z0, size_t count, const float* dx,
                                    const float* dz, float* height) {
    const near_sine* w = (const near_sine*)self;
    double x[256], z[256];
    assert_true(count <= 256);
    for (size_t i = 0; i < count; i++) {
        x[i] = x0 + dx[i];
        z[i] = z0 + dz[i];
    }
    nv_water_query q = {.count = count, .x = x, .z = z, .height = height};
    return water_sample(&w->sine.base, &q);
}

static size_t near_sine_sample(const nv_water_surface* self, const nv_water_query* q) {
    return water_sample(&((const near_sine*)self)->sine.base, q);
}

/* The patrol boat's hull, 20 x 5 columns of it at 80 t, and their model. */
static void patrol_columns(nv_mesh* m, nv_columns_set* s, nv_columns_model* model) {
    nv_error err;
    ASSERT_OK(nv_hullgen_build("patrol", 0, m, &err), err);
    build_columns(m, 20, 5, 8, 80000.0, s);
    ASSERT_OK(nv_columns_model_create(model, s, v3(0, 1.2, 0), &err), err);
}

static void force_on_waves_and_bad_water(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_columns_set s;
    nv_columns_model model;
    size_t at_create = test_allocations();
    patrol_columns(&m, &s, &model);
    assert_true(test_allocations() > at_create); /* the counter sees the library's allocations */
    size_t bytes;
    void* scratch = scratch_for(&model, &bytes);
    near_sine w;
    assert_int_equal(nv_water_sine_init(&w.sine, 0.8, 30.0, 0.4, G), 0);
    nv_water_sine_set_time(&w.sine, 1.7);
    w.base.sample = near_sine_sample;
    w.base.sample_near = near_sine_sample_near;
    w.base.breaking = NULL;
    w.base.pressure_decay = w.sine.base.pressure_decay; /* the same surface by either path */
    w.base.mean_level = w.sine.base.mean_level;
    nv_columns_pose p = pose_at(0.3, quat_from_axis_angle(v3(0.3, 1, 0.2), 0.7));
    p.position.x = 123.0;
    p.position.z = -45.0;
    p.velocity = v3(3, 0.2, -1);
    p.angular_velocity = v3(0.05, 0.1, -0.02);
    nv_columns_result plain, near;
    size_t before = test_allocations();
    assert_int_equal(nv_columns_force(&model, &p, &w.sine.base, RHO, G, scratch, bytes, &plain), 0);
    assert_int_equal(nv_columns_force(&model, &p, &w.base, RHO, G, scratch, bytes, &near), 0);
    assert_int_equal(test_allocations(), before); /* nothing allocated per call */
    assert_true(plain.wet_columns > 0 && plain.wet_columns < model.count);
    ASSERT_NEAR_REL(near.force.y, plain.force.y, 1e-5);
    ASSERT_NEAR_ABS(v3_length(v3_sub(near.torque, plain.torque)), 0.0, 1e-5 * v3_length(plain.torque));

    nv_water_surface bad = {.sample = nan_sample, .sample_near = NULL};
    nv_columns_result r;
    assert_int_equal(nv_columns_force(&model, &p, &bad, RHO, G, scratch, bytes, &r), 0);
    assert_true(isnan(r.force.y) && isnan(r.torque.x));

    /* a model needs a column with volume */
    nv_columns_set empty = s;
    nv_columns_column zero = s.columns[0];
    zero.volume = 0.0;
    empty.columns = &zero;
    empty.count = 1;
    nv_columns_model none;
    assert_int_equal(nv_columns_model_create(&none, &empty, v3(0, 0, 0), &err), -1);
    assert_non_null(strstr(err.message, "no column has volume"));
    /* and the balance refuses a load that sinks it */
    double y;
    assert_int_equal(
        nv_columns_balance_height(&model, 2.0 * RHO * model.total_volume, RHO, G, quat_identity(), &y, &err), -1);
    assert_non_null(strstr(err.message, "sinks"));

    free(scratch);
    nv_columns_model_destroy(&model);
    nv_columns_free(&s);
    nv_mesh_free(&m);
}

/* A column's buoyancy is the pressure on its bottom, and a wave's share of
 * that falls with depth as the mesh's vertex pass takes it (the Smith
 * effect, naval/water.h): on a 30 m wave the level patrol boat's columns
 * give rho g sum A_i clamp(eta_i e^(k min(0, y_i)) - y_i, 0, h_i), y_i
 * each bottom and eta_i the wave over it, not the wave's whole height. */
static void columns_feel_the_wave_pressure_at_their_bottoms(void** state) {
    (void)state;
    nv_mesh m;
    nv_columns_set s;
    nv_columns_model model;
    patrol_columns(&m, &s, &model);
    size_t bytes;
    void* scratch = scratch_for(&model, &bytes);
    nv_water_sine w;
    assert_int_equal(nv_water_sine_init(&w, 0.8, 30.0, 0.0, G), 0);
    assert_true(w.base.pressure_decay > 0.0);
    nv_columns_pose p = pose_at(0.3, quat_identity());
    double with_smith = 0.0, without = 0.0;
    for (int phase = 0; phase < 4; phase++) {
        nv_water_sine_set_time(&w, 1.3 * phase);
        double want = 0.0, plain = 0.0;
        for (uint32_t i = 0; i < model.count; i++) {
            double x = model.ox[i], z = model.oz[i], h = model.height[i];
            double bottom = p.position.y + model.oy[i] - 0.5 * h, area = model.volume[i] / h;
            float eta;
            nv_water_query q = {.count = 1, .x = &x, .z = &z, .height = &eta};
            water_sample(&w.base, &q);
            double acting = eta * exp(w.wavenumber * fmin(0.0, bottom));
            want += area * fmin(fmax(acting - bottom, 0.0), h);
            plain += area * fmin(fmax(eta - bottom, 0.0), h);
        }
        nv_columns_result r;
        assert_int_equal(nv_columns_force(&model, &p, &w.base, RHO, G, scratch, bytes, &r), 0);
        ASSERT_NEAR_REL(r.force.y, RHO * G * want, 2e-3);
        with_smith += fabs(want - plain);
        without += plain;
    }
    assert_true(with_smith > 0.02 * without); /* the effect is there to see */
    free(scratch);
    nv_columns_model_destroy(&model);
    nv_columns_free(&s);
    nv_mesh_free(&m);
}

static void bad_build_options_are_named(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("cube", 0, &m, &err), err);
    nv_columns_build_options o = nv_columns_build_options_default();
    nv_columns_set s;
    o.nx = 0;
    assert_int_equal(nv_columns_build(&m, &o, &s, &err), -1);
    assert_non_null(strstr(err.message, "grid 0 x 5"));
    o = nv_columns_build_options_default();
    o.samples = 1000;
    assert_int_equal(nv_columns_build(&m, &o, &s, &err), -1);
    assert_non_null(strstr(err.message, "samples"));
    o = nv_columns_build_options_default();
    o.mass = -1.0;
    assert_int_equal(nv_columns_build(&m, &o, &s, &err), -1);
    assert_non_null(strstr(err.message, "mass"));
    nv_mesh_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(box_columns_have_exact_volumes),
        cmocka_unit_test(rays_through_vertices_and_edges_count_once),
        cmocka_unit_test(open_bay_columns_are_empty),
        cmocka_unit_test(builtin_hulls_match_the_mesh_model),
        cmocka_unit_test(export_import_round_trip),
        cmocka_unit_test(malformed_files_are_rejected_with_file_and_line),
        cmocka_unit_test(box_force_is_archimedes),
        cmocka_unit_test(box_righting_moment_in_closed_form),
        cmocka_unit_test(column_model_settles_at_the_mesh_attitude),
        cmocka_unit_test(force_on_waves_and_bad_water),
        cmocka_unit_test(columns_feel_the_wave_pressure_at_their_bottoms),
        cmocka_unit_test(bad_build_options_are_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
