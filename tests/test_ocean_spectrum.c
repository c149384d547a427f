// SPDX-License-Identifier: MIT
/* Wave spectra: closed-form moments and peaks, normalisation of the
 * directional spreading, the 2D density against m0, dispersion, TMA, the
 * Beaufort table and the hash-seeded Gaussians. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include "naval/ocean_spectrum.h"
#include "naval/vecmath.h"

#define G 9.81

static nv_spectrum_model model(nv_spectrum_type type, nv_spreading_type spreading, double wind) {
    nv_spectrum_model m = {0};
    m.type = type;
    m.spreading = spreading;
    m.gravity = G;
    m.wind_speed = wind;
    m.fetch = 100000.0;
    m.depth = 0.0;
    m.gamma = 3.3;
    m.swell = 0.0;
    m.scale = 1.0;
    nv_spectrum_model_prepare(&m);
    return m;
}

/* Integral over theta in [-pi, pi], Simpson in t with theta = pi sin(pi t / 2):
 * smooth at the ends, where cos-2s with a tiny s has a cusp. */
static double spreading_integral(const nv_spectrum_model* m, double omega) {
    int n = 4000;
    double h = 2.0 / n, sum = 0.0;
    for (int i = 0; i <= n; i++) {
        double t = -1.0 + h * i;
        double w = i == 0 || i == n ? 1.0 : (i & 1) ? 4.0 : 2.0;
        double dtheta = NV_PI * 0.5 * NV_PI * cos(0.5 * NV_PI * t);
        sum += w * nv_spectrum_spreading(m, omega, NV_PI * sin(0.5 * NV_PI * t)) * dtheta;
    }
    return sum * h / 3.0;
}

/* Simpson in ln(omega) of S(omega) over [lo, hi]. */
static double omega_integral(const nv_spectrum_model* m, double lo, double hi) {
    int n = 20000;
    double span = log(hi / lo), h = span / n, sum = 0.0;
    for (int i = 0; i <= n; i++) {
        double w = lo * exp(h * i);
        double c = i == 0 || i == n ? 1.0 : (i & 1) ? 4.0 : 2.0;
        sum += c * nv_spectrum_omega_density(m, w) * w;
    }
    return sum * h / 3.0;
}

static void test_pierson_moskowitz_closed_form(void** state) {
    (void)state;
    const double winds[] = {5.0, 10.0, 15.0, 25.0};
    for (int i = 0; i < 4; i++) {
        double u = winds[i];
        nv_spectrum_model m = model(SPECTRUM_PIERSON_MOSKOWITZ, SPREADING_AUTO, u);
        /* the wind is U10; PM's formulas take U19.5 = 1.075 U10 */
        double u195 = 1.075 * u;
        /* m0 = alpha U19.5^4 / (4 beta g^2): Hs = 0.209 U19.5^2 / g = 0.2418 U10^2 / g */
        double m0 = 0.0081 * pow(u195, 4.0) / (4.0 * 0.74 * G * G);
        ASSERT_NEAR_REL(nv_spectrum_m0(&m), m0, 1e-4);
        ASSERT_NEAR_REL(4.0 * sqrt(nv_spectrum_m0(&m)), 0.209 * u195 * u195 / G, 2e-3);
        ASSERT_NEAR_REL(4.0 * sqrt(nv_spectrum_m0(&m)), 0.2418 * u * u / G, 2e-3);
        ASSERT_NEAR_REL(nv_spectrum_peak_omega(&m), 0.877 * G / u195, 1e-3);
        ASSERT_NEAR_REL(m.omega_p, pow(0.8 * 0.74, 0.25) * G / u195, 1e-12);
    }
    /* a given peak period moves the peak, not the shape */
    nv_spectrum_model t = model(SPECTRUM_PIERSON_MOSKOWITZ, SPREADING_AUTO, 10.0);
    t.peak_period = 12.0;
    nv_spectrum_model_prepare(&t);
    ASSERT_NEAR_REL(nv_spectrum_peak_omega(&t), 2.0 * NV_PI / 12.0, 1e-3);
    ASSERT_NEAR_REL(nv_spectrum_m0(&t), 0.0081 * G * G / (5.0 * pow(2.0 * NV_PI / 12.0, 4.0)), 1e-4);
    /* no wind, no waves, no division by zero */
    nv_spectrum_model flat = model(SPECTRUM_PIERSON_MOSKOWITZ, SPREADING_AUTO, 0.0);
    assert_true(nv_spectrum_m0(&flat) == 0.0);
    assert_true(nv_spectrum_density_2d(&flat, 0.1, 0.2, 0.0) == 0.0);
    assert_true(nv_spectrum_peak_omega(&flat) == 0.0);
}

static void test_jonswap_closed_form(void** state) {
    (void)state;
    nv_spectrum_model m = model(SPECTRUM_JONSWAP, SPREADING_AUTO, 10.0);
    /* Hasselmann's fetch laws */
    ASSERT_NEAR_REL(m.alpha, 0.076 * pow(100.0 / (G * 1e5), 0.22), 1e-12);
    ASSERT_NEAR_REL(m.omega_p, 22.0 * cbrt(G * G / (10.0 * 1e5)), 1e-12);
    /* the peak enhancement leaves the peak where it is */
    ASSERT_NEAR_REL(nv_spectrum_peak_omega(&m), m.omega_p, 2e-3);
    /* gamma = 1: alpha g^2 w^-5 exp(-1.25 (wp/w)^4), m0 = alpha g^2 / (5 wp^4) */
    nv_spectrum_model m1 = m;
    m1.gamma = 1.0;
    double m0_1 = m1.alpha * G * G / (5.0 * pow(m1.omega_p, 4.0));
    ASSERT_NEAR_REL(nv_spectrum_m0(&m1), m0_1, 1e-4);
    /* gamma piles energy onto the peak: S(wp) grows by gamma exactly */
    ASSERT_NEAR_REL(nv_spectrum_omega_density(&m, m.omega_p), 3.3 * nv_spectrum_omega_density(&m1, m.omega_p), 1e-12);
    assert_true(nv_spectrum_m0(&m) > 1.2 * nv_spectrum_m0(&m1));
}

/* Hasselmann's fetch laws up to the fully developed sea: the peak stops at
 * Pierson-Moskowitz's and the energy at PM's, so that a long fetch gives
 * PM's Hs (0.209 U19.5^2 / g with U19.5 = 1.075 U10), a short one the
 * fetch-limited JONSWAP sea unchanged. */
static void test_jonswap_fully_developed(void** state) {
    (void)state;
    const nv_spectrum_type types[] = {SPECTRUM_JONSWAP, SPECTRUM_TMA};
    for (int t = 0; t < 2; t++) {
        /* 3 m/s over the default 100 km: 5.5 times the fully developed fetch */
        nv_spectrum_model m = model(types[t], SPREADING_AUTO, 3.0);
        double pm_hs = 0.209 * pow(1.075 * 3.0, 2.0) / G;
        ASSERT_NEAR_REL(4.0 * sqrt(nv_spectrum_m0(&m)), pm_hs, 0.02); /* the bound */
        ASSERT_NEAR_REL(4.0 * sqrt(nv_spectrum_m0(&m)), pm_hs, 2e-3);
        ASSERT_NEAR_REL(m.omega_p, pow(0.8 * 0.74, 0.25) * G / (1.075 * 3.0), 1e-12);
        /* 3 m/s over 500 m: fetch-limited, Hasselmann's laws untouched (X = 545) */
        nv_spectrum_model s = model(types[t], SPREADING_AUTO, 3.0);
        s.fetch = 500.0;
        nv_spectrum_model_prepare(&s);
        ASSERT_NEAR_REL(s.alpha, 0.076 * pow(9.0 / (G * 500.0), 0.22), 1e-12);
        ASSERT_NEAR_REL(s.omega_p, 22.0 * cbrt(G * G / (3.0 * 500.0)), 1e-12);
        assert_true(4.0 * sqrt(nv_spectrum_m0(&s)) < 0.3 * pm_hs);
    }
    /* Hs grows with the fetch, continuously, to PM's and no further; the peak
     * stops moving at nv_spectrum_fully_developed_fetch */
    double u = 12.0, pm_hs = 0.209 * pow(1.075 * u, 2.0) / G, last = 0.0;
    double fd = nv_spectrum_fully_developed_fetch(u, G);
    ASSERT_NEAR_REL(fd * G / (u * u), 19600.0, 1e-3);
    for (double f = 1000.0; f < 3e6; f *= 1.1) {
        nv_spectrum_model m = model(SPECTRUM_JONSWAP, SPREADING_AUTO, u);
        m.fetch = f;
        nv_spectrum_model_prepare(&m);
        double hs = 4.0 * sqrt(nv_spectrum_m0(&m));
        if (last > 0.0) assert_true(hs >= last * (1.0 - 1e-9) && hs <= last * 1.06); /* Hs ~ X^0.56 at most */
        assert_true(hs <= pm_hs * (1.0 + 2e-3));
        if (f >= fd) ASSERT_NEAR_REL(m.omega_p, pow(0.8 * 0.74, 0.25) * G / (1.075 * u), 1e-12);
        else assert_true(m.omega_p > pow(0.8 * 0.74, 0.25) * G / (1.075 * u));
        last = hs;
    }
    ASSERT_NEAR_REL(last, pm_hs, 2e-3);
    /* gamma 1 at full development is Pierson-Moskowitz itself */
    nv_spectrum_model j = model(SPECTRUM_JONSWAP, SPREADING_AUTO, 5.0);
    nv_spectrum_model pm = model(SPECTRUM_PIERSON_MOSKOWITZ, SPREADING_AUTO, 5.0);
    j.gamma = 1.0;
    nv_spectrum_model_prepare(&j);
    for (double w = 0.5 * pm.omega_p; w < 4.0 * pm.omega_p; w *= 1.07)
        ASSERT_NEAR_REL(nv_spectrum_omega_density(&j, w), nv_spectrum_omega_density(&pm, w), 1e-9);
    /* a given peak period wins over the fetch law */
    nv_spectrum_model p = model(SPECTRUM_JONSWAP, SPREADING_AUTO, 20.0);
    p.peak_period = 14.0;
    nv_spectrum_model_prepare(&p);
    ASSERT_NEAR_REL(nv_spectrum_peak_omega(&p), 2.0 * NV_PI / 14.0, 2e-3);
}

static void test_phillips_closed_form(void** state) {
    (void)state;
    nv_spectrum_model m = model(SPECTRUM_PHILLIPS, SPREADING_AUTO, 12.0);
    double l = 144.0 / G;
    /* integral of alpha/2 k^-3 exp(-1/(kL)^2) dk = alpha L^2 / 4 */
    ASSERT_NEAR_REL(nv_spectrum_m0(&m), 0.0081 * l * l / 4.0, 1e-4);
    /* auto spreading for Phillips is Tessendorf's cos^2 */
    assert_int_equal(m.spreading, SPREADING_COS2);
    /* S(k) peaks at k = sqrt(2/3) / L; S(omega) at the image of ... its own
     * peak, which the numeric search must find: compare with a fine scan */
    double best = 0.0, best_w = 0.0;
    for (int i = 1; i < 200000; i++) {
        double w = 0.01 * i * 1e-3 * 100.0;
        double s = nv_spectrum_omega_density(&m, w);
        if (s > best) best = s, best_w = w;
    }
    ASSERT_NEAR_REL(nv_spectrum_peak_omega(&m), best_w, 2e-3);
}

static void test_spreading_normalised(void** state) {
    (void)state;
    const nv_spreading_type kinds[] = {SPREADING_COS2, SPREADING_MITSUYASU, SPREADING_DONELAN_BANNER};
    const double ratios[] = {0.3, 0.7, 0.96, 1.0, 1.3, 1.7, 3.0, 6.0};
    for (int k = 0; k < 3; k++) {
        for (int swell = 0; swell < 2; swell++) {
            nv_spectrum_model m = model(SPECTRUM_JONSWAP, kinds[k], 10.0);
            m.swell = swell ? 0.8 : 0.0;
            for (int r = 0; r < 8; r++) ASSERT_NEAR_REL(spreading_integral(&m, ratios[r] * m.omega_p), 1.0, 1e-6);
        }
    }
    /* downwind beats upwind, and the spreading is symmetric about the wind */
    nv_spectrum_model m = model(SPECTRUM_JONSWAP, SPREADING_DONELAN_BANNER, 10.0);
    assert_true(nv_spectrum_spreading(&m, m.omega_p, 0.0) > 10.0 * nv_spectrum_spreading(&m, m.omega_p, 2.5));
    ASSERT_NEAR_REL(nv_spectrum_spreading(&m, m.omega_p, 0.4), nv_spectrum_spreading(&m, m.omega_p, -0.4), 1e-12);
    /* swell narrows cos-2s */
    nv_spectrum_model a = model(SPECTRUM_JONSWAP, SPREADING_MITSUYASU, 10.0), b = a;
    b.swell = 1.0;
    assert_true(nv_spectrum_spreading(&b, a.omega_p, 0.0) > nv_spectrum_spreading(&a, a.omega_p, 0.0));
}

static void test_cos2s_norm(void** state) {
    (void)state;
    /* Q(0) = 1 / (2 pi); Q(1) = 1 / pi (cos^2(theta/2) integrates to pi) */
    ASSERT_NEAR_REL(nv_spectrum_cos2s_norm(0.0), 1.0 / (2.0 * NV_PI), 1e-12);
    ASSERT_NEAR_REL(nv_spectrum_cos2s_norm(1.0), 1.0 / NV_PI, 1e-12);
    /* the two branches meet at s = 140 */
    ASSERT_NEAR_REL(nv_spectrum_cos2s_norm(139.999999), nv_spectrum_cos2s_norm(140.0), 1e-8);
    /* and the asymptotic branch integrates to 1 */
    double s = 400.0;
    int n = 40000;
    double h = 2.0 * NV_PI / n, sum = 0.0;
    for (int i = 0; i <= n; i++) {
        double c = i == 0 || i == n ? 1.0 : (i & 1) ? 4.0 : 2.0;
        sum += c * pow(fabs(cos(0.5 * (-NV_PI + h * i))), 2.0 * s);
    }
    ASSERT_NEAR_REL(nv_spectrum_cos2s_norm(s) * sum * h / 3.0, 1.0, 1e-8);
}

static void test_density_2d_integrates_to_m0(void** state) {
    (void)state;
    const nv_spectrum_type types[] = {SPECTRUM_PHILLIPS, SPECTRUM_PIERSON_MOSKOWITZ, SPECTRUM_JONSWAP};
    for (int t = 0; t < 3; t++) {
        nv_spectrum_model m = model(types[t], SPREADING_AUTO, 10.0);
        double wind_dir = 0.7;
        /* polar: integral S(kx, kz) k dk dtheta, Simpson in ln k and theta */
        double kp = m.omega_p * m.omega_p / G;
        double lo = kp * 1e-3, hi = kp * 1e4;
        int nk = 3000, nt = 720;
        double hk = log(hi / lo) / nk, ht = 2.0 * NV_PI / nt, sum = 0.0;
        for (int i = 0; i <= nk; i++) {
            double k = lo * exp(hk * i);
            double ck = i == 0 || i == nk ? 1.0 : (i & 1) ? 4.0 : 2.0;
            double ring = 0.0;
            for (int j = 0; j < nt; j++) { /* periodic: the plain sum is exact */
                double th = ht * j;
                ring += nv_spectrum_density_2d(&m, k * cos(th), k * sin(th), wind_dir);
            }
            sum += ck * ring * ht * k * k; /* k dk = k^2 d(ln k) */
        }
        ASSERT_NEAR_REL(sum * hk / 3.0, nv_spectrum_m0(&m), 2e-3);
    }
}

static void test_dispersion(void** state) {
    (void)state;
    /* deep */
    ASSERT_NEAR_REL(nv_spectrum_dispersion(0.1, 0.0, G), sqrt(G * 0.1), 1e-15);
    ASSERT_NEAR_REL(nv_spectrum_dispersion(0.1, 1e4, G), sqrt(G * 0.1), 1e-12);
    /* shallow: w = k sqrt(g h) */
    ASSERT_NEAR_REL(nv_spectrum_dispersion(1e-4, 2.0, G), 1e-4 * sqrt(G * 2.0), 1e-7);
    assert_true(nv_spectrum_dispersion(0.0, 0.0, G) == 0.0);
    /* d w / d k against a central difference, deep and finite depth */
    const double depths[] = {0.0, 3.0, 30.0};
    for (int d = 0; d < 3; d++) {
        for (double k = 0.01; k < 5.0; k *= 1.7) {
            double e = 1e-6 * k;
            double fd =
                (nv_spectrum_dispersion(k + e, depths[d], G) - nv_spectrum_dispersion(k - e, depths[d], G)) / (2.0 * e);
            ASSERT_NEAR_REL(nv_spectrum_dispersion_derivative(k, depths[d], G), fd, 1e-6);
        }
    }
    /* k -> 0 in finite depth: the shallow-water speed, no division by zero */
    ASSERT_NEAR_REL(nv_spectrum_dispersion_derivative(0.0, 4.0, G), sqrt(G * 4.0), 1e-12);
}

static void test_tma_depth(void** state) {
    (void)state;
    nv_spectrum_model j = model(SPECTRUM_JONSWAP, SPREADING_AUTO, 12.0);
    nv_spectrum_model deep = model(SPECTRUM_TMA, SPREADING_AUTO, 12.0);
    deep.depth = 1e4;
    /* very deep TMA is JONSWAP */
    ASSERT_NEAR_REL(nv_spectrum_m0(&deep), nv_spectrum_m0(&j), 1e-6);
    /* Phi(w_h) = w_h^2 / 2 below w_h = 1: at w = 0.5 sqrt(g / h), S / S_J = 1/8 */
    nv_spectrum_model tma = model(SPECTRUM_TMA, SPREADING_AUTO, 12.0);
    tma.depth = 5.0;
    double w = 0.5 * sqrt(G / 5.0);
    ASSERT_NEAR_REL(nv_spectrum_omega_density(&tma, w), 0.125 * nv_spectrum_omega_density(&j, w), 1e-12);
    /* continuous at w_h = 2 */
    double w2 = 2.0 * sqrt(G / 5.0);
    ASSERT_NEAR_REL(nv_spectrum_omega_density(&tma, w2 * (1.0 - 1e-9)), nv_spectrum_omega_density(&j, w2), 1e-7);
    assert_true(nv_spectrum_m0(&tma) < 0.9 * nv_spectrum_m0(&j));
    /* in finite depth, m0 computed in k (with the depth's dw/dk) equals the
     * integral over omega: checks the dispersion change of variables */
    ASSERT_NEAR_REL(nv_spectrum_m0(&tma), omega_integral(&tma, 1e-3, 60.0), 1e-4);
    nv_spectrum_model ph = model(SPECTRUM_PHILLIPS, SPREADING_AUTO, 12.0);
    ph.depth = 3.0;
    ASSERT_NEAR_REL(nv_spectrum_m0(&ph), omega_integral(&ph, 1e-3, 60.0), 1e-3);
}

static void test_sea_state_tables(void** state) {
    (void)state;
    for (int b = 1; b <= 12; b++) {
        assert_true(nv_spectrum_beaufort_wind(b) > nv_spectrum_beaufort_wind(b - 1));
        assert_true(nv_spectrum_beaufort_hs(b) > nv_spectrum_beaufort_hs(b - 1));
    }
    assert_true(nv_spectrum_beaufort_wind(0) == 0.0);
    assert_true(nv_spectrum_beaufort_wind(13) < 0.0 && nv_spectrum_beaufort_wind(-1) < 0.0);
    /* Beaufort 6: 10.8 - 13.8 m/s */
    assert_true(nv_spectrum_beaufort_wind(6) >= 10.8 && nv_spectrum_beaufort_wind(6) <= 13.8);
    /* wind_for_hs inverts PM, in U10 */
    double u = nv_spectrum_wind_for_hs(3.0, G);
    ASSERT_NEAR_REL(u, sqrt(3.0 * G / 0.209) / 1.075, 2e-3);
    nv_spectrum_model m = model(SPECTRUM_PIERSON_MOSKOWITZ, SPREADING_AUTO, u);
    ASSERT_NEAR_REL(4.0 * sqrt(nv_spectrum_m0(&m)), 3.0, 1e-4);
    /* the default peak period of a sea given by Hs: DNV's 3.6 sqrt(Hs), Hs / Lp = 1 / 20.2 */
    ASSERT_NEAR_REL(nv_spectrum_min_peak_period(10.0, G), 3.6 * sqrt(10.0), 1e-12);
    double tp = nv_spectrum_min_peak_period(14.0, G);
    ASSERT_NEAR_REL(14.0 / (G * tp * tp / (2.0 * NV_PI)), 1.0 / 20.2, 2e-3);
}

static void test_gaussian_hash(void** state) {
    (void)state;
    double a[2], b[2];
    nv_spectrum_gaussian_pair(7, 1, -3, 12, a);
    nv_spectrum_gaussian_pair(7, 1, -3, 12, b);
    assert_true(a[0] == b[0] && a[1] == b[1]);
    nv_spectrum_gaussian_pair(7, 1, 3, -12, b);
    assert_true(a[0] != b[0]);
    nv_spectrum_gaussian_pair(7, 2, -3, 12, b);
    assert_true(a[0] != b[0]);
    nv_spectrum_gaussian_pair(8, 1, -3, 12, b);
    assert_true(a[0] != b[0]);
    /* standard normal pairs, uncorrelated, also between neighbours */
    double s1 = 0.0, s2 = 0.0, s11 = 0.0, s22 = 0.0, s12 = 0.0, snb = 0.0;
    int count = 0;
    double prev = 0.0;
    for (int n = -80; n < 80; n++) {
        for (int m = -80; m < 80; m++) {
            double g[2];
            nv_spectrum_gaussian_pair(42, 0, n, m, g);
            s1 += g[0];
            s2 += g[1];
            s11 += g[0] * g[0];
            s22 += g[1] * g[1];
            s12 += g[0] * g[1];
            snb += g[0] * prev;
            prev = g[0];
            count++;
        }
    }
    ASSERT_NEAR_ABS(s1 / count, 0.0, 0.025);
    ASSERT_NEAR_ABS(s2 / count, 0.0, 0.025);
    ASSERT_NEAR_ABS(s11 / count, 1.0, 0.03);
    ASSERT_NEAR_ABS(s22 / count, 1.0, 0.03);
    ASSERT_NEAR_ABS(s12 / count, 0.0, 0.025);
    ASSERT_NEAR_ABS(snb / count, 0.0, 0.025);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pierson_moskowitz_closed_form),
        cmocka_unit_test(test_jonswap_closed_form),
        cmocka_unit_test(test_jonswap_fully_developed),
        cmocka_unit_test(test_phillips_closed_form),
        cmocka_unit_test(test_spreading_normalised),
        cmocka_unit_test(test_cos2s_norm),
        cmocka_unit_test(test_density_2d_integrates_to_m0),
        cmocka_unit_test(test_dispersion),
        cmocka_unit_test(test_tma_depth),
        cmocka_unit_test(test_sea_state_tables),
        cmocka_unit_test(test_gaussian_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
