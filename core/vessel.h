// SPDX-License-Identifier: MIT
/* One vessel on a water surface: hull type + rigid body + per-vessel
 * scratch, stepped with hydrostatics, gravity and a simple velocity damping.
 * The world (a later module) steps thousands of these as arrays; this is the
 * single-vessel reference the tools and the physics tests use. */
#ifndef NAVAL_VESSEL_H
#define NAVAL_VESSEL_H

#include "body.h"
#include "hydro.h"
#include "naval/hull.h"
#include "naval/water.h"

typedef struct vessel_env {
    double water_density;   /* kg/m^3 */
    double gravity;         /* m/s^2 */
    double linear_damping;  /* 1/s: F = -c m v */
    double angular_damping; /* 1/s: tau = -c I w */
} vessel_env;

vessel_env vessel_env_default(void); /* sea water 1025, g 9.81, no damping */

typedef struct vessel {
    const nv_hull* hull;
    body body;
    float* height;            /* signed height of each vertex, from the last vertex pass */
    hydro_scratch scratch;    /* vertex-pass scratch for the whole hull */
    hydro_sums hydro;         /* the last triangle pass */
    hydro_segment* segments;  /* waterline of the last pass; hull->triangle_count room */
} vessel;

int vessel_init(vessel* v, const nv_hull* h, nv_error* err);
void vessel_free(vessel* v);
/* Puts the CG at `position` with `orientation`, at rest. */
void vessel_place(vessel* v, nv_vec3 position, nv_quat orientation);
/* Vertex and triangle passes at the current pose. */
void vessel_update_hydrostatics(vessel* v, const nv_water_surface* water, const vessel_env* env);
/* Forces (hydrostatic + gravity + damping) from the current state, then one
 * integration step. */
void vessel_step(vessel* v, const nv_water_surface* water, const vessel_env* env, double dt);

#endif
