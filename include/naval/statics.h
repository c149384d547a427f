// SPDX-License-Identifier: MIT
/* Floating equilibrium on flat water, found by running the physics: the hull
 * is released from rest (tilted 1 degree off upright, at the height whose
 * displacement carries its weight), damped, and stepped until it settles. Also the exact centre of
 * buoyancy on flat water and the attitude angles the tools report. */
#ifndef NAVAL_STATICS_H
#define NAVAL_STATICS_H

#include <stdbool.h>

#include "hull.h"
#include "nv_error.h"
#include "vecmath.h"
#include "naval/nv_api.h"

NV_API_BEGIN

typedef struct nv_statics_options {
    double water_density;   /* kg/m^3 */
    double gravity;         /* m/s^2 */
    double dt;              /* s */
    double max_time;        /* s of simulated time before giving up */
    nv_vec3 initial_tilt_axis; /* world axis of a perturbation applied at release */
    double initial_tilt_deg;
} nv_statics_options;

nv_statics_options nv_statics_options_default(void);

typedef struct nv_statics_result {
    bool settled;
    double settle_time;        /* s of simulated time */
    double draft;              /* m: depth of the lowest hull point below the water */
    double heel_deg;           /* + starboard down, (-180, 180]: about 180 keel-up (nv_statics_attitude) */
    double trim_deg;           /* + bow up, [-90, 90] */
    double tilt_deg;           /* angle between the body's up axis and the world's, [0, 180] */
    bool capsized;             /* nv_statics_capsized: floats keel-up */
    double displacement;       /* m^3 of displaced water */
    nv_vec3 center_of_buoyancy;   /* mesh coordinates */
    nv_vec3 position;             /* CG, world */
    nv_quat orientation;
} nv_statics_result;

/* Fails when the hull cannot float (heavier than its whole displacement),
 * or is so light that it would float upright on a film thinner than 1e-4
 * of its extent from the CG (the message names the mass and the least mass
 * that floats). The release is stepped at opts->dt, or finer where the
 * hull's fastest heave, roll or pitch needs it (omega dt <= 0.2). */
int nv_statics_find_equilibrium(const nv_hull* h, const nv_statics_options* opts, nv_statics_result* out, nv_error* err);

/* CG height at which the hull, held at `orientation`, floats on flat water
 * at height 0 (displacement = weight); fails when it would sink. */
int nv_statics_balance_height_of(const nv_hull* h, double water_density, double gravity, nv_quat orientation, double* y,
                                 nv_error* err);

/* Heel, trim and tilt of an orientation (body -> world), degrees, as the
 * angles of a rotation made of a yaw about the world's up, then a trim
 * about the body's starboard axis (z), then a heel about the body's own
 * bow axis (x):
 *   trim in [-90, 90], + bow up: the bow axis's elevation;
 *   heel in (-180, 180], + starboard down: 180 is keel-up (capsized),
 *        0 when the hull stands exactly on end (trim +-90);
 *   tilt in [0, 180]: the angle between the body's up axis and the world's.
 * For small angles heel and trim are the elevations of the starboard and
 * bow axes (to second order). Any pointer may be NULL. */
void nv_statics_attitude(nv_quat orientation, double* heel_deg, double* trim_deg, double* tilt_deg);

/* 1 when the orientation is capsized: heeled past 90 degrees about the
 * body's own x axis (|heel| > 90) while |trim| < 60 degrees (a hull
 * standing on its bow or stern has not capsized). The one definition:
 * nv_world_capsized, naval-hull, naval-sim and the snapshots' flag use it. */
int nv_statics_capsized(nv_quat orientation);

/* Displaced volume (m^3) and centre of buoyancy (world) of a vessel at
 * `position` / `rotation` whose vertex heights were taken against flat water
 * at `level`. */
double nv_statics_buoyancy_center(const nv_hull* h, const float* height, nv_vec3 position, const nv_mat3* rotation, double level,
                                  nv_vec3* center);

NV_API_END

#endif
