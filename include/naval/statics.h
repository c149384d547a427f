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

/* Exported: core is built with -fvisibility=hidden, so what this header
 * does not declare stays inside the library. */
#pragma GCC visibility push(default)

typedef struct statics_options {
    double water_density;   /* kg/m^3 */
    double gravity;         /* m/s^2 */
    double dt;              /* s */
    double max_time;        /* s of simulated time before giving up */
    vec3 initial_tilt_axis; /* world axis of a perturbation applied at release */
    double initial_tilt_deg;
} statics_options;

statics_options nv_statics_options_default(void);

typedef struct statics_result {
    bool settled;
    double settle_time;        /* s of simulated time */
    double draft;              /* m: depth of the lowest hull point below the water */
    double heel_deg;           /* + starboard down */
    double trim_deg;           /* + bow up */
    double tilt_deg;           /* angle between the body's up axis and the world's */
    double displacement;       /* m^3 of displaced water */
    vec3 center_of_buoyancy;   /* mesh coordinates */
    vec3 position;             /* CG, world */
    quat orientation;
} statics_result;

/* Fails when the hull cannot float (heavier than its whole displacement). */
int nv_statics_find_equilibrium(const hull* h, const statics_options* opts, statics_result* out, nv_error* err);

/* CG height at which the hull, held at `orientation`, floats on flat water
 * at height 0 (displacement = weight); fails when it would sink. */
int nv_statics_balance_height_of(const hull* h, double water_density, double gravity, quat orientation, double* y,
                                 nv_error* err);

/* Heel, trim and tilt of an orientation, degrees. */
void nv_statics_attitude(quat orientation, double* heel_deg, double* trim_deg, double* tilt_deg);

/* Displaced volume (m^3) and centre of buoyancy (world) of a vessel at
 * `position` / `rotation` whose vertex heights were taken against flat water
 * at `level`. */
double nv_statics_buoyancy_center(const hull* h, const float* height, vec3 position, const mat3* rotation, double level,
                                  vec3* center);

#pragma GCC visibility pop

#endif
