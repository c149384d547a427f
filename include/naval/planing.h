// SPDX-License-Identifier: MIT
/* Savitsky's planing equilibrium for a prismatic hull (Savitsky 1964,
 * "Hydrodynamic design of planing hulls", Marine Technology 1(1)): the
 * running trim tau, the mean wetted length-beam ratio lambda, the wetted
 * keel and chine lengths and the rise of the CG, for a hull of chine beam
 * b and deadrise beta carrying weight W at speed V.
 *
 * Lift (Savitsky's eqs. for the planing lift coefficient, tau in degrees,
 * beta in degrees, Cv = V / sqrt(g b)):
 *   C_L0    = tau^1.1 (0.0120 lambda^0.5 + 0.0055 lambda^2.5 / Cv^2)
 *   C_Lbeta = C_L0 - 0.0065 beta C_L0^0.60,   W = C_Lbeta (rho / 2) V^2 b^2
 * Centre of pressure, from the transom along the keel:
 *   l_p = lambda b (0.75 - 1 / (5.21 Cv^2 / lambda^2 + 2.39))
 * Wetted lengths (the spray root's rise, Savitsky's pi / 2 factor):
 *   L_K - L_C = b tan(beta) / (pi tan(tau)),  lambda b = (L_K + L_C) / 2
 * Friction: D_f = (rho / 2) V_1^2 lambda b^2 C_F / cos(beta), V_1 the mean
 * bottom velocity, C_F the ITTC-1957 line at V_1 lambda b / nu.
 *
 * Equilibrium with the thrust along the keel (epsilon = 0), f below the
 * CG (normal to the keel), friction along the keel a = VCG - (b / 4)
 * tan(beta) below the CG and the normal force N = W cos(tau):
 *   N (LCG - l_p) + D_f a - T f = 0,   T = W sin(tau) + D_f.
 * With f = 0 and no friction this is the short form: l_p = LCG.
 *
 * The rise: the keel meets the still water L_K forward of the transom, so
 * the CG (LCG forward of the transom along the keel, VCG above it) stands
 *   h = VCG cos(tau) - (L_K - LCG) sin(tau)
 * above the undisturbed surface; the rise is h less the CG's height above
 * the waterline floating at rest (an input: the hull's own statics). */
#ifndef NAVAL_PLANING_H
#define NAVAL_PLANING_H

#include "naval/nv_error.h"
#include "naval/nv_api.h"

NV_API_BEGIN

typedef struct nv_planing_hull {
    double beam;           /* b: chine beam, m */
    double deadrise_deg;   /* beta, degrees (0..30 in Savitsky's data) */
    double lcg;            /* CG forward of the transom, m */
    double vcg;            /* CG above the keel, m */
    double mass;           /* kg */
    double speed;          /* V, m/s */
    double thrust_below;   /* f: thrust line below the CG, normal to the keel, m (0: through the CG) */
    int friction;          /* 1: the friction drag and its moment; 0: the short form's lift only */
    double static_height;  /* the CG above the waterline floating at rest, m (for the rise) */
    double water_density;  /* kg/m^3 */
    double gravity;        /* m/s^2 */
    double viscosity;      /* kinematic, m^2/s */
} nv_planing_hull;

typedef struct nv_planing_result {
    double tau_deg;        /* running trim of the keel, degrees */
    double lambda;         /* mean wetted length over beam */
    double cv;             /* speed coefficient V / sqrt(g b) */
    double cl_beta, cl_0;  /* lift coefficients */
    double pressure_x;     /* l_p: centre of pressure forward of the transom, m */
    double keel_length;    /* L_K: wetted keel length, m */
    double chine_length;   /* L_C: wetted chine length, m (<= 0: dry chines, outside the method) */
    double transom_draft;  /* keel below the still water at the transom, L_K sin(tau), m */
    double cg_height;      /* the CG above the still water, m */
    double rise;           /* cg_height - static_height, m */
    double normal_force;   /* N, N */
    double friction_drag;  /* D_f, N */
    double thrust;         /* T = W sin(tau) + D_f: the thrust the equilibrium needs, N */
    int in_range;          /* 1: Cv, tau, lambda and beta inside Savitsky's data (Cv 0.6..25, tau 2..15, lambda <= 4, beta <= 30), chines wet */
} nv_planing_result;

/* Fills `h` with sea water defaults (1025, 9.81, 1.19e-6) and zeros. */
void nv_planing_hull_init(nv_planing_hull* h);

/* Savitsky's C_Lbeta for trim tau (degrees), lambda, Cv and beta (degrees). */
double nv_planing_lift_coefficient(double tau_deg, double lambda, double cv, double deadrise_deg);
/* l_p / b: the centre of pressure forward of the transom in beams. */
double nv_planing_pressure_centre(double lambda, double cv);

/* Solves the equilibrium. 0 on success; -1 with a message when the
 * inputs are not positive and finite or no trim in 0.2..30 degrees
 * balances the moments (the hull does not plane at that speed and load). */
int nv_planing_solve(const nv_planing_hull* h, nv_planing_result* out, nv_error* err);

/* ---- The planing lift as a force (core/dynamics.c applies it per vessel)
 *
 * Savitsky's C_L0 is two terms: the dynamic lift C_Ld = 0.0120 lambda^0.5
 * tau^1.1, whose pressure peaks at the spray root (a flat plate's lift acts
 * a quarter of the wetted length behind its leading edge: 0.75 lambda b
 * forward of the transom), and the buoyant lift C_Lh = 0.0055 lambda^2.5
 * tau^1.1 / Cv^2, a wedge's, at lambda b / 3. His l_p is their weighted
 * mean: (0.75 C_Ld + C_Lh / 3) / (C_Ld + C_Lh) = 0.75 - 1 / (5.24 Cv^2 /
 * lambda^2 + 2.40), his fit's 5.21 and 2.39. The triangles' hydrostatics
 * are the buoyant part; the dynamic part is what they lack. */

/* lambda, the mean wetted length over beam, of a bottom of chine beam b
 * and deadrise beta (degrees), prismatic for `length` forward of the
 * transom, whose keel meets the water L_K forward of the transom at trim
 * tau (degrees): the chines are wetted L_C = L_K - b tan(beta) / (pi
 * tan(tau)) (Savitsky's spray root), and lambda b = (min(L_K, length) +
 * clamp(L_C, 0, length)) / 2: the prismatic part's mean wetted length (a
 * keel wetted past it, onto the forefoot, is the triangles' alone; dry
 * chines, the keel's half). 0 when b, L_K, length or tau is not positive. */
double nv_planing_mean_wetted_length(double beam, double deadrise_deg, double tau_deg, double keel_length,
                                     double length);

/* Savitsky's dynamic lift coefficient at incidence tau (degrees): c -
 * 0.0065 beta c^0.6 with c = 0.0120 lambda^0.5 tau^1.1 (his deadrise
 * correction taken on the dynamic part); 0 where that is not positive. The
 * lift is C (rho / 2) V^2 b^2, normal to the keel. */
double nv_planing_dynamic_lift_coefficient(double tau_deg, double lambda, double deadrise_deg);
/* Its slope with the incidence, per radian: (180 / pi) 1.1 c / tau (1 -
 * 0.0039 beta c^-0.4); 0 where the coefficient is 0. */
double nv_planing_dynamic_lift_slope(double tau_deg, double lambda, double deadrise_deg);

/* The weight in [0, 1] the planing lift is applied with: 1 where
 * Savitsky's planing holds, fading smoothly (smoothstep) to 0
 *   at displacement speeds:   Cv = V / sqrt(g b) from 2 down to 1;
 *   at large trim:            tau from 15 (the data's end) up to 20 degrees;
 *   heeled:                   |heel| from 10 up to 30 degrees.
 * 0 for anything not finite. */
double nv_planing_weight(double cv, double tau_deg, double heel_deg);

NV_API_END

#endif
