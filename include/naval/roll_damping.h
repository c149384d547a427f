// SPDX-License-Identifier: MIT
/* Viscous roll damping by Ikeda's component method, in the simplified
 * regressions of Kawahara, Maekawa and Ikeda (2009), with Ikeda's forward
 * speed corrections (Ikeda, Himeno, Tanaka 1978), and the damper that
 * applies it to a vessel in the integration pass.
 *
 * B44 = B_F (friction, Kato) + B_W (wave radiation) + B_E (eddies at the
 * bilges) + B_L (lift on the hull under way) + B_BK (bilge keels).
 * Kerner's triangle model already radiates and rubs: its pressure drag and
 * friction act on every wet triangle as it rolls. The damper adds what
 * they cannot carry (eddy, lift, bilge keels) and tops the wave and
 * friction parts up to Ikeda's, counting what the triangles give (their
 * roll moment on the upright hull, computed once per type by the same
 * force formulas); the estimate keeps all five, to compare a roll decay
 * against. docs/hydrodynamics.md gives the formulas, their
 * ranges of validity and the fallback outside them. */
#ifndef NAVAL_ROLL_DAMPING_H
#define NAVAL_ROLL_DAMPING_H

#include "naval/particulars.h"
#include "naval/nv_api.h"

NV_API_BEGIN

/* Ikeda's components at one amplitude, frequency and speed, each as an
 * equivalent linear damping coefficient (N m s: roll moment per rad/s). */
typedef struct nv_roll_damping_estimate {
    double friction, wave, eddy, lift, bilge_keels;
    double total;         /* the sum */
    double total_hat;     /* total / (rho V B^2) sqrt(B / (2 g)), Ikeda's non-dimensional B44 */
    double zeta;          /* total / (2 omega (I_xx + A_44)): the equivalent damping ratio */
    int in_range;         /* 1: the hull is inside the regressions' range (Cb, B/d, OG/d, Cm, omega_hat) */
} nv_roll_damping_estimate;

/* Inputs beyond the particulars. */
typedef struct nv_roll_damping_case {
    double amplitude;            /* roll amplitude, rad (> 0) */
    double omega;                /* roll frequency, rad/s (> 0); 0: the particulars' natural one */
    double speed;                /* forward speed, m/s (>= 0) */
    double bilge_keel_length;    /* m, 0: none */
    double bilge_keel_breadth;   /* m */
    double water_density, gravity, viscosity;
} nv_roll_damping_case;

/* Fills `out`; the regressions are evaluated with their inputs clamped into
 * their ranges (out->in_range says whether that was needed). */
void nv_roll_damping_ikeda(const nv_particulars* p, const nv_roll_damping_case* c, nv_roll_damping_estimate* out);

/* A type's damper: roll moment M = -(b_linear + b_lift |U|) p - b_quadratic f(U) |p| p
 * about the body's x axis, p the roll rate, U the speed along the bow,
 * f(U) Ikeda's eddy reduction with speed, all scaled by the hull's
 * immersion (wetted area now over upright). */
typedef struct nv_roll_damper {
    double linear;       /* N m s */
    double quadratic;    /* N m s^2 */
    double lift;         /* N m s per m/s of speed */
    double eddy_k;       /* omega L: eddy reduction (0.04 K)^2 / (1 + (0.04 K)^2), K = eddy_k / U */
    double wetted_area;  /* upright S, m^2: the immersion scale's denominator */
    double triangles;    /* what the triangle pass gives at 10 degrees (equivalent linear, N m s), for reports */
} nv_roll_damper;

/* The reference amplitude: ITTC reports the equivalent damping at 10 degrees. */
#define NV_ROLL_REFERENCE_AMPLITUDE (10.0 * 3.14159265358979323846 / 180.0)

/* The damper from the estimate at amplitude 10 degrees and the natural
 * frequency. `triangles` is the equivalent linear roll damping (N m s) the
 * triangle pass already gives the hull at that amplitude and frequency
 * (its pressure drag and friction): it stands for Ikeda's wave and
 * friction parts. The damper adds what those two lack beyond it (linear),
 * the eddy and bilge-keel parts (which grow with amplitude: quadratic),
 * less whatever the triangles give beyond the wave and friction parts
 * (never below zero), and the lift (per speed): with the triangles, Ikeda's
 * total at the reference amplitude and frequency. */
void nv_roll_damper_from_ikeda(nv_roll_damper* d, const nv_particulars* p, double bilge_keel_length,
                               double bilge_keel_breadth, double triangles, double water_density, double gravity,
                               double viscosity);
/* Explicit coefficients: they replace the estimate (no lift). */
void nv_roll_damper_explicit(nv_roll_damper* d, double linear, double quadratic, double wetted_area);

/* The roll moment (N m) for roll rate p (rad/s) at forward speed u (m/s)
 * and wetted area `wetted` (m^2) this step. */
double nv_roll_damper_moment(const nv_roll_damper* d, double p, double u, double wetted);

NV_API_END

#endif
