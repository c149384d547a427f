// SPDX-License-Identifier: MIT
/* The surface table's row walk (ocean_grid.c builds the table with it):
 * its constants and context, and its two builds from ocean_walk_kernel.h,
 * which give the same bits. */
#ifndef NAVAL_OCEAN_WALK_H
#define NAVAL_OCEAN_WALK_H

/* Slack, in cells, on "inside the cell": a label on an edge between two
 * cells must not bounce between them through rounding. The cells'
 * bilinear maps agree along shared edges, so solving one a hair past its
 * edge moves the answer by slack times the cells' difference in g: nothing. */
#define OCEAN_CELL_SLACK 1e-4f
/* Below this Jacobian (of x0 -> x0 + D, in cells) Newton is unreliable:
 * the node falls back to the exact query (which treats folds its way). */
#define OCEAN_MARCH_DET_MIN 0.05f
/* Newton steps (and cell moves) per node before giving up. */
#define OCEAN_MARCH_STEPS 8

typedef struct ocean_march {
    const float* disp; /* (Dx, Dz) pairs */
    const float* hv;   /* (h, dh/dt) pairs */
    float *gh, *gv;
    int nx, mx, mz, shift;
    float icx, icz;
    float cx2, cz2, tol2; /* cell sizes squared (m^2), tolerance squared */
} ocean_march;

/* Walks rows z .. z + rows - 1 (rows 1..8) node by node across the table,
 * a row per lane; nodes whose walk fails are NaN. The SSE2 build runs on
 * every x86-64 CPU, the AVX2 one where nv_simd_level() allows. */
void ocean_walk_sse2_rows(const ocean_march* m, int z, int rows);
void ocean_walk_avx2_rows(const ocean_march* m, int z, int rows);

#endif
