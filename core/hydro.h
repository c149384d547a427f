// SPDX-License-Identifier: MIT
/* Kerner's hydrostatics (part 1): the per-vertex pass (every hull vertex to
 * world space and its signed height above the water) and the per-triangle
 * pass (cut each triangle at the waterline, exact pressure force and moment
 * per submerged piece, summed about the centre of gravity).
 * The formulas and their sources: docs/hydrostatics.md. */
#ifndef NAVAL_HYDRO_H
#define NAVAL_HYDRO_H

#include <stdint.h>

#include "naval/hull.h"
#include "hull_layout.h"
#include "naval/hydrodyn.h"
#include "naval/nv_error.h"
#include "naval/vecmath.h"
#include "naval/water.h"

/* Per-worker scratch for the vertex pass: room for one block of vertices. */
typedef struct hydro_scratch {
    double* qx;       /* world x, z of each vertex of the block (the water query) */
    double* qz;
    double* wy;       /* world y of each vertex */
    float* surface;   /* water height answered */
    float *ox, *oy, *oz; /* world-oriented offsets from the CG (surfaces with sample_near) */
    float* height;       /* a whole small hull's vertex heights, between its two passes */
    uint32_t capacity;
} hydro_scratch;

int hydro_scratch_alloc(hydro_scratch* s, uint32_t capacity, nv_error* err);
void hydro_scratch_free(hydro_scratch* s);

/* World-oriented offset from the CG of hull vertex i (the vertex pass;
 * nothing stores them per vessel). */
static inline nv_vec3 hydro_vertex_offset(const nv_hull* h, const nv_mat3* rotation, uint32_t i) {
    const double(*r)[3] = rotation->m;
    double bx = h->vx[i], by = h->vy[i], bz = h->vz[i];
    return v3(r[0][0] * bx + r[0][1] * by + r[0][2] * bz, r[1][0] * bx + r[1][1] * by + r[1][2] * bz,
              r[2][0] * bx + r[2][1] * by + r[2][2] * bz);
}

/* Vertex pass over vertices [first, first + count) (count <= scratch
 * capacity): height[i] = signed height of vertex i above the water, < 0
 * submerged. `height` is the vessel's whole array (indexed by vertex).
 * Returns how many heights the water answered only approximately (folds). */
size_t hydro_vertex_pass(const nv_hull* h, uint32_t first, uint32_t count, nv_vec3 position, const nv_mat3* rotation,
                         const nv_water_surface* water, hydro_scratch* scratch, float* height);

/* One waterline segment: where a cut triangle crosses the surface, as
 * body-frame offsets from the CG. */
typedef struct hydro_segment {
    float a[3];
    float b[3];
} hydro_segment;

typedef struct hydro_sums {
    nv_vec3 force;                /* N (body frame from the pass, see hydro_sums_to_world) */
    nv_vec3 torque;               /* N m, about the CG */
    nv_vec3 slam_force;           /* slamming, apart: the integrator caps it so it never reverses the body */
    nv_vec3 slam_torque;
    nv_vec3 entry_force;          /* the water entry (hs_entry, in the hydrostatic kernel), apart: capped where it acts */
    nv_vec3 entry_torque;
    /* the moving water's friction and pressure alone (in force and torque
     * too), BODY frame whatever hydro_sums_to_world does: what a
     * manoeuvring model replaces in sway and yaw */
    nv_vec3 drag_force;
    nv_vec3 drag_torque;
    double submerged_area;     /* m^2 */
    uint32_t wetted_triangles; /* triangles with a submerged part */
    uint32_t segment_count;    /* waterline segments written */
} hydro_sums;

static inline void hydro_sums_clear(hydro_sums* s) {
    s->force = v3(0, 0, 0);
    s->torque = v3(0, 0, 0);
    s->slam_force = v3(0, 0, 0);
    s->slam_torque = v3(0, 0, 0);
    s->entry_force = v3(0, 0, 0);
    s->entry_torque = v3(0, 0, 0);
    s->drag_force = v3(0, 0, 0);
    s->drag_torque = v3(0, 0, 0);
    s->submerged_area = 0.0;
    s->wetted_triangles = 0;
    s->segment_count = 0;
}

/* Adds the pressure force and torque of triangles [first, first + count) to
 * `acc`, from the vessel's vertex heights, in the BODY frame (the hull's own
 * axes: nothing is rotated per vertex; hydro_sums_to_world turns a vessel's
 * total once).
 * `pressure_per_depth` is rho g (Pa/m). `segments` is NULL or has room for
 * the hull's triangle count; segments go at acc->segment_count, so they are
 * for one accumulator over a vessel's whole range (the world passes NULL). A
 * NaN height makes the force and torque NaN (never silently dry). `dyn`
 * (NULL: hydrostatics only) adds the moving-water and air forces its model
 * switches on; `slam_state` (the vessel's, one half float per triangle,
 * hull_lane_count entries, or NULL) carries slamming's memory between
 * steps. The kernels read and write whole groups of eight triangles (the
 * hull's tables are laid out by group), so `first` must be a multiple of
 * HULL_GROUP (the world's triangle_block is one). Blocks
 * may run on different threads into separate sums, added in block
 * order for a deterministic total. */
void hydro_triangle_pass(const nv_hull* h, const float* height, uint32_t first, uint32_t count,
                         double pressure_per_depth, const nv_hydrodyn_frame* dyn, uint16_t* slam_state, hydro_sums* acc,
                         hydro_segment* segments);
/* Rotates the forces and torques of body-frame sums into the world frame;
 * drag_force and drag_torque stay in the body frame. */
void hydro_sums_to_world(hydro_sums* s, const nv_mat3* rotation);

/* A submerged piece of a cut triangle: corners with their depths below the
 * surface (>= 0), wound like the parent. */
typedef struct hydro_piece {
    nv_vec3 p[3];
    double depth[3];
} hydro_piece;

typedef struct hydro_cut {
    hydro_piece pieces[2];
    int piece_count;         /* 0 dry, 1 or 2 */
    double area_fraction;    /* submerged area / triangle area, in [0, 1] */
    int has_segment;         /* the triangle crosses the surface */
    nv_vec3 segment[2];
} hydro_cut;

/* Cuts one triangle with corner heights h (< 0 under water) at the surface.
 * Exposed for tests and for tools that integrate over the submerged part. */
void hydro_cut_triangle(const nv_vec3 p[3], const double h[3], hydro_cut* out);

#endif
