// SPDX-License-Identifier: MIT
/* The layout of a hull's tables for the force kernels (nv_hull's
 * triangle_table and lanes): private to the core, so the kernels can change
 * it without touching the public header. */
#ifndef NAVAL_HULL_LAYOUT_H
#define NAVAL_HULL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "naval/hull.h"

/* triangle_table: HULL_TRIANGLE_STRIDE floats per triangle (one cache
 * line), body frame: the unit outward normal n, N x r_i for its three
 * corners with N = A n (a fully submerged triangle's pressure is linear in
 * its corner depths), then its centroid and its area. */
#define HULL_TRIANGLE_STRIDE 16
enum { HULL_TRI_NORMAL = 0, HULL_TRI_MOMENTS = 3, HULL_TRI_CENTROID = 12, HULL_TRI_AREA = 15 };

/* lanes: columns of per-triangle floats that the force kernels' lanes
 * load straight, zero-padded to hull_lane_count entries. */
/* Entries of per-triangle arrays read eight at a time: room for a run of
 * triangles that ends anywhere to be read in whole lanes. */
static inline size_t hull_lane_count(uint32_t triangles) { return (((size_t)triangles + 7) & ~(size_t)7) + 8; }

/* The columns of hull.lanes: centroid, unit normal, (uncut) area, and the
 * edges from the first corner (a cut triangle's wet centroid is the
 * centroid moved by b1 e1 + b2 e2). */
enum {
    HULL_LANE_CX, HULL_LANE_CY, HULL_LANE_CZ,
    HULL_LANE_NX, HULL_LANE_NY, HULL_LANE_NZ,
    HULL_LANE_AREA,
    HULL_LANE_E1X, HULL_LANE_E1Y, HULL_LANE_E1Z,
    HULL_LANE_E2X, HULL_LANE_E2Y, HULL_LANE_E2Z,
    HULL_LANE_COLUMNS
};
static inline const float* hull_lane(const nv_hull* h, int column) {
    return h->lanes + (size_t)column * hull_lane_count(h->triangle_count);
}

#endif
