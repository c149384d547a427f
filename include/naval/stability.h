// SPDX-License-Identifier: MIT
/* Large-angle stability on flat water: the righting lever GZ at a heel,
 * trim free (the hull floats at the trim where its centre of buoyancy lies
 * straight under or over the CG along the bow), and the lateral areas the
 * IS Code's wind heeling lever takes. Exact over the hull's triangles, as
 * the hydrostatics are (core/statics.c); no dynamics. */
#ifndef NAVAL_STABILITY_H
#define NAVAL_STABILITY_H

#include "hull.h"
#include "nv_error.h"
#include "vecmath.h"
#include "naval/nv_api.h"

NV_API_BEGIN

typedef struct nv_stability_point {
    double heel_deg;       /* + starboard down, as nv_statics_attitude */
    double trim_deg;       /* the free trim found, + bow up */
    double gz;             /* m: the centre of buoyancy's offset from the CG towards the low side, + righting */
    double displacement;   /* m^3 at the balance (the weight's, to the bisection's precision) */
    nv_vec3 position;      /* the CG, world, flat water at height 0 */
    nv_quat orientation;   /* body -> world */
} nv_stability_point;

/* GZ at `heel_deg` (-180..180) with the trim free: the hull's height
 * balances its weight at every trim tried, and the trim is solved (secant,
 * then bisection) until the centre of buoyancy lies within 1e-6 of the
 * hull's extent of the CG along the bow (1e-4 where the bracket has closed
 * on it first). Fails when the hull cannot float, or when no trim within
 * +-45 degrees balances (the message names the heel). */
int nv_stability_lever(const nv_hull* h, double water_density, double gravity, double heel_deg, nv_stability_point* out,
                       nv_error* err);

/* The area under GZ (m rad) from a to b degrees (a > b: negative) over a
 * curve sampled at equally spaced heels (n >= 2 points from heel0 by step
 * degrees), integrating the cubic Hermite curve through the samples (slopes
 * by central differences, one-sided at the ends) exactly; the ends are
 * clamped to the samples' range; NAN for a limit that is not finite. */
double nv_stability_area(const double* gz, int n, double heel0, double step, double a, double b);

/* The lateral (side) projection of a hull floating at `at` (a point of the
 * curve), split at the water: the areas (m^2) and the heights of their
 * centroids (world, the water at 0). Each surface element facing starboard
 * counts its projection once: exact for a hull whose every line across it
 * (along z) meets its surface twice. */
typedef struct nv_stability_lateral {
    double area_above, centroid_above; /* the windage */
    double area_below, centroid_below; /* the underwater lateral plane */
} nv_stability_lateral;

void nv_stability_lateral_areas(const nv_hull* h, const nv_stability_point* at, nv_stability_lateral* out);

NV_API_END

#endif
