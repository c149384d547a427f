// SPDX-License-Identifier: MIT
/* naval-seakeeping's one world with one vessel, shared by its trials
 * (seakeeping_trials.c: roll decay, regular waves; seakeeping_drift.c: the
 * oblique tow; seakeeping_underway.c:
 * the manoeuvres and head seas under way). */
#ifndef NAVAL_SEAKEEPING_SIM_H
#define NAVAL_SEAKEEPING_SIM_H

#include <stdint.h>

#include "naval/water.h"
#include "naval/world.h"
#include "seakeeping.h"

#define SK_DEG (180.0 / NV_PI)
#define SK_RAD (NV_PI / 180.0)

typedef struct sk_sim {
    nv_world* w;
    uint32_t type, id;
    nv_water_sine sine;
    double amplitude, ramp; /* the waves' amplitude, reached after `ramp` s (smoothstep) */
    double hz;
} sk_sim;

/* A world at the type's tick rate holding the type; -1 when it cannot be made. */
int sk_sim_make(sk_sim* s, const sk_type* t);
/* Floating at its balance height in orientation q, at rest, at the origin. */
int sk_sim_spawn(sk_sim* s, const sk_type* t, nv_quat q);
/* Regular waves (travelling toward `direction`, radians as headings) whose
 * amplitude ramps up over `ramp` seconds. s must not move afterwards. */
int sk_sim_waves(sk_sim* s, const sk_type* t, double amplitude, double wavelength, double direction, double ramp);
nv_world_vessel_state sk_sim_state(const sk_sim* s);
/* The bow's direction in the horizontal plane, radians, + toward +z
 * (starboard of a vessel heading +x): a turn to starboard grows it. */
double sk_yaw(nv_quat q);
/* now (in (-pi, pi]) moved by whole turns to within half a turn of prev. */
double sk_unwrap(double prev, double now);
/* The amplitude of the first harmonic at omega of y[0, n) sampled at
 * times t, y less its mean. */
double sk_first_harmonic(const double* y, const double* t, uint64_t n, double omega);

#endif
