// SPDX-License-Identifier: MIT
/* Kerner's part 2 and Bourg's resistance: the hydrodynamic forces on the
 * submerged pieces of a hull (viscous friction, pressure drag and suction,
 * slamming), quadratic air drag on dry triangles, the cheap area-ratio
 * damping, and added mass. The formulas and their sources: docs/hydrodynamics.md.
 *
 * Every force works in the hull's body frame (+x bow, +y up, +z
 * starboard), on velocities relative to the water (or the air). Each can be
 * switched off (tests, tuning), and every coefficient belongs to the hull
 * type. The defaults (nv_hydrodyn_coeffs_default) make the built-in hulls
 * behave plausibly; nv_hydrodyn_coeffs_none is pure hydrostatics. */
#ifndef NAVAL_HYDRODYN_H
#define NAVAL_HYDRODYN_H

#include <stdint.h>

#include "nv_error.h"
#include "vecmath.h"
#include "naval/nv_api.h"

NV_API_BEGIN

enum {
    HYDRODYN_VISCOUS = 1u << 0,       /* ITTC-1957 friction along the tangential flow */
    HYDRODYN_PRESSURE_DRAG = 1u << 1, /* pressure drag (front) and suction (back) */
    HYDRODYN_SLAMMING = 1u << 2,      /* impact of triangles entering the water */
    HYDRODYN_AIR_DRAG = 1u << 3,      /* quadratic drag on dry triangles facing the wind */
    HYDRODYN_AREA_DAMPING = 1u << 4,  /* Kerner's early damping: the cheap fallback */
    HYDRODYN_ADDED_MASS = 1u << 5,    /* added mass and inertia per body axis */
    HYDRODYN_RESIDUAL = 1u << 6,      /* Bourg's residual resistance C_r (wave making, form), with friction */
    HYDRODYN_ROLL_DAMPING = 1u << 7,  /* viscous roll damping, Ikeda's (naval/roll_damping.h) */
    HYDRODYN_HEAVE_PITCH_DAMPING = 1u << 8, /* wave radiation damping of heave and pitch (naval/heave_pitch.h) */
    HYDRODYN_WATER_ENTRY = 1u << 9,   /* the momentum given to the water a hull enters (von Karman), at
                                         the cut triangles' waterlines: a tenth more per triangle */
    HYDRODYN_MANOEUVRING = 1u << 10,  /* the hull's sway force and yaw moment from its manoeuvring model
                                         (naval/manoeuvring.h) in place of the triangles' calm-water ones */
    HYDRODYN_BREAKING_CRESTS = 1u << 11, /* the jet of a breaking crest (nv_water_surface.breaking) on the
                                            hull it strikes (core/breaking.h) */
    /* "all": every force that acts on its own; the manoeuvring model
     * takes some of their place, and breaking crests come only with a
     * sea that breaks, so they are named, never implied */
    HYDRODYN_ALL = (1u << 10) - 1,
    HYDRODYN_KNOWN = (1u << 12) - 1, /* every bit defined */
};

typedef struct nv_hydrodyn_coeffs {
    uint32_t forces;             /* HYDRODYN_* bits switched on */
    double water_density;        /* kg/m^3, set by the world (1025) */
    double viscosity;            /* kinematic, m^2/s (1.19e-6: sea water at 15 C) */
    double reynolds_min;         /* Rn is clamped up to this (1e5): the ITTC line has a pole at 100 */
    double reference_length;     /* m, for Rn; 0: the hull's length along x */
    double residual;             /* Bourg's C_r (2e-3; he gives 1e-3..3e-3), acting like C_F */
    double pressure_linear;      /* C_PD1 (drag on pieces moving into the water) */
    double pressure_quadratic;   /* C_PD2 */
    double pressure_falloff;     /* f_P in (0, 1] */
    double suction_linear;       /* C_SD1 (pull on pieces moving away) */
    double suction_quadratic;    /* C_SD2 */
    double suction_falloff;      /* f_S in (0, 1] */
    double reference_speed;      /* v_r, m/s */
    double slam_power;           /* p >= 1: ramp of (Gamma / Gamma_max)^p */
    double slam_gamma_max;       /* m/s^2: the rate of change of swept volume per area at full slam */
    double air_density;          /* kg/m^3 (1.225) */
    double air_drag;             /* C_air (0.8) */
    double damping_linear[2];    /* area damping: F = -m r_s (c1 + c2 |v|) v; c1 1/s, c2 1/m */
    double damping_angular[2];   /* tau = -I r_s (c1 + c2 |w|) w; c1 1/s, c2 dimensionless */
    nv_vec3 added_mass;             /* fraction of the mass along body x (surge), y (heave), z (sway) */
    nv_vec3 added_inertia;          /* fraction of the inertia about body x (roll), y (yaw), z (pitch) */
    double bilge_keel[2];        /* roll damping: bilge keels' length and breadth, m (0: none) */
    double roll_damping[2];      /* explicit roll damping, N m s and N m s^2; negative: Ikeda's estimate */
    double planing[3];           /* planing lift (naval/planing.h): chine beam m, deadrise degrees, length of the
                                  * prismatic bottom forward of the transom m; beam 0: none (every type but the skiff) */
} nv_hydrodyn_coeffs;

nv_hydrodyn_coeffs nv_hydrodyn_coeffs_default(void);
/* Every force off: pure hydrostatics (the default of a bare hull type). */
nv_hydrodyn_coeffs nv_hydrodyn_coeffs_none(void);
/* 0 when usable; else -1 and a message naming the bad coefficient. */
int nv_hydrodyn_coeffs_validate(const nv_hydrodyn_coeffs* c, nv_error* err);

/* ITTC-1957 friction coefficient at Reynolds number rn (clamped to rn_min). */
double nv_hydrodyn_ittc_cf(double rn, double rn_min);

/* A hull type's coefficients made ready for the per-triangle pass. */
typedef struct nv_hydrodyn_model {
    nv_hydrodyn_coeffs c;
    double length;  /* reference length for Rn, m */
    double gravity; /* m/s^2, for the water entry's Froude number (9.81; the world sets its own) */
} nv_hydrodyn_model;

void nv_hydrodyn_model_init(nv_hydrodyn_model* m, const nv_hydrodyn_coeffs* c, double hull_length);

/* One vessel's motion for a step, in its body frame: what every piece's
 * force needs. Built once per vessel (or block) by nv_hydrodyn_frame_init. */
typedef struct nv_hydrodyn_frame {
    const nv_hydrodyn_model* model;
    nv_vec3 velocity;         /* of the CG relative to the water, body frame */
    nv_vec3 angular_velocity; /* body frame */
    nv_vec3 air_velocity;     /* of the CG relative to the air (minus the wind), body frame */
    double half_rho_cf;    /* 1/2 rho (C_F + C_r): C_F for this step's Reynolds number */
    double inv_ref_speed;  /* 1 / v_r */
    double half_rho_air_c; /* 1/2 rho_air C_air */
    double slam_scale;     /* m (2 / S_total) / dt: the stopping force per unit area and velocity */
    double inv_dt;
    double inv_gamma_max;
    nv_vec3 up;               /* the world's vertical, body frame */
    double entry_half_pi_rho; /* pi rho / 2 with HYDRODYN_WATER_ENTRY, else 0 */
    double gravity;           /* the model's g */
} nv_hydrodyn_frame;

/* velocity / angular_velocity / wind in the world frame; `rotation` is the
 * body's; water_vertical is the surface's vertical velocity at the vessel. */
void nv_hydrodyn_frame_init(nv_hydrodyn_frame* f, const nv_hydrodyn_model* m, const nv_mat3* rotation, nv_vec3 velocity,
                            nv_vec3 angular_velocity, double water_vertical, nv_vec3 wind, double mass, double total_area,
                            double dt);

NV_API_END

#endif
