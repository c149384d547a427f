// SPDX-License-Identifier: MIT
/* The regressions are Kawahara, Maekawa and Ikeda's (2009, "A simple
 * prediction formula of roll damping of conventional cargo ships on the
 * basis of Ikeda's method and its limitation", J. Shipping and Ocean Eng.;
 * their Fortran of 2009-07-08), the speed corrections and the lift term
 * Ikeda, Himeno and Tanaka's (1978, "Components of roll damping of ship at
 * forward speed", J. SNAJ). OG is Ikeda's: + when the CG is below the
 * waterline. docs/hydrodynamics.md lists the ranges and the fallback. */
#include "naval/roll_damping.h"

#include <math.h>
#include <string.h>

#include "naval/vecmath.h"

/* The regressions' range (Kawahara et al., Table 1). */
#define ROLL_CB_MIN 0.5
#define ROLL_CB_MAX 0.85
#define ROLL_BD_MIN 2.5
#define ROLL_BD_MAX 4.5
#define ROLL_OGD_MIN -1.5
#define ROLL_OGD_MAX 0.2
#define ROLL_CM_MIN 0.9
#define ROLL_CM_MAX 0.99
#define ROLL_OMEGA_HAT_MAX 1.0
#define ROLL_BBKB_MIN 0.01
#define ROLL_BBKB_MAX 0.06
#define ROLL_LBKL_MIN 0.05
#define ROLL_LBKL_MAX 0.4
#define ROLL_REFERENCE_AMPLITUDE NV_ROLL_REFERENCE_AMPLITUDE

static double roll_clamp(double v, double lo, double hi, int* clamped) {
    if (v < lo) return *clamped = 1, lo;
    if (v > hi) return *clamped = 1, hi;
    return v;
}

/* Non-dimensional wave damping (KMI 2009, eq. for B_W0). */
static double roll_wave_hat(double x1, double x2, double x3, double x4, double x5) {
    double a111 = -0.002222 * pow(x1, 3) + 0.040871 * x1 * x1 - 0.286866 * x1 + 0.599424;
    double a112 = 0.010185 * pow(x1, 3) - 0.161176 * x1 * x1 + 0.904989 * x1 - 1.641389;
    double a113 = -0.015422 * pow(x1, 3) + 0.220371 * x1 * x1 - 1.084987 * x1 + 1.834167;
    double a121 = -0.0628667 * pow(x1, 4) + 0.4989259 * pow(x1, 3) + 0.52735 * x1 * x1 - 10.7918672 * x1 + 16.616327;
    double a122 = 0.1140667 * pow(x1, 4) - 0.8108963 * pow(x1, 3) - 2.2186833 * x1 * x1 + 25.1269741 * x1 - 37.7729778;
    double a123 = -0.0589333 * pow(x1, 4) + 0.2639704 * pow(x1, 3) + 3.1949667 * x1 * x1 - 21.8126569 * x1 + 31.4113508;
    double a124 = 0.0107667 * pow(x1, 4) + 0.0018704 * pow(x1, 3) - 1.2494083 * x1 * x1 + 6.9427931 * x1 - 10.2018992;
    double a131 = 0.192207 * pow(x1, 3) - 2.787462 * x1 * x1 + 12.507855 * x1 - 14.764856;
    double a132 = -0.350563 * pow(x1, 3) + 5.222348 * x1 * x1 - 23.974852 * x1 + 29.007851;
    double a133 = 0.237096 * pow(x1, 3) - 3.535062 * x1 * x1 + 16.368376 * x1 - 20.539908;
    double a134 = -0.067119 * pow(x1, 3) + 0.966362 * x1 * x1 - 4.407535 * x1 + 5.894703;
    double a11 = a111 * x2 * x2 + a112 * x2 + a113;
    double a12 = a121 * pow(x2, 3) + a122 * x2 * x2 + a123 * x2 + a124;
    double a13 = a131 * pow(x2, 3) + a132 * x2 * x2 + a133 * x2 + a134;
    double aa111 = 17.945 * pow(x1, 3) - 166.294 * x1 * x1 + 489.799 * x1 - 493.142;
    double aa112 = -25.507 * pow(x1, 3) + 236.275 * x1 * x1 - 698.683 * x1 + 701.494;
    double aa113 = 9.077 * pow(x1, 3) - 84.332 * x1 * x1 + 249.983 * x1 - 250.787;
    double aa121 = -16.872 * pow(x1, 3) + 156.399 * x1 * x1 - 460.689 * x1 + 463.848;
    double aa122 = 24.015 * pow(x1, 3) - 222.507 * x1 * x1 + 658.027 * x1 - 660.665;
    double aa123 = -8.56 * pow(x1, 3) + 79.549 * x1 * x1 - 235.827 * x1 + 236.579;
    double aa11 = aa111 * x2 * x2 + aa112 * x2 + aa113;
    double aa12 = aa121 * x2 * x2 + aa122 * x2 + aa123;
    double aa1 = (aa11 * x3 + aa12) * (1.0 - x4) + 1.0;
    double a1 = (a11 * x4 * x4 + a12 * x4 + a13) * aa1;
    double a2 = -1.402 * pow(x4, 3) + 7.189 * x4 * x4 - 10.993 * x4 + 9.45;
    /* A3's sextics in Cb */
    static const double a3c[7][7] = {
        {-7686.0287, 30131.5678, -49048.9664, 42480.7709, -20665.147, 5355.2035, -577.8827},
        {61639.9103, -241201.0598, 392579.5937, -340629.4699, 166348.6917, -43358.7938, 4714.7918},
        {-130677.4903, 507996.2604, -826728.7127, 722677.104, -358360.7392, 95501.4948, -10682.8619},
        {-110034.6584, 446051.22, -724186.4643, 599411.9264, -264294.7189, 58039.7328, -4774.6414},
        {709672.0656, -2803850.2395, 4553780.5017, -3888378.9905, 1839829.259, -457313.6939, 46600.823},
        {-822735.9289, 3238899.7308, -5256636.5472, 4500543.147, -2143487.3508, 538548.1194, -55751.1528},
        {299122.8727, -1175773.1606, 1907356.1357, -1634256.8172, 780020.9393, -196679.7143, 20467.0904},
    };
    double a3i[7];
    for (int i = 0; i < 7; i++) {
        double v = 0.0;
        for (int k = 0; k < 7; k++) v = v * x2 + a3c[i][k];
        a3i[i] = v;
    }
    double aa311 = (-17.102 * pow(x2, 3) + 41.495 * x2 * x2 - 33.234 * x2 + 8.8007) * x4 + 36.566 * pow(x2, 3) -
                   89.203 * x2 * x2 + 71.8 * x2 - 18.108;
    double aa31 = (-0.3767 * pow(x1, 3) + 3.39 * x1 * x1 - 10.356 * x1 + 11.588) * aa311;
    double aa32 = -0.0727 * x1 * x1 + 0.7 * x1 - 1.2818;
    double xx4 = x4 - aa32;
    static const double p9[10] = {-1.05584, 12.688, -63.70534, 172.84571, -274.05701, 257.68705, -141.40915, 44.13177, -7.1654, 0.0};
    double poly = 0.0;
    for (int k = 0; k < 10; k++) poly = poly * xx4 + p9[k];
    double aa3 = aa31 * (poly - 0.0495 * x1 * x1 + 0.4518 * x1 - 0.61655);
    double a3 = a3i[0] * pow(x4, 6) + a3i[1] * pow(x4, 5) + a3i[2] * pow(x4, 4) + a3i[3] * pow(x4, 3) + a3i[4] * x4 * x4 +
                a3i[5] * x4 + a3i[6] + aa3;
    double l = log(x5) - a3;
    return a1 / x5 * exp(-a2 * l * l / 1.44);
}

/* Non-dimensional eddy damping at zero speed; phi in radians. */
static double roll_eddy_hat(double cb, double bd, double ogd, double cm, double omega_hat, double phi) {
    double fe1 = (-0.0182 * cb + 0.0155) * pow(bd - 1.8, 3);
    double fe2 = -79.414 * pow(cb, 4) + 215.695 * pow(cb, 3) - 215.883 * cb * cb + 93.894 * cb - 14.848;
    double ae = fe1 + fe2;
    double be1 = (3.98 * cb - 5.1525) * (-0.2 * bd + 1.6) * ogd *
                 ((0.9717 * cb * cb - 1.55 * cb + 0.723) * ogd + 0.04567 * cb + 0.9408);
    double be2 = (0.25 * ogd + 0.95) * ogd - 219.2 * pow(cb, 3) + 443.7 * cb * cb - 283.3 * cb + 59.6;
    double be3 = -15.0 * cb * bd + 46.5 * cb + 11.2 * bd - 28.6;
    double cr = ae * exp(be1 + be2 * pow(cm, be3));
    return 4.0 * omega_hat * phi / (3.0 * NV_PI * cb * pow(bd, 3)) * cr;
}

/* Non-dimensional bilge-keel damping; phi in degrees (the regression's unit). */
static double roll_bilge_keel_hat(double cb, double bd, double ogd, double cm, double omega_hat, double phi_deg,
                                  double bbkb, double lbkl) {
    double fbk1 = (-0.3651 * cb + 0.3907) * (bd - 2.83) * (bd - 2.83) - 2.21 * cb + 2.632;
    double fbk2 = 0.00255 * phi_deg * phi_deg + 0.122 * phi_deg + 0.4794;
    double fbk3 = (-0.8913 * bbkb * bbkb - 0.0733 * bbkb) * lbkl * lbkl + (5.2857 * bbkb * bbkb - 0.01185 * bbkb + 0.00189) * lbkl;
    double bbk1 = (5.0 * bbkb + 0.3 * bd - 0.2 * lbkl + 0.00125 * phi_deg * phi_deg - 0.0425 * phi_deg - 1.86) * ogd;
    double bbk2 = -15.0 * bbkb + 1.2 * cb - 0.1 * bd - 0.0657 * ogd * ogd + 0.0586 * ogd + 1.6164;
    double bbk3 = 2.5 * ogd + 15.75;
    return fbk1 * fbk2 * fbk3 * exp(bbk1 + bbk2 * pow(cm, bbk3)) * omega_hat;
}

/* Ikeda's hull lift damping per m/s of speed (N m s per m/s). */
static double roll_lift_per_speed(const nv_particulars* p, double rho) {
    double d = p->draft, L = p->length, og = p->og;
    double kappa = p->midship <= 0.92 ? 0.0 : p->midship <= 0.97 ? 0.1 : 0.3;
    double kn = 2.0 * NV_PI * d / L + kappa * (4.1 * p->beam / L - 0.045);
    double lo = 0.3 * d, lr = 0.5 * d;
    double arm = 1.0 - 1.4 * og / lr + 0.7 * og * og / (lo * lr);
    double b = 0.5 * rho * L * d * kn * lo * lr * arm;
    return b > 0.0 ? b : 0.0;
}

/* Ikeda's eddy reduction with forward speed: (0.04 K)^2 / (1 + (0.04 K)^2), K = omega L / U. */
static double roll_eddy_speed_factor(double omega_l, double u) {
    if (!(u > 0.0)) return 1.0;
    double k = 0.04 * omega_l / u;
    return k * k / (1.0 + k * k);
}

void nv_roll_damping_ikeda(const nv_particulars* p, const nv_roll_damping_case* c, nv_roll_damping_estimate* out) {
    memset(out, 0, sizeof *out);
    double rho = c->water_density, g = c->gravity;
    double L = p->length, B = p->beam, d = p->draft, V = p->volume;
    double omega = c->omega > 0.0 ? c->omega : p->roll_omega;
    double phi = c->amplitude, u = c->speed > 0.0 ? c->speed : 0.0;
    if (!(L > 0.0 && B > 0.0 && d > 0.0 && V > 0.0 && omega > 0.0 && phi > 0.0 && rho > 0.0 && g > 0.0)) return;
    int clamped = 0;
    double cb = roll_clamp(p->block, ROLL_CB_MIN, ROLL_CB_MAX, &clamped);
    double bd = roll_clamp(B / d, ROLL_BD_MIN, ROLL_BD_MAX, &clamped);
    double ogd = roll_clamp(p->og / d, ROLL_OGD_MIN, ROLL_OGD_MAX, &clamped);
    double cm = roll_clamp(p->midship, ROLL_CM_MIN, ROLL_CM_MAX, &clamped);
    double omega_hat = roll_clamp(omega * sqrt(B / (2.0 * g)), 1e-3, ROLL_OMEGA_HAT_MAX, &clamped);
    /* B44 = B44_hat rho V B^2 / sqrt(B / (2 g)) */
    double scale = rho * V * B * B / sqrt(B / (2.0 * g));

    /* Friction (Kato), dimensional with the hull's own figures. */
    double rf = d * ((0.887 + 0.145 * p->block) * (1.7 + p->block * B / d) - 2.0 * p->og / d) / NV_PI;
    if (rf < 0.1 * d) rf = 0.1 * d;
    double sf = L * (1.75 * d + p->block * B);
    double period = 2.0 * NV_PI / omega;
    double nu = c->viscosity > 0.0 ? c->viscosity : 1.14e-6;
    double cf = 1.328 / sqrt(3.22 * rf * rf * phi * phi / (period * nu));
    out->friction = 4.0 / (3.0 * NV_PI) * rho * sf * rf * rf * rf * phi * omega * cf * (1.0 + 4.1 * u / (omega * L));

    out->wave = roll_wave_hat(bd, cb, cm, 1.0 - ogd, omega_hat) * scale;
    out->eddy = roll_eddy_hat(cb, bd, ogd, cm, omega_hat, phi) * scale * roll_eddy_speed_factor(omega * L, u);
    out->lift = roll_lift_per_speed(p, rho) * u;
    if (c->bilge_keel_length > 0.0 && c->bilge_keel_breadth > 0.0) {
        double bbkb = roll_clamp(c->bilge_keel_breadth / B, ROLL_BBKB_MIN, ROLL_BBKB_MAX, &clamped);
        double lbkl = roll_clamp(c->bilge_keel_length / L, ROLL_LBKL_MIN, ROLL_LBKL_MAX, &clamped);
        out->bilge_keels = roll_bilge_keel_hat(cb, bd, ogd, cm, omega_hat, phi * 180.0 / NV_PI, bbkb, lbkl) * scale;
    }
    out->total = out->friction + out->wave + out->eddy + out->lift + out->bilge_keels;
    out->total_hat = out->total / scale;
    double inertia = p->roll_inertia * (1.0 + p->added_roll);
    out->zeta = inertia > 0.0 ? out->total / (2.0 * omega * inertia) : 0.0;
    out->in_range = !clamped;
}

void nv_roll_damper_from_ikeda(nv_roll_damper* d, const nv_particulars* p, double bilge_keel_length,
                               double bilge_keel_breadth, double triangles, double water_density, double gravity,
                               double viscosity) {
    memset(d, 0, sizeof *d);
    if (!(p->roll_omega > 0.0)) return; /* no upright stability: nothing to linearise about */
    nv_roll_damping_case c = {.amplitude = ROLL_REFERENCE_AMPLITUDE,
                              .omega = p->roll_omega,
                              .speed = 0.0,
                              .bilge_keel_length = bilge_keel_length,
                              .bilge_keel_breadth = bilge_keel_breadth,
                              .water_density = water_density,
                              .gravity = gravity,
                              .viscosity = viscosity};
    nv_roll_damping_estimate e;
    nv_roll_damping_ikeda(p, &c, &e);
    /* B_eq = (8 / (3 pi)) omega phi_a B_2 for a quadratic B_2 |p| p. */
    double to_quadratic = 3.0 * NV_PI / (8.0 * p->roll_omega * ROLL_REFERENCE_AMPLITUDE);
    /* The triangles stand for the wave and friction parts. What they lack
     * is added as linear damping; what they give beyond it comes off the
     * eddy and bilge-keel parts, so that triangles and damper together give
     * Ikeda's total at the reference amplitude (never less than the
     * triangles alone). */
    double missing = e.wave + e.friction - triangles;
    double quadratic_eq = e.eddy + e.bilge_keels;
    if (missing >= 0.0) {
        d->linear = missing;
    } else {
        quadratic_eq += missing;
        if (quadratic_eq < 0.0) quadratic_eq = 0.0;
    }
    d->quadratic = quadratic_eq * to_quadratic;
    d->triangles = triangles;
    d->lift = roll_lift_per_speed(p, water_density);
    d->eddy_k = p->roll_omega * p->length;
    d->wetted_area = p->wetted_area;
}

void nv_roll_damper_explicit(nv_roll_damper* d, double linear, double quadratic, double wetted_area) {
    memset(d, 0, sizeof *d);
    d->linear = linear;
    d->quadratic = quadratic;
    d->wetted_area = wetted_area;
}

double nv_roll_damper_moment(const nv_roll_damper* d, double p, double u, double wetted) {
    double immersion = d->wetted_area > 0.0 ? wetted / d->wetted_area : 0.0;
    if (!(immersion > 0.0)) return 0.0;
    if (immersion > 1.0) immersion = 1.0;
    double speed = fabs(u);
    double eddy = d->eddy_k > 0.0 ? roll_eddy_speed_factor(d->eddy_k, speed) : 1.0;
    double b = d->linear + d->lift * speed + d->quadratic * eddy * fabs(p);
    return -immersion * b * p;
}
