// SPDX-License-Identifier: MIT
/* The static world under and beside the sea: a heightfield of the seabed
 * and the land, read from a 16-bit grayscale PNG (or given as heights),
 * sampled bilinearly. Node (i, j) stands at (x0 + i cell, z0 + j cell);
 * pixel value 0 is min_elevation, 65535 max_elevation (metres, + up;
 * negative: seabed depth, positive: land). Outside the grid is open deep
 * sea (TERRAIN_DEEP). Built once, then only read: every query is
 * thread-safe. */
#ifndef NAVAL_TERRAIN_H
#define NAVAL_TERRAIN_H

#include <stdint.h>

#include "nv_error.h"
#include "vecmath.h"
#include "naval/nv_api.h"

NV_API_BEGIN

/* The elevation of the open sea's floor outside the grid, m. */
#define TERRAIN_DEEP (-10000.0)
/* Nodes per axis, at most (a 16k x 16k map is 512 MiB of floats). */
#define TERRAIN_MAX_NODES 16384u

typedef struct nv_terrain_spec {
    double origin_x, origin_z; /* world position of node (0, 0), m */
    double cell_size;          /* m between nodes, > 0 */
    double min_elevation;      /* m at pixel value 0 */
    double max_elevation;      /* m at pixel value 65535, > min_elevation */
} nv_terrain_spec;

typedef struct nv_terrain nv_terrain;

/* 0, or -1 naming the first bad field (non-finite, cell_size <= 0,
 * max_elevation <= min_elevation). */
int nv_terrain_spec_validate(const nv_terrain_spec* spec, nv_error* err);
/* From a 16-bit grayscale PNG. Errors name the file and what is wrong:
 * missing (NV_ENOENT), not a PNG or truncated (NV_EPROTO), another bit
 * depth or colour type, or a size beyond TERRAIN_MAX_NODES (NV_EINVAL). */
int nv_terrain_load_png(nv_terrain** out, const char* path, const nv_terrain_spec* spec, nv_error* err);
/* From nx x nz elevations in metres, row j = z index, taken as they are
 * (spec's elevations bound them: each must lie in [min, max]). */
int nv_terrain_create(nv_terrain** out, uint32_t nx, uint32_t nz, const float* elevation, const nv_terrain_spec* spec,
                      nv_error* err);
void nv_terrain_destroy(nv_terrain* t);
/* The built-in harbour's quay: a block of fill over x in [X0, X1], z in
 * [Z0, Z1], its east face (x = X1) on the dredged basin. */
#define NV_HARBOUR_QUAY_X0 60.0
#define NV_HARBOUR_QUAY_X1 100.0
#define NV_HARBOUR_QUAY_Z0 (-60.0)
#define NV_HARBOUR_QUAY_Z1 (-20.0)
/* Its beach: the shoreline's middle, the sand falling 1:10 toward -z. */
#define NV_HARBOUR_BEACH_X (-60.0)
#define NV_HARBOUR_BEACH_Z (-140.0)

/* A built-in terrain by name: "harbour" (core/terrain_builtin.c: an
 * island with a 1:10 beach, a quay and a jetty in a dredged basin, 600 m
 * square around the origin). */
int nv_terrain_builtin(const char* name, nv_terrain** out, nv_error* err);

/* Elevation at (x, z), m: bilinear inside the grid, TERRAIN_DEEP outside. */
double nv_terrain_elevation(const nv_terrain* t, double x, double z);
/* Elevation and the upward unit normal of the bilinear surface there
 * (straight up outside the grid). */
double nv_terrain_sample(const nv_terrain* t, double x, double z, nv_vec3* normal);
/* An upper bound of the elevation over the rectangle [x0, x1] x [z0, z1]
 * (never below the highest point there; TERRAIN_DEEP where it is all
 * outside the grid): one look tells a vessel it is far from the ground. */
double nv_terrain_max_in(const nv_terrain* t, double x0, double z0, double x1, double z1);
/* FNV-1a of the node counts, the spec and every elevation: a restore
 * tells whether it rebuilt the same ground. */
uint64_t nv_terrain_fingerprint(const nv_terrain* t);
void nv_terrain_size(const nv_terrain* t, uint32_t* nx, uint32_t* nz);
const nv_terrain_spec* nv_terrain_get_spec(const nv_terrain* t);

NV_API_END

#endif
