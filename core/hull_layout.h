// SPDX-License-Identifier: MIT
/* The layout of a hull's tables for the force kernels (nv_hull's
 * lanes and corner_lanes): private to the core, so the kernels can change
 * it without touching the public header. */
#ifndef NAVAL_HULL_LAYOUT_H
#define NAVAL_HULL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "naval/hull.h"

/* Entries of per-triangle arrays read eight at a time (the slamming
 * memory): room for a run of triangles that ends anywhere to be read in
 * whole lanes. */
static inline size_t hull_lane_count(uint32_t triangles) { return (((size_t)triangles + 7) & ~(size_t)7) + 8; }

/* hull.lanes holds, per group of eight triangles (HULL_GROUP, the kernels'
 * lanes), a block of these columns of eight floats each: one pointer walks
 * a group's columns at fixed offsets, so the kernels keep no pointer per
 * column (16 registers cannot hold 22 and the sums). The columns:
 * centroid, unit normal, (uncut) area, the edges from the first corner (a
 * cut triangle's wet centroid is the centroid moved by b1 e1 + b2 e2), and
 * N x r_i for each corner i with N = A n (a submerged triangle's pressure
 * moment is a sum of these, weighted by its corners' depths:
 * docs/hydrostatics.md). A last group's lanes past the hull's triangles
 * are zeros. */
#define HULL_GROUP 8
enum {
    HULL_LANE_CX, HULL_LANE_CY, HULL_LANE_CZ,
    HULL_LANE_NX, HULL_LANE_NY, HULL_LANE_NZ,
    HULL_LANE_AREA,
    HULL_LANE_E1X, HULL_LANE_E1Y, HULL_LANE_E1Z,
    HULL_LANE_E2X, HULL_LANE_E2Y, HULL_LANE_E2Z,
    HULL_LANE_K0X, HULL_LANE_K0Y, HULL_LANE_K0Z,
    HULL_LANE_K1X, HULL_LANE_K1Y, HULL_LANE_K1Z,
    HULL_LANE_K2X, HULL_LANE_K2Y, HULL_LANE_K2Z,
    HULL_LANE_COLUMNS
};
#define HULL_LANE_BLOCK (HULL_LANE_COLUMNS * HULL_GROUP) /* floats per group */
static inline size_t hull_group_count(uint32_t triangles) { return ((size_t)triangles + HULL_GROUP - 1) / HULL_GROUP; }
/* The block of the group that starts at triangle `first` (a multiple of
 * HULL_GROUP). */
static inline const float* hull_lane_block(const nv_hull* h, uint32_t first) {
    return h->lanes + (size_t)(first / HULL_GROUP) * HULL_LANE_BLOCK;
}

/* hull.corner_lanes: per group, the triangles' corner indices as three
 * columns of eight (the padding names vertex 0; its lanes have zero area),
 * for the hydrostatic kernel's gathers. */
static inline const int32_t* hull_corner_block(const nv_hull* h, uint32_t first) {
    return (const int32_t*)h->corner_lanes + (size_t)(first / HULL_GROUP) * 3 * HULL_GROUP;
}

#endif
