// SPDX-License-Identifier: MIT
/* The standards naval-seakeeping checks against, and its fits.
 *
 * IS Code 2008 (IMO resolution MSC.267(85)), Part A 2.3, the severe wind
 * and rolling criterion: the roll to windward
 *     phi_1 = 109 k X1 X2 sqrt(r s)  degrees,
 * r = 0.73 + 0.6 OG / d with OG = KG - d (+ above the waterline), B the
 * moulded breadth (the Code's symbols; 46 CFR 28.575 likewise),
 * s from the rolling period T = 2 C B / sqrt(GM),
 * C = 0.373 + 0.023 (B / d) - 0.043 (L_wl / 100); X1 by B / d, X2 by C_b
 * and k by the bilge keels' area, each from the Code's tables, linear
 * between rows (docs/seakeeping.md lists them and their sources).
 *
 * MSC.1/Circ.1200 (Interim guidelines for alternative assessment of the
 * weather criterion), 4: phi_1 measured in a model basin is 0.7 phi_1r,
 * phi_1r the peak steady roll in regular beam waves at omega / omega_0 =
 * 0.8 ... 1.2 of steepness from its Table 4.5.1 by the natural roll period,
 * the heading held beam-on (within 15 degrees), the drift free.
 *
 * IMO MSC.137(76), Standards for ship manoeuvrability, 5.3.1: the 10/10
 * zig-zag's overshoot limits by L / V. */
#include <math.h>
#include <string.h>

#include "naval/vecmath.h"
#include "seakeeping.h"

typedef struct sk_row {
    double x, y;
} sk_row;

/* Linear between rows (x ascending), flat beyond the ends. */
static double sk_table(const sk_row* t, int n, double x) {
    if (x <= t[0].x) return t[0].y;
    for (int i = 1; i < n; i++)
        if (x <= t[i].x) return t[i - 1].y + (t[i].y - t[i - 1].y) * (x - t[i - 1].x) / (t[i].x - t[i - 1].x);
    return t[n - 1].y;
}

/* Table 2.3.4-4: wave steepness s by the rolling period T (s). */
static const sk_row sk_steepness[] = {{6, 0.100}, {7, 0.098}, {8, 0.093}, {12, 0.065},
                                      {14, 0.053}, {16, 0.044}, {18, 0.038}, {20, 0.035}};
/* Table 2.3.4-1: X1 by B / d. */
static const sk_row sk_x1[] = {{2.4, 1.00}, {2.5, 0.98}, {2.6, 0.96}, {2.7, 0.95}, {2.8, 0.93}, {2.9, 0.91},
                               {3.0, 0.90}, {3.1, 0.88}, {3.2, 0.86}, {3.3, 0.84}, {3.4, 0.82}, {3.5, 0.80}};
/* Table 2.3.4-2: X2 by C_b. */
static const sk_row sk_x2[] = {{0.45, 0.75}, {0.50, 0.82}, {0.55, 0.89}, {0.60, 0.95}, {0.65, 0.97}, {0.70, 1.00}};
/* Table 2.3.4-3: k by A_k 100 / (L B), A_k the keels' total area. */
static const sk_row sk_k[] = {{0.0, 1.00}, {1.0, 0.98}, {1.5, 0.95}, {2.0, 0.88},
                              {2.5, 0.79}, {3.0, 0.74}, {3.5, 0.72}, {4.0, 0.70}};

/* MSC.1/Circ.1200, Table 4.5.1: steepness by the full-scale natural roll period (s). */
static const sk_row sk_circ_steepness[] = {{6, 0.100},  {7, 0.098},  {8, 0.093},  {12, 0.065}, {14, 0.053},
                                           {16, 0.044}, {18, 0.038}, {20, 0.032}, {22, 0.028}, {24, 0.025},
                                           {26, 0.023}, {28, 0.021}, {30, 0.020}};

const double sk_weather_omega_ratio[SK_WEATHER_RUNS] = {0.8, 0.9, 0.95, 0.975, 1.0, 1.05, 1.2};

#define SK_ROWS(t) ((int)(sizeof t / sizeof t[0]))

double sk_weather_steepness(double period) { return sk_table(sk_steepness, SK_ROWS(sk_steepness), period); }
double sk_circ1200_steepness(double period) { return sk_table(sk_circ_steepness, SK_ROWS(sk_circ_steepness), period); }

/* phi_1 with breadth B and block coefficient cb; fills the figures that
 * depend on them. */
static double sk_weather_phi1(const sk_type* t, sk_weather* out, double B, double cb) {
    out->C = 0.373 + 0.023 * (B / out->d) - 0.043 * (out->L / 100.0);
    out->T = out->gm > 0.0 ? 2.0 * out->C * B / sqrt(out->gm) : 0.0;
    out->s = sk_weather_steepness(out->T);
    out->x1 = sk_table(sk_x1, SK_ROWS(sk_x1), B / out->d);
    out->x2 = sk_table(sk_x2, SK_ROWS(sk_x2), cb);
    /* round bilge: 1.0 without keels, else from the keels' area (both sides) */
    double ak = 2.0 * t->bk_length * t->bk_breadth;
    out->ak_ratio = ak * 100.0 / (out->L * B);
    out->k = ak > 0.0 ? sk_table(sk_k, SK_ROWS(sk_k), out->ak_ratio) : 1.0;
    double rs = out->r * out->s;
    return rs > 0.0 ? 109.0 * out->k * out->x1 * out->x2 * sqrt(rs) : 0.0;
}

void sk_weather_compute(const sk_type* t, sk_weather* out) {
    memset(out, 0, sizeof *out);
    const nv_particulars* p = &t->p;
    /* The Code's B is the moulded breadth, the hull's greatest amidships;
     * its C_b the Code's list names without saying over which breadth. Both
     * readings are computed: C_b at the draught as the hydrostatics give it
     * (over the waterline's breadth), and over the moulded breadth. */
    out->L = p->length, out->d = p->draft, out->cb = p->block, out->kg = p->kg, out->gm = p->gm_t;
    out->B = t->moulded_breadth > 0.0 ? t->moulded_breadth : p->beam;
    out->b_wl = p->beam;
    out->cb_moulded = out->L * out->B * out->d > 0.0 ? p->volume / (out->L * out->B * out->d) : 0.0;
    out->og_code = p->kg - p->draft;
    out->r = 0.73 + 0.6 * out->og_code / out->d;
    out->phi1_wl = sk_weather_phi1(t, out, out->b_wl, out->cb);
    out->phi1_moulded_cb = sk_weather_phi1(t, out, out->B, out->cb_moulded);
    out->x2_moulded = out->x2;
    out->phi1 = sk_weather_phi1(t, out, out->B, out->cb); /* last: the factors reported are its */
    out->code_length = t->code_length > 0.0 ? t->code_length : t->hull_length;
    out->applies = out->code_length >= 24.0;
    out->t_phi = p->roll_period;
    out->s_wave = sk_circ1200_steepness(out->t_phi);
}

double sk_msc_overshoot1_limit(double lv) {
    if (lv < 10.0) return 10.0;
    if (lv >= 30.0) return 20.0;
    return 5.0 + 0.5 * lv;
}

double sk_msc_overshoot2_limit(double lv) {
    if (lv < 10.0) return 25.0;
    if (lv >= 30.0) return 40.0;
    return 17.5 + 0.75 * lv;
}

int sk_fit_line(const double* x, const double* y, int n, double* a, double* b) {
    if (n < 2) return -1;
    double mx = 0.0, my = 0.0;
    for (int i = 0; i < n; i++) mx += x[i], my += y[i];
    mx /= n, my /= n;
    double sxx = 0.0, sxy = 0.0;
    for (int i = 0; i < n; i++) sxx += (x[i] - mx) * (x[i] - mx), sxy += (x[i] - mx) * (y[i] - my);
    if (!(sxx > 1e-12)) return -1;
    *b = sxy / sxx;
    *a = my - *b * mx;
    return 0;
}

double sk_ikeda_b44(const sk_type* t, double amp, double omega) {
    nv_roll_damping_case c = {.amplitude = amp,
                              .omega = omega,
                              .speed = 0.0,
                              .bilge_keel_length = t->bk_length,
                              .bilge_keel_breadth = t->bk_breadth,
                              .water_density = t->rho,
                              .gravity = t->g,
                              .viscosity = t->nu};
    nv_roll_damping_estimate e;
    nv_roll_damping_ikeda(&t->p, &c, &e);
    return e.total;
}

double sk_ikeda_zeta(const sk_type* t, double amp, double omega) {
    double inertia = t->p.roll_inertia * (1.0 + t->p.added_roll);
    return sk_ikeda_b44(t, amp, omega) / (2.0 * t->p.roll_omega * inertia);
}

double sk_roll_rao(const sk_type* t, double omega, double zeta) {
    double r = omega / t->p.roll_omega, a = 1.0 - r * r, b = 2.0 * zeta * r;
    return 1.0 / sqrt(a * a + b * b);
}
