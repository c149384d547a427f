// SPDX-License-Identifier: MIT
/* The ocean's layout, shared by ocean.c (setup), ocean_update.c (time
 * evolution and transforms) and ocean_query.c (queries). Not public API. */
#ifndef NAVAL_OCEAN_INTERNAL_H
#define NAVAL_OCEAN_INTERNAL_H

#include <fftw3.h>
#include <math.h>
#include <stdint.h>

#include "naval/ocean.h"

/* Base spectra (half plane kx >= 0), each transformed along z once:
 *   0: h~        1: i kz h~        2: g~ = lambda h~ / k
 *   3: i kz g~   4: -kz^2 g~       5: dh~/dt
 * Output pairs (complex rows, field A in re, field B in im), from a base and
 * a multiplier in kx applied between the z and x passes:
 *   0: (h, dh/dt)    1: (Dx, Dz)    2: (dh/dx, dh/dz)
 *   3: (Dxx, Dzz)    4: (Dxz, J)    (J computed with pair 4, from pair 3's rows) */
enum { OCEAN_PAIR_H_V = 0, OCEAN_PAIR_DISP = 1, OCEAN_PAIR_SLOPE = 2, OCEAN_PAIR_DIAG = 3, OCEAN_PAIR_DXZ_J = 4 };
enum { OCEAN_MULT_ONE = 0, OCEAN_MULT_IKX = 1, OCEAN_MULT_NEG_KX2 = 2 };
#define OCEAN_BASE_COUNT 6
#define OCEAN_PHASOR_BLOCK 64

typedef struct ocean_cascade {
    double size;        /* tile length L, m */
    double dk;          /* 2 pi / L */
    double k_lo, k_hi;  /* band owned: k_lo <= |k| < k_hi */
    double inv_cell_x;  /* nx / L */
    double inv_cell_z;  /* nz / L */
    double inv_nx, inv_nz; /* 1 / nx, 1 / nz (exact: powers of two) */
    /* per half-plane cell, index n * nz + m (n in [0, hx), m in [0, nz)): kx-major */
    float* amp;         /* 4 per cell: sigma = h0(k) + h0(-k); delta = (qr - pr, pi - qi) */
    int32_t* widx;      /* w / (2 pi / T), 0 for empty cells */
    float* ginv;        /* lambda / |k| (0 at k = 0) */
    float* kz;          /* per row m */
    float* kx;          /* per column n */
    float* mul_ikx;     /* per column n: (-kx, kx), i kx applied to a swapped complex */
    float* mul_kx2;     /* per column n: (-kx^2, -kx^2) */
    int jmax;
    int ncols;          /* columns n >= ncols are 0 (band limit): skipped */
    fftwf_complex* mid[OCEAN_BASE_COUNT]; /* after the z pass: nz rows of mid_stride, column kx */
    fftwf_complex* out[OCEAN_PAIR_COUNT]; /* nz x nx, x fastest: the fields */
    fftwf_plan plan_z[2]; /* one column of length nz, written down a column of mid: even, odd n */
    fftwf_plan plan_x;  /* one row of length nx, out of place */
} ocean_cascade;

struct nv_ocean {
    nv_water_surface base; /* first member: an ocean* is a water_surface* */
    nv_ocean_params params;
    nv_spectrum_model model;
    double wind_dir;    /* radians */
    int nx, nz, hx;
    int mid_stride;     /* complex between rows of mid: hx + 4 (off powers of two) */
    int cascade_count;
    double omega0;      /* 2 pi / T */
    double amp_scale;   /* applied to every h0 (hs_target), 1 otherwise */
    double expected_variance; /* sum of S dk^2 over the modes the grids hold */
    double m0;          /* of the continuous spectrum (scaled) */
    double peak_omega;  /* of the spectrum, rad/s */
    double time;        /* as given to the update */
    double theta;       /* 2 pi (time mod T) / T */
    int jmax;           /* over cascades */
    float* phasor;      /* [jmax + 1][2]: cos, sin of j theta */
    double* phasor_lo;  /* scratch for the two-level phasor build */
    double* phasor_hi;
    ocean_cascade cascade[OCEAN_MAX_CASCADES];
    float* surface;     /* surface_grid: nx nz heights, then nx nz vertical velocities
                           (node (ix, iz) at iz nx + ix): the vertex pass reads heights
                           only, so they are kept apart (half the cache footprint) */
};

/* A dominant crest breaks where the dominant waves squeeze the surface
 * past this (the horizontal convergence of the choppy map, 1 - J to first
 * order: at a lone wave's crest its steepness k a): docs/ocean.md,
 * "Breaking crests". */
#define OCEAN_BREAKING_SQUEEZE 0.2
/* Past the threshold a crest breaks over the part (squeeze -
 * OCEAN_BREAKING_SQUEEZE) / (OCEAN_BREAKING_FULL - OCEAN_BREAKING_SQUEEZE)
 * of its height, all of it from here on: the steepness of Stokes'
 * limiting wave (k a = pi H / lambda). The stencil reads a lone peak
 * wave's slope at 90 %, so a lone wave at the limit measures 0.40 and
 * breaks over 82 % of its height; the whole crest breaks only where
 * shorter waves squeeze it further. An assumption, like the linear ramp. */
#define OCEAN_BREAKING_FULL (NV_PI * WATER_BREAKING_STEEPNESS)
/* Fixed-point steps x0 <- q - D(x0) to find a crest's label: the map's
 * slope |dD/dx0| is 0.1-0.3 at the dominant scale, so three leave 0.1-3 %
 * of D (centimetres to decimetres against a stencil of metres). */
#define OCEAN_BREAKING_STEPS 3

void ocean_breaking(const nv_water_surface* self, size_t count, const double* x, const double* z, const float* height,
                    float* out);

/* floor for |x| < 2^62, without a libm call */
static inline double floor_exact(double x) {
    double t = (double)(long long)x;
    return t - (x < t);
}

/* A point's position in cascade c's grid, in cells, reduced to [0, n):
 * done once per point in double; iterations then move it in float. */
static inline void grid_base(const nv_ocean* o, const ocean_cascade* cc, double x, double z, float* u, float* v) {
    double gu = x * cc->inv_cell_x, gv = z * cc->inv_cell_z;
    if (!(fabs(gu) < 1e15)) gu = 0.0; /* NaN or absurd: answer somewhere, never UB */
    if (!(fabs(gv) < 1e15)) gv = 0.0;
    gu -= o->nx * floor_exact(gu * cc->inv_nx); /* n is a power of two: exact */
    gv -= o->nz * floor_exact(gv * cc->inv_nz);
    *u = (float)gu;
    *v = (float)gv;
}

static inline int floor_int(float f) {
    int i = (int)f;
    return i - (f < (float)i);
}

/* The resampled surface (ocean_grid.c, built by nv_ocean_update_surface_rows):
 * after each update, the choppy surface's height and vertical velocity at
 * every world grid node (ix L / nx, iz L / nz), equal to the exact query's
 * within its tolerance. Single cascade only: the tile is then periodic in
 * world space too. */
size_t ocean_grid_sample(const nv_ocean* o, const nv_water_query* q);
size_t ocean_grid_sample_near(const nv_water_surface* self, double x0, double z0, size_t count, const float* dx,
                              const float* dz, float* height);

#endif
