// SPDX-License-Identifier: MIT
/* Righting levers with the trim free (core/stability.c) on a box barge,
 * against the closed forms of a wall-sided hull (docs/hydrostatics.md):
 *   GZ = sin(phi) (GM + BM tan^2(phi) / 2) while the deck edge and the
 *        bilge stay on their sides of the water;
 *   the area under it, GM (1 - cos phi) + BM / 2 (sec phi + cos phi - 2);
 *   the trim of a CG off the middle, tan(theta) = t from
 *        -x_G = t (GM_L + BM_L t^2 / 2)  (B moves -BM_L t along, BM_L t^2 / 2 up);
 *   the side's areas above and below the water, L (H - d) and L d. */
#include <math.h>

#include "naval/hullgen.h"
#include "naval/stability.h"
#include "naval/statics.h"
#include "test_util.h"

#define RHO 1025.0
#define G 9.81
#define DEG (NV_PI / 180.0)

/* 20 x 6 x 8 m, draft 3 m (bilge out of the water past 45 degrees, deck
 * edge under past 59): KB 1.5, BM 1.0, KG 2.0, GM 0.5; BM_L 11.11. */
static const double L = 20.0, B = 6.0, H = 8.0, D = 3.0, KG = 2.0;

static void box_hull(nv_hull* h, double cg_x) {
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_box(&m, L, B, H, 8, 4, 4, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = RHO * L * B * D;
    spec.has_cg = true;
    spec.cg = v3(cg_x, KG, 0.0);
    ASSERT_OK(nv_hull_create(h, &m, &spec, &err), err);
    nv_mesh_free(&m);
}

static double wall_sided_gz(double phi) {
    double gm = D / 2.0 + B * B / (12.0 * D) - KG, bm = B * B / (12.0 * D);
    return sin(phi) * (gm + bm * tan(phi) * tan(phi) / 2.0);
}

static double wall_sided_area(double phi) {
    double gm = D / 2.0 + B * B / (12.0 * D) - KG, bm = B * B / (12.0 * D);
    return gm * (1.0 - cos(phi)) + bm / 2.0 * (1.0 / cos(phi) + cos(phi) - 2.0);
}

static void test_gz_wall_sided(void** state) {
    (void)state;
    nv_hull h;
    box_hull(&h, 0.0);
    nv_error err;
    for (double heel = -44.0; heel <= 44.0; heel += 4.0) {
        nv_stability_point pt;
        ASSERT_OK(nv_stability_lever(&h, RHO, G, heel, &pt, &err), err);
        double want = wall_sided_gz(heel * DEG);
        if (fabs(pt.gz - want) > 2e-5 || fabs(pt.trim_deg) > 1e-3)
            fail_msg("heel %g: GZ %.7f m, wall-sided %.7f; trim %g deg", heel, pt.gz, want, pt.trim_deg);
        /* the attitude is the one asked for, in the angles the tools report */
        double got_heel, got_trim;
        nv_statics_attitude(pt.orientation, &got_heel, &got_trim, NULL);
        if (fabs(got_heel - heel) > 1e-9 || fabs(got_trim - pt.trim_deg) > 1e-9)
            fail_msg("heel %g: the orientation reads heel %.12g, trim %.12g (trim found %.12g)", heel, got_heel, got_trim,
                     pt.trim_deg);
        if (fabs(pt.displacement - L * B * D) > 1e-5 * L * B * D)
            fail_msg("heel %g: displacement %.6f, the weight's %.6f", heel, pt.displacement, L * B * D);
    }
    /* past the bilge's emergence the wall-sided form no longer holds: the
     * lever falls below it */
    nv_stability_point pt;
    ASSERT_OK(nv_stability_lever(&h, RHO, G, 55.0, &pt, &err), err);
    assert_true(pt.gz < wall_sided_gz(55.0 * DEG) - 0.05);
    nv_hull_destroy(&h);
}

static void test_area_closed_form(void** state) {
    (void)state;
    nv_hull h;
    box_hull(&h, 0.0);
    nv_error err;
    double gz[46];
    for (int i = 0; i <= 45; i++) {
        nv_stability_point pt;
        ASSERT_OK(nv_stability_lever(&h, RHO, G, (double)i, &pt, &err), err);
        gz[i] = pt.gz;
    }
    const double ends[][2] = {{0, 30}, {0, 40}, {30, 40}, {12.5, 33.25}};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        double a = ends[k][0], b = ends[k][1];
        double got = nv_stability_area(gz, 46, 0.0, 1.0, a, b);
        double want = wall_sided_area(b * DEG) - wall_sided_area(a * DEG);
        if (fabs(got - want) > 5e-6) fail_msg("area %g-%g deg: %.7f m rad, closed form %.7f", a, b, got, want);
        assert_true(fabs(nv_stability_area(gz, 46, 0.0, 1.0, b, a) + got) < 1e-15);
    }
    nv_hull_destroy(&h);
}

static void test_free_trim(void** state) {
    (void)state;
    const double xg = 1.0;
    nv_hull h;
    box_hull(&h, xg);
    nv_error err;
    double bml = L * L / (12.0 * D), gml = D / 2.0 + bml - KG, t = -xg / gml;
    for (int i = 0; i < 20; i++) t -= (t * (gml + bml * t * t / 2.0) + xg) / (gml + 1.5 * bml * t * t);
    nv_stability_point pt;
    ASSERT_OK(nv_stability_lever(&h, RHO, G, 0.0, &pt, &err), err);
    double want = atan(t) / DEG;
    if (fabs(pt.trim_deg - want) > 2e-3 || fabs(pt.gz) > 1e-5)
        fail_msg("CG 1 m forward: trim %.5f deg, wall-sided %.5f (bow down); GZ %.2e m", pt.trim_deg, want, pt.gz);
    /* heeled as well, the trim still holds the centre of buoyancy under the CG along the bow */
    ASSERT_OK(nv_stability_lever(&h, RHO, G, 20.0, &pt, &err), err);
    assert_true(pt.trim_deg < -4.0 && pt.gz > 0.0);
    double got_heel, got_trim;
    nv_statics_attitude(pt.orientation, &got_heel, &got_trim, NULL);
    assert_true(fabs(got_heel - 20.0) < 1e-9 && fabs(got_trim - pt.trim_deg) < 1e-9);
    nv_hull_destroy(&h);
}

static void test_lateral_areas(void** state) {
    (void)state;
    nv_hull h;
    box_hull(&h, 0.0);
    nv_error err;
    nv_stability_point pt;
    ASSERT_OK(nv_stability_lever(&h, RHO, G, 0.0, &pt, &err), err);
    nv_stability_lateral lat;
    nv_stability_lateral_areas(&h, &pt, &lat);
    if (fabs(lat.area_above - L * (H - D)) > 1e-3 || fabs(lat.centroid_above - (H - D) / 2.0) > 1e-4 ||
        fabs(lat.area_below - L * D) > 1e-3 || fabs(lat.centroid_below + D / 2.0) > 1e-4)
        fail_msg("above %.4f m^2 at %.5f m, below %.4f m^2 at %.5f m; the box: %g at %g, %g at %g", lat.area_above,
                 lat.centroid_above, lat.area_below, lat.centroid_below, L * (H - D), (H - D) / 2.0, L * D, -D / 2.0);
    nv_hull_destroy(&h);
}

static void test_sinks_named(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_box(&m, L, B, H, 2, 2, 2, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 1.1 * RHO * L * B * H;
    nv_hull h;
    ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
    nv_mesh_free(&m);
    nv_stability_point pt;
    assert_int_not_equal(nv_stability_lever(&h, RHO, G, 10.0, &pt, &err), 0);
    assert_non_null(strstr(err.message, "mass"));
    nv_hull_destroy(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gz_wall_sided), cmocka_unit_test(test_area_closed_form), cmocka_unit_test(test_free_trim),
        cmocka_unit_test(test_lateral_areas), cmocka_unit_test(test_sinks_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
