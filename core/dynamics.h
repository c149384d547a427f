// SPDX-License-Identifier: MIT
/* The forces on one vessel that are not per triangle: its actuators under
 * the controls' rate limits, Kerner's area-ratio damping, the cap that keeps
 * slamming from throwing a body back, the viscous roll damping, gravity,
 * and added mass, assembled
 * into the world-frame force and torque the integrator applies.
 * The per-triangle forces come in as the triangle pass's sums. */
#ifndef NAVAL_DYNAMICS_H
#define NAVAL_DYNAMICS_H

#include "body.h"
#include "hydro.h"
#include "naval/actuator.h"
#include "naval/hull.h"
#include "naval/hydrodyn.h"
#include "naval/particulars.h"
#include "naval/roll_damping.h"
#include "naval/vessel_type.h"
#include "naval/water.h"

/* A hull type's dynamics made ready to run (one per type, shared). */
typedef struct dynamics_model {
    nv_hydrodyn_model hydro;
    nv_actuator_model actuators;
    int slamming;         /* per-triangle slamming state needed */
    int per_triangle;     /* any force computed in the triangle pass */
    double total_area;    /* m^2, the hull's */
    int roll_damping;     /* the roll damper below is applied */
    nv_roll_damper roll;  /* viscous roll damping (Ikeda's, or the type's own) */
    nv_particulars particulars; /* upright, level, still water; zero when the hull cannot float */
} dynamics_model;

void dynamics_model_init(dynamics_model* m, const nv_vessel_dynamics* d, const nv_hull* h, double gravity);

/* One vessel's step, beyond the triangle pass. */
typedef struct dynamics_vessel {
    const dynamics_model* model; /* NULL: hydrostatics only */
    const body* body;
    hydro_sums sums;             /* the triangle pass's, summed over blocks, BODY frame */
    double water_vertical;       /* the surface's vertical velocity at the CG, m/s */
    double throttle_cmd, rudder_cmd;
    double throttle, rudder;     /* actual: updated here through the rate limits */
} dynamics_vessel;

typedef struct dynamics_env {
    const nv_water_surface* water;  /* for the actuators' depths */
    double gravity;
    double linear_damping;       /* the world's plain damping, 1/s */
    double angular_damping;
    double dt;
} dynamics_env;

/* Fills the world-frame force and torque to integrate (gravity included)
 * and the water-and-air part alone (world frame, for the vessel's state). */
void dynamics_assemble(dynamics_vessel* v, const dynamics_env* env, nv_vec3* force, nv_vec3* torque, nv_vec3* water_force,
                       nv_vec3* water_torque);

#endif
