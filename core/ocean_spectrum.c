// SPDX-License-Identifier: MIT
#include "naval/ocean_spectrum.h"

#include <math.h>

#include "naval/vecmath.h"

#define PHILLIPS_ALPHA 0.0081
#define PM_ALPHA 0.0081
#define PM_BETA 0.74

/* ---------------------------------------------------------------- model */

/* Pierson-Moskowitz's peak, 0.877 g / U19.5, from U10. */
static double pm_omega_p(double u10, double g) { return pow(0.8 * PM_BETA, 0.25) * g / (SPECTRUM_U195_PER_U10 * u10); }

/* g F / U10^2 at which Hasselmann's w_p = 22 X^-1/3 g / U10 reaches PM's. */
static double fully_developed_chi(void) {
    return pow(22.0 * SPECTRUM_U195_PER_U10 / pow(0.8 * PM_BETA, 0.25), 3.0);
}

/* J(gamma) = integral over x = w / w_p of x^-5 exp(-1.25 x^-4) gamma^r(x) dx,
 * so that the deep JONSWAP m0 is alpha g^2 J / w_p^4 (J(1) = 1/5 exactly):
 * 1/5 plus the peak's excess, which lives in 0.5 < x < 2 (r < 1e-11 beyond),
 * by Simpson on each side of x = 1, where sigma switches. */
static double jonswap_shape_integral(double gamma) {
    if (!(gamma > 1.0)) return 0.2;
    double lg = log(gamma), excess = 0.0;
    for (int side = 0; side < 2; side++) {
        double a = side ? 1.0 : 0.5, b = side ? 2.0 : 1.0, sigma = side ? 0.09 : 0.07;
        const int n = 400;
        double h = (b - a) / n, part = 0.0;
        for (int i = 0; i <= n; i++) {
            double x = a + h * i, d = (x - 1.0) / sigma, x4 = x * x * x * x;
            double f = exp(-1.25 / x4) / (x4 * x) * expm1(lg * exp(-0.5 * d * d));
            part += f * (i == 0 || i == n ? 1.0 : (i & 1) ? 4.0 : 2.0);
        }
        excess += part * h / 3.0;
    }
    return 0.2 + excess;
}

double nv_spectrum_fully_developed_fetch(double wind_speed, double gravity) {
    if (!(wind_speed > 0.0) || !(gravity > 0.0)) return 0.0;
    return fully_developed_chi() * wind_speed * wind_speed / gravity;
}

double nv_spectrum_min_peak_period(double hs, double gravity) {
    if (!(hs > 0.0) || !(gravity > 0.0)) return 0.0;
    return sqrt(2.0 * NV_PI * hs / (gravity * SPECTRUM_MAX_STEEPNESS));
}

void nv_spectrum_model_prepare(nv_spectrum_model* m) {
    double g = m->gravity, u = m->wind_speed;
    if (m->spreading == SPREADING_AUTO)
        m->spreading = m->type == SPECTRUM_PHILLIPS ? SPREADING_COS2 : SPREADING_MITSUYASU;
    m->alpha = 0.0;
    m->omega_p = 0.0;
    m->phillips_l = 0.0;
    if (!(u > 0.0) || !(g > 0.0)) return; /* no wind: flat sea */
    switch (m->type) {
    case SPECTRUM_PHILLIPS: {
        m->alpha = PHILLIPS_ALPHA;
        m->phillips_l = u * u / g;
        /* peak of k^-3 exp(-1/(kL)^2): k = sqrt(2/3) / L */
        double kp = sqrt(2.0 / 3.0) / m->phillips_l;
        m->omega_p = nv_spectrum_dispersion(kp, m->depth, g);
        break;
    }
    case SPECTRUM_PIERSON_MOSKOWITZ:
        m->alpha = PM_ALPHA;
        m->omega_p = m->peak_period > 0.0 ? 2.0 * NV_PI / m->peak_period : pm_omega_p(u, g); /* 0.877 g / U19.5 */
        break;
    case SPECTRUM_JONSWAP:
    case SPECTRUM_TMA:
        if (m->fetch > 0.0) {
            double wp_fd = pm_omega_p(u, g);
            m->alpha = 0.076 * pow(u * u / (g * m->fetch), 0.22);
            m->omega_p = 22.0 * cbrt(g * g / (u * m->fetch));
            if (m->omega_p < wp_fd) { /* past the fully developed fetch: the peak stops at PM's */
                m->alpha = 0.076 * pow(fully_developed_chi(), -0.22);
                m->omega_p = wp_fd;
            }
            if (m->peak_period > 0.0) {
                m->omega_p = 2.0 * NV_PI / m->peak_period;
            } else {
                /* nor does the energy grow past PM's: alpha J / w_p^4 <= alpha_PM / (5 w_pm^4) */
                double r = wp_fd / m->omega_p;
                double excess = m->alpha * jonswap_shape_integral(m->gamma) / (PM_ALPHA * 0.2) * (r * r * r * r);
                if (excess > 1.0) m->alpha /= excess;
            }
        }
        break;
    }
}

/* ----------------------------------------------------------- dispersion */

double nv_spectrum_dispersion(double k, double depth, double gravity) {
    if (!(k > 0.0)) return 0.0;
    if (depth > 0.0) return sqrt(gravity * k * tanh(k * depth));
    return sqrt(gravity * k);
}

double nv_spectrum_dispersion_derivative(double k, double depth, double gravity) {
    if (!(k > 0.0)) {
        /* limit k -> 0: deep water diverges, shallow tends to sqrt(g h) */
        return depth > 0.0 ? sqrt(gravity * depth) : 0.0;
    }
    double w = nv_spectrum_dispersion(k, depth, gravity);
    if (!(w > 0.0)) return 0.0;
    if (depth > 0.0) {
        double kh = k * depth;
        double th = tanh(kh);
        double sech = 1.0 / cosh(kh); /* cosh may overflow to inf: sech 0, fine */
        return gravity * (th + kh * sech * sech) / (2.0 * w);
    }
    return gravity / (2.0 * w);
}

/* Inverse of the dispersion relation (Newton from the deep-water guess). */
static double spectrum_wavenumber(double omega, double depth, double gravity) {
    if (!(omega > 0.0)) return 0.0;
    double k = omega * omega / gravity;
    if (!(depth > 0.0)) return k;
    /* shallow guess when the deep one is far out of depth */
    double ks = omega / sqrt(gravity * depth);
    if (ks > k) k = ks;
    for (int i = 0; i < 60; i++) {
        double f = nv_spectrum_dispersion(k, depth, gravity) - omega;
        double df = nv_spectrum_dispersion_derivative(k, depth, gravity);
        if (!(df > 0.0)) break;
        double step = f / df;
        double kn = k - step;
        if (kn <= 0.0) kn = 0.5 * k;
        if (fabs(kn - k) <= 1e-14 * k) {
            k = kn;
            break;
        }
        k = kn;
    }
    return k;
}

/* --------------------------------------------------------------- spectra */

static double tma_factor(double omega, double depth, double gravity) {
    if (!(depth > 0.0)) return 1.0;
    double wh = omega * sqrt(depth / gravity);
    if (wh <= 1.0) return 0.5 * wh * wh;
    if (wh < 2.0) return 1.0 - 0.5 * (2.0 - wh) * (2.0 - wh);
    return 1.0;
}

/* Phillips' k-native omnidirectional spectrum, without scale. */
static double phillips_k(const nv_spectrum_model* m, double k) {
    if (!(k > 0.0) || !(m->phillips_l > 0.0)) return 0.0;
    double kl = k * m->phillips_l;
    double e = -1.0 / (kl * kl);
    if (e < -700.0) return 0.0;
    return 0.5 * m->alpha * exp(e) / (k * k * k);
}

/* Frequency-native spectra (PM, JONSWAP, TMA), without scale. */
static double omega_native(const nv_spectrum_model* m, double w) {
    if (!(w > 0.0) || !(m->omega_p > 0.0)) return 0.0;
    double g = m->gravity;
    double r = m->omega_p / w;
    double r4 = r * r * r * r;
    double w5 = w * w * w * w * w;
    if (m->type == SPECTRUM_PIERSON_MOSKOWITZ) {
        double e = -1.25 * r4; /* 0.74 (g/(U w))^4 = 1.25 (w_p / w)^4 */
        if (e < -700.0) return 0.0;
        return m->alpha * g * g / w5 * exp(e);
    }
    double e = -1.25 * r4;
    if (e < -700.0) return 0.0;
    double sigma = w <= m->omega_p ? 0.07 : 0.09;
    double d = (w - m->omega_p) / (sigma * m->omega_p);
    double peak = pow(m->gamma > 1.0 ? m->gamma : 1.0, exp(-0.5 * d * d));
    double s = m->alpha * g * g / w5 * exp(e) * peak;
    if (m->type == SPECTRUM_TMA) s *= tma_factor(w, m->depth, g);
    return s;
}

double nv_spectrum_omega_density(const nv_spectrum_model* m, double omega) {
    if (!(omega > 0.0)) return 0.0;
    if (m->type == SPECTRUM_PHILLIPS) {
        double k = spectrum_wavenumber(omega, m->depth, m->gravity);
        double dwdk = nv_spectrum_dispersion_derivative(k, m->depth, m->gravity);
        if (!(dwdk > 0.0)) return 0.0;
        return m->scale * phillips_k(m, k) / dwdk;
    }
    return m->scale * omega_native(m, omega);
}

double nv_spectrum_k_density(const nv_spectrum_model* m, double k) {
    if (!(k > 0.0)) return 0.0;
    if (m->type == SPECTRUM_PHILLIPS) return m->scale * phillips_k(m, k);
    double w = nv_spectrum_dispersion(k, m->depth, m->gravity);
    return m->scale * omega_native(m, w) * nv_spectrum_dispersion_derivative(k, m->depth, m->gravity);
}

/* ------------------------------------------------------------ spreading */

double nv_spectrum_cos2s_norm(double s) {
    if (!(s > 0.0)) return 1.0 / (2.0 * NV_PI);
    double ratio; /* Gamma(s+1) / Gamma(s+1/2) */
    if (s < 140.0) {
        ratio = tgamma(s + 1.0) / tgamma(s + 0.5);
    } else {
        double is = 1.0 / s;
        ratio = sqrt(s) * (1.0 + is * (1.0 / 8.0 + is * (1.0 / 128.0 - is * (5.0 / 1024.0))));
    }
    return ratio / (2.0 * sqrt(NV_PI));
}

static double wrap_angle(double a) {
    a = fmod(a, 2.0 * NV_PI);
    if (a > NV_PI) a -= 2.0 * NV_PI;
    if (a < -NV_PI) a += 2.0 * NV_PI;
    return a;
}

double nv_spectrum_spreading(const nv_spectrum_model* m, double omega, double theta) {
    double iso = 1.0 / (2.0 * NV_PI);
    theta = wrap_angle(theta);
    switch (m->spreading) {
    case SPREADING_AUTO: /* unresolved (model not prepared): isotropic */
        return iso;
    case SPREADING_COS2: {
        double c = cos(theta);
        return c * c / NV_PI;
    }
    case SPREADING_MITSUYASU: {
        if (!(m->omega_p > 0.0) || !(omega > 0.0) || !(m->wind_speed > 0.0)) return iso;
        double r = omega / m->omega_p;
        double sp = 11.5 * pow(m->gravity / (m->omega_p * m->wind_speed), 2.5);
        double s = r <= 1.0 ? sp * pow(r, 5.0) : sp * pow(r, -2.5);
        s += 16.0 * tanh(1.0 / r) * m->swell * m->swell;
        double c = fabs(cos(0.5 * theta));
        return nv_spectrum_cos2s_norm(s) * pow(c, 2.0 * s);
    }
    case SPREADING_DONELAN_BANNER: {
        if (!(m->omega_p > 0.0) || !(omega > 0.0)) return iso;
        double r = omega / m->omega_p;
        double beta;
        if (r < 0.95)
            beta = 2.61 * pow(r, 1.3);
        else if (r < 1.6)
            beta = 2.28 * pow(r, -0.65);
        else
            beta = pow(10.0, -0.4 + 0.8393 * exp(-0.567 * log(r * r)));
        if (beta < 1e-6) return iso;
        double sech = 1.0 / cosh(beta * theta);
        return beta / (2.0 * tanh(beta * NV_PI)) * sech * sech;
    }
    }
    return iso;
}

double nv_spectrum_density_2d(const nv_spectrum_model* m, double kx, double kz, double wind_dir) {
    double k = sqrt(kx * kx + kz * kz);
    if (!(k > 0.0)) return 0.0;
    double sk = nv_spectrum_k_density(m, k);
    if (!(sk > 0.0)) return 0.0;
    double w = nv_spectrum_dispersion(k, m->depth, m->gravity);
    double theta = atan2(kz, kx) - wind_dir;
    return sk * nv_spectrum_spreading(m, w, theta) / k;
}

/* ------------------------------------------------------------- moments */

double nv_spectrum_m0_band(const nv_spectrum_model* m, double k_lo, double k_hi) {
    if (!(m->omega_p > 0.0) || !(m->scale > 0.0)) return 0.0;
    double kp = m->omega_p * m->omega_p / m->gravity;
    double lo = kp * 1e-4, hi = kp * 1e6;
    if (k_lo > lo) lo = k_lo;
    if (k_hi < hi) hi = k_hi;
    if (!(hi > lo)) return 0.0;
    /* Simpson in ln k: integral S(k) dk = integral S(k) k d(ln k) */
    double span = log(hi / lo);
    int n = (int)ceil(span / 0.004);
    if (n < 2) n = 2;
    if (n & 1) n++;
    double h = span / n, sum = 0.0;
    for (int i = 0; i <= n; i++) {
        double k = lo * exp(h * i);
        double f = nv_spectrum_k_density(m, k) * k;
        sum += f * (i == 0 || i == n ? 1.0 : (i & 1) ? 4.0 : 2.0);
    }
    return sum * h / 3.0;
}

double nv_spectrum_m0(const nv_spectrum_model* m) { return nv_spectrum_m0_band(m, 0.0, INFINITY); }

double nv_spectrum_peak_omega(const nv_spectrum_model* m) {
    if (!(m->omega_p > 0.0)) return 0.0;
    /* coarse log scan around the formula's peak, then golden section */
    double lo = m->omega_p / 8.0, hi = m->omega_p * 8.0;
    int n = 2000;
    double ratio = pow(hi / lo, 1.0 / n);
    double best_w = m->omega_p, best_s = -1.0;
    for (int i = 0; i <= n; i++) {
        double w = lo * pow(ratio, i);
        double s = nv_spectrum_omega_density(m, w);
        if (s > best_s) {
            best_s = s;
            best_w = w;
        }
    }
    double a = best_w / ratio, b = best_w * ratio;
    const double gr = 0.5 * (sqrt(5.0) - 1.0);
    double c = b - gr * (b - a), d = a + gr * (b - a);
    double fc = nv_spectrum_omega_density(m, c), fd = nv_spectrum_omega_density(m, d);
    for (int i = 0; i < 60; i++) {
        if (fc > fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - gr * (b - a);
            fc = nv_spectrum_omega_density(m, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + gr * (b - a);
            fd = nv_spectrum_omega_density(m, d);
        }
    }
    return 0.5 * (a + b);
}

/* ------------------------------------------------------------ sea state */

static const double beaufort_wind[13] = {0.0,  0.9,   2.45, 4.4,   6.7,   9.35, 12.3,
                                         15.5, 18.95, 22.6, 26.45, 30.55, 35.0};
static const double beaufort_hs[13] = {0.0, 0.1, 0.2, 0.6, 1.0, 2.0, 3.0, 4.0, 5.5, 7.0, 9.0, 11.5, 14.0};

double nv_spectrum_beaufort_wind(int beaufort) {
    if (beaufort < 0 || beaufort > 12) return -1.0;
    return beaufort_wind[beaufort];
}

double nv_spectrum_beaufort_hs(int beaufort) {
    if (beaufort < 0 || beaufort > 12) return -1.0;
    return beaufort_hs[beaufort];
}

double nv_spectrum_wind_for_hs(double hs, double gravity) {
    if (!(hs > 0.0) || !(gravity > 0.0)) return 0.0;
    /* PM: Hs = 4 sqrt(alpha / (4 beta)) U19.5^2 / g = 0.209 U19.5^2 / g */
    double c = 4.0 * sqrt(PM_ALPHA / (4.0 * PM_BETA));
    return sqrt(hs * gravity / c) / SPECTRUM_U195_PER_U10;
}

/* --------------------------------------------------------------- random */

uint64_t nv_spectrum_hash64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

void nv_spectrum_gaussian_pair(uint64_t seed, int cascade, int n, int m, double out[2]) {
    uint64_t h = nv_spectrum_hash64(seed);
    h = nv_spectrum_hash64(h ^ (uint64_t)(uint32_t)cascade);
    h = nv_spectrum_hash64(h ^ (((uint64_t)(uint32_t)n << 32) | (uint64_t)(uint32_t)m));
    uint64_t a = nv_spectrum_hash64(h), b = nv_spectrum_hash64(h ^ 0xD1B54A32D192ED03ull);
    double u1 = 1.0 - (double)(a >> 11) * 0x1.0p-53; /* (0, 1] */
    double u2 = (double)(b >> 11) * 0x1.0p-53;       /* [0, 1) */
    double r = sqrt(-2.0 * log(u1));
    out[0] = r * cos(2.0 * NV_PI * u2);
    out[1] = r * sin(2.0 * NV_PI * u2);
}
