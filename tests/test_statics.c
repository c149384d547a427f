// SPDX-License-Identifier: MIT
/* Floating bodies on flat water against naval-architecture closed forms
 * (docs/hydrostatics.md, with its sources): drafts, stability, heave and roll periods,
 * and an undamped integrator that never pumps energy in. */
#include <math.h>

#include "naval/statics.h"
#include "naval/world.h"
#include "test_util.h"
#include "vessel.h"

#define RHO 1025.0
#define G 9.81

static void box_barges_float_at_the_analytic_draft(void** state) {
    (void)state;
    const double densities[] = {250.0, 500.0, 750.0};
    for (int k = 0; k < 3; k++) {
        nv_hull h;
        test_hull_builtin(&h, "barge", 300, densities[k]);
        nv_statics_options o = nv_statics_options_default();
        nv_statics_result r;
        nv_error err;
        ASSERT_OK(nv_statics_find_equilibrium(&h, &o, &r, &err), err);
        assert_true(r.settled);
        double draft = h.body.mass / (RHO * 10.0 * 4.0);
        ASSERT_NEAR_REL(r.draft, draft, 0.005);
        assert_true(fabs(r.heel_deg) < 0.05);
        assert_true(fabs(r.trim_deg) < 0.05);
        ASSERT_NEAR_REL(r.displacement, h.body.mass / RHO, 1e-4);
        /* Centre of buoyancy of a box: mid-length, mid-beam, half the draft. */
        ASSERT_NEAR_ABS(r.center_of_buoyancy.x, 0.0, 1e-3);
        ASSERT_NEAR_ABS(r.center_of_buoyancy.y, draft / 2, 1e-3 * draft);
        ASSERT_NEAR_ABS(r.center_of_buoyancy.z, 0.0, 1e-3);
        nv_hull_destroy(&h);
    }
}

static void heeled_barge_rights_itself(void** state) {
    (void)state;
    nv_hull h;
    test_hull_builtin(&h, "barge", 300, 500.0);
    nv_statics_options o = nv_statics_options_default();
    o.initial_tilt_axis = v3(1, 0, 0.2);
    o.initial_tilt_deg = 8.0;
    nv_statics_result r;
    nv_error err;
    ASSERT_OK(nv_statics_find_equilibrium(&h, &o, &r, &err), err);
    assert_true(r.settled);
    assert_true(fabs(r.heel_deg) < 0.05 && fabs(r.trim_deg) < 0.05);
    nv_hull_destroy(&h);
}

/* The 1 m cube of 483 kg/m^3 in fresh water has GM ~ -0.086 m face-down: the
 * slightest heel grows until it floats on an edge. */
static void light_cube_tips_over(void** state) {
    (void)state;
    nv_hull h;
    test_hull_builtin(&h, "cube", 48, 483.0);
    nv_statics_options o = nv_statics_options_default();
    o.water_density = 1000.0;
    o.initial_tilt_axis = v3(1, 0, 0);
    o.initial_tilt_deg = 0.5;
    nv_statics_result r;
    nv_error err;
    ASSERT_OK(nv_statics_find_equilibrium(&h, &o, &r, &err), err);
    assert_true(r.settled);
    assert_true(r.tilt_deg > 20.0);
    ASSERT_NEAR_REL(r.displacement, 0.483, 1e-3);
    nv_hull_destroy(&h);
}

/* Times of upward zero crossings of a sampled signal, linearly interpolated. */
typedef struct crossings {
    double t[256];
    int n;
    double prev;
    double max_first;  /* |signal| max before the 2nd crossing */
    double max_last;   /* |signal| max in the last stretch */
} crossings;

static void crossings_add(crossings* c, double t, double dt, double x) {
    if (c->prev < 0.0 && x >= 0.0 && c->n < 256) c->t[c->n++] = t - dt * x / (x - c->prev);
    c->prev = x;
}

static double crossings_period(const crossings* c) { return (c->t[c->n - 1] - c->t[0]) / (c->n - 1); }

/* Settles the 10 x 4 x 2 m box of 500 kg/m^3, then releases it undamped with
 * a heave offset or a heel, and records the oscillation. */
static void run_free_oscillation(vessel* v, const nv_statics_result* eq, double heave, double heel_deg, int periods_max,
                                 double period_guess, crossings* c) {
    vessel_env env = vessel_env_default();
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    nv_quat q = quat_mul(quat_from_axis_angle(v3(1, 0, 0), heel_deg * NV_PI / 180.0), eq->orientation);
    vessel_place(v, v3_add(eq->position, v3(0, heave, 0)), q);
    const double dt = 1.0 / 240.0;
    int steps = (int)(periods_max * period_guess / dt);
    memset(c, 0, sizeof *c);
    c->prev = 1.0;
    double t = 0.0;
    for (int k = 0; k < steps; k++) {
        vessel_step(v, &flat.base, &env, dt);
        t += dt;
        double x;
        if (heel_deg != 0.0) {
            double heel;
            nv_statics_attitude(v->body.orientation, &heel, NULL, NULL);
            x = heel;
        } else {
            x = v->body.position.y - eq->position.y;
        }
        crossings_add(c, t, dt, x);
        if (c->n < 2) c->max_first = fmax(c->max_first, fabs(x));
        if (k >= steps - (int)(10 * period_guess / dt)) c->max_last = fmax(c->max_last, fabs(x));
    }
}

static void box_heave_and_roll_periods(void** state) {
    (void)state;
    nv_hull h;
    test_hull_builtin(&h, "barge", 300, 500.0);
    nv_statics_options o = nv_statics_options_default();
    nv_statics_result eq;
    nv_error err;
    ASSERT_OK(nv_statics_find_equilibrium(&h, &o, &eq, &err), err);
    vessel v;
    ASSERT_OK(vessel_init(&v, &h, &err), err);

    double t = 500.0 / RHO * 2.0; /* draft 0.9756 m */
    double heave_period = 2 * NV_PI * sqrt(t / G);
    crossings c;
    run_free_oscillation(&v, &eq, 0.05, 0.0, 100, heave_period, &c);
    assert_true(c.n >= 95);
    print_message("heave period %.4f s (closed form %.4f s); amplitude after 100 periods / first: %.5f\n",
                  crossings_period(&c), heave_period, c.max_last / c.max_first);
    ASSERT_NEAR_REL(crossings_period(&c), heave_period, 0.02);
    /* Damping off: the amplitude after 100 periods has not grown. */
    assert_true(c.max_last <= 1.01 * c.max_first);
    assert_true(c.max_last >= 0.9 * c.max_first); /* nor decayed: no numerical damping to speak of */

    double gm = t / 2 + 16.0 / (12.0 * t) - 1.0;
    double k = sqrt((16.0 + 4.0) / 12.0);
    double roll_period = 2 * NV_PI * k / sqrt(G * gm); /* 2.80 s */
    run_free_oscillation(&v, &eq, 0.0, 3.0, 100, roll_period, &c);
    assert_true(c.n >= 90);
    print_message("roll period %.4f s (closed form %.4f s); amplitude after 100 periods / first: %.5f\n",
                  crossings_period(&c), roll_period, c.max_last / c.max_first);
    ASSERT_NEAR_REL(crossings_period(&c), roll_period, 0.05);
    assert_true(c.max_last <= 1.01 * c.max_first);
    vessel_free(&v);
    nv_hull_destroy(&h);
}

static void ship_hull_settles_and_carries_its_weight(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("ship", 1200, &m, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 700e3;
    spec.has_cg = true;
    spec.cg = v3(-1.0, 2.0, 0.0);
    nv_hull h;
    ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
    nv_mesh_free(&m);
    nv_statics_options o = nv_statics_options_default();
    nv_statics_result r;
    ASSERT_OK(nv_statics_find_equilibrium(&h, &o, &r, &err), err);
    assert_true(r.settled);
    ASSERT_NEAR_REL(r.displacement * RHO, 700e3, 1e-4);
    assert_true(fabs(r.heel_deg) < 0.05);
    /* In equilibrium the centre of buoyancy is on the world vertical through
     * the CG (the ship trims to put it there). */
    nv_mat3 rot = quat_to_mat3(r.orientation);
    nv_vec3 arm = m3_mul_v3(&rot, v3_sub(r.center_of_buoyancy, spec.cg));
    ASSERT_NEAR_ABS(arm.x, 0.0, 1e-4);
    ASSERT_NEAR_ABS(arm.z, 0.0, 1e-4);
    assert_true(r.trim_deg < -0.5); /* the CG is 2.9 m forward of the centroid: bow down */
    assert_true(r.draft > 0.5 && r.draft < 5.0);
    nv_hull_destroy(&h);
}

/* Root of tan(a) (gm + bm tan^2(a) / 2) = arm: the wall-sided equilibrium
 * angle of a box whose CG is `arm` off the centreline, in degrees. */
static double wall_sided_angle_deg(double gm, double bm, double arm) {
    double t = arm / gm;
    for (int i = 0; i < 50; i++) t -= (t * (gm + 0.5 * bm * t * t) - arm) / (gm + 1.5 * bm * t * t);
    return atan(t) * 180.0 / NV_PI;
}

/* The 10 x 4 x 2 m barge of 40 t with its CG moved 1 m aft trims bow up, and
 * 0.3 m to starboard heels starboard down, by the wall-sided angles. */
static void off_centre_weight_trims_and_heels(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("barge", 600, &m, &err), err);
    double t = 40000.0 / (RHO * 40.0);
    double bm_l = 100.0 / (12.0 * t), bm_t = 16.0 / (12.0 * t);
    const struct {
        nv_vec3 cg;
        double gm, bm, arm;
        int trim;
    } cases[] = {{{-1.0, 1.0, 0.0}, t / 2 + bm_l - 1.0, bm_l, 1.0, 1},
                 {{0.0, 1.0, 0.3}, t / 2 + bm_t - 1.0, bm_t, 0.3, 0}};
    for (int k = 0; k < 2; k++) {
        nv_mass_spec spec = nv_mass_spec_default();
        spec.mass = 40000.0;
        spec.has_cg = true;
        spec.cg = cases[k].cg;
        nv_hull h;
        ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
        nv_statics_options o = nv_statics_options_default();
        nv_statics_result r;
        ASSERT_OK(nv_statics_find_equilibrium(&h, &o, &r, &err), err);
        assert_true(r.settled);
        double expected = wall_sided_angle_deg(cases[k].gm, cases[k].bm, cases[k].arm);
        if (cases[k].trim) {
            ASSERT_NEAR_REL(r.trim_deg, expected, 0.01); /* 7.0 degrees, bow up */
            assert_true(fabs(r.heel_deg) < 0.05);
        } else {
            ASSERT_NEAR_REL(r.heel_deg, expected, 0.01); /* 18 degrees, starboard down */
            assert_true(fabs(r.trim_deg) < 0.05);
        }
        nv_hull_destroy(&h);
    }
    nv_mesh_free(&m);
}

/* The 10 x 4 x 2 m barge of 40 t with its CG 1 m above the deck (KG 3 m):
 * T = 0.9756, KB = 0.488, BM_T = 1.367, BM_L = 8.54 m. Upright GM_T =
 * KB + BM_T - KG = -1.146 m: it rolls over. Keel-up the CG is 1 m under
 * the (now) keel, KG' = -1: GM_T' = 2.855, GM_L' = 10.03 m, stable; on its
 * beam ends (waterplane 10 x 2, T 1.951, KB 0.976, BM 0.171, KG 2) GM =
 * -0.854: not there either. It floats keel-up at the same draft, heel
 * 180, and is capsized. */
static void top_heavy_barge_floats_keel_up(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("barge", 300, &m, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 40000.0;
    spec.has_cg = true;
    spec.cg = v3(0.0, 3.0, 0.0);
    nv_hull h;
    ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
    nv_mesh_free(&m);
    double t = 40000.0 / (RHO * 40.0), kb = t / 2, bm_t = 16.0 / (12.0 * t), bm_l = 100.0 / (12.0 * t);
    assert_true(kb + bm_t - 3.0 < -1.0);                     /* upright: unstable */
    assert_true(kb + bm_t + 1.0 > 2.8 && kb + bm_l + 1.0 > 10.0); /* keel-up: stable */
    nv_statics_options o = nv_statics_options_default();
    nv_statics_result r;
    ASSERT_OK(nv_statics_find_equilibrium(&h, &o, &r, &err), err);
    assert_true(r.settled);
    assert_true(r.capsized);
    assert_true(r.heel_deg > -180.0 && r.heel_deg <= 180.0);
    assert_true(180.0 - fabs(r.heel_deg) < 0.5); /* 180 +- 0.5, either way round */
    assert_true(fabs(r.trim_deg) < 0.5);
    assert_true(r.tilt_deg > 179.5);
    ASSERT_NEAR_REL(r.draft, t, 0.005);
    ASSERT_NEAR_REL(r.displacement, 40000.0 / RHO, 1e-4);
    /* the centre of buoyancy is in the deck's half: 2 - T / 2 up the mesh */
    ASSERT_NEAR_ABS(r.center_of_buoyancy.y, 2.0 - t / 2, 1e-3 * t);
    assert_int_equal(nv_world_capsized(r.orientation), 1);
    printf("keel-up barge: heel %.6f deg, trim %.6f deg, draft %.5f m (closed form %.5f m)\n", r.heel_deg, r.trim_deg,
           r.draft, t);
    nv_hull_destroy(&h);
}

/* A 1 m cube of 1 kg or 0.1 kg floats flat on a film m / (rho A) deep
 * (0.976 and 0.0976 mm); at 0.01 kg (9.8 um) it is refused by its mass:
 * the least draft is 1e-4 of its 0.5 m extent from the CG, 0.05 mm, which
 * takes rho A 5e-5 = 0.0513 kg. */
static void light_cube_floats_on_a_film_or_is_refused(void** state) {
    (void)state;
    const double masses[] = {1.0, 0.1};
    for (int k = 0; k < 2; k++) {
        nv_mesh m;
        nv_error err;
        ASSERT_OK(nv_hullgen_build("cube", 48, &m, &err), err);
        nv_mass_spec spec = nv_mass_spec_default();
        spec.mass = masses[k];
        nv_hull h;
        ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
        nv_mesh_free(&m);
        nv_statics_options o = nv_statics_options_default();
        nv_statics_result r;
        ASSERT_OK(nv_statics_find_equilibrium(&h, &o, &r, &err), err);
        assert_true(r.settled);
        assert_false(r.capsized);
        ASSERT_NEAR_REL(r.draft, masses[k] / RHO, 1e-3);
        ASSERT_NEAR_REL(r.displacement, masses[k] / RHO, 1e-3);
        assert_true(fabs(r.heel_deg) < 0.05 && fabs(r.trim_deg) < 0.05);
        printf("cube of %g kg: draft %.6g mm (closed form %.6g mm)\n", masses[k], 1e3 * r.draft, 1e3 * masses[k] / RHO);
        nv_hull_destroy(&h);
    }
    const double refused[] = {0.01, 1e-6};
    for (int k = 0; k < 2; k++) {
        nv_mesh m;
        nv_error err;
        ASSERT_OK(nv_hullgen_build("cube", 48, &m, &err), err);
        nv_mass_spec spec = nv_mass_spec_default();
        spec.mass = refused[k];
        nv_hull h;
        ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
        nv_mesh_free(&m);
        nv_statics_options o = nv_statics_options_default();
        nv_statics_result r;
        assert_int_equal(nv_statics_find_equilibrium(&h, &o, &r, &err), -1);
        char want[64];
        snprintf(want, sizeof want, "mass %g kg is too light for this hull", refused[k]);
        if (!strstr(err.message, want) || !strstr(err.message, "at least 0.051"))
            fail_msg("%g kg: %s", refused[k], err.message);
        if (k == 0) printf("%s\n", err.message);
        nv_hull_destroy(&h);
    }
}

/* Heel over the whole circle: a rotation built as yaw (about y), trim
 * (about the new z) and heel (about the new x) reads back its heel in
 * (-180, 180] and its trim in [-90, 90]; capsized is |heel| > 90 with
 * |trim| < 60, the world's test too. */
static void attitude_over_the_whole_circle(void** state) {
    (void)state;
    const double d2r = NV_PI / 180.0;
    const double heels[] = {0.0, 10.0, -10.0, 89.0, 91.0, -91.0, 135.0, -150.0, 179.0, -179.0, 180.0};
    const double trims[] = {0.0, 5.0, -30.0, 59.0, 61.0, -75.0};
    for (size_t i = 0; i < sizeof heels / sizeof *heels; i++)
        for (size_t j = 0; j < sizeof trims / sizeof *trims; j++) {
            nv_quat q = quat_mul(quat_from_axis_angle(v3(0, 1, 0), 40.0 * d2r),
                              quat_mul(quat_from_axis_angle(v3(0, 0, 1), trims[j] * d2r),
                                       quat_from_axis_angle(v3(1, 0, 0), heels[i] * d2r)));
            double heel, trim, tilt;
            nv_statics_attitude(q, &heel, &trim, &tilt);
            if (fabs(heel - heels[i]) > 1e-9 || fabs(trim - trims[j]) > 1e-9)
                fail_msg("heel %g trim %g read as %g %g", heels[i], trims[j], heel, trim);
            ASSERT_NEAR_ABS(cos(tilt * d2r), cos(heels[i] * d2r) * cos(trims[j] * d2r), 1e-12);
            int capsized = fabs(heels[i]) > 90.0 && fabs(trims[j]) < 60.0;
            assert_int_equal(nv_statics_capsized(q), capsized);
            assert_int_equal(nv_world_capsized(q), capsized);
        }
    /* exactly keel-up, either way round: 180, never -180 */
    double heel;
    nv_statics_attitude(quat_from_axis_angle(v3(1, 0, 0), -NV_PI), &heel, NULL, NULL);
    assert_true(heel == 180.0);
    /* small angles keep their signs: starboard (+z) down is + heel, bow up + trim */
    nv_quat q = quat_from_axis_angle(v3(1, 0, 0), 2.0 * d2r);
    assert_true(quat_rotate(q, v3(0, 0, 1)).y < 0.0);
    nv_statics_attitude(q, &heel, NULL, NULL);
    ASSERT_NEAR_ABS(heel, 2.0, 1e-12);
    /* standing on its bow: not capsized, heel undefined and 0 */
    q = quat_from_axis_angle(v3(0, 0, 1), -90.0 * d2r);
    double trim;
    nv_statics_attitude(q, &heel, &trim, NULL);
    ASSERT_NEAR_ABS(trim, -90.0, 1e-6);
    assert_false(nv_statics_capsized(q));
}

static void too_heavy_hull_is_reported(void** state) {
    (void)state;
    nv_hull h;
    test_hull_builtin(&h, "barge", 300, 1100.0);
    nv_statics_options o = nv_statics_options_default();
    nv_statics_result r;
    nv_error err;
    assert_int_equal(nv_statics_find_equilibrium(&h, &o, &r, &err), -1);
    assert_non_null(strstr(err.message, "sinks"));
    nv_hull_destroy(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(box_barges_float_at_the_analytic_draft),
        cmocka_unit_test(heeled_barge_rights_itself),
        cmocka_unit_test(light_cube_tips_over),
        cmocka_unit_test(box_heave_and_roll_periods),
        cmocka_unit_test(ship_hull_settles_and_carries_its_weight),
        cmocka_unit_test(off_centre_weight_trims_and_heels),
        cmocka_unit_test(too_heavy_hull_is_reported),
        cmocka_unit_test(top_heavy_barge_floats_keel_up),
        cmocka_unit_test(light_cube_floats_on_a_film_or_is_refused),
        cmocka_unit_test(attitude_over_the_whole_circle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
