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
#include "naval/nv_api.h"

NV_API_BEGIN

typedef struct nv_hull {
    uint32_t vertex_count;
    uint32_t triangle_count;
    /* Vertex positions in the body frame, relative to the centre of gravity
     * (structure of arrays: the vertex pass streams them). */
    float* vx;
    float* vy;
    float* vz;
    uint32_t* triangles;   /* 3 vertex indices per triangle, outward winding */
    /* The force passes' own tables, built by nv_hull_create and freed by
     * nv_hull_destroy: their layout is the kernels' (core/hull_layout.h),
     * not part of this header's contract. */
    float* lanes;
    uint32_t* corner_lanes;
    double total_area;     /* m^2 */
    nv_mass_properties mesh_props; /* of the mesh, in mesh coordinates */
    nv_mass_body body;        /* mass, CG (mesh coordinates), inertia about the CG */
    float bounds_min[3];   /* body frame (relative to the CG) */
    float bounds_max[3];
} nv_hull;

int nv_hull_create(nv_hull* h, const nv_mesh* m, const nv_mass_spec* spec, nv_error* err);
void nv_hull_destroy(nv_hull* h);

/* The hull's triangles back as a mesh in mesh coordinates (what column
 * preprocessing and visualizers want). */
int nv_hull_to_mesh(const nv_hull* h, nv_mesh* out, nv_error* err);

/* Mesh coordinates of a point given in the body frame (relative to the CG). */
static inline nv_vec3 hull_body_to_mesh(const nv_hull* h, nv_vec3 body_point) { return v3_add(body_point, h->body.cg); }

NV_API_END

#endif
