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

NV_API_END

#endif
