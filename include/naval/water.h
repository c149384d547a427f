// SPDX-License-Identifier: MIT
/* The water surface a hull floats on, seen through batched queries.
 *
 * The hull's per-vertex pass hands arrays of world (x, z) and gets heights
 * back (optionally unit normals and the surface's vertical velocity). Every
 * surface answers in its own current state: the owner advances it (e.g.
 * nv_water_sine_set_time, or the FFT ocean's update) before the pass, never
 * during it, so `sample` only reads and may run on many threads at once. */
#ifndef NAVAL_WATER_H
#define NAVAL_WATER_H

#include <stddef.h>
#include "naval/nv_api.h"

NV_API_BEGIN

typedef struct nv_water_query {
    size_t count;
    const double* x;          /* world x of each point */
    const double* z;          /* world z of each point */
    float* height;            /* out: surface height y at (x, z); required */
    float* normal;            /* out, optional: 3 floats per point, unit, +y up */
    float* vertical_velocity; /* out, optional: d(height)/dt, m/s */
} nv_water_query;

typedef struct nv_water_surface nv_water_surface;
struct nv_water_surface {
    /* Fills the query's outputs. Returns how many points got an approximate
     * answer (an ocean's folds, say); 0 when every answer is exact. */
    size_t (*sample)(const nv_water_surface* self, const nv_water_query* query);
    /* Optional (NULL: use `sample`): heights at (x0 + dx[i], z0 + dz[i]) for
     * points given as float offsets from one double origin, as a hull's
     * vertices are. Lets a surface do the per-point work in float. */
    size_t (*sample_near)(const nv_water_surface* self, double x0, double z0, size_t count, const float* dx,
                          const float* dz, float* height);
    /* The waves' pressure under the mean level: linear theory's dynamic
     * pressure falls as e^(k z) with depth z below `mean_level` (the Smith
     * effect), so a hull's vertex pass takes the elevation eta there as
     * mean_level + (eta - mean_level) e^(k min(0, y - mean_level)).
     * pressure_decay is k (1/m): a regular wave's wavenumber, a sea's at its
     * spectral peak; 0 (flat water, or a surface that sets nothing) keeps
     * Kerner's hydrostatic pressure on the local surface. */
    double pressure_decay;
    double mean_level;
    /* Optional (NULL: no crest ever breaks): whether the points stand in a
     * breaking crest, 3 floats per point in `out`: the crest water's
     * horizontal velocity (x, z, m/s) and its reach (m), how far under the
     * surface that water goes and how high its lip is thrown above it;
     * all three 0 where no crest breaks. `height` is the surface at the
     * points as `sample` answered them (only a crest breaks: a surface
     * skips the rest). Reads only, like `sample`. */
    void (*breaking)(const nv_water_surface* self, size_t count, const double* x, const double* z,
                     const float* height, float* out);
};

/* A breaking crest's water over the linear phase speed of its wave: the
 * crest is thrown forward faster than the wave travels (a plunging jet).
 * Calibrated, not derived: the smallest ratio (in tenths) at which a
 * breaker 35 % of the patrol boat's length high, beam-on, rolls it past
 * 130 degrees and one of 30 % does not (the model tests' figure,
 * docs/hydrodynamics.md, "Breaking crests"). */
#define WATER_BREAKING_JET 1.4
/* A breaking crest's wave: as steep as a wave can be (Stokes' limiting
 * wave, H / lambda 0.142, Michell 1893). */
#define WATER_BREAKING_STEEPNESS 0.142

/* The breaking crests at the points (zeros for a surface without them). */
static inline void water_breaking(const nv_water_surface* surface, size_t count, const double* x, const double* z,
                                  const float* height, float* out) {
    if (surface->breaking) {
        surface->breaking(surface, count, x, z, height, out);
        return;
    }
    for (size_t i = 0; i < 3 * count; i++) out[i] = 0.0f;
}

/* The elevation whose hydrostatic pressure at height y is the wave's
 * (the Smith effect above): mean + (surface - mean) e^(k min(0, y - mean)),
 * with e^x as (1 + x/32)^32 (x clamped at -32: within 2 % where it matters,
 * x > -2, and plain multiplies that round alike on every machine). k 0
 * gives the surface itself. */
static inline float water_smith_elevation(float y, float surface, float k, float mean) {
    float below = y - mean < 0.0f ? y - mean : 0.0f;
    float x = k * below;
    x = x > -32.0f ? x : -32.0f;
    float e = 1.0f + x * (1.0f / 32.0f);
    e *= e, e *= e, e *= e, e *= e, e *= e;
    return mean + (surface - mean) * e;
}

static inline size_t water_sample(const nv_water_surface* surface, const nv_water_query* query) {
    return surface->sample(surface, query);
}

/* Still water at a fixed level. */
typedef struct nv_water_flat {
    nv_water_surface base;
    double level;
} nv_water_flat;

void nv_water_flat_init(nv_water_flat* w, double level);

/* One travelling sine wave, h = A sin(k (x cos d + z sin d) - omega t + phase),
 * with deep-water dispersion omega^2 = g k. */
typedef struct nv_water_sine {
    nv_water_surface base;
    double amplitude;   /* m */
    double wavelength;  /* m */
    double direction;   /* radians about +y from +x toward -z, as headings */
    double phase;       /* radians */
    double wavenumber;  /* k = 2 pi / wavelength */
    double omega;       /* rad/s */
    double time;        /* s; the state queries answer for */
    /* Breaking crests (a test's breaker, none by default): from
     * breaking_from to breaking_until (s), wherever the surface stands
     * above the mean by more than half the amplitude, its water moves at
     * WATER_BREAKING_JET times the phase speed along the wave, reaching as far as the surface
     * stands above the mean (nv_water_surface.breaking). */
    double breaking_from, breaking_until;
} nv_water_sine;

/* Returns -1 unless amplitude >= 0 and wavelength > 0 (finite). */
int nv_water_sine_init(nv_water_sine* w, double amplitude, double wavelength, double direction, double gravity);
void nv_water_sine_set_time(nv_water_sine* w, double time);
/* Crests break from `from` to `until` (s); from >= until: never. */
void nv_water_sine_set_breaking(nv_water_sine* w, double from, double until);

NV_API_END

#endif
