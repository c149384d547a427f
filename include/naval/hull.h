// SPDX-License-Identifier: MIT
/* A hull type: the mesh laid out for the per-vertex and per-triangle passes,
 * with its mass properties. Built once, shared read-only by every vessel of
 * that type (and by every worker thread). */
#ifndef NAVAL_HULL_H
#define NAVAL_HULL_H

#include <stdint.h>

#include "mass.h"
#include "mesh.h"
#include "nv_error.h"
#include "vecmath.h"

/* Exported: core is built with -fvisibility=hidden, so what this header
 * does not declare stays inside the library. */
#pragma GCC visibility push(default)

#define HULL_TRIANGLE_STRIDE 16
enum { HULL_TRI_NORMAL = 0, HULL_TRI_MOMENTS = 3, HULL_TRI_CENTROID = 12, HULL_TRI_AREA = 15 };

typedef struct hull {
    uint32_t vertex_count;
    uint32_t triangle_count;
    /* Vertex positions in the body frame, relative to the centre of gravity
     * (structure of arrays: the vertex pass streams them). */
    float* vx;
    float* vy;
    float* vz;
    uint32_t* triangles;   /* 3 vertex indices per triangle, outward winding */
    /* HULL_TRIANGLE_STRIDE floats per triangle (one cache line), body
     * frame: the unit outward normal n, N x r_i for its three corners with
     * N = A n (a fully submerged triangle's pressure is linear in its
     * corner depths), then its centroid and its area. */
    float* triangle_table;
    /* Columns of per-triangle floats that the force kernels' lanes load
     * straight (hull_lanes), zero-padded to hull_lane_count entries. */
    float* lanes;
    double total_area;     /* m^2 */
    mass_properties mesh_props; /* of the mesh, in mesh coordinates */
    mass_body body;        /* mass, CG (mesh coordinates), inertia about the CG */
    float bounds_min[3];   /* body frame (relative to the CG) */
    float bounds_max[3];
} hull;

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
static inline const float* hull_lane(const hull* h, int column) {
    return h->lanes + (size_t)column * hull_lane_count(h->triangle_count);
}

int nv_hull_create(hull* h, const mesh* m, const mass_spec* spec, nv_error* err);
void nv_hull_destroy(hull* h);

/* The hull's triangles back as a mesh in mesh coordinates (what column
 * preprocessing and visualizers want). */
int nv_hull_to_mesh(const hull* h, mesh* out, nv_error* err);

/* Mesh coordinates of a point given in the body frame (relative to the CG). */
static inline vec3 hull_body_to_mesh(const hull* h, vec3 body_point) { return v3_add(body_point, h->body.cg); }

#pragma GCC visibility pop

#endif
