// SPDX-License-Identifier: MIT
/* A displacement hull's manoeuvring forces in the horizontal plane: the
 * sway force and yaw moment a ship's hull meets as it drifts and turns,
 * from its particulars alone.
 *
 * - The lift (linear) part: Clarke, Gedling and Hine's (Trans. RINA 125,
 *   1983) regressions of the four linear derivatives Y'_v, Y'_r, N'_v,
 *   N'_r on L, B, T and C_b, taken about the mid-length, the force and
 *   moment as slender-body theory has them: the even terms with the speed
 *   ahead |u|, the odd ones (the Munk moment, Y_r) with u, so that going
 *   astern is the same hull mirrored fore and aft, and a hull drifting
 *   broadside (u = 0) meets no lift.
 * - The cross-flow drag: each strip of the length meets the flow across it,
 *   v + x r, with a 2-D drag coefficient from Hoerner's curve for ship
 *   sections by B / 2T (Hoerner, Fluid-Dynamic Drag, 1965, as digitised by
 *   Leite, Aranha, Umeda and de Conti, Applied Ocean Research 20, 1998):
 *   the large drifts and the turn on the spot.
 *
 * The dynamics apply it, where a type switches "manoeuvring" on, in place
 * of the triangles' own sway force and yaw moment from the moving water,
 * taken off exactly each step (docs/hydrodynamics.md, "Manoeuvring forces"). Frames: the body frame of
 * the rest of the library (x ahead, y up, z to starboard), about the CG. */
#ifndef NAVAL_MANOEUVRING_H
#define NAVAL_MANOEUVRING_H

#include "naval/hull.h"
#include "naval/particulars.h"
#include "naval/nv_api.h"

NV_API_BEGIN

#define NV_MANOEUVRING_STRIPS 24 /* the cross-flow integral's strips along the length */

typedef struct nv_manoeuvring {
    double length, beam, draft, block; /* the waterline's, from the particulars */
    double mid_ahead;                  /* the waterline's mid-length ahead of the CG, m */
    double water_density;              /* kg/m^3 */
    /* Clarke's derivatives, non-dimensional in the ship convention (x ahead,
     * y to starboard, z down): Y'_v over 1/2 rho L^2 U, Y'_r and N'_v over
     * 1/2 rho L^3 U, N'_r over 1/2 rho L^4 U */
    double yv, yr, nv, nr;
    double cross_flow_drag;            /* Hoerner's C_D at B / 2T */
} nv_manoeuvring;

/* Hoerner's 2-D cross-flow drag coefficient of a ship section of half
 * beam over draft `ratio` (B / 2T), between the digitised points; held at
 * the curve's ends outside 0..4. */
double nv_manoeuvring_hoerner(double ratio);

/* The model of a hull with particulars `p` (upright, still water) and the
 * waterline's mid-length `mid_ahead` m ahead of its CG. Returns 0; -1 and
 * a zeroed model when the particulars have no length, beam or draft. */
int nv_manoeuvring_init(nv_manoeuvring* m, const nv_particulars* p, double mid_ahead, double water_density);

/* The waterline's mid-length ahead of the CG (body frame) of hull h
 * floating upright at its particulars' draft: the middle of the x where
 * its triangles' edges cross the still water (0 when none do). */
double nv_manoeuvring_mid_ahead(const nv_hull* h, const nv_particulars* p);

/* The hull's force along body z (N) and moment about body y (N m, about
 * the CG) at body-frame velocity relative to the water u (ahead), v (to
 * starboard, body z) and yaw rate r (about body y: + turns the bow to
 * port). */
void nv_manoeuvring_forces(const nv_manoeuvring* m, double u, double v, double r, double* sway, double* yaw);

NV_API_END

#endif
