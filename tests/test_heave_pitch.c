// SPDX-License-Identifier: MIT
/* Heave and pitch wave damping (naval/heave_pitch.h): the closed forms of
 * Jensen, Mansour and Olsen (2004) in their limits (long waves: the hull
 * rides the surface; a box a wavelength long in head seas at rest feels no
 * net heave force; beam seas: no pitch) and against the paper's own way of
 * writing them; the sectional damping's long-wave limit rho omega B^2; a
 * barge released heaved and trimmed by the reference motion (half its
 * draft; its ends half its draft) decays at the damping ratio the damper
 * was sized to (triangles and damper together), where the triangles alone
 * give a third of it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/heave_pitch.h"
#include "naval/hullgen.h"
#include "naval/statics.h"
#include "naval/world.h"
#include "test_util.h"

#define G 9.81
#define RHO 1025.0

static void closed_form_limits(void** state) {
    (void)state;
    const double L = 120.0, B = 17.5, T = 6.7, cb = 0.62;
    double h, p;
    /* long waves: heave per amplitude and pitch per slope tend to 1 */
    nv_heave_pitch_closed_form(2.0 * NV_PI / 200.0, NV_PI, 0.0, L, B, T, cb, G, &h, &p);
    ASSERT_NEAR_ABS(h, 1.0, 0.02);
    ASSERT_NEAR_ABS(p, 1.0, 0.02);
    /* at rest in head seas of wavelength L the excitation integrates to zero */
    double k = 2.0 * NV_PI / L;
    nv_heave_pitch_closed_form(sqrt(k * G), NV_PI, 0.0, L, B, T, cb, G, &h, &p);
    assert_true(h < 1e-12);
    /* beam seas: no pitch */
    nv_heave_pitch_closed_form(0.6, 0.5 * NV_PI, 5.0, L, B, T, cb, G, &h, &p);
    assert_true(p < 1e-12 && h > 0.0);
}

/* The paper's F and G (heave and pitch excitation with the damping's
 * share), written as it writes them, against the library's rearrangement. */
static void closed_form_as_published(void** state) {
    (void)state;
    const double L = 23.8, B = 4.9, T = 1.12, cb = 0.6;
    for (double lr = 0.6; lr < 5.0; lr += 0.37)
        for (double U = 0.0; U < 12.0; U += 4.0) {
            double k = 2.0 * NV_PI / (lr * L), omega = sqrt(k * G), fn = U / sqrt(G * L);
            double alpha = 1.0 + fn * sqrt(k * L), be = cb * B; /* head seas: cos(beta) = -1 */
            double A = 2.0 * sin(0.5 * k * be * alpha * alpha) * exp(-k * T * alpha * alpha);
            double f = sqrt(pow(1.0 - k * T, 2) + pow(A * A / (k * be * pow(alpha, 3)), 2));
            double eta = 1.0 / sqrt(pow(1.0 - 2.0 * k * T * alpha * alpha, 2) + pow(A * A / (k * be * alpha * alpha), 2));
            double kap = exp(-k * T), x = k * L;
            double F = kap * f * 2.0 / x * sin(0.5 * x);
            double Gp = kap * f * 24.0 / (x * x * L) * (sin(0.5 * x) - 0.5 * x * cos(0.5 * x));
            double h, p;
            nv_heave_pitch_closed_form(omega, NV_PI, U, L, B, T, cb, G, &h, &p);
            ASSERT_NEAR_ABS(h, fabs(eta * F), 1e-12);
            ASSERT_NEAR_ABS(p, fabs(eta * Gp) / k, 1e-12);
        }
}

/* Long waves: A -> k B, so b33 -> rho omega B^2 (the radiated waves' energy). */
static void section_damping_long_wave_limit(void** state) {
    (void)state;
    const double B = 4.0, T = 1.0;
    double omega = 0.01;
    ASSERT_NEAR_REL(nv_heave_pitch_section_damping(omega, B, T, RHO, G), RHO * omega * B * B, 1e-3);
    assert_true(nv_heave_pitch_section_damping(0.0, B, T, RHO, G) == 0.0);
}

/* A 10 x 4 x 2 m barge of 40 t with the default forces, released from
 * rest `dy` m below its balance height or trimmed `trim` rad: the damping
 * ratio of its first swing (log decrement of the first two peaks). */
static double barge_decay(uint32_t forces, double dy, double trim, const nv_heave_pitch_damper** damper, nv_world** keep) {
    nv_world_config cfg = nv_world_config_default();
    nv_world* w;
    nv_error err;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    nv_mesh m;
    ASSERT_OK(nv_hullgen_build("barge", 600, &m, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 40e3;
    uint32_t type;
    ASSERT_OK(nv_world_add_hull_type(w, "barge", &m, &spec, &type, &err), err);
    nv_mesh_free(&m);
    nv_vessel_dynamics d;
    d.coeffs = nv_hydrodyn_coeffs_default();
    d.coeffs.forces = forces;
    nv_actuator_set_init(&d.actuators);
    ASSERT_OK(nv_world_set_type_dynamics(w, type, &d, &err), err);
    double y;
    ASSERT_OK(nv_world_type_float_height(w, type, &y, &err), err);
    uint32_t id;
    ASSERT_OK(nv_world_spawn(w, type, v3(0.0, y - dy, 0.0), quat_from_axis_angle(v3(0, 0, 1), trim), &id, &err), err);
    double peaks[4], prev = 0.0, prev_slope = 0.0;
    int n = 0;
    for (int i = 0; i < 60 * 20 && n < 4; i++) {
        nv_world_step(w);
        nv_world_vessel_state s;
        assert_int_equal(nv_world_vessel_get(w, id, &s), 0);
        double value;
        if (trim != 0.0) {
            double heel, t;
            nv_statics_attitude(s.orientation, &heel, &t, NULL);
            value = t * NV_PI / 180.0;
        } else {
            value = y - s.position.y; /* depth below balance: the release is a crest */
        }
        double slope = value - prev;
        /* the extremes of the swing on the release's side */
        if (i > 1 && prev_slope < 0.0 && slope >= 0.0 && prev < 0.0) peaks[n++] = -prev;
        if (i > 1 && prev_slope > 0.0 && slope <= 0.0 && prev > 0.0) peaks[n++] = prev;
        prev_slope = slope;
        prev = value;
    }
    assert_true(n >= 3);
    /* peaks alternate in sign: each half swing decays by exp(-zeta pi / sqrt(1 - zeta^2)) */
    double delta = 2.0 * log(peaks[0] / peaks[1]);
    if (damper) *damper = nv_world_type_heave_pitch_damper(w, type);
    if (keep) *keep = w;
    else nv_world_destroy(w);
    return delta / sqrt(4.0 * NV_PI * NV_PI + delta * delta);
}

static void barge_decays_as_sized(void** state) {
    (void)state;
    const nv_heave_pitch_damper* d = NULL;
    nv_world* w = NULL;
    /* reference motion: heave of half the draft (40 t on 10 x 4: 0.98 m) */
    const double draft = 40e3 / (RHO * 10.0 * 4.0);
    double heave = barge_decay(HYDRODYN_ALL & ~(uint32_t)HYDRODYN_AREA_DAMPING, 0.5 * draft, 0.0, &d, &w);
    assert_non_null(d);
    double heave_target = d->heave_zeta, pitch_target = d->pitch_zeta;
    double heave_tri = d->heave_zeta * d->heave_triangles / d->heave_target;
    nv_world_destroy(w);
    /* and pitch moving the ends (5 m from the middle) by half the draft */
    double pitch = barge_decay(HYDRODYN_ALL & ~(uint32_t)HYDRODYN_AREA_DAMPING, 0.0, 0.5 * draft / 5.0, NULL, NULL);
    double heave_off = barge_decay(HYDRODYN_ALL & ~(uint32_t)(HYDRODYN_AREA_DAMPING | HYDRODYN_HEAVE_PITCH_DAMPING),
                                   0.5 * draft, 0.0, NULL, NULL);
    double pitch_off = barge_decay(HYDRODYN_ALL & ~(uint32_t)(HYDRODYN_AREA_DAMPING | HYDRODYN_HEAVE_PITCH_DAMPING), 0.0,
                                   0.5 * draft / 5.0, NULL, NULL);
    print_message("barge 10 x 4 x 2 m, 40 t: heave zeta %.4f (sized %.4f; triangles alone %.4f, estimated %.4f), "
                  "pitch zeta %.4f (sized %.4f; triangles alone %.4f)\n",
                  heave, heave_target, heave_off, heave_tri, pitch, pitch_target, pitch_off);
    ASSERT_NEAR_REL(heave, heave_target, 0.25);
    ASSERT_NEAR_REL(pitch, pitch_target, 0.25);
    assert_true(heave_off < 0.6 * heave);
    assert_true(pitch_off < 0.6 * pitch);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(closed_form_limits),
        cmocka_unit_test(closed_form_as_published),
        cmocka_unit_test(section_damping_long_wave_limit),
        cmocka_unit_test(barge_decays_as_sized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
