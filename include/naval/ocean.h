// SPDX-License-Identifier: MIT
/* Tessendorf FFT ocean: one to four periodic cascades (tiles of different
 * sizes owning non-overlapping wavenumber bands), evolved in time from a
 * hash-seeded random spectrum and transformed with FFTW (single precision).
 *
 * Per cascade and step the update produces, on an Nx x Nz grid of labels x0
 * (the undisplaced points): height h, vertical velocity dh/dt, horizontal
 * displacement (Dx, Dz) (already scaled by the choppiness lambda; the label
 * moves to x0 + D), slopes (dh/dx, dh/dz), the displacement derivatives
 * (dDx/dx, dDz/dz, dDx/dz) and the Jacobian J of x0 -> x0 + D (J < 0 where
 * the surface folds). Queries in world (x, z) invert x0 + D(x0) = q with
 * Newton iterations and answer on that choppy surface.
 *
 * Conventions: world +y up; wave vector k = (kx, kz) = 2 pi (n, m) / L;
 * h(x0) = sum_k h~(k) e^{i k.x0}; h~(k, t) = h0(k) e^{-i w t} +
 * conj(h0(-k)) e^{i w t}, so h0(k) travels toward +k (downwind);
 * D = sum i (k / |k|) lambda h~ e^{i k.x0}: with lambda > 0 crests sharpen.
 * Amplitudes: E |h0(k)|^2 = S(kx, kz) dk^2 / 2, so the grid's height variance
 * equals the spectrum's m0 and Hs = 4 sqrt(m0).
 *
 * Threads: nv_ocean_create plans FFTW (never call it concurrently with other
 * FFTW planning); the update may be split into jobs (see below); queries only
 * read the ocean and may run on many threads at once, but never during an
 * update. */
#ifndef NAVAL_OCEAN_H
#define NAVAL_OCEAN_H

#include <stddef.h>
#include <stdint.h>

#include "nv_error.h"
#include "ocean_spectrum.h"
#include "water.h"
#include "naval/nv_api.h"

NV_API_BEGIN

#define OCEAN_MAX_CASCADES 4
#define OCEAN_MAX_RESOLUTION 2048
/* The finer cascade c+1 takes over at k = OCEAN_CASCADE_CUT * 2 pi / L_{c+1}
 * (its tile holds 8 wavelengths of the cut): independent of the resolution.
 * Unless the spectrum's peak band, up to k_p OCEAN_PEAK_BAND_HI (k_p =
 * w_p^2 / g; JONSWAP's peak enhancement is gone by 1.6 k_p), reaches above
 * that cut and ends under cascade c's Nyquist, (N/2 - 1) 2 pi / L_c: then
 * the cut moves up to the band's top and one grid samples the whole peak. */
#define OCEAN_CASCADE_CUT 8.0
#define OCEAN_PEAK_BAND_HI 1.8
/* size 0: cascade 0's tile holds this many peak wavelengths (2 pi g / w_p^2). */
#define OCEAN_AUTO_SIZE_WAVELENGTHS 16.0

typedef struct nv_ocean_params {
    nv_spectrum_type spectrum;    /* JONSWAP */
    nv_spreading_type spreading;  /* AUTO: cos^2 for Phillips, Mitsuyasu otherwise */
    double gravity;            /* 9.81 m/s^2 */
    double wind_speed;         /* m/s at 10 m (U10) for every spectrum, >= 0 (10) */
    double wind_direction;     /* degrees about +y from +x toward -z (0), as headings; waves travel downwind */
    double fetch;              /* m, > 0 for JONSWAP / TMA (100 km) */
    double depth;              /* m; 0 = deep water, else > 0 (TMA needs it) */
    double gamma;              /* JONSWAP peak enhancement, >= 1 (3.3) */
    double swell;              /* 0..1, narrows the cos-2s spreading (0) */
    double choppiness;         /* lambda >= 0 (1) */
    int beaufort;              /* -1 = unused; 0..12 sets wind_speed and hs_target */
    double hs_target;          /* m; > 0 scales the amplitudes so that the field's
                                  time-mean Hs (4 sqrt(2 sum |h0|^2)) is this (0 = off) */
    double tp;                 /* s; the peak period of a sea given by hs_target (or Beaufort):
                                  PM, JONSWAP, TMA. 0: from the wind and fetch, made no
                                  shorter than nv_spectrum_min_peak_period(hs) (Hs / Lp
                                  <= 1/20) when a target Hs is set (0) */
    double size;               /* tile length of cascade 0, m; 0: OCEAN_AUTO_SIZE_WAVELENGTHS
                                  peak wavelengths (0; nv_ocean_get_params gives the tile) */
    double cascade_ratio;      /* L_c = size / ratio^c, > 1 (5.23) */
    int cascades;              /* 1..4 (3) */
    int resolution;            /* Nx, power of two, 4..2048 (256) */
    int resolution_z;          /* Nz; 0 = same as Nx */
    double repeat_period;      /* T, s (1000): w quantised to multiples of 2 pi / T */
    double min_wavelength;     /* m; shorter waves are dropped, e.g. chop shorter
                                  than the boat (0 = keep all) */
    uint64_t seed;             /* (1) */
    int query_iterations;      /* Newton iterations per query point, 1..64 (8) */
    double query_tolerance;    /* m, horizontal residual of x0 + D(x0) - q (1e-3) */
    int surface_grid;          /* 0: every query inverts the displacement (exact).
                                  1: each update resamples the choppy surface onto the
                                  world grid (every node solved to query_tolerance, as
                                  the exact query would) and queries interpolate it
                                  bilinearly: ~10x cheaper per point, the same order of
                                  error as the bilinear fields. One cascade only (the
                                  tile must be periodic). (0) */
} nv_ocean_params;

typedef struct nv_ocean nv_ocean;

/* The fields of one cascade's grid, interleaved in pairs (see nv_ocean_field). */
typedef enum nv_ocean_field_id {
    OCEAN_FIELD_HEIGHT = 0,
    OCEAN_FIELD_VELOCITY_Y, /* dh/dt at the label (the surface particle's), m/s */
    OCEAN_FIELD_DISP_X,     /* lambda Dx */
    OCEAN_FIELD_DISP_Z,     /* lambda Dz */
    OCEAN_FIELD_SLOPE_X,    /* dh/dx0 */
    OCEAN_FIELD_SLOPE_Z,    /* dh/dz0 */
    OCEAN_FIELD_DXX,        /* d(lambda Dx)/dx0 */
    OCEAN_FIELD_DZZ,        /* d(lambda Dz)/dz0 */
    OCEAN_FIELD_DXZ,        /* d(lambda Dx)/dz0 = d(lambda Dz)/dx0 */
    OCEAN_FIELD_JACOBIAN,   /* (1 + Dxx)(1 + Dzz) - Dxz^2 */
    OCEAN_FIELD_COUNT
} nv_ocean_field_id;

/* Element (ix, iz) of a field is at data[OCEAN_FIELD_STRIDE * (iz * nx + ix)]. */
#define OCEAN_FIELD_STRIDE 2

/* Everything at one label x0 (summed over cascades). */
typedef struct nv_ocean_point {
    float height, velocity_y;
    float disp_x, disp_z;
    float slope_x, slope_z;
    float dxx, dzz, dxz;
    float jacobian;
} nv_ocean_point;

typedef struct nv_ocean_stats {
    double hs_measured;    /* 4 sqrt(sum over cascades of the grid height variance) */
    double hs_spectrum;    /* 4 sqrt(m0) of the continuous (scaled) spectrum */
    double hs_grid;        /* 4 sqrt(expected variance of the modes the grids hold) */
    double peak_period;    /* 2 pi / w_peak of the spectrum, s */
    double max_height;     /* over cascade 0's labels, all cascades summed */
    double min_height;
    double mean_height;
    double fold_fraction;  /* fraction of those labels with J < 0 */
} nv_ocean_stats;

nv_ocean_params nv_ocean_params_default(void);
/* 0 when usable; else -1 and a message naming the bad parameter. */
int nv_ocean_params_validate(const nv_ocean_params* p, nv_error* err);

/* Builds the spectrum, the random amplitudes and the FFTW plans
 * (FFTW_ESTIMATE: reproducible). The ocean is at time 0 on return. */
nv_ocean* nv_ocean_create(const nv_ocean_params* p, nv_error* err);
void nv_ocean_destroy(nv_ocean* o);

/* The water-surface interface (a pointer to the ocean's first member). */
const nv_water_surface* nv_ocean_surface(const nv_ocean* o);

/* Advances every cascade to `time` (s; any double: reduced modulo T). */
void nv_ocean_update(nv_ocean* o, double time);

/* The same update split into jobs. Per update:
 *   1. nv_ocean_update_begin(o, time)                  once, serial, cheap
 *   2. nv_ocean_update_columns(o, c, n0, n1)           any blocks of the spectrum's
 *                                                   kx columns [0, nx / 2): evolves
 *                                                   them and transforms them along z
 *   3. nv_ocean_transform_pair_rows(o, c, p, z0, z1)   p in [0, OCEAN_PAIR_COUNT),
 *                                                   any blocks of the rows [0, nz),
 *                                                   after all of c's columns (2);
 *                                                   pair 4 (which also computes J)
 *                                                   after pair 3 on the same rows.
 *   4. nv_ocean_update_surface_rows(o, z0, z1)         surface_grid only: any blocks of
 *                                                   the rows [0, nz), after all of 3
 * Cascades are independent of each other. Every job writes its own slice,
 * so the result is bit-identical to nv_ocean_update whatever the split and the
 * thread count. Jobs use up to ~64 KiB of stack. */
#define OCEAN_PAIR_COUNT 5
void nv_ocean_update_begin(nv_ocean* o, double time);
void nv_ocean_update_columns(nv_ocean* o, int cascade, int col_begin, int col_end);
void nv_ocean_transform_pair_rows(nv_ocean* o, int cascade, int pair, int row_begin, int row_end);
void nv_ocean_update_surface_rows(nv_ocean* o, int row_begin, int row_end);
/* Whether the update has stage 4 (params.surface_grid). */
int nv_ocean_has_surface_grid(const nv_ocean* o);

/* Choppy-surface query (also reachable as nv_ocean_surface(o)->sample): heights
 * from the resampled grid when surface_grid is set (normals from its
 * bilinear gradient, 0 returned); otherwise the exact inversion: heights
 * (optionally unit normals and vertical velocities) at world (x, z).
 * Newton on s + D(q + s) = 0 for the label x0 = q + s, from s = 0, with the
 * summed bilinear D and its spectral derivatives; a point is done when the
 * residual is under query_tolerance, or when the last step, shrinking
 * quadratically, predicts an error 4x under it. Near folds (det J <= 0.2)
 * the step falls back to the fixed point x0 <- q - D(x0). The height error
 * is about the tolerance times the slope (mm for the default 1 mm).
 * The answer is h(x0); the normal is the displaced surface's, from
 * the tangents (1 + Dxx, hx, Dxz) and (Dxz, hz, 1 + Dzz); the vertical
 * velocity is dh/dt at x0, the surface particle's (what drag against the
 * water needs). Returns how many points did not converge (folds): those get
 * the best iterate's height and the plain height-field normal. Four points
 * go at a time (SSE2), lane by lane the same arithmetic as one point alone:
 * a point's answer does not depend on its batch. Only reads the ocean. */
size_t nv_ocean_sample(const nv_ocean* o, const nv_water_query* query);
/* The inversion above whatever surface_grid says (tests, the grid's build). */
size_t nv_ocean_sample_exact(const nv_ocean* o, const nv_water_query* query);
/* Fields at labels x0 (no inversion), summed over cascades. */
void nv_ocean_sample_labels(const nv_ocean* o, size_t count, const double* x0, const double* z0, nv_ocean_point* out);

/* Statistics of the current state (allocates nothing; O(nx nz cascades)). */
void nv_ocean_measure(const nv_ocean* o, nv_ocean_stats* stats);

/* Introspection (tests, tools, renderers). */
const nv_ocean_params* nv_ocean_get_params(const nv_ocean* o); /* after Beaufort and size resolution */
const nv_spectrum_model* nv_ocean_get_model(const nv_ocean* o);
int nv_ocean_cascade_count(const nv_ocean* o);
double nv_ocean_cascade_size(const nv_ocean* o, int cascade);
/* Half-width (m) of the central differences the breaking crests' squeeze
 * is taken over: a quarter of the spectral peak's half wavelength; 0 when
 * the sea has no peak (then no crest breaks). Renderers that draw the
 * crests as whitecaps use it. */
double nv_ocean_breaking_stencil(const nv_ocean* o);
void nv_ocean_cascade_band(const nv_ocean* o, int cascade, double* k_lo, double* k_hi);
void nv_ocean_resolution(const nv_ocean* o, int* nx, int* nz);
double nv_ocean_time(const nv_ocean* o);
/* Grid of one field of one cascade (stride OCEAN_FIELD_STRIDE floats). */
const float* nv_ocean_field(const nv_ocean* o, int cascade, nv_ocean_field_id field);
/* Initial amplitude h0(k) (complex) of wave (n, m), -N/2 <= n, m < N/2, as
 * the update uses it (0 outside the cascade's band). */
void nv_ocean_initial_amplitude(const nv_ocean* o, int cascade, int n, int m, double out[2]);
/* Quantised angular frequency of wave (n, m): an integer multiple of 2 pi / T. */
double nv_ocean_wave_omega(const nv_ocean* o, int cascade, int n, int m);
/* h~(k, t) of wave (n, m) at the current time, computed exactly as the update does. */
void nv_ocean_evolved_amplitude(const nv_ocean* o, int cascade, int n, int m, float out[2]);

NV_API_END

#endif
