// SPDX-License-Identifier: MIT
/* Savitsky's planing equilibrium (naval/planing.h): the lift and centre of
 * pressure against a published worked computation, the equilibrium's own
 * balance, and its closed-form limits; and the pieces of the planing lift
 * the vessels of a planing type get (core/dynamics.c). */
#include <math.h>

#include "naval/planing.h"
#include "test_util.h"

#define DEG (3.14159265358979323846 / 180.0)

/* The worked example printed with OpenPlaning (Castro-Feliciano 2021,
 * SNAME FAST '21; README of github.com/elcf/python-openplaning), on the
 * particulars of Savitsky and Brown's (1976) example: V 13.07 m/s,
 * W 827369 N, b 7.315 m, beta 15 deg, LCG 10.668 m, rho 1025.87 kg/m^3,
 * g 9.8066 m/s^2. At its equilibrium (tau 2.880351 deg, lambda 3.19842;
 * its trim tab makes that trim, not ours) it prints the planing force
 * F_z = 780367.3 N, which is Savitsky's C_Lbeta (rho / 2) V^2 b^2, and its
 * moment about the CG 301094.5 N m, which is the normal force
 * F_z / cos(tau) at l_p, (l_p - LCG) F_z / cos(tau). */
static void published_lift_and_pressure_centre(void** state) {
    (void)state;
    const double rho = 1025.87, g = 9.8066, v = 13.07, b = 7.315, lcg = 10.668;
    const double tau = 2.880351, lambda = 3.19842, beta = 15.0;
    double cv = v / sqrt(g * b);
    ASSERT_NEAR_REL(cv, 1.543154, 1e-5); /* its "Fn (beam)" */
    double lift = nv_planing_lift_coefficient(tau, lambda, cv, beta) * 0.5 * rho * v * v * b * b;
    printf("published: lift %.1f N (printed 780367.3)\n", lift);
    ASSERT_NEAR_REL(lift, 780367.3, 1e-5);
    double lp = b * nv_planing_pressure_centre(lambda, cv);
    double moment = (lp - lcg) * lift / cos(tau * DEG);
    printf("published: l_p %.4f m, moment %.1f N m (printed 301094.5)\n", lp, moment);
    ASSERT_NEAR_REL(moment, 301094.5, 1e-5);
}

static nv_planing_hull example_hull(void) {
    nv_planing_hull h;
    nv_planing_hull_init(&h);
    h.beam = 7.315;
    h.deadrise_deg = 15.0;
    h.lcg = 10.668;
    h.vcg = 1.045;
    h.mass = 827369.0 / 9.81;
    h.speed = 13.07;
    return h;
}

/* The short form: the solution carries the weight with its centre of
 * pressure under the CG. */
static void short_form_balances(void** state) {
    (void)state;
    nv_error err;
    nv_planing_hull h = example_hull();
    nv_planing_result r;
    ASSERT_OK(nv_planing_solve(&h, &r, &err), err);
    printf("short form (Savitsky-Brown particulars, no tab): tau %.3f deg, lambda %.3f, L_K %.2f m, L_C %.2f m, "
           "CG %.3f m above the water\n",
           r.tau_deg, r.lambda, r.keel_length, r.chine_length, r.cg_height);
    double q = 0.5 * h.water_density * h.speed * h.speed;
    ASSERT_NEAR_REL(nv_planing_lift_coefficient(r.tau_deg, r.lambda, r.cv, h.deadrise_deg) * q * h.beam * h.beam,
                    h.mass * h.gravity, 1e-9);
    ASSERT_NEAR_REL(r.pressure_x, h.lcg, 1e-6);
    assert_true(r.in_range);
    /* Without the trim tab's bow-down moment it trims higher than 2.88. */
    assert_true(r.tau_deg > 2.880351 && r.tau_deg < 6.0);
    /* (L_K + L_C) / 2 = lambda b; L_K - L_C = b tan(beta) / (pi tan(tau)) */
    ASSERT_NEAR_REL(0.5 * (r.keel_length + r.chine_length), r.lambda * h.beam, 1e-12);
    ASSERT_NEAR_REL(r.keel_length - r.chine_length, h.beam * tan(15.0 * DEG) / (3.14159265358979323846 * tan(r.tau_deg * DEG)), 1e-9);
    ASSERT_NEAR_REL(r.transom_draft, r.keel_length * sin(r.tau_deg * DEG), 1e-12);
}

/* Flat plate at a very high speed coefficient: l_p -> 0.75 lambda b and
 * C_L -> 0.012 lambda^0.5 tau^1.1, so lambda = LCG / (0.75 b) and tau in
 * closed form; deadrise 0 gives C_Lbeta = C_L0 and equal wetted lengths. */
static void high_speed_flat_plate_limit(void** state) {
    (void)state;
    nv_error err;
    nv_planing_hull h;
    nv_planing_hull_init(&h);
    h.beam = 1.0;
    h.lcg = 1.5;
    h.vcg = 0.2;
    h.speed = 300.0; /* Cv ~ 96 */
    h.mass = 0.5 * h.water_density * h.speed * h.speed * 0.02 / h.gravity; /* C_L 0.02 */
    nv_planing_result r;
    ASSERT_OK(nv_planing_solve(&h, &r, &err), err);
    double lambda = 1.5 / 0.75, tau = pow(0.02 / (0.012 * sqrt(lambda)), 1.0 / 1.1);
    printf("flat plate, Cv %.0f: tau %.4f (limit %.4f), lambda %.4f (limit %.4f)\n", r.cv, r.tau_deg, tau, r.lambda,
           lambda);
    ASSERT_NEAR_REL(r.lambda, lambda, 2e-3);
    ASSERT_NEAR_REL(r.tau_deg, tau, 2e-3);
    ASSERT_NEAR_REL(r.cl_beta, r.cl_0, 1e-12);
    ASSERT_NEAR_REL(r.keel_length, r.chine_length, 1e-12);
    /* h = VCG cos(tau) - (L_K - LCG) sin(tau) */
    ASSERT_NEAR_REL(r.cg_height, 0.2 * cos(r.tau_deg * DEG) - (r.keel_length - 1.5) * sin(r.tau_deg * DEG), 1e-12);
}

/* The long form's terms act the way Savitsky's moment equation says: a
 * thrust line below the CG trims the bow up, friction below the CG (with
 * the thrust through it) trims it down; the thrust carries the drag. */
static void thrust_line_and_friction(void** state) {
    (void)state;
    nv_error err;
    nv_planing_hull h = example_hull();
    nv_planing_result base, low, fric;
    ASSERT_OK(nv_planing_solve(&h, &base, &err), err);
    h.thrust_below = 0.5;
    ASSERT_OK(nv_planing_solve(&h, &low, &err), err);
    h.thrust_below = 0.0;
    h.friction = 1;
    ASSERT_OK(nv_planing_solve(&h, &fric, &err), err);
    printf("trim: short form %.3f, thrust 0.5 m below the CG %.3f, friction %.3f deg (D_f %.0f N, T %.0f N)\n",
           base.tau_deg, low.tau_deg, fric.tau_deg, fric.friction_drag, fric.thrust);
    assert_true(low.tau_deg > base.tau_deg);
    assert_true(fric.tau_deg < base.tau_deg);
    assert_true(fric.friction_drag > 0.0);
    ASSERT_NEAR_REL(fric.thrust, h.mass * h.gravity * sin(fric.tau_deg * DEG) + fric.friction_drag, 1e-12);
    /* C_F of ITTC-57 at a Reynolds number of ~1e8: D_f / (q lambda b^2) ~ 2e-3 */
    double q = 0.5 * h.water_density * h.speed * h.speed;
    double cf = fric.friction_drag / (q * fric.lambda * h.beam * h.beam);
    assert_true(cf > 1.5e-3 && cf < 2.5e-3);
}

static void refuses_bad_input_and_flags_the_range(void** state) {
    (void)state;
    nv_error err;
    nv_planing_hull h = example_hull();
    nv_planing_result r;
    h.speed = 0.0;
    assert_int_equal(nv_planing_solve(&h, &r, &err), -1);
    /* Far too slow: the buoyancy term (lambda^2.5 / Cv^2) carries it on a
     * wetted length beyond Savitsky's data, and the result says so. */
    h.speed = 2.0;
    assert_true(nv_planing_solve(&h, &r, &err) != 0 || !r.in_range);
    h = example_hull();
    h.deadrise_deg = NAN;
    assert_int_equal(nv_planing_solve(&h, &r, &err), -1);
}

/* The force model's pieces (naval/planing.h, "The planing lift as a
 * force"). Savitsky's C_L0 splits into the dynamic term at 0.75 lambda b
 * and the buoyant term at lambda b / 3: their weighted mean is his l_p
 * (his fit rounds 5.24 and 2.40 to 5.21 and 2.39). */
static void lift_splits_into_dynamic_and_buoyant_parts(void** state) {
    (void)state;
    double worst = 0.0;
    for (double cv = 1.0; cv <= 10.0; cv += 0.5)
        for (double lambda = 0.5; lambda <= 4.0; lambda += 0.25) {
            const double tau = 4.0;
            double dyn = nv_planing_dynamic_lift_coefficient(tau, lambda, 0.0);
            double buoyant = nv_planing_lift_coefficient(tau, lambda, cv, 0.0) - dyn;
            ASSERT_NEAR_REL(buoyant, 0.0055 * pow(lambda, 2.5) * pow(tau, 1.1) / (cv * cv), 1e-12);
            double mean = (0.75 * dyn + buoyant / 3.0) / (dyn + buoyant);
            worst = fmax(worst, fabs(mean * lambda / nv_planing_pressure_centre(lambda, cv) - 1.0));
        }
    printf("centre of pressure: the two parts' weighted mean against l_p, worst %.2f %%\n", 100.0 * worst);
    assert_true(worst < 0.01);
}

/* The dynamic coefficient, its deadrise correction and its slope. */
static void dynamic_lift_and_slope(void** state) {
    (void)state;
    const double lambda = 1.6, beta = 12.0;
    for (double tau = 1.0; tau <= 12.0; tau += 1.0) {
        double c = 0.0120 * sqrt(lambda) * pow(tau, 1.1);
        ASSERT_NEAR_REL(nv_planing_dynamic_lift_coefficient(tau, lambda, 0.0), c, 1e-12);
        ASSERT_NEAR_REL(nv_planing_dynamic_lift_coefficient(tau, lambda, beta), c - 0.0065 * beta * pow(c, 0.6),
                        1e-12);
        /* the slope per radian against a central difference */
        double h = 1e-4, up = nv_planing_dynamic_lift_coefficient(tau + h, lambda, beta);
        double down = nv_planing_dynamic_lift_coefficient(tau - h, lambda, beta);
        ASSERT_NEAR_REL(nv_planing_dynamic_lift_slope(tau, lambda, beta), (up - down) / (2.0 * h * DEG), 1e-6);
    }
    /* none for a bottom leaving the water, a dry bottom, or deadrise that
     * takes all of it */
    assert_true(nv_planing_dynamic_lift_coefficient(0.0, lambda, 0.0) == 0.0);
    assert_true(nv_planing_dynamic_lift_coefficient(-2.0, lambda, 0.0) == 0.0);
    assert_true(nv_planing_dynamic_lift_coefficient(3.0, 0.0, 0.0) == 0.0);
    assert_true(nv_planing_dynamic_lift_coefficient(0.5, 0.3, 30.0) == 0.0);
    assert_true(nv_planing_dynamic_lift_slope(0.5, 0.3, 30.0) == 0.0);
    assert_true(nv_planing_dynamic_lift_coefficient(NAN, lambda, 0.0) == 0.0);
}

/* lambda from the wetted keel: Savitsky's spray root for the chines, the
 * prismatic length as its bound, dry chines at half the keel's. */
static void mean_wetted_length(void** state) {
    (void)state;
    const double b = 1.5, length = 4.0;
    /* a flat bottom: the keel's wetted length, up to the prismatic part's */
    ASSERT_NEAR_REL(nv_planing_mean_wetted_length(b, 0.0, 3.0, 2.4, length), 2.4 / b, 1e-12);
    ASSERT_NEAR_REL(nv_planing_mean_wetted_length(b, 0.0, 3.0, 9.0, length), length / b, 1e-12);
    /* deadrise: the chines wetted b tan(beta) / (pi tan(tau)) shorter */
    double spread = b * tan(15.0 * DEG) / (3.14159265358979323846 * tan(4.0 * DEG));
    ASSERT_NEAR_REL(nv_planing_mean_wetted_length(b, 15.0, 4.0, 3.5, length), (3.5 - 0.5 * spread) / b, 1e-12);
    /* the same as the solver's lambda for its own wetted keel */
    nv_error err;
    nv_planing_hull h = example_hull();
    nv_planing_result r;
    ASSERT_OK(nv_planing_solve(&h, &r, &err), err);
    ASSERT_NEAR_REL(nv_planing_mean_wetted_length(h.beam, h.deadrise_deg, r.tau_deg, r.keel_length, 1e3), r.lambda,
                    1e-12);
    /* dry chines: half the keel; continuous where the chines dry */
    ASSERT_NEAR_REL(nv_planing_mean_wetted_length(b, 15.0, 4.0, 0.5 * spread, length), 0.25 * spread / b, 1e-12);
    ASSERT_NEAR_REL(nv_planing_mean_wetted_length(b, 15.0, 4.0, spread * (1.0 + 1e-9), length),
                    nv_planing_mean_wetted_length(b, 15.0, 4.0, spread * (1.0 - 1e-9), length), 1e-8);
    /* nothing wetted, nothing to measure */
    assert_true(nv_planing_mean_wetted_length(b, 0.0, 3.0, 0.0, length) == 0.0);
    assert_true(nv_planing_mean_wetted_length(b, 0.0, 0.0, 2.0, length) == 0.0);
    assert_true(nv_planing_mean_wetted_length(b, 0.0, 3.0, INFINITY, length) == 0.0);
}

/* The weight: 1 planing, 0 at displacement speeds, steep trim or heeled,
 * smooth (continuous, and flat at the ends of each fade) in between. */
static void weight_fades_smoothly(void** state) {
    (void)state;
    assert_true(nv_planing_weight(3.0, 3.0, 0.0) == 1.0);
    assert_true(nv_planing_weight(1.0, 3.0, 0.0) == 0.0);
    assert_true(nv_planing_weight(0.3, 3.0, 0.0) == 0.0);
    assert_true(nv_planing_weight(3.0, 20.0, 0.0) == 0.0);
    assert_true(nv_planing_weight(3.0, 3.0, 30.0) == 0.0);
    assert_true(nv_planing_weight(3.0, 3.0, -40.0) == 0.0);
    assert_true(nv_planing_weight(3.0, 3.0, -10.0) == 1.0);
    ASSERT_NEAR_REL(nv_planing_weight(1.5, 3.0, 0.0), 0.5, 1e-12);
    ASSERT_NEAR_REL(nv_planing_weight(3.0, 17.5, 0.0), 0.5, 1e-12);
    ASSERT_NEAR_REL(nv_planing_weight(3.0, 3.0, 20.0), 0.5, 1e-12);
    double last = 0.0, jump = 0.0;
    for (double cv = 0.5; cv <= 3.0; cv += 1e-3) {
        double w = nv_planing_weight(cv, 3.0, 0.0);
        jump = fmax(jump, fabs(w - last));
        last = w;
    }
    assert_true(jump < 2e-3);
    assert_true(nv_planing_weight(NAN, 3.0, 0.0) == 0.0);
    assert_true(nv_planing_weight(3.0, INFINITY, 0.0) == 0.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(published_lift_and_pressure_centre),
        cmocka_unit_test(short_form_balances),
        cmocka_unit_test(high_speed_flat_plate_limit),
        cmocka_unit_test(thrust_line_and_friction),
        cmocka_unit_test(refuses_bad_input_and_flags_the_range),
        cmocka_unit_test(lift_splits_into_dynamic_and_buoyant_parts),
        cmocka_unit_test(dynamic_lift_and_slope),
        cmocka_unit_test(mean_wetted_length),
        cmocka_unit_test(weight_fades_smoothly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
