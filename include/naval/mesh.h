// SPDX-License-Identifier: MIT
/* Triangle meshes: storage, cleaning (weld, drop degenerate) and validation
 * (closed, consistently oriented, outward, finite, within size limits), and
 * the file loaders (binary/ASCII STL, Wavefront OBJ, OFF) in mesh_io.c.
 *
 * Every mesh that reaches the physics has passed nv_mesh_finish(): loaders and
 * the procedural hulls (hullgen.c) alike. */
#ifndef NAVAL_MESH_H
#define NAVAL_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nv_error.h"
#include "naval/nv_api.h"

NV_API_BEGIN

typedef struct nv_mesh {
    float* positions;        /* 3 * vertex_count, x y z interleaved, world axes (+y up) */
    uint32_t* indices;       /* 3 * triangle_count, counter-clockwise seen from outside */
    uint32_t vertex_count;
    uint32_t triangle_count;
    uint32_t vertex_capacity;   /* allocated room, in vertices */
    uint32_t triangle_capacity; /* allocated room, in triangles */
} nv_mesh;

typedef enum nv_mesh_format {
    MESH_FORMAT_AUTO = 0, /* from the file name's extension */
    MESH_FORMAT_STL,      /* binary or ASCII, told apart by content */
    MESH_FORMAT_OBJ,
    MESH_FORMAT_OFF,
} nv_mesh_format;

#define MESH_DEFAULT_MAX_TRIANGLES 1000000u

typedef struct nv_mesh_options {
    char up;                  /* 'y' (default) or 'z': the file's up axis */
    uint32_t max_triangles;   /* reject larger meshes; 0 means MESH_DEFAULT_MAX_TRIANGLES */
    bool flip_inside_out;     /* reverse every triangle when the total volume is negative */
} nv_mesh_options;

typedef struct nv_mesh_report {
    uint32_t input_triangles;     /* as read (after fan triangulation) */
    uint32_t welded_vertices;     /* vertices removed by welding coincident positions */
    uint32_t dropped_triangles;   /* triangles removed as degenerate (repeated vertex) */
    uint32_t components;          /* edge-connected closed shells */
    bool flipped;                 /* the mesh was inside-out and was reversed */
    uint32_t unused_vertices;     /* vertices removed because no triangle uses them */
} nv_mesh_report;

nv_mesh_options nv_mesh_options_default(void);

void nv_mesh_init(nv_mesh* m);
void nv_mesh_free(nv_mesh* m);
/* Grow storage to hold at least these totals (not extra room); returns -1
 * with a message on allocation failure or limits. nv_mesh_add_triangle rejects
 * indices of vertices not yet added. */
int nv_mesh_reserve(nv_mesh* m, uint32_t vertices, uint32_t triangles, nv_error* err);
int nv_mesh_add_vertex(nv_mesh* m, float x, float y, float z, nv_error* err);
int nv_mesh_add_triangle(nv_mesh* m, uint32_t a, uint32_t b, uint32_t c, nv_error* err);

/* Converts a z-up mesh to the world's y-up frame: (x, y, z) -> (x, z, -y). */
void nv_mesh_convert_z_up(nv_mesh* m);
/* Merges vertices with bit-identical coordinates (-0 == +0); deterministic:
 * the first occurrence survives and survivors keep their order. Out of
 * memory leaves the mesh unchanged (nv_mesh_finish reports it as an error). */
void nv_mesh_weld(nv_mesh* m, uint32_t* removed);
/* Drops triangles that use a vertex twice. Zero-area triangles with three
 * distinct vertices are kept: they close T-junctions and carry no force. */
void nv_mesh_drop_degenerate(nv_mesh* m, uint32_t* dropped);
/* Removes vertices no triangle uses, keeping the others in order. */
void nv_mesh_drop_unused(nv_mesh* m, uint32_t* removed);
/* Checks: indices in range, vertices finite, no triangle using a vertex
 * twice, every edge used by exactly two triangles in opposite directions.
 * The message names the triangle(s) and edge (the earliest triangle's
 * problem when there are several). */
int nv_mesh_validate_closed(const nv_mesh* m, nv_error* err);
/* Edge-connected shells (two shells touching at one vertex count as two);
 * 0 for an empty mesh or when out of memory. */
uint32_t nv_mesh_count_components(const nv_mesh* m);
/* Summed about the first vertex: for a closed mesh the same as about the
 * origin, with less rounding far from it. */
double nv_mesh_signed_volume(const nv_mesh* m);
void nv_mesh_flip(nv_mesh* m);
void nv_mesh_bounds(const nv_mesh* m, float min_out[3], float max_out[3]);

/* The common cleaning and validation every mesh goes through: size limit,
 * finite coordinates, weld, drop degenerate, drop unused vertices,
 * closed/oriented check, components, positive volume (or flip when
 * allowed), then the optional z-up conversion. `name` prefixes messages,
 * which number vertices and triangles as the input did (0-based, triangles
 * after fan triangulation) and quote the input's coordinates. opts and
 * report may be NULL. On error the mesh is left part-way (the caller
 * frees it). */
int nv_mesh_finish(nv_mesh* m, const nv_mesh_options* opts, const char* name, nv_mesh_report* report, nv_error* err);

/* Loaders: parse, then nv_mesh_finish(). *out is initialised by the loader
 * (storage it held is not freed). On error *out is left empty and the
 * message names the file and the line (text formats) or triangle index;
 * vertex and triangle numbers in messages are 0-based in every format.
 * MESH_FORMAT_AUTO picks the format from the extension of path / name. */
int nv_mesh_load_file(const char* path, nv_mesh_format fmt, const nv_mesh_options* opts, nv_mesh* out, nv_mesh_report* report,
                      nv_error* err);
int nv_mesh_load_memory(const void* data, size_t size, nv_mesh_format fmt, const char* name, const nv_mesh_options* opts,
                        nv_mesh* out, nv_mesh_report* report, nv_error* err);

NV_API_END

#endif
