// SPDX-License-Identifier: MIT
/* Heave and pitch: the wave radiation damping the triangle model lacks,
 * and the closed-form head-sea response the simulation is held against.
 *
 * A hull that heaves or pitches makes waves, and the waves carry energy
 * away: that is most of a ship's heave and pitch damping near resonance.
 * Kerner's per-triangle forces have no radiation (their pressure drag
 * damps heave at 0.01-0.04 of critical, against 0.07-0.10 here for the
 * built-in hulls), so in head seas under way the hull's heave and pitch
 * resonated at twice the amplitude a strip theory gives, and the boats
 * launched off crests and landed heeled (docs/hydrodynamics.md).
 *
 * The damping is strip theory's with the sections of Jensen, Mansour and
 * Olsen (2004, "Estimation of ship motions using closed-form expressions",
 * Ocean Engineering 31, 61-85): each section a rectangle of breadth
 * C_b B (the homogeneous box that has the hull's displacement) and draft d,
 * radiating waves of amplitude ratio A = 2 sin(k B_e / 2) exp(-k d) on
 * either side, so the sectional damping is b33 = rho g^2 A^2 / omega^3
 * (the energy the two radiated waves carry); heave B33 = L b33 and pitch
 * B55 = L^3 / 12 b33, each at its natural frequency. The triangle pass's
 * own heave force and pitch moment on the upright hull (computed once per
 * type) are counted first: the damper adds only what they lack, so that
 * triangles and damper together give the strip theory's damping at the
 * natural frequencies. Prefix nv_heave_pitch_. */
#ifndef NAVAL_HEAVE_PITCH_H
#define NAVAL_HEAVE_PITCH_H

#include "naval/particulars.h"
#include "naval/nv_api.h"

NV_API_BEGIN

/* The sectional heave damping (N s/m per metre of length) of a rectangle
 * of breadth b and draft d oscillating at omega (JMO's amplitude ratio). */
double nv_heave_pitch_section_damping(double omega, double breadth, double draft, double water_density, double gravity);

/* A type's damper: force -immersion heave v and moment -immersion pitch q,
 * v the heave velocity relative to the water and q the pitch rate (body
 * axes), immersion the wetted area over the upright one (at most 1). */
typedef struct nv_heave_pitch_damper {
    double heave;             /* N s/m, added to the triangles' own */
    double pitch;             /* N m s */
    double heave_omega, pitch_omega;        /* natural frequencies, rad/s */
    double heave_target, pitch_target;      /* strip theory's damping at them */
    double heave_triangles, pitch_triangles; /* the triangle pass's own, equivalent linear */
    double heave_zeta, pitch_zeta;          /* target over critical */
    double wetted_area;       /* upright S, m^2 */
} nv_heave_pitch_damper;

/* The hull's natural heave and pitch frequencies from its particulars, mass
 * and pitch inertia (kg m^2, about the CG) with the added fractions the
 * dynamics use; 0 where they do not exist (no waterplane, GM_L <= 0). */
void nv_heave_pitch_frequencies(const nv_particulars* p, double mass, double added_heave, double pitch_inertia,
                                double added_pitch, double water_density, double gravity, double* heave_omega,
                                double* pitch_omega);

/* The damper: targets at the natural frequencies, less what the triangles
 * give (`triangles_heave` N s/m and `triangles_pitch` N m s: equivalent
 * linear at the reference motion, NV_HEAVE_PITCH_REFERENCE), never below
 * zero. All zero when the frequencies are. */
void nv_heave_pitch_damper_init(nv_heave_pitch_damper* d, const nv_particulars* p, double mass, double added_heave,
                                double pitch_inertia, double added_pitch, double triangles_heave,
                                double triangles_pitch, double water_density, double gravity);

/* The reference motion the triangles' own damping is read at: heave of
 * half the draft, and pitch moving the ends by half the draft (an angle
 * of d / L), each at its natural frequency. */
#define NV_HEAVE_PITCH_REFERENCE 0.5

/* Body-frame heave force (N) and pitch moment (N m) for heave velocity v
 * (relative to the water, m/s) and pitch rate q (rad/s) at wetted area
 * `wetted`. */
void nv_heave_pitch_damper_apply(const nv_heave_pitch_damper* d, double v, double q, double wetted, double* force,
                                 double* moment);

/* JMO's closed-form response of a homogeneously loaded box ship (length L,
 * breadth B, draft d, block coefficient C_b) at speed U in regular waves
 * of frequency omega meeting it at beta (180 degrees: head seas, the
 * bow into them): heave amplitude per wave amplitude, and pitch amplitude
 * per wave slope k A. */
void nv_heave_pitch_closed_form(double omega, double beta, double speed, double length, double breadth, double draft,
                                double block, double gravity, double* heave, double* pitch);

NV_API_END

#endif
