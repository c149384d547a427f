// SPDX-License-Identifier: MIT
/* A 6-DOF rigid body stepped with a fixed time step by a semi-implicit
 * (symplectic) Euler integrator: velocities first, then positions with the
 * new velocities. Angular momentum is the integrated state, so torque-free
 * spin keeps its momentum; the orientation quaternion advances by the exact
 * rotation of the step and is renormalised. */
#ifndef NAVAL_BODY_H
#define NAVAL_BODY_H

#include "naval/nv_error.h"
#include "naval/vecmath.h"

typedef struct body {
    nv_vec3 position;          /* centre of gravity, world, m */
    nv_quat orientation;       /* body -> world, unit */
    nv_vec3 velocity;          /* of the CG, world, m/s */
    nv_vec3 angular_momentum;  /* about the CG, world, kg m^2/s */
    nv_vec3 angular_velocity;  /* world, rad/s (derived from the momentum) */
    double mass;            /* kg */
    double inverse_mass;
    nv_mat3 inertia;           /* about the CG, body axes, kg m^2 */
    nv_mat3 inverse_inertia;   /* body axes */
} body;

/* Rejects a non-positive mass or a singular / non-finite inertia. */
int body_init(body* b, double mass, const nv_mat3* inertia, nv_error* err);

static inline nv_mat3 body_rotation(const body* b) { return quat_to_mat3(b->orientation); }

/* World-frame inertia R I R^T and its inverse. */
nv_mat3 body_world_inertia(const body* b);
nv_mat3 body_world_inverse_inertia(const body* b);

/* Velocity of a body point given as a world-oriented offset from the CG. */
static inline nv_vec3 body_point_velocity(const body* b, nv_vec3 offset) {
    return v3_add(b->velocity, v3_cross(b->angular_velocity, offset));
}

/* Sets the angular velocity (and the momentum that goes with it). */
void body_set_angular_velocity(body* b, nv_vec3 w);

/* One step: force (N) and torque (N m, about the CG) in the world frame,
 * gravity not included. */
void body_integrate(body* b, nv_vec3 force, nv_vec3 torque, double dt);
/* Its two halves, for contacts solved between them: the velocities (and
 * the angular velocity in the old orientation), then the pose with them. */
void body_integrate_velocity(body* b, nv_vec3 force, nv_vec3 torque, double dt);
void body_integrate_position(body* b, double dt);

/* Kinetic energy, J. */
double body_kinetic_energy(const body* b);

#endif
