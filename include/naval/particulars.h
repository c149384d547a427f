// SPDX-License-Identifier: MIT
/* A hull's particulars as a naval architect reads them off its lines:
 * waterline length and beam, draft, block, midship and waterplane
 * coefficients, KB, BM, KG, GM and the natural roll period, for the hull
 * floating upright and level on still water. Roll damping (Ikeda), the IS
 * Code's weather criterion and the trials tools all start from these.
 *
 * Measured on the mesh itself: the waterline is where the displacement
 * carries the weight (nv_statics_balance_height_of, upright, no trim);
 * areas and moments of the waterplane and the midship section come from
 * the triangles cut by those planes (Green's theorem on the cut segments),
 * so a hull of any shape gets its own figures, not a table's. */
#ifndef NAVAL_PARTICULARS_H
#define NAVAL_PARTICULARS_H

#include "naval/hull.h"
#include "naval/nv_error.h"
#include "naval/nv_api.h"

NV_API_BEGIN

typedef struct nv_particulars {
    double length;          /* waterline length L_wl, m */
    double beam;            /* waterline beam B_wl, m */
    double draft;           /* d: keel to waterline, m */
    double volume;          /* displaced volume V, m^3 */
    double block;           /* C_b = V / (L B d) */
    double midship;         /* C_m = A_m / (B d), the section at mid-waterline */
    double waterplane;      /* C_wp = A_wp / (L B) */
    double waterplane_area; /* A_wp, m^2 */
    double midship_area;    /* A_m, m^2 */
    double wetted_area;     /* S: the hull surface under the waterline, m^2 */
    double kb, bm_t, bm_l;  /* centre of buoyancy above the keel; transverse and longitudinal metacentric radii, m */
    double kg;              /* CG above the keel, m */
    double gm_t, gm_l;      /* metacentric heights, m (KB + BM - KG) */
    double og;              /* Ikeda's OG: waterline to CG, + downward (d - KG), m */
    double mass;            /* kg */
    double roll_inertia;    /* I_xx about the CG, kg m^2 (no added inertia) */
    double added_roll;      /* A_44 / I_xx, the fraction the dynamics add */
    double roll_omega;      /* sqrt(rho g V GM_T / (I_xx + A_44)), rad/s; 0 when GM_T <= 0 */
    double roll_period;     /* 2 pi / roll_omega, s; 0 when GM_T <= 0 */
    double cg_height;       /* CG above the waterline when floating (the balance height), m */
    /* sqrt(M4 / M2) of the waterplane about its centre, along x and across z
     * (M_n the n-th moment of area): two samples at +-reach give the
     * waterplane's own least-squares slope of a long wave to order k^2
     * when the waterplane is symmetric about its centre (0.387 L for a
     * rectangle of length L); an asymmetric one (M3 != 0) leaves an error
     * of order k, and a floater samples about the CG, not the centre of
     * flotation, m */
    double reach_long, reach_trans;
} nv_particulars;

/* Computes the particulars of hull `h` upright and level in water of
 * `water_density` under `gravity`, with `added_roll` the added roll inertia
 * as a fraction of I_xx. Fails naming the cause when the hull cannot float
 * or has no waterline. */
int nv_particulars_compute(const nv_hull* h, double water_density, double gravity, double added_roll, nv_particulars* out,
                           nv_error* err);

NV_API_END

#endif
