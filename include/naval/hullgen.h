// SPDX-License-Identifier: MIT
/* Procedural hulls for tests, demos and benchmarks. Each is built as a
 * subdivided box whose vertices are then moved, and goes through the same
 * nv_mesh_finish() as a loaded file (weld, drop collapsed triangles, validate).
 * Mesh coordinates: +x forward (bow), +y up, +z starboard, keel at y = 0,
 * midship at x = 0. */
#ifndef NAVAL_HULLGEN_H
#define NAVAL_HULLGEN_H

#include "mesh.h"
#include "nv_error.h"
#include "naval/nv_api.h"

NV_API_BEGIN

/* Box [-L/2, L/2] x [0, H] x [-B/2, B/2] with nx, ny, nz divisions per axis. */
int nv_hullgen_box(nv_mesh* out, double length, double beam, double height, unsigned nx, unsigned ny, unsigned nz,
                   nv_error* err);

/* A ship-like hull: flat transom aft, rounded bilge, bottom rising into a
 * pointed bow with a vertical stem. `target_triangles` sets the resolution
 * (the result is within a factor ~1.5 of it, at least ~100). */
int nv_hullgen_ship(nv_mesh* out, double length, double beam, double depth, unsigned target_triangles, nv_error* err);

/* Built-in hulls by name: "barge" (10 x 4 x 2 m box), "ship" (50 x 9 x 5 m),
 * "cube" (1 m), and the ship shape at the built-in vessel types' sizes:
 * "skiff" (5 x 1.9 x 0.8 m, 300 triangles), "patrol" (24 x 5.6 x 2.6 m,
 * 500) and "freighter" (120 x 19 x 12 m, 800). `target_triangles` 0 picks
 * each hull's default. An unknown name is an error that lists the known
 * ones. */
int nv_hullgen_build(const char* name, unsigned target_triangles, nv_mesh* out, nv_error* err);
int nv_hullgen_build_report(const char* name, unsigned target_triangles, nv_mesh* out, nv_mesh_report* report, nv_error* err);

/* Parses "builtin:NAME" or "builtin:NAME:TRIANGLES"; returns 1 and builds
 * when `spec` starts with "builtin:", 0 when it does not (a file name), -1 on
 * error. `report` (may be NULL) receives the cleaning report. */
int nv_hullgen_from_spec(const char* spec, nv_mesh* out, nv_mesh_report* report, nv_error* err);

NV_API_END

#endif
