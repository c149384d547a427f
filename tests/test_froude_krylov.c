// SPDX-License-Identifier: MIT
/* The wave's roll moment on a hull held still: the per-triangle pass with
 * the Smith effect (docs/hydrostatics.md) must give linear theory's
 * Froude-Krylov moment, here on a box in beam waves against its closed form.
 * The IS Code's weather criterion reads this moment as an effective slope
 * (docs/seakeeping.md, "What fails"): this test holds what the model's
 * excitation is, so that a gap there is known not to come from a slip in
 * the pressure.
 *
 * A box of beam B = 2b and draft d, the wave eta = a sin(theta - k z)
 * travelling across it, the dynamic pressure rho g a e^(k y) sin(theta - k z)
 * under the mean level (y up from it). Per metre of length, about an axis
 * along the box at height y_P, the bottom gives
 *     rho g a e^(-k d) S1 cos(theta),  S1 = int_-b^b z sin(k z) dz
 *                                         = 2 (sin(k b) / k^2 - b cos(k b) / k),
 * and the two sides
 *     2 rho g a sin(k b) cos(theta) J,  J = int_-d^0 (y - y_P) e^(k y) dy
 *     = -1 / k^2 + e^(-k d) (d / k + 1 / k^2) - y_P (1 - e^(-k d)) / k.
 * In long waves their sum tends to rho g V GM_P k a cos(theta), the whole
 * slope's moment (GM_P the metacentric height of a CG at y_P); shorter, the
 * two parts fade at different rates and their difference falls below it,
 * the more the smaller GM_P is beside BM. */
#include <math.h>

#include "naval/hullgen.h"
#include "naval/water.h"
#include "naval/world.h"
#include "test_util.h"

#define BOX_L 20.0
#define BOX_B 10.0
#define BOX_H 6.0
#define BOX_D 3.0
#define WAVE_A 0.005
#define PHASES 16

/* The bottom's and the sides' parts of the moment's amplitude. */
static void fk_moment_parts(double rho_g, double k, double y_p, double* bottom, double* sides) {
    const double b = 0.5 * BOX_B, d = BOX_D, e = exp(-k * d);
    const double s1 = 2.0 * (sin(k * b) / (k * k) - b * cos(k * b) / k);
    const double j = -1.0 / (k * k) + e * (d / k + 1.0 / (k * k)) - y_p * (1.0 - e) / k;
    *bottom = BOX_L * rho_g * WAVE_A * e * s1;
    *sides = BOX_L * rho_g * WAVE_A * 2.0 * sin(k * b) * j;
}

static void beam_wave_roll_moment_is_froude_krylov(void** state) {
    (void)state;
    nv_error err;
    nv_world_config cfg = nv_world_config_default();
    nv_world* w;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    /* rows of 0.25 m up the sides and across the bottom, one on the waterline */
    const uint32_t type = test_world_box_type(w, BOX_L, BOX_B, BOX_H, 4, 24, 40);
    const nv_vec3 cg = v3(0.0, -BOX_D - nv_world_hull_type(w, type)->bounds_min[1], 0.0);
    const double rho_g = cfg.water_density * cfg.gravity;
    int fails = 0;
    const double wavelengths[] = {30.0, 60.0, 120.0, 4000.0};
    const double heights[] = {0.8, 0.0, -1.5}; /* the axis above the waterline, on it, below */
    for (size_t i = 0; i < sizeof wavelengths / sizeof wavelengths[0]; i++) {
        nv_water_sine sine;
        /* along -z: across the box */
        assert_int_equal(nv_water_sine_init(&sine, WAVE_A, wavelengths[i], 0.5 * NV_PI, cfg.gravity), 0);
        nv_world_water water = {.surface = &sine.base};
        nv_world_set_water(w, &water);
        const double k = sine.wavenumber;
        for (size_t h = 0; h < sizeof heights / sizeof heights[0]; h++) {
            const double y_p = heights[h];
            double bottom, sides;
            fk_moment_parts(rho_g, k, y_p, &bottom, &sides);
            const double want = bottom + sides;
            /* the still water's load at this pose, taken off: its float round-off is
             * the size of the longest wave's moment */
            sine.amplitude = 0.0;
            nv_vec3 f0, t0;
            ASSERT_OK(nv_world_type_water_load(w, type, cg, quat_identity(), &f0, &t0, &err), err);
            sine.amplitude = WAVE_A;
            double worst = 0.0, harmonic = 0.0;
            for (int p = 0; p < PHASES; p++) {
                const double theta = 2.0 * NV_PI * p / PHASES;
                nv_water_sine_set_time(&sine, -theta / sine.omega); /* phase - omega t = theta */
                nv_vec3 f, t;
                ASSERT_OK(nv_world_type_water_load(w, type, cg, quat_identity(), &f, &t, &err), err);
                f = v3_sub(f, f0), t = v3_sub(t, t0);
                /* the moment about (0, y_p, 0): M_G + (G - P) x F */
                const nv_vec3 lever = v3(0.0, cg.y - y_p, 0.0);
                const double got = t.x + (lever.y * f.z - lever.z * f.y);
                const double miss = fabs(got - want * cos(theta));
                if (miss > worst) worst = miss;
                harmonic += 2.0 * got * cos(theta) / PHASES;
            }
            const double gm = 0.5 * BOX_D + BOX_B * BOX_B / (12.0 * BOX_D) - (BOX_D + y_p);
            const double whole = rho_g * BOX_L * BOX_B * BOX_D * gm * k * WAVE_A;
            const double ratio = want / whole, parts = fabs(bottom) + fabs(sides);
            print_message("lambda %6.0f m, axis %+.1f m (GM %.2f m): Froude-Krylov %.4g N m = %.3f of the whole slope's; "
                          "simulated %.3f; largest miss %.2f %% (%.2f %% of the parts' sum)\n",
                          wavelengths[i], y_p, gm, want, ratio, harmonic / whole, 100.0 * worst / fabs(want),
                          100.0 * worst / parts);
            /* The pass takes e^x as (1 + x / 32)^32 (0.7 % low at the 30 m wave's keel) and the pressure
             * as linear between the rows; the waterline's band is second order in a. So each part is
             * held to 1 %, and where the two nearly cancel (the low GM in the short wave: 2 % of the
             * whole slope's) the difference to the sum of their errors. */
            fails += !(worst < 0.01 * parts);
            /* the net moment, what a roll answers, to 2 % where it is a fifth of the parts or more */
            if (fabs(want) >= 0.2 * parts) fails += !(worst < 0.02 * fabs(want));
            /* the long-wave limit, the closed form's and the pass's: the whole slope's moment */
            if (wavelengths[i] >= 4000.0) {
                ASSERT_NEAR_REL(ratio, 1.0, 0.02);
                if (fabs(want) >= 0.2 * parts) ASSERT_NEAR_REL(harmonic / whole, 1.0, 0.02);
            }
        }
    }
    assert_int_equal(fails, 0);
    nv_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(beam_wave_roll_moment_is_froude_krylov),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
