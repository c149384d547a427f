// SPDX-License-Identifier: MIT
/* The momentum a hull gives the water it enters (von Karman, 1929), at the
 * waterline of each triangle the surface cuts. docs/hydrodynamics.md,
 * "Water entry". */
#ifndef NAVAL_WATER_ENTRY_H
#define NAVAL_WATER_ENTRY_H

#include <stdint.h>

#include "naval/hull.h"
#include "naval/hydrodyn.h"

/* Below this deadrise to the surface the theory's force grows without
 * bound (cot beta), where a real flat bottom traps air that cushions it. */
#define WATER_ENTRY_MIN_DEADRISE_DEG 5.0

/* Adds to force and torque (body frame, about the CG) the entry force on
 * triangles [first, first + count), whose wet fractions the hydrostatic
 * kernel left in wet (cut ones strictly between 0 and 1). */
void water_entry_sum(const nv_hull* h, const float* height, uint32_t first, uint32_t count, const float* wet,
                     const nv_hydrodyn_frame* f, nv_vec3* force, nv_vec3* torque);

#endif
