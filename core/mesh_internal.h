// SPDX-License-Identifier: MIT
/* Private to the mesh module (mesh.c, mesh_check.c, mesh_io.c,
 * mesh_text.c); nothing outside core/mesh*.c includes this. */
#ifndef NAVAL_MESH_INTERNAL_H
#define NAVAL_MESH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "naval/mesh.h"
#include "naval/nv_error.h"

/* ---- checks (mesh_check.c) ---- */

/* Indices in range and coordinates finite; the message names the first
 * offending triangle or vertex. */
int mesh_check_vertices(const nv_mesh* m, nv_error* err);
/* Every edge used by exactly two triangles in opposite directions, then
 * the number of edge-connected components. Expects a mesh without
 * triangles that use a vertex twice. Messages number vertex v as
 * vertex_origin[v] and triangle t as triangle_origin[t] (the input's
 * numbering; NULL: the mesh's own). */
int mesh_check_topology(const nv_mesh* m, const uint32_t* vertex_origin, const uint32_t* triangle_origin,
                        uint32_t* components, nv_error* err);

/* ---- text parsers (mesh_text.c) ----
 * Each fills an empty mesh with the file's vertices and triangles
 * (fan-triangulated, in file order) and nothing else: nv_mesh_load_memory runs
 * nv_mesh_finish afterwards. Messages start with "line N: " and carry no file
 * name; the caller prefixes it. data need not be NUL-terminated. */

/* Most vertices one OBJ or OFF polygon may list: fan-triangulating a
 * polygon this big is surely wrong, and a count past it is a lying file. */
#define MESH_MAX_POLYGON_VERTICES 65536u

int mesh_parse_stl_ascii(const char* data, size_t size, uint32_t max_triangles, nv_mesh* out, nv_error* err);
int mesh_parse_obj(const char* data, size_t size, uint32_t max_triangles, nv_mesh* out, nv_error* err);
int mesh_parse_off(const char* data, size_t size, uint32_t max_triangles, nv_mesh* out, nv_error* err);

#endif
