// SPDX-License-Identifier: MIT
/* What a crew controls: propellers and rudders, and the per-vessel controls
 * (throttle, rudder) that drive them with rate limits.
 *
 * Positions and directions are given in mesh coordinates (+x bow, +y up,
 * +z starboard); a world turns positions into offsets from the CG. A
 * propeller pushes only while submerged; a rudder's force comes from the
 * water flowing past it: the vessel's own motion, slowed by the hull's wake,
 * and, behind a propeller of known diameter, that propeller's race. */
#ifndef NAVAL_ACTUATOR_H
#define NAVAL_ACTUATOR_H

#include <stdint.h>

#include "nv_error.h"
#include "vecmath.h"
#include "naval/nv_api.h"

NV_API_BEGIN

#define ACTUATOR_MAX_PROPELLERS 4
#define ACTUATOR_MAX_RUDDERS 4
/* The most of the far race's added velocity a rudder behind a propeller
 * meets: the MMG method's kappa epsilon as measured on ships' models
 * (KVLCC2 0.55, the Seiun Maru 0.70), the lower taken (core/actuator.c). */
#define ACTUATOR_RACE_AT_RUDDER 0.55
/* The hull and its screw straighten the flow a rudder in the race meets: of the drift the
 * hull's sway and yaw would give the rudder's position, the rudder meets
 * ACTUATOR_FLOW_STRAIGHTENING of it, with the yaw's part taken at
 * ACTUATOR_YAW_LEVER times the rudder's distance behind the mid-length (the MMG
 * method's gamma_R and l_R / x_R, measured on two hulls' models: KVLCC2
 * 0.395 and 0.640 for the two signs of the drift, l'_R -0.710; the Seiun
 * Maru 0.312 and 0.394, l'_R -0.947; x'_R -0.5; each the mean of the two
 * hulls' means; core/actuator.c). */
#define ACTUATOR_FLOW_STRAIGHTENING 0.435
#define ACTUATOR_YAW_LEVER 1.657

typedef struct nv_actuator_propeller {
    nv_vec3 position;           /* m, mesh coordinates */
    nv_vec3 direction;          /* thrust direction at throttle +1, body axes (normalised on use) */
    double max_thrust;       /* N at throttle +1 */
    double reverse_fraction; /* thrust at throttle -1 as a fraction of max (0.6) */
    double immersion;        /* m of depth over which thrust ramps in from 0 (0.3) */
    double steering_deg;     /* swivel at rudder +1 (an outboard or azimuth drive); 0 = fixed (0) */
    double diameter;         /* m; 0: its race over a rudder behind it is not modelled (0) */
} nv_actuator_propeller;

typedef struct nv_actuator_rudder {
    nv_vec3 position;           /* m, mesh coordinates (its centre of pressure) */
    double area;             /* m^2, one side */
    double max_angle_deg;    /* deflection at rudder +1 (35) */
    double lift_slope;       /* dC_L / d(alpha), per radian (~2 pi A/(A+2), 3.0 for aspect ~1.5) */
    double stall_angle_deg;  /* past this, lift falls off (25) */
    double drag_coefficient; /* C_D0 + C_L^2 term handled inside; this is C_D0 (0.02) */
} nv_actuator_rudder;

typedef struct nv_actuator_set {
    nv_actuator_propeller propellers[ACTUATOR_MAX_PROPELLERS];
    uint32_t propeller_count;
    nv_actuator_rudder rudders[ACTUATOR_MAX_RUDDERS];
    uint32_t rudder_count;
    double throttle_rate;    /* how fast the throttle follows its command, units per second (0.5) */
    double rudder_rate;      /* the same for the rudder (1.0: hard over from centre in 1 s) */
} nv_actuator_set;

/* No actuators, default rates. */
void nv_actuator_set_init(nv_actuator_set* a);
/* 0 when usable; else -1 and a message naming the actuator and field. */
int nv_actuator_set_validate(const nv_actuator_set* a, nv_error* err);

/* An actuator set ready for one hull type: positions as body-frame offsets
 * from the CG, unit directions, angles in radians. */
typedef struct nv_actuator_model {
    nv_actuator_set set;
    nv_vec3 propeller_offset[ACTUATOR_MAX_PROPELLERS];
    nv_vec3 propeller_direction[ACTUATOR_MAX_PROPELLERS];
    double propeller_steer[ACTUATOR_MAX_PROPELLERS]; /* radians at rudder +1 */
    nv_vec3 rudder_offset[ACTUATOR_MAX_RUDDERS];
    double rudder_max_angle[ACTUATOR_MAX_RUDDERS];
    double rudder_stall[ACTUATOR_MAX_RUDDERS];
    /* A rudder in a propeller's race (race_propeller >= 0): the race's
     * velocity at the rudder is u_A + gain (sqrt(u_A^2 + load T) - u_A),
     * actuator-disk momentum theory with u_A the inflow, T the thrust and
     * load 8 / (rho pi D^2) without the rho, and gain the disk's at the
     * rudder's distance, at most ACTUATOR_RACE_AT_RUDDER; `share` of its span is in it
     * (the race's diameter over the span); `inflow` is 1 - w, the hull's
     * wake at the propeller (1 until nv_actuator_model_set_block). */
    int32_t race_propeller[ACTUATOR_MAX_RUDDERS];
    double race_gain[ACTUATOR_MAX_RUDDERS];
    double race_share[ACTUATOR_MAX_RUDDERS];
    double race_inflow[ACTUATOR_MAX_RUDDERS];
    double propeller_load[ACTUATOR_MAX_PROPELLERS]; /* 8 / (pi D^2), 1/m^2; 0 without a diameter */
    double mid_ahead; /* the hull's mid-length ahead of the CG, m: where the straightening's lever starts (0 until
                       * nv_actuator_model_set_mid) */
    uint32_t point_count; /* propellers then rudders */
} nv_actuator_model;

void nv_actuator_model_init(nv_actuator_model* m, const nv_actuator_set* set, nv_vec3 cg);
/* The wake a rudder in a race meets, from the hull's block coefficient
 * (Taylor: w = 0.50 C_b - 0.05 behind a single screw on the centreline,
 * 0.55 C_b - 0.20 behind one of twin screws, within [0, 0.5]). A block of
 * 0 or less leaves the inflow at 1. */
void nv_actuator_model_set_block(nv_actuator_model* m, double block);
/* The hull's mid-length, m ahead of the CG (nv_manoeuvring_mid_ahead): the
 * MMG method takes the drift at mid-length and the yaw's lever l_R from
 * there. */
void nv_actuator_model_set_mid(nv_actuator_model* m, double mid_ahead);
/* Body-frame offset of point i (propellers first, then rudders). */
nv_vec3 nv_actuator_point(const nv_actuator_model* m, uint32_t i);

/* Moves a control toward its command by at most rate * dt. */
double nv_actuator_follow(double actual, double command, double rate, double dt);

/* Rudder lift coefficient at angle of attack alpha (radians): linear up to
 * the stall angle, then falling to half its peak at twice that angle. */
double nv_actuator_rudder_lift(double slope, double stall, double alpha);

/* Which propeller's race a rudder lies in, or -1: a propeller with a
 * diameter, fixed (no steering), the rudder's centre behind its disk and
 * within its radius of its axis. */
int nv_actuator_race_of(const nv_actuator_set* set, uint32_t rudder);

/* Forces of every propeller and rudder, body frame, about the CG.
 * `depth` has point_count entries: each point's depth under the surface
 * (m, > 0 submerged); velocity / angular_velocity are the body's relative
 * to the water, body frame. Rudder +1 turns the bow to starboard (+z). */
void nv_actuator_forces(const nv_actuator_model* m, double throttle, double rudder, const double* depth, nv_vec3 velocity,
                        nv_vec3 angular_velocity, double water_density, nv_vec3* force, nv_vec3* torque);

NV_API_END

#endif
