// SPDX-License-Identifier: MIT
/* The momentum a hull gives the water it enters (von Karman, 1929), at the
 * waterline of each triangle the surface cuts: the force kernels'
 * HK_NAME(entry) (hydrodyn_kernel.h), from the waterlines the hydrostatic
 * kernel leaves. docs/hydrodynamics.md, "Water entry". */
#ifndef NAVAL_WATER_ENTRY_H
#define NAVAL_WATER_ENTRY_H

/* Below this deadrise to the surface the theory's force grows without
 * bound (cot beta), where a real flat bottom traps air that cushions it. */
#define WATER_ENTRY_MIN_DEADRISE_DEG 5.0

#endif
