// SPDX-License-Identifier: MIT
/* Every kernel that has wider builds, chosen by one mechanism: a table per
 * SIMD level (simd.h) holding each hot loop's build for it. The CPU is
 * asked once; callers take kernels_active() (an index into the tables, no
 * branch per kernel) and a cap (nv_simd_cap, for tests and benchmarks) moves
 * every kernel at once. Every build of a kernel gives the same bits.
 *
 * The platform: x86-64, with SSE2 (which every x86-64 CPU has) as the
 * floor. The top-level CMakeLists.txt refuses other targets. */
#ifndef NAVAL_KERNELS_H
#define NAVAL_KERNELS_H

#include <stddef.h>

#include "hydrodyn_lanes.h"
#include "ocean_walk.h"

/* ocean_grid_sample_near's batch, eight points at a time: the points
 * [0, returned) (see ocean_near_kernel.h). The grid has (mx + 1) x (mz + 1)
 * nodes, rows 1 << shift apart; u0, v0 the origin in cells, icx, icz cells
 * per metre. */
typedef size_t kernels_ocean_near_fn(const float* gh, int mx, int mz, int shift, float u0, float v0, float icx,
                                     float icz, size_t count, const float* dx, const float* dz, float* height);
/* The surface table's walk of rows z .. z + rows - 1 (rows 1..8). */
typedef void kernels_ocean_walk_fn(const ocean_march* m, int z, int rows);

typedef struct kernels {
    int level;                          /* SIMD_SSE2, SIMD_AVX2 or SIMD_AVX512 */
    const hydrodyn_kernels* hydrodyn;   /* the force kernels of the triangle pass */
    kernels_ocean_walk_fn* ocean_walk;  /* building the surface table */
    kernels_ocean_near_fn* ocean_near;  /* the vertex pass's surface lookup */
} kernels;

/* The table of that level, or NULL where this CPU cannot run it. */
const kernels* kernels_at(int level);
/* The table of nv_simd_level(). */
const kernels* kernels_active(void);

size_t ocean_near_sse2(const float* gh, int mx, int mz, int shift, float u0, float v0, float icx, float icz,
                       size_t count, const float* dx, const float* dz, float* height);
size_t ocean_near_avx2(const float* gh, int mx, int mz, int shift, float u0, float v0, float icx, float icz,
                       size_t count, const float* dx, const float* dz, float* height);

#endif
