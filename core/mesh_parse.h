/* Private to the mesh loaders (mesh_io.c, mesh_text.c): the text-format
 * parsers. Each fills an empty mesh with the file's vertices and triangles
 * (fan-triangulated, in file order) and nothing else: mesh_load_memory runs
 * mesh_finish afterwards. Messages start with "line N: " and carry no file
 * name; the caller prefixes it. data need not be NUL-terminated. */
#ifndef NAVAL_MESH_PARSE_H
#define NAVAL_MESH_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "mesh.h"
#include "nv_error.h"

/* Most vertices one OBJ or OFF polygon may list: fan-triangulating a
 * polygon this big is surely wrong, and a count past it is a lying file. */
#define MESH_MAX_POLYGON_VERTICES 65536u

int mesh_parse_stl_ascii(const char* data, size_t size, uint32_t max_triangles, mesh* out, nv_error* err);
int mesh_parse_obj(const char* data, size_t size, uint32_t max_triangles, mesh* out, nv_error* err);
int mesh_parse_off(const char* data, size_t size, uint32_t max_triangles, mesh* out, nv_error* err);

#endif
