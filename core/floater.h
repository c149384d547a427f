// SPDX-License-Identifier: MIT
/* Tenhunen's "fake" floater (seed 003, chapter 3): no rigid body and no
 * forces, for buoys and debris by the thousand. Its height follows the
 * water with smoothing that is faster down than up (so it never hangs
 * above a falling trough), and it tilts to the normal of the surface
 * sampled at four points around it. docs/lod.md gives the formulas.
 *
 * Height: the target is the mean water height at the four samples; the
 * height moves toward it as a critically damped spring,
 *     y'' = -2 w y' - w^2 (y - target),   w = 2 / T,
 * with T = up_time while the target is above the floater, down_time while
 * it is below (Unity's SmoothDamp convention, as the thesis used it). Each
 * step applies the spring's exact solution for a target held over the
 * step, so a still level is followed the same way at any time step: after
 * a step change of the level the remaining gap is (1 + w t) e^(-w t) of it
 * (41 % at t = T, 10 % at t = 1.94 T, 1 % at t = 3.32 T).
 *
 * Tilt: the samples sit at `radius` ahead, astern, to port and to
 * starboard of the centre (along the floater's heading); the surface
 * gradient from their central differences gives the normal
 * (-gx, 1, -gz) / |..|, and the floater's up axis is that normal (no
 * smoothing, as in the thesis: four samples at a radius already average
 * out chop shorter than the body).
 *
 * Water that answers NaN or infinity at any of the four samples leaves
 * the floater's whole state as it was (the step reports it as held). */
#ifndef NAVAL_FLOATER_H
#define NAVAL_FLOATER_H

#include <stddef.h>

#include "naval/nv_error.h"
#include "naval/vecmath.h"
#include "naval/water.h"

typedef struct floater_params {
    double up_time;   /* s, > 0 (0.2) */
    double down_time; /* s, > 0 (0.1) */
    double radius;    /* m, > 0 (0.5): from the centre to each tilt sample */
} floater_params;

floater_params floater_params_default(void);
/* 0 when usable; else -1 and a message naming the bad parameter. */
int floater_params_validate(const floater_params* p, nv_error* err);

/* One floater: 40 bytes. x and z are the caller's (drift, currents); y,
 * vy and the normal are the floater's. */
typedef struct floater {
    double x, z;   /* world */
    double y;      /* world height of the floater's waterline point */
    float vy;      /* m/s, the smoothing's vertical velocity */
    float heading; /* rad about +y, bow (+x) toward -z (as scenario headings) */
    float nx, nz;  /* horizontal part of the unit surface normal (ny = sqrt(1 - nx^2 - nz^2)) */
} floater;

/* A floater at rest at (x, y, z), upright. */
floater floater_make(double x, double y, double z, double heading);
/* One step of dt seconds (> 0, finite). Returns 0 when updated, 1 when
 * held on non-finite water, -1 on a bad dt or parameters. */
int floater_step(floater* f, const floater_params* p, const nv_water_surface* water, double dt);
/* World position and orientation (body -> world): heading about +y, then
 * the shortest rotation of +y onto the normal. */
void floater_pose(const floater* f, nv_vec3* position, nv_quat* orientation);
/* The heading (rad, -pi..pi) of an orientation read as floater_pose writes
 * one: heading about +y, then the shortest rotation of +y onto the body's
 * up axis. It gives back a floater's own heading, where the bow's bearing
 * seen from above would not: tilted, the bow's projection turns with the
 * tilt. Within 2.6 degrees of upside down, the bow's bearing. */
double floater_heading_of(nv_quat q);

/* Many floaters as arrays (structure of arrays: the 40 bytes, and 16 more for the reaches),
 * stepped in chunks of FLOATER_CHUNK with one water query per chunk. */
#define FLOATER_CHUNK 64

typedef struct floater_batch {
    size_t count;
    size_t capacity;
    double* x;
    double* z;
    double* y;
    float* vy;
    float* heading;
    float* nx;
    float* nz;
    /* m: each floater's samples ahead and astern (along) and to each side
     * (across) of its centre; params.radius unless set (floater_batch_set_reach) */
    double* reach_along;
    double* reach_across;
    floater_params params;
} floater_batch;

/* Per-thread scratch of floater_batch_step: a fixed size, no allocation. */
typedef struct floater_scratch {
    double qx[4 * FLOATER_CHUNK];
    double qz[4 * FLOATER_CHUNK];
    float height[4 * FLOATER_CHUNK];
} floater_scratch;

int floater_batch_init(floater_batch* b, size_t capacity, const floater_params* p, nv_error* err);
void floater_batch_free(floater_batch* b);
/* Appends a floater at rest, upright; returns its index, or -1 when full
 * or the position or heading is not finite. */
long floater_batch_add(floater_batch* b, double x, double y, double z, double heading, nv_error* err);
/* Floater i samples the water `along` m ahead and astern and `across` m to
 * each side (a body longer than it is wide averages the waves over its own
 * length and beam). -1, nothing changed, when i is past the capacity or a
 * reach is not positive and finite. */
int floater_batch_set_reach(floater_batch* b, size_t i, double along, double across);
/* Removes floater i by moving the last one into its place. */
void floater_batch_remove(floater_batch* b, size_t i);
/* Steps floaters [first, first + count); disjoint ranges may run on
 * different threads with their own scratch. Returns how many were held on
 * non-finite water, or -1 on a bad range or dt. */
long floater_batch_step(floater_batch* b, size_t first, size_t count, const nv_water_surface* water, double dt,
                        floater_scratch* scratch);
void floater_batch_pose(const floater_batch* b, size_t i, nv_vec3* position, nv_quat* orientation);
/* Copies floater i out of / into the arrays. */
floater floater_batch_get(const floater_batch* b, size_t i);
void floater_batch_set(floater_batch* b, size_t i, const floater* f);

#endif
