// SPDX-License-Identifier: MIT
/* Mass properties: signed tetrahedra against closed-form solids, the book's
 * sample bodies, and the explicit mass / CG / gyration options. */
#include <math.h>

#include "test_util.h"

/* Bourg's sample cube (seed 002): edge 2, z in [0, 2], faces as printed. */
static void test_make_bourg_cube(nv_mesh* m) {
    static const float v[8][3] = {{-1, -1, 0}, {-1, -1, 2}, {1, -1, 0}, {1, -1, 2},
                                  {-1, 1, 0},  {1, 1, 0},   {1, 1, 2},  {-1, 1, 2}};
    static const uint32_t f[12][3] = {{2, 3, 1}, {2, 1, 0}, {4, 5, 2}, {4, 2, 0}, {6, 3, 2}, {6, 2, 5},
                                      {6, 7, 1}, {6, 1, 3}, {6, 5, 4}, {6, 4, 7}, {1, 7, 4}, {1, 4, 0}};
    nv_error err;
    nv_mesh_init(m);
    for (int i = 0; i < 8; i++) ASSERT_OK(nv_mesh_add_vertex(m, v[i][0], v[i][1], v[i][2], &err), err);
    for (int i = 0; i < 12; i++) ASSERT_OK(nv_mesh_add_triangle(m, f[i][0], f[i][1], f[i][2], &err), err);
}

static void bourg_cube_volume_and_centroid(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mass_properties p;
    test_make_bourg_cube(&m);
    ASSERT_OK(nv_mass_compute(&m, &p, &err), err);
    ASSERT_NEAR_ABS(p.volume, 8.0, 1e-12);
    ASSERT_NEAR_ABS(p.centroid.x, 0.0, 1e-12);
    ASSERT_NEAR_ABS(p.centroid.y, 0.0, 1e-12);
    ASSERT_NEAR_ABS(p.centroid.z, 1.0, 1e-12);
    ASSERT_NEAR_ABS(p.surface_area, 24.0, 1e-12);
    /* Solid cube of edge a, density 1: I = V a^2 / 6 about each axis. */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) ASSERT_NEAR_ABS(p.inertia.m[i][j], i == j ? 8.0 * 4.0 / 6.0 : 0.0, 1e-12);
    nv_mesh_free(&m);
}

static void bourg_boat_matches_the_book(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_report rep;
    nv_mesh_options opts = nv_mesh_options_default(); /* keep the file's axes: the book's numbers are z-up */
    ASSERT_OK(nv_mesh_load_file(NAVAL_TEST_DATA "/bourg_boat.off", MESH_FORMAT_AUTO, &opts, &m, &rep, &err), err);
    nv_mass_properties p;
    ASSERT_OK(nv_mass_compute(&m, &p, &err), err);
    /* The book prints volume 28.67 and centroid (-1.43, 0.00, 1.08). */
    ASSERT_NEAR_ABS(p.volume, 28.67, 0.005);
    ASSERT_NEAR_ABS(p.centroid.x, -1.43, 0.005);
    ASSERT_NEAR_ABS(p.centroid.y, 0.0, 0.005);
    ASSERT_NEAR_ABS(p.centroid.z, 1.08, 0.005);
    nv_mesh_free(&m);
}

/* A subdivided box far from the origin: the inertia of a solid box,
 * V (b^2 + c^2) / 12 about each axis, and no products of inertia. */
static void box_inertia_far_from_origin(void** state) {
    (void)state;
    const double l = 10.0, b = 4.0, h = 2.0;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_box(&m, l, b, h, 7, 3, 5, &err), err);
    for (uint32_t i = 0; i < m.vertex_count; i++) {
        m.positions[3 * i + 0] += 5000.0f;
        m.positions[3 * i + 2] -= 3000.0f;
    }
    nv_mass_properties p;
    ASSERT_OK(nv_mass_compute(&m, &p, &err), err);
    double v = l * b * h;
    ASSERT_NEAR_REL(p.volume, v, 1e-9);
    ASSERT_NEAR_ABS(p.centroid.x, 5000.0, 1e-9);
    ASSERT_NEAR_ABS(p.centroid.y, 1.0, 1e-9);
    ASSERT_NEAR_ABS(p.centroid.z, -3000.0, 1e-9);
    ASSERT_NEAR_REL(p.surface_area, 2.0 * (l * b + l * h + b * h), 1e-9);
    ASSERT_NEAR_REL(p.inertia.m[0][0], v * (h * h + b * b) / 12.0, 1e-8);
    ASSERT_NEAR_REL(p.inertia.m[1][1], v * (l * l + b * b) / 12.0, 1e-8);
    ASSERT_NEAR_REL(p.inertia.m[2][2], v * (l * l + h * h) / 12.0, 1e-8);
    ASSERT_NEAR_ABS(p.inertia.m[0][1], 0.0, 1e-6);
    ASSERT_NEAR_ABS(p.inertia.m[0][2], 0.0, 1e-6);
    ASSERT_NEAR_ABS(p.inertia.m[1][2], 0.0, 1e-6);
    nv_mesh_free(&m);
}

static void explicit_mass_and_cg_shift_the_inertia(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mass_properties p;
    test_make_bourg_cube(&m);
    ASSERT_OK(nv_mass_compute(&m, &p, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 1000.0;
    spec.has_cg = true;
    spec.cg = v3(0.0, 0.0, 0.5); /* 0.5 below the centroid along z */
    nv_mass_body mb;
    ASSERT_OK(nv_mass_resolve(&p, &spec, &mb, &err), err);
    double i0 = 1000.0 * 4.0 / 6.0; /* uniform cube of the same mass about its centroid */
    assert_true(mb.mass == 1000.0);
    ASSERT_NEAR_REL(mb.inertia.m[0][0], i0 + 1000.0 * 0.25, 1e-12);
    ASSERT_NEAR_REL(mb.inertia.m[1][1], i0 + 1000.0 * 0.25, 1e-12);
    ASSERT_NEAR_REL(mb.inertia.m[2][2], i0, 1e-12);
    ASSERT_NEAR_ABS(mb.cg.z, 0.5, 0.0);

    spec.has_gyration = true;
    spec.gyration = v3(0.5, 1.0, 2.0);
    ASSERT_OK(nv_mass_resolve(&p, &spec, &mb, &err), err);
    ASSERT_NEAR_REL(mb.inertia.m[0][0], 1000.0 * 0.25, 1e-15);
    ASSERT_NEAR_REL(mb.inertia.m[1][1], 1000.0 * 1.0, 1e-15);
    ASSERT_NEAR_REL(mb.inertia.m[2][2], 1000.0 * 4.0, 1e-15);

    spec = nv_mass_spec_default();
    spec.density = 250.0;
    ASSERT_OK(nv_mass_resolve(&p, &spec, &mb, &err), err);
    ASSERT_NEAR_REL(mb.mass, 2000.0, 1e-15);
    nv_mesh_free(&m);
}

static void bad_mass_specs_are_rejected(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mass_properties p;
    nv_mass_body mb;
    test_make_bourg_cube(&m);
    ASSERT_OK(nv_mass_compute(&m, &p, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = -5.0;
    assert_int_equal(nv_mass_resolve(&p, &spec, &mb, &err), -1);
    assert_non_null(strstr(err.message, "mass must be positive"));
    spec = nv_mass_spec_default();
    spec.density = 0.0;
    assert_int_equal(nv_mass_resolve(&p, &spec, &mb, &err), -1);
    assert_non_null(strstr(err.message, "density"));
    spec = nv_mass_spec_default();
    spec.has_gyration = true;
    spec.gyration = v3(1.0, 0.0, 1.0);
    assert_int_equal(nv_mass_resolve(&p, &spec, &mb, &err), -1);
    assert_non_null(strstr(err.message, "gyration"));
    spec = nv_mass_spec_default();
    spec.has_cg = true;
    spec.cg = v3(NAN, 0, 0);
    assert_int_equal(nv_mass_resolve(&p, &spec, &mb, &err), -1);
    assert_non_null(strstr(err.message, "centre of gravity"));
    nv_mesh_flip(&m);
    assert_int_equal(nv_mass_compute(&m, &p, &err), -1);
    assert_non_null(strstr(err.message, "no positive volume"));
    nv_mesh_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bourg_cube_volume_and_centroid),
        cmocka_unit_test(bourg_boat_matches_the_book),
        cmocka_unit_test(box_inertia_far_from_origin),
        cmocka_unit_test(explicit_mass_and_cg_shift_the_inertia),
        cmocka_unit_test(bad_mass_specs_are_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
