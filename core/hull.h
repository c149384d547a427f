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
    float* triangle_area;  /* uncut area of each triangle, m^2 */
    /* HULL_TRIANGLE_STRIDE floats per triangle (one cache line), body
     * frame: the unit outward normal n, N x r_i for its three corners with
     * N = A n (a fully submerged triangle's pressure is linear in its
     * corner depths), then its centroid and its area. */
    float* triangle_table;
    double total_area;     /* m^2 */
    mass_properties mesh_props; /* of the mesh, in mesh coordinates */
    mass_body body;        /* mass, CG (mesh coordinates), inertia about the CG */
    float bounds_min[3];   /* body frame (relative to the CG) */
    float bounds_max[3];
} hull;

int hull_create(hull* h, const mesh* m, const mass_spec* spec, nv_error* err);
void hull_destroy(hull* h);

/* The hull's triangles back as a mesh in mesh coordinates (what column
 * preprocessing and visualizers want). */
int hull_to_mesh(const hull* h, mesh* out, nv_error* err);

/* Mesh coordinates of a point given in the body frame (relative to the CG). */
static inline vec3 hull_body_to_mesh(const hull* h, vec3 body_point) { return v3_add(body_point, h->body.cg); }

#endif
