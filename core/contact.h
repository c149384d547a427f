// SPDX-License-Identifier: MIT
/* Contacts as soft constraints on velocities (Catto's "soft step"): each
 * contact point keeps the closing speed along its normal at or above what
 * closes the gap this step, a spring of `hertz` and `damping_ratio` pushes
 * an overlap out no faster than `push_speed`, and Coulomb friction holds
 * the sliding speed within friction x the normal impulse. The impulses are
 * found by sequential passes over the points in a fixed order (the result
 * depends on nothing else), first with the push-out, then relaxed without
 * it after the positions moved, so that pushing out never becomes kinetic
 * energy. A body's response is its mass and inertia with the added mass of
 * the water around it, as the integrator sees them.
 *
 * Geometry (which points touch) is the caller's; this module only solves. */
#ifndef NAVAL_CONTACT_H
#define NAVAL_CONTACT_H

#include <math.h>
#include <stdint.h>

#include "body.h"
#include "naval/vecmath.h"

/* The soft constraint's coefficients for one step (Catto, "Soft Step"). */
typedef struct contact_soft {
    double bias_rate;     /* 1/s: separation -> target speed */
    double mass_scale;    /* of the constraint's effective mass */
    double impulse_scale; /* of the impulse accumulated so far */
} contact_soft;

contact_soft contact_soft_make(double hertz, double damping_ratio, double dt);

/* A body as the solver moves it: velocities and the maps from an impulse
 * to their change, all world frame. */
typedef struct contact_body {
    nv_vec3 velocity;
    nv_vec3 angular_momentum;
    nv_vec3 angular_velocity;
    nv_mat3 inverse_mass;      /* impulse -> velocity change (added mass along the body axes) */
    nv_mat3 momentum_response; /* moment of an impulse -> angular momentum change (added inertia) */
    nv_mat3 inverse_inertia;   /* angular momentum -> angular velocity */
} contact_body;

/* From the body after its forces were integrated into its velocities, and
 * the added mass and inertia fractions along the body axes (vessel_type). */
void contact_body_init(contact_body* cb, const body* b, nv_vec3 added_mass, nv_vec3 added_inertia);
/* The body's velocities from the solver's. */
void contact_body_store(const contact_body* cb, body* b);

typedef struct contact_point {
    nv_vec3 r;      /* from the CG, world */
    nv_vec3 normal; /* unit, the way the body is pushed */
    nv_vec3 tangent[2];
    double separation;  /* m along the normal; < 0 overlapping */
    double normal_mass; /* 1 / (response along the normal) */
    double tangent_mass[2];
    double normal_impulse; /* N s, accumulated this step */
    double tangent_impulse[2];
    double closing_speed; /* m/s toward the surface before the solve (> 0 closing) */
} contact_point;

typedef struct contact_params {
    double friction; /* Coulomb coefficient */
    double hertz;    /* the overlap spring's frequency */
    double damping_ratio;
    double push_speed;   /* m/s, the fastest an overlap is pushed out */
    uint32_t iterations; /* passes with the push-out */
    uint32_t relax_iterations;
} contact_params;

/* Velocity change along d per unit impulse along d at r (from the CG). */
double contact_response(const contact_body* cb, nv_vec3 r, nv_vec3 d);
/* An impulse at r: the velocities, the angular momentum and velocity. */
void contact_apply(contact_body* cb, nv_vec3 r, nv_vec3 impulse);
static inline nv_vec3 contact_point_velocity(const contact_body* cb, nv_vec3 r) {
    return v3_add(cb->velocity, v3_cross(cb->angular_velocity, r));
}
/* 1 / k, or 0 for a response that is not positive and finite (a body
 * nothing moves). */
static inline double contact_safe_inverse(double k) { return k > 1e-300 && isfinite(k) ? 1.0 / k : 0.0; }
/* Two unit tangents across the unit normal n. */
void contact_tangents(nv_vec3 n, nv_vec3 tangent[2]);
/* The tangent impulse (t0, t1) back inside Coulomb's cone of radius limit. */
static inline void contact_clamp_cone(double* t0, double* t1, double limit) {
    double len = sqrt(*t0 * *t0 + *t1 * *t1);
    if (len <= limit) return;
    double s = len > 0.0 ? limit / len : 0.0;
    *t0 *= s, *t1 *= s;
}

/* Fills the points' masses, tangents and closing speeds, impulses zero. */
void contact_prepare(const contact_body* cb, contact_point* p, uint32_t count);
/* Passes over the points against a static surface: with the push-out
 * (use_bias) before the positions move, without it after. */
void contact_solve_static(contact_body* cb, contact_point* p, uint32_t count, const contact_params* params,
                          const contact_soft* soft, double dt, int use_bias);

#endif
