// SPDX-License-Identifier: MIT
/* Zephyr columns (seed 004): a hull's volume as an n x m grid of vertical
 * columns over its footprint, each with a bottom, a top, its true enclosed
 * volume and a density. A cheap buoyancy model for distant vessels: one
 * water sample per column instead of one per vertex plus a cut per
 * triangle. docs/lod.md gives the formulas and the measured accuracy.
 *
 * Two forms:
 *   columns_set    the preprocessed columns in mesh coordinates, as in the
 *                  seed's text file (nv_columns_build, nv_columns_import/export);
 *   columns_model  the run-time form: the columns with volume, as offsets
 *                  from a CG in the body frame (nv_columns_model_create), and
 *                  the per-step force (nv_columns_force). */
#ifndef NAVAL_COLUMNS_H
#define NAVAL_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "mesh.h"
#include "nv_error.h"
#include "vecmath.h"
#include "water.h"
#include "naval/nv_api.h"

NV_API_BEGIN

/* One column, mesh coordinates (+y up). A built column stands for the
 * hull inside its cell: x, z are the horizontal centre of that volume (the
 * cell's centre when empty), and ymin, ymax bound the uniform column with
 * the same volume, the same mean height and the same spread (variance of
 * height) as the hull inside the cell; where the hull fills the cell from
 * a flat bottom to a flat deck they are that bottom and that deck (an
 * empty column spans the mesh's height, volume 0). Why
 * not the lowest and highest points: the run-time law spreads a column's
 * volume evenly between ymin and ymax, and where the section narrows
 * toward the keel (bilge, forefoot) matching the two moments keeps the
 * submerged volume, hence the draft, close to the hull's (docs/lod.md). */
typedef struct nv_columns_column {
    double x, ymin, z, ymax;
    double volume;  /* m^3, >= 0 */
    double density; /* kg/m^3, > 0 */
} nv_columns_column;

typedef struct nv_columns_set {
    nv_columns_column* columns;
    uint32_t count;
    uint32_t nx, nz;       /* the grid it was built on (columns x-major: i * nz + j); 0 when imported */
    uint32_t skipped_rays; /* rays with an odd number of crossings, left out (0 for a closed mesh) */
} nv_columns_set;

#define COLUMNS_MAX_GRID 1024u    /* per axis */
#define COLUMNS_MAX_SAMPLES 64u   /* rays per column per axis */
#define COLUMNS_MAX_COUNT 1000000u /* columns in a file */

typedef struct nv_columns_build_options {
    uint32_t nx, nz;   /* columns along x and along z (20, 5) */
    uint32_t samples;  /* k: k x k vertical rays per column (16) */
    double mass;       /* kg; > 0 gives every column the mean density mass / total column
                          volume (the columns then weigh the vessel's mass); 0: density 1 */
} nv_columns_build_options;

nv_columns_build_options nv_columns_build_options_default(void);

/* Splits the mesh's x-z bounding box into nx x nz cells and casts k x k
 * vertical rays through each (at the centres of a k x k sub-grid): the
 * sorted crossings of a ray with the triangles pair up into inside
 * intervals. A ray through an edge or a vertex is counted once: the edge
 * test is evaluated the same way from both triangles sharing an edge, with
 * a half-open (top-left) rule for points exactly on it. Cells the hull does
 * not cover (outside its outline, open bays between hulls) get volume 0.
 * The mesh must be closed (nv_mesh_finish). */
int nv_columns_build(const nv_mesh* m, const nv_columns_build_options* opts, nv_columns_set* out, nv_error* err);
void nv_columns_free(nv_columns_set* s);

double nv_columns_total_volume(const nv_columns_set* s);
/* Mass sum(density x volume) and its centre (mesh coordinates, each
 * column's weight at its centre); centre is (0, 0, 0) for a weightless set. */
void nv_columns_mass(const nv_columns_set* s, double* mass, nv_vec3* centre);

/* The seed's text format:
 *     # NB_LINE_PER_DATA
 *     COUNT
 *
 *     # COORDINATE, VOLUME, DENSITY
 *     X,Ymin,Z,Ymax,Volume,Density      (COUNT lines)
 * Numbers are written with 10 significant digits. Reading accepts CRLF,
 * blanks around fields, blank lines and further '#' comment lines; it
 * rejects anything else with "name:line: field: what is wrong". */
int nv_columns_export(const nv_columns_set* s, const char* path, nv_error* err);
int nv_columns_import(const char* path, nv_columns_set* out, nv_error* err);
/* The same from memory; `name` stands for the file in messages. */
int nv_columns_parse(const char* text, size_t size, const char* name, nv_columns_set* out, nv_error* err);

/* Damping defaults (1/s), per unit of displaced water mass: see nv_columns_force. */
#define COLUMNS_DAMPING_VERTICAL 0.5
#define COLUMNS_DAMPING_HORIZONTAL 0.05

typedef struct nv_columns_model {
    uint32_t count;     /* columns with volume > 0 (the arrays are padded to a multiple of 4) */
    float* ox;          /* column centre minus the CG, body frame */
    float* oy;
    float* oz;
    float* height;      /* ymax - ymin */
    float* inv_height;
    float* volume;      /* m^3 */
    double total_volume;
    double keel;        /* lowest column bottom minus the CG's y, body frame */
    double damping_vertical;   /* 1/s (COLUMNS_DAMPING_VERTICAL) */
    double damping_horizontal; /* 1/s (COLUMNS_DAMPING_HORIZONTAL) */
} nv_columns_model;

/* Keeps the columns with volume; `cg` in mesh coordinates. Fails when no
 * column has volume, or one with volume has no height or is not finite. */
int nv_columns_model_create(nv_columns_model* m, const nv_columns_set* s, nv_vec3 cg, nv_error* err);
void nv_columns_model_destroy(nv_columns_model* m);

/* Bytes of scratch nv_columns_force needs (8-byte aligned memory). */
size_t nv_columns_scratch_bytes(const nv_columns_model* m);

typedef struct nv_columns_pose {
    nv_vec3 position;         /* CG, world */
    nv_mat3 rotation;         /* body -> world */
    nv_vec3 velocity;         /* of the CG, world */
    nv_vec3 angular_velocity; /* world */
    nv_vec3 water_velocity;   /* of the water the damping acts against (e.g. the surface's
                              vertical velocity at the CG), world */
} nv_columns_pose;

typedef struct nv_columns_result {
    nv_vec3 force;              /* N, world */
    nv_vec3 torque;             /* N m about the CG, world */
    double submerged_volume; /* m^3 */
    uint32_t wet_columns;    /* columns with a submerged fraction > 0 */
    size_t approximate;      /* water answers the surface marked approximate */
} nv_columns_result;

/* Per column i (volume V_i, height h_i, centre c_i = R o_i from the CG,
 * kept vertical in the world whatever the attitude):
 *   f_i = clamp((surface(c_i) - (y + c_i.y - h_i / 2)) / h_i, 0, 1)
 *   a_i = c_i + e (f_i - 1) h_i / 2        (the submerged part's centre; e is the body's
 *                                          +y in the world, or -y when upside down)
 *   buoyancy  rho g V_i f_i upward, at a_i
 *   damping   -rho V_i f_i (c_h u_x, c_v u_y, c_h u_z) at a_i, u = v + w x a_i - water_velocity
 * with c_v = damping_vertical, c_h = damping_horizontal: per unit of
 * displaced water mass, so a floating hull (rho V_sub = m) sees its heave
 * velocity decay at the rate c_v and its surge at c_h. Acting at a_i
 * rather than at c_i, the buoyancy moves outboard with heel as the hull's
 * centre of buoyancy does (GM = KB + BM - KG; at c_i it would be the
 * column centre's height in place of KB). One batched water query for all
 * columns (sample_near when the surface has it). Force and torque about
 * the CG, world frame; gravity is the caller's. A NaN surface height makes
 * the result NaN (never silently dry). No allocation; returns -1 only when
 * the scratch is too small or misaligned. */
int nv_columns_force(const nv_columns_model* m, const nv_columns_pose* pose, const nv_water_surface* water, double water_density,
                     double gravity, void* scratch, size_t scratch_bytes, nv_columns_result* out);

/* CG height at which the columns, held at `orientation`, carry `mass` on
 * flat water at height 0 (bisection on nv_columns_force); fails when the
 * mass is not less than the water the columns displace fully submerged. */
int nv_columns_balance_height(const nv_columns_model* m, double mass, double water_density, double gravity,
                              nv_quat orientation, double* y, nv_error* err);

NV_API_END

#endif
