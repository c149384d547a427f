// SPDX-License-Identifier: MIT
/* The FFT ocean as a sea: significant wave heights calibrated against
 * Pierson-Moskowitz and the spectrum's own m0, the sea-state shortcuts
 * (target Hs, Beaufort), and queries on the choppy surface (heights where
 * the labels moved to, normals against finite differences). */
#include "test_ocean_util.h"

/* 4 std of the heights of all cascades' grids, computed here. */
static double grid_hs(const nv_ocean* o) {
    int nx, nz;
    nv_ocean_resolution(o, &nx, &nz);
    double var = 0.0;
    for (int c = 0; c < nv_ocean_cascade_count(o); c++) {
        const float* h = nv_ocean_field(o, c, OCEAN_FIELD_HEIGHT);
        double s = 0.0, s2 = 0.0;
        size_t n = (size_t)nx * nz;
        for (size_t i = 0; i < n; i++) {
            s += h[OCEAN_FIELD_STRIDE * i];
            s2 += (double)h[OCEAN_FIELD_STRIDE * i] * h[OCEAN_FIELD_STRIDE * i];
        }
        var += s2 / n - (s / n) * (s / n);
    }
    return 4.0 * sqrt(var);
}

/* Hs averaged over seeds, for a grid that resolves the peak: tile 12 peak
 * wavelengths, 21 cells per peak wavelength. */
static double mean_hs(nv_ocean_params p, int seeds) {
    nv_spectrum_model m = {0};
    m.type = p.spectrum;
    m.gravity = p.gravity;
    m.wind_speed = p.wind_speed;
    m.fetch = p.fetch;
    m.gamma = p.gamma;
    m.scale = 1.0;
    nv_spectrum_model_prepare(&m);
    double lp = 2.0 * NV_PI * p.gravity / (m.omega_p * m.omega_p);
    p.cascades = 1;
    p.resolution = 256;
    p.size = 12.0 * lp;
    double sum = 0.0;
    for (int s = 0; s < seeds; s++) {
        p.seed = 1000 + 17 * s;
        nv_ocean* o = make(&p);
        nv_ocean_update(o, 10.0 * s);
        sum += grid_hs(o);
        nv_ocean_destroy(o);
    }
    return sum / seeds;
}

static void test_hs_pierson_moskowitz(void** state) {
    (void)state;
    const double winds[] = {10.0, 15.0};
    for (int i = 0; i < 2; i++) {
        nv_ocean_params p = nv_ocean_params_default();
        p.spectrum = SPECTRUM_PIERSON_MOSKOWITZ;
        p.wind_speed = winds[i]; /* U10: PM's U19.5 is 1.075 U10 */
        double u195 = 1.075 * winds[i];
        ASSERT_NEAR_REL(mean_hs(p, 10), 0.209 * u195 * u195 / 9.81, 0.03);
    }
}

static void test_hs_jonswap(void** state) {
    (void)state;
    nv_ocean_params p = nv_ocean_params_default();
    p.spectrum = SPECTRUM_JONSWAP;
    p.wind_speed = 12.0;
    p.fetch = 50000.0;
    nv_ocean* o = make(&p);
    nv_ocean_stats st;
    nv_ocean_measure(o, &st);
    nv_ocean_destroy(o);
    ASSERT_NEAR_REL(mean_hs(p, 10), st.hs_spectrum, 0.03);
}

static void test_hs_target_and_beaufort(void** state) {
    (void)state;
    nv_ocean_params p = nv_ocean_params_default();
    p.resolution = 128;
    p.hs_target = 3.0;
    nv_ocean* o = make(&p);
    /* scaled to the realised field: the time-mean of the grid's Hs is 3 m */
    double sum = 0.0;
    for (int i = 0; i < 8; i++) {
        nv_ocean_update(o, 37.0 * i);
        sum += pow(grid_hs(o), 2.0);
    }
    ASSERT_NEAR_REL(sqrt(sum / 8.0), 3.0, 0.03);
    nv_ocean_destroy(o);
    p.hs_target = 0.0;
    p.beaufort = 6;
    o = make(&p);
    ASSERT_NEAR_REL(nv_ocean_get_params(o)->wind_speed, nv_spectrum_beaufort_wind(6), 1e-12);
    ASSERT_NEAR_REL(grid_hs(o), nv_spectrum_beaufort_hs(6), 0.15);
    nv_ocean_destroy(o);
    /* Beaufort 0 is a flat sea, not an error */
    p.beaufort = 0;
    o = make(&p);
    assert_true(grid_hs(o) == 0.0);
    nv_ocean_destroy(o);
}

/* The default grid (size from the peak, 3 cascades of 256^2) against the
 * spectrum, light airs to a storm: the grid's own expected Hs within 1 %
 * of the spectrum's, the measured Hs averaged over seeds within 3 %.
 * Under the sanitizers (NAVAL_TEST_LIGHT) the two ends of the range only:
 * the same code at a third of the cost (the release suite runs all six). */
static void test_default_sea_hs(void** state) {
    (void)state;
    const nv_spectrum_type types[] = {SPECTRUM_PIERSON_MOSKOWITZ, SPECTRUM_JONSWAP, SPECTRUM_TMA, SPECTRUM_PHILLIPS};
    const char* names[] = {"pm", "jonswap", "tma", "phillips"};
    const double all_winds[] = {1.0, 2.5, 5.0, 10.0, 20.0, 30.0};
    const double light_winds[] = {1.0, 30.0};
    const int light = getenv("NAVAL_TEST_LIGHT") != NULL;
    const double* winds = light ? light_winds : all_winds;
    const int wind_count = light ? 2 : 6;
    enum { SEEDS = 12 };
    for (int t = 0; t < 4; t++) {
        for (int i = 0; i < wind_count; i++) {
            nv_ocean_params p = nv_ocean_params_default();
            p.spectrum = types[t];
            p.wind_speed = winds[i];
            if (types[t] == SPECTRUM_TMA) p.depth = 30.0;
            double sum = 0.0;
            nv_ocean_stats st = {0};
            for (int s = 0; s < SEEDS; s++) {
                p.seed = 101 + 7 * s;
                nv_ocean* o = make(&p);
                nv_ocean_measure(o, &st);
                sum += st.hs_measured;
                nv_ocean_destroy(o);
            }
            double mean = sum / SEEDS;
            print_message("%-8s %4.1f m/s: spectrum %.4f m, grid %+.2f %%, measured %+.2f %% (mean of %d seeds)\n",
                          names[t], winds[i], st.hs_spectrum, 100.0 * (st.hs_grid / st.hs_spectrum - 1.0),
                          100.0 * (mean / st.hs_spectrum - 1.0), SEEDS);
            ASSERT_NEAR_REL(st.hs_grid, st.hs_spectrum, 0.01);
            ASSERT_NEAR_REL(mean, st.hs_spectrum, 0.03);
        }
    }
}

/* A tile given by the user: where the default cut between cascades 0 and
 * 1 falls in the peak band it moves to the band's top, and the grid
 * samples the peak whole (a 1000 m tile at 5 m/s puts the fully developed
 * peak, 24 m, right on the default cut at 23.9 m). */
static void test_cut_leaves_the_peak(void** state) {
    (void)state;
    nv_ocean_params p = nv_ocean_params_default();
    p.size = 1000.0;
    p.wind_speed = 5.0;
    nv_ocean* o = make(&p);
    const nv_spectrum_model* m = nv_ocean_get_model(o);
    double kp = m->omega_p * m->omega_p / m->gravity, lo, hi, lo1;
    double cut = OCEAN_CASCADE_CUT * 2.0 * NV_PI / nv_ocean_cascade_size(o, 1);
    assert_true(kp < cut && kp * OCEAN_PEAK_BAND_HI > cut); /* the test means something: the peak at the cut */
    nv_ocean_cascade_band(o, 0, &lo, &hi);
    nv_ocean_cascade_band(o, 1, &lo1, NULL);
    ASSERT_NEAR_REL(hi, kp * OCEAN_PEAK_BAND_HI, 1e-12);
    assert_true(lo1 == hi);
    nv_ocean_stats st;
    nv_ocean_measure(o, &st);
    ASSERT_NEAR_REL(st.hs_grid, st.hs_spectrum, 0.01);
    nv_ocean_destroy(o);
    /* the peak clear of the cut: the default cut stays */
    p.wind_speed = 10.0;
    o = make(&p);
    nv_ocean_cascade_band(o, 0, NULL, &hi);
    ASSERT_NEAR_REL(hi, cut, 1e-12);
    nv_ocean_destroy(o);
}

/* A sea given by its height alone gets a peak period no steeper than
 * DNV's Tp = 3.6 sqrt(Hs) (Hs / Lp = 1 / 20.2), Beaufort 11 and 12 too; an
 * explicit tp wins; a fetch-limited period already longer is kept. */
static void test_sea_state_steepness(void** state) {
    (void)state;
    const double g = 9.81;
    nv_ocean_params p = nv_ocean_params_default();
    p.resolution = 64;
    p.cascades = 1;
    p.hs_target = 10.0;
    p.wind_speed = nv_spectrum_wind_for_hs(10.0, g); /* as naval-ocean --hs 10 */
    nv_ocean* o = make(&p);
    nv_ocean_stats st;
    nv_ocean_measure(o, &st);
    ASSERT_NEAR_REL(st.peak_period, 3.6 * sqrt(10.0), 2e-3);
    nv_ocean_destroy(o);
    for (int b = 11; b <= 12; b++) {
        p = nv_ocean_params_default();
        p.resolution = 64;
        p.cascades = 1;
        p.beaufort = b;
        o = make(&p);
        nv_ocean_measure(o, &st);
        double hs = nv_spectrum_beaufort_hs(b), lp = g * st.peak_period * st.peak_period / (2.0 * NV_PI);
        print_message("Beaufort %d: Hs %.1f m, Tp %.2f s, Hs / Lp 1/%.1f\n", b, hs, st.peak_period, lp / hs);
        assert_true(hs / lp <= 1.0 / 20.0);
        nv_ocean_destroy(o);
    }
    /* Beaufort 6 (Hs 3 m, 12.3 m/s over 100 km): its own 6.7 s is gentler than 3.6 sqrt(3) = 6.2 s */
    p.beaufort = 6;
    o = make(&p);
    nv_ocean_measure(o, &st);
    ASSERT_NEAR_REL(st.peak_period, 2.0 * NV_PI / (22.0 * cbrt(g * g / (12.3 * 1e5))), 2e-3);
    nv_ocean_destroy(o);
    /* an explicit peak period */
    p = nv_ocean_params_default();
    p.resolution = 64;
    p.cascades = 1;
    p.hs_target = 4.0;
    p.tp = 12.0;
    const nv_spectrum_type types[] = {SPECTRUM_PIERSON_MOSKOWITZ, SPECTRUM_JONSWAP};
    for (int t = 0; t < 2; t++) {
        p.spectrum = types[t];
        o = make(&p);
        nv_ocean_measure(o, &st);
        ASSERT_NEAR_REL(st.peak_period, 12.0, 2e-3);
        nv_ocean_destroy(o);
    }
}

static void test_choppy_query(void** state) {
    (void)state;
    nv_ocean_params p = nv_ocean_params_default();
    p.cascades = 2;
    p.resolution = 64;
    p.cascade_ratio = 3.5;
    p.size = 250.0;
    p.wind_speed = 14.0;
    p.choppiness = 1.2;
    nv_ocean* o = make(&p);
    nv_ocean_update(o, 42.0);
    enum { K = 400 };
    double x0[K], z0[K], qx[K], qz[K];
    nv_ocean_point pt[K];
    for (int i = 0; i < K; i++) { /* labels on cascade 0's grid */
        x0[i] = (i * 7 % 64) * 250.0 / 64;
        z0[i] = (i * 13 % 64) * 250.0 / 64 - 500.0;
    }
    nv_ocean_sample_labels(o, K, x0, z0, pt);
    int used = 0;
    for (int i = 0; i < K; i++) {
        qx[i] = x0[i] + pt[i].disp_x;
        qz[i] = z0[i] + pt[i].disp_z;
    }
    float h[K], n[3 * K], v[K];
    nv_water_query q = {K, qx, qz, h, n, v};
    size_t failed = water_sample(nv_ocean_surface(o), &q);
    double moved = 0.0;
    for (int i = 0; i < K; i++) {
        moved = fmax(moved, hypot(pt[i].disp_x, pt[i].disp_z));
        if (pt[i].jacobian < 0.3) continue; /* near a fold the answer is not unique */
        used++;
        ASSERT_NEAR_ABS(h[i], pt[i].height, 0.01);
        ASSERT_NEAR_ABS(v[i], pt[i].velocity_y, 0.01);
        double len = sqrt(n[3 * i] * n[3 * i] + n[3 * i + 1] * n[3 * i + 1] + n[3 * i + 2] * n[3 * i + 2]);
        ASSERT_NEAR_ABS(len, 1.0, 1e-5);
        assert_true(n[3 * i + 1] > 0.0f);
    }
    assert_true(used > K / 2);
    assert_true(moved > 0.5); /* the test means something: labels really move */
    assert_true(failed <= (size_t)(K - used));
    /* the undisplaced answer would be wrong by much more than 1 cm */
    double off = 0.0;
    for (int i = 0; i < K; i++) {
        nv_ocean_point at_q;
        nv_ocean_sample_labels(o, 1, &qx[i], &qz[i], &at_q);
        off = fmax(off, fabs(at_q.height - pt[i].height));
    }
    assert_true(off > 0.1);
    nv_ocean_destroy(o);
}

static void test_normal_matches_finite_difference(void** state) {
    (void)state;
    nv_ocean_params p = nv_ocean_params_default();
    p.cascades = 1;
    p.resolution = 256;
    p.size = 400.0;
    p.wind_speed = 14.0;
    p.choppiness = 2.0;
    p.min_wavelength = 25.0; /* 16 cells per wave: bilinear is smooth enough to differentiate */
    p.query_tolerance = 1e-5;
    nv_ocean* o = make(&p);
    nv_ocean_update(o, 5.0);
    /* At q = x0 + D(x0): the normal of the choppy surface against central
     * differences of the queried heights over about a cell. The plain
     * height-field normal (-hx, 1, -hz) at the same label x0 is clearly
     * further off, so the test tells the two apart. */
    double err = 0.0, plain_err = 0.0;
    int checked = 0;
    for (int i = 0; i < 100; i++) {
        double x0 = 13.0 + 5.1 * i, z0 = 7.0 + 3.3 * i, e = 0.8;
        nv_ocean_point at;
        nv_ocean_sample_labels(o, 1, &x0, &z0, &at);
        double x = x0 + at.disp_x, z = z0 + at.disp_z;
        double xs[5] = {x, x + e, x - e, x, x}, zs[5] = {z, z, z, z + e, z - e};
        float h[5], n[15];
        nv_water_query q = {5, xs, zs, h, n, NULL};
        if (nv_ocean_sample(o, &q) != 0) continue;
        double gx = (h[1] - h[2]) / (2 * e), gz = (h[3] - h[4]) / (2 * e);
        double len = sqrt(gx * gx + 1.0 + gz * gz);
        double fd[3] = {-gx / len, 1.0 / len, -gz / len};
        double pl = sqrt(at.slope_x * at.slope_x + 1.0 + at.slope_z * at.slope_z);
        double plain[3] = {-at.slope_x / pl, 1.0 / pl, -at.slope_z / pl};
        for (int k = 0; k < 3; k++) {
            err += fabs(n[k] - fd[k]);
            plain_err += fabs(plain[k] - fd[k]);
        }
        checked++;
    }
    assert_true(checked > 90);
    err /= 3 * checked;
    plain_err /= 3 * checked;
    if (!(err < 5e-4)) fail_msg("normal off the finite-difference normal by %.4g on average", err);
    if (!(plain_err > 3.0 * err))
        fail_msg("the test cannot tell: plain normal off by %.4g (choppy %.4g)", plain_err, err);
    nv_ocean_destroy(o);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hs_pierson_moskowitz),
        cmocka_unit_test(test_hs_jonswap),
        cmocka_unit_test(test_hs_target_and_beaufort),
        cmocka_unit_test(test_default_sea_hs),
        cmocka_unit_test(test_cut_leaves_the_peak),
        cmocka_unit_test(test_sea_state_steepness),
        cmocka_unit_test(test_choppy_query),
        cmocka_unit_test(test_normal_matches_finite_difference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
